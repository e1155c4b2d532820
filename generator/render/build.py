"""Building decks: each deck's cards drawn once with its layouts, imposed on sheets (PDF) and written per card (SVG).

For each deck: the face and back layouts are loaded (cached), the back is drawn once, and each card is drawn
once and placed as many times as it has copies. Pages stream into the PDF as they are made. The PDF is
written to a temporary file and renamed over `OUT/GAME/DECK.pdf` only when complete; the SVGs are written into
a temporary folder that replaces `OUT/GAME/DECK/svg/` only when every card is written. A build that fails
(a card whose text does not fit, a full disk) leaves the previous files exactly as they were.

:data:`OTHER_OUTPUTS` names the further outputs of `donjon build` (score sheets, card references).
"""

import importlib
import os
import shutil
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from generator.catalog import Content
from generator.decks import Card, Deck
from generator.errors import ContentError, OutputError, Problem, os_reason
from generator.layout.draw import CardView, DeckView, draw, subject
from generator.layout.load import Layout, MissingLayout, load_layout
from generator.output import atomic_path, inside
from generator.render.imposition import (
    PageHeading,
    PrintOptions,
    grid,
    page_count,
    pages,
)
from generator.render.model import Drawing
from generator.resources import display_path

FORMATS = ("pdf", "svg")
#: The back of a user's deck that names no back: a plain back with the deck's name.
GENERIC_BACK = "generic-back"

Progress = Callable[[int], None]


class BuildOptions(NamedTuple):
    print_options: PrintOptions = PrintOptions()
    formats: tuple[str, ...] = FORMATS
    #: one copy of each card instead of the deck's counts
    unique: bool = False


class Written(NamedTuple):
    """One output file (or folder of files) and what it holds, for the end-of-build report."""

    path: Path
    what: str
    pages: int = 0
    cards: int = 0
    files: int = 1


#: What makes one of the other outputs: given the content, the target (`all`, a game or `game/deck`), the output
#: folder and the options, it writes its files and says what it wrote (nothing when the target is not its concern).
OutputMaker = Callable[[Content, str, Path, BuildOptions], list[Written]]

#: The outputs of `donjon build` besides the decks, as `module:function` of an OutputMaker, made in this order
#: after the decks (the castle score sheets and the card references go here). Named rather than registered, so
#: that what a build makes never depends on which modules happen to be imported.
OTHER_OUTPUTS: tuple[str, ...] = (
    "generator.reference.build:make_references",
    "generator.sheets.build:make_sheets",
)


def other_outputs() -> list[OutputMaker]:
    makers = []
    for name in OTHER_OUTPUTS:
        module, _, function = name.partition(":")
        makers.append(getattr(importlib.import_module(module), function))
    return makers


def deck_origin(content: Content, deck: Deck) -> str:
    """The file that declares a deck, for messages."""
    if deck.folder is not None:
        return display_path(deck.folder / "deck.yaml")
    folder = content.folders.get(deck.game)
    return display_path(folder / "game.yaml") if folder is not None else f"{deck.game}/game.yaml"


def deck_layouts(deck: Deck, origin: str) -> tuple[Layout, Layout]:
    """The face and back layouts of a deck; one that does not exist is an error naming the deck's file."""
    found = []
    for key, ref in (("layout", deck.layout), ("back", deck.back or GENERIC_BACK)):
        try:
            found.append(load_layout(ref, deck.folder))
        except MissingLayout as err:
            where = f"decks[{deck.id}].{key}" if deck.folder is None else key
            raise ContentError([Problem(origin, None, where, f"names no layout: {err}")]) from None
    return found[0], found[1]


def deck_label(deck: Deck) -> str:
    """How messages name a deck: `game/deck`, or a user deck's id."""
    return deck.id if deck.folder is not None else deck.key


def deck_view(deck: Deck) -> DeckView:
    return DeckView(deck.id, deck.name, deck.game, deck.game_name, deck.total)


def face_drawing(layout: Layout, deck: Deck, card: Card, view: DeckView, bleed: float) -> Drawing:
    size = deck.card_size
    who = f"{deck_label(deck)}: card {card.name!r} ({card.origin})" if card.origin else f"{deck_label(deck)}: card {card.id}"
    what = subject(card.data, CardView(card.id, card.name, card.copies, card.data), view, card.provenance,
                   who, key=card.id if card.copies > 1 else None)
    return draw(layout, what, size.width_pt, size.height_pt, bleed)


def back_drawing(layout: Layout, deck: Deck, view: DeckView, bleed: float) -> Drawing:
    size = deck.card_size
    return draw(layout, subject({}, None, view, {}, f"{deck_label(deck)}: back", key="back"), size.width_pt,
                size.height_pt, bleed)


@dataclass
class DeckResult:
    deck: Deck
    written: list[Written]
    cards: int
    pages: int


def card_file_names(deck: Deck, folder: Path, suffix: str, reserved: Mapping[str, str]) -> tuple[str, ...]:
    """`CARD.suffix` for each card of `deck`, in deck order, made safe to write in `folder`.

    Two cards whose ids give one file name, or a card named like a reserved file (`reserved` maps such a name to
    what it holds, e.g. the deck's back), is an error naming the card: one file must never overwrite another.
    """
    taken = dict(reserved)
    names = []
    for card in deck.cards:
        name = inside(folder, f"{card.id}.{suffix}").name
        if name in taken:
            raise OutputError(deck_label(deck), f"card {card.id!r} would be written as {name}, the file of "
                              f"{taken[name]}; give the card another id")
        taken[name] = f"card {card.id!r}"
        names.append(name)
    return tuple(names)


class _SvgFolder:
    """SVG files written into a fresh folder that replaces the deck's svg/ folder only once all are written."""

    def __init__(self, final: Path) -> None:
        self.final = final
        try:
            final.parent.mkdir(parents=True, exist_ok=True)
            self.tmp = Path(tempfile.mkdtemp(prefix=".svg-", dir=final.parent))
        except OSError as err:
            raise OutputError(final, f"cannot write ({os_reason(err)})") from None
        self.count = 0

    def write(self, name: str, text: str) -> None:
        try:
            (self.tmp / name).write_text(text, encoding="utf-8")
        except OSError as err:
            raise OutputError(self.final / name, f"cannot write ({os_reason(err)})") from None
        self.count += 1

    def commit(self) -> None:
        old = None
        try:
            os.chmod(self.tmp, 0o755)
            if self.final.exists():
                old = Path(tempfile.mkdtemp(prefix=".svg-old-", dir=self.final.parent))
                os.replace(self.final, old / "svg")
            os.replace(self.tmp, self.final)
        except OSError as err:
            raise OutputError(self.final, f"cannot write ({os_reason(err)})") from None
        finally:
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)

    def discard(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


def build_deck(content: Content, deck: Deck, out: Path, options: BuildOptions, progress: Progress) -> DeckResult:
    """Write one deck's PDF sheets and SVG cards (as `options.formats` asks)."""
    from generator.backends.pdf import write_pdf
    from generator.backends.svg import drawing_svg

    if options.unique:
        deck = deck.unique()
    face, back = deck_layouts(deck, deck_origin(content, deck))
    view = deck_view(deck)
    bleed = options.print_options.bleed
    size = deck.card_size
    sheet = grid(size.width_pt, size.height_pt, options.print_options)
    want_pdf, want_svg = "pdf" in options.formats, "svg" in options.formats
    svg_folder = inside(out, deck.game, deck.id, "svg")
    names: dict[str, str] = {}
    if want_svg:
        files = card_file_names(deck, svg_folder, "svg", {"back.svg": "the deck's back"})
        names = dict(zip((c.id for c in deck.cards), files, strict=True))
    back_face = back_drawing(back, deck, view, bleed)
    svg = _SvgFolder(svg_folder) if want_svg else None
    written: list[Written] = []
    count = deck.total

    def drawings() -> Iterator[Drawing]:
        for card in deck.cards:
            drawing = face_drawing(face, deck, card, view, bleed)
            if svg is not None:
                svg.write(names[card.id], drawing_svg(drawing, f"{deck.name}: {card.name}"))
            for _ in range(card.copies):
                yield drawing
                progress(1)

    try:
        total_pages = 0
        if want_pdf:
            target = inside(out, deck.game, f"{deck.id}.pdf")
            with atomic_path(target) as tmp:
                stats = write_pdf(pages(drawings(), count, back_face, sheet, options.print_options,
                                        PageHeading(deck.game_name, deck.name)), tmp,
                                  title=f"{deck.game_name}: {deck.name}", subject="print-and-play cards by donjon")
            total_pages = stats.pages
            assert stats.pages == page_count(count, sheet, options.print_options)
            written.append(Written(target, "PDF", stats.pages, count))
        else:
            deque(drawings(), maxlen=0)  # draw every card (writing its SVG) without imposing any sheet
        if svg is not None:
            svg.write("back.svg", drawing_svg(back_face, f"{deck.name}: back"))
            svg.commit()
            written.append(Written(svg.final, "SVG", 0, len(deck.cards), svg.count))
    except BaseException:
        if svg is not None:
            svg.discard()
        raise
    return DeckResult(deck, written, count, total_pages)


@dataclass
class BuildReport:
    results: list[DeckResult]
    others: list[Written]
    seconds: float

    @property
    def cards(self) -> int:
        return sum(r.cards for r in self.results)

    @property
    def pages(self) -> int:
        return sum(r.pages for r in self.results) + sum(w.pages for w in self.others)


def build(content: Content, decks: list[Deck], target: str, out: Path, options: BuildOptions,
          progress: Progress) -> BuildReport:
    """Build every deck in `decks`, then the other outputs (OTHER_OUTPUTS) for `target`."""
    start = time.perf_counter()
    results = [build_deck(content, deck, out, options, progress) for deck in decks]
    others = [w for maker in other_outputs() for w in maker(content, target, out, options)]
    return BuildReport(results, others, time.perf_counter() - start)
