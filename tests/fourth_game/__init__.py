"""Tiny Tower: a made-up fourth game, registered by `tests/test_fourth_game.py` to prove that adding a game is
one declaration plus one registry entry: its parts are in :mod:`~.tower`, and everything else donjon does for it
comes from the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.games.base import Declared, Game, Modules

if TYPE_CHECKING:
    from generator.games.base import Parts
    from tests.fourth_game import tower
    from tests.fourth_game.tower import TinyEndState, TinyTower

    _PARTS = Parts[TinyTower, TinyEndState](tower, tower, tower, tower, tower, tower)

#: Every part of the game is in one module.
_TOWER = f"{__name__}.tower"
#: The catalogs a deck of the game can draw its cards from.
DECK_SOURCES: tuple[str, ...] = ("pieces",)

GAME: Game[TinyTower, TinyEndState] = Declared(
    "tiny-tower", "Tiny Tower", deck_sources=DECK_SOURCES,
    modules=Modules(catalog=_TOWER, decks=_TOWER, reference=_TOWER, end_state=_TOWER, rules=_TOWER, table=_TOWER))
