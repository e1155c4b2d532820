"""The preview page in a real browser: Debian's Chromium, headless, through playwright.

Skipped when Chromium is not installed, unless DONJON_REQUIRE_BROWSER=1 (CI sets it), which makes a missing
browser a failure. Playwright never downloads a browser here: it drives /usr/bin/chromium, with the flags that
keep Chromium off the network (the page needs none).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from tests.exports.helpers import FLAT, make_deck, open_png, run

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> str:
    path = CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")
    required = os.environ.get("DONJON_REQUIRE_BROWSER") == "1"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if required:
            pytest.fail("DONJON_REQUIRE_BROWSER=1 but playwright is not installed (pip install -e '.[test]')")
        pytest.skip("playwright is not installed")
    if path is None:
        if required:
            pytest.fail("DONJON_REQUIRE_BROWSER=1 but Chromium is not installed (apt-get install chromium)")
        pytest.skip("Chromium is not installed (apt-get install chromium); set DONJON_REQUIRE_BROWSER=1 to require it")
    return path


def test_the_preview_loads_with_every_image_and_can_be_seen(tmp_path: Path) -> None:
    browser_path = chromium()
    from playwright.sync_api import Dialog, sync_playwright

    out = tmp_path / "out"
    assert run("build", "guedelon/events", "--out", str(out), "--format", "pdf").exit_code == 0
    hostile = make_deck(tmp_path / "mine", [{"name": "<img src=x onerror=alert(1)> & {{ x }}", "colour": "#1030e0"}],
                        layout=FLAT, deck_id="mine")
    # the shipped games and a deck of one's own: --content takes one folder, so copy both into one
    content = tmp_path / "content"
    shutil.copytree(Path(__file__).resolve().parents[2] / "content", content)
    shutil.copytree(hostile, content / "mine")
    result = run("preview", "--out", str(out), "--content", str(content))
    assert result.exit_code == 0, result.stderr
    page_path = out / "preview" / "index.html"

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            dialogs: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))

            def answer(dialog: Dialog) -> None:
                dialogs.append(dialog.message)
                dialog.dismiss()

            page.on("dialog", answer)
            failed: list[str] = []
            page.on("requestfailed", lambda request: failed.append(request.url))
            response = page.goto(page_path.as_uri(), wait_until="load")
            assert response is None or response.ok
            assert page.title().startswith("donjon preview: 9 decks, 413 cards")
            # images load as they come into view: scroll through the page, then every one must have loaded
            page.evaluate("async () => { for (let y = 0; y < document.body.scrollHeight; y += 600) {"
                          " window.scrollTo(0, y); await new Promise(r => setTimeout(r, 15)); } }")
            page.wait_for_load_state("networkidle")
            # polled with evaluate: wait_for_function compiles its predicate with eval, which the preview's
            # Content-Security-Policy forbids (it failed whenever the images were not all there at the first look);
            # an image scrolled past before it loaded (a busy machine) is brought into view again until it has
            deadline = time.monotonic() + 60
            while page.evaluate("() => { const left = Array.from(document.images).filter(i => !i.complete);"
                                " if (left.length) left[0].scrollIntoView(); return left.length; }"):
                assert time.monotonic() < deadline, "the images were still loading after a minute"
                page.wait_for_timeout(100)
            images = page.evaluate("Array.from(document.images).map(i => [i.getAttribute('src'), i.complete, "
                                   "i.naturalWidth])")
            assert len(images) == 147 + 2 + 4  # faces and backs of 8 decks and of mine, 4 pages of the events
            broken = [src for src, complete, width in images if not (complete and width > 0)]
            assert broken == [] and failed == []
            text = page.inner_text("body")
            assert "<img src=x onerror=alert(1)> & {{ x }} × 1" in text
            assert errors == [] and dialogs == []
            shot = tmp_path / "preview.png"
            page.screenshot(path=str(shot), full_page=False)
        finally:
            browser.close()
    assert shot.stat().st_size > 10_000
    image = open_png(shot)
    assert image.size == (1280, 900)
    assert len(image.convert("RGB").getcolors(1 << 20) or []) > 50  # a page of cards, not a blank one


def test_the_preview_on_a_phone(tmp_path: Path) -> None:
    """At a phone's size the page shows an index of the decks at the top, two cards a row, and loads the images
    it shows rather than every image of every deck (issue 12: it was 73,232 px tall and loaded 8.7 MB at once)."""
    browser_path = chromium()
    from playwright.sync_api import sync_playwright

    out = tmp_path / "out"
    assert run("preview", "--out", str(out)).exit_code == 0
    page_path = out / "preview" / "index.html"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=3, is_mobile=True)
            loaded: list[int] = []
            page.on("response", lambda response: loaded.append(len(response.body()))
                    if response.url.endswith(".png") else None)
            page.goto(page_path.as_uri(), wait_until="load")
            page.wait_for_load_state("networkidle")
            height = page.evaluate("document.documentElement.scrollHeight")
            index = page.evaluate("document.querySelector('nav').getBoundingClientRect().top")
            decks = page.evaluate("document.querySelectorAll('nav a').length")
            per_row = page.evaluate("(() => { const f = Array.from(document.querySelectorAll('#deck-guildhall-"
                                    "old-world-economy-professions figure')); const top = f[0].offsetTop; "
                                    "return f.filter(x => x.offsetTop === top).length; })()")
            shot = tmp_path / "phone.png"
            page.screenshot(path=str(shot))
        finally:
            browser.close()
    assert index < 200 and decks >= 8 + 3  # every deck and game linked from the top
    assert per_row == 2
    assert height < 40_000, f"the page is {height} px tall on a phone"
    assert len(loaded) < 40, f"{len(loaded)} images loaded before scrolling"
    assert sum(loaded) < 1_500_000, f"{sum(loaded)} bytes of images loaded before scrolling"
    assert open_png(shot).size == (390 * 3, 844 * 3)


def test_a_piece_cut_along_its_shape_shows_the_page_around_it(tmp_path: Path) -> None:
    """A round token was shown on a white square with a square shadow: white corners that are not part of the
    piece. Its transparent corners now show the page's paper."""
    browser_path = chromium()
    from playwright.sync_api import sync_playwright

    # the sample decks: round tokens (shape: circle) and the market's rectangular cards
    shutil.copytree(Path(__file__).resolve().parents[2] / "content" / "examples" / "decks", tmp_path / "content")
    out = tmp_path / "out"
    result = run("preview", "--out", str(out), "--content", str(tmp_path / "content"))
    assert result.exit_code == 0, result.stderr
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto((out / "preview" / "index.html").as_uri(), wait_until="load")
            corners = {}
            for name in ("tokens", "market"):
                figure = page.locator(f"#deck-{name}-{name} figure img").first
                figure.scroll_into_view_if_needed()
                page.wait_for_load_state("networkidle")
                shot = tmp_path / f"{name}.png"
                figure.screenshot(path=str(shot))
                image = open_png(shot).convert("RGB")
                corners[name] = image.getpixel((image.width // 10, image.height // 10))
            paper = page.evaluate("getComputedStyle(document.body).backgroundColor")
        finally:
            browser.close()
    assert paper.startswith("rgb(") and corners["tokens"] == tuple(int(v) for v in paper[4:-1].split(",")), \
        (corners, paper)
    assert corners["market"] != corners["tokens"]
