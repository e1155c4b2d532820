"""The three end-state formats (`../shared/spec/end-states.md`) as `generator.fields` specs and typed records.

A file is checked in two stages. This module is the first: the *document* must have the shape of its game's
format (known keys, the right types, names the catalog knows, numbers within sane bounds). Every problem is
collected with its line and path, and the file then cannot be scored at all (exit 2). What passes becomes a
frozen record, and the game's rules module checks the *rules* on it (exit 1 for each broken rule).

So the bounds here are deliberately loose where a rule of the game has the final word: five towers, a
negative VP token count or a tile that does not exist read fine here and are reported as broken rules, with
the rule they break. Only what no rule can judge is refused here: text where a number belongs, unknown keys,
unknown names, numbers beyond a million, lists longer than a thousand.

The names a format accepts (professions, colours, sets, guests, event series, versions) come from the catalog
in use, so a corrected catalog (`--content DIR`) changes them too. Names are accepted in any case, with spaces
or `_` for dashes (`Tax Collector`), and the records hold them normalised (`tax-collector`).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from generator.fields import (
    AnyOf,
    Bool,
    Checker,
    Choice,
    Field,
    Int,
    ListOf,
    MapOf,
    Nullable,
    Record,
    Text,
    Type,
    describe,
    normalise_name,
)
from generator.yamlio import PathKey

if TYPE_CHECKING:
    from generator.catalog.castle import Castle
    from generator.catalog.guedelon import Guedelon
    from generator.catalog.guildhall import Guildhall

#: The games an end state can record, by the id its `game:` key names.
GAME_IDS = ("guildhall", "once-upon-a-castle", "guedelon")
GAME_NAMES: Mapping[str, str] = {"guildhall": "Guildhall", "once-upon-a-castle": "Once Upon a Castle",
                                 "guedelon": "Guédelon"}

#: No count or value in any of the three games comes near this; beyond it a number is refused as unreadable.
LARGEST = 1_000_000
#: No list in an end state comes near this many items (a Guildhall deck has 120 cards).
LONGEST = 1000


class Quantity(Type):
    """A number the rules will judge (VP tokens must be whole and not negative: a rule, not a type)."""

    def __init__(self, doc: str = "") -> None:
        self.doc = doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return ck.fail(path, f"expected a number, got {describe(value)}")
        if isinstance(value, float) and not math.isfinite(value):
            return ck.fail(path, f"is {value}, not a finite number")
        if abs(value) > LARGEST:
            return ck.fail(path, f"is {_shown(value)}, beyond the {LARGEST:,} donjon reads")
        return value

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


def _number(doc: str = "", low: int = -LARGEST) -> Int:
    return Int(low, LARGEST, doc=doc)


@dataclass
class Name(Choice):
    """A name from the catalog, in any case and with spaces for dashes; a name written as the id is taken at once
    (most are, and a thousand files hold tens of thousands of them)."""

    def __post_init__(self) -> None:
        self._ids = frozenset(self.values)

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if value.__class__ is str and value in self._ids:
            return value
        return super().check(value, path, ck)


def _names(ids: tuple[str, ...], what: str, doc: str = "") -> Choice:
    return Name(ids, loose=True, what=what, doc=doc)


def game_id(name: str) -> str:
    """A game's name as its id: `Guédelon` is `guedelon`, `Once Upon a Castle` is `once-upon-a-castle`."""
    if name in GAME_IDS:
        return name
    stripped = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return normalise_name(stripped)


class GameName(Type):
    """The `game:` key: the game's id in any case, with spaces for dashes and accents or not."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.doc = f"the game this file records: {game}"

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if not isinstance(value, str) or game_id(value) != self.game:
            return ck.fail(path, f"expected {self.game!r}, got {describe(value)}")
        return self.game

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"type": "string", "examples": [self.game],
                               "$comment": "any case; spaces or '_' in place of '-'; accents or not"})


def _game(game: str) -> Field:
    return Field(GameName(game))


# --- Guildhall ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Chapter:
    """A face-up chapter: the colours of one profession present in a guildhall, as listed."""

    profession: str
    colours: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GuildhallPlayer:
    name: str
    guildhall: tuple[Chapter, ...]
    completed_chapters: int
    vp_cards: tuple[int, ...]
    #: a number; rule 8 requires a whole one, zero or more
    vp_tokens: int | float


@dataclass(frozen=True, slots=True)
class GuildhallEndState:
    vp_set: str
    #: a set id, the list of professions in play, or None for the professions of `vp_set`
    professions: str | tuple[str, ...] | None
    #: in seat order, first player first
    players: tuple[GuildhallPlayer, ...]
    ended_by: str | None


def guildhall_spec(catalog: Guildhall) -> Record:
    sets = tuple(s.id for s in catalog.sets)
    professions = tuple(p.id for p in catalog.professions)
    colours = tuple(c.id for c in catalog.colours)
    player = Record(
        name="player",
        fields={
            "name": Field(Text(min_len=0, max_len=200), doc="the player's name, unique in the game"),
            "guildhall": Field(MapOf(_names(professions, "profession"),
                                     ListOf(_names(colours, "colour"), max_items=LONGEST), max_items=LONGEST),
                               doc="the face-up chapters: profession -> the colours present"),
            "completed_chapters": Field(_number(), doc="face-down completed chapters held: 0 to 3"),
            "vp_cards": Field(ListOf(_number(), max_items=LONGEST), doc="the printed value of each VP card bought"),
            "vp_tokens": Field(Quantity(), doc="VP tokens held: a whole number, zero or more"),
        },
        build=lambda name, guildhall, completed_chapters, vp_cards, vp_tokens: GuildhallPlayer(
            name, tuple(Chapter(p, tuple(c)) for p, c in guildhall.items()), completed_chapters, tuple(vp_cards),
            vp_tokens),
    )
    return Record(
        name="Guildhall end state",
        doc="A finished (or stopped) game of Guildhall, for `donjon score`.",
        fields={
            "game": _game("guildhall"),
            "vp_set": Field(_names(sets, "set"), doc="the set whose VP cards were used"),
            "professions": Field(
                AnyOf((_names(sets, "set"), ListOf(_names(professions, "profession"), max_items=LONGEST)),
                      what="a set name or a list of professions"),
                required=False,
                doc="the professions in play: a set name, or a list of six or of all twelve; default: those of vp_set"),
            "players": Field(ListOf(player, max_items=LONGEST), doc="in seat order, first player first: 2 to 4"),
            "ended_by": Field(Nullable(Text(min_len=0, max_len=200)), required=False,
                              doc="the player whose turn had just ended when the game stopped"),
        },
        build=lambda game, vp_set, professions, players, ended_by: GuildhallEndState(
            vp_set, tuple(professions) if isinstance(professions, tuple) else professions, tuple(players),
            ended_by),
    )


# --- Once Upon a Castle -------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Wall:
    #: the value of each flag drawn on the wall
    flags: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CastleSheet:
    player: str
    donjon_floors: int
    #: the value written on each tower built
    towers: tuple[int, ...]
    walls: tuple[Wall, ...]
    sun: bool
    cloud: bool
    sky_clouds: int
    residents: int | None
    resident_points: int | None
    #: Great Architect: guest ids; Apprentice: the VP printed on each guest card
    guests: tuple[str | int, ...]

    @property
    def flags(self) -> tuple[int, ...]:
        return tuple(value for wall in self.walls for value in wall.flags)


@dataclass(frozen=True, slots=True)
class CastleEndState:
    version: str
    sheets: tuple[CastleSheet, ...]


@dataclass
class GuestName(Name):
    """A Great Architect guest, by its id or by the name on its card (`Dagobert the Dog` is `dagobert`); a number
    here means the file mixes up the two versions."""

    #: the name printed on each card, normalised, -> its id
    aliases: Mapping[str, str] = field(default_factory=dict)

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return ck.fail(path, f"is the number {value}; the Great Architect version names its guests "
                                 f"({', '.join(self.values[:5])}, ...)")
        if isinstance(value, str) and value not in self._ids:
            alias = self.aliases.get(normalise_name(value))
            if alias is not None:
                return alias
        return super().check(value, path, ck)


class GuestVp(Int):
    """An Apprentice guest: the VP printed on its card; a name here means the file mixes up the two versions."""

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if isinstance(value, str):
            return ck.fail(path, f"names the guest {value!r}; Apprentice guests have no names: give the VP printed "
                                 "on the card")
        return super().check(value, path, ck)


@dataclass
class ByVersion(Record):
    """A castle end state: its sheets are checked with the guests of the version the file names.

    The two versions use different guest cards (004 Game components; Great Architect Version): named guests
    with powers, or anonymous cards that carry only VP. A file whose version is unreadable is checked with
    either kind of guest, so that its other problems are still all reported.
    """

    variants: Mapping[str, Record] = field(default_factory=dict)

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if isinstance(value, dict):
            version = value.get("version")
            variant = self.variants.get(normalise_name(version)) if isinstance(version, str) else None
            if variant is not None:
                return variant.check(value, path, ck)
        return super().check(value, path, ck)


def castle_spec(catalog: Castle) -> Record:
    versions = tuple(v.id for v in catalog.versions)
    great = catalog.guests_of("great-architect")
    named = GuestName(tuple(g.id for g in great), loose=True, what="guest",
                      aliases={normalise_name(g.name): g.id for g in great if normalise_name(g.name) != g.id})
    printed = GuestVp(-LARGEST, LARGEST)
    either = AnyOf((named, printed), what="a guest's name or the VP printed on a guest card")
    guest_doc = "Great Architect: the guests' names; Apprentice: the VP printed on each guest card"
    wall = Record(name="wall", fields={
        "flags": Field(ListOf(_number(), max_items=LONGEST), doc="the value of each flag drawn on this wall"),
    }, build=lambda flags: Wall(tuple(flags)))

    def state(guest: Type) -> ByVersion:
        sheet = Record(
            name="castle sheet",
            fields={
                "player": Field(Text(max_len=200), doc="whose castle this is"),
                "donjon_floors": Field(_number(low=0), doc="floors of the donjon drawn: 0 to 4"),
                "towers": Field(ListOf(_number(), max_items=LONGEST), doc="the value written on each tower built"),
                "walls": Field(ListOf(wall, max_items=LONGEST), doc="each wall built, with its flags"),
                "sun": Field(Bool(), required=False, default=False, doc="drew the Sun: first to complete 4 towers"),
                "cloud": Field(Bool(), required=False, default=False,
                               doc="drew the end Cloud: completed the 12th part first"),
                "sky_clouds": Field(_number(low=0), required=False, default=0,
                                    doc="extra 2-point clouds drawn through the Shepherdess"),
                "residents": Field(_number(low=0), required=False,
                                   doc="residents coloured in, scored through the sheet's resident track"),
                "resident_points": Field(_number(low=0), required=False,
                                         doc="instead of residents: the points of the last resident's group"),
                "guests": Field(ListOf(guest, max_items=LONGEST), doc=guest_doc),
            },
            build=lambda guests, walls, towers, **v: CastleSheet(towers=tuple(towers), walls=tuple(walls),
                                                                 guests=tuple(guests), **v),
        )
        return ByVersion(
            name="Once Upon a Castle end state",
            doc="The castle sheets of one game of Once Upon a Castle, for `donjon score`.",
            fields={
                "game": _game("once-upon-a-castle"),
                "version": Field(_names(versions, "version"), doc="apprentice or great-architect"),
                "sheets": Field(ListOf(sheet, min_items=1, max_items=LONGEST), doc="one or more players' sheets"),
            },
            build=lambda game, version, sheets: CastleEndState(version, tuple(sheets)),
        )

    spec = state(either)
    spec.variants = {"great-architect": state(named), "apprentice": state(printed)}
    return spec


# --- Guédelon -----------------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class GuedelonEndState:
    players: int
    events: str
    mill: bool
    rounds: int
    #: "all", or the floor tiles (and the Mill) built, as written
    built: Literal["all"] | tuple[str, ...]


def guedelon_spec(catalog: Guedelon) -> Record:
    series = tuple(s.id for s in catalog.series)
    return Record(
        name="Guédelon end state",
        doc="A game of Guédelon (won, lost or stopped), for `donjon score`.",
        fields={
            "game": _game("guedelon"),
            "players": Field(_number(), doc="1 to 4; 1 and 2 play with the apprentice"),
            "events": Field(_names(series, "event series"), doc="the event series played"),
            "mill": Field(Bool(), required=False, default=False, doc="the Mill expansion was in play"),
            "rounds": Field(_number(), doc="rounds played when the castle was finished, or when play stopped"),
            "built": Field(Built(), doc="`all`, or the floor tiles completed and `mill` if built, e.g. [A0, A1, B0]"),
        },
        build=lambda game, players, events, mill, rounds, built: GuedelonEndState(
            players, events, mill, rounds, "all" if built == "all" else tuple(t.strip() for t in built)),
    )


class Built(Type):
    """`all`, or a list of tile names (which tiles exist is a rule, judged against the catalog)."""

    def __init__(self) -> None:
        self.tiles = ListOf(Text(max_len=20), max_items=LONGEST)

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if isinstance(value, str):
            if value.strip().lower() == "all":
                return "all"
            return ck.fail(path, f"is {value!r}; expected `all` or a list of floor tiles such as [A0, A1, B0]")
        if not isinstance(value, list):
            return ck.fail(path, f"expected `all` or a list of floor tiles, got {describe(value)}")
        return self.tiles.check(value, path, ck)

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"anyOf": [{"type": "string", "pattern": "^\\s*[Aa][Ll][Ll]\\s*$"},
                                         self.tiles.schema()]})


# --- publishing ---------------------------------------------------------------------------------------------------

def specs(content: Any) -> dict[str, Record]:
    """The spec of each game's end state, with the names of the loaded catalogs (`Content`)."""
    return {
        "guildhall": guildhall_spec(content.game("guildhall")),
        "once-upon-a-castle": castle_spec(content.game("once-upon-a-castle")),
        "guedelon": guedelon_spec(content.game("guedelon")),
    }


def schemas() -> dict[str, tuple[str, Type]]:
    """The published schemas of the three end-state formats, with the names of the shipped catalogs."""
    from generator.catalog import load_content

    built = specs(load_content(games=GAME_IDS))
    return {
        "end-state-guildhall": ("A Guildhall end state, scored by `donjon score`", built["guildhall"]),
        "end-state-castle": ("A Once Upon a Castle end state (the sheets of one game), scored by `donjon score`",
                             built["once-upon-a-castle"]),
        "end-state-guedelon": ("A Guédelon end state, scored by `donjon score`", built["guedelon"]),
    }


__all__ = [
    "GAME_IDS", "GAME_NAMES", "CastleEndState", "CastleSheet", "Chapter", "GuedelonEndState", "GuildhallEndState",
    "GuildhallPlayer", "Wall", "castle_spec", "guedelon_spec", "guildhall_spec", "schemas", "specs",
]
