"""The photo of a paper sheet on a phone, in Chromium (playwright) against a real `donjon serve`, at 390 and 320 px:
how to take it before the shot (the sheet drawn in a phone's screen, the tips), what to change after a refusal,
what was read as lines of text (the value to check first) without panning the sheet, a tap, the marks seen again,
kept and scored. For the castle's sheet and a sheet of one's own. axe-core finds no violation of any level on these
pages; screenshots in tests/web/screenshots/photo-*.png (not in git) are for looking at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import AXE, READ_MS, SHOTS, browser, totals  # noqa: F401 - browser: the fixture
from tests.web.test_serve_process import serving, wait_ready

pytestmark = pytest.mark.browser

PHONES = {"390": {"width": 390, "height": 844}, "320": {"width": 320, "height": 568}}
SHEETS = Path(__file__).resolve().parents[2] / "content" / "examples" / "sheets"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with serving("--db", str(tmp_path / "db.sqlite3")) as (_, url):
        wait_ready(url)
        yield url.rstrip("/")


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[str]:
    with serving("--db", str(tmp_path / "db.sqlite3"), "--content", str(SHEETS)) as (_, url):
        wait_ready(url)
        yield url.rstrip("/")


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    pytest.importorskip("cv2")
    from generator.games.sheet_game import SheetGame
    from generator.sheets.own import load_sheet
    from tests.scan.helpers import GREAT, fill_marks, filled, photograph, rendered
    from tests.scan.photos_corpus import half_sheet

    folder = tmp_path_factory.mktemp("photos")
    sheet, problems = load_sheet(SHEETS / "lantern-harbour")
    assert sheet is not None, problems
    scan = SheetGame(sheet).drawn("scan", "a4")
    assert scan.map is not None
    made = {"half.jpg": half_sheet(),
            "ana.jpg": photograph(filled("great-architect", "a4", dict(GREAT, **{"towers[2]": (2, 5)})), turn=90),
            "ada.jpg": photograph(fill_marks(scan.map, rendered(scan.page()), {
                "fish": 14, "boats": 3, "villagers": 7, "goods": ["salt", "amber"], "guild": "sailors"}), turn=30)}
    for name, data in made.items():
        (folder / name).write_bytes(data)
    return {name: folder / name for name in made}


def shot(page: Any, name: str, full: bool = False) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"photo-{name}.png"), full_page=full)


def no_violation(page: Any, what: str) -> None:
    """axe-core finds no violation at all (of any impact) on the page as it stands."""
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")  # as source, not a script tag: a CSP may forbid those
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                          ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))}))")
    assert found == [], f"{what}: {found}"


def fits(page: Any, what: str) -> None:
    """Nothing of the page is wider than the phone: no sideways panning (the sheet's photo scrolls in its own box)."""
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{what}: {wide} px wider than the phone"


def seat_page(page: Any, base: str, game: str, names: list[str], **options: str) -> None:
    """A new table of `game` opened on the phone, and the first player's page."""
    page.goto(f"{base}/new/{game}")
    for index, name in enumerate(names):
        page.fill(f"#name-{index}", name)
    for option, value in options.items():
        page.select_option(f"#opt-{option}", value)
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+$"))
    page.goto(page.url + "/seats/0")
    page.get_by_role("heading", name="Before you take the photo").wait_for()


@pytest.mark.parametrize("phone", PHONES)
def test_the_camera_helps_before_and_after_the_photo(browser: Any, server: str, photos: dict[str, Path],  # noqa: F811
                                                     phone: str) -> None:
    page = browser.new_page(viewport=PHONES[phone])
    seat_page(page, server, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    # before: the sheet drawn in a phone's screen, its four corner squares, and the tips in words
    guide = page.locator(".guide")
    guide.scroll_into_view_if_needed()
    frame = page.get_by_role("img", name="The sheet as it should fill the phone's screen")
    box = frame.bounding_box()
    assert box and 80 <= box["width"] <= 150 and box["x"] >= 0 and box["x"] + box["width"] <= PHONES[phone]["width"]
    assert frame.locator("rect.square").count() == 4
    for tip in ("Flat", "Whole sheet", "Good light, no glare", "Sharp"):
        assert guide.get_by_text(tip, exact=True).is_visible()
    fits(page, "seat page")
    page.locator(".upload").screenshot(path=str(SHOTS / f"photo-guide-{phone}.png"))
    no_violation(page, "seat page with the photo guide")
    # half a sheet: refused, said at the top, and what to change next to the tip to mind
    page.set_input_files("#sheet-photo", str(photos["half.jpg"]))
    page.get_by_role("button", name="Read the photo").click(timeout=READ_MS)
    page.get_by_role("link", name="what to change").click(timeout=READ_MS)
    refused = page.locator(".refused")
    assert "shows only 2 of the sheet's 4 corner markers" in refused.inner_text()
    assert refused.get_by_text("What to change:").is_visible()
    assert page.locator(".tips li.mind").inner_text().startswith("Mind this: Whole sheet")
    fits(page, "refusal")
    shot(page, f"refused-{phone}")
    no_violation(page, "seat page after a refusal")
    # a photo read: what was read is text at the top, the value to check first, without panning the sheet
    page.set_input_files("#sheet-photo", str(photos["ana.jpg"]))
    page.get_by_role("button", name="Read the photo").click(timeout=READ_MS)
    page.get_by_role("heading", name="Check what was read").wait_for(timeout=READ_MS)
    lines = page.locator("ul.read > li")
    assert lines.first.inner_text().startswith("? towers #3: the units 2 and 5 are both filled")
    assert "towers 5, 2, ?, 5" in [lines.nth(i).inner_text() for i in range(lines.count())]
    for index in range(lines.count()):
        box = lines.nth(index).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONES[phone]["width"]
    fits(page, "check page")
    shot(page, f"check-{phone}")
    no_violation(page, "check page")
    if phone == "390":
        # the line leads to the tower's marks; the 2 is tapped away and the marks seen again
        page.get_by_role("link", name="towers #3").click()
        two = page.locator(".mark.check", has_text="units 2")
        assert two.locator("input").is_checked()
        two.click()
        shot(page, f"check-tower-{phone}")
        # the page the marks' form loads, waited for: the check page before it has the same heading, and a click can
        # return before its navigation is seen (under load), the doubts then counted on the old page
        with page.expect_navigation(timeout=READ_MS):
            # the one under the photo
            page.get_by_role("button", name="See what my marks say").last.click(timeout=READ_MS)
        page.get_by_role("heading", name="Check what was read").wait_for(timeout=READ_MS)
        assert page.locator("ul.read > li.doubt").count() == 0
    else:
        # or its value is typed, as `--set` takes it, without looking for its marks
        page.get_by_label("Or type its value").fill("5")
        page.get_by_role("button", name="See what my marks say").first.click(timeout=READ_MS)
        page.get_by_role("heading", name="Check what was read").wait_for(timeout=READ_MS)
        assert page.get_by_label("Or type its value (you gave 5)").input_value() == "5"
        shot(page, f"check-typed-{phone}")
    assert page.get_by_text("towers 5, 2, 5, 5").is_visible()
    page.get_by_role("button", name="Keep these values").first.click()  # the one under what was read
    page.wait_for_url(re.compile(r"/tables/\d+/seats/0$"))
    assert totals(page)["Ana"].lstrip("≈") == "36"
    page.close()


def test_a_photo_of_a_sheet_of_ones_own_on_a_phone(browser: Any, own_server: str,  # noqa: F811
                                                   photos: dict[str, Path]) -> None:
    page = browser.new_page(viewport=PHONES["320"])
    seat_page(page, own_server, "lantern-harbour", ["Ada", "Bo"])
    assert page.get_by_role("img", name="The sheet as it should fill the phone's screen").locator(
        "rect.square").count() == 4
    page.set_input_files("#sheet-photo", str(photos["ada.jpg"]))
    page.get_by_role("button", name="Read the photo").click(timeout=READ_MS)
    page.get_by_role("heading", name="Check what was read").wait_for(timeout=READ_MS)
    said = page.locator("ul.read").inner_text()
    for line in ("guild sailors", "boats 3", "fish 14", "villagers 7", "goods Salt, Amber"):
        assert line in said
    fits(page, "check page of one's own sheet")
    shot(page, "own-check-320")
    no_violation(page, "check page of one's own sheet")
    page.get_by_role("button", name="Keep these values").first.click()  # the one under what was read
    page.wait_for_url(re.compile(r"/tables/\d+/seats/0$"))
    assert totals(page)["Ada"] == str(6 + 14 + 9 + 4)
    page.close()


def test_every_sheet_from_one_phone(browser: Any, server: str, photos: dict[str, Path]) -> None:  # noqa: F811
    """One phone photographs every player's sheet: the refused photo is said with what to change, beside what the
    others say; the value asked is typed; the sheets read are kept."""
    page = browser.new_page(viewport=PHONES["320"])
    seat_page(page, server, "once-upon-a-castle", ["Ana", "Ben", "Cid"], version="great-architect")
    page.get_by_role("link", name=re.compile("table")).first.click()
    page.get_by_role("link", name="photographs every player's sheet").click()
    page.get_by_role("heading", name="Photograph every player's sheet").wait_for()
    no_violation(page, "the photos of every sheet")
    page.set_input_files("#sheet-0", str(photos["ana.jpg"]))
    page.set_input_files("#sheet-2", str(photos["half.jpg"]))
    page.get_by_role("button", name="Read the photos").click(timeout=READ_MS)
    page.get_by_role("heading", name="What each photo says").wait_for(timeout=READ_MS)
    assert "Not read: half.jpg: shows only 2 of the sheet's 4 corner markers" in page.locator(
        "#seat-2 ~ .refused").inner_text()
    fits(page, "what each photo says")
    shot(page, "every-sheet-320", full=True)
    no_violation(page, "what each photo says")
    page.get_by_label("Its value on Ana's sheet").fill("5")
    page.get_by_role("button", name="Keep the sheets read").click(timeout=READ_MS)
    page.get_by_text("Kept: Ana.").wait_for(timeout=READ_MS)
    assert page.get_by_label("Cid's sheet").count() == 1  # asked again
    page.close()


@pytest.fixture(scope="module")
def glare_photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A glare photo the reader asks about alone, a second photo of the same sheet with the phone tilted (the pair
    of tests/scan/test_retake.py), and a photo of another player's sheet."""
    pytest.importorskip("cv2")
    from tests.scan.helpers import GREAT, filled, photograph
    from tests.scan.test_retake import glare_pair

    folder = tmp_path_factory.mktemp("glare")
    first, tilted = glare_pair()
    made = {"ana.jpg": first, "ana-tilted.jpg": tilted, "ben.jpg": photograph(filled("great-architect", "a4", GREAT))}
    for name, data in made.items():
        (folder / name).write_bytes(data)
    return {name: folder / name for name in made}


def glare_check_page(page: Any, base: str, photo: Path) -> list[str]:
    """Ana's glare photo read at a new table: the check page, and its lines still to check."""
    seat_page(page, base, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    page.set_input_files("#sheet-photo", str(photo))
    page.get_by_role("button", name="Read the photo").click(timeout=READ_MS)
    page.get_by_role("heading", name="Check what was read").wait_for(timeout=READ_MS)
    asked: list[str] = page.locator("ul.read > li.doubt").all_inner_texts()
    assert asked and all("glare" in line for line in asked), asked
    return asked


def test_a_second_photo_of_the_sheet_settles_the_glare(browser: Any, server: str,  # noqa: F811
                                                       glare_photos: dict[str, Path]) -> None:
    page = browser.new_page(viewport=PHONES["390"])
    glare_check_page(page, server, glare_photos["ana.jpg"])
    # what to do about the glare: tilt and add a photo, which is added, not put in the first one's place
    assert "it is added to this one, not put in its place" in page.locator("ul.read .advice").first.inner_text()
    page.get_by_label("Add another photo of this sheet").set_input_files(str(glare_photos["ana-tilted.jpg"]))
    page.get_by_role("button", name="Add this photo").click(timeout=READ_MS)
    page.get_by_text("Read from 2 photos of your sheet").wait_for(timeout=READ_MS)
    assert page.locator("ul.read > li.doubt").count() == 0
    assert page.get_by_text("Every mark was decided").is_visible()
    fits(page, "check page of two photos")
    shot(page, "added-390")  # the phone's screen, 390 x 844
    shot(page, "added-390-full", full=True)
    no_violation(page, "check page of two photos")
    page.reload()  # the same state again
    page.get_by_text("Read from 2 photos of your sheet").wait_for(timeout=READ_MS)
    assert page.locator("ul.read > li.doubt").count() == 0
    page.get_by_role("button", name="Keep these values").first.click()
    page.wait_for_url(re.compile(r"/tables/\d+/seats/0$"))
    assert totals(page)["Ana"].lstrip("≈").isdigit()
    page.close()


def test_a_tap_goes_with_another_photo_of_the_sheet(browser: Any, server: str,  # noqa: F811
                                                    glare_photos: dict[str, Path]) -> None:
    """A player taps a mark (3 clouds in the sky, which neither photo reads), then adds the tilted photo: the tap is
    still there, the new photo settles the glare, a reload shows the same, and the tap is what is scored."""
    page = browser.new_page(viewport=PHONES["390"])
    glare_check_page(page, server, glare_photos["ana.jpg"])
    assert page.get_by_text("sky clouds 0").is_visible()
    three = page.locator(".mark", has_text="sky clouds: units 3")
    assert not three.locator("input").is_checked()
    three.click()  # the tap
    page.get_by_label("Add another photo of this sheet").scroll_into_view_if_needed()
    shot(page, "tapped-390")  # before the photo is added: the phone's screen, 390 x 844
    shot(page, "tapped-390-full", full=True)
    page.get_by_label("Add another photo of this sheet").set_input_files(str(glare_photos["ana-tilted.jpg"]))
    page.get_by_role("button", name="Add this photo").click(timeout=READ_MS)
    page.get_by_text("Read from 2 photos of your sheet").wait_for(timeout=READ_MS)
    assert page.locator("ul.read > li.doubt").count() == 0  # the glare settled by the new photo
    assert page.get_by_text("sky clouds 3").is_visible() and three.locator("input").is_checked()
    assert page.get_by_text("1 mark you tapped is taken as you tapped it").is_visible()
    fits(page, "check page of two photos, with a tap")
    shot(page, "tap-kept-390")
    shot(page, "tap-kept-390-full", full=True)
    no_violation(page, "check page of two photos, with a tap")
    page.reload()
    page.get_by_text("Read from 2 photos of your sheet").wait_for(timeout=READ_MS)
    assert page.get_by_text("sky clouds 3").is_visible() and three.locator("input").is_checked()
    page.get_by_role("button", name="Keep these values").first.click()
    page.wait_for_url(re.compile(r"/tables/\d+/seats/0$"))
    # the photos alone read no cloud in the sky and score 18; the 3 clouds tapped make it 24
    assert totals(page)["Ana"].lstrip("≈") == "24"
    page.close()


def test_a_photo_of_another_sheet_is_not_added(browser: Any, server: str,  # noqa: F811
                                               glare_photos: dict[str, Path]) -> None:
    page = browser.new_page(viewport=PHONES["320"])
    asked = glare_check_page(page, server, glare_photos["ana.jpg"])
    page.get_by_label("Add another photo of this sheet").set_input_files(str(glare_photos["ben.jpg"]))
    page.get_by_role("button", name="Add this photo").click(timeout=READ_MS)
    refused = page.locator(".review .refused")
    refused.wait_for(timeout=READ_MS)
    said = refused.inner_text()
    assert "This photo was not added: it shows another sheet than the photo kept" in said
    assert "These photos show different sheets" in said and "photo is kept as it was" in said
    # the first photo kept: what it read is still there, and so after a reload of its check page
    assert page.locator("ul.read > li.doubt").all_inner_texts() == asked
    fits(page, "a photo of another sheet refused")
    shot(page, "not-added-320", full=True)
    no_violation(page, "a photo of another sheet refused")
    page.goto(page.url)  # the check page of the photos kept (the refusal was the answer to a post)
    page.get_by_role("heading", name="Check what was read").wait_for(timeout=READ_MS)
    assert page.locator("ul.read > li.doubt").all_inner_texts() == asked
    assert page.get_by_text("Read from 2 photos").count() == 0
    page.close()
