"""The marks of a straightened photo of a scan-ready sheet, each read with a margin, or not read, with its reason.

The photo reader (:mod:`~generator.sheets.photos`) straightens the sheet by its four markers; this module then:

1. **compares it with the sheet as printed** (:func:`printed`: the same page rasterised at the same scale), which
   says where the paper is blank, where ink was printed, and where each mark's outline is;
2. **divides out the light** (:func:`light`): the paper's brightness is estimated by a morphological closing (the
   brightest around each place, then the darkest of those), which removes pencil up to 6.5 mm across but keeps
   the edge of a hard shadow where it is, so the shadow's edge is not taken for ink; the darkness of every pixel
   is then its shortfall from that paper (a grainy photo smoothed first, as much as it is grainy, and the printed
   sheet taken as such a photo shows it: its lines spread as far, as dark as they read there);
3. **finds glare and what covers the sheet**: glare adds light, so it washes out printed lines (their darkness
   drops) and brightens the paper beyond its neighbourhood; a finger, or a shadow too dark, hides the printed
   lines without brightening anything. Either way a mark whose printed outline cannot be seen is not read;
4. **registers each block of marks on its printed outlines** (:func:`register`): tiles of the sheet are matched
   with the printed page ±6 mm around where the markers place them, twice as far when the best match lies at the
   edge of that (a curled or folded sheet moves marks by millimetres, and not all the same way), the tiles' shifts
   are made one smooth field (tiles that disagree with their neighbours, or whose match is ambiguous, give way), and
   each mark is then read where that field puts it, refined on its own outline (and, once decided, asked about if
   its outline fits much better a little way off and reads differently there: a fold's crease moves the sheet more
   sharply than the field follows);
5. **measures each mark** (:func:`measure`) and **decides it with a margin** (:func:`decide`): a bubble's inside
   (its mean ink, the share of it inked, how far the ink spreads), the ring just outside it (a circle drawn around
   a bubble is a mark), where ink comes from (a stroke that starts in a filled neighbour is not a mark of this
   one), how diffuse it is (a rubbed-out ghost is faint all over); a resident figure by the share of it coloured
   in. The thresholds follow the sheet's own pencil (a light 2H tick is light everywhere on that sheet) and noise.
   A mark too close to a line is undecided, with its reason; nothing is guessed.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from generator.sheets.marks import Mark, State

if TYPE_CHECKING:
    from generator.sheets.read import SheetKind

Grey = Any
Floats = Any

#: The straightened sheet: pixels per point (5.7 per millimetre): a bubble is 26 pixels across.
SCALE = 2.0
#: Pixels per millimetre on the straightened sheet.
PX_MM = SCALE * 72 / 25.4

# --- what a printed sheet alone gives ------------------------------------------------------------------------------

#: What is worked out from a printed sheet's raster alone (its darkness at the tiles' scale, the blank paper's mask,
#: a language's words at a quarter of the scale), by the raster: the same for every photo of that sheet, so worked
#: out once, not once a photo (the raster is kept by its SheetKind; a few sheets' worth, each a few MB at most).
_FROM_PRINT: dict[int, tuple[Grey, dict[Hashable, Any]]] = {}
_FROM_PRINT_KEPT = 12
_FROM_PRINT_LOCK = threading.Lock()


def _read_only(value: Any) -> None:
    """Make the arrays of `value` (an array, or tuples of them) read-only: kept for every photo, none may change."""
    if isinstance(value, tuple):
        for one in value:
            _read_only(one)
    elif hasattr(value, "setflags"):
        value.setflags(write=False)


def _of_print(ref: Grey, what: Hashable, make: Callable[[], Any]) -> Any:
    """`make()` for the printed raster `ref`, kept for the next photo of the same raster (read-only: shared)."""
    with _FROM_PRINT_LOCK:
        entry = _FROM_PRINT.get(id(ref))
        if entry is not None and entry[0] is ref and what in entry[1]:
            return entry[1][what]
    found = make()
    _read_only(found)
    with _FROM_PRINT_LOCK:
        entry = _FROM_PRINT.get(id(ref))
        if entry is None or entry[0] is not ref:
            while len(_FROM_PRINT) >= _FROM_PRINT_KEPT:
                del _FROM_PRINT[next(iter(_FROM_PRINT))]
            # the raster itself is held, so its id names no other array while it is here
            entry = _FROM_PRINT[id(ref)] = (ref, {})
        entry[1][what] = found
    return found


# --- light ---------------------------------------------------------------------------------------------------------
#: The paper's brightness is estimated by a closing with a square this wide (mm): pencil up to 6.5 mm across (a
#: bubble filled past its edge, a figure coloured in) is removed, the edge of a shadow kept.
PAPER_REACH_MM = 6.5
#: Darker "paper" than this (of 255) is outside the photo (black after straightening), not paper in a shadow.
DARKEST_PAPER = 16.0
#: Darkness is read after a blur of this sigma (pixels): sensor noise and JPEG blocks averaged with neighbours.
NOISE_BLUR = 0.8

# --- registration --------------------------------------------------------------------------------------------------
#: Tiles of the sheet registered on their own, and how far each is searched (mm): a curled sheet at an angle moves
#: marks up to 5.5 mm from where the markers place them, and further when the curl lifts a corner's marker too (seed
#: 34 curl photo 10: 6.5-7.5 mm). A tile whose best match lies at the edge of its search is searched again
#: WIDER times as far: its peak lies beyond (taken where it was, it pinned the sheet's curled half 1-2 mm short, and
#: 39 marks were read off their outlines).
TILE_MM = 26.0
SEARCH_MM = 6.0
WIDER = 2
#: Tiles are matched on a copy this many times smaller than the straightened sheet.
COARSE = 4
#: A tile's match must be this good (normalised correlation), and its best shift this much better than any shift
#: 2 mm away from it (a row of like bubbles matches one pitch over nearly as well).
TILE_MATCH = 0.35
TILE_UNIQUE = 0.04
#: Tiles whose shift differs from their neighbours' median by more than this (mm) give way.
TILE_AGREE_MM = 1.5
#: A tile is also matched on print alone: the photo and the printed sheet each capped at how dark this percentile of
#: its printed places gets (at the tiles' scale, a place holds print where the printed sheet is darker than
#: PRINTED_COARSE). A player's fill is darker than any printed outline, and a column of filled bubbles can weigh more
#: than the print around it and match its printed neighbours a bubble's pitch over; capped, it weighs as a line.
PRINT_TOP = 90
PRINTED_COARSE = 0.05
#: A tile is matched a third time with each mark's inside (this share of its size) left out.
MASKED = 0.9
#: A mark's own outline refines its place by at most this (mm) around the tiles' field.
REFINE_MM = 1.2

# --- marks ---------------------------------------------------------------------------------------------------------
#: A bubble's inside that is read: this share of its radius (clear of its printed outline).
INNER = 0.65
#: The ring around a bubble where a circle drawn around it lies: from this share of its radius to that one.
RING = (1.12, 1.62)
#: Sectors of that ring, and the share of them inked that makes a circle around the bubble.
SECTORS = 16
CIRCLED = 0.72
#: Below this share of the ring's sectors inked, nothing was drawn around the bubble (an empty bubble stays empty);
#: between it and CIRCLED, a circle may have been begun: asked.
RING_BEGUN = 0.35
#: A circle drawn around a bubble lies between these shares of its radius (what it crosses of its neighbours' is
#: its own ink, not theirs).
CIRCLE_BAND = (1.05, 1.9)
#: A sector holds a stroke when this share of its pixels are inked (a pencil line crosses half the ring's width).
SECTOR_INKED = 0.15
#: A pixel is inked when its darkness exceeds the paper's noise this many times (and at least INK_FLOOR).
NOISE_TIMES = 4.0
INK_FLOOR = 0.07
#: A bubble is filled when its inside is this much inked (the share of its pixels) with its ink spread across it
#: (SPREAD of its diameter: a tick, a cross), or this dark on average; empty below the lower bounds. Between: asked.
COVER_FILLED = 0.10
COVER_EMPTY = 0.025
MEAN_FILLED = 0.12
SPREAD = 0.4
#: Ink whose centre lies this far from the bubble's (a share of its radius), and not over a third of it, came from
#: outside: a neighbour's stroke, a circle drawn around the next bubble; a tick or a cross is drawn through the middle.
OFF_CENTRE = 0.42
#: Less ink than this share of the inside, all at one edge, is no mark.
EDGE_ONLY = 0.08
#: A figure is coloured in when this share of it is inked, empty below the lower share, asked between.
FIGURE_FILLED = 0.68
FIGURE_EMPTY = 0.16
#: ... and this share of it at half its ink's peak darkness (Measure.core): a figure coloured in half, its edge
#: blurred past where the pencil stopped, may read FIGURE_FILLED inked, never this much at half its peak.
FIGURE_CORE = 0.7
#: A printed outline is seen when its darkness is at least this share of the sheet's usual outline darkness.
OUTLINE_SEEN = 0.45
#: An empty-looking figure is read when its printed drawing reads this share of how dark the photo shows print
#: (Measure.print_seen) at least: empty figures read 0.85-1.16 in clean, folded, blurred, noisy and dark photos
#: (seeds 14 and 32), one half under a finger 0.46 (seed 14 finger-over-marks photo 19). A figure counts when most
#: of it is coloured, so one whose drawing is seen nearly whole and empty cannot be.
FIGURE_SEEN = 0.7
#: A mark that looks empty is read empty only when more than half its printed outline is seen: a fill or a tick is
#: drawn through its middle, and with half its ring hidden the middle lies at the edge of what covers it (a finger's
#: edge over the castle's tower-1 "0", outline 0.455 of the usual, read empty; finger-over-marks, seed 54, photo 0).
#: Empty marks seen whole read over 0.6 (every castle family, seed 54; the finger family's lowest 0.59).
EMPTY_SEEN = 0.55
COVERED = "its printed outline cannot be seen (something covers it, or a shadow too dark)"
#: A faint trace (rubbed out) is a ghost, not a mark, when its ink is at most GHOST of the ink of the sheet's marks
#: of its kind (a pencil's pressure varies, rarely below half); up to FAINT of it, it is asked about; beside a value
#: its field takes instead (a choice, a digit), up to GHOST_CLOSE of the darker one. A trace rubbed out badly (a
#: quarter of the graphite left or more, smeared by the eraser) can read as little as 0.14 of the sheet's fills
#: (seed 14, erased-ghosts photo 6: the Troll's, decided empty at 0.15): nothing read between 0.12 and 0.15 on
#: seeds 14, 31 and 32 of the erased-ghosts, light-ticks, low-light, scribbles, noise and blur families but it.
GHOST = 0.12
FAINT = 0.4
GHOST_CLOSE = 0.65
#: A broad mark (a bubble filled, not a line) is asked about up to this share of the sheet's fills, not FAINT: a fill
#: rubbed out badly (a third of its graphite left) read 0.41 of the fills and was scored a guest (seed 14,
#: erased-ghosts photo 13: the Prince), and the rubbed-out traces of seeds 14, 31, 32 and 33 reach 0.446 (their
#: erased-ghosts families); the fills drawn read 0.6 or more there (every family of seeds 14 and 32; the
#: erased-ghosts, noise, light-ticks, low-light, blur, scribbles, circled, jpeg and low-resolution families of 31 and
#: 33), and a light pencil fill of the older benchmark's generator as little as 0.491 (a sheet of one's own, 41 seeds:
#: 0.491, 0.595, 0.597, then more). Between the two, at first (0.45); then seed 41's erased-ghosts photo 0 drew the
#: Shepherdess rubbed out badly at 0.451 of its sheet's fills and it was decided a guest. What an eraser leaves is
#: not bounded by what has been seen, but by how much graphite it leaves: the benchmark's badly rubbed-out fill keeps
#: a quarter to a third of its pencil's darkness, up to about half the sheet's usual fill when the trace's pencil was
#: pressed hard and the sheet's fills lightly; the fills drawn on seeds 39, 40 and 41 (every family but glare) read
#: 0.64 or more of their sheet's. So the line sits between those two (0.49 and 0.64), not at the highest trace seen:
#: a fill pressed at half the player's usual is asked about ("rubbed out, or filled lightly?"), never decided (the
#: older benchmark's lightest fill, 0.491 above, is now asked about; its next, 0.595, is still read).
FILL_FAINT = 0.55
#: Rubbed out badly (issue 27 item 1: "a ghost beside a mark is asked about when it is close"): a trace left by an
#: eraser reads up to about half the player's marks, inside what pressure does to a drawn line, so its darkness
#: alone cannot tell it. A thin mark whose ink barely clears the paper's noise (SOFT of its inked pixels, or more,
#: at half its peak: a line drawn with a pen or a pencil shows a dark core and paler blurred flanks, 0.59-0.88
#: measured on dark ticks of seeds 31 and 32, 0.59-0.71 on those as faint as a trace; a smeared trace, or a line so
#: light it is close to the noise, has none: 0.90-1.31) on a sheet whose fills show the pen's own darkness is asked
#: about up to GHOST_CLOSE of the line that pen draws, not only FAINT: the player's pen draws darker than that, a
#: trace of it is what is left. Measured cost, seed 31: five light 2H ticks of two photos, as faint against their
#: sheet's 2H crosses (0.24-0.36) as the rubbed-out ticks are (0.24-0.30). (Fills have no such sign: a real fill
#: in a noisy photo read 0.48 of the sheet's fills, a figure rubbed out badly 0.43.)
SOFT = 0.8
#: A figure is coloured in with the pencil that fills the sheet's bubbles, over an area several times a bubble's, so
#: its ink's median is steady: real figures read 0.73 of the sheet's fills or more (seed 31, clean and
#: partial-residents), one rubbed out badly 0.43 (seed 32, erased-ghosts photo 2) and 0.28 (seed 31, photo 7). A
#: figure below this share of the fills is asked about (FAINT, for a mark of any shape, would decide 0.43 coloured).
FIGURE_FAINT = 0.55
#: A thin line (a tick, a cross) reads this share of a broad mark's darkness of the same pencil (a camera blurs a
#: thin line into the paper beside it): what a sheet's ticks are compared with when it has too few of them.
THIN_SHARE = 0.55
#: A photo this soft (mm: its markers' edges rise over this, photos.blur_mm; sharp photos give 0.2-0.4) spreads a
#: line's ink over a bubble: a mark inked broadly there is a line when under SMEARED of its inked pixels are at half
#: its peak (a line keeps a dark core, paler flanks: blurred ticks and crosses of seed 14's blur photos read
#: 0.69-0.86; a smeared trace, 0.90-1.31, see SOFT), and is compared with the sheet's lines, not its fills (those
#: ticks read 0.30-0.36 of the fills and were asked about as rubbed out).
SOFT_PHOTO_MM = 0.5
#: A sharp photo's markers' edges rise over this (mm, photos.blur_mm: 0.2-0.4 measured), which the printed sheet
#: compared with has too; past it, the camera blurred the photo, by a Gaussian whose edge rises from 20 % to 80 % over
#: EDGE_SIGMAS of its sigma (2 x 0.8416, the normal distribution's 80th percentile).
SHARP_MM = 0.4
EDGE_SIGMAS = 1.683
SMEARED = 0.9
#: Ink this wide (mm, at half its peak) is a blob, as dark as a fill of the same pencil; a pencil line, blurred by
#: the camera, is narrower.
WIDE_MM = 1.5
#: A mark inked over this share of its inside is broad (a fill, a smear); a tick or a cross covers less.
BROAD = 0.8
#: A fill is inked evenly over the bubble: the 20th percentile of its darkness inside reads EVEN of the 80th or more
#: (684 bubbles inked over 80 %, seed 33's low-light and erased-ghosts photos and seed 14's dark-room probe: nine in
#: ten fills 0.81 or more, fills rubbed out 0.69 or more), a line does not, however a grainy photo spreads it
#: (crosses 0.42-0.63 at the median, nine in ten under 0.75; ticks under 0.70): a dark room's crosses read inked over
#: 80 % of their inside (cover) nine times in ten, and made the fills' usual ink a line's.
EVEN = 0.75
#: A pen's fill reads at least as dark as its line: the median of a sheet's fills read 0.96-1.62 of its lines' on
#: seed 33's erased-ghosts photos (sharp: the lines nearly as dark as fills), 1.36-2.49 on its low-light ones and on
#: seed 14's dark-room probe (the lines spread thin by the grain). A sheet whose even marks read under UNDER_LINES of
#: its lines, or which has fewer than three, shows no fill of the player's: those even marks are what a player who
#: ticks and crosses rubbed out (0.34-0.81 of the lines, seed 14's dark-room probe of such sheets). There an even
#: mark below LONE of the lines is asked about: a fill rubbed out badly read up to 1.1 of them, so a real fill as
#: faint as the lines is asked about too.
UNDER_LINES = 0.9
LONE = 1.25


@dataclass(frozen=True)
class MarkRead:
    """What one mark shows: filled, empty or undecided (None); its ink; how sure; why it is undecided (code and
    words); where on the sheet it was read (points), which the annotated photo draws."""

    state: State
    #: the mark's ink: the share of its inside inked (a figure: the share coloured in)
    fill: float
    confidence: float
    why: str = ""
    code: str = ""
    x: float = 0.0
    y: float = 0.0


# --- the printed sheet -----------------------------------------------------------------------------------------------

def printed(kind: SheetKind, paper: str) -> Grey:
    """The scan-ready sheet as printed, rasterised in grey at SCALE (cached by the kind)."""
    return kind.raster(paper, SCALE)


def rasterise(page: Any, scale: float) -> Grey:
    """A page (generator.render.model.Page) rasterised in grey at `scale` pixels per point (PDF, then pdfium)."""
    import io

    from generator.backends.pdf import write_pdf
    from generator.pdfium_lock import page_grey

    buffer = io.BytesIO()
    # uncompressed: the same pixels, without deflating the page's streams only for pdfium to inflate them again
    write_pdf([page], buffer, title="scan-ready sheet", compress=False)
    # photos are read in the companion's threads, two at once: pdfium one call at a time, nothing left to a finalizer
    return page_grey(buffer.getvalue(), 0, scale=scale)


# --- light -----------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Light:
    """The straightened sheet with its light divided out."""

    #: darkness of each pixel against the paper around it: 0 paper, 1 black
    dark: Floats
    #: the paper's brightness (0-255) at each pixel
    paper: Floats
    #: the paper's noise (the spread of darkness on blank paper)
    noise: float
    #: where glare may be: the paper brighter than around it, or burnt out (bool per pixel)
    glare: Any
    #: how much brighter the paper is than the paper around it (a share: 0.1 is 10 % brighter): the light glare adds
    lift: Floats
    #: the printed sheet's darkness smoothed as this photo was (`_darkness`: a grainy photo more), for the printed
    #: lines' spread in it: see `measure`
    spread: Floats
    #: how dark this photo shows the printed lines, against `spread` (their usual share over the sheet's marks; 0
    #: before they are measured): see `print_shown`
    shown: float = 0.0


def _darkness(sheet: Grey, grain: float | None = None) -> tuple[Floats, Floats, float]:
    """Each pixel's darkness against the paper around it, the paper's brightness, and how much the sheet was
    smoothed first (a Gaussian's sigma, pixels): as much as the photo is grainy (a dark room's photo is). The
    paper's brightness is a closing of that same smoothed sheet: a light ramp, or the edge of a shadow or of a
    fold's lit face, comes out of a closing as it went in, so it reads as paper, not as a line of ink."""
    import cv2
    import numpy as np

    soft = NOISE_BLUR + (_grain(sheet) if grain is None else grain) / 8
    smooth = cv2.GaussianBlur(sheet.astype(np.float32), (0, 0), soft)
    reach = max(3, round(PAPER_REACH_MM * PX_MM)) | 1
    paper = cv2.morphologyEx(smooth, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach)))
    return np.clip(1.0 - smooth / np.maximum(paper, DARKEST_PAPER), 0.0, 1.0), paper, soft


def _grain(sheet: Grey) -> float:
    """The photo's grain: the spread of the difference between each pixel and its neighbours' mean, in grey levels
    (robust: printed lines and pencil are a small share of the pixels)."""
    import cv2
    import numpy as np

    small = sheet[::2, ::2].astype(np.float32)
    diff = small - cv2.blur(small, (3, 3))
    return _robust_spread(diff, 0.0) * 1.125


#: A normal spread's standard deviation per median absolute deviation (1 / the normal's 75th percentile, 0.6745):
#: the median deviation read in the units of a standard deviation.
MAD_SIGMA = 1.4826


def _robust_spread(values: Any, centre: float) -> float:
    """How far `values` spread about `centre`, as a standard deviation, robust to the few far ones (ink among paper,
    one mark among a sheet's): their median absolute deviation times MAD_SIGMA."""
    import numpy as np

    return float(np.median(np.abs(values - centre))) * MAD_SIGMA


@lru_cache(maxsize=8)
def expected(kind: SheetKind, paper: str) -> Floats:
    """The darkness the printed sheet itself shows (its lines, labels, tinted panels), as the photo's darkness is
    measured, each pixel the darkest within a pixel around it (a photo registered a pixel off): what is darker
    than this on a photo is ink a player added."""
    import cv2
    import numpy as np

    dark, _, _ = _darkness(printed(kind, paper))
    return cv2.dilate(dark, np.ones((3, 3), np.uint8))


#: Which language's print a photo shows (`printed_language`) is told on the sheet's words where two languages'
#: prints differ (WORDS_DIFFER of darkness apart, at a quarter of the scale, grown by WORDS_AROUND pixels there:
#: 2.8 mm), both sides smoothed by WORDS_SOFT pixels; a language is taken when its print fits the photo there
#: WORDS_BETTER (normalised correlation) better than the other's, the sheet's own language when none does.
WORDS_DIFFER = 0.15
WORDS_AROUND = 4
WORDS_SOFT = 1.5
WORDS_BETTER = 0.02
#: ... on this many pixels at least (at a quarter of the scale: 50 mm² of words), or the sheet's own language stands
WORDS_SEEN = 100
#: The fit is taken tile by tile (WORDS_TILE pixels at a quarter of the scale: 28 mm), each tile's print moved up
#: to WORDS_SHIFT pixels (1.4 mm) each way to where it fits best, the tiles weighed by their words: a curl or a fold
#: moves the words a few millimetres from where the markers put them, and words compared where they no longer lie
#: tell little. Seed 37's curl photo 9 printed in German (a 28 mm curl): the English and German prints fitted it
#: 0.528 and 0.533 compared whole, and the English print was taken; 0.707 and 0.777 tile by tile. Over 7 photos of
#: seed 37 (clean, curl, fold) printed in English, French or German, the print shown fitted 0.051-0.11 better than
#: any other tile by tile (0.005-0.12 whole); over 32 photos of seed 38 printed in German (curl, fold, perspective,
#: glare), German was taken every time.
WORDS_TILE = 40
WORDS_SHIFT = 2
#: ... and a tile with fewer pixels of words than this is left out (too few to correlate)
WORDS_TILE_SEEN = 30


def printed_language(kinds: Sequence[SheetKind], paper: str, sheet: Grey, valid: Any) -> SheetKind:
    """Of the same sheet printed in several languages (`kinds`, the sheet's own first), the one the straightened
    photo `sheet` shows: its words are where only words differ, and a player's marks are inside the marks, which are
    the same in every language."""
    import cv2
    import numpy as np

    if len(kinds) < 2:
        return kinds[0]

    def coarse(grey: Grey) -> Floats:
        return cv2.resize(grey.astype(np.float32), None, fx=1 / COARSE, fy=1 / COARSE, interpolation=cv2.INTER_AREA)

    rasters = [printed(kind, paper) for kind in kinds]
    if any(raster.shape != sheet.shape for raster in rasters):
        return kinds[0]
    # each print's darkness at a quarter of the scale, and smoothed as the photo's is: the same for every photo
    words = [_of_print(raster, "words", partial(_words_print, coarse, raster)) for raster in rasters]
    prints, soft = [one for one, _ in words], [smooth for _, smooth in words]
    small = coarse(sheet)
    reach = max(3, round(PAPER_REACH_MM * PX_MM / COARSE)) | 1
    paper_light = cv2.morphologyEx(small, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach)))
    dark = np.clip(1.0 - small / np.maximum(paper_light, DARKEST_PAPER), 0.0, 1.0)
    inside = cv2.resize(valid.astype(np.uint8), (dark.shape[1], dark.shape[0]), interpolation=cv2.INTER_NEAREST) > 0
    seen = cv2.GaussianBlur(dark, (0, 0), WORDS_SOFT)

    # two prints at a time, where those two differ (compared where any two of three differ, a German photo's
    # English and German prints fitted it 0.04-0.07 apart, seed 37); the sheet's own language stands unless another
    # fits clearly better
    best = 0
    for other in range(1, len(kinds)):
        differ = (np.abs(prints[other] - prints[best]) > WORDS_DIFFER).astype(np.uint8)
        where = (cv2.dilate(differ, np.ones((2 * WORDS_AROUND + 1,) * 2, np.uint8)) > 0) & inside
        if int(where.sum()) < WORDS_SEEN:
            continue
        # with the whole sheet in the photo, where the prints are compared is theirs alone: what the prints give
        # there is kept for the next photo of this sheet
        fits = _fits_by_tiles(seen, (soft[best], soft[other]), where, where.tobytes() if inside.all() else None)
        if fits is not None and fits[1] - fits[0] >= WORDS_BETTER:
            best = other
    return kinds[best]


def _words_print(coarse: Callable[[Grey], Floats], raster: Grey) -> tuple[Floats, Floats]:
    """A print at a quarter of the scale (`coarse`, `printed_language`'s), as darkness, and that smoothed by
    WORDS_SOFT."""
    import cv2

    dark = 1.0 - coarse(raster) / 255.0
    return dark, cv2.GaussianBlur(dark, (0, 0), WORDS_SOFT)


def _fits_by_tiles(seen: Floats, prints: Sequence[Floats], where: Any, fixed: bytes | None = None
                   ) -> tuple[float, ...] | None:
    """How well each print fits the photo's darkness `seen` on the pixels `where`: tile by tile (WORDS_TILE), the
    best normalised correlation of the print moved up to WORDS_SHIFT pixels each way, averaged over the tiles weighed
    by their pixels; None when no tile has words enough. `fixed`: `where` told by the prints alone (its bytes), so
    what each print gives there is kept with it."""
    import numpy as np

    reach = WORDS_SHIFT
    height, width = seen.shape
    rows, cols = (height - 2 * reach) // WORDS_TILE, (width - 2 * reach) // WORDS_TILE
    if rows < 1 or cols < 1:
        return None
    # the tiles lie on the sheet less a border of `reach` pixels, so that each print moved that far stays on it
    # (views, not copies: the search costs the products and sums alone)
    box = (slice(reach, reach + rows * WORDS_TILE), slice(reach, reach + cols * WORDS_TILE))

    def per_tile(values: Floats) -> Floats:
        return values.reshape(rows, WORDS_TILE, cols, WORDS_TILE).sum(axis=(1, 3), dtype=np.float64)

    weight = where[box].astype(np.float32)
    n = per_tile(weight)
    used = n >= WORDS_TILE_SEEN
    if not used.any():
        return None
    count = np.maximum(n, 1.0)
    x = seen[box].astype(np.float32)
    xw = x * weight
    sx = per_tile(xw)
    var_x = per_tile(x * xw) - sx * sx / count
    shifts = [(dy, dx) for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1)]

    def moved(dy: int, dx: int) -> tuple[slice, slice]:
        return slice(box[0].start + dy, box[0].stop + dy), slice(box[1].start + dx, box[1].stop + dx)

    def print_side(one: Floats) -> tuple[Floats, ...]:
        """The print's sum and variance per tile at each shift: the print's side of the correlation."""
        squared = one * one
        out = []
        for dy, dx in shifts:
            sy = per_tile(one[moved(dy, dx)] * weight)
            out.append((sy, per_tile(squared[moved(dy, dx)] * weight) - sy * sy / count))
        return tuple(out)

    fits = []
    for given in prints:
        one = given.astype(np.float32)
        sides = print_side(one) if fixed is None else _of_print(given, ("tiles", where.shape, fixed),
                                                                     partial(print_side, one))
        best = np.full(n.shape, -1.0)
        for (dy, dx), (sy, var_y) in zip(shifts, sides, strict=True):
            cov = per_tile(one[moved(dy, dx)] * xw) - sx * sy / count
            flat = (var_x <= 1e-9) | (var_y <= 1e-9)
            best = np.maximum(best, np.where(flat, -1.0, cov / np.sqrt(np.where(flat, 1.0, var_x * var_y))))
        fits.append(float((best[used] * n[used]).sum() / n[used].sum()))
    return tuple(fits)


def light(sheet: Grey, ref: Grey, valid: Any, blur_mm: float = 0.0, grain: float | None = None) -> Light:
    """Divide the light out of the straightened sheet `sheet` (grey), `ref` the printed sheet at the same scale;
    `blur_mm` how soft the photo is (its markers' edges); `grain` the sheet's `_grain`, when already known."""
    import cv2
    import numpy as np

    dark, paper, soft = _darkness(sheet, grain)
    if blur_mm > SHARP_MM:
        # the camera's blur spreads the printed lines as much again (Gaussian blurs add in quadrature): the print a
        # player's ink is told from is spread as the photo spreads it (seed 34 blur photos: empty residents and
        # bubbles of photos 0.8-0.9 mm soft read 11-21 % inked by their own outline's blur, asked about as rubbed out)
        soft = math.hypot(soft, math.sqrt(blur_mm ** 2 - SHARP_MM ** 2) / EDGE_SIGMAS * PX_MM)
    dark[~valid] = 0.0
    # the paper's noise: the spread of darkness where the sheet is printed blank, far from any ink
    blank = _of_print(ref, "blank", lambda: cv2.erode((ref > 245).astype(np.uint8), np.ones((9, 9), np.uint8))
                      > 0) & valid
    sample = dark[blank][:: max(1, int(blank.sum()) // 200_000)]
    base = float(np.median(sample)) if sample.size else 0.0
    noise = _robust_spread(sample, base) if sample.size else 0.02
    # blank paper reads `base` dark on average (the brightest of grain stands a little above the paper): that is
    # the zero of ink
    dark = np.clip(dark - base, 0.0, 1.0)
    # the printed lines as this photo's smoothing spreads them (the reference `expected` is smoothed as a sharp,
    # clean render is: a grainy photo's lines spread further, past it)
    spread = cv2.GaussianBlur(1.0 - ref.astype(np.float32) / 255.0, (0, 0), soft)
    return Light(dark, paper, max(noise, 0.004), *_bright(sheet, paper, valid), spread)


#: Glare adds light: where it falls, the paper is brighter than the paper around it (by GLARE_BRIGHTER, against an
#: opening at GLARE_REACH_MM, which keeps a shadow's edge and removes bright spots smaller than that), or burnt out
#: to white where the sheet's paper is not; and it washes out printed lines (a lit fold's face, only brighter, does
#: not): a mark in such a place whose outline is darker than GLARE_WASHED of the sheet's usual is read.
GLARE_BRIGHTER = 1.08
GLARE_REACH_MM = 70.0
GLARE_WASHED = 0.8
#: Where glare's mask (GLARE_BRIGHTER against an opening, on a grid of 8 pixels) touches a mark or passes within
#: GLARE_EDGE_MM of it (two cells of that grid), the mark is under glare all the same when its paper is lifted
#: GLARE_EDGE_LIFT (`Measure.lift`) and its outline washed as above. A broad lamp's halo lifts the paper around it
#: too, so the mask's edge falls short of where the glare still drowns a pencil line: seed 62, glare photo 0 (an HB
#: sheet, a lobe of 35 mm), two empty bubbles 1 % and 12 % in the mask, lift 0.047 and 0.051, outlines washed to
#: 0.64 of the sheet's empty ones, were read empty where the benchmark's graphite line keeps under a third of its
#: contrast; seed 69, glare photo 11, a wall's bubble filled in HB, 0.5 mm from the mask, lift 0.046, its fill
#: washed to 5 % of it, was read empty: a wrong score without a flag. A light's gradient lifts the paper as much
#: (LIFT_SLACK) but does not wash printed lines out, hence both together, and only beside glare found.
GLARE_EDGE_LIFT = 0.04
GLARE_EDGE_MM = 2.8
#: Under glare, a mark this much inked across its middle is filled (a normal read takes 0.35 as a fill whatever
#: its spread; here the ink must also spread across the mark, since glare's edge leaves uneven paper).
GLARE_SEEN = 0.35
SATURATED = 250


def _bright(sheet: Grey, paper: Floats, valid: Any) -> tuple[Any, Floats]:
    """Where the paper is brighter than the paper around it, or burnt out: where glare may be; and how much brighter
    than around it the paper is everywhere (a share)."""
    import cv2
    import numpy as np

    step = 8
    small = cv2.resize(paper, None, fx=1 / step, fy=1 / step, interpolation=cv2.INTER_AREA)
    ok = cv2.resize(valid.astype(np.uint8), (small.shape[1], small.shape[0]), interpolation=cv2.INTER_NEAREST) > 0
    if not ok.any():
        return np.zeros(sheet.shape, dtype=bool), np.zeros(sheet.shape, dtype=np.float32)
    reach = max(3, round(GLARE_REACH_MM * PX_MM / step)) | 1
    filled_in = np.where(ok, small, float(np.median(small[ok]))).astype(np.float32)
    around = cv2.morphologyEx(filled_in, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                                                   (reach, reach)))
    sheet_paper = float(np.median(small[ok]))
    # brighter than the paper around it and than the sheet's paper as a whole (the lit side of a shadow's edge is
    # only the paper as it is)
    bright = (filled_in > around * GLARE_BRIGHTER) & (filled_in > sheet_paper * GLARE_BRIGHTER)
    saturated = cv2.resize((sheet >= SATURATED).astype(np.float32), (small.shape[1], small.shape[0]),
                           interpolation=cv2.INTER_AREA) > 0.3
    found = ok & (bright | (saturated & (sheet_paper < SATURATED - 12)))
    found = cv2.dilate(found.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    lift = np.where(ok, np.clip(filled_in / np.maximum(around, DARKEST_PAPER) - 1.0, 0.0, None), 0.0)
    return (cv2.resize(found.astype(np.uint8), (sheet.shape[1], sheet.shape[0]), interpolation=cv2.INTER_NEAREST) > 0,
            cv2.resize(lift.astype(np.float32), (sheet.shape[1], sheet.shape[0]), interpolation=cv2.INTER_LINEAR))


# --- registration ---------------------------------------------------------------------------------------------------

def register(dark: Floats, ref: Grey, marks: Sequence[Mark], valid: Any) -> Floats:
    """Each mark's shift (dx, dy, in pixels of the straightened sheet) from where the markers place it to where it
    is: tiles matched with the printed sheet, made one smooth field."""
    import cv2
    import numpy as np

    # at a quarter of the scale (0.7 mm a pixel, to a fraction of it at the peak): each mark refines its own place
    d2 = cv2.resize(dark, None, fx=1 / COARSE, fy=1 / COARSE, interpolation=cv2.INTER_AREA)
    r2, printed, r2_top = _of_print(ref, "coarse", lambda: _coarse_print(ref))
    v2 = cv2.resize(valid.astype(np.uint8), (d2.shape[1], d2.shape[0]), interpolation=cv2.INTER_NEAREST) > 0
    # ... and on print alone (PRINT_TOP), which vetoes a match a pitch over (seed 33 erased-ghosts photo 5: the fourth
    # tower's column, filled and rubbed out, matched a bubble's pitch low at three tiles of the sheet's right edge,
    # which outvoted the two right ones)
    print_only: tuple[Floats, Floats] | None = None
    if (printed & v2).any():
        print_only = (np.minimum(d2, float(np.percentile(d2[printed & v2], PRINT_TOP))), r2_top)
    k = PX_MM / COARSE
    insides = _of_print(ref, ("insides", tuple(marks)), lambda: _insides(marks, d2.shape))
    tile = round(TILE_MM * k)
    search = round(SEARCH_MM * k)
    apart = round(2.0 * k)
    centres = np.array([((m.x + m.width / 2) * SCALE / COARSE, (m.y + m.height / 2) * SCALE / COARSE)
                        for m in marks])
    found: list[tuple[float, float, float, float]] = []
    placed: set[tuple[int, int]] = set()
    if len(centres):
        x_lo, y_lo = centres.min(axis=0) - tile / 2
        x_hi, y_hi = centres.max(axis=0) + tile / 2
        for ty in np.arange(y_lo, y_hi, tile * 0.7):
            for tx in np.arange(x_lo, x_hi, tile * 0.7):
                # a tile at the sheet's edge is moved in until its search fits (curl moves the edges most)
                x0 = int(min(max(tx, search), d2.shape[1] - tile - search))
                y0 = int(min(max(ty, search), d2.shape[0] - tile - search))
                # ... and tiles moved in onto the same place are one tile: matched twice, one match would vote twice
                # with its neighbours (seed 31 gradient photo 0: a match a bubble's pitch off at the right edge, its
                # two copies outvoting the right one, put the fourth tower's column a bubble off)
                if x0 < search or y0 < search or (x0, y0) in placed:
                    continue
                placed.add((x0, y0))
                near = (np.abs(centres[:, 0] - (x0 + tile / 2)) < tile * 0.75) & \
                       (np.abs(centres[:, 1] - (y0 + tile / 2)) < tile * 0.75)
                if not near.any() or not v2[y0 - search:y0 + tile + search, x0 - search:x0 + tile + search].all():
                    continue
                match = _tile_match(d2, r2, x0, y0, tile, search, apart)
                if match is None:
                    continue
                if print_only is not None:
                    # with the player's ink the match is sharper (fills sit where their bubbles are printed), but
                    # a column of fills can match a pitch over: a tile whose print alone is found elsewhere gives
                    # no shift, and its neighbours place its marks (taking print alone's place instead moved an
                    # empty bubble of a dark photo 2 px, enough to read its outline's blur as ink: seed 31
                    # low-light photo 10)
                    alone = _tile_match(*print_only, x0, y0, tile, search, apart)
                    if alone is not None and math.hypot(alone[0] - match[0], alone[1] - match[1]) > apart:
                        continue
                # ... and on the print around the marks, their insides left out (where the player's ink goes): a
                # tile stands only where that print places it too. The cap above is the darkest print's, and where
                # the corner markers are most of a sparse sheet's print it caps nothing (a designer's sheet of two
                # rows of three bubbles: a tile cutting a filled bubble in half matched a pitch over, 0.58 against
                # 0.34 where it is, and two such tiles outvoted the right one: a clean scan's last bubbles were
                # asked about, and 2 of 80 photos read a row a bubble over). A tile whose print around its marks is
                # placed nowhere for sure (curled, a row of like bubbles) gives no shift either: its neighbours do
                around = _tile_match(d2, r2, x0, y0, tile, search, apart, insides[y0:y0 + tile, x0:x0 + tile])
                if around is None or math.hypot(around[0] - match[0], around[1] - match[1]) > apart:
                    continue
                found.append((x0 + tile / 2, y0 + tile / 2, match[0], match[1]))
    shifts = np.zeros((len(marks), 2), dtype=np.float64)
    if not found:
        return shifts
    tiles = np.array(found)
    # tiles that disagree with their neighbours give way (a wrong match, a pitch over)
    keep = np.ones(len(tiles), dtype=bool)
    agree = TILE_AGREE_MM * k
    for i, (x, y, dx, dy) in enumerate(tiles):
        near = np.hypot(tiles[:, 0] - x, tiles[:, 1] - y) < tile * 1.6
        if near.sum() >= 3:
            mx, my = np.median(tiles[near, 2]), np.median(tiles[near, 3])
            keep[i] = math.hypot(dx - mx, dy - my) <= agree
    tiles = tiles[keep]
    if not len(tiles):
        return shifts
    # each mark: a plane through the shifts of the tiles around it (a curl's shift grows towards the lifted edge,
    # and a plane carries that past the last tile), weighted by nearness; with few tiles around, their mean
    limit = (SEARCH_MM * WIDER + 2.0) * k
    for index, (cx, cy) in enumerate(centres):
        d = np.hypot(tiles[:, 0] - cx, tiles[:, 1] - cy)
        weight = 1.0 / (d + tile * 0.25) ** 2
        around = d <= tile * 2.5
        if around.sum() >= 5:
            a = np.column_stack([np.ones(around.sum()), tiles[around, 0] - cx, tiles[around, 1] - cy])
            w = np.sqrt(weight[around])[:, None]
            fit, *_ = np.linalg.lstsq(a * w, tiles[around, 2:4] * w, rcond=None)
            dx, dy = float(fit[0, 0]), float(fit[0, 1])
        else:
            nearest = np.argsort(d)[:6]
            w = weight[nearest]
            dx, dy = (float((tiles[nearest, 2] * w).sum() / w.sum()), float((tiles[nearest, 3] * w).sum() / w.sum()))
        shifts[index] = (float(np.clip(dx, -limit, limit)) * COARSE, float(np.clip(dy, -limit, limit)) * COARSE)
    return shifts


def _coarse_print(ref: Grey) -> tuple[Floats, Any, Floats]:
    """The printed sheet's darkness at the tiles' scale (COARSE), where it holds print (PRINTED_COARSE), and that
    darkness capped at its PRINT_TOP percentile there (`register`'s match on print alone)."""
    import cv2
    import numpy as np

    ref_dark = (1.0 - ref.astype(np.float32) / 255.0)
    r2 = cv2.resize(ref_dark, None, fx=1 / COARSE, fy=1 / COARSE, interpolation=cv2.INTER_AREA)
    printed = r2 > PRINTED_COARSE
    top = np.minimum(r2, float(np.percentile(r2[printed], PRINT_TOP))) if printed.any() else r2
    return r2, printed, top


def _insides(marks: Sequence[Mark], shape: tuple[int, ...]) -> Floats:
    """A mask of the tiles' scale (`shape`): 0 on each mark's inside (MASKED of its size: where a player's ink
    goes, filled or not), 1 elsewhere."""
    import cv2
    import numpy as np

    mask = np.ones(shape[:2], dtype=np.float32)
    k = SCALE / COARSE
    for mark in marks:
        w, h = mark.width * k * MASKED, mark.height * k * MASKED
        cx, cy = (mark.x + mark.width / 2) * k, (mark.y + mark.height / 2) * k
        if mark.shape == "figure":
            x0, y0 = (mark.x + mark.width * (1 - MASKED) / 2) * k, (mark.y + mark.height * (1 - MASKED) / 2) * k
            size = (max(1, round(w)), max(1, round(h)))
            inside = cv2.resize(inside_of("figure", 100, 100), size, interpolation=cv2.INTER_AREA) > 0.1
            ix, iy = round(x0), round(y0)
            view = mask[max(iy, 0):iy + size[1], max(ix, 0):ix + size[0]]
            view[inside[max(-iy, 0):max(-iy, 0) + view.shape[0], max(-ix, 0):max(-ix, 0) + view.shape[1]]] = 0.0
        elif mark.shape == "square":
            cv2.rectangle(mask, (round((cx - w / 2) * 16), round((cy - h / 2) * 16)),
                          (round((cx + w / 2) * 16), round((cy + h / 2) * 16)), 0.0, -1, shift=4)
        else:
            cv2.ellipse(mask, (round(cx * 16), round(cy * 16)), (round(w / 2 * 16), round(h / 2 * 16)), 0, 0, 360,
                        0.0, -1, shift=4)
    return mask


def _tile_match(d2: Floats, r2: Floats, x0: int, y0: int, tile: int, search: int, apart: int,
                mask: Floats | None = None) -> tuple[float, float] | None:
    """How far the printed tile at (x0, y0) (`r2`, the printed sheet's darkness) lies in the photo's darkness `d2`
    from where the markers place it (dx, dy, pixels of `d2`, to a fraction of one), searched `search` around, and
    WIDER times as far when the best place is at the search's edge (where that finds none inside it, the first
    search's best place stands); None when the match is poor (TILE_MATCH) or not clearly better than any place
    `apart` from it (TILE_UNIQUE)."""
    import cv2
    import numpy as np

    template = r2[y0:y0 + tile, x0:x0 + tile]
    if float(template.std()) < 0.02:
        return None
    height, width = d2.shape

    def searched(reach: int) -> tuple[Floats, float, int, int, int, int, bool]:
        """The scores `reach` around (as far as the photo goes: a tile at the sheet's edge was moved in until
        `search` fits), the best and its place, the window's corner, and whether the best lies inside it."""
        left, top = max(x0 - reach, 0), max(y0 - reach, 0)
        right, bottom = min(x0 + tile + reach, width), min(y0 + tile + reach, height)
        if mask is None:
            scores = cv2.matchTemplate(d2[top:bottom, left:right], template, cv2.TM_CCOEFF_NORMED)
        else:
            # where the photo's window is blank under the mask, no score (not a match of 1: NaN or inf)
            scores = np.nan_to_num(cv2.matchTemplate(d2[top:bottom, left:right], template, cv2.TM_CCOEFF_NORMED,
                                                     mask=mask), nan=-1.0, posinf=-1.0, neginf=-1.0)
        _, best, _, (bx, by) = cv2.minMaxLoc(scores)
        inside = 0 < bx < scores.shape[1] - 1 and 0 < by < scores.shape[0] - 1
        return scores, best, bx, by, left, top, inside

    scores, best, bx, by, left, top, inside = searched(search)
    if not inside:
        wider = searched(search * WIDER)
        # at the edge of the wider search too (the photo's edge stops it, at the sheet's edge): the first search's
        # best place stands, as far as it goes (its neighbours' shifts make the field; seed 32 curl photo 2: the
        # bottom row's tiles, cut short by the sheet's edge, placed its guests within their refinement)
        if wider[-1]:
            scores, best, bx, by, left, top, _ = wider
    if best < TILE_MATCH:
        return None
    away = scores.copy()
    cv2.rectangle(away, (bx - apart, by - apart), (bx + apart, by + apart), -1.0, -1)
    if best - float(away.max()) < TILE_UNIQUE:
        return None
    # the peak to a fraction of a pixel (a parabola through it and its neighbours)
    return _subpixel(scores, bx, by, 1) + left - x0, _subpixel(scores, bx, by, 0) + top - y0


def _subpixel(scores: Floats, bx: int, by: int, axis: int) -> float:
    """The peak of `scores` at (bx, by) along one axis, to a fraction of a pixel."""
    at = bx if axis == 1 else by
    size = scores.shape[axis]
    if at <= 0 or at >= size - 1:
        return float(at)
    if axis == 1:
        a, b, c = scores[by, bx - 1], scores[by, bx], scores[by, bx + 1]
    else:
        a, b, c = scores[by - 1, bx], scores[by, bx], scores[by + 1, bx]
    denom = a - 2 * b + c
    return float(at) if denom >= 0 else float(at + 0.5 * (a - c) / denom)


# --- one mark --------------------------------------------------------------------------------------------------------

@lru_cache(maxsize=32)
def inside_of(shape: str, width_px: int, height_px: int) -> Any:
    """The inside of a mark that is read, as a float mask: a bubble's disc (INNER of its radius), a figure's head
    and body (the resident icon, generator.render.icons "resident-blank", in its 100-unit box)."""
    import cv2
    import numpy as np

    inside = np.zeros((height_px, width_px), dtype=np.float32)
    if shape == "figure":
        k = width_px / 100
        cv2.circle(inside, (round(50 * k), round(22 * k)), max(1, round(15 * k)), 1.0, -1)
        body = np.array([(18, 96), (18, 78), (30, 52), (50, 46), (70, 52), (82, 78), (82, 96)], dtype=np.float64) * k
        cv2.fillPoly(inside, [body.round().astype(np.int32)], 1.0)
    else:
        r = min(width_px, height_px) / 2
        cv2.circle(inside, (round((width_px - 1) / 2), round((height_px - 1) / 2)), max(1, round(r * INNER)), 1.0, -1)
    return inside


@dataclass(frozen=True)
class Measure:
    """What was measured at one mark."""

    #: the share of the inside inked, its mean ink, how far its ink spreads (share of the mark's size)
    cover: float
    mean: float
    spread: float
    #: the share of the ring's sectors inked (a circle drawn around a bubble)
    ring: float
    #: the printed outline's darkness where the mark was read
    outline: float
    #: the share of the mark in glare, and outside the photo
    glare: float
    outside: float
    #: how far the inked inside's centre lies from the mark's centre (a share of its radius: ink come from one
    #: side), and towards where (radians)
    edge_share: float
    edge_angle: float
    #: the median darkness of the inked pixels inside (a rubbed-out ghost is faint all over)
    level: float
    #: the widest ink (mm): twice the radius of the largest disc that fits in it; a pencil line is under a
    #: millimetre wide, a blob or a smear wider
    wide: float
    #: the share of the inside's middle (a quarter of its radius) inked: a tick or a cross goes through it
    middle: float
    #: where it was read: its top-left corner, in pixels of the straightened sheet
    x: int
    y: int
    #: how much brighter its paper is than the paper around it (Light.lift): the light glare adds there
    lift: float = 0.0
    #: the share of the inside inked at half the ink's peak darkness at least: the ink's edge, blurred by the
    #: camera, spreads past where the player stopped, but not that dark (a figure coloured in half reads 70 % or
    #: more inked at times, never over 60 % at half its peak; one coloured in whole, over 80 %)
    core: float = 0.0
    #: how dark its printed outline reads against how dark this photo shows print there (`print_shown`: the
    #: sheet's usual share, the print spread as the photo was smoothed); 0 when not known
    print_seen: float = 0.0
    #: how evenly its inside is inked: the 20th percentile of the darkness inside against the 80th (1 for a figure,
    #: coloured in as it may be)
    even: float = 1.0
    #: whether glare was found within GLARE_EDGE_MM of it
    glare_near: bool = False
    #: how dark the paper just outside a bubble's outline reads (`_around_paper`): a shadow darkens it as the inside
    around: float = 0.0
    #: how dark the paper further out reads (BEYOND_BAND), where the paper just outside is inked: a shadow reaches
    #: there too, ink spilt past the outline does not (0 where not measured)
    beyond: float = 0.0


NOWHERE = Measure(0, 0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 0, 0, 0)


def _window(mark: Mark) -> tuple[int, int, int, int]:
    """A mark's place on the printed sheet (pixels): its top-left corner, width and height."""
    return (round(mark.x * SCALE), round(mark.y * SCALE), max(3, round(mark.width * SCALE)),
            max(3, round(mark.height * SCALE)))


#: Around a mark, what is printed that its place is refined on (its outline, its label, lines): this far (mm).
AROUND_MM = 3.0


def _within(x0: int, y0: int, w: int, h: int, margin: int, shape: tuple[int, ...]) -> bool:
    """Whether a window (top-left corner, width, height, in pixels) and `margin` pixels around it lie inside an
    image of `shape`."""
    return x0 - margin >= 0 and y0 - margin >= 0 and x0 + w + margin <= shape[1] and y0 + h + margin <= shape[0]


def _around(mark: Mark, dark: Floats, ref: Grey, place: tuple[float, float], reach: int
            ) -> tuple[Floats, Floats, Any] | None:
    """What a mark's place is matched on: what is printed around it (its outline, its label: AROUND_MM around its
    window, from the printed sheet, as darkness), the photo's darkness around where `place` (pixels) puts it,
    `reach` pixels further each way, and the mask of what is matched (its inside left out); None when either does
    not fit in its image."""
    import numpy as np

    rx, ry, w, h = _window(mark)
    x0, y0 = round(rx + place[0]), round(ry + place[1])
    margin = round(AROUND_MM * PX_MM)
    if not _within(x0, y0, w, h, margin + reach, dark.shape) or not _within(rx, ry, w, h, margin, ref.shape):
        return None
    template = 1.0 - ref[ry - margin:ry + h + margin, rx - margin:rx + w + margin].astype(np.float32) / 255.0
    patch = dark[y0 - margin - reach:y0 + h + margin + reach, x0 - margin - reach:x0 + w + margin + reach]
    return template, patch, _refine_mask(mark.shape, w, h, margin)


def refine(mark: Mark, dark: Floats, ref: Grey, shift: tuple[float, float]) -> tuple[float, float] | None:
    """The mark's shift refined on what is printed around it (its outline, its label), its inside left out (ink
    there must not pull the match), within REFINE_MM of `shift`; None when it cannot be (too near the edge,
    nothing printed around it)."""
    import cv2
    import numpy as np

    reach = round(REFINE_MM * PX_MM)
    around = _around(mark, dark, ref, shift, reach)
    if around is None or float(around[0].max()) <= 0.2:
        return None
    template, patch, keep = around
    # a pencil stroke beside the mark is darker than the printed lines (as dark as they are in this photo, where
    # the tiles put them): capped, it cannot outweigh them
    lines = (template > 0.3) & (keep > 0)
    if lines.any():
        here = patch[reach:reach + template.shape[0], reach:reach + template.shape[1]]
        patch = np.minimum(patch, max(1.5 * float(np.percentile(here[lines], 75)), 0.05))
    scores = cv2.matchTemplate(patch, template, cv2.TM_CCORR_NORMED, mask=keep)
    scores = np.nan_to_num(scores, nan=-1.0, posinf=-1.0, neginf=-1.0)
    _, _, _, (bx, by) = cv2.minMaxLoc(scores)
    return shift[0] + bx - reach, shift[1] + by - reach


def print_shown(outline_dark: float, spread: Floats, outline_px: Any) -> float | None:
    """How dark a mark's printed outline reads (`outline_dark`, as `measure` reads it) against the printed sheet
    smoothed as the photo was (`spread`, each pixel the darkest within a pixel, in the mark's window): the share of
    the print's darkness the photo shows there; None where nothing is printed."""
    if not outline_px.any():
        return None
    shown = float(spread[outline_px].mean())
    return min(1.0, outline_dark / shown) if shown > 0 else None


def usual_print_shown(marks: Sequence[Mark], light_: Light, ref: Grey, places: Sequence[tuple[float, float]]
                      ) -> float:
    """The share of the print's darkness this photo shows over the sheet (`print_shown`), the median of its marks'
    (most are empty, and ink over an outline makes it read darker than print): 0 when none can say."""
    import cv2
    import numpy as np

    shares = []
    for mark, (dx, dy) in zip(marks, places, strict=True):
        rx, ry, w, h = _window(mark)
        x0, y0 = round(rx + dx), round(ry + dy)
        if x0 < 0 or y0 < 0 or x0 + w > light_.dark.shape[1] or y0 + h > light_.dark.shape[0] or \
                rx + w > ref.shape[1] or ry + h > ref.shape[0]:
            continue
        outline_px = ref[ry:ry + h, rx:rx + w] < 160
        if not outline_px.any():
            continue
        near = cv2.dilate(light_.dark[y0:y0 + h, x0:x0 + w], np.ones((3, 3), np.uint8))
        spread = cv2.dilate(light_.spread[ry:ry + h, rx:rx + w], np.ones((3, 3), np.uint8))
        share = print_shown(float(near[outline_px].mean()), spread, outline_px)
        if share is not None:
            shares.append(share)
    return float(np.median(shares)) if shares else 0.0


#: The least light the print's spread is taken to let through when the ink over it is restored to its own
#: darkness (`measure`): half, its darkness by two at most.
SPILT_PASS = 0.5


#: A circle drawn around a bubble: (centre x, centre y, inner and outer radius), in pixels of the straightened sheet.
Circle = tuple[float, float, float, float]


@lru_cache(maxsize=32)
def _refine_mask(shape: str, w: int, h: int, margin: int) -> Any:
    """What of a mark's surroundings its place is refined on: not its inside (ink there must not pull the match),
    nor, around a bubble, where a circle drawn around it goes (it has the outline's shape)."""
    import cv2
    import numpy as np

    keep = np.ones((h + 2 * margin, w + 2 * margin), dtype=np.float32)
    keep[margin:margin + h, margin:margin + w] -= cv2.dilate(inside_of(shape, w, h), np.ones((3, 3), np.uint8))
    if shape != "figure":
        ys, xs = np.mgrid[0:keep.shape[0], 0:keep.shape[1]]
        d = np.hypot(xs - (margin + (w - 1) / 2), ys - (margin + (h - 1) / 2)) / (max(w, h) / 2)
        keep[(d >= RING[0]) & (d <= CIRCLE_BAND[1])] = 0
    return np.clip(keep, 0, 1)


def measure(mark: Mark, light_: Light, ref: Grey, printed_dark: Floats, shift: tuple[float, float],
            circles: Sequence[Circle] = ()) -> Measure:
    """Measure one mark at `shift` (pixels) from where the markers place it; ink on `circles` (drawn around
    neighbouring bubbles) is theirs, not this mark's."""
    import cv2
    import numpy as np

    dark = light_.dark
    height, width = dark.shape
    rx, ry, w, h = _window(mark)
    x0, y0 = round(rx + shift[0]), round(ry + shift[1])
    reach = round(max(w, h) / 2 * (RING[1] - 1)) + 2
    if x0 - reach < 0 or y0 - reach < 0 or x0 + w + reach > width or y0 + h + reach > height or \
            rx + w > ref.shape[1] or ry + h > ref.shape[0]:
        return NOWHERE
    inside = inside_of(mark.shape, w, h)
    region = dark[y0:y0 + h, x0:x0 + w]
    printed_here = ref[ry:ry + h, rx:rx + w] < 200
    outline_px = printed_here & (ref[ry:ry + h, rx:rx + w] < 160)
    # the printed outline's darkness, each of its pixels the darkest within a pixel (a line 0.2 mm wide, placed a
    # pixel off, would read half as dark)
    near = cv2.dilate(region, np.ones((3, 3), np.uint8))
    outline_dark = float(near[outline_px].mean()) if outline_px.any() else 0.0
    # the ink a player added: darker than the printed sheet is there, the sheet as this photo shows it too: its
    # lines spread by the photo's smoothing, as dark as its own outline reads against the same lines spread (a dark,
    # grainy photo, smoothed over 0.8 mm, spreads a figure's drawing 3 px past the reference: an empty figure read
    # half inked, seed 14 low-light photo 5)
    printed = printed_dark[ry:ry + h, rx:rx + w]
    print_seen = 0.0
    if light_.shown > 0:
        lines = light_.spread[ry:ry + h, rx:rx + w]
        # the sheet's usual share, or this mark's own where less (glare washes its lines out); never more: ink over
        # its outline makes it read darker than print. The share is taken as the outline is read (the darkest
        # within a pixel), the spread itself where it is (its tail is what is taken away, not its peak)
        own = print_shown(outline_dark, cv2.dilate(lines, np.ones((3, 3), np.uint8)), outline_px)
        print_seen = own / light_.shown if own is not None else 0.0
        spilt = lines * min(light_.shown, own if own is not None else light_.shown)
        # ink over the print's spread: the light left is what each lets through (its darkness 1 - (1 - a)(1 - b)),
        # so the ink's own darkness is what the print alone leaves unexplained, divided by what the print lets
        # through (capped at SPILT_PASS: nearer a printed line, the grain would be magnified too)
        added = np.clip((region - np.maximum(printed, spilt)) / np.maximum(1.0 - spilt, SPILT_PASS), 0.0, 1.0)
    else:
        added = np.clip(region - printed, 0.0, 1.0)
    if circles:
        added = added * ~_on_circles(circles, x0, y0, w, h)
    read = inside * (cv2.dilate(printed_here.astype(np.uint8), np.ones((3, 3), np.uint8)) == 0)
    area = float(read.sum())
    if area < 4:
        return NOWHERE
    readable = read > 0
    threshold = ink_threshold(light_)
    inked = _strokes(added > threshold) & readable
    cover = float(inked.sum()) / area
    mean = float((np.clip(added - threshold / 2, 0, 1) * read).sum()) / area
    ys, xs = np.nonzero(inked)
    size = max(w, h)
    spread = float(max(np.ptp(xs), np.ptp(ys)) + 1) / size if len(xs) > 1 else 0.0
    level = float(np.median(added[inked])) if len(xs) else 0.0
    wide = 0.0
    if len(xs):
        # the ink's shape at half its peak: a line stays a line, however blurred; a blob or a smear stays wide
        peak = float(np.percentile(added[inked], 90))
        core = _strokes((added >= peak / 2) & readable)
        inner = cv2.distanceTransform(np.pad(core.astype(np.uint8), 1), cv2.DIST_L2, 3)
        wide = 2 * float(inner.max()) / PX_MM
    glare = float(light_.glare[y0:y0 + h, x0:x0 + w].mean())
    edge = round(GLARE_EDGE_MM * PX_MM)
    glare_near = bool(light_.glare[max(0, y0 - edge):y0 + h + edge, max(0, x0 - edge):x0 + w + edge].any())
    edge_share, edge_angle = 0.0, 0.0
    if len(xs) > 2:
        mx, my = float(xs.mean()) - (w - 1) / 2, float(ys.mean()) - (h - 1) / 2
        edge_share = math.hypot(mx, my) / (size / 2)
        edge_angle = math.atan2(my, mx)
    middle = float(inked[_middle(w, h)].mean()) if len(xs) else 0.0
    core_share = float(core.sum()) / area if len(xs) else 0.0
    ring, even, around, beyond = 0.0, 1.0, 0.0, 0.0
    if mark.shape != "figure":
        ring = _ring(dark, printed_dark, (x0 - rx, y0 - ry), x0 + (w - 1) / 2, y0 + (h - 1) / 2, size / 2,
                     threshold, circles)
        around = _around_paper(dark, printed_dark, (x0 - rx, y0 - ry), x0 + (w - 1) / 2, y0 + (h - 1) / 2, size / 2)
        if around >= INK_FLOOR:
            beyond = _around_paper(dark, printed_dark, (x0 - rx, y0 - ry), x0 + (w - 1) / 2, y0 + (h - 1) / 2,
                                   size / 2, BEYOND_BAND)
        if len(xs):
            low, high = np.percentile(added[readable], (20, 80))
            even = float(low / high) if high > 0 else 1.0
    return Measure(cover, mean, spread, ring, outline_dark, glare, 0.0, edge_share, edge_angle, level, wide, middle,
                   x0, y0, float(light_.lift[y0:y0 + h, x0:x0 + w].mean()), core_share, print_seen, even,
                   glare_near, around, beyond)


#: The paper just outside a bubble's outline: the band from RING's inner edge to this share of its radius (3 pixels
#: for a bubble 26 pixels wide), its median darkness where nothing is printed. A shadow lies over it as over the
#: inside; a fill stops at the outline, and a stroke beside it crosses a part of the band only.
AROUND_BAND = 1.35
#: A bubble inked inside no darker than this many times the paper just outside its outline is darkened with its
#: surroundings, by a shadow, not by a fill: it is not read (issue 27; seed 61, finger-over-marks photo 4, an HB
#: sheet: an empty bubble in the finger's shadow read inked 0.137 all over and filled, the paper just outside it
#: 0.117). Ink stands out of the paper beside it, a shadow over it or not. Alike both ways: the paper just outside
#: no darker than this many times the inside either, for the player's own ink around the outline darkens it far more
#: than the inside (a felt-tip circle drawn around a bubble and dipping into it at one side: 0.82 just outside, 0.03
#: inside, seed 33 circled photo 2, tests/scan/test_seed33_silent.py): that circle is read by its ring, not a shadow.
SHADOW_ALIKE = 1.5
#: ... and only a light one: a shadow that leaves a bubble's outline readable darkens its paper far less than this
#: (the benchmark's finger shadow, 35 % of the light: 0.08 to 0.14 inside), where a felt-tip scribble spilling all
#: around the outline reads 0.57 to 0.76 just outside and 0.76 to 0.89 inside (seed 60 scribbles photos 7, 8, 15,
#: 19; an HB one 0.31 and 0.44, photo 9): those are fills.
SHADOW_DARKEST = 0.3
#: ... and one that stops short of the paper further out (this band, shares of the bubble's radius, clean in each of
#: BEYOND_SECTORS sectors around it) is the player's own, spilt past the outline: a light fill, asked about as faint,
#: not as covered (its advice is to look at the sheet, where "covered" tells the player to move a hand away). The band
#: starts past where a fill spilt evenly all around reaches (half a radius past the outline, about 1.1 mm) and reaches
#: a little way into the nearest neighbours (their outlines 1.65 radii from its centre; their printed lines are left
#: out, and a sector over a filled neighbour reads its ink: the bubble then stays asked about as covered). A shadow is
#: not read there unless it is about as small as the bubble and its surroundings (a wider one darkens the paper the
#: reader measures the bubble against and is read through, tests/scan/test_shadow_bubble.py), so a shadow that
#: reaches this rule darkens the band too, on a side at least (a finger's edge crossing beside the bubble).
BEYOND_BAND = (1.6, 2.0)
BEYOND_SECTORS = 8
SPILT_LIGHT = "it is inked lightly all over and past its outline all around: filled lightly, or a shadow?"


def _around_paper(dark: Floats, printed_dark: Floats, offset: tuple[int, int], cx: float, cy: float,
                  r: float, band_: tuple[float, float] | None = None) -> float:
    """How dark the paper just outside a bubble's outline reads (from RING's inner edge to AROUND_BAND of its
    radius, or the shares `band_` of it; its printed pixels left out)."""
    import numpy as np

    inner, outer = (r * RING[0], r * AROUND_BAND) if band_ is None else (r * band_[0], r * band_[1])
    window = _around_window(dark, printed_dark, offset, cx, cy, outer)
    if window is None:
        return 0.0
    patch, printed_, x0, y0 = window
    size = patch.shape[0]
    ys, xs = np.mgrid[0:size, 0:size]
    d = np.hypot(xs - (cx - x0), ys - (cy - y0))
    band = (d >= inner) & (d <= outer) & (printed_ < INK_FLOOR)
    if band_ is None or not band.any():
        return float(np.median(patch[band])) if band.any() else 0.0
    # further out, the darkest of BEYOND_SECTORS sectors: a shadow's edge crossing beside the bubble darkens a side
    sector = ((np.arctan2(ys - (cy - y0), xs - (cx - x0)) + math.pi) / (2 * math.pi) * BEYOND_SECTORS).astype(int)
    sector %= BEYOND_SECTORS  # the angle of exactly pi falls in the first sector, not one past the last
    parts = [band & (sector == k) for k in range(BEYOND_SECTORS)]
    return max((float(np.median(patch[part])) for part in parts if part.any()), default=0.0)


def _around_window(dark: Floats, printed_dark: Floats, offset: tuple[int, int], cx: float, cy: float,
                   outer: float) -> tuple[Floats, Floats, int, int] | None:
    """The square of the photo's darkness reaching `outer` pixels around (`cx`, `cy`), the print's darkness over
    the same square (`offset`: where the print's window lies in the photo's), and the square's top-left corner;
    None where the square runs off either."""
    x0, y0 = int(cx - outer) - 1, int(cy - outer) - 1
    size = int(2 * outer) + 4
    patch = dark[y0:y0 + size, x0:x0 + size]
    printed_ = printed_dark[y0 - offset[1]:y0 - offset[1] + size, x0 - offset[0]:x0 - offset[0] + size]
    if printed_.shape != patch.shape or patch.shape != (size, size):
        return None
    return patch, printed_, x0, y0


@lru_cache(maxsize=32)
def _middle(w: int, h: int) -> Any:
    """The middle of a mark's window: a disc of a quarter of its radius."""
    import numpy as np

    ys, xs = np.mgrid[0:h, 0:w]
    return np.hypot(xs - (w - 1) / 2, ys - (h - 1) / 2) <= max(1.5, max(w, h) / 8)


def ink_threshold(light_: Light) -> float:
    """The darkness from which a pixel is ink: above the paper's noise, and never below INK_FLOOR."""
    return max(INK_FLOOR, NOISE_TIMES * light_.noise)


def _on_circles(circles: Sequence[Circle], x0: int, y0: int, w: int, h: int) -> Any:
    """Which pixels of a window lie on one of `circles`."""
    import numpy as np

    ys, xs = np.mgrid[y0:y0 + h, x0:x0 + w]
    on = np.zeros((h, w), dtype=bool)
    for cx, cy, inner, outer in circles:
        d = np.hypot(xs - cx, ys - cy)
        on |= (d >= inner) & (d <= outer)
    return on


def _ring(dark: Floats, printed_dark: Floats, offset: tuple[int, int], cx: float, cy: float, r: float,
          threshold: float, circles: Sequence[Circle] = ()) -> float:
    """The share of the ring's sectors around a bubble that hold ink the sheet does not print."""
    import numpy as np

    window = _around_window(dark, printed_dark, offset, cx, cy, r * RING[1])
    if window is None:
        return 0.0
    patch, printed_, x0, y0 = window
    size = patch.shape[0]
    sectors = _sectors(size, cx - x0, cy - y0, r)
    inked = _strokes((patch - printed_) > threshold)
    if circles:
        inked &= ~_on_circles(circles, x0, y0, size, size)
    counted = hit = 0
    for here in sectors:
        counted += 1
        # a stroke crossing the ring fills a good share of the sector's width
        if np.count_nonzero(inked & here) >= max(2, SECTOR_INKED * np.count_nonzero(here)):
            hit += 1
    return hit / counted if counted else 0.0


def _sectors(size: int, cx: float, cy: float, r: float) -> list[Any]:
    return _sector_masks(size, round(cx * 4) / 4, round(cy * 4) / 4, round(r * 4) / 4)


@lru_cache(maxsize=64)
def _sector_masks(size: int, cx: float, cy: float, r: float) -> list[Any]:
    """The SECTORS masks of the ring around a bubble of radius `r` at (cx, cy) in a square patch."""
    import numpy as np

    ys, xs = np.mgrid[0:size, 0:size]
    dx, dy = xs - cx, ys - cy
    radius = np.hypot(dx, dy)
    band = (radius >= r * RING[0]) & (radius <= r * RING[1])
    sector = ((np.arctan2(dy, dx) + math.pi) / (2 * math.pi) * SECTORS).astype(int) % SECTORS
    return [band & (sector == s) for s in range(SECTORS)]


def _strokes(mask: Any) -> Any:
    """The strokes of a mask of inked pixels: what is at least two pixels wide (0.35 mm: any pencil line), not
    grain."""
    import cv2
    import numpy as np

    return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)) > 0


# --- deciding -------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Usual:
    """What is usual on this sheet: its printed outlines' darkness, its broad marks' ink (fills, figures coloured
    in) and its thin ones' (ticks, crosses); 0 when the sheet has too few such marks to say."""

    outline: dict[str, float]
    ink: float
    thin: float = 0.0
    #: the outlines of the marks with nothing in them, seen (each shape its own; the covered ones left out)
    bare: dict[str, float] = field(default_factory=dict)
    #: the darkness of the sheet's lines (its ticks and crosses, however spread) where its even marks show no fill
    #: darker than them (`UNDER_LINES`): those are what was rubbed out, or filled lightly; 0 where they do
    lines: float = 0.0


def usual(marks: Sequence[Mark], measures: Sequence[Measure]) -> Usual:
    import numpy as np

    seen = [(mark, m) for mark, m in zip(marks, measures, strict=True) if m is not NOWHERE and m.glare < 0.1]
    outlines: dict[str, list[float]] = {}
    for mark, m in seen:
        # every figure tells its outline, coloured in or not: learned from the empty ones alone, a finger over the
        # last few of a long row of residents set the usual to its own shade. A coloured figure's outline reads
        # about 1.6x an empty one's, which only raises the usual: more figures asked about as covered, none missed
        # (clean photos: empty figures at 0.64-0.67 of the usual, above OUTLINE_SEEN)
        # A mark whose printed outline the photo does not show against its print (under a finger) says nothing of
        # the usual: on a sheet of one's own most of one shape's marks may lie under one finger (Lantern Harbour's
        # 20 fish digits of its 28 circles), and their shade, as the usual, read them seen and empty: a fish of 4
        # was read 0 without a question (own-sheet finger-over-marks photos, seed 54).
        if (m.cover < COVER_EMPTY or mark.shape == "figure") and not 0 < m.print_seen < OUTLINE_SEEN:
            outlines.setdefault(mark.shape, []).append(m.outline)
    # ... and the outlines of the marks with nothing inked in them, what an empty mark under glare is compared with
    # (a figure coloured in reads about 1.6x an empty one's: against the usual above, an empty figure in plain
    # light reads 0.64-0.67, below GLARE_WASHED, set when only the empty ones told the usual; seed 32, fold photo
    # 8: the empty figures on a fold's lit face were all asked about). Those not seen (under a finger) say nothing.
    bare: dict[str, list[float]] = {}
    for mark, m in seen:
        known = outlines.get(mark.shape, [])
        if m.cover < COVER_EMPTY and len(known) >= 3 and m.outline >= OUTLINE_SEEN * float(np.median(known)):
            bare.setdefault(mark.shape, []).append(m.outline)
    # a fill is inked evenly; a line, however a grainy photo spreads it over the bubble, is not (a dark room's ticks
    # and crosses read inked over 80 % of their inside, and dragged the fills' usual down to a line's darkness)
    inks = [m.level for _, m in seen if m.cover >= BROAD and m.even >= EVEN]
    # the sheet's ticks and crosses: a figure is coloured in, never ticked (a figure rubbed out, or coloured in a
    # little, is no line of the player's: two residents rubbed out and the Merchant's tick rubbed out badly made
    # the lines of seed 41's erased-ghosts photo 12 read 0.25 where its ticks read 0.33-0.56, and that tick 0.70
    # of them, decided)
    thin = [m.level for mark, m in seen if mark.shape != "figure" and COVER_FILLED <= m.cover < BROAD and
            m.spread >= SPREAD and m.wide < WIDE_MM]
    lines = thin + [m.level for _, m in seen if m.cover >= BROAD and m.even < EVEN and m.spread >= SPREAD]
    # a pen's fill reads at least as dark as its line: where the sheet's even marks read fainter than its lines, or
    # it has too few to say, they are not what the player's fills read (a player who ticks and crosses)
    ink = float(np.median(inks)) if len(inks) >= 3 else 0.0
    line = float(np.median(lines)) if len(lines) >= 3 else 0.0
    traced = line if line and ink < UNDER_LINES * line else 0.0
    # the sheet's outlines (each shape its own), and its pencil: known from three marks or more
    return Usual({shape: float(np.median(v)) for shape, v in outlines.items() if len(v) >= 3},
                 ink, float(np.median(thin)) if len(thin) >= 3 else 0.0,
                 {shape: float(np.median(v)) for shape, v in bare.items() if len(v) >= 3}, traced)


def _margin(value: float, low: float, high: float) -> float:
    """How far `value` is past the nearer of two bounds, as a share of the band between them (capped at 1)."""
    band = max(high - low, 1e-6)
    return min(1.0, 0.5 + max(value - high, low - value) / band)


GLARE_WASHES = "glare washes it out"


def _glared(m: Measure) -> bool:
    """Whether glare falls on the mark: in glare's mask, or at its edge with the paper lifted (GLARE_EDGE_LIFT)."""
    return m.glare >= 0.25 or (m.glare_near and m.lift >= GLARE_EDGE_LIFT)


def decide(mark: Mark, m: Measure, sheet: Usual) -> MarkRead:
    """Filled, empty or undecided, with a margin: the mark's ink against bands that hold for every way players
    mark (filled, ticked, crossed, circled around), and never read where its printed outline cannot be seen."""
    x, y = (m.x / SCALE, m.y / SCALE) if m is not NOWHERE else (mark.x, mark.y)
    if m is NOWHERE or m.outside:
        return MarkRead(None, 0.0, 0.0, "it is not in the photo", "outside", x, y)
    # a shape whose outlines the photo shows nowhere (usual darkness 0: most of its marks unseen) tells nothing of
    # where a mark is: each of its marks is taken as not seen (it was a division by zero, the read a traceback)
    usual_outline = sheet.outline.get(mark.shape)
    outline = 1.0 if usual_outline is None else m.outline / usual_outline if usual_outline > 0 else 0.0
    # under glare, a mark with nothing in it is compared with the sheet's marks with nothing in them (like with like)
    bare = sheet.bare.get(mark.shape, 0.0) if m.cover < COVER_EMPTY else 0.0
    washed = m.outline / bare if bare > 0 else outline
    if _glared(m) and washed < GLARE_WASHED:
        # glare takes ink away, never adds it: a mark still clearly filled under it is filled (ink over a third of
        # it, across its middle, as dark as FAINT of the sheet's usual fill at least); any other is not read: an empty
        # look proves nothing, graphite shines more than print and paper, so a pencil fill fades first
        clear = m.cover >= BROAD or (m.cover >= GLARE_SEEN and m.spread >= SPREAD and m.edge_share < OFF_CENTRE)
        if clear and sheet.ink and m.level >= FAINT * sheet.ink:
            return MarkRead(True, m.cover, 0.5, x=x, y=y)
        return MarkRead(None, m.cover, 0.0, GLARE_WASHES, "glare", x, y)
    if mark.shape == "figure" and m.cover <= FIGURE_EMPTY and m.print_seen:
        # a figure that looks empty: its outline against how dark this photo shows its own printed drawing, not
        # against the sheet's figures, most of them coloured in at times (their outlines read darker by the ink over
        # them, the more so as the photo is soft or grainy: empty figures of a blurred photo read 0.39 of them and
        # were asked about as covered, seed 14 blur photo 5); read only when nearly all its drawing is seen
        if m.print_seen < FIGURE_SEEN:
            return MarkRead(None, m.cover, 0.0, COVERED, "covered", x, y)
    elif outline < OUTLINE_SEEN and m.cover < 0.5:
        return MarkRead(None, m.cover, 0.0, COVERED, "covered", x, y)
    elif mark.shape != "figure" and m.cover <= COVER_EMPTY and outline < EMPTY_SEEN:
        # issue 27 point 4: an empty look over half a mark proves nothing of the half covered
        return MarkRead(None, m.cover, 0.0, COVERED, "covered", x, y)
    if mark.shape != "figure" and m.cover > COVER_EMPTY and m.around >= INK_FLOOR and \
            m.level <= min(SHADOW_ALIKE * m.around, SHADOW_DARKEST) and m.around <= SHADOW_ALIKE * m.level:
        # its paper is darkened as the paper around it is: a shadow over it, what it hides not known; or, where the
        # paper further out is clean, a light fill spilt past its outline
        if m.beyond < INK_FLOOR:
            return MarkRead(None, m.cover, 0.0, SPILT_LIGHT, "faint", x, y)
        return MarkRead(None, m.cover, 0.0, COVERED, "covered", x, y)
    if mark.shape == "figure":
        if m.cover >= FIGURE_FILLED and m.core >= FIGURE_CORE:
            return MarkRead(True, m.cover, _margin(m.cover, FIGURE_EMPTY, FIGURE_FILLED), x=x, y=y)
        if m.cover <= FIGURE_EMPTY:
            return MarkRead(False, m.cover, _margin(m.cover, FIGURE_EMPTY, FIGURE_FILLED), x=x, y=y)
        return MarkRead(None, m.cover, 0.0, f"the figure is {m.cover:.0%} coloured in: coloured in or not?",
                        "half-coloured", x, y)
    if m.cover >= COVER_FILLED and (m.spread >= SPREAD or m.cover >= 0.35) and (m.edge_share < OFF_CENTRE or
                                                                             m.cover >= 0.35):
        sure = min(_margin(m.cover, COVER_EMPTY, COVER_FILLED), _margin(max(m.spread, 0.9 if m.cover >= 0.35 else 0),
                                                                         0.25, SPREAD))
        return MarkRead(True, m.cover, sure, x=x, y=y)
    if m.ring >= CIRCLED and m.cover < COVER_FILLED:
        return MarkRead(True, m.cover, _margin(m.ring, RING_BEGUN, CIRCLED), x=x, y=y)
    if m.cover <= COVER_EMPTY and m.ring < RING_BEGUN:
        return MarkRead(False, m.cover, min(_margin(m.cover, COVER_EMPTY, COVER_FILLED),
                                            _margin(m.ring, RING_BEGUN, 0.5)), x=x, y=y)
    if m.cover > COVER_EMPTY and m.edge_share >= OFF_CENTRE:
        if m.cover < EDGE_ONLY and m.ring < RING_BEGUN:
            # a little ink at one edge of the inside only, nothing around: the edge of a stroke beside it, or of
            # the outline itself in a soft photo; a mark is drawn through the middle
            return MarkRead(False, m.cover, 0.5, x=x, y=y)
        return MarkRead(None, m.cover, 0.0, "a stroke runs into it from one side", "spill", x, y)
    if m.ring >= RING_BEGUN and m.cover <= COVER_EMPTY:
        return MarkRead(None, m.cover, 0.0, "a stroke around it, not closed", "faint", x, y)
    return MarkRead(None, m.cover, 0.0, f"a faint or small mark: {m.cover:.0%} of it is inked, between empty "
                                        f"({COVER_EMPTY:.0%}) and filled ({COVER_FILLED:.0%})", "faint", x, y)


def _broad(m: Measure, blur_mm: float) -> bool:
    """Whether a mark's ink is broad (a fill, a smear) rather than a line (a tick, a cross): inked over most of its
    inside, or wider than a line. In a soft photo a line's ink spreads over the bubble and past WIDE_MM: what still
    shows it is a line is its dark core with paler flanks (a fill, or a trace rubbed out, is even)."""
    broad = (m.cover >= BROAD or m.wide >= WIDE_MM) and m.even >= EVEN
    return broad and not (blur_mm >= SOFT_PHOTO_MM and m.core < SMEARED * m.cover)


def settle(marks: Sequence[Mark], measures: Sequence[Measure], reads: list[MarkRead], sheet: Usual,
           types: Any, blur_mm: float = 0.0) -> list[MarkRead]:
    """Decisions that need the marks around: a stroke come from a filled neighbour is not a mark of this one, and
    of two values of one field the fainter is a rubbed-out ghost when it is faint enough (asked about when it is
    close)."""
    import numpy as np

    out = list(reads)
    centres = np.array([(m.x + m.width / 2, m.y + m.height / 2) for m in marks]) if marks else np.zeros((0, 2))
    for i, (mark, m, read) in enumerate(zip(marks, measures, reads, strict=True)):
        if read.state is False or mark.shape == "figure" or read.code in ("glare", "covered", "outside"):
            continue
        if m.edge_share < OFF_CENTRE or m.cover >= 0.4 or m.spread >= 0.8 or m.ring >= CIRCLED:
            # (a circle drawn around this bubble dips inside it at one side: a neighbour's stroke never closes a
            # ring around it; seed 33, circled photo 2: tower 1's 5, circled, read empty as the Built bubble's)
            continue
        # the neighbour the ink points to, and filled: this is its stroke
        toward = np.array([math.cos(m.edge_angle), math.sin(m.edge_angle)])
        offsets = centres - centres[i]
        dist = np.hypot(offsets[:, 0], offsets[:, 1])
        near = [j for j in range(len(marks)) if j != i and 0 < dist[j] < 2.6 * mark.width and
                (offsets[j] @ toward) / dist[j] > 0.7 and reads[j].state is True and measures[j].cover > m.cover]
        if near:
            if m.cover < 0.12 or m.middle == 0:
                # the neighbour's stroke, stopped short of this bubble's middle: not a mark of this one
                out[i] = MarkRead(False, m.cover, 0.5, x=read.x, y=read.y)
            else:
                out[i] = MarkRead(None, m.cover, 0.0, f"a stroke from {_name(marks[near[0]])} runs into it", "spill",
                                  read.x, read.y)
    # ghosts: a mark much fainter than the sheet's other marks of its kind (broad: fills, figures coloured in;
    # thin: ticks, crosses) was rubbed out; one a little fainter is asked about. Without three marks of its kind on
    # the sheet, a mark is compared with the darkest of the values its field (or digit) takes once.
    darkest: dict[tuple[str, str | None], float] = {}
    # ... and what the darkest value's pen leaves as a fill: a line reads THIN_SHARE of a fill of the same pencil,
    # so a broad trace beside a tick is compared with what that tick's pen would leave as a fill, not with the
    # tick's own blurred line (seed 31, erased-ghosts photo 10: a fill rubbed out badly read 0.69 of the tower's
    # tick beside it and was decided a second value; as the tick's fill, 0.38)
    as_fill: dict[tuple[str, str | None], float] = {}
    for i, mark in enumerate(marks):
        if _exclusive(mark, types) and out[i].state is not False:
            key, m = (mark.field, mark.digit), measures[i]
            darkest[key] = max(darkest.get(key, 0.0), m.level)
            thin = not _broad(m, blur_mm)
            as_fill[key] = max(as_fill.get(key, 0.0), m.level / THIN_SHARE if thin else m.level)
    for i, (mark, m) in enumerate(zip(marks, measures, strict=True)):
        if out[i].state is False or out[i].code in ("glare", "covered", "outside") or m.cover < COVER_FILLED or \
                m.ring >= CIRCLED:
            continue  # (a circle around a bubble is read by its ring, not by ink inside, however little dips in)
        broad = _broad(m, blur_mm)
        # on a sheet whose even marks read fainter than its lines: an even mark is asked about up to LONE of them.
        # A figure too where three such marks or more show what this player rubbed out: compared with them, a figure
        # rubbed out badly read 0.57-1.17 of them and was counted a resident (seeds 14 and 31 of the dark-room probe
        # of sheets of lines: rubbed out 0.30-1.02 of the lines, coloured in 1.27 or more). Not where the sheet has
        # no even mark at all: light 2H colouring in of a sharp photo reads 0.97-2.6 of its lines (light-ticks)
        lone = LONE * sheet.lines if (sheet.ink if mark.shape == "figure" else broad) else 0.0
        like = (sheet.ink or sheet.lines) if broad else sheet.thin or sheet.ink * THIN_SHARE
        # a line rubbed out is smeared wider than a drawn one, so the camera's blur takes less of its darkness: the
        # sheet's drawn ticks, blurred more, can read fainter than what is left of one rubbed out badly (seed 31,
        # erased-ghosts photo 1: a quarter of a tick's graphite on the paper read 0.43 of the drawn ticks, 0.18 of
        # the fills). A thin mark is asked about, too, below FAINT of what a line of the sheet's fill reads.
        faint = like if broad else max(like, sheet.ink * THIN_SHARE)
        if mark.shape == "figure":
            # a figure is coloured in, a fill whatever shape its ink takes: one rubbed out badly, its trace patchy
            # (0.72 inked, no wider than a line), read 0.66 of the sheet's ticks and counted a resident (seed 31,
            # erased-ghosts photo 7); against the fills it read 0.28
            faint = max(faint, sheet.ink)
        beside = darkest.get((mark.field, mark.digit), 0.0) if _exclusive(mark, types) else 0.0
        if not like and not beside:
            continue
        # (only questions are added by what follows the GHOST line: nothing new is decided)
        close = max(beside, as_fill.get((mark.field, mark.digit), 0.0)) if broad and beside else beside
        soft = not broad and mark.shape != "figure" and m.core >= SOFT * m.cover
        ask = max((FILL_FAINT if broad and mark.shape != "figure" else FAINT) * faint,
                  GHOST_CLOSE * faint if soft and sheet.ink else 0.0,
                  FIGURE_FAINT * sheet.ink if mark.shape == "figure" else 0.0, lone)
        faint_here = m.level <= GHOST * (like or beside) or m.level <= ask or m.level <= GHOST_CLOSE * close
        if faint_here and mark.shape in sheet.outline and m.outline < OUTLINE_SEEN * sheet.outline[mark.shape]:
            # a ghost is faint against marks seen as the sheet's are; where the print itself is not seen (under a
            # finger, a deep shadow), a real mark is as faint: seed 32, finger-over-marks photo 17, a tick under a
            # fingertip (its outline 0.18 of the usual, over half of it dark) read 0.15 of the ticks
            out[i] = MarkRead(None, out[i].fill, 0.0, COVERED, "covered", out[i].x, out[i].y)
        elif m.level <= GHOST * (like or beside):
            out[i] = MarkRead(False, out[i].fill, 0.5, x=out[i].x, y=out[i].y)
        elif faint_here:
            out[i] = MarkRead(None, out[i].fill, 0.0, "much fainter than the sheet's other marks: rubbed out, or "
                                                      "filled lightly?", "ghost", out[i].x, out[i].y)
    return out


#: A mark's own refinement stands when it is within this (pixels) of what its neighbours' say for its place (they
#: move together); else theirs is taken (a stroke beside the mark pulled its own).
AGREE_PX = 2.0
NEIGHBOURS_MM = 14.0


def _agreed(marks: Sequence[Mark], shifts: Floats, refined: Sequence[tuple[float, float] | None]) -> list[
        tuple[float, float]]:
    """Each mark's place: its own refinement when its neighbours' agree with it, theirs (the median of what they
    added to the tiles' field) when not."""
    import numpy as np

    centres = np.array([(m.x + m.width / 2, m.y + m.height / 2) for m in marks]) * SCALE
    extra = np.array([(r[0] - s[0], r[1] - s[1]) if r is not None else (np.nan, np.nan)
                      for r, s in zip(refined, shifts, strict=True)], dtype=np.float64).reshape(-1, 2)
    reach = NEIGHBOURS_MM * PX_MM
    out: list[tuple[float, float]] = []
    for i, (cx, cy) in enumerate(centres):
        near = (np.hypot(centres[:, 0] - cx, centres[:, 1] - cy) <= reach) & ~np.isnan(extra[:, 0])
        near[i] = False
        base = (float(shifts[i][0]), float(shifts[i][1]))
        if near.sum() >= 3:
            # what the neighbours added, carried to this mark by a plane through those that agree with the rest
            # (a curl grows to the edge; a neighbour pulled by a stroke beside it does not count)
            median = np.median(extra[near], axis=0)
            agree = near & (np.hypot(extra[:, 0] - median[0], extra[:, 1] - median[1]) <= 2 * AGREE_PX)
            expected_here = median
            if agree.sum() >= 3:
                a = np.column_stack([np.ones(agree.sum()), centres[agree] - (cx, cy)])
                fit, *_ = np.linalg.lstsq(a, extra[agree], rcond=None)
                if np.all(np.abs(fit[0] - median) <= 2 * AGREE_PX):
                    expected_here = fit[0]
            own = extra[i]
            if np.isnan(own[0]) or np.hypot(*(own - expected_here)) > AGREE_PX:
                out.append((base[0] + float(expected_here[0]), base[1] + float(expected_here[1])))
            else:
                out.append((base[0] + float(own[0]), base[1] + float(own[1])))
        elif near.any() and refined[i] is not None:
            # one or two neighbours: their mean, unless the mark's own agrees with it
            mean = np.mean(extra[near], axis=0)
            own = extra[i] if np.hypot(*(extra[i] - mean)) <= 2 * AGREE_PX else mean
            out.append((base[0] + float(own[0]), base[1] + float(own[1])))
        elif refined[i] is not None and np.hypot(*extra[i]) <= AGREE_PX * 2.5:
            found = refined[i]
            assert found is not None
            out.append(found)
        else:
            # alone, and moved further than the tiles around it allow: the tiles' place
            out.append(base)
    return out


#: A bubble its neighbours moved off its own refinement (_agreed) keeps its own place when that is at most this far
#: (pixels, half a millimetre) from theirs, its printed outline reads OWN_SHARPER times darker there, and its ink is
#: the same there (within OWN_SAME_INK of its inside), or none there and only an edge's at theirs: a fold bends the
#: sheet between neighbours, so the plane through theirs can miss a bubble by a pixel or two and read its outline
#: half off (seed 32, fold photos); a stroke beside a bubble, which is why _agreed overrules, pulls its own place
#: towards more ink, never only onto a sharper outline.
OWN_REACH = 3.0
OWN_SHARPER = 1.15
OWN_SAME_INK = 0.05


def _in_photo(mark: Mark, shift: tuple[float, float], valid: Any) -> bool:
    """Whether the whole of the mark's window, at `shift`, is in the photo."""
    rx, ry, w, h = _window(mark)
    x0, y0 = round(rx + shift[0]), round(ry + shift[1])
    inside = valid[max(0, y0):y0 + h, max(0, x0):x0 + w]
    return bool(inside.size >= w * h and inside.all())


def _seen_better(own: Measure, agreed: Measure) -> bool:
    """Whether a bubble measured at its own place (`own`) shows its printed outline better than at the place its
    neighbours agree on, with the same ink (or none at either)."""
    if own is NOWHERE or own.outline < OWN_SHARPER * agreed.outline:
        return False
    if abs(own.cover - agreed.cover) <= OWN_SAME_INK:
        return True
    # no ink at its own place, and at theirs only at one edge, not through the middle: the outline itself, read half
    # off its place (seed 32, fold photo 3: tower 0's 9, 0.14 "inked" at one edge, none 2.2 pixels away on an outline
    # 1.22 times darker); a tick or a fill goes through the middle, and 3 pixels cannot take it out of a bubble
    return own.cover < COVER_EMPTY and agreed.middle == 0 and agreed.edge_share >= OFF_CENTRE


#: Around the place a mark was read, its printed surroundings (outline, label: `refine`'s) are matched this far (mm)
#: each way; a place that fits FIT_GAIN better (normalised correlation, its inside left out), FIT_AWAY pixels away
#: at least, and FIT_SEEN at least, is a better place. Measured (fold, curl, clean, perspective, hard-shadow photos of
#: seeds 14, 31, 32; 8 of each): 2 marks of 5,200 in place fit better 3 or more pixels away, by 0.33 and 0.12; seed
#: 14 fold photo 12's crease moved floor 2 and tower 0's column 6-13 pixels, 0.17-0.47 better fits.
FIT_MM = 2.5
FIT_GAIN = 0.15
FIT_AWAY = 3.0
FIT_SEEN = 0.4


def _fits_better(mark: Mark, dark: Floats, ref: Grey, place: tuple[float, float]) -> tuple[float, float] | None:
    """A place near `place` where the mark's printed surroundings fit much better than at `place`; None if none."""
    import cv2
    import numpy as np

    reach = round(FIT_MM * PX_MM)
    around = _around(mark, dark, ref, place, reach)
    if around is None or float(around[0].std()) < 0.02:
        return None
    template, patch, keep = around
    scores = cv2.matchTemplate(patch.astype(np.float32), template, cv2.TM_CCOEFF_NORMED, mask=keep)
    scores = np.nan_to_num(scores, nan=-1.0, posinf=-1.0, neginf=-1.0)
    _, best, _, (bx, by) = cv2.minMaxLoc(scores)
    if best < FIT_SEEN or best - float(scores[reach, reach]) < FIT_GAIN or \
            math.hypot(bx - reach, by - reach) < FIT_AWAY:
        return None
    return place[0] + bx - reach, place[1] + by - reach


def _checked_off_edge(mark: Mark, place: tuple[float, float], shape: tuple[int, ...]) -> bool:
    """Whether the mark's printed surroundings (its outline and label, AROUND_MM around its window, and REFINE_MM
    further, as `refine` searches them) lie on the printed sheet but, at `place`, run off the straightened photo
    (`shape`): the tiles moved it towards the sheet's edge, past where its own place can be refined or its outline's
    fit checked (`refine`, `_fits_better`)."""
    rx, ry, w, h = _window(mark)
    margin = round(AROUND_MM * PX_MM) + round(REFINE_MM * PX_MM)
    return _within(rx, ry, w, h, margin, shape) and \
        not _within(round(rx + place[0]), round(ry + place[1]), w, h, margin, shape)


def _exclusive(mark: Mark, types: Any) -> bool:
    """Whether the mark is one of values its field (or its digit) takes only one of."""
    return mark.value != "built" and (bool(mark.digit) or types.get(mark.field) not in ("count", "list", "yes-no"))


def _name(mark: Mark) -> str:
    value = f"{mark.digit} {mark.value}" if mark.digit else str(mark.value)
    return f"{mark.field} {value}"


def read_marks(straight: Grey, ref: Grey, printed_dark: Floats, valid: Any, marks: Sequence[Mark], types: Any,
               blur_mm: float = 0.0) -> tuple[list[MarkRead], Light]:
    """Read every mark of the map on the straightened sheet: light, registration, measures, decisions; `blur_mm`
    how soft the photo is (photos.blur_mm: its markers' edges)."""
    import numpy as np

    if ref.shape != straight.shape:
        fitted = np.full(straight.shape, 255, dtype=np.uint8)
        fitted_dark = np.zeros(straight.shape, dtype=np.float32)
        h, w = min(ref.shape[0], straight.shape[0]), min(ref.shape[1], straight.shape[1])
        fitted[:h, :w] = ref[:h, :w]
        fitted_dark[:h, :w] = printed_dark[:h, :w]
        ref, printed_dark = fitted, fitted_dark
    grain = _grain(straight)  # the light's smoothing and the ink's grain both ask (once is enough)
    light_ = light(straight, ref, valid, blur_mm, grain)
    shifts = register(light_.dark, ref, marks, valid)
    refined = [refine(mark, light_.dark, ref, (float(s[0]), float(s[1]))) for mark, s in zip(marks, shifts, strict=True)]
    places = _agreed(marks, shifts, refined)
    light_ = replace(light_, shown=usual_print_shown(marks, light_, ref, places))
    measures = []
    for i, (mark, (dx, dy)) in enumerate(zip(marks, places, strict=True)):
        if not _in_photo(mark, (dx, dy), valid):
            measures.append(NOWHERE)
            continue
        m = measure(mark, light_, ref, printed_dark, (dx, dy))
        own = refined[i]
        if own is not None and mark.shape != "figure" and m is not NOWHERE and \
                0.5 < math.hypot(own[0] - dx, own[1] - dy) <= OWN_REACH and _in_photo(mark, own, valid):
            there = measure(mark, light_, ref, printed_dark, own)
            if _seen_better(there, m):
                m, places[i] = there, own
        measures.append(m)
    sheet = usual(marks, measures)
    reads = [decide(mark, m, sheet) for mark, m in zip(marks, measures, strict=True)]
    # a circle drawn around a bubble crosses its neighbours' rings and edges: measured again without it
    circles = [(m.x + (w - 1) / 2, m.y + (h - 1) / 2, r * CIRCLE_BAND[0], r * CIRCLE_BAND[1])
               for mark, m, read in zip(marks, measures, reads, strict=True)
               if read.state is True and m.ring >= CIRCLED and m.cover < COVER_FILLED
               for _, _, w, h in (_window(mark),) for r in (max(w, h) / 2,)]
    if circles:
        for i, (mark, m) in enumerate(zip(marks, measures, strict=True)):
            _, _, w, h = _window(mark)
            centre = (m.x + (w - 1) / 2, m.y + (h - 1) / 2)
            near = [c for c in circles if c[:2] != centre and math.hypot(c[0] - centre[0], c[1] - centre[1]) <
                    c[3] + max(w, h) * RING[1] / 2]
            if near and m is not NOWHERE and reads[i].state is not True:
                measures[i] = measure(mark, light_, ref, printed_dark, places[i], near)
                reads[i] = decide(mark, measures[i], sheet)
    # a stroke crossing the gap from a filled neighbour into a bubble, and no further than a short way in, is the
    # neighbour's; a circle drawn around a bubble is not (it crosses the gap to a close neighbour too, but a stroke
    # come from the neighbour never closes a ring around this one). One inked further in, read filled but short of a
    # fill, is asked about: a scribble past the neighbour's edge runs through its middle as a tick would (seed 31,
    # scribbles photo 13: tower 4's "built" scribbled, its 0 read filled at 0.36 of it inked)
    threshold = ink_threshold(light_)
    for i, (mark, m) in enumerate(zip(marks, measures, strict=True)):
        if reads[i].state is False or m is NOWHERE or mark.shape == "figure" or m.ring >= CIRCLED or \
                reads[i].code in ("glare", "covered", "outside"):
            continue
        short = m.cover < 0.35 and m.spread < SPREAD
        if not short and (reads[i].state is not True or m.cover >= BROAD):
            continue
        for j, (other, n) in enumerate(zip(marks, measures, strict=True)):
            if j != i and reads[j].state is True and n.cover > m.cover and other.shape != "figure" and \
                    _bridged(light_.dark, printed_dark, mark, m, other, n, threshold):
                reads[i] = MarkRead(False, m.cover, 0.5, x=reads[i].x, y=reads[i].y) if short else MarkRead(
                    None, m.cover, 0.0, f"a stroke from {_name(other)} runs into it", "spill", reads[i].x, reads[i].y)
                break
    ink = smooth_ink(light_, marks, measures, reads, blur_mm, grain)
    if ink is None:
        # an empty figure under glare whose printed drawing is not washed out (`decide` reads it): on a sheet whose
        # ink is not shown smooth (pencil, or not known) the print is no witness, graphite shines more than print and
        # fades first (what `by_print` refuses), so it is judged by the sheet's own fills under glare, or asked (HB
        # glare photos, seeds 44 and 77: empty figures in the glare read empty where a light pencil would drown)
        for i, (mark, m) in enumerate(zip(marks, measures, strict=True)):
            if mark.shape == "figure" and reads[i].state is False and m is not NOWHERE and _glared(m):
                reads[i] = MarkRead(None, m.cover, 0.0, GLARE_WASHES, "glare", reads[i].x, reads[i].y)
    reads = calibrated_by_glare(marks, measures, reads, sheet, threshold, ink, light_.paper, light_.lift)
    reads = settle(marks, measures, reads, sheet, types, blur_mm)
    # a mark whose printed outline fits much better a little way off than where it was read (a fold moves the
    # sheet on either side of its crease by millimetres, unlike the tiles around it): decided only when what is
    # there reads the same
    for i, (mark, m) in enumerate(zip(marks, measures, strict=True)):
        if reads[i].state is None or m is NOWHERE:
            continue
        better = _fits_better(mark, light_.dark, ref, places[i])
        if better is None or not _in_photo(mark, better, valid):
            continue
        moved = decide(mark, measure(mark, light_, ref, printed_dark, better), sheet)
        if moved.state != reads[i].state:
            away = math.hypot(better[0] - places[i][0], better[1] - places[i][1]) / PX_MM
            reads[i] = MarkRead(None, reads[i].fill, 0.0, f"its printed outline is seen {away:.1f} mm from where the "
                                                          "sheet around it puts it (a fold or a curl)", "bent",
                                reads[i].x, reads[i].y)
    # a mark a curl moved so far towards the sheet's edge that what is printed around it runs off the photo: where it
    # is cannot be checked (neither refined nor fitted, above), and the tiles' field, carried past the last tile that
    # found its print, can fall short by a bubble (seed 37 curl photo 5: a curl of 29 mm at a 33 degree tilt moved
    # the first column of guests 10 mm; the field moved them 6.5, onto their printed neighbours' outlines and
    # labels, read as four guests filled)
    for i, (mark, m) in enumerate(zip(marks, measures, strict=True)):
        if reads[i].state is None or m is NOWHERE or not _checked_off_edge(mark, places[i], light_.dark.shape):
            continue
        # one sentence for every such mark (no distance in it): the marks of a field moved alike are said once
        reads[i] = MarkRead(None, reads[i].fill, 0.0, "it was moved to the sheet's edge, where its printed outline "
                                                      "cannot be checked (a fold or a curl)", "bent", reads[i].x,
                            reads[i].y)
    return reads, light_


#: What the fade of the sheet's ink, measured on its own marks under glare, is multiplied by before it is trusted
#: (a tick may be drawn lighter than the sheet's usual tick, and glare lifts a mark's paper unevenly); and the printed
#: outline's fade (`by_print`) where the photo does not show how uneven its glare and light are (`Unlit`).
FADE_MARGIN = 1.5
#: A mark of the sheet's ink tells how that ink fades under glare when the glare lifted its paper this much at least.
FADE_LIFT = 0.04
#: The darkest a player's mark can be before glare (black: darkness 1). How hard a witness was pressed is not known
#: (glare took part of its darkness), and one pressed harder than the sheet's usual ink keeps more of its darkness
#: than a mark of usual pressure would, as if its ink shone less: so what it kept is counted against black, the
#: darkest it could have been, which can only make the fade taken faster than it was.
INK_DARKEST = 1.0
#: A fill there must keep this many times the darkness from which a pixel is ink for an empty look to prove it empty.
FADE_SEEN = 2.0


def calibrated_by_glare(marks: Sequence[Mark], measures: Sequence[Measure], reads: list[MarkRead], sheet: Usual,
                        threshold: float, ink: InkSeen | None = None, paper: Floats = None,
                        lift: Floats = None) -> list[MarkRead]:
    """Empty marks under glare read empty where the sheet's own marks under glare show that a fill there would
    still be plainly seen.

    Glare adds light: it lifts the paper (Measure.lift), and washes out the printed outline and the player's ink,
    each by how shiny it is (graphite several times more than paper, felt-tip ink hardly at all): how fast this
    sheet's ink fades is not known in advance, so it is measured on the sheet, on its marks read filled under
    glare (bubbles, figures coloured in; its witnesses): the share of black each kept over its whole inside (its
    pixels washed below the ink threshold count as lost), against the lift there. An empty bubble (or figure)
    under glare is read empty when the faintest mark it could hold (a tick; a figure's colouring in) in the
    sheet's ink would keep FADE_SEEN times the ink threshold there, with the fastest fade of the witnesses whose
    paper glare lifted at least as much as the mark's (a fade is not stretched to stronger glare: glare burns
    ink out faster as the paper saturates), taken FADE_MARGIN times faster, and never slower than the mark's own
    printed outline faded (ink is taken to shine at least as much as print). Elsewhere it stays asked about: an
    empty look under glare proves nothing unless the sheet shows how its ink fades there.

    With no such witness, a sheet whose fills show a smooth ink (`smooth_ink`: ballpoint, felt tip; never graphite)
    lets the printed outline stand witness instead (`by_print`)."""
    out = list(reads)
    thin = sheet.thin or sheet.ink * THIN_SHARE
    if not thin:
        return out
    # the sheet's marks read filled where glare lifted the paper: the lift there, and its ink's fade per unit of lift
    known: list[tuple[float, float]] = []
    for m, read in zip(measures, reads, strict=True):
        if read.state is not True or m.lift < FADE_LIFT or m.cover < GLARE_SEEN:
            continue
        known.append((m.lift, (1.0 - min(1.0, m.level * m.cover / INK_DARKEST)) / m.lift))
    away = unlit(marks, measures)
    for i, (mark, m) in enumerate(zip(marks, measures, strict=True)):
        if out[i].code != "glare" or mark.shape not in sheet.outline or m.cover > COVER_EMPTY or m.ring >= RING_BEGUN:
            continue
        fades = [fade for lift, fade in known if lift >= m.lift]
        if not fades:
            if ink is not None and paper is not None and by_print(mark, m, sheet, thin, ink, paper, threshold,
                                                                  lift, away):
                out[i] = MarkRead(False, m.cover, 0.5, x=out[i].x, y=out[i].y)
            continue
        outline_lost = 1.0 - m.outline / sheet.outline[mark.shape]
        kept = 1.0 - FADE_MARGIN * max(max(fades) * m.lift, outline_lost)
        # the faintest mark it could hold: a figure is coloured in (broad), a bubble may be only ticked
        faintest = sheet.ink if mark.shape == "figure" else thin
        if kept * faintest >= FADE_SEEN * threshold:
            out[i] = MarkRead(False, m.cover, 0.5, x=out[i].x, y=out[i].y)
    return out


# --- ink that shines no more than print ------------------------------------------------------------------------------
#: Graphite is a soft solid rubbed onto the paper: flakes caught on the fibres' tops, a grainy line with skips where
#: the pencil passed over a hollow, and a sheen of its own (it shines more than printed toner and paper, which is why
#: glare drowns a pencil mark first). Ballpoint paste and felt-tip ink are liquids the paper drinks: an even line, dull
#: (a dye sits in the fibres and shines no more than the print). So a sheet's fills, seen where no glare lies, tell
#: the two apart by their fine texture: how far each pixel's darkness (`Light.dark`, the photo's noise smoothed as for
#: every mark) lies from the mean of its 3 x 3 neighbours, at the median over a fill's inside, as a share of the
#: fill's median darkness; the sheet's is the median over its fills. The glare family's sheets of seeds 38-42 (one pen
#: a sheet; benchmarks/photo_families.py draws graphite grainy, ballpoint and felt tip with little grain): HB pencil
#: 0.0052-0.0141 (48 sheets), ballpoint 0.0017-0.0053 (29), felt tip 0.0008-0.0019 (23). A sheet is taken as ink
#: below INK_GRAIN, which the least grainy graphite sheet reads 1.5 times: 17 of the 29 ballpoint sheets and every
#: felt-tip one fall below it, the other ballpoint sheets keep the witness rule. Measured on drawn photos
#: (benchmarks/photo_families.py), not on real paper: a real pencil's grain at a phone's resolution is not known here.
INK_GRAIN = 0.0035
#: The photo's own grain (`_grain`, grey levels) up to which that texture tells graphite: the reader smooths a grainy
#: photo before reading it (NOISE_BLUR + grain / 8), graphite's grain with the camera's noise. HB sheets read
#: 0.0052-0.0098 in clean and glare photos of grain 1.1-3.5 (seeds 38, 39, 60, 61), but 0.0042-0.0047 at grain
#: 4.5-5.4, 0.0031-0.0034 at 6.1-6.9 and 0.0018 at 11 (noise family, seed 60), 0.0018-0.0044 in dark rooms (grain
#: 6.9-28, low-light family, seed 60): there the texture says nothing, and today's rule is kept.
INK_QUIET = 4.0
#: ... at the median over this many fills at least (a sheet's one fill may be a smudge, a rubbed-out mark filled again).
INK_FILLS = 3
#: Pixels left out at the edge of a fill's inside (where the printed outline and the camera's blur meet the ink).
INK_INSET = 2
#: Past a paper this bright (grey 0-255) the camera clips: the paper stops brightening while the ink under the same
#: glare keeps washing out, and the print's fade no longer bounds the ink's.
INK_UNCLIPPED = 240
#: The lift (Measure.lift) the light's own unevenness gives where no glare lies: the paper is compared with the
#: darkest paper within GLARE_REACH_MM, and a gradient or a vignette (up to 15 % and 10 % across the benchmark's
#: photos) makes a place that much brighter than its darkest surroundings. Taken off the lift, so that it is never
#: more than what glare added.
LIFT_SLACK = 0.05


@dataclass(frozen=True)
class InkSeen:
    """The darkness of a smooth ink's fills where no glare lies: the lightest of them, and their median."""

    lightest: float
    usual: float


def smooth_ink(light_: Light, marks: Sequence[Mark], measures: Sequence[Measure], reads: Sequence[MarkRead],
               blur_mm: float, grain: float) -> InkSeen | None:
    """How dark the sheet's fills are, when they show a smooth ink (ballpoint, felt tip: `INK_GRAIN`); None for
    graphite, for a photo too soft to show graphite's grain (`SHARP_MM`: a blur smooths it away) or too grainy
    (`grain`, the photo's own, above INK_QUIET), and for a sheet with fewer than INK_FILLS fills seen outside glare."""
    import cv2
    import numpy as np

    if blur_mm > SHARP_MM or grain > INK_QUIET:
        return None
    grains, levels = [], []
    for mark, m, read in zip(marks, measures, reads, strict=True):
        if read.state is not True or m is NOWHERE or mark.shape == "figure" or m.glare > 0 or \
                m.lift >= FADE_LIFT or m.cover < BROAD or m.even < EVEN:
            continue
        _, _, w, h = _window(mark)
        inside = cv2.erode(inside_of(mark.shape, w, h).astype(np.uint8), np.ones((2 * INK_INSET + 1,) * 2, np.uint8))
        dark = light_.dark
        if m.y < 1 or m.x < 1 or m.y + h + 1 > dark.shape[0] or m.x + w + 1 > dark.shape[1] or inside.sum() < 8:
            continue
        around = dark[m.y - 1:m.y + h + 1, m.x - 1:m.x + w + 1]
        fine = np.abs(around - cv2.blur(around, (3, 3)))[1:-1, 1:-1][inside > 0]
        level = float(np.median(around[1:-1, 1:-1][inside > 0]))
        if level <= 0:
            continue
        grains.append(float(np.median(fine)) / level)
        levels.append(m.level)
    if len(grains) < INK_FILLS or float(np.median(grains)) > INK_GRAIN:
        return None
    return InkSeen(min(levels), float(np.median(levels)))


def by_print(mark: Mark, m: Measure, sheet: Usual, thin: float, ink: InkSeen, paper: Floats,
             threshold: float, lift: Floats = None, away: Unlit | None = None) -> bool:
    """Whether an empty-looking mark under glare, on a sheet of smooth ink (`smooth_ink`), is shown empty by its
    own printed outline: the faintest mark the player's ink could leave there would still be plainly seen.

    Glare adds light, each thing's share by its sheen G s, so a line of contrast C (grey levels below the paper P0)
    keeps, as darkness against the paper lifted to P0 (1 + L), (1 - a) / (1 + L) of its darkness, a = G (s - p) / C
    (p the paper's sheen). The outline shows its own `seen` = (1 - a) / (1 + L): with L no more than the glare's lift
    (`Measure.lift` less LIFT_SLACK), print's a is at most `lost` = 1 - seen (1 + L). An ink that shines no more
    than print, of darkness D (its fills where no glare lies), loses at most G (s - p) / (D P0) of its contrast, and
    print's C is at most black (P0), so at most `lost` / D. The faintest mark (the sheet's usual line, in its lightest
    fill's ink) then keeps seen (1 - lost / D) / (1 - lost) of its darkness, with `lost` taken larger by how much
    brighter the glare is over the mark's inside than over its outline (a tick may lie under the glare's peak), and
    must stay FADE_SEEN times the ink threshold. That is measured on the photo where it shows enough (`Unlit`, and
    `glare_peak` on the paper's lift `lift`): the light's own unevenness away from glare in place of LIFT_SLACK, the
    glare's peak over the mark against its outline, and the outline's `seen` taken OUTLINE_SPREADS of the sheet's
    own spread lower (one outline's reading is that noisy); elsewhere `lost` is taken FADE_MARGIN times larger.
    Not where the camera clipped the paper (INK_UNCLIPPED): there the paper stops brightening while the ink keeps
    washing out."""
    import numpy as np

    # an empty mark's outline is compared with the sheet's empty ones of its shape (`Usual.bare`), like with like,
    # as `decide` does under glare: a figure coloured in reads its outline about 1.6x darker by the ink over it, so
    # on a sheet of many residents the usual figure made an empty one's outline, washed by glare to 0.78 of its
    # empty neighbours', read 0.43 and the figure was asked about (the glare family's seed 40 photo 12, felt tip)
    usual_outline = sheet.bare.get(mark.shape, sheet.outline.get(mark.shape, 0.0))
    _, _, w, h = _window(mark)
    if usual_outline <= 0 or ink.lightest <= 0 or ink.usual <= 0:
        return False
    if float(np.max(paper[m.y:m.y + h, m.x:m.x + w])) >= INK_UNCLIPPED:
        return False
    seen = m.outline / usual_outline
    margin, slack = FADE_MARGIN, LIFT_SLACK
    spread = away.spread.get(mark.shape) if away is not None else None
    if away is not None and spread is not None and lift is not None:
        slack = away.lift
        margin = glare_peak(mark, m, lift, slack)
        seen *= 1.0 - OUTLINE_SPREADS * spread
    lost = min(1.0, max(0.0, 1.0 - seen * (1.0 + max(0.0, m.lift - slack))))
    if lost >= 1.0:
        return False
    if lost == 0.0:
        margin = 1.0  # nothing washed out to take larger (an infinite margin times nothing is no number)
    kept = seen * (1.0 - margin * lost / ink.lightest) / (1.0 - lost)
    faintest = ink.lightest if mark.shape == "figure" else thin * ink.lightest / ink.usual
    return kept * faintest >= FADE_SEEN * threshold


#: An empty mark's outline under glare is read this many times the sheet's own spread of outlines lower than it reads
#: (`Unlit.spread`): one outline's darkness is measured with that noise (the photo's grain, a pixel's placing), and
#: read darker than it is, it would say glare took less than it did. Two spreads: a reading that low by chance is
#: about one in forty (a normal spread's tail), a statistical choice, not one of any photo's.
OUTLINE_SPREADS = 2.0
#: The sheet's empty marks of a shape away from glare whose outlines tell their spread: at least this many (a median
#: and a median deviation of fewer say little).
SPREAD_MARKS = 8
#: Where a bubble's printed outline lies in its window: the ring from this share of its radius to its edge (the
#: outline is drawn at the window's edge, about 0.2 mm wide: 1.5 of its 13 pixels of radius, and a pixel's placing).
OUTLINE_BAND = 0.85


@dataclass(frozen=True)
class Unlit:
    """What the photo shows away from glare, that an empty mark's outline under glare is weighed with (`by_print`):
    how much the light's own unevenness lifts the paper there (the most a mark away from glare reads), and how
    much the sheet's empty outlines of each shape spread there (their median deviation, a share of their median)."""

    lift: float
    spread: dict[str, float]


def unlit(marks: Sequence[Mark], measures: Sequence[Measure]) -> Unlit | None:
    """What the photo shows away from glare (`Unlit`): None when fewer than SPREAD_MARKS marks lie there."""
    import numpy as np

    away = [(mark, m) for mark, m in zip(marks, measures, strict=True)
            if m is not NOWHERE and m.glare == 0 and not m.glare_near]
    if len(away) < SPREAD_MARKS:
        return None
    by_shape: dict[str, list[float]] = {}
    for mark, m in away:
        # empty and read where the light is even: a lift of FADE_LIFT is a glare's halo the mask missed
        if m.cover < COVER_EMPTY and m.lift < FADE_LIFT:
            by_shape.setdefault(mark.shape, []).append(m.outline)
    spread = {}
    for shape, values in by_shape.items():
        middle = float(np.median(values))
        if len(values) >= SPREAD_MARKS and middle > 0:
            spread[shape] = _robust_spread(np.array(values), middle) / middle
    return Unlit(max(m.lift for _, m in away), spread)


def glare_peak(mark: Mark, m: Measure, lift: Floats, slack: float) -> float:
    """How much brighter glare is where a player's mark would show than over the mark's printed outline, on average:
    the paper's lift (`Light.lift`, less `slack`, the light's own unevenness) there; at least 1, and infinite where
    the outline shows no glare above that unevenness. A tick or a cross is drawn through a bubble's middle (`_middle`,
    as `decide` reads them: OFF_CENTRE, SPREAD), so a tick drowned everywhere is drowned there too: its middle at its
    brightest is taken (glare peaking over it is brighter there than over the outline around it; a glare's slope
    across it is not, the outline's mean lies at the middle's level); a figure is coloured in over most of its
    inside, taken on average. The lift is measured on a grid of 8 pixels (`_bright`): a glare spot narrower than a
    millimetre is averaged over its cell."""
    import numpy as np

    _, _, w, h = _window(mark)
    window = lift[m.y:m.y + h, m.x:m.x + w]
    if window.shape != (h, w):
        return math.inf
    if mark.shape == "figure":
        # a figure's outline runs round its drawing, which fills its window: its window's edge stands for it
        outline = np.ones((h, w), bool)
        outline[1:-1, 1:-1] = False
        shows = float(window[inside_of(mark.shape, w, h) > 0].mean())
    else:
        shows = float(window[_middle(w, h)].max())
        ys, xs = np.mgrid[0:h, 0:w]
        d = np.hypot(xs - (w - 1) / 2, ys - (h - 1) / 2)
        outline = (d >= min(w, h) / 2 * OUTLINE_BAND) & (d <= min(w, h) / 2)
    at_outline = float(window[outline].mean()) - slack
    if at_outline <= 0:
        return math.inf
    return max(1.0, (shows - slack) / at_outline)


def _bridged(dark: Floats, printed_dark: Floats, mark: Mark, m: Measure, other: Mark, n: Measure,
             threshold: float) -> bool:
    """Whether ink crosses the paper between two neighbouring bubbles, unbroken (a stroke from one into the
    other)."""
    import numpy as np

    _, _, w, h = _window(mark)
    _, _, ow, oh = _window(other)
    a = np.array([m.x + (w - 1) / 2, m.y + (h - 1) / 2])
    b = np.array([n.x + (ow - 1) / 2, n.y + (oh - 1) / 2])
    gap = float(np.hypot(*(b - a)))
    r, ro = max(w, h) / 2, max(ow, oh) / 2
    if gap <= r + ro or gap > 2.6 * max(w, ow):
        return False
    toward = (b - a) / gap
    across = np.array([-toward[1], toward[0]])
    offset = (round(mark.x * SCALE) - m.x, round(mark.y * SCALE) - m.y)  # photo -> printed sheet
    for t in np.linspace(r + 1, gap - ro - 1, max(2, int(gap - r - ro))):
        inked = False
        for side in (-2, -1, 0, 1, 2):
            x, y = (a + toward * t + across * side).round().astype(int)
            px, py = x + offset[0], y + offset[1]
            if 0 <= y < dark.shape[0] and 0 <= x < dark.shape[1] and 0 <= py < printed_dark.shape[0] and \
                    0 <= px < printed_dark.shape[1] and dark[y, x] - printed_dark[py, px] > threshold:
                inked = True
                break
        if not inked:
            return False
    return True
