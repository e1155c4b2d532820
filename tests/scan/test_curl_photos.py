"""A sheet curled at an angle moves its marks further than the tiles' usual search (issue 27, item 4): seed 34's
`curl` photo 10 (benchmarks/scan_photos.py --families all --seed 34, regenerated the way the benchmark makes it, as
tests/scan/test_seed21_silent.py does), a 33.6 mm curl shot at 33 degrees with a corner marker lifted with it, puts
the marks of the sheet's curled half 6.5-7.5 mm from where the four markers place them. The tiles were searched
6 mm around: their best matches lay at the edge of the search, were taken there, and pinned that half 1-2 mm short
of its print; 39 marks were read off their outlines and asked about as covered (none wrong). A tile whose best match
is at the edge of its search is searched again twice as far (photo_marks.WIDER)."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from tests.scan import test_seed21_silent as seed21  # noqa: E402


def test_a_curl_past_the_tiles_search_is_followed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seed21, "SEED", 34)
    sheet, photo, read, verdict = seed21.read_judged("curl", 10)
    assert verdict.confident_wrong == 0, verdict
    # the second tower's column, on the curled half, read where it is printed: every bubble decided, as drawn
    tower = [i for i, mark in enumerate(sheet.map.marks) if mark.field == "towers[1]"]
    assert [read.reads[i].state for i in tower] == [photo.truth[i] for i in tower], [read.reads[i] for i in tower]
    covered = sum(r.code == "covered" for r in read.reads)
    assert covered <= 15, covered  # 29 before (39 asked in all), 12 now (18)


def test_a_mark_moved_past_where_its_place_can_be_checked_is_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 37's `curl` photo 5: a 28.7 mm curl shot at 33 degrees moves the first column of guests, at the sheet's
    left edge, about 10 mm; the tiles' field, carried past the last tile that found its print, moved them 6.5 mm,
    onto the right half of their printed bubbles and the icons beside them, and what is printed around them ran off
    the photo there, so neither their own refinement nor the fit of their outlines could check the place: four empty
    guests were read filled and the photo scored wrong without a word. Such marks are asked about."""
    monkeypatch.setattr(seed21, "SEED", 37)
    sheet, photo, read, verdict = seed21.read_judged("curl", 5)
    assert verdict.confident_wrong == 0, verdict
    assert verdict.outcome != "wrong", verdict
    first = {"architect", "bohemian", "logger", "peasant"}
    column = [i for i, mark in enumerate(sheet.map.marks) if mark.field == "guests" and mark.value in first]
    assert len(column) == 4
    assert all(read.reads[i].state is None and read.reads[i].code == "bent" for i in column), \
        [read.reads[i] for i in column]
    # the rest of the guests, whose places could be checked, are still read as drawn
    others = [i for i, mark in enumerate(sheet.map.marks) if mark.field == "guests" and mark.value not in first]
    assert [read.reads[i].state for i in others] == [photo.truth[i] for i in others]
