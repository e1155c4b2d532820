"""The photos of the bad-input corpus (tests/corpus/photos.yaml): each made by a function, on demand."""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from tests.scan.helpers import APPRENTICE, GREAT, filled, photograph, sheet_image


def _jpeg(image: Any, quality: int = 85) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return bytes(data.tobytes())


def no_sheet() -> bytes:
    """A table, and nothing on it (in focus: a blurred photo is refused as blurred)."""
    rng = np.random.default_rng(1)
    return _jpeg(cv2.GaussianBlur(rng.integers(40, 200, (1200, 1600), dtype=np.uint8), (0, 0), 1))


def half_sheet() -> bytes:
    """The top half of a filled sheet: two of its four markers."""
    image = filled("great-architect", "a4", GREAT)
    return photograph(image[: image.shape[0] // 2], tilt=0.0)


def two_sheets() -> bytes:
    """Two filled sheets side by side in one photo."""
    left = filled("great-architect", "a4", GREAT)
    right = filled("apprentice", "a4", APPRENTICE)
    return photograph(np.hstack([left, right]), tilt=0.0, size=(2400, 1800))


def blank_sheet() -> bytes:
    return photograph(sheet_image("apprentice", "letter")[1])


def fillable_sheet() -> bytes:
    """The fillable sheet printed and filled by hand: boxes, no markers."""
    return photograph(sheet_image("great-architect", "a4", fillable=True)[1])


def tiny() -> bytes:
    return _jpeg(cv2.resize(sheet_image("great-architect", "a4")[1], (150, 212), interpolation=cv2.INTER_AREA))


def _png(width: int, height: int, rows: Callable[[], bytes] | None = None) -> bytes:
    """A grey PNG of `width` x `height` whose every row is white, compressed as it is made."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    squeeze = zlib.compressobj(9)
    row = b"\x00" + b"\xff" * width
    body = b"".join(squeeze.compress(row) for _ in range(height if rows is None else 1)) + squeeze.flush()
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def png_100_megapixels() -> bytes:
    return _png(10_000, 10_000)


def jpeg_100_megapixels() -> bytes:
    """A 100-megapixel JPEG of a plain table: decoded at an eighth of its size, so memory stays bounded."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", (10_000, 10_000), 120).save(buffer, "JPEG", quality=50)
    return buffer.getvalue()


def png_bomb() -> bytes:
    """A PNG that claims 200,000 x 200,000 pixels (40 gigapixels) in a few bytes."""
    return _png(200_000, 200_000, rows=lambda: b"")


def truncated() -> bytes:
    data = photograph(filled("great-architect", "a4", GREAT))
    return data[: len(data) * 2 // 5]


def garbage() -> bytes:
    return b"\xff\xd8\xff\xe0" + bytes(range(256)) * 40


def great_architect() -> bytes:
    return photograph(filled("great-architect", "a4", GREAT), turn=180)


def apprentice() -> bytes:
    return photograph(filled("apprentice", "a4", APPRENTICE))


def pdf_scan_of_nothing() -> bytes:
    """A PDF holding a scanned page with no sheet on it."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(np.full((1100, 850), 235, dtype=np.uint8)).save(buffer, "PDF", resolution=100)
    return buffer.getvalue()


PHOTOS: dict[str, Callable[[], bytes]] = {
    "no-sheet": no_sheet, "half-sheet": half_sheet, "two-sheets": two_sheets, "blank-sheet": blank_sheet,
    "fillable-sheet": fillable_sheet, "tiny": tiny, "png-100-megapixels": png_100_megapixels, "png-bomb": png_bomb,
    "jpeg-100-megapixels": jpeg_100_megapixels,
    "truncated": truncated, "garbage": garbage, "great-architect": great_architect, "apprentice": apprentice,
    "pdf-scan-of-nothing": pdf_scan_of_nothing,
}
