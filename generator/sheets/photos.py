"""Scan-ready sheets read from photos: markers found, blur judged, perspective and rotation undone, each mark read.

A photo (JPEG, PNG, or HEIC with pillow-heif) is decoded to grey by Pillow (coloured ink as dark as it absorbs:
:mod:`~generator.sheets.photo_colour`), within bounds: a photo of more than
:data:`MAX_PIXELS` is decoded at a reduced scale when it is a JPEG (the decoder skips what it does not need) and
refused otherwise, so memory stays bounded whatever the file claims. opencv (the `scan` extra, imported here and in
:mod:`~generator.sheets.photo_marks` only when a photo is read) then:

1. finds the ArUco markers (:mod:`~generator.sheets.marks`), on a reduced copy, then on the whole photo, then with a
   tolerant pass for a soft photo (a sharpened copy, wider thresholds): their ids say which of the sheets it may be
   (each layout's papers print a code of their own) and which corner each marker is, so any rotation, upside down
   included, comes out right. The markers of each code are grouped into sheets whose markers agree with the map
   (:data:`AGREE`): one sheet's three or four markers are enough, whatever else is in the frame (another sheet or a
   card partly in it); two whole sheets are refused;
2. judges blur on the markers' edges (:func:`blur_mm`) before any mark is read: a photo too soft to read is
   refused, saying so (without markers, by the photo's own sharpness);
3. maps the sheet onto the photo by the homography of the markers' corners (perspective), straightens it at
   :data:`~generator.sheets.photo_marks.SCALE` pixels per point, and reads its marks
   (:func:`~generator.sheets.photo_marks.read_marks`: the printed sheet compared, light divided out, glare and
   what covers the sheet found, each block of marks registered on its printed outlines, each mark decided with a
   margin).

A mark that cannot be decided is never guessed: :func:`~generator.sheets.marks.interpret` lists its field as
uncertain with the reason's code, and the result waits for a person's word (`--set FIELD=VALUE`, or the table
companion's page). Why a photo or its fields could not be read is data (:mod:`~generator.sheets.photo_reasons`):
:class:`~generator.sheets.photo_reasons.PhotoRefused` for a photo refused, `PhotoRead.issues` for its fields.
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from generator.errors import InputError
from generator.sheets.marks import CORNERS, DICTIONARY, MarkMap, Reading, interpret, marker_id, of_marker
from generator.sheets.photo_colour import darkened, darkening, image_grey
from generator.sheets.photo_marks import SCALE, MarkRead, expected, printed, printed_language, read_marks
from generator.sheets.photo_reasons import PhotoIssue, PhotoRefused, field_issues, refusal
from generator.wording import listing

if TYPE_CHECKING:
    from generator.sheets.read import SheetKind
    from generator.sheets.draw import DrawnSheet

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
#: The first look takes only squares whose perimeter is this share of the photo's size or more: a 12 mm marker of a
#: sheet spanning a third of the photo's long side (smaller ones are looked for again, on the whole photo).
FIRST_LEAST = 0.04
#: Markers needed to place the sheet: three give twelve corners (a finger over the fourth is fine); two are half
#: a sheet.
MARKERS_NEEDED = 3
#: A photo finer than 1.5 times the straightened sheet is first reduced (by averaging) to 1.2 times it, so that
#: straightening does not skip pixels (aliasing of thin pencil lines).
REDUCE_ABOVE = 1.5
REDUCE_TO = 1.2
#: Annotated photos: long side in pixels, and JPEG quality (a picture for a person, kept small).
ANNOTATE_LONG_SIDE = 1600
ANNOTATE_QUALITY = 85
#: The size of an annotated photo's writing, in pixels per unit of its line width (2 px on a photo 1600 px long): a
#: field's name, and a mark's ink (smaller, beside a mark). At 22 and 18 px a label stays legible on a phone and
#: about as tall as the sheet's own 7 pt words.
NAME_PX = 11
INK_PX = 9
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

    if not data:  # a photo not saved, or not copied whole (a transfer that failed, a cloud file not downloaded)
        raise InputError(display, "is empty (0 bytes): it holds no photo; take the photo again, or copy it again")
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
            image = _opened(data, kind)
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
                coloured = image.mode == "RGB"
                if reduction > 1:
                    # asked rounded down, as Pillow reduces by the largest of 2, 4, 8 not above each side's ratio to
                    # the size asked: rounded up, an odd side's ratio falls short and the photo is decoded whole
                    # (beyond MAX_PIXELS for a 45-megapixel 7747 x 5809 one)
                    image.draft("L", (max(1, width // reduction), max(1, height // reduction)))
                if coloured:
                    # coloured ink (a yellow felt tip) reads as dark as it absorbs, not as light as it looks: its
                    # colour is stored at half the photo's resolution, and read at that (a second, smaller decoding)
                    grey = np.asarray(image.convert("L"), dtype=np.uint8)
                    return darkened(grey, _jpeg_darkening(data, width, height, reduction))
            if image.mode.startswith("I"):
                # 16 bits of grey a pixel (a scanner app's PNG): its 8-bit twin, the top byte of each value;
                # Pillow's convert("L") would clip every value above 255 to white
                wide = np.asarray(image if image.mode == "I" else image.convert("I"))
                return (np.clip(wide, 0, 65535) >> 8).astype(np.uint8)
            if image.mode in ("1", "L", "LA", "La"):
                return np.asarray(image.convert("L"), dtype=np.uint8)
            # coloured ink (a yellow felt tip) reads as dark as it absorbs, not as light as it looks
            return image_grey(image)
        except InputError:
            raise
        except Image.DecompressionBombError:
            raise InputError(display, "is an image too large to decode (an image bomb?)") from None
        except (OSError, ValueError, SyntaxError, EOFError) as err:
            reason = str(err).strip().splitlines()[0][:100] if str(err).strip() else type(err).__name__
            raise InputError(display, f"is a damaged image that cannot be read ({reason})") from None
        except MemoryError:
            raise InputError(display, "is an image too large to decode") from None


def _jpeg_darkening(data: bytes, width: int, height: int, reduction: int) -> Grey | None:
    """How much a colour JPEG's colour darkens its grey (photo_colour.darkening), at half the resolution its grey
    is decoded at (as its colour is stored; at the same where that is already an eighth)."""
    import numpy as np

    coarser = min(2 * reduction, 8)
    image = _opened(data, "jpeg")
    # Pillow reduces by the largest of 8, 4, 2 not above the side's ratio to the size asked (whole pixels): asked
    # rounded up, an odd side's ratio falls below 2 and its colour would be decoded whole; rounded down, the decoder
    # still gives the side rounded up, which `darkened` maps onto the grey pixel by pixel
    image.draft("YCbCr", (max(1, width // coarser), max(1, height // coarser)))
    ycc = np.asarray(image, dtype=np.uint8)
    return darkening(ycc[:, :, 0], ycc[:, :, 1], ycc[:, :, 2])


def _opened(data: bytes, kind: str) -> Any:
    """The image of `data` opened (its header read, nothing decoded yet). A JPEG is opened by Pillow's JPEG plugin
    itself: `Image.open` refuses any image of more than twice Pillow's MAX_IMAGE_PIXELS (179 megapixels) before
    :func:`decode`'s own bounds are checked, and some phones take 200-megapixel photos, which a JPEG's reduced
    decoding reads within MAX_PIXELS (the plugin reads the first picture of a multi-picture MPO file too)."""
    from PIL import Image, JpegImagePlugin

    if kind == "jpeg":
        return JpegImagePlugin.JpegImageFile(io.BytesIO(data))
    return Image.open(io.BytesIO(data))


# --- finding the sheet ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Located:
    """Where a sheet is in a photo: which sheet and paper, and the homography from the sheet's points to the photo's
    pixels."""

    kind: SheetKind
    paper: str
    homography: Any
    markers: int
    #: how soft the markers' edges are (mm on the sheet, 20 % to 80 %): see blur_mm
    blur: float = 0.0


def _detector(cv2: Any, tolerant: bool = False, least: float = 0.03) -> Any:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
    params = cv2.aruco.DetectorParameters()
    # corners to a tenth of a pixel for the homography; squares smaller than `least` of the photo's size (their
    # perimeter) are not looked at (a checked tablecloth holds thousands)
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.minMarkerPerimeterRate = least
    if tolerant:
        # a soft photo: thresholds over wider windows (a blurred edge is wide), rounder corners taken for a square's,
        # and more of a cell's margin left out when its bit is read (blur spreads a cell into its neighbours)
        params.adaptiveThreshWinSizeMin = 5
        params.adaptiveThreshWinSizeMax = 75
        params.adaptiveThreshWinSizeStep = 8
        params.polygonalApproxAccuracyRate = 0.06
        params.perspectiveRemoveIgnoredMarginPerCell = 0.3
        params.maxErroneousBitsInBorderRate = 0.5
    return cv2.aruco.ArucoDetector(dictionary, params)


def _detect(cv2: Any, grey: Grey, long_side: int, tolerant: bool = False, least: float = 0.03
            ) -> list[tuple[int, Any]]:
    """(id, 4 corners in the photo's pixels) of every marker found on a copy at most `long_side` long (sharpened
    first when `tolerant`)."""
    import numpy as np

    scale = min(1.0, long_side / max(grey.shape))
    small = grey if scale == 1.0 else cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    if tolerant:
        soft = cv2.GaussianBlur(small, (0, 0), 2.0)
        small = cv2.addWeighted(small, 2.0, soft, -1.0, 0)
    corners, ids, _ = _detector(cv2, tolerant, least).detectMarkers(small)
    if ids is None:
        return []
    return [(int(i), np.asarray(c, dtype=np.float64).reshape(4, 2) / scale) for i, c in zip(ids.flatten(), corners)]


def _codes(kinds: Sequence[SheetKind]) -> dict[int, tuple[SheetKind, str]]:
    """Which sheet and paper each marker code says, among the sheets a photo may show."""
    return {code: (kind, paper) for kind in kinds for paper, code in kind.layout.markers.items()
            if paper in kind.layout.papers}


#: Markers of one sheet agree with its map when the homography they make places each of their corners within this
#: share of a marker's side of where it was found (markers of two sheets of one kind in one photo do not).
AGREE = 0.08
#: A photo is refused as blurred when the edges of its markers rise from black to white over more than this (mm on
#: the sheet, 20 % to 80 %; a sharp photo gives 0.2 to 0.4): a pencil line is 0.5 mm wide, a bubble's outline
#: 0.2 mm. Measured on synthetic photos (benchmarks/photo_families.py, blur from 0.35 to 0.7 mm and motion up to
#: 1.8 mm): below 0.9 mm nearly every photo was read without a question; from 0.95 mm every one left 1 to 4 fields
#: to confirm, none read wrong: such a photo is better taken again.
BLURRED_MM = 0.95


@dataclass(frozen=True)
class _Found:
    """One sheet's markers found in a photo: its code, and each corner's four corners (photo pixels)."""

    code: int
    corners: dict[int, Any]


def _sheets(seen: Sequence[tuple[int, Any]], codes: Mapping[int, tuple[SheetKind, str]]) -> list[_Found]:
    """The sheets the markers of a photo make, most markers first: the markers of each code grouped into sheets
    whose markers agree with the sheet's map (two sheets of one kind in the photo are two groups); markers of a code
    no sheet here prints are grouped one per corner."""
    by_code: dict[int, list[tuple[int, Any]]] = {}
    for marker, corners in seen:
        known = of_marker(marker)
        if known is not None:
            by_code.setdefault(known[0], []).append((known[1], corners))
    out: list[_Found] = []
    for code, left in by_code.items():
        while left:
            if code in codes:
                group = _largest_agreeing(codes[code], left)
            else:
                group = {}
                for corner, corners in left:
                    group.setdefault(corner, corners)
            out.append(_Found(code, group))
            left = [(c, k) for c, k in left if all(k is not v for v in group.values())]
    return sorted(out, key=lambda f: -len(f.corners))


def _largest_agreeing(known: tuple[SheetKind, str], found: Sequence[tuple[int, Any]]) -> dict[int, Any]:
    """The largest set of markers (one per corner) that agree with the sheet's map (a single marker when no three
    do)."""
    import itertools

    by_corner: dict[int, list[Any]] = {}
    for corner, corners in found:
        by_corner.setdefault(corner, []).append(corners)
    keys = sorted(by_corner)
    for size in range(len(keys), 0, -1):
        for chosen in itertools.combinations(keys, size):
            for pick in itertools.product(*(by_corner[c] for c in chosen)):
                group = dict(zip(chosen, pick, strict=True))
                if size < MARKERS_NEEDED or _agree(known, group):
                    return group
    return {found[0][0]: found[0][1]}


def _homography(known: tuple[SheetKind, str], group: Mapping[int, Any]) -> tuple[Any, float]:
    """The homography from the sheet's points to the photo that `group`'s markers make, and how far (in shares of
    a marker's side) it places their corners from where they were found."""
    import cv2
    import numpy as np

    kind, paper = known
    where = {m.id % CORNERS: m for m in kind.map(paper).markers}
    src, dst = [], []
    for corner, corners in group.items():
        placed = where[corner]
        x, y, s = placed.x, placed.y, placed.size
        src.extend([(x, y), (x + s, y), (x + s, y + s), (x, y + s)])
        dst.extend(np.asarray(corners).tolist())
    source, target = np.asarray(src, dtype=np.float64), np.asarray(dst, dtype=np.float64)
    homography, _ = cv2.findHomography(source, target, 0)
    if homography is None or not np.all(np.isfinite(homography)):
        return None, math.inf
    back = cv2.perspectiveTransform(source.reshape(-1, 1, 2), homography).reshape(-1, 2)
    side = float(np.median([np.hypot(*(c[1] - c[0])) for c in (np.asarray(k) for k in group.values())]))
    return homography, float(np.max(np.hypot(*(back - target).T))) / max(side, 1.0)


def _agree(known: tuple[SheetKind, str], group: Mapping[int, Any]) -> bool:
    return len(group) >= MARKERS_NEEDED and _homography(known, group)[1] <= AGREE


def blur_mm(grey: Grey, corners: Sequence[Any], side_mm: float) -> float:
    """How blurred the photo is at its markers: the distance (mm on the sheet) over which their black border rises
    to the white around it, from 20 % to 80 % of the way; the edge most blurred (motion blurs one way), median over
    the markers."""
    import cv2
    import numpy as np

    widths = []
    for square in corners:
        square = np.asarray(square, dtype=np.float64)
        side_px = float(np.mean([np.hypot(*(square[(i + 1) % 4] - square[i])) for i in range(4)]))
        if side_px < 12:
            continue
        centre = square.mean(axis=0)
        per_edge = []
        for i in range(4):
            a, b = square[i], square[(i + 1) % 4]
            along = (b - a) / np.linalg.norm(b - a)
            normal = np.array([along[1], -along[0]])
            if normal @ (a - centre) < 0:
                normal = -normal
            cell = side_px / 6
            # from inside the black border (a cell wide) to the white around it
            steps = np.linspace(-0.8 * cell, 0.8 * cell, 41)
            rises = []
            for t in (0.3, 0.5, 0.7):
                # a band along the edge, its profiles averaged: the grain of a dark photo is not an edge's blur
                profile = np.zeros(len(steps))
                for along_px in np.linspace(-0.08, 0.08, 7) * side_px:
                    base = a + (b - a) * t + along * along_px
                    xs = (base[0] + normal[0] * steps).astype(np.float32)[None, :]
                    ys = (base[1] + normal[1] * steps).astype(np.float32)[None, :]
                    profile += cv2.remap(grey, xs, ys, cv2.INTER_LINEAR).astype(np.float64).ravel() / 7
                darkest = int(np.argmin(profile[:21]))
                low, high = profile[darkest], float(np.max(profile[21:]))
                if high - low < 20:
                    continue
                share = (profile - low) / (high - low)
                hi = darkest + int(np.argmax(share[darkest:] >= 0.8))
                below = np.nonzero(share[darkest:hi] < 0.2)[0]
                if hi > darkest and len(below):
                    rises.append(steps[hi] - steps[darkest + int(below[-1])])
            if rises:
                per_edge.append(float(np.median(rises)) * side_mm / side_px)
        if per_edge:
            widths.append(max(per_edge))
    return float(np.median(widths)) if widths else 0.0


def sharpness(grey: Grey) -> float:
    """How sharp a photo is, when no marker says: its strongest edges' steepness (grey levels a pixel, on a copy
    1000 pixels long) against its contrast, in the direction where they are least steep (a moving phone blurs one
    way only)."""
    import cv2
    import numpy as np

    scale = min(1.0, 1000 / max(grey.shape))
    small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA).astype(np.float32)
    gx, gy = cv2.Sobel(small, cv2.CV_32F, 1, 0) / 8, cv2.Sobel(small, cv2.CV_32F, 0, 1) / 8
    steepest = [float(np.percentile(np.abs(g), 99.5)) for g in (gx, gy, (gx + gy) / math.sqrt(2),
                                                                 (gx - gy) / math.sqrt(2))]
    spread = float(np.percentile(small, 99) - np.percentile(small, 1))
    if spread < FLAT:
        return math.inf  # nothing in it to be sharp or blurred: a plain surface
    return min(steepest) / spread


#: A photo whose grey spans less than this (of 255) shows a plain surface, neither sharp nor blurred.
FLAT = 30.0
#: Without markers (or with too few), a photo this soft (sharpness) is said to be blurred rather than to show no
#: sheet or half of one.
SOFT = 0.14


def locate(grey: Grey, display: str, kinds: Sequence[SheetKind]) -> Located:
    """Find the sheet in the photo by its markers; a PhotoRefused when there is none, half of one, two, or when the
    photo is too blurred to read. Other sheets or cards partly in the frame are fine when one sheet's markers are
    found (three or four of them, in agreement)."""
    cv2 = _import_cv2(display)
    codes = _codes(kinds)
    what = kinds[0].layout.name

    def sheets_in(found: list[tuple[int, Any]]) -> list[_Found]:
        return _sheets(found, codes)

    def best(found: list[_Found]) -> int:
        ours = [len(f.corners) for f in found if f.code in codes]
        return max(ours, default=0)

    seen = _detect(cv2, grey, DETECT_LONG_SIDE, least=FIRST_LEAST)
    if best(sheets_in(seen)) < CORNERS and max(grey.shape) > DETECT_LONG_SIDE:
        # small or blurred markers: look again on the whole photo
        again = _detect(cv2, grey, max(grey.shape))
        if best(sheets_in(again)) > best(sheets_in(seen)):
            seen = again
    if best(sheets_in(seen)) < MARKERS_NEEDED:
        # a soft photo: a tolerant pass (sharpened, wider thresholds) finds markers the first passes missed
        tolerant = _detect(cv2, grey, min(max(grey.shape), 2 * DETECT_LONG_SIDE), tolerant=True)
        if best(sheets_in(tolerant)) > best(sheets_in(seen)):
            seen = tolerant
    found = sheets_in(seen)
    whole = [f for f in found if len(f.corners) >= MARKERS_NEEDED]
    ours = [f for f in whole if f.code in codes]
    if len(whole) > 1 and ours:
        raise PhotoRefused(display, refusal("two-sheets", "shows more than one whole sheet"))
    if not ours:
        if whole:
            code = whole[0].code
            ids = sorted(marker_id(code, c) for c in whole[0].corners)
            raise PhotoRefused(display, refusal(
                "other-sheet", f"shows a sheet whose markers (ids {ids[0]}-{ids[-1]}, code {code}) are not those "
                               f"of a {what} this donjon prints: a sheet of another kind, or one printed by another "
                               "donjon"))
        partial = max((f for f in found if f.code in codes), key=lambda f: len(f.corners), default=None)
        side_mm = kinds[0].map(kinds[0].layout.papers[0]).markers[0].size * 25.4 / 72
        if sharpness(grey) < SOFT or (partial is not None and
                                      blur_mm(grey, list(partial.corners.values()), side_mm) > BLURRED_MM):
            raise PhotoRefused(display, refusal("blurred", "is blurred: " + (
                "no corner square could be found" if partial is None else
                f"only {len(partial.corners)} of its {CORNERS} corner squares could be found")))
        if partial is not None:
            raise PhotoRefused(display, refusal("half-sheet", f"shows only {len(partial.corners)} of the sheet's "
                                                              f"{CORNERS} corner markers"))
        raise PhotoRefused(display, refusal("no-sheet", f"shows no scan-ready {what}: {NO_MARKERS} (a sheet "
                                                        "without markers, the fillable sheet printed or one printed "
                                                        f"by an older donjon, cannot be read from a photo: print "
                                                        f"{kinds[0].printed} from donjon build)"))
    sheet = ours[0]
    kind, paper = codes[sheet.code]
    homography, _ = _homography((kind, paper), sheet.corners)
    if homography is None:
        raise PhotoRefused(display, refusal("not-flat", "shows markers that cannot be those of a flat sheet"))
    side_mm = kind.map(paper).markers[0].size * 25.4 / 72
    soft = blur_mm(grey, list(sheet.corners.values()), side_mm)
    if soft > BLURRED_MM:
        raise PhotoRefused(display, refusal("blurred", f"is blurred (its corner squares' edges are "
                                                       f"{soft:.1f} mm soft)"))
    return Located(kind, paper, homography, len(sheet.corners), soft)


# --- straightening -------------------------------------------------------------------------------------------------------

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
    #: why fields could not be decided, one issue per cause, each with its fields and what to do
    issues: tuple[PhotoIssue, ...] = ()
    #: the photos of the same sheet this read combines (:func:`combine`), each as read on its own, in order (the
    #: first is the photo this read's image and places come from); empty for a photo read alone
    parts: tuple[PhotoRead, ...] = ()
    #: the sheet as printed in the language the photo shows (a SheetKind), whose words an annotation keeps clear of;
    #: None: the sheet's own language
    printed_as: Any = None

    @property
    def others(self) -> tuple[str, ...]:
        """The files of the other photos of the same sheet combined with this one, in order."""
        return tuple(p.file for p in self.parts[1:])

    @property
    def identity(self) -> str:
        """The sheet's identity value (the castle's version)."""
        return self.map.version


def read_photo(data: bytes, display: str, kinds: Sequence[SheetKind],
               confirmed: Mapping[str, str] | None = None) -> PhotoRead:
    """Read one photo of a scan-ready sheet of one of `kinds` (a BadConfirmations for the confirmed values their
    fields cannot take)."""
    _import_cv2(display)  # without the scan extra (opencv): say what to install, first
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
    # the print this photo shows: the sheet in the language it was printed in (its words are not the catalog's)
    shown = printed_language(located.kind.in_languages(), located.paper, straight, valid)
    reads, _ = read_marks(straight, printed(shown, located.paper), expected(shown, located.paper), valid,
                          the_map.marks, the_map.types, located.blur)
    reading = interpret(the_map, [r.state for r in reads], confirmed, [r.why for r in reads], [r.code for r in reads])
    return PhotoRead(display, the_map, tuple(reads), reading, located, grey, field_issues(reading.uncertain),
                     printed_as=shown)


# --- several photos of one sheet ---------------------------------------------------------------------------------

#: Two photos of one sheet are refused as photos of different sheets when more marks than this are read decided
#: differently (one filled, the other empty). A mark decided in a photo is read right or asked about (the glare
#: benchmark's photos read no mark wrong), so photos of one sheet disagree on a mark seldom and on a few at most;
#: two players' sheets of one game differ in dozens.
DIFFERENT_SHEETS = 3


def combine(photos: Sequence[PhotoRead], confirmed: Mapping[str, str] | None = None) -> PhotoRead:
    """Photos of the same filled sheet (a retake from another angle moves the glare, not the ink) read as one, mark
    by mark (:func:`combine_reads`). The combined read keeps the first photo's image and places, and each photo's own
    read (`parts`, which `--annotate` draws one by one). An InputError when they are photos of different sheets."""
    first = photos[0]
    reads = combine_reads(first.map, [Seen(p.file, p.map.version, p.located.paper, p.reads) for p in photos])
    reading = interpret(first.map, [r.state for r in reads], confirmed, [r.why for r in reads],
                        [r.code for r in reads])
    return PhotoRead(first.file, first.map, reads, reading, first.located, first.grey,
                     field_issues(reading.uncertain), tuple(photos), first.printed_as)


class Seen(NamedTuple):
    """What one photo read on its own shows of its sheet, as :func:`combine_reads` takes it: the file, the sheet's
    identity (the castle's version) and paper, and each mark read, in the map's order. Plain data, so that a photo
    read once can be combined with photos taken later without being read again (the table companion keeps it)."""

    file: str
    version: str
    paper: str
    reads: tuple[MarkRead, ...]


def combine_reads(the_map: MarkMap, photos: Sequence[Seen]) -> tuple[MarkRead, ...]:
    """The marks of photos of one sheet (`the_map`, the first photo's), each read on its own, combined mark by mark:
    a mark decided in one photo and undecided in another takes the decided state; a mark decided one way in one and
    the other way in another is undecided ("the photos disagree"); a mark undecided in every photo stays undecided
    with each photo's reason. Places are the first photo's. An InputError when they are photos of different sheets:
    of other versions or papers, or decided differently at more than DIFFERENT_SHEETS marks."""
    first = photos[0]
    for other in photos[1:]:
        if (other.version, other.paper) != (first.version, first.paper):
            raise InputError(other.file, f"is given as the same sheet as {first.file}, but it shows the "
                                         f"{other.version!r} sheet on {other.paper} and {first.file} the "
                                         f"{first.version!r} sheet on {first.paper}: photos of one sheet "
                                         "show the same sheet (give each player's sheet its own name in --names)")
    reads: list[MarkRead] = []
    disagree: list[str] = []
    for index, mark in enumerate(the_map.marks):
        seen = [(p.file, p.reads[index]) for p in photos]
        decided = [(file, read) for file, read in seen if read.state is not None]
        states = {read.state for _, read in decided}
        base = first.reads[index]
        if len(states) == 1:
            reads.append(decided[0][1] if base.state is None else base)
        elif states:
            said = "; ".join(f"{file} reads it {'filled' if read.state else 'empty'}" for file, read in decided)
            disagree.append(mark.field)
            reads.append(MarkRead(None, base.fill, 0.0, f"the photos disagree ({said})", "disagree", base.x, base.y))
        else:  # undecided in every photo: each photo's reason, naming the photos
            by_why: dict[str, list[str]] = {}
            for file, read in seen:
                by_why.setdefault(read.why, []).append(file)
            said = "; ".join(f"{why} in {listing(files, 'and')}" if why else f"undecided in {listing(files, 'and')}"
                             for why, files in by_why.items())
            reads.append(replace(base, why=said))
    if len(disagree) > DIFFERENT_SHEETS:
        others = listing([p.file for p in photos[1:]], "and")
        names = listing([p.file for p in photos], "and")
        raise InputError(first.file, f"is given as one sheet with {others}, but {len(disagree)} marks are read "
                                     f"differently in {names} ({listing(sorted(set(disagree)), 'and')}): they look "
                                     "like the sheets of different players; give each player's sheet its own name "
                                     "in --names, or take the photos of one sheet again")
    return tuple(reads)


# --- annotating ------------------------------------------------------------------------------------------------------

#: A rectangle of the annotated photo, in pixels: left, top, right, bottom.
Box = tuple[int, int, int, int]
#: How many lines of text a label may move up or down beside its mark, looking for room, before it is written where
#: it overlaps the least (a glare spot leaves a tower's ten digits undecided beside a wall's flags: their fields'
#: labels stack up to a few lines deep).
LABEL_SHIFTS = 8


#: A line of text printed on a sheet reaches this share of its size above its baseline and below it (Open Sans and
#: Cormorant, donjon's sheet fonts: capitals and accents above, descenders below), so a word's box holds its letters.
ASCENT, DESCENT = 0.95, 0.25


class Annotation(NamedTuple):
    """A label written over an annotated photo: its text, and its box in the picture's pixels."""

    text: str
    box: Box


def annotated(photo: PhotoRead, labels: Mapping[str, str] | None = None) -> bytes:
    """The annotated photo as a JPEG (:func:`annotation`)."""
    import cv2

    image, _ = annotation(photo, labels)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, ANNOTATE_QUALITY])
    assert ok
    return bytes(encoded.tobytes())


def printed_words(sheet: DrawnSheet) -> list[tuple[float, float, float, float]]:
    """The box of every line of text a sheet prints (its words: a bubble's label, a heading, a track's points), in
    the sheet's points (left, top, right, bottom), through the groups' matrices; a run turned a quarter is boxed
    turned. Words only: an annotation may cross the drawing's lines, never hide what a reader reads."""
    from generator.render.model import Group, TextRun
    from generator.render.shapes import product, turned_bounds

    out: list[tuple[float, float, float, float]] = []

    def walk(items: Sequence[Any], matrix: tuple[float, float, float, float, float, float]) -> None:
        for item in items:
            if isinstance(item, Group):
                walk(item.items, product(matrix, item.matrix) if item.matrix else matrix)
            elif isinstance(item, TextRun) and item.text.strip():
                x, y, up, down = item.x, item.y, ASCENT * item.size, DESCENT * item.size
                # (left, top, width, height): a quarter-turned run stands up from its baseline's start
                box = ((x - up, y - item.width, up + down, item.width) if item.rotate == 90 else
                       (x, y - up, item.width, up + down))
                out.append(turned_bounds(matrix, *box))

    walk([*sheet.drawing.items, *sheet.page_line], (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
    return out


def annotation(photo: PhotoRead, labels: Mapping[str, str] | None = None) -> tuple[Any, list[Annotation]]:
    """The photo (in grey) with what was read drawn over it, each mark where it was read (a curled sheet moves
    marks): green filled, grey empty, orange undecided (with its field, by its label in `labels` where given, and
    why); each inked mark with its ink (the share of its inside inked): the picture (BGR) and each label written,
    with its box. Each label is written where no other label, no mark drawn in colour and no printed word of the
    sheet is (:func:`printed_words`: "100%" over the "Été" beside its bubble hid the word), looked for around its mark
    (:func:`_place`), with a line to its mark when it had to move away. The writing is drawn with Pillow in Open
    Sans (generator.render.picture_text), as the companion's pictures are: OpenCV's own fonts draw no letter beyond
    ASCII ("récolte" came out "r??colte" in OpenCV 4), and draw differently from one version to the next."""
    import cv2
    import numpy as np
    from PIL import Image

    from generator.render import picture_text
    from generator.sheets.summary import named

    grey = photo.grey
    scale = min(1.0, ANNOTATE_LONG_SIDE / max(grey.shape))
    small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else grey
    image = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    to_image = np.diag([scale, scale, 1.0]) @ photo.located.homography
    thick = max(1, round(max(image.shape) / 800))
    labelled: set[str] = set()
    coloured: list[Box] = []
    empty: list[Box] = []
    # (text, the mark's box, where it goes first, size in px, colour (BGR, as OpenCV draws), bold): field names
    # first, then inks
    names: list[tuple[str, Box, str, int, tuple[int, int, int], bool]] = []
    inks: list[tuple[str, Box, str, int, tuple[int, int, int], bool]] = []
    for mark, read in zip(photo.map.marks, photo.reads, strict=True):
        x, y = read.x, read.y
        corners = np.array([[(x, y), (x + mark.width, y), (x + mark.width, y + mark.height), (x, y + mark.height)]],
                           dtype=np.float64)
        quad = cv2.perspectiveTransform(corners, to_image)[0].round().astype(np.int32)
        box = (int(quad[:, 0].min()), int(quad[:, 1].min()), int(quad[:, 0].max()), int(quad[:, 1].max()))
        if read.state is True:
            cv2.polylines(image, [quad], True, (60, 170, 40), thick + 1)
            coloured.append(box)
        elif read.state is None:
            cv2.polylines(image, [quad], True, (0, 140, 255), thick + 2)
            coloured.append(box)
            if mark.field not in labelled:  # each field named once, beside its first undecided mark
                labelled.add(mark.field)
                names.append((f"{named(mark.field, labels)} {read.code}".strip(), box, "over", NAME_PX * thick,
                              (0, 110, 230), True))
        else:
            cv2.polylines(image, [quad], True, (150, 150, 150), 1)
            empty.append(box)
        if read.fill >= 0.02:
            inks.append((f"{read.fill:.0%}", box, "beside", INK_PX * thick, (40, 40, 200), False))
    written: list[Box] = []
    height, width = image.shape[:2]
    # the words of the sheet as printed in the language the photo shows, where the photo has them
    kind = photo.printed_as if photo.printed_as is not None else photo.located.kind
    printed_boxes: list[Box] = []
    for x0, y0, x1, y1 in printed_words(kind.drawn("scan", photo.located.paper)):
        corners = np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], dtype=np.float64)
        seen = cv2.perspectiveTransform(corners, to_image)[0]
        printed_boxes.append((int(seen[:, 0].min()), int(seen[:, 1].min()), int(math.ceil(seen[:, 0].max())),
                              int(math.ceil(seen[:, 1].max()))))

    def words(place: Box) -> int:
        """How much of the sheet's printed words a box covers, in square pixels."""
        return sum(max(0, min(place[2], b[2]) - max(place[0], b[0])) * max(0, min(place[3], b[3]) - max(place[1], b[1]))
                   for b in printed_boxes)

    texts: list[tuple[tuple[int, int], str, bool, int, tuple[int, int, int]]] = []
    placed: list[tuple[tuple[int, int], str, int, int]] = []
    for text, box, first, size, colour, bold in names + inks:
        w, h = picture_text.text_box(text, bold, size)
        left, top = _place((w, h), box, first, 2 * thick, written, (coloured, empty), (width, height), words)
        written.append((left, top, left + w, top + h))
        placed.append(((left, top), text, w, h))
        texts.append(((left, top), text, bold, size, colour))
        if _gap((left, top, left + w, top + h), box) > 4 * thick:  # moved away: a line says whose it is
            start = (min(max(box[0], left), box[2]), min(max(box[1], top), box[3]))
            end = (min(max(start[0], left), left + w), min(max(start[1], top), top + h))
            cv2.line(image, start, end, colour, 1, cv2.LINE_AA)
    picture = Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
    for at, text, bold, size, colour in texts:
        picture_text.draw_text(picture, at, text, bold, size, (colour[2], colour[1], colour[0]))
    image = cv2.cvtColor(np.asarray(picture), cv2.COLOR_RGB2BGR)
    return image, [Annotation(text, (left, top, left + size_w, top + size_h))
                   for (left, top), text, size_w, size_h in placed]


def _place(size: tuple[int, int], mark: Box, first: str, gap: int, written: Sequence[Box],
           marks: tuple[Sequence[Box], Sequence[Box]], image: tuple[int, int],
           words: Callable[[Box], int] | None = None) -> tuple[int, int]:
    """Where a label of `size` (width, height) goes beside its `mark`: the top-left corner of the first place, in a
    fixed order, that overlaps no label `written`, no mark (`marks`: those drawn in colour, then the empty ones) and
    no printed word (`words`: how much of the sheet's printed ink a box covers) and lies inside the `image` (width,
    height); else, of those overlapping no label nor mark drawn in colour, the first that covers no word, then the
    first over no empty mark, then the one covering the least ink; else the first that overlaps no label; else the
    one that overlaps labels the least. Tried in order:
    the place it goes `first` (right of the mark: "over" its top, as a field's name; "beside" its bottom, as an
    ink), then right and left of the mark, moving a line up or down at a time (LABEL_SHIFTS), then above and below."""
    w, h = size
    x0, y0, x1, y1 = mark
    middle = (y0 + y1 - h) // 2
    step = h + gap // 2
    places = [(x1 + gap, y0 - h - 1) if first == "over" else (x1 + gap, y1 - h + h // 4)]
    for shift in range(LABEL_SHIFTS + 1):
        for sign in ((0,) if shift == 0 else (-1, 1)):
            places += [(x1 + gap, middle + sign * shift * step), (x0 - gap - w, middle + sign * shift * step)]
        if shift == 1:
            places += [(x0, y0 - gap - h), (x0, y1 + gap)]
    inside = [(left, top) for left, top in places if left >= 0 and top >= 0 and left + w <= image[0]
              and top + h <= image[1]] or places

    def over(place: tuple[int, int], boxes: Sequence[Box]) -> int:
        left, top = place
        return sum(max(0, min(left + w, b[2]) - max(left, b[0])) * max(0, min(top + h, b[3]) - max(top, b[1]))
                   for b in boxes)

    clear = [p for p in inside if not over(p, written)]
    coloured, empty = marks
    seen = [p for p in clear if not over(p, coloured)]
    if seen and words is not None:
        # a printed word hidden (the "Été" beside its bubble) is the worst a label can do to a reader of the picture:
        # min keeps the order of places among equals
        def covered(place: tuple[int, int]) -> tuple[bool, bool]:
            return words((place[0], place[1], place[0] + w, place[1] + h)) > 0, over(place, empty) > 0

        return min(seen, key=covered)
    return next((p for p in seen if not over(p, empty)), seen[0] if seen else clear[0] if clear else
                min(inside, key=lambda p: over(p, written)))


def _gap(a: Box, b: Box) -> int:
    """How far apart two boxes are, in pixels (0 when they touch or overlap): the larger of the two axes' gaps."""
    return max(0, a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])


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


def reader_stamp(the_map: MarkMap) -> str:
    """What a photo's reading depends on besides the photo, as a short fingerprint: this reader's own code (the
    modules of generator.sheets) and the map of the sheet's marks (where each is printed). A reading kept with its
    photo (the companion's) is used again only under the same stamp: a donjon whose reader or sheet changed reads
    the photo again, once, rather than show what an older reader made of it."""
    import hashlib

    digest = hashlib.sha256(_reader_code().encode())
    digest.update(repr(tuple(the_map.marks)).encode())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def _reader_code() -> str:
    """The fingerprint of the reader's own code: each module of this package, by name and content."""
    import hashlib
    from pathlib import Path

    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


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
