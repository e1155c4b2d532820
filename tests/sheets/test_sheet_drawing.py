"""The castle score sheet as drawn from its layouts: every part, each field's box drawn, all inside the page, the
catalog's values printed, and a catalog the layouts do not draw refused with a clear message."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.content import load_content
from generator.errors import ContentError, FitError
from generator.games.castle import GAME as CASTLE
from generator.games.castle.sheets import drawn
from generator.render.imposition import EDGE, FOOTER_EDGE, PAPERS
from generator.render.model import IconUse, Line, Path as PathShape, Primitive, Rect, TextRun, mm
from tests.sheets.helpers import PAPERS as PAPER_IDS
from tests.sheets.helpers import REPO, VERSIONS, sheet, shipped

BANNER = ("total_towers", "total_sky", "total_residents", "total_flags", "total_guests", "total")


def bounds(item: Primitive) -> tuple[float, float, float, float]:
    """left, top, right, bottom of a primitive (text from its baseline: ascent and descent at most one size)."""
    if isinstance(item, Rect):
        return item.x, item.y, item.x + item.w, item.y + item.h
    if isinstance(item, Line):
        return min(item.x1, item.x2), min(item.y1, item.y2), max(item.x1, item.x2), max(item.y1, item.y2)
    if isinstance(item, TextRun):
        return item.x, item.y - item.size, item.x + item.width, item.y + item.size * 0.3
    if isinstance(item, IconUse):
        return item.x, item.y, item.x + item.size, item.y + item.size
    if isinstance(item, PathShape):
        xs = [float(v) for op in item.ops for v in op[1::2]]
        ys = [float(v) for op in item.ops for v in op[2::2]]
        return min(xs), min(ys), max(xs), max(ys)
    raise AssertionError(item)


def texts(version: str, paper: str = "a4") -> str:
    return " ".join(i.text for i in sheet(version, paper).drawing.items if isinstance(i, TextRun))


def test_the_castle_has_the_catalogs_parts_left_to_right() -> None:
    boxes = sheet("great-architect", "a4").boxes
    towers = [boxes[f"tower_{n}_value"] for n in range(1, 5)]
    walls = [boxes[f"wall_{n}"] for n in range(1, 5)]
    floor = boxes["floor_1"]
    row = sorted([("tower", b.x) for b in towers] + [("wall", b.x) for b in walls] + [("donjon", floor.x)],
                 key=lambda part: part[1])
    assert [kind for kind, _ in row] == ["tower", "wall", "tower", "wall", "donjon", "wall", "tower", "wall", "tower"]
    # the walls nearest the donjon carry 2 flags, the outer ones 1: 6 flags in all (004 Flags)
    assert [sum(1 for name in boxes if name.startswith(f"wall_{n}_flag_")) for n in range(1, 5)] == [1, 2, 2, 1]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("paper", PAPER_IDS)
def test_every_field_has_its_box_and_every_box_is_drawn(version: str, paper: str) -> None:
    drawing = sheet(version, paper)
    rects = {(round(r.x, 2), round(r.y, 2), round(r.w, 2), round(r.h, 2))
             for r in drawing.drawing.items if isinstance(r, Rect) and r.paint.stroke is not None}
    assert [f.name for f in drawing.forms] == [e.form for e in drawing.entries]
    for name, box in drawing.boxes.items():
        if name == "version":
            continue  # hidden: nothing to draw
        assert (round(box.x, 2), round(box.y, 2), round(box.w, 2), round(box.h, 2)) in rects, name


@pytest.mark.parametrize("version", VERSIONS)
def test_the_sheet_has_the_twelve_parts_and_the_flag_places(version: str) -> None:
    boxes = sheet(version, "a4").boxes
    assert sorted(n for n in boxes if n.startswith("floor_")) == [f"floor_{n}" for n in range(1, 5)]
    assert sorted(n for n in boxes if n.startswith("tower_")) == [f"tower_{n}_value" for n in range(1, 5)]
    walls = sorted(n for n in boxes if n.startswith("wall_") and "flag" not in n)
    assert walls == [f"wall_{n}" for n in range(1, 5)]
    flags = {w: sum(1 for n in boxes if n.startswith(f"{w}_flag_")) for w in walls}
    assert sorted(flags.values()) == [1, 1, 2, 2]
    guests = [n for n in boxes if n.startswith("guest_")]
    assert len(guests) == (GUEST_SLOTS if version == "great-architect" else 4)
    assert ("sky_clouds" in boxes) == (version == "great-architect")
    for name in ("player", "sun", "cloud", "residents", *BANNER):
        assert name in boxes


#: The guest slots of a Great Architect fillable sheet: one per guest a castle can hold (its floors' and the guests
#: it steals, as often as it does: every guest of the box).
GUEST_SLOTS = 20


@pytest.mark.parametrize("version", VERSIONS)
def test_floors_stack_up_and_boxes_sit_in_their_parts(version: str) -> None:
    boxes = sheet(version, "letter").boxes
    floors = [boxes[f"floor_{n}"] for n in range(1, 5)]
    assert [f.y for f in floors] == sorted((f.y for f in floors), reverse=True), "floor 1 at the bottom"
    towers = [boxes[f"tower_{n}_value"] for n in range(1, 5)]
    assert [t.x for t in towers] == sorted(t.x for t in towers), "towers numbered left to right"
    # the flags of a wall sit above it, within its width
    for number in range(1, 5):
        wall = boxes[f"wall_{number}"]
        for name, box in boxes.items():
            if name.startswith(f"wall_{number}_flag_"):
                assert box.bottom < wall.y
                assert abs((box.x + box.w / 2) - (wall.x + wall.w / 2)) < mm(12)


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("paper", PAPER_IDS)
def test_nothing_leaves_the_printable_area_and_no_field_overlaps_another(version: str, paper: str) -> None:
    width, height = PAPERS[paper]
    drawn = sheet(version, paper)
    for item in drawn.drawing.items:
        left, top, right, bottom = bounds(item)
        assert left >= EDGE and top >= EDGE and right <= width - EDGE and bottom <= height - EDGE, item
    for variant in ("print", "fillable"):
        for item in sheet(version, paper, variant).page().items:
            left, top, right, bottom = bounds(item)
            assert left >= EDGE and right <= width - EDGE and bottom <= height - FOOTER_EDGE + 0.01, item
    boxes = [(n, b) for n, b in drawn.boxes.items() if n != "version"]
    for i, (name, a) in enumerate(boxes):
        for other, b in boxes[i + 1:]:
            apart = a.right <= b.x or b.right <= a.x or a.bottom <= b.y or b.bottom <= a.y
            assert apart, f"{name} overlaps {other}"


def test_values_no_rulebook_states_are_labelled_on_the_sheet() -> None:
    for version in VERSIONS:
        words = texts(version)
        assert "Resident groups: house default, not official; change them in castle-sheet.yaml." in words
        assert "Tower values 2 or 5: best reading, not official." in words
        assert "Flag values 1 or 2: best reading, not official." in words
        marks = [i for i in sheet(version, "a4").drawing.items if isinstance(i, IconUse) and i.name == "inferred"]
        assert len(marks) >= 5  # beside the tower and flag values, the track, and in the small print
    assert "guest VP from 0 to 10: house default, not official." in texts("apprentice")
    assert "guest VP" not in texts("great-architect")


def test_the_resident_track_is_the_catalogs() -> None:
    drawn = sheet("great-architect", "a4")
    words = texts("great-architect")
    for group in shipped().sheet.resident_track.groups:
        assert f"{group.points} pt" in words and f"{group.first}-{group.last}" in words
    figures = [i for i in drawn.drawing.items if isinstance(i, IconUse) and i.name == "resident-blank"]
    assert len(figures) == shipped().sheet.resident_track.length  # one figure to colour in per resident


def test_each_version_says_what_its_guests_are() -> None:
    assert "write its name" in texts("great-architect")
    assert "Courtesan 1 VP per crown guest" in texts("great-architect")
    assert "write the VP printed on its card" in texts("apprentice")
    assert "Extra clouds" in texts("great-architect") and "Extra clouds" not in texts("apprentice")


@pytest.fixture
def content_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "content"
    shutil.copytree(REPO / "content", folder)
    return folder


def edit(folder: Path, old: str, new: str) -> None:
    path = folder / "once-upon-a-castle" / "castle-sheet.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_corrected_catalog_changes_the_values_on_the_sheet(content_copy: Path) -> None:
    edit(content_copy, "    - {first: 26, last: 30, points: 12}\n", "    - {first: 26, last: 33, points: 15}\n")
    edit(content_copy, "values: [2, 5]", "values: [2, 3, 5]")
    edit(content_copy, "  sun_points: 4 ", "  sun_points: 5 ")
    castle = load_content(content_copy).catalog(CASTLE)
    assert castle is not None
    drawing = drawn(castle, "great-architect", "letter", "fillable")
    words = " ".join(i.text for i in drawing.drawing.items if isinstance(i, TextRun))
    assert "15 pts" in words and "26-33" in words and "2, 3 or 5" in words and "Sun · 5 points" in words
    figures = [i for i in drawing.drawing.items if isinstance(i, IconUse) and i.name == "resident-blank"]
    assert len(figures) == 33


def test_a_castle_the_layouts_do_not_draw_is_refused(content_copy: Path) -> None:
    edit(content_copy, "  towers: 4\n", "  towers: 5\n")
    edit(content_copy, "walls_with_two_flags: 2", "walls_with_two_flags: 3")
    edit(content_copy, "walls_with_one_flag: 2", "walls_with_one_flag: 1")
    castle = load_content(content_copy).catalog(CASTLE)
    assert castle is not None
    with pytest.raises(ContentError) as caught:
        drawn(castle, "apprentice", "letter", "fillable")
    message = str(caught.value)
    assert "the castle has 5 towers, but the sheet layout templates/sheets/castle-apprentice.yaml draws 4" in message
    assert "the castle has [1, 2, 2, 2] flags on its walls" in message and "draws [1, 1, 2, 2]" in message


def test_stated_values_carry_no_mark(content_copy: Path) -> None:
    path = content_copy / "once-upon-a-castle" / "castle-sheet.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("tower_values:")
    end = text.index("flag_values:")
    path.write_text(text[:start] + 'tower_values:\n  values: [2, 5]\n  rulebook: "as printed on my pad"\n\n'
                    + text[end:], encoding="utf-8")
    castle = load_content(content_copy).catalog(CASTLE)
    assert castle is not None
    words = " ".join(i.text for i in drawn(castle, "apprentice", "a4", "fillable").drawing.items
                     if isinstance(i, TextRun))
    assert "Tower values" not in words and "Flag values 1 or 2: best reading" in words


def test_a_track_too_long_for_the_page_is_a_clear_error(content_copy: Path) -> None:
    edit(content_copy, "    - {first: 26, last: 30, points: 12}\n",
         "    - {first: 26, last: 30, points: 12}\n"
         + "".join(f"    - {{first: {a}, last: {a + 29}, points: 20}}\n" for a in range(31, 400, 30)))
    castle = load_content(content_copy).catalog(CASTLE)
    assert castle is not None
    with pytest.raises(FitError) as caught:
        drawn(castle, "great-architect", "a4", "fillable")
    message = str(caught.value)
    assert message.startswith("templates/sheets/castle.yaml:")
    assert "parts.residents.parts.track: its 420 figures need" in message
    assert "(the sheet castle-sheet-great-architect-a4 (A4, fillable))" in message


def test_guest_names_print_as_written(content_copy: Path) -> None:
    path = content_copy / "once-upon-a-castle" / "guests.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("name: Jester,", "name: \"Jester *the* Fool\\\\\","), encoding="utf-8")
    castle = load_content(content_copy).catalog(CASTLE)
    assert castle is not None
    words = " ".join(i.text for i in drawn(castle, "great-architect", "a4", "fillable").drawing.items
                     if isinstance(i, TextRun))
    assert "Jester *the* Fool\\ 1 VP per donjon floor" in words
