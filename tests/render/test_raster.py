"""Geometry checked on the printed page: PDFs rasterised with pdfium, then measured like a ruler would.

Cards are flat colours (each differs from its neighbours) and backs flat yellow with a black square in one
corner, so edges, crop marks and the way up of a back can be read off the pixels. Tolerances are 1.5 px at
100 dpi (0.4 mm), well under what a home cut can hold.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from render_helpers import COLOURS, FLAT, MARKED_BACK, flat_rows, make_deck, render_page, run

if TYPE_CHECKING:
    from PIL.Image import Image

DPI = 100.0
PX_PER_MM = DPI / 25.4
TOLERANCE = 1.5
YELLOW = (0xFF, 0xCC, 0x00)
PALETTE = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in COLOURS]


@lru_cache(maxsize=None)
def classify(pixel: tuple[int, int, int]) -> str:
    r, g, b = pixel
    if r > 235 and g > 235 and b > 235:
        return "white"
    if max(pixel) < 215 and max(pixel) - min(pixel) < 25:
        return "dark"  # black, or a grey anti-aliased hairline of black
    for name, ref in [*((str(i), c) for i, c in enumerate(PALETTE)), ("yellow", YELLOW)]:
        if sum(abs(a - e) for a, e in zip(pixel, ref)) < 40:
            return name
    return "other"


def runs(image: Image, *, row: int | None = None, column: int | None = None) -> list[tuple[int, int, str]]:
    """Runs of one class along a row or a column (anti-aliased pixels between runs are dropped)."""
    px = image.load()
    assert px is not None
    line = row if row is not None else column
    assert line is not None, "runs along a row or a column: give one"
    length = image.size[0] if row is not None else image.size[1]
    out: list[tuple[int, int, str]] = []
    start, current = 0, None
    for i in range(length + 1):
        kind = None if i == length else classify(px[i, line] if row is not None else px[line, i])
        if kind != current:
            if current not in (None, "other") and i - start >= 3:
                out.append((start, i, current))
            start, current = i, kind
    return out


def edges(found: list[tuple[int, int, str]], ignore: tuple[str, ...] = ("white",)) -> list[float]:
    """Where one card's colour begins or ends along a line (boundaries between runs, merged when adjacent)."""
    out: list[float] = []
    for start, end, kind in found:
        if kind in ignore:
            continue
        for edge in (start, end):
            if out and abs(out[-1] - edge) <= 3:
                out[-1] = (out[-1] + edge) / 2
            else:
                out.append(float(edge))
    return out


def marks(image: Image, axis: str, limit: int) -> list[float]:
    """Centres of the crop marks in the top margin (x positions) or the left margin (y positions).

    `limit` is where the cards begin (their top edge, or their left edge); the band just before it is left
    out, where the marks along the other side of the grid start."""
    px = image.load()
    assert px is not None
    width, height = image.size
    if axis == "x":
        hits = [x for x in range(width) if any(classify(px[x, y]) == "dark" for y in range(0, limit - 4))]
    else:
        hits = [y for y in range(height) if any(classify(px[x, y]) == "dark" for x in range(0, limit - 4))]
    centres: list[list[int]] = []
    for h in hits:
        if centres and h - centres[-1][-1] <= 1:
            centres[-1].append(h)
        else:
            centres.append([h])
    return [sum(c) / len(c) for c in centres]


def first_coloured(image: Image, *, row: int | None = None, column: int | None = None) -> int:
    found = [r for r in runs(image, row=row, column=column) if r[2] not in ("white", "dark")]
    return found[0][0]


def grid_corner(image: Image) -> tuple[int, int]:
    """The top and the left edge of the cards on a page (the first coloured row and column)."""
    width, height = image.size
    top = min(first_coloured(image, column=x) for x in range(0, width, 7)
              if any(r[2] not in ("white", "dark") for r in runs(image, column=x)))
    left = min(first_coloured(image, row=y) for y in range(top, height, 7)
               if any(r[2] not in ("white", "dark") for r in runs(image, row=y)))
    return top, left


def build(tmp_path: Path, cards: int, *args: str) -> Path:
    deck = make_deck(tmp_path / "deck", flat_rows(cards), layout=FLAT, back=MARKED_BACK)
    out = tmp_path / "out"
    result = run("build", "--content", str(deck), "--out", str(out), "--format", "pdf", *args)
    assert result.exit_code == 0, result.stderr
    return out / "decks" / "test-deck.pdf"


def close(a: list[float], b: list[float], tolerance: float = TOLERANCE) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= tolerance for x, y in zip(a, b))


@pytest.mark.parametrize("args", [(), ("--paper", "letter"), ("--orientation", "landscape"), ("--gutter", "4mm")])
def test_card_corners_are_where_the_crop_marks_point(tmp_path: Path, args: tuple[str, ...]) -> None:
    page = render_page(build(tmp_path, 12, *args), 0, DPI)
    top, left = grid_corner(page)
    middle_row = top + int(20 * PX_PER_MM)  # through the first row of cards
    middle_col = left + int(20 * PX_PER_MM)  # through the first column
    across = edges(runs(page, row=middle_row))
    down = edges(runs(page, column=middle_col))
    mark_x = marks(page, "x", top)
    mark_y = marks(page, "y", left)
    assert close(mark_x, across), (mark_x, across)
    assert close(mark_y, down), (mark_y, down)
    # a poker card measures 63 x 88 mm on the page
    assert abs((across[1] - across[0]) / PX_PER_MM - 63) < 0.5
    assert abs((down[1] - down[0]) / PX_PER_MM - 88) < 0.5


def test_crop_marks_are_never_on_a_card(tmp_path: Path) -> None:
    page = render_page(build(tmp_path, 9, "--crop-length", "8mm", "--crop-width", "1"), 0, DPI)
    top, left = grid_corner(page)
    width, height = page.size
    bottom = max(r[1] for x in range(left, width, 11) for r in runs(page, column=x) if r[2] not in ("white", "dark"))
    right = max(r[1] for y in range(top, bottom, 11) for r in runs(page, row=y) if r[2] not in ("white", "dark"))
    inside = page.crop((left, top, right, bottom)).getcolors(1 << 16)
    assert inside is not None
    assert [colour for _count, colour in inside if classify(colour) == "dark"] == []
    assert len(marks(page, "x", top)) == 4 and len(marks(page, "y", left)) == 4  # and the marks are outside


def test_bleed_extends_the_background_past_the_trim(tmp_path: Path) -> None:
    page = render_page(build(tmp_path, 9, "--bleed", "--orientation", "landscape"), 0, DPI)
    top, _left = grid_corner(page)
    trims = marks(page, "x", top)  # crop marks show the trim lines
    row = top + int(20 * PX_PER_MM)
    px = page.load()
    assert px is not None
    bleed = 3 * PX_PER_MM
    assert len(trims) == 6  # 3 cards across, each with its own bleed: two trim lines per card
    for index in range(0, len(trims), 2):
        left, right = trims[index], trims[index + 1]
        inside = classify(px[int(left + 10), row])
        assert inside in {str(i) for i in range(len(COLOURS))}
        for x in (left - bleed / 2, right + bleed / 2):  # in the bleed: the card's own colour
            assert classify(px[int(x), row]) == inside
    # beyond the outermost bleed: paper
    assert classify(px[int(trims[0] - bleed - 3), row]) == "white"
    assert classify(px[int(trims[-1] + bleed + 3), row]) == "white"
    assert abs((trims[1] - trims[0]) / PX_PER_MM - 63) < 0.5


def test_no_bleed_means_nothing_past_the_trim(tmp_path: Path) -> None:
    page = render_page(build(tmp_path, 9, "--gutter", "6mm"), 0, DPI)
    top, _left = grid_corner(page)
    trims = marks(page, "x", top)
    row = top + int(20 * PX_PER_MM)
    px = page.load()
    assert px is not None
    for index in range(0, len(trims), 2):
        assert classify(px[int(trims[index] - 1.5 * PX_PER_MM), row]) == "white"


def boxes(image: Image, colours: set[str]) -> list[tuple[float, float, float, float]]:
    """Bounding boxes (left, top, right, bottom) of the cards on a page, found along scan lines."""
    width, height = image.size
    found: list[tuple[float, float, float, float]] = []
    for y in range(0, height, 10):
        for start, end, kind in runs(image, row=y):
            if kind not in colours or end - start < 30 * PX_PER_MM:
                continue
            column = [r for r in runs(image, column=(start + end) // 2) if r[0] <= y < r[1]]
            if not column:
                continue
            top, bottom = column[0][0], column[0][1]
            # measure across again at the card's middle, clear of any mark in its corners
            middle = [r for r in runs(image, row=(top + bottom) // 2) if r[0] <= (start + end) // 2 < r[1]]
            box = (float(middle[0][0]), float(top), float(middle[0][1]), float(bottom))
            if not any(all(abs(a - b) <= 3 for a, b in zip(box, other)) for other in found):
                found.append(box)
    return sorted(found, key=lambda b: (b[1], b[0]))


# Each case prints a partly filled last row, so that a back placed without mirroring would show.
@pytest.mark.parametrize(("args", "cards", "axis", "bleed_mm"), [
    ((), 5, "vertical", 0),                                   # portrait, long edge: mirror the columns (3 x 3)
    (("--duplex", "short"), 5, "horizontal", 0),              # portrait, short edge: mirror the rows, turn
    (("--orientation", "landscape"), 5, "horizontal", 0),     # landscape, long edge (4 x 2)
    (("--orientation", "landscape", "--duplex", "short"), 5, "vertical", 0),
    (("--paper", "letter", "--bleed", "--gutter", "2mm"), 3, "vertical", 3.175),  # 2 x 2 with bleed
])
def test_backs_land_behind_their_fronts(tmp_path: Path, args: tuple[str, ...], cards: int, axis: str,
                                        bleed_mm: float) -> None:
    pdf = build(tmp_path, cards, *args)
    fronts = render_page(pdf, 0, DPI)
    backs = render_page(pdf, 1, DPI)
    width, height = fronts.size
    card_colours = {str(i) for i in range(len(COLOURS))}
    front_boxes = boxes(fronts, card_colours)
    back_boxes = boxes(backs, {"yellow"})
    assert len(front_boxes) == len(back_boxes) == cards
    border = 2 * PX_PER_MM  # the back's yellow face sits 2 mm inside its edge
    bleed = bleed_mm * PX_PER_MM  # a front's colour runs into its bleed; the back's face stays inside the trim
    front_boxes = [(l + bleed, t + bleed, r - bleed, b - bleed) for l, t, r, b in front_boxes]
    if axis == "vertical":
        expected = [(width - r + border, t + border, width - l - border, b - border) for l, t, r, b in front_boxes]
    else:
        expected = [(l + border, height - b + border, r - border, height - t - border) for l, t, r, b in front_boxes]
    for box in expected:
        assert any(all(abs(a - b) <= TOLERANCE + 1 for a, b in zip(box, back)) for back in back_boxes), \
            (box, back_boxes)
    # which way up: the black square is in the back's top-left corner when upright, bottom-right when turned
    px = backs.load()
    assert px is not None
    inset = 5 * PX_PER_MM  # inside the black square (2 mm past the face's corner) when it is there
    for l, t, r, b in back_boxes:
        top_left = classify(px[int(l + inset), int(t + inset)])
        bottom_right = classify(px[int(r - inset), int(b - inset)])
        assert (top_left, bottom_right) == (("dark", "yellow") if axis == "vertical" else ("yellow", "dark"))


def test_back_offset_moves_the_backs(tmp_path: Path) -> None:
    plain = boxes(render_page(build(tmp_path / "a", 9), 1, DPI), {"yellow"})
    moved = boxes(render_page(build(tmp_path / "b", 9, "--back-offset", "2,-1"), 1, DPI), {"yellow"})
    assert len(plain) == len(moved) == 9
    for (l0, t0, _r0, _b0), (l1, t1, _r1, _b1) in zip(plain, moved):
        assert abs((l1 - l0) - 2 * PX_PER_MM) <= TOLERANCE
        assert abs((t1 - t0) - 1 * PX_PER_MM) <= TOLERANCE  # y is up: -1 mm moves the backs down
