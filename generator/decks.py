"""Decks: what gets printed. Each deck a game declares (or a user's deck folder) becomes a list of cards.

A :class:`Card` carries the catalog records its layout reads (`data`), its printed name, how many copies the
deck holds, and the provenance of its values, so that a layout can mark what is not official. Decks are
layout-agnostic: the same deck feeds the PDF and SVG backends, the reference PDF, the PNG and TTS exports.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from generator.catalog import Content
from generator.catalog.common import CardSize, DeckSpec, Provenance
from generator.catalog.userdeck import UserDeck
from generator.errors import UsageError


@dataclass(frozen=True, slots=True)
class Card:
    #: unique within its deck; a safe file name (lower-case letters, digits and dashes)
    id: str
    name: str
    copies: int
    #: what the layout's text fields can read, by name
    data: Mapping[str, Any]
    #: provenance of the record(s) the card shows, keyed by the name the layout reads them under
    provenance: Mapping[str, Provenance] = field(default_factory=dict)
    #: where a user's card comes from (`cards.csv:12`), for messages; empty for the games' cards
    origin: str = ""


@dataclass(frozen=True, slots=True)
class Deck:
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

    @property
    def key(self) -> str:
        """`game/deck`, as `donjon build` takes it."""
        return f"{self.game}/{self.id}"

    @property
    def total(self) -> int:
        """Cards in the deck, copies included."""
        return sum(c.copies for c in self.cards)

    def unique(self) -> Deck:
        """The same deck with one copy of each card."""
        return replace(self, cards=tuple(replace(c, copies=1) for c in self.cards))


def _guildhall_cards(content: Content, spec: DeckSpec) -> Iterator[Card]:
    game = content.guildhall
    assert game is not None  # the caller only asks for decks of loaded games
    sets = {s.id: s for s in game.sets}
    if spec.cards == "professions":
        for profession in game.professions:
            if spec.set and profession.set != spec.set:
                continue
            for colour in game.colours:
                yield Card(f"{profession.id}-{colour.id}", profession.name, game.components.copies_per_card,
                           {"profession": profession, "colour": colour, "set": sets[profession.set],
                            "copies": game.components.copies_per_card},
                           {"profession": profession.provenance, "colour": colour.provenance})
    elif spec.cards == "vp-cards":
        for card in game.vp_cards:
            if spec.set and card.set != spec.set:
                continue
            yield Card(card.id, f"{card.value} VP", card.copies, {"vp": card, "set": sets[card.set]},
                       {"vp": card.provenance})
    elif spec.cards == "vp-tokens":
        yield Card("vp-token", "VP token", game.components.vp_tokens,
                   {"value": 1, "copies": game.components.vp_tokens}, {"components": game.components.provenance})


def _guedelon_cards(content: Content, spec: DeckSpec) -> Iterator[Card]:
    game = content.guedelon
    assert game is not None
    if spec.cards == "events":
        series = {s.id: s for s in game.series}
        for event in sorted(game.events, key=lambda e: e.number):
            if spec.set and event.series != spec.set:
                continue
            yield Card(f"{event.number:02d}-{event.id}", event.name, 1, {"event": event, "series": series[event.series]},
                       {"event": event.provenance})
    elif spec.cards == "floor-tiles":
        buildings = {b.id: b for b in game.buildings}
        for tile in game.tiles:
            products = [game.product_name(p) for p in tile.products] if tile.products is not None else None
            yield Card(tile.id.lower(), f"Floor tile {tile.id}", 1,
                       {"tile": tile, "building": buildings[tile.building], "products": products},
                       {"tile": tile.provenance, "building": buildings[tile.building].provenance})


def _castle_cards(content: Content, spec: DeckSpec) -> Iterator[Card]:
    game = content.castle
    assert game is not None
    for guest in game.guests:
        if spec.set and guest.version != spec.set:
            continue
        yield Card(guest.id, guest.name, 1, {"guest": guest}, {"guest": guest.provenance})


_EXPAND = {"guildhall": _guildhall_cards, "guedelon": _guedelon_cards, "once-upon-a-castle": _castle_cards}


def game_decks(content: Content) -> list[Deck]:
    """Every deck of every loaded game, in catalog order."""
    decks = []
    for game in content.games():
        for spec in game.info.decks:
            cards = tuple(_EXPAND[game.info.id](content, spec))
            decks.append(Deck(game.info.id, game.info.name, spec.id, spec.name, spec.layout, spec.back,
                              spec.card_size, cards))
    return decks


def user_deck(deck: UserDeck) -> Deck:
    cards = tuple(Card(c.id, c.name, c.copies, c.fields, origin=c.origin) for c in deck.cards)  # rows shared, not copied
    return Deck(deck.id, deck.name, deck.id, deck.name, deck.layout, deck.back, deck.card_size, cards, deck.folder)


def all_decks(content: Content) -> list[Deck]:
    """The games' decks, then the user's own decks (a user deck's game is its own id)."""
    return game_decks(content) + [user_deck(d) for d in content.user_decks]


def select(decks: list[Deck], target: str) -> list[Deck]:
    """The decks `donjon build TARGET` means: `all`, a game id, `game/deck`, or a user deck's id."""
    if target == "all":
        return decks
    chosen = [d for d in decks if target in (d.game, d.key, d.id)]
    if not chosen:
        names = sorted({d.game for d in decks} | {d.key for d in decks})
        raise UsageError("build", f"{target!r} names no game or deck; choose all, or one of: {', '.join(names)}")
    return chosen
