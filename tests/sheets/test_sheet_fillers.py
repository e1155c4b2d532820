"""Fillable sheets show what they hold: filled by independent tools, what a renderer SHOWS in each field is what
`donjon score` READS from it.

Each filler fills a fresh fillable sheet with the same castle, the way a user of that tool would: pypdf writing
its own appearances (with and without `NeedAppearances`, and as an incremental update), pikepdf setting the
values only, `qpdf --generate-appearances` after it, Debian's pdftk (pdftk-java, iText underneath) and pdf-lib
from npm (`tests/sheets/pdf_lib/`, installed by `.ci/run` with `npm ci`). Then pdfium (pypdfium2) opens the file
as a viewer does, with its form environment (which draws the fields and regenerates appearances a file asks
for), flattens the page, and:

- a text field shows the text found inside its rectangle on the flattened page;
- a checkbox shows ticked when its rectangle, rendered, differs from the blank sheet's.

Both are compared, field by field, with what donjon's reader takes from the same file. A sheet whose fields
share appearance streams fails here: a filler that writes into the stream it finds makes every field of a size
show the last value, while the reader reads the right ones.

The fillers are test-only tools. CI installs them (`.ci/run`: qpdf and pdftk-java from Debian, pdf-lib with npm)
and sets DONJON_REQUIRE_FILLERS=1, so that a missing one fails there; elsewhere it is skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

import scoring
from tests.sheets.helpers import castle_values, write

HERE = Path(__file__).resolve().parent
PDF_LIB = HERE / "pdf_lib"
#: How much larger than the page the checks render it.
SCALE = 3.0
#: Share of a checkbox's pixels that must differ from the blank sheet for it to show ticked (the tick covers
#: about a third of the box; a redrawn empty box differs by antialiasing only).
TICKED_SHARE = 0.04

#: A castle touching every kind of field: the name, each tower, flags on walls, ticked and unticked boxes, the
#: residents, sky clouds and guests. Values differ from field to field, so a field showing another's is caught.
CASTLE = castle_values("Ana Beth", floors=3, towers=(5, 2, 5), walls={1: (1,), 2: (2, 1), 4: (2,)},
                       guests=("queen", "Jester", "Shepherdess", "king"), residents=17, sun=False, cloud=False,
                       sky_clouds=3)
CASTLE["tower_4_value"] = 2
CASTLE["sun"] = True


def required() -> bool:
    return os.environ.get("DONJON_REQUIRE_FILLERS") == "1"


def need(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        if required():
            pytest.fail(f"{tool} is not installed (CI installs it in .ci/run)")
        pytest.skip(f"{tool} is not installed")
    return found


# --- the fillers ------------------------------------------------------------------------------------------------

def fill_pypdf(blank: Path, out: Path, values: Mapping[str, str | int | bool], need_appearances: bool = False,
               incremental: bool = False) -> None:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    writer = PdfWriter(blank, incremental=True) if incremental else PdfWriter(clone_from=PdfReader(blank))
    texts = {k: str(v) for k, v in values.items() if not isinstance(v, bool)}
    ticks = {k: NameObject("/Yes" if v else "/Off") for k, v in values.items() if isinstance(v, bool)}
    writer.update_page_form_field_values(writer.pages[0], {**texts, **ticks}, auto_regenerate=need_appearances)
    with out.open("wb") as handle:
        writer.write(handle)


def fill_pikepdf(blank: Path, out: Path, values: Mapping[str, str | int | bool]) -> None:
    """Values only, as a script with pikepdf sets them: `/V` (and a checkbox's `/AS`), appearances asked of the
    viewer with NeedAppearances."""
    import pikepdf

    with pikepdf.open(blank) as pdf:
        for annot in pdf.pages[0].Annots:
            name = str(annot.get("/T", ""))
            if name not in values:
                continue
            value = values[name]
            if isinstance(value, bool):
                state = pikepdf.Name.Yes if value else pikepdf.Name.Off
                annot.V = state
                annot.AS = state
            else:
                annot.V = pikepdf.String(str(value))
        pdf.Root.AcroForm.NeedAppearances = True
        pdf.save(out, deterministic_id=True)


def fill_qpdf(blank: Path, out: Path, values: Mapping[str, str | int | bool]) -> None:
    qpdf = need("qpdf")
    staged = out.with_suffix(".values.pdf")
    fill_pikepdf(blank, staged, values)
    done = subprocess.run([qpdf, "--generate-appearances", str(staged), str(out)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode in (0, 3), done.stderr  # 3: warnings


def fill_pdftk(blank: Path, out: Path, values: Mapping[str, str | int | bool]) -> None:
    pdftk = need("pdftk")
    from xml.sax.saxutils import escape, quoteattr

    fields = "".join(f"<field name={quoteattr(k)}><value>{escape(('Yes' if v else 'Off') if isinstance(v, bool) else str(v))}"
                     "</value></field>" for k, v in values.items())
    xfdf = out.with_suffix(".xfdf")
    xfdf.write_text('<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/" '
                    f'xml:space="preserve"><fields>{fields}</fields></xfdf>', encoding="utf-8")
    done = subprocess.run([pdftk, str(blank), "fill_form", str(xfdf), "output", str(out)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def fill_pdf_lib(blank: Path, out: Path, values: Mapping[str, str | int | bool]) -> None:
    node = need("node")
    if not (PDF_LIB / "node_modules" / "pdf-lib").is_dir():
        if required():
            pytest.fail("pdf-lib is not installed: run `npm ci` in tests/sheets/pdf_lib (.ci/run does)")
        pytest.skip("pdf-lib is not installed (npm ci in tests/sheets/pdf_lib)")
    data = out.with_suffix(".json")
    data.write_text(json.dumps(dict(values)), encoding="utf-8")
    done = subprocess.run([node, str(PDF_LIB / "fill.mjs"), str(blank), str(out), str(data)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr


Filler = Callable[[Path, Path, Mapping[str, "str | int | bool"]], None]

FILLERS: dict[str, Filler] = {
    "pypdf": fill_pypdf,
    "pypdf-need-appearances": lambda b, o, v: fill_pypdf(b, o, v, need_appearances=True),
    "pypdf-incremental": lambda b, o, v: fill_pypdf(b, o, v, incremental=True),
    "pikepdf": fill_pikepdf,
    "qpdf": fill_qpdf,
    "pdftk": fill_pdftk,
    "pdf-lib": fill_pdf_lib,
}


# --- what is shown and what is read ---------------------------------------------------------------------------

def widgets(pdf: Path) -> dict[str, tuple[str, tuple[float, float, float, float]]]:
    """Each field of the sheet: its kind (/Tx, /Btn) and its rectangle, from the file itself."""
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject

    out = {}
    annotations = PdfReader(pdf).pages[0]["/Annots"].get_object()
    assert isinstance(annotations, ArrayObject)
    for ref in annotations:
        annot = ref.get_object()
        if annot.get("/Subtype") == "/Widget" and not int(annot.get("/F", 0)) & 2:  # not the hidden marker
            x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
            out[str(annot["/T"])] = (str(annot.get("/FT")), (x0, y0, x1, y1))
    return out


def shown(pdf: Path) -> tuple[dict[str, str], Any, float]:
    """What pdfium shows: the flattened page's text inside each text field, and the page rendered."""
    import pypdfium2.raw as raw

    from generator.pdfium_lock import pdf_document

    fields = widgets(pdf)
    with pdf_document(pdf) as document:  # pdfium one thread at a time, nothing of it outliving this
        document.init_forms()  # a viewer's form environment: draws fields, regenerates appearances a file asks for
        page = document[0]
        assert raw.FPDFPage_Flatten(page.raw, raw.FLAT_PRINT) in (raw.FLATTEN_SUCCESS, raw.FLATTEN_NOTHINGTODO)
        page.close()
        page = document[0]
        text = page.get_textpage()
        texts = {name: text.get_text_bounded(*rect).strip() for name, (kind, rect) in fields.items() if kind == "/Tx"}
        bitmap = page.render(scale=SCALE)
        image = bitmap.to_pil().convert("L")  # a copy
        height = page.get_height()
        for done in (bitmap, text, page):
            done.close()
    return texts, image, height


def ticked_pixels(image: Any, blank: Any, rect: tuple[float, float, float, float], height: float) -> float:
    x0, y0, x1, y1 = rect
    box = (int(x0 * SCALE), int((height - y1) * SCALE), int(x1 * SCALE), int((height - y0) * SCALE))
    from PIL import ImageChops

    mine, theirs = image.crop(box), blank.crop(box)
    changed = ImageChops.difference(mine, theirs).point(lambda v: 255 if v > 60 else 0)
    return float(sum(changed.histogram()[255:]) / max(1, mine.width * mine.height))


def read(pdf: Path) -> dict[str, str | bool]:
    """What donjon's reader takes from each field (the functions `donjon score` reads a sheet with)."""
    from generator.sheets.forms import _Reader, form_fields

    found = form_fields(pdf.read_bytes(), pdf.name)
    reader = _Reader(pdf.name, found, "castle sheet")
    out: dict[str, str | bool] = {}
    for name, (kind, _) in widgets(pdf).items():
        out[name] = reader.ticked(name) if kind == "/Btn" else reader.text(name)
    assert reader.problems == []
    return out


@pytest.fixture(scope="module")
def blank(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any, float]:
    folder = tmp_path_factory.mktemp("blank")
    pdf = write(folder / "blank.pdf")
    _, image, height = shown(pdf)
    return pdf, image, height


@pytest.mark.parametrize("filler", list(FILLERS))
def test_what_each_field_shows_is_what_is_read(filler: str, blank: tuple[Path, Any, float], tmp_path: Path) -> None:
    sheet, blank_image, height = blank
    out = tmp_path / f"{filler}.pdf"
    FILLERS[filler](sheet, out, CASTLE)
    texts, image, _ = shown(out)
    values = read(out)
    fields = widgets(out)
    # the filler did fill: what is read is what was typed
    for name, value in CASTLE.items():
        assert values[name] == (value if isinstance(value, bool) else str(value)), (filler, name)
    mismatches = []
    for name, (kind, rect) in fields.items():
        if kind == "/Btn":
            share = ticked_pixels(image, blank_image, rect, height)
            if (share > TICKED_SHARE) != values[name]:
                mismatches.append(f"{name}: shows {'ticked' if share > TICKED_SHARE else 'unticked'} "
                                  f"({share:.0%} of its pixels changed), reads {values[name]}")
        elif texts[name] != values[name]:
            mismatches.append(f"{name}: shows {texts[name]!r}, reads {values[name]!r}")
    assert mismatches == [], f"{filler}: " + "; ".join(mismatches)
    # and the castle scores as its YAML does
    result = scoring.score(out)
    assert result.valid and [p.name for p in result.players] == ["Ana Beth"]


def test_every_field_has_appearance_streams_of_its_own(blank: tuple[Path, Any, float]) -> None:
    import pikepdf

    with pikepdf.open(blank[0]) as pdf:
        seen: dict[tuple[int, int], str] = {}
        for annot in pdf.pages[0].Annots:
            normal = annot.AP.N
            streams = [normal] if isinstance(normal, pikepdf.Stream) else list(normal.values())
            for stream in streams:
                key = stream.objgen
                assert key not in seen, f"{annot.T} shares an appearance stream with {seen[key]}"
                seen[key] = str(annot.T)


def test_checkboxes_name_a_font_the_form_holds(blank: tuple[Path, Any, float]) -> None:
    """A checkbox's /DA names ZapfDingbats (its tick, /MK /CA "4") and the form's /DR holds it, as it holds the
    text fields' Helvetica: no filler or viewer meets an unknown font tag."""
    import pikepdf

    with pikepdf.open(blank[0]) as pdf:
        fonts = pdf.Root.AcroForm.DR.Font
        assert str(fonts.ZaDb.BaseFont) == "/ZapfDingbats" and str(fonts.Helv.BaseFont) == "/Helvetica"
        assert str(fonts.Helv.Encoding) == "/WinAnsiEncoding"
        for annot in pdf.pages[0].Annots:
            tag = str(annot.DA).split()[0].lstrip("/")
            assert f"/{tag}" in fonts, f"{annot.T} names {tag}, which the form's /DR lacks"
            assert tag == ("ZaDb" if annot.FT == "/Btn" else "Helv")


def test_a_name_its_font_cannot_show_is_refused_as_it_is_typed(blank: tuple[Path, Any, float]) -> None:
    """Helvetica's WinAnsi shows Western European letters only: in a viewer that runs form scripts, a text field
    refuses any other as it is typed, and says why (see generator/backends/pdf.py)."""
    import pikepdf

    with pikepdf.open(blank[0]) as pdf:
        player = next(a for a in pdf.pages[0].Annots if str(a.T) == "player")
        script = str(player.AA.K.JS)
    assert "event.rc=false" in script and "app.alert(" in script and "\\u0141" in script
    assert "\\xa0-\\xff" in script  # Latin-1 letters (é, ü, ø...) are kept


def test_pdf_lib_refuses_a_name_its_helvetica_cannot_show(blank: tuple[Path, Any, float], tmp_path: Path) -> None:
    """A program filling the sheet meets the same limit, with a message of its own, rather than a wrong name (the
    same filler writes a Latin-1 name: it is the letter it refuses, in pdf-lib's words, not donjon's)."""
    fill_pdf_lib(blank[0], tmp_path / "zoe.pdf", {"player": "Zo\u00eb"})
    with pytest.raises(AssertionError):
        fill_pdf_lib(blank[0], tmp_path / "lukasz.pdf", {"player": "\u0141ukasz"})
    assert not (tmp_path / "lukasz.pdf").exists()


def test_latin_1_names_show_as_they_are_read(blank: tuple[Path, Any, float], tmp_path: Path) -> None:
    out = tmp_path / "names.pdf"
    fill_pypdf(blank[0], out, {"player": "Zoë Müller-Ørsted", "guest_1": "queen"})
    texts, _, _ = shown(out)
    assert texts["player"] == read(out)["player"] == "Zoë Müller-Ørsted"
