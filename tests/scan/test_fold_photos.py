"""Photos of the `fold` family (benchmarks/scan_photos.py --families fold --seed 32), regenerated as the benchmark
makes them (tests/scan/test_seed21_silent.py's helper: the benchmark's own photo, sheets at 300 dpi, its
megapixels), that were asked about for no reason a player could act on.

The face of a fold turned to the light is brighter than the paper around it, so the reader takes it for glare
there, and reads a mark under glare only when its printed outline is as dark as the sheet's usual one (glare
washes print out). The empty resident figures on that face were compared with the sheet's usual figure outline,
which coloured figures set (pencil over the print reads about 1.6 times an empty figure's outline): an empty figure
in plain light reads 0.64-0.67 of it, so under any bright light it looked washed out (0.60-0.68) and was asked
about. An empty figure's outline is compared with the sheet's empty figures' (seed 32 photo 8: 0.97-0.99 of them).

A fold also bends the sheet between neighbouring bubbles, so the place their refinements agree on can miss one by a
pixel or two: a bubble keeps its own refined place where its outline is seen better there (photo 3).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("cv2")

from generator.sheets.photo_marks import NOWHERE, Measure, _seen_better  # noqa: E402
from tests.scan import test_seed21_silent as seed21  # noqa: E402


def test_empty_figures_on_a_folds_lit_face_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seed21, "SEED", 32)
    sheet, photo, read, verdict = seed21.read_judged("fold", 8)
    asked = [(mark.field, mark.value, r.code) for mark, r in zip(sheet.map.marks, read.reads, strict=True)
             if r.state is None]
    assert verdict.outcome == "right", asked
    assert verdict.confident_wrong == 0


def test_a_bubble_keeps_its_own_place_where_its_outline_is_seen_better(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 32, fold photo 3: on the fold, the plane through tower 0's neighbours put its 9 2.2 pixels off its own
    outline, where the outline's edge read as ink at one side of the bubble (0.14 of it, nothing through the
    middle) and the bubble, under the fold's bright face, was asked about as glare; at its own place its outline
    reads 1.22 times darker and nothing is inked."""
    monkeypatch.setattr(seed21, "SEED", 32)
    sheet, photo, read, verdict = seed21.read_judged("fold", 3)
    nine = next(i for i, mark in enumerate(sheet.map.marks)
                if (mark.field, mark.digit, mark.value) == ("towers[0]", "units", 9))
    assert photo.truth[nine] is False, "the benchmark's photo: tower 0's 9 is empty"
    assert read.reads[nine].state is False, read.reads[nine]
    assert verdict.outcome == "right"


def _measured(cover: float, middle: float, edge_share: float, outline: float) -> Measure:
    return replace(NOWHERE, glare=0.0, outside=0.0, cover=cover, middle=middle, edge_share=edge_share, outline=outline)


@pytest.mark.parametrize(("own", "agreed", "kept"), [
    # the outline seen better, the same ink: its own place
    (_measured(0.30, 0.5, 0.1, 0.24), _measured(0.27, 0.5, 0.1, 0.20), True),
    # ... but not seen better enough: the neighbours' place
    (_measured(0.30, 0.5, 0.1, 0.22), _measured(0.27, 0.5, 0.1, 0.20), False),
    # nothing at its own place, an edge's ink at theirs (the outline read half off): its own
    (_measured(0.0, 0.0, 0.0, 0.24), _measured(0.14, 0.0, 0.52, 0.20), True),
    # nothing at its own place, ink through the middle at theirs (a tick): never moved off it
    (_measured(0.0, 0.0, 0.0, 0.24), _measured(0.14, 0.3, 0.52, 0.20), False),
    # ink at its own place, none at theirs (a stroke beside it pulled its own place): theirs
    (_measured(0.20, 0.2, 0.5, 0.24), _measured(0.0, 0.0, 0.0, 0.20), False),
])
def test_seen_better(own: Measure, agreed: Measure, kept: bool) -> None:
    assert _seen_better(own, agreed) is kept


def test_a_mark_moved_by_a_crease_is_asked_about_not_read_off_its_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 14, fold photo 12: the crease (8 mm high) runs through floor 2 of the donjon and moved it 13 pixels
    (2.3 mm) from where the tiles around it put it; read there, a stray stroke beside the bubble crossed the place
    read and floor 2 was decided built (0.35 of it inked, through the middle) without a question. Its printed outline
    fits far better where it is (0.45 against 0.22), where nothing is inked: the two places disagree, so it is
    asked about, with the fold as the reason."""
    monkeypatch.setattr(seed21, "SEED", 14)
    sheet, photo = seed21.benchmark_photo("fold", 12, render=300 / 72, megapixels=None)
    seed21.read_asked(sheet, photo, "donjon_floors", 2, "bent", truth=False)
