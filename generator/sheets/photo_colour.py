"""A photo's colour turned into the grey its marks are read in: coloured ink as dark as it absorbs.

A photo's grey is its luminance, and luminance is how bright a colour looks to the eye: a yellow or orange felt tip,
a pink, light green or sky-blue coloured pencil, reads nearly as light as the paper (yellow keeps 85 % of white's
luminance), though it is plainly ink. A player colours the castle's residents in with whatever is on the table,
and a resident coloured in yellow was read as a mark rubbed out. What tells ink from paper is what it absorbs:
a coloured ink takes most of one channel away (yellow takes the blue), so the grey the reader reads is the
luminance, darkened where the pixel's most absorbed channel lies well below it, down to that channel.

Only colour beyond :data:`COLOUR_MARGIN` counts: a photo's colour noise, a lens's coloured fringe along a black
line and the JPEG's coarse colour leave a neutral pixel's channels within a few grey levels of each other, and
for those the grey is the luminance itself, unchanged. The paper's own colour (warm light, a cream paper) is taken
out first: it is measured on the brightest part of the photo, and a neutral pixel keeps the same balance at any
brightness, so it is removed in proportion to the pixel's luminance. A JPEG stores its colour at half its
resolution: the darkening is measured at that resolution (a second, smaller decoding of the photo) and each pixel
of the grey takes the darkening of the coarse pixel it lies in.
"""

from __future__ import annotations

from typing import Any

#: Images as arrays (numpy's): typed loosely, as in generator.sheets.photos.
Grey = Any

#: Grey levels by which a pixel's most absorbed channel must lie below its luminance before its colour counts as
#: ink: above a phone photo's colour noise and a lens's coloured fringe along a black line, a few levels each,
#: and below any coloured pencil a player colours with (a light yellow pencil: about 60 levels).
COLOUR_MARGIN = 30
#: The paper's colour is the median colour of the photo's brightest pixels: those of this share, at the top.
PAPER_SHARE = 0.1
#: The photo is measured for the paper's colour on every this many pixels, each way (a 12-megapixel photo: 190,000).
PAPER_STEP = 8
#: Rows converted at once: the copies of a block stay near 10 MB for a photo 4,000 pixels wide.
BLOCK_ROWS = 512
#: ITU-R BT.601 (JPEG's YCbCr): each channel's offset from the luminance, by the colour differences Cb and Cr.
_RED_CR = 1.402
_GREEN_CB, _GREEN_CR = -0.344136, -0.714136
_BLUE_CB = 1.772
#: The largest colour differences (Cb, Cr) for which no channel lies COLOUR_MARGIN below the luminance: the blue
#: and the red bound them alone (30 / 1.772 and 30 / 1.402, rounded down), and within both the green's offset stays
#: under the margin too (0.344 x 16 + 0.714 x 21 = 20.5).
_B_NEUTRAL = int(COLOUR_MARGIN / _BLUE_CB)
_R_NEUTRAL = int(COLOUR_MARGIN / _RED_CR)


def image_grey(image: Any) -> Grey:
    """A Pillow image in colour (RGB, a palette, CMYK...; a PNG photo, a scan) as the grey to read marks in."""
    import numpy as np

    # the luminance as Pillow has always given it (a photo with no colour in it reads as it did, to the bit), the
    # colour differences beside it
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    grey = np.asarray(rgb.convert("L"), dtype=np.uint8)
    # the colour at half the resolution, as a JPEG stores it (a HEIC photo's too): a mark's colour is millimetres
    # wide, and the darkening takes a quarter of the time
    ycc = np.asarray(rgb.reduce(2).convert("YCbCr"), dtype=np.uint8)
    return darkened(grey, darkening(ycc[:, :, 0], ycc[:, :, 1], ycc[:, :, 2]))


def ink_grey(luma: Grey, cb: Grey, cr: Grey) -> Grey:
    """The grey to read marks in (uint8), from a photo's luminance and its colour differences (JPEG's YCbCr, each
    uint8 with 128 for none, all three the same size): the luminance, darkened where a channel absorbs more than
    COLOUR_MARGIN below it."""
    return darkened(luma, darkening(luma, cb, cr))


def darkened(grey: Grey, deeper: Grey | None) -> Grey:
    """`grey` darkened by `deeper` (grey levels; None: by nothing), which may be coarser than it (a JPEG's colour is
    stored at half its resolution, and is decoded so): each pixel by the coarse pixel it lies in."""
    import numpy as np

    if deeper is None:
        return grey
    height, width = grey.shape
    rows = np.arange(height) * deeper.shape[0] // height
    columns = np.arange(width) * deeper.shape[1] // width
    return _subtract(grey, deeper[rows[:, None], columns[None, :]])


def _subtract(grey: Grey, deeper: Grey) -> Grey:
    """`grey` - `deeper`, stopping at black (both uint8)."""
    import numpy as np

    return np.where(grey > deeper, grey - deeper, 0).astype(np.uint8)


def darkening(luma: Grey, cb: Grey, cr: Grey) -> Grey | None:
    """How many grey levels each pixel's colour darkens it (uint8, the size of the three planes given), or None
    where no pixel's does (a photo with no colour in it)."""
    import numpy as np

    paper_y, paper_cb, paper_cr = _paper(luma, cb, cr)
    # a neutral pixel's colour differences at each luminance: the paper's, in proportion (whole levels)
    share = np.arange(256, dtype=np.float64) / paper_y
    neutral_cb = np.rint(paper_cb * share).astype(np.int16)
    neutral_cr = np.rint(paper_cr * share).astype(np.int16)
    out: Grey | None = None
    for top in range(0, luma.shape[0], BLOCK_ROWS):
        rows = slice(top, top + BLOCK_ROWS)
        y = luma[rows]
        b = cb[rows].astype(np.int16) - 128 - np.take(neutral_cb, y)
        r = cr[rows].astype(np.int16) - 128 - np.take(neutral_cr, y)
        # only a pixel this far from neutral can have a channel COLOUR_MARGIN below its luminance (the green's
        # share of both differences is smaller than the larger of the two other bounds): the rest stay as they are
        coloured = np.flatnonzero((np.abs(b) > _B_NEUTRAL) | (np.abs(r) > _R_NEUTRAL))
        if not coloured.size:
            continue
        bb = b.ravel()[coloured].astype(np.float32)
        rr = r.ravel()[coloured].astype(np.float32)
        lowest = np.minimum(np.minimum(_RED_CR * rr, _GREEN_CB * bb + _GREEN_CR * rr), _BLUE_CB * bb)
        if out is None:
            out = np.zeros(luma.shape, dtype=np.uint8)
        out.reshape(-1)[top * luma.shape[1] + coloured] = np.clip(np.rint(-lowest - COLOUR_MARGIN), 0, 255)
    return out if out is not None and out.any() else None


def _paper(luma: Grey, cb: Grey, cr: Grey) -> tuple[float, float, float]:
    """The paper's luminance and colour differences (from 128): the median of the brightest pixels measured."""
    import numpy as np

    y = luma[::PAPER_STEP, ::PAPER_STEP]
    bright = y >= np.quantile(y, 1.0 - PAPER_SHARE)
    level = float(np.median(y[bright]))
    if level < 1.0:  # a black photo: no paper to measure; refused later for its markers
        return 1.0, 0.0, 0.0
    return (level, float(np.median(cb[::PAPER_STEP, ::PAPER_STEP][bright])) - 128.0,
            float(np.median(cr[::PAPER_STEP, ::PAPER_STEP][bright])) - 128.0)
