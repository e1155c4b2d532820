"""Coloured ink read as ink: a resident coloured in with a yellow felt tip or an orange pencil is as plainly marked
as one in graphite, though its luminance is near the paper's (generator/sheets/photo_colour.py)."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from generator.games.castle.sheets import read_sheets  # noqa: E402
from generator.sheets.photo_colour import ink_grey  # noqa: E402
from tests.scan.helpers import (  # noqa: E402
    BLUE_BALLPOINT, GREAT, ORANGE_PENCIL, WARM, YELLOW_FELT, coloured_sheet, expected, photograph, sheet_image)
from tests.sheets.helpers import shipped  # noqa: E402

def _ycc(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Luminance and colour differences of an RGB image as a JPEG stores them (uint8 each)."""
    ycc = cv2.cvtColor(rgb.astype(np.uint8), cv2.COLOR_RGB2YCrCb)
    return ycc[..., 0], ycc[..., 2], ycc[..., 1]


def test_neutral_pixels_keep_their_luminance_under_a_warm_light_and_colour_noise() -> None:
    rng = np.random.default_rng(7)
    grey = np.concatenate([np.full((200, 50), 235), rng.integers(20, 236, (200, 150))], axis=1).astype(np.float32)
    noisy = grey[..., None] * np.array(WARM) + rng.normal(0, 4, (200, 200, 3))  # colour noise: each channel its own
    luma, cb, cr = _ycc(np.clip(noisy, 0, 255))
    assert np.array_equal(ink_grey(luma, cb, cr), luma)


def test_coloured_ink_reads_as_dark_as_the_channel_it_absorbs() -> None:
    paper = np.full((100, 100, 3), 240.0) * np.array(WARM)
    yellow = paper * np.array(YELLOW_FELT[0]) / 255
    image = np.concatenate([paper, yellow], axis=1)
    luma, cb, cr = _ycc(image)
    grey = ink_grey(luma, cb, cr)
    assert luma[0, 150] > 0.8 * luma[0, 0]  # to the eye, yellow is nearly as light as the paper
    assert grey[0, 150] < 0.5 * grey[0, 0]  # read darker than a mid-grey pencil: by the blue it takes away
    assert grey[0, 0] == luma[0, 0]  # the paper is left as it was


@pytest.mark.parametrize("ink", [YELLOW_FELT, ORANGE_PENCIL], ids=["yellow-felt", "orange-pencil"])
def test_residents_coloured_in_with_a_light_colour_are_read(ink: tuple[tuple[int, int, int], float]) -> None:
    """Luminance alone read these residents (yellow: 85 % of the paper's) as marks rubbed out, each asked about."""
    data = photograph(coloured_sheet(ink, BLUE_BALLPOINT, GREAT), turn=7, quality=88)
    read = read_sheets([(data, "ana.jpg")], shipped())
    assert read.uncertain == ()
    sheet = read.document.data["sheets"][0]
    assert {k: v for k, v in sheet.items() if k != "player"} == expected("great-architect", "a4", GREAT)


def test_a_colour_scan_in_a_pdf_shows_coloured_ink_too() -> None:
    """A scanner app's colour PDF of the sheet is read as a photo is, colour included (it was rasterised in grey)."""
    import io

    from PIL import Image

    bgr = coloured_sheet(YELLOW_FELT, BLUE_BALLPOINT, GREAT)
    scan = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(bgr[..., ::-1])).save(scan, "PDF", resolution=150.0)
    read = read_sheets([(scan.getvalue(), "scan.pdf")], shipped())
    assert read.uncertain == ()
    sheet = read.document.data["sheets"][0]
    assert {k: v for k, v in sheet.items() if k != "player"} == expected("great-architect", "a4", GREAT)


@pytest.mark.parametrize("size", [(1600, 1200), (4400, 3300)], ids=["whole", "reduced"])
def test_a_photo_with_no_colour_in_it_is_the_grey_it_always_was(size: tuple[int, int],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A photo of pencil marks under a warm light (a cast on every pixel, sensor noise) decodes to the luminance
    Pillow gives, to the bit, whole or at a reduced scale: what was read before coloured ink counted is read the
    same."""
    import io
    import math

    from PIL import Image

    from generator.sheets import photos

    monkeypatch.setattr(photos, "DECODE_LONG_SIDE", 2000)  # the reduced photo decodes at half its size
    grey = cv2.resize(sheet_image("great-architect", "a4")[1], size, interpolation=cv2.INTER_AREA)
    noisy = grey.astype(np.float32) + np.random.default_rng(5).normal(0, 5, grey.shape)
    bgr = np.clip(cv2.cvtColor(np.clip(noisy, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR).astype(np.int16)
                  + (-8, 0, 6), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert ok
    image = Image.open(io.BytesIO(data.tobytes()))
    reduction = 2 if size[0] > 4000 else 1
    if reduction > 1:
        image.draft("L", (math.ceil(size[0] / reduction), math.ceil(size[1] / reduction)))
    luminance = np.asarray(image.convert("L"))
    assert np.array_equal(photos.decode(data.tobytes(), "warm.jpg"), luminance)


@pytest.mark.parametrize("reduction", [1, 2])
def test_an_odd_sided_photo_has_its_colour_read_at_half_its_grey_resolution(reduction: int) -> None:
    """A colour JPEG whose sides are odd (1601 x 1201, as an 8-megapixel 3266 x 2449 photo's height is) has its
    colour decoded at half the resolution its grey is decoded at, as an even-sided one has: not whole, which took
    a tenth of a second more for each 8-megapixel photo."""
    from generator.sheets import photos

    rgb = np.full((1201, 1601, 3), 235, dtype=np.uint8)
    rgb[400:800, 500:1100] = YELLOW_FELT[0]  # a resident coloured in with a yellow felt tip: colour to measure
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    deeper = photos._jpeg_darkening(data.tobytes(), 1601, 1201, reduction)
    assert deeper is not None
    coarser = 2 * reduction  # each side rounded up, as the decoder gives it
    assert deeper.shape == (-(-1201 // coarser), -(-1601 // coarser))
    # and the grey decoded whole (an 8-megapixel photo is) is darkened where the yellow lies, not beside it
    grey = photos.decode(data.tobytes(), "odd.jpg")
    assert grey.shape == (1201, 1601)
    assert grey[600, 800] < grey[600, 300] - 60


def test_an_odd_sided_photo_is_decoded_at_the_reduction_its_size_calls_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A JPEG with odd sides whose long side calls for decoding at half its size (a cropped photo) is decoded at
    half (each side rounded up), as an even-sided one is: not whole, which for a photo of over 40 megapixels went
    past the reader's bound on what it decodes."""
    from generator.sheets import photos

    monkeypatch.setattr(photos, "DECODE_LONG_SIDE", 2000)  # a 4401-pixel side decodes at half its size
    grey = np.full((3301, 4401), 235, dtype=np.uint8)
    grey[1000:2000, 1500:3000] = 40
    ok, data = cv2.imencode(".jpg", grey, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    assert photos.decode(data.tobytes(), "cropped.jpg").shape == (1651, 2201)
    rgb = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    ok, data = cv2.imencode(".jpg", rgb, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    assert photos.decode(data.tobytes(), "cropped.jpg").shape == (1651, 2201)
