"""The companion with a sheet of one's own (`donjon serve --content content/examples/sheets`): a table for it,
its fields entered or a filled sheet uploaded, scored by its rules, and the game saved."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from generator.web.app import create_app
from generator.web.db import Database
from generator.web.games import Games
from tests.web.conftest import REPO, SAME_ORIGIN, new_table
from tests.web.test_tables import totals

SHEETS = REPO / "content" / "examples" / "sheets"


@pytest.fixture
def own(db: Database) -> Iterator[TestClient]:
    """The app serving the example sheets' folder (its sheet is a game for as long as the folder is loaded)."""
    from generator.registry import unregister

    try:
        games = Games(SHEETS)
        with TestClient(create_app(db, games), base_url="http://127.0.0.1", follow_redirects=False) as client:
            yield client
    finally:
        unregister("lantern-harbour")


def lantern_with(tmp_path: Path, added: str) -> Path:
    """A copy of the Lantern Harbour sheet's folder (in `tmp_path/sheets`), `added` written at the end of its
    sheet.yaml."""
    import shutil

    folder = tmp_path / "sheets" / "lantern-harbour"
    shutil.copytree(SHEETS / "lantern-harbour", folder)
    spec = folder / "sheet.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + added, encoding="utf-8")
    return folder


def lantern_in_german(tmp_path: Path) -> Path:
    """The Lantern Harbour sheet with its German: its words and its goods' names (its guilds keep their English
    names)."""
    from tests.sheets.test_sheet_languages import LANTERN_DE

    return lantern_with(tmp_path, LANTERN_DE.replace("      guilds: [{id: fishers, name: Fischer}, {id: sailors, name: "
                                                     "Seeleute}, {id: merchants, name: Händler}]\n", ""))


def test_a_table_for_a_sheet_of_ones_own(own: TestClient, tmp_path: Path) -> None:
    home = own.get("/").text
    assert "Lantern Harbour" in home and "Guildhall" not in home  # the games of the folder served
    assert own.get("/new/lantern-harbour").status_code == 200
    table = new_table(own, "lantern-harbour", ["Ana", "Ben"])
    page = table.page(seat=0)
    assert "Villagers" in page and "Salt" in page  # its fields, and the goods of its list
    table.edit("set", "fish", 14, seat=0)
    for _ in range(3):
        table.edit("add", "boats", 1, seat=0)
    table.edit("toggle", "goods", "salt", seat=0)
    update = table.edit("set", "villagers", 7, seat=0)
    # 6 (villagers 7-9) + 14 fish + 9 (3 boats) + 2 (salt)
    assert totals(update)["Ana"] == "31"
    update = table.edit("set", "storm", "true", seat=0)
    assert totals(update)["Ana"] == "26"
    # Ben uploads his filled sheet instead of typing
    built = tmp_path / "out"
    from typer.testing import CliRunner

    from generator.cli import app
    from tests.sheets.helpers import fill

    assert CliRunner().invoke(app, ["build", "--content", str(SHEETS), "--out", str(built), "--format", "pdf"]
                              ).exit_code == 0
    blank = built / "score-sheets" / "lantern-harbour" / "lantern-harbour-a4-fillable.pdf"
    ben = fill(blank, tmp_path / "ben.pdf", {"player": "Ben", "fish": "3", "villagers": "11", "boat_1": True,
                                             "good_1": "tea"})
    upload = own.post(f"/tables/{table.id}/seats/1/sheet", headers=SAME_ORIGIN,
                      files={"sheet": ("ben.pdf", ben.read_bytes(), "application/pdf")}, follow_redirects=True)
    assert upload.status_code == 200, upload.text
    assert totals(upload.text)["Ben"] == str(10 + 3 + 3 + 2)
    saved = own.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN)
    assert saved.status_code == 303, saved.text
    game = own.get(saved.headers["location"]).text
    assert "Ana" in game and "Lantern Harbour" in game


def test_a_field_of_ones_own_without_a_description_has_no_help_in_any_language(own: TestClient) -> None:
    """Lantern Harbour's fields say nothing under them: on the French and German table, each showed the catalog's
    header ("Project-Id-Version: donjon VERSION ... Generated-By: Babel") as its help, gettext's answer to ""."""
    from generator.i18n import language

    table = new_table(own, "lantern-harbour", ["Ana", "Ben"])
    for code in ("en", "fr", "de"):
        page = own.get(f"/tables/{table.id}/seats/0", headers={"accept-language": code}).text
        assert "Project-Id-Version" not in page and "Content-Type" not in page, code
        assert language(code)._("") == ""


def test_a_sheet_of_ones_own_labels_its_fields_at_the_table_and_in_a_photos_review(db: Database,
                                                                                   tmp_path: Path) -> None:
    """The labels a sheet.yaml gives its fields are the companion's, in the phone's language where the sheet gives
    that language's ("Bateaux lancés"), its own where not (a German phone: "Boats launched"); a field without one
    keeps its id in words (Villagers). The review of a photo names its lines so too. Both showed the ids."""
    from generator.i18n import language
    from generator.registry import unregister
    from tests.sheets.test_own_sheet import LABELS

    folder = lantern_with(tmp_path, LABELS)
    try:
        games = Games(folder.parent)
        with TestClient(create_app(db, games), base_url="http://127.0.0.1", follow_redirects=False) as client:
            table = new_table(client, "lantern-harbour", ["Ana", "Ben"])
            pages = {code: client.get(f"/tables/{table.id}/seats/0", headers={"accept-language": code}).text
                     for code in ("en", "fr", "de")}
        reviews = {code: {line.field: line.label for line in games.sheet_from_marks(
            "lantern-harbour", "a4", set(), {}, "", "lantern-harbour", language(code))[2].lines}
            for code in ("en", "fr")}
    finally:
        unregister("lantern-harbour")
    assert "Boats launched" in pages["en"] and "Struck by the storm" in pages["en"] and "Villagers" in pages["en"]
    assert "Bateaux lancés" in pages["fr"] and "Frappé par la tempête" in pages["fr"] and "Boats launched" \
        not in pages["fr"]
    assert "Goods traded" in pages["fr"]  # French gives no label of its own: the sheet's
    assert "Boats launched" in pages["de"]  # a language the sheet does not give
    assert reviews["en"]["boats"] == "Boats launched" and reviews["en"]["villagers"] == "villagers"
    assert reviews["fr"]["boats"] == "Bateaux lancés" and reviews["fr"]["storm"] == "Frappé par la tempête"


def test_a_photos_review_in_english_names_the_fields_a_rule_involves_by_their_labels(db: Database,
                                                                                     tmp_path: Path) -> None:
    """The review of a photo in English says why a field is undecided with the fields named by their labels
    ("Struck by the storm is marked but Boats launched is empty"), as French does; it said the reader's own
    sentence, with the ids ("storm is marked but boats is empty")."""
    from generator.i18n import language
    from generator.registry import find_game, unregister
    from tests.sheets.test_own_sheet import LABELS, STORM_NEEDS

    folder = lantern_with(tmp_path, LABELS)
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace(*STORM_NEEDS), encoding="utf-8")
    try:
        games = Games(folder.parent)
        marks = find_game("lantern-harbour").drawn("scan", "a4").map.marks  # type: ignore[attr-defined]
        storm = next(i for i, mark in enumerate(marks) if mark.field == "storm")
        _, problems, review = games.sheet_from_marks("lantern-harbour", "a4", {storm}, {}, "", "lantern-harbour",
                                                     language("en"))
    finally:
        unregister("lantern-harbour")
    said = "Struck by the storm is marked but Boats launched is empty: the storm strikes a harbour with boats"
    assert {line.field: line.why for line in review.lines if line.why} == {"storm": said, "boats": said}
    assert problems == [said, f"Boats launched: {said}"]  # the storm's field, which the reason names first, once


def test_a_photos_review_in_english_names_the_values_a_rule_involves_by_their_names(db: Database,
                                                                                    tmp_path: Path) -> None:
    """The review of a photo in English names the values a reason says as the sheet prints them ("Goods traded is
    Salt and Tea but ..."), in the phone's language where the sheet gives one, else in its own; it said their ids
    ("salt, tea"), then joined them with a bare comma in an English sentence ("Salt, Tea")."""
    from generator.i18n import language
    from generator.registry import find_game, unregister
    from tests.sheets.test_own_sheet import LABELS

    folder = lantern_with(tmp_path, LABELS)
    layout = folder / "layout.yaml"
    goods = "  goods: {type: list, items: goods}"
    text = layout.read_text(encoding="utf-8")
    assert text.count(goods) == 1
    layout.write_text(text.replace(goods, '  goods: {type: list, items: goods, needs: {field: boats, why: "goods '
                                          'leave by boat"}}'), encoding="utf-8")
    try:
        games = Games(folder.parent)
        marks = find_game("lantern-harbour").drawn("scan", "a4").map.marks  # type: ignore[attr-defined]
        ticked = {i for i, mark in enumerate(marks) if mark.field == "goods" and mark.value in ("salt", "tea")}
        _, problems, review = games.sheet_from_marks("lantern-harbour", "a4", ticked, {}, "", "lantern-harbour",
                                                     language("en"))
    finally:
        unregister("lantern-harbour")
    said = "Goods traded is Salt and Tea but Boats launched is empty: goods leave by boat"
    assert {line.field: line.why for line in review.lines if line.why} == {"goods": said, "boats": said}
    assert problems == [said, f"Boats launched: {said}"]


def test_a_value_typed_on_a_photos_check_page_may_be_its_name(db: Database, tmp_path: Path) -> None:
    """On a photo's check page a player types a value as the page names it, in any language of the sheet ("Salz,
    Tee" on a German phone): it is taken as the ids (`salt`, `tea`), as `--set` takes it; it was refused ("goods
    takes ids separated by commas ... 'salz, tee' is not one")."""
    from generator.i18n import language
    from generator.registry import unregister

    folder = lantern_in_german(tmp_path)
    try:
        games = Games(folder.parent)
        part, problems, _ = games.sheet_from_marks("lantern-harbour", "a4", set(), {"goods": "Salz, Tee"}, "",
                                                   "lantern-harbour", language("de"))
    finally:
        unregister("lantern-harbour")
    assert problems == [] and part["goods"] == ["salt", "tea"], (problems, part)


def test_a_value_refused_on_a_photos_check_page_lists_the_values_as_the_page_names_them(db: Database,
                                                                                       tmp_path: Path) -> None:
    """A value typed on a photo's check page that its field cannot take is refused with the values it takes as the
    phone's page names them, the id beside a name not typed as the id ("Salz (salt)" on a German phone); it listed
    the ids alone ("salt, rope, tar, ...")."""
    from generator.i18n import language
    from generator.registry import unregister

    folder = lantern_in_german(tmp_path)
    try:
        games = Games(folder.parent)
        _, german, _ = games.sheet_from_marks("lantern-harbour", "a4", set(), {"goods": "Salz, Gold"}, "",
                                              "lantern-harbour", language("de"))
        _, english, _ = games.sheet_from_marks("lantern-harbour", "a4", set(), {"goods": "Salt, Gold"}, "",
                                               "lantern-harbour", language("en"))
    finally:
        unregister("lantern-harbour")
    assert len(german) == 1 and "(Salz (salt), Seil (rope), Teer (tar), " in german[0], german
    assert english == ["goods takes values separated by commas (Salt, Rope, Tar, Silk, Spice, Tea, Wool, Amber) or "
                       "none; 'Gold' is not one"], english


def test_a_list_of_ones_own_counts_its_items_in_its_own_words(db: Database, tmp_path: Path) -> None:
    """A list field with `item_words:` says how many items it holds in them, singular or plural as the phone's
    language says ("1 good", "2 goods"; French "0 marchandise", "2 marchandises"), by its label ("Goods traded"),
    which names the whole list; its one item was the label in lower case ("goods traded")."""
    import re

    from generator.registry import unregister
    from tests.sheets.test_own_sheet import ITEM_WORDS

    folder = lantern_with(tmp_path, "labels: {goods: Goods traded}\n" + ITEM_WORDS)

    def counted(page: str) -> str:
        found = re.search(r"Goods traded <small class=\"counted\">\(([^)]*)\)</small>", page)
        return found.group(1) if found else page

    try:
        games = Games(folder.parent)
        with TestClient(create_app(db, games), base_url="http://127.0.0.1", follow_redirects=False) as client:
            table = new_table(client, "lantern-harbour", ["Ana", "Ben"])
            seen = {}
            for goods in ([], ["salt"], ["salt", "amber"]):
                for good in goods[-1:]:
                    table.edit("toggle", "goods", good, seat=0)
                for code in ("en", "fr"):
                    seen[code, len(goods)] = counted(client.get(f"/tables/{table.id}/seats/0",
                                                                headers={"accept-language": code}).text)
            update = table.edit("toggle", "goods", "tea", seat=0)
    finally:
        unregister("lantern-harbour")
    assert seen == {("en", 0): "0 goods", ("en", 1): "1 good", ("en", 2): "2 goods",
                    ("fr", 0): "0 marchandise", ("fr", 1): "1 marchandise", ("fr", 2): "2 marchandises"}
    assert counted(update) == "3 goods"  # the control drawn again after an edit says it too


def test_a_sheet_of_ones_own_is_named_at_the_table_as_its_sheet_names_it_in_the_phones_language(
        db: Database, tmp_path: Path) -> None:
    """A sheet giving its French name (`languages: {fr: {name: ...}}`) is printed under it by `donjon build --lang
    fr`; a French phone's companion called it by its English name on the home page and at its table."""
    from generator.registry import unregister

    folder = lantern_with(tmp_path, "languages: {fr: {name: Le Port aux Lanternes}}\n")
    try:
        with TestClient(create_app(db, Games(folder)), base_url="http://127.0.0.1", follow_redirects=False) as client:
            table = new_table(client, "lantern-harbour", ["Ana", "Ben"])
            for url in ("/", f"/tables/{table.id}"):
                french = client.get(url, headers={"accept-language": "fr"}).text
                assert "Le Port aux Lanternes" in french and "Lantern Harbour" not in french, url
                assert "Lantern Harbour" in client.get(url, headers={"accept-language": "en"}).text
    finally:
        unregister("lantern-harbour")


def test_the_history_shows_every_game_whichever_folder_the_companion_serves(db: Database, tmp_path: Path) -> None:
    """A Guildhall evening, then a designer's own sheet played (`donjon serve --content my-sheet`). Served with the
    sheet's folder only, the Guildhall game's page, its picture and the players' page were a 500 (its catalog is not
    in that folder); served without it, the sheet's game's were, and the history listed it with no name. Each is now
    shown by its words (the shipped catalogs', or those the history kept of the sheet), and correcting a game this
    companion does not serve is refused in words rather than opening a table that cannot be drawn."""
    from generator.registry import unregister
    from generator.web import store
    from tests.web.conftest import example

    state = example("guildhall")
    result = Games().score(state).result
    assert result is not None
    guildhall, _ = db.write(lambda c: store.save_game(c, "guildhall", state, result))
    folder = lantern_with(tmp_path, "")
    try:
        with TestClient(create_app(db, Games(folder)), base_url="http://127.0.0.1", follow_redirects=False) as client:
            table = new_table(client, "lantern-harbour", ["Ana", "Ben"])
            table.edit("set", "fish", 14, seat=0)
            table.edit("set", "fish", 3, seat=1)
            saved = client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN)
            assert saved.status_code == 303, saved.text
            own = int(saved.headers["location"].rsplit("/", 1)[1])
            shown = client.get(f"/history/games/{guildhall}")
            assert shown.status_code == 200 and "VP cards bought" in shown.text
            assert "Correct this game" not in shown.text and "does not serve Guildhall" in shown.text
            for url in (f"/history/games/{guildhall}/result.png", f"/history/games/{guildhall}/print",
                        "/history/players/Ana"):
                assert client.get(url).status_code == 200, url
            refused = client.post(f"/history/games/{guildhall}/correct", headers=SAME_ORIGIN)
            assert refused.status_code == 409 and "does not serve Guildhall" in refused.text
            # the history is searched by every game it holds, served or not
            found = client.get("/history", params={"game": "guildhall"})
            assert found.status_code == 200 and f'href="/history/games/{guildhall}"' in found.text
            assert '<option value="guildhall" selected>Guildhall</option>' in found.text
    finally:
        unregister("lantern-harbour")
    with TestClient(create_app(db, Games()), base_url="http://127.0.0.1", follow_redirects=False) as client:
        assert "<strong>Lantern Harbour</strong>" in client.get("/history").text
        found = client.get("/history", params={"game": "lantern-harbour"})
        assert found.status_code == 200 and f'href="/history/games/{own}"' in found.text
        assert f'href="/history/games/{guildhall}"' not in found.text
        assert '<option value="lantern-harbour" selected>Lantern Harbour</option>' in found.text
        shown = client.get(f"/history/games/{own}")
        assert shown.status_code == 200 and "Lantern Harbour" in shown.text and "Fish 14" in shown.text
        french = client.get(f"/history/games/{own}", headers={"accept-language": "fr"}).text
        assert "Ce compagnon ne sert pas Lantern Harbour" in french
        for url in (f"/history/games/{own}/result.png", f"/history/games/{own}/print", "/history/players/Ana"):
            assert client.get(url).status_code == 200, url
        refused = client.post(f"/history/games/{own}/correct", headers=SAME_ORIGIN)
        assert refused.status_code == 409 and "does not serve Lantern Harbour" in refused.text
        assert client.get(f"/history/games/{guildhall}").status_code == 200


def test_a_sheet_s_words_kept_while_the_companion_runs_name_its_games(db: Database, tmp_path: Path) -> None:
    """`donjon history import --content` run while the companion runs keeps the sheet's words in the history: the
    companion read them only when it started, so the imported games showed their id ("lantern-harbour") until it
    was started again. It reads them when a page needs them."""
    from generator.web import store

    state = {"game": "lantern-harbour", "sheets": [{"player": "Ana", "fish": 14}, {"player": "Ben", "fish": 3}]}
    result = {"game": "lantern-harbour", "valid": True, "finished": True, "violations": [], "warnings": [],
              "winner": "Ana", "players": [
                  {"name": "Ana", "score": 14, "place": 1, "breakdown": {"fish": 14}, "inferred": {}},
                  {"name": "Ben", "score": 3, "place": 2, "breakdown": {"fish": 3}, "inferred": {}}]}
    with TestClient(create_app(db, Games()), base_url="http://127.0.0.1", follow_redirects=False) as client:
        assert "lantern-harbour" not in client.get("/history").text
        from generator.registry import unregister

        try:  # what `history import --content` writes, from another process: its own connection to the file
            words = Games(SHEETS).own_words()
        finally:
            unregister("lantern-harbour")
        other = Database(db.path)
        try:
            def write(c: Any) -> tuple[int, bool]:
                store.keep_words(c, words)
                return store.save_game(c, "lantern-harbour", state, result)

            game, _ = other.write(write)
        finally:
            other.close()
        assert "<strong>Lantern Harbour</strong>" in client.get("/history").text
        shown = client.get(f"/history/games/{game}", headers={"accept-language": "fr"})
        assert shown.status_code == 200 and "Ce compagnon ne sert pas Lantern Harbour" in shown.text
        assert '<option value="lantern-harbour">Lantern Harbour</option>' in client.get("/history").text
        assert client.get("/history", params={"game": "lantern-harbour"}).status_code == 200


def test_a_game_of_a_sheet_whose_words_were_never_kept_is_shown_by_its_id(db: Database) -> None:
    """A sheet's game saved before the history kept its sheets' words, served without its folder: its page and
    picture were a 500 (no name for it anywhere), the history listed it with none. Now by its id."""
    from generator.web import store

    state = {"game": "lantern-harbour", "sheets": [{"player": "Ana", "fish": 14}, {"player": "Ben", "fish": 3}]}
    result = {"game": "lantern-harbour", "valid": True, "finished": True, "violations": [], "warnings": [],
              "winner": "Ana", "players": [
                  {"name": "Ana", "score": 14, "place": 1, "breakdown": {"fish": 14}, "inferred": {}},
                  {"name": "Ben", "score": 3, "place": 2, "breakdown": {"fish": 3}, "inferred": {}}]}
    game, _ = db.write(lambda c: store.save_game(c, "lantern-harbour", state, result))
    with TestClient(create_app(db, Games()), base_url="http://127.0.0.1", follow_redirects=False) as client:
        assert "<strong>lantern-harbour</strong>" in client.get("/history").text
        shown = client.get(f"/history/games/{game}")
        assert shown.status_code == 200 and "does not serve lantern-harbour" in shown.text and "Fish 14" in shown.text
        for url in (f"/history/games/{game}/result.png", f"/history/games/{game}/print", "/history/players/Ana"):
            assert client.get(url).status_code == 200, url
