"""The history's search (`/history?name=&game=&from=&to=&page=`): by a part of a player's name, a game and the days
played, over the whole history (not only the newest page), and page after page past the first page of games."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from generator.web import store
from generator.web.app import GAMES_NEWEST_FIRST_LIMIT, PLAYER_GAMES_LIMIT
from generator.web.db import Database
from tests.web.conftest import example, post_json


def save(client: TestClient, names: list[str], played_at: str, game: str = "guildhall") -> int:
    state = copy.deepcopy(example(game))
    for player, name in zip(state["players"], names, strict=False):
        player["name"] = name
    state["players"] = state["players"][:len(names)]
    state["ended_by"] = names[0]  # the player whose turn ended it: one of these
    answer = post_json(client, "/api/games", {"end_state": state, "played_at": played_at})
    assert answer.status_code in (200, 201), answer.text
    return int(answer.json()["id"])


def listed(page: str) -> list[int]:
    """The ids of the games a history page lists, in its order."""
    return [int(found) for found in re.findall(r'<li><a href="/history/games/(\d+)"', page)]


@pytest.fixture
def evenings(client: TestClient) -> dict[str, int]:
    return {"anais": save(client, ["Anaïs", "Ben"], "2026-03-01 20:00"),
            "diana": save(client, ["Diana", "Cleo"], "2026-03-08 20:30"),
            "bob": save(client, ["Bob", "Ben"], "2026-04-02 21:00"),
            "percent": save(client, ["50%_off", "Ben"], "2026-04-03 21:00")}


def test_a_part_of_a_name_finds_the_games_of_every_player_it_is_in(client: TestClient,
                                                                  evenings: dict[str, int]) -> None:
    # no case nor accent: "ANA" is in Anaïs and in Diana
    assert listed(client.get("/history", params={"name": "ANA"}).text) == [evenings["diana"], evenings["anais"]]
    assert listed(client.get("/history", params={"name": " bob "}).text) == [evenings["bob"]]
    # % and _ are letters of a name, not SQL's wildcards
    assert listed(client.get("/history", params={"name": "%"}).text) == [evenings["percent"]]
    assert listed(client.get("/history", params={"name": "%_o"}).text) == [evenings["percent"]]
    assert listed(client.get("/history", params={"name": "b_b"}).text) == []
    nothing = client.get("/history", params={"name": "Zoé"})
    assert nothing.status_code == 200 and listed(nothing.text) == [] and "No saved game matches" in nothing.text


def test_a_name_spelled_as_german_writes_it_without_umlauts_finds_the_player(client: TestClient) -> None:
    """On a German phone "juergen" found no game of Jürgen, though "jurgen" did (the key drops the accent), and
    "Jürgen" none of a player saved as Juergen: German writes ü as ue where there is no ü. Both spellings find both;
    a name that merely holds the letters (Samuel) is still found by its own spelling."""
    jurgen = save(client, ["Jürgen", "Ben"], "2026-03-01 20:00")
    juergen = save(client, ["Juergen", "Cleo"], "2026-03-02 20:00")
    samuel = save(client, ["Samuel", "Dan"], "2026-03-03 20:00")
    mae = save(client, ["Mäeve", "Eli"], "2026-03-04 20:00")
    for query in ("juergen", "Jürgen", "JUERG", "jurgen"):
        assert listed(client.get("/history", params={"name": query}).text) == [juergen, jurgen], query
    assert listed(client.get("/history", params={"name": "samuel"}).text) == [samuel]
    assert listed(client.get("/history", params={"name": "Mäeve"}).text) == [mae]
    assert listed(client.get("/history", params={"name": "ben"}).text) == [jurgen]


@pytest.mark.parametrize(("written", "plain", "query_written", "query_plain"), [
    ("Ørsted", "Orsted", "ørst", "ORST"),          # Danish, Norwegian
    ("Strauß", "Strauss", "strauß", "STRAUSS"),    # German (ß is "ss" by case folding: a check it stays so)
    ("Ærø", "Aero", "ÆR", "aer"),                  # Danish, Old English: Æ as "ae" (then as Ä, "a")
    ("Łukasz", "Lukasz", "łuk", "luk"),            # Polish
    ("Œdipe", "Oedipe", "Œdi", "oedi"),            # French
    ("Đorđe", "Dorde", "đorđ", "dord"),            # Serbian, Croatian
    ("Işık", "Isik", "ışı", "isi"),                # Turkish: a dotless ı
    ("Þóra", "Thora", "Þór", "thor"),              # Icelandic
    ("Sigurðsson", "Sigurdsson", "urð", "URD"),
    ("Ɗanjuma", "Danjuma", "ɗan", "DAN"),          # Hausa
])
def test_a_latin_letter_with_no_mark_to_drop_is_found_by_its_usual_spelling(
        client: TestClient, written: str, plain: str, query_written: str, query_plain: str) -> None:
    """"orsted" found no game of Ørsted, nor "Ørsted" one of Orsted: the key drops a letter's marks (é is e),
    but Ø, Æ, Ł, Œ, Đ, ı, Þ, ð are letters of their own, which the key kept as they are. Each is found by its
    usual Latin spelling and the other way round, in either case, as ä and ae are."""
    with_letter = save(client, [written, "Ben"], "2026-03-01 20:00")
    spelled = save(client, [plain, "Cleo"], "2026-03-02 20:00")
    for query in (query_written, query_plain, written, plain):
        assert listed(client.get("/history", params={"name": query}).text) == [spelled, with_letter], query
    assert listed(client.get("/history", params={"name": "ben"}).text) == [with_letter]


def test_the_days_played_and_the_game_narrow_the_search(client: TestClient, evenings: dict[str, int]) -> None:
    march = client.get("/history", params={"from": "2026-03-01", "to": "2026-03-08"}).text
    assert listed(march) == [evenings["diana"], evenings["anais"]]  # both days included
    assert listed(client.get("/history", params={"name": "ben", "from": "2026-04-01"}).text) \
        == [evenings["percent"], evenings["bob"]]
    assert listed(client.get("/history", params={"game": "guildhall", "to": "2026-03-01"}).text) \
        == [evenings["anais"]]
    # what was searched stays in the form
    page = client.get("/history", params={"name": "ben", "game": "guildhall", "from": "2026-04-01"}).text
    assert 'name="name" value="ben"' in page and 'value="guildhall" selected' in page \
        and 'name="from" value="2026-04-01"' in page


def found(page: str) -> str:
    """What the history says it found (the count above the list), spaces as plain spaces."""
    said = re.search(r'<p class="found" role="status">([^<]*)</p>', page)
    assert said is not None, page[-2000:]
    return said.group(1).replace("\u202f", " ").replace("\u00a0", " ")


@pytest.mark.parametrize(("language", "single", "plural"), [("en", "game", "games"), ("fr", "partie", "parties"),
                                                            ("de", "Partie", "Partien")])
def test_the_search_says_how_many_games_it_found(client: TestClient, evenings: dict[str, int], language: str,
                                                  single: str, plural: str) -> None:
    def said(query: dict[str, str]) -> str:
        return found(client.get("/history", params=query, headers={"accept-language": language}).text)

    assert said({"name": "bob"}) == f"1 {single}"  # each language's singular
    assert said({"name": "ben"}) == f"3 {plural}"  # and plural: Anaïs', Bob's and 50%_off's games
    assert said({}) == f"4 {plural}"  # the whole history when nothing is searched
    nothing = client.get("/history", params={"name": "Zoé"}).text
    assert 'class="found"' not in nothing  # "no saved game matches" says it instead


@pytest.mark.parametrize("query", [{"from": "28/11/2026"}, {"to": "2026-02-30"}, {"game": "chess"},
                                   {"page": "0"}, {"page": "-1"}, {"page": "x"}, {"page": "9" * 30},
                                   {"name": "a" * 41}])
def test_a_search_that_cannot_be_read_is_said_in_words(client: TestClient, query: dict[str, str]) -> None:
    answer = client.get("/history", params=query)
    assert answer.status_code == 400 and 'role="alert"' in answer.text and "Traceback" not in answer.text


def test_the_search_says_its_refusal_in_french_and_german(client: TestClient) -> None:
    french = client.get("/history", params={"from": "hier"}, headers={"accept-language": "fr"})
    assert french.status_code == 400 and "année-mois-jour" in french.text and "Chercher" in french.text
    german = client.get("/history", params={"from": "gestern"}, headers={"accept-language": "de"})
    assert german.status_code == 400 and "Jahr-Monat-Tag" in german.text and "Suchen" in german.text


def test_the_history_goes_page_after_page_past_its_first_page(client: TestClient, db: Database) -> None:
    first = save(client, ["Ana", "Ben"], "2020-01-01 20:00")  # the oldest game
    saved: Any = db.read(lambda c: store.get_game(c, first))
    count = GAMES_NEWEST_FIRST_LIMIT + 20

    def many(conn: Any) -> None:
        for day in range(1, count):
            store.save_game(conn, "guildhall", saved["end_state"], saved["result"],
                            played_at=f"2021-01-01 {day // 60:02d}:{day % 60:02d}:00")

    db.write(many)
    newest = client.get("/history").text
    assert len(listed(newest)) == GAMES_NEWEST_FIRST_LIMIT and first not in listed(newest)
    assert found(newest) == f"{count} games"  # all of them, not the page's
    assert found(client.get("/history", headers={"accept-language": "fr"}).text) == f"{count} parties"
    older = re.search(r'<a href="([^"]+)" rel="next">', newest)
    assert older is not None and "page=2" in older.group(1)
    second = client.get(older.group(1).replace("&amp;", "&")).text
    assert found(second) == f"{count} games"
    assert len(listed(second)) == count - GAMES_NEWEST_FIRST_LIMIT and listed(second)[-1] == first
    assert not set(listed(second)) & set(listed(newest)) and 'rel="next"' not in second and 'rel="prev"' in second
    # a search keeps to its games page after page: the oldest game is on a search's second page too
    searched = client.get("/history", params={"name": "an", "page": "2"}).text
    assert listed(searched)[-1] == first and 'name="name" value="an"' in searched
    assert listed(client.get("/history", params={"page": "3"}).text) == []


def pages_said(page: str) -> str:
    """What a list's pages say ("Page 2 of 3"), spaces as plain spaces."""
    said = re.search(r'<nav class="pages">.*?<span>([^<]*)</span>', page, re.S)
    assert said is not None, page[-2000:]
    return said.group(1).replace("\u202f", " ").replace("\u00a0", " ")


@pytest.mark.parametrize(("language", "second", "older"), [("en", "Page 2 of 3", "Older games"),
                                                           ("fr", "Page 2 sur 3", "Parties plus anciennes"),
                                                           ("de", "Seite 2 von 3", "Ältere Partien")])
def test_a_players_games_go_page_after_page_as_the_history_does(client: TestClient, db: Database, language: str,
                                                                 second: str, older: str) -> None:
    """A player's page listed their newest 500 games and no other (a regular of 3,000 games could not reach the
    first 2,500 of them): it lists them 100 a page, newest first, saying which page of how many, every game once."""
    first = save(client, ["Ana", "Ben"], "2020-01-01 20:00")  # Ana's oldest game
    saved: Any = db.read(lambda c: store.get_game(c, first))
    count = 2 * PLAYER_GAMES_LIMIT + 50

    def many(conn: Any) -> None:
        for n in range(1, count):
            store.save_game(conn, "guildhall", saved["end_state"], saved["result"],
                            played_at=f"2021-01-{1 + n // 1440:02d} {n // 60 % 24:02d}:{n % 60:02d}:00")

    db.write(many)
    every = db.read(lambda c: [g["id"] for g in store.list_games(c, player="Ana")])
    shown: list[int] = []
    url: str | None = "/history/players/Ana"
    while url is not None:
        answer = client.get(url, headers={"accept-language": language})
        assert answer.status_code == 200, answer.text
        shown += listed(answer.text)
        assert len(listed(answer.text)) <= PLAYER_GAMES_LIMIT
        if "page=2" in url:
            assert pages_said(answer.text) == second and older in answer.text
        link = re.search(r'<a href="([^"]+)" rel="next">', answer.text)
        url = link.group(1).replace("&amp;", "&") if link else None
        assert url is None or url.endswith("#games")  # the next page opens at its list, past the charts
    assert shown == every and shown[-1] == first and len(shown) == count


def test_a_player_page_that_is_not_there_is_said_in_words(client: TestClient) -> None:
    save(client, ["Ana", "Ben"], "2020-01-01 20:00")
    for query in ("0", "-1", "x", "9" * 30):
        answer = client.get("/history/player", params={"name": "Ana", "page": query})
        assert answer.status_code == 400 and "a page of the list is a number" in answer.text
    beyond = client.get("/history/player", params={"name": "Ana", "page": "2"}, headers={"accept-language": "de"})
    assert beyond.status_code == 404 and "Es gibt keine Seite 2 der Partien von Ana" in beyond.text
    alone = client.get("/history/player", params={"name": "Ana"}).text
    assert 'class="pages"' not in alone  # one page says nothing of pages
