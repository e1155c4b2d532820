"""The Once Upon a Castle reference: the box and versions, the guests by kind, the castle sheet's values."""

from __future__ import annotations

from generator.catalog.common import Provenance
from generator.games.castle.catalog import KINDS, Castle, Guest, Version
from generator.reference.document import Block, Column, Heading, Para, Row, cell
from generator.reference.sources import MARK, Sources, text
from generator.render.icons import icons
from generator.wording import listing, noun, plural

KIND_NAMES = {"bolt": "Bolt", "hourglass": "Hourglass", "crown": "Crown"}
DRAWN = {"blind": "drawn blind: the top guest of the pile", "choice": "chosen from the guests on offer"}


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
    comp = game.components
    prov = comp.provenance
    resources = ", ".join(f"{_icon(r)}{text(r.replace('-', ' ').capitalize())}" for r in comp.resources)
    facts = [
        ("Tokens per player", str(comp.players_tokens), "players_tokens"),
        ("Dice", str(comp.dice), "dice"),
        ("Resources", resources, "resources"),
        ("Squares of each resource on a personal board", str(comp.squares_per_resource), "squares_per_resource"),
        ("Apprentice guests", str(comp.apprentice_guests), "apprentice_guests"),
        ("Great Architect guests", str(comp.great_architect_guests), "great_architect_guests"),
    ]
    rows: list[Row] = [(cell(what, style="cell-bold"), cell(sources.value(value, prov, name)))
                       for what, value, name in facts]
    blocks: list[Block] = [
        Heading("The box", 1, "box"),
        *sources.table((Column("", 3), Column("", 4)), rows, ["The box"] * len(rows), [prov] * len(rows)),
        Heading("Versions", 2, "versions"),
    ]
    rows = []
    for version in game.versions:
        count, field = _version_count(game, version)
        guests = str(count) if count is not None else "not known"
        rows.append((cell(f"**{text(version.name)}**"), cell(sources.value(guests, prov, field) if field else guests),
                     cell(sources.value(DRAWN.get(version.guests_drawn, text(version.guests_drawn)),
                                        version.provenance, "guests_drawn"))))
    blocks += sources.table((Column("Version", 1.5), Column("Guests", 0.8, "right"), Column("A donjon floor's guest", 4)),
                            rows, [v.name for v in game.versions], [v.provenance for v in game.versions])
    return blocks


def _guests(game: Castle, sources: Sources) -> list[Block]:
    blocks: list[Block] = [
        Heading("Guests", 1, "guests"),
        Para("Each guest card is printed once. A guest is one of three kinds: "
             + ", ".join(f"{_icon(k)}**{KIND_NAMES[k]}**" for k in KINDS)
             + ". Its VP are flat, or 1 VP for each of something in its castle."),
    ]
    for version in game.versions:
        guests = game.guests_of(version.id)
        count, field = _version_count(game, version)
        key = f"guests-{version.id}"
        if not guests:
            blocks += _unknown_guests(game, version, count, field, key, sources)
            continue
        blocks.append(Heading(f"{version.name} guests", 2, key))
        kinds = [k for k in KINDS if any(g.kind == k for g in guests)]
        blocks.append(Para(f"{plural(len(guests), 'card')}: " + "; ".join(
            f"{_icon(k)}{plural(sum(1 for g in guests if g.kind == k), KIND_NAMES[k], KIND_NAMES[k])}"
            for k in kinds) + ".", after=4.0))
        for kind in kinds:
            of_kind = [g for g in guests if g.kind == kind]
            blocks.append(Heading(f"{KIND_NAMES[kind]} guests ({version.name})", 3, f"{key}-{kind}"))
            blocks += sources.table(
                (Column("Guest", 1.6), Column("Kind", 1.1), Column("Scores", 1.6), Column("Power", 4.4)),
                [_guest_row(g, sources) for g in of_kind], [g.name for g in of_kind], [g.provenance for g in of_kind],
                source_share=2.0)
    return blocks


def _guest_row(guest: Guest, sources: Sources) -> Row:
    p = guest.provenance
    return (cell(f"**{text(guest.name)}**"), cell(f"{_icon(guest.kind)}{KIND_NAMES.get(guest.kind, guest.kind)}"),
            cell(sources.value(text(guest.scoring.describe()), p, "scoring")),
            cell(sources.value(text(guest.power), p, "power")))


def _unknown_guests(game: Castle, version: Version, count: int | None, field: str, key: str,
                    sources: Sources) -> list[Block]:
    vp = game.sheet.apprentice_guest_vp
    many = f"{count} cards" if count is not None else "The cards"
    blocks: list[Block] = [
        Heading(f"{version.name} guests", 2, key),
        Para(f"{many}: their names, powers and VP are **not known**. No source donjon has lists them, so none is "
             "invented here and donjon prints no deck of them."),
    ]
    if version.id == "apprentice":
        blocks.append(Para(
            f"When scoring a castle sheet, donjon expects a printed VP from "
            f"{sources.value(str(vp.min), vp.provenance, 'min')} to {sources.value(str(vp.max), vp.provenance, 'max')}"
            " for each of these guests; another value is scored as written, with a warning.", after=3.0))
        blocks.append(sources.line("Apprentice guest VP", vp.provenance))
    return blocks


def _sheet(game: Castle, sources: Sources) -> list[Block]:
    sheet = game.sheet
    prov = sheet.provenance
    rows: list[Row] = []
    records: list[str] = []
    provs: list[Provenance | None] = []

    def row(what: str, value: str, record: str, p: Provenance | None) -> None:
        rows.append((cell(what, style="cell-bold"), cell(value)))
        records.append(record)
        provs.append(p)

    row("Donjon floors", sources.value(str(sheet.donjon_floors), prov, "donjon_floors"),
        "Castle sheet", prov)
    row("Towers", sources.value(str(sheet.towers), prov, "towers"), "Castle sheet", prov)
    row("Walls", sources.value(
        f"{sheet.walls}: {sheet.walls_with_two_flags} with room for 2 flags, {sheet.walls_with_one_flag} with room "
        "for 1", prov, "walls", "walls_with_two_flags", "walls_with_one_flag"), "Castle sheet", prov)
    row("Flags at most", sources.value(str(sheet.max_flags), prov, "walls_with_two_flags", "walls_with_one_flag"),
        "Castle sheet", prov)
    row("Sun: the first castle with all its towers", sources.value(_points(sheet.sun_points), prov, "sun_points"),
        "Castle sheet", prov)
    row("End Cloud: whoever completes the last part", sources.value(_points(sheet.cloud_points), prov,
                                                                    "cloud_points"), "Castle sheet", prov)
    row("Each extra cloud (Shepherdess)", sources.value(_points(sheet.sky_cloud_points), prov, "sky_cloud_points"),
        "Castle sheet", prov)
    row("A tower is worth", sources.value(_either(sheet.tower_values.values), sheet.tower_values.provenance, "values"),
        "Tower values", sheet.tower_values.provenance)
    row("A flag is worth", sources.value(_either(sheet.flag_values.values), sheet.flag_values.provenance, "values"),
        "Flag values", sheet.flag_values.provenance)
    row("Apprentice guest VP the scorer expects",
        sources.value(f"{sheet.apprentice_guest_vp.min} to {sheet.apprentice_guest_vp.max}",
                      sheet.apprentice_guest_vp.provenance, "min", "max"),
        "Apprentice guest VP", sheet.apprentice_guest_vp.provenance)
    blocks: list[Block] = [
        Heading("The castle sheet", 1, "sheet"),
        Para(f"A castle is complete with its {sheet.parts} parts. These are the values donjon's score sheets print "
             f"and its scorer checks. A value marked {MARK} is no rulebook's: a sheet that differs from it is scored "
             "all the same, with a warning (`donjon score --strict` refuses it).", after=4.0),
        *sources.table((Column("On the sheet", 3.2), Column("Value", 2.6)), rows, records, provs, source_share=2.6),
        Heading("Resident track", 2, "residents"),
        Para("Residents are drawn one after another; at the end a castle scores the points of the group holding "
             "its last resident. The groups below are donjon's own; more residents than the track holds score as its "
             "last group.", "small", after=3.0),
    ]
    track = sheet.resident_track
    rows = [(cell(f"{g.first}-{g.last}" if g.first != g.last else str(g.first)),
             cell(sources.value(_points(g.points), track.provenance, "groups"))) for g in track.groups]
    blocks += sources.table((Column("Last resident", 1.4), Column("Points", 1.4)), rows,
                            ["Resident track"] * len(rows), [track.provenance] + [None] * (len(rows) - 1),
                            [0] * len(rows),
                            source_share=4.0)
    return blocks


def _points(count: int) -> str:
    return plural(count, "point")


def _either(values: tuple[int, ...]) -> str:
    """`2 or 5 points`: the values, the unit once at the end."""
    return f"{listing(values, 'or')} {noun(values[-1], 'point')}"

