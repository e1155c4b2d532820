"""The sheet layout format (`templates/sheets/*.yaml`, or a designer's own), its JSON Schema, and loading.

A sheet layout is one page: the page (papers, margins, the content's width, the page line), named **parts**
drawn in the order they are listed (text, shapes, paths, icons, groups, components used or repeated in a grid),
and typed **fields**, each marked on paper (bubbles, a track of figures, digits, a grid of items, a write-in
area) and on screen (a form field, an `entry`)::

    name: score sheet                     # what messages call the sheet
    page: {papers: [a4, letter], width: 190mm, margins: {top: 10mm, bottom: 10mm}}
    identity: {field: sheet, value: my-sheet}   # the hidden field of the fillable sheet, the map's `version`
    scan: {markers: {a4: 8, letter: 9}}   # which marker code (of opencv's 4x4 dictionary) each paper prints
    values: {rounds: 8}                   # what templates read (a game or a sheet.yaml adds its own)
    words: {or: or}                       # words templates use (translations change them, not code)
    palette: {ink: "#1f1b16"}
    styles: {body: {font: open-sans, size: 7pt, colour: ink}}
    paints: {box: {fill: white, stroke: ink, stroke_width: 0.8pt, radius: 0.8mm}}
    fields:                               # in the order a player fills them in (the fillable sheet's tab order)
      player: {type: text}
      gold: {type: count}
    parts:
      title: {kind: text, x: 0, baseline: 7mm, text: "My game", style: title}
      gold-screen: {kind: entry, field: gold, x: 0, y: 20mm, width: 10mm, height: 7mm, paint: box}
      gold-paper: {kind: digits, field: gold, x: 0, y: 20mm}

Lengths are those of card layouts (`12mm`, `50%`, `100% - 4mm`): a part's `x`, `y`, `width` and `height` are
measured from its parent's box (the page's content, a group, a component's place), percentages of its width (x)
or height (y). A part drawn on only one variant says `only: scan` or `only: fillable`; a part may also hold
`scan:` or `fillable:` keys that replace its own on that variant. Text is a jinja2 template (as in card layouts)
reading the layout's `values` and `words`, the values the game or the sheet gives, and a component's `vars`.

`extends` starts from another sheet layout: top-level mappings are merged key by key, and parts by name, a
group's own parts too (a part of the same name is changed, a new one is drawn after the others).

The checked, merged layout is a :class:`SheetLayout`; :mod:`generator.sheets.draw` draws it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from generator.errors import ContentError, InputError, Problem
from generator.fields import (
    AnyOf,
    Bool,
    Checker,
    Choice,
    Field,
    Int,
    Invalid,
    ListOf,
    MapOf,
    Number,
    Record,
    Slug,
    Text,
    Type,
    check_document,
)
from generator.i18n import N_
from generator.layout.spec import HEX, STYLE, ColourValue, Dim, Dimension
from generator.sheets.marks import Need
from generator.yamlio import Document, PathKey, load_file

#: What a part can be. Drawn parts: text, shapes, icons, groups; `use` and `repeat` draw a component. Field parts:
#: `entry` (on screen: a box and its form field), and on paper `bubble`, `bubbles`, `digits`, `track` (figures
#: to colour in, drawn on every variant, marks on the scan-ready one), `items` (a bubble per item of a list) and
#: `write-in` (an area written by hand, cropped for a person, never read).
PART_KINDS = ("text", "rect", "circle", "line", "path", "icon", "outline", "group", "use", "repeat",
              "entry", "bubble", "bubbles", "digits", "track", "items", "write-in")
MARK_KINDS = ("bubble", "bubbles", "digits", "track", "items", "write-in")
#: The kinds of field (docs: templates/sheets/README.md): a name written in, a yes-no mark, a count (nothing
#: marked is 0), a whole number or none, one of some values or none, a list of items.
FIELD_TYPES = ("text", "yes-no", "count", "number", "choice", "list")
VARIANTS = ("scan", "fillable")
PAPER_IDS = ("a4", "letter")
#: A field's name: words with `_`, each maybe indexed, joined by dots (`walls[1].flags[0]`, `gold`).
FIELD_NAME = r"[a-z][a-z0-9_]*(\[\d{1,3}\])?(\.[a-z][a-z0-9_]*(\[\d{1,3}\])?)*"
#: A form field's name: PDF viewers split names at dots into a tree, so a form name has none.
FORM_NAME = r"[A-Za-z][A-Za-z0-9_-]{0,63}"
#: A name templates read (`values`, `words`, `vars`).
VALUE_NAME = r"[a-z_][a-z0-9_]*"

#: The parts a layout may hold in all, groups and components included, and how deep groups nest: a sheet has a
#: few hundred parts; no layout can exhaust a build.
MAX_PARTS = 5000
MAX_DEPTH = 8
#: The most cells a `repeat` draws, and figures a track holds.
MAX_REPEAT = 500


#: The smallest bubble a photo reads: synthetic phone photos of a sheet (rendered at 150 dpi, pencil fill, turned
#: -3 to 6 degrees, blurred; 18 each, November 2026) read every value right with bubbles of 2 mm and more, and a
#: third of them wrongly or not at all with 1.5 mm bubbles (an empty bubble's own outline fills the inside read);
#: 3 mm leaves a margin for real pencils and phones, under the 4 to 6 mm that bubble sheets use.
LEAST_BUBBLE_MM = 3.0
#: The smallest corner marker a photo finds: the same photos found every 4 mm marker, half of the 3 mm ones and
#: none of 2 mm (the detector works on the photo made 1,600 pixels long, where a 3 mm marker's cells are two pixels
#: wide); 8 mm is twice the smallest that was always found, as a photo taken from further shows the sheet smaller.
LEAST_MARKER_MM = 8.0


class _ReadableLength(Dimension):
    """A length of the scan-ready sheet that a photo must still read: no smaller than `least_mm`, `what` saying
    what a smaller one would cost."""

    def __init__(self, least_mm: float, what: str, doc: str) -> None:
        super().__init__(percent=False, doc=doc)
        self.least_mm = least_mm
        self.what = what

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        dim = super().check(value, path, ck)
        # 1e-6 pt: a length written as the least itself (3mm, or 8.5pt) is never refused by a rounding
        if isinstance(dim, Dim) and not dim.relative and dim.pt < self.least_mm * 72 / 25.4 - 1e-6:
            return ck.fail(path, "{value!r} is smaller than {least:g}mm: {what}", value=value, least=self.least_mm,
                           what=self.what)
        return dim


class _Parts(Type[dict[str, Any]]):
    """The parts of a layout, a group or a component: a mapping of names to parts (each checked as :data:`PART`).
    Its schema refers to the part's definition, which holds parts itself."""

    doc = "parts, drawn in the order they are listed"

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        return MapOf(key=Slug(), value=PART, max_items=MAX_PARTS).check(value, path, ck)

    def schema(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": {"$ref": "#/$defs/part"}, "description": self.doc}


class _WithDefs(Type[Any]):
    """The layout record, its schema carrying the part's definition (parts nest)."""

    def __init__(self, inner: Record[Any]) -> None:
        self.inner = inner
        self.doc = inner.doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        return self.inner.check(value, path, ck)

    def schema(self) -> dict[str, Any]:
        return {**self.inner.schema(), "$defs": {"part": PART.schema()}}


_SCALARS = (Int(), Number(), Bool(), Text(max_len=400))
SCALAR = AnyOf(_SCALARS, what="a number, true/false or text")
#: An item of a list of values: a value, or a mapping of values (an item with its id and name, a group of a track).
ITEM = AnyOf((*_SCALARS, MapOf(key=Text(max_len=60), value=SCALAR)), what="a value or a mapping of values")
#: A value a sheet's templates read: a value, a list of items, or a mapping of values.
VALUE = AnyOf((*_SCALARS, ListOf(ITEM, max_items=200), MapOf(key=Text(max_len=60), value=SCALAR)), what="a value")
TEMPLATE = Text(max_len=4000, doc="jinja2 text reading the layout's values, words and vars")
EXPRESSION = Text(max_len=400, doc="a jinja2 expression giving a list (e.g. `flag_values.values`)")
#: The words a layout's templates use (`words.or`, `words.kinds.bolt`): a text, or a mapping of texts.
WORDS = MapOf(key=Text(max_len=40, pattern=VALUE_NAME, hint=N_("a name like 'points'")),
              value=AnyOf((Text(max_len=400), MapOf(key=Text(max_len=60), value=Text(max_len=400))),
                          what="text, or a mapping of texts"))
_DASH = Text(max_len=60, pattern=r"\s*\d+(\.\d+)?\s*pt(\s+\d+(\.\d+)?\s*pt)*\s*",
             hint=N_("dash lengths in points such as '2pt 1pt'"))


def _paint_fields() -> dict[str, Field]:
    colour = ColourValue()
    return {
        "fill": Field(colour, required=False, doc="the fill colour"),
        "stroke": Field(colour, required=False, doc="the outline colour"),
        "stroke_width": Field(Dimension(percent=False), required=False, doc="the outline's width (e.g. 0.8pt)"),
        "dash": Field(_DASH, required=False, doc="the outline's dash pattern: on and off lengths in points"),
        "radius": Field(Dimension(percent=False), required=False, doc="the corners' radius"),
    }


PAINT: Record[dict[str, Any]] = Record(name="paint", fields=_paint_fields(), doc="How a shape is filled and outlined.")


def _part_fields() -> dict[str, Field]:
    length = Dimension(negative=True)
    return {
        "kind": Field(Choice(PART_KINDS, what="part kind"), required=False,
                      doc="what the part is: " + ", ".join(PART_KINDS) + " (a part changing an inherited one may "
                          "leave it out)"),
        "only": Field(Choice(VARIANTS, what="variant"), required=False,
                      doc="drawn only on the scan-ready sheet (scan) or the fillable one (fillable)"),
        "when": Field(Text(max_len=400), required=False, doc="a jinja2 expression: the part is drawn when true"),
        "x": Field(length, required=False, doc="left edge, from the parent's left edge"),
        "y": Field(length, required=False, doc="top edge, from the parent's top edge"),
        "width": Field(Dimension(), required=False),
        "height": Field(Dimension(), required=False),
        "baseline": Field(length, required=False,
                          doc="text: one line on this baseline (from the parent's top), aligned on x; without it "
                              "text is wrapped and shrunk to fit its box"),
        "x1": Field(length, required=False), "y1": Field(length, required=False),
        "x2": Field(length, required=False), "y2": Field(length, required=False),
        "text": Field(TEMPLATE, required=False, doc="text (markup: **bold**, {icon}; values print as written)"),
        "style": Field(Slug(), required=False, doc="a style from `styles`; keys given here override it"),
        **{k: v for k, v in STYLE.fields.items()},
        "paint": Field(Slug(), required=False, doc="a paint from `paints`; keys given here override it"),
        **_paint_fields(),
        "ops": Field(ListOf(ListOf(AnyOf((Text(max_len=40), Int(), Number()), what="an operation or a length"),
                                   min_items=1, max_items=7), min_items=1, max_items=500), required=False,
                     doc="path: [M, x, y], [L, x, y], [C, x1, y1, x2, y2, x, y], [Z]; lengths from the part's box"),
        "icon": Field(Text(max_len=200), required=False, doc="icon: its name, or a template giving one"),
        "colour": Field(ColourValue(none=False), required=False, doc="icon: its colour"),
        "shape": Field(Text(max_len=40, pattern=r"[a-z][a-z0-9-]*", hint=N_("an icon name")), required=False,
                       doc="outline: the icon whose outline is drawn, stretched to the box"),
        "parts": Field(_Parts(), required=False, doc="group: the parts inside it, placed in its box"),
        "component": Field(Slug(), required=False, doc="use, repeat: the component drawn"),
        "vars": Field(MapOf(key=Text(max_len=40, pattern=VALUE_NAME, hint=N_("a name like 'number'")), value=SCALAR),
                      required=False, doc="use, repeat: values the component's templates read"),
        "count": Field(AnyOf((Int(0, MAX_REPEAT), Text(max_len=400)), what="a number or an expression"),
                       required=False, doc="repeat: how many cells"),
        "columns": Field(Int(1, 100), required=False, doc="repeat, items, digits: cells in a row"),
        "gap_x": Field(Dimension(percent=False), required=False, doc="repeat: between two cells across"),
        "gap_y": Field(Dimension(percent=False), required=False, doc="repeat: between two rows"),
        "order": Field(Choice(("rows", "columns"), what="order"), required=False,
                       doc="repeat, items: fill the grid row by row (default) or column by column"),
        "field": Field(Text(max_len=200), required=False, doc="the field the part marks (a template)"),
        "form": Field(Text(max_len=200), required=False,
                      doc="entry: the form field's name (default: the field's, with _ for . [ ])"),
        "tooltip": Field(Text(max_len=400), required=False, doc="entry: what a viewer shows over the field"),
        "unit": Field(Int(1, 999), required=False,
                      doc="entry of a count: one tick box, counting as this many ticked (a count of several boxes)"),
        "value": Field(SCALAR, required=False, doc="bubble: what filling it means (default true)"),
        "values": Field(AnyOf((ListOf(SCALAR, min_items=1, max_items=100), EXPRESSION),
                              what="a list of values or an expression"), required=False,
                        doc="bubbles: one bubble per value"),
        "direction": Field(Choice(("row", "column"), what="direction"), required=False,
                           doc="bubbles: a row (default) or a column"),
        "anchor": Field(Choice(("start", "center"), what="anchor"), required=False,
                        doc="bubbles: x is the row's left edge (start) or its middle (center)"),
        "labels": Field(Choice(("above", "beside", "none"), what="label place"), required=False,
                        doc="bubbles, digits: where each value is printed: above it, beside it, or nowhere"),
        "label_style": Field(Slug(), required=False, doc="the style of labels"),
        "room": Field(Dimension(percent=False), required=False,
                      doc="bubbles: the most length the row may take (a longer one is an error)"),
        "digits": Field(Int(1, 2), required=False, doc="digits: 1 (units) or 2 (tens and units)"),
        "present": Field(Text(max_len=40, pattern=r"[a-z][a-z0-9-]*", hint=N_("a word like 'built'")), required=False,
                         doc="digits: a mark meaning the field has a value even with no digit filled (a tower built "
                             "without a number): its value in the map of marks"),
        "present_label": Field(Text(max_len=80), required=False,
                               doc="digits: the word printed beside the `present` mark (default: `present`)"),
        "label_width": Field(Dimension(percent=False), required=False,
                             doc="digits with labels above: the room of each row's word (tens, units) at the left"),
        "groups": Field(EXPRESSION, required=False,
                        doc="track: an expression giving its groups (each with first, last, points)"),
        "label": Field(TEMPLATE, required=False, doc="track: a group's label; items: an item's name"),
        "span": Field(TEMPLATE, required=False, doc="track: the residents a group spans"),
        "span_style": Field(Slug(), required=False, doc="track: the style of the span"),
        "rows": Field(Int(1, 20), required=False, doc="track: the most rows it may take"),
        "row_height": Field(Dimension(percent=False), required=False, doc="track, items: from one row to the next"),
        "items": Field(EXPRESSION, required=False,
                       doc="items: an expression giving the items (each with id, and what label and icon read)"),
        "icon_colour": Field(ColourValue(none=False), required=False, doc="items: the icons' colour"),
    }


_PART_FIELDS = _part_fields()
#: `scan:` and `fillable:` hold any key of a part but the ones that say what it is
_OVERRIDE_KEYS = {k: v for k, v in _PART_FIELDS.items() if k not in ("kind", "parts", "only")}
_PART_FIELDS["scan"] = Field(Record(name="scan-only keys", fields=_OVERRIDE_KEYS), required=False,
                             doc="keys that replace the part's own on the scan-ready sheet")
_PART_FIELDS["fillable"] = Field(Record(name="fillable-only keys", fields=_OVERRIDE_KEYS), required=False,
                                 doc="keys that replace the part's own on the fillable sheet")
PART: Record[dict[str, Any]] = Record(name="part", fields=_PART_FIELDS,
                                      doc="A part of a sheet: a shape, text, a group, or how a field is marked.")

NEED: Record[dict[str, Any]] = Record(name="need", fields={
    "field": Field(Text(max_len=200, pattern=FIELD_NAME, hint=N_("a field's name")), required=False,
                   doc="the field this one stands on: marked (a yes-no), or holding a value (a number, a count from 1, "
                       "a list not empty)"),
    "fields": Field(ListOf(Text(max_len=200, pattern=FIELD_NAME, hint=N_("a field's name")), min_items=1, max_items=20),
                    required=False, doc="several fields this one stands on, each as `field` says"),
    "at-least": Field(Int(1, 1000), required=False, doc="the field(s) must hold at least this (a count)"),
    "from": Field(Int(1, 1000), required=False,
                  doc="the need holds once this field holds at least this (a count: from its 3rd floor on)"),
    "why": Field(Text(max_len=300), doc="why, in words (a rule, with where the rulebook says it)"),
}, doc="What a field stands on, by the rules.")

FIELD: Record[dict[str, Any]] = Record(name="field", fields={
    "type": Field(Choice(FIELD_TYPES, what="field type"), doc=", ".join(FIELD_TYPES)),
    "when": Field(Text(max_len=400), required=False, doc="a jinja2 expression: the sheet has the field when true"),
    "read": Field(Bool(), required=False, default=True,
                  doc="false for a field the player fills for themselves and the reader leaves (a total)"),
    "values": Field(AnyOf((ListOf(SCALAR, min_items=1, max_items=100), EXPRESSION),
                          what="a list of values or an expression"), required=False,
                    doc="choice: the values it takes"),
    "items": Field(EXPRESSION, required=False, doc="list: an expression giving its items (each with an id)"),
    "needs": Field(AnyOf((NEED, ListOf(NEED, min_items=1, max_items=20)), what="a need or a list of needs"),
                   required=False, doc="what the rules say this field stands on (a flag on its wall, a guest on its "
                                       "floor): a value there without it is refused on a PDF (a yes-no field), asked "
                                       "about on a photo"),
}, doc="A field: a value the sheet records.")

_LENGTHS = ("top", "bottom", "left", "right")

LAYOUT = _WithDefs(Record(name="sheet layout", doc="A score sheet: its page, parts and fields.", fields={
    "extends": Field(Text(max_len=200), required=False,
                     doc="a sheet layout to start from: a shipped one's id, or a .yaml file beside this one"),
    "description": Field(Text(max_len=400), required=False),
    "name": Field(Text(max_len=60), required=False, doc="what messages call the sheet (default: score sheet)"),
    "page": Field(Record(name="page", fields={
        "papers": Field(ListOf(Choice(PAPER_IDS, what="paper"), min_items=1, max_items=2), required=False,
                        doc="the papers the sheet is drawn on (default both, a4 and letter)"),
        "orientation": Field(Choice(("portrait", "landscape"), what="orientation"), required=False),
        "width": Field(Dimension(percent=False), required=False,
                       doc="the content's width, centred on the page (default: the page less its margins)"),
        "margins": Field(Record(name="margins", fields={
            k: Field(Dimension(percent=False), required=False) for k in _LENGTHS}), required=False,
            doc="above, below and beside the content (default 10mm each)"),
        "line": Field(TEMPLATE, required=False, doc="the page line printed at the bottom beside the 50 mm ruler"),
    }), required=False),
    "identity": Field(Record(name="identity", fields={
        "field": Field(Text(max_len=40, pattern=FORM_NAME, hint=N_("a form field's name"))),
        "value": Field(Text(max_len=80)),
        "tooltip": Field(Text(max_len=200), required=False, doc="what a viewer shows over it"),
    }), required=False, doc="the hidden field that tells a filled fillable sheet's layout (default: sheet = its id)"),
    "scan": Field(Record(name="scan-ready sheet", fields={
        "markers": Field(MapOf(key=Choice(PAPER_IDS, what="paper"), value=Int(0, 11)), required=False,
                         doc="the marker code each paper prints (its 4 markers are ids 4 x code + corner)"),
        "marker": Field(_ReadableLength(LEAST_MARKER_MM, "a photo would not find so small a corner marker",
                                        doc="a marker's side (default 12mm)"), required=False),
        "quiet": Field(Dimension(percent=False), required=False, doc="blank paper around a marker (default 3mm)"),
        "bubble": Field(_ReadableLength(LEAST_BUBBLE_MM, "a photo would not tell so small a bubble filled from empty",
                                        doc="a bubble's diameter (default 4.6mm)"), required=False),
        "gap": Field(Dimension(percent=False), required=False, doc="between two bubbles of a field (default 1.5mm)"),
        "outline": Field(ColourValue(none=False), required=False, doc="the bubbles' outline colour"),
        "outline_width": Field(Dimension(percent=False), required=False, doc="default 0.6pt"),
    }), required=False),
    "values": Field(MapOf(key=Text(max_len=40, pattern=VALUE_NAME, hint=N_("a name like 'rounds'")),
                          value=VALUE),
                    required=False, doc="values templates read"),
    "words": Field(WORDS, required=False, doc="words templates use: a translation changes these"),
    "palette": Field(MapOf(key=Slug(), value=Text(pattern=HEX.pattern, hint=N_("a colour like '#2a2118'"))),
                     required=False, doc="colour names"),
    "styles": Field(MapOf(key=Slug(), value=STYLE), required=False, doc="named text styles"),
    "paints": Field(MapOf(key=Slug(), value=PAINT), required=False, doc="named fills and outlines"),
    "components": Field(MapOf(key=Slug(), value=Record(name="component", fields={
        "parts": Field(_Parts()),
    })), required=False, doc="groups of parts drawn by `use` and `repeat`"),
    "fields": Field(MapOf(key=Text(max_len=200, pattern=FIELD_NAME, hint=N_("a field name like 'walls[1].flags[0]'")),
                          value=FIELD), required=False,
                    doc="the fields, in the order a player fills them in"),
    "parts": Field(_Parts(), required=False),
}))


# --- the loaded layout ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Where:
    """Where a value was written: the file and line, and the path of keys (for messages)."""

    file: str
    line: int | None
    path: str


@dataclass(frozen=True)
class Part:
    """A part as written (values checked, lengths converted), with its children (a group's) and its place."""

    name: str
    kind: str
    values: Mapping[str, Any]
    children: tuple[Part, ...]
    where: Where

    def on(self, variant: str) -> Mapping[str, Any]:
        """The part's keys on a variant (`print` takes the fillable's)."""
        over = self.values.get("scan" if variant == "scan" else "fillable")
        return {**self.values, **over} if over else self.values


@dataclass(frozen=True)
class FieldDecl:
    name: str
    type: str
    read: bool
    when: str | None
    values: tuple[Any, ...] | str | None
    items: str | None
    needs: tuple[Need, ...]
    where: Where


@dataclass(frozen=True)
class SheetLayout:
    """A merged, checked sheet layout."""

    id: str
    file: str
    name: str
    papers: tuple[str, ...]
    orientation: str
    content_width: float | None
    margins: Mapping[str, float]
    page_line: str | None
    #: the hidden field of a fillable sheet: its name, its value, what a viewer says of it
    identity: tuple[str, str, str]
    markers: Mapping[str, int]
    scan: Mapping[str, Any]
    values: Mapping[str, Any]
    words: Mapping[str, Any]
    palette: Mapping[str, str]
    styles: Mapping[str, Mapping[str, Any]]
    paints: Mapping[str, Mapping[str, Any]]
    components: Mapping[str, tuple[Part, ...]]
    fields: tuple[FieldDecl, ...]
    parts: tuple[Part, ...]
    #: where each item of a list of `values` was written, by the list's name (a sheet.yaml's own lists over the
    #: layout's, :func:`values_written`): a problem of one (an id a typed value cannot match) is said at its line
    values_where: Mapping[str, tuple[Where, ...]] = dataclasses.field(default_factory=dict, hash=False)
    #: `name` in other languages, (code, words), where the layout gives them (a sheet of one's own's `languages:`
    #: names): said in messages about a filled sheet before donjon's catalogs are asked (marks.own_words)
    name_said: tuple[tuple[str, str], ...] = ()

    def field(self, name: str) -> FieldDecl | None:
        return next((f for f in self.fields if f.name == name), None)


#: A page's margin when the layout gives none: inside every printer's unprintable edge, as on the decks' pages.
DEFAULT_MARGIN = 10 * 72 / 25.4


def shipped_dir() -> Path:
    from generator.resources import templates_dir

    return templates_dir() / "sheets"


def shipped_ids() -> list[str]:
    return sorted(p.stem for p in shipped_dir().glob("*.yaml"))


def layout_path(ref: str, folder: Path | None, root: Path | None = None) -> Path:
    """The file a reference names: a `.yaml` file relative to `folder` inside the content folder `root`, or a
    shipped sheet layout's id. A ValueError says why it names nothing."""
    from generator.layout.load import layout_path as find

    return find(ref, folder, root, shipped_dir(), "sheet layout", "castle-apprentice", "sheet")


def _fail(where: Where, message: str) -> ContentError:
    return ContentError([Problem(where.file, where.line, where.path, message)])


def _read(path: Path) -> tuple[str, Document, dict[str, Any]]:
    from generator.resources import display_path

    name = display_path(path)
    try:
        doc = load_file(path, display=name)
    except InputError as err:
        raise ContentError([err.problem]) from None
    values, problems = check_document(doc, LAYOUT)
    if problems or isinstance(values, Invalid):
        raise ContentError(problems or [Problem(name, None, "", "is not a sheet layout")])
    return name, doc, values


def load_layout(ref: str, folder: Path | None = None, root: Path | None = None) -> SheetLayout:
    """The sheet layout `ref` (a shipped id, or a file relative to `folder` inside the content folder `root`),
    merged over what it extends and checked; a ContentError names every problem with its file and line.

    Loaded once per version of its file: an edited layout (a designer's, between two builds of one process) is
    read again."""
    try:
        path = layout_path(ref, folder, root)
    except ValueError as err:
        raise ContentError([Problem(str(folder or "templates/sheets"), None, "layout", str(err))]) from None
    try:
        stat = path.stat()
        version = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        version = (0, 0)
    return _load_layout(ref, folder, root, path, version)


@cache
def _load_layout(ref: str, folder: Path | None, root: Path | None, path: Path,
                 version: tuple[int, int]) -> SheetLayout:
    chain: list[tuple[Path, str, Document, dict[str, Any]]] = []
    seen: list[Path] = []
    while True:
        if path in seen:
            cycle = " -> ".join(p.name for p in [*seen, path])
            raise ContentError([Problem(chain[-1][1], chain[-1][2].line(("extends",)), "extends",
                                        f"sheet layouts extend each other in a cycle: {cycle}")])
        seen.append(path)
        name, doc, values = _read(path)
        chain.append((path, name, doc, values))
        parent = values.get("extends")
        if not parent:
            break
        shipped = shipped_dir().resolve() in path.resolve().parents
        try:
            path = layout_path(parent, None if shipped else path.parent, root or folder)
        except ValueError as err:
            raise ContentError([Problem(name, doc.line(("extends",)), "extends", str(err))]) from None
    return _Merger(ref, chain).layout()


class _Merger:
    """Merges a chain of layout files (the layout first, what it extends after) into one :class:`SheetLayout`."""

    def __init__(self, ref: str, chain: list[tuple[Path, str, Document, dict[str, Any]]]) -> None:
        self.ref = ref
        self.chain = list(reversed(chain))  # root first
        self.problems: list[Problem] = []
        self.count = 0

    def layout(self) -> SheetLayout:
        top: dict[str, Any] = {}
        maps: dict[str, dict[str, Any]] = {k: {} for k in ("values", "words", "palette", "styles", "paints")}
        components: dict[str, dict[str, Any]] = {}
        fields: dict[str, tuple[dict[str, Any], Where]] = {}
        parts: dict[str, Any] = {}
        written: dict[str, tuple[Where, ...]] = {}
        for _path, file, doc, values in self.chain:
            for key in ("description", "name", "identity"):
                if values.get(key) is not None:
                    top[key] = values[key]
            for key in ("page", "scan"):
                merged = {**top.get(key, {}), **{k: v for k, v in (values.get(key) or {}).items() if v is not None}}
                if key == "page" and values.get("page") and values["page"].get("margins"):
                    merged["margins"] = {**(top.get("page") or {}).get("margins", {}),
                                         **{k: v for k, v in values["page"]["margins"].items() if v is not None}}
                top[key] = merged
            written.update(values_written(values.get("values"), file, doc))
            for key, into in maps.items():
                for name, value in (values.get(key) or {}).items():
                    if key == "styles" or key == "paints":
                        into[name] = {**into.get(name, {}), **{k: v for k, v in value.items() if v is not None}}
                    else:
                        into[name] = value
            for name, component in (values.get("components") or {}).items():
                components[name] = _merge_parts(components.get(name, {}), self._tag(component["parts"], file, doc,
                                                                                    ("components", name, "parts")))
            for name, decl in (values.get("fields") or {}).items():
                fields[name] = (decl, Where(file, doc.line(("fields", name)), f"fields.{name}"))
            parts = _merge_parts(parts, self._tag(values.get("parts") or {}, file, doc, ("parts",)))
        file = self.chain[-1][1]
        layout_id = self.ref if not self.ref.lower().endswith((".yaml", ".yml")) else Path(self.ref).stem
        page = top.get("page") or {}
        margins = {k: (v.pt if isinstance(v, Dim) else DEFAULT_MARGIN)
                   for k in _LENGTHS for v in ((page.get("margins") or {}).get(k),)}
        identity = top.get("identity") or {"field": "sheet", "value": layout_id}
        palette = maps["palette"]
        built_parts = tuple(self._part(n, p, palette, 0) for n, p in parts.items())
        built_components = {n: tuple(self._part(pn, p, palette, 1) for pn, p in c.items())
                            for n, c in components.items()}
        self._check_uses(built_parts, built_components)
        for name, style in maps["styles"].items():
            colour = style.get("colour")
            if colour and not str(colour).startswith("#") and colour not in palette:
                self.problems.append(Problem(file, None, f"styles.{name}.colour", f"{colour!r} is not in the palette"))
        decls = tuple(self._field(n, d, w) for n, (d, w) in fields.items())
        for decl in decls:
            for need in decl.needs:
                for name in need.fields:
                    if name not in fields:
                        self.problems.append(Problem(decl.where.file, decl.where.line, f"{decl.where.path}.needs",
                                                     f"names the field {name!r}, which the sheet does not declare"))
        if self.problems:
            raise ContentError(self.problems)
        width = page.get("width")
        return SheetLayout(
            id=layout_id, file=file, name=top.get("name") or "score sheet", papers=tuple(page.get("papers") or PAPER_IDS),
            orientation=page.get("orientation") or "portrait",
            content_width=width.pt if isinstance(width, Dim) else None, margins=margins,
            page_line=page.get("line"),
            identity=(identity["field"], identity["value"],
                      identity.get("tooltip") or "the sheet this is (filled in by donjon)"),
            markers=dict((top.get("scan") or {}).get("markers") or {}), scan=top.get("scan") or {},
            values=maps["values"], words=maps["words"], palette=palette, styles=maps["styles"],
            paints=maps["paints"], components=built_components, fields=decls, parts=built_parts,
            values_where=written)

    def _tag(self, parts: Mapping[str, Any], file: str, doc: Document, path: tuple[Any, ...]) -> dict[str, Any]:
        """Each part with where it was written (kept under `_where`, and its children's too)."""
        out: dict[str, Any] = {}
        for name, part in parts.items():
            tagged = dict(part)
            tagged["_where"] = Where(file, doc.line((*path, name)), ".".join(str(p) for p in (*path, name)))
            if part.get("parts"):
                tagged["parts"] = self._tag(part["parts"], file, doc, (*path, name, "parts"))
            out[name] = tagged
        return out

    def _part(self, name: str, raw: Mapping[str, Any], palette: Mapping[str, str], depth: int) -> Part:
        where: Where = raw["_where"]
        self.count += 1
        if self.count > MAX_PARTS:
            raise _fail(where, f"the layout holds more than {MAX_PARTS} parts")
        if depth > MAX_DEPTH:
            raise _fail(where, f"groups nest more than {MAX_DEPTH} deep")
        kind = raw.get("kind")
        if kind is None:
            self.problems.append(Problem(where.file, where.line, where.path, "missing the key 'kind' (it changes a "
                                                                             "part that nothing before defines)"))
            kind = "group"
        values = {k: v for k, v in raw.items() if k not in ("_where", "parts") and v is not None}
        for variant in VARIANTS:
            if isinstance(values.get(variant), dict):
                values[variant] = {k: v for k, v in values[variant].items() if v is not None}
        every = {**values, **values.get("scan", {})}
        for key in _REQUIRED.get(kind, ()):
            if key not in every:
                self.problems.append(Problem(where.file, where.line, where.path,
                                             f"a {kind} part needs the key {key!r}"))
        for key in ("fill", "stroke", "colour", "icon_colour"):
            colour = every.get(key)
            if isinstance(colour, str) and not colour.startswith("#") and "{{" not in colour and colour != "none" \
                    and colour not in palette:
                self.problems.append(Problem(where.file, where.line, f"{where.path}.{key}",
                                             f"{colour!r} is not in the palette ({', '.join(palette) or 'empty'})"))
        children = tuple(self._part(n, p, palette, depth + 1) for n, p in (raw.get("parts") or {}).items())
        return Part(name, kind, values, children, where)

    def _check_uses(self, parts: tuple[Part, ...], components: Mapping[str, tuple[Part, ...]]) -> None:
        def walk(found: tuple[Part, ...]) -> None:
            for part in found:
                component = part.values.get("component")
                if part.kind in ("use", "repeat") and component not in components:
                    self.problems.append(Problem(part.where.file, part.where.line, part.where.path,
                                                 f"uses the component {component!r}, which the layout does not define "
                                                 f"(components: {', '.join(components) or 'none'})"))
                walk(part.children)
        walk(parts)
        for children in components.values():
            walk(children)

    def _field(self, name: str, raw: Mapping[str, Any], where: Where) -> FieldDecl:
        kind = raw["type"]
        if kind == "choice" and raw.get("values") is None:
            self.problems.append(Problem(where.file, where.line, where.path, "a choice field needs its `values`"))
        if kind == "list" and raw.get("items") is None:
            self.problems.append(Problem(where.file, where.line, where.path, "a list field needs its `items`"))
        raw_needs = raw.get("needs") or ()
        needs = []
        for need in (raw_needs,) if isinstance(raw_needs, Mapping) else raw_needs:
            fields = tuple(need.get("fields") or ()) + ((need["field"],) if need.get("field") else ())
            if not fields:
                self.problems.append(Problem(where.file, where.line, f"{where.path}.needs",
                                             "a need names its `field` (or its `fields`)"))
                continue
            needs.append(Need(fields, need["why"], need.get("at-least"), need.get("from")))
        values = raw.get("values")
        return FieldDecl(name, kind, bool(raw.get("read", True)), raw.get("when"),
                         tuple(values) if isinstance(values, (list, tuple)) else values, raw.get("items"),
                         tuple(needs), where)


def values_written(values: Mapping[str, Any] | None, file: str, doc: Document,
                   path: tuple[Any, ...] = ("values",)) -> dict[str, tuple[Where, ...]]:
    """Where each item of each list of `values` (read from `doc` at `path`) was written, by the list's name."""
    return {name: tuple(Where(file, doc.line((*path, name, index)), ".".join(map(str, (*path, name))) + f"[{index}]")
                        for index in range(len(value)))
            for name, value in (values or {}).items() if isinstance(value, (list, tuple))}


def _merge_parts(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """`over`'s parts on `base`'s, by name: a part's keys replace the inherited ones (its `scan:` and `fillable:`
    keys, and its own parts, merged in turn); a new part comes after the others."""
    out = dict(base)
    for name, part in over.items():
        inherited = out.get(name)
        if inherited is None:
            out[name] = part
            continue
        merged = dict(inherited)
        for key, value in part.items():
            if value is None:
                continue
            if key == "parts":
                merged["parts"] = _merge_parts(inherited.get("parts") or {}, value)
            elif key in VARIANTS and isinstance(inherited.get(key), dict):
                merged[key] = {**inherited[key], **{k: v for k, v in value.items() if v is not None}}
            else:
                merged[key] = value
        out[name] = merged
    return out


#: The keys each kind of part needs (on every variant, or on the scan-ready one for the marks).
_REQUIRED: Mapping[str, tuple[str, ...]] = {
    "text": ("x", "text"),
    "rect": ("x", "y", "width", "height"),
    "circle": ("x", "y", "width", "height"),
    "line": ("x1", "y1", "x2", "y2"),
    "path": ("ops",),
    "icon": ("x", "y", "width", "icon"),
    "outline": ("x", "y", "width", "height", "shape"),
    "group": (),
    "use": ("component",),
    "repeat": ("component", "count", "x", "y", "width", "height"),
    "entry": ("field", "x", "y", "width", "height"),
    "bubble": ("field", "x", "y"),
    "bubbles": ("field", "values", "x", "y"),
    "digits": ("field", "x", "y"),
    "track": ("field", "x", "y", "width", "groups"),
    "items": ("field", "items", "x", "y", "width"),
    "write-in": ("field", "x", "y", "width", "height"),
}


def schemas() -> dict[str, tuple[str, Type[Any]]]:
    """The sheet layout's published schema (see generator.schemas)."""
    return {"sheet-layout": ("A donjon sheet layout (templates/sheets/*.yaml, or a sheet of your own)", LAYOUT)}


__all__ = ["FIELD_TYPES", "FieldDecl", "Part", "SheetLayout", "Where", "load_layout", "schemas"]
