"""A fill rubbed out badly is asked about up to 0.55 of the sheet's fills (issue 27 item 1: "a ghost beside a mark is
asked about when it is close"; "never silently wrong"): `photo_marks.FILL_FAINT`."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from tests.scan import test_dark_ghosts as dark  # noqa: E402
from tests.scan import test_seed21_silent as seed21  # noqa: E402


@pytest.mark.parametrize(("level", "state", "code"), [
    (0.25, None, "ghost"),  # 0.42 of the fills: what is left of a fill rubbed out badly, or one filled very lightly
    (0.29, None, "ghost"),  # 0.48 of them: as dark as a trace rubbed out badly can be (seed 41), asked about
    (0.35, True, ""),       # 0.58 of them: a fill pressed lightly, read
])
def test_a_fill_under_half_the_sheets_fills_is_asked_about(level: float, state: bool | None, code: str) -> None:
    fills = [dark._ink(0.60, 0.93) for _ in range(5)]
    reads = dark._settled(fills + [dark._ink(level, 0.93)])
    assert (reads[-1].state, reads[-1].code) == (state, code)
    assert [r.state for r in reads[:-1]] == [True] * len(fills)


def test_the_prince_rubbed_out_badly_is_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark's seed 14, erased-ghosts photo 13: the Prince filled, then rubbed out badly (a third of its
    graphite left), read 0.41 of the sheet's fills and was decided a guest; the photo was asked about for other
    marks, so the player confirming those would have scored the Prince without a word."""
    monkeypatch.setattr(seed21, "SEED", 14)
    sheet, photo = seed21.benchmark_photo("erased-ghosts", 13, render=300 / 72, megapixels=None)
    seed21.read_asked(sheet, photo, "guests", "prince", "ghost", truth=None)


def test_the_shepherdess_rubbed_out_badly_is_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark's seed 41, erased-ghosts photo 0: the Shepherdess filled, then rubbed out badly, read 0.451 of
    the sheet's fills, just past the 0.45 the line then was, and was decided a guest (the photo was asked about for
    its Magician, so a player confirming that would have scored the Shepherdess without a word)."""
    monkeypatch.setattr(seed21, "SEED", 41)
    sheet, photo = seed21.benchmark_photo("erased-ghosts", 0, render=300 / 72, megapixels=None)
    seed21.read_asked(sheet, photo, "guests", "shepherdess", "ghost", truth=None)
