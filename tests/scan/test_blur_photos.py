"""Photos of the `blur` family (benchmarks/scan_photos.py --families blur --seed 14), regenerated as the benchmark
makes them (tests/scan/test_seed21_silent.py's helper: the benchmark's own photo), asked about for no reason a
player could act on.

In a soft photo (its markers' edges rise over 0.5 mm or more; sharp photos give 0.2-0.4) a tick's ink spreads over
the bubble, so it looked broad and was compared with the sheet's fills: a tick reads a third of a fill's darkness
and was asked about as rubbed out. A line keeps a dark core with paler flanks however soft the photo, which a fill
or a smeared trace does not: such a mark is compared with the sheet's lines.

The camera's blur spreads the printed lines too: what the printed sheet explains of a mark's darkness is the print
spread as much as the photo is blurred (seed 34), not as a sharp photo spreads it.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("cv2")

from generator.games.castle.sheets import kinds  # noqa: E402
from generator.sheets.photo_marks import NOWHERE, SOFT_PHOTO_MM, Measure, _broad  # noqa: E402
from generator.sheets.photos import read_photo  # noqa: E402
from tests.scan import test_seed21_silent as seed21  # noqa: E402
from tests.sheets.helpers import shipped  # noqa: E402


def test_a_tick_in_a_soft_photo_is_read_not_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 14, blur photo 10 (its markers' edges 0.80 mm soft): wall 3's first flag ticked (0.91 of the bubble
    inked, 0.20 dark, 0.69 of it at half its peak) was the one field asked about."""
    monkeypatch.setattr(seed21, "SEED", 14)
    sheet, photo = seed21.benchmark_photo("blur", 10, render=300 / 72, megapixels=None)
    read = read_photo(photo.data, "photo.jpg", kinds(shipped()))
    assert read.located.blur >= SOFT_PHOTO_MM
    flag = next(i for i, mark in enumerate(sheet.map.marks) if (mark.field, mark.value) == ("walls[3].flags[0]", 1))
    assert photo.truth[flag] is True, "the benchmark's photo: the flag is ticked"
    assert read.reads[flag].state is True, read.reads[flag]
    verdict = seed21.families.judge(sheet.map, photo, [r.state for r in read.reads], read.reading)
    assert verdict.outcome == "right"


def test_empty_figures_in_a_soft_photo_are_read_not_asked_about_as_covered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 14, blur photo 5: most residents coloured in, whose outlines read darker by the ink over them; the
    empty ones' outlines, softened by the blur, read 0.39 of theirs and were asked about as covered. A figure that
    looks empty is now compared with how dark the photo shows its own printed drawing."""
    monkeypatch.setattr(seed21, "SEED", 14)
    sheet, photo = seed21.benchmark_photo("blur", 5, render=300 / 72, megapixels=None)
    read = read_photo(photo.data, "photo.jpg", kinds(shipped()))
    figures = [i for i, mark in enumerate(sheet.map.marks) if mark.field == "residents"]
    assert sum(photo.truth[i] is False for i in figures) >= 10 and any(photo.truth[i] for i in figures)
    assert [read.reads[i].state for i in figures] == [photo.truth[i] for i in figures]
    verdict = seed21.families.judge(sheet.map, photo, [r.state for r in read.reads], read.reading)
    assert verdict.outcome == "right" and verdict.confident_wrong == 0


@pytest.mark.parametrize("number", [7, 15])
def test_the_blur_of_an_empty_figures_own_drawing_is_not_ink(monkeypatch: pytest.MonkeyPatch, number: int) -> None:
    """Seed 34, blur photos 7 and 15 (their markers' edges 0.92 mm soft): an empty resident read 17-18 % inked by its
    own drawing's blur, past what the printed sheet's spread took away (spread as a sharp photo spreads it), and was
    asked about as rubbed out. The print is now spread as much as the camera blurred the photo."""
    monkeypatch.setattr(seed21, "SEED", 34)
    sheet, photo = seed21.benchmark_photo("blur", number, render=300 / 72, megapixels=None)
    read = read_photo(photo.data, "photo.jpg", kinds(shipped()))
    assert read.located.blur >= SOFT_PHOTO_MM
    figures = [i for i, mark in enumerate(sheet.map.marks) if mark.field == "residents"]
    assert [read.reads[i].state for i in figures] == [photo.truth[i] for i in figures], \
        [(i, read.reads[i]) for i in figures if read.reads[i].state != photo.truth[i]]
    verdict = seed21.families.judge(sheet.map, photo, [r.state for r in read.reads], read.reading)
    assert verdict.outcome == "right" and verdict.confident_wrong == 0


def _ink(cover: float, core: float, wide: float = 0.5) -> Measure:
    return replace(NOWHERE, outside=0.0, cover=cover, core=core, wide=wide)


@pytest.mark.parametrize(("ink", "blur", "broad"), [
    (_ink(0.91, 0.69), 0.8, False),   # a tick, its ink spread by a soft photo: a line
    (_ink(0.91, 0.69), 0.3, True),    # the same ink in a sharp photo: broad (a fill's edge, a smear)
    (_ink(0.91, 0.95), 0.8, True),    # even ink in a soft photo: a fill or a smeared trace
    (_ink(0.30, 0.20), 0.3, False),   # a tick in a sharp photo
    (_ink(0.30, 0.29, wide=2.0), 0.3, True),  # a blob
])
def test_broad(ink: Measure, blur: float, broad: bool) -> None:
    assert _broad(ink, blur) is broad
