"""The Once Upon a Castle score sheet, drawn by donjon from the castle catalog: one page per player.

From the top of the page down:

- the title and the player's name;
- the score banner (004 End of the game: players count their score on the banner above the drawing): towers,
  Sun and clouds, residents, flags, guests and the total, each a box to write in;
- the sky: the Sun, the end Cloud and, on a Great Architect sheet, spots for the Shepherdess's extra clouds;
- the castle: the donjon in the middle with its floors, towers and walls in turn on each side, each part a
  dashed outline to draw over, with a box to write each tower's value, a square to tick each floor and wall,
  and a box per flag above each wall (as many as that wall carries);
- the resident track: one figure per resident to colour in, in the catalog's groups, with each group's points;
- the guests: one slot per donjon floor (a name on a Great Architect sheet, plus slots for stolen guests; the
  VP printed on the card on an Apprentice sheet), with how each Great Architect guest scores;
- small print: what scores what, and every value no rulebook states, marked and labelled as not official.

Every count and value comes from `content.castle.sheet` (a corrected catalog changes the printed sheet). The
sheet is one :class:`Drawing` the size of the page; :class:`ScoreSheetDrawing` also keeps the box drawn for each field,
so the fillable variant puts each field exactly over its box. Coordinates are points, y down, as in the model.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from generator.catalog.common import CONFIDENCE_WORDS, Provenance
from generator.errors import FitError
from generator.games.castle import sheet_fields as names
from generator.games.castle.catalog import Castle, SheetFacts, ValueSet
from generator.games.castle.sheet_fields import FieldSpec, castle_row, guest_slots
from generator.render import fonts
from generator.render.imposition import (
    PAPER_NAMES,
    PAPERS,
    Grid,
    PrintOptions,
    page_line,
)
from generator.render.model import (
    Drawing,
    FormField,
    IconUse,
    Line,
    Page,
    Paint,
    Path,
    Placed,
    Primitive,
    KAPPA,
    Rect,
    TextRun,
    mm,
)
from generator.render.text import (
    NoFit,
    Style,
    TextProblem,
    escape_markup,
    fit,
    layout_runs,
    parse,
)
from generator.wording import plural

GAME_NAME = "Once Upon a Castle"

# --- look ---------------------------------------------------------------------------------------------------------

INK = "#1f1b16"
SOFT = "#5f574f"
#: the dashed outlines a player draws over
GUIDE = "#9d948a"
ACCENT = "#7a2e1f"
PARCHMENT = "#f7f0e2"
SKY = "#eef4f9"
GROUND = "#edf0e3"
WHITE = "#ffffff"

SERIF_BOLD = "cardo-bold"
SANS, SANS_BOLD = "open-sans", "open-sans-bold"


@dataclass(frozen=True)
class TypeSizes:
    """Type sizes in points, largest first: a title read across the table, small print read up close."""

    #: the game's name: the sheet's one large word
    title: float = 21.0
    #: the section headings (Residents, Guests), a step above everything in their band
    heading: float = 11.0
    #: the + and = between the banner's boxes, as tall as the digits written in them
    operator: float = 14.0
    #: the version line and the "Player" label, read at arm's length
    subtitle: float = 9.0
    #: the donjon's name under the castle, the largest label of the drawing
    donjon: float = 8.5
    #: a part's title in the sky (Sun, End Cloud...), bold and never wrapped
    part_title: float = 8.0
    #: the banner's labels
    banner_label: float = 7.5
    #: body text (the castle's instructions), labels beside a box
    body: float = 7.0
    #: the explanations in the sky and under section headings, labels under a part
    note: float = 6.5
    #: the resident groups' provenance note
    fine: float = 6.0
    #: small labels inside the drawing ("value", "flags", a group's residents): they must not compete with it
    tiny: float = 5.5
    #: the least any wrapped text shrinks to, and the least small print shrinks to
    least: float = 5.5
    least_print: float = 5.0


@dataclass(frozen=True)
class Strokes:
    """Outlines: what a player writes in is drawn in ink, what they draw over in a light dashed guide."""

    #: a box to write in or to tick: thin, so a pencil mark stands out
    box: Paint = Paint(fill=WHITE, stroke=INK, width=0.8)
    #: the total: twice as heavy, the box that matters
    total: Paint = Paint(fill=WHITE, stroke=INK, width=1.6)
    #: a dash of 2.2 pt and a gap of 1.6 pt reads as a guide at arm's length and vanishes under a pencil line
    dash: tuple[float, ...] = (2.2, 1.6)
    guide_width: float = 0.7
    #: the ground line and the banner's border
    ground_width: float = 0.8
    banner_width: float = 1.0
    #: the frames of resident groups and guest slots: softer than the boxes they hold
    frame_width: float = 0.6

    @property
    def guide(self) -> Paint:
        return Paint(stroke=GUIDE, width=self.guide_width, dash=self.dash)


@dataclass(frozen=True)
class Common:
    """Measures every part of the sheet shares."""

    #: a square to tick: 4.2 mm takes a pencil tick without touching its outline
    tick: float = mm(4.2)
    #: the corners of a box to write in, and of a square to tick: rounded just enough to look drawn
    box_radius: float = mm(0.8)
    tick_radius: float = mm(0.6)
    #: between a box and the label beside it
    label_gap: float = mm(1.5)
    #: a label's baseline this far above the bottom of the 4.2 mm square it names: its x-height centred on it
    tick_label_raise: float = mm(1.0)
    #: a part's label under it: the baseline one line (6.5 pt) and a little air below the part
    under_label: float = mm(3.3)
    #: a label written to the left of a box (residents coloured in, VP): its baseline this far above the box's
    #: bottom, centring 7 pt text on a 7 to 7.6 mm box
    side_label_raise: float = mm(2.2)


@dataclass(frozen=True)
class PageMeasures:
    """The page from the top down: bands of fixed height, and the castle taking what is left.

    The content is 190 mm wide on both papers (A4's 210 mm less 10 mm margins; Letter is 216 mm wide), so the same
    proportions fit both; Letter being 18 mm shorter, only the castle is shorter on it.
    """

    width: float = mm(190)
    #: above the content, as on the decks' pages: inside every printer's unprintable edge
    top: float = mm(10)
    #: below the content: the page line and its ruler, as on the decks' pages
    bottom: float = mm(10)
    #: between two bands
    gap: float = mm(3)
    #: the title and the player's name: a 21 pt title and a 9 pt line under it
    header: float = mm(16)
    #: the score banner: a label line over 10 mm boxes, with a margin above and below
    banner: float = mm(21)
    #: the sky: a 16 mm drawing of the Sun or a cloud with 3 mm above and below it
    sky: float = mm(24)
    #: one row of the resident track: a 7.6 mm frame of figures under its 3.2 mm label line, and air
    resident_row: float = mm(12)
    #: the residents' heading line, above the track's rows
    resident_head: float = mm(8)
    #: the residents' provenance note, below the track's rows
    resident_note: float = mm(4)
    #: the guests: the heading line, 11 mm slots, and the line of how each guest scores
    guests: float = mm(26)
    #: the small print: three lines of 6.5 pt
    notes: float = mm(13)
    #: the castle takes what is left, but never less than this: below it the towers' boxes crowd their outlines
    castle_min: float = mm(95)
    #: the hidden field holding the version: in the content's top-left corner, the size of a short word
    version_field: tuple[float, float] = (mm(20), mm(4))


@dataclass(frozen=True)
class HeaderMeasures:
    """The game's name on the left; the player's name on the right half."""

    #: the title's baseline: its 21 pt capitals fill the top 7.5 mm
    title_base: float = mm(7.5)
    #: the version line's baseline, one 9 pt line under the title
    subtitle_base: float = mm(12.8)
    #: the "Player" label starts just past the middle of the content, where the title (about 91 mm) ends
    player_at: float = mm(96)
    #: the room of the 9 pt bold "Player" label before the box
    player_label: float = mm(12)
    #: the label's baseline, centred on the box
    player_base: float = mm(9.4)
    #: the name's box: its top, and 9 mm tall for a name written by hand
    name_top: float = mm(3.2)
    name_h: float = mm(9)


@dataclass(frozen=True)
class BannerMeasures:
    """The ribbon with the six score boxes, the five sources of points and the total, joined by + and =."""

    #: the ribbon's swallowtail cut at each end
    notch: float = mm(5)
    #: between the ribbon's ends and the first and last box: clear of the notch
    inset: float = mm(10)
    #: the room of each + or = between two boxes
    operator_w: float = mm(5.5)
    #: the labels' baseline, 6.2 mm under the ribbon's top; their box reaches 3.6 mm above it and is 4.4 mm tall
    label_base: float = mm(6.2)
    label_rise: float = mm(3.6)
    label_h: float = mm(4.4)
    #: the boxes: under the labels, 10 mm tall for handwritten two-digit sums
    box_top: float = mm(8)
    box_h: float = mm(10)
    #: the operators' baseline this far below the middle of the boxes: the 14 pt + centred on them
    operator_drop: float = mm(1.6)


@dataclass(frozen=True)
class SkyMeasures:
    """The sky: the Sun, the end Cloud and (Great Architect) the extra clouds, each a column with a drawing and words."""

    #: the band's corners
    radius: float = mm(2)
    #: around the drawings and the words, inside the band
    pad: float = mm(3)
    #: the Sun's or the Cloud's drawing: 22 mm wide, the band's height less its padding
    art_w: float = mm(22)
    #: the title line's top, 0.4 mm below the padding to align the bold capitals with the drawing's top, and its height
    title_top: float = mm(3.4)
    title_h: float = mm(4)
    #: the explanation under the title: two lines of 6.5 pt
    says_top: float = mm(8)
    says_h: float = mm(7)
    #: "drawn" beside its square: baseline this far above the square's bottom
    drawn_raise: float = mm(1.1)
    #: the extra clouds' drawing: three small clouds, 10 x 8 mm, each 6 mm right of the last, every other one 7.5 mm
    #: lower, so they read as a sky and not a row
    cloud: tuple[float, float] = (mm(10), mm(8))
    cloud_step: float = mm(6)
    cloud_drop: float = mm(7.5)
    cloud_top: float = mm(3.5)
    clouds: int = 3
    #: the three clouds take this much room before the words
    clouds_w: float = mm(25)
    #: the box for how many extra clouds: two digits
    count: tuple[float, float] = (mm(9), mm(6.5))
    count_label_raise: float = mm(1.6)
    #: the Sun: its disc's radius as a fraction of the drawing's smaller side, its 8 rays from 1.35 to 1.85 radii
    #: (clear of the disc, short enough to stay in the drawing), starting half a ray's angle off the axes
    sun_radius: float = 0.27
    ray_from: float = 1.35
    ray_to: float = 1.85
    rays: int = 8
    #: the cloud icon is drawn in a 100 x 100 box but is wide and flat: squashed to 100 x 62.5 (1.6 : 1)
    cloud_aspect: float = 1.6


@dataclass(frozen=True)
class CastleMeasures:
    """The castle: the donjon in the middle, towers and walls in turn on each side, on a ground line.

    Heights are fractions of the drawing's height (from the top of the towers to the ground), so the castle keeps
    its proportions on a shorter page; widths are fractions of the content's width or of one `unit`.
    """

    #: the instructions above the castle: two lines of 7 pt, and the room they leave before the drawing
    intro_h: float = mm(7)
    art_top: float = mm(9)
    #: the ground strip under the castle, which holds the donjon's name
    ground_h: float = mm(6)
    #: the hill the castle stands on rises this much, its curve's control points at 30 % and 70 % of the width
    hill_rise: float = mm(3)
    hill_controls: tuple[float, float] = (0.3, 0.7)
    #: the donjon takes a fifth of the width, the widest part, as on the game's pad
    donjon_w: float = 0.2
    #: a tower is 10 % wider than a wall, whose width is the `unit` (at most 30 mm, wider looks empty)
    tower_ratio: float = 1.1
    unit_max: float = mm(30)
    #: a tower narrower than this cannot hold its value box and label
    tower_min: float = mm(12)
    #: towers rise from 20 % of the drawing's height (the donjon's roof is above them); walls take 36 % of it and
    #: their flag poles 26 % more, so the flags fly between the towers' tops and the walls
    tower_top: float = 0.2
    wall_h: float = 0.36
    pole_h: float = 0.26
    #: the donjon's roof takes 17 % of its height; under 7 mm a floor cannot hold its square and label
    roof: float = 0.17
    floor_min: float = mm(7)
    #: the roof's peak 4 mm under the top (the pennant's room), its eaves 2 mm past the walls
    peak_drop: float = mm(4)
    eaves: float = mm(2)
    #: the pennant on the roof: 5 mm long, 2.6 mm tall
    pennant: tuple[float, float] = (mm(5), mm(2.6))
    #: a floor's square, this far in from the donjon's left side
    floor_tick_in: float = mm(2.5)
    #: the donjon's name, under the ground line
    donjon_label_drop: float = mm(4.3)
    #: merlons: 3 on a tower, up to 4 mm tall (6 % of its height); a wall's up to 3 mm (12 %), one per 6 mm
    tower_merlons: int = 3
    tower_merlon_max: float = mm(4)
    tower_merlon: float = 0.06
    wall_merlon_max: float = mm(3)
    wall_merlon: float = 0.12
    wall_merlon_pitch: float = mm(6)
    #: a tower's value box: 8.5 mm square for a written digit, 4 mm under the merlons; "value" 1 mm above it
    value_side: float = mm(8.5)
    value_drop: float = mm(4)
    value_label_rise: float = mm(1)
    #: a tower's door: a third of its width, at most 16 % of its height and 11 mm
    door_w: float = 0.32
    door_h: float = 0.16
    door_max: float = mm(11)
    #: a wall's square, 30 % of the way down below its merlons
    wall_tick_at: float = 0.3
    #: a flag's box: 6.5 mm for one digit, with 1.5 mm between two flags; the pole shows 1.5 mm above it
    flag_box: float = mm(6.5)
    flag_gap: float = mm(1.5)
    pole_tip: float = mm(1.5)
    #: "flag(s)" above the flags
    flags_label_rise: float = mm(2.8)


@dataclass(frozen=True)
class ResidentMeasures:
    """The resident track: groups of figures in frames, on as few rows as fit."""

    #: the room one figure takes: at most 6.2 mm (larger looks like a different game), at least 3.6 mm (smaller
    #: is too fine to colour in with a pencil)
    pitch_max: float = mm(6.2)
    pitch_min: float = mm(3.6)
    #: between two groups, and inside a group's frame at each end
    group_gap: float = mm(2.2)
    group_pad: float = mm(1.0)
    #: the sheet has room for this many rows of the track
    rows_max: int = 3
    #: the box for how many residents: two digits; the box and its label take 49 mm at the end of the heading line
    count: tuple[float, float] = (mm(11), mm(7))
    count_room: float = mm(49)
    #: text beside a heading starts 3 mm after it, 0.6 mm lower (its x-height on the heading's)
    beside_heading: float = mm(3)
    says_drop: float = mm(0.6)
    says_h: float = mm(7)
    #: a group's frame under its label line, 7.6 mm tall; its label 0.6 mm in from each end
    frame_top: float = mm(3.2)
    frame_h: float = mm(7.6)
    frame_radius: float = mm(1.2)
    group_label_base: float = mm(2.4)
    group_label_in: float = mm(0.6)
    #: the figures fill the frame less 0.9 mm above and below, and 92 % of their pitch (a sliver apart)
    figure_in: float = mm(0.9)
    figure_fill: float = 0.92
    #: the provenance note starts just above the row after the last one, and is one line
    note_rise: float = mm(0.6)
    note_h: float = mm(4)


@dataclass(frozen=True)
class GuestMeasures:
    """The guests: a slot per donjon floor (and for stolen guests), then how each guest scores."""

    #: between two slots
    gap: float = mm(2.5)
    #: the slots, under the heading line: 11 mm tall, a label line and a 6 mm name box
    top: float = mm(8)
    slot_h: float = mm(11)
    radius: float = mm(1.5)
    #: a slot's label, 1.5 mm in and on a baseline 3.2 mm down
    label_in: float = mm(1.5)
    label_base: float = mm(3.2)
    #: a Great Architect slot's name box: under the label, 1.2 mm in from each side
    name_in: float = mm(1.2)
    name_top: float = mm(4.2)
    name_h: float = mm(6)
    #: an Apprentice slot's VP box: two digits at the slot's right, 1.2 mm in, centred in its height
    vp: tuple[float, float] = (mm(11), mm(7.6))
    vp_in: float = mm(1.2)
    vp_top: float = mm(1.8)
    #: how each guest scores, 1 mm under the slots
    aide_gap: float = mm(1)


#: the side of the box every icon is drawn in (generator.render.icons)
ICON_UNITS = 100.0
#: coordinates are rounded to a thousandth of a point: far below what prints, and the same drawing on every machine
PLACES = 3
#: lines of wrapped text are 1.2 times their size apart, as the decks' layouts set them
LEADING = 1.2

TYPE = TypeSizes()
STROKES = Strokes()
COMMON = Common()
PAGE = PageMeasures()
HEADER = HeaderMeasures()
BANNER = BannerMeasures()
SKY_MEASURES = SkyMeasures()
CASTLE = CastleMeasures()
RESIDENTS = ResidentMeasures()
GUESTS = GuestMeasures()

#: A form field's font size for the box it fills: 58 % of a number box's height (digits fill it), 55 % of a text
#: box's, within 7 to 14 pt and 7 to 12 pt; what a field may hold: 4 digits, or a 60-letter name
NUMBER_SIZE, TEXT_SIZE = 0.58, 0.55
NUMBER_SIZES, TEXT_SIZES = (7, 14), (7, 12)
NUMBER_LENGTH, TEXT_LENGTH = 4, 60


class SheetBox(NamedTuple):
    """A rectangle on the sheet, in points from the page's top-left corner."""

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

    def rounded(self) -> SheetBox:
        return SheetBox(round(self.x, PLACES), round(self.y, PLACES), round(self.w, PLACES),
                        round(self.h, PLACES))


@dataclass(frozen=True)
class ScoreSheetDrawing:
    """One version's sheet on one paper: the drawing, and the box drawn for each field."""

    castle: Castle
    version: str
    paper: str
    drawing: Drawing
    #: the box drawn for each field, by field name
    boxes: Mapping[str, SheetBox]
    fields: tuple[FieldSpec, ...]
    #: the page line and its ruler, for each variant
    page_lines: Mapping[bool, tuple[Primitive, ...]]

    @property
    def version_name(self) -> str:
        return version_name(self.castle, self.version)

    def page(self, fillable: bool) -> Page:
        """The page: the sheet, its page line and, when fillable, a field over each box."""
        width, height = PAPERS[self.paper]
        form = tuple(self.form_fields()) if fillable else ()
        return Page(width, height, (Placed(self.drawing, 0.0, 0.0),), self.page_lines[fillable], kind="sheet",
                    number=1, label=self.version_name, fields=form)

    def form_fields(self) -> Iterable[FormField]:
        for spec in self.fields:
            box = self.boxes[spec.name]
            if spec.name == names.VERSION:
                yield FormField(spec.name, "text", *box, tooltip=spec.tooltip, value=self.version, read_only=True,
                                hidden=True)
            elif spec.kind == "checkbox":
                yield FormField(spec.name, "checkbox", *box, tooltip=spec.tooltip)
            else:
                number = spec.kind == "number"
                share, (least, most) = (NUMBER_SIZE, NUMBER_SIZES) if number else (TEXT_SIZE, TEXT_SIZES)
                size = max(least, min(most, int(box.h * share)))
                yield FormField(spec.name, "text", *box, tooltip=spec.tooltip, size=size,
                                align="center" if number else "left",
                                max_length=NUMBER_LENGTH if number else TEXT_LENGTH)


def version_name(castle: Castle, version: str) -> str:
    return next((v.name for v in castle.versions if v.id == version), version)


def castle_sheet(castle: Castle, version: str, paper: str) -> ScoreSheetDrawing:
    """Draw the sheet of `version` on `paper` (a4 or letter) from the catalog."""
    where = f"the castle score sheet ({version_name(castle, version)}, {PAPER_NAMES[paper]})"
    try:
        return _Sheet(castle, version, paper).draw()
    except TextProblem as err:
        raise FitError(f"{where}: {err}") from None
    except _NoRoom as err:
        raise FitError(f"{where}: {err}; change the counts in castle-sheet.yaml") from None


class _NoRoom(Exception):
    """Part of the sheet does not fit the page."""


def _either(values: tuple[int, ...]) -> str:
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _mark(provenance: Provenance, field: str) -> str:
    """The `inferred` mark after a value no rulebook states, nothing after a stated one."""
    return "{inferred}" if provenance.of(field) is not None else ""


class _Sheet:
    """Draws one sheet; every section adds its primitives to `items` and the boxes of its fields to `boxes`."""

    def __init__(self, castle: Castle, version: str, paper: str) -> None:
        self.castle = castle
        self.sheet: SheetFacts = castle.sheet
        self.version = version
        self.named_guests = version == "great-architect"
        self.paper = paper
        self.page_w, self.page_h = PAPERS[paper]
        self.width = PAGE.width
        self.left = (self.page_w - self.width) / 2
        #: the bands' heights (the scan-ready sheet has its own)
        self.bands = PAGE
        #: room kept free at each end of the header (the scan-ready sheet's markers)
        self.header_inset = 0.0
        self.items: list[Primitive] = []
        self.boxes: dict[str, SheetBox] = {}

    # --- drawing helpers ------------------------------------------------------------------------------------------

    def rect(self, box: SheetBox, paint: Paint, radius: float = 0.0) -> None:
        b = box.rounded()
        self.items.append(Rect(b.x, b.y, b.w, b.h, paint, round(radius, PLACES)))

    def field_box(self, name: str, box: SheetBox, paint: Paint = STROKES.box,
                  radius: float = COMMON.box_radius) -> None:
        """A box to write in (or a square to tick), which the fillable variant covers with field `name`."""
        self.rect(box, paint, radius)
        self.boxes[name] = box.rounded()

    def tick(self, name: str, x: float, y: float) -> SheetBox:
        box = SheetBox(x, y, COMMON.tick, COMMON.tick)
        self.field_box(name, box, radius=COMMON.tick_radius)
        return box

    def text(self, x: float, baseline: float, text: str, face: str = SANS, size: float = TYPE.body,
             colour: str = INK, align: str = "left") -> float:
        """One line of text (no markup); returns its width."""
        lacking = fonts.missing(face, text)
        if lacking:
            raise TextProblem(f"the font {fonts.FACES[face].family} has no glyph for {lacking!r} (in {text!r})")
        width = fonts.width(face, text) * size
        start = x - width / 2 if align == "center" else x - width if align == "right" else x
        self.items.append(TextRun(round(start, PLACES), round(baseline, PLACES), text, face, size, colour, round(width, PLACES)))
        return width

    def block(self, markup: str, box: SheetBox, face: str = SANS, size: float = TYPE.body,
              min_size: float = TYPE.least, colour: str = INK, align: str = "left", valign: str = "top",
              leading: float = LEADING, wrap: bool = True) -> None:
        """Text with markup (`**bold**`, `{icon}`), wrapped and shrunk to fit `box`."""
        style = Style(face, size, min_size, colour, align, valign, leading, wrap)
        try:
            fitted = fit(parse(markup, face), box.w, box.h, style)
        except NoFit as err:
            raise TextProblem(f"the text {markup[:50]!r} does not fit its box: {err}") from None
        self.items.extend(layout_runs(fitted, box.x, box.y, box.w, box.h, style))

    def path(self, ops: list[tuple[str | float, ...]], paint: Paint) -> None:
        self.items.append(Path(tuple(tuple(round(v, PLACES) if isinstance(v, float) else v for v in op) for op in ops),
                               paint))

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str = GUIDE,
             width: float = STROKES.guide_width, dash: tuple[float, ...] = STROKES.dash) -> None:
        self.items.append(Line(round(x1, PLACES), round(y1, PLACES), round(x2, PLACES), round(y2, PLACES), colour, width, dash))

    def icon(self, name: str, x: float, y: float, size: float, colour: str = INK) -> None:
        self.items.append(IconUse(name, round(x, PLACES), round(y, PLACES), round(size, PLACES), colour))

    def title(self, text: str, box: SheetBox) -> None:
        """A bold line, shrunk (never wrapped) to the width of its box."""
        self.block(f"**{text}**", box, size=TYPE.part_title, min_size=TYPE.fine, wrap=False)

    def heading(self, x: float, y: float, title: str) -> float:
        """A section's title, its top at y; returns its width."""
        size = TYPE.heading
        return self.text(x, y + fonts.metrics(SERIF_BOLD).ascent * size, title, SERIF_BOLD, size, ACCENT)

    def beside_heading(self, markup: str, y: float, heading_w: float, room: float) -> None:
        """The explanation on a heading's line, after the heading, leaving `room` at the right."""
        x = self.left + heading_w + RESIDENTS.beside_heading
        self.block(markup, SheetBox(x, y + RESIDENTS.says_drop, self.left + self.width - room - x, RESIDENTS.says_h),
                   size=TYPE.note, colour=SOFT)

    # --- the sheet ------------------------------------------------------------------------------------------------

    def draw(self) -> ScoreSheetDrawing:
        self.draw_bands()
        # the version marker: a hidden field in the top-left corner of the content, drawn as nothing
        self.boxes[names.VERSION] = SheetBox(self.left, PAGE.top, *PAGE.version_field).rounded()
        specs = names.specs(self.castle, self.version)
        missing = [s.name for s in specs if s.name not in self.boxes]
        assert not missing, f"fields without a box: {missing}"
        drawing = Drawing(self.page_w, self.page_h, tuple(self.items))
        return ScoreSheetDrawing(self.castle, self.version, self.paper, drawing, dict(self.boxes), specs,
                                 {fillable: tuple(self.page_line(fillable)) for fillable in (False, True)})

    def draw_bands(self) -> None:
        """Every band of the sheet, from the top down."""
        page = self.bands
        bottom = self.page_h - page.bottom
        resident_rows = self.resident_rows()
        residents_h = page.resident_head + len(resident_rows) * page.resident_row + page.resident_note
        bands = (page.header, page.banner, page.sky, residents_h, page.guests, page.notes)
        # five gaps: after the banner, the castle, the residents and the guests, and above the page line (the
        # banner sits right under the header, the castle in its sky)
        fixed = sum(bands) + 5 * page.gap
        castle_h = bottom - page.top - fixed
        if castle_h < page.castle_min:
            raise _NoRoom(f"the resident track needs {len(resident_rows)} rows, which leaves too little room for "
                          "the castle")
        y = page.top
        self.header(y)
        y += page.header
        self.banner(y)
        y += page.banner + page.gap
        self.sky(y)
        y += page.sky
        self.castle_part(y, castle_h)
        y += castle_h + page.gap
        self.residents(y, resident_rows)
        y += residents_h + page.gap
        self.guests(y)
        y += page.guests + page.gap
        self.notes(SheetBox(self.left, y, self.width, page.notes))

    def page_line(self, fillable: bool) -> list[Primitive]:
        name = version_name(self.castle, self.version)
        text = (f"{GAME_NAME} · score sheet, {name} version{' · fillable' if fillable else ''} · one page per "
                "player · print at 100% (actual size)")
        content_h = self.page_h - PAGE.top - PAGE.bottom
        layout = Grid(self.page_w, self.page_h, self.width, content_h, 0.0, 0.0, 1, 1, self.left, PAGE.top,
                      "bottom")
        return page_line(layout, text, PrintOptions(paper=self.paper, crop_length=0.0))

    def header(self, y: float) -> None:
        x = self.left + self.header_inset
        self.text(x, y + HEADER.title_base, GAME_NAME, SERIF_BOLD, TYPE.title, ACCENT)
        name = version_name(self.castle, self.version)
        self.text(x, y + HEADER.subtitle_base, f"Score sheet · {name} version", SANS, TYPE.subtitle, SOFT)
        label_x = self.left + HEADER.player_at
        self.text(label_x, y + HEADER.player_base, "Player", SANS_BOLD, TYPE.subtitle, INK)
        box_x = label_x + HEADER.player_label
        self.player_box(SheetBox(box_x, y + HEADER.name_top, self.left + self.width - self.header_inset - box_x,
                                 HEADER.name_h))

    def player_box(self, box: SheetBox) -> None:
        self.field_box(names.PLAYER, box)

    def banner(self, y: float) -> None:
        """The ribbon with the six score boxes: the five sources of points and the total."""
        x0, x1 = self.left, self.left + self.width
        top, bottom, notch = y, y + PAGE.banner, BANNER.notch
        mid = (top + bottom) / 2
        self.path([("M", x0, top), ("L", x1, top), ("L", x1 - notch, mid), ("L", x1, bottom), ("L", x0, bottom),
                   ("L", x0 + notch, mid), ("Z",)], Paint(fill=PARCHMENT, stroke=ACCENT, width=STROKES.banner_width))
        sky = "{sun} Sun & clouds" if self.named_guests else "{sun} Sun & Cloud"
        labels = ("{tower} Towers", sky, "{resident} Residents", "{flag} Flags", "{crown} Guests", "Total")
        count = len(labels)
        inner = self.width - 2 * BANNER.inset
        op_w = BANNER.operator_w
        box_w = (inner - (count - 1) * op_w) / count
        label_base = top + BANNER.label_base
        box_top, box_h = top + BANNER.box_top, BANNER.box_h
        for index, (label, name) in enumerate(zip(labels, names.BANNER, strict=True)):
            bx = x0 + BANNER.inset + index * (box_w + op_w)
            self.block(label, SheetBox(bx - op_w / 2, label_base - BANNER.label_rise, box_w + op_w, BANNER.label_h),
                       SANS_BOLD, TYPE.banner_label, colour=ACCENT, align="center", wrap=False)
            self.field_box(name, SheetBox(bx, box_top, box_w, box_h),
                           STROKES.total if name == "total" else STROKES.box)
            if index < count - 1:
                self.text(bx + box_w + op_w / 2, box_top + box_h / 2 + BANNER.operator_drop,
                          "=" if index == count - 2 else "+", SERIF_BOLD, TYPE.operator, ACCENT, "center")

    # --- the sky --------------------------------------------------------------------------------------------------

    def sky(self, y: float) -> None:
        m = SKY_MEASURES
        band = SheetBox(self.left, y, self.width, self.bands.sky)
        self.rect(band, Paint(fill=SKY), m.radius)
        sheet = self.sheet
        towers, parts = sheet.towers, sheet.parts
        spots = [("sun", "Sun", sheet.sun_points, f"The first castle with all {towers} towers draws it.", names.SUN),
                 ("cloud", "End Cloud", sheet.cloud_points,
                  f"The first to finish all {parts} parts draws it, and the game ends.", names.CLOUD)]
        columns = 3 if self.named_guests else 2
        col_w = self.width / columns
        # the words take the column less its padding, the drawing and the padding on each side of the words
        words_w = col_w - (3 * m.pad + m.art_w)
        for index, (kind, title, points, says, name) in enumerate(spots):
            x = self.left + index * col_w + m.pad
            art = SheetBox(x, y + m.pad, m.art_w, self.bands.sky - 2 * m.pad)
            self.sun_outline(art) if kind == "sun" else self.cloud_outline(art)
            tx = art.right + m.pad
            self.title(f"{title} · {points} points", SheetBox(tx, y + m.title_top, words_w, m.title_h))
            self.block(says, SheetBox(tx, y + m.says_top, words_w, m.says_h), size=TYPE.note)
            self.sky_mark(name, tx, y + self.bands.sky - m.pad)
        if self.named_guests:
            x = self.left + 2 * col_w + m.pad
            for i in range(SKY_MEASURES.clouds):
                self.cloud_outline(SheetBox(x + i * m.cloud_step, y + m.cloud_top + (i % 2) * m.cloud_drop, *m.cloud))
            tx = x + m.clouds_w
            # the last column's words run to the band's edge: its title is the longest
            clouds_words = col_w - (m.pad + m.clouds_w)
            self.title(f"Extra clouds · {sheet.sky_cloud_points} each",
                       SheetBox(tx, y + m.title_top, clouds_words, m.title_h))
            self.block("Clouds drawn through the Shepherdess.", SheetBox(tx, y + m.says_top, clouds_words, m.says_h),
                       size=TYPE.note)
            self.sky_clouds_mark(tx, y + self.bands.sky - m.pad, clouds_words)

    def sky_mark(self, name: str, x: float, bottom: float) -> None:
        """The square to tick for the Sun or the Cloud, its bottom at `bottom`, and "drawn" beside it."""
        box = self.tick(name, x, bottom - COMMON.tick)
        self.text(box.right + COMMON.label_gap, box.bottom - SKY_MEASURES.drawn_raise, "drawn", SANS, TYPE.note, SOFT)

    def sky_clouds_mark(self, x: float, bottom: float, room: float) -> None:
        """The box for how many extra clouds, its bottom at `bottom`."""
        w, h = SKY_MEASURES.count
        box = SheetBox(x, bottom - h, w, h)
        self.field_box(names.SKY_CLOUDS, box)
        self.text(box.right + COMMON.label_gap, box.bottom - SKY_MEASURES.count_label_raise, "clouds", SANS,
                  TYPE.note, SOFT)

    def sun_outline(self, box: SheetBox) -> None:
        m = SKY_MEASURES
        cx, cy = box.x + box.w / 2, box.y + box.h / 2
        r = min(box.w, box.h) * m.sun_radius
        k = r * KAPPA
        self.path([("M", cx + r, cy), ("C", cx + r, cy + k, cx + k, cy + r, cx, cy + r),
                   ("C", cx - k, cy + r, cx - r, cy + k, cx - r, cy),
                   ("C", cx - r, cy - k, cx - k, cy - r, cx, cy - r),
                   ("C", cx + k, cy - r, cx + r, cy - k, cx + r, cy), ("Z",)], STROKES.guide)
        step = 360 / m.rays
        for i in range(m.rays):
            angle = math.radians(i * step + step / 2)
            c, s = math.cos(angle), math.sin(angle)
            self.line(cx + c * r * m.ray_from, cy + s * r * m.ray_from, cx + c * r * m.ray_to, cy + s * r * m.ray_to)

    def cloud_outline(self, box: SheetBox) -> None:
        from generator.render.icons import CLOUD

        # the icon's 100-unit box, squashed to the cloud's aspect and centred in `box`
        aspect = SKY_MEASURES.cloud_aspect
        side = min(box.w, box.h * aspect)
        sx, sy = side / ICON_UNITS, side / (ICON_UNITS * aspect)
        ox, oy = box.x + (box.w - side) / 2, box.y + box.h / 2 - ICON_UNITS / 2 * sy
        ops: list[tuple[str | float, ...]] = []
        for op in CLOUD:
            values = [float(v) for v in op[1:]]
            ops.append((op[0], *(ox + v * sx if i % 2 == 0 else oy + v * sy for i, v in enumerate(values))))
        self.path(ops, STROKES.guide)

    # --- the castle -----------------------------------------------------------------------------------------------

    def castle_intro(self, y: float) -> None:
        towers, flags = self.castle.sheet.tower_values, self.castle.sheet.flag_values
        tower_words = _either(towers.values) + _mark(towers.provenance, "values")
        flag_words = _either(flags.values) + _mark(flags.provenance, "values")
        self.block(f"**Your castle.** Draw each part over its outline as you build it. Tick a floor of the donjon "
                   f"or a wall when you draw it; write on each tower its value ({tower_words}) and on each flag "
                   f"its value ({flag_words}).", SheetBox(self.left, y, self.width, CASTLE.intro_h),
                   size=TYPE.body, colour=SOFT)

    def castle_part(self, y: float, height: float) -> None:
        m = CASTLE
        sheet = self.sheet
        self.castle_intro(y)
        left, width = self.left, self.width
        ground = y + height - m.ground_h
        art_top = y + m.art_top
        art_h = ground - art_top
        near, far = m.hill_controls
        self.path([("M", left, ground), ("C", left + width * near, ground - m.hill_rise, left + width * far,
                                         ground - m.hill_rise, left + width, ground),
                   ("L", left + width, y + height), ("L", left, y + height), ("Z",)],
                  Paint(fill=GROUND))
        self.line(left, ground, left + width, ground, SOFT, STROKES.ground_width, ())
        row = castle_row(sheet)
        donjon_w = width * m.donjon_w
        rest = width - donjon_w
        count_t = sum(1 for p in row if p.kind == "tower")
        count_w = sum(1 for p in row if p.kind == "wall")
        unit = min(rest / (m.tower_ratio * count_t + count_w), m.unit_max)
        tower_w, wall_w = m.tower_ratio * unit, unit
        if tower_w < m.tower_min:
            raise _NoRoom(f"{count_t} towers and {count_w} walls do not fit across the page")
        for part in row:
            if part.kind == "wall" and part.flags * (m.flag_box + m.flag_gap) > wall_w:
                raise _NoRoom(f"wall {part.number} is too narrow for its {part.flags} flags")
        used = donjon_w + count_t * tower_w + count_w * wall_w
        x = left + (width - used) / 2
        for part in row:
            if part.kind == "donjon":
                self.donjon(SheetBox(x, art_top, donjon_w, art_h))
                x += donjon_w
            elif part.kind == "tower":
                self.tower(part.number, SheetBox(x, art_top + art_h * m.tower_top, tower_w,
                                                 art_h * (1 - m.tower_top)))
                x += tower_w
            else:
                self.wall(part.number, part.flags, SheetBox(x, ground - art_h * m.wall_h, wall_w, art_h * m.wall_h),
                          art_h * m.pole_h)
                x += wall_w

    def battlements(self, box: SheetBox, merlons: int, merlon_h: float) -> list[tuple[str | float, ...]]:
        """A closed outline: a block whose top is cut into `merlons` merlons."""
        seg = box.w / (2 * merlons - 1)
        ops: list[tuple[str | float, ...]] = [("M", box.x, box.bottom), ("L", box.x, box.y)]
        for i in range(2 * merlons - 1):
            end = box.x + (i + 1) * seg
            if i % 2 == 0:
                ops.append(("L", end, box.y))
                if i < 2 * merlons - 2:
                    ops.append(("L", end, box.y + merlon_h))
            else:
                ops += [("L", end, box.y + merlon_h), ("L", end, box.y)]
        ops += [("L", box.right, box.bottom), ("Z",)]
        return ops

    def donjon(self, box: SheetBox) -> None:
        m = CASTLE
        floors = self.sheet.donjon_floors
        roof_h = box.h * m.roof
        floor_h = (box.h - roof_h) / floors
        if floor_h < m.floor_min:
            raise _NoRoom(f"{floors} donjon floors do not fit the castle's height")
        cx = box.x + box.w / 2
        peak = box.y + m.peak_drop
        self.path([("M", box.x - m.eaves, box.y + roof_h), ("L", cx, peak), ("L", box.right + m.eaves, box.y + roof_h),
                   ("Z",)], STROKES.guide)
        self.line(cx, peak, cx, box.y)
        pennant_w, pennant_h = m.pennant
        self.path([("M", cx, box.y), ("L", cx + pennant_w, box.y + pennant_h / 2), ("L", cx, box.y + pennant_h),
                   ("Z",)], STROKES.guide)
        for number in range(1, floors + 1):
            top = box.y + roof_h + (floors - number) * floor_h
            self.rect(SheetBox(box.x, top, box.w, floor_h), STROKES.guide)
            self.floor_mark(number, box.x + m.floor_tick_in, top, floor_h)
        self.text(cx, box.bottom + m.donjon_label_drop, "Donjon", SERIF_BOLD, TYPE.donjon, INK, "center")

    def floor_mark(self, number: int, x: float, top: float, floor_h: float) -> None:
        """The square to tick for a floor, centred in its height, and its label."""
        tick = self.tick(names.floor(number), x, top + (floor_h - COMMON.tick) / 2)
        self.text(tick.right + COMMON.label_gap, tick.bottom - COMMON.tick_label_raise, f"floor {number}", SANS,
                  TYPE.body, SOFT)

    def tower(self, number: int, box: SheetBox) -> None:
        m = CASTLE
        merlon_h = min(m.tower_merlon_max, box.h * m.tower_merlon)
        self.path(self.battlements(box, m.tower_merlons, merlon_h), STROKES.guide)
        cx = box.x + box.w / 2
        self.tower_mark(number, cx, box.y + merlon_h + m.value_drop, box.w)
        # a door, so the outline reads as a tower
        door_w, door_h = box.w * m.door_w, min(box.h * m.door_h, m.door_max)
        dx, base = cx - door_w / 2, box.bottom
        self.path([("M", dx, base), ("L", dx, base - door_h + door_w / 2),
                   ("C", dx, base - door_h, dx + door_w, base - door_h, dx + door_w, base - door_h + door_w / 2),
                   ("L", dx + door_w, base)], STROKES.guide)

    def tower_mark(self, number: int, cx: float, top: float, room: float) -> None:
        """A tower's value box, centred on `cx` with its top at `top`, and its labels."""
        side = CASTLE.value_side
        value = SheetBox(cx - side / 2, top, side, side)
        self.field_box(names.tower(number), value)
        self.text(cx, value.bottom + COMMON.under_label, f"tower {number}", SANS, TYPE.note, SOFT, "center")
        self.text(cx, value.y - CASTLE.value_label_rise, "value", SANS, TYPE.tiny, SOFT, "center")

    def wall(self, number: int, flags: int, box: SheetBox, pole: float) -> None:
        m = CASTLE
        merlon_h = min(m.wall_merlon_max, box.h * m.wall_merlon)
        merlons = max(2, round(box.w / m.wall_merlon_pitch))
        self.path(self.battlements(box, merlons, merlon_h), STROKES.guide)
        cx = box.x + box.w / 2
        self.wall_mark(number, cx, box.y + merlon_h + (box.h - merlon_h) * m.wall_tick_at)
        for index in range(flags):
            fx = box.x + box.w * (index + 0.5) / flags
            top = box.y - pole
            self.flag_mark(number, index + 1, fx, top, box.y)
        if flags:
            self.text(cx, box.y - pole - m.flags_label_rise, "flags" if flags > 1 else "flag", SANS, TYPE.tiny, SOFT,
                      "center")

    def wall_mark(self, number: int, cx: float, top: float) -> None:
        """The square to tick for a wall, centred on `cx` with its top at `top`, and its label."""
        tick = self.tick(names.wall(number), cx - COMMON.tick / 2, top)
        self.text(cx, tick.bottom + COMMON.under_label, f"wall {number}", SANS, TYPE.note, SOFT, "center")

    def flag_mark(self, wall_number: int, number: int, fx: float, top: float, base: float) -> None:
        """A flag's pole from the wall's top at `base` and its value box at `top`, centred on `fx`."""
        side = CASTLE.flag_box
        self.line(fx, base, fx, top - CASTLE.pole_tip)
        self.field_box(names.flag(wall_number, number), SheetBox(fx - side / 2, top, side, side))

    # --- residents ------------------------------------------------------------------------------------------------

    def resident_rows(self) -> list[list[int]]:
        """The track's groups (indexes) on as few rows as fit, each group whole on one row."""
        m = RESIDENTS
        groups = self.sheet.resident_track.groups
        width = self.width
        sizes = [g.last - g.first + 1 for g in groups]

        def row_width(indexes: list[int], pitch: float) -> float:
            return sum(sizes[i] * pitch + 2 * m.group_pad for i in indexes) + m.group_gap * (len(indexes) - 1)

        if row_width(list(range(len(groups))), m.pitch_min) <= width:
            return [list(range(len(groups)))]
        rows: list[list[int]] = [[]]
        for index in range(len(groups)):
            if rows[-1] and row_width([*rows[-1], index], m.pitch_min) > width:
                rows.append([])
            rows[-1].append(index)
            if row_width(rows[-1], m.pitch_min) > width:
                raise _NoRoom(f"the resident group of {sizes[index]} residents is too long for a row")
        if len(rows) > m.rows_max:
            raise _NoRoom(f"the resident track's {sum(sizes)} residents need {len(rows)} rows; the sheet has room "
                          f"for {m.rows_max}")
        return rows

    def residents(self, y: float, rows: list[list[int]]) -> None:
        m = RESIDENTS
        track = self.sheet.resident_track
        groups = track.groups
        title_w = self.heading(self.left, y, "Residents")
        room = self.resident_count(y)
        self.beside_heading("Colour in one figure for each resident you draw, left to right. At the end you score "
                            "the points of the group that holds your last one.", y, title_w, room)
        sizes = [g.last - g.first + 1 for g in groups]
        longest = max(sum(sizes[i] for i in row) for row in rows)
        most = max(len(row) for row in rows)
        room = self.width - m.group_gap * (most - 1) - 2 * m.group_pad * most
        pitch = min(m.pitch_max, room / longest)
        top = y + PAGE.resident_head
        for row in rows:
            x = self.left
            for index in row:
                group = groups[index]
                w = sizes[index] * pitch + 2 * m.group_pad
                frame = SheetBox(x, top + m.frame_top, w, m.frame_h)
                self.rect(frame, Paint(fill=WHITE, stroke=SOFT, width=STROKES.frame_width), m.frame_radius)
                self.text(x + m.group_label_in, top + m.group_label_base,
                          plural(group.points, "pt"), SANS_BOLD, TYPE.note, ACCENT)
                span = f"{group.first}" if group.first == group.last else f"{group.first}-{group.last}"
                self.text(frame.right - m.group_label_in, top + m.group_label_base, span, SANS, TYPE.tiny, SOFT,
                          "right")
                for k in range(sizes[index]):
                    self.figure(group.first + k, SheetBox(x + m.group_pad + k * pitch, frame.y + m.figure_in, pitch,
                                                          frame.h - 2 * m.figure_in))
                x += w + m.group_gap
            top += PAGE.resident_row
        provenance = track.provenance.of("groups")
        if provenance is not None:
            self.block(f"{{inferred}} Resident groups: {CONFIDENCE_WORDS[provenance.confidence]}; change them in "
                       "castle-sheet.yaml.", SheetBox(self.left, top - m.note_rise, self.width, m.note_h),
                       size=TYPE.fine, colour=SOFT)

    def resident_count(self, y: float) -> float:
        """The box for how many residents, at the right end of the heading line, with its label; returns the room
        they take on the line."""
        w, h = RESIDENTS.count
        count = SheetBox(self.left + self.width - w, y, w, h)
        self.field_box(names.RESIDENTS, count)
        self.text(count.x - COMMON.label_gap, count.bottom - COMMON.side_label_raise, "residents coloured in",
                  SANS_BOLD, TYPE.body, INK, "right")
        return RESIDENTS.count_room

    def figure(self, resident: int, box: SheetBox) -> SheetBox:
        """A resident to colour in: an outlined figure on white; returns the figure's box."""
        side = min(box.w * RESIDENTS.figure_fill, box.h)
        x, y = box.x + (box.w - side) / 2, box.y + (box.h - side) / 2
        self.icon("resident-blank", x, y, side)
        return SheetBox(x, y, side, side)

    # --- guests ---------------------------------------------------------------------------------------------------

    def guests_says(self) -> str:
        if self.named_guests:
            return ("Each donjon floor brings a guest: write its name. Stolen guests go in the extra slots; cross out "
                    "a guest stolen from you.")
        return "Each donjon floor brings a guest: write the VP printed on its card."

    def guests(self, y: float) -> None:
        m = GUESTS
        slots = guest_slots(self.sheet, self.version)
        floors = self.sheet.donjon_floors
        title_w = self.heading(self.left, y, "Guests")
        self.beside_heading(self.guests_says(), y, title_w, 0.0)
        slot_w = (self.width - m.gap * (slots - 1)) / slots
        top = y + m.top
        for index in range(slots):
            number = index + 1
            x = self.left + index * (slot_w + m.gap)
            card = SheetBox(x, top, slot_w, m.slot_h)
            self.rect(card, Paint(fill=PARCHMENT, stroke=SOFT, width=STROKES.frame_width), m.radius)
            label = f"floor {number}" if number <= floors else "stolen"
            self.text(x + m.label_in, top + m.label_base, label, SANS_BOLD, TYPE.note, ACCENT)
            if self.named_guests:
                self.field_box(names.guest(number), SheetBox(x + m.name_in, top + m.name_top, slot_w - 2 * m.name_in,
                                                             m.name_h))
            else:
                vp_w, vp_h = m.vp
                box = SheetBox(x + slot_w - vp_w - m.vp_in, top + m.vp_top, vp_w, vp_h)
                self.field_box(names.guest(number), box)
                self.text(box.x - COMMON.label_gap, box.bottom - COMMON.side_label_raise, "VP", SANS_BOLD, TYPE.body,
                          INK, "right")
        aide = top + m.slot_h + m.aide_gap
        if self.named_guests:
            self.block(self.guest_scoring(), SheetBox(self.left, aide, self.width, self.bands.guests - (aide - y)),
                       size=TYPE.note, colour=SOFT)

    def guest_scoring(self) -> str:
        """How each Great Architect guest scores, in one line, from the catalog."""
        guests = self.castle.guests_of("great-architect")
        parts: list[str] = []
        done: set[str] = set()
        for kind in ("bolt", "hourglass", "crown"):
            of_kind = [g for g in guests if g.kind == kind]
            flat = {g.scoring.flat for g in of_kind}
            if of_kind and len(flat) == 1 and None not in flat:
                done.update(g.id for g in of_kind)
                parts.append(f"{{{kind}}} {kind.capitalize()} guests {flat.pop()} VP each")
        for g in guests:
            if g.id not in done:
                parts.append(f"{{{g.kind}}} {escape_markup(g.name)} {g.scoring.describe()}")
        return "**Guests score:** " + " · ".join(parts) + "."

    # --- small print ----------------------------------------------------------------------------------------------

    def notes(self, box: SheetBox) -> None:
        self.notes_with(box)

    def notes_with(self, box: SheetBox, *extra: str) -> None:
        """The small print, and `extra` lines after it."""
        sheet = self.sheet
        score = (f"**Score:** towers + Sun ({sheet.sun_points}) + end Cloud ({sheet.cloud_points})"
                 + (f" + {sheet.sky_cloud_points} per extra cloud" if self.named_guests else "")
                 + " + the points of your last resident's group + flags + guests. The highest total wins.")
        lines = [score]
        for what, values, field in (("Tower values", sheet.tower_values, "values"),
                                    ("Flag values", sheet.flag_values, "values")):
            lines.extend(self.inferred_note(what, values, field))
        if not self.named_guests:
            span = sheet.apprentice_guest_vp
            note = span.provenance.of("min")
            if note is not None:
                lines.append(f"{{inferred}} donjon's scorer takes guest VP from {span.min} to {span.max}: "
                             f"{CONFIDENCE_WORDS[note.confidence]}.")
        lines.append("Values marked {inferred} are not printed in the rules; correct them in content/"
                     "once-upon-a-castle/castle-sheet.yaml and build the sheet again.")
        lines.extend(extra)
        self.block(" ".join(lines), box, size=TYPE.note, min_size=TYPE.least_print, colour=SOFT)

    def inferred_note(self, what: str, values: ValueSet, field: str) -> list[str]:
        note = values.provenance.of(field)
        if note is None:
            return []
        return [f"{{inferred}} {what} {_either(values.values)}: {CONFIDENCE_WORDS[note.confidence]}."]
