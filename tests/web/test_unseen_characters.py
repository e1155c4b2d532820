"""Characters no one sees in a player's name (a zero-width space pasted with it, a soft hyphen, a byte order mark, a
word joiner, bidi marks): the name's key leaves them out, for the scorer and the companion alike, the names typed at
a table are kept without them, and a database of an older donjon is migrated so that its players whose names
differ only by them become one, every game kept (`generator.web.db`, migration 7)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from functools import partial
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from generator.errors import OutputError
from generator.fields import player_key, visible_name
from generator.web import db as database
from generator.web import store
from generator.web.db import SCHEMA_VERSION, Database
from generator.web.games import Games
from tests.web.conftest import SAME_ORIGIN, example, new_table, post_json

#: A database written by donjon at schema version 6 (commit aae083f), before keys left these characters out; how it
#: was made and what it holds: make_schema6_invisible_names.py beside it.
SCHEMA_6 = Path(__file__).resolve().parent / "data" / "schema6-invisible-names.sql"
TECHNOLOGIST = "\U0001F469\u200d\U0001F4BB"  # a woman, a zero-width joiner, a computer: one emoji
WOMAN_AND_COMPUTER = "\U0001F469\U0001F4BB"  # the same two emoji without the joiner: two
SCOTLAND = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"  # a black flag and its tags


@pytest.mark.parametrize("typed", ["Zo\u200bë", "\ufeffZoë", "Zo\u00adë", "\u200eZoë\u200f", "Zo\u2060ë",
                                   "\u202eZoë\u202c", "\u2067Zoë\u2069", "Zo\u200dë", "Zo\u200cë", " zoe\u200b "])
def test_a_name_with_characters_no_one_sees_is_the_same_player(typed: str) -> None:
    assert player_key(typed) == player_key("Zoë")
    assert visible_name(typed).casefold() in ("zoë", "zoe")


@pytest.mark.parametrize("one, other", [
    (TECHNOLOGIST, WOMAN_AND_COMPUTER),  # an emoji ZWJ sequence (UTS #51)
    ("\U0001F3F3\ufe0f\u200d\U0001F308", "\U0001F3F3\ufe0f\U0001F308"),  # the rainbow flag: a flag and a rainbow
    ("\u0639\u0644\u06cc\u200c\u0631\u0636\u0627", "\u0639\u0644\u06cc\u0631\u0636\u0627"),  # Persian: a half-space
    ("\u0915\u094d\u200d\u0937", "\u0915\u094d\u0937"),  # Devanagari: a joiner after the virama, a half form
])
def test_a_joiner_a_script_needs_is_part_of_the_name(one: str, other: str) -> None:
    assert player_key(one) != player_key(other)
    assert visible_name(one) == one  # shown as typed


def test_a_heart_drawn_as_text_or_as_an_emoji_is_one_player() -> None:
    assert player_key("Ana\u2764\ufe0f") == player_key("Ana\u2764")
    assert visible_name("Ana\u2764\ufe0f") == "Ana\u2764\ufe0f"


def schema_6_file(folder: Path) -> Path:
    """The schema 6 database as a file, loaded from its dump."""
    path = folder / "donjon.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_6.read_text(encoding="utf-8"))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 6
    conn.close()
    return path


def game_versions(conn: sqlite3.Connection, game_id: int) -> list[sqlite3.Row]:
    return conn.execute("SELECT number, action, end_state FROM game_versions WHERE game_id = ? ORDER BY number",
                        (game_id,)).fetchall()


def snapshot(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def test_a_database_of_the_previous_schema_makes_one_player_of_names_that_differ_by_what_no_one_sees(
        tmp_path: Path) -> None:
    path = schema_6_file(tmp_path)
    before = sqlite3.connect(path)
    seats = before.execute("SELECT game_id, count(*) FROM game_players GROUP BY game_id").fetchall()
    before.close()
    db = Database(path)
    try:
        assert db.read(lambda c: c.execute("PRAGMA user_version").fetchone()[0]) == SCHEMA_VERSION
        # every game kept, each with its seats
        assert db.read(lambda c: [tuple(r) for r in c.execute("SELECT game_id, count(*) FROM game_players "
                                                              "GROUP BY game_id")]) == seats
        people = {p["name"]: p["games"] for p in db.read(store.players)}
        # Zoë under three spellings (games 1, 2, 3 and 5), shown as her last game's name without its zero-width space
        assert people["Zoë"] == 4 and "Zo\u200bë" not in people and "\u00adZoë\u200f" not in people
        # Ana and Ana-with-a-zero-width-space sat at one table (game 4): two people, the second now "Ana (2)" there
        # and in her other game (5); Ana's games are hers alone
        assert people["Ana"] == 2 and people["Ana (2)"] == 2
        assert db.read(lambda c: store.player_games(c, "Ana")) == [3, 4]
        assert db.read(lambda c: store.player_games(c, "Ana (2)")) == [4, 5]
        # the emoji with and without a joiner are two players, as they were
        assert people[TECHNOLOGIST] == 1 and people[WOMAN_AND_COMPUTER] == 1
        assert len(people) == 6  # Zoë, Ben, Ana, Ana (2) and the two emoji
        # the renamed games keep their earlier state as a version, and their end state is scored as it stands
        for game_id in (4, 5):
            game = db.read(partial(store.get_game, game_id=game_id))
            assert game is not None and "Ana (2)" in [p["name"] for p in game["players"]]
            assert "Ana\u200b" not in json.dumps(game["end_state"], ensure_ascii=False)
            versions = db.read(partial(game_versions, game_id=game_id))
            assert [(v[0], v[1]) for v in versions] == [(1, "save"), (2, "rename")]
            assert "Ana\u200b" in versions[0][2]  # the name as it was saved stays in the game's first version
            scored = Games().score(game["end_state"])
            assert scored.result is not None and scored.result["valid"], scored.error
            assert [p["name"] for p in scored.result["players"]] == [p["name"] for p in game["result"]["players"]]
        # games where no two seats became one keep their single version
        assert db.read(lambda c: c.execute("SELECT count(*) FROM game_versions WHERE game_id = 2")
                       .fetchone()[0]) == 1
        # the open table's two seats, Cy and Cy with a word joiner, are told apart the same way
        table = db.read(lambda c: store.load_table(c, 1))
        assert [p.name for p in table.parts] == ["Cy", "Cy (2)"]
    finally:
        db.close()
    migrated = snapshot(path)
    conn = sqlite3.connect(path)
    conn.create_function("donjon_player_key", 1, player_key, deterministic=True)
    with conn:  # run again: nothing changes
        database._keys_without_invisible_characters(conn)
    conn.close()
    assert snapshot(path) == migrated
    Database(path).close()  # opened again: nothing to migrate, nothing changed
    assert snapshot(path) == migrated


#: What migration 7 makes of the schema 6 database's seats (game, seat, name, key): written out, not computed, so
#: that a change of today's key cannot move what the test expects with what it tests.
MIGRATED_SEATS = [
    (1, 0, "Zoë", "zoe"), (1, 1, "Ben", "ben"), (2, 0, "Zo\u200bë", "zoe"), (2, 1, "Ben", "ben"),
    (3, 0, "\u00adZoë\u200f", "zoe"), (3, 1, "Ben", "ben"), (3, 2, "Ana", "ana"),
    (4, 0, "Ana", "ana"), (4, 1, "Ana (2)", "ana (2)"), (4, 2, "Ben", "ben"), (5, 0, "Ana (2)", "ana (2)"),
    (5, 1, "Zo\u200bë", "zoe"), (6, 0, "Ben", "ben"), (6, 1, TECHNOLOGIST, TECHNOLOGIST),
    (6, 2, WOMAN_AND_COMPUTER, WOMAN_AND_COMPUTER)]


def test_migration_7_keys_a_schema_6_database_the_same_whatever_todays_key(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Migration 7 keyed the players with today's `player_key`: had the key changed in a later donjon, a database of
    version 6 would have been migrated to other keys and names than by donjon 7. It keys them with its own frozen
    copy (generator.web.keys7): with today's key and name functions replaced, the same seats, names and keys."""
    from generator import fields

    def other_key(name: str) -> str:  # a later donjon's key, unlike migration 7's: every name its own player
        return "changed:" + name

    for module in (fields, database):
        monkeypatch.setattr(module, "player_key", other_key)
    monkeypatch.setattr(fields, "visible_name", lambda name: name)
    path = schema_6_file(tmp_path)
    Database(path).close()
    conn = sqlite3.connect(path)
    try:
        seats = [tuple(r) for r in conn.execute("SELECT game_id, seat, name, player_key FROM game_players "
                                                 "ORDER BY game_id, seat")]
        parts = [r[0] for r in conn.execute("SELECT name FROM table_parts ORDER BY table_id, seat")]
    finally:
        conn.close()
    assert seats == MIGRATED_SEATS
    assert parts == ["Cy", "Cy (2)"]


#: Names of every kind the key folds or keeps apart: the schema 6 database's and those of the tests above.
KNOWN_NAMES = ["Zoë", "Zoe\u0308", "Zo\u200bë", "\u00adZoë\u200f", "\ufeffZoë", "Zo\u2060ë", "\u202eZoë\u202c",
               "\u2067Zoë\u2069", "Zo\u200dë", "Zo\u200cë", " zoe\u200b ", "ÁNA", "ana  b", "Ana\u2764\ufe0f",
               TECHNOLOGIST, WOMAN_AND_COMPUTER, "\U0001F3F3\ufe0f\u200d\U0001F308", "\u0639\u0644\u06cc\u200c\u0631",
               "\u0915\u094d\u200d\u0937", "Ⅻ", "ﬁona", "Straße", "İlker", SCOTLAND]


def test_todays_key_is_still_migration_7s() -> None:
    """Migration 7 keeps its own copy of the key (generator.web.keys7). When today's key changes, this fails: leave
    keys7 as it is and add a migration that keys every seat again with a frozen copy of the new key, so that the
    keys in a database are today's."""
    from generator.web import keys7

    for name in KNOWN_NAMES:
        assert (keys7.player_key(name), keys7.visible_name(name)) == (player_key(name), visible_name(name)), \
            f"player_key changed for {name!r}: add a migration that keys players again (see generator/web/keys7.py)"


def test_a_migration_that_fails_leaves_the_database_as_it_was(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = schema_6_file(tmp_path)
    copy = shutil.copy(path, tmp_path / "copy.sqlite3")

    def failing(value: object, old: str, new: str) -> object:  # fails after the keys were rewritten
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(database, "_renamed", failing)
    with pytest.raises(OutputError, match="schema version 7"):
        Database(path)
    assert snapshot(path) == snapshot(Path(copy))  # the keys too: one transaction
    monkeypatch.undo()
    Database(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_a_name_typed_with_characters_no_one_sees_is_kept_without_them(client: TestClient,
                                                                        db: Database) -> None:
    assert post_json(client, "/api/games", example("guildhall")).status_code == 201  # Ana, Ben and Cleo
    # a zero-width space pasted with a known name: the known player, as the history writes her
    table = new_table(client, "guildhall", ["\u200bana", "Zo\u00adë\u200f", "Ben"],
                      vp_set="job-faire", professions="")
    loaded = db.read(lambda c: store.load_table(c, table.id))
    assert [p.name for p in loaded.parts] == ["Ana", "Zoë", "Ben"]
    # a seat's name corrected with a byte order mark and a word joiner: kept without them
    answer = client.post(f"/tables/{table.id}/seats/1/name", headers=SAME_ORIGIN,
                         data={"name": "\ufeffZo\u2060e", "was": "Zoë"})
    assert answer.status_code == 303, answer.text
    loaded = db.read(lambda c: store.load_table(c, table.id))
    assert loaded.parts[1].name == "Zoe"
    # a name of nothing but such characters is no name
    empty = client.post(f"/tables/{table.id}/seats/1/name", headers=SAME_ORIGIN,
                        data={"name": "\u200b\u00ad", "was": "Zoe"})
    assert empty.status_code == 400 and 'role="alert"' in empty.text
    # two of the names typed for a new table that differ only by such a character are one name twice
    twice = client.post("/tables", headers=SAME_ORIGIN, data={"game": "guildhall", "vp_set": "job-faire",
                                                               "professions": "", "name": ["Dan", "Dan\u200b"]})
    assert twice.status_code == 400


def test_the_api_takes_an_emoji_name_with_its_joiner_and_refuses_one_with_a_character_no_one_sees(
        client: TestClient) -> None:
    state = example("guildhall")
    state["players"][1]["name"], state["players"][2]["name"] = TECHNOLOGIST, WOMAN_AND_COMPUTER
    saved = post_json(client, "/api/games", state)
    assert saved.status_code == 201, saved.text
    names = [p["name"] for p in client.get("/api/players").json()]
    assert TECHNOLOGIST in names and WOMAN_AND_COMPUTER in names
    # a name pasted with a character no one sees: saved as typed without it, as a table's form saves it
    state["players"][1]["name"] = "\u200eBen\u200b"
    state["players"][2]["name"] = "Zo\u00adë"
    pasted = post_json(client, "/api/games", state)
    assert pasted.status_code == 201, pasted.text
    assert [p["name"] for p in pasted.json()["players"]][1:] == ["Ben", "Zoë"]
    assert "\u200b" not in json.dumps(pasted.json()["end_state"]) and "Zo\u00adë" not in pasted.text


def test_the_command_line_renames_as_the_players_page_does(db: Database, client: TestClient) -> None:
    """`donjon history rename` and `merge` keep a new name without what no one sees, as the players' page does, and
    take an emoji ZWJ sequence (they refused every format character, the joiner of an emoji too)."""
    from typer.testing import CliRunner

    from generator.cli import app as cli

    assert post_json(client, "/api/games", example("guildhall")).status_code == 201  # Ana, Ben and Cleo
    runner = CliRunner()
    pasted = runner.invoke(cli, ["history", "rename", "Ana", "\u200bAnna\u00ad", "--db", str(db.path)])
    assert pasted.exit_code == 0, pasted.output
    emoji = runner.invoke(cli, ["history", "rename", "Ben", TECHNOLOGIST, "--db", str(db.path)])
    assert emoji.exit_code == 0, emoji.output
    names = [p["name"] for p in client.get("/api/players").json()]
    assert sorted(names) == sorted(["Anna", TECHNOLOGIST, "Cleo"])
    control = runner.invoke(cli, ["history", "rename", "Cleo", "Cl\x1beo", "--db", str(db.path)])
    assert control.exit_code == 2 and "printable" in control.stderr



def test_a_name_typed_at_a_table_with_a_control_character_is_refused_as_the_api_refuses_it(
        client: TestClient, db: Database) -> None:
    """A name sent with a control character (by a script: a phone's keyboard types none) was kept at a table, and
    its saved game could then not be imported back from an export (the import refuses it, as the API does)."""
    form = {"game": "guildhall", "vp_set": "job-faire", "professions": ""}
    refused = client.post("/tables", headers=SAME_ORIGIN, data={**form, "name": ["Ana\x1b[31m", "Ben"]})
    assert refused.status_code == 400 and "U+001B" in refused.text and 'role="alert"' in refused.text
    table = new_table(client, "guildhall", ["Ana", SCOTLAND], vp_set="job-faire", professions="")  # a flag is a name
    seat = client.post(f"/tables/{table.id}/seats/0/name", headers=SAME_ORIGIN,
                       data={"name": "An\ue000a", "was": "Ana"})
    assert seat.status_code == 400 and "U+E000" in seat.text
    assert [p.name for p in db.read(lambda c: store.load_table(c, table.id)).parts] == ["Ana", SCOTLAND]
    state = example("guildhall")
    state["players"][1]["name"] = SCOTLAND
    assert post_json(client, "/api/games", state).status_code == 201
    renamed = client.post("/history/players/rename", headers=SAME_ORIGIN, data={"old": "Ana", "new": "An\x07a"})
    assert renamed.status_code == 400 and "U+0007" in renamed.text


@pytest.mark.parametrize(("name", "kept"), [("Zo\u200bë", "Zoë"), ("\u202bAna\u202c", "Ana"),
                                            ("\ufeffDan  Li ", "Dan Li"),
                                            (TECHNOLOGIST, TECHNOLOGIST)])
def test_every_way_in_keeps_a_name_without_what_no_one_sees(client: TestClient, db: Database, tmp_path: Path,
                                                            games: Games, name: str, kept: str) -> None:
    """The forms kept `Zo\u200bë` as `Zoë`, but the API (a save, a correction), an import and `donjon history edit`
    refused it ("longer than 40 characters or holds a control character"), though its key leaves the character
    out: each now keeps the name as typed without the characters no one sees, and the game's end state says so."""
    from typer.testing import CliRunner

    from generator.cli import app as cli
    from generator.web import archive

    state = example("guildhall")
    state["players"][0]["name"] = name
    state["ended_by"] = name
    saved = post_json(client, "/api/games", state)
    assert saved.status_code == 201, saved.text
    game = saved.json()
    assert game["players"][0]["name"] == kept and game["end_state"]["players"][0]["name"] == kept
    assert game["end_state"]["ended_by"] == kept
    patched = client.patch(f"/api/games/{game['id']}", content=json.dumps(state),
                           headers={"content-type": "application/json"})
    assert patched.status_code == 200 and patched.json()["players"][0]["name"] == kept, patched.text
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(state), encoding="utf-8")
    answer = CliRunner().invoke(cli, ["history", "edit", str(game["id"]), str(edited), "--db", str(db.path)])
    assert answer.exit_code == 0, answer.output
    corrected = db.read(lambda c: store.get_game(c, game["id"]))
    assert corrected is not None and corrected["end_state"]["players"][0]["name"] == kept
    export = db.read(archive.export)
    export["games"][0]["end_state"]["players"][0]["name"] = name
    export["games"][0]["uid"] = "another"
    imported = archive.check(export, "games.json", games)
    assert imported[0]["end_state"]["players"][0]["name"] == kept


@pytest.mark.parametrize(("name", "code"), [("Ana\x1b[31m", "U+001B"), ("An\x07a", "U+0007"), ("An\ue000a", "U+E000"),
                                            ("\u200b\x00", "U+0000")])
def test_every_way_in_refuses_a_control_character_and_names_it(client: TestClient, db: Database, tmp_path: Path,
                                                               games: Games, name: str, code: str) -> None:
    """A control character such as ESC is refused everywhere, the character named (`U+001B`): the API said "longer
    than 40 characters or holds a control character", and `donjon history edit` saved it."""
    from typer.testing import CliRunner

    from generator.cli import app as cli
    from generator.errors import InputError
    from generator.web import archive

    good = post_json(client, "/api/games", example("guildhall"))
    assert good.status_code == 201
    state = example("guildhall")
    state["players"][0]["name"] = name
    state["ended_by"] = name
    refused = post_json(client, "/api/games", state)
    assert refused.status_code == 422 and code in refused.json()["error"], refused.text
    patched = client.patch(f"/api/games/{good.json()['id']}", content=json.dumps(state),
                           headers={"content-type": "application/json"})
    assert patched.status_code == 422 and code in patched.json()["error"]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(state), encoding="utf-8")
    before = db.read(lambda c: store.get_game(c, good.json()["id"]))
    answer = CliRunner().invoke(cli, ["history", "edit", str(good.json()["id"]), str(edited), "--db", str(db.path)])
    assert answer.exit_code == 2 and code in answer.stderr and "edited.json" in answer.stderr, answer.output
    assert db.read(lambda c: store.get_game(c, good.json()["id"])) == before  # nothing changed
    export = db.read(archive.export)
    export["games"][0]["end_state"]["players"][0]["name"] = name
    export["games"][0]["end_state"]["ended_by"] = name
    with pytest.raises(InputError, match=code.replace("+", r"\+")) as raised:
        archive.check(export, "games.json", games)
    assert "games[0].end_state" in str(raised.value)
    team = post_json(client, "/api/games", {"end_state": example("guedelon"), "team": ["Ana", name]})
    assert team.status_code == 400 and code in team.json()["error"], team.text
