"""The Guédelon reference: the box, materials, tokens and the Mill, the events by series, the floor tiles."""

from __future__ import annotations

from generator.catalog.common import Provenance
from generator.games.guedelon.catalog import Event, Guedelon, Series
from generator.reference.document import Block, Column, Heading, Para, Row, cell
from generator.reference.sources import MARK, Sources, text
from generator.render.icons import icons

TIMING = {"immediate": "At once", "this-round": "This round"}


def _icon(name: str) -> str:
    """The icon token of an id that names one of our icons, else nothing."""
    return f"{{{name}}} " if name in icons() else ""


def _spans(numbers: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs of sorted numbers: [19, 20, 21, 25] -> [(19, 21), (25, 25)]."""
    runs: list[tuple[int, int]] = []
    for number in numbers:
        if runs and runs[-1][1] == number - 1:
            runs[-1] = (runs[-1][0], number)
        else:
            runs.append((number, number))
    return runs


def _cards(first: int, last: int) -> str:
    return f"card {first}" if first == last else f"cards {first}-{last}"


def body(game: Guedelon, sources: Sources) -> list[Block]:
    return [*_box(game, sources), *_events(game, sources), *_tiles(game, sources)]


def _box(game: Guedelon, sources: Sources) -> list[Block]:
    comp = game.components
    prov = comp.provenance
    facts = [
        ("Rounds", str(comp.rounds), "rounds"),
        ("Year of the last round on the time track", str(comp.last_year), "last_year"),
        ("Event cards", str(comp.event_cards), "event_cards"),
        ("Floor tiles", str(comp.floor_tiles), "floor_tiles"),
        ("Visitors", str(comp.visitors), "visitors"),
        ("Workers", str(comp.workers), "workers"),
        ("A wheelbarrow carries", f"{comp.wheelbarrow_capacity} material tokens", "wheelbarrow_capacity"),
        ("The cart carries", f"{comp.cart_capacity} material tokens", "cart_capacity"),
        ("Cart actions at the Stables", f"{comp.cart_actions_at_stables} instead of 1", "cart_actions_at_stables"),
    ]
    rows: list[Row] = [(cell(what, style="cell-bold"), cell(sources.value(value, prov, name)))
                       for what, value, name in facts]
    blocks: list[Block] = [
        Heading("The box", 1, "box"),
        *sources.table((Column("", 3), Column("", 4)), rows, ["The box"] * len(rows), [prov] * len(rows)),
    ]
    if game.starts:
        blocks += [
            Heading("Starting sliders", 2, "starts"),
            Para("Each player board prints where its two sliders start for each number of players; the rulebooks "
                 "say it in words only for the count below.", "small", after=3.0),
            *sources.table((Column("Game", 1.2), Column("Experience", 1.5, "right"),
                            Column("Tools", 1.5, "right")),
                           [(cell(f"With {s.players} players"), cell(sources.value(str(s.experience), s.provenance, "experience")),
                             cell(sources.value(str(s.tools), s.provenance, "tools"))) for s in game.starts],
                           [f"{s.players} players" for s in game.starts], [s.provenance for s in game.starts]),
        ]
    blocks += [
        Heading("Materials", 2, "materials"),
        Para("Two-sided tokens: the raw material on one face, its finished product on the other.", "small",
             after=3.0),
    ]
    rows = []
    for m in game.materials:
        p = m.provenance
        rows.append((cell(f"{_icon(m.id)}**{text(m.name)}**"), cell(sources.value(str(m.count), p, "count")),
                     cell(sources.value(text(m.made_at), p, "made_at")),
                     cell(sources.value(f"{_icon(m.finished)}{text(m.finished_name)}", p, "finished", "finished_name")),
                     cell(sources.value(text(m.finished_at), p, "finished_at"))))
    blocks += sources.table((Column("Material", 1.5), Column("Tokens", 0.8, "right"), Column("Gathered at", 1.5),
                             Column("Product", 1.5), Column("Finished at", 1.5)), rows,
                            [m.name for m in game.materials], [m.provenance for m in game.materials])
    blocks.append(Heading("Tokens", 2, "tokens"))
    rows = [(cell(f"{_icon(t.id)}**{text(t.name)}**"), cell(sources.value(str(t.count), t.provenance, "count")),
             cell(sources.value(text(t.use), t.provenance, "use"))) for t in game.tokens]
    blocks += sources.table((Column("Token", 1.5), Column("Count", 0.8, "right"), Column("Use", 6)), rows,
                            [t.name for t in game.tokens], [t.provenance for t in game.tokens])
    mill = game.mill
    needs = ", ".join(f"{_icon(p)}{text(game.product_name(p))}" for p in mill.products)
    effects = [sources.value(text(effect), mill.provenance, "effects") for effect in mill.effects] or ["-"]
    blocks += [
        Heading(f"The {mill.name} (expansion)", 2, "mill"),
        *sources.table((Column("Site", 1.2), Column("Products it needs", 2.6), Column("Once built", 4.5)),
                       [(cell(f"**{text(mill.name)}**"), cell(sources.value(needs, mill.provenance, "products")),
                         cell(*effects))],
                       [mill.name], [mill.provenance]),
    ]
    return blocks


def _events(game: Guedelon, sources: Sources) -> list[Block]:
    comp = game.components
    base = [s for s in game.series if s.replaces == 0]
    blocks: list[Block] = [
        Heading("Event cards", 1, "events"),
        Para(f"{comp.event_cards} event cards in {len(game.series)} series. A game plays the cards of the "
             f"{text(base[0].name)} series, or replaces some of them with the cards of another series."
             if len(base) == 1 else f"{comp.event_cards} event cards in {len(game.series)} series."),
    ]
    rows: list[Row] = []
    for series in game.series:
        known = len(game.events_of(series.id))
        total = series.last - series.first + 1
        replaces = (f"{series.replaces} of the {text(base[0].name)} cards" if series.replaces and len(base) == 1
                    else str(series.replaces) if series.replaces else "none: the base series")
        rows.append((cell(f"**{text(series.name)}**"), cell(f"{series.first}-{series.last}"), cell(replaces),
                     cell(f"{known} of {total}" if known else f"none of {total}: not known")))
    blocks += sources.table((Column("Series", 1.4), Column("Cards", 0.9), Column("Replaces", 2.2),
                             Column("Known to donjon", 1.7)), rows, [s.name for s in game.series],
                            [s.provenance for s in game.series])
    blocks.append(Para("**Timing**: at once when drawn, or for the whole round. **Apprentice**: the effect for the "
                       "apprentice of the solo and duo games, where it differs.", "small", after=4.0))
    for series in game.series:
        blocks += _series(game, series, sources)
    return blocks


def _series(game: Guedelon, series: Series, sources: Sources) -> list[Block]:
    events = sorted(game.events_of(series.id), key=lambda e: e.number)
    blocks: list[Block] = [Heading(f"{series.name} series, cards {series.first}-{series.last}", 2,
                                   f"series-{series.id}")]
    missing = _spans(sorted(set(range(series.first, series.last + 1)) - {e.number for e in events}))
    if missing:
        listed = ", ".join(_cards(a, b) for a, b in missing)
        one = len(missing) == 1 and missing[0][0] == missing[0][1]
        blocks.append(Para(f"{listed[0].upper() + listed[1:]}: **not known**. No source donjon has lists "
                           f"{'it' if one else 'them'}: {'it is' if one else 'they are'} left out rather than "
                           "invented.", after=6.0))
    if events:
        blocks += sources.table(
            (Column("No.", 0.5, "right"), Column("Event", 1.5), Column("Timing", 1.3), Column("Effect", 3.5),
             Column("Apprentice", 2.2)),
            [_event_row(e, sources) for e in events], [e.name for e in events], [e.provenance for e in events],
            source_share=1.7)
    return blocks


def _event_row(event: Event, sources: Sources) -> Row:
    p = event.provenance
    return (cell(sources.value(str(event.number), p, "number")), cell(f"**{text(event.name)}**"),
            cell(sources.value(TIMING.get(event.timing, text(event.timing)), p, "timing")),
            cell(sources.value(text(event.effect), p, "effect")),
            cell(sources.value(text(event.apprentice), p, "apprentice") if event.apprentice else "-"))


def _tiles(game: Guedelon, sources: Sources) -> list[Block]:
    blocks: list[Block] = [
        Heading("Floor tiles", 1, "tiles"),
        Para(f"{game.components.floor_tiles} floor tiles on {len(game.buildings)} buildings. A building is built "
             "from floor 0 up; each tile needs at least its number of ropes on the crane, and its products."),
        Heading("Buildings", 2, "buildings"),
    ]
    rows: list[Row] = [(cell(f"**Building {text(b.id)}**"),
                        cell(str(b.floors_min) if b.floors_min == b.floors_max else f"{b.floors_min} to {b.floors_max}"),
                        cell(sources.value(str(b.floors), b.provenance, "floors")),
                        cell(", ".join(t.id for t in game.tiles_of(b.id)))) for b in game.buildings]
    blocks += sources.table((Column("Building", 1.3), Column("Rulebooks allow", 1.3, "right"),
                             Column("Floors here", 1.0, "right"), Column("Tiles", 3.0)), rows,
                            [f"Building {b.id}" for b in game.buildings], [b.provenance for b in game.buildings],
                            source_share=3.2)
    blocks.append(Para("Which buildings hold the two tiles the rulebooks do not place is not known: both on B, C or "
                       "E (its floors 3 and 4), on D and F (both floors 4), or on D or F (floor 4) and one of B, C or E "
                       f"(floor 3). donjon's default is marked {MARK}; the scorer accepts the tiles of any of these "
                       "splits, with a warning for those of another split.", "small", after=4.0))
    if game.rope_examples:
        blocks.append(Heading("Ropes the rulebooks state", 2, "ropes"))
        blocks += sources.table(
            (Column("Building", 1.6), Column("Floor", 0.7, "right"), Column("Ropes on the crane", 1.6, "right")),
            [(cell(f"**{text(e.building)}**"), cell(str(e.floor)), cell(sources.value(str(e.ropes), e.provenance,
                                                                                        "ropes")))
             for e in game.rope_examples],
            [e.building for e in game.rope_examples], [e.provenance for e in game.rope_examples])
    blocks.append(Heading("Tiles by building", 2, "tiles-by-building"))
    tiles: list[Row] = []
    groups: list[int] = []
    records: list[str] = []
    provs: list[Provenance | None] = []
    for number, building in enumerate(game.buildings):
        for tile in game.tiles_of(building.id):
            p = tile.provenance
            if tile.products is None:
                products = "**not known**"
            elif not tile.products:
                products = "none"
            else:
                products = ", ".join(f"{_icon(x)}{text(game.product_name(x))}" for x in tile.products)
            paras = [sources.value(products, p, "products")] if tile.products is not None else [products]
            if tile.choice:
                paras.append(sources.value("One space shows two products: the players choose one.", p, "choice"))
            tiles.append((cell(sources.value(f"**Floor tile {text(tile.id)}**", p, "id", "building", "floor")),
                         cell(sources.value(str(tile.floor), p, "floor")),
                         cell(sources.value(str(tile.ropes), p, "ropes")), cell(*paras)))
            groups.append(number)
            records.append(tile.id)
            provs.append(p)
    blocks += sources.table((Column("Tile", 1.6), Column("Floor", 0.7, "right"), Column("Ropes", 0.7, "right"),
                             Column("Products", 3.0)), tiles, records, provs, groups, source_share=3.4)
    if any(t.products is None for t in game.tiles):
        blocks.append(Para(f"Products **not known**: no source donjon has gives them; donjon prints these tiles "
                           f"without their products rather than invent them. {MARK} marks values no rulebook "
                           "states.", "small"))
    return blocks
