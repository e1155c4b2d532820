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

from __future__ import annotations

import re
from typing import Any, NamedTuple

from generator.fields import (
    Bool,
    Checker,
    Choice,
    Field,
    MapOf,
    Number,
    Record,
    Slug,
    Text,
    Type,
)
from generator.units import PT_PER_INCH, PT_PER_MM
from generator.yamlio import PathKey

KINDS = ("rect", "circle", "line", "text", "icon", "rows", "notes")
ALIGNS = ("left", "center", "right")
VALIGNS = ("top", "middle", "bottom")
FONTS = ("cardo", "cardo-bold", "cardo-italic", "open-sans", "open-sans-bold")

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


def _style_fields() -> dict[str, Field]:
    return {
        "font": Field(Choice(FONTS, what="font"), required=False,
                      doc="cardo, cardo-bold, cardo-italic, open-sans or open-sans-bold"),
        "size": Field(FontSize(), required=False, doc="the size text starts at, in points"),
        "min_size": Field(FontSize(), required=False,
                          doc="the smallest size text may shrink to in order to fit (default: no shrinking)"),
        "colour": Field(ColourValue(none=False), required=False, doc="the text colour"),
        "align": Field(Choice(ALIGNS, what="alignment"), required=False, doc="left (default), center or right"),
        "valign": Field(Choice(VALIGNS, what="vertical alignment"), required=False,
                        doc="top (default), middle or bottom"),
        "leading": Field(Number(0.8, 3.0), required=False, doc="line spacing as a multiple of the size (default 1.2)"),
        "wrap": Field(Bool(), required=False,
                      doc="wrap at spaces to the box's width (default true); false keeps each line whole and shrinks"),
    }


STYLE_KEYS = tuple(_style_fields())

STYLE: Record[dict[str, Any]] = Record(name="text style", fields=_style_fields(),
                                       doc="How text looks: font, size, colour, alignment.")


def _box_fields() -> dict[str, Field]:
    colour = ColourValue()
    return {
        "kind": Field(Choice(KINDS, what="box kind"), required=False,
                      doc="rect, circle, line, text, icon, rows (a list of label + text rows) or notes "
                          "(the card's not-official values, in small print)"),
        "extends": Field(Slug(), required=False, doc="another box of this layout whose keys this one starts from"),
        "when": Field(Text(max_len=400), required=False,
                      doc="a jinja2 expression; the box is drawn only when it is true (e.g. vp.ability)"),
        "x": Field(Dimension(negative=True), required=False, doc="left edge, from the card's left edge"),
        "y": Field(Dimension(negative=True), required=False, doc="top edge, from the card's top edge"),
        "width": Field(Dimension(), required=False),
        "height": Field(Dimension(), required=False),
        "bleed": Field(Bool(), required=False,
                       doc="extend the shape into the bleed on every side where it touches the card's edge"),
        "fill": Field(colour, required=False, doc="fill colour of a rect, circle or rows label"),
        "stroke": Field(colour, required=False, doc="outline colour"),
        "stroke_width": Field(Dimension(percent=False), required=False, doc="outline width (e.g. 0.5pt)"),
        "dash": Field(Text(max_len=60, pattern=r"\s*\d+(\.\d+)?\s*pt(\s+\d+(\.\d+)?\s*pt)*\s*",
                           hint="dash lengths in points such as '2pt 1pt'"), required=False,
                      doc="dash pattern of the outline: on and off lengths in points"),
        "radius": Field(Dimension(percent=False), required=False, doc="corner radius of a rect"),
        "text": Field(TEMPLATE, required=False, doc="the text of a text or rows box (jinja2)"),
        "style": Field(Slug(), required=False, doc="a style from `styles`; keys given on the box override it"),
        **_style_fields(),
        "icon": Field(Text(max_len=200), required=False, doc="an icon name, or a template giving one"),
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
                                       hint="a record and field such as 'profession.levels.at'"),
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
        "palette": Field(MapOf(key=Slug(), value=Text(pattern=HEX.pattern, hint="a colour like '#2a2118'")),
                         required=False, doc="colour names for this layout"),
        "styles": Field(MapOf(key=Slug(), value=STYLE), required=False, doc="named text styles"),
        "boxes": Field(MapOf(key=Slug(), value=BOX), required=False, doc="the boxes, drawn in this order"),
    },
)


def schemas() -> dict[str, tuple[str, Type[Any]]]:
    """The layout file's published schema (see generator.schemas)."""
    return {"layout": ("A donjon card layout (templates/layouts/*.yaml, or a layout in a deck folder)", LAYOUT)}
