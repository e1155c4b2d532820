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
sheet is one :class:`Drawing` the size of the page; :class:`CastleSheet` also keeps the box drawn for each field,
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

BOX = Paint(fill=WHITE, stroke=INK, width=0.8)
TOTAL_BOX = Paint(fill=WHITE, stroke=INK, width=1.6)
DASHED = Paint(stroke=GUIDE, width=0.7, dash=(2.2, 1.6))
TICK = mm(4.2)

# --- page geometry (the same content width on A4 and Letter) ------------------------------------------------------

WIDTH = mm(190)
TOP = mm(10)
#: below the content: the page line and its ruler, as on the decks' pages
BOTTOM = mm(10)
GAP = mm(3)
HEADER = mm(16)
BANNER = mm(21)
SKY_BAND = mm(24)
RESIDENT_ROW = mm(12)
GUESTS = mm(26)
NOTES = mm(13)
#: the castle takes what is left, but never less than this
CASTLE_MIN = mm(95)


class Box(NamedTuple):
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
        return Box(round(self.x, 3), round(self.y, 3), round(self.w, 3), round(self.h, 3))


@dataclass(frozen=True)
class CastleSheet:
    """One version's sheet on one paper: the drawing, and the box drawn for each field."""

    castle: Castle
    version: str
    paper: str
    drawing: Drawing
    #: the box drawn for each field, by field name
    boxes: Mapping[str, Box]
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
                size = max(7, min(14, int(box.h * 0.58))) if number else max(7, min(12, int(box.h * 0.55)))
                yield FormField(spec.name, "text", *box, tooltip=spec.tooltip, size=size,
                                align="center" if number else "left", max_length=4 if number else 60)


def version_name(castle: Castle, version: str) -> str:
    return next((v.name for v in castle.versions if v.id == version), version)


def castle_sheet(castle: Castle, version: str, paper: str) -> CastleSheet:
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
        self.left = (self.page_w - WIDTH) / 2
        self.items: list[Primitive] = []
        self.boxes: dict[str, Box] = {}

    # --- drawing helpers ------------------------------------------------------------------------------------------

    def rect(self, box: Box, paint: Paint, radius: float = 0.0) -> None:
        b = box.rounded()
        self.items.append(Rect(b.x, b.y, b.w, b.h, paint, round(radius, 3)))

    def field_box(self, name: str, box: Box, paint: Paint = BOX, radius: float = mm(0.8)) -> None:
        """A box to write in (or a square to tick), which the fillable variant covers with field `name`."""
        self.rect(box, paint, radius)
        self.boxes[name] = box.rounded()

    def tick(self, name: str, x: float, y: float) -> Box:
        box = Box(x, y, TICK, TICK)
        self.field_box(name, box, radius=mm(0.6))
        return box

    def text(self, x: float, baseline: float, text: str, face: str = SANS, size: float = 7.0, colour: str = INK,
             align: str = "left") -> float:
        """One line of text (no markup); returns its width."""
        lacking = fonts.missing(face, text)
        if lacking:
            raise TextProblem(f"the font {fonts.FACES[face].family} has no glyph for {lacking!r} (in {text!r})")
        width = fonts.width(face, text) * size
        start = x - width / 2 if align == "center" else x - width if align == "right" else x
        self.items.append(TextRun(round(start, 3), round(baseline, 3), text, face, size, colour, round(width, 3)))
        return width

    def block(self, markup: str, box: Box, face: str = SANS, size: float = 7.0, min_size: float = 5.5,
              colour: str = INK, align: str = "left", valign: str = "top", leading: float = 1.2,
              wrap: bool = True) -> None:
        """Text with markup (`**bold**`, `{icon}`), wrapped and shrunk to fit `box`."""
        style = Style(face, size, min_size, colour, align, valign, leading, wrap)
        try:
            fitted = fit(parse(markup, face), box.w, box.h, style)
        except NoFit as err:
            raise TextProblem(f"the text {markup[:50]!r} does not fit its box: {err}") from None
        self.items.extend(layout_runs(fitted, box.x, box.y, box.w, box.h, style))

    def path(self, ops: list[tuple[str | float, ...]], paint: Paint) -> None:
        self.items.append(Path(tuple(tuple(round(v, 3) if isinstance(v, float) else v for v in op) for op in ops),
                               paint))

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str = GUIDE, width: float = 0.7,
             dash: tuple[float, ...] = (2.2, 1.6)) -> None:
        self.items.append(Line(round(x1, 3), round(y1, 3), round(x2, 3), round(y2, 3), colour, width, dash))

    def icon(self, name: str, x: float, y: float, size: float, colour: str = INK) -> None:
        self.items.append(IconUse(name, round(x, 3), round(y, 3), round(size, 3), colour))

    def title(self, text: str, box: Box) -> None:
        """A bold line, shrunk (never wrapped) to the width of its box."""
        self.block(f"**{text}**", box, size=8.0, min_size=6.0, wrap=False)

    def heading(self, x: float, y: float, title: str) -> float:
        """A section's title, its top at y; returns its width."""
        size = 11.0
        return self.text(x, y + fonts.metrics(SERIF_BOLD).ascent * size, title, SERIF_BOLD, size, ACCENT)

    # --- the sheet ------------------------------------------------------------------------------------------------

    def draw(self) -> CastleSheet:
        bottom = self.page_h - BOTTOM
        resident_rows = self.resident_rows()
        residents_h = mm(8) + len(resident_rows) * RESIDENT_ROW + mm(4)
        fixed = HEADER + BANNER + SKY_BAND + residents_h + GUESTS + NOTES + 5 * GAP
        castle_h = bottom - TOP - fixed
        if castle_h < CASTLE_MIN:
            raise _NoRoom(f"the resident track needs {len(resident_rows)} rows, which leaves too little room for "
                          "the castle")
        y = TOP
        self.header(y)
        y += HEADER
        self.banner(y)
        y += BANNER + GAP
        self.sky(y)
        y += SKY_BAND
        self.castle_part(y, castle_h)
        y += castle_h + GAP
        self.residents(y, resident_rows)
        y += residents_h + GAP
        self.guests(y)
        y += GUESTS + GAP
        self.notes(Box(self.left, y, WIDTH, NOTES))
        # the version marker: a hidden field in the top-left corner of the content, drawn as nothing
        self.boxes[names.VERSION] = Box(self.left, TOP, mm(20), mm(4)).rounded()
        specs = names.specs(self.castle, self.version)
        missing = [s.name for s in specs if s.name not in self.boxes]
        assert not missing, f"fields without a box: {missing}"
        drawing = Drawing(self.page_w, self.page_h, tuple(self.items))
        return CastleSheet(self.castle, self.version, self.paper, drawing, dict(self.boxes), specs,
                           {fillable: tuple(self.page_line(fillable)) for fillable in (False, True)})

    def page_line(self, fillable: bool) -> list[Primitive]:
        name = version_name(self.castle, self.version)
        text = (f"{GAME_NAME} · score sheet, {name} version{' · fillable' if fillable else ''} · one page per "
                "player · print at 100% (actual size)")
        content_h = self.page_h - TOP - BOTTOM
        layout = Grid(self.page_w, self.page_h, WIDTH, content_h, 0.0, 0.0, 1, 1, self.left, TOP, "bottom")
        return page_line(layout, text, PrintOptions(paper=self.paper, crop_length=0.0))

    def header(self, y: float) -> None:
        x = self.left
        self.text(x, y + mm(7.5), GAME_NAME, SERIF_BOLD, 21, ACCENT)
        name = version_name(self.castle, self.version)
        self.text(x, y + mm(12.8), f"Score sheet · {name} version", SANS, 9, SOFT)
        label_x = self.left + mm(96)
        self.text(label_x, y + mm(9.4), "Player", SANS_BOLD, 9, INK)
        self.field_box(names.PLAYER, Box(label_x + mm(12), y + mm(3.2), WIDTH - mm(108), mm(9)))

    def banner(self, y: float) -> None:
        """The ribbon with the six score boxes: the five sources of points and the total."""
        x0, x1 = self.left, self.left + WIDTH
        top, bottom, notch = y, y + BANNER, mm(5)
        mid = (top + bottom) / 2
        self.path([("M", x0, top), ("L", x1, top), ("L", x1 - notch, mid), ("L", x1, bottom), ("L", x0, bottom),
                   ("L", x0 + notch, mid), ("Z",)], Paint(fill=PARCHMENT, stroke=ACCENT, width=1.0))
        sky = "{sun} Sun & clouds" if self.named_guests else "{sun} Sun & Cloud"
        labels = ("{tower} Towers", sky, "{resident} Residents", "{flag} Flags", "{crown} Guests", "Total")
        inner = WIDTH - 2 * mm(10)
        op_w = mm(5.5)
        box_w = (inner - 5 * op_w) / 6
        label_base = top + mm(6.2)
        box_top, box_h = top + mm(8), mm(10)
        for index, (label, name) in enumerate(zip(labels, names.BANNER, strict=True)):
            bx = x0 + mm(10) + index * (box_w + op_w)
            self.block(label, Box(bx - op_w / 2, label_base - mm(3.6), box_w + op_w, mm(4.4)), SANS_BOLD, 7.5,
                       colour=ACCENT, align="center", wrap=False)
            self.field_box(name, Box(bx, box_top, box_w, box_h), TOTAL_BOX if name == "total" else BOX)
            if index < 5:
                self.text(bx + box_w + op_w / 2, box_top + box_h / 2 + mm(1.6), "=" if index == 4 else "+",
                          SERIF_BOLD, 14, ACCENT, "center")

    # --- the sky --------------------------------------------------------------------------------------------------

    def sky(self, y: float) -> None:
        band = Box(self.left, y, WIDTH, SKY_BAND)
        self.rect(band, Paint(fill=SKY), mm(2))
        sheet = self.sheet
        towers, parts = sheet.towers, sheet.parts
        spots = [("sun", "Sun", sheet.sun_points, f"The first castle with all {towers} towers draws it.", names.SUN),
                 ("cloud", "End Cloud", sheet.cloud_points,
                  f"The first to finish all {parts} parts draws it, and the game ends.", names.CLOUD)]
        columns = 3 if self.named_guests else 2
        col_w = WIDTH / columns
        for index, (kind, title, points, says, name) in enumerate(spots):
            x = self.left + index * col_w + mm(3)
            art = Box(x, y + mm(3), mm(22), SKY_BAND - mm(6))
            self.sun_outline(art) if kind == "sun" else self.cloud_outline(art)
            tx = art.right + mm(3)
            self.title(f"{title} · {points} points", Box(tx, y + mm(3.4), col_w - mm(31), mm(4)))
            self.block(says, Box(tx, y + mm(8), col_w - mm(31), mm(7)), size=6.5)
            box = self.tick(name, tx, y + SKY_BAND - mm(3) - TICK)
            self.text(box.right + mm(1.5), box.bottom - mm(1.1), "drawn", SANS, 6.5, SOFT)
        if self.named_guests:
            x = self.left + 2 * col_w + mm(3)
            for i in range(3):
                self.cloud_outline(Box(x + i * mm(6), y + mm(3.5) + (i % 2) * mm(7.5), mm(10), mm(8)))
            tx = x + mm(25)
            self.title(f"Extra clouds · {sheet.sky_cloud_points} each", Box(tx, y + mm(3.4), col_w - mm(28), mm(4)))
            self.block("Clouds drawn through the Shepherdess.", Box(tx, y + mm(8), col_w - mm(28), mm(7)),
                       size=6.5)
            box = Box(tx, y + SKY_BAND - mm(3) - mm(6.5), mm(9), mm(6.5))
            self.field_box(names.SKY_CLOUDS, box)
            self.text(box.right + mm(1.5), box.bottom - mm(1.6), "clouds", SANS, 6.5, SOFT)

    def sun_outline(self, box: Box) -> None:
        cx, cy = box.x + box.w / 2, box.y + box.h / 2
        r = min(box.w, box.h) * 0.27
        k = r * 0.5523
        self.path([("M", cx + r, cy), ("C", cx + r, cy + k, cx + k, cy + r, cx, cy + r),
                   ("C", cx - k, cy + r, cx - r, cy + k, cx - r, cy),
                   ("C", cx - r, cy - k, cx - k, cy - r, cx, cy - r),
                   ("C", cx + k, cy - r, cx + r, cy - k, cx + r, cy), ("Z",)], DASHED)
        for i in range(8):
            angle = math.radians(i * 45 + 22.5)
            c, s = math.cos(angle), math.sin(angle)
            self.line(cx + c * r * 1.35, cy + s * r * 1.35, cx + c * r * 1.85, cy + s * r * 1.85)

    def cloud_outline(self, box: Box) -> None:
        from generator.render.icons import CLOUD

        side = min(box.w, box.h * 1.6)
        sx, sy = side / 100, side / 160
        ox, oy = box.x + (box.w - side) / 2, box.y + box.h / 2 - 50 * sy * 1.0
        ops: list[tuple[str | float, ...]] = []
        for op in CLOUD:
            values = [float(v) for v in op[1:]]
            ops.append((op[0], *(ox + v * sx if i % 2 == 0 else oy + v * sy for i, v in enumerate(values))))
        self.path(ops, DASHED)

    # --- the castle -----------------------------------------------------------------------------------------------

    def castle_part(self, y: float, height: float) -> None:
        sheet = self.sheet
        towers, flags = self.castle.sheet.tower_values, self.castle.sheet.flag_values
        tower_words = _either(towers.values) + _mark(towers.provenance, "values")
        flag_words = _either(flags.values) + _mark(flags.provenance, "values")
        self.block(f"**Your castle.** Draw each part over its outline as you build it. Tick a floor of the donjon "
                   f"or a wall when you draw it; write on each tower its value ({tower_words}) and on each flag "
                   f"its value ({flag_words}).", Box(self.left, y, WIDTH, mm(7)), size=7.0, colour=SOFT)
        ground = y + height - mm(6)
        art_top = y + mm(9)
        art_h = ground - art_top
        self.path([("M", self.left, ground), ("C", self.left + WIDTH * 0.3, ground - mm(3), self.left + WIDTH * 0.7,
                                               ground - mm(3), self.left + WIDTH, ground),
                   ("L", self.left + WIDTH, y + height), ("L", self.left, y + height), ("Z",)],
                  Paint(fill=GROUND))
        self.line(self.left, ground, self.left + WIDTH, ground, SOFT, 0.8, ())
        row = castle_row(sheet)
        donjon_w = WIDTH * 0.2
        rest = WIDTH - donjon_w
        count_t = sum(1 for p in row if p.kind == "tower")
        count_w = sum(1 for p in row if p.kind == "wall")
        unit = min(rest / (1.1 * count_t + count_w), mm(30))
        tower_w, wall_w = 1.1 * unit, unit
        if tower_w < mm(12):
            raise _NoRoom(f"{count_t} towers and {count_w} walls do not fit across the page")
        flag_box = mm(6.5)
        for part in row:
            if part.kind == "wall" and part.flags * (flag_box + mm(1.5)) > wall_w:
                raise _NoRoom(f"wall {part.number} is too narrow for its {part.flags} flags")
        used = donjon_w + count_t * tower_w + count_w * wall_w
        x = self.left + (WIDTH - used) / 2
        for part in row:
            if part.kind == "donjon":
                self.donjon(Box(x, art_top, donjon_w, art_h))
                x += donjon_w
            elif part.kind == "tower":
                self.tower(part.number, Box(x, art_top + art_h * 0.2, tower_w, art_h * 0.8))
                x += tower_w
            else:
                self.wall(part.number, part.flags, Box(x, ground - art_h * 0.36, wall_w, art_h * 0.36),
                          art_h * 0.26, flag_box)
                x += wall_w

    def battlements(self, box: Box, merlons: int, merlon_h: float) -> list[tuple[str | float, ...]]:
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

    def donjon(self, box: Box) -> None:
        floors = self.sheet.donjon_floors
        roof_h = box.h * 0.17
        floor_h = (box.h - roof_h) / floors
        if floor_h < mm(7):
            raise _NoRoom(f"{floors} donjon floors do not fit the castle's height")
        cx = box.x + box.w / 2
        peak = box.y + mm(4)
        self.path([("M", box.x - mm(2), box.y + roof_h), ("L", cx, peak), ("L", box.right + mm(2), box.y + roof_h),
                   ("Z",)], DASHED)
        self.line(cx, peak, cx, box.y)
        self.path([("M", cx, box.y), ("L", cx + mm(5), box.y + mm(1.3)), ("L", cx, box.y + mm(2.6)), ("Z",)], DASHED)
        for number in range(1, floors + 1):
            top = box.y + roof_h + (floors - number) * floor_h
            self.rect(Box(box.x, top, box.w, floor_h), DASHED)
            tick = self.tick(names.floor(number), box.x + mm(2.5), top + (floor_h - TICK) / 2)
            self.text(tick.right + mm(1.5), tick.bottom - mm(1.0), f"floor {number}", SANS, 7, SOFT)
        self.text(cx, box.bottom + mm(4.3), "Donjon", SERIF_BOLD, 8.5, INK, "center")

    def tower(self, number: int, box: Box) -> None:
        merlon_h = min(mm(4), box.h * 0.06)
        self.path(self.battlements(box, 3, merlon_h), DASHED)
        cx = box.x + box.w / 2
        side = mm(8.5)
        value = Box(cx - side / 2, box.y + merlon_h + mm(4), side, side)
        self.field_box(names.tower(number), value)
        self.text(cx, value.bottom + mm(3.3), f"tower {number}", SANS, 6.5, SOFT, "center")
        self.text(cx, value.y - mm(1), "value", SANS, 5.5, SOFT, "center")
        # a door, so the outline reads as a tower
        door_w, door_h = box.w * 0.32, min(box.h * 0.16, mm(11))
        dx, base = cx - door_w / 2, box.bottom
        self.path([("M", dx, base), ("L", dx, base - door_h + door_w / 2),
                   ("C", dx, base - door_h, dx + door_w, base - door_h, dx + door_w, base - door_h + door_w / 2),
                   ("L", dx + door_w, base)], DASHED)

    def wall(self, number: int, flags: int, box: Box, pole: float, flag_box: float) -> None:
        merlon_h = min(mm(3), box.h * 0.12)
        merlons = max(2, round(box.w / mm(6)))
        self.path(self.battlements(box, merlons, merlon_h), DASHED)
        cx = box.x + box.w / 2
        tick = self.tick(names.wall(number), cx - TICK / 2, box.y + merlon_h + (box.h - merlon_h) * 0.3)
        self.text(cx, tick.bottom + mm(3.3), f"wall {number}", SANS, 6.5, SOFT, "center")
        for index in range(flags):
            fx = box.x + box.w * (index + 0.5) / flags
            top = box.y - pole
            self.line(fx, box.y, fx, top - mm(1.5))
            self.field_box(names.flag(number, index + 1), Box(fx - flag_box / 2, top, flag_box, flag_box))
        if flags:
            self.text(cx, box.y - pole - mm(2.8), "flags" if flags > 1 else "flag", SANS, 5.5, SOFT, "center")

    # --- residents ------------------------------------------------------------------------------------------------

    #: the room one resident figure takes on the track, and the most and least it may take
    PITCH_MAX = mm(6.2)
    PITCH_MIN = mm(3.6)
    GROUP_GAP = mm(2.2)
    GROUP_PAD = mm(1.0)

    def resident_rows(self) -> list[list[int]]:
        """The track's groups (indexes) on as few rows as fit, each group whole on one row."""
        groups = self.sheet.resident_track.groups
        width = WIDTH
        sizes = [g.last - g.first + 1 for g in groups]

        def row_width(indexes: list[int], pitch: float) -> float:
            return sum(sizes[i] * pitch + 2 * self.GROUP_PAD for i in indexes) + self.GROUP_GAP * (len(indexes) - 1)

        if row_width(list(range(len(groups))), self.PITCH_MIN) <= width:
            return [list(range(len(groups)))]
        rows: list[list[int]] = [[]]
        for index in range(len(groups)):
            if rows[-1] and row_width([*rows[-1], index], self.PITCH_MIN) > width:
                rows.append([])
            rows[-1].append(index)
            if row_width(rows[-1], self.PITCH_MIN) > width:
                raise _NoRoom(f"the resident group of {sizes[index]} residents is too long for a row")
        if len(rows) > 3:
            raise _NoRoom(f"the resident track's {sum(sizes)} residents need {len(rows)} rows; the sheet has room "
                          "for 3")
        return rows

    def residents(self, y: float, rows: list[list[int]]) -> None:
        track = self.sheet.resident_track
        groups = track.groups
        title_w = self.heading(self.left, y, "Residents")
        count = Box(self.left + WIDTH - mm(11), y, mm(11), mm(7))
        self.field_box(names.RESIDENTS, count)
        self.text(count.x - mm(1.5), count.bottom - mm(2.2), "residents coloured in", SANS_BOLD, 7, INK, "right")
        self.block("Colour in one figure for each resident you draw, left to right. At the end you score the "
                   "points of the group that holds your last one.",
                   Box(self.left + title_w + mm(3), y + mm(0.6), WIDTH - title_w - mm(52), mm(7)), size=6.5,
                   colour=SOFT)
        sizes = [g.last - g.first + 1 for g in groups]
        longest = max(sum(sizes[i] for i in row) for row in rows)
        most = max(len(row) for row in rows)
        room = WIDTH - self.GROUP_GAP * (most - 1) - 2 * self.GROUP_PAD * most
        pitch = min(self.PITCH_MAX, room / longest)
        top = y + mm(8)
        for row in rows:
            x = self.left
            for index in row:
                group = groups[index]
                w = sizes[index] * pitch + 2 * self.GROUP_PAD
                frame = Box(x, top + mm(3.2), w, mm(7.6))
                self.rect(frame, Paint(fill=WHITE, stroke=SOFT, width=0.6), mm(1.2))
                self.text(x + mm(0.6), top + mm(2.4), f"{group.points} pt{'s' if group.points != 1 else ''}",
                          SANS_BOLD, 6.5, ACCENT)
                span = f"{group.first}" if group.first == group.last else f"{group.first}-{group.last}"
                self.text(frame.right - mm(0.6), top + mm(2.4), span, SANS, 5.5, SOFT, "right")
                for k in range(sizes[index]):
                    self.figure(Box(x + self.GROUP_PAD + k * pitch, frame.y + mm(0.9), pitch, frame.h - mm(1.8)))
                x += w + self.GROUP_GAP
            top += RESIDENT_ROW
        provenance = track.provenance.of("groups")
        if provenance is not None:
            self.block(f"{{inferred}} Resident groups: {CONFIDENCE_WORDS[provenance.confidence]}; change them in "
                       "castle-sheet.yaml.", Box(self.left, top - mm(0.6), WIDTH, mm(4)), size=6.0, colour=SOFT)

    def figure(self, box: Box) -> None:
        """A resident to colour in: an outlined figure on white."""
        side = min(box.w * 0.92, box.h)
        x, y = box.x + (box.w - side) / 2, box.y + (box.h - side) / 2
        self.icon("resident-blank", x, y, side)

    # --- guests ---------------------------------------------------------------------------------------------------

    def guests(self, y: float) -> None:
        slots = guest_slots(self.sheet, self.version)
        floors = self.sheet.donjon_floors
        title_w = self.heading(self.left, y, "Guests")
        if self.named_guests:
            says = ("Each donjon floor brings a guest: write its name. Stolen guests go in the extra slots; cross "
                    "out a guest stolen from you.")
        else:
            says = "Each donjon floor brings a guest: write the VP printed on its card."
        self.block(says, Box(self.left + title_w + mm(3), y + mm(0.6), WIDTH - title_w - mm(3), mm(7)), size=6.5,
                   colour=SOFT)
        gap = mm(2.5)
        slot_w = (WIDTH - gap * (slots - 1)) / slots
        top = y + mm(8)
        slot_h = mm(11)
        for index in range(slots):
            number = index + 1
            x = self.left + index * (slot_w + gap)
            card = Box(x, top, slot_w, slot_h)
            self.rect(card, Paint(fill=PARCHMENT, stroke=SOFT, width=0.6), mm(1.5))
            label = f"floor {number}" if number <= floors else "stolen"
            self.text(x + mm(1.5), top + mm(3.2), label, SANS_BOLD, 6.5, ACCENT)
            if self.named_guests:
                self.field_box(names.guest(number), Box(x + mm(1.2), top + mm(4.2), slot_w - mm(2.4), mm(6)))
            else:
                box = Box(x + slot_w - mm(12.2), top + mm(1.8), mm(11), mm(7.6))
                self.field_box(names.guest(number), box)
                self.text(box.x - mm(1.5), box.bottom - mm(2.2), "VP", SANS_BOLD, 7, INK, "right")
        aide = top + slot_h + mm(1)
        if self.named_guests:
            self.block(self.guest_scoring(), Box(self.left, aide, WIDTH, GUESTS - (aide - y)), size=6.5,
                       colour=SOFT)

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

    def notes(self, box: Box) -> None:
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
        self.block(" ".join(lines), box, size=6.5, min_size=5.0, colour=SOFT)

    def inferred_note(self, what: str, values: ValueSet, field: str) -> list[str]:
        note = values.provenance.of(field)
        if note is None:
            return []
        return [f"{{inferred}} {what} {_either(values.values)}: {CONFIDENCE_WORDS[note.confidence]}."]
