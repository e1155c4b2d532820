"""`donjon history`: list, show, players, export and import, with an export that round-trips."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from generator.cli import app as cli
from generator.web import store
from generator.web.db import Database
from generator.web.games import Games
from tests.web.conftest import example


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def filled_db(path: Path) -> Path:
    db = Database(path)
    games = Games()
    try:
        for day, name in (("02-01", "guildhall"), ("02-02", "once-upon-a-castle"), ("02-03", "guedelon")):
            state = example(name)
            result = games.score(state).result
            assert result is not None
            team = ["Ana", "Ben", "Cleo"] if name == "guedelon" else []
            played = f"2026-{day} 21:00:00"
            db.write(lambda c, n=name, s=state, r=result, t=team, p=played:  # type: ignore[misc]
                     store.save_game(c, n, s, r, team=t, played_at=p))
    finally:
        db.close()
    return path


def test_list_show_and_players(tmp_path: Path) -> None:
    db = str(filled_db(tmp_path / "h.sqlite3"))
    code, out, _ = run("history", "list", "--db", db)
    assert code == 0
    lines = out.splitlines()
    assert "Guédelon" in lines[0] and "Guildhall" in lines[2] and "Ana 21*" in lines[2]
    code, out, _ = run("history", "show", "1", "--db", db)
    assert code == 0 and "1. Ana: 21  (vp_cards 19, vp_tokens 2)" in out and "winner: Ana" in out
    code, out, _ = run("history", "players", "--db", db, "--json")
    ana = next(p for p in json.loads(out) if p["name"] == "Ana")
    assert (ana["games"], ana["wins"]) == (3, 3)
    code, _, err = run("history", "show", "99", "--db", db)
    assert code == 2 and "no saved game 99" in err
    code, _, err = run("history", "list", "--db", str(tmp_path / "missing.sqlite3"))
    assert code == 2 and "no such database" in err
    assert not (tmp_path / "missing.sqlite3").exists()


def test_an_export_imported_into_an_empty_database_exports_the_same(tmp_path: Path) -> None:
    first = str(filled_db(tmp_path / "first.sqlite3"))
    code, exported, _ = run("history", "export", "--db", first)
    assert code == 0 and json.loads(exported)["format"] == "donjon-history"
    file = tmp_path / "export.json"
    file.write_text(exported, encoding="utf-8")
    second = str(tmp_path / "second.sqlite3")
    code, out, _ = run("history", "import", str(file), "--db", second)
    assert code == 0 and "3 games imported, 0 already there" in out
    code, again, _ = run("history", "export", "--db", second)
    assert again == exported
    code, out, _ = run("history", "import", str(file), "--db", second)  # importing twice adds nothing
    assert "0 games imported, 3 already there" in out
    code, table, _ = run("history", "export", "--db", second, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(table)))
    assert len(rows) == 3 + 3 + 3 and {r["game"] for r in rows} == {"guildhall", "once-upon-a-castle", "guedelon"}
    assert [r["winner"] for r in rows if r["game"] == "guedelon"] == ["1", "1", "1"]


def test_an_import_with_a_broken_game_is_refused_whole(tmp_path: Path) -> None:
    first = str(filled_db(tmp_path / "first.sqlite3"))
    _, exported, _ = run("history", "export", "--db", first)
    data = json.loads(exported)
    data["games"][1]["end_state"]["sheets"][0]["towers"] = [5, 5, 5, 5, 5, 5]
    data["games"][2]["end_state"]["players"] = "three"
    file = tmp_path / "broken.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    target = tmp_path / "target.sqlite3"
    code, _, err = run("history", "import", str(file), "--db", str(target))
    assert code == 2
    assert "games[1].end_state: is not a valid, finished game" in err and "games[2].end_state" in err
    assert not target.exists()
    (tmp_path / "junk.json").write_text("{not json")
    code, _, err = run("history", "import", str(tmp_path / "junk.json"), "--db", str(target))
    assert code == 2 and "is not valid JSON" in err


def test_players_says_one_game_not_one_games(tmp_path: Path) -> None:
    """`history players` is a table of columns, in English: "1 game", never "1 games"."""
    db = str(filled_db(tmp_path / "h.sqlite3"))
    code, out, _ = run("history", "players", "--db", db)
    assert code == 0 and "   3 games    3 won  100 %" in out
    database = Database(Path(db))
    try:
        state = example("guildhall")
        for player, name in zip(state["players"], ("Eli", "Fay", "Gus")):
            player["name"] = name
        state.pop("ended_by", None)
        result = Games().score(state).result
        assert result is not None
        database.write(lambda c: store.save_game(c, "guildhall", state, result, played_at="2026-02-04 21:00:00"))
    finally:
        database.close()
    code, out, _ = run("history", "players", "--db", db)
    eli = next(line for line in out.splitlines() if line.startswith("Eli "))
    assert code == 0 and " 1 game     1 won  100 %" in eli and "games" not in eli, eli
