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

from typing import Any

import pytest

pytest.importorskip("cv2")

from tests.scan.helpers import GREAT  # noqa: E402
from tests.scan.test_glare_ink import glare_photo, great_sheet, read  # noqa: E402

#: Twenty residents coloured in: the sheet's figures are mostly coloured, their usual outline the dark one.
CASTLE = {**GREAT, "residents": 20}


def photo(pen: str, seed: int, strength: float, radius_mm: float) -> tuple[Any, int]:
    """CASTLE filled with `pen`; glare of `strength` centred on the 24th resident (empty); the photo and that
    figure's index."""
    marks = great_sheet().map.marks
    index = next(i for i, m in enumerate(marks) if m.field == "residents" and m.value == 24)
    shot, truth, _, _ = glare_photo(CASTLE, pen, seed, strength, radius_mm, lambda m: m is marks[index])
    assert not truth[index]
    return shot, index


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


@pytest.mark.parametrize("seed", [1, 2])
def test_a_pencil_figure_whose_drawing_glare_spared_is_not_read_empty_by_its_print(seed: int) -> None:
    # a wide glare (24 mm) over the figure: its printed drawing keeps 0.83-0.87 of the empty figures' (read before,
    # as mild glare), but graphite shines more than print, so the print does not show a light colouring in would
    # survive there; with no fill of the sheet's own to vouch under that glare it is asked about, never read empty
    shot, index = photo("hb", seed, 0.3, 24)
    result = read(shot)
    assert result.reads[index].state is None and result.reads[index].code == "glare", result.reads[index]
    wrong = [i for i, (r, t) in enumerate(zip(result.reads, shot.truth, strict=True)) if r.state not in (None, t)]
    assert not wrong, [(i, result.reads[i]) for i in wrong]
