"""A sheet layout drawn for one variant on one paper: the page, its form fields and (scan-ready) its map of marks.

Three variants of one layout: `scan` (the sheet to print: every field a mark to fill, four markers in the
content's corners, and the map of marks beside it), `fillable` (boxes with form fields over them, to fill in a PDF
viewer) and `print` (the fillable sheet's drawing without its form). Parts with `only:` or variant keys
(`scan:`, `fillable:`) differ between them; a field's paper marks are drawn on the scan-ready sheet, its entries
on the others.

What bubble-sheet readers teach, and where it shows here: markers at least twice a bubble's size, each with blank
paper around it, in the corners of the content; bubbles of 4 to 6 mm with a thin outline, evenly spaced, nothing
printed inside them (a value is printed above or beside its bubble); figures to colour in are the marks of a
track. Coordinates are points from the page's top-left corner, y down, rounded to a thousandth of a point (far
below what prints, and the same drawing on every machine).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

from generator.errors import FitError, Problem
from generator.i18n import Language, language
from generator.layout.spec import Dim, parse_dim
from generator.layout.templates import Template, compile_expression, compile_template
from generator.render import fonts
from generator.render.imposition import FOOTER_FACE, PAPER_NAMES, PAPERS, Grid, PrintOptions, page_line
from generator.render.model import (
    Circle,
    Drawing,
    FormField,
    IconUse,
    Line,
    Page,
    Paint,
    Path,
    Placed,
    Primitive,
    Rect,
    TextRun,
    mm,
)
from generator.render.text import NoFit, Style, TextProblem, fit, layout_runs, parse
from generator.sheets.layout import FieldDecl, Part, SheetLayout, Where
from generator.sheets.marks import (
    ARUCO_4X4,
    DICTIONARY,
    Mark,
    MarkMap,
    Marker,
    Shape,
    Value,
    WriteIn,
    marker_id,
)

VARIANTS = ("scan", "fillable", "print")
#: Coordinates are rounded to a thousandth of a point.
PLACES = 3

#: The scan-ready sheet's measures, unless the layout's `scan:` says otherwise.
#: a marker's side: 6 cells of 2 mm (4 x 4 bits and a black border), more than twice a bubble
MARKER = mm(12)
#: blank paper around a marker, a cell and a half: the detector needs a white frame around the black one
QUIET = mm(3)
#: a bubble's diameter: in the 4 to 6 mm that bubble sheets use
BUBBLE = mm(4.6)
#: between two bubbles of one field: a pencil filling one does not stray into the next
BUBBLE_GAP = mm(1.5)
#: the bubbles' outline: thin, so that a filled bubble is all pencil
OUTLINE_WIDTH = 0.6
#: a value printed above its bubble: its baseline this far above the bubble's top
VALUE_RISE = mm(0.8)
#: a value printed beside its bubble, this far right of it
VALUE_GAP = mm(0.8)
#: a label beside a box or a mark
LABEL_GAP = mm(1.5)
#: a line of text is centred on a point when its baseline is this fraction of its size below it (half the height of
#: its capitals)
CENTRE = 0.35
#: an item's icon beside its name, a little larger than the name's letters
ICON_SCALE = 1.1
#: the black of the markers: the darkest the printer has, for the contrast the detector needs
BLACK = "#000000"
WHITE = "#ffffff"
#: the side of the box every icon is drawn in (generator.render.icons)
ICON_UNITS = 100.0
#: The identity field of a fillable sheet: hidden, in the content's top-left corner, the size of a short word.
IDENTITY_BOX = (mm(20), mm(4))
#: A form field's font size for the box it fills: 58 % of a number box's height (digits fill it), 55 % of a text
#: box's, within 7 to 14 pt and 7 to 12 pt; what a field may hold: 4 digits, or a 60-letter name
NUMBER_SIZE, TEXT_SIZE = 0.58, 0.55
NUMBER_SIZES, TEXT_SIZES = (7, 14), (7, 12)
NUMBER_LENGTH, TEXT_LENGTH = 4, 60
#: Two marks overlap when they share more than this across and down (a thousandth of a millimetre: rounding, not
#: a mark drawn over another); a pencil mark in the shared part would read as both.
OVERLAP = mm(0.001)
#: The side of the squares the marks are filed under, so that a new mark is compared with the marks of the squares
#: it touches, not with every mark drawn (a few bubbles wide: a sheet of 8,000 marks took 19 s of CPU to check)
MARK_CELL = mm(10)
#: The kinds of part that only place other parts: what they draw is checked part by part, inside them.
CONTAINERS = frozenset({"group", "use", "repeat"})

#: The track's measures (a resident track): the room one figure takes (at most 6.2 mm: larger looks like another
#: game; at least 3.6 mm: smaller is too fine to colour in), between groups and inside a group's frame at each end,
#: the frame under its 3.2 mm label line and 7.6 mm tall, the labels 0.6 mm in, the figures filling the frame less
#: 0.9 mm above and below and 92 % of their pitch (a sliver apart), one row every 12 mm
TRACK = {"pitch_max": mm(6.2), "pitch_min": mm(3.6), "group_gap": mm(2.2), "group_pad": mm(1.0),
         "frame_top": mm(3.2), "frame_height": mm(7.6), "frame_radius": mm(1.2), "label_base": mm(2.4),
         "label_in": mm(0.6), "figure_in": mm(0.9), "figure_fill": 0.92, "row_height": mm(12), "frame_width": 0.6}
#: The figure a track's residents are drawn as.
FIGURE = "resident-blank"
#: Defaults of text that has no style: body text.
DEFAULT_STYLE: dict[str, Any] = {"font": "open-sans", "size": 7.0, "colour": "#1f1b16", "align": "left", "valign": "top",
                 "leading": 1.2, "wrap": True}


class Box(NamedTuple):
    """A rectangle in points from the page's top-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def rounded(self) -> Box:
        return Box(round(self.x, PLACES), round(self.y, PLACES), round(self.w, PLACES), round(self.h, PLACES))


class Entry(NamedTuple):
    """A field's place on screen: its form field's name and kind, and for a count of tick boxes what a tick
    counts."""

    field: str
    form: str
    kind: str
    box: Box
    unit: int = 0


@dataclass(frozen=True)
class DrawnSheet:
    """One layout drawn for a variant on a paper."""

    layout: SheetLayout
    variant: str
    paper: str
    drawing: Drawing
    page_line: tuple[Primitive, ...]
    #: the form fields over the page (fillable), in the order a player fills them in
    forms: tuple[FormField, ...]
    #: every entry (fillable and print), in that order, the identity field first
    entries: tuple[Entry, ...]
    #: the map of marks (scan-ready)
    map: MarkMap | None
    #: the fields the sheet has
    fields: tuple[FieldDecl, ...]
    label: str = ""
    #: the values each choice field takes, and the items (id, name) of each list field, as the values gave them
    choices: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    items: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    #: each choice field's values (as text) with the word people read for each: an item's name (`summer`,
    #: `Sommer`), a plain value itself
    choice_names: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)

    def page(self) -> Page:
        return Page(self.drawing.width, self.drawing.height, (Placed(self.drawing, 0.0, 0.0),), self.page_line,
                    kind="sheet", number=1, label=self.label, fields=self.forms)

    @property
    def boxes(self) -> dict[str, Box]:
        """The box of each form field, by its name."""
        return {e.form: e.box for e in self.entries}


#: The most problems one drawing of a sheet reports: enough for every mistake of a layout being written, not a
#: screenful of one mistake's echoes (a style misspelt in a component repeated 500 times).
MOST_PROBLEMS = 20
#: What is said after the problems of a drawing stopped at MOST_PROBLEMS ({n}).
STOPPED = "the drawing stopped at {n} problems; there may be more"


class SheetFitError(FitError):
    """A layout that cannot be drawn: every problem found in one drawing (up to MOST_PROBLEMS), each naming its
    file, line and part, and the drawing they were found in (`what`: the sheet, paper and variant)."""

    def __init__(self, problems: Sequence[Problem], what: str = "", stopped: bool = False) -> None:
        self.problems = tuple(problems)
        self.what = what
        #: the drawing stopped at MOST_PROBLEMS: there may be more
        self.stopped = stopped
        lines = [str(p) for p in self.problems]
        if what:
            lines = [f"{line} ({what})" for line in lines]
        if stopped:
            lines.append(STOPPED.format(n=len(self.problems)))
        super().__init__("\n".join(lines) if len(lines) == 1 else "\n".join(
            [f"{len(lines)} problems drawing {what or 'the sheet'}:", *(f"  {line}" for line in lines)]))


def page_size(layout: SheetLayout, paper: str) -> tuple[float, float]:
    width, height = PAPERS[paper]
    return (height, width) if layout.orientation == "landscape" else (width, height)


def draw_sheet(layout: SheetLayout, variant: str, paper: str, given: Mapping[str, Any] | None = None,
               name: str = "", label: str = "", lang: Language | None = None) -> DrawnSheet:
    """Draw `layout` for `variant` (scan, fillable, print) on `paper`, its templates reading `given` (the game's
    values, a sheet's own) over the layout's `values`; `name` is the sheet's file name (the map says it).

    In `lang` (English): templates call `_()` and `ngettext()` (donjon's catalogs), the layout's `words` are
    looked up in the catalogs, and text is set as the language writes it. Only words change: every mark is where
    it is in English, so a photo of a sheet in any language is read with the same map."""
    if paper not in layout.papers:
        raise SheetFitError([Problem(layout.file, None, "", f"the sheet is drawn on {', '.join(layout.papers)}, "
                                                            f"not on {paper}")])
    return _Drawer(layout, variant, paper, given or {}, name, label, lang or language()).draw()


def translated_words(words: Any, lang: Language) -> Any:
    """A layout's `words` (a word, or a mapping or list of them) in `lang`: each looked up in donjon's catalogs,
    kept as it is when they lack it (a sheet of one's own's words)."""
    if isinstance(words, str):
        return lang._(words)
    if isinstance(words, Mapping):
        return {k: translated_words(v, lang) for k, v in words.items()}
    if isinstance(words, (list, tuple)):
        return [translated_words(v, lang) for v in words]
    return words


def form_name(field: str) -> str:
    """A field's form field name when the layout gives none: `walls[1].flags[0]` is `walls_1_flags_0` (a PDF
    viewer splits names at dots)."""
    return re.sub(r"[\[\].]+", "_", field).strip("_")


@cache
def _template(source: str, markup: bool) -> Template:
    return compile_template(source, markup=markup)


@cache
def _expression(source: str) -> Callable[..., Any]:
    return compile_expression(source)


class _Problem(Exception):
    """A part that cannot be drawn: why, in words (the drawer adds where)."""


class _Enough(Exception):
    """MOST_PROBLEMS were found: the drawing stops there, and says so."""


def _dim(values: Mapping[str, Any], key: str) -> Dim:
    found = values.get(key)
    return found if isinstance(found, Dim) else Dim()


class _Drawer:
    def __init__(self, layout: SheetLayout, variant: str, paper: str, given: Mapping[str, Any], name: str,
                 label: str, lang: Language) -> None:
        from generator.layout.templates import translators

        self.layout = layout
        self.lang = lang
        self.variant = variant
        self.paper = paper
        self.name = name
        self.label = label
        self.page_w, self.page_h = page_size(layout, paper)
        margins = layout.margins
        width = layout.content_width or self.page_w - margins["left"] - margins["right"]
        left = (self.page_w - width) / 2 if layout.content_width else margins["left"]
        self.content = Box(left, margins["top"], width, self.page_h - margins["top"] - margins["bottom"])
        scan = layout.scan
        self.bubble_d = _pt(scan.get("bubble"), BUBBLE)
        self.bubble_gap = _pt(scan.get("gap"), BUBBLE_GAP)
        self.marker = _pt(scan.get("marker"), MARKER)
        self.quiet = _pt(scan.get("quiet"), QUIET)
        self.bubble_paint = Paint(fill=WHITE, stroke=self.colour(scan.get("outline") or "#5f574f"),
                                  width=_pt(scan.get("outline_width"), OUTLINE_WIDTH))
        code = layout.markers.get(paper)
        self.code = code
        self.words = layout.words if lang.english else translated_words(layout.words, lang)
        self.base: dict[str, Any] = {**layout.values, **given, **translators(lang), "words": self.words,
                                     "lang": lang.code, "variant": variant,
                                     "paper": paper, "paper_name": PAPER_NAMES[paper], "scan": variant == "scan",
                                     "marker_code": code, "marker_ids": (marker_id(code, 0), marker_id(code, 3))
                                     if code is not None else None, "dictionary": DICTIONARY.removeprefix("DICT_")}
        self.fields = {f.name: f for f in layout.fields if f.when is None or self.truth(f.when, self.base)}
        self.items: list[Primitive] = []
        self.entries: list[Entry] = []
        #: the part each entry was drawn by, as messages name it (file:line: path)
        self.entry_parts: list[str] = []
        self.marks: list[Mark] = []
        #: the part each mark was drawn by, as messages name it (file:line: path)
        self.mark_parts: list[str] = []
        #: the marks (their indexes) touching each square of MARK_CELL
        self.mark_cells: dict[tuple[int, int], list[int]] = {}
        self.write_ins: list[WriteIn] = []
        self.part: Part | None = None
        self.tooltips: dict[str, str] = {}
        #: what cannot be drawn, each where it is: a part that cannot be drawn is left out and the next drawn, so
        #: that one run says every mistake of a layout (as a catalog's check does)
        self.problems: list[Problem] = []

    # --- the page -----------------------------------------------------------------------------------------------

    def draw(self) -> DrawnSheet:
        markers: tuple[Marker, ...] = ()
        stopped = False
        try:
            self.parts(self.layout.parts, self.content, self.base)
            try:
                markers = self.markers() if self.variant == "scan" else ()
            except _Problem as err:
                self.problem(str(err), self.layout.file)
            if not self.problems:  # a part left out leaves its field unmarked: that is no mistake of its own
                self.check_every_field_is_marked()
            try:
                choices, items, names = self.options()
            except _Problem as err:  # an expression of a field's values that fails
                self.problem(str(err), self.layout.file)
        except _Enough:
            stopped = True
        if self.problems:
            raise SheetFitError(self.problems, self.what(), stopped)
        drawing = Drawing(self.page_w, self.page_h, tuple(self.items))
        identity, value, _ = self.layout.identity
        entries = [Entry(identity, identity, "text", Box(self.content.x, self.content.y, *IDENTITY_BOX).rounded())]
        order = {name: index for index, name in enumerate(self.fields)}
        entries += sorted(self.entries, key=lambda e: order.get(e.field, len(order)))
        forms = tuple(self.form(e, value) for e in entries) if self.variant == "fillable" else ()
        the_map = None
        if self.variant == "scan":
            types = {f.name: f.type for f in self.fields.values()}
            needs = {f.name: f.needs for f in self.fields.values() if f.needs}
            the_map = MarkMap(self.name or self.layout.id, value, self.paper, round(self.page_w, 3),
                              round(self.page_h, 3), markers, tuple(self.marks), tuple(self.write_ins), types,
                              needs, self.layout.id)
        line = self.page_line()
        return DrawnSheet(self.layout, self.variant, self.paper, drawing, tuple(line), forms, tuple(entries),
                          the_map, tuple(self.fields.values()), self.label, choices, items, names)

    def options(self) -> tuple[dict[str, tuple[Any, ...]], dict[str, tuple[tuple[str, str], ...]],
                               dict[str, tuple[tuple[str, str], ...]]]:
        """The values of each choice field (and the word of each, as a person reads it) and the items of each list
        field, the expressions evaluated."""
        choices: dict[str, tuple[Any, ...]] = {}
        names: dict[str, tuple[tuple[str, str], ...]] = {}
        items: dict[str, tuple[tuple[str, str], ...]] = {}
        for decl in self.fields.values():
            if decl.type == "choice" and decl.values is not None:
                found = self.evaluate(decl.values, self.base) if isinstance(decl.values, str) else decl.values
                if not isinstance(found, (list, tuple)):
                    self.problem(f"the values of the field {decl.name} give {found!r}, not a list")
                    continue
                # an item's id is the value (the end state's, the map's), its name what people read
                named = [_named(v) for v in found]
                choices[decl.name] = tuple(n[0] if n else v for n, v in zip(named, found, strict=True))
                # (a mapping or a list without an id is no value: said so, not printed as an id to fold)
                self.check_ids(decl, "value", [(n[0], False) if n else (None if isinstance(v, (Mapping, list, tuple))
                                                                        else v, True)
                                               for n, v in zip(named, found, strict=True)],
                               decl.values if isinstance(decl.values, str) else None)
                names[decl.name] = tuple(n or (str(v), str(v)) for n, v in zip(named, found, strict=True))
            if decl.type == "list" and decl.items is not None:
                found = self.evaluate(decl.items, self.base)
                if not isinstance(found, (list, tuple)):
                    self.problem(f"the items of the field {decl.name} give {found!r}, not a list")
                    continue
                items[decl.name] = tuple((str(_get(i, "id")), str(_get(i, "name", _get(i, "label", _get(i, "id")))))
                                         for i in found)
                self.check_ids(decl, "item", [(_get(x, "id"), _get(x, "name", _get(x, "label")) is None)
                                              for x in found], decl.items)
        return choices, items, names

    def check_ids(self, decl: FieldDecl, what: str, ids: Sequence[tuple[Any, bool]], source: str | None = None
                  ) -> None:
        """Each id a field's values (or items) give (with whether it is printed itself, having no name) is one a
        typed value can match: an end state, a fillable sheet, `--set` and the table fold what is typed
        (`generator.fields.normalise_name`: lower case, `-` for `_` and spaces, no accents) before comparing it, so
        an id that folds to another word (`Fishers`, `late_summer`) would never match, even typed as written. A
        problem where the id is written, naming the id to write instead (and, for one printed itself, how to keep
        its word): the item's line of the list of `values` the field names (`source`, in the layout or the
        sheet.yaml that writes it, as `values_where` says), else the field's line (values written in the field)."""
        from generator.fields import normalise_name

        written = self.layout.values_where.get(source or "", ())
        for index, (value, printed) in enumerate(ids):
            if isinstance(value, (bool, int)):
                continue  # a number (or yes and no) is matched as a number
            if value is None:
                # an item without an id (the track's groups named where the goods were meant) said "its item id
                # 'None' cannot be matched as typed; write 'none'"
                at = written[index] if len(written) == len(ids) else decl
                self.problem(f"its {what} has no id{'' if at is decl else f' (the field {decl.name})'}: each "
                             "value is an id, or an item with an id and a name", at)
                continue
            folded = normalise_name(str(value))
            if folded != value:
                # items are written in a list of the layout's (or sheet.yaml's) `values:`, which the field names:
                # a field's own list of values holds plain values only
                keep = (f" (to print {str(value)!r} still, list the values as items in the layout's `values:` "
                        f"and name that list in the field (`values: NAME`), this one {{id: {folded}, name: {value}}})"
                        if printed else "")
                at = written[index] if len(written) == len(ids) else decl
                field = f" of the field {decl.name}" if at is not decl else ""
                self.problem(f"its {what} id {str(value)!r}{field} cannot be matched as typed: ids are compared in "
                             f"lower case, with '-' for spaces and '_', without accents; write {folded!r}{keep}", at)

    def what(self) -> str:
        """The drawing, as its problems name it: the sheet, its paper and variant."""
        return f"the sheet {self.name or self.layout.id} ({PAPER_NAMES[self.paper]}, {self.variant})"

    def problem(self, message: str, at: Part | FieldDecl | Where | str | None = None) -> None:
        """A problem of the drawing, where it is (`at`: a part or field, a value's place, a file; by default the
        part being drawn): noted, and the drawing goes on, up to MOST_PROBLEMS (then :class:`_Enough`)."""
        found = self.part if at is None else at
        if found is None or isinstance(found, str):
            problem = Problem(found or self.layout.file, None, "", message)
        elif isinstance(found, Where):
            problem = Problem(found.file, found.line, found.path, message)
        else:
            problem = Problem(found.where.file, found.where.line, found.where.path, message)
        if problem in self.problems:  # a component's part, repeated: said once
            return
        self.problems.append(problem)
        if len(self.problems) >= MOST_PROBLEMS:
            raise _Enough

    def check_every_field_is_marked(self) -> None:
        """A field the reader reads needs a mark on the scan-ready sheet and a box on the fillable one: without,
        a photo or a filled PDF always reads it as nothing marked (a storm never struck), and nothing says so.
        A name (`text`) is never read from paper; a field the reader leaves (`read: false`) needs nothing."""
        if self.variant == "print":
            return
        if self.variant == "scan":
            held = {m.field for m in self.marks} | {w.field for w in self.write_ins}
            lacking = "the scan-ready sheet has no mark for it (a bubble, bubbles, digits, a track or items)"
        else:
            held = {e.field for e in self.entries}
            lacking = "the fillable sheet has no box for it (an entry)"
        for decl in self.fields.values():
            if decl.read and decl.name not in held and not (self.variant == "scan" and decl.type == "text"):
                self.problem(f"{lacking}, so it would always read as nothing marked; mark it, or say `read: false`",
                             decl)

    def check_on_the_page(self, part: Part, start: int) -> None:
        """What `part` drew (the items from `start` on) lies on the page: a part below or beside it is not
        printed, and nothing said so (a sheet too long for its paper)."""
        for item in self.items[start:]:
            box = _bounds(item)
            if box is None:
                continue
            left, top, right, bottom = box
            if left < -OVERLAP or top < -OVERLAP or right > self.page_w + OVERLAP or bottom > self.page_h + OVERLAP:
                raise _Problem(f"it reaches from {left / mm(1):.1f}, {top / mm(1):.1f} mm to {right / mm(1):.1f}, "
                               f"{bottom / mm(1):.1f} mm (from the page's top left corner), off the "
                               f"{PAPER_NAMES[self.paper]} page ({self.page_w / mm(1):.1f} x "
                               f"{self.page_h / mm(1):.1f} mm)")

    def page_line(self) -> list[Primitive]:
        if not self.layout.page_line:
            return []
        text = self.render(self.layout.page_line, self.base, markup=True)
        c = self.content
        grid = Grid(self.page_w, self.page_h, c.w, c.h, 0.0, 0.0, 1, 1, c.x, c.y, "bottom")
        options = PrintOptions(paper=self.paper, orientation=self.layout.orientation, crop_length=0.0)
        return page_line(grid, fonts.typeset(self.lang, FOOTER_FACE, text), options, self.lang)

    def form(self, entry: Entry, identity: str) -> FormField:
        box = entry.box
        if entry.field == self.layout.identity[0] and entry.form == entry.field:
            tooltip = self.render(self.layout.identity[2], self.base, markup=True) if self.layout.identity[2] else ""
            return FormField(entry.form, "text", *box, tooltip=tooltip, value=identity,
                             read_only=True, hidden=True)
        tooltip = self.tooltips.get(entry.form, "")
        if entry.kind == "checkbox":
            return FormField(entry.form, "checkbox", *box, tooltip=tooltip)
        number = self.fields[entry.field].type in ("count", "number")
        share, (least, most) = (NUMBER_SIZE, NUMBER_SIZES) if number else (TEXT_SIZE, TEXT_SIZES)
        size = max(least, min(most, int(box.h * share)))
        return FormField(entry.form, "text", *box, tooltip=tooltip, size=size, align="center" if number else "left",
                         max_length=NUMBER_LENGTH if number else TEXT_LENGTH)

    # --- templates and values ---------------------------------------------------------------------------------------

    def render(self, source: str, context: Mapping[str, Any], markup: bool = False) -> str:
        from generator.layout.templates import TemplateBudget, TemplateFailure, Undefined

        try:
            return _template(source, markup).render(context)
        except (Undefined, TemplateFailure, TemplateBudget, ValueError, TypeError) as err:
            raise _Problem(f"the template {source[:60]!r}: {err}") from None

    def evaluate(self, source: str, context: Mapping[str, Any]) -> Any:
        from generator.layout.templates import TemplateBudget, TemplateFailure, Undefined

        try:
            return _expression(source)(context)
        except (Undefined, TemplateFailure, TemplateBudget, ValueError, TypeError) as err:
            # an expression is written bare (`guests | length`); written as a template, jinja's own words say
            # only "expected token ':', got '}'"
            braced = source.strip().startswith("{{") and source.strip().endswith("}}")
            hint = f"; an expression is written without {{{{ }}}}: {source.strip()[2:-2].strip()[:60]!r}" if braced \
                else ""
            raise _Problem(f"the expression {source[:60]!r}: {err}{hint}") from None

    def truth(self, source: str, context: Mapping[str, Any]) -> bool:
        return bool(self.evaluate(source, context))

    def colour(self, value: Any, context: Mapping[str, Any] | None = None) -> str:
        text = str(value)
        if "{{" in text and context is not None:
            text = self.render(text, context, markup=True).strip()
        if text.startswith("#"):
            return text.lower()
        found = self.layout.palette.get(text)
        if found is None:
            raise _Problem(f"{text!r} is not a colour of the palette")
        return found

    def paint(self, p: Mapping[str, Any], context: Mapping[str, Any]) -> tuple[Paint, float]:
        """The part's paint (its `paint:` with its own keys over it) and its corners' radius."""
        named: Mapping[str, Any] = {}
        if p.get("paint"):
            if p["paint"] not in self.layout.paints:
                raise _Problem(f"{p['paint']!r} is not one of the layout's paints ({', '.join(self.layout.paints)})")
            named = self.layout.paints[p["paint"]]
        keys = {**named, **{k: p[k] for k in ("fill", "stroke", "stroke_width", "dash", "radius") if k in p}}
        fill = keys.get("fill")
        stroke = keys.get("stroke")
        dash = tuple(float(v) for v in re.findall(r"\d+(?:\.\d+)?", keys["dash"])) if keys.get("dash") else ()
        paint = Paint(fill=None if fill in (None, "none") else self.colour(fill, context),
                      stroke=None if stroke in (None, "none") else self.colour(stroke, context),
                      width=_pt(keys.get("stroke_width"), 0.0), dash=dash)
        return paint, _pt(keys.get("radius"), 0.0)

    def style(self, p: Mapping[str, Any], key: str = "style") -> Style:
        name = p.get(key)
        named: Mapping[str, Any] = {}
        if name:
            if name not in self.layout.styles:
                raise _Problem(f"{name!r} is not one of the layout's styles ({', '.join(self.layout.styles)})")
            named = self.layout.styles[name]
        own = {k: p[k] for k in DEFAULT_STYLE if k in p and key == "style"}
        s = {**DEFAULT_STYLE, **named, **own}
        if "min_size" in own or "min_size" in named:
            least = float(own["min_size"] if "min_size" in own else named["min_size"])
        else:
            least = float(s["size"])
        font = str(s["font"])
        if font not in fonts.FACES:
            raise _Problem(f"{font!r} is not a font donjon has ({', '.join(fonts.BUILT_IN_IDS)})")
        return Style(font, float(s["size"]), least, self.colour(s["colour"]), str(s["align"]), str(s["valign"]),
                     float(s["leading"]), bool(s["wrap"]))

    # --- parts --------------------------------------------------------------------------------------------------

    def parts(self, parts: Sequence[Part], box: Box, context: Mapping[str, Any]) -> None:
        """Draw each of `parts` in `box`; a part that cannot be drawn is a problem (:meth:`problem`), the next
        part drawn all the same (a container's parts each on their own)."""
        for part in parts:
            self.part = part
            try:
                p = part.on(self.variant)
                only = p.get("only")
                if only is not None and only != ("scan" if self.variant == "scan" else "fillable"):
                    continue
                if p.get("when") and not self.truth(p["when"], context):
                    continue
                start = len(self.items)
                getattr(self, "kind_" + part.kind.replace("-", "_"))(part, p, box, context)
                if part.kind not in CONTAINERS:
                    self.part = part
                    self.check_on_the_page(part, start)
            except (_Problem, TextProblem) as err:
                self.problem(str(err))

    def box(self, p: Mapping[str, Any], parent: Box) -> Box:
        return Box(parent.x + _dim(p, "x").resolve(parent.w), parent.y + _dim(p, "y").resolve(parent.h),
                   _dim(p, "width").resolve(parent.w), _dim(p, "height").resolve(parent.h))

    def field(self, p: Mapping[str, Any], context: Mapping[str, Any]) -> FieldDecl:
        name = self.render(str(p["field"]), context, markup=True).strip()
        found = self.fields.get(name)
        if found is None:
            raise _Problem(f"marks the field {name!r}, which the layout does not declare under `fields:`")
        return found

    def kind_text(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        style = self.style(p)
        if "baseline" in p:
            text = self.render(str(p["text"]), context, markup=True)
            x = parent.x + _dim(p, "x").resolve(parent.w)
            self.line_of_text(x, parent.y + _dim(p, "baseline").resolve(parent.h), text, style)
            return
        text = self.render(str(p["text"]), context, markup=bool(p.get("markup")))
        self.block(text, self.box(p, parent), style)

    def line_of_text(self, x: float, baseline: float, text: str, style: Style) -> float:
        """One line of text (no markup) at `baseline`, aligned on x; returns its width."""
        face, size = style.face, style.size
        text = fonts.typeset(self.lang, face, text)
        lacking = fonts.missing(face, text)
        if lacking:
            raise TextProblem(f"the font {fonts.FACES[face].family} has no glyph for {lacking!r} (in {text!r})")
        width = fonts.width(face, text) * size
        start = x - width / 2 if style.align == "center" else x - width if style.align == "right" else x
        self.items.append(TextRun(round(start, PLACES), round(baseline, PLACES), text, face, size, style.colour,
                                  round(width, PLACES)))
        return width

    def block(self, markup: str, box: Box, style: Style) -> None:
        markup = fonts.typeset(self.lang, style.face, markup)
        try:
            fitted = fit(parse(markup, style.face), box.w, box.h, style)
        except NoFit as err:
            raise TextProblem(f"the text {markup[:50]!r} does not fit its box: {err}") from None
        self.items.extend(layout_runs(fitted, box.x, box.y, box.w, box.h, style))

    def kind_rect(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        paint, radius = self.paint(p, context)
        self.rect(self.box(p, parent), paint, radius)

    def rect(self, box: Box, paint: Paint, radius: float = 0.0) -> None:
        b = box.rounded()
        self.items.append(Rect(b.x, b.y, b.w, b.h, paint, round(radius, PLACES)))

    def kind_circle(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        paint, _ = self.paint(p, context)
        b = self.box(p, parent)
        r = min(b.w, b.h) / 2
        self.items.append(Circle(round(b.x + b.w / 2, PLACES), round(b.y + b.h / 2, PLACES), round(r, PLACES), paint))

    def kind_line(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        paint, _ = self.paint(p, context)
        if paint.stroke is None:
            raise _Problem("a line needs a stroke colour")
        self.items.append(Line(round(parent.x + _dim(p, "x1").resolve(parent.w), PLACES),
                               round(parent.y + _dim(p, "y1").resolve(parent.h), PLACES),
                               round(parent.x + _dim(p, "x2").resolve(parent.w), PLACES),
                               round(parent.y + _dim(p, "y2").resolve(parent.h), PLACES),
                               paint.stroke, paint.width, paint.dash))

    def kind_path(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        paint, _ = self.paint(p, context)
        b = self.box(p, parent) if "x" in p or "width" in p else parent
        ops: list[tuple[str | float, ...]] = []
        for op in _ops(p["ops"]):
            values = [b.x + v.resolve(b.w) if i % 2 == 0 else b.y + v.resolve(b.h) for i, v in enumerate(op[1:])]
            ops.append((op[0], *(round(v, PLACES) for v in values)))
        self.items.append(Path(tuple(ops), paint))

    def kind_outline(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        """An icon's outline (a cloud) stretched to the box and stroked: a shape a player draws over."""
        from generator.render.icons import icons

        paint, _ = self.paint(p, context)
        shape = str(p["shape"])
        if shape not in icons():
            raise _Problem(f"{shape!r} is not an icon")
        b = self.box(p, parent)
        sx, sy = b.w / ICON_UNITS, b.h / ICON_UNITS
        ops: list[tuple[str | float, ...]] = []
        for layer in icons()[shape]:
            for op in layer:
                values = [float(v) for v in op[1:]]
                ops.append((str(op[0]), *(round(b.x + v * sx if i % 2 == 0 else b.y + v * sy, PLACES)
                                          for i, v in enumerate(values))))
        self.items.append(Path(tuple(ops), paint))

    def kind_icon(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        from generator.render.icons import icons

        b = self.box(p, parent)
        name = self.render(str(p["icon"]), context, markup=True).strip()
        if name not in icons():
            raise _Problem(f"{name!r} is not an icon donjon has")
        colour = self.colour(p.get("colour") or DEFAULT_STYLE["colour"], context)
        self.items.append(IconUse(name, round(b.x, PLACES), round(b.y, PLACES), round(b.w, PLACES), colour))

    def kind_group(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        box = self.box(p, parent) if "width" in p or "height" in p else Box(
            parent.x + _dim(p, "x").resolve(parent.w), parent.y + _dim(p, "y").resolve(parent.h), parent.w, parent.h)
        self.parts(part.children, box, context)
        self.part = part

    def with_vars(self, p: Mapping[str, Any], context: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
        out = {**context, **extra}
        for key, value in (p.get("vars") or {}).items():
            out[key] = self.render(value, out, markup=True) if isinstance(value, str) and "{" in value else value
        return out

    def kind_use(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        self.parts(self.layout.components[p["component"]], self.box(p, parent), self.with_vars(p, context, {}))
        self.part = part

    def kind_repeat(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        count = p["count"]
        if isinstance(count, str):
            count = self.evaluate(count, context)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 500:
            raise _Problem(f"repeats {count!r} times; a count is a whole number from 0 to 500")
        columns = int(p.get("columns") or max(count, 1))
        rows = max(1, -(-count // columns))
        first = self.box(p, parent)
        gap_x, gap_y = _pt(p.get("gap_x"), 0.0), _pt(p.get("gap_y"), 0.0)
        for index in range(count):
            if p.get("order") == "columns":
                column, row = divmod(index, rows)
            else:
                row, column = divmod(index, columns)
            cell = Box(first.x + column * (first.w + gap_x), first.y + row * (first.h + gap_y), first.w, first.h)
            self.parts(self.layout.components[p["component"]], cell,
                       self.with_vars(p, context, {"i": index, "n": index + 1, "row": row, "column": column}))
            self.part = part

    # --- fields on screen ---------------------------------------------------------------------------------------

    def kind_entry(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        decl = self.field(p, context)
        if self.variant == "scan" and decl.read:
            return  # on paper the field has marks of its own
        box = self.box(p, parent)
        paint, radius = self.paint(p, context)
        self.rect(box, paint, radius)
        if self.variant == "scan":
            return  # a field the reader leaves (a total) is a box written by hand on paper too
        form = self.render(str(p["form"]), context, markup=True).strip() if p.get("form") else form_name(decl.name)
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,63}", form):
            raise _Problem(f"{form!r} is not a form field name (letters, digits, _ and -, no dots)")
        unit = int(p.get("unit") or 0)
        kind = "checkbox" if decl.type == "yes-no" or unit else "text"
        if unit and decl.type != "count":
            raise _Problem(f"a tick box counting {unit} belongs to a count, and {decl.name} is a {decl.type}")
        if any(e.form == form for e in self.entries):
            raise _Problem(f"the form field {form!r} is drawn twice")
        placed = box.rounded()
        # two form fields over one place: a click or a tap there fills one of them, which the player cannot tell
        for other, where in zip(self.entries, self.entry_parts, strict=True):
            if _overlap(placed, other.box):
                raise _Problem(f"its box {form!r} overlaps the box {other.form!r} ({where}): a click there would "
                               f"fill one or the other")
        self.entries.append(Entry(decl.name, form, kind, placed, unit))
        self.entry_parts.append(_at(self.part) if self.part else self.layout.file)
        if p.get("tooltip"):
            self.tooltips[form] = self.lang.typeset(self.render(str(p["tooltip"]), context, markup=True), "\u00a0")

    # --- fields on paper ----------------------------------------------------------------------------------------

    def mark(self, decl: FieldDecl, value: Value, shape: Shape, box: Box, digit: str | None = None) -> Box:
        """A mark of the map: where a photo reads `field` = `value`. It must lie in the content, out of the
        markers' corners (the reader finds the page by them), and clear of every other mark (a pencil mark on
        two would read as both)."""
        b = box.rounded()
        said = f"{decl.name}{'.' + digit if digit else ''} = {value}"
        c, corner = self.content, self.marker + self.quiet
        if b.x < c.x - OVERLAP or b.y < c.y - OVERLAP or b.right > c.right + OVERLAP or b.bottom > c.bottom + OVERLAP:
            raise _Problem(f"its mark {said} is outside the sheet's content, where the markers frame what a photo "
                           f"reads")
        for cx, cy in ((c.x, c.y), (c.right - corner, c.y), (c.right - corner, c.bottom - corner),
                       (c.x, c.bottom - corner)):
            if _overlap(b, Box(cx, cy, corner, corner)):
                raise _Problem(f"its mark {said} is in the corner kept for a marker ({corner / mm(1):.0f} mm "
                               f"square, blank paper included)")
        cells = [(i, j) for i in range(int(b.x // MARK_CELL), int(b.right // MARK_CELL) + 1)
                 for j in range(int(b.y // MARK_CELL), int(b.bottom // MARK_CELL) + 1)]
        # the first mark drawn that it overlaps, as a comparison with every mark in drawing order would name it
        for index in sorted({k for cell in cells for k in self.mark_cells.get(cell, ())}):
            other = self.marks[index]
            if _overlap(b, Box(other.x, other.y, other.width, other.height)):
                theirs = f"{other.field}{'.' + other.digit if other.digit else ''} = {other.value}"
                raise _Problem(f"its mark {said} overlaps the mark {theirs} ({self.mark_parts[index]})")
        for cell in cells:
            self.mark_cells.setdefault(cell, []).append(len(self.marks))
        self.marks.append(Mark(decl.name, value, shape, b.x, b.y, b.w, b.h, digit))
        self.mark_parts.append(_at(self.part) if self.part else self.layout.file)
        return box

    def bubble(self, decl: FieldDecl, value: Value, x: float, y: float, digit: str | None = None) -> Box:
        """A bubble to fill, its top-left corner at (x, y), meaning `field` = `value`."""
        d = self.bubble_d
        r = d / 2
        self.items.append(Circle(round(x + r, PLACES), round(y + r, PLACES), round(r, PLACES), self.bubble_paint))
        return self.mark(decl, value, "circle", Box(x, y, d, d), digit)

    def kind_bubble(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        if self.variant != "scan":
            return
        decl = self.field(p, context)
        value = p.get("value", True)
        if isinstance(value, str) and "{" in value:
            value = self.render(value, context, markup=True).strip()
            value = int(value) if value.isdecimal() else value
        b = self.box(p, parent)
        self.bubble(decl, value, b.x, b.y)

    def values_of(self, p: Mapping[str, Any], context: Mapping[str, Any]) -> list[tuple[Value, str]]:
        """The values a part's `values` give, each with the word printed for it: a number or a word as it is, an
        item (`{id: summer, name: Sommer}`, a sheet's values in its language) by its name, the mark meaning its id
        in every language."""
        given = p["values"]
        found = self.evaluate(given, context) if isinstance(given, str) else given
        if not isinstance(found, (list, tuple)) or not found or len(found) > 100 or not all(
                isinstance(v, (int, str, bool)) or _named(v) is not None for v in found):
            raise _Problem(f"its values {given!r} give {found!r}: a list of 1 to 100 numbers or words, or of items "
                           "with an id and a name")
        return [_named(v) or (v, str(v)) for v in found]

    def kind_bubbles(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        if self.variant != "scan":
            return
        decl = self.field(p, context)
        named = self.values_of(p, context)
        values, words = [v for v, _ in named], [w for _, w in named]
        twice = next((w for i, (v, w) in enumerate(named) if v in values[:i]), None)
        if twice is not None:
            # one row printing a value twice is surely a slip (another value left without its bubble, often):
            # bubbles of one value at two places are for separate parts, each drawn where the designer means it
            raise _Problem(f"its values give {twice!r} twice; each bubble of a row means a value of its own")
        d, gap = self.bubble_d, self.bubble_gap
        length = len(values) * d + (len(values) - 1) * gap
        if p.get("room") is not None and length > _pt(p["room"], 0.0) + 1e-6:
            raise _Problem(f"its {len(values)} bubbles take {length / mm(1):.1f} mm; it has room for "
                           f"{_pt(p['room'], 0.0) / mm(1):.1f} mm")
        x = parent.x + _dim(p, "x").resolve(parent.w)
        y = parent.y + _dim(p, "y").resolve(parent.h)
        column = p.get("direction") == "column"
        if p.get("anchor") == "center":
            if column:
                y -= length / 2
            else:
                x -= length / 2
        labels = p.get("labels", "above")
        style = self.style(p, "label_style")
        face = style.face
        widths = [fonts.width(face, fonts.typeset(self.lang, face, w)) * style.size for w in words]
        for index in range(len(values) - 1):
            label, following = words[index], words[index + 1]
            if labels == "above" and not column and (widths[index] + widths[index + 1]) / 2 > d + gap:
                # labels centred above a row: two neighbours overlap when their halves take more than the room from
                # one bubble's centre to the next
                raise _Problem(f"its labels {label!r} and {following!r} overlap: the bubbles are "
                               f"{(d + gap) / mm(1):.1f} mm apart (put the labels beside, or the bubbles in a column)")
            if labels == "beside" and not column and widths[index] > 0 and VALUE_GAP + widths[index] > gap:
                # a label beside its bubble, in a row, lies where the next bubble is
                raise _Problem(f"its label {label!r} runs into the next bubble: {gap / mm(1):.1f} mm lie between "
                               f"them (put the labels above, or the bubbles in a column)")
            if labels == "above" and column and widths[index + 1] > 0 and VALUE_RISE + 2 * CENTRE * style.size > gap:
                # a label above its bubble, in a column, has its capitals over the bubble above
                raise _Problem(f"its label {following!r} runs into the bubble above it: {gap / mm(1):.1f} mm lie "
                               f"between them (put the labels beside, or the bubbles in a row)")
        for index, value in enumerate(values):
            bx, by = (x, y + index * (d + gap)) if column else (x + index * (d + gap), y)
            if labels == "above":
                self.line_of_text(bx + d / 2, by - VALUE_RISE, words[index], style._replace(align="center"))
                self.bubble(decl, value, bx, by)
            else:
                box = self.bubble(decl, value, bx, by)
                if labels == "beside":
                    self.line_of_text(box.right + VALUE_GAP, box.y + d / 2 + style.size * CENTRE, words[index],
                                      style._replace(align="left"))

    def kind_digits(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        """A number as digits, one bubble per digit 0 to 9 of each place (`digits: 2`: tens and units), so that any
        number is written with a pencil, none guessed from a list of values.

        With `present`, a bubble first meaning "has a value" (a tower built, with or without a number): its value
        in the map is `present`, its printed word `present_label`. With `labels: above`, a table: a row per place,
        its word (`words.digits`) at the left in `label_width`, the digits printed above the first row. With
        `labels: beside` (the default), a grid of ten per place, `columns` across (filled row by row, or column by
        column with `order: columns`), each digit printed at the left of its bubble, places side by side."""
        if self.variant != "scan":
            return
        decl = self.field(p, context)
        places = ("tens", "units")[2 - int(p.get("digits") or 1):]
        d, gap = self.bubble_d, self.bubble_gap
        style = self.style(p, "label_style")
        words = self.words.get("digits") or {}
        x = parent.x + _dim(p, "x").resolve(parent.w)
        y = parent.y + _dim(p, "y").resolve(parent.h)
        centre = d / 2 + style.size * CENTRE
        # a digit printed at the left of its bubble takes its width and a small gap
        digit_w = fonts.width(style.face, "0") * style.size + VALUE_GAP
        if p.get("present") is not None:
            box = self.bubble(decl, p["present"], x + digit_w, y)
            word = self.render(str(p.get("present_label") or p["present"]), context, markup=True)
            self.line_of_text(box.right + VALUE_GAP, box.y + centre, word, style._replace(align="left"))
            y += d + gap
        if p.get("labels") == "above":
            left = x + _pt(p.get("label_width"), 0.0)
            for digit in range(10):
                self.line_of_text(left + digit * (d + gap) + d / 2, y + style.size, str(digit),
                                  style._replace(align="center"))
            top = y + style.size + VALUE_RISE
            for row, place in enumerate(places):
                by = top + row * (d + gap)
                word = self.render(str(words.get(place, place)), context, markup=True)
                if self.line_of_text(x, by + centre, word, style._replace(align="left")) > left - x:
                    raise _Problem(f"the word {word!r} is wider than its label_width")
                for digit in range(10):
                    self.bubble(decl, digit, left + digit * (d + gap), by, place)
            return
        columns = int(p.get("columns") or 5)
        rows = -(-10 // columns)
        cell = digit_w + d + gap
        place_w = columns * cell - gap
        top = y
        if len(places) > 1:
            top += style.size + VALUE_RISE
        for index, place in enumerate(places):
            px = x + index * (place_w + 2 * gap)
            if len(places) > 1:
                self.line_of_text(px + digit_w, y + style.size, self.render(str(words.get(place, place)), context,
                                                                            markup=True), style._replace(align="left"))
            for digit in range(10):
                column, row = divmod(digit, rows) if p.get("order") == "columns" else divmod(digit, columns)[::-1]
                bx = px + column * cell + digit_w
                by = top + row * (d + gap)
                self.line_of_text(bx - VALUE_GAP, by + centre, str(digit), style._replace(align="right"))
                self.bubble(decl, digit, bx, by, place)

    def kind_track(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        """Figures to colour in, one per unit of a count, in groups framed with their points: on as few rows as
        fit the part's width, each group whole on one row."""
        decl = self.field(p, context)
        groups = self.evaluate(p["groups"], context)
        if not isinstance(groups, (list, tuple)) or not groups:
            raise _Problem(f"its groups {p['groups']!r} give no groups")
        m = {**TRACK, **{k: _pt(p[k], 0.0) for k in ("row_height",) if k in p}}
        width = _dim(p, "width").resolve(parent.w)
        left = parent.x + _dim(p, "x").resolve(parent.w)
        sizes = []
        for place, group in enumerate(groups, start=1):
            # each group a span of figures, from its first to its last: a list of something else (the goods, where
            # the villagers' groups were meant) was an internal error
            ends = [_whole(_get(group, key)) for key in ("first", "last")]
            if ends[0] is None or ends[1] is None:
                wrong = "first" if ends[0] is None else "last"
                raise _Problem(f"its groups {p['groups']!r}: group {place} has no whole number as {wrong} (a track's "
                               "groups each give first, last and points)")
            if ends[1] < ends[0]:
                raise _Problem(f"its groups {p['groups']!r}: group {place} runs from {ends[0]} to {ends[1]}")
            sizes.append(ends[1] - ends[0] + 1)
        if sum(sizes) > 500:
            raise _Problem(f"its {sum(sizes)} figures are more than a track holds (500)")

        def row_width(indexes: list[int], pitch: float) -> float:
            return sum(sizes[i] * pitch + 2 * m["group_pad"] for i in indexes) + m["group_gap"] * (len(indexes) - 1)

        rows: list[list[int]] = [[]]
        for index in range(len(groups)):
            if rows[-1] and row_width([*rows[-1], index], m["pitch_min"]) > width:
                rows.append([])
            rows[-1].append(index)
            if row_width(rows[-1], m["pitch_min"]) > width:
                raise _Problem(f"its group of {sizes[index]} is too long for a row")
        most_rows = int(p.get("rows") or 1)
        if len(rows) > most_rows:
            raise _Problem(f"its {sum(sizes)} figures need {len(rows)} rows; it has room for {most_rows}")
        longest = max(sum(sizes[i] for i in row) for row in rows)
        most = max(len(row) for row in rows)
        room = width - m["group_gap"] * (most - 1) - 2 * m["group_pad"] * most
        pitch = min(m["pitch_max"], room / longest)
        label_style, span_style = self.style(p, "label_style"), self.style(p, "span_style")
        frame_paint, radius = self.paint(p, context)
        radius = radius or m["frame_radius"]
        figure_colour = self.colour(p.get("colour") or DEFAULT_STYLE["colour"], context)
        top = parent.y + _dim(p, "y").resolve(parent.h)
        for row in rows:
            x = left
            for index in row:
                group = groups[index]
                here = {**context, "group": group}
                w = sizes[index] * pitch + 2 * m["group_pad"]
                frame = Box(x, top + m["frame_top"], w, m["frame_height"])
                self.rect(frame, frame_paint, radius)
                self.line_of_text(x + m["label_in"], top + m["label_base"],
                                  self.render(str(p.get("label", "")), here, markup=True), label_style)
                self.line_of_text(frame.right - m["label_in"], top + m["label_base"],
                                  self.render(str(p.get("span", "")), here, markup=True),
                                  span_style._replace(align="right"))
                for k in range(sizes[index]):
                    cell = Box(x + m["group_pad"] + k * pitch, frame.y + m["figure_in"], pitch,
                               frame.h - 2 * m["figure_in"])
                    side = min(cell.w * m["figure_fill"], cell.h)
                    fx, fy = cell.x + (cell.w - side) / 2, cell.y + (cell.h - side) / 2
                    self.items.append(IconUse(FIGURE, round(fx, PLACES), round(fy, PLACES), round(side, PLACES),
                                              figure_colour))
                    if self.variant == "scan":
                        self.mark(decl, int(_get(group, "first")) + k, "figure", Box(fx, fy, side, side))
                x += w + m["group_gap"]
            top += m["row_height"]

    def kind_items(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        """A bubble per item of a list, in a grid `columns` across (filled column by column: the items' order
        reads down), each with its icon and its name."""
        if self.variant != "scan":
            return
        decl = self.field(p, context)
        items = self.evaluate(p["items"], context)
        if not isinstance(items, (list, tuple)):
            raise _Problem(f"its items {p['items']!r} give no list")
        columns = int(p.get("columns") or 1)
        rows = max(1, -(-len(items) // columns))
        box = self.box(p, parent)
        col_w = box.w / columns
        pitch = _pt(p.get("row_height"), self.bubble_d + self.bubble_gap)
        d = self.bubble_d
        style = self.style(p, "label_style")
        for index, item in enumerate(items):
            here = {**context, "item": item}
            if p.get("order", "columns") == "columns":
                column, row = divmod(index, rows)
            else:
                row, column = divmod(index, columns)
            x = box.x + column * col_w
            by = box.y + row * pitch
            mark = self.bubble(decl, str(_get(item, "id")), x, by)
            name_x = mark.right + LABEL_GAP
            if p.get("icon"):
                icon = style.size * ICON_SCALE
                colour = self.colour(p.get("icon_colour") or style.colour, here)
                self.items.append(IconUse(self.render(str(p["icon"]), here, markup=True).strip(),
                                          round(mark.right + LABEL_GAP, PLACES), round(by + (d - icon) / 2, PLACES),
                                          round(icon, PLACES), colour))
                name_x += icon + VALUE_GAP
            self.block(self.render(str(p.get("label", "{{ item.id }}")), here),
                       Box(name_x, by, x + col_w - name_x - VALUE_GAP, d),
                       style._replace(valign="middle", wrap=False))

    def kind_write_in(self, part: Part, p: Mapping[str, Any], parent: Box, context: Mapping[str, Any]) -> None:
        if self.variant != "scan":
            return
        decl = self.field(p, context)
        box = self.box(p, parent)
        paint, radius = self.paint(p, context)
        self.rect(box, paint, radius)
        b = box.rounded()
        self.write_ins.append(WriteIn(decl.name, b.x, b.y, b.w, b.h))

    # --- markers ----------------------------------------------------------------------------------------------

    def markers(self) -> tuple[Marker, ...]:
        """The four markers in the corners of the content: top left, top right, bottom right, bottom left."""
        if self.code is None:
            raise _Problem(f"the layout gives no marker code for {self.paper} (scan: markers: {{{self.paper}: N}})")
        side = self.marker
        c = self.content
        left, right = c.x, c.right - side
        top, bottom = c.y, c.bottom - side
        found = []
        for corner, (x, y) in enumerate(((left, top), (right, top), (right, bottom), (left, bottom))):
            number = marker_id(self.code, corner)
            self.draw_marker(number, x, y, side)
            found.append(Marker(number, round(x, PLACES), round(y, PLACES), round(side, PLACES)))
        return tuple(found)

    def draw_marker(self, number: int, x: float, y: float, side: float) -> None:
        """An ArUco marker: a black square, its white cells drawn over it, one rectangle per run of a row."""
        cell = side / 6
        self.items.append(Rect(round(x, 3), round(y, 3), round(side, 3), round(side, 3), Paint(fill=BLACK)))
        bits = ARUCO_4X4[number]
        for row in range(4):
            col = 0
            while col < 4:
                if bits[row * 4 + col] == "1":
                    start = col
                    while col < 4 and bits[row * 4 + col] == "1":
                        col += 1
                    self.items.append(Rect(round(x + (1 + start) * cell, 3), round(y + (1 + row) * cell, 3),
                                           round((col - start) * cell, 3), round(cell, 3), Paint(fill=WHITE)))
                else:
                    col += 1


def _at(found: Part | FieldDecl) -> str:
    """Where a part or a field is written, as messages name it: file:line: path."""
    return f"{found.where.file}:{found.where.line}: {found.where.path}"


def _overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share more than a rounding's width across and down."""
    return min(a.right, b.right) - max(a.x, b.x) > OVERLAP and min(a.bottom, b.bottom) - max(a.y, b.y) > OVERLAP


def _bounds(item: Primitive) -> tuple[float, float, float, float] | None:
    """left, top, right, bottom of what a primitive prints (a line of text from its size above its baseline to
    its baseline: the descenders of its last line may hang below); None for what has no place of its own."""
    if isinstance(item, Rect):
        return item.x, item.y, item.x + item.w, item.y + item.h
    if isinstance(item, Circle):
        return item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r
    if isinstance(item, Line):
        return min(item.x1, item.x2), min(item.y1, item.y2), max(item.x1, item.x2), max(item.y1, item.y2)
    if isinstance(item, TextRun):
        if item.rotate == 90:  # turned a quarter anticlockwise about (x, y): it reads upwards from there
            return item.x - item.size, item.y - item.width, item.x, item.y
        return (item.x, item.y - item.size, item.x + item.width, item.y) if item.rotate == 0 else None
    if isinstance(item, IconUse):
        return item.x, item.y, item.x + item.size, item.y + item.size
    return None


def _named(value: Any) -> tuple[str, str] | None:
    """An item of a choice's values (`{id: summer, name: Sommer}`) as its id and the word printed for it (its name,
    else its label, else its id); None for anything else."""
    if not isinstance(value, Mapping) or not isinstance(value.get("id"), (str, int)) or isinstance(
            value.get("id"), bool):
        return None
    return str(value["id"]), str(_get(value, "name", _get(value, "label", value["id"])))


def _whole(value: Any) -> int | None:
    """A whole number as a layout or a sheet's values write it (`3`, or `"3"`), or None for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]{1,6}\s*", value):
        return int(value)
    return None


def _get(item: Any, key: str, default: Any = None) -> Any:
    """A key of an item or a group: an attribute of a record, or a key of a mapping a sheet's values hold."""
    if isinstance(item, Mapping):
        return item.get(key, default)
    return getattr(item, key, default)


def _pt(value: Any, default: float) -> float:
    return value.pt if isinstance(value, Dim) else default


_OP_LENGTHS = {"M": 2, "L": 2, "C": 6, "Z": 0}


def _ops(raw: Sequence[Sequence[Any]]) -> Iterator[tuple[Any, ...]]:
    for op in raw:
        name = str(op[0])
        if name not in _OP_LENGTHS or len(op) != 1 + _OP_LENGTHS[name]:
            raise _Problem(f"the path operation {list(op)!r} is not one of [M, x, y], [L, x, y], "
                           "[C, x1, y1, x2, y2, x, y], [Z]")
        dims = []
        for value in op[1:]:
            dim = Dim() if value == 0 else parse_dim(value) if isinstance(value, str) else None
            if dim is None:
                raise _Problem(f"the path operation {list(op)!r} holds {value!r}, which is not a length (4mm, 50%)")
            dims.append(dim)
        yield (name, *dims)


__all__ = ["Box", "DrawnSheet", "Entry", "SheetFitError", "VARIANTS", "draw_sheet", "form_name"]
