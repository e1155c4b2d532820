"""Languages: the interface's words through gettext, numbers and dates per language, typography per language.

A :class:`Language` is a value, not global state: a build, a reference or a request of the companion holds the
one it was asked for (`--lang fr`, a deck's `lang:`, a phone's Accept-Language) and passes it down, so two
languages can be served at once. Python code says ``lang._("Floor tile")`` and ``lang.ngettext("card", "cards",
n)``; a layout says ``{{ _('Floor tile') }}``; a module-level constant is marked with :func:`N_` and translated
where it is shown. Babel extracts these (``python -m generator.i18n.catalogs extract``), the catalogs of
`generator/locale/LANG/LC_MESSAGES/donjon.po` hold the translations, and the build compiles them to `.mo`
(`hatch_build.py`). A message a catalog lacks falls back to English, the language the code is written in.

English costs nothing: its :class:`Language` reads no catalog and imports neither :mod:`gettext` nor Babel (a
build in English stays as lean as before). Another language loads its compiled catalog once, and imports Babel
only when it formats a number or a date.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.i18n.typography import typeset

if TYPE_CHECKING:
    import datetime

#: The language donjon's code and catalogs are written in, and the fallback of every other.
DEFAULT = "en"
#: The languages whose interface catalogs are complete (a test checks every message of each).
INTERFACE = ("en", "fr", "de")
#: Each interface language as its speakers name it (for a language switch and for messages).
ENDONYMS = {"en": "English", "fr": "Français", "de": "Deutsch"}
#: The gettext domain of donjon's catalogs.
DOMAIN = "donjon"
#: A language code as donjon takes it: ISO 639 (`fr`), optionally with a region (`fr-CA`, `pt_BR`).
_CODE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z]{2})?")

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def N_(message: str) -> str:  # noqa: N802 - gettext's name for "mark for extraction, translate later"
    """Mark a constant for extraction; it is translated where it is shown (``lang._(CONSTANT)``)."""
    return message


def normalise_code(code: str) -> str | None:
    """`fr`, `fr-CA` (from `fr_ca`, `FR-ca`...) for a well-formed code, else None."""
    text = code.strip()
    if not _CODE.fullmatch(text.lower()):
        return None
    base, _, region = text.replace("_", "-").partition("-")
    return base.lower() + (f"-{region.upper()}" if region else "")


class Language:
    """One language: its messages, its numbers and dates, its typography."""

    def __init__(self, code: str, translations: Any = None) -> None:
        self.code = code
        self.base = code.split("-")[0]
        self._translations = translations

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    @property
    def name(self) -> str:
        """The language as its speakers name it (`Français`), or its code when donjon does not know it."""
        return ENDONYMS.get(self.base, self.code)

    @property
    def english(self) -> bool:
        return self.base == DEFAULT

    def _(self, message: str) -> str:
        """`message` in this language (English when the catalog lacks it). Nothing is nothing in every language:
        gettext answers "" with its catalog's header ("Project-Id-Version: ..."), which a field of a sheet of one's
        own without a description showed as its help on the French and German table."""
        if self._translations is None or not message:
            return message
        return str(self._translations.gettext(message))

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of `singular`/`plural` this language uses for `count` (its own plural rules)."""
        if self._translations is None:
            return singular if count == 1 else plural
        return str(self._translations.ngettext(singular, plural, count))

    def pgettext(self, context: str, message: str) -> str:
        """:meth:`_` for a message whose English is used elsewhere with another meaning: "Game" over a list of
        titles is the game ("Spiel"), in Guédelon's reference a play of it ("Partie")."""
        if self._translations is None or not message:
            return message
        return str(self._translations.pgettext(context, message))

    def npgettext(self, context: str, singular: str, plural: str, count: int) -> str:
        """:meth:`ngettext` for a message whose English is used elsewhere with another meaning or grammar:
        `context` tells them apart in the catalogs (German says "2 Türme" in a list, "mit 2 Türmen" after "with")."""
        if self._translations is None:
            return singular if count == 1 else plural
        return str(self._translations.npgettext(context, singular, plural, count))

    def format(self, message: str, /, **values: Any) -> str:
        """`message` in this language with each `{name}` filled from `values`, whole numbers as the language writes
        them (the `_` of a page's template: `_("Guest of floor {n}", n=5)`)."""
        return self._(message).format(**{k: self.number(v) if isinstance(v, int) and not isinstance(v, bool) else v
                                         for k, v in values.items()})

    def nformat(self, singular: str, plural: str, count: int, /, **values: Any) -> str:
        """The form of `singular`/`plural` for `count`, `{n}` being the count (a page's `ngettext`)."""
        return self.ngettext(singular, plural, count).format(n=self.number(count), **values)

    def number(self, value: float, decimals: int | None = None) -> str:
        """`1,234.5` in English, `1 234,5` in French, `1.234,5` in German (Babel, past English)."""
        if self.english:
            # Babel's English pattern, without importing Babel (a test checks the two agree)
            return f"{value:,.{decimals}f}" if decimals is not None else f"{value:,}" if isinstance(value, int) \
                else f"{value:,.3f}".rstrip("0").rstrip(".")
        from babel.numbers import format_decimal

        pattern = None if decimals is None else "#,##0." + "0" * decimals if decimals else "#,##0"
        return str(format_decimal(value, format=pattern, locale=self.babel_locale))

    def counted(self, count: int, one: str, many: str) -> str:
        """`count` and a word of someone's own (in no catalog: a sheet's item words), `one` or `many` as the
        language's plural rule says (Babel's: French says "0 marchandise", English "0 goods")."""
        from babel import Locale

        form = Locale.parse(self.babel_locale).plural_form(count)
        return f"{self.number(count)} {one if form == 'one' else many}"

    def date(self, value: datetime.date, form: str = "long") -> str:
        """A date as this language writes it (`31 January 2026`, `31 janvier 2026`, `31. Januar 2026`)."""
        from babel.dates import format_date

        return str(format_date(value, form, locale=self.babel_locale))

    def listing(self, items: list[str], conjunction: str = "and") -> str:
        """`2, 3 ou 5`, `Anna und Ben`: items joined as this language joins them (Babel's list patterns; `or` or
        `and`). English messages keep donjon's own style (generator.wording.listing: no serial comma)."""
        from babel.lists import format_list

        if not items:
            return ""
        return str(format_list(items, style="or" if conjunction == "or" else "standard", locale=self.babel_locale))

    def ordinal(self, number: int) -> str:
        """`5e` in French, `5.` in German: a rank as a figure (English ranks are generator.wording.ordinal's)."""
        if self.base == "fr":
            return "1er" if number == 1 else f"{number}e"
        if self.base == "de":
            return f"{number}."
        return str(number)

    @property
    def babel_locale(self) -> str:
        """The locale Babel formats this language's numbers, dates and lists with: the code's, else its base
        language's, else English (a well-formed code no locale data has, such as `sp` for `es`, speaks English
        words; it writes English numbers too, rather than fail)."""
        return _babel_locale(self.code)

    def typeset(self, text: str, narrow: str = "\u202f") -> str:
        """`text` with this language's typography: French spaces before `; : ! ?` and « quotes », German „quotes“
        (`narrow` is the narrow no-break space, or a no-break space for a font without it)."""
        return typeset(self.base, text, narrow)


class Figure(float):
    """A quantity a message says (a limit, a number typed, a size in MiB, a player's points): written as the
    language of whoever reads it writes numbers (1,000,000; 1 000 000; 1.000.000; 0.25, 0,25) when it is said
    (:func:`figures`); a plain int (a table's number, a seat, an index such as `players[1]`) is said as it is."""


class WholeFigure(int):
    """A whole quantity a message says, written as the reader's language writes numbers, every digit kept: a
    number typed can be past what a float holds exactly (23 nines said through :class:`Figure` came out as
    99 999 999 999 999 991 611 392)."""


def when(lang: Language, value: Any) -> str:
    """A stored date and time (`2026-01-31 20:15:00`) as the language writes it (`31 janv. 2026, 20:15`); English
    keeps the stored form, which the companion's pages and `donjon history` have always shown (one function for
    both: the phone and the command line write a game's date alike)."""
    text = str(value or "")
    if lang.english or not text:
        return text
    import datetime

    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        return text
    from babel.dates import format_date, format_time

    day = str(format_date(moment.date(), "medium", locale=lang.babel_locale))
    if len(text) <= len("2026-01-31"):
        return day
    return f"{day} {format_time(moment.time(), 'short', locale=lang.babel_locale)}"


def figures(values: dict[str, Any], lang: Language) -> dict[str, Any]:
    """`values` with each :class:`Figure` and :class:`WholeFigure` written as `lang` writes numbers (a whole one
    without decimals)."""
    return {k: lang.number(int(v)) if isinstance(v, WholeFigure) else _figure(v, lang) if isinstance(v, Figure)
            else v for k, v in values.items()}


def _figure(value: float, lang: Language) -> str:
    if value.is_integer():
        return lang.number(int(value))
    if not round(value, 3).is_integer():
        return lang.number(float(value))  # three decimals at most, as the language's own pattern has them
    # a value the three decimals would round to a whole one keeps every digit it has: 1.0001 tokens said as "1"
    # would contradict the message saying they are not whole
    from decimal import Decimal

    return lang.number(float(value), decimals=-int(Decimal(repr(float(value))).as_tuple().exponent))


@cache
def _babel_locale(code: str) -> str:
    from babel import Locale, UnknownLocaleError

    for candidate in dict.fromkeys((code.replace("-", "_"), code.split("-")[0])):
        try:
            Locale.parse(candidate)
        except (UnknownLocaleError, ValueError):
            continue
        return candidate
    return DEFAULT


@cache
def language(code: str = DEFAULT) -> Language:
    """The language of `code` (`fr`, `de-AT`...), its catalog loaded once; a code donjon has no catalog for
    speaks English, and a code that is not one raises ValueError."""
    normal = normalise_code(code)
    if normal is None:
        raise ValueError(f"{code!r} is not a language code (such as en, fr or de)")
    if normal.split("-")[0] == DEFAULT:
        return Language(normal)
    return Language(normal, _translations(normal))


#: The language a command says its messages about a user's files in (`content check --lang fr`, `build --lang de`),
#: for the length of the command (:func:`messages_in`): the loaders of content folders (catalogs, decks, layouts,
#: sheets of one's own) are called from many places that have no language to pass, and their problems are said in
#: this one when set. A context variable rather than a global: the companion's requests (threads, tasks) never set
#: it and pass their own language wherever they say something.
_MESSAGES: ContextVar[Language | None] = ContextVar("donjon_messages", default=None)


@contextmanager
def messages_in(lang: Language | None) -> Iterator[None]:
    """Say the problems of loading content in `lang` for the block (None or English: English, as without it)."""
    token = _MESSAGES.set(None if lang is None or lang.english else lang)
    try:
        yield
    finally:
        _MESSAGES.reset(token)


def messages_language() -> Language | None:
    """The language :func:`messages_in` set, or None (English)."""
    return _MESSAGES.get()


def phrase(message: str, /, **values: Any) -> str:
    """`message` (a msgid) in the language of :func:`messages_in`, English without one, each `{name}` filled from
    `values` (whole numbers as the language writes them)."""
    lang = _MESSAGES.get()
    if lang is None:
        return message.format(**values)
    return lang.format(message, **values)


def phrase_n(singular: str, plural: str, count: int, /, **values: Any) -> str:
    """:func:`phrase` for a message with a count: `{n}` is `count`, as the language writes it and in its form (in
    English as :func:`generator.wording.plural` writes it: `1234 problems`)."""
    lang = _MESSAGES.get()
    if lang is None:
        return (singular if count == 1 else plural).format(n=count, **values)
    return lang.nformat(singular, plural, count, **values)


def phrase_number(value: int) -> str:
    """A whole number for a :func:`phrase` whose English wrote it with thousands' commas (`{count:,}`): so in
    English, as the language of :func:`messages_in` writes it otherwise (`12 000`, `12.000`)."""
    lang = _MESSAGES.get()
    return f"{value:,}" if lang is None else lang.number(value)


def phrase_figure(value: float, form: str) -> str:
    """A number for a :func:`phrase` whose English wrote it with a format (`.1f`, `g`): so in English, as the
    language of :func:`messages_in` writes a number of as many decimals otherwise (`64,5`)."""
    text = format(value, form)
    lang = _MESSAGES.get()
    if lang is None or not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", text):
        return text
    return lang.number(float(text), len(text.partition(".")[2]))


def negotiate(accept: str | None, available: tuple[str, ...] = INTERFACE) -> str:
    """The language of `available` a client prefers, from an HTTP Accept-Language header (`fr-CH, fr;q=0.9, en;q=0.8`):
    the first by quality whose code or base language is available; English when none is (or the header is missing
    or malformed). The companion asks it for each request (generator/web/languages.py)."""
    wanted: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept or "").split(",")[:50]):
        code, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        normal = normalise_code(code) if code.strip() != "*" else None
        if normal is not None and quality > 0:
            wanted.append((-quality, index, normal))
    for _quality, _index, code in sorted(wanted):
        for candidate in (code, code.split("-")[0]):
            if candidate in available:
                return candidate
    return DEFAULT


def _translations(code: str) -> Any:
    """The compiled catalog of `code` (or of its base language), English when there is none."""
    import gettext

    for candidate in (code.replace("-", "_"), code.split("-")[0]):
        folder = LOCALE_DIR / candidate / "LC_MESSAGES"
        mo, po = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
        if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
            with mo.open("rb") as stream:
                return gettext.GNUTranslations(stream)
        if po.is_file():
            # a source checkout whose catalogs were edited since they were compiled: compile them, and keep the
            # result beside its source as the build does, so that the next process reads it instead of compiling
            # it again (about 0.2 s of processor time for every process in French or German: every photo read,
            # which compares the photo with the sheet's French and German prints)
            from generator.i18n.catalogs import compiled, keep_compiled

            buffer = compiled(po)
            keep_compiled(buffer.getvalue(), mo)
            return gettext.GNUTranslations(buffer)
    return gettext.NullTranslations()


__all__ = ["DEFAULT", "ENDONYMS", "INTERFACE", "LOCALE_DIR", "Language", "N_", "language", "negotiate",
           "normalise_code"]
