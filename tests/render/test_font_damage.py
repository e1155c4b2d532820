"""Damaged fonts of one's own (tests/hostile_fonts.py) are refused when registered, with the file named, so that
`content check` refuses what the build would fail on; a font that registers draws every glyph in PDF and SVG.

The property `check passes => build passes` is fuzzed with fonts damaged table by table.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from generator.render import fonts
from tests.hostile_fonts import HOSTILE, SOURCE, damaged, good, small, tables

#: What donjon says of each damaged font (its own words; the file is named in every case).
EXPECTED = {
    "glyf-garbled": "the font is damaged: glyph",
    "loca-past-the-end": "of its 'glyf' table, which holds",
    "composite-of-itself": "is made of itself",
    "composites-in-a-loop": "is made of itself (through glyph",
    "component-out-of-range": "is made of glyph 65000, which the font does not have",
    "contours-past-the-glyph": "has 30,000 contours, more than its data holds",
    "contours-negative": "says it has -2 contours",
    "flags-repeated-past-the-points": "repeats its flags past its",
    "glyf-past-the-end": "its table 'glyf' runs to byte",
    "cmap-past-the-end": "its table 'cmap' runs to byte",
}
SAMPLE = "AbcÀé—0123 ?!"


def _register(folder: Path, data: bytes) -> dict[str, str]:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "mine.ttf"
    path.write_bytes(data)
    return fonts.register_family("mine", {"regular": path})


def _draw_everything(face_id: str) -> None:
    """What a build does with a face: measure, embed a subset in a PDF (reportlab reads the glyphs as it saves),
    and draw the outlines of an SVG (fontTools)."""
    from reportlab.pdfgen.canvas import Canvas

    text = "".join(c for c in SAMPLE if not fonts.missing(face_id, c))
    fonts.measure(face_id, text)
    canvas = Canvas(io.BytesIO(), invariant=1)
    canvas.setFont(fonts.pdf_name(face_id), 10)
    canvas.drawString(10, 10, text)
    canvas.save()
    for char in text:
        fonts.drawn_outline(face_id, char)


def test_the_good_font_registers_and_draws(tmp_path: Path) -> None:
    _draw_everything(_register(tmp_path, good())["mine"])
    _draw_everything(_register(tmp_path / "small", small())["mine"])  # the fuzzer's


def test_one_file_in_two_families_of_one_name_keeps_each_family_whole(tmp_path: Path) -> None:
    """Two decks of one content folder may both call a font `title`, one with a bold face and one without."""
    regular = tmp_path / "Regular.ttf"
    regular.write_bytes(good())
    alone = fonts.register_family("title", {"regular": regular})
    both = fonts.register_family("title", {"regular": regular, "bold": sample_font("DejaVuSerifCondensed-Bold.ttf")})
    assert fonts.variant(alone["title"], True, False) is None
    assert fonts.variant(both["title"], True, False) == both["title-bold"]


def sample_font(name: str) -> Path:
    return SOURCE.parent / name


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_damaged_font_is_refused_by_name(tmp_path: Path, name: str) -> None:
    with pytest.raises(fonts.FontProblem) as refused:
        _register(tmp_path, HOSTILE[name]())
    said = str(refused.value)
    assert said.startswith("mine.ttf: "), said
    assert name not in EXPECTED or EXPECTED[name] in said, said


@pytest.mark.fuzz
@given(st.sampled_from(sorted(tables(small()))), st.floats(0, 1), st.binary(min_size=1, max_size=64))
def test_a_font_that_registers_draws_every_glyph(tmp_path_factory: pytest.TempPathFactory, table: str, at: float,
                                                 junk: bytes) -> None:
    try:
        faces = _register(tmp_path_factory.getbasetemp() / "fuzz-font", damaged(table, at, junk))
    except fonts.FontProblem as refused:
        assert str(refused).startswith("mine.ttf: ")
        event("refused")
        return
    event("registered")
    _draw_everything(faces["mine"])
