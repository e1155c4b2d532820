"""`donjon export dtc`: one PDF per deck for DriveThruCards, the print-on-demand service of OneBookShelf.

DriveThruCards prints a deck from one PDF whose every page is one side of one card, at the card's size plus 1/8
in of bleed on every side (2.75 x 3.75 in for a poker card), in the page order its partner help states (the
service's `order` in templates/services/drivethrucards.yaml: each card's back, then its front). So, for each deck,
`OUT/dtc/GAME/DECK.pdf` (`OUT/dtc/decks/DECK.pdf` for a deck of your own) holds, for every copy of every card in
deck order, its back page and then its front page (a deck of 54 cards is 108 pages). It wrote the front first,
which the service prints as the back: every card inside out.

The pages are drawn by the same code as the print sheets, as vectors with embedded fonts. The page is the
service's cut (the card's size rounded to the nearest eighth of an inch, as for the PNG presets:
generator.export.geometry) plus the bleed; the card is never scaled, it is centred and its background and
`bleed: true` shapes fill the rest. Each card and each back is drawn once and placed by reference, however many
copies the deck holds, so the file stays small. The PDF is RGB: DriveThruCards asks for CMYK within 240 % of ink in
PDF/X-1a:2003, which `donjon export --service dtc` writes and checks (see generator/export/README.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from generator.backends import write_pages
from generator.catalog.deck import Deck
from generator.content import Content
from generator.export.cards import Prepared, prepare
from generator.export.geometry import PRESETS, Canvas, card_canvas
from generator.export.service import service_pages
from generator.output import atomic_path, inside, transaction
from generator.prepress.services import find_service
from generator.render.model import Page


class DtcDeck(NamedTuple):
    deck: Deck
    path: Path
    pages: int
    #: the page size in inches
    size_in: tuple[float, float]


class DtcReport(NamedTuple):
    decks: list[DtcDeck]
    seconds: float


def deck_file(out: Path, deck: Deck) -> Path:
    return inside(out, "dtc", deck.namespace, f"{deck.id}.pdf")


def deck_pages(prepared: Prepared, canvas: Canvas, progress: Callable[[int], None]) -> Iterator[Page]:
    """Every copy of every card with its back, in DriveThruCards' page order (back, front, back, front...), each
    drawn once per card."""
    return service_pages(prepared, canvas, find_service("drivethrucards").order, progress)


def export_dtc(content: Content, decks: list[Deck], out: Path, progress: Callable[[int], None]) -> DtcReport:
    """Write OUT/dtc/GAME/DECK.pdf for every deck, all in one transaction (none replaced unless all are made)."""
    start = time.perf_counter()
    files = {deck.key: deck_file(out, deck) for deck in decks}
    prepared = prepare(content, decks, {d.key: files[d.key].parent for d in decks}, reserved=None)
    report = []
    with transaction(out):  # every deck's file, or none
        for p in prepared:
            canvas = card_canvas(p.deck.card_size, PRESETS["dtc"])
            target = files[p.deck.key]
            with atomic_path(target, f"the DriveThruCards PDF of {p.deck.key}") as tmp:
                stats = write_pages("pdf", deck_pages(p, canvas, progress), tmp,
                                    title=f"{p.deck.game_name}: {p.deck.name}",
                                    subject="DriveThruCards card deck by donjon: back, front, back, front...")
            report.append(DtcDeck(p.deck, target, stats.pages,
                                  (canvas.px_w / canvas.dpi, canvas.px_h / canvas.dpi)))
    return DtcReport(report, time.perf_counter() - start)
