"""What the end-state formats (`docs/end-states.md`) share: the types their specs are written with.

Each game's own format (its records and its spec) is in its package (`generator/games/GAME/end_state.py`).

A file is checked in two stages. This module is the first: the *document* must have the shape of its game's
format (known keys, the right types, names the catalog knows, numbers within sane bounds). Every problem is
collected with its line and path, and the file then cannot be scored at all (exit 2). What passes becomes a
frozen record, and the game's rules module checks the *rules* on it (exit 1 for each broken rule).

So the bounds here are deliberately loose where a rule of the game has the final word: five towers, a
negative VP token count or a tile that does not exist read fine here and are reported as broken rules, with
the rule they break. Only what no rule can judge is refused here: text where a number belongs, unknown keys,
unknown names, numbers beyond a million, lists longer than a thousand.

The names a format accepts (professions, colours, sets, guests, event series, versions) come from the catalog
in use, so a corrected catalog (`--content DIR`) changes them too. Every name is folded by one normaliser,
:func:`generator.fields.normalise_name` (any case, spaces or `_` for dashes, accents or not: `Tax Collector`,
`Guédelon`), and is also accepted under the name donjon's cards print and the other names the catalog lists for
it (`aliases`: `The dog Dagobert` is `dagobert`); the records hold ids (`tax-collector`). Any other name is
refused with the closest one suggested.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from generator.catalog.common import Provenance, every_name
from generator.fields import Checker, Choice, Field, Int, Invalid, Type, describe, normalise_name, player_key
from generator.i18n import N_, language
from generator.yamlio import PathKey

#: No count or value in any of the three games comes near this; beyond it a number is refused as unreadable.
LARGEST = 1_000_000
#: No list in an end state comes near this many items (a Guildhall deck has 120 cards).
LONGEST = 1000


class Quantity(Type[int | float]):
    """A number the rules will judge (VP tokens, a VP card's value, a tower's: whole and not negative is a rule of
    the game, named when broken, not a type). A whole number written as a decimal (`5.0`) is read as the whole
    number, so that only a fraction reaches the rules as a float."""

    def __init__(self, doc: str = "") -> None:
        self.doc = doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> int | float | Invalid:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return ck.fail(path, N_("expected a number, got {value}"), value=ck.describe(value, path))
        if isinstance(value, float) and not math.isfinite(value):
            return ck.fail(path, N_("is {value}, not a finite number"), value=value)
        if abs(value) > LARGEST:
            # the bound as the message's language writes numbers (1,000,000; 1 000 000; 1.000.000)
            return ck.fail(path, N_("is {value}, beyond the {most} donjon reads"), value=_shown(value),
                           most=(ck.lang or language()).number(LARGEST))
        return int(value) if isinstance(value, float) and value.is_integer() else value

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"type": "number", "minimum": -LARGEST, "maximum": LARGEST})


def _shown(value: int | float) -> str:
    """A huge number as a message can quote it (Python will not write out an integer of 4,300 digits or more)."""
    if isinstance(value, float):
        return f"{value:g}"
    if value.bit_length() > 14_000:
        return f"a {'negative ' if value < 0 else ''}number of more than 4,000 digits"
    text = str(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"


class Count(Int):
    """A count the rules will judge (donjon floors, completed chapters, players, rounds): a whole number. Written as
    a decimal (`4.0`, as a spreadsheet or a form may export it, and as the published JSON Schemas' `integer` takes
    it) it is that whole number, as a `Quantity` is; a fraction (`2.5`) cannot be read as a count."""

    def check(self, value: Any, path: PathKey, ck: Checker) -> int | Invalid:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return super().check(value, path, ck)


def number(doc: str = "") -> Int:
    """A whole number the rules will judge (a negative one too: rules say what is never negative)."""
    return Count(-LARGEST, LARGEST, doc=doc)


class Name(Choice):
    """A name from the catalog, folded by the one normaliser, or one of its aliases; a name written as the id is
    taken at once (most are, and a thousand files hold tens of thousands of them)."""

    @functools.cached_property
    def _ids(self) -> frozenset[str]:
        return frozenset(self.values)

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if value.__class__ is str and value in self._ids:
            return value
        return super().check(value, path, ck)


class Titled(Protocol):
    """A catalog entry with an id and the name donjon's cards print (its translations in its provenance): what
    :func:`spellings_of` reads (the Guédelon Mill, which has no other names, is one)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


class Named(Titled, Protocol):
    """A catalog entry an end state names: its id, the name donjon's cards print, and its other names."""

    @property
    def aliases(self) -> tuple[str, ...]: ...


def names(entries: Iterable[Named | str], what: str, doc: str = "", lang: str = "en") -> Name:
    """The type of a name among catalog entries (each accepted by its id, the name its card prints and its
    aliases), or among fixed words; `lang`: the language of the catalog's own names (its translations say theirs),
    in which a refused name is answered to a document written in it."""
    ids: list[str] = []
    named: list[Named] = []
    for entry in entries:
        if isinstance(entry, str):
            ids.append(entry)
        else:
            ids.append(entry.id)
            named.append(entry)
    return Name(tuple(ids), loose=True, what=what, doc=doc, aliases=aliases_of(named),
                spelled=spellings_of(named, lang))


def aliases_of(entries: Iterable[Named]) -> Mapping[str, str]:
    """Folded name -> id, for every name of the entries other than their ids: its name in the catalog's language and
    in each language the catalog translates it into (`Marchand`, `Händler`), and its aliases."""
    out: dict[str, str] = {}
    for entry in entries:
        for other in (*every_name(entry), *entry.aliases):
            key = normalise_name(other)
            if key != entry.id:
                out.setdefault(key, entry.id)
    return out


def spellings_of(entries: Iterable[Titled], lang: str = "en") -> dict[str, dict[str, str]]:
    """Language code -> id -> the entry's name in that language, as the catalog holds it (its own name in `lang`,
    its translations' in theirs; an entry a language does not translate keeps its own name there): what a document
    written in that language calls the entries (:attr:`generator.fields.Choice.spelled`)."""
    listed = list(entries)
    out: dict[str, dict[str, str]] = {lang: {e.id: e.name for e in listed}} if listed else {}
    for entry in listed:
        provenance = getattr(entry, "provenance", None)
        translations = (provenance.translations if isinstance(provenance, Provenance)
                        else getattr(entry, "translations", None) or {})
        for code, translation in sorted(translations.items()):
            name = translation.values.get("name")
            if isinstance(name, str) and code != lang:
                out.setdefault(code, {})[entry.id] = name
    for code, spelled in out.items():
        for entry in listed:
            spelled.setdefault(entry.id, entry.name)
    return out


class GameName(Type[str]):
    """The `game:` key: the game's id in any case, with spaces for dashes and accents or not."""

    def __init__(self, game: str, titles: tuple[str, ...] = ()) -> None:
        self.game = game
        #: what `game:` may say, folded: the id, and its editions' titles (Game.titles), which the registry finds the
        #: game by too
        self.names = {game} | {normalise_name(t) for t in titles}
        self.doc = f"the game this file records: {game}"

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if not isinstance(value, str) or (value != self.game and normalise_name(value) not in self.names):
            return ck.fail(path, f"expected {self.game!r}, got {describe(value)}")
        return self.game

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"type": "string", "examples": [self.game],
                               "$comment": "any case; spaces or '_' in place of '-'; accents or not"})


#: What the checks on players' names rest on: not a rulebook's rule but the format's (end-states.md: Guildhall rule
#: 1, "names unique and non-empty"; "Names of players are unique within one game, in every format"), whose places,
#: winner and `ended_by` name the players; a violation cites it as a rule cites its rulebook section.
NAMES_IN_FILE = N_("end-states.md: each player is named, once")


def name_key(name: str) -> str:
    """A player's name as names are compared: by :func:`generator.fields.player_key`, the key the companion keeps
    players by (no case, accents, surrounding spaces or characters no one sees: `ended_by: zoe ` is Zoë, and so is
    `Zoë` pasted with a zero-width space; two sheets of `Ana` and `ÁNA` are one player's, as they are one player in
    the companion's history)."""
    return player_key(name)


def game_key(game: str, titles: tuple[str, ...] = ()) -> Field:
    return Field(GameName(game, titles))
