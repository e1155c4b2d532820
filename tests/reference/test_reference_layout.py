"""The document layout engine of the references: flowing, breaking tables and paragraphs, anchors, links."""

from __future__ import annotations

import pytest

from generator.errors import FitError
from generator.reference.document import (
    Block,
    Cell,
    Column,
    Contents,
    Heading,
    PageBreak,
    Para,
    ReferenceDocument,
    Table,
    cell,
    layout,
)
from generator.render.imposition import PAPERS
from generator.render.model import Page, Rect, TextRun

A4 = PAPERS["a4"]
HEAD_FILL = "#3d3a34"


def _doc(*blocks: Block, footer: str = "") -> ReferenceDocument:
    return ReferenceDocument("Test document", "a test", blocks, footer)


def _words(page: Page) -> str:
    return " ".join(item.text for item in page.items if isinstance(item, TextRun))


def _table(rows: int, groups: tuple[int, ...] = (), lines: int = 1) -> Table:
    text = "\n".join(["word"] * lines)
    return Table((Column("Name", 1), Column("Text", 3)),
                 tuple((cell(f"row{i:03d}"), cell(f"{text} end{i:03d}")) for i in range(rows)), groups)


def test_a_long_table_repeats_its_header_and_never_splits_a_row() -> None:
    pages = layout(_doc(_table(120, lines=2)), A4)
    assert len(pages) > 2
    for page in pages:
        heads = [i for i in page.items if isinstance(i, Rect) and i.paint.fill == HEAD_FILL]
        assert len(heads) == 1  # the header row on every page the table runs over
        words = _words(page)
        assert words.index("Name") < words.index("row")
    for number in range(120):
        holders = [p.number for p in pages if f"row{number:03d}" in _words(p)]
        ends = [p.number for p in pages if f"end{number:03d}" in _words(p)]
        assert holders == ends and len(holders) == 1, number  # a row's cells are on one page


@pytest.mark.parametrize("size", [3, 5, 7])
def test_rows_of_a_group_stay_together(size: int) -> None:
    groups = tuple(i // size for i in range(140))
    pages = layout(_doc(_table(140, groups, lines=2)), A4)
    for group in range(140 // size):
        found = {p.number for p in pages for i in range(size) if f"row{group * size + i:03d}" in _words(p)}
        assert len(found) == 1, group


def test_a_group_taller_than_a_page_breaks_between_its_rows() -> None:
    pages = layout(_doc(_table(120, tuple(0 for _ in range(120)), lines=2)), A4)
    assert len(pages) > 2
    assert sum(f"row{i:03d}" in _words(p) for p in pages for i in range(120)) == 120


def test_a_paragraph_breaks_between_lines_keeping_two_on_each_side() -> None:
    lines = "\n".join(f"line{i:03d}" for i in range(200))
    pages = layout(_doc(Para(lines)), A4)
    assert len(pages) >= 3
    counts = [sum(1 for i in p.items if isinstance(i, TextRun) and i.text.startswith("line")) for p in pages]
    assert sum(counts) == 200 and min(counts) >= 2
    order = [i.text for p in pages for i in p.items if isinstance(i, TextRun) and i.text.startswith("line")]
    assert order == [f"line{i:03d}" for i in range(200)]


def _lines_per_page(pages: list[Page], prefix: str) -> list[int]:
    return [sum(1 for i in p.items if isinstance(i, TextRun) and i.text.startswith(prefix)) for p in pages]


@pytest.mark.parametrize("lines", [2, 3, 4, 12])
def test_no_paragraph_leaves_a_single_line_alone_on_a_page(lines: int) -> None:
    capacity = _lines_per_page(layout(_doc(Para("\n".join(["fill"] * 300))), A4), "fill")[0]
    for filler in range(capacity - lines - 2, capacity):
        blocks = (Para("\n".join(["fill"] * filler)), Para("\n".join(f"line{i:02d}" for i in range(lines))))
        counts = [c for c in _lines_per_page(layout(_doc(*blocks), A4), "line") if c]
        assert sum(counts) == lines and min(counts) >= 2, (filler, counts)


def test_a_heading_keeps_with_what_follows() -> None:
    filler = Para("\n".join(f"filler{i}" for i in range(55)))
    pages = layout(_doc(filler, Heading("Late heading", 2, "late"), _table(3)), A4)
    page = next(p for p in pages if "Late heading" in _words(p))
    assert "row000" in _words(page)
    assert [a.key for a in page.anchors] == ["late"]


def test_a_heading_never_stays_behind_when_its_short_table_moves_to_the_next_page() -> None:
    # A short table is kept whole on one page; the heading and introduction above it must go with it, or a page
    # ends with a heading over nothing and its outline entry points at the wrong page (Guildhall's "VP supply by
    # value" in German on Letter paper met this).
    capacity = _lines_per_page(layout(_doc(Para("\n".join(["fill"] * 300))), A4), "fill")[0]
    for filler in range(capacity - 14, capacity):
        blocks = (Para("\n".join(["fill"] * filler)), Heading("Late heading", 2, "late"),
                  Para("A short introduction."), _table(6))
        pages = layout(_doc(*blocks), A4)
        page = next(p for p in pages if "Late heading" in _words(p))
        assert "row000" in _words(page) and "row005" in _words(page), filler
        assert "A short introduction." in _words(page), filler


def test_level_one_headings_start_a_page_and_name_it() -> None:
    pages = layout(_doc(Heading("First", 1, "first"), Para("text"), Heading("Second", 1, "second"), Para("more")),
                   A4)
    assert len(pages) == 2
    assert [a.title for a in pages[0].anchors] == ["First"] and [a.title for a in pages[1].anchors] == ["Second"]
    assert pages[1].anchors[0].level == 0
    assert "Second" in _words(pages[1]).split("page")[0]  # the running header names the section


def test_a_word_wider_than_its_column_is_broken_not_refused() -> None:
    long = "x" * 300
    pages = layout(_doc(Table((Column("A", 1), Column("B", 5)), ((cell(long), cell("short")),))), A4)
    runs = [i for i in pages[0].items if isinstance(i, TextRun) and set(i.text) == {"x"}]
    assert len(runs) > 1 and "".join(r.text for r in runs) == long
    column = (A4[0] - 2 * 17 * 72 / 25.4) / 6
    assert all(r.width <= column for r in runs)


def test_contents_get_page_numbers_and_links() -> None:
    blocks: list[Block] = [Contents((("Alpha", "alpha", 1), ("Beta", "beta", 2))), Heading("Alpha", 1, "alpha"),
                           Para("a"), PageBreak(), Heading("Beta", 2, "beta")]
    pages = layout(_doc(*blocks), A4)
    first = [i.text for i in pages[0].items if isinstance(i, TextRun)]
    assert first[:4] == ["Alpha", "2", "Beta", "3"]
    assert [link.key for link in pages[0].links] == ["alpha", "beta"]


def test_bad_text_is_an_error_naming_the_document() -> None:
    with pytest.raises(FitError, match=r"Test document: cannot draw .*\{unicorn\}"):
        layout(_doc(Para("a {unicorn} here")), A4)
    with pytest.raises(FitError, match="has no glyph"):
        layout(_doc(Para("漢字")), A4)
    with pytest.raises(FitError, match="two places are named 'x'"):
        layout(_doc(Heading("One", 2, "x"), Heading("Two", 2, "x")), A4)
    with pytest.raises(FitError, match="goes to 'nowhere'"):
        layout(_doc(Para("link", link="nowhere")), A4)


def test_a_row_taller_than_a_page_is_an_error() -> None:
    tall = Table((Column("A", 1),), ((cell("\n".join("x" * 1 for _ in range(400))),),))
    with pytest.raises(FitError, match="taller than a page"):
        layout(_doc(tall), A4)


def test_cells_with_colour_and_the_footer() -> None:
    pages = layout(_doc(Table((Column("C", 1),), ((Cell((Para("{star}", "cell", colour="#ffffff"),), "#b3261e"),),)),
                        footer="made by {vp} donjon"), A4)
    assert any(isinstance(i, Rect) and i.paint.fill == "#b3261e" for i in pages[0].items)
    assert _words(pages[0]).endswith("made by donjon page 1 of 1")


def test_a_sentence_of_the_document_around_a_right_to_left_name_reads_left_to_right() -> None:
    """A deck named in Hebrew (which Cardo draws): its reference's title "דרקונים: card reference" was laid
    out as a right-to-left paragraph (its first strong letter is Hebrew), drawn "card reference :דרקונים". The
    document's own sentences run as its language does; a table's cell still runs as its first strong letter does (a
    Hebrew sentence in a card's text ends at its left)."""
    name = "דרקונים"
    title = f"{name}: card reference"
    table = Table((Column("Card", 1), Column("Value", 3)), ((cell("x"), cell(f"{name}.")),))
    # (the cells' Open Sans has no Hebrew: Cardo draws it, as a deck's own fonts would)
    page = layout(ReferenceDocument(title, "a test", (Heading(title, 1, "reference", style="title"), table),
                                    faces=("cardo",)), A4)[0]
    runs = [item for item in page.items if isinstance(item, TextRun)]
    heading = [r for r in runs if r.y == min(r.y for r in runs)]
    hebrew = next(r for r in heading if name[0] in r.text or name[-1] in r.text)
    english = next(r for r in heading if "reference" in r.text)
    assert hebrew.x < english.x, [(r.text, r.x) for r in heading]
    # the cell: its full stop at the left of the name, as a right-to-left sentence ends
    value = [r for r in runs if r.y == max(r.y for r in runs if name[0] in r.text or name[-1] in r.text)]
    stop = next(r for r in value if r.text.strip() == ".")
    word = next(r for r in value if name[0] in r.text or name[-1] in r.text)
    assert stop.x < word.x, [(r.text, r.x) for r in value]
