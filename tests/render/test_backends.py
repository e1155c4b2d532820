"""The two backends on every primitive of the drawing model: same shapes, deterministic bytes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from tests.conftest import check_golden, check_golden_pdf
from generator.backends.pdf import write_pdf
from generator.backends.svg import drawing_svg
from generator.render import fonts
from generator.render.model import (
    Circle,
    Drawing,
    IconUse,
    Line,
    Page,
    Paint,
    Path as Shape,
    Placed,
    Rect,
    TextRun,
    mm,
)
from render_helpers import GOLDEN, page_count, render_page


def single_pages(drawings: list[Drawing]) -> list[Page]:
    """Each drawing on a page of its own size, bleed included, its trim box the card."""
    return [Page(d.width + 2 * d.bleed, d.height + 2 * d.bleed, (Placed(d, d.bleed, d.bleed),), (), "sheet", number,
                 trim=(d.bleed, d.bleed, d.width, d.height))
            for number, d in enumerate(drawings, start=1)]


def every_primitive(bleed: float = 0.0) -> Drawing:
    text = "Tom & <Jerry>"
    return Drawing(mm(60), mm(40), (
        Rect(mm(2), mm(2), mm(56), mm(36), Paint("#f0e6d2", "#5a3e1b", 1.0, (3.0, 1.5)), mm(3)),
        Rect(0, 0, mm(10), mm(5), Paint("#1f5fa8")),
        Circle(mm(50), mm(10), mm(5), Paint("#b3261e", "#000000", 0.5)),
        Line(mm(5), mm(30), mm(55), mm(30), "#2e7d32", 0.75, (2.0, 2.0)),
        Shape((("M", mm(10), mm(12)), ("L", mm(20), mm(12)), ("L", mm(15), mm(22)), ("Z",),
               ("M", mm(13), mm(14)), ("L", mm(17), mm(14)), ("L", mm(15), mm(18)), ("Z",)), Paint("#6a3d9a")),
        Shape((("M", mm(25), mm(12)), ("C", mm(30), mm(8), mm(35), mm(16), mm(40), mm(12))),
              Paint(None, "#000000", 1.0), evenodd=False),
        TextRun(mm(5), mm(27), text, "cardo-bold", 10, "#000000", fonts.width("cardo-bold", text) * 10),
        TextRun(mm(57), mm(35), "up", "open-sans", 6, "#555555", fonts.width("open-sans", "up") * 6, rotate=90),
        IconUse("rope", mm(42), mm(20), mm(6), "#2a2118"),
    ), bleed, "sample", "#ffffff")


def test_svg_of_every_primitive(regenerate: bool) -> None:
    text = drawing_svg(every_primitive(), "every primitive")
    ET.fromstring(text)
    check_golden(GOLDEN / "every-primitive.svg", text, regenerate)


def test_pdf_of_every_primitive(tmp_path: Path, regenerate: bool) -> None:
    pdf = tmp_path / "sample.pdf"
    stats = write_pdf(single_pages([every_primitive(), every_primitive(mm(3))]), pdf, title="sample")
    assert stats.pages == 2 == page_count(pdf)
    check_golden_pdf(GOLDEN / "every-primitive.pdf", pdf.read_bytes(), regenerate)
    # a page per drawing, sized to its bleed box
    first, second = render_page(pdf, 0, 72), render_page(pdf, 1, 72)
    assert abs(first.size[0] - mm(60)) <= 1 and abs(second.size[0] - mm(66)) <= 1
    # the blue square in the top-left corner is where both backends put it
    assert first.getpixel((5, 5)) == (0x1F, 0x5F, 0xA8)
    assert second.getpixel((int(mm(3)) + 5, int(mm(3)) + 5)) == (0x1F, 0x5F, 0xA8)


Item = TypeVar("Item", Rect, Circle, Line, TextRun, IconUse)


def _item(kind: type[Item], index: int) -> Item:
    """The primitive at `index` of every_primitive(), which must be a `kind`."""
    item = every_primitive().items[index]
    assert isinstance(item, kind)
    return item


def _changed(index: int, item: Item) -> Drawing:
    """every_primitive() with its primitive at `index` replaced by `item`."""
    drawing = every_primitive()
    items = list(drawing.items)
    items[index] = item
    return drawing._replace(items=tuple(items))


#: One drawn value changed at a time, each small (a tenth of a millimetre, one colour channel by 6%).
CHANGES: dict[str, Callable[[], Drawing]] = {
    "the blue square moved by 0.1 mm": lambda: _changed(1, _item(Rect, 1)._replace(x=mm(0.1))),
    "the circle's red a little lighter": lambda: _changed(2, _item(Circle, 2)._replace(
        paint=Paint("#c3261e", "#000000", 0.5))),
    "the green line's dashes longer": lambda: _changed(3, _item(Line, 3)._replace(dash=(2.0, 2.5))),
    "one letter of the text": lambda: _changed(6, _item(TextRun, 6)._replace(text="Tom & <Jerri>")),
    "the text's font": lambda: _changed(6, _item(TextRun, 6)._replace(font="cardo")),
    "the icon": lambda: _changed(8, _item(IconUse, 8)._replace(name="wood")),
    "the card 0.1 mm wider": lambda: every_primitive()._replace(width=mm(60.1)),
}


@pytest.mark.parametrize("change", list(CHANGES), ids=list(CHANGES))
def test_the_golden_pdf_comparison_sees_one_changed_value(tmp_path: Path, change: str) -> None:
    """The golden PDF is compared for what it draws (tests/pdfnormal.py), not byte for byte: still, one drawn
    value changed makes the comparison fail."""
    pdf = tmp_path / "changed.pdf"
    write_pdf(single_pages([CHANGES[change](), every_primitive(mm(3))]), pdf, title="sample")
    with pytest.raises(AssertionError, match="draws something else than golden file"):
        check_golden_pdf(GOLDEN / "every-primitive.pdf", pdf.read_bytes(), regenerate=False)


@pytest.mark.parametrize("text", ['plain', 'a & b < c > d "quoted" \'single\'', "tab\there\nline\r", "</svg>", "é ☃ 𝄞"])
def test_the_svg_writer_gives_the_bytes_elementtree_gives(text: str) -> None:
    """donjon writes its SVG trees itself, faster; what it writes must stay what ElementTree's tostring writes."""
    from generator.backends.svg import _write

    root = ET.Element("svg", {"a": text, "b": "2"})
    ET.SubElement(root, "title").text = text
    ET.SubElement(ET.SubElement(root, "g", {"id": "x"}), "use", {"x": "1", "xlink:href": "#g"})
    ET.SubElement(root, "text", {"fill": "none"}).text = ""
    out: list[str] = []
    _write(root, out)
    assert "".join(out) == ET.tostring(root, encoding="unicode", short_empty_elements=True)


def _two_documents() -> tuple[object, object, object]:
    """The Open Sans font reportlab draws with and two documents of its own (the subsets a document gives)."""
    from reportlab.pdfbase.pdfdoc import PDFDocument
    from reportlab.pdfbase.pdfmetrics import getFont

    return getFont(fonts.pdf_name("open-sans")), PDFDocument(), PDFDocument()


def test_the_pdf_writer_splits_and_escapes_text_as_reportlab_does() -> None:
    """The PDF writer gives each run's characters their codes and escapes them without reportlab's own loops over
    the characters (:func:`generator.backends.pdf._split`, `_escape`): the codes, subsets and bytes written must
    stay what reportlab's splitString and escapePDF give, text after text, past the first subset of 256 codes."""
    from reportlab.lib.rl_accel import escapePDF

    from generator.backends.pdf import _escape, _split

    font, ours, theirs = _two_documents()
    drawn = [chr(code) for code in sorted(font.face.charToGlyph) if code > 32][:300]  # type: ignore[attr-defined]
    texts = ["Tom & (Jerry) \\ back", "a\xa0b", "", "Tom & (Jerry)", "".join(drawn), "\U0001f600 not in the font",
             "Tom & (Jerry) \\ back", "".join(reversed(drawn)), "a\xa0b"]
    for text in texts:
        split = _split(font, text, ours)
        assert split == list(font.splitString(text, theirs)), text  # type: ignore[attr-defined]
        assert [_escape(chunk) for _subset, chunk in split] == [escapePDF(chunk) for _subset, chunk in split]
    assert max(code for _subset, chunk in _split(font, "".join(drawn), ours) for code in chunk) > 0
    assert len(_split(font, "".join(drawn), ours)) > 1  # the text reaches the second subset
    assert font.state[ours].assignments == font.state[theirs].assignments  # type: ignore[attr-defined]
    assert [_escape(bytes((code,))) for code in range(256)] == [escapePDF(bytes((code,))) for code in range(256)]


def test_the_pdf_writer_falls_back_to_reportlab_where_its_internals_differ() -> None:
    """The fast path reads reportlab's internal per-document state; a reportlab whose state lacks `assignments` (or
    whose font has no `state`) must still be drawn, through its documented splitString, not end in a traceback."""
    from generator.backends.pdf import _split

    class Font:
        def __init__(self, state: object) -> None:
            self.state = state

        def splitString(self, text: str, doc: object) -> list[tuple[int, bytes]]:  # noqa: N802 (reportlab's name)
            return [(0, text.encode("ascii"))]

    doc = object()
    assert _split(Font({doc: object()}), "ab", doc) == [(0, b"ab")]

    class Stateless(Font):
        def __init__(self) -> None:
            pass

    assert _split(Stateless(), "ab", doc) == [(0, b"ab")]


def test_text_drawn_again_is_not_split_or_escaped_by_reportlab_again(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck draws the same characters card after card: once they have their codes in the document, a run is
    written without asking reportlab's splitString (a loop in Python over its characters) or escapePDF again."""
    from reportlab.lib import rl_accel
    from reportlab.pdfbase.ttfonts import TTFont

    from generator.backends import pdf

    getattr(pdf, "_escapes", lambda: None)()  # asked of escapePDF once a process (a byte at a time), before counting
    split, escaped = TTFont.splitString, rl_accel.escapePDF
    calls: list[str] = []

    def counted_split(self: TTFont, text: str, doc: object, encoding: str = "utf-8") -> object:
        calls.append("split")
        return split(self, text, doc, encoding)

    def counted_escape(chunk: bytes) -> str:
        calls.append("escape")
        return str(escaped(chunk))

    monkeypatch.setattr(TTFont, "splitString", counted_split)
    monkeypatch.setattr(rl_accel, "escapePDF", counted_escape)
    runs = tuple(TextRun(10, 20 + 12 * i, "Cost (2) \\ each", "open-sans", 9, "#000000", 60) for i in range(30))
    write_pdf([Page(200, 400, (Placed(Drawing(180, 380, runs), 10, 10),))], tmp_path / "t.pdf", title="t")
    assert calls == ["split"]  # the first run's, which gives the characters their codes
    assert b"Tj" in (tmp_path / "t.pdf").read_bytes()
