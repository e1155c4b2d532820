"""`donjon export --service NAME`: exactly the files a print service asks for, named as it asks, then checked.

What each service asks is its profile (generator.prepress.services, `templates/services/NAME.yaml`):

- a **PDF** service gets one PDF per deck, `OUT/print/SERVICE/GAME/FILE` (`OUT/print/SERVICE/decks/FILE` for a deck
  of your own), its name from the profile's `file_name` (`{deck}`: the deck's id; `{width}x{height}`: the card's size
  in millimetres). Every page is one side of one card at the service's cut plus its bleed (TrimBox the cut,
  BleedBox the page), in the service's order: `back-front` (DriveThruCards: the back of card 1, its front, ...),
  `front-back` (MB PRINT), or `faces` (PrintNinja: every printed face, copies repeated, and a back shared by the
  whole deck once at the end). Its colours are those of the profile (CMYK through its ICC profile, ink limit, rich
  black, PDF/X), unless the command line says otherwise.
- an **image** service gets the PNG export at its size (`OUT/print/SERVICE/GAME/DECK/CARD.png`, `back.png`,
  `manifest.csv` with each face's copies).

Every PDF written is then checked by the preflight (generator.prepress.preflight) against the same profile, and its
report is part of the export's: a file the service would refuse is still written, and the command says why and
exits 1.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from generator.backends.pdf import write_pdf
from generator.catalog.deck import Deck
from generator.content import Content
from generator.export.cards import BACK, Prepared, back_of, prepare
from generator.export.geometry import Canvas, Preset, card_canvas
from generator.export.safe_zone import Margin, margins
from generator.export.raster import canvas_page
from generator.output import atomic_path, inside, transaction
from generator.prepress.services import Order, Service
from generator.render.ink import PressSettings
from generator.render.model import Drawing, Page

#: PDF pages are sized at this many steps per inch (the canvas is computed in whole "pixels"): fine enough that the
#: page is the cut plus the bleed to a thousandth of a millimetre, which a page in points holds anyway.
PDF_STEPS = 7200


class ServiceFile(NamedTuple):
    deck: Deck
    path: Path
    pages: int
    #: the page size in inches
    size_in: tuple[float, float]
    #: the picture files embedded as pixels, by XObject name (what the preflight names them by)
    pictures: dict[str, str]
    #: for a service taking text as outlines, the layout boxes closer to its cut than its safe margin
    #: (generator.export.safe_zone): the PDF holds no text to measure, only paths the preflight cannot name
    margins: tuple[Margin, ...] = ()
    #: the own pixels of pictures of SVG art the PDF holds enlarged, by object number (PdfStats.enlarged)
    enlarged: dict[int, tuple[int, int]] = {}


class ServiceReport(NamedTuple):
    service: Service
    files: list[ServiceFile]
    seconds: float


def preset(service: Service) -> Preset:
    """The service's image size as a preset of the PNG export: its dpi, bleed and cut."""
    return Preset(service.id, service.name, service.dpi, service.bleed / 72, service.trim == "eighth-inch")


def file_name(service: Service, deck: Deck) -> str:
    size = deck.card_size
    return service.file_name.format(deck=deck.id, card="{card}", width=f"{size.width_mm:g}", height=f"{size.height_mm:g}")


def deck_file(out: Path, service: Service, deck: Deck) -> Path:
    return inside(out, "print", service.id, deck.namespace, file_name(service, deck))


def service_pages(prepared: Prepared, canvas: Canvas, order: Order, progress: Callable[[int], None]
                  ) -> Iterator[Page]:
    """The pages of one deck in a service's order; each different card and back drawn once and placed by
    reference however many copies the deck holds."""
    number = 0
    shared_back = prepared.drawing(BACK, canvas.bleed) if prepared.uniform else None

    def page(drawing: Drawing) -> Page:
        nonlocal number
        number += 1
        return canvas_page(drawing, canvas, number)

    for index, card in enumerate(prepared.deck.cards):
        front = prepared.drawing(index, canvas.bleed)
        back = shared_back if shared_back is not None else prepared.drawing(back_of(index), canvas.bleed)
        if card.copies > 1:  # placed more than once: drawn once as a reusable object
            front = front._replace(key=front.key or f"card:{card.id}")
            back = back._replace(key=back.key or f"back:{card.id}")
        for _copy in range(card.copies):
            if order == "back-front":
                yield page(back)
                yield page(front)
            elif order == "front-back" or shared_back is None:
                yield page(front)
                yield page(back)
            else:  # faces, with one back for the whole deck: it comes once, after every front
                yield page(front)
            progress(1)
    if order == "faces" and shared_back is not None:
        yield page(shared_back)


def export_pdfs(content: Content, decks: list[Deck], out: Path, service: Service, press: PressSettings,
                progress: Callable[[int], None]) -> ServiceReport:
    """Write each deck's PDF for a PDF service, all in one transaction (none replaced unless all are made)."""
    start = time.perf_counter()
    files = {deck.key: deck_file(out, service, deck) for deck in decks}
    prepared = prepare(content, decks, {d.key: files[d.key].parent for d in decks}, reserved=None)
    report = []
    with transaction(out):
        for p in prepared:
            canvas = card_canvas(p.deck.card_size, preset(service), PDF_STEPS)
            target = files[p.deck.key]
            with atomic_path(target, f"the {service.name} PDF of {p.deck.key}") as tmp:
                stats = write_pdf(service_pages(p, canvas, service.order, progress), tmp,
                                  title=f"{p.deck.game_name}: {p.deck.name}",
                                  subject=f"{service.name} card deck by donjon ({service.order})", ink=press)
            # the layout's boxes in the margin for a service taking text as outlines (the preflight sees unnamed
            # paths); for every service, art drawn to the card's edge that stops short of the cut (the PDF cannot
            # tell art meant to reach the cut from art meant to stop short of it)
            near = tuple(m for m in margins(p, canvas, service) if service.text == "outlines" or m.short)
            report.append(ServiceFile(p.deck, target, stats.pages, (canvas.page_w / 72, canvas.page_h / 72),
                                      stats.pictures, near, stats.enlarged))
    return ServiceReport(service, report, time.perf_counter() - start)
