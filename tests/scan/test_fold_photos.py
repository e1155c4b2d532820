"""Photos of the `fold` family (benchmarks/scan_photos.py --families fold --seed 32), regenerated as the benchmark
makes them (tests/scan/test_seed21_silent.py's helper: the benchmark's own photo, sheets at 300 dpi, its
megapixels), that were asked about for no reason a player could act on.

The face of a fold turned to the light is brighter than the paper around it, so the reader takes it for glare
there, and reads a mark under glare only when its printed outline is as dark as the sheet's usual one (glare
washes print out). The empty resident figures on that face were compared with the sheet's usual figure outline,
which coloured figures set (pencil over the print reads about 1.6 times an empty figure's outline): an empty figure
in plain light reads 0.64-0.67 of it, so under any bright light it looked washed out (0.60-0.68) and was asked
about. An empty figure's outline is compared with the sheet's empty figures' (seed 32 photo 8: 0.97-0.99 of them).
"""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from generator.games.castle.sheets import kinds  # noqa: E402
from generator.sheets.photos import read_photo  # noqa: E402
from tests.scan import test_seed21_silent as seed21  # noqa: E402
from tests.sheets.helpers import shipped  # noqa: E402


def test_empty_figures_on_a_folds_lit_face_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seed21, "SEED", 32)
    sheet, photo = seed21.benchmark_photo("fold", 8, render=300 / 72, megapixels=None)
    read = read_photo(photo.data, "photo.jpg", kinds(shipped()))
    verdict = seed21.families.judge(sheet.map, photo, [r.state for r in read.reads], read.reading)
    asked = [(mark.field, mark.value, r.code) for mark, r in zip(sheet.map.marks, read.reads, strict=True)
             if r.state is None]
    assert verdict.outcome == "right", asked
    assert verdict.confident_wrong == 0
