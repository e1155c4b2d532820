"""Once Upon a Castle on the sheet engine: which sheet layouts the castle uses, what they print from the catalog,
and how the values read from a filled sheet become one sheet of the castle end state (`end-states.md`).

The layouts are data (`templates/sheets/castle-great-architect.yaml` and `castle-apprentice.yaml`, both extending
`castle.yaml`); :mod:`generator.sheets` draws them (scan-ready with a map of marks, and fillable, on A4 and
Letter) and reads them back (a filled PDF's form fields, a photo's marks). This module gives the layouts the
catalog's values, checks that the castle they draw (4 floors, 4 towers, 4 walls) is the catalog's, and maps the
fields (`towers[1]`, `walls[0].flags[1]`, `guests`...) to the end state: built towers, walls and flags in the
order of their index, skipping the ones not built.

A sheet is drawn in the language of the catalog it is given (`localise`): the layouts' words through donjon's
catalogs, the game's, versions' and guests' names from the catalog, each name donjon translated itself marked †
and said so in the small print. Only words change: the marks, and so the map a photo is read with, are the same
in every language; a photo is compared with the print in the language it shows (`kinds`, `printed_in`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from generator.errors import ContentError, Problem
from generator.games.base import ScoreSheetFile, SheetOptions, scan_what
from generator.catalog.common import HOUSE_MARK
from generator.games.castle.catalog import marked
from generator.i18n import N_, language, messages_language, phrase
from generator.render.imposition import PAPER_NAMES

if TYPE_CHECKING:
    from generator.games.castle.catalog import Castle
    from generator.render.model import Page
    from generator.sheets.draw import DrawnSheet
    from generator.sheets.layout import SheetLayout
    from generator.sheets.marks import MarkMap
    from generator.sheets.read import FilledSheets, SheetKind

GAME = "once-upon-a-castle"
#: The layout of each version's sheet (templates/sheets/).
LAYOUTS = {"great-architect": "castle-great-architect", "apprentice": "castle-apprentice"}
#: The suffix of a scan-ready sheet's map of marks, after the sheet's name.
MARKS_SUFFIX = ".marks.json"
#: The words of the sheet's field names (its map's `towers`, `donjon_floors`...), marked for the translators: the
#: companion's photo pages say what was read field by field in the phone's language (generator.sheets.summary).
FIELD_WORDS = (N_("sun"), N_("cloud"), N_("sky clouds"), N_("towers"), N_("walls"), N_("flags"), N_("donjon floors"),
               N_("residents"), N_("guests"))


def file_name(version: str, paper: str, fillable: bool) -> str:
    """`castle-sheet-VERSION-PAPER[-fillable]`, without its suffix."""
    return f"castle-sheet-{version}-{paper}{'-fillable' if fillable else ''}"


def layout(version: str) -> SheetLayout:
    from generator.sheets.layout import load_layout

    return load_layout(LAYOUTS[version])


class Noted(NamedTuple):
    """Values of the catalog as a layout reads them: the values, whether a rulebook states them, how sure."""

    values: tuple[Any, ...]
    inferred: bool
    confidence: str


def _noted(items: Sequence[Any], provenance: Any, name: str) -> Noted:
    found = provenance.of(name)
    return Noted(tuple(items), found is not None, found.confidence if found is not None else "H")


def version_name(castle: Castle, version: str) -> str:
    """A version's name as the sheet prints it: the catalog's, marked when donjon translated it."""
    found = next(v for v in castle.versions if v.id == version)
    return marked(found)


def values(castle: Castle) -> dict[str, Any]:
    """What the castle's sheet layouts print from the catalog."""
    sheet = castle.sheet

    scoring: list[dict[str, Any]] = []
    guests = castle.guests_of("great-architect")
    done: set[str] = set()
    for kind in ("bolt", "hourglass", "crown"):
        of_kind = [g for g in guests if g.kind == kind]
        flat = {g.scoring.flat for g in of_kind}
        if of_kind and len(flat) == 1 and None not in flat:
            done.update(g.id for g in of_kind)
            scoring.append({"kind": kind, "whole": True, "flat": flat.pop(), "name": "", "per": None})
    scoring += [{"kind": g.kind, "whole": False, "flat": g.scoring.flat, "name": g.name, "per": g.scoring.per}
                for g in guests if g.id not in done]
    span = sheet.apprentice_guest_vp
    return {
        "sun_points": sheet.sun_points, "cloud_points": sheet.cloud_points,
        "sky_cloud_points": sheet.sky_cloud_points, "towers": sheet.towers, "parts": sheet.parts,
        "floors": sheet.donjon_floors,
        "tower_values": _noted(sheet.tower_values.values, sheet.tower_values.provenance, "values"),
        "flag_values": _noted(sheet.flag_values.values, sheet.flag_values.provenance, "values"),
        "resident_track": _noted(sheet.resident_track.groups, sheet.resident_track.provenance, "groups"),
        "guest_vp": list(range(span.min, span.max + 1)), "guest_vp_note": _noted((), span.provenance, "min"),
        "guests": [{"id": g.id, "name": g.name, "kind": g.kind, "house": g.provenance.by_donjon()} for g in guests],
        "guest_scoring": scoring,
        "game_name": castle.info.name,
    }


def check_counts(castle: Castle, version: str) -> None:
    """The castle a layout draws must be the catalog's: as many floors, towers and walls, and flags on each wall
    as castle-sheet.yaml says (004 The different parts of the Castle; Flags). A corrected count needs a layout
    drawn for it: a ContentError says so."""
    the_layout = layout(version)
    names = [f.name for f in the_layout.fields]
    sheet = castle.sheet
    drawn_towers = sum(1 for n in names if re.fullmatch(r"towers\[\d+\]", n))
    drawn_walls = sum(1 for n in names if re.fullmatch(r"walls\[\d+\]", n))
    drawn_flags = sorted(sum(1 for n in names if n.startswith(f"walls[{i}].flags[")) for i in range(drawn_walls))
    wanted_flags = sorted([2] * sheet.walls_with_two_flags + [1] * sheet.walls_with_one_flag)
    problems = []
    for what, drawn, wanted in (("towers", drawn_towers, sheet.towers), ("walls", drawn_walls, sheet.walls),
                                ("flags on its walls", drawn_flags, wanted_flags)):
        if drawn != wanted:
            problems.append(Problem("castle-sheet.yaml", None, "sheet",
                                    f"the castle has {wanted} {what}, but the sheet layout {the_layout.file} "
                                    f"draws {drawn}: a sheet layout drawn for this castle is needed"))
    if problems:
        raise ContentError(problems)


@cache
def _drawn(castle: Castle, version: str, paper: str, variant: str) -> DrawnSheet:
    from generator.sheets.draw import draw_sheet

    check_counts(castle, version)
    given = values(castle)
    name = version_name(castle, version)
    # the Great Architect sheet prints the guests' names too
    translated = name.endswith(HOUSE_MARK) or (version == "great-architect" and any(g["house"] for g in given["guests"]))
    given.update(version_name=name, translated_by_donjon=translated)
    return draw_sheet(layout(version), variant, paper, given, file_name(version, paper, False), name,
                      language(castle.info.lang))


def drawn(castle: Castle, version: str, paper: str, variant: str) -> DrawnSheet:
    """A castle sheet drawn: `scan` (to print), `fillable` or `print`."""
    return _drawn(castle, version, paper, variant)


def score_sheets(castle: Castle) -> list[ScoreSheetFile]:
    """Every castle score sheet, each drawn only when its page is asked for: for each version and paper, the
    scan-ready sheet to print with its map of marks beside it (`docs/castle-marks.md`), so that a photo of it is
    scored by `donjon score PHOTO`, and the fillable sheet.

    Both papers are always made, whatever `--paper` says: a score sheet is one page, not a sheet of cards, and
    players on either side of the Atlantic share the output folder."""
    from functools import partial

    lang = language(castle.info.lang)
    found: list[ScoreSheetFile] = []
    for version in castle.versions:
        for paper in ("a4", "letter"):
            # what the build's report says is in the language of its messages (English, `build --lang fr`: French);
            # the PDF's metadata is in the sheet's language
            named = (layout(version.id).values.get("version_name", version.id) if messages_language() is None
                     else version_name(castle, version.id))
            what = phrase("castle score sheet, {version}, {paper}", version=named, paper=phrase(PAPER_NAMES[paper]))
            title = lang._("{game}: score sheet, {version} version").format(
                game=castle.info.name, version=version_name(castle, version.id))
            paper_name = lang._(PAPER_NAMES[paper])
            scan_ready, fillable = lang._("scan-ready"), lang._("fillable")
            found.append(ScoreSheetFile(
                file_name(version.id, paper, False), f"{title} ({paper_name}, {scan_ready})",
                lang._("a castle score sheet by donjon; fill its marks and score a photo of it with `donjon score`"),
                scan_what(what), partial(_page, castle, version.id, paper, "scan"),
                ((MARKS_SUFFIX, phrase("{what}: its map of marks", what=what),
                  partial(_map_json, castle, version.id, paper)),),
                lang.code, svg=True))
            found.append(ScoreSheetFile(
                file_name(version.id, paper, True), f"{title} ({paper_name}, {fillable})",
                lang._("a castle score sheet by donjon; score it filled in with `donjon score`"),
                phrase("{what}, fillable", what=what), partial(_page, castle, version.id, paper, "fillable"),
                lang=lang.code))
    return found


def _page(castle: Castle, version: str, paper: str, variant: str) -> Page:
    return drawn(castle, version, paper, variant).page()


def _map_json(castle: Castle, version: str, paper: str) -> bytes:
    return mark_map(castle, version, paper).to_json()


def kinds(castle: Castle) -> list[SheetKind]:
    """The castle's sheets a filled sheet or a photo may be: one per version."""
    from generator.catalog.translations import localise
    from generator.i18n import INTERFACE
    from generator.sheets.read import SheetKind

    def drawer(version: str, catalog: Castle = castle) -> Callable[[str, str], DrawnSheet]:
        return lambda variant, paper: drawn(catalog, version, paper, variant)

    def printed_in(version: str) -> Callable[[], list[tuple[str, Callable[[str, str], DrawnSheet]]]]:
        # `donjon build --lang` prints the sheet in any language donjon speaks, its marks where they are in English
        # (castle-marks.md): a photo of the French sheet is compared with the French print, not with the words of
        # the catalog it is scored with (seed 37, 10 photos of each of five families printed in French and read
        # against the English print: 34 of 50 read without a question; 40 of the same photos printed in English)
        return lambda: [(code, drawer(version, localise(castle, code))) for code in INTERFACE
                        if code != castle.info.lang]

    named = guest_names(castle)

    def names(version: str) -> Callable[[str], Mapping[str, str]]:
        # a Great Architect guest typed by any of its names (`--set guests=Königin,Narr`, a check page's box) is its
        # id, as a YAML file's is; the Apprentice's guests are the VP printed on their cards
        return lambda field: named if version == "great-architect" and field == "guests" else {}

    return [SheetKind(layout(version), drawer(version), "castle-sheet-VERSION-PAPER.pdf", names(version),
                      printed_in=printed_in(version), lang=castle.info.lang) for version in LAYOUTS]


def guest_names(castle: Castle) -> dict[str, str]:
    """Folded name -> id, for every name of every Great Architect guest: its id, its name in each language the
    catalog gives, its aliases (what the end state takes, `scoring.formats.aliases_of`)."""
    from scoring.formats import aliases_of

    great = castle.guests_of("great-architect")
    return {**aliases_of(great), **{g.id: g.id for g in great}}


def typed_language(castle: Castle, confirmed: Sequence[tuple[str, str]], sheet_lang: str | None = None
                   ) -> dict[str, dict[str, str]]:
    """The guests' names (field -> id -> name) in the language the guests given with `--set` are typed in, when it
    is not English: a value refused is answered with the names the player types (`Königin`), not the ids. Empty
    when no guest is named in another language. The language is told by :func:`generator.fields.vote_language`,
    as a YAML file's is: a tie (`Prince`, English and French alike) goes to `sheet_lang`, the language the sheet is
    printed in (by default the catalog's, that of the sheets `donjon build` prints from it), then English."""
    import difflib

    from generator.fields import NAME_CUTOFF, name_languages, normalise_name, vote_language
    from scoring.formats import aliases_of, spellings_of

    great = castle.guests_of("great-architect")
    spelled = spellings_of(great, castle.info.lang)
    languages = name_languages(spelled, aliases_of(great))  # folded name -> the languages that spell a guest so
    typed: list[tuple[str, ...]] = []
    for key, value in confirmed:
        if key.rsplit(":", 1)[-1].rsplit(".", 1)[-1].startswith("guests"):
            for part in value.split(","):
                # a name as typed, else the one it is closest to (as the end state suggests one: `Prinzesin`)
                close = difflib.get_close_matches(normalise_name(part), list(languages), n=1, cutoff=NAME_CUTOFF)
                if close:
                    typed.append(languages[close[0]])
    code = vote_language(typed, sheet_lang or castle.info.lang) or "en"
    return {"guests": spelled[code]} if code != "en" else {}


# --- filled sheets as the end state ---------------------------------------------------------------------------------

def end_state_sheet(read: Mapping[str, Any], where: Mapping[str, tuple[str, ...]]
                    ) -> tuple[dict[str, Any], dict[str, tuple[str, ...]]]:
    """One sheet of the castle end state from the value of each field, and the field(s) each place of it came from
    (as messages name them: a form field's name for a filled PDF, the map's field for a photo).

    Built towers, walls and flags are listed in the order of their index, skipping the ones not built; a wall is
    built when its mark is; the Apprentice's guests are the VP of the floors that hold one."""
    def indexed(prefix: str) -> list[int]:
        found = set()
        for name in read:
            matched = re.fullmatch(re.escape(prefix) + r"\[(\d+)\]", name)
            if matched:
                found.add(int(matched.group(1)))
        return sorted(found)

    def at(name: str) -> tuple[str, ...]:
        return where.get(name, (name,))

    origin: dict[str, tuple[str, ...]] = {"": ()}
    data: dict[str, Any] = {"donjon_floors": read.get("donjon_floors") or 0}
    origin["donjon_floors"] = at("donjon_floors")
    towers = [i for i in indexed("towers") if read.get(f"towers[{i}]") is not None]
    data["towers"] = [read[f"towers[{i}]"] for i in towers]
    origin["towers"] = tuple(n for i in indexed("towers") for n in at(f"towers[{i}]"))
    for position, i in enumerate(towers):
        origin[f"towers[{position}]"] = at(f"towers[{i}]")
    walls: list[dict[str, Any]] = []
    origin["walls"] = tuple(n for i in indexed("walls") for n in at(f"walls[{i}]"))
    for i in indexed("walls"):
        if read.get(f"walls[{i}]") is not True:
            continue
        flags = sorted((n for n in read if n.startswith(f"walls[{i}].flags[")),
                       key=lambda n: int(n[n.rindex("[") + 1:-1]))
        held = [n for n in flags if read.get(n) is not None]
        position = len(walls)
        walls.append({"flags": [read[n] for n in held]})
        origin[f"walls[{position}]"] = origin[f"walls[{position}].flags"] = at(f"walls[{i}]")
        for flag, name in enumerate(held):
            origin[f"walls[{position}].flags[{flag}]"] = at(name)
    data["walls"] = walls
    for name in ("sun", "cloud"):
        if name in read:
            data[name] = read[name] is True
            origin[name] = at(name)
    if "sky_clouds" in read:
        data["sky_clouds"] = read.get("sky_clouds") or 0
        origin["sky_clouds"] = at("sky_clouds")
    data["residents"] = read.get("residents") or 0
    origin["residents"] = at("residents")
    if "guests" in read:
        guests = list(read.get("guests") or [])
        data["guests"] = guests
        origin["guests"] = at("guests")
        for position in range(len(guests)):
            origin[f"guests[{position}]"] = where.get(f"guests[{position}]", at("guests"))
    else:
        floors = [i for i in indexed("guests") if read.get(f"guests[{i}]") is not None]
        data["guests"] = [read[f"guests[{i}]"] for i in floors]
        origin["guests"] = tuple(n for i in indexed("guests") for n in at(f"guests[{i}]"))
        for position, i in enumerate(floors):
            origin[f"guests[{position}]"] = at(f"guests[{i}]")
    return data, origin


def read_sheets(files: Sequence[tuple[bytes, str]], castle: Castle, options: SheetOptions | None = None
                ) -> FilledSheets:
    """Filled castle sheets (fillable PDFs, photos or PDF scans of scan-ready sheets) as the end state of one game."""
    from generator.sheets.read import read_filled

    def document(sheets: Sequence[Any]) -> dict[str, Any]:
        return {"game": GAME, "version": sheets[0].identity, "sheets": [s.data for s in sheets]}

    from scoring.formats import spellings_of

    options = options or SheetOptions()
    spelled = spellings_of(castle.guests_of("great-architect"), castle.info.lang)
    # an uncertain guest is said as the sheet photographed prints it (the mark of König), and a guest refused as the
    # player typed it
    return read_filled(files, kinds(castle), options, end_state_sheet, document,
                       names=typed_language(castle, options.confirmed) or None,
                       names_in=lambda code: {"guests": spelled.get(code, {})},
                       identity_names=lambda code: version_names(castle, code))


def version_names(castle: Castle, code: str | None) -> dict[str, str]:
    """Version id -> its name in the language `code` (the catalog's own when None), as a sheet printed in it says
    it: `Petits Bâtisseurs` for the French Apprentice sheet."""
    from generator.catalog.translations import localise

    versions = castle.versions if code is None or code == castle.info.lang else localise(castle.versions, code)
    return {v.id: v.name for v in versions}


def mark_map(castle: Castle, version: str, paper: str) -> MarkMap:
    """The map of marks of the scan-ready sheet of `version` on `paper`."""
    found = drawn(castle, version, paper, "scan").map
    assert found is not None
    return found
