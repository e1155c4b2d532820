"""The drawing vocabulary of layouts (issue 23): shapes, fills, hatching, turning, opacity, layers, clipped,
masked and recoloured pictures, justified, hyphenated, spaced and outlined text. Every key in one card's golden
SVG and PDF (tests/render/vocabulary/), the model's new primitives in both backends, and what each key is for,
with the mistakes a layout can make reported by file and line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import check_golden, check_golden_pdf
from generator.backends.pdf import write_pdf
from generator.backends.svg import drawing_svg
from generator.errors import ContentError
from generator.layout.draw import DeckView, draw, subject
from generator.layout.load import Layout, clear_cache, load_layout
from generator.render import fonts
from generator.render.model import (
    Circle,
    Drawing,
    Gradient,
    Group,
    ImageUse,
    Line,
    Paint,
    Path as Outline,
    Rect,
    TextRun,
    leaves,
    mm,
)
from generator.render.shapes import ellipse, rotation
from agreement import DPI, MOST_DIFFERING, RSVG, differing_share
from render_helpers import GOLDEN, REPO, run
from test_backends import single_pages

VOCABULARY = Path(__file__).resolve().parent / "vocabulary"
DECK = DeckView("deck", "Deck", "game", "Game", 1)
#: The keys the vocabulary added to layouts: the vocabulary card uses every one (checked below), so its golden
#: files hold every one.
NEW_KEYS = ("layer", "rotate", "pivot", "opacity", "flip", "hatch", "sides", "points", "inner", "angle", "d", "viewbox",
            "cap", "x1", "y1", "x2", "y2", "clip", "mask", "language", "hyphenate", "letter_spacing", "outline",
            "outline_width", "gradient", "stops", "center", "spacing")
NEW_KINDS = ("ellipse", "polygon", "star", "path")


@pytest.fixture(autouse=True)
def _fresh() -> None:
    clear_cache()


def layout(tmp_path: Path, text: str) -> Layout:
    clear_cache()  # loaded layouts are cached by file: each test writes its own over the last
    (tmp_path / "layout.yaml").write_text(text, encoding="utf-8")
    return load_layout("layout.yaml", tmp_path)


def drawn(tmp_path: Path, text: str, data: dict[str, str] | None = None, width: float = mm(63),
          height: float = mm(88)) -> Drawing:
    return draw(layout(tmp_path, text), subject(data or {}, None, DECK, {}, "test card", folder=tmp_path),
                width, height, 0.0)


def problems(tmp_path: Path, text: str) -> str:
    with pytest.raises(ContentError) as caught:
        layout(tmp_path, text)
    return str(caught.value)


# --- every key, golden ------------------------------------------------------------------------------------------

def test_the_vocabulary_card_uses_every_new_key() -> None:
    text = (VOCABULARY / "layout.yaml").read_text(encoding="utf-8")
    keys = set(re.findall(r"([a-z_0-9]+):", text))
    assert set(NEW_KEYS) <= keys, sorted(set(NEW_KEYS) - keys)
    assert all(f"kind: {kind}" in text for kind in NEW_KINDS)
    assert "align: justify" in text and "| palette" in text


@pytest.fixture(scope="module")
def vocabulary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vocabulary")
    result = run("build", "--content", str(VOCABULARY), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    result = run("export", "png", "--content", str(VOCABULARY), "--out", str(out), "--preset", "plain", "--dpi",
                 str(DPI), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    return out


def test_the_vocabulary_card_golden_svg_and_pdf(vocabulary: Path, regenerate: bool) -> None:
    svg = vocabulary / "decks" / "vocabulary" / "svg" / "001-dragonne.svg"
    check_golden(GOLDEN / "vocabulary--001-dragonne.svg", svg.read_bytes(), regenerate)
    check_golden_pdf(GOLDEN / "vocabulary.pdf", (vocabulary / "decks" / "vocabulary.pdf").read_bytes(), regenerate)


def test_the_vocabulary_card_gives_the_same_bytes_every_time(vocabulary: Path, tmp_path: Path) -> None:
    """Gradients, groups, masks and recoloured pictures are named and numbered in order: a second build and export
    of the same card give byte-identical PDF, SVG and PNG files."""
    again = tmp_path / "again"
    assert run("build", "--content", str(VOCABULARY), "--out", str(again)).exit_code == 0
    assert run("export", "png", "--content", str(VOCABULARY), "--out", str(again), "--preset", "plain", "--dpi",
               str(DPI), "--jobs", "1").exit_code == 0
    for relative in ("decks/vocabulary.pdf", "decks/vocabulary/svg/001-dragonne.svg",
                     "png/decks/vocabulary/001-dragonne.png"):
        assert (again / relative).read_bytes() == (vocabulary / relative).read_bytes(), relative


@pytest.mark.skipif(RSVG is None, reason="needs rsvg-convert (apt-get install librsvg2-bin); CI installs it")
def test_the_vocabulary_card_looks_the_same_in_its_pdf_and_its_svg(vocabulary: Path) -> None:
    share = differing_share(vocabulary / "png" / "decks" / "vocabulary" / "001-dragonne.png",
                            vocabulary / "decks" / "vocabulary" / "svg" / "001-dragonne.svg")
    assert share <= MOST_DIFFERING, f"{share:.2%} of the pixels differ"


# --- the model's new primitives in both backends -------------------------------------------------------------------

def new_primitives(picture: Path) -> Drawing:
    text = "Outlined"
    width = (fonts.width("cardo-bold", text) + len(text) * 0.1) * 14
    gradient = Gradient("linear", (mm(2), 0, mm(58), 0), ((0.0, "#c0392b"), (0.5, "#e8c872"), (1.0, "#2f4f8f")))
    return Drawing(mm(60), mm(50), (
        Rect(mm(2), mm(2), mm(56), mm(16), Paint(gradient, "#000000", 1.0)),
        Outline(ellipse(mm(15), mm(30), mm(10), mm(8)), Paint(Gradient("radial", (mm(12), mm(27), mm(12)),
                                                                         ((0.0, "#ffffff"), (1.0, "#2e7d32"))))),
        Group((Rect(mm(30), mm(22), mm(20), mm(10), Paint("#aa00aa")), Rect(mm(35), mm(26), mm(20), mm(10),
                                                                            Paint("#00aaaa"))),
              rotation(30, mm(40), mm(28)), 0.5),
        Group((ImageUse(str(picture), mm(2), mm(38), mm(16), mm(10)),), clip=ellipse(mm(10), mm(43), mm(8), mm(5))),
        Group((Rect(mm(20), mm(38), mm(14), mm(10), Paint("#ff6600")),), mask=ImageUse(str(picture), mm(20), mm(38),
                                                                                         mm(14), mm(10))),
        ImageUse(str(picture), mm(36), mm(38), mm(10), mm(10), tint="#2f4f8f"),
        TextRun(mm(4), mm(13), text, "cardo-bold", 14, "#ffffff", round(width, 3), spacing=1.4, outline="#000000",
                outline_width=0.8),
        Line(mm(48), mm(40), mm(57), mm(48), "#000000", 2.0, (), "round"),
    ), 0.0, "new", "#ffffff")


def test_the_new_primitives_in_svg_and_pdf(tmp_path: Path, regenerate: bool) -> None:
    from pictures import png

    picture = png(tmp_path / "picture.png", (60, 40))
    drawing = new_primitives(picture)
    check_golden(GOLDEN / "new-primitives.svg", drawing_svg(drawing, "new primitives"), regenerate)
    pdf = tmp_path / "new.pdf"
    write_pdf(single_pages([drawing]), pdf, title="new primitives")
    check_golden_pdf(GOLDEN / "new-primitives.pdf", pdf.read_bytes(), regenerate)


@pytest.mark.parametrize("change", ["a gradient's colour", "a group's opacity", "a turn", "an outline's width",
                                    "a tint"])
def test_the_golden_pdf_comparison_sees_the_new_primitives(tmp_path: Path, change: str) -> None:
    """A shading, a graphics state, a transform and a recoloured picture are compared for what they draw."""
    from pictures import png

    drawing = new_primitives(png(tmp_path / "picture.png", (60, 40)))
    items = list(drawing.items)
    if change == "a gradient's colour":
        rect = items[0]
        assert isinstance(rect, Rect) and isinstance(rect.paint.fill, Gradient)
        items[0] = rect._replace(paint=rect.paint._replace(fill=rect.paint.fill._replace(
            stops=((0.0, "#c0392b"), (0.5, "#e8c872"), (1.0, "#2f4f9f")))))
    elif change in ("a group's opacity", "a turn"):
        group = items[2]
        assert isinstance(group, Group)
        items[2] = group._replace(opacity=0.6) if change == "a group's opacity" else group._replace(
            matrix=rotation(31, mm(40), mm(28)))
    elif change == "an outline's width":
        run_ = items[6]
        assert isinstance(run_, TextRun)
        items[6] = run_._replace(outline_width=1.0)
    else:
        picture = items[5]
        assert isinstance(picture, ImageUse)
        items[5] = picture._replace(tint="#2f4f9f")
    pdf = tmp_path / "changed.pdf"
    write_pdf(single_pages([drawing._replace(items=tuple(items))]), pdf, title="new primitives")
    with pytest.raises(AssertionError, match="draws something else than golden file"):
        check_golden_pdf(GOLDEN / "new-primitives.pdf", pdf.read_bytes(), regenerate=False)


def test_a_gradient_is_defined_once_per_file_and_per_pdf(tmp_path: Path) -> None:
    gradient = Gradient("linear", (0, 0, 100, 0), ((0.0, "#000000"), (1.0, "#ffffff")))
    items = tuple(Rect(0, 10 * i, 100, 10, Paint(gradient)) for i in range(5))
    drawing = Drawing(100, 60, items, key="x")
    assert drawing_svg(drawing).count("<linearGradient") == 1
    pdf = tmp_path / "g.pdf"
    write_pdf(single_pages([drawing]), pdf, title="g")
    import pikepdf

    with pikepdf.open(pdf) as doc:
        shadings = [o for o in doc.objects if isinstance(o, pikepdf.Dictionary) and "/ShadingType" in o]
    assert len(shadings) == 1


# --- shapes -----------------------------------------------------------------------------------------------------

SHAPES = """\
background: "#ffffff"
boxes:
  hexagon: {kind: polygon, sides: 6, x: 4mm, y: 4mm, width: 20mm, height: 23.09mm, fill: "#224488"}
  flat: {kind: polygon, sides: 6, angle: 30, x: 30mm, y: 4mm, width: 23.09mm, height: 20mm, fill: "#224488"}
  star: {kind: star, points: 5, inner: 40%, x: 4mm, y: 30mm, width: 20mm, height: 20mm, stroke: "#000000",
         stroke_width: 1pt}
  tri: {kind: polygon, points: "0 100%, 50% 0, 100% 100%", x: 30mm, y: 30mm, width: 20mm, height: 10mm, fill: "#aa0000"}
  oval: {kind: ellipse, x: 4mm, y: 55mm, width: 30mm, height: 10mm, fill: "#00aa00"}
  tag: {kind: rect, radius: 4mm 0 2mm 0, x: 36mm, y: 55mm, width: 20mm, height: 10mm, fill: "#000000"}
  wave: {kind: path, d: "M 0 5 C 5 0 10 10 15 5", x: 4mm, y: 70mm, width: 30mm, height: 8mm, stroke: "#000000",
         stroke_width: 1pt, cap: round}
  dash: {kind: line, x1: 36mm, y1: 72mm, x2: 56mm, y2: 80mm, stroke: "#000000", stroke_width: 2pt, cap: square,
         dash: 2pt 2pt}
"""


def test_shapes_are_outlines_filling_their_box(tmp_path: Path) -> None:
    items = {i: item for i, item in enumerate(drawn(tmp_path, SHAPES).items)}
    hexagon, flat, star, tri, oval, tag, wave, dash = (items[i] for i in range(8))
    assert isinstance(hexagon, Outline) and len([op for op in hexagon.ops if op[0] == "L"]) == 5
    points = [(float(op[1]), float(op[2])) for op in hexagon.ops if op[0] in ("M", "L")]
    assert min(p[0] for p in points) == pytest.approx(mm(4), abs=0.01)  # the hexagon fills its box
    assert min(p[1] for p in points) == pytest.approx(mm(4), abs=0.01)  # a point at the top
    assert isinstance(flat, Outline)
    top = min(float(op[2]) for op in flat.ops if op[0] in ("M", "L"))
    assert top == pytest.approx(mm(4), abs=0.01)
    tops = [op for op in flat.ops if op[0] in ("M", "L") and abs(float(op[2]) - mm(4)) < 0.01]
    assert len(tops) == 2  # flat-topped: two corners on the top edge
    assert isinstance(star, Outline) and len([op for op in star.ops if op[0] in ("M", "L")]) == 10
    assert star.paint.fill is None and star.paint.stroke == "#000000"
    assert isinstance(tri, Outline) and [op[0] for op in tri.ops] == ["M", "L", "L", "Z"]
    assert isinstance(oval, Outline) and [op[0] for op in oval.ops].count("C") == 4
    assert isinstance(tag, Outline) and [op[0] for op in tag.ops].count("C") == 2  # two round corners of four
    assert isinstance(wave, Outline) and wave.paint.cap == "round"
    assert isinstance(dash, Line) and (dash.x1, dash.y2, dash.cap, dash.dash) == (round(mm(36), 3), round(mm(80), 3),
                                                                                  "square", (2.0, 2.0))


def test_the_path_reader(tmp_path: Path) -> None:
    from generator.render.shapes import PathDataError, bounds, parse_path

    # relative commands, H and V, a close then more lines from the subpath's start
    ops = parse_path("m10 10 h20 v20 z l5 5")
    assert ops[:4] == (("M", 10.0, 10.0), ("L", 30.0, 10.0), ("L", 30.0, 30.0), ("Z",))
    assert ops[4:] == (("M", 10.0, 10.0), ("L", 15.0, 15.0))
    # an arc's flags written without spaces (as minifiers write them): a half circle of radius 5 from 0,0 to 10,0
    arc = parse_path("M0 0a5 5 0 0110 0")
    assert bounds(arc) == pytest.approx((0.0, -5.0, 10.0, 0.0), abs=0.01)
    # quadratic and smooth curves become cubics
    assert {op[0] for op in parse_path("M0 0 Q 5 10 10 0 T 20 0 S 30 10 40 0")} == {"M", "C"}
    for bad, said in (("L 1 2", "must start with M"), ("M 1", "needs 2 numbers"), ("M 0 0 A 1 1 0 2 0 5 5", "flag"),
                      ("M 0 0 L 1 x", "needs 2 numbers"), ("", "empty")):
        with pytest.raises(PathDataError, match=said):
            parse_path(bad)


def test_wrong_path_data_names_the_character_a_designer_counts() -> None:
    """The positions in a path data error count the `d` text from 1 and name the command letter or the wrong
    character itself: they named the space before a command ("L at character 6" for the 7th character, the
    comma before it after a comma), and the space before a missing flag or number. A command at the very start was
    already right and stays so; data ending too soon names the place one past its last character."""
    from generator.render.shapes import PathDataError, parse_path

    for data, command, wrong in (("M 5 x", "M", "x"),  # the command at the very start
                                 ("M 0 0 L 5 x", "L", "x"),  # after a space
                                 ("M0,0,L5,x", "L", "x"),  # after a comma
                                 ("M 0 0 ,  A 5 5 0 2 1 3 4", "A", "2"),  # after a comma and spaces: a flag
                                 ("M 0 0 L 5", "L", "")):  # the data ends before the number
        with pytest.raises(PathDataError) as err:
            parse_path(data)
        at, pos = (int(n) for n in re.findall(r"character (\d+)", str(err.value)))
        assert data[at - 1] == command, (data, str(err.value))
        assert data[pos - 1:pos] == wrong and pos == (data.index(wrong, at) + 1 if wrong else len(data) + 1), \
            (data, str(err.value))
    for data in ("M 0 0 Z 1", "M 0 0 Z,1", "M 0 0 Z , 1"):  # after a close
        with pytest.raises(PathDataError) as err:
            parse_path(data)
        assert str(err.value) == f"unexpected '1' at character {data.index('1') + 1} (after Z)"


def test_outlines_grow_and_shrink(tmp_path: Path) -> None:
    from generator.catalog.shapes import Shape
    from generator.render.shapes import bounds, outline

    hexagon = Shape("polygon", sides=6)
    assert bounds(outline(hexagon, 0, 0, 60, 69.28, 3)) == pytest.approx((-3.0, -3.464, 63.0, 72.744), abs=0.01)
    assert bounds(outline(Shape("circle"), 0, 0, 20, 30, -2)) == pytest.approx((2.0, 7.0, 18.0, 23.0), abs=0.01)
    rounded = outline(Shape("rect", (3.0, 3.0, 3.0, 3.0)), 0, 0, 50, 50, 2)
    assert bounds(rounded) == pytest.approx((-2.0, -2.0, 52.0, 52.0), abs=0.01)
    star = outline(Shape("star", tips=5, inner=0.2), 0, 0, 50, 50, 3)
    x0, y0, x1, y1 = bounds(star)
    assert y0 > -3 * 4.5 and x1 < 50 + 3 * 4.5  # sharp tips are cut square beyond the mitre limit


def test_shape_mistakes_are_named_by_line(tmp_path: Path) -> None:
    base = 'background: "#ffffff"\nboxes:\n'
    said = problems(tmp_path, base + '  p: {kind: polygon, x: 0, y: 0, width: 5mm, height: 5mm, fill: "#000000"}\n')
    assert "layout.yaml:3: boxes.p: a polygon needs `sides`" in said
    said = problems(tmp_path, base + '  s: {kind: star, points: "0 0, 1mm 1mm, 2mm 0", x: 0, y: 0, width: 5mm, '
                                     'height: 5mm, fill: "#000000"}\n')
    assert "boxes.s.points: a star's points are a number" in said
    said = problems(tmp_path, base + '  w: {kind: path, d: "M 0 0 L 5", x: 0, y: 0, width: 5mm, height: 5mm, '
                                     'stroke: "#000000", stroke_width: 1pt}\n')
    assert "layout.yaml:3: boxes.w.d: L at character 7 needs 2 numbers" in said
    said = problems(tmp_path, base + '  e: {kind: ellipse, x: 0, y: 0, width: 5mm, height: 5mm}\n')
    assert "an ellipse box needs a fill, a stroke or a hatch" in said
    said = problems(tmp_path, base + '  l: {kind: line, x1: 0, y1: 0, x2: 5mm, y2: 5mm, x: 0, stroke: "#000000", '
                                     'stroke_width: 1pt}\n')
    assert "not both" in said
    said = problems(tmp_path, base + '  r: {kind: rect, radius: 1mm 2mm, x: 0, y: 0, width: 5mm, height: 5mm, '
                                     'fill: "#000000"}\n')
    assert "boxes.r.radius: expected one corner radius (3mm) or four" in said


# --- fills, hatching, opacity, turning, layers -------------------------------------------------------------------

def test_gradients_take_palette_names_templates_and_stops(tmp_path: Path) -> None:
    text = """\
background: "#ffffff"
palette: {night: "#101830", kingdom: "#2f4f8f"}
boxes:
  band: {kind: rect, x: 0, y: 0, width: 100%, height: 20mm,
         fill: {gradient: linear, stops: ["{{ faction | palette }}", "#ffffff 30%", night]}}
  glow: {kind: circle, x: 10mm, y: 30mm, width: 20mm, height: 20mm,
         fill: {gradient: radial, center: 25% 25%, radius: 50%, stops: [night, kingdom]}}
"""
    band, glow = drawn(tmp_path, text, {"faction": "Kingdom"}).items
    assert isinstance(band, Rect) and isinstance(band.paint.fill, Gradient)
    assert band.paint.fill.stops == ((0.0, "#2f4f8f"), (0.3, "#ffffff"), (1.0, "#101830"))
    x1, y1, x2, y2 = band.paint.fill.coords  # top to bottom by default
    assert x1 == pytest.approx(x2) and y1 == pytest.approx(0) and y2 == pytest.approx(mm(20), abs=0.01)
    assert isinstance(glow, Circle) and isinstance(glow.paint.fill, Gradient)
    cx, cy, r = glow.paint.fill.coords
    assert (cx, cy) == pytest.approx((mm(15), mm(35)), abs=0.01)
    assert r == pytest.approx(0.5 * ((mm(15)) ** 2 + mm(15) ** 2) ** 0.5, abs=0.01)  # half way to the far corner
    with pytest.raises(ContentError, match="neither '#rrggbb', 'none' nor a palette name"):
        drawn(tmp_path, text, {"faction": "Horde"})


def test_hatching_is_lines_clipped_to_the_shape(tmp_path: Path) -> None:
    text = """\
background: "#ffffff"
boxes:
  tag: {kind: ellipse, x: 10mm, y: 10mm, width: 30mm, height: 10mm, fill: "#eeeeee", stroke: "#000000",
        stroke_width: 1pt, hatch: {colour: "#ff0000", angle: 0, spacing: 2mm, width: 0.4pt}}
"""
    fill, hatch, stroke = drawn(tmp_path, text).items
    assert isinstance(fill, Outline) and fill.paint.stroke is None
    assert isinstance(hatch, Group) and hatch.clip == fill.ops
    [lines] = hatch.items  # one path of many lines
    assert isinstance(lines, Outline) and lines.paint == Paint(None, "#ff0000", 0.4)
    starts, ends = lines.ops[::2], lines.ops[1::2]
    assert {op[0] for op in starts} == {"M"} and {op[0] for op in ends} == {"L"}
    assert all(a[2] == b[2] for a, b in zip(starts, ends))  # angle 0: horizontal
    ys = sorted({float(op[2]) for op in starts})
    assert ys[1] - ys[0] == pytest.approx(mm(2), abs=0.01)
    assert isinstance(stroke, Outline) and stroke.paint.fill is None and stroke.paint.stroke == "#000000"
    said = problems(tmp_path, text.replace("spacing: 2mm", "spacing: 0.1pt"))
    assert "the lines' spacing must be larger than their width" in said


def test_a_turned_box_is_a_group_about_its_pivot(tmp_path: Path) -> None:
    text = """\
background: "#ffffff"
boxes:
  corner: {kind: rect, x: 4mm, y: 4mm, width: 10mm, height: 6mm, fill: "#000000"}
  turned: {extends: corner, rotate: 180, pivot: card}
  faint: {extends: corner, y: 20mm, opacity: 0.4}
  side: {extends: corner, y: 30mm, rotate: 90, pivot: top-left, x: 20mm}
  mirrored: {extends: corner, y: 50mm, flip: horizontal}
"""
    corner, turned, faint, side, mirrored = drawn(tmp_path, text).items
    assert isinstance(turned, Group) and turned.opacity == 1.0 and turned.items == (corner,)
    from generator.render.shapes import apply

    assert turned.matrix is not None
    # the top-left corner's box lands upside down against the bottom-right corner
    assert apply(turned.matrix, mm(4), mm(4)) == pytest.approx((mm(59), mm(84)), abs=0.01)
    assert isinstance(faint, Group) and faint.matrix is None and faint.opacity == 0.4
    assert isinstance(side, Group) and side.matrix is not None
    assert apply(side.matrix, mm(30), mm(30)) == pytest.approx((mm(20), mm(40)), abs=0.01)
    assert isinstance(mirrored, Group) and mirrored.matrix is not None  # left and right swapped about its centre
    assert apply(mirrored.matrix, mm(4), mm(50)) == pytest.approx((mm(14), mm(50)), abs=0.01)


def test_a_turned_box_must_stay_on_the_card(tmp_path: Path) -> None:
    text = ('background: "#ffffff"\nboxes:\n  bar: {kind: rect, x: 3mm, y: 2mm, width: 58mm, height: 4mm, '
            'pivot: top-left, fill: "#000000"}\n')
    drawn(tmp_path, text.replace("fill:", "rotate: 30, fill:"))  # turned down into the card
    with pytest.raises(ContentError, match=r"boxes.bar: on a 63 x 88 mm card the box once turned -30 degrees spans"):
        drawn(tmp_path, text.replace("fill:", "rotate: -30, fill:"))  # turned up, off its top edge


def test_layers_draw_in_order(tmp_path: Path) -> None:
    text = """\
background: "#ffffff"
boxes:
  a: {kind: rect, layer: 1, x: 4mm, y: 4mm, width: 5mm, height: 5mm, fill: "#000001"}
  b: {kind: rect, x: 4mm, y: 4mm, width: 5mm, height: 5mm, fill: "#000002"}
  c: {kind: rect, layer: -1, x: 4mm, y: 4mm, width: 5mm, height: 5mm, fill: "#000003"}
  d: {kind: rect, x: 4mm, y: 4mm, width: 5mm, height: 5mm, fill: "#000004"}
"""
    fills = [item.paint.fill for item in drawn(tmp_path, text).items if isinstance(item, Rect)]
    assert fills == ["#000003", "#000002", "#000004", "#000001"]


# --- pictures ---------------------------------------------------------------------------------------------------

def test_pictures_are_clipped_masked_and_recoloured(tmp_path: Path) -> None:
    from pictures import png, svg

    png(tmp_path / "art.png")
    png(tmp_path / "mask.png", colour="#000000")
    svg(tmp_path / "crest.svg")
    text = """\
background: "#ffffff"
palette: {kingdom: "#2f4f8f"}
boxes:
  round: {kind: image, x: 4mm, y: 4mm, width: 20mm, height: 20mm, src: art.png, fit: cover, clip: circle}
  masked: {kind: image, x: 30mm, y: 4mm, width: 20mm, height: 20mm, src: art.png, mask: mask.png}
  crest: {kind: image, x: 4mm, y: 30mm, width: 20mm, height: 20mm, src: crest.svg, colour: "{{ faction | palette }}"}
  plain: {kind: image, x: 30mm, y: 30mm, width: 20mm, height: 20mm, src: art.png, fit: cover, clip: rect}
"""
    rounded, masked, crest, plain = drawn(tmp_path, text, {"faction": "Kingdom"}).items
    assert isinstance(rounded, Group) and rounded.clip is not None and rounded.mask is None
    [picture] = rounded.items
    assert isinstance(picture, ImageUse) and picture.clip is None  # the circle crops it, not its box
    assert isinstance(masked, Group) and masked.mask is not None and masked.mask.source.endswith("mask.png")
    assert (masked.mask.x, masked.mask.w) == (round(mm(30), 3), round(mm(20), 3))
    assert isinstance(crest, ImageUse) and crest.tint == "#2f4f8f"
    assert isinstance(plain, ImageUse) and plain.clip is not None  # a plain rect clip is the box's own
    said = problems(tmp_path, text.replace("clip: circle}", "clip: circle, sides: 6}"))
    assert "boxes.round: sides means nothing to a picture clipped to a circle" in said
    said = problems(tmp_path, text.replace("src: art.png, mask: mask.png", "src: art.png, radius: 2mm"))
    assert "boxes.masked: radius, sides, points" in said and "give `clip`" in said
    said = problems(tmp_path, text.replace("mask: mask.png", "mask: missing.png"))
    assert "boxes.masked.mask: the picture 'missing.png': there is no such file" in said


def test_a_picture_is_clipped_to_a_decks_named_shapes(tmp_path: Path) -> None:
    """`clip: hexagon` and `clip: rounded`, the words of a deck's `shape`, clip as the outlines they name."""
    from pictures import png

    png(tmp_path / "art.png")
    box = "{kind: image, x: 4mm, y: 4mm, width: 30mm, height: 34.64mm, src: art.png, fit: cover, clip: %s}"
    text = 'background: "#ffffff"\nboxes:\n  art: ' + box + "\n"
    for named, spelt_out in (("hexagon", "polygon, sides: 6"), ("rounded", "rect, radius: 3.175mm"),
                             ("hexagon, angle: 30", "polygon, sides: 6, angle: 30")):
        [clipped] = drawn(tmp_path, text % named, {}).items
        assert isinstance(clipped, Group) and clipped.clip is not None, named
        assert clipped == drawn(tmp_path, text % spelt_out, {}).items[0], named
    assert "boxes.art.clip" in problems(tmp_path, text % "hexagons")


def test_recolouring_keeps_the_shape(tmp_path: Path) -> None:
    from PIL import Image

    from generator.render.images import image_data
    from generator.render.recolour import recolour
    from pictures import png, svg

    info, data = image_data(svg(tmp_path / "a.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                                  '<rect width="10" height="10" fill="none" stroke="#123456"/>'
                                                  '<circle cx="5" cy="5" r="3" style="fill:#abcdef;opacity:0.5"/>'
                                                  '<path d="M0 0 L1 1"/></svg>'))
    new_info, new = recolour(info, data, "#ff0000")
    text = new.decode("utf-8")
    assert 'fill="none"' in text and 'stroke="#ff0000"' in text and "fill:#ff0000;opacity:0.5" in text
    assert "#123456" not in text and "#abcdef" not in text
    assert 'fill="#ff0000"' in text.split(">", 2)[1]  # the black a shape gets with no fill of its own
    assert new_info.digest != info.digest and new_info.kind == "svg"
    # a PNG with transparency keeps it; one without reads as ink on paper
    info, data = image_data(png(tmp_path / "alpha.png", (40, 40), alpha=True))
    _info, new = recolour(info, data, "#00ff00")
    import io

    with Image.open(io.BytesIO(new)) as image:
        assert image.mode == "RGBA" and image.getpixel((20, 20)) == (0, 255, 0, 255)
        assert image.getchannel("A").getpixel((0, 0)) == 0
    info, data = image_data(png(tmp_path / "ink.png", (40, 40), colour="#ffffff"))
    _info, new = recolour(info, data, "#0000ff")
    with Image.open(io.BytesIO(new)) as image:
        assert image.getchannel("A").getpixel((0, 0)) == 0  # white paper: transparent
        assert image.convert("RGB").getpixel((20, 20)) == (0, 0, 255) and image.getchannel("A").getpixel((20, 20)) != 0


def test_the_palette_filter() -> None:
    from generator.layout.templates import palette_name

    assert palette_name("Deep Sea") == "deep-sea" and palette_name("Forêt") == "foret" and palette_name(3) == "3"


# --- typography -------------------------------------------------------------------------------------------------

TEXT = """\
background: "#ffffff"
styles:
  body: {font: cardo, size: 10pt, min_size: 10pt, colour: "#000000", align: justify}
boxes:
  body: {kind: text, x: 5mm, y: 5mm, width: 40mm, height: 60mm, style: body, text: "{{ text }}"}
"""
SENTENCE = ("A long sentence of ordinary words that wraps over several lines of the box, so that every line but "
            "the last is spread to the full width.\nA second paragraph ends short.")


def test_justified_lines_reach_both_edges_but_the_last_of_a_paragraph(tmp_path: Path) -> None:
    runs = [r for r in drawn(tmp_path, TEXT, {"text": SENTENCE}).items if isinstance(r, TextRun)]
    lines: dict[float, list[TextRun]] = {}
    for r in runs:
        lines.setdefault(r.y, []).append(r)
    rights = [max(r.x + r.width for r in line) for _y, line in sorted(lines.items())]
    lefts = [min(r.x for r in line) for _y, line in sorted(lines.items())]
    assert all(left == pytest.approx(mm(5), abs=0.01) for left in lefts)
    last_of_first = next(i for i, (_y, line) in enumerate(sorted(lines.items())) if line[-1].text.endswith("width."))
    for index, right in enumerate(rights):
        ends_paragraph = index in (last_of_first, len(rights) - 1)
        assert (right == pytest.approx(mm(45), abs=0.05)) != ends_paragraph, index


def test_hyphenation_by_the_box_language(tmp_path: Path) -> None:
    text = TEXT.replace("align: justify", "language: fr").replace("width: 40mm", "width: 30mm")
    words = "Les chevaliers extraordinairement courageux"
    runs = [r.text for r in drawn(tmp_path, text, {"text": words}).items if isinstance(r, TextRun)]
    assert any(r.endswith("-") for r in runs), runs
    joined = "".join(r[:-1] if r.endswith("-") else r + " " for r in runs)
    assert joined.split() == words.split()  # the word is only broken, nothing lost or added
    plain = [r.text for r in drawn(tmp_path, TEXT.replace("width: 40mm", "width: 30mm"),
                                   {"text": words}).items if isinstance(r, TextRun)]
    assert not any(r.endswith("-") for r in plain)
    # a word wider than the box fits only broken
    long = "Donaudampfschifffahrtsgesellschaft"
    german = TEXT.replace("align: justify", "language: de").replace("width: 40mm", "width: 30mm")
    assert len([r for r in drawn(tmp_path, german, {"text": long}).items if isinstance(r, TextRun)]) >= 2
    with pytest.raises(Exception, match="wider than the box"):
        drawn(tmp_path, TEXT.replace("width: 40mm", "width: 30mm"), {"text": long})
    # `hyphenate: true` without a language hyphenates in the language drawn in (tests/test_languages.py)


def test_a_compound_written_with_hyphens_breaks_after_one(tmp_path: Path) -> None:
    """A name such as `Württemberg-Hohenzollern-Sigmaringen` wider than its box, in a box with a language, breaks
    after one of its own hyphens (no hyphen added there) or inside one of its words: it was refused as a word
    wider than the box, which a box with a language promises never to do."""
    german = TEXT.replace("align: justify", "language: de").replace("width: 40mm", "width: 30mm")
    compound = "Fürst von Württemberg-Hohenzollern-Sigmaringen"
    lines = [r.text for r in drawn(tmp_path, german, {"text": compound}).items if isinstance(r, TextRun)]
    assert len(lines) > 1 and "".join(lines).replace("-", "").replace(" ", "") == \
        compound.replace("-", "").replace(" ", ""), lines  # only broken, nothing lost
    # parts too short for the dictionary to break: the lines end at the compound's own hyphens, none added
    short = "Alba-Bora-Cato-Dido-Eris-Fama-Gaia-Hera"
    lines = [r.text for r in drawn(tmp_path, german, {"text": short}).items if isinstance(r, TextRun)]
    assert len(lines) > 1 and "".join(lines) == short, lines
    with pytest.raises(Exception, match="wider than the box"):  # without a language, words break only at spaces
        drawn(tmp_path, TEXT.replace("width: 40mm", "width: 30mm"), {"text": compound})


def test_letter_spacing_and_outlines_are_on_every_run(tmp_path: Path) -> None:
    text = TEXT.replace("align: justify", "letter_spacing: 0.1, outline: \"#ff0000\", outline_width: 0.5pt")
    [run_] = [r for r in drawn(tmp_path, text, {"text": "Word"}).items if isinstance(r, TextRun)]
    assert run_.spacing == pytest.approx(1.0) and run_.outline == "#ff0000" and run_.outline_width == 0.5
    assert run_.width == pytest.approx((fonts.width("cardo", "Word") + 0.4) * 10, abs=0.01)
    svg = drawing_svg(Drawing(mm(50), mm(50), (run_,)))
    assert 'stroke="#ff0000"' in svg and 'stroke-linejoin="round"' in svg


def test_every_missing_glyph_of_a_card_in_one_error(tmp_path: Path) -> None:
    text = TEXT.replace("  body: {kind: text", "  title: {kind: text, x: 5mm, y: 70mm, width: 40mm, height: 10mm, "
                                                "style: body, text: \"{{ title }}\"}\n  body: {kind: text")
    with pytest.raises(Exception) as caught:
        drawn(tmp_path, text, {"text": "snow ☃ and ❄ and ☃ again", "title": "sun ☀"})
    message = str(caught.value)
    assert "'☃' (U+2603), '❄' (U+2744)" in message and "'☀' (U+2600)" in message
    assert message.count("☃") == 1


# --- the samples and the docs -------------------------------------------------------------------------------------

def test_every_key_of_the_vocabulary_is_documented() -> None:
    readme = (REPO / "templates" / "README.md").read_text(encoding="utf-8")
    for key in (*NEW_KEYS, *NEW_KINDS, "shape", "--guides", "align: justify"):
        assert f"`{key}" in readme, key


def test_a_drawing_holds_every_leaf_of_its_groups(tmp_path: Path) -> None:
    inner = Rect(0, 0, 1, 1, Paint("#000000"))
    mask = ImageUse("/m.png", 0, 0, 1, 1)
    assert list(leaves((Group((Group((inner,)),), mask=mask),))) == [inner, mask]
