"""What the companion keeps: tables being entered and finished games, as queries on a `sqlite3.Connection`.

Write functions run on the database's writer thread (`Database.write`), each in one transaction; read functions
on any reader. Stored end states and results are the JSON of end-states.md.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from generator.fields import visible_name
from generator.web import messages
from generator.web.db import player_key

#: The most a part of a table may weigh as JSON: a full castle sheet is well under 1 KiB.
MOST_PART_BYTES = 32_768


class StoreError(messages.Said):
    """A request the store cannot carry out (no such table, a table already saved...); the message says why."""


class AnotherTable(StoreError):
    """A tap kept on a phone since another evening, whose database had a table of this number (409): the `made` its
    page sent is not when this table was made."""


class KeyReused(StoreError):
    """An Idempotency-Key sent again with another body: a client bug, or a key shared by two games (409)."""


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
    #: the saved game this table corrects (its save makes a new version of that game), if any
    corrects: int | None = None
    #: the seats with an edit that can be undone (None: the shared fields), each with the id of the edit its Undo
    #: takes back (the undo names it: a second undo of a double tap then takes back nothing more)
    undoable: Mapping[int | None, int] = field(default_factory=dict)
    #: the version of the game `corrects` this table was opened from (None: a table opened before donjon kept it)
    corrects_version: int | None = None
    #: how many photos of sheets the table has kept so far (those let go by a start over too; it only grows): with
    #: `version`, the key of a photo's form (a form drawn after a photo was kept is not the form it came from)
    photos_taken: int = 0
    #: the game `corrects` was deleted since this table opened it (on another phone, or by `donjon history`): there
    #: is no game left to correct, and the table's pages offer to save it as a new game (a deletion draws every
    #: unsaved table correcting that game anew: delete_game)
    corrects_deleted: bool = False

    @property
    def photo_form_key(self) -> str:
        """The key a photo's form carries (the player's page, the check page, every player's sheet): the table as
        the page was drawn. That form sent again with the same photo (a double tap, a resend after a lost answer)
        is the first send again; a page drawn after a photo was kept, a start over with that very photo among them,
        has a key of its own."""
        return f"v{self.version}-p{self.photos_taken}"

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.parts] if self.parts else list(self.team)

    def has_seat(self, seat: int | None) -> bool:
        """Whether a player sits at `seat` (a cooperative game's table has no seats; None is no seat)."""
        return any(p.seat == seat for p in self.parts)


def create_table(conn: sqlite3.Connection, game: str, options: Mapping[str, Any], names: Sequence[str],
                 team: Sequence[str], part: Mapping[str, Any] | Sequence[Mapping[str, Any]],
                 shared: Mapping[str, Any], corrects: int | None = None, form_key: str | None = None) -> int:
    """A new table; `part` is every seat's first part, or one part per seat (a saved game being corrected, whose
    version now is kept with the table). With the `form_key` of a table opened already (its form sent twice), that
    table, as it is: looked up here, in the writer, so that two sends arriving together still open one. Not once
    its game is saved: a double tap or a resend comes before a game is played, and the form sent after it is the
    back button's page, the same players typed for another game; the new table takes the key over."""
    if form_key is not None:
        row = conn.execute("SELECT id, game_id FROM tables WHERE form_key = ?", (form_key,)).fetchone()
        if row is not None and row[1] is None:
            return int(row[0])
        if row is not None:  # the key is unique: the saved table lets go of it (no send of its form comes now)
            conn.execute("UPDATE tables SET form_key = NULL WHERE id = ?", (row[0],))
    since = None if corrects is None else latest_version(conn, corrects)
    cursor = conn.execute("INSERT INTO tables (game, created_at, options, team, shared, corrects, corrects_version, "
                          "form_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                          (game, now(), _dump(dict(options)), _dump(list(team)), _dump(dict(shared)), corrects, since,
                           form_key))
    table_id = int(cursor.lastrowid or 0)
    parts = [part] * len(names) if isinstance(part, Mapping) else list(part)
    conn.executemany("INSERT INTO table_parts (table_id, seat, name, data) VALUES (?, ?, ?, ?)",
                     [(table_id, seat, name, _dump(dict(data))) for seat, (name, data) in enumerate(zip(names, parts))])
    return table_id


def newest_table(conn: sqlite3.Connection) -> int:
    """The id of the newest table (0: none yet)."""
    return int(conn.execute("SELECT coalesce(max(id), 0) FROM tables").fetchone()[0])


def correction_table(conn: sqlite3.Connection, game_id: int, game: str, options: Mapping[str, Any],
                     names: Sequence[str], team: Sequence[str], parts: Sequence[Mapping[str, Any]],
                     shared: Mapping[str, Any]) -> int:
    """The table correcting a saved game: the one already open for it (not saved yet), else a new one from the
    game as it stands. Two phones that tap "Correct" on one game then correct it together at one table, each
    seeing the other's changes: with a table each, the second saved would write over the first's correction."""
    row = conn.execute("SELECT id FROM tables WHERE corrects = ? AND game_id IS NULL AND corrects_version = ? "
                       "ORDER BY id DESC LIMIT 1", (game_id, latest_version(conn, game_id))).fetchone()
    if row is not None:  # one opened from an older version would be refused its save: a new one
        return int(row[0])
    return create_table(conn, game, options, names, team, parts, shared, corrects=game_id)


def latest_version(conn: sqlite3.Connection, game_id: int) -> int:
    """The number of a saved game's newest version (0: none)."""
    return int(conn.execute("SELECT coalesce(max(number), 0) FROM game_versions WHERE game_id = ?",
                            (game_id,)).fetchone()[0])


def load_table(conn: sqlite3.Connection, table_id: int) -> GameTable:
    row = conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise StoreError(messages.NO_TABLE, table=table_id)
    rows = conn.execute("SELECT seat, name, data FROM table_parts WHERE table_id = ? ORDER BY seat", (table_id,))
    parts = tuple(TablePart(r["seat"], r["name"], json.loads(r["data"])) for r in rows)
    # each seat's newest edit not undone, found through the index (table_id, seat, id): a table is loaded for
    # every edit and every poll that sees a change, and counting its edits would read all of them each time
    newest = {seat: conn.execute(
        "SELECT id FROM table_edits WHERE table_id = ? AND seat IS ? AND undone = 0 ORDER BY id DESC LIMIT 1",
        (table_id, seat)).fetchone() for seat in [p.seat for p in parts] + [None]}
    undoable = {seat: int(found[0]) for seat, found in newest.items() if found is not None}
    return GameTable(row["id"], row["game"], row["created_at"], json.loads(row["options"]), json.loads(row["team"]),
                     json.loads(row["shared"]), parts, row["version"], row["game_id"], row["corrects"], undoable,
                     row["corrects_version"], row["photos_taken"],
                     row["corrects"] is not None and was_deleted(conn, row["corrects"]))


def first_edit_at(conn: sqlite3.Connection, table_id: int) -> str | None:
    """When a table's first edit was made (the game's start, for BG Stats' duration); None before any."""
    first: str | None = conn.execute("SELECT min(at) FROM table_edits WHERE table_id = ?", (table_id,)).fetchone()[0]
    return first


def table_made(conn: sqlite3.Connection, table_id: int) -> str | None:
    """When a table was made ('YYYY-MM-DD HH:MM:SS'; None: no such table), which the edits of its pages carry."""
    row = conn.execute("SELECT created_at FROM tables WHERE id = ?", (table_id,)).fetchone()
    return None if row is None else str(row[0])


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


def _part_data(table: GameTable, seat: int | None) -> dict[str, Any]:
    if seat is None:
        return table.shared
    part = next((p for p in table.parts if p.seat == seat), None)
    if part is None:
        raise StoreError(messages.NO_SEAT, seat=seat)
    return part.data


def _store_part(conn: sqlite3.Connection, table_id: int, seat: int | None, data: Mapping[str, Any]) -> None:
    text = _dump(dict(data))
    if len(text.encode()) > MOST_PART_BYTES:
        raise StoreError(messages.PART_TOO_BIG, most=MOST_PART_BYTES // 1024)
    if seat is None:
        conn.execute("UPDATE tables SET shared = ? WHERE id = ?", (text, table_id))
    else:
        conn.execute("UPDATE table_parts SET data = ? WHERE table_id = ? AND seat = ?", (text, table_id, seat))
    conn.execute("UPDATE tables SET version = version + 1 WHERE id = ?", (table_id,))


#: The most photos kept of one player's sheet. Glare or a finger hides a few marks of a photo; the next one, the phone
#: tilted or the hand moved, shows them, and a third settles what two disagree on: more than that is taking the same
#: photo again (starting over, or typing the values still undecided, settles it). Each photo is kept in the database,
#: up to SHEET_MAX_BYTES (96 MiB): five of them at a seat is half a GB of a laptop's disk.
MOST_PHOTOS_PER_SEAT = 5


class TooManyPhotos(StoreError):
    """A photo added to a sheet that has MOST_PHOTOS_PER_SEAT photos kept already."""


class SamePhoto(StoreError):
    """A photo added to a sheet that is one of its photos kept already (nothing new to read)."""


def add_photo(conn: sqlite3.Connection, table_id: int, seat: int, name: str, data: bytes, *, first: bool,
              reading: str | None = None, image: bytes | None = None, form_key: str | None = None) -> int:
    """Keep a photo of a player's paper sheet, with what it read (`reading`, JSON, and `image`, the sheet
    straightened: `games.KeptRead`): the `first` of a new sheet's photos (the earlier ones, of a sheet the player
    starts over with, are let go), or one more photo of the same sheet (at most MOST_PHOTOS_PER_SEAT:
    :class:`TooManyPhotos`; this very photo kept already: :class:`SamePhoto`). Its number among the seat's photos.
    Sent again with its form's `form_key` (a double tap, a resend after a lost answer), the photo kept then, and
    nothing let go: looked up here, in the writer, as two sends arriving together are both read before either is
    kept."""
    _part_data(_open_table(conn, table_id), seat)  # the table still open, the seat one of it
    if form_key is not None and (kept := photo_sent(conn, table_id, seat, form_key)) is not None:
        return kept
    if not first and photo_kept(conn, table_id, seat, data):  # checked here too: sent twice at once, without a key
        raise SamePhoto(messages.SAME_PHOTO)
    if first:
        conn.execute("DELETE FROM table_photos WHERE table_id = ? AND seat = ?", (table_id, seat))
        conn.execute("DELETE FROM photo_answers WHERE table_id = ? AND seat = ?", (table_id, seat))
    elif photo_count(conn, table_id, seat) >= MOST_PHOTOS_PER_SEAT:  # checked here too: two phones at once
        raise TooManyPhotos(messages.TOO_MANY_PHOTOS, most=MOST_PHOTOS_PER_SEAT)
    number = int(conn.execute("SELECT coalesce(max(number), 0) + 1 FROM table_photos WHERE table_id = ? AND seat = ?",
                              (table_id, seat)).fetchone()[0])
    conn.execute("INSERT INTO table_photos (table_id, seat, number, name, data, at, reading, image, form_key) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (table_id, seat, number, name, data, now(), reading, image, form_key))
    # not the table's version: a photo kept changes no part (the marks kept do), and a Save drawn before it stands
    conn.execute("UPDATE tables SET photos_taken = photos_taken + 1 WHERE id = ?", (table_id,))
    return number


def photo_sent(conn: sqlite3.Connection, table_id: int, seat: int, form_key: str) -> int | None:
    """The number of the photo of a player's sheet kept from the form of this key already (the form sent again),
    or None."""
    row = conn.execute("SELECT number FROM table_photos WHERE table_id = ? AND seat = ? AND form_key = ?",
                       (table_id, seat, form_key)).fetchone()
    return None if row is None else int(row[0])


def photo_count(conn: sqlite3.Connection, table_id: int, seat: int) -> int:
    """How many photos are kept of a player's paper sheet."""
    return int(conn.execute("SELECT count(*) FROM table_photos WHERE table_id = ? AND seat = ?",
                            (table_id, seat)).fetchone()[0])


class PhotoKept(NamedTuple):
    """A photo kept of a player's sheet without its bytes: its number, its file's name and what it read when it was
    taken (None for `reading` and `image` when it was kept before readings were)."""

    number: int
    name: str
    reading: str | None
    image: bytes | None


def seat_readings(conn: sqlite3.Connection, table_id: int, seat: int) -> list[PhotoKept]:
    """What the photos kept of a player's sheet read, in the order taken; the photos themselves (up to 96 MiB each)
    are not loaded."""
    rows = conn.execute("SELECT number, name, reading, image FROM table_photos WHERE table_id = ? AND seat = ? "
                        "ORDER BY number", (table_id, seat))
    return [PhotoKept(int(r["number"]), str(r["name"]), r["reading"],
                      None if r["image"] is None else bytes(r["image"])) for r in rows]


def photo_data(conn: sqlite3.Connection, table_id: int, seat: int, number: int) -> bytes:
    """The bytes of one photo kept of a player's sheet (b"" when it is no longer kept)."""
    row = conn.execute("SELECT data FROM table_photos WHERE table_id = ? AND seat = ? AND number = ?",
                       (table_id, seat, number)).fetchone()
    return b"" if row is None else bytes(row["data"])


def keep_reading(conn: sqlite3.Connection, table_id: int, seat: int, number: int, reading: str, image: bytes) -> None:
    """Keep what a photo kept before readings were read (`add_photo`), once it is read."""
    conn.execute("UPDATE table_photos SET reading = ?, image = ? WHERE table_id = ? AND seat = ? AND number = ?",
                 (reading, image, table_id, seat, number))


def photo_kept(conn: sqlite3.Connection, table_id: int, seat: int, data: bytes) -> bool:
    """Whether this very photo is kept of a player's sheet already (compared in SQLite: nothing loaded)."""
    return conn.execute("SELECT 1 FROM table_photos WHERE table_id = ? AND seat = ? AND data = ? LIMIT 1",
                        (table_id, seat, data)).fetchone() is not None


def photos_kept(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """The photos kept of players' paper sheets, by table and seat, oldest table first: the table, the game it was
    saved as (None while it is open), the player, how many photos and their bytes, and when the last was taken."""
    rows = conn.execute("SELECT p.table_id, p.seat, t.game_id, coalesce(tp.name, '') AS name, count(*) AS photos, "
                        "sum(length(p.data)) AS bytes, max(p.at) AS at FROM table_photos p "
                        "JOIN tables t ON t.id = p.table_id "
                        "LEFT JOIN table_parts tp ON tp.table_id = p.table_id AND tp.seat = p.seat "
                        "GROUP BY p.table_id, p.seat ORDER BY p.table_id, p.seat")
    return [{"table": r["table_id"], "seat": r["seat"], "game_id": r["game_id"], "player": r["name"],
             "photos": r["photos"], "bytes": r["bytes"], "last_at": r["at"]} for r in rows]


def let_go_saved_photos(conn: sqlite3.Connection) -> tuple[int, int]:
    """Let go the photos kept of the sheets at tables whose game is saved (the saved game holds the values they
    gave, and a saved table takes no more photos or edits), with what their players answered about them: how many
    photos, and their bytes. The photos of tables still open are kept."""
    saved = "SELECT id FROM tables WHERE game_id IS NOT NULL"
    count, size = conn.execute(f"SELECT count(*), coalesce(sum(length(data)), 0) FROM table_photos "
                               f"WHERE table_id IN ({saved})").fetchone()
    conn.execute(f"DELETE FROM table_photos WHERE table_id IN ({saved})")
    conn.execute(f"DELETE FROM photo_answers WHERE table_id IN ({saved})")
    return int(count), int(size)


class Answers(NamedTuple):
    """What a player answered on the check page of their sheet's photos: each mark tapped (its number in the sheet's
    map -> filled or not) and each value typed (a field -> its value, as `donjon score --set` takes it)."""

    marks: dict[int, bool]
    given: dict[str, str]


def keep_answers(conn: sqlite3.Connection, table_id: int, seat: int, answers: Answers) -> None:
    """Keep what a player answered on the check page of their sheet's photos, in place of what was kept before."""
    _part_data(_open_table(conn, table_id), seat)  # the table still open, the seat one of it
    text = json.dumps({"marks": {str(k): v for k, v in sorted(answers.marks.items())}, "given": answers.given},
                      sort_keys=True)
    if len(text.encode()) > MOST_PART_BYTES:  # a page sends a few values; a bigger body is no player's
        raise StoreError(messages.PART_TOO_BIG, most=MOST_PART_BYTES // 1024)
    conn.execute("INSERT INTO photo_answers (table_id, seat, answers) VALUES (?, ?, ?) ON CONFLICT (table_id, seat) "
                 "DO UPDATE SET answers = excluded.answers", (table_id, seat, text))


def seat_answers(conn: sqlite3.Connection, table_id: int, seat: int) -> Answers:
    """What a player answered on the check page of their sheet's photos (nothing when they answered nothing)."""
    row = conn.execute("SELECT answers FROM photo_answers WHERE table_id = ? AND seat = ?",
                       (table_id, seat)).fetchone()
    data = json.loads(row["answers"]) if row is not None else {}
    return Answers({int(k): bool(v) for k, v in data.get("marks", {}).items()},
                   {str(k): str(v) for k, v in data.get("given", {}).items()})


def _spent(conn: sqlite3.Connection, table_id: int, key: str | None) -> bool:
    """Whether the edit carrying `key` reached this table already (a phone's retry after a lost answer)."""
    return key is not None and conn.execute("SELECT 1 FROM table_edits WHERE table_id = ? AND key = ?",
                                            (table_id, key)).fetchone() is not None


def _open_table(conn: sqlite3.Connection, table_id: int) -> GameTable:
    """The table, if it may still change (a saved game's table may not)."""
    table = load_table(conn, table_id)
    if table.game_id is not None:
        raise StoreError(messages.TABLE_SAVED)
    return table


def _same_table(conn: sqlite3.Connection, table_id: int, made: str | None) -> None:
    """Refuse an edit whose page showed a table made at another moment (`made`; None or empty: an older page or a
    script, which says nothing and is taken). Read in the edit's own write transaction, so the table checked is the
    table changed."""
    if made and made != table_made(conn, table_id):
        raise AnotherTable(messages.ANOTHER_TABLE, table=table_id)


def edit_table(conn: sqlite3.Connection, table_id: int, seat: int | None,
               change: Callable[[GameTable, dict[str, Any]], None], key: str | None = None,
               made: str | None = None) -> GameTable:
    """Apply `change` to a part's data (or the shared fields' when `seat` is None), bump the version, and give
    the table as it now is (read in the same transaction: the page shows exactly what it wrote).

    An edit with a `key` already applied to this table is not applied again (a phone's retry after a lost
    answer): the table is given as it is. `made`: when the table the page showed was made (see _same_table)."""
    _same_table(conn, table_id, made)
    if _spent(conn, table_id, key):
        return load_table(conn, table_id)
    table = _open_table(conn, table_id)
    data = _part_data(table, seat)
    before = _dump(data)
    change(table, data)
    if _dump(data) != before:
        conn.execute("INSERT INTO table_edits (table_id, seat, key, at, before) VALUES (?, ?, ?, ?, ?)",
                     (table_id, seat, key, now(), before))
        _store_part(conn, table_id, seat, data)
    elif key is not None:  # nothing changed (a value set to what it was): the key is still spent
        conn.execute("INSERT INTO table_edits (table_id, seat, key, at, before, undone) VALUES (?, ?, ?, ?, ?, 1)",
                     (table_id, seat, key, now(), before))
    return load_table(conn, table_id)


def undo_edit(conn: sqlite3.Connection, table_id: int, seat: int | None, key: str | None = None,
              edit: int | None = None, made: str | None = None) -> GameTable:
    """Take back the last edit of a part (or of the shared fields) not yet undone; an undo sent again with its
    `key` (a retry) takes back nothing more. `edit`: the id of the edit the page's Undo showed it would take back
    (GameTable.undoable); refused when it is no longer the last one (a fast double tap, another phone's edit).
    `made`: when the table the page showed was made (see _same_table)."""
    _same_table(conn, table_id, made)
    if _spent(conn, table_id, key):
        return load_table(conn, table_id)
    _part_data(_open_table(conn, table_id), seat)
    row = conn.execute("SELECT id, before FROM table_edits WHERE table_id = ? AND seat IS ? AND undone = 0 "
                       "ORDER BY id DESC LIMIT 1", (table_id, seat)).fetchone()
    if edit is not None and (row is None or row["id"] != edit):
        raise StoreError(messages.UNDO_CHANGED)
    if row is None:
        raise StoreError(messages.NOTHING_TO_UNDO)
    conn.execute("UPDATE table_edits SET undone = 1 WHERE id = ?", (row["id"],))
    if key is not None:  # spent, never itself undone
        conn.execute("INSERT INTO table_edits (table_id, seat, key, at, before, undone) VALUES (?, ?, ?, ?, ?, 1)",
                     (table_id, seat, key, now(), row["before"]))
    _store_part(conn, table_id, seat, json.loads(row["before"]))
    return load_table(conn, table_id)


def rename_seat(conn: sqlite3.Connection, table_id: int, seat: int, name: str, was: str | None = None) -> GameTable:
    """Correct the name of who took a seat while the game is open; `was`, the name the phone showed: when another
    phone corrected it since to another name, this one is refused, not written over it."""
    table = _open_table(conn, table_id)
    _part_data(table, seat)
    now = next(p.name for p in table.parts if p.seat == seat)
    if was is not None and now not in (was, name):
        raise StoreError(messages.NAME_CHANGED_MEANWHILE, now=now, name=name)
    if any(player_key(p.name) == player_key(name) for p in table.parts if p.seat != seat):
        raise StoreError(messages.SEAT_TAKEN, name=name)
    conn.execute("UPDATE table_parts SET name = ? WHERE table_id = ? AND seat = ?", (name, table_id, seat))
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


def _write_players(conn: sqlite3.Connection, game_id: int, result: Mapping[str, Any], team: Sequence[str]) -> None:
    conn.execute("DELETE FROM game_players WHERE game_id = ?", (game_id,))
    conn.executemany("INSERT INTO game_players (game_id, seat, name, score, place, winner, player_key, inferred) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     [(game_id, seat, name, score, place, int(won), player_key(name),
                       int(player_inferred(result, name)))
                      for seat, (name, score, place, won) in enumerate(player_rows(result, team))])


def _add_version(conn: sqlite3.Connection, game_id: int, who: str, action: str, end_state: Mapping[str, Any],
                 result: Mapping[str, Any], team: Sequence[str], at: str | None = None) -> int:
    number = int(conn.execute("SELECT coalesce(max(number), 0) + 1 FROM game_versions WHERE game_id = ?",
                              (game_id,)).fetchone()[0])
    conn.execute("INSERT INTO game_versions (game_id, number, at, who, action, end_state, result, team) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (game_id, number, at or now(), who, action,
                                                     _dump(dict(end_state)), _dump(dict(result)), _dump(list(team))))
    return number


def save_game(conn: sqlite3.Connection, game: str, end_state: Mapping[str, Any], result: Mapping[str, Any], *,
              team: Sequence[str] = (), played_at: str | None = None, uid: str | None = None,
              idempotency_key: str | None = None, table_id: int | None = None, who: str = "donjon",
              duration_min: int | None = None, versions: Sequence[Mapping[str, Any]] = (),
              deleted_at: str | None = None, body: str | None = None,
              table_version: int | None = None) -> tuple[int, bool]:
    """Store a finished game once: (its id, whether it was stored now). A save with an Idempotency-Key, a uid or a
    table already saved gives the game stored then. `versions`: its history, when imported from an export.
    `body`: the fingerprint of the request that carried the Idempotency-Key; the same key with another body is
    refused (:class:`KeyReused`). `table_version`: the table's version the end state was read at
    (:func:`_unchanged`)."""
    for column, value in (("idempotency_key", idempotency_key), ("uid", uid), ("table_id", table_id)):
        if value is not None:
            row = conn.execute(f"SELECT id, idempotency_hash FROM games WHERE {column} = ?", (value,)).fetchone()
            if row is not None:
                if column == "idempotency_key" and body is not None and row[1] not in (None, body):
                    raise KeyReused(messages.KEY_REUSED, key=value, game=row[0])
                return int(row[0]), False
    _unchanged(conn, table_id, table_version)
    cursor = conn.execute(
        "INSERT INTO games (uid, game, played_at, end_state, result, team, idempotency_key, table_id, duration_min, "
        "deleted_at, idempotency_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (uid or uuid.uuid4().hex, game, played_at or now(), _dump(dict(end_state)), _dump(dict(result)),
         _dump(list(team)), idempotency_key, table_id, duration_min, deleted_at, body))
    game_id = int(cursor.lastrowid or 0)
    if deleted_at is None:
        _write_players(conn, game_id, result, team)
    for version in versions:
        _add_version(conn, game_id, str(version["who"]), str(version["action"]), version["end_state"],
                     version["result"], version["team"], str(version["at"]))
    if not versions:
        _add_version(conn, game_id, who, "save", end_state, result, team)
    if table_id is not None:
        conn.execute("UPDATE tables SET game_id = ?, version = version + 1 WHERE id = ?", (game_id, table_id))
    return game_id, True


def _unchanged(conn: sqlite3.Connection, table_id: int | None, version: int | None) -> None:
    """Refuse a table's save whose end state was read at its `version` when the table has changed since: a phone's tap
    written between the save's read and its write (answered, shown on that phone) would be missing from the game
    saved. Checked in the write, after a save of the same table (a Save sent twice) has been found."""
    if table_id is None or version is None:
        return
    row = conn.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is not None and int(row[0]) != version:
        raise StoreError(messages.CHANGED_WHILE_SAVING)


def body_hash(body: bytes) -> str:
    """A fingerprint of a request body: an Idempotency-Key used again for another body is refused."""
    import hashlib

    return hashlib.sha256(body).hexdigest()


def update_game(conn: sqlite3.Connection, game_id: int, end_state: Mapping[str, Any], result: Mapping[str, Any], *,
                team: Sequence[str] | None = None, who: str = "donjon", action: str = "edit",
                table_id: int | None = None, since: int | None = None,
                table_version: int | None = None) -> dict[str, Any]:
    """Correct a saved game: its new end state and result become the game, the old ones stay as a version.
    `since`: the version the correction was made from (a table's); refused once the game has changed after it, or
    was deleted, as the correction would undo that change. `table_version`: the correcting table's version the end state
    was read at (:func:`_unchanged`)."""
    saved = None if table_id is None else conn.execute("SELECT game_id FROM tables WHERE id = ?",
                                                       (table_id,)).fetchone()
    game = get_game(conn, game_id)
    if game is not None and saved is not None and saved[0] == game_id:  # two phones' saves of one table: once
        return game
    if game is None:
        deleted = since is not None and conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        raise StoreError(messages.CORRECTED_GAME_DELETED if deleted else messages.NO_GAME, game=game_id)
    if since is not None and latest_version(conn, game_id) != since:
        raise StoreError(messages.GAME_CHANGED, game=game_id)
    _unchanged(conn, table_id, table_version)
    team = list(game["team"] if team is None else team)
    if table_id is not None and json.loads(_dump(dict(end_state))) == game["end_state"] and team == game["team"]:
        # a table that corrected nothing (Correct tapped by mistake, then Save): the table is done, but the game
        # gets no version saying it was corrected when it was not
        conn.execute("UPDATE tables SET game_id = ?, version = version + 1 WHERE id = ?", (game_id, table_id))
        return game
    conn.execute("UPDATE games SET end_state = ?, result = ?, team = ? WHERE id = ?",
                 (_dump(dict(end_state)), _dump(dict(result)), _dump(team), game_id))
    _write_players(conn, game_id, result, team)
    _add_version(conn, game_id, who, action, end_state, result, team)
    if table_id is not None:
        conn.execute("UPDATE tables SET game_id = ?, version = version + 1 WHERE id = ?", (game_id, table_id))
    found = get_game(conn, game_id)
    assert found is not None
    return found


def delete_game(conn: sqlite3.Connection, game_id: int, who: str = "donjon") -> None:
    """Take a saved game out of the history and the statistics; it is kept, with its versions, marked deleted."""
    game = get_game(conn, game_id)
    if game is None:
        raise StoreError(messages.NO_GAME, game=game_id)
    conn.execute("UPDATE games SET deleted_at = ? WHERE id = ?", (now(), game_id))
    conn.execute("DELETE FROM game_players WHERE game_id = ?", (game_id,))
    # a table correcting it, not saved yet, changes with it: its pages (drawn once per table version, and asked
    # for by open phones when the version moves) said "This table corrects saved game N" and "Save the correction"
    # until Save was tapped and refused; drawn anew, they say the game is gone and offer to save it as a new game
    conn.execute("UPDATE tables SET version = version + 1 WHERE corrects = ? AND game_id IS NULL", (game_id,))
    _add_version(conn, game_id, who, "delete", game["end_state"], game["result"], game["team"])


def restore_game(conn: sqlite3.Connection, game_id: int, who: str = "donjon") -> None:
    """Put a deleted game back in the history and the statistics, as it was when deleted (a version says so); a
    game not deleted is left as it is (the same tap sent twice). Refused when a correction of it was saved as a game
    of its own meanwhile ("Save as a new game"): both would count the one evening."""
    row = conn.execute("SELECT end_state, result, team, deleted_at FROM games WHERE id = ?",
                       (game_id,)).fetchone() if 0 < game_id <= LARGEST_ID else None
    if row is None:
        raise StoreError(messages.NO_GAME, game=game_id)
    if row["deleted_at"] is None:
        return
    again = conn.execute("SELECT game_id FROM tables WHERE corrects = ? AND game_id IS NOT NULL AND game_id <> ? "
                         "ORDER BY game_id LIMIT 1", (game_id, game_id)).fetchone()
    if again is not None:
        raise StoreError(messages.SAVED_AGAIN_AS, game=game_id, other=again[0])
    end_state, result, team = (json.loads(row[key]) for key in ("end_state", "result", "team"))
    conn.execute("UPDATE games SET deleted_at = NULL WHERE id = ?", (game_id,))
    _write_players(conn, game_id, result, team)
    # a table correcting it, not saved yet, offered "Save as a new game": drawn anew, it corrects the game again
    conn.execute("UPDATE tables SET version = version + 1 WHERE corrects = ? AND game_id IS NULL", (game_id,))
    _add_version(conn, game_id, who, "restore", end_state, result, team)


def deleted_games_of(conn: sqlite3.Connection, name: str) -> list[dict[str, Any]]:
    """The deleted games (kept, marked) a player (by key) took part in: id, game, end state, result and team. Their
    seats are out of `game_players` (the statistics) until they are put back, so they are found in their results."""
    key = player_key(name)
    found = []
    for row in conn.execute("SELECT id, game, end_state, result, team FROM games WHERE deleted_at IS NOT NULL "
                            "ORDER BY id"):
        result, team = json.loads(row["result"]), json.loads(row["team"])
        if any(player_key(seat[0]) == key for seat in player_rows(result, team)):
            found.append({"id": int(row["id"]), "game": row["game"], "end_state": json.loads(row["end_state"]),
                          "result": result, "team": team})
    return found


def rename_deleted_game(conn: sqlite3.Connection, game_id: int, end_state: Mapping[str, Any],
                        result: Mapping[str, Any], team: Sequence[str], who: str, action: str) -> None:
    """A deleted game's player renamed (a rename or merge of the person, `people`), a version saying so: put back,
    it comes back under the names the history uses then. Its seats stay out of the statistics while it is deleted."""
    conn.execute("UPDATE games SET end_state = ?, result = ?, team = ? WHERE id = ? AND deleted_at IS NOT NULL",
                 (_dump(dict(end_state)), _dump(dict(result)), _dump(list(team)), game_id))
    _add_version(conn, game_id, who, action, end_state, result, team)


def deleted_game_played_at(conn: sqlite3.Connection, game_id: int) -> str | None:
    """When a deleted game was played; None while it is not deleted (or never was saved)."""
    found = conn.execute("SELECT played_at FROM games WHERE id = ? AND deleted_at IS NOT NULL", (game_id,)).fetchone()
    return None if found is None else str(found[0])


def was_deleted(conn: sqlite3.Connection, game_id: int) -> bool:
    """Whether a saved game has been deleted (it is kept, marked)."""
    if not 0 < game_id <= LARGEST_ID:
        return False
    found = conn.execute("SELECT 1 FROM games WHERE id = ? AND deleted_at IS NOT NULL", (game_id,)).fetchone()
    return found is not None


def versions(conn: sqlite3.Connection, game_id: int) -> list[dict[str, Any]]:
    """Every version of a saved game, the first save first: number, when, who, what was done, and the state."""
    rows = conn.execute("SELECT * FROM game_versions WHERE game_id = ? ORDER BY number", (game_id,))
    return [{"number": r["number"], "at": r["at"], "who": r["who"], "action": r["action"],
             "end_state": json.loads(r["end_state"]), "result": json.loads(r["result"]), "team": json.loads(r["team"])}
            for r in rows]


def _game(row: sqlite3.Row, players: list[sqlite3.Row]) -> dict[str, Any]:
    return {
        "id": row["id"], "uid": row["uid"], "game": row["game"], "played_at": row["played_at"],
        "team": json.loads(row["team"]), "end_state": json.loads(row["end_state"]),
        "result": json.loads(row["result"]), "duration_min": row["duration_min"],
        "players": [{"name": p["name"], "score": p["score"], "place": p["place"], "winner": bool(p["winner"])}
                    for p in players],
    }


#: Latin letters that are not a base letter with a mark, so that the key (which drops marks) keeps them whole:
#: "orsted" found no game of Ørsted (key "ørsted"), nor "Łukasz" one of Lukasz. The search spells each as Unicode
#: CLDR's Latin-ASCII transform does (common/transforms/Latin-ASCII.xml), in the query and in the keys it reads:
#: the letters of Latin-1 Supplement and Latin Extended-A that the key keeps, then those of Latin Extended-B and
#: IPA Extensions written in today's alphabets (Hausa's ɓ ɗ ƙ ƴ, Ewe's ɖ ƒ ʋ ɛ, Bambara's ɲ...),
#: in lower case (the key is case-folded; ß is "ss" and ĳ "ij" in it already).
#: CLDR gives no plain letter for ɔ or ǝ: they stay as they are.
#: A player's key itself is left as it is: Ørsted and Orsted stay two players, as Jürgen and Juergen do (below);
#: only the search reads them alike, so no saved game is keyed again.
_LATIN_LETTERS = (("æ", "ae"), ("ð", "d"), ("ø", "o"), ("þ", "th"), ("đ", "d"), ("ħ", "h"),
                  ("ı", "i"), ("ĸ", "q"), ("ł", "l"), ("ŋ", "n"), ("œ", "oe"), ("ŧ", "t"),
                  ("ƀ", "b"), ("ƒ", "f"), ("ƙ", "k"), ("ƴ", "y"), ("ƶ", "z"), ("ǥ", "g"),
                  ("ɓ", "b"), ("ɖ", "d"), ("ɗ", "d"), ("ɛ", "e"), ("ɨ", "i"), ("ɲ", "n"), ("ʋ", "v"))
#: German writes ä, ö and ü as ae, oe and ue where a keyboard or a passport has none: "juergen" found no game of
#: Jürgen (the key drops the accent: "jurgen"), nor "Jürgen" one of Juergen. The search folds both spellings to
#: the plain vowel, in the query and in the keys it reads, in this order, after the letters above (Æ is "ae",
#: then "a", as Ä is).
#: A search may find a little more ("michal" finds Michael): it lists games, and the player picks among them
_SPELLED_OUT = (("ae", "a"), ("oe", "o"), ("ue", "u"))
#: The SQL function that folds a stored key as :func:`_spelled_out` folds the query: one function, not a replace()
#: a pair nested in the next (SQLite's parser refuses some thirty of them: "parser stack overflow")
_SPELLED_OUT_SQL = "donjon_spelled_out(player_key)"


_LETTERS_SPELLED = str.maketrans(dict(_LATIN_LETTERS))


@functools.lru_cache(maxsize=4096)
def _spelled_out(key: str) -> str:
    """A player key with its Latin letters spelled out and German's spelled-out umlauts folded (the query's, and in
    SQL the stored keys': :func:`_searching`). Kept for the next search: a history holds a few hundred players'
    keys, which a search reads again for each of their games (without it, a search of 20,000 seats took 7 times
    as long as before the letters were spelled out)."""
    if not key.isascii():
        key = key.translate(_LETTERS_SPELLED)
    for spelled, vowel in _SPELLED_OUT:
        key = key.replace(spelled, vowel)
    return key


def _searching(conn: sqlite3.Connection) -> sqlite3.Connection:
    """The connection, able to fold the stored keys as the search does (`_SPELLED_OUT_SQL`): registered at each
    search, on whichever connection reads it (one a thread, or the copy in memory of a read-only file)."""
    conn.create_function("donjon_spelled_out", 1, _spelled_out, deterministic=True)
    return conn


def _searched(*, player: str | None, deleted: bool, named: str | None, game: str | None, since: str | None,
              before: str | None) -> tuple[str, list[str]]:
    """The WHERE clause (and its parameters) of the games :func:`list_games` and :func:`count_games` find."""
    conditions, params = ([] if deleted else ["deleted_at IS NULL"]), []
    if player is not None:
        conditions.append("id IN (SELECT game_id FROM game_players WHERE player_key = ?)")
        params.append(player_key(player))
    if named:
        # a part of the key, its own % and _ taken literally (a name may hold them); ø, æ, ł... spelled out
        # (_LATIN_LETTERS), and ä, ö and ü written ae, oe and ue as German writes them without the keys
        # (_SPELLED_OUT), on both sides
        part = _spelled_out(player_key(named)).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        conditions.append(f"id IN (SELECT game_id FROM game_players WHERE {_SPELLED_OUT_SQL} LIKE ? ESCAPE '\\')")
        params.append(f"%{part}%")
    if game is not None:
        conditions.append("game = ?")
        params.append(game)
    if since is not None:
        conditions.append("played_at >= ?")
        params.append(since)
    if before is not None:
        conditions.append("played_at < ?")
        params.append(before)
    return (f"WHERE {' AND '.join(conditions)}" if conditions else ""), params


def list_games(conn: sqlite3.Connection, *, limit: int | None = None, player: str | None = None,
               oldest_first: bool = False, deleted: bool = False, named: str | None = None,
               game: str | None = None, since: str | None = None, before: str | None = None,
               offset: int = 0) -> list[dict[str, Any]]:
    """Saved games, newest first; `player`: those a player (matched by :func:`player_key`) played; `deleted`:
    the deleted ones too (an export keeps them). The history's search: `named`, a part of a player's name (by
    key: "ana" finds Ana, Anaïs and Diana), `game` a game's id, `since` and `before` the times played (`played_at`,
    'YYYY-MM-DD...', compared as text: `before` excluded), and `offset` games skipped (the pages past the first)."""
    order = "ASC" if oldest_first else "DESC"
    where, params = _searched(player=player, deleted=deleted, named=named, game=game, since=since, before=before)
    sql = f"SELECT * FROM games {where} ORDER BY played_at {order}, id {order}"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
        if offset:
            sql += f" OFFSET {int(offset)}"
    rows = _searching(conn).execute(sql, params).fetchall()
    players: dict[int, list[sqlite3.Row]] = {}
    if rows:
        marks = ",".join("?" * len(rows))
        for p in conn.execute(f"SELECT * FROM game_players WHERE game_id IN ({marks}) ORDER BY game_id, seat",
                              [r["id"] for r in rows]):
            players.setdefault(p["game_id"], []).append(p)
    return [{**_game(r, players.get(r["id"], [])), **({"deleted_at": r["deleted_at"]} if deleted else {})}
            for r in rows]


def count_games(conn: sqlite3.Connection, *, named: str | None = None, game: str | None = None,
                since: str | None = None, before: str | None = None) -> int:
    """How many saved games (deleted ones left out) the history's search finds, over all its pages."""
    where, params = _searched(player=None, deleted=False, named=named, game=game, since=since, before=before)
    return int(_searching(conn).execute(f"SELECT count(*) FROM games {where}", params).fetchone()[0])


#: SQLite's integer range: an id beyond it names no game (and must not reach SQLite, which refuses it)
LARGEST_ID = 2**63 - 1


def get_game(conn: sqlite3.Connection, game_id: int) -> dict[str, Any] | None:
    if not 0 < game_id <= LARGEST_ID:
        return None
    row = conn.execute("SELECT * FROM games WHERE id = ? AND deleted_at IS NULL", (game_id,)).fetchone()
    if row is None:
        return None
    players = conn.execute("SELECT * FROM game_players WHERE game_id = ? ORDER BY seat", (game_id,)).fetchall()
    return _game(row, players)


def _latest_names(conn: sqlite3.Connection) -> dict[str, str]:
    """Each player's key and the name they were last saved under (how the history shows them)."""
    rows = conn.execute("SELECT p.player_key, p.name FROM game_players p JOIN games g ON g.id = p.game_id "
                        "ORDER BY g.played_at, g.id")
    # without what no one sees, which a name saved before donjon left it out may hold (a soft hyphen would show
    # at a line's end, a right-to-left mark reorder what follows it)
    return {r[0]: visible_name(r[1]) for r in rows}


def players(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every player (one per :func:`player_key`) with their games and wins, most games first."""
    names = _latest_names(conn)
    rows = conn.execute("SELECT player_key, count(*) AS games, sum(winner) AS wins FROM game_players "
                        "GROUP BY player_key")
    out = [{"name": names[r["player_key"]], "games": r["games"], "wins": r["wins"],
            "win_rate": round(r["wins"] / r["games"], 3) if r["games"] else 0.0} for r in rows]
    return sorted(out, key=lambda p: (-p["games"], player_key(p["name"])))


def known_names(conn: sqlite3.Connection, limit: int = 200) -> list[str]:
    """The players of the history, the most frequent first: what the new-game form suggests."""
    return [p["name"] for p in players(conn)[:limit]]


def player_games(conn: sqlite3.Connection, name: str) -> list[int]:
    """The ids of the saved games a player (by key) took part in."""
    return [int(r[0]) for r in conn.execute("SELECT DISTINCT game_id FROM game_players WHERE player_key = ? "
                                            "ORDER BY game_id", (player_key(name),))]


def newest_version(conn: sqlite3.Connection) -> int:
    """The newest version of any saved game (its row: 0 none): changes with every save, correction, rename."""
    return int(conn.execute("SELECT coalesce(max(rowid), 0) FROM game_versions").fetchone()[0])


def player_stats(conn: sqlite3.Connection, name: str, lower_is_better: Sequence[str]) -> dict[str, Any] | None:
    """One player's games, wins, win rate, and per game: games, wins, best and average score, scores over time."""
    # the seat's own `inferred` flag (migration 9), not the game's result: a player of 3,000 games had all their
    # results parsed on each of their pages (about 60 ms)
    rows = conn.execute("SELECT g.id, g.game, g.played_at, p.inferred, p.name, p.score, p.place, p.winner "
                        "FROM game_players p JOIN games g ON g.id = p.game_id WHERE p.player_key = ? "
                        "ORDER BY g.played_at, g.id", (player_key(name),)).fetchall()
    if not rows:
        return None
    per_game: dict[str, dict[str, Any]] = {}
    for r in rows:
        entry = per_game.setdefault(r["game"], {"games": 0, "wins": 0, "scores": [], "inferred": False})
        entry["games"] += 1
        # a score computed from a value no rulebook states is never shown as official (end-states.md `inferred`)
        entry["inferred"] = entry["inferred"] or bool(r["inferred"])
        entry["wins"] += r["winner"]
        entry["scores"].append({"game_id": r["id"], "played_at": r["played_at"], "score": r["score"],
                                "winner": bool(r["winner"])})
    for game, entry in per_game.items():
        scores = [s["score"] for s in entry["scores"]]
        entry["best"] = min(scores) if game in lower_is_better else max(scores)
        entry["average"] = round(sum(scores) / len(scores), 1)
    wins = sum(r["winner"] for r in rows)
    return {"name": visible_name(rows[-1]["name"]), "games": len(rows), "wins": wins,
            "win_rate": round(wins / len(rows), 3), "per_game": dict(sorted(per_game.items())),
            "any_inferred": any(e["inferred"] for e in per_game.values())}


def player_inferred(result: Mapping[str, Any], name: str) -> bool:
    """Whether a player's score in a result rests on a value no rulebook states (end-states.md: `inferred` in
    each player's entry; an older result kept it in a top-level mapping by name)."""
    for player in result.get("players", []):
        if player.get("name") == name and player.get("inferred"):
            return True
    return bool(result.get("inferred", {}).get(name)) if isinstance(result.get("inferred"), dict) else False


# --- settings -----------------------------------------------------------------------------------------------------

def people_form_done(conn: sqlite3.Connection, key: str) -> bool:
    """Whether the players page's form of this key (a rename or a merge, with its names) was done already."""
    return conn.execute("SELECT 1 FROM people_forms WHERE key = ?", (key,)).fetchone() is not None


def keep_people_form(conn: sqlite3.Connection, key: str) -> None:
    """Remember that the players page's form of this key was done (in the write that does it)."""
    conn.execute("INSERT OR IGNORE INTO people_forms (key, at) VALUES (?, ?)", (key, now()))


#: The settings that keep the words of a sheet of one's own (`Games.own_words`), one a sheet: this, then its id.
WORDS_KEY = "words:"


def keep_words(conn: sqlite3.Connection, words: Mapping[str, Mapping[str, Any]]) -> None:
    """Keep the words of each sheet of one's own in `words` (by its id), over those kept before (a name corrected
    in its sheet.yaml is the one shown since)."""
    for game, said in words.items():
        set_setting(conn, WORDS_KEY + game, _dump(dict(said)))


def kept_word_rows(conn: sqlite3.Connection) -> tuple[tuple[str, str], ...]:
    """The settings keeping the words of sheets of one's own, as stored (:func:`kept_words` reads them): a range of
    the settings' key, found by its index, so that a running companion can ask for them on each page."""
    # the keys starting with WORDS_KEY sort from it to before it with its last letter's successor ("words;")
    rows = conn.execute("SELECT key, value FROM settings WHERE key >= ? AND key < ? ORDER BY key",
                        (WORDS_KEY, WORDS_KEY[:-1] + chr(ord(WORDS_KEY[-1]) + 1)))
    return tuple((str(key), str(value)) for key, value in rows)


def words_of_rows(rows: Iterable[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """The words kept (:func:`kept_word_rows`) by sheet id."""
    return {key[len(WORDS_KEY):]: json.loads(value) for key, value in rows}


def kept_words(conn: sqlite3.Connection) -> dict[str, dict[str, Any]]:
    """The words kept of each sheet of one's own whose games the history holds (:func:`keep_words`), by its id."""
    return words_of_rows(kept_word_rows(conn))


def setting(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def set_setting(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                 (key, value))
