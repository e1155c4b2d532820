"""The Guédelon reference: the box, materials, tokens and the Mill, the events by series, the floor tiles."""

from __future__ import annotations

from generator.catalog.common import Provenance
from generator.i18n import N_, Language
from generator.games.guedelon.catalog import Event, Guedelon, Series
from generator.reference.document import Block, Column, Heading, Para, Row, cell
from generator.reference.sources import MARK, Sources, text
from generator.render.icons import icons

TIMING = {"immediate": N_("At once"), "this-round": N_("This round")}


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


def _cards(first: int, last: int, lang: Language) -> str:
    return (lang._("card {first}") if first == last else lang._("cards {first}-{last}")).format(first=first, last=last)


def body(game: Guedelon, sources: Sources) -> list[Block]:
    return [*_box(game, sources), *_events(game, sources), *_tiles(game, sources)]


def _box(game: Guedelon, sources: Sources) -> list[Block]:
    lang = sources.lang
    _ = lang._
    comp = game.components
    prov = comp.provenance
    facts = [
        (_("Rounds"), str(comp.rounds), "rounds"),
        (_("Year of the last round on the time track"), str(comp.last_year), "last_year"),
        (_("Event cards"), str(comp.event_cards), "event_cards"),
        (_("Floor tiles"), str(comp.floor_tiles), "floor_tiles"),
        (_("Visitors"), str(comp.visitors), "visitors"),
        (_("Workers"), str(comp.workers), "workers"),
        (_("A wheelbarrow carries"), _("{n} material tokens").format(n=comp.wheelbarrow_capacity),
         "wheelbarrow_capacity"),
        (_("The cart carries"), _("{n} material tokens").format(n=comp.cart_capacity), "cart_capacity"),
        (_("Cart actions at the Stables"), _("{n} instead of 1").format(n=comp.cart_actions_at_stables),
         "cart_actions_at_stables"),
    ]
    rows: list[Row] = [(cell(what, style="cell-bold"), cell(sources.value(value, prov, name)))
                       for what, value, name in facts]
    blocks: list[Block] = [
        Heading(_("The box"), 1, "box"),
        *sources.table((Column("", 3), Column("", 4)), rows, [_("The box")] * len(rows), [prov] * len(rows)),
    ]
    if game.starts:
        blocks += [
            Heading(_("Starting sliders"), 2, "starts"),
            Para(_("Each player board prints where its two sliders start for each number of players; the rulebooks "
                   "say it in words only for the count below."), "small", after=3.0),
            *sources.table((Column(_("Game"), 1.2), Column(_("Experience"), 1.5, "right"),
                            Column(_("Tools"), 1.5, "right")),
                           [(cell(_("With {n} players").format(n=s.players)),
                             cell(sources.value(str(s.experience), s.provenance, "experience")),
                             cell(sources.value(str(s.tools), s.provenance, "tools"))) for s in game.starts],
                           [_("{n} players").format(n=s.players) for s in game.starts],
                           [s.provenance for s in game.starts]),
        ]
    blocks += [
        Heading(_("Materials"), 2, "materials"),
        Para(_("Two-sided tokens: the raw material on one face, its finished product on the other."), "small",
             after=3.0),
    ]
    rows = []
    for m in game.materials:
        p = m.provenance
        rows.append((cell(f"{_icon(m.id)}**{sources.words(text(m.name), p)}**"),
                     cell(sources.value(str(m.count), p, "count")),
                     cell(sources.value(text(m.made_at), p, "made_at")),
                     cell(sources.value(f"{_icon(m.finished)}{text(m.finished_name)}", p, "finished", "finished_name")),
                     cell(sources.value(text(m.finished_at), p, "finished_at"))))
    blocks += sources.table((Column(_("Material"), 1.5), Column(_("Tokens"), 0.8, "right"),
                             Column(_("Gathered at"), 1.5), Column(_("Product"), 1.5), Column(_("Finished at"), 1.5)),
                            rows, [m.name for m in game.materials], [m.provenance for m in game.materials])
    blocks.append(Heading(_("Tokens"), 2, "tokens"))
    rows = [(cell(f"{_icon(t.id)}**{sources.words(text(t.name), t.provenance)}**"),
             cell(sources.value(str(t.count), t.provenance, "count")),
             cell(sources.value(text(t.use), t.provenance, "use"))) for t in game.tokens]
    blocks += sources.table((Column(_("Token"), 1.5), Column(_("Count"), 0.8, "right"), Column(_("Use"), 6)), rows,
                            [t.name for t in game.tokens], [t.provenance for t in game.tokens])
    mill = game.mill
    needs = ", ".join(f"{_icon(p)}{text(game.product_name(p))}" for p in mill.products)
    effects = [sources.value(text(effect), mill.provenance, "effects") for effect in mill.effects] or ["-"]
    blocks += [
        Heading(_("The {mill} (expansion)").format(mill=mill.name), 2, "mill"),
        *sources.table((Column(_("Site"), 1.2), Column(_("Products it needs"), 2.6), Column(_("Once built"), 4.5)),
                       [(cell(f"**{sources.words(text(mill.name), mill.provenance)}**"),
                         cell(sources.value(needs, mill.provenance, "products")), cell(*effects))],
                       [mill.name], [mill.provenance]),
    ]
    return blocks


def _events(game: Guedelon, sources: Sources) -> list[Block]:
    lang = sources.lang
    _ = lang._
    comp = game.components
    base = [s for s in game.series if s.replaces == 0]
    blocks: list[Block] = [
        Heading(_("Event cards"), 1, "events"),
        Para(_("{cards} event cards in {series} series. A game plays the cards of the {base} series, or replaces some "
               "of them with the cards of another series.").format(cards=comp.event_cards, series=len(game.series),
                                                                   base=text(base[0].name))
             if len(base) == 1 else _("{cards} event cards in {series} series.").format(
                 cards=comp.event_cards, series=len(game.series))),
    ]
    rows: list[Row] = []
    for series in game.series:
        known = len(game.events_of(series.id))
        total = series.last - series.first + 1
        replaces = (_("{n} of the {base} cards").format(n=series.replaces, base=text(base[0].name))
                    if series.replaces and len(base) == 1
                    else str(series.replaces) if series.replaces else _("none: the base series"))
        rows.append((cell(f"**{sources.words(text(series.name), series.provenance)}**"),
                     cell(f"{series.first}-{series.last}"), cell(replaces),
                     cell(_("{known} of {total}").format(known=known, total=total) if known
                          else _("none of {total}: not known").format(total=total))))
    blocks += sources.table((Column(_("Series"), 1.4), Column(_("Cards"), 0.9), Column(_("Replaces"), 2.2),
                             Column(_("Known to donjon"), 1.7)), rows, [s.name for s in game.series],
                            [s.provenance for s in game.series])
    blocks.append(Para(_("**Timing**: at once when drawn, or for the whole round. **Apprentice**: the effect for the "
                         "apprentice of the solo and duo games, where it differs."), "small", after=4.0))
    for series in game.series:
        blocks += _series(game, series, sources)
    return blocks


def _series(game: Guedelon, series: Series, sources: Sources) -> list[Block]:
    lang = sources.lang
    _ = lang._
    events = sorted(game.events_of(series.id), key=lambda e: e.number)
    blocks: list[Block] = [Heading(_("{series} series, cards {first}-{last}").format(
        series=series.name, first=series.first, last=series.last), 2, f"series-{series.id}")]
    missing = _spans(sorted(set(range(series.first, series.last + 1)) - {e.number for e in events}))
    if missing:
        listed = ", ".join(_cards(a, b, lang) for a, b in missing)
        one = len(missing) == 1 and missing[0][0] == missing[0][1]
        blocks.append(Para((_("{cards}: **not known**. No source donjon has lists it: it is left out rather than "
                              "invented.") if one else
                            _("{cards}: **not known**. No source donjon has lists them: they are left out rather than "
                              "invented.")).format(cards=listed[0].upper() + listed[1:]), after=6.0))
    if events:
        blocks += sources.table(
            (Column(_("No."), 0.5, "right"), Column(_("Event"), 1.5), Column(_("Timing"), 1.3),
             Column(_("Effect"), 3.5), Column(_("Apprentice"), 2.2)),
            [_event_row(e, sources) for e in events], [e.name for e in events], [e.provenance for e in events],
            source_share=1.7)
    return blocks


def _event_row(event: Event, sources: Sources) -> Row:
    p = event.provenance
    timing = TIMING.get(event.timing)
    return (cell(sources.value(str(event.number), p, "number")), cell(f"**{sources.words(text(event.name), p)}**"),
            cell(sources.value(sources.lang._(timing) if timing else text(event.timing), p, "timing")),
            cell(sources.value(text(event.effect), p, "effect")),
            cell(sources.value(text(event.apprentice), p, "apprentice") if event.apprentice else "-"))


def _tiles(game: Guedelon, sources: Sources) -> list[Block]:
    lang = sources.lang
    _ = lang._
    blocks: list[Block] = [
        Heading(_("Floor tiles"), 1, "tiles"),
        Para(_("{tiles} floor tiles on {buildings} buildings. A building is built from floor 0 up; each tile needs at "
               "least its number of ropes on the crane, and its products.").format(
            tiles=game.components.floor_tiles, buildings=len(game.buildings))),
        Heading(_("Buildings"), 2, "buildings"),
    ]
    rows: list[Row] = [(cell(_("**Building {id}**").format(id=text(b.id))),
                        cell(str(b.floors_min) if b.floors_min == b.floors_max else
                             _("{low} to {high}").format(low=b.floors_min, high=b.floors_max)),
                        cell(sources.value(str(b.floors), b.provenance, "floors")),
                        cell(", ".join(t.id for t in game.tiles_of(b.id)))) for b in game.buildings]
    blocks += sources.table((Column(_("Building"), 1.3), Column(_("Rulebooks allow"), 1.3, "right"),
                             Column(_("Floors here"), 1.0, "right"), Column(_("Tiles"), 3.0)), rows,
                            [_("Building {id}").format(id=b.id) for b in game.buildings],
                            [b.provenance for b in game.buildings], source_share=3.2)
    blocks.append(Para(_("Which buildings hold the two tiles the rulebooks do not place is not known: both on B, C or "
                         "E (its floors 3 and 4), on D and F (both floors 4), or on D or F (floor 4) and one of B, C or "
                         "E (floor 3). donjon's default is marked {mark}; the scorer accepts the tiles of any of these "
                         "splits, with a warning for those of another split.").format(mark=MARK), "small", after=4.0))
    if game.rope_examples:
        blocks.append(Heading(_("Ropes the rulebooks state"), 2, "ropes"))
        blocks += sources.table(
            (Column(_("Building"), 1.6), Column(_("Floor"), 0.7, "right"),
             Column(_("Ropes on the crane"), 1.6, "right")),
            [(cell(f"**{sources.words(text(e.building), e.provenance, 'building')}**"), cell(str(e.floor)),
              cell(sources.value(str(e.ropes), e.provenance, "ropes")))
             for e in game.rope_examples],
            [e.building for e in game.rope_examples], [e.provenance for e in game.rope_examples])
    blocks.append(Heading(_("Tiles by building"), 2, "tiles-by-building"))
    tiles: list[Row] = []
    groups: list[int] = []
    records: list[str] = []
    provs: list[Provenance | None] = []
    for number, building in enumerate(game.buildings):
        for tile in game.tiles_of(building.id):
            p = tile.provenance
            if tile.products is None:
                products = _("**not known**")
            elif not tile.products:
                products = _("none")
            else:
                products = ", ".join(f"{_icon(x)}{text(game.product_name(x))}" for x in tile.products)
            paras = [sources.value(products, p, "products")] if tile.products is not None else [products]
            if tile.choice:
                paras.append(sources.value(_("One space shows two products: the players choose one."), p, "choice"))
            tiles.append((cell(sources.value(_("**Floor tile {id}**").format(id=text(tile.id)), p, "id", "building",
                                             "floor")),
                         cell(sources.value(str(tile.floor), p, "floor")),
                         cell(sources.value(str(tile.ropes), p, "ropes")), cell(*paras)))
            groups.append(number)
            records.append(tile.id)
            provs.append(p)
    blocks += sources.table((Column(_("Tile"), 1.6), Column(_("Floor"), 0.7, "right"),
                             Column(_("Ropes"), 0.7, "right"), Column(_("Products"), 3.0)), tiles, records, provs,
                            groups, source_share=3.4)
    if any(t.products is None for t in game.tiles):
        blocks.append(Para(_("Products **not known**: no source donjon has gives them; donjon prints these tiles "
                             "without their products rather than invent them. {mark} marks values no rulebook "
                             "states.").format(mark=MARK), "small"))
    return blocks
