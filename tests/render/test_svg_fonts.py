"""The SVGs are self-contained: rendered by librsvg (`rsvg-convert`, behind many viewers and converters), which
has none of donjon's fonts and ignores `@font-face` and `textLength`, a card matches the PDF's rendering of it
within 0.5 mm, every glyph where the PDF puts it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter

from generator.render import fonts
from render_helpers import make_deck, run

DPI = 300
#: How far apart the two renderings may put anything: half a millimetre, in pixels at DPI.
TOLERANCE_PX = round(0.5 / 25.4 * DPI)

RSVG = shutil.which("rsvg-convert")
needs_rsvg = pytest.mark.skipif(RSVG is None and not os.environ.get("CI"),
                                reason="needs rsvg-convert (apt-get install librsvg2-bin); CI installs it")

CARDS = [
    ("guildhall", "old-world-economy-professions", "assassin-red"),
    ("guedelon", "events", "01-alchemy"),
    ("once-upon-a-castle", "great-architect-guests", "king"),
    ("guildhall", "vp-tokens", "back"),
]


def masks(image: Image.Image) -> tuple[Image.Image, Image.Image]:
    """Where the image is dark, and where it is light (text of either kind on the other)."""
    grey = image.convert("L")
    return grey.point(lambda v: 255 if v < 110 else 0), grey.point(lambda v: 255 if v > 170 else 0)


def strays(a: Image.Image, b: Image.Image) -> int:
    """Pixels of `a`'s dark or light areas with none of `b`'s within the tolerance: 0 when every mark of one
    rendering lies within 0.5 mm of the same kind of mark in the other."""
    count = 0
    for mask_a, mask_b in zip(masks(a), masks(b)):
        near_b = mask_b.filter(ImageFilter.MaxFilter(2 * TOLERANCE_PX + 1))
        count += sum(ImageChops.subtract(mask_a, near_b).histogram()[1:])
    return count


def rsvg(svg: Path, size: tuple[int, int], target: Path) -> Image.Image:
    assert RSVG is not None, "rsvg-convert is missing: CI installs librsvg2-bin"
    env = {**os.environ, "FONTCONFIG_FILE": "/dev/null"}  # as on a machine without donjon's fonts
    subprocess.run([RSVG, "-w", str(size[0]), "-h", str(size[1]), "-o", str(target), str(svg)], check=True, env=env)
    return Image.open(target).convert("RGB")


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fonts")
    for target in ("guildhall", "guedelon", "once-upon-a-castle"):
        assert run("build", target, "--out", str(out / "build"), "--format", "svg").exit_code == 0
        assert run("export", "png", target, "--preset", "plain", "--dpi", str(DPI), "--out", str(out),
                   "--jobs", "1").exit_code == 0
    return out


@needs_rsvg
@pytest.mark.parametrize(("game", "deck", "card"), CARDS)
def test_an_svg_rendered_by_librsvg_matches_the_pdf(outputs: Path, game: str, deck: str, card: str) -> None:
    pdf_render = Image.open(outputs / "png" / game / deck / f"{card}.png").convert("RGB")
    svg_render = rsvg(outputs / "build" / game / deck / "svg" / f"{card}.svg", pdf_render.size,
                      outputs / f"{game}-{deck}-{card}.png")
    assert strays(svg_render, pdf_render) == 0
    assert strays(pdf_render, svg_render) == 0


@needs_rsvg
def test_the_comparison_can_fail(outputs: Path) -> None:
    """A rendering shifted by 1 mm, as text run long in a substitute font, is caught."""
    pdf_render = Image.open(outputs / "png" / "guildhall" / "old-world-economy-professions" / "assassin-red.png")
    shifted = ImageChops.offset(pdf_render.convert("RGB"), round(1.0 / 25.4 * DPI), 0)
    assert strays(shifted, pdf_render.convert("RGB")) > 0


@needs_rsvg
def test_a_deck_of_ones_own_with_bold_and_italic_matches(tmp_path: Path) -> None:
    deck = make_deck(tmp_path / "deck", [{"name": "Ember Queen", "cost": "3",
                                          "text": "**Bold** words, *italic* words and {wood} icons, 12 (34)."}])
    assert run("build", "--content", str(deck), "--out", str(tmp_path / "out"), "--format", "svg").exit_code == 0
    assert run("export", "png", "--content", str(deck), "--preset", "plain", "--dpi", str(DPI), "--out",
               str(tmp_path / "out")).exit_code == 0
    [png] = (tmp_path / "out" / "png" / "decks").glob("*/001-*.png")
    pdf_render = Image.open(png).convert("RGB")
    [svg] = (tmp_path / "out" / "decks").glob("*/svg/001-*.svg")
    svg_render = rsvg(svg, pdf_render.size, tmp_path / "svg.png")
    assert strays(svg_render, pdf_render) == 0 and strays(pdf_render, svg_render) == 0


def test_svgs_name_no_font_they_need() -> None:
    """Every glyph is an outline in the file: the text elements are invisible, for search and reading aloud."""
    from generator.backends.svg import drawing_svg
    from generator.render.model import Drawing, TextRun

    svg = drawing_svg(Drawing(100, 100, (TextRun(10, 20, "Hi there", "cardo-bold", 9, "#112233", 30.0),)))
    assert svg.count("<use") == 7 and 'id="g-cardo-bold-48"' in svg and "@font-face" not in svg
    assert '<text fill="none"' in svg or 'fill="none" font-family' in svg
    assert drawing_svg(Drawing(100, 100, (TextRun(10, 20, "Hi there", "cardo-bold", 9, "#112233", 30.0),))) == svg


#: Stray pixels allowed where a card has pictures (see the test below): a few pixels of art at a mask's
#: threshold, where text drawn 0.6 mm off gives well over a thousand.
PICTURE_NOISE = 10


@needs_rsvg
@pytest.mark.parametrize(("deck", "card"), [("skirmish", "1"), ("market", "001-baker-s-stall")])
def test_a_sample_deck_with_its_own_font_icons_and_pictures_matches(tmp_path: Path, deck: str, card: str) -> None:
    """The sample decks' own font (DejaVu Serif Condensed), own icons and card art render alike in librsvg and in
    the PDF: the glyph outlines come from the deck's font file as they do from donjon's."""
    from tests.conftest import REPO

    content = REPO / "content" / "examples" / "decks"
    out = tmp_path / "out"
    assert run("build", deck, "--content", str(content), "--out", str(out), "--format", "svg").exit_code == 0
    assert run("export", "png", deck, "--content", str(content), "--preset", "plain", "--dpi", str(DPI),
               "--out", str(out), "--jobs", "1").exit_code == 0
    pdf_render = Image.open(out / "png" / "decks" / deck / f"{card}.png").convert("RGB")
    svg_render = rsvg(out / "decks" / deck / "svg" / f"{card}.svg", pdf_render.size, tmp_path / "svg.png")
    # pdfium and librsvg resample the card art each their own way, so a pixel or two of a picture whose grey lies
    # at a mask's threshold may fall on either side of it; text 0.6 mm off gives some 1,700 strays on this card
    assert strays(svg_render, pdf_render) <= PICTURE_NOISE and strays(pdf_render, svg_render) <= PICTURE_NOISE


@pytest.mark.parametrize("face", [f.id for f in fonts.BUILT_IN])
def test_the_kept_outlines_are_those_fonttools_draws(face: str) -> None:
    """templates/fonts/outlines/ spares a build fontTools when its text is common characters: each file must be
    what `python -m generator.render.outlines` writes from the font today."""
    assert fonts.outlines_file(fonts.FACES[face]).read_text(encoding="utf-8") == fonts.kept_outlines(face)
    assert fonts.glyph_path(face, "A") == fonts.drawn_outline(face, "A") != ""
