"""The Once Upon a Castle catalog: components, versions, guests and the castle score sheet."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.catalog.common import GameInfo, Provenance, report_duplicates, sourced
from generator.fields import Checker, Choice, Field, Int, ListOf, Record, Slug, Text
from generator.yamlio import PathKey

FILES = ("components.yaml", "guests.yaml", "castle-sheet.yaml")
DECK_SOURCES = ("guests",)
KINDS = ("bolt", "hourglass", "crown")
VERSIONS = ("apprentice", "great-architect")
#: what a Crown guest can count in its castle, one VP each
PER = ("crown-guest", "donjon-floor", "wall", "tower", "flag")


@dataclass(frozen=True, slots=True)
class Components:
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
        """The points of the group holding the last resident drawn (004 End of the game); 0 with none."""
        for group in self.groups:
            if group.first <= residents <= group.last:
                return group.points
        return 0


@dataclass(frozen=True, slots=True)
class Range:
    min: int
    max: int
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Sheet:
    """The castle score sheet shared by the printed sheet and the scorer."""

    donjon_floors: int
    towers: int
    walls: int
    walls_with_two_flags: int
    walls_with_one_flag: int
    sun_points: int
    cloud_points: int
    sky_cloud_points: int
    provenance: Provenance
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
class Castle:
    """Everything donjon knows about Once Upon a Castle."""

    info: GameInfo
    components: Components
    versions: tuple[Version, ...]
    guests: tuple[Guest, ...]
    sheet: Sheet

    def guest(self, guest_id: str) -> Guest | None:
        return next((g for g in self.guests if g.id == guest_id), None)

    def guests_of(self, version: str) -> tuple[Guest, ...]:
        return tuple(g for g in self.guests if g.version == version)


def _components_spec() -> Record:
    components = sourced("components", {
        "players_tokens": Field(Int(1, 100)), "dice": Field(Int(1, 10)),
        "resources": Field(ListOf(Slug(), min_items=1, max_items=10)),
        "squares_per_resource": Field(Int(1, 10)),
        "apprentice_guests": Field(Int(0, 100)), "great_architect_guests": Field(Int(0, 100)),
    }, lambda resources, **v: Components(resources=tuple(resources), **v))
    version = sourced("version", {
        "id": Field(Choice(VERSIONS, what="version")), "name": Field(Text(max_len=40)),
        "guests_drawn": Field(Choice(("blind", "choice"), what="way of drawing guests")),
    }, Version)

    def unique(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        report_duplicates(values["versions"], lambda v: v.id, (*path, "versions"), ck, "version")

    return Record(name="Once Upon a Castle components file", fields={
        "components": Field(components), "versions": Field(ListOf(version, min_items=1, label="id")),
    }, rules=(unique,))


def _scoring_type() -> Record:
    def one(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        if (values["flat"] is None) == (values["per"] is None):
            ck.fail(path, "give exactly one of 'flat' (VP) and 'per' (1 VP per something in the castle)")

    return Record(name="guest scoring", fields={
        "flat": Field(Int(0, 99), required=False, doc="VP the guest is worth"),
        "per": Field(Choice(PER, what="thing to count"), required=False,
                     doc="the guest scores 1 VP per one of these in its castle"),
    }, rules=(one,), build=lambda flat, per: GuestScoring(flat, per))


def _guests_spec() -> Record:
    guest = sourced("guest", {
        "id": Field(Slug()), "name": Field(Text(max_len=40)),
        "version": Field(Choice(VERSIONS, what="version")),
        "kind": Field(Choice(KINDS, what="kind"), doc="bolt, hourglass or crown"),
        "scoring": Field(_scoring_type()),
        "power": Field(Text(max_len=300), doc="what the guest does, in donjon's own words"),
    }, Guest)

    def unique(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        report_duplicates(values["guests"], lambda g: g.id, (*path, "guests"), ck, "guest id")

    return Record(name="Once Upon a Castle guests file",
                  fields={"guests": Field(ListOf(guest, min_items=1, label="id"))}, rules=(unique,))


def _sheet_spec() -> Record:
    sheet = sourced("sheet", {
        "donjon_floors": Field(Int(1, 12)), "towers": Field(Int(1, 12)), "walls": Field(Int(1, 12)),
        "walls_with_two_flags": Field(Int(0, 12)), "walls_with_one_flag": Field(Int(0, 12)),
        "sun_points": Field(Int(0, 99)), "cloud_points": Field(Int(0, 99)), "sky_cloud_points": Field(Int(0, 99)),
    }, lambda **v: v)
    values = sourced("allowed values", {
        "values": Field(ListOf(Int(0, 99), min_items=1, max_items=20), doc="the values a player may write"),
    }, lambda values, provenance: ValueSet(tuple(sorted(set(values))), provenance))
    group = Record(name="resident group", fields={
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
                    lambda groups, provenance: ResidentTrack(tuple(groups), provenance), rules=(contiguous,))
    span = sourced("range", {"min": Field(Int(0, 99)), "max": Field(Int(0, 99))}, Range)

    def flags_fit(v: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        s = v["sheet"]
        if s["walls_with_two_flags"] + s["walls_with_one_flag"] != s["walls"]:
            ck.fail((*path, "sheet"), f"walls_with_two_flags + walls_with_one_flag must equal walls ({s['walls']})")

    return Record(name="castle sheet file", fields={
        "sheet": Field(sheet), "tower_values": Field(values), "flag_values": Field(values),
        "resident_track": Field(track), "apprentice_guest_vp": Field(span),
    }, rules=(flags_fit,), build=lambda sheet, tower_values, flag_values, resident_track, apprentice_guest_vp: Sheet(
        **sheet, tower_values=tower_values, flag_values=flag_values, resident_track=resident_track,
        apprentice_guest_vp=apprentice_guest_vp))


def specs() -> dict[str, Record]:
    return {
        "components.yaml": _components_spec(),
        "guests.yaml": _guests_spec(),
        "castle-sheet.yaml": _sheet_spec(),
    }


def cross_check(catalog: Castle, fail: Any) -> None:
    """Rules that span files. `fail(file, path, message)` reports a problem."""
    known = len(catalog.guests_of("great-architect"))
    expected = catalog.components.great_architect_guests
    if known != expected:
        fail("guests.yaml", ("guests",),
             f"{known} Great Architect guests are listed; components.yaml says the box holds {expected}")
