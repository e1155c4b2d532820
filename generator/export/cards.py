"""The decks an export draws: each deck with its layouts loaded and a safe file name for every card.

Layouts are loaded (and checked) in the parent process before any worker forks, so that a deck naming a
layout that does not exist is reported once, with its file, before any image is rendered.

Items of a deck are numbered: a card by its place from 0, the deck's one back (every card has the same) by
:data:`BACK`, and, in a deck whose cards have backs of their own, a card's back by :func:`back_of` its place.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.build.decks import (
    DeckLayouts,
    back_drawing,
    card_file_names,
    deck_origin,
    deck_view,
    face_drawing,
)
from generator.catalog.deck import Deck
from generator.content import Content
from generator.layout.draw import DeckView
from generator.layout.load import Layout
from generator.output import inside
from generator.render.model import Drawing

#: The item number of a deck's back (cards are numbered from 0 in deck order).
BACK = -1
#: Where a deck whose cards have backs of their own puts each card's back image.
BACKS_FOLDER = "backs"


def back_of(index: int) -> int:
    """The item number of the back of card `index`, in a deck whose cards have backs of their own."""
    return -2 - index


@dataclass(frozen=True)
class Prepared:
    deck: Deck
    layouts: DeckLayouts
    view: DeckView
    #: the file name of each card's image, in deck order
    names: tuple[str, ...]
    #: whether every card has the same back (one `back.png`), or each its own (`backs/CARD.png`)
    uniform: bool = True

    @property
    def face(self) -> Layout:
        """The deck's face layout (the first card's, when cards pick their own)."""
        return self.layouts.face(self.deck.cards[0])

    def drawing(self, item: int, bleed: float) -> Drawing:
        """Card `item`, the back (BACK) or a card's own back (:func:`back_of`), drawn with `bleed` points beyond its
        trim."""
        cards = self.deck.cards
        if item == BACK:
            first = cards[0] if cards else None
            return back_drawing(self.layouts.back(first), self.deck, self.view, bleed)
        if item <= -2:
            card = cards[-2 - item]
            return back_drawing(self.layouts.back(card), self.deck, self.view, bleed, card)
        card = cards[item]
        return face_drawing(self.layouts.face(card), self.deck, card, self.view, bleed)

    def name(self, item: int) -> str:
        if item == BACK:
            return "back.png"
        if item <= -2:
            return f"{BACKS_FOLDER}/{self.names[-2 - item]}"
        return self.names[item]

    def backs(self) -> list[int]:
        """The back items of the deck: the one back, or each card's own."""
        return [BACK] if self.uniform else [back_of(i) for i in range(len(self.deck.cards))]


def image_names(deck: Deck, folder: Path, reserved: tuple[str, ...] | None = ("back.png",)) -> tuple[str, ...]:
    """`CARD.png` for each card, made safe; two cards with one file name (or a card named like a reserved file,
    such as the back) is an error naming the card. With `reserved` None, nothing is checked (the names are only
    shown, never written)."""
    if reserved is None:
        return tuple(inside(folder, f"{card.id}.png").name for card in deck.cards)
    from generator.i18n import phrase

    # TRANSLATORS: a file donjon writes beside a deck's cards (manifest.csv), which no card's file may be
    return card_file_names(deck, folder, "png", {name: phrase("the deck's back") if name == "back.png" else
                                                 phrase("donjon's {file}", file=name) for name in reserved})


def prepare(content: Content, decks: list[Deck], folder_of: dict[str, Path],
            reserved: tuple[str, ...] | None = ("back.png",)) -> list[Prepared]:
    """Every deck with its layouts; `folder_of[deck.key]` is where its images go (for the safety checks)."""
    out = []
    for deck in decks:
        layouts = DeckLayouts(deck, deck_origin(content, deck))
        layouts.check()
        out.append(Prepared(deck, layouts, deck_view(deck), image_names(deck, folder_of[deck.key], reserved),
                            layouts.uniform_back()))
    return out
