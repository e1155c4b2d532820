"""What the companion keeps: tables being entered and finished games, as queries on a `sqlite3.Connection`.

Write functions run on the database's writer thread (`Database.write`), each in one transaction; read functions
on any reader. Stored end states and results are the JSON of end-states.md.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

#: The most a part of a table may weigh as JSON: a full castle sheet is well under 1 KiB.
MOST_PART_BYTES = 32_768


class StoreError(ValueError):
    """A request the store cannot carry out (no such table, a table already saved...); the message says why."""


def now() -> str:
    """Local time as BG Stats and people read it: 'YYYY-MM-DD HH:MM:SS'."""
    return datetime.now().strftime("%Y-%m-%d %H:%M:%S")


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


# --- tables -------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TablePart:
    seat: int
    name: str
    data: dict[str, Any]


@dataclass(frozen=True)
class GameTable:
    id: int
    game: str
    created_at: str
    options: dict[str, Any]
    team: list[str]
    shared: dict[str, Any]
    parts: tuple[TablePart, ...]
    version: int
    game_id: int | None

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.parts] if self.parts else list(self.team)


def create_table(conn: sqlite3.Connection, game: str, options: Mapping[str, Any], names: Sequence[str],
                 team: Sequence[str], part: Mapping[str, Any], shared: Mapping[str, Any]) -> int:
    cursor = conn.execute("INSERT INTO tables (game, created_at, options, team, shared) VALUES (?, ?, ?, ?, ?)",
                          (game, now(), _dump(dict(options)), _dump(list(team)), _dump(dict(shared))))
    table_id = int(cursor.lastrowid or 0)
    conn.executemany("INSERT INTO table_parts (table_id, seat, name, data) VALUES (?, ?, ?, ?)",
                     [(table_id, seat, name, _dump(dict(part))) for seat, name in enumerate(names)])
    return table_id


def load_table(conn: sqlite3.Connection, table_id: int) -> GameTable:
    row = conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise StoreError(f"no table {table_id}")
    rows = conn.execute("SELECT seat, name, data FROM table_parts WHERE table_id = ? ORDER BY seat", (table_id,))
    parts = tuple(TablePart(r["seat"], r["name"], json.loads(r["data"])) for r in rows)
    return GameTable(row["id"], row["game"], row["created_at"], json.loads(row["options"]), json.loads(row["team"]),
                 json.loads(row["shared"]), parts, row["version"], row["game_id"])


def table_version(conn: sqlite3.Connection, table_id: int) -> int | None:
    row = conn.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
    return None if row is None else int(row[0])


def recent_tables(conn: sqlite3.Connection, limit: int = 20) -> list[dict[str, Any]]:
    rows = conn.execute("SELECT t.id, t.game, t.created_at, t.game_id, t.team, "
                        "(SELECT group_concat(name, ', ') FROM table_parts p WHERE p.table_id = t.id) AS names "
                        "FROM tables t ORDER BY t.id DESC LIMIT ?", (limit,))
    out = []
    for r in rows:
        names = r["names"] or ", ".join(json.loads(r["team"]))
        out.append({"id": r["id"], "game": r["game"], "created_at": r["created_at"], "game_id": r["game_id"],
                    "names": names})
    return out


def edit_table(conn: sqlite3.Connection, table_id: int, seat: int | None,
               change: Callable[[GameTable, dict[str, Any]], None]) -> GameTable:
    """Apply `change` to a part's data (or the shared fields' when `seat` is None), bump the version, and give
    the table as it now is (read in the same transaction: the page shows exactly what it wrote)."""
    table = load_table(conn, table_id)
    if table.game_id is not None:
        raise StoreError("this game is saved; its table can no longer change")
    if seat is None:
        data = table.shared
    else:
        part = next((p for p in table.parts if p.seat == seat), None)
        if part is None:
            raise StoreError(f"no seat {seat} at table {table_id}")
        data = part.data
    change(table, data)
    text = _dump(data)
    if len(text.encode()) > MOST_PART_BYTES:
        raise StoreError(f"this part would hold more than {MOST_PART_BYTES // 1024} KiB")
    if seat is None:
        conn.execute("UPDATE tables SET shared = ? WHERE id = ?", (text, table_id))
    else:
        conn.execute("UPDATE table_parts SET data = ? WHERE table_id = ? AND seat = ?", (text, table_id, seat))
    conn.execute("UPDATE tables SET version = version + 1 WHERE id = ?", (table_id,))
    return load_table(conn, table_id)


# --- games --------------------------------------------------------------------------------------------------------

def player_rows(result: Mapping[str, Any], team: Sequence[str]) -> list[tuple[str, int, int, bool]]:
    """(name, score, place, winner) per player of a result; a cooperative team's members share its result."""
    rows = []
    for player in result.get("players", []):
        if team and "won" in result:
            for name in team:
                rows.append((name, int(player["score"]), int(player["place"]), bool(result["won"])))
        else:
            won = bool(result.get("won")) if "won" in result else player["name"] == result.get("winner")
            rows.append((player["name"], int(player["score"]), int(player["place"]), won))
    return rows


def save_game(conn: sqlite3.Connection, game: str, end_state: Mapping[str, Any], result: Mapping[str, Any], *,
              team: Sequence[str] = (), played_at: str | None = None, uid: str | None = None,
              idempotency_key: str | None = None, table_id: int | None = None) -> tuple[int, bool]:
    """Store a finished game once: (its id, whether it was stored now). A save with an Idempotency-Key, a uid or a
    table already saved gives the game stored then."""
    for column, value in (("idempotency_key", idempotency_key), ("uid", uid), ("table_id", table_id)):
        if value is not None:
            row = conn.execute(f"SELECT id FROM games WHERE {column} = ?", (value,)).fetchone()
            if row is not None:
                return int(row[0]), False
    cursor = conn.execute(
        "INSERT INTO games (uid, game, played_at, end_state, result, team, idempotency_key, table_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (uid or uuid.uuid4().hex, game, played_at or now(), _dump(dict(end_state)), _dump(dict(result)),
         _dump(list(team)), idempotency_key, table_id))
    game_id = int(cursor.lastrowid or 0)
    conn.executemany("INSERT INTO game_players (game_id, seat, name, score, place, winner) VALUES (?, ?, ?, ?, ?, ?)",
                     [(game_id, seat, name, score, place, int(won))
                      for seat, (name, score, place, won) in enumerate(player_rows(result, team))])
    if table_id is not None:
        conn.execute("UPDATE tables SET game_id = ?, version = version + 1 WHERE id = ?", (game_id, table_id))
    return game_id, True


def _game(row: sqlite3.Row, players: list[sqlite3.Row]) -> dict[str, Any]:
    return {
        "id": row["id"], "uid": row["uid"], "game": row["game"], "played_at": row["played_at"],
        "team": json.loads(row["team"]), "end_state": json.loads(row["end_state"]),
        "result": json.loads(row["result"]),
        "players": [{"name": p["name"], "score": p["score"], "place": p["place"], "winner": bool(p["winner"])}
                    for p in players],
    }


def list_games(conn: sqlite3.Connection, *, limit: int | None = None, player: str | None = None,
               oldest_first: bool = False) -> list[dict[str, Any]]:
    order = "ASC" if oldest_first else "DESC"
    where, params = ("", ()) if player is None else \
        ("WHERE id IN (SELECT game_id FROM game_players WHERE name = ?)", (player,))
    sql = f"SELECT * FROM games {where} ORDER BY played_at {order}, id {order}"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    rows = conn.execute(sql, params).fetchall()
    players: dict[int, list[sqlite3.Row]] = {}
    if rows:
        marks = ",".join("?" * len(rows))
        for p in conn.execute(f"SELECT * FROM game_players WHERE game_id IN ({marks}) ORDER BY game_id, seat",
                              [r["id"] for r in rows]):
            players.setdefault(p["game_id"], []).append(p)
    return [_game(r, players.get(r["id"], [])) for r in rows]


def get_game(conn: sqlite3.Connection, game_id: int) -> dict[str, Any] | None:
    row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        return None
    players = conn.execute("SELECT * FROM game_players WHERE game_id = ? ORDER BY seat", (game_id,)).fetchall()
    return _game(row, players)


def players(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every player with their games and wins, most games first."""
    rows = conn.execute("SELECT name, count(*) AS games, sum(winner) AS wins FROM game_players "
                        "GROUP BY name ORDER BY games DESC, name")
    return [{"name": r["name"], "games": r["games"], "wins": r["wins"],
             "win_rate": round(r["wins"] / r["games"], 3) if r["games"] else 0.0} for r in rows]


def player_stats(conn: sqlite3.Connection, name: str, lower_is_better: Sequence[str]) -> dict[str, Any] | None:
    """One player's games, wins, win rate, and per game: games, wins, best and average score, scores over time."""
    rows = conn.execute("SELECT g.id, g.game, g.played_at, g.result, p.score, p.place, p.winner FROM game_players p "
                        "JOIN games g ON g.id = p.game_id WHERE p.name = ? ORDER BY g.played_at, g.id",
                        (name,)).fetchall()
    if not rows:
        return None
    per_game: dict[str, dict[str, Any]] = {}
    for r in rows:
        entry = per_game.setdefault(r["game"], {"games": 0, "wins": 0, "scores": [], "inferred": False})
        entry["games"] += 1
        # a score computed from a value no rulebook states is never shown as official (end-states.md `inferred`)
        players = json.loads(r["result"])["players"]
        entry["inferred"] = entry["inferred"] or any(p.get("inferred") for p in players if p["name"] == name)
        entry["wins"] += r["winner"]
        entry["scores"].append({"game_id": r["id"], "played_at": r["played_at"], "score": r["score"],
                                "winner": bool(r["winner"])})
    for game, entry in per_game.items():
        scores = [s["score"] for s in entry["scores"]]
        entry["best"] = min(scores) if game in lower_is_better else max(scores)
        entry["average"] = round(sum(scores) / len(scores), 1)
    wins = sum(r["winner"] for r in rows)
    return {"name": name, "games": len(rows), "wins": wins, "win_rate": round(wins / len(rows), 3),
            "per_game": dict(sorted(per_game.items())), "any_inferred": any(e["inferred"] for e in per_game.values())}
