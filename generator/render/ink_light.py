"""`--ink light`: a card drawn to spare a home printer's ink, every word still readable.

A drawing is turned into its ink-light version shape by shape, after it is laid out, so every layout gets one.
The background (which fills the card and its bleed) is dropped: the paper shows. A layout says which of its
boxes are decoration (`decoration: true`): those are made light as below, and every other box keeps its look,
its text included unless that text is too light to read on the paper and no box kept under it gives it a ground.
A layout that marks no box has every box made light. Made light:

- filled shapes become light tints of their colour (`TINT` of the way to white), which keep the card's colour code
  recognisable; their outlines are kept, and a filled shape without one gets a thin outline in its own colour, so
  its edge still shows;
- pictures (card art) are drawn as a thin frame of their box: art is where most of a card's ink goes;
- text and icons stay, in their colour when it is dark enough to read on paper, else in the cards' dark ink (white
  text was written on a dark ground that is now gone), without the outline drawn around letters over art;
- a gradient fill becomes the same gradient of tints; a group (a turned, clipped or see-through box) keeps its
  turn, clip and opacity, its contents made light the same way, and its mask (a picture) is dropped.
"""

from __future__ import annotations

from generator.render.colour import DARK_INK, _luminance
from generator.render.model import (
    Circle,
    Drawing,
    Gradient,
    Group,
    IconUse,
    ImageUse,
    Line,
    Paint,
    Path,
    Primitive,
    Rect,
    TextRun,
)

#: How far towards white a filled shape's colour goes: 85 % leaves a tint that prints with little ink.
TINT = 0.85
#: Text lighter than this (WCAG relative luminance) is not readable on white paper and is printed in dark ink.
READABLE = 0.45
#: The outline given to art and to filled shapes without one, in points.
OUTLINE = 0.5
FRAME = "#9a9a9a"


def _tint(colour: str) -> str:
    channels = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(v + (255 - v) * TINT):02x}" for v in channels)


def _readable(colour: str) -> str:
    return colour if _luminance(colour) <= READABLE else DARK_INK


def _paint(paint: Paint) -> Paint:
    fill = paint.fill
    if fill is None:
        return paint
    if isinstance(fill, Gradient):
        light = fill._replace(stops=tuple((offset, _tint(colour)) for offset, colour in fill.stops))
        return paint._replace(fill=light, stroke=paint.stroke or fill.stops[-1][1], width=paint.width or OUTLINE)
    stroke = paint.stroke or fill
    return paint._replace(fill=_tint(fill), stroke=stroke, width=paint.width or OUTLINE)


def _light(item: Primitive) -> Primitive:
    """`item` made light (see the module's notes)."""
    if isinstance(item, (Rect, Circle, Path)):
        return item._replace(paint=_paint(item.paint))
    if isinstance(item, TextRun):
        return item._replace(colour=_readable(item.colour), outline=None, outline_width=0.0)
    if isinstance(item, Group):
        return item._replace(items=tuple(_light(inner) for inner in item.items), mask=None)
    if isinstance(item, IconUse):
        return item._replace(colour=_readable(item.colour))
    if isinstance(item, ImageUse):
        return Rect(item.x, item.y, item.w, item.h, Paint(None, FRAME, OUTLINE))
    assert isinstance(item, Line)
    return item


def _marked(items: tuple[Primitive, ...]) -> bool:
    """Whether any box of the drawing is marked as decoration."""
    return any(isinstance(item, Group) and (item.decoration or _marked(item.items)) for item in items)


def _kept(items: tuple[Primitive, ...], grounds: list[tuple[float, float, float, float]]) -> tuple[Primitive, ...]:
    """A drawing whose layout marks its decoration: decoration made light, the rest kept as it is, but for text and
    icons too light to read on the paper with no kept box under them (`grounds`: the extents of the kept boxes
    drawn so far, in the items' own coordinates)."""
    from generator.render.shapes import extent

    def grounded(x: float, y: float) -> bool:
        return any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in grounds)

    out: list[Primitive] = []
    for item in items:
        if isinstance(item, Group):
            if item.decoration:
                out.append(_light(item))
                continue
            # a turned group's coordinates are not its drawing's: what lies under it outside it is not known
            out.append(item._replace(items=_kept(item.items, grounds if item.matrix is None else [])))
        elif isinstance(item, (TextRun, IconUse)):
            middle = ((item.x + item.width / 2, item.y - item.size / 3) if isinstance(item, TextRun)
                      else (item.x + item.size / 2, item.y + item.size / 2))
            readable = _readable(item.colour) == item.colour
            out.append(item if readable or grounded(*middle) else _light(item))
        else:
            out.append(item)
        if isinstance(item, ImageUse) or (isinstance(item, (Rect, Circle, Path)) and item.paint.fill is not None):
            grounds.append(extent((item,)))
    return tuple(out)


def ink_light(drawing: Drawing) -> Drawing:
    """The ink-light version of a card face or back (see the module's notes)."""
    if _marked(drawing.items):
        items = _kept(drawing.items, [])
    else:
        items = tuple(_light(item) for item in drawing.items)
    return drawing._replace(items=items, background=None, key=f"light:{drawing.key}" if drawing.key else None)
