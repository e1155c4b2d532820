"""`--annotate` pictures leave the sheet's printed words readable: a mark's ink ("100%") was written over the word
printed beside its bubble ("Été", "Hiver" hidden), in every language."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("cv2")

from generator.catalog.translations import localise  # noqa: E402
from generator.games.castle.sheets import drawn  # noqa: E402
from generator.sheets.photos import ANNOTATE_LONG_SIDE, annotation, read_photo  # noqa: E402
from tests.scan.helpers import GREAT, RENDER, fill_marks, photograph, rendered  # noqa: E402
from tests.sheets.helpers import shipped  # noqa: E402

#: Printed ink, as a reader sees it: darker than this grey (0 black, 255 white); a word holds a pixel darker than
#: WORD_BLACK (its letters are printed black).
INK = 160
WORD_BLACK = 60


def word_boxes(grey: Any, marks: list[tuple[float, float, float, float]]) -> list[tuple[int, int, int, int]]:
    """The printed words of a sheet rendered at RENDER px/pt, each a box (left, top, right, bottom) in points: its
    dark pixels joined letter to letter (2 px across), but the marks' own outlines and anything larger than a word
    (frames, rules, the corner markers)."""
    import cv2
    import numpy as np

    dark = (np.asarray(grey) < INK).astype(np.uint8)
    for x, y, w, h in marks:  # the bubbles are marks, not words
        dark[int(y * RENDER) - 1:int((y + h) * RENDER) + 2, int(x * RENDER) - 1:int((x + w) * RENDER) + 2] = 0
    joined = cv2.dilate(dark, np.ones((3, 5), np.uint8))
    count, components, stats, _ = cv2.connectedComponentsWithStats(joined)
    darkest = np.full(count, 255)
    np.minimum.at(darkest, components.ravel().astype(np.intp), np.asarray(grey).ravel())
    boxes = []
    for index, (left, top, width, height, _) in enumerate(stats[1:count], start=1):
        # a word: black (a drawing's dashed outlines are grey), 3.5 to 14 pt high (a 7 pt digit's height to a
        # heading's), at most 120 pt long
        if darkest[index] < WORD_BLACK and 3.5 * RENDER <= height <= 14 * RENDER and width <= 120 * RENDER:
            boxes.append((left / RENDER, top / RENDER, (left + width) / RENDER, (top + height) / RENDER))
    return boxes


@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_a_marks_ink_is_written_over_no_printed_word(code: str) -> None:
    """A photo of a filled Great Architect sheet printed in `code`: no ink label ("100%") covers more than a square
    point of any printed word's box (measured on the sheet as rendered, in the sheet's points). Before, 6 did in each
    language, 4 to 236 square points each ("construite", "étage 3", "built", a tower's digit)."""
    import cv2
    import numpy as np

    content = shipped() if code == "en" else localise(shipped(), code)
    sheet = drawn(content, "great-architect", "a4", "scan")
    assert sheet.map is not None
    page = rendered(sheet.page())
    photo = read_photo(photograph(fill_marks(sheet.map, page, GREAT), turn=0.0, tilt=0.0), "ana.jpg", _kinds())
    words = word_boxes(page, [(m.x, m.y, m.width, m.height) for m in sheet.map.marks])
    assert len(words) > 20  # the sheet's words were found
    _, labels = annotation(photo)
    inks = [label for label in labels if label.text.endswith("%")]
    assert len(inks) >= 10
    scale = min(1.0, ANNOTATE_LONG_SIDE / max(photo.grey.shape))
    to_sheet = np.linalg.inv(np.diag([scale, scale, 1.0]) @ photo.located.homography)
    hidden = []
    for label in inks:
        x0, y0, x1, y1 = label.box
        box = np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float64)
        corners = cv2.perspectiveTransform(box, to_sheet)[0]
        left, top = corners.min(axis=0)
        right, bottom = corners.max(axis=0)
        for word in words:  # the overlap of the ink's box with each printed word's box, in square points
            across = max(0.0, min(right, word[2]) - max(left, word[0]))
            area = across * max(0.0, min(bottom, word[3]) - max(top, word[1]))
            if area > 1.0:
                hidden.append((label.text, tuple(round(v) for v in word), round(area, 1)))
    assert hidden == [], hidden


def _kinds() -> list[Any]:
    """The castle's sheets a photo may show (each version, in every language)."""
    from generator.games.castle.sheets import kinds

    return list(kinds(shipped()))
