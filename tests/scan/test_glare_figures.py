"""Glare over empty resident figures of a sheet coloured in with felt tip, most of its residents coloured in.

An empty mark under glare is read by its printed outline (`photo_marks.by_print`) against how the photo shows the
outlines of the sheet's marks with nothing in them, like with like: a figure coloured in reads its outline about
1.6 times darker by the ink over it, so against the sheet's usual figure (most of them coloured in here) an empty
figure's outline read as washed out to 0.4 where glare had washed it to 0.8 of its empty neighbours', and the
figure was asked about though a colouring-in in felt tip would plainly show there. On a pencil sheet the same
figure stays asked about (graphite drowns first). Nothing is ever read wrong.

Small photos (3 megapixels, a flat sheet, the glare spot placed by hand over the 24th resident).
"""

from __future__ import annotations

import importlib
import random
import sys
from functools import cache
from typing import Any

import pytest

pytest.importorskip("cv2")

import numpy as np  # noqa: E402

from generator.games.castle.sheets import kinds  # noqa: E402
from generator.sheets.photos import read_photo  # noqa: E402
from tests.scan.helpers import GREAT, RENDER, marks_for, sheet_image  # noqa: E402
from tests.sheets.helpers import REPO, shipped  # noqa: E402

sys.path.insert(0, str(REPO / "benchmarks"))
families: Any = importlib.import_module("photo_families")

#: Twenty residents coloured in: the sheet's figures are mostly coloured, their usual outline the dark one.
CASTLE = {**GREAT, "residents": 20}


@cache
def great_sheet() -> Any:
    the_map, image = sheet_image("great-architect", "a4")
    return families.Sheet(the_map, image, RENDER)


def photo(pen: str, seed: int, strength: float, radius_mm: float) -> tuple[Any, int]:
    """CASTLE filled with `pen` (bubbles filled whole, residents coloured in); glare of `strength` centred on the
    24th resident (empty); the photo and that figure's index."""
    sheet = great_sheet()
    the_map = sheet.map
    truth = marks_for(the_map, CASTLE)
    rng = random.Random(seed)
    image = sheet.image.copy()
    shine = np.where(image < 200, families.SHINE_PRINT, families.SHINE_PAPER).astype(np.float32)
    instrument = families.INSTRUMENTS[pen]
    for mark, filled in zip(the_map.marks, truth, strict=True):
        if filled:
            style = "figure" if mark.shape == "figure" else "full"
            families._ink(image, shine, families.style_mask(sheet, mark, style, instrument, rng, the_map.marks),
                          instrument, rng)
    index = next(i for i, m in enumerate(the_map.marks) if m.field == "residents" and m.value == 24)
    centre = the_map.marks[index]
    assert not truth[index]
    cx = (centre.x + centre.width / 2) * RENDER
    cy = (centre.y + centre.height / 2) * RENDER
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]].astype(np.float32)
    spread = ((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * (radius_mm * sheet.px_per_mm) ** 2)
    lobe = 0.7 * np.exp(-spread * 4) + 0.3 * np.exp(-spread)
    # the glare on the flat sheet itself, each thing brightened by its shine (as the families' camera does), then
    # a camera with no glare of its own
    lit = np.clip(image.astype(np.float32) * 0.85 + lobe * strength * 255 * shine, 0, 255).astype(np.uint8)
    glared = families.Filled(sheet, lit, np.full(image.shape, families.SHINE_PAPER, np.float32), list(truth), {},
                             instrument)
    camera = families.Camera(megapixels=(3.0,), turn=(-3, 3), tilt=(0, 3), curl_mm=(0, 0), gradient=(0, 0),
                             vignette=(0, 0), paper=(1, 1), noise=(1.5, 2.5), quality=(90, 92))
    return families.shoot(glared, rng, camera), index


def read(shot: Any) -> Any:
    result = read_photo(shot.data, "photo.jpg", kinds(shipped()))
    wrong = [i for i, (r, t) in enumerate(zip(result.reads, shot.truth, strict=True)) if r.state not in (None, t)]
    assert not wrong, [(i, result.reads[i]) for i in wrong]
    return result


@pytest.mark.parametrize("radius_mm", [10, 16])
def test_an_empty_figure_under_glare_is_read_against_the_empty_figures(radius_mm: float) -> None:
    shot, index = photo("felt", 1, 0.3, radius_mm)
    result = read(shot)
    assert result.reads[index].state is False, result.reads[index]
    assert not result.reading.uncertain, result.reading.uncertain


def test_the_same_figure_on_a_pencil_sheet_is_still_asked_about() -> None:
    shot, index = photo("hb", 1, 0.3, 10)
    result = read(shot)
    assert result.reads[index].state is None and result.reads[index].code == "glare", result.reads[index]
    assert [u for u in result.reading.uncertain if u.field == "residents"], result.reading.uncertain
