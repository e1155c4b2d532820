"""The calibration sheet (`donjon build calibration`): measures a home printer's duplex offset and scale.

Two pages, printed duplex like any deck (flipped on the long edge):

- **front**: a grid of crosses (`COLUMNS` x `ROWS`, `PITCH` apart), and rulers along both axes (`RULER_X` and
  `RULER_Y` long, a tick every millimetre, a longer one every 5 and a number every 10);
- **back**: the same rulers, and behind each front cross a cross moved by its own offset, labelled with it: the
  columns step the offset in x, the rows in y, by `STEP` (from -`REACH` to +`REACH`). Held against the light, the back
  cross that lies exactly on its front cross is labelled with the value to save: `donjon printer add NAME
  --back-offset X,Y` (x to the right and y upwards as seen on the back, as `--back-offset` reads them).
- the rulers give the scale: a 150 mm ruler measuring 149.4 mm prints 0.4 % short, and `--scale 1.004,...` makes up
  for it (150 / 149.4).

Every word printed on the sheet is in :data:`WORDS` (marked for the translation catalogs, translated into the
language the sheet is drawn in).
"""

from __future__ import annotations

from generator.i18n import N_, Language, language
from generator.render import fonts
from generator.render.imposition import EDGE, PrintOptions, back_position, grid
from generator.render.model import Line, Page, Primitive, TextRun, mm

#: The printed words of the sheet, in one place (in English: translated where drawn).
WORDS = {
    "front-long": N_("donjon calibration · front · print at 100% (actual size), both sides, flipped on the long edge"),
    "front-short": N_("donjon calibration · front · print at 100% (actual size), both sides, flipped on the short "
                      "edge"),
    "back": N_("donjon calibration · back · hold against the light: the cross on its front cross gives "
               "--back-offset X,Y"),
    "ruler": N_("{length} mm"),
}
COLUMNS = ROWS = 9
PITCH = mm(18)
#: Offsets of the back crosses: -REACH to +REACH in steps of STEP (millimetres).
STEP = 0.5
REACH = 2.0
CROSS = mm(3)
RULER_X = 150
RULER_Y = 200
INK = "#000000"
LABEL_SIZE = 5.0
FACE = "open-sans"


def offsets() -> list[float]:
    count = int(round(2 * REACH / STEP)) + 1
    return [round(-REACH + i * STEP, 3) for i in range(count)]


def centres(page_w: float, page_h: float) -> list[tuple[float, float]]:
    """The front crosses' centres, row by row from the top-left (points, y down)."""
    x0 = page_w / 2 - (COLUMNS - 1) / 2 * PITCH + mm(8)
    y0 = page_h / 2 - (ROWS - 1) / 2 * PITCH + mm(8)
    return [(x0 + c * PITCH, y0 + r * PITCH) for r in range(ROWS) for c in range(COLUMNS)]


def _cross(x: float, y: float) -> list[Primitive]:
    h = CROSS / 2
    return [Line(round(x - h, 3), round(y, 3), round(x + h, 3), round(y, 3), INK, 0.25),
            Line(round(x, 3), round(y - h, 3), round(x, 3), round(y + h, 3), INK, 0.25)]


def _label(text: str, x: float, y: float, size: float = LABEL_SIZE) -> TextRun:
    width = fonts.width(FACE, text) * size
    return TextRun(round(x, 3), round(y, 3), text, FACE, size, INK, round(width, 3))


def rulers(page_w: float, page_h: float, lang: Language | None = None) -> list[Primitive]:
    """A horizontal ruler along the top and a vertical one along the left, millimetre ticks (labelled in `lang`)."""
    words = WORDS["ruler"]  # a name, not a subscript, inside _(): Babel would extract the subscript's key
    ruler = (lang or language())._(words)
    items: list[Primitive] = []
    left, top = mm(12), mm(12)
    items.append(Line(left, top, round(left + mm(RULER_X), 3), top, INK, 0.25))
    for i in range(RULER_X + 1):
        tick = mm(3) if i % 10 == 0 else mm(2) if i % 5 == 0 else mm(1)
        x = round(left + mm(i), 3)
        items.append(Line(x, top, x, round(top + tick, 3), INK, 0.15))
        if i % 10 == 0 and i:
            items.append(_label(str(i), x - 2, top + mm(5.5)))
    items.append(_label(ruler.format(length=RULER_X), left + mm(RULER_X) + mm(2), top + mm(1)))
    items.append(Line(left, top, left, round(top + mm(RULER_Y), 3), INK, 0.25))
    for i in range(RULER_Y + 1):
        tick = mm(3) if i % 10 == 0 else mm(2) if i % 5 == 0 else mm(1)
        y = round(top + mm(i), 3)
        items.append(Line(left, y, round(left + tick, 3), y, INK, 0.15))
        if i % 10 == 0 and i:
            items.append(_label(str(i), left + mm(4), y + 1.5))
    items.append(_label(ruler.format(length=RULER_Y), left, top + mm(RULER_Y) + mm(4)))
    return items


def sheet(options: PrintOptions, lang: Language | None = None) -> list[Page]:
    """The two pages of the calibration sheet on the paper and duplex edge of `options`, its words in `lang`."""
    lang = lang or language()
    page_w, page_h = options.page_size
    front: list[Primitive] = [*rulers(page_w, page_h, lang)]
    for x, y in centres(page_w, page_h):
        front += _cross(x, y)
    words = WORDS["front-short"] if options.duplex == "short" else WORDS["front-long"]
    front.append(_label(fonts.typeset(lang, FACE, lang._(words)), mm(12), page_h - mm(8), 6.5))
    back: list[Primitive] = [*rulers(page_w, page_h, lang)]
    # the back of a front cross lands where a card's back would: back_position of a zero-size card at the cross
    layout = grid(1.0, 1.0, options._replace(bleed=0.0, gutter=0.0))._replace(card_w=0.0, card_h=0.0)
    steps = offsets()
    for index, (x, y) in enumerate(centres(page_w, page_h)):
        dx, dy = steps[index % COLUMNS], steps[index // COLUMNS]
        bx, by, _turned = back_position(layout, (x, y), options._replace(back_offset=(mm(dx), mm(dy))))
        back += _cross(bx, by)
        back.append(_label(f"{dx:+g},{dy:+g}", bx + mm(1), by + mm(3.5)))
    words = WORDS["back"]
    back.append(_label(fonts.typeset(lang, FACE, lang._(words)), mm(12), page_h - mm(8), 6.5))
    return [Page(page_w, page_h, (), tuple(front), "fronts", 1, scale=options.scale),
            Page(page_w, page_h, (), tuple(back), "backs", 2, scale=options.scale)]


def printable(pages: list[Page]) -> bool:
    """Whether every line and word of the pages lies inside the band printers leave blank (`EDGE` from each side),
    as printed: moved by the page's scale about its centre and its offset (a saved printer's, `--printer`). A ruler
    the paper's edge cuts measures nothing."""
    for page in pages:
        (sx, sy), (dx, dy) = page.scale, page.offset
        cx, cy = page.width / 2, page.height / 2
        for item in page.items:
            if isinstance(item, Line):
                box = (min(item.x1, item.x2), min(item.y1, item.y2), max(item.x1, item.x2), max(item.y1, item.y2))
            elif isinstance(item, TextRun):
                box = (item.x, item.y - item.size, item.x + item.width, item.y)
            else:
                continue
            left, top = cx + (box[0] - cx) * sx + dx, cy + (box[1] - cy) * sy + dy
            right, bottom = cx + (box[2] - cx) * sx + dx, cy + (box[3] - cy) * sy + dy
            if left < EDGE or top < EDGE or right > page.width - EDGE or bottom > page.height - EDGE:
                return False
    return True


#: The sizes between which the smallest paper the sheet fits is searched, in whole millimetres: smaller than any
#: paper it fits, and larger than its rulers and crosses need (within the papers `--paper` accepts).
SEARCH_MM = (100, 600)


def smallest_paper(options: PrintOptions) -> tuple[int, int] | None:
    """The smallest portrait paper, in whole millimetres across and down, on which the sheet is printable with the
    printer's scale and offset of `options`: the width searched on a tall page, then the height at that width (the
    crosses are centred, the rulers drawn from the top left corner and the words along the foot, so a larger paper
    never cuts what a smaller one holds at a scale of 1). None when the search finds none: a scale well above 1
    moves the rulers drawn from a corner towards the edge the more, the larger the paper."""
    def fits(w: int, h: int) -> bool:
        return printable(sheet(options._replace(paper=f"{w}x{h}mm", orientation="portrait")))

    def least(ok: object) -> int:
        low, high = SEARCH_MM  # ok(high) holds, ok(low) does not
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (low, middle) if ok(middle) else (middle, high)  # type: ignore[operator]
        return high

    width = least(lambda w: fits(w, SEARCH_MM[1]))
    height = least(lambda h: fits(width, h))
    return (width, height) if fits(width, height) else None
