"""The games donjon knows, registered in one place.

Each entry names a game package (`generator/games/GAME/`) whose `GAME` object fulfils
:class:`generator.games.base.Game`. Everything that works per game (loading content, listing decks, building
references and score sheets, scoring end states, publishing schemas) loops over :func:`games` or asks
:func:`find_game`; no other module lists the games. Adding a game is one package plus one line here (or a call
to :func:`register`, which the tests use to add a game from test data).

Importing this module and listing the games is cheap: a game package's `__init__` defines `GAME` and imports
its catalog, rules or drawing modules only when one of its methods is called.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from generator.errors import UsageError
from generator.fields import normalise_title
from generator.wording import listing

if TYPE_CHECKING:
    from generator.games.base import Game

#: The built-in games, in the order donjon lists, builds and checks them.
BUILT_IN = (
    "generator.games.guildhall",
    "generator.games.guedelon",
    "generator.games.castle",
)

_registered: list[Game[Any, Any]] = []
_loaded = False


class UnknownGame(UsageError):
    """A name that is no game donjon knows; the message lists the games it knows."""

    def __init__(self, name: str, known: tuple[str, ...], where: str = "game") -> None:
        self.name = name
        self.known = known
        super().__init__(where, f"unknown game {name!r}; donjon knows {listing(known, 'and')}")


def _load() -> list[Game[Any, Any]]:
    global _loaded
    if not _loaded:
        built_in = [importlib.import_module(name).GAME for name in BUILT_IN]
        _registered[:0] = [g for g in built_in if all(g.id != r.id for r in _registered)]
        _loaded = True
    return _registered


def games() -> tuple[Game[Any, Any], ...]:
    """Every registered game, built-in ones first."""
    return tuple(_load())


def game_ids() -> tuple[str, ...]:
    return tuple(g.id for g in _load())


def find_game(name: str, where: str = "game") -> Game[Any, Any]:
    """The game `name` names, by its id or its name in any case, with or without accents.

    Raises :class:`UnknownGame` (exit 2) naming `where` (the option or key at fault) and the games donjon knows.
    """
    known = _load()
    for game in known:
        if name == game.id:
            return game
    key = normalise_title(name)
    for game in known:
        if key in (game.id, normalise_title(game.name)):
            return game
    raise UnknownGame(name, tuple(g.id for g in known), where)


def register(game: Game[Any, Any]) -> None:
    """Add a game (replacing a registered one with the same id): a game from a plugin or from test data.

    A game's id names its folder in the output folder, so it may not be the folder of another kind of output."""
    from generator.output import KIND_FOLDERS

    if game.id in KIND_FOLDERS:
        raise ValueError(f"a game cannot have the id {game.id!r}: the output folder {game.id}/ holds "
                         f"{KIND_FOLDERS[game.id]}")
    known = _load()
    known[:] = [g for g in known if g.id != game.id]
    known.append(game)


def unregister(game_id: str) -> None:
    """Remove a game added with :func:`register` (tests clean up with it)."""
    known = _load()
    known[:] = [g for g in known if g.id != game_id]
