"""Glare over empty bubbles of a sheet filled in ink, and of one filled in pencil, with no filled mark of the player's
under the glare (no witness of how the player's ink fades there).

Ballpoint and felt-tip ink shine no more than the printed outline, so where the outline is still plainly seen, a
tick in that ink would be too: the empty bubbles are read empty, the photo read without a question (felt tip here:
half the benchmark's ballpoint sheets read too grainy to be told from pencil, and keep the witness rule). Graphite shines
more than print (a pencil mark drowns first), and its grainy fills tell it: there the empty bubbles stay asked about.
At the edge of a broad glare, past where the reader finds it, an empty bubble whose outline is washed out is asked
about on a pencil sheet too. Nothing is ever read wrong.

Small photos (3 megapixels, a flat sheet, the glare spot placed by hand over the fourth tower's bubbles).
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Callable
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


@cache
def great_sheet() -> Any:
    the_map, image = sheet_image("great-architect", "a4")
    return families.Sheet(the_map, image, RENDER)


def glare_photo(castle: dict[str, Any], pen: str, seed: int, strength: float, radius_mm: float,
                at: Callable[[Any], bool], paper: float = 0.85) -> tuple[Any, list[bool], float, float]:
    """`castle` filled with `pen` (bubbles filled whole, residents coloured in), a glare of `strength` and
    `radius_mm` centred on the mark `at` picks, on a sheet lit to `paper` of white, photographed flat at 3
    megapixels: the photo, the marks' truth and the glare's centre on the sheet image (pixels)."""
    sheet = great_sheet()
    the_map = sheet.map
    truth = marks_for(the_map, castle)
    rng = random.Random(seed)
    image = sheet.image.copy()
    shine = np.where(image < 200, families.SHINE_PRINT, families.SHINE_PAPER).astype(np.float32)
    instrument = families.INSTRUMENTS[pen]
    for mark, filled in zip(the_map.marks, truth, strict=True):
        if filled:
            style = "figure" if mark.shape == "figure" else "full"
            families._ink(image, shine, families.style_mask(sheet, mark, style, instrument, rng, the_map.marks),
                          instrument, rng)
    centre = next(m for m in the_map.marks if at(m))
    cx = (centre.x + centre.width / 2) * RENDER
    cy = (centre.y + centre.height / 2) * RENDER
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]].astype(np.float32)
    spread = ((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * (radius_mm * sheet.px_per_mm) ** 2)
    lobe = 0.7 * np.exp(-spread * 4) + 0.3 * np.exp(-spread)
    # the glare on the flat sheet itself, each thing brightened by its shine (as the families' camera does), then
    # a camera with no glare of its own
    lit = np.clip(image.astype(np.float32) * paper + lobe * strength * 255 * shine, 0, 255).astype(np.uint8)
    glared = families.Filled(sheet, lit, np.full(image.shape, families.SHINE_PAPER, np.float32), list(truth), {},
                             instrument)
    camera = families.Camera(megapixels=(3.0,), turn=(-3, 3), tilt=(0, 3), curl_mm=(0, 0), gradient=(0, 0),
                             vignette=(0, 0), paper=(1, 1), noise=(1.5, 2.5), quality=(90, 92))
    return families.shoot(glared, rng, camera), truth, cx, cy


def photo(pen: str, seed: int, strength: float, radius_mm: float) -> tuple[Any, list[int]]:
    """The Great Architect castle GREAT filled with `pen`; glare of `strength` centred on the third tower's "5"
    (that tower not built: its bubbles empty); the photo and the indexes of the marks under the glare's core."""
    shot, truth, cx, cy = glare_photo(GREAT, pen, seed, strength, radius_mm,
                                      lambda m: m.field == "towers[2]" and m.value == 5)
    sheet = great_sheet()
    under = [i for i, m in enumerate(sheet.map.marks)
             if np.hypot((m.x + m.width / 2) * RENDER - cx, (m.y + m.height / 2) * RENDER - cy)
             < radius_mm * sheet.px_per_mm / 2]
    assert under and not any(truth[i] for i in under)
    return shot, under


def read(shot: Any) -> Any:
    result = read_photo(shot.data, "photo.jpg", kinds(shipped()))
    wrong = [i for i, (r, t) in enumerate(zip(result.reads, shot.truth, strict=True)) if r.state not in (None, t)]
    assert not wrong, [(i, result.reads[i]) for i in wrong]
    return result


def test_empty_bubbles_under_glare_on_an_ink_sheet_are_read_by_their_printed_outline() -> None:
    shot, under = photo("felt", 1, 0.3, 14)
    result = read(shot)
    assert all(result.reads[i].state is False for i in under), [result.reads[i] for i in under]
    assert not result.reading.uncertain, result.reading.uncertain


def test_the_same_glare_on_a_pencil_sheet_is_still_asked_about() -> None:
    shot, under = photo("hb", 1, 0.3, 14)
    result = read(shot)
    assert any(result.reads[i].state is None and result.reads[i].code == "glare" for i in under)
    assert [u for u in result.reading.uncertain if u.field == "towers[2]"], result.reading.uncertain


def test_an_empty_bubble_at_the_edge_of_a_broad_glare_is_asked_about_on_a_pencil_sheet() -> None:
    # a broad lamp's halo lifts the paper around it too, so where glare is found falls short of where it still
    # drowns a pencil line: the second flag of the third wall lies at that edge, its outline washed out; the
    # lightest line an HB pencil draws would keep less than a third of its contrast there (the benchmark's
    # measure), so an empty look there proves nothing (it was read empty)
    strength, radius_mm = 0.8, 30
    shot, _ = photo("hb", 1, strength, radius_mm)
    sheet = great_sheet()
    index, edge = next((i, m) for i, m in enumerate(sheet.map.marks) if m.field == "walls[2].flags[1]" and m.value == 2)
    centre = next(m for m in sheet.map.marks if m.field == "towers[2]" and m.value == 5)
    spread = (((edge.x + edge.width / 2) - (centre.x + centre.width / 2)) ** 2 +
              ((edge.y + edge.height / 2) - (centre.y + centre.height / 2)) ** 2) * RENDER ** 2 / (
        2 * (radius_mm * sheet.px_per_mm) ** 2)
    glare = (0.7 * np.exp(-spread * 4) + 0.3 * np.exp(-spread)) * strength * 255
    hb = families.INSTRUMENTS["hb"]
    assert families._drowned(hb.tone[1], hb.shine, min(255.0, 220 + glare * families.SHINE_PAPER), glare)
    assert shot.truth[index] is False
    result = read(shot)
    assert result.reads[index].state is None and result.reads[index].code == "glare", result.reads[index]
    assert [u for u in result.reading.uncertain if u.field == "walls[2].flags[1]"], result.reading.uncertain


def test_a_bubble_just_outside_the_glare_found_with_its_outline_washed_out_is_asked_about() -> None:
    # the glare family's photo of seed 125 (tests/scan/test_hard_photos.py): the second tower's "5" and "6", empty,
    # lie outside the glare the reader finds but within GLARE_EDGE_MM of it, their paper lifted and outlines washed
    # out: asked about (they were read empty; on the benchmark's seed 69 photo 11 such a bubble, filled in HB, was)
    from tests.scan.test_hard_photos import castle_photo

    sheet, shot = castle_photo("glare", 125)
    result = read(shot)
    edge = [i for i, m in enumerate(sheet.map.marks) if m.field == "towers[1]" and m.value in (5, 6)]
    assert len(edge) == 2 and not any(shot.truth[i] for i in edge)
    assert all(result.reads[i].state is None and result.reads[i].code == "glare" for i in edge), \
        [result.reads[i] for i in edge]
