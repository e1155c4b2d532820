"""The companion in the phone's language: which language a request is answered in, and the words pages use.

A request is answered in the language its phone chose with the switch on every page (a cookie, kept a year), else
in the first language of its `Accept-Language` header donjon speaks (English, French, German), else in English.
Nothing is global: each request builds its :class:`generator.i18n.Language`, and a page's templates get `_` and
`ngettext` in it (autoescaped: a translation and the values put in it are escaped, a link given as `Markup` is
kept), the words of its language switch, and dates as the language writes them (Babel).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from markupsafe import Markup
from starlette.exceptions import HTTPException
from starlette.requests import Request

from generator.i18n import ENDONYMS, INTERFACE, N_, Language, language, negotiate, when

#: The confidence of a house default, as a word (end-states.md's `house`).
HOUSE = N_("house")
#: The cookie the language switch sets: a phone keeps its language for a year, on every page and table.
COOKIE = "donjon-lang"
COOKIE_AGE = 365 * 24 * 3600


class Refused(HTTPException):
    """A request refused with one of `generator.web.messages`, said in the language of whoever asked: a page in the
    phone's, the JSON API's `error` in its request's (English for a script that names none) beside `kind`, its
    `code`, which never changes with the language (a script tests it, not the words), and `field`, the key of the
    body it is about, if any."""

    def __init__(self, status: int, message: str, kind: str = "", field: str = "", **values: Any) -> None:
        super().__init__(status, message.format(**values))
        self.message = message
        self.values = values
        self.kind = kind
        self.field = field


def chosen(request: Request) -> str:
    """The language code a request is answered in: the phone's choice (cookie), else its Accept-Language."""
    cookie = request.cookies.get(COOKIE, "")
    if cookie in INTERFACE:
        return cookie
    return negotiate(request.headers.get("accept-language"))


def request_language(request: Request) -> Language:
    return language(chosen(request))


def said(lang: Language, message: str, **values: Any) -> str:
    """A message of `generator.web.messages` in `lang`, filled in (plain text)."""
    return lang._(message).format(**values)


def page_words(lang: Language) -> dict[str, Any]:
    """What every page's templates get: `_`, `ngettext`, `npgettext`, `said` and `number` in `lang`, the language's
    code, the switch's languages, and the `when` of dates."""

    def gettext(message: str, **values: Any) -> Markup:
        said = _escaped_in(lang, message)
        return said.format(**values) if values else said  # braces with no values are the page script's to fill

    def ngettext(singular: str, plural: str, count: int, **values: Any) -> Markup:
        # the count as the language writes it: a history of 2400 games is "2 400 parties" in French
        return _escaped(lang.ngettext(singular, plural, count)).format(n=lang.number(count), **values)

    def npgettext(context: str, singular: str, plural: str, count: int, **values: Any) -> Markup:
        # a message whose English another page uses with another meaning ("{n} games" of the history are plays,
        # the preview's are titles: "parties", not "jeux")
        return _escaped(lang.npgettext(context, singular, plural, count)).format(n=lang.number(count), **values)

    def pgettext(context: str, message: str) -> Markup:
        # a word another page uses with another meaning ("Game": the title here, a play in a reference)
        return _escaped(lang.pgettext(context, message))

    def translated(message: str, **values: Any) -> str:
        return said(lang, message, **values)

    def confidence(code: str) -> str:
        """A confidence as shown beside a value: H, M and L are letters in every language; `house` is a word."""
        return lang._(HOUSE) if code == "house" else code

    def number(value: float, decimals: int | None = None) -> str:
        """A figure a page shows on its own (a player's average score, games played), as the language writes
        numbers: an average of 20 was "20.0" on a French or German page, which write "20,0"."""
        return lang.number(value, decimals)

    return {"_": gettext, "ngettext": ngettext, "pgettext": pgettext, "npgettext": npgettext, "said": translated,
            "confidence": confidence, "number": number, "lang": lang.code,
            "languages": [(code, ENDONYMS[code]) for code in INTERFACE], "when": _bound(when, lang)}


def _escaped(text: str) -> Markup:
    """A message as HTML: `&`, `<`, `>` and `"` escaped (the pages' attributes are in double quotes); an apostrophe
    stays one, as the English pages always wrote it. Values put in are escaped whole (Markup.format)."""
    return Markup(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;"))


@lru_cache(maxsize=4096)
def _escaped_in(lang: Language, message: str) -> Markup:
    """`message` in `lang`, escaped: the same for every request, and a page asks for dozens (a few thousand kept:
    every message of the pages in each language, and the labels of the games' forms)."""
    return _escaped(lang._(message))


def _bound(function: Callable[[Language, Any], str], lang: Language) -> Callable[[Any], str]:
    return lambda value: function(lang, value)


#: The page a form's answer stands for, by the form's address: a page drawn in answer to a form (a save to confirm, a
#: name refused) has the form's address, which only takes a POST; the language switch on it returned there by GET,
#: to "Method Not Allowed" (in English), and the rename form's to the player page of a player called "rename".
_FORM_PAGES = ((re.compile(r"/tables/(\d+)/seats/(\d+)/(?:name|sheet|marks)"), "/tables/{0}/seats/{1}"),
               (re.compile(r"/tables/(\d+)/(?:save|edit)"), "/tables/{0}"),
               (re.compile(r"/tables/(\d+)/photos/keep"), "/tables/{0}/photos"),
               (re.compile(r"/history/games/(\d+)/(?:delete|correct)"), "/history/games/{0}"),
               (re.compile(r"/history/players/(?:rename|merge)"), "/history/players"),
               (re.compile(r"/tables|/language"), "/"))


def here(request: Request) -> str:
    """Where the language switch of a page returns to: the page's own address, or for a page answering a form, the
    page that form stands for (:data:`_FORM_PAGES`), which a GET opens."""
    path = request.url.path
    if request.method in ("GET", "HEAD"):
        return path + (f"?{request.url.query}" if request.url.query else "")
    for pattern, page in _FORM_PAGES:
        found = pattern.fullmatch(path)
        if found:
            return page.format(*found.groups())
    return path


def safe_next(path: str) -> str:
    """Where the language switch returns to: a path of this site only (never `//host` or a full address)."""
    if not path.startswith("/") or path.startswith("//") or "\\" in path or len(path) > 500:
        return "/"
    return path


__all__ = ["COOKIE", "COOKIE_AGE", "Refused", "chosen", "here", "page_words", "request_language", "safe_next", "said",
           "when"]
