"""Pieces that are not cards (a deck's `shape`: hexagonal tiles, round tokens) and the guides of a proof build:
the drawing cut to the shape with its bleed around it, the cut line on the sheets, transparent PNGs, the safe area
that follows the outline, and `--guides`."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.catalog.shapes import Shape
from generator.layout.draw import DeckView, draw, subject
from generator.layout.load import clear_cache, load_layout
from generator.render.imposition import CUT_COLOUR, PageHeading, PrintOptions, grid, pages
from generator.render.model import Drawing, Group, Line, Path as Outline, mm
from generator.render.shapes import bounds
from render_helpers import REPO, make_deck, run

HEXAGON = Shape("polygon", sides=6)
TILE = """\
background: "{{ colour }}"
styles:
  name: {font: cardo-bold, size: 12pt, min_size: 8pt, colour: "#ffffff", align: center, valign: middle, wrap: false}
boxes:
  name: {kind: text, x: 10mm, y: 24mm, width: 30mm, height: 10mm, style: name, text: "{{ name }}"}
"""
HEX_SIZE = "card_size: {width: 50mm, height: 57.735mm}\nshape: hexagon\n"


@pytest.fixture(autouse=True)
def _fresh() -> None:
    clear_cache()


def tile(tmp_path: Path, bleed: float = 0.0, guides: bool = False, text: str = TILE) -> Drawing:
    clear_cache()  # loaded layouts are cached by file: each call writes its own
    (tmp_path / "tile.yaml").write_text(text, encoding="utf-8")
    layout = load_layout("tile.yaml", tmp_path)
    what = subject({"colour": "#2f6b3a", "name": "Forest"}, None, DeckView("d", "D", "g", "G", 1), {}, "tile",
                   folder=tmp_path)
    return draw(layout, what, mm(50), mm(57.735), bleed, HEXAGON, guides)


def test_a_piece_is_cut_to_its_shape_with_its_bleed_around_it(tmp_path: Path) -> None:
    drawing = tile(tmp_path, bleed=mm(3))
    assert drawing.outline is not None and drawing.background is None
    assert bounds(drawing.outline) == pytest.approx((0, 0, mm(50), mm(57.735)), abs=0.01)
    [group] = drawing.items
    assert isinstance(group, Group) and group.clip is not None
    x0, y0, x1, y1 = bounds(group.clip)  # the outline grown by the bleed: a larger hexagon
    assert (x0, x1) == pytest.approx((-mm(3), mm(53)), abs=0.01)
    assert y0 == pytest.approx(-mm(3) / 0.866, abs=0.05)  # a point reaches further: bleed / cos 30
    decoration = group.items[0]  # the piece's background, which --ink light lightens as decoration
    assert isinstance(decoration, Group) and decoration.decoration and decoration.plain
    [background] = decoration.items
    assert isinstance(background, Outline) and background.paint.fill == "#2f6b3a" and background.ops == group.clip


def test_sheets_draw_each_pieces_cut_line_and_no_straight_cuts(tmp_path: Path) -> None:
    drawing = tile(tmp_path)
    options = PrintOptions(cut_lines=True)
    layout = grid(mm(50), mm(57.735), options)
    fronts, _backs = list(pages([drawing] * 5, 5, drawing, layout, options, PageHeading("G", "D")))
    cuts = [item for item in fronts.items if isinstance(item, Outline) and item.paint.stroke == CUT_COLOUR]
    assert len(cuts) == 5
    for cut, placed in zip(cuts, fronts.placed):
        assert bounds(cut.ops) == pytest.approx((placed.x, placed.y, placed.x + mm(50), placed.y + mm(57.735)),
                                                abs=0.01)
    # no straight cut line across the sheet (it would cut hexagons in two); crop marks still in the margins
    lines = [item for item in fronts.items if isinstance(item, Line) and item.colour == CUT_COLOUR]
    assert lines == []
    fold = PrintOptions(duplex="fold")
    [sheet] = list(pages([drawing] * 2, 2, drawing, grid(mm(50), mm(57.735), fold), fold, PageHeading("G", "D")))
    assert len([i for i in sheet.items if isinstance(i, Outline) and i.paint.stroke == CUT_COLOUR]) == 4


def test_text_keeps_inside_the_safe_area_of_the_shape(tmp_path: Path) -> None:
    from generator.errors import ContentError

    tile(tmp_path)
    with pytest.raises(ContentError, match=r"tile.yaml:5: boxes.name: on a 50 x 57.735 mm piece cut as a polygon the "
                                           r"text box reaches past the safe area, 3 mm inside the piece's outline"):
        tile(tmp_path, text=TILE.replace("y: 24mm", "y: 4mm"))  # inside the box's safe area, past the slanted edge


def test_guides_follow_the_shape(tmp_path: Path) -> None:
    from generator.render.guides import BLEED, CUT, SAFE

    drawing = tile(tmp_path, bleed=mm(3), guides=True)
    guides = [item for item in drawing.items if isinstance(item, Outline)]
    assert [g.paint for g in guides] == [CUT, BLEED, SAFE]
    assert guides[0].ops == drawing.outline
    assert bounds(guides[2].ops)[0] == pytest.approx(mm(3), abs=0.01)  # the safe area, 3 mm inside


def test_a_deck_of_hexagons_and_tokens_builds_and_exports_transparent_pngs(tmp_path: Path) -> None:
    from PIL import Image

    deck = make_deck(tmp_path / "hexes", [{"name": "Forest", "colour": "#2f6b3a"}, {"name": "Lake",
                                                                                    "colour": "#2d5f8a"}],
                     layout=TILE, deck_id="hexes", extra=HEX_SIZE)
    out = tmp_path / "out"
    result = run("build", "--content", str(deck), "--out", str(out), "--bleed")
    assert result.exit_code == 0, result.stderr
    svg = (out / "decks" / "hexes" / "svg" / "001-forest.svg").read_text(encoding="utf-8")
    assert "clip-path" in svg and "#b0b0b0" not in svg  # cut to the hexagon; the cut line is the sheets' only
    result = run("export", "png", "--content", str(deck), "--out", str(out), "--preset", "plain", "--dpi", "100",
                 "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    with Image.open(out / "png" / "decks" / "hexes" / "001-forest.png") as image:
        assert image.mode == "RGBA"
        assert image.getchannel("A").getpixel((1, 1)) == 0  # outside the hexagon: transparent
        assert image.getpixel((image.width // 2, image.height // 5)) == (0x2F, 0x6B, 0x3A, 255)
    # a deck of cards stays RGB
    plain = make_deck(tmp_path / "plain", [{"name": "Card", "colour": "#2f6b3a"}], layout=TILE, deck_id="plain")
    assert run("export", "png", "--content", str(plain), "--out", str(out), "--preset", "plain", "--dpi", "100",
               "--jobs", "1").exit_code == 0
    with Image.open(out / "png" / "decks" / "plain" / "001-card.png") as image:
        assert image.mode == "RGB"


def test_the_plain_back_of_a_deck_of_hexagons_draws_no_rectangle(tmp_path: Path) -> None:
    """A deck that names no back gets the generic one, whose frame is a rounded rectangle: clipped to a hexagon it
    showed as stray straight lines across the back. Its frame is drawn on cards only."""
    frame = "#c9b58a"  # generic-back.yaml's `line`
    row = [{"name": "Forest", "colour": "#2f6b3a"}]
    hexes = make_deck(tmp_path / "hexes", row, layout=TILE, deck_id="hexes", extra=HEX_SIZE)
    cards = make_deck(tmp_path / "cards", row, layout=TILE, deck_id="cards")
    for deck, framed in ((hexes, False), (cards, True)):
        out = tmp_path / "out" / deck.name
        result = run("build", "--content", str(deck), "--out", str(out), "--format", "svg")
        assert result.exit_code == 0, result.stderr
        back = (out / "decks" / deck.name / "svg" / "back.svg").read_text(encoding="utf-8")
        assert (frame in back) is framed, deck.name


@pytest.mark.parametrize(("shape", "said"), [
    ("triangle", "shape: unknown shape 'triangle'; expected one of rect, rounded, circle, ellipse, hexagon"),
    ("{kind: polygon}", "shape: a polygon needs `sides`"),
    ("{kind: circle, sides: 3}", "shape.sides: means nothing to a circle"),
    ("{kind: path, d: 'M 0 0 L 1'}", "needs 2 numbers"),
])
def test_a_wrong_shape_is_named(tmp_path: Path, shape: str, said: str) -> None:
    deck = make_deck(tmp_path / "d", [{"name": "A", "colour": "#000000"}], layout=TILE, deck_id="d",
                     extra=f"shape: {shape}\n")
    result = run("content", "check", str(deck))
    assert result.exit_code in (1, 2) and said in result.stderr, result.stderr


def test_guides_only_in_a_build_that_asks(tmp_path: Path) -> None:
    deck = make_deck(tmp_path / "d", [{"name": "A", "colour": "#224488"}], layout=TILE, deck_id="d")
    plain, proof = tmp_path / "plain", tmp_path / "proof"
    assert run("build", "--content", str(deck), "--out", str(plain), "--bleed").exit_code == 0
    assert run("build", "--content", str(deck), "--out", str(proof), "--bleed", "--guides").exit_code == 0
    for colour in ("#e4007c", "#00a0e9", "#1f9e3a"):
        assert colour in (proof / "decks" / "d" / "svg" / "001-a.svg").read_text(encoding="utf-8")
        assert colour not in (plain / "decks" / "d" / "svg" / "001-a.svg").read_text(encoding="utf-8")
    from tests.pdfnormal import normalised, text_of

    magenta = "RG 0.894 0 0.486"  # the cut line's colour, as the PDF sets it (normalised: operator first)
    assert any(magenta in line for line in text_of(normalised(proof / "decks" / "d.pdf")))
    assert not any(magenta in line for line in text_of(normalised(plain / "decks" / "d.pdf")))


def test_guedelons_floor_tiles_are_cut_with_round_corners() -> None:
    from generator.content import all_decks, load_content

    [tiles] = [d for d in all_decks(load_content()) if d.key == "guedelon/floor-tiles"]
    assert tiles.shape is not None and tiles.shape.kind == "rect" and tiles.shape.radii == pytest.approx(
        (mm(3.175),) * 4)
    assert "a house choice, not the real tiles' shape" in (REPO / "content" / "guedelon" / "game.yaml").read_text(
        encoding="utf-8")
