"""The scan-ready sheet and its map of marks (docs/castle-marks.md): every value a mark, markers that
opencv finds, the map written by `donjon build` exactly as the spec says."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from generator.content import load_content
from generator.games.castle import GAME as CASTLE
from generator.games.castle.sheets import drawn, layout
from generator.render.imposition import EDGE, PAPERS
from generator.render.model import Circle, IconUse, Rect, mm
from generator.sheets.draw import BUBBLE, QUIET
from generator.sheets.marks import ARUCO_4X4, FORMAT, MarkMap, marker_id, of_marker
from tests.sheets.helpers import PAPERS as PAPER_IDS
from tests.sheets.helpers import REPO, VERSIONS, sheet, shipped


def scan_map(version: str, paper: str) -> MarkMap:
    found = sheet(version, paper, "scan").map
    assert found is not None
    return found


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("paper", PAPER_IDS)
def test_every_value_a_player_records_is_a_mark(version: str, paper: str) -> None:
    sheet = shipped().sheet
    the_map = scan_map(version, paper)
    values: dict[str, list[object]] = {}
    for mark in the_map.marks:
        values.setdefault(mark.field, []).append(mark.value)
    assert values["donjon_floors"] == [1, 2, 3, 4]
    for i in range(sheet.towers):
        # "built", then its value as a digit: any value, not only the catalog's (a tower of another value counts)
        assert values[f"towers[{i}]"] == ["built", *range(10)]
        assert [m.digit for m in the_map.marks if m.field == f"towers[{i}]"] == [None] + ["units"] * 10
    for i in range(sheet.walls):
        assert values[f"walls[{i}]"] == [True]
    flags = sorted(name for name in values if ".flags[" in name)
    assert len(flags) == 6 and all(values[f] == list(sheet.flag_values.values) for f in flags)
    assert values["sun"] == [True] and values["cloud"] == [True]
    assert values["residents"] == list(range(1, sheet.resident_track.length + 1))
    if version == "great-architect":
        assert values["sky_clouds"] == [*range(10), *range(10)]
        assert [m.digit for m in the_map.marks if m.field == "sky_clouds"] == ["tens"] * 10 + ["units"] * 10
        assert values["guests"] == [g.id for g in shipped().guests_of("great-architect")]
    else:
        assert "sky_clouds" not in values
        span = list(range(sheet.apprentice_guest_vp.min, sheet.apprentice_guest_vp.max + 1))
        assert [values[f"guests[{i}]"] for i in range(4)] == [span] * 4
    assert [w.field for w in the_map.write_in] == ["player"]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("paper", PAPER_IDS)
def test_marks_follow_what_bubble_sheets_teach(version: str, paper: str) -> None:
    drawing = sheet(version, paper, "scan")
    the_map = scan_map(version, paper)
    width, height = PAPERS[paper]
    marks = the_map.marks
    circles = [(c.cx - c.r, c.cy - c.r) for c in drawing.drawing.items if isinstance(c, Circle)]
    for mark in marks:
        assert EDGE <= mark.x and mark.x + mark.width <= width - EDGE and EDGE <= mark.y
        assert mark.y + mark.height <= height - EDGE
        if mark.shape == "circle":
            assert mm(4) <= mark.width <= mm(6) and mark.width == mark.height, "bubbles of 4 to 6 mm"
            assert any(abs(x - mark.x) < 0.01 and abs(y - mark.y) < 0.01 for x, y in circles), \
                "each bubble of the map is drawn where it says"
    for i, a in enumerate(marks):
        for b in marks[i + 1:]:
            apart = (a.x + a.width <= b.x or b.x + b.width <= a.x or a.y + a.height <= b.y
                     or b.y + b.height <= a.y)
            assert apart, f"{a} overlaps {b}"
    # markers: four, in the corners of the content, at least twice a bubble, with blank paper around them
    markers = the_map.markers
    assert len(markers) == 4 and all(m.size >= 2 * BUBBLE for m in markers)
    for marker in markers:
        quiet = QUIET
        for item in drawing.drawing.items:
            if isinstance(item, Rect) and item.paint.fill in ("#000000", "#ffffff") and item.w <= marker.size and (
                    marker.x <= item.x <= marker.x + marker.size and marker.y <= item.y <= marker.y + marker.size):
                continue  # the marker itself
            left, top = _left_top(item)
            slack = 0.01  # text starts right at the zone's edge: rounding may put it a hair inside
            inside = (marker.x - quiet + slack < left < marker.x + marker.size + quiet - slack
                      and marker.y - quiet + slack < top < marker.y + marker.size + quiet - slack)
            assert not inside, f"{item} is in marker {marker.id}'s quiet zone"
    code = layout(version).markers[paper]
    assert [m.id for m in markers] == [marker_id(code, c) for c in range(4)]


def _left_top(item: object) -> tuple[float, float]:
    if isinstance(item, Circle):
        return item.cx - item.r, item.cy - item.r
    if isinstance(item, (Rect, IconUse)):
        return item.x, item.y
    x = getattr(item, "x", None)
    if x is not None:
        return float(x), float(getattr(item, "y"))
    x1 = getattr(item, "x1", None)
    if x1 is not None:
        return min(x1, getattr(item, "x2")), min(getattr(item, "y1"), getattr(item, "y2"))
    ops = getattr(item, "ops", ())
    xs = [float(v) for op in ops for v in op[1::2]]
    ys = [float(v) for op in ops for v in op[2::2]]
    return (min(xs), min(ys)) if xs else (-1e9, -1e9)


def test_the_marker_patterns_are_opencvs() -> None:
    cv2 = pytest.importorskip("cv2")
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for number, bits in enumerate(ARUCO_4X4):
        image = cv2.aruco.generateImageMarker(dictionary, number, 6)
        found = "".join("1" if v > 127 else "0" for v in image[1:5, 1:5].flatten())
        assert found == bits, number


def test_the_markers_say_which_sheet_it_is() -> None:
    """Each castle sheet (version and paper) prints a code of its own: its markers tell a photo which it is."""
    seen: dict[int, tuple[str, str]] = {}
    for version in VERSIONS:
        for paper in PAPER_IDS:
            code = layout(version).markers[paper]
            for corner in range(4):
                assert of_marker(marker_id(code, corner)) == (code, corner)
            assert code not in seen, f"{version} {paper} prints the code of {seen.get(code)}"
            seen[code] = (version, paper)
    assert of_marker(48) is None and of_marker(50) is None and of_marker(-1) is None


def test_build_writes_the_map_beside_each_sheet_as_the_spec_says(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from generator.cli import app

    result = CliRunner().invoke(app, ["build", "once-upon-a-castle", "--out", str(tmp_path), "--format", "pdf"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "score-sheets" / "once-upon-a-castle"
    for version in VERSIONS:
        for paper in PAPER_IDS:
            name = f"castle-sheet-{version}-{paper}"
            assert (folder / f"{name}.pdf").exists()
            data = json.loads((folder / f"{name}.marks.json").read_text(encoding="utf-8"))
            assert list(data) == ["format", "sheet", "version", "paper", "page", "markers", "marks", "write_in"]
            assert (data["format"], data["sheet"], data["version"], data["paper"]) == (FORMAT, name, version, paper)
            assert data["page"] == {"width": round(PAPERS[paper][0], 3), "height": round(PAPERS[paper][1], 3)}
            assert all(list(m) == ["id", "x", "y", "size"] for m in data["markers"])
            # a digit of a number also says which (castle-marks.md: `digit`, tens or units)
            assert all(list(m) in (["field", "value", "shape", "x", "y", "width", "height"],
                                   ["field", "value", "shape", "x", "y", "width", "height", "digit"])
                       for m in data["marks"])
            assert {m["digit"] for m in data["marks"] if "digit" in m} <= {"tens", "units"}
            assert all(m["shape"] in ("circle", "square", "figure") for m in data["marks"])
            assert all(list(w) == ["field", "x", "y", "width", "height"] for w in data["write_in"])
            assert data == json.loads(scan_map(version, paper).to_json())
    # the fillable sheets have no map: they are read by their form fields
    assert not list(folder.glob("*-fillable.marks.json"))


def test_the_map_is_the_same_bytes_build_after_build() -> None:
    from generator.sheets.draw import draw_sheet
    from generator.games.castle.sheets import values

    first = scan_map("apprentice", "letter").to_json()
    again = draw_sheet(layout("apprentice"), "scan", "letter", values(shipped()), "castle-sheet-apprentice-letter").map
    assert again is not None and first == again.to_json()


def test_a_corrected_catalog_changes_the_map(tmp_path: Path) -> None:
    folder = tmp_path / "content"
    shutil.copytree(REPO / "content", folder)
    path = folder / "once-upon-a-castle" / "castle-sheet.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("values: [1, 2]", "values: [1, 2, 3]"),
                    encoding="utf-8")
    castle = load_content(folder).catalog(CASTLE)
    assert castle is not None
    the_map = drawn(castle, "great-architect", "a4", "scan").map
    assert the_map is not None
    assert [m.value for m in the_map.marks if m.field == "walls[0].flags[0]"] == [1, 2, 3]


def test_an_undecided_field_lists_its_marks_once_as_a_person_reads_them() -> None:
    """A tower whose unit marks glare washed out, and a flag whose two marks did: the marks undecided are named as a
    list ("units 0, 1, 3 and 9"), the digit's place said once, not "units 0 and units 1 and units 3 and units 9"."""
    from generator.sheets.marks import interpret

    the_map = sheet("great-architect", "a4", "scan").map
    assert the_map is not None
    unsure = {i for i, m in enumerate(the_map.marks)
              if (m.field == "towers[2]" and m.digit == "units" and m.value in (0, 1, 3, 9))
              or m.field == "walls[2].flags[1]"}
    states = [None if i in unsure else False for i in range(len(the_map.marks))]
    why = {u.field: u.why for u in interpret(the_map, states).uncertain}
    assert why["towers[2]"] == "the marks of units 0, 1, 3 and 9 are neither filled nor empty", why
    assert why["walls[2].flags[1]"] == "the marks of 1 and 2 are neither filled nor empty", why
