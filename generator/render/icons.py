"""Our own vector icons: materials, tokens, guest kinds, castle parts and the Guildhall colour symbols.

Each icon is drawn in a 100 x 100 box (origin top-left, y down) as one or more layers; a layer is a set of
closed subpaths filled with the even-odd rule, so an inner subpath cuts a hole (the rings of a log, the door of
a tower). Every layer takes the colour the icon is drawn in, so an icon reads in any colour on any background
and a backend can define it once and reuse it (a PDF form, an SVG symbol).

In text an icon sits on the baseline: its box spans :data:`ICON_RISE` of the text size above the baseline,
and it advances the pen by :data:`ICON_ADVANCE` of the text size (the box plus a little air on each side).
"""

from __future__ import annotations

import math
from functools import cache

from generator.render.model import KAPPA

Op = tuple[str | float, ...]
Layer = tuple[Op, ...]

#: The icon's square, as a fraction of the text size (a little taller than a capital letter).
ICON_RISE = 0.82
#: The pen advance of an inline icon, as a fraction of the text size.
ICON_ADVANCE = 0.96
#: Room left of the icon's square in text, so icons do not touch their neighbours.
ICON_SIDE = (ICON_ADVANCE - ICON_RISE) / 2


def _r(v: float) -> float:
    return round(v, 2)


def circle(cx: float, cy: float, r: float) -> Layer:
    return ellipse(cx, cy, r, r)


def ellipse(cx: float, cy: float, rx: float, ry: float) -> Layer:
    kx, ky = rx * KAPPA, ry * KAPPA
    return (
        ("M", _r(cx + rx), _r(cy)),
        ("C", _r(cx + rx), _r(cy + ky), _r(cx + kx), _r(cy + ry), _r(cx), _r(cy + ry)),
        ("C", _r(cx - kx), _r(cy + ry), _r(cx - rx), _r(cy + ky), _r(cx - rx), _r(cy)),
        ("C", _r(cx - rx), _r(cy - ky), _r(cx - kx), _r(cy - ry), _r(cx), _r(cy - ry)),
        ("C", _r(cx + kx), _r(cy - ry), _r(cx + rx), _r(cy - ky), _r(cx + rx), _r(cy)),
        ("Z",),
    )


def poly(*points: tuple[float, float]) -> Layer:
    first, *rest = points
    return (("M", _r(first[0]), _r(first[1])), *(("L", _r(x), _r(y)) for x, y in rest), ("Z",))


def rect(x: float, y: float, w: float, h: float) -> Layer:
    return poly((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def rounded(x: float, y: float, w: float, h: float, r: float) -> Layer:
    k = r * (1 - KAPPA)
    return (
        ("M", _r(x + r), _r(y)), ("L", _r(x + w - r), _r(y)),
        ("C", _r(x + w - k), _r(y), _r(x + w), _r(y + k), _r(x + w), _r(y + r)),
        ("L", _r(x + w), _r(y + h - r)),
        ("C", _r(x + w), _r(y + h - k), _r(x + w - k), _r(y + h), _r(x + w - r), _r(y + h)),
        ("L", _r(x + r), _r(y + h)),
        ("C", _r(x + k), _r(y + h), _r(x), _r(y + h - k), _r(x), _r(y + h - r)),
        ("L", _r(x), _r(y + r)),
        ("C", _r(x), _r(y + k), _r(x + k), _r(y), _r(x + r), _r(y)),
        ("Z",),
    )


def regular(cx: float, cy: float, r: float, sides: int, start_deg: float = -90) -> Layer:
    return poly(*((cx + r * math.cos(math.radians(start_deg + i * 360 / sides)),
                   cy + r * math.sin(math.radians(start_deg + i * 360 / sides))) for i in range(sides)))


def star(cx: float, cy: float, outer: float, inner: float, points: int = 5) -> Layer:
    corners = []
    for i in range(points * 2):
        radius = outer if i % 2 == 0 else inner
        angle = math.radians(-90 + i * 180 / points)
        corners.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return poly(*corners)


def _join(*layers: Layer) -> Layer:
    """Several subpaths as one layer (even-odd: where they overlap, a hole)."""
    return tuple(op for layer in layers for op in layer)


def _coil() -> Layer:
    """A coiled rope seen from above: a thick spiral (outline computed from its centre line) with a loose end."""
    thickness = 8.5
    inner, step = 9.0, 12.5  # radius where the spiral starts; how much it grows per turn
    turns = 2.55
    outer_edge: list[tuple[float, float]] = []
    inner_edge: list[tuple[float, float]] = []
    samples = int(turns * 32)  # 32 points a turn: smooth at any size an icon is printed
    for i in range(samples + 1):
        theta = i / 32 * 2 * math.pi
        radius = inner + step * theta / (2 * math.pi)
        c, s = math.cos(theta), math.sin(theta)
        outer_edge.append((50 + (radius + thickness / 2) * c, 50 + (radius + thickness / 2) * s))
        inner_edge.append((50 + (radius - thickness / 2) * c, 50 + (radius - thickness / 2) * s))
    return poly(*outer_edge, *reversed(inner_edge))


def _coin_edge(y: float) -> Layer:
    """The rim of a coin in a stack, seen from the side (its top face hidden by the coin above)."""
    return (("M", 6, y), ("C", 6, y + 20, 94, y + 20, 94, y), ("L", 94, y + 9), ("C", 94, y + 29, 6, y + 29, 6, y + 9),
            ("Z",))


def _wall() -> Layer:
    merlons = [rect(4 + i * 36, 4, 20, 14) for i in range(3)]
    rows, top, bottom, gap = 3, 22.0, 96.0, 4.0
    height = (bottom - top - gap * (rows - 1)) / rows
    bricks = []
    for row in range(rows):
        y = top + row * (height + gap)
        edges = [4.0, 34.0, 66.0, 96.0] if row % 2 == 0 else [4.0, 18.0, 50.0, 82.0, 96.0]
        for left, right in zip(edges, edges[1:]):
            bricks.append(rect(left + (gap / 2 if left > 4 else 0), y,
                               right - left - (gap / 2 if left > 4 else 0) - (gap / 2 if right < 96 else 0), height))
    return _join(*merlons, *bricks)


#: A cloud as one closed outline (four lobes over a flat base), in the 100 x 100 box: the `cloud` icon, and the
#: dashed spots of the castle sheet's sky, drawn with the same curve.
CLOUD: Layer = (
    ("M", 16, 80), ("L", 84, 80),
    ("C", 96, 80, 100, 60, 88, 55),
    ("C", 91, 39, 75, 31, 64, 37),
    ("C", 60, 18, 34, 16, 31, 35),
    ("C", 18, 31, 5, 42, 11, 56),
    ("C", 1, 61, 4, 80, 16, 80),
    ("Z",),
)


def _sun() -> tuple[Layer, ...]:
    """A disc and eight rays (the rays one layer: they never overlap)."""
    rays = []
    for i in range(8):
        angle = math.radians(i * 45)
        c, s = math.cos(angle), math.sin(angle)
        tip = (50 + 47 * c, 50 + 47 * s)
        left = (50 + 31 * c - 7 * s, 50 + 31 * s + 7 * c)
        right = (50 + 31 * c + 7 * s, 50 + 31 * s - 7 * c)
        rays.append(poly(left, tip, right))
    return (circle(50, 50, 24), _join(*rays))


def _icons() -> dict[str, tuple[Layer, ...]]:
    return {
        # --- Guildhall colour symbols: one per colour, so the colours can be told apart without colour vision
        "triangle": (poly((50, 6), (96, 90), (4, 90)),),
        "circle": (circle(50, 50, 45),),
        "square": (rect(8, 8, 84, 84),),
        "star": (star(50, 54, 48, 19),),
        "diamond": (poly((50, 2), (94, 50), (50, 98), (6, 50)),),
        "hexagon": (regular(50, 50, 47, 6),),
        "cross": (poly((35, 5), (65, 5), (65, 35), (95, 35), (95, 65), (65, 65), (65, 95), (35, 95), (35, 65),
                       (5, 65), (5, 35), (35, 35)),),
        # the mark of a value that no rulebook states (small print says how sure we are)
        "inferred": (_join(poly((50, 6), (92, 50), (50, 94), (8, 50)), poly((50, 24), (74, 50), (50, 76), (26, 50))),),
        # --- materials and products (Guédelon; wood and stone also in Once Upon a Castle)
        "wood": tuple(_join(circle(cx, cy, 21), circle(cx, cy, 14), circle(cx, cy, 6.5))
                      for cx, cy in ((27, 73), (73, 73), (50, 32))),
        "stone": (_join(poly((8, 88), (4, 62), (16, 38), (38, 20), (64, 14), (88, 30), (97, 58), (90, 86)),
                        poly((46, 26), (57, 43), (47, 61), (51, 63), (62, 43), (51, 26))),),
        "clay": (_join((("M", 4, 90), ("C", 8, 52, 28, 22, 50, 22), ("C", 72, 22, 92, 52, 96, 90), ("Z",)),
                       ellipse(38, 60, 9, 5), ellipse(63, 72, 8, 4.5)),),
        "beam": (rect(4, 54, 76, 28), poly((4, 50), (20, 34), (96, 34), (80, 50)), poly((84, 52), (96, 38), (96, 68),
                                                                                        (84, 82))),
        "cut-stone": (rect(6, 42, 56, 54), poly((6, 38), (32, 12), (96, 12), (66, 38)), poly((66, 42), (96, 16),
                                                                                              (96, 70), (66, 96))),
        "tile": tuple(
            (("M", x0, 92), ("L", x0, 52), ("C", x0, 28, x0 + 30, 28, x0 + 30, 52), ("L", x0 + 30, 92),
             ("L", x0 + 22, 92), ("L", x0 + 22, 54), ("C", x0 + 22, 40, x0 + 8, 40, x0 + 8, 54), ("L", x0 + 8, 92),
             ("Z",))
            for x0 in (4, 35, 66)),
        "rope": (_coil(),),
        "mortar": (_join(poly((4, 50), (96, 50), (86, 94), (14, 94)), rect(14, 62, 72, 6)),
                   (("M", 14, 46), ("C", 20, 14, 80, 14, 86, 46), ("Z",))),
        "gold": (*(_coin_edge(y) for y in (64, 50, 36)),
                 _join(ellipse(50, 34, 44, 15), ellipse(50, 34, 35, 10.5), ellipse(50, 34, 28, 7.5))),
        "food": (_join((("M", 4, 84), ("L", 4, 62), ("C", 4, 26, 96, 26, 96, 62), ("L", 96, 84), ("Z",)),
                       poly((28, 44), (34, 40), (44, 60), (38, 64)), poly((48, 40), (54, 36), (64, 56), (58, 60)),
                       poly((68, 44), (74, 40), (82, 56), (76, 60))),),
        # --- tokens and scoring
        "vp": (_join(circle(50, 50, 46), star(50, 53, 34, 14)),),
        "chapter": (_join(rounded(6, 4, 50, 66, 7), rounded(13, 11, 36, 52, 3)),
                    _join(rounded(22, 16, 50, 66, 7), rounded(29, 23, 36, 52, 3)),
                    rounded(40, 30, 54, 68, 7)),
        "bolt": (poly((60, 2), (16, 56), (44, 56), (32, 98), (84, 38), (56, 38), (72, 2)),),
        "hourglass": (rect(12, 4, 76, 10), rect(12, 86, 76, 10),
                      _join(poly((20, 18), (80, 18), (80, 26), (57, 50), (80, 74), (80, 82), (20, 82), (20, 74),
                                 (43, 50), (20, 26)),
                            poly((29, 26), (71, 26), (50, 46)))),
        "crown": (_join(poly((8, 80), (8, 34), (30, 54), (50, 22), (70, 54), (92, 34), (92, 80))),
                  rect(8, 85, 84, 11), circle(8, 26, 7), circle(50, 13, 7), circle(92, 26, 7)),
        # --- castle parts and people
        "tower": (_join(poly((20, 98), (20, 34), (14, 34), (14, 4), (29, 4), (29, 16), (42, 16), (42, 4), (58, 4),
                             (58, 16), (71, 16), (71, 4), (86, 4), (86, 34), (80, 34), (80, 98)),
                        (("M", 40, 98), ("L", 40, 78), ("C", 40, 66, 60, 66, 60, 78), ("L", 60, 98), ("Z",)),
                        rect(45, 42, 10, 14)),),
        "wall": (_wall(),),
        # --- the sky of a castle sheet
        "sun": _sun(),
        "cloud": (CLOUD,),
        "flag": (rect(12, 8, 8, 90), circle(16, 7, 6),
                 poly((20, 12), (94, 12), (74, 34), (94, 56), (20, 56))),
        "resident": (circle(50, 22, 17),
                     (("M", 16, 98), ("L", 16, 78), ("C", 16, 54, 32, 44, 50, 44), ("C", 68, 44, 84, 54, 84, 78),
                      ("L", 84, 98), ("Z",))),
        # a resident to colour in (the castle sheet's track): the same figure, outlined
        "resident-blank": (_join(circle(50, 22, 17), circle(50, 22, 12.5)),
                           _join((("M", 16, 98), ("L", 16, 78), ("C", 16, 54, 32, 44, 50, 44),
                                  ("C", 68, 44, 84, 54, 84, 78), ("L", 84, 98), ("Z",)),
                                 (("M", 20.5, 93.5), ("L", 20.5, 78), ("C", 20.5, 58, 34, 48.5, 50, 48.5),
                                  ("C", 66, 48.5, 79.5, 58, 79.5, 78), ("L", 79.5, 93.5), ("Z",)))),
    }


@cache
def icons() -> dict[str, tuple[Layer, ...]]:
    """Every icon by name."""
    return _icons()


def names() -> list[str]:
    return sorted(icons())


#: The character an icon stands for where it carries meaning a reader must not lose, and the built-in face that
#: holds it: the PDF backend writes it as invisible text over the icon, so copying the text of a PDF, or a screen
#: reader, gets the character instead of nothing. The `inferred` mark, a hollow diamond, reads as U+25CA LOZENGE
#: ("the values marked ◊ are not official"): every built-in face has it (none has U+25C7 WHITE DIAMOND).
TEXT_EQUIVALENTS: dict[str, tuple[str, str]] = {"inferred": ("\u25ca", "open-sans")}


def layers(name: str) -> tuple[Layer, ...]:
    """The layers of icon `name` (a KeyError for an unknown name: callers check names where they enter)."""
    return icons()[name]
