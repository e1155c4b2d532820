"""The fonts donjon draws with: the TTF files in templates/fonts, registered with reportlab once, measured fast.

Only these files are used, so a PDF never depends on a font installed on the machine; reportlab embeds the
subset of glyphs each PDF uses. Layouts name a face by id (`cardo`, `cardo-bold`, `open-sans`...); a face's
family gives the bold and italic faces that `**bold**` and `*italic*` in text switch to.

Measuring is the hot path of text fitting: a word's width at 1 pt is computed once per face and cached, and
a width at any size is that times the size (reportlab applies no kerning, so widths scale exactly).
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from generator.resources import fonts_dir


class Face(NamedTuple):
    """One font file: its id in layouts, its file, and how SVG names it."""

    id: str
    file: str
    family: str
    bold: bool = False
    italic: bool = False

    @property
    def pdf_name(self) -> str:
        """The name the face is registered under with reportlab (and embedded under in PDFs)."""
        return self.file.removesuffix(".ttf")


FACES: dict[str, Face] = {
    face.id: face for face in (
        Face("cardo", "Cardo-Regular.ttf", "Cardo"),
        Face("cardo-bold", "Cardo-Bold.ttf", "Cardo", bold=True),
        Face("cardo-italic", "Cardo-Italic.ttf", "Cardo", italic=True),
        Face("open-sans", "OpenSans-Regular.ttf", "Open Sans"),
        Face("open-sans-bold", "OpenSans-Bold.ttf", "Open Sans", bold=True),
    )
}

#: (family, bold, italic) -> face id; a combination missing here is not available (no bold italic, no sans italic).
_VARIANTS = {(f.family, f.bold, f.italic): f.id for f in FACES.values()}


def variant(face_id: str, bold: bool, italic: bool) -> str | None:
    """The face of `face_id`'s family with that weight and slant, or None when the family has no such face.

    Bold markup inside bold text stays bold (the emphasis is already there)."""
    face = FACES[face_id]
    return _VARIANTS.get((face.family, face.bold or bold, face.italic or italic))


@cache
def _font(face_id: str) -> Any:
    """The reportlab font of a face, registered on first use (parsing a TTF takes a few milliseconds)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    face = FACES[face_id]
    font = TTFont(face.pdf_name, str(fonts_dir() / face.file))
    pdfmetrics.registerFont(font)
    return font


def pdf_name(face_id: str) -> str:
    """The registered reportlab name of a face (registering it if needed)."""
    return str(_font(face_id).fontName)


class Metrics(NamedTuple):
    """Vertical metrics as fractions of the font size: ascent above and descent below the baseline."""

    ascent: float
    descent: float


@cache
def metrics(face_id: str) -> Metrics:
    face = _font(face_id).face
    return Metrics(face.ascent / 1000, -face.descent / 1000)


_widths: dict[tuple[str, str], float] = {}
#: Words measured are kept up to this many (a deck's vocabulary is far smaller; a huge deck starts over).
WIDTH_CACHE = 200_000


def width(face_id: str, text: str) -> float:
    """The advance of a word (or any short text) at 1 pt in a face, cached; multiply by the size."""
    key = (face_id, text)
    found = _widths.get(key)
    if found is None:
        if len(_widths) >= WIDTH_CACHE:
            _widths.clear()
        found = _widths[key] = measure(face_id, text)
    return found


def measure(face_id: str, text: str) -> float:
    """The advance of `text` at 1 pt, not cached (for text measured once, such as a page line)."""
    return float(_font(face_id).stringWidth(text, 1.0))


@cache
def _covered(face_id: str) -> frozenset[str]:
    """Every character the face has a glyph for."""
    return frozenset(chr(code) for code in _font(face_id).face.charToGlyph)


def missing(face_id: str, text: str) -> str:
    """The characters of `text` that the face has no glyph for (empty when it can draw all of them)."""
    covered = _covered(face_id)
    if covered.issuperset(text):
        return ""
    return "".join(dict.fromkeys(c for c in text if c not in covered))


# --- glyph outlines (self-contained SVGs) ------------------------------------------------------------------------

#: Glyph outlines are written in thousandths of an em, the unit of the advance widths the PDF uses.
EM = 1000


@cache
def _outline_font(face_id: str) -> Any:
    """The face's TTF read by fontTools, whose glyph outlines the SVG backend draws."""
    from fontTools.ttLib import TTFont as OutlineFont

    return OutlineFont(str(fonts_dir() / FACES[face_id].file), lazy=True)


def advance(face_id: str, char: str) -> float:
    """How far the pen moves after `char`, in thousandths of an em: the width the PDF gives it."""
    face = _font(face_id).face
    return float(face.charWidths.get(ord(char), face.defaultWidth))


@cache
def glyph_path(face_id: str, char: str) -> str:
    """The outline of `char` in the face as SVG path data, in thousandths of an em, y upwards from the baseline
    ("" for a glyph that draws nothing, such as a space)."""
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen

    font = _outline_font(face_id)
    name = font.getBestCmap().get(ord(char))
    if name is None:
        return ""
    glyphs = font.getGlyphSet()
    pen = SVGPathPen(glyphs, ntos=lambda v: str(round(v) or 0))  # a thousandth of an em: 0.01 pt at 10 pt
    scale = EM / font["head"].unitsPerEm
    glyphs[name].draw(TransformPen(pen, (scale, 0, 0, scale, 0, 0)))
    return str(pen.getCommands())
