"""Tables in process: forms built from the formats, every change scored again, messages at their field, saving."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from generator.web.db import Database
from generator.web.games import Games
from tests.web.conftest import SAME_ORIGIN, GameTable, new_table


def totals(html: str) -> dict[str, str]:
    """Player -> score as the running totals show them."""
    board = html[html.index('id="scoreboard"'):]
    return dict(re.findall(r'<th scope="row">([^<]+)</th>\s*<td class="num">(?:<span[^>]*>)?([^<]+)<', board))


def play_guildhall(table: GameTable) -> None:
    # Ana: 9 + 7 VP cards so far; Ben 5 + 4 and 3 tokens = 12
    table.edit("toggle", "guildhall.farmer", "red", seat=0)
    table.edit("toggle", "guildhall.farmer", "blue", seat=0)
    for value in (9, 7):
        table.edit("append", "vp_cards", value, seat=0)
    table.edit("set", "completed_chapters", 1, seat=0)
    for value in (5, 4):
        table.edit("append", "vp_cards", value, seat=1)
    for _ in range(3):
        table.edit("add", "vp_tokens", 1, seat=1)


def test_a_guildhall_table_from_options_to_a_saved_game(client: TestClient) -> None:
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    page = table.page(seat=0)
    # the grid of professions of the set in play x the five colours, and the set's VP values to tap
    assert page.count('class="cell"') == 6 * 5
    assert 'aria-label="VP cards bought: add 9"' in page and 'aria-label="VP cards bought: add 2"' in page
    play_guildhall(table)
    page = table.page(seat=1)
    assert totals(page) == {"Ana": "16", "Ben": "12"}
    assert "Game in progress" in page and "Save this game" not in page
    # Ana's 5 makes 21: the game is over, and she alone has 20 or more, so her turn ended it (ended_by optional):
    # nothing is marked missing at the field saying whose turn ended it
    update = table.edit("append", "vp_cards", 5, seat=0)
    slot = re.search(r'id="msg-ended_by"[^>]*>(.*?)</div>', update, re.S)
    assert slot is not None and slot.group(1).strip() == ""
    assert "Ana wins" in update and "Save this game" in update
    # naming Ben as the one who ended it is marked there
    update = table.edit("set", "ended_by", "Ben")
    slot = re.search(r'id="msg-ended_by"[^>]*>(.*?)</div>', update, re.S)
    assert slot is not None and "Ben has 12 VP" in slot.group(1) and "Save this game" not in update
    update = table.edit("set", "ended_by", "Ana")
    assert "Ana wins" in update and "Save this game" in update
    saved = client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN)
    assert saved.status_code == 303
    game_page = client.get(saved.headers["location"]).text
    assert "Send to BG Stats" in game_page and "132372" in game_page
    again = client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN)  # a double tap: the same game
    assert again.headers["location"] == saved.headers["location"]
    assert len(client.get("/api/games").json()) == 1
    # a saved table no longer changes
    assert "can no longer change" in table.edit("add", "vp_tokens", 1, seat=1)


def test_a_broken_rule_shows_at_its_field_and_blocks_the_save(client: TestClient) -> None:
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    for colour in ("red", "blue", "green", "yellow", "purple"):
        update = table.edit("toggle", "guildhall.farmer", colour, seat=0)
    # the message sits in the slot of Ana's guildhall, not only in a list at the bottom
    slot = re.search(r'id="msg-players_0__guildhall"[^>]*>(.*?)</div>', update, re.S)
    # in the players' words: the form's label, never the path of the format
    assert slot is not None and 'class="violation"' in slot.group(1) and "Farmer" in slot.group(1)
    assert "players[0]" not in slot.group(1)
    # the totals stay, provisional, with the message on Ana's card
    assert "1 thing to fix" in update and "totals below are provisional" in update
    board = update[update.index('id="scoreboard"'):]
    assert 'class="totals provisional"' in board and "holds all 5 colours" in board
    assert client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN).status_code == 409


def test_a_castle_table_with_walls_flags_guests_and_the_sun(client: TestClient) -> None:
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    page = table.page(seat=0)
    assert "Dagobert the Dog" in page  # guests from the catalog
    for _ in range(4):
        table.edit("add", "donjon_floors", 1, seat=0)
        table.edit("append", "towers", 5, seat=0)
    table.edit("append", "walls", seat=0)
    table.edit("append", "walls.0.flags", 2, seat=0)
    table.edit("toggle", "guests", "queen", seat=0)
    update = table.edit("set", "sun", "true", seat=0)
    # 20 towers + 4 Sun + 2 flag + 3 Queen + 0 residents (track: 0 points)
    assert totals(update)["Ana"].lstrip("≈") == "29"
    table.edit("toggle", "guests", "queen", seat=1)  # one Queen card: in two castles breaks a rule
    update = table.edit("set", "residents", 3, seat=1)
    assert "1 thing to fix" in update and "queen" in update.lower()
    table.edit("toggle", "guests", "queen", seat=1)
    assert "thing to fix" not in table.page(seat=1)


def test_an_apprentice_castle_names_each_guest_by_its_floor_in_the_totals(client: TestClient) -> None:
    """An Apprentice guest is a value written on the sheet, scored per floor (`guest:1`): the totals call it the
    guest of that floor, in the phone's language, never a bare "1 3"."""
    table = new_table(client, "once-upon-a-castle", ["Ana"], version="apprentice")
    for value in (3, 2):
        table.edit("add", "donjon_floors", 1, seat=0)
        update = table.edit("append", "guests", value, seat=0)
    breakdown = re.findall(r'<span class="part-points[^"]*">([^<]+)<', update)
    assert "Guest of floor 1 3" in breakdown and "Guest of floor 2 2" in breakdown
    french = client.get(f"/tables/{table.id}", headers={"Accept-Language": "fr"}).text
    assert "Invité de l’étage 1 3" in re.findall(r'<span class="part-points[^"]*">([^<]+)<', french)


def test_a_castle_table_is_saved_only_once_a_sheet_has_the_end_cloud(client: TestClient) -> None:
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    for _ in range(4):
        table.edit("add", "donjon_floors", 1, seat=0)
        table.edit("append", "towers", 5, seat=0)
        table.edit("append", "walls", seat=0)
    update = table.edit("toggle", "guests", "queen", seat=0)
    # scored, but the table holds every sheet and none has the end Cloud: the game is not over (said once, as the
    # game's state; not the file's warning that a sheet may be missing, and nobody wins yet)
    not_over = "the game ends when a player completes the twelfth part and draws the end Cloud, and no sheet has it yet"
    board = update[update.index('id="scoreboard"'):]
    assert f'<p class="status">Game in progress: {not_over}.</p>' in board and board.count("end Cloud") == 1
    assert "missing" not in update and "wins" not in board and 'class="winner' not in board
    assert "Save this game" not in update and "Save appears when the game is finished by the rules." in board
    refused = client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN)
    assert refused.status_code == 409 and f"this game cannot be saved yet: {not_over}." in refused.text
    update = table.edit("set", "cloud", "true", seat=0)
    assert "no sheet has it yet" not in update and "Ana wins." in update and "Save this game" in update
    asked = client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN)  # Ben entered nothing: the table confirms
    assert asked.status_code == 409 and "Ben entered nothing: save anyway?" in asked.text
    assert client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN, data={"confirm": "yes"}).status_code == 303


def test_a_guedelon_table_per_building_and_the_team(client: TestClient) -> None:
    table = new_table(client, "guedelon", ["Ana", "Ben", "Cleo"], events="easy")
    page = table.page()
    assert 'aria-label="Building B: B4"' in page and "Team: Ana, Ben, Cleo" in page
    # the Mill is not a floor tile: its own control says whether it was in play and built (not in play at first)
    assert 'aria-label="Building M' not in page and '<option value="not-built"' in page
    assert '<option value="false" selected>' in page
    update = table.edit("toggle", "built", "A1")
    assert "A1" in update and "floor 0" in update.lower() or "below" in update.lower()
    table.edit("toggle", "built", "A1")
    table.edit("set", "built", "all")
    update = table.edit("set", "rounds", 17)
    assert "the team wins" in update
    table.edit("set", "mill", "built")
    saved = client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN)
    game = client.get("/api/games").json()[0]
    assert saved.status_code == 303 and [p["name"] for p in game["players"]] == ["Ana", "Ben", "Cleo"]
    assert game["end_state"] == {"game": "guedelon", "events": "easy", "mill": "built", "players": 3, "rounds": 17,
                                 "built": "all"}
    assert (game["result"]["won"], game["result"]["mill"]) == (True, "built")


@pytest.mark.parametrize(("lang", "title", "undo"), [
    ("en", "The castle", "Undo the last change to the castle"),
    ("fr", "Le château", "Annuler le dernier changement du château"),
    ("de", "Die Burg", "Letzte Änderung an der Burg rückgängig machen")])
def test_a_guedelon_tables_undo_names_the_castle_its_form_is(client: TestClient, lang: str, title: str,
                                                                undo: str) -> None:
    """Guédelon's one form is headed "The castle", and its Undo said "Undo the last change to the end of the game",
    a form no Guédelon table has."""
    table = new_table(client, "guedelon", ["Ana", "Ben"], events="easy")
    table.edit("toggle", "built", "A0")
    page = html.unescape(client.get(f"/tables/{table.id}", headers={"Accept-Language": lang}).text)
    assert f'<h2 id="form-shared-title">{title}</h2>' in page
    found = re.search(r'<button type="button" class="undo"[^>]*>([^<]*)</button>', page)
    assert found is not None and found.group(1) == undo


@pytest.mark.parametrize(("lang", "won", "lost"), [("en", "(the team won)", "(the team lost)"),
                                                    ("fr", "(l’équipe a gagné)", "(l’équipe a perdu)"),
                                                    ("de", "(das Team hat gewonnen)", "(das Team hat verloren)")])
def test_a_guedelon_games_versions_say_whether_the_team_won(client: TestClient, lang: str, won: str,
                                                            lost: str) -> None:
    """A corrected Guédelon game listed its versions "saved from the companion's page (winner: team)": the
    result's one entry's name, in English on every phone, where the team won or lost."""
    table = new_table(client, "guedelon", ["Ana", "Ben"], events="easy")
    table.edit("set", "built", "all")
    table.edit("set", "rounds", 17)
    game = client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN).headers["location"]
    correcting = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    client.post(f"{correcting}/edit", headers=SAME_ORIGIN, data={"seat": "", "shown": "", "op": "set",
                                                                 "path": "built", "value": "none"})
    client.post(f"{correcting}/edit", headers=SAME_ORIGIN, data={"seat": "", "shown": "", "op": "set",
                                                                 "path": "rounds", "value": "18"})
    assert client.post(f"{correcting}/save", headers=SAME_ORIGIN).headers["location"] == game
    page = html.unescape(client.get(game, headers={"Accept-Language": lang}).text)
    versions = re.search(r'<ol class="versions">(.*?)</ol>', page, re.S)
    assert versions is not None
    lines = re.findall(r"<li>(.*?)</li>", versions.group(1))
    assert [line.endswith(said) for line, said in zip(lines, (won, lost))] == [True, True], lines
    assert "team" not in versions.group(1).replace(won, "").replace(lost, "")


def test_an_edit_naming_a_seat_the_table_has_not_is_answered_without_it(client: TestClient) -> None:
    """`shown` names the seat whose page sent the edit: a seat a table has not (a team game has none) is ignored,
    as the live answer ignores it, never a server error; so is a seat that is no number (a superscript two is a
    digit to `isdigit`, not to int())."""
    from generator.web.app import seat_number

    assert [seat_number(v) for v in ("0", "12", "999", "1000", "", "-1", " 1", "²", "٣", "1.0", None)] == \
        [0, 12, 999, None, None, None, None, None, None, None, None]
    table = new_table(client, "guedelon", ["Ana", "Ben"], events="easy")
    for shown in ("0", "7", "²", "1000"):
        answer = client.post(f"/tables/{table.id}/edit", headers=SAME_ORIGIN,
                             data={"seat": "", "shown": shown, "op": "set", "path": "rounds", "value": "17"})
        assert answer.status_code == 200 and 'role="alert"' not in answer.text, shown
        live = client.get(f"/tables/{table.id}/live", params={"seat": shown})
        assert live.status_code == 200, shown


@pytest.mark.parametrize(("op", "path", "value"), [
    ("set", "vp_tokens", "lots"), ("set", "no_such_field", "1"), ("set", "name", "Mallory"),
    ("append", "vp_cards", ""), ("remove", "vp_cards", "7"), ("explode", "vp_tokens", "1"),
    ("set", "vp_tokens", "9" * 30), ("set", "a.b.c.d.e.f.g", "1"),
    # a superscript two is a digit to `isdigit`, not to int(): a list index or a count, never a server error
    ("remove", "vp_cards", "²"), ("set", "vp_cards.²", "1"), ("set", "vp_cards.².x", "1"),
    # one value over a field that holds several: the list became the text "9", which the scorer then refused
    ("set", "vp_cards", "9"), ("add", "vp_cards", "9"), ("set", "guildhall", "red"), ("toggle", "guildhall", "red"),
])
def test_an_edit_the_format_cannot_take_is_refused_with_a_message(client: TestClient, op: str, path: str,
                                                                   value: str) -> None:
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    before = client.get(f"/tables/{table.id}/live").text
    update = table.edit(op, path, value, seat=0)
    assert 'role="alert"' in update
    assert client.get(f"/tables/{table.id}/live").text == before


@pytest.mark.parametrize(("code", "said"), [
    ("en", "2,000,000 is beyond the 1,000,000 donjon reads"),
    ("fr", "2\u202f000\u202f000 dépasse les 1\u202f000\u202f000 que donjon lit"),
    ("de", "2.000.000 liegt über den 1.000.000, die donjon liest")])
def test_a_number_too_big_is_refused_in_numbers_of_the_phones_language(client: TestClient, code: str,
                                                                       said: str) -> None:
    """The largest number a control takes, said as the phone's language writes numbers: a French phone read
    "dépasse les 1,000,000" (a comma is French's decimal point)."""
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    answer = client.post(f"/tables/{table.id}/edit", headers={**SAME_ORIGIN, "Accept-Language": code},
                         data={"seat": "0", "shown": "0", "op": "set", "path": "vp_tokens", "value": "2000000"})
    assert answer.status_code == 422, answer.text
    assert said in html.unescape(answer.text), answer.text


def test_live_answers_204_until_someone_changes_the_table(client: TestClient) -> None:
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    first = client.get(f"/tables/{table.id}/live?seat=1")
    version = re.search(r'data-version="(\d+)"', first.text)
    assert version is not None
    assert client.get(f"/tables/{table.id}/live?seat=1&v={version.group(1)}").status_code == 204
    table.edit("append", "vp_cards", 9, seat=0)  # Ana, on her phone
    changed = client.get(f"/tables/{table.id}/live?seat=1&v={version.group(1)}")
    assert changed.status_code == 200 and totals(changed.text)["Ana"] == "9"


def test_names_are_escaped_everywhere(client: TestClient) -> None:
    evil = "<script>alert(1)</script>"
    table = new_table(client, "guildhall", [evil, "B&b"], vp_set="old-world-economy", professions="")
    for page in (table.page(), table.page(seat=0), client.get("/").text):
        assert evil not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    new = client.post("/tables", headers=SAME_ORIGIN, data={"game": "guildhall", "vp_set": "old-world-economy",
                                                            "professions": "", "name": ["x" * 41, "B"]})
    assert new.status_code == 400 and "longer than 40" in new.text
    same = client.post("/tables", headers=SAME_ORIGIN, data={"game": "guildhall", "vp_set": "old-world-economy",
                                                             "professions": "", "name": ["Ana", "ana"]})
    assert same.status_code == 400 and "different name" in same.text
    few = client.post("/tables", headers=SAME_ORIGIN, data={"game": "guildhall", "vp_set": "old-world-economy",
                                                            "professions": "", "name": ["Ana"]})
    assert few.status_code == 400 and "2 to 4" in few.text


def test_a_filled_castle_sheet_fills_a_players_part(client: TestClient, tmp_path: Path) -> None:
    from tests.sheets.helpers import castle_values, filled

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    sheet = filled(tmp_path, "ana.pdf", castle_values("Ana", floors=2, towers=(5, 2), walls={1: (2,)},
                                                      guests=("queen",), residents=4))
    upload = client.post(f"/tables/{table.id}/seats/0/sheet", headers=SAME_ORIGIN,
                         files={"sheet": ("ana.pdf", sheet.read_bytes(), "application/pdf")}, follow_redirects=True)
    assert upload.status_code == 200, upload.text
    assert str(upload.url).endswith(f"/tables/{table.id}/seats/0")
    # 7 towers + 2 flag + 3 Queen + the resident track's points for 4
    assert 'value="2"' in upload.text and re.search(r'aria-pressed="true"[^>]*>Queen<', upload.text)
    assert int(totals(upload.text)["Ana"].lstrip("≈")) >= 12
    junk = client.post(f"/tables/{table.id}/seats/1/sheet", headers=SAME_ORIGIN,
                       files={"sheet": ("ben.pdf", b"%PDF-1.4 not really", "application/pdf")})
    assert junk.status_code == 400 and "ben.pdf" in junk.text and 'role="alert"' in junk.text
    apprentice = filled(tmp_path, "app.pdf", castle_values("Ben", floors=1, guests=(3,)), version="apprentice")
    wrong = client.post(f"/tables/{table.id}/seats/1/sheet", headers=SAME_ORIGIN,
                        files={"sheet": ("app.pdf", apprentice.read_bytes(), "application/pdf")})
    assert wrong.status_code == 400
    assert "this sheet is for the Apprentice version; this table plays Great Architect" in wrong.text


def test_history_pages_list_games_players_and_draw_charts(client: TestClient, games: Games, db: Database) -> None:
    from tests.web.conftest import example, post_json

    for day in ("2026-01-01", "2026-01-08", "2026-01-15"):
        post_json(client, "/api/games", {"end_state": example("guildhall"), "played_at": f"{day} 20:00:00"})
    post_json(client, "/api/games", {"end_state": example("once-upon-a-castle"), "played_at": "2026-01-20 20:00:00"})
    history = client.get("/history").text
    history = history[history.index("games-list"):]  # the list, after the search form (which names every game)
    assert history.index("Once Upon a Castle") < history.index("Guildhall")
    player = client.get("/history/players/Ana").text
    assert "4 games, 4 won (100 %)" in player
    assert player.count("<svg") >= 2 and "<polyline" in player
    assert client.get("/history/players/Nobody").status_code == 404
    assert "Ana" in client.get("/history/players").text


@pytest.mark.parametrize(("lang", "average"), [("en", "21.0"), ("fr", "21,0"), ("de", "21,0")])
def test_a_players_average_is_written_as_the_phones_language_writes_numbers(client: TestClient, lang: str,
                                                                              average: str) -> None:
    """The average score on a player's page was "21.0" on a French or German phone, which write "21,0"."""
    from tests.web.conftest import example, post_json

    state = example("guildhall")
    post_json(client, "/api/games", {"end_state": state, "played_at": "2026-01-01 20:00:00"})
    name = state["players"][0]["name"]
    page = client.get(f"/history/players/{name}", headers={"Accept-Language": lang}).text
    row = re.search(r'<tr><th scope="row">Guildhall</th>(.*?)</tr>', page)
    assert row is not None
    cells = re.findall(r'<td class="num">([^<]*)</td>', row.group(1))
    assert cells[-1] == average, cells


def test_the_whose_turn_question_is_answered_with_words_of_the_past_in_french(client: TestClient) -> None:
    """Two players at 20 or more: the French page asked "c’était le tour de qui ?" and answered "À Amélie de jouer
    (21)", which says it is Amélie's turn to play now. The answer speaks of the turn that ended the game."""
    table = new_table(client, "guildhall", ["Amélie", "Ben"], vp_set="old-world-economy", professions="")
    for value in (9, 7, 5):
        table.edit("append", "vp_cards", value, seat=0)
    for value in (9, 5):
        table.edit("append", "vp_cards", value, seat=1)
    table.edit("set", "vp_tokens", 6, seat=1)
    page = html.unescape(client.get(f"/tables/{table.id}", headers={"Accept-Language": "fr"}).text)
    assert "c’était le tour de qui" in page
    answers = re.findall(r"<button type=\"button\" data-edit='[^']*\"ended_by\"[^']*'>([^<]*)</button>", page)
    assert answers == ["C’était à Amélie (21)", "C’était à Ben (20)"], answers


@pytest.mark.parametrize("game", ["once-upon-a-castle", "guildhall"])
def test_an_empty_list_says_so_in_french_whatever_its_gender(client: TestClient, game: str) -> None:
    """"Tours : aucun pour l’instant": the words of a list with nothing tapped yet were masculine, and the lists are
    of towers (les tours), of VP cards (les cartes), both feminine; so was the list's name a screen reader says
    ("Tours : saisis"). Words that take no gender say them."""
    options = {"version": "great-architect"} if game == "once-upon-a-castle" else \
        {"vp_set": "old-world-economy", "professions": ""}
    table = new_table(client, game, ["Ana", "Ben"], **options)
    page = html.unescape(client.get(f"/tables/{table.id}/seats/0", headers={"Accept-Language": "fr"}).text)
    empty = re.findall(r'<span class="none">([^<]*)</span>', page)
    assert empty and set(empty) == {"rien pour l’instant"}, empty
    # a screen reader names each list "Cartes PV achetées : saisis", masculine too: it says what the list holds
    named = re.findall(r'<div class="chips" aria-label="[^"]*\u00a0: ([^"]*)">', page)
    assert named and set(named) == {"valeurs saisies"}, named


@pytest.mark.parametrize("n", [1, 3])
def test_the_words_on_changes_kept_on_a_french_phone_agree_with_their_number(client: TestClient, n: int) -> None:
    """"3 changements ne sont pas encore enregistrés : gardé sur ce téléphone": the words at the bottom of a phone
    holding taps without Wi-Fi (app.js fills `data-kept` with `data-unsaved-one` or `-many`) put a singular after
    a plural. Filled as the page's script fills them, they agree for one change and for several."""
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    page = html.unescape(client.get(f"/tables/{table.id}", headers={"Accept-Language": "fr"}).text)
    words = dict(re.findall(r'data-(unsaved-one|unsaved-many|kept)="([^"]*)"', page))
    unsaved = words["unsaved-one"] if n == 1 else words["unsaved-many"].replace("{n}", str(n))
    said = words["kept"].replace("{unsaved}", unsaved)
    assert said == {1: "1 changement n’est pas encore enregistré\u00a0: ce téléphone garde chaque changement et "
                       "l’envoie dès que possible.",
                    3: "3 changements ne sont pas encore enregistrés\u00a0: ce téléphone garde chaque changement et "
                       "l’envoie dès que possible."}[n]


def test_options_come_from_the_format_and_the_catalog(client: TestClient) -> None:
    page = client.get("/new/guildhall").text
    for text in ("Old World Economy", "Job Faire", "all twelve (the combined game)", "those of the VP cards"):
        assert text in page
    twelve = re.search(r'<option value="(\[[^"]+\])">all twelve', page)
    assert twelve is not None
    from html import unescape

    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="job-faire", professions=unescape(twelve.group(1)))
    assert table.page(seat=0).count('class="cell"') == 12 * 5
    assert "thing to fix" not in table.page(seat=0)
    assert "Apprentice" in client.get("/new/once-upon-a-castle").text
    guedelon = client.get("/new/guedelon").text
    assert "Intermediate" in guedelon and 'name="mill"' not in guedelon  # the Mill is chosen at the table
    assert client.get("/new/chess").status_code == 404


def test_a_rules_message_at_its_field_is_set_as_french_writes_it(client: TestClient) -> None:
    """In French a colon has a space before it, between the field's name and the rule's words too (it read
    "Soleil (premier à 4 tours): est dessiné ...")."""
    table = new_table(client, "once-upon-a-castle", ["Ana"], version="apprentice")
    table.edit("set", "sun", "true", seat=0)
    french = client.get(f"/tables/{table.id}/seats/0", headers={"Accept-Language": "fr"}).text
    said = re.findall(r"Soleil \(premier à 4 tours\)</strong>(\s?:) est dessiné", french)
    assert said and all(colon in (" :", "\u00a0:") for colon in said), said
    english = client.get(f"/tables/{table.id}/seats/0", headers={"Accept-Language": "en"}).text
    assert "Sun (first to 4 towers)</strong>: is drawn with 0 towers" in english


def test_the_completed_chapters_control_takes_what_its_help_says(client: TestClient) -> None:
    """Rule 5: a player holds 0 to 3 completed chapters (a fourth is discarded at once); the control stops at 3,
    as its help says, and the help says why."""
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    for _ in range(3):
        table.edit("add", "completed_chapters", 1, seat=0)
    page = table.page(seat=0)
    control = page[page.index('id="ctl-msg-players_0__completed_chapters"'):]
    control = control[:control.index('<div class="control', 1)]
    assert 'max="3"' in control and re.search(r'aria-label="[^"]*: one more"\s+disabled', control), control
    assert "0 to 3, as completing a fourth makes you discard down to 3 at once" in control


def test_guest_names_donjon_translated_are_marked_at_the_table_as_on_the_sheets(client: TestClient) -> None:
    """The honest-data rule: a French table's guests are donjon's own translations (no French edition is a source
    of theirs), so each is marked † with the note the sheets print, in the pick list and in the result; English
    names, the publisher's, carry no mark and no note."""
    table = new_table(client, "once-upon-a-castle", ["Ana"], version="great-architect")
    table.edit("toggle", "guests", "queen", seat=0)
    french = html.unescape(client.get(f"/tables/{table.id}/seats/0", headers={"Accept-Language": "fr"}).text)
    assert "Reine†" in french and "Bouffon†" in french
    assert "† Noms traduits par donjon, non officiels." in french, french[:2000]
    assert "Reine<" not in french  # never the translation alone, as if printed by the publisher
    english = html.unescape(client.get(f"/tables/{table.id}/seats/0", headers={"Accept-Language": "en"}).text)
    assert "Queen" in english and "†" not in english


@pytest.mark.parametrize(("code", "one", "two"), [
    ("fr", "Ben n’a ", "Ben et Cleo n’ont "), ("de", "Ben hat ", "Ben und Cleo haben ")])
def test_who_entered_nothing_is_said_with_the_verb_their_number_takes(client: TestClient, code: str, one: str,
                                                                       two: str) -> None:
    """Before a save, a French or German phone read "Ben n’ont rien saisi", "Ben haben nichts eingetragen": the
    sentence had one form, the plural, for one player or several. One player takes the singular, on the table's note
    and on the question asked before saving."""
    language = {**SAME_ORIGIN, "Accept-Language": code}
    for names, said in ((["Ana", "Ben"], one), (["Ana", "Ben", "Cleo"], two)):
        table = new_table(client, "guildhall", names, vp_set="old-world-economy", professions="")
        for value in ("9", "7", "5"):
            table.edit("append", "vp_cards", value, seat=0)
        page = client.get(f"/tables/{table.id}", headers=language).text
        asked = client.post(f"/tables/{table.id}/save", headers=language)
        assert asked.status_code == 409
        for text in (page, asked.text):
            assert said in html.unescape(text).replace("\u00a0", " ").replace("\u202f", " "), (names, said)


@pytest.mark.parametrize(("lang", "said"), [("en", "99,999,999,999,999,999,999,999"),
                                            ("fr", "99\u202f999\u202f999\u202f999\u202f999\u202f999\u202f999\u202f999"),
                                            ("de", "99.999.999.999.999.999.999.999")])
def test_a_huge_number_typed_is_said_back_with_every_digit(client: TestClient, lang: str, said: str) -> None:
    """23 nines typed in a count were refused, but the message said them through a float:
    "99 999 999 999 999 991 611 392 dépasse…", a number nobody typed. Now every digit typed is said back, written
    as the phone's language writes numbers; the table keeps nothing."""
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    for op, path in (("set", "completed_chapters"), ("add", "vp_tokens")):
        answer = client.post(f"/tables/{table.id}/edit", headers={**SAME_ORIGIN, "Accept-Language": lang},
                             data={"seat": "0", "shown": "0", "op": op, "path": path, "value": "9" * 23})
        assert answer.status_code == 422
        assert said in html.unescape(answer.text) and "1611392" not in re.sub(r"\D", "", answer.text)
    assert totals(table.page()) == {"Ana": "0", "Ben": "0"}


def test_a_history_page_past_the_last_says_so_and_leads_to_the_last(client: TestClient) -> None:
    """`/history?page=99` with one page of games said "No saved game matches this search" under "Page 99 of 1"
    (200), as if the games were gone. Now it is a 404 in words naming the last page, with a link to it (the
    search kept), as the player's page answers."""
    for _ in range(2):
        table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
        for value in (9, 7, 5):
            table.edit("append", "vp_cards", value, seat=0)
        table.edit("set", "ended_by", "Ana")
        assert client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN, data={"confirm": "yes"}).status_code == 303
    for query, last in (("page=99", "/history"), ("name=ana&page=3", "/history?name=ana")):
        answer = client.get(f"/history?{query}")
        page = html.unescape(answer.text)
        assert answer.status_code == 404, query
        assert "There is no page" in page and "the last is page 1" in page
        assert "No saved game matches" not in page and "Page 99 of 1" not in page
        assert f'href="{html.escape(last)}"' in answer.text
    assert client.get("/history?page=1").status_code == 200
