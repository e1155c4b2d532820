"""Where an SVG shape's markers stand and which way they point (SVG 2, 11.6 "Markers" and 9.4 "Path
directionality"), as geometry alone: the vertices of a path, line, polyline or polygon, each with the angle a
marker of `orient="auto"` takes there, and the matrix that puts a marker's contents at a vertex. svglib draws no
marker; :mod:`generator.render.svgart` draws their contents at these places.

Directions are angles in degrees in SVG's own axes (x right, y down), as `rotate()` reads them.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from generator.render.model import Matrix
from generator.render.shapes import Point, apply, product


class Vertex(NamedTuple):
    """A place a marker may stand: `where` is "start", "mid" or "end" (which of marker-start, -mid, -end draws
    there), `angle` the direction `orient="auto"` gives it."""

    x: float
    y: float
    angle: float
    where: str


class _Segment(NamedTuple):
    start: Point
    end: Point
    out: Point | None  # the direction at its start, None for a segment of no length
    into: Point | None  # the direction at its end


class _Subpath(NamedTuple):
    start: Point
    segments: list[_Segment]
    closed: bool


_COMMAND = re.compile(r"[MmZzLlHhVvCcSsQqTtAa]")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SEPARATOR = re.compile(r"[\s,]*")
#: How many numbers each command takes.
_ARITY = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "a": 7, "z": 0}


def _tokens(data: str) -> list[str | float]:
    """A path's commands and numbers, read as SVG 1.1 (8.3.9) writes them: numbers run together (`1.5.5`, `1-2`),
    an arc's flags as single digits (`a1 1 0 01 5 5`). Reading stops at the first error, and what was read before
    is drawn, as viewers draw it."""
    out: list[str | float] = []
    at = 0
    arity = 0
    taken = 0
    command = ""
    while True:
        at = _SEPARATOR.match(data, at).end()  # type: ignore[union-attr]
        if at >= len(data):
            return out
        found = _COMMAND.match(data, at)
        if found is not None:
            command = found.group().lower()
            arity, taken = _ARITY[command], 0
            out.append(found.group())
            at = found.end()
            continue
        if command == "a" and taken % 7 in (3, 4) and data[at] in "01":  # a flag: one digit
            out.append(float(data[at]))
            at += 1
            taken += 1
            continue
        number = _NUMBER.match(data, at)
        if number is None or not arity:
            return out
        out.append(float(number.group()))
        at = number.end()
        taken += 1


def _direction(*vectors: Point) -> Point | None:
    """The first of the vectors of some length: a segment's direction at an end (SVG 2, 9.4: a curve's at its start
    is towards its first control point unless that point is the start itself, and so on)."""
    for vector in vectors:
        if abs(vector[0]) > 1e-12 or abs(vector[1]) > 1e-12:
            return vector
    return None


def _minus(a: Point, b: Point) -> Point:
    return a[0] - b[0], a[1] - b[1]


#: The direction Chromium gives a segment of no length (a line back to where it starts, `l0 0`, a `Z` where the
#: subpath is back at its start already): along x, angle 0, as measured (an arrowhead at the end of `M10 60 l30 20
#: l0 0` points right, not along the line). SVG 2 (9.4) would take its neighbours' direction; donjon draws what
#: Chromium draws.
_NO_LENGTH: Point = (1.0, 0.0)


def _line(start: Point, end: Point) -> _Segment:
    way = _direction(_minus(end, start)) or _NO_LENGTH
    return _Segment(start, end, way, way)


def _cubic(start: Point, one: Point, two: Point, end: Point) -> _Segment:
    return _Segment(start, end,
                    _direction(_minus(one, start), _minus(two, start), _minus(end, start)) or _NO_LENGTH,
                    _direction(_minus(end, two), _minus(end, one), _minus(end, start)) or _NO_LENGTH)


def _arc(start: Point, rx: float, ry: float, turn: float, large: bool, sweep: bool, end: Point) -> _Segment:
    """An elliptical arc's directions at its ends, from its centre parametrisation (SVG 1.1, F.6.5; radii too small
    scaled up as F.6.6 says); with a radius of zero it is a line."""
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0 or start == end:
        return _line(start, end)
    cos, sin = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    dx, dy = (start[0] - end[0]) / 2, (start[1] - end[1]) / 2
    x1, y1 = cos * dx + sin * dy, -sin * dx + cos * dy
    grow = (x1 / rx) ** 2 + (y1 / ry) ** 2
    if grow > 1:
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    numerator = max(0.0, rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1)
    root = math.sqrt(numerator / (rx * rx * y1 * y1 + ry * ry * x1 * x1))
    if large == sweep:
        root = -root
    cx, cy = root * rx * y1 / ry, -root * ry * x1 / rx
    first = math.atan2((y1 - cy) / ry, (x1 - cx) / rx)
    last = math.atan2((-y1 - cy) / ry, (-x1 - cx) / rx)
    side = 1.0 if sweep else -1.0

    def tangent(angle: float) -> Point:
        tx, ty = -rx * math.sin(angle) * side, ry * math.cos(angle) * side
        return cos * tx - sin * ty, sin * tx + cos * ty

    return _Segment(start, end, tangent(first), tangent(last))


def _subpaths(data: str) -> list[_Subpath]:
    """A path's subpaths: each its segments (every command drawing one, arcs and curves with their end
    directions) and whether it is closed."""
    tokens = _tokens(data)
    subpaths: list[_Subpath] = []
    segments: list[_Segment] = []
    here = first = (0.0, 0.0)
    control: Point | None = None  # the last curve's second control point, for S and T (reflected)
    quad: Point | None = None
    index = 0
    command = ""
    started = False

    def numbers(count: int) -> list[float] | None:
        nonlocal index
        taken = tokens[index:index + count]
        if len(taken) < count or any(isinstance(token, str) for token in taken):
            return None
        index += count
        return [float(token) for token in taken]

    while index < len(tokens):
        token = tokens[index]
        if isinstance(token, str):
            command = token
            index += 1
            if command in "Zz":
                if started:
                    # the closing segment, of no length when the subpath is back at its start already: a vertex
                    # all the same
                    segments.append(_line(here, first))
                    subpaths.append(_Subpath(first, segments, True))
                    segments = []
                    started = False
                here = first
                control = quad = None
                continue
        elif command == "" or command in "Zz":
            break
        relative = command.islower()
        kind = command.lower()
        values = numbers(_ARITY[kind])
        if values is None:
            break
        base = here if relative else (0.0, 0.0)
        if kind == "m":
            if segments or started:
                subpaths.append(_Subpath(first, segments, False))
                segments = []
            here = first = (base[0] + values[0], base[1] + values[1])
            started = True
            command = "l" if relative else "L"  # numbers after a moveto are lines (SVG 1.1, 8.3.2)
            control = quad = None
            continue
        if not started:  # a drawing command after Z starts a subpath where the last one began
            started = True
            first = here
        if kind == "h":
            end = ((here[0] if relative else 0.0) + values[0], here[1])
            segment = _line(here, end)
        elif kind == "v":
            end = (here[0], (here[1] if relative else 0.0) + values[0])
            segment = _line(here, end)
        elif kind == "l":
            end = (base[0] + values[0], base[1] + values[1])
            segment = _line(here, end)
        elif kind in "cs":
            if kind == "c":
                one = (base[0] + values[0], base[1] + values[1])
                rest = values[2:]
            else:
                one = (2 * here[0] - control[0], 2 * here[1] - control[1]) if control else here
                rest = values
            two = (base[0] + rest[0], base[1] + rest[1])
            end = (base[0] + rest[2], base[1] + rest[3])
            segment = _cubic(here, one, two, end)
            segments.append(segment)
            here, control, quad = end, two, None
            continue
        elif kind in "qt":
            if kind == "q":
                middle = (base[0] + values[0], base[1] + values[1])
                end = (base[0] + values[2], base[1] + values[3])
            else:
                middle = (2 * here[0] - quad[0], 2 * here[1] - quad[1]) if quad else here
                end = (base[0] + values[0], base[1] + values[1])
            segment = _cubic(here, middle, middle, end)
            segments.append(segment)
            here, control, quad = end, None, middle
            continue
        else:  # an arc
            end = (base[0] + values[5], base[1] + values[6])
            segment = _arc(here, values[0], values[1], values[2], values[3] != 0, values[4] != 0, end)
        segments.append(segment)
        here, control, quad = segment.end, None, None
    if started:
        subpaths.append(_Subpath(first, segments, False))
    return subpaths


def _angle(way: Point) -> float:
    return math.degrees(math.atan2(way[1], way[0]))


def _bisected(into: Point | None, out: Point | None) -> float:
    """The direction half way between a segment's end and the next one's start (SVG 2, 11.6.2), the smaller way
    round, as Chromium takes it; a side of no length takes the other's."""
    if into is None and out is None:
        return 0.0
    if into is None or out is None:
        return _angle(out if into is None else into)  # type: ignore[arg-type]
    first, second = _angle(into), _angle(out)
    if abs(first - second) > 180:
        first += 360
    return (first + second) / 2


def path_vertices(data: str) -> list[Vertex]:
    """The vertices of a path's data, in order, with their marker and their direction (SVG 2, 11.6.2): the first
    of the path is marker-start's, its last marker-end's, every other (the ends of every segment, where each later
    subpath starts) marker-mid's. The start or end of an open subpath points along its one segment; any other
    vertex, a closed subpath's start and end too, half way between the segment ending there and the one starting
    there (for a closed subpath, the closing segment and its first)."""
    found: list[tuple[float, float, float]] = []
    for subpath in _subpaths(data):
        segments = subpath.segments
        if not segments:
            found.append((subpath.start[0], subpath.start[1], 0.0))
            continue
        first_out = _first_known([segment.out for segment in segments])
        last_in = _first_known([segment.into for segment in reversed(segments)])
        if subpath.closed:
            found.append((*subpath.start, _bisected(last_in, first_out)))
        else:
            found.append((*subpath.start, _bisected(None, first_out)))
        # the direction into each vertex (the last segment of some length before it) and out of it (the next)
        into_at: list[Point | None] = []
        known: Point | None = None
        for segment in segments:
            known = segment.into if segment.into is not None else known
            into_at.append(known)
        out_after: list[Point | None] = [None] * len(segments)
        known = first_out if subpath.closed else None
        for index in range(len(segments) - 1, -1, -1):
            out_after[index] = known
            known = segments[index].out if segments[index].out is not None else known
        for index, segment in enumerate(segments):
            found.append((*segment.end, _bisected(into_at[index], out_after[index])))
    return _placed(found)


def _first_known(ways: list[Point | None]) -> Point | None:
    for way in ways:
        if way is not None:
            return way
    return None


def points_of(text: str) -> list[Point]:
    """A polyline's or polygon's `points`, read as numbers are in path data; an odd number left over is dropped."""
    numbers = [float(found) for found in _NUMBER.findall(text)]
    return [(numbers[at], numbers[at + 1]) for at in range(0, len(numbers) - 1, 2)]


def points_vertices(points: list[Point], closed: bool) -> list[Vertex]:
    """The vertices of a polyline (or of a polygon, `closed`, whose last vertex is its first again), as those of
    the path of lines through its points."""
    if not points:
        return []
    data = "M" + " L".join(f"{x!r},{y!r}" for x, y in points) + (" Z" if closed else "")
    return path_vertices(data)


def _placed(found: list[tuple[float, float, float]]) -> list[Vertex]:
    last = len(found) - 1
    return [Vertex(x, y, angle, "start" if index == 0 else "end" if index == last else "mid")
            for index, (x, y, angle) in enumerate(found)]


def marker_matrix(vertex: Vertex, angle: float, scale: float, reference: Point, fitted: Matrix) -> Matrix:
    """The matrix from a marker's contents to the shape's user space (SVG 2, 11.6.2): its viewport put at the vertex,
    turned by `angle`, scaled by the stroke width for `markerUnits="strokeWidth"` (`scale`), and moved so that its
    reference point (refX, refY in the contents' units, `reference`) falls on the vertex; `fitted` fits the viewBox
    into the viewport (the identity when none)."""
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    placed: Matrix = (cos * scale, sin * scale, -sin * scale, cos * scale, vertex.x, vertex.y)
    rx, ry = apply(fitted, *reference)
    return product(placed, (1.0, 0.0, 0.0, 1.0, -rx, -ry))


def orient_angle(text: str | None) -> float | str:
    """A marker's `orient`: "auto" or "auto-start-reverse", else its angle in degrees (a number, or an angle in
    deg, rad, grad or turn); 0 when unwritten or unread, as viewers take it."""
    value = (text or "").strip().lower()
    if value in ("auto", "auto-start-reverse"):
        return value
    found = re.fullmatch(r"([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(deg|rad|grad|turn)?", value)
    if found is None:
        return 0.0
    number = float(found.group(1))
    unit = found.group(2) or "deg"
    return {"deg": number, "rad": math.degrees(number), "grad": number * 0.9, "turn": number * 360}[unit]
