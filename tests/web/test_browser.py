"""The companion in a real browser (Debian's Chromium, headless, through playwright) against a real server.

A full game of each game from an empty database to the saved result, the history and the player page, at a phone's
viewport (390 x 844) and a desktop's; two phones entering two players of one game at once; axe-core on every kind of
page (no serious or critical violation). Screenshots are kept in tests/web/screenshots/ (not in git) to be looked at.
Skipped without Chromium unless DONJON_REQUIRE_BROWSER=1 (CI sets it).
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.exports.test_preview_browser import FLAGS, chromium
from tests.web.test_serve_process import free_port, serving, wait_ready

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent / "screenshots"
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
#: the bound of a wait for what the page's polls (every 2 s) and its resends of a kept tap (1, 2, 4, then 8 s apart)
#: bring. A wait ends as soon as its state is there: the bound is for a loaded machine (two cores shared by xdist's
#: two workers, their servers and Chromium), where a kept tap waited out its 8 s resend and then its answer and the
#: others' polls, past 14 s
SETTLED_MS = 60_000
#: how long the page waits for the answer to a tap before it says the companion cannot be reached (app.js)
EDIT_TIMEOUT_MS = 8000
#: the bound of a wait for what a photo sent shows (its check page, its refusal), and of the tap that sends it (a
#: click waits for the page it opens to start coming, which is after the read): a read took 2-7.6 s with a loaded
#: machine's cores (load average 14; the first read of a server the longest), near Playwright's default 30 s once two
#: photos are read together or the test's own Chromium waits for a core. It ends as soon as the page is there
READ_MS = 90_000


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with serving("--db", str(tmp_path / "db.sqlite3")) as (_, url):
        wait_ready(url)
        yield url.rstrip("/")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def accessible(page: Any, what: str) -> None:
    """axe-core finds no serious or critical violation on the page as it stands."""
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")  # not a script tag: the pages' CSP runs none
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                          ".map(v => ({id: v.id, impact: v.impact,"
                          "            nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))")
    bad = [v for v in found if v["impact"] in ("serious", "critical")]
    assert not bad, f"{what}: {bad}"


def open_table(page: Any, base: str, game: str, names: list[str], check_axe: bool = False, **options: str) -> None:
    page.goto(f"{base}/")
    if check_axe:
        accessible(page, "home page")
    page.get_by_role("link", name=re.compile({"guildhall": "Guildhall", "once-upon-a-castle": "Once Upon",
                                              "guedelon": "Guédelon"}[game])).click()
    if check_axe:
        accessible(page, f"new {game} game")
    for index, name in enumerate(names):
        page.fill(f"#name-{index}", name)
    for option, value in options.items():
        if value == "on":
            page.check(f"input[name={option}]")
        else:
            page.select_option(f"#opt-{option}", value)
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+$"))


def part_of(name: str) -> str:
    """The accessible name of a seat's link on the table page."""
    return f"{name}: enter {name}'s part"


def at_anas_part(browser: Any, server: str) -> tuple[Any, Any]:
    """A phone (touch, its own browser context) on Ana's part of a new Great Architect castle table of Ana and Ben:
    the context (to go offline, to close) and its page."""
    context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
    page = context.new_page()
    open_table(page, server, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    page.get_by_role("link", name=part_of("Ana")).click()
    page.wait_for_url(re.compile(r"/seats/0$"))
    return context, page


def tap(page: Any, label: str) -> None:
    """Tap a control and wait for the companion's answer to be swapped in."""
    with page.expect_response(re.compile(r"/edit$")):
        page.get_by_label(label, exact=True).first.click()
    drawn(page)


def drawn(page: Any) -> None:
    """Wait until the page has drawn the answers to its taps: its script takes the class `sending` off the page once
    the last answer is read and swapped in (app.js, flush). The answer's status comes first and its body a moment
    later: a fixed 60 ms wait after the status read the totals as they were before the tap once the body came later
    (made so in the page: the body read 250 ms after the status; a loaded machine writes the two apart too)."""
    page.wait_for_function("() => !document.body.classList.contains('sending')")


def until(page: Any, condition: Callable[[], bool], what: str) -> None:
    """Wait for `condition`, a state the test's own handlers (a route's) set, which Playwright runs while the test
    waits on the page; `what` is said if it does not hold within half a minute."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, what
        page.wait_for_timeout(20)


@contextlib.contextmanager
def first_answer_held(page: Any) -> Iterator[None]:
    """The companion's answer to the first edit sent in the block is held back until the block ends: a double tap
    whose two taps both land before the page is redrawn, as on a phone whose Wi-Fi answers slower than a finger. A
    companion on the same machine answers between the two clicks Playwright sends for a double tap now and then
    (seen once in CI: the second click then hit the control drawn anew, and the race the test is about never
    happened)."""
    held: list[Any] = []

    def hold_first(route: Any) -> None:
        if not held:
            held.append(route)
        else:
            route.continue_()

    page.route(re.compile(r"/edit$"), hold_first)
    try:
        yield
        # the request reaches the test a moment after the click that sends it (2 s at most before: too short a bound
        # for a loaded machine, where the test's own process may wait that long for a core)
        until(page, lambda: bool(held), "the double tap sent no edit")
    finally:
        for route in held:
            route.continue_()
        page.unroute(re.compile(r"/edit$"), hold_first)


def totals(page: Any) -> dict[str, str]:
    rows = page.locator("#scoreboard table.totals tbody tr:not(.breakdown)")
    out = {}
    for index in range(rows.count()):
        row = rows.nth(index)
        out[row.locator("th").inner_text().strip()] = row.locator("td.num").inner_text().strip()
    return out


def finish_in_history(page: Any, kind: str, player: str, check_axe: bool, untouched: str = "") -> None:
    """Save the game (confirming that `untouched` entered nothing, when a player did not), then look at the
    result, the history and the player's page."""
    page.get_by_role("button", name="Save this game").click()
    if untouched:
        page.get_by_text(f"{untouched} entered nothing: save anyway?").wait_for()
        page.get_by_role("button", name="Save anyway").click()
    page.wait_for_url(re.compile(r"/history/games/\d+$"))
    assert page.get_by_role("link", name="Send to BG Stats").get_attribute("href").startswith(
        "https://app.bgstatsapp.com/createPlay.html?data=")
    shot(page, f"{kind}-result")
    if check_axe:
        accessible(page, "game page")
    page.get_by_role("link", name="History").click()
    # a click returns once the navigation has started, not once the new page is parsed: wait for the history page
    # itself (CI read the old page's empty list once, under load)
    page.wait_for_url(re.compile(r"/history$"), wait_until="load")
    assert page.locator(".games-list li").count() == 1
    shot(page, f"{kind}-history")
    if check_axe:
        accessible(page, "history")
    page.goto(page.url.replace("/history", f"/history/players/{player}"))
    assert page.locator("svg.chart").count() == 2
    shot(page, f"{kind}-player")
    if check_axe:
        accessible(page, "player page")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_full_game_of_guildhall(browser: Any, server: str, viewport: str) -> None:
    page = browser.new_page(viewport=VIEWPORTS[viewport])
    kind = f"guildhall-{viewport}"
    check_axe = viewport == "phone"
    open_table(page, server, "guildhall", ["Ana", "Ben <b>"], check_axe, vp_set="old-world-economy")
    if check_axe:
        accessible(page, "table page")
    page.get_by_role("link", name=part_of("Ana")).click()
    page.wait_for_url(re.compile(r"/seats/0$"))
    tap(page, "Farmer, Red")
    tap(page, "Farmer, Blue")
    for value in ("9", "7"):
        tap(page, f"VP cards bought: add {value}")
    tap(page, "Completed chapters: one more")
    assert totals(page) == {"Ana": "16", "Ben <b>": "0"}
    shot(page, f"{kind}-seat")
    if check_axe:
        accessible(page, "seat page")
    tap(page, "VP cards bought: add 5")
    # Ana alone has 20 VP or more: her turn ended the game, and nothing needs saying or asking (ended_by optional)
    page.get_by_text("Ana wins.").wait_for()
    assert page.locator("#msg-ended_by").inner_text().strip() == ""
    assert totals(page) == {"Ana": "21", "Ben <b>": "0"}
    assert page.get_by_text("whose turn was it?").count() == 0
    finish_in_history(page, kind, "Ana", check_axe, untouched="Ben <b>")
    page.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_full_game_of_once_upon_a_castle(browser: Any, server: str, viewport: str) -> None:
    page = browser.new_page(viewport=VIEWPORTS[viewport])
    kind = f"castle-{viewport}"
    open_table(page, server, "once-upon-a-castle", ["Ana", "Ben"], viewport == "phone", version="great-architect")
    page.get_by_role("link", name=part_of("Ana")).click()
    for _ in range(2):
        tap(page, "Donjon floors: one more")
    tap(page, "Towers: add 5")
    tap(page, "Towers: add 2")
    with page.expect_response(re.compile(r"/edit$")):
        page.get_by_role("button", name="Add wall").click()
    drawn(page)
    tap(page, "Flags of wall 1: add 1")
    with page.expect_response(re.compile(r"/edit$")):
        page.get_by_role("button", name="Queen").click()
    drawn(page)
    shot(page, f"{kind}-seat")
    if viewport == "phone":
        accessible(page, "castle seat page")
    page.get_by_role("link", name=re.compile("table")).click()
    page.get_by_role("link", name=part_of("Ben")).click()
    with page.expect_response(re.compile(r"/edit$")):
        page.get_by_role("button", name="Queen").click()
    page.get_by_text("1 thing to fix").wait_for()  # one Queen card, in two castles
    assert "queen" in page.locator("#msg-sheets_1__guests").inner_text().lower()
    shot(page, f"{kind}-violation")
    if viewport == "phone":  # the totals kept, provisional, with the message on Ben's card (generator/web/docs/)
        assert "provisional" in page.locator("#scoreboard").inner_text()
        page.locator("#scoreboard").screenshot(path=str(SHOTS / "readme-provisional.png"))
    with page.expect_response(re.compile(r"/edit$")):
        page.get_by_role("button", name="Queen").click()
    drawn(page)  # the King tapped on Ben's part as the answer to the Queen drew it, not as it was before
    with page.expect_response(re.compile(r"/edit$")):
        page.get_by_role("button", name="King").click()
    drawn(page)
    # no sheet has the end Cloud: the game is not over (a table holds every sheet), so it cannot be saved yet
    page.get_by_text("Game in progress: the game ends when a player completes the twelfth part and draws the end "
                     "Cloud, and no sheet has it yet.").wait_for()
    # Ana: towers 7 + flag 1 + Queen 3 = 11 (residents 0); Ben: the King, 1 per flag: 0
    assert totals(page)["Ana"].lstrip("≈") == "11"
    assert page.get_by_role("button", name="Save this game").count() == 0
    # Ana completes her twelfth part (4 floors, 4 towers, 4 walls) and draws the end Cloud
    page.get_by_role("link", name=re.compile("table")).click()
    page.get_by_role("link", name=part_of("Ana")).click()
    for _ in range(2):
        tap(page, "Donjon floors: one more")
    for _ in range(2):
        tap(page, "Towers: add 5")
    for _ in range(3):
        with page.expect_response(re.compile(r"/edit$")):
            page.get_by_role("button", name="Add wall").click()
        drawn(page)
    with page.expect_response(re.compile(r"/edit$")):
        page.get_by_role("button", name="End cloud (12th part first)").click()
    page.get_by_text("Ana wins.").wait_for()
    # Ana: towers 17 + Cloud 4 + flag 1 + Queen 3 = 25
    assert totals(page)["Ana"].lstrip("≈") == "25"
    finish_in_history(page, kind, "Ana", viewport == "phone")
    page.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_full_game_of_guedelon(browser: Any, server: str, viewport: str) -> None:
    page = browser.new_page(viewport=VIEWPORTS[viewport])
    kind = f"guedelon-{viewport}"
    open_table(page, server, "guedelon", ["Ana", "Ben", "Cleo"], viewport == "desktop", events="easy")
    tap(page, "Building A: A0")
    tap(page, "Building A: A2")
    assert "below it is not" in page.locator("#msg-built").inner_text()
    shot(page, f"{kind}-violation")
    if viewport == "phone":
        accessible(page, "guedelon table")
    with page.expect_response(re.compile(r"/edit$")):
        page.get_by_role("button", name="Everything built").click()
    page.fill("#in-rounds", "17")
    with page.expect_response(re.compile(r"/edit$")):
        page.locator("#in-rounds").dispatch_event("change")
    page.get_by_text("the team wins").wait_for()
    shot(page, f"{kind}-won")
    finish_in_history(page, kind, "Cleo", viewport == "phone")
    page.close()


def test_two_phones_enter_two_players_at_once(browser: Any, server: str) -> None:
    ana_phone = browser.new_context(viewport=VIEWPORTS["phone"])
    ben_phone = browser.new_context(viewport=VIEWPORTS["phone"])
    ana, ben = ana_phone.new_page(), ben_phone.new_page()
    open_table(ana, server, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy")
    ben.goto(ana.url)
    ana.get_by_role("link", name=part_of("Ana")).click()
    ben.get_by_role("link", name=part_of("Ben")).click()
    ana.wait_for_url(re.compile(r"/seats/0$"))
    ben.wait_for_url(re.compile(r"/seats/1$"))
    # both tap at the same time, without waiting for each other
    for a_value, b_value in (("9", "5"), ("7", "4"), ("3", "2")):
        ana.get_by_label(f"VP cards bought: add {a_value}", exact=True).click(no_wait_after=True)
        ben.get_by_label(f"VP cards bought: add {b_value}", exact=True).click(no_wait_after=True)
    ben.get_by_label("VP tokens: one more", exact=True).click()
    # each phone sees the other's totals arrive through the live updates
    from playwright.sync_api import expect

    for phone in (ana, ben):
        expect(phone.locator("#scoreboard")).to_contain_text("Ana", timeout=SETTLED_MS)
        phone.wait_for_function("() => document.querySelector('#scoreboard').innerText.includes('19')"
                                " && document.querySelector('#scoreboard').innerText.includes('12')",
                                timeout=SETTLED_MS)
    assert totals(ana) == totals(ben) == {"Ana": "19", "Ben": "12"}
    shot(ana, "two-phones-ana")
    shot(ben, "two-phones-ben")
    # what a phone shows in the middle of a game (the README's picture, generator/web/docs/phone.png)
    ben.get_by_label("Farmer, Green", exact=True).click()
    ben.wait_for_timeout(300)
    ben.screenshot(path=str(SHOTS / "readme-phone.png"))
    ana_phone.close()
    ben_phone.close()


def test_a_players_name_is_not_cut_in_the_tables_of_a_phone(browser: Any, server: str) -> None:
    """On a phone in French the players page's long headers ("Taux de victoire") left the names' column the width
    of one letter: "Amélie" came out "Améli" over "e". An ordinary name stays whole on its line; a name of 40
    letters without a space still breaks rather than widen the page."""
    import httpx

    from tests.web.conftest import example

    game = example("guildhall")
    for player, name in zip(game["players"], ("Amélie", "Maximilien", "W" * 40)):
        player["name"] = name
    game["ended_by"] = "Amélie"
    assert httpx.post(f"{server}/api/games", json=game, timeout=30).status_code == 201
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="fr-FR")
    page = context.new_page()
    for path in ("/history/players", "/history/games/1"):
        page.goto(server + path)
        lines = page.evaluate("[...document.querySelectorAll('table.totals th[scope=row]')]"
                              ".map(th => [th.textContent.trim(), th.firstElementChild.getClientRects().length])")
        assert lines and all(count == 1 for name, count in lines if len(name) < 40), (path, lines)
        assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS["phone"]["width"], path
        shot(page, "players-fr-phone" if path.endswith("players") else "game-fr-phone")
    context.close()


def test_a_broken_rule_is_announced_once(browser: Any, server: str) -> None:
    """A screen reader hears a new broken rule once, though the page shows it twice (at its field and on the
    player's card of the totals)."""
    page = browser.new_page(viewport=VIEWPORTS["phone"])
    open_table(page, server, "once-upon-a-castle", ["Ana"], version="apprentice")
    page.get_by_role("link", name=part_of("Ana")).click()
    page.wait_for_url(re.compile(r"/seats/0$"))
    with page.expect_response(re.compile(r"/edit$")):
        page.get_by_role("button", name="Sun (first to 4 towers)").click()
    page.wait_for_function("() => document.getElementById('announce').textContent.includes('the Sun needs 4')")
    said = page.locator("#announce").text_content() or ""
    assert page.locator(".violation", has_text="the Sun needs 4").count() == 2
    assert said.count("the Sun needs 4") == 1, said
    page.close()


def test_a_photo_of_a_paper_sheet_checked_and_corrected_on_a_phone(browser: Any, server: str,
                                                                   tmp_path: Path) -> None:
    pytest.importorskip("cv2")
    from tests.scan.helpers import GREAT, filled, photograph

    photo = tmp_path / "ana.jpg"
    photo.write_bytes(photograph(filled("great-architect", "a4", dict(GREAT, **{"towers[2]": (2, 5)})), turn=90))
    page = browser.new_page(viewport=VIEWPORTS["phone"])
    open_table(page, server, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    page.get_by_role("link", name=part_of("Ana")).click()
    page.set_input_files("#sheet-photo", str(photo))
    page.get_by_role("button", name="Read the photo").click(timeout=READ_MS)
    page.wait_for_selector("text=Check what was read", timeout=READ_MS)
    shot(page, "castle-photo-check")
    accessible(page, "the photo check page")
    # every mark of the tower is to check: its "built" bubble and its ten digits
    assert page.locator(".mark.check").count() == 11
    # tap the 2 of tower 3 away: its bubble is unticked, and the values are kept
    page.get_by_role("link", name="towers #3").click()  # the list leads to the marks to check
    two = page.locator(".mark.check", has_text="units 2")
    assert two.count() == 1 and two.locator("input").is_checked()
    shot(page, "castle-photo-check-tower")
    two.click()
    assert not two.locator("input").is_checked()
    page.get_by_role("button", name="Keep these values").first.click()
    page.wait_for_url(re.compile(r"/tables/\d+/seats/0$"))
    assert totals(page)["Ana"].lstrip("≈") == "36"


def test_the_back_button_shows_the_part_as_it_stands(browser: Any, server: str) -> None:
    """A player who tapped, looked at the table's page and came back with the back button saw their part as it was
    when the page was first opened (Chromium showed the page from its cache, "Donjon floors" back at 0, until the
    next poll two seconds later), and a tap again then counted twice. The page the back button shows is the part
    as the companion holds it."""
    context, page = at_anas_part(browser, server)
    tap(page, "Donjon floors: one more")
    assert page.locator("#in-sheets_0__donjon_floors").input_value() == "1"
    page.get_by_role("link", name=re.compile("table")).click()
    page.wait_for_url(re.compile(r"/tables/\d+$"))
    page.go_back(wait_until="load")
    assert page.locator("#in-sheets_0__donjon_floors").input_value() == "1"
    context.close()


def test_a_double_tap_on_a_chip_takes_away_one(browser: Any, server: str) -> None:
    """A fast double tap on "take away 5 (number 1)" of towers 5, 2, 5 sent two edits "take away number 1" before
    the page was redrawn: the 5 and then the 2 were taken away. Each edit says how many items the phone saw: the
    second finds the list changed, takes nothing away and says so at the control."""
    context, page = at_anas_part(browser, server)
    for value in ("5", "2", "5"):
        tap(page, f"Towers: add {value}")
    with page.expect_response(lambda r: r.url.endswith("/edit") and r.status == 422):
        with first_answer_held(page):
            page.get_by_label("Towers: take away 5 (number 1)", exact=True).dblclick()
    page.wait_for_timeout(200)
    page.get_by_role("alert").filter(has_text="nothing was taken away").wait_for()
    page.reload()
    chips = page.locator("#form-0 .chip").all_inner_texts()
    assert [chip.replace("×", "").strip() for chip in chips] == ["2", "5"]
    context.close()


def second_tap_after_the_answer(page: Any, control: Any) -> None:
    """A double tap whose first tap is answered before the second comes, as on a table's Wi-Fi (the answer in
    20-50 ms, a finger's second tap 150-300 ms later): the first tap, its answer swapped in, then the second at the
    same spot, which the browser counts as the second of a double tap (a click's `detail` 2, as Chromium on a phone
    says for two taps there within 300 ms). Nothing is delayed: the answer simply comes first."""
    control.scroll_into_view_if_needed()
    box = control.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    with page.expect_response(re.compile(r"/edit$")):
        page.mouse.click(x, y)
    page.wait_for_function("() => !document.body.classList.contains('sending')")
    page.wait_for_timeout(60)  # the answer swapped in
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)


def test_a_double_tap_on_a_chip_answered_between_its_taps_takes_away_one(browser: Any, server: str) -> None:
    """A double tap on "take away 5 (number 1)" of towers 5, 2, 5, the companion answering between the two taps: the
    list was drawn anew as 2, 5, and the second tap landed on "take away 2 (number 1)", which slid into the first
    chip's place, a valid edit: the 2 was lost too. The second tap is not taken, and the page says so at the list,
    naming the chip, so that a player who meant it taps it again."""
    context, page = at_anas_part(browser, server)
    for value in ("5", "2", "5"):
        tap(page, f"Towers: add {value}")
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.post_data or "") if request.url.endswith("/edit") else None)
    second_tap_after_the_answer(page, page.get_by_label("Towers: take away 5 (number 1)", exact=True))
    page.wait_for_timeout(300)
    page.wait_for_function("() => !document.body.classList.contains('sending')")
    chips = page.locator("#form-0 .chip")
    assert [chip.replace("×", "").strip() for chip in chips.all_inner_texts()] == ["2", "5"]
    assert len(sent) == 1, sent
    note = page.locator("#form-0 .tap-note")
    assert "Towers: take away 2 (number 1)" in note.inner_text()
    shot(page, "double-tap-answered-between")
    accessible(page, "a second tap not taken, said at its list")
    page.get_by_label("Towers: take away 2 (number 1)", exact=True).click()  # meant: tapped again, and taken
    page.wait_for_function("() => document.querySelectorAll('#form-0 .chip').length === 1")
    page.reload()
    assert [chip.replace("×", "").strip() for chip in chips.all_inner_texts()] == ["5"]
    context.close()


def test_a_double_tap_on_undo_answered_between_its_taps_takes_back_one(browser: Any, server: str) -> None:
    """A double tap on "Undo the last change", answered between its taps: the Undo drawn anew takes back the change
    before, and the second tap took back the tower as well as the floor. It is not taken, and said at the Undo."""
    context, page = at_anas_part(browser, server)
    tap(page, "Towers: add 5")
    tap(page, "Donjon floors: one more")
    second_tap_after_the_answer(page, page.get_by_role("button", name="Undo the last change to Ana's part"))
    page.wait_for_timeout(300)
    page.wait_for_function("() => !document.body.classList.contains('sending')")
    assert "Undo the last change" in page.locator("#undo-0 .tap-note").inner_text()
    page.reload()
    assert page.locator("#in-sheets_0__donjon_floors").input_value() == "0"
    assert [chip.replace("×", "").strip() for chip in page.locator("#form-0 .chip").all_inner_texts()] == ["5"]
    context.close()


def test_a_double_tap_on_everything_built_answered_between_its_taps_leaves_it_built(browser: Any,
                                                                                    server: str) -> None:
    """Guédelon's "Everything built", double tapped, the first tap answered before the second: the button drawn
    anew takes everything down again, and the second tap did, the castle back to no tile built. It is not taken."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    page = context.new_page()
    open_table(page, server, "guedelon", ["Ana", "Ben"], events="easy")
    second_tap_after_the_answer(page, page.get_by_role("button", name="Everything built"))
    page.wait_for_timeout(300)
    page.wait_for_function("() => !document.body.classList.contains('sending')")
    page.reload()
    assert page.get_by_role("button", name="Everything built").get_attribute("aria-pressed") == "true"
    assert page.locator("button.tile[aria-pressed=true]").count() == page.locator("button.tile").count()
    context.close()


def test_a_double_tap_on_a_count_answered_between_its_taps_counts_two(browser: Any, server: str) -> None:
    """The second tap of a double tap is weighed by what the control does, not by its element: a count's "+" drawn
    anew by the first tap's answer is the same "+", and a player who double taps it for two more floors gets two."""
    context, page = at_anas_part(browser, server)
    second_tap_after_the_answer(page, page.get_by_label("Donjon floors: one more", exact=True))
    page.wait_for_function("() => !document.body.classList.contains('sending')")
    page.wait_for_timeout(200)
    assert page.locator(".tap-note").count() == 0
    page.reload()
    assert page.locator("#in-sheets_0__donjon_floors").input_value() == "2"
    context.close()


def test_a_double_tap_on_a_value_to_add_adds_it_twice(browser: Any, server: str) -> None:
    """A double tap on "+5" of the towers, for two towers of 5: the first tap drew its chip where "none yet" was, a
    row taller, which moved "+5" down from under the finger; the second tap landed beside it, on nothing, and was
    lost without a word. The list is as tall empty as with a chip: both taps land on "+5", and count."""
    context, page = at_anas_part(browser, server)
    page.get_by_label("Towers: add 5", exact=True).dblclick()
    page.wait_for_timeout(300)
    page.wait_for_function("() => !document.body.classList.contains('sending')")
    page.reload()
    assert [chip.replace("×", "").strip() for chip in page.locator("#form-0 .chip").all_inner_texts()] == ["5", "5"]
    context.close()


def test_the_second_tap_of_a_double_tap_landed_on_nothing_is_said_at_its_control(browser: Any, server: str) -> None:
    """A double tap whose first tap moved its control from under the finger (a list of towers grown by a row) lands
    its second tap on nothing: it was lost without a word. The page says at the control that it was not taken."""
    context, page = at_anas_part(browser, server)
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.post_data or "") if request.url.endswith("/edit") else None)
    page.evaluate("""() => {
        const plus = document.querySelector('[aria-label="Towers: add 5"]');
        const around = plus.closest('fieldset');
        plus.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, detail: 1}));
        around.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, detail: 2}));
    }""")
    note = page.locator("#form-0 .tap-note")
    assert "Towers: add 5" in note.inner_text() and "not taken" in note.inner_text()
    page.wait_for_function("() => !document.body.classList.contains('sending')")
    assert len(sent) == 1, sent
    tap(page, "Towers: add 5")  # meant: tapped again, taken, and the note said is gone with it
    assert len(sent) == 2 and page.locator(".tap-note").count() == 0
    context.close()


def test_a_refusal_at_a_control_starts_as_a_sentence(browser: Any, server: str) -> None:
    """A tap refused at its control, the game saved meanwhile by another phone, said "this game is saved; its table
    can no longer change" (in French "cette partie est enregistrée ; …"), lower case, alone at the top of the
    control: the message is a fragment because the page's script says it inside a sentence too (a kept tap
    refused). Alone, it starts with a capital; its text is left as it is."""
    context, page = at_anas_part(browser, server)
    table = page.url.rsplit("/seats/", 1)[0]
    for _ in range(4):
        tap(page, "Donjon floors: one more")
    for _ in range(4):
        tap(page, "Towers: add 5")
    for _ in range(4):
        with page.expect_response(re.compile(r"/edit$")):
            page.get_by_role("button", name="Add wall").click()
        drawn(page)
    with page.expect_response(re.compile(r"/edit$")):
        page.get_by_role("button", name="End cloud (12th part first)").click()
    drawn(page)
    cookies = {c["name"]: c["value"] for c in context.cookies()}
    saved = httpx.post(f"{table}/save", data={"confirm": "yes"}, cookies=cookies,
                       headers={"sec-fetch-site": "same-origin"})
    assert saved.status_code == 303
    with page.expect_response(lambda r: r.url.endswith("/edit") and r.status >= 400):
        page.get_by_label("Donjon floors: one less", exact=True).click()
    said = page.locator("#ctl-msg-sheets_0__donjon_floors .violation[role=alert]")
    assert said.inner_text().startswith("This game is saved;")  # as rendered
    assert said.text_content().strip().startswith("this game is saved;")  # the fragment app.js reads (reasonOf)
    said.screenshot(path=str(SHOTS / "refusal-at-a-control.png"))
    context.close()


def test_a_double_tap_on_undo_takes_back_one_change(browser: Any, server: str) -> None:
    """A fast double tap on "Undo the last change" sent two undos before the page was redrawn: the floor just
    added and the tower before it were both taken back. Each undo names the change it takes back: the second finds
    it already undone, takes back nothing more and says so."""
    context, page = at_anas_part(browser, server)
    tap(page, "Towers: add 5")
    tap(page, "Donjon floors: one more")
    with page.expect_response(lambda r: r.url.endswith("/edit") and r.status == 422):
        with first_answer_held(page):
            page.get_by_role("button", name="Undo the last change to Ana's part").dblclick()
    page.get_by_role("alert").filter(has_text="already taken back").wait_for()
    page.reload()
    assert page.locator("#in-sheets_0__donjon_floors").input_value() == "0"
    assert [chip.replace("×", "").strip() for chip in page.locator("#form-0 .chip").all_inner_texts()] == ["5"]
    context.close()


def test_a_long_name_without_a_space_stays_inside_a_phone(browser: Any, server: str) -> None:
    """A name of 40 letters without a space (the most a name may have) made the table page 679 px wide and the
    player's page 1031 px on a 360 px phone (its seat button, the sticky totals strip, the page's title, "Not ...?
    Correct the name" did not break it), the home page's list of tables, the history and the game's page too: the
    phone showed the whole page shrunk to fit. Every page stays as wide as the phone."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    page = context.new_page()
    open_table(page, server, "guildhall", ["W" * 40, "Ana"], vp_set="old-world-economy")
    table = page.url
    for url in (table, table + "/seats/0", table + "/seats/1", server + "/"):
        page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, url
    page.goto(table + "/seats/0")
    for value in ("9", "7", "5"):
        tap(page, f"VP cards bought: add {value}")
    # now with "Undo the last change to WWW...W's part" (it made the page 693 px wide)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "a seat with its undo button"
    page.goto(table)
    page.get_by_role("button", name="Save this game").click()
    page.get_by_role("button", name="Save anyway").click()
    page.wait_for_url(re.compile(r"/history/games/\d+$"))
    game = page.url
    for url in (game, game + "/print", server + "/history"):
        page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, url
    context.close()


def test_marks_tapped_on_a_check_page_survive_a_send_without_wifi(browser: Any, server: str, tmp_path: Path) -> None:
    """The check page of a photo holds the marks the player tapped until they are sent: "See what my marks say"
    tapped without Wi-Fi fails, and the back button shows the page as the player left it (the browser keeps it),
    the mark still tapped, not the page asked again (which cannot come without Wi-Fi, and would forget the tap)."""
    pytest.importorskip("cv2")
    from tests.scan.helpers import GREAT, filled, photograph

    photo = tmp_path / "ana.jpg"
    photo.write_bytes(photograph(filled("great-architect", "a4", GREAT)))
    context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
    page = context.new_page()
    open_table(page, server, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    page.get_by_role("link", name=part_of("Ana")).click()
    page.set_input_files("#sheet-photo", str(photo))
    page.get_by_role("button", name="Read the photo").click(timeout=READ_MS)
    page.wait_for_url(re.compile(r"/photo$"), timeout=READ_MS)
    mark = page.locator(".mark input[type=checkbox]").nth(3)
    tapped = not mark.is_checked()
    mark.click(force=True)  # the label over the straightened photo takes the tap
    assert mark.is_checked() == tapped
    context.set_offline(True)
    page.get_by_role("button", name="See what my marks say").first.click()
    page.wait_for_url(re.compile(r"^chrome-error:"))
    page.go_back()
    assert page.url.endswith("/photo")
    from playwright.sync_api import expect

    # Chromium fills a page's form in again after its load event, where go_back returns (seen: the mark still
    # unticked at "load", ticked a moment later; read at once, it failed now and then in a full run): the mark is
    # waited for as the player sees it, and never coming back fails as before
    expect(page.locator(".mark input[type=checkbox]").nth(3)).to_be_checked(checked=tapped)
    context.close()



def test_the_names_typed_for_a_new_game_come_back_with_the_back_button(browser: Any, server: str) -> None:
    """The new game's names typed, "Open the table" tapped without Wi-Fi: the back button showed the form with its
    names empty (they were typed with `autocomplete="off"`, which tells the browser not to keep what was typed when
    it goes back), though the page is kept for that (app.FORM_PAGES). They come back as they were left, after a
    send that failed and after one that opened the table."""
    for offline in (True, False):
        context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
        page = context.new_page()
        page.goto(f"{server}/")
        page.get_by_role("link", name=re.compile("Guildhall")).click()
        page.fill("#name-0", "Ana")
        page.fill("#name-1", "Ben")
        context.set_offline(offline)
        page.get_by_role("button", name="Open the table").click()
        page.wait_for_url(re.compile(r"^chrome-error:" if offline else r"/tables/\d+$"))
        page.go_back()
        assert page.url.endswith("/new/guildhall")
        from playwright.sync_api import expect

        # filled in again after the load event go_back waits for (see the marks' test above): waited for as seen
        for field, name in (("#name-0", "Ana"), ("#name-1", "Ben")):
            expect(page.locator(field), f"offline: {offline}").to_have_value(name)
        context.close()


def test_a_number_being_typed_is_sent_though_another_phone_changed_the_form(browser: Any, server: str) -> None:
    """Guédelon's castle is one form for the whole table: Ana was typing the rounds (the field focused) when Ben
    tapped a tile; drawing Ben's change in took her field out of the page and back, which sent what she had typed
    so far (the 2 of 25) and left the field without its focus, the rest of her typing going nowhere. The field keeps
    its focus, nothing is sent mid-typing, and her number is sent when she leaves it."""
    phones = [browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True) for _ in range(2)]
    ana, ben = (phone.new_page() for phone in phones)
    open_table(ana, server, "guedelon", ["Ana", "Ben"], events="easy")
    ben.goto(ana.url)
    ana.locator("#in-rounds").fill("2")  # the first digit typed, the field still focused
    tap(ben, "Building A: A0")
    ana.wait_for_function("() => document.querySelector('#live-state').dataset.version !== '1'", timeout=SETTLED_MS)
    ana.wait_for_timeout(300)  # what the swap might have sent
    assert ana.evaluate("document.activeElement.id") == "in-rounds"
    assert ana.evaluate("document.querySelector('#live-state').dataset.version") == "2"  # Ben's tap, nothing of Ana's
    ana.keyboard.type("5")
    with ana.expect_response(re.compile(r"/edit$")):
        ana.locator("#in-rounds").blur()
    for phone in (ana, ben):
        phone.reload()
        assert phone.locator("#in-rounds").input_value() == "25"
        assert phone.get_by_label("Building A: A0", exact=True).get_attribute("aria-pressed") == "true"
    for phone in phones:
        phone.close()


def test_two_phones_typing_one_number_are_told(browser: Any, server: str) -> None:
    """Two phones on one part (a player's and the host's) type its donjon floors at once: the second sent replaced
    the first, with nothing said on either phone. A number typed is sent with the number the field showed before:
    the companion keeps the first, and the second phone is told, at the field, what it holds and that its own
    number was not kept."""
    phones = [browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True) for _ in range(2)]
    ana, host = (phone.new_page() for phone in phones)
    open_table(ana, server, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    host.goto(ana.url + "/seats/0")
    ana.goto(ana.url + "/seats/0")
    floors = "#in-sheets_0__donjon_floors"
    host.locator(floors).fill("2")  # typed, not yet sent (the field still has the focus)
    ana.locator(floors).fill("3")
    with ana.expect_response(re.compile(r"/edit$")):
        ana.locator(floors).blur()
    host.wait_for_function("() => document.querySelector('#live-state').dataset.version !== '1'", timeout=SETTLED_MS)
    with host.expect_response(lambda r: r.url.endswith("/edit")) as answer:
        host.locator(floors).blur()
    assert answer.value.status == 422
    host.get_by_role("alert").filter(has_text="your 2 was not kept").wait_for()
    assert host.locator(floors).input_value() == "3"
    for phone in (ana, host):
        phone.reload()
        assert phone.locator(floors).input_value() == "3"
    for phone in phones:
        phone.close()


def test_taps_on_a_count_without_wifi_show_and_arrive(browser: Any, server: str) -> None:
    """Without Wi-Fi a tap on "+" was kept, but the field still showed 0: a player tapped again, and the number
    typed after it was sent as changed from 0, which the companion (then at 1) took for another phone's change and
    refused. The field shows each tap kept, and the taps and the number typed arrive as made."""
    context, page = at_anas_part(browser, server)
    floors, clouds = "#in-sheets_0__donjon_floors", "#in-sheets_0__sky_clouds"
    context.route("**/edit", lambda route: route.abort())
    for _ in range(2):
        page.get_by_label("Donjon floors: one more", exact=True).click()
    page.get_by_label("Sky clouds: one more", exact=True).click()
    assert page.locator(floors).input_value() == "2"
    page.locator(clouds).fill("5")
    page.locator(clouds).blur()
    page.get_by_text("4 changes are not saved yet").wait_for()
    context.unroute("**/edit")
    page.wait_for_function("() => !document.body.classList.contains('sending')"
                           " && localStorage.getItem('donjon-pending-1') === '[]'", timeout=SETTLED_MS)
    page.reload()
    assert page.locator(floors).input_value() == "2" and page.locator(clouds).input_value() == "5"
    context.close()


def test_values_tapped_without_wifi_show_in_their_list_and_arrive(browser: Any, server: str) -> None:
    """Without Wi-Fi a tap on "+9" of the VP cards bought was kept, but the list still said "none yet" (the "+" of a
    count showed at once, not a value added to a list): a player tapped +9 again, and the game got two 9s once the
    Wi-Fi was back. Each value kept shows in the list at once, marked as not saved (it cannot be taken away before
    the companion has it), and the taps arrive as made."""
    context, page, _ = anas_phone(browser, server)
    chips = page.locator("#ctl-msg-players_0__vp_cards .chips")
    context.route("**/edit", lambda route: route.abort())
    page.get_by_label("VP cards bought: add 9", exact=True).click()
    page.get_by_label("VP cards bought: add 7", exact=True).click()
    page.get_by_text("2 changes are not saved yet").wait_for()
    assert chips.locator(".chip").all_inner_texts() == ["9", "7"]
    assert chips.get_by_text("none yet").count() == 0
    assert chips.locator(".chip.pending").count() == 2
    assert chips.locator(".chip:not([disabled])").count() == 0  # no × for a value the companion has not got
    shot(page, "vp-cards-kept-offline")
    context.unroute("**/edit")
    page.wait_for_function("() => !document.body.classList.contains('sending')"
                           " && localStorage.getItem('donjon-pending-1') === '[]'", timeout=SETTLED_MS)
    assert [text.split()[0] for text in chips.locator(".chip").all_inner_texts()] == ["9", "7"]
    assert chips.locator(".chip.pending").count() == 0
    assert totals(page) == {"Ana": "16", "Ben": "0"}
    page.reload()
    assert totals(page) == {"Ana": "16", "Ben": "0"}
    context.close()


def test_taps_made_while_an_answer_travels_stay_shown_when_it_comes(browser: Any, server: str) -> None:
    """"+9" tapped, and while its answer was on its way "+7" and a token's "+": the answer to "+9" drew the list and
    the count as the companion had them, and the "7" and the token vanished; the Wi-Fi gone before they were sent,
    the bottom said "2 changes are not saved yet" with nothing showing which, and a player tapped +7 again (two 7s
    once sent). The taps still kept stay shown, faded, over that answer, and arrive once."""
    context, page, table = anas_phone(browser, server)
    kept = "donjon-pending-" + table.rsplit("/", 1)[1]
    chips = page.locator("#ctl-msg-players_0__vp_cards .chips")
    held: list[Any] = []
    cut = {"wifi": False}

    def edits(route: Any) -> None:  # the first tap's answer held on its way; once it came, the Wi-Fi is gone
        if cut["wifi"]:
            route.abort()
        else:
            held.append(route)

    context.route("**/edit", edits)
    page.get_by_label("VP cards bought: add 9", exact=True).click()
    page.wait_for_function("() => document.body.classList.contains('sending')")
    page.get_by_label("VP cards bought: add 7", exact=True).click()
    page.get_by_label("VP tokens: one more", exact=True).click()
    assert chips.locator(".chip").all_inner_texts() == ["9", "7"]
    until(page, lambda: bool(held), "the first tap was not sent")  # 200 ms were waited: not always enough
    page.wait_for_timeout(200)  # time for a tap sent beside it, which the page must not do
    assert len(held) == 1
    cut["wifi"] = True
    held[0].continue_()
    page.get_by_text("2 changes are not saved yet").wait_for()
    page.wait_for_timeout(100)
    assert [text.split()[0] for text in chips.locator(".chip").all_inner_texts()] == ["9", "7"]
    assert chips.locator(".chip.pending").all_inner_texts() == ["7"]
    assert page.get_by_label("VP tokens", exact=True).input_value() == "1"
    shot(page, "taps-made-while-an-answer-travels")
    context.unroute("**/edit")
    page.wait_for_function("(kept) => !document.body.classList.contains('sending')"
                           " && localStorage.getItem(kept) === '[]'", arg=kept, timeout=SETTLED_MS)
    page.reload()
    assert [text.split()[0] for text in chips.locator(".chip").all_inner_texts()] == ["9", "7"]
    assert totals(page) == {"Ana": "17", "Ben": "0"}
    context.close()


def test_the_words_on_what_is_not_saved_hide_nothing_at_the_bottom_of_the_page(browser: Any, server: str) -> None:
    """The words on a tap kept without Wi-Fi sit fixed at the bottom of the screen, a quarter of a phone's height:
    scrolled to the end, the page's last lines, the running totals and Save, stayed under them, out of reach. The
    page ends above them."""
    context, page, _ = anas_phone(browser, server)
    for value in ("9", "7", "5"):
        tap(page, f"VP cards bought: add {value}")
    context.route("**/edit", lambda route: route.abort())
    page.get_by_label("VP tokens: one more", exact=True).click()
    page.get_by_text("1 change is not saved yet").wait_for()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(100)
    shot(page, "kept-tap-page-end")
    # what the words offer is what they say: the changes kept can be discarded; "Close this message" is for a
    # refusal held until read (a button's own display showed it, and any button marked hidden, whatever was said)
    assert page.locator("#discard").is_visible() and page.locator("#dismiss").is_hidden()
    banner = page.locator("#connection").bounding_box()
    save = page.get_by_role("button", name="Save this game").bounding_box()
    assert banner and save and save["y"] + save["height"] <= banner["y"], (save, banner)
    context.unroute("**/edit")
    page.wait_for_function("() => document.getElementById('connection').hidden", timeout=SETTLED_MS)
    assert page.evaluate("document.body.style.paddingBottom") == ""
    context.close()


def test_save_waits_for_the_taps_kept_on_the_phone(browser: Any, server: str) -> None:
    """A tap kept on the phone (the Wi-Fi gone a moment, the tap to be sent again a few seconds later) and Save
    tapped on that phone meanwhile: the game was saved without the tap, which was then refused ("this game is
    saved"), a wrong score kept in the history. Save sends the taps kept first, and saves once they are in; while
    they cannot be sent, it does not save (the page says what is not saved)."""
    context, page, table = anas_phone(browser, server)
    for value in ("9", "7", "5"):
        tap(page, f"VP cards bought: add {value}")
    page.goto(table + "/seats/1")
    tap(page, "VP tokens: one more")  # Ben entered something: Save asks nothing
    page.goto(table + "/seats/0")
    context.route("**/edit", lambda route: route.abort())
    page.get_by_label("VP tokens: one more", exact=True).click()
    page.get_by_text("1 change is not saved yet").wait_for()
    saves: list[str] = []
    page.on("request", lambda request: saves.append(request.method) if request.url.endswith("/save") else None)
    page.get_by_role("button", name="Save this game").click()  # the tap cannot be sent: no save
    page.wait_for_timeout(1500)
    # no save sent, not only none arrived: a loaded machine's companion could take longer than the wait to answer one
    assert saves == [] and re.search(r"/seats/0$", page.url), (saves, page.url)
    context.unroute("**/edit")
    page.get_by_role("button", name="Save this game").click()  # sent before its retry is due, then saved
    page.wait_for_url(re.compile(r"/history/games/\d+$"))
    game = httpx.get(page.url.replace("/history/games/", "/api/games/"), timeout=30).json()
    assert {p["name"]: p["score"] for p in game["players"]} == {"Ana": 22, "Ben": 1}
    context.close()


def test_a_wall_added_without_wifi_shows_and_arrives_once(browser: Any, server: str) -> None:
    """Without Wi-Fi "Add wall" was kept, but no wall appeared: a player tapped it again, and the castle got two
    walls once the Wi-Fi was back. The wall kept shows at once, named as it will be and marked as not saved."""
    context, page = at_anas_part(browser, server)
    context.route("**/edit", lambda route: route.abort())
    page.get_by_role("button", name="Add wall").click()
    page.get_by_text("1 change is not saved yet").wait_for()
    walls = page.locator("#ctl-msg-sheets_0__walls .record")
    assert walls.count() == 1 and walls.first.inner_text().strip() == "Wall 1"
    assert page.locator("#ctl-msg-sheets_0__walls .record.pending").count() == 1
    context.unroute("**/edit")
    page.wait_for_function("() => !document.body.classList.contains('sending')"
                           " && localStorage.getItem('donjon-pending-1') === '[]'", timeout=SETTLED_MS)
    page.reload()
    assert walls.count() == 1 and page.locator(".record.pending").count() == 0
    assert page.get_by_role("button", name="Remove wall 1").count() == 1
    context.close()



def test_an_answer_cut_in_the_middle_does_not_stop_the_taps_after_it(browser: Any, server: str) -> None:
    """The companion stopped (killed, a laptop's lid shut) in the middle of answering a tap: the page's reading of
    the answer failed ("Failed to fetch", seen killing the companion under three phones), and the taps kept after it
    were never sent, nor the page's updates asked (they wait for the taps), until the player tapped again. The taps
    after it are sent on their own. The answer's body breaking off is the browser's failure to read it, made here
    in the page (a route cannot cut a body in the middle)."""
    context, page = at_anas_part(browser, server)
    page.add_init_script("""(() => { let cut = true; const read = Response.prototype.text;
        Response.prototype.text = function () {
          if (cut && this.url.endsWith("/edit")) { cut = false; return Promise.reject(new TypeError("Failed to fetch")); }
          return read.call(this); }; })();""")
    page.reload()
    # two taps at once: the second is kept while the first is sent
    page.evaluate("""() => { for (const label of ["Donjon floors: one more", "Sky clouds: one more"])
        document.querySelector(`button[aria-label="${label}"]`).click(); }""")
    page.wait_for_function("() => localStorage.getItem('donjon-pending-1') === '[]'", timeout=SETTLED_MS)
    page.reload()
    assert page.locator("#in-sheets_0__donjon_floors").input_value() == "1"
    assert page.locator("#in-sheets_0__sky_clouds").input_value() == "1"
    context.close()


def test_an_answer_that_stalls_in_the_middle_does_not_hold_the_taps_after_it(browser: Any, server: str) -> None:
    """The companion said a tap's status, then its page stopped coming (a Wi-Fi that drops mid-answer, a laptop
    going to sleep): the page's timer covered the request but not the reading of the answer, so it waited for the
    rest forever, and every tap after it stayed on the phone, unsent, with nothing said. After EDIT_TIMEOUT_MS the
    page gives up on that answer as on one that never came: it says so, sends the tap again (counted once, by its
    key), then the taps after it. The stall is made in the page, as in the test above: the first answer's body never
    ends."""
    context, page = at_anas_part(browser, server)
    page.add_init_script("""(() => { let stall = true; const read = Response.prototype.text;
        Response.prototype.text = function () {
          if (stall && this.url.endsWith("/edit")) { stall = false; return new Promise(() => {}); }
          return read.call(this); }; })();""")
    page.reload()
    page.evaluate("""() => { for (const label of ["Donjon floors: one more", "Sky clouds: one more"])
        document.querySelector(`button[aria-label="${label}"]`).click(); }""")
    banner = page.locator("#connection")
    banner.wait_for(state="visible", timeout=EDIT_TIMEOUT_MS + SETTLED_MS)
    assert "cannot be reached" in banner.inner_text()
    page.wait_for_function("() => localStorage.getItem('donjon-pending-1') === '[]'", timeout=SETTLED_MS)
    banner.wait_for(state="hidden")
    page.reload()
    assert page.locator("#in-sheets_0__donjon_floors").input_value() == "1"  # applied once, though sent twice
    assert page.locator("#in-sheets_0__sky_clouds").input_value() == "1"
    context.close()


def test_a_tap_whose_answer_never_comes_is_said_and_sent_again(browser: Any, server: str) -> None:
    """Weak Wi-Fi at a table: the phone is connected but its request goes nowhere, and no error comes (a browser
    waits minutes for one). The tap was kept, but nothing said so, and the taps after it and the other phones'
    changes waited behind it. After EDIT_TIMEOUT_MS the page says the companion cannot be reached and that the tap
    is kept, sends it again, and it counts once."""
    context, page = at_anas_part(browser, server)
    held: list[Any] = []

    def first_goes_nowhere(route: Any) -> None:
        if not held:
            held.append(route)  # never answered, never refused: as a request lost on the way
        else:
            route.continue_()

    page.route(re.compile(r"/edit$"), first_goes_nowhere)
    page.get_by_label("Donjon floors: one more", exact=True).click()
    banner = page.locator("#connection")
    banner.wait_for(state="visible", timeout=EDIT_TIMEOUT_MS + SETTLED_MS)
    said = banner.inner_text()
    assert "cannot be reached" in said and "1 change is not saved yet" in said, said
    shot(page, "tap-lost-on-the-way-390")
    page.wait_for_function("() => localStorage.getItem('donjon-pending-1') === '[]'", timeout=SETTLED_MS)
    banner.wait_for(state="hidden")
    page.reload()
    assert page.locator("#in-sheets_0__donjon_floors").input_value() == "1"
    context.close()


@pytest.mark.parametrize(("width", "height", "language", "label", "button", "counted"),
                         [(390, 844, "en", "Player", "Search", "1 game"),
                          (360, 740, "fr", "Joueur", "Chercher", "1 partie")])
def test_a_name_typed_in_the_history_search_finds_the_game(browser: Any, server: str, width: int, height: int,
                                                           language: str, label: str, button: str,
                                                           counted: str) -> None:
    """On a phone (390 x 844, and 360 x 740 in French) the history's search: a part of a name typed, Search tapped,
    the player's games listed and no other, and how many it found said on the screen the player sees without
    scrolling; the page stays as wide as the phone and axe finds nothing serious."""
    import copy
    import json

    import httpx

    from tests.web.conftest import example

    for names, day in ((["Ana", "Ben"], "2026-03-01"), (["Zoé", "Ben"], "2026-03-02"),
                       (["Cleo", "Ben"], "2026-03-03")):
        state = copy.deepcopy(example("guildhall"))
        state["players"] = state["players"][:2]
        for player, name in zip(state["players"], names, strict=True):
            player["name"] = name
        state["ended_by"] = names[0]
        saved = httpx.post(f"{server}/api/games", content=json.dumps({"end_state": state, "played_at": day}),
                           headers={"content-type": "application/json", "origin": server})
        assert saved.status_code in (200, 201), saved.text
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True,
                                  locale=language)
    page = context.new_page()
    page.goto(f"{server}/history")
    assert page.locator("ul.games-list > li").count() == 3
    page.get_by_label(label).fill("zoe")
    page.get_by_role("button", name=button).click()
    page.wait_for_url(re.compile(r"/history\?name=zoe"))
    found = page.locator("ul.games-list > li")
    assert found.count() == 1 and "Zoé" in found.inner_text()
    assert page.get_by_label(label).input_value() == "zoe"
    count = page.locator("p.found")
    assert " ".join(count.inner_text().split()) == counted
    box = count.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height, f"the count is below the screen: {box}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    accessible(page, f"the history searched at {width} px")
    shot(page, f"history-search-{width}")
    context.close()


#: A player's name of 40 letters (the most a name may have), with and without spaces.
LONG_NAMES = ("Wolfeschlegelsteinhausenbergerdorffvoral", "Maria Magdalena von Hohenzollern-Sigmarin")


def test_the_totals_strip_stays_one_line_with_a_40_letter_name(browser: Any, server: str) -> None:
    """The running totals kept at the top of a phone's screen (`#mini`, 390 x 844) grew three lines tall with a
    40-letter name: it stays one line, a long name cut short with an ellipsis (the whole of it still in the
    link's text, read by a screen reader, and on the totals it links to), the leader first and named, and every
    player's total shown whole."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    names = [LONG_NAMES[0], LONG_NAMES[1][:40], "Ana"]
    open_table(page, server, "guildhall", names, vp_set="old-world-economy")
    page.get_by_role("link", name=part_of(names[0])).click()
    page.wait_for_url(re.compile(r"/seats/0$"))
    for value in ("9", "7"):  # the longest name leads
        tap(page, f"VP cards bought: add {value}")
    page.evaluate("window.scrollTo(0, 600)")  # the strip stays at the top of the screen while the form scrolls
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "totals-strip-long-name-390.png"))  # the screen: where the strip is kept
    strip = page.evaluate("""() => {
        const mini = document.getElementById('mini'), box = mini.getBoundingClientRect(),
              style = getComputedStyle(mini);
        const inner = box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)
                      - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
        const links = Array.from(mini.querySelectorAll('a')).map(a => {
            const name = a.querySelector('strong'), r = a.getBoundingClientRect(), n = name.getBoundingClientRect();
            const score = (a.querySelector('.total') || a).getBoundingClientRect();  // before: no span
            return {text: a.textContent.trim(), top: r.top, nameWidth: n.width, nameShown: n.right <= box.right + 0.5,
                    whole: name.scrollWidth <= name.clientWidth,
                    score: [score.left, score.right, score.width]};
        });
        return {inner, fontSize: parseFloat(style.fontSize), top: box.top, left: box.left, right: box.right, links};
    }""")
    assert strip["inner"] < 2 * strip["fontSize"], f"more than one line: {strip}"  # one line is ~1.5 em tall
    assert abs(strip["top"]) <= 1, strip  # still kept at the top of the screen
    leader = strip["links"][0]
    assert leader["text"].startswith(names[0]), strip  # the whole name in the text, the leader first
    assert leader["nameShown"] and leader["nameWidth"] >= 3 * strip["fontSize"], strip  # named, if cut short
    assert [link["whole"] for link in strip["links"] if link["text"].startswith("Ana ")] == [True], strip  # short
    for link in strip["links"]:
        left, right, width = link["score"]
        assert width > 0 and left >= strip["left"] and right <= strip["right"], f"a total not shown whole: {strip}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_a_players_charts_stay_inside_a_phone_after_a_thousand_games(browser: Any, tmp_path: Path) -> None:
    """A history of a few thousand games: Ana's page at 320, 360 and 390 px in English, French and German. The wins
    per game bar was followed by its "won/played" and drawn to the chart's right edge, with room for five
    characters: "231/754" came out "231/75", and "1000/1000" worse. Every word of the charts stays inside them, and
    the page inside the phone (in French its table's heads made it 399 px wide at 360)."""
    import copy
    import datetime
    import itertools
    import json

    from starlette.testclient import TestClient

    from generator.web import store
    from generator.web.app import create_app
    from generator.web.db import Database
    from generator.web.games import Games
    from tests.web.conftest import example

    path = tmp_path / "db.sqlite3"
    db = Database(path)
    with TestClient(create_app(db, Games()), base_url="http://127.0.0.1") as client:
        state = copy.deepcopy(example("guildhall"))
        answer = client.post("/api/games", content=json.dumps({"end_state": state, "played_at": "2024-01-01 20:00"}),
                             headers={"content-type": "application/json"})
        assert answer.status_code in (200, 201), answer.text
    saved: Any = db.read(lambda c: store.get_game(c, int(answer.json()["id"])))
    ana = saved["result"]["players"][0]["name"]

    def many(conn: Any) -> None:  # the same game again and again: Ana wins it each time or never
        for hour in range(1, 1000):
            played = datetime.datetime(2024, 1, 1, 20) + datetime.timedelta(hours=hour)
            store.save_game(conn, "guildhall", saved["end_state"], saved["result"], played_at=f"{played:%Y-%m-%d %H:%M:%S}")

    db.write(many)
    db.close()
    with serving("--db", str(path)) as (_, url):
        wait_ready(url)
        for (width, height), (language, games) in itertools.product(
                ((320, 640), (360, 740), (390, 844)), (("en", "1,000 games"), ("fr", "1 000 parties"),
                                                       ("de", "1.000 Partien"))):
            context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True,
                                          is_mobile=True, locale=language)
            page = context.new_page()
            page.goto(f"{url.rstrip('/')}/history/players/{ana}")
            assert games in page.locator("main").inner_text().replace("\u202f", " ")
            outside = page.evaluate("""() => [...document.querySelectorAll("svg.chart text")].filter(t => {
                const box = t.getBBox(), view = t.ownerSVGElement.viewBox.baseVal;
                return box.x < view.x || box.x + box.width > view.x + view.width; }).map(t => t.textContent)""")
            assert not outside, f"at {width} px these words leave their chart: {outside}"
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{language} at {width} px: the page is {wide} px wide"
            context.close()


def test_two_phones_correcting_one_name_are_told(browser: Any, server: str) -> None:
    """Two phones on Ana's part correct her name at once (Ana herself to "Anna", Ben from his phone to "Annie"):
    the second was written over the first, nothing said. The second is refused in words, with the name the seat
    now has, and the first stays."""
    context, anas = at_anas_part(browser, server)
    bens_phone = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    bens = bens_phone.new_page()
    bens.goto(anas.url)  # both pages show "Ana"
    for page, name in ((anas, "Anna"), (bens, "Annie")):
        page.get_by_text("Not Ana? Correct the name").click()
        page.get_by_label("Who took this seat").fill(name)
    # the page the form's answer loads, waited for: a click can return before its navigation is seen (under load),
    # and the page's load state then is the old page's, whose h1 still says "Ana"
    with anas.expect_navigation():
        anas.get_by_role("button", name="Keep this name").click()
    assert anas.locator("h1").inner_text().startswith("Anna")
    with bens.expect_navigation():
        bens.get_by_role("button", name="Keep this name").click()
    assert not bens.locator("h1").inner_text().startswith("Annie"), "Ben's correction was written over Anna"
    said = bens.get_by_role("alert").filter(has_text="another phone").inner_text()
    assert "Anna" in said and "Annie" in said, said
    assert bens.get_by_label("Who took this seat").input_value() == "Anna"  # what the seat is now called
    # said where Ben looks: the page opens at the field (at the bottom of a long part), not at its top
    alert = bens.get_by_role("alert").filter(has_text="another phone").bounding_box()
    assert alert is not None and 0 <= alert["y"] and alert["y"] + alert["height"] <= 740, alert
    shot(bens, "name-corrected-on-two-phones-360")
    anas.reload()
    assert anas.locator("h1").inner_text().startswith("Anna")
    context.close()
    bens_phone.close()


def test_the_same_players_again_from_the_back_button_open_a_new_table(browser: Any, server: str) -> None:
    """A game saved, the phone goes back twice to the new game's form (its page kept by the browser, with the key it
    was drawn with), the same players typed again for another game: the form landed on the table just saved ("Saved:
    see the game"), where nothing can be entered, taken for that form sent twice. A double tap or a resend comes
    before a game is played and saved: a saved table is never what a form lands on, it opens a new table."""
    page = browser.new_page(viewport=VIEWPORTS["phone"])
    open_table(page, server, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy")
    first = page.url
    for seat, value in (("0", "9"), ("0", "7"), ("0", "5"), ("1", "3")):  # the other phones' taps
        httpx.post(f"{first}/edit", headers={"sec-fetch-site": "same-origin"},
                   data={"seat": seat, "shown": seat, "op": "append", "path": "vp_cards", "value": value})
    page.reload()
    page.get_by_text("Ana wins.").wait_for()
    page.get_by_role("button", name="Save this game").click()
    page.wait_for_url(re.compile(r"/history/games/\d+$"))
    while not page.url.endswith("/new/guildhall"):
        page.go_back(wait_until="load")
    for index, name in enumerate(["Ana", "Ben"]):
        page.fill(f"#name-{index}", name)
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+$"))
    assert page.url != first, "the players' new game landed on the table saved"
    assert page.get_by_text("Saved:").count() == 0
    assert totals(page) == {"Ana": "0", "Ben": "0"}
    page.close()


def anas_phone(browser: Any, server: str) -> tuple[Any, Any, str]:
    """A phone of its own (a browser context, whose Wi-Fi a test can cut) that opens a Guildhall table for Ana and Ben
    and goes to Ana's seat: the context, the page and the table's address."""
    context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
    page = context.new_page()
    open_table(page, server, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy")
    table = page.url
    page.get_by_role("link", name=part_of("Ana")).click()
    page.wait_for_url(re.compile(r"/seats/0$"))
    return context, page, table


def tap_kept_offline(context: Any, page: Any, label: str) -> None:
    """A phone without Wi-Fi taps `label` (the tap is kept on the phone, and the page says so), then its app is put
    away (the page closed): the tap waits on the phone for the next page to send it once the Wi-Fi is back, which the
    test says (`context.set_offline(False)`). Not here: a page closing as the Wi-Fi came back could still send its tap
    (seen once in a full run: a save made "meanwhile" then met that tap, and was refused as changed while saving)."""
    context.set_offline(True)
    tap_kept(page, label)


def tap_kept(page: Any, label: str) -> None:
    """A phone already without Wi-Fi taps `label`, and its app is put away (see tap_kept_offline).

    A test of a tap refused because another phone saved the game saves it before this tap, not between the tap and
    the Wi-Fi's return: Chromium's offline switch does not stop every request (measured: 1 or 2 taps of 25, made
    offline and kept on the phone, reached the companion all the same, their answers lost). Such a tap made before
    the save was counted in the game, rightly, and the page's resend of it was answered "already counted": the
    refusal the test waited for never came. Made after the save, a tap that gets through is refused too."""
    page.get_by_label(label, exact=True).first.click()
    page.get_by_text("kept on this phone").wait_for()
    page.close()


def test_taps_kept_without_wifi_are_sent_from_whichever_page_opens_next(browser: Any, server: str) -> None:
    """A phone without Wi-Fi keeps its taps, and sent them only from its table's pages. The app put away (the phone
    locked, the tab closed) and opened again from the home screen, it starts at the home page: the taps stayed on
    the phone, unsent and unsaid, and another phone saved the game without them. Every page of the companion sends
    the taps kept for any table."""
    context, page, table = anas_phone(browser, server)
    tap_kept_offline(context, page, "VP cards bought: add 9")
    context.set_offline(False)
    home = context.new_page()
    home.goto(f"{server}/")  # the app on the home screen starts here
    # the tap leaves the phone once its answer has been read whole, after the companion applied it: waited for, as
    # the tests above wait for a table's own kept taps; then another phone sees it applied. (The other phone looked
    # first, ten times a second for ten seconds or so, a bound a loaded machine's home page could miss.)
    home.wait_for_function("() => !Object.keys(localStorage).some(k => k.startsWith('donjon-pending-'))",
                           timeout=SETTLED_MS)
    assert home.evaluate("Object.keys(localStorage).filter(k => k.startsWith('donjon-pending-'))") == []
    other = browser.new_page(viewport=VIEWPORTS["phone"])  # another phone, at the table
    other.goto(table)
    assert totals(other) == {"Ana": "9", "Ben": "0"}
    # a tap kept while another phone saves the game: refused, and said on the page the phone opens next
    home.goto(f"{table}/seats/0")
    for value in ("7", "5"):
        tap(home, f"VP cards bought: add {value}")
    context.set_offline(True)  # this phone does not learn of the save: its page still offers the tap
    saved = httpx.post(f"{table}/save", headers={"sec-fetch-site": "same-origin"}, data={"confirm": "yes"})
    assert saved.status_code == 303
    tap_kept(home, "Completed chapters: one more")
    context.set_offline(False)
    history = context.new_page()
    history.goto(f"{server}/history")
    # in the companion's words, not as an HTTP status a player has no use for ("was refused (422)" before)
    history.get_by_text(f"A change kept on this phone for table {table.rsplit('/', 1)[1]} was refused: this game is "
                        "saved; its table can no longer change.").wait_for()
    other.close()
    context.close()


def test_a_kept_tap_refused_stays_said_on_a_table_page_until_closed(browser: Any, server: str) -> None:
    """A tap kept without Wi-Fi for a table another phone saved meanwhile is refused when a table page sends it, and
    the page said so; its next poll, 2 s later, said all was well and the message went before the player read it.
    The refusal stays through the polls until the player closes it."""
    other = browser.new_page(viewport=VIEWPORTS["phone"])  # another phone opens another game's table
    open_table(other, server, "guedelon", ["Cleo", "Dan"], events="easy")
    context, page, table = anas_phone(browser, server)
    for value in ("9", "7", "5"):  # a game finished, which may be saved
        tap(page, f"VP cards bought: add {value}")
    context.set_offline(True)  # this phone does not learn of the save: its page still offers the tap
    saved = httpx.post(f"{table}/save", headers={"sec-fetch-site": "same-origin"}, data={"confirm": "yes"})
    assert saved.status_code == 303, saved.text[-600:]
    tap_kept(page, "Completed chapters: one more")
    context.set_offline(False)
    next_table = context.new_page()
    polls: list[str] = []
    next_table.on("request", lambda request: polls.append(request.url) if "/live?" in request.url else None)
    next_table.goto(other.url)  # a table page: it polls every 2 s
    said = next_table.get_by_text(f"A change kept on this phone for table {table.rsplit('/', 1)[1]} was refused")
    said.wait_for()
    # polls counted, not waited for by the clock: a loaded machine asked fewer of them in the 5 s this waited, and
    # the refusal could have gone with a poll after it. Three asked since, each 2 s after the one before: the first
    # two have been answered and read
    asked = len(polls)
    until(next_table, lambda: len(polls) >= asked + 3, "the page asked for no update")
    assert said.is_visible(), "the refusal went with the next poll"
    next_table.get_by_role("button", name="Close this message").click()
    assert next_table.locator("#connection").is_hidden()
    other.close()
    context.close()


def test_a_tap_kept_since_another_evening_is_not_taken_into_another_database(browser: Any, tmp_path: Path) -> None:
    """A phone left without Wi-Fi at the end of an evening keeps a tap for its table 1; the companion is stopped.
    Another evening the companion serves another database at the same address, where the same players have a table
    1 too: the tap kept was sent to it (from any page now, from table 1's page before) and counted in that game.
    Each tap carries when its table was made, and a table made at another time refuses it, in words."""
    port = str(free_port())
    context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
    with serving("--port", port, "--db", str(tmp_path / "friday.sqlite3")) as (_, url):
        wait_ready(url)
        page = context.new_page()
        open_table(page, url.rstrip("/"), "guildhall", ["Ana", "Ben"], vp_set="old-world-economy")
        page.get_by_role("link", name=part_of("Ana")).click()
        page.wait_for_url(re.compile(r"/seats/0$"))
        tap_kept_offline(context, page, "VP cards bought: add 9")
    context.set_offline(False)  # the Wi-Fi back once that evening's companion has stopped
    time.sleep(1.1)  # another evening: its table is made at another second
    with serving("--port", port, "--db", str(tmp_path / "club.sqlite3")) as (_, url):
        wait_ready(url)
        base = url.rstrip("/")
        other = browser.new_page(viewport=VIEWPORTS["phone"])
        open_table(other, base, "guildhall", ["Ana", "Ben"], vp_set="old-world-economy")
        assert other.url == f"{base}/tables/1"
        home = context.new_page()
        home.goto(f"{base}/")
        home.get_by_text("A change kept on this phone for table 1 was refused: this change was kept on this phone "
                         "for another table 1, of another database the companion served before: it is not taken into "
                         "this game.").wait_for()
        other.reload()
        assert totals(other) == {"Ana": "0", "Ben": "0"}
        other.close()
    context.close()


def test_a_castle_game_saved_from_some_sheets_is_corrected_at_a_table(browser: Any, server: str) -> None:
    """A castle game saved from a file holding Ana's sheet only (sent to the API, or imported), none with the end
    Cloud: the scorer takes it, with a warning (the sheet that drew the Cloud may be missing). Its "Correct this game"
    opened a table that could never be saved ("Game in progress": a table is taken to hold every sheet), so a wrong
    tower could not be put right from a phone. The correction table now shows the file's warning and saves."""
    sheet = {"player": "Ana", "donjon_floors": 2, "towers": [5, 2], "walls": [{"flags": [1]}], "sun": False,
             "cloud": False, "sky_clouds": 0, "residents": 3, "guests": ["queen"]}
    saved = httpx.post(f"{server}/api/games", timeout=30, json={"end_state": {
        "game": "once-upon-a-castle", "version": "great-architect", "sheets": [sheet]}})
    assert saved.status_code in (200, 201), saved.text
    game = f"{server}/history/games/{saved.json()['id']}"
    page = browser.new_page(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
    page.goto(game)
    score = page.locator("table.result tbody tr:not(.breakdown) td.num")
    before = int(score.first.inner_text().strip().lstrip("≈"))
    page.get_by_role("button", name="Correct this game").click()
    page.wait_for_url(re.compile(r"/tables/\d+$"))
    page.get_by_role("link", name=part_of("Ana")).click()
    page.wait_for_url(re.compile(r"/seats/0$"))
    tap(page, "Towers: take away 2 (number 2)")  # the 2 was a 5
    tap(page, "Towers: add 5")
    assert "no sheet has the end Cloud" in page.locator("main").inner_text()
    shot(page, "castle-correction-of-some-sheets-390")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_url(game)
    assert page.locator("ol.versions li").count() == 2
    assert int(score.first.inner_text().strip().lstrip("≈")) == before + 3
    page.close()
