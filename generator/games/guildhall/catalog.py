"""The Guildhall catalog: components, sets, colours, the twelve professions and the VP cards of each set."""

from __future__ import annotations

from collections import Counter
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
from generator.games.guildhall import DECK_SOURCES
from generator.i18n import N_
from generator.yamlio import PathKey

SYMBOLS = ("triangle", "circle", "square", "star", "diamond", "hexagon", "cross")


@dataclass(frozen=True, slots=True)
class GuildhallComponents:
    profession_cards: int
    copies_per_card: int
    professions_per_set: int
    vp_cards_per_set: int
    vp_tokens: int
    win_vp: int
    max_completed_chapters: int
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class GuildhallSet:
    id: str
    name: str
    provenance: Provenance
    #: other names a rulebook prints for it
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Colour:
    id: str
    name: str
    hex: str
    #: donjon's own symbol for the colour, so that the cards can be told apart without colour vision
    symbol: str
    provenance: Provenance
    #: other names a rulebook prints for it
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Level:
    """An ability level: it applies when the guildhall already holds `at` or more cards of the profession."""

    at: int
    effect: str


@dataclass(frozen=True, slots=True)
class Profession:
    id: str
    name: str
    set: str
    summary: str
    levels: tuple[Level, ...]
    #: the single level's effect grows with the number of cards already held (Dancer, Tax Collector)
    scaling: bool
    provenance: Provenance
    #: other names a rulebook prints for it
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class VpCard:
    id: str
    set: str
    value: int
    #: completed chapters discarded to buy it
    cost: int
    ability: str | None
    copies: int
    removed_in_small_game: int
    provenance: Provenance

    def copies_for(self, players: int) -> int:
        """Copies in play: a 2- or 3-player game removes some before play (rulebook 002/003 Smaller Games)."""
        return self.copies - self.removed_in_small_game if players <= 3 else self.copies


@dataclass(frozen=True, slots=True)
class GuildhallComponentsFile:
    components: GuildhallComponents
    sets: tuple[GuildhallSet, ...]
    colours: tuple[Colour, ...]


@dataclass(frozen=True, slots=True)
class ProfessionsFile:
    professions: tuple[Profession, ...]


@dataclass(frozen=True, slots=True)
class VpCardsFile:
    vp_cards: tuple[VpCard, ...]


@dataclass(frozen=True, slots=True)
class Guildhall:
    """Everything donjon knows about Guildhall."""

    info: GameInfo
    components: GuildhallComponents
    sets: tuple[GuildhallSet, ...]
    colours: tuple[Colour, ...]
    professions: tuple[Profession, ...]
    vp_cards: tuple[VpCard, ...]

    def profession(self, profession_id: str) -> Profession:
        return next(p for p in self.professions if p.id == profession_id)

    def professions_of(self, set_id: str) -> tuple[Profession, ...]:
        return tuple(p for p in self.professions if p.set == set_id)

    def vp_cards_of(self, set_id: str) -> tuple[VpCard, ...]:
        return tuple(c for c in self.vp_cards if c.set == set_id)

    def vp_supply(self, set_id: str, players: int) -> Mapping[int, int]:
        """How many VP cards of each printed value a game of `players` uses (rulebook 002/003 Smaller Games)."""
        supply: Counter[int] = Counter()
        for card in self.vp_cards_of(set_id):
            supply[card.value] += card.copies_for(players)
        return dict(sorted(supply.items()))


#: The catalog's class, for the registry (`generator.games.base.CatalogPart`).
CATALOG = Guildhall


# --- the file formats ---------------------------------------------------------------------------------------------

def _colour(id: str, name: str, hex: str, symbol: str, provenance: Provenance,  # noqa: A002
            aliases: tuple[str, ...] = ()) -> Colour:
    """A colour, its hex value in lower case (so that equal colours are written alike)."""
    return Colour(id, name, hex.lower(), symbol, provenance, aliases)


def components_spec() -> Record[GuildhallComponentsFile]:
    count = {
        "profession_cards": Field(Int(1, 10_000), doc="profession cards in the deck"),
        "copies_per_card": Field(Int(1, 100), doc="copies of each (profession, colour) card"),
        "professions_per_set": Field(Int(1, 100)),
        "vp_cards_per_set": Field(Int(1, 1000)),
        "vp_tokens": Field(Int(0, 10_000)),
        "win_vp": Field(Int(1, 1000), doc="VP at the end of your own turn that wins"),
        "max_completed_chapters": Field(Int(0, 100)),
    }
    components = sourced("components", count, GuildhallComponents)
    set_record = sourced("set", {"id": Field(Slug()), "name": Field(Text(max_len=80)), "aliases": aliases_field()},
                         GuildhallSet)
    colour_fields = {
        "id": Field(Slug()),
        "name": Field(Text(max_len=40)),
        "hex": Field(Text(pattern=r"#[0-9a-fA-F]{6}", hint="a colour like '#b3261e'")),
        "symbol": Field(Choice(SYMBOLS, what="symbol"), doc="donjon's own symbol, drawn beside the colour"),
        "aliases": aliases_field(),
    }
    colour = sourced("colour", colour_fields, _colour)

    def unique(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        report_duplicates(values["sets"], lambda s: s.id, (*path, "sets"), ck, N_("repeats the set id {value}{at}"))
        report_duplicates(values["colours"], lambda c: c.id, (*path, "colours"), ck,
                          N_("repeats the colour id {value}{at}"))
        report_duplicates(values["colours"], lambda c: c.symbol, (*path, "colours"), ck,
                          N_("repeats the symbol {value}{at}"))
        report_name_clashes(values["sets"], (*path, "sets"), ck, N_("the name {name} also names the set {first}"))
        report_name_clashes(values["colours"], (*path, "colours"), ck,
                            N_("the name {name} also names the colour {first}"))

    return Record(
        name="Guildhall components file",
        fields={
            "components": Field(components),
            "sets": Field(ListOf(set_record, min_items=1, label="id")),
            "colours": Field(ListOf(colour, min_items=1, max_items=len(SYMBOLS), label="id")),
        },
        rules=(unique,),
        build=GuildhallComponentsFile,
    )


_LEVEL: Record[Level] = Record(
    name="level",
    fields={
        "at": Field(Int(0, 20), doc="cards of this profession already in the guildhall for this level"),
        "effect": Field(Text(max_len=400), doc="what the level does, in donjon's own words"),
    },
    build=Level,
)


def professions_spec(set_ids: tuple[str, ...] | None) -> Record[ProfessionsFile]:
    fields = {
        "id": Field(Slug()),
        "name": Field(Text(max_len=40)),
        "set": Field(ref(set_ids, "set"), doc="the set the profession belongs to (an id from components.yaml)"),
        "summary": Field(Text(max_len=300), doc="the ability in a sentence, in donjon's own words"),
        "levels": Field(ListOf(_LEVEL, min_items=1, max_items=6)),
        "scaling": Field(Bool(), required=False, default=False,
                         doc="the single level grows with the number of cards held (Dancer, Tax Collector)"),
        "aliases": aliases_field(),
    }

    def rising(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        steps = [level.at for level in values["levels"]]
        for index in range(1, len(steps)):
            if steps[index] <= steps[index - 1]:
                ck.fail((*path, "levels", index, "at"),
                        f"level thresholds must rise: {steps[index]} follows {steps[index - 1]}")

    profession = sourced("profession", fields, Profession, rules=(rising,))

    def unique(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        report_duplicates(values["professions"], lambda p: p.id, (*path, "professions"), ck,
                          N_("repeats the profession id {value}{at}"))
        report_name_clashes(values["professions"], (*path, "professions"), ck,
                            N_("the name {name} also names the profession {first}"))

    return Record(name="Guildhall professions file",
                  fields={"professions": Field(ListOf(profession, min_items=1, label="id"))}, rules=(unique,),
                  build=ProfessionsFile)


def vp_cards_spec(set_ids: tuple[str, ...] | None) -> Record[VpCardsFile]:
    fields = {
        "id": Field(Slug()),
        "set": Field(ref(set_ids, "set"), doc="the set the card belongs to (an id from components.yaml)"),
        "value": Field(Int(0, 99), doc="the VP printed on the card"),
        "cost": Field(Int(0, 9), doc="completed chapters discarded to buy it"),
        "ability": Field(Nullable(Text(max_len=300)), required=False,
                         doc="what buying it does, in donjon's own words (none for plain VP cards)"),
        "copies": Field(Int(1, 99), doc="copies of this card in the set"),
        "removed_in_small_game": Field(Int(0, 99), doc="copies taken out before a 2- or 3-player game"),
    }

    def removable(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        if values["removed_in_small_game"] > values["copies"]:
            ck.fail((*path, "removed_in_small_game"),
                    f"removes {values['removed_in_small_game']} of only {values['copies']} copies")

    card = sourced("VP card", fields, VpCard, rules=(removable,))

    def unique(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        report_duplicates(values["vp_cards"], lambda c: c.id, (*path, "vp_cards"), ck,
                          N_("repeats the VP card id {value}{at}"))

    return Record(name="Guildhall VP cards file",
                  fields={"vp_cards": Field(ListOf(card, min_items=1, label="id"))}, rules=(unique,),
                  build=VpCardsFile)


def load(reader: CatalogReader) -> Guildhall | None:
    """The Guildhall catalog of a game folder: components.yaml first (its sets are what the other files may
    name), then the professions, the VP cards and game.yaml; None when any of them has problems."""
    components = reader.read("components.yaml", components_spec())
    set_ids = tuple(s.id for s in components.sets) if components is not None else None
    professions = reader.read("professions.yaml", professions_spec(set_ids))
    vp_cards = reader.read("vp-cards.yaml", vp_cards_spec(set_ids))
    info = reader.info(DECK_SOURCES, set_ids)
    if components is None or professions is None or vp_cards is None or info is None or not reader.ok:
        return None
    catalog = Guildhall(info, components.components, components.sets, components.colours, professions.professions,
                        vp_cards.vp_cards)
    cross_check(catalog, reader.fail)
    return catalog if reader.ok else None


def schemas() -> dict[str, tuple[str, Type[Any]]]:
    """The published schema of each Guildhall catalog file."""
    return {
        "guildhall-components": ("Guildhall components, sets and colours", components_spec()),
        "guildhall-professions": ("Guildhall professions", professions_spec(None)),
        "guildhall-vp-cards": ("Guildhall VP cards", vp_cards_spec(None)),
    }


def summary(catalog: Guildhall) -> dict[str, int | str]:
    return {"sets": len(catalog.sets), "colours": len(catalog.colours), "professions": len(catalog.professions),
            "vp card kinds": len(catalog.vp_cards)}


def cross_check(catalog: Guildhall, fail: Callable[[str, PathKey, str], None]) -> None:
    """Rules that span files: counts that must agree. `fail(file, path, message)` reports a problem."""
    comp = catalog.components
    colours = len(catalog.colours)
    for game_set in catalog.sets:
        professions = catalog.professions_of(game_set.id)
        if len(professions) != comp.professions_per_set:
            fail("professions.yaml", ("professions",),
                 f"set {game_set.id!r} has {len(professions)} professions; components.yaml says "
                 f"{comp.professions_per_set} per set")
        cards = len(professions) * colours * comp.copies_per_card
        if professions and cards != comp.profession_cards:
            fail("professions.yaml", ("professions",),
                 f"set {game_set.id!r} makes {cards} profession cards ({len(professions)} x {colours} colours x "
                 f"{comp.copies_per_card}); components.yaml says {comp.profession_cards}")
        vp_total = sum(c.copies for c in catalog.vp_cards_of(game_set.id))
        if vp_total != comp.vp_cards_per_set:
            fail("vp-cards.yaml", ("vp_cards",),
                 f"set {game_set.id!r} has {vp_total} VP cards; components.yaml says {comp.vp_cards_per_set}")
