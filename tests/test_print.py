"""Print-shop files (issue 24): page boxes, service exports in CMYK, the preflight, calibration, ink-light.

Every check reads the files with independent tools: pikepdf and poppler's pdfinfo for the boxes, Ghostscript for
the ink (its CMYK separations `tiff32nc` for the highest total ink of a pixel, `ink_cov` for coverage), pdftoppm
for what a person sees. The expensive exports are made once per session (`exported`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any, cast

import pytest

from generator.resources import content_dir

DECKS = content_dir() / "examples" / "decks"
GS = shutil.which("gs")
needs_gs = pytest.mark.skipif(GS is None, reason="Ghostscript (gs) is not installed")


def donjon(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every sample deck for DriveThruCards (the tiles draw see-through and masked boxes, which its PDF/X-1a must
    flatten), the skirmish deck (PNG and SVG art, transparency) for MB PRINT and PrintNinja, and an RGB build."""
    out = tmp_path_factory.mktemp("print")
    for service in ("dtc", "mbprint", "printninja"):
        done = donjon("export", "--service", service, *(() if service == "dtc" else ("--decks", "skirmish")),
                      "--content", str(DECKS), "--out", str(out))
        assert done.returncode in (0, 1), done.stderr
    done = donjon("export", "--service", "dtc", "--colour", "rgb", "--decks", "skirmish", "--content", str(DECKS),
                  "--out", str(out / "rgb"))
    assert done.returncode in (0, 1), done.stderr
    return out


def _pdfinfo_boxes(pdf: Path, page: int = 1) -> dict[str, tuple[float, ...]]:
    text = subprocess.run(["pdfinfo", "-box", "-f", str(page), "-l", str(page), str(pdf)], capture_output=True,
                          text=True, check=True).stdout
    return {m[1]: tuple(float(v) for v in m[2].split()) for m in re.finditer(r"Page\s+\d+ (\w+Box):\s+([-\d. ]+)", text)}


def test_every_kind_of_pdf_has_its_cut_and_bleed(exported: Path, tmp_path: Path) -> None:
    import pikepdf

    # a deck's sheets (the whole sheet is the cut), a reference, the calibration sheet, a service's cards
    assert donjon("build", "guildhall/vp-tokens", "--out", str(tmp_path), "--format", "pdf").returncode == 0
    assert donjon("build", "calibration", "--out", str(tmp_path)).returncode == 0
    assert donjon("reference", "guildhall", "--out", str(tmp_path)).returncode == 0
    sheets = [tmp_path / "guildhall" / "vp-tokens.pdf", tmp_path / "calibration" / "calibration-a4.pdf",
              tmp_path / "references" / "guildhall-reference.pdf"]
    for pdf in sheets:
        boxes = _pdfinfo_boxes(pdf)
        assert boxes["TrimBox"] == boxes["MediaBox"] == boxes["BleedBox"], pdf
        with pikepdf.open(pdf) as doc:
            assert all("/TrimBox" in p.obj and "/BleedBox" in p.obj for p in doc.pages), pdf
    dtc = exported / "print" / "drivethrucards" / "decks" / "skirmish.pdf"
    boxes = _pdfinfo_boxes(dtc)
    # poker card: cut 2.5 x 3.5 in, page 2.75 x 3.75 in, the cut 1/8 in inside
    assert boxes["MediaBox"] == pytest.approx((0, 0, 198, 270), abs=0.01)
    assert boxes["TrimBox"] == pytest.approx((9, 9, 189, 261), abs=0.01)
    assert boxes["BleedBox"] == boxes["MediaBox"]
    mb = exported / "print" / "mbprint" / "decks" / "skirmish-63x88.pdf"  # named with the card's size
    with pikepdf.open(mb) as doc:
        trim = [float(v) for v in doc.pages[0].obj.TrimBox]
        media = [float(v) for v in doc.pages[0].obj.MediaBox]
    assert trim[0] - media[0] == pytest.approx(3 / 25.4 * 72, abs=0.01)  # 3 mm of bleed
    assert (trim[2] - trim[0]) / 72 * 25.4 == pytest.approx(63, abs=0.01)


def test_cmyk_files_hold_no_rgb_nor_transparency_and_say_their_printing_condition(exported: Path) -> None:
    import pikepdf

    dtc = sorted((exported / "print" / "drivethrucards" / "decks").glob("*.pdf"))
    assert [p.stem for p in dtc] == ["market", "quests", "skirmish", "tiles", "tokens"]
    for pdf in dtc:
        with pikepdf.open(pdf) as doc:
            intents = doc.Root.OutputIntents
            assert str(intents[0].S) == "/GTS_PDFX"
            assert int(intents[0].DestOutputProfile.N) == 4
            assert str(doc.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
            for obj in doc.objects:
                if isinstance(obj, pikepdf.Stream):
                    space = obj.get("/ColorSpace")
                    assert space is None or str(space) in ("/DeviceCMYK", "/DeviceGray"), obj.objgen
            # PDF/X-1a: no soft masks, no opacity below 1 (the tiles' masked art and see-through back)
            assert _transparency(doc) == [], pdf.name
            for page in doc.pages:
                for instruction in pikepdf.parse_content_stream(page):
                    assert str(instruction.operator) not in ("rg", "RG"), "an RGB colour in a CMYK page"
            forms = [o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"]
            for form in forms:
                for instruction in pikepdf.parse_content_stream(form):
                    operator = str(instruction.operator)
                    assert operator not in ("rg", "RG", "sc", "scn"), f"colour {operator} in form {form.objgen}"


def _transparency(doc: Any) -> list[str]:
    """Every soft mask and opacity below 1 anywhere in a document (pikepdf: its catalogue walked, direct
    dictionaries such as a page's graphics states included)."""
    import pikepdf

    found: list[str] = []
    seen: set[tuple[int, int]] = set()
    stack: list[Any] = [doc.Root]
    while stack:
        obj = stack.pop()
        if obj.is_indirect:
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
        if isinstance(obj, pikepdf.Array):
            children = list(obj)
        else:
            if "/SMask" in obj and str(obj.SMask) != "/None":
                found.append("a soft mask")
            found += [f"{key} {obj[key]}" for key in ("/CA", "/ca")
                      if key in obj and isinstance(obj[key], (int, float, Decimal)) and float(obj[key]) < 1]
            children = [value for key, value in obj.items() if key not in ("/Parent", "/P")]
        stack.extend(c for c in children if isinstance(c, (pikepdf.Dictionary, pikepdf.Stream, pikepdf.Array)))
    return found


def _highest_ink(pdf: Path, tmp: Path, first: int = 1, last: int = 4) -> float:
    """The highest C+M+Y+K of any pixel, in percent, as Ghostscript separates the pages."""
    from PIL import Image, ImageMath

    subprocess.run([GS or "gs", "-q", "-o", str(tmp / "sep-%03d.tif"), "-sDEVICE=tiff32nc", "-r100",
                    f"-dFirstPage={first}", f"-dLastPage={last}", str(pdf)], check=True)
    highest = 0.0
    for tif in sorted(tmp.glob("sep-*.tif")):
        with Image.open(tif) as image:
            c, m, y, k = (band.convert("I") for band in image.split())
        total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
        highest = max(highest, total.getextrema()[1] / 255 * 100)
    return highest


@needs_gs
def test_total_ink_stays_within_the_service_limit(exported: Path, tmp_path: Path) -> None:
    dtc = exported / "print" / "drivethrucards" / "decks" / "skirmish.pdf"
    highest = _highest_ink(dtc, tmp_path, 1, 12)
    assert 150 < highest <= 240 + 1  # rich black and dark art reach the limit, never beyond (one step of rounding)


def test_cmyk_looks_like_the_rgb_build(exported: Path, tmp_path: Path) -> None:
    from PIL import Image, ImageChops, ImageStat

    pictures = []
    for pdf in (exported / "print" / "drivethrucards" / "decks" / "skirmish.pdf",
                exported / "rgb" / "print" / "drivethrucards" / "decks" / "skirmish.pdf"):
        stem = tmp_path / pdf.parent.parent.parent.parent.name
        subprocess.run(["pdftoppm", "-r", "50", "-f", "2", "-l", "2", "-png", str(pdf), str(stem)], check=True)
        with Image.open(next(tmp_path.glob(f"{stem.name}*.png"))) as image:
            pictures.append(image.convert("RGB"))
    difference = ImageStat.Stat(ImageChops.difference(*pictures)).mean
    # the same colours a person would call the same: mean difference well under a tenth of the scale per channel
    assert max(difference) < 20, difference


def test_donjons_own_exports_pass_their_services(exported: Path) -> None:
    for service, folder in (("dtc", "drivethrucards"), ("mbprint", "mbprint"), ("printninja", "printninja")):
        files = sorted((exported / "print" / folder / "decks").glob("*.pdf"))
        done = donjon("check-print", *map(str, files), "--service", service, "--json")
        reports = _report(done)
        assert len(reports) == len(files) == (5 if service == "dtc" else 1)
        assert all(r["verdict"] != "refused" for r in reports), done.stdout
        assert done.returncode == 0, done.stdout


def test_an_annotation_or_a_form_field_on_the_printed_area_of_a_pdfx_file_is_refused(exported: Path,
                                                                                    tmp_path: Path) -> None:
    """A DriveThruCards file (PDF/X-1a) the service would take is refused once a link or a form field lies on a
    card's printed area (its BleedBox), each named on its page; a trapping network's annotation there, and a note
    off the page, are not."""
    import pikepdf

    path = tmp_path / "annotated.pdf"
    with pikepdf.open(exported / "print" / "drivethrucards" / "decks" / "skirmish.pdf") as pdf:
        def annotate(page: int, **keys: Any) -> Any:
            annotation = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, **keys))
            pdf.pages[page - 1].obj.Annots = pdf.make_indirect(pikepdf.Array([annotation]))
            return annotation

        annotate(1, Subtype=pikepdf.Name.Link, Rect=[20, 20, 60, 40], Border=[0, 0, 0])
        field = annotate(2, Subtype=pikepdf.Name.Widget, FT=pikepdf.Name.Tx, T=pikepdf.String("name"),
                         Rect=[2, 2, 8, 8])  # in the bleed: outside the cut, inside the BleedBox
        pdf.Root.AcroForm = pikepdf.Dictionary(Fields=[field])
        annotate(3, Subtype=pikepdf.Name.TrapNet, Rect=[0, 0, 198, 270])
        annotate(4, Subtype=pikepdf.Name.Text, Rect=[-40, -40, -20, -20])
        pdf.save(path)
    done = donjon("check-print", str(path), "--service", "dtc", "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["verdict"] == "refused", done.stdout
    # (the sample deck's cost badges, drawn as paths, come into the safe margin: warned under `safe`)
    findings = [f for f in report["findings"] if f["rule"] != "safe"]
    found = [(f["page"], f["rule"], f["verdict"]) for f in findings]
    assert found == [(1, "pdfx", "refused"), (2, "pdfx", "refused")], findings
    assert "Link annotation" in findings[0]["message"]
    assert "form field (name)" in findings[1]["message"]


def test_a_jpeg_2000_picture_in_a_pdfx_1a_file_is_refused(exported: Path, tmp_path: Path) -> None:
    """PDF/X-1a is PDF 1.4, and JPEG 2000 (JPXDecode) came with PDF 1.5: a DriveThruCards file the service would
    take is refused once a JPEG 2000 picture is drawn on a card (named on its page); the same picture as a JPEG
    (DCTDecode) is not."""
    import io

    import pikepdf
    from PIL import Image

    def encoded(kind: str) -> bytes:
        out = io.BytesIO()
        Image.new("L", (600, 600), 128).save(out, kind)
        return out.getvalue()

    path = tmp_path / "jpx.pdf"
    with pikepdf.open(exported / "print" / "drivethrucards" / "decks" / "skirmish.pdf") as pdf:
        for page, kind, filter in ((1, "JPEG2000", pikepdf.Name.JPXDecode), (3, "JPEG", pikepdf.Name.DCTDecode)):
            picture = pikepdf.Stream(pdf, encoded(kind), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                                     Width=600, Height=600, ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8,
                                     Filter=filter)  # 600 px over 72 pt: 600 dpi
            target = pdf.pages[page - 1]
            target.add_resource(picture, pikepdf.Name.XObject, pikepdf.Name("/Added"))
            target.contents_add(pdf.make_stream(b"q 72 0 0 72 40 40 cm /Added Do Q"))
        pdf.save(path)
    done = donjon("check-print", str(path), "--service", "dtc", "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["verdict"] == "refused", done.stdout
    found = [(f["page"], f["rule"], f["verdict"]) for f in report["findings"]]
    assert found == [(1, "pdfx", "refused")], report["findings"]
    assert "JPEG 2000" in report["findings"][0]["message"]


def _lzw(data: bytes) -> bytes:
    """`data` compressed with LZW (LZWDecode, PDF 1.7 7.4.4) the simplest way: a clear-table code, each byte as a
    9-bit code of its own, the end code (codes stay 9 bits wide while fewer than 253 bytes have been coded)."""
    assert len(data) < 253
    bits = "".join(f"{code:09b}" for code in (256, *data, 257))
    bits += "0" * (-len(bits) % 8)
    return bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))


def _jbig2_white(size: int) -> bytes:
    """A JBIG2 picture (JBIG2Decode's embedded stream, ITU T.88 7.2) of `size` x `size` white pixels, at most 8: a
    page information segment (type 48), then an immediate lossless generic region (type 39) coded with MMR (T.6),
    where each white row over a white reference row is one V0 code, a 1 bit."""
    import struct

    def segment(number: int, kind: int, data: bytes) -> bytes:
        return struct.pack(">IBBBI", number, kind, 0, 1, len(data)) + data

    return segment(0, 48, struct.pack(">IIIIBH", size, size, 0, 0, 0, 0)) + \
        segment(1, 39, struct.pack(">IIIIB", size, size, 0, 0, 0) + b"\x01" + bytes([256 - 2 ** (8 - size)]))


def test_a_service_taking_text_as_outlines_names_the_layout_boxes_in_its_margin(tmp_path: Path) -> None:
    """MB PRINT takes text as outlines: its PDF holds no text, so the preflight saw the cost icons and titles 3 mm
    from the cut (its margin is 4 mm) as paths at best, with no name. The export now measures the layouts, as for
    the services taking pictures, and names each box, its file and line, and the cards; the file is written.
    (The sample's units with their cost icon where it was before it moved inside MB PRINT's margin.)"""
    decks = tmp_path / "decks"
    shutil.copytree(DECKS, decks)
    unit_layout = decks / "skirmish" / "unit.yaml"
    text = unit_layout.read_text(encoding="utf-8")
    assert "cost-icon: {kind: icon, x: 100% - 8.75mm, y: 4.25mm," in text
    unit_layout.write_text(text.replace("cost-icon: {kind: icon, x: 100% - 8.75mm, y: 4.25mm,",
                                        "cost-icon: {kind: icon, x: 100% - 8.75mm, y: 3mm,"), encoding="utf-8")
    done = donjon("export", "--service", "mbprint", "--decks", "skirmish", "--content", str(decks),
                  "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    boxes = [line for line in done.stderr.splitlines() if line.startswith("warning: ") and " box " in line]
    unit = [line for line in boxes if "box cost-icon (" in line and "unit.yaml:24) comes 3.0 mm" in line]
    assert unit and "inside the safe margin of 4.0 mm that the pages of MB PRINT ask for" in unit[0], boxes
    assert unit[0].endswith("on Knight, Archer, Dragon, Goblin raider, and Forest troll")
    # a service taking text as text measures its letters in the PDF, by the characters: no layout warnings
    done = donjon("export", "--service", "pn", "--decks", "skirmish", "--content", str(decks), "--out",
                  str(tmp_path / "pn"))
    assert done.returncode == 0 and " box " not in done.stderr, done.stderr


def test_the_shapes_of_a_page_are_measured_within_a_bound_and_what_is_left_is_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each path of a page is read for the safe margin (a path a letter, for text as outlines): a page of more
    objects than the bound has the rest left unmeasured, and the report says so rather than passing them."""
    from reportlab.pdfgen.canvas import Canvas

    from generator.prepress import preflight
    from generator.prepress.services import find_service

    target = tmp_path / "many.pdf"
    canvas = Canvas(str(target), pagesize=(198, 270), invariant=1)
    canvas.setTrimBox([9, 9, 189, 261])
    canvas.setFillColorCMYK(0, 0, 0, 1)
    for n in range(6):  # six 5 pt squares 3 pt inside the cut
        canvas.rect(12, 40 + n * 30, 5, 5, fill=1, stroke=0)
    canvas.showPage()
    canvas.save()
    said = [f.message for f in _safe_findings(target, find_service("dtc"))]
    assert len(said) == 1 and "6 shapes drawn as paths" in said[0]
    monkeypatch.setattr(preflight, "MAX_SHAPE_OBJECTS", 4)
    said = [f.message for f in _safe_findings(target, find_service("dtc"))]
    assert len(said) == 2 and "more than 4 objects on the page" in said[0] and "4 shapes drawn" in said[1], said


def _safe_findings(path: Path, service: Any) -> list[Any]:
    from generator.prepress.preflight import check_pdf

    return [f for f in check_pdf(path, service).findings if f.rule == "safe"]


def test_a_page_of_many_see_through_graphics_states_is_one_finding(tmp_path: Path) -> None:
    """For PDF/X-1a, each see-through graphics state was a refusal of its own: the sample spells exported with
    `--pdfx none` gave 46 lines a page, one per opacity of their faded art. A page's are now one finding saying how
    many, the lowest opacity and the first names; a page of one state keeps its one line."""
    from reportlab.pdfgen.canvas import Canvas

    target = tmp_path / "faded.pdf"
    canvas = Canvas(str(target), invariant=1)
    for alphas in ([0.8, 0.5, 0.3, 0.9], [0.6]):
        canvas.setPageSize((198, 270))
        canvas.setTrimBox([9, 9, 189, 261])
        canvas.setFillColorCMYK(0, 0, 0, 0.2)
        canvas.rect(0, 0, 198, 270, fill=1, stroke=0)
        for n, alpha in enumerate(alphas):
            canvas.setFillAlpha(alpha)
            canvas.rect(40 + n * 20, 100, 15, 15, fill=1, stroke=0)
        canvas.showPage()
    canvas.save()
    report = _report(donjon("check-print", str(target), "--service", "dtc", "--json"))[0]
    see_through = [(f["page"], f["message"]) for f in report["findings"] if "transparency" in f["message"]]
    assert len(see_through) == 2, see_through
    assert see_through[0][0] == 1 and "in 4 graphics states (opacity down to 0.3" in see_through[0][1]
    assert see_through[1][0] == 2 and "transparency (opacity 0.6, graphics state" in see_through[1][1]


def test_a_filter_pdfx_1a_excludes_is_refused(exported: Path, tmp_path: Path) -> None:
    """PDF/X-1a allows no LZW and no JBIG2 compression: a DriveThruCards file the service would take is refused
    once a picture is JBIG2 (named on its page), a picture written inline is LZW (/F /LZW) or a page's drawing is
    LZW-compressed (a file finding naming the object); MB PRINT, for which PDF/X-1a is donjon's choice, warns. The
    files are read by qpdf (which decodes LZW), poppler (which lists the JBIG2 picture and renders it without a
    complaint) and Ghostscript first: the filters are what the tools find, the data sound."""
    import pikepdf

    path = tmp_path / "filters.pdf"
    with pikepdf.open(exported / "print" / "drivethrucards" / "decks" / "skirmish.pdf") as pdf:
        picture = pikepdf.Stream(pdf, _jbig2_white(8), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                                 Width=8, Height=8, ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=1,
                                 Filter=pikepdf.Name.JBIG2Decode)
        pdf.pages[0].add_resource(picture, pikepdf.Name.XObject, pikepdf.Name("/Added"))
        pdf.pages[0].contents_add(pdf.make_stream(b"q 1 0 0 1 40 40 cm /Added Do Q"))  # 8 px over 1 pt: 576 dpi
        inline = _lzw(b"\x00\x00\x00\x00" * 4)  # 2 x 2 CMYK pixels of no ink
        pdf.pages[2].contents_add(pdf.make_stream(b"q 0.01 0 0 0.01 40 40 cm BI /W 2 /H 2 /CS /CMYK /BPC 8 /F /LZW "
                                                  b"ID " + inline + b" EI Q"))
        drawing = b"q 0 0 0 0.5 k 40 40 20 20 re f Q"
        added = pdf.make_stream(_lzw(drawing), Filter=pikepdf.Name.LZWDecode)
        target = pdf.pages[4].obj  # pikepdf's contents_add would decode and rewrite it
        target.Contents = pikepdf.Array([*(target.Contents if isinstance(target.Contents, pikepdf.Array) else
                                           [target.Contents]), added])
        # as written: else qpdf decodes the LZW and compresses the drawing anew with Flate
        pdf.save(path, compress_streams=False, stream_decode_level=pikepdf.StreamDecodeLevel.none)
    with pikepdf.open(path) as saved:  # saving numbers objects anew
        number = saved.pages[4].Contents[-1].objgen[0]
    assert subprocess.run(["qpdf", "--check", str(path)], capture_output=True).returncode == 0
    decoded = subprocess.run(["qpdf", f"--show-object={number}", "--filtered-stream-data", str(path)],
                             capture_output=True, check=True).stdout
    assert decoded == drawing
    listed = subprocess.run(["pdfimages", "-f", "1", "-l", "1", "-list", str(path)], capture_output=True, text=True,
                            check=True).stdout
    assert re.search(r"\b8\s+8\s+gray\s+1\s+1\s+jbig2\b", listed), listed
    rendered = subprocess.run(["pdftoppm", "-f", "1", "-l", "1", "-r", "20", str(path), str(tmp_path / "p")],
                              capture_output=True, text=True)
    assert rendered.returncode == 0 and not rendered.stderr, rendered.stderr
    if GS is not None:
        assert subprocess.run([GS, "-q", "-o", "/dev/null", "-sDEVICE=nullpage", str(path)],
                              capture_output=True).returncode == 0
    for service, verdict in (("dtc", "refused"), ("mbprint", "warned")):
        done = donjon("check-print", str(path), "--service", service, "--json")
        report = json.loads(done.stdout)
        assert done.returncode == 1 and report["verdict"] == "refused"  # for MB PRINT: its text is no outlines
        found = [(f["page"], f["rule"], f["verdict"]) for f in report["findings"] if f["rule"] == "pdfx"]
        assert found == [(1, "pdfx", verdict), (3, "pdfx", verdict), (None, "pdfx", verdict)], report["findings"]
        said = [f["message"] for f in report["findings"] if f["rule"] == "pdfx"]
        assert "JBIG2" in said[0] and "/Added" in said[0] and "LZW" in said[1] and "(inline)" in said[1], said
        assert said[2].startswith(f"object {number} is compressed with LZW"), said


def test_every_deck_of_every_game_passes_drivethrucards(tmp_path: Path) -> None:
    """The games' own decks for DriveThruCards: the export's preflight (the one `check-print` runs) finds nothing
    the service would refuse in any of them (the floor tiles' text kept inside its 1/8 in safe area)."""
    done = donjon("export", "--service", "dtc", "--out", str(tmp_path))
    files = sorted((tmp_path / "print" / "drivethrucards").rglob("*.pdf"))
    assert len(files) == 8 and done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("DriveThruCards would take it") == len(files), done.stdout


def test_a_deck_of_hexagons_is_warned_as_cut_rectangular(tmp_path: Path) -> None:
    """A deck whose pieces are not rectangles (the sample hexagonal tiles) exported for DriveThruCards: the file is
    taken (exit 0) but its preflight warns, naming the deck and its shape, in the deck's language; a plain card deck
    gets no such warning. No page of a service says what it does with such a shape, so the warning (in every
    language, for every service) says that the service's pages do not state it and gives donjon's own reading with
    the rule's confidence (OWN_RULES), never "SERVICE cuts rectangles" as the service's word; its source says the same."""
    from generator.i18n import language
    from generator.prepress.preflight import Preflight, add_shape
    from generator.prepress.services import find_service

    done = donjon("export", "--service", "dtc", "--decks", "tiles", "--content", str(DECKS), "--out", str(tmp_path),
                  "--json", "--lang", "fr")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(next(line for line in done.stdout.splitlines() if line.startswith("{")))
    shaped = [f for f in report["findings"] if f["rule"] == "shape"]
    assert report["verdict"] == "warned" and len(shaped) == 1 and shaped[0]["verdict"] == "warned", report
    assert "tiles/tiles" in shaped[0]["message"] and "«\u202fhexagone\u202f»" in shaped[0]["message"]
    assert "lecture de donjon (confiance M)" in shaped[0]["message"], shaped[0]["message"]
    assert "ne disent pas" in shaped[0]["message"] and "mais DriveThruCards" not in shaped[0]["message"]
    assert shaped[0]["source"].startswith("not confirmed by the service (confidence M)"), shaped[0]["source"]
    from generator.catalog.shapes import RECT, named_shape
    from generator.prepress.services import OWN_RULES, all_services

    for service in all_services():
        for lang, own, unstated in (("en", "donjon's own reading (confidence M)", "is not stated"),
                                    ("de", "donjons eigene Lesart (Verlässlichkeit: M)", "sagen die von donjon"),
                                    ("fr", "lecture de donjon (confiance M)", "ne disent pas")):
            result = Preflight("tokens.pdf", service, pages=2)
            add_shape(result, "decks/tokens", named_shape("circle"), language(lang))
            add_shape(result, "decks/cards", RECT, language(lang))
            [finding] = result.findings
            assert (finding.rule, finding.verdict, result.verdict) == ("shape", "warned", "warned"), service.id
            assert "decks/tokens" in finding.message and service.name in finding.message, finding.message
            assert own in finding.message and unstated in finding.message, finding.message
            assert f"{service.name} cuts rectangles" not in finding.message
            assert result.as_json()["findings"][0]["source"] == (
                f"not confirmed by the service (confidence {OWN_RULES['shape'].confidence}): "
                f"{OWN_RULES['shape'].note}")
    result = Preflight("tokens.pdf", find_service("dtc"), pages=2)
    add_shape(result, "decks/tokens", named_shape("circle"), language("en"))
    assert result.lines()[1].startswith("  file: WARNED [shape] the deck decks/tokens has pieces of the shape circle;")


def test_cards_with_round_corners_are_warned_as_each_services_pages_say(tmp_path: Path) -> None:
    """A deck of cards with round corners (the Guedelon floor tiles): no page read of any service says whether it
    rounds card corners, so for each the warning (rule `corners`) says that it is not stated, in the deck's language,
    citing the service's data as unconfirmed, and never that the cards come out rectangular; a service whose data
    says round corners are an option (with a source) is warned so; exported as a user does, the same."""
    import dataclasses

    from generator.catalog.shapes import named_shape
    from generator.i18n import language
    from generator.prepress.preflight import Preflight, add_shape
    from generator.prepress.services import RuleSource, all_services

    rounded = named_shape("rounded")
    for service in all_services():
        result = Preflight("tiles.pdf", service, pages=1)
        add_shape(result, "guedelon/floor-tiles", rounded, language("en"))
        [finding] = result.findings
        assert (finding.rule, finding.verdict) == ("corners", "warned"), service.id
        assert f"whether {service.name} rounds card corners is not stated" in finding.message, finding.message
        assert "rectangular" not in finding.message
        assert result.as_json()["findings"][0]["source"].startswith("not confirmed by the service"), service.id
        add_shape(result, "guedelon/floor-tiles", rounded, language("de"))
        assert f"ob {service.name} die Ecken der Karten abrundet" in result.findings[-1].message
    offered = dataclasses.replace(service, corners="option", provenance={
        **service.provenance, "corners": RuleSource(service.sources[0].id, "round corners can be chosen")})
    result = Preflight("tiles.pdf", offered, pages=1)
    add_shape(result, "guedelon/floor-tiles", rounded, language("en"))
    assert "list round corners as an option: choose it when ordering" in result.findings[0].message
    assert "round corners can be chosen" in result.as_json()["findings"][0]["source"]
    done = donjon("export", "--service", "dtc", "--decks", "guedelon/floor-tiles", "--out", str(tmp_path), "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(next(line for line in done.stdout.splitlines() if line.startswith("{")))
    assert [f["rule"] for f in report["findings"]] == ["corners"], report
    assert "is not stated" in report["findings"][0]["message"]


def test_a_deck_cut_at_a_size_the_game_crafter_makes_no_product_of_is_warned_naming_the_nearest(
        tmp_path: Path) -> None:
    """The Game Crafter takes a PNG per face whatever its size, then prints the deck product chosen: a deck of 22 mm
    tokens (cut at 0.875 in) or of 70 mm squares (2.75 in) has no product of its size among those its file lists, and
    was exported without a word. Each is now warned about on standard error, in the deck's language, naming the
    nearest product by its size (rule `products`: read from designers' pages, so a warning with its confidence, not a
    refusal); a poker deck (63 x 88 mm, cut at 2.5 x 3.5 in: the Poker Deck) is not. Every product has a source or a
    confidence, and a source the file lists."""
    from generator.catalog.common import CardSize
    from generator.i18n import language
    from generator.prepress.preflight import Preflight, add_product, product_warning
    from generator.prepress.services import find_service

    tgc = find_service("tgc")
    assert tgc.products and all(p.confidence for p in tgc.products)
    assert {p.source for p in tgc.products if p.source} <= {s.id for s in tgc.sources}
    assert not tgc.rule("products").confirmed  # no page of its own read: never a refusal
    assert product_warning("d", CardSize("poker", 63, 88), tgc, language("en")) is None
    assert product_warning("d", CardSize("bridge", 57.15, 88.9), tgc, language("en")) is None
    said = product_warning("d", CardSize("square", 70, 70), tgc, language("en"))
    assert said is not None and "cut at 2.75 x 2.75 in" in said and "nearest is its Poker Deck (2.5 x 3.5 in)" in said
    # said the way up the deck is: a landscape card's nearest product is given landscape too
    said = product_warning("d", CardSize("wide", 115, 68), tgc, language("en"))
    assert said is not None and "Tarot Deck (4.75 x 2.75 in)" in said and "4.5 x 2.625 in for" in said, said
    # a service whose file lists no product is not checked (DriveThruCards: none read)
    assert product_warning("d", CardSize("square", 70, 70), find_service("dtc"), language("en")) is None
    result = Preflight("x.pdf", tgc, pages=1)
    add_product(result, "d", CardSize("square", 70, 70), language("de"))
    [finding] = result.findings
    assert (finding.rule, finding.verdict) == ("products", "warned") and "2,75 x 2,75" in finding.message
    assert "Poker Deck" in finding.message and "Zoll" in finding.message, finding.message
    # were the sizes read from the service's own pages (a source in provenance), a PDF's deck of no product's size
    # would be refused, saying so
    import dataclasses

    from generator.prepress.services import RuleSource

    stated = dataclasses.replace(tgc, provenance={**tgc.provenance, "products": RuleSource(
        tgc.sources[0].id, "its product pages list these decks")})
    result = Preflight("x.pdf", stated, pages=1)
    add_product(result, "d", CardSize("square", 70, 70), language("en"))
    assert [(f.rule, f.verdict) for f in result.findings] == [("products", "refused")]
    assert "none of the products its pages list has" in result.findings[0].message
    done = donjon("export", "--service", "tgc", "--decks", "guildhall/vp-tokens", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if "cut at" in line]
    assert len(warned) == 1 and warned[0].startswith("warning: the deck guildhall/vp-tokens is cut at 0.875 x 0.875 "
                                                     "in for The Game Crafter"), done.stderr
    assert "the nearest is its Mini Deck (1.75 x 2.5 in)" in warned[0] and "confidence M" in warned[0]
    done = donjon("export", "--service", "tgc", "--decks", "guildhall/job-faire-vp", "--out", str(tmp_path / "p"))
    assert done.returncode == 0 and "cut at" not in done.stderr, done.stderr


def test_a_picture_too_coarse_for_the_service_is_named_by_its_file(tmp_path: Path) -> None:
    """A designer's art at too few pixels for the service: the export's preflight names the picture by its file
    (the one to replace), not by the PDF's internal name of it (`/FormXob.img1`); `check-print` of any PDF, which
    knows no files, still names it as the PDF does."""
    from PIL import Image

    deck = tmp_path / "d"
    (deck / "art").mkdir(parents=True)
    Image.new("RGB", (60, 40), (200, 40, 40)).save(deck / "art" / "tiny dragon.png")
    (deck / "deck.yaml").write_text("id: d\nname: D\nlayout: layout.yaml\ncards: cards.csv\n")
    (deck / "cards.csv").write_text("Name,Art\nDragon,art/tiny dragon.png\n")
    (deck / "layout.yaml").write_text("background: '#ffffff'\nboxes:\n  art: {kind: image, x: 5mm, y: 5mm, "
                                      "width: 50mm, height: 40mm, src: '{{ Art }}'}\n")
    done = donjon("export", "--service", "dtc", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(r"REFUSED \[min_dpi\] the picture \S*d/art/tiny dragon\.png \(60 x 40 px\) is drawn at \d+ dpi",
                     done.stdout), done.stdout
    pdf = next((tmp_path / "out" / "print").rglob("*.pdf"))
    checked = donjon("check-print", str(pdf), "--service", "dtc")
    assert "the picture /FormXob.img1 (60 x 40 px)" in checked.stdout, checked.stdout


@pytest.mark.parametrize("service", ["dtc", "tgc"])
def test_export_json_gives_a_program_json_alone_on_standard_output(tmp_path: Path, service: str) -> None:
    """`donjon export --service NAME --json | jq`: every line of standard output is a JSON object (a PDF's preflight
    report); what was written, and the summary, go to standard error for the person watching."""
    done = donjon("export", "--service", service, "--decks", "guedelon", "--out", str(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    reports = _report(done)
    assert [Path(r["file"]).name for r in reports] == (["events.pdf", "floor-tiles.pdf"] if service == "dtc" else [])
    assert "wrote " in done.stderr and "Exported 2 decks" in done.stderr


def test_printninja_repeats_copies_and_shows_a_shared_back_once(exported: Path) -> None:
    import pikepdf

    with pikepdf.open(exported / "print" / "printninja" / "decks" / "skirmish.pdf") as doc:
        pages = len(doc.pages)
    # the skirmish deck: 21 cards printed; cards pick their backs, so every face with its back: 42 pages
    assert pages == 42


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """PDFs each breaking one rule, made with reportlab (not donjon's writer)."""
    from reportlab.pdfgen.canvas import Canvas

    folder = tmp_path_factory.mktemp("broken")

    def make(name: str, size: tuple[float, float], draw: object, trim: list[int] | None = None,
             pages: int = 2) -> None:
        canvas = Canvas(str(folder / f"{name}.pdf"), pagesize=size, invariant=1)
        for _ in range(pages):
            if trim is not None:
                canvas.setTrimBox(trim)
            assert callable(draw)
            draw(canvas)
            canvas.showPage()
        canvas.save()

    good_trim = [9, 9, 189, 261]
    make("no-bleed", (180, 252), lambda c: c.setFillColorCMYK(0, 0, 0, 1) or c.rect(20, 20, 50, 50, fill=1),
         [0, 0, 180, 252])
    make("rgb", (198, 270), lambda c: c.setFillColorRGB(1, 0, 0) or c.rect(20, 20, 50, 50, fill=1), good_trim)
    make("ink", (198, 270), lambda c: c.setFillColorCMYK(1, 1, 1, 1) or c.rect(20, 20, 50, 50, fill=1), good_trim)
    make("odd-pages", (198, 270), lambda c: c.setFillColorCMYK(0, 0, 0, 1) or c.rect(20, 20, 50, 50, fill=1),
         good_trim, pages=3)
    make("text-at-edge", (198, 270), lambda c: c.setFillColorCMYK(0, 0, 0, 1) or c.drawString(10, 130, "EDGE"),
         good_trim)
    yield folder


@pytest.mark.parametrize(("name", "rule"), [("no-bleed", "bleed"), ("rgb", "colour"), ("ink", "ink_limit"),
                                            ("odd-pages", "order"), ("text-at-edge", "safe")])
def test_check_print_names_the_rule_each_file_breaks(broken: Path, name: str, rule: str) -> None:
    done = donjon("check-print", str(broken / f"{name}.pdf"), "--service", "dtc", "--json")
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads(done.stdout)
    refused = {f["rule"] for f in report["findings"] if f["verdict"] == "refused"}
    assert rule in refused, report


def test_a_bleed_cut_off_by_the_crop_box_or_the_bleed_box_is_no_bleed(tmp_path: Path) -> None:
    """A card drawn with 1/8 in of bleed on its MediaBox, whose CropBox (clipping the page "when displayed or
    printed") or BleedBox (clipping it "when output in a production environment", PDF 1.7 14.11.2) stops at the
    TrimBox, prints with no bleed: check-print passed it, measuring the bleed from the MediaBox alone. Now refused
    under rule bleed, saying which box cuts it; the same card without those boxes, or with a CropBox larger than the
    page, passes."""
    from reportlab.pdfgen.canvas import Canvas

    trim: list[float] = [9, 9, 189, 261]  # 2.5 x 3.5 in, 1/8 in inside a 2.75 x 3.75 in page

    def card(name: str, **boxes: list[float]) -> Path:
        target = tmp_path / f"{name}.pdf"
        canvas = Canvas(str(target), pagesize=(198, 270), invariant=1)
        for _ in range(2):  # a back and a front
            canvas.setTrimBox(trim)
            for box, value in boxes.items():
                getattr(canvas, f"set{box}")(value)
            canvas.setFillColorCMYK(0, 0, 0, 0.2)
            canvas.rect(0, 0, 198, 270, fill=1, stroke=0)  # the background, into the bleed
            canvas.showPage()
        canvas.save()
        return target

    files = {"plain": card("plain"), "wide-crop": card("wide-crop", CropBox=[-20, -20, 218, 290]),
             "crop-at-trim": card("crop-at-trim", CropBox=trim),
             "bleed-box-at-trim": card("bleed-box-at-trim", BleedBox=trim),
             "crop-off-centre": card("crop-off-centre", CropBox=[4, 0, 198, 270])}
    done = donjon("check-print", *map(str, files.values()), "--service", "dtc", "--json")
    reports = dict(zip(files, _report(done)))
    assert len(reports) == len(files), done.stdout + done.stderr

    def bleed(name: str) -> list[str]:
        return [f["message"] for f in reports[name]["findings"] if f["rule"] == "bleed" and f["verdict"] == "refused"]

    assert not bleed("plain") and not bleed("wide-crop")
    assert bleed("crop-at-trim") and "CropBox" in bleed("crop-at-trim")[0] and "0.00 mm" in bleed("crop-at-trim")[0]
    assert bleed("bleed-box-at-trim") and "BleedBox" in bleed("bleed-box-at-trim")[0]
    assert bleed("crop-off-centre") and "1.76 mm" in bleed("crop-off-centre")[0]  # 4 pt cut from 9 pt of bleed
    assert done.returncode == 1


def _card_pdf(target: Path, pages: list[tuple[float, float]], text: bool = False) -> Path:
    """A deck of cards as a designer's tool writes one (reportlab): each page (width, height) in points, its
    TrimBox 1/8 in inside it, a CMYK background into the bleed; `text`: a word in Helvetica (not embedded)."""
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(target), invariant=1)
    for width, height in pages:
        canvas.setPageSize((width, height))
        canvas.setTrimBox([9, 9, width - 9, height - 9])
        canvas.setFillColorCMYK(0, 0, 0, 0.2)
        canvas.rect(0, 0, width, height, fill=1, stroke=0)
        if text:
            canvas.setFillColorCMYK(0, 0, 0, 1)
            canvas.setFont("Helvetica", 10)
            canvas.drawString(30, 60, "Knight")
        canvas.showPage()
    canvas.save()
    return target


def _pages_with(source: Path, target: Path, **keys: Any) -> Path:
    """A copy of `source` (pikepdf) with every page's `keys` set, as another tool writes its page boxes: a list is a
    box, None takes the key away, anything else (a number, a pikepdf Name) is written as it is."""
    import pikepdf

    with pikepdf.open(source) as doc:
        for page in doc.pages:
            for key, value in keys.items():
                if value is None:
                    del page.obj[f"/{key}"]
                else:
                    page.obj[f"/{key}"] = pikepdf.Array(value) if isinstance(value, list) else value
        doc.save(target)
    return target


def _report(done: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    """check-print's JSON lines, one a file."""
    return [json.loads(line) for line in done.stdout.splitlines()]


def _findings(done: subprocess.CompletedProcess[str], files: dict[str, Path], rule: str) -> dict[str, list[str]]:
    """Each file's refusals under `rule`, from check-print's JSON lines (one a file, in order)."""
    reports = _report(done)
    assert len(reports) == len(files), done.stdout + done.stderr
    return {name: [f["message"] for f in report["findings"] if f["rule"] == rule and f["verdict"] == "refused"]
            for name, report in zip(files, reports)}


def test_a_page_turned_by_its_rotate_entry_is_measured_as_it_prints(tmp_path: Path) -> None:
    """/Rotate (on the page, or inherited from the page tree: PDF 1.7, 7.7.3.3-7.7.3.4) turns a page when it is
    shown or printed. check-print read the MediaBox as written: a deck whose second card is written portrait but
    turned to landscape (a card printed sideways among the others) passed as "one size", and a deck whose landscape
    page is turned upright was refused as two sizes. pdfinfo's 'Page rot' is the independent reading."""
    import pikepdf

    portrait, landscape = (198.0, 270.0), (270.0, 198.0)
    files = {name: tmp_path / f"{name}.pdf" for name in ("sideways", "upright", "tree-sideways", "tree-upright")}
    for name, pages, turns in (("sideways", [portrait, portrait], (None, 90)),
                               ("upright", [portrait, landscape], (None, 270)),
                               ("tree-sideways", [portrait, portrait], ("tree", 0)),
                               ("tree-upright", [landscape, portrait], ("tree", 0))):
        _card_pdf(tmp_path / "plain.pdf", pages)
        with pikepdf.open(tmp_path / "plain.pdf") as doc:
            first, second = turns
            if first == "tree":  # given once on the page tree, inherited by page 1; page 2 says 0 itself
                doc.Root.Pages.Rotate = 90
                if "/Rotate" in doc.pages[0].obj:  # (reportlab writes /Rotate 0 on each page)
                    del doc.pages[0].obj.Rotate
            if second is not None:
                doc.pages[1].obj.Rotate = second
            doc.save(files[name])
    rotations = [re.findall(r"Page +\d+ rot: +(\d+)", subprocess.run(
        ["pdfinfo", "-f", "1", "-l", "2", str(files[name])], capture_output=True, text=True).stdout)
        for name in files]
    assert rotations == [["0", "90"], ["0", "270"], ["90", "0"], ["90", "0"]]  # as poppler reads the files
    done = donjon("check-print", *map(str, files.values()), "--service", "dtc", "--json")
    sizes = {name: [m for m in found if "sizes" in m] for name, found in _findings(done, files, "trim").items()}
    assert sizes["sideways"] and sizes["tree-sideways"], sizes
    assert not sizes["upright"] and not sizes["tree-upright"], sizes


def test_a_page_in_larger_units_is_measured_in_points(tmp_path: Path) -> None:
    """/UserUnit (PDF 1.7, 8.3.2.3, Table 30) makes a page's unit that many points. A card written at half its
    numbers with /UserUnit 2 is the same card: check-print measured its bleed in units (4.5 pt, refused) and its
    picture's resolution in units (413 x 563 px over 99 x 135 units: 300 dpi, passed, where it prints at 150) and its
    safe margin in units (a word 13 pt inside the cut refused as outside DTC's 9 pt)."""
    files = {"half": tmp_path / "half.pdf", "picture": tmp_path / "picture.pdf"}
    _card_pdf(tmp_path / "plain.pdf", [(99, 135)] * 2)
    _pages_with(tmp_path / "plain.pdf", files["half"], TrimBox=[4.5, 4.5, 94.5, 130.5], UserUnit=2)
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas
    from PIL import Image

    art = tmp_path / "art.png"
    Image.new("CMYK", (413, 563), (0, 0, 0, 40)).convert("RGB").save(art)
    canvas = Canvas(str(tmp_path / "picture-plain.pdf"), pagesize=(99, 135), invariant=1)
    for _ in range(2):
        canvas.setTrimBox([4.5, 4.5, 94.5, 130.5])
        canvas.drawImage(ImageReader(str(art)), 0, 0, 99, 135)
        canvas.showPage()
    canvas.save()
    _pages_with(tmp_path / "picture-plain.pdf", files["picture"], UserUnit=2)
    files["text"] = tmp_path / "text.pdf"  # a word 6.5 units (13 pt) inside the cut: within DTC's 1/8 in (9 pt)
    canvas = Canvas(str(tmp_path / "text-plain.pdf"), pagesize=(99, 135), invariant=1)
    for _ in range(2):
        canvas.setTrimBox([4.5, 4.5, 94.5, 130.5])
        canvas.setFont("Helvetica", 5)
        canvas.drawString(11, 11, "Knight")
        canvas.showPage()
    canvas.save()
    _pages_with(tmp_path / "text-plain.pdf", files["text"], UserUnit=2)
    # Ghostscript sizes the page as printed: 198 x 270 pt (pdfinfo gives 99 x 135, the units)
    bbox = subprocess.run(["gs", "-q", "-sDEVICE=bbox", "-dNOPAUSE", "-dBATCH", "-dLastPage=1", str(files["half"])],
                          capture_output=True, text=True).stderr
    assert re.search(r"%%BoundingBox: -?\d+ -?\d+ 19[89] 270", bbox), bbox
    done = donjon("check-print", *map(str, files.values()), "--service", "dtc", "--json")
    assert not _findings(done, files, "bleed")["half"]
    assert not _findings(done, files, "safe")["text"]
    dpi = _findings(done, files, "min_dpi")["picture"]
    assert dpi and "150 dpi" in dpi[0], dpi


def test_a_font_listed_but_never_shown_is_not_refused_as_not_embedded(tmp_path: Path) -> None:
    """reportlab lists Helvetica in every page's resources, text or not; a layout program may list a spread's fonts on
    each page. check-print refused such a font as "not embedded" although nothing is shown in it (PDF 1.7, 9.3.1:
    text is shown in the font Tf sets). A card that shows text in it is still refused."""
    files = {"no-text": _card_pdf(tmp_path / "no-text.pdf", [(198, 270)] * 2),
             "text": _card_pdf(tmp_path / "text.pdf", [(198, 270)] * 2, text=True)}
    listed = subprocess.run(["pdffonts", str(files["no-text"])], capture_output=True, text=True).stdout
    assert "Helvetica" in listed  # listed in the resources, as poppler reads them
    done = donjon("check-print", *map(str, files.values()), "--service", "dtc", "--json")
    embedded = {name: [m for m in found if "not embedded" in m] for name, found in _findings(done, files, "text").items()}
    assert not embedded["no-text"], embedded
    assert embedded["text"] and "Helvetica" in embedded["text"][0], embedded


def test_a_refusal_on_a_rule_the_service_does_not_state_says_why(tmp_path: Path) -> None:
    """A font not embedded is refused for every service (it prints in a substitute), but for PrintNinja, whose pages
    read state no font rule, the report cited the rule as "not confirmed by the service (confidence L): not stated
    by any source read" under a REFUSED line: a refusal with no reason. It now says the ground it is refused on; for
    DriveThruCards, which states the rule, its page is cited as before."""
    card = _card_pdf(tmp_path / "text.pdf", [(198, 270)] * 2, text=True)
    for service, says in (("printninja", "refused whatever the service's pages say: a font that is not embedded"),
                          ("dtc", "every font embedded (Spezifikationen")):
        done = donjon("check-print", str(card), "--service", service, "--json")
        found = [f for f in _report(done)[0]["findings"] if f["rule"] == "text" and f["verdict"] == "refused"]
        assert found and all(f["source"].startswith(says) for f in found), (service, found)
        text = donjon("check-print", str(card), "--service", service).stdout
        assert f"  rule text: {says}" in text and "not confirmed" not in text.split("rule text:")[1].split("\n")[0]


def test_a_trim_box_that_cuts_nothing_is_refused(tmp_path: Path) -> None:
    """A TrimBox of no width ([9 9 9 261], as a script writing the box from a bad number gives) left its 'bleed' the
    whole page: check-print said nothing of it. A cut of no area is refused under rule trim (PDF 1.7, 14.11.2: the
    TrimBox is "the intended dimensions of the finished page"); pdfinfo -box reads the same box."""
    _card_pdf(tmp_path / "plain.pdf", [(198, 270)] * 2)
    target = _pages_with(tmp_path / "plain.pdf", tmp_path / "no-width.pdf", TrimBox=[9, 9, 9, 261])
    boxes = subprocess.run(["pdfinfo", "-box", str(target)], capture_output=True, text=True).stdout
    assert re.search(r"TrimBox: +9\.00 +9\.00 +9\.00 +261\.00", boxes), boxes
    files = {"no-width": target, "plain": tmp_path / "plain.pdf"}
    done = donjon("check-print", *map(str, files.values()), "--service", "dtc", "--json")
    trim = _findings(done, files, "trim")
    assert trim["no-width"] and "0.00 mm x 88.90 mm" in trim["no-width"][0], trim
    assert not trim["plain"], trim


def test_a_page_without_a_trim_box_is_said_to_have_none(tmp_path: Path) -> None:
    """A card written without a TrimBox (as cairo writes one: Inkscape's and rsvg-convert's PDFs give a MediaBox
    alone) was never said to have none: pypdf's `page.trimbox` writes the box it falls back on (the CropBox, PDF 1.7
    14.11.2) into the page it reads, and check-print asked whether the page had a TrimBox after reading it. For a
    PDF/X service the missing cut is refused under trim; qpdf reads no TrimBox in the file."""
    _card_pdf(tmp_path / "plain.pdf", [(198, 270)] * 2)
    target = _pages_with(tmp_path / "plain.pdf", tmp_path / "no-trim.pdf", TrimBox=None)
    shown = subprocess.run(["qpdf", "--qdf", str(target), "-"], capture_output=True).stdout
    assert b"/TrimBox" not in shown and b"/MediaBox" in shown
    files = {"no-trim": target, "plain": tmp_path / "plain.pdf"}
    done = donjon("check-print", *map(str, files.values()), "--service", "dtc", "--json")
    trim = _findings(done, files, "trim")
    assert trim["no-trim"] and "no TrimBox" in trim["no-trim"][0], trim
    assert not trim["plain"], trim


def test_the_order_finding_of_a_one_page_file_counts_one_page(tmp_path: Path) -> None:
    """A lone card sent to DriveThruCards (backs and fronts in pairs) was refused as "1 pages: ..."."""
    files = {"one": _card_pdf(tmp_path / "one.pdf", [(198, 270)])}
    done = donjon("check-print", str(files["one"]), "--service", "dtc", "--json")
    order = _findings(done, files, "order")["one"]
    assert order and order[0].startswith("1 page: "), order


def test_a_file_encrypted_with_an_owner_password_alone_is_read_in_full(tmp_path: Path) -> None:
    """An owner password alone (an empty user password, as print-shop and layout exports write one) opens in every
    reader; check-print said only "is encrypted" (exit 2) and nothing else of the file. It is now read: every finding
    of the same file unencrypted, plus the encryption, refused where the service states PDF/X (DriveThruCards:
    PDF/X-1a allows none), warned where donjon chose PDF/X (MB PRINT) or the service states nothing of it
    (PrintNinja, which then takes it: exit 0). A password needed to open the file is still exit 2."""
    import pikepdf

    plain = _card_pdf(tmp_path / "plain.pdf", [(198, 270)] * 2)
    files = {"plain": plain}
    for name, encryption in (("rc4", pikepdf.Encryption(owner="secret", user="", R=3, aes=False, metadata=False)),
                             ("aes128", pikepdf.Encryption(owner="secret", user="", R=4)),
                             ("aes256", pikepdf.Encryption(owner="secret", user="", R=6))):
        files[name] = tmp_path / f"{name}.pdf"
        with pikepdf.open(plain) as doc:
            doc.save(files[name], encryption=encryption)
    files["no-print"] = tmp_path / "no-print.pdf"
    with pikepdf.open(plain) as doc:
        doc.save(files["no-print"], encryption=pikepdf.Encryption(
            owner="secret", user="", R=6, allow=pikepdf.Permissions(print_lowres=False, print_highres=False)))
    for name in files:  # poppler opens each without a password
        assert subprocess.run(["pdfinfo", str(files[name])], capture_output=True).returncode == 0, name
    for service, verdict, rule, code in (("dtc", "refused", "pdfx", 1), ("mbprint", "warned", "pdfx", 1),
                                         ("printninja", "warned", "encryption", 0)):
        done = donjon("check-print", *map(str, files.values()), "--service", service, "--json")
        assert done.returncode == code, (service, done.stdout, done.stderr)
        reports = dict(zip(files, _report(done)))
        assert len(reports) == len(files), done.stdout + done.stderr
        before = [(f["page"], f["rule"], f["verdict"], f["message"]) for f in reports["plain"]["findings"]]
        for name in ("rc4", "aes128", "aes256", "no-print"):
            found = [(f["page"], f["rule"], f["verdict"], f["message"]) for f in reports[name]["findings"]]
            added = [f for f in found if f not in before]
            assert [f for f in found if f in before] == before, (service, name, found)
            assert len(added) == 1 and added[0][1:3] == (rule, verdict) and "encrypted" in added[0][3], added
            assert ("forbid printing" in added[0][3]) == (name == "no-print"), added
            assert reports[name]["pages"] == 2
    locked = tmp_path / "locked.pdf"
    with pikepdf.open(plain) as doc:
        doc.save(locked, encryption=pikepdf.Encryption(owner="secret", user="reader", R=6))
    done = donjon("check-print", str(locked), "--service", "printninja")
    assert done.returncode == 2 and "password needed to open it" in done.stderr, done.stderr
    # encrypted by another security handler than the password one (certificates: /Adobe.PubSec; here a name of
    # the same length, so the cross-reference offsets hold): not "a damaged PDF"
    other = tmp_path / "other-handler.pdf"
    data = files["aes128"].read_bytes()
    assert data.count(b"/Filter /Standard") == 1
    other.write_bytes(data.replace(b"/Filter /Standard", b"/Filter /PubSecXY"))
    done = donjon("check-print", str(other), "--service", "printninja")
    assert done.returncode == 2 and "is encrypted in a way donjon cannot open" in done.stderr, \
        done.stderr
    assert "damaged" not in done.stderr and done.stderr.count("\n") == 1


def test_a_page_cut_at_its_art_box_is_measured_from_it(tmp_path: Path) -> None:
    """A card giving its cut as an ArtBox and no TrimBox (PDF/X takes either as the finished size) was accepted as
    having a cut, but its bleed was measured from the CropBox (the TrimBox's default): 0 mm, refused; and its safe
    text too (pdfium's TrimBox is the CropBox there), so a word 5 pt inside the ArtBox passed. Every measure now takes
    the ArtBox: no bleed finding, no "no TrimBox", the word refused; the same card with a TrimBox reads the same."""
    import pikepdf
    from reportlab.pdfgen.canvas import Canvas

    with_trim = tmp_path / "trim.pdf"
    canvas = Canvas(str(with_trim), pagesize=(198, 270), invariant=1)
    for _ in range(2):
        canvas.setTrimBox([9, 9, 189, 261])
        canvas.setFillColorCMYK(0, 0, 0, 0.2)
        canvas.rect(0, 0, 198, 270, fill=1, stroke=0)
        canvas.setFillColorCMYK(0, 0, 0, 1)
        canvas.setFont("Helvetica", 8)
        canvas.drawString(14, 100, "Knight")  # 5 pt inside the cut: within DTC's 1/8 in safe margin
        canvas.showPage()
    canvas.save()
    art = tmp_path / "art.pdf"
    with pikepdf.open(with_trim) as doc:
        for page in doc.pages:
            page.obj.ArtBox = page.obj.TrimBox
            del page.obj.TrimBox
        doc.save(art)
    boxes = _pdfinfo_boxes(art)
    assert boxes["ArtBox"] == (9, 9, 189, 261) and boxes["TrimBox"] == boxes["CropBox"] == (0, 0, 198, 270)
    files = {"trim": with_trim, "art": art}
    done = donjon("check-print", *map(str, files.values()), "--service", "dtc", "--json")
    reports = dict(zip(files, _report(done)))

    def measured(name: str) -> list[tuple[str, str]]:
        return sorted((f["rule"], re.sub(r"\d+ characters", "N characters", f["message"]))
                      for f in reports[name]["findings"] if f["rule"] in ("bleed", "trim", "safe"))

    assert measured("art") == measured("trim") and measured("art"), reports
    assert not [m for rule, m in measured("art") if rule == "bleed" or "no TrimBox" in m]
    assert [m for rule, m in measured("art") if rule == "safe"], reports["art"]


def test_pictures_placed_in_the_safe_margin_are_warned_by_what_shows_of_them(tmp_path: Path) -> None:
    """Only text was held to the safe area: an icon or a picture placed 3 pt inside the cut passed in silence. A
    picture inside the cut that comes into the margin is now warned (rule safe; a PDF cannot tell key art from the
    rest, so never refused), measured by what its clip lets show; one reaching the cut (art running into the bleed)
    is not, nor one whose clip keeps it inside the safe area."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    icon = ImageReader(Image.new("CMYK", (60, 60), (0, 200, 200, 0)))
    pages: list[tuple[tuple[float, float, float, float], tuple[float, float, float, float] | None]] = [
        ((12, 120, 20, 20), None),            # 1: 3 pt inside the cut, in the 9 pt margin: warned
        ((30, 120, 20, 20), None),            # 2: inside the safe area
        ((0, 0, 198, 270), None),             # 3: a background into the bleed
        ((0, 100, 60, 60), (14, 100, 40, 40)),  # 4: placed past the cut, clipped to 5 pt inside it: warned
        ((12, 120, 40, 40), (25, 125, 20, 20)),  # 5: placed in the margin, clipped to the safe area
        ((30, 120, 20, 20), None),
        ((10, 10, 178, 250), None),            # 7: art drawn 1 pt short of the cut: warned, saying it stops short
    ]
    target = tmp_path / "pictures.pdf"
    canvas = Canvas(str(target), pagesize=(198, 270), invariant=1)
    for (x, y, w, h), clip in pages:
        canvas.setTrimBox([9, 9, 189, 261])
        canvas.setFillColorCMYK(0, 0, 0, 0.2)
        canvas.rect(0, 0, 198, 270, fill=1, stroke=0)
        canvas.saveState()
        if clip is not None:
            path = canvas.beginPath()
            path.rect(*clip)
            canvas.clipPath(path, stroke=0, fill=0)
        canvas.drawImage(icon, x, y, w, h)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    done = donjon("check-print", str(target), "--service", "dtc", "--json")
    report = _report(done)[0]
    safe = [f for f in report["findings"] if f["rule"] == "safe"]
    assert [(f["page"], f["verdict"]) for f in safe] == [(1, "warned"), (4, "warned"), (7, "warned")], report
    assert "1.06 mm from the cut" in safe[0]["message"] and "1.76 mm from the cut" in safe[1]["message"], safe
    # art a fraction of a millimetre short of the cut (drawn to a card's edge, without its bleed) is said to be so
    assert "0.35 mm from the cut" in safe[2]["message"] and "it stops short of the cut" in safe[2]["message"], safe
    assert not any("stops short" in f["message"] for f in safe[:2]), safe


def test_vector_icons_and_outlined_text_in_the_safe_margin_are_warned_as_pictures_are(tmp_path: Path) -> None:
    """What a page draws as paths (an SVG icon, text as outlines) came into the margin in silence where a picture
    there was warned. A path inside the cut that comes into the margin is now warned (rule safe, never refused: a
    PDF cannot tell an icon from art), inside a form too; a background reaching the cut, a frame going round the
    card, a speck (a starfield's dot) and an icon inside the safe area are not."""
    from reportlab.pdfgen.canvas import Canvas

    def star(canvas: Canvas, x: float, y: float) -> None:  # a 20 pt icon whose lower left corner is (x, y)
        path = canvas.beginPath()
        path.moveTo(x + 10, y + 20)
        for px, py in ((x + 13, y + 13), (x + 20, y + 12), (x + 14, y + 7), (x + 16, y), (x + 10, y + 4), (x + 4, y),
                       (x + 6, y + 7), (x, y + 12), (x + 7, y + 13)):
            path.lineTo(px, py)
        path.close()
        canvas.drawPath(path, fill=1, stroke=0)

    def outlined(canvas: Canvas, x: float, y: float) -> None:  # a word as outlines: each letter a path of its own
        for n in range(4):
            path = canvas.beginPath()
            path.rect(x + n * 7, y, 5, 8)
            path.rect(x + n * 7 + 1, y + 1, 3, 6)
            canvas.drawPath(path, fill=1, stroke=0, fillMode=1)

    target = tmp_path / "shapes.pdf"
    canvas = Canvas(str(target), pagesize=(198, 270), invariant=1)
    pages: list[Callable[[], object]] = [
        lambda: star(canvas, 12, 120),                                  # 1: 3 pt inside the cut: warned
        lambda: star(canvas, 40, 120),                                  # 2: inside the safe area
        lambda: canvas.rect(13, 13, 172, 244, fill=0, stroke=1),        # 3: a frame round the card, 4 pt in
        lambda: outlined(canvas, 60, 248),                              # 4: a word 5 pt under the top cut: warned
        lambda: canvas.doForm("icon"),                                  # 5: the icon of page 1, as a form
        lambda: canvas.circle(12, 130, 0.7, fill=1, stroke=0),          # 6: a speck of a texture, 0.5 mm
    ]
    for number, draw in enumerate(pages, start=1):
        canvas.setTrimBox([9, 9, 189, 261])
        canvas.setFillColorCMYK(0, 0, 0, 0.2)
        canvas.rect(0, 0, 198, 270, fill=1, stroke=0)  # the background, into the bleed
        canvas.setFillColorCMYK(0, 0, 0, 1)
        canvas.setStrokeColorCMYK(0, 0, 0, 1)
        if number == 5:
            canvas.beginForm("icon")
            star(canvas, 0, 0)
            canvas.endForm()
            canvas.translate(13, 120)
        draw()
        canvas.showPage()
    canvas.save()
    done = donjon("check-print", str(target), "--service", "dtc", "--json")
    report = _report(done)[0]
    safe = [f for f in report["findings"] if f["rule"] == "safe"]
    assert [(f["page"], f["verdict"]) for f in safe] == [(1, "warned"), (4, "warned"), (5, "warned")], report
    assert "1 shape drawn as paths" in safe[0]["message"] and "1.06 mm from the cut" in safe[0]["message"], safe
    assert "4 shapes drawn as paths" in safe[1]["message"] and "1.76 mm from the cut" in safe[1]["message"], safe
    assert "1.41 mm from the cut" in safe[2]["message"], safe


def test_a_shape_clipped_inside_the_safe_area_is_measured_by_what_is_drawn(tmp_path: Path) -> None:
    """check-print measured a path by its whole box before any clip: a large circle cropped to a panel inside the safe
    area warned, its uncut box 3 pt from the cut, though nothing of it is drawn in the margin (the PNG services'
    check, measuring the clipped group, said nothing). A path is now measured within its clip and those of the
    forms it is drawn in; what the clip leaves in the margin is still warned."""
    from reportlab.pdfgen.canvas import Canvas

    def clipped(canvas: Canvas, x0: float, y0: float, x1: float, y1: float, form: bool = False) -> None:
        canvas.saveState()
        panel = canvas.beginPath()
        panel.rect(x0, y0, x1 - x0, y1 - y0)
        canvas.clipPath(panel, stroke=0, fill=0)
        if form:
            canvas.doForm("disc")
        else:
            canvas.circle(99, 135, 87, fill=1, stroke=0)  # its box 3 pt inside the cut at left and right
        canvas.restoreState()

    target = tmp_path / "clipped.pdf"
    canvas = Canvas(str(target), pagesize=(198, 270), invariant=1)
    pages: list[Callable[[], object]] = [
        lambda: canvas.circle(99, 135, 87, fill=1, stroke=0),        # 1: the whole circle: warned
        lambda: clipped(canvas, 30, 60, 168, 210),                   # 2: cropped to a panel in the safe area
        lambda: clipped(canvas, 12, 100, 186, 170),                  # 3: cropped to a band into the margin: warned
        lambda: clipped(canvas, 30, 60, 168, 210, form=True),        # 4: the circle in a form, cropped outside it
        lambda: clipped(canvas, 12, 100, 186, 170, form=True),       # 5: the same, the band into the margin: warned
    ]
    for number, draw in enumerate(pages, start=1):
        canvas.setTrimBox([9, 9, 189, 261])
        canvas.setFillColorCMYK(0, 0, 0, 0.2)
        canvas.rect(0, 0, 198, 270, fill=1, stroke=0)  # the background, into the bleed
        canvas.setFillColorCMYK(0, 0, 0, 1)
        if number == 4:
            canvas.beginForm("disc")
            canvas.circle(99, 135, 87, fill=1, stroke=0)
            canvas.endForm()
        draw()
        canvas.showPage()
    canvas.save()
    done = donjon("check-print", str(target), "--service", "dtc", "--json")
    safe = [f for f in _report(done)[0]["findings"] if f["rule"] == "safe"]
    assert [(f["page"], f["verdict"]) for f in safe] == [(1, "warned"), (3, "warned"), (5, "warned")], safe
    assert all("1 shape drawn as paths" in f["message"] and "1.06 mm from the cut" in f["message"] for f in safe), safe
    assert "y 32.1-56.8 mm" in safe[1]["message"] and "y 32.1-56.8 mm" in safe[2]["message"], safe  # the band only


def test_a_picture_or_shape_in_a_round_frame_is_measured_by_the_circle(tmp_path: Path) -> None:
    """A wide picture (or a band drawn as a path) shown at the top of a round frame it does not fill was measured by
    the frame's box: the box's left side, 7 pt from the cut, warned, though the circle meets the band's foot 11 pt
    in and nothing shows nearer. What shows is now the band cut to the circle's outline; the same frame filled, its
    curve 7 pt from the cut, still warns."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    photo = ImageReader(Image.new("CMYK", (120, 120), (0, 200, 200, 0)))

    def framed(canvas: Canvas, height: float, picture: bool) -> None:
        canvas.saveState()
        frame = canvas.beginPath()
        frame.circle(46, 135, 30)  # its box 7 pt inside the cut at the left
        canvas.clipPath(frame, stroke=0, fill=0)
        if picture:
            canvas.drawImage(photo, 16, 165 - height, 60, height)  # down from the frame's top
        else:
            canvas.rect(16, 165 - height, 60, height, fill=1, stroke=0)
        canvas.restoreState()

    target = tmp_path / "framed.pdf"
    canvas = Canvas(str(target), pagesize=(198, 270), invariant=1)
    for height, picture in ((15, True), (60, True), (15, False), (60, False)):  # 2, 4: the frame filled: warned
        canvas.setTrimBox([9, 9, 189, 261])
        canvas.setFillColorCMYK(0, 0, 0, 0.2)
        canvas.rect(0, 0, 198, 270, fill=1, stroke=0)
        canvas.setFillColorCMYK(0, 0, 0, 1)
        framed(canvas, height, picture)
        canvas.showPage()
    canvas.save()
    safe = sorted((f for f in _report(donjon("check-print", str(target), "--service", "dtc", "--json"))[0]["findings"]
                   if f["rule"] == "safe"), key=lambda f: f["page"])
    assert [(f["page"], f["verdict"]) for f in safe] == [(2, "warned"), (4, "warned")], safe
    assert safe[0]["message"].startswith("the picture ") and "2.47 mm from the cut" in safe[0]["message"], safe
    assert safe[1]["message"].startswith("1 shape drawn as paths") and "2.47 mm from the cut" in safe[1]["message"]


def test_a_picture_shown_through_letters_is_measured_by_the_letters(tmp_path: Path) -> None:
    """A photo shown through a word (text as a clip, Tr 7: a title filled with a picture) was measured by the
    photo's box, which ran from near one side of the card to the other: warned, though only the word in the middle
    shows it. The letters' boxes (each as wide as the font's widest glyph, from below its baseline to above its
    capitals: never less than they cover) are now the clip; the word moved into the margin still warns."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    photo = ImageReader(Image.new("CMYK", (120, 40), (0, 200, 200, 0)))
    target = tmp_path / "lettered.pdf"
    canvas = Canvas(str(target), pagesize=(198, 270), invariant=1)
    for x in (60, 16):  # the word 51 pt from the cut, then 7 pt (in the margin); its boxes reach half an em before
        canvas.setTrimBox([9, 9, 189, 261])
        canvas.saveState()
        text = canvas.beginText(x, 130)
        text.setFont("Helvetica-Bold", 20)
        text.setTextRenderMode(7)  # the letters added to the clip, painting nothing
        text.textLine("WORD")
        canvas.drawText(text)
        canvas.drawImage(photo, 12, 120, 174, 40)  # 3 pt from the cut at each side
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    # (the letters themselves, in the margin on page 2, are text outside the safe area: refused, as any text there)
    pictures = [f for f in _report(donjon("check-print", str(target), "--service", "dtc", "--json"))[0]["findings"]
                if f["rule"] == "safe" and f["message"].startswith("the picture ")]
    assert [(f["page"], f["verdict"]) for f in pictures] == [(2, "warned")], pictures
    # the letters' boxes reach past the photo's edge, 3 pt from the cut: the photo's edge is what is measured
    assert "1.06 mm from the cut" in pictures[0]["message"], pictures


def _square_type3(pdf: Any) -> Any:
    """A Type 3 font of one glyph, a square filling its 750-unit box, for the letter `a` (a text the preflight must
    see as text though its glyphs are drawings)."""
    import pikepdf

    glyph = pdf.make_stream(b"1000 0 0 0 750 750 d1 0 0 750 750 re f")
    return pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontBBox=[0, 0, 750, 750],
        FontMatrix=[0.001, 0, 0, 0.001, 0, 0], CharProcs=pikepdf.Dictionary(square=glyph),
        Encoding=pikepdf.Dictionary(Differences=[97, pikepdf.Name.square]), FirstChar=97, LastChar=97,
        Widths=[1000], Resources=pikepdf.Dictionary()))


def test_what_a_pattern_or_a_gradient_paints_in_the_margin_is_measured(tmp_path: Path) -> None:
    """A gradient painted with `sh` within a clip (how a shape is filled with a gradient) is no path: check-print
    measured paths, and a gradient panel 3 pt from the cut passed in silence. It is now measured by the outline of
    the clip it fills, as a path filled with a pattern is by its shape (tiles or a gradient: page 1, 2); one
    clipped to a circle whose box alone comes into the margin, and one without a clip (it fills the page: a
    background), are not. Letters of a Type 3 font (glyphs drawn as the font's own drawings) are text: in the
    margin, refused as any text there."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    tile = pdf.make_stream(b"0 0 0 1 k 0 0 4 4 re f", Type=pikepdf.Name.Pattern, PatternType=1, PaintType=1,
                           TilingType=1, BBox=[0, 0, 8, 8], XStep=8, YStep=8, Resources=pikepdf.Dictionary())
    function = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[1, 0, 0, 0], C1=[0, 1, 0, 0], N=1)
    shading = pdf.make_indirect(pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceCMYK,
                                                   Coords=[0, 0, 198, 0], Function=function))
    gradient = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Pattern, PatternType=2, Shading=shading))
    type3 = _square_type3(pdf)
    resources = pikepdf.Dictionary(Pattern=pikepdf.Dictionary(P0=tile, P1=gradient),
                                   Shading=pikepdf.Dictionary(S0=shading), Font=pikepdf.Dictionary(F0=type3))
    # a circle 80 pt across, 9.5 pt from the cut at the left and the foot, its four curves turned 45 degrees about
    # its centre: their control points' box comes 5.6 pt from the cut, the circle does not
    k = 0.5523 * 40
    circle = (f"q 0.7071 0.7071 -0.7071 0.7071 58.5 58.5 cm 40 0 m 40 {k} {k} 40 0 40 c -{k} 40 -40 {k} -40 0 c "
              f"-40 -{k} -{k} -40 0 -40 c {k} -40 40 -{k} 40 0 c W n /S0 sh Q").encode()
    for drawing in (b"/Pattern cs /P0 scn 12 100 50 50 re f",  # 1: tiles filling a square 3 pt from the cut
                    b"/Pattern cs /P1 scn 12 100 50 50 re f",  # 2: a gradient filling it
                    b"q 12 100 50 50 re W n /S0 sh Q",         # 3: the gradient painted within it as a clip
                    circle,                                    # 4: painted within a round clip inside the margin
                    b"/S0 sh",                                 # 5: painted over the page: a background
                    b"BT /F0 20 Tf 12 130 Td (aaa) Tj ET"):    # 6: letters of a Type 3 font 3 pt from the cut
        _one_page(pdf, resources, drawing)
    path = tmp_path / "patterns.pdf"
    pdf.save(path)
    found = check_pdf(path, find_service("dtc"))
    safe = sorted((f.page, f.verdict, f.message) for f in found.findings if f.rule == "safe")
    assert [(page, verdict) for page, verdict, _ in safe] == [(1, "warned"), (2, "warned"), (3, "warned"),
                                                              (6, "refused")], safe
    assert all("1.06 mm from the cut" in message for _, _, message in safe[:3]), safe
    assert "of text outside the safe area" in safe[3][2], safe  # (one character: no longer "1 characters")


def test_a_pdfx_page_with_both_a_trim_box_and_an_art_box_is_refused(tmp_path: Path) -> None:
    """PDF/X lets a page give its finished size as a TrimBox or an ArtBox, not both (Kodak's PDF/X-1a page): a card
    with both passed DriveThruCards' preflight, measured from its TrimBox, while a PDF/X checker refuses it. Now
    refused under pdfx for a service stating PDF/X; PrintNinja, asking none, says nothing of it."""
    plain = _card_pdf(tmp_path / "plain.pdf", [(198, 270)] * 2)
    both = _pages_with(plain, tmp_path / "both.pdf", ArtBox=[20, 20, 178, 250])
    files = {"plain": plain, "both": both}
    for service, expected in (("dtc", True), ("printninja", False)):
        done = donjon("check-print", *map(str, files.values()), "--service", service, "--json")
        said = {name: [m for m in found if "both a TrimBox and an ArtBox" in m]
                for name, found in _findings(done, files, "pdfx").items()}
        assert bool(said["both"]) == expected and not said["plain"], (service, said)


def test_a_page_box_that_is_not_four_numbers_is_refused_and_the_rest_read(tmp_path: Path) -> None:
    """A TrimBox of three numbers (or a BleedBox that is a name) made the whole file "damaged" (exit 2, nothing else
    said). Readers disagree on such a page: poppler reads it as having no TrimBox (pdfinfo: the CropBox), pdfium
    reads a 0 for the missing number, Ghostscript asked to use the box stops on the page. Now the box is refused
    under trim, naming it, and the rest of the page is read as poppler reads it (exit 1, every other finding). A
    MediaBox that is no box stays a damaged file (test_check_print_refuses_a_damaged_pdf_in_one_line)."""
    import pikepdf

    plain = _card_pdf(tmp_path / "plain.pdf", [(198, 270)] * 2, text=True)
    files = {"plain": plain, "short": tmp_path / "short.pdf", "name": tmp_path / "name.pdf"}
    _pages_with(plain, files["short"], TrimBox=[9, 9, 189])
    _pages_with(plain, files["name"], BleedBox=pikepdf.Name("/Page"))
    assert _pdfinfo_boxes(files["short"])["TrimBox"] == (0, 0, 198, 270)  # poppler: as if it had none
    done = donjon("check-print", *map(str, files.values()), "--service", "dtc", "--json")
    assert done.returncode == 1, done.stderr
    reports = dict(zip(files, _report(done)))
    assert len(reports) == 3, done.stdout + done.stderr
    trim = _findings(done, files, "trim")
    assert [m for m in trim["short"] if m.startswith("its TrimBox is [9, 9, 189], not a rectangle of four numbers")]
    assert [m for m in trim["name"] if m.startswith("its BleedBox is /Page, not a rectangle")]
    assert not [m for m in trim["plain"] if "rectangle" in m]
    assert _findings(done, files, "text")["short"] == _findings(done, files, "text")["plain"] != []
    assert not _findings(done, files, "bleed")["name"]  # the BleedBox read as absent: the MediaBox's bleed


def test_the_bleed_finding_names_every_box_that_cuts_the_page(tmp_path: Path) -> None:
    """The boxes cutting the bleed short were joined as phrases ("its CropBox and BleedBox and TrimBox, reaching past
    the MediaBox, cut the page there"): now the boxes that cut the page are listed, and a cut reaching past the
    page's edge is said apart."""
    plain = _card_pdf(tmp_path / "plain.pdf", [(198, 270)] * 2)
    files = {"two": tmp_path / "two.pdf", "three": tmp_path / "three.pdf", "past": tmp_path / "past.pdf"}
    for name, boxes in (("two", {"CropBox": [0, 0, 190, 270], "BleedBox": [0, 0, 198, 262]}),
                        ("three", {"CropBox": [0, 0, 190, 270], "BleedBox": [0, 0, 198, 262],
                                   "TrimBox": [-9, 9, 189, 261]}),
                        ("past", {"TrimBox": [-9, 9, 189, 261]})):
        _pages_with(plain, files[name], **boxes)
    done = donjon("check-print", *map(str, files.values()), "--service", "dtc", "--json")
    said = {name: {re.search(r"\((.*)\);", m) for m in found}
            for name, found in _findings(done, files, "bleed").items()}
    why = {name: sorted({m[1] for m in found if m}) for name, found in said.items()}  # one a page: both the same
    assert why == {"two": ["its CropBox and BleedBox cut the page there"],
                   "three": ["its CropBox and BleedBox cut the page there; its TrimBox reaches past the MediaBox, "
                             "the page's edge"],
                   "past": ["its TrimBox reaches past the MediaBox, the page's edge"]}, why

def test_a_picture_drawn_at_the_services_resolution_as_a_pdf_writer_rounds_it_passes(tmp_path: Path) -> None:
    """Art of 825 x 1125 px over a 2.75 x 3.75 in card, its size written to a hundredth of a point (198.01 pt, as a
    PDF writer rounds it): 299.98 dpi was refused as "drawn at 300 dpi, below the 300 dpi DriveThruCards asks".
    Within half a dot per inch it meets the resolution; at 299 dpi (828 px over 2.77 in) it is refused."""
    from PIL import Image
    from reportlab.pdfgen.canvas import Canvas

    art = tmp_path / "art.png"
    Image.new("RGB", (825, 1125), (200, 120, 40)).save(art)

    def card(name: str, width: float, height: float) -> list[str]:
        target = tmp_path / f"{name}.pdf"
        canvas = Canvas(str(target), pagesize=(198, 270), invariant=1)
        for _ in range(2):
            canvas.setTrimBox([9, 9, 189, 261])
            canvas.drawImage(str(art), 0, 0, width=width, height=height)
            canvas.showPage()
        canvas.save()
        done = donjon("check-print", str(target), "--service", "dtc", "--json")
        return [f"{f['verdict']} {f['message']}" for f in json.loads(done.stdout)["findings"] if f["rule"] == "min_dpi"]

    assert card("rounded", 198.01, 270.01) == []
    coarse = card("coarse", 825 / 299 * 72, 1125 / 299 * 72)
    assert coarse and all(f.startswith("refused") and "drawn at 299 dpi" in f for f in coarse), coarse


def test_check_print_refuses_unreadable_files_with_exit_2(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pdf"
    junk.write_text("not a pdf")
    done = donjon("check-print", str(junk), "--service", "dtc")
    assert done.returncode == 2 and "junk.pdf" in done.stderr and "Traceback" not in done.stderr
    done = donjon("check-print", str(junk), "--service", "nowhere")
    assert done.returncode == 2 and "drivethrucards" in done.stderr


def test_the_report_counts_one_page_as_one(tmp_path: Path) -> None:
    """The verdict line counts the file's pages in words a person reads: `(1 page)`, never `(1 pages)`."""
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(tmp_path / "one.pdf"), pagesize=(198, 270), invariant=1)
    canvas.setFillColorRGB(1, 0, 0)
    canvas.rect(20, 20, 50, 50, fill=1)
    canvas.showPage()
    canvas.save()
    done = donjon("check-print", str(tmp_path / "one.pdf"), "--service", "dtc")
    assert done.returncode == 1, done.stdout + done.stderr
    verdict = done.stdout.splitlines()[0]
    assert verdict.endswith("DriveThruCards would refuse it (1 page)"), verdict


def test_a_file_that_claims_pdfx_without_being_it_is_refused(tmp_path: Path) -> None:
    """A file whose Info says PDF/X-1a:2003 is held to what that standard asks of a whole file: PDF 1.4 at most,
    /Trapped True or False, an OutputIntent for PDF/X (GTS_PDFX). donjon's own export passes; the same file
    with one of them broken (as another program may write it) is refused under rule pdfx."""
    import pikepdf

    done = donjon("export", "--service", "dtc", "--decks", "guedelon/events", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stdout + done.stderr
    good = tmp_path / "out" / "print" / "drivethrucards" / "guedelon" / "events.pdf"

    def broken(name: str, change: Any, version: str | None = None) -> Path:
        with pikepdf.open(good) as pdf:
            change(pdf)
            target = tmp_path / f"{name}.pdf"
            pdf.save(target, min_version=version or "", deterministic_id=True)
        return target

    def untrapped(pdf: Any) -> None:
        del pdf.docinfo["/Trapped"]

    def pdfa_intent(pdf: Any) -> None:
        pdf.Root.OutputIntents[0].S = pikepdf.Name("/GTS_PDFA1")

    files = [broken("untrapped", untrapped), broken("pdf-1.7", lambda pdf: None, "1.7"),
             broken("pdfa-intent", pdfa_intent)]
    done = donjon("check-print", str(good), *map(str, files), "--service", "dtc", "--json")
    reports = _report(done)
    assert reports[0]["verdict"] == "ok", reports[0]
    for report in reports[1:]:
        pdfx = [f["message"] for f in report["findings"] if f["rule"] == "pdfx" and f["verdict"] == "refused"]
        assert report["verdict"] == "refused" and len(pdfx) == 1, report
    messages = [f["message"] for r in reports[1:] for f in r["findings"] if f["rule"] == "pdfx"]
    assert "/Trapped" in messages[0] and "PDF 1.7" in messages[1] and "GTS_PDFX" in messages[2], messages


@pytest.mark.parametrize(("version", "pdf"), [(b"\x02\x20", None), (b"\x04\x00", "/1.5"), (b"\x04\x20", "/1.7")],
                         ids=["icc-2.2", "icc-4.0", "icc-4.2"])
def test_a_cmyk_build_with_a_version_4_profile_says_the_pdf_version_that_takes_it(tmp_path: Path, version: bytes,
                                                                                   pdf: str | None) -> None:
    """`donjon build --colour cmyk --profile FILE` embedded an ICC version 4 profile as the OutputIntent of a PDF
    1.3 file, whose ICC profiles are version 2 (ISO 32000-1, Table 67: 4.0 came with PDF 1.5, 4.2 with PDF 1.7). The
    catalog now says the version that takes it; a version 2 profile leaves the file as it was (PDF 1.3, no
    /Version)."""
    import pikepdf

    from generator.resources import templates_dir

    data = bytearray((templates_dir() / "icc" / "fogra39.icc").read_bytes())
    data[8:10], data[84:100] = version, bytes(16)  # the profile's version; no profile ID
    profile = tmp_path / "mine.icc"
    profile.write_bytes(bytes(data))
    out = tmp_path / "out"
    done = donjon("build", "guildhall/vp-tokens", "--colour", "cmyk", "--profile", str(profile), "--format", "pdf",
                  "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    with pikepdf.open(out / "guildhall" / "vp-tokens.pdf") as doc:
        assert doc.pdf_version == "1.3"
        assert (str(doc.Root.Version) if "/Version" in doc.Root else None) == pdf
        assert bytes(doc.Root.OutputIntents[0].DestOutputProfile.read_bytes()[8:10]) == version


def test_a_pdfx_file_is_held_to_its_output_profile_title_and_identifier(tmp_path: Path) -> None:
    """`donjon export --service dtc --profile FILE` with an ICC version 4 profile wrote it as the OutputIntent of a
    PDF/X-1a file (PDF 1.3; PDF 1.4 takes version 2 profiles) and said DriveThruCards would take it; an input
    profile ('scnr') passed too. Each is now refused under rule pdfx (export exit 1), as are a PDF/X-1a file without
    a Title and one without a file identifier (/ID), which PDF/X asks; donjon's own export passes."""
    import pikepdf

    from generator.resources import templates_dir

    shipped = (templates_dir() / "icc" / "swop-tr003.icc").read_bytes()

    def profile(name: str, version: int, kind: bytes) -> Path:
        data = bytearray(shipped)
        data[8], data[12:16], data[84:100] = version, kind, bytes(16)  # major version, class; no profile ID
        target = tmp_path / f"{name}.icc"
        target.write_bytes(bytes(data))
        return target

    def export(name: str, *extra: str) -> tuple[int, dict[str, Any]]:
        done = donjon("export", "--service", "dtc", "--decks", "guedelon/events", "--out", str(tmp_path / name),
                      "--json", *extra)
        return done.returncode, json.loads(done.stdout.splitlines()[0])

    def pdfx(report: dict[str, Any]) -> list[str]:
        return [f["message"] for f in report["findings"] if f["rule"] == "pdfx" and f["verdict"] == "refused"]

    code, report = export("good")
    assert code == 0 and not pdfx(report), report
    code, report = export("v4", "--profile", str(profile("v4", 4, b"prtr")))
    assert code == 1 and any("ICC version 4 profile" in m and "version 2" in m for m in pdfx(report)), report
    code, report = export("input", "--profile", str(profile("input", 2, b"scnr")))
    assert code == 1 and any("'scnr' profile, not an output profile" in m for m in pdfx(report)), report

    good = tmp_path / "good" / "print" / "drivethrucards" / "guedelon" / "events.pdf"
    untitled = tmp_path / "untitled.pdf"
    with pikepdf.open(good) as pdf:
        del pdf.docinfo["/Title"]
        pdf.save(untitled, deterministic_id=True)
    data = good.read_bytes()
    trailer = data.rindex(b"trailer")
    found = re.search(rb"/ID\s*\[<[0-9a-f]+><[0-9a-f]+>\]", data[trailer:])
    assert found
    anonymous = tmp_path / "anonymous.pdf"  # the /ID blanked in place: every offset stays as it was
    anonymous.write_bytes(data[:trailer + found.start()] + b" " * len(found[0]) + data[trailer + found.end():])
    done = donjon("check-print", str(untitled), str(anonymous), "--service", "dtc", "--json")
    reports = _report(done)
    assert done.returncode == 1 and len(reports) == 2, done.stdout + done.stderr
    assert pdfx(reports[0]) == ["has no Title in its Info dictionary, which PDF/X-1a asks"], reports[0]
    assert pdfx(reports[1]) == ["has no file identifier (/ID in its trailer), which PDF/X-1a asks"], reports[1]


@pytest.mark.parametrize("service", ["tgc", "mpc"])
def test_check_print_for_a_service_of_pictures_says_it_takes_no_pdf(broken: Path, service: str) -> None:
    """The Game Crafter and MakePlayingCards take a picture of each face, not a PDF: checking a PDF for them is a
    usage error naming --service and what to do, never "would take it"."""
    done = donjon("check-print", str(broken / "rgb.pdf"), "--service", service)
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert done.stderr.startswith("error: --service: ") and "takes PNG pictures" in done.stderr, done.stderr
    assert f"donjon export --service {service}" in done.stderr and done.stderr.count("\n") == 1


def test_a_picture_written_inline_is_checked_as_any_picture(tmp_path: Path) -> None:
    """A picture written into the page's drawing itself (an inline image, as Ghostscript's pdfwrite writes small
    ones) is held to the same rules as one stored apart: an RGB picture at 10 dpi is refused for its colour and its
    resolution; a CMYK one at 300 dpi passes both, and its ink (0 + 100 + 100 + 50 %) is measured, compressed as it
    is (ASCII85 and Flate, abbreviated in an inline picture), and refused over DriveThruCards' 240 %."""
    from PIL import Image
    from reportlab.pdfgen.canvas import Canvas

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    def pdf(name: str, mode: str, colour: tuple[int, ...], inches: float) -> Path:
        path = tmp_path / f"{name}.pdf"
        canvas = Canvas(str(path), pagesize=(198, 270), invariant=1)
        for _ in range(2):
            canvas.setTrimBox((9, 9, 189, 261))
            canvas.drawInlineImage(Image.new(mode, (30, 30), colour), 50, 50, width=72 * inches,
                                   height=72 * inches)
            canvas.showPage()
        canvas.save()
        return path

    found = check_pdf(pdf("rgb", "RGB", (255, 0, 0), 3), find_service("dtc"))
    rules = {(f.rule, f.verdict) for f in found.findings if f.page == 1}
    assert {("colour", "refused"), ("min_dpi", "refused")} <= rules, found.findings
    assert any("inline" in f.message for f in found.findings if f.rule == "colour"), found.findings
    cmyk = check_pdf(pdf("cmyk", "CMYK", (0, 255, 255, 128), 0.1), find_service("dtc"))
    assert not [f for f in cmyk.findings if f.page == 1 and f.rule in ("colour", "min_dpi")], cmyk.findings
    assert cmyk.ink[0] == pytest.approx(250, abs=1) and "(inline)" in cmyk.ink[1]
    assert ("ink_limit", "refused") in {(f.rule, f.verdict) for f in cmyk.findings if f.page == 1}


def test_a_picture_in_a_soft_mask_is_measured_as_any_picture(tmp_path: Path) -> None:
    """A soft mask's pixels print as the edge of what it shows: a picture drawn in a soft mask's group (an ExtGState's
    /SMask /G, PDF 1.7 11.6.5) was not measured at all, nor a picture's own /SMask coarser than the picture. Made
    with pikepdf, not donjon's writer: a 10 x 10 px picture in a mask's group drawn 100 pt wide (7 dpi), and a
    100 x 100 px CMYK picture drawn 0.3 in wide (333 dpi) whose own soft mask is 10 x 10 px (33 dpi): both refused
    by DriveThruCards' 300 dpi, each named as the mask it is in; the 333 dpi picture itself is not."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    grey = pikepdf.Stream(pdf, b"\x80" * 100, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=10,
                          Height=10, ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8)
    group = pikepdf.Stream(pdf, b"q 100 0 0 100 20 20 cm /Im1 Do Q", Type=pikepdf.Name.XObject,
                           Subtype=pikepdf.Name.Form, BBox=[0, 0, 198, 270],
                           Group=pikepdf.Dictionary(S=pikepdf.Name.Transparency, CS=pikepdf.Name.DeviceGray),
                           Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im1=grey)))
    state = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, SMask=pikepdf.Dictionary(
        Type=pikepdf.Name.Mask, S=pikepdf.Name.Luminosity, G=group))
    alpha = pikepdf.Stream(pdf, b"\xff" * 100, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=10,
                           Height=10, ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8)
    picture = pikepdf.Stream(pdf, b"\x00\x00\x00\x80" * 10000, Type=pikepdf.Name.XObject,
                             Subtype=pikepdf.Name.Image, Width=100, Height=100, ColorSpace=pikepdf.Name.DeviceCMYK,
                             BitsPerComponent=8, SMask=alpha)
    for _ in range(2):
        page = pdf.add_blank_page(page_size=(198, 270))
        page.obj.TrimBox = [9, 9, 189, 261]
        page.obj.Resources = pikepdf.Dictionary(ExtGState=pikepdf.Dictionary(GS1=state),
                                                XObject=pikepdf.Dictionary(Pic=picture))
        page.obj.Contents = pdf.make_stream(b"q /GS1 gs 0 0 0 1 k 20 20 100 100 re f Q "
                                            b"q 21.6 0 0 21.6 100 150 cm /Pic Do Q")
    path = tmp_path / "masked.pdf"
    pdf.save(path)
    found = check_pdf(path, find_service("dtc"))
    said = sorted(f.message for f in found.findings if f.page == 1 and f.rule == "min_dpi")
    assert len(said) == 2 and all(f.verdict == "refused" for f in found.findings if f.rule == "min_dpi"), said
    assert said[0].startswith("the picture /Im1 (in a soft mask) (10 x 10 px) is drawn at 7 dpi"), said
    assert said[1].startswith("the picture /Pic (its soft mask) (10 x 10 px) is drawn at 33 dpi"), said


def test_a_gradient_in_rgb_is_rgb_in_a_cmyk_file(tmp_path: Path) -> None:
    """A gradient (a shading, painted by `sh` or as a fill pattern) whose colour space is RGB is RGB in the file,
    as a fill colour is: refused for DriveThruCards; the same gradient in CMYK is not."""
    from reportlab.lib.colors import CMYKColor, Color
    from reportlab.pdfgen.canvas import Canvas

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    def pdf(name: str, colours: tuple[Any, Any]) -> Path:
        path = tmp_path / f"{name}.pdf"
        canvas = Canvas(str(path), pagesize=(198, 270), invariant=1)
        for _ in range(2):
            canvas.setTrimBox((9, 9, 189, 261))
            canvas.linearGradient(0, 0, 198, 270, colours, extend=True)
            canvas.showPage()
        canvas.save()
        return path

    rgb = check_pdf(pdf("rgb", (Color(1, 0, 0), Color(0, 0, 1))), find_service("dtc"))
    said = [f.message for f in rgb.findings if f.page == 1 and f.rule == "colour" and f.verdict == "refused"]
    assert said and "gradient" in said[0], rgb.findings
    cmyk = check_pdf(pdf("cmyk", (CMYKColor(0, 1, 1, 0), CMYKColor(1, 1, 0, 0))), find_service("dtc"))
    assert not [f for f in cmyk.findings if f.page == 1 and f.rule == "colour"], cmyk.findings


def test_a_cmyk_gradients_ink_is_measured_at_its_stops_and_between(tmp_path: Path) -> None:
    """A CMYK gradient's total ink is measured as a fill colour's: reportlab's gradient from 400 % (two stops, and
    three stops peaking at the middle one, painted by `sh`), a shading pattern whose sampled table reaches 300 %,
    one whose PostScript function gives 400 % at its end, meshes of a triangle and of a Coons patch with one corner at
    400 %, each over DriveThruCards' 240 % and refused on its page (Ghostscript's separations find the meshes'
    400 % too); a gradient from 0 % to 200 % is not; one whose colours the preflight does not compute (a PostScript
    function using an operator the calculator has not) is warned as not measured, never taken as 0 %."""
    import pikepdf
    from reportlab.lib.colors import CMYKColor
    from reportlab.pdfgen.canvas import Canvas

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    path = tmp_path / "gradients.pdf"
    canvas = Canvas(str(path), pagesize=(198, 270), invariant=1)
    for colours in ((CMYKColor(1, 1, 1, 1), CMYKColor(0, 0, 0, 0.2)),
                    (CMYKColor(0, 0, 0, 0.2), CMYKColor(1, 1, 1, 1), CMYKColor(0, 0, 0, 0)),
                    (CMYKColor(0, 0, 0, 0), CMYKColor(0.5, 0.5, 0.5, 0.5))):
        canvas.setTrimBox((9, 9, 189, 261))
        canvas.linearGradient(0, 0, 198, 270, colours, extend=True)
        canvas.showPage()
    canvas.save()
    pdf = pikepdf.open(path, allow_overwriting_input=True)
    sampled = pdf.make_stream(bytes([0, 0, 0, 0, 255, 255, 0, 255, 0, 0, 0, 0]), FunctionType=0, Domain=[0, 1],
                              Range=[0, 1] * 4, Size=[3], BitsPerSample=8)  # 0 %, then 300 %, then 0 %
    postscript = pdf.make_stream(b"{ dup dup dup }", FunctionType=4, Domain=[0, 1], Range=[0, 1] * 4)
    mesh = pdf.make_stream(bytes([0, 0, 0, 255, 255, 255, 255, 0, 255, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0]),
                           ShadingType=4, ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerCoordinate=8,
                           BitsPerComponent=8, BitsPerFlag=8, Decode=[0, 198, 0, 270] + [0, 1] * 4)  # 400 % to 0
    side = [(0, 0), (0, 85), (0, 170), (0, 255), (85, 255), (170, 255), (255, 255), (255, 170), (255, 85), (255, 0),
            (170, 0), (85, 0)]  # a Coons patch's 12 points, round the square from its first corner
    coons = pdf.make_stream(bytes([0, *(v for point in side for v in point), 255, 255, 255, 255, *[0] * 12]),
                            ShadingType=6, ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerCoordinate=8,
                            BitsPerComponent=8, BitsPerFlag=8, Decode=[0, 198, 0, 270] + [0, 1] * 4)
    unknown = pdf.make_stream(b"{ dup dup dup 1 { } repeat }", FunctionType=4, Domain=[0, 1], Range=[0, 1] * 4)
    axial = [pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceCMYK, Coords=[0, 0, 198, 0], Function=f)
             for f in (sampled, postscript, unknown)]
    for shading in (*axial[:2], mesh, coons, axial[2]):
        pattern = pikepdf.Dictionary(Type=pikepdf.Name.Pattern, PatternType=2, Shading=shading)
        _card_pages(pdf, pikepdf.Dictionary(Pattern=pikepdf.Dictionary(P0=pattern)),
                    b"/Pattern cs /P0 scn 0 0 198 270 re f")
    pdf.save(path)
    found = check_pdf(path, find_service("dtc"))
    refused = {f.page for f in found.findings if f.rule == "ink_limit" and f.verdict == "refused"}
    assert refused == {1, 2, 4, 5, 6, 7, 8, 9, 10, 11}, found.findings
    assert found.ink[0] == pytest.approx(400) and found.ink[1] == "page 1, the gradient /Sh0", found.ink
    assert "400 %" in next(f.message for f in found.findings if f.page == 2 and f.rule == "ink_limit")
    assert "300 %" in next(f.message for f in found.findings if f.page == 4 and f.rule == "ink_limit")
    for page in (6, 8, 10):
        assert "400 %" in next(f.message for f in found.findings if f.page == page and f.rule == "ink_limit")
    if GS is not None:
        for page in (8, 10):
            assert _gs_highest_ink(path, page, tmp_path) > 360, page
    unmeasured = [f for f in found.findings if f.page in (12, 13)]
    assert [(f.rule, f.verdict) for f in unmeasured] == [("ink_limit", "warned")] * 2, unmeasured
    assert "could not be measured" in unmeasured[0].message


def _one_page(pdf: Any, resources: Any, drawing: bytes) -> None:
    """One page of a poker card with its bleed (2.75 x 3.75 in, trimmed 9 pt in) drawing `drawing`."""
    import pikepdf

    pdf.pages.append(pikepdf.Page(pikepdf.Dictionary(
        Type=pikepdf.Name.Page, MediaBox=[0, 0, 198, 270], TrimBox=[9, 9, 189, 261], Resources=resources,
        Contents=pdf.make_stream(drawing))))


def _gs_ink_inside_and_out(pdf: Path, page: int, tmp_path: Path, device: str = "tiff32nc") -> tuple[float, float]:
    """The highest total ink, in percent, of the pixels of `page` inside its trim (9 pt in) and of those outside,
    each a point clear of the cut, as Ghostscript separates them (tiff32nc at 72 dpi: a pixel a point; or the
    composite of tiffsep, its plates written beside)."""
    from PIL import Image

    out = tmp_path / f"gs-{page}.tif"
    subprocess.run([cast(str, GS), "-q", "-o", str(out), f"-sDEVICE={device}", "-r72", f"-dFirstPage={page}",
                    f"-dLastPage={page}", str(pdf)], check=True, capture_output=True)
    with Image.open(out) as picture:
        width, height = picture.size
        data = picture.tobytes()
    inside = outside = 0
    for row in range(height):
        for column in range(width):
            total = sum(data[(row * width + column) * 4:(row * width + column) * 4 + 4])
            x, y = column + 0.5, height - row - 0.5
            if 10 < x < 188 and 10 < y < 260:
                inside = max(inside, total)
            elif not (8 < x < 190 and 8 < y < 262):
                outside = max(outside, total)
    return inside / 255 * 100, outside / 255 * 100


def _registration_space() -> Any:
    """The registration colour (a Separation of All), its alternate 50 % K: a press prints every plate whatever it
    says."""
    import pikepdf

    half_black = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[0, 0, 0, 0.5], N=1)
    return pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name.All, pikepdf.Name.DeviceCMYK, half_black])


def _registration_pdf(path: Path) -> None:
    """Pages painting in the registration colour (a Separation of All, PDF 1.7 8.6.6.4), whose alternate says
    50 % K (a press prints every plate, whatever the alternate): 1, crop marks, a slug line of text placed by a form
    and a page-wide rectangle clipped to the bottom margin, all outside the trim, with 100 % K art inside; 2, a
    form drawing a 'mark' of 5 pt in its corner that its placing scales into the card; 3, text inside; 4, a stencil
    picture inside; 5, a rectangle at tint 0.5 inside; 6, a crop mark drawn 31 pt into the card; 7, a picture in
    the registration colour inside."""
    import pikepdf

    pdf = pikepdf.new()
    registration = _registration_space()
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)
    slug = pdf.make_stream(b"/CS0 cs 1 scn BT /F1 5 Tf 0 0 Td (donjon-cards.pdf 2026-11-28) Tj ET",
                           Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 200, 10],
                           Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font),
                                                        ColorSpace=pikepdf.Dictionary(CS0=registration)))
    corner = pdf.make_stream(b"/CS0 cs 1 scn 0 0 5 5 re f", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                             BBox=[0, 0, 5, 5], Resources=pikepdf.Dictionary(
                                 ColorSpace=pikepdf.Dictionary(CS0=registration)))
    stencil = pikepdf.Stream(pdf, b"\x00" * 8, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=8,
                             Height=8, ImageMask=True, BitsPerComponent=1)
    every_plate = pikepdf.Stream(pdf, b"\xff" * 4, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=2,
                                 Height=2, ColorSpace=registration, BitsPerComponent=8)
    resources = pikepdf.Dictionary(ColorSpace=pikepdf.Dictionary(CS0=registration),
                                   Font=pikepdf.Dictionary(F1=font),
                                   XObject=pikepdf.Dictionary(Fm0=slug, Fm1=corner, Im0=stencil, Im1=every_plate))
    # eight lines stroked as one path, as reportlab's crop marks are: a box around the whole path would cover the card
    crop = b" ".join(b"%d %d m %d %d l %d %d m %d %d l" % (x0, y, x1, y, x, y0, x, y1)
                     for x, y, x0, x1, y0, y1 in ((9, 9, 0, 6, 0, 6), (189, 9, 192, 198, 0, 6),
                                                  (9, 261, 0, 6, 264, 270), (189, 261, 192, 198, 264, 270))) + b" S"
    drawings = [b"0 0 0 1 k 20 20 150 220 re f /CS0 CS 1 SCN 0.25 w " + crop + b" q 1 0 0 1 12 1 cm /Fm0 Do Q"
                b" q 0 0 198 6 re W n /CS0 cs 1 scn 0 0 198 270 re f Q",
                b"q 20 0 0 20 40 40 cm /Fm1 Do Q",
                b"BT /F1 24 Tf /CS0 cs 50 130 Td (ART) Tj ET",
                b"/CS0 cs q 50 0 0 50 60 60 cm /Im0 Do Q",
                b"/CS0 cs 0.5 scn 20 20 50 50 re f",
                b"/CS0 CS 1 SCN 2 w 0 100 m 40 100 l S",
                b"q 50 0 0 50 60 60 cm /Im1 Do Q"]
    for drawing in drawings:
        _one_page(pdf, resources, drawing)
    pdf.save(path)


def test_registration_colour_counts_as_ink_where_it_is_painted_inside_the_cut(tmp_path: Path) -> None:
    """The registration colour (All) prints on every plate: 400 % ink at full tint. Crop marks, a slug line and a
    rectangle clipped to the margin, all painted in it outside the trim, are the printer's: nothing said, and the
    page's ink is its art's (100 %). Painted inside the trim (a form's corner 'mark' its placing scales into the card,
    text, a stencil picture, a line running into the card, a picture in it) it is ink, counted at 400 % x its
    tint whatever its alternate says: refused over DriveThruCards' 240 %; at tint 0.5, 200 %, within it.
    Ghostscript's separations of each page agree: 400 % inside on the refused pages, 200 % at tint 0.5, the marks'
    400 % outside the trim on the first page and 100 % inside."""
    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    path = tmp_path / "registration.pdf"
    _registration_pdf(path)
    found = check_pdf(path, find_service("dtc"))
    ink = _ink_pages(found)
    assert sorted(ink) == [2, 3, 4, 6, 7], found.findings
    assert all(f.verdict == "refused" for f in found.findings if f.rule == "ink_limit")
    assert ink[2].startswith("400 % total ink (the registration colour All at tint 1 (a filled shape), inside the "
                             "cut)"), ink
    assert "(text)" in ink[3] and "stencil picture /Im0" in ink[4] and "(a line)" in ink[6], ink
    assert "picture /Im1" in ink[7], ink
    assert not [f for f in found.findings if f.page in (1, 5) and f.rule in ("ink_limit", "colour")], found.findings
    assert found.ink[0] == pytest.approx(400)
    if GS is not None:
        inside, outside = _gs_ink_inside_and_out(path, 1, tmp_path)
        assert inside == pytest.approx(100, abs=1) and outside == pytest.approx(400, abs=1), (inside, outside)
        for page in (2, 3, 4, 6, 7):
            assert _gs_ink_inside_and_out(path, page, tmp_path)[0] == pytest.approx(400, abs=1), page
        assert _gs_ink_inside_and_out(path, 5, tmp_path)[0] == pytest.approx(200, abs=2)


def test_crop_marks_reportlab_draws_in_the_registration_colour_pass(tmp_path: Path) -> None:
    """reportlab's own crop marks (`cropMarks`, their colour the registration colour All) around a card: taken;
    a rectangle painted in that colour on the card: refused at 400 %."""
    import pikepdf
    from reportlab.lib.colors import CMYKColorSep
    from reportlab.pdfgen.canvas import Canvas

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    class Marks:  # reportlab reads these names: 36 pt of margin around the card, 9 pt of it bleed
        borderWidth, markWidth, markLength, markLast, bleedWidth = 36, 0.5, 18, True, 9
        markColor = CMYKColorSep(1, 1, 1, 1, spotName="All", density=1)

    path = tmp_path / "marks.pdf"
    canvas = Canvas(str(path), pagesize=(180, 252), cropMarks=Marks(), invariant=1)
    canvas.setFillColorCMYK(0, 0.5, 0.5, 0.1)
    canvas.rect(-9, -9, 198, 270, fill=1, stroke=0)
    canvas.showPage()
    canvas.setFillColor(Marks.markColor)
    canvas.rect(20, 20, 60, 60, fill=1)
    canvas.showPage()
    canvas.save()
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:  # reportlab writes no TrimBox: the marks' cut
        for page in pdf.pages:
            page.obj.TrimBox = pikepdf.Array([36, 36, 216, 288])
        pdf.save(path)
    found = check_pdf(path, find_service("dtc"))
    ink = [(f.page, f.verdict, f.message[:15]) for f in found.findings if f.rule in ("ink_limit", "colour")
           and f.page is not None]
    assert ink == [(2, "refused", "400 % total ink")], found.findings


def test_where_the_registration_colour_is_painted_is_followed_within_bounds(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Following where the registration colour is painted stops, and says so (warned, naming why), on forms nested
    deeper than 12, on more operators than it reads a page (MAX_MARK_OPERATORS, here made 10 000: a form of 2 000
    painted 6 times; a page's own drawing of 12 000, not read past them) and on an operand it cannot read (a path's
    corner given by names): each page said, never a traceback. A card whose drawing paints nothing in it (a form
    of 12 000 operators in CMYK, with marks in it beside) is followed without reading its paths' points: no
    finding."""
    import pikepdf

    from generator.prepress import preflight
    from generator.prepress.services import find_service

    monkeypatch.setattr(preflight, "MAX_MARK_OPERATORS", 10_000)
    pdf = pikepdf.new()
    every_plate = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[1, 1, 1, 1], N=1)
    spaces = pikepdf.Dictionary(CS0=pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name.All,
                                                   pikepdf.Name.DeviceCMYK, every_plate]))
    nested = pdf.make_stream(b"/CS0 cs 1 scn 0 0 5 5 re f", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                             BBox=[0, 0, 5, 5], Resources=pikepdf.Dictionary(ColorSpace=spaces))
    for _ in range(20):
        nested = pdf.make_stream(b"/Fm0 Do", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 5, 5],
                                 Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Fm0=nested)))
    many = pdf.make_stream(b"0 0 1 1 re f " * 1000, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                           BBox=[0, 0, 5, 5])
    card = pdf.make_stream(b"0 0 0 1 k " + b"20 20 1 1 re f " * 6000, Type=pikepdf.Name.XObject,
                           Subtype=pikepdf.Name.Form, BBox=[0, 0, 198, 270])
    resources = pikepdf.Dictionary(ColorSpace=spaces, XObject=pikepdf.Dictionary(Fm0=nested, Fm1=many, Fm2=card))
    for drawing in (b"/CS0 cs /Fm0 Do", b"/CS0 cs " + b"/Fm1 Do " * 6, b"/CS0 cs 1 scn " + b"0 0 1 1 re f " * 6000,
                    b"/CS0 cs 1 scn /X /Y 5 5 re f", b"/Fm2 Do /CS0 cs 1 scn 0 0 5 5 re f"):
        _one_page(pdf, resources, drawing)
    path = tmp_path / "hostile.pdf"
    pdf.save(path)
    found = preflight.check_pdf(path, find_service("dtc"))
    said = {cast(int, f.page): (f.verdict, f.message) for f in found.findings
            if "registration colour All" in f.message}
    assert sorted(said) == [1, 2, 3, 4] and {verdict for verdict, _ in said.values()} == {"warned"}, found.findings
    assert not [f for f in found.findings if f.page == 5 and f.rule in ("colour", "ink_limit")], found.findings
    for page, why in ((1, "forms inside forms deeper than 12"), (2, "more than 10000 operators"),
                      (3, "more than 10000 operators"), (4, "an operand the preflight cannot read")):
        assert f"where could not be followed ({why})" in said[page][1], said[page]


def test_a_lines_sharp_corner_in_the_registration_colour_is_followed_as_far_as_its_miter_reaches(
        tmp_path: Path) -> None:
    """A line in the registration colour, 2 pt wide, whose sharp corner (16 degrees) stops 2 pt outside the cut: with
    the default miter join its spike reaches 5.5 pt into the card (Ghostscript: 400 % inside), which the box of its
    points grown by half the width took as outside; refused now. Bevelled (2 j), or with a miter limit of 1 set by a
    graphics state (/ML), it stays outside: taken, as Ghostscript's separations show."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    resources = pikepdf.Dictionary(ColorSpace=pikepdf.Dictionary(CS0=_registration_space()),
                                   ExtGState=pikepdf.Dictionary(GS0=pikepdf.Dictionary(ML=1)))
    corner = b" 0 100 m 7 101 l 0 102 l S"
    for drawing in (b"/CS0 CS 1 SCN 2 w" + corner, b"/CS0 CS 1 SCN 2 w 2 j" + corner,
                    b"/CS0 CS 1 SCN 2 w /GS0 gs" + corner):
        _one_page(pdf, resources, drawing)
    path = tmp_path / "corner.pdf"
    pdf.save(path)
    found = check_pdf(path, find_service("dtc"))
    assert sorted(_ink_pages(found)) == [1], found.findings
    if GS is not None:
        for page, inside in ((1, 400), (2, 0), (3, 0)):
            assert _gs_ink_inside_and_out(path, page, tmp_path)[0] == pytest.approx(inside, abs=2), page


def test_a_line_in_the_registration_colour_is_judged_by_its_segments_not_its_box(tmp_path: Path) -> None:
    """Lines in the registration colour, 1 pt wide, across the bottom-left corner of a card's margin: a diagonal
    from (0, 12) to (12, 0) stays outside the cut (Ghostscript: no ink inside), though its box crosses it, as does
    a quarter circle of radius 11 round the page's corner, and a path along the two margins' edges stroked open
    (S); the same diagonal from (0, 24) to (24, 0), and the corner path closed by its painting operator (s: its
    closing segment is that diagonal), cut across the card's corner (400 % inside). Only those two are refused,
    and a page filled inside the card with a pattern whose tile strokes a diagonal in it (its lines judged in the
    tile's own space: whatever it strokes counts)."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    spaces = pikepdf.Dictionary(CS0=_registration_space())
    # a fill pattern whose tile strokes a diagonal in it: its tile's lines are in the tile's space, not the page's
    tile = pdf.make_stream(b"/CS0 CS 1 SCN 1 w 0 0 m 8 8 l S", Type=pikepdf.Name.Pattern, PatternType=1,
                           PaintType=1, TilingType=1, BBox=[0, 0, 8, 8], XStep=8, YStep=8,
                           Resources=pikepdf.Dictionary(ColorSpace=spaces))
    resources = pikepdf.Dictionary(ColorSpace=spaces, Pattern=pikepdf.Dictionary(P0=tile))
    _one_page(pdf, resources, b"/Pattern cs /P0 scn 40 40 100 100 re f")
    for line in (b"0 12 m 12 0 l S", b"0 24 m 24 0 l S", b"0 11 m 6.075 11 11 6.075 11 0 c S",
                 b"0 30 m 0 0 l 30 0 l S", b"0 30 m 0 0 l 30 0 l s", b"1 0 0 1 -12 0 cm 12 12 m 24 0 l S"):
        _one_page(pdf, resources, b"/CS0 CS 1 SCN 1 w " + line)
    path = tmp_path / "diagonals.pdf"
    pdf.save(path)
    found = check_pdf(path, find_service("dtc"))
    assert sorted(_ink_pages(found)) == [1, 3, 6], found.findings
    if GS is not None:
        for page in range(1, 8):
            assert _gs_ink_inside_and_out(path, page, tmp_path)[0] == pytest.approx(
                400 if page in (1, 3, 6) else 0, abs=2), page


def _registration_in_tiles_and_glyphs(path: Path) -> None:
    """Pages where a designer's file paints the registration colour (All, its alternate 50 % K) inside drawings of
    their own: 1, a coloured tiling pattern whose tile paints a square in it, filling a rectangle inside the cut
    (over 100 % K art); 2, the same filling the bottom margin only; 3 and 4, an uncoloured tiling pattern painted in a
    Pattern space over it, at tint 1 and 0.5; 5, a Type 3 font's glyph 'a' (d0: a glyph of its own colours) that
    paints a square in it, shown inside; 6, the same glyph shown in the bottom margin; 7, the font's glyphs 'b' (in
    black, d0) and 'c' (in the text's black, d1), shown inside by TJ, 'c' as hex; 8, 'a' written as an octal
    escape."""
    import pikepdf

    pdf = pikepdf.new()
    registration = pdf.make_indirect(_registration_space())
    spaces = pikepdf.Dictionary(CS0=registration)
    tile = pdf.make_stream(b"/CS0 cs 1 scn 0 0 4 4 re f", Type=pikepdf.Name.Pattern, PatternType=1, PaintType=1,
                           TilingType=1, BBox=[0, 0, 8, 8], XStep=8, YStep=8,
                           Resources=pikepdf.Dictionary(ColorSpace=spaces))
    uncoloured = pdf.make_stream(b"0 0 4 4 re f", Type=pikepdf.Name.Pattern, PatternType=1, PaintType=2,
                                 TilingType=1, BBox=[0, 0, 8, 8], XStep=8, YStep=8, Resources=pikepdf.Dictionary())
    glyphs = pikepdf.Dictionary(a=pdf.make_stream(b"1000 0 d0 /CS0 cs 1 scn 0 0 700 700 re f"),
                                b=pdf.make_stream(b"1000 0 d0 0 0 0 1 k 0 0 700 700 re f"),
                                c=pdf.make_stream(b"1000 0 0 0 700 700 d1 0 0 700 700 re f"))
    type3 = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontBBox=[0, 0, 1000, 1000],
                               FontMatrix=[0.001, 0, 0, 0.001, 0, 0], CharProcs=glyphs, FirstChar=97, LastChar=99,
                               Widths=[1000] * 3, Resources=pikepdf.Dictionary(ColorSpace=spaces),
                               Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding, Differences=[
                                   97, pikepdf.Name.a, pikepdf.Name.b, pikepdf.Name.c]))
    resources = pikepdf.Dictionary(
        ColorSpace=pikepdf.Dictionary(CS0=registration, CSP=pikepdf.Array([pikepdf.Name.Pattern, registration])),
        Pattern=pikepdf.Dictionary(P0=tile, P1=uncoloured), Font=pikepdf.Dictionary(T3=type3))
    art = b"0 0 0 1 k 20 20 150 220 re f "
    for drawing in (art + b"/Pattern cs /P0 scn 40 40 100 100 re f", art + b"/Pattern cs /P0 scn 0 0 198 6 re f",
                    b"/CSP cs 1 /P1 scn 40 40 100 100 re f", b"/CSP cs 0.5 /P1 scn 40 40 100 100 re f",
                    b"BT /T3 30 Tf 40 120 Td (a) Tj ET", art + b"BT /T3 4 Tf 40 1 Td (a) Tj ET",
                    b"BT /T3 30 Tf 40 120 Td [(b) -500 <63>] TJ ET", b"BT /T3 30 Tf 40 120 Td (\\141) Tj ET"):
        _one_page(pdf, resources, drawing)
    pdf.save(path)


def test_registration_colour_painted_by_tiles_and_type3_glyphs_is_followed(tmp_path: Path) -> None:
    """The registration colour painted inside a tiling pattern's tile, or by a Type 3 font's glyph with colours of
    its own, is followed to where the pattern fills or the text is shown: inside the cut it is ink, 400 % x its
    tint (refused over DriveThruCards' 240 %; said at 200 % for MB PRINT, which limits no ink); in the margin,
    nothing. Glyphs the text does not show, and a d1 glyph (painted in the text's colour), are not taken. Both were
    passed without a word: the walk of where the registration colour is painted stepped over tiles and glyphs.
    Ghostscript's separations of each page agree."""
    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    path = tmp_path / "tiles-and-glyphs.pdf"
    _registration_in_tiles_and_glyphs(path)
    found = check_pdf(path, find_service("dtc"))
    ink = _ink_pages(found)
    assert sorted(ink) == [1, 3, 5, 8] and all(m.startswith("400 % total ink") for m in ink.values()), found.findings
    assert "(text in a Type 3 font whose glyphs paint in it)" in ink[5], ink
    said = {cast(int, f.page): f.message for f in check_pdf(path, find_service("mbprint")).findings
            if "registration colour All" in f.message}
    assert sorted(said) == [1, 3, 4, 5, 8] and "200 % ink" in said[4], said
    if GS is not None:
        expected = {1: (400, 0), 2: (100, 400), 3: (400, 0), 4: (200, 0), 5: (400, 0), 6: (100, 400), 7: (100, 0),
                    8: (400, 0)}
        for page, (inside, outside) in expected.items():
            measured = _gs_ink_inside_and_out(path, page, tmp_path)
            assert measured[0] == pytest.approx(inside, abs=2) and measured[1] == pytest.approx(outside, abs=2), \
                (page, measured)


def _rich_black(pdf: Any) -> Any:
    """A Separation whose CMYK alternate is 400 % at full tint, 100 % x 4 x its tint (a tint transform of type 2)."""
    import pikepdf

    return pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name("/Rich Black"), pikepdf.Name.DeviceCMYK,
                          pdf.make_indirect(pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0],
                                                               C1=[1, 1, 1, 1], N=1))])


def _gold_and_silver(pdf: Any) -> Any:
    """A DeviceN of two spot colours whose CMYK alternate is their sum on every plate (held to 0..1)."""
    import pikepdf

    return pikepdf.Array([pikepdf.Name.DeviceN, [pikepdf.Name.Gold, pikepdf.Name.Silver], pikepdf.Name.DeviceCMYK,
                          pdf.make_stream(b"{ add dup dup dup }", FunctionType=4, Domain=[0, 1, 0, 1],
                                          Range=[0, 1] * 4)])


def _picture(pdf: Any, data: bytes, width: int, height: int, space: Any, bits: int = 8, **more: Any) -> Any:
    import pikepdf

    return pikepdf.Stream(pdf, data, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=width,
                          Height=height, ColorSpace=space, BitsPerComponent=bits, **more)


def _picture_pages(pdf: Any, pictures: dict[str, Any], placing: bytes, path: Path) -> None:
    """A page for each picture (by its name), drawn where `placing` (a `q ... cm`) puts it; saved as `path`."""
    import pikepdf

    resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(pictures))
    for name in pictures:
        _one_page(pdf, resources, placing + b" %s Do Q" % name.encode())
    pdf.save(path)


def _ink_pages(found: Any) -> dict[int, str]:
    """The ink findings of a preflight by page: each page's one message."""
    return {f.page: f.message for f in found.findings if f.rule == "ink_limit"}


def test_a_spot_colour_painted_without_a_tint_set_is_measured_at_full_tint(tmp_path: Path) -> None:
    """`cs` sets a spot colour at its initial tint, 1.0 for each ink (PDF 1.7, 8.6.6.4); painted before any `scn`
    it prints at full tint: a fill, a stroke in a DeviceN of two, a form painted in it, a stencil picture, text, an
    Indexed space's index 0, a fill after a form that set a tint of its own (Do gives the graphics state back) are
    measured at 400 % and refused for DriveThruCards' 240 %. Not refused: a tint set by
    `scn` before painting (80 %), a colour space replaced by `k` before painting, or set inside q ... Q and never
    painted in, and text drawn invisible (3 Tr). Ghostscript's separations agree on each page."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    rich = _rich_black(pdf)
    indexed = pikepdf.Array([pikepdf.Name.Indexed, rich, 1, pikepdf.String(b"\xff\x00")])
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)
    form = pdf.make_stream(b"20 20 50 50 re f", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                           BBox=[0, 0, 198, 270])
    stencil = pikepdf.Stream(pdf, b"\x00" * 8, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=8,
                             Height=8, ImageMask=True, BitsPerComponent=1)
    tinted = pdf.make_stream(b"/CS0 cs 0.1 scn", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                             BBox=[0, 0, 198, 270])
    resources = pikepdf.Dictionary(ColorSpace=pikepdf.Dictionary(CS0=rich, CS1=_gold_and_silver(pdf), CS2=indexed),
                                   Font=pikepdf.Dictionary(F1=font),
                                   XObject=pikepdf.Dictionary(Fm0=form, Im0=stencil, Fm1=tinted))
    art = b" 0 0 0 1 k 100 100 50 50 re f"  # 100 % K: what an honest page's highest ink is
    drawings = [b"/CS0 cs 20 20 50 50 re f",
                b"/CS1 CS 5 w 20 20 m 100 100 l S",
                b"/CS0 cs /Fm0 Do",
                b"/CS0 cs q 50 0 0 50 20 20 cm /Im0 Do Q",
                b"BT /F1 24 Tf /CS0 cs 50 130 Td (ART) Tj ET",
                b"/CS2 cs 20 20 50 50 re f",
                b"/CS0 cs 0.2 scn 20 20 50 50 re f" + art,
                b"/CS0 cs 0 0 0 1 k 20 20 50 50 re f",
                b"q /CS0 cs Q" + art,
                b"BT 3 Tr /F1 24 Tf /CS0 cs 50 130 Td (ART) Tj ET" + art,
                b"/CS0 cs /Fm1 Do 20 20 50 50 re f"]
    for drawing in drawings:
        _one_page(pdf, resources, drawing)
    path = tmp_path / "initial.pdf"
    pdf.save(path)
    found = check_pdf(path, find_service("dtc"))
    ink = _ink_pages(found)
    assert sorted(ink) == [1, 2, 3, 4, 5, 6, 11], found.findings
    assert all(f.verdict == "refused" for f in found.findings if f.rule == "ink_limit")
    assert all(message.startswith("400 % total ink") for message in ink.values()), ink
    assert "the colour 1 that cs /CS0 sets, painted without a tint set" in ink[1], ink
    assert "the colour 1 1 that CS /CS1 sets" in ink[2] and "the colour 0 that cs /CS2 sets" in ink[6], ink
    if GS is not None:
        for page, percent in ((1, 400), (2, 400), (3, 400), (4, 400), (5, 400), (6, 400), (7, 100), (8, 100),
                              (9, 100), (10, 100), (11, 400)):
            assert _gs_ink_inside_and_out(path, page, tmp_path)[0] == pytest.approx(percent, abs=1), page


def test_an_indexed_pictures_ink_is_measured_through_its_colour_table(tmp_path: Path) -> None:
    """A picture in an Indexed colour space whose base is CMYK, a Separation or a DeviceN has the ink of the table's
    entries its pixels use (PDF 1.7, 8.6.6.3), through the base's tint transform: an 8-bit picture using a 400 %
    entry, a 1-bit one over a Separation, a DeviceN entry, a 1-bit one whose /Decode [1 0] turns its 0s into index 1,
    and a fill colour set by `sc` in an Indexed space, all refused at 400 %; a 4-bit picture using only a 151 % entry
    of a table that also holds a 400 % one, not refused; a table shorter than its hival says, said not measured
    (warned), without a traceback. Ghostscript's separations agree on each page it renders."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    cmyk = pikepdf.Array([pikepdf.Name.Indexed, pikepdf.Name.DeviceCMYK, 2,
                          pikepdf.String(b"\x00\x00\x00\x00\xff\xff\xff\xff\x80\x80\x80\x00")])
    spot = pikepdf.Array([pikepdf.Name.Indexed, _rich_black(pdf), 1, pikepdf.String(b"\x00\xff")])
    metals = pikepdf.Array([pikepdf.Name.Indexed, _gold_and_silver(pdf), 1,
                            pdf.make_stream(b"\x00\x00\xff\x00")])
    short = pikepdf.Array([pikepdf.Name.Indexed, pikepdf.Name.DeviceCMYK, 1, pikepdf.String(b"\x00\x00\x00\x00")])
    pictures = {"/Im0": _picture(pdf, b"\x00\x01" * 2, 2, 2, cmyk),
                "/Im1": _picture(pdf, b"\xff" * 8, 8, 8, spot, 1),
                "/Im2": _picture(pdf, b"\x01" * 4, 2, 2, metals),
                "/Im3": _picture(pdf, b"\x00" * 8, 8, 8, spot, 1, Decode=[1, 0]),
                "/Im4": _picture(pdf, b"\x22\x20" * 3, 3, 3, cmyk, 4),  # index 2 (151 %) and row padding
                "/Im5": _picture(pdf, b"\x01" * 4, 2, 2, short)}
    resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(pictures), ColorSpace=pikepdf.Dictionary(CS0=cmyk))
    for name in pictures:
        _one_page(pdf, resources, b"q 50 0 0 50 60 60 cm %s Do Q" % name.encode())
    _one_page(pdf, resources, b"/CS0 cs 1 sc 20 20 50 50 re f")
    path = tmp_path / "indexed.pdf"
    pdf.save(path)
    found = check_pdf(path, find_service("dtc"))
    ink = _ink_pages(found)
    assert sorted(ink) == [1, 2, 3, 4, 6, 7], found.findings
    verdicts = {f.page: f.verdict for f in found.findings if f.rule == "ink_limit"}
    assert verdicts == {1: "refused", 2: "refused", 3: "refused", 4: "refused", 6: "warned", 7: "refused"}
    assert all(ink[page].startswith("400 % total ink") for page in (1, 2, 3, 4, 7)), ink
    assert "an index into its colour table at 1" in ink[1], ink
    assert ink[6].startswith("the ink of the picture /Im5 could not be measured"), ink
    if GS is not None:
        for page, percent in ((1, 400), (2, 400), (3, 400), (4, 400), (5, 151), (7, 400)):
            assert _gs_ink_inside_and_out(path, page, tmp_path)[0] == pytest.approx(percent, abs=1), page


def test_a_spot_pictures_samples_of_every_size_are_measured_or_said_not_measured(tmp_path: Path) -> None:
    """A picture in a spot colour (or CMYK) of 1, 2, 4 or 16 bits a component is measured as one of 8: a 1-bit
    Separation at full tint (400 %), a 2-bit one at 2/3 (267 %, its rows' padding bits set, which are no pixel),
    a 16-bit one at 0.75 (300 %), a 16-bit CMYK one (400 %), a DeviceN of six inks of 4 bits (400 %): refused; a
    4-bit one at 1/3 (133 %): not, nor a 16-bit one of 5120 tints (more than the 4096 converted one by one: its
    tint transform evaluated over all of them at once, 0.14 at most). Beyond what is measured, said, and why: 3 bits
    a component (which PDF does not allow). Ghostscript's separations agree on each page it renders."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    rich = _rich_black(pdf)
    # six inks printed as the first one's tint on every plate (the five others popped from the top of the stack)
    six = pikepdf.Array([pikepdf.Name.DeviceN, [pikepdf.Name("/Ink%d" % i) for i in range(6)],
                         pikepdf.Name.DeviceCMYK,
                         pdf.make_stream(b"{ pop pop pop pop pop dup dup dup }", FunctionType=4,
                                         Domain=[0, 1] * 6, Range=[0, 1] * 4)])
    many = b"".join((4096 + i).to_bytes(2, "big") for i in range(64 * 80))
    pictures = {"/Im0": _picture(pdf, b"\xff" * 8, 8, 8, rich, 1),
                "/Im1": _picture(pdf, b"\xab" * 3, 3, 3, rich, 2),  # 2 2 2, then 2 bits of padding set
                "/Im2": _picture(pdf, b"\x55\x5f" * 3, 3, 3, rich, 4),  # 5 5 5, then 4 bits of padding set
                "/Im3": _picture(pdf, b"\xc0\x00" * 4, 2, 2, rich, 16),
                "/Im4": _picture(pdf, b"\xff\xff" * 16, 2, 2, pikepdf.Name.DeviceCMYK, 16),
                "/Im5": _picture(pdf, b"\xf0\x00\x00" * 4, 1, 4, six, 4),  # its first ink at 1, the rest 0
                "/Im6": _picture(pdf, many, 64, 80, rich, 16),
                "/Im7": _picture(pdf, b"\xff" * 8, 8, 8, rich, 3)}
    path = tmp_path / "samples.pdf"
    _picture_pages(pdf, pictures, b"q 50 0 0 50 60 60 cm", path)
    found = check_pdf(path, find_service("dtc"))
    ink = _ink_pages(found)
    verdicts = {f.page: f.verdict for f in found.findings if f.rule == "ink_limit"}
    assert verdicts == {1: "refused", 2: "refused", 4: "refused", 5: "refused", 6: "refused", 8: "warned"}, \
        found.findings
    assert [ink[page][:15] for page in (1, 2, 4, 5, 6)] == ["400 % total ink", "267 % total ink", "300 % total ink",
                                                            "400 % total ink", "400 % total ink"], ink
    assert found.ink[0] == pytest.approx(400)
    assert found.ink[1] == "page 1, the picture /Im0, a spot colour at 1 printed through its CMYK alternate"
    assert "(3 bits a component, which PDF does not allow)" in ink[8], ink
    if GS is not None:
        for page, percent in ((1, 400), (2, 267), (3, 133), (4, 300), (5, 400), (6, 400)):
            # (Ghostscript 10.00's tiff32nc and inkcov crash on the 16-bit Separation picture; its tiffsep does not)
            device = "tiffsep" if page == 4 else "tiff32nc"
            assert _gs_ink_inside_and_out(path, page, tmp_path, device)[0] == pytest.approx(percent, abs=1), page


def test_a_picture_of_more_colours_than_are_converted_one_by_one_is_measured_pixel_by_pixel(tmp_path: Path) -> None:
    """A 16-bit CMYK picture of 5120 colours (C 0.75 and up by one step a pixel, M, Y and K at 0.75: its highest
    total 308 %) and a 16-bit picture in the registration colour of 5120 tints (0.5 and up: at most 0.578, 231 %)
    were said not measured (more than the 4096 colours converted one by one) and the latter taken at full tint
    (400 %): no colour of theirs needs converting, so every pixel is measured. Ghostscript's separations agree."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    registration = _registration_space()
    cmyk = b"".join((0xC000 + i).to_bytes(2, "big") + b"\xc0\x00" * 3 for i in range(64 * 80))
    tints = b"".join((0x8000 + i).to_bytes(2, "big") for i in range(64 * 80))
    pictures = {"/Im0": _picture(pdf, cmyk, 64, 80, pikepdf.Name.DeviceCMYK, 16),
                "/Im1": _picture(pdf, tints, 64, 80, registration, 16)}
    path = tmp_path / "colours.pdf"
    _picture_pages(pdf, pictures, b"q 64 0 0 80 60 60 cm", path)
    found = check_pdf(path, find_service("dtc"))
    ink = _ink_pages(found)
    assert sorted(ink) == [1] and ink[1].startswith("308 % total ink (the picture /Im0, a colour at 0.828"), ink
    assert found.ink[0] == pytest.approx((4 * 0xC000 + 5119) / 65535 * 100), found.ink
    said = [f.message for f in check_pdf(path, find_service("mbprint")).findings
            if f.page == 2 and "registration colour All" in f.message]
    assert len(said) == 1 and "231 % ink" in said[0], said
    if GS is not None:
        assert _gs_ink_inside_and_out(path, 1, tmp_path)[0] == pytest.approx(308, abs=2)
        # (Ghostscript 10.00's tiff32nc crashes on a 16-bit Separation picture; its tiffsep does not)
        assert _gs_ink_inside_and_out(path, 2, tmp_path, "tiffsep")[0] == pytest.approx(231, abs=2)


def test_a_spot_picture_of_more_colours_than_are_converted_one_by_one_is_measured_all_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """16-bit pictures in a spot colour (Gold, its CMYK alternate) of 5120 tints each (1 and down by one step a
    pixel) were said not measured (more than the 4096 colours converted one by one), however much ink they print:
    page 1, an exponential tint transform reaching C1 M1 Y0.9 K0.6 (350 %, refused by DriveThruCards; Ghostscript's
    separations agree); page 2, a stitching one (its first piece near 400 % just below its bound 0.95). Each is
    now measured with the figure and colour measuring them one by one gives; page 3's PostScript transform is still
    said not measured."""
    import pikepdf

    from generator.prepress import preflight
    from generator.prepress.services import find_service

    def gold(function: Any) -> Any:
        return pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name.Gold, pikepdf.Name.DeviceCMYK, function])

    def exponential(c0: list[float], c1: list[float]) -> Any:
        return pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=c0, C1=c1, N=1)

    pdf = pikepdf.new()
    stitched = pikepdf.Dictionary(FunctionType=3, Domain=[0, 1], Bounds=[0.95], Encode=[0, 1, 0, 1], Functions=[
        exponential([0] * 4, [1] * 4), exponential([0.5] * 4, [0.5] * 4)])
    program = pdf.make_stream(b"{dup dup 0.9 mul exch 0.6 mul}", FunctionType=4, Domain=[0, 1], Range=[0, 1] * 4)
    tints = b"".join((0xFFFF - i).to_bytes(2, "big") for i in range(64 * 80))
    pictures = {"/Im0": _picture(pdf, tints, 64, 80, gold(exponential([0] * 4, [1, 1, 0.9, 0.6])), 16),
                "/Im1": _picture(pdf, tints, 64, 80, gold(stitched), 16),
                "/Im2": _picture(pdf, tints, 64, 80, gold(program), 16)}
    path = tmp_path / "spots.pdf"
    _picture_pages(pdf, pictures, b"q 64 0 0 80 60 60 cm", path)
    found = preflight.check_pdf(path, find_service("dtc"))
    ink = _ink_pages(found)
    assert sorted(ink) == [1, 2, 3], ink
    assert ink[1].startswith("350 % total ink (the picture /Im0, a spot colour at 1 printed"), ink
    assert ink[2].startswith("400 % total ink (the picture /Im1, a spot colour at 0.949996"), ink
    assert "could not be measured (5120 colours, more than the 4096 measured)" in ink[3], ink
    monkeypatch.setattr(preflight, "MAX_SPOT_COLOURS", 1 << 20)  # each colour one by one: the same report
    one_by_one = preflight.check_pdf(path, find_service("dtc"))
    assert [f for f in one_by_one.findings if f.page != 3] == [f for f in found.findings if f.page != 3]
    if GS is not None:
        # (Ghostscript 10.00's tiff32nc crashes on a 16-bit Separation picture; its tiffsep does not)
        assert _gs_ink_inside_and_out(path, 1, tmp_path, "tiffsep")[0] == pytest.approx(350, abs=2)


def test_a_spot_picture_through_a_sampled_or_postscript_transform_is_measured_all_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Spot pictures of more colours than are converted one by one (5120), through the tint transforms Illustrator
    and InDesign write, were said not measured. Now each is measured as converting every colour one by one measures
    it: page 1, a 16-bit Separation through a sampled table (type 0) reaching C1 M1 Y0.9 K0.6 (350 %); page 2,
    through a PostScript program that chooses by ifelse and clamps by if (315 % at full tint, where the 1.1 of the
    other branch would give more); page 3, a DeviceN of two inks (8 bits each, 5120 pairs) through a PostScript
    program (1.8 a + 1.7 b: 350 %). Each refused by DriveThruCards' 240 %; Ghostscript's separations agree. Page
    4's program leaves a deeper stack for the tints above 0.96 than for the others: it cannot be run for all at
    once, and is still said not measured, with how many colours."""
    import pikepdf

    from generator.prepress import preflight
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    table = pdf.make_stream(bytes([0, 0, 0, 0, 255, 255, 230, 153]), FunctionType=0, Domain=[0, 1], Range=[0, 1] * 4,
                            Size=[2], BitsPerSample=8)

    def program(text: bytes, inks: int = 1) -> Any:
        return pdf.make_stream(text, FunctionType=4, Domain=[0, 1] * inks, Range=[0, 1] * 4)

    def gold(function: Any) -> Any:
        return pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name.Gold, pikepdf.Name.DeviceCMYK, function])

    chosen = program(b"{ dup 0.5 gt { 0.9 mul } { 1.1 mul } ifelse dup 1 gt { pop 1 } if "
                     b"dup dup dup 0.9 mul exch 0.6 mul }")
    deeper = program(b"{ dup 0.96 gt { 0 } if dup dup dup }")
    two = pikepdf.Array([pikepdf.Name.DeviceN, [pikepdf.Name.Gold, pikepdf.Name.Silver], pikepdf.Name.DeviceCMYK,
                         program(b"{ exch dup 0.8 mul 3 -1 roll dup 0.7 mul }", 2)])
    tints = b"".join((0xFFFF - i).to_bytes(2, "big") for i in range(64 * 80))
    pairs = b"".join(bytes([255 - i % 256, 255 - i // 256]) for i in range(64 * 80))
    pictures = {"/Im0": _picture(pdf, tints, 64, 80, gold(table), 16),
                "/Im1": _picture(pdf, tints, 64, 80, gold(chosen), 16),
                "/Im2": _picture(pdf, pairs, 64, 80, two),
                "/Im3": _picture(pdf, tints, 64, 80, gold(deeper), 16)}
    path = tmp_path / "spots.pdf"
    _picture_pages(pdf, pictures, b"q 64 0 0 80 60 60 cm", path)
    found = preflight.check_pdf(path, find_service("dtc"))
    ink = _ink_pages(found)
    assert ink[1].startswith("350 % total ink (the picture /Im0, a spot colour at 1 printed"), ink
    assert ink[2].startswith("315 % total ink (the picture /Im1, a spot colour at 1 printed"), ink
    assert ink[3].startswith("350 % total ink (the picture /Im2, a spot colour at 1 1 printed"), ink
    assert ink[4].endswith("could not be measured (5120 colours, more than the 4096 measured)"), ink
    assert [f.verdict for f in found.findings if f.rule == "ink_limit"] == ["refused"] * 3 + ["warned"]
    monkeypatch.setattr(preflight, "MAX_SPOT_COLOURS", 1 << 20)  # each colour one by one: the same report
    one_by_one = preflight.check_pdf(path, find_service("dtc"))
    assert [f for f in one_by_one.findings if f.page != 4] == [f for f in found.findings if f.page != 4]
    # (one by one, page 4 is measured: a tint up to 0.96 on all four plates)
    assert _ink_pages(one_by_one)[4].startswith("384 % total ink (the picture /Im3, a spot colour at 0.959991 ")
    if GS is not None:
        for page, percent in ((1, 350.2), (2, 315), (3, 350)):
            assert _gs_ink_inside_and_out(path, page, tmp_path, "tiffsep")[0] == pytest.approx(percent, abs=2), page


def _jpeg(mode: str, colour: Any, size: int = 16) -> bytes:
    """A JPEG of one colour (Pillow writes a CMYK one with Adobe's marker, its inks inverted, as Photoshop does)."""
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new(mode, (size, size), colour).save(out, "JPEG", quality=95)
    return out.getvalue()


def test_a_jpeg_pictures_ink_is_measured_as_pdf_reads_it(tmp_path: Path) -> None:
    """A JPEG picture (DCTDecode: the common picture of a designer's PDF, whose data pypdf gives as the JPEG file)
    has its ink measured as PDF reads its samples: a CMYK JPEG of Adobe's (inverted inks) with Photoshop's /Decode
    [1 0 1 0 1 0 1 0] at 400 % and at 300 %: refused; at some 94 %, or the same 400 % JPEG without the /Decode
    (which PDF reads as no ink): not; a Separation JPEG at full tint: refused. One that cannot be read as its size
    and colour space say (another size, a damaged file) is said not measured, and why, never a traceback.
    Ghostscript's separations agree on each page it renders."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    inverted = [1, 0] * 4
    full, three, light = (_jpeg("CMYK", ink) for ink in ((255, 255, 255, 255), (255, 255, 255, 0), (100, 80, 60, 0)))
    cmyk, jpeg = pikepdf.Name.DeviceCMYK, pikepdf.Name.DCTDecode
    pictures = {"/Im0": _picture(pdf, full, 16, 16, cmyk, Filter=jpeg, Decode=inverted),
                "/Im1": _picture(pdf, three, 16, 16, cmyk, Filter=jpeg, Decode=inverted),
                "/Im2": _picture(pdf, light, 16, 16, cmyk, Filter=jpeg, Decode=inverted),
                "/Im3": _picture(pdf, full, 16, 16, cmyk, Filter=jpeg),
                "/Im4": _picture(pdf, _jpeg("L", 255), 16, 16, _rich_black(pdf), Filter=jpeg),
                "/Im5": _picture(pdf, full, 32, 32, cmyk, Filter=jpeg, Decode=inverted),
                "/Im6": _picture(pdf, full[:40] + b"\x00" * 200, 16, 16, cmyk, Filter=jpeg),
                "/Im7": _picture(pdf, b"\xff\xd8 not a JPEG", 16, 16, _rich_black(pdf), Filter=jpeg)}
    resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(pictures))
    for name in pictures:
        _one_page(pdf, resources, b"q 50 0 0 50 60 60 cm %s Do Q" % name.encode())
    path = tmp_path / "jpeg.pdf"
    pdf.save(path)
    found = check_pdf(path, find_service("dtc"))
    ink = _ink_pages(found)
    verdicts = {f.page: f.verdict for f in found.findings if f.rule == "ink_limit"}
    assert verdicts == {1: "refused", 2: "refused", 5: "refused", 6: "warned", 7: "warned", 8: "warned"}, ink
    assert [ink[page][:15] for page in (1, 2, 5)] == ["400 % total ink", "300 % total ink", "400 % total ink"], ink
    assert "(a JPEG of 16 x 16 pixels, not its 32 x 32)" in ink[6], ink
    assert "(a JPEG that cannot be read)" in ink[7] and "(a JPEG that cannot be read)" in ink[8], ink
    if GS is not None:
        for page, low, high in ((1, 398, 400), (2, 298, 302), (3, 88, 100), (4, 0, 2), (5, 398, 400)):
            assert low <= _gs_ink_inside_and_out(path, page, tmp_path)[0] <= high, page


def test_the_colourant_none_paints_no_ink(tmp_path: Path) -> None:
    """A Separation of the colourant None never marks the page (PDF 1.7, 8.6.6.4), whatever its alternate says
    (here 400 %): a fill, a picture and a gradient in it are no ink, not refused (they were, at 400 %); Ghostscript
    paints nothing."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    every_plate = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[1, 1, 1, 1], N=1)
    none = pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name("/None"), pikepdf.Name.DeviceCMYK, every_plate])
    gradient = pikepdf.Dictionary(ShadingType=2, ColorSpace=none, Coords=[0, 0, 198, 0],
                                  Function=pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0], C1=[1], N=1))
    resources = pikepdf.Dictionary(ColorSpace=pikepdf.Dictionary(CS0=none),
                                   XObject=pikepdf.Dictionary(Im0=_picture(pdf, b"\xff" * 4, 2, 2, none)),
                                   Shading=pikepdf.Dictionary(Sh0=gradient))
    for drawing in (b"/CS0 cs 1 scn 20 20 50 50 re f", b"q 50 0 0 50 60 60 cm /Im0 Do Q", b"/Sh0 sh"):
        _one_page(pdf, resources, drawing)
    path = tmp_path / "none.pdf"
    pdf.save(path)
    found = check_pdf(path, find_service("dtc"))
    assert not _ink_pages(found) and found.ink[0] == 0, found.findings
    if GS is not None:
        for page in (1, 2, 3):
            assert _gs_ink_inside_and_out(path, page, tmp_path) == (0, 0), page


def test_a_spot_colours_cmyk_is_said_as_a_press_holds_it(tmp_path: Path) -> None:
    """A tint transform without a /Range may give inks past 1 (here 2^900 at tint 2): the press holds each ink to
    0..1, so the ink is 400 % and the report says the CMYK printed, 1 1 1 1, not the function's raw numbers."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    steep = pikepdf.Dictionary(FunctionType=2, Domain=[0, 100000], C0=[0, 0, 0, 0], C1=[1, 1, 1, 1], N=900)
    spot = pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name("/Steep"), pikepdf.Name.DeviceCMYK, steep])
    _card_pages(pdf, pikepdf.Dictionary(ColorSpace=pikepdf.Dictionary(CS0=spot)), b"/CS0 cs 2 scn 20 20 50 50 re f")
    pdf.save(tmp_path / "steep.pdf")
    found = check_pdf(tmp_path / "steep.pdf", find_service("dtc"))
    ink = [f.message for f in found.findings if f.rule == "ink_limit" and f.page == 1]
    assert len(ink) == 1 and ink[0].startswith("400 % total ink (the colour 2 scn, a spot colour printed as 1 1 1 1 "
                                               "CMYK)"), found.findings


def test_a_spot_colour_is_named_for_a_service_printing_cmyk(tmp_path: Path) -> None:
    """A spot colour (a Separation or DeviceN colour space: a Pantone ink) in a file for a CMYK-only service is
    named, by its name and where it is (a fill colour, a picture), as a warning: the press prints its CMYK
    alternate. Process inks written as DeviceN, and registration colour (All), are not spot colours."""
    import pikepdf
    from reportlab.lib.colors import CMYKColorSep
    from reportlab.pdfgen.canvas import Canvas

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    path = tmp_path / "spots.pdf"
    canvas = Canvas(str(path), pagesize=(198, 270), invariant=1)
    canvas.setTrimBox((9, 9, 189, 261))
    canvas.setFillColor(CMYKColorSep(0, 0.9, 0.8, 0, spotName="PANTONE 185 C", density=1))
    canvas.rect(20, 20, 50, 50, fill=1)
    canvas.showPage()
    canvas.save()
    pdf = pikepdf.open(path, allow_overwriting_input=True)
    tint = pdf.make_stream(b"{ pop pop 0 0 0 0 }", FunctionType=4, Domain=[0, 1, 0, 1], Range=[0, 1] * 4)
    gold = pikepdf.Array([pikepdf.Name.DeviceN, [pikepdf.Name.Cyan, pikepdf.Name("/Metallic Gold")],
                          pikepdf.Name.DeviceCMYK, tint])
    picture = pikepdf.Stream(pdf, b"\xff" * 2 * 4, Type=pikepdf.Name.XObject,
                             Subtype=pikepdf.Name.Image, Width=2, Height=2, ColorSpace=gold, BitsPerComponent=8)
    process = pikepdf.Array([pikepdf.Name.DeviceN, [pikepdf.Name.Cyan, pikepdf.Name.Magenta],
                             pikepdf.Name.DeviceCMYK, tint])
    registration = pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name.All, pikepdf.Name.DeviceCMYK,
                                  pdf.make_stream(b"{ pop 0 0 0 0 }", FunctionType=4, Domain=[0, 1],
                                                  Range=[0, 1] * 4)])  # one ink: a tint transform of one input
    _card_pages(pdf, pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=picture)), b"q 1 0 0 1 20 20 cm /Im0 Do Q")
    _card_pages(pdf, pikepdf.Dictionary(ColorSpace=pikepdf.Dictionary(CS0=process, CS1=registration)),
                b"/CS0 cs 1 1 scn 0 0 9 9 re f /CS1 CS 1 SCN 0 0 m 9 9 l S")
    pdf.save(path)
    found = check_pdf(path, find_service("dtc"))
    spots = [(f.page, f.verdict, f.message) for f in found.findings if "spot colour" in f.message]
    assert [(page, verdict) for page, verdict, _ in spots] == [(1, "warned"), (2, "warned"), (3, "warned")], spots
    assert spots[0][2].startswith("the spot colour PANTONE 185 C (the colour space /PANTONE 185 C)"), spots
    assert spots[1][2].startswith("the spot colour Metallic Gold (the picture /Im0)"), spots
    assert all(f.rule == "colour" for f in found.findings if "spot colour" in f.message)


def _card_pages(pdf: Any, resources: Any, drawing: bytes) -> None:
    """Two pages of a poker card with its bleed (DriveThruCards' 2.75 x 3.75 in, trimmed 9 pt in), each drawing
    `drawing` with `resources`: a card's front and back, as an export writes them."""
    import pikepdf

    for _ in range(2):
        pdf.pages.append(pikepdf.Page(pikepdf.Dictionary(
            Type=pikepdf.Name.Page, MediaBox=[0, 0, 198, 270], TrimBox=[9, 9, 189, 261], Resources=resources,
            Contents=pdf.make_stream(drawing))))


def _gs_highest_ink(pdf: Path, page: int, tmp_path: Path) -> float:
    """The highest total ink of a pixel of `page`, in percent, as Ghostscript separates it (tiff32nc: C, M, Y, K a
    pixel; spot colours through their alternate, as a CMYK press prints them) at 20 dpi."""
    from PIL import Image

    out = tmp_path / f"gs-{page}.tif"
    subprocess.run([cast(str, GS), "-q", "-o", str(out), "-sDEVICE=tiff32nc", "-r20", f"-dFirstPage={page}",
                    f"-dLastPage={page}", str(pdf)], check=True, capture_output=True)
    with Image.open(out) as picture:
        data = picture.tobytes()
    return max(sum(data[i:i + 4]) for i in range(0, len(data), 4)) / 255 * 100


@needs_gs
def test_a_spot_colours_ink_is_measured_through_its_cmyk_alternate(tmp_path: Path) -> None:
    """A spot colour (Separation, DeviceN) is printed by a CMYK press through its CMYK alternate: its ink is that
    alternate's, measured against the service's limit as a CMYK colour's. Over DriveThruCards' 240 % and refused:
    a Separation at full tint whose alternate is 400 % (a tint transform of type 2), a DeviceN picture whose
    PostScript tint transform gives 400 %, a gradient in that Separation, and (a CMYK gradient whose colour is a
    function of x and y, ShadingType 1, by a PostScript function) 400 % at one corner; not refused: the same
    Separation at half tint (200 %), and one whose alternate is 100 % K. Ghostscript's separations of each page
    agree (within a 20 dpi pixel's rounding)."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    black = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[0, 0, 0, 1], N=1)
    rich = pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name("/Rich Black"), pikepdf.Name.DeviceCMYK,
                          pdf.make_indirect(pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0],
                                                               C1=[1, 1, 1, 1], N=1))])
    plain = pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name("/Plain Black"), pikepdf.Name.DeviceCMYK, black])
    metals = pikepdf.Array([pikepdf.Name.DeviceN, [pikepdf.Name.Gold, pikepdf.Name.Silver], pikepdf.Name.DeviceCMYK,
                            pdf.make_stream(b"{ add dup dup dup }", FunctionType=4, Domain=[0, 1, 0, 1],
                                            Range=[0, 1] * 4)])
    picture = pikepdf.Stream(pdf, b"\xff\xff" * 4, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=2,
                             Height=2, ColorSpace=metals, BitsPerComponent=8)
    gradient = pikepdf.Dictionary(ShadingType=2, ColorSpace=rich, Coords=[0, 0, 198, 0], Extend=[True, True],
                                  Function=pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0], C1=[1], N=1))
    corner = pikepdf.Dictionary(ShadingType=1, ColorSpace=pikepdf.Name.DeviceCMYK, Domain=[0, 1, 0, 1],
                                Matrix=[198, 0, 0, 270, 0, 0],
                                Function=pdf.make_stream(b"{ mul dup dup dup }", FunctionType=4, Domain=[0, 1, 0, 1],
                                                         Range=[0, 1] * 4))
    resources = pikepdf.Dictionary(ColorSpace=pikepdf.Dictionary(CS0=rich, CS1=plain),
                                   XObject=pikepdf.Dictionary(Im0=picture),
                                   Shading=pikepdf.Dictionary(Sh0=gradient, Sh1=corner))
    for drawing in (b"/CS0 cs 1 scn 20 20 50 50 re f", b"/CS0 cs 0.5 scn 20 20 50 50 re f",
                    b"q 50 0 0 50 20 20 cm /Im0 Do Q", b"/Sh0 sh", b"/Sh1 sh", b"/CS1 cs 1 scn 20 20 50 50 re f"):
        _card_pages(pdf, resources, drawing)
    pdf.save(tmp_path / "spots.pdf")
    found = check_pdf(tmp_path / "spots.pdf", find_service("dtc"))
    refused = {f.page for f in found.findings if f.rule == "ink_limit" and f.verdict == "refused"}
    assert refused == {1, 2, 5, 6, 7, 8, 9, 10}, found.findings
    assert not [f for f in found.findings if f.rule == "ink_limit" and f.verdict == "warned"], found.findings
    said = {f.page: f.message for f in found.findings if f.rule == "ink_limit"}
    assert said[1].startswith("400 % total ink (the colour 1 scn, a spot colour printed as 1 1 1 1 CMYK)"), said
    assert "400 %" in said[5] and "/Im0" in said[5] and "400 %" in said[7] and "/Sh0" in said[7], said
    assert "400 %" in said[9] and "/Sh1" in said[9], said
    for page, low, high in ((1, 390, 400), (3, 195, 205), (5, 390, 400), (7, 390, 400), (9, 360, 400),
                            (11, 95, 105)):
        assert low <= _gs_highest_ink(tmp_path / "spots.pdf", page, tmp_path) <= high, page


def test_cmyk_set_through_a_colour_space_counts_its_ink(tmp_path: Path) -> None:
    """Designers' programs set CMYK through a colour space (`/CS0 cs 0 0 0 1 scn`, DeviceCMYK or an ICC profile of
    four components) more than with `k`: such a colour is measured as one set by `k`, and over the limit refused;
    the colour space in force follows q and Q as the graphics state does."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    spaces = pikepdf.Dictionary(CS0=pikepdf.Name.DeviceCMYK,
                                CS1=pikepdf.Array([pikepdf.Name.ICCBased, pdf.make_stream(b"", N=4)]),
                                CS2=pikepdf.Name.DeviceGray)
    drawings = [b"/CS0 cs 0.9 0.9 0.9 0.9 scn 0 0 50 50 re f",            # 360 % through DeviceCMYK
                b"/CS1 CS 0.5 0.5 0.5 0.9 SCN 0 0 m 50 50 l S",            # 240 % (the limit) through an ICC profile
                b"/CS0 cs q /CS2 cs 1 sc Q 0.2 0.2 0.2 0.2 sc 0 0 9 9 re f"]  # 80 %: q ... Q gives CMYK back
    for drawing in drawings:
        _card_pages(pdf, pikepdf.Dictionary(ColorSpace=spaces), drawing)
    pdf.save(tmp_path / "spaces.pdf")
    found = check_pdf(tmp_path / "spaces.pdf", find_service("dtc"))
    over = {f.page for f in found.findings if f.rule == "ink_limit" and f.verdict == "refused"}
    assert over == {1, 2}, found.findings
    assert found.ink[0] == pytest.approx(360) and found.ink[1] == "page 1, the colour 0.9 0.9 0.9 0.9 scn"
    assert not [f for f in found.findings if f.page in (3, 4, 5, 6) and f.rule == "ink_limit"], found.findings


def test_a_cmyk_picture_in_an_icc_colour_space_has_its_ink_measured(tmp_path: Path) -> None:
    """A CMYK picture whose colour space is an ICC profile of four components (as designers' programs tag them)
    has its pixels' ink measured as a DeviceCMYK picture's: 400 % here, refused."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    space = pikepdf.Array([pikepdf.Name.ICCBased, pdf.make_stream(b"", N=4)])
    picture = pikepdf.Stream(pdf, b"\xff" * 4 * 4, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=2,
                             Height=2, ColorSpace=space, BitsPerComponent=8)
    _card_pages(pdf, pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=picture)), b"q 4 0 0 4 20 20 cm /Im0 Do Q")
    pdf.save(tmp_path / "icc.pdf")
    found = check_pdf(tmp_path / "icc.pdf", find_service("dtc"))
    assert found.ink[0] == pytest.approx(400) and "/Im0" in found.ink[1], found.ink
    assert {f.page for f in found.findings if f.rule == "ink_limit" and f.verdict == "refused"} == {1, 2}


def test_a_tiling_patterns_drawing_is_checked_as_a_forms_is(tmp_path: Path) -> None:
    """A fill pattern of tiles draws what its own drawing holds: an RGB picture of 2 x 2 px in it, each tile 10 pt
    wide, is found (RGB, 14 dpi), as it would be in a form."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    picture = pikepdf.Stream(pdf, b"\xff\x00\x00" * 4, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                             Width=2, Height=2, ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8)
    tile = pikepdf.Stream(pdf, b"q 10 0 0 10 0 0 cm /Im0 Do Q", Type=pikepdf.Name.Pattern, PatternType=1,
                          PaintType=1, TilingType=1, BBox=[0, 0, 10, 10], XStep=10, YStep=10,
                          Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=picture)))
    _card_pages(pdf, pikepdf.Dictionary(Pattern=pikepdf.Dictionary(P0=tile)), b"/Pattern cs /P0 scn 0 0 198 270 re f")
    pdf.save(tmp_path / "tiles.pdf")
    found = check_pdf(tmp_path / "tiles.pdf", find_service("dtc"))
    on_page = {(f.rule, f.message) for f in found.findings if f.page == 1}
    assert ("colour", "the picture /Im0 is RGB") in on_page, found.findings
    assert any(rule == "min_dpi" and "14 dpi" in message for rule, message in on_page), found.findings


def test_a_tiling_pattern_named_in_a_form_is_placed_in_the_forms_space(tmp_path: Path) -> None:
    """A tiling pattern's matrix places it in the default space of the drawing that names it: in a form, the form's
    space as the form is painted (PDF 1.7, 8.7.3.1). A tile picture of 20 x 20 px drawn 10 pt wide in the tile is
    144 dpi where the pattern is named on a page (refused by DriveThruCards' 300 dpi), and 1440 dpi where it is
    named in a form painted at a tenth of the size (the form's matrix 0.2, the page's cm 0.5): not refused."""
    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    picture = pikepdf.Stream(pdf, b"\x00\x00\x00\x80" * 400, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                             Width=20, Height=20, ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8)
    tile = pikepdf.Stream(pdf, b"q 10 0 0 10 0 0 cm /Im0 Do Q", Type=pikepdf.Name.Pattern, PatternType=1,
                          PaintType=1, TilingType=1, BBox=[0, 0, 10, 10], XStep=10, YStep=10,
                          Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=picture)))
    patterns = pikepdf.Dictionary(Pattern=pikepdf.Dictionary(P0=tile))
    fill = b"/Pattern cs /P0 scn 0 0 1000 1000 re f"
    form = pikepdf.Stream(pdf, fill, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 1000, 1000],
                          Matrix=[0.2, 0, 0, 0.2, 0, 0], Resources=patterns)
    _card_pages(pdf, pikepdf.Dictionary(XObject=pikepdf.Dictionary(Fm0=form)), b"q 0.5 0 0 0.5 9 9 cm /Fm0 Do Q")
    _card_pages(pdf, patterns, fill)
    pdf.save(tmp_path / "tiles.pdf")
    found = check_pdf(tmp_path / "tiles.pdf", find_service("dtc"))
    coarse = {(f.page, f.verdict) for f in found.findings if f.rule == "min_dpi"}
    assert coarse == {(3, "refused"), (4, "refused")}, found.findings
    assert "144 dpi" in next(f.message for f in found.findings if f.rule == "min_dpi")


def test_check_print_of_several_files_checks_every_readable_one(broken: Path, tmp_path: Path) -> None:
    """`check-print *.pdf`: a file that cannot be read does not hide the others, as with `donjon score`: each readable
    file gets its report, each unreadable one its error (on stderr, and as {"file", "error"} with --json), and the
    exit code is the highest (2)."""
    junk = tmp_path / "junk.pdf"
    junk.write_text("not a pdf", encoding="ascii")
    files = [str(junk), str(broken / "rgb.pdf"), str(tmp_path / "missing.pdf"), str(broken / "ink.pdf")]
    done = donjon("check-print", *files, "--service", "dtc", "--json")
    assert done.returncode == 2, done.stderr
    reports = _report(done)
    assert [r["file"] for r in reports] == files
    assert [r.get("verdict") for r in reports] == [None, "refused", None, "refused"]
    assert reports[0]["error"] == f"{junk}: is not a PDF (it does not start with %PDF-)"
    assert reports[2]["error"] == f"{tmp_path / 'missing.pdf'}: no such file"
    assert done.stderr.splitlines() == [f"error: {reports[0]['error']}", f"error: {reports[2]['error']}"]
    text = donjon("check-print", *files, "--service", "dtc")
    assert text.returncode == 2 and text.stdout.count("DriveThruCards would refuse it") == 2, text.stdout


def _one_page_pdf(media: str, content: str) -> str:
    """A PDF of one page with a sound cross-reference table, whose page box and drawing are `media` and `content`
    as written: a damaged page in an otherwise readable file, as a byte gone wrong in transit leaves it."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               f"<< /Type /Page /Parent 2 0 R /MediaBox {media} /TrimBox [9 9 189 261] /Contents 4 0 R >>",
               f"<< /Length {len(content)} >>\nstream\n{content}\nendstream"]
    text, offsets = "%PDF-1.4\n", []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(text))
        text += f"{number} 0 obj\n{body}\nendobj\n"
    table = len(text)
    text += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n" + "".join(f"{o:010d} 00000 n \n" for o in offsets)
    return text + f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{table}\n%%EOF\n"


@pytest.mark.parametrize(("media", "content"), [
    ("[0 0 198 270]", "1 0 0 1 cm"),            # a transformation of four numbers instead of six
    ("null", "0 0 0 1 k"),                      # a page box that is no box
    ("[0 0 198]", "0 0 0 1 k"),                 # a page box of three numbers
    ("[0 0 198 270]", "0 0 m 1 1 l S 2 2 )x"),  # a drawing that cannot be parsed
], ids=["transform", "null-box", "short-box", "drawing"])
def test_check_print_refuses_a_damaged_pdf_in_one_line(tmp_path: Path, media: str, content: str) -> None:
    """A PDF damaged inside (its pages found, a page's box or drawing broken) is a file that cannot be read, exit 2,
    named in one line of donjon's own: never an internal error (exit 4), and no library's repair notes."""
    damaged = tmp_path / "damaged.pdf"
    damaged.write_text(_one_page_pdf(media, content), encoding="ascii")
    done = donjon("check-print", str(damaged), "--service", "dtc")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"error: {damaged}: is a damaged PDF") and done.stderr.count("\n") == 1, done.stderr
    sound = tmp_path / "sound.pdf"
    sound.write_text(_one_page_pdf("[0 0 198 270]", "0 0 0 1 k 20 20 50 50 re f"), encoding="ascii")
    assert donjon("check-print", str(sound), "--service", "dtc").returncode == 1  # read, and refused (not PDF/X)


def test_the_preflight_reads_a_drawing_shared_by_many_pages_once(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck's card or back is one form shown on many pages (a back on every second page of a deck): its drawing,
    hundreds of KB when the text is outlines, is parsed once, not once per page; the findings stay those of every
    page (an ink over the limit found in the form is reported on each page showing it)."""
    from reportlab.pdfgen.canvas import Canvas

    from generator.prepress import drawing
    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = tmp_path / "shared.pdf"
    canvas = Canvas(str(pdf), pagesize=(198, 270), invariant=1)
    canvas.beginForm("back")
    canvas.setFillColorCMYK(1, 1, 1, 1)  # 400 % ink: a finding on every page that shows the form
    canvas.rect(20, 20, 50, 50, fill=1)
    canvas.endForm()
    for _ in range(10):
        canvas.setTrimBox((9, 9, 189, 261))
        canvas.doForm("back")
        canvas.showPage()
    canvas.save()
    parsed: list[bytes] = []
    scan = drawing.operations

    def counted(data: bytes) -> Any:
        parsed.append(data)
        return scan(data)

    monkeypatch.setattr(drawing, "operations", counted)
    result = check_pdf(pdf, find_service("dtc"))
    forms = [d for d in parsed if b" re" in d]  # the form's drawing: the pages' only place it (Do)
    assert len(forms) == 1, f"the shared form was parsed {len(forms)} times for 10 pages"
    assert {f.page for f in result.findings if f.rule == "ink_limit"} == set(range(1, 11))


def test_the_preflight_steps_over_outlined_text_without_parsing_each_path_operator(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card whose text is outlines is a form of hundreds of KB of path operators (m, l, c, h, f), none of which
    the checks read: they are stepped over, never parsed one Python object at a time by pypdf's content parser
    (which made a 120-card deck's preflight 16 s); what comes after them is still found (an ink over the limit,
    an RGB colour, a picture placed inside the form)."""
    import pypdf.generic
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service
    from PIL import Image

    pdf = tmp_path / "outlined.pdf"
    canvas = Canvas(str(pdf), pagesize=(198, 270), invariant=1)
    canvas.beginForm("card")
    path = canvas.beginPath()
    for i in range(5000):  # a glyph's outline: curves and lines, as outlined text is written
        path.moveTo(10 + i % 170, 10 + i % 250)
        path.curveTo(11, 12, 13.5, 14, 15, 16)
        path.lineTo(20, 20)
        path.close()
    canvas.setFillColorCMYK(0, 0, 0, 1)
    canvas.drawPath(path, fill=1, stroke=0)
    canvas.setFillColorCMYK(1, 1, 1, 1)  # 400 %, after the paths
    canvas.rect(20, 20, 50, 50, fill=1)
    canvas.setFillColorRGB(1, 0, 0)
    canvas.rect(30, 30, 50, 50, fill=1)
    canvas.drawImage(ImageReader(Image.new("RGB", (10, 10), "red")), 50, 50, 72, 72)  # 10 dpi, RGB
    canvas.endForm()
    canvas.setTrimBox((9, 9, 189, 261))
    canvas.doForm("card")
    canvas.showPage()
    canvas.save()
    parsed = []
    parse = pypdf.generic.ContentStream._parse_content_stream

    def counted(self: Any, stream: Any) -> None:
        parsed.append(len(stream.getvalue()))
        parse(self, stream)

    monkeypatch.setattr(pypdf.generic.ContentStream, "_parse_content_stream", counted)
    result = check_pdf(pdf, find_service("dtc"))
    assert parsed == [], f"pypdf parsed drawings of {parsed} bytes operator by operator"
    assert {f.rule for f in result.findings} >= {"ink_limit", "colour", "min_dpi"}, result.findings
    assert round(result.ink[0]) == 400


@pytest.mark.parametrize("drawing", [
    b"1 0 0 1 0 0 cm 0.2 0.3 0.4 0.5 k 0 0 m 1 1 l 2 2 3 3 4 4 c h f /Im0 Do q .5 -2 +3. 4 5 6 cm Q",
    b"BT /F1 12 Tf (a (nested) k) Tj [(x\\) 0 0 0 1 k) -120 (y)] TJ ET 0.1 0.1 0.1 0.1 K",
    b"% 1 1 1 1 k in a comment\n/CS#200 cs 0.9 0.9 0.9 0.9 scn /P#31 scn 0.5 /P1 SCN /GS1 gs /Sh0 sh",
    b"/Span << /ActualText (k) /MCID 0 >> BDC 1 0 0 rg 0 g 1 G 0 1 0 RG EMC <00ff> Tj /DeviceCMYK CS 1 SC",
    b"[3 2] 0 d 1 w 0 J 0 j 10 M 0 0 10 10 re W n /Fm#C3#A9 Do 1 0 0 1 0 0 cm",
    b"0 0 m 1 1 l S /CS0 cs 0 0 5 5 re f* (f S b) Tj % f S B\n1 Tr 0 0 m 2 2 l b [(a) 5 (b)] TJ 2 2 m 3 3 l h s Q",
    b"BT /F1 9 Tf 0 0 Td (x) ' ET 0 0 m 1 1 l n 0 0 1 1 re W n BX 0 0 1 1 re F EX 1 0 0 1 0 0 cm",
], ids=["paths", "strings", "names", "dictionary", "dash", "paints", "clips"])
def test_the_drawing_scanner_finds_what_pypdfs_parser_finds(drawing: bytes) -> None:
    """The operators the checks read, with their operands, are those pypdf's content parser finds: in strings
    (nested, escaped), comments, dictionaries and arrays no operator is seen; names' #xx escapes undone. A path
    painted among operators stepped over is said as `f` (filled) and/or `S` (stroked) where pypdf finds a painting
    operator (f, F, f*, B, b and their stars fill; S, s, B, b stroke), never for a letter in a string or a comment;
    strings are compared by their place, the scanner keeping a string's bytes as written (no check reads them)."""
    import pypdf.generic

    from generator.prepress import drawing as scanner

    fills, strokes = {"f", "F", "f*", "B", "B*", "b", "b*"}, {"S", "s", "B", "B*", "b", "b*"}

    def plain(operands: list[Any]) -> list[Any]:
        """Operands with arrays unbracketed and each string a mark of its place."""
        flat: list[Any] = []
        for value in operands:
            flat.extend(value if isinstance(value, pypdf.generic.ArrayObject) else [value])
        return ["<string>" if isinstance(v, (str, bytes)) and not isinstance(v, pypdf.generic.NameObject) else v
                for v in flat]

    def painted(operations: list[tuple[list[Any], str]]) -> list[tuple[list[Any], str]]:
        """Each run of paintings between two operators read said once: `f` if one fills, `S` if one strokes."""
        out: list[tuple[list[Any], str]] = []
        run: set[str] = set()
        for operands, op in operations + [([], "(end)")]:
            if op in fills | strokes:
                run |= {"f"} if op in fills else set()
                run |= {"S"} if op in strokes else set()
                continue
            out += [([], word) for word in sorted(run)]
            run = set()
            if op != "(end)":
                out.append((plain(operands), op))
        return out

    stream = pypdf.generic.DecodedStreamObject()
    stream.set_data(drawing)
    expected = painted([(operands, op.decode()) for operands, op in
                        pypdf.generic.ContentStream(stream, None).operations
                        if op.decode() in scanner.WANTED | fills | strokes])
    found = painted(scanner.operations(drawing))
    assert found == expected
    assert [[type(v) for v in operands] for operands, _ in found] == [[type(v) for v in operands]
                                                                       for operands, _ in expected]
    placed = [(plain(operands), op.decode()) for operands, op in pypdf.generic.ContentStream(stream, None).operations
              if op.decode() in scanner.PLACED]  # the walk following the registration colour: every painting
    assert [(plain(operands), op) for operands, op in scanner.operations(drawing, scanner.PLACED)] == placed


def test_check_print_refuses_what_is_no_pdf_file_without_waiting_or_reading_it_all(tmp_path: Path) -> None:
    """A missing file, a folder, a FIFO no one writes to and an endless device are each refused at once, exit 2, in
    one line saying what they are; a text file is not a PDF; an encrypted PDF is named as encrypted."""
    from pypdf import PdfWriter

    text = tmp_path / "notes.pdf"
    text.write_text("hello\n", encoding="ascii")
    fifo = tmp_path / "fifo.pdf"
    os.mkfifo(fifo)
    encrypted = tmp_path / "encrypted.pdf"
    writer = PdfWriter()
    writer.add_blank_page(198, 270)
    writer.encrypt("reader", "owner", algorithm="AES-256")
    with encrypted.open("wb") as handle:
        writer.write(handle)
    for path, says in ((tmp_path / "missing.pdf", "no such file"), (tmp_path, "is a folder"),
                       (fifo, "is not a regular file"), (Path("/dev/zero"), "is not a regular file"),
                       (text, "is not a PDF"), (encrypted, "is encrypted")):
        done = donjon("check-print", str(path), "--service", "dtc")
        assert done.returncode == 2 and done.stderr == f"error: {path}: {says}" + done.stderr.split(says, 1)[1]
        assert done.stderr.count("\n") == 1, done.stderr


def _crosses(png: Path, dpi: float) -> list[tuple[float, float]]:
    """Centres (mm) of the calibration crosses in a rendering: each is where a full-length dark row and column
    of 3 mm cross; found as the dark pixel runs of exactly a cross's arm length. The runs are found with numpy
    (a page at 600 dpi is 35 million pixels: seconds, where a Python loop over them took half a minute)."""
    import numpy as np
    from PIL import Image

    with Image.open(png) as image:
        dark = np.asarray(image.convert("L")) < 128
    height = dark.shape[0]
    arm = 3 / 25.4 * dpi
    # each row's runs of dark pixels: where a row, with a light pixel added at each end, turns dark and turns light
    edges = np.diff(np.pad(dark, ((0, 0), (1, 1))).astype(np.int8), axis=1)
    rows, starts = np.nonzero(edges == 1)
    ends = np.nonzero(edges == -1)[1]  # in the same order: row by row, left to right
    centres = []
    for y, x0, x1 in zip(rows.tolist(), starts.tolist(), ends.tolist(), strict=True):
        if abs(x1 - x0 - arm) > 2:
            continue
        cx = (x0 + x1 - 1) / 2
        column = int(dark[max(0, int(y - arm)):min(height, int(y + arm)), int(round(cx))].sum())
        if abs(column - arm) <= 3:
            centres.append((cx / dpi * 25.4, y / dpi * 25.4))
    # a line a few pixels thick gives several rows: merge those within half a millimetre
    merged: list[list[float]] = []
    for cx, cy in sorted(centres, key=lambda c: (round(c[1]), c[0])):
        for m in merged:
            if abs(m[0] / m[2] - cx) < 0.5 and abs(m[1] / m[2] - cy) < 0.5:
                m[0] += cx
                m[1] += cy
                m[2] += 1
                break
        else:
            merged.append([cx, cy, 1])
    return [(m[0] / m[2], m[1] / m[2]) for m in merged]


@pytest.mark.parametrize(("paper", "orientation", "duplex"), [
    ("a4", "portrait", "long"), ("letter", "portrait", "short"), ("legal", "portrait", "long"),
    ("a3", "landscape", "long"), ("tabloid", "portrait", "short")])
def test_the_calibration_sheet_is_printable_on_the_papers_it_is_built_for(paper: str, orientation: str,
                                                                          duplex: str) -> None:
    """Every line and word of both sides lies inside the band printers leave blank (5 mm from each edge): a ruler
    cut by the paper's edge measures nothing."""
    from generator.render.calibration import sheet
    from generator.render.imposition import EDGE, PrintOptions
    from generator.render.model import Line, TextRun

    for page in sheet(PrintOptions(paper=paper, orientation=orientation, duplex=duplex)):
        for item in page.items:
            if isinstance(item, Line):
                box = (min(item.x1, item.x2), min(item.y1, item.y2), max(item.x1, item.x2), max(item.y1, item.y2))
            else:
                assert isinstance(item, TextRun)
                box = (item.x, item.y - item.size, item.x + item.width, item.y)
            assert EDGE <= box[0] and box[2] <= page.width - EDGE and EDGE <= box[1] and box[3] <= page.height - EDGE, \
                (paper, orientation, item)


@pytest.mark.parametrize(("args", "says"), [
    (["--paper", "a5"], "--paper: the calibration sheet does not fit a5 portrait (148 x 210 mm)"),
    (["--paper", "100x150mm"], "--paper: the calibration sheet does not fit 100x150mm portrait (100 x 150 mm)"),
    (["--orientation", "landscape"], "--paper: the calibration sheet does not fit a4 landscape (297 x 210 mm)"),
])
def test_a_calibration_sheet_too_big_for_the_paper_is_refused(tmp_path: Path, args: list[str], says: str) -> None:
    """A paper on which the rulers or crosses would be cut is refused, exit 2, saying the paper the sheet needs
    (and, in landscape, that portrait would do), rather than a sheet whose rulers run off the page."""
    done = donjon("build", "calibration", *args, "--out", str(tmp_path / "out"))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith(f"error: {says}: it needs ") and done.stderr.count("\n") == 1, done.stderr
    assert ("--orientation portrait" in done.stderr) == ("landscape" in args)
    assert not (tmp_path / "out" / "calibration").exists()


def test_a_calibration_sheet_a_printers_scale_pushes_off_the_paper_is_refused(tmp_path: Path) -> None:
    """The sheet is checked as it prints, its printer's scale applied (`--printer`): scaled by 1.1 about the page's
    centre, its rulers (drawn from the top left corner) reach the edge of any paper, which is refused saying to build
    it without --printer; a printer's usual scale (1.004 x 0.998) on Letter fits."""
    env = {"DONJON_PRINTERS": str(tmp_path / "printers.json")}
    assert donjon("printer", "add", "large", "--scale", "1.1,1.1", env=env).returncode == 0
    assert donjon("printer", "add", "usual", "--scale", "1.004,0.998", env=env).returncode == 0
    for paper in ("letter", "a3"):
        done = donjon("build", "calibration", "--printer", "large", "--paper", paper, "--out", str(tmp_path / "o"),
                      env=env)
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr.startswith("error: --printer: the calibration sheet, scaled by the printer's 1.1 x 1.1, "
                                      "would reach the edge of any paper") and "without --printer" in done.stderr
    assert not (tmp_path / "o" / "calibration").exists()
    done = donjon("build", "calibration", "--printer", "usual", "--paper", "letter", "--out", str(tmp_path / "o"),
                  env=env)
    assert done.returncode == 0, done.stderr


def test_calibration_marks_measure_to_a_tenth_of_a_millimetre(tmp_path: Path) -> None:
    from generator.render.calibration import COLUMNS, ROWS, centres, offsets
    from generator.render.imposition import PrintOptions
    from generator.units import PT_PER_MM

    assert donjon("build", "calibration", "--out", str(tmp_path)).returncode == 0
    pdf = tmp_path / "calibration" / "calibration-a4.pdf"
    dpi = 600
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(tmp_path / "cal")], check=True)
    page_w, page_h = PrintOptions().page_size
    expected = [(x / PT_PER_MM, y / PT_PER_MM) for x, y in centres(page_w, page_h)]
    front = _crosses(next(tmp_path.glob("cal-1.png")), dpi)
    assert len(front) == COLUMNS * ROWS
    for (ex, ey), (fx, fy) in zip(sorted(expected), sorted(front)):
        assert abs(ex - fx) <= 0.1 and abs(ey - fy) <= 0.1
    back = _crosses(next(tmp_path.glob("cal-2.png")), dpi)
    steps = offsets()
    # long-edge duplex: the back mirrors left to right; each cross moved by its label's offset (y up on the back)
    for index, (x, y) in enumerate(expected):
        dx, dy = steps[index % COLUMNS], steps[index // COLUMNS]
        want = (page_w / PT_PER_MM - x + dx, y - dy)
        assert min(abs(bx - want[0]) + abs(by - want[1]) for bx, by in back) <= 0.15, (dx, dy)


def _placements(pdf: Path, page: int) -> list[tuple[float, float]]:
    """Where a sheet places its cards (the translations of its `1 0 0 1 x y cm`), then its scale (the one `cm`
    that scales)."""
    import pikepdf

    with pikepdf.open(pdf) as doc:
        found = []
        scale = (1.0, 1.0)
        for instruction in pikepdf.parse_content_stream(doc.pages[page]):
            operator, operands = instruction.operator, getattr(instruction, "operands", [])
            if str(operator) != "cm":
                continue
            a, d, e, f = (float(operands[i]) for i in (0, 3, 4, 5))
            if (a, d) != (1.0, 1.0) and a > 0 and d > 0:
                scale = (a, d)
            elif (a, d) == (1.0, 1.0) and e != 0.0:  # (0, H): the frame of the page's own marks and line
                found.append((e, f))
        return [*found, scale]


def test_a_saved_printer_moves_the_backs_and_scales_the_sheet(tmp_path: Path) -> None:
    env = {"DONJON_PRINTERS": str(tmp_path / "printers.json")}
    assert donjon("printer", "add", "laser", "--back-offset", "1.5,-0.5", "--scale", "1.004,0.998",
                  env=env).returncode == 0
    plain, measured = tmp_path / "plain", tmp_path / "measured"
    assert donjon("build", "guildhall/vp-tokens", "--format", "pdf", "--out", str(plain), env=env).returncode == 0
    assert donjon("build", "guildhall/vp-tokens", "--format", "pdf", "--out", str(measured), "--printer", "laser",
                  env=env).returncode == 0
    before = _placements(plain / "guildhall" / "vp-tokens.pdf", 1)
    after = _placements(measured / "guildhall" / "vp-tokens.pdf", 1)
    assert after[-1] == pytest.approx((1.004, 0.998))
    mm = 72 / 25.4
    for (x0, y0), (x1, y1) in zip(before[:-1], after[:-1]):
        # backs: x right by 1.5 mm and y up by -0.5 mm as seen on the back (y up in PDF too)
        assert x1 - x0 == pytest.approx(1.5 * mm, abs=0.002) and y1 - y0 == pytest.approx(-0.5 * mm, abs=0.002)
    unknown = donjon("build", "guildhall/vp-tokens", "--printer", "nope", "--out", str(plain), env=env)
    assert unknown.returncode == 2 and "laser" in unknown.stderr


def test_a_printers_scale_is_taken_as_the_rulers_give_it(tmp_path: Path) -> None:
    """docs/printing.md gives the scale as `--scale 150/measured,200/measured`; written so
    (`150/149.4,200/200.4`), `printer add` refused it as "not X,Y". A fraction is taken, saved as its value; a
    fraction by zero or a broken one is refused as before (exit 2, the file untouched), with an example of each
    form."""
    env = {"DONJON_PRINTERS": str(tmp_path / "printers.json")}
    done = donjon("printer", "add", "inkjet", "--scale", "150/149.4,200/200.4", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    saved = json.loads((tmp_path / "printers.json").read_text(encoding="utf-8"))
    assert saved["inkjet"]["scale"] == pytest.approx([150 / 149.4, 200 / 200.4])
    before = (tmp_path / "printers.json").read_bytes()
    for bad in ("150/0,1", "150/149/1,1", "150/,1"):
        refused = donjon("printer", "add", "inkjet", "--scale", bad, env=env)
        assert refused.returncode == 2 and refused.stderr.startswith(f"error: --scale: {bad!r} is not X,Y"), bad
        assert "150/149.4,200/200.4" in refused.stderr and "Traceback" not in refused.stderr
    assert (tmp_path / "printers.json").read_bytes() == before
    far = donjon("printer", "add", "inkjet", "--scale", "150/120,1", env=env)
    assert far.returncode == 2 and "1.25 is out of range" in far.stderr


@pytest.mark.parametrize("saved", [
    '{"laser": {"back_offset": [0, 0], "scale": [1000000000.0, -1]}}',  # a factor no printer needs
    '{"laser": {"back_offset": [250, 0], "scale": [1, 1]}}',             # a quarter of a metre
    '{"laser": {"back_offset": [0, 0], "scale": [NaN, 1]}}',             # JSON as Python writes a NaN
])
def test_a_saved_printer_out_of_range_is_refused_by_name(tmp_path: Path, saved: str) -> None:
    """A printers file edited by hand (its place is documented) is held to the ranges `printer add` keeps: a value
    out of them is refused naming the file and the printer, exit 2, nothing built, never applied to every page."""
    printers = tmp_path / "printers.json"
    printers.write_text(saved, encoding="utf-8")
    out = tmp_path / "out"
    done = donjon("build", "guedelon/events", "--printer", "laser", "--out", str(out),
                  env={"DONJON_PRINTERS": str(printers)})
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith(f"error: {printers}: printer 'laser': ") and "out of range" in done.stderr
    assert not out.exists()


def test_a_saved_printer_moves_and_scales_the_references_and_score_sheets_too(tmp_path: Path) -> None:
    """A build with `--printer` draws every page of a game's reference and score sheets at the printer's scale about
    the page's centre, every second page of the reference (the back of a sheet printed on both sides) moved by the
    back offset, and their links and form fields with them: each annotation's rectangle is where the page's
    transform puts the plain build's."""
    import pikepdf

    env = {"DONJON_PRINTERS": str(tmp_path / "printers.json")}
    assert donjon("printer", "add", "laser", "--back-offset", "1.5,-0.5", "--scale", "1.004,0.998",
                  env=env).returncode == 0
    plain, measured = tmp_path / "plain", tmp_path / "measured"
    for out, more in ((plain, ()), (measured, ("--printer", "laser"))):
        done = donjon("build", "once-upon-a-castle", "--format", "pdf", "--out", str(out), *more, env=env)
        assert done.returncode == 0, done.stderr
    mm = 72 / 25.4
    documents = ["references/once-upon-a-castle-reference.pdf",
                 "score-sheets/once-upon-a-castle/castle-sheet-great-architect-a4-fillable.pdf"]
    for name in documents:
        with pikepdf.open(plain / name) as before, pikepdf.open(measured / name) as after:
            assert len(after.pages) == len(before.pages)
            annotations = 0
            for index, (old, new) in enumerate(zip(before.pages, after.pages)):
                w, h = float(new.mediabox[2]), float(new.mediabox[3])
                # the back of a sheet: x right by 1.5 mm, y up by -0.5 mm as seen on it (y up in PDF too)
                dx, dy = (1.5 * mm, -0.5 * mm) if index % 2 else (0.0, 0.0)
                e, f = w * (1 - 1.004) / 2 + dx, h * (1 - 0.998) / 2 + dy
                moves = [[float(v) for v in i.operands] for i in pikepdf.parse_content_stream(new)
                         if str(i.operator) == "cm"]
                # the first after reportlab's own `1 0 0 1 0 0 cm`
                assert moves[1] == pytest.approx([1.004, 0, 0, 0.998, e, f], abs=0.002)
                for a, b in zip(old.get("/Annots", []), new.get("/Annots", []), strict=True):
                    x0, y0, x1, y1 = (float(v) for v in a.Rect)
                    moved = [1.004 * x0 + e, 0.998 * y0 + f, 1.004 * x1 + e, 0.998 * y1 + f]
                    assert [float(v) for v in b.Rect] == pytest.approx(moved, abs=0.002)
                    annotations += 1
            assert annotations > 10, name  # the reference's links, the sheet's fields


_DECORATED = """background: "#202020"
boxes:
  band: {kind: rect, x: 0, y: 0, width: 100%, height: 15mm, fill: "#1d3557", decoration: true}
  panel: {kind: rect, x: 5mm, y: 30mm, width: 100% - 10mm, height: 15mm, fill: "#8b0000"}
  title: {kind: text, x: 5mm, y: 4mm, width: 40mm, height: 8mm, font: open-sans, size: 10pt, colour: "#ffffff", text: Title}
  label: {kind: text, x: 7mm, y: 33mm, width: 40mm, height: 8mm, font: open-sans, size: 10pt, colour: "#ffffff", text: Label}
  note: {kind: text, x: 5mm, y: 60mm, width: 40mm, height: 8mm, font: open-sans, size: 10pt, colour: "#ffffff", text: Note}
"""


def _card_svg(tmp: Path, layout: str, ink: str) -> str:
    """The SVG of a one-card deck drawn with `layout`."""
    deck = tmp / f"deck-{ink}-{len(layout)}"
    deck.mkdir()
    (deck / "deck.yaml").write_text("id: d\nname: D\nlayout: layout.yaml\ncards: cards.csv\n", encoding="utf-8")
    (deck / "cards.csv").write_text("Name\nAbc\n", encoding="utf-8")
    (deck / "layout.yaml").write_text(layout, encoding="utf-8")
    done = donjon("build", "--content", str(deck), "--format", "svg", "--ink", ink, "--out", str(deck / "out"))
    assert done.returncode == 0, done.stderr
    return (deck / "out" / "decks" / "d" / "svg" / "001-abc.svg").read_text(encoding="utf-8")


def _fills(svg: str) -> dict[str, int]:
    """How often each fill colour appears in an SVG (glyphs are filled paths: a text's colour counts once)."""
    from collections import Counter

    return dict(Counter(re.findall(r'fill="(#[0-9a-f]{6})"', svg)))


def test_ink_light_lightens_the_boxes_a_layout_calls_decoration_and_keeps_the_rest(tmp_path: Path) -> None:
    """The band is decoration: tinted, its white title in dark ink. The panel is not: kept, its white label kept on
    it. The white note lay on the background, which ink-light drops: dark ink. A layout marking nothing has every
    box made light (the panel tinted, its label dark); outside ink-light the mark changes nothing."""
    light = _fills(_card_svg(tmp_path, _DECORATED, "light"))
    assert light == {"#dde1e6": 1, "#8b0000": 1, "#ffffff": 1, "#1d1a16": 2}, light
    unmarked = _DECORATED.replace(", decoration: true", "")
    assert _fills(_card_svg(tmp_path, unmarked, "light")) == {"#dde1e6": 1, "#eed9d9": 1, "#1d1a16": 3}
    assert _card_svg(tmp_path, unmarked, "normal") == _card_svg(tmp_path, _DECORATED + "\n", "normal")


@needs_gs
def test_ink_light_halves_the_ink_and_keeps_every_word(tmp_path: Path) -> None:
    coverage = {}
    for ink in ("normal", "light"):
        out = tmp_path / ink
        assert donjon("build", "--content", str(DECKS), "--format", "pdf", "--ink", ink, "--out",
                      str(out)).returncode == 0
        total = 0.0
        for pdf in sorted((out / "decks").glob("*.pdf")):
            lines = subprocess.run([GS or "gs", "-q", "-o", "-", "-sDEVICE=ink_cov", str(pdf)], capture_output=True,
                                   text=True, check=True).stdout.splitlines()
            total += sum(sum(float(v) for v in line.split()[:4]) for line in lines if line.strip())
        coverage[ink] = total
    assert coverage["light"] <= 0.5 * coverage["normal"], coverage
    for pdf in sorted((tmp_path / "normal" / "decks").glob("*.pdf")):
        words = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        light = subprocess.run(["pdftotext", str(tmp_path / "light" / "decks" / pdf.name), "-"], capture_output=True,
                               text=True, check=True).stdout
        assert words.split() == light.split(), pdf.name


def test_pdfx_1a_draws_see_through_boxes_as_pictures_of_what_they_show(tmp_path: Path) -> None:
    """A box at half opacity and a masked picture, inside a shaped piece's clipping group, under text: in
    DriveThruCards' PDF/X-1a they become pictures of the area they cover, blended with what lies under them, and
    the text over them stays text. The page looks as the RGB file with real transparency does."""
    import pikepdf
    from PIL import Image, ImageChops, ImageStat

    from generator.backends.pdf import write_pdf
    from generator.backends.pdf_flatten import flatten
    from generator.prepress.services import find_service
    from generator.render import fonts
    from generator.render.model import Drawing, Group, ImageUse, Page, Paint, Placed, Rect, TextRun

    mask = tmp_path / "mask.png"
    Image.radial_gradient("L").resize((40, 40)).save(mask)  # white at the edge, black in the middle
    art = tmp_path / "art.png"
    Image.new("RGB", (40, 40), "#e0c020").save(art)
    word = "Over"
    text = TextRun(20, 60, word, "open-sans", 14, "#000000", fonts.width("open-sans", word) * 14)
    clip = (("M", -9.0, -9.0), ("L", 109.0, -9.0), ("L", 109.0, 109.0), ("L", -9.0, 109.0), ("Z",))
    drawing = Drawing(100, 100, (Group((
        Rect(-9, -9, 118, 118, Paint("#1c3f8f")),
        Group((Rect(10, 10, 50, 50, Paint("#ff0000")),), opacity=0.5),
        Group((ImageUse(str(art), 50, 50, 40, 40),), mask=ImageUse(str(mask), 50, 50, 40, 40)),
        text), clip=clip),), bleed=9)
    flat, pictures = flatten(drawing, 300)
    group = flat.items[0]
    assert isinstance(group, Group) and group.clip == clip and len(pictures) == 2  # the clip kept, two pictures
    assert [type(i).__name__ for i in group.items] == ["Rect", "ImageUse", "ImageUse", "TextRun"]
    page = Page(118, 118, (Placed(drawing, 9, 9),))
    write_pdf([page], tmp_path / "x1a.pdf", title="t", ink=find_service("dtc").press())
    write_pdf([page], tmp_path / "rgb.pdf", title="t")
    with pikepdf.open(tmp_path / "x1a.pdf") as doc:
        assert _transparency(doc) == []
    with pikepdf.open(tmp_path / "rgb.pdf") as doc:
        assert len(_transparency(doc)) == 3  # the check sees it: an opacity (stroke and fill) and a soft mask
    said = subprocess.run(["pdftotext", str(tmp_path / "x1a.pdf"), "-"], capture_output=True, text=True, check=True)
    assert said.stdout.split() == [word]  # still text, in its font
    shown = []
    for name in ("x1a", "rgb"):
        subprocess.run(["pdftoppm", "-r", "72", "-png", "-singlefile", str(tmp_path / f"{name}.pdf"),
                        str(tmp_path / name)], check=True)
        with Image.open(tmp_path / f"{name}.png") as image:
            shown.append(image.convert("RGB"))
    # the blend of red at half opacity over the blue, and the masked art, as the RGB file shows them (through the
    # press's CMYK: the same colours, not the same numbers)
    for spot in ((25, 25), (59 + 9, 59 + 9), (82 + 9, 82 + 9)):
        x1a, rgb = (cast(tuple[int, int, int], image.getpixel(spot)) for image in shown)
        assert max(abs(a - b) for a, b in zip(x1a, rgb)) < 40, (spot, x1a, rgb)
    assert max(ImageStat.Stat(ImageChops.difference(*shown)).mean) < 12


def _pdf_function(program: bytes, inputs: int, outputs: int) -> Any:
    """A PostScript calculator function (FunctionType 4) as pypdf reads one."""
    from pypdf.generic import ArrayObject, FloatObject, NameObject, NumberObject, StreamObject

    function = StreamObject()
    function.set_data(program)
    function[NameObject("/FunctionType")] = NumberObject(4)
    function[NameObject("/Domain")] = ArrayObject([FloatObject(-10), FloatObject(10)] * inputs)
    function[NameObject("/Range")] = ArrayObject([FloatObject(-1000), FloatObject(1000)] * outputs)
    return function


#: PostScript calculator programs of two inputs, each with how many numbers it leaves: every operator of the
#: language (PDF 1.7, Table 42) is in one; the last three are errors in PostScript (stack underflow, division by
#: zero, a real where an integer is asked). The fourth's sums have operands whose power has no value (0 ** -0.75,
#: 10 ** 400), which the calculator once computed for every operator, and so refused.
CALCULATOR_PROGRAMS = [
    (b"{ 2 copy gt { exch } if pop }", 1),
    (b"{ 2 copy lt { exch } if pop dup mul }", 1),
    (b"{ add 10 mul cvi 3 idiv 7 mod -17 5 mod exch 1 exch bitshift -8 -2 bitshift }", 3),
    (b"{ 1 index 1 index atan exch 0.5 exp 3 1 roll 2 div }", 3),
    (b"{ neg 0 exch sub 10 400 add 3 -2 mul }", 4),
    (b"{ 0.5 gt exch 0.5 le and { 1 } { 0 } ifelse true false or not { 2 } { 3 } ifelse 6 5 xor 12 10 and }", 4),
    (b"{ neg abs sqrt exch ln round exch truncate ceiling exch floor 7.5 cvi 2 3 eq 1 2 ne or { 9 } if }", 4),
    (b"{ 100 mul sin exch 360 mul cos 4 cvr 1 2 3 3 -1 roll 2 index log 5 4 1 roll sub 2 1 roll }", 7),
    (b"{ 3 -1 roll }", 0),
    (b"{ 1 0 div }", 0),
    (b"{ copy }", 0),
]


@needs_gs
@pytest.mark.parametrize(("program", "outputs"), CALCULATOR_PROGRAMS)
def test_a_postscript_function_gives_what_ghostscript_computes(program: bytes, outputs: int) -> None:
    """The preflight's PostScript calculator gives, for each program, the numbers Ghostscript (a PostScript
    interpreter) leaves on its stack, to single precision (Ghostscript's reals); a program Ghostscript stops on is
    not measured."""
    from generator.prepress import functions

    x, y = 0.3, 0.75
    done = subprocess.run([cast(str, GS), "-q", "-dNODISPLAY", "-dBATCH", "-dNOPAUSE", "-c",
                           f"{x} {y} {program.decode()} exec count array astore {{==}} forall"],
                          capture_output=True, text=True, timeout=60)
    if not outputs:
        assert "Error" in done.stdout + done.stderr, done.stdout
        with pytest.raises(functions.Unmeasured):
            functions.evaluate(_pdf_function(program, 2, 1), [x, y])
        return
    expected = [float(v) for v in done.stdout.split()]
    assert len(expected) == outputs, done.stdout + done.stderr
    found = functions.evaluate(_pdf_function(program, 2, outputs), [x, y])
    assert found == pytest.approx(expected, rel=2e-6, abs=2e-6), (found, expected)


@pytest.mark.parametrize("program", [
    b"{ " + b"true { " * 20000 + b"1 2 3 4" + b" } if" * 20000 + b" }",  # nested beyond Python's recursion limit
    b"{ " + b"1 " * 40000 + b"}",  # more numbers than the stack holds
    b"{ " + b"dup add " * 5000 + b"}",  # a number doubled past a float's range
    b"{ " + b"1 pop " * 40000 + b"}",  # longer than the longest program read
    b"{ 1 2 3 4 } { }",  # two programs
    b"{ 1 2 3 4 loop }",  # an operator PostScript has and the calculator has not
    b"{ (text) }",
])
def test_a_hostile_postscript_function_is_refused_quickly(program: bytes) -> None:
    """A PostScript calculator function a hostile or broken file holds is not measured (functions.Unmeasured,
    said in the report), in well under a second, never an internal error nor a hang."""
    import time

    from generator.prepress import functions

    # CPU time (the wall clock stretches under a shared machine's load); a hang or a runaway program takes far more
    started = time.process_time()
    with pytest.raises(functions.Unmeasured):
        functions.evaluate(_pdf_function(program, 1, 4), [0.5])
    assert time.process_time() - started < 3.0


def test_a_function_at_many_inputs_at_once_is_bounded_and_the_same_as_one_by_one() -> None:
    """functions.evaluate_many (a spot picture's colours all at once) refuses, before evaluating any of it, a function
    whose cost over its inputs passes MAX_WORK (a long PostScript program over a million colours: minutes of
    Python's math), in well under a second. One within it is evaluated ROWS_AT_ONCE inputs at a time, with what
    evaluating input by input gives, branches and clamps included."""
    import time

    import numpy as np

    from generator.prepress import functions

    long = _pdf_function(b"{ " + b"dup sin exch pop " * 3000 + b"dup dup dup }", 1, 4)
    started = time.process_time()
    with pytest.raises(functions.Unmeasured):
        functions.evaluate_many(long, np.linspace(0, 1, 1 << 20)[:, None])
    assert time.process_time() - started < 3.0
    short = _pdf_function(b"{ dup 0.5 gt { 0.9 mul } { 1.1 mul } ifelse dup 0 lt { pop 0 } if dup dup dup 3 exp }", 1, 4)
    inputs = np.linspace(-10, 10, 3 * functions.ROWS_AT_ONCE + 5)[:, None]
    found = functions.evaluate_many(short, inputs)
    assert found.shape == (len(inputs), 4)
    assert found[::97].tolist() == [functions.evaluate(short, [v]) for v in inputs[::97, 0].tolist()]


def test_a_mesh_gradient_of_too_many_vertices_is_not_measured_and_quickly() -> None:
    """A mesh gradient whose data holds more vertices than the preflight reads (16 MB of 6-bit vertices: some 22
    million) is not measured (functions.Unmeasured, warned in the report), in about a second at most, not read
    vertex by vertex to its end."""
    import time

    from pypdf.generic import ArrayObject, FloatObject, NameObject, NumberObject, StreamObject

    from generator.prepress import functions, preflight

    mesh = StreamObject()
    mesh.set_data(b"\xff" * (16 * 1024 * 1024))
    for key, value in (("/ShadingType", 4), ("/BitsPerCoordinate", 1), ("/BitsPerComponent", 1), ("/BitsPerFlag", 2)):
        mesh[NameObject(key)] = NumberObject(value)
    mesh[NameObject("/Decode")] = ArrayObject([FloatObject(0), FloatObject(1)] * 6)
    # CPU time, not the wall clock: beside other processes on a shared machine the wall clock took 7.3 s; read vertex
    # by vertex, 22 million vertices take minutes of CPU, so ten seconds tells the two apart under any load
    started = time.process_time()
    with pytest.raises(functions.Unmeasured):
        preflight._mesh_ink(mesh, preflight._same)
    assert time.process_time() - started < 10.0


def test_the_help_names_every_service_by_every_name_it_is_taken_by() -> None:
    """`donjon export --help` (its text and its --service option), `check-print --help` (for the services that take
    a PDF) and the README name each print service with every alias `--service` takes (`printninja (pn)`): PrintNinja's
    `pn` and MB PRINT's `mb` were taken but said nowhere."""
    from typer.testing import CliRunner

    from generator.cli import app
    from generator.prepress.services import all_services

    runner = CliRunner()
    export = " ".join(runner.invoke(app, ["export", "--help"], terminal_width=200).output.split())
    check = " ".join(runner.invoke(app, ["check-print", "--help"], terminal_width=200).output.split())
    option = export[export.index("--service NAME"):export.index("--decks")]
    readme = " ".join((content_dir().parent / "README.md").read_text(encoding="utf-8").split())
    for service in all_services():
        said = f"{service.id} ({', '.join(service.aliases)}" if service.aliases else service.id
        assert said in export and said in option, (said, export)
        if service.delivery == "pdf":
            assert said in check, (said, check)
        written = f"`{service.id}` ({', '.join(f'`{a}`' for a in service.aliases)})" if service.aliases else service.id
        assert written in readme, written


def test_decks_named_where_a_command_goes_are_refused_saying_where_they_go(tmp_path: Path) -> None:
    """`donjon export --service tgc guildhall`, as `donjon build guildhall` names its decks: click said only "No such
    command 'guildhall'". The refusal (exit 2, nothing written) says the decks go with --decks, or after a command."""
    done = donjon("export", "--service", "tgc", "guildhall", "--out", str(tmp_path))
    assert done.returncode == 2 and not any(tmp_path.iterdir()), done.stdout + done.stderr
    assert "--decks guildhall" in done.stderr and "export tts guildhall" in done.stderr, done.stderr
    # a command's own name still runs it, and a word after one is its target
    done = donjon("export", "tts", "guildhall/vp-tokens", "--out", str(tmp_path))
    assert done.returncode == 0 and (tmp_path / "tts" / "guildhall" / "vp-tokens" / "back.png").is_file(), done.stderr


def test_every_font_subset_of_a_pdf_has_a_tag_of_its_own(tmp_path: Path) -> None:
    """PDF 32000-1 §9.6.4: a subset font's name starts with a tag of six capital letters, and different subsets of one
    file have different tags. reportlab tagged each font's subsets from AAAAAA on, so the four fonts of a reference
    were all AAAAAA+ (AAAAAA+Cardo, AAAAAA+OpenSans...). The tags are the same on a second build (byte-identical)."""
    import pypdf

    written = []
    for run in ("a", "b"):
        done = donjon("reference", "guildhall", "--out", str(tmp_path / run))
        assert done.returncode == 0, done.stderr
        written.append(tmp_path / run / "references" / "guildhall-reference.pdf")
    names = set()
    for page in pypdf.PdfReader(written[0]).pages:
        resources = cast(Any, page["/Resources"]).get_object()
        fonts = cast(Any, resources.get("/Font", {})).get_object()
        names |= {str(font.get_object()["/BaseFont"]) for font in fonts.values()}
    tags = [name[1:].split("+", 1)[0] for name in sorted(names)]
    assert len(names) >= 4 and all(re.fullmatch(r"[A-Z]{6}", tag) for tag in tags), names
    assert len(set(tags)) == len(tags), sorted(names)
    assert written[0].read_bytes() == written[1].read_bytes()


def test_a_picture_shown_on_many_pages_is_decoded_once_and_said_on_each(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck's back is one picture shown on half its pages: the preflight decoded and measured it again on each
    (a 504-page deck: 23 s, 28 of 39 s profiled in Pillow's conversions of its pictures; now 3.9 s). Measured once
    a file, its ink is still said on every page it is shown on, and the /Decode of a picture (Photoshop's [1 0]:
    inverted inks) still maps its samples: 0 0 0 0 stored reads as 400 %."""
    import pikepdf

    from generator.prepress import preflight
    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    over = _picture(pdf, bytes([255, 255, 0, 0]) * 3 + bytes([255, 255, 255, 0]), 2, 2, pikepdf.Name.DeviceCMYK)
    inverted = _picture(pdf, bytes([0, 0, 0, 0, 255, 255, 255, 255]), 2, 1, pikepdf.Name.DeviceCMYK,
                        Decode=[1, 0] * 4)
    fine = _picture(pdf, bytes([0, 0, 0, 255]) * 4, 2, 2, pikepdf.Name.DeviceCMYK)
    resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=over, Im1=inverted, Im2=fine))
    for name in (b"/Im0", b"/Im2", b"/Im0", b"/Im1", b"/Im0"):
        _one_page(pdf, resources, b"q 180 0 0 252 9 9 cm %s Do Q" % name)
    path = tmp_path / "shared.pdf"
    pdf.save(path)
    decoded: list[int] = []
    measure = preflight._picture_data

    def counted(image: Any, inks: int) -> bytes:
        decoded.append(int(image["/Width"]))
        return measure(image, inks)

    monkeypatch.setattr(preflight, "_picture_data", counted)
    found = check_pdf(path, find_service("dtc"))
    assert len(decoded) == 3, decoded  # three pictures, each once
    ink = _ink_pages(found)
    assert sorted(ink) == [1, 3, 4, 5], found.findings
    assert all(ink[page].startswith("300 % total ink") for page in (1, 3, 5)), ink
    assert ink[4].startswith("400 % total ink"), ink
    assert found.ink[0] == pytest.approx(400.0)


def test_a_pictures_highest_ink_is_its_darkest_pixels_inks_added_as_its_decode_reads_them() -> None:
    """Four CMYK pixels: their inks added, the highest of them, read through the picture's /Decode (Photoshop's
    JPEGs write [1 0]: every ink inverted)."""
    from generator.prepress.preflight import _highest_picture_ink

    class Picture(dict[str, Any]):
        indirect_reference = None

        def get_data(self) -> bytes:
            return bytes([255, 255, 0, 0, 10, 20, 30, 40, 0, 0, 0, 0, 255, 0, 255, 200])

    expected = {(0, 1): (255 + 255 + 200) / 255 * 100,  # the last pixel: 278 %
                (1, 0): 4 * 255 / 255 * 100}  # the third, all inks full once inverted: 400 %
    for decode, highest in expected.items():
        image = Picture({"/Width": 2, "/Height": 2, "/ColorSpace": "/DeviceCMYK", "/Decode": list(decode) * 4})
        assert _highest_picture_ink(image)[0] == pytest.approx(highest)


def test_the_pictures_of_a_long_deck_are_not_all_held_at_once(tmp_path: Path) -> None:
    """pypdf keeps each stream's decoded data for the reader's life: the preflight of a 504-page deck held every
    picture at once (830 MB at its peak). Twenty pictures of 4 MB each decoded (1000 x 1000 CMYK, compressed to
    a few kB) are now measured one at a time: the peak stays far below their 80 MB."""
    import tracemalloc
    import zlib

    import pikepdf

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    for number in range(20):
        pixels = bytes([number, 0, 0, 0]) * (1000 * 1000)
        picture = pikepdf.Stream(pdf, zlib.compress(pixels), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                                 Width=1000, Height=1000, ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8,
                                 Filter=pikepdf.Name.FlateDecode)
        _one_page(pdf, pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=picture)), b"q 180 0 0 252 9 9 cm /Im0 Do Q")
    path = tmp_path / "pictures.pdf"
    pdf.save(path)
    tracemalloc.start()
    try:
        found = check_pdf(path, find_service("dtc"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found.ink[0] == pytest.approx(19 / 255 * 100)  # every picture measured
    assert peak < 40_000_000, f"{peak / 1e6:.0f} MB at the peak"


#: One deck of each layout of the shipped games (Old World Economy's decks have Job Faire's layouts), run with the
#: sample decks (every one) through every print service: the shipped decks at all would take a minute a service.
ONE_A_LAYOUT = ("guildhall/job-faire-professions", "guildhall/job-faire-vp", "guildhall/vp-tokens", "guedelon",
                "once-upon-a-castle")


@pytest.mark.parametrize("service", ["dtc", "tgc", "mpc", "pn", "mb"])
def test_the_decks_we_ship_keep_inside_every_services_safe_margin(service: str, tmp_path: Path) -> None:
    """A deck donjon ships or gives as a sample, exported for any service it has a preset for, is warned of nothing
    in the service's safe margin: neither by the preflight of its PDF (text, pictures, shapes drawn as paths) nor by
    the layout check of its pictures (the PNG services, and MB PRINT's text as outlines), which judge alike."""
    for number, where in enumerate([*(("--decks", deck) for deck in ONE_A_LAYOUT), ("--content", str(DECKS))]):
        done = donjon("export", "--service", service, *where, "--json", "--out", str(tmp_path / str(number)))
        assert done.returncode == 0, done.stderr
        boxes = [line for line in done.stderr.splitlines() if line.startswith("warning: ") and " box " in line]
        assert boxes == [], where
        safe = [(report["file"], finding["page"], finding["message"]) for report in _report(done)
                for finding in report["findings"] if finding["rule"] == "safe"]
        assert safe == [], where


def test_a_sheet_for_printing_at_home_is_said_to_be_one(exported: Path, tmp_path: Path) -> None:
    """`donjon build` then `donjon check-print` on its PDF: eighty lines of refusals (no bleed, not a card's size,
    RGB...) and not a word that the file is a print-and-play sheet, several cards an A4 page, where the service
    takes one card face a page. The report now says so, and names the command that writes the service's file; the
    verdict is the same, and a service's own file gets no such note."""
    assert donjon("build", "skirmish", "--content", str(DECKS), "--paper", "letter", "--format", "pdf",
                  "--out", str(tmp_path)).returncode == 0
    sheet = tmp_path / "decks" / "skirmish.pdf"
    card = exported / "print" / "drivethrucards" / "decks" / "skirmish.pdf"
    done = donjon("check-print", str(sheet), str(card), "--service", "dtc")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{sheet}: DriveThruCards would refuse it ("), lines[0]
    assert lines[1].startswith("  note: its pages are Letter sheets") and \
        "`donjon export --service drivethrucards`" in lines[1], lines[:2]
    assert sum("note:" in line for line in lines) == 1  # the service's own file: none
    reports = _report(donjon("check-print", str(sheet), str(card), "--service", "dtc", "--json"))
    assert "Letter sheets" in reports[0]["note"] and reports[1]["note"] == ""
    assert [r["verdict"] for r in reports] == ["refused", "ok"]


def test_a_gradient_shown_on_many_pages_is_evaluated_once_and_said_on_each(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A card's title gradient is one object shown on every card of its kind: the preflight evaluated its function
    at 256 steps again on each page (504 times for 96 gradients in a 504-page deck). Evaluated once a file, its ink
    is still said on each page that shows it."""
    import pikepdf

    from generator.prepress import preflight
    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    function = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[1, 1, 0, 0], C1=[1, 1, 1, 0], N=1)
    over = pdf.make_indirect(pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceCMYK,
                                                Coords=[0, 0, 198, 0], Function=function))
    resources = pikepdf.Dictionary(Shading=pikepdf.Dictionary(Sh0=over))
    for _ in range(3):
        _one_page(pdf, resources, b"/Sh0 sh")
    path = tmp_path / "gradient.pdf"
    pdf.save(path)
    evaluated: list[int] = []
    measure = preflight._function_ink

    def counted(shading: Any, kind: int, cmyk: Any) -> float:
        evaluated.append(kind)
        return measure(shading, kind, cmyk)

    monkeypatch.setattr(preflight, "_function_ink", counted)
    found = check_pdf(path, find_service("dtc"))
    assert evaluated == [2]
    ink = _ink_pages(found)
    assert sorted(ink) == [1, 2, 3] and all(m.startswith("300 % total ink") for m in ink.values()), ink


def test_a_card_with_its_bleed_but_no_trimbox_is_said_so(tmp_path: Path) -> None:
    """A designer's export (Canva, a plain reportlab page) of 2.75 x 3.75 in, a poker card with DriveThruCards' 1/8
    in of bleed around it, without a TrimBox: check-print said "0.00 mm of bleed" and a cut not of whole eighths,
    measuring the page's edge as its cut. Now its no-TrimBox finding says the page is a 2.5 x 3.5 in card with the
    bleed asked around it and that a TrimBox says so; still refused (DriveThruCards' PDF/X needs the box). A page
    that is no card with its bleed (2.8 in wide) keeps the bleed finding; a metric press is told in millimetres."""
    from reportlab.pdfgen.canvas import Canvas

    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    def page(name: str, size: tuple[float, float], text_at: float | None = None) -> Path:
        target = tmp_path / f"{name}.pdf"
        canvas = Canvas(str(target), pagesize=size, invariant=1)
        canvas.setFillColorCMYK(0, 0, 0, 1)
        canvas.rect(0, 0, size[0], size[1], fill=1)
        if text_at is not None:
            canvas.drawString(text_at, 130, "EDGE")
        canvas.showPage()
        canvas.save()
        return target

    found = check_pdf(page("card", (198, 270)), find_service("dtc"))
    rules = {(f.rule, f.verdict) for f in found.findings}
    assert ("bleed", "refused") not in rules and found.refused, found.findings
    trim = [f.message for f in found.findings if f.rule == "trim"]
    assert len(trim) == 1 and "its page, 2.750 x 3.750 in, is a 2.500 x 3.500 in card with the 3.17 mm of bleed" \
        in trim[0], trim
    other = check_pdf(page("other", (201.6, 270)), find_service("dtc"))
    assert ("bleed", "refused") in {(f.rule, f.verdict) for f in other.findings}
    assert not any("card with the" in f.message for f in other.findings)
    metric = check_pdf(page("metric", (69 * 72 / 25.4, 94 * 72 / 25.4)), find_service("mbprint"))
    assert any("its page, 69.0 x 94.0 mm, is a 63.0 x 88.0 mm card" in f.message for f in metric.findings)
    # text 13 pt from the page's edge: inside the safe area of a cut at the edge (9 pt), 4 pt into the bleed of the
    # card the page is: warned, the cut being a guess
    edge = check_pdf(page("edge", (198, 270), text_at=13), find_service("printninja"))
    safe = [f for f in edge.findings if f.rule == "safe"]
    assert [(f.page, f.verdict) for f in safe] == [(1, "warned")] and "no TrimBox" in safe[0].message, edge.findings


def test_the_same_finding_on_many_pages_is_one_line_said_alike_in_every_language(tmp_path: Path) -> None:
    """A finding whose count differs from page to page (3 and 5 letters outside the safe area, 1 and 2 RGB colours
    set) is one line for the pages it is on. The report grouped findings by their English words less a leading count,
    so a French or German report could not group them: they are now grouped by their kind (a code in no language) and
    their words less the counts, and the same findings are the same lines, with the same pages, in English, French and
    German; the JSON report's codes are the same in all three. English word for word as before."""
    import pikepdf

    from generator.i18n import language, messages_in
    from generator.prepress.preflight import check_pdf
    from generator.prepress.services import find_service

    pdf = pikepdf.new()
    type3 = _square_type3(pdf)
    resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F0=type3))
    for drawing in (b"1 0 0 rg 90 130 9 9 re f BT /F0 20 Tf 12 130 Td (aaa) Tj ET",
                    b"1 0 0 rg 90 130 9 9 re f 0 1 0 rg 90 150 9 9 re f BT /F0 20 Tf 12 130 Td (aaaaa) Tj ET"):
        _one_page(pdf, resources, drawing)
    path = tmp_path / "counts.pdf"
    pdf.save(path)
    lines, codes = {}, {}
    for code in ("en", "fr", "de"):
        with messages_in(language(code)):
            found = check_pdf(path, find_service("dtc"))
            report = found.lines()
        lines[code] = [line for line in report if "[safe]" in line or "[colour] " in line and "1-2" in line]
        codes[code] = [(f["page"], f["rule"], f["code"], f["verdict"]) for f in found.as_json()["findings"]
                       if f["page"] is not None]
    assert len(lines["en"]) == 2, lines["en"]
    assert lines["en"][0] == "  pages 1-2: REFUSED [colour] an RGB fill colour (rg): RGB in a CMYK file", lines["en"]
    assert re.fullmatch(r"  pages 1-2: REFUSED \[safe\] characters of text outside the safe area \(\d+\.\d\d mm "
                        r"inside the cut\)", lines["en"][1]), lines["en"]
    assert codes["en"] == [(1, "colour", "rgb-operator", "refused"), (2, "colour", "rgb-operator", "refused"),
                           (1, "safe", "safe-text", "refused"), (2, "safe", "safe-text", "refused")], codes["en"]
    for code in ("fr", "de"):
        assert codes[code] == codes["en"], (code, codes)
        assert len(lines[code]) == 2, lines[code]
        pages = language(code).ngettext("page {pages}", "pages {pages}", 2).format(pages="1-2")
        assert all(line.startswith(f"  {pages}") for line in lines[code]), lines[code]
        for line, message in zip(lines[code], ("{what}: RGB in a CMYK file",
                                               "characters of text outside the safe area ({safe} inside the cut)")):
            translated = language(code)._(message)
            assert translated != message, (code, message)
            assert re.search(".*".join(re.escape(part) for part in re.split(r"\{[a-z]+\}", translated)), line), line
            assert "RGB in a CMYK" not in line and "characters of text" not in line, line


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_check_print_says_its_report_and_its_refusals_of_files_in_the_language(tmp_path: Path, lang: str) -> None:
    """`check-print --lang fr|de`: the report (verdict, findings) and the refusals of a file that is no PDF, a
    damaged one and one locked by a password are said in the language, on stderr with its `error:` and in the JSON;
    the exit codes and the lines are those of the English run. check-print had no --lang (an unknown option, exit 2)."""
    from pypdf import PdfWriter

    blank, locked = tmp_path / "blank.pdf", tmp_path / "locked.pdf"
    for path, password in ((blank, None), (locked, "reader")):
        writer = PdfWriter()
        writer.add_blank_page(198, 270)  # a card page with no TrimBox, no OutputIntent: refused by DriveThruCards
        if password:
            writer.encrypt(password, "owner", algorithm="AES-256")
        with path.open("wb") as handle:
            writer.write(handle)
    text, damaged = tmp_path / "notes.pdf", tmp_path / "damaged.pdf"
    text.write_text("hello\n", encoding="ascii")
    damaged.write_bytes(b"%PDF-1.4\n garbage")
    files = [str(p) for p in (blank, locked, damaged, text)]
    english = donjon("check-print", *files, "--service", "dtc")
    said = donjon("check-print", *files, "--service", "dtc", "--lang", lang)
    assert english.returncode == said.returncode == 2, said.stderr
    assert said.stdout.count("\n") == english.stdout.count("\n") and said.stdout != english.stdout
    assert said.stdout.startswith(f"{blank}") and "refuse it" not in said.stdout and "REFUSED" not in said.stdout
    error = {"fr": "erreur\u00a0: ", "de": "Fehler: "}[lang]
    lines = said.stderr.splitlines()
    assert len(lines) == 3 and all(line.startswith(error) for line in lines), said.stderr
    for sentence in ("password needed to open it", "is a damaged PDF", "is not a PDF"):
        assert sentence in english.stderr and sentence not in said.stderr, said.stderr
    as_json = _report(donjon("check-print", str(blank), str(locked), "--service", "dtc", "--json", "--lang", lang))
    assert [f["code"] for f in as_json[0]["findings"]] == [
        f["code"] for f in _report(donjon("check-print", str(blank), "--service", "dtc", "--json"))[0]["findings"]]
    assert "password" not in as_json[1]["error"] and as_json[1]["error"].startswith(f"{locked}: ")
    assert "--lang" in donjon("check-print", "--help").stdout


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_check_print_says_why_a_pictures_ink_could_not_be_measured_in_the_language(tmp_path: Path, lang: str) -> None:
    """`check-print --lang fr|de`: a picture whose ink is not measured is warned of with the reason in the language
    (3 bits a component, more spot colours than are converted, data shorter than its size): the warning said in
    French or German ended in an English reason in brackets. Same pages and verdicts as in English."""
    import pikepdf

    pdf = pikepdf.new()
    rich = _rich_black(pdf)
    many = b"".join((4096 + i).to_bytes(2, "big") for i in range(64 * 80))
    gold = pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name.Gold, pikepdf.Name.DeviceCMYK,
                          pdf.make_stream(b"{dup dup 0.9 mul exch 0.6 mul}", FunctionType=4, Domain=[0, 1],
                                          Range=[0, 1] * 4)])
    pictures = {"/Im0": _picture(pdf, b"\xff" * 8, 8, 8, rich, 3), "/Im1": _picture(pdf, many, 64, 80, gold, 16),
                "/Im2": _picture(pdf, b"\xff" * 4, 8, 8, rich, 8)}
    path = tmp_path / "pictures.pdf"
    _picture_pages(pdf, pictures, b"q 50 0 0 50 60 60 cm", path)
    english = _report(donjon("check-print", str(path), "--service", "dtc", "--json"))[0]
    said = _report(donjon("check-print", str(path), "--service", "dtc", "--json", "--lang", lang))[0]
    unmeasured = {f["page"]: f["message"] for f in english["findings"] if f["code"] == "ink-unmeasured"}
    in_lang = {f["page"]: f["message"] for f in said["findings"] if f["code"] == "ink-unmeasured"}
    assert sorted(unmeasured) == sorted(in_lang) == [1, 2, 3], english["findings"]
    reasons = ("3 bits a component, which PDF does not allow", "5120 colours, more than the 4096 measured",
               "its data is shorter than its width and height say")
    for page, reason in zip((1, 2, 3), reasons, strict=True):
        assert unmeasured[page].endswith(f"({reason})"), unmeasured
        assert in_lang[page].endswith(")") and "(" in in_lang[page], in_lang
        why = in_lang[page].rsplit("(", 1)[1]
        english_words = {"colours,", "measured)", "data", "width", "which", "allow)"}
        assert reason not in why and not set(why.split()) & english_words, in_lang[page]
    assert "4096" in in_lang[2] or "4\u202f096" in in_lang[2] or "4.096" in in_lang[2], in_lang[2]
