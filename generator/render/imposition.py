"""Imposition: cards on home-print sheets, with crop marks, bleed, gutters, duplex backs and the page line.

The grid holds as many cards as fit the paper inside its margins and is centred on the page. Each card keeps
its own bleed around it (cards sit `2 x bleed + gutter` apart), so a slightly off cut never shows white or
the neighbour's colours. Crop marks extend every trim line into the margin, outside the outermost bleed, so
no mark is ever drawn on a card.

Duplex: after each page of fronts comes a page of the same cards' backs, placed so that each back lands
behind its front once the sheet is turned over:

- the sheet turns about a vertical axis (portrait pages flipped on the long edge, landscape pages on the
  short edge): backs are mirrored left to right and drawn upright;
- it turns about a horizontal axis (portrait on the short edge, landscape on the long edge): backs are
  mirrored top to bottom and turned 180 degrees, so a cut card shows its back upright when turned over
  sideways, as cards are;
- `back_offset` shifts every back to make up for a printer that does not print both sides in register:
  x to the right, y upwards, as seen looking at the back side.

Each card may have a back of its own (:class:`Sided`): the back page puts each card's back behind it.

Fold (`duplex="fold"`), for printers that print one side only: fronts and their backs share one page, on either
side of a dashed fold line through the middle of the page, each back where its front lands when the sheet is
folded along the line (a vertical fold mirrors them left to right, upright; a horizontal one top to bottom,
turned). The fold runs the way that holds more cards (vertical on a tie). Fold, glue the halves, then cut through
both layers. The grids keep clear of the fold by the room their crop marks need.

Cut lines (`cut_lines`): a thin line along every trim line across the whole grid, beside the crop marks, for a
paper trimmer's guide or when the marks are hidden after folding.

Pieces that are not rectangles (a deck's `shape`: hexagonal tiles, round tokens): each is cut with scissors or a
craft knife along its own outline, which every sheet of fronts draws as a cut line around every piece (on both
halves of a fold sheet), with the piece's bleed beyond it; the crop marks in the margins stand where the outlines
reach their farthest (a hexagon's points and flat sides, a token's top, bottom and sides), and `--cut-lines`
draws nothing more, a straight cut through a sheet of hexagons being no help.

The page line (game, deck, fronts or backs, page n of N, "print at 100%") and a 50 mm ruler to check the
scale go in the bottom margin, or along the right margin when only the side margins have room for them. On a
paper narrower than the line (A6, 4 x 6 in photo paper) it goes without the ruler, broken in two lines or set
smaller, down to 5 pt.
"""

import math
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Literal, NamedTuple

from generator.errors import FitError, UsageError
from generator.i18n import N_, Language, language
from generator.render import fonts
from generator.render.model import (
    Drawing,
    Line,
    Matrix,
    Page,
    PageKind,
    Paint,
    Path,
    Placed,
    Primitive,
    TextRun,
    mm,
)
from generator.units import MM_PER_UNIT, PT_PER_MM

#: Paper sizes in points (portrait): the two the score sheets and references are drawn for...
PAPERS = {"a4": (mm(210), mm(297)), "letter": (612.0, 792.0)}
PAPER_NAMES = {"a4": N_("A4"), "letter": N_("Letter")}
#: ... and every size decks can be imposed on (ISO 216 A3 and A5; ANSI Legal 8.5 x 14 in and Tabloid 11 x 17 in),
#: besides a custom size written like `330x480mm` (`paper_size`).
SHEET_PAPERS = {**PAPERS, "a3": (mm(297), mm(420)), "a5": (mm(148), mm(210)), "legal": (612.0, 1008.0),
                "tabloid": (792.0, 1224.0)}
SHEET_PAPER_NAMES = {**PAPER_NAMES, "a3": "A3", "a5": "A5", "legal": "Legal", "tabloid": "Tabloid"}
#: Paper sizes measured in inches, whose documents (references, score sheets) are drawn on Letter
INCH_PAPERS = ("letter", "legal", "tabloid")
ORIENTATIONS = ("portrait", "landscape")
DUPLEX = ("long", "short", "none", "fold")

#: The band along the paper's edge that many home printers cannot print (most leave 3 to 5 mm blank).
EDGE = mm(5)
#: Crop marks start this far outside the outermost bleed, so a mark never touches a card.
CROP_GAP = mm(1)
#: The shortest a crop mark may be made to keep out of the band along the edge (EDGE) that printers leave
#: blank: a margin too thin for a mark this long holds one card less instead.
MIN_CROP_MARK = mm(1.5)
#: Between the crop marks and the page line.
FOOTER_GAP = mm(1.5)
#: The page line's size: small, but readable on any printer.
FOOTER_SIZE = 6.5
#: The smallest the page line is set in to fit a narrow paper (A6 and 4 x 6 in photo paper leave 92 to 95 mm between
#: the bands printers leave blank, and a German page line of backs is 148 mm at FOOTER_SIZE): donjon's choice, not a
#: measured limit; Open Sans' capitals are 1.3 mm high at 5 pt (0.714 of the size).
MIN_FOOTER_SIZE = 5.0
#: Between the parts of a page line (game · deck · side · page n of N · print at 100%): where a line too long for a
#: narrow paper is broken in two.
FOOTER_PARTS = " · "
FOOTER_FACE = "open-sans"
FOOTER_COLOUR = "#555555"
#: The page line keeps this far from the paper's edge (its own margin, like any text).
FOOTER_EDGE = mm(3.5)
#: The scale ruler printed after the page line: measure it to check the page printed at 100%.
RULER = mm(50)
RULER_TICK = mm(1.6)
#: The fold line: dashed (3 mm on, 2 mm off) in a mid grey, visible without drawing the eye.
FOLD_DASH = (mm(3), mm(2))
FOLD_COLOUR = "#8c8c8c"
FOLD_WIDTH = 0.5
#: The grids keep this far from the fold line beyond their crop marks, so no mark touches the fold.
FOLD_CLEAR = mm(1)
#: Cut lines: a hairline in light grey, enough to guide a blade, too faint to show on a card's edge.
CUT_COLOUR = "#b0b0b0"
CUT_WIDTH = 0.25


class PrintOptions(NamedTuple):
    """How decks are laid out on paper. Lengths in points."""

    paper: str = "a4"
    orientation: str = "portrait"
    bleed: float = 0.0
    gutter: float = 0.0
    crop_length: float = mm(4)
    crop_width: float = 0.5
    duplex: str = "long"
    #: x to the right, y upwards, as seen on the back side
    back_offset: tuple[float, float] = (0.0, 0.0)
    #: thin lines along every trim line across the whole grid, besides the crop marks
    cut_lines: bool = False
    #: every page drawn larger or smaller about its centre by these factors (across, down), to make up for a
    #: printer that prints a little short or long (`donjon printer add --scale`)
    scale: tuple[float, float] = (1.0, 1.0)

    @property
    def page_size(self) -> tuple[float, float]:
        w, h = paper_size(self.paper)
        return (h, w) if self.orientation == "landscape" else (w, h)

    @property
    def flip_axis(self) -> Literal["vertical", "horizontal"]:
        """About which axis of the page the sheet turns over between its fronts and its backs."""
        portrait = self.orientation == "portrait"
        return "vertical" if (self.duplex == "long") == portrait else "horizontal"


def on_printer(pages: Iterable[Page], options: PrintOptions) -> Iterator[Page]:
    """The pages of a document (a reference, a score sheet) as a saved printer's measures ask (`--printer`): every
    page drawn at its scale, and every second page, the back of a sheet printed on both sides (`duplex` long or
    short), moved by its back offset (x to the right, y upwards, as seen on that side, as the decks' backs are)."""
    dx, dy = options.back_offset
    both = options.duplex in ("long", "short")
    for index, page in enumerate(pages):
        yield page._replace(scale=options.scale, offset=(dx, -dy) if both and index % 2 else (0.0, 0.0))


def paper_size(paper: str) -> tuple[float, float]:
    """A named paper's size in points, portrait, or a custom one written `WxH` with a unit (`330x480mm`,
    `12x18in`): ValueError for anything else."""
    found = SHEET_PAPERS.get(paper)
    if found is not None:
        return found
    custom = re.fullmatch(r"(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(mm|cm|in|pt)", paper)
    if custom is None:
        raise ValueError(f"{paper!r} is not a paper size")
    per = MM_PER_UNIT[custom[3]] * PT_PER_MM
    w, h = float(custom[1]) * per, float(custom[2]) * per
    return (min(w, h), max(w, h))


def paper_name(paper: str) -> str:
    """How messages and page lines name a paper: `A4`, `Tabloid`, or the custom size as written."""
    return SHEET_PAPER_NAMES.get(paper, paper)


def document_paper(paper: str) -> str:
    """The paper references and score sheets are drawn on for a build on `paper`: Letter for the inch sizes,
    A4 for every other."""
    return "letter" if paper in INCH_PAPERS or paper.endswith("in") else paper if paper in PAPERS else "a4"


class Grid(NamedTuple):
    """Where cards go on a page: `cols` x `rows` slots; (x0, y0) is the top-left of the first card's bleed."""

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    bleed: float
    gutter: float
    cols: int
    rows: int
    x0: float
    y0: float
    footer: Literal["bottom", "side"]
    #: with `duplex="fold"`: the fold line's direction (the grid is then the fronts' half of the page)
    fold: Literal["vertical", "horizontal"] | None = None

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def step_x(self) -> float:
        return self.card_w + 2 * self.bleed + self.gutter

    @property
    def step_y(self) -> float:
        return self.card_h + 2 * self.bleed + self.gutter

    @property
    def width(self) -> float:
        return self.cols * self.step_x - self.gutter

    @property
    def height(self) -> float:
        return self.rows * self.step_y - self.gutter

    def slot(self, index: int) -> tuple[float, float]:
        """The top-left corner of the trim box of slot `index` (row by row from the top-left)."""
        col, row = index % self.cols, index // self.cols
        return self.x0 + col * self.step_x + self.bleed, self.y0 + row * self.step_y + self.bleed


def _count(space: float, step: float, gutter: float) -> int:
    return max(0, int(math.floor((space + gutter) / step + 1e-9)))


def footer_room(options: PrintOptions) -> float:
    """How far from the grid to the paper's edge the margin holding the page line must reach."""
    m = fonts.metrics(FOOTER_FACE)
    crop = CROP_GAP + options.crop_length if options.crop_length > 0 else 0.0
    return crop + FOOTER_GAP + FOOTER_SIZE * (m.ascent + m.descent) + FOOTER_EDGE


def plain_room(options: PrintOptions) -> float:
    """How far from the grid to the paper's edge the other margins must reach: the printable band's edge, and
    room inside it for crop marks at least MIN_CROP_MARK long (they are shortened to keep out of the band)."""
    if options.crop_length <= 0:
        return EDGE
    return EDGE + CROP_GAP + min(options.crop_length, MIN_CROP_MARK)


def _best(card_w: float, card_h: float, options: PrintOptions) -> tuple[int, int, Literal["bottom", "side"]]:
    """The grid with the most cards on the page (columns, rows, where the page line goes); 0 x 0 if none fits."""
    page_w, page_h = options.page_size
    b, g = options.bleed, options.gutter
    slot_w, slot_h = card_w + 2 * b + g, card_h + 2 * b + g
    plain, footer = plain_room(options), footer_room(options)
    places: tuple[tuple[Literal["bottom", "side"], float, float], ...] = (("bottom", plain, footer),
                                                                            ("side", footer, plain))
    best: tuple[int, int, Literal["bottom", "side"]] = (0, 0, "bottom")
    for place, side, vertical in places:  # the bottom margin wins a tie
        cols = _count(page_w - 2 * side, slot_w, g)
        rows = _count(page_h - 2 * vertical, slot_h, g)
        if cols * rows > best[0] * best[1]:
            best = (cols, rows, place)
    return best


def fits_some_paper(card_w: float, card_h: float, options: PrintOptions = PrintOptions()) -> bool:
    """Whether a card fits on any paper, in either orientation, with these options' bleed and gutter."""
    return any(_best(card_w, card_h, options._replace(paper=paper, orientation=way))[0] > 0
               for paper in SHEET_PAPERS for way in ORIENTATIONS)


def _no_room(card_w: float, card_h: float, options: PrintOptions) -> UsageError:
    """Why a card does not fit the paper asked for, and what would help (the same advice however it is asked)."""
    b, g = options.bleed, options.gutter
    size = f"a {card_w / mm(1):g} x {card_h / mm(1):g} mm card{' with its bleed' if b else ''}"
    where = f"{paper_name(options.paper)} {options.orientation} paper"
    other = [f"--{key} {value}" for key, value, changed in (
        ("orientation", "landscape" if options.orientation == "portrait" else "portrait",
         options._replace(orientation="landscape" if options.orientation == "portrait" else "portrait")),
        ("paper", "letter" if options.paper == "a4" else "a4",
         options._replace(paper="letter" if options.paper == "a4" else "a4")),
    ) if _best(card_w, card_h, changed)[0] > 0]
    plainer = options._replace(bleed=0.0, gutter=0.0)
    if not other and (b or g) and any(_best(card_w, card_h, plainer._replace(orientation=way))[0] > 0
                                      for way in ORIENTATIONS):
        hints = " and ".join(h for h, on in (("no --bleed", b), ("no --gutter", g)) if on)
        return UsageError("--paper/--orientation", f"{size} does not fit on {where} inside the margins; try {hints}")
    if not other:  # a larger paper, the smallest that holds it
        larger = sorted((w * h, paper) for paper, (w, h) in SHEET_PAPERS.items()
                        if any(_best(card_w, card_h, options._replace(paper=paper, orientation=way))[0] > 0
                               for way in ORIENTATIONS))
        other = [f"--paper {larger[0][1]}"] if larger else []
    if other:
        return UsageError("--paper/--orientation", f"{size} does not fit on {where} inside the margins; try "
                          f"{' or '.join(other)}")
    if (b or g) and fits_some_paper(card_w, card_h, plainer):
        hints = " and ".join(h for h, on in (("no --bleed", b), ("no --gutter", g)) if on)
        return UsageError("--paper/--orientation", f"{size} does not fit on {where} inside the margins; try {hints}")
    known = ", ".join(SHEET_PAPER_NAMES.values())
    return UsageError("--paper/--orientation", f"{size} fits on no paper donjon knows ({known}, either "
                      "orientation): give a larger --paper such as 330x480mm, build it without sheets "
                      "(--format svg) or export it as images (donjon export png)")


def grid(card_w: float, card_h: float, options: PrintOptions) -> Grid:
    """The grid with the most cards on the page, the page line in the bottom margin or else the side one."""
    if options.duplex == "fold":
        return fold_grid(card_w, card_h, options)
    page_w, page_h = options.page_size
    b, g = options.bleed, options.gutter
    slot_w, slot_h = card_w + 2 * b + g, card_h + 2 * b + g
    cols, rows, where = _best(card_w, card_h, options)
    if cols * rows == 0:
        raise _no_room(card_w, card_h, options)
    width = cols * slot_w - g
    height = rows * slot_h - g
    return Grid(page_w, page_h, card_w, card_h, b, g, cols, rows, (page_w - width) / 2, (page_h - height) / 2, where)


def fold_grid(card_w: float, card_h: float, options: PrintOptions) -> Grid:
    """The fronts' grid of a fold sheet: against the fold line, in the half holding more cards."""
    page_w, page_h = options.page_size
    b, g = options.bleed, options.gutter
    slot_w, slot_h = card_w + 2 * b + g, card_h + 2 * b + g
    across, down, clear = _fold_counts(card_w, card_h, options)
    if across[0] * across[1] == 0 and down[0] * down[1] == 0:
        raise UsageError("--duplex", f"fold: a {card_w / mm(1):g} x {card_h / mm(1):g} mm card"
                         f"{' with its bleed' if b else ''} and its back do not fit side by side on "
                         f"{paper_name(options.paper)} {options.orientation} paper; try "
                         f"{_fold_advice(card_w, card_h, options)}")
    if across[0] * across[1] >= down[0] * down[1]:
        cols, rows = across
        width, height = cols * slot_w - g, rows * slot_h - g
        return Grid(page_w, page_h, card_w, card_h, b, g, cols, rows, page_w / 2 - clear - width,
                    (page_h - height) / 2, "bottom", "vertical")
    cols, rows = down
    width, height = cols * slot_w - g, rows * slot_h - g
    return Grid(page_w, page_h, card_w, card_h, b, g, cols, rows, (page_w - width) / 2, page_h / 2 - clear - height,
                "bottom", "horizontal")


def _fold_counts(card_w: float, card_h: float,
                 options: PrintOptions) -> tuple[tuple[int, int], tuple[int, int], float]:
    """The fronts' columns and rows of a fold sheet folded across (a vertical fold line) and down, and how far the
    grids keep from the fold line."""
    page_w, page_h = options.page_size
    b, g = options.bleed, options.gutter
    slot_w, slot_h = card_w + 2 * b + g, card_h + 2 * b + g
    outer = max(plain_room(options), footer_room(options))
    clear = (CROP_GAP + options.crop_length if options.crop_length > 0 else 0.0) + FOLD_CLEAR
    across = (_count(page_w / 2 - outer - clear, slot_w, g), _count(page_h - 2 * outer, slot_h, g))
    down = (_count(page_w - 2 * outer, slot_w, g), _count(page_h / 2 - outer - clear, slot_h, g))
    return across, down, clear


def _folds(card_w: float, card_h: float, options: PrintOptions) -> bool:
    """Whether a card and its back fit side by side on the paper of `options`."""
    across, down, _ = _fold_counts(card_w, card_h, options)
    return across[0] * across[1] + down[0] * down[1] > 0


def _fold_advice(card_w: float, card_h: float, options: PrintOptions) -> str:
    """What would hold a fold sheet the paper asked for cannot: only a change that does (the other orientation, no
    bleed or gutter, the smallest paper donjon knows), else printing the backs on a page of their own, which holds
    one card where a fold sheet needs two."""
    other = "landscape" if options.orientation == "portrait" else "portrait"
    if _folds(card_w, card_h, options._replace(orientation=other)):
        return f"--orientation {other}"
    plainer = options._replace(bleed=0.0, gutter=0.0)
    if (options.bleed or options.gutter) and any(_folds(card_w, card_h, plainer._replace(orientation=way))
                                                 for way in ORIENTATIONS):
        return " and ".join(h for h, on in (("no --bleed", options.bleed), ("no --gutter", options.gutter)) if on)
    # the smallest paper that holds it, in the orientation asked if that one does
    larger = sorted((w * h, way != options.orientation, paper, way) for paper, (w, h) in SHEET_PAPERS.items()
                    for way in ORIENTATIONS if _folds(card_w, card_h, options._replace(paper=paper, orientation=way)))
    ways = [f"--paper {paper}" + (f" --orientation {way}" if way != options.orientation else "")
            for _, _, paper, way in larger[:1]]
    if _best(card_w, card_h, options)[0] > 0:  # the card alone fits the paper asked
        ways.append("--duplex long (a page of backs after each page of fronts)")
    return ", or ".join(ways) or "--duplex long on a larger paper"


def fold_position(layout: Grid, front: tuple[float, float]) -> tuple[float, float, bool]:
    """Where the back of the card whose front is at `front` goes on a fold sheet: mirrored across the fold."""
    x, y = front
    if layout.fold == "vertical":
        return layout.page_w - x - layout.card_w, y, False
    return x, layout.page_h - y - layout.card_h, True


def mirrored(layout: Grid) -> Grid:
    """The backs' grid of a fold sheet (the fronts' grid mirrored across the fold)."""
    if layout.fold == "vertical":
        return layout._replace(x0=layout.page_w - layout.x0 - layout.width)
    return layout._replace(y0=layout.page_h - layout.y0 - layout.height)


def span(a: Grid, b: Grid) -> Grid:
    """One box holding both grids of a fold sheet (as a grid of one slot), for the page line beneath them."""
    x0, y0 = min(a.x0, b.x0), min(a.y0, b.y0)
    x1, y1 = max(a.x0 + a.width, b.x0 + b.width), max(a.y0 + a.height, b.y0 + b.height)
    return a._replace(card_w=x1 - x0, card_h=y1 - y0, bleed=0.0, gutter=0.0, cols=1, rows=1, x0=x0, y0=y0)


def mirror_line(layout: Grid, line: Line) -> Line:
    """A line of the fronts' half of a fold sheet, mirrored across the fold."""
    if layout.fold == "vertical":
        w = layout.page_w
        return line._replace(x1=round(w - line.x1, 3), x2=round(w - line.x2, 3))
    h = layout.page_h
    return line._replace(y1=round(h - line.y1, 3), y2=round(h - line.y2, 3))


def fold_line(layout: Grid, options: PrintOptions) -> Line:
    """The dashed fold line through the middle of the page, as long as the grids and their crop marks."""
    crop = CROP_GAP + options.crop_length if options.crop_length > 0 else 0.0
    if layout.fold == "vertical":
        x = round(layout.page_w / 2, 3)
        return Line(x, round(layout.y0 - crop, 3), x, round(layout.y0 + layout.height + crop, 3), FOLD_COLOUR,
                    FOLD_WIDTH, FOLD_DASH)
    y = round(layout.page_h / 2, 3)
    return Line(round(layout.x0 - crop, 3), y, round(layout.x0 + layout.width + crop, 3), y, FOLD_COLOUR, FOLD_WIDTH,
                FOLD_DASH)


def cut_lines(grids: list[Grid], count: int, options: PrintOptions) -> list[Primitive]:
    """A hairline along every trim line of the cards on a page (`count` per grid), from the first card's edge to
    the last's and on into the margins as far as the crop marks reach."""
    crop = CROP_GAP + options.crop_length if options.crop_length > 0 else CROP_GAP
    xs: set[float] = set()
    ys: set[float] = set()
    top = left = math.inf
    bottom = right = -math.inf
    for layout in grids:
        cols = min(count, layout.cols)
        rows = (count + layout.cols - 1) // layout.cols
        xs |= {round(layout.x0 + c * layout.step_x + layout.bleed + edge, 3) for c in range(cols)
               for edge in (0.0, layout.card_w)}
        ys |= {round(layout.y0 + r * layout.step_y + layout.bleed + edge, 3) for r in range(rows)
               for edge in (0.0, layout.card_h)}
        top, bottom = min(top, layout.y0), max(bottom, layout.y0 + rows * layout.step_y - layout.gutter)
        left, right = min(left, layout.x0), max(right, layout.x0 + cols * layout.step_x - layout.gutter)
    if count <= 0 or not xs:
        return []
    lines: list[Primitive] = [Line(x, round(top - crop, 3), x, round(bottom + crop, 3), CUT_COLOUR, CUT_WIDTH)
                              for x in sorted(xs)]
    lines += [Line(round(left - crop, 3), y, round(right + crop, 3), y, CUT_COLOUR, CUT_WIDTH) for y in sorted(ys)]
    return lines


def outlines(placed: Iterable[Placed]) -> list[Primitive]:
    """The cut line of every piece placed that is not a rectangle, in page coordinates."""
    lines: list[Primitive] = []
    for piece in placed:
        d = piece.drawing
        if d.outline is None:
            continue
        from generator.render.shapes import transform

        turn: Matrix = ((-1.0, 0.0, 0.0, -1.0, piece.x + d.width, piece.y + d.height) if piece.turned
                        else (1.0, 0.0, 0.0, 1.0, piece.x, piece.y))
        lines.append(Path(transform(d.outline, turn), Paint(None, CUT_COLOUR, CUT_WIDTH), evenodd=False))
    return lines


#: How many pages' crop marks and page lines are kept once made: a deck's pages mostly have the same marks, and
#: `donjon build --watch` makes the same page lines again with every save (a thousand cards are some 220 pages).
PAGE_PARTS_KEPT = 4096


def crop_marks(layout: Grid, count: int, options: PrintOptions) -> list[Primitive]:
    """Marks extending each trim line of the cards on a page (`count` cards) into the margins."""
    return list(_crop_marks(layout, count, options))


@lru_cache(maxsize=PAGE_PARTS_KEPT)
def _crop_marks(layout: Grid, count: int, options: PrintOptions) -> tuple[Primitive, ...]:
    if options.crop_length <= 0 or count <= 0:
        return ()
    cols = min(count, layout.cols)
    rows = (count + layout.cols - 1) // layout.cols
    top = layout.y0 - CROP_GAP
    bottom = layout.y0 + rows * layout.step_y - layout.gutter + CROP_GAP
    left = layout.x0 - CROP_GAP
    right = layout.x0 + cols * layout.step_x - layout.gutter + CROP_GAP
    # each mark keeps out of the band along the paper's edge that printers leave blank
    length, width, ink = options.crop_length, options.crop_width, "#000000"
    above = max(0.0, min(length, top - EDGE))
    below = max(0.0, min(length, layout.page_h - EDGE - bottom))
    before = max(0.0, min(length, left - EDGE))
    after = max(0.0, min(length, layout.page_w - EDGE - right))
    xs = sorted({round(layout.x0 + c * layout.step_x + layout.bleed + edge, 3)
                 for c in range(cols) for edge in (0.0, layout.card_w)})
    ys = sorted({round(layout.y0 + r * layout.step_y + layout.bleed + edge, 3)
                 for r in range(rows) for edge in (0.0, layout.card_h)})
    marks: list[Primitive] = []
    for x in xs:
        marks.append(Line(x, round(top - above, 3), x, round(top, 3), ink, width))
        marks.append(Line(x, round(bottom, 3), x, round(bottom + below, 3), ink, width))
    for y in ys:
        marks.append(Line(round(left - before, 3), y, round(left, 3), y, ink, width))
        marks.append(Line(round(right, 3), y, round(right + after, 3), y, ink, width))
    return tuple(marks)


def page_line(layout: Grid, text: str, options: PrintOptions, lang: Language | None = None,
              faces: tuple[str, ...] = ()) -> list[Primitive]:
    """The page line and the 50 mm ruler, in the margin the grid left for them (its label in `lang`); what Open Sans
    cannot draw is drawn in the first of `faces` (the deck's own fonts) that can."""
    return list(_page_line(layout, text, options, lang, faces))


def page_line_lacks(text: str, faces: tuple[str, ...] = ()) -> str:
    """The characters of a page line that neither Open Sans nor any of `faces` can draw, in the order written."""
    lacking = fonts.missing(FOOTER_FACE, text)
    for face in faces:
        if not lacking:
            break
        lacking = fonts.missing(face, lacking)
    return lacking


def _page_line_fonts(faces: tuple[str, ...]) -> str:
    """The fonts a page line is drawn in, for messages: `Open Sans`, or `Open Sans, DejaVu Sans`."""
    return ", ".join(dict.fromkeys(fonts.FACES[face].family for face in (FOOTER_FACE, *faces)))


def _runs(logical: str, faces: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """A line of the page line in the order it is drawn, left to right, cut into (face, text) runs: each character
    in Open Sans where it has it, else in the first of `faces` that has it (a deck named in Arabic, Chinese or
    Japanese is drawn in the deck's own font, as its cards are). Arabic letters are joined first, in the shapes
    those fonts draw (generator.render.joining), then the line is put in visual order (a right-to-left name reads
    right to left)."""
    from generator.render.joining import join, needs_joining
    from generator.render.text import visual

    chain = (FOOTER_FACE, *faces)
    if needs_joining(logical):
        logical = join(logical, lambda char: any(not fonts.missing(face, char) for face in chain))
    # a sentence of donjon's interface (English, French or German: each written left to right) naming a deck:
    # left to right whatever the name's script, its brackets and separators where the language puts them
    shown = visual(logical, base=0)
    if not fonts.missing(FOOTER_FACE, shown):
        return ((FOOTER_FACE, shown),)
    runs: list[tuple[str, str]] = []
    for char in shown:
        face = next((f for f in chain if not fonts.missing(f, char)), FOOTER_FACE)
        if runs and runs[-1][0] == face:
            runs[-1] = (face, runs[-1][1] + char)
        else:
            runs.append((face, char))
    return tuple(runs)


def _measure_runs(runs: tuple[tuple[str, str], ...]) -> float:
    """The advance of a line's runs at 1 pt."""
    return sum(fonts.measure(face, text) for face, text in runs)


def _placed_runs(runs: tuple[tuple[str, str], ...], x: float, y: float, size: float, ink: str,
                 upwards: bool) -> list[Primitive]:
    """The runs of one line one after the other from (x, y): to the right, or (`upwards`, along a side margin)
    up the page, each turned a quarter turn."""
    out: list[Primitive] = []
    along = 0.0
    for face, text in runs:
        w = fonts.measure(face, text) * size
        if upwards:
            out.append(TextRun(round(x, 3), round(y - along, 3), text, face, size, ink, round(w, 3), rotate=90))
        else:
            out.append(TextRun(round(x + along, 3), round(y, 3), text, face, size, ink, round(w, 3)))
        along += w
    return out


@lru_cache(maxsize=PAGE_PARTS_KEPT)
def _page_line(layout: Grid, text: str, options: PrintOptions, lang: Language | None,
               faces: tuple[str, ...]) -> tuple[Primitive, ...]:
    logical = text  # as the messages quote it and a narrow paper breaks it: in the order it is read, not drawn
    lacking = page_line_lacks(logical, faces)
    if lacking:
        named = ", ".join(map(repr, lacking))  # in the order written
        fitting = ("any of the fonts " if faces else "the font ") + _page_line_fonts(faces)
        raise FitError(f"the page line {logical!r} holds {named}, which {fitting} cannot draw; change the deck's "
                       "name, or give the deck a font that draws it (the fonts of its layouts are tried)")
    runs = _runs(logical, faces)
    m = fonts.metrics(FOOTER_FACE)
    size = FOOTER_SIZE
    crop = CROP_GAP + options.crop_length if options.crop_length > 0 else 0.0
    label = (lang or language())._("50 mm")
    text_w = _measure_runs(runs) * size
    label_w = fonts.width(FOOTER_FACE, label) * size
    gap = mm(3)
    total = text_w + gap + RULER + mm(1.5) + label_w
    # the page line is centred on the page: it may use the page's printable width, however narrow the grid
    room = (layout.page_w if layout.footer == "bottom" else layout.page_h) - 2 * EDGE
    with_ruler = total <= room
    length = total if with_ruler else text_w
    ink = FOOTER_COLOUR
    if length > room:
        # A paper a card fits on may be narrower than the line (A6, 4 x 6 in photo paper): rather than refuse the
        # build over a name the user may not own, the line goes without its ruler, in two lines or smaller.
        return _narrow_page_line(layout, logical, room, crop, ink, faces)
    items: list[Primitive] = []
    if layout.footer == "bottom":
        baseline = layout.y0 + layout.height + crop + FOOTER_GAP + m.ascent * size
        x = layout.page_w / 2 - length / 2
        items += _placed_runs(runs, x, baseline, size, ink, upwards=False)
        if with_ruler:
            rx = x + text_w + gap
            ry = baseline - size * 0.3
            items += [Line(round(rx, 3), round(ry, 3), round(rx + RULER, 3), round(ry, 3), ink, 0.5),
                      Line(round(rx, 3), round(ry - RULER_TICK / 2, 3), round(rx, 3), round(ry + RULER_TICK / 2, 3),
                           ink, 0.5),
                      Line(round(rx + RULER, 3), round(ry - RULER_TICK / 2, 3), round(rx + RULER, 3),
                           round(ry + RULER_TICK / 2, 3), ink, 0.5),
                      TextRun(round(rx + RULER + mm(1.5), 3), round(baseline, 3), label, FOOTER_FACE, size, ink,
                              round(label_w, 3))]
    else:
        # Along the right margin, reading upwards: the baseline is a vertical line right of the crop marks.
        baseline = layout.x0 + layout.width + crop + FOOTER_GAP + m.ascent * size
        y = layout.page_h / 2 + length / 2
        items += _placed_runs(runs, baseline, y, size, ink, upwards=True)
        if with_ruler:
            ry0 = y - text_w - gap
            rx = baseline - size * 0.3
            items += [Line(round(rx, 3), round(ry0, 3), round(rx, 3), round(ry0 - RULER, 3), ink, 0.5),
                      Line(round(rx - RULER_TICK / 2, 3), round(ry0, 3), round(rx + RULER_TICK / 2, 3), round(ry0, 3),
                           ink, 0.5),
                      Line(round(rx - RULER_TICK / 2, 3), round(ry0 - RULER, 3), round(rx + RULER_TICK / 2, 3),
                           round(ry0 - RULER, 3), ink, 0.5),
                      TextRun(round(baseline, 3), round(ry0 - RULER - mm(1.5), 3), label, FOOTER_FACE, size, ink,
                              round(label_w, 3), rotate=90)]
    return tuple(items)


def _narrow_page_line(layout: Grid, logical: str, room: float, crop: float, ink: str,
                      faces: tuple[str, ...]) -> tuple[Primitive, ...]:
    """The page line on a paper too narrow for it in one line at FOOTER_SIZE: broken in two at the separator that
    balances the halves, where the margin is deep enough for two lines, else in one line; set at the largest size
    down to MIN_FOOTER_SIZE that fits `room`, the larger of the two ways (one line at equal size wins). Each line is
    centred along the page, as the page line is."""
    m = fonts.metrics(FOOTER_FACE)
    height = m.ascent + m.descent  # one line's, at 1 pt
    # how deep the margin holding the page line is: the grid to the paper's edge
    depth = (layout.page_h - layout.y0 - layout.height if layout.footer == "bottom"
             else layout.page_w - layout.x0 - layout.width) - crop - FOOTER_GAP - FOOTER_EDGE

    def fitting(lines: list[str]) -> float:
        """The largest size (in 0.01 pt, so the same lines give the same bytes) at which `lines` fit, or 0."""
        widest = max(_measure_runs(_runs(line, faces)) for line in lines)
        size = min(FOOTER_SIZE, math.floor(room / widest * 100) / 100,
                   math.floor(depth / len(lines) / height * 100) / 100)
        return size if size >= MIN_FOOTER_SIZE else 0.0

    parts = logical.split(FOOTER_PARTS)
    halves = [[FOOTER_PARTS.join(parts[:k]), FOOTER_PARTS.join(parts[k:])] for k in range(1, len(parts))]
    ways = [(fitting(lines), -len(lines), lines) for lines in ([logical], *halves)]
    size, _, lines = max(ways, key=lambda way: way[:2])
    if not size:
        one = _measure_runs(_runs(logical, faces)) * MIN_FOOTER_SIZE
        raise FitError(f"the page line {logical!r} is {one / mm(1):.0f} mm long at {MIN_FOOTER_SIZE:g} pt, longer "
                       f"than the {room / mm(1):.0f} mm the page has for it, even in two lines; shorten the deck's "
                       "name or use a wider --paper")
    items: list[Primitive] = []
    for row, line in enumerate(lines):
        runs = _runs(line, faces)
        w = _measure_runs(runs) * size
        down = crop + FOOTER_GAP + m.ascent * size + row * height * size  # from the grid's edge to the baseline
        if layout.footer == "bottom":
            items += _placed_runs(runs, layout.page_w / 2 - w / 2, layout.y0 + layout.height + down, size, ink,
                                  upwards=False)
        else:
            items += _placed_runs(runs, layout.x0 + layout.width + down, layout.page_h / 2 + w / 2, size, ink,
                                  upwards=True)
    return tuple(items)


class PageHeading:
    """What the page line says about the deck, in which language, and the deck's own fonts for what Open Sans
    cannot draw (a name in Arabic, Chinese or Japanese)."""

    __slots__ = ("game", "deck", "lang", "faces")

    game: str
    deck: str
    lang: Language
    #: face ids, tried in this order for each character Open Sans lacks
    faces: tuple[str, ...]

    def __init__(self, game: str, deck: str, lang: Language = language(), faces: tuple[str, ...] = ()) -> None:
        self.game = game
        self.deck = deck
        self.lang = lang
        self.faces = faces


def page_count(cards: int, layout: Grid, options: PrintOptions) -> int:
    sheets = max(1, math.ceil(cards / layout.per_page))
    return sheets * (1 if options.duplex in ("none", "fold") else 2)


class Sided:
    """A card printed with a back of its own."""

    __slots__ = ("front", "back")

    front: Drawing
    back: Drawing

    def __init__(self, front: Drawing, back: Drawing) -> None:
        self.front = front
        self.back = back


def _label(heading: PageHeading, kind: PageKind, number: int, total: int, options: PrintOptions) -> str:
    lang = heading.lang
    side = (lang._("fronts") if kind == "fronts" else lang._("fronts and backs: fold on the dashed line, glue, then cut")
            if kind == "fold" else lang._("backs, flip on the long edge") if options.duplex == "long"
            else lang._("backs, flip on the short edge"))
    title = heading.deck if heading.game == heading.deck else f"{heading.game} · {heading.deck}"
    page = lang._("page {number} of {total}").format(number=lang.number(number), total=lang.number(total))
    scale = lang._("print at 100% (actual size)")
    text = f"{title} · {side} · {page} · {scale}"
    return fonts.typeset(lang, FOOTER_FACE, text)


def back_position(layout: Grid, front: tuple[float, float], options: PrintOptions) -> tuple[float, float, bool]:
    """Where the back of the card whose front is at `front` goes on the back page, and whether it is turned."""
    x, y = front
    dx, dy = options.back_offset
    if options.flip_axis == "vertical":
        return layout.page_w - x - layout.card_w + dx, y - dy, False
    return x + dx, layout.page_h - y - layout.card_h - dy, True


def pages(cards: Iterable[Drawing | Sided], count: int, back: Drawing | None, layout: Grid, options: PrintOptions,
          heading: PageHeading) -> Iterator[Page]:
    """The pages of a deck: each page of fronts, then (duplex) the page of their backs; or (fold) each page of
    fronts and backs side by side.

    `cards` yields one drawing per card printed (copies included), `count` of them, each with its own back
    (:class:`Sided`) or with the deck's `back`; they are drawn as the pages are made, so a deck of any size needs
    the memory of one page.
    """
    total = page_count(count, layout, options)
    number = 0
    batch: list[Drawing | Sided] = []

    def emit(batch: list[Drawing | Sided]) -> Iterator[Page]:
        nonlocal number
        number += 1
        spots = [layout.slot(i) for i in range(len(batch))]
        fronts = [item.front if isinstance(item, Sided) else item for item in batch]
        behind = [item.back if isinstance(item, Sided) else back for item in batch]
        placed = tuple(Placed(d, x, y) for d, (x, y) in zip(fronts, spots))
        shaped = any(d.outline is not None for d in fronts)
        extra = cut_lines([layout], len(batch), options) if options.cut_lines and not shaped else []
        if options.duplex == "fold":
            backs = tuple(Placed(d, *fold_position(layout, spot)) for d, spot in zip(behind, spots) if d is not None)
            other = mirrored(layout)
            marks = crop_marks(layout, len(batch), options) + extra
            # the backs' marks mirror the fronts' (on a part-filled page, the backs sit in the mirrored slots)
            items = marks + [mirror_line(layout, line) for line in marks if isinstance(line, Line)]
            extra = []
            footer = span(layout, other)
            items += [*extra, *outlines(placed + backs), fold_line(layout, options),
                      *page_line(footer, _label(heading, "fold", number, total, options), options, heading.lang,
                                heading.faces)]
            yield Page(layout.page_w, layout.page_h, placed + backs, tuple(items), "fold", number, scale=options.scale)
            return
        items = crop_marks(layout, len(batch), options) + extra + outlines(placed) + page_line(
            layout, _label(heading, "fronts", number, total, options), options, heading.lang, heading.faces)
        yield Page(layout.page_w, layout.page_h, placed, tuple(items), "fronts", number, scale=options.scale)
        if options.duplex != "none" and any(d is not None for d in behind):
            number += 1
            backs = tuple(Placed(d, *back_position(layout, spot, options)) for d, spot in zip(behind, spots)
                          if d is not None)
            yield Page(layout.page_w, layout.page_h, backs,
                       tuple(page_line(layout, _label(heading, "backs", number, total, options), options,
                                       heading.lang, heading.faces)), "backs",
                       number, scale=options.scale)

    for item in cards:
        batch.append(item)
        if len(batch) == layout.per_page:
            yield from emit(batch)
            batch = []
    if batch or number == 0:
        yield from emit(batch)
