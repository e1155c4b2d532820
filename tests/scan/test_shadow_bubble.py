"""A shadow over an empty bubble (issue 27): a finger's or a pen's shadow, smaller than the reader's reach for the
paper (generator.sheets.photo_marks.PAPER_REACH_MM), darkens the inside of an empty bubble as a light fill would.
It darkens the paper just outside the printed outline as much, where a fill stops at the outline: such a bubble is
never read filled (seed 61, finger-over-marks photo 4, an HB sheet: the finger's shadow read as a fill). The
player's own ink around the outline is no shadow: it darkens the paper outside far more than the inside (a circle
drawn around a bubble, tests/scan/test_seed33_silent.py; a scribble spilling past it, below). A light pencil fill
spilt a little past the outline all around darkens inside and just outside alike, as a shadow does, but leaves the
paper further out clean: asked about as a light mark, where a shadow is asked about as covering the bubble.

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


def shadowed_read(field: str, value: int) -> tuple[bool | None, bool, str]:
    """The read of `field`'s bubble `value` with a shadow over it, whether it was filled, and the reason's code."""
    the_map, _ = sheet_image("great-architect", "a4")
    image = filled("great-architect", "a4", GREAT, tone=110)
    index, mark = next((i, m) for i, m in enumerate(the_map.marks) if m.field == field and m.value == value)
    cx, cy = (mark.x + mark.width / 2) * RENDER, (mark.y + mark.height / 2) * RENDER
    shade = np.zeros(image.shape, np.float32)
    cv2.circle(shade, (round(cx), round(cy)), round(mark.width / 2 * RENDER * REACH), 1.0, -1)
    shade = cv2.GaussianBlur(shade, (0, 0), 1.0)
    shadowed = np.clip(image.astype(np.float32) * (1.0 - SHADE * shade), 0, 255).astype(np.uint8)
    result = read_photo(photograph(shadowed), "photo.jpg", kinds(shipped()))
    return result.reads[index].state, marks_for(the_map, GREAT)[index], result.reads[index].code


@pytest.mark.parametrize("value", [2, 5, 8])
def test_an_empty_bubble_in_a_shadow_is_not_read_filled(value: int) -> None:
    state, was_filled, code = shadowed_read("towers[2]", value)
    assert not was_filled
    assert state is not True
    # asked about as covered: the shadow darkens the paper further out too (tell the player what hid it)
    assert state is not None or code == "covered"


def test_a_filled_bubble_in_a_shadow_is_still_read_filled() -> None:
    # the fill stands out of the shadowed paper beside it
    state, was_filled, _ = shadowed_read("towers[0]", 5)
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


def test_a_light_pencil_fill_spilling_evenly_past_its_outline_is_asked_about_as_faint_not_covered() -> None:
    # an HB fill pressed lightly (grey 190 of 255, grainy) a little past the outline all around: inside and just
    # outside alike and light, as under a shadow, but the paper further out is clean: the player's own mark, asked
    # about as a light mark (look at the sheet, fill darker), not as something covering it (move your hand away)
    the_map, _ = sheet_image("great-architect", "a4")
    image = filled("great-architect", "a4", GREAT, tone=110)
    index, mark = next((i, m) for i, m in enumerate(the_map.marks) if m.field == "towers[2]" and m.value == 5)
    cx, cy = (mark.x + mark.width / 2) * RENDER, (mark.y + mark.height / 2) * RENDER
    disc = np.zeros(image.shape, np.uint8)
    cv2.circle(disc, (round(cx), round(cy)), round(mark.width / 2 * RENDER * 1.45), 1, -1)
    graphite = np.clip(190 + np.random.default_rng(3).normal(0, 12, image.shape), 0, 255)
    image = np.where(disc > 0, np.minimum(image, graphite), image).astype(np.uint8)
    result = read_photo(photograph(image), "photo.jpg", kinds(shipped()))
    read = result.reads[index]
    assert read.state is None and read.code == "faint", read
    assert "past its outline" in read.why
    asked = [u for u in result.reading.uncertain if u.field == "towers[2]"]
    assert asked and asked[0].code == "faint", result.reading.uncertain
