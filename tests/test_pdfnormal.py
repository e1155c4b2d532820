"""The form golden PDFs are compared in (`tests/pdfnormal.py`): blind to how the bytes are written, not to what
is drawn, filled in or linked."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from generator.backends.pdf import write_pdf
from generator.render.model import Anchor, Drawing, FormField, Link, Page, Paint, Placed, Rect, TextRun, mm
from tests.conftest import REPO
from tests.pdfnormal import differences, normalised, text_of

if TYPE_CHECKING:
    from pikepdf import Object, Pdf

GOLDEN = REPO / "tests" / "render" / "golden"


def _rewritten(source: Path) -> bytes:
    """`source` written again as another PDF library might write the same drawing: another producer and date,
    other subset prefixes and resource names, numbers to two decimals, other compression, object streams and
    object numbers."""
    import pikepdf

    with pikepdf.open(source) as doc:
        doc.docinfo["/Producer"] = "Another PDF Library 9.9"
        doc.docinfo["/CreationDate"] = "D:20991231235959Z"
        done: set[tuple[int, int]] = set()
        for page in doc.pages:
            _rename_resources(doc, page.obj, done)
        for font in [o for o in doc.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"]:
            for holder, key in ((font, "/BaseFont"), (font.get("/FontDescriptor"), "/FontName")):
                if holder is not None and key in holder:
                    holder[key] = pikepdf.Name("/QWERTY+" + str(holder[key]).split("+", 1)[-1])
        out = io.BytesIO()
        doc.save(out, object_stream_mode=pikepdf.ObjectStreamMode.generate, compress_streams=True,
                 recompress_flate=True, linearize=True)
        return out.getvalue()


def _rename_resources(doc: Pdf, holder: Object, done: set[tuple[int, int]]) -> None:
    """Give the fonts and XObjects of `holder` (a page or a form) new names, and rewrite its content to match,
    with every number to two decimals; forms are rewritten in turn."""
    import pikepdf

    if holder.objgen in done and holder.objgen != (0, 0):
        return
    done.add(holder.objgen)
    resources = holder.get("/Resources")
    if resources is None:
        return
    renamed: dict[str, pikepdf.Name] = {}
    for kind, prefix in (("/Font", "/Face"), ("/XObject", "/Thing")):
        if kind not in resources:
            continue
        old = resources[kind]
        new = pikepdf.Dictionary()
        for number, name in enumerate(sorted(old.keys())):
            renamed[name] = pikepdf.Name(f"{prefix}{number}")
            new[renamed[name]] = old[name]
        resources[kind] = new
    instructions = []
    for instruction in pikepdf.parse_content_stream(holder):
        operands = [renamed.get(str(o), o) if isinstance(o, pikepdf.Name) else
                    Decimal(o).quantize(Decimal("0.01")) if isinstance(o, Decimal) else o
                    for o in instruction.operands]
        instructions.append((operands, instruction.operator))
    content = pikepdf.unparse_content_stream(instructions)
    if isinstance(holder, pikepdf.Stream):
        holder.write(content)
    else:
        holder.Contents = doc.make_stream(content)
    for xobject in resources.get("/XObject", {}).values():
        if xobject.get("/Subtype") == "/Form":
            _rename_resources(doc, xobject, done)


@pytest.mark.parametrize("name", ["every-primitive.pdf", "small-deck.pdf"])
def test_the_same_drawing_written_otherwise_matches(name: str) -> None:
    import pikepdf

    golden = GOLDEN / name
    rewritten = _rewritten(golden)
    with pikepdf.open(io.BytesIO(rewritten)) as doc:  # it was rewritten as said
        assert doc.docinfo["/Producer"] == "Another PDF Library 9.9"
        assert str(next(iter(doc.pages[0].Resources.Font.values())).BaseFont).startswith("/QWERTY+")
        assert list(doc.pages[0].Resources.XObject.keys())[0].startswith("/Thing")
    assert len(rewritten) != len(golden.read_bytes())
    assert differences(normalised(golden), normalised(rewritten)) == []


def test_what_is_kept() -> None:
    text = text_of(normalised(GOLDEN / "every-primitive.pdf"))
    assert "info /Title sample" in text and not any("ReportLab" in line for line in text)
    assert "mediabox 0 0 170.079 113.386" in text  # the page boxes
    assert "   rg 0.122 0.373 0.659" in text  # colours, inside the card's form, indented
    assert "   Tf Cardo-Bold 10" in text and "   Tj 'Tom & <Jerry>'" in text  # fonts without prefix, text decoded
    assert "font Cardo-Bold embedded" in text and "font OpenSans embedded" in text
    assert not any(line.startswith(("cm 1 0 0 1 0 0", "   cm 1 0 0 1 0 0")) for line in text)  # no-ops dropped


# --- fields, outline and links ------------------------------------------------------------------------------------

def _document(title: str = "Rules", field_x: float = mm(20), link_to: str = "rules") -> bytes:
    card = Drawing(mm(60), mm(40), (
        Rect(0, 0, mm(60), mm(40), Paint("#f0e6d2")),
        TextRun(mm(5), mm(10), "Name:", "open-sans", 9, "#000000", 20.0),
    ))
    first = Page(mm(100), mm(80), (Placed(card, mm(10), mm(10)),), (), "sheet", 1,
                 anchors=(Anchor("top", 0, "Contents", 0),),
                 links=(Link(mm(10), mm(10), mm(30), mm(10), link_to),),
                 fields=(FormField("player", "text", field_x, mm(15), mm(30), mm(8), tooltip="who played"),
                         FormField("sun", "checkbox", mm(60), mm(15), mm(6), mm(6))))
    second = Page(mm(100), mm(80), (), (), "sheet", 2, anchors=(Anchor("rules", mm(20), title, 1),))
    out = io.BytesIO()
    write_pdf([first, second], out, title="fields and links")
    return out.getvalue()


def test_fields_outline_and_links_are_described() -> None:
    text = text_of(normalised(_document()))
    fields = [line for line in text if line.startswith("field ")]
    assert [line.split()[1] for line in fields] == ["player", "sun"]
    assert "/FT /Tx" in fields[0] and "/TU who played" in fields[0] and "/FT /Btn" in fields[1]
    assert any(line.startswith("outline 1 Contents to page 1") for line in text)
    assert any(line.startswith("outline 2 Rules to page 2") for line in text)
    (link,) = [line for line in text if line.startswith("annotation") and "/Subtype /Link" in line]
    assert "/Dest [ page 2 /XYZ 0 170.079 null ]" in link


@pytest.mark.parametrize(("changed", "seen"), [
    (lambda: _document(field_x=mm(22)), "field player"),     # a field moved by 2 mm
    (lambda: _document(title="Rules of play"), "outline 2"),  # an outline entry renamed
    (lambda: _document(link_to="top"), "annotation"),         # a link going elsewhere
], ids=["field moved", "outline entry renamed", "link elsewhere"])
def test_a_changed_field_outline_or_link_does_not_match(changed: Callable[[], bytes], seen: str) -> None:
    diff = differences(normalised(_document()), normalised(changed()))
    assert diff and any(seen in line for line in diff if line.startswith(("-", "+"))), diff


def test_a_number_out_of_tolerance_is_reported() -> None:
    base = normalised(_document())
    moved = [tuple(t + 0.02 if isinstance(t, float) and line[0] == "mediabox" else t for t in line) for line in base]
    near = [tuple(t + 0.004 if isinstance(t, float) and line[0] == "mediabox" else t for t in line) for line in base]
    assert differences(base, moved) and not differences(base, near)
