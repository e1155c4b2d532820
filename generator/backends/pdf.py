"""The PDF backend: pages of the drawing model through reportlab, deterministic and with embedded fonts.

- `invariant=1` fixes the dates and document id, so two builds of the same input are byte-identical.
- The canvas's initial font is one of our TTFs, so no PDF refers to a standard font it does not embed;
  reportlab embeds the subset of each TTF that the document uses (its documented `splitString` and
  `getSubsetInternalName` give the subset fonts that text is written in).
- A drawing placed more than once (a card's copies, a deck's back) and every icon are drawn once as a form
  XObject and placed by reference: a deck of 120 profession cards holds 30 card faces and one back.
- Content streams are written as PDF operators (`Canvas.addLiteral`), a few strings per drawing, with numbers
  rounded to a thousandth of a point: reportlab's drawing calls format every number and open a text object
  per call, which is most of the time a deck takes to write. Streams are Flate-compressed, not ASCII85. Pages
  with the same boxes and resources share them, formatted once when the file is saved (`_share`).
- Pictures (`ImageUse`) are embedded once per document, however many cards show them, and placed by reference:
  a JPEG as it is (DCT), an 8-bit PNG without transparency as its own compressed rows (Flate with the PNG
  predictors, nothing decoded), any other PNG decoded by Pillow into RGB with its alpha as a soft mask, and an
  SVG drawn as vector paths (svglib turns it into reportlab shapes, which `generator.backends.pdf_art` draws
  once into a form XObject with its gradients, opacities and pictures). A picture
  that covers its box is clipped to the box.
- Gradients are shadings (axial or radial, their colours a stitched function of linear blends, in the
  document's colour space), drawn with `sh` inside the shape they fill as a clip, each defined once per document.
  A group of primitives (a turned, clipped, masked or see-through box) is drawn in a saved state with its
  transform and clip; one with an opacity or a mask is drawn into a transparency group (a form XObject with
  /Group, ISO 32000-1 11.6.6) placed through a graphics state that sets its opacity and, for a mask, a luminosity
  soft mask of its own. PDF/X-1a forbids both: there, the area such a group covers is drawn as a picture of what
  it shows (`generator.backends.pdf_flatten`), the rest stays vectors. reportlab lists neither shadings nor
  graphics states in a form's resources, so every form and page gets those it uses (`_form`). Outlined text is
  drawn twice, its outline (text render mode 1) first; letter spacing is `Tc`.
- A page's anchors become named destinations (and, with a title, entries of the document outline, which the
  viewer then shows on opening); its links become link annotations without a border.
- Model coordinates are y-down from the top-left; each placed drawing is drawn in its own frame whose origin
  is its trim box's top-left corner with y negated (`1 0 0 1 x y cm`), so text stays upright.
- A page's form fields become AcroForm widgets (registered in reportlab's `acroForm`): transparent, over the
  boxes the page draws. Each widget has appearance streams of its own (a text field its empty one, a checkbox its
  ticked and unticked ones): a program that fills the form and writes the value into the appearance it finds
  must never change what another field shows. The form's resources (`/DR`) hold both fonts the fields name in
  their `/DA`: Helvetica (`/Helv`, WinAnsi) for text and ZapfDingbats (`/ZaDb`) for the checkboxes' tick, so any
  program that regenerates an appearance finds its font.
- What is typed into a text field shows in Helvetica, a standard PDF font that every viewer and form filler
  supplies: the one font such a PDF names without embedding, because a viewer must be able to draw any text a
  user types. Its encoding (WinAnsi) covers Western European letters only; a text field refuses, with a message,
  a character outside it in viewers that run form scripts (`WINANSI_ONLY`), rather than show something else. An
  embedded Unicode font (the shipped Open Sans as a Type0 font, Identity-H, with a full ToUnicode map) was tried
  as the field font against the fillers of tests/sheets/test_sheet_fillers.py: pypdf drew "Łukasz" right, but
  `qpdf --generate-appearances` drew even "Ana" as two CJK glyphs (it writes one byte per character for any
  font outside the standard encodings), pdftk drew nothing, and pdf-lib ignored the field's font and still
  refused "Ł". A Unicode form font would break plain names in two of five fillers to fix other names in one.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path as FilePath
from typing import IO, Any

from generator.backends import Memo
from generator.backends import number as n
from generator.render import fonts
from generator.render.icons import ICON_RISE, ICON_SIDE, TEXT_EQUIVALENTS, layers
from generator.render.ink import Inks, PressSettings
from generator.render.model import (
    KAPPA,
    Circle,
    Drawing,
    FormField,
    Gradient,
    Group,
    IconUse,
    ImageUse,
    Line,
    Op,
    Page,
    Paint,
    Path,
    Placed,
    Primitive,
    Rect,
    TextRun,
    leaves,
)

#: The font of text typed into a form field: a standard PDF font, which viewers have (see the module's notes), and
#: its resource name in the form's /DR (the name viewers give Helvetica by convention).
FIELD_FONT = "Helvetica"
FIELD_FONT_NAME = "Helv"
#: The font the checkboxes' /DA names, for viewers that redraw a tick (its character "4" is a tick).
TICK_FONT, TICK_FONT_NAME = "ZapfDingbats", "ZaDb"
#: A keystroke script for text fields: a character Helvetica's WinAnsi encoding cannot show is refused at once,
#: with a message, in viewers that run form scripts (the characters listed are those WinAnsi holds beyond Latin-1).
WINANSI_ONLY = (
    "if(!event.willCommit&&/[^\\x20-\\x7e\\xa0-\\xff\\u0152\\u0153\\u0160\\u0161\\u0178\\u017d\\u017e"
    "\\u0192\\u02c6\\u02dc\\u2013\\u2014\\u2018-\\u201a\\u201c-\\u201e\\u2020-\\u2022\\u2026\\u2030"
    "\\u2039\\u203a\\u20ac\\u2122]/.test(event.change)){app.alert('This sheet writes in Helvetica, which "
    "shows Western European letters only: write the name without that letter (for example L for \\u0141).');"
    "event.rc=false;}")
#: The colour of what is typed or ticked in a form field.
FIELD_INK = "#1a3f8f"
#: zlib's level for pictures decoded and packed again (PNGs with transparency): level 1 packs card art within a
#: few percent of the default level in a third of the time, and pictures are most of such a deck's time.
PIXELS_LEVEL = 1
# Annotation flags (print; hidden) and field flags (read-only) of ISO 32000-1, tables 165 and 221.
_PRINT, _HIDDEN, _READ_ONLY = 4, 2, 1


def _tick(width: float, height: float) -> str:
    """A tick filling most of a checkbox of that size, in the field ink (PDF coordinates, y up)."""
    side = min(width, height)
    x0, y0 = (width - side) / 2, (height - side) / 2
    points = ((0.14, 0.5), (0.27, 0.63), (0.42, 0.46), (0.76, 0.86), (0.89, 0.73), (0.42, 0.2))
    ops = [f"{n(x0 + px * side)} {n(y0 + py * side)} {'m' if i == 0 else 'l'}" for i, (px, py) in enumerate(points)]
    return f"{colour_op(FIELD_INK, 'rg')} {' '.join(ops)} h f"


_colours: dict[tuple[str, str], str] = {}


def colour_op(colour: str, op: str) -> str:
    """`r g b rg` (fill) or `r g b RG` (stroke) for `#rrggbb`."""
    key = (colour, op)
    found = _colours.get(key)
    if found is None:
        found = _colours[key] = " ".join(n(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5)) + f" {op}"
    return found


#: Rounded rectangles and circles written, kept by their geometry: a card is drawn in its own coordinates, so its
#: frames and badges come back, the same numbers, on every card of a deck (some thirty numbers each to write).
SHAPES_KEPT = 1024


@lru_cache(maxsize=SHAPES_KEPT)
def _rounded(x: float, y: float, w: float, h: float, r: float) -> str:
    """A rounded rectangle path; (x, y) is its lower-left corner in PDF coordinates."""
    r = min(r, w / 2, h / 2)
    k = r * KAPPA
    x2, y2 = x + w, y + h
    return (f"{n(x + r)} {n(y)} m {n(x2 - r)} {n(y)} l "
            f"{n(x2 - r + k)} {n(y)} {n(x2)} {n(y + r - k)} {n(x2)} {n(y + r)} c "
            f"{n(x2)} {n(y2 - r)} l {n(x2)} {n(y2 - r + k)} {n(x2 - r + k)} {n(y2)} {n(x2 - r)} {n(y2)} c "
            f"{n(x + r)} {n(y2)} l {n(x + r - k)} {n(y2)} {n(x)} {n(y2 - r + k)} {n(x)} {n(y2 - r)} c "
            f"{n(x)} {n(y + r)} l {n(x)} {n(y + r - k)} {n(x + r - k)} {n(y)} {n(x + r)} {n(y)} c h")


@lru_cache(maxsize=SHAPES_KEPT)
def _circle(cx: float, cy: float, r: float) -> str:
    k = r * KAPPA
    return (f"{n(cx + r)} {n(cy)} m {n(cx + r)} {n(cy + k)} {n(cx + k)} {n(cy + r)} {n(cx)} {n(cy + r)} c "
            f"{n(cx - k)} {n(cy + r)} {n(cx - r)} {n(cy + k)} {n(cx - r)} {n(cy)} c "
            f"{n(cx - r)} {n(cy - k)} {n(cx - k)} {n(cy - r)} {n(cx)} {n(cy - r)} c "
            f"{n(cx + k)} {n(cy - r)} {n(cx + r)} {n(cy - k)} {n(cx + r)} {n(cy)} c h")


def _path(ops: Iterable[tuple[str | float, ...]], top: float) -> str:
    """Path operations of the model (y down) in PDF coordinates (y up from `top`)."""
    out = []
    for op in ops:
        kind, v = op[0], [float(x) for x in op[1:]]
        if kind == "M":
            out.append(f"{n(v[0])} {n(top - v[1])} m")
        elif kind == "L":
            out.append(f"{n(v[0])} {n(top - v[1])} l")
        elif kind == "C":
            out.append(f"{n(v[0])} {n(top - v[1])} {n(v[2])} {n(top - v[3])} {n(v[4])} {n(top - v[5])} c")
        else:
            out.append("h")
    return " ".join(out)


@lru_cache(maxsize=SHAPES_KEPT)
def _shape_path(ops: tuple[Op, ...]) -> str:
    """A Path primitive's operations, or a clip's, in the card's own PDF coordinates (:func:`_path` from 0), kept
    as :func:`_rounded` is: a clip outline or a hatching comes back on every card, each some hundred numbers."""
    return _path(ops, 0.0)


#: PDF's line cap styles (ISO 32000-1, 8.4.3.3) by the model's names.
_CAPS = {"butt": 0, "round": 1, "square": 2}


def _paint(paint: Paint, inks: Inks) -> tuple[list[str], str]:
    """The state operators of a paint (a colour fill: a gradient is drawn by the writer) and the operator that
    paints a path with it."""
    ops = []
    if isinstance(paint.fill, str):
        ops.append(inks.op(paint.fill, "rg"))
    if paint.stroke is not None:
        ops += [inks.op(paint.stroke, "RG"), f"{n(paint.width)} w",
                f"[{' '.join(n(d) for d in paint.dash)}] 0 d"]
    if paint.fill is not None and paint.stroke is not None:
        return ops, "B"
    return ops, "f" if paint.fill is not None else "S"


def _box(box: tuple[float, float, float, float] | None, page: Page) -> list[float]:
    """A page box (x, y, w, h in the model's y-down coordinates; None for the whole page) as a PDF rectangle."""
    x, y, w, h = box if box is not None else (0.0, 0.0, page.width, page.height)
    return [round(x, 3), round(page.height - y - h, 3), round(x + w, 3), round(page.height - y, 3)]


class PdfStats:
    """What :func:`write_pdf` wrote: its pages, and the drawings placed on them (counted as it writes them).
    A plain class for the reason output._Item is one."""

    def __init__(self) -> None:
        self.pages = 0
        self.placed = 0
        #: the picture files embedded as pixels, by the name of their XObject (`FormXob.img3`): what a message about
        #: the PDF's pictures (the print services' preflight) names instead
        self.pictures: dict[str, str] = {}
        #: the pictures of SVG art enlarged for smoothing (pdf_art.enlarged), by their object number in the file:
        #: their own pixels, which the preflight judges the resolution by
        self.enlarged: dict[int, tuple[int, int]] = {}


class _Recorded:
    """A drawing's operators as a document wrote them, and what they took from that document (see PdfMemo)."""

    __slots__ = ("drawing", "code", "forms", "fonts", "assigned", "pictures", "made", "needs", "signature")

    #: kept so that no other drawing gets its id while this record lives
    drawing: Drawing
    #: the literal operators written (reportlab's canvas code) and the forms placed, in order
    code: tuple[str, ...]
    forms: tuple[str, ...]
    #: for each font, in the order the drawing first uses it: its face id, its characters in the order of their
    #: first use, and their character codes (a no-break space is drawn as a space)
    fonts: tuple[tuple[str, str, tuple[int, ...]], ...]
    #: the characters that have a code in each font's subsets (those the font has)
    assigned: tuple[frozenset[int], ...]
    #: the picture files it shows (and their tints), in order
    pictures: tuple[tuple[str, str | None], ...]
    #: the shadings and transparency groups its operators name, in the order the document made them for it
    made: tuple[Gradient | Group, ...]
    #: its icons and pictures (those inside groups too), which the document defines before placing it
    needs: tuple[Primitive, ...]
    #: what it took from the document: each font's name and its characters' codes, each picture's name and size,
    #: the name of each shading, and of each transparency group's form and graphics state
    signature: tuple[object, ...]

    def __init__(self, drawing: Drawing, code: tuple[str, ...], forms: tuple[str, ...],
                 fonts: tuple[tuple[str, str, tuple[int, ...]], ...], assigned: tuple[frozenset[int], ...],
                 pictures: tuple[tuple[str, str | None], ...], made: tuple[Gradient | Group, ...],
                 needs: tuple[Primitive, ...], signature: tuple[object, ...]) -> None:
        self.drawing = drawing
        self.code = code
        self.forms = forms
        self.fonts = fonts
        self.assigned = assigned
        self.pictures = pictures
        self.made = made
        self.needs = needs
        self.signature = signature


class _Notes:
    """What a drawing being recorded for a PdfMemo takes from the document, noted as it is written."""

    def __init__(self, depth: int) -> None:
        #: the stream it is written in (how many streams are open: the page's, a card's form): what it names there
        #: is noted; the streams of the forms made for it (a transparency group's) name their own
        self.depth = depth
        #: the characters it writes in each font, in the order of their first use (forms made for it included)
        self.chars: dict[str, dict[str, None]] = {}
        #: the pictures it places (file and tint)
        self.pictures: dict[tuple[str, str | None], None] = {}
        #: the shadings and transparency groups its own stream names, in order, and the names the document gave
        self.made: list[Gradient | Group] = []
        self.names: list[object] = []
        #: the shadings of `made`, to note each once
        self.shadings: set[Gradient] = set()


class PdfMemo:
    """The operators each drawing was written with in the last document of a series (a `Memo`'s "pdf"), so that
    the next document copies those of a drawing it places again instead of writing them anew (`donjon build
    --watch`: a change to one card redraws that card only, and the document of a thousand cards is put together
    from the others' operators).

    A drawing's operators hold, besides the drawing, what the document gave it: its characters' codes in each font
    subset (reportlab gives a code to each character as the document first uses it), the names of its fonts and
    pictures (given in the order they first appear), of its gradients' shadings (`Sh1`... in the order they are
    made) and of the form and graphics state of each transparency group (a see-through or masked group is drawn
    into a form of its own, `group1`..., placed through a state `Dj1`...). So for a drawing met again the
    document still makes all of these in the same order as drawing it would: every font and character (the
    drawing's characters, font by font, in the order of their first use), picture, shading, and each transparency
    group's form, drawn anew (a form is an object of the document, which copied operators can only name); its
    operators are copied only when the codes and names come out as they were when written. Otherwise it is
    written anew, with the forms just made. Every shading and state its operators name is listed in the resources
    of the stream they are copied into, as drawing lists it. The document is then byte for byte the one written
    without a memo (tests/test_incremental.py builds both, with decks that use every kind). Drawings are known by
    identity: the watch keeps the drawing of every card that did not change; a page's own marks and page line are
    known by their value (`marks`)."""

    def __init__(self, ink: PressSettings) -> None:
        self.ink = ink
        self._last: dict[int, _Recorded] = {}
        self._now: dict[int, _Recorded] = {}
        self._packed_last: dict[str, bytes] = {}
        self._packed_now: dict[str, bytes] = {}
        self._marks_last: dict[tuple[Primitive, ...], Drawing] = {}
        self._marks_now: dict[tuple[Primitive, ...], Drawing] = {}

    def find(self, drawing: Drawing) -> _Recorded | None:
        key = id(drawing)
        found = self._now.get(key) or self._last.get(key)
        return found if found is not None and found.drawing is drawing else None

    def keep(self, record: _Recorded) -> None:
        self._now[id(record.drawing)] = record

    def marks(self, page: Page) -> Drawing:
        """A page's own primitives (crop marks, the page line) as a drawing: the same drawing as the last document's
        page with the same primitives, so that its operators are copied (`find`) as a card's are. They are made
        anew with every page, so they are known by their value, not by identity."""
        try:
            found = self._marks_now.get(page.items) or self._marks_last.get(page.items)
        except TypeError:  # a primitive holding a list: drawn anew each time
            return Drawing(page.width, page.height, page.items)
        if found is None:
            found = Drawing(page.width, page.height, page.items)
        self._marks_now[page.items] = found
        return found

    def packed(self, stream: str) -> bytes:
        """A page's content stream compressed, as the last document compressed it when it held the same page (most
        pages of a deck are; compressing them is a third of the time a document of them takes)."""
        found = self._packed_now.get(stream)
        if found is None:
            found = self._packed_last.get(stream)
            if found is None:
                found = zlib.compress(stream.encode("utf8"))
            self._packed_now[stream] = found
        return found

    def finish(self) -> None:
        """A document is complete: what it did not place is forgotten (the memo holds one document's drawings)."""
        self._last, self._now = self._now, {}
        self._packed_last, self._packed_now = self._packed_now, {}
        self._marks_last, self._marks_now = self._marks_now, {}


@cache
def _formatted_once() -> Any:
    """The class of an object that many pages of a document hold (a box, resources), formatted the first time the
    file is saved and written again as those bytes: reportlab formats a value every time it is met."""
    from reportlab.pdfbase.pdfdoc import PDFObject, format

    class FormattedOnce(PDFObject):  # type: ignore[misc]
        def __init__(self, value: Any) -> None:
            self.value = value
            self.formatted: bytes | None = None

        def format(self, document: Any) -> bytes:
            if self.formatted is None:
                self.formatted = format(self.value, document)
            return self.formatted

    return FormattedOnce


def _codes(text: str) -> tuple[int, ...]:
    return tuple(32 if code == 0xA0 else code for code in map(ord, text))  # as reportlab's splitString maps them


@cache
def _escapes() -> tuple[str, ...]:
    """What reportlab's escapePDF writes for each byte of a string shown, asked of it once a byte (it escapes each
    byte alone: a backslash before `\\`, `(` and `)`, octal outside printable ASCII): a run's bytes are then escaped
    by one join, where reportlab without its C accelerator loops over them in Python (8 % of a deck's drawing)."""
    from reportlab.lib.rl_accel import escapePDF

    return tuple(escapePDF(bytes((code,))) for code in range(256))


def _escape(chunk: bytes) -> str:
    """`chunk` as reportlab's escapePDF writes it (:func:`_escapes`)."""
    return "".join(map(_escapes().__getitem__, chunk))


def _split(font: Any, text: str, doc: Any) -> list[tuple[int, bytes]]:
    """What reportlab's `font.splitString(text, doc)` gives (each piece of the text in one subset of the font, as
    the codes the document gave its characters), without its loop over the characters in Python when they all have
    a code in the first subset already, as nearly every run of a deck has after its first cards (the loop was 15 %
    of a deck's drawing). A character still without a code, or one in a later subset, goes through splitString,
    which gives the codes in the order characters come."""
    # `state` and `assignments` are reportlab's internals, not its documented interface: where a later reportlab
    # names them otherwise (AttributeError), every run goes through splitString as before, slower but the same
    state = getattr(font, "state", {}).get(doc)
    if state is not None and text:
        try:  # a missing code is a KeyError, one of a later subset (256 or more) a ValueError
            return [(0, bytes(map(state.assignments.__getitem__, map(ord, text.replace("\xa0", " ")))))]
        except (KeyError, ValueError, AttributeError):
            pass
    return list(font.splitString(text, doc))


class _Writer:
    def __init__(self, canvas: Any, inks: Inks, memo: PdfMemo | None = None) -> None:
        self.c = canvas
        #: the operators of drawings placed in the last document, for `donjon build --watch`
        self.memo = memo
        #: what the drawing being recorded for the memo takes from the document
        self._noted: _Notes | None = None
        #: the transparency groups' forms a copy that failed made, for the drawing written anew instead (PdfMemo)
        self._premade: list[tuple[Group, tuple[str, str]]] = []
        #: every colour the document prints goes through these (generator.render.ink)
        self.inks = inks
        self.doc = canvas._doc  # the document the TTF subsets belong to (reportlab's documented splitString use)
        self.forms: dict[str, str] = {}
        self.icon_forms: set[str] = set()
        self.fonts: dict[str, Any] = {}
        #: whether any page added an outline entry (the viewer then opens with the outline shown)
        self.outline = False
        #: the picture files embedded as pixels, by XObject name (PdfStats.pictures)
        self.pictures: dict[str, str] = {}
        #: one XObject dictionary per set of forms, shared by every page placing that set
        self.xobjects: dict[tuple[str, ...], Any] = {}
        #: the form's resources, made with the first field
        self.form_fonts: Any = None
        #: picture file and tint -> its XObject's name and its own size (1 x 1 for a raster, the SVG's size in points)
        self.images: dict[tuple[str, str | None], tuple[str, float, float]] = {}
        #: the same for pictures by content, so two identical files are embedded once
        self.image_digests: dict[str, tuple[str, float, float]] = {}
        #: each gradient's shading, by its coordinates and stops (every use of one gradient shares it)
        self.shadings: dict[Gradient, str] = {}
        #: graphics states (opacity, soft masks) by what they set: their resource name and dictionary
        self.states: dict[tuple[float, str], tuple[str, Any]] = {}
        #: the graphics states each stream being written uses (the page's first, then each form's being drawn):
        #: reportlab gives forms none, so each form and page gets those it names
        self.stream_states: list[dict[str, Any]] = [{}]
        self.groups = 0
        #: how the page being written is moved on the paper (x scale, y scale, x and y shift: `Page.scale`, `offset`)
        self.paper = (1.0, 1.0, 0.0, 0.0)
        #: the pictures SVG art holds (`data:` PNG and JPEG), by content
        self.embedded: dict[str, Any] = {}
        #: the own pixels of those enlarged for smoothing, by their reference's name (PdfStats.enlarged)
        self.enlarged: dict[str, tuple[int, int]] = {}
        #: the operators that move to where a drawing is placed, by its place and size (`place`)
        self.frames: dict[tuple[float, float, bool, float, float], str] = {}
        #: what pages hold alike (boxes, resources), each formatted once (`_share`)
        self.shared: dict[tuple[object, ...], Any] = {}

    def _icon_form(self, name: str) -> str:
        form = f"icon-{name}"
        if name not in self.icon_forms:
            c = self.c
            c.beginForm(form, 0, 0, 100, 100)
            c.addLiteral(" ".join(_path(layer, 100.0) + " f*" for layer in layers(name)))
            c.endForm()
            self.icon_forms.add(name)
        return form

    def _prepare_icons(self, items: Iterable[Primitive]) -> None:
        """Define the icon forms and pictures a drawing uses before drawing it (forms are not defined inside
        forms)."""
        for item in leaves(items):
            if isinstance(item, IconUse) and item.name not in self.icon_forms:
                self._icon_form(item.name)
            elif isinstance(item, ImageUse) and (item.source, item.tint) not in self.images:
                self._image(item.source, item.tint)

    def _image(self, source: str, tint: str | None = None) -> tuple[str, float, float]:
        """The XObject of a picture file (recoloured to `tint`), embedded on first use. A picture that changed or
        broke since it was checked is a content error naming the file (never a crash)."""
        from generator.errors import ContentError, Problem
        from generator.render.images import ImageProblem, image_data
        from generator.resources import display_path

        path = FilePath(source)
        try:
            info, data = image_data(path)
            if tint is not None:
                from generator.render.recolour import recolour

                info, data = recolour(info, data, tint)
            found = self.image_digests.get(info.digest)
            if found is None:
                name = f"img{len(self.image_digests) + 1}"
                if info.kind == "svg":
                    found = (name, *self._svg_form(name, data, info.digest))
                else:
                    self._register(name, _raster_xobject(self.doc, info.kind, data, self.inks))
                    self.pictures[self.doc.getXObjectName(name)] = source
                    found = (name, 1.0, 1.0)
                self.image_digests[info.digest] = found
        except ImageProblem as err:
            raise ContentError([Problem(display_path(path), getattr(err, "line", None), "",
                                        f"cannot be drawn into the PDF: {err}")]) from None
        except (ValueError, OSError, SyntaxError, KeyError, TypeError, AttributeError, ArithmeticError) as err:
            # what the checks before did not foresee: still the file's problem, named (`content check` draws every
            # picture this way too, so it reports the same)
            raise ContentError([Problem(display_path(path), None, "", f"cannot be drawn into the PDF "
                                        f"({type(err).__name__}: {err})")]) from None
        self.images[(source, tint)] = found
        return found

    def _opaque(self, placed: Placed) -> Placed:
        """For PDF/X-1a, which allows no transparency: the drawing with its see-through boxes drawn as pictures
        (generator.backends.pdf_flatten), those pictures embedded; a drawing already drawn as a form is left."""
        from generator.backends.pdf_flatten import flatten, see_through

        drawing = placed.drawing
        if (drawing.key is not None and drawing.key in self.forms) or not any(map(see_through, drawing.items)):
            return placed
        drawing, pictures = flatten(drawing, self.inks.settings.flatten_dpi)
        for source, data in pictures.items():
            found = self.image_digests.get(source)
            if found is None:
                found = self.image_digests[source] = (f"img{len(self.image_digests) + 1}", 1.0, 1.0)
                self._register(found[0], _raster_xobject(self.doc, "png", data, self.inks))
            self.images[(source, None)] = found
        return placed._replace(drawing=drawing)

    def _register(self, name: str, stream: Any) -> None:
        """An XObject stream that `doForm(name)` can place (reportlab's resources list it where it is used)."""
        self.doc.Reference(stream, self.doc.getXObjectName(name))

    def _svg_form(self, name: str, data: bytes, digest: str) -> tuple[float, float]:
        """Draw an SVG as vector shapes into a form XObject of its own size (generator.backends.pdf_art), its
        colours in the document's inks; its width and height in points (1 x 1 for art flattened to pixels)."""
        from generator.backends.pdf_art import art_form, translucent
        from generator.render.svgart import read_art

        art = read_art(data, digest)
        if self.inks.settings.pdfx == "x1a" and translucent(art):
            # PDF/X-1a allows no transparency: art drawn with opacity or a blend mode is flattened into pixels
            # (FLATTEN_PX) whose own transparency becomes a stencil, as prepress flatteners do
            self._register(name, _raster_xobject(self.doc, "png", _flattened(art), self.inks))
            return 1.0, 1.0
        form, width, height = art_form(self.c, art, self._embedded, self.inks, self.enlarged)
        self._register(name, form)
        return width, height

    def _embedded(self, picture: Any) -> Any:
        """The image XObject of a picture held inside SVG art, once per document however many files hold it."""
        import hashlib

        from generator.backends.pdf_art import smoothed

        key = hashlib.sha256(picture.data).hexdigest() + ("" if picture.smooth else " blocky")
        found = self.embedded.get(key)
        if found is None:
            found = self.embedded[key] = self.doc.Reference(smoothed(_raster_xobject(
                self.doc, picture.kind, picture.data, self.inks), picture, self.inks))
        return found

    def page(self, page: Page) -> None:
        c = self.c
        self.stream_states = [{}]
        if self.inks.settings.pdfx == "x1a":
            page = page._replace(placed=tuple(self._opaque(placed) for placed in page.placed))
        c.setPageSize((page.width, page.height))
        memo = self.memo
        for placed in page.placed:
            d = placed.drawing
            if d.key is None or d.key not in self.forms:
                found = memo.find(d) if memo is not None else None
                self._prepare_icons(d.items if found is None else found.needs)
        self._prepare_icons(page.items)
        sx, sy = page.scale
        dx, dy = page.offset
        # a printer's scale made up for, about the page's centre, and its back offset: everything on the page
        # moves so, its links and fields too (`_on_paper`)
        self.paper = (sx, sy, page.width * (1 - sx) / 2 + dx, page.height * (1 - sy) / 2 - dy)
        moved = self.paper != (1.0, 1.0, 0.0, 0.0)
        if moved:
            across, down, e, f = self.paper
            c.addLiteral(f"q {across:.6f} 0 0 {down:.6f} {n(e)} {n(f)} cm")
        for placed in page.placed:
            self.place(placed, page.height)
        c.addLiteral(f"q 1 0 0 1 0 {n(page.height)} cm")
        if memo is None or not page.items:
            self.draw(page.items)
        else:  # a page's own marks and line, copied like a drawing's when a page of the last document had them
            self.drawing(memo.marks(page))
        c.addLiteral("Q")
        if moved:
            c.addLiteral("Q")
        for anchor in page.anchors:
            c.bookmarkPage(anchor.key, fit="XYZ", left=0, top=round(self._on_paper(0, page.height - anchor.y)[1], 3))
            if anchor.title:
                c.addOutlineEntry(anchor.title, anchor.key, anchor.level)
                self.outline = True
        for link in page.links:
            c.linkAbsolute("", link.key, self._rect(link.x, page.height - link.y - link.h, link.w, link.h),
                           thickness=0)
        for form_field in page.fields:
            self.form_field(form_field, page.height)
        # every page says where it is cut and how far its bleed runs, so preflight tools and printers see the cut
        c.setTrimBox(_box(page.trim, page))
        c.setBleedBox(_box(page.bleed_box, page))
        c.showPage()
        self._pack_last_page()

    def _on_paper(self, x: float, y: float) -> tuple[float, float]:
        """Where the point (x, y) of the page (PDF's y, upwards) lands once the page's scale and offset move it."""
        sx, sy, e, f = self.paper
        return sx * x + e, sy * y + f

    def _rect(self, x: float, bottom: float, w: float, h: float) -> tuple[float, float, float, float]:
        """An annotation's rectangle (PDF's y, upwards) where the page's scale and offset put it."""
        x0, y0 = self._on_paper(x, bottom)
        x1, y1 = self._on_paper(x + w, bottom + h)
        return round(x0, 3), round(y0, 3), round(x1, 3), round(y1, 3)

    def _pack_last_page(self) -> None:
        """Compress the page just finished now rather than when the file is saved.

        reportlab keeps every page's content as text until it writes the file, so a deck's memory grew by some
        30 KB a page (68 MB at 10,000 cards). Compressed at once, exactly as reportlab would at save (UTF-8,
        zlib's default level, one FlateDecode filter), the page costs a few KB and the file is byte-identical:
        reportlab leaves a stream alone when its dictionary already names its filter.
        """
        from reportlab.pdfbase.pdfdoc import PDFArray, PDFName, PDFStream

        page = self.c._doc.Pages.pages[-1]
        if self.stream_states[0]:
            page.ExtGState = self._with_states(page.ExtGState, self.stream_states[0])
        # every page placing the same forms gets one shared XObject dictionary instead of a copy of its own
        # (the largest object a page kept): it is written inline, so the file is the same
        xobjects = getattr(page, "XObjects", None)
        if xobjects is not None:
            key = tuple(sorted(str(k) for k in xobjects.dict))
            page.XObjects = self.xobjects.setdefault(key, xobjects)
        if not page.stream or page.Contents is not None:
            return
        stream = page.stream
        packed = PDFStream(content=zlib.compress(stream.encode("utf8")) if self.memo is None else
                           self.memo.packed(stream))
        packed.dictionary["Filter"] = PDFArray([PDFName("FlateDecode")])
        packed.__Comment__ = "page stream"
        page.Contents = packed
        page.stream = None
        self._share(page)

    def _share(self, page: Any) -> None:
        """Give the page the boxes, transition and resources of the pages before it that have the same ones, each
        formatted once for the document (`_shared`): reportlab formats every page's anew when the file is saved,
        which was half of saving a document of sheets. The file is the same: what is shared formats to the same
        bytes. Resources naming graphics states, shadings or colour spaces of the page's own are left to it."""
        from reportlab.pdfbase.pdfdoc import PDFObjectReference

        page.check_format(self.doc)  # what reportlab would give the page when saving (it does it once)
        for box in ("MediaBox", "TrimBox", "BleedBox", "CropBox", "ArtBox"):
            found = getattr(page, box)
            if found is not None:
                setattr(page, box, self._shared((box, *found.sequence), found))
        if page.Trans is not None and not page.Trans.dict:
            page.Trans = self._shared(("Trans",), page.Trans)
        resources = page.Resources
        key: list[object] = ["Resources", tuple(resources.ProcSet)]
        for name in resources.dict_attributes:
            value = getattr(resources, name)
            if name == "Font" and isinstance(value, PDFObjectReference):
                key.append(value.name)
            elif name == "XObject" and value is page.XObjects and value is not None:
                key.append(id(value))  # one of `self.xobjects`, which keeps it for the document
            elif isinstance(value, dict) and not value:
                key.append(None)
            else:
                return
        page.Resources = self._shared(tuple(key), resources)

    def _shared(self, key: tuple[object, ...], value: Any) -> Any:
        """The object standing for `value` on every page that holds one like it (by `key`), formatted once."""
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = _formatted_once()(value)
        return found

    def form_field(self, f: FormField, page_height: float) -> None:
        """One fillable field: a widget with no border or background of its own (the page draws its box).

        Written with reportlab's PDF objects rather than its `acroForm` helpers, which build three appearances of
        every state of every checkbox and one of every text field, cost more than the page itself, cannot centre
        text, and write a /DR that names only one font. Every widget gets appearance streams of its own."""
        from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFString

        form = self.c.acroForm
        self._form_resources()
        bottom = page_height - f.y - f.h
        rect = PDFArray(list(self._rect(f.x, bottom, f.w, f.h)))
        entries: dict[str, Any] = {
            "Type": PDFName("Annot"), "Subtype": PDFName("Widget"), "P": self.doc.thisPageRef(), "Rect": rect,
            "F": _HIDDEN if f.hidden else _PRINT, "Ff": _READ_ONLY if f.read_only else 0, "T": PDFString(f.name),
        }
        if f.tooltip:
            entries["TU"] = PDFString(f.tooltip)
        if f.kind == "checkbox":
            state = PDFName("Yes" if f.value == "Yes" else "Off")
            entries.update(FT=PDFName("Btn"), V=state, AS=state,
                           DA=PDFString(f"/{TICK_FONT_NAME} 0 Tf {colour_op(FIELD_INK, 'rg')}"),
                           AP=PDFDictionary({"N": PDFDictionary({"Yes": self._appearance(f.w, f.h, _tick(f.w, f.h)),
                                                                 "Off": self._appearance(f.w, f.h, "")})}),
                           MK=PDFDictionary({"CA": PDFString("4")}))  # the tick of ZapfDingbats, for viewers that redraw
        else:
            entries.update(FT=PDFName("Tx"), V=PDFString(f.value), DV=PDFString(f.value),
                           DA=PDFString(f"/{FIELD_FONT_NAME} {f.size} Tf {colour_op(FIELD_INK, 'rg')}"),
                           Q=1 if f.align == "center" else 0,
                           AP=PDFDictionary({"N": self._appearance(f.w, f.h, "/Tx BMC EMC")}))
            if not f.read_only:
                entries["AA"] = PDFDictionary({"K": PDFDictionary({"S": PDFName("JavaScript"),
                                                                   "JS": PDFString(WINANSI_ONLY)})})
            if f.max_length:
                entries["MaxLen"] = f.max_length
        widget = PDFDictionary(entries)
        self.c._addAnnotation(widget)
        form.fields.append(self.doc.Reference(widget))

    def _form_resources(self) -> None:
        """The form's /DR with both fonts the fields name, and its default /DA: written once per document."""
        from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFName, PDFString

        if self.form_fonts is not None:
            return
        helvetica = self.doc.Reference(PDFDictionary({
            "Type": PDFName("Font"), "Subtype": PDFName("Type1"), "BaseFont": PDFName(FIELD_FONT),
            "Name": PDFName(FIELD_FONT_NAME), "Encoding": PDFName("WinAnsiEncoding")}))
        dingbats = self.doc.Reference(PDFDictionary({
            "Type": PDFName("Font"), "Subtype": PDFName("Type1"), "BaseFont": PDFName(TICK_FONT),
            "Name": PDFName(TICK_FONT_NAME)}))
        self.form_fonts = PDFDictionary({FIELD_FONT_NAME: helvetica, TICK_FONT_NAME: dingbats})
        # reportlab writes /DR and /DA only for fonts of its own helpers; extras are written after them
        self.c.acroForm.extras.update(DR=PDFDictionary({"Font": self.form_fonts}),
                                      DA=PDFString(f"/{FIELD_FONT_NAME} 0 Tf 0 g"))

    def _appearance(self, width: float, height: float, content: str) -> Any:
        """A form XObject drawing one state of one field: never shared, so a filler that writes into the
        appearance it finds changes that field's only."""
        from reportlab.pdfbase.pdfdoc import (
            PDFArray,
            PDFDictionary,
            PDFName,
            PDFStream,
            PDFStreamFilterZCompress,
        )

        stream = PDFStream(PDFDictionary({"Type": PDFName("XObject"), "Subtype": PDFName("Form"),
                                          "BBox": PDFArray([0, 0, round(width, 3), round(height, 3)]),
                                          "Resources": PDFDictionary({"Font": self.form_fonts})}),
                           content, filters=[PDFStreamFilterZCompress()])
        return self.doc.Reference(stream)

    def place(self, placed: Placed, page_height: float) -> None:
        c = self.c
        d = placed.drawing
        spot = (placed.x, page_height - placed.y, placed.turned, d.width, d.height)
        frame = self.frames.get(spot)
        if frame is None:  # the same few places on every page of a deck: each written once
            frame = f"q 1 0 0 1 {n(placed.x)} {n(page_height - placed.y)} cm"
            if placed.turned:
                frame += f" -1 0 0 -1 {n(d.width)} {n(-d.height)} cm"
            self.frames[spot] = frame
        c.addLiteral(frame)
        if d.key is None:
            self.drawing(d)
        else:
            form = self.forms.get(d.key)
            if form is None:
                form = self.forms[d.key] = f"card{len(self.forms) + 1}"
                b = d.bleed
                self._form(form, (-b, -d.height - b, d.width + b, b), lambda: self.drawing(d))
            c.doForm(form)
        c.addLiteral("Q")

    def drawing(self, d: Drawing) -> None:
        memo = self.memo
        if memo is None:
            self._drawing(d)
            return
        found = memo.find(d)
        if found is not None and self._replay(found):
            memo.keep(found)
            return
        code, forms = len(self.c._code), len(self.c._formsinuse)  # the canvas's operators and forms, so far
        notes = self._noted = _Notes(len(self.stream_states))
        try:
            self._drawing(d)
            memo.keep(self._record(d, code, forms, notes))
        finally:
            self._noted = None
            self._premade.clear()

    def _font(self, face: str) -> Any:
        font = self.fonts.get(face)
        if font is None:
            from reportlab.pdfbase.pdfmetrics import getFont

            font = self.fonts[face] = getFont(fonts.pdf_name(face))
        return font

    def _record(self, d: Drawing, code: int, forms: int, notes: _Notes) -> _Recorded:
        """What drawing `d` wrote (from the canvas's operator `code` and its `forms` on), and what it took from the
        document (`notes`, taken as it was written)."""
        used = tuple((face, "".join(seen), _codes("".join(seen))) for face, seen in notes.chars.items())
        assigned = tuple(frozenset(c for c in codes if c in self._font(face).state[self.doc].assignments)
                         for face, _text, codes in used)
        placed = tuple(notes.pictures)
        needs = tuple(item for item in leaves(d.items) if isinstance(item, (IconUse, ImageUse)))
        return _Recorded(d, tuple(self.c._code[code:]), tuple(self.c._formsinuse[forms:]), used, assigned, placed,
                         tuple(notes.made), needs, (*self._signature(used, placed), *notes.names))

    def _signature(self, used: tuple[tuple[str, str, tuple[int, ...]], ...],
                   pictures: tuple[tuple[str, str | None], ...]) -> tuple[object, ...]:
        out: list[object] = []
        for face, _text, codes in used:
            state = self._font(face).state[self.doc]
            out += [state.internalName, tuple(map(state.assignments.get, codes))]
        out += [self.images.get(picture) for picture in pictures]
        return tuple(out)

    def _replay(self, found: _Recorded) -> bool:
        """Write a drawing met in the last document by copying its operators, when what they took from the
        document is still the same (see PdfMemo); False, having written none of its operators, when it is not."""
        doc = self.doc
        for (face, text, _codes), assigned in zip(found.fonts, found.assigned, strict=True):
            font = self._font(face)
            state = font.state.get(doc)
            # the characters given codes, and the font named, as drawing it would: in the order of first use
            if state is None or state.internalName is None or not state.assignments.keys() >= assigned:
                font.splitString(text, doc)
                font.getSubsetInternalName(0, doc)
        # its shadings and transparency groups made (and listed in this stream's resources) as drawing it would
        names: list[object] = []
        premade: list[tuple[Group, tuple[str, str]]] = []
        for made in found.made:
            if isinstance(made, Gradient):
                names.append(self._shading(made))
            else:
                premade.append((made, self._translucent(made)))
                names.append(premade[-1][1])
        if (*self._signature(found.fonts, found.pictures), *names) != found.signature:
            self._premade = premade  # the drawing written anew places the forms made
            return False
        self.c._code.extend(found.code)
        self.c._formsinuse.extend(found.forms)
        return True

    def _drawing(self, d: Drawing) -> None:
        if d.background is not None:
            b = d.bleed
            self.c.addLiteral(f"{self.inks.op(d.background, 'rg')} {n(-b)} {n(-d.height - b)} {n(d.width + 2 * b)} "
                              f"{n(d.height + 2 * b)} re f")
        self.draw(d.items)

    def _unseen(self, icon: IconUse, char: str, face: str) -> str:
        """The character an icon stands for, as invisible text (render mode 3) on the icon's baseline, stretched
        from the left of its advance in text to the right of its square: what a text extractor or a screen reader
        finds where the icon is drawn, with no gap around it that would read as a space."""
        size = icon.size / ICON_RISE  # the text size the icon was drawn for
        stretch = 100 * (ICON_SIDE + ICON_RISE) / fonts.width(face, char)
        run = TextRun(icon.x - ICON_SIDE * size, icon.y + icon.size, char, face, size, icon.colour, icon.size)
        # q/Q: the render mode and the horizontal scaling are graphics state, they outlive ET
        return f"q {self._text(run, f'3 Tr {n(stretch)} Tz ')} Q"

    def _text(self, run: TextRun, mode: str = "") -> str:
        font = self._font(run.font)
        if self.inks.settings.outline_text:
            return self._text_outlines(run)
        size = n(run.size)
        if self._noted is not None and run.text:  # a drawing being recorded (PdfMemo): what it takes of the font
            self._noted.chars.setdefault(run.font, {}).update(dict.fromkeys(run.text))
        shown = " ".join(f"{font.getSubsetInternalName(subset, self.doc)} {size} Tf ({_escape(chunk)}) Tj"
                         for subset, chunk in _split(font, run.text, self.doc))
        matrix = "0 1 -1 0" if run.rotate == 90 else "1 0 0 1"
        if run.spacing:  # the character spacing is text state, kept from one text object to the next: reset it
            shown = f"{n(run.spacing)} Tc {shown} 0 Tc"
        text = f"BT {mode}{matrix} {n(run.x)} {n(-run.y)} Tm {shown} ET"
        ink = self.inks.op(run.colour, 'rg', 'text')
        if run.outline is None:
            return f"{ink} {text}"
        # the outline first, twice as wide as it shows (the letter, drawn over it, covers its inner half), with
        # round joins so that sharp letters keep no spikes; in a saved state, for the stroke's width and mode
        return (f"q {self.inks.op(run.outline, 'RG', 'text')} {n(2 * run.outline_width)} w 1 j [] 0 d 1 Tr {text} Q "
                f"{ink} {text}")

    def _text_outlines(self, run: TextRun) -> str:
        """A run drawn as its glyphs' outlines (`PressSettings.outline_text`), each at the advance its font gives
        it, as the text would be set."""
        from generator.render.fonts import advance

        scale = run.size / 1000
        matrix = "0 1 -1 0" if run.rotate == 90 else "1 0 0 1"
        parts = [f"q {self.inks.op(run.colour, 'rg', 'text')} {matrix} {n(run.x)} {n(-run.y)} cm"]
        if run.outline is not None:  # the outline under the letters, as with embedded fonts
            parts.append(f"{self.inks.op(run.outline, 'RG', 'text')} {n(2 * run.outline_width / scale)} w 1 j [] 0 d")
        pen = 0.0
        for char in run.text:
            shape = _glyph_ops(run.font, char)
            if shape:
                place = f"{n(scale)} 0 0 {n(scale)} {n(pen)} 0 cm"
                if run.outline is not None:
                    parts.append(f"q {place} {shape} S Q")
                parts.append(f"q {place} {shape} f Q")
            pen += advance(run.font, char) * scale + run.spacing
        parts.append("Q")
        return " ".join(parts)

    def draw(self, items: Iterable[Primitive]) -> None:
        """Write primitives into the current stream (a page or a form), as few literal strings as possible."""
        out: list[str] = []
        for item in items:
            if isinstance(item, TextRun):
                out.append(self._text(item))
            elif isinstance(item, IconUse):
                out.append(f"q {self.inks.op(item.colour, 'rg', 'text')} {n(item.size / 100)} 0 0 {n(item.size / 100)} "
                           f"{n(item.x)} {n(-item.y - item.size)} cm")
                self.c.addLiteral(" ".join(out))
                out.clear()
                self.c.doForm(self._icon_form(item.name))
                out.append("Q")
                said = TEXT_EQUIVALENTS.get(item.name)
                if said is not None and not self.inks.settings.outline_text:  # outlined text: no text layer
                    out.append(self._unseen(item, *said))
            elif isinstance(item, Rect):
                shape = (_rounded(item.x, -item.y - item.h, item.w, item.h, item.r) if item.r > 0
                         else f"{n(item.x)} {n(-item.y - item.h)} {n(item.w)} {n(item.h)} re")
                out.append(self._shape(shape, item.paint, False))
            elif isinstance(item, Circle):
                out.append(self._shape(_circle(item.cx, -item.cy, item.r), item.paint, False))
            elif isinstance(item, Line):
                dash = " ".join(n(d) for d in item.dash)
                line = (f"{self.inks.op(item.colour, 'RG')} {n(item.width)} w [{dash}] 0 d "
                        f"{n(item.x1)} {n(-item.y1)} m {n(item.x2)} {n(-item.y2)} l S")
                # a cap is graphics state, kept for every later stroke: a line with its own is drawn in a saved state
                out.append(line if item.cap == "butt" else f"q {_CAPS[item.cap]} J {line} Q")
            elif isinstance(item, Path):
                out.append(self._shape(_shape_path(item.ops), item.paint, item.evenodd))
            elif isinstance(item, Group):
                if out:
                    self.c.addLiteral(" ".join(out))
                    out.clear()
                self._group(item)
            elif isinstance(item, ImageUse):
                picture = (item.source, item.tint)
                name, own_w, own_h = self.images.get(picture) or self._image(*picture)
                if self._noted is not None:
                    self._noted.pictures[picture] = None
                clip = ""
                if item.clip is not None:
                    cx, cy, cw, ch = item.clip
                    clip = f"{n(cx)} {n(-cy - ch)} {n(cw)} {n(ch)} re W n "
                out.append(f"q {clip}{n(item.w / own_w)} 0 0 {n(item.h / own_h)} {n(item.x)} {n(-item.y - item.h)} cm")
                self.c.addLiteral(" ".join(out))
                out.clear()
                self.c.doForm(name)
                out.append("Q")
        if out:
            self.c.addLiteral(" ".join(out))

    def _shape(self, shape: str, paint: Paint, evenodd: bool) -> str:
        """A path (PDF operators) filled and stroked with `paint`: a gradient fills it as a shading clipped to it."""
        fill = paint.fill
        if isinstance(fill, Gradient):
            clip = "W* n" if evenodd else "W n"
            drawn = f"q {shape} {clip} /{self._shading(fill)} sh Q"
            if paint.stroke is None:
                return drawn
            return f"{drawn} {self._shape(shape, paint._replace(fill=None), evenodd)}"
        state, op = _paint(paint, self.inks)
        if evenodd and op in ("f", "B"):
            op += "*"
        drawn = " ".join([*state, shape, op])
        return drawn if paint.cap == "butt" or paint.stroke is None else f"q {_CAPS[paint.cap]} J {drawn} Q"

    def _shading(self, gradient: Gradient) -> str:
        """The resource name of a gradient's shading (made once per document, its colours in the document's colour
        space), listed in the current stream's resources (reportlab adds them to the page's; :meth:`_form` to a
        form's)."""
        name = self.shadings.get(gradient)
        if name is None:
            from reportlab.pdfbase.pdfdoc import PDFAxialShading, PDFRadialShading

            function = _colour_function(gradient.stops, self.inks)
            space = self.inks.device_space
            if gradient.kind == "linear":
                x1, y1, x2, y2 = gradient.coords
                shading: Any = PDFAxialShading(round(x1, 3), round(-y1, 3), round(x2, 3), round(-y2, 3),
                                               Function=function, ColorSpace=space, Extend="[true true]")
            else:
                cx, cy, r = gradient.coords
                shading = PDFRadialShading(round(cx, 3), round(-cy, 3), 0, round(cx, 3), round(-cy, 3), round(r, 3),
                                           Function=function, ColorSpace=space, Extend="[true true]")
            name = self.shadings[gradient] = self.doc.addShading(shading)
        self.c._shadingUsed[name] = name
        notes = self._noted
        if notes is not None and len(self.stream_states) == notes.depth and gradient not in notes.shadings:
            notes.shadings.add(gradient)  # named in the stream of a drawing being recorded (PdfMemo)
            notes.made.append(gradient)
            notes.names.append(name)
        return name

    def _state(self, opacity: float, mask: str = "") -> str:
        """The resource name of a graphics state making paint `opacity` transparent and, with `mask`, shown
        through that form as a luminosity soft mask; listed in the current stream's resources."""
        from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFName, PDFObjectReference

        key = (round(opacity, 3), mask)
        found = self.states.get(key)
        if found is None:
            entries: dict[str, Any] = {"Type": PDFName("ExtGState"), "ca": key[0], "CA": key[0]}
            if mask:
                entries["SMask"] = PDFDictionary({"Type": PDFName("Mask"), "S": PDFName("Luminosity"),
                                                  "G": PDFObjectReference(self.doc.getXObjectName(mask))})
            found = self.states[key] = (f"Dj{len(self.states) + 1}", PDFDictionary(entries))
        self.stream_states[-1][found[0]] = found[1]
        return found[0]

    def _with_states(self, existing: Any, states: dict[str, Any]) -> Any:
        from reportlab.pdfbase.pdfdoc import PDFDictionary

        merged = dict(existing.dict) if existing is not None else {}
        merged.update(states)
        return PDFDictionary(merged)

    def _form(self, name: str, bbox: tuple[float, float, float, float], body: Any, group: bool = False) -> None:
        """A form XObject `name` drawn by `body()`, with the shadings and graphics states it uses in its resources
        (reportlab lists only fonts and forms); `group`: a transparency group, composited as one (ISO 32000-1,
        11.6.6), as an opacity or a soft mask needs."""
        from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFName, PDFResourceDictionary, PDFStream

        c = self.c
        c.beginForm(name, *(round(v, 3) for v in bbox))
        self.stream_states.append({})
        try:
            body()
            shadings = dict(c._shadingUsed)
        finally:
            states = self.stream_states.pop()
        c.endForm()
        form = self.doc.idToObject[self.doc.getXObjectName(name)]
        if shadings or states:
            resources = PDFResourceDictionary()
            resources.basicFonts()
            resources.allProcs()
            if form.XObjects:
                resources.XObject = form.XObjects
            if states:
                resources.ExtGState = self._with_states(form.ExtGState, states)
            resources.setShading(shadings)
            form.Resources = resources
        if group:
            contents = PDFStream()
            contents.content = form.stream
            contents.__Comment__ = "xobject form stream"
            contents.dictionary["Group"] = PDFDictionary({"Type": PDFName("Group"), "S": PDFName("Transparency"),
                                                          "CS": PDFName(self.inks.device_space)})
            form.Contents = contents

    def _group(self, group: Group) -> None:
        """Primitives drawn together: transformed, clipped, and (with an opacity or a mask) drawn into a
        transparency group first, then blended as one."""
        c = self.c
        if group.plain:  # only a mark (decoration): drawn as its items are
            self.draw(group.items)
            return
        head = ["q"]
        if group.matrix is not None:
            a, b, cc, d, e, f = group.matrix  # in the page's frame, whose y is the model's negated
            head.append(f"{n(a)} {n(-b)} {n(-cc)} {n(d)} {n(e)} {n(-f)} cm")
        if group.clip is not None:
            head.append(f"{_shape_path(group.clip)} W* n")
        if group.opacity >= 1 and group.mask is None:
            c.addLiteral(" ".join(head))
            self.draw(group.items)
            c.addLiteral("Q")
            return
        name, state = self._translucent(group)
        head.append(f"/{state} gs")
        c.addLiteral(" ".join(head))
        c.doForm(name)
        c.addLiteral("Q")

    def _translucent(self, group: Group) -> tuple[str, str]:
        """Draw a see-through or masked group into a transparency group (a form), with its mask's; the form's name
        and that of the graphics state that places it. Its icons and pictures are defined already (page()
        prepares every leaf)."""
        notes = self._noted
        named_here = notes is not None and len(self.stream_states) == notes.depth
        if self._premade:  # made by a copy that failed (PdfMemo), for this drawing written anew
            made, names = self._premade.pop(0)
            assert made is group
        else:
            from generator.render.shapes import extent

            x0, y0, x1, y1 = extent(group.items)
            self.groups += 1
            name = f"group{self.groups}"
            self._form(name, (x0 - 1, -y1 - 1, x1 + 1, -y0 + 1), lambda: self.draw(group.items), group=True)
            mask_name = ""
            if group.mask is not None:
                mask = group.mask
                mask_name = f"{name}-mask"
                self._form(mask_name, (mask.x, -mask.y - mask.h, mask.x + mask.w, -mask.y),
                           lambda: self.draw((mask,)), group=True)
            names = name, self._state(group.opacity, mask_name)
        if notes is not None and named_here:  # named in the stream of a drawing being recorded (PdfMemo)
            notes.made.append(group)
            notes.names.append(names)
        return names


def _colour_function(stops: tuple[tuple[float, str], ...], inks: Inks) -> Any:
    """A PDF function giving a gradient's colour at 0 to 1 (in the document's colour space: `Inks.components`): a
    linear blend between each pair of stops (type 2), stitched together (type 3), the first and last colours held
    before and after their stops."""
    from reportlab.pdfbase.pdfdoc import PDFExponentialFunction, PDFStitchingFunction

    def components(colour: str) -> list[float]:
        return [round(v, 4) for v in inks.components(colour)]

    points = list(stops)
    if points[0][0] > 0:
        points.insert(0, (0.0, points[0][1]))
    if points[-1][0] < 1:
        points.append((1.0, points[-1][1]))
    if len(points) == 2:
        return PDFExponentialFunction(N=1, C0=components(points[0][1]), C1=components(points[1][1]))
    functions = [PDFExponentialFunction(N=1, C0=components(a[1]), C1=components(b[1])) for a, b in zip(points, points[1:])]
    bounds = [round(offset, 4) for offset, _colour in points[1:-1]]
    return PDFStitchingFunction(functions, bounds, [0, 1] * len(functions), Domain="[0 1]")


@cache
def _glyph_ops(face: str, char: str) -> str:
    """A glyph's outline (generator.render.fonts.glyph_path: SVG path data in thousandths of an em, y up) as PDF
    path operators; its quadratic curves written as the cubic curves PDF draws."""
    import re

    from generator.render.fonts import glyph_path

    tokens = re.findall(r"[MLHVCQZ]|-?\d+(?:\.\d+)?", glyph_path(face, char))
    out: list[str] = []
    x = y = 0.0
    i = 0
    command = ""
    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            i += 1
            if command == "Z":
                out.append("h")
                continue
        values = [float(v) for v in tokens[i:i + {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4}[command]]]
        i += len(values)
        if command in "ML":
            x, y = values
            out.append(f"{n(x)} {n(y)} {'m' if command == 'M' else 'l'}")
            command = "L" if command == "M" else command  # numbers after a move continue as lines
        elif command in "HV":
            x, y = (values[0], y) if command == "H" else (x, values[0])
            out.append(f"{n(x)} {n(y)} l")
        elif command == "C":
            out.append(" ".join(n(v) for v in values) + " c")
            x, y = values[4], values[5]
        else:  # a quadratic curve: its cubic control points are 2/3 of the way from each end to its one control
            qx, qy, ex, ey = values
            out.append(f"{n(x + 2 / 3 * (qx - x))} {n(y + 2 / 3 * (qy - y))} {n(ex + 2 / 3 * (qx - ex))} "
                       f"{n(ey + 2 / 3 * (qy - ey))} {n(ex)} {n(ey)} c")
            x, y = ex, ey
    return " ".join(out)


#: The size SVG art with transparency is flattened at for PDF/X-1a, its longer side in pixels: card art is drawn
#: some 40 to 90 mm wide, so 2,000 px give it 560 to 1,270 dpi, more than a press's 300 and sharp once printed.
FLATTEN_PX = 2000


def _flattened(art: Any) -> bytes:
    """SVG art as a PNG with transparency, FLATTEN_PX on its longer side: drawn as the PDF draws it
    (generator.backends.pdf_art) into an RGB PDF in memory, rendered by pdfium on a transparent ground."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from generator.backends.pdf_art import art_form, smoothed
    from generator.pdfium_lock import page_image

    width, height = float(art.drawing.width), float(art.drawing.height)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1, initialFontName=fonts.pdf_name("open-sans"))
    form, _w, _h = art_form(canvas, art, lambda picture: canvas._doc.Reference(smoothed(
        _raster_xobject(canvas._doc, picture.kind, picture.data, Inks()), picture, Inks())), Inks())
    canvas._doc.Reference(form, canvas._doc.getXObjectName("art"))
    canvas.doForm("art")
    canvas.showPage()
    canvas.save()
    image = page_image(buffer.getvalue(), 0, scale=FLATTEN_PX / max(width, height), fill_color=(0, 0, 0, 0))
    out = io.BytesIO()
    image.convert("RGBA").save(out, "PNG")
    return out.getvalue()


def _png_passthrough(data: bytes) -> tuple[int, int, int, bytes] | None:
    """Width, height, colours and the compressed rows of an 8-bit grey or RGB PNG without transparency or
    interlacing, which PDF's Flate filter with the PNG predictors reads as they are; None for any other PNG."""
    import struct

    pos, width, height, colours, idat = 8, 0, 0, 0, []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour_type not in (0, 2) or interlace:
                return None
            colours = 1 if colour_type == 0 else 3
        elif kind == b"tRNS":
            return None
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    return (width, height, colours, b"".join(idat)) if colours and idat else None


def _raster_xobject(doc: Any, kind: str, data: bytes, inks: Inks) -> Any:
    """An image XObject of a PNG or JPEG file (see the module's notes on how each kind is embedded). In CMYK, every
    picture is decoded and converted (`Inks.picture`); for PDF/X-1a, which forbids soft masks, its transparency
    becomes a stencil mask (each pixel shown or not, at half opacity)."""
    import io

    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream

    from generator.render.images import open_quietly

    def xobject(width: int, height: int, space: str, content: bytes, filters: list[str],
                parameters: dict[str, Any] | None = None, mask: Any = None) -> Any:
        entries: dict[str, Any] = {"Type": PDFName("XObject"), "Subtype": PDFName("Image"), "Width": width,
                                   "Height": height, "ColorSpace": PDFName(space), "BitsPerComponent": 8,
                                   "Filter": PDFArray([PDFName(f) for f in filters])}
        if parameters:  # one per filter: with an array of filters, an array of parameters (ISO 32000-1, 7.3.8.2)
            entries["DecodeParms"] = PDFArray([PDFDictionary(parameters)])
        if mask is not None:
            entries["SMask"] = mask
        return PDFStream(PDFDictionary(entries), content)

    if inks.cmyk:
        with open_quietly(data) as image:
            alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
            rgba = image.convert("RGBA" if alpha else "RGB")
        cmyk = inks.picture(rgba.convert("RGB"))
        mask = None
        if alpha and inks.settings.pdfx == "x1a":
            stencil = rgba.getchannel("A").point(lambda v: 255 if v >= 128 else 0).convert("1")
            mask = doc.Reference(PDFStream(PDFDictionary({
                "Type": PDFName("XObject"), "Subtype": PDFName("Image"), "Width": stencil.width,
                "Height": stencil.height, "ImageMask": "true",  # reportlab writes text as it is, and a Python True as `True` "BitsPerComponent": 1,
                # a stencil paints where its bits are 0 unless decoded the other way round
                "Decode": PDFArray([1, 0]), "Filter": PDFArray([PDFName("FlateDecode")])}),
                zlib.compress(stencil.tobytes(), PIXELS_LEVEL)))
        elif alpha:
            mask = doc.Reference(xobject(rgba.width, rgba.height, "DeviceGray",
                                         zlib.compress(rgba.getchannel("A").tobytes(), PIXELS_LEVEL), ["FlateDecode"]))
        stream = xobject(cmyk.width, cmyk.height, "DeviceCMYK", zlib.compress(cmyk.tobytes(), PIXELS_LEVEL),
                         ["FlateDecode"], mask=mask)
        if mask is not None and inks.settings.pdfx == "x1a":
            del stream.dictionary.dict["SMask"]
            stream.dictionary["Mask"] = mask
        return stream
    if kind == "png":
        rows = _png_passthrough(data)
        if rows is not None:
            width, height, colours, content = rows
            space = "DeviceGray" if colours == 1 else "DeviceRGB"
            return xobject(width, height, space, content, ["FlateDecode"],
                           {"Predictor": 15, "Colors": colours, "BitsPerComponent": 8, "Columns": width})
    with open_quietly(data) as image:
        if kind == "jpeg" and image.mode in ("L", "RGB"):
            return xobject(image.width, image.height, "DeviceGray" if image.mode == "L" else "DeviceRGB", data,
                           ["DCTDecode"])
        alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
        rgb = image.convert("RGBA" if alpha else "RGB")
    mask = None
    if alpha:
        opacity = rgb.getchannel("A")
        mask = doc.Reference(xobject(rgb.width, rgb.height, "DeviceGray",
                                     zlib.compress(opacity.tobytes(), PIXELS_LEVEL),
                                     ["FlateDecode"]))
        rgb = rgb.convert("RGB")
    return xobject(rgb.width, rgb.height, "DeviceRGB", zlib.compress(rgb.tobytes(), PIXELS_LEVEL), ["FlateDecode"],
                   mask=mask)


def draw_picture(path: FilePath) -> None:
    """Embed one picture file into a PDF in memory, exactly as a build embeds it, and write that PDF: what a build
    would refuse about the picture raises here, as the same ContentError (`donjon content check` draws every
    picture and icon of a deck so)."""
    import io

    from reportlab import rl_config
    from reportlab.pdfgen.canvas import Canvas

    a85 = rl_config.useA85
    rl_config.useA85 = 0
    try:
        canvas = Canvas(io.BytesIO(), invariant=1, pageCompression=1, initialFontName=fonts.pdf_name("open-sans"),
                        initialFontSize=10)
        writer = _Writer(canvas, Inks())
        name, _w, _h = writer._image(str(path))
        canvas.doForm(name)
        canvas.showPage()
        try:
            canvas.save()
        except (ValueError, TypeError, KeyError, AttributeError, ArithmeticError) as err:
            from generator.errors import ContentError, Problem
            from generator.resources import display_path

            raise ContentError([Problem(display_path(path), None, "", f"cannot be drawn into the PDF "
                                        f"({type(err).__name__}: {err})")]) from None
    finally:
        rl_config.useA85 = a85


def write_pdf(pages: Iterable[Page], path: FilePath | IO[bytes], *, title: str, subject: str = "",
              ink: PressSettings = PressSettings(), memo: Memo | None = None, lang: str = "en",
              compress: bool = True) -> PdfStats:
    """Draw `pages` into a PDF at `path` (the caller makes it atomic), or into a binary file object (in memory, for
    rasterising); pages are drawn as they come. `ink` says how colours print (RGB, or CMYK through a profile with
    an OutputIntent and, when asked, the marks of PDF/X-1a or PDF/X-4: :func:`_print_ready`). With a `memo` (the
    same for each document of a series), drawings placed in the last document are not written again (PdfMemo).
    `lang` is the document's language, for screen readers (/Lang). `compress=False` leaves the pages' streams
    uncompressed: the same page for a PDF rasterised at once in memory, which then costs no deflating either way."""
    from reportlab import rl_config
    from reportlab.pdfgen.canvas import Canvas

    kept: PdfMemo | None = None
    if memo is not None:
        found = memo.kept.get("pdf")
        kept = found if isinstance(found, PdfMemo) and found.ink == ink else PdfMemo(ink)
        memo.kept["pdf"] = kept
    stats = PdfStats()
    canvas: Any = None
    writer: _Writer | None = None
    a85 = rl_config.useA85
    rl_config.useA85 = 0  # binary Flate streams: smaller files and no ASCII85 pass over every stream
    try:
        for page in pages:
            if canvas is None:
                target = str(path) if isinstance(path, FilePath) else path
                canvas = Canvas(target, pagesize=(page.width, page.height), invariant=1,
                                pageCompression=int(compress),
                                initialFontName=fonts.pdf_name("open-sans"), initialFontSize=10, lang=lang)
                canvas.setTitle(title)
                canvas.setAuthor("donjon")
                canvas.setCreator("donjon")
                canvas.setSubject(subject)
                writer = _Writer(canvas, Inks(ink), kept)
            assert writer is not None
            writer.page(page)
            stats.pages += 1
            stats.placed += len(page.placed)
        if canvas is None:
            raise ValueError("a PDF needs at least one page")
        assert writer is not None
        if writer.outline:
            canvas.showOutline()
        stats.pictures = dict(writer.pictures)
        numbers = canvas._doc.idToObjectNumberAndVersion
        stats.enlarged = {numbers[name][0]: size for name, size in writer.enlarged.items() if name in numbers}
        if ink.space == "cmyk":
            _print_ready(canvas, ink)
        canvas.save()
        if kept is not None:
            kept.finish()
    finally:
        rl_config.useA85 = a85
    return stats


#: What a PDF/X file says it is (ISO 15930-4 for PDF/X-1a:2003, ISO 15930-7 for PDF/X-4), in its Info dictionary.
PDFX_VERSIONS = {"x1a": "PDF/X-1a:2003", "x4": "PDF/X-4"}


def _print_ready(canvas: Any, ink: PressSettings) -> None:
    """The parts of a document a press reads: an OutputIntent holding the ICC profile its CMYK was made for, and
    for PDF/X the version in the Info dictionary (and, for PDF/X-4, the XMP metadata and PDF 1.6 it requires).

    reportlab's catalog and info write a fixed set of keys; the extra keys are added to those objects here."""
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream, PDFString

    doc = canvas._doc
    assert ink.profile is not None
    profile = PDFStream(PDFDictionary({"N": 4}), ink.profile.read_bytes(), filters=None)
    intent = PDFDictionary({
        "Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": PDFString(ink.condition or ink.profile.stem),
        "OutputCondition": PDFString(ink.condition or ink.profile.stem),
        "RegistryName": PDFString("http://www.color.org"), "Info": PDFString(ink.profile.stem),
        "DestOutputProfile": doc.Reference(_compressed(profile))})
    catalog = doc.Catalog
    catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]
    catalog.OutputIntents = PDFArray([intent])
    version = PDFX_VERSIONS.get(ink.pdfx)
    if version is None:
        # reportlab writes PDF 1.3, whose ICC profiles are version 2; a version 4 profile (`--profile`) needs the
        # PDF version that took it (ISO 32000-1, Table 67), said by the catalog's /Version (7.7.2: "if later than
        # the version specified in the file's header"). PDF/X keeps its own version: the preflight refuses a
        # version 4 profile in PDF/X-1a.
        needed = icc_pdf_version(ink.profile.read_bytes()[:128])
        if needed > (1, 3):
            catalog.Version = PDFName(f"{needed[0]}.{needed[1]}")
            catalog.__NoDefault__ = [*catalog.__NoDefault__, "Version"]
        return
    info = doc.info
    plain = info.format

    def with_version(document: Any) -> Any:
        from reportlab.pdfbase.pdfdoc import PDFDictionary as Dictionary

        formatted = plain(document)
        # the Info dictionary reportlab wrote, with the PDF/X keys before its end
        extra = Dictionary({"GTS_PDFXVersion": PDFString(version)}).format(document)
        return formatted[:-2] + extra[2:]

    info.format = with_version
    if ink.pdfx == "x4":
        catalog.Version = PDFName("1.6")
        catalog.__NoDefault__ = [*catalog.__NoDefault__, "Version", "Metadata"]
        catalog.Metadata = doc.Reference(_xmp(canvas, version))


#: The PDF version that first took each ICC profile version 4.x (ISO 32000-1, Table 67: PDF 1.5 ICC.1:2001-12, 4.0;
#: PDF 1.6 ICC.1:2003-09, 4.1; PDF 1.7 ICC.1v4.2:2004-10, 4.2); every version 2 profile is PDF 1.3's or 1.4's.
ICC_V4_PDF = {0: (1, 5), 1: (1, 6)}


def icc_pdf_version(header: bytes) -> tuple[int, int]:
    """The lowest PDF version whose ICCBased colour spaces take the profile whose header is `header` (its major
    version at byte 8, its minor version in the high nibble of byte 9, ICC.1:2010 7.2.4)."""
    major, minor = header[8], header[9] >> 4
    if major < 4:
        return (1, 3)
    return ICC_V4_PDF.get(minor, (1, 7)) if major == 4 else (1, 7)


def _compressed(stream: Any) -> Any:
    from reportlab.pdfbase.pdfdoc import PDFStreamFilterZCompress

    stream.filters = [PDFStreamFilterZCompress()]
    return stream


def _xmp(canvas: Any, version: str) -> Any:
    """The XMP metadata PDF/X-4 requires: title, producer and the PDF/X version (and the fixed dates of
    reportlab's invariant documents, so two builds stay byte-identical)."""
    from xml.sax.saxutils import escape

    from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFName, PDFStream

    info = canvas._doc.info
    xmp = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(info.title)}</rdf:li></rdf:Alt></dc:title>
<xmp:CreatorTool>donjon</xmp:CreatorTool><xmp:CreateDate>2000-01-01T00:00:00Z</xmp:CreateDate>
<xmp:ModifyDate>2000-01-01T00:00:00Z</xmp:ModifyDate><pdf:Producer>{escape(info.producer)}</pdf:Producer>
<pdf:Trapped>False</pdf:Trapped><pdfxid:GTS_PDFXVersion>{version}</pdfxid:GTS_PDFXVersion>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>"""
    return PDFStream(PDFDictionary({"Type": PDFName("Metadata"), "Subtype": PDFName("XML")}), xmp.encode("utf-8"),
                     filters=None)
