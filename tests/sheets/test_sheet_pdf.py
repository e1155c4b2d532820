"""The castle score sheets as PDF files: their form fields, fonts, bytes, and what `donjon build` writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from generator.games.castle.sheets import file_name
from generator.render.imposition import PAPERS
from generator.sheets.draw import DrawnSheet
from tests.conftest import check_golden
from tests.sheets.helpers import GOLDEN, VERSIONS, sheet, write
from tests.sheets.helpers import PAPERS as PAPER_IDS

if TYPE_CHECKING:
    from typer.testing import Result

ALL_FILES = sorted(file_name(v, p, f) + ".pdf" for v in VERSIONS for p in PAPER_IDS for f in (False, True))


def run(*args: str) -> Result:
    from typer.testing import CliRunner

    from generator.cli import app

    return CliRunner().invoke(app, list(args))


def kinds(drawing: DrawnSheet) -> dict[str, str]:
    """Each form field's kind as the sheet's README names it: checkbox, number or text."""
    types = {f.name: f.type for f in drawing.fields}
    return {e.form: "checkbox" if e.kind == "checkbox" else
            "number" if types.get(e.field) in ("count", "number") else "text" for e in drawing.entries}


def pdf_fields(path: Path) -> dict[str, Any]:
    """Each widget of the PDF's only page by name: its field type, rectangle, flags and value."""
    from pypdf import PdfReader

    reader = PdfReader(path)
    assert len(reader.pages) == 1
    out = {}
    for ref in reader.pages[0].get("/Annots") or ():
        widget = ref.get_object()
        out[str(widget["/T"])] = {"type": str(widget["/FT"]), "rect": [float(v) for v in widget["/Rect"]],
                                  "flags": int(widget.get("/F", 0)), "field_flags": int(widget.get("/Ff", 0)),
                                  "value": widget.get("/V"), "align": int(widget.get("/Q", 0))}
    return out


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("paper", PAPER_IDS)
def test_fields_are_named_typed_and_placed_over_their_boxes(tmp_path: Path, version: str, paper: str) -> None:
    pdf = write(tmp_path / "sheet.pdf", version, paper)
    found = pdf_fields(pdf)
    drawing = sheet(version, paper)
    wanted = kinds(drawing)
    assert list(found) == list(wanted), "every field, in the sheet's order"
    page_w, page_h = PAPERS[paper]
    boxes = drawing.boxes
    for name, kind in wanted.items():
        field = found[name]
        assert field["type"] == ("/Btn" if kind == "checkbox" else "/Tx"), name
        x0, y0, x1, y1 = field["rect"]
        assert 0 <= x0 < x1 <= page_w and 0 <= y0 < y1 <= page_h
        box = boxes[name]
        # the PDF's y grows upwards from the bottom of the page
        assert (x0, y0, x1, y1) == pytest.approx((box.x, page_h - box.bottom, box.right, page_h - box.y), abs=0.002)
        assert field["align"] == (1 if kind == "number" else 0), name
    marker = found["version"]
    assert marker["value"] == version
    assert marker["field_flags"] & 1 and marker["flags"] & 2, "read-only and hidden"
    assert all(f["flags"] == 4 for n, f in found.items() if n != "version"), "every other field prints"


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("paper", PAPER_IDS)
def test_field_layout_golden(version: str, paper: str, regenerate: bool) -> None:
    drawing = sheet(version, paper)
    table = [{"name": name, "kind": kind, "box_mm": [round(v / 72 * 25.4, 2) for v in drawing.boxes[name]]}
             for name, kind in kinds(drawing).items()]
    text = "[\n" + ",\n".join(json.dumps(row) for row in table) + "\n]\n"  # one field a line: easy to review
    check_golden(GOLDEN / f"fields-{version}-{paper}.json", text, regenerate)


def test_the_paper_sheet_has_no_form(tmp_path: Path) -> None:
    pdf = write(tmp_path / "paper.pdf", fillable=False)
    assert pdf_fields(pdf) == {}
    assert b"/AcroForm" not in pdf.read_bytes()


def fonts_of(pdf: Path) -> tuple[list[str], set[str]]:
    """The base fonts of every font object, and those of the form's default resources."""
    import pikepdf

    with pikepdf.open(pdf) as doc:
        every = []
        for o in doc.objects:
            if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font":
                descriptor = o.get("/FontDescriptor")
                embedded = descriptor is not None and "/FontFile2" in descriptor
                every.append(f"{o.get('/BaseFont')}{'' if embedded else ' (not embedded)'}")
        form = set()
        if "/AcroForm" in doc.Root:
            form = {str(f.get("/BaseFont")) for f in doc.Root.AcroForm.DR.Font.values()}
        return every, form


@pytest.mark.parametrize("fillable", [False, True])
def test_fonts_are_ours_embedded_except_the_form_font(tmp_path: Path, fillable: bool) -> None:
    every, form = fonts_of(write(tmp_path / "s.pdf", fillable=fillable))
    ours = [f for f in every if "+" in f]
    assert ours and all(not f.endswith("(not embedded)") for f in ours)
    assert {f.split("+")[1] for f in ours} <= {"Cardo-Bold", "Cardo-Italic", "Cardo", "OpenSans", "OpenSans-Bold"}
    others = sorted(set(f for f in every if "+" not in f))
    # the form names the two standard fonts its fields' /DA use: Helvetica for text, ZapfDingbats for the tick
    assert others == (["/Helvetica (not embedded)", "/ZapfDingbats (not embedded)"] if fillable else [])
    assert form == ({"/Helvetica", "/ZapfDingbats"} if fillable else set())


def test_sheets_are_byte_identical_build_after_build(tmp_path: Path) -> None:
    for fillable in (False, True):
        first = write(tmp_path / "a.pdf", "apprentice", "letter", fillable).read_bytes()
        second = write(tmp_path / "b.pdf", "apprentice", "letter", fillable).read_bytes()
        assert first == second


def test_build_all_writes_every_sheet(tmp_path: Path) -> None:
    result = run("build", "all", "--out", str(tmp_path), "--format", "pdf")
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "score-sheets" / "once-upon-a-castle"
    assert sorted(p.name for p in folder.glob("castle-sheet*.pdf")) == ALL_FILES
    for name in ALL_FILES:
        assert f"wrote {tmp_path / 'once-upon-a-castle' / name}" in result.stdout or name in result.stdout
    assert "castle score sheet, Great Architect, Letter, fillable" in result.stdout
    assert not list(folder.glob(".*")), "no temporary file is left behind"


@pytest.mark.parametrize("target, formats, made", [("once-upon-a-castle", "pdf", True), ("guildhall", "pdf", False),
                                                   ("once-upon-a-castle/great-architect-guests", "pdf", False),
                                                   ("once-upon-a-castle", "svg", False)])
def test_only_the_games_targets_make_sheets(tmp_path: Path, target: str, formats: str, made: bool) -> None:
    result = run("build", target, "--out", str(tmp_path), "--format", formats, "--unique")
    assert result.exit_code == 0, result.stderr
    found = sorted(p.name for p in tmp_path.rglob("castle-sheet*.pdf"))
    assert found == (ALL_FILES if made else [])


def test_make_sheets_writes_eight_one_page_sheets_and_four_maps(tmp_path: Path) -> None:
    """How fast: benchmarks/run.py, case `castle`."""
    from generator.backends import backend
    from generator.build.options import BuildOptions
    from generator.build.score_sheets import make_score_sheets
    from generator.content import load_content

    content = load_content()
    written = make_score_sheets(content, list(content.games()), tmp_path, backend("pdf"), BuildOptions())
    sheets = [w for w in written if w.path.suffix == ".pdf"]
    maps = sorted(w.path.name for w in written if w.path.name.endswith(".marks.json"))
    assert len(sheets) == 8 and all(w.pages == 1 for w in sheets)
    assert maps == sorted(file_name(v, p, False) + ".marks.json" for v in VERSIONS for p in PAPER_IDS)
    # the sheets to print as SVG too (the build's formats hold svg by default), the fillable ones not (a form is PDF)
    svgs = sorted(w.path.name for w in written if w.path.suffix == ".svg")
    assert svgs == sorted(file_name(v, p, False) + ".svg" for v in VERSIONS for p in PAPER_IDS)
    assert len(written) == 16
    pdf_only = make_score_sheets(content, list(content.games()), tmp_path / "pdf", backend("pdf"),
                                 BuildOptions(formats=("pdf",)))
    assert len(pdf_only) == 12 and not [w for w in pdf_only if w.path.suffix == ".svg"]
