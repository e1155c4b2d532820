"""A sheet of one's own (content/examples/sheets/lantern-harbour): built like a deck of one's own, filled in a PDF
and on paper (pencil marks drawn on its render, photographed at angles as the photo benchmark does), read back,
and scored by its own rules; a YAML end state of it scored too; mistakes in its files named."""

from __future__ import annotations

import importlib
import json
import random
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.sheets.helpers import REPO, fill

if TYPE_CHECKING:
    from typer.testing import Result

EXAMPLES = REPO / "content" / "examples" / "sheets"
SHEET = EXAMPLES / "lantern-harbour"
ID = "lantern-harbour"
#: Ana's game: every kind of field with a value (the guild a choice, the boats a count of bubbles, the fish a
#: number in digits, the storm a yes-no, the villagers a track, the goods a list)
ANA = {"guild": "sailors", "boats": 3, "fish": 14, "storm": True, "villagers": 7, "goods": ["salt", "amber"]}
#: villagers 7 (the 7-9 group: 6) + 14 fish + 3 boats x 3 + 2 goods x 2 - 5 for the storm
ANA_SCORE = 6 + 14 + 9 + 4 - 5
BEN = {"guild": "fishers", "boats": 1, "fish": 3, "storm": False, "villagers": 11, "goods": ["tea"]}
BEN_SCORE = 10 + 3 + 3 + 2


def run(*args: str) -> Result:
    from typer.testing import CliRunner

    from generator.cli import app

    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The example sheet as `donjon build --content` writes it (the sheet is a game while its folder is loaded: it
    is taken out of the registry afterwards)."""
    from generator.registry import unregister

    out = tmp_path_factory.mktemp("built")
    try:
        result = run("build", "--content", str(EXAMPLES), "--out", str(out))  # as its README says
        assert result.exit_code == 0, result.output
        yield out
    finally:
        unregister(ID)


def test_the_sheet_builds_like_a_deck_of_ones_own(built: Path) -> None:
    folder = built / "score-sheets" / ID
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"{ID}-{paper}{end}" for paper in ("a4", "letter") for end in (".pdf", ".svg", "-fillable.pdf",
                                                                       ".marks.json"))
    assert not (built / "references").exists(), "a sheet has no cards: no card reference"
    data = json.loads((folder / f"{ID}-a4.marks.json").read_text(encoding="utf-8"))
    assert (data["version"], data["paper"]) == (ID, "a4")
    shapes = {(m["field"], m["shape"], "digit" in m) for m in data["marks"]}
    # every kind of mark: bubbles of a choice and of a count, digits, a yes-no, figures of a track, items
    assert {("guild", "circle", False), ("boats", "circle", False), ("fish", "circle", True),
            ("storm", "circle", False), ("villagers", "figure", False), ("goods", "circle", False)} == shapes
    assert [w["field"] for w in data["write_in"]] == ["player"]
    assert [m["id"] for m in data["markers"]] == [32, 33, 34, 35]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_sheets_svg_looks_as_its_pdf_prints(built: Path, paper: str) -> None:
    """The sheet to print is written as an SVG too (a designer's vector file, for an editor or a print shop that
    takes SVG): rendered by librsvg it is the page pdftoppm renders of the PDF, markers, bubbles, words and page
    line, within anti-aliasing (the build wrote no SVG of a sheet before)."""
    import subprocess

    import numpy as np
    from PIL import Image

    if shutil.which("rsvg-convert") is None or shutil.which("pdftoppm") is None:
        pytest.skip("needs rsvg-convert and pdftoppm")
    folder = built / "score-sheets" / ID
    svg, pdf = folder / f"{ID}-{paper}.svg", folder / f"{ID}-{paper}.pdf"
    drawn = subprocess.run(["rsvg-convert", "-d", "72", "-p", "72", "-b", "white", str(svg)], capture_output=True,
                           check=True).stdout
    printed = subprocess.run(["pdftoppm", "-r", "72", "-png", "-singlefile", str(pdf)], capture_output=True,
                             check=True).stdout
    import io

    a = np.asarray(Image.open(io.BytesIO(drawn)).convert("L"), dtype=np.int16)
    b = np.asarray(Image.open(io.BytesIO(printed)).convert("L"), dtype=np.int16)
    assert a.shape == b.shape  # the page's size, to the point
    differ = np.abs(a - b) > 96
    # edges anti-aliased differently by the two renderers: measured 0.2 % of the pixels at 100 dpi
    assert differ.mean() < 0.01, f"{differ.mean():.2%} of the pixels differ"
    # and the page is no blank: the markers' black squares are there in both
    assert (a < 64).mean() > 0.005 and (b < 64).mean() > 0.005


def fillable(built: Path, folder: Path, name: str, values: dict[str, Any], player: str) -> Path:
    """The fillable sheet filled with pypdf, as a viewer saves it."""
    typed: dict[str, str | int | bool] = {"player": player, "guild": values["guild"].capitalize(),
                                          "fish": str(values["fish"]), "villagers": str(values["villagers"]),
                                          "storm": values["storm"], "total": "99"}
    typed.update({f"boat_{n}": True for n in range(1, values["boats"] + 1)})
    typed.update({f"good_{n}": good for n, good in enumerate(values["goods"], start=1)})
    return fill(built / "score-sheets" / ID / f"{ID}-a4-fillable.pdf", folder / name, typed)


def test_filled_pdfs_are_read_and_scored(built: Path, tmp_path: Path) -> None:
    ana = fillable(built, tmp_path, "ana.pdf", ANA, "Ana")
    ben = fillable(built, tmp_path, "ben.pdf", BEN, "Ben")
    result = run("score", str(ben), str(ana), "--sheet", str(SHEET), "--json")
    assert result.exit_code == 0, result.output
    scored = json.loads(result.stdout)
    assert scored["game"] == ID and scored["valid"] and scored["winner"] == "Ana"
    players = {p["name"]: p for p in scored["players"]}
    assert players["Ana"]["values"] == ANA and players["Ben"]["values"] == BEN
    assert players["Ana"]["breakdown"] == {"villagers": 6, "fish": 14, "boats": 9, "goods": 4, "storm": -5}
    assert (players["Ana"]["score"], players["Ana"]["place"]) == (ANA_SCORE, 1)
    assert (players["Ben"]["score"], players["Ben"]["place"]) == (BEN_SCORE, 2)
    table = run("score", str(ana), "--sheet", str(SHEET)).stdout
    assert f"winner: Ana, with {ANA_SCORE} points" in table
    # the goods by the names the layout gives them, as on the sheet (the JSON above keeps the ids)
    assert "  goods      Salt and Amber" in table and "  storm                 yes" in table


@pytest.fixture(scope="module")
def rendered(built: Path) -> Any:
    """The scan-ready sheet (A4) rasterised at the photo benchmark's 300 dpi, and its map."""
    pytest.importorskip("numpy")
    from generator.sheets.marks import MarkMap
    from generator.pdfium_lock import page_grey

    pdf = built / "score-sheets" / ID / f"{ID}-a4.pdf"
    grey = page_grey(pdf, scale=300 / 72)
    from generator.games.sheet_game import SheetGame
    from generator.sheets.own import load_sheet

    sheet, problems = load_sheet(SHEET, EXAMPLES)
    assert sheet is not None, problems
    the_map = SheetGame(sheet).drawn("scan", "a4").map
    assert isinstance(the_map, MarkMap)
    assert json.loads(the_map.to_json()) == json.loads((pdf.with_suffix(".marks.json")).read_text(encoding="utf-8"))
    return the_map, grey


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "asked"), [
    (3, None),
    (8, None),
    # the boats' 1 filled at 0.49 of the sheet's other fills: as dark as a fill rubbed out badly can be
    # (photo_marks.FILL_FAINT), so asked about, never decided; confirmed, the game is scored
    (21, "boats"),
])
def test_photos_of_pencil_marks_at_any_angle_are_read_and_scored(rendered: Any, tmp_path: Path, seed: int,
                                                                 asked: str | None) -> None:
    """Marks filled with a pencil (full, partial, a tick, a cross) on the sheet, photographed as the benchmark
    photographs (a turn of any angle, a tilt, a curl, uneven light, noise, JPEG), then scored from the photo: read
    without a question, or with one about a fill as light as a rubbed-out one, which `--set` settles."""
    pytest.importorskip("cv2")
    sys.path.insert(0, str(REPO / "benchmarks"))
    bench: Any = importlib.import_module("scan_photos")
    from tests.scan.helpers import marks_for

    the_map, grey = rendered
    rng = random.Random(seed)
    image = grey.copy()
    for mark, filled in zip(the_map.marks, marks_for(the_map, ANA), strict=True):
        if filled:
            bench.fill(image, mark, rng)
    data, meta = bench.photograph(image, rng, 3)
    photo = tmp_path / "ana.jpg"
    photo.write_bytes(data)
    result = run("score", str(photo), "--sheet", str(SHEET), "--names", "Ana", "--json")
    if asked is not None:
        assert result.exit_code == 1, (meta, result.output)
        questions = json.loads(result.stdout)["uncertain"]
        assert [(q["field"], q["reason"]) for q in questions] == [(asked, "ghost")], meta
        result = run("score", str(photo), "--sheet", str(SHEET), "--names", "Ana", "--json",
                     "--set", f"{asked}={ANA[asked]}")
    assert result.exit_code == 0, (meta, result.output)
    scored = json.loads(result.stdout)
    assert scored["uncertain"] == [], meta
    assert scored["players"][0]["values"] == ANA and scored["players"][0]["score"] == ANA_SCORE


def test_a_yaml_end_state_of_the_sheet_is_scored(built: Path, tmp_path: Path) -> None:
    game = tmp_path / "game.yaml"
    game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, fish: 14, boats: 3, villagers: 7, storm: true, "
                    "goods: [salt, Amber], guild: Sailors}\n  - {player: Ben, fish: 2}\n", encoding="utf-8")
    result = run("score", str(game), "--content", str(EXAMPLES), "--json")
    assert result.exit_code == 0, result.output
    players = {p["name"]: p["score"] for p in json.loads(result.stdout)["players"]}
    assert players == {"Ana": ANA_SCORE, "Ben": 2}
    too_many = tmp_path / "seven.yaml"
    too_many.write_text(f"game: {ID}\nsheets:\n" + "".join(f"  - {{player: P{n}}}\n" for n in range(7)),
                        encoding="utf-8")
    refused = run("score", str(too_many), "--content", str(EXAMPLES))
    assert refused.exit_code == 1 and "holds 7 sheets; Lantern Harbour is for 1 to 6 players" in refused.stdout
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, goods: [silver]}}\n", encoding="utf-8")
    bad = run("score", str(unknown), "--content", str(EXAMPLES))
    assert bad.exit_code == 2 and "unknown goods item 'silver'" in bad.stderr


@pytest.fixture
def copy(tmp_path: Path) -> Iterator[Path]:
    from generator.registry import unregister

    folder = tmp_path / "my-sheet"
    shutil.copytree(SHEET, folder)
    yield folder
    unregister(ID)


def test_mistakes_in_a_sheet_are_named_with_file_and_line(copy: Path, tmp_path: Path) -> None:
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("count: fish,", "count: fishes,"), encoding="utf-8")
    result = run("build", "--content", str(copy), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "sheet.yaml:16: scoring[1]: names the field 'fishes', which the layout" in result.stderr
    layout = copy / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("kind: digits, field: fish,", "kind: digits, "
                                                                                               "field: fsh,"),
                      encoding="utf-8")
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("count: fishes,", "count: fish,"), encoding="utf-8")
    drawn = run("build", "--content", str(copy), "--out", str(tmp_path / "out"))
    assert drawn.exit_code == 1
    assert "layout.yaml:" in drawn.stderr and "parts.fish.parts.digits: marks the field 'fsh', which the layout " \
                                              "does not declare" in drawn.stderr


def test_the_sheet_option_names_a_folder_or_an_id(built: Path, tmp_path: Path) -> None:
    ana = fillable(built, tmp_path, "ana.pdf", ANA, "Ana")
    by_id = run("score", str(ana), "--sheet", ID, "--content", str(EXAMPLES))
    assert by_id.exit_code == 0, by_id.output
    nowhere = run("score", str(ana), "--sheet", "no-such-sheet")
    assert nowhere.exit_code == 2 and "--sheet no-such-sheet: is neither a folder with a sheet.yaml" in nowhere.stderr
    other = run("score", str(ana), "--sheet", "dragons", "--content", str(EXAMPLES))
    assert other.exit_code == 2 and "is no sheet of" in other.stderr


def test_a_build_of_sheets_alone_says_what_it_wrote(copy: Path, tmp_path: Path) -> None:
    """A folder holding a sheet and no deck: the build's last line counts its files and pages, not "0 decks: 0
    cards ... (0 cards/s)"."""
    result = run("build", "--content", str(copy), "--out", str(tmp_path / "out"), "--format", "pdf")
    assert result.exit_code == 0, result.output
    last = result.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"Built no deck: 6 files \(4 pages\) in \d+\.\d\d s\.", last), last


def test_a_build_in_svg_alone_writes_the_sheets_to_print_as_svg(copy: Path, tmp_path: Path) -> None:
    """`--format svg` on a folder holding a sheet writes each sheet to print as an SVG with its map of marks (the same
    bytes a `pdf,svg` build writes), and says, naming the sheet.yaml, that the fillable sheets are PDF only. It
    wrote nothing at all ("Built no deck: 0 files", then a warning to add pdf): a designer asking for SVGs got
    none."""
    out = tmp_path / "out"
    result = run("build", "--content", str(copy), "--out", str(out), "--format", "svg")
    assert result.exit_code == 0, result.output
    assert f"warning: {copy.name}/sheet.yaml: its fillable score sheets are written only when --format holds pdf " \
           "(the sheets to print are written as SVGs): --format svg writes none (add pdf: --format pdf,svg)" in \
           result.stderr.replace(str(copy.parent) + "/", ""), result.stderr
    folder = out / "score-sheets" / ID
    names = sorted(p.name for p in out.rglob("*.*"))
    assert names == sorted(f"{ID}-{paper}{suffix}" for paper in ("a4", "letter") for suffix in (".svg", ".marks.json"))
    assert re.search(r"Built no deck: 4 files \(0 pages\)", result.stdout), result.stdout
    alone = {name: (folder / name).read_bytes() for name in names}
    both = run("build", "--content", str(copy), "--out", str(tmp_path / "both"), "--format", "pdf,svg")
    assert both.exit_code == 0 and "warning" not in both.stderr, both.stderr
    assert all((tmp_path / "both" / "score-sheets" / ID / name).read_bytes() == data for name, data in alone.items())


def test_a_printers_scale_moves_the_sheets_pdf_and_leaves_its_svg_as_designed(copy: Path, tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch
                                                                                ) -> None:
    """`--printer` scales the score sheets' PDFs (what is printed on that printer); the SVG beside each is the page
    as designed, the same bytes as without it (an editor's or a print shop's file), as the `--printer` help and
    docs/printing.md say."""
    monkeypatch.setenv("DONJON_PRINTERS", str(tmp_path / "printers.json"))
    assert run("printer", "add", "laser", "--scale", "1.01,0.99").exit_code == 0
    built = {}
    for name, more in (("plain", ()), ("laser", ("--printer", "laser"))):
        done = run("build", "--content", str(copy), "--out", str(tmp_path / name), *more)
        assert done.exit_code == 0, done.output
        folder = tmp_path / name / "score-sheets" / ID
        built[name] = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert built["plain"].keys() == built["laser"].keys()
    assert built["plain"][f"{ID}-a4.svg"] == built["laser"][f"{ID}-a4.svg"]
    assert built["plain"][f"{ID}-a4.pdf"] != built["laser"][f"{ID}-a4.pdf"]
    assert "(a score sheet's SVG stays as designed: print the PDF on that printer)" in \
        " ".join(run("build", "--help").stdout.split())


def test_the_layout_the_format_shows_passes_content_check(tmp_path: Path) -> None:
    """The layout templates/sheets/README.md shows under "A layout", copied as it is with a sheet.yaml naming it,
    passes `donjon content check`: it marked neither the player's name on screen nor the goods anywhere, and a
    designer starting from it was refused three times."""
    from generator.registry import unregister

    readme = (REPO / "templates" / "sheets" / "README.md").read_text(encoding="utf-8")
    shown = readme.split("## A layout", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    folder = tmp_path / "shown"
    folder.mkdir()
    (folder / "layout.yaml").write_text(shown, encoding="utf-8")
    (folder / "sheet.yaml").write_text("id: shown\nname: Shown\nlayout: layout.yaml\nplayers: {min: 1, max: 4}\n",
                                       encoding="utf-8")
    try:
        result = run("content", "check", str(folder))
    finally:
        unregister("shown")
    assert result.exit_code == 0, result.output


def test_two_scoring_categories_of_one_name_are_refused(copy: Path) -> None:
    """Each category is a row of the score table: a second `storm` (the goods renamed by mistake) would hide one
    row while the total still counts both (the sheet was scored, its table's rows not adding up to the total)."""
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("{name: goods, count: goods,",
                                                               "{name: storm, count: goods,"), encoding="utf-8")
    result = run("content", "check", str(copy))
    assert result.exit_code == 1, result.output
    assert "sheet.yaml:19: scoring[4].name: 'storm' is the name of scoring[3] too; each category is a row of the " \
           "score table and needs a name of its own" in result.output, result.output


@pytest.mark.parametrize(("layout", "said"), [
    ("layuot.yaml", "'layuot.yaml': there is no such file in"),
    ("../lantern.yaml", "'../lantern.yaml' is outside the content folder"),
])
def test_a_layout_that_is_not_there_is_named_at_its_line(copy: Path, layout: str, said: str) -> None:
    """A `layout:` naming a file that is not there (a typo) or outside the folder: the sheet.yaml's line says so
    (the message named the folder alone)."""
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("layout: layout.yaml", f"layout: {layout}"),
                     encoding="utf-8")
    result = run("content", "check", str(copy))
    assert result.exit_code == 1, result.output
    assert f"sheet.yaml:5: layout: {said}" in result.output, result.output


#: Mistakes a designer makes placing marks, each a change to the example's layout.yaml and what `content check`
#: must say (exit 1), naming the file, the line and the part or field (each piece of the message in turn): a sheet
#: built with them prints marks that a photo cannot read, or reads as another field's (nothing was said before: the
#: sheet built).
PLACING: dict[str, tuple[str, ...]] = {
    # the storm's bubble taken out: the scan-ready sheet has nothing for it, a photo always reads "no storm"
    "no-mark": ("      mark: {kind: bubble, field: storm, x: 4mm, y: 10mm}\n", "",
                "layout.yaml:60: fields.storm: the scan-ready sheet has no mark for it"),
    # its tick box taken out: the fillable sheet has nothing for it, a filled PDF always reads "no storm"
    "no-entry": ("      tick: {kind: entry, field: storm, tooltip: tick if the storm struck your harbour, x: 4mm, "
                 "y: 10mm, width: 4.6mm, height: 4.6mm, paint: tick}\n", "",
                 "layout.yaml:60: fields.storm: the fillable sheet has no box for it"),
    # the storm's bubble moved over the first boat's: one pencil mark would read as both
    "overlap": ("mark: {kind: bubble, field: storm, x: 4mm, y: 10mm}", "mark: {kind: bubble, field: storm, x: 6mm, "
                "y: -18mm}", "layout.yaml:146: parts.storm.parts.mark: its mark storm = True overlaps the mark "
                "boats = 1 (", "layout.yaml:70: components.boat.parts.mark)"),
    # the storm's bubble moved into the top-left marker's corner
    "corner": ("mark: {kind: bubble, field: storm, x: 4mm, y: 10mm}", "mark: {kind: bubble, field: storm, "
               "x: -96mm, y: -67mm}", "layout.yaml:146: parts.storm.parts.mark: its mark storm = True is in the "
               "corner kept for a marker"),
    # the villagers' panel moved below the page (a sheet too long for its paper)
    "off-the-page": ("    y: 103mm\n", "    y: 300mm\n",
                     "layout.yaml:160: parts.villagers.parts.panel: it reaches from 10.0, 310.0 mm to 200.0, 340.0 mm",
                     "off the A4 page (210.0 x 297.0 mm)"),
    # the guilds in a row with their names above: each name is wider than the room between two bubbles
    "labels": ("values: [fishers, sailors, merchants], direction: column, labels: beside",
               "values: [fishers, sailors, merchants], direction: row, labels: above",
               "layout.yaml:107: parts.guild.parts.marks: its labels 'fishers' and 'sailors' overlap: the bubbles "
               "are 6.1 mm apart"),
    # the guilds in a row with their names beside: each name runs over the next bubble
    "labels-beside-a-row": ("values: [fishers, sailors, merchants], direction: column, labels: beside",
                            "values: [fishers, sailors, merchants], direction: row, labels: beside",
                            "layout.yaml:107: parts.guild.parts.marks: its label 'fishers' runs into the next bubble"),
    # the guilds in a column with their names above: each name is drawn over the bubble above it
    "labels-above-a-column": ("values: [fishers, sailors, merchants], direction: column, labels: beside",
                              "values: [fishers, sailors, merchants], direction: column, labels: above",
                              "layout.yaml:107: parts.guild.parts.marks: its label 'sailors' runs into the bubble "
                              "above it"),
    # bubbles of 2 mm: synthetic photos read a third of 1.5 mm ones wrongly; nothing said so before the photo
    "bubbles-too-small": ("  markers: {a4: 8, letter: 9}\n", "  markers: {a4: 8, letter: 9}\n  bubble: 2mm\n",
                          "layout.yaml:16: scan.bubble: '2mm' is smaller than 3mm: a photo would not tell"),
    # corner markers of 3 mm: half the photos found none (the player then told to frame the sheet better)
    "markers-too-small": ("  markers: {a4: 8, letter: 9}\n", "  markers: {a4: 8, letter: 9}\n  marker: 3mm\n",
                          "layout.yaml:16: scan.marker: '3mm' is smaller than 8mm: a photo would not find"),
    # a bubble of no size at all was drawn as nothing, and every field was unmarked on paper
    "no-bubble": ("  markers: {a4: 8, letter: 9}\n", "  markers: {a4: 8, letter: 9}\n  bubble: 0\n",
                  "layout.yaml:16: scan.bubble: 0 is smaller than 3mm"),
}


@pytest.mark.parametrize("case", sorted(PLACING))
def test_marks_a_photo_cannot_read_are_refused_by_file_line_and_part(copy: Path, case: str) -> None:
    old, new, *said = PLACING[case]
    layout = copy / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    layout.write_text(text.replace(old, new), encoding="utf-8")
    result = run("content", "check", str(copy))
    assert result.exit_code == 1, result.output
    assert all(piece in result.output for piece in said), result.output
    assert "Traceback" not in result.output


def test_two_boxes_over_one_place_are_refused_by_file_line_and_part(copy: Path) -> None:
    """The fish's box moved up over the guild's on the fillable sheet: a click there fills one or the other, and
    the player cannot tell which. It passed content check and built; it is refused, both parts named."""
    layout = copy / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    old = "count: {kind: entry, field: fish, tooltip: how many fish you caught, x: 4mm, y: 12mm,"
    assert text.count(old) == 1
    layout.write_text(text.replace(old, old.replace("y: 12mm", "y: -22mm")), encoding="utf-8")
    result = run("content", "check", str(copy))
    assert result.exit_code == 1, result.output
    assert "layout.yaml:134: parts.fish.parts.count: its box 'fish' overlaps the box 'guild' (" in result.output
    assert "layout.yaml:108: parts.guild.parts.choice): a click there would fill one or the other" in result.output
    assert "Traceback" not in result.output


#: Labels of some of Lantern Harbour's fields, in English and in French (the villagers have none: their id is shown)
LABELS = """
labels: {boats: Boats launched, storm: Struck by the storm, goods: Goods traded}
languages:
  fr:
    labels: {boats: Bateaux lancés, storm: Frappé par la tempête}
"""


def test_labels_of_fields_are_shown_under_the_score_table(copy: Path, tmp_path: Path) -> None:
    """`labels:` in sheet.yaml names the fields under `donjon score`'s table ("Boats launched", not "boats"); a
    field without one keeps its id, and the JSON keeps every id (they are the end state's keys)."""
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8") + LABELS, encoding="utf-8")
    game = tmp_path / "game.yaml"
    game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, fish: 14, boats: 3, villagers: 7, storm: true, "
                    "goods: [salt, amber], guild: sailors}\n", encoding="utf-8")
    table = run("score", str(game), "--content", str(copy))
    assert table.exit_code == 0, table.output
    # the values read, under the table's second rule (the points above keep their categories' names)
    values = table.stdout.split("\n  ---")[2].splitlines()[1:]
    rows = dict(re.split(r"\s{2,}", line.strip()) for line in values if line.startswith("  "))
    assert rows == {"guild": "sailors", "Boats launched": "3", "fish": "14", "Struck by the storm": "yes",
                    "villagers": "7", "Goods traded": "Salt and Amber"}, table.stdout
    as_json = run("score", str(game), "--content", str(copy), "--json")
    assert set(json.loads(as_json.stdout)["players"][0]["values"]) == set(ANA)


#: The names of some of Lantern Harbour's scoring categories in French (the goods have none: their row keeps its name)
CATEGORIES = """
languages:
  fr:
    categories: {villagers: Villageois, fish: Poissons, boats: Bateaux, storm: Tempête}
"""


def test_the_breakdowns_rows_are_named_in_the_language_the_sheet_gives_them(copy: Path, tmp_path: Path) -> None:
    """`languages: fr: categories:` names the rows of the score's breakdown in French: `donjon score --lang fr`
    shows them (a category it leaves out keeps its own name), the companion is handed them as it is the other labels
    (the result's labels in each language: `result_labels`), and the JSON keeps the categories' own names, which
    are its keys. Before, a sheet's breakdown had no words but its own, whatever the language."""
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8") + CATEGORIES, encoding="utf-8")
    game = tmp_path / "game.yaml"
    game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, fish: 14, boats: 3, villagers: 7, storm: true, "
                    "goods: [salt, amber], guild: sailors}\n", encoding="utf-8")
    french = run("score", str(game), "--content", str(copy), "--lang", "fr")
    assert french.exit_code == 0, french.output
    points = french.stdout.split("\n  ---")[0].splitlines()[2:]
    rows = dict(re.split(r"\s{2,}", line.strip()) for line in points)
    assert rows == {"Villageois": "6", "Poissons": "14", "Bateaux": "9", "Goods": "4", "Tempête": "-5"}, french.stdout
    german = run("score", str(game), "--content", str(copy), "--lang", "de")  # a language it gives none in
    assert "Bateaux" not in german.stdout and "Boats" in german.stdout, german.stdout
    as_json = run("score", str(game), "--content", str(copy), "--lang", "fr", "--json")
    assert list(json.loads(as_json.stdout)["players"][0]["breakdown"]) == ["villagers", "fish", "boats", "goods",
                                                                          "storm"]
    from generator.games.table import result_labels
    from generator.i18n import language
    from generator.sheets.own import load_sheet

    loaded, problems = load_sheet(copy)
    assert loaded is not None and not problems
    from generator.games.sheet_game import SheetGame, catalog_of

    labels = result_labels(SheetGame(loaded).table_hints(), catalog_of(loaded), language("fr"))
    assert (labels["boats"], labels["villagers"]) == ("Bateaux", "Villageois")


@pytest.mark.parametrize("code", ["fr", "de"])
def test_a_category_named_in_a_language_that_scoring_lacks_is_refused_at_its_line(copy: Path, code: str) -> None:
    """A category's name in a language for a category `scoring:` does not have (a typo) is refused at its line, in
    the language `content check --lang` asks for (exit 1)."""
    from generator.i18n import language

    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8") + CATEGORIES.replace("fish:", "fisch:"), encoding="utf-8")
    result = run("content", "check", str(copy), "--lang", code)
    assert result.exit_code == 1, result.output
    line = next(line for line in result.output.splitlines() if "languages.fr.categories.fisch" in line)
    assert "sheet.yaml:23: languages.fr.categories.fisch: " in line, line
    said = language(code)._("names a scoring category {name} that `scoring:` does not have ({names})")
    assert said.split("{name}")[0] in line and said.split("{name}")[0] != "names a scoring category ", line


@pytest.mark.parametrize(("labels", "where"), [
    ("labels: {boat: Boats launched}\n", "sheet.yaml:20: labels.boat: labels a field 'boat' that the layout"),
    ("languages:\n  de:\n    labels: {stom: Sturm}\n",
     "sheet.yaml:22: languages.de.labels.stom: labels a field 'stom' that the layout"),
    ("labels: {boats: " + "x" * 41 + "}\n", "sheet.yaml:20: labels.boats: is 41 characters long"),
])
def test_a_label_of_no_field_is_named_with_file_line_and_field(copy: Path, labels: str, where: str) -> None:
    """A label of a field the layout does not have (a typo) is refused at its line, naming the field and the
    fields there are; a label longer than a control's few words too."""
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8") + labels, encoding="utf-8")
    result = run("content", "check", str(copy))
    assert result.exit_code == 1, result.output
    assert where in result.output, result.output


def test_a_label_of_no_field_is_said_in_the_language_content_check_asks_for(copy: Path) -> None:
    """`content check --lang de`: the label of a field the layout lacks is the catalog's German sentence, at the
    same file, line and key as in English (exit 1)."""
    from generator.i18n import language

    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8") + "labels: {boat: Boote}\n", encoding="utf-8")
    result = run("content", "check", str(copy), "--lang", "de")
    assert result.exit_code == 1, result.output
    line = next(line for line in result.output.splitlines() if "labels.boat" in line)
    said = language("de")._("labels a field {name} that the layout {layout} does not have ({names})")
    assert said != "labels a field {name} that the layout {layout} does not have ({names})"
    assert ("sheet.yaml:20: labels.boat: " + said.split("{name}")[0]) in line, line


@pytest.mark.parametrize(("typed", "goods"), [
    ("Salt, amber", ["salt", "amber"]),  # as people write a list
    ("tea;wool ; rope", ["tea", "wool", "rope"]),
    ("silk,", ["silk"]),
    ("spice", ["spice"]),
])
def test_one_box_for_a_list_takes_items_separated_by_commas(copy: Path, tmp_path: Path, typed: str,
                                                             goods: list[str]) -> None:
    """A sheet that gives its list one box on the fillable sheet: "Salt, amber" typed in it is two goods; it was
    refused as "unknown goods item 'Salt, amber'"."""
    layout = copy / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace(
        "slots: {kind: repeat, component: good, count: 8, columns: 4, x: 4mm, y: 11mm, width: 42mm, height: 6.5mm, "
        "gap_x: 3.33mm, gap_y: 2mm}", "slots: {kind: repeat, component: good, count: 1, columns: 1, x: 4mm, y: 11mm, "
                                      "width: 80mm, height: 6.5mm}"), encoding="utf-8")
    built = run("build", "--content", str(copy), "--out", str(tmp_path / "out"), "--format", "pdf")
    assert built.exit_code == 0, built.output
    blank = tmp_path / "out" / "score-sheets" / ID / f"{ID}-a4-fillable.pdf"
    ana = fill(blank, tmp_path / "ana.pdf", {"player": "Ana", "fish": "3", "good_1": typed})
    result = run("score", str(ana), "--sheet", str(copy), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["players"][0]["values"]["goods"] == goods


def test_an_unknown_item_among_several_in_one_box_is_named_with_its_box(copy: Path, tmp_path: Path) -> None:
    built = run("build", "--content", str(copy), "--out", str(tmp_path / "out"), "--format", "pdf")
    assert built.exit_code == 0, built.output
    blank = tmp_path / "out" / "score-sheets" / ID / f"{ID}-a4-fillable.pdf"
    ana = fill(blank, tmp_path / "ana.pdf", {"player": "Ana", "fish": "3", "good_1": "tea", "good_2": "salt, gold"})
    result = run("score", str(ana), "--sheet", str(copy))
    assert result.exit_code == 2, result.output
    assert "field good_2: unknown goods item 'gold'" in result.stderr, result.stderr


def test_a_sheet_of_ones_own_is_a_build_target_by_its_id(copy: Path, tmp_path: Path) -> None:
    """`donjon build lantern-harbour --content FOLDER` builds the sheet (a game without decks); it was refused with
    "'lantern-harbour' names no game or deck; choose all, or one of: " and nothing after. A wrong target names it."""
    result = run("build", ID, "--content", str(copy), "--out", str(tmp_path / "out"), "--format", "pdf")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "score-sheets" / ID / f"{ID}-a4.pdf").is_file()
    wrong = run("build", "lantern", "--content", str(copy), "--out", str(tmp_path / "out"))
    assert wrong.exit_code == 2
    assert "'lantern' names no game or deck; choose all, or one of: lantern-harbour" in wrong.stderr, wrong.stderr


#: Lantern Harbour's guild and two goods with ids written as a designer might (capitals, `_`): ids that fold to
#: another word (`generator.fields.normalise_name`), then the same as the refusal says to write them
LOOSE_IDS = (("guild: {type: choice, values: [fishers, sailors, merchants]}",
              "guild: {type: choice, values: [Fishers, sea_farers, merchants]}"),
             ("marks: {kind: bubbles, field: guild, values: [fishers, sailors, merchants],",
              "marks: {kind: bubbles, field: guild, values: [Fishers, sea_farers, merchants],"),
             ("{id: tea, name: Tea}", "{id: Tea, name: Tea}"), ("{id: amber, name: Amber}", "{id: dark_amber, "
                                                                                            "name: Dark amber}"))
FOLDED_IDS = (("values: [Fishers, sea_farers, merchants]", "values: guilds"),
              ("values:\n  goods:", "values:\n  guilds: [{id: fishers, name: Fishers}, {id: sea-farers, name: Sea "
                                    "farers}, merchants]\n  goods:"),
              ("{id: Tea, name: Tea}", "{id: tea, name: Tea}"), ("{id: dark_amber,", "{id: dark-amber,"))


def test_a_choice_id_that_cannot_match_itself_is_refused_at_its_line(copy: Path, tmp_path: Path) -> None:
    """A choice's value or a list's item whose id folds to another word (`Fishers`, `sea_farers`: a typed value is
    compared folded, in lower case with '-' for '_') is refused at the line that writes it, saying the id to write:
    the field's line for values written in the field, the item's line of the `values:` list a field names (in the
    layout, or the sheet.yaml, or a language of it, that writes it; those were said at the field's line of the
    layout, a file the id is not in). It was taken, and then never matched, not even typed as written ("unknown
    guild value 'Fishers' (did you mean 'Fishers'?)"). Written as the message says, a YAML end state and a filled
    PDF typed either way are read, and hold the ids."""
    layout = copy / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    for old, new in LOOSE_IDS:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    layout.write_text(text, encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), start=1) if row.startswith("  guild: "))
    tea = next(i for i, row in enumerate(text.splitlines(), start=1) if "{id: Tea," in row)
    amber = next(i for i, row in enumerate(text.splitlines(), start=1) if "{id: dark_amber," in row)
    sheet = copy / "sheet.yaml"
    own = sheet.read_text(encoding="utf-8")
    sheet.write_text(own.replace("values:\n", "values:\n  ports: [{id: Old_Quay, name: Old quay}]\n", 1),
                     encoding="utf-8")
    ports = next(i for i, row in enumerate(sheet.read_text(encoding="utf-8").splitlines(), start=1)
                 if row.startswith("  ports:"))
    layout.write_text(text.replace("  goods: {type: list, items: goods}", "  goods: {type: list, items: goods}\n"
                                   "  port: {type: choice, values: ports, read: false}")
                      .replace("  guild:\n    kind: group", "  port: {kind: bubbles, field: port, values: ports, "
                               "x: 150mm, y: 10mm}\n  guild:\n    kind: group"), encoding="utf-8")
    checked = run("content", "check", str(copy))
    assert checked.exit_code == 1, checked.output
    said = checked.stdout + checked.stderr
    assert f"layout.yaml:{line}: fields.guild: its value id 'Fishers' cannot be matched as typed" in said, said
    # the way to keep 'Fishers' printed is one the layout takes: a field's own list of values holds plain values
    assert "write 'fishers' (to print 'Fishers' still, list the values as items in the layout's `values:` and name " \
           "that list in the field (`values: NAME`), this one {id: fishers, name: Fishers})" in said
    assert f"layout.yaml:{line}: fields.guild: its value id 'sea_farers' " in said and "write 'sea-farers'" in said
    assert f"layout.yaml:{tea}: values.goods[5]: its item id 'Tea' of the field goods " in said and \
        "write 'tea'" in said
    assert f"layout.yaml:{amber}: values.goods[7]: its item id 'dark_amber' of the field goods " in said
    assert f"sheet.yaml:{ports}: values.ports[0]: its value id 'Old_Quay' of the field port " in said, said
    assert "write 'old-quay'" in said and "fields.port:" not in said
    layout.write_text(text, encoding="utf-8")
    sheet.write_text(own, encoding="utf-8")
    assert "Traceback" not in said
    assert run("build", "--content", str(copy), "--out", str(tmp_path / "refused")).exit_code == 1
    for old, new in FOLDED_IDS:
        text = text.replace(old, new)
    layout.write_text(text, encoding="utf-8")
    built = run("build", "--content", str(copy), "--out", str(tmp_path / "out"), "--format", "pdf")
    assert built.exit_code == 0, built.output
    game = tmp_path / "game.yaml"
    game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, guild: Fishers, goods: [Tea, dark_amber]}}\n"
                    "  - {player: Ben, guild: sea_farers, goods: [TEA]}\n", encoding="utf-8")
    scored = run("score", str(game), "--content", str(copy), "--json")
    assert scored.exit_code == 0, scored.output
    values = [(p["values"]["guild"], p["values"]["goods"]) for p in json.loads(scored.stdout)["players"]]
    assert sorted(values) == [("fishers", ["tea", "dark-amber"]), ("sea-farers", ["tea"])], values
    blank = tmp_path / "out" / "score-sheets" / ID / f"{ID}-a4-fillable.pdf"
    ana = fill(blank, tmp_path / "ana.pdf", {"player": "Ana", "guild": "Sea_Farers", "good_1": "Dark_Amber",
                                             "good_2": "tea"})
    read = run("score", str(ana), "--sheet", str(copy), "--json")
    assert read.exit_code == 0, read.output
    player = json.loads(read.stdout)["players"][0]["values"]
    assert (player["guild"], player["goods"]) == ("sea-farers", ["dark-amber", "tea"]), player


#: The storm stands on boats by the rules (a `needs:` of the layout): a photo of a storm struck without boats leaves
#: both for a person, with a sentence that names the two fields
STORM_NEEDS = ("  storm: {type: yes-no}",
               '  storm: {type: yes-no, needs: {field: boats, why: "the storm strikes a harbour with boats"}}')


def page_photo(copy: Path, tmp_path: Path, marks: dict[str, int]) -> Path:
    """The sheet's scan-ready A4 page rendered as a scanner would (300 dpi), with the marks `marks` names (`field=
    value`, a digit's `field=place value`, -> the grey they are filled with: 40 a pencil's, 200 a trace too light to
    be sure of beside them), as a PNG."""
    pytest.importorskip("cv2")
    import cv2

    from generator.games.sheet_game import SheetGame
    from generator.sheets.own import load_sheet
    from generator.pdfium_lock import page_grey

    built = run("build", "--content", str(copy), "--out", str(tmp_path / "out"), "--format", "pdf")
    assert built.exit_code == 0, built.output
    scale = 300 / 72
    pdf = tmp_path / "out" / "score-sheets" / ID / f"{ID}-a4.pdf"
    grey = page_grey(pdf, scale=scale)
    sheet, problems = load_sheet(copy, copy.parent)
    assert sheet is not None, problems
    the_map = SheetGame(sheet).drawn("scan", "a4").map
    assert the_map is not None
    for mark in the_map.marks:
        tone = marks.get(f"{mark.field}={mark.digit + ' ' if mark.digit else ''}{mark.value}")
        if tone is not None:
            centre = (round((mark.x + mark.width / 2) * scale), round((mark.y + mark.height / 2) * scale))
            cv2.circle(grey, centre, round(mark.width / 2 * scale * 0.8), tone, -1)
    photo = tmp_path / "ana.png"
    cv2.imwrite(str(photo), grey)
    return photo


def test_a_photos_undecided_fields_are_named_by_their_labels(copy: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """`donjon score`'s lines of a photo's undecided fields, and the labels of `--annotate`'s photo, name a field by
    the label sheet.yaml gives it ("Struck by the storm is marked but Boats launched is empty"), as the companion
    does in French; they said "storm is marked but boats is empty". The JSON and `--set` keep the ids."""
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8") + LABELS, encoding="utf-8")
    layout = copy / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace(*STORM_NEEDS), encoding="utf-8")
    page_photo(copy, tmp_path, {"storm=True": 40, "fish=tens 1": 40, "fish=units 4": 40, "goods=tea": 200})
    monkeypatch.chdir(tmp_path)  # the photo is said by the name given
    from generator.render import picture_text

    drawn: list[str] = []
    draw_text = picture_text.draw_text

    def writes(image: Any, xy: Any, text: str, *args: Any) -> None:
        drawn.append(text)
        draw_text(image, xy, text, *args)

    monkeypatch.setattr(picture_text, "draw_text", writes)
    plain = run("score", "ana.png", "--sheet", str(copy), "--names", "Ana", "--annotate", "seen")
    assert plain.exit_code == 1, plain.output
    lines = plain.stdout.splitlines()
    # the reason names the field first: not said before it again ("Struck by the storm: Struck by the storm...")
    assert "  ana.png: Struck by the storm is marked but Boats launched is empty: the storm strikes a harbour with " \
           "boats (confirm with --set storm=VALUE)" in lines, plain.stdout
    assert any(line.startswith("  ana.png: Goods traded: ") and line.endswith("(confirm with --set goods=VALUE)")
               for line in lines), plain.stdout
    assert any(line.startswith("    what to change (Struck by the storm and Boats launched): ") for line in lines)
    assert any(text.startswith("Goods traded ") for text in drawn), drawn  # the undecided mark's label
    as_json = run("score", "ana.png", "--sheet", str(copy), "--names", "Ana", "--json")
    uncertain = {u["field"]: u for u in json.loads(as_json.stdout)["uncertain"]}
    assert set(uncertain) == {"storm", "boats", "goods"}, as_json.stdout
    assert uncertain["storm"]["why"] == "storm is marked but boats is empty: the storm strikes a harbour with boats"
    # `--lang fr`: the labels sheet.yaml gives in French (its own where it gives none), as the companion's French
    # page says them; it said the sheet's own ("Struck by the storm") in French lines
    french = run("score", "ana.png", "--sheet", str(copy), "--names", "Ana", "--lang", "fr")
    lines = french.stdout.replace("\u00a0", " ").splitlines()
    assert any(line.startswith("  ana.png : Frappé par la tempête : ce qui a été lu") for line in lines), lines
    assert any(line.startswith("    que changer (Frappé par la tempête et Bateaux lancés) : ") for line in lines), lines
    assert any(line.startswith("  ana.png : Goods traded : ") for line in lines), lines


#: Lantern Harbour's name and the storm's rule in French, as a designer who translates the sheet writes them
FRENCH_WORDS = """languages:
  fr:
    name: Port aux Lanternes
    why: {storm: "la tempête ne frappe qu'un port qui a des bateaux"}
"""


def test_a_sheets_name_and_rules_are_said_in_the_words_its_languages_give(copy: Path, tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """`donjon score --lang fr` says a sheet of one's own's rule (a need's `why`) and its name as its sheet.yaml's
    `languages: fr:` writes them: a photo's storm struck without boats "contredit les règles (…) : la tempête ne
    frappe qu'un port qui a des bateaux", a filled PDF's problems headed "feuille remplie (Port aux Lanternes)".
    They were looked up in donjon's catalogs only, which know nothing of the sheet: French said the English rule
    and "(Lantern Harbour sheet)". A why given to a field without needs is refused at its line."""
    sheet = copy / "sheet.yaml"
    own = sheet.read_text(encoding="utf-8")
    sheet.write_text(own + FRENCH_WORDS, encoding="utf-8")
    layout = copy / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace(*STORM_NEEDS), encoding="utf-8")
    page_photo(copy, tmp_path, {"storm=True": 40, "fish=tens 1": 40, "fish=units 4": 40})
    monkeypatch.chdir(tmp_path)
    said = run("score", "ana.png", "--sheet", str(copy), "--names", "Ana", "--lang", "fr")
    assert said.exit_code == 1, said.output
    assert "la tempête ne frappe qu'un port qui a des bateaux" in said.stdout, said.stdout
    assert "the storm strikes" not in said.stdout, said.stdout
    blank = tmp_path / "out" / "score-sheets" / ID / f"{ID}-a4-fillable.pdf"
    bad = fill(blank, tmp_path / "bad.pdf", {"player": "Ana", "fish": "beaucoup", "villagers": "dix"})
    refused = run("score", str(bad), "--sheet", str(copy), "--lang", "fr")
    assert refused.exit_code == 2, refused.output
    assert "feuille remplie (Port aux Lanternes)" in refused.output, refused.output
    sheet.write_text(own + FRENCH_WORDS.replace("{storm:", "{fish:"), encoding="utf-8")
    checked = run("content", "check", str(copy))
    assert checked.exit_code == 1, checked.output
    line = (own + FRENCH_WORDS).splitlines().index("    why: {storm: \"la tempête ne frappe qu'un port qui a des "
                                                    "bateaux\"}") + 1
    assert f"sheet.yaml:{line}: languages.fr.why.fish: gives the why of 'fish', which has no `needs` in the layout " \
           in checked.output, checked.output


def table_rows(table: str) -> dict[str, str]:
    """The rows of a score table of one player: the row's name -> its cell (columns are two spaces or more apart,
    a cell may hold one: "Salt and Tea")."""
    return {cells[0]: cells[-1] for line in table.splitlines() if line.startswith("  ") and not line.startswith("  -")
            for cells in [re.split(r"\s{2,}", line.strip())] if len(cells) == 2}


def test_a_photos_reasons_and_values_name_the_values_as_the_sheet_does(copy: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A photo's undecided fields are said with their values named as the sheet prints them ("the mark of Tea",
    "Fishers and Sailors are both filled"), and so are the values under the score table ("Salt and Tea"), in the
    sheet's own language (a sheet written in German says "Tee"), a list's items joined as that language joins a list
    ("Salz und Tee"; it said "Salz,Tee"), a yes-no as the language says it ("nein"; it said "no"); `--set` takes a
    value by its name in any language of the sheet, as by its id. They said the ids ("the mark of tea",
    "salt,tea"). The JSON keeps the ids."""
    from tests.sheets.test_sheet_languages import with_named_guilds

    with_named_guilds(copy)
    spec = copy / "sheet.yaml"
    page_photo(copy, tmp_path, {"guild=fishers": 40, "guild=sailors": 40, "goods=salt": 40, "goods=tea": 200})
    monkeypatch.chdir(tmp_path)
    plain = run("score", "ana.png", "--sheet", str(copy))
    assert plain.exit_code == 1, plain.output
    lines = plain.stdout.splitlines()
    assert "  ana.png: guild: Fishers and Sailors are both filled; it takes one value (confirm with --set " \
           "guild=VALUE)" in lines, plain.stdout
    assert any(line.startswith("  ana.png: goods: the mark of Tea is neither filled nor empty") for line in lines)
    as_json = json.loads(run("score", "ana.png", "--sheet", str(copy), "--json").stdout)
    whys = {u["field"]: u["why"] for u in as_json["uncertain"]}
    assert whys["guild"] == "fishers and sailors are both filled; it takes one value", whys
    assert whys["goods"].startswith("the mark of tea is neither"), whys
    # confirmed by the names a player reads, in English or in German, or by id
    given = ("--set", "guild=Seeleute", "--set", "goods=Salt, tee")
    table = run("score", "ana.png", "--sheet", str(copy), *given)
    assert table.exit_code == 0, table.output
    rows = table_rows(table.stdout)
    assert (rows["guild"], rows["goods"]) == ("Sailors", "Salt and Tea"), table.stdout
    scored = json.loads(run("score", "ana.png", "--sheet", str(copy), "--json", *given).stdout)
    assert {k: scored["players"][0]["values"][k] for k in ("guild", "goods")} == {"guild": "sailors",
                                                                                  "goods": ["salt", "tea"]}
    # a sheet written in German names its values in German, its fields' ids and the reader's English around them
    spec.write_text("lang: de\n" + spec.read_text(encoding="utf-8"), encoding="utf-8")
    german = run("score", "ana.png", "--sheet", str(copy))
    assert "  ana.png: guild: Fischer and Seeleute are both filled; it takes one value (confirm with --set " \
           "guild=VALUE)" in german.stdout.splitlines(), german.stdout
    assert "  ana.png: goods: the mark of Tee is neither filled nor empty" in german.stdout, german.stdout
    rows = table_rows(run("score", "ana.png", "--sheet", str(copy), *given).stdout)
    assert (rows["guild"], rows["goods"], rows["storm"]) == ("Seeleute", "Salz und Tee", "nein"), rows


def test_a_yes_no_is_confirmed_as_the_sheets_language_says_it(copy: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The values under the score table of a sheet written in French say a yes-no "oui" or "non" (and in German
    "ja", "nein"): `--set storm=oui` takes it as it is read. It was refused, exit 2, "storm takes true or false, not
    'oui'", though `--set storm=yes` was taken. What is neither stays refused."""
    spec = copy / "sheet.yaml"
    spec.write_text("lang: fr\n" + spec.read_text(encoding="utf-8"), encoding="utf-8")
    page_photo(copy, tmp_path, {"fish=tens 1": 40, "fish=units 4": 40})
    monkeypatch.chdir(tmp_path)
    assert table_rows(run("score", "ana.png", "--sheet", str(copy)).stdout)["storm"] == "non"
    for typed, said in (("oui", "oui"), ("ja", "oui"), ("Non", "non"), ("yes", "oui")):
        confirmed = run("score", "ana.png", "--sheet", str(copy), "--set", f"storm={typed}")
        assert confirmed.exit_code == 0, confirmed.output
        assert table_rows(confirmed.stdout)["storm"] == said, confirmed.stdout
    refused = run("score", "ana.png", "--sheet", str(copy), "--set", "storm=peut-être")
    assert refused.exit_code == 2 and "storm takes true or false, not 'peut-être'" in refused.stderr, refused.output
    # a choice whose values are such words keeps them: `--set guild=non` is the value non, not "no value"
    layout = copy / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("fishers, sailors", "oui, non"), encoding="utf-8")
    page_photo(copy, tmp_path, {"guild=oui": 40})
    assert table_rows(run("score", "ana.png", "--sheet", str(copy)).stdout)["guild"] == "oui"
    chosen = run("score", "ana.png", "--sheet", str(copy), "--set", "guild=non", "--json")
    assert chosen.exit_code == 0, chosen.output
    assert json.loads(chosen.stdout)["players"][0]["values"]["guild"] == "non", chosen.stdout


def test_an_empty_list_is_confirmed_by_the_word_none_of_any_language(copy: Path, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The companion's box for a value to confirm suggests "sa valeur, ou « aucun »" (German „keine“): a list given as
    `aucun` or `keine` is empty, as `none` is; a list took only the English word and refused `aucun` as an item it
    does not hold (a yes-no, a number and a choice took all three)."""
    page_photo(copy, tmp_path, {"fish=tens 1": 40, "fish=units 4": 40})
    monkeypatch.chdir(tmp_path)
    for typed in ("none", "aucun", "Keine"):
        taken = run("score", "ana.png", "--sheet", str(copy), "--set", f"goods={typed}", "--json")
        assert taken.exit_code == 0, taken.output
        assert json.loads(taken.stdout)["players"][0]["values"]["goods"] == [], taken.stdout


def test_a_count_the_sheet_cannot_record_is_refused_from_a_file_as_by_set(copy: Path, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Five bubbles record 0 to 5 boats, two digits 0 to 99 fish: `--set boats=6` was refused ("from 0 to 5") but a
    YAML end state holding `boats: 6` (or `fish: 100`) was scored, a game the sheet could not have recorded. Both
    refuse it now, the file by its line and field (exit 2, nothing scored); what the marks hold is taken both
    ways."""
    page_photo(copy, tmp_path, {"fish=tens 1": 40, "fish=units 4": 40})
    monkeypatch.chdir(tmp_path)
    for given, most in (("boats=6", "boats takes a number from 0 to 5, not '6'"),
                        ("fish=100", "fish takes a whole number from 0 to 99, not '100'")):
        refused = run("score", "ana.png", "--sheet", str(copy), "--set", given)
        assert refused.exit_code == 2 and most in refused.stderr, refused.output
    taken = run("score", "ana.png", "--sheet", str(copy), "--set", "boats=5", "--set", "fish=99", "--json")
    assert taken.exit_code == 0, taken.output
    assert {k: json.loads(taken.stdout)["players"][0]["values"][k] for k in ("boats", "fish")} == {"boats": 5,
                                                                                                 "fish": 99}
    game = tmp_path / "game.yaml"
    for held, said in (("boats: 6", "game.yaml:4: sheets[1].boats: is 6, more than the largest allowed, 5"),
                       ("fish: 100", "game.yaml:4: sheets[1].fish: is 100, more than the largest allowed, 99")):
        game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, boats: 5, fish: 99}}\n  - {{player: Ben, {held}}}\n",
                        encoding="utf-8")
        refused = run("score", str(game), "--sheet", str(copy))
        assert refused.exit_code == 2 and said in refused.stderr, refused.output
        assert refused.stdout == ""
    game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, boats: 5, fish: 99}}\n", encoding="utf-8")
    scored = run("score", str(game), "--sheet", str(copy), "--json")
    assert scored.exit_code == 0 and json.loads(scored.stdout)["players"][0]["score"] == 5 * 3 + 99, scored.output


#: Fishers given a second bubble, at the right of the guild's panel: a designer's choice (either bubble means it).
FISHERS_AGAIN = ('      choice: {kind: entry, field: guild,',
                 '      again: {kind: bubble, field: guild, value: fishers, x: 100% - 10mm, y: 22mm}\n'
                 '      choice: {kind: entry, field: guild,')


def test_one_value_given_bubbles_at_two_places_is_read_once_and_a_row_giving_it_twice_is_refused(
        copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two parts may give one value a bubble each: one filled (the other empty) or both filled is that value; both
    filled said "fishers and fishers are both filled; it takes one value" and left the game unscored. One row of
    bubbles listing a value twice is surely a slip (here merchants lost its bubble): refused at its line."""
    layout = copy / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text.replace(*FISHERS_AGAIN), encoding="utf-8")
    assert run("content", "check", str(copy)).exit_code == 0
    monkeypatch.chdir(tmp_path)
    page_photo(copy, tmp_path, {"fish=tens 1": 40, "fish=units 4": 40, "guild=fishers": 40})  # both bubbles
    read = run("score", "ana.png", "--sheet", str(copy), "--json")
    assert read.exit_code == 0, read.output
    assert json.loads(read.stdout)["players"][0]["values"]["guild"] == "fishers"
    layout.write_text(text.replace("values: [fishers, sailors, merchants], direction: column",
                                   "values: [fishers, sailors, fishers], direction: column"), encoding="utf-8")
    refused = run("content", "check", str(copy))
    assert refused.exit_code == 1 and re.search(r"layout\.yaml:\d+: parts\.guild\.parts\.marks: its values give "
                                                r"'fishers' twice", refused.output), refused.output


def test_a_value_refused_lists_the_values_as_the_sheet_prints_them(copy: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A value a field cannot take is refused with the values it takes as the sheet prints them, which a player
    reads and types, the id beside a name that is not typed as the id ("Fischer (fishers)"), the field by its label:
    from `--set` (a choice, a list), from a filled PDF and from a YAML end state. They listed the ids alone ("guild
    takes fishers, sailors, merchants or none", "it takes fishers, sailors, merchants", "expected one of salt,
    rope, ...") to a player who had typed "Seeleute". Exit 2 each, nothing scored."""
    from tests.sheets.test_sheet_languages import LANTERN_DE, with_named_guilds

    spec = copy / "sheet.yaml"
    with_named_guilds(copy, "de", LANTERN_DE.replace("\n    values:", "\n    labels: {guild: Gilde}\n    values:"))
    page_photo(copy, tmp_path, {"guild=fishers": 40, "guild=sailors": 40, "goods=salt": 40})
    monkeypatch.chdir(tmp_path)
    guilds = "Fischer (fishers), Seeleute (sailors), Händler (merchants)"
    goods = "Salz (salt), Seil (rope), Teer (tar), Seide (silk), Gewürze (spice), Tee (tea), Wolle (wool), " \
            "Bernstein (amber)"
    refused = run("score", "ana.png", "--sheet", str(copy), "--set", "guild=Piraten")
    assert refused.exit_code == 2, refused.output
    assert f"error: --set guild: ana.png: Gilde takes {guilds} or none, not 'Piraten'" in refused.stderr, \
        refused.stderr
    listed = run("score", "ana.png", "--sheet", str(copy), "--set", "guild=Seeleute", "--set", "goods=Salz, Gold")
    assert listed.exit_code == 2, listed.output
    assert f"error: --set goods: ana.png: goods takes values separated by commas ({goods}) or none; 'Gold' is not " \
           "one" in listed.stderr, listed.stderr
    blank = tmp_path / "out" / "score-sheets" / ID / f"{ID}-a4-fillable.pdf"
    typed = run("score", str(fill(blank, tmp_path / "ben.pdf", {"player": "Ben", "guild": "Piraten", "fish": "3"})),
                "--sheet", str(copy))
    assert typed.exit_code == 2 and f"field guild: holds 'Piraten'; it takes {guilds}" in typed.stderr, typed.stderr
    game = tmp_path / "game.yaml"
    game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, goods: [Salz, Gold]}}\n", encoding="utf-8")
    ended = run("score", str(game), "--content", str(copy))
    assert ended.exit_code == 2 and f"sheets[0].goods[1]: unknown goods item 'Gold'; expected one of {goods}" in \
        ended.stderr, ended.stderr
    # a sheet whose names are typed as its ids lists the names alone
    spec.write_text(spec.read_text(encoding="utf-8").replace("lang: de\n", "", 1), encoding="utf-8")
    english = run("score", "ana.png", "--sheet", str(copy), "--set", "guild=Pirates")
    assert "error: --set guild: ana.png: guild takes Fishers, Sailors, Merchants or none, not 'Pirates'" in \
        english.stderr, english.stderr


#: What one of Lantern Harbour's goods is called, and several, in English and in French
ITEM_WORDS = """
item_words: {goods: {one: good, many: goods}}
languages:
  fr:
    item_words: {goods: {one: marchandise, many: marchandises}}
"""


def test_a_lists_item_word_names_its_items_in_messages(copy: Path, tmp_path: Path) -> None:
    """`item_words:` says what one item of a list is called: an unknown one is "unknown good 'silver'"; a sheet that
    gives none keeps "goods item" (test_a_yaml_end_state_of_the_sheet_is_scored)."""
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8") + ITEM_WORDS, encoding="utf-8")
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, goods: [silver]}}\n", encoding="utf-8")
    bad = run("score", str(unknown), "--content", str(copy))
    assert bad.exit_code == 2, bad.output
    assert "goods[0]: unknown good 'silver'" in bad.stderr, bad.stderr


def test_a_list_that_holds_too_many_counts_them_in_its_item_words(copy: Path, tmp_path: Path) -> None:
    """A list of more items than its sheet has is counted in its item words ("has 9 goods, more than the 8
    allowed"), one or many as the language counts (French "compte 9 marchandises"); a sheet without item words, and
    any other list, keep "items". It said "has 9 items" whatever words the sheet gave."""
    import dataclasses

    from generator.fields import ListOf, Text, check_document
    from generator.games.sheet_game import SheetGame, catalog_of
    from generator.i18n import language
    from generator.sheets.own import load_sheet
    from generator.yamlio import Document

    nine = f"game: {ID}\nsheets:\n  - {{player: Ana, goods: [salt, rope, tar, silk, spice, tea, wool, amber, tea]}}\n"
    game = tmp_path / "nine.yaml"
    game.write_text(nine, encoding="utf-8")
    plain = run("score", str(game), "--content", str(copy))
    assert plain.exit_code == 2 and "goods: has 9 items, more than the 8 allowed" in plain.stderr, plain.stderr
    sheet_yaml = copy / "sheet.yaml"
    sheet_yaml.write_text(sheet_yaml.read_text(encoding="utf-8") + ITEM_WORDS, encoding="utf-8")
    worded = run("score", str(game), "--content", str(copy))
    assert worded.exit_code == 2, worded.output
    assert "goods: has 9 goods, more than the 8 allowed" in worded.stderr, worded.stderr
    sheet, problems = load_sheet(copy, copy.parent)
    assert sheet is not None, problems
    catalog = catalog_of(sheet)
    french = dataclasses.replace(catalog, info=dataclasses.replace(catalog.info, lang="fr"))
    data = {"game": ID, "sheets": [{"player": "Ana", "goods": ["salt", "rope", "tar", "silk", "spice", "tea", "wool",
                                                                "amber", "tea"]}]}
    _, found = check_document(Document("nine.yaml", data, {}), SheetGame(sheet).end_state(french), language("fr"))
    assert [p.message for p in found] == ["compte 9 marchandises, plus que les 8 permis"], found
    # a list with no item words is said as before, in every language
    _, found = check_document(Document("x.yaml", ["a", "b"], {}), ListOf(Text(), max_items=1), language("fr"))
    assert [p.message for p in found] == ["compte 2 éléments, plus que les 1 permis"], found


@pytest.mark.parametrize(("words", "where"), [
    ("item_words: {good: {one: good, many: goods}}\n",
     "sheet.yaml:20: item_words.good: gives item words to a field 'good' that the layout"),
    ("item_words: {boats: {one: boat, many: boats}}\n",
     "sheet.yaml:20: item_words.boats: gives item words to 'boats', a count field: only a list field has items "
     "(goods)"),
    ("languages:\n  de:\n    item_words: {storm: {one: Sturm, many: Stürme}}\n",
     "sheet.yaml:22: languages.de.item_words.storm: gives item words to 'storm', a yes-no field"),
    ("item_words: {goods: {one: good}}\n", "sheet.yaml:20: item_words.goods: missing the key 'many'"),
])
def test_item_words_of_no_list_are_named_with_file_line_and_field(copy: Path, words: str, where: str) -> None:
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8") + words, encoding="utf-8")
    result = run("content", "check", str(copy))
    assert result.exit_code == 1, result.output
    assert where in result.output, result.output


#: Three mistakes in three parts of Lantern Harbour's layout: a style misspelt, a field misspelt, labels that overlap
THREE_MISTAKES = {
    "heading: {kind: text, x: 3mm, baseline: 6mm, text: Boats, style: heading}":
        "heading: {kind: text, x: 3mm, baseline: 6mm, text: Boats, style: headng}",
    "digits: {kind: digits, field: fish,": "digits: {kind: digits, field: fsh,",
    "direction: column, labels: beside, label_style: value, x: 4mm, y: 10mm":
        "direction: row, labels: above, label_style: value, x: 4mm, y: 10mm",
}


def test_every_mistake_of_a_drawing_is_said_with_its_file_line_and_part(copy: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A layout with three mistakes in three parts: `content check` and `build` say all three, each at its file,
    line and part (exit 1 as before); they said the first alone, one run per mistake. Past MOST_PROBLEMS, the
    drawing stops and says so."""
    layout = copy / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    for old, new in THREE_MISTAKES.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    layout.write_text(text, encoding="utf-8")
    said = [f"layout.yaml:{line}: {where}: {what}" for line, where, what in (
        (107, "parts.guild.parts.marks", "its labels 'fishers' and 'sailors' overlap"),
        (118, "parts.boats.parts.heading", "'headng' is not one of the layout's styles"),
        (133, "parts.fish.parts.digits", "marks the field 'fsh', which the layout does not declare"))]
    checked = run("content", "check", str(copy))
    assert checked.exit_code == 1, checked.output
    assert all(piece in checked.output for piece in said), checked.output
    assert "3 problems found" in checked.output, checked.output
    built = run("build", "--content", str(copy), "--out", str(tmp_path / "out"))
    assert built.exit_code == 1, built.output
    assert all(piece in built.stderr for piece in said), built.stderr
    monkeypatch.setattr("generator.sheets.draw.MOST_PROBLEMS", 2)
    bounded = run("content", "check", str(copy))
    assert bounded.exit_code == 1, bounded.output
    assert said[0] in bounded.output and said[2] not in bounded.output, bounded.output
    assert "the drawing stopped at 2 problems; there may be more" in bounded.output, bounded.output


@pytest.mark.slow
def test_a_photo_of_the_sheet_printed_in_another_language_is_compared_with_that_print(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`donjon build --lang de` prints the sheet with donjon's words in German ("Spieler"); a photo of that print
    is compared with it, not with the sheet's own language's print, and read as filled."""
    pytest.importorskip("cv2")
    sys.path.insert(0, str(REPO / "benchmarks"))
    bench: Any = importlib.import_module("scan_photos")
    from generator.games.sheet_game import SheetGame
    from generator.sheets import photos
    from generator.sheets.own import load_sheet
    from tests.scan.helpers import marks_for, prints_compared, rendered

    sheet, problems = load_sheet(SHEET, EXAMPLES)
    assert sheet is not None, problems
    game = SheetGame(sheet)
    german = game.drawn("scan", "a4", lang="de")
    assert german.page() != game.drawn("scan", "a4").page()
    assert german.map is not None
    image = rendered(german.page(), 300 / 72).copy()
    rng = random.Random(5)
    for mark, filled in zip(german.map.marks, marks_for(german.map, ANA), strict=True):
        if filled:
            bench.fill(image, mark, rng)
    data, _ = bench.photograph(image, rng, 3)
    chosen = prints_compared(monkeypatch)
    read = photos.read_photo(data, "ana.jpg", [game.kind()])
    assert len(chosen) == 1 and chosen[0].drawn("scan", "a4").page() == german.page()
    assert not read.reading.uncertain, read.reading.uncertain


def test_a_name_box_not_called_player_is_warned_of_at_its_line(copy: Path, tmp_path: Path) -> None:
    """A sheet whose players write their name in a text field not called `player` (a French designer's `joueur`)
    is taken, its players named by their files, as ever, but `content check` and `score --sheet` warn at the field's
    line of what happens and what to write: the table said "winner: ana" over a sheet on which Anaïs wrote her name,
    without a word."""
    layout = copy / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    assert text.count("  player: {type: text}") == 1
    text = text.replace("  player: {type: text}", "  joueur: {type: text}").replace("field: player", "field: joueur")
    layout.write_text(text, encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), start=1) if row.startswith("  joueur: "))
    said = f"layout.yaml:{line}: fields.joueur: the sheet has no field `player`, which alone names a player"
    checked = run("content", "check", str(copy))
    assert checked.exit_code == 0 and said in checked.stderr and "warning: " in checked.stderr, checked.output
    built = run("build", "--content", str(copy), "--out", str(tmp_path / "out"), "--format", "pdf")
    assert built.exit_code == 0, built.output
    blank = tmp_path / "out" / "score-sheets" / ID / f"{ID}-a4-fillable.pdf"
    ana = fill(blank, tmp_path / "ana.pdf", {"joueur": "Anaïs", "fish": "3"})
    scored = run("score", str(ana), "--sheet", str(copy))
    assert scored.exit_code == 0 and said in scored.stderr and "winner: ana," in scored.stdout, scored.output
    # the example, whose name box is `player`, is warned of nothing
    assert "warning" not in run("content", "check", str(SHEET)).stderr


def test_one_mark_filled_past_a_gap_is_said_in_the_singular(copy: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A track with one figure coloured in, not the first, is asked about as "1 mark is filled but not from the
    first on"; it said "1 marks are filled"."""
    page_photo(copy, tmp_path, {"villagers=3": 40, "fish=units 4": 40})
    monkeypatch.chdir(tmp_path)
    read = run("score", "ana.png", "--sheet", str(copy))
    assert read.exit_code == 1, read.output
    assert "villagers: 1 mark is filled but not from the first on (1 is empty)" in read.stdout, read.stdout


@pytest.mark.parametrize(("german", "said"), [
    ("{id: salz, name: Salz}, {id: rope, name: Seil}", "languages.de.values.goods[0]: has the id 'salz' where the "
                                                       "sheet's own ("),
    ("{id: rope, name: Seil}, {id: salt, name: Salz}", "languages.de.values.goods[0]: has the id 'rope' where the "
                                                       "sheet's own ("),
])
def test_a_language_that_changes_an_items_id_or_place_is_refused_at_its_line(copy: Path, tmp_path: Path,
                                                                             german: str, said: str) -> None:
    """A language's list of items names the sheet's own items: an id it changes (`salz` for `salt`) was taken, and
    a German fillable sheet typed "Salz" scored an item the sheet does not have (`salz`, where a photo of the same
    sheet reads `salt`); an order it changes printed "Seil" over salt's mark. Both are refused at the item's line."""
    from tests.sheets.test_sheet_languages import LANTERN_DE

    text = LANTERN_DE.replace("      guilds: [{id: fishers, name: Fischer}, {id: sailors, name: Seeleute}, "
                              "{id: merchants, name: Händler}]\n", "")
    assert text.count("{id: salt, name: Salz}, {id: rope, name: Seil}") == 1
    spec = copy / "sheet.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + text.replace("{id: salt, name: Salz}, {id: rope, name: Seil}",
                                                                    german), encoding="utf-8")
    line = next(i for i, row in enumerate(spec.read_text(encoding="utf-8").splitlines(), start=1)
                if row.startswith("      goods:"))
    checked = run("content", "check", str(copy))
    assert checked.exit_code == 1 and f"sheet.yaml:{line}: {said}" in checked.stderr, checked.output
    assert "layout.yaml values.goods) has 'salt': a language names the same items" in checked.stderr
    assert run("build", "--content", str(copy), "--out", str(tmp_path / "out")).exit_code == 1


def test_a_language_translates_a_list_no_field_takes_its_values_from_whole(copy: Path) -> None:
    """A list of words the layout prints but no field takes its values from (headings) is the language's to
    translate whole: only a choice's or a list's values must keep the sheet's own ids."""
    spec = copy / "sheet.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("values:\n", "values:\n  headings: [Boats, Fish]\n", 1)
                    + "languages:\n  de:\n    values:\n      headings: [Boote, Fische]\n", encoding="utf-8")
    checked = run("content", "check", str(copy))
    assert checked.exit_code == 0, checked.output


def test_the_readme_sheet_with_the_layout_it_points_to_passes_content_check(tmp_path: Path) -> None:
    """README.md's "Your own score sheet" shows a `sheet.yaml` whose layout is the one templates/sheets/README.md
    shows: copied as they are, the two pass `donjon content check`. Its scoring looked up a field `villagers` that
    layout does not have, and a user following the README was refused at the first command it gives."""
    from generator.registry import unregister

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    sheet = readme.split("# my-sheet/sheet.yaml\n", 1)[1].split("```", 1)[0]
    formats = (REPO / "templates" / "sheets" / "README.md").read_text(encoding="utf-8")
    layout = formats.split("## A layout", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    folder = tmp_path / "my-sheet"
    folder.mkdir()
    (folder / "sheet.yaml").write_text(sheet, encoding="utf-8")
    (folder / "layout.yaml").write_text(layout, encoding="utf-8")
    try:
        result = run("content", "check", str(folder))
    finally:
        unregister("my-sheet")
    assert result.exit_code == 0, result.output


#: A number marked by bubbles of its values (the wind: 2, 4 or 6), beside the storm, and its box on screen.
WIND = (("  total: {type: number, read: false}\n", "  total: {type: number, read: false}\n  wind: {type: number}\n"),
        ("      struck: {kind: text,",
         "      wind-marks: {kind: bubbles, field: wind, values: [2, 4, 6], direction: row, labels: above, x: 60mm, "
         "y: 12mm}\n      wind-box: {kind: entry, field: wind, x: 60mm, y: 19mm, width: 14mm, height: 8mm, "
         "paint: box}\n      struck: {kind: text,"))


def test_a_number_marked_by_bubbles_of_its_values_takes_only_those_from_a_file(copy: Path, tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A number whose bubbles print 2, 4 and 6 records one of those: `--set wind=7` was refused, but a YAML end
    state holding `wind: 3` (or 7) was scored, a game the sheet could not have recorded. Both refuse it now, the file by
    its line and field (exit 2, nothing scored)."""
    layout = copy / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    for old, new in WIND:
        text = text.replace(old, new)
    layout.write_text(text, encoding="utf-8")
    page_photo(copy, tmp_path, {"fish=units 4": 40, "wind=4": 40})
    monkeypatch.chdir(tmp_path)
    read = run("score", "ana.png", "--sheet", str(copy), "--json")
    assert read.exit_code == 0 and json.loads(read.stdout)["players"][0]["values"]["wind"] == 4, read.output
    refused = run("score", "ana.png", "--sheet", str(copy), "--set", "wind=7")
    assert refused.exit_code == 2 and "wind" in refused.stderr and "'7'" in refused.stderr, refused.output
    game = tmp_path / "game.yaml"
    game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, wind: 6}}\n  - {{player: Ben, wind: 3}}\n",
                    encoding="utf-8")
    refused = run("score", str(game), "--sheet", str(copy))
    assert refused.exit_code == 2 and "game.yaml:4: sheets[1].wind: expected one of 2, 4, 6, got 3" in refused.stderr
    assert refused.stdout == ""
    game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, wind: 6}}\n  - {{player: Ben}}\n", encoding="utf-8")
    assert run("score", str(game), "--sheet", str(copy)).exit_code == 0


def test_a_count_given_two_rows_of_its_values_counts_each_value_once(copy: Path, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The boats given a second row of bubbles, 1 to 5, beside their own: boats 1 and 2 filled in both rows are 2
    boats (they were 4), and the sheet records 5 at most (it took `boats: 10` from a YAML end state)."""
    layout = copy / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace(
        "      fleet: {kind: repeat,", "      again: {kind: bubbles, field: boats, values: [1, 2, 3, 4, 5], "
                                      "direction: row, labels: above, x: 58mm, y: 16mm}\n"
                                      "      fleet: {kind: repeat,"), encoding="utf-8")
    page_photo(copy, tmp_path, {"fish=units 4": 40, "boats=1": 40, "boats=2": 40})  # in both rows
    monkeypatch.chdir(tmp_path)
    read = run("score", "ana.png", "--sheet", str(copy), "--json")
    assert read.exit_code == 0 and json.loads(read.stdout)["players"][0]["values"]["boats"] == 2, read.output
    refused = run("score", "ana.png", "--sheet", str(copy), "--set", "boats=6")
    assert refused.exit_code == 2 and "boats takes a number from 0 to 5, not '6'" in refused.stderr, refused.output
    game = tmp_path / "game.yaml"
    game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, boats: 6}}\n", encoding="utf-8")
    refused = run("score", str(game), "--sheet", str(copy))
    assert refused.exit_code == 2 and "game.yaml:3: sheets[0].boats: is 6, more than the largest allowed, 5" in \
        refused.stderr, refused.output


@pytest.mark.parametrize(("table", "said"), [
    ("[{first: 1, last: 3, points: 1}, {first: 2, last: 5, points: 4}]",
     "sheet.yaml:20: scoring[5].table: the groups 1 to 3 and 2 to 5 overlap: each amount is in one group"),
    ("[{first: 1, last: 1, points: 1}, {first: 3, last: 4, points: 9}]",
     "sheet.yaml:20: scoring[5].table: the groups 1 to 1 and 3 to 4 leave 2 in none"),
    ("[{first: 7, last: 9, points: 1}, {first: 1, last: 2, points: 9}]",
     "sheet.yaml:20: scoring[5].table: the groups 1 to 2 and 7 to 9 leave 3 to 6 in none"),
])
def test_a_lookup_whose_groups_overlap_or_leave_an_amount_out_is_refused_at_its_line(copy: Path, table: str,
                                                                                     said: str) -> None:
    """Groups that overlap gave the first one's points in silence, and an amount between two groups (2 fish, where
    the groups are 1 and 3 to 4) the last group's points: a slip in the table, scored as if meant."""
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8") + f"  - {{name: catch, lookup: fish, table: {table}}}\n",
                     encoding="utf-8")
    result = run("content", "check", str(copy))
    assert result.exit_code == 1 and said in result.output, result.output


def test_a_lookup_table_in_the_values_holding_a_word_is_refused_at_its_line(copy: Path) -> None:
    """A group of the values a lookup names, `first: one`, stopped `content check` with an internal error."""
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("- {first: 4, last: 6, points: 3}",
                                                               "- {first: four, last: 6, points: 3}"),
                     encoding="utf-8")
    result = run("content", "check", str(copy))
    assert result.exit_code == 1 and "Traceback" not in result.output and "internal error" not in result.output
    assert "sheet.yaml:11: scoring[0].table: values.villager_track[1] first is 'four', not a whole number" in \
        result.output, result.output


def test_an_amount_below_a_lookups_first_group_scores_none_and_a_group_from_0_counts(copy: Path,
                                                                                   tmp_path: Path) -> None:
    """2 fish, where the only group is 5 to 12 (7 points), scored 7, the last group's points, as if beyond it; a
    group from 0 (a penalty for no fish) was never looked up. Below the first group is no points; 0 is an amount."""
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8")
                     + "  - {name: haul, lookup: fish, table: [{first: 5, last: 12, points: 7}]}\n"
                     + "  - {name: hungry, lookup: fish, table: [{first: 0, last: 0, points: -2}, "
                       "{first: 1, last: 99, points: 0}]}\n", encoding="utf-8")
    game = tmp_path / "game.yaml"
    game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, fish: 2}}\n  - {{player: Ben, fish: 0}}\n"
                    "  - {player: Cy, fish: 40}\n", encoding="utf-8")
    result = run("score", str(game), "--sheet", str(copy), "--json")
    assert result.exit_code == 0, result.output
    scored = {p["name"]: p["breakdown"] for p in json.loads(result.stdout)["players"]}
    assert {name: (b["haul"], b["hungry"]) for name, b in scored.items()} == {"Ana": (0, 0), "Ben": (0, -2),
                                                                              "Cy": (7, 0)}


@pytest.mark.parametrize(("groups", "said"), [
    ("goods", "its groups 'goods': group 1 has no whole number as first"),
    ("backwards", "its groups 'backwards': group 2 runs from 6 to 4"),
])
def test_a_track_whose_groups_are_no_spans_of_figures_is_refused_at_its_line(copy: Path, groups: str,
                                                                              said: str) -> None:
    """A track given the goods (items with an id and a name) for its groups stopped `content check` with an internal
    error; a group running backwards drew no figure. Both are named at the track's line."""
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace(
        "values:\n", "values:\n  backwards: [{first: 1, last: 3, points: 1}, {first: 6, last: 4, points: 3}]\n"),
        encoding="utf-8")
    layout = copy / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("groups: villager_track", f"groups: {groups}"),
                      encoding="utf-8")
    result = run("content", "check", str(copy))
    assert result.exit_code == 1 and "internal error" not in result.output, result.output
    assert re.search(r"layout\.yaml:\d+: parts\.villagers\.parts\.track: " + re.escape(said), result.output), \
        result.output


def test_a_choice_of_numbers_is_taken_from_a_file_a_filled_pdf_and_a_photo(copy: Path, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A choice whose values are numbers (`values: [1, 2, 3]`, what a sum counts as the number): a YAML end state
    holding `guild: 2`, a fillable sheet with 2 typed in and a photo with its bubble 2 filled were all refused
    ("expected one of 1, 2, 3, got 2"). All three give 2 now, and a number it does not offer is refused at its
    line."""
    layout = copy / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("[fishers, sailors, merchants]", "[1, 2, 3]"),
                      encoding="utf-8")
    sheet = copy / "sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8") + "  - {name: guild, sum: [guild]}\n", encoding="utf-8")
    page_photo(copy, tmp_path, {"fish=units 4": 40, "guild=2": 40})
    monkeypatch.chdir(tmp_path)
    fillable = tmp_path / "out" / "score-sheets" / ID / f"{ID}-a4-fillable.pdf"
    built = run("build", "--content", str(copy), "--out", str(tmp_path / "out"))
    assert built.exit_code == 0, built.output
    typed = fill(fillable, tmp_path / "ana.pdf", {"player": "Ana", "guild": "2"})
    game = tmp_path / "game.yaml"
    game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, guild: 2}}\n", encoding="utf-8")
    for given in ("ana.png", str(typed), str(game)):
        read = run("score", given, "--sheet", str(copy), "--json")
        assert read.exit_code == 0, (given, read.output)
        player = json.loads(read.stdout)["players"][0]
        assert player["values"]["guild"] == 2 and player["breakdown"]["guild"] == 2, (given, player)
    game.write_text(f"game: {ID}\nsheets:\n  - {{player: Ana, guild: 7}}\n", encoding="utf-8")
    refused = run("score", str(game), "--sheet", str(copy))
    assert refused.exit_code == 2 and "game.yaml:3: sheets[0].guild: is 7, more than the largest allowed, 3" in \
        refused.stderr, refused.output


@pytest.mark.parametrize(("old", "new", "said"), [
    ("goods: {type: list, items: goods}", "goods: {type: list, items: villager_track}",
     r"sheet\.yaml:10: values\.villager_track\[0\]: its item has no id \(the field goods\)"),
    ("guild: {type: choice, values: [fishers, sailors, merchants]}", "guild: {type: choice, values: villager_track}",
     r"sheet\.yaml:10: values\.villager_track\[0\]: its value has no id \(the field guild\)"),
    ("items: goods, x: 4mm", 'items: "{{ goods }}", x: 4mm',
     r"layout\.yaml:\d+: parts\.goods\.parts\.marks: the expression '\{\{ goods \}\}': .*; an expression is written "
     r"without \{\{ \}\}: 'goods'"),
])
def test_values_without_ids_and_an_expression_in_braces_are_said_as_such(copy: Path, old: str, new: str,
                                                                          said: str) -> None:
    """A list or a choice given the villager track's groups (no ids) said "its item id 'None' ... cannot be matched
    as typed; write 'none'" (or folded the whole mapping into an id to write); an expression written as a template
    said only jinja's "expected token ':', got '}'". Each says what is wrong now."""
    layout = copy / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    result = run("content", "check", str(copy))
    assert result.exit_code == 1 and re.search(said, result.output), result.output


#: A designer's sparse sheet: a row of three dice bubbles, a row of three hives, an entry for each; nothing else
#: printed but the four corner markers (which are then most of the sheet's dark print)
SPARSE_LAYOUT = """\
page: {papers: [a4], width: 190mm}
scan: {markers: {a4: 8}}
palette: {ink: "#1d2530", white: "#ffffff"}
paints:
  box: {fill: white, stroke: ink, stroke_width: 0.8pt, radius: 0.8mm}
fields:
  player: {type: text}
  dice: {type: number}
  hives: {type: count}
parts:
  player-box: {kind: entry, field: player, x: 110mm, y: 3mm, width: 60mm, height: 9mm, paint: box}
  dice-marks: {kind: bubbles, field: dice, values: [2, 4, 6], direction: row, labels: above, x: 20mm, y: 30mm}
  dice-box: {kind: entry, field: dice, x: 20mm, y: 50mm, width: 14mm, height: 8mm, paint: box}
  hives-marks: {kind: bubbles, field: hives, values: [1, 2, 3], direction: row, labels: above, x: 20mm, y: 70mm}
  hives-box: {kind: entry, field: hives, x: 20mm, y: 110mm, width: 14mm, height: 8mm, paint: box}
"""
SPARSE_ID = "sparse-sheet"


#: Another: a column of five dice bubbles at the page's middle, one storm bubble alone, a row of four hives low down
COLUMN_LAYOUT = SPARSE_LAYOUT.replace(
    "  hives: {type: count}", "  hives: {type: count}\n  storm: {type: yes-no}").replace(
    "values: [2, 4, 6], direction: row, labels: above, x: 20mm, y: 30mm",
    "values: [1, 2, 3, 4, 5], direction: column, labels: beside, x: 150mm, y: 200mm").replace(
    "values: [1, 2, 3], direction: row, labels: above, x: 20mm, y: 70mm",
    "values: [1, 2, 3, 4], direction: row, labels: above, x: 30mm, y: 250mm") + (
    "  storm-mark: {kind: bubbles, field: storm, values: [true], labels: beside, x: 100mm, y: 40mm}\n"
    "  storm-box: {kind: entry, field: storm, x: 20mm, y: 70mm, width: 14mm, height: 8mm, paint: box}\n")


def own_sheet(root: Path, sheet_id: str, layout: str) -> tuple[Path, Path, Any]:
    """A sheet of one's own of `layout` in `root`, built as `donjon build` builds it: its folder, its scan-ready
    A4 page (the PDF) and its map."""
    from generator.games.sheet_game import SheetGame
    from generator.sheets.own import load_sheet

    folder = root / sheet_id
    folder.mkdir()
    (folder / "layout.yaml").write_text(layout, encoding="utf-8")
    (folder / "sheet.yaml").write_text(f"id: {sheet_id}\nname: A sparse game\nlayout: layout.yaml\n"
                                       "players: {min: 1, max: 6}\n", encoding="utf-8")
    built = run("build", "--content", str(root), "--out", str(root / "out"), "--format", "pdf")
    assert built.exit_code == 0, built.output
    sheet, problems = load_sheet(folder, root)
    assert sheet is not None, problems
    return folder, root / "out" / "score-sheets" / sheet_id / f"{sheet_id}-a4.pdf", SheetGame(sheet).drawn(
        "scan", "a4").map


@pytest.fixture(scope="module")
def sparse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Any, Any]]:
    """The sparse sheet's folder, its scan-ready A4 page and its map."""
    from generator.registry import unregister

    try:
        yield own_sheet(tmp_path_factory.mktemp("sparse"), SPARSE_ID, SPARSE_LAYOUT)
    finally:
        unregister(SPARSE_ID)


def scanned(pdf: Path, the_map: Any, dpi: int, filled: Any, radius: float, to: Path) -> Path:
    """The page scanned at `dpi` (rendered), the marks `filled(mark)` says filled with a pencil's grey to `radius`
    of their size, as a PNG."""
    pytest.importorskip("cv2")
    import cv2

    from generator.pdfium_lock import page_grey

    scale = dpi / 72
    grey = page_grey(pdf, scale=scale)
    for mark in the_map.marks:
        if filled(mark):
            centre = (round((mark.x + mark.width / 2) * scale), round((mark.y + mark.height / 2) * scale))
            cv2.circle(grey, centre, round(mark.width / 2 * scale * radius), 40, -1)
    cv2.imwrite(str(to), grey)
    return to


@pytest.mark.parametrize(("dpi", "dice", "hives", "radius"), [
    (200, 6, 2, 0.8),  # 6 and 3 were asked about ("neither filled nor empty"): each row read a bubble over
    (300, 4, 3, 0.6),
    (300, 4, 2, 0.9),
    (150, 6, 3, 0.9),
    (200, 6, 3, 1.0),
    (300, 2, 0, 0.8),  # and what read right before still does
])
def test_a_scan_of_a_sparse_sheet_is_read_where_it_is_printed(sparse: tuple[Path, Any, Any], tmp_path: Path,
                                                              dpi: int, dice: int, hives: int, radius: float) -> None:
    """A clean scan of a designer's sparse sheet (two rows of three bubbles and the corner markers): its values are
    read without a question. Its marks were placed a bubble's pitch over before (the print that should have kept a
    filled bubble from pulling the sheet aside was mostly the markers' black), and its last bubbles asked about."""
    folder, pdf, the_map = sparse
    scan = scanned(pdf, the_map, dpi, lambda m: (m.field, m.value) == ("dice", dice) or (
        m.field == "hives" and m.value <= hives), radius, tmp_path / "scan.png")
    result = run("score", str(scan), "--sheet", str(folder), "--names", "Ana", "--json")
    assert result.exit_code == 0, result.output
    scored = json.loads(result.stdout)
    assert scored["uncertain"] == [] and scored["players"][0]["values"] == {"dice": dice, "hives": hives}


@pytest.mark.slow
@pytest.mark.parametrize(("family", "seed"), [("clean", 0), ("perspective", 1), ("curl", 2), ("fold", 3)])
def test_photos_of_a_sparse_sheet_are_read_where_it_is_printed(sparse: tuple[Path, Any, Any], tmp_path: Path,
                                                               family: str, seed: int) -> None:
    """Photos of the sparse sheet filled with a pencil, as the photo benchmark makes them (its families: flat,
    at an angle, curled, folded): read right, no question asked."""
    pytest.importorskip("cv2")
    sys.path.insert(0, str(REPO / "benchmarks"))
    families: Any = importlib.import_module("photo_families")
    from generator.pdfium_lock import page_grey

    folder, pdf, the_map = sparse
    sheet = families.Sheet(the_map, page_grey(pdf, scale=300 / 72), 300 / 72)
    filled = [(m.field, m.value) in (("dice", 6), ("hives", 1), ("hives", 2)) for m in the_map.marks]
    photo = families.make(families.FAMILIES[family], sheet, filled, f"sparse-{seed}")
    path = tmp_path / "ana.jpg"
    path.write_bytes(photo.data)
    result = run("score", str(path), "--sheet", str(folder), "--names", "Ana", "--json")
    assert result.exit_code == 0, (photo.meta, result.output)
    assert json.loads(result.stdout)["players"][0]["values"] == {"dice": 6, "hives": 2}, photo.meta


@pytest.mark.parametrize(("dpi", "radius", "dice", "hives", "storm"), [
    (150, 0.6, 1, 0, True),  # the storm's bubble was asked about ("its printed outline cannot be seen")
    (300, 0.6, 3, 4, True),  # dice 1, 2, 4 and 5 asked about ("seen 1.9 mm from where the sheet puts it")
    (300, 0.9, 1, 2, False),
    (300, 0.9, 3, 0, True),
])
def test_a_scan_of_a_sheet_of_scattered_marks_is_read_where_it_is_printed(
        tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, dpi: int, radius: float, dice: int, hives: int,
        storm: bool) -> None:
    """Another sparse shape a designer makes: a column of bubbles, a bubble alone and a row, far apart on the
    page. A clean scan is read without a question (more than half of such scans were asked about before)."""
    from generator.registry import unregister

    try:
        folder, pdf, the_map = own_sheet(tmp_path_factory.mktemp("column"), "column-sheet", COLUMN_LAYOUT)
        scan = scanned(pdf, the_map, dpi, lambda m: (m.field, m.value) in (("dice", dice), ("storm", storm)) or (
            m.field == "hives" and m.value <= hives), radius, tmp_path / "scan.png")
        result = run("score", str(scan), "--sheet", str(folder), "--names", "Ana", "--json")
    finally:
        unregister("column-sheet")
    assert result.exit_code == 0, result.output
    values = json.loads(result.stdout)["players"][0]["values"]
    assert (values["dice"], values["hives"], values["storm"]) == (dice, hives, storm)


def test_a_finger_over_most_of_a_shapes_marks_is_asked_about_not_read_empty() -> None:
    """A finger over the fish digits of Lantern Harbour (20 of its 28 bubbles, as the photo benchmark's
    finger-over-marks family lays it, seed 54): the sheet's usual outline of a bubble was taken from them, so each
    covered bubble looked seen and empty, and a fish of 4 was scored 0 without a question. Marks whose print the
    photo does not show no longer set the usual: the fish is asked about, as covered."""
    pytest.importorskip("cv2")
    sys.path.insert(0, str(REPO / "benchmarks"))
    families: Any = importlib.import_module("photo_families")
    from generator.games.sheet_game import SheetGame
    from generator.sheets import photos
    from generator.sheets.own import load_sheet
    from tests.scan.helpers import marks_for, rendered

    sheet, problems = load_sheet(SHEET)
    assert sheet is not None, problems
    game = SheetGame(sheet)
    drawn = game.drawn("scan", "a4")
    assert drawn.map is not None
    values = {"guild": "sailors", "boats": 4, "fish": 4, "storm": True, "villagers": 3,
              "goods": ["rope", "tar", "wool"]}
    photo = families.make(families.FAMILIES["finger-over-marks"], families.Sheet(
        drawn.map, rendered(drawn.page(), 300 / 72), 300 / 72), marks_for(drawn.map, values), "own-54-0")
    assert {drawn.map.marks[i].field for i in photo.hidden} == {"fish"}  # the photo this test is about
    read = photos.read_photo(photo.data, "ana.jpg", [game.kind()])
    assert [(u.field, u.code) for u in read.reading.uncertain] == [("fish", "covered")]
    assert {k: v for k, v in read.reading.values.items() if k != "fish"} == {
        k: v for k, v in values.items() if k != "fish"}
