"""A real table's evening in Chromium: four phones on a `--lan` companion enter a Guildhall game, one phone
drops off the Wi-Fi for 10 s and its taps arrive once it is back (none twice), the server is restarted in the
middle and the phones carry on with the same token; two phones tap one Guédelon tile at once and agree. At 390 x
844 and 320 x 640: axe-core finds no violation of any level, and every control is at least 44 px.
Skipped without Chromium unless DONJON_REQUIRE_BROWSER=1 (CI sets it)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import example
from tests.web.test_browser import AXE, browser, shot, totals  # noqa: F401 - the shared browser fixture
from tests.processes import with_default_signals
from tests.web.test_serve_process import donjon, free_port, wait_ready

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SMALL = {"width": 320, "height": 640}
#: two polls of the phones (every 2 s): how long a late change is given to show where nothing should change
TWO_POLLS_MS = 4000
#: the bound of a wait for what the phones' polls and their resends of kept taps (1, 2, 4, then 8 s apart) bring: it
#: ends as soon as its state is there, so it is set for a loaded machine (two cores shared by xdist's two workers,
#: their servers and Chromium), where a tap kept while the companion restarted waits out an 8 s resend first
SETTLED_MS = 60_000
NAMES = ["Ana", "Ben", "Cleo", "Dan"]
#: What the running totals strip says, each player's link as read ("Ana 18, Ben 8"): its name and total are laid out
#: side by side (a long name cut short), which innerText would give on lines of their own.
MINI = ("(document.querySelector('#mini') ? Array.from(document.querySelectorAll('#mini a'), "
        "a => a.textContent.replace(/\\s+/g, ' ').trim()).join(', ') : '')")


def no_violation(page: Any, what: str) -> None:
    """axe-core: no violation of any level (minor and moderate too)."""
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")  # not a script tag: the pages' CSP runs none
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                          ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))"
                          ".slice(0, 3)}))")
    assert not found, f"{what}: {found}"


def targets_are_44px(page: Any, what: str) -> None:
    small = page.evaluate("""() => Array.from(document.querySelectorAll('button, a.button, select, input:not([type=hidden]), summary'))
        .filter(e => e.offsetParent !== null)
        .map(e => [e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
        .filter(([_, r]) => r.width < 44 || r.height < 44).map(([n, r]) => `${n} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
    assert not small, f"{what}: smaller than 44 px: {small[:5]}"
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"{what}: {wide} px wide"


def tap(page: Any, label: str) -> None:
    page.get_by_label(label, exact=True).first.click()


def checked(page: Any, what: str) -> None:
    """axe-core finds no violation of any level, every control is 44 px and nothing is wider than the screen."""
    no_violation(page, what)
    targets_are_44px(page, what)


class Companion:
    """One `donjon serve --lan` for the module's evenings, on a port of its own so that a restart keeps the
    address (and the token, kept in its database) the phones use."""

    def __init__(self, db: Path) -> None:
        self.args = ["--lan", "--host", "127.0.0.1", "--db", str(db), "--port", str(free_port())]
        self.process: subprocess.Popen[str] | None = None
        self.join = ""

    @property
    def base(self) -> str:
        return self.join.split("?")[0].rstrip("/")

    @property
    def token(self) -> str:
        return self.join.split("token=")[1]

    def start(self) -> None:
        self.process = subprocess.Popen(with_default_signals(donjon("serve", *self.args)), stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"(http://\S+)", line)
        assert found, line
        self.join = found.group(1)
        wait_ready(self.base)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGINT)
        _, errors = self.process.communicate(timeout=15)
        assert self.process.returncode == 0 and "Traceback" not in errors, errors
        self.process = None


@pytest.fixture(scope="module")
def companion(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Companion]:
    server = Companion(tmp_path_factory.mktemp("evening") / "evening.sqlite3")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_four_phones_an_offline_phone_and_a_restart(browser: Any, companion: Companion) -> None:  # noqa: F811
    join, base = companion.join, companion.base
    phones = [browser.new_context(viewport=PHONE if i < 3 else SMALL) for i in range(4)]
    pages = [phone.new_page() for phone in phones]
    try:
        host = pages[0]
        host.goto(join)  # the QR code's address: the token becomes a cookie
        host.get_by_role("link", name="Guildhall").click()
        for index, name in enumerate(NAMES):
            host.fill(f"#name-{index}", name)
        host.select_option("#opt-vp_set", "old-world-economy")
        host.get_by_role("button", name="Open the table").click()
        host.wait_for_url(re.compile(r"/tables/\d+$"))
        table = host.url.split("?")[0]
        for seat, page in enumerate(pages):
            page.goto(f"{table}?token={join.split('token=')[1]}")
            page.get_by_role("link", name=f"{NAMES[seat]}: enter {NAMES[seat]}'s part").click()
            page.wait_for_url(re.compile(rf"/seats/{seat}$"))
        no_violation(pages[0], "seat page at 390 px")
        targets_are_44px(pages[0], "seat page at 390 px")
        no_violation(pages[3], "seat page at 320 px")
        targets_are_44px(pages[3], "seat page at 320 px")
        # Dan's phone drops off the Wi-Fi; he taps twice meanwhile
        phones[3].set_offline(True)
        tap(pages[3], "VP cards bought: add 5")
        tap(pages[3], "VP tokens: one more")
        pages[3].get_by_text("not saved yet").wait_for(timeout=SETTLED_MS)
        shot(pages[3], "evening-dan-offline-320")
        for seat, value in ((0, "9"), (1, "7"), (2, "4")):
            tap(pages[seat], f"VP cards bought: add {value}")
        pages[0].wait_for_timeout(10_000)  # ten seconds without Wi-Fi
        phones[3].set_offline(False)
        # Dan's taps arrive, each once: 5 + 1. His phone sends them when the browser says the Wi-Fi is back, or at
        # its next retry (8 s apart by now), then the others see them at their next poll: 8 s alone was no more
        # than that retry and a poll, a bound a loaded machine could miss
        for page in pages:
            page.wait_for_function(f"() => {MINI}.includes('Dan 6')", timeout=SETTLED_MS)
        assert totals(pages[0]) == {"Ana": "9", "Ben": "7", "Dan": "6", "Cleo": "4"}
        # the host restarts the companion: the phones carry on with the same token
        companion.stop()
        tap(pages[1], "VP tokens: one more")  # while it is down: kept, sent when it is back
        companion.start()
        assert companion.join == join
        tap(pages[0], "VP cards bought: add 9")
        for page in pages:
            page.wait_for_function(f"() => {MINI}.includes('Ben 8') && {MINI}.includes('Ana 18')",
                                   timeout=SETTLED_MS)
        assert totals(pages[2]) == {"Ana": "18", "Ben": "8", "Dan": "6", "Cleo": "4"}
        shot(pages[0], "evening-ana-after-restart")
        # two phones tap one Guédelon tile at once: one state, both see it
        pages[0].goto(f"{base}/new/guedelon")
        pages[0].fill("#name-0", "Ana")
        pages[0].fill("#name-1", "Ben")
        pages[0].get_by_role("button", name="Open the table").click()
        pages[0].wait_for_url(re.compile(r"/tables/\d+$"))
        pages[1].goto(pages[0].url)
        tile = "Building A: A0"
        pages[0].get_by_label(tile, exact=True).click(no_wait_after=True)
        pages[1].get_by_label(tile, exact=True).click(no_wait_after=True)
        # both phones go on polling meanwhile: one wait gives each of them two polls (every 2 s) after both taps,
        # so a second tap applied late, which would turn the tile off again, has had time to show on both
        pages[0].wait_for_timeout(TWO_POLLS_MS)
        for page in pages[:2]:
            assert page.get_by_label(tile, exact=True).get_attribute("aria-pressed") == "true"
        no_violation(pages[0], "guedelon table")
        shot(pages[0], "evening-guedelon-tile")
    finally:
        for phone in phones:
            phone.close()


def saved_by_script(companion: Companion, names: list[str]) -> int:
    """A Guildhall game saved through the API (as a script or another app would), with these players."""
    state = example("guildhall")
    renamed = dict(zip([p["name"] for p in state["players"]], names))
    for part in state["players"]:
        part["name"] = renamed[part["name"]]
    state["ended_by"] = renamed[state["ended_by"]]
    answer = httpx.post(f"{companion.base}/api/games", content=json.dumps(state), timeout=30,
                        headers={"content-type": "application/json", "authorization": f"Bearer {companion.token}"})
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


def test_a_mistaken_save_corrected_another_deleted_and_players_renamed_and_merged(  # noqa: F811
        browser: Any, companion: Companion) -> None:
    ana_phone, ben_phone = browser.new_context(viewport=PHONE), browser.new_context(viewport=SMALL)
    ana, ben = ana_phone.new_page(), ben_phone.new_page()
    try:
        for page in (ana, ben):
            page.goto(companion.join)
        checked(ben, "the home page at 320 px")
        # Ana enters her part and saves: Ben's cards were never entered (the table asks, she saves anyway)
        ana.goto(f"{companion.base}/new/guildhall")
        checked(ana, "the new game form at 390 px")
        ana.fill("#name-0", "Ana")
        ana.fill("#name-1", "Ben")
        ana.select_option("#opt-vp_set", "old-world-economy")
        ana.get_by_role("button", name="Open the table").click()
        ana.wait_for_url(re.compile(r"/tables/\d+$"))
        checked(ana, "a table at 390 px")
        ana.get_by_role("link", name="Ana: enter Ana's part").click()
        for value in ("9", "7", "5"):
            tap(ana, f"VP cards bought: add {value}")
        # 21 points end a Guildhall game: Ana alone has 20 or more, so her turn ended it; nothing is asked
        ana.get_by_text("Ana wins.").wait_for()
        assert "Ana 21" in ana.evaluate(f"() => {MINI}") and ana.get_by_text("whose turn was it?").count() == 0
        shot(ana, "evening-ana-21-390")
        ana.get_by_role("button", name="Save this game").click()
        ana.get_by_text("Ben entered nothing: save anyway?").wait_for()
        ana.get_by_role("button", name="Save anyway").click()
        ana.wait_for_url(re.compile(r"/history/games/\d+$"))
        game = ana.url
        # corrected: the game opens again at a table, Ben enters his cards on his phone, Ana saves the correction
        ana.get_by_role("button", name="Correct this game").click()
        ana.wait_for_url(re.compile(r"/tables/\d+$"))
        ana.get_by_text("This table corrects").wait_for()
        ben.goto(ana.url)
        ben.get_by_role("link", name="Ben: enter Ben's part").click()
        for value in ("9", "5"):
            tap(ben, f"VP cards bought: add {value}")
        # Ben types 6 VP tokens where he had none: 20, and Ana has 21; only the player whose turn ended the game
        # can have 20, and the scorer cannot tell whose it was, so both phones are asked
        with ben.expect_response(re.compile(r"/edit$")):
            ben.fill("#in-players_1__vp_tokens", "6")
            ben.locator("#in-players_1__vp_tokens").dispatch_event("change")
        question = "2 players have 20 or more, but only the one whose turn ended the game can: whose turn was it?"
        ana.get_by_text(question).wait_for(timeout=SETTLED_MS)
        shot(ana, "evening-two-at-20-390")
        checked(ana, "the question at 390 px")
        with ana.expect_response(re.compile(r"/edit$")):
            ana.get_by_role("button", name="Ana's turn (21)").click()
        ben.wait_for_function("() => !document.body.innerText.includes('whose turn was it?')", timeout=SETTLED_MS)
        assert "Ben has 20 VP" in ben.locator("#scoreboard").inner_text()  # on Ben's card: his part is wrong
        shot(ben, "evening-ben-at-20-320")
        with ben.expect_response(re.compile(r"/edit$")):
            ben.get_by_role("button", name="Undo the last change to Ben's part").click()
        ana.wait_for_function(f"() => {MINI}.includes('Ben 14')", timeout=SETTLED_MS)
        ana.get_by_role("button", name="Save the correction").click()
        ana.wait_for_url(game)
        assert ana.locator("ol.versions li").count() == 2
        assert "corrected" in ana.locator("ol.versions li").nth(1).inner_text()
        assert totals_of_result(ana) == {"Ana": "21", "Ben": "14"}
        shot(ana, "evening-corrected-390")
        checked(ana, "a corrected game at 390 px")
        ana.get_by_role("link", name="A page to print").click()
        ana.wait_for_url(re.compile(r"/print$"), wait_until="load")  # axe must look at the new page, not the old
        checked(ana, "the page to print at 390 px")
        # another game, saved twice by a script: Ben deletes the second one from his phone
        saved_by_script(companion, ["Anna", "Cleo", "Ben"])
        twice = saved_by_script(companion, ["Anna", "Cleo", "Ben"])
        ben.goto(f"{companion.base}/history/games/{twice}")
        ben.get_by_label("Yes, this game should not be in the history").check()
        shot(ben, "evening-delete-320")
        checked(ben, "a game's page at 320 px")
        ben.get_by_role("button", name="Delete this game").click()
        ben.wait_for_url(re.compile(r"/history\?deleted="))
        ben.get_by_text(f"Game {twice} was deleted").wait_for()
        assert ben.locator(f'a[href="/history/games/{twice}"]').count() == 0
        checked(ben, "the history at 320 px")
        # the wrong game deleted? Put it back where the deletion is said: the game is back, its versions say so;
        # then deleted again (it was saved twice)
        shot(ben, "evening-deleted-320")
        ben.get_by_role("button", name="Put it back").click()
        ben.wait_for_url(f"{companion.base}/history/games/{twice}")
        assert "put back from the companion's page" in ben.locator("ol.versions li").last.inner_text()
        ben.get_by_label("Yes, this game should not be in the history").check()
        ben.get_by_role("button", name="Delete this game").click()
        ben.wait_for_url(re.compile(r"/history\?deleted="))
        # players: Ben becomes Benoît everywhere, and Anna (a second spelling) is merged into Ana
        ben.get_by_role("link", name="Players").first.click()
        ben.fill("#rename-old", "ben")
        ben.fill("#rename-new", "Benoît")
        ben.get_by_role("button", name="Rename in every game").click()
        ben.wait_for_url(re.compile(r"/history/player\?name=Beno"))
        checked(ben, "a player's page at 320 px")
        ben.goto(f"{companion.base}/history/players")
        ben.fill("#merge-old", "Anna")
        ben.fill("#merge-new", "Ana")
        shot(ben, "evening-players-320")
        checked(ben, "the players' page at 320 px")
        ben.get_by_role("button", name="Merge: one person").click()
        ben.wait_for_url(re.compile(r"/history/player\?name=Ana"))
        assert "2 games" in ben.locator("main").inner_text()
        ben.goto(f"{companion.base}/history/players")
        games = {row.locator("th").inner_text(): row.locator("td").first.inner_text()
                 for row in ben.locator("table.totals tbody tr").all()}
        assert {name: games.get(name) for name in ("Ana", "Anna", "Ben", "Benoît")} == \
            {"Ana": "2", "Anna": None, "Ben": None, "Benoît": "2"}
        ana.goto(game)  # the corrected game says who Ben is now, and keeps every version
        assert totals_of_result(ana) == {"Ana": "21", "Benoît": "14"}
        assert ana.locator("ol.versions li").count() == 3
        # a phone without the token is told so, on a page as accessible as the others
        stranger = browser.new_context(viewport=SMALL)
        refused = stranger.new_page()
        assert refused.goto(f"{companion.base}/history").status == 401
        refused.get_by_text("This phone is not let in").wait_for()
        shot(refused, "evening-401-320")
        checked(refused, "the 401 page at 320 px")
        stranger.close()
    finally:
        ana_phone.close()
        ben_phone.close()


def totals_of_result(page: Any) -> dict[str, str]:
    """Each player's score on a saved game's page."""
    return {row.locator("th").inner_text().strip(): row.locator("td.num").inner_text().strip()
            for row in page.locator("table.result tbody tr:not(.breakdown)").all()}


def test_a_phone_let_in_on_the_lan_can_add_the_companion_to_its_home_screen(browser: Any,  # noqa: F811
                                                                            companion: Companion) -> None:
    """With `--lan` the page's web app manifest (name, icons, "standalone") was refused like any page without the
    token: a browser asks for a manifest without cookies, so "Add to Home screen" found no app, only a bookmark. It
    holds nothing of the table's (the same in every companion) and is answered to a phone without the token."""
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = phone.new_page()
    try:
        page.goto(companion.join)  # the QR code's address: the phone is let in
        manifest = phone.new_cdp_session(page).send("Page.getAppManifest")
        assert not manifest.get("errors") and manifest.get("data"), manifest
        assert json.loads(manifest["data"])["name"] == "donjon table companion", manifest
        # the pages themselves still want the token
        assert httpx.get(f"{companion.base}/history").status_code == 401
    finally:
        phone.close()
