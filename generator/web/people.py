"""Players as people: renaming one, and merging two names that are one person, in every saved game.

A name is matched by its key (`db.player_key`: no case, accents, surrounding spaces or characters no one sees).
Renaming rewrites the name wherever a game's end state holds it (the players' parts, the team, a field naming a
player such as whose turn ended the game), scores each game again through the engine, and keeps the game's earlier
state as a version (action `rename` or `merge`), as a correction does: nothing is lost, and the history, the
statistics, the export and BG Stats all see the new name.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from generator.games.table import TableHints
from generator.web import messages, store
from generator.web.db import player_key
from generator.web.games import Games


class PeopleError(messages.Said):
    """A rename or a merge that cannot be done (the names are one player already, or two seats of one game).
    `about`: which of the two names it is about, `old` (the name renamed or merged away) and `new` (the name
    from now on, or the player merged into), so that the command line names its argument (`OLD 'Zed': ...`)."""

    def __init__(self, message: str, about: tuple[str, ...], **values: Any) -> None:
        super().__init__(message, **values)
        self.about = about


def renamed_state(state: Mapping[str, Any], hints: TableHints, old: str, new: str) -> dict[str, Any]:
    """An end state with the player known by key `old` named `new` (where the game's format holds names)."""
    out = dict(state)
    if hints.parts and isinstance(out.get(hints.parts), list):
        out[hints.parts] = [{**part, hints.part_name: new} if isinstance(part, dict)
                            and player_key(str(part.get(hints.part_name, ""))) == old else part
                            for part in out[hints.parts]]
    for name, widget in hints.widgets.items():
        value = out.get(name)
        if widget.kind == "player" and isinstance(value, str) and player_key(value) == old:
            out[name] = new
    return out


def _apply(conn: sqlite3.Connection, games: Games, old: str, new: str, who: str, action: str) -> int:
    """Rename the player known as `old` to `new` in every saved game they played, the deleted ones too: how many
    games of the history (not deleted) changed."""
    old_key = player_key(old)
    changed = 0
    for game_id in store.player_games(conn, old):
        game = store.get_game(conn, game_id)
        assert game is not None
        names = [p["name"] for p in game["players"]]
        if action == "merge" and any(player_key(n) == player_key(new) for n in names):
            raise PeopleError(messages.MERGE_BOTH, ("old", "new"), a=old, b=new, game=game_id)
        state, result, team = _renamed(games, game_id, game, old_key, new)
        store.update_game(conn, game_id, state, result, team=team, who=who, action=action)
        changed += 1
    # the games deleted (kept, marked) follow the person too: put back, one came back under the name it was deleted
    # with, the person shown twice (the rename undone for that evening)
    new_key = player_key(new)
    for deleted in store.deleted_games_of(conn, old):
        if new_key != old_key and any(player_key(seat[0]) == new_key
                                      for seat in store.player_rows(deleted["result"], deleted["team"])):
            continue  # two seats of that game would be one player: it keeps its names (shown nowhere, refused nothing)
        state, result, team = _renamed(games, deleted["id"], deleted, old_key, new)
        store.rename_deleted_game(conn, deleted["id"], state, result, team, who, action)
    return changed


def _renamed(games: Games, game_id: int, game: Mapping[str, Any], old_key: str,
             new: str) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """A saved game (its `game`, `end_state` and `team`) with the player known by `old_key` named `new`: its end
    state, its result scored again and its team."""
    state = renamed_state(game["end_state"], games.hints(game["game"]), old_key, new)
    team = [new if player_key(n) == old_key else n for n in game["team"]]
    scored = games.score(state)
    if scored.result is None:  # a game saved valid stays readable with another name; never expected
        raise PeopleError(messages.RESCORE_FAILED, ("new",), game=game_id, error=scored.error)
    return state, scored.result, team


def rename(conn: sqlite3.Connection, games: Games, old: str, new: str, who: str = messages.BY_COMMAND) -> int:
    """Give a player another name in every game (or the same name written otherwise: "ana" to "Ana")."""
    if not store.player_games(conn, old):
        raise PeopleError(messages.NO_PLAYER, ("old",))
    if old == new:
        raise PeopleError(messages.RENAME_SAME, ("new",), name=new)
    if player_key(old) != player_key(new) and store.player_games(conn, new):
        raise PeopleError(messages.RENAME_TAKEN, ("new",), old=old, new=new)
    return _apply(conn, games, old, new, who, "rename")


def merge(conn: sqlite3.Connection, games: Games, old: str, into: str, who: str = messages.BY_COMMAND) -> int:
    """Make `old` and `into` one player, under the name `into` has in the history."""
    missing = tuple(about for about, name in (("old", old), ("new", into)) if not store.player_games(conn, name))
    if missing:
        raise PeopleError(messages.NO_PLAYER, missing)
    if player_key(old) == player_key(into):
        raise PeopleError(messages.MERGE_SAME, ("old", "new"), name=old, other=into)
    shown = next(p["name"] for p in store.players(conn) if player_key(p["name"]) == player_key(into))
    return _apply(conn, games, old, shown, who, "merge")
