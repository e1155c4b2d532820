"""Decks: what gets printed. Each deck a game declares (or a user's deck folder) becomes a list of cards.

A :class:`Card` carries the catalog records its layout reads (`data`), its printed name, how many copies the
deck holds, and the provenance of its values, so that a layout can mark what is not official. Decks are
layout-agnostic: the same deck feeds the PDF and SVG backends, the PNG and TTS exports and the preview. Which
catalog entries become the cards of a game's deck is the game's business (its package's `decks` module);
:meth:`generator.content.Content.decks` lists them all.
"""

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from generator.catalog.assets import NO_ASSETS, Assets
from generator.catalog.common import CardSize, Provenance
from generator.catalog.shapes import Shape


class Card(NamedTuple):
    #: unique within its deck; a safe file name (lower-case letters, digits and dashes)
    id: str
    name: str
    copies: int
    #: what the layout's text fields can read, by name
    data: Mapping[str, Any]
    #: provenance of the record(s) the card shows, keyed by the name the layout reads them under
    provenance: Mapping[str, Provenance] = {}  # noqa: RUF012 - shared and never mutated
    #: where a user's card comes from (`cards.csv:12`), for messages; empty for the games' cards
    origin: str = ""
    #: the layout and back of this card when it has its own (a user deck's `layout_column`); None: the deck's
    layout: str | None = None
    back: str | None = None
    #: the card's name in a second language, printed small under the title (`--also en`); empty: none
    also: str = ""


class Deck(NamedTuple):
    game: str
    game_name: str
    id: str
    name: str
    layout: str
    back: str | None
    card_size: CardSize
    cards: tuple[Card, ...]
    #: a user deck's folder, where its own layout files are found (None for the shipped games)
    folder: Path | None = None
    #: the content folder a user deck lies in: the files it names must lie inside it
    root: Path | None = None
    #: a user deck's fonts and icons of its own
    assets: Assets = NO_ASSETS
    #: the files the deck itself is read from (its deck.yaml and table), for `donjon build --watch`
    sources: tuple[Path, ...] = ()
    #: the language its cards are drawn in (their texts, the layout's words, the page line), and the deck's own
    #: language (the games' catalogs are English; a deck of your own says it with `lang:`)
    lang: str = "en"
    default_lang: str = "en"
    #: the outline its pieces are cut along inside their card size (None: the card's rectangle)
    shape: Shape | None = None

    @property
    def key(self) -> str:
        """`game/deck`, as `donjon build` takes it."""
        return f"{self.game}/{self.id}"

    @property
    def translated(self) -> bool:
        """Whether it is drawn in another language than its own (messages then name the language)."""
        return self.lang != self.default_lang

    @property
    def namespace(self) -> str:
        """The folder holding this deck's files under the output folder (and under each export's folder): its
        game's id, or `decks` for a deck of your own (generator.output.KIND_FOLDERS)."""
        return "decks" if self.folder is not None else self.game

    @property
    def total(self) -> int:
        """Cards in the deck, copies included."""
        return sum(c.copies for c in self.cards)

    def unique(self) -> "Deck":
        """The same deck with one copy of each card."""
        return self._replace(cards=tuple(c._replace(copies=1) for c in self.cards))

    def only(self, cards: tuple[Card, ...]) -> "Deck":
        """The same deck holding only `cards` (`donjon build --cards`)."""
        return self._replace(cards=cards)
