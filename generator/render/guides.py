"""Guides over a card (`donjon build --guides`, a proof to check a layout, never for print): where it is cut,
how far its bleed reaches, and the safe area that text and icons keep inside.

Drawn over everything, as thin lines in colours no card uses for print: the cut line solid magenta, the bleed's
edge dashed cyan, the safe area dashed green. They follow the piece's shape (a hexagon's guides are hexagons).
"""

from __future__ import annotations

from generator.catalog.shapes import RECT, Shape
from generator.render.model import Paint, Path, Primitive

#: The guides' colours, widths and dashes: strong enough to see at a glance, thin enough not to hide the card.
CUT = Paint(None, "#e4007c", 0.5)
BLEED = Paint(None, "#00a0e9", 0.5, (2.0, 1.5))
SAFE = Paint(None, "#1f9e3a", 0.5, (1.0, 1.5))


def guide_lines(shape: Shape | None, width: float, height: float, bleed: float, safe: float) -> list[Primitive]:
    """The guides of a piece of `width` x `height` points with `bleed` around it and text kept `safe` inside."""
    from generator.render.shapes import outline

    shape = shape or RECT
    lines: list[Primitive] = [Path(outline(shape, 0.0, 0.0, width, height), CUT, evenodd=False)]
    if bleed > 0:
        lines.append(Path(outline(shape, 0.0, 0.0, width, height, bleed), BLEED, evenodd=False))
    if safe > 0:
        lines.append(Path(outline(shape, 0.0, 0.0, width, height, -safe), SAFE, evenodd=False))
    return lines
