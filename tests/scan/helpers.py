"""Photos of scan-ready castle sheets for the tests: the real sheet rasterised, marks filled, photographed.

Smaller and plainer than the benchmark's (benchmarks/scan_photos.py): a sheet at 150 dpi, filled marks as dark
discs, turned and tilted by a homography, as JPEG. Each photo is made once per test session (cached).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

import cv2
import numpy as np

from generator.games.castle.sheets import end_state_sheet
from generator.sheets.marks import MarkMap, interpret
from tests.sheets.helpers import sheet

#: pixels per point of the rasterised sheet: 150 dpi
RENDER = 150 / 72

Image = Any


@cache
def sheet_image(version: str, paper: str, fillable: bool = False, render: float = RENDER) -> tuple[MarkMap, Image]:
    """The sheet to print (scan-ready) or the fillable sheet, rasterised in grey (`render` pixels per point), and
    the scan-ready sheet's map."""
    drawn = sheet(version, paper, "scan")
    page = sheet(version, paper, "fillable").page() if fillable else drawn.page()
    assert drawn.map is not None
    return drawn.map, rendered(page, render)


def marks_for(the_map: MarkMap, values: Mapping[str, Any]) -> list[bool]:
    """Which marks to fill for values given by field (`towers[0]`: 5, `residents`: 14, `guests`: [...]): a number
    written as digits fills its tens only from 10 on, its units unless it is 0 (a tower built without a number
    fills its "built" mark alone), and its "built" mark whenever it has a value."""
    out = []
    for mark in the_map.marks:
        value = values.get(mark.field)
        if mark.digit is not None:
            # a tuple: several values filled for one field (a player's slip)
            numbers = value if isinstance(value, tuple) else (value,)
            out.append(any(_digit_filled(mark, n) for n in numbers))
        elif mark.value == "built":
            out.append(value is not None)
        elif the_map.types.get(mark.field) == "count":  # counted from the first: floors, residents, boats
            out.append(isinstance(mark.value, int) and not isinstance(mark.value, bool) and mark.value <= (value or 0))
        elif isinstance(value, (list, tuple)):
            out.append(mark.value in value)
        else:
            out.append(value is not None and value == mark.value)
    return out


def _digit_filled(mark: Any, value: Any) -> bool:
    number = int(value) if isinstance(value, int) and not isinstance(value, bool) else 0
    digit = number // 10 % 10 if mark.digit == "tens" else number % 10
    return number > 0 and (mark.digit == "units" or number >= 10) and mark.value == digit


def filled(version: str, paper: str, values: Mapping[str, Any], tone: int = 70, share: float = 0.8) -> Image:
    """The castle sheet with the marks of `values` filled: a disc of graphite `tone`, `share` of each mark's size."""
    the_map, grey = sheet_image(version, paper)
    return fill_marks(the_map, grey, values, tone, share)


def rendered(page: Any, render: float = RENDER) -> Image:
    """A page (generator.render.model.Page) rasterised in grey at `render` pixels per point."""
    import io

    from generator.backends.pdf import write_pdf
    from generator.pdfium_lock import page_grey

    buffer = io.BytesIO()
    write_pdf([page], buffer, title="test")
    return page_grey(buffer.getvalue(), scale=render)


def fill_marks(the_map: MarkMap, grey: Image, values: Mapping[str, Any], tone: int = 70,
               share: float = 0.8) -> Image:
    """Any sheet rasterised at RENDER (`grey`) with the marks of `values` filled, as :func:`filled` fills them."""
    image = grey.copy()
    for mark, fill in zip(the_map.marks, marks_for(the_map, values), strict=True):
        if fill:
            cx, cy = (mark.x + mark.width / 2) * RENDER, (mark.y + mark.height / 2) * RENDER
            if mark.shape == "figure":
                cv2.rectangle(image, (round(mark.x * RENDER + mark.width * RENDER * 0.25), round(cy - 1)),
                              (round(mark.x * RENDER + mark.width * RENDER * 0.75),
                               round((mark.y + mark.height * 0.92) * RENDER)), tone, -1)
                cv2.circle(image, (round(cx), round((mark.y + mark.height * 0.22) * RENDER)),
                           round(mark.width * RENDER * 0.14), tone, -1)
            else:
                cv2.circle(image, (round(cx), round(cy)), round(mark.width / 2 * RENDER * share), tone, -1)
    return image


def photograph(image: Image, turn: float = 0.0, tilt: float = 0.08, size: tuple[int, int] = (1600, 1200),
               quality: int = 85, background: int = 90) -> bytes:
    """`image` (grey, or colour in BGR) photographed: turned by `turn` degrees, in perspective (`tilt` shrinks one
    edge by that share), on a table, as a JPEG of `size`."""
    h, w = image.shape[:2]
    width, height = size
    scale = 0.85 * min(width, height) / max(w, h) if turn % 180 else 0.85 * min(width / w, height / h)
    if turn % 180 and not turn % 90:
        scale = 0.85 * min(width / h, height / w)
    angle = math.radians(turn)
    centre = np.array([width / 2, height / 2])
    corners = np.array([(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]) * scale
    corners[0, 0] += tilt * w * scale / 2
    corners[1, 0] -= tilt * w * scale / 2
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    placed = (corners @ rot.T + centre).astype(np.float32)
    src = np.array([(0, 0), (w, 0), (w, h), (0, h)], dtype=np.float32)
    homography = cv2.getPerspectiveTransform(src, placed)
    photo = cv2.warpPerspective(image, homography, (width, height), flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_CONSTANT,
                                borderValue=background if image.ndim == 2 else (background,) * 3)
    ok, data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return bytes(data.tobytes())


#: Inks as a marker or coloured pencil leaves them on white paper (RGB), and how much of the paper each covers.
YELLOW_FELT = ((250, 222, 30), 1.0)
ORANGE_PENCIL = ((245, 150, 45), 0.9)
BLUE_BALLPOINT = ((40, 60, 190), 1.0)
#: A warm room's light on the paper (RGB gains): the paper reads cream, not white.
WARM = (1.0, 0.94, 0.8)


def coloured_sheet(residents: tuple[tuple[int, int, int], float], bubbles: tuple[tuple[int, int, int], float],
                    values: dict[str, object]) -> np.ndarray:
    """The Great Architect sheet (BGR) under a warm light, its residents coloured in with one ink, its bubbles
    filled with another; a share of the paper under each stroke is left (a pencil's grain)."""
    the_map, grey = sheet_image("great-architect", "a4")
    rgb = grey[..., None].astype(np.float32) * np.ones(3, np.float32)
    rng = np.random.default_rng(3)
    for mark, fill in zip(the_map.marks, marks_for(the_map, values), strict=True):
        if not fill:
            continue
        (colour, cover) = residents if mark.shape == "figure" else bubbles
        mask = np.zeros(grey.shape, np.uint8)
        cx, cy = (mark.x + mark.width / 2) * RENDER, (mark.y + mark.height / 2) * RENDER
        if mark.shape == "figure":
            cv2.rectangle(mask, (round((mark.x + mark.width * 0.25) * RENDER), round(cy - 1)),
                          (round((mark.x + mark.width * 0.75) * RENDER), round((mark.y + mark.height * 0.92) * RENDER)),
                          1, -1)
            cv2.circle(mask, (round(cx), round((mark.y + mark.height * 0.22) * RENDER)),
                       round(mark.width * RENDER * 0.14), 1, -1)
        else:
            cv2.circle(mask, (round(cx), round(cy)), round(mark.width / 2 * RENDER * 0.8), 1, -1)
        inked = (mask > 0) & (rng.random(grey.shape) < cover)
        rgb[inked] *= np.array(colour, np.float32) / 255  # ink is transparent: it takes its colour from the paper
    lit = np.clip(rgb * np.array(WARM, np.float32), 0, 255).astype(np.uint8)
    return np.ascontiguousarray(lit[..., ::-1])


def prints_compared(monkeypatch: Any) -> list[Any]:
    """The prints (SheetKind, one a language) the photo reader compares photos with, in the order it reads them:
    each photo's choice of generator.sheets.photo_marks.printed_language, recorded as the reader makes it."""
    from generator.sheets import photo_marks, photos

    chosen: list[Any] = []
    choose = photo_marks.printed_language

    def recorded(kinds: Any, paper: str, sheet: Any, valid: Any) -> Any:
        chosen.append(choose(kinds, paper, sheet, valid))
        return chosen[-1]

    monkeypatch.setattr(photos, "printed_language", recorded)
    return chosen


def expected(version: str, paper: str, values: Mapping[str, Any]) -> dict[str, object]:
    """The end state's sheet the values make, as the reader must give it (without the player)."""
    the_map, _ = sheet_image(version, paper)
    return end_state_sheet(interpret(the_map, marks_for(the_map, values)).values, {})[0]


#: A Great Architect castle: 3 floors, towers 5, 2, -, 5; walls 1, 2, 4 with flags; the Sun; 2 sky clouds;
#: 12 residents; the Queen and the Jester.
GREAT = {"donjon_floors": 3, "towers[0]": 5, "towers[1]": 2, "towers[3]": 5, "walls[0]": True, "walls[1]": True,
         "walls[3]": True, "walls[0].flags[0]": 2, "walls[1].flags[0]": 1, "walls[1].flags[1]": 2, "sun": False,
         "sky_clouds": 2, "residents": 12, "guests": ["queen", "jester"]}
#: An Apprentice castle: 2 floors with their guests' VP (3 and 7), all four towers (2, 5, 5, 2) and the Sun.
APPRENTICE = {"donjon_floors": 2, "towers[0]": 2, "towers[1]": 5, "towers[2]": 5, "towers[3]": 2, "walls[2]": True,
              "walls[2].flags[1]": 1, "sun": True, "residents": 5, "guests[0]": 3, "guests[1]": 7}
