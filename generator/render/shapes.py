"""The geometry of outlines: rounded rectangles with a radius per corner, ellipses, regular polygons, stars,
polygons through given points, SVG path data, all as path operations of the drawing model (y down, points).

Layouts draw their shape boxes and clip their pictures with it, and a deck's pieces (`shape:` in its deck file,
:mod:`generator.catalog.shapes`) are cut along it: :func:`outline` gives a shape inside a box, grown by the
bleed or shrunk to the safe area (`grow`). Curves are cubic Béziers only, as the model has: SVG's quadratic
curves and elliptical arcs become cubics here, so the PDF and the SVG output draw one and the same outline.

Also here: the turning of a box (:func:`rotation`, a matrix in SVG's sense), the span of a linear gradient across a
box, and the lines that hatch one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from generator.catalog.shapes import PathDataError as PathDataError  # re-exported: the path reader's error
from generator.catalog.shapes import Shape
from generator.catalog.shapes import parse_path as parse_path  # re-exported: layouts read their paths with it
from generator.render.model import (
    KAPPA,
    Circle,
    Group,
    IconUse,
    ImageUse,
    Line,
    Matrix,
    Op,
    Path,
    Primitive,
    Rect,
    TextRun,
)

Ops = tuple[Op, ...]
Point = tuple[float, float]

#: How far a grown corner may reach from its point, in widths of the growth, before it is cut square (a bevel):
#: a star's tips (36 degrees for five points) reach 3.2 widths and stay sharp; a needle's would reach for miles.
MITER_LIMIT = 4.0
#: Each curve of a path is followed by this many straight segments when the path is grown (bleed, safe area):
#: at a card's sizes the chord strays less than a hundredth of a millimetre from the curve.
FLATTEN_STEPS = 16


def _r(value: float) -> float:
    return round(value, 3)


# --- outlines -----------------------------------------------------------------------------------------------------

def rounded_rect(x: float, y: float, w: float, h: float, radii: Sequence[float]) -> Ops:
    """A rectangle whose corners (top-left, top-right, bottom-right, bottom-left) are rounded by their radius;
    radii too large for a side shrink together, as CSS's do, so two half-side radii make a stadium."""
    tl, tr, br, bl = (max(0.0, r) for r in radii)
    sums = [(tl + tr, w), (bl + br, w), (tl + bl, h), (tr + br, h)]
    scale = min([1.0] + [side / total for total, side in sums if total > side > 0])
    tl, tr, br, bl = tl * scale, tr * scale, br * scale, bl * scale
    x2, y2 = x + w, y + h
    ops: list[Op] = [("M", _r(x + tl), _r(y)), ("L", _r(x2 - tr), _r(y))]
    if tr:
        k = tr * KAPPA
        ops.append(("C", _r(x2 - tr + k), _r(y), _r(x2), _r(y + tr - k), _r(x2), _r(y + tr)))
    ops.append(("L", _r(x2), _r(y2 - br)))
    if br:
        k = br * KAPPA
        ops.append(("C", _r(x2), _r(y2 - br + k), _r(x2 - br + k), _r(y2), _r(x2 - br), _r(y2)))
    ops.append(("L", _r(x + bl), _r(y2)))
    if bl:
        k = bl * KAPPA
        ops.append(("C", _r(x + bl - k), _r(y2), _r(x), _r(y2 - bl + k), _r(x), _r(y2 - bl)))
    ops.append(("L", _r(x), _r(y + tl)))
    if tl:
        k = tl * KAPPA
        ops.append(("C", _r(x), _r(y + tl - k), _r(x + tl - k), _r(y), _r(x + tl), _r(y)))
    ops.append(("Z",))
    return tuple(ops)


def ellipse(cx: float, cy: float, rx: float, ry: float) -> Ops:
    """An ellipse as four cubic quarter arcs (a circle when rx == ry), starting at its rightmost point."""
    kx, ky = rx * KAPPA, ry * KAPPA
    return (("M", _r(cx + rx), _r(cy)),
            ("C", _r(cx + rx), _r(cy + ky), _r(cx + kx), _r(cy + ry), _r(cx), _r(cy + ry)),
            ("C", _r(cx - kx), _r(cy + ry), _r(cx - rx), _r(cy + ky), _r(cx - rx), _r(cy)),
            ("C", _r(cx - rx), _r(cy - ky), _r(cx - kx), _r(cy - ry), _r(cx), _r(cy - ry)),
            ("C", _r(cx + kx), _r(cy - ry), _r(cx + rx), _r(cy - ky), _r(cx + rx), _r(cy)),
            ("Z",))


def polygon(points: Iterable[Point]) -> Ops:
    """A closed polygon through `points`."""
    first, *rest = points
    return (("M", _r(first[0]), _r(first[1])), *(("L", _r(px), _r(py)) for px, py in rest), ("Z",))


def _fill_box(points: Sequence[Point], x: float, y: float, w: float, h: float) -> list[Point]:
    """`points` stretched so that their bounds are the box (a side of no extent is centred)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, y0, pw, ph = min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
    return [(x + ((px - x0) / pw * w if pw else w / 2), y + ((py - y0) / ph * h if ph else h / 2))
            for px, py in points]


def regular_points(sides: int, angle: float, x: float, y: float, w: float, h: float) -> list[Point]:
    """The corners of a regular polygon filling the box, its first corner `angle` degrees clockwise from up."""
    unit = [(math.cos(math.radians(angle - 90 + i * 360 / sides)), math.sin(math.radians(angle - 90 + i * 360 / sides)))
            for i in range(sides)]
    return _fill_box(unit, x, y, w, h)


def star_points(tips: int, inner: float, angle: float, x: float, y: float, w: float, h: float) -> list[Point]:
    """The corners of a star of `tips` points filling the box; its inner corners at `inner` of the outer radius."""
    unit = []
    for i in range(tips * 2):
        radius = 1.0 if i % 2 == 0 else inner
        turn = math.radians(angle - 90 + i * 180 / tips)
        unit.append((radius * math.cos(turn), radius * math.sin(turn)))
    return _fill_box(unit, x, y, w, h)


def outline(shape: Shape, x: float, y: float, w: float, h: float, grow: float = 0.0) -> Ops:
    """The outline of `shape` inside the box, grown outwards by `grow` points (negative: shrunk inwards).

    A rect grows square (its round corners by the same amount), a circle or an ellipse by its radii; polygons,
    stars and paths have their edges moved out in parallel, corners mitred (cut square past :data:`MITER_LIMIT`).
    Raises PathDataError for path data that cannot be read."""
    kind = shape.kind
    if kind == "rect":
        radii = [max(0.0, r + grow) if r > 0 else 0.0 for r in shape.radii]
        return rounded_rect(x - grow, y - grow, w + 2 * grow, h + 2 * grow, radii)
    if kind == "circle":
        r = min(w, h) / 2 + grow
        return ellipse(x + w / 2, y + h / 2, r, r)
    if kind == "ellipse":
        return ellipse(x + w / 2, y + h / 2, w / 2 + grow, h / 2 + grow)
    if kind == "polygon" and shape.points:
        corners = [(x + fx * w, y + fy * h) for fx, fy in shape.points]
    elif kind == "polygon":
        corners = regular_points(shape.sides, shape.angle, x, y, w, h)
    elif kind == "star":
        corners = star_points(shape.tips, shape.inner, shape.angle, x, y, w, h)
    else:
        ops = fit_path(parse_path(shape.path), x, y, w, h, shape.viewbox)
        return ops if not grow else tuple(op for ring in subpaths(ops) for op in polygon(offset(ring, grow)))
    return polygon(offset(corners, grow) if grow else corners)


# --- growing an outline -------------------------------------------------------------------------------------------

def _area(points: Sequence[Point]) -> float:
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, [*points[1:], points[0]])) / 2


def offset(points: Sequence[Point], distance: float) -> list[Point]:
    """A closed polygon with every edge moved `distance` outwards (inwards when negative), corners mitred."""
    pts = [p for i, p in enumerate(points) if p != points[i - 1]] or list(points)
    if len(pts) < 3:
        return list(pts)
    sign = 1.0 if _area(pts) > 0 else -1.0
    normals = []
    for (x0, y0), (x1, y1) in zip(pts, [*pts[1:], pts[0]]):
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        normals.append(((y1 - y0) / length * sign, -(x1 - x0) / length * sign))
    out: list[Point] = []
    for i, (px, py) in enumerate(pts):
        (ax, ay), (bx, by) = normals[i - 1], normals[i]
        dot = ax * bx + ay * by
        reach = math.sqrt(2 / (1 + dot)) if dot > -1 + 1e-9 else math.inf
        if reach > MITER_LIMIT:
            out += [(px + ax * distance, py + ay * distance), (px + bx * distance, py + by * distance)]
        else:
            scale = distance / (1 + dot)
            out.append((px + (ax + bx) * scale, py + (ay + by) * scale))
    return out


def subpaths(ops: Ops) -> list[list[Point]]:
    """Each subpath of a path as a polygon, its curves followed by :data:`FLATTEN_STEPS` segments."""
    rings: list[list[Point]] = []
    current: list[Point] = []
    for op in ops:
        kind, v = op[0], [float(c) for c in op[1:]]
        if kind == "M":
            if len(current) > 2:
                rings.append(current)
            current = [(v[0], v[1])]
        elif kind == "L":
            current.append((v[0], v[1]))
        elif kind == "C" and current:
            (x0, y0) = current[-1]
            for step in range(1, FLATTEN_STEPS + 1):
                current.append(_cubic_at((x0, y0), (v[0], v[1]), (v[2], v[3]), (v[4], v[5]), step / FLATTEN_STEPS))
    if len(current) > 2:
        rings.append(current)
    return rings


def _cubic_at(p0: Point, p1: Point, p2: Point, p3: Point, t: float) -> Point:
    u = 1 - t
    return (u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0],
            u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1])


# --- bounds and transforms ----------------------------------------------------------------------------------------

def bounds(ops: Iterable[Op]) -> tuple[float, float, float, float]:
    """The exact bounds (x0, y0, x1, y1) of a path's outline (curves at their extremes, not their control points)."""
    xs: list[float] = []
    ys: list[float] = []
    pen = (0.0, 0.0)
    for op in ops:
        kind, v = op[0], [float(c) for c in op[1:]]
        if kind in ("M", "L"):
            pen = (v[0], v[1])
            xs.append(v[0])
            ys.append(v[1])
        elif kind == "C":
            p0, p1, p2, p3 = pen, (v[0], v[1]), (v[2], v[3]), (v[4], v[5])
            for t in (0.0, 1.0, *_extremes(p0[0], p1[0], p2[0], p3[0]), *_extremes(p0[1], p1[1], p2[1], p3[1])):
                px, py = _cubic_at(p0, p1, p2, p3, t)
                xs.append(px)
                ys.append(py)
            pen = p3
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def _extremes(a: float, b: float, c: float, d: float) -> list[float]:
    """Where, between 0 and 1, a cubic's coordinate turns (its derivative is 0)."""
    qa, qb, qc = -a + 3 * b - 3 * c + d, 2 * (a - 2 * b + c), b - a
    if abs(qa) < 1e-12:
        return [-qc / qb] if abs(qb) > 1e-12 and 0 < -qc / qb < 1 else []
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return []
    root = math.sqrt(disc)
    return [t for t in ((-qb + root) / (2 * qa), (-qb - root) / (2 * qa)) if 0 < t < 1]


IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def rotation(degrees: float, cx: float, cy: float) -> Matrix:
    """A turn of `degrees` clockwise (as seen on the card, y down) about (cx, cy), as SVG's rotate(a cx cy)."""
    turn = math.radians(degrees)
    cos, sin = math.cos(turn), math.sin(turn)
    if abs(cos) < 1e-12:
        cos = 0.0
    if abs(sin) < 1e-12:
        sin = 0.0
    return (cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy)


def mirror(flip: str, cx: float, cy: float) -> Matrix:
    """A mirroring about (cx, cy): `horizontal` swaps left and right, `vertical` top and bottom, `both` both."""
    sx = -1.0 if flip in ("horizontal", "both") else 1.0
    sy = -1.0 if flip in ("vertical", "both") else 1.0
    return (sx, 0.0, 0.0, sy, cx - sx * cx, cy - sy * cy)


def product(first: Matrix, then: Matrix) -> Matrix:
    """The transform applying `then`, then `first` (first x then, as matrices multiply)."""
    a, b, c, d, e, f = first
    a2, b2, c2, d2, e2, f2 = then
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e,
            b * e2 + d * f2 + f)


def apply(matrix: Matrix, x: float, y: float) -> Point:
    a, b, c, d, e, f = matrix
    return (a * x + c * y + e, b * x + d * y + f)


def turned_bounds(matrix: Matrix, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    """The bounds (x0, y0, x1, y1) of the box (x, y, w, h) once transformed."""
    corners = [apply(matrix, px, py) for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))]
    return (min(p[0] for p in corners), min(p[1] for p in corners), max(p[0] for p in corners),
            max(p[1] for p in corners))


# --- what a clip lets show ------------------------------------------------------------------------------------------

def convex_hull(points: Iterable[Point]) -> list[Point]:
    """The convex hull of points, anticlockwise (y up; clockwise on a page whose y runs down), without repeats
    (Andrew's monotone chain). Fewer than three points where they hold no area."""
    ordered = sorted(set(points))
    if len(ordered) < 3:
        return ordered

    def turn(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in ordered:
        while len(lower) >= 2 and turn(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(ordered):
        while len(upper) >= 2 and turn(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def clip_to_convex(ring: Sequence[Point], window: Sequence[Point]) -> list[Point]:
    """The part of a closed polygon `ring` inside a convex polygon `window` (anticlockwise, as convex_hull gives
    it), as a polygon (Sutherland-Hodgman): its points lie on the part's outline, so their bounds are the part's,
    whether the ring is convex or not."""
    out = list(ring)
    count = len(window)
    for i in range(count):
        if not out:
            break
        (ax, ay), (bx, by) = window[i], window[(i + 1) % count]
        ex, ey = bx - ax, by - ay

        def side(p: Point) -> float:
            return ex * (p[1] - ay) - ey * (p[0] - ax)

        kept: list[Point] = []
        previous = out[-1]
        before = side(previous)
        for point in out:
            now = side(point)
            if (now >= 0) != (before >= 0):  # the edge crosses the window's side: where it does
                t = before / (before - now)
                kept.append((previous[0] + (point[0] - previous[0]) * t, previous[1] + (point[1] - previous[1]) * t))
            if now >= 0:
                kept.append(point)
            previous, before = point, now
        out = kept
    return out


def seen_within(window: Sequence[Point], clips: Iterable[Sequence[Sequence[Point]]]) -> list[Point]:
    """Points whose bounds hold what of the convex `window` (a box as it is placed: a turned box turned) shows
    through every clip of `clips` (each the union of its rings, its subpaths as polygons), in the same space: the
    window cut to each clip's outline, not to the clip's box, so that the corners of a round or turned clip, which
    show nothing, are not counted. Each clip cuts the convex hull of what the ones before it left: exact for one
    clip, never less than what shows for several. Empty where nothing shows."""
    shown = convex_hull(window)
    for rings in clips:
        if len(shown) < 3:  # a window with no area (a hairline): met by the clip's box
            xs = [p[0] for ring in rings for p in ring]
            ys = [p[1] for ring in rings for p in ring]
            if not xs or not shown:
                return []
            x0, y0 = max(min(p[0] for p in shown), min(xs)), max(min(p[1] for p in shown), min(ys))
            x1, y1 = min(max(p[0] for p in shown), max(xs)), min(max(p[1] for p in shown), max(ys))
            if x0 > x1 or y0 > y1:
                return []
            shown = [(x0, y0), (x1, y1)]
            continue
        part = [point for ring in rings for point in clip_to_convex(ring, shown)]
        if not part:
            return []
        shown = convex_hull(part) if len(set(part)) >= 3 else part
    return shown


def transform(ops: Iterable[Op], matrix: Matrix) -> Ops:
    """Path operations with every point transformed."""
    out: list[Op] = []
    for op in ops:
        values = [float(c) for c in op[1:]]
        moved: list[float] = []
        for i in range(0, len(values), 2):
            moved += apply(matrix, values[i], values[i + 1])
        out.append((op[0], *(_r(v) for v in moved)))
    return tuple(out)


def fit_path(ops: Ops, x: float, y: float, w: float, h: float,
             view: tuple[float, float, float, float] | None = None) -> Ops:
    """A path stretched so that `view` (x, y, width, height of its own plane; default its bounds) is the box."""
    if view is None:
        x0, y0, x1, y1 = bounds(ops)
        view = (x0, y0, x1 - x0, y1 - y0)
    vx, vy, vw, vh = view
    sx, sy = (w / vw if vw else 1.0), (h / vh if vh else 1.0)
    return transform(ops, (sx, 0.0, 0.0, sy, x - vx * sx + (0 if vw else w / 2), y - vy * sy + (0 if vh else h / 2)))


# --- fills --------------------------------------------------------------------------------------------------------

def linear_span(x: float, y: float, w: float, h: float, angle: float) -> tuple[float, float, float, float]:
    """Where a linear gradient runs across a box at `angle` degrees clockwise from left-to-right: through the box's
    centre, long enough that its first and last colours land on the box's farthest corners (as CSS's do)."""
    turn = math.radians(angle)
    dx, dy = math.cos(turn), math.sin(turn)
    half = (abs(w * dx) + abs(h * dy)) / 2
    cx, cy = x + w / 2, y + h / 2
    return (_r(cx - dx * half), _r(cy - dy * half), _r(cx + dx * half), _r(cy + dy * half))


#: Hatchings kept by their geometry: a card is drawn in its own coordinates, so a hatched box is the same lines,
#: some hundred numbers to work out, on every card of a deck.
HATCHINGS_KEPT = 256


@lru_cache(maxsize=HATCHINGS_KEPT)
def hatching(x0: float, y0: float, x1: float, y1: float, angle: float, spacing: float) -> Ops:
    """Parallel lines `spacing` apart at `angle` degrees (clockwise from horizontal) covering the area (x0, y0) to
    (x1, y1), each from edge to edge of the circle around it, as the subpaths of one path (a move and a line each);
    the caller clips them to the shape they hatch."""
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    reach = math.hypot(x1 - x0, y1 - y0) / 2
    turn = math.radians(angle)
    dx, dy = math.cos(turn), math.sin(turn)
    nx, ny = -dy, dx
    count = int(reach / spacing)
    ops: list[Op] = []
    for k in range(-count, count + 1):
        ox, oy = cx + nx * k * spacing, cy + ny * k * spacing
        ops += [("M", _r(ox - dx * reach), _r(oy - dy * reach)), ("L", _r(ox + dx * reach), _r(oy + dy * reach))]
    return tuple(ops)


# --- how far drawings reach ---------------------------------------------------------------------------------------

def extent(items: Iterable[Primitive]) -> tuple[float, float, float, float]:
    """Bounds (x0, y0, x1, y1) holding everything `items` draw, generously (a stroke's width, a text's line): what
    a group drawn as one needs for its canvas."""
    xs: list[float] = []
    ys: list[float] = []

    def add(x0: float, y0: float, x1: float, y1: float, pad: float = 0.0) -> None:
        xs.extend((x0 - pad, x1 + pad))
        ys.extend((y0 - pad, y1 + pad))

    for item in items:
        if isinstance(item, Rect):
            add(item.x, item.y, item.x + item.w, item.y + item.h, item.paint.width)
        elif isinstance(item, Circle):
            add(item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r, item.paint.width)
        elif isinstance(item, Line):
            add(min(item.x1, item.x2), min(item.y1, item.y2), max(item.x1, item.x2), max(item.y1, item.y2), item.width)
        elif isinstance(item, Path):
            add(*bounds(item.ops), item.paint.width)
        elif isinstance(item, TextRun):
            reach = item.size * 1.5 + item.outline_width
            add(item.x - reach, item.y - reach, item.x + item.width + reach, item.y + reach)
        elif isinstance(item, IconUse):
            add(item.x, item.y, item.x + item.size, item.y + item.size)
        elif isinstance(item, ImageUse):
            add(item.x, item.y, item.x + item.w, item.y + item.h)
        else:
            x0, y0, x1, y1 = extent(item.items)
            add(*(turned_bounds(item.matrix, x0, y0, x1 - x0, y1 - y0) if item.matrix else (x0, y0, x1, y1)))
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def printed_extent(items: Iterable[Primitive], letters: bool = False) -> tuple[float, float, float, float] | None:
    """Bounds (x0, y0, x1, y1) of what `items` print, tightly (None: nothing): a line of text from its first
    letter's start to its advance's end and from its font's ascent to its descent (the metrics its layout set it
    with, not the box around it), an outline with half its stroke, a picture within its clip (a round or turned
    clip by its outline, not its box: :func:`seen_within`); with `letters`, the text and its icons alone (not a
    table's dividers). What a print service's safe margin is measured against: the letters, not the box they were
    fitted in."""
    points = _printed_points(items, letters)
    if not points:
        return None
    return (min(p[0] for p in points), min(p[1] for p in points), max(p[0] for p in points),
            max(p[1] for p in points))


def _corners(x0: float, y0: float, x1: float, y1: float) -> list[Point]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _printed_points(items: Iterable[Primitive], letters: bool) -> list[Point]:
    """Points whose bounds, and whose convex hull, hold what `items` print (printed_extent): each item's box
    corners; a clipped group's, what shows through its clip's outline, turned by its matrix point by point."""
    from generator.render import fonts

    found: list[Point] = []
    for item in items:
        if letters and isinstance(item, (Rect, Circle, Line, Path)):
            continue
        if isinstance(item, Rect):
            half = item.paint.width / 2 if item.paint.stroke is not None else 0.0
            found += _corners(item.x - half, item.y - half, item.x + item.w + half, item.y + item.h + half)
        elif isinstance(item, Circle):
            reach = item.r + (item.paint.width / 2 if item.paint.stroke is not None else 0.0)
            found += _corners(item.cx - reach, item.cy - reach, item.cx + reach, item.cy + reach)
        elif isinstance(item, Line):
            half = item.width / 2
            found += _corners(min(item.x1, item.x2) - half, min(item.y1, item.y2) - half,
                              max(item.x1, item.x2) + half, max(item.y1, item.y2) + half)
        elif isinstance(item, Path):
            x0, y0, x1, y1 = bounds(item.ops)
            half = item.paint.width / 2 if item.paint.stroke is not None else 0.0
            found += _corners(x0 - half, y0 - half, x1 + half, y1 + half)
        elif isinstance(item, TextRun):
            if not item.text.strip():
                continue
            m = fonts.metrics(item.font)
            pad = item.outline_width
            # the letter spacing follows every character, the last too: it prints nothing after the last letter
            right, up, down = item.width - item.spacing, m.ascent * item.size, m.descent * item.size
            if item.rotate == 90:  # a quarter turn anticlockwise about the baseline's start, reading upwards
                found += _corners(item.x - up - pad, item.y - right - pad, item.x + down + pad, item.y + pad)
            else:
                found += _corners(item.x - pad, item.y - up - pad, item.x + right + pad, item.y + down + pad)
        elif isinstance(item, IconUse):
            found += _corners(item.x, item.y, item.x + item.size, item.y + item.size)
        elif isinstance(item, ImageUse):
            box = (item.x, item.y, item.x + item.w, item.y + item.h)
            if item.clip is not None:
                cx, cy, cw, ch = item.clip
                box = (max(box[0], cx), max(box[1], cy), min(box[2], cx + cw), min(box[3], cy + ch))
                if box[0] >= box[2] or box[1] >= box[3]:
                    continue
            found += _corners(*box)
        elif isinstance(item, Group):
            inner = _printed_points(item.items, letters)
            if inner and item.clip is not None:
                inner = seen_within(inner, [subpaths(item.clip)])
            if not inner:
                continue
            found += [apply(item.matrix, x, y) for x, y in inner] if item.matrix else inner
    return found
