"""Saying things in one language: a message filled in, a count's form, a list joined.

What the scorer's findings and every message written through a language share (`donjon score --lang fr`, the
companion's pages, a filled sheet's problems): scoring.findings.Findings says its violations this way, and
:class:`Words` says the rest. It sits low (on generator.i18n and generator.wording only) so that the layers
below the scorer's (generator.sheets' form reader) say things the same way without importing the scorer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from generator.i18n import Figure, Language, figures, language, messages_language
from generator.wording import QUOTE_LIMIT, listing, quoted, visible


class Sayings:
    """The ways of saying things in one language that :class:`Words` and scoring.findings.Findings share (each
    holds its `lang`)."""

    __slots__ = ()
    lang: Language

    def _(self, message: str, /, **values: Any) -> str:
        """`message` in the language, each `{name}` filled from `values`: a :class:`Figure` (a quantity: points,
        tokens) as the language writes numbers, a `{name!r}` quoted as it quotes a user's value, anything else as it
        is (an index stays `players[1]`)."""
        return filled(self.lang._(message), figures(values, self.lang), self.lang)

    def ngettext(self, singular: str, plural: str, count: int, /, **values: Any) -> str:
        """The form of `singular`/`plural` for `count` in the language, `{n}` being the count (a quantity, written
        as the language writes numbers)."""
        return self.lang.ngettext(singular, plural, count).format(**figures({"n": Figure(count), **values}, self.lang))

    def listing(self, items: Iterable[object], conjunction: str = "and") -> str:
        """`2, 3 or 5` (`2, 3 ou 5`), `Ana and Ben` (`Ana et Ben`): items joined in the language."""
        words = [str(i) for i in items]
        return listing(words, conjunction) if self.lang.english else self.lang.listing(words, conjunction)


class Words(Sayings):
    """Sentences in one language, for what a game's rules say beyond their findings (the result's summary, the
    table's heading, a filled sheet's problems): the same ways of saying as the findings' (`donjon score --lang`,
    the companion). A plain class, not a dataclass: every deck build imports this module (its quotes), and a
    dataclass compiles its generated methods as it is defined (tests/render/test_images.py keeps a build lean)."""

    __slots__ = ("lang",)

    def __init__(self, lang: Language | None = None) -> None:
        self.lang = lang if lang is not None else language()


#: How French and German quote a user's value in a sentence (English shows Python's quotes, `'x'`, as it always did).
_QUOTES = {"fr": ("«\u202f", "\u202f»"), "de": ("„", "“")}


def phrase_quoted(value: object, limit: int | None = QUOTE_LIMIT, lang: Language | None = None) -> str:
    """A user's value quoted in a :func:`generator.i18n.phrase` (in the language of `messages_in`): `'x'` in English
    (:func:`generator.wording.quoted`, the value's repr; whole when `limit` is None), `« x »` in French and `„x“` in
    German, its control characters written out as escapes and cut as English cuts it. `lang`: that language's
    quotes rather than the messages' (a checker's, whose language is given)."""
    lang = lang if lang is not None else messages_language()
    if lang is None or lang.base not in _QUOTES:
        return repr(value) if limit is None else quoted(value, limit)
    opening, closing = _QUOTES[lang.base]
    text = visible(str(value))
    if limit is not None and len(text) > limit:
        length = lang.nformat("{n} character", "{n} characters", len(str(value)))
        return f"{opening}{text[:limit]}…{closing} ({length})"
    return f"{opening}{text}{closing}"


def quote(value: object) -> str:
    """The whole of a user's value quoted as the language of the messages quotes (:func:`phrase_quoted`): its repr in
    English, `« x »` in French, `„x“` in German."""
    return phrase_quoted(value, None)



def phrase_either(items: list[str]) -> str:
    """`a or b or c` in English (each joined by "or", as donjon's English messages always said a choice), else as the
    language of the messages lists a choice (`a, b ou c`)."""
    lang = messages_language()
    return " or ".join(items) if lang is None else lang.listing(items, "or")


def phrase_both(items: list[str]) -> str:
    """`a, b and c` (:func:`generator.wording.listing`) in English, else as the language of the messages lists
    them."""
    lang = messages_language()
    return listing(items) if lang is None else lang.listing(items)

class Quoted:
    """A user's value a message quotes, quoted when the message is said (:func:`generator.errors.unreadable`): as
    the language of whoever reads it quotes a value, which may not be the language the message was first said in
    (a file the companion reads said again in the phone's language, `InputError.said`)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def said(self, lang: Language) -> str:
        """The value quoted as `lang` quotes it (its repr in English)."""
        return phrase_quoted(self.value, None, lang)


def filled(message: str, values: dict[str, Any], lang: Language | None) -> str:
    """`message` with its `{names}` filled from `values`, a `{name!r}` quoted as `lang` quotes a user's value
    (Python's quotes in English, word for word as `str.format` writes them)."""
    if lang is None or lang.base not in _QUOTES:
        return message.format(**values)
    import string

    class _Quoting(string.Formatter):
        def convert_field(self, value: Any, conversion: str | None) -> Any:
            return phrase_quoted(value, None, lang) if conversion == "r" else super().convert_field(value, conversion)

    return _Quoting().vformat(message, (), values)
