"""The drawing model: what a card, a back or a sheet looks like, independent of any file format.

Everything is in points (1/72 in) with the origin at the top-left and y growing downwards, as on paper. A
:class:`Drawing` (a card face, a back, later a score sheet) is a flat tuple of primitives in its own
coordinates, whose origin is the top-left corner of its trim box; anything drawn into the bleed has negative
coordinates or coordinates beyond the trim size. A :class:`Page` places drawings and adds its own primitives
(crop marks, the page line). The PDF and SVG backends draw exactly these shapes, so the two agree in geometry.
A page may also carry :class:`Anchor` places and :class:`Link` areas, which the PDF backend turns into the
document's outline (bookmarks) and internal links; they draw nothing.

The primitives are named tuples: immutable, typed, and cheap to create by the thousand (a deck of 100 cards
makes some 2,000 of them). Text is already laid out when it reaches the model: a :class:`TextRun` is one
line's worth of text in one font, at a measured position; icons inside text are separate :class:`IconUse`
primitives, and pictures of a deck (its art, its own icons) are :class:`ImageUse` s naming their file. Backends
never wrap, measure or align anything. A page may also carry :class:`FormField` s, the
boxes of a fillable PDF (the castle score sheet); only the PDF backend writes them.
"""

import math
from collections.abc import Iterable, Iterator
from typing import Literal, NamedTuple

from generator.units import PT_PER_MM
from generator.units import mm as mm  # re-exported: drawings are written in millimetres

#: A colour as `#rrggbb` (lower case); checked where it enters (layouts) so backends can trust it.
Colour = str
#: One operation of a path: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y) or ("Z",).
Op = tuple[str | float, ...]
#: An affine transform (a, b, c, d, e, f) in SVG's sense: the point (x, y) is drawn at (a x + c y + e, b x + d y + f),
#: y down. A turn clockwise on the card by t degrees is (cos t, sin t, -sin t, cos t, ...).
Matrix = tuple[float, float, float, float, float, float]
#: How the ends of an open stroke are drawn: cut at the end, rounded, or squared past it by half the width.
LineCap = Literal["butt", "round", "square"]


class Gradient(NamedTuple):
    """A fill whose colour changes: `linear` along the line (x1, y1) -> (x2, y2) (`coords` x1, y1, x2, y2), or
    `radial` from its centre (cx, cy) out to radius r (`coords` cx, cy, r). `stops` are (offset 0 to 1, colour)
    with offsets increasing; beyond the first and last stop the end colours go on (SVG's `pad`, PDF's Extend).
    Coordinates are those of the shape it fills. Colours mix in sRGB, as SVG and PDF's DeviceRGB both mix them."""

    kind: Literal["linear", "radial"]
    coords: tuple[float, ...]
    stops: tuple[tuple[float, Colour], ...]


class Paint(NamedTuple):
    """How a shape is filled and stroked; `None` leaves that part out."""

    fill: Colour | Gradient | None = None
    stroke: Colour | None = None
    #: stroke width in points
    width: float = 0.0
    #: dash pattern in points (on, off, ...); empty for a solid line
    dash: tuple[float, ...] = ()
    #: the ends of an open path's stroke
    cap: LineCap = "butt"


class Rect(NamedTuple):
    x: float
    y: float
    w: float
    h: float
    paint: Paint
    #: corner radius (0 for square corners)
    r: float = 0.0


class Circle(NamedTuple):
    cx: float
    cy: float
    r: float
    paint: Paint


class Line(NamedTuple):
    x1: float
    y1: float
    x2: float
    y2: float
    colour: Colour
    width: float
    dash: tuple[float, ...] = ()
    cap: LineCap = "butt"


class Path(NamedTuple):
    """Polygons and curves; several closed subpaths with the even-odd rule make holes.

    Operations: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",)."""

    ops: tuple[Op, ...]
    paint: Paint
    evenodd: bool = True


class TextRun(NamedTuple):
    """Text in one font, its baseline starting at (x, y); `width` is its measured advance."""

    x: float
    y: float
    text: str
    font: str
    size: float
    colour: Colour
    width: float
    #: 90 turns the run a quarter turn anticlockwise about (x, y), reading upwards (a page line in a side margin)
    rotate: int = 0
    #: points added after every character, spaces included (letter spacing); `width` includes them
    spacing: float = 0.0
    #: an outline drawn around every letter, under it, in this colour (outlined titles over art), `outline_width`
    #: points wide outside the letter's edge
    outline: Colour | None = None
    outline_width: float = 0.0


class IconUse(NamedTuple):
    """One of our icons (generator.render.icons) in a square of side `size` whose top-left is (x, y)."""

    name: str
    x: float
    y: float
    size: float
    colour: Colour


class ImageUse(NamedTuple):
    """A picture file (PNG, JPEG or SVG, read by generator.render.images) stretched over the rectangle whose
    top-left is (x, y); with `clip` (x, y, w, h), only what falls inside that rectangle shows (a picture that covers
    its box is cropped to it). `source` is the file's absolute path: backends embed each file once per document and
    place it by reference, and never write the path itself into a file."""

    source: str
    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float] | None = None
    #: recoloured: every colour of the picture becomes this one, its shape and transparency kept (a one-colour
    #: icon or SVG drawing in each card's colour); see generator.render.recolour
    tint: Colour | None = None


class Group(NamedTuple):
    """Primitives drawn together: transformed by `matrix` (None: as they are), seen only inside `clip` (a path in
    the group's own coordinates, even-odd), shown through `mask` (a picture whose lightness says how much shows:
    white all, black nothing, outside it nothing), and made `opacity` transparent as a whole (the group is drawn
    first, then blended, so its overlapping parts do not show through each other). A group that sets none of
    these is drawn as its items are; `decoration` says they are decoration, which `--ink light` lightens
    (generator.render.ink_light)."""

    items: tuple["Primitive", ...]
    matrix: Matrix | None = None
    opacity: float = 1.0
    clip: tuple[Op, ...] | None = None
    mask: ImageUse | None = None
    decoration: bool = False

    @property
    def plain(self) -> bool:
        """Whether the group sets nothing of how its items are drawn (no turn, clip, mask or opacity)."""
        return self.matrix is None and self.clip is None and self.mask is None and self.opacity >= 1


Primitive = Rect | Circle | Line | Path | TextRun | IconUse | ImageUse | Group


def leaves(items: Iterable[Primitive]) -> Iterator[Primitive]:
    """Every primitive of `items` that draws, those inside groups (and their masks) included."""
    for item in items:
        if isinstance(item, Group):
            yield from leaves(item.items)
            if item.mask is not None:
                yield item.mask
        else:
            yield item

FieldKind = Literal["text", "checkbox"]


class FormField(NamedTuple):
    """A box a PDF viewer lets the reader fill in (an AcroForm field), over a page; (x, y) is its top-left corner.

    Fields are not drawn: the page's own primitives show where they are (a box, a square to tick), so a page
    looks the same on paper, in an SVG, or in a viewer before anything is typed. Backends without forms leave
    them out. A text field shows what is typed in a standard PDF font (the one font a PDF does not embed)."""

    name: str
    kind: FieldKind
    x: float
    y: float
    w: float
    h: float
    #: what a viewer shows when the pointer rests on the field
    tooltip: str = ""
    #: the size of typed text, in points (text fields)
    size: int = 10
    align: Literal["left", "center"] = "left"
    #: the most characters a text field takes (0: no limit)
    max_length: int = 0
    #: the initial value: text, or "Yes" for a ticked checkbox
    value: str = ""
    read_only: bool = False
    #: neither shown nor printed (a marker for programs reading the filled file)
    hidden: bool = False


class Drawing(NamedTuple):
    """A card face or back (or any other piece drawn once and placed on pages).

    `key` names a drawing that is placed more than once (a card printed in several copies, a deck's back):
    the PDF backend draws it once as a reusable object and places that object each time.
    """

    width: float
    height: float
    items: tuple[Primitive, ...]
    #: how far the drawing extends beyond its trim box on every side (0 without bleed)
    bleed: float = 0.0
    key: str | None = None
    #: the colour behind everything, filling the trim box and the bleed
    background: Colour | None = None
    #: the line the piece is cut along, when it is not its trim box (a hexagonal tile, a round token): a path in
    #: the drawing's coordinates; the items then draw nothing outside it but the bleed around it
    outline: tuple[Op, ...] | None = None


class Placed(NamedTuple):
    """A drawing on a page: its trim box's top-left corner at (x, y); `turned` rotates it by 180 degrees."""

    drawing: Drawing
    x: float
    y: float
    turned: bool = False


#: `fold`: fronts and their backs side by side on one page, to fold in half (`--duplex fold`)
PageKind = Literal["fronts", "backs", "sheet", "fold"]


class Anchor(NamedTuple):
    """A place on a page that links and the document's outline (its bookmarks) can go to.

    `y` is the top of the place on its page. With a `title`, the anchor is also an entry of the outline, at
    `level` (0 for the top; an entry's level is at most one more than the entry before it)."""

    key: str
    y: float
    title: str = ""
    level: int = 0


class Link(NamedTuple):
    """A clickable area of a page (top-left corner at (x, y)) that goes to the anchor named `key`."""

    x: float
    y: float
    w: float
    h: float
    key: str


class Page(NamedTuple):
    width: float
    height: float
    #: placed drawings, then the page's own primitives on top (crop marks, the page line)
    placed: tuple[Placed, ...]
    items: tuple[Primitive, ...] = ()
    kind: PageKind = "sheet"
    number: int = 1
    label: str = ""
    #: places on this page that links and the outline go to (documents such as the card references)
    anchors: tuple[Anchor, ...] = ()
    #: clickable areas going to anchors anywhere in the document
    links: tuple[Link, ...] = ()
    #: fillable fields over the page (PDF only)
    fields: tuple[FormField, ...] = ()
    #: where the page is cut (x, y, w, h, top-left y-down like everything else): a PDF's TrimBox; None for the
    #: whole page (a sheet of paper that is printed, not cut to another size)
    trim: tuple[float, float, float, float] | None = None
    #: how far printing may run beyond the cut (a PDF's BleedBox), as (x, y, w, h); None for the whole page
    bleed_box: tuple[float, float, float, float] | None = None
    #: everything drawn larger or smaller about the page's centre by these factors (across, down): a printer's
    #: own scale made up for (generator.printers)
    scale: tuple[float, float] = (1.0, 1.0)
    #: everything moved by this much (right, down; after `scale`): a printer's back offset made up for on the back
    #: of a page printed on both sides (generator.render.imposition.on_printer)
    offset: tuple[float, float] = (0.0, 0.0)


#: Points per millimetre, and millimetres in points (defined in generator.units, used by every drawing).
MM = PT_PER_MM

#: A quarter circle drawn as one cubic Bézier curve has its control points this fraction of the radius from its
#: ends, along the tangents: 4/3 (sqrt 2 - 1), which makes the curve pass through the circle at 45 degrees too
#: (0.5522847498...). The icons and the PDF backend draw circles and rounded corners with it.
KAPPA = 4 * (math.sqrt(2) - 1) / 3
