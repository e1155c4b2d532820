"""The companion in WebKit, Safari's engine (Debian's WebKitGTK, tests/web/webkit.py), at a phone's size (390 x 844):
a whole Once Upon a Castle game from a new table to the saved result and the history, a photo of a castle sheet
sent, checked, a mark tapped away and the values kept, and taps kept on the phone while the companion was stopped
(its localStorage, its failed fetches) sent once it is back; each control clicked where it is drawn. The Chromium tests
(test_browser.py) walk every page; these are there so that what only Safari's engine does differently (its forms,
its fetch, its CSS) cannot break a table of iPhones unseen.
Skipped without WebKitGTK's driver and Xvfb unless DONJON_REQUIRE_BROWSER=1 (CI sets it and installs them).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.test_browser_photo import photos  # noqa: F401 - the fixture: photos of filled sheets
from tests.web.test_serve_process import free_port, serving, wait_ready
from tests.web.webkit import WebKitPage, webkit

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent / "screenshots"
#: the bound of a wait for a photo's read, as test_browser.py's READ_MS (a loaded machine's read took up to 7.6 s)
READ_S = 90
#: the totals strip's rows, name and total, as the test_browser.py tests read them
TOTALS = """return Object.fromEntries([...document.querySelectorAll(
    '#scoreboard table.totals tbody tr:not(.breakdown)')].map(r => [r.querySelector('th').textContent.trim(),
    r.querySelector('td.num').textContent.trim().replace('≈', '')]))"""


@contextlib.contextmanager
def companion(db: str, port: int = 0) -> Iterator[str]:
    """`donjon serve` of the database `db` on `port` (0: a free one), once it answers: its address, without the
    last slash. Started again on the same port and database, it is the companion a phone's page was left open on."""
    with serving("--db", db, "--port", str(port)) as (_, url):
        wait_ready(url)
        yield url.rstrip("/")


@pytest.fixture
def phone(tmp_path: Path) -> Iterator[tuple[WebKitPage, str]]:
    with companion(str(tmp_path / "db.sqlite3")) as base, webkit(390, 844) as page:
        yield page, base


def tap(page: WebKitPage, name: str) -> None:
    """Tap a control, then wait until the page has drawn the companion's answer (app.js takes the class `sending`
    off the page once the last answer is swapped in)."""
    page.press(name)
    page.until(lambda: page.run("return !document.body.classList.contains('sending')"), f"{name}: no answer drawn")


def at_anas_part(page: WebKitPage, base: str, *others: str) -> str:
    """A new Great Architect castle table of Ana (and `others`), opened at Ana's part: the table's number."""
    page.goto(f"{base}/new/once-upon-a-castle")
    page.click("#opt-version option[value=great-architect]")
    for index, name in enumerate(("Ana", *others)):
        page.type(f"#name-{index}", name)
    page.press("Open the table")
    page.until(lambda: re.search(r"/tables/\d+$", page.url), "the table did not open")
    table = page.url.rsplit("/", 1)[1]
    page.press("Ana: enter Ana's part")
    page.until(lambda: page.url.endswith("/seats/0"), "Ana's part did not open")
    return table


def twelve_parts(page: WebKitPage) -> None:
    """Ana's castle to its twelfth part: 4 donjon floors, 4 towers (5, 2, 5, 5: 17 points), 4 walls."""
    for _ in range(4):
        tap(page, "Donjon floors: one more")
    for value in ("5", "2", "5", "5"):
        tap(page, f"Towers: add {value}")
    for _ in range(4):
        tap(page, "Add wall")


def test_a_whole_castle_game_in_webkit_at_a_phones_size(phone: tuple[WebKitPage, str]) -> None:
    page, base = phone
    page.goto(f"{base}/")
    assert page.run("return innerWidth") == 390
    page.press("Once Upon a Castle")
    page.until(lambda: page.url.endswith("/new/once-upon-a-castle"), "the game's page did not open")
    at_anas_part(page, base, "Ben")
    twelve_parts(page)
    tap(page, "Flags of wall 1: add 1")
    tap(page, "Queen")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(SHOTS / "webkit-castle-seat.png")
    # no part of the page is wider than the phone (a control or a name pushed out of the screen)
    assert page.run("return document.documentElement.scrollWidth") <= 390
    # Ana's twelfth part is done (4 floors, 4 towers, 4 walls): she draws the end Cloud, which ends the game
    tap(page, "End cloud (12th part first)")
    page.until(lambda: "Ana wins." in page.text("main"), "the end of the game was not said")
    # Ana: towers 17 + the end Cloud 4 + a flag 1 + the Queen 3 = 25 (004 Once Upon a Castle, scoring); Ben: 0
    assert page.run(TOTALS) == {"Ana": "25", "Ben": "0"}
    page.press("Save this game")
    page.press("Save anyway")  # Ben entered nothing
    page.until(lambda: re.search(r"/history/games/\d+$", page.url), "the game was not saved")
    page.screenshot(SHOTS / "webkit-castle-result.png")
    assert "Ana won." in page.text("main")
    page.press("History")
    page.until(lambda: page.url.endswith("/history"), "the history did not open")
    assert page.run("return document.querySelectorAll('.games-list li').length") == 1


def test_a_photo_of_a_castle_sheet_read_checked_and_kept_in_webkit(phone: tuple[WebKitPage, str],
                                                                   photos: dict[str, Path]) -> None:
    """The photo sent from the seat page's file field (multipart, as Safari sends it), the check page's marks
    tapped and read again, the values kept."""
    page, base = phone
    at_anas_part(page, base)
    page.type("#sheet-photo", str(photos["ana.jpg"]))  # a file field takes the file's path (WebDriver)
    page.press("Read the photo")
    page.until(lambda: "Check what was read" in page.text("main"), "the photo's check page did not come", READ_S)
    first = page.text("ul.read > li")
    assert first.startswith("? towers #3: the units 2 and 5 are both filled"), first
    assert page.run("return document.documentElement.scrollWidth") <= 390
    page.screenshot(SHOTS / "webkit-photo-check.png")
    # the 2 was a slip: the line leads to the tower's marks, the 2 tapped away, the marks read again
    page.press("towers #3")
    page.click("//label[contains(@class, 'check') and contains(., 'units 2')]", using="xpath")
    page.click("(//button[normalize-space(.)='See what my marks say'])[last()]", using="xpath")
    page.until(lambda: "towers 5, 2, 5, 5" in page.text("main"), "the tapped mark was not read again", READ_S)
    page.press("Keep these values")
    page.until(lambda: page.url.endswith("/seats/0"), "the values were not kept")
    # Great Architect, as tests/web/test_browser_photo.py's photo of Ana: 36
    assert page.run(TOTALS) == {"Ana": "36"}


def test_taps_kept_while_the_companion_is_stopped_arrive_once_it_is_back_in_webkit(tmp_path: Path) -> None:
    """The companion stopped in the middle of a game (Ctrl-C, the laptop's lid closed): a phone's taps meanwhile
    are kept on it (localStorage), and the page says so; the companion started again on the same port and database,
    the taps arrive, each once, and the words go."""
    db, port = str(tmp_path / "db.sqlite3"), free_port()
    with webkit(390, 844) as page:
        with companion(db, port) as base:
            table = at_anas_part(page, base)
            tap(page, "Towers: add 5")
        # the companion is stopped: two taps, kept on the phone and said
        page.press("Towers: add 2")
        page.press("Towers: add 5")
        kept = f"donjon-pending-{table}"
        page.until(lambda: page.run("return JSON.parse(localStorage.getItem(arguments[0]) || '[]').length", kept)
                   == 2, "the two taps were not kept on the phone")
        page.until(lambda: "2 changes are not saved yet" in page.text("#connection"), "the kept taps were not said")
        page.screenshot(SHOTS / "webkit-kept-taps-companion-stopped.png")
        with companion(db, port) as again:
            assert again == base
            # sent at the next retry (at most 8 s apart), each once: towers 5, 2, 5 = 12 (with none kept any more)
            page.until(lambda: page.run(TOTALS) == {"Ana": "12"}
                       and page.run("return localStorage.getItem(arguments[0])", kept) == "[]",
                       f"the kept taps did not arrive once: {page.run(TOTALS)}", READ_S)
            page.until(lambda: page.run("return document.getElementById('connection').hidden"),
                       "the words about the kept taps stayed")
            page.screenshot(SHOTS / "webkit-kept-taps-sent.png")
            # the page read again shows what the companion has (the taps in its database, not only drawn)
            page.goto(f"{base}/tables/{table}/seats/0")
            page.find("#scoreboard")
            assert page.run(TOTALS) == {"Ana": "12"}


def test_taps_kept_while_the_companion_is_stopped_are_sent_from_the_home_page_in_webkit(tmp_path: Path) -> None:
    """The same stop, and the phone's app put away meanwhile (its page gone): opened again once the companion is
    back, it starts at the home page, which sends the taps kept for the table and says nothing is left."""
    db, port = str(tmp_path / "db.sqlite3"), free_port()
    with webkit(390, 844) as page:
        with companion(db, port) as base:
            table = at_anas_part(page, base)
        page.press("Towers: add 5")
        kept = f"donjon-pending-{table}"
        page.until(lambda: "1 change is not saved yet" in page.text("#connection"), "the kept tap was not said")
        page.goto("about:blank")  # the app put away: its page gone, the tap in the phone's storage
        with companion(db, port):
            page.goto(f"{base}/")
            page.until(lambda: page.run("return localStorage.getItem(arguments[0])", kept) is None,
                       "the kept tap was not sent from the home page", READ_S)
            assert page.run("return document.getElementById('connection').hidden")
            page.goto(f"{base}/tables/{table}/seats/0")
            page.find("#scoreboard")
            assert page.run(TOTALS) == {"Ana": "5"}


def test_save_tapped_while_the_companion_is_stopped_saves_nothing_until_the_kept_tap_is_in_in_webkit(
        tmp_path: Path) -> None:
    """A finished game, the companion stopped, a last tap (the Queen) kept on the phone and Save tapped: nothing is
    saved, not even by the companion once back; the companion started again, Save saves with the Queen in it."""
    db, port = str(tmp_path / "db.sqlite3"), free_port()
    with webkit(390, 844) as page:
        with companion(db, port) as base:
            at_anas_part(page, base)
            twelve_parts(page)
            tap(page, "End cloud (12th part first)")
            page.find("//button[normalize-space(.)='Save this game']", using="xpath")
        page.press("Queen")
        page.until(lambda: "1 change is not saved yet" in page.text("#connection"), "the kept tap was not said")
        # a person scrolls Save above the words at the bottom of the screen (WebDriver scrolls it to the very bottom)
        page.run("[...document.querySelectorAll('button')].find(b => b.textContent.trim() === 'Save this game')"
                 ".scrollIntoView({block: 'center'})")
        page.press("Save this game")  # the tap cannot be sent: Save waits for it, and nothing is saved
        assert page.url.endswith("/seats/0")
        with companion(db, port):
            page.until(lambda: page.run("return document.getElementById('connection').hidden"),
                       "the kept tap was not sent", READ_S)
            assert httpx.get(f"{base}/api/games").json() == []  # the Save tapped while it was stopped saved nothing
            page.press("Save this game")
            page.until(lambda: re.search(r"/history/games/\d+$", page.url), "the game was not saved")
            game = httpx.get(page.url.replace("/history/games/", "/api/games/"), timeout=30).json()
            # towers 17 + the end Cloud 4 + the Queen 3 (004 Once Upon a Castle, scoring)
            assert {p["name"]: p["score"] for p in game["players"]} == {"Ana": 24}


def test_a_photo_sent_to_a_saved_table_shows_the_refusal_not_a_reset_in_webkit(
        phone: tuple[WebKitPage, str], photos: dict[str, Path], tmp_path: Path) -> None:
    """A phone's photo (6 MiB, as a 12-megapixel JPEG) sent from a seat's page left open while another phone saved
    the game: it is answered before its body comes (test_saved_elsewhere.py). With the connection closed after that
    answer, as Chromium needs to show it at once, WebKit said only "Error sending data: Connection reset by peer";
    kept open (the rest of the photo dropped as it comes) it shows the page that says the game is saved. A photo sent
    to a table not saved is read as before."""
    from generator.web import messages
    from tests.web.conftest import SAME_ORIGIN, example

    page, base = phone
    with httpx.Client(base_url=base, follow_redirects=False, timeout=60) as client:
        game = client.post("/api/games", json=example("once-upon-a-castle")).json()["id"]
        table = client.post(f"/history/games/{game}/correct", headers=SAME_ORIGIN).headers["location"]
        page.goto(f"{base}{table}/seats/0")
        page.find("#sheet-photo")
        assert client.post(f"{table}/save", headers=SAME_ORIGIN).status_code == 303  # another phone saves
    big = tmp_path / "photo.jpg"
    big.write_bytes(b"\xff\xd8" + bytes(6 * 1024 * 1024))
    page.type("#sheet-photo", str(big))
    page.press("Read the photo")
    # the refusal, or WebKit's own page for a failed load (its one line of text)
    shown = page.until(lambda: page.url.endswith("/seats/0/sheet") and page.run(
        "return document.readyState == 'complete' && (document.querySelector('p.violation') ? 'refused' :"
        " document.body.innerText.includes('Connection') && document.body.innerText)"), "no answer shown")
    assert shown == "refused", shown
    assert page.text("p.violation") == messages.TABLE_SAVED
    at_anas_part(page, base)
    page.type("#sheet-photo", str(photos["ana.jpg"]))
    page.press("Read the photo")
    page.until(lambda: "Check what was read" in page.text("main"), "the photo's check page did not come", READ_S)
