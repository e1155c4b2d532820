"""`donjon history`: list, show, players, export and import, with an export that round-trips."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from generator.cli import app as cli
from generator.web import store
from generator.web.db import Database
from generator.web.games import Games
from tests.conftest import REPO
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
    """`history players` is a table of columns, in English: "1 game", never "1 games"; in French and German too,
    its columns lining up whether a player played one game or several (`1 partie ` beside `4 parties`)."""
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
    for code_ in ("fr", "de"):
        # a player of one game (Eli, who won it) and one of several (Ben, who lost some): the columns line up
        code, out, _ = run("history", "players", "--db", db, "--lang", code_)
        lines = {line.split()[0]: line for line in out.splitlines()}
        assert code == 0 and len(lines["Eli"]) == len(lines["Ben"]), out
        assert lines["Eli"].endswith("100 %") and lines["Ben"].endswith(" 33 %"), out
        for word in (("partie ", "parties"), ("Partie ", "Partien"))[code_ == "de"]:
            assert lines["Eli" if word.endswith(" ") else "Ben"].split()[2] == word.strip(), out


def test_photos_are_listed_said_by_the_export_and_let_go_once_their_game_is_saved(tmp_path: Path) -> None:
    """Photos of paper sheets are the tables', not the games': `history photos` lists them (text and JSON), the
    export says they are not in it, and `--let-go-saved` deletes those of saved tables only (with what the
    players answered about them), the others kept."""
    path = filled_db(tmp_path / "h.sqlite3")
    db = str(path)
    assert run("history", "photos", "--db", db)[:2] == (0, "no photo of a paper sheet is kept\n")
    code, _, err = run("history", "export", "--db", db, "--out", str(tmp_path / "before.json"))
    assert code == 0 and "not in the export" not in err
    database = Database(path)
    state = example("once-upon-a-castle")
    result = Games().score(state).result
    assert result is not None

    def tables(c: Any) -> tuple[int, int]:
        saved, still = (store.create_table(c, "once-upon-a-castle", {}, ["Ana", "Ben"], [], {}, {}) for _ in "ab")
        store.add_photo(c, saved, 0, "ana.jpg", b"x" * 1_500_000, first=True)
        store.add_photo(c, saved, 0, "ana-2.jpg", b"y" * 1_000_000, first=False)
        store.keep_answers(c, saved, 0, store.Answers({3: True}, {"sun": "no"}))
        store.add_photo(c, still, 1, "ben.jpg", b"z" * 500_000, first=True)
        store.save_game(c, "once-upon-a-castle", state, result, table_id=saved)
        return saved, still

    try:
        saved, still = database.write(tables)
    finally:
        database.close()
    code, out, _ = run("history", "photos", "--db", db)
    when = r", the last taken \d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2, out
    assert re.fullmatch(rf"table {saved:>4}  game 4      Ana: 2 photos \(2\.5 MB\){when}", lines[0]), out
    assert re.fullmatch(rf"table {still:>4}  not saved   Ben: 1 photo \(0\.5 MB\){when}", lines[1]), out
    code, out, _ = run("history", "photos", "--db", db, "--json")
    assert code == 0 and [(p["table"], p["game_id"], p["player"], p["photos"], p["bytes"]) for p in json.loads(out)] \
        == [(saved, 4, "Ana", 2, 2_500_000), (still, None, "Ben", 1, 500_000)]
    code, out, err = run("history", "export", "--db", db, "--out", str(tmp_path / "after.json"))
    assert code == 0 and "the 3 photos (3.0 MB) of paper sheets the companion keeps are not in the export" in err
    # the export's format is as it was: its games, the one saved from the table with photos too, hold no photo
    before, after = (json.loads((tmp_path / f"{n}.json").read_text())["games"] for n in ("before", "after"))
    assert len(after) == 4 and {frozenset(g) for g in after} == {frozenset(g) for g in before}
    code, out, _ = run("history", "photos", "--db", db, "--let-go-saved")
    assert code == 0 and out == "let go 2 photos (2.5 MB) of tables whose game is saved; 1 photo of tables still " \
                                "open kept\n"
    code, out, _ = run("history", "photos", "--db", db, "--json")
    assert [(p["table"], p["photos"]) for p in json.loads(out)] == [(still, 1)]
    database = Database(path)
    try:
        assert database.read(lambda c: store.seat_answers(c, saved, 0)) == store.Answers({}, {})
    finally:
        database.close()
    assert run("history", "photos", "--db", db, "--let-go-saved")[1] == \
        "let go 0 photos (0.0 MB) of tables whose game is saved; 1 photo of tables still open kept\n"
    code, _, err = run("history", "photos", "--db", str(tmp_path / "missing.sqlite3"), "--let-go-saved")
    assert code == 2 and "no such database" in err and not (tmp_path / "missing.sqlite3").exists()


def test_a_rename_or_merge_refused_names_its_argument_and_the_name_given(tmp_path: Path) -> None:
    """`donjon history rename` and `merge` refusing a name say which argument, as --help calls it, and the name
    given (`OLD 'Zed': no saved game has a player of that name`); they said `NAME:`, a placeholder --help never
    shows, whichever name was at fault, and `NEW:` for merge's INTO."""
    db = str(filled_db(tmp_path / "h.sqlite3"))
    refusals = {
        ("rename", "Zed", "Zoe"): "error: OLD 'Zed': no saved game has a player of that name",
        ("rename", "Ana", "Ana"): "error: NEW 'Ana': Ana is already the name of that player",
        ("rename", "Ana", "Ben"): "error: NEW 'Ben': Ben is already another player's name",
        ("rename", "Ana", ""): "error: NEW '': a name is 1 to 40 printable characters",
        ("merge", "Ana", "Zed"): "error: INTO 'Zed': no saved game has a player of that name",
        ("merge", "Yan", "Zed"): "error: OLD 'Yan' and INTO 'Zed': no saved game has a player of that name",
        ("merge", "ana", "Ana"): "error: OLD 'ana' and INTO 'Ana': ana and Ana are already one player",
        ("merge", "Ana", "Ben"): "error: OLD 'Ana' and INTO 'Ben': Ana and Ben both played game ",
    }
    for args, said in refusals.items():
        code, _, err = run("history", *args, "--db", db)
        assert code == 2 and err.startswith(said), (args, err)


def test_a_french_or_german_table_reads_its_history_in_its_language(tmp_path: Path) -> None:
    """`--lang fr|de` on list, show and players, as `donjon score --lang`: the words and the breakdown's parts in
    the language; the JSON and English as they were; a language donjon has no words in refused (exit 2)."""
    db = str(filled_db(tmp_path / "h.sqlite3"))
    english = run("history", "show", "1", "--db", db)[1]
    code, out, _ = run("history", "show", "1", "--db", db, "--lang", "fr")
    out = out.replace("\u00a0", " ").replace("\u202f", " ")
    assert code == 0 and "(partie 1)" in out and "gagnant : Ana" in out
    assert "Cartes PV achetées 19" in out and "vp_cards" not in out and "winner" not in out
    code, out, _ = run("history", "show", "3", "--db", db, "--lang", "de")
    assert code == 0 and "Team: Ana, Ben, Cleo" in out and "gewonnen" in out and "Runden bis 1245 17" in out
    assert "team" not in out.replace("Team", "")  # "The team": das Team
    code, out, _ = run("history", "players", "--db", db, "--lang", "de")
    assert code == 0 and "3 Partien" in out and "3 gewonnen" in out and " won " not in out
    assert run("history", "show", "1", "--db", db, "--lang", "en")[1] == english
    assert run("history", "show", "1", "--db", db, "--json", "--lang", "fr")[1] == run("history", "show", "1",
                                                                                         "--db", db, "--json")[1]
    code, out, err = run("history", "list", "--db", db, "--lang", "es")
    assert code == 2 and out == "" and "--lang es" in err
    empty = str(tmp_path / "empty.sqlite3")
    Database(Path(empty)).close()
    said = run("history", "list", "--db", empty, "--lang", "fr")[1]
    assert said.strip() == "aucune partie enregistrée pour l’instant"


@pytest.mark.parametrize("code", ["fr", "de"])
def test_a_games_date_is_written_as_the_companion_writes_it(tmp_path: Path, code: str) -> None:
    """`history list` and `show --lang fr|de` write a game's date as the companion's page of that game does in the
    language (`2 févr. 2026 21:00`), where they printed it as stored (`2026-02-02 21:00:00`) beside French or German
    words; the dates of `list` take one width, so that the games' names line up. The JSON and English keep the stored
    form."""
    from starlette.testclient import TestClient

    from generator.web.app import create_app

    path = filled_db(tmp_path / "h.sqlite3")
    database = Database(path)
    try:
        state = example("guildhall")  # a day of May: a date of another length than February's
        result = Games().score(state).result
        assert result is not None
        database.write(lambda c: store.save_game(c, "guildhall", state, result, played_at="2026-05-12 21:00:00"))
        with TestClient(create_app(database, Games()), base_url="http://127.0.0.1") as client:
            page = client.get("/history/games/2", headers={"accept-language": code}).text
    finally:
        database.close()
    shown = re.search(r"<h1>[^<]*<small>([^<]*)</small>", page)
    assert shown is not None, page
    date = shown.group(1)
    assert "2026-02-02" not in date
    heading = run("history", "show", "2", "--db", str(path), "--lang", code)[1].splitlines()[0]
    assert date in heading, (date, heading)
    listed = run("history", "list", "--db", str(path), "--lang", code)[1].splitlines()
    assert any(date in line for line in listed) and not any("2026-02" in line for line in listed), listed
    # the games' names after the dates start in one column, whatever each date's length
    starts = {match.start(2) for line in listed for match in [re.match(r"\s*\d+  (\S+(?: \S+)*)\s{2,}(\S)", line)]
              if match is not None}
    assert len(starts) == 1 and len(listed) == 4, listed
    assert "2026-02-02 21:00:00" in run("history", "list", "--db", str(path))[1]
    assert '"played_at": "2026-02-02 21:00:00"' in run("history", "show", "2", "--db", str(path), "--json",
                                                       "--lang", code)[1]


@pytest.mark.parametrize(("code", "no_database", "not_an_id", "no_game"), [
    ("fr", "aucune base de données ici", "n’est pas le numéro d’une partie", "aucune partie 9 enregistrée"),
    ("de", "keine solche Datenbank", "ist nicht die Nummer einer Partie", "keine gespeicherte Partie 9")])
def test_a_history_that_cannot_be_read_is_told_so_in_the_language(tmp_path: Path, code: str, no_database: str,
                                                                   not_an_id: str, no_game: str) -> None:
    """`history list/show/players --lang fr|de`: no database, a GAME that is no id, a game not saved are refused in
    the language (exit 2, as in English); English as it was."""
    missing = str(tmp_path / "none.sqlite3")
    for command in (("list",), ("show", "1"), ("players",)):
        said = run("history", *command, "--db", missing, "--lang", code)
        assert said[0] == 2 and no_database in said[2] and "no such database" not in said[2]
    assert "no such database (donjon serve creates it" in run("history", "list", "--db", missing)[2]
    said = run("history", "show", "abc", "--lang", code)
    assert said[0] == 2 and not_an_id in said[2]
    db = str(filled_db(tmp_path / "h.sqlite3"))
    said = run("history", "show", "9", "--db", db, "--lang", code)
    assert said[0] == 2 and no_game in said[2] and "no saved game" not in said[2]
    assert "no saved game 9 (donjon history list shows them)" in run("history", "show", "9", "--db", db)[2]


@pytest.mark.parametrize(("code", "said"), [
    ("fr", ["GAME: il n’y a pas de partie enregistrée 9", "partie 1 supprimée",
            "OLD 'Nobody': aucune partie enregistrée n’a de joueur de ce nom",
            "NEW '': un nom compte de 1 à 40 caractères imprimables",
            "NEW 'Z\\x1b': un nom compte de 1 à 40 caractères imprimables : 'Z\\x1b' contient le caractère U+001B",
            "OLD 'Ana' et INTO 'Ben': Ana et Ben ont tous deux joué la partie 2", "2 parties modifiées",
            "aucune base de données ici"]),
    ("de", ["GAME: es gibt keine gespeicherte Partie 9", "Partie 1 gelöscht",
            "OLD 'Nobody': keine gespeicherte Partie hat eine Person dieses Namens",
            "NEW '': ein Name hat 1 bis 40 druckbare Zeichen",
            "NEW 'Z\\x1b': ein Name hat 1 bis 40 druckbare Zeichen: 'Z\\x1b' enthält das Zeichen U+001B",
            "OLD 'Ana' und INTO 'Ben': Ana und Ben spielten beide Partie 2", "2 Partien geändert",
            "keine solche Datenbank"])])
def test_a_delete_rename_or_merge_is_told_in_the_language(tmp_path: Path, code: str, said: list[str]) -> None:
    """`history delete/rename/merge --lang fr|de`: what was done and every refusal (a game not saved, a name not
    played or against the rule, two seats of one game, no database) in the language; the arguments keep the names
    --help gives them (OLD, NEW, INTO). English as it was."""
    db = str(filled_db(tmp_path / "h.sqlite3"))
    commands = [("delete", "9"), ("delete", "1"), ("rename", "Nobody", "Zed"), ("rename", "Ana", ""),
                ("rename", "Ana", "Z\x1b"), ("merge", "Ana", "Ben"), ("rename", "Ana", "Anna")]
    told = [run("history", *command, "--db", db, "--lang", code) for command in commands]
    told.append(run("history", "delete", "1", "--db", str(tmp_path / "none.sqlite3"), "--lang", code))
    assert [t[0] for t in told] == [2, 0, 2, 2, 2, 2, 0, 2]
    text = "".join(t[1] + t[2] for t in told).replace("\u00a0", " ").replace("\u202f", " ")
    for line in said:
        assert line in text
    for english in ("deleted", "no saved game", "printable", "holds the character", " and ", "changed", "no such"):
        assert english not in text
    again = str(filled_db(tmp_path / "again.sqlite3"))
    assert run("history", "delete", "1", "--db", again)[1] == "game 1 deleted\n"
    assert run("history", "merge", "Ana", "Ben", "--db", again)[2].strip() == (
        "error: OLD 'Ana' and INTO 'Ben': Ana and Ben both played game 2: two seats of one game cannot be one player")
    assert run("history", "rename", "Ana", "Anna", "--db", again)[1] == "2 games changed\n"


@pytest.mark.parametrize(("code", "said"), [
    ("fr", ["a.yaml: un état de fin est attendu ici (un tableau de clés)",
            "b.yaml: <end state>: game: jeu inconnu : 'nope' ; donjon compte les points de guildhall, guedelon ou "
            "once-upon-a-castle", "GAME: il n’y a pas de partie enregistrée 9", "partie 1 corrigée : gagnant Ana"]),
    ("de", ["a.yaml: hier gehört ein Endstand hin (eine Zuordnung)",
            "b.yaml: <end state>: game: Spiel unbekannt: 'nope'; donjon wertet guildhall, guedelon oder "
            "once-upon-a-castle", "GAME: es gibt keine gespeicherte Partie 9", "Partie 1 korrigiert: Sieger Ana"])])
def test_an_edit_is_told_in_the_language_and_saved_as_in_english(tmp_path: Path, code: str, said: list[str]) -> None:
    """`history edit --lang fr|de`: a file that is no end state, one the scorer refuses, a game not saved, and the
    game corrected are said in the language; the result saved is the one an English edit saves (the companion
    reads it in any language). English as it was."""
    (tmp_path / "a.yaml").write_text("- a\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("game: nope\n", encoding="utf-8")
    good = REPO / "content" / "examples" / "guildhall.yaml"
    db = str(filled_db(tmp_path / "h.sqlite3"))
    told = [run("history", "edit", game, str(file), "--db", db, "--lang", code)
            for game, file in (("1", tmp_path / "a.yaml"), ("1", tmp_path / "b.yaml"), ("9", good), ("1", good))]
    assert [t[0] for t in told] == [2, 2, 2, 0]
    text = "".join(t[1] + t[2] for t in told).replace("\u00a0", " ").replace("\u202f", " ")
    for line in said:
        assert line in text
    english = str(filled_db(tmp_path / "en.sqlite3"))
    assert run("history", "edit", "1", str(good), "--db", english)[1] == "game 1 corrected: winner Ana\n"
    assert run("history", "edit", "1", str(tmp_path / "a.yaml"), "--db", english)[2] == (
        f"error: {tmp_path / 'a.yaml'}: expected an end state (a mapping)\n")
    saved = [json.loads(run("history", "show", "1", "--json", "--db", path)[1])["result"] for path in (db, english)]
    assert saved[0] == saved[1]


@pytest.mark.parametrize(("code", "said"), [
    ("fr", ["le nom de joueur «\u202f" + "A" * 50 + "\u202f» dépasse 40 caractères"]),
    ("de", ["der Name „" + "A" * 50 + "“ einer Person ist länger als 40 Zeichen"])])
def test_an_edit_whose_player_name_cannot_be_saved_is_told_in_the_language(tmp_path: Path, code: str,
                                                                           said: list[str]) -> None:
    """`history edit --lang fr|de`: a player's name the history will not keep (longer than a name may be) is refused
    in the language, as the edit's other refusals are; nothing is changed. English as it was (the API's words)."""
    long = tmp_path / "long.yaml"
    long.write_text((REPO / "content" / "examples" / "guildhall.yaml").read_text(encoding="utf-8")
                    .replace("Ana", "A" * 50), encoding="utf-8")
    db = str(filled_db(tmp_path / "h.sqlite3"))
    told = run("history", "edit", "1", str(long), "--db", db, "--lang", code)
    assert told[0] == 2 and "player name" not in told[2]
    for line in said:
        assert line in told[2]
    assert "Ana" in run("history", "show", "1", "--db", db)[1]
    english = run("history", "edit", "1", str(long), "--db", db)
    assert english[2] == f"error: {long}: the player name '{'A' * 50}' is longer than 40 characters\n"


@pytest.mark.parametrize(("code", "said"), [
    ("fr", ["aucune photo de feuille papier n’est gardée", "json ou csv est attendu ici",
            "4 parties écrites dans",
            "les 2 photos (2,0 Mo) de feuilles papier que le compagnon garde ne sont pas dans",
            "table    1  partie 4        Ana : 1 photo (1,5 Mo), la dernière prise le ",
            "table    2  non enregistrée Ben : 1 photo (0,5 Mo), la dernière prise le ",
            "4 parties importées, 0 déjà là", "0 partie importée, 4 déjà là",
            "ne peut pas être importé (2 problèmes) :",
            "games[0].uid: 1 à 64 caractères imprimables sont attendus ici",
            "games[1].end_state: <end state>: game: jeu inconnu : 'nope'",
            "n’est pas un export de l’historique donjon (sa clé format ne vaut pas donjon-history)",
            "supprimée : 1 photo (1,5 Mo) de tables dont la partie est enregistrée ; 1 photo de tables encore "
            "ouvertes gardée"]),
    ("de", ["es ist kein Foto eines Papierbogens aufbewahrt", "hier gehört json oder csv hin",
            "4 Partien nach",
            "die 2 Fotos (2,0 MB) von Papierbögen, die der Begleiter aufbewahrt, sind nicht im Export",
            "Tisch    1  Partie 4          Ana: 1 Foto (1,5 MB), das letzte aufgenommen am ",
            "Tisch    2  nicht gespeichert Ben: 1 Foto (0,5 MB), das letzte aufgenommen am ",
            "4 Partien importiert, 0 schon vorhanden", "0 Partien importiert, 4 schon vorhanden",
            "kann nicht importiert werden (2 Probleme):", "games[0].uid: hier gehören 1 bis 64 druckbare Zeichen hin",
            "games[1].end_state: <end state>: game: Spiel unbekannt: 'nope'",
            "ist kein Export des donjon-Verlaufs", "gelöscht: 1 Foto (1,5 MB) von Tischen, deren Partie gespeichert "
            "ist; 1 Foto von noch offenen Tischen behalten"])])
def test_export_import_and_photos_are_told_in_the_language(tmp_path: Path, code: str, said: list[str]) -> None:
    """`history export/import/photos --lang fr|de`: what was written, imported, kept or let go, the photos' lines,
    and every refusal (a format not known, an export that cannot be imported and each of its problems) in the
    language; the export itself (JSON keys, CSV columns) the same as in English. English as it was
    (test_photos_are_listed_said_by_the_export_and_let_go_once_their_game_is_saved)."""
    path = filled_db(tmp_path / "h.sqlite3")
    db = str(path)
    told = [run("history", "photos", "--db", db, "--lang", code)]
    state = example("once-upon-a-castle")
    result = Games().score(state).result
    assert result is not None
    database = Database(path)

    def tables(c: Any) -> None:
        saved, still = (store.create_table(c, "once-upon-a-castle", {}, ["Ana", "Ben"], [], {}, {}) for _ in "ab")
        store.add_photo(c, saved, 0, "ana.jpg", b"x" * 1_500_000, first=True)
        store.add_photo(c, still, 1, "ben.jpg", b"z" * 500_000, first=True)
        store.save_game(c, "once-upon-a-castle", state, result, table_id=saved)

    try:
        database.write(tables)
    finally:
        database.close()
    export = tmp_path / "e.json"
    told += [run("history", *args, "--db", db, "--lang", code) for args in
             (["export", "--format", "xml"], ["export", "--out", str(export)], ["photos"])]
    assert run("history", "export", "--format", "csv", "--db", db, "--lang", code)[1] == \
        run("history", "export", "--format", "csv", "--db", db)[1]
    bad = json.loads(export.read_text(encoding="utf-8"))
    bad["games"][0]["uid"] = ""
    bad["games"][1]["end_state"]["game"] = "nope"
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    (tmp_path / "other.json").write_text('{"format": "x"}', encoding="utf-8")
    new = str(tmp_path / "new.sqlite3")
    told += [run("history", "import", str(file), "--db", new, "--lang", code)
             for file in (export, export, tmp_path / "bad.json", tmp_path / "other.json")]
    told.append(run("history", "photos", "--let-go-saved", "--db", db, "--lang", code))
    assert [t[0] for t in told] == [0, 2, 0, 0, 0, 0, 2, 2, 0]
    text = "".join(t[1] + t[2] for t in told).replace("\u00a0", " ").replace("\u202f", " ")
    for line in said:
        assert line in text, text
    for english in ("no photo", "expected", "written to", "not in the export", "not saved", "imported,",
                    "cannot be imported", "not a donjon history export", "let go", "the last taken"):
        assert english not in text


@pytest.mark.parametrize(("code", "said"), [
    ("fr", ["bad.yaml:2: n’est pas du YAML valide : ",
            "dup.yaml:2: répète la clé « a » dans un même tableau de clés",
            "missing.yaml: fichier introuvable", "broken.json:1: n’est pas du JSON valide : "]),
    ("de", ["bad.yaml:2: ist kein gültiges YAML: ", "dup.yaml:2: wiederholt den Schlüssel „a“ in einer Zuordnung",
            "missing.yaml: Datei nicht gefunden", "broken.json:1: ist kein gültiges JSON: "])])
def test_a_file_that_cannot_be_read_is_told_so_in_the_language(tmp_path: Path, code: str, said: list[str]) -> None:
    """`history edit/import --lang fr|de` and `score --lang fr|de`: a file that is not YAML or JSON, repeats a key
    or is not there is said in the language (what the parser found, in donjon's words: test_yamlio.py), with its line;
    English as it was."""
    (tmp_path / "bad.yaml").write_text("game: [\n", encoding="utf-8")
    (tmp_path / "dup.yaml").write_text("a: 1\na: 2\n", encoding="utf-8")
    (tmp_path / "broken.json").write_text('{"a": ', encoding="utf-8")
    db = str(filled_db(tmp_path / "h.sqlite3"))
    told = [run("history", "edit", "1", str(tmp_path / name), "--db", db, "--lang", code)
            for name in ("bad.yaml", "dup.yaml", "missing.yaml")]
    told.append(run("history", "import", str(tmp_path / "broken.json"), "--db", db, "--lang", code))
    told += [run("score", str(tmp_path / name), "--lang", code) for name in ("bad.yaml", "dup.yaml", "missing.yaml")]
    assert [t[0] for t in told] == [2] * 7
    text = "".join(t[2] for t in told).replace("\u00a0", " ").replace("\u202f", " ")
    for line in said:
        assert line in text
    assert text.count(said[1]) == 2 and text.count(said[2]) == 2
    for english in ("is not valid", "repeats the key", "no such file"):
        assert english not in text
    assert run("history", "edit", "1", str(tmp_path / "dup.yaml"), "--db", db)[2] == \
        f"error: {tmp_path / 'dup.yaml'}:2: repeats the key 'a' in one mapping\n"


@pytest.mark.parametrize(("code", "said"), [
    ("fr", ["--content {none}: dossier introuvable", "--content {file}: n’est pas un dossier",
            "--content: est vide : nommez un dossier",
            "games[0]: played_at doit être une date et une heure", "games[1]: team doit être une liste de 1 à 8 noms",
            "games[2]: end_state doit être un objet JSON"]),
    ("de", ["--content {none}: Ordner nicht gefunden", "--content {file}: ist kein Ordner",
            "--content: ist leer: nenne einen Ordner",
            "games[0]: played_at muss ein Datum mit Uhrzeit sein",
            "games[1]: team muss eine Liste von 1 bis 8 Namen sein",
            "games[2]: end_state muss ein JSON-Objekt sein"])])
def test_a_content_folder_and_an_imported_games_envelope_are_refused_in_the_language(tmp_path: Path, code: str,
                                                                                     said: list[str]) -> None:
    """`score`/`history --lang fr|de`: a `--content` naming no folder (nothing, a file, an empty value) and an
    export's game whose date, team or keys the API would refuse are said in the language (the keys named as the
    format names them); they were English inside a French `erreur :`. English as the API says it."""
    db = str(filled_db(tmp_path / "h.sqlite3"))
    export = tmp_path / "e.json"
    assert run("history", "export", "--out", str(export), "--db", db)[0] == 0
    data = json.loads(export.read_text(encoding="utf-8"))
    data["games"][0]["played_at"] = "yesterday"
    data["games"][1]["team"] = ["Ana"] * 9
    data["games"][2]["end_state"] = ["a list"]
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    none, file = tmp_path / "none", export
    guildhall = str(REPO / "content/examples/guildhall.yaml")
    told = [run("score", guildhall, "--content", str(none), "--lang", code),
            run("history", "import", str(export), "--content", str(file), "--db", db, "--lang", code),
            run("score", guildhall, "--content", " ", "--lang", code),
            run("history", "import", str(tmp_path / "bad.json"), "--db", str(tmp_path / "new.sqlite3"), "--lang", code)]
    assert [t[0] for t in told] == [2] * 4
    text = "".join(t[2] for t in told).replace("\u00a0", " ").replace("\u202f", " ")
    for line in said:
        assert line.format(none=none, file=file) in text, text
    for english in ("no such folder", "is not a folder", "is empty", "must be"):
        assert english not in text
    english = run("history", "import", str(tmp_path / "bad.json"), "--db", str(tmp_path / "new.sqlite3"))[2]
    assert "games[1]: team must be a list of 1 to 8 names" in english
    assert run("score", guildhall, "--content", str(none))[2] == f"error: --content {none}: no such folder\n"


@pytest.mark.parametrize(("code", "error"), [("fr", "erreur\u00a0: "), ("de", "Fehler: ")])
def test_a_refusal_begins_with_the_language_s_word_for_error(tmp_path: Path, code: str, error: str) -> None:
    """`score`/`history --lang fr|de`: each refusal on stderr begins `erreur :` (a no-break space before the colon,
    as the French catalog writes it) or `Fehler:`, a file's as a command line's, as `build --lang` (the cards' and
    the messages' language) does; English keeps `error:`; a run after a French one speaks English again."""
    missing = str(tmp_path / "none.sqlite3")
    told = [run("history", "list", "--db", missing, "--lang", code), run("history", "show", "abc", "--lang", code),
            run("score", str(tmp_path / "missing.yaml"), "--lang", code),
            run("score", str(REPO / "content/examples/guildhall.yaml"), "--names", "Ana", "--lang", code)]
    assert [t[0] for t in told] == [2] * 4
    for said in told:
        assert said[2].startswith(error) and "error:" not in said[2]
    assert run("history", "list", "--db", missing)[2].startswith(f"error: {missing}: no such database")
    assert run("score", str(tmp_path / "missing.yaml"))[2] == f"error: {tmp_path / 'missing.yaml'}: no such file\n"
    assert run("build", "--lang", code, "--paper", "zz")[2].startswith(f"{error}--paper")
    assert run("build", "--paper", "zz")[2].startswith("error: --paper: 'zz'")


def test_games_of_a_sheet_of_ones_own_are_imported_edited_and_renamed_with_its_content(tmp_path: Path) -> None:
    """A game saved by `donjon serve --content SHEETS` (a sheet of one's own) is scored again by `history import`,
    `edit`, `rename` and `merge` with the same `--content`; they had no such option, so such a game could be
    neither imported into another database nor corrected from the command line (`unknown game`)."""
    from generator.registry import unregister

    sheets = REPO / "content" / "examples" / "sheets"
    state = {"game": "lantern-harbour", "sheets": [{"player": "Ana", "fish": 14, "boats": 3},
                                                   {"player": "Ben", "fish": 3, "boats": 1}]}
    db = tmp_path / "h.sqlite3"
    try:
        result = Games(sheets).score(state).result
        assert result is not None and result["valid"]
        database = Database(db)
        database.write(lambda c: store.save_game(c, "lantern-harbour", state, result, played_at="2026-03-01 21:00:00"))
        database.close()
        unregister("lantern-harbour")  # as in a new process: the shipped games only
        code, exported, _ = run("history", "export", "--db", str(db))
        assert code == 0
        file = tmp_path / "export.json"
        file.write_text(exported, encoding="utf-8")
        other = str(tmp_path / "other.sqlite3")
        code, _, err = run("history", "import", str(file), "--db", other)  # without the sheet: refused, said why
        assert code == 2 and "lantern-harbour" in err
        code, out, _ = run("history", "import", str(file), "--db", other, "--content", str(sheets))
        assert code == 0 and "1 game imported" in out
        corrected = tmp_path / "corrected.yaml"
        corrected.write_text("game: lantern-harbour\nsheets:\n"
                             "  - {player: Ana, fish: 2}\n  - {player: Ben, fish: 30}\n", encoding="utf-8")
        code, out, _ = run("history", "edit", "1", str(corrected), "--db", other, "--content", str(sheets))
        assert code == 0 and "winner Ben" in out
        code, out, _ = run("history", "rename", "Ana", "Anna", "--db", other, "--content", str(sheets))
        assert code == 0
        code, out, _ = run("history", "list", "--db", other)
        assert "Anna" in out and "Ben" in out
        code, _, err = run("history", "merge", "Anna", "Ben", "--db", other, "--content", str(sheets))
        assert code == 2 and err.startswith("error: OLD 'Anna' and INTO 'Ben': Anna and Ben both played game ")
        code, _, err = run("history", "edit", "1", str(corrected), "--db", other, "--content", str(tmp_path / "no"))
        assert code == 2 and "--content" in err and "no such folder" in err
    finally:
        unregister("lantern-harbour")


def test_a_game_of_a_sheet_of_ones_own_is_shown_by_its_words_without_its_folder(tmp_path: Path) -> None:
    """A designer serves their own sheet (`donjon serve --content`), a table plays and saves a game; `donjon history
    show` and `list`, which have no `--content`, named it by its id (`lantern-harbour`) and, in French, its
    breakdown by its keys (`villagers 6`), where the companion said "Lantern Harbour" and "Villagers 6": the history
    now keeps the sheet's words when it serves it (or imports its games), and shows them without its folder."""
    from starlette.testclient import TestClient

    from generator.registry import unregister
    from generator.web.app import create_app
    from tests.web.conftest import SAME_ORIGIN, new_table
    from tests.web.test_own_sheet_table import lantern_with

    folder = lantern_with(tmp_path, "languages: {fr: {name: Le Port aux Lanternes}}\n")
    db = tmp_path / "h.sqlite3"
    try:
        database = Database(db)
        with TestClient(create_app(database, Games(folder)), base_url="http://127.0.0.1",
                        follow_redirects=False) as client:
            table = new_table(client, "lantern-harbour", ["Ana", "Ben"])
            table.edit("set", "fish", 14, seat=0)
            table.edit("set", "villagers", 7, seat=0)
            table.edit("set", "fish", 3, seat=1)
            assert client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN).status_code == 303
        database.close()
    finally:
        unregister("lantern-harbour")  # as in a new process: the shipped games only
    code, out, _ = run("history", "show", "1", "--db", str(db))
    assert code == 0 and out.startswith("Lantern Harbour, ") and "1. Ana: 20  (villagers 6, fish 14," in out
    code, out, _ = run("history", "show", "1", "--db", str(db), "--lang", "fr")
    assert code == 0 and out.startswith("Le Port aux Lanternes, ") and "1. Ana\u00a0: 20  (Villagers 6, Fish 14," in out
    code, out, _ = run("history", "list", "--db", str(db))
    assert code == 0 and "  Lantern Harbour  " in out
    # a game imported into another history from its export, with the folder: the same there
    code, exported, _ = run("history", "export", "--db", str(db))
    file = tmp_path / "export.json"
    file.write_text(exported, encoding="utf-8")
    other = str(tmp_path / "other.sqlite3")
    try:
        assert run("history", "import", str(file), "--db", other, "--content", str(folder))[0] == 0
    finally:
        unregister("lantern-harbour")
    code, out, _ = run("history", "show", "1", "--db", other, "--lang", "de")
    assert code == 0 and out.startswith("Lantern Harbour, ") and "(Villagers 6, Fish 14," in out


def test_a_long_game_name_does_not_run_into_the_scores(tmp_path: Path) -> None:
    """`history list` padded games' names to 19 columns: a sheet of one's own named "Le Port aux Lanternes" (21)
    ran into its scores with one space ("Le Port aux Lanternes Ana 20*"), and its scores began further right than
    the other games'. The scores' column now begins after the widest name listed, two spaces past it."""
    path = filled_db(tmp_path / "h.sqlite3")
    db = Database(path)
    state = {"game": "lantern-harbour", "sheets": [{"player": "Ana", "fish": 14}, {"player": "Ben", "fish": 3}]}
    result = {"game": "lantern-harbour", "valid": True, "finished": True, "violations": [], "warnings": [],
              "winner": "Ana", "players": [
                  {"name": "Ana", "score": 14, "place": 1, "breakdown": {"fish": 14}, "inferred": {}},
                  {"name": "Ben", "score": 3, "place": 2, "breakdown": {"fish": 3}, "inferred": {}}]}
    words = {"name": {"en": "Lantern Harbour", "fr": "Le Port aux Lanternes"}, "labels": {}}
    try:
        def write(c: Any) -> None:
            store.keep_words(c, {"lantern-harbour": words})
            store.save_game(c, "lantern-harbour", state, result, played_at="2026-02-04 21:00:00")

        db.write(write)
    finally:
        db.close()
    code, out, _ = run("history", "list", "--db", str(path), "--lang", "fr")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4
    assert "  Le Port aux Lanternes  Ana 14*, Ben 3" in lines[0]
    starts = {line.index(" Ana ") + 1 for line in lines}
    assert len(starts) == 1, lines  # every line's scores begin in the same column
    assert "  Guildhall" + " " * (len("Le Port aux Lanternes") - len("Guildhall") + 2) + "Ana " in lines[3]


def test_the_versions_of_a_game_are_said_in_the_language_asked(tmp_path: Path) -> None:
    """`history show --lang fr|de` listed a game's versions in English ("edit (the companion's page)") under a
    French or German heading; they are said as the game's page says them. English keeps the stored words."""
    db = str(filled_db(tmp_path / "h.sqlite3"))
    corrected = example("guildhall")
    corrected["players"][2]["vp_tokens"] += 2
    file = tmp_path / "fixed.json"
    file.write_text(json.dumps(corrected), encoding="utf-8")
    assert run("history", "edit", "1", str(file), "--db", db)[0] == 0
    for code, saved, edited in (("fr", "enregistrée (donjon)", "corrigée (donjon history edit)"),
                                ("de", "gespeichert (donjon)", "berichtigt (donjon history edit)"),
                                ("en", "save (donjon)", "edit (donjon history edit)")):
        code_, out, _ = run("history", "show", "1", "--db", db, "--lang", code)
        lines = out.splitlines()
        assert code_ == 0 and lines[-2].endswith(saved) and lines[-1].endswith(edited), (code, lines[-3:])


@pytest.mark.parametrize(("code", "words"), [("fr", ("abîmée", "tel quel", "plus récent", "pas un fichier")),
                                            ("de", ("beschädigt", "unverändert", "neueren", "ist keine Datei"))])
def test_a_database_file_refused_is_said_in_the_language(tmp_path: Path, code: str, words: tuple[str, ...]) -> None:
    """`history --lang fr|de` and `serve --lang fr|de` said why a database file is refused (not a database, a
    folder, a newer donjon's) in English: now in the language, the file named and exit 2 as in English, the file
    left as it was."""
    import sqlite3

    from generator.web.db import SCHEMA_VERSION

    junk = tmp_path / "notes.sqlite3"
    junk.write_text("my shopping list, not a database\n" * 50)
    newer = tmp_path / "newer.sqlite3"
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    folder = tmp_path / "folder.sqlite3"
    folder.mkdir()
    damaged, newest, not_a_file = words[0], words[2], words[3]
    cases = [(junk, damaged, "is not a donjon database"), (newer, newest, "was written by a newer donjon"),
             (folder, not_a_file, "is not a file")]
    for path, word, english in cases:
        before = path.read_bytes() if path.is_file() else b""
        for args in (("history", "list"), ("history", "rename", "Ana", "Bob"), ("serve", "--port", "0")):
            exit_code, out, err = run(*args, "--db", str(path), "--lang", code)
            said = err.replace("\u00a0", " ").replace("\u202f", " ")
            assert exit_code == 2 and out == "" and str(path) in err, (args, err)
            assert english not in said and word in said, (args, err)
            assert path.is_dir() or (path.read_bytes() == before and path.name + "-wal" not in os.listdir(tmp_path))
        if path is not folder:
            assert words[1] in err.replace("\u00a0", " ")
        assert english in run("history", "list", "--db", str(path))[2]  # English as it was
