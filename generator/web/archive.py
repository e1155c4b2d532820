"""Exporting every saved game (JSON, CSV) and importing an export back, checked by the scorer again.

An export holds each game's `uid`, so importing it twice, or into the database it came from, adds nothing;
importing it into an empty database and exporting again gives the same games (the database's own row ids are
left out of the export for that reason).
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from generator.errors import InputError, Problem
from generator.web import store
from generator.web.games import Games

FORMAT = "donjon-history"
FORMAT_VERSION = 1
#: The keys of one exported game.
GAME_KEYS = ("uid", "game", "played_at", "team", "end_state", "result")


def export(conn: sqlite3.Connection) -> dict[str, Any]:
    games = store.list_games(conn, oldest_first=True)
    ordered = sorted(games, key=lambda g: (g["played_at"], g["uid"]))
    return {"format": FORMAT, "version": FORMAT_VERSION, "games": [{k: g[k] for k in GAME_KEYS} for g in ordered]}


def to_json(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def to_csv(data: Mapping[str, Any]) -> str:
    """One row per player of each game: for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["uid", "played_at", "game", "player", "score", "place", "winner"])
    for game in data["games"]:
        for name, score, place, won in store.player_rows(game["result"], game["team"]):
            writer.writerow([game["uid"], game["played_at"], game["game"], name, score, place, int(won)])
    return out.getvalue()


class HistoryFileError(InputError):
    """An export that cannot be imported: every problem, with the game it is in."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        super().__init__(file, problems[0].message if len(problems) == 1 else f"{len(problems)} problems")
        self.problems = tuple(problems)
        lines = [str(p) for p in problems]
        self.args = ("\n".join(lines) if len(lines) == 1 else
                     f"{file}: cannot be imported ({len(lines)} problems):\n" + "\n".join(f"  {x}" for x in lines),)

    def __str__(self) -> str:
        return str(self.args[0])


def check(data: Any, file: str, games: Games) -> list[dict[str, Any]]:
    """The games of an export, each scored again; raises with every problem found."""
    problems: list[Problem] = []
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise HistoryFileError(file, [Problem(file, None, "", f"is not a donjon history export (no \"format\": "
                                                               f"\"{FORMAT}\")")])
    if data.get("version") != FORMAT_VERSION:
        raise HistoryFileError(file, [Problem(file, None, "version", f"is {data.get('version')!r}; this donjon reads "
                                                                     f"version {FORMAT_VERSION}")])
    entries = data.get("games")
    if not isinstance(entries, list):
        raise HistoryFileError(file, [Problem(file, None, "games", "expected a list of games")])
    out = []
    for index, entry in enumerate(entries):
        where = f"games[{index}]"
        if not isinstance(entry, dict) or set(entry) != set(GAME_KEYS):
            problems.append(Problem(file, None, where, f"expected the keys {', '.join(GAME_KEYS)}"))
            continue
        if not (isinstance(entry["uid"], str) and 0 < len(entry["uid"]) <= 64 and isinstance(entry["played_at"], str)
                and isinstance(entry["team"], list) and all(isinstance(n, str) for n in entry["team"])
                and isinstance(entry["end_state"], dict)):
            problems.append(Problem(file, None, where, "uid, played_at, team or end_state has the wrong type"))
            continue
        scored = games.score(entry["end_state"])
        if scored.result is None:
            problems.append(Problem(file, None, f"{where}.end_state", scored.error))
            continue
        if not (scored.result["valid"] and scored.result["finished"]):
            problems.append(Problem(file, None, f"{where}.end_state", "is not a valid, finished game"))
            continue
        out.append({**entry, "result": scored.result})
    if problems:
        raise HistoryFileError(file, problems)
    return out


def import_games(conn: sqlite3.Connection, entries: list[dict[str, Any]]) -> tuple[int, int]:
    """Store the checked games (in one transaction): how many were added, and how many were there already."""
    added = 0
    for entry in entries:
        _, created = store.save_game(conn, entry["result"]["game"], entry["end_state"], entry["result"],
                                     team=entry["team"], played_at=entry["played_at"], uid=entry["uid"])
        added += created
    return added, len(entries) - added
