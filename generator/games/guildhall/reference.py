"""The Guildhall reference: the box, the colours and their symbols, each set's professions and VP cards."""

from __future__ import annotations

from generator.catalog.common import Provenance
from generator.i18n import N_
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


def body(game: Guildhall, sources: Sources) -> list[Block]:
    blocks: list[Block] = []
    blocks += _box(game, sources)
    for game_set in game.sets:
        blocks += _set(game, game_set, sources)
    return blocks


def _box(game: Guildhall, sources: Sources) -> list[Block]:
    lang = sources.lang
    _ = lang._
    comp = game.components
    prov = comp.provenance
    colours = len(game.colours)
    per_set = comp.professions_per_set
    rows = [
        (_("Profession cards, per set"),
         _("{cards}: {professions} x {colours} x {copies}").format(
             cards=comp.profession_cards,
             professions=lang.ngettext("{n} profession", "{n} professions", per_set).format(n=per_set),
             colours=lang.ngettext("{n} colour", "{n} colours", colours).format(n=colours),
             copies=lang.ngettext("{n} copy", "{n} copies", comp.copies_per_card).format(n=comp.copies_per_card)),
         ("profession_cards", "copies_per_card")),
        (_("VP cards, per set"), str(comp.vp_cards_per_set), ("vp_cards_per_set",)),
        (_("VP tokens"), _("{n}, worth 1 VP each").format(n=comp.vp_tokens), ("vp_tokens",)),
        (_("VP that win, at the end of your own turn"), str(comp.win_vp), ("win_vp",)),
        (_("Completed chapters you may keep"), str(comp.max_completed_chapters), ("max_completed_chapters",)),
    ]
    table = [(cell(what, style="cell-bold"), cell(sources.value(text(value), prov, *fields)))
             for what, value, fields in rows]
    blocks: list[Block] = [
        Heading(_("The box"), 1, "box"),
        Para(lang.ngettext("Guildhall comes in {n} set ({names}), each with its own profession cards and VP cards; "
                           "the VP tokens serve with either set.",
                           "Guildhall comes in {n} sets ({names}), each with its own profession cards and VP cards; "
                           "the VP tokens serve with either set.", len(game.sets)).format(
            n=len(game.sets), names=", ".join(sources.words(text(s.name), s.provenance) for s in game.sets))),
        *sources.table((Column("", 3), Column("", 4)), table, [_("The box")] * len(table), [prov] * len(table)),
        Heading(_("Colours and their symbols"), 2, "colours"),
        Para(_("Each profession comes in every colour. donjon prints a symbol of its own beside each colour on the "
               "cards, so that the colours can be told apart without colour vision:"), after=4.0),
    ]
    colour_rows = [(_swatch(c.hex, c.symbol), cell(f"**{sources.words(text(c.name), c.provenance)}**"),
                    cell(f"{{{c.symbol}}} {text(_(SYMBOL_NAMES.get(c.symbol, c.symbol)))}"), cell(text(c.hex)))
                   for c in game.colours]
    blocks += sources.table((Column(_("Colour"), 1), Column(_("Name"), 2), Column(_("Symbol"), 2),
                             Column(_("Printed as"), 1.5)),
                            colour_rows, [c.name for c in game.colours], [c.provenance for c in game.colours])
    blocks += [
        Heading(_("VP tokens"), 2, "vp-tokens"),
        *sources.table((Column(_("Card"), 2), Column(_("Value"), 1), Column(_("Count"), 3)),
                       [(cell(_("**VP token**")), cell(_("1 VP")),
                         cell(sources.value(_("{n} in the box").format(n=comp.vp_tokens), prov, "vp_tokens")))],
                       [_("VP tokens")], [prov]),
    ]
    return blocks


#: How the reference names donjon's colour symbols.
SYMBOL_NAMES = {"triangle": N_("triangle"), "circle": N_("circle"), "square": N_("square"), "star": N_("star"),
                "diamond": N_("diamond"), "hexagon": N_("hexagon"), "cross": N_("cross")}


def _swatch(hex_colour: str, symbol: str) -> Cell:
    """A cell in the colour itself, with its symbol in whichever ink reads on it."""
    return Cell((Para(f"{{{symbol}}}", "cell", after=0.0, align="center", colour=ink_on(hex_colour)),), fill=hex_colour)


def _set(game: Guildhall, game_set: GuildhallSet, sources: Sources) -> list[Block]:
    lang = sources.lang
    _ = lang._

    # named ngettext so that the catalogs' extraction finds the messages it is given (a helper of another name
    # hid "{n} profession card" and "{n} VP card" from it: English on every French and German reference)
    def ngettext(singular: str, plural: str, n: int) -> str:
        return lang.ngettext(singular, plural, n).format(n=n)

    comp = game.components
    professions = game.professions_of(game_set.id)
    vp_cards = game.vp_cards_of(game_set.id)
    colours = len(game.colours)
    per_profession = colours * comp.copies_per_card
    vp_count = sum(c.copies for c in vp_cards)
    blocks: list[Block] = [
        Heading(game_set.name, 1, f"set-{game_set.id}"),
        Para(_("{professions}, each in {colours} x {copies}: {cards} a profession, {all}; and {vp}. Never mix the VP "
               "cards of two sets.").format(
            professions=ngettext("{n} profession", "{n} professions", len(professions)),
            colours=ngettext("{n} colour", "{n} colours", colours),
            copies=ngettext("{n} copy", "{n} copies", comp.copies_per_card),
            cards=ngettext("{n} card", "{n} cards", per_profession),
            all=ngettext("{n} profession card", "{n} profession cards", len(professions) * per_profession),
            vp=ngettext("{n} VP card", "{n} VP cards", vp_count))),
        sources.line(game_set.name, game_set.provenance),
        Heading(_("{set}: professions").format(set=game_set.name), 2, f"{game_set.id}-professions"),
        Para(_("A level applies when your guildhall already holds at least that many cards of the profession (the "
               "size of its chapter); the card being played does not count. You may use a lower level, or none "
               "(003 Play 1 Card)."),
             "small", after=4.0),
    ]
    rows: list[Row] = []
    groups: list[int] = []
    records: list[str] = []
    provs: list[Provenance | None] = []
    for number, profession in enumerate(professions):
        for index, level in enumerate(profession.levels):
            name = _profession_cell(profession, per_profession, colours, comp.copies_per_card,
                                    sources) if index == 0 else Cell()
            held = [Para(sources.value(f"**{level.at}+**", profession.provenance, "levels.at"), "cell", after=0.0)]
            if profession.scaling:
                held.append(Para(_("grows with each one held"), "cell-note", after=0.0))
            rows.append((name, Cell(tuple(held)),
                         cell(sources.value(text(level.effect), profession.provenance, "levels.effect"))))
            groups.append(number)
            records.append(profession.name)
            provs.append(profession.provenance if index == 0 else None)  # its source, once
    blocks += sources.table((Column(_("Profession"), 2.2), Column(_("Cards held"), 1.1), Column(_("Effect"), 4.2)),
                            rows, records, provs, groups, source_share=2.3)
    blocks += _vp_cards(game, game_set, vp_cards, sources)
    return blocks


def _profession_cell(profession: Profession, cards: int, colours: int, copies: int, sources: Sources) -> Cell:
    p = profession.provenance
    return Cell((Para(f"**{sources.words(text(profession.name), p)}**", "cell", after=0.0),
                 Para(sources.words(text(profession.summary), p, "summary"), "cell-note", after=0.0),
                 Para(sources.lang._("{cards} cards: {colours} colours x {copies}").format(
                     cards=cards, colours=colours, copies=copies), "cell-note", after=0.0)))


def _vp_cards(game: Guildhall, game_set: GuildhallSet, cards: tuple[VpCard, ...], sources: Sources) -> list[Block]:
    lang = sources.lang
    _ = lang._
    counts = ("copies", "removed_in_small_game")
    rows: list[Row] = []
    for card in cards:
        prov = card.provenance
        rows.append((
            cell(sources.value(_("**{value} VP**").format(value=card.value), prov, "value")),
            cell(sources.value(lang.ngettext("{n} chapter", "{n} chapters", card.cost).format(n=card.cost), prov,
                               "cost")),
            cell(sources.value(text(card.ability), prov, "ability") if card.ability else _("None")),
            cell(sources.value(str(card.copies), prov, "copies"), style="cell"),
            cell(sources.value(str(card.copies_for(3)), prov, *counts)),
            cell(sources.value(str(card.copies_for(4)), prov, "copies")),
        ))
    any_counts = any(sources.inferred(c.provenance, f) for c in cards for f in counts)
    mark = f" {MARK}" if any_counts else ""
    rows.append((cell(_("**Total**")), cell(""), cell(""), cell(f"**{sum(c.copies for c in cards)}**{mark}"),
                 cell(f"**{sum(c.copies_for(3) for c in cards)}**{mark}"),
                 cell(f"**{sum(c.copies_for(4) for c in cards)}**{mark}")))
    records = [_("{value} VP").format(value=c.value) for c in cards] + [_("Total")]
    provs: list[Provenance | None] = [c.provenance for c in cards]
    provs.append(None)
    blocks: list[Block] = [
        Heading(_("{set}: VP cards").format(set=game_set.name), 2, f"{game_set.id}-vp"),
        Para(_("Buy a VP card by discarding as many completed chapters as its cost. Its ability is used when it is "
               "bought, and the buyer may decline it (003 Buy 1 VP Card). A 2- or 3-player game leaves some copies "
               "out before play: the supply columns give the copies in play."), "small", after=4.0),
        *sources.table((Column(_("Card"), 1.05), Column(_("Cost"), 1.4), Column(_("Ability when bought"), 3.4),
                        Column(_("Copies"), 1.0, "right"), Column(_("2-3 players"), 1.3, "right"),
                        Column(_("4 players"), 1.15, "right")), rows, records, provs, source_share=2.4),
        Heading(_("{set}: VP supply by value").format(set=game_set.name), 3, f"{game_set.id}-supply"),
    ]
    small, full = game.vp_supply(game_set.id, 3), game.vp_supply(game_set.id, 4)
    supply_rows = []
    for value in sorted(set(small) | set(full)):
        of_value = [c for c in cards if c.value == value]
        counted = f" {MARK}" if any(sources.inferred(c.provenance, f) for c in of_value for f in counts) else ""
        valued = f" {MARK}" if any(sources.inferred(c.provenance, "value") for c in of_value) else ""
        supply_rows.append((cell(_("**{value} VP**").format(value=value) + valued), cell(f"{small.get(value, 0)}{counted}"),
                            cell(f"{full.get(value, 0)}{counted}")))
    blocks += [
        Para(_("The cards of each value in play, counted from the table above."), "small", after=3.0),
        Table((Column(_("Value"), 1), Column(_("2-3 players"), 1, "right"), Column(_("4 players"), 1, "right")),
              tuple(supply_rows), width=0.5),
    ]
    return blocks

