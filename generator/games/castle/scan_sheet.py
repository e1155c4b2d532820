"""The scan-ready castle score sheet: the printed sheet, with every value a player records as a mark to fill, four
fiducial markers in its corners, and the map of its marks (:mod:`~generator.games.castle.marks`).

It is the sheet to print of :mod:`~generator.games.castle.score_sheet`, drawn by the same code in the same bands
(a subclass overrides where a value is recorded): the castle's outlines to draw over stay as they are, and where
the fillable sheet has a box to write a digit in, this one has a bubble per value, its value printed beside it.
What bubble-sheet readers teach, and where it shows here:

- markers at least twice a bubble's size (12 mm for 4.6 mm bubbles), each with 3 mm of blank paper around it, in
  the corners of the content, inside every printer's printable area;
- bubbles of 4.6 mm with a thin outline (0.6 pt, in the soft ink of the labels), evenly spaced, nothing printed
  inside them (the value is printed beside or above), and nothing printed between the bubbles of one field;
- the resident figures are the marks to colour in, as on the paper pad.

The markers' ids say which sheet it is (:class:`~generator.games.castle.marks.SheetCode`): version, paper and
layout revision; the sheet also prints that code in words, with the dictionary its markers come from.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from generator.errors import FitError
from generator.games.castle.catalog import Castle
from generator.games.castle.marks import (
    ARUCO_4X4,
    DICTIONARY,
    Mark,
    REVISION,
    MarkMap,
    Marker,
    Shape,
    SheetCode,
    Value,
    WriteIn,
    sheet_name,
)
from generator.render.text import TextProblem
from generator.games.castle.score_sheet import (
    ACCENT,
    CASTLE,
    COMMON,
    INK,
    PAGE,
    SANS,
    SANS_BOLD,
    SOFT,
    STROKES,
    TYPE,
    WHITE,
    SheetBox,
    _mark,
    _NoRoom,
    _Sheet,
    version_name,
)
from generator.render.imposition import PAPER_NAMES
from generator.render.model import Circle, Drawing, Page, Paint, Placed, Primitive, Rect, mm

#: the black of the markers: the darkest the printer has, for the contrast the detector needs
BLACK = "#000000"


@dataclass(frozen=True)
class ScanMeasures:
    """What the scan-ready sheet adds: markers and bubbles."""

    #: a marker's side: 6 cells of 2 mm (4 x 4 bits and a black border), more than twice a bubble
    marker: float = mm(12)
    #: blank paper around a marker, a cell and a half: the detector needs a white frame around the black one
    quiet: float = mm(3)
    #: a bubble's diameter: in the 4 to 6 mm that bubble sheets use, small enough for 11 in a guest's row
    bubble: float = mm(4.6)
    #: between two bubbles of one field: a pencil filling one does not stray into the next
    bubble_gap: float = mm(1.5)
    #: the bubbles' outline: thin, in the labels' soft ink, so that a filled bubble is all pencil
    outline: float = 0.6
    #: a value printed over its bubble: its baseline this far above the bubble's top
    value_rise: float = mm(0.8)
    #: a value printed beside its bubble (the flags'), this far right of it
    value_gap: float = mm(0.8)
    #: the extra clouds' bubbles: the rules set no limit; six (12 points) is more than a game of 12 parts gives
    sky_clouds: int = 6
    #: the guests of the Great Architect sheet: a grid of this many columns, rows this far apart
    guest_columns: int = 5
    guest_row: float = mm(6)
    #: the Apprentice sheet's floors: two a row, each its label and a row of VP bubbles with values above them
    floor_columns: int = 2
    floor_label: float = mm(13)
    floor_row: float = mm(9)
    #: a guest's kind (its icon) beside its name, a little larger than the name's letters
    icon_scale: float = 1.1


SCAN = ScanMeasures()
#: the bands of the scan-ready sheet: the guests' band holds a mark per guest (Great Architect: 20 guests on four
#: rows, and how each scores), the small print leaves room for the markers at its ends
SCAN_BANDS = replace(PAGE, guests=mm(37))
APPRENTICE_BANDS = replace(PAGE, guests=mm(28))
#: a line of text is centred on a point when its baseline is this fraction of its size below it (half the height of
#: its capitals)
CENTRE = 0.35
BUBBLE = Paint(fill=WHITE, stroke=SOFT, width=SCAN.outline)


@dataclass(frozen=True)
class ScanReadySheet:
    """One scan-ready sheet: its drawing and its map of marks."""

    castle: Castle
    version: str
    paper: str
    drawing: Drawing
    map: MarkMap
    page_line: tuple[Primitive, ...]

    def page(self) -> Page:
        return Page(self.drawing.width, self.drawing.height, (Placed(self.drawing, 0.0, 0.0),), self.page_line,
                    kind="sheet", number=1, label=version_name(self.castle, self.version))


def scan_sheet(castle: Castle, version: str, paper: str) -> ScanReadySheet:
    """Draw the scan-ready sheet of `version` on `paper` (a4 or letter) from the catalog, with its map."""
    where = f"the scan-ready castle score sheet ({version_name(castle, version)}, {PAPER_NAMES[paper]})"
    try:
        return _ScanSheet(castle, version, paper).draw_scan()
    except TextProblem as err:
        raise FitError(f"{where}: {err}") from None
    except _NoRoom as err:
        raise FitError(f"{where}: {err}; change the counts in castle-sheet.yaml") from None


class _ScanSheet(_Sheet):
    def __init__(self, castle: Castle, version: str, paper: str) -> None:
        super().__init__(castle, version, paper)
        self.bands = SCAN_BANDS if self.named_guests else APPRENTICE_BANDS
        self.header_inset = SCAN.marker + SCAN.quiet
        self.code = SheetCode(version, paper, REVISION)
        self.marks: list[Mark] = []
        self.write_ins: list[WriteIn] = []

    def draw_scan(self) -> ScanReadySheet:
        self.draw_bands()
        markers = self.markers()
        drawing = Drawing(self.page_w, self.page_h, tuple(self.items))
        name = sheet_name(self.version, self.paper)
        mark_map = MarkMap(name, self.version, self.paper, round(self.page_w, 3), round(self.page_h, 3), markers,
                           tuple(self.marks), tuple(self.write_ins))
        return ScanReadySheet(self.castle, self.version, self.paper, drawing, mark_map,
                              tuple(self.page_line(False)))

    # --- markers --------------------------------------------------------------------------------------------------

    def markers(self) -> tuple[Marker, ...]:
        """The four markers in the corners of the content: top left, top right, bottom right, bottom left."""
        side = SCAN.marker
        left, right = self.left, self.left + self.width - side
        top, bottom = self.bands.top, self.page_h - self.bands.bottom - side
        found = []
        for corner, (x, y) in enumerate(((left, top), (right, top), (right, bottom), (left, bottom))):
            marker_id = self.code.marker_id(corner)
            self.marker(marker_id, x, y, side)
            found.append(Marker(marker_id, round(x, 3), round(y, 3), round(side, 3)))
        return tuple(found)

    def marker(self, marker_id: int, x: float, y: float, side: float) -> None:
        """An ArUco marker: a black square, its white cells drawn over it, one rectangle per run of a row."""
        cell = side / 6
        self.items.append(Rect(round(x, 3), round(y, 3), round(side, 3), round(side, 3), Paint(fill=BLACK)))
        bits = ARUCO_4X4[marker_id]
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

    # --- marks ----------------------------------------------------------------------------------------------------

    def bubble(self, field: str, value: Value, x: float, y: float) -> SheetBox:
        """A bubble to fill, its top-left corner at (x, y), meaning `field` = `value`."""
        d = SCAN.bubble
        r = d / 2
        self.items.append(Circle(round(x + r, 3), round(y + r, 3), round(r, 3), BUBBLE))
        return self.add_mark(field, value, "circle", SheetBox(x, y, d, d))

    def add_mark(self, field: str, value: Value, shape: Shape, box: SheetBox) -> SheetBox:
        b = box.rounded()
        self.marks.append(Mark(field, value, shape, b.x, b.y, b.w, b.h))
        return box

    def row(self, field: str, values: tuple[Value, ...], cx: float, top: float, labels: bool = True,
            size: float = TYPE.note) -> SheetBox:
        """A row of bubbles centred on `cx`, their tops at `top`, each value printed above its bubble; returns the
        row's box (bubbles only)."""
        d, gap = SCAN.bubble, SCAN.bubble_gap
        width = len(values) * d + (len(values) - 1) * gap
        x = cx - width / 2
        for index, value in enumerate(values):
            bx = x + index * (d + gap)
            if labels:
                self.text(bx + d / 2, top - SCAN.value_rise, str(value), SANS_BOLD, size, INK, "center")
            self.bubble(field, value, bx, top)
        return SheetBox(x, top, width, d)

    def player_box(self, box: SheetBox) -> None:
        self.rect(box, STROKES.box, COMMON.box_radius)  # written by hand: a box, as on the fillable sheet
        b = box.rounded()
        self.write_ins.append(WriteIn("player", b.x, b.y, b.w, b.h))

    def sky_mark(self, name: str, x: float, bottom: float) -> None:
        box = self.bubble(name, True, x, bottom - SCAN.bubble)
        self.text(box.right + COMMON.label_gap, box.bottom - SCAN.bubble / 2 + TYPE.note * CENTRE, "drawn", SANS,
                  TYPE.note, SOFT)

    def sky_clouds_mark(self, x: float, bottom: float, room: float) -> None:
        d, gap = SCAN.bubble, SCAN.bubble_gap
        count = SCAN.sky_clouds
        if count * d + (count - 1) * gap > room:
            raise _NoRoom("the extra clouds' bubbles do not fit the sky")
        for index in range(count):
            self.bubble("sky_clouds", index + 1, x + index * (d + gap), bottom - d)

    def castle_intro(self, y: float) -> None:
        towers, flags = self.castle.sheet.tower_values, self.castle.sheet.flag_values
        tower_mark = _mark(towers.provenance, "values")
        flag_mark = _mark(flags.provenance, "values")
        self.block(f"**Your castle.** Draw each part over its outline as you build it, and fill its bubble: a floor "
                   f"of the donjon, a wall; the value of each tower{tower_mark} and of each flag{flag_mark}. "
                   "Fill a bubble well (a tick or a cross counts too); to undo one, rub it out.",
                   SheetBox(self.left, y, self.width, CASTLE.intro_h), size=TYPE.body, colour=SOFT)

    def floor_mark(self, number: int, x: float, top: float, floor_h: float) -> None:
        box = self.bubble("donjon_floors", number, x, top + (floor_h - SCAN.bubble) / 2)
        self.text(box.right + COMMON.label_gap, box.bottom - SCAN.bubble / 2 + TYPE.body * CENTRE, f"floor {number}",
                  SANS, TYPE.body, SOFT)

    def tower_mark(self, number: int, cx: float, top: float, room: float) -> None:
        values = self.castle.sheet.tower_values.values
        d, gap = SCAN.bubble, SCAN.bubble_gap
        if len(values) * d + (len(values) - 1) * gap > room:
            raise _NoRoom(f"tower {number} is too narrow for a bubble per tower value")
        # the values above their bubbles, as the tower's "value" label was
        row = self.row(f"towers[{number - 1}]", values, cx, top + TYPE.note + SCAN.value_rise)
        self.text(cx, row.bottom + COMMON.under_label, f"tower {number}", SANS, TYPE.note, SOFT, "center")

    def wall_mark(self, number: int, cx: float, top: float) -> None:
        box = self.bubble(f"walls[{number - 1}]", True, cx - SCAN.bubble / 2, top)
        self.text(cx, box.bottom + COMMON.under_label, f"wall {number}", SANS, TYPE.note, SOFT, "center")

    def flag_mark(self, wall_number: int, number: int, fx: float, top: float, base: float) -> None:
        """A flag: its bubbles stacked on the pole, one per flag value with the value beside it, and the pole from
        the wall up to the lowest bubble (never through one)."""
        values = self.castle.sheet.flag_values.values
        d, gap = SCAN.bubble, SCAN.bubble_gap
        field = f"walls[{wall_number - 1}].flags[{number - 1}]"
        stack = len(values) * d + (len(values) - 1) * gap
        for index, value in enumerate(values):
            y = top + index * (d + gap)
            box = self.bubble(field, value, fx - d / 2, y)
            self.text(box.right + SCAN.value_gap, box.y + d / 2 + TYPE.tiny * CENTRE, str(value), SANS_BOLD, TYPE.tiny,
                      INK)
        if top + stack < base:
            self.line(fx, base, fx, top + stack)

    def resident_count(self, y: float) -> float:
        return 0.0  # the figures coloured in are counted: no box

    def figure(self, resident: int, box: SheetBox) -> SheetBox:
        return self.add_mark("residents", resident, "figure", super().figure(resident, box))

    # --- guests ---------------------------------------------------------------------------------------------------

    def guests_says(self) -> str:
        if self.named_guests:
            return ("Fill the bubble of each guest in your castle at the end, stolen guests included; rub out a guest "
                    "stolen from you.")
        return "Each donjon floor brings a guest: fill the VP printed on its card."

    def guests(self, y: float) -> None:
        title_w = self.heading(self.left, y, "Guests")
        self.beside_heading(self.guests_says(), y, title_w, 0.0)
        top = y + PAGE.resident_head
        if self.named_guests:
            self.named_guest_marks(y, top)
        else:
            self.floor_guest_marks(top)

    def named_guest_marks(self, y: float, top: float) -> None:
        guests = self.castle.guests_of("great-architect")
        columns = SCAN.guest_columns
        rows = -(-len(guests) // columns)
        col_w = self.width / columns
        d = SCAN.bubble
        for index, guest in enumerate(guests):
            # column by column, in the catalog's order (its kinds together)
            column, row = divmod(index, rows)
            x = self.left + column * col_w
            by = top + row * SCAN.guest_row
            box = self.bubble("guests", guest.id, x, by)
            icon = TYPE.note * SCAN.icon_scale
            self.icon(guest.kind, box.right + COMMON.label_gap, by + (d - icon) / 2, icon, ACCENT)
            name_x = box.right + COMMON.label_gap + icon + SCAN.value_gap
            self.block(guest.name, SheetBox(name_x, by, x + col_w - name_x - SCAN.value_gap, d), SANS, TYPE.note,
                       valign="middle", wrap=False)
        aide = top + rows * SCAN.guest_row
        self.block(self.guest_scoring(), SheetBox(self.left, aide, self.width, self.bands.guests - (aide - y)),
                   size=TYPE.note, colour=SOFT)

    def floor_guest_marks(self, top: float) -> None:
        span = self.sheet.apprentice_guest_vp
        values = tuple(range(span.min, span.max + 1))
        floors = self.sheet.donjon_floors
        columns = SCAN.floor_columns
        col_w = self.width / columns
        d, gap = SCAN.bubble, SCAN.bubble_gap
        need = SCAN.floor_label + len(values) * (d + gap)
        if need > col_w:
            raise _NoRoom(f"{len(values)} guest VP values do not fit a floor's row")
        label_h = TYPE.note
        for index in range(floors):
            row, column = divmod(index, columns)
            x = self.left + column * col_w
            by = top + row * SCAN.floor_row + label_h
            self.text(x, by + d / 2 + TYPE.note * CENTRE, f"floor {index + 1}", SANS_BOLD, TYPE.note, ACCENT)
            start = x + SCAN.floor_label
            width = len(values) * d + (len(values) - 1) * gap
            self.row(f"guests[{index}]", values, start + width / 2, by, size=TYPE.tiny)
            self.text(start + width + COMMON.label_gap, by + d / 2 + TYPE.note * CENTRE, "VP", SANS_BOLD, TYPE.note,
                      INK)

    # --- small print ----------------------------------------------------------------------------------------------

    def notes(self, box: SheetBox) -> None:
        inset = SCAN.marker + SCAN.quiet
        inner = SheetBox(box.x + inset, box.y, box.w - 2 * inset, box.h)
        code = (f"Scan-ready sheet {self.code.label} (markers: ArUco {DICTIONARY.removeprefix('DICT_')}, ids "
                f"{self.code.marker_id(0)}-{self.code.marker_id(3)}): photograph it whole and score it with "
                "donjon score PHOTO.")
        self.notes_with(inner, code)
