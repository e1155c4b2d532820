"""A grainy photo of a sheet filled in HB pencil (issue 27, the guard of a6e4a20): the reader smooths a grainy photo
before reading it, graphite's grain with the camera's noise, and HB fills then read as smooth as ballpoint. Taken
for ink, the sheet would get the witness rule under glare (an empty-looking bubble read empty by its printed
outline), which holds for ink that shines no more than print, never for graphite. So the photo's own grain above
generator.sheets.photo_marks.INK_QUIET keeps the sheet read as pencil.

The benchmark's glare family (benchmarks/photo_families.py), every sheet filled in HB, with the noise family's
sensor noise (grain 13, where the guard acts); seed 80, photo 12: its HB fills read smooth without the guard. No
photo was found (70 tried) where the guard changes a mark's read, so this checks what the sheet is taken for."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip("cv2")

from generator.games.castle.sheets import kinds  # noqa: E402
from generator.sheets import photo_marks  # noqa: E402
from generator.sheets.photos import read_photo  # noqa: E402
from tests.scan import test_seed21_silent as seed21  # noqa: E402
from tests.sheets.helpers import shipped  # noqa: E402


def test_hb_fills_in_a_grainy_photo_are_not_taken_for_smooth_ink(monkeypatch: pytest.MonkeyPatch) -> None:
    glare = seed21.families.FAMILIES["glare"]
    grainy = replace(glare, name="grainy-glare", filling=replace(glare.filling, pens={"hb": 1.0}),
                     camera=replace(glare.camera, noise=(8, 16), glare=(0.9, 1.3)))
    monkeypatch.setitem(seed21.families.FAMILIES, "grainy-glare", grainy)
    monkeypatch.setattr(seed21, "SEED", 80)
    sheet, photo = seed21.benchmark_photo("grainy-glare", 12)
    assert photo.meta["pen"] == "hb" and photo.meta["noise"] >= 8, photo.meta
    seen: list[Any] = []
    taken = photo_marks.smooth_ink

    def smooth_ink(*args: Any, **kwargs: Any) -> Any:
        seen.append(taken(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(photo_marks, "smooth_ink", smooth_ink)
    read = read_photo(photo.data, "photo.jpg", kinds(shipped()))
    assert seen == [None]
    verdict = seed21.families.judge(sheet.map, photo, [r.state for r in read.reads], read.reading)
    assert verdict.outcome != "wrong" and verdict.confident_wrong == 0, verdict
