"""The Once Upon a Castle end-state format (`docs/end-states.md`): its typed records and the spec
that checks a file against it, with the names the catalog in use knows.

A file that does not fit this format cannot be scored (exit 2, every problem listed); a file that fits it is
judged by the rules (:mod:`generator.games.castle.rules`). Bounds here are loose where a rule has the final word.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from generator.fields import (
    AnyOf,
    Bool,
    Checker,
    Choice,
    Field,
    Int,
    Invalid,
    ListOf,
    Record,
    Text,
    Type,
)
from generator.games.castle import TITLES
from generator.games.castle.catalog import Castle
from generator.i18n import N_
from generator.yamlio import PathKey
from scoring.formats import LONGEST, Name, Quantity, aliases_of, game_key, names, number, spellings_of


@dataclass(frozen=True, slots=True)
class Wall:
    #: the value of each flag drawn on the wall (rule 0 requires whole ones)
    flags: tuple[int | float, ...]


@dataclass(frozen=True, slots=True)
class PlayerCastle:
    player: str
    donjon_floors: int
    #: the value written on each tower built. Values are numbers that rule 0 requires whole and not negative (a
    #: whole number written 5.0 is read as 5, so a float here is a fraction)
    towers: tuple[int | float, ...]
    walls: tuple[Wall, ...]
    sun: bool
    cloud: bool
    sky_clouds: int | float
    residents: int | float | None
    resident_points: int | float | None
    #: Great Architect: guest ids; Apprentice: the VP printed on each guest card
    guests: tuple[str | int | float, ...]

    @property
    def flags(self) -> tuple[int | float, ...]:
        return tuple(value for wall in self.walls for value in wall.flags)


@dataclass(frozen=True, slots=True)
class CastleEndState:
    version: str
    sheets: tuple[PlayerCastle, ...]


class GuestName(Name):
    """A Great Architect guest, by its id or by any of its names (`Dagobert the Dog`, `The dog Dagobert`); a number
    here means the file mixes up the two versions."""

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            said = self._said(None, ck)  # as the file names things (Architekt, Bohemien, ... to a German file)
            return ck.fail(path, N_("is the number {value}; the Great Architect version names its guests "
                                    "({names}, ...)"), value=value,
                           names=", ".join(said.get(v, v) for v in self.values[:5]))
        return super().check(value, path, ck)


class GuestVp(Quantity):
    """An Apprentice guest: the VP printed on its card; a name here means the file mixes up the two versions."""

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if isinstance(value, str):
            return ck.fail(path, N_("names the guest {value!r}; Apprentice guests have no names: give the VP "
                                    "printed on the card"), value=value)
        return super().check(value, path, ck)


def _end_state(game: str, version: str, sheets: tuple[PlayerCastle, ...]) -> CastleEndState:
    return CastleEndState(version, sheets)


class ByVersion(Record[CastleEndState]):
    """A castle end state: its sheets are checked with the guests of the version the file names.

    The two versions use different guest cards (004 Game components; Great Architect Version): named guests
    with powers, or anonymous cards that carry only VP. A file whose version is unreadable is checked with
    either kind of guest, so that its other problems are still all reported.
    """

    def __init__(self, name: str, fields: Mapping[str, Field], build: Callable[..., CastleEndState], doc: str) -> None:
        super().__init__(name=name, fields=fields, build=build, doc=doc)
        self.variants: Mapping[str, Record[CastleEndState]] = {}
        # the `version` key's type, which says which variant a version names
        self.versions = Choice()

    def check(self, value: Any, path: PathKey, ck: Checker) -> CastleEndState | Invalid:
        if isinstance(value, dict):
            version = value.get("version")
            named = self.versions.resolve(version) if isinstance(version, str) else None
            variant = self.variants.get(named) if named is not None else None
            if variant is not None:
                return variant.check(value, path, ck)
        return super().check(value, path, ck)


def spec(catalog: Castle) -> Record[CastleEndState]:
    versions = names(catalog.versions, N_("version"), lang=catalog.info.lang)
    great = catalog.guests_of("great-architect")
    named = GuestName(tuple(g.id for g in great), loose=True, what=N_("guest"), aliases=aliases_of(great),
                      spelled=spellings_of(great, catalog.info.lang))
    printed = GuestVp()
    either = AnyOf((named, printed), what=N_("a guest's name or the VP printed on a guest card"))
    guest_doc = N_("Great Architect: the guests' names; Apprentice: the VP printed on each guest card")
    wall: Record[Wall] = Record(name="wall", fields={
        "flags": Field(ListOf(Quantity(), max_items=LONGEST), doc=N_("the value of each flag drawn on this wall")),
    }, build=Wall)

    def state(guest: Type[Any]) -> ByVersion:
        sheet: Record[PlayerCastle] = Record(
            name="castle sheet",
            fields={
                "player": Field(Text(min_len=0, max_len=200, drawn=False), doc="whose castle this is"),
                "donjon_floors": Field(number(), doc=N_("floors of the donjon drawn: 0 to 4")),
                # values are numbers whose wholeness is rule 0's (exit 1, the rule named); counts of parts are whole
                "towers": Field(ListOf(Quantity(), max_items=LONGEST),
                                doc=N_("the value written on each tower built")),
                "walls": Field(ListOf(wall, max_items=LONGEST), doc=N_("each wall built, with its flags")),
                "sun": Field(Bool(), required=False, default=False, doc=N_("drew the Sun: first to complete 4 towers")),
                "cloud": Field(Bool(), required=False, default=False,
                               doc=N_("drew the end Cloud: completed the 12th part first")),
                "sky_clouds": Field(Quantity(), required=False, default=0,
                                    doc=N_("extra 2-point clouds drawn through the Shepherdess")),
                "residents": Field(Quantity(), required=False,
                                   doc=N_("residents coloured in, scored through the sheet's resident track")),
                "resident_points": Field(Quantity(), required=False,
                                         doc=N_("instead of residents: the points of the last resident's group")),
                "guests": Field(ListOf(guest, max_items=LONGEST), doc=guest_doc),
            },
            build=PlayerCastle,
        )
        return ByVersion(
            name="Once Upon a Castle end state",
            doc="The castle sheets of one game of Once Upon a Castle, for `donjon score`.",
            fields={
                "game": game_key("once-upon-a-castle", TITLES),
                "version": Field(versions, doc=N_("apprentice or great-architect")),
                # how many sheets a game has is rule 6's (exit 1, the rule named), not the format's
                "sheets": Field(ListOf(sheet, max_items=LONGEST), doc="one or more players' sheets (1 to 4)"),
            },
            build=_end_state,
        )

    spec = state(either)
    spec.variants = {"great-architect": state(named), "apprentice": state(printed)}
    spec.versions = versions
    return spec
