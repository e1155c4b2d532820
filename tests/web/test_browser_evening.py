"""A real table's evening in Chromium: four phones on a `--lan` companion enter a Guildhall game, one phone
drops off the Wi-Fi for 10 s and its taps arrive once it is back (none twice), the server is restarted in the
middle and the phones carry on with the same token; two phones tap one Guédelon tile at once and agree. At 390 x
844 and 320 x 640: axe-core finds no violation of any level, and every control is at least 44 px.
Skipped without Chromium unless DONJON_REQUIRE_BROWSER=1 (CI sets it)."""

from __future__ import annotations

import re
import socket
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import AXE, browser, shot, totals  # noqa: F401 - the shared browser fixture
from tests.web.test_serve_process import serving, wait_ready

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SMALL = {"width": 320, "height": 640}
LIVE_MS = 8000
NAMES = ["Ana", "Ben", "Cleo", "Dan"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


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


def test_four_phones_an_offline_phone_and_a_restart(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    port = free_port()
    db = str(tmp_path / "evening.sqlite3")
    args = ("--lan", "--host", "127.0.0.1", "--db", db)
    command = ["--port", str(port)]
    with serving(*args, *command[:0]) if False else serving(*args) as (_, first_url):
        pass  # a first start makes the token (kept in the database)
    # `serving` adds --port 0; run on a known port instead, so that the phones' address survives the restart
    from tests.web.test_serve_process import donjon
    import subprocess
    import signal

    def start() -> tuple[subprocess.Popen[str], str]:
        process = subprocess.Popen(donjon("serve", "--port", str(port), *args), stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"(http://\S+)", line)
        assert found, line
        wait_ready(found.group(1).split("?")[0])
        return process, found.group(1)

    def stop(process: subprocess.Popen[str]) -> None:
        process.send_signal(signal.SIGINT)
        process.wait(10)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()

    server, join = start()
    base = join.split("?")[0].rstrip("/")
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
        pages[3].get_by_text("not saved yet").wait_for(timeout=LIVE_MS)
        shot(pages[3], "evening-dan-offline-320")
        for seat, value in ((0, "9"), (1, "7"), (2, "4")):
            tap(pages[seat], f"VP cards bought: add {value}")
        pages[0].wait_for_timeout(10_000)  # ten seconds without Wi-Fi
        phones[3].set_offline(False)
        for page in pages:  # Dan's taps arrive, each once: 5 + 1
            page.wait_for_function("() => document.querySelector('#mini') && "
                                   "document.querySelector('#mini').innerText.includes('Dan 6')", timeout=LIVE_MS)
        assert totals(pages[0]) == {"Ana": "9", "Ben": "7", "Dan": "6", "Cleo": "4"}
        # the host restarts the companion: the phones carry on with the same token
        stop(server)
        tap(pages[1], "VP tokens: one more")  # while it is down: kept, sent when it is back
        server, again = start()
        assert again == join
        tap(pages[0], "VP cards bought: add 9")
        for page in pages:
            page.wait_for_function("() => document.querySelector('#mini').innerText.includes('Ben 8')"
                                   " && document.querySelector('#mini').innerText.includes('Ana 18')",
                                   timeout=LIVE_MS * 2)
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
        for page in pages[:2]:
            page.wait_for_timeout(LIVE_MS // 2)
            assert page.get_by_label(tile, exact=True).get_attribute("aria-pressed") == "true"
        no_violation(pages[0], "guedelon table")
        shot(pages[0], "evening-guedelon-tile")
    finally:
        for phone in phones:
            phone.close()
        stop(server)
