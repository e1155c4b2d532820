"""A table walked outside the evening the other browser tests play (Chromium at 390 x 844, touch, a real server):
the most players with long names and emoji, typed as a phone types them."""

from __future__ import annotations

import re
from typing import Any

from tests.web.test_browser import VIEWPORTS, browser, part_of, server, shot  # noqa: F401 - the module's fixtures

#: four names as long as the companion takes (40 characters at most), with emoji: a family of four is 7 characters
#: but 11 UTF-16 units, a dragon 1 character but 2 units; what a browser's maxlength counts is the units
NAMES = ["👨‍👩‍👧‍👦 Famille Dupont-Moretti 🐉🐉🐉🐉🐉", "Maximilian-Alexander von Hohenzollernb",
         "李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小龍", "Çağrı 🐉🐉🐉🐉🐉🐉🐉🐉🐉🐉🐉🐉🐉🐉🐉🐉🐉🐉"]


def test_names_with_emoji_are_kept_whole_as_typed_up_to_the_longest_a_name_may_be(browser: Any, server: str) -> None:
    """A browser counts a field's maxlength in UTF-16 units, the companion a name's length in characters: with both
    40, "👨‍👩‍👧‍👦 Famille Dupont-Moretti 🐉🐉🐉🐉🐉" (36 characters, 45 units) was cut to two dragons as it was
    typed, without a word, on the new game's form and on the seat's name. Every name the companion takes is kept
    whole; one longer than it takes is refused in words."""
    assert all(len(n) <= 40 for n in NAMES) and any(len(n.encode("utf-16-le")) // 2 > 40 for n in NAMES)
    context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"{server}/new/guildhall")
    for index, name in enumerate(NAMES):
        page.locator(f"#name-{index}").press_sequentially(name)
        assert page.input_value(f"#name-{index}") == name
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+$"))
    for name in NAMES:
        assert page.get_by_role("link", name=part_of(name)).count() == 1, name
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS["phone"]["width"]
    shot(page, "trust-emoji-names-table-390")
    page.get_by_role("link", name=part_of(NAMES[0])).click()
    page.wait_for_url(re.compile(r"/seats/0$"))
    corrected = NAMES[0].replace("Famille", "Familie")
    page.locator("details.rename summary").click()
    field = page.locator("#seat-name")
    field.fill("")
    field.press_sequentially(corrected)
    assert field.input_value() == corrected
    page.get_by_role("button", name="Keep this name").click()
    page.wait_for_url(re.compile(r"/seats/0$"))
    assert page.locator("h1").first.inner_text().count("🐉") == 5 and "Familie" in page.content()
    shot(page, "trust-emoji-names-seat-390")
    # one character more than a name may hold is said, not cut
    page.goto(f"{server}/new/guildhall")
    page.fill("#name-0", "A" * 41)
    page.fill("#name-1", "Ben")
    page.get_by_role("button", name="Open the table").click()
    assert "longer than 40" in page.locator(".violation").first.inner_text()
    context.close()
