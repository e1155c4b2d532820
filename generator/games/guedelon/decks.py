"""Which Guédelon catalog entries become the cards of each deck game.yaml declares."""

from __future__ import annotations

from collections.abc import Iterator

from generator.catalog.deck import Card
from generator.catalog.game import DeckSpec
from generator.games.guedelon.catalog import Guedelon
from generator.i18n import language


def cards(game: Guedelon, spec: DeckSpec) -> Iterator[Card]:
    """The event cards of a series (in card order), or every floor tile with the names of its products."""
    if spec.cards == "events":
        series = {s.id: s for s in game.series}
        for event in sorted(game.events, key=lambda e: e.number):
            if spec.set and event.series != spec.set:
                continue
            yield Card(f"{event.number:02d}-{event.id}", event.name, 1, {"event": event, "series": series[event.series]},
                       {"event": event.provenance})
    elif spec.cards == "floor-tiles":
        _ = language(game.info.lang)._
        buildings = {b.id: b for b in game.buildings}
        for tile in game.tiles:
            products = [game.product_name(p) for p in tile.products] if tile.products is not None else None
            yield Card(tile.id.lower(), _("Floor tile {id}").format(id=tile.id), 1,
                       {"tile": tile, "building": buildings[tile.building], "products": products},
                       {"tile": tile.provenance, "building": buildings[tile.building].provenance})
