"""Guédelon (Asyncron): the clock, the event cards and the castle's floor tiles, and the result of a game by
the rules of rulebooks 000 (English) and 001 (French).

Modules: :mod:`~.catalog` (records and loading), :mod:`~.decks` (the cards of each deck), :mod:`~.reference`
(the card reference), :mod:`~.end_state` (the end-state format), :mod:`~.rules` (the rules and the result),
:mod:`~.table` (entering the format at the table). `GAME` declares the game to the registry; a module is imported
when one of its parts is first needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.games.base import Declared, Game, Modules

if TYPE_CHECKING:
    from generator.games.base import Parts
    from generator.games.guedelon import catalog, decks, end_state, reference, rules, table
    from generator.games.guedelon.catalog import Guedelon
    from generator.games.guedelon.end_state import GuedelonEndState

    _PARTS = Parts[Guedelon, GuedelonEndState](catalog, decks, reference, end_state, rules, table)

#: The catalogs a deck of the game can draw its cards from (game.yaml `decks[].cards`).
DECK_SOURCES: tuple[str, ...] = ("events", "floor-tiles")

#: The game's full title, as its box and rulebook 001 print it, which its players write in `game:` too.
TITLES = ("Guédelon, le jeu",)

GAME: Game[Guedelon, GuedelonEndState] = Declared(
    "guedelon", "Guédelon", deck_sources=DECK_SOURCES, titles=TITLES,
    modules=Modules(catalog=f"{__name__}.catalog", decks=f"{__name__}.decks", reference=f"{__name__}.reference",
                    end_state=f"{__name__}.end_state", rules=f"{__name__}.rules", table=f"{__name__}.table"))
