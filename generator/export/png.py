"""`donjon export png`: one PNG per card face and one of each deck's back, sized for a print service.

For each deck, `OUT/png/GAME/DECK/` holds `CARD.png` for every card (named by its id, made safe), `back.png`
(or, when cards have backs of their own, `backs/CARD.png` for each), and `manifest.csv`: file, id, name and
copies of every image, so an order gets its counts right (the back's copies are the deck's total: one back
behind every card). The folder is replaced whole, only once every deck
of the export is complete (generator.export.staging).
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from generator.catalog.deck import Deck
from generator.content import Content
from generator.export import jobs
from generator.export.cards import Prepared, prepare
from generator.export.geometry import Canvas, Preset, card_canvas
from generator.export.raster import canvas_page, png_bytes, render_pages
from generator.export.resolution import LowPicture, low_pictures
from generator.export.safe_zone import Margin, margins
from generator.output import StagedFolder, inside, staged, transaction
from generator.prepress.services import Service
from generator.wording import spreadsheet_cell

MANIFEST = "manifest.csv"


class PngOptions(NamedTuple):
    preset: Preset
    #: None: the preset's own dpi
    dpi: float | None = None
    jobs: int = 1
    #: the folders below OUT the decks' folders go in: `png`, or `print/SERVICE` for a print service
    folder: tuple[str, ...] = ("png",)
    #: the print service whose safe margin the cards are measured against (generator.export.safe_zone); None: none
    service: Service | None = None


class PngChunk(NamedTuple):
    deck: int
    items: tuple[int, ...]


@dataclass(frozen=True)
class _Context:
    decks: list[Prepared]
    canvases: list[Canvas]
    #: where each deck's images go until the export is complete
    folders: list[StagedFolder]


def render_chunk(context: _Context, chunk: PngChunk) -> list[tuple[str, int]]:
    """Draw, rasterise and write the chunk's images; (file name, bytes) of each."""
    prepared, canvas = context.decks[chunk.deck], context.canvases[chunk.deck]
    pages = [canvas_page(prepared.drawing(item, canvas.bleed), canvas, number)
             for number, item in enumerate(chunk.items, start=1)]
    images = render_pages(pages, [(canvas.px_w, canvas.px_h)] * len(pages), prepared.deck.name)
    written = []
    for item, image in zip(chunk.items, images):
        name = prepared.name(item)
        written.append((name, context.folders[chunk.deck].write(name, png_bytes(image, canvas.dpi))))
    return written


cell = spreadsheet_cell  # a manifest cell is shown by a spreadsheet, never run (generator.wording)


def manifest(prepared: Prepared) -> bytes:
    """The deck's manifest: one row per image with its copies (the back: the deck's total)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["file", "id", "name", "copies"])
    deck = prepared.deck
    for name, card in zip(prepared.names, deck.cards):
        writer.writerow([name, cell(card.id), cell(card.name), card.copies])
    if prepared.uniform:
        writer.writerow(["back.png", "back", cell(f"{deck.name} (back)"), deck.total])
    else:
        for item, card in zip(prepared.backs(), deck.cards):
            writer.writerow([prepared.name(item), cell(f"{card.id} (back)"), cell(f"{card.name} (back)"),
                             card.copies])
    return buffer.getvalue().encode("utf-8")


class PngDeck(NamedTuple):
    deck: Deck
    folder: Path
    faces: int
    #: pixels of every image
    size: tuple[int, int]
    #: images of backs: 1, or one per card when cards have backs of their own
    backs: int = 1
    #: the boxes closer to the service's cut than its safe margin (PngOptions.service)
    margins: tuple[Margin, ...] = ()
    #: the pictures printed below a good resolution at the service's size (PngOptions.service)
    pictures: tuple[LowPicture, ...] = ()


class PngReport(NamedTuple):
    decks: list[PngDeck]
    seconds: float

    @property
    def images(self) -> int:
        return sum(d.faces + d.backs for d in self.decks)


def deck_folder(out: Path, deck: Deck, kind: tuple[str, ...] = ("png",)) -> Path:
    return inside(out, *kind, deck.namespace, deck.id)


def export_png(content: Content, decks: list[Deck], out: Path, options: PngOptions,
               progress: Callable[[int], None]) -> PngReport:
    """Write the PNGs and manifests of `decks` under OUT/png/."""
    start = time.perf_counter()
    folders = {deck.key: deck_folder(out, deck, options.folder) for deck in decks}
    prepared = prepare(content, decks, folders, reserved=("back.png", MANIFEST))
    canvases = [card_canvas(p.deck.card_size, options.preset, options.dpi) for p in prepared]
    total = sum(len(p.deck.cards) + len(p.backs()) for p in prepared)
    size = jobs.chunk_size(total, options.jobs)
    with transaction(out), staged([folders[p.deck.key] for p in prepared], "PNG images") as staging:
        chunks: list[PngChunk] = []
        for index, p in enumerate(prepared):
            items = [*range(len(p.deck.cards)), *p.backs()]
            for part in jobs.split(items, -(-len(items) // size)):
                chunks.append(PngChunk(index, tuple(part)))
        jobs.run(render_chunk, _Context(prepared, canvases, staging), chunks, jobs=options.jobs,
                 weights=[len(c.items) for c in chunks], progress=progress)
        report = []
        for index, p in enumerate(prepared):
            staging[index].write(MANIFEST, manifest(p))
            canvas = canvases[index]
            service = options.service
            found = tuple(margins(p, canvas, service)) if service is not None else ()
            low = tuple(low_pictures(p, service)) if service is not None else ()
            report.append(PngDeck(p.deck, folders[p.deck.key], len(p.deck.cards), (canvas.px_w, canvas.px_h),
                                  len(p.backs()), found, low))
    return PngReport(report, time.perf_counter() - start)
