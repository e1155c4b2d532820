"""The layout file format (`templates/layouts/*.yaml`, or a layout in a user's deck folder), as a fields spec.

A layout names its boxes, each a shape, an icon or a text field, drawn in the order they are listed:

    extends: guildhall-base          # optional: start from another layout and change or add boxes
    background: parchment            # a colour: '#rrggbb', a name from `palette`, or a template
    palette: {parchment: "#f4ecdc", ink: "#2a2118"}
    styles:
      name: {font: cardo-bold, size: 14pt, min_size: 10pt, colour: ink, align: center}
    boxes:
      title:
        kind: text
        x: 4mm
        y: 6mm
        width: 100% - 8mm
        height: 10mm
        style: name
        text: "{{ card.name }}"

Lengths carry their unit (`mm`, `cm`, `in`, `pt`, or `%` of the card's width for `x`/`width` and of its height
for `y`/`height`), and may add terms: `100% - 8mm`. In a box that `extends` another, `+= 2mm` adds to the
inherited value. Units are converted here, once; nothing downstream sees a unit. Font sizes are points.
The same spec publishes `content/schemas/layout.schema.json`.
"""

import re
from typing import Any, NamedTuple

from generator.catalog.assets import FONTS as FONT_DECLARATIONS
from generator.catalog.assets import ICONS as ICON_DECLARATIONS
from generator.catalog.shapes import NAMED, PATH_DATA, VIEWBOX, Share
from generator.fields import (
    AnyOf,
    Bool,
    Checker,
    Choice,
    Field,
    Int,
    ListOf,
    MapOf,
    Number,
    Record,
    Slug,
    Text,
    Type,
)
from generator.i18n import N_
from generator.units import PT_PER_INCH, PT_PER_MM
from generator.yamlio import PathKey

KINDS = ("rect", "circle", "ellipse", "polygon", "star", "path", "line", "text", "icon", "image", "rows", "notes")
#: The kinds that draw an outline (filled, stroked, hatched), and the outlines a picture can be clipped to.
SHAPE_KINDS = ("rect", "circle", "ellipse", "polygon", "star", "path")
#: What a picture may be clipped to: an outline of :data:`SHAPE_KINDS`, or one a deck's `shape` names (`hexagon`,
#: `rounded`), with the settings that name gives it.
CLIP_KINDS = (*SHAPE_KINDS, *(name for name in NAMED if name not in SHAPE_KINDS))
ALIGNS = ("left", "center", "right", "justify")
VALIGNS = ("top", "middle", "bottom")
#: The faces shipped in templates/fonts (generator.render.fonts); a deck or layout may declare its own.
FONTS = ("cardo", "cardo-bold", "cardo-italic", "open-sans", "open-sans-bold")
#: How a picture fills its box: whole inside it, covering it (cropped to it), or stretched to it.
FITS = ("contain", "cover", "stretch")
#: Where a picture sits in its box (contain) or which part of it stays in view (cover).
ANCHORS = ("center", "top", "bottom", "left", "right", "top-left", "top-right", "bottom-left", "bottom-right")
#: What a box turns about: a point of the box (as ANCHORS), or the card's centre (`card`: a corner turned about it
#: lands upside down in the opposite corner).
PIVOTS = (*ANCHORS, "card")
#: Which way a box is mirrored: left and right swapped, top and bottom, or both (a half turn).
FLIPS = ("horizontal", "vertical", "both")
#: How the ends of a line or an open path are drawn.
CAPS = ("butt", "round", "square")
#: The languages text can be hyphenated in (pyphen's dictionaries), by the code a layout writes.
LANGUAGES = {"en": "en_GB", "en-gb": "en_GB", "en-us": "en_US", "fr": "fr_FR", "de": "de_DE"}


def dictionary(code: str) -> str | None:
    """The hyphenation dictionary of a language code (`fr`, `de-AT`, `en-US`): its own, else its base language's;
    None for a language donjon has none for."""
    lower = code.lower().replace("_", "-")
    return LANGUAGES.get(lower) or LANGUAGES.get(lower.split("-")[0])

#: Points per unit.
UNITS = {"pt": 1.0, "mm": PT_PER_MM, "cm": 10 * PT_PER_MM, "in": PT_PER_INCH}

_TERM = re.compile(r"\s*([+-])?\s*(\d+(?:\.\d+)?|\.\d+)\s*(mm|cm|in|pt|%)\s*")
_RELATIVE = re.compile(r"\s*([+-])=\s*(.*)", re.S)
HEX = re.compile(r"#[0-9a-fA-F]{6}")


class Dim(NamedTuple):
    """A length: `pt` points plus `pct` percent of the card's side; `relative` adds it to an inherited value."""

    pt: float = 0.0
    pct: float = 0.0
    relative: bool = False

    def resolve(self, side: float) -> float:
        """In points, for a card whose matching side (width for x, height for y) is `side` points."""
        return self.pt + self.pct * side / 100


def parse_dim(text: str) -> Dim | None:
    """`12mm`, `50%`, `100% - 4mm`, `+= 2mm` as a :class:`Dim`, or None when it is not a length."""
    relative = _RELATIVE.fullmatch(text)
    body = relative.group(2) if relative else text
    sign = -1.0 if relative and relative.group(1) == "-" else 1.0
    pos, pt, pct = 0, 0.0, 0.0
    first = True
    while pos < len(body):
        match = _TERM.match(body, pos)
        if match is None or match.end() == pos or (not first and not match.group(1)):
            return None
        value = float(match.group(2)) * (-1.0 if match.group(1) == "-" else 1.0)
        if match.group(3) == "%":
            pct += value
        else:
            pt += value * UNITS[match.group(3)]
        pos = match.end()
        first = False
    if first:
        return None
    return Dim(pt * sign, pct * sign, relative is not None)


class Dimension(Type[Dim]):
    """A length with its unit (`4mm`, `0.25in`, `10pt`, `50%`, `100% - 4mm`, `+= 2mm`); 0 needs none."""

    def __init__(self, *, negative: bool = False, percent: bool = True, doc: str = "") -> None:
        self.negative = negative
        self.percent = percent
        self.doc = doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0:
            return Dim()
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return ck.fail(path, f"{value!r} needs a unit: write {value}mm, {value}pt or {value}in")
        dim = parse_dim(value) if isinstance(value, str) else None
        if dim is None:
            examples = "4mm, 10pt, 0.25in" + (", 50% or 100% - 4mm" if self.percent else "")
            return ck.fail(path, f"expected a length such as {examples}, got {value!r}")
        if dim.pct and not self.percent:
            return ck.fail(path, f"{value!r}: a percentage means nothing here; give mm, pt or in")
        only_negative = dim.pt <= 0 and dim.pct <= 0 and (dim.pt < 0 or dim.pct < 0)
        if only_negative and not self.negative and not dim.relative:
            return ck.fail(path, f"{value!r} is negative")
        if abs(dim.pt) > 2000 or abs(dim.pct) > 1000:
            return ck.fail(path, f"{value!r} is far larger than any card")
        return dim

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"anyOf": [
            {"const": 0},
            {"type": "string", "pattern": r"^\s*([+-]=)?\s*[+-]?\s*(\d+(\.\d+)?|\.\d+)\s*(mm|cm|in|pt|%)"
                                          r"(\s*[+-]\s*(\d+(\.\d+)?|\.\d+)\s*(mm|cm|in|pt|%))*\s*$"},
        ]})


class Radii(Type[tuple[float, float, float, float]]):
    """Corner radii: one length for every corner, or four (top-left, top-right, bottom-right, bottom-left, as CSS
    writes them): `3mm`, `3mm 0 3mm 0`."""

    def __init__(self, doc: str = "") -> None:
        self.doc = doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0:
            return (0.0, 0.0, 0.0, 0.0)
        parts = value.split() if isinstance(value, str) else []
        dims = [Dim() if p == "0" else parse_dim(p) for p in parts]
        if len(dims) not in (1, 4) or any(d is None or d.pct or d.relative or d.pt < 0 for d in dims):
            return ck.fail(path, f"expected one corner radius (3mm) or four, clockwise from the top-left "
                                 f"(3mm 0 3mm 0), got {value!r}")
        radii = [d.pt for d in dims if d is not None]
        return tuple(radii * 4 if len(radii) == 1 else radii)

    def schema(self) -> dict[str, Any]:
        length = r"(0|\d+(\.\d+)?\s*(mm|cm|in|pt))"
        return self._with_doc({"anyOf": [{"const": 0}, {"type": "string",
                                                        "pattern": rf"^\s*{length}((\s+{length}){{3}})?\s*$"}]})


class PointList(Type[tuple[tuple[Dim, Dim], ...]]):
    """Points of a polygon inside its box: `x y` pairs separated by commas, each a length from the box's top-left
    corner or a percentage of the box (`0 0, 100% 0, 50% 100%`)."""

    def __init__(self, doc: str = "") -> None:
        self.doc = doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        pairs = [p.split() for p in value.split(",")] if isinstance(value, str) else []
        points = []
        for pair in pairs:
            dims = [Dim() if p == "0" else parse_dim(p) for p in pair]
            if len(dims) != 2 or any(d is None or d.relative for d in dims):
                return ck.fail(path, f"expected points such as '0 0, 100% 0, 50% 100%' (x y, lengths or % of the "
                                     f"box, separated by commas), got {value!r}")
            points.append((dims[0], dims[1]))
        if not 3 <= len(points) <= 200:
            return ck.fail(path, f"a polygon needs 3 to 200 points, got {len(points)}")
        return tuple(points)

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"type": "string", "examples": ["0 0, 100% 0, 50% 100%"]})


class FontSize(Type[float]):
    """A font size in points: a number, or text with a unit (`9pt`, `3mm`)."""

    def __init__(self, doc: str = "") -> None:
        self.doc = doc

    #: Below this, home printers smear text; no layout may go smaller.
    SMALLEST = 5.0
    LARGEST = 400.0

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        size: float | None = None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            size = float(value)
        elif isinstance(value, str):
            dim = parse_dim(value)
            size = dim.pt if dim is not None and not dim.pct and not dim.relative else None
        if size is None:
            return ck.fail(path, f"expected a font size in points (9, 9pt or 3mm), got {value!r}")
        if not self.SMALLEST <= size <= self.LARGEST:
            return ck.fail(path, f"is {size:g} pt; a font size must be between {self.SMALLEST:g} and "
                                 f"{self.LARGEST:g} pt (smaller text does not print legibly)")
        return size

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"anyOf": [
            {"type": "number", "minimum": self.SMALLEST, "maximum": self.LARGEST},
            {"type": "string", "pattern": r"^\s*\d+(\.\d+)?\s*(pt|mm|cm|in)\s*$"},
        ]})


class ColourValue(Type[str]):
    """A colour: `#rrggbb`, `none`, a name from the layout's palette, or a template giving one of those."""

    def __init__(self, *, none: bool = True, doc: str = "") -> None:
        self.none = none
        self.doc = doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if not isinstance(value, str):
            return ck.fail(path, f"expected a colour ('#rrggbb', a palette name or 'none'), got {value!r}")
        text = value.strip()
        if "{{" in text or "{%" in text:
            return text
        if HEX.fullmatch(text):
            return text.lower()
        if text == "none":
            return text if self.none else ck.fail(path, "must be a colour, not 'none'")
        if re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", text):
            return text  # a palette name, checked once the layout is merged
        return ck.fail(path, f"{value!r} is not a colour: use '#rrggbb', a palette name, 'none' or a template")

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"type": "string", "examples": ["#2a2118", "ink", "none", "{{ colour.hex }}"]})


TEMPLATE = Text(max_len=4000, doc="jinja2 text; card values are printed as given (never run as templates)")

GRADIENTS = ("linear", "radial")

GRADIENT: Record[dict[str, Any]] = Record(
    name="gradient",
    doc="A fill that changes colour across the box.",
    fields={
        "gradient": Field(Choice(GRADIENTS, what="gradient"), doc="linear (along a line) or radial (from a centre)"),
        "stops": Field(ListOf(Text(max_len=400), min_items=2, max_items=16),
                       doc="the colours, first to last: a colour, a palette name or a template, each optionally "
                           "followed by where it stands (`ink 40%`); without, they are spread evenly"),
        "angle": Field(Number(-360, 360), required=False,
                       doc="linear: the direction in degrees clockwise from left-to-right (default 90: top to "
                           "bottom)"),
        "center": Field(Text(max_len=60), required=False,
                        doc="radial: the centre, `x y` in lengths or % of the box (default 50% 50%)"),
        "radius": Field(Dimension(), required=False,
                        doc="radial: how far the last colour reaches, a length or a % of the distance to the box's "
                            "farthest corner (default 100%)"),
    },
)

HATCH: Record[dict[str, Any]] = Record(
    name="hatching",
    doc="Parallel lines over a shape's fill, inside its outline.",
    fields={
        "colour": Field(ColourValue(none=False), doc="the lines' colour"),
        "angle": Field(Number(-360, 360), required=False, doc="degrees clockwise from horizontal (default 45)"),
        "spacing": Field(Dimension(percent=False), required=False, doc="from one line to the next (default 2mm)"),
        "width": Field(Dimension(percent=False), required=False, doc="the lines' width (default 0.5pt)"),
    },
)


def _style_fields() -> dict[str, Field]:
    return {
        "font": Field(Text(max_len=100), required=False,
                      doc="cardo, cardo-bold, cardo-italic, open-sans, open-sans-bold, or a font the deck or layout "
                          "declares under `fonts:` (NAME, NAME-bold, NAME-italic, NAME-bold-italic)"),
        "size": Field(FontSize(), required=False, doc="the size text starts at, in points"),
        "min_size": Field(FontSize(), required=False,
                          doc="the smallest size text may shrink to in order to fit (default: no shrinking)"),
        "colour": Field(ColourValue(none=False), required=False,
                        doc="the text colour; an icon's colour; a picture recoloured in it (one-colour art)"),
        "align": Field(Choice(ALIGNS, what="alignment"), required=False, doc="left (default), center or right"),
        "valign": Field(Choice(VALIGNS, what="vertical alignment"), required=False,
                        doc="top (default), middle or bottom"),
        "leading": Field(Number(0.8, 3.0), required=False, doc="line spacing as a multiple of the size (default 1.2)"),
        "wrap": Field(Bool(), required=False,
                      doc="wrap at spaces to the box's width (default true); false keeps each line whole and shrinks"),
        "language": Field(Choice(tuple(LANGUAGES), what="language"), required=False,
                          doc="the text's language (en, en-gb, en-us, fr, de): words are hyphenated with its "
                              "dictionary where that fits more on a line (a card drawn in another language than "
                              "its deck's own, with --lang, is hyphenated in that one)"),
        "hyphenate": Field(Bool(), required=False,
                           doc="hyphenate words at line ends (default: true when a language is given); without a "
                               "language, in the language the card is drawn in (--lang, the deck's lang:)"),
        "letter_spacing": Field(Number(-0.2, 1.0), required=False,
                                doc="room added after every letter, as a share of the text's size (0.1: a tenth)"),
        "outline": Field(ColourValue(none=False), required=False,
                         doc="a colour drawn around every letter, under it (titles over art)"),
        "outline_width": Field(Dimension(percent=False), required=False,
                               doc="how far the outline reaches outside each letter (default 1pt)"),
    }


STYLE_KEYS = tuple(_style_fields())

STYLE: Record[dict[str, Any]] = Record(name="text style", fields=_style_fields(),
                                       doc="How text looks: font, size, colour, alignment.")


def _box_fields() -> dict[str, Field]:
    colour = ColourValue()
    return {
        "kind": Field(Choice(KINDS, what="box kind"), required=False,
                      doc="rect, circle, ellipse, polygon, star, path, line, text, icon, image, rows (a list of "
                          "label + text rows) or notes (the card's not-official values, in small print)"),
        "extends": Field(Slug(), required=False, doc="another box of this layout whose keys this one starts from"),
        "when": Field(Text(max_len=400), required=False,
                      doc="a jinja2 expression; the box is drawn only when it is true (e.g. vp.ability)"),
        "layer": Field(Int(-100, 100), required=False,
                       doc="drawing order: boxes are drawn by layer, lowest first, and in the order listed within "
                           "a layer (default 0); a box inherited from another layout goes on top with layer: 1"),
        "rotate": Field(Number(-360, 360), required=False,
                        doc="turn the box by this many degrees, clockwise, about its pivot"),
        "pivot": Field(Choice(PIVOTS, what="pivot"), required=False,
                       doc="what the box turns about: center (default), a corner or edge of the box (top-left...), "
                           "or card (the card's centre: 180 puts a corner upside down in the opposite one)"),
        "opacity": Field(Number(0, 1), required=False, doc="0 (invisible) to 1 (opaque, the default)"),
        "decoration": Field(Bool(), required=False,
                            doc="the box is decoration: --ink light draws it as a light tint or an outline (a "
                                "layout that marks no box has all of them drawn so)"),
        "flip": Field(Choice(FLIPS, what="flip"), required=False,
                      doc="mirror the box about its centre: horizontal (left and right swapped), vertical or both"),
        "x": Field(Dimension(negative=True), required=False, doc="left edge, from the card's left edge"),
        "y": Field(Dimension(negative=True), required=False, doc="top edge, from the card's top edge"),
        "width": Field(Dimension(), required=False),
        "height": Field(Dimension(), required=False),
        "bleed": Field(Bool(), required=False,
                       doc="extend the shape into the bleed on every side where it touches the card's edge"),
        "fill": Field(AnyOf(options=(GRADIENT, colour), what="a colour or a gradient {gradient: linear, stops: [...]}"),
                      required=False, doc="fill of a shape or rows label: a colour, or a gradient"),
        "hatch": Field(HATCH, required=False, doc="shapes: parallel lines over the fill, inside the outline"),
        "stroke": Field(colour, required=False, doc="outline colour"),
        "stroke_width": Field(Dimension(percent=False), required=False, doc="outline width (e.g. 0.5pt)"),
        "dash": Field(Text(max_len=60, pattern=r"\s*\d+(\.\d+)?\s*pt(\s+\d+(\.\d+)?\s*pt)*\s*",
                           hint=N_("dash lengths in points such as '2pt 1pt'")), required=False,
                      doc="dash pattern of the outline: on and off lengths in points"),
        "radius": Field(Radii(), required=False,
                        doc="corner radius of a rect (or of a picture clipped to one): one length, or four "
                            "clockwise from the top-left"),
        "sides": Field(Int(3, 64), required=False, doc="polygon: a regular polygon of this many sides"),
        "points": Field(AnyOf(options=(Int(3, 64), PointList()), what="a number (star) or points (polygon)"),
                        required=False,
                        doc="star: how many points (default 5); polygon: its corners, `x y` pairs in lengths or % of "
                            "the box, separated by commas"),
        "inner": Field(Share(), required=False, doc="star: its inner radius as a share of the outer (default 50%)"),
        "angle": Field(Number(-360, 360), required=False,
                       doc="polygon, star: where the first corner points, degrees clockwise from straight up"),
        "d": Field(PATH_DATA, required=False, doc="path: SVG path data, stretched over the box"),
        "viewbox": Field(VIEWBOX, required=False,
                         doc="path: the part of the path's plane stretched over the box, `x y width height` "
                             "(default: the path's bounds)"),
        "cap": Field(Choice(CAPS, what="line cap"), required=False,
                     doc="line, path: how the ends are drawn: butt (default), round or square"),
        "x1": Field(Dimension(negative=True), required=False, doc="line: where it starts, from the card's left edge"),
        "y1": Field(Dimension(negative=True), required=False, doc="line: where it starts, from the card's top edge"),
        "x2": Field(Dimension(negative=True), required=False, doc="line: where it ends, from the card's left edge"),
        "y2": Field(Dimension(negative=True), required=False, doc="line: where it ends, from the card's top edge"),
        "text": Field(TEMPLATE, required=False, doc="the text of a text or rows box (jinja2)"),
        "style": Field(Slug(), required=False, doc="a style from `styles`; keys given on the box override it"),
        **_style_fields(),
        "icon": Field(Text(max_len=200), required=False, doc="an icon name, or a template giving one"),
        "markup": Field(Bool(), required=False,
                        doc="text: read markup in the card's values too (**bold**, *italic*, [colour=...], "
                            "[size=...%], icons); without it a value prints exactly as written"),
        "src": Field(Text(max_len=400), required=False,
                     doc="image: a PNG, JPEG or SVG file, or a template giving one (a card's column): a file the "
                         "layout names is relative to the layout, one from a card relative to the deck's folder"),
        "fit": Field(Choice(FITS, what="fit"), required=False,
                     doc="image: contain (default: all of it, inside the box), cover (fills the box, cropped to "
                         "it) or stretch"),
        "anchor": Field(Choice(ANCHORS, what="anchor"), required=False,
                        doc="image: where it sits in the box, or what stays in view when cropped (default center)"),
        "clip": Field(Choice(CLIP_KINDS, what="clip shape"), required=False,
                      doc="image: show the picture only inside this outline of the box: rect (with radius), "
                          "circle, ellipse, polygon, star or path (with the box's sides, points, d...), or a "
                          "deck's named shape: hexagon (a polygon of 6 sides), rounded (a rect of 3.175 mm radius)"),
        "mask": Field(Text(max_len=400), required=False,
                      doc="image: a picture (PNG, JPEG or SVG, relative to the layout) stretched over the box: the "
                          "picture shows where it is white, not where it is black or empty"),
        "items": Field(Text(max_len=400), required=False,
                       doc="rows: a jinja2 expression giving the list of rows (each is `item` in label and text)"),
        "label": Field(TEMPLATE, required=False, doc="rows: the label at the left of each row"),
        "label_style": Field(Slug(), required=False, doc="rows: the style of the labels"),
        "label_width": Field(Dimension(percent=False), required=False,
                             doc="rows: the width (and badge size) of labels"),
        "label_fill": Field(colour, required=False, doc="rows: fill a round badge behind each label"),
        "gap": Field(Dimension(percent=False), required=False, doc="rows: space between label and text"),
        "row_gap": Field(Dimension(percent=False), required=False, doc="rows: space between rows"),
        "divider": Field(colour, required=False, doc="rows: a thin line between rows in this colour"),
        "labels": Field(MapOf(key=Text(max_len=80, pattern=r"[a-z_]+(\.[a-z_]+)+",
                                       hint=N_("a record and field such as 'profession.levels.at'")),
                              value=Text(max_len=80)), required=False,
                        doc="notes: how to name a field in small print ('profession.levels.at': level thresholds)"),
    }



BOX: Record[dict[str, Any]] = Record(name="box", fields=_box_fields(),
                                     doc="A named box of a layout: a shape, an icon or a text field.")

LAYOUT: Record[dict[str, Any]] = Record(
    name="layout",
    doc="A card layout: its boxes, drawn in order, with their styles and colours.",
    fields={
        "extends": Field(Text(max_len=200), required=False,
                         doc="a layout to start from: a shipped layout id, or a .yaml file beside this one"),
        "description": Field(Text(max_len=400), required=False),
        "background": Field(ColourValue(none=False), required=False, doc="the card's colour, into the bleed"),
        "safe": Field(Dimension(percent=False), required=False,
                      doc="text and icons stay this far inside the card's edge (default 3mm)"),
        "palette": Field(MapOf(key=Slug(), value=Text(pattern=HEX.pattern, hint=N_("a colour like '#2a2118'"))),
                         required=False, doc="colour names for this layout"),
        "styles": Field(MapOf(key=Slug(), value=STYLE), required=False, doc="named text styles"),
        "boxes": Field(MapOf(key=Slug(), value=BOX), required=False, doc="the boxes, drawn in this order"),
        "fonts": Field(FONT_DECLARATIONS, required=False,
                       doc="fonts of one's own, by name (files relative to this layout)"),
        "icons": Field(ICON_DECLARATIONS, required=False,
                       doc="icons of one's own (SVG or PNG), by name, or a folder of them"),
    },
)


def schemas() -> dict[str, tuple[str, Type[Any]]]:
    """The layout file's published schema (see generator.schemas)."""
    return {"layout": ("A donjon card layout (templates/layouts/*.yaml, or a layout in a deck folder)", LAYOUT)}
