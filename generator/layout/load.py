"""Finding, merging and compiling layouts: everything a layout file says is checked here, once.

A layout is found by id in `templates/layouts/ID.yaml`, or (for a user's deck) as a `.yaml` file named relative
to the deck's folder, anywhere inside the content folder, so decks can share one (`../shared/unit.yaml`); a
layout's own `extends` and files are relative to the layout. `extends` starts from another layout: the child's
palette, styles and boxes are merged over the parent's key by key (a box of the same name is changed, a new box
is drawn after the inherited ones). A box's own `extends` starts from another box of the merged layout. Either
chain that comes back on itself is an error naming the cycle, as is a parent, box or style that does not exist,
with the file and line.

:func:`load_layout` returns a :class:`Layout` whose templates and expressions are compiled and whose lengths
are converted; :meth:`Layout.frames` resolves the percentages for one card size and checks that every box lies
on the card and that text and icons keep inside the safe area.

A layout is compiled for a deck's :class:`~generator.catalog.assets.Assets` (its fonts and icons of its own) on
top of those the layout files declare: a style's `font` must be a built-in face or a declared one, an icon a
built-in icon or a declared one. The compiled layout records the files it came from and the names its templates
read (a back reading only `deck` is the same for every card).
"""

import re
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from generator.catalog.assets import NO_ASSETS, Assets, resolve_assets
from generator.catalog.shapes import Shape, named_shape
from generator.errors import ContentError, InputError, Problem
from generator.fields import Invalid, check_document
from generator.files import resolve_within
from generator.i18n import phrase, phrase_figure, phrase_n
from generator.layout import spec as S
from generator.layout.spec import Dim
from generator.layout.templates import (
    JINJA_GLOBALS,
    Template,
    TemplateFailure,
    compile_expression,
    compile_template,
    expression_names,
)
from generator.render import fonts
from generator.render.icons import icons
from generator.render.model import LineCap, Matrix
from generator.resources import display_path, templates_dir
from generator.sayings import quote
from generator.units import mm, to_mm
from generator.wording import a_or_an
from generator.yamlio import Document, load_file

#: Text and icons keep at least this far inside the card's edge unless a layout says otherwise (`safe:`).
DEFAULT_SAFE = Dim(mm(3))
#: Slack for comparing positions (a thousandth of a millimetre is far below anything a printer shows).
EPSILON = 0.003
#: How far an outline reaches outside letters when the layout gives no outline_width: visible on any printer,
#: thin enough for 8 pt text to stay readable.
OUTLINE_WIDTH = 1.0
#: Hatching's defaults: lines 2 mm apart, half a point wide (a light tint at arm's length).
HATCH_SPACING = mm(2)
HATCH_WIDTH = 0.5

REQUIRED = {
    "rect": ("x", "y", "width", "height"),
    "circle": ("x", "y", "width", "height"),
    "ellipse": ("x", "y", "width", "height"),
    "polygon": ("x", "y", "width", "height"),
    "star": ("x", "y", "width", "height"),
    "path": ("x", "y", "width", "height", "d"),
    "line": ("stroke",),
    "text": ("x", "y", "width", "height", "text"),
    "icon": ("x", "y", "width", "height", "icon"),
    "image": ("x", "y", "width", "height", "src"),
    "rows": ("x", "y", "width", "height", "items", "label", "text", "label_style", "label_width"),
    "notes": ("x", "y", "width", "height"),
}
#: Keys that mean something for each kind (anything else on a box of that kind is a mistake worth reporting).
_PAINT = {"fill", "stroke", "stroke_width", "dash", "hatch"}
#: The keys that shape an outline, by the kind of outline (a shape box, or the clip of a picture).
OUTLINE_KEYS = {"rect": {"radius"}, "circle": set(), "ellipse": set(), "polygon": {"sides", "points", "angle"},
                "star": {"points", "inner", "angle"}, "path": {"d", "viewbox"}}
ALLOWED = {
    "rect": {*_PAINT, "radius", "bleed"},
    "circle": _PAINT,
    "ellipse": _PAINT,
    "polygon": {*_PAINT, "sides", "points", "angle"},
    "star": {*_PAINT, "points", "inner", "angle"},
    "path": {*_PAINT, "d", "viewbox", "cap"},
    "line": {"stroke", "stroke_width", "dash", "cap", "x1", "y1", "x2", "y2"},
    "text": {"text", "style", "markup", *S.STYLE_KEYS},
    "icon": {"icon", "colour"},
    "image": {"src", "fit", "anchor", "bleed", "clip", "mask", "colour", "radius", "sides", "points", "inner",
              "angle", "d", "viewbox"},
    "rows": {"items", "label", "text", "style", "markup", *S.STYLE_KEYS, "label_style", "label_width", "label_fill",
             "gap", "row_gap", "divider"},
    "notes": {"style", *S.STYLE_KEYS, "labels"},
}
COMMON = {"kind", "extends", "when", "x", "y", "width", "height", "layer", "rotate", "pivot", "opacity", "flip",
          "decoration"}
TEXT_KINDS = ("text", "icon", "rows", "notes")


class MissingLayout(Exception):
    """A deck names a layout that does not exist; the caller says which deck (the message says why)."""


def _fail(file: str, line: int | None, where: str, message: str) -> ContentError:
    return ContentError([Problem(file, line, where, message)])


# --- finding layout files -----------------------------------------------------------------------------------------

def shipped_dir() -> Path:
    return templates_dir() / "layouts"


def shipped_ids() -> list[str]:
    return sorted(p.stem for p in shipped_dir().glob("*.yaml"))


def layout_path(ref: str, folder: Path | None, root: Path | None = None, shipped: Path | None = None,
                what: str = "layout", example: str = "generic", owner: str = "deck") -> Path:
    """The file a layout reference names: a `.yaml` file relative to `folder` (a user deck's, or a user layout's)
    inside the content folder `root` (default: `folder` itself), or the id of a layout shipped in `shipped`
    (default: the card layouts; the sheet layouts call it a `what`, like `example`, of an `owner`'s own).

    Raises ValueError with the reason when it names nothing (callers add where the reference was written)."""
    shipped = shipped or shipped_dir()
    ids = ", ".join(sorted(p.stem for p in shipped.glob("*.yaml")))
    if ref.lower().endswith((".yaml", ".yml")):
        if folder is None:
            raise ValueError(f"{ref!r} is a file name; only a {owner} folder's {what}s may name files "
                             f"(shipped {what}s: {ids})")
        path = resolve_within(root or folder, folder, ref)
        if not path.is_file():
            raise ValueError(phrase("{ref}: there is no such file in {folder}", ref=quote(ref),
                                    folder=display_path(path.parent)))
        return path
    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", ref):
        raise ValueError(_neither(ref, what, example))
    path = shipped / f"{ref}.yaml"
    if not path.is_file():
        raise ValueError(_not_shipped(ref, what, ids))
    return path


def _neither(ref: str, what: str, example: str) -> str:
    """A layout reference that is neither an id nor a file name, said in the language of the messages."""
    if what == "sheet layout":
        return phrase("{ref} is neither a sheet layout id (like {example}) nor a .yaml file", ref=quote(ref),
                      example=quote(example))
    return phrase("{ref} is neither a layout id (like {example}) nor a .yaml file", ref=quote(ref),
                  example=quote(example))


def _not_shipped(ref: str, what: str, ids: str) -> str:
    """A layout id donjon does not ship, said in the language of the messages."""
    if what == "sheet layout":
        return phrase("{ref} is not a shipped sheet layout (shipped: {ids}); a sheet layout of your own is a .yaml "
                      "file in the sheet's folder", ref=quote(ref), ids=ids)
    return phrase("{ref} is not a shipped layout (shipped: {ids}); a layout of your own is a .yaml file in the "
                  "deck's folder", ref=quote(ref), ids=ids)


# --- the compiled layout ------------------------------------------------------------------------------------------

#: A colour to resolve per card: fixed `#rrggbb`, None (no paint), or a template giving a colour or palette name.
ColourSpec = str | Template | None


class StyleSpec:
    """A text style as a layout gives it, its colours maybe templates: a card's values make it a Style."""

    __slots__ = (
        "face", "size", "min_size", "colour", "align", "valign", "leading", "wrap", "hyphenation", "spacing",
        "outline", "outline_width", "hyphenate",
    )

    face: str
    size: float
    min_size: float
    colour: ColourSpec
    align: str
    valign: str
    leading: float
    wrap: bool
    #: pyphen's name of the dictionary words are hyphenated with (None: no hyphenation, or see `hyphenate`)
    hyphenation: str | None
    #: letter spacing, as a share of the size
    spacing: float
    outline: ColourSpec
    outline_width: float
    #: hyphenate in the language the card is drawn in (the style asks to hyphenate and names no language)
    hyphenate: bool

    def __init__(self, face: str, size: float, min_size: float, colour: ColourSpec, align: str, valign: str,
                 leading: float, wrap: bool, hyphenation: str | None = None, spacing: float = 0.0,
                 outline: ColourSpec = None, outline_width: float = 0.0, hyphenate: bool = False) -> None:
        self.face = face
        self.size = size
        self.min_size = min_size
        self.colour = colour
        self.align = align
        self.valign = valign
        self.leading = leading
        self.wrap = wrap
        self.hyphenation = hyphenation
        self.spacing = spacing
        self.outline = outline
        self.outline_width = outline_width
        self.hyphenate = hyphenate


class GradientSpec:
    """A gradient fill: its colours with where each stands (0 to 1), and how it lies across the box."""

    __slots__ = ("kind", "stops", "angle", "center", "radius")

    kind: str
    stops: tuple[tuple[float, ColourSpec], ...]
    #: linear: degrees clockwise from left-to-right
    angle: float
    #: radial: the centre, in the box (lengths from its top-left corner, % of its sides)
    center: tuple[Dim, Dim]
    #: radial: the last colour's reach, a length or % of the distance to the farthest corner
    radius: Dim

    def __init__(self, kind: str, stops: tuple[tuple[float, ColourSpec], ...], angle: float = 90.0,
                 center: tuple[Dim, Dim] = (Dim(0, 50), Dim(0, 50)), radius: Dim = Dim(0, 100)) -> None:
        self.kind = kind
        self.stops = stops
        self.angle = angle
        self.center = center
        self.radius = radius


class HatchSpec:
    """Parallel lines over a shape: their colour (or a template giving it), angle, spacing and width."""

    __slots__ = ("colour", "angle", "spacing", "width")

    colour: ColourSpec
    angle: float
    spacing: float
    width: float

    def __init__(self, colour: ColourSpec, angle: float, spacing: float, width: float) -> None:
        self.colour = colour
        self.angle = angle
        self.spacing = spacing
        self.width = width


#: A shape's fill: a colour (or a template giving one), a gradient, or nothing.
FillSpec = ColourSpec | GradientSpec


class LayoutBox:
    """A box of a layout, checked, its templates and expressions compiled: what `generator.layout.draw` draws.

    A plain class, not a named tuple: it is only read, field by field, and defining a named tuple of its 50 fields
    took some 4 M instructions at the start of every build (its `__new__` compiled, each annotation read)."""

    __slots__ = (
        "name", "kind", "file", "line", "x", "y", "width", "height", "when", "bleed", "fill", "stroke",
        "stroke_width", "dash", "radii", "text", "style", "icon", "colour", "items", "label", "label_style",
        "label_width", "label_fill", "gap", "row_gap", "divider", "labels", "src", "src_path", "fit", "anchor",
        "layer", "rotate", "pivot", "opacity", "decoration", "flip", "hatch", "sides", "corners", "tips", "inner",
        "angle", "path", "viewbox", "cap", "ends", "clip", "mask_path",
    )

    name: str
    kind: str
    file: str
    line: int | None
    x: Dim
    y: Dim
    width: Dim
    height: Dim
    when: Callable[..., Any] | None
    bleed: bool
    fill: FillSpec
    stroke: ColourSpec
    stroke_width: float
    dash: tuple[float, ...]
    #: corner radii of a rect (or a picture's rect clip): top-left, top-right, bottom-right, bottom-left
    radii: tuple[float, float, float, float]
    text: Template | None
    style: StyleSpec | None
    icon: Template | None
    colour: ColourSpec
    items: Callable[..., Any] | None
    label: Template | None
    label_style: StyleSpec | None
    label_width: float
    label_fill: ColourSpec
    gap: float
    row_gap: float
    divider: ColourSpec
    labels: Mapping[str, str]
    #: image: where the picture comes from (a template reading a card's column, or fixed text)
    src: Template | None
    #: image: the file of a fixed `src`, found and checked when the layout is loaded
    src_path: Path | None
    fit: str
    anchor: str
    #: drawing order: by layer, then as listed
    layer: int
    #: degrees clockwise, about `pivot`
    rotate: float
    pivot: str
    opacity: float
    #: decoration, which `--ink light` lightens (generator.render.ink_light)
    decoration: bool
    #: mirrored about its centre (before it is turned): horizontal, vertical, both, or None
    flip: str | None
    hatch: HatchSpec | None
    #: polygon: sides of a regular one, or its points (x, y in the box); star: its points and inner radius
    sides: int
    corners: tuple[tuple[Dim, Dim], ...]
    tips: int
    inner: float
    angle: float
    #: path: its operations (read once, in the path's own plane) and the part of that plane the box shows
    path: tuple[tuple[str | float, ...], ...]
    viewbox: tuple[float, float, float, float] | None
    cap: LineCap
    #: line: its two ends (x1, y1, x2, y2) when given as points rather than a box
    ends: tuple[Dim, Dim, Dim, Dim] | None
    #: image: the outline the picture shows inside (None: the box, cropped when it covers it), and its mask
    clip: str | None
    mask_path: Path | None

    def __init__(self, *, name: str, kind: str, file: str, line: int | None, x: Dim, y: Dim, width: Dim, height: Dim,
                 when: Callable[..., Any] | None, bleed: bool, fill: FillSpec, stroke: ColourSpec, stroke_width: float,
                 dash: tuple[float, ...], radii: tuple[float, float, float, float], text: Template | None,
                 style: StyleSpec | None, icon: Template | None, colour: ColourSpec, items: Callable[..., Any] | None,
                 label: Template | None, label_style: StyleSpec | None, label_width: float, label_fill: ColourSpec,
                 gap: float, row_gap: float, divider: ColourSpec, labels: Mapping[str, str], src: Template | None,
                 src_path: Path | None, fit: str, anchor: str, layer: int, rotate: float, pivot: str, opacity: float,
                 decoration: bool, flip: str | None, hatch: HatchSpec | None, sides: int,
                 corners: tuple[tuple[Dim, Dim], ...], tips: int, inner: float, angle: float,
                 path: tuple[tuple[str | float, ...], ...], viewbox: tuple[float, float, float, float] | None,
                 cap: LineCap, ends: tuple[Dim, Dim, Dim, Dim] | None, clip: str | None,
                 mask_path: Path | None) -> None:
        self.name = name
        self.kind = kind
        self.file = file
        self.line = line
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.when = when
        self.bleed = bleed
        self.fill = fill
        self.stroke = stroke
        self.stroke_width = stroke_width
        self.dash = dash
        self.radii = radii
        self.text = text
        self.style = style
        self.icon = icon
        self.colour = colour
        self.items = items
        self.label = label
        self.label_style = label_style
        self.label_width = label_width
        self.label_fill = label_fill
        self.gap = gap
        self.row_gap = row_gap
        self.divider = divider
        self.labels = labels
        self.src = src
        self.src_path = src_path
        self.fit = fit
        self.anchor = anchor
        self.layer = layer
        self.rotate = rotate
        self.pivot = pivot
        self.opacity = opacity
        self.decoration = decoration
        self.flip = flip
        self.hatch = hatch
        self.sides = sides
        self.corners = corners
        self.tips = tips
        self.inner = inner
        self.angle = angle
        self.path = path
        self.viewbox = viewbox
        self.cap = cap
        self.ends = ends
        self.clip = clip
        self.mask_path = mask_path

    @property
    def where(self) -> str:
        return f"boxes.{self.name}"

    @property
    def outline_kind(self) -> str | None:
        """The outline this box draws or clips its picture to (None: neither)."""
        return self.clip if self.kind == "image" else self.kind if self.kind in S.SHAPE_KINDS else None


class Frame:
    """A box's rectangle on one card size, in points from the card's top-left corner."""

    __slots__ = ("x", "y", "w", "h")

    x: float
    y: float
    w: float
    h: float

    def __init__(self, x: float, y: float, w: float, h: float) -> None:
        self.x = x
        self.y = y
        self.w = w
        self.h = h


class Layout:
    """A merged, checked layout with compiled templates; `frames()` places its boxes on a card size.

    A plain class, not a dataclass: it is never compared nor printed, and a dataclass compiles its generated
    `__init__` at the start of every build."""

    def __init__(self, ref: str, file: str, background: ColourSpec, safe: float, palette: Mapping[str, str],
                 boxes: tuple[LayoutBox, ...], files: tuple[Path, ...], icons: Mapping[str, Path],
                 reads: frozenset[str]) -> None:
        self.ref = ref
        self.file = file
        self.background = background
        self.safe = safe
        self.palette = palette
        self.boxes = boxes
        # the files the layout was merged from (itself first, then what it extends), and the fonts and icons it uses
        self.files = files
        # icons of one's own (a deck's or the layout's) by name: their picture files
        self.icons = icons
        # every name its templates and expressions read
        self.reads = reads
        self._frames: dict[tuple[float, float, Shape | None], tuple[Frame, ...]] = {}

    def with_faces(self, faces: Mapping[str, str]) -> "Layout":
        """This layout with the font of each text style `faces` names replaced (donjon's plain back writing the
        deck's name in the deck's own font, when its name is in a script Open Sans lacks)."""
        import copy

        def restyled(style: StyleSpec | None) -> StyleSpec | None:
            if style is None or style.face not in faces:
                return style
            other = copy.copy(style)
            other.face = faces[style.face]
            return other

        boxes = []
        for box in self.boxes:
            other = copy.copy(box)
            other.style, other.label_style = restyled(box.style), restyled(box.label_style)
            boxes.append(other)
        # the fonts' files join the files it is made from: `--watch` draws it again when one of them changes
        own = (Path(fonts.FACES[face].file) for face in faces.values() if fonts.FACES[face].registered)
        files = tuple(dict.fromkeys((*self.files, *own)))
        return Layout(self.ref, self.file, self.background, self.safe, self.palette, tuple(boxes), files,
                      self.icons, self.reads)

    @property
    def per_card(self) -> bool:
        """Whether it reads anything but the deck: a back that does is drawn for each card, not once."""
        return bool(self.reads - {"deck"})

    def frames(self, width: float, height: float, shape: Shape | None = None) -> tuple[Frame, ...]:
        """Every box's rectangle on a card of `width` x `height` points (checked once per size and shape: text and
        icons keep inside the safe area of a piece that is not a rectangle too)."""
        if shape is not None and shape.kind == "rect" and not any(shape.radii):
            shape = None
        key = (round(width, 3), round(height, 3), shape)
        found = self._frames.get(key)
        if found is None:
            found = self._frames[key] = self._place(width, height, shape)
        return found

    def _place(self, width: float, height: float, shape: Shape | None) -> tuple[Frame, ...]:
        problems: list[Problem] = []
        frames = []
        inside_safe = _safe_area(shape, width, height, self.safe) if shape is not None else None
        size = phrase("{width} x {height} mm", width=phrase_figure(to_mm(width), "g"),
                      height=phrase_figure(to_mm(height), "g"))
        for box in self.boxes:
            if box.ends is not None:
                x1, y1 = box.ends[0].resolve(width), box.ends[1].resolve(height)
                x2, y2 = box.ends[2].resolve(width), box.ends[3].resolve(height)
                f = Frame(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))
            else:
                f = Frame(box.x.resolve(width), box.y.resolve(height), box.width.resolve(width),
                          box.height.resolve(height))
            frames.append(f)
            if f.w < -EPSILON or f.h < -EPSILON or (box.kind != "line" and (f.w <= EPSILON or f.h <= EPSILON)):
                problems.append(Problem(box.file, box.line, box.where,
                                        phrase("on a {size} card the box is {width} x {height} mm: it has no room",
                                               size=size, width=phrase_figure(to_mm(f.w), ".1f"),
                                               height=phrase_figure(to_mm(f.h), ".1f"))))
                continue
            x0, y0, x1, y1 = box_reach(box, f, width, height)
            if x0 < -EPSILON or y0 < -EPSILON or x1 > width + EPSILON or y1 > height + EPSILON:
                spans = {"size": size, "left": phrase_figure(to_mm(x0), ".1f"),
                         "right": phrase_figure(to_mm(x1), ".1f"), "top": phrase_figure(to_mm(y0), ".1f"),
                         "bottom": phrase_figure(to_mm(y1), ".1f")}
                problems.append(Problem(box.file, box.line, box.where, phrase(
                    "on a {size} card the box once turned {degrees} degrees spans {left}-{right} mm across and "
                    "{top}-{bottom} mm down: it leaves the card (use bleed: true to extend a shape past the edge)",
                    degrees=phrase_figure(box.rotate, "g"), **spans) if box.rotate else phrase(
                    "on a {size} card the box spans {left}-{right} mm across and {top}-{bottom} mm down: it leaves "
                    "the card (use bleed: true to extend a shape past the edge)", **spans)))
                continue
            s = self.safe
            if box.kind in TEXT_KINDS and inside_safe is not None and shape is not None and not inside_safe(
                    _corners(box, f, width, height)):
                # TRANSLATORS: {shape} is the piece's shape as the layout names it (circle, hexagon...), {kind} the
                # box's kind (text, icon...): words of the layout's own language, as written there
                problems.append(Problem(box.file, box.line, box.where, phrase(
                    "on a {size} piece cut as a {shape} the {kind} box reaches past the safe area, {safe} mm inside "
                    "the piece's outline: move it inwards", size=size, shape=shape.kind,
                    kind=box.kind, safe=phrase_figure(to_mm(s), "g"))))
                continue
            if box.kind in TEXT_KINDS and (x0 < s - EPSILON or y0 < s - EPSILON or x1 > width - s + EPSILON
                                           or y1 > height - s + EPSILON):
                problems.append(Problem(box.file, box.line, box.where, phrase(
                    "on a {size} card the {kind} box comes closer than {safe} mm to the card's edge, where a cut can "
                    "go; keep it inside the safe area (or lower the layout's `safe`)", size=size, kind=box.kind,
                    safe=phrase_figure(to_mm(s), "g"))))
        if problems:
            raise ContentError(problems)
        return tuple(frames)


def box_reach(box: LayoutBox, f: Frame, width: float, height: float) -> tuple[float, float, float, float]:
    """The rectangle a box covers on a card of `width` x `height` points (x0, y0, x1, y1), turned as it is."""
    if not box.rotate and not box.flip:
        return f.x, f.y, f.x + f.w, f.y + f.h
    from generator.render.shapes import apply, turned_bounds

    turn = box_turn(box, f, width, height)
    if box.outline_kind == "circle":  # a circle, however turned, reaches as far from its centre
        cx, cy = apply(turn, f.x + f.w / 2, f.y + f.h / 2)
        r = min(f.w, f.h) / 2
        return cx - r, cy - r, cx + r, cy + r
    return turned_bounds(turn, f.x, f.y, f.w, f.h)


def _safe_area(shape: Shape, width: float, height: float, safe: float) -> Callable[[list[tuple[float, float]]], bool]:
    """Whether points all lie inside the safe area of a piece of `shape` (its outline moved `safe` inwards)."""
    from generator.render.shapes import outline, subpaths

    rings = subpaths(outline(shape, 0.0, 0.0, width, height, -safe))

    def within(x: float, y: float) -> bool:
        crossings = 0
        for ring in rings:
            for (x0, y0), (x1, y1) in zip(ring, [*ring[1:], ring[0]]):
                if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                    crossings += 1
        return crossings % 2 == 1

    # a corner a hair outside (a text box drawn exactly on the safe line) is inside
    return lambda points: all(within(x, y) or any(within(x + dx, y + dy) for dx in (-EPSILON, EPSILON)
                                                  for dy in (-EPSILON, EPSILON)) for x, y in points)


def _corners(box: LayoutBox, f: Frame, width: float, height: float) -> list[tuple[float, float]]:
    """The corners of a box's rectangle on the card, turned as the box is."""
    corners = [(f.x, f.y), (f.x + f.w, f.y), (f.x + f.w, f.y + f.h), (f.x, f.y + f.h)]
    if not box.rotate and not box.flip:
        return corners
    from generator.render.shapes import apply

    turn = box_turn(box, f, width, height)
    return [apply(turn, x, y) for x, y in corners]


#: Where each pivot lies in its box: its share of the box's width and height.
PIVOT_SHARES = {"center": (0.5, 0.5), "top": (0.5, 0.0), "bottom": (0.5, 1.0), "left": (0.0, 0.5),
                "right": (1.0, 0.5), "top-left": (0.0, 0.0), "top-right": (1.0, 0.0), "bottom-left": (0.0, 1.0),
                "bottom-right": (1.0, 1.0)}


def box_turn(box: LayoutBox, frame: Frame, width: float, height: float) -> Matrix:
    """The matrix mirroring a box with `flip` about its centre, then turning it by `rotate` about its pivot, on a
    card of `width` x `height` points."""
    from generator.render.shapes import mirror, product, rotation

    if box.pivot == "card":
        turn = rotation(box.rotate, width / 2, height / 2)
    else:
        across, down = PIVOT_SHARES[box.pivot]
        turn = rotation(box.rotate, frame.x + frame.w * across, frame.y + frame.h * down)
    if box.flip is None:
        return turn
    return product(turn, mirror(box.flip, frame.x + frame.w / 2, frame.y + frame.h / 2))


# --- loading and merging ------------------------------------------------------------------------------------------

class _Raw:
    """One layout file, checked against the spec, with where each value was written."""

    __slots__ = ("file", "doc", "values", "folder", "path")

    file: str
    doc: Document
    values: dict[str, Any]
    #: a user's layout: its folder (references in it are relative to it); None for a shipped layout
    folder: Path | None
    path: Path

    def __init__(self, file: str, doc: Document, values: dict[str, Any], folder: Path | None, path: Path) -> None:
        self.file = file
        self.doc = doc
        self.values = values
        self.folder = folder
        self.path = path


def _read(path: Path) -> _Raw:
    name = display_path(path)
    try:
        doc = load_file(path, display=name)
    except InputError as err:
        raise ContentError([err.problem]) from None
    values, problems = check_document(doc, S.LAYOUT)
    if problems or isinstance(values, Invalid):
        raise ContentError(problems or [Problem(name, None, "", "is not a layout")])
    shipped = shipped_dir().resolve() in path.parents
    return _Raw(name, doc, values, None if shipped else path.parent, path)


def _chain(ref: str, folder: Path | None, root: Path | None) -> list[_Raw]:
    """The layout and its ancestors, root first; a cycle or a missing parent is an error naming the file."""
    try:
        path = layout_path(ref, folder, root)
    except ValueError as err:
        raise MissingLayout(str(err)) from None
    seen: list[Path] = [path]
    raws = [_read(path)]
    while raws[-1].values.get("extends"):
        child = raws[-1]
        parent_ref = child.values["extends"]
        try:
            parent = layout_path(parent_ref, child.folder, root or folder)
        except ValueError as err:
            raise _fail(child.file, child.doc.line(("extends",)), "extends", str(err)) from None
        if parent in seen:
            cycle = " -> ".join(display_path(p) for p in [*seen, parent])
            # TRANSLATORS: {cycle} is the layouts' files, each extending the next: a.yaml -> b.yaml -> a.yaml
            raise _fail(child.file, child.doc.line(("extends",)), "extends",
                        phrase("layouts extend each other in a cycle: {cycle}", cycle=cycle))
        seen.append(parent)
        raws.append(_read(parent))
    return list(reversed(raws))


def _named_clip(values: dict[str, Any]) -> dict[str, Any]:
    """A picture's `clip` naming a deck's shape (`hexagon`, `rounded`) as the outline that name stands for, so a
    layout clips its art with the word its deck.yaml uses; the box's own `sides`, `radius`, `angle` still win."""
    shape = named_shape(values["clip"])
    named = {"clip": shape.kind, "sides": shape.sides or None, "radius": shape.radii if any(shape.radii) else None}
    return {**values, **{key: value for key, value in named.items() if key == "clip" or values.get(key) is None}}


class _Entry:
    """A box as the layouts merged so far give it: its values, and where each was written."""

    __slots__ = ("values", "file", "line", "lines", "folders")

    values: dict[str, Any]
    file: str
    line: int | None
    #: where each key was last set, for messages about one key
    lines: dict[str, tuple[str, int | None]]
    #: the folder of the file that last set each key (a fixed picture is relative to its layout file)
    folders: dict[str, Path]

    def __init__(self, values: dict[str, Any], file: str, line: int | None, lines: dict[str, tuple[str, int | None]],
                 folders: dict[str, Path]) -> None:
        self.values = values
        self.file = file
        self.line = line
        self.lines = lines
        self.folders = folders


def _merge_values(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """`over`'s keys on top of `base`'s; a relative length (`+= 2mm`) adds to the value it replaces, and stays
    relative when there is none yet (a box's own `extends` may still give it one)."""
    out = dict(base)
    for key, value in over.items():
        if value is None:
            continue
        inherited = out.get(key)
        if isinstance(value, Dim) and value.relative and isinstance(inherited, Dim):
            out[key] = Dim(inherited.pt + value.pt, inherited.pct + value.pct, inherited.relative)
        else:
            out[key] = value
    return out


def _merge(raws: list[_Raw]) -> tuple[dict[str, Any], dict[str, dict[str, Any]], dict[str, _Entry]]:
    """Merge a chain of layout files: top-level keys, styles and boxes (by name, keeping first-seen order)."""
    top: dict[str, Any] = {}
    styles: dict[str, dict[str, Any]] = {}
    boxes: dict[str, _Entry] = {}
    palette: dict[str, str] = {}
    for raw in raws:
        v = raw.values
        for key in ("background", "safe", "description"):
            if v.get(key) is not None:
                top[key] = v[key]
        top["file"] = raw.file
        palette.update(v.get("palette") or {})
        for name, style in (v.get("styles") or {}).items():
            styles[name] = {**styles.get(name, {}), **{k: x for k, x in style.items() if x is not None}}
        for name, box in (v.get("boxes") or {}).items():
            line = raw.doc.line(("boxes", name))
            base = boxes.get(name)
            merged = _merge_values(base.values if base else {}, box)
            lines = dict(base.lines) if base else {}
            folders = dict(base.folders) if base else {}
            for key, value in box.items():
                if value is not None:
                    lines[key] = (raw.file, raw.doc.line(("boxes", name, key)))
                    folders[key] = raw.path.parent
            boxes[name] = _Entry(merged, raw.file, line, lines, folders)
    top["palette"] = palette
    return top, styles, boxes


def _resolve_box_extends(boxes: dict[str, _Entry]) -> dict[str, _Entry]:
    """Apply each box's `extends` (another box of the layout), root first; cycles are errors.

    Iterative, so a long chain of boxes extending one another cannot exhaust the interpreter's stack."""
    done: dict[str, _Entry] = {}
    for start in boxes:
        trail: list[str] = []
        name: str | None = start
        while name is not None and name not in done:  # walk up to a resolved box or a box with no parent
            entry = boxes[name]
            parent = entry.values.get("extends")
            if parent is not None and parent not in boxes:
                file, line = entry.lines.get("extends", (entry.file, entry.line))
                # TRANSLATORS: {parent} is the box's `extends`, quoted; {boxes} the layout's boxes, as written there
                raise _fail(file, line, f"boxes.{name}.extends", phrase(
                    "extends {parent}, which is not a box of this layout (boxes: {boxes})", parent=quote(parent),
                    boxes=", ".join(boxes)))
            if parent is not None and (parent in trail or parent == name):
                loop = trail[trail.index(parent):] if parent in trail else []
                cycle = " -> ".join([*loop, name, parent])
                # TRANSLATORS: {cycle} is the boxes' names, each extending the next: a -> b -> a
                raise _fail(entry.file, entry.line, f"boxes.{name}.extends",
                            phrase("boxes extend each other in a cycle: {cycle}", cycle=cycle))
            trail.append(name)
            name = parent
        for child in reversed(trail):  # then resolve back down the chain
            entry = boxes[child]
            parent = entry.values.get("extends")
            if parent is None:
                done[child] = entry
                continue
            base = done[parent]
            merged = _merge_values({k: v for k, v in base.values.items() if k != "extends"}, entry.values)
            merged.pop("extends", None)
            done[child] = _Entry(merged, entry.file, entry.line, {**base.lines, **entry.lines},
                                 {**base.folders, **entry.folders})
    return {name: done[name] for name in boxes}


def _assets(raws: list[_Raw], root: Path | None, deck: Assets, problems: list[Problem]) -> Assets:
    """The fonts and icons the layout files declare (a child's over its parent's), with the deck's on top."""
    merged = NO_ASSETS
    for raw in raws:
        if raw.values.get("fonts") or raw.values.get("icons"):
            found, trouble = resolve_assets(raw.values, raw.doc, raw.path.parent,
                                            root if raw.folder is not None and root is not None else raw.path.parent)
            problems.extend(trouble)
            merged = merged.over(found)
    return merged.over(deck)


def _origin(origin: str) -> tuple[str, int | None]:
    file, _, line = origin.rpartition(":")
    return (file, int(line)) if line.isdigit() else (origin, None)


def _faces(assets: Assets, problems: list[Problem], refused: set[str]) -> dict[str, str]:
    """Every font name a style may use: the built-in faces, and each declared family's faces. The faces of a
    family refused where it is declared go into `refused`: a style naming one is that one problem, not another."""
    faces = {face: face for face in fonts.BUILT_IN_IDS}
    for name, family in assets.fonts:
        file, line = _origin(family.origin)
        clash = [f"{name}{suffix}" for suffix, _b, _i in fonts.STYLES.values() if f"{name}{suffix}" in faces]
        if clash:
            problems.append(Problem(file, line, f"fonts.{name}", f"{clash[0]!r} is already a font donjon has; give "
                                                                 "your font another name"))
            continue
        try:
            faces.update(fonts.register_family(name, dict(family.files)))
        except fonts.FontProblem as err:
            problems.append(Problem(file, line, f"fonts.{name}", str(err)))
            refused.update(f"{name}{suffix}" for suffix, _b, _i in fonts.STYLES.values())
    return faces


def _own_icons(assets: Assets, problems: list[Problem]) -> dict[str, Path]:
    """The icons of one's own by name, each picture read and checked now, used or not (an icon that cannot be
    drawn is named where it is declared, not left to fail in the middle of a card's text)."""
    found: dict[str, Path] = {}
    for name, path, origin in assets.icons:
        from generator.render.images import ImageProblem, image_info

        if name in icons():
            problems.append(Problem(*_origin(origin), f"icons.{name}", f"{name!r} is one of donjon's own icons; give "
                                                                       "yours another name"))
            continue
        try:
            image_info(path)
        except ImageProblem as err:
            problems.append(Problem(*_origin(origin), f"icons.{name}", f"the icon {name!r} "
                                    f"({display_path(path)}): {err}"))
            continue
        found[name] = path
    return found


@cache
def load_layout(ref: str, folder: Path | None = None, root: Path | None = None, assets: Assets = NO_ASSETS) -> Layout:
    """The layout `ref` (a shipped id, or a file named relative to a user deck's `folder`, inside the content
    folder `root`), merged, checked and compiled with the deck's fonts and icons."""
    raws = _chain(ref, folder, root)
    top, styles, entries = _merge(raws)
    entries = _resolve_box_extends(entries)
    file = top["file"]
    problems: list[Problem] = []
    palette: dict[str, str] = top["palette"]
    declared = _assets(raws, root or folder, assets, problems)
    refused_faces: set[str] = set()
    faces = _faces(declared, problems, refused_faces)
    own_icons = _own_icons(declared, problems)
    reads: set[str] = set()

    def colour(value: Any, at: tuple[str, int | None], where: str, none_ok: bool = True) -> ColourSpec:
        if value is None or value == "none":
            if value == "none" and not none_ok:
                problems.append(Problem(at[0], at[1], where, "must be a colour, not 'none'"))
            return None
        if value.startswith("#"):
            return str(value)
        if "{{" in value or "{%" in value:
            return _template(value, at, where)
        if value not in palette:
            problems.append(Problem(at[0], at[1], where, phrase(
                "{value} is not in the palette ({colours})", value=quote(value),
                colours=", ".join(palette) or phrase("the layout has none"))))
            return None
        return palette[value]

    def gradient(value: dict[str, Any], at: tuple[str, int | None], where: str) -> GradientSpec | None:
        stops: list[tuple[float | None, ColourSpec]] = []
        for index, stop in enumerate(value["stops"]):
            found = re.fullmatch(r"(.*?)\s+(\d+(?:\.\d+)?)\s*%\s*", stop, re.S)
            text, offset = (found.group(1), float(found.group(2)) / 100) if found else (stop.strip(), None)
            if offset is not None and offset > 1:
                problems.append(Problem(at[0], at[1], f"{where}.stops[{index}]", f"{stop!r}: a stop stands between "
                                                                                  "0% and 100%"))
            if not text or text == "none":
                problems.append(Problem(at[0], at[1], f"{where}.stops[{index}]", f"{stop!r} names no colour"))
                continue
            stops.append((offset, colour(text, at, f"{where}.stops[{index}]", none_ok=False)))
        center = (Dim(0, 50), Dim(0, 50))
        if value.get("center") is not None:
            parts = [Dim() if p == "0" else S.parse_dim(p) for p in value["center"].split()]
            if len(parts) != 2 or any(p is None or p.relative for p in parts):
                problems.append(Problem(at[0], at[1], f"{where}.center", f"{value['center']!r}: expected `x y` in "
                                                                          "lengths or % of the box (50% 50%)"))
            else:
                center = (parts[0] or Dim(), parts[1] or Dim())
        if len(stops) < 2:
            return None
        angle = 90.0 if value.get("angle") is None else float(value["angle"])
        return GradientSpec(value["gradient"], _spread(stops), angle, center, value.get("radius") or Dim(0, 100))

    def _template(source: str, at: tuple[str, int | None], where: str, markup: bool = False) -> Template | None:
        try:
            compiled = compile_template(source, markup)
        except TemplateFailure as err:
            line = at[1] + err.line - 1 if at[1] is not None and err.line else at[1]
            problems.append(Problem(at[0], line, where, f"template error: {err}"))
            return None
        reads.update(compiled.names)
        return compiled

    def _expression(source: str, at: tuple[str, int | None], where: str) -> Callable[..., Any] | None:
        try:
            compiled = compile_expression(source)
            reads.update(expression_names(source))
        except TemplateFailure as err:
            problems.append(Problem(at[0], at[1], where, f"expression error: {err}"))
            return None
        return compiled

    def style_of(entry: _Entry, name: str, style_key: str, where: str) -> StyleSpec | None:
        values: dict[str, Any] = {}
        at = entry.lines.get(style_key, (entry.file, entry.line))
        style_name = entry.values.get(style_key)
        if style_name is not None:
            if style_name not in styles:
                problems.append(Problem(at[0], at[1], f"{where}.{style_key}", phrase(
                    "names the style {style}, which the layout does not define (styles: {styles})",
                    style=quote(style_name), styles=", ".join(styles) or phrase("none"))))
                return None
            values.update(styles[style_name])
        if style_key == "style":
            values.update({k: entry.values[k] for k in S.STYLE_KEYS if entry.values.get(k) is not None})
        missing = [k for k in ("font", "size", "colour") if values.get(k) is None]
        if missing:
            # TRANSLATORS: {keys} are a layout's keys (font, size, colour) and {key} the style's, as written there
            problems.append(Problem(at[0], at[1], where, phrase(
                "the text of box {name} has no {keys}: give a {key} or the keys on the box", name=quote(name),
                keys=", ".join(missing), key=style_key)))
            return None
        size = values["size"]
        smallest = values.get("min_size", size)
        if smallest > size:
            problems.append(Problem(at[0], at[1], where, f"min_size {smallest:g} pt is larger than size {size:g} pt"))
            return None
        ink = colour(values["colour"], at, f"{where}.colour", none_ok=False)
        face = faces.get(values["font"])
        if face is None:
            if values["font"] not in refused_faces:  # else named where its family is declared
                problems.append(Problem(at[0], at[1], f"{where}.font", _unknown_font(values["font"], faces)))
            return None
        language = values.get("language")
        hyphenate = values.get("hyphenate", language is not None)
        outline = colour(values.get("outline"), at, f"{where}.outline")
        width = values["outline_width"].pt if values.get("outline_width") is not None else OUTLINE_WIDTH
        return StyleSpec(face, size, smallest, ink, values.get("align", "left"),
                         values.get("valign", "top"), values.get("leading", 1.2), values.get("wrap", True),
                         S.LANGUAGES[language] if hyphenate and language else None,
                         values.get("letter_spacing") or 0.0, outline, width if outline is not None else 0.0,
                         bool(hyphenate))

    boxes: list[LayoutBox] = []
    for name, entry in entries.items():
        v = entry.values
        where = f"boxes.{name}"
        kind = v.get("kind")
        if kind is None:
            # TRANSLATORS: kind is a layout's key and {kinds} the kinds it takes, as written there
            problems.append(Problem(entry.file, entry.line, where,
                                    phrase("has no kind ({kinds})", kinds=", ".join(S.KINDS))))
            continue
        relative = [k for k, x in v.items() if isinstance(x, Dim) and x.relative]
        if relative:
            for key in relative:
                # TRANSLATORS: {key} is a layout's key as written there; {add} and {take} are += and -=, quoted
                problems.append(Problem(*entry.lines.get(key, (entry.file, entry.line)), f"{where}.{key}", phrase(
                    "{add} and {take} add to an inherited value, but the box inherits no {key} (from the layout it "
                    "extends or the box it extends)", add=quote("+="), take=quote("-="), key=key)))
            continue
        needs = REQUIRED[kind]
        if kind == "line":  # a line from the box's top-left to its bottom-right corner, or between two points
            ends = [k for k in ("x1", "y1", "x2", "y2") if v.get(k) is not None]
            needs = (*needs, *(("x1", "y1", "x2", "y2") if ends else ("x", "y", "width", "height")))
            if ends and any(v.get(k) is not None for k in ("x", "y", "width", "height")):
                # TRANSLATORS: x1, y1, x2, y2, x, y, width, height are a layout's keys, as written there
                problems.append(Problem(entry.file, entry.line, where, phrase(
                    "a line goes between x1, y1 and x2, y2, or across its box (x, y, width, height): not both")))
                continue
        lacking = [k for k in needs if v.get(k) is None]
        if lacking:
            # TRANSLATORS: {kind} is the box's kind and {keys} its keys, as written in the layout; English's article
            # follows the kind's first letter, hence two messages
            keys = ", ".join(lacking)
            problems.append(Problem(entry.file, entry.line, where,
                                    phrase("an {kind} box needs {keys} (directly or by extends)", kind=kind, keys=keys)
                                    if a_or_an(kind).startswith("an ")
                                    else phrase("a {kind} box needs {keys} (directly or by extends)", kind=kind,
                                                keys=keys)))
            continue
        stray = sorted(k for k, x in v.items() if x is not None and k not in COMMON and k not in ALLOWED[kind])
        if stray:
            # TRANSLATORS: {keys} are the layout's keys and {kind} the box's kind, as written there; English's
            # article follows the kind's first letter, hence two messages
            keys = ", ".join(stray)
            problems.append(Problem(entry.file, entry.line, where,
                                    phrase_n("{keys} means nothing to an {kind} box",
                                             "{keys} mean nothing to an {kind} box", len(stray), keys=keys, kind=kind)
                                    if a_or_an(kind).startswith("an ")
                                    else phrase_n("{keys} means nothing to a {kind} box",
                                                  "{keys} mean nothing to a {kind} box", len(stray), keys=keys,
                                                  kind=kind)))
            continue

        def at(key: str, e: _Entry = entry) -> tuple[str, int | None]:
            return e.lines.get(key, (e.file, e.line))

        markup = bool(v.get("markup"))
        text = _template(v["text"], at("text"), f"{where}.text", markup) if v.get("text") is not None else None
        icon = None
        if v.get("icon") is not None:
            source = v["icon"]
            fixed = "{{" not in source and "{%" not in source
            if fixed and source not in icons() and source not in own_icons:
                problems.append(Problem(*at("icon"), f"{where}.icon", unknown_icon(source, own_icons)))
            elif fixed and source in icons() and v.get("colour") is None:
                problems.append(Problem(entry.file, entry.line, where, "an icon box with one of donjon's icons needs a "
                                                                       "colour"))
            icon = _template(source, at("icon"), f"{where}.icon")
        src, src_path = None, None
        if kind == "image":
            src = _template(v["src"], at("src"), f"{where}.src")
            if src is not None and src.fixed:
                src_path = _fixed_picture(v["src"], entry.folders.get("src"), root or folder, at("src"),
                                          f"{where}.src", problems)
        style = style_of(entry, name, "style", where) if kind in ("text", "rows", "notes") else None
        label_style = style_of(entry, name, "label_style", where) if kind == "rows" else None
        dash = tuple(float(d) for d in re.findall(r"\d+(?:\.\d+)?", v["dash"])) if v.get("dash") else ()
        if dash and not any(dash):  # PDF refuses a dash pattern of zeros (ISO 32000-1, 8.4.3.6)
            problems.append(Problem(*at("dash"), f"{where}.dash", phrase(
                "{dash} is all zeros: give a dash and a gap longer than 0 (like {example}), or no dash",
                dash=quote(v["dash"]), example=quote("2pt 1pt"))))
            dash = ()
        stroke_width = v["stroke_width"].pt if v.get("stroke_width") is not None else 0.0
        stroke = colour(v.get("stroke"), at("stroke"), f"{where}.stroke")
        raw_fill = v.get("fill")
        fill: FillSpec = (gradient(raw_fill, at("fill"), f"{where}.fill") if isinstance(raw_fill, dict)
                          else colour(raw_fill, at("fill"), f"{where}.fill"))
        hatch = None
        if v.get("hatch") is not None:
            h = v["hatch"]
            hatch = HatchSpec(colour(h["colour"], at("hatch"), f"{where}.hatch.colour"),
                              45.0 if h.get("angle") is None else float(h["angle"]),
                              h["spacing"].pt if h.get("spacing") is not None else HATCH_SPACING,
                              h["width"].pt if h.get("width") is not None else HATCH_WIDTH)
            if hatch.spacing <= hatch.width:
                problems.append(Problem(*at("hatch"), f"{where}.hatch", phrase(
                    "the lines' spacing must be larger than their width, or they make a solid fill")))
        if stroke is not None and stroke_width <= 0:
            # TRANSLATORS: stroke_width is a layout's key, as written there
            problems.append(Problem(entry.file, entry.line, where,
                                    phrase("a stroke needs a stroke_width (e.g. 0.5pt)")))
        if kind in S.SHAPE_KINDS and fill is None and stroke is None and hatch is None:
            # TRANSLATORS: {kind} is the box's kind as written in the layout (rect, circle, ellipse, polygon, star,
            # path); English's article follows its first letter, hence two messages
            problems.append(Problem(entry.file, entry.line, where,
                                    phrase("an {kind} box needs a fill, a stroke or a hatch", kind=kind)
                                    if a_or_an(kind).startswith("an ")
                                    else phrase("a {kind} box needs a fill, a stroke or a hatch", kind=kind)))
        if kind == "image" and v.get("clip") in S.CLIP_KINDS and v["clip"] not in S.SHAPE_KINDS:
            v = _named_clip(v)
        outline_kind = v.get("clip") if kind == "image" else kind if kind in S.SHAPE_KINDS else None
        points = v.get("points")
        if outline_kind is not None:
            unused = sorted(k for k in set().union(*OUTLINE_KEYS.values()) if v.get(k) is not None
                            and k not in OUTLINE_KEYS[outline_kind])
            if kind == "image" and unused:
                # TRANSLATORS: {keys} are the layout's keys and {clip} the outline's kind, as written there; English's
                # article follows the kind's first letter, hence two messages
                keys = ", ".join(unused)
                problems.append(Problem(entry.file, entry.line, where, phrase_n(
                    "{keys} means nothing to a picture clipped to an {clip}",
                    "{keys} mean nothing to a picture clipped to an {clip}", len(unused), keys=keys, clip=outline_kind)
                    if a_or_an(str(outline_kind)).startswith("an ")
                    else phrase_n("{keys} means nothing to a picture clipped to a {clip}",
                                  "{keys} mean nothing to a picture clipped to a {clip}", len(unused), keys=keys,
                                  clip=outline_kind)))
            if outline_kind == "polygon" and not v.get("sides") and not isinstance(points, tuple):
                # TRANSLATORS: `sides` and `points` are a layout's keys, as written there
                problems.append(Problem(entry.file, entry.line, where, phrase(
                    "a polygon needs `sides` (a regular one) or `points` (its corners: {example})",
                    example=quote("0 0, 100% 0, 50% 100%"))))
            if outline_kind == "polygon" and v.get("sides") and isinstance(points, tuple):
                problems.append(Problem(entry.file, entry.line, where,
                                        phrase("a polygon takes `sides` or `points`, not both")))
            if outline_kind == "star" and points is not None and not isinstance(points, int):
                problems.append(Problem(*at("points"), f"{where}.points", phrase("a star's points are a number (5)")))
            if outline_kind == "polygon" and isinstance(points, int):
                problems.append(Problem(*at("points"), f"{where}.points", phrase(
                    "a polygon's points are its corners ({example}); for a regular polygon give `sides`",
                    example=quote("0 0, 100% 0, 50% 100%"))))
        elif kind == "image" and any(v.get(k) is not None for k in set().union(*OUTLINE_KEYS.values())):
            # TRANSLATORS: radius, sides, points, inner, angle, d, viewbox, clip, rect, circle, polygon are a
            # layout's keys and values, as written there
            problems.append(Problem(entry.file, entry.line, where, phrase(
                "radius, sides, points, inner, angle, d and viewbox shape the outline a picture is clipped to: give "
                "`clip` (rect, circle, polygon...)")))
        path_ops: tuple[tuple[str | float, ...], ...] = ()
        if outline_kind == "path":
            if not v.get("d"):
                # TRANSLATORS: `d` is a layout's key, as written there
                problems.append(Problem(entry.file, entry.line, where, phrase("a path needs `d`, its SVG path data")))
            else:
                from generator.render.shapes import PathDataError, bounds, parse_path

                try:
                    path_ops = parse_path(v["d"])
                    x0, y0, x1, y1 = bounds(path_ops)
                    if v.get("viewbox") is None and x1 - x0 <= 0 and y1 - y0 <= 0:
                        raise PathDataError(phrase("the path draws nothing (it has no extent)"))
                except PathDataError as err:
                    problems.append(Problem(*at("d"), f"{where}.d", str(err)))
        view = None
        if v.get("viewbox") is not None:
            from generator.catalog.shapes import parse_viewbox

            view = parse_viewbox(v["viewbox"])
            if view is None:
                problems.append(Problem(*at("viewbox"), f"{where}.viewbox",
                                        phrase("needs a width and a height above 0")))
        mask_path = None
        if v.get("mask") is not None:
            mask_path = _fixed_picture(v["mask"], entry.folders.get("mask"), root or folder, at("mask"),
                                       f"{where}.mask", problems)
            if mask_path is None and entry.folders.get("mask") is None:
                problems.append(Problem(*at("mask"), f"{where}.mask", phrase("a mask is a picture of a layout of "
                                                                             "your own (relative to its file)")))
        line_ends = (v["x1"], v["y1"], v["x2"], v["y2"]) if kind == "line" and v.get("x1") is not None else None
        boxes.append(LayoutBox(
            name=name, kind=kind, file=entry.file, line=entry.line,
            x=v.get("x") or Dim(), y=v.get("y") or Dim(), width=v.get("width") or Dim(),
            height=v.get("height") or Dim(),
            when=_expression(v["when"], at("when"), f"{where}.when") if v.get("when") else None,
            bleed=bool(v.get("bleed")), fill=fill, stroke=stroke, stroke_width=stroke_width, dash=dash,
            radii=v.get("radius") or (0.0, 0.0, 0.0, 0.0),
            text=text, style=style, icon=icon,
            colour=(colour(v.get("colour"), at("colour"), f"{where}.colour") if kind in ("icon", "image")
                    else None),
            items=_expression(v["items"], at("items"), f"{where}.items") if v.get("items") else None,
            label=(_template(v["label"], at("label"), f"{where}.label", markup) if v.get("label") is not None
                   else None),
            label_style=label_style,
            label_width=v["label_width"].pt if v.get("label_width") is not None else 0.0,
            label_fill=colour(v.get("label_fill"), at("label_fill"), f"{where}.label_fill"),
            gap=v["gap"].pt if v.get("gap") is not None else 0.0,
            row_gap=v["row_gap"].pt if v.get("row_gap") is not None else 0.0,
            divider=colour(v.get("divider"), at("divider"), f"{where}.divider"),
            labels=dict(v.get("labels") or {}),
            src=src, src_path=src_path, fit=v.get("fit") or "contain", anchor=v.get("anchor") or "center",
            layer=v.get("layer") or 0, rotate=float(v.get("rotate") or 0.0), pivot=v.get("pivot") or "center",
            opacity=1.0 if v.get("opacity") is None else float(v["opacity"]), flip=v.get("flip"), hatch=hatch,
            decoration=bool(v.get("decoration")),
            sides=v.get("sides") or 0, corners=points if isinstance(points, tuple) else (),
            tips=points if isinstance(points, int) else 5, inner=0.5 if v.get("inner") is None else v["inner"],
            angle=float(v.get("angle") or 0.0), path=path_ops, viewbox=view, cap=v.get("cap") or "butt", ends=line_ends,
            clip=v.get("clip"), mask_path=mask_path,
        ))
    boxes.sort(key=lambda box: box.layer)  # stable: within a layer, the order they are listed in
    background = top.get("background")
    if background is None:
        problems.append(Problem(file, None, "background",
                                phrase("the layout (or the one it extends) gives no background colour")))
    bg = colour(background, (file, None), "background", none_ok=False) if background is not None else None
    if problems:
        raise ContentError(problems)
    safe = top.get("safe", DEFAULT_SAFE).pt
    files = tuple(raw.path for raw in reversed(raws)) + declared.files()
    return Layout(ref, file, bg, safe, palette, tuple(boxes), files, own_icons,
                  frozenset(reads) - JINJA_GLOBALS)


def _spread(stops: list[tuple[float | None, ColourSpec]]) -> tuple[tuple[float, ColourSpec], ...]:
    """Stops with every offset set, as CSS places them: the first at 0, the last at 1, those without one spread
    evenly between their neighbours, and none before the one before it."""
    offsets = [offset for offset, _colour in stops]
    offsets[0] = 0.0 if offsets[0] is None else offsets[0]
    offsets[-1] = 1.0 if offsets[-1] is None else offsets[-1]
    index = 0
    while index < len(offsets):
        if offsets[index] is None:
            end = next(j for j in range(index, len(offsets)) if offsets[j] is not None)
            low, high = offsets[index - 1], offsets[end]
            assert low is not None and high is not None
            for k in range(index, end):
                offsets[k] = low + (high - low) * (k - index + 1) / (end - index + 1)
            index = end
        index += 1
    placed: list[tuple[float, ColourSpec]] = []
    for offset, (_o, ink) in zip(offsets, stops):
        assert offset is not None
        placed.append((round(max(offset, placed[-1][0] if placed else 0.0), 4), ink))
    return tuple(placed)


def unknown_icon(name: str, own: Mapping[str, Path]) -> str:
    """The message for an icon name that is neither donjon's nor the deck's, with a guess at what was meant."""
    import difflib

    known = sorted(icons()) + sorted(own)
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.7)
    guess = phrase(" (did you mean {close}?)", close=quote(close[0])) if close else ""
    mine = (phrase("; the deck's own: {icons}", icons=", ".join(sorted(own))) if own
            else phrase("; a deck can add its own under `icons:`"))
    return phrase("{name} is not an icon{guess}: donjon's icons: {icons}{mine}", name=quote(name), guess=guess,
                  icons=", ".join(sorted(icons())), mine=mine)


def _unknown_font(name: str, faces: Mapping[str, str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(faces), n=1, cutoff=0.6)
    guess = phrase(" (did you mean {close}?)", close=quote(close[0])) if close else ""
    if name.lower().endswith((".ttf", ".otf")):
        return phrase("{name} is a file, not a font name: declare it under `fonts:` in the deck or the layout "
                      "(fonts: {{mine: {file}}}) and write `font: mine`", name=quote(name), file=name)
    own = sorted(f for f in faces if f not in fonts.BUILT_IN_IDS)
    return phrase("unknown font {name}{guess}; expected one of {fonts}{own}", name=quote(name), guess=guess,
                  fonts=", ".join(fonts.BUILT_IN_IDS),
                  own=phrase(", or the deck's own: {fonts}", fonts=", ".join(own)) if own
                  else phrase(", or a font declared under `fonts:`"))


def _fixed_picture(ref: str, base: Path | None, root: Path | None, at: tuple[str, int | None], where: str,
                   problems: list[Problem]) -> Path | None:
    """The picture a layout names (relative to the layout file), found and checked now."""
    from generator.render.images import ImageProblem, image_info

    if base is None:
        return None
    try:
        path = resolve_within(root or base, base, ref)
        image_info(path)
    except (ValueError, ImageProblem) as err:
        problems.append(Problem(at[0], at[1], where, phrase("the picture {ref}: {reason}", ref=quote(ref), reason=err)))
        return None
    return path


def clear_cache() -> None:
    """Forget loaded layouts (tests that rewrite a layout file between builds)."""
    load_layout.cache_clear()
