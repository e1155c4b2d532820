"""The Once Upon a Castle catalog: components, versions, guests and the castle score sheet."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import fields as declared_fields
from typing import Any

from generator.catalog.common import (
    HOUSE_MARK,
    Provenance,
    aliases_field,
    report_duplicates,
    report_name_clashes,
    sourced,
)
from generator.catalog.game import GameInfo
from generator.catalog.reader import CatalogReader
from generator.fields import (
    Checker,
    Choice,
    Field,
    Int,
    ListOf,
    Record,
    Slug,
    Text,
    Type,
)
from generator.games.castle import DECK_SOURCES
from generator.i18n import N_
from generator.yamlio import PathKey


def marked(record: Any) -> str:
    """A record's name (a guest's, a version's) as donjon shows it: marked when donjon translated it."""
    return str(record.name) + (HOUSE_MARK if record.provenance.by_donjon() else "")


KINDS = ("bolt", "hourglass", "crown")
VERSIONS = ("apprentice", "great-architect")
#: what a Crown guest can count in its castle, one VP each
PER = ("crown-guest", "donjon-floor", "wall", "tower", "flag")


@dataclass(frozen=True, slots=True)
class CastleComponents:
    #: personal boards in the box, one per player: the most players a game can have
    personal_boards: int
    players_tokens: int
    dice: int
    resources: tuple[str, ...]
    squares_per_resource: int
    apprentice_guests: int
    great_architect_guests: int
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Version:
    id: str
    name: str
    guests_drawn: str
    provenance: Provenance
    #: other names a rulebook prints for it
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GuestScoring:
    """A flat number of VP, or 1 VP per `per` in the guest's castle."""

    flat: int | None
    per: str | None

    def describe(self) -> str:
        if self.flat is not None:
            return f"{self.flat} VP"
        return f"1 VP per {self.per.replace('-', ' ') if self.per else '?'}"


@dataclass(frozen=True, slots=True)
class Guest:
    id: str
    name: str
    version: str
    kind: str
    scoring: GuestScoring
    power: str
    provenance: Provenance
    #: other names a rulebook prints for it (`The dog Dagobert`)
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ResidentGroup:
    first: int
    last: int
    points: int


@dataclass(frozen=True, slots=True)
class ValueSet:
    values: tuple[int, ...]
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class ResidentTrack:
    groups: tuple[ResidentGroup, ...]
    provenance: Provenance

    @property
    def length(self) -> int:
        return self.groups[-1].last if self.groups else 0

    def points_for(self, residents: int) -> int:
        """The points of the group holding the last resident drawn (004 End of the game); 0 with none.

        Residents beyond the end of the track score as its last group: the track is a house default, a real pad
        may hold more, and a count beyond it is a warning, not a reason to score nothing."""
        if residents <= 0 or not self.groups:
            return 0
        for group in self.groups:
            if group.first <= residents <= group.last:
                return group.points
        return self.groups[-1].points


@dataclass(frozen=True, slots=True)
class Range:
    min: int
    max: int
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class SheetCounts:
    """The `sheet:` part of castle-sheet.yaml: the parts of a castle and the points of the sky."""

    donjon_floors: int
    towers: int
    walls: int
    walls_with_two_flags: int
    walls_with_one_flag: int
    sun_points: int
    cloud_points: int
    sky_cloud_points: int
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class SheetFacts(SheetCounts):
    """The castle score sheet shared by the printed sheet and the scorer: the catalog's counts, and the values
    players write and score on it."""

    tower_values: ValueSet
    flag_values: ValueSet
    resident_track: ResidentTrack
    apprentice_guest_vp: Range

    @property
    def parts(self) -> int:
        return self.donjon_floors + self.towers + self.walls

    @property
    def max_flags(self) -> int:
        return 2 * self.walls_with_two_flags + self.walls_with_one_flag


@dataclass(frozen=True, slots=True)
class CastleComponentsFile:
    components: CastleComponents
    versions: tuple[Version, ...]


@dataclass(frozen=True, slots=True)
class GuestsFile:
    guests: tuple[Guest, ...]


def _sheet_facts(sheet: SheetCounts, tower_values: ValueSet, flag_values: ValueSet, resident_track: ResidentTrack,
                 apprentice_guest_vp: Range) -> SheetFacts:
    counts = {f.name: getattr(sheet, f.name) for f in declared_fields(SheetCounts)}
    return SheetFacts(**counts, tower_values=tower_values, flag_values=flag_values, resident_track=resident_track,
                      apprentice_guest_vp=apprentice_guest_vp)


def _value_set(values: tuple[int, ...], provenance: Provenance) -> ValueSet:
    """The values a player may write, each once and in order."""
    return ValueSet(tuple(sorted(set(values))), provenance)


@dataclass(frozen=True, slots=True)
class Castle:
    """Everything donjon knows about Once Upon a Castle."""

    info: GameInfo
    components: CastleComponents
    versions: tuple[Version, ...]
    guests: tuple[Guest, ...]
    sheet: SheetFacts

    def guest(self, guest_id: str) -> Guest | None:
        return next((g for g in self.guests if g.id == guest_id), None)

    def guests_of(self, version: str) -> tuple[Guest, ...]:
        return tuple(g for g in self.guests if g.version == version)


#: The catalog's class, for the registry (`generator.games.base.CatalogPart`).
CATALOG = Castle


def components_spec() -> Record[CastleComponentsFile]:
    components = sourced("components", {
        "personal_boards": Field(Int(1, 100), doc="personal boards in the box: one per player"),
        "players_tokens": Field(Int(1, 100)), "dice": Field(Int(1, 10)),
        "resources": Field(ListOf(Slug(), min_items=1, max_items=10)),
        "squares_per_resource": Field(Int(1, 10)),
        "apprentice_guests": Field(Int(0, 100)), "great_architect_guests": Field(Int(0, 100)),
    }, CastleComponents)
    version = sourced("version", {
        "id": Field(Choice(VERSIONS, what="version")), "name": Field(Text(max_len=40)),
        "guests_drawn": Field(Choice(("blind", "choice"), what="way of drawing guests")),
        "aliases": aliases_field(),
    }, Version)

    def unique(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        report_duplicates(values["versions"], lambda v: v.id, (*path, "versions"), ck,
                          N_("repeats the version {value}{at}"))
        report_name_clashes(values["versions"], (*path, "versions"), ck,
                            N_("the name {name} also names the version {first}"))

    return Record(name="Once Upon a Castle components file", fields={
        "components": Field(components), "versions": Field(ListOf(version, min_items=1, label="id")),
    }, rules=(unique,), build=CastleComponentsFile)


def _scoring_type() -> Record[GuestScoring]:
    def one(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        if (values["flat"] is None) == (values["per"] is None):
            ck.fail(path, "give exactly one of 'flat' (VP) and 'per' (1 VP per something in the castle)")

    return Record(name="guest scoring", fields={
        "flat": Field(Int(0, 99), required=False, doc="VP the guest is worth"),
        "per": Field(Choice(PER, what="thing to count"), required=False,
                     doc="the guest scores 1 VP per one of these in its castle"),
    }, rules=(one,), build=GuestScoring)


def guests_spec() -> Record[GuestsFile]:
    guest = sourced("guest", {
        "id": Field(Slug()), "name": Field(Text(max_len=40)),
        "version": Field(Choice(VERSIONS, what="version")),
        "kind": Field(Choice(KINDS, what="kind"), doc="bolt, hourglass or crown"),
        "scoring": Field(_scoring_type()),
        "power": Field(Text(max_len=300), doc="what the guest does, in donjon's own words"),
        "aliases": aliases_field(),
    }, Guest)

    def unique(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        report_duplicates(values["guests"], lambda g: g.id, (*path, "guests"), ck,
                          N_("repeats the guest id {value}{at}"))
        report_name_clashes(values["guests"], (*path, "guests"), ck, N_("the name {name} also names the guest {first}"))

    return Record(name="Once Upon a Castle guests file",
                  fields={"guests": Field(ListOf(guest, min_items=1, label="id"))}, rules=(unique,),
                  build=GuestsFile)


def sheet_spec() -> Record[SheetFacts]:
    sheet = sourced("sheet", {
        "donjon_floors": Field(Int(1, 12)), "towers": Field(Int(1, 12)), "walls": Field(Int(1, 12)),
        "walls_with_two_flags": Field(Int(0, 12)), "walls_with_one_flag": Field(Int(0, 12)),
        "sun_points": Field(Int(0, 99)), "cloud_points": Field(Int(0, 99)), "sky_cloud_points": Field(Int(0, 99)),
    }, SheetCounts)
    values = sourced("allowed values", {
        "values": Field(ListOf(Int(0, 99), min_items=1, max_items=20), doc="the values a player may write"),
    }, _value_set)
    group: Record[ResidentGroup] = Record(name="resident group", fields={
        "first": Field(Int(1, 999)), "last": Field(Int(1, 999)), "points": Field(Int(0, 999)),
    }, build=ResidentGroup)

    def contiguous(v: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        expected = 1
        for index, g in enumerate(v["groups"]):
            if g.first != expected or g.last < g.first:
                ck.fail((*path, "groups", index), f"groups must run on from resident 1 without gaps: this one "
                                                  f"covers {g.first}-{g.last}, expected to start at {expected}")
                return
            expected = g.last + 1

    track = sourced("resident track", {"groups": Field(ListOf(group, min_items=1, max_items=100))},
                    ResidentTrack, rules=(contiguous,))
    def ordered(v: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        if v["min"] > v["max"]:
            ck.fail((*path, "min"), f"min {v['min']} is more than max {v['max']}")

    span = sourced("range", {"min": Field(Int(0, 99)), "max": Field(Int(0, 99))}, Range, rules=(ordered,))

    def flags_fit(v: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        s = v["sheet"]
        if s.walls_with_two_flags + s.walls_with_one_flag != s.walls:
            ck.fail((*path, "sheet"), f"walls_with_two_flags + walls_with_one_flag must equal walls ({s.walls})")

    return Record(name="castle sheet file", fields={
        "sheet": Field(sheet), "tower_values": Field(values), "flag_values": Field(values),
        "resident_track": Field(track), "apprentice_guest_vp": Field(span),
    }, rules=(flags_fit,), build=_sheet_facts)


def load(reader: CatalogReader) -> Castle | None:
    """The Once Upon a Castle catalog of a game folder; None when any file has problems."""
    components = reader.read("components.yaml", components_spec())
    guests = reader.read("guests.yaml", guests_spec())
    sheet = reader.read("castle-sheet.yaml", sheet_spec())
    info = reader.info(DECK_SOURCES, tuple(v.id for v in components.versions) if components is not None else None)
    if components is None or guests is None or sheet is None or info is None or not reader.ok:
        return None
    catalog = Castle(info, components.components, components.versions, guests.guests, sheet)
    cross_check(catalog, reader.fail)
    return catalog if reader.ok else None


def schemas() -> dict[str, tuple[str, Type[Any]]]:
    """The published schema of each Once Upon a Castle catalog file."""
    return {
        "castle-components": ("Once Upon a Castle components and versions", components_spec()),
        "castle-guests": ("Once Upon a Castle guests", guests_spec()),
        "castle-sheet": ("Once Upon a Castle score sheet", sheet_spec()),
    }


def summary(catalog: Castle) -> dict[str, int | str]:
    return {"versions": len(catalog.versions), "guests": len(catalog.guests),
            "resident track": f"{catalog.sheet.resident_track.length} residents", "castle parts": catalog.sheet.parts}


def cross_check(catalog: Castle, fail: Callable[[str, PathKey, str], None]) -> None:
    """Rules that span files. `fail(file, path, message)` reports a problem."""
    known = len(catalog.guests_of("great-architect"))
    expected = catalog.components.great_architect_guests
    if known != expected:
        fail("guests.yaml", ("guests",),
             f"{known} Great Architect guests are listed; components.yaml says the box holds {expected}")
