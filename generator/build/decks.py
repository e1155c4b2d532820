"""Building decks: each deck's cards drawn once with its layouts, imposed on pages by the imposed backends (PDF)
and written one file per card by the others (SVG).

For each deck: the face and back layouts are loaded (cached), the back is drawn once, and each card is drawn
once and placed as many times as it has copies. Pages stream into the document as they are made.

:func:`build` is one transaction (generator.output.transaction): every deck's document (`OUT/GAME/DECK.pdf`)
and per-card folder (`OUT/GAME/DECK/svg/`), then the other outputs of the target (:mod:`generator.build.outputs`)
are staged, and put in place together only when all of them are complete. A build that fails anywhere (a card
whose text does not fit, a full disk, a signal) leaves every previous file exactly as it was.
"""

import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

from generator.backends import backend
from generator.build.options import BuildOptions, Written
from generator.catalog.deck import Card, Deck
from generator.content import Content
from generator.errors import ContentError, Problem
from generator.layout.draw import CardView, DeckView, draw, subject
from generator.layout.load import Layout, MissingLayout, load_layout
from generator.output import atomic_path, inside, staged, transaction
from generator.render.imposition import PageHeading, grid, pages
from generator.render.model import Drawing
from generator.resources import display_path

#: The back of a user's deck that names no back: a plain back with the deck's name.
GENERIC_BACK = "generic-back"
#: The most cards, copies included, one document of sheets holds: 11,112 sheets of poker cards, far beyond a
#: home printer. The document is written as it is drawn, but the PDF library keeps a few hundred bytes of every
#: page until the file is complete (about 1.8 KB a card in all: 180 MB at this size), so a deck with more
#: copies is refused with its size instead of growing without bound. Per-card outputs (SVG, PNG) have no limit.
MAX_SHEET_CARDS = 100_000

Progress = Callable[[int], None]


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


class DeckResult(NamedTuple):
    deck: Deck
    written: list[Written]
    cards: int
    pages: int


def card_problem(deck: Deck, card: Card, where: str, message: str) -> Problem:
    """A problem with one card, at its row (`cards.csv:12`) for a deck of your own, else named in its deck."""
    file, _, line = card.origin.rpartition(":")
    if file and line.isascii() and line.isdigit():
        return Problem(file, int(line), where, message)
    return Problem(deck_label(deck), None, where or f"cards[{card.id}]", message)


def file_collisions(deck: Deck, folder: Path, suffix: str, reserved: Mapping[str, str]) -> tuple[
        tuple[str, ...], list[Problem]]:
    """`CARD.suffix` for each card of `deck`, in deck order, made safe to write in `folder`, and a problem for
    each card whose file would be another's: two cards whose ids give one file name, or a card named like a
    reserved file (`reserved` maps such a name to what it holds, e.g. the deck's back)."""
    taken = dict(reserved)
    names: list[str] = []
    problems: list[Problem] = []
    for card in deck.cards:
        name = inside(folder, f"{card.id}.{suffix}").name
        if name in taken:
            problems.append(card_problem(deck, card, "", f"{deck_label(deck)}: card {card.name!r} (id {card.id!r}) "
                                         f"would be written as {name}, the file of {taken[name]}; give the card "
                                         "another id"))
        else:
            taken[name] = f"card {card.id!r}"
        names.append(name)
    return tuple(names), problems


def card_file_names(deck: Deck, folder: Path, suffix: str, reserved: Mapping[str, str]) -> tuple[str, ...]:
    """`CARD.suffix` for each card of `deck`, in deck order; a file that would overwrite another is a content
    error naming the card (`donjon content check` reports it too)."""
    names, problems = file_collisions(deck, folder, suffix, reserved)
    if problems:
        raise ContentError(problems)
    return names


def build_deck(content: Content, deck: Deck, out: Path, options: BuildOptions, progress: Progress) -> DeckResult:
    """Write one deck with every backend `options.formats` names: each imposed backend's document of sheets
    (`OUT/GAME/DECK.pdf`) and each per-card backend's folder of cards (`OUT/GAME/DECK/svg/`).

    Every card is drawn once. The document streams its pages as the cards are drawn; the folders are staged and
    replace the old ones only when every card is written, the document is renamed into place when complete."""
    if options.unique:
        deck = deck.unique()
    face, back = deck_layouts(deck, deck_origin(content, deck))
    view = deck_view(deck)
    bleed = options.print_options.bleed
    size = deck.card_size
    chosen = [backend(name) for name in options.formats]
    imposed = [b for b in chosen if b.imposed]
    per_card = [b for b in chosen if not b.imposed]
    names: dict[str, dict[str, str]] = {}
    for b in per_card:
        files = card_file_names(deck, inside(out, deck.namespace, deck.id, b.name), b.suffix,
                                {f"back.{b.suffix}": "the deck's back"})
        names[b.name] = dict(zip((c.id for c in deck.cards), files, strict=True))
    back_face = back_drawing(back, deck, view, bleed)
    written: list[Written] = []
    count = deck.total

    with staged([inside(out, deck.namespace, deck.id, b.name) for b in per_card],
                f"the {' and '.join(b.label for b in per_card)} files of {deck.key}") as folders:
        writers = [(b, folder, b.card_writer()) for b, folder in zip(per_card, folders, strict=True)]

        def drawings() -> Iterator[Drawing]:
            for card in deck.cards:
                drawing = face_drawing(face, deck, card, view, bleed)
                for b, folder, write in writers:
                    folder.write(names[b.name][card.id], write(drawing, f"{deck.name}: {card.name}").encode("utf-8"))
                for _ in range(card.copies):
                    yield drawing
                    progress(1)

        total_pages = 0
        if imposed and count > MAX_SHEET_CARDS:
            raise ContentError([Problem(deck_origin(content, deck), None, "count_column" if deck.folder else
                                        f"decks[{deck.id}]", f"{deck_label(deck)} holds {count:,} cards with their "
                                        f"copies, more than the {MAX_SHEET_CARDS:,} a document of sheets may hold; "
                                        "print fewer copies, split the deck, or build it as SVG only (--format svg)")])
        if imposed:
            sheet = grid(size.width_pt, size.height_pt, options.print_options)
            for index, b in enumerate(imposed):
                target = inside(out, deck.namespace, f"{deck.id}.{b.suffix}")
                # the first document draws the cards (and writes the per-card files); any other redraws them
                stream = drawings() if index == 0 else (d for c in deck.cards for d in
                                                        [face_drawing(face, deck, c, view, bleed)] * c.copies)
                with atomic_path(target, f"the {b.label} sheets of {deck.key}") as tmp:
                    stats = b.page_writer()(pages(stream, count, back_face, sheet, options.print_options,
                                                  PageHeading(deck.game_name, deck.name)), tmp,
                                            title=f"{deck.game_name}: {deck.name}",
                                            subject="print-and-play cards by donjon")
                total_pages = stats.pages
                written.append(Written(target, b.label, stats.pages, count))
        else:
            deque(drawings(), maxlen=0)  # draw every card (writing its files) without imposing any sheet
        for (b, folder, write), final in zip(writers, folders, strict=True):
            folder.write(f"back.{b.suffix}", write(back_face, f"{deck.name}: back").encode("utf-8"))
            written.append(Written(final.final, b.label, 0, len(deck.cards), len(deck.cards) + 1, folder=True))
    return DeckResult(deck, written, count, total_pages)


class BuildReport(NamedTuple):
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
    """Build every deck in `decks`, then the other outputs the target covers (references, score sheets)."""
    start = time.perf_counter()
    with transaction(out):
        results = [build_deck(content, deck, out, options, progress) for deck in decks]
        others = []
        if any(target in ("all", g.info.id) for g in content.games()):  # a deck of one's own has no other outputs
            from generator.build.outputs import other_outputs

            others = other_outputs(content, target, out, options)
    return BuildReport(results, others, time.perf_counter() - start)
