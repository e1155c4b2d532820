"""Checks of generated files shared by the tests: PDF structure (qpdf's checker, through pikepdf), fonts, PNGs."""

from __future__ import annotations

import re
from pathlib import Path

#: Our fonts as a PDF names an embedded subset of them: six capitals, a plus, the face.
SUBSET = re.compile(r"/[A-Z]{6}\+(Cardo|OpenSans)(-Bold|-Italic|-Regular)?")


def structure_problems(pdf: Path) -> list[str]:
    """What qpdf's structural check (`qpdf --check`, here through pikepdf) finds wrong with `pdf`."""
    import pikepdf

    with pikepdf.open(pdf) as doc:
        # qpdf's check: `check_pdf_syntax` since pikepdf 10, `check` before
        check = getattr(doc, "check_pdf_syntax", None) or getattr(doc, "check")
        problems = [str(p) for p in check()]
        for number, page in enumerate(doc.pages, start=1):
            try:
                pikepdf.parse_content_stream(page)  # every page's content stream decodes and parses
            except pikepdf.PdfError as err:
                problems.append(f"page {number}: {err}")
        return problems


def font_problems(pdf: Path) -> list[str]:
    """Every font that is not an embedded subset of ours. The exceptions: the standard fonts a fillable form's
    fields name in their /DA (Helvetica for typed text, ZapfDingbats for a checkbox's tick), named only in the
    form's default resources."""
    import pikepdf

    problems = []
    with pikepdf.open(pdf) as doc:
        acroform = doc.Root.get("/AcroForm")
        dr = acroform.get("/DR") if acroform is not None else None
        form_fonts = {f.objgen for f in dr.Font.values()} if dr is not None and "/Font" in dr else set()
        fonts = [o for o in doc.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"]
        if not fonts:
            problems.append("has no fonts at all")
        for font in fonts:
            name = str(font.get("/BaseFont"))
            if font.objgen in form_fonts:
                if name not in ("/Helvetica", "/ZapfDingbats"):
                    problems.append(f"form font {name} is not the standard Helvetica or ZapfDingbats")
                continue
            descriptor = font.get("/FontDescriptor")
            if not SUBSET.fullmatch(name):
                problems.append(f"font {name} is not a subset of donjon's fonts")
            elif descriptor is None or "/FontFile2" not in descriptor:
                problems.append(f"font {name} is not embedded")
    return problems


def png_problems(png: Path, modes: tuple[str, ...] = ("RGB", "RGBA")) -> list[str]:
    """Whether a PNG decodes completely (a truncated or corrupt file does not), in one of `modes`."""
    from PIL import Image

    try:
        with Image.open(png) as image:
            image.verify()
        with Image.open(png) as image:
            image.load()
            if image.mode not in modes:  # RGBA: a piece cut to a shape, transparent outside it
                return [f"is {image.mode}, not {' or '.join(modes)}"]
    except Exception as err:  # noqa: BLE001 - any failure to decode is the finding
        return [f"does not decode: {err}"]
    return []
