"""Which Once Upon a Castle catalog entries become the cards of each deck game.yaml declares."""

from __future__ import annotations

from collections.abc import Iterator

from generator.catalog.deck import Card
from generator.catalog.game import DeckSpec
from generator.games.castle.catalog import Castle


def cards(game: Castle, spec: DeckSpec) -> Iterator[Card]:
    """The guest cards (of one version, when the deck names its set)."""
    for guest in game.guests:
        if spec.set and guest.version != spec.set:
            continue
        yield Card(guest.id, guest.name, 1, {"guest": guest}, {"guest": guest.provenance})
