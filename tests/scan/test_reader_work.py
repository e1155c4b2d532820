"""What the photo reader works out from the printed sheet alone (its darkness at the registration's scale, the blank
paper, each language's words) is the same for every photo of that sheet: the table companion and the benchmark read
many photos of one sheet, and each was paying for it again (issue 27: a 12 MP photo read in under 1.5 s). It is
kept, once per sheet, and a photo read after another reads exactly as it does alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("cv2")

from generator.games.castle.sheets import kinds  # noqa: E402
from generator.sheets import photo_marks, photos  # noqa: E402
from tests.scan.helpers import GREAT, filled, photograph  # noqa: E402
from tests.sheets.helpers import shipped  # noqa: E402


def counted(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """How many times photo_marks' function `name` runs from now on (one item a call)."""
    calls: list[int] = []
    original: Callable[..., Any] = getattr(photo_marks, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(photo_marks, name, counting)
    return calls


def test_the_printed_sheets_work_is_done_once_for_its_photos(monkeypatch: pytest.MonkeyPatch) -> None:
    sheet_kinds = kinds(shipped())
    data = photograph(filled("great-architect", "a4", GREAT))
    photos.read_photo(data, "drawn.jpg", sheet_kinds)  # the sheets drawn, rasterised, their print's darkness known
    monkeypatch.setattr(photo_marks, "_FROM_PRINT", {})  # ... and nothing kept from them yet
    coarse, words, grain = (counted(monkeypatch, name) for name in ("_coarse_print", "_words_print", "_grain"))
    first = photos.read_photo(data, "first.jpg", sheet_kinds)
    assert len(coarse) == 1 and len(words) == len(first.located.kind.in_languages()) > 1
    # the photo's grain, asked for by the light's smoothing and by the ink's grain, is measured once
    assert len(grain) == 1
    again = photos.read_photo(data, "again.jpg", sheet_kinds)
    assert len(coarse) == 1 and len(words) == len(first.located.kind.in_languages()) and len(grain) == 2
    assert again.reads == first.reads and again.reading.values == first.reading.values
    assert again.reading.uncertain == first.reading.uncertain


def test_what_is_kept_cannot_be_changed_by_a_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """Photos are read in the companion's threads, two at once, from the same kept arrays: none may be written."""
    monkeypatch.setattr(photo_marks, "_FROM_PRINT", {})
    photos.read_photo(photograph(filled("great-architect", "a4", GREAT)), "photo.jpg", kinds(shipped()))
    arrays: list[Any] = []

    def gather(value: Any) -> None:
        if isinstance(value, tuple):
            for one in value:
                gather(one)
        else:
            arrays.append(value)

    for _, found in photo_marks._FROM_PRINT.values():
        for value in found.values():
            gather(value)
    assert len(arrays) > 3 and not any(a.flags.writeable for a in arrays)


def test_each_print_is_rasterised_to_the_pixels_of_its_pdf_as_written() -> None:
    """The prints the reader compares photos with are rasterised from a PDF left uncompressed (no deflating, only
    for pdfium to inflate it again): the pixels of the PDF a build writes, English, French and German alike."""
    import io

    import numpy as np

    from generator.backends.pdf import write_pdf
    from generator.pdfium_lock import page_grey

    kind = next(k for k in kinds(shipped()) if k.map("a4").version == "great-architect")
    for each in kind.in_languages():
        page = each.drawn("scan", "a4").page()
        written = io.BytesIO()
        write_pdf([page], written, title="scan-ready sheet")
        assert np.array_equal(photo_marks.rasterise(page, photo_marks.SCALE),
                              page_grey(written.getvalue(), 0, scale=photo_marks.SCALE)), each.lang
    assert len(kind.in_languages()) == 3
