"""Helpers shared by the rendering tests: running `donjon`, making small decks of one's own, reading pages."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typer.testing import Result
    from PIL.Image import Image

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"


def run(*args: str) -> Result:
    """`donjon ARGS` through typer's test runner (stdout and stderr kept apart)."""
    from typer.testing import CliRunner

    from generator.cli import app

    return CliRunner().invoke(app, list(args))


def make_deck(folder: Path, rows: list[dict[str, str]], *, layout: str | None = "generic", back: str | None = None,
              deck_id: str = "test-deck", name: str = "Test deck", extra: str = "") -> Path:
    """A deck folder of one's own: deck.yaml, cards.csv and, when given as YAML text, layout.yaml / back.yaml."""
    folder.mkdir(parents=True, exist_ok=True)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (folder / "cards.csv").write_text(buffer.getvalue(), encoding="utf-8")
    lines = [f"id: {deck_id}", f"name: {name}", "cards: cards.csv"]
    if layout is not None and "\n" in layout:
        (folder / "layout.yaml").write_text(layout, encoding="utf-8")
        lines.append("layout: layout.yaml")
    else:
        lines.append(f"layout: {layout}")
    if back is not None and "\n" in back:
        (folder / "back.yaml").write_text(back, encoding="utf-8")
        lines.append("back: back.yaml")
    elif back is not None:
        lines.append(f"back: {back}")
    (folder / "deck.yaml").write_text("\n".join(lines) + "\n" + extra, encoding="utf-8")
    return folder


#: A layout whose card is one flat colour named by the card's `colour` column: easy to find on a raster.
FLAT = """\
background: "{{ colour }}"
safe: 3mm
"""

#: A back: flat yellow inside a 2 mm white border (so that backs side by side can be told apart), with a black
#: square near its top-left corner, to tell which way up it was drawn.
MARKED_BACK = """\
background: "#ffffff"
boxes:
  face: {kind: rect, x: 2mm, y: 2mm, width: 100% - 4mm, height: 100% - 4mm, fill: "#ffcc00"}
  corner: {kind: rect, x: 4mm, y: 4mm, width: 10mm, height: 10mm, fill: "#000000"}
"""

#: Flat colours the raster tests tell apart (no two neighbours alike, none near black or white).
COLOURS = ["#e01010", "#10a010", "#1030e0", "#e0a000", "#a010c0", "#10b0b0"]


def flat_rows(count: int) -> list[dict[str, str]]:
    return [{"name": f"Card {i + 1}", "colour": COLOURS[i % len(COLOURS)]} for i in range(count)]


def render_page(pdf: Path, index: int, dpi: float = 100.0) -> Image:
    """A page of a PDF as an RGB numpy-free PIL image, and the scale in pixels per point."""
    from generator.pdfium_lock import page_image

    image: Image = page_image(pdf, index, scale=dpi / 72).convert("RGB")
    return image


def page_count(pdf: Path) -> int:
    from generator.pdfium_lock import pdf_document

    with pdf_document(pdf) as doc:
        return len(doc)


def box_font(path: Path, family: str, chars: str) -> Path:
    """A TrueType font written to `path` drawing each of `chars` as a box half an em wide (and a space): a font of
    one's own for a script donjon's fonts lack, small enough to make in a test."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    chars = "".join(dict.fromkeys(" " + chars))
    names = [".notdef"] + [f"u{ord(c):04X}" for c in chars]
    pen = TTGlyphPen(None)
    pen.moveTo((50, 0)), pen.lineTo((50, 500)), pen.lineTo((450, 500)), pen.lineTo((450, 0)), pen.closePath()
    box = pen.glyph()
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({ord(c): f"u{ord(c):04X}" for c in chars})
    builder.setupGlyf({name: box for name in names})
    builder.setupHorizontalMetrics({name: (500, 50) for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    path.parent.mkdir(parents=True, exist_ok=True)
    builder.save(str(path))
    return path
