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
from generator.fields import normalise_name
from generator.wording import listing

if TYPE_CHECKING:
    from generator.games.base import Game

#: The built-in games, in the order donjon lists, builds and checks them: each game's id and its package. The ids
#: are here so that listing them (content folders, user decks' ids) imports no game package.
BUILT_IN: tuple[tuple[str, str], ...] = (
    ("guildhall", "generator.games.guildhall"),
    ("guedelon", "generator.games.guedelon"),
    ("once-upon-a-castle", "generator.games.castle"),
)

#: The games, in order: a built-in one stays a package name until it is first needed.
_games: list[Game[Any, Any] | tuple[str, str]] = list(BUILT_IN)


class UnknownGame(UsageError):
    """A name that is no game donjon knows; the message lists the games it knows."""

    def __init__(self, name: str, known: tuple[str, ...], where: str = "game") -> None:
        self.name = name
        self.known = known
        super().__init__(where, f"unknown game {name!r}; donjon knows {listing(known, 'and')}")


def _id(entry: Game[Any, Any] | tuple[str, str]) -> str:
    return entry[0] if isinstance(entry, tuple) else entry.id


def _get(index: int) -> Game[Any, Any]:
    """The game at `index`, its package imported on first use."""
    entry = _games[index]
    if isinstance(entry, tuple):
        game: Game[Any, Any] = importlib.import_module(entry[1]).GAME
        if game.id != entry[0]:
            raise RuntimeError(f"{entry[1]} defines the game {game.id!r}, not {entry[0]!r} as BUILT_IN says")
        _games[index] = entry = game
    return entry


def _load() -> list[Game[Any, Any]]:
    return [_get(index) for index in range(len(_games))]


def games() -> tuple[Game[Any, Any], ...]:
    """Every registered game, built-in ones first."""
    return tuple(_load())


def game_ids() -> tuple[str, ...]:
    """The ids of every registered game (importing no game package)."""
    return tuple(_id(g) for g in _games)


def find_game(name: str, where: str = "game") -> Game[Any, Any]:
    """The game `name` names, by its id, its name or an edition's title (`Oh mon château`) in any case, with or
    without accents.

    Raises :class:`UnknownGame` (exit 2) naming `where` (the option or key at fault) and the games donjon knows.
    """
    key = normalise_name(name)
    for index, entry in enumerate(_games):  # by id: only that game's package is imported
        if _id(entry) in (name, key):
            return _get(index)
    known = _load()
    for game in known:
        if key == normalise_name(game.name) or key in (normalise_name(t) for t in game.titles):
            return game
    raise UnknownGame(name, tuple(g.id for g in known), where)


def register(game: Game[Any, Any]) -> None:
    """Add a game (replacing a registered one with the same id): a game from a plugin or from test data.

    A game's id names its folder in the output folder, so it may not be the folder of another kind of output."""
    from generator.output import KIND_FOLDERS

    if game.id in KIND_FOLDERS:
        raise ValueError(f"a game cannot have the id {game.id!r}: the output folder {game.id}/ holds "
                         f"{KIND_FOLDERS[game.id]}")
    unregister(game.id)
    _games.append(game)


def unregister(game_id: str) -> None:
    """Remove a game (tests remove the game they added)."""
    _games[:] = [g for g in _games if _id(g) != game_id]
