"""What a table trusts, in process: no tap lost or counted twice, mistakes undone and corrected, players as
people, the share, and the hostile requests of issue 20 (ids, surrogates, methods, dates, keys, uploads)."""

from __future__ import annotations

import html
import io
import json
import os
import re
import sqlite3
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from generator.cli import app as cli
from generator.web.db import Database
from tests.web.conftest import SAME_ORIGIN, example, new_table, post_json


def finished_guildhall(client: TestClient, names: list[str]) -> int:
    """A Guildhall table with the first player at 21 and whose turn ended it: its id."""
    table = new_table(client, "guildhall", names, vp_set="old-world-economy", professions="")
    for value in (9, 7, 5):
        table.edit("append", "vp_cards", value, seat=0)
    import re

    first = re.search(r'/seats/0" aria-label="([^:]+):', table.page())  # the name the table kept for the seat
    assert first is not None
    table.edit("set", "ended_by", first.group(1))
    for seat in range(1, len(names)):
        table.edit("add", "vp_tokens", 1, seat=seat)
    return table.id


def test_an_edit_sent_again_with_its_key_counts_once(client: TestClient) -> None:
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    for _ in range(3):  # the answer was lost twice: the phone sends the same edit, with the same key
        table.edit("add", "vp_tokens", 1, seat=0, key="k-1")
    table.edit("add", "vp_tokens", 1, seat=0, key="k-2")
    assert client.get(f"/api/score").status_code == 405
    state = client.get(f"/tables/{table.id}/live?seat=0").text
    assert '<td class="num">2</td>' in state  # two taps, each counted once


def test_two_phones_setting_one_tile_agree(client: TestClient) -> None:
    table = new_table(client, "guedelon", ["Ana", "Ben"], events="easy")
    # both phones showed the tile not built and tapped it at once: both ask for it built
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda k: table.edit("toggle", "built", "A0", key=k, on=True), ["a", "b"]))
    page = table.page()
    assert 'aria-label="Building A: A0"' in page
    assert page.count('aria-pressed="true" data-edit=\'{"op": "toggle", "path": "built", "seat": "", "shown": "", '
                      '"value": "A0"}\'') == 1


def card(board: str, name: str) -> str:
    """A player's card of the running totals: their row and the breakdown row after it, with its messages."""
    start = board.index(f'<th scope="row">{name}</th>')
    return board[start:board.index("</td></tr>", start)]


def test_the_end_of_a_guildhall_game_is_asked_only_where_the_scorer_cannot_tell(client: TestClient) -> None:
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    for value in (9, 7, 5):
        update = table.edit("append", "vp_cards", value, seat=0)
    # the normal end of the game: Ana alone has 20 or more, so her turn ended it (ended_by optional): nothing is
    # asked, nothing is missing, the game can be saved
    assert "Ana wins." in update and "whose turn" not in update.lower() and "missing" not in update
    assert 'class="violation"' not in update and '<td class="num">21</td>' in update and "Save this game" in update
    # Ben reaches 20 as well (with a card too many): rules are broken, the totals stay (provisional) and each
    # message is on Ben's card; who ended the game is asked, since the scorer cannot tell
    for value in (9, 9, 2):
        update = table.edit("append", "vp_cards", value, seat=1)
    board = update[update.index('id="scoreboard"'):]
    assert "totals below are provisional" in board and 'class="totals provisional"' in board
    assert "Ben has 20 VP" in card(board, "Ben") and "players[1]" not in update
    assert "2 players have 20 or more, but only the one whose turn ended the game can: whose turn was it?" in board
    assert "Ana's turn (21)</button>" in board and "Ben's turn (20)</button>" in board
    # it was Ben's turn: the broken end is now Ana's, and the question is answered
    board = table.edit("set", "ended_by", "Ben")
    assert "Ana has 21 VP" in card(board, "Ana") and "Ben has 20 VP" not in board
    assert "whose turn was it?" not in board
    assert client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN).status_code == 409


def test_undo_takes_back_the_last_edit_of_a_part_once(client: TestClient) -> None:
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    table.edit("append", "vp_cards", 9, seat=0)
    table.edit("append", "vp_cards", 7, seat=0)
    page = table.page(seat=0)
    assert "Undo the last change to Ana's part" in page
    for _ in range(2):
        table.edit("undo", "", seat=0, key="undo-1")  # a retried undo takes back nothing more
    assert "VP cards bought: take away 9" in table.page(seat=0)
    assert "VP cards bought: take away 7" not in table.page(seat=0)


def test_a_part_nobody_touched_is_saved_only_when_confirmed(client: TestClient) -> None:
    table_id = finished_guildhall(client, ["Ana", "Ben", "Dan"])
    client.post(f"/tables/{table_id}/edit", headers=SAME_ORIGIN,
                data={"seat": "2", "op": "undo", "path": "", "shown": "2"})  # Dan's one tap taken back
    asked = client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN)
    assert asked.status_code == 409 and "Dan entered nothing: save anyway?" in asked.text
    assert client.get("/api/games").json() == []
    saved = client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN, data={"confirm": "yes"})
    assert saved.status_code == 303


def test_an_unfinished_save_leads_back_to_the_table(client: TestClient) -> None:
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    answer = client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN)
    assert answer.status_code == 409 and f'href="/tables/{table.id}"' in answer.text


def test_a_saved_game_corrected_then_deleted_keeps_its_versions(client: TestClient) -> None:
    saved = post_json(client, "/api/games", example("guildhall")).json()
    corrected = example("guildhall")
    corrected["players"][1]["vp_tokens"] += 1
    patched = client.patch(f"/api/games/{saved['id']}", content=json.dumps({"end_state": corrected}),
                           headers={"content-type": "application/json"})
    assert patched.status_code == 200
    assert [v["action"] for v in patched.json()["versions"]] == ["save", "edit"]
    assert patched.json()["players"][1]["score"] == saved["players"][1]["score"] + 1
    broken = example("guildhall")
    broken["players"][0]["vp_tokens"] = "lots"
    assert client.patch(f"/api/games/{saved['id']}", content=json.dumps(broken),
                        headers={"content-type": "application/json"}).status_code == 422
    assert client.delete(f"/api/games/{saved['id']}", headers={"content-type": "application/json"}).status_code == 204
    assert client.get(f"/api/games/{saved['id']}").status_code == 404
    assert client.get("/api/players").json() == []


def test_a_game_corrected_at_a_table_is_a_new_version(client: TestClient) -> None:
    table_id = finished_guildhall(client, ["Ana", "Ben"])
    game = client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN).headers["location"]
    reopened = client.post(f"{game}/correct", headers=SAME_ORIGIN)
    assert reopened.status_code == 303
    again = int(reopened.headers["location"].rsplit("/", 1)[1])
    assert "This table corrects" in client.get(f"/tables/{again}").text
    client.post(f"/tables/{again}/edit", headers=SAME_ORIGIN,
                data={"seat": "1", "shown": "1", "op": "add", "path": "vp_tokens", "value": "4"})
    assert client.post(f"/tables/{again}/save", headers=SAME_ORIGIN).headers["location"] == game
    found = client.get("/api/games/" + game.rsplit("/", 1)[1]).json()
    assert [v["action"] for v in found["versions"]] == ["save", "edit"] and found["players"][1]["score"] == 5
    page = client.get(game).text
    assert "corrected from the companion&#39;s page" in page
    unconfirmed = client.post(f"{game}/delete", headers=SAME_ORIGIN)
    assert unconfirmed.status_code == 400 and "tick the box" in unconfirmed.text
    assert client.post(f"{game}/delete", headers=SAME_ORIGIN, data={"confirm": "yes"}).status_code == 303
    assert client.get(game).status_code == 404


def test_two_phones_correcting_one_game_correct_it_together(client: TestClient) -> None:
    """Two phones tapped "Correct this game" on one saved game: each got a table of its own, and the second saved
    wrote its table over the first's correction (Ana's token corrected on one phone was gone from the game, with
    nothing said). Both now open the one table correcting it, each sees the other's change, and the game keeps
    both."""
    table_id = finished_guildhall(client, ["Ana", "Ben"])
    game = client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN).headers["location"]
    first, second = (client.post(f"{game}/correct", headers=SAME_ORIGIN) for _ in range(2))
    assert first.status_code == second.status_code == 303
    assert first.headers["location"] == second.headers["location"]
    for location, seat in ((first.headers["location"], "0"), (second.headers["location"], "1")):
        client.post(f"{location}/edit", headers=SAME_ORIGIN,
                    data={"seat": seat, "shown": seat, "op": "add", "path": "vp_tokens", "value": "1"})
    for location in (first.headers["location"], second.headers["location"]):
        assert client.post(f"{location}/save", headers=SAME_ORIGIN).headers["location"] == game
    found = client.get("/api/games/" + game.rsplit("/", 1)[1]).json()
    assert [p["score"] for p in found["players"]] == [22, 2]
    assert [v["action"] for v in found["versions"]] == ["save", "edit"]
    # once that correction is saved, "Correct this game" opens a new table, from the game as it now stands
    third = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    assert third != first.headers["location"] and "22" in client.get(third).text


def test_a_phone_on_a_saved_table_is_led_to_the_table_correcting_it(client: TestClient) -> None:
    """A phone still on a table another phone saved: its tap refused ("this game is saved"), its page said only
    "Saved: see the game", and the table correcting it that a third phone had opened from the history was two pages
    away. The saved table's page, and the answer to the refused tap, hold "Correct this game", which leads to that
    table (the one every phone that taps it corrects at), or opens it."""
    table_id = finished_guildhall(client, ["Ana", "Ben"])
    game = client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN).headers["location"]
    opened = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]  # from the history
    form = f'<form method="post" action="{game}/correct"'
    assert form in client.get(f"/tables/{table_id}").text and form in client.get(f"/tables/{table_id}/seats/1").text
    refused = client.post(f"/tables/{table_id}/edit", headers=SAME_ORIGIN,
                          data={"seat": "1", "shown": "1", "op": "add", "path": "vp_tokens", "value": "1"})
    assert refused.status_code == 422 and form in refused.text
    led = client.post(f"{game}/correct", headers=SAME_ORIGIN)
    assert led.status_code == 303 and led.headers["location"] == opened


def test_a_correction_saved_over_a_game_changed_since_is_refused_in_words(client: TestClient) -> None:
    """A table opened to correct a game, then the game changed elsewhere (a player renamed on the players page,
    `donjon history edit`, the API) and the table saved: the game took the table's state and lost that change,
    nothing said. Now the save is refused (409), saying why, the game keeps the change, and "Correct this game"
    opens a new table from the game as it stands. A game deleted meanwhile is said too, not a server error."""
    table_id = finished_guildhall(client, ["Ana", "Ben"])
    game = client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN).headers["location"]
    stale = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    client.post(f"{stale}/edit", headers=SAME_ORIGIN,
                data={"seat": "1", "shown": "1", "op": "add", "path": "vp_tokens", "value": "1"})
    assert client.post("/history/players/rename", headers=SAME_ORIGIN,
                       data={"old": "Ben", "new": "Benjamin"}).status_code == 303
    refused = client.post(f"{stale}/save", headers=SAME_ORIGIN)
    assert refused.status_code == 409 and "changed since" in refused.text and f'href="{game}"' in refused.text
    found = client.get("/api/games/" + game.rsplit("/", 1)[1]).json()
    assert [p["name"] for p in found["players"]] == ["Ana", "Benjamin"]
    assert [v["action"] for v in found["versions"]] == ["save", "rename"]
    fresh = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    assert fresh != stale and "Benjamin" in client.get(fresh).text
    assert client.post(f"{game}/delete", headers=SAME_ORIGIN, data={"confirm": "yes"}).status_code == 303
    gone = client.post(f"{fresh}/save", headers=SAME_ORIGIN)
    assert gone.status_code == 409 and "deleted" in gone.text


def test_two_phones_saving_one_correction_at_once_save_it_once(client: TestClient, db: Database) -> None:
    """Two phones at one correction table tap Save at once: both were let through before either was written. The
    second write finds the table saved and gives the game as the first saved it: one version, no "changed since"
    for the table's own save."""
    from generator.web import store

    table_id = finished_guildhall(client, ["Ana", "Ben"])
    game = client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN).headers["location"]
    game_id = int(game.rsplit("/", 1)[1])
    correcting = int(client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"].rsplit("/", 1)[1])
    table = db.read(lambda c: store.load_table(c, correcting))
    saved = client.get(f"/api/games/{game_id}").json()
    corrected = {**saved["end_state"], "players": [{**p, "vp_tokens": p["vp_tokens"] + 1}
                                                   for p in saved["end_state"]["players"]]}
    for _ in range(2):  # what each phone's save writes, one after the other in the writer thread
        db.write(lambda c: store.update_game(c, game_id, corrected, saved["result"], team=table.team,
                                             table_id=correcting, since=table.corrects_version))
    assert [v["action"] for v in client.get(f"/api/games/{game_id}").json()["versions"]] == ["save", "edit"]


@pytest.mark.parametrize("name", ["", "W" * 41, "Cleo"])
def test_renaming_a_seat_the_table_has_not_is_a_404(client: TestClient, name: str) -> None:
    """A name sent for a seat the table has not (a Guédelon table has none; seat 9 of two) was a server error
    (500, the seat's page drawn for no seat) when the name was refused: it is a 404 in words, whatever the name."""
    for table in (new_table(client, "guedelon", ["Ana", "Ben"], events="easy"),
                  new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")):
        answer = client.post(f"/tables/{table.id}/seats/9/name", headers=SAME_ORIGIN, data={"name": name})
        assert answer.status_code == 404 and "there is no seat 9 at this table" in answer.text


def test_a_seat_name_refused_keeps_what_was_typed_unless_another_phone_corrected_it(client: TestClient) -> None:
    """A seat's name refused (another seat's name, a character no one sees) drew the field with the old name again:
    what was typed was gone. It shows what was typed; after another phone's correction, the name that phone wrote
    (the message names both), so that Keep sends the correction on purpose, not over it."""
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")

    def field(page: str) -> str:
        found = re.search(r'<input id="seat-name" type="text" name="name" value="([^"]*)"', page)
        assert found, "no name field"
        return html.unescape(found.group(1))

    url = f"/tables/{table.id}/seats/1/name"
    for typed in ("ana ", "Be\u200cn\u0007"):
        refused = client.post(url, headers=SAME_ORIGIN, data={"name": typed, "was": "Ben"})
        assert refused.status_code == 400 and field(refused.text) == typed
    assert client.post(url, headers=SAME_ORIGIN, data={"name": "Benoît", "was": "Ben"}).status_code == 303
    late = client.post(url, headers=SAME_ORIGIN, data={"name": "Benjamin", "was": "Ben"})
    assert late.status_code == 400 and "Benjamin" in late.text and field(late.text) == "Benoît"


def test_a_sheet_sent_for_a_seat_the_table_has_not_is_a_404(client: TestClient) -> None:
    """A sheet or a photo sent for a seat the table has not (seat 9 of two; any seat of a Guédelon table, which has
    none) was a server error (500, the seat's page drawn for no seat; the connection reset for another photo):
    a 404 in words, before anything is read."""
    castle = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    guedelon = new_table(client, "guedelon", ["Ana", "Ben"], events="easy")
    for url in (f"/tables/{castle.id}/seats/9/sheet", f"/tables/{castle.id}/seats/9/photo",
                f"/tables/{guedelon.id}/seats/0/sheet", f"/tables/{guedelon.id}/seats/0/photo"):
        for files in ({}, {"sheet": ("ana.jpg", b"\xff\xd8 not read", "image/jpeg")}):
            answer = client.post(url, headers=SAME_ORIGIN, files=files, data={"x": "1"})
            assert answer.status_code == 404 and "there is no seat" in answer.text, (url, answer.status_code)


def test_players_are_people_renamed_and_merged(client: TestClient) -> None:
    for names in (["Ana", "Ben"], ["ána ", "Cleo"], ["ANA", "Benoît"]):
        table_id = finished_guildhall(client, names)
        client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN)
    found = {p["name"]: p["games"] for p in client.get("/api/players").json()}
    assert found == {"Ana": 3, "Ben": 1, "Cleo": 1, "Benoît": 1}  # "ána " and "ANA" are Ana, as the form kept her
    form = client.get("/new/guildhall").text
    assert '<option value="Ana">' in form and 'list="known-players"' in form
    key = re.search(r'name="key" value="([^"]+)"', client.get("/history/players").text)
    assert key, "the rename form carries no key"
    for _ in range(2):  # sent twice (a double tap, a resend after a lost answer): done once, answered as the first
        renamed = client.post("/history/players/rename", headers=SAME_ORIGIN,
                              data={"old": "ana", "new": "Anna", "key": key.group(1)})
        assert (renamed.status_code, renamed.headers["location"]) == (303, "/history/player?name=Anna"), renamed.text
    taken = client.post("/history/players/rename", headers=SAME_ORIGIN, data={"old": "Ben", "new": "Cleo"})
    assert taken.status_code == 409 and "merge" in taken.text
    merged = client.post("/history/players/merge", headers=SAME_ORIGIN, data={"old": "Benoît", "into": "Ben",
                                                                             "new": "Ben"})
    assert merged.status_code == 303
    found = {p["name"]: p["games"] for p in client.get("/api/players").json()}
    assert found == {"Anna": 3, "Ben": 2, "Cleo": 1}
    games = client.get("/api/games").json()
    assert all(g["end_state"]["ended_by"] == "Anna" for g in games)
    assert [v["action"] for v in client.get(f"/api/games/{games[0]['id']}").json()["versions"]] == \
        ["save", "rename", "merge"]


def test_a_tap_for_a_table_made_at_another_time_is_refused(client: TestClient, db: Database) -> None:
    """A page's tap says when its table was made (`made`, from the page): a tap kept on a phone since another
    database's table of the same number is refused, 409 in words, and changes nothing; a tap without it (an older
    page, a script) is taken as before."""
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    made = re.search(r'data-made="([^"]+)"', table.page(0))
    assert made, "the page does not say when its table was made"
    tap = {"seat": "0", "shown": "0", "op": "add", "path": "vp_tokens", "value": "1"}
    other = client.post(f"/tables/{table.id}/edit", headers=SAME_ORIGIN, data={**tap, "made": "2020-01-01 20:00:00"})
    assert other.status_code == 409 and "another database the companion served before" in other.text
    reads: list[object] = []
    taken = db.aread

    async def counted(func: Any) -> Any:
        reads.append(func)
        return await taken(func)

    db.aread = counted  # type: ignore[method-assign]
    try:
        for sent in ({**tap, "made": made.group(1)}, tap):
            assert client.post(f"/tables/{table.id}/edit", headers=SAME_ORIGIN, data=sent).status_code == 200
        # the table's moment is checked in the tap's own write: a tap taken reads nothing on its own before it
        assert reads == [], f"{len(reads)} reads of their own beside the taps' writes"
        undo = client.post(f"/tables/{table.id}/edit", headers=SAME_ORIGIN,
                           data={"seat": "0", "shown": "0", "op": "undo", "made": "2020-01-01 20:00:00"})
        assert undo.status_code == 409 and "another database the companion served before" in undo.text
    finally:
        db.aread = taken  # type: ignore[method-assign]
    part = db.read(lambda c: c.execute("SELECT data FROM table_parts WHERE table_id = ? AND seat = 0",
                                       (table.id,)).fetchone()[0])
    assert json.loads(part)["vp_tokens"] == 2


def test_a_rename_sent_again_after_another_rename_is_answered_as_the_first(client: TestClient) -> None:
    """Two phones on the players page: one renames Ana, its answer is lost on the way; the other renames Ben; the
    first phone sends its rename again (a reload, a resend after the Wi-Fi came back). It was answered 409, "no saved
    game has a player of that name", as if the rename had failed: only the last rename's form was remembered. Every
    rename or merge done is remembered, so the resend is answered as the first was; the same names typed on a page
    drawn later are a new rename, and are said to find no such player."""
    for names in (["Ana", "Ben"], ["Ana", "Cleo"]):
        client.post(f"/tables/{finished_guildhall(client, names)}/save", headers=SAME_ORIGIN)

    def key() -> str:
        found = re.search(r'name="key" value="([^"]+)"', client.get("/history/players").text)
        assert found, "the rename form carries no key"
        return found.group(1)

    first = {"old": "Ana", "new": "Anna", "key": key()}
    assert client.post("/history/players/rename", headers=SAME_ORIGIN, data=first).status_code == 303
    other = client.post("/history/players/rename", headers=SAME_ORIGIN, data={"old": "Ben", "new": "Benoît",
                                                                             "key": key()})
    assert other.status_code == 303
    merged = client.post("/history/players/merge", headers=SAME_ORIGIN, data={"old": "Cleo", "new": "Benoît",
                                                                             "key": key()})
    assert merged.status_code == 303
    again = client.post("/history/players/rename", headers=SAME_ORIGIN, data=first)
    assert (again.status_code, again.headers.get("location")) == (303, "/history/player?name=Anna"), again.text
    assert {p["name"]: p["games"] for p in client.get("/api/players").json()} == {"Anna": 2, "Benoît": 2}
    versions = client.get("/api/games").json()[-1]["id"]
    assert [v["action"] for v in client.get(f"/api/games/{versions}").json()["versions"]] == \
        ["save", "rename", "rename"]  # Ana's rename done once
    later = client.post("/history/players/rename", headers=SAME_ORIGIN, data={**first, "key": key()})
    assert later.status_code == 409


def test_a_rename_refused_keeps_what_was_typed_and_fills_the_merge_it_offers(client: TestClient) -> None:
    """A rename refused (the new name is another player's, or too long) drew both forms empty: the two names were
    typed again on a phone, and the merge its message asks for was typed from nothing. The form sent shows what
    was typed; a rename into another player's name fills the merge form with the two names."""
    client.post(f"/tables/{finished_guildhall(client, ['Ana', 'Ben'])}/save", headers=SAME_ORIGIN)

    def fields(page: str) -> dict[str, str]:
        return dict(re.findall(r'<input id="((?:rename|merge)-(?:old|new))" name="\w+" value="([^"]*)"', page))

    taken = client.post("/history/players/rename", headers=SAME_ORIGIN, data={"old": "Ben", "new": "Ana"})
    assert taken.status_code == 409 and "merge" in taken.text
    assert fields(taken.text) == {"rename-old": "Ben", "rename-new": "Ana", "merge-old": "Ben", "merge-new": "Ana"}
    long = "B" * 41
    too_long = client.post("/history/players/merge", headers=SAME_ORIGIN, data={"old": "Ben", "new": long})
    assert too_long.status_code == 400
    assert fields(too_long.text) == {"rename-old": "", "rename-new": "", "merge-old": "Ben", "merge-new": long}
    assert fields(client.get("/history/players").text) == dict.fromkeys(fields(taken.text), "")


@pytest.mark.parametrize("name", ["a/b", "..", ".", "x?y=1&z", "Zoë"])
def test_every_name_has_a_player_page(client: TestClient, name: str) -> None:
    from generator.web.app import player_url

    post_json(client, "/api/games", {"end_state": example("guedelon"), "team": [name, "Ben"]})
    page = client.get(player_url(name))
    assert page.status_code == 200 and "1 game" in page.text


def test_the_new_game_form_keeps_what_was_typed(client: TestClient) -> None:
    refused = client.post("/tables", headers=SAME_ORIGIN, data={"game": "guedelon", "name": ["Ana", "ana "],
                                                                 "events": "difficult"})
    assert refused.status_code == 400 and "entered twice" in refused.text
    assert 'value="Ana"' in refused.text and 'value="ana "' in refused.text
    assert 'value="difficult" selected' in refused.text


def test_the_result_as_a_picture_and_a_page_to_print(client: TestClient) -> None:
    from PIL import Image

    game = post_json(client, "/api/games", example("guildhall")).json()
    one = client.get(f"/history/games/{game['id']}/result.png")
    assert one.status_code == 200 and one.headers["content-type"] == "image/png"
    assert client.get(f"/history/games/{game['id']}/result.png").content == one.content  # the same bytes
    picture = Image.open(io.BytesIO(one.content))
    assert picture.width == 1080 and picture.height > 400
    printed = client.get(f"/history/games/{game['id']}/print").text
    assert "Print this page" in printed and "VP cards bought" in printed


def test_an_app_on_the_home_screen_and_headers_on_every_answer(client: TestClient) -> None:
    from PIL import Image

    manifest = client.get("/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    for icon in manifest.json()["icons"]:
        picture = Image.open(io.BytesIO(client.get(icon["src"]).content))
        assert f"{picture.width}x{picture.height}" == icon["sizes"]
    assert Image.open(io.BytesIO(client.get("/favicon.ico").content)).format == "ICO"
    for url in ("/", "/history", "/api/games", "/static/app.css", "/nowhere"):
        headers = client.get(url).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"


def test_hostile_requests_get_clear_statuses(client: TestClient) -> None:
    json_type = {"content-type": "application/json"}
    assert client.get("/api/games/99999999999999999999").status_code == 404
    assert client.get("/history/games/99999999999999999999").status_code == 404
    assert client.delete("/api/games/99999999999999999999", headers=json_type).status_code == 404
    lone = '{"game": "guildhall", "players": [{"name": "\\ud800"}]}'
    assert client.post("/api/score", content=lone, headers=json_type).status_code == 400
    assert client.put("/api/games", content="{}", headers=json_type).status_code == 405
    assert client.delete("/api/games", headers=json_type).status_code == 405
    assert client.put("/api/games/1", content="{}", headers=json_type).status_code == 405
    saved = post_json(client, "/api/games", {"end_state": example("guildhall"), "played_at": "2026-03-01T20:15"})
    assert saved.json()["played_at"] == "2026-03-01 20:15:00"
    assert post_json(client, "/api/games", {"end_state": example("guildhall"),
                                            "played_at": "2026-02-30"}).status_code == 400
    long_name = example("guedelon")
    assert post_json(client, "/api/games", {"end_state": long_name, "team": ["x" * 41]}).status_code == 400
    first = post_json(client, "/api/games", example("guildhall"), **{"Idempotency-Key": "evening-game-1"})
    other = example("guildhall")
    other["players"][1]["vp_tokens"] += 1
    reused = post_json(client, "/api/games", other, **{"Idempotency-Key": "evening-game-1"})
    assert first.status_code == 201 and reused.status_code == 409 and "another game" in reused.json()["error"]
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    bad_path = client.post(f"/tables/{table.id}/edit", headers=SAME_ORIGIN,
                           data={"seat": "0", "shown": "0", "op": "set", "path": "vp_tokens..x", "value": "1"})
    assert bad_path.status_code == 400


@pytest.mark.parametrize("filename", ["..", ".", "", "../../etc/passwd"])
def test_an_upload_named_oddly_or_no_file_is_said_in_words(client: TestClient, filename: str) -> None:
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    answer = client.post(f"/tables/{table.id}/seats/0/sheet", headers=SAME_ORIGIN,
                         files={"sheet": (filename, b"" if not filename else b"not a sheet", "image/jpeg")})
    assert answer.status_code == 400 and 'role="alert"' in answer.text
    if not filename:
        assert "no file was chosen" in answer.text


def test_the_csv_export_never_runs_a_formula(tmp_path: Path, client: TestClient, db: Database) -> None:
    post_json(client, "/api/games", {"end_state": example("guedelon"), "team": ["=HYPERLINK(1)", "@SUM", "-1"]})
    found = CliRunner().invoke(cli, ["history", "export", "--format", "csv", "--db", str(db.path)])
    cells = [line.split(",")[3] for line in found.stdout.splitlines()[1:]]
    assert cells == ["'=HYPERLINK(1)", "'@SUM", "-1"]


def test_the_history_command_line_corrects_deletes_and_escapes(tmp_path: Path, client: TestClient,
                                                               db: Database) -> None:
    runner = CliRunner()
    game = post_json(client, "/api/games", {"end_state": example("guedelon"), "team": ["Ana\x1b[31m", "Ben"]})
    assert game.status_code == 400  # a control character is no name
    name = example("guildhall")
    name["players"][1]["name"] = "Ben\x07"
    saved = post_json(client, "/api/games", name)
    assert saved.status_code == 422 and "U+0007" in saved.text  # the API holds names to the forms' rules
    game_id = str(post_json(client, "/api/games", example("guildhall")).json()["id"])
    corrected = example("guildhall")
    corrected["players"][2]["vp_tokens"] += 2
    file = tmp_path / "fixed.json"
    file.write_text(json.dumps(corrected))
    edit = runner.invoke(cli, ["history", "edit", game_id, str(file), "--db", str(db.path)])
    assert edit.exit_code == 0, edit.output
    shown = runner.invoke(cli, ["history", "show", game_id, "--db", str(db.path)])
    assert "versions:" in shown.stdout and "edit (donjon history edit)" in shown.stdout
    huge = runner.invoke(cli, ["history", "show", "99999999999999999999", "--db", str(db.path)])
    assert huge.exit_code == 2 and "not a game's id" in huge.stderr
    assert runner.invoke(cli, ["history", "delete", game_id, "--db", str(db.path)]).exit_code == 0
    assert runner.invoke(cli, ["history", "show", game_id, "--db", str(db.path)]).exit_code == 2
    # a name with control characters already in a database (written by an older donjon) is shown escaped
    with sqlite3.connect(db.path) as conn:
        conn.execute("UPDATE game_players SET name = 'Eve\x1b[2J'")
    listed = runner.invoke(cli, ["history", "players", "--db", str(db.path)])
    assert "\x1b" not in listed.stdout


#: A shell line that makes the folder "$0" read-only in a mount namespace of its own (a read-only bind mount of
#: it over itself, seen by this process alone) and runs the command after it: a read-only file system refuses
#: root's writes too, where permissions do not.
READ_ONLY_MOUNT = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"'
#: The user an unprivileged run is made as (`nobody` on Debian, whose permissions a chmod binds).
NOBODY = 65534


def _unwritable(folder: Path) -> tuple[list[str], Path]:
    """A command prefix under which `folder` (made here, world-readable, or the one given) truly cannot be written,
    and the folder: as a user who is not root, its permissions (chmod) suffice; as root, which permissions do not
    bind, a read-only bind mount in a private mount namespace (`unshare -m`, where root may make one), else the
    command run as `nobody` (`setpriv`) over a folder of the system's temporary folder (`nobody` cannot reach
    pytest's, which is root's alone). Each way is checked before it is used: a write under it must be refused. A
    skip, with why, where no way holds (root in a container that may neither unshare nor change its user)."""
    import shutil
    import subprocess
    import tempfile

    def refuses(prefix: list[str], where: Path) -> bool:
        probe = where / "probe"
        try:
            ran = subprocess.run([*prefix, "sh", "-c", 'touch "$0"', str(probe)], capture_output=True, timeout=30)
        except OSError:
            return False
        written = probe.exists()
        probe.unlink(missing_ok=True)
        return ran.returncode != 0 and not written

    folder.chmod(0o555)
    if os.geteuid() != 0:
        return [], folder
    if shutil.which("unshare"):
        prefix = ["unshare", "-m", "--propagation", "private", "sh", "-c", READ_ONLY_MOUNT, str(folder)]
        if refuses(prefix, folder):
            return prefix, folder
    if shutil.which("setpriv"):
        shared = Path(tempfile.mkdtemp(prefix="donjon-ro-"))
        for item in folder.iterdir():
            shutil.copy(item, shared / item.name)
            (shared / item.name).chmod(0o444)
        shared.chmod(0o555)
        prefix = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        python = subprocess.run([*prefix, sys.executable, "-c", "import generator"], capture_output=True, timeout=60)
        if python.returncode == 0 and refuses(prefix, shared):
            return prefix, shared
        shared.chmod(0o755)
        shutil.rmtree(shared)
    pytest.skip("running as root, which permissions do not bind, and neither a read-only mount (unshare -m) nor "
                "another user (setpriv) is allowed here: a read-only database cannot be made")


def test_a_read_only_database_is_read(tmp_path: Path, client: TestClient, db: Database) -> None:
    """A database in a folder that cannot be written (a read-only mount, a folder of another user's) is read:
    `donjon history list` lists its games and writes nothing beside it (no journal, no lock file). It was tested
    with a chmod alone, which root ignores: under CI, which runs as root, the folder could be written and the test
    proved nothing; now the folder truly refuses the command's writes, whoever runs the tests."""
    import shutil
    import subprocess

    post_json(client, "/api/games", example("guildhall"))
    db.close()
    copy = tmp_path / "ro" / "history.sqlite3"
    copy.parent.mkdir()
    copy.write_bytes(db.path.read_bytes())
    copy.chmod(0o444)
    prefix, folder = _unwritable(copy.parent)
    try:
        listed = subprocess.run([*prefix, sys.executable, "-m", "generator", "history", "list", "--db",
                                 str(folder / copy.name)], capture_output=True, text=True, timeout=120,
                                env={**os.environ, "HOME": str(folder)})
        assert listed.returncode == 0 and "Guildhall" in listed.stdout, listed.stderr
        assert sorted(p.name for p in folder.iterdir()) == ["history.sqlite3"]  # nothing written beside it
    finally:
        for place in {copy.parent, folder}:
            place.chmod(0o755)
        if folder != copy.parent:
            shutil.rmtree(folder)


@pytest.mark.parametrize("correcting", [False, True])
def test_a_tap_that_lands_while_another_phone_saves_is_in_the_game_or_the_save_is_refused(
        client: TestClient, db: Database, monkeypatch: pytest.MonkeyPatch, correcting: bool) -> None:
    """Ben's phone adds his last token (answered 200, shown on his page) while Ana's phone taps Save: the save had
    read the table before the token and wrote that, so the saved game lacked a tap its phone was told had landed.
    The save is now refused in words when the table changed after it was read (409, back to the table), and the
    next Save keeps the token; a Save sent twice still saves once."""
    from generator.web import store

    table_id = finished_guildhall(client, ["Ana", "Ben"])
    if correcting:  # the same with a table correcting a saved game
        game = client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN).headers["location"]
        table_id = int(client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"].rsplit("/", 1)[1])
    first_edit_at = store.first_edit_at
    landed: list[str] = []

    def meanwhile(conn: sqlite3.Connection, table: int) -> str | None:  # read by the save between its read and write
        if not landed:
            landed.append(client.post(f"/tables/{table_id}/edit", headers=SAME_ORIGIN, data={
                "seat": "1", "shown": "1", "op": "add", "path": "vp_tokens", "value": "1", "key": "ben-1"}).text)
        return first_edit_at(conn, table)

    monkeypatch.setattr(store, "first_edit_at", meanwhile)
    refused = client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN)
    assert refused.status_code == 409 and "while it was being saved" in refused.text and f'href="/tables/{table_id}"' \
        in refused.text, refused.text
    monkeypatch.undo()
    saved = [client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN) for _ in range(2)]
    assert saved[0].status_code == saved[1].status_code == 303
    assert saved[0].headers["location"] == saved[1].headers["location"]
    game_id = int(saved[0].headers["location"].rsplit("/", 1)[1])
    found = client.get(f"/api/games/{game_id}").json()
    assert [p["score"] for p in found["players"]] == [21, 2]  # Ben's two tokens: the one that landed meanwhile too
    assert len(found["versions"]) == (2 if correcting else 1)


def test_a_delete_sent_again_after_its_answer_was_lost_is_answered_as_the_first(client: TestClient) -> None:
    """The phone deleted a game, the answer was lost (weak Wi-Fi) and the browser sent the form again: the second
    answer was "no saved game 1" (404), as if the deletion had failed. It is answered as the first was."""
    table_id = finished_guildhall(client, ["Ana", "Ben"])
    game = client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN).headers["location"]
    answers = [client.post(f"{game}/delete", headers=SAME_ORIGIN, data={"confirm": "yes"}) for _ in range(2)]
    assert [a.status_code for a in answers] == [303, 303]
    deleted = f"/history?deleted={game.rsplit('/', 1)[1]}"
    assert answers[0].headers["location"] == answers[1].headers["location"] == deleted
    assert [v["action"] for v in client.get("/api/games").json()] == []
    assert client.post("/history/games/999/delete", headers=SAME_ORIGIN, data={"confirm": "yes"}).status_code == 404


def test_the_language_switch_on_a_page_answering_a_form_returns_to_a_page(client: TestClient) -> None:
    """A page drawn in answer to a form has the form's address (Save's "entered nothing: save anyway?", a name
    refused, a deletion not ticked): its language switch returned there by GET, to "Method Not Allowed" in English,
    and the players page's to the page of a player called "rename". It returns to the page the form stands for."""
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    saved = client.post(f"/tables/{finished_guildhall(client, ['Cleo', 'Dan'])}/save", headers=SAME_ORIGIN)
    game = saved.headers["location"]

    def switch_on(page: Any) -> str:
        found = re.search(r'<input type="hidden" name="next" value="([^"]*)">', page.text)
        assert found, "no language switch"
        switched = client.post("/language", headers=SAME_ORIGIN, data={"lang": "de", "next": found.group(1)})
        assert switched.status_code == 303
        location: str = switched.headers["location"]
        assert client.get(location).status_code == 200, location
        return location

    unsaved = finished_guildhall(client, ["Eve", "Fay"])
    client.post(f"/tables/{unsaved}/edit", headers=SAME_ORIGIN, data={"seat": "1", "shown": "0", "op": "undo"})
    confirm = client.post(f"/tables/{unsaved}/save", headers=SAME_ORIGIN)
    assert confirm.status_code == 409 and "save anyway" in confirm.text
    assert switch_on(confirm) == f"/tables/{unsaved}"
    name = client.post(f"/tables/{table.id}/seats/1/name", headers=SAME_ORIGIN, data={"name": "ana"})
    assert switch_on(name) == f"/tables/{table.id}/seats/1"
    assert switch_on(client.post(f"{game}/delete", headers=SAME_ORIGIN, data={})) == game
    renamed = client.post("/history/players/rename", headers=SAME_ORIGIN, data={"old": "Cleo", "new": "Dan"})
    assert switch_on(renamed) == "/history/players"
    opened = client.post("/tables", headers=SAME_ORIGIN, data={"game": "guildhall", "name": ["Ana"]})
    assert opened.status_code == 400 and switch_on(opened) == "/new/guildhall"
    assert switch_on(client.get("/history?name=an")) == "/history?name=an"


def test_a_deleted_games_page_says_it_was_deleted(client: TestClient) -> None:
    """A phone left on a game's page, or a link to it shared before, after another phone deleted the game: its page
    said "there is no saved game 1", as if it had never been saved. It says the game was deleted, in the phone's
    language; a game never saved is still "no saved game"."""
    game = client.post(f"/tables/{finished_guildhall(client, ['Ana', 'Ben'])}/save",
                       headers=SAME_ORIGIN).headers["location"]
    client.post(f"{game}/delete", headers=SAME_ORIGIN, data={"confirm": "yes"})
    number = game.rsplit("/", 1)[1]
    for url in (game, f"{game}/result.png", f"{game}/print"):
        page = client.get(url)
        assert page.status_code == 404 and f"Game {number} was deleted" in page.text, url
    german = client.get(game, headers={"accept-language": "de"}).text
    assert f"Partie {number} wurde gelöscht" in german
    assert "(unter ihren Versionen" in german  # die Partie: ihre Versionen (it said "seinen")
    assert "there is no saved game 99" in client.get("/history/games/99").text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_correction_whose_game_was_deleted_meanwhile_can_be_saved_as_a_new_game(client: TestClient,
                                                                                    lang: str) -> None:
    """One phone corrects a saved game (a token more for Ben) while another deletes that game. The correction's
    Save answered 409 "game N deleted" (in English on a French phone) and "Back to the table" led to the same Save:
    a dead end, the tap in the correction lost unless the table was typed again. Now the page says what happened in
    the phone's language and offers to save the table as a new game (dated the evening it was played, with the
    correction's tap) or to leave it unsaved; a "save as new" for a game that is not deleted corrects nothing."""
    headers = {**SAME_ORIGIN, "Accept-Language": lang}
    table_id = finished_guildhall(client, ["Ana", "Ben"])
    game = client.post(f"/tables/{table_id}/save", headers=headers).headers["location"]
    game_id = game.rsplit("/", 1)[1]
    played = client.get(f"/api/games/{game_id}").json()["played_at"]
    correcting = client.post(f"{game}/correct", headers=headers).headers["location"]
    client.post(f"{correcting}/edit", headers=headers,
                data={"seat": "1", "shown": "1", "op": "add", "path": "vp_tokens", "value": "1"})
    # a "save as new" while the game still stands is the correction it always was: no second game
    other = finished_guildhall(client, ["Cleo", "Dan"])
    kept = client.post(f"/tables/{other}/save", headers=headers).headers["location"]
    still = client.post(f"{kept}/correct", headers=headers).headers["location"]
    assert client.post(f"{still}/save", headers=headers, data={"as_new": "yes"}).headers["location"] == kept
    assert client.post(f"{game}/delete", headers=headers, data={"confirm": "yes"}).status_code == 303
    refused = client.post(f"{correcting}/save", headers=headers)
    assert refused.status_code == 409
    page = html.unescape(refused.text)
    assert f"{game_id}" in page and ("supprimée" if lang == "fr" else "was deleted") in page
    form = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', refused.text, re.S)
    assert form is not None and form.group(1) == f"{correcting}/save"
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]+)"', form.group(2)))
    assert 'href="/history"' in refused.text  # leave it unsaved
    saved = client.post(form.group(1), headers=headers, data=fields)
    assert saved.status_code == 303 and saved.headers["location"] != game
    new = client.get("/api/games/" + saved.headers["location"].rsplit("/", 1)[1]).json()
    assert {p["name"]: p["score"] for p in new["players"]} == {"Ana": 21, "Ben": 2}
    assert new["played_at"] == played
    # the table is saved now: its Save, tapped again on a phone, opens the new game, not a second one
    assert client.post(f"{correcting}/save", headers=headers, data=fields).headers["location"] == \
        saved.headers["location"]
    assert client.get(f"/api/games/{game_id}").status_code == 404


def test_a_deleted_games_correction_asked_whether_to_save_an_untouched_part_still_saves_a_new_game(
        client: TestClient) -> None:
    """The Save as a new game of a correction whose game was deleted, when a part is still as the table was set:
    the page asks "Ben entered nothing: save anyway?", and its Save anyway saves a new game too (it corrected the
    deleted game, refused, had it not carried the choice)."""
    table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy", professions="")
    for value in (9, 7, 5):
        table.edit("append", "vp_cards", value, seat=0)
    game = client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN, data={"confirm": "yes"}).headers["location"]
    correcting = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    client.post(f"{correcting}/edit", headers=SAME_ORIGIN,
                data={"seat": "0", "shown": "0", "op": "add", "path": "vp_tokens", "value": "1"})
    client.post(f"{game}/delete", headers=SAME_ORIGIN, data={"confirm": "yes"})

    def form_of(page: str, where: str = "") -> tuple[str, dict[str, str]]:
        found = re.search(where + r'<form method="post" action="([^"]+)" class="save">(.*?)</form>', page, re.S)
        assert found is not None
        return found.group(1), dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]+)"',
                                                found.group(2)))

    action, fields = form_of(client.get(correcting).text)
    asked = client.post(action, headers=SAME_ORIGIN, data=fields)
    assert asked.status_code == 409 and "Ben entered nothing" in html.unescape(asked.text)
    action, fields = form_of(asked.text, r'<section class="confirm".*?')
    saved = client.post(action, headers=SAME_ORIGIN, data=fields)
    assert saved.status_code == 303 and saved.headers["location"] not in (game, None)
    new = client.get("/api/games/" + saved.headers["location"].rsplit("/", 1)[1]).json()
    assert {p["name"]: p["score"] for p in new["players"]} == {"Ana": 22, "Ben": 0}


@pytest.mark.parametrize(("lang", "said"), [("en", "This table corrects saved game 1:"),
                                             ("fr", "Cette table corrige la partie enregistrée 1\u00a0:"),
                                             ("de", "Dieser Tisch berichtigt die gespeicherte Partie 1:")])
def test_a_correction_table_names_the_game_it_corrects(client: TestClient, lang: str, said: str) -> None:
    """The German page of a correction said "Dieser Tisch berichtigt gespeichertes Spiel 1", without the article a
    German sentence puts before a game named by its number."""
    table_id = finished_guildhall(client, ["Ana", "Ben"])
    game = client.post(f"/tables/{table_id}/save", headers=SAME_ORIGIN).headers["location"]
    correcting = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    page = client.get(correcting, headers={"Accept-Language": lang}).text
    note = re.search(r'<div id="correcting">(.*?)</div>', page, re.S)
    assert note is not None
    assert said in html.unescape(re.sub(r"<[^>]+>", "", note.group(1)))


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_a_correction_whose_game_was_deleted_meanwhile_says_so_before_save_is_tapped(client: TestClient,
                                                                                     lang: str) -> None:
    """Game N deleted on one phone while another corrects it: the correction's table page still said "This table
    corrects saved game N" with a link to a game that answers 404, and "Save the correction"; the way out (save it
    as a new game) appeared only once Save was tapped and refused. The table's pages say it as soon as they are
    drawn, the phones left open on them are told by their next poll, and their Save saves a new game."""
    headers = {**SAME_ORIGIN, "Accept-Language": lang}
    table_id = finished_guildhall(client, ["Ana", "Ben"])
    game = client.post(f"/tables/{table_id}/save", headers=headers).headers["location"]
    game_id = game.rsplit("/", 1)[1]
    correcting = client.post(f"{game}/correct", headers=headers).headers["location"]
    client.post(f"{correcting}/edit", headers=headers,
                data={"seat": "1", "shown": "1", "op": "add", "path": "vp_tokens", "value": "1"})
    before = client.get(correcting, headers=headers).text
    assert f'href="/history/games/{game_id}"' in before
    version = re.search(r'id="live-state"[^>]*data-version="(\d+)"', before)
    assert version is not None
    assert client.post(f"{game}/delete", headers=headers, data={"confirm": "yes"}).status_code == 303
    deleted_words = {"en": "was deleted", "fr": "supprimée", "de": "gelöscht"}[lang]
    save_as_new = {"en": "Save as a new game", "fr": "Enregistrer comme nouvelle partie",
                   "de": "Als neue Partie speichern"}[lang]
    for page in (correcting, f"{correcting}/seats/1"):
        drawn = html.unescape(client.get(page, headers=headers).text)
        assert f'href="/history/games/{game_id}"' not in drawn, page
        assert deleted_words in drawn and save_as_new in drawn, page
        assert 'href="/history"' in drawn  # leave it unsaved
    # a phone left open on the table page, drawn before the deletion, is told by its next poll
    live = client.get(f"{correcting}/live", headers=headers, params={"v": version.group(1), "seat": "", "h": ""})
    assert live.status_code == 200
    told = html.unescape(live.text)
    assert 'id="correcting"' in told and deleted_words in told and save_as_new in told
    assert f'href="/history/games/{game_id}"' not in told
    # its Save, as drawn, saves a new game with the correction's tap
    form = re.search(r'<form method="post" action="([^"]+)" class="save">(.*?)</form>', told, re.S)
    assert form is not None and form.group(1) == f"{correcting}/save"
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]+)"', form.group(2)))
    saved = client.post(form.group(1), headers=headers, data=fields)
    assert saved.status_code == 303 and saved.headers["location"] != game
    new = client.get("/api/games/" + saved.headers["location"].rsplit("/", 1)[1]).json()
    assert {p["name"]: p["score"] for p in new["players"]} == {"Ana": 21, "Ben": 2}


def test_the_game_a_history_is_filtered_by_is_the_games_title_in_every_language(client: TestClient) -> None:
    """The history's filter and the player page's column name a game's title ("Guildhall"): French and German said
    "Partie", a play of it, over "Tous les jeux" / "Alle Spiele", the word Guédelon's reference uses for a play."""
    from generator.i18n import language

    client.post(f"/tables/{finished_guildhall(client, ['Ana', 'Ben'])}/save", headers=SAME_ORIGIN)
    for code, title in (("en", "Game"), ("fr", "Jeu"), ("de", "Spiel")):
        history = client.get("/history", headers={"accept-language": code}).text
        assert re.search(rf"<label>{title} <select name=\"game\">", history), code
        player = client.get("/history/players/Ana", headers={"accept-language": code}).text
        assert f'<th scope="col">{title}</th>' in player, code
    assert language("de")._("Game") == "Partie"  # a play, where a reference means one


#: the German word for a game as a title or kind: the history's filter and the player's column ("Spiel"), "Alle
#: Spiele", "je Spiel" of the player's charts, the home page's "Wähle das Spiel"; "im Spiel" is "in play"
GAME_AS_TITLE = re.compile(r"<label>Spiel <select|<th scope=\"col\">Spiel<|Alle Spiele|je Spiel|im Spiel"
                           r"|Wähle das Spiel")


def test_a_game_played_is_a_partie_on_every_german_page_about_it(client: TestClient) -> None:
    """German pages said "Spiel" and "Partie" for the same game played: the history "1 Partie" over "Noch kein
    Spiel gespeichert", the table "Dieses Spiel speichern", the saved game "Dieses Spiel berichtigen" beside
    "Partien" in the player's statistics. A game played is a "Partie"; "Spiel" is left to the game itself."""
    german = {**SAME_ORIGIN, "accept-language": "de"}

    def text(url: str) -> str:
        page = GAME_AS_TITLE.sub("", client.get(url, headers=german).text)
        shown = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)))
        return " ".join(shown.split())

    assert "Noch keine Partie gespeichert" in text("/history")
    table_id = finished_guildhall(client, ["Ana", "Ben"])
    assert "Diese Partie speichern" in text(f"/tables/{table_id}")
    game = client.post(f"/tables/{table_id}/save", headers=german).headers["location"]
    pages = {url: text(url) for url in ("/", "/history", game, f"{game}/print", f"/tables/{table_id}",
                                        "/history/players/Ana")}
    assert "Neue Partie" in pages["/"] and "Diese Partie berichtigen" in pages[game]
    correcting = client.post(f"{game}/correct", headers=german).headers["location"]
    pages[correcting] = text(correcting)
    assert "Dieser Tisch berichtigt die gespeicherte Partie" in pages[correcting]
    for url, shown in pages.items():
        assert not re.search(r"\bSpiel(e|s|es|en)?\b", shown), (url, re.findall(r".{40}\bSpiel\w*.{20}", shown))


def test_a_castle_in_progress_says_in_french_which_part_ends_the_game(client: TestClient) -> None:
    """French says "partie" for a game played and for a part of a castle: the table read "la partie s'arrête quand
    un joueur achève la douzième partie", a game ended by a game. The part is now the castle's."""
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    page = html.unescape(client.get(f"/tables/{table.id}", headers={"accept-language": "fr"}).text)
    assert "achève la douzième partie de son château et dessine le Nuage de fin" in page


def test_a_game_deleted_by_mistake_is_put_back_from_the_history(client: TestClient) -> None:
    """Delete tapped on the wrong game: the history said it was deleted, "kept among its versions", and nothing on
    any page could bring it back. The history's note now offers "Put it back": the game is in the history and the
    players' statistics again, as it was, its versions saying so; the same tap sent twice puts it back once. A game
    whose correction was saved as a game of its own meanwhile is not put back (both would count that evening)."""
    game = client.post(f"/tables/{finished_guildhall(client, ['Ana', 'Ben'])}/save",
                       headers=SAME_ORIGIN).headers["location"]
    number = game.rsplit("/", 1)[1]
    before = client.get(f"/api/games/{number}").json()
    players = client.get("/api/players").json()
    deleted = client.post(f"{game}/delete", headers=SAME_ORIGIN, data={"confirm": "yes"}).headers["location"]
    note = client.get(deleted, headers={"accept-language": "fr"}).text
    form = re.search(r'<form method="post" action="([^"]+)">\s*<button type="submit">([^<]+)</button>', note)
    assert form and form.groups() == (f"{game}/restore", "La remettre"), note[:3000]
    for _ in range(2):  # the answer lost, the form sent again
        put = client.post(form.group(1), headers=SAME_ORIGIN)
        assert put.status_code == 303 and put.headers["location"] == game
    after = client.get(f"/api/games/{number}").json()
    assert [v["action"] for v in after["versions"]] == ["save", "delete", "restore"]
    assert {k: after[k] for k in ("players", "result", "end_state")} == \
        {k: before[k] for k in ("players", "result", "end_state")}
    assert client.get("/api/players").json() == players
    assert "put back from the companion" in client.get(game).text
    # its correction saved as a new game while it was deleted: refused, said, nothing changed
    correcting = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    client.post(f"{game}/delete", headers=SAME_ORIGIN, data={"confirm": "yes"})
    again = client.post(f"{correcting}/save", headers=SAME_ORIGIN, data={"as_new": "yes"}).headers["location"]
    refused = client.post(f"{game}/restore", headers=SAME_ORIGIN)
    other = again.rsplit("/", 1)[1]
    assert refused.status_code == 409 and f"its correction was saved as game {other}" in refused.text
    assert client.get(game).status_code == 404
    assert client.post("/history/games/999/restore", headers=SAME_ORIGIN).status_code == 404


def test_a_game_put_back_follows_the_renames_made_while_it_was_deleted(client: TestClient) -> None:
    """A game deleted by mistake, a player renamed (or merged) from the players page before it was put back: the game
    came back under the name it was deleted with, and the players page showed the person twice ("Ana" beside "Anna",
    her statistics split), the rename silently undone for that evening. A rename is of the person: a deleted game
    follows it too (a version says so), so that it comes back under the names the history uses now."""
    first = client.post(f"/tables/{finished_guildhall(client, ['Ana', 'Ben'])}/save",
                        headers=SAME_ORIGIN).headers["location"]
    client.post(f"/tables/{finished_guildhall(client, ['Ana', 'Cleo'])}/save", headers=SAME_ORIGIN)
    client.post(f"/tables/{finished_guildhall(client, ['Cleo', 'Dan'])}/save", headers=SAME_ORIGIN)
    assert client.post(f"{first}/delete", headers=SAME_ORIGIN, data={"confirm": "yes"}).status_code == 303
    assert client.post("/history/players/rename", headers=SAME_ORIGIN,
                       data={"old": "Ana", "new": "Anna"}).status_code == 303
    assert client.post("/history/players/merge", headers=SAME_ORIGIN,
                       data={"old": "Ben", "new": "Dan"}).status_code == 409  # Ben played only the game deleted
    assert client.post(f"{first}/restore", headers=SAME_ORIGIN).status_code == 303
    number = first.rsplit("/", 1)[1]
    back = client.get(f"/api/games/{number}").json()
    assert [p["name"] for p in back["players"]] == ["Anna", "Ben"]
    assert [v["action"] for v in back["versions"]] == ["save", "delete", "rename", "restore"]
    players = {p["name"]: p["games"] for p in client.get("/api/players").json()}
    assert players == {"Anna": 2, "Ben": 1, "Cleo": 2, "Dan": 1}
    page = html.unescape(client.get(first).text)
    assert "a player renamed from the companion's page" in page  # its versions say it was renamed


def test_a_rename_that_would_seat_one_player_twice_in_a_deleted_game_leaves_that_game_as_it_was(
        client: TestClient) -> None:
    """Ben played only a game now deleted, so the players page lets Ana be renamed Ben; that deleted game holds both:
    renamed, it would seat one player twice (refused for a game of the history). It keeps its names, put back too."""
    first = client.post(f"/tables/{finished_guildhall(client, ['Ana', 'Ben'])}/save",
                        headers=SAME_ORIGIN).headers["location"]
    client.post(f"/tables/{finished_guildhall(client, ['Ana', 'Cleo'])}/save", headers=SAME_ORIGIN)
    assert client.post(f"{first}/delete", headers=SAME_ORIGIN, data={"confirm": "yes"}).status_code == 303
    assert client.post("/history/players/rename", headers=SAME_ORIGIN,
                       data={"old": "Ana", "new": "Ben"}).status_code == 303
    assert client.post(f"{first}/restore", headers=SAME_ORIGIN).status_code == 303
    back = client.get(f"/api/games/{first.rsplit('/', 1)[1]}").json()
    assert [p["name"] for p in back["players"]] == ["Ana", "Ben"]
    assert [v["action"] for v in back["versions"]] == ["save", "delete", "restore"]
