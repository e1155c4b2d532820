"""Glare over an HB pencil sheet where the one filled mark under the glare was pressed much darker than the
sheet's usual ink, and a light tick beside it was washed out by the glare.

The reader may read an empty-looking mark under glare as empty only where the sheet's own marks under glare (its
witnesses) show that the faintest mark the player could have made there would still be seen. A witness pressed
darker than the sheet's usual ink keeps more of its darkness than a mark of usual pressure would: taken at face
value it makes the ink look as if it hardly fades, and the washed-out tick is read empty, a silent wrong score.
Here the tick must be asked about (or read filled), never read empty; so too a tick far lighter than the sheet's
other ticks (a 2H pencil's grey on an HB sheet), which the reader knows only through its margins.

Four small photos (3 megapixels, a flat sheet, the glare spot placed by hand so that it always falls there).
"""

from __future__ import annotations

import importlib
import random
import sys
from dataclasses import replace
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

#: Tones (0 black, 255 paper) of the HB pencil: the sheet's usual pressure, the witness pressed hard, the light tick;
#: and a tick far lighter than the sheet's others (2H's grey).
USUAL, HARD, LIGHT, LIGHTEST = (105, 115), (30, 35), (125, 135), (165, 180)


@cache
def great_sheet() -> Any:
    the_map, image = sheet_image("great-architect", "a4")
    return families.Sheet(the_map, image, RENDER)


def index_of(the_map: Any, field: str, value: Any) -> int:
    return next(i for i, m in enumerate(the_map.marks) if m.field == field and m.value == value)


def photo(seed: int, strength: float, off_mm: tuple[float, float], radius_mm: float,
          light: tuple[float, float] = LIGHT) -> tuple[Any, int]:
    """The Great Architect castle GREAT filled in HB pencil: tower 1's "built" bubble filled hard (the witness),
    its units 5 ticked lightly (`light` its tones); glare of `strength` centred `off_mm` from the tick; the photo
    and the tick's index."""
    sheet = great_sheet()
    the_map = sheet.map
    truth = marks_for(the_map, GREAT)
    witness, tick = index_of(the_map, "towers[0]", "built"), index_of(the_map, "towers[0]", 5)
    assert truth[witness] and truth[tick]
    rng = random.Random(seed)
    image = sheet.image.copy()
    shine = np.where(image < 200, families.SHINE_PRINT, families.SHINE_PAPER).astype(np.float32)
    hb = families.INSTRUMENTS["hb"]
    for i, (mark, filled) in enumerate(zip(the_map.marks, truth, strict=True)):
        if not filled:
            continue
        if i == witness:
            pen, style = replace(hb, tone=HARD), "full"
        elif i == tick:
            pen, style = replace(hb, tone=light, keep=(0.9, 0.95)), "tick"
        else:
            pen = replace(hb, tone=USUAL)
            style = "figure" if mark.shape == "figure" else ("tick" if i % 3 == 0 else "full")
        families._ink(image, shine, families.style_mask(sheet, mark, style, pen, rng, the_map.marks), pen, rng)
    # the glare on the flat sheet itself (a lamp's reflection: a bright core and a wider halo, brightening each
    # thing by its shine, as the families' camera does), then a camera with no glare of its own
    mark = the_map.marks[tick]
    cx = (mark.x + mark.width / 2) * RENDER + off_mm[0] * sheet.px_per_mm
    cy = (mark.y + mark.height / 2) * RENDER + off_mm[1] * sheet.px_per_mm
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]].astype(np.float32)
    spread = ((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * (radius_mm * sheet.px_per_mm) ** 2)
    lobe = 0.7 * np.exp(-spread * 4) + 0.3 * np.exp(-spread)
    lit = np.clip(image.astype(np.float32) * 0.85 + lobe * strength * 255 * shine, 0, 255).astype(np.uint8)
    glared = families.Filled(sheet, lit, np.full(image.shape, families.SHINE_PAPER, np.float32), list(truth), {}, hb)
    camera = families.Camera(megapixels=(3.0,), turn=(-3, 3), tilt=(0, 3), curl_mm=(0, 0), gradient=(0, 0),
                             vignette=(0, 0), paper=(1, 1), noise=(1.5, 2.5), quality=(90, 92))
    return families.shoot(glared, rng, camera), tick


@pytest.mark.parametrize(("seed", "strength", "off_mm", "radius_mm", "light"), [
    (1, 0.6, (-4, -3), 12, LIGHT), (1, 0.6, (-5, -4), 16, LIGHT), (2, 0.6, (-5, -4), 16, LIGHT),
    # weaker glare, wider: the lightest tick washed out where the usual ones would still show
    (1, 0.35, (-4, -3), 20, LIGHTEST)])
def test_a_tick_washed_out_by_glare_is_not_read_empty_beside_a_witness_pressed_hard(
        seed: int, strength: float, off_mm: tuple[float, float], radius_mm: float, light: tuple[float, float]) -> None:
    shot, tick = photo(seed, strength, off_mm, radius_mm, light)
    read = read_photo(shot.data, "photo.jpg", kinds(shipped()))
    assert read.reads[tick].state is not False, read.reads[tick]
    wrong = [i for i, (r, t) in enumerate(zip(read.reads, shot.truth, strict=True)) if r.state not in (None, t)]
    assert not wrong, [(i, read.reads[i]) for i in wrong]
