"""Glare over empty bubbles of a sheet filled in felt tip, no filled mark of the player's under it: the printed
outline stands witness (`photo_marks.by_print`), with a margin measured on the photo itself (issue 27).

How much brighter the glare is over a bubble's middle than over its outline is read on the paper's lift there
(`glare_peak`); the light's own unevenness on the marks away from glare, and how much the sheet's empty outlines
spread there, are read on the photo too (`unlit`). A broad glare lifts a bubble's middle hardly more than its
outline: its empty bubbles are read empty (with the fixed margin of 1.5 they were asked about). A strong glare that
washes the outlines out to half still leaves them asked about: the outline no longer proves a tick would show.

Small photos (3 megapixels, a flat sheet lit to 70 % of white, the glare placed by hand over the third tower's "5",
that tower not built: its bubbles empty).
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("cv2")

import numpy as np  # noqa: E402

from generator.sheets import photo_marks  # noqa: E402
from generator.sheets.marks import Mark  # noqa: E402
from tests.scan.helpers import GREAT  # noqa: E402
from tests.scan.test_glare_ink import glare_photo, read  # noqa: E402


def felt_photo(strength: float, radius_mm: float) -> Any:
    shot, _, _, _ = glare_photo(GREAT, "felt", 1, strength, radius_mm,
                                lambda m: m.field == "towers[2]" and m.value == 5, paper=0.7)
    return shot


def test_empty_bubbles_under_a_broad_glare_are_read_by_a_margin_measured_on_the_photo() -> None:
    shot = felt_photo(0.45, 20)
    result = read(shot)
    assert not result.reading.uncertain, result.reading.uncertain
    tower = [r for r, m in zip(result.reads, result.map.marks, strict=True) if m.field == "towers[2]"]
    assert tower and all(r.state is False for r in tower), tower


def test_bubbles_whose_outlines_glare_washed_out_to_half_are_still_asked_about() -> None:
    shot = felt_photo(0.9, 30)
    result = read(shot)
    asked = [u for u in result.reading.uncertain if u.field == "towers[2]"]
    assert asked and all(u.code == "glare" for u in asked), result.reading.uncertain


def bubble() -> tuple[Mark, Any]:
    mark = Mark(field="towers[0]", value=5, shape="circle", x=10.0, y=10.0, width=8.0, height=8.0)
    x, y, w, h = photo_marks._window(mark)
    return mark, photo_marks.Measure(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, x, y)


def test_a_glare_peaking_over_a_bubbles_middle_is_taken_as_brighter_there_than_over_its_outline() -> None:
    mark, m = bubble()
    _, _, w, h = photo_marks._window(mark)
    ys, xs = np.mgrid[0:m.y + h + 10, 0:m.x + w + 10].astype(np.float32)
    peak = 0.3 * np.exp(-((xs - m.x - (w - 1) / 2) ** 2 + (ys - m.y - (h - 1) / 2) ** 2) / (2 * (w / 2) ** 2))
    assert photo_marks.glare_peak(mark, m, peak, 0.0) > 1.3


def test_a_glare_sloping_across_a_bubble_is_taken_as_bright_over_its_middle_as_over_its_outline() -> None:
    mark, m = bubble()
    _, _, w, h = photo_marks._window(mark)
    ys, xs = np.mgrid[0:m.y + h + 10, 0:m.x + w + 10].astype(np.float32)
    slope = 0.05 + 0.004 * xs
    assert photo_marks.glare_peak(mark, m, slope, 0.0) < 1.05
    # the light's own unevenness (here 0.05) is not glare: what is left of the lift over the outline is less
    assert photo_marks.glare_peak(mark, m, slope, 0.05) >= photo_marks.glare_peak(mark, m, slope, 0.0)
