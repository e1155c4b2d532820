"""Declarative types for the documents donjon reads: one definition checks a document and describes it.

A catalog kind, a layout or an end-state format is written once as a tree of these types. The same tree
(1) checks a :class:`~generator.yamlio.Document`, collecting *every* problem with its file, line and path
rather than stopping at the first, and converts what is valid into typed records; and (2) produces the JSON
Schema that donjon publishes, so the schema an editor checks against can never drift from the loader.

Why not jsonschema: its messages name schema paths rather than the user's file and line, it would add a
dependency to start-up, and it cannot build the typed records the rest of the code works with.
"""

from __future__ import annotations

import difflib
import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Generic, NamedTuple, TypeVar, cast

from generator.errors import Problem
from generator.i18n import N_, messages_language
from generator.sayings import filled, phrase_quoted, quote
from generator.wording import plural, quoted
from generator.yamlio import Document, PathKey

if TYPE_CHECKING:
    from generator.i18n import Language

T = TypeVar("T")
#: what checking a value of a type gives (covariant: a Type[int] is a Type[int | None])
T_co = TypeVar("T_co", covariant=True)
K = TypeVar("K")
V = TypeVar("V")


class Invalid:
    """The result of checking a value that has a problem (the problem is already recorded)."""

    _instance: Invalid | None = None

    def __new__(cls) -> Invalid:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "INVALID"

    def __bool__(self) -> bool:
        return False


INVALID: Final = Invalid()


#: Characters no output can hold: C0 and C1 controls (but tab and line breaks), DEL, lone surrogates and the
#: Unicode noncharacters. XML (so SVG) refuses them, PDF text shows them as boxes or nothing. Text, compiled by
#: `re` when first needed: every one of them is unprintable to Python, and most cells are printable throughout.
_CONTROL = ("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef"
            + "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(17))
            + "]")
_CONTROL_NAMES = {0: "NUL", 7: "BEL", 8: "backspace", 0x1B: "ESC", 0x7F: "DEL"}


def control_character(text: str) -> str | None:
    """The first character of `text` no output can hold, described (`U+001B (ESC)`), or None."""
    if text.isprintable():
        return None
    found = re.search(_CONTROL, text)
    if found is None:
        return None
    code = ord(found.group())
    name = _CONTROL_NAMES.get(code, "a control character" if code < 0xA0 else "not a character")
    return f"U+{code:04X} ({name})"


#: A value's kind as :func:`describe` says it.
_KINDS = {bool: N_("true/false"), int: N_("a whole number"), float: N_("a number"), str: N_("text"),
          list: N_("a list"), dict: N_("a mapping"), type(None): N_("nothing")}


def describe(value: Any, lang: Language | None = None) -> str:
    """A short quotation of a user's value for an error message (its kind in `lang`, English)."""
    kind = _KINDS.get(type(value))
    kind = type(value).__name__ if kind is None else lang._(kind) if lang is not None else kind
    if isinstance(value, (dict, list)) or value is None:
        return kind
    # true and false as YAML and JSON write them (a message quoting Python's True would name no value of the file)
    text = ("true" if value else "false") if isinstance(value, bool) else repr(value)
    if isinstance(value, str) and lang is not None and not lang.english:
        # text as the language quotes it (« lots », „lots“), cut as English cuts its repr
        text = phrase_quoted(value, None, lang)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{text} ({kind})"


class Checker:
    """Collects the problems found while checking one document."""

    def __init__(self, doc: Document, lang: Language | None = None, names: str | None = None) -> None:
        self.doc = doc
        self.problems: list[Problem] = []
        self.labels: dict[PathKey, str] = {}
        # The language of the messages (None: English); the companion shows them to a phone in its language, and
        # `content check --lang fr` a designer's files in theirs (generator.i18n.messages_in, when none is given)
        self.lang = lang if lang is not None else messages_language()
        #: the language the document names things in (`de`), when known: a name it cannot take is said with the
        #: names of that language (a German sheet's guests as it prints them), which is what its writer reads
        self.names = names
        #: the languages that spell each name read so far, one entry per name (:meth:`Choice.check` notes them): the
        #: language of a file that does not say its own (:meth:`names_language`)
        self.spellings: list[tuple[str, ...]] = []
        #: whether a name was refused before the document's language was known (`check_document` checks again)
        self.unnamed = False
        #: each name the document writes other than as its value (`Händler` for `trader`), by the place of the value
        #: in the record (a mapping's key by the value: `players[1].guildhall.trader`), so that the rules, which see
        #: values, say what the player wrote
        self.written: dict[PathKey, str] = {}

    def spelled(self, languages: Iterable[str]) -> None:
        """Note a name the document gives, spelled as `languages` name it."""
        self.spellings.append(tuple(languages))

    def wrote(self, path: PathKey, value: str, found: str) -> None:
        """Note that the document names `found` as `value` at `path` (a mapping's key by the value it names)."""
        self.written[(*path[:-1], found) if path and path[-1] == value else path] = value

    def names_language(self) -> str | None:
        """The language the names read are written in (:func:`vote_language`; a document that does not say its own
        language has none to break a tie but that of the messages), or None when no name was in any language."""
        return vote_language(self.spellings, self.lang.base if self.lang is not None else None)

    def fail(self, path: PathKey, message: str, **values: Any) -> Invalid:
        """Record a problem at `path`: `message` in the checker's language, its `{names}` filled from `values`
        (a message given without values is used as it is: it may hold braces of its own)."""
        if self.lang is not None:
            message = self.lang._(message)
        if values:
            message = filled(message, values, self.lang)
        self.problems.append(Problem(self.doc.file, self.doc.line(path), self.where(path), message))
        return INVALID

    def describe(self, value: Any, path: PathKey | None = None) -> str:
        """A user's value quoted, its kind in the checker's language; the value at `path` as the file spells it
        where YAML read it otherwise (`yes (true/false)`, not `True`)."""
        said = describe(value, self.lang)
        spelled = self.doc.spelled.get(path) if path is not None else None
        if spelled is None or isinstance(value, (dict, list)) or value is None:
            return said
        kind = said.rsplit(" (", 1)[-1]
        return f"{spelled[:37] + '...' if len(spelled) > 40 else spelled} ({kind}"

    def where(self, path: PathKey) -> str:
        """`players[1].guildhall.hunter`; a list item with an id shows it: `professions[farmer].levels[0]`."""
        out = ""
        for depth, part in enumerate(path):
            if isinstance(part, int):
                label = self.labels.get(path[: depth + 1])
                out += f"[{label if label is not None else part}]"
            else:
                out += f".{part}" if out else str(part)
        return out


class Type(ABC, Generic[T_co]):
    """A type of value in a document; checking a value gives a `T_co` (or INVALID, with every problem recorded).

    Types and the checker are plain classes with a written `__init__`, not dataclasses: a spec is compared by
    identity, never as a value, nor printed, and every command defines them at start-up, where a dataclass's
    generated `__init__` costs a compile each (12 M instructions, some 5 ms, of a build)."""

    doc: str = ""

    @abstractmethod
    def check(self, value: Any, path: PathKey, ck: Checker) -> T_co | Invalid:
        """The converted value, or INVALID after recording each problem with `ck`."""

    @abstractmethod
    def schema(self) -> dict[str, Any]:
        """This type as a JSON Schema fragment."""

    def _with_doc(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self.doc:
            schema["description"] = self.doc
        return schema


class Text(Type[str]):
    """A string; optionally one matching `pattern` (`hint` says in words what the pattern wants)."""

    def __init__(self, min_len: int = 1, max_len: int = 4000, pattern: str | None = None, hint: str = "", doc: str = "",
                 drawn: bool = True) -> None:
        self.min_len = min_len
        self.max_len = max_len
        self.pattern = pattern
        self.hint = hint
        self.doc = doc
        # Whether the text may be drawn into a PDF, an SVG or a PNG, none of which can hold control characters: then
        # they are refused with their place (issue 12.10). False for text donjon only shows, such as a player's
        # name in an end state: control characters are kept, and escaped wherever they are shown
        # (`generator.wording.visible`).
        self.drawn = drawn

    @functools.cached_property
    def _regex(self) -> re.Pattern[str] | None:
        """The pattern, compiled on the first check and kept: most of the patterns a build's schemas define belong
        to keys its content never uses, so none is compiled when a schema is defined."""
        return re.compile(self.pattern) if self.pattern else None

    def check(self, value: Any, path: PathKey, ck: Checker) -> str | Invalid:
        if isinstance(value, (bool, int, float)):
            # YAML reads bare No, Yes, On, Off as booleans and 42 or 1e3 as numbers: a name written so was meant as
            # text, and quotes keep it so (the message quotes the word as the file spells it: Document.spelled)
            return ck.fail(path, N_("expected text, got {value}; if it is text (a name such as No or 42), put it "
                                    "in quotes"), value=ck.describe(value, path))
        if not isinstance(value, str):
            return ck.fail(path, N_("expected text, got {value}"), value=ck.describe(value, path))
        if len(value.strip()) < self.min_len:
            if self.min_len == 1:
                return ck.fail(path, N_("must not be empty"))
            return ck.fail(path, N_("needs at least {least} characters"), least=self.min_len)
        if len(value) > self.max_len:
            return ck.fail(path, N_("is {length} characters long, more than the {most} allowed"), length=len(value),
                           most=self.max_len)
        bad = control_character(value) if self.drawn else None
        if bad is not None:
            return ck.fail(path, N_("holds the character {character}, which no output can show; remove it"),
                           character=bad)
        if self._regex is not None and not self._regex.fullmatch(value):
            # the hint in the checker's language where the catalogs hold it (the common ones are marked N_)
            hint = (self.hint if ck.lang is None else ck.lang._(self.hint)) if self.hint else (
                N_("of the form {pattern}") if ck.lang is None else ck.lang._(N_("of the form {pattern}"))).format(
                pattern=quote(self.pattern))
            return ck.fail(path, N_("{value} is not {hint}"), value=phrase_quoted(value), hint=hint)
        return value

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "string", "minLength": self.min_len, "maxLength": self.max_len}
        if self.pattern:
            out["pattern"] = "^(?:" + self.pattern + ")$"
        return self._with_doc(out)


SLUG_PATTERN = r"[a-z0-9]+(?:-[a-z0-9]+)*"


def Slug(doc: str = "") -> Text:  # noqa: N802 - reads as a type in catalog definitions
    """An id: lower-case letters and digits in words joined by `-` (`tax-collector`)."""
    return Text(max_len=80, pattern=SLUG_PATTERN,
                hint=N_("an id of lower-case words joined by '-' (like 'tax-collector')"), doc=doc)


#: A number out of its bounds (whole or not).
SMALLER = N_("is {value}, less than the smallest allowed, {least}")
LARGER = N_("is {value}, more than the largest allowed, {most}")


class Int(Type[int]):
    """A whole number within bounds (true/false and decimals are refused); with `among`, one of those numbers
    only (a sheet's number marked by bubbles of its values: 2, 4 or 6)."""

    def __init__(self, min: int | None = None, max: int | None = None, doc: str = "",
                 among: Sequence[int] | None = None) -> None:
        self.min = min
        self.max = max
        self.doc = doc
        self.among = among

    def check(self, value: Any, path: PathKey, ck: Checker) -> int | Invalid:
        if isinstance(value, bool) or not isinstance(value, int):
            return ck.fail(path, N_("expected a whole number, got {value}"), value=ck.describe(value, path))
        if self.min is not None and value < self.min:
            return ck.fail(path, SMALLER, value=_short_int(value), least=self.min)
        if self.max is not None and value > self.max:
            return ck.fail(path, LARGER, value=_short_int(value), most=self.max)
        if self.among is not None and value not in self.among:
            return ck.fail(path, N_("expected one of {values}, got {value}"),
                           values=_listing([str(n) for n in self.among], ck.lang), value=_short_int(value))
        return value

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "integer"}
        if self.min is not None:
            out["minimum"] = self.min
        if self.max is not None:
            out["maximum"] = self.max
        if self.among is not None:
            out["enum"] = list(self.among)
        return self._with_doc(out)


def _short_int(value: int) -> str:
    text = str(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"


class Number(Type[float]):
    """A number (whole or decimal) within bounds."""

    def __init__(self, min: float | None = None, max: float | None = None, doc: str = "") -> None:
        self.min = min
        self.max = max
        self.doc = doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> float | Invalid:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return ck.fail(path, N_("expected a number, got {value}"), value=ck.describe(value, path))
        if isinstance(value, int) and abs(value) > 10**15:
            return ck.fail(path, N_("is {value}, far outside any sensible range"), value=_short_int(value))
        if self.min is not None and value < self.min:
            return ck.fail(path, SMALLER, value=value, least=self.min)
        if self.max is not None and value > self.max:
            return ck.fail(path, LARGER, value=value, most=self.max)
        return float(value)

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "number"}
        if self.min is not None:
            out["minimum"] = self.min
        if self.max is not None:
            out["maximum"] = self.max
        return self._with_doc(out)


class Bool(Type[bool]):
    """true or false."""

    def __init__(self, doc: str = "") -> None:
        self.doc = doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> bool | Invalid:
        if not isinstance(value, bool):
            return ck.fail(path, N_("expected true or false, got {value}"), value=ck.describe(value, path))
        return value

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"type": "boolean"})


def normalise_name(text: str) -> str:
    """The one way donjon folds a name before comparing it: case, spaces, `_` and `-`, accents, and the characters
    no one sees (:func:`visible_name`, as a player's name drops them: a soft hyphen or a zero-width space pasted
    from a page). `Tax Collector`, `tax_collector` and `TAX-COLLECTOR` all become `tax-collector`; `Guédelon`
    becomes `guedelon` and `Once Upon a Castle` `once-upon-a-castle`."""
    if not text.isascii():
        import unicodedata

        text = visible_name(text)
        text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    # a dash of any kind is a dash: a word processor or a phone types ` - ` as an en dash (`Tax – Collector`)
    return re.sub(r"[\s_\-\u2010-\u2015\u2212]+", "-", text.strip().casefold())


def named_value(value: str, name: str | None) -> str:
    """A value as a message lists it to people: by its `name` (as the sheet or catalog prints it, which a player
    types) where it has one, the value beside where typing the name is not typing the value (`Seeleute (sailors)`;
    `Été` is `ete` folded, and says it alone)."""
    if name is None:
        return value
    return name if normalise_name(name) == normalise_name(value) else f"{name} ({value})"


#: Characters a name holds without anyone seeing them or choosing them, which a paste or a keyboard adds unseen: a
#: soft hyphen (U+00AD), the Arabic letter mark (U+061C), a zero-width space (U+200B), the left-to-right and
#: right-to-left marks (U+200E, U+200F) and the bidi embeddings, overrides and isolates (U+202A-U+202E,
#: U+2066-U+2069) a name copied from a right-to-left page or a chat carries, a word joiner and the invisible maths
#: operators (U+2060-U+2064), the deprecated format characters (U+206A-U+206F), and a byte order mark (U+FEFF) at
#: the start of a copied text. None changes a letter, and none is a character of any language's spelling.
_INVISIBLE = "[\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]"
#: The zero-width non-joiner (U+200C) and joiner (U+200D): part of the spelling where a script needs them (these
#: contexts are those of Unicode's identifiers, UAX #31 A1, A2 and B, and of international domain names, RFC 5892
#: appendix A.1 and A.2, and an emoji ZWJ sequence, UTS #51), and noise no one sees anywhere else. After a virama,
#: either joiner chooses a half form or a conjunct (Devanagari, Malayalam's chillus); a non-joiner between two
#: letters that would join keeps them apart (the Persian half-space, part of its spelling: "mi-khaham", "Ali-Reza");
#: a joiner between two emoji makes them one (a woman, a joiner and a computer are one technologist).
_JOINERS = "[\u200c\u200d]"
_VIRAMA = 9  # the canonical combining class of a virama (Unicode's UCD)
_JOINS_BEFORE = r"[\p{Joining_Type=Left_Joining}\p{Joining_Type=Dual_Joining}]\p{Joining_Type=Transparent}*\Z"
_JOINS_AFTER = r"\p{Joining_Type=Transparent}*[\p{Joining_Type=Right_Joining}\p{Joining_Type=Dual_Joining}]"
_EMOJI_BEFORE = r"[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]\Z"
_EMOJI_AFTER = r"\p{Extended_Pictographic}"
#: Variation selectors 15 and 16: text or emoji presentation of one character ("❤" or "❤️"), which one phone's
#: keyboard adds and another's leaves out; the key leaves them out, the name shown keeps them.
_PRESENTATION = "[\ufe0e\ufe0f]"


def _joiner_needed(text: str, at: int) -> bool:
    """Whether the joiner at `text[at]` is part of the spelling (:data:`_JOINERS`)."""
    import unicodedata

    import regex

    before, after = text[:at], text[at + 1:]
    if before and unicodedata.combining(before[-1]) == _VIRAMA:
        return True
    if text[at] == "\u200c":
        return bool(regex.search(_JOINS_BEFORE, before)) and bool(regex.match(_JOINS_AFTER, after))
    return bool(regex.search(_EMOJI_BEFORE, before)) and bool(regex.match(_EMOJI_AFTER, after))


def visible_name(name: str) -> str:
    """A name as it is shown and kept: without the characters no one sees (:data:`_INVISIBLE`, and a joiner where
    no script needs it), and with runs of spaces as one, none around. `Zoë` pasted with a zero-width space or a
    soft hyphen is `Zoë`; an emoji ZWJ sequence and a Persian name keep their joiners (:data:`_JOINERS`)."""
    text = str(name)
    if not text.isascii():
        text = re.sub(_INVISIBLE, "", text)
        if re.search(_JOINERS, text):
            text = "".join(c for i, c in enumerate(text) if c not in "\u200c\u200d" or _joiner_needed(text, i))
    return " ".join(text.split())


#: The tag characters of an emoji tag sequence: a subdivision's flag (England, Scotland, Wales) is a black flag, the
#: tags spelling the subdivision's code, and a cancel tag.
_TAGS = range(0xE0020, 0xE0080)


def unprintable_character(name: str) -> str | None:
    """The first character of a name that no page or picture draws, as `U+001B` (a control character, one no one
    sees, a private or unassigned code point), or None; a joiner where a script needs it (an emoji ZWJ sequence, a
    Persian name: :data:`_JOINERS`) and the tags of a subdivision's flag are drawn."""
    if name.isprintable():
        return None
    for i, c in enumerate(name):
        if not (c.isprintable() or (c in "\u200c\u200d" and _joiner_needed(name, i)) or ord(c) in _TAGS):
            return f"U+{ord(c):04X}"
    return None


def printable_name(name: str) -> bool:
    """Whether a name holds only characters a page or a picture draws (:func:`unprintable_character`)."""
    return unprintable_character(name) is None


def player_key(name: str) -> str:
    """The one way donjon folds a player's name before comparing it: without case, accents or surrounding spaces,
    with runs of spaces as one, and without what no one sees (`Ana`, `ana ` and `ÁNA` are one player; `Zoë` typed
    with a combining diaeresis is the `Zoë` of another keyboard, and so is `Zoë` pasted with a zero-width space:
    :func:`visible_name`); a heart drawn as text or as an emoji is one heart. The scorer (`ended_by`, names unique
    in a game) and the companion's database both key players by it, so a name the one finds the other finds."""
    import unicodedata

    text = visible_name(name)
    if text.isascii():
        return text.casefold()
    decomposed = unicodedata.normalize("NFKD", re.sub(_PRESENTATION, "", text))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


class Choice(Type[str]):
    """One of a fixed set of words. With `loose`, a name is folded by :func:`normalise_name` (any case, spaces or
    `_` for dashes, accents or not), and `aliases` (folded name -> value) are other names for the values. `shown`
    (value -> words) says a value in a message as people read it where that is not the value itself (a sheet's
    item `ble` as "Blé", which a player types). `spelled` (language code -> value -> its name in that language:
    `de` -> `princess` -> "Prinzessin") says a name refused in the language the document names things in
    (:attr:`Checker.names`, else the language most of its names are spelled in, else the one of the name
    suggested): a German player reads the German names their sheet prints, not the ids. English is said by the
    values themselves, which are its names folded."""

    def __init__(self, values: Sequence[str] = (), loose: bool = False, doc: str = "", what: str = "value",
                 aliases: Mapping[str, str] | None = None, shown: Mapping[str, str] | None = None,
                 spelled: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self.values = values
        self.loose = loose
        self.doc = doc
        self.what = what
        self.aliases = {} if aliases is None else aliases
        self.shown = {} if shown is None else shown
        self.spelled = {} if spelled is None else spelled

    @functools.cached_property
    def languages(self) -> Mapping[str, tuple[str, ...]]:
        """Folded name -> the languages (of :attr:`spelled`) that name its value so: which language a document
        that gives the name writes in (`königin`: de; `troll`: every one)."""
        return name_languages(self.spelled, self.aliases)

    def check(self, value: Any, path: PathKey, ck: Checker) -> str | Invalid:
        if not isinstance(value, str):
            return ck.fail(path, N_("expected one of {values}, got {value}"), values=_listing(self.values, ck.lang),
                           value=ck.describe(value, path))
        found = self.resolve(value)
        if found is not None:
            # a value written as the value itself (`great-architect`, the format's own word, which a filled sheet's
            # hidden field holds too) is no language's spelling
            if value != found:
                if self.spelled:
                    ck.spelled(self.languages.get(normalise_name(value), ()))
                ck.wrote(path, value, found)
            return found
        key = normalise_name(value) if self.loose else value
        close = _closest(key, [*self.values, *self.aliases])
        what = ck.lang._(self.what) if ck.lang is not None else self.what
        said = self._said(close, ck)
        values = _listing([said.get(v, v) for v in self.values], ck.lang)
        if close:
            close = self.aliases.get(close, close)
            return ck.fail(path, N_("unknown {what} {value!r} (did you mean {close!r}?); expected one of {values}"),
                           what=what, value=value, close=said.get(close, close), values=values)
        return ck.fail(path, N_("unknown {what} {value!r}; expected one of {values}"), what=what, value=value,
                       values=values)

    def _said(self, close: str | None, ck: Checker) -> Mapping[str, str]:
        """Value -> how a refusal says it: in the document's language of names (:attr:`spelled`), or as
        :attr:`shown` (the values themselves) in English or a language the choice has no names in. Before that
        language is known (the first reading of a document that does not say it), in the language of the name
        `close` (folded) to the one refused: `Prinzesin` is answered in German."""
        if not self.spelled:
            return self.shown
        code = ck.names
        if code is None:
            ck.unnamed = True
            found = self.languages.get(close, ()) if close is not None else ()
            preferred = ck.lang.base if ck.lang is not None else "en"
            code = vote_language([found], preferred) or preferred
        return self.shown if code == "en" else self.spelled.get(code, self.shown)

    def resolve(self, value: str) -> str | None:
        """The value `value` names, or None."""
        key = normalise_name(value) if self.loose else value
        if key in self.values:
            return key
        return self.aliases.get(key) if self.loose else None

    def schema(self) -> dict[str, Any]:
        if self.loose:
            return self._with_doc({"type": "string", "examples": list(self.values),
                                   "$comment": "any case; spaces or '_' in place of '-'; accents or not"
                                               + ("; other names the catalog lists" if self.aliases else "")})
        return self._with_doc({"type": "string", "enum": list(self.values)})


def _listing(values: Sequence[str], lang: Language | None = None, most: int = 14) -> str:
    """The first `most` values, and how many there are in all when there are more (in `lang`, English when None)."""
    shown = ", ".join(values[:most])
    if len(values) <= most:
        return shown
    if lang is None or lang.english:
        return shown + f", ... ({len(values)} in all)"
    return shown + ", ... (" + lang._("{n} in all").format(n=lang.number(len(values))) + ")"


def name_languages(spelled: Mapping[str, Mapping[str, str]],
                   aliases: Mapping[str, str] | None = None) -> dict[str, tuple[str, ...]]:
    """Folded name -> the languages that name a value so, from `spelled` (language -> value -> name, as
    :func:`scoring.formats.spellings_of` gives it): which language a document that gives the name writes in
    (`königin`: de; `prince`: en and fr; `troll`: every one). A name read as another value (through `aliases`, the
    folded names a :class:`Choice` takes) is that value's, and says nothing of the language that spells this one
    so: only the languages whose name for the value the name is read as count."""
    found = {} if aliases is None else aliases
    out: dict[str, list[str]] = {}
    for code, names in sorted(spelled.items()):
        for value, name in names.items():
            key = normalise_name(name)
            if found.get(key, key) == value and code not in out.get(key, ()):
                out.setdefault(key, []).append(code)
    return {key: tuple(codes) for key, codes in out.items()}


def vote_language(spellings: Iterable[Sequence[str]], preferred: str | None = None) -> str | None:
    """The language a list of names is written in, each name given as the languages that spell it
    (:func:`name_languages`): the language with most names that no other language spells so (`Königin` tells German;
    `Prince`, English or French, tells nothing); on a tie, `preferred` (the sheet's or the file's language) when it
    spells one of the names, then English (the language of the ids), then the first by code. None when no name is
    spelled in any language. Every place that guesses a document's language from its names (a file's, a `--set`'s, a
    refused name's) asks this one rule, so that they cannot disagree."""
    votes: dict[str, int] = {}
    for languages in spellings:
        for code in languages:
            votes[code] = votes.get(code, 0) + (len(set(languages)) == 1)
    if not votes:
        return None
    return max(sorted(votes), key=lambda code: (votes[code], code == preferred, code == "en"))


#: How alike a word must be to a known one to be suggested (difflib's ratio). Keys are suggested a little more
#: readily than names: a key is one of a few dozen a person writes from memory in another tool's words
#: (`rotation` for `rotate`: 0.71, `end_cloud` for `cloud`), while names come from long lists of look-alikes.
NAME_CUTOFF = 0.75
KEY_CUTOFF = 0.7


#: Articles a name may be written with, in the languages donjon speaks (folded as normalise_name folds them: `l'`
#: stays joined to its word and is not one): a player writes `La Reine` or `The Queen` where the card prints
#: `Reine`, `Queen`. Not read as the name (end-states.md accepts the names printed, nothing else), only suggested.
ARTICLES = frozenset({"the", "a", "an", "le", "la", "les", "un", "une", "der", "die", "das", "den", "dem", "des",
                      "ein", "eine"})


def _closest(word: str, options: Iterable[str], cutoff: float = NAME_CUTOFF) -> str | None:
    """The known word most like `word` (difflib), else the one written with the same words in another order or with
    an article before them (`le-chien-dagobert` is `dagobert-le-chien`, `the-queen` is `queen`), which difflib's
    character by character ratio misses."""
    listed = list(options)
    close = difflib.get_close_matches(word, listed, n=1, cutoff=cutoff)
    if close:
        return close[0]
    words = [w for w in re.split(r"[-_\s]+", word) if w]
    bare = words[1:] if len(words) > 1 and words[0] in ARTICLES else words
    wanted = {tuple(sorted(words)), tuple(sorted(bare))}
    return next((option for option in listed
                 if tuple(sorted(w for w in re.split(r"[-_\s]+", option) if w)) in wanted), None)


class Nullable(Type[T | None]):
    """A value of `inner` type, or nothing (`null`, `~` or an empty value)."""

    def __init__(self, inner: Type[T], doc: str = "") -> None:
        self.inner = inner
        self.doc = doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> T | None | Invalid:
        return None if value is None else self.inner.check(value, path, ck)

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"anyOf": [self.inner.schema(), {"type": "null"}]})


class ListOf(Type[tuple[T, ...]]):
    """A list of values of one type. `label` names the key that identifies an item in messages; `items` what one
    item is called and several (`("good", "goods")`: a sheet of one's own's item words, in the checker's language),
    which messages count the list in ("has 9 goods"), "items" being said without them."""

    def __init__(self, item: Type[T], min_items: int = 0, max_items: int | None = None, label: str | None = None,
                 doc: str = "", items: tuple[str, str] | None = None) -> None:
        self.item = item
        self.min_items = min_items
        self.max_items = max_items
        self.label = label
        self.doc = doc
        self.items = items

    def _counted(self, count: int, ck: Checker) -> str:
        """`count` and its item word (:attr:`items`), one or many as the checker's language says."""
        assert self.items is not None
        one, many = self.items
        if ck.lang is None:
            return f"{count} {one if count == 1 else many}"
        return ck.lang.counted(count, one, many)

    def check(self, value: Any, path: PathKey, ck: Checker) -> tuple[T, ...] | Invalid:
        if not isinstance(value, list):
            return ck.fail(path, N_("expected a list, got {value}"), value=ck.describe(value, path))
        if len(value) < self.min_items:
            if ck.lang is None or ck.lang.english:
                return ck.fail(path, f"has {plural(len(value), 'item')}, fewer than the {self.min_items} required")
            return ck.fail(path, ck.lang.ngettext("has {n} item, fewer than the {least} required",
                                                  "has {n} items, fewer than the {least} required", len(value)),
                           n=len(value), least=self.min_items)
        if self.max_items is not None and len(value) > self.max_items:
            if self.items is not None:  # in the list's own words ("has 9 goods"), counted as its language counts
                return ck.fail(path, N_("has {counted}, more than the {most} allowed"),
                               counted=self._counted(len(value), ck), most=self.max_items)
            return ck.fail(path, N_("has {count} items, more than the {most} allowed"), count=len(value),
                           most=self.max_items)
        out: list[T] = []
        ok = True
        for index, item in enumerate(value):
            if self.label and isinstance(item, dict) and isinstance(item.get(self.label), (str, int)):
                ck.labels[(*path, index)] = str(item[self.label])
            converted = self.item.check(item, (*path, index), ck)
            if isinstance(converted, Invalid):
                ok = False
            else:
                out.append(converted)
        return tuple(out) if ok else INVALID

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "array", "items": self.item.schema()}
        if self.min_items:
            out["minItems"] = self.min_items
        if self.max_items is not None:
            out["maxItems"] = self.max_items
        return self._with_doc(out)


class MapOf(Type[dict[K, V]]):
    """A mapping whose keys are all of one type and values of another."""

    def __init__(self, key: Type[K], value: Type[V], max_items: int | None = None, doc: str = "") -> None:
        self.key = key
        self.value = value
        self.max_items = max_items
        self.doc = doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> dict[K, V] | Invalid:
        if not isinstance(value, dict):
            return ck.fail(path, N_("expected a mapping, got {value}"), value=ck.describe(value, path))
        if self.max_items is not None and len(value) > self.max_items:
            return ck.fail(path, N_("has {count} entries, more than the {most} allowed"), count=len(value),
                           most=self.max_items)
        out: dict[Any, Any] = {}
        first: dict[Any, Any] = {}  # each key as the document first wrote it (`Jäger`, where `hunter` repeats it)
        ok = True
        for raw_key, item in value.items():
            key = self.key.check(raw_key, (*path, raw_key), ck)
            converted = self.value.check(item, (*path, raw_key), ck)
            if key is INVALID or converted is INVALID:
                ok = False
            elif key in out:
                ok = False
                ck.fail((*path, raw_key), N_("names {key!r} twice (as {given!r})"), key=first[key], given=raw_key)
            else:
                out[key] = converted
                first[key] = raw_key
        return out if ok else INVALID

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "object", "additionalProperties": self.value.schema()}
        key_schema = self.key.schema()
        if "enum" in key_schema or "pattern" in key_schema:
            out["propertyNames"] = {k: v for k, v in key_schema.items() if k in ("enum", "pattern", "type")}
        if self.max_items is not None:
            out["maxProperties"] = self.max_items
        return self._with_doc(out)


class AnyOf(Type[Any]):
    """The first of several types that the value is of (by its YAML kind: text, number, list, mapping)."""

    def __init__(self, options: Sequence[Type[Any]] = (), doc: str = "", what: str = "") -> None:
        self.options = options
        self.doc = doc
        self.what = what

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        for option in self.options:
            if _kind_matches(option, value):
                return option.check(value, path, ck)
        if not self.what:
            return ck.fail(path, N_("expected another kind of value, got {value}"), value=ck.describe(value, path))
        what = ck.lang._(self.what) if ck.lang is not None else self.what
        return ck.fail(path, N_("expected {what}, got {value}"), what=what, value=ck.describe(value, path))

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"anyOf": [o.schema() for o in self.options]})


def _kind_matches(option: Type[Any], value: Any) -> bool:
    while isinstance(option, Nullable):
        if value is None:
            return True
        option = option.inner
    if isinstance(option, (Text, Choice)):
        return isinstance(value, str)
    if isinstance(option, Int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(option, Number):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(option, Bool):
        return isinstance(value, bool)
    if isinstance(option, ListOf):
        return isinstance(value, list)
    if isinstance(option, (MapOf, Record)):
        return isinstance(value, dict)
    return True


class Field:
    """A key of a :class:`Record`: its type, whether it must be there, its default and its meaning."""

    def __init__(self, type: Type[Any], required: bool = True, default: Any = None, doc: str = "") -> None:
        self.type = type
        self.required = required
        self.default = default
        self.doc = doc


#: A record-level rule: given the converted values and the record's path, report problems via the checker.
Rule = Callable[[Mapping[str, Any], PathKey, Checker], None]


class Record(Type[T]):
    """A mapping with named keys; unknown keys are errors. `build` turns the checked values into a record.

    `build` is a typed constructor (a frozen dataclass, as a rule) called with one keyword per field; without it
    the record is the mapping of checked values. :meth:`check_build` tells whether the two still match (a test
    runs it on every record donjon defines, so a field and its dataclass cannot drift apart unseen).
    """

    def __init__(self, name: str = "", fields: Mapping[str, Field] | None = None, build: Callable[..., T] | None = None,
                 rules: Sequence[Rule] = (), doc: str = "") -> None:
        self.name = name
        self.fields = {} if fields is None else fields
        self.build = build
        self.rules = rules
        self.doc = doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> T | Invalid:
        if not isinstance(value, dict):
            if ck.lang is not None and not ck.lang.english:  # the record's name as the format spells it, as a key
                if self.name:
                    return ck.fail(path, N_("expected a {name} (a mapping), got {value}"), name=self.name,
                                   value=ck.describe(value, path))
                return ck.fail(path, N_("expected a mapping, got {value}"), value=ck.describe(value, path))
            what = f"a {self.name} (a mapping)" if self.name else "a mapping"
            return ck.fail(path, f"expected {what}, got {describe(value)}")
        ok = True
        for key in value:
            if key not in self.fields:
                ok = False
                close = _closest(str(key), self.fields, KEY_CUTOFF)
                if close:
                    ck.fail((*path, key), N_("unknown key {key!r} (did you mean {close!r}?); allowed: {keys}"),
                            key=key, close=close, keys=", ".join(self.fields))
                else:
                    ck.fail((*path, key), N_("unknown key {key!r}; allowed: {keys}"), key=key,
                            keys=", ".join(self.fields))
        out: dict[str, Any] = {}
        for name, spec in self.fields.items():
            if name in value:
                converted = spec.type.check(value[name], (*path, name), ck)
                ok = ok and converted is not INVALID
                out[name] = converted
            elif spec.required:
                ok = False
                if spec.doc:  # the key's doc, the format's own words (the schemas' descriptions): in the checker's
                    # language where the catalogs hold it (a doc marked N_), else English
                    doc = ck.lang._(spec.doc) if ck.lang is not None else spec.doc
                    ck.fail(path, N_("missing the key {key!r} ({doc})"), key=name, doc=doc)
                else:
                    ck.fail(path, N_("missing the key {key!r}"), key=name)
            else:
                out[name] = spec.default
        if not ok:
            return INVALID
        before = len(ck.problems)
        for rule in self.rules:
            rule(out, path, ck)
        if len(ck.problems) > before:
            return INVALID
        # without a constructor, the record is the mapping of checked values (T is then dict[str, Any])
        return self.build(**out) if self.build is not None else cast(T, out)

    def build_parameters(self) -> tuple[str, ...]:
        """The keywords `build` is called with: one per field."""
        return tuple(self.fields)

    def constructor(self) -> Callable[..., Any] | None:
        """The typed constructor the record is built with (None: the record is the mapping of values)."""
        return self.build

    def build_mismatch(self) -> str | None:
        """How the constructor and the fields disagree (a field it does not take, a parameter no field gives), or
        None when they match. A test runs this on every record donjon defines: mypy cannot see the keywords."""
        import inspect

        constructor = self.constructor()
        if constructor is None:
            return None
        try:
            parameters = inspect.signature(constructor).parameters
        except (TypeError, ValueError):  # a builtin without a signature: nothing to compare
            return None
        keywords = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
            return f"{self.name}: its constructor takes **keywords, so its fields cannot be checked against it"
        given = set(self.build_parameters())
        taken = {n for n, p in parameters.items() if p.kind in keywords}
        needed = {n for n, p in parameters.items() if p.kind in keywords and p.default is inspect.Parameter.empty}
        name = getattr(constructor, "__qualname__", repr(constructor))
        problems = [f"field {n!r} is not a parameter of {name}" for n in sorted(given - taken)]
        problems += [f"{name} needs {n!r}, which no field gives" for n in sorted(needed - given)]
        return f"{self.name}: " + "; ".join(problems) if problems else None

    def schema(self) -> dict[str, Any]:
        props: dict[str, Any] = {}
        for name, spec in self.fields.items():
            prop = spec.type.schema()
            if spec.doc and "description" not in prop:
                prop["description"] = spec.doc
            if not spec.required and spec.default is not None and not isinstance(spec.default, (tuple, dict)):
                prop["default"] = spec.default
            props[name] = prop
        out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
        required = [n for n, s in self.fields.items() if s.required]
        if required:
            out["required"] = required
        if self.name and "title" not in out:
            out["title"] = self.name
        return self._with_doc(out)


def check_document(doc: Document, spec: Type[T], lang: Language | None = None,
                   names: str | None = None) -> tuple[T | Invalid, list[Problem]]:
    """Check a whole document against `spec`: the converted value (or INVALID) and every problem found, said in
    `lang` (English), a name refused said in the language `names` (:func:`check_named`)."""
    checked = check_named(doc, spec, lang, names)
    return checked.value, checked.problems


class Checked(NamedTuple, Generic[T]):
    """A document checked: the converted value (or INVALID), every problem, the language it names things in (a
    code, or None when its names tell none apart) and the names it writes other than as their values
    (:attr:`Checker.written`)."""

    value: T | Invalid
    problems: list[Problem]
    names: str | None
    written: Mapping[PathKey, str]


def check_named(doc: Document, spec: Type[T], lang: Language | None = None,
                names: str | None = None) -> Checked[T]:
    """:func:`check_document`, and what the document's names say: the language it names things in, `names` (a code)
    when given, else the language most of its names are spelled in; and each name as written. A name refused is
    said in that language; one refused before the rest was read is said again in it by a second reading (only a
    document with such a name pays it)."""
    ck = Checker(doc, lang=lang, names=names)
    if doc.data is None:
        return Checked(INVALID, [Problem(doc.file, None, "", "is empty")], names, {})
    value = spec.check(doc.data, (), ck)
    told = names or ck.names_language()
    if ck.unnamed and told is not None:
        ck = Checker(doc, lang=lang, names=told)
        value = spec.check(doc.data, (), ck)
    return Checked(value, ck.problems, told, ck.written)


def json_schema(spec: Type[Any], *, title: str, schema_id: str) -> dict[str, Any]:
    """The published JSON Schema (draft 2020-12) of a document kind."""
    body = spec.schema()
    body.pop("title", None)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": schema_id, "title": title, **body}
