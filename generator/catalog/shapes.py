"""The shape of a piece: a deck's `shape` (cards are rectangles; tiles, tokens and any other outline are not).

A deck declares its pieces' outline in `deck.yaml` (or a game's `game.yaml`), inside the box its `card_size`
gives:

    shape: hexagon                       # rect (the default), rounded, circle, ellipse, hexagon
    shape: {kind: polygon, sides: 6, angle: 30}          # a flat-topped hexagon
    shape: {kind: rect, radius: 3mm}                     # a card with round corners
    shape: {kind: star, points: 5, inner: 45%}
    shape: {kind: path, d: "M 0 0 L 10 0 L 10 10 Z"}     # SVG path data, fitted to the box

A regular outline (polygon, star) fills the box: it is regular when the box has its proportions (a pointy-topped
hexagon 60 mm wide is 69.28 mm tall). :class:`Shape` is plain data; its geometry (the outline as a path, grown
by the bleed or shrunk to the safe area) is :mod:`generator.render.shapes`'s.
"""

import math
import re
from typing import Any, NamedTuple

from generator.catalog.common import Length
from generator.fields import AnyOf, Checker, Choice, Field, Int, Number, Record, Text, Type
from generator.i18n import N_, phrase, phrase_number
from generator.sayings import phrase_either, quote
from generator.units import PT_PER_MM
from generator.yamlio import PathKey

#: The outlines a piece or a layout's shape box can have.
KINDS = ("rect", "circle", "ellipse", "polygon", "star", "path")
#: Names a deck's `shape` may give alone: each is one of KINDS with its usual settings.
NAMED = ("rect", "rounded", "circle", "ellipse", "hexagon")
#: The corner radius of `shape: rounded`: what card makers round a poker card's corners by (1/8 in).
ROUNDED_RADIUS_MM = 3.175


class Shape(NamedTuple):
    """An outline inside a box. `radii` (points, clockwise from the top-left corner) round a rect's corners;
    `sides` makes a regular polygon; `points` (fractions of the box, 0 to 1) a polygon through them; `tips` and
    `inner` (the inner radius as a share of the outer) a star; `angle` (degrees, clockwise) turns where a regular
    polygon's or star's first corner points (0: straight up); `path` is SVG path data fitted to the box
    (`viewbox` x, y, width, height: the part of the path's plane that fills the box; None: the path's bounds)."""

    kind: str = "rect"
    radii: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    sides: int = 0
    points: tuple[tuple[float, float], ...] = ()
    tips: int = 5
    inner: float = 0.5
    angle: float = 0.0
    path: str = ""
    viewbox: tuple[float, float, float, float] | None = None


RECT = Shape()

#: One operation of a path, as the drawing model has them: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y),
#: ("Z",) (generator.render.model.Op).
Op = tuple[str | float, ...]
Ops = tuple[Op, ...]
Point = tuple[float, float]


class PathDataError(ValueError):
    """SVG path data that cannot be read; the message says where and what was expected. A position is the one a
    designer counts in the `d` text: its first character is character 1, and the character named is the command
    letter or the number itself, never the space or comma before it (one past the last character when the data
    ends too soon)."""


def _r(value: float) -> float:
    return round(value, 3)


class Share(Type[float]):
    """A share of something: `45%` or a number from 0 to 1."""

    def __init__(self, low: float = 0.05, high: float = 0.95, doc: str = "") -> None:
        self.low, self.high, self.doc = low, high, doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        share: float | None = None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            share = float(value)
        elif isinstance(value, str):
            found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*%\s*", value)
            share = float(found.group(1)) / 100 if found else None
        if share is None:
            return ck.fail(path, phrase("expected a share such as 45% or 0.45, got {value}", value=quote(value)))
        if not self.low <= share <= self.high:
            low, high = format(self.low, ".0%"), format(self.high, ".0%")
            return ck.fail(path, phrase("{value} is not between {low} and {high}", value=quote(value), low=low,
                                        high=high))
        return share

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"anyOf": [{"type": "number", "minimum": self.low, "maximum": self.high},
                                         {"type": "string", "pattern": r"^\s*\d+(\.\d+)?\s*%\s*$"}]})


def parse_viewbox(text: str) -> tuple[float, float, float, float] | None:
    """`x y width height` (spaces or commas) as numbers, or None when it is not four numbers with a size."""
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    try:
        x, y, w, h = (float(p) for p in parts)
    except ValueError:
        return None
    return (x, y, w, h) if w > 0 and h > 0 else None


VIEWBOX = Text(max_len=100, pattern=r"\s*-?[\d.]+([\s,]+-?[\d.]+){3}\s*", hint=N_("four numbers: x y width height"))
#: SVG path data: commands and numbers only (checked again, command by command, when it is drawn).
PATH_DATA = Text(max_len=20_000, pattern=r"[\sMmLlHhVvCcSsQqTtAaZz0-9.,eE+-]*",
                 hint=N_("SVG path data: the commands M L H V C S Q T A Z and numbers"))


def _shape(kind: str, radius: float | None = None, sides: int | None = None, points: int | None = None,
           inner: float | None = None, angle: float | None = None, d: str | None = None,
           viewbox: str | None = None) -> Shape:
    """The shape a deck's `shape:` mapping gives (lengths in millimetres)."""
    if kind == "hexagon":
        kind, sides = "polygon", 6
    r = (radius or 0.0) * PT_PER_MM
    return Shape(kind, (r, r, r, r), sides or 0, (), points or 5, 0.5 if inner is None else inner, angle or 0.0,
                 d or "", parse_viewbox(viewbox) if viewbox else None)


def named_shape(name: str) -> Shape:
    """The shape a single word gives (see :data:`NAMED`)."""
    if name == "rounded":
        r = ROUNDED_RADIUS_MM * PT_PER_MM
        return Shape("rect", (r, r, r, r))
    return _shape(name)


def _record_rule(values: Any, path: PathKey, ck: Checker) -> None:
    kind = values["kind"]
    if kind == "polygon" and not values["sides"]:
        ck.fail(path, phrase("a polygon needs `sides` (6 for a hexagon); for any other outline give `kind: path`"))
    if kind == "path" and not values["d"]:
        # TRANSLATORS: `d` is a key of a deck's `shape`, as written there
        ck.fail(path, phrase("a path needs `d`, its SVG path data"))
    elif kind == "path":
        try:
            parse_path(values["d"])
        except PathDataError as err:
            ck.fail((*path, "d"), str(err))
    for key, kinds in (("radius", ("rect",)), ("sides", ("polygon", "hexagon")), ("points", ("star",)),
                       ("inner", ("star",)), ("angle", ("polygon", "hexagon", "star")), ("d", ("path",)),
                       ("viewbox", ("path",))):
        if values[key] is not None and kind not in kinds:
            only = phrase_either(list(kinds))
            # TRANSLATORS: a key of a deck's `shape` that its kind (rect, circle, star...) does not take
            ck.fail((*path, key), phrase("means nothing to a {kind} (only to {kinds})", kind=kind, kinds=only))


SHAPE_RECORD: Record[Shape] = Record(
    name="piece shape",
    doc="The outline of every piece of the deck, inside the box its card_size gives.",
    fields={
        "kind": Field(Choice((*KINDS, "hexagon"), what="shape"),
                      doc="rect, circle, ellipse, polygon, hexagon, star or path"),
        "radius": Field(Length(0, 100), required=False, doc="rect: the corners' radius (3mm)"),
        "sides": Field(Int(3, 64), required=False, doc="polygon: how many sides (6: a hexagon)"),
        "points": Field(Int(3, 64), required=False, doc="star: how many points (default 5)"),
        "inner": Field(Share(), required=False, doc="star: the inner radius, as a share of the outer (default 50%)"),
        "angle": Field(Number(-360, 360), required=False,
                       doc="polygon, star: degrees clockwise from straight up where the first corner points "
                           "(30 makes a hexagon flat-topped)"),
        "d": Field(PATH_DATA, required=False, doc="path: SVG path data, stretched over the box"),
        "viewbox": Field(VIEWBOX, required=False,
                         doc="path: the part of the path's plane stretched over the box, `x y width height` "
                             "(default: the path's own bounds)"),
    },
    rules=(_record_rule,),
    build=_shape,
)


class _NamedShape(Type[Shape]):
    def __init__(self) -> None:
        self.choice = Choice(NAMED, what="shape")
        self.doc = ""

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        name = self.choice.check(value, path, ck)
        return name if not isinstance(name, str) else named_shape(name)

    def schema(self) -> dict[str, Any]:
        return self.choice.schema()


SHAPE = AnyOf(options=(SHAPE_RECORD, _NamedShape()),
              what="a shape (rect, rounded, circle, ellipse, hexagon) or {kind: ..., ...}",
              doc="the outline of the deck's pieces: rect (the default), rounded, circle, ellipse, hexagon, or "
                  "{kind: polygon|star|path|rect..., ...}; cut lines, bleed and images follow it")


# --- SVG path data ------------------------------------------------------------------------------------------------

#: The tokens of path data (text, compiled by `re` when a path is first read: most decks draw none).
_COMMAND = r"[\s,]*([MmLlHhVvCcSsQqTtAaZz])"
_NUMBER = r"[\s,]*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
_FLAG = r"[\s,]*([01])"
_GAP = r"[\s,]*"
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
#: The most path operations read from one path: far beyond a hand-drawn outline, and a bound on the work.
MAX_PATH_OPS = 20_000


class _Reader:
    """Path data read token by token: an arc's flags are single digits, which minified data writes unspaced
    (`a5 5 0 0110 10` is the flags 0 and 1, then 10 10)."""

    def __init__(self, data: str) -> None:
        self.data, self.pos = data, 0
        # compiled once a path (`re` keeps them after the first), not looked up again for every token
        self._command, self._number, self._flag = re.compile(_COMMAND), re.compile(_NUMBER), re.compile(_FLAG)
        self._gap = re.compile(_GAP)

    def done(self) -> bool:
        return not self.data[self.pos:].strip(" \t\r\n,")

    def at(self) -> int:
        """Where the next token starts, counted from 1 as a designer counts the `d` text: past the spaces and
        commas before it, which are no part of it (the reader's own position is 0-based and before them)."""
        match = self._gap.match(self.data, self.pos)
        return (match.end() if match else self.pos) + 1

    def command(self) -> str | None:
        match = self._command.match(self.data, self.pos)
        if match is None:
            return None
        self.pos = match.end()
        return match.group(1)

    def number(self, flag: bool = False) -> float | None:
        """The next number, or with `flag` the next arc flag (one digit, 0 or 1)."""
        match = (self._flag if flag else self._number).match(self.data, self.pos)
        if match is None:
            return None
        self.pos = match.end()
        return float(match.group(1))


def parse_path(data: str) -> Ops:
    """SVG path data as absolute M, L, C and Z operations (H and V become lines, S, Q and T cubics, arcs cubic
    approximations). PathDataError says what is wrong, and where (character 1 is the first of `data`)."""
    reader = _Reader(data)
    if reader.done():
        raise PathDataError(phrase("the path data is empty"))
    ops: list[Op] = []
    pen = start = (0.0, 0.0)
    last_control: Point | None = None
    last_quad: Point | None = None
    command = ""
    while not reader.done():
        at = reader.at()
        found = reader.command()
        if found is not None:
            command = found
        elif not command:
            raise PathDataError(phrase("path data must start with M (move to)"))
        elif command in "Zz":
            raise PathDataError(phrase("unexpected {text} at character {at} (after Z)",
                                       text=quote(data[at - 1:at + 9].strip()), at=str(at)))
        if not ops and command not in "Mm":
            raise PathDataError(phrase("path data must start with M (move to)"))
        if command in "Zz":
            ops.append(("Z",))
            pen = start
            last_control = last_quad = None
            continue
        if ops[-1:] == [("Z",)] and command not in "Mm":  # drawing on after a close starts a new subpath there
            ops.append(("M", _r(start[0]), _r(start[1])))
        upper = command.upper()
        args: list[float] = []
        for index in range(_ARGS[upper]):
            value = reader.number(flag=upper == "A" and index in (3, 4))
            if value is None:
                # TRANSLATORS: an SVG path's command (C, A...), where it is, and what it lacks where
                message = N_("{command} at character {at} needs {count} numbers: expected a flag, 0 or 1, at "
                             "character {pos}") if upper == "A" and index in (3, 4) else \
                    N_("{command} at character {at} needs {count} numbers: expected a number at character {pos}")
                raise PathDataError(phrase(message, command=command, at=str(at), count=str(_ARGS[upper]),
                                           pos=str(reader.at())))
            args.append(value)
        relative = command.islower()
        ox, oy = pen if relative else (0.0, 0.0)
        control: Point | None = None
        quad: Point | None = None
        if upper == "M":
            pen = start = (args[0] + ox, args[1] + oy)
            ops.append(("M", _r(pen[0]), _r(pen[1])))
            command = "l" if relative else "L"  # numbers after a move are lines
        elif upper in ("L", "H", "V", "T"):
            if upper == "H":
                end = (args[0] + ox, pen[1])
            elif upper == "V":
                end = (pen[0], args[0] + oy)
            else:
                end = (args[0] + ox, args[1] + oy)
            if upper == "T":
                q1 = (2 * pen[0] - last_quad[0], 2 * pen[1] - last_quad[1]) if last_quad else pen
                ops.append(_quad(pen, q1, end))
                quad = q1
            else:
                ops.append(("L", _r(end[0]), _r(end[1])))
            pen = end
        elif upper in ("C", "S"):
            if upper == "C":
                c1, c2, end = (args[0] + ox, args[1] + oy), (args[2] + ox, args[3] + oy), (args[4] + ox, args[5] + oy)
            else:
                c1 = (2 * pen[0] - last_control[0], 2 * pen[1] - last_control[1]) if last_control else pen
                c2, end = (args[0] + ox, args[1] + oy), (args[2] + ox, args[3] + oy)
            ops.append(("C", _r(c1[0]), _r(c1[1]), _r(c2[0]), _r(c2[1]), _r(end[0]), _r(end[1])))
            control, pen = c2, end
        elif upper == "Q":
            q1, end = (args[0] + ox, args[1] + oy), (args[2] + ox, args[3] + oy)
            ops.append(_quad(pen, q1, end))
            quad, pen = q1, end
        else:  # A
            end = (args[5] + ox, args[6] + oy)
            ops.extend(_arc(pen, end, args[0], args[1], args[2], bool(args[3]), bool(args[4])))
            pen = end
        last_control, last_quad = control, quad
        if len(ops) > MAX_PATH_OPS:
            raise PathDataError(phrase("more than {count} operations: simplify the path",
                                       count=phrase_number(MAX_PATH_OPS)))
    return tuple(ops)


def _quad(p0: Point, q1: Point, end: Point) -> Op:
    """A quadratic curve as the cubic that draws it."""
    c1 = (p0[0] + 2 / 3 * (q1[0] - p0[0]), p0[1] + 2 / 3 * (q1[1] - p0[1]))
    c2 = (end[0] + 2 / 3 * (q1[0] - end[0]), end[1] + 2 / 3 * (q1[1] - end[1]))
    return ("C", _r(c1[0]), _r(c1[1]), _r(c2[0]), _r(c2[1]), _r(end[0]), _r(end[1]))


def _arc(p0: Point, p1: Point, rx: float, ry: float, rotate_deg: float, large: bool, sweep: bool) -> list[Op]:
    """An elliptical arc as cubics of at most a quarter turn each (SVG 1.1, appendix F.6: its centre from its
    ends, radii too small for the ends scaled up)."""
    if p0 == p1:
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [("L", _r(p1[0]), _r(p1[1]))]
    phi = math.radians(rotate_deg % 360)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (p0[0] - p1[0]) / 2, (p0[1] - p1[1]) / 2
    x1 = cos * dx + sin * dy
    y1 = -sin * dx + cos * dy
    lam = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
    if lam > 1:
        rx, ry = rx * math.sqrt(lam), ry * math.sqrt(lam)
    num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    den = rx * rx * y1 * y1 + ry * ry * x1 * x1
    factor = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        factor = -factor
    cxp, cyp = factor * rx * y1 / ry, -factor * ry * x1 / rx
    cx = cos * cxp - sin * cyp + (p0[0] + p1[0]) / 2
    cy = sin * cxp + cos * cyp + (p0[1] + p1[1]) / 2

    def angle_of(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    theta = angle_of(1, 0, (x1 - cxp) / rx, (y1 - cyp) / ry)
    delta = angle_of((x1 - cxp) / rx, (y1 - cyp) / ry, (-x1 - cxp) / rx, (-y1 - cyp) / ry)
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    elif sweep and delta < 0:
        delta += 2 * math.pi
    pieces = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / pieces
    k = 4 / 3 * math.tan(step / 4)
    ops: list[Op] = []

    def point(t: float) -> Point:
        ex, ey = rx * math.cos(t), ry * math.sin(t)
        return (cx + cos * ex - sin * ey, cy + sin * ex + cos * ey)

    def tangent(t: float) -> Point:
        ex, ey = -rx * math.sin(t), ry * math.cos(t)
        return (cos * ex - sin * ey, sin * ex + cos * ey)

    for i in range(pieces):
        t0, t1 = theta + i * step, theta + (i + 1) * step
        a, b = point(t0), point(t1)
        da, db = tangent(t0), tangent(t1)
        end = p1 if i == pieces - 1 else b
        ops.append(("C", _r(a[0] + k * da[0]), _r(a[1] + k * da[1]), _r(b[0] - k * db[0]), _r(b[1] - k * db[1]),
                    _r(end[0]), _r(end[1])))
    return ops
