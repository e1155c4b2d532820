"""The fonts donjon draws with: the TTF files in templates/fonts and the fonts a deck brings, registered with
reportlab once, measured fast.

Only these files are used, so a PDF never depends on a font installed on the machine; reportlab embeds the
subset of glyphs each PDF uses. Layouts name a face by id (`cardo`, `cardo-bold`, `open-sans`...); a face's
family gives the bold and italic faces that `**bold**` and `*italic*` in text switch to.

**Fonts of one's own** (:func:`register_family`): a deck or a layout declares a family's files (regular, and
optionally bold, italic, bold italic) under a name. Each file is read through generator.files, checked and
registered under a face id made from the name and the file's digest, so two decks may give one name to
different files, and a file saved again is registered anew. reportlab embeds TrueType outlines only: an OpenType
font with PostScript (CFF) outlines is converted to TrueType outlines with fontTools (cubic curves approximated by
quadratic ones within a thousandth of the em, far below what a printer shows); a CFF2 (variable) font, a file that
is not a font, or a font whose licence forbids embedding is refused with the reason.

Measuring is the hot path of text fitting: a word's width at 1 pt is computed once per face and cached, and
a width at any size is that times the size (reportlab applies no kerning, so widths scale exactly).
"""

from __future__ import annotations

import io
import threading
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.resources import fonts_dir

if TYPE_CHECKING:
    from generator.i18n import Language


class Face:
    """One font file: its id in layouts, its file, and how SVG names it."""

    __slots__ = ("id", "file", "family", "bold", "italic", "group", "generic", "registered")

    id: str
    #: a file in templates/fonts, or the absolute path of a font of one's own
    file: str
    family: str
    bold: bool
    italic: bool
    #: faces of one group are each other's bold and italic (the family's name, or a family of one's own)
    group: str
    #: the generic family an SVG viewer falls back to
    generic: str
    #: for a font of one's own: the registration name (the file name and its digest) and its TrueType bytes
    registered: str

    def __init__(self, id: str, file: str, family: str, bold: bool = False, italic: bool = False, group: str = "",
                 generic: str = "serif", registered: str = "") -> None:
        self.id = id
        self.file = file
        self.family = family
        self.bold = bold
        self.italic = italic
        self.group = group
        self.generic = generic
        self.registered = registered

    @property
    def pdf_name(self) -> str:
        """The name the face is registered under with reportlab (and embedded under in PDFs)."""
        return self.registered or self.file.removesuffix(".ttf")

    @property
    def path(self) -> Path:
        """The font file."""
        return Path(self.file) if Path(self.file).is_absolute() else fonts_dir() / self.file


#: The faces shipped in templates/fonts, by the id layouts give them.
BUILT_IN: tuple[Face, ...] = (
    Face("cardo", "Cardo-Regular.ttf", "Cardo", group="Cardo"),
    Face("cardo-bold", "Cardo-Bold.ttf", "Cardo", bold=True, group="Cardo"),
    Face("cardo-italic", "Cardo-Italic.ttf", "Cardo", italic=True, group="Cardo"),
    Face("open-sans", "OpenSans-Regular.ttf", "Open Sans", group="Open Sans", generic="sans-serif"),
    Face("open-sans-bold", "OpenSans-Bold.ttf", "Open Sans", bold=True, group="Open Sans", generic="sans-serif"),
)
#: Every face by id: the built-in ones, and the fonts of one's own registered so far.
FACES: dict[str, Face] = {face.id: face for face in BUILT_IN}
BUILT_IN_IDS = tuple(face.id for face in BUILT_IN)

#: (group, bold, italic) -> face id; a combination missing here is not available (no bold italic, no sans italic).
_VARIANTS = {(f.group, f.bold, f.italic): f.id for f in FACES.values()}


def variant(face_id: str, bold: bool, italic: bool) -> str | None:
    """The face of `face_id`'s family with that weight and slant, or None when the family has no such face.

    Bold markup inside bold text stays bold (the emphasis is already there)."""
    face = FACES[face_id]
    return _VARIANTS.get((face.group, face.bold or bold, face.italic or italic))


def regular(face_id: str) -> str:
    """The regular face of `face_id`'s family (neither bold nor italic), or the face itself if it has none."""
    face = FACES[face_id]
    return _VARIANTS.get((face.group, False, False), face_id)


@cache
def _font(face_id: str) -> Any:
    """The reportlab font of a face, registered on first use (parsing a TTF takes a few milliseconds)."""
    from reportlab.pdfbase import pdfmetrics

    face = FACES[face_id]
    tagged = _tagged_font_class()
    if face.registered:
        font = tagged(face.pdf_name, io.BytesIO(_own_files[face.id]))
    else:
        font = tagged(face.pdf_name, str(fonts_dir() / face.file))
    pdfmetrics.registerFont(font)
    return font


#: reportlab's subset tags are put in place one font at a time (see _tagged_font_class): one at a time
_TAGGING = threading.Lock()


@cache
def _tagged_font_class() -> Any:
    """reportlab's TrueType font, its subsets tagged apart across the whole PDF.

    reportlab tags each font's subsets from AAAAAA+ on, so every font of a card PDF was AAAAAA+Cardo,
    AAAAAA+OpenSans...: PDF 32000-1 §9.6.4 asks a tag of six capital letters that differs between the subsets of one
    file (a tool that merges or preflights PDFs may take two subsets of one tag for the same one). Here the subsets
    are numbered across the document in the order its fonts are written, which is the order they were first used:
    the same input gives the same tags, and no two subsets of a file share one."""
    from reportlab.pdfbase import ttfonts

    class TaggedTTFont(ttfonts.TTFont):  # type: ignore[misc]  # (reportlab has no type hints)
        def addObjects(self, doc: Any) -> None:
            first = getattr(doc, "_donjon_subsets", 0)
            state = self.state.get(doc)
            count = len(state.subsets) if state is not None else 0
            with _TAGGING:
                # reportlab names each subset with SUBSETN(its number in the font), and no hook lets a caller name it
                numbered = ttfonts.SUBSETN
                ttfonts.SUBSETN = lambda n: numbered(first + n)
                try:
                    super().addObjects(doc)
                finally:
                    ttfonts.SUBSETN = numbered
            doc._donjon_subsets = first + count

    return TaggedTTFont


# --- fonts of one's own -------------------------------------------------------------------------------------------

#: The largest font file read: a font with every CJK ideograph is some 20 MiB.
MAX_FONT_BYTES = 32 * 1024 * 1024
#: How far (in font units per em of 1000) a converted quadratic outline may stray from the CFF original: a
#: thousandth of the em, 0.01 mm at a 10 pt size.
CU2QU_TOLERANCE = 1.0
#: The styles a family of one's own may give, the suffix each adds to the family's name, and (bold, italic).
STYLES = {"regular": ("", False, False), "bold": ("-bold", True, False), "italic": ("-italic", False, True),
          "bold_italic": ("-bold-italic", True, True)}

_own_files: dict[str, bytes] = {}


class FontProblem(Exception):
    """A font file of one's own that cannot be used; the message says why (the caller names the declaration)."""


def register_family(name: str, files: dict[str, Path]) -> dict[str, str]:
    """Register a family of one's own (`files` by style: regular, bold, italic, bold_italic) and give the face id
    of each name a layout may use: `name`, `name-bold`, `name-italic`, `name-bold-italic` (those given).

    Raises FontProblem naming the file and what is wrong with it."""
    import hashlib

    loaded = {style: _load_font_file(path) for style, path in files.items()}
    group = f"{name}#" + hashlib.sha256(b"".join(d for _c, d in loaded.values())).hexdigest()[:12]
    out: dict[str, str] = {}
    for style, (family, data) in loaded.items():
        suffix, bold, italic = STYLES[style]
        digest = hashlib.sha256(data).hexdigest()[:12]
        face_id = f"{name}{suffix}@{digest}"
        if face_id in FACES and FACES[face_id].group != group:  # the same file in another family of that name
            face_id += "-" + group.rsplit("#", 1)[1]
        if face_id not in FACES:
            path = files[style]
            generic = "sans-serif" if "sans" in family.lower() or "serif" not in family.lower() else "serif"
            face = Face(face_id, str(path), family, bold, italic, group, generic,
                        registered=f"{path.stem}-{digest}")
            _own_files[face_id] = data
            FACES[face_id] = face
            _VARIANTS[(group, bold, italic)] = face_id
            try:
                _font(face_id)
            except Exception as err:  # noqa: BLE001 - reportlab's TTFError and the struct errors of a damaged file
                del FACES[face_id], _own_files[face_id]
                _VARIANTS.pop((group, bold, italic), None)
                _font.cache_clear()
                raise FontProblem(f"{path.name}: reportlab cannot use it ({_reason(err)})") from None
        else:
            _VARIANTS[(group, bold, italic)] = face_id
        out[f"{name}{suffix}"] = face_id
    return out


def _reason(err: Exception) -> str:
    text = str(err)
    if "allow subsetting/embedding" in text:
        return "its licence forbids embedding it in a document (its OS/2 fsType flags say so)"
    return text.split('": ', 1)[-1] if '": ' in text else text


def _load_font_file(path: Path) -> tuple[str, bytes]:
    """A font file's family name and TrueType bytes (a CFF OpenType font converted)."""
    from generator.errors import InputError
    from generator.files import read_bytes

    try:
        data = read_bytes(path, str(path), max_bytes=MAX_FONT_BYTES)
    except InputError as err:
        raise FontProblem(f"{path.name}: {err.problem.message}") from None
    head = data[:4]
    if head == b"OTTO":
        data = _cff_to_truetype(path, data)
    elif head not in (b"\x00\x01\x00\x00", b"true"):
        kind = {b"wOFF": "a WOFF web font", b"wOF2": "a WOFF2 web font", b"ttcf": "a font collection (.ttc)"}.get(
            head, "not a TrueType or OpenType font")
        raise FontProblem(f"{path.name}: it is {kind}; give a .ttf or .otf file")
    from generator.render.font_tables import Damaged, check_tables

    try:
        check_tables(data)
        _read_by_fonttools(data)
    except Damaged as err:
        raise FontProblem(f"{path.name}: the font is damaged: {err}; export it again from a font editor, or use "
                          "another file") from None
    refusal = _embedding_refused(data)
    if refusal:
        raise FontProblem(f"{path.name}: its licence {refusal} (its OS/2 fsType flags say so)")
    return _family_name(path, data), data


#: OS/2 fsType bits (OpenType spec, OS/2 table): "restricted licence embedding" (the value 2 alone), "no
#: subsetting", "bitmap embedding only". donjon embeds subsets of outlines, so any of them rules a font out.
_RESTRICTED, _NO_SUBSETTING, _BITMAP_ONLY = 0x0002, 0x0100, 0x0200


def _embedding_refused(data: bytes) -> str:
    """What a font's licence flags forbid that donjon would do, or "" (reportlab does not check this itself)."""
    import struct

    try:
        tables = struct.unpack(">H", data[4:6])[0]
        for index in range(tables):
            tag, _checksum, offset, _length = struct.unpack(">4sIII", data[12 + 16 * index:28 + 16 * index])
            if tag == b"OS/2":
                flags = struct.unpack(">H", data[offset + 8:offset + 10])[0]
                if flags & 0x000F == _RESTRICTED:
                    return "forbids embedding it in a document"
                if flags & _BITMAP_ONLY:
                    return "allows embedding only its bitmaps, not its outlines"
                if flags & _NO_SUBSETTING:
                    return "forbids embedding only the glyphs a document uses, which is how donjon embeds fonts"
                return ""
    except struct.error:
        return ""  # a damaged table directory: reportlab says what is wrong when it reads the file
    return ""


def _read_by_fonttools(data: bytes) -> None:
    """What fontTools reads to draw an SVG's glyphs (the character map, the em), read now: it is stricter than
    reportlab about some damage, and the SVG is drawn long after the font is registered."""
    from fontTools.ttLib import TTFont as OutlineFont

    from generator.render.font_tables import Damaged

    quiet_fonttools()
    try:
        font = OutlineFont(io.BytesIO(data), lazy=True)
        font["head"].unitsPerEm
        glyphs = set(font.getGlyphOrder())
        for table in font["cmap"].tables:  # reportlab may read another subtable than fontTools: each is checked
            stray = next((code for code, name in table.cmap.items() if name not in glyphs), None)
            if stray is not None:
                raise Damaged(f"its character map gives U+{stray:04X} a glyph the font does not have")
        font.getGlyphSet()
    except Damaged:
        raise
    except Exception as err:  # noqa: BLE001 - fontTools raises many kinds on a damaged table
        raise Damaged(f"fontTools cannot read it ({type(err).__name__}: {err})") from None


@cache
def quiet_fonttools() -> None:
    """fontTools logs what it notices about a damaged font (a huge advance width, a date out of range) on stderr
    through Python's last-resort handler: donjon checks what matters itself and says it in its own words."""
    import logging

    logger = logging.getLogger("fontTools")
    logger.addHandler(logging.NullHandler())
    logger.propagate = False


def _family_name(path: Path, data: bytes) -> str:
    from reportlab.pdfbase.ttfonts import TTFontFile

    try:
        parsed = TTFontFile(io.BytesIO(data), validate=0)
    except Exception as err:  # noqa: BLE001 - any damage to the file
        raise FontProblem(f"{path.name}: reportlab cannot use it ({_reason(err)})") from None
    name = getattr(parsed, "familyName", None)
    text = getattr(name, "ustr", None) or (name.decode("latin-1") if isinstance(name, bytes) else name)
    return str(text or path.stem)


def _cff_to_truetype(path: Path, data: bytes) -> bytes:
    """An OpenType font with PostScript (CFF) outlines as a TrueType font (fontTools' otf2ttf recipe)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, TTLibError, newTable

    quiet_fonttools()
    try:
        font = TTFont(io.BytesIO(data), recalcTimestamp=False)
        if "CFF2" in font:
            raise FontProblem(f"{path.name}: it is a variable OpenType font (CFF2 outlines), which neither reportlab "
                              "nor donjon's conversion reads; export a static instance as .ttf")
        if "CFF " not in font:
            raise FontProblem(f"{path.name}: it says it has PostScript outlines but holds no CFF table")
        order = font.getGlyphOrder()
        glyph_set = font.getGlyphSet()
        glyf = newTable("glyf")
        glyf.glyphOrder = order
        glyf.glyphs = {}
        for name in order:
            pen = TTGlyphPen(glyph_set)
            glyph_set[name].draw(Cu2QuPen(pen, CU2QU_TOLERANCE, reverse_direction=True))
            glyf.glyphs[name] = pen.glyph()
        font["loca"] = newTable("loca")
        font["glyf"] = glyf
        del font["CFF "]
        if "VORG" in font:
            del font["VORG"]
        glyf.compile(font)
        hmtx = font["hmtx"]
        for name, glyph in glyf.glyphs.items():
            if hasattr(glyph, "xMin"):
                hmtx[name] = (hmtx[name][0], glyph.xMin)
        maxp = font["maxp"] = newTable("maxp")
        maxp.tableVersion = 0x00010000
        for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                      "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
            setattr(maxp, field, 1 if field == "maxZones" else 0)
        post = font["post"]
        post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
        font.sfntVersion = "\x00\x01\x00\x00"
        out = io.BytesIO()
        font.save(out)
        return out.getvalue()
    except FontProblem:
        raise
    except (TTLibError, KeyError, ValueError, AssertionError, AttributeError, TypeError) as err:
        raise FontProblem(f"{path.name}: it has PostScript (CFF) outlines, which reportlab cannot embed, and "
                          f"converting them to TrueType failed ({type(err).__name__}: {err}); export it as .ttf") \
            from None


def pdf_name(face_id: str) -> str:
    """The registered reportlab name of a face (registering it if needed)."""
    return str(_font(face_id).fontName)


class Metrics:
    """Vertical metrics as fractions of the font size: ascent above and descent below the baseline."""

    __slots__ = ("ascent", "descent")

    ascent: float
    descent: float

    def __init__(self, ascent: float, descent: float) -> None:
        self.ascent = ascent
        self.descent = descent


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
    return frozenset(map(chr, _font(face_id).face.charToGlyph))


def missing(face_id: str, text: str) -> str:
    """The characters of `text` that the face has no glyph for (empty when it can draw all of them)."""
    covered = _covered(face_id)
    if covered.issuperset(text):
        return ""
    return "".join(dict.fromkeys(c for c in text if c not in covered))


def typeset(lang: Language, face_id: str, text: str) -> str:
    """`text` as `lang` writes it (generator.i18n.typography) in this face: with the narrow no-break space where
    the face has one (Cardo), else a no-break space (Open Sans has none)."""
    if lang.english:
        return text
    return lang.typeset(text, "\u00a0" if missing(face_id, "\u202f") else "\u202f")


# --- glyph outlines (self-contained SVGs) ------------------------------------------------------------------------

#: Glyph outlines are written in thousandths of an em, the unit of the advance widths the PDF uses.
EM = 1000


@cache
def _outline_font(face_id: str) -> Any:
    """The face's font file read by fontTools, whose glyph outlines the SVG backend draws (a font of one's own
    with PostScript outlines draws its own cubic curves; the PDF embeds them converted)."""
    from fontTools.ttLib import TTFont as OutlineFont

    quiet_fonttools()
    return OutlineFont(str(FACES[face_id].path), lazy=True)


def advance(face_id: str, char: str) -> float:
    """How far the pen moves after `char`, in thousandths of an em: the width the PDF gives it."""
    face = _font(face_id).face
    return float(face.charWidths.get(ord(char), face.defaultWidth))


def advances(face_id: str) -> tuple[dict[int, float], float]:
    """The face's advances by code point and the advance of a character it lacks: :func:`advance` for a loop over
    thousands of characters (the SVG backend places every glyph of every card), which would otherwise look the
    font up again for each."""
    face = _font(face_id).face
    return face.charWidths, face.defaultWidth


#: The characters whose outlines in donjon's own faces are kept in templates/fonts/outlines/ (Basic Latin,
#: Latin-1, the dashes, quotes, bullets and ellipsis of General Punctuation, the euro, trade mark and minus signs):
#: what nearly every card's text is made of. Reading a face's file of them takes a millisecond; importing fontTools
#: and parsing the font to draw them takes some 60 ms, a quarter of a small build. Other characters, and fonts of
#: one's own, are drawn by fontTools.
COMMON = "".join(chr(c) for c in (*range(0x20, 0x7F), *range(0xA0, 0x100), *range(0x2010, 0x2028),
                                  *range(0x2030, 0x203B), 0x20AC, 0x2122, 0x2212))


def outlines_file(face: Face) -> Path:
    """The file holding the outlines of :data:`COMMON` in one of donjon's own faces."""
    return fonts_dir() / "outlines" / f"{Path(face.file).stem}.json"


@cache
def _kept_outlines(face_id: str) -> dict[str, str]:
    """The outlines kept for a built-in face (none for a font of one's own)."""
    import json

    face = FACES[face_id]
    if face.registered or Path(face.file).is_absolute():
        return {}
    path = outlines_file(face)
    try:
        kept: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:  # the files are made by `python -m generator.render.outlines`
        return {}
    return kept


@cache
def glyph_path(face_id: str, char: str) -> str:
    """The outline of `char` in the face as SVG path data, in thousandths of an em, y upwards from the baseline
    ("" for a glyph that draws nothing, such as a space)."""
    kept = _kept_outlines(face_id).get(char)
    return kept if kept is not None else drawn_outline(face_id, char)


def drawn_outline(face_id: str, char: str) -> str:
    """The outline of `char` as fontTools draws it from the font file (what :func:`glyph_path` gives)."""
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


def kept_outlines(face_id: str) -> str:
    """The text of a built-in face's outlines file: the outline of every character of :data:`COMMON`, drawn by
    fontTools, as JSON with sorted keys (so that the file only changes when a font does)."""
    import json

    return json.dumps({c: drawn_outline(face_id, c) for c in COMMON}, ensure_ascii=False, sort_keys=True,
                      separators=(",", ":"), indent=0) + "\n"
