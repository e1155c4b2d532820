"""A fill rubbed out badly is asked about up to 0.55 of the sheet's fills (issue 27 item 1: "a ghost beside a mark is
asked about when it is close"; "never silently wrong"): `photo_marks.FILL_FAINT`. A tick rubbed out badly is compared
with the sheet's own ticks and crosses, never with its residents (`Usual.thin`)."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from dataclasses import replace  # noqa: E402

from generator.sheets.marks import Mark  # noqa: E402
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


def test_a_tick_rubbed_out_badly_is_compared_with_the_ticks_not_the_residents() -> None:
    """Residents rubbed out (or coloured in a little) read as faint, narrow ink over part of the figure: counted
    among the sheet's ticks and crosses, two of them pulled the sheet's usual tick from 0.39 to 0.25, and a tick
    rubbed out badly (0.18, no dark core) then read 0.72 of it: decided a guest. Against the ticks it reads 0.46,
    and is asked about."""
    ticks = [replace(dark._ink(level, 0.0, cover=0.4), wide=0.8, core=0.3) for level in (0.33, 0.46, 0.56)]
    faded = [replace(dark._ink(0.13, 1.0, cover=0.61), wide=1.35, core=0.61, spread=0.45) for _ in range(2)]
    ghost = replace(dark._ink(0.18, 0.08, cover=0.5), wide=1.3, core=0.48, spread=0.58)
    measures = [dark._ink(0.47, 0.93) for _ in range(5)] + ticks + faded + [ghost]
    marks = dark._marks(8) + [Mark("residents", f"r{i}", "figure", 300.0 + 20 * i, 10.0, 10.0, 16.0)
                              for i in range(2)] + [Mark("guests", "merchant", "circle", 400.0, 10.0, 8.0, 8.0)]
    reads = dark._settled(measures, marks)
    assert (reads[-1].state, reads[-1].code) == (None, "ghost")
    assert [r.state for r in reads[:8]] == [True] * 8  # the fills and the ticks themselves are read


def test_the_merchant_ticked_then_rubbed_out_badly_is_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark's seed 41, erased-ghosts photo 12: the Merchant ticked, then rubbed out badly, read 0.70 of the
    sheet's usual tick, which its two residents rubbed out had pulled down, and was decided a guest (the photo was
    asked about for other marks: a player confirming those would have scored the Merchant without a word)."""
    monkeypatch.setattr(seed21, "SEED", 41)
    sheet, photo = seed21.benchmark_photo("erased-ghosts", 12, render=300 / 72, megapixels=None)
    seed21.read_asked(sheet, photo, "guests", "merchant", "ghost", truth=None)
