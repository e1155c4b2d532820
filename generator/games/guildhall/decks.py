"""Which Guildhall catalog entries become the cards of each deck game.yaml declares."""

from __future__ import annotations

from collections.abc import Iterator

from generator.catalog.deck import Card
from generator.catalog.game import DeckSpec
from generator.games.guildhall.catalog import Guildhall
from generator.i18n import language


def cards(game: Guildhall, spec: DeckSpec) -> Iterator[Card]:
    """The cards of one deck: a (profession, colour) card for every colour of every profession of the set, the
    VP cards of the set, or the VP token (its copies are the tokens in the box)."""
    sets = {s.id: s for s in game.sets}
    _ = language(game.info.lang)._
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
            yield Card(card.id, _("{value} VP").format(value=card.value), card.copies, {"vp": card, "set": sets[card.set]},
                       {"vp": card.provenance})
    elif spec.cards == "vp-tokens":
        yield Card("vp-token", _("VP token"), game.components.vp_tokens,
                   {"value": 1, "copies": game.components.vp_tokens}, {"components": game.components.provenance})
