"""Scan-ready sheets read from photos: markers found, perspective and rotation undone, each mark read.

A photo (JPEG, PNG, or HEIC with pillow-heif) is decoded to grey by Pillow, within bounds: a photo of more than
:data:`MAX_PIXELS` is decoded at a reduced scale when it is a JPEG (the decoder skips what it does not need) and
refused otherwise, so memory stays bounded whatever the file claims. opencv (the `scan` extra, imported here only
when a photo is read) then:

1. finds the sheet's ArUco markers (:mod:`~generator.sheets.marks`): their ids say which of the sheets it may be
   (each layout's papers print a code of their own) and which corner each marker is, so any rotation, upside down
   included, comes out right;
2. maps the sheet onto the photo by the homography of the markers' corners (perspective), and straightens the
   sheet into an image of its own at :data:`SCALE` pixels per point;
3. divides that image by its paper's local brightness (uneven light, shadows), and reads each mark of the map:
   the printed outline is found near where the map puts it (a curled sheet moves marks by a millimetre or two), and
   the share of the mark's inside that is dark decides: filled, empty, or undecided in between (:data:`FILLED`,
   :data:`EMPTY`); the confidence says how far from the undecided band a mark was.

A mark that cannot be decided is never guessed: :func:`~generator.sheets.marks.interpret` lists its field as
uncertain, and the result waits for a person's word (`--set FIELD=VALUE`, or the table companion's page).
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from generator.errors import InputError
from generator.sheets.marks import (
    CORNERS,
    DICTIONARY,
    Mark,
    MarkMap,
    Reading,
    State,
    interpret,
    of_marker,
)

if TYPE_CHECKING:
    from generator.sheets.read import SheetKind

#: Images as arrays (numpy's, opencv's): typed loosely, as opencv's own types are (`MatLike`).
Grey = Any
Floats = Any

#: The most pixels a photo is decoded at: 40 megapixels of grey is 40 MB. A larger JPEG is decoded at a half, a
#: quarter or an eighth of its size; a larger image of another kind is refused.
MAX_PIXELS = 40_000_000
#: The most pixels a file may claim at all, even a JPEG decoded at an eighth: beyond this it is an image bomb.
MOST_PIXELS = 1_000_000_000
#: The fewest: below this a sheet's bubbles are a few pixels wide and cannot be read.
MIN_PIXELS = 500_000
#: A JPEG is decoded at the smallest scale that keeps its long side at least this long: enough for a bubble
#: (4.6 mm) to span 15 pixels when the sheet fills half the photo; a 12-megapixel photo decodes at half size.
DECODE_LONG_SIDE = 2000
#: Markers are looked for on a copy whose long side is at most this (fast), then on the whole photo if needed.
DETECT_LONG_SIDE = 1600
#: The straightened sheet: pixels per point (5.7 per millimetre): a bubble is 26 pixels across.
SCALE = 2.0
#: Markers needed to place the sheet: three give twelve corners (a finger over the fourth is fine); two are half
#: a sheet.
MARKERS_NEEDED = 3
#: The inside of a bubble that is read: this share of its radius, clear of the printed outline even when the
#: outline is found a pixel or two off.
INNER = 0.62
#: How far around where the map puts a mark its printed outline is looked for: 2.2 mm either way (paper curl).
SEARCH_PT = 6.3
#: Darkness up to this is paper (its grain, sensor noise, JPEG): the ink of a mark is what is darker.
PAPER_NOISE = 0.08
#: A mark is filled when the mean ink of its inside is at least FILLED, empty when at most EMPTY; between, it is
#: undecided. The mean, not a count of dark pixels: blur spreads a pencil line but keeps its ink. A pencil tick
#: through a bubble gives about 0.1, a cross or a scribble more, a filled bubble 0.4 to 0.7; an empty one under 0.02.
FILLED = 0.07
EMPTY = 0.03
#: A resident figure is coloured in, not ticked: coloured ones read 0.25 and more, empty ones under 0.01, so
#: anything between (a neighbour's colour reached when a curled sheet shifts the figure) is undecided.
BANDS = {"circle": (EMPTY, FILLED), "square": (EMPTY, FILLED), "figure": (0.03, 0.15)}
#: An outline matched this well (normalised correlation) is a sure place for its mark.
OUTLINE_MATCH = 0.35
#: A mark is read at the median shift of the sure outlines within this many points (35 mm), at most NEIGHBOURS
#: of them; with fewer than MIN_NEIGHBOURS in reach, the nearest ones however far.
NEIGHBOURHOOD_PT = 100.0
NEIGHBOURS = 9
MIN_NEIGHBOURS = 3
#: The paper's brightness is estimated on a copy reduced this many times (a cell of 1.4 mm), as the brightest
#: within BACKGROUND_REACH cells (2.8 mm either way: more than a filled bubble's radius, so its pencil is not taken
#: for paper), smoothed.
BACKGROUND_STEP = 8
BACKGROUND_REACH = 2
#: Darker "paper" than this (of 255) is outside the photo (black after straightening), not paper in a shadow.
DARKEST_PAPER = 16.0
#: A photo finer than 1.5 times the straightened sheet is first reduced (by averaging) to 1.2 times it, so that
#: straightening does not skip pixels (aliasing of thin pencil lines).
REDUCE_ABOVE = 1.5
REDUCE_TO = 1.2
#: Annotated photos: long side in pixels, and JPEG quality (a picture for a person, kept small).
ANNOTATE_LONG_SIDE = 1600
ANNOTATE_QUALITY = 85
#: The name box is cropped at this many pixels per point (about 200 dpi).
NAME_SCALE = 2.8

#: What is said of a photo without markers (also how a PDF scan is told from a printed sheet).
NO_MARKERS = "none of its four corner markers was found"
#: Formats by their first bytes.
_JPEG, _PNG = b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n"
_HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif")


def missing_scan_extra(display: str) -> InputError:
    return InputError(display, "is a photo; reading photos needs the scan extra of donjon: pip install "
                               "'donjon[scan]' (it adds opencv-python-headless and pillow-heif)")


def _import_cv2(display: str) -> Any:
    try:
        import cv2
    except ImportError:
        raise missing_scan_extra(display) from None
    return cv2


def kind_of(data: bytes) -> str | None:
    """"jpeg", "png", "heif", "pdf" or None, by the file's first bytes."""
    if data.startswith(_JPEG):
        return "jpeg"
    if data.startswith(_PNG):
        return "png"
    if data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
        return "heif"
    if data.lstrip()[:5] == b"%PDF-":
        return "pdf"
    return None


def decode(data: bytes, display: str) -> Grey:
    """The photo in grey, as an array, decoded within bounds; an InputError naming the photo when it cannot be."""
    import numpy as np
    from PIL import Image

    kind = kind_of(data)
    if kind is None:
        raise InputError(display, "is not a photo donjon reads (JPEG, PNG or HEIC) nor a filled sheet PDF")
    if kind == "heif":
        try:
            import pillow_heif
        except ImportError:
            raise InputError(display, "is a HEIC photo; reading HEIC needs pillow-heif (pip install 'donjon[scan]'), "
                                      "or convert it to JPEG first (on a Mac: Preview, File > Export; on Linux: "
                                      "heif-convert photo.heic photo.jpg)") from None
        pillow_heif.register_heif_opener()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Pillow warns about large images; the bounds below decide
        try:
            image = Image.open(io.BytesIO(data))
            width, height = image.size
            if width * height > MOST_PIXELS:
                raise InputError(display, f"claims {width} x {height} pixels ({width * height / 1e6:,.0f} megapixels): "
                                          "it is not a photo donjon reads (an image bomb?)")
            if width * height < MIN_PIXELS:
                raise InputError(display, f"is {width} x {height} pixels: too small to read a sheet's marks; take "
                                          "the photo at 1 megapixel or more")
            if width * height > MAX_PIXELS and kind != "jpeg":
                raise InputError(display, f"is {width * height / 1e6:.0f} megapixels; donjon reads photos of up "
                                          f"to {MAX_PIXELS // 1_000_000} megapixels (a JPEG of any size): scale "
                                          "it down or save it as JPEG")
            if kind == "jpeg":
                # the JPEG decoder skips what a reduction by 2, 4 or 8 leaves out: as much as the pixel bound needs,
                # and more while the long side stays long enough to read
                least = 1
                while width * height / least ** 2 > MAX_PIXELS:
                    least *= 2
                most = 1
                while most < 8 and max(width, height) / (most * 2) >= DECODE_LONG_SIDE:
                    most *= 2
                reduction = max(least, most)
                if reduction > 8:
                    raise InputError(display, f"is {width * height / 1e6:.0f} megapixels, too large to read even at "
                                              "an eighth of its size")
                if reduction > 1:
                    image.draft("L", (math.ceil(width / reduction), math.ceil(height / reduction)))
            if image.mode.startswith("I"):
                # 16 bits of grey a pixel (a scanner app's PNG): its 8-bit twin, the top byte of each value;
                # Pillow's convert("L") would clip every value above 255 to white
                wide = np.asarray(image if image.mode == "I" else image.convert("I"))
                return (np.clip(wide, 0, 65535) >> 8).astype(np.uint8)
            grey = image.convert("L")
            return np.asarray(grey, dtype=np.uint8)
        except InputError:
            raise
        except Image.DecompressionBombError:
            raise InputError(display, "is an image too large to decode (an image bomb?)") from None
        except (OSError, ValueError, SyntaxError, EOFError) as err:
            reason = str(err).strip().splitlines()[0][:100] if str(err).strip() else type(err).__name__
            raise InputError(display, f"is a damaged image that cannot be read ({reason})") from None
        except MemoryError:
            raise InputError(display, "is an image too large to decode") from None


# --- finding the sheet ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Located:
    """Where a sheet is in a photo: which sheet and paper, and the homography from the sheet's points to the photo's
    pixels."""

    kind: SheetKind
    paper: str
    homography: Any
    markers: int


def _detector(cv2: Any) -> Any:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
    params = cv2.aruco.DetectorParameters()
    # small markers of a far photo, and corners to a tenth of a pixel for the homography
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary, params)


def _detect(cv2: Any, grey: Grey, long_side: int) -> list[tuple[int, Any]]:
    """(id, 4 corners in the photo's pixels) of every marker found on a copy at most `long_side` long."""
    import numpy as np

    scale = min(1.0, long_side / max(grey.shape))
    small = grey if scale == 1.0 else cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    corners, ids, _ = _detector(cv2).detectMarkers(small)
    if ids is None:
        return []
    return [(int(i), np.asarray(c, dtype=np.float64).reshape(4, 2) / scale) for i, c in zip(ids.flatten(), corners)]


def _codes(kinds: Sequence[SheetKind]) -> dict[int, tuple[SheetKind, str]]:
    """Which sheet and paper each marker code says, among the sheets a photo may show."""
    return {code: (kind, paper) for kind in kinds for paper, code in kind.layout.markers.items()
            if paper in kind.layout.papers}


def locate(grey: Grey, display: str, kinds: Sequence[SheetKind]) -> Located:
    """Find the sheet in the photo by its markers; an InputError when there is none, half of one, or two."""
    import numpy as np

    cv2 = _import_cv2(display)
    codes = _codes(kinds)
    what = kinds[0].layout.name

    def ours(found: list[tuple[int, Any]]) -> list[tuple[int, int, Any]]:
        out = []
        for marker, corners in found:
            known = of_marker(marker)
            if known is not None:
                out.append((marker, known[0], corners))
        return out

    seen = ours(_detect(cv2, grey, DETECT_LONG_SIDE))
    if len(seen) < CORNERS and max(grey.shape) > DETECT_LONG_SIDE:
        # small or blurred markers: look again on the whole photo
        again = ours(_detect(cv2, grey, max(grey.shape)))
        if len(again) > len(seen):
            seen = again
    if not seen:
        raise InputError(display, f"shows no scan-ready {what}: {NO_MARKERS}. Photograph the whole sheet, flat and "
                                  "in good light; a sheet without markers (the fillable sheet printed, or one printed "
                                  f"by an older donjon) cannot be read from a photo: print {kinds[0].printed} from "
                                  "donjon build")
    found_codes = {code for _, code, _ in seen}
    ids = [i for i, _, _ in seen]
    if len(found_codes) > 1 or len(ids) != len(set(ids)):
        raise InputError(display, f"shows more than one {what}; photograph one sheet per photo")
    code = found_codes.pop()
    if code not in codes:
        raise InputError(display, f"shows a sheet whose markers (ids {min(ids)}-{max(ids)}, code {code}) are not those "
                                  f"of a {what} this donjon prints: a sheet of another kind, or one printed by another "
                                  "donjon; print the sheet again with this donjon")
    if len(seen) < MARKERS_NEEDED:
        raise InputError(display, f"shows only {len(seen)} of the sheet's 4 corner markers: photograph the whole "
                                  "sheet (half a sheet cannot be read)")
    kind, paper = codes[code]
    mark_map_ = kind.map(paper)
    where = {m.id: m for m in mark_map_.markers}
    src, dst = [], []
    for marker, _, corners in seen:
        placed = where[marker]
        x, y, s = placed.x, placed.y, placed.size
        src.extend([(x, y), (x + s, y), (x + s, y + s), (x, y + s)])
        dst.extend(corners.tolist())
    homography, _ = cv2.findHomography(np.asarray(src, dtype=np.float64), np.asarray(dst, dtype=np.float64), 0)
    if homography is None or not np.all(np.isfinite(homography)):
        raise InputError(display, "shows the sheet's markers in a way that cannot be a flat sheet; photograph it "
                                  "again, flat")
    return Located(kind, paper, homography, len(seen))


# --- reading the marks -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MarkRead:
    """What one mark shows: filled, empty or undecided (None), the share of its inside that is dark, how sure."""

    state: State
    fill: float
    confidence: float
    #: why it is undecided, in words ("" when decided)
    why: str = ""


def decide(fill: float, shape: str = "circle") -> MarkRead:
    """Filled, empty or undecided, by the mean ink of a mark's inside and the band of its shape."""
    empty, filled = BANDS.get(shape, (EMPTY, FILLED))
    if fill >= filled:
        return MarkRead(True, fill, min(1.0, 0.5 + (fill - filled) / (2 * (filled - empty))))
    if fill <= empty:
        return MarkRead(False, fill, min(1.0, 0.5 + (empty - fill) / (2 * empty)) if empty else 1.0)
    middle = (filled + empty) / 2
    return MarkRead(None, fill, abs(fill - middle) / (filled - empty),
                    f"a faint or small mark: its ink is {fill:.0%}, between empty ({empty:.0%}) and filled "
                    f"({filled:.0%})")


@lru_cache(maxsize=16)
def _stencils(shape: str, width_px: int, height_px: int) -> tuple[Any, Any]:
    """The printed outline (a template to find the mark by) and the inside that is read, as float masks."""
    import cv2
    import numpy as np

    outline = np.zeros((height_px, width_px), dtype=np.float32)
    inside = np.zeros((height_px, width_px), dtype=np.float32)
    cx, cy = (width_px - 1) / 2, (height_px - 1) / 2
    if shape == "figure":
        # the resident icon (generator.render.icons, "resident-blank") in its 100-unit box: a head and a body
        k = width_px / 100
        cv2.circle(outline, (round(50 * k), round(22 * k)), round(15 * k), 1.0, max(1, round(3 * k)))
        body = np.array([(18, 96), (18, 78), (30, 52), (50, 46), (70, 52), (82, 78), (82, 96)], dtype=np.float64) * k
        cv2.polylines(outline, [body.round().astype(np.int32)], True, 1.0, max(1, round(3 * k)))
        # the read inside: the core of the body, clear of the outline by half a millimetre (the head is too small
        # to read clear of its outline in a far photo)
        cv2.rectangle(inside, (round(34 * k), round(62 * k)), (round(66 * k), round(84 * k)), 1.0, -1)
    else:
        r = min(width_px, height_px) / 2
        cv2.circle(outline, (round(cx), round(cy)), round(r - 1), 1.0, 2)
        cv2.circle(inside, (round(cx), round(cy)), max(1, round(r * INNER)), 1.0, -1)
    return outline, inside


def straighten(grey: Grey, located: Located, mark_map_: MarkMap) -> Grey:
    """The sheet as seen straight on, at SCALE pixels per point."""
    import cv2
    import numpy as np

    width, height = round(mark_map_.width * SCALE), round(mark_map_.height * SCALE)
    to_photo = located.homography @ np.diag([1 / SCALE, 1 / SCALE, 1.0])
    # a photo much finer than the straightened sheet is first reduced (averaging, not skipping pixels)
    corners = cv2.perspectiveTransform(np.array([[(0, 0), (width, 0), (width, height), (0, height)]],
                                                dtype=np.float64), to_photo)[0]
    seen = cv2.contourArea(corners.astype(np.float32))
    ratio = math.sqrt(max(seen, 1.0) / (width * height))
    source = grey
    if ratio > REDUCE_ABOVE:
        factor = REDUCE_TO / ratio
        source = cv2.resize(grey, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        to_photo = np.diag([factor, factor, 1.0]) @ to_photo
    return cv2.warpPerspective(source, to_photo, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def darkness(sheet: Grey) -> Floats:
    """How dark each pixel is against the paper around it: 0 paper, 1 black (light and shadow divided out)."""
    import cv2
    import numpy as np

    small = cv2.resize(sheet, None, fx=1 / BACKGROUND_STEP, fy=1 / BACKGROUND_STEP, interpolation=cv2.INTER_AREA)
    # the paper's brightness: the brightest around each place (ink is darker), smoothed
    reach = 2 * BACKGROUND_REACH + 1
    paper = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    paper = cv2.GaussianBlur(paper, (0, 0), BACKGROUND_REACH * 0.75)
    paper = cv2.resize(paper, (sheet.shape[1], sheet.shape[0]), interpolation=cv2.INTER_LINEAR)
    ratio = sheet.astype(np.float32) / np.maximum(paper.astype(np.float32), DARKEST_PAPER)
    blurred = cv2.GaussianBlur(ratio, (3, 3), 0)  # a pixel's neighbours: JPEG blocks and sensor noise
    return np.clip(1.0 - blurred, 0.0, 1.0)


def read_marks(dark: Floats, marks: Sequence[Mark], valid: Any = None) -> list[MarkRead]:
    """Read every mark of the map on the straightened sheet's darkness.

    Each mark's printed outline is looked for around where the map puts it; the offsets found at marks that look
    empty (an outline alone is a sure match) are smoothed into a field of local shifts (a curled sheet moves marks
    together, by a millimetre or two), and each mark is read where that field puts it: a filled mark, or one whose
    filled neighbour pulls its outline match aside, never moves on its own.
    """
    import cv2
    import numpy as np

    search = round(SEARCH_PT * SCALE)
    height, width = dark.shape
    ink = np.clip((dark - PAPER_NOISE) / (1 - PAPER_NOISE), 0.0, 1.0)
    places: list[tuple[int, int, int, int] | None] = []
    offsets: list[tuple[float, float, float, float] | None] = []
    for mark in marks:
        w, h = max(3, round(mark.width * SCALE)), max(3, round(mark.height * SCALE))
        x0, y0 = round(mark.x * SCALE), round(mark.y * SCALE)
        if x0 - search < 0 or y0 - search < 0 or x0 + w + search > width or y0 + h + search > height or (
                valid is not None and not valid[y0:y0 + h, x0:x0 + w].all()):
            places.append(None)
            offsets.append(None)
            continue
        places.append((x0, y0, w, h))
        outline, inside = _stencils(mark.shape, w, h)
        patch = dark[y0 - search:y0 + h + search, x0 - search:x0 + w + search]
        scores = cv2.matchTemplate(patch, outline, cv2.TM_CCOEFF_NORMED)
        _, score, _, (bx, by) = cv2.minMaxLoc(scores)
        dx, dy = bx - search, by - search
        region = ink[y0 + dy:y0 + dy + h, x0 + dx:x0 + dx + w]
        looks_empty = float((region * inside).sum() / inside.sum()) < EMPTY
        offsets.append((x0 + w / 2, y0 + h / 2, dx, dy) if looks_empty and score > OUTLINE_MATCH else None)
    sure = np.array([o for o in offsets if o is not None], dtype=np.float64).reshape(-1, 4)
    reach = NEIGHBOURHOOD_PT * SCALE
    out: list[MarkRead] = []
    for mark, place in zip(marks, places, strict=True):
        if place is None:
            out.append(MarkRead(None, 0.0, 0.0, "outside the photo: the sheet is not all in it"))
            continue
        x0, y0, w, h = place
        dx = dy = 0
        if len(sure):
            near = np.hypot(sure[:, 0] - (x0 + w / 2), sure[:, 1] - (y0 + h / 2))
            order = np.argsort(near)
            chosen = order[near[order] <= reach][:NEIGHBOURS]
            if len(chosen) < MIN_NEIGHBOURS:
                chosen = order[:MIN_NEIGHBOURS]
            dx = round(float(np.median(sure[chosen, 2])))
            dy = round(float(np.median(sure[chosen, 3])))
        _, inside = _stencils(mark.shape, w, h)
        region = ink[y0 + dy:y0 + dy + h, x0 + dx:x0 + dx + w]
        out.append(decide(float((region * inside).sum() / inside.sum()), mark.shape))
    return out


# --- one photo --------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PhotoRead:
    """One photo read: which sheet, each mark, the field values they make, and where it all was."""

    file: str
    map: MarkMap
    reads: tuple[MarkRead, ...]
    reading: Reading
    located: Located
    #: the photo in grey, kept for annotating (None once not needed)
    grey: Any

    @property
    def identity(self) -> str:
        """The sheet's identity value (the castle's version)."""
        return self.map.version


def read_photo(data: bytes, display: str, kinds: Sequence[SheetKind],
               confirmed: Mapping[str, str] | None = None) -> PhotoRead:
    """Read one photo of a scan-ready sheet of one of `kinds` (a BadConfirmation for a confirmed value its field
    cannot take)."""
    _import_cv2(display)  # without the scan extra (opencv, and numpy with it): say what to install, first
    return read_grey(decode(data, display), display, kinds, confirmed)


def read_grey(grey: Grey, display: str, kinds: Sequence[SheetKind],
              confirmed: Mapping[str, str] | None = None) -> PhotoRead:
    """Read a photo already decoded to grey."""
    import numpy as np

    located = locate(grey, display, kinds)
    the_map = located.kind.map(located.paper)
    cv2 = _import_cv2(display)
    straight = straighten(grey, located, the_map)
    # where the photo has the sheet at all (a corner out of the frame is black after straightening)
    valid = cv2.warpPerspective(np.full(grey.shape, 255, dtype=np.uint8),
                                located.homography @ np.diag([1 / SCALE, 1 / SCALE, 1.0]),
                                (straight.shape[1], straight.shape[0]),
                                flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP, borderValue=0) > 0
    reads = read_marks(darkness(straight), the_map.marks, valid)
    reading = interpret(the_map, [r.state for r in reads], confirmed, [r.why for r in reads])
    return PhotoRead(display, the_map, tuple(reads), reading, located, grey)


# --- annotating ------------------------------------------------------------------------------------------------------

def annotated(photo: PhotoRead) -> bytes:
    """The photo (in grey) with what was read drawn over it: green filled, grey empty, orange undecided (with its
    field), as a JPEG."""
    import cv2
    import numpy as np

    grey = photo.grey
    scale = min(1.0, ANNOTATE_LONG_SIDE / max(grey.shape))
    small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else grey
    image = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    to_image = np.diag([scale, scale, 1.0]) @ photo.located.homography
    thick = max(1, round(max(image.shape) / 800))
    for mark, read in zip(photo.map.marks, photo.reads, strict=True):
        corners = np.array([[(mark.x, mark.y), (mark.x + mark.width, mark.y), (mark.x + mark.width,
                                                                               mark.y + mark.height),
                             (mark.x, mark.y + mark.height)]], dtype=np.float64)
        quad = cv2.perspectiveTransform(corners, to_image)[0].round().astype(np.int32)
        if read.state is True:
            cv2.polylines(image, [quad], True, (60, 170, 40), thick + 1)
        elif read.state is None:
            cv2.polylines(image, [quad], True, (0, 140, 255), thick + 2)
            x, y = quad[:, 0].max() + 3, quad[:, 1].min()
            cv2.putText(image, mark.field, (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thick, (0, 110, 230),
                        thick, cv2.LINE_AA)
        else:
            cv2.polylines(image, [quad], True, (150, 150, 150), 1)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, ANNOTATE_QUALITY])
    assert ok
    return bytes(encoded.tobytes())


def name_crop(photo: PhotoRead, field: str = "player") -> bytes | None:
    """The write-in box (the player's name) cut out of the photo and straightened, as a PNG (None when the sheet has
    none)."""
    import cv2
    import numpy as np

    box = next((w for w in photo.map.write_in if w.field == field), None)
    if box is None:
        return None
    width, height = round(box.width * NAME_SCALE), round(box.height * NAME_SCALE)
    shift = np.array([[1 / NAME_SCALE, 0, box.x], [0, 1 / NAME_SCALE, box.y], [0, 0, 1]], dtype=np.float64)
    crop = cv2.warpPerspective(photo.grey, photo.located.homography @ shift, (width, height),
                               flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP, borderValue=255)
    ok, encoded = cv2.imencode(".png", crop)
    assert ok
    return bytes(encoded.tobytes())


def straightened_jpeg(photo: PhotoRead, long_side: int = 1400, quality: int = 80) -> bytes:
    """The sheet straightened (what the table companion shows marks over), as a JPEG."""
    import cv2
    import numpy as np

    scale = long_side / max(photo.map.width, photo.map.height)
    width, height = round(photo.map.width * scale), round(photo.map.height * scale)
    to_photo = photo.located.homography @ np.diag([1 / scale, 1 / scale, 1.0])
    image = cv2.warpPerspective(photo.grey, to_photo, (width, height), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                                borderValue=0)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return bytes(encoded.tobytes())
