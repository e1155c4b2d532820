"""The companion's live updates against the page's own taps, in Chromium: an update asked before a tap and answered
after it must not draw the table back as it was. Skipped without Chromium unless DONJON_REQUIRE_BROWSER=1."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.test_browser import (SETTLED_MS, VIEWPORTS, anas_phone, browser, server, shot, tap,  # noqa: F401
                                    totals, until)

pytestmark = pytest.mark.browser


def test_an_update_answered_after_the_players_taps_does_not_take_them_off_the_page(browser: Any,  # noqa: F811
                                                                                   server: str) -> None:  # noqa: F811
    """The page asks every 2 s whether the table changed; on a loaded machine or a slow Wi-Fi that answer can come
    after the taps the player made meanwhile. It drew the table as it was when the companion answered: "+9" and
    "+7" tapped, the update asked before them and answered between them showed the VP cards as "9" alone, and the
    totals without the 7, until the next update 2 s later (a test reading the page then read the old totals). An
    update asked before a tap that has been answered since is old: the page keeps what the taps drew. What that
    update held of another phone's change (a token given to Ana from the host's phone) still comes: the next update
    draws the table whole."""
    context, page, table = anas_phone(browser, server)
    chips = page.locator("#ctl-msg-players_0__vp_cards .chips")
    held: list[Any] = []
    later: list[Any] = []
    through = {"companion": False}

    def updates(route: Any) -> None:  # the first update asked is held; the later ones say nothing changed, at first
        if not held:
            held.append(route)
            return
        later.append(route)
        if through["companion"]:
            route.continue_()
        else:
            route.fulfill(status=204)

    page.route(re.compile(r"/live\?"), updates)
    until(page, lambda: bool(held), "the page asked for no update")
    host = httpx.post(f"{table}/edit", headers={"sec-fetch-site": "same-origin"}, timeout=30, data={
        "seat": "0", "shown": "", "op": "add", "path": "vp_tokens", "value": "1"})
    assert host.status_code == 200, host.text
    answer = held[0].fetch()  # the companion answers it now: the host's token, newer than what the page asked from
    assert answer.status == 200
    tap(page, "VP cards bought: add 9")
    tap(page, "VP cards bought: add 7")
    asked = len(later)
    held[0].fulfill(response=answer)  # and the answer reaches the page after the 7's
    # the page has read that answer by the time it asks again (every 2 s)
    until(page, lambda: len(later) > asked, "the page asked for no update after the old one")
    assert [text.split()[0] for text in chips.locator(".chip").all_inner_texts()] == ["9", "7"]
    assert totals(page) == {"Ana": "17", "Ben": "0"}  # the token counted: the taps' answers hold the totals
    through["companion"] = True
    page.wait_for_function("() => document.querySelector('#in-players_0__vp_tokens').value === '1'",
                           timeout=SETTLED_MS)
    assert [text.split()[0] for text in chips.locator(".chip").all_inner_texts()] == ["9", "7"]
    assert totals(page) == {"Ana": "17", "Ben": "0"}
    context.close()


def test_a_tap_after_another_phones_change_draws_that_change_too(browser: Any, server: str) -> None:  # noqa: F811
    """The host's phone gives Ana a VP token, and Ana taps "+9" before her page's next update (every 2 s; later on a
    loaded machine or a slow Wi-Fi): the tap's answer drew the VP cards and the totals (10, the token counted) but not
    the tokens' field, and told the page it was up to date, so no update ever drew it: the field said 0 beside a
    total of 10 for as long as the page stayed open. The tap says which version the page showed; a table changed
    since is drawn whole with the answer."""
    context, page, table = anas_phone(browser, server)
    page.route(re.compile(r"/live\?"), lambda route: route.fulfill(status=204))  # no update reaches the page
    tokens = page.locator("#in-players_0__vp_tokens")
    assert tokens.input_value() == "0"
    host = httpx.post(f"{table}/edit", headers={"sec-fetch-site": "same-origin"}, timeout=30, data={
        "seat": "0", "shown": "", "op": "add", "path": "vp_tokens", "value": "1"})
    assert host.status_code == 200, host.text
    tap(page, "VP cards bought: add 9")
    assert tokens.input_value() == "1"
    assert totals(page) == {"Ana": "10", "Ben": "0"}
    tap(page, "VP cards bought: add 7")  # nothing changed between: the answer draws what it did before
    assert tokens.input_value() == "1"
    assert [text.split()[0] for text in page.locator("#ctl-msg-players_0__vp_cards .chip").all_inner_texts()] == \
        ["9", "7"]
    context.close()


def test_a_tap_the_companion_cannot_save_says_why_in_the_pages_language(browser: Any, server: str,  # noqa: F811
                                                                         tmp_path: Path) -> None:
    """The companion's database moved away while a phone is on a table: its tap was kept, and the page said only
    "Le compagnon a répondu par une erreur (503)", where the companion's answer names the file gone and what to do
    (move it back). The page says the companion's own words, in the page's language; the file put back, the tap kept
    is sent and the words go."""
    from generator.i18n import language
    from generator.web import messages

    context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{server}/new/guildhall")
    page.fill("#name-0", "Ana")
    page.fill("#name-1", "Ben")
    page.select_option("#opt-vp_set", "old-world-economy")
    page.locator("form.new button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/\d+$"))
    page.goto(page.url + "/seats/0")
    database = tmp_path / "db.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{database}{suffix}").exists():
            Path(f"{database}{suffix}").rename(tmp_path / f"elsewhere.sqlite3{suffix}")
    with page.expect_response(re.compile(r"/edit$")) as answer:
        page.locator("""button[data-edit*='"path": "vp_tokens"'][data-edit*='"value": "1"']""").click()
    assert answer.value.status == 503
    french = language("fr")
    said = french._(messages.DB_GONE).format(file=database)
    page.wait_for_function("() => document.getElementById('connection-text').textContent !== ''")
    text = page.locator("#connection-text").inner_text()
    assert french._("The companion answered: {why}.").format(why=said) in text, text
    assert "(503)" not in text  # the status alone said nothing a player can act on
    shot(page, "db-gone-fr")
    for suffix in ("", "-wal", "-shm"):
        if (tmp_path / f"elsewhere.sqlite3{suffix}").exists():
            (tmp_path / f"elsewhere.sqlite3{suffix}").rename(f"{database}{suffix}")
    page.locator("#connection").wait_for(state="hidden", timeout=SETTLED_MS)
    assert page.locator("#in-players_0__vp_tokens").input_value() == "1"
    context.close()
