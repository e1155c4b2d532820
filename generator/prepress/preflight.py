"""Preflight: would a print service take this PDF? Any PDF (donjon's or a designer's InDesign export), page by page.

Each finding names its page, the rule (a field of the service's profile, with where the service states it) and a
verdict: **refused** when the file breaks a rule the service states (or that its PDF/X standard holds a file to),
**warned** when it breaks one donjon chose where no page of the service could be read (`RuleSource.confirmed`
false), or when a picture is below 300 dpi but above the service's minimum. A file with a refusal is refused.

What is read, with pypdf (structure, pictures), drawing.py (the operators of content streams) and pdfium (where text
is drawn):

- page boxes: a TrimBox (the cut; else an ArtBox, which PDF/X takes as the cut too, and every measure from the cut
  uses it) and, around it, bleed of the service's size on every side; a cut of whole eighths of an inch for
  services that cut at those sizes; every page of one size; the page count (even for services taking backs and
  fronts in pairs); a box other than the MediaBox that is no rectangle of four numbers is refused and read as
  absent (_malformed_boxes);
- encryption: a file that opens without a password (an owner password alone) is read in full, its encryption
  refused where the service states PDF/X (which allows none), else warned (_encryption); one needing a password to
  open cannot be read;
- colour: no RGB colour (operators `rg`, `RG`, RGB pictures, gradients and colour spaces) in a CMYK file; spot
  colours (Separation, DeviceN) named, warned (the press prints their CMYK alternate); pictures
  written inline in a drawing, and the drawings of tiling patterns, are looked at as forms' are;
- total ink: C+M+Y+K of every CMYK colour operator, of every CMYK gradient (at its stops and in 256 steps between;
  one of x and y on a grid) and of every CMYK picture's pixels, spot colours counted through their CMYK alternate
  (functions.py evaluates their tint transforms), Indexed colours through their table, meshes by their vertices'
  colours, pictures of 1, 2, 4, 8 or 16 bits a component; a colour space's initial colour (a spot colour's full
  tint) when something is painted in it before a tint is set: the highest, and where. The registration colour
  (All, every plate) is followed to where it is painted (_marks), through forms, tiling patterns' tiles and Type 3
  glyphs: crop marks outside the cut pass; inside, it is ink, 400 % at full tint;
- pictures: resolution at the size each is drawn (pixels over inches, from the transformation in force), pictures
  in a soft mask's group and a picture's own soft mask coarser than it included (their pixels are the edge of what
  they show); a picture the export's writer enlarged for smoothing (a small picture of SVG art drawn large) judged and
  said by its own pixels (`enlarged`: 288 dpi is the copy's, not the art's);
- page sizes as printed: a page's /UserUnit (points a unit) and /Rotate (a quarter turn swaps width and height);
- fonts: every font text is shown in embedded (a font with no font file is refused; one the resources list and no
  text is shown in is not looked at); for a service asking for text as outlines, any text;
- text inside the safe area (each character's box from pdfium's text page, against the cut less the margin);
  pictures too (warned): one inside the cut coming into the margin, measured by its placed box within the clip's
  box in force (the walk of _marks); one reaching the cut is art running into the bleed, not measured; and paths
  (warned, a page's in one finding: _safe_shapes), each by its box as pdfium's page objects give it, forms
  followed: one reaching the cut, or going round the card (a frame: near all four edges), is not measured;
- PDF/X: the OutputIntent, the version in the Info dictionary (a file saying it is PDF/X: the PDF version its
  standard allows, /Trapped True or False, an OutputIntent for PDF/X), no annotation or form field on the printed area
  (the BleedBox, TrapNet excepted), a TrimBox or an ArtBox but not both, and for PDF/X-1a no transparency (soft
  masks, constant opacity below 1, blend modes) and no stream compressed with a filter it excludes (JPEG 2000,
  JBIG2, LZW).

What the export adds, knowing the deck: a piece that is not a rectangle (a deck's `shape`: a hexagonal tile, a
round token) is warned about (rule `shape`, :func:`add_shape`): no page of a service read says whether it cuts such a
shape, so the warning says the pieces may come out rectangular as donjon's own reading, with the confidence
`OWN_RULES["shape"]` gives it, never as the service's word. Cards with round corners are warned about as the
service's own pages say it cuts corners (rule `corners`, `Service.corners` and its source), "not stated" where none does.

What a PDF cannot tell: whether a picture was a PNG file before it was placed (DriveThruCards' rule is about the
files put in the layout: donjon states it as not checkable); which art is "key" (text in the safe margin is refused
where the service states the margin, a picture only warned); whether what is drawn as paths is an SVG icon or text
as outlines, or art: a path in the margin is warned, never refused.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any, Literal

from generator.catalog.common import CardSize
from generator.catalog.shapes import Shape
from generator.i18n import N_, Language, phrase, phrase_figure, phrase_n, phrase_number
from generator.prepress.services import GOOD_DPI, Service
from generator.render.shapes import seen_within
from generator.sayings import phrase_both, phrase_either, quote

Verdict = Literal["ok", "warned", "refused"]
#: How a colour's values in a colour space turn into the C, M, Y and K a press prints (see _cmyk_of).
_ToCmyk = Callable[[list[float]], list[float]]
#: A colour space's initial colour, set by `cs` or `CS` and not yet replaced by `sc`/`scn`: how it turns into CMYK,
#: its values, and the space's name, for the report.
_Initial = tuple[_ToCmyk, list[float], str]
#: A transformation (a b c d e f: PDF 1.7, 8.3.3), as `cm` and a form's /Matrix give one.
_Matrix = tuple[float, float, float, float, float, float]
#: A box (left, bottom, right, top) in the page's default space, where its TrimBox is given.
_Box = tuple[float, float, float, float]
#: How far a measured length may miss the one asked for: a tenth of a millimetre (in points).
TOLERANCE = 0.2835
#: An eighth of an inch, in points.
EIGHTH = 9.0
#: A millimetre, in points.
MILLIMETRE = 72 / 25.4
#: The largest PDF the preflight reads (into memory, as pypdf does): a deck of a few hundred cards with art of its
#: own on every card at 300 dpi is some hundreds of MB; a larger file is refused by name, never read until memory
#: runs out.
MAX_PDF_BYTES = 1024 * 1024 * 1024
#: How far into a file its `%PDF-` header may be: readers (Acrobat's, pdfium, pypdf) accept a header within the
#: first 1024 bytes, after junk a mail program or a server put before it.
HEADER_WITHIN = 1024


@dataclass
class Finding:
    page: int | None
    rule: str
    verdict: Verdict
    message: str
    #: why it is refused where the service's pages do not state the rule (GROUNDS): the file would not print as
    #: meant on any press; cited instead of "not confirmed by the service", which read as no reason at all
    ground: str = ""
    #: what kind of finding it is, in no language (`picture-dpi-low`): the JSON report's machine key, and how the
    #: report groups the same finding on many pages whatever language the message is said in
    code: str = ""
    #: the message as the report's line says it for every page it is on: without the counts that differ from page
    #: to page ("characters of text outside ..." for "12 characters ..."); empty: the message itself
    grouped: str = ""


#: Why a file is refused whatever a service's pages say: it would not print as meant on any press. A finding refused
#: on one of these cites it where the service does not state the rule itself.
GROUNDS = {
    "font": N_("a font that is not embedded is drawn by the printer's machine in a substitute of its own choosing "
               "(PDF 1.7, 9.9, Embedded Font Programs): the text prints in another font, or not at all"),
    "sizes": N_("a deck is cut to one size: pages of another size are printed at the wrong size or refused by the "
                "press's imposition"),
    "box": N_("the TrimBox (else ArtBox) is the size of the finished piece (PDF 1.7, 14.11.2): a rectangle of four "
              "numbers with a width and a height; a box that is not one leaves the cut to each reader's guess"),
}


#: A file's verdict in a report's first line.
_VERDICTS = {"ok": N_("{service} would take it"), "warned": N_("{service} would take it, with warnings"),
             "refused": N_("{service} would refuse it")}
#: A finding's kind in a report's line.
_KINDS = {"refused": N_("REFUSED"), "warned": N_("WARNED")}


@dataclass
class Preflight:
    file: str
    service: Service
    pages: int = 0
    findings: list[Finding] = field(default_factory=list)
    #: the highest total ink found, in percent, and where
    ink: tuple[float, str] = (0.0, "")
    #: the files the PDF's pictures were made from, by XObject name (`FormXob.img3`), when the PDF's writer said
    #: (donjon's export): a message names the file to replace; else the name the PDF gives it
    pictures: dict[str, str] = field(default_factory=dict)
    #: the own pixels of pictures the PDF's writer enlarged for smoothing (a small picture of SVG art drawn large,
    #: written at 288 dpi), by object number: judged by those, the figure said being the picture's, not the copy's
    enlarged: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: the highest total ink of each CMYK picture measured, by object number (None: it could not be measured, with
    #: why): a picture shown on many pages (a deck's back) is decoded once a file
    picture_inks: dict[tuple[int, int], tuple[float | None, str]] = field(default_factory=dict, repr=False,
                                                                          compare=False)
    #: the highest total ink of each gradient measured, by object number (None: not measured): a card's gradient
    #: is one object shown on many pages, evaluated once a file
    gradient_inks: dict[tuple[int, int], float | None] = field(default_factory=dict, repr=False, compare=False)
    #: a word on what the file is, beside the findings (a print-and-play sheet sent as a card deck)
    note: str = ""
    #: each page's see-through graphics states for PDF/X-1a (name: lowest opacity) and the one finding that says
    #: them all (_graphics_state): a card of faded art sets dozens, one line each drowned the report
    see_through: dict[int, tuple[dict[str, float], Finding]] = field(default_factory=dict, repr=False,
                                                                      compare=False)

    def picture(self, name: Any) -> str:
        """How a message names the picture the PDF calls `name`: its file when known, else that name."""
        found = self.pictures.get(str(name).lstrip("/"))
        if found is None:
            return str(name)
        from generator.resources import display_path

        return display_path(Path(found))

    @property
    def refused(self) -> bool:
        return any(f.verdict == "refused" for f in self.findings)

    @property
    def verdict(self) -> Verdict:
        return "refused" if self.refused else "warned" if self.findings else "ok"

    def add(self, page: int | None, rule: str, message: str, *, code: str, refuse: bool | None = None,
            ground: str = "", grouped: str = "") -> None:
        """A broken rule: refused when the service states it (or `refuse` says so), else warned. `code`: the kind of
        finding (Finding.code); `ground`: a key of GROUNDS, why it is refused where the service does not state the
        rule; `grouped`: the message said for all the pages it is on, its counts left out (Finding.grouped)."""
        stated = self.service.rule(rule).confirmed if refuse is None else refuse
        self.findings.append(Finding(page, rule, "refused" if stated else "warned", message, GROUNDS.get(ground, ""),
                                     code, grouped))

    def source(self, finding: Finding, said: bool = False) -> str:
        """Where the rule a finding breaks comes from: the service's page, else the ground it is refused on.
        `said`: in the language of the messages (the report's lines; the JSON report stays English)."""
        if finding.ground and not self.service.rule(finding.rule).confirmed:
            if said:
                return phrase("refused whatever the service's pages say: {ground}", ground=phrase(finding.ground))
            return f"refused whatever the service's pages say: {finding.ground}"
        return self.service.cite(finding.rule, said)

    def page_verdict(self, number: int) -> Verdict:
        found = [f.verdict for f in self.findings if f.page == number]
        return "refused" if "refused" in found else "warned" if found else "ok"

    def lines(self) -> list[str]:
        """The report as a person reads it: the file's verdict, each finding once with the pages it is on (the same
        finding on many pages is one line), then where each refused rule is stated. In the language of the
        messages (`export --service tgc --lang fr`), English word for word without one (`check-print`)."""
        verdict = phrase(_VERDICTS[self.verdict], service=self.service.name)
        ink = phrase("; highest total ink {percent} % ({where})", percent=format(self.ink[0], ".0f"),
                     where=self.ink[1]) if self.ink[1] else ""
        # TRANSLATORS: the first line of a print service's report on a file: its name, the verdict, its pages
        out = [phrase("{file}: {verdict} ({pages}{ink})", file=self.file, verdict=verdict,
                      pages=phrase_n("{n} page", "{n} pages", self.pages), ink=ink)]
        if self.note:
            out.append("  " + phrase("note: {note}", note=self.note))
        # the same finding on many pages is one line: grouped by its kind (a code in no language) and its message
        # without the counts that differ from page to page, the same grouping in every language
        grouped: dict[tuple[str, str, str, str], list[int | None]] = {}
        for f in self.findings:
            grouped.setdefault((f.verdict, f.rule, f.code, f.grouped or f.message), []).append(f.page)
        for (kind, rule, _code, message), pages in grouped.items():
            # TRANSLATORS: a finding of a print service's report: its pages, REFUSED or WARNED, its rule's name
            out.append("  " + phrase("{pages}: {kind} [{rule}] {message}", pages=_pages(pages),
                                     kind=phrase(_KINDS[kind]), rule=rule, message=message))
        for rule, source in dict.fromkeys((f.rule, self.source(f, said=True)) for f in self.findings
                                          if f.verdict == "refused"):
            out.append("  " + phrase("rule {rule}: {source}", rule=rule, source=source))
        flagged = {f.page for f in self.findings if f.page is not None}
        if self.findings and len(flagged) < self.pages:
            out.append("  " + phrase("{left} of {total} pages: nothing to report", left=str(self.pages - len(flagged)),
                                     total=str(self.pages)))
        return out

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "service": self.service.id, "verdict": self.verdict, "pages": self.pages,
                "highest_ink": {"percent": round(self.ink[0], 1), "where": self.ink[1]}, "note": self.note,
                "page_verdicts": [self.page_verdict(n) for n in range(1, self.pages + 1)],
                "findings": [{"page": f.page, "rule": f.rule, "code": f.code, "verdict": f.verdict,
                              "message": f.message, "source": self.source(f)} for f in self.findings]}


#: The warning on a deck whose pieces are not rectangles. No page of a service read says what it does with a shape
#: its products do not have, so the likely outcome (the pieces cut as rectangles) is said as donjon's own reading
#: (rule `shape`, services.OWN_RULES: a service's provenance cannot speak for it) with that rule's confidence, the
#: way ROUNDED["not-stated"] says what is not stated of round corners.
SHAPED = N_("the deck {deck} has pieces of the shape {shape}; whether {service} cuts that shape is not stated in the "
            "pages of it donjon read, and donjon's own reading (confidence {confidence}) is that a service cuts the "
            "product ordered, not what a file draws: the pieces may come out rectangular, with what is printed around "
            "their outline; check the product you order, cut them by hand, or choose a shaped product if the "
            "service's pages list one")
#: The warning on a deck of cards with round corners, by what the service's pages say of its cards' corners
#: (Service.corners, rule `corners`, with its source): said as the source says it, "not stated" where none does.
ROUNDED = {
    "standard": N_("the deck {deck} has cards with round corners; {service}'s pages say it rounds card corners as "
                   "standard: check that its radius is the deck's"),
    "option": N_("the deck {deck} has cards with round corners; {service}'s pages list round corners as an option: "
                 "choose it when ordering, or the corners are cut square"),
    "square": N_("the deck {deck} has cards with round corners, but {service}'s pages say it cuts square corners: "
                 "the cards come out rectangular, with what is printed around their round corners"),
    "not-stated": N_("the deck {deck} has cards with round corners; whether {service} rounds card corners is not "
                     "stated in the pages of it donjon read: check the product you order, or the corners may be cut "
                     "square, with what is printed around them"),
}
#: A deck's `shape` in words, by its kind (other than a rectangle: ROUNDED says round corners).
SHAPE_WORDS = {"circle": N_("circle"), "ellipse": N_("ellipse"),
               "hexagon": N_("hexagon"), "polygon": N_("polygon"), "star": N_("star"),
               "path": N_("outline of its own")}


def shape_warning(deck: str, shape: Shape | None, service: Service, lang: Language) -> str | None:
    """What to say, in `lang`, of the deck `deck`'s pieces for `service`: None when they are plain rectangles."""
    if shape is None or (shape.kind == "rect" and not any(shape.radii)):
        return None
    if shape.kind == "rect":  # round corners: what the service's own pages say of them (rule `corners`)
        return lang._(ROUNDED[service.corners]).format(deck=deck, service=service.name)
    kind = "hexagon" if shape.kind == "polygon" and shape.sides == 6 else shape.kind
    return lang._(SHAPED).format(deck=deck, shape=lang._(SHAPE_WORDS[kind]), service=service.name,
                                 confidence=service.rule("shape").confidence or "L")


#: The warning on a deck cut at a size none of the service's products has (rule `products`, Service.product), by
#: whether the sizes were read from the service's own pages or from designers' (with their confidence).
PRODUCT_STATED = N_("the deck {deck} is cut at {width} x {height} in for {service}, a size none of the products its "
                    "pages list has; the nearest is its {product} ({product_width} x {product_height} in): choose "
                    "a product of the deck's size, or give the deck that product's card_size")
PRODUCT_GUESSED = N_("the deck {deck} is cut at {width} x {height} in for {service}, a size none of the products "
                     "donjon knows of it has (their sizes are read from designers' pages, not from {service}'s own: "
                     "confidence {confidence}); the nearest is its {product} ({product_width} x {product_height} "
                     "in): check that {service} makes a deck of this size, or give the deck that product's card_size")


def product_warning(deck: str, size: CardSize, service: Service, lang: Language) -> str | None:
    """What to say, in `lang`, of the deck `deck` of cards of `size` when `service` cuts it at a size none of its
    products has (rule `products`); None when one has it, or when the service's file lists no product."""
    width, height = service.cut(size)
    found, nearest = service.product(width, height)
    if found is not None or nearest is None:
        return None
    rule = service.rule("products")
    from generator.units import PT_PER_INCH

    turned = (nearest.width, nearest.height) if (width <= height) == (nearest.width <= nearest.height) else (
        nearest.height, nearest.width)  # said the way up the deck is

    def inches(points: float) -> str:
        return lang.number(round(points / PT_PER_INCH, 3))

    return lang._(PRODUCT_STATED if rule.confirmed else PRODUCT_GUESSED).format(
        deck=deck, width=inches(width), height=inches(height), service=service.name,
        confidence=rule.confidence or "L", product=nearest.name, product_width=inches(turned[0]),
        product_height=inches(turned[1]))


def add_product(result: Preflight, deck: str, size: CardSize, lang: Language) -> None:
    """Warn (refuse, where the service's own pages list its products) when the deck `deck` is cut at a size none of
    the service's products has."""
    said = product_warning(deck, size, result.service, lang)
    if said is not None:
        result.add(None, "products", said, code="product-size")


def add_shape(result: Preflight, deck: str, shape: Shape | None, lang: Language) -> None:
    """Warn (rule `shape`; `corners` for round corners) when the deck `deck`'s pieces are not plain rectangles."""
    said = shape_warning(deck, shape, result.service, lang)
    if said is not None:
        rounded = shape is not None and shape.kind == "rect"
        result.add(None, "corners" if rounded else "shape", said, code="round-corners" if rounded else "shape",
                   refuse=False)


def _pages(pages: list[int | None]) -> str:
    """`file`, `page 3`, or `pages 1-4, 7` (in the language of the messages)."""
    numbers = sorted({p for p in pages if p is not None})
    if not numbers:
        # TRANSLATORS: where a finding of a print service's report is: the whole file rather than some pages
        return phrase("file")
    runs: list[str] = []
    first = last = numbers[0]
    for number in numbers[1:] + [-1]:
        if number == last + 1:
            last = number
            continue
        runs.append(f"{first}" if first == last else f"{first}-{last}")
        first = last = number
    return phrase_n("page {pages}", "pages {pages}", len(numbers), pages=", ".join(runs))


#: Each page box by the name the checks give it, and the box it is when the page gives none (PDF 1.7, 14.11.2 and
#: Table 30: the CropBox defaults to the MediaBox; the BleedBox, TrimBox and ArtBox to the CropBox). The MediaBox and
#: CropBox may be given on the page tree and inherited (7.7.3.4): pypdf copies them onto each page it lists.
_BOXES = {"mediabox": ("/MediaBox", None), "cropbox": ("/CropBox", "mediabox"), "bleedbox": ("/BleedBox", "cropbox"),
          "trimbox": ("/TrimBox", "cropbox"), "artbox": ("/ArtBox", "cropbox")}


def _box_entry(page: Any, key: str) -> tuple[float, float, float, float] | None:
    """The page's own entry `key` as a box, left, bottom, right, top whichever corners the file gives (7.9.5: "any
    two diagonally opposite corners"); None when the page has no such entry, or an entry that is no rectangle of
    four numbers (see _malformed_boxes). Read from the page's dictionary as it is: pypdf's `page.trimbox` writes the
    default it falls back on into the page, after which the page "has" a TrimBox it never had."""
    found = page.get(key)
    if found is None:
        return None
    found = found.get_object()
    if not isinstance(found, list) or len(found) != 4:
        return None
    values = [v.get_object() if hasattr(v, "get_object") else v for v in found]
    try:
        x0, y0, x1, y1 = (float(v) for v in values)
    except (TypeError, ValueError):
        return None
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
        return None
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _box(page: Any, name: str) -> tuple[float, float, float, float]:
    """A page box in the page's own units (as its drawing and its annotations are given): the page's own entry, else
    the box it defaults to. An entry that is no rectangle of four numbers is read as absent, as poppler reads it
    (its default: the CropBox for a TrimBox), and refused by the box checks (_malformed_boxes). A MediaBox that is no
    rectangle is a ValueError, the file damaged: there is no box to fall back on (poppler and pdfium draw such a
    page at US Letter, a guess of theirs), so nothing of the page's size could be measured."""
    key, default = _BOXES[name]
    found = _box_entry(page, key)
    if found is not None:
        return found
    if default is None:
        if page.get(key) is None:
            raise ValueError(f"a page has no {key[1:]}")
        raise ValueError(f"a page's {key[1:]} is not a rectangle of four numbers")
    return _box(page, default)


def _malformed_boxes(page: Any) -> list[str]:
    """The page's boxes other than its MediaBox given as something else than four numbers (`[9 9 189]`, a name), by
    their keys. Readers disagree on where such a page is cut (measured with a 3-number TrimBox, as
    tests/test_print.py's test_a_page_box_that_is_not_four_numbers_... builds it: poppler 22 reads the page as
    having no TrimBox and falls back to its CropBox; pdfium reads the three numbers and a 0 for the fourth;
    Ghostscript 10.00 asked to use the box, -dUseTrimBox, stops with an error and prints nothing): no page of a
    service read names its RIP, so the box is refused, and the rest of the page is measured as poppler reads it."""
    return [key[1:] for key, _ in list(_BOXES.values())[1:] if page.get(key) is not None
            and _box_entry(page, key) is None]


def _cut(page: Any) -> str:
    """Which box gives the page's cut: its TrimBox, else its ArtBox (PDF/X takes either as a page's finished size:
    "Each page must have a MediaBox that can include either a TrimBox or an ArtBox", Kodak's 'Technical
    characteristics of PDF/X-1a', address at PRINTED_ANNOTATIONS), else the TrimBox's default, the CropBox (and the
    page is said to have no TrimBox). Every measure from the cut (bleed, eighths of an inch, safe text, the
    registration colour) uses this one box."""
    if _box_entry(page, "/TrimBox") is None and _box_entry(page, "/ArtBox") is not None:
        return "artbox"
    return "trimbox"


def _unit(page: Any) -> float:
    """How many points one unit of the page's space is: its /UserUnit (PDF 1.7, 8.3.2.3 and Table 30: "a positive
    number giving the size of default user space units, in multiples of 1/72 inch", 1.0 where it is absent). A
    writer of large pages (a poster, a board) gives one: every box, and every size drawn, is that many points a unit.
    A value that is no positive finite number is read as 1.0, as readers do with a value they cannot use."""
    try:
        unit = float(page.get("/UserUnit", 1.0))
    except (TypeError, ValueError):
        return 1.0
    return unit if math.isfinite(unit) and unit > 0 else 1.0


def _printed(page: Any, name: str) -> tuple[float, float, float, float]:
    """A page box in points, as it is printed (its /UserUnit applied): the sizes a service's rules are given in."""
    unit = _unit(page)
    return tuple(v * unit for v in _box(page, name))  # type: ignore[return-value]


def _turned(page: Any) -> bool:
    """Whether the page is shown and printed turned a quarter (/Rotate 90 or 270, inherited from the page tree:
    PDF 1.7, 7.7.3.3 and 7.7.3.4, "the number of degrees by which the page shall be rotated clockwise when displayed
    or printed. The value shall be a multiple of 90"), so that its width is its MediaBox's height. A value that is
    no multiple of 90 is read, as viewers do, as the nearest one below it."""
    try:
        degrees = int(float(page.get("/Rotate", 0)))
    except (TypeError, ValueError):
        return False
    return (degrees // 90) % 2 == 1


def _mm(points: float) -> str:
    """A length in points as millimetres of two decimals, as the language of the messages writes numbers."""
    return f"{phrase_figure(points / 72 * 25.4, '.2f')} mm"


def check_pdf(path: Path, service: Service, display: str | None = None,
              pictures: dict[str, str] | None = None,
              enlarged: dict[int, tuple[int, int]] | None = None) -> Preflight:
    """Preflight `path` against `service`; `pictures`: the files its pictures were made from, by XObject name, for
    the messages (Preflight.pictures). A file that cannot be read (missing, not a regular file, needing a password
    to open, damaged anywhere, its pages found or not) is an InputError naming it, in one line."""
    import io

    from pypdf import PdfReader

    from generator.errors import InputError
    from generator.files import pypdf_quiet, read_bytes
    from generator.resources import display_path

    shown = display or display_path(path)
    # read once, by donjon's reader: a FIFO or a device is refused at once instead of waited on or read without end
    data = read_bytes(path, shown, max_bytes=MAX_PDF_BYTES)
    if b"%PDF-" not in data[:HEADER_WITHIN]:
        raise InputError(shown, phrase("is not a PDF (it does not start with %PDF-)"))
    result = Preflight(shown, service, pictures=dict(pictures or {}), enlarged=dict(enlarged or {}))
    with pypdf_quiet():
        try:
            try:
                reader = PdfReader(io.BytesIO(data))
            except NotImplementedError as err:
                # pypdf opens the standard (password) security handler only; a file encrypted for its recipients'
                # certificates (/Adobe.PubSec) or by a handler of its own is not damaged, and opens for no one else
                raise InputError(shown, phrase("is encrypted in a way donjon cannot open ({reason}); a file "
                                               "encrypted for its recipients' certificates opens for no one else, a "
                                               "print service included: export it again without encryption",
                                               reason=str(err))) from None
            # An owner password alone (an empty user password, as print-shop and layout exports often write one)
            # lets every reader open the file: it is read and reported in full, the encryption one finding of it.
            # A password needed to open it: nothing can be read (the press cannot either).
            if reader.is_encrypted and not reader.decrypt(""):
                raise InputError(shown, phrase("is encrypted with a password needed to open it: a print service "
                                               "cannot open it either; export it again without a password"))
            _read(reader, data, result)
            if reader.is_encrypted:
                _encryption(reader, result)
        except InputError:
            raise
        except Exception as err:  # noqa: BLE001 - pypdf and pdfium raise many kinds of error on a damaged file,
            # and the pages' objects are read lazily, by every check: none may escape as a bug of donjon's
            if os.environ.get("DONJON_DEBUG"):  # a developer's question: is it the file, or the preflight?
                raise
            reason = str(err).strip().splitlines()[0][:120] if str(err).strip() else type(err).__name__
            raise InputError(shown, phrase("is a damaged PDF that cannot be read ({reason})", reason=reason)) from None
    return result


#: Bits of an encrypted file's permissions (PDF 1.7, 7.6.3.2, Table 22): bit 3, print at all; bit 12, print at full
#: quality (without it, "to a representation from which a faithful digital copy of the PDF content could not be
#: generated": a low-resolution image).
PRINT_BIT, FULL_QUALITY_BIT = 1 << 2, 1 << 11


def _encryption(reader: Any, result: Preflight) -> None:
    """A file encrypted with an owner password alone: every reader opens it, but PDF/X allows no encryption at all
    ("Encryption prohibited" among the PDF/X-1a checks of pdfbox-preflight, github.com/Padam87/pdfbox-preflight/
    issues/1; a PDF/X-4 file is held to the same, ISO 15930-7 itself not being at hand): refused as the service's
    PDF/X rule is (DriveThruCards states PDF/X-1a: refused; MB PRINT, PDF/X chosen by donjon: warned). A service
    asking no PDF/X states nothing read of encryption: warned under donjon's own rule `encryption`
    (services.OWN_RULES). Permissions that forbid printing, or allow it only at low quality, are said: a prepress
    program that honours them cannot print the file as it is."""
    permissions = int(reader.user_access_permissions or 0)
    revision = int(reader.trailer["/Encrypt"].get_object().get("/R", 2))
    limits = phrase("; its permissions forbid printing") if not permissions & PRINT_BIT else \
        phrase("; its permissions allow printing only at low quality") \
        if revision >= 3 and not permissions & FULL_QUALITY_BIT else ""
    said = phrase("is encrypted (it opens without a password, but an owner password restricts it{limits})",
                  limits=limits)
    if result.service.pdfx:
        want = {"x1a": "PDF/X-1a", "x4": "PDF/X-4"}[result.service.pdfx]
        result.add(None, "pdfx", phrase("{encrypted}: {standard} allows no encryption; export it again without a "
                                        "password", encrypted=said, standard=want), code="encrypted")
    else:
        result.add(None, "encryption", phrase("{encrypted}: export it again without a password", encrypted=said),
                   code="encrypted", refuse=False)


def _read(reader: Any, data: bytes, result: Preflight) -> None:
    pages = list(reader.pages)
    result.pages = len(pages)
    _document(reader, result)
    sizes: set[tuple[float, float]] = set()
    parsed: dict[tuple[int, int], list[Any]] = {}
    placed: dict[tuple[int, int], list[Any]] = {}
    #: the cut of a page without a TrimBox that is a card with the service's bleed around it (_card_with_bleed), in
    #: the page's units: the safe text is measured from it, as a guess (warned)
    cuts_guessed: dict[int, _Box] = {}
    pictures: dict[int, list[tuple[_Box, str]]] = {}
    for number, page in enumerate(pages, start=1):
        # the size a page is printed at: in points (its /UserUnit), and turned as its /Rotate turns it (a card written
        # landscape and turned to portrait is the size of its portrait neighbours; one written portrait and turned
        # prints landscape among them)
        media = _printed(page, "mediabox")
        width, height = round(media[2] - media[0], 1), round(media[3] - media[1], 1)
        sizes.add((height, width) if _turned(page) else (width, height))
        guessed = _boxes(page, number, result)
        if guessed is not None:
            cuts_guessed[number] = guessed
        if result.service.pdfx:
            _annotations(page, number, result)
        pictures[number] = _content(page, number, result, parsed, placed)
    if result.service.pdfx == "x1a":
        _streams_filtered(reader, result)
    if len(sizes) > 1:
        result.add(None, "trim", phrase_n("pages of {n} size: a deck's file has every page one size",
                                          "pages of {n} sizes: a deck's file has every page one size", len(sizes)),
                   code="page-sizes", refuse=True, ground="sizes")
    elif sizes:
        result.note = _sheet_note(next(iter(sizes)), result.service)
    service = result.service
    if service.order in ("back-front", "front-back") and len(pages) % 2:
        result.add(None, "order", phrase_n("{n} page: {service} takes a back and a front for every card ({order}), "
                                           "so an even number", "{n} pages: {service} takes a back and a front for "
                                           "every card ({order}), so an even number", len(pages),
                                           service=service.name, order=service.order), code="page-count-odd")
    cuts = [(_unit(page), cuts_guessed.get(number, _box(page, _cut(page))), number in cuts_guessed)
            for number, page in enumerate(pages, start=1)]
    _safe_text(data, result, cuts)
    _safe_pictures(result, pages, cuts, pictures, parsed, placed)


def _sheet_note(size: tuple[float, float], service: Service) -> str:
    """What to say of a file whose pages are sheets of paper (A4, Letter, ...): a print-and-play file, several cards
    a page for a home printer (`donjon build`'s), where a service takes one card face a page; else nothing."""
    from generator.render.imposition import SHEET_PAPER_NAMES, SHEET_PAPERS

    for key, (width, height) in SHEET_PAPERS.items():
        if any(abs(size[0] - w) <= 1.5 and abs(size[1] - h) <= 1.5 for w, h in ((width, height), (height, width))):
            return phrase("its pages are {paper} sheets, as a file for printing at home lays cards out (`donjon "
                          "build`); {service} takes one card face a page, cut at the card's size: `donjon export "
                          "--service {id}` writes that file from a deck", paper=SHEET_PAPER_NAMES[key],
                          service=service.name, id=service.id)
    return ""


def _document(reader: Any, result: Preflight) -> None:
    """What the whole file says: its OutputIntent and PDF/X version."""
    service = result.service
    if service.colour != "cmyk":
        return
    root = reader.trailer["/Root"]
    intents = root.get("/OutputIntents")
    if not intents:
        result.add(None, "colour", phrase("no OutputIntent: the file does not say which printing condition its CMYK "
                                          "is for"), code="output-intent-missing")
    if service.pdfx:
        want = {"x1a": "PDF/X-1a", "x4": "PDF/X-4"}[service.pdfx]
        info = reader.trailer.get("/Info")
        info = info.get_object() if info is not None else {}
        version = str(info.get("/GTS_PDFXVersion", ""))
        if not version.startswith(want):
            said = phrase("is {version}, not {standard}", version=version, standard=want) if version else \
                phrase("is not PDF/X, not {standard}", standard=want)
            result.add(None, "pdfx", said, code="pdfx-version")
        else:  # it says it is: what the standard asks of the whole file, which a press's checker reads first
            _pdfx_file(reader, root, info, want, result)


#: The highest PDF version each PDF/X standard is made of (ISO 15930-4: PDF 1.4; ISO 15930-7: PDF 1.6).
PDFX_PDF_VERSION = {"PDF/X-1a": (1, 4), "PDF/X-4": (1, 6)}
#: The highest major version of an ICC profile each PDF/X standard's PDF takes: PDF 1.4 takes profiles of ICC.1:1998-09
#: (version 2), version 4 profiles came with PDF 1.5 (ISO 32000-1, Table 67, "ICC specification versions supported by
#: ICCBased colour spaces"); PDF/A-1, also PDF 1.4, asks the same ("must have a major version below 4", Oracle's
#: PDF/A output properties, docs.oracle.com/en/cloud/saas/otbi/otbi-pub-design/pdf-output-properties1.html).
PDFX_ICC_MAJOR = {"PDF/X-1a": 2, "PDF/X-4": 4}
#: What an ICC profile's 128-byte header holds where (ICC.1:2010, 7.2): its major version, its device class (`prtr`:
#: an output device, which a PDF/X OutputIntent's profile must be, pdfbox-preflight's PDF/X-1a checks,
#: github.com/Padam87/pdfbox-preflight/issues/1) and the `acsp` signature that makes it a profile at all.
ICC_MAJOR_AT, ICC_CLASS_AT, ICC_SIGNATURE_AT = 8, slice(12, 16), slice(36, 40)


def _pdfx_file(reader: Any, root: Any, info: Any, want: str, result: Preflight) -> None:
    """A file claiming PDF/X: a PDF version the standard allows (the header's, or the catalog's /Version where it is
    higher), /Trapped True or False in its Info, and an OutputIntent for PDF/X (`/S /GTS_PDFX`, not PDF/A's)."""
    found = []
    for text in (str(reader.pdf_header).removeprefix("%PDF-"), str(root.get("/Version", "")).lstrip("/")):
        major, _, minor = text.strip().partition(".")
        if major.isdigit() and minor.isdigit():
            found.append((int(major), int(minor)))
    highest = PDFX_PDF_VERSION[want]
    if found and max(found) > highest:
        version, most = ".".join(map(str, max(found))), ".".join(map(str, highest))
        result.add(None, "pdfx", phrase("is PDF {version}; {standard} is PDF {highest} at most", version=version,
                                        standard=want, highest=most), code="pdfx-pdf-version")
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        result.add(None, "pdfx", phrase("has no /Trapped True or False in its Info dictionary, which {standard} asks",
                                        standard=want), code="pdfx-trapped")
    intents = root.get("/OutputIntents") or []
    if intents and not any(str(i.get_object().get("/S")) == "/GTS_PDFX" for i in intents):
        result.add(None, "pdfx", phrase("has no OutputIntent for PDF/X (/S /GTS_PDFX), which {standard} asks",
                                        standard=want), code="pdfx-output-intent")
    for intent in (i.get_object() for i in intents):
        if str(intent.get("/S")) == "/GTS_PDFX":
            _pdfx_intent(intent, want, result)
    # what pdfbox-preflight's PDF/X-1a checks (address above) ask of every PDF/X file: "CreationDate, ModDate and
    # Title required", "Document ID must be present in PDF trailer"
    lacking = [key[1:] for key in ("/Title", "/CreationDate", "/ModDate") if not str(info.get(key, "")).strip()]
    if lacking:
        result.add(None, "pdfx", phrase("has no {keys} in its Info dictionary, which {standard} asks",
                                        keys=phrase_either(lacking), standard=want), code="pdfx-info")
    if "/ID" not in reader.trailer:
        result.add(None, "pdfx", phrase("has no file identifier (/ID in its trailer), which {standard} asks",
                                        standard=want), code="pdfx-id")


def _pdfx_intent(intent: Any, want: str, result: Preflight) -> None:
    """A PDF/X OutputIntent: named (OutputConditionIdentifier), and its embedded profile an output profile of an ICC
    version the standard's PDF takes (an ICC version 4 profile in PDF/X-1a, given as `--profile`, was written and
    passed)."""
    if not str(intent.get("/OutputConditionIdentifier", "")).strip():
        result.add(None, "pdfx", phrase("its OutputIntent has no OutputConditionIdentifier, which {standard} asks",
                                        standard=want), code="pdfx-condition")
    profile = intent.get("/DestOutputProfile")
    if profile is None:
        return
    head = bytes(profile.get_object().get_data()[:128])
    if len(head) < 128 or head[ICC_SIGNATURE_AT] != b"acsp":
        result.add(None, "pdfx", phrase("its OutputIntent's profile (DestOutputProfile) is not an ICC profile"),
                   code="pdfx-profile")
        return
    kind = head[ICC_CLASS_AT].decode("latin-1").strip()
    if kind != "prtr":
        result.add(None, "pdfx", phrase("its OutputIntent's profile is a {kind} profile, not an output profile "
                                        "({output}), which {standard} asks", kind=quote(kind), output=quote("prtr"),
                                        standard=want), code="pdfx-profile")
    major = head[ICC_MAJOR_AT]
    if major > PDFX_ICC_MAJOR[want]:
        result.add(None, "pdfx", phrase("its OutputIntent's profile is an ICC version {major} profile; {standard}'s "
                                        "PDF takes version {most} profiles at most: use a version {most} profile",
                                        major=str(major), standard=want, most=str(PDFX_ICC_MAJOR[want])),
                   code="pdfx-profile")


def _boxes(page: Any, number: int, result: Preflight) -> _Box | None:
    """The page's boxes checked; returns the cut guessed for a page without a TrimBox that is a card with the
    service's bleed around it (in the page's units), else None."""
    service = result.service
    for key in _malformed_boxes(page):
        shown = str(page["/" + key].get_object())[:60]
        result.add(number, "trim", phrase("its {box} is {shown}, not a rectangle of four numbers: readers disagree "
                                          "on where such a page is cut (some read no {box}, some a box with zeros, "
                                          "some stop on the page); measured here as if it had none", box=key,
                                          shown=shown), code="box-malformed", refuse=True, ground="box")
    media = _printed(page, "mediabox")
    cut = _cut(page)
    named = _BOXES[cut][0][1:]  # the box the cut is read from, as the file names it: TrimBox, or ArtBox without one
    trim = _printed(page, cut)
    card = None
    if page.get("/TrimBox") is None and cut != "artbox":  # (one that is no box is refused above)
        card = _card_with_bleed(media, service)
        # a page the size of a card with the service's bleed around it (a designer's export without PDF/X boxes):
        # its cut is not stated, but not unknown either: said so, rather than measured as a cut at its edge
        said = phrase("; its page, {page}, is a {card} card with the {bleed} of bleed {service} asks around it: a "
                      "TrimBox that far inside the page's edge says so (a PDF/X export writes one)",
                      page=_size(media[2] - media[0], media[3] - media[1], service),
                      card=_size(card[0], card[1], service),
                      bleed=_mm(service.bleed), service=service.name) if card else ""
        result.add(number, "trim", phrase("has no TrimBox: nothing says where the page is cut{card}", card=said),
                   code="trimbox-missing", refuse=bool(service.pdfx) or None)
    if service.pdfx and _box_entry(page, "/TrimBox") is not None and _box_entry(page, "/ArtBox") is not None:
        # PDF/X: "a MediaBox that can include either a TrimBox or an ArtBox, but not both" (Kodak's 'Technical
        # characteristics of PDF/X-1a', address at PRINTED_ANNOTATIONS): which is the cut would be the RIP's guess
        result.add(number, "pdfx", phrase("has both a TrimBox and an ArtBox; PDF/X allows one of them, the finished "
                                          "size (measured here from the TrimBox)"), code="pdfx-trim-and-art")
    if min(trim[2] - trim[0], trim[3] - trim[1]) <= TOLERANCE:
        # a cut of no width or no height: measured as it was, its "bleed" was the whole page and it passed
        result.add(number, "trim", phrase("its {box} is {width} x {height}: it cuts nothing out of the page",
                                          box=named, width=_mm(trim[2] - trim[0]), height=_mm(trim[3] - trim[1])),
                   code="trim-empty", refuse=True, ground="box")
        return None
    # What is printed of the page: its content clipped to the CropBox "when displayed or printed", and to the
    # BleedBox "when output in a production environment" (PDF 1.7, 14.11.2; each defaults to the one before), within
    # the MediaBox. A bleed drawn on the media but cut off by a CropBox or BleedBox at the trim never reaches paper.
    printed: tuple[float, float, float, float] | None = media
    clips: list[str] = []  # the boxes that cut the page short, by the names the file gives them
    for key, name in (("/CropBox", "cropbox"), ("/BleedBox", "bleedbox")):
        if _box_entry(page, key) is not None and printed is not None:
            clipped = _intersect(printed, _printed(page, name))
            if clipped != printed:
                clips.append(key[1:])
            printed = clipped
    # a cut reaching past the MediaBox is "effectively reduced to [its] intersection with the media box" (PDF 1.7,
    # 14.11.2): the cut there is the page's edge, with no bleed past it (measured so below), and said
    past = _intersect(trim, media) != trim
    edge = printed or trim  # clipped away entirely: no bleed at all
    sides = (trim[0] - edge[0], trim[1] - edge[1], edge[2] - trim[2], edge[3] - trim[3])
    if service.bleed > 0 and min(sides) < service.bleed - TOLERANCE and card is None:
        why = []
        if clips:
            why.append(phrase_n("its {boxes} cuts the page there", "its {boxes} cut the page there", len(clips),
                                boxes=phrase_both(clips)))
        if past:
            why.append(phrase("its {box} reaches past the MediaBox, the page's edge", box=named))
        where = " (" + phrase("{one}; {other}", one=why[0], other=why[1]) + ")" if len(why) == 2 else \
            f" ({why[0]})" if why else ""
        result.add(number, "bleed", phrase("has {bleed} of bleed on its narrowest side{where}; {service} asks {asked} "
                                           "on every side", bleed=_mm(max(0.0, min(sides))), where=where,
                                           service=service.name, asked=_mm(service.bleed)), code="bleed-short")
    if service.trim == "eighth-inch" and card is None:
        w, h = trim[2] - trim[0], trim[3] - trim[1]
        if any(abs(v / EIGHTH - round(v / EIGHTH)) * EIGHTH > TOLERANCE for v in (w, h)):
            result.add(number, "trim", phrase("is cut at {size}, not a size of whole eighths of an inch, as the "
                                              "service cuts its cards", size=_size(w, h, service)),
                       code="trim-not-eighths")
    if card is None:
        return None
    unit = _unit(page)
    box = _box(page, "mediabox")
    inset = service.bleed / unit
    return box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset


def _size(width: float, height: float, service: Service) -> str:
    """A size in points as the service measures its cards: in inches where it cuts eighths of one, else in mm."""
    if service.trim == "eighth-inch":
        # TRANSLATORS: a size in inches (2.750 x 3.750 in)
        return phrase("{width} x {height} in", width=phrase_figure(width / 72, ".3f"),
                      height=phrase_figure(height / 72, ".3f"))
    return f"{phrase_figure(width / MILLIMETRE, '.1f')} x {phrase_figure(height / MILLIMETRE, '.1f')} mm"


def _card_with_bleed(media: tuple[float, float, float, float], service: Service) -> tuple[float, float] | None:
    """The card a page without a TrimBox would be if it holds the service's bleed on every side: its width and
    height, in points, where that card is a size the service cuts (whole eighths of an inch, for a service cutting
    so; else whole millimetres); else None."""
    if service.bleed <= 0:
        return None
    width, height = media[2] - media[0] - 2 * service.bleed, media[3] - media[1] - 2 * service.bleed
    if min(width, height) <= 0:
        return None
    step = EIGHTH if service.trim == "eighth-inch" else MILLIMETRE  # a metric press's cards are whole millimetres
    if any(abs(v / step - round(v / step)) * step > TOLERANCE for v in (width, height)):
        return None
    return width, height


#: Annotations PDF/X lets lie on the printed area: a trapping network's (TrapNet), the one exception Kodak's
#: 'Technical characteristics of PDF/X-1a' names (workflowhelp.kodak.com/display/EVO100/Technical+characteristics+
#: of+PDF_X-1a).
PRINTED_ANNOTATIONS = frozenset({"/TrapNet"})


def _annotations(page: Any, number: int, result: Preflight) -> None:
    """PDF/X: no annotation and no form field (a Widget annotation) on the printed area: the BleedBox, or the TrimBox
    (else the ArtBox) where there is none. Kodak's 'Technical characteristics of PDF/X-1a' (address above): "Annotations
    are allowed if they are outside the BleedBox or outside the ArtBox or TrimBox if there is no BleedBox", TrapNet
    excepted; the PDF/X-1a checks of pdfbox-preflight (github.com/Padam87/pdfbox-preflight/issues/1): "Annotation and
    Acrobat form elements must be outside of TrimBox and BleedBox". Refused as the service's PDF/X rule is (a service
    stating PDF/X-1a: refused; one donjon chose PDF/X for: warned)."""
    annotations = page.get("/Annots")
    if not annotations:
        return
    name = "bleedbox" if _box_entry(page, "/BleedBox") is not None else _cut(page)
    left, bottom, right, top = _box(page, name)
    for annotation in annotations.get_object():
        annotation = annotation.get_object()
        subtype = str(annotation.get("/Subtype", "/Unknown"))
        if subtype in PRINTED_ANNOTATIONS:
            continue
        x0, y0, x1, y1 = (float(v) for v in annotation.get("/Rect", (0, 0, 0, 0))[:4])
        x0, x1, y0, y1 = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
        if x0 < right - TOLERANCE and x1 > left + TOLERANCE and y0 < top - TOLERANCE and y1 > bottom + TOLERANCE:
            what = phrase("a form field ({name})", name=annotation["/T"]) if subtype == "/Widget" and \
                "/T" in annotation else phrase("a form field") if subtype == "/Widget" else \
                phrase("a {kind} annotation", kind=subtype[1:])
            box = name[:-3].capitalize() + "Box"
            result.add(number, "pdfx", phrase("{what} on the printed area ({box}), which PDF/X does not allow",
                                              what=what, box=box), code="pdfx-annotation")


class _State:
    """What the content stream's graphics state holds that the checks need: the transformation in force; and the
    drawings of the file's shared objects, parsed once (`parsed`, by object number: a card or back a deck prints on
    many pages is one form, and parsing its drawing again for each page made the preflight of a deck whose text is
    outlines some ten times as long as writing it)."""

    def __init__(self, parsed: dict[tuple[int, int], list[Any]]) -> None:
        self.ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        #: the default space of the drawing being walked (the page's, a form's as it is painted, a tiling pattern's
        #: tile): where a pattern named in it is placed from
        self.base = self.ctm
        self.stack: list[tuple[float, ...]] = []
        #: how a colour set by `sc`/`scn` in the fill and the stroke colour space in force turns into CMYK ink
        #: (_cmyk_of: its own values in DeviceCMYK or an ICC profile of four components, a spot colour's tint
        #: transform into its CMYK alternate), or None (RGB, grey: no CMYK ink); saved and restored with q and Q
        self.four: tuple[_ToCmyk | None, _ToCmyk | None] = (None, None)
        #: the fill's and the stroke's initial colour while it is in force (_Initial): a spot colour set by `cs` and
        #: painted without `scn` is painted at full tint (PDF 1.7, 8.6.6.4: "each component shall be given an
        #: initial value of 1.0"), so its ink is measured when something is painted (_paint), not when it is set
        self.initial: tuple[_Initial | None, _Initial | None] = (None, None)
        #: the text rendering mode (Tr): whether text shown is filled (0, 2, 4, 6), stroked (1, 2, 5, 6) or neither
        self.render = 0
        self.spaces: list[tuple[tuple[_ToCmyk | None, _ToCmyk | None], tuple[_Initial | None, _Initial | None],
                                int]] = []
        #: whether the drawing walked paints in the registration colour (All): where it paints is then followed by
        #: _marks
        self.registration = False
        self.parsed = parsed
        #: each picture painted (not a stencil): the box it is placed in (the unit square through the transformation
        #: in force, in the page's default space) and its name, for _safe_pictures
        self.pictures: list[tuple[_Box, str]] = []
        #: the page's /UserUnit (points a unit of its space)
        self.unit = 1.0


def _multiply(m: tuple[float, ...], n: tuple[float, ...]) -> tuple[float, float, float, float, float, float]:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2,
            e * b2 + f * d2 + f2)


def _content(page: Any, number: int, result: Preflight, parsed: dict[tuple[int, int], list[Any]],
             placed: dict[tuple[int, int], list[Any]]) -> list[tuple[_Box, str]]:
    """Walk the page's content (and its forms) with the transformation in force; where it paints in the
    registration colour, follow where (_marks; `placed`: the drawings read for it, by object number, as `parsed`).
    The pictures painted, each with the box it is placed in (State.pictures)."""
    seen: dict[str, int] = {}
    state = _State(parsed)
    unit = _unit(page)  # the page's space is this many points a unit: a picture's size drawn, in inches, with it
    state.unit = unit
    state.ctm = state.base = (unit, 0.0, 0.0, unit, 0.0, 0.0)
    _walk(page.get_contents(), page.get("/Resources"), state, number, result, seen, 0)
    for what, count in seen.items():
        # TRANSLATORS: how many times a page sets an RGB colour (3 x an RGB fill colour (rg)) in a CMYK file
        result.add(number, "colour", phrase("{count} x {what}: RGB in a CMYK file", count=str(count), what=what),
                   code="rgb-operator", grouped=phrase("{what}: RGB in a CMYK file", what=what))
    if state.registration and result.service.colour == "cmyk":
        _marks(page, number, result, parsed, placed)
    return state.pictures


def _operations(contents: Any, placing: bool = False, most: int | None = None) -> list[tuple[list[Any], str]]:
    """The operators of a drawing the checks read, with their operands: by donjon's scanner (drawing.py), which
    steps over paths in C (`placing`: the paths' points and the text's placing read too, drawing.PLACED, at most
    `most` of them: drawing.TooMany past); a drawing it leaves to pypdf (an inline picture, bytes that are no
    token) by pypdf's parser, every operator kept."""
    from pypdf.generic import ContentStream

    from generator.prepress import drawing

    try:
        if placing:
            return drawing.operations(contents.get_data(), drawing.PLACED, most)
        return drawing.operations(contents.get_data())
    except drawing.Unreadable:
        stream = contents if isinstance(contents, ContentStream) else ContentStream(contents, None)
        return [(operands, operator.decode("latin-1") if isinstance(operator, bytes) else str(operator))
                for operands, operator in stream.operations]


def _object_key(contents: Any) -> tuple[int, int] | None:
    """A drawing's object number and generation, by which what is read of it is kept; None for a page's array of
    streams (no object of its own: joined anew each time)."""
    where = getattr(contents, "indirect_reference", None)
    return None if where is None else (int(where.idnum), int(where.generation))


def _read_once(contents: Any, parsed: dict[tuple[int, int], list[Any]]) -> list[tuple[list[Any], str]]:
    """A drawing's operators (_operations), read once a file for both walks of it (_walk, _follow share `parsed`):
    a form shown on many pages, a card's back."""
    key = _object_key(contents)
    operations = parsed.get(key) if key is not None else None
    if operations is None:
        operations = _operations(contents)
        if key is not None:
            parsed[key] = operations
    return operations


def _walk(contents: Any, resources: Any, state: _State, number: int, result: Preflight, rgb: dict[str, int],
          depth: int) -> None:
    if contents is None or depth > 12:
        return
    resources = resources.get_object() if resources is not None else {}
    operations = _read_once(contents, state.parsed)
    glyphs = _fonts(resources, number, result, _fonts_used(operations))
    cmyk = result.service.colour == "cmyk"
    state.registration |= cmyk and glyphs  # Type 3 glyphs, which this walk does not read, may paint in it
    for operands, op in operations:
        if op in PAINTS:  # (a path's painting is said by the scanner as `f` or `S`, drawing.WANTED)
            _paint(state, op in FILLS or (op in SHOWS and state.render in (0, 2, 4, 6)),
                   op in STROKES or (op in SHOWS and state.render in (1, 2, 5, 6)), number, result)
        elif op == "q":
            state.stack.append(state.ctm)
            state.spaces.append((state.four, state.initial, state.render))
        elif op == "Q" and state.stack:
            state.ctm = state.stack.pop()  # type: ignore[assignment]
            state.four, state.initial, state.render = state.spaces.pop()
        elif op == "cm":
            state.ctm = _multiply(tuple(float(v) for v in operands), state.ctm)
        elif op == "Tr" and operands and isinstance(operands[0], (int, float)):
            state.render = int(operands[0])
        elif op in ("k", "K") and len(operands) == 4:
            state.four = (_same, state.four[1]) if op == "k" else (state.four[0], _same)
            state.initial = (None, state.initial[1]) if op == "k" else (state.initial[0], None)
            _ink(result, sum(float(v) for v in operands) * 100, number,
                 _colour(" ".join(f"{float(v):g}" for v in operands), op))
        elif op in ("sc", "scn", "SC", "SCN") and operands and not str(operands[-1]).startswith("/"):
            convert = state.four[op[0].isupper()]
            state.initial = (None, state.initial[1]) if op.islower() else (state.initial[0], None)
            if convert is not None:
                values = [float(v) for v in operands]
                _set_ink(convert, values, _colour(" ".join(f"{v:g}" for v in values), op), number, result)
        elif op in ("rg", "g", "RG", "G"):
            state.four = (None, state.four[1]) if op.islower() else (state.four[0], None)
            state.initial = (None, state.initial[1]) if op.islower() else (state.initial[0], None)
            if op in ("rg", "RG") and cmyk:
                what = phrase("an RGB fill colour (rg)") if op == "rg" else phrase("an RGB stroke colour (RG)")
                rgb[what] = rgb.get(what, 0) + 1
        elif op == "gs":
            _graphics_state(resources, operands[0], number, result)
            _mask_pictures(resources, operands[0], state, number, result, depth)
        elif op == "Do":
            _xobject(resources, operands[0], state, number, result, rgb, depth)
        elif op in ("cs", "CS") and operands:
            space = _space(resources, operands[0])
            four = _cmyk_of(space)
            start = _initial_colour(space) if four is not None else None
            initial = (four, start, str(operands[0])) if four is not None and start is not None else None
            state.four = (four, state.four[1]) if op == "cs" else (state.four[0], four)
            state.initial = (initial, state.initial[1]) if op == "cs" else (state.initial[0], initial)
            if cmyk:
                state.registration |= _colour_space(resources, operands[0], number, result)
        elif op == "INLINE IMAGE":
            _image(_Inline(operands, resources), "(inline)", state, number, result)
        elif op == "sh" and operands:
            state.registration |= _shading(_named(resources, "/Shading", operands[0]), operands[0], number, result)
        elif op in ("scn", "SCN") and operands and str(operands[-1]).startswith("/"):
            state.initial = (None, state.initial[1]) if op == "scn" else (state.initial[0], None)
            _pattern(resources, operands[-1], state, number, result, rgb, depth)


#: The operators that paint (PDF 1.7, Tables 60 and 109): a path filled, stroked or both, text shown; a picture
#: (Do, an inline one) is painted by _image, a gradient's own colours by _shading.
FILLS = frozenset({"f", "F", "f*", "B", "B*", "b", "b*"})
STROKES = frozenset({"S", "s", "B", "B*", "b", "b*"})
SHOWS = frozenset({"Tj", "TJ", "'", '"'})
PAINTS = FILLS | STROKES | SHOWS


def _paint(state: _State, fill: bool, stroke: bool, number: int, result: Preflight) -> None:
    """Something painted with the fill and/or the stroke colour: an initial colour still in force (a spot colour's
    full tint, set by `cs` and never given a tint by `scn`) is measured, then forgotten (painting in it again would
    measure the same)."""
    for side, used in ((0, fill), (1, stroke)):
        initial = state.initial[side]
        if used and initial is not None:
            convert, values, name = initial
            _set_ink(convert, values, phrase("the colour {values} that {operator} {space} sets, painted without a "
                                             "tint set", values=" ".join(f"{v:g}" for v in values),
                                             operator="cs" if side == 0 else "CS", space=name), number, result)
            state.initial = (None, state.initial[1]) if side == 0 else (state.initial[0], None)


def _space(resources: Any, name: Any) -> Any:
    """The colour space `cs`, `CS` (or an inline picture) names: a device space by its name, else the resources'."""
    if str(name) in ("/DeviceCMYK", "/DeviceRGB", "/DeviceGray", "/Pattern"):
        return name
    return _named(resources, "/ColorSpace", name)


def _initial_colour(space: Any) -> list[float] | None:
    """The colour `cs` sets with a colour space (PDF 1.7, 8.6.4 and 8.6.6): DeviceCMYK's 0 0 0 1 (black); an ICC
    profile's all 0 (held to its /Range); a Separation's or DeviceN's 1.0 for each ink (full tint); an Indexed
    space's index 0. None for a space whose initial colour paints no CMYK ink."""
    if space is None:
        return None
    space = space.get_object()
    if str(space) == "/DeviceCMYK":
        return [0.0, 0.0, 0.0, 1.0]
    if not isinstance(space, list) or len(space) < 2:
        return None
    family = str(space[0])
    if family == "/ICCBased":
        profile = space[1].get_object()
        ranges = [float(v) for v in profile.get("/Range", [0, 1] * int(profile.get("/N", 0)))]
        return [min(max(0.0, ranges[i]), ranges[i + 1]) for i in range(0, len(ranges) - 1, 2)]
    if family == "/Separation":
        return [1.0]
    if family == "/DeviceN":
        return [1.0] * len(space[1].get_object())
    if family == "/Indexed":
        return [0.0]
    return None


def _colour(values: str, operator: str) -> str:
    """A colour a page's content sets, for a report: its values and the operator setting it (`0.6 0.4 0.4 1 k`)."""
    # TRANSLATORS: a colour set in a PDF page's content: its values and the PDF operator (k, scn), both as written
    return phrase("the colour {values} {operator}", values=values, operator=operator)


def _set_ink(convert: _ToCmyk, values: list[float], said: str, number: int, result: Preflight) -> None:
    """The total ink of a colour (`values`, `said` what it is, on page `number`) set by `sc`/`scn` (`SC`/`SCN`),
    or a space's initial colour, in a CMYK space (its values, as `k`'s), or in a spot colour printed through its
    CMYK alternate (its tints through the tint transform), or an index into a table of those (Indexed); a tint
    transform the preflight does not evaluate is said where the service limits ink, once a page."""
    from generator.prepress import functions

    if convert is _same:
        if len(values) == 4:
            _ink(result, sum(values) * 100, number, said)
        return
    try:
        cmyk = convert(values)
        total = _total(cmyk)
    except (functions.Unmeasured, ArithmeticError, ValueError, TypeError, KeyError, IndexError):
        message = phrase("the ink of a spot colour could not be measured (a tint transform the preflight does not "
                         "compute)")
        if result.service.ink_limit is not None and not any(f.page == number and f.message == message
                                                             for f in result.findings):
            result.add(number, "ink_limit", message, code="ink-unmeasured", refuse=False)
        return
    printed = " ".join(f"{min(1.0, max(0.0, v)):g}" for v in cmyk[:4])  # (as _total holds each ink)
    _ink(result, total * 100, number, phrase("{colour}, a spot colour printed as {cmyk} CMYK", colour=said,
                                             cmyk=printed))


def _fonts_used(operations: list[tuple[list[Any], str]]) -> set[str] | None:
    """The fonts a drawing's text is shown in: the one a `Tf` set (PDF 1.7, 9.3.1: the text state's font is set by
    Tf alone; 9.4.3: text is shown in the font in force; 8.4.1: q and Q save and restore it) where a Tj, TJ, ' or "
    shows text. A font the resources list and no text is shown in prints nothing (reportlab lists Helvetica on every
    page and sets it with no text after it; a layout program may list the fonts of a whole spread). None (every font
    the resources list) where the drawing shows text without setting a font: it shows it in the font the drawing
    that painted it set, which this drawing's resources may name."""
    used: set[str] = set()
    font: str | None = None  # the font in force: None until a Tf of this drawing sets one
    saved: list[str | None] = []  # the text state is part of the graphics state, saved by q and restored by Q
    for operands, op in operations:
        if op == "Tf" and operands:
            font = str(operands[0])
        elif op == "q":
            saved.append(font)
        elif op == "Q" and saved:
            font = saved.pop()
        elif op in SHOWS:
            if font is None:
                return None
            used.add(font)
    return used


def _fonts(resources: Any, number: int, result: Preflight, used: set[str] | None = None) -> bool:
    """Every font the resources name that text is shown in (`used`; None: every one) is embedded (a Type 3 font
    draws its own glyphs). Whether a Type 3 font's
    glyphs may paint in the registration colour (_names_registration: followed where text in it is shown, _marks),
    said here, where the fonts are read anyway, so that the walk of a page reads its fonts once."""
    fonts = resources.get("/Font")
    glyphs = False
    for name, font in (fonts.get_object().items() if fonts is not None else ()):
        font = font.get_object()
        if str(font.get("/Subtype")) == "/Type3":
            glyphs = glyphs or _names_registration(font.get("/Resources"))
            continue
        if used is not None and str(name) not in used:
            continue  # listed, never shown: nothing of it is printed
        descendant = font.get("/DescendantFonts")
        described = descendant[0].get_object() if descendant else font
        descriptor = described.get("/FontDescriptor")
        files = ("/FontFile", "/FontFile2", "/FontFile3")
        if descriptor is None or not any(k in descriptor.get_object() for k in files):
            if not any(f.page == number and f.rule == "text" and str(name) in f.message for f in result.findings):
                result.add(number, "text", phrase("the font {font} ({name}) is not embedded",
                                                  font=str(font.get("/BaseFont")), name=str(name)),
                           code="font-not-embedded", refuse=True, ground="font")
    return glyphs


def _graphics_state(resources: Any, name: Any, number: int, result: Preflight) -> None:
    if result.service.pdfx != "x1a":
        return
    state = _named(resources, "/ExtGState", name)
    if state is None:
        return
    state = state.get_object()
    opacity = [float(state.get(k, 1)) for k in ("/CA", "/ca")]
    mask = state.get("/SMask")
    blend = str(state.get("/BM", "/Normal"))
    if min(opacity) < 1 or (mask is not None and str(mask) != "/None") or blend not in ("/Normal", "/Compatible"):
        states, said = result.see_through.get(number, ({}, None))
        if str(name) in states:
            return
        states[str(name)] = min(opacity)
        if len(states) == 1:
            message = phrase("transparency (opacity {opacity}, graphics state {name}), which PDF/X-1a does not allow",
                             opacity=phrase_figure(min(opacity), "g"), name=str(name))
        else:  # one finding a page: how many states, the lowest opacity, the first names
            names = sorted(states, key=lambda n: (len(n), n))
            shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
            message = phrase_n("transparency in {n} graphics state (opacity down to {opacity}; {names}), which "
                               "PDF/X-1a does not allow", "transparency in {n} graphics states (opacity down to "
                               "{opacity}; {names}), which PDF/X-1a does not allow", len(states),
                               opacity=phrase_figure(min(states.values()), "g"), names=shown)
        result.add(number, "pdfx", message, code="pdfx-transparency")
        if said is not None:
            result.findings = [f for f in result.findings if f is not said]
        result.see_through[number] = (states, result.findings[-1])


def _colour_space(resources: Any, name: Any, number: int, result: Preflight) -> bool:
    """RGB and spot colours in the colour space `cs`/`CS` names said; whether it is the registration colour."""
    space = _named(resources, "/ColorSpace", name)
    if str(name) == "/DeviceRGB" or _is_rgb(space):
        result.add(number, "colour", phrase("the RGB colour space {name}", name=str(name)), code="rgb-space")
    return _spot(space, phrase("the colour space {name}", name=str(name)), number, result)


#: Colourants of a Separation or DeviceN colour space that are no spot colour: the four process inks (a DeviceN of
#: Cyan and Magenta is CMYK written another way), All (every plate: registration marks) and None (no ink) (PDF 1.7,
#: 8.6.6.4).
PROCESS_COLOURANTS = frozenset({"/Cyan", "/Magenta", "/Yellow", "/Black", "/All", "/None"})


def _spots(space: Any) -> list[str]:
    """The spot colours a colour space names (a Separation's colourant, a DeviceN's other than the process inks;
    through an Indexed space's or a pattern's base)."""
    space = space.get_object() if space is not None else None
    if not isinstance(space, list) or len(space) < 2:
        return []
    family = str(space[0])
    if family in ("/Indexed", "/Pattern"):
        return _spots(space[1])
    names = [space[1]] if family == "/Separation" else list(space[1].get_object()) if family == "/DeviceN" else []
    return [str(n) for n in names if str(n) not in PROCESS_COLOURANTS]


def _registration(space: Any) -> bool:
    """Whether `space` is the registration colour: a Separation of the colourant All, which paints every plate at
    once (PDF 1.7, 8.6.6.4: meant for "registration targets in the margins of separations"), as designers' programs
    draw crop and registration marks."""
    space = space.get_object() if space is not None else None
    return isinstance(space, list) and len(space) >= 2 and str(space[0]) == "/Separation" and str(space[1]) == "/All"


def _spot(space: Any, what: str, number: int, result: Preflight) -> bool:
    """Name each spot colour (Separation, DeviceN) of `space` for a CMYK-only service, once a page: warned; say
    whether `space` is the registration colour (where it is painted is then followed, _marks). Why
    not refused: PDF/X-1a allows spot colours (Kodak's 'Technical characteristics of PDF/X-1a', workflowhelp.kodak.
    com/display/EVO100/Technical+characteristics+of+PDF_X-1a: "Spot colors and CMYK are allowed"), and no page of
    the services read says what they do with one (DriveThruCards' spec-de: "files must be CMYK"; MB PRINT's cards
    page: CMYK, Coated Fogra 39; PrintNinja's colour rules could not be read): a digital press prints a spot colour
    through its CMYK alternate (Impozycjoner's 'Spot colors', impozycjoner.com/interface/spot-colors: "in digital
    printing ... the conversion takes place to the CMYK values given in the alternative definition"), which may not
    be the colour the designer chose."""
    if result.service.colour != "cmyk":
        return False
    space = space.get_object() if space is not None else None
    for spot in _spots(space):
        message = phrase("the spot colour {spot} ({what}): {service} prints CMYK, so it is printed as its CMYK "
                         "alternate, which may not match it; convert it to CMYK to see what will print",
                         spot=spot[1:], what=what, service=result.service.name)
        if not any(f.page == number and f.message == message for f in result.findings):
            result.add(number, "colour", message, code="spot-colour", refuse=False)
    return _registration(space) or (isinstance(space, list) and len(space) > 1 and str(space[0]) == "/Indexed"
                                    and _registration(space[1].get_object()))


def _shading(shading: Any, name: Any, number: int, result: Preflight) -> bool:
    """A gradient (a shading, painted by `sh` or a pattern's): in RGB, RGB in a CMYK file, as a fill colour is; in
    CMYK or in a spot colour printed through a CMYK alternate, the total ink of its colours measured, as a fill
    colour's is. Whether it is in the registration colour (_spot)."""
    if shading is None:
        return False
    shading = shading.get_object()
    space = shading.get("/ColorSpace")
    if result.service.colour == "cmyk" and _is_rgb(space):
        result.add(number, "colour", phrase("the gradient {name} is RGB", name=str(name)), code="rgb-gradient")
    registration = _spot(space, phrase("the gradient {name}", name=str(name)), number, result)
    cmyk = _cmyk_of(space)
    if cmyk is not None:
        _gradient_ink(shading, cmyk, name, number, result)
    return registration


#: How many equal steps of an axial or radial gradient's t are measured besides its ends and its stops (the bounds of
#: a stitching function, where a gradient made of stops, as designers' programs and reportlab write them, peaks:
#: measured exactly): between two stops the colour follows C0 + t^N (C1 - C0), or a sampled table, which steps of
#: 1/256 follow to within 1/256 of the change from one stop to the next.
GRADIENT_STEPS = 256
#: How many equal steps of each of x and y a gradient whose colour is a function of both (ShadingType 1) is measured
#: in, its corners included: 33 x 33 points, as many evaluations as four axial gradients (a PostScript function
#: there costs some tens of microseconds each); the highest ink between two points is not seen, so a peak narrower
#: than a 32nd of the gradient's domain may be missed (said in the module's notes, not in each report).
GRID_STEPS = 32


def _gradient_ink(shading: Any, cmyk: Callable[[list[float]], list[float]], name: Any, number: int,
                  result: Preflight) -> None:
    """The highest total ink of a gradient, its colours turned into CMYK by `cmyk`: an axial or radial one
    (ShadingType 2 or 3: one input t over its /Domain) through its function(s) at its stops and in GRADIENT_STEPS
    steps; one of x and y (ShadingType 1) on a grid of GRID_STEPS steps each way; a mesh (4 to 7) by the colours of
    its vertices (_mesh_ink). One the preflight does not evaluate (functions.Unmeasured) is not measured: warned
    where the service limits ink."""
    key = _object_key(shading)
    if key is not None and key in result.gradient_inks:
        highest = result.gradient_inks[key]
    else:
        highest = _highest_gradient_ink(shading, cmyk)
        if key is not None:
            result.gradient_inks[key] = highest
    if highest is None:
        if result.service.ink_limit is not None:
            result.add(number, "ink_limit", phrase("the ink of the gradient {name} could not be measured (a kind of "
                                                   "gradient the preflight does not compute)", name=str(name)),
                       code="ink-unmeasured", refuse=False)
        return
    _ink(result, highest * 100, number, phrase("the gradient {name}", name=name))


def _highest_gradient_ink(shading: Any, cmyk: Callable[[list[float]], list[float]]) -> float | None:
    """_gradient_ink's measure: the highest total ink (1 = 100 %), or None where it is not measured."""
    from generator.prepress import functions

    try:
        kind = int(shading.get("/ShadingType", 0))
        if kind in (4, 5, 6, 7):
            return _mesh_ink(shading, cmyk)
        if kind not in (1, 2, 3) or shading.get("/Function") is None:
            raise functions.Unmeasured
        return _function_ink(shading, kind, cmyk)
    except (functions.Unmeasured, ArithmeticError, ValueError, TypeError, KeyError, IndexError):
        return None


def _function_ink(shading: Any, kind: int, cmyk: _ToCmyk) -> float:
    """The highest total ink of a gradient given by a function: of x and y (ShadingType 1) on a grid, of t (2, 3)
    at its ends, its stops and in GRADIENT_STEPS steps."""
    from generator.prepress import functions

    function = shading["/Function"]
    if kind == 1:
        x0, x1, y0, y1 = (float(v) for v in shading.get("/Domain", (0, 1, 0, 1)))
        points = [[x0 + (x1 - x0) * i / GRID_STEPS, y0 + (y1 - y0) * j / GRID_STEPS]
                  for i in range(GRID_STEPS + 1) for j in range(GRID_STEPS + 1)]
    else:
        t0, t1 = (float(v) for v in shading.get("/Domain", (0, 1)))
        stops = [float(b) for b in function.get_object().get("/Bounds", ())] if not isinstance(
            function.get_object(), list) else []
        points = [[t] for t in sorted({t0, t1, *stops, *(t0 + (t1 - t0) * i / GRADIENT_STEPS
                                                       for i in range(GRADIENT_STEPS))})]
    return max(_total(cmyk(functions.evaluate_all(function, p))) for p in points)


#: The most bytes of a mesh gradient's data read (its vertices), and the most colours taken from it: a designer's
#: mesh has some thousands of vertices (65 536 colours: 16 384 patches, read in some tenths of a second); beyond,
#: it is said not measured.
MAX_MESH_BYTES = 16 * 1024 * 1024
MAX_MESH_COLOURS = 1 << 16


def _mesh_ink(shading: Any, cmyk: _ToCmyk) -> float:
    """The highest total ink of a mesh gradient (ShadingType 4 to 7: triangles, a lattice, Coons or tensor
    patches; PDF 1.7, 8.7.4.5.5-8): its colours are given at its vertices (corners) and interpolated between them,
    linearly or bilinearly, so a CMYK mesh's highest total ink is at a vertex. Where the colours are a parameter t
    through a function, or tints of one spot colour, what lies between two vertices is any value between theirs:
    the function (or the tint transform) is evaluated over the range the vertices span, in GRADIENT_STEPS steps.
    A mesh of several spot colours, or of more data than MAX_MESH_BYTES, is Unmeasured."""
    from generator.prepress import functions

    kind = int(shading["/ShadingType"])
    function = shading.get("/Function")
    decode = [float(v) for v in shading["/Decode"]]
    count = 1 if function is not None else (len(decode) - 4) // 2
    coordinate, component = int(shading["/BitsPerCoordinate"]), int(shading["/BitsPerComponent"])
    flag = int(shading.get("/BitsPerFlag", 8)) if kind != 5 else 0
    data = shading.get_data()
    if count < 1 or len(decode) < 4 + 2 * count or len(data) > MAX_MESH_BYTES or \
            coordinate not in (1, 2, 4, 8, 12, 16, 24, 32) or component not in (1, 2, 4, 8, 12, 16) or \
            flag not in (0, 2, 4, 8):
        raise functions.Unmeasured
    position = 0  # in bits

    def read(width: int) -> int:
        nonlocal position
        first, last = position // 8, (position + width - 1) // 8
        word = int.from_bytes(bytes(data[first:last + 1]), "big")
        value = (word >> ((last + 1) * 8 - position - width)) & ((1 << width) - 1)
        position += width
        return value

    colours: list[list[float]] = []
    top = (1 << component) - 1
    # each vertex (4, 5) or patch (6, 7): its flag, its points' coordinates, its colours; a triangle's vertex and a
    # patch start on a byte boundary (as pdf.js and Ghostscript read them), a lattice's vertices do not
    while len(colours) <= MAX_MESH_COLOURS:
        edge = read(flag) if flag and position + flag <= len(data) * 8 else 0
        points, corners = {4: (1, 1), 5: (1, 1), 6: (12, 4) if edge == 0 else (8, 2),
                           7: (16, 4) if edge == 0 else (12, 2)}[kind]
        if position + 2 * points * coordinate + corners * count * component > len(data) * 8:
            break
        position += 2 * points * coordinate
        for _ in range(corners):
            colours.append([decode[4 + 2 * i] + read(component) / top * (decode[5 + 2 * i] - decode[4 + 2 * i])
                            for i in range(count)])
        if kind != 5:
            position = -(-position // 8) * 8
    if not colours or len(colours) > MAX_MESH_COLOURS:
        raise functions.Unmeasured
    if function is None and cmyk is _same:
        return max(_total(c) for c in colours)
    if count != 1:
        raise functions.Unmeasured
    low, high = min(c[0] for c in colours), max(c[0] for c in colours)
    steps = sorted({low, high, *(low + (high - low) * i / GRADIENT_STEPS for i in range(GRADIENT_STEPS))})

    def colour(t: float) -> list[float]:
        return cmyk(functions.evaluate_all(function, [t]) if function is not None else [t])

    return max(_total(colour(t)) for t in steps)


def _total(cmyk: list[float]) -> float:
    """The total ink of a CMYK colour, each ink held to 0..1 as a press does, as a fraction (4.0 is 400 %)."""
    if len(cmyk) < 4:
        raise ValueError("not a CMYK colour")
    return sum(min(1.0, max(0.0, v)) for v in cmyk[:4])


def _no_ink(values: list[float]) -> list[float]:
    """The colourant None's colour: no ink."""
    return [0.0, 0.0, 0.0, 0.0]


def _same(values: list[float]) -> list[float]:
    """A CMYK colour space's colour: its own CMYK."""
    return values


def _cmyk_of(space: Any) -> Callable[[list[float]], list[float]] | None:
    """How a colour of `space` (an object, not a name of the resources) turns into the CMYK a press prints: its own
    values in DeviceCMYK or an ICC profile of four; for a spot colour (Separation or DeviceN) whose alternate is
    one of those, its tint transform, which a press without that ink prints through (PDF 1.7, 8.6.6.4: "If the
    colorant is not available, the alternate colour space and tint transform are used" ... as a CMYK press
    prints a Pantone colour, see _spot). None for another space (RGB, grey, Lab: no CMYK ink to measure)."""
    if space is None:
        return None
    space = space.get_object()
    if _cmyk_space(space):
        return _same
    if _registration(space):
        return None  # every plate: measured where it is painted inside the cut (_marks), not as a colour
    if isinstance(space, list) and len(space) >= 2 and str(space[0]) == "/Separation" and str(space[1]) == "/None":
        return _no_ink  # "shall never produce any visible output" (PDF 1.7, 8.6.6.4), whatever its alternate
    if isinstance(space, list) and len(space) >= 4 and str(space[0]) in ("/Separation", "/DeviceN") and \
            _cmyk_space(space[2]):
        from generator.prepress import functions

        transform = space[3]
        return lambda tints: functions.evaluate(transform, tints)
    if isinstance(space, list) and len(space) >= 4 and str(space[0]) == "/Indexed":
        return _indexed(space)
    return None


#: The most colours of an Indexed colour space's table (PDF 1.7, 8.6.6.3: hival "shall be ... no greater than 255").
MAX_INDEXED = 256


def _indexed(space: list[Any]) -> _ToCmyk | None:
    """How an index into an Indexed colour space turns into CMYK: its entry of the lookup table (one byte a component
    of the base space, 0..255 for the base's 0..1; PDF 1.7, 8.6.6.3) through the base's own conversion (_cmyk_of:
    CMYK, or a spot colour's tint transform). None where the base has none (RGB, grey, Lab). An index past the
    table, or a table shorter than hival says, raises IndexError (said not measured by the caller)."""
    from generator.prepress import functions

    base = space[1].get_object()
    convert = _cmyk_of(base)
    inks = _components(base)
    if convert is None or inks is None:
        return None
    highest = min(int(space[2]), MAX_INDEXED - 1)
    table = space[3].get_object()
    # a string's bytes as the file holds them (pypdf may read a table's bytes as UTF-16 text: its original_bytes)
    lookup = bytes(table.get_data()) if hasattr(table, "get_data") else bytes(table.original_bytes)
    lookup = lookup[:(highest + 1) * inks]

    def colour(values: list[float]) -> list[float]:
        index = min(max(0, round(values[0])), highest)
        entry = lookup[index * inks:(index + 1) * inks]
        if len(entry) < inks:
            raise functions.Unmeasured(phrase("an index past the end of its colour table"))
        return convert([v / 255 for v in entry])

    return colour


def _components(space: Any) -> int | None:
    """How many components a colour of `space` has, for the spaces whose ink is measured: CMYK 4 (an ICC profile
    its N), a Separation 1, a DeviceN one a colourant, an Indexed space 1 (the index); None for another."""
    space = space.get_object() if space is not None else None
    if str(space) == "/DeviceCMYK":
        return 4
    if not isinstance(space, list) or len(space) < 2:
        return None
    family = str(space[0])
    if family == "/ICCBased":
        return int(space[1].get_object().get("/N", 0)) or None
    return {"/Separation": 1, "/Indexed": 1}.get(family, len(space[1].get_object()) if family == "/DeviceN" else None)


def _pattern(resources: Any, name: Any, state: _State, number: int, result: Preflight, rgb: dict[str, int],
             depth: int) -> None:
    """A fill or stroke pattern: a gradient's colours checked, a tiling's drawing walked as a form's is (its
    colours, pictures and fonts)."""
    pattern = _named(resources, "/Pattern", name)
    if pattern is None:
        return
    pattern = pattern.get_object()
    if int(pattern.get("/PatternType", 0)) == 2:
        state.registration |= _shading(pattern.get("/Shading"), name, number, result)
        return
    # a pattern's matrix places it in the default space of the drawing it is named in, not where it is painted
    # (PDF 1.7, 8.7.3.1: in a form, "the form coordinate space at the time the form is painted with a Do
    # operator"): `state.base`, the page's default space on a page
    matrix = pattern.get("/Matrix")
    ctm = _multiply(tuple(float(v) for v in matrix or (1, 0, 0, 1, 0, 0)), state.base)
    _walk_inside(pattern, ctm, resources, state, number, result, rgb, depth)


def _cmyk_space(space: Any) -> bool:
    """Whether a colour space (an object, not a name of the resources) is DeviceCMYK or an ICC profile of four."""
    if space is None:
        return False
    space = space.get_object()
    if str(space) == "/DeviceCMYK":
        return True
    return isinstance(space, list) and len(space) > 1 and str(space[0]) == "/ICCBased" and \
        int(space[1].get_object().get("/N", 0)) == 4


def _is_rgb(space: Any) -> bool:
    if space is None:
        return False
    space = space.get_object()
    if str(space) in ("/DeviceRGB", "/CalRGB"):
        return True
    if isinstance(space, list) and space and str(space[0]) == "/ICCBased":
        return int(space[1].get_object().get("/N", 0)) == 3
    if isinstance(space, list) and space and str(space[0]) in ("/Indexed", "/CalRGB"):
        return str(space[0]) == "/CalRGB" or _is_rgb(space[1])
    return False


def _xobject(resources: Any, name: Any, state: _State, number: int, result: Preflight, rgb: dict[str, int],
             depth: int) -> None:
    xobject, subtype, ctm = _done(resources, name, state.ctm)
    if subtype == "/Form":
        _walk_inside(xobject, ctm, resources, state, number, result, rgb, depth)
    elif subtype == "/Image":
        _image(xobject, name, state, number, result)


def _done(resources: Any, name: Any, ctm: _Matrix) -> tuple[Any, str, _Matrix]:
    """What `Do` paints, for both walks of a drawing (_walk, _follow): the XObject `name` names, its subtype
    (`/Form`, `/Image`; "" where the resources name none), and the transformation it is painted in: a form's own
    /Matrix applied to `ctm` (PDF 1.7, 8.10.1), a picture's `ctm` as it is."""
    found = _named(resources, "/XObject", name)
    if found is None:
        return None, "", ctm
    xobject = found.get_object()
    subtype = str(xobject.get("/Subtype"))
    matrix = xobject.get("/Matrix") if subtype == "/Form" else None
    return xobject, subtype, _multiply(tuple(float(v) for v in matrix), ctm) if matrix is not None else ctm


def _named(resources: Any, kind: str, name: Any) -> Any:
    """The object a drawing names from its resources (`/Im0` of `/XObject`), or None where they have none."""
    found = resources.get(kind)
    return found.get_object().get(name) if found is not None else None


def _walk_inside(owner: Any, ctm: tuple[float, float, float, float, float, float], resources: Any, state: _State,
                 number: int, result: Preflight, rgb: dict[str, int], depth: int) -> None:
    """Walk the drawing of a form or a tiling pattern (`owner`, its resources or else the drawing's that names it)
    in `ctm`, and give the drawing that named it its matrix, its graphics-state stack and its colour spaces back."""
    saved, stack, four, base = state.ctm, len(state.stack), state.four, state.base
    initial, render = state.initial, state.render
    state.ctm = state.base = ctm
    _walk(owner, owner.get("/Resources") or resources, state, number, result, rgb, depth + 1)
    del state.stack[stack:], state.spaces[stack:]
    state.ctm, state.four, state.base = saved, four, base
    state.initial, state.render = initial, render


class _Inline(dict[str, Any]):
    """A picture written inline in a drawing (`BI ... ID ... EI`, as Ghostscript's pdfwrite writes small ones),
    seen as a picture stored apart: its abbreviated keys, colour spaces and filters spelt out (PDF 1.7, 8.9.7), a
    colour space it names by name taken from the resources."""

    KEYS = {"/W": "/Width", "/H": "/Height", "/CS": "/ColorSpace", "/IM": "/ImageMask", "/BPC": "/BitsPerComponent",
            "/F": "/Filter", "/D": "/Decode", "/DP": "/DecodeParms", "/I": "/Interpolate"}
    SPACES = {"/G": "/DeviceGray", "/RGB": "/DeviceRGB", "/CMYK": "/DeviceCMYK", "/I": "/Indexed"}
    FILTERS = {"/AHx": "/ASCIIHexDecode", "/A85": "/ASCII85Decode", "/LZW": "/LZWDecode", "/Fl": "/FlateDecode",
               "/RL": "/RunLengthDecode", "/CCF": "/CCITTFaxDecode", "/DCT": "/DCTDecode"}

    def __init__(self, operands: Any, resources: Any) -> None:
        from pypdf.generic import NameObject

        super().__init__()
        settings = operands.get("settings", {}) if isinstance(operands, dict) else {}
        for key, value in settings.items():
            self[self.KEYS.get(str(key), str(key))] = value
        space = self.get("/ColorSpace")
        if space is not None and not isinstance(space, list):
            named = str(space)
            found = _named(resources, "/ColorSpace", named) if named not in self.SPACES else None
            self["/ColorSpace"] = found if found is not None else NameObject(self.SPACES.get(named, named))
        self.data = operands.get("data", b"") if isinstance(operands, dict) else b""

    def get_data(self) -> bytes:
        """The picture's data with its filters undone (pypdf's decoders, which take the filters' full names)."""
        from pypdf.filters import decode_stream_data
        from pypdf.generic import ArrayObject, NameObject, StreamObject

        filters = self.get("/Filter")
        if filters is None:
            return bytes(self.data)
        stream = StreamObject()
        stream.set_data(bytes(self.data))
        names = filters if isinstance(filters, list) else [filters]
        stream[NameObject("/Filter")] = ArrayObject(NameObject(self.FILTERS.get(str(f), str(f))) for f in names)
        if self.get("/DecodeParms") is not None:
            stream[NameObject("/DecodeParms")] = self["/DecodeParms"]
        return bytes(decode_stream_data(stream))


def _image(image: Any, name: Any, state: _State, number: int, result: Preflight) -> None:
    service = result.service
    if image.get("/ImageMask"):
        _paint(state, True, False, number, result)  # a stencil: painted in the fill colour, measured as such
        return
    width, height = int(image.get("/Width", 0)), int(image.get("/Height", 0))
    picture = result.picture(name)
    # the box in the page's own units (the walk's space is in points: the page's /UserUnit undone)
    state.pictures.append((_placed_box((0.0, 0.0, 1.0, 1.0), tuple(v / state.unit for v in state.ctm)), picture))
    _resolution(width, height, state.ctm, picture, number, result, _own_pixels(image, result))
    own = image.get("/SMask")
    own = own.get_object() if own is not None else None
    if own is not None and hasattr(own, "get"):  # its transparency, drawn over the same square: coarser, it shows
        mask_w, mask_h = int(own.get("/Width", 0)), int(own.get("/Height", 0))
        if 0 < mask_w * mask_h and (mask_w < width or mask_h < height):
            _resolution(mask_w, mask_h, state.ctm, phrase("{picture} (its soft mask)", picture=picture), number,
                        result)
    space = image.get("/ColorSpace")
    if service.colour == "cmyk" and _is_rgb(space):
        result.add(number, "colour", phrase("the picture {picture} is RGB", picture=picture), code="rgb-picture")
    state.registration |= _spot(space, phrase("the picture {picture}", picture=picture), number, result)
    if service.pdfx == "x1a" and image.get("/SMask") is not None:
        result.add(number, "pdfx", phrase("the picture {picture} has a soft mask (transparency), which PDF/X-1a does "
                                          "not allow", picture=picture), code="pdfx-soft-mask")
    if service.pdfx == "x1a":
        for excluded in _excluded_filters(image.get("/Filter")):
            result.add(number, "pdfx", phrase("the picture {picture} is {compressed}, which PDF/X-1a does not allow",
                                              picture=picture, compressed=phrase(X1A_EXCLUDED_FILTERS[excluded])),
                       code="pdfx-filter")
    if _cmyk_space(space) and int(image.get("/BitsPerComponent", 8)) == 8:
        _picture_ink(image, name, number, result)
    elif (convert := _cmyk_of(space)) is not None:
        _converted_picture_ink(image, space, convert, name, number, result)


def _own_pixels(image: Any, result: Preflight) -> tuple[int, int] | None:
    """The pixels a picture had before its PDF's writer enlarged it (Preflight.enlarged), or None."""
    reference = getattr(image, "indirect_reference", None)
    return result.enlarged.get(reference.idnum) if reference is not None else None


def _resolution(width: int, height: int, ctm: _Matrix, picture: str, number: int, result: Preflight,
                own: tuple[int, int] | None = None) -> None:
    """Judge a picture of `width` x `height` pixels drawn over the unit square in `ctm` by the service's resolution
    rule (Service.resolution): refused below its minimum, warned below GOOD_DPI. `own`: the pixels the picture had
    before its PDF's writer enlarged it to `width` x `height`: the ones its resolution is said and judged by (the
    enlarged copy, 288 dpi, is smoother, not sharper)."""
    service = result.service
    a, b, c, d, _e, _f = ctm
    drawn_w, drawn_h = math.hypot(a, b) / 72, math.hypot(c, d) / 72
    if drawn_w <= 0 or drawn_h <= 0:
        return
    pixels = f"{width} x {height} px"
    if own is not None:
        mine = f"{own[0]} x {own[1]}"
        pixels = phrase("{own} px, enlarged in the file to {pixels}", own=mine, pixels=pixels)
        width, height = own
    dpi = min(width / drawn_w, height / drawn_h)
    said = format(dpi, ".0f")
    judged = service.resolution(dpi)
    if judged == "below-minimum":
        result.add(number, "min_dpi", phrase("the picture {picture} ({pixels}) is drawn at {dpi} dpi, below the "
                                             "{minimum} dpi {service} asks", picture=picture, pixels=pixels,
                                             dpi=said, minimum=str(service.min_dpi), service=service.name),
                   code="picture-dpi-below-minimum")
    elif judged == "soft":
        result.add(number, "min_dpi", phrase("the picture {picture} ({pixels}) is drawn at {dpi} dpi, below {good}: "
                                             "it may print soft", picture=picture, pixels=pixels, dpi=said,
                                             good=str(GOOD_DPI)), code="picture-dpi-soft", refuse=False)


def _mask_pictures(resources: Any, name: Any, state: _State, number: int, result: Preflight, depth: int) -> None:
    """The pictures a soft mask set by the graphics state `name` draws (its group, /G: PDF 1.7, 11.6.5.2), judged
    by the resolution rule as any picture: a mask's coarse pixels print as a soft or stepped edge of what it shows.
    The group is placed in the transformation in force where the state is set, its /Matrix applied."""
    found = _named(resources, "/ExtGState", name)
    mask = found.get_object().get("/SMask") if found is not None else None
    mask = mask.get_object() if mask is not None else None
    group = mask.get("/G") if mask is not None and hasattr(mask, "get") else None
    if group is None:
        return
    group = group.get_object()
    matrix = group.get("/Matrix")
    ctm = _multiply(tuple(float(v) for v in matrix), state.ctm) if matrix is not None else state.ctm
    _mask_walk(group, group.get("/Resources") or resources, ctm, state, number, result, depth + 1)


def _mask_walk(contents: Any, resources: Any, ctm: _Matrix, state: _State, number: int, result: Preflight,
               depth: int) -> None:
    """Walk a soft mask's drawing for its pictures only (what it paints is no ink: a mask's colours are its
    opacity), forms and the masks it sets itself followed."""
    if contents is None or depth > 12:
        return
    resources = resources.get_object() if resources is not None else {}
    stack: list[_Matrix] = []
    for operands, op in _read_once(contents, state.parsed):
        if op == "q":
            stack.append(ctm)
        elif op == "Q" and stack:
            ctm = stack.pop()
        elif op == "cm" and len(operands) == 6:
            ctm = _multiply(tuple(float(v) for v in operands), ctm)
        elif op == "Do" and operands:
            xobject, subtype, placed = _done(resources, operands[0], ctm)
            if subtype == "/Image" and not xobject.get("/ImageMask"):
                _resolution(int(xobject.get("/Width", 0)), int(xobject.get("/Height", 0)), placed,
                            phrase("{picture} (in a soft mask)", picture=result.picture(operands[0])), number, result,
                            _own_pixels(xobject, result))
            elif subtype == "/Form":
                _mask_walk(xobject, xobject.get("/Resources") or resources, placed, state, number, result, depth + 1)
        elif op == "INLINE IMAGE":
            inline = _Inline(operands, resources)
            if not inline.get("/ImageMask"):
                _resolution(int(inline.get("/Width", 0)), int(inline.get("/Height", 0)), ctm,
                            "(inline, in a soft mask)", number, result)
        elif op == "gs" and operands:
            saved = state.ctm
            state.ctm = ctm
            _mask_pictures(resources, operands[0], state, number, result, depth)
            state.ctm = saved


#: The filters PDF/X-1a excludes, by full name, with how a message says them (its inline pictures' abbreviations
#: are spelt out by _Inline.FILTERS). JPEG 2000: PDF/X-1a is PDF 1.4 (ISO 15930-4, PDFX_PDF_VERSION) and "The
#: JPXDecode filter (PDF 1.5)" (PDF 1.7 7.4.9, quoted by Microsoft's MS-PDF notes, learn.microsoft.com/en-us/
#: openspecs/ie_standards/ms-pdf/fa312d4b-4e34-43af-b07e-1ec1c71bf607). LZW and JBIG2: Kodak's 'Technical
#: characteristics of PDF/X-1a' (workflowhelp.kodak.com/display/EVO100/Technical+characteristics+of+PDF_X-1a):
#: "LZW and JBIG2 compression are not allowed"; Antenna House's notes on ISO 15930-4 (blog.antenna.co.jp/PDFTool/
#: archives/2006/07/18): PDF/X-1a:2003 allows every compression but LZW and JBIG2; Heidelberg's Prinect PDF Toolbox
#: report (onlinehelp.prinect-lounge.com/Prinect_PDF_Toolbox/Version2020/en/Prinect/PDF_report/PDF_report-6.htm):
#: "Filters such as LZW or JPEG 2000 are not allowed in PDF/X"; pdfbox-preflight's PDF/X-1a checks
#: (github.com/Padam87/pdfbox-preflight/issues/1): "LZW compression prohibited".
X1A_EXCLUDED_FILTERS = {"/JPXDecode": N_("JPEG 2000 (JPXDecode, PDF 1.5)"),
                        "/JBIG2Decode": N_("compressed with JBIG2 (JBIG2Decode)"),
                        "/LZWDecode": N_("compressed with LZW (LZWDecode)")}


def _excluded_filters(filters: Any) -> list[str]:
    """The filters of a stream's /Filter (a name or an array) that PDF/X-1a excludes, by full name, each once."""
    filters = filters.get_object() if filters is not None else None
    names = [str(f) for f in (filters if isinstance(filters, list) else [filters] if filters is not None else [])]
    full = [_Inline.FILTERS.get(n, n) for n in names]
    return [f for f in dict.fromkeys(full) if f in X1A_EXCLUDED_FILTERS]


def _streams_filtered(reader: Any, result: Preflight) -> None:
    """PDF/X-1a: no stream of the file but its pictures (named on their pages by _image) compressed with a filter
    the standard excludes (X1A_EXCLUDED_FILTERS): a drawing, a font, a profile. Every stream of the file is read
    (an excluded filter anywhere breaks the standard; a filter's name may be escaped, `/LZ#57Decode`, or held in
    an object stream, so the file's bytes cannot be searched instead): the 523 objects of a 240-page MB PRINT deck
    in 0.03 s."""
    from pypdf.generic import IndirectObject, StreamObject

    found: dict[str, list[str]] = {}
    for generation, numbers in sorted(reader.xref.items()):
        for idnum in sorted(numbers):
            try:
                stream = IndirectObject(idnum, generation, reader).get_object()
                filters = _excluded_filters(stream.get("/Filter")) if isinstance(stream, StreamObject) and \
                    str(stream.get("/Subtype")) != "/Image" else []
            except Exception:  # noqa: BLE001 - an object no page uses may be damaged: what the pages use is read by
                continue  # the other checks, where damage is said
            for excluded in filters:
                found.setdefault(excluded, []).append(str(idnum))
    for excluded, objects in found.items():
        shown = ", ".join(objects[:5]) if len(objects) <= 5 else phrase_n(
            "{objects} and {n} more", "{objects} and {n} more", len(objects) - 5, objects=", ".join(objects[:5]))
        result.add(None, "pdfx", phrase_n("object {objects} is {compressed}, which PDF/X-1a does not allow",
                                          "objects {objects} are {compressed}, which PDF/X-1a does not allow",
                                          len(objects), objects=shown,
                                          compressed=phrase(X1A_EXCLUDED_FILTERS[excluded])), code="pdfx-filter")


def _picture_ink(image: Any, name: Any, number: int, result: Preflight) -> None:
    """The highest total ink of a CMYK picture's pixels (8 bits a component: the common picture, a JPEG's too, read
    by Pillow at once, each ink mapped by the picture's /Decode; another goes to _converted_picture_ink), measured
    once a file for a picture shown on several pages (Preflight.picture_inks) and said on each."""
    key = _object_key(image)
    measured = result.picture_inks.get(key) if key is not None else None
    if measured is None:
        measured = _highest_picture_ink(image)
        if key is not None:
            result.picture_inks[key] = measured
    highest, why = measured
    if highest is None:
        result.add(number, "ink_limit", phrase("the picture {picture} could not be decoded to measure its ink{why}",
                                               picture=result.picture(name), why=why), code="ink-unmeasured",
                   refuse=False)
        return
    _ink(result, highest, number, phrase("the picture {picture}", picture=result.picture(name)))


def _highest_picture_ink(image: Any) -> tuple[float | None, str]:
    """A CMYK picture's highest total ink in percent, or None and why it could not be measured."""
    from generator.prepress import functions

    try:
        width, height = int(image["/Width"]), int(image["/Height"])
        data = _picture_data(image, 4)
        if len(data) < width * height * 4:
            raise functions.Unmeasured(phrase("its data is shorter than its width and height say"))
        decode = [float(v) for v in image.get("/Decode", [0, 1] * 4)]
        if len(decode) < 8:
            raise functions.Unmeasured(phrase("a /Decode shorter than its components"))
    except Exception as err:  # noqa: BLE001 - a picture pypdf or Pillow cannot decode is not measured (said)
        return None, f" ({err})" if isinstance(err, functions.Unmeasured) and str(err) else ""
    if width * height == 0:
        return 0.0, ""
    # each ink's samples as PDF maps them (8.9.5.2: Dmin + v (Dmax - Dmin) / 255, held to 0..1), to the nearest of
    # 0..255: exact for the /Decode of every picture seen, [0 1] and Photoshop's JPEGs' [1 0]
    tables = [[round(255 * min(1.0, max(0.0, decode[2 * i] + v * (decode[2 * i + 1] - decode[2 * i]) / 255)))
               for v in range(256)] for i in range(4)]
    data = data[:width * height * 4]
    import numpy as np

    # in numpy, a column at a time (summing along the rows of four is ten times slower): Pillow's bands converted
    # to 32-bit and added took 28 s of the 39 s preflight of a 504-page deck of 552 pictures
    pixels = np.frombuffer(data, dtype=np.uint8).reshape(-1, 4)
    identity = tables == [list(range(256))] * 4
    luts = np.array(tables, dtype=np.uint16)
    total = pixels[:, 0].astype(np.uint16) if identity else luts[0][pixels[:, 0]]
    for ink in range(1, 4):
        total += pixels[:, ink] if identity else luts[ink][pixels[:, ink]]
    return float(int(total.max())) / 255 * 100, ""


#: The most pixels of a JPEG or JPEG 2000 picture decoded to measure its ink: a card's art at 300 dpi is some
#: million (an A3 poster at 300 dpi 17 million); Pillow holds four bytes a pixel of a CMYK one.
MAX_JPEG_PIXELS = 64 * 1024 * 1024
#: The filters whose data pypdf leaves as it is (a JPEG's, a JPEG 2000's file), decoded here by Pillow.
IMAGE_FILTERS = frozenset({"/DCTDecode", "/JPXDecode"})


def _picture_data(image: Any, inks: int) -> bytes:
    """A picture's samples, its filters undone: by pypdf, and for a JPEG (DCTDecode) or JPEG 2000 (JPXDecode),
    whose file pypdf gives as it is, by Pillow, at most MAX_JPEG_PIXELS, as PDF reads its samples: a CMYK JPEG with
    Adobe's marker holds its inks inverted, which Pillow undoes on reading and PDF does not (a PDF's Photoshop JPEG
    says so by its /Decode [1 0 ...]; Ghostscript reads such a JPEG without /Decode as the inverse of what Pillow
    shows), so Pillow's inversion is undone here. A JPEG of another number of components than the picture's colour
    space raises functions.Unmeasured."""
    import io

    from PIL import Image as PILImage
    from PIL import ImageChops

    from generator.prepress import functions

    data = bytes(image.get_data())
    if getattr(image, "decoded_self", None) is not None:
        # pypdf keeps a stream's decoded data with it for the reader's life: every picture of a 504-page deck held at
        # once (736 of its 830 MB); measured once a file (Preflight.picture_inks), a picture's pixels are let go
        image.decoded_self = None
    filters = image.get("/Filter")
    filters = filters.get_object() if filters is not None else None
    names = [str(f) for f in (filters if isinstance(filters, list) else [filters] if filters is not None else [])]
    last = _Inline.FILTERS.get(names[-1], names[-1]) if names else ""
    if last not in IMAGE_FILTERS:
        return data
    width, height = int(image["/Width"]), int(image["/Height"])
    if not 0 < width * height <= MAX_JPEG_PIXELS:
        raise functions.Unmeasured(phrase("{width} x {height} pixels, more than the {most} decoded", width=width,
                                          height=height, most=MAX_JPEG_PIXELS))
    kind = "JPEG" if last == "/DCTDecode" else "JPEG 2000"
    try:
        with PILImage.open(io.BytesIO(data)) as picture:
            if picture.size != (width, height):
                raise functions.Unmeasured(phrase("a {kind} of {found_width} x {found_height} pixels, not its "
                                                  "{width} x {height}", kind=kind, found_width=picture.width,
                                                  found_height=picture.height, width=width, height=height))
            mode = {1: "L", 4: "CMYK"}.get(inks)
            if picture.mode != mode:
                raise functions.Unmeasured(phrase("a {kind} in {mode}, not of the {inks} components of its colour "
                                                  "space", kind=kind, mode=picture.mode, inks=inks))
            picture.load()
            if mode == "CMYK" and "adobe" in picture.info:
                return bytes(ImageChops.invert(picture).tobytes())
            return bytes(picture.tobytes())
    except functions.Unmeasured:
        raise
    except Exception:  # noqa: BLE001 - Pillow raises many kinds of error on a damaged JPEG: said, not a traceback
        # TRANSLATORS: {kind} is JPEG or JPEG 2000
        raise functions.Unmeasured(phrase("a {kind} that cannot be read", kind=kind)) from None


#: The most pixels of a picture measured through a conversion (a spot colour's, an Indexed table's) or pixel by
#: pixel (a CMYK picture of other than 8 bits, one in the registration colour), and the most distinct colours taken
#: through a conversion, each evaluated in Python (a PostScript tint transform some tens of microseconds a colour):
#: a spot-colour picture is a logo or a duotone of some thousands of colours (one of 8 bits has 256 at most, an
#: Indexed one 256); beyond either, the ink is said not measured, and why, but for a spot picture whose tint
#: transform is evaluated over all its colours at once (_many_spot_colours: 65,536 tints in some 0.1 s, a
#: PostScript program's some 0.3 s). A picture measured pixel by pixel, in numpy, has no bound on its colours (a
#: 2000 x 2000 picture of 16-bit CMYK, 4 million colours: some 0.5 s).
MAX_SPOT_PIXELS = 16 * 1024 * 1024
MAX_SPOT_COLOURS = 4096
#: The sizes of a component a picture's samples may have (PDF 1.7, 8.9.5.1: "1, 2, 4, 8, or (PDF 1.5) 16"), with
#: Pillow's way of reading rows of them (each row starting on a byte, as PDF's do), each sample to one byte of
#: 0..255 (a sample of b bits v as v * 255 / (2^b - 1), exactly) or to two (16 bits, as they are).
SAMPLE_READERS = {1: ("1", "1"), 2: ("L", "L;2"), 4: ("L", "L;4"), 8: ("L", "L"), 16: ("I;16B", "I;16B")}


def _samples(image: Any, inks: int) -> tuple[set[bytes], int]:
    """The distinct colours of a picture's pixels, each as its samples' bytes (_sample_bytes), and the largest a
    sample's bytes can say. Raises functions.Unmeasured, saying why, where _sample_bytes does."""
    samples, top = _sample_bytes(image, inks)
    step = (2 if top > 255 else 1) * inks
    colours = {bytes([v]) for v in set(samples)} if step == 1 else \
        {samples[i:i + step] for i in range(0, len(samples), step)}
    return colours, top


#: How many of the colours a spot picture's tint transform, evaluated all at once (_many_spot_colours), puts at
#: the highest total (within SAME_TOTAL) are evaluated again colour by colour, lowest samples first, for the
#: figure and the colour the report names: a picture's highest tint is one colour, or a few equal ones.
MOST_RECHECKED = 64
#: Totals this close (a millionth of a percent of ink) are taken as the same highest in that choice.
SAME_TOTAL = 1e-8


def _many_spot_colours(space: Any, convert: _ToCmyk, colours: set[bytes], inks: int, top: int,
                       decode: list[float]) -> tuple[float, list[float]]:
    """The highest total ink of a spot picture's colours, more than MAX_SPOT_COLOURS of them (a 16-bit Separation
    picture, up to 65,536 tints; a DeviceN one of several inks), and that colour's values: its tint transform
    evaluated over all of them at once (functions.evaluate_many: the same arithmetic in numpy), then the few at the
    highest evaluated again one by one as _converted_picture_ink does (so the report's figure and colour are
    theirs). Raises functions.Unmeasured, saying how many colours, for a transform not evaluated at once (one that
    cannot be evaluated for some colour, a PostScript program whose if or ifelse leaves a stack of another depth for
    some colours than for others) or an Indexed picture."""
    import numpy as np

    from generator.prepress import functions

    too_many = functions.Unmeasured(phrase_n("{n} colour, more than the {most} measured",
                                              "{n} colours, more than the {most} measured", len(colours),
                                              most=MAX_SPOT_COLOURS))
    if convert is _no_ink:  # (the colourant None: no ink, whatever its tint transform says)
        return 0.0, [0.0]
    space = space.get_object()
    if not (isinstance(space, list) and len(space) >= 4 and str(space[0]) in ("/Separation", "/DeviceN")):
        raise too_many
    ordered = sorted(colours)  # lowest samples first, as the colours measured one by one are
    samples = np.frombuffer(b"".join(ordered), dtype=">u2" if top > 255 else np.uint8).reshape(-1, inks)
    values = np.stack([decode[2 * i] + samples[:, i].astype(np.float64) * (decode[2 * i + 1] - decode[2 * i]) / top
                       for i in range(inks)], axis=1)
    try:
        out = functions.evaluate_many(space[3], values)
    except functions.Unmeasured:
        raise too_many from None
    if not np.isfinite(out).all():  # (a power of a negative tint: not a colour, as one by one it is none either)
        raise too_many
    if out.shape[1] < 4:
        raise ValueError("not a CMYK colour")
    held = np.clip(out[:, :4], 0.0, 1.0)
    totals = held[:, 0] + held[:, 1] + held[:, 2] + held[:, 3]  # (in _total's order)
    highest, worst = 0.0, [0.0]
    for index in np.flatnonzero(totals >= totals.max() - SAME_TOTAL)[:MOST_RECHECKED]:
        colour = _decoded(ordered[int(index)], inks, top, decode)
        total = _total(convert(colour))
        if total > highest:
            highest, worst = total, colour
    return highest, worst


def _sample_bytes(image: Any, inks: int) -> tuple[bytes, int]:
    """A picture's samples, pixel by pixel (one byte a sample, two of 16 bits, big-endian), and the largest a
    sample's bytes can say (255, or 65 535). Raises functions.Unmeasured, saying why, for a picture of another size
    of sample, of more than MAX_SPOT_PIXELS pixels, or of less data than its size says."""
    from PIL import Image as PILImage

    from generator.prepress import functions

    width, height = int(image["/Width"]), int(image["/Height"])
    bits = int(image.get("/BitsPerComponent", 8))
    if bits not in SAMPLE_READERS:
        raise functions.Unmeasured(phrase("{bits} bits a component, which PDF does not allow", bits=bits))
    if not 0 < width * height <= MAX_SPOT_PIXELS or not 0 < inks <= 32:
        raise functions.Unmeasured(phrase("{width} x {height} pixels of {inks} components, more than the {most} pixels "
                                          "measured", width=width, height=height, inks=inks, most=MAX_SPOT_PIXELS))
    row = -(-width * inks * bits // 8)
    data = _picture_data(image, inks)
    if len(data) < row * height:
        raise functions.Unmeasured(phrase("its data is shorter than its width and height say"))
    mode, raw = SAMPLE_READERS[bits]
    samples = data[:row * height]
    if bits != 8:  # rows of samples of other sizes, each starting on a byte: read into one byte (or two) a sample
        picture = PILImage.frombytes(mode, (width * inks, height), samples, "raw", raw)
        samples = (picture.convert("L") if mode == "1" else picture).tobytes()
    return samples, 65535 if bits == 16 else 255


#: How many pixels _highest_pixel reads at once: some tens of MB of numbers at a time, whatever the picture's size.
PIXELS_AT_ONCE = 1 << 20


def _highest_pixel(samples: bytes, inks: int, top: int, decode: list[float]) -> tuple[float, list[float]]:
    """The highest sum of a picture's pixels' values, each held to 0..1 (the total ink of a CMYK picture, the tint
    of one in the registration colour), and the values of the pixel that reaches it, the lowest samples of those
    that do (as the colours measured one by one, in order, say it: _converted_picture_ink); [0.0] where it is 0.
    Every pixel read as _decoded reads one (the same arithmetic, in the same order, in numpy's float64, so the same
    figure to the last bit), PIXELS_AT_ONCE at a time: what needs no colour converted one by one (a tint transform
    is evaluated in Python, colour by colour) is measured however many colours a picture has."""
    import numpy as np

    pixels = np.frombuffer(samples, dtype=">u2" if top > 255 else np.uint8)
    pixels = pixels[:len(pixels) // inks * inks].reshape(-1, inks)
    highest, lowest = 0.0, None
    for start in range(0, len(pixels), PIXELS_AT_ONCE):
        chunk = pixels[start:start + PIXELS_AT_ONCE]
        total = np.zeros(len(chunk))
        for i in range(inks):
            total = total + np.clip(decode[2 * i] + chunk[:, i].astype(np.float64) *
                                    (decode[2 * i + 1] - decode[2 * i]) / top, 0.0, 1.0)
        peak = float(total.max()) if len(total) else 0.0
        if peak <= 0.0 or peak < highest:
            continue
        found = chunk[total == peak]
        first = tuple(int(v) for v in found[np.lexsort(found.T[::-1])[0]])
        if peak > highest or lowest is None or first < lowest:
            highest, lowest = peak, first
    if lowest is None:
        return 0.0, [0.0]
    return highest, [decode[2 * i] + v * (decode[2 * i + 1] - decode[2 * i]) / top for i, v in enumerate(lowest)]


def _decoded(colour: bytes, inks: int, top: int, decode: list[float]) -> list[float]:
    """A pixel's samples (`colour`, of `inks` samples of one byte or two, 0..`top`) as its colour's values, mapped
    by the picture's /Decode (PDF 1.7, 8.9.5.2: Dmin + v (Dmax - Dmin) / top)."""
    size = len(colour) // inks
    values = [int.from_bytes(colour[i * size:(i + 1) * size], "big") for i in range(inks)]
    return [decode[2 * i] + v * (decode[2 * i + 1] - decode[2 * i]) / top for i, v in enumerate(values)]


def _converted_picture_ink(image: Any, space: Any, convert: _ToCmyk, name: Any, number: int,
                           result: Preflight) -> None:
    """The highest total ink of a picture printed through a conversion to CMYK: a spot colour's (Separation or
    DeviceN, its tint transform into its CMYK alternate), an Indexed table's (its entries in CMYK or a spot colour,
    _indexed): each distinct colour of its pixels, of 1, 2, 4, 8 or 16 bits a component, decoded by its /Decode
    (an Indexed picture's default: its samples are the indices themselves, PDF 1.7 Table 90), through the
    conversion; or CMYK of other than 8 bits a component: every pixel, however many colours (_highest_pixel). One the preflight does not measure is said, and
    why, where the service limits ink."""
    from generator.prepress import functions

    picture = result.picture(name)
    try:
        inks = _components(space)
        if inks is None:
            raise functions.Unmeasured(phrase("a colour space of no known number of components"))
        indexed = str(space.get_object()[0]) == "/Indexed" if isinstance(space.get_object(), list) else False
        bits = int(image.get("/BitsPerComponent", 8))
        default = [0.0, float((1 << bits) - 1)] if indexed else [0.0, 1.0] * inks
        decode = [float(v) for v in image.get("/Decode", default)]
        if len(decode) < 2 * inks:
            raise functions.Unmeasured(phrase("a /Decode shorter than its components"))
        highest, worst = 0.0, [0.0]
        if convert is _same:  # CMYK: every pixel measured, in numpy, however many colours
            colours: set[bytes] = set()
            samples, top = _sample_bytes(image, inks)
            highest, worst = _highest_pixel(samples, inks, top, decode)
        else:  # each distinct colour through its conversion (MAX_SPOT_COLOURS at most; more, all at once)
            colours, top = _samples(image, inks)
            if len(colours) > MAX_SPOT_COLOURS:
                highest, worst = _many_spot_colours(space, convert, colours, inks, top, decode)
                colours = set()
        for colour in sorted(colours):
            values = _decoded(colour, inks, top, decode)
            total = _total(convert(values))
            if total > highest:
                highest, worst = total, values
    except (functions.Unmeasured, ArithmeticError, ValueError, TypeError, KeyError, IndexError) as err:
        if result.service.ink_limit is not None:
            why = f" ({err})" if isinstance(err, functions.Unmeasured) and str(err) else ""
            result.add(number, "ink_limit", phrase("the ink of the picture {picture} could not be measured{why}",
                                                   picture=picture, why=why), code="ink-unmeasured", refuse=False)
        return
    at = " ".join(f"{v:g}" for v in worst)
    _ink(result, highest * 100, number,
         phrase("the picture {picture}, an index into its colour table at {values}", picture=picture, values=at)
         if indexed else phrase("the picture {picture}, a colour at {values}", picture=picture, values=at)
         if convert is _same else phrase("the picture {picture}, a spot colour at {values} printed through its CMYK "
                                         "alternate", picture=picture, values=at))


#: The most operators read to follow where the registration colour is painted on one page, its forms' as often as
#: they are painted. Only a drawing that may paint in it (_follow) is read with its paths' points: crop marks are
#: some hundred operators, a card's art painted in it by mistake (outlined text) some ten thousand, a 450 KB form
#: of paths some hundred thousand; past this (a second or two of reading), where it is painted is said not
#: followed.
MAX_MARK_OPERATORS = 200_000
#: How deep forms inside forms are followed (as deep as the page's walk, _walk, reads them).
MAX_MARK_DEPTH = 12
#: Where a glyph may reach from its origin, in ems of its font's size (the text's box, _shown): below its baseline
#: (descenders, some 0.2 to 0.3 em), above (ascenders and accents, some 0.9 to 1.2 em), and before its origin; its
#: advance is the font's widest glyph (/Widths, /W), at least an em. A box larger than the glyphs' own, so that text
#: near the cut is taken as inside rather than missed.
GLYPH_BELOW, GLYPH_ABOVE, GLYPH_BEFORE = 1.0, 1.5, 0.5


class _Unfollowed(Exception):
    """Where the registration colour is painted could not be followed on a page (a bound above, a broken operand)."""


class _Pen:
    """The graphics state the walk of where the registration colour is painted keeps, saved by q and given back by
    Q: the transformation, the clip's box, the registration colour's tint when it is the fill or the stroke colour
    (None when another colour is), the line width, the text state (PDF 1.7, 9.3)."""

    __slots__ = ("ctm", "clip", "clips", "fill", "stroke", "under", "width", "cap", "join", "limit", "size", "font",
                 "widest", "spacing", "words", "scale", "leading", "rise", "render")

    def __init__(self, clip: _Box) -> None:
        self.ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        self.clip = clip
        #: each clip in force as its subpaths' polygons on the page, kept where a picture's box is cut to what
        #: shows of it (_Marks.every_path): a round or turned clip shows less than its box
        self.clips: tuple[list[list[tuple[float, float]]], ...] = ()
        self.fill: float | None = None
        self.stroke: float | None = None
        #: whether the fill's and the stroke's colour space is a Pattern space over the registration colour (an
        #: uncoloured tiling pattern is then painted in it, at the tint `scn` gives with the pattern's name)
        self.under = (False, False)
        #: the font in force (Tf), whose glyphs a Type 3 font draws with drawings of its own
        self.font: Any = None
        self.width = 1.0
        #: the line cap (J), the line join (j) and the miter limit (M): how far a stroke reaches past its path's
        #: box (_reach); PDF 1.7, 8.4.1, Table 52: butt caps, miter joins, a limit of 10 at first
        self.cap, self.join, self.limit = 0, 0, 10.0
        self.size, self.widest, self.spacing, self.words, self.scale, self.leading, self.rise = \
            0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0
        self.render = 0

    def copy(self) -> _Pen:
        pen = _Pen.__new__(_Pen)
        for name in self.__slots__:
            setattr(pen, name, getattr(self, name))
        return pen


class _Marks:
    """What is painted in the registration colour on one page: each piece's box (clipped, in the page's default
    space), its tint and what it is; and the operators left to read (MAX_MARK_OPERATORS)."""

    def __init__(self, parsed: dict[tuple[int, int], list[Any]], placed: dict[tuple[int, int], list[Any]],
                 trim: _Box) -> None:
        self.pieces: list[tuple[_Box, float, str]] = []
        #: the card (the TrimBox), against which a line's segments are judged (add_line); None while a drawing of
        #: its own (a tile, a glyph) is followed in its own space, where whatever it paints counts (_own_tint)
        self.trim: _Box | None = trim
        self.left = MAX_MARK_OPERATORS
        #: the registration colour's highest tint each tiling pattern's tile and each Type 3 glyph paints (or None),
        #: by object number: followed once a page
        self.tiles: dict[tuple[int, int], float | None] = {}
        self.glyphs: dict[tuple[int, int], float | None] = {}
        #: the drawings' operators as the page's walk read them (_State.parsed), and with their paths' points
        self.parsed, self.placed = parsed, placed
        #: whether every drawing's paths are read (not only those painting in the registration colour), so that the
        #: clip is known wherever a picture is painted: each picture's box within it is then kept in `pictures`
        #: (_clipped_pictures)
        self.every_path = False
        self.pictures: list[tuple[_Box, str]] = []

    def add(self, box: _Box | None, pen: _Pen, tint: float | None, what: str) -> None:
        """A piece painted at `tint` (None: not in the registration colour) over `box`, within the clip."""
        if tint is None or box is None:
            return
        clipped = _intersect(box, pen.clip)
        if clipped is not None:
            self.pieces.append((clipped, tint, what))

    def add_line(self, box: _Box, segments: list[_Segment], reach: float, pen: _Pen, tint: float | None) -> None:
        """A subpath stroked at `tint` whose paint lies within `box` (its points' box grown by `reach`): taken as
        reaching into the card (a piece over `box`, which _marks then finds inside) only if one of its segments,
        grown by `reach` in x and y, meets the part of the clip inside the cut; else not kept (what lies outside
        the cut is not judged). A segment grown so holds every cap and join at its ends (_reach); a curve lies
        within its control points' hull, so within the boxes of the hulls of CURVE_PIECES pieces of it."""
        if tint is None:
            return
        trim = self.trim
        if trim is None:
            self.add(box, pen, tint, phrase("a line"))
            return
        card = _intersect(pen.clip, (trim[0] + TOLERANCE, trim[1] + TOLERANCE, trim[2] - TOLERANCE,
                                     trim[3] - TOLERANCE))
        if card is None:
            return
        grown = (card[0] - reach, card[1] - reach, card[2] + reach, card[3] + reach)
        for segment in segments or [((box[0] + reach, box[1] + reach), (box[0] + reach, box[1] + reach))]:
            if len(segment) == 2 and _line_meets(segment[0], segment[1], grown) or len(segment) == 4 and any(
                    _box_meets(piece, grown) for piece in _curve_boxes(segment)):
                self.add(box, pen, tint, phrase("a line"))
                return


#: A segment of a path on the page: a line's two ends, or a Bezier curve's four points (PDF 1.7, 8.5.2.2).
_Segment = tuple[tuple[float, float], ...]
#: The pieces a curve is cut into (de Casteljau) to bound it by their control points' boxes: a box of the whole
#: curve is as loose as a diagonal line's; a sixteenth of a card's arc is bounded within a fraction of a point.
CURVE_PIECES = 16
#: The painting operators that close the subpath before stroking it (s, b, b*; PDF 1.7, Table 60).
CLOSING = frozenset({"s", "b", "b*"})


def _placed_point(m: tuple[float, ...], x: float, y: float) -> tuple[float, float]:
    """The point (x, y) of a space `m` maps to the page's, on the page."""
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _segment(op: str, current: tuple[float, float], placed: list[tuple[float, float]]) -> _Segment:
    """The segment `op` (l, c, v, y) draws from `current` to its points (placed on the page): v's first control
    point is the current point, y's second is its end (PDF 1.7, Table 59)."""
    if op == "l":
        return current, placed[0]
    if op == "v":
        return current, current, placed[0], placed[1]
    if op == "y":
        return current, placed[0], placed[1], placed[1]
    return current, placed[0], placed[1], placed[2]


def _line_meets(a: tuple[float, float], b: tuple[float, float], box: _Box) -> bool:
    """Whether the line from `a` to `b` meets the box: the part of it within the box's x and y bounds, each
    worked out as a range of the line's parameter (Liang-Barsky), is not empty."""
    low, high = 0.0, 1.0
    for start, delta, lower, upper in ((a[0], b[0] - a[0], box[0], box[2]), (a[1], b[1] - a[1], box[1], box[3])):
        if delta == 0:
            if not lower <= start <= upper:
                return False
            continue
        t0, t1 = (lower - start) / delta, (upper - start) / delta
        low, high = max(low, min(t0, t1)), min(high, max(t0, t1))
        if low > high:
            return False
    return True


def _box_meets(a: _Box, b: _Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _curve_boxes(curve: _Segment) -> list[_Box]:
    """The boxes of the control points of CURVE_PIECES pieces of a Bezier curve, which hold the curve."""
    boxes = []
    for i in range(CURVE_PIECES):
        low, high = i / CURVE_PIECES, (i + 1) / CURVE_PIECES
        points = _curve_part(_curve_part(curve, high, first=True), low / high if high else 0.0, first=False)
        boxes.append((min(p[0] for p in points), min(p[1] for p in points), max(p[0] for p in points),
                      max(p[1] for p in points)))
    return boxes


def _curve_part(curve: _Segment, t: float, first: bool) -> _Segment:
    """The part of a Bezier curve before (`first`) or after its parameter `t`, as a curve (de Casteljau)."""
    def between(p: tuple[float, float], q: tuple[float, float]) -> tuple[float, float]:
        return p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t

    p0, p1, p2, p3 = curve
    a, b, c = between(p0, p1), between(p1, p2), between(p2, p3)
    d, e = between(a, b), between(b, c)
    f = between(d, e)
    return (p0, a, d, f) if first else (f, e, c, p3)


def _curve_point(curve: _Segment, t: float) -> tuple[float, float]:
    """The point of a Bezier curve at its parameter `t`."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = curve
    u = 1 - t
    return (u * u * u * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3,
            u * u * u * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3)


def _ring(segments: list[_Segment]) -> list[tuple[float, float]]:
    """A subpath's outline as a polygon: its segments' points, a curve's followed in CURVE_PIECES segments."""
    ring = [segments[0][0]]
    for segment in segments:
        if len(segment) == 4:
            ring += [_curve_point(segment, step / CURVE_PIECES) for step in range(1, CURVE_PIECES + 1)]
        else:
            ring.append(segment[-1])
    return ring


def _intersect(a: _Box, b: _Box) -> _Box | None:
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[0] <= box[2] and box[1] <= box[3] else None


def _placed_box(box: _Box, m: tuple[float, ...]) -> _Box:
    """The box around `box` (in a space `m` maps to the page's) once mapped: its four corners' bounds."""
    corners = [_placed_point(m, x, y) for x, y in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]),
                                                    (box[2], box[3]))]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _marks(page: Any, number: int, result: Preflight, parsed: dict[tuple[int, int], list[Any]],
           placed: dict[tuple[int, int], list[Any]]) -> None:
    """Where the page paints in the registration colour (All: every plate at once, PDF 1.7 8.6.6.4, meant for
    "registration targets in the margins of separations"): followed through its drawing and its forms, with the
    transformation and the clip in force, each fill, stroke, text, picture and gradient's box against the TrimBox.
    Crop and registration marks outside the cut are the printer's and are cut off: nothing said. Inside the cut it
    prints on every plate, 400 % ink at full tint: counted as ink (refused over the service's limit), and said where
    the service limits no ink. Where it cannot be followed (MAX_MARK_OPERATORS, MAX_MARK_DEPTH, a broken operand),
    warned. A line is judged by its segments (_Marks.add_line); a filled shape, text, a picture, a gradient by their
    boxes, not outlines: a diagonal triangle's box may cross the cut where the triangle does not (taken as inside)."""
    from generator.prepress import functions

    said = phrase("it prints on every plate, 400 % ink at full tint; keep it to crop and registration marks outside "
                  "the card")
    cut = _cut(page)
    if _box_entry(page, _BOXES[cut][0]) is None:
        result.add(number, "colour", phrase("the registration colour All is painted on this page, which has no "
                                            "TrimBox to tell the card from its margins: {why}", why=said),
                   code="registration-unplaced", refuse=False)
        return
    trim = _box(page, cut)
    marks = _Marks(parsed, placed, trim)
    try:
        _follow(page.get_contents(), page.get("/Resources"), _Pen(_box(page, "mediabox")), marks, 0)
    except (_Unfollowed, functions.Unmeasured, ArithmeticError, ValueError, TypeError, KeyError, IndexError,
            AttributeError) as err:
        reason = str(err) if isinstance(err, _Unfollowed) else phrase("an operand the preflight cannot read")
        result.add(number, "colour", phrase("the registration colour All is painted on this page, and where could "
                                            "not be followed ({reason}): {why}", reason=reason, why=said),
                   code="registration-unfollowed", refuse=False)
        return
    inside = [(tint, what) for box, tint, what in marks.pieces
              if box[2] > trim[0] + TOLERANCE and box[0] < trim[2] - TOLERANCE and box[3] > trim[1] + TOLERANCE
              and box[1] < trim[3] - TOLERANCE]
    if not inside:
        return
    tint, what = max(inside, key=lambda piece: piece[0])
    _ink(result, tint * 400, number, phrase("the registration colour All at tint {tint} ({what}), inside the cut",
                                            tint=format(tint, "g"), what=what))
    if result.service.ink_limit is None:
        result.add(number, "colour", phrase("the registration colour All is painted inside the cut ({what}): it "
                                            "prints on every plate, {percent} % ink; keep it to crop and registration "
                                            "marks outside the card", what=what, percent=format(tint * 400, ".0f")),
                   code="registration-inside", refuse=False)


def _placed_operations(contents: Any, marks: _Marks, placing: bool) -> list[tuple[list[Any], str]]:
    """A drawing's operators as the page's walk reads them, or (`placing`) with its paths' points and its text's
    placing (drawing.PLACED, at most the operators left to read: _Unfollowed past them); each read once a file
    (a form shown on many pages, a card's back), those with points while the kept hold at most MAX_MARK_OPERATORS
    (so that a deck's many forms are not all kept in memory)."""
    from generator.prepress import drawing

    if not placing:  # as the page's walk reads it: read once for both
        return _read_once(contents, marks.parsed)
    key = _object_key(contents)
    kept = marks.placed
    operations = kept.get(key) if key is not None else None
    if operations is None:
        try:
            operations = _operations(contents, True, max(0, marks.left))
        except drawing.TooMany:
            raise _Unfollowed(phrase("more than {count} operators", count=str(MAX_MARK_OPERATORS))) from None
        if key is not None and sum(map(len, kept.values())) + len(operations) <= MAX_MARK_OPERATORS:
            kept[key] = operations
    return operations


def _numbers(operands: list[Any], count: int) -> list[float]:
    if len(operands) < count:
        raise ValueError("too few operands")
    return [float(v) for v in operands[-count:]]


def _follow(contents: Any, resources: Any, pen: _Pen, marks: _Marks, depth: int) -> None:
    """Walk a drawing (a page's, a form's, a tile's, a Type 3 glyph's) for what it paints in the registration colour
    (_marks)."""
    if contents is None:
        return
    if depth > MAX_MARK_DEPTH:
        raise _Unfollowed(phrase("forms inside forms deeper than {depth}", depth=str(MAX_MARK_DEPTH)))
    resources = resources.get_object() if resources is not None else {}
    # a drawing paints in the registration colour with paths or text only if it comes in with it as a colour (a form
    # painted while it is in force), or sets it (cs, CS; a gradient pattern in it): only then are its paths' points
    # read; another (a card's outlined text in CMYK) is walked as the page's walk reads it, for its forms, pictures
    # and gradients
    operations = _placed_operations(contents, marks, False)
    if marks.every_path or pen.fill is not None or pen.stroke is not None or pen.under != (False, False) or any(
            op in ("cs", "CS", "scn", "SCN") and operands and _sets_registration(resources, operands[-1], marks,
                                                                                 depth)
            for operands, op in operations) or _glyphs_in_registration(resources):
        operations = _placed_operations(contents, marks, True)
    marks.left -= len(operations)
    if marks.left < 0:
        raise _Unfollowed(phrase("more than {count} operators", count=str(MAX_MARK_OPERATORS)))
    stack: list[_Pen] = []
    # the current path's subpaths' boxes, in the page's space: crop marks are often one path of eight lines,
    # whose box as one would cover the card; and each subpath's segments (what a stroke is judged by: a diagonal
    # line's box may reach the cut where the line does not)
    path: list[list[float]] = []
    joined: list[bool] = []  # whether each subpath has a join (two segments or more, or closed): see _reach
    segments: list[list[_Segment]] = []
    start = current = (0.0, 0.0)  # the subpath's first point and the current point, on the page
    clipping = False
    lettered: list[_Box] = []  # the boxes of text shown as a clip (Tr 4 to 7) since BT: the clip ET adds
    line, low, high = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), 0.0, 0.0  # the text line's matrix, where text has reached
    for operands, op in operations:
        if op == "q":
            stack.append(pen.copy())
        elif op == "Q" and stack:
            pen = stack.pop()
        elif op == "cm":
            pen.ctm = _multiply(tuple(_numbers(operands, 6)), pen.ctm)
        elif op == "w":
            pen.width = abs(_numbers(operands, 1)[0])
        elif op in ("J", "j", "M"):
            value = _numbers(operands, 1)[0]
            pen.cap, pen.join, pen.limit = (int(value), pen.join, pen.limit) if op == "J" else \
                (pen.cap, int(value), pen.limit) if op == "j" else (pen.cap, pen.join, abs(value))
        elif op == "gs" and operands:
            _line_state(_named(resources, "/ExtGState", operands[0]), pen)
        elif op in ("cs", "CS"):
            space = _space(resources, operands[0]) if operands else None
            tint = 1.0 if _registration(space) else None
            under = _pattern_over_registration(space)
            pen.fill, pen.stroke = (tint, pen.stroke) if op == "cs" else (pen.fill, tint)
            pen.under = (under, pen.under[1]) if op == "cs" else (pen.under[0], under)
        elif op in ("sc", "scn", "SC", "SCN"):
            side = "fill" if op.islower() else "stroke"
            if operands and str(operands[-1]).startswith("/"):
                under = pen.under[0 if op.islower() else 1]
                setattr(pen, side, _pattern_tint(resources, operands[-1], marks, depth,
                                                 _numbers(operands[:-1], 1)[0] if under else None))
            elif getattr(pen, side) is not None:
                setattr(pen, side, min(1.0, max(0.0, _numbers(operands, 1)[0])))
        elif op in ("k", "rg", "g"):
            pen.fill, pen.under = None, (False, pen.under[1])
        elif op in ("K", "RG", "G"):
            pen.stroke, pen.under = None, (pen.under[0], False)
        elif op in ("m", "l", "c", "v", "y", "re"):
            values = _numbers(operands, {"m": 2, "l": 2, "c": 6, "v": 4, "y": 4, "re": 4}[op])
            if op == "re":
                x, y, w, h = values
                values = [x, y, x + w, y + h]
                corners = [_placed_point(pen.ctm, px, py) for px, py in ((x, y), (x + w, y), (x + w, y + h),
                                                                        (x, y + h))]
            placed = [_placed_point(pen.ctm, values[i], values[i + 1]) for i in range(0, len(values), 2)]
            points = _placed_box((min(values[0::2]), min(values[1::2]), max(values[0::2]), max(values[1::2])),
                                 pen.ctm)
            if op in ("m", "re") or not path:  # a subpath begins (a rectangle is one, closed: four joins)
                path.append(list(points))
                joined.append(op == "re")
                if op == "re":
                    segments.append([(corners[i], corners[(i + 1) % 4]) for i in range(4)])
                    start = current = corners[0]  # (a rectangle's subpath ends where it began)
                else:
                    segments.append([])
                    start = current = placed[0]
                    if op != "m":  # a segment without a current point: from its first point (tolerated)
                        segments[-1].append(_segment(op, current, placed))
                        current = placed[-1]
            else:  # a segment from the current point, which the subpath's box holds already
                last = path[-1]
                path[-1] = [min(last[0], points[0]), min(last[1], points[1]), max(last[2], points[2]),
                            max(last[3], points[3])]
                joined[-1] = joined[-1] or last[0] != last[2] or last[1] != last[3]  # (a segment was there)
                segments[-1].append(_segment(op, current, placed))
                current = placed[-1]
        elif op == "h" and joined:
            joined[-1] = True  # closed: a join where it ends and begins
            segments[-1].append((current, start))
            current = start
        elif op in ("W", "W*"):
            clipping = True
        elif op in FILLS or op in STROKES or op == "n":
            a, b, c, d, _e, _f = pen.ctm
            half = pen.width / 2 * max(math.hypot(a, b), math.hypot(c, d))  # a line's half width on the page
            if op in FILLS:  # what a path fills lies within its subpaths' boxes
                for x0, y0, x1, y1 in path:
                    marks.add((x0, y0, x1, y1), pen, pen.fill, phrase("a filled shape"))
            if op in STROKES:  # what it strokes, within its segments grown by the stroke's reach
                for (x0, y0, x1, y1), joins, pieces in zip(path, joined, segments):
                    reach = half * _reach(pen, joins)
                    if op in CLOSING:  # (s, b, b*: the subpath closed first, PDF 1.7 Table 60)
                        pieces = pieces + [(pieces[-1][-1], pieces[0][0])] if pieces else pieces
                    marks.add_line((x0 - reach, y0 - reach, x1 + reach, y1 + reach), pieces, reach, pen,
                                   pen.stroke)
            if clipping:
                whole = (min(p[0] for p in path), min(p[1] for p in path), max(p[2] for p in path),
                         max(p[3] for p in path)) if path else None
                pen.clip = (_intersect(pen.clip, whole) if whole is not None else None) or (0.0, 0.0, -1.0, -1.0)
                if marks.every_path:
                    pen.clips = (*pen.clips, [_ring(pieces) for pieces in segments if pieces])
            path, joined, segments, clipping = [], [], [], False
        elif op == "BT":
            line, low, high = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), 0.0, 0.0
            lettered = []
        elif op == "ET":
            if lettered and marks.every_path:  # the letters are the clip from here (PDF 1.7, 9.3.6): their boxes
                pen.clips = (*pen.clips, [[(x0, y0), (x1, y0), (x1, y1), (x0, y1)] for x0, y0, x1, y1 in lettered])
            lettered = []
        elif op == "Tf":
            pen.size = _numbers(operands, 1)[0]
            pen.font = _named(resources, "/Font", operands[0]) if operands else None
            pen.widest = _widest(pen.font)
        elif op in ("Tc", "Tw", "Tz", "TL", "Ts", "Tr"):
            value = _numbers(operands, 1)[0]
            if op == "Tr":
                pen.render = int(value)
            else:
                setattr(pen, {"Tc": "spacing", "Tw": "words", "Tz": "scale", "TL": "leading", "Ts": "rise"}[op],
                        value / 100 if op == "Tz" else value)
        elif op in ("Td", "TD", "Tm", "T*"):
            if op == "Tm":
                line = tuple(_numbers(operands, 6))  # type: ignore[assignment]
            else:
                tx, ty = _numbers(operands, 2) if op != "T*" else (0.0, -pen.leading)
                pen.leading = -ty if op == "TD" else pen.leading
                line = _multiply((1.0, 0.0, 0.0, 1.0, tx, ty), line)
            low = high = 0.0
        elif op in SHOWS:
            if op in ("'", '"'):
                if op == '"':
                    pen.words, pen.spacing = _numbers(operands[:2], 2)
                line, low, high = _multiply((1.0, 0.0, 0.0, 1.0, 0.0, -pen.leading), line), 0.0, 0.0
            shown = operands if op == "TJ" else operands[-1:]
            text, low, high = _shown(shown, pen, line, low, high)
            if pen.render >= 4:
                lettered.append(text)
            marks.add(text, pen, pen.fill if pen.render in (0, 2, 4, 6) else None, phrase("text"))
            marks.add(text, pen, pen.stroke if pen.render in (1, 2, 5, 6) else None, phrase("text"))
            if pen.font is not None and pen.render not in (3, 7):  # (invisible text, a clip alone: nothing painted)
                marks.add(text, pen, _glyph_tint(pen.font, shown, marks, depth),
                          phrase("text in a Type 3 font whose glyphs paint in it"))
        elif op == "Do" and operands:
            _placed_xobject(resources, operands[0], pen.copy(), marks, depth)
        elif op == "INLINE IMAGE":
            _placed_image(_Inline(operands, resources), "(inline)", pen, marks)
        elif op == "sh" and operands:
            shading = _named(resources, "/Shading", operands[0])
            if shading is not None and _registration(shading.get_object().get("/ColorSpace")):
                marks.add(pen.clip, pen, _shading_tint(shading.get_object()),
                          phrase("the gradient {name}", name=operands[0]))


#: How far past the end of a segment a projecting square cap reaches, in half line widths, at most in x or y: its
#: corners lie one half width along the line and one across it, so up to the square root of two in either axis.
SQUARE_CAP_REACH = math.sqrt(2)


def _reach(pen: _Pen, joins: bool) -> float:
    """How far a stroke reaches past the box of its subpath's points, in half line widths, in x or y (PDF 1.7,
    8.5.3.2-8.5.3.3, Table 52): a butt or round cap, a round or bevel join, one; a projecting square cap, its
    corner (SQUARE_CAP_REACH); a miter join (of a subpath that has one), its spike: its tip lies 1 / sin(angle / 2)
    half widths from the join's point, and a miter longer than the miter limit is bevelled (PDF 1.7, 8.4.3.5), so
    the limit's number of half widths at most. Without this, a sharp
    corner of a line in the registration colour that stopped 1 pt outside the cut reached 5.5 pt into it
    (Ghostscript) and was taken as outside."""
    return max(1.0, SQUARE_CAP_REACH if pen.cap == 2 else 1.0, pen.limit if joins and pen.join == 0 else 1.0)


def _line_state(state: Any, pen: _Pen) -> None:
    """A graphics state (gs) sets the line width, cap, join and miter limit as w, J, j and M do (/LW, /LC, /LJ, /ML;
    PDF 1.7 Table 58)."""
    if state is None:
        return
    state = state.get_object()
    if "/LW" in state:
        pen.width = abs(float(state["/LW"]))
    if "/LC" in state:
        pen.cap = int(state["/LC"])
    if "/LJ" in state:
        pen.join = int(state["/LJ"])
    if "/ML" in state:
        pen.limit = abs(float(state["/ML"]))


def _sets_registration(resources: Any, name: Any, marks: _Marks, depth: int) -> bool:
    """Whether the colour space (cs, CS) or the pattern (scn, SCN) `name` names is, or fills with, the registration
    colour: a Pattern space over it (an uncoloured tiling pattern's), a gradient in it, a tiling pattern whose tile
    paints in it."""
    if not str(name).startswith("/"):
        return False
    space = _space(resources, name)
    return _registration(space) or _pattern_over_registration(space) or \
        _pattern_tint(resources, name, marks, depth, None) is not None


def _pattern_over_registration(space: Any) -> bool:
    """Whether `space` is a Pattern colour space whose underlying space is the registration colour (PDF 1.7,
    8.7.3.3: an uncoloured tiling pattern is painted in the colour `scn` gives in that space)."""
    space = space.get_object() if space is not None else None
    return isinstance(space, list) and len(space) >= 2 and str(space[0]) == "/Pattern" and \
        _registration(space[1].get_object())


def _shown(operands: list[Any], pen: _Pen, line: tuple[float, ...], low: float,
           high: float) -> tuple[_Box, float, float]:
    """The box text shown by Tj, TJ, ' or " covers on the page, and the range where the next text starts along the
    line (`low`, `high`: where this starts, in the line's space). Each code is taken as a glyph as wide as the
    font's widest (pen.widest, in ems), with its character and word spacing (PDF 1.7, 9.4.4), a TJ number moving
    the text exactly; the box reaches GLYPH_BEFORE, GLYPH_BELOW, GLYPH_ABOVE ems around: bounds, not outlines."""
    from pypdf.generic import ArrayObject

    scale, size = pen.scale, pen.size
    glyph = sorted((0.0, pen.widest * size * scale))
    spacing = (abs(pen.spacing) + abs(pen.words)) * abs(scale)
    start, end = low, high
    items: list[Any] = []
    for operand in operands:
        items.extend(operand if isinstance(operand, ArrayObject) else [operand])
    for item in items:
        if isinstance(item, (int, float)):
            move = -float(item) / 1000 * size * scale
            low, high = low + move, high + move
        else:
            codes = _codes(item)
            low, high = low + codes * (glyph[0] - spacing), high + codes * (glyph[1] + spacing)
        start, end = min(start, low), max(end, high)
    em, across = abs(size), abs(size * scale)
    box = (start - GLYPH_BEFORE * across, pen.rise - GLYPH_BELOW * em, end + GLYPH_BEFORE * across,
           pen.rise + GLYPH_ABOVE * em)
    return _placed_box(box, _multiply(line, pen.ctm)), low, high


def _codes(string: Any) -> int:
    """How many codes a string operand holds, at most (a code is one byte or more): the scanner's token as written
    (`(...)`, `<...>`), or pypdf's string."""
    from pypdf.generic import ByteStringObject, TextStringObject

    if isinstance(string, (TextStringObject, ByteStringObject)):
        return len(string.original_bytes)
    if not isinstance(string, bytes):
        return len(string)
    if string.startswith(b"<"):
        return -(-len(bytes(c for c in string[1:-1] if chr(c) in "0123456789abcdefABCDEF")) // 2)
    return max(0, len(string) - 2)


def _widest(font: Any) -> float:
    """The widest glyph of a font, in ems, at least one: its /Widths (a simple font's, in thousandths; a Type 3
    font's through its /FontMatrix), or its descendant's /W and /DW (a composite font's)."""
    if font is None:
        return 1.0
    font = font.get_object()
    widths: list[float] = []
    if "/Widths" in font:
        widths = [float(v) for v in font["/Widths"].get_object()]
        if str(font.get("/Subtype")) == "/Type3":
            matrix = [float(v) for v in font.get("/FontMatrix", (0.001, 0, 0, 0.001, 0, 0))]
            widths = [w * abs(matrix[0]) * 1000 for w in widths]
    elif font.get("/DescendantFonts"):
        descendant = font["/DescendantFonts"].get_object()[0].get_object()
        widths = [float(descendant.get("/DW", 1000))]
        found = [entry.get_object() for entry in descendant.get("/W", ())]
        at = 0
        while at + 1 < len(found):  # `c [w1 w2 ...]` or `c_first c_last w` (PDF 1.7, 9.7.4.3)
            if isinstance(found[at + 1], list):
                widths += [float(v) for v in found[at + 1]]
                at += 2
            else:
                widths += [float(found[at + 2])] if at + 2 < len(found) else []
                at += 3
    return max([1.0] + [abs(w) / 1000 for w in widths])


def _pattern_tint(resources: Any, name: Any, marks: _Marks, depth: int, tint: float | None) -> float | None:
    """The registration colour's highest tint a pattern fills with (`/P0 scn`), or None where it paints none: a
    gradient in it; a coloured tiling pattern whose tile paints in it (_tile_tint); an uncoloured tiling pattern
    set in a Pattern space over it, at `tint` (the tint given with its name; None in another space)."""
    pattern = _named(resources, "/Pattern", name)
    if pattern is None:
        return None
    pattern = pattern.get_object()
    if int(pattern.get("/PatternType", 0)) == 1:
        if int(pattern.get("/PaintType", 1)) == 2:
            return None if tint is None else min(1.0, max(0.0, tint))
        return _tile_tint(pattern, resources, marks, depth)
    if int(pattern.get("/PatternType", 0)) != 2:
        return None
    shading = pattern.get("/Shading")
    if shading is None or not _registration(shading.get_object().get("/ColorSpace")):
        return None
    return _shading_tint(shading.get_object())


def _tile_tint(pattern: Any, resources: Any, marks: _Marks, depth: int) -> float | None:
    """The highest tint of the registration colour a coloured tiling pattern's tile paints (its drawing followed as
    a form's, clipped to its /BBox), or None: it paints none. The tile repeats over all that the pattern fills, so
    what it fills is taken as painted in the registration colour at that tint (a box, as elsewhere: where the
    tiles' own marks fall between the repeats is not worked out). Each pattern followed once a page."""
    where = getattr(pattern, "indirect_reference", None)
    key = None if where is None else (int(where.idnum), int(where.generation))
    if key is not None and key in marks.tiles:
        return marks.tiles[key]
    bbox = [float(v) for v in pattern.get("/BBox", (0, 0, 0, 0))]
    pen = _Pen((min(bbox[0], bbox[2]), min(bbox[1], bbox[3]), max(bbox[0], bbox[2]), max(bbox[1], bbox[3])))
    tint = _own_tint(pattern, pattern.get("/Resources") or resources, pen, marks, depth + 1)
    if key is not None:
        marks.tiles[key] = tint
    return tint


def _own_tint(contents: Any, resources: Any, pen: _Pen, marks: _Marks, depth: int) -> float | None:
    """The highest tint of the registration colour a drawing of its own (a tiling pattern's tile, a Type 3 glyph)
    paints, followed apart from the page's pieces, or None: it paints none."""
    pieces, marks.pieces, trim, marks.trim = marks.pieces, [], marks.trim, None
    try:
        _follow(contents, resources, pen, marks, depth)
        own = marks.pieces
    finally:
        marks.pieces, marks.trim = pieces, trim
    return max((tint for _box, tint, _what in own), default=None)


#: A Type 3 glyph's drawing that begins with `d1` (its width and box): a glyph of one colour, which PDF 1.7 (9.6.5)
#: says "shall not" set colours: it is painted in the text's fill colour, any colour operators in it ignored.
_D1 = re.compile(rb"\s*(?:%[^\r\n]*\s*)*(?:[-+.0-9]+\s+){6}d1(?![^\s\[\]()<>{}/%])")


def _glyphs_in_registration(resources: Any) -> bool:
    """Whether a drawing's resources hold a Type 3 font whose glyphs may paint in the registration colour (its own
    resources name it as a colour space, or a Pattern space over it): text in it is then followed glyph by glyph."""
    fonts = resources.get("/Font")
    for font in (fonts.get_object().values() if fonts is not None else ()):
        font = font.get_object()
        if str(font.get("/Subtype")) == "/Type3" and _names_registration(font.get("/Resources")):
            return True
    return False


def _names_registration(resources: Any) -> bool:
    """Whether resources name the registration colour as a colour space (or a Pattern space over it)."""
    resources = resources.get_object() if resources is not None else None
    spaces = resources.get("/ColorSpace") if resources is not None else None
    return any(_registration(space) or _pattern_over_registration(space)
               for space in (spaces.get_object().values() if spaces is not None else ()))


def _glyph_tint(font: Any, shown: list[Any], marks: _Marks, depth: int) -> float | None:
    """The highest tint of the registration colour the glyphs of a Type 3 font that text shows (`shown`: Tj's
    string, TJ's array) paint with colours of their own (glyphs beginning with d0; PDF 1.7, 9.6.5), or None: it is
    not a Type 3 font, or they paint none. A glyph in the text's own fill colour is the text's box painted in it,
    followed as text is. Each code through the font's /Encoding /Differences to its glyph's name, its drawing in
    /CharProcs; each glyph followed once a page."""
    from pypdf.generic import ArrayObject

    font = font.get_object()
    if str(font.get("/Subtype")) != "/Type3" or not _names_registration(font.get("/Resources")):
        return None
    encoding = font.get("/Encoding")
    encoding = encoding.get_object() if encoding is not None else None
    names: dict[int, str] = {}
    code = 0
    for item in (encoding.get("/Differences", ()) if isinstance(encoding, dict) else ()):
        item = item.get_object() if hasattr(item, "get_object") else item
        if isinstance(item, (int, float)):
            code = int(item)
        else:
            names[code], code = str(item), code + 1
    procs = font.get("/CharProcs")
    procs = procs.get_object() if procs is not None else {}
    codes: set[int] = set()
    for operand in shown:
        for item in (operand if isinstance(operand, ArrayObject) else [operand]):
            if not isinstance(item, (int, float)):
                codes.update(_string_bytes(item))
    highest: float | None = None
    for code in sorted(codes):
        glyph = procs.get(names.get(code, ""))
        if glyph is None:
            continue
        glyph = glyph.get_object()
        where = getattr(glyph, "indirect_reference", None)
        key = None if where is None else (int(where.idnum), int(where.generation))
        if key is not None and key in marks.glyphs:
            tint = marks.glyphs[key]
        else:
            tint = None if _D1.match(glyph.get_data()) else _own_tint(
                glyph, font.get("/Resources"), _Pen((-1e9, -1e9, 1e9, 1e9)), marks, depth + 1)
            if key is not None:
                marks.glyphs[key] = tint
        if tint is not None and (highest is None or tint > highest):
            highest = tint
    return highest


#: What a backslash in a literal string stands for (PDF 1.7, 7.3.4.2, Table 3); an octal code and a line's end
#: are read apart.
_ESCAPES = {ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("b"): 8, ord("f"): 12}


def _string_bytes(string: Any) -> bytes:
    """The bytes of a string operand: pypdf's string's own, or the scanner's token (`(...)` with its escapes, or
    `<...>` in hex, PDF 1.7 7.3.4)."""
    from pypdf.generic import ByteStringObject, TextStringObject

    if isinstance(string, (TextStringObject, ByteStringObject)):
        return bytes(string.original_bytes)
    token = bytes(string) if isinstance(string, (bytes, bytearray)) else str(string).encode("latin-1")
    if token.startswith(b"<"):
        digits = bytes(c for c in token[1:-1] if chr(c) in "0123456789abcdefABCDEF")
        return bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode("ascii"))
    if not token.startswith(b"("):
        return token
    body, out, at = token[1:-1], bytearray(), 0
    while at < len(body):
        byte = body[at]
        at += 1
        if byte != 0x5C or at >= len(body):  # (a backslash)
            out.append(byte)
            continue
        escaped = body[at]
        at += 1
        if 0x30 <= escaped <= 0x37:  # up to three octal digits
            digits = bytes([escaped])
            while len(digits) < 3 and at < len(body) and 0x30 <= body[at] <= 0x37:
                digits += bytes([body[at]])
                at += 1
            out.append(int(digits, 8) & 0xFF)
        elif escaped in (10, 13):  # a line's end after a backslash: nothing
            at += 1 if escaped == 13 and at < len(body) and body[at] == 10 else 0
        else:
            out.append(_ESCAPES.get(escaped, escaped))
    return bytes(out)


def _shading_tint(shading: Any) -> float:
    """The highest tint of a gradient in the registration colour (its function or its vertices evaluated as the
    ink measure does; full tint where it cannot be)."""
    from generator.prepress import functions

    def every_plate(tints: list[float]) -> list[float]:
        return [tints[0]] * 4

    try:
        kind = int(shading.get("/ShadingType", 0))
        if kind in (4, 5, 6, 7):
            return _mesh_ink(shading, every_plate) / 4
        if kind in (1, 2, 3) and shading.get("/Function") is not None:
            return _function_ink(shading, kind, every_plate) / 4
    except (functions.Unmeasured, ArithmeticError, ValueError, TypeError, KeyError, IndexError):
        pass
    return 1.0


def _placed_xobject(resources: Any, name: Any, pen: _Pen, marks: _Marks, depth: int) -> None:
    """A form (its drawing followed in its matrix, clipped to its /BBox) or a picture placed by Do."""
    xobject, subtype, pen.ctm = _done(resources, name, pen.ctm)
    if subtype == "/Form":
        bbox = [float(v) for v in xobject.get("/BBox", ())]
        if len(bbox) == 4:
            box = _placed_box((min(bbox[0], bbox[2]), min(bbox[1], bbox[3]), max(bbox[0], bbox[2]),
                               max(bbox[1], bbox[3])), pen.ctm)
            pen.clip = _intersect(pen.clip, box) or (0.0, 0.0, -1.0, -1.0)
            if marks.every_path:
                x0, y0, x1, y1 = bbox
                pen.clips = (*pen.clips, [[_placed_point(pen.ctm, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1),
                                                                                       (x0, y1))]])
        _follow(xobject, xobject.get("/Resources") or resources, pen, marks, depth + 1)
    elif subtype == "/Image":
        _placed_image(xobject, name, pen, marks)


def _placed_image(image: Any, name: Any, pen: _Pen, marks: _Marks) -> None:
    """A picture (the unit square in the transformation in force): a stencil painted in the registration colour
    (the fill), or a picture in it, at its highest tint (its samples read as the ink measure reads them; full
    tint where they cannot be)."""
    from generator.prepress import functions

    box = _placed_box((0.0, 0.0, 1.0, 1.0), pen.ctm)
    if marks.every_path and not image.get("/ImageMask"):
        # what shows of the picture: its placed square cut to the outline of each clip in force
        shown = seen_within([_placed_point(pen.ctm, x, y) for x, y in ((0, 0), (1, 0), (1, 1), (0, 1))], pen.clips)
        seen = _intersect((min(p[0] for p in shown), min(p[1] for p in shown), max(p[0] for p in shown),
                           max(p[1] for p in shown)), pen.clip) if shown else None
        if seen is not None:
            marks.pictures.append((seen, str(name)))
    if image.get("/ImageMask"):
        marks.add(box, pen, pen.fill, phrase("the stencil picture {name}", name=name))
        return
    space = image.get("/ColorSpace")
    if not _registration(space.get_object() if space is not None else None):
        return
    try:
        decode = [float(v) for v in image.get("/Decode", (0, 1))]
        samples, top = _sample_bytes(image, 1)  # every pixel (16 bits: up to 65 536 tints), in numpy
        tint = _highest_pixel(samples, 1, top, decode)[0]
    except (functions.Unmeasured, ArithmeticError, ValueError, TypeError, KeyError, IndexError):
        tint = 1.0
    marks.add(box, pen, tint, phrase("the picture {picture}", picture=name))


def _ink(result: Preflight, percent: float, number: int, what: str) -> None:
    """`percent` total ink in `what` (a colour, a picture, in the language of the messages) on page `number`."""
    if percent > result.ink[0] + 1e-9:
        # TRANSLATORS: where a file's highest total ink is: its page, and what has it (a colour, a picture)
        result.ink = (percent, phrase("page {page}, {what}", page=str(number), what=what))
    limit = result.service.ink_limit
    if limit is not None and percent > limit + 0.5:
        if not any(f.rule == "ink_limit" and f.page == number for f in result.findings):
            result.add(number, "ink_limit", phrase("{percent} % total ink ({what}), over the {limit} % {service} "
                                                   "allows", percent=format(percent, ".0f"), what=what,
                                                   limit=format(limit, "g"), service=result.service.name),
                       code="ink-over-limit")


def _safe_pictures(result: Preflight, pages: list[Any], cuts: list[tuple[float, _Box, bool]],
                   pictures: dict[int, list[tuple[_Box, str]]], parsed: dict[tuple[int, int], list[Any]],
                   placed: dict[tuple[int, int], list[Any]]) -> None:
    """Every picture inside the cut that comes into the safe margin: warned, since what a PDF cannot tell is which
    art is key. A picture reaching the cut or past it is art meant to run into the bleed (a background, a frame),
    and is not one. A picture's placed box (the page's walk) may be larger than what shows of it: where it comes
    into the margin, the page is walked again with the clip in force (_clipped_pictures, the walk _marks makes),
    and the part of the box inside the clip's outline is measured (a word used as a clip by its letters' boxes);
    where that walk cannot follow the page, the placed box is, and the warning says so."""
    service = result.service
    for number, (unit, trim, guessed) in enumerate(cuts, start=1):
        safe = service.safe / unit
        inner = (trim[0] + safe, trim[1] + safe, trim[2] - safe, trim[3] - safe)
        shown = pictures.get(number, [])
        if all(_within(box, inner, TOLERANCE / unit) for box, _name in shown):
            continue  # every picture's placed box is inside the safe area: no clip can bring one out of it
        # a placed box past the cut may be clipped to a box inside the margin (art cropped to a frame): the clip
        # is followed for it too
        clipped = _clipped_pictures(pages[number - 1], trim, parsed, placed)
        unclipped = clipped is None
        found = [(box, name) for box, name in shown if _in_margin(box, trim, unit, service)] if clipped is None \
            else [(box, result.picture(name)) for box, name in clipped if _in_margin(box, trim, unit, service)]
        for box, name in found:
            distance = min(box[0] - trim[0], box[1] - trim[1], trim[2] - box[2], trim[3] - box[3]) * unit
            where = phrase(", the cut taken {bleed} inside the page's edge", bleed=_mm(service.bleed)) \
                if guessed else ""
            how = phrase(" (the box it is placed in: its clip could not be followed)") if unclipped else ""
            short = phrase("; if it is meant to run into the bleed, it stops short of the cut and a thin line of what "
                           "lies under it shows there") if distance < SHORT_OF_CUT else ""
            result.add(number, "safe", phrase("the picture {picture} comes {distance} from the cut{how}, inside the "
                                              "safe margin of {safe}{where}{short}", picture=name,
                                              distance=_mm(distance), how=how, safe=_mm(service.safe), where=where,
                                              short=short), code="safe-picture", refuse=False)


def _within(box: _Box, area: _Box, slack: float) -> bool:
    return box[0] >= area[0] - slack and box[1] >= area[1] - slack and box[2] <= area[2] + slack \
        and box[3] <= area[3] + slack


def _in_margin(box: _Box, trim: _Box, unit: float, service: Service) -> bool:
    """Whether a picture's box (in the page's units) lies inside the cut and comes into its safe margin."""
    x0, y0, x1, y1 = box
    if x1 - x0 <= 0 or y1 - y0 <= 0:
        return False
    edge = TOLERANCE / unit
    if x0 <= trim[0] + edge or y0 <= trim[1] + edge or x1 >= trim[2] - edge or y1 >= trim[3] - edge:
        return False  # it reaches the cut: art running into the bleed
    return min(x0 - trim[0], y0 - trim[1], trim[2] - x1, trim[3] - y1) * unit < service.safe - TOLERANCE


def _clipped_pictures(page: Any, trim: _Box, parsed: dict[tuple[int, int], list[Any]],
                      placed: dict[tuple[int, int], list[Any]]) -> list[tuple[_Box, str]] | None:
    """Each picture the page paints, by the part of its placed box inside the clip's box in force (the walk of
    _marks, every drawing's paths read); None where that walk cannot follow the page."""
    from generator.prepress import functions

    marks = _Marks(parsed, placed, trim)
    marks.every_path = True
    try:
        _follow(page.get_contents(), page.get("/Resources"), _Pen(_box(page, "mediabox")), marks, 0)
    except (_Unfollowed, functions.Unmeasured, ArithmeticError, ValueError, TypeError, KeyError, IndexError,
            AttributeError):
        return None
    return marks.pictures


#: A picture this near the cut and no nearer (1 mm, in points) is art drawn to a card's edge more likely than art
#: meant to sit inside it: its warning says that if it was meant to run into the bleed, it stops short of the cut
#: (a card whose size the cut rounds up, art drawn without its bleed).
SHORT_OF_CUT = 72 / 25.4
#: A path smaller than this both ways, in points (1 mm), is a speck of a texture (a starfield's dots on a back), not
#: something a reader needs whole: not measured against the safe margin (_safe_shapes). A letter drawn as outlines
#: at the 5 pt a layout allows is larger.
SPECK = 72 / 25.4
#: How deep forms inside forms are followed for the paths they paint (_painted_paths).
MAX_SHAPE_DEPTH = 15
#: How near each edge of the cut a shape lies to go round the card (a frame), in safe margins (_frame).
FRAME = 2
#: The page objects (paths, forms, text, pictures) a page's shapes are looked for among: a page of outlined text has
#: a path a letter (some 300 a card), some 200,000 are read a second; past this, the rest are not measured (warned).
MAX_SHAPE_OBJECTS = 50_000
_Affine = tuple[float, float, float, float, float, float]


def _painted_paths(page: Any, inner: _Box | None = None) -> tuple[list[_Box], bool]:
    """The box of every path a page paints (pdfium's page objects: its bounds, a stroke's width included), within
    the clip in force, in the page's default space, forms followed through their matrices: vector art, icons, lines,
    each letter of text drawn as outlines, and gradients painted with `sh` over the shape they are clipped to (how
    donjon and many tools fill a shape with a gradient; pdfium's bounds for one are its clip's box); and whether
    every object was read (MAX_SHAPE_OBJECTS). A path filled with a pattern (tiles or a gradient) is a path: what
    it paints is its shape.

    The clip is what a designer's shape cropped to the card leaves drawn (a large circle clipped to a panel, art in
    a round or turned frame): the path's box, as placed on the page, is cut to the outline of its clip and of the
    clips of the forms it is drawn in (generator.render.shapes.seen_within, curves followed in CURVE_PIECES
    segments), as the PNG services' check measures a clipped group: the corners of a round or turned clip's box,
    which show nothing, are not measured. A clip of text, which pdfium gives no path for, is not narrowed to (a
    path shown through letters is measured by its box). A path whose box lies within `inner` (the safe area)
    cannot come into the margin whatever its clip: its clip is not read.

    Read through pdfium's own calls, not pypdfium2's object per page object: a page of text as outlines has a path
    a letter, and wrapping each was a third of the time an export for MB PRINT spends on its preflight."""
    import ctypes
    from functools import partial

    import pypdfium2.raw as raw

    boxes: list[_Box] = []
    budget = [MAX_SHAPE_OBJECTS]
    left, bottom, right, top = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    matrix = raw.FS_MATRIX()
    path, form_kind, shading = raw.FPDF_PAGEOBJ_PATH, raw.FPDF_PAGEOBJ_FORM, raw.FPDF_PAGEOBJ_SHADING
    kind_of, bounds, matrix_of = raw.FPDFPageObj_GetType, raw.FPDFPageObj_GetBounds, raw.FPDFPageObj_GetMatrix
    ix0, iy0, ix1, iy1 = inner if inner is not None else (math.inf, math.inf, -math.inf, -math.inf)

    def clip_of(obj: Any) -> list[list[list[tuple[float, float]]]] | None:
        """The clip an object is drawn within, in its own content's space: each clip path (all of them in force
        at once) as its subpaths' polygons, curves followed in CURVE_PIECES segments; None: no clip narrows it."""
        clip = raw.FPDFPageObj_GetClipPath(obj)
        if not clip:
            return None
        found: list[list[list[tuple[float, float]]]] = []
        for number in range(max(raw.FPDFClipPath_CountPaths(clip), 0)):
            rings: list[list[tuple[float, float]]] = []
            curve: list[tuple[float, float]] = []
            for index in range(max(raw.FPDFClipPath_CountPathSegments(clip, number), 0)):
                segment = raw.FPDFClipPath_GetPathSegment(clip, number, index)
                if not segment or not raw.FPDFPathSegment_GetPoint(segment, left, bottom):
                    continue
                point = (left.value, bottom.value)
                kind = raw.FPDFPathSegment_GetType(segment)
                if kind == raw.FPDF_SEGMENT_MOVETO or not rings:
                    rings.append([point])
                elif kind == raw.FPDF_SEGMENT_BEZIERTO:
                    curve.append(point)
                    if len(curve) == 3:  # two control points and the end: the curve followed in pieces
                        start = rings[-1][-1]
                        rings[-1] += [_curve_point((start, curve[0], curve[1], curve[2]), step / CURVE_PIECES)
                                      for step in range(1, CURVE_PIECES + 1)]
                        curve = []
                else:
                    rings[-1].append(point)
            if rings:  # (a sub-path with no points read narrows nothing)
                found.append(rings)
        return found or None

    def placed(rings: list[list[tuple[float, float]]], m: _Affine) -> list[list[tuple[float, float]]]:
        return [[_placed_point(m, x, y) for x, y in ring] for ring in rings]

    def walk(count: int, get: Callable[[int], Any], m: _Affine, depth: int,
             outer: list[list[list[tuple[float, float]]]]) -> None:
        a, b, c, d, e, f = m
        straight = b == 0 and c == 0  # scaled and moved, not turned: two corners place the box
        for index in range(count):
            budget[0] -= 1
            if budget[0] < 0:
                return
            obj = get(index)
            if not obj:
                continue
            kind = kind_of(obj)
            if kind == path or kind == shading:  # a gradient painted by `sh` fills its clip: pdfium's bounds
                if not bounds(obj, left, bottom, right, top):
                    continue  # a path pdfium gives no bounds for paints nothing it can place
                x0, y0, x1, y1 = left.value, bottom.value, right.value, top.value
                if straight:
                    px0, px1, py0, py1 = a * x0 + e, a * x1 + e, d * y0 + f, d * y1 + f
                    box = (min(px0, px1), min(py0, py1), max(px0, px1), max(py0, py1))
                else:
                    box = _placed_box((x0, y0, x1, y1), m)
                if box[0] >= ix0 and box[1] >= iy0 and box[2] <= ix1 and box[3] <= iy1:
                    boxes.append(box)  # inside the safe area: no clip brings it out
                    continue
                clip = clip_of(obj)
                if clip is None and not outer:
                    boxes.append(box)
                    continue
                # the path's box cut to the outline of each clip in force (its own, its forms'), on the page
                window = [_placed_point(m, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
                shown = seen_within(window, [*(placed(rings, m) for rings in clip or ()), *outer])
                if shown:  # (else clipped away: nothing drawn)
                    boxes.append((min(p[0] for p in shown), min(p[1] for p in shown), max(p[0] for p in shown),
                                  max(p[1] for p in shown)))
            elif kind == form_kind and depth < MAX_SHAPE_DEPTH and matrix_of(obj, matrix):
                clip = clip_of(obj)  # in force over all the form draws, in the space the form is placed in
                within = outer if clip is None else [*outer, *(placed(rings, m) for rings in clip)]
                inner_m = _multiply((matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f), m)
                walk(raw.FPDFFormObj_CountObjects(obj), partial(raw.FPDFFormObj_GetObject, obj), inner_m, depth + 1,
                     within)

    handle = page.raw
    walk(max(raw.FPDFPage_CountObjects(handle), 0), partial(raw.FPDFPage_GetObject, handle),
         (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), 0, [])
    return boxes, budget[0] >= 0


def _frame(box: _Box, trim: _Box, unit: float, safe: float) -> bool:
    """Whether a shape goes round the card, as a frame, a border or a round token's disc do: it lies near each of
    the four edges of the cut, within twice the safe margin (`safe`, in points; a frame drawn just inside the
    margin comes into it at the edges the cut's rounding brings closer, not at all four). A large emblem in the
    middle reaching into the margin at one edge is far from the others, and is measured."""
    return max(box[0] - trim[0], box[1] - trim[1], trim[2] - box[2], trim[3] - box[3]) * unit < FRAME * safe


def _safe_shapes(result: Preflight, number: int, painted: tuple[list[_Box], bool], unit: float, trim: _Box,
                 where: str) -> None:
    """The paths a page paints inside the cut that come into the safe margin, warned as pictures are, in one
    finding: a PDF cannot tell an icon, a line or text drawn as outlines from a frame meant to sit near the edge.
    A path reaching the cut is a background or art running into the bleed, one near all four edges goes round the
    card (a frame, a border, the disc a round token is drawn on: _frame), and a speck (SPECK)
    is a texture's (a starfield's dots): none is measured."""
    service = result.service
    shapes, whole = painted
    if not whole:
        result.add(number, "safe", phrase("more than {count} objects on the page: the shapes past them are not "
                                          "measured against the safe margin", count=phrase_number(MAX_SHAPE_OBJECTS)),
                   code="safe-shapes-unmeasured", refuse=False)
    near = sorted((min(b[0] - trim[0], b[1] - trim[1], trim[2] - b[2], trim[3] - b[3]) * unit, b)
                  for b in shapes if _in_margin(b, trim, unit, service)
                  and not _frame(b, trim, unit, service.safe)
                  and ((b[2] - b[0]) * unit >= SPECK or (b[3] - b[1]) * unit >= SPECK))
    if near:
        # where the nearest lies, from the cut's top left corner as a designer's tool measures it (y down): a
        # shape has no name in a PDF to find it by
        distance, (x0, y0, x1, y1) = near[0]
        mm = unit / 72 * 25.4
        across = f"{phrase_figure((x0 - trim[0]) * mm, '.1f')}-{phrase_figure((x1 - trim[0]) * mm, '.1f')}"
        down = f"{phrase_figure((trim[3] - y1) * mm, '.1f')}-{phrase_figure((trim[3] - y0) * mm, '.1f')}"
        result.add(number, "safe", phrase_n(
            "{n} shape drawn as paths (vector art, an icon, a line, text as outlines, a gradient) comes into the safe "
            "margin of {safe}{where}, the nearest {distance} from the cut (x {across} mm, y {down} mm from the cut's "
            "top left corner)",
            "{n} shapes drawn as paths (vector art, an icon, a line, text as outlines, a gradient) come into the safe "
            "margin of {safe}{where}, the nearest {distance} from the cut (x {across} mm, y {down} mm from the cut's "
            "top left corner)", len(near), safe=_mm(service.safe), where=where, distance=_mm(distance),
            across=across, down=down), code="safe-shapes", refuse=False)


def _safe_text(data: bytes, result: Preflight, cuts: list[tuple[float, _Box, bool]]) -> None:
    """Every character's box inside the cut less the safe margin (pdfium's text page, whose boxes are in the page's
    units: the margin, in points, is given in them). `cuts`: each page's /UserUnit and its cut as the box checks read
    it (_cut: the TrimBox, else the ArtBox), not pdfium's TrimBox, which is the CropBox beside an ArtBox and reads a
    box of three numbers with a 0 for the fourth."""
    from generator.pdfium_lock import pdf_document

    service = result.service
    with pdf_document(data) as document:  # pdfium one call at a time; its pages and text pages closed with it
        for index in range(len(document)):
            page = document[index]
            unit, trim, guessed = cuts[index] if index < len(cuts) else (1.0, page.get_trimbox(), False)
            safe = service.safe / unit
            left, bottom, right, top = trim[0] + safe, trim[1] + safe, trim[2] - safe, trim[3] - safe
            text = page.get_textpage()
            outside = 0
            for i in range(text.count_chars()):
                x0, y0, x1, y1 = text.get_charbox(i)
                if x1 - x0 <= 0 and y1 - y0 <= 0:
                    continue  # spaces and line ends have no box
                if x0 < left - TOLERANCE or y0 < bottom - TOLERANCE or x1 > right + TOLERANCE or y1 > top + TOLERANCE:
                    outside += 1
            # the report's line says the finding for every page it is on: without each page's count (`grouped`)
            safe_area = {"safe": _mm(service.safe), "bleed": _mm(service.bleed)}
            if outside and guessed:  # a cut no box states: a guess, which warns
                result.add(index + 1, "safe", phrase_n(
                    "{n} character of text outside the safe area ({safe} inside the cut, taken {bleed} inside the "
                    "page's edge as no TrimBox says where it is)", "{n} characters of text outside the safe area "
                    "({safe} inside the cut, taken {bleed} inside the page's edge as no TrimBox says where it is)",
                    outside, **safe_area), code="safe-text", refuse=False, grouped=phrase(
                    "characters of text outside the safe area ({safe} inside the cut, taken {bleed} inside the "
                    "page's edge as no TrimBox says where it is)", **safe_area))
            elif outside:
                result.add(index + 1, "safe", phrase_n(
                    "{n} character of text outside the safe area ({safe} inside the cut)",
                    "{n} characters of text outside the safe area ({safe} inside the cut)", outside, **safe_area),
                    code="safe-text", grouped=phrase("characters of text outside the safe area ({safe} inside the "
                                                     "cut)", **safe_area))
            if service.text == "outlines" and text.count_chars():
                result.add(index + 1, "text", phrase_n(
                    "{n} character of text in fonts; {service} asks for text converted to outlines",
                    "{n} characters of text in fonts; {service} asks for text converted to outlines",
                    text.count_chars(), service=service.name), code="text-not-outlined", grouped=phrase(
                    "characters of text in fonts; {service} asks for text converted to outlines",
                    service=service.name))
            text.close()
            _safe_shapes(result, index + 1, _painted_paths(page, (left, bottom, right, top)), unit, trim,
                         phrase(", the cut taken {bleed} inside the page's edge", bleed=_mm(service.bleed))
                         if guessed else "")
            page.close()
