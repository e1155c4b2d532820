"""The Guildhall reference: the box, the colours and their symbols, each set's professions and VP cards."""

from __future__ import annotations

from generator.catalog.common import Provenance
from generator.games.guildhall.catalog import (
    Guildhall,
    GuildhallSet,
    Profession,
    VpCard,
)
from generator.reference.document import (
    Block,
    Cell,
    Column,
    Heading,
    Para,
    Row,
    Table,
    cell,
)
from generator.reference.sources import MARK, Sources, text
from generator.render.colour import ink_on
from generator.wording import plural


def body(game: Guildhall, sources: Sources) -> list[Block]:
    blocks: list[Block] = []
    blocks += _box(game, sources)
    for game_set in game.sets:
        blocks += _set(game, game_set, sources)
    return blocks


def _box(game: Guildhall, sources: Sources) -> list[Block]:
    comp = game.components
    prov = comp.provenance
    colours = len(game.colours)
    per_set = comp.professions_per_set
    rows = [
        ("Profession cards, per set",
         f"{comp.profession_cards}: {plural(per_set, 'profession')} x {plural(colours, 'colour')} x "
         f"{plural(comp.copies_per_card, 'copy', 'copies')}", ("profession_cards", "copies_per_card")),
        ("VP cards, per set", str(comp.vp_cards_per_set), ("vp_cards_per_set",)),
        ("VP tokens", f"{comp.vp_tokens}, worth 1 VP each", ("vp_tokens",)),
        ("VP that win, at the end of your own turn", str(comp.win_vp), ("win_vp",)),
        ("Completed chapters you may keep", str(comp.max_completed_chapters), ("max_completed_chapters",)),
    ]
    table = [(cell(what, style="cell-bold"), cell(sources.value(text(value), prov, *fields)))
             for what, value, fields in rows]
    blocks: list[Block] = [
        Heading("The box", 1, "box"),
        Para(f"Guildhall comes in {plural(len(game.sets), 'set')} ({', '.join(text(s.name) for s in game.sets)}), "
             "each with its own profession cards and VP cards; the VP tokens serve with either set."),
        *sources.table((Column("", 3), Column("", 4)), table, ["The box"] * len(table), [prov] * len(table)),
        Heading("Colours and their symbols", 2, "colours"),
        Para("Each profession comes in every colour. donjon prints a symbol of its own beside each colour on the "
             "cards, so that the colours can be told apart without colour vision:", after=4.0),
    ]
    colour_rows = [(_swatch(c.hex, c.symbol), cell(f"**{text(c.name)}**"), cell(f"{{{c.symbol}}} {text(c.symbol)}"),
                    cell(text(c.hex)))
                   for c in game.colours]
    blocks += sources.table((Column("Colour", 1), Column("Name", 2), Column("Symbol", 2), Column("Printed as", 1.5)),
                            colour_rows, [c.name for c in game.colours], [c.provenance for c in game.colours])
    blocks += [
        Heading("VP tokens", 2, "vp-tokens"),
        *sources.table((Column("Card", 2), Column("Value", 1), Column("Count", 3)),
                       [(cell("**VP token**"), cell("1 VP"),
                         cell(sources.value(f"{comp.vp_tokens} in the box", prov, "vp_tokens")))],
                       ["VP tokens"], [prov]),
    ]
    return blocks


def _swatch(hex_colour: str, symbol: str) -> Cell:
    """A cell in the colour itself, with its symbol in whichever ink reads on it."""
    return Cell((Para(f"{{{symbol}}}", "cell", after=0.0, align="center", colour=ink_on(hex_colour)),), fill=hex_colour)


def _set(game: Guildhall, game_set: GuildhallSet, sources: Sources) -> list[Block]:
    comp = game.components
    professions = game.professions_of(game_set.id)
    vp_cards = game.vp_cards_of(game_set.id)
    colours = len(game.colours)
    per_profession = colours * comp.copies_per_card
    blocks: list[Block] = [
        Heading(game_set.name, 1, f"set-{game_set.id}"),
        Para(f"{plural(len(professions), 'profession')}, each in {plural(colours, 'colour')} x "
             f"{plural(comp.copies_per_card, 'copy', 'copies')}: {plural(per_profession, 'card')} a profession, "
             f"{plural(len(professions) * per_profession, 'profession card')}; and "
             f"{plural(sum(c.copies for c in vp_cards), 'VP card')}. Never mix the VP cards of two sets."),
        sources.line(game_set.name, game_set.provenance),
        Heading(f"{game_set.name}: professions", 2, f"{game_set.id}-professions"),
        Para("A level applies when your guildhall already holds at least that many cards of the profession (the "
             "size of its chapter); the card being played does not count. You may use a lower level, or none "
             "(003 Play 1 Card).",
             "small", after=4.0),
    ]
    rows: list[Row] = []
    groups: list[int] = []
    records: list[str] = []
    provs: list[Provenance | None] = []
    for number, profession in enumerate(professions):
        for index, level in enumerate(profession.levels):
            name = _profession_cell(profession, per_profession, colours, comp.copies_per_card) if index == 0 else Cell()
            held = [Para(sources.value(f"**{level.at}+**", profession.provenance, "levels.at"), "cell", after=0.0)]
            if profession.scaling:
                held.append(Para("grows with each one held", "cell-note", after=0.0))
            rows.append((name, Cell(tuple(held)),
                         cell(sources.value(text(level.effect), profession.provenance, "levels.effect"))))
            groups.append(number)
            records.append(profession.name)
            provs.append(profession.provenance if index == 0 else None)  # its source, once
    blocks += sources.table((Column("Profession", 2.2), Column("Cards held", 1.1), Column("Effect", 4.2)), rows,
                            records, provs, groups, source_share=2.3)
    blocks += _vp_cards(game, game_set, vp_cards, sources)
    return blocks


def _profession_cell(profession: Profession, cards: int, colours: int, copies: int) -> Cell:
    return Cell((Para(f"**{text(profession.name)}**", "cell", after=0.0),
                 Para(text(profession.summary), "cell-note", after=0.0),
                 Para(f"{cards} cards: {colours} colours x {copies}", "cell-note", after=0.0)))


def _vp_cards(game: Guildhall, game_set: GuildhallSet, cards: tuple[VpCard, ...], sources: Sources) -> list[Block]:
    counts = ("copies", "removed_in_small_game")
    rows: list[Row] = []
    for card in cards:
        prov = card.provenance
        chapters = "chapter" if card.cost == 1 else "chapters"
        rows.append((
            cell(sources.value(f"**{card.value} VP**", prov, "value")),
            cell(sources.value(f"{card.cost} {chapters}", prov, "cost")),
            cell(text(card.ability) if card.ability else "None"),
            cell(sources.value(str(card.copies), prov, "copies"), style="cell"),
            cell(sources.value(str(card.copies_for(3)), prov, *counts)),
            cell(sources.value(str(card.copies_for(4)), prov, "copies")),
        ))
    any_counts = any(sources.inferred(c.provenance, f) for c in cards for f in counts)
    mark = f" {MARK}" if any_counts else ""
    rows.append((cell("**Total**"), cell(""), cell(""), cell(f"**{sum(c.copies for c in cards)}**{mark}"),
                 cell(f"**{sum(c.copies_for(3) for c in cards)}**{mark}"),
                 cell(f"**{sum(c.copies_for(4) for c in cards)}**{mark}")))
    records = [f"{c.value} VP" for c in cards] + ["Total"]
    provs: list[Provenance | None] = [c.provenance for c in cards]
    provs.append(None)
    blocks: list[Block] = [
        Heading(f"{game_set.name}: VP cards", 2, f"{game_set.id}-vp"),
        Para("Buy a VP card by discarding as many completed chapters as its cost. Its ability is used when it is "
             "bought, and the buyer may decline it (003 Buy 1 VP Card). A 2- or 3-player game leaves some copies out "
             "before play: the supply columns give the copies in play.", "small", after=4.0),
        *sources.table((Column("Card", 1.05), Column("Cost", 1.4), Column("Ability when bought", 3.4),
                        Column("Copies", 1.0, "right"), Column("2-3 players", 1.3, "right"),
                        Column("4 players", 1.15, "right")), rows, records, provs, source_share=2.4),
        Heading(f"{game_set.name}: VP supply by value", 3, f"{game_set.id}-supply"),
    ]
    small, full = game.vp_supply(game_set.id, 3), game.vp_supply(game_set.id, 4)
    supply_rows = []
    for value in sorted(set(small) | set(full)):
        of_value = [c for c in cards if c.value == value]
        counted = f" {MARK}" if any(sources.inferred(c.provenance, f) for c in of_value for f in counts) else ""
        valued = f" {MARK}" if any(sources.inferred(c.provenance, "value") for c in of_value) else ""
        supply_rows.append((cell(f"**{value} VP**{valued}"), cell(f"{small.get(value, 0)}{counted}"),
                            cell(f"{full.get(value, 0)}{counted}")))
    blocks += [
        Para("The cards of each value in play, counted from the table above.", "small", after=3.0),
        Table((Column("Value", 1), Column("2-3 players", 1, "right"), Column("4 players", 1, "right")),
              tuple(supply_rows), width=0.5),
    ]
    return blocks

