"""The Once Upon a Castle reference: the box and versions, the guests by kind, the castle sheet's values."""

from __future__ import annotations

from generator.catalog.common import Provenance
from generator.games.castle.catalog import KINDS, Castle, Guest, Version
from generator.i18n import N_, Language
from generator.reference.document import Block, Column, Heading, Para, Row, cell
from generator.reference.sources import MARK, Sources, text
from generator.render.icons import icons

KIND_NAMES = {"bolt": N_("Bolt"), "hourglass": N_("Hourglass"), "crown": N_("Crown")}
#: The guests of a kind, as a heading says it.
KIND_GUESTS = {"bolt": N_("Bolt guests ({version})"), "hourglass": N_("Hourglass guests ({version})"),
               "crown": N_("Crown guests ({version})")}
DRAWN = {"blind": N_("drawn blind: the top guest of the pile"), "choice": N_("chosen from the guests on offer")}
RESOURCES = {"wood": N_("Wood"), "stone": N_("Stone"), "gold": N_("Gold"), "food": N_("Food")}
#: What a guest scoring 1 VP per something counts, as the reference says it.
PER = {"crown-guest": N_("1 VP per crown guest"), "donjon-floor": N_("1 VP per donjon floor"),
       "wall": N_("1 VP per wall"), "tower": N_("1 VP per tower"), "flag": N_("1 VP per flag")}


def _icon(name: str) -> str:
    return f"{{{name}}} " if name in icons() else ""


def body(game: Castle, sources: Sources) -> list[Block]:
    return [*_box(game, sources), *_guests(game, sources), *_sheet(game, sources)]


def _version_count(game: Castle, version: Version) -> tuple[int | None, str]:
    """How many guests the box holds for a version, and the field saying so (None when the box does not say)."""
    if version.id == "apprentice":
        return game.components.apprentice_guests, "apprentice_guests"
    if version.id == "great-architect":
        return game.components.great_architect_guests, "great_architect_guests"
    return None, ""


def _box(game: Castle, sources: Sources) -> list[Block]:
    _ = sources.lang._
    comp = game.components
    prov = comp.provenance
    resources = ", ".join(f"{_icon(r)}{text(_(RESOURCES[r]) if r in RESOURCES else r.replace('-', ' ').capitalize())}"
                          for r in comp.resources)
    facts = [
        (_("Tokens per player"), str(comp.players_tokens), "players_tokens"),
        (_("Dice"), str(comp.dice), "dice"),
        (_("Resources"), resources, "resources"),
        (_("Squares of each resource on a personal board"), str(comp.squares_per_resource), "squares_per_resource"),
        (_("Apprentice guests"), str(comp.apprentice_guests), "apprentice_guests"),
        (_("Great Architect guests"), str(comp.great_architect_guests), "great_architect_guests"),
    ]
    rows: list[Row] = [(cell(what, style="cell-bold"), cell(sources.value(value, prov, name)))
                       for what, value, name in facts]
    blocks: list[Block] = [
        Heading(_("The box"), 1, "box"),
        *sources.table((Column("", 3), Column("", 4)), rows, [_("The box")] * len(rows), [prov] * len(rows)),
        Heading(_("Versions"), 2, "versions"),
    ]
    rows = []
    for version in game.versions:
        count, field = _version_count(game, version)
        guests = str(count) if count is not None else _("not known")
        drawn = DRAWN.get(version.guests_drawn)
        rows.append((cell(f"**{sources.words(text(version.name), version.provenance)}**"),
                     cell(sources.value(guests, prov, field) if field else guests),
                     cell(sources.value(_(drawn) if drawn else text(version.guests_drawn), version.provenance,
                                        "guests_drawn"))))
    blocks += sources.table((Column(_("Version"), 1.5), Column(_("Guests"), 0.8, "right"),
                             Column(_("A donjon floor's guest"), 4)),
                            rows, [v.name for v in game.versions], [v.provenance for v in game.versions])
    return blocks


def _guests(game: Castle, sources: Sources) -> list[Block]:
    lang = sources.lang
    _ = lang._
    blocks: list[Block] = [
        Heading(_("Guests"), 1, "guests"),
        Para(_("Each guest card is printed once. A guest is one of three kinds: {kinds}. Its VP are flat, or 1 VP for "
               "each of something in its castle.").format(
            kinds=", ".join(f"{_icon(k)}**{_(KIND_NAMES[k])}**" for k in KINDS))),
    ]
    for version in game.versions:
        guests = game.guests_of(version.id)
        count, field = _version_count(game, version)
        key = f"guests-{version.id}"
        if not guests:
            blocks += _unknown_guests(game, version, count, field, key, sources)
            continue
        blocks.append(Heading(_("{version} guests").format(version=version.name), 2, key))
        kinds = [k for k in KINDS if any(g.kind == k for g in guests)]
        blocks.append(Para(lang.ngettext("{n} card", "{n} cards", len(guests)).format(n=len(guests)) + ": " + "; ".join(
            f"{_icon(k)}{sum(1 for g in guests if g.kind == k)} {_(KIND_NAMES[k])}" for k in kinds) + ".", after=4.0))
        for kind in kinds:
            of_kind = [g for g in guests if g.kind == kind]
            blocks.append(Heading(_(KIND_GUESTS[kind]).format(version=version.name), 3, f"{key}-{kind}"))
            blocks += sources.table(
                (Column(_("Guest"), 1.6), Column(_("Kind"), 1.1), Column(_("Scores"), 1.6), Column(_("Power"), 4.4)),
                [_guest_row(g, sources) for g in of_kind], [g.name for g in of_kind], [g.provenance for g in of_kind],
                source_share=2.0)
    return blocks


def _guest_row(guest: Guest, sources: Sources) -> Row:
    p = guest.provenance
    _ = sources.lang._
    kind = KIND_NAMES.get(guest.kind)
    scoring = guest.scoring
    scores = (_("{n} VP").format(n=scoring.flat) if scoring.flat is not None else
              _(PER[scoring.per]) if scoring.per in PER else scoring.describe())
    return (cell(f"**{sources.words(text(guest.name), p)}**"), cell(f"{_icon(guest.kind)}{_(kind) if kind else guest.kind}"),
            cell(sources.value(text(scores), p, "scoring")),
            cell(sources.value(text(guest.power), p, "power")))


def _unknown_guests(game: Castle, version: Version, count: int | None, field: str, key: str,
                    sources: Sources) -> list[Block]:
    _ = sources.lang._
    vp = game.sheet.apprentice_guest_vp
    many = _("{n} cards").format(n=count) if count is not None else _("The cards")
    blocks: list[Block] = [
        Heading(_("{version} guests").format(version=version.name), 2, key),
        Para(_("{cards}: their names, powers and VP are **not known**. No source donjon has lists them, so none is "
               "invented here and donjon prints no deck of them.").format(cards=many)),
    ]
    if version.id == "apprentice":
        blocks.append(Para(_(
            "When scoring a castle sheet, donjon expects a printed VP from {low} to {high} for each of these guests; "
            "another value is scored as written, with a warning.").format(
            low=sources.value(str(vp.min), vp.provenance, 'min'), high=sources.value(str(vp.max), vp.provenance, 'max')),
            after=3.0))
        blocks.append(sources.line(_("Apprentice guest VP"), vp.provenance))
    return blocks


def _sheet(game: Castle, sources: Sources) -> list[Block]:
    lang = sources.lang
    _ = lang._
    sheet = game.sheet
    prov = sheet.provenance
    rows: list[Row] = []
    records: list[str] = []
    provs: list[Provenance | None] = []

    def row(what: str, value: str, record: str, p: Provenance | None) -> None:
        rows.append((cell(what, style="cell-bold"), cell(value)))
        records.append(record)
        provs.append(p)

    sheet_record = _("Castle sheet")
    row(_("Donjon floors"), sources.value(str(sheet.donjon_floors), prov, "donjon_floors"), sheet_record, prov)
    row(_("Towers"), sources.value(str(sheet.towers), prov, "towers"), sheet_record, prov)
    row(_("Walls"), sources.value(
        _("{walls}: {two} with room for 2 flags, {one} with room for 1").format(
            walls=sheet.walls, two=sheet.walls_with_two_flags, one=sheet.walls_with_one_flag),
        prov, "walls", "walls_with_two_flags", "walls_with_one_flag"), sheet_record, prov)
    row(_("Flags at most"), sources.value(str(sheet.max_flags), prov, "walls_with_two_flags", "walls_with_one_flag"),
        sheet_record, prov)
    row(_("Sun: the first castle with all its towers"), sources.value(_points(sheet.sun_points, lang), prov,
                                                                      "sun_points"), sheet_record, prov)
    row(_("End Cloud: whoever completes the last part"), sources.value(_points(sheet.cloud_points, lang), prov,
                                                                       "cloud_points"), sheet_record, prov)
    row(_("Each extra cloud (Shepherdess)"), sources.value(_points(sheet.sky_cloud_points, lang), prov,
                                                           "sky_cloud_points"), sheet_record, prov)
    row(_("A tower is worth"), sources.value(_either(sheet.tower_values.values, lang), sheet.tower_values.provenance,
                                             "values"), _("Tower values"), sheet.tower_values.provenance)
    row(_("A flag is worth"), sources.value(_either(sheet.flag_values.values, lang), sheet.flag_values.provenance,
                                            "values"), _("Flag values"), sheet.flag_values.provenance)
    row(_("Apprentice guest VP the scorer expects"),
        sources.value(_("{low} to {high}").format(low=sheet.apprentice_guest_vp.min, high=sheet.apprentice_guest_vp.max),
                      sheet.apprentice_guest_vp.provenance, "min", "max"),
        _("Apprentice guest VP"), sheet.apprentice_guest_vp.provenance)
    blocks: list[Block] = [
        Heading(_("The castle sheet"), 1, "sheet"),
        Para(_("A castle is complete with its {parts} parts. These are the values donjon's score sheets print and its "
               "scorer checks. A value marked {mark} is no rulebook's: a sheet that differs from it is scored all the "
               "same, with a warning (`donjon score --strict` refuses it).").format(parts=sheet.parts, mark=MARK),
             after=4.0),
        *sources.table((Column(_("On the sheet"), 3.2), Column(_("Value"), 2.6)), rows, records, provs,
                       source_share=2.6),
        Heading(_("Resident track"), 2, "residents"),
        Para(_("Residents are drawn one after another; at the end a castle scores the points of the group holding "
               "its last resident. The groups below are donjon's own; more residents than the track holds score as "
               "its last group."), "small", after=3.0),
    ]
    track = sheet.resident_track
    rows = [(cell(f"{g.first}-{g.last}" if g.first != g.last else str(g.first)),
             cell(sources.value(_points(g.points, lang), track.provenance, "groups"))) for g in track.groups]
    blocks += sources.table((Column(_("Last resident"), 1.4), Column(_("Points"), 1.4)), rows,
                            [_("Resident track")] * len(rows), [track.provenance] + [None] * (len(rows) - 1),
                            [0] * len(rows),
                            source_share=4.0)
    return blocks


def _points(count: int, lang: Language) -> str:
    return lang.ngettext("{n} point", "{n} points", count).format(n=count)


def _either(values: tuple[int, ...], lang: Language) -> str:
    """`2 or 5 points`: the values, the unit once at the end."""
    shown = [str(v) for v in values]
    listed = shown[0] if len(shown) == 1 else lang._("{some} or {last}").format(some=", ".join(shown[:-1]),
                                                                                 last=shown[-1])
    return lang.ngettext("{values} point", "{values} points", values[-1]).format(values=listed)

