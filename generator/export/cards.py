"""The decks an export draws: each deck with its layouts loaded and a safe file name for every card.

Layouts are loaded (and checked) in the parent process before any worker forks, so that a deck naming a
layout that does not exist is reported once, with its file, before any image is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.build.decks import (
    back_drawing,
    card_file_names,
    deck_layouts,
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


@dataclass(frozen=True)
class Prepared:
    deck: Deck
    face: Layout
    back: Layout
    view: DeckView
    #: the file name of each card's image, in deck order
    names: tuple[str, ...]

    def drawing(self, item: int, bleed: float) -> Drawing:
        """Card `item` (or the back, BACK) drawn with `bleed` points beyond its trim."""
        if item == BACK:
            return back_drawing(self.back, self.deck, self.view, bleed)
        return face_drawing(self.face, self.deck, self.deck.cards[item], self.view, bleed)

    def name(self, item: int) -> str:
        return "back.png" if item == BACK else self.names[item]


def image_names(deck: Deck, folder: Path, reserved: tuple[str, ...] | None = ("back.png",)) -> tuple[str, ...]:
    """`CARD.png` for each card, made safe; two cards with one file name (or a card named like a reserved file,
    such as the back) is an error naming the card. With `reserved` None, nothing is checked (the names are only
    shown, never written)."""
    if reserved is None:
        return tuple(inside(folder, f"{card.id}.png").name for card in deck.cards)
    return card_file_names(deck, folder, "png", {name: "the deck's back" if name == "back.png" else f"donjon's {name}"
                                                 for name in reserved})


def prepare(content: Content, decks: list[Deck], folder_of: dict[str, Path],
            reserved: tuple[str, ...] | None = ("back.png",)) -> list[Prepared]:
    """Every deck with its layouts; `folder_of[deck.key]` is where its images go (for the safety checks)."""
    out = []
    for deck in decks:
        face, back = deck_layouts(deck, deck_origin(content, deck))
        out.append(Prepared(deck, face, back, deck_view(deck), image_names(deck, folder_of[deck.key], reserved)))
    return out
