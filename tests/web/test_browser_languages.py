"""The companion in French and German, in a real browser (Chromium, headless) at a phone's size, against a real
server (`donjon serve`): every kind of page, each in the language chosen, no English word left on it, its
`<html lang>` the language's, axe-core clean; the language from the phone's Accept-Language, and the switch of
every page remembered (a cookie) over every later page. Screenshots go to tests/web/screenshots/lang-*.png.

The database is filled first through the application itself (three saved games, a table of each game), then the
real server serves it. Skipped without Chromium unless DONJON_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import example, new_table, post_json
from tests.web.test_browser import READ_MS, VIEWPORTS, accessible, browser, shot  # noqa: F401 - browser is a fixture
from tests.web.test_serve_process import serving, wait_ready

pytestmark = pytest.mark.browser

#: English words that are in no French or German sentence of the pages (names aside: see `_left_in_english`).
ENGLISH = ("the", "and", "of", "your", "is", "are", "save", "new", "history", "not", "yet", "with", "add", "more",
           "less", "back", "who", "what", "game", "games", "player", "players", "wins", "won", "open", "tap",
           "each", "from", "enter", "part", "running", "totals", "warning", "rule", "broken", "floor",
           "walls", "towers", "guests", "rounds", "join", "read", "sheet", "check", "keep", "house")
#: What may stay as written in any language: players' names, the games' names where no edition translates them,
#: donjon's own name, services, formats and the files' field names in the photo page's small print.
NAMES = ("Once Upon a Castle", "Guildhall", "Guédelon", "donjon build", "donjon", "BG Stats", "JSON", "PDF",
         "Ana", "Ben", "Cleo", "Job Faire", "Old World Economy")


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A real server on a database holding a saved game of each game and an open table of each."""
    from starlette.testclient import TestClient

    from generator.web.app import create_app
    from generator.web.db import Database
    from generator.web.games import Games

    db = tmp_path_factory.mktemp("evening") / "db.sqlite3"
    client = TestClient(create_app(Database(db), Games()), base_url="http://127.0.0.1", follow_redirects=False)
    saved = {game: post_json(client, "/api/games", example(game)).json()["id"]
             for game in ("guildhall", "once-upon-a-castle", "guedelon")}
    tables = {"castle": new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect").id,
              "guildhall": new_table(client, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy",
                                         professions="").id,
              "guedelon": new_table(client, "guedelon", ["Ana", "Ben", "Cleo"], events="easy").id}
    client.close()
    with serving("--db", str(db)) as (_, url):
        wait_ready(url)
        yield {"url": url.rstrip("/"), "saved": saved, "tables": tables}


def pages(evening: dict[str, Any]) -> dict[str, str]:
    """Every kind of page of the companion, by name (the photo check page: its own test below)."""
    saved, tables = evening["saved"], evening["tables"]
    return {
        "home": "/", "new-castle": "/new/once-upon-a-castle", "new-guildhall": "/new/guildhall",
        "new-guedelon": "/new/guedelon", "table-castle": f"/tables/{tables['castle']}",
        "seat-castle": f"/tables/{tables['castle']}/seats/0", "photos-castle": f"/tables/{tables['castle']}/photos",
        "table-guildhall": f"/tables/{tables['guildhall']}",
        "seat-guildhall": f"/tables/{tables['guildhall']}/seats/1", "table-guedelon": f"/tables/{tables['guedelon']}",
        "history": "/history", "history-deleted": f"/history?deleted={saved['guildhall']}",  # with "Put it back"
        "game-castle": f"/history/games/{saved['once-upon-a-castle']}",
        "game-guedelon": f"/history/games/{saved['guedelon']}",
        "print-guildhall": f"/history/games/{saved['guildhall']}/print", "players": "/history/players",
        "player": "/history/player?name=Ana", "error": "/tables/99999",
    }


def _left_in_english(page: Any) -> list[str]:
    """The English words of `ENGLISH` a person sees or hears on the page: its text, and the labels, titles,
    placeholders and alternative texts of its elements (names and formats taken out first)."""
    said = page.evaluate("""() => [document.title, document.body.innerText,
        ...[...document.querySelectorAll('[aria-label],[title],[placeholder],[alt]')].flatMap(e =>
            ['aria-label', 'title', 'placeholder', 'alt'].map(a => e.getAttribute(a) || ''))].join('\\n')""")
    for name in NAMES:
        said = said.replace(name, " ")
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", said)}
    return sorted(words & set(ENGLISH))


def check_page(page: Any, code: str, name: str, url: str) -> None:
    page.goto(url)
    assert page.evaluate("document.documentElement.lang") == code, name
    left = _left_in_english(page)
    assert not left, f"{name} in {code} still says {left}"
    accessible(page, f"{name} in {code}")
    shot(page, f"lang-{code}-{name}")


def test_every_page_in_french_by_the_switch(browser: Any, evening: dict[str, Any]) -> None:  # noqa: F811
    """A phone asking in English switches to French once, on the first page: every page after it is French."""
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="en-GB")
    page = context.new_page()
    base = evening["url"]
    page.goto(f"{base}/")
    assert page.evaluate("document.documentElement.lang") == "en"
    # the switch answers with the page it was made on, at the same address: waiting for that address returned at
    # once, on the English page still, whenever the click returned before its navigation was seen (under load)
    with page.expect_navigation(url=f"{base}/"):
        page.get_by_role("button", name="Français").click()
    assert "Compter une partie à table" in page.inner_text("h1")
    for name, path in pages(evening).items():
        check_page(page, "fr", name, base + path)
    check_refused_page(page, "fr", base)
    context.close()


def check_refused_page(page: Any, code: str, base: str) -> None:
    """The page a guard answers before the application (here a form too large to take, 413) is in the phone's
    language too."""
    page.goto(f"{base}/")
    with page.expect_navigation():
        page.evaluate("""() => { const form = document.createElement('form'); form.method = 'post';
            form.action = '/tables'; const field = document.createElement('input'); field.name = 'name';
            field.value = 'A'.repeat(300000); form.append(field); document.body.append(form); form.submit(); }""")
    assert page.evaluate("document.documentElement.lang") == code
    left = _left_in_english(page)
    assert not left, f"the refused page in {code} still says {left}"
    accessible(page, f"refused in {code}")
    shot(page, f"lang-{code}-refused")


def test_every_page_in_german_by_accept_language(browser: Any, evening: dict[str, Any]) -> None:  # noqa: F811
    """A phone whose browser asks for German gets German pages with no choice made; its switch to English then
    holds over its Accept-Language."""
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="de-DE")
    page = context.new_page()
    base = evening["url"]
    for name, path in pages(evening).items():
        check_page(page, "de", name, base + path)
    check_refused_page(page, "de", base)
    page.goto(f"{base}/history")
    with page.expect_navigation(url=f"{base}/history"):  # the same address again: the new page waited for
        page.get_by_role("button", name="English").click()
    assert page.evaluate("document.documentElement.lang") == "en" and "Games played" in page.inner_text("h1")
    page.goto(f"{base}/history/players")
    assert page.evaluate("document.documentElement.lang") == "en"
    context.close()


def test_a_photo_checked_in_french(browser: Any, evening: dict[str, Any], tmp_path: Path) -> None:  # noqa: F811
    """The photo of a filled castle sheet read at a French phone's seat: the page where its marks are checked is
    French too."""
    pytest.importorskip("cv2")
    from tests.scan.helpers import GREAT, filled, photograph

    photo = tmp_path / "ana.jpg"
    photo.write_bytes(photograph(filled("great-architect", "a4", GREAT)))
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="fr-FR")
    page = context.new_page()
    base = evening["url"]
    page.goto(f"{base}/tables/{evening['tables']['castle']}/seats/0")
    page.set_input_files("#sheet-photo", str(photo))
    page.get_by_role("button", name="Lire la photo").click(timeout=READ_MS)
    page.wait_for_selector("#review-title", timeout=READ_MS)
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.inner_text("#review-title") == "Vérifiez ce qui a été lu"
    left = [w for w in _left_in_english(page) if w not in ("walls", "towers", "guests")]  # the marks' field names
    assert not left, left
    accessible(page, "photo in fr")
    shot(page, "lang-fr-photo")
    context.close()
