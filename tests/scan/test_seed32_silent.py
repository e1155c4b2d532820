"""A photo of seed 32 of the hard-photo families (benchmarks/scan_photos.py --families all --seed 32) with a mark
decided against its truth, regenerated the way the benchmark makes it (as tests/scan/test_seed21_silent.py does):
the benchmark's own photo (sheets at 300 dpi, 12 megapixels, byte for byte), as at 3 megapixels it is asked about.

- `finger-over-marks` photo 17: a fingertip over towers 2 and 3; the tick of tower 2's 5, under the finger's edge
  (its printed outline 0.18 as dark as the sheet's usual, over half of it darkened), read 0.15 of the sheet's
  ticks and was decided a rubbed-out ghost, empty, without a question. The photo was asked about (its neighbours
  covered), so the score was not wrong, but a player confirming tower 2 by what was read would have lost the 5:
  a trace is a ghost only where the print around it is seen as the sheet's is.
- `erased-ghosts` photo 0 (8 megapixels; asked about at 3): **scored wrong without a flag**, the Merchant's tick
  rubbed out badly (to be asked about) read a guest: 0.54 of the sheet's ticks, 0.30 of its fills, above FAINT of
  both; its ink barely clears the paper's noise (90 % of it at half its peak; the sheet's drawn ticks 59-88 %).

- `erased-ghosts` photo 2 (8 megapixels): a resident figure rubbed out badly (to be asked about) read 0.43 of the
  sheet's fills and was counted (the residents field asked about for another figure): above FAINT (0.4) of them.
  A bubble cannot be asked about at half the fills (a real fill in a noisy photo reads 0.48), but a figure is
  coloured over several times a bubble's area, its ink's median steady: real ones read 0.73 of the fills or more.
"""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from tests.scan import test_seed21_silent as seed21  # noqa: E402


def test_a_tick_under_a_finger_is_not_read_a_ghost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seed21, "SEED", 32)
    sheet, photo = seed21.benchmark_photo("finger-over-marks", 17, render=300 / 72, megapixels=None)
    five = seed21.read_asked(sheet, photo, "towers[2]", 5, "covered", truth=True)
    assert five in photo.hidden, "the benchmark's photo: a tick under the finger"


def test_a_tick_rubbed_out_badly_is_not_read_a_guest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seed21, "SEED", 32)
    sheet, photo = seed21.benchmark_photo("erased-ghosts", 0, render=300 / 72, megapixels=None)
    seed21.read_asked(sheet, photo, "guests", "merchant", "ghost", truth=None)  # a value rubbed out badly


def test_a_figure_rubbed_out_badly_is_not_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seed21, "SEED", 32)
    sheet, photo = seed21.benchmark_photo("erased-ghosts", 2, render=300 / 72, megapixels=None)
    seed21.read_asked(sheet, photo, "residents", 29, "ghost", truth=None)  # a figure rubbed out badly


def test_a_trace_rubbed_out_badly_is_asked_about_not_decided_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 14, erased-ghosts photo 6: the Troll rubbed out badly (to be asked about: a quarter of its graphite or
    more left) read 0.14 of the sheet's fills and was decided a ghost, empty, without a question (its field was
    asked about for another mark: one answer away from a wrong score)."""
    monkeypatch.setattr(seed21, "SEED", 14)
    sheet, photo = seed21.benchmark_photo("erased-ghosts", 6, render=300 / 72, megapixels=None)
    seed21.read_asked(sheet, photo, "guests", "troll", "ghost", truth=None)
