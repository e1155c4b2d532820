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

from __future__ import annotations

import re
from typing import Any, NamedTuple

from generator.catalog.common import Length
from generator.fields import AnyOf, Checker, Choice, Field, Int, Number, Record, Text, Type
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
            return ck.fail(path, f"expected a share such as 45% or 0.45, got {value!r}")
        if not self.low <= share <= self.high:
            return ck.fail(path, f"{value!r} is not between {self.low:.0%} and {self.high:.0%}")
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


VIEWBOX = Text(max_len=100, pattern=r"\s*-?[\d.]+([\s,]+-?[\d.]+){3}\s*", hint="four numbers: x y width height")
#: SVG path data: commands and numbers only (checked again, command by command, when it is drawn).
PATH_DATA = Text(max_len=20_000, pattern=r"[\sMmLlHhVvCcSsQqTtAaZz0-9.,eE+-]*",
                 hint="SVG path data: the commands M L H V C S Q T A Z and numbers")


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
        ck.fail(path, "a polygon needs `sides` (6 for a hexagon); for any other outline give `kind: path`")
    if kind == "path" and not values["d"]:
        ck.fail(path, "a path needs `d`, its SVG path data")
    for key, kinds in (("radius", ("rect",)), ("sides", ("polygon", "hexagon")), ("points", ("star",)),
                       ("inner", ("star",)), ("angle", ("polygon", "hexagon", "star")), ("d", ("path",)),
                       ("viewbox", ("path",))):
        if values[key] is not None and kind not in kinds:
            ck.fail((*path, key), f"means nothing to a {kind} (only to {' or '.join(kinds)})")


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


SHAPE = AnyOf(options=(_NamedShape(), SHAPE_RECORD),
              what="a shape (rect, rounded, circle, ellipse, hexagon) or {kind: ..., ...}",
              doc="the outline of the deck's pieces: rect (the default), rounded, circle, ellipse, hexagon, or "
                  "{kind: polygon|star|path|rect..., ...}; cut lines, bleed and images follow it")
