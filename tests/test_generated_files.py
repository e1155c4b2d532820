"""Every kind of file donjon writes is sound: PDFs pass qpdf's structural check with every font embedded (the
form font of a fillable sheet excepted), PNGs decode, SVGs are XML, HTML parses.

One test run makes each kind once, in every variant the options give (papers, orientations, bleed, duplex
modes, a user deck, filled sheets), and checks all of them.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator.cli import app
from tests.pdfcheck import font_problems, png_problems, structure_problems

runner = CliRunner()


def donjon(*args: str) -> None:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, f"donjon {' '.join(args)}:\n{result.output}"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("outputs")
    deck = root / "mine"
    deck.mkdir()
    (deck / "deck.yaml").write_text("id: mine\nname: Mine & <Co>\nlayout: generic\ncards: cards.csv\n"
                                    "card_size: tarot\n", encoding="utf-8")
    (deck / "cards.csv").write_text('Name,Cost,Text\nTom & Jerry,2,"<b>bold</b> </svg> {{ x }} {wood}"\n'
                                    "Zoë,1,Plain text.\n", encoding="utf-8")
    donjon("build", "all", "--out", str(root / "default"))
    donjon("build", "all", "--out", str(root / "letter"), "--paper", "letter", "--orientation", "landscape",
           "--bleed", "--duplex", "short", "--back-offset", "1,-0.5", "--gutter", "2mm", "--unique")
    donjon("build", "guildhall", "--out", str(root / "fronts"), "--duplex", "none", "--format", "pdf")
    donjon("build", "--content", str(deck), "--out", str(root / "user"))
    donjon("reference", "all", "--out", str(root / "reference-letter"), "--paper", "letter")
    donjon("export", "png", "all", "--preset", "mpc", "--out", str(root / "png"))
    donjon("export", "png", "--content", str(deck), "--preset", "plain", "--dpi", "150", "--out", str(root / "png"))
    donjon("export", "tts", "--out", str(root / "tts"))
    donjon("preview", "--out", str(root / "default"))
    _fill_a_sheet(root / "default" / "score-sheets" / "once-upon-a-castle" / "castle-sheet-great-architect-a4-fillable.pdf",
                  root / "filled.pdf")
    return root


def _fill_a_sheet(blank: Path, target: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(blank))
    writer.update_page_form_field_values(writer.pages[0], {"player": "Ana", "tower_1_value": "5", "residents": "7"},
                                         auto_regenerate=False)
    with target.open("wb") as handle:
        writer.write(handle)


def _pdfs(root: Path) -> list[Path]:
    return sorted(root.rglob("*.pdf"))


def test_every_kind_was_made(outputs: Path) -> None:
    names = {p.name for p in _pdfs(outputs)}
    for expected in ("old-world-economy-professions.pdf", "castle-sheet-apprentice-letter-fillable.pdf",
                     "guedelon-reference.pdf", "mine.pdf", "filled.pdf"):
        assert expected in names
    assert len(list(outputs.rglob("*.png"))) > 100
    assert list(outputs.rglob("*.svg")) and list(outputs.rglob("index.html"))


def test_every_pdf_passes_the_structural_check(outputs: Path) -> None:
    failures = {str(p.relative_to(outputs)): problems for p in _pdfs(outputs) if (problems := structure_problems(p))}
    assert failures == {}


def test_every_pdf_embeds_its_fonts(outputs: Path) -> None:
    failures = {str(p.relative_to(outputs)): problems for p in _pdfs(outputs) if (problems := font_problems(p))}
    assert failures == {}


def test_every_png_decodes(outputs: Path) -> None:
    """Every PNG decodes whole, in full colour; a preview page's pictures may be on a palette (P: the preview keeps
    its few colours in 256, a third of the size), never a print service's or Tabletop Simulator's."""
    pngs = sorted(outputs.rglob("*.png"))
    failures = {str(p.relative_to(outputs)): problems for p in pngs
                if (problems := png_problems(p, ("RGB", "RGBA", "P") if "preview" in p.parts else ("RGB", "RGBA")))}
    assert failures == {}


def test_every_svg_is_xml(outputs: Path) -> None:
    for svg in outputs.rglob("*.svg"):
        assert ET.parse(svg).getroot().tag == "{http://www.w3.org/2000/svg}svg", svg


class _Balanced(HTMLParser):
    """Fails on HTML whose elements do not nest (void elements aside)."""

    VOID = {"meta", "img", "br", "link", "hr", "input", "source"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:] or 'nothing'}"
        self.open.pop()


def test_every_html_page_parses(outputs: Path) -> None:
    pages = list(outputs.rglob("*.html"))
    assert pages
    for page in pages:
        parser = _Balanced()
        parser.feed(page.read_text(encoding="utf-8"))
        parser.close()
        assert parser.open == [], f"{page}: unclosed {parser.open}"


def test_the_checks_can_fail(tmp_path: Path, outputs: Path) -> None:
    import subprocess
    import sys

    import pikepdf

    good = outputs / "default" / "guedelon" / "events.pdf"
    # a PDF whose cross-reference table points at the wrong offsets
    broken = tmp_path / "broken.pdf"
    data = good.read_bytes()
    start = data.rindex(b"startxref")
    broken.write_bytes(data[:start] + b"startxref\n12345\n%%EOF\n")
    try:
        found = structure_problems(broken)
    except pikepdf.PdfError:
        found = ["cannot be opened"]
    assert found
    # the benchmark's floor draws with reportlab's standard Helvetica, not embedded
    floor = tmp_path / "floor.pdf"
    subprocess.run([sys.executable, str(Path(__file__).parent.parent / "benchmarks" / "peers" / "floor_reportlab.py"),
                    str(floor), str(Path(__file__).parent.parent / "benchmarks" / "deck100" / "deck100.csv")],
                   check=True)
    assert any("is not a subset of donjon's fonts" in p for p in font_problems(floor))
    png = next((outputs / "png").rglob("*.png"))
    cut = tmp_path / "cut.png"
    cut.write_bytes(png.read_bytes()[: png.stat().st_size // 2])
    assert png_problems(cut)
