"""The companion's SQLite database: opening it safely, versioned migrations, one writer, many readers.

SQLite allows one writer at a time. As Datasette does (`execute_write`), every write goes through one dedicated
thread that owns the only writing connection, so concurrent requests queue instead of failing with "database is
locked"; reads use one connection per worker thread and never wait for the writer (WAL mode).

The database is never damaged or replaced by donjon: a file that is not a SQLite database, fails SQLite's own
check, or was written by a newer donjon (a schema version above the last migration known here) is refused with
a message saying so, and left exactly as it was.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import secrets
import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from generator.errors import InputError, OutputError
from generator.fields import player_key as player_key  # the key a player is known by, the scorer's too
from generator.i18n import phrase
from generator.web import keys7

T = TypeVar("T")


def _renamed(value: Any, old: str, new: str) -> Any:
    """A stored JSON value with every string (a value or a key) that is exactly `old` made `new`."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {(new if k == old else k): _renamed(v, old, new) for k, v in value.items()}
    return value


def _keys_without_invisible_characters(conn: sqlite3.Connection) -> None:
    """7: players keyed without the characters no one sees (`generator.fields.visible_name`): `Zoë` pasted with a
    zero-width space and `Zoë` become one player, every game of both kept. It only recomputes each seat's key, so
    running it again changes nothing. Written out here, not with `store`'s functions, so that it stays what it is
    when they change.

    Two seats of one game (or of one open table) whose names now make one key were two people at that table (the
    form refused one name twice): they cannot become one player. The name with the invisible characters (the later
    seat's, when both have some) is given a visible one, `Zoë (2)`, free in the whole history, in every game it was
    saved under, each keeping its earlier state as a version (`rename`, as a rename from the players' page does):
    a player page shows who they were, and the game can still be corrected and scored (its names unique).

    Every key here is the key as of this version (:mod:`generator.web.keys7`, frozen; so is the SQL function
    `donjon_player_key_7`, registered here), never today's `player_key`: a database of version 6 migrated by any
    later donjon gets the same keys and the same names."""
    player_key, visible_name = keys7.player_key, keys7.visible_name
    conn.create_function("donjon_player_key_7", 1, player_key, deterministic=True)
    conn.execute("UPDATE game_players SET player_key = donjon_player_key_7(name) "
                 "WHERE player_key <> donjon_player_key_7(name)")
    taken = {str(r[0]) for r in conn.execute("SELECT DISTINCT player_key FROM game_players")}
    taken |= {player_key(str(r[0])) for r in conn.execute("SELECT name FROM table_parts")}
    renamed: dict[str, str] = {}

    def rename_clashes(names: Sequence[str]) -> None:
        by_key: dict[str, list[str]] = {}
        for name in names:
            if name not in by_key.setdefault(player_key(name), []):
                by_key[player_key(name)].append(name)
        for same in by_key.values():
            left = [n for n in same if n not in renamed]  # a name renamed at another game has a key of its own
            kept = next((n for n in left if n == visible_name(n)), left[0] if left else "")
            for name in left:
                if name != kept:
                    base = visible_name(name) or "?"  # a name of invisible characters only
                    number = 2
                    while player_key(f"{base} ({number})") in taken:
                        number += 1
                    renamed[name] = f"{base} ({number})"
                    taken.add(player_key(renamed[name]))

    clashing = conn.execute("SELECT game_id FROM game_players GROUP BY game_id, player_key HAVING count(*) > 1 "
                            "ORDER BY game_id").fetchall()
    for (game_id,) in clashing:
        rename_clashes([str(r[0]) for r in conn.execute("SELECT name FROM game_players WHERE game_id = ? "
                                                        "ORDER BY seat", (game_id,))])
    open_tables = conn.execute("SELECT id, team FROM tables WHERE game_id IS NULL ORDER BY id").fetchall()
    for table_id, team in open_tables:
        rename_clashes([*(str(r[0]) for r in conn.execute("SELECT name FROM table_parts WHERE table_id = ? "
                                                            "ORDER BY seat", (table_id,))), *json.loads(team)])
    at = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    for old, new in renamed.items():
        games = conn.execute("SELECT DISTINCT g.id, g.end_state, g.result, g.team FROM games g "
                             "JOIN game_players p ON p.game_id = g.id WHERE p.name = ? ORDER BY g.id", (old,))
        for game_id, end_state, result, team in games.fetchall():
            state, scored, members = (json.dumps(_renamed(json.loads(text), old, new), ensure_ascii=False,
                                                 separators=(",", ":")) for text in (end_state, result, team))
            conn.execute("UPDATE games SET end_state = ?, result = ?, team = ? WHERE id = ?",
                         (state, scored, members, game_id))
            conn.execute("INSERT INTO game_versions (game_id, number, at, who, action, end_state, result, team) "
                         "SELECT ?, coalesce(max(number), 0) + 1, ?, 'donjon', 'rename', ?, ?, ? "
                         "FROM game_versions WHERE game_id = ?", (game_id, at, state, scored, members, game_id))
        conn.execute("UPDATE game_players SET name = ?, player_key = ? WHERE name = ?", (new, player_key(new), old))
        for table_id, _ in open_tables:
            team = conn.execute("SELECT team FROM tables WHERE id = ?", (table_id,)).fetchone()[0]
            members = json.dumps(_renamed(json.loads(team), old, new), ensure_ascii=False, separators=(",", ":"))
            changed = conn.execute("UPDATE table_parts SET name = ? WHERE table_id = ? AND name = ?",
                                   (new, table_id, old)).rowcount
            if changed or members != team:
                conn.execute("UPDATE tables SET team = ?, version = version + 1 WHERE id = ?", (members, table_id))


def _seats_inferred(conn: sqlite3.Connection) -> None:
    """Migration 9: each seat's `inferred` flag, read once from its game's result, so that a player's page no
    longer parses the result of every game of the player. Its own copy of the reading (as `store.player_inferred`
    reads it today), so that a later change there does not change what this migration writes."""
    conn.execute("ALTER TABLE game_players ADD COLUMN inferred INTEGER NOT NULL DEFAULT 0")
    flagged: list[tuple[int, str]] = []
    for game_id, result in conn.execute("SELECT id, result FROM games WHERE id IN (SELECT game_id FROM game_players)"):
        scored = json.loads(result)
        # end-states.md: `inferred` in a player's entry; a result kept before then held a mapping by name
        names = {str(p.get("name")) for p in scored.get("players", []) if isinstance(p, dict) and p.get("inferred")}
        if isinstance(scored.get("inferred"), dict):
            names |= {str(name) for name, flag in scored["inferred"].items() if flag}
        flagged.extend((game_id, name) for name in names)
    conn.executemany("UPDATE game_players SET inferred = 1 WHERE game_id = ? AND name = ?", flagged)


#: Each migration takes the database from version N (its index) to N + 1; `PRAGMA user_version` holds N: SQL
#: statements, or a function given the connection when SQL alone cannot say it (all in one transaction either way).
#: Never edit a released migration: add one.
MIGRATIONS: Sequence[str | Callable[[sqlite3.Connection], None]] = (
    # 1: finished games, their players, and the tables being entered
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,              -- stable across export and import
        game TEXT NOT NULL,                    -- the game id (guildhall, once-upon-a-castle, guedelon)
        played_at TEXT NOT NULL,               -- local time, 'YYYY-MM-DD HH:MM:SS'
        end_state TEXT NOT NULL,               -- the end state, as JSON (the format of end-states.md)
        result TEXT NOT NULL,                  -- the scorer's JSON result
        team TEXT NOT NULL DEFAULT '[]',       -- the names of a cooperative team (Guedelon), as JSON
        idempotency_key TEXT UNIQUE,           -- the Idempotency-Key header of the save, if any
        table_id INTEGER UNIQUE                -- the table it was entered at, if any
    );
    CREATE TABLE game_players (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        score INTEGER NOT NULL,
        place INTEGER NOT NULL,
        winner INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX game_players_by_name ON game_players(name);
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        created_at TEXT NOT NULL,
        options TEXT NOT NULL,                 -- the options chosen when the table was set (JSON)
        team TEXT NOT NULL DEFAULT '[]',       -- a cooperative game's players, as JSON (Guedelon)
        shared TEXT NOT NULL DEFAULT '{}',     -- the fields that belong to no one player (JSON)
        version INTEGER NOT NULL DEFAULT 1,    -- bumped on every change: what live pages poll for
        game_id INTEGER REFERENCES games(id)   -- the saved game, once saved
    );
    CREATE TABLE table_parts (
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        data TEXT NOT NULL DEFAULT '{}',       -- this player's part of the end state (JSON)
        PRIMARY KEY (table_id, seat)
    );
    """,
    # 2: a table's edits (each once: its idempotency key; undone by its `before`), every version of a saved game
    # (who changed it, when, what), games deleted but kept, players matched by a key (case, accents, spaces),
    # and the server's settings (the --lan token, kept across restarts)
    """
    CREATE TABLE table_edits (
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER,                          -- NULL: the shared fields
        key TEXT,                              -- the edit's idempotency key (a retry carries the same)
        at TEXT NOT NULL,
        before TEXT NOT NULL,                  -- the part (or shared fields) before the edit, as JSON
        undone INTEGER NOT NULL DEFAULT 0,
        UNIQUE (table_id, key)
    );
    CREATE INDEX table_edits_by_part ON table_edits(table_id, seat, id);
    ALTER TABLE tables ADD COLUMN corrects INTEGER REFERENCES games(id);  -- a saved game being corrected
    ALTER TABLE games ADD COLUMN deleted_at TEXT;
    ALTER TABLE games ADD COLUMN duration_min INTEGER;
    ALTER TABLE games ADD COLUMN idempotency_hash TEXT;  -- the body saved with the Idempotency-Key
    CREATE TABLE game_versions (
        game_id INTEGER NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL,               -- 1 the first save, then each change
        at TEXT NOT NULL,
        who TEXT NOT NULL,                     -- the page, the API, the command line (and the player's name)
        action TEXT NOT NULL,                  -- save, edit, rename, merge, delete, import
        end_state TEXT NOT NULL,
        result TEXT NOT NULL,
        team TEXT NOT NULL DEFAULT '[]',
        PRIMARY KEY (game_id, number)
    );
    INSERT INTO game_versions (game_id, number, at, who, action, end_state, result, team)
        SELECT id, 1, played_at, 'donjon', 'save', end_state, result, team FROM games;
    ALTER TABLE game_players ADD COLUMN player_key TEXT NOT NULL DEFAULT '';
    UPDATE game_players SET player_key = donjon_player_key(name);
    CREATE INDEX game_players_by_key ON game_players(player_key);
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 3: the photos of a player's paper sheet at a table (several photos of one sheet are read together, so each
    # is kept until the player starts over with a new one)
    """
    CREATE TABLE table_photos (
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        number INTEGER NOT NULL,               -- 1 the first photo of the sheet, then each added
        name TEXT NOT NULL,                    -- the file's name as the phone sent it
        data BLOB NOT NULL,                    -- the photo as the phone sent it
        at TEXT NOT NULL,
        PRIMARY KEY (table_id, seat, number)
    );
    """,
    # 4: what a player answered on the check page of those photos (marks tapped, values typed), kept with them so
    # that a photo added later, or a reload, does not lose it (the photos' new reading fills only the rest)
    """
    CREATE TABLE photo_answers (
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        answers TEXT NOT NULL,                 -- JSON: {"marks": {"12": true, ...}, "given": {"towers[2]": "5"}}
        PRIMARY KEY (table_id, seat)
    );
    """,
    # 5: what each photo read, kept with it when it is taken, so that a check page (a reload, an answer, another
    # photo added) combines the readings kept and never reads a photo again (up to 96 MiB each: seconds and hundreds
    # of MB); a photo kept before has none, and is read once more, the first time its check page is shown
    """
    ALTER TABLE table_photos ADD COLUMN reading TEXT;     -- JSON: the sheet and each mark read (games.KeptRead)
    ALTER TABLE table_photos ADD COLUMN image BLOB;       -- the sheet straightened, as a JPEG (a few hundred KB)
    """,
    # 6: the version of a saved game a table correcting it was opened from: its save is refused once the game has
    # changed since (a player renamed, an edit from the command line or the API), which it would silently undo
    """
    ALTER TABLE tables ADD COLUMN corrects_version INTEGER;  -- game_versions.number when the table was opened
    """,
    # 7: players keyed without the characters no one sees; two seats of one game that this makes one player are
    # given distinct names
    _keys_without_invisible_characters,
    # 8: the key of the form a table was opened from, or a photo of a sheet sent from (drawn with the page, sent with
    # it): the same form sent twice (a double tap on its button, or the browser sending it again after a lost
    # answer) opens one table, keeps one photo
    """
    ALTER TABLE tables ADD COLUMN form_key TEXT;           -- the new table's form, as sent (NULL: opened otherwise)
    CREATE UNIQUE INDEX tables_by_form_key ON tables(form_key);
    ALTER TABLE table_photos ADD COLUMN form_key TEXT;     -- the form the photo was sent with (NULL: none)
    """,
    # 9: whether a seat's score rests on a value no rulebook states (end-states.md `inferred`), kept with the seat
    _seats_inferred,
    # 10: how many photos of sheets a table has kept so far, those let go by a start over too: it only grows, so
    # a photo's form drawn after a photo was kept carries another key than the form that photo came from (a player
    # starting over with that same photo is not taken for its form sent again); the photos kept now to start with
    """
    ALTER TABLE tables ADD COLUMN photos_taken INTEGER NOT NULL DEFAULT 0;
    UPDATE tables SET photos_taken = (SELECT count(*) FROM table_photos p WHERE p.table_id = tables.id);
    """,
    # 11: every rename or merge of players done from the players page, by its form's key (what its form was drawn
    # at, with a digest of the names): sent again, even after other renames, it is answered as it was, not done
    # again (one row a rename: a few bytes for each ever made); the one setting that held the last one is let go
    """
    CREATE TABLE people_forms (
        key TEXT PRIMARY KEY,                  -- forms.sent_again_key of the form sent
        at TEXT NOT NULL
    );
    INSERT INTO people_forms (key, at)
        SELECT value, datetime('now', 'localtime') FROM settings WHERE key = 'people-form';
    DELETE FROM settings WHERE key = 'people-form';
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
#: The SQL function `donjon_player_key` that migration 2 calls (nothing else does): the key as of migration 7, frozen
#: (:mod:`generator.web.keys7`). Migration 2 wrote the key of its day, which migration 7 writes again for every seat,
#: so what a database holds after 7 does not depend on it. A migration that keys players (7, and any after it)
#: registers a function of its own, under its own name, with the key of its own version.
MIGRATIONS_KEY = keys7.player_key

#: Most writes committed together (group commit); a game night never queues anywhere near this many.
GROUP_COMMIT_MOST = 64
#: How long a reader waits for a lock before SQLite gives up (ms): checkpoints take the write lock briefly.
BUSY_TIMEOUT_MS = 5000


class DatabaseRefused(InputError):
    """A database file donjon will not use (corrupt, not SQLite, or from a newer donjon); left untouched."""


class DatabaseGone(sqlite3.OperationalError):
    """The database's path no longer names the file the companion opened: moved or deleted while it runs (a clean-up,
    a sync tool), or another file put in its place. A connection opened before keeps the file it opened wherever it
    went, so what it wrote landed in a file the user no longer sees (and the next start opened another); a write is
    refused instead, and a read too (it would show the moved file's games, not those of the file at the path)."""


def _identity(path: Path) -> tuple[int, int] | None:
    """Which file `path` names (its device and inode, the link followed as SQLite follows it), None when none: the
    fast check. Some mounts give one file other inode numbers from one stat to the next (CIFS with `noserverino`,
    some FUSE filesystems), so a number that changed is checked again by what the file holds (:func:`_marks`)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


#: The settings holding a database's own identity: a random id written once, when the companion first opens it, and
#: a random mark written again whenever the fast check failed (`Database._probe`), which no copy taken before holds.
FILE_ID = "file-id"
FILE_MARK = "file-mark"


def _marks(conn: sqlite3.Connection) -> tuple[str, str] | None:
    """The id and mark a database holds (as `conn` sees it), None when it holds none (not a donjon database)."""
    try:
        rows = dict(conn.execute("SELECT key, value FROM settings WHERE key IN (?, ?)", (FILE_ID, FILE_MARK)))
    except sqlite3.Error:
        return None
    return (str(rows[FILE_ID]), str(rows.get(FILE_MARK, ""))) if FILE_ID in rows else None


def _connect(path: Path, *, readonly: bool, immutable: bool = False) -> sqlite3.Connection:
    uri = f"{path.resolve().as_uri()}?mode={'ro' if readonly else 'rwc'}{'&immutable=1' if immutable else ''}"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.create_function("donjon_player_key", 1, MIGRATIONS_KEY, deterministic=True)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def check_file(path: Path) -> int:
    """The schema version of an existing database, after SQLite's own check; refuses what donjon must not touch.

    Opened read-only, so that nothing (not even a WAL file) is written into a file that may not be ours.
    """
    shown = str(path)
    try:
        conn = _connect(path, readonly=True)
    except sqlite3.Error as err:
        raise DatabaseRefused(shown, phrase("cannot be opened as a database ({error}); it was left as it is",
                                            error=err)) from None
    try:
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        except sqlite3.Error as err:
            if not not_written(err) and getattr(err, "sqlite_errorcode", 0) & 0xFF != sqlite3.SQLITE_CANTOPEN:
                raise
            # reading a WAL database makes its shared-memory file beside it, which a full disk refuses, and a
            # read-only folder too (SQLite then cannot open it): the file itself is checked as it stands (SQLite's
            # `immutable`), and writing it is refused later, as exit 3; a file that cannot be read at all fails
            # again here, and is refused below
            conn.close()
            conn = _connect(path, readonly=True, immutable=True)
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    except sqlite3.Error as err:
        raise DatabaseRefused(shown, phrase("is not a donjon database or is damaged ({error}); it was left as it is: "
                                            "pass another file with --db", error=err)) from None
    finally:
        conn.close()
    if problems != ["ok"]:
        raise DatabaseRefused(shown, phrase("is damaged (SQLite's check says: {problems}); it was left as it is: "
                                            "pass another file with --db", problems="; ".join(problems[:3])))
    if version > SCHEMA_VERSION:
        raise DatabaseRefused(shown, phrase("was written by a newer donjon (schema version {version}; this donjon "
                                            "knows up to {known}); it was left as it is: upgrade donjon or pass "
                                            "another file with --db", version=str(version), known=str(SCHEMA_VERSION)))
    return version


def not_written(err: BaseException) -> bool:
    """Whether an SQLite error says the file could not be written (the disk full, a read-only file, an I/O error:
    the extended codes too, such as SQLITE_IOERR_WRITE), rather than a fault of the query."""
    code = getattr(err, "sqlite_errorcode", None)
    return isinstance(err, sqlite3.OperationalError) and code is not None and \
        code & 0xFF in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR)


def busy(err: BaseException) -> bool:
    """Whether an SQLite error says another connection held the database's lock for longer than BUSY_TIMEOUT_MS
    (a second donjon serve, a database browser with changes not yet written)."""
    code = getattr(err, "sqlite_errorcode", None)
    return isinstance(err, sqlite3.OperationalError) and code is not None and \
        code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


#: What a write that waited in vain for another program's lock says (`error`: SQLite's words).
BUSY_SAID = ("is being written by another program ({error}: another donjon serve, or a database browser with "
             "changes not yet written?); nothing was changed: try again once it is done")


class Database:
    """One SQLite file: a writer thread that serialises every write, and a read connection per thread."""

    def __init__(self, path: Path, *, readonly: bool = False) -> None:
        """`readonly`: only read (`donjon history list` on a file it may not write): the file is copied into
        memory and brought to the current schema there, so a read-only or older database can be read as it is."""
        self.path = path
        self.readonly = readonly
        if path.exists():
            if not path.is_file():
                raise DatabaseRefused(str(path), phrase("is not a file; pass a file name with --db"))
            if path.stat().st_size or readonly:
                check_file(path)
        else:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise OutputError(path.parent, phrase("cannot create the database's folder ({error})",
                                                      error=err.strerror or err)) from None
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._memory_lock = threading.Lock()
        if readonly:
            self._writer_conn = _memory_copy(path)
            self._migrate()
            return
        new = not path.exists()
        conn: sqlite3.Connection | None = None
        try:
            conn = self._writer_conn = _connect(path, readonly=False)
            conn.execute("PRAGMA journal_mode = WAL")
            # FULL: a save is acknowledged only once it is on disk, so a killed server or a power cut keeps it
            conn.execute("PRAGMA synchronous = FULL")
            self._migrate()
            if _marks(conn) is None:  # written once: an open after it writes nothing (another program may be writing)
                conn.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)",
                             (FILE_ID, secrets.token_hex(16)))
            self._file_id = str(conn.execute("SELECT value FROM settings WHERE key = ?", (FILE_ID,)).fetchone()[0])
            self._opened = _identity(path)  # the file every connection of the companion must still be at its path
        except BaseException as err:
            if conn is not None:
                conn.close()
            if new:  # a database that could not be made leaves no file behind
                for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                    try:
                        leftover.unlink(missing_ok=True)
                    except OSError:  # a read-only folder refuses even to remove what is not there (EROFS)
                        pass
            if isinstance(err, sqlite3.Error):
                raise OutputError(path, phrase("cannot be written ({error}): is the disk full, or the file or its "
                                               "folder read-only? It was left as it is", error=err)) from None
            raise
        self._queue: queue.Queue[tuple[Callable[[sqlite3.Connection], Any], Future[Any]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._write_loop, name="donjon-db-writer", daemon=True)
        self._thread.start()

    @classmethod
    def for_reading(cls, path: Path) -> Database:
        """The database to read: written in place when it can be, read from a copy in memory when the file or
        its folder cannot be written (a read-only mount, another user's file)."""
        writable = os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
        if writable:
            try:
                return cls(path)
            except OutputError:  # a full disk: it can still be read
                pass
        return cls(path, readonly=True)

    def _migrate(self) -> None:
        conn = self._writer_conn
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:  # another process may have migrated it since the check
            raise DatabaseRefused(str(self.path), phrase("was written by a newer donjon (schema version {version})",
                                                         version=str(version)))
        for number in range(version, SCHEMA_VERSION):
            try:
                conn.execute("BEGIN IMMEDIATE")
                step = MIGRATIONS[number]
                if callable(step):
                    step(conn)
                else:
                    for statement in _statements(step):
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number + 1}")
                conn.execute("COMMIT")
            except BaseException as err:  # a migration written in Python may fail otherwise: it too leaves nothing
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if not isinstance(err, sqlite3.Error):
                    raise
                raise OutputError(self.path, phrase("cannot bring the database to schema version {version} ({error}); "
                                                    "it was left at the version it had", version=str(number + 1),
                                                    error=err)) from None

    def _write_loop(self) -> None:
        """Run queued writes until the database is closed (:meth:`_write_batch`)."""
        closing = False
        while not closing:
            closing = self._write_batch()

    def _write_batch(self) -> bool:
        """Run the next writes queued, waiting for one. Writes waiting together share one commit (group commit): each
        in its own savepoint, so one that fails is rolled back alone, and one fsync makes them all durable before any
        is acknowledged. True when the database is closing. A method of its own so that what a write holds (a photo
        of up to 96 MiB, in its function's closure) is let go when it is done, not kept by the loop's variables
        while it waits for the next write."""
        conn = self._writer_conn
        item = self._queue.get()
        if item is None:
            return True
        batch = [item]
        stop = False
        while len(batch) < GROUP_COMMIT_MOST:
            try:
                more = self._queue.get_nowait()
            except queue.Empty:
                break
            if more is None:
                stop = True
                break
            batch.append(more)
        done: list[tuple[Future[Any], Any]] = []
        try:
            if _identity(self.path) != self._opened:
                self._probe()
            conn.execute("BEGIN IMMEDIATE")
            for func, future in batch:
                if not future.set_running_or_notify_cancel():
                    continue
                conn.execute("SAVEPOINT one_write")
                try:
                    value = func(conn)
                except BaseException as err:  # noqa: BLE001 - handed to the caller, who re-raises it
                    conn.execute("ROLLBACK TO one_write")
                    conn.execute("RELEASE one_write")
                    future.set_exception(err)
                else:
                    conn.execute("RELEASE one_write")
                    done.append((future, value))
            # checked last, just before the commit: the file moved while the writes ran is refused as well
            self._still_there(conn)
            conn.execute("COMMIT")
        except sqlite3.Error as err:
            # the transaction could not begin (another program, a second donjon serve or a database browser, held
            # the write lock for longer than BUSY_TIMEOUT_MS) or commit (disk full...): no write of the batch is
            # kept, and every one of them is told so, those not yet run too (left waiting, a phone's tap or a
            # command was never answered, for as long as the server ran)
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            for _, future in batch:
                if not future.done():
                    future.set_exception(err)
            done = []
        for future, value in done:
            future.set_result(value)
        return stop

    def _still_there(self, own: sqlite3.Connection) -> None:
        """Refuse (:class:`DatabaseGone`) when the database's path no longer names the file opened, which `own` (one
        of the companion's connections, in a transaction) holds. The inode is the fast check; when it changed, the
        file at the path is opened and what it holds compared: its id and mark, the same as `own` reads, are this
        database on a mount that numbers its files anew (then taken as its identity from now on); another database,
        or none, is refused. A copy of this very database taken since the last mark (`_probe`) holds the same: taken
        for it by a read, until the next write, whose probe tells it apart."""
        now = _identity(self.path)
        if now == self._opened:
            return
        if now is not None:
            mine = _marks(own)
            if mine is not None and mine[0] == self._file_id and self._marks_at_path() == mine:
                self._opened = now
                return
        raise DatabaseGone(f"{self.path} is no longer the database file opened")

    def _marks_at_path(self) -> tuple[str, str] | None:
        """The id and mark of the file the path names now, read by a connection of its own."""
        try:
            conn = _connect(self.path, readonly=True)
        except sqlite3.Error:
            return None
        try:
            return _marks(conn)
        finally:
            conn.close()

    def _probe(self) -> None:
        """The fast check failed before a write (the writer thread, outside a transaction): write a new random mark
        through the writer's connection, then read it from the file at the path. A copy of this database put in its
        place holds the same id, but not the mark just written (that went into the file the writer holds, wherever
        it is now): its writes are refused. Another database is refused before anything is written into the one
        moved; a mount that numbered the file anew finds the mark, and the writes go on."""
        conn = self._writer_conn
        mine = _marks(conn)
        there = self._marks_at_path()
        if mine is None or there is None or there[0] != self._file_id:
            return  # the check before the commit refuses it (the path names no file, or another database)
        conn.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = "
                     "excluded.value", (FILE_MARK, secrets.token_hex(16)))

    def submit(self, func: Callable[[sqlite3.Connection], T]) -> Future[T]:
        """Queue a write: `func` runs in one transaction on the writer thread, committed before the future is done."""
        future: Future[T] = Future()
        self._queue.put((func, future))
        return future

    def write(self, func: Callable[[sqlite3.Connection], T]) -> T:
        """Run a write and wait for it; the disk full or the file read-only is an :class:`OutputError` (exit 3)."""
        if self.readonly:
            raise OutputError(self.path, "cannot be written (it is read-only here); nothing was changed")
        try:
            return self.submit(func).result()
        except sqlite3.OperationalError as err:
            if not_written(err):
                raise OutputError(self.path, f"cannot be written ({err}); nothing was changed") from None
            if busy(err):
                raise OutputError(self.path, BUSY_SAID.format(error=err)) from None
            raise

    async def awrite(self, func: Callable[[sqlite3.Connection], T]) -> T:
        return await asyncio.wrap_future(self.submit(func))

    def _reader(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = _connect(self.path, readonly=True)
            self._local.conn = conn
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    def read(self, func: Callable[[sqlite3.Connection], T]) -> T:
        """Run `func` on this thread's read connection, in one read transaction (a consistent snapshot)."""
        if self.readonly:
            with self._memory_lock:
                return func(self._writer_conn)
        if _identity(self.path) is None:  # not even a connection opened (it would fail, or make another file)
            raise DatabaseGone(f"{self.path} is no longer the database file opened")
        conn = self._reader()
        conn.execute("BEGIN")
        try:
            try:
                self._still_there(conn)
            except DatabaseGone:  # a probe (`_probe`) may have written a new mark between its two reads: once more
                conn.execute("COMMIT")
                conn.execute("BEGIN")
                self._still_there(conn)
            return func(conn)
        finally:
            conn.execute("COMMIT")

    async def aread(self, func: Callable[[sqlite3.Connection], T]) -> T:
        from anyio import to_thread

        return await to_thread.run_sync(self.read, func)

    def close(self) -> None:
        """Finish the queued writes, then close every connection."""
        if self.readonly:
            self._writer_conn.close()
            return
        self._queue.put(None)
        self._thread.join()
        with self._readers_lock:
            for conn in self._readers:
                try:
                    conn.close()
                except sqlite3.ProgrammingError:  # made on another thread that has ended
                    pass
            self._readers.clear()
        self._writer_conn.close()


def _memory_copy(path: Path) -> sqlite3.Connection:
    """A copy in memory of a database that may only be read (SQLite's backup API)."""
    memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    memory.row_factory = sqlite3.Row
    memory.create_function("donjon_player_key", 1, MIGRATIONS_KEY, deterministic=True)
    for suffix in ("?mode=ro", "?mode=ro&immutable=1"):  # immutable: a WAL file in a folder it cannot write
        try:
            source = sqlite3.connect(path.resolve().as_uri() + suffix, uri=True)
            try:
                source.backup(memory)
            finally:
                source.close()
            return memory
        except sqlite3.Error as err:
            problem = err
    raise DatabaseRefused(str(path), phrase("cannot be read ({error}); it was left as it is", error=problem))


def _statements(script: str) -> list[str]:
    """A migration's statements, run one by one inside one transaction (`executescript` would commit first)."""
    out: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                out.append(current.strip())
            current = ""
    if current.strip():
        out.append(current.strip())
    return out


def default_path() -> Path:
    """The database in the user's data folder (`~/.local/share/donjon/donjon.sqlite3` on Linux)."""
    from platformdirs import user_data_dir

    override = os.environ.get("DONJON_DB")
    if override:
        return Path(override)
    return Path(user_data_dir("donjon", appauthor=False)) / "donjon.sqlite3"
