"""A shadow over an empty bubble (issue 27): a finger's or a pen's shadow, smaller than the reader's reach for the
paper (generator.sheets.photo_marks.PAPER_REACH_MM), darkens the inside of an empty bubble as a light fill would.
It darkens the paper just outside the printed outline as much, where a fill stops at the outline: such a bubble is
never read filled (seed 61, finger-over-marks photo 4, an HB sheet: the finger's shadow read as a fill). The
player's own ink around the outline is no shadow: it darkens the paper outside far more than the inside (a circle
drawn around a bubble, tests/scan/test_seed33_silent.py; a scribble spilling past it, below).

A flat sheet, the bubbles of GREAT filled in graphite, a shadow laid by hand over an empty bubble of the third
tower (not built: its bubbles empty); a photo of 1600 x 1200."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from generator.games.castle.sheets import kinds  # noqa: E402
from generator.sheets.photos import read_photo  # noqa: E402
from tests.scan.helpers import GREAT, RENDER, filled, marks_for, photograph, sheet_image  # noqa: E402
from tests.sheets.helpers import shipped  # noqa: E402

#: the shadow's darkening (the benchmark's finger shadow takes 35 % of the light) and its radius, a share of the
#: bubble's: over the whole bubble and the paper around it, yet narrower than the reader's reach for the paper
SHADE = 0.35
REACH = 1.9


def shadowed_read(field: str, value: int) -> tuple[bool | None, bool]:
    """The read of `field`'s bubble `value` with a shadow over it, and whether it was filled."""
    the_map, _ = sheet_image("great-architect", "a4")
    image = filled("great-architect", "a4", GREAT, tone=110)
    index, mark = next((i, m) for i, m in enumerate(the_map.marks) if m.field == field and m.value == value)
    cx, cy = (mark.x + mark.width / 2) * RENDER, (mark.y + mark.height / 2) * RENDER
    shade = np.zeros(image.shape, np.float32)
    cv2.circle(shade, (round(cx), round(cy)), round(mark.width / 2 * RENDER * REACH), 1.0, -1)
    shade = cv2.GaussianBlur(shade, (0, 0), 1.0)
    shadowed = np.clip(image.astype(np.float32) * (1.0 - SHADE * shade), 0, 255).astype(np.uint8)
    result = read_photo(photograph(shadowed), "photo.jpg", kinds(shipped()))
    return result.reads[index].state, marks_for(the_map, GREAT)[index]


@pytest.mark.parametrize("value", [2, 5, 8])
def test_an_empty_bubble_in_a_shadow_is_not_read_filled(value: int) -> None:
    state, was_filled = shadowed_read("towers[2]", value)
    assert not was_filled
    assert state is not True


def test_a_filled_bubble_in_a_shadow_is_still_read_filled() -> None:
    # the fill stands out of the shadowed paper beside it
    state, was_filled = shadowed_read("towers[0]", 5)
    assert was_filled
    assert state is True


def test_a_fill_spilling_all_around_its_outline_is_read_filled() -> None:
    # a felt tip scribbled past the outline all around: the paper just outside is as dark, but far darker than a
    # shadow that leaves the outline readable
    the_map, _ = sheet_image("great-architect", "a4")
    image = filled("great-architect", "a4", GREAT, tone=110)
    index, mark = next((i, m) for i, m in enumerate(the_map.marks) if m.field == "towers[2]" and m.value == 5)
    cx, cy = (mark.x + mark.width / 2) * RENDER, (mark.y + mark.height / 2) * RENDER
    cv2.circle(image, (round(cx), round(cy)), round(mark.width / 2 * RENDER * 1.4), 40, -1)
    result = read_photo(photograph(image), "photo.jpg", kinds(shipped()))
    assert result.reads[index].state is True
