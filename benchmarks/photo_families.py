"""Hard photos of filled score sheets, made by family: each family one way players fill sheets or phones take
photos, seeded and deterministic (the same family and seed give the same bytes).

Used by `benchmarks/scan_photos.py --families` (the share of photos read right, asked, refused and wrong, per
family) and by `tests/scan/test_hard_photos.py` (the property: no photo of any family is scored wrong without a
flag). Independent of the reader: nothing here imports `generator.sheets.photos`.

A photo is made in two steps:

1. **the sheet filled** (:func:`fill_sheet`): the real sheet rasterised (`Sheet`), each mark that is filled marked
   in a style (a full fill, a tick, a cross, a circle around the bubble, a scribble past its edge, a figure
   coloured in part) with an instrument (HB or 2H pencil, ballpoint, felt tip), rubbed-out ghosts and stray
   strokes where the family asks for them. Beside the grey image, a map of how shiny each place is (graphite
   shines most, felt-tip ink least), for glare;
2. **the sheet photographed** (:func:`shoot`): the sheet is a surface in space (flat, curled about any axis, or
   folded and opened again), seen by a pinhole camera at a tilt and a turn; each pixel of the photo is a ray cast
   onto that surface, so that a curl moves marks as a real camera sees them (the four corner markers move too).
   Then light (a gradient, a vignette, a hard shadow's edge, the shading of a fold, a glare spot whose strength
   follows the shininess), what lies around and over the sheet (a table of plain, wood or cloth, other sheets and
   cards partly in frame, a finger), and the phone (defocus or motion blur, noise, low light, resolution, JPEG).

The truth of each mark is what was filled (True or False), or None where the family makes a mark a person must
be asked about (a figure half coloured in, a ghost rubbed out badly beside a real mark): deciding such a mark is
wrong. `Photo.hidden` lists the marks a camera could not see at all (under a finger, in glare that drowns the
pencil, out of the frame): reading them as their truth is luck, not skill, and the benchmark counts such reads.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

Image = Any

#: Millimetres in a point.
MM_PER_PT = 25.4 / 72


@dataclass(frozen=True)
class Sheet:
    """A sheet to photograph: its map of marks and its page rasterised in grey at `render` pixels per point."""

    map: Any
    image: Image
    render: float

    @property
    def px_per_mm(self) -> float:
        return self.render / MM_PER_PT


# --- instruments and marks ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Instrument:
    """What a player writes with: the grey of its line (0 black, 255 paper), its width in mm, how grainy and how
    often it skips (pencil), how shiny it is (glare)."""

    name: str
    tone: tuple[float, float]
    width: tuple[float, float]
    grain: float
    keep: tuple[float, float]
    shine: float


INSTRUMENTS = {
    "hb": Instrument("hb", (60, 135), (0.45, 0.8), 22, (0.8, 0.97), 1.0),
    "2h": Instrument("2h", (150, 190), (0.3, 0.5), 14, (0.7, 0.9), 0.9),
    "ballpoint": Instrument("ballpoint", (45, 95), (0.35, 0.5), 6, (0.95, 1.0), 0.45),
    "felt": Instrument("felt", (25, 60), (0.8, 1.2), 4, (0.99, 1.0), 0.15),
}
#: How shiny the paper and the printed ink are, beside the instruments' `shine` (glare).
SHINE_PAPER = 0.25
SHINE_PRINT = 0.5


def _ink(image: Image, shine: Image, mask: Image, pen: Instrument, rng: random.Random,
         strength: float = 1.0) -> None:
    """The instrument's line where `mask` is set, `strength` of its full darkness (a ghost is a fraction)."""
    left, top, w, h = cv2.boundingRect(mask)  # (a mask is the whole sheet; its strokes a small part of it)
    ys, xs = np.nonzero(mask[top:top + h, left:left + w])
    if not len(ys):
        return
    ys, xs = ys + top, xs + left
    tone = rng.uniform(*pen.tone)
    noise = np.random.default_rng(rng.randrange(1 << 30))
    values = np.clip(tone + noise.normal(0, pen.grain, len(ys)), 10, 235)
    keep = noise.random(len(ys)) < rng.uniform(*pen.keep)
    current = image[ys, xs].astype(np.float32)
    darker = current - (current - values) * strength
    image[ys[keep], xs[keep]] = np.minimum(current[keep], darker[keep]).astype(np.uint8)
    shine[ys[keep], xs[keep]] = np.maximum(shine[ys[keep], xs[keep]], pen.shine * strength + SHINE_PAPER * (1 - strength))


def _line_width(sheet: Sheet, pen: Instrument, rng: random.Random) -> int:
    return max(1, round(rng.uniform(*pen.width) * sheet.px_per_mm))


def _centre(sheet: Sheet, mark: Any) -> tuple[float, float, float]:
    k = sheet.render
    return (mark.x + mark.width / 2) * k, (mark.y + mark.height / 2) * k, mark.width / 2 * k


def figure_mask(sheet: Sheet, mark: Any, spread: float = 1.0) -> Image:
    """The resident figure's head and body (the icon `resident-blank` in its 100-unit box), filled."""
    k = sheet.render
    s = mark.width * k / 100
    ox, oy = mark.x * k, mark.y * k
    mask = np.zeros(sheet.image.shape, dtype=np.uint8)
    cv2.circle(mask, (round(ox + 50 * s), round(oy + 22 * s)), round(14 * s * spread), 1, -1)
    body = np.array([(19, 96), (19, 78), (30, 52), (50, 46), (70, 52), (81, 78), (81, 96)], dtype=np.float64)
    body = (body - (50, 75)) * spread + (50, 75)
    cv2.fillPoly(mask, [np.round(body * s + (ox, oy)).astype(np.int32)], 1)
    return mask


def style_mask(sheet: Sheet, mark: Any, style: str, pen: Instrument, rng: random.Random,
               marks: Sequence[Any] = ()) -> Image:
    """The strokes of one mark drawn in `style`, as a mask of the sheet image."""
    cx, cy, r = _centre(sheet, mark)
    mm = sheet.px_per_mm
    width = _line_width(sheet, pen, rng)
    mask = np.zeros(sheet.image.shape, dtype=np.uint8)
    dx, dy = rng.uniform(-0.15, 0.15) * r, rng.uniform(-0.15, 0.15) * r
    if style == "full":
        cv2.ellipse(mask, (round(cx + dx), round(cy + dy)), (round(r * rng.uniform(0.8, 1.05)),
                    round(r * rng.uniform(0.8, 1.05))), rng.uniform(0, 180), 0, 360, 1, -1)
    elif style == "partial":
        cv2.ellipse(mask, (round(cx + dx), round(cy + dy)), (round(r * rng.uniform(0.55, 0.75)),
                    round(r * rng.uniform(0.5, 0.7))), rng.uniform(0, 180), 0, 360, 1, -1)
    elif style == "tick":
        a = rng.uniform(-0.3, 0.3)
        size = rng.uniform(0.8, 1.2)
        pts = [(-0.6, 0.0), (-0.1, 0.55), (0.75, -0.75)]
        rot = [(size * (x * math.cos(a) - y * math.sin(a)), size * (x * math.sin(a) + y * math.cos(a))) for x, y in pts]
        poly = np.array([(cx + dx + x * r, cy + dy + y * r) for x, y in rot]).round().astype(np.int32)
        cv2.polylines(mask, [poly], False, 1, width)
    elif style == "cross":
        e = rng.uniform(0.6, 0.95) * r
        cv2.line(mask, (round(cx - e + dx), round(cy - e + dy)), (round(cx + e + dx), round(cy + e + dy)), 1, width)
        cv2.line(mask, (round(cx - e + dx), round(cy + e + dy)), (round(cx + e + dx), round(cy - e + dy)), 1, width)
    elif style == "circled":
        # a ring drawn around the bubble, not inside it: 1.2 to 1.5 times its radius, perhaps not quite closed
        radius = r * rng.uniform(1.2, 1.5)
        start = rng.uniform(0, 360)
        sweep = rng.uniform(330, 380)
        cv2.ellipse(mask, (round(cx + dx * 0.5), round(cy + dy * 0.5)),
                    (round(radius * rng.uniform(0.95, 1.08)), round(radius * rng.uniform(0.92, 1.05))),
                    rng.uniform(0, 180), start, start + sweep, 1, width)
    elif style == "scribble":
        # back-and-forth strokes over the bubble that run past its edge by up to 2 mm, now and then one that
        # reaches a neighbour's bubble
        a = rng.uniform(0, math.pi)
        over = rng.uniform(0.4, 2.0) * mm
        lines = rng.randint(5, 8)
        pts = []
        for i in range(lines + 1):
            t = -1 + 2 * i / lines
            half = math.sqrt(max(0.0, 1 - t * t)) * r + over
            side = -1 if i % 2 else 1
            px, py = t * r * 0.95, side * half
            pts.append((cx + px * math.cos(a) - py * math.sin(a), cy + px * math.sin(a) + py * math.cos(a)))
        cv2.polylines(mask, [np.array(pts).round().astype(np.int32)], False, 1, width)
        near = [m for m in marks if m is not mark and m.shape != "figure"
                and math.hypot((m.x + m.width / 2) * sheet.render - cx, (m.y + m.height / 2) * sheet.render - cy)
                < 3.2 * r]
        if near and rng.random() < 0.5:
            other = rng.choice(near)
            ox, oy, orad = _centre(sheet, other)
            # a stroke from this bubble's edge into the neighbour's, ending a third of the way in
            vx, vy = ox - cx, oy - cy
            d = math.hypot(vx, vy)
            end = (ox - vx / d * orad * rng.uniform(0.3, 0.7), oy - vy / d * orad * rng.uniform(0.3, 0.7))
            cv2.line(mask, (round(cx), round(cy)), (round(end[0]), round(end[1])), 1, width)
    elif style in ("figure", "figure-most", "figure-half", "figure-slip"):
        whole = figure_mask(sheet, mark, rng.uniform(0.85, 1.03))
        if style == "figure":
            return whole
        if style == "figure-slip":
            # a single short stroke across the figure: a slip, not colouring in
            y = round(cy + rng.uniform(-0.3, 0.3) * r)
            cv2.line(mask, (round(cx - 0.5 * r), y), (round(cx + 0.4 * r), y + round(rng.uniform(-2, 2))), 1, width)
            return mask & whole
        share = rng.uniform(0.72, 0.85) if style == "figure-most" else rng.uniform(0.4, 0.55)
        return _part_of(whole, share, rng)
    else:
        raise ValueError(style)
    return mask


def _part_of(mask: Image, share: float, rng: random.Random) -> Image:
    """`share` of a mask's area, cut by a straight line at a random angle (colouring in from one side)."""
    ys, xs = np.nonzero(mask)
    a = rng.uniform(0, 2 * math.pi)
    along = xs * math.cos(a) + ys * math.sin(a)
    cut = np.quantile(along, share)
    out = np.zeros_like(mask)
    keep = along <= cut
    out[ys[keep], xs[keep]] = 1
    return out


def stray_mask(sheet: Sheet, mark: Any, pen: Instrument, rng: random.Random, marks: Sequence[Any]) -> Image | None:
    """A stroke near an empty mark, clear of every mark (a slip, a line of the castle drawn close by)."""
    cx, cy, r = _centre(sheet, mark)
    mm = sheet.px_per_mm
    k = sheet.render
    for _ in range(12):
        angle = rng.uniform(0, 2 * math.pi)
        start = r + rng.uniform(0.6, 2.0) * mm
        x0, y0 = cx + math.cos(angle) * start, cy + math.sin(angle) * start
        turn = angle + rng.choice((-1, 1)) * math.pi / 2 + rng.uniform(-0.3, 0.3)
        length = rng.uniform(2, 5) * mm
        x1, y1 = x0 + math.cos(turn) * length, y0 + math.sin(turn) * length
        width = _line_width(sheet, pen, rng)
        margin = 0.3 * mm + width
        steps = np.linspace(0, 1, 12)
        xs, ys = x0 + (x1 - x0) * steps, y0 + (y1 - y0) * steps
        if any(((xs > m.x * k - margin) & (xs < (m.x + m.width) * k + margin) & (ys > m.y * k - margin)
                & (ys < (m.y + m.height) * k + margin)).any() for m in marks
               if abs(m.x * k - cx) < 12 * mm and abs(m.y * k - cy) < 12 * mm):
            continue
        mask = np.zeros(sheet.image.shape, dtype=np.uint8)
        cv2.line(mask, (round(x0), round(y0)), (round(x1), round(y1)), 1, width)
        return mask
    return None


# --- the sheet filled -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Filling:
    """How a family fills sheets: the styles of bubbles and figures (with weights), the instruments, and what
    else is on the paper."""

    styles: dict[str, float] = field(default_factory=lambda: {"full": 0.5, "partial": 0.15, "tick": 0.2,
                                                              "cross": 0.15})
    figures: dict[str, float] = field(default_factory=lambda: {"figure": 1.0})
    pens: dict[str, float] = field(default_factory=lambda: {"hb": 0.5, "ballpoint": 0.3, "felt": 0.2})
    #: share of empty marks with a stray stroke beside them
    strays: float = 0.05
    #: share of empty marks of a field with a filled one that carry a rubbed-out ghost; and the share of those
    #: rubbed out badly (a person must be asked)
    ghosts: float = 0.0
    bad_ghosts: float = 0.0
    #: empty figures with a slip across them
    figure_slips: float = 0.0


@dataclass
class Filled:
    sheet: Sheet
    image: Image
    shine: Image
    truth: list[bool | None]
    styles: dict[str, int]
    #: the player's instrument (one player, one instrument)
    pen: Instrument


def _pick(weights: dict[str, float], rng: random.Random) -> str:
    return rng.choices(list(weights), list(weights.values()))[0]


def fill_sheet(sheet: Sheet, filled: Sequence[bool], rng: random.Random, how: Filling) -> Filled:
    """The sheet with the marks of `filled` marked as the family does; the truth of each mark."""
    image = sheet.image.copy()
    shine = np.where(image < 200, SHINE_PRINT, SHINE_PAPER).astype(np.float32)
    truth: list[bool | None] = list(filled)
    marks = sheet.map.marks
    pen = INSTRUMENTS[_pick(how.pens, rng)]  # one player, one instrument
    styles: dict[str, int] = {}
    fields_filled = {m.field for m, f in zip(marks, filled) if f}
    # a mark may be crossed by a neighbour's scribble: scribbles go last, over what is there
    order = sorted(range(len(marks)), key=lambda i: filled[i] and marks[i].shape != "figure")
    for index in order:
        mark, is_filled = marks[index], filled[index]
        style = None
        if is_filled:
            style = _pick(how.figures if mark.shape == "figure" else how.styles, rng)
            if style == "figure-half":
                truth[index] = None
            mask = style_mask(sheet, mark, style, pen, rng, marks)
            _ink(image, shine, mask, pen, rng)
        elif mark.shape == "figure" and how.figure_slips and rng.random() < how.figure_slips:
            style = "figure-slip"
            _ink(image, shine, style_mask(sheet, mark, style, pen, rng), pen, rng)
        elif how.ghosts and mark.field in fields_filled and rng.random() < how.ghosts:
            bad = rng.random() < how.bad_ghosts
            style = "ghost-bad" if bad else "ghost"
            # a figure was coloured in, a bubble filled, ticked or crossed, before it was rubbed out
            shape = "figure" if mark.shape == "figure" else _pick({"full": 0.6, "tick": 0.2, "cross": 0.2}, rng)
            ghost = style_mask(sheet, mark, shape, pen, rng)
            # rubbed out: a fraction of the graphite left (of its darkest line, once smeared by the eraser)
            smear = rng.uniform(0.2, 0.6) * sheet.px_per_mm
            trace = cv2.GaussianBlur(ghost.astype(np.float32), (0, 0), smear)
            left = (rng.uniform(0.25, 0.35) if bad else rng.uniform(0.04, 0.12)) / max(float(trace.max()), 0.2)
            image = np.clip(image - trace * left * (255 - rng.uniform(*pen.tone)), 0, 255).astype(np.uint8)
            shine = np.maximum(shine, (trace > 0.3) * pen.shine * left).astype(np.float32)
            if bad:
                truth[index] = None
        elif how.strays and rng.random() < how.strays:
            stroke = stray_mask(sheet, mark, pen, rng, marks)
            if stroke is not None:
                style = "stray"
                _ink(image, shine, stroke, pen, rng)
        if style:
            styles[style] = styles.get(style, 0) + 1
    return Filled(sheet, image, shine, truth, styles, pen)


# --- the sheet photographed -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Camera:
    """How the photo is taken and what is in it; ranges are drawn at random per photo."""

    megapixels: tuple[float, ...] = (8, 12)
    turn: tuple[float, float] = (-12, 12)         # degrees about the lens axis (any: -180, 180)
    tilt: tuple[float, float] = (0, 8)            # degrees off straight above
    fill: tuple[float, float] = (0.7, 0.9)        # share of the frame the sheet fills
    surface: tuple[str, ...] = ("plain",)         # plain, wood, cloth
    curl_mm: tuple[float, float] = (0, 1.5)       # height of the curl at the lifted edge
    fold_mm: tuple[float, float] = (0, 0)         # height of a fold's ridge
    gradient: tuple[float, float] = (0, 0.15)     # light falling off across the photo
    vignette: tuple[float, float] = (0, 0.1)
    shadow: tuple[float, float] = (0, 0)          # depth of a hard shadow's dark side
    glare: tuple[float, float] = (0, 0)           # strength of a glare spot
    paper: tuple[float, float] = (0.8, 0.95)      # how bright the paper comes out (the phone's exposure)
    finger: str = ""                              # "", "edge" (holding the sheet), "marks" (over marks)
    blur_mm: tuple[float, float] = (0, 0.06)      # defocus, as a gaussian's sigma on the sheet
    motion_mm: tuple[float, float] = (0, 0)       # motion blur's length on the sheet
    noise: tuple[float, float] = (1.5, 4)
    exposure: tuple[float, float] = (1, 1)        # below 1: a dark room, the phone's gain raises noise too
    quality: tuple[int, int] = (80, 92)
    clutter: str = ""                             # "", "partial" (sheets and cards partly in frame), "two"


@dataclass
class Photo:
    data: bytes
    truth: list[bool | None]
    #: marks the camera could not see at all (their indexes)
    hidden: set[int]
    meta: dict[str, Any]
    #: the reader must refuse the photo, for this reason ("two-sheets"); "" when it must read it
    refuse: str = ""
    #: empty marks not hidden where glare would still drown the lightest line of the player's instrument (its
    #: palest grey): read empty, they are right only if the player never marks that lightly (a diagnostic; the
    #: judge does not use it)
    faint: set[int] = field(default_factory=set)


@dataclass
class _Pose:
    """A pinhole camera: world (the sheet's plane z = 0, millimetres from the sheet's centre, x to the right, y
    down the sheet, so z away from the camera: heights over the table are negative z) to the photo's pixels."""

    rotation: Image   # world -> camera
    centre: Image     # the camera in the world
    focal: float
    principal: tuple[float, float]

    def project(self, points: Image) -> Image:
        cam = (np.asarray(points, dtype=np.float64) - self.centre) @ self.rotation.T
        return np.stack([self.focal * cam[:, 0] / cam[:, 2] + self.principal[0],
                         self.focal * cam[:, 1] / cam[:, 2] + self.principal[1]], axis=1)

    def rays(self, xs: Image, ys: Image) -> tuple[Image, Image, Image]:
        """The direction of the ray through each pixel, in the world."""
        dx = (xs - self.principal[0]) / self.focal
        dy = (ys - self.principal[1]) / self.focal
        r = self.rotation  # camera -> world is its transpose
        return (r[0, 0] * dx + r[1, 0] * dy + r[2, 0], r[0, 1] * dx + r[1, 1] * dy + r[2, 1],
                r[0, 2] * dx + r[1, 2] * dy + r[2, 2])


def _pose(span: tuple[float, float, float, float], frame: tuple[int, int], rng: random.Random, camera: Camera
          ) -> tuple[_Pose, dict[str, Any]]:
    """A camera that sees the table's rectangle `span` (left, top, right, bottom, in mm) fill its share of the
    frame, somewhere in it."""
    left, top, right_, bottom = span
    W, H = frame
    tilt = math.radians(rng.uniform(*camera.tilt))
    azimuth = rng.uniform(0, 2 * math.pi)
    turn = math.radians(rng.uniform(*camera.turn))
    towards = np.array([math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), -math.cos(tilt)])
    forward = -towards
    # the camera's down is the sheet's down turned by `turn`, made square to the lens axis
    down = np.array([-math.sin(turn), math.cos(turn), 0.0])
    down = down - forward * (down @ forward)
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    rotation = np.stack([right, down, forward])
    focal = 1.1 * max(W, H)
    corners = np.array([(left, top, 0), (right_, top, 0), (right_, bottom, 0), (left, bottom, 0)])
    share = rng.uniform(*camera.fill)
    distance = 600.0
    for _ in range(4):
        pose = _Pose(rotation, towards * distance, focal, (W / 2, H / 2))
        seen = pose.project(corners)
        extent = max(np.ptp(seen[:, 0]) / W, np.ptp(seen[:, 1]) / H)
        distance *= extent / share
    pose = _Pose(rotation, towards * distance, focal, (W / 2, H / 2))
    seen = pose.project(corners)
    room = (W - np.ptp(seen[:, 0])) / 2 * 0.8, (H - np.ptp(seen[:, 1])) / 2 * 0.8
    middle = (seen[:, 0].max() + seen[:, 0].min()) / 2, (seen[:, 1].max() + seen[:, 1].min()) / 2
    shift = (W / 2 - middle[0] + rng.uniform(-1, 1) * max(room[0], 0),
             H / 2 - middle[1] + rng.uniform(-1, 1) * max(room[1], 0))
    pose.principal = (W / 2 + shift[0], H / 2 + shift[1])
    return pose, {"tilt": round(math.degrees(tilt), 1), "turn": round(math.degrees(turn)),
                  "distance_mm": round(distance)}


class _Surface:
    """The sheet's shape: its height over the table (mm) at each place of the table, and where on the paper
    that place is (a curl takes up paper: a lifted edge is shorter seen from above)."""

    def __init__(self, size_mm: tuple[float, float], rng: random.Random, camera: Camera) -> None:
        self.width, self.height = size_mm
        self.curl = rng.uniform(*camera.curl_mm)
        self.curl_angle = rng.uniform(0, 2 * math.pi)  # the direction the curl rises towards
        self.fold = rng.uniform(*camera.fold_mm)
        self.fold_angle = rng.uniform(0, math.pi)
        self.fold_offset = rng.uniform(-0.25, 0.25) * min(size_mm)
        self.fold_reach = rng.uniform(35, 70)
        half = math.hypot(self.width, self.height) / 2
        self.reach = half
        # arc length along the curl's direction, tabulated: z = curl * ((u - u0) / (half - u0))^2 beyond u0
        self.start = rng.uniform(-0.2, 0.3) * half
        us = np.linspace(-half * 1.2, half * 1.2, 2001)
        slope = np.where(us > self.start, 2 * self.curl * (us - self.start) / (half - self.start) ** 2, 0.0)
        arc = np.concatenate([[0], np.cumsum(np.sqrt(1 + slope[1:] ** 2) * np.diff(us))])
        arc -= np.interp(0.0, us, arc)
        self._us, self._arc = us, arc

    def _along(self, x: Image, y: Image) -> Image:
        return x * math.cos(self.curl_angle) + y * math.sin(self.curl_angle)

    def z(self, x: Image, y: Image) -> Image:
        u = self._along(x, y)
        out = np.where(u > self.start, self.curl * ((u - self.start) / (self.reach - self.start)) ** 2, 0.0)
        if self.fold:
            d = x * math.cos(self.fold_angle) + y * math.sin(self.fold_angle) - self.fold_offset
            out = out + self.fold * np.clip(1 - np.abs(d) / self.fold_reach, 0, None)
        return out.astype(np.float32)

    def paper(self, x: Image, y: Image) -> tuple[Image, Image]:
        """The place on the paper (mm from its centre) that lies over table place (x, y)."""
        if not self.curl:
            return x, y
        u = self._along(x, y)
        stretched = np.interp(u, self._us, self._arc).astype(np.float32)
        c, s = math.cos(self.curl_angle), math.sin(self.curl_angle)
        return x + (stretched - u) * c, y + (stretched - u) * s

    def slope(self, x: Image, y: Image) -> tuple[Image, Image]:
        e = 0.5
        return ((self.z(x + e, y) - self.z(x - e, y)) / (2 * e), (self.z(x, y + e) - self.z(x, y - e)) / (2 * e))


def _table(shape: tuple[int, int], kind: str, rng: random.Random) -> Image:
    H, W = shape
    noise = np.random.default_rng(rng.randrange(1 << 30))
    if kind == "wood":
        # grain: stretched noise along one direction, in warm mid tones, with dark lines
        base = rng.uniform(90, 150)
        small = noise.normal(0, 1, (H // 40 + 2, W // 4 + 2)).astype(np.float32)
        grain = cv2.resize(small, (W, H), interpolation=cv2.INTER_CUBIC)
        lines = (np.sin(np.arange(H, dtype=np.float32)[:, None] / rng.uniform(6, 14) + grain * 2) > 0.85) * -35
        table = base + grain * 14 + lines
        if rng.random() < 0.5:
            table = cv2.resize(np.ascontiguousarray(table.T), (W, H))  # the grain the other way
    elif kind == "cloth":
        # a checked tablecloth: squares of two tones, a weave's fine texture
        period = rng.uniform(20, 60)
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a)
        v = -xx * math.sin(a) + yy * math.cos(a)
        check = ((np.floor(u / period) + np.floor(v / period)) % 2).astype(np.float32)
        light, dark = rng.uniform(150, 230), rng.uniform(40, 110)
        table = dark + (light - dark) * check + noise.normal(0, 8, (H, W)).astype(np.float32)
    else:
        table = np.full((H, W), rng.uniform(40, 160), dtype=np.float32)
        small = noise.normal(0, 18, (H // 16 + 1, W // 16 + 1)).astype(np.float32)
        table += cv2.resize(small, (W, H), interpolation=cv2.INTER_CUBIC)
    return table.astype(np.float32)


def _finger(frame: tuple[int, int], pose: _Pose, size_mm: tuple[float, float], rng: random.Random,
            over: Sequence[tuple[float, float]]) -> Image:
    """A fingertip over the sheet, as a mask of the photo (1 finger, 0 not) with a soft edge: holding the sheet at
    its edge, or laid over marks (`over`: the marks' centres in mm, one of which it covers)."""
    width, height = size_mm
    if over:
        tip = rng.choice(list(over))
        # from the nearest edge of the sheet, a finger 16 to 20 mm wide reaching just past the mark
        edges = [(tip[0] + width / 2, (-1, 0)), (width / 2 - tip[0], (1, 0)), (tip[1] + height / 2, (0, -1)),
                 (height / 2 - tip[1], (0, 1))]
        _, out = min(edges)
        end = (tip[0] - out[0] * rng.uniform(2, 5), tip[1] - out[1] * rng.uniform(2, 5))
        start = (end[0] + out[0] * 120, end[1] + out[1] * 120)
    else:
        side = rng.randrange(4)
        # along the edge; a third of the time at a corner, over its marker
        along = rng.choice((-1, 1)) * rng.uniform(0.38, 0.47) if rng.random() < 0.33 else rng.uniform(-0.45, 0.45)
        into = rng.uniform(10, 25)
        if side == 0:
            end, out = (along * width, -height / 2 + into), (0, -1)
        elif side == 1:
            end, out = (width / 2 - into, along * height), (1, 0)
        elif side == 2:
            end, out = (along * width, height / 2 - into), (0, 1)
        else:
            end, out = (-width / 2 + into, along * height), (-1, 0)
        slant = rng.uniform(-0.4, 0.4)
        start = (end[0] + (out[0] + slant * out[1]) * 120, end[1] + (out[1] + slant * out[0]) * 120)
    thick = rng.uniform(18, 24)
    steps = np.linspace(0, 1, 24)
    axis = np.array([(end[0] + (start[0] - end[0]) * t, end[1] + (start[1] - end[1]) * t, -12.0) for t in steps])
    seen = pose.project(axis)
    # the finger's width in pixels at its tip, from the projection of a point beside it
    side_point = pose.project(np.array([(end[0] + thick / 2 * -(start[1] - end[1]) / 120,
                                         end[1] + thick / 2 * (start[0] - end[0]) / 120, -12.0)]))[0]
    half = float(np.hypot(*(side_point - seen[0])))
    W, H = frame
    mask = np.zeros((H, W), dtype=np.float32)
    cv2.polylines(mask, [seen.round().astype(np.int32)], False, 1.0, max(2, round(2 * half)))
    cv2.circle(mask, tuple(int(v) for v in seen[0].round()), max(1, round(half)), 1.0, -1)
    soft = max(1.0, half * 0.15)
    return cv2.GaussianBlur(mask, (0, 0), soft)


#: Geometry and light are computed on every GRID-th pixel of the photo (they are smooth) and spread between.
GRID = 8


def _spread(grid: Image, frame: tuple[int, int]) -> Image:
    """A quantity computed at every GRID-th pixel, at every pixel (bilinear)."""
    scale = np.array([[1 / GRID, 0, 0], [0, 1 / GRID, 0]], dtype=np.float64)
    return cv2.warpAffine(grid.astype(np.float32), scale, frame, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def shoot(filled: Filled, rng: random.Random, camera: Camera, others: Sequence[Other] = ()) -> Photo:
    """The filled sheet photographed as `camera` says; `others` are images of other sheets or cards for clutter
    (rasterised at the same resolution as the sheet)."""
    sheet = filled.sheet
    mm = sheet.px_per_mm
    h_px, w_px = filled.image.shape
    size = (w_px / mm, h_px / mm)
    megapixels = rng.choice(camera.megapixels)
    long_side = math.sqrt(megapixels * 1e6 * 4 / 3)
    W, H = round(long_side), round(long_side * 3 / 4)
    if rng.random() < 0.5:
        W, H = H, W
    span = (-size[0] / 2, -size[1] / 2, size[0] / 2, size[1] / 2)
    pair = 0.0
    if camera.clutter == "two":
        # a second whole sheet beside this one, both in the frame
        pair = rng.choice((-1, 1)) * (size[0] + rng.uniform(8, 30))
        span = (min(span[0], pair - size[0] / 2) - 12, span[1] - 12, max(span[2], pair + size[0] / 2) + 12,
                span[3] + 12)
    pose, meta = _pose(span, (W, H), rng, camera)
    surface = _Surface(size, rng, camera)
    # geometry and light are smooth: computed on a grid of every GRID-th pixel, then spread to every pixel
    gh, gw = H // GRID + 2, W // GRID + 2
    ys, xs = (a * float(GRID) for a in np.mgrid[0:gh, 0:gw].astype(np.float32))
    rx, ry, rz = pose.rays(xs, ys)
    cx, cy, cz = (float(v) for v in pose.centre)
    # the ray meets the table (z = 0), then the raised paper (at z = -height) a little earlier: two steps of the
    # fixed point
    t = -cz / rz
    px, py = cx + t * rx, cy + t * ry
    if surface.curl or surface.fold:
        for _ in range(2):
            t = (-surface.z(px, py) - cz) / rz
            px, py = cx + t * rx, cy + t * ry
    # light on the table: a gradient across it, the shading of the paper's slope, a hard shadow's edge
    light = np.ones(px.shape, dtype=np.float32)
    g = rng.uniform(*camera.gradient)
    angle = rng.uniform(0, 2 * math.pi)
    light *= 1 - g * (0.5 + ((px * math.cos(angle) + py * math.sin(angle)) / max(size)).clip(-0.5, 0.5))
    v = rng.uniform(*camera.vignette)
    if v:
        light *= 1 - v * ((xs - W / 2) ** 2 + (ys - H / 2) ** 2) / ((W / 2) ** 2 + (H / 2) ** 2)
    if surface.curl or surface.fold:
        sx, sy = surface.slope(px, py)
        lx, ly = math.cos(angle + 0.6), math.sin(angle + 0.6)
        light *= np.clip(1 + 1.2 * (sx * lx + sy * ly), 0.55, 1.2)
    qx, qy = surface.paper(px, py)
    px, py, qx, qy, light = (_spread(a, (W, H)) for a in (px, py, qx, qy, light))
    shadow_depth = rng.uniform(*camera.shadow)
    if shadow_depth:
        a = rng.uniform(0, math.pi)
        offset = rng.uniform(-0.3, 0.3) * min(size)
        d = px * math.cos(a) + py * math.sin(a) - offset
        # a hard edge: a penumbra of 0.5 to 2 mm, and a second edge sometimes (the shadow of a phone is a band)
        soft = rng.uniform(0.5, 2.0)
        dark = 0.5 + 0.5 * np.tanh(d / (2 * soft))
        if rng.random() < 0.5:
            dark = dark * (0.5 - 0.5 * np.tanh((d - rng.uniform(40, 120)) / (2 * soft)))
        light *= 1 - shadow_depth * dark
        meta["shadow"] = round(shadow_depth, 2)
    # the paper: where each table place lies on it (pixels of the sheet image)
    map_x = ((qx + size[0] / 2) * mm).astype(np.float32)
    map_y = ((qy + size[1] / 2) * mm).astype(np.float32)
    # the sheet image is first smoothed as much as the photo is coarser (a camera's pixels average, not skip)
    step = pose.project(np.array([(0, 0, 0), (10, 0, 0), (0, 10, 0)]))
    px_per_mm_photo = float(min(np.hypot(*(step[1] - step[0])), np.hypot(*(step[2] - step[0])))) / 10
    coarser = mm / px_per_mm_photo
    source = filled.image.astype(np.float32)
    shine = filled.shine
    if coarser > 1.3:
        source = cv2.GaussianBlur(source, (0, 0), 0.45 * coarser)
        shine = cv2.GaussianBlur(shine, (0, 0), 0.45 * coarser)
    table = _table((H, W), rng.choice(camera.surface), rng)
    photo = cv2.remap(source, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=-1)
    shiny = cv2.remap(shine, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    on_sheet = photo >= 0
    refuse = ""
    if camera.clutter:
        photo, shiny, on_sheet, refuse = _clutter(photo, shiny, on_sheet, px, py, size, mm, pose, others, rng,
                                                  camera, meta, pair)
    base = np.where(on_sheet, photo, table)
    del table
    # glare: a specular lobe whose brightness follows the shininess of what it falls on
    glare = rng.uniform(*camera.glare)
    hidden: set[int] = set()
    faint: set[int] = set()
    marks = sheet.map.marks
    centres = np.array([((m.x + m.width / 2) * MM_PER_PT - size[0] / 2, (m.y + m.height / 2) * MM_PER_PT - size[1] / 2)
                        for m in marks])
    lit = base * light * rng.uniform(*camera.paper)
    if glare:
        # a lamp's reflection lands anywhere on the sheet; now and then right over a mark
        at = centres[rng.randrange(len(centres))] if rng.random() < 0.3 else (
            rng.uniform(-0.45, 0.45) * size[0], rng.uniform(-0.45, 0.45) * size[1])
        gx, gy = at[0] + rng.uniform(-15, 15), at[1] + rng.uniform(-15, 15)
        radius = rng.uniform(10, 35)
        # a lamp's reflection: a bright core and a wider halo
        spread = ((px - gx) ** 2 + (py - gy) ** 2) / (2 * radius ** 2)
        lobe = (0.7 * np.exp(-spread * 4) + 0.3 * np.exp(-spread)).astype(np.float32)
        strength = glare * 255
        lit = lit + lobe * strength * np.where(on_sheet, shiny, 0.3)
        meta["glare"] = {"at_mm": [round(float(gx)), round(float(gy))], "radius_mm": round(radius),
                         "strength": round(glare, 2)}
        # a mark is hidden when the glare leaves its own ink less than a third of its contrast: a filled mark's
        # ink is what filled it (its tone and shine, from the sheet as filled: HB graphite drowns, felt-tip ink
        # stays plainly dark); an empty mark is hidden where a fill of the player's instrument would be, since
        # an empty look there cannot be told from a drowned fill
        for index, (mx, my) in enumerate(centres):
            here = ((mx - gx) ** 2 + (my - gy) ** 2) / (2 * radius ** 2)
            lobe_here = 0.7 * math.exp(-here * 4) + 0.3 * math.exp(-here)
            tone, shine_ink = _own_ink(filled, index)
            paper = min(255.0, 220 + lobe_here * strength * SHINE_PAPER)
            if _drowned(tone, shine_ink, paper, lobe_here * strength):
                hidden.add(index)
            elif filled.truth[index] is False and _drowned(filled.pen.tone[1], shine_ink, paper, lobe_here * strength):
                faint.add(index)
    photo_f = lit
    if camera.finger:
        over = [] if camera.finger == "edge" else [(float(x), float(y)) for x, y in centres]
        finger = _finger((W, H), pose, size, rng, over)
        skin = rng.uniform(110, 175) * (0.9 + 0.1 * light)
        # its shadow on the paper beside it, then the finger itself
        shade = np.roll(finger, (round(W * 0.01), round(H * 0.012)), axis=(1, 0))
        photo_f = photo_f * (1 - 0.35 * shade)
        photo_f = photo_f * (1 - finger) + skin * finger
        seen_marks = pose.project(np.column_stack([centres, np.zeros(len(centres))]))
        for index, (u, v) in enumerate(seen_marks):
            if 0 <= u < W and 0 <= v < H and finger[int(v), int(u)] > 0.3:
                hidden.add(index)
        meta["finger"] = camera.finger
    # what is out of the frame cannot be seen either
    seen_marks = pose.project(np.column_stack([centres, np.zeros(len(centres))]))
    for index, (u, v) in enumerate(seen_marks):
        if not (0 <= u < W and 0 <= v < H):
            hidden.add(index)
    del px, py, light, lit, base, shiny
    # the phone: exposure, blur, noise, JPEG
    exposure = rng.uniform(*camera.exposure)
    blur = rng.uniform(*camera.blur_mm)
    if blur * px_per_mm_photo > 0.3:
        photo_f = cv2.GaussianBlur(photo_f, (0, 0), blur * px_per_mm_photo)
    motion = rng.uniform(*camera.motion_mm) * px_per_mm_photo
    if motion > 1:
        length = max(3, round(motion)) | 1
        kernel = np.zeros((length, length), dtype=np.float32)
        kernel[length // 2, :] = 1
        turn = rng.uniform(0, 180)
        kernel = cv2.warpAffine(kernel, cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), turn, 1.0),
                                (length, length))
        kernel /= kernel.sum()
        photo_f = cv2.filter2D(photo_f, -1, kernel)
        meta["motion_px"] = round(motion, 1)
    noise = np.random.default_rng(rng.randrange(1 << 30))
    sigma = rng.uniform(*camera.noise)
    if exposure < 1:
        # a dark room: less light, the same sensor noise, then the phone's gain brings the picture up
        photo_f = photo_f * exposure + noise.normal(0, sigma * 1.5, photo_f.shape).astype(np.float32)
        photo_f = photo_f / exposure * rng.uniform(0.55, 0.75)
        meta["exposure"] = round(exposure, 2)
    else:
        photo_f = photo_f + noise.normal(0, sigma, photo_f.shape).astype(np.float32)
    grey = np.clip(photo_f, 0, 255).astype(np.uint8)
    colour = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    colour = np.clip(colour.astype(np.int16) + np.array([-8, 0, 6], dtype=np.int16), 0, 255).astype(np.uint8)
    quality = rng.randint(*camera.quality)
    ok, encoded = cv2.imencode(".jpg", colour, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    meta.update({"megapixels": round(W * H / 1e6, 1), "size": [W, H], "curl_mm": round(surface.curl, 1),
                 "fold_mm": round(surface.fold, 1), "blur_px": round(blur * px_per_mm_photo, 2),
                 "px_per_mm": round(px_per_mm_photo, 2), "noise": round(sigma, 1), "quality": quality})
    return Photo(encoded.tobytes(), list(filled.truth), hidden, meta, refuse, faint)


def _drowned(tone: float, shine: float, paper: float, glare: float) -> bool:
    """Whether a line of grey `tone` and `shine` keeps less than a third of its contrast with the paper (`paper`
    its grey under the glare) where the glare adds `glare` (grey levels, times the shine)."""
    return abs(paper - min(255.0, tone + glare * shine)) < (220 - tone) / 3


def _own_ink(filled: Filled, index: int) -> tuple[float, float]:
    """The grey and the shine of the ink that marks `filled`'s mark `index`: where a player's ink lies in the
    middle of the mark (the printed sheet left out), its median; for a mark not filled, or filled too thinly to
    say, a mid-tone line of the player's instrument."""
    pen = (sum(filled.pen.tone) / 2, filled.pen.shine)
    if filled.truth[index] is False:
        return pen
    mark, k = filled.sheet.map.marks[index], filled.sheet.render
    x0, y0 = round((mark.x + mark.width * 0.2) * k), round((mark.y + mark.height * 0.2) * k)
    x1, y1 = round((mark.x + mark.width * 0.8) * k), round((mark.y + mark.height * 0.8) * k)
    before = filled.sheet.image[y0:y1, x0:x1].astype(np.float32)
    after = filled.image[y0:y1, x0:x1].astype(np.float32)
    inked = (before - after > 30) & (before > 200)
    if inked.sum() < 4:
        return pen
    return float(np.median(after[inked])), float(np.median(filled.shine[y0:y1, x0:x1][inked]))


@dataclass(frozen=True)
class Other:
    """Something else on the table: its image (at the sheet's resolution) and, for another sheet, the centres of
    its corner markers in mm from its top-left corner (it must not show three of them in a "partial" photo)."""

    image: Image
    markers: tuple[tuple[float, float], ...] = ()


def _clutter(photo: Image, shiny: Image, on_sheet: Image, px: Image, py: Image, size: tuple[float, float],
             mm: float, pose: _Pose, others: Sequence[Other], rng: random.Random, camera: Camera,
             meta: dict[str, Any], pair: float) -> tuple[Image, Image, Image, str]:
    """Other sheets and cards around the sheet: partly in frame and under it ("partial": none shows three corner
    markers), or a second whole sheet beside it ("two": the photo must be refused)."""
    width, height = size
    H, W = photo.shape
    outline = pose.project(np.array([(-width / 2, -height / 2, 0), (width / 2, -height / 2, 0),
                                     (width / 2, height / 2, 0), (-width / 2, height / 2, 0)])).astype(np.float32)
    placed: list[tuple[Other, float, float, float]] = []
    refuse = ""
    if camera.clutter == "two":
        placed.append((others[0], pair, rng.uniform(-8, 8), math.radians(rng.uniform(-3, 3))))
        refuse = "two-sheets"
    else:
        for other in others:
            oh, ow = (v / mm for v in other.image.shape)
            for _ in range(40):
                # its centre near a border of the frame, outside the sheet: half of it or more out of the frame
                side = rng.randrange(4)
                u = rng.uniform(0.05, 0.95) * (W if side in (0, 2) else H)
                at = {0: (u, rng.uniform(-0.05, 0.02) * H), 1: (W * rng.uniform(0.98, 1.05), u),
                      2: (u, H * rng.uniform(0.98, 1.05)), 3: (rng.uniform(-0.05, 0.02) * W, u)}[side]
                inside = (min(max(int(at[1]), 0), H - 1), min(max(int(at[0]), 0), W - 1))
                if on_sheet[inside]:
                    continue
                ox, oy = float(px[inside]), float(py[inside])
                turn = math.radians(rng.uniform(0, 360))
                c, s = math.cos(turn), math.sin(turn)
                shown = 0
                for mx, my in other.markers:
                    lx, ly = mx - ow / 2, my - oh / 2
                    where = pose.project(np.array([(ox + c * lx - s * ly, oy + s * lx + c * ly, 0)]))[0]
                    if 0 <= where[0] < W and 0 <= where[1] < H and \
                            cv2.pointPolygonTest(outline, (float(where[0]), float(where[1])), False) < 0:
                        shown += 1
                if shown < 3:
                    placed.append((other, ox, oy, turn))
                    break
    for other, ox, oy, turn in placed:
        oh, ow = other.image.shape
        c, s = math.cos(turn), math.sin(turn)
        lx, ly = px - ox, py - oy
        ux, uy = c * lx + s * ly, -s * lx + c * ly
        mx = ((ux + ow / mm / 2) * mm).astype(np.float32)
        my = ((uy + oh / mm / 2) * mm).astype(np.float32)
        seen = cv2.remap(other.image.astype(np.float32), mx, my, cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=-1)
        under = (seen >= 0) & ~on_sheet
        photo = np.where(under, seen, photo)
        shiny = np.where(under, SHINE_PAPER, shiny)
        on_sheet = on_sheet | under
    meta["clutter"] = f"{camera.clutter}: {len(placed)}"
    return photo, shiny, on_sheet, refuse


# --- families -----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Family:
    name: str
    doc: str
    filling: Filling = field(default_factory=Filling)
    camera: Camera = field(default_factory=Camera)
    #: the issue's target: the least share of photos read right (the rest asked or refused, with a reason)
    target: float | None = None


_ANY_TURN = (-180.0, 180.0)
FAMILIES: dict[str, Family] = {f.name: f for f in [
    Family("clean", "a flat sheet in good light, nearly straight above, filled with ticks, crosses and fills in "
           "HB pencil, ballpoint or felt tip", target=0.9),
    Family("perspective", "shot at an angle of up to 35 degrees",
           camera=Camera(tilt=(15, 35), fill=(0.6, 0.85)), target=0.9),
    Family("rotation", "turned by any angle, upside down included", camera=Camera(turn=_ANY_TURN), target=0.9),
    Family("gradient", "light falling off across the sheet, and a vignette",
           camera=Camera(gradient=(0.3, 0.55), vignette=(0.15, 0.35)), target=0.9),
    Family("wood", "on a wooden table", camera=Camera(surface=("wood",), turn=_ANY_TURN, tilt=(0, 15)),
           target=0.9),
    Family("tablecloth", "on a checked tablecloth", camera=Camera(surface=("cloth",), turn=_ANY_TURN, tilt=(0, 15)),
           target=0.9),
    Family("curl", "a sheet curled up at one side (12 to 35 mm), shot at an angle: marks move up to 5 mm from "
           "where the corner markers place them", camera=Camera(curl_mm=(12, 35), tilt=(15, 35), turn=_ANY_TURN),
           target=0.9),
    Family("fold", "folded and opened again: a ridge of up to 8 mm, its two sides lit differently",
           camera=Camera(fold_mm=(3, 8), tilt=(5, 25), turn=_ANY_TURN), target=0.9),
    Family("finger", "a finger holding the sheet at its edge, over a corner marker now and then",
           camera=Camera(finger="edge", turn=_ANY_TURN), target=0.9),
    Family("finger-over-marks", "a finger laid over marks: those must be asked about",
           camera=Camera(finger="marks", turn=_ANY_TURN)),
    Family("jpeg", "heavily compressed (JPEG quality 25 to 45)", camera=Camera(quality=(25, 45)), target=0.9),
    Family("low-resolution", "a 1 to 2 megapixel photo", camera=Camera(megapixels=(1.0, 1.5, 2.0), fill=(0.8, 0.95)),
           target=0.9),
    Family("glare", "a glare spot on the sheet: pencil shines most",
           camera=Camera(glare=(0.4, 1.3), paper=(0.7, 0.85), tilt=(5, 20)), target=0.6),
    Family("hard-shadow", "the hard-edged shadow of a hand or a phone across the sheet",
           camera=Camera(shadow=(0.35, 0.65), turn=_ANY_TURN), target=0.6),
    Family("blur", "defocus or a shaking hand: from slightly soft to unreadable",
           camera=Camera(blur_mm=(0.05, 0.5), motion_mm=(0, 1.2)), target=0.6),
    Family("noise", "sensor noise of a small phone camera", camera=Camera(noise=(8, 16)), target=0.6),
    Family("low-light", "a dark room: underexposed, the gain raising the noise",
           camera=Camera(exposure=(0.15, 0.35), noise=(4, 8))),
    Family("circled", "values circled around their bubble instead of filled",
           filling=Filling(styles={"circled": 0.7, "full": 0.15, "tick": 0.15})),
    Family("scribbles", "quick scribbles running past the bubble's edge, now and then into a neighbour's",
           filling=Filling(styles={"scribble": 0.8, "full": 0.2})),
    Family("partial-residents", "resident figures coloured in wholly, mostly or half (a half one must be asked)",
           filling=Filling(figures={"figure": 0.5, "figure-most": 0.35, "figure-half": 0.15}, figure_slips=0.15)),
    Family("erased-ghosts", "values rubbed out and filled again beside: faint ghosts, and now and then a ghost "
           "rubbed out so badly it must be asked about", filling=Filling(ghosts=0.35, bad_ghosts=0.15)),
    Family("light-ticks", "light ticks and crosses in a hard 2H pencil",
           filling=Filling(styles={"tick": 0.6, "cross": 0.4}, pens={"2h": 1.0})),
    Family("clutter", "other sheets and cards partly in the frame around the sheet",
           camera=Camera(clutter="partial", fill=(0.55, 0.7), turn=_ANY_TURN)),
    Family("two-sheets", "two whole sheets side by side: the photo must be refused with that reason",
           camera=Camera(clutter="two", fill=(0.85, 0.95))),
]}


def make(family: Family, sheet: Sheet, filled: Sequence[bool], seed: int | str,
         others: Callable[[random.Random], Sequence[Other]] | None = None) -> Photo:
    """One photo of `family`: the sheet with the marks of `filled`, filled and photographed with the seed's
    chances. `others` gives the images around the sheet for clutter."""
    return _shots(family, sheet, filled, seed, others, second=False)[0]


def make_pair(family: Family, sheet: Sheet, filled: Sequence[bool], seed: int | str,
              others: Callable[[random.Random], Sequence[Other]] | None = None) -> tuple[Photo, Photo]:
    """The photo `make` makes, and a second photo of the same filled sheet (the same strokes of the same pen) shot
    again with fresh chances: another pose, light and glare spot, as a retake with the phone tilted gives."""
    first, again = _shots(family, sheet, filled, seed, others, second=True)
    return first, again


def _shots(family: Family, sheet: Sheet, filled: Sequence[bool], seed: int | str,
           others: Callable[[random.Random], Sequence[Other]] | None, second: bool) -> list[Photo]:
    """The sheet filled once with the seed's chances and shot with what is left of them (`make`'s photo), and with
    `second` shot again with chances of its own."""
    rng = random.Random(f"{family.name}:{seed}")
    filling = fill_sheet(sheet, filled, rng, family.filling)
    around = others(rng) if others is not None and family.camera.clutter else ()
    photos = [shoot(filling, rng, family.camera, around)]
    if second:
        photos.append(shoot(filling, random.Random(f"{family.name}:{seed}:second"), family.camera, around))
    for photo in photos:
        photo.meta.update({"family": family.name, "seed": seed, "styles": filling.styles, "pen": filling.pen.name})
    return photos


def card(rng: random.Random, px_per_mm: float) -> Image:
    """A playing card (63 x 88 mm) of the grey of a printed card: a frame, a picture's blocks, lines of text."""
    w, h = round(63 * px_per_mm), round(88 * px_per_mm)
    image = np.full((h, w), rng.uniform(170, 235), dtype=np.float32)
    cv2.rectangle(image, (round(3 * px_per_mm), round(3 * px_per_mm)), (w - round(3 * px_per_mm),
                  h - round(3 * px_per_mm)), rng.uniform(30, 90), max(1, round(1.2 * px_per_mm)))
    for _ in range(rng.randint(3, 7)):
        x, y = rng.uniform(0.1, 0.7) * w, rng.uniform(0.1, 0.5) * h
        cv2.rectangle(image, (round(x), round(y)), (round(x + rng.uniform(0.1, 0.3) * w),
                      round(y + rng.uniform(0.05, 0.2) * h)), rng.uniform(40, 200), -1)
    for line in range(rng.randint(3, 6)):
        y = round((0.62 + line * 0.06) * h)
        cv2.line(image, (round(0.12 * w), y), (round(rng.uniform(0.5, 0.88) * w), y), rng.uniform(40, 90),
                 max(1, round(0.6 * px_per_mm)))
    return np.clip(image, 0, 255).astype(np.uint8)





def as_other(sheet: Sheet) -> Other:
    """Another sheet on the table, with its corner markers."""
    return Other(sheet.image, tuple(((m.x + m.size / 2) * MM_PER_PT, (m.y + m.size / 2) * MM_PER_PT)
                                    for m in sheet.map.markers))


# --- judging a reading --------------------------------------------------------------------------------------------

@dataclass
class Verdict:
    """What became of one photo: "right" (every field read as filled, nothing asked), "asked" (some fields
    asked about, every other one right), "refused" (not read, with a reason), or "wrong" (a field read wrong and
    not asked about: a silent wrong score; or a photo read that had to be refused)."""

    outcome: str
    #: fields read wrong without a flag: (field, read, truth)
    wrong: list[tuple[str, object, object]] = field(default_factory=list)
    #: marks read confidently as the opposite of what was filled (some may sit in fields asked about)
    marks_wrong: int = 0
    #: marks the camera could not see that were decided anyway
    hidden_decided: int = 0
    reason: str = ""
    #: marks a person must be asked about (truth None: a ghost rubbed out badly, a figure half coloured) that were
    #: decided filled or empty anyway: a confident wrong read even when a sibling's question saved the field (a
    #: player who answers that question by the other mark would be scored wrong). `marks_wrong` skips them.
    must_ask_decided: int = 0

    @property
    def confident_wrong(self) -> int:
        """Marks decided (not asked about) against their truth: read as the opposite of what was filled, or
        decided where a person must be asked (issue 27: "never a wrong score without a flag", mark by mark)."""
        return self.marks_wrong + self.must_ask_decided


def judge(the_map: Any, photo: Photo, states: Sequence[bool | None] | None, reading: Any,
          refusal: str = "") -> Verdict:
    """Judge a reader's work on `photo`: `states` and `reading` (a `Reading`) what it read, or `refusal` the
    reason it gave (a code, or its message) when it refused the photo."""
    from generator.sheets.marks import interpret

    if states is None:
        if photo.refuse:
            ok = photo.refuse in refusal
            return Verdict("right" if ok else "refused", reason=refusal)
        return Verdict("refused", reason=refusal)
    if photo.refuse:
        return Verdict("wrong", reason=f"read a photo that must be refused ({photo.refuse})")
    truth = interpret(the_map, list(photo.truth))
    must_ask = {u.field for u in truth.uncertain}
    flagged = {u.field for u in reading.uncertain}
    wrong = [(name, reading.values.get(name), truth.values.get(name)) for name in truth.fields
             if name not in flagged and (name in must_ask or reading.values.get(name) != truth.values.get(name))]
    marks_wrong = sum(1 for s, t in zip(states, photo.truth) if s is not None and t is not None and s != t)
    must_ask_decided = sum(1 for s, t in zip(states, photo.truth) if s is not None and t is None)
    hidden = sum(1 for i in photo.hidden if states[i] is not None)
    outcome = "wrong" if wrong else "asked" if flagged else "right"
    return Verdict(outcome, wrong, marks_wrong, hidden, must_ask_decided=must_ask_decided)
