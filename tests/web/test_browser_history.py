"""A history of a thousand games on a phone, in a real browser (Chromium headless, through playwright) against a
real server: its pages are light enough for a slow phone, and a player's score chart is still read as a line.

Each phone is Chromium at 320 or 360 px with its CPU slowed 4x (DevTools' throttling, as the companion was measured):
a history page of 500 games was 120 KB and 4052 elements, 0.44 to 0.87 s before the phone could use it (medians;
2.3 s at worst, 3.6 s on a busier day), and the score chart of a regular player a solid band of hundreds of dots.
Screenshots are kept in tests/web/screenshots/ (not in git) to be looked at.
"""

from __future__ import annotations

import copy
import datetime
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import browser, shot  # noqa: F401 - the module's browser, shared
from tests.web.test_serve_process import serving, wait_ready

pytestmark = pytest.mark.browser

GAMES = 1000
#: What a phone may be given to lay out for a page of the history: 100 games of 3 players, at about 4.5 elements a
#: game and 100 for the page around them, with room. A page of 500 games had 4052.
MOST_ELEMENTS = 700
#: The most a page of the history may weigh (its HTML): about 190 bytes a game. A page of 500 games was 120 KB.
MOST_BYTES = 30_000


@pytest.fixture(scope="module")
def thousand_games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """A companion serving a history of a thousand games of Guildhall, one every hour, Ana's score going up and down
    from game to game: its address, and the first game saved (its players, in seat order)."""
    from starlette.testclient import TestClient

    from generator.web import store
    from generator.web.app import create_app
    from generator.web.db import Database
    from generator.web.games import Games
    from tests.web.conftest import example

    path = tmp_path_factory.mktemp("thousand") / "db.sqlite3"
    db = Database(path)
    with TestClient(create_app(db, Games()), base_url="http://127.0.0.1") as client:
        answer = client.post("/api/games", content=json.dumps({"end_state": example("guildhall"),
                                                               "played_at": "2024-01-01 20:00"}),
                             headers={"content-type": "application/json"})
        assert answer.status_code in (200, 201), answer.text
    saved: Any = db.read(lambda c: store.get_game(c, int(answer.json()["id"])))

    def many(conn: Any) -> None:
        for hour in range(1, GAMES):
            result = copy.deepcopy(saved["result"])
            result["players"][0]["score"] += hour % 7  # Ana wins each one, by more or less
            played = datetime.datetime(2024, 1, 1, 20) + datetime.timedelta(hours=hour)
            store.save_game(conn, "guildhall", saved["end_state"], result, played_at=f"{played:%Y-%m-%d %H:%M:%S}")

    db.write(many)
    db.close()
    with serving("--db", str(path)) as (_, url):
        wait_ready(url)
        yield url.rstrip("/"), saved


def phone(browser: Any, width: int, height: int, language: str) -> tuple[Any, Any]:  # noqa: F811
    """A phone's browser context and page, its CPU slowed 4x."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True,
                                  locale=language)
    page = context.new_page()
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
    return context, page


def spaced(text: str) -> str:
    """Text with the no-break spaces of French and German numbers and typography as plain spaces."""
    return text.replace("\u202f", " ").replace("\u00a0", " ")


def loaded(page: Any) -> dict[str, int]:
    """What the page a phone just opened cost it: when it was ready (ms), its bytes (decoded) and its elements."""
    found: dict[str, int] = page.evaluate(
        "(() => { const n = performance.getEntriesByType('navigation')[0];"
        " return {ready: Math.round(n.domContentLoadedEventEnd), bytes: n.decodedBodySize,"
        " elements: document.getElementsByTagName('*').length}; })()")
    return found


@pytest.mark.parametrize(("language", "found", "first", "second"), [
    ("en", "1,000 games", "Page 1 of 10", "Page 2 of 10"), ("fr", "1 000 parties", "Page 1 sur 10", "Page 2 sur 10")])
def test_a_history_page_of_a_thousand_games_is_light_on_a_slow_phone(
        browser: Any, thousand_games: tuple[str, dict[str, Any]], language: str, found: str, first: str,  # noqa: F811
        second: str) -> None:
    url, saved = thousand_games
    context, page = phone(browser, 360, 740, language)
    page.goto(f"{url}/history")
    timing = loaded(page)
    print(f"/history at 360 px, CPU 4x ({language}): {timing}")  # the time is the machine's; the rest is the page's
    assert timing["elements"] <= MOST_ELEMENTS and timing["bytes"] <= MOST_BYTES, timing
    rows = page.locator("ul.games-list > li")
    assert rows.count() == 100
    main = spaced(page.locator("main").inner_text())
    assert found in main and first in main
    # what a row says is what it said: the game and when, then each player (in seat order) and their score, the
    # winner starred; the newest game is the last one saved, Ana's score up by 999 % 7
    players = ", ".join(f"{p['name']} {p['score'] + (GAMES - 1) % 7 if p['winner'] else p['score']}"
                        + (" ★" if p["winner"] else "") for p in saved["players"])
    newest = datetime.datetime(2024, 1, 1, 20) + datetime.timedelta(hours=GAMES - 1)
    said = spaced(rows.first.inner_text()).splitlines()
    assert said[1] == players, said
    if language == "en":  # the other languages write the date their way (languages.when)
        assert said[0] == f"Guildhall · {newest:%Y-%m-%d %H:%M:%S}", said
    assert page.get_by_label("winner" if language == "en" else "gagnant", exact=True).count() == 100
    # the last row is reached, and the next page after it
    rows.last.scroll_into_view_if_needed()
    assert rows.last.is_visible()
    page.get_by_role("link", name="Older games" if language == "en" else "Parties plus anciennes").click()
    page.wait_for_url(re.compile(r"page=2"))
    assert second in spaced(page.locator("main").inner_text()) and page.locator("ul.games-list > li").count() == 100
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, f"history-page-2-{language}-360")
    context.close()


@pytest.mark.parametrize(("language", "note"), [
    ("en", "Guildhall: the last 30 games of 1,000."), ("fr", "Guildhall : les 30 dernières parties sur 1 000."),
    ("de", "Guildhall: die letzten 30 von 1.000 Partien.")])
def test_a_players_score_chart_after_a_thousand_games_draws_the_last_ones_apart(
        browser: Any, thousand_games: tuple[str, dict[str, Any]], language: str, note: str) -> None:  # noqa: F811
    """At 320 px the chart of Ana's 1000 games drew 1000 dots 0.3 px apart: a solid band. It draws her last 30,
    each dot clear of the next, and says so under it."""
    url, saved = thousand_games
    ana = saved["result"]["winner"]
    context, page = phone(browser, 320, 640, language)
    page.goto(f"{url}/history/players/{ana}")
    chart = page.locator("figure").first
    dots = chart.locator("svg.chart circle")
    assert dots.count() == 30
    centres = [box["x"] + box["width"] / 2 for box in (dots.nth(i).bounding_box() for i in range(dots.count()))]
    gaps = [b - a for a, b in zip(centres, centres[1:])]
    assert min(gaps) >= 6, f"dots {min(gaps):.1f} px apart: they touch"  # a dot is 6 px wide (r = 3)
    assert note in spaced(chart.inner_text())
    chart.screenshot(path=str(Path(__file__).resolve().parent / "screenshots" / f"score-chart-{language}-320.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    context.close()


#: What a phone may be given for a page of a player's games: the statistics, two charts and 100 games. Their 500
#: newest on one page were 46 KB and 1135 elements (a player of 3,000 games; the older ones not shown at all).
MOST_PLAYER_ELEMENTS = 450
MOST_PLAYER_BYTES = 20_000


@pytest.mark.parametrize(("language", "first", "second", "older"), [
    ("en", "Page 1 of 10", "Page 2 of 10", "Older games"),
    ("de", "Seite 1 von 10", "Seite 2 von 10", "Ältere Partien")])
def test_a_players_thousand_games_go_page_after_page_on_a_slow_phone(
        browser: Any, thousand_games: tuple[str, dict[str, Any]], language: str, first: str, second: str,  # noqa: F811
        older: str) -> None:
    url, saved = thousand_games
    context, page = phone(browser, 360, 740, language)
    page.goto(f"{url}/history/players/{saved['result']['winner']}")
    timing = loaded(page)
    print(f"a player's page at 360 px, CPU 4x ({language}): {timing}")
    assert timing["elements"] <= MOST_PLAYER_ELEMENTS and timing["bytes"] <= MOST_PLAYER_BYTES, timing
    games = page.locator("#games + ul.list > li")
    assert games.count() == 100 and first in spaced(page.locator("nav.pages").inner_text())
    page.get_by_role("link", name=older).click()
    page.wait_for_url(re.compile(r"page=2#games$"))
    assert second in spaced(page.locator("nav.pages").inner_text()) and games.count() == 100
    # the page opens at its list of games, not at the charts above it again
    assert page.locator("#games").bounding_box()["y"] < 740 and page.evaluate("window.scrollY") > 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, f"player-page-2-{language}-360")
    context.close()


def test_a_family_game_and_a_designers_sheet_are_each_shown_whichever_folder_is_served(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """A Guildhall evening, then a designer's own sheet played at the table (`donjon serve --content SHEET`). The
    companion served with the sheet's folder showed the Guildhall game's page as an error (500: its catalog is not
    in that folder), and served without it, the sheet's game's page too, the history listing it with no name. Now
    each page shows the game by its words, and says how to serve it to correct it, on a phone, in its language."""
    from starlette.testclient import TestClient

    from generator.registry import unregister
    from generator.web.app import create_app
    from generator.web.db import Database
    from generator.web.games import Games
    from tests.web.conftest import SAME_ORIGIN, example, new_table, post_json
    from tests.web.test_own_sheet_table import lantern_with

    folder = lantern_with(tmp_path, "")
    path = tmp_path / "db.sqlite3"
    db = Database(path)
    try:
        with TestClient(create_app(db, Games()), base_url="http://127.0.0.1") as client:
            assert post_json(client, "/api/games", {"end_state": example("guildhall")}).status_code in (200, 201)
        with TestClient(create_app(db, Games(folder)), base_url="http://127.0.0.1", follow_redirects=False) as client:
            table = new_table(client, "lantern-harbour", ["Ana", "Ben"])
            table.edit("set", "fish", 14, seat=0)
            table.edit("set", "fish", 3, seat=1)
            assert client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN).status_code == 303
    finally:
        unregister("lantern-harbour")
        db.close()
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  locale="fr")
    page = context.new_page()
    try:
        with serving("--db", str(path), "--content", str(folder)) as (_, url):  # the sheet's folder alone
            wait_ready(url)
            page.goto(f"{url.rstrip('/')}/history/games/1")
            main = spaced(page.locator("main").inner_text())
            assert main.startswith("Guildhall") and "Cartes PV achetées 19" in main, main
            assert "Ce compagnon ne sert pas Guildhall en ce moment" in main
            assert page.get_by_role("button", name="Corriger cette partie").count() == 0
            assert page.request.get(f"{url.rstrip('/')}/history/games/1/result.png").status == 200
            shot(page, "history-not-served-guildhall-fr-390")
        with serving("--db", str(path)) as (_, url):  # the shipped games alone
            wait_ready(url)
            page.goto(f"{url.rstrip('/')}/history")
            assert page.locator("ul.games-list > li").count() == 2
            page.select_option("select[name=game]", "lantern-harbour")  # searched by, though not served
            with page.expect_navigation():
                page.get_by_role("button", name="Chercher", exact=True).click()
            assert page.locator("ul.games-list > li").count() == 1
            assert page.locator("ul.games-list > li").first.inner_text().startswith("Lantern Harbour · ")
            page.locator("ul.games-list > li a").first.click()
            page.wait_for_url(re.compile(r"/history/games/2$"), wait_until="load")
            main = spaced(page.locator("main").inner_text())
            assert main.startswith("Lantern Harbour") and "Fish 14" in main, main
            assert "Ce compagnon ne sert pas Lantern Harbour en ce moment" in main
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            shot(page, "history-not-served-sheet-fr-390")
    finally:
        context.close()
