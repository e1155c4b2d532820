"""The database: migrations by version, a file donjon must not use refused and left as it was, one writer."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from generator.errors import ExitCode
from generator.web import store
from generator.web.db import SCHEMA_VERSION, Database, DatabaseRefused, _statements


def test_a_new_database_is_migrated_to_the_last_version_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "games.sqlite3"
    db = Database(path)
    try:
        assert db.read(lambda c: c.execute("PRAGMA user_version").fetchone()[0]) == SCHEMA_VERSION
        assert db.read(lambda c: c.execute("PRAGMA journal_mode").fetchone()[0]) == "wal"
        tables = db.read(lambda c: {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")})
        assert {"games", "game_players", "tables", "table_parts"} <= tables
    finally:
        db.close()
    Database(path).close()  # opening again migrates nothing and loses nothing


def test_a_migration_is_split_into_statements_that_sqlite_runs_in_one_transaction() -> None:
    statements = _statements("CREATE TABLE a (x TEXT DEFAULT '--;'); -- a comment; with a semicolon\n"
                             "CREATE TABLE b (\n  y -- the column\n);\n")
    assert len(statements) == 2
    conn = sqlite3.connect(":memory:")
    conn.execute("BEGIN")
    for statement in statements:
        conn.execute(statement)
    conn.execute("COMMIT")
    assert conn.execute("INSERT INTO a DEFAULT VALUES RETURNING x").fetchone() == ("--;",)


def test_a_database_of_a_newer_donjon_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE future (x)")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(DatabaseRefused) as caught:
        Database(path)
    assert "newer donjon" in str(caught.value) and str(path) in str(caught.value)
    assert caught.value.exit_code == ExitCode.UNREADABLE
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["newer.sqlite3"]  # no WAL or journal left beside it


@pytest.mark.parametrize("content", [b"this is not a database at all" * 100, b"SQLite format 3\x00" + b"\xff" * 4000])
def test_a_file_that_is_not_a_sound_database_is_refused_and_left_as_it_is(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(content)
    with pytest.raises(DatabaseRefused) as caught:
        Database(path)
    assert "left as it is" in str(caught.value)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.sqlite3"]


def test_a_damaged_page_is_found_by_the_check(tmp_path: Path) -> None:
    path = tmp_path / "damaged.sqlite3"
    db = Database(path)
    db.write(lambda c: [store.create_table(c, "guedelon", {}, [], ["A"], {}, {"x": "y" * 3000}) for _ in range(50)])
    root = db.read(lambda c: c.execute("SELECT rootpage FROM sqlite_master WHERE name = 'tables'").fetchone()[0])
    size = db.read(lambda c: c.execute("PRAGMA page_size").fetchone()[0])
    db.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * size: (root - 1) * size + 12] = b"\x07" * 12  # the table's root page: no longer a b-tree page
    path.write_bytes(bytes(data))
    with pytest.raises(DatabaseRefused):
        Database(path)


def test_writes_from_many_threads_are_serialised_and_all_kept(tmp_path: Path) -> None:
    db = Database(tmp_path / "many.sqlite3")
    try:
        def create(n: int) -> int:
            return db.write(lambda c: store.create_table(c, "guedelon", {"n": n}, [], [f"P{n}"], {}, {}))

        with ThreadPoolExecutor(16) as pool:
            ids = list(pool.map(create, range(200)))
        assert sorted(ids) == list(range(1, 201))
        assert db.read(lambda c: c.execute("SELECT count(*) FROM tables").fetchone()[0]) == 200
    finally:
        db.close()


def test_a_failed_write_changes_nothing(tmp_path: Path) -> None:
    db = Database(tmp_path / "rollback.sqlite3")
    try:
        def half(c: sqlite3.Connection) -> None:
            store.create_table(c, "guedelon", {}, [], ["A"], {}, {})
            raise RuntimeError("stopped half way")

        with pytest.raises(RuntimeError):
            db.write(half)
        assert db.read(lambda c: c.execute("SELECT count(*) FROM tables").fetchone()[0]) == 0
    finally:
        db.close()


def test_a_write_done_lets_go_of_what_it_holds(tmp_path: Path) -> None:
    """What a write's function holds (the companion's photo, up to 96 MiB, in its closure) is let go once the write
    is done, not kept by the writer thread until the next write comes: a server at rest after a large upload held
    the upload (measured: 75 MiB more resident with a 75 MiB photo)."""
    import gc
    import time
    import weakref

    class Photo:
        """Stands for a photo's bytes (bytes cannot be referred to weakly)."""

    db = Database(tmp_path / "let-go.sqlite3")
    try:
        photo = Photo()
        gone = weakref.ref(photo)

        def keep(c: sqlite3.Connection, held: Photo = photo) -> int:
            return int(c.execute("SELECT count(*) FROM tables").fetchone()[0]) + (0 if held else 1)

        assert db.write(keep) == 0
        del photo, keep
        # the writer thread leaves its batch just after the caller is answered: a moment to do so, which a thread of a
        # loaded machine may wait seconds for (a held function stays held: the bound only has to be generous)
        deadline = time.monotonic() + 30
        while gone() is not None and time.monotonic() < deadline:
            gc.collect()
            time.sleep(0.01)
        assert gone() is None, "the writer still holds the last write's function"
    finally:
        db.close()


def _result(players: list[tuple[str, int, Any]], **more: Any) -> dict[str, Any]:
    """A scorer's result of these (name, score, inferred) players, first place first."""
    return {"game": "guildhall", "winner": players[0][0], **more,
            "players": [{"name": name, "score": score, "place": place, "inferred": inferred}
                        for place, (name, score, inferred) in enumerate(players, start=1)]}


#: What each migration from 9 on adds, taken away to take a database back to the version before it (SQL).
UNDONE = {9: ["ALTER TABLE game_players DROP COLUMN inferred"],
          10: ["ALTER TABLE tables DROP COLUMN photos_taken"],
          11: ["DROP TABLE people_forms"]}


def back_to(path: Path, version: int) -> None:
    """The database at `path` taken back to schema `version`, as a donjon of that version left it."""
    conn = sqlite3.connect(path)
    for number in range(SCHEMA_VERSION, version, -1):
        for statement in UNDONE[number]:
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()


def test_a_tables_photos_taken_start_from_the_photos_it_keeps(tmp_path: Path) -> None:
    """Migration 10 counts the photos a table keeps as the photos it has taken (the photo forms' key grows from
    there); a table without any has taken none."""
    path = tmp_path / "donjon.sqlite3"
    db = Database(path)
    tables = [db.write(lambda c: store.create_table(c, "once-upon-a-castle", {}, ["Ana", "Ben"], [], {}, {}))
              for _ in range(2)]
    for seat, name in ((0, "a.jpg"), (0, "b.jpg"), (1, "c.jpg")):
        db.write(lambda c: store.add_photo(c, tables[0], seat, name, name.encode(), first=False))
    db.close()
    back_to(path, 9)
    db = Database(path)
    try:
        assert [db.read(lambda c: store.load_table(c, table).photos_taken) for table in tables] == [3, 0]
    finally:
        db.close()


def test_the_last_rename_kept_in_a_setting_is_kept_with_every_rename_after_it(tmp_path: Path) -> None:
    """Before migration 11 the players page's last rename was kept in one setting: it is kept as the first of the
    renames remembered (its form sent again is still answered as it was), and the setting is let go."""
    path = tmp_path / "donjon.sqlite3"
    Database(path).close()
    back_to(path, 10)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO settings (key, value) VALUES ('people-form', 'after-3:abc'), ('token', 't')")
    conn.commit()
    conn.close()
    db = Database(path)
    try:
        assert db.read(lambda c: store.people_form_done(c, "after-3:abc"))
        kept = "SELECT key, value FROM settings WHERE key NOT LIKE 'file-%'"  # not the file's own id (db.FILE_ID)
        assert db.read(lambda c: [tuple(r) for r in c.execute(kept)]) == [("token", "t")]
    finally:
        db.close()


def test_a_seats_inferred_flag_is_kept_and_filled_in_for_games_saved_before(tmp_path: Path) -> None:
    """A score resting on a value no rulebook states (end-states.md `inferred`) is never official on a player's
    page. The flag is kept with each seat (migration 9 fills it in for games saved before it, from the result in
    either form a result has held), so that a player's page reads no game's result."""
    path = tmp_path / "donjon.sqlite3"
    games = [  # Ana inferred in her entry; Ben inferred in an older result's mapping by name; Cy never
        _result([("Ana", 9, {"residents": "house"}), ("Ben", 5, {})]),
        _result([("Ben", 8, {}), ("Cy", 3, {})], inferred={"Ben": {"vp": "M"}}),
        _result([("Cy", 7, {}), ("Ana", 2, {})]),
    ]
    db = Database(path)
    for result in games:
        db.write(lambda c: store.save_game(c, "guildhall", {"game": "guildhall"}, result))
    db.close()
    back_to(path, 8)  # the database as migration 8 left it: no flag kept with a seat
    db = Database(path)
    try:
        flags = db.read(lambda c: c.execute("SELECT game_id, name, inferred FROM game_players "
                                            "ORDER BY game_id, seat").fetchall())
        assert [tuple(r) for r in flags] == [(1, "Ana", 1), (1, "Ben", 0), (2, "Ben", 1), (2, "Cy", 0), (3, "Cy", 0),
                                             (3, "Ana", 0)]
        # a player's page reads the seats only: with every result emptied, it says the same
        db.write(lambda c: c.execute("UPDATE games SET result = '{}'"))
        stats = {name: db.read(lambda c: store.player_stats(c, name, [])) for name in ("Ana", "Ben", "Cy")}
        assert {name: s["any_inferred"] for name, s in stats.items() if s} == {"Ana": True, "Ben": True, "Cy": False}
        # a game saved or corrected now keeps the flag with its seats
        db.write(lambda c: store.update_game(c, 3, {"game": "guildhall"}, _result([("Cy", 7, {"x": "L"}),
                                                                                   ("Ana", 2, {})])))
        cy = db.read(lambda c: store.player_stats(c, "Cy", []))
        assert cy is not None and cy["per_game"]["guildhall"]["inferred"]
    finally:
        db.close()


def test_games_saved_before_letters_were_spelled_out_are_found_by_the_search_as_they_are(tmp_path: Path) -> None:
    """The history's search spells Ø, Ł, Æ... out when it reads the keys (`store._LATIN_LETTERS`), not when it
    writes them: a history saved before, its seats keyed "ørsted" and "łukasz" as donjon keyed them then, is found
    by "orsted" and "Lukasz" (and "Ørsted" finds Orsted) with nothing in it keyed again, at the schema it had."""
    path = tmp_path / "donjon.sqlite3"
    Database(path).close()
    conn = sqlite3.connect(path)
    for game_id, (name, key) in enumerate([("Ørsted", "ørsted"), ("Orsted", "orsted"), ("Łukasz", "łukasz")], 1):
        conn.execute("INSERT INTO games (id, uid, game, played_at, end_state, result) VALUES (?, ?, 'guildhall', ?, "
                     "'{}', '{}')", (game_id, f"u{game_id}", f"2026-03-0{game_id} 20:00:00"))
        conn.execute("INSERT INTO game_players (game_id, seat, name, score, place, winner, player_key) "
                     "VALUES (?, 0, ?, 5, 1, 1, ?)", (game_id, name, key))
    conn.commit()
    seats = conn.execute("SELECT * FROM game_players ORDER BY game_id").fetchall()
    conn.close()
    db = Database(path)
    try:
        def found(query: str) -> list[int]:
            return db.read(lambda c: [g["id"] for g in store.list_games(c, named=query)])

        assert found("orsted") == found("Ørsted") == found("OERSTED") == [2, 1]
        assert found("lukasz") == found("Łukasz") == [3]
        assert db.read(lambda c: [tuple(r) for r in c.execute("SELECT * FROM game_players ORDER BY game_id")]) == \
            [tuple(r) for r in seats]
        assert db.read(lambda c: c.execute("PRAGMA user_version").fetchone()[0]) == SCHEMA_VERSION
    finally:
        db.close()
