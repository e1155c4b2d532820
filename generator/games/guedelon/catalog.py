"""The Guédelon catalog: the clock, materials and tokens, the event series and cards, the castle's floor tiles."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from generator.catalog.common import (
    Provenance,
    aliases_field,
    ref,
    report_duplicates,
    report_name_clashes,
    sourced,
)
from generator.catalog.game import GameInfo
from generator.catalog.reader import CatalogReader
from generator.fields import (
    Bool,
    Checker,
    Choice,
    Field,
    Int,
    ListOf,
    Nullable,
    Record,
    Slug,
    Text,
    Type,
)
from generator.games.guedelon import DECK_SOURCES
from generator.i18n import N_
from generator.yamlio import PathKey

TIMINGS = ("immediate", "this-round")
TILE_ID = r"[A-Z][0-9]"


@dataclass(frozen=True, slots=True)
class GuedelonComponents:
    rounds: int
    last_year: int
    event_cards: int
    floor_tiles: int
    visitors: int
    workers: int
    #: material tokens a worker's wheelbarrow carries (000/001 3.3)
    wheelbarrow_capacity: int
    #: material tokens the cart carries (000/001 4)
    cart_capacity: int
    #: cart actions a worker at the Stables takes instead of one (000/001 7.9)
    cart_actions_at_stables: int
    provenance: Provenance

    def year_of(self, round_number: int) -> int:
        """The year on the time track at `round_number` (round `rounds` is `last_year`)."""
        return self.last_year - self.rounds + round_number


@dataclass(frozen=True, slots=True)
class Material:
    id: str
    name: str
    finished: str
    finished_name: str
    count: int
    made_at: str
    finished_at: str
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Token:
    id: str
    name: str
    count: int
    use: str
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Start:
    """Where the sliders of a player board start in a game of `players`."""

    players: int
    experience: int
    tools: int
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Mill:
    id: str
    name: str
    products: tuple[str, ...]
    #: what building it changes besides the site itself, in donjon's words
    effects: tuple[str, ...]
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Series:
    id: str
    name: str
    first: int
    last: int
    #: how many of cards 1-18 this series replaces (0 for the easy series itself)
    replaces: int
    provenance: Provenance
    #: other names a rulebook prints for it
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Event:
    number: int
    id: str
    name: str
    series: str
    timing: str
    effect: str
    apprentice: str | None
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Building:
    id: str
    #: the floors donjon gives it (a house default where the rulebooks leave a choice)
    floors: int
    #: the fewest and the most floors the rulebooks allow it
    floors_min: int
    floors_max: int
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class RopeExample:
    """A rope requirement the rulebooks state for a building known only by name (000/001 7.7)."""

    building: str
    floor: int
    ropes: int
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Tile:
    id: str
    building: str
    floor: int
    ropes: int
    #: the finished products the tile needs, or None where no source gives them
    products: tuple[str, ...] | None
    #: one space shows two products and the players choose which to use
    choice: bool
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class GuedelonComponentsFile:
    components: GuedelonComponents
    starts: tuple[Start, ...]
    materials: tuple[Material, ...]
    tokens: tuple[Token, ...]
    mill: Mill


@dataclass(frozen=True, slots=True)
class EventsFile:
    series: tuple[Series, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class FloorTilesFile:
    rope_examples: tuple[RopeExample, ...]
    buildings: tuple[Building, ...]
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Guedelon:
    """Everything donjon knows about Guédelon."""

    info: GameInfo
    components: GuedelonComponents
    materials: tuple[Material, ...]
    tokens: tuple[Token, ...]
    mill: Mill
    series: tuple[Series, ...]
    events: tuple[Event, ...]
    buildings: tuple[Building, ...]
    tiles: tuple[Tile, ...]
    rope_examples: tuple[RopeExample, ...] = ()
    starts: tuple[Start, ...] = ()

    def building(self, building_id: str) -> Building | None:
        return next((b for b in self.buildings if b.id == building_id), None)

    @property
    def tallest(self) -> int:
        """The floors of the tallest building the rulebooks show: a rope example builds floor 4 of the Master
        tower (000/001 7.7), so one building has 5 floors; 0 when no example is known."""
        return max((e.floor + 1 for e in self.rope_examples), default=0)

    def tile(self, tile_id: str) -> Tile | None:
        return next((t for t in self.tiles if t.id == tile_id), None)

    def tiles_of(self, building_id: str) -> tuple[Tile, ...]:
        return tuple(sorted((t for t in self.tiles if t.building == building_id), key=lambda t: t.floor))

    def events_of(self, series_id: str) -> tuple[Event, ...]:
        return tuple(e for e in self.events if e.series == series_id)

    def product_name(self, product_id: str) -> str:
        return next((m.finished_name for m in self.materials if m.finished == product_id), product_id)


#: The catalog's class, for the registry (`generator.games.base.CatalogPart`).
CATALOG = Guedelon


def components_spec() -> Record[GuedelonComponentsFile]:
    components = sourced("components", {
        "rounds": Field(Int(1, 100), doc="rounds in a game"),
        "last_year": Field(Int(1000, 2000), doc="the year on the time track at the last round"),
        "event_cards": Field(Int(0, 1000)),
        "floor_tiles": Field(Int(1, 1000), doc="floor tiles in the box; the buildings' floors must add up to it"),
        "visitors": Field(Int(0, 100)),
        "workers": Field(Int(1, 10)),
        "wheelbarrow_capacity": Field(Int(0, 100), doc="material tokens a worker's wheelbarrow carries"),
        "cart_capacity": Field(Int(0, 100), doc="material tokens the cart carries"),
        "cart_actions_at_stables": Field(Int(0, 100), doc="cart actions a worker at the Stables takes"),
    }, GuedelonComponents)
    start = sourced("start", {
        "players": Field(Int(1, 10)), "experience": Field(Int(0, 20)), "tools": Field(Int(0, 20)),
    }, Start)
    material = sourced("material", {
        "id": Field(Slug()), "name": Field(Text(max_len=40)),
        "finished": Field(Slug(), doc="the id of the finished product"),
        "finished_name": Field(Text(max_len=40)),
        "count": Field(Int(0, 1000)),
        "made_at": Field(Text(max_len=60)), "finished_at": Field(Text(max_len=60)),
    }, Material)
    token = sourced("token", {
        "id": Field(Slug()), "name": Field(Text(max_len=40)), "count": Field(Int(0, 1000)),
        "use": Field(Text(max_len=300)),
    }, Token)
    mill = sourced("mill", {
        "id": Field(Slug()), "name": Field(Text(max_len=40)),
        "products": Field(ListOf(Slug(), min_items=1, max_items=20)),
        "effects": Field(ListOf(Text(max_len=300), max_items=10), required=False, default=(),
                         doc="what building it changes besides the site itself, in donjon's own words"),
    }, Mill)

    def unique(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        report_duplicates(values["materials"], lambda m: m.id, (*path, "materials"), ck,
                          N_("repeats the material id {value}{at}"))
        report_duplicates(values["materials"], lambda m: m.finished, (*path, "materials"), ck,
                          N_("repeats the product id {value}{at}"))
        report_duplicates(values["tokens"], lambda t: t.id, (*path, "tokens"), ck,
                          N_("repeats the token id {value}{at}"))
        products = {m.finished for m in values["materials"]}
        for index, product in enumerate(values["mill"].products):
            if product not in products:
                ck.fail((*path, "mill", "products", index),
                        f"names the product {product!r}, which no material makes ({', '.join(sorted(products))})")

    return Record(name="Guédelon components file", fields={
        "components": Field(components),
        "starts": Field(ListOf(start, label="players"), required=False, default=(),
                        doc="where the sliders of a player board start, by player count, where a rulebook says"),
        "materials": Field(ListOf(material, min_items=1, label="id")),
        "tokens": Field(ListOf(token, label="id")),
        "mill": Field(mill),
    }, rules=(unique,), build=GuedelonComponentsFile)


def events_spec() -> Record[EventsFile]:
    series = sourced("series", {
        "id": Field(Slug()), "name": Field(Text(max_len=40)),
        "first": Field(Int(1, 999), doc="number of its first card"), "last": Field(Int(1, 999)),
        "replaces": Field(Int(0, 99), doc="how many of cards 1-18 this series replaces"),
        "aliases": aliases_field(),
    }, Series)
    event = sourced("event card", {
        "number": Field(Int(1, 999)),
        "id": Field(Slug()),
        "name": Field(Text(max_len=60)),
        "series": Field(Slug(), doc="the series the card belongs to"),
        "timing": Field(Choice(TIMINGS, what="timing"), doc="immediate, or this-round"),
        "effect": Field(Text(max_len=400), doc="the effect in donjon's own words"),
        "apprentice": Field(Nullable(Text(max_len=300)), required=False,
                            doc="the effect for the apprentice in the solo and duo games, if it differs"),
    }, Event)

    def consistent(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        report_duplicates(values["series"], lambda s: s.id, (*path, "series"), ck,
                          N_("repeats the series id {value}{at}"))
        report_name_clashes(values["series"], (*path, "series"), ck,
                            N_("the name {name} also names the series {first}"))
        report_duplicates(values["events"], lambda e: e.number, (*path, "events"), ck,
                          N_("repeats the card number {value}{at}"))
        report_duplicates(values["events"], lambda e: e.id, (*path, "events"), ck,
                          N_("repeats the event id {value}{at}"))
        by_id = {s.id: s for s in values["series"]}
        for index, event in enumerate(values["events"]):
            found = by_id.get(event.series)
            if found is None:
                ck.fail((*path, "events", index, "series"),
                        f"names the series {event.series!r}, which is not declared (series: {', '.join(by_id)})")
            elif not found.first <= event.number <= found.last:
                ck.fail((*path, "events", index, "number"),
                        f"card {event.number} is outside its series {found.id!r} ({found.first}-{found.last})")

    return Record(name="Guédelon events file", fields={
        "series": Field(ListOf(series, min_items=1, label="id")),
        "events": Field(ListOf(event, label="id")),
    }, rules=(consistent,), build=EventsFile)


def floor_tiles_spec(products: tuple[str, ...] | None) -> Record[FloorTilesFile]:
    building = sourced("building", {
        "id": Field(Text(max_len=2, pattern=r"[A-Z]", hint="a capital letter")),
        "floors": Field(Int(1, 10), doc="the floors the catalog gives it"),
        "floors_min": Field(Int(1, 10), doc="the fewest floors the rulebooks allow it"),
        "floors_max": Field(Int(1, 10), doc="the most floors the rulebooks allow it"),
    }, Building)
    rope_example = sourced("rope example", {
        "building": Field(Text(max_len=40), doc="the building, by the name the rulebook gives it"),
        "floor": Field(Int(0, 9)),
        "ropes": Field(Int(0, 20), doc="ropes on the crane that floor needs"),
    }, RopeExample)
    tile = sourced("floor tile", {
        "id": Field(Text(max_len=2, pattern=TILE_ID, hint="a building letter and a floor digit, like 'A0'")),
        "building": Field(Text(max_len=2, pattern=r"[A-Z]", hint="a capital letter")),
        "floor": Field(Int(0, 9)),
        "ropes": Field(Int(0, 20), doc="ropes on the crane needed to build it"),
        "products": Field(Nullable(ListOf(ref(products, "product"), max_items=20)), required=False,
                          doc="the finished products it needs; leave out when unknown"),
        "choice": Field(Bool(), required=False, default=False,
                        doc="one space shows two products and the players choose"),
    }, Tile)

    def consistent(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        report_duplicates(values["buildings"], lambda b: b.id, (*path, "buildings"), ck,
                          N_("repeats the building {value}{at}"))
        report_duplicates(values["tiles"], lambda t: t.id, (*path, "tiles"), ck, N_("repeats the tile id {value}{at}"))
        report_duplicates(values["tiles"], lambda t: (t.building, t.floor), (*path, "tiles"), ck,
                          N_("repeats the building and floor {value}{at}"))
        floors = {b.id: b.floors for b in values["buildings"]}
        present: dict[str, set[int]] = {b: set() for b in floors}
        for index, t in enumerate(values["tiles"]):
            where = (*path, "tiles", index)
            if t.id != f"{t.building}{t.floor}":
                ck.fail((*where, "id"), f"a tile of building {t.building} floor {t.floor} must be named "
                                        f"{t.building}{t.floor}, not {t.id}")
            if t.building not in floors:
                ck.fail((*where, "building"), f"names the building {t.building!r}, which is not declared "
                                              f"(buildings: {', '.join(floors)})")
            elif t.floor >= floors[t.building]:
                ck.fail((*where, "floor"), f"floor {t.floor} is above building {t.building}'s "
                                           f"{floors[t.building]} floors (0 to {floors[t.building] - 1})")
            else:
                present[t.building].add(t.floor)
        for index, b in enumerate(values["buildings"]):
            if not b.floors_min <= b.floors <= b.floors_max:
                ck.fail((*path, "buildings", index, "floors"),
                        f"building {b.id} has {b.floors} floors, outside the {b.floors_min} to {b.floors_max} the "
                        "rulebooks allow it (floors_min, floors_max)")
            missing = sorted(set(range(b.floors)) - present[b.id])
            if missing:
                ck.fail((*path, "buildings", index), f"building {b.id} has {b.floors} floors but no tile for "
                                                     + ", ".join(f"{b.id}{f}" for f in missing))

    return Record(name="Guédelon floor tiles file", fields={
        "rope_examples": Field(ListOf(rope_example, label="building"), required=False, default=(),
                               doc="rope requirements the rulebooks state for buildings known by name"),
        "buildings": Field(ListOf(building, min_items=1, label="id")),
        "tiles": Field(ListOf(tile, min_items=1, label="id")),
    }, rules=(consistent,), build=FloorTilesFile)


def load(reader: CatalogReader) -> Guedelon | None:
    """The Guédelon catalog of a game folder: components.yaml first (its finished products are what the floor
    tiles may need), then the events, the floor tiles and game.yaml; None when any of them has problems."""
    components = reader.read("components.yaml", components_spec())
    products = tuple(m.finished for m in components.materials) if components is not None else None
    events = reader.read("events.yaml", events_spec())
    tiles = reader.read("floor-tiles.yaml", floor_tiles_spec(products))
    info = reader.info(DECK_SOURCES, tuple(s.id for s in events.series) if events is not None else None)
    if components is None or events is None or tiles is None or info is None or not reader.ok:
        return None
    catalog = Guedelon(info, components.components, components.materials, components.tokens, components.mill,
                       events.series, events.events, tiles.buildings, tiles.tiles, tiles.rope_examples,
                       components.starts)
    cross_check(catalog, reader.fail)
    return catalog if reader.ok else None


def schemas() -> dict[str, tuple[str, Type[Any]]]:
    """The published schema of each Guédelon catalog file."""
    return {
        "guedelon-components": ("Guédelon components, materials and tokens", components_spec()),
        "guedelon-events": ("Guédelon event series and cards", events_spec()),
        "guedelon-floor-tiles": ("Guédelon buildings and floor tiles", floor_tiles_spec(None)),
    }


def summary(catalog: Guedelon) -> dict[str, int | str]:
    return {"event series": len(catalog.series), "event cards": len(catalog.events),
            "buildings": len(catalog.buildings), "floor tiles": len(catalog.tiles),
            "materials": len(catalog.materials), "tokens": len(catalog.tokens)}


def cross_check(catalog: Guedelon, fail: Callable[[str, PathKey, str], None]) -> None:
    """Rules that span files. `fail(file, path, message)` reports a problem."""
    total = sum(b.floors for b in catalog.buildings)
    if total != catalog.components.floor_tiles:
        fail("floor-tiles.yaml", ("buildings",),
             f"the buildings have {total} floors in all; components.yaml says {catalog.components.floor_tiles} "
             "floor tiles")
    numbered = [e.number for e in catalog.events]
    if numbered and max(numbered) > catalog.components.event_cards:
        fail("events.yaml", ("events",),
             f"card {max(numbered)} is beyond the {catalog.components.event_cards} event cards of components.yaml")
