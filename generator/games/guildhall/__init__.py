"""Guildhall (AEG): the Old World Economy and Job Faire sets, their profession and VP cards, and the scoring of
an end state by the rules of rulebooks 002 and 003.

Modules: :mod:`~.catalog` (records and loading), :mod:`~.decks` (the cards of each deck), :mod:`~.reference`
(the card reference), :mod:`~.end_state` (the end-state format), :mod:`~.rules` (the rules and the ranking),
:mod:`~.table` (entering the format at the table). `GAME` declares the game to the registry; a module is imported
when one of its parts is first needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.games.base import Declared, Game, Modules

if TYPE_CHECKING:
    from generator.games.base import Parts
    from generator.games.guildhall import catalog, decks, end_state, reference, rules, table
    from generator.games.guildhall.catalog import Guildhall
    from generator.games.guildhall.end_state import GuildhallEndState

    _PARTS = Parts[Guildhall, GuildhallEndState](catalog, decks, reference, end_state, rules, table)

#: The catalogs a deck of the game can draw its cards from (game.yaml `decks[].cards`).
DECK_SOURCES: tuple[str, ...] = ("professions", "vp-cards", "vp-tokens")

#: The titles of the game's editions in other languages, which their players write in `game:`: the German edition's
#: (Pegasus Spiele; game-facts 1(b), H).
TITLES = ("Guildhall – Zünfte & Intrigen",)

GAME: Game[Guildhall, GuildhallEndState] = Declared(
    "guildhall", "Guildhall", deck_sources=DECK_SOURCES, titles=TITLES,
    modules=Modules(catalog=f"{__name__}.catalog", decks=f"{__name__}.decks", reference=f"{__name__}.reference",
                    end_state=f"{__name__}.end_state", rules=f"{__name__}.rules", table=f"{__name__}.table"))
