"""A photo of seed 31 of the hard-photo families (benchmarks/scan_photos.py --families all --seed 31) scored wrong
without a flag, regenerated the way the benchmark makes it (as tests/scan/test_seed21_silent.py does), small here
(3 megapixels of the sheets at 150 dpi), where it still read wrong before the fix.

- `finger-over-marks` photo 1: a fingertip over the 12-point group of residents, the first figure of the group
  (the 26th resident) coloured in under it. The reader reads that figure empty (confidence 0.81) and the
  residents one short, without a question: its "printed outline cannot be seen" check compares a figure's
  outline darkness with the sheet's usual one, learned from the sheet's empty figures, and here the only empty
  figures were those under the finger: the usual was the finger's shade, and nothing looked covered. Every
  figure now tells the usual (a figure's print is as dark coloured in as not).
- `erased-ghosts` photo 1 (only on the benchmark's sheets at 300 dpi: at 150 dpi it was asked): the Guard's bubble
  holds a tick rubbed out badly (a person must be asked), a quarter of the darkness the pen's ticks left on the
  paper, read a guest. The eraser smeared it wider than a drawn line, so the camera's blur took less of its
  darkness than of the sheet's drawn ticks, and against those (the usual thin ink) it read 0.45 of them, just
  above the 0.4 under which a mark is asked about; against the sheet's fills it read 0.18.

Near misses of the same family (issue 27 item 1: "a ghost beside a mark is asked about when it is close"), marks a
person must be asked about that were decided filled, the photo saved only because another mark of the same field
was asked (a player answering that question would have been scored wrong); the benchmark now counts them:
- photo 10: a fill rubbed out badly beside the tower's tick read 0.69 of the tick and was decided a second value;
  a line reads about half what a fill of the same pen does, so it is now compared with the tick's pen as a fill.
- photo 11: a tick rubbed out badly among the guests read 0.42 of the sheet's drawn ticks, just above FAINT; its
  ink barely clears the paper's noise (no crisp line): on a sheet whose fills show the pen's darkness, such a
  trace is asked about up to GHOST_CLOSE (0.65) of the line that pen draws.
- photo 7: a resident figure rubbed out badly, its patchy trace no wider than a line, was compared with the
  sheet's ticks (0.66 of them) and counted; a figure is coloured in, a fill: against the fills it reads 0.28.

And a photo asked about with marks decided against their truth: `gradient` photo 0, the fourth tower's column placed
a bubble's pitch (6 mm) below its printed bubbles: at the sheet's right edge two tiles moved in onto one place
matched it a pitch off, and voted twice with their neighbours against the tile that matched it right.
"""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from generator.games.castle.sheets import kinds  # noqa: E402
from generator.sheets.photos import read_photo  # noqa: E402
from tests.scan import test_seed21_silent as seed21  # noqa: E402
from tests.sheets.helpers import shipped  # noqa: E402


def test_a_figure_under_a_finger_is_not_read_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seed21, "SEED", 31)
    sheet, photo = seed21.benchmark_photo("finger-over-marks", 1)
    read = read_photo(photo.data, "photo.jpg", kinds(shipped()))
    verdict = seed21.families.judge(sheet.map, photo, [r.state for r in read.reads], read.reading)
    assert verdict.outcome != "wrong", verdict.wrong
    wrong = [(i, r) for i, (r, t) in enumerate(zip(read.reads, photo.truth, strict=True))
             if r.state is not None and r.state != t]
    assert not wrong, wrong


def test_a_tick_rubbed_out_badly_is_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seed21, "SEED", 31)
    sheet, photo = seed21.benchmark_photo("erased-ghosts", 1, render=300 / 72)
    guard = next(i for i, mark in enumerate(sheet.map.marks) if mark.field == "guests" and mark.value == "guard")
    assert photo.truth[guard] is None, "the photo of the benchmark: a ghost rubbed out badly in the Guard's bubble"
    read = read_photo(photo.data, "photo.jpg", kinds(shipped()))
    verdict = seed21.families.judge(sheet.map, photo, [r.state for r in read.reads], read.reading)
    assert verdict.outcome != "wrong", verdict.wrong
    assert read.reads[guard].state is None and read.reads[guard].code == "ghost", read.reads[guard]
    wrong = [(i, r) for i, (r, t) in enumerate(zip(read.reads, photo.truth, strict=True))
             if r.state is not None and r.state != t]
    assert not wrong, wrong


@pytest.mark.parametrize(("index", "field", "value", "megapixels"), [
    (10, "towers[2]", 8, 3.0), (11, "guests", "merchant", 3.0),
    # at 3 megapixels this one is asked about: the benchmark's own photo (12 megapixels, byte for byte)
    (7, "residents", 4, None)])
def test_a_mark_rubbed_out_badly_is_asked_not_decided(monkeypatch: pytest.MonkeyPatch, index: int, field: str,
                                                      value: object, megapixels: float | None) -> None:
    monkeypatch.setattr(seed21, "SEED", 31)
    sheet, photo = seed21.benchmark_photo("erased-ghosts", index, render=300 / 72, megapixels=megapixels)
    seed21.read_asked(sheet, photo, field, value, "ghost", truth=None)  # a value rubbed out badly


def test_a_scribble_run_into_the_bubble_below_is_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    # scribbles photo 13 (the benchmark's own, 300-dpi sheets, its megapixels): tower 4's "built" scribbled past its
    # edge, the stroke running on through the middle of the 0 below it (0.36 of it inked): read filled, the tower's
    # field saved only by its two values; the stroke crosses the gap unbroken from the filled neighbour
    monkeypatch.setattr(seed21, "SEED", 31)
    sheet, photo = seed21.benchmark_photo("scribbles", 13, render=300 / 72, megapixels=None)
    seed21.read_asked(sheet, photo, "towers[3]", 0, "spill", truth=False)  # an empty bubble


def test_tiles_moved_in_onto_one_place_vote_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seed21, "SEED", 31)
    sheet, photo = seed21.benchmark_photo("gradient", 0, render=300 / 72, megapixels=None)
    read = read_photo(photo.data, "photo.jpg", kinds(shipped()))
    verdict = seed21.families.judge(sheet.map, photo, [r.state for r in read.reads], read.reading)
    assert verdict.outcome == "right" and verdict.confident_wrong == 0, (verdict.outcome, verdict.wrong)
