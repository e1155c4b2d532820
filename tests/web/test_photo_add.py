"""Another photo of the same paper sheet at the table (issue 27): a glare photo leaves marks undecided; the player
tilts the phone and adds a second photo, which is read with the first through the same `combine` as
`donjon score a.jpg b.jpg --names Ana,Ana`. A photo of another sheet is refused and the photos kept stay as they
were; every photo kept is in the database, so the check page reloads the same; a new photo starts over."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from starlette.testclient import TestClient

from generator.web.db import Database
from tests.web.conftest import SAME_ORIGIN, new_table
from tests.web.test_photo_upload import read_lines
from tests.web.test_tables import totals

pytest.importorskip("cv2")


@pytest.fixture(scope="module")
def sheets() -> dict[str, bytes]:
    """The glare pair of one filled sheet (tests/scan/test_retake.py), and a photo of another player's sheet."""
    from tests.scan.helpers import GREAT, filled, photograph
    from tests.scan.test_retake import glare_pair

    first, tilted = glare_pair()
    return {"ana.jpg": first, "ana-tilted.jpg": tilted,
            "ben.jpg": photograph(filled("great-architect", "a4", GREAT), turn=90)}


def kept(db: Database, table_id: int, seat: int) -> list[str]:
    """The names of the photos kept of a seat's sheet, in order."""
    return db.read(lambda c: [r[0] for r in c.execute(
        "SELECT name FROM table_photos WHERE table_id = ? AND seat = ? ORDER BY number", (table_id, seat))])


def send(client: TestClient, url: str, name: str, data: bytes) -> Any:
    return client.post(url, headers=SAME_ORIGIN, files={"sheet": (name, data, "image/jpeg")})


def test_a_second_photo_settles_the_glare_and_another_sheet_is_refused(client: TestClient, db: Database,
                                                                       sheets: dict[str, bytes]) -> None:
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    check = f"/tables/{table.id}/seats/0/photo"
    # the first photo: kept, and its check page is a page of its own (a reload shows the same)
    first = send(client, f"/tables/{table.id}/seats/0/sheet", "ana.jpg", sheets["ana.jpg"])
    assert first.status_code == 303 and first.headers["location"] == check
    page = client.get(check).text
    asked = [line for line in read_lines(page) if line.startswith("?")]
    assert asked and all("glare" in line for line in asked), asked
    assert "added to this one, not put in its place" in page  # the glare advice: a photo is added
    assert 'id="more-photo" type="file" name="sheet" form="marks" accept="image/*" capture="environment"' in page
    assert "Read from 2 photos" not in page and client.get(check).text == page
    assert kept(db, table.id, 0) == ["ana.jpg"]
    # a photo of another player's sheet: refused, said, and the first photo kept as it was
    other = send(client, check, "ben.jpg", sheets["ben.jpg"])
    assert other.status_code == 400
    refused = re.search(r'<div class="refused" role="alert">(.*?)</div>', other.text, re.S)
    assert refused and "This photo was not added: it shows another sheet than the photo kept" in refused.group(1)
    assert "These photos show different sheets" in refused.group(1)
    assert "photo is kept as it was" in refused.group(1)
    assert [line for line in read_lines(other.text) if line.startswith("?")] == asked
    assert kept(db, table.id, 0) == ["ana.jpg"]
    # no file chosen: said, nothing kept
    empty = client.post(check, headers=SAME_ORIGIN, files={"sheet": ("", b"", "image/jpeg")})
    assert empty.status_code == 400 and "no file was chosen" in empty.text and kept(db, table.id, 0) == ["ana.jpg"]
    # the same photo sent again: nothing new, said, nothing kept
    same = send(client, check, "ana.jpg", sheets["ana.jpg"])
    assert same.status_code == 400 and "This photo was not added: it is a photo already kept of this sheet" in same.text
    assert kept(db, table.id, 0) == ["ana.jpg"]
    # the same sheet, the phone tilted: added, read with the first, nothing left to ask
    added = send(client, check, "ana-tilted.jpg", sheets["ana-tilted.jpg"])
    assert added.status_code == 303 and added.headers["location"] == check
    assert kept(db, table.id, 0) == ["ana.jpg", "ana-tilted.jpg"]
    both = client.get(check).text
    assert not [line for line in read_lines(both) if line.startswith("?")], read_lines(both)
    assert "Read from 2 photos of your sheet, together" in both and "Every mark was decided" in both
    assert client.get(check).text == both  # reloaded: the same
    # the player's page leads back to them (and says a new photo there starts over)
    seat = client.get(f"/tables/{table.id}/seats/0").text
    assert f"<a href=\"{check}\">Your sheet's 2 photos: check what they read, or add another photo of it</a>" in seat
    assert "/photo" not in client.get(f"/tables/{table.id}/seats/1").text
    # the marks the page holds seen again, still said to be of 2 photos; then kept as Ana's part, and scored
    filled_marks = re.findall(r'name="mark" value="(\d+)" checked', both)
    seen = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN, data={
        "version": "great-architect", "paper": "a4", "image": "", "mark": filled_marks, "photos": "2", "then": "check"})
    assert seen.status_code == 200 and "Read from 2 photos of your sheet" in seen.text
    keep = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN, follow_redirects=True,
                       data={"version": "great-architect", "paper": "a4", "image": "", "mark": filled_marks})
    assert keep.status_code == 200 and totals(keep.text)["Ana"].lstrip("≈").isdigit()
    # a new photo from the player's page starts over: the photos kept before are let go
    again = send(client, f"/tables/{table.id}/seats/0/sheet", "ana-tilted.jpg", sheets["ana-tilted.jpg"])
    assert again.status_code == 303 and kept(db, table.id, 0) == ["ana-tilted.jpg"]
    # another seat keeps nothing of Ana's: its check page is its player's page
    assert client.get(f"/tables/{table.id}/seats/1/photo").headers["location"] == f"/tables/{table.id}/seats/1"


def test_photos_named_alike_by_the_phone_are_told_apart(client: TestClient, db: Database,
                                                        sheets: dict[str, bytes]) -> None:
    """A phone names every photo `image.jpg`: the reader's words tell them apart by their place."""
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    check = f"/tables/{table.id}/seats/1/photo"
    assert send(client, f"/tables/{table.id}/seats/1/sheet", "image.jpg", sheets["ana.jpg"]).status_code == 303
    other = send(client, check, "image.jpg", sheets["ben.jpg"])
    assert other.status_code == 400 and "This photo was not added" in other.text
    assert send(client, check, "image.jpg", sheets["ana-tilted.jpg"]).status_code == 303
    assert kept(db, table.id, 1) == ["image.jpg", "image.jpg"]
    assert "Read from 2 photos" in client.get(check).text



def check_form(page: str) -> dict[str, Any]:
    """What the check page's form of marks sends as it stands: its hidden fields, the boxes ticked, the values typed."""
    sent: dict[str, Any] = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', page))
    sent["mark"] = re.findall(r'name="mark" value="(\d+)" checked', page)
    sent.update(re.findall(r'name="(set:[^"]+)" form="marks" value="([^"]*)"', page))
    return sent


def part_of(db: Database, table_id: int, seat: int) -> dict[str, Any]:
    import json

    return dict(json.loads(db.read(lambda c: c.execute("SELECT data FROM table_parts WHERE table_id = ? AND seat = ?",
                                                       (table_id, seat)).fetchone()[0])))


def add(client: TestClient, check: str, sent: dict[str, Any], name: str, data: bytes) -> Any:
    """Another photo added from the check page: its form of marks goes with it (the page's own button does that)."""
    return client.post(check, headers=SAME_ORIGIN, data=sent, files={"sheet": (name, data, "image/jpeg")})


def test_a_tap_before_another_photo_is_kept_and_beats_the_new_reading(client: TestClient, db: Database,
                                                                       sheets: dict[str, bytes]) -> None:
    """The glare photo leaves the sun undecided and reads no cloud in the sky; the player taps 3 clouds, then adds
    the tilted photo, which reads none either: the tap stands (a reload too) and is what is kept and scored, and
    the new photo settles the sun, which the player left."""
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    check = f"/tables/{table.id}/seats/0/photo"
    assert send(client, f"/tables/{table.id}/seats/0/sheet", "ana.jpg", sheets["ana.jpg"]).status_code == 303
    page = client.get(check).text
    assert "go with it and are kept" in page and "not carried over" not in page and "mark you tapped" not in page
    sent = check_form(page)
    three = re.search(r'<label id="mark-(\d+)" class="mark empty[^"]*"[^>]*>\s*<input[^>]*>\s*'
                      r'<span class="sr">sky clouds: units 3<', page)
    assert three and "sky clouds 0" in read_lines(page) and any(line.startswith("? sun") for line in read_lines(page))
    tapped = three.group(1)
    # a photo of another sheet: refused, and the tap sent with it is not lost
    refused = add(client, check, dict(sent, mark=[*sent["mark"], tapped]), "ben.jpg", sheets["ben.jpg"])
    assert refused.status_code == 400 and "This photo was not added" in refused.text
    assert tapped in check_form(refused.text)["mark"] and tapped in check_form(client.get(check).text)["mark"]
    assert "sky clouds 3" in read_lines(client.get(check).text)
    # the tilted photo, which reads no cloud: added, and the tap beats it; the sun is the photo's to settle
    added = add(client, check, check_form(client.get(check).text), "ana-tilted.jpg", sheets["ana-tilted.jpg"])
    assert added.status_code == 303 and kept(db, table.id, 0) == ["ana.jpg", "ana-tilted.jpg"]
    both = client.get(check).text
    assert "Read from 2 photos of your sheet" in both and client.get(check).text == both
    assert tapped in check_form(both)["mark"] and "1 mark you tapped is taken as you tapped it" in both
    lines = read_lines(both)
    assert "sky clouds 3" in lines and "sun no" in lines and not [line for line in lines if line[0] in "?✓"], lines
    # the photos alone read no cloud: the tap is what makes 3
    alone = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                        data=dict(check_form(both), mark=[m for m in check_form(both)["mark"] if m != tapped],
                                  then="check"))
    assert "sky clouds 0" in read_lines(alone.text)
    keep = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN, data=check_form(both))
    assert keep.status_code == 303 and part_of(db, table.id, 0)["sky_clouds"] == 3
    # starting over with a new photo lets the answers go with the photos
    assert send(client, f"/tables/{table.id}/seats/0/sheet", "ana.jpg", sheets["ana.jpg"]).status_code == 303
    assert tapped not in check_form(client.get(check).text)["mark"]


def test_a_tap_seen_with_see_what_my_marks_say_is_there_when_the_page_is_opened_again(
        client: TestClient, sheets: dict[str, bytes]) -> None:
    """A player taps a mark and asks what the marks say, then leaves the page (another player's turn) and opens it
    again: the tap is still there, and taken over the photo's reading; tapped back, it is gone again."""
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    check = f"/tables/{table.id}/seats/0/photo"
    assert send(client, f"/tables/{table.id}/seats/0/sheet", "ana.jpg", sheets["ana.jpg"]).status_code == 303
    page = client.get(check).text
    three = re.search(r'<label id="mark-(\d+)" class="mark empty[^"]*"[^>]*>\s*<input[^>]*>\s*'
                      r'<span class="sr">sky clouds: units 3<', page)
    assert three and "sky clouds 0" in read_lines(page)
    tapped = three.group(1)
    sent = check_form(page)
    seen = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                       data=dict(sent, mark=[*sent["mark"], tapped], then="check"))
    assert seen.status_code == 200 and "sky clouds 3" in read_lines(seen.text)
    again = client.get(check).text
    assert tapped in check_form(again)["mark"] and "sky clouds 3" in read_lines(again)
    assert "1 mark you tapped is taken as you tapped it" in again
    back = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                       data=dict(check_form(again), mark=[m for m in check_form(again)["mark"] if m != tapped],
                                 then="check"))
    assert back.status_code == 200 and "sky clouds 0" in read_lines(client.get(check).text)
    assert tapped not in check_form(client.get(check).text)["mark"]


def test_a_photo_added_once_the_game_is_saved_is_refused_and_nothing_is_kept(
        client: TestClient, db: Database, sheets: dict[str, bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    """The table saved from another phone between the page and the tap (the store refuses the answers): the photo is
    not read nor kept either, and the page says why."""
    from generator.web import messages, store

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    check = f"/tables/{table.id}/seats/0/photo"
    assert send(client, f"/tables/{table.id}/seats/0/sheet", "ana.jpg", sheets["ana.jpg"]).status_code == 303
    sent = check_form(client.get(check).text)
    three = re.search(r'<label id="mark-(\d+)" class="mark empty[^"]*"[^>]*>\s*<input[^>]*>\s*'
                      r'<span class="sr">sky clouds: units 3<', client.get(check).text)
    assert three

    def saved_meanwhile(*_args: object) -> None:
        raise store.StoreError(messages.TABLE_SAVED)

    monkeypatch.setattr(store, "keep_answers", saved_meanwhile)
    refused = add(client, check, dict(sent, mark=[*sent["mark"], three.group(1)]), "ana-tilted.jpg",
                  sheets["ana-tilted.jpg"])
    assert refused.status_code == 400 and "can no longer change" in refused.text
    assert kept(db, table.id, 0) == ["ana.jpg"]


def test_a_value_typed_before_another_photo_is_kept_and_can_be_blanked(client: TestClient, db: Database,
                                                                       sheets: dict[str, bytes]) -> None:
    """A value typed for the sun (yes), then another photo that reads it empty: the value typed stands, shown with
    the values to check (to change it), and is what the page sends: the rules then doubt the towers (the Sun needs
    all four), and keeping is refused; blanked out and sent with a photo, the photos' reading comes back."""
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    check = f"/tables/{table.id}/seats/0/photo"
    assert send(client, f"/tables/{table.id}/seats/0/sheet", "ana.jpg", sheets["ana.jpg"]).status_code == 303
    sent = check_form(client.get(check).text)
    assert "set:sun" in sent, sent
    assert add(client, check, dict(sent, **{"set:sun": "yes"}), "ana-tilted.jpg", sheets["ana-tilted.jpg"]
               ).status_code == 303
    both = client.get(check).text
    assert client.get(check).text == both and check_form(both)["set:sun"] == "yes"
    lines = read_lines(both)
    assert "✓ sun : you typed its value Or type its value (you gave yes)" in lines and "sun yes" in lines, lines
    assert any(line.startswith("? towers") and "sun is marked" in line for line in lines), lines
    keep = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN, data=check_form(both))
    assert keep.status_code == 400 and "sun is marked but" in keep.text
    # blanked out, and sent with a photo (the same one again: refused, the answer blanked all the same)
    again = add(client, check, dict(check_form(both), **{"set:sun": ""}), "ana.jpg", sheets["ana.jpg"])
    assert again.status_code == 400 and "already kept" in again.text
    page = client.get(check).text
    assert "sun no" in read_lines(page) and not [line for line in read_lines(page) if line[0] in "?✓"]
    keep = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN, data=check_form(page))
    assert keep.status_code == 303 and part_of(db, table.id, 0)["sun"] is False


def test_a_value_the_photo_left_undecided_is_not_kept_unanswered(client: TestClient, db: Database,
                                                                 sheets: dict[str, bytes]) -> None:
    """The glare photo leaves the sun undecided (its mark neither filled nor empty). "Keep" pressed at once, nothing
    typed nor tapped for it, keeps nothing, on the player's check page and on the page of every sheet: the sun is
    named as still to check (a mark the reader could not decide is never taken as empty, as `donjon score` never
    scores it before --set). Its value typed, or its mark tapped, the sheet is kept."""
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben", "Cid"], version="great-architect")
    check = f"/tables/{table.id}/seats/0/photo"
    assert send(client, f"/tables/{table.id}/seats/0/sheet", "ana.jpg", sheets["ana.jpg"]).status_code == 303
    page = client.get(check).text
    assert [line.split(" :")[0] for line in read_lines(page) if line.startswith("?")] == ["? sun"]
    sent = check_form(page)
    # "See what my marks say" with nothing answered: the sun still asked (not shown decided, its box gone)
    seen = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN, data={**sent, "then": "check"})
    assert seen.status_code == 200 and 'name="set:sun"' in seen.text
    assert "? sun" in [line.split(" :")[0] for line in read_lines(seen.text)]
    refused = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN, data=sent)
    assert refused.status_code == 400 and "sun" in refused.text.split('role="alert"', 1)[-1], refused.text
    assert "? sun" in [line.split(" :")[0] for line in read_lines(refused.text)]  # still asked, its box to type
    assert 'name="set:sun"' in refused.text
    assert totals(client.get(f"/tables/{table.id}").text)["Ana"] == "0"
    typed = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN, data={**sent, "set:sun": "false"})
    assert typed.status_code == 303 and part_of(db, table.id, 0).get("sun") is False
    # tapped: the sun's mark ticked (the rules then say the Sun cannot be: 2 towers are empty), and tapped back
    # after the player saw what the marks say, is an answer too: the mark is empty
    assert send(client, f"/tables/{table.id}/seats/1/sheet", "ana.jpg", sheets["ana.jpg"]).status_code == 303
    sent = check_form(client.get(f"/tables/{table.id}/seats/1/photo").text)
    sun = re.search(r'<label id="mark-\d+" class="mark [^"]*"[^>]*>\s*<input type="checkbox" name="mark" '
                    r'value="(\d+)"[^>]*>\s*<span class="sr">sun: ', page)
    assert sun and sun.group(1) not in sent["mark"]
    seen = client.post(f"/tables/{table.id}/seats/1/marks", headers=SAME_ORIGIN,
                       data={**sent, "mark": [*sent["mark"], sun.group(1)], "then": "check"})
    assert seen.status_code == 200 and "the Sun goes to the first castle with all 4 towers" in seen.text
    tapped = client.post(f"/tables/{table.id}/seats/1/marks", headers=SAME_ORIGIN, data=sent)
    assert tapped.status_code == 303 and part_of(db, table.id, 1).get("sun") is False
    # the page of every sheet: kept only once the sun is typed
    before = part_of(db, table.id, 2)
    every = client.post(f"/tables/{table.id}/photos", headers=SAME_ORIGIN,
                        files={"sheet-2": ("cid.jpg", sheets["ana.jpg"], "image/jpeg")})
    keep = dict(re.findall(r'<input type="hidden" name="(read:\d+)" value="([^"]*)"', every.text))
    assert keep, every.text
    left = client.post(f"/tables/{table.id}/photos/keep", headers=SAME_ORIGIN, data=keep)
    assert left.status_code == 400 and "sun" in left.text and "Kept:" not in left.text
    assert 'name="set:2:sun"' in left.text  # still asked, its box to type
    assert part_of(db, table.id, 2) == before
    kept_now = client.post(f"/tables/{table.id}/photos/keep", headers=SAME_ORIGIN, data={**keep, "set:2:sun": "no"})
    assert kept_now.status_code == 303 and part_of(db, table.id, 2).get("sun") is False


def test_a_pdf_scan_sent_as_the_filled_sheet_is_checked_as_a_photo(client: TestClient, db: Database,
                                                                   sheets: dict[str, bytes]) -> None:
    """A printed scan-ready sheet scanned to PDF (a phone's scanner app), sent where the fillable PDF goes: its marks
    are read as a photo's are, so it goes to its check page, where the sun the glare left undecided is asked;
    nothing is kept as the player's part before they answer."""
    import io

    from PIL import Image

    scan = io.BytesIO()
    Image.open(io.BytesIO(sheets["ana.jpg"])).convert("RGB").save(scan, "PDF", resolution=150)
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    before = part_of(db, table.id, 0)
    sent = client.post(f"/tables/{table.id}/seats/0/sheet", headers=SAME_ORIGIN,
                       files={"sheet": ("scan.pdf", scan.getvalue(), "application/pdf")})
    check = f"/tables/{table.id}/seats/0/photo"
    assert sent.status_code == 303 and sent.headers["location"] == check, sent.text
    assert part_of(db, table.id, 0) == before
    asked = [line.split(" :")[0] for line in read_lines(client.get(check).text) if line.startswith("?")]
    assert asked == ["? sun"]


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of each photo the reader reads (`generator.sheets.photos.read_photo`), in order."""
    from generator.sheets import photos

    read: list[str] = []
    reader = photos.read_photo

    def counted(data: bytes, display: str, *args: Any, **kwargs: Any) -> Any:
        read.append(display)
        return reader(data, display, *args, **kwargs)

    monkeypatch.setattr(photos, "read_photo", counted)
    return read


def test_each_photo_is_read_once_when_it_is_taken(db: Database, sheets: dict[str, bytes], reads: list[str]) -> None:
    """A photo (up to 96 MiB, seconds to read) is read when it is taken, and never again: not when its check page
    is shown again, not after the companion is started again (nothing in memory), not when another photo of the
    sheet is added (only the new one is read); the page is the same as when it was read."""
    from generator.web.app import create_app
    from generator.web.games import Games

    def started() -> TestClient:  # the companion started again on the same database: nothing kept in memory
        return TestClient(create_app(db, Games()), base_url="http://127.0.0.1", follow_redirects=False)

    with started() as client:
        table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
        check = f"/tables/{table.id}/seats/0/photo"
        assert send(client, f"/tables/{table.id}/seats/0/sheet", "ana.jpg", sheets["ana.jpg"]).status_code == 303
        assert reads == ["ana.jpg"]
        page = client.get(check).text
        assert client.get(check).text == page
    with started() as client:
        assert client.get(check).text == page and client.get(check).text == page
        assert reads == ["ana.jpg"]
        added = send(client, check, "ana-tilted.jpg", sheets["ana-tilted.jpg"])
        assert added.status_code == 303 and reads == ["ana.jpg", "ana-tilted.jpg"]
        both = client.get(check).text
        assert "Read from 2 photos of your sheet, together" in both and "Every mark was decided" in both
    with started() as client:
        assert client.get(check).text == both and reads == ["ana.jpg", "ana-tilted.jpg"]
    # a photo kept before readings were kept (a database of an earlier donjon) is read once more, then not again
    db.write(lambda c: c.execute("UPDATE table_photos SET reading = NULL, image = NULL WHERE number = 1"))
    with started() as client:
        assert client.get(check).text == both and client.get(check).text == both
    assert reads == ["ana.jpg", "ana-tilted.jpg", "ana.jpg"]
    # ... and so is a photo read by another reader (a donjon updated since: its reader, or where the sheet's marks
    # are printed, changed), once
    db.write(lambda c: c.execute("UPDATE table_photos SET reading = json_set(reading, '$.stamp', 'older') "
                                 "WHERE number = 2"))
    with started() as client:
        assert client.get(check).text == both and client.get(check).text == both
    assert reads == ["ana.jpg", "ana-tilted.jpg", "ana.jpg", "ana-tilted.jpg"]
    # ... and a photo kept as a sheet this donjon has no map of (a version since dropped): read again, not a crash
    db.write(lambda c: c.execute("UPDATE table_photos SET reading = json_set(reading, '$.version', 'gone') "
                                 "WHERE number = 1"))
    with started() as client:
        assert client.get(check).text == both
    assert reads == ["ana.jpg", "ana-tilted.jpg", "ana.jpg", "ana-tilted.jpg", "ana.jpg"]


def test_a_photo_past_the_most_kept_of_a_sheet_is_refused_and_the_tap_sent_with_it_kept(
        client: TestClient, db: Database, sheets: dict[str, bytes], reads: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet keeps at most MOST_PHOTOS_PER_SEAT photos (here 2): one more is refused, 409, saying how many are
    kept, before it is read; what the player tapped on the page it was sent from is kept, and nothing else."""
    from generator.web import store

    monkeypatch.setattr(store, "MOST_PHOTOS_PER_SEAT", 2)
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    check = f"/tables/{table.id}/seats/0/photo"
    assert send(client, f"/tables/{table.id}/seats/0/sheet", "ana.jpg", sheets["ana.jpg"]).status_code == 303
    assert 'id="more-photo"' in client.get(check).text  # one kept: another may be added
    assert add(client, check, check_form(client.get(check).text), "ana-tilted.jpg",
               sheets["ana-tilted.jpg"]).status_code == 303
    page = client.get(check).text
    # at the most, the page says so where another photo would be added, and offers none
    assert 'id="more-photo"' not in page and '<p class="add full">2 photos of this sheet are kept already' in page
    sent = check_form(page)
    untapped = re.findall(r'name="mark" value="(\d+)"(?! checked)', page)
    tapped = untapped[0]
    refused = add(client, check, dict(sent, mark=[*sent["mark"], tapped]), "ben.jpg", sheets["ben.jpg"])
    assert refused.status_code == 409
    alert = re.search(r'<div class="refused" role="alert">(.*?)</div>', refused.text, re.S)
    assert alert and "This photo was not added: 2 photos of this sheet are kept already" in alert.group(1)
    assert reads == ["ana.jpg", "ana-tilted.jpg"] and kept(db, table.id, 0) == ["ana.jpg", "ana-tilted.jpg"]
    assert tapped in check_form(refused.text)["mark"] and tapped in check_form(client.get(check).text)["mark"]
    # two phones at once: the store refuses the photo past the most too
    with pytest.raises(store.TooManyPhotos):
        db.write(lambda c: store.add_photo(c, table.id, 0, "ben.jpg", b"ben", first=False))
    # starting over keeps the new photo alone
    assert send(client, f"/tables/{table.id}/seats/0/sheet", "ben.jpg", sheets["ben.jpg"]).status_code == 303
    assert kept(db, table.id, 0) == ["ben.jpg"]


def test_at_the_most_photos_kept_no_advice_asks_for_another(client: TestClient, sheets: dict[str, bytes],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """At the most photos kept of a sheet (here 1), a field the glare left undecided is still asked about with its
    reason, and its advice says what can be done (look at the sheet and set it), not "add another photo", which the
    page no longer offers; in every language of the page. Below the most, the advice asks for another photo."""
    from generator.i18n import language
    from generator.sheets.advice import UNCERTAIN
    from generator.web import store

    glare = next(reason for reason in UNCERTAIN if reason.name == "glare")
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    check = f"/tables/{table.id}/seats/0/photo"
    assert send(client, f"/tables/{table.id}/seats/0/sheet", "ana.jpg", sheets["ana.jpg"]).status_code == 303
    page = client.get(check).text
    asked = [line for line in read_lines(page) if line.startswith("?")]
    assert asked and all(glare.advice in line for line in asked), asked
    assert "Glare or a finger over some marks? Tilt the phone" in page
    monkeypatch.setattr(store, "MOST_PHOTOS_PER_SEAT", 1)
    for code in ("en", "fr", "de"):
        client.cookies.set("donjon-lang", code)
        page = client.get(check).text
        lang = language(code)
        asked = [line for line in read_lines(page) if line.startswith("?")]
        alone = " ".join(lang._(glare.alone).split())  # as read_lines says it (a French colon's no-break space too)
        assert asked and all(alone in line for line in asked), (code, asked)
        assert 'id="more-photo"' not in page and lang._(glare.advice) not in unescape(page)
        # nor does the section where a photo would be added tell how to take one
        how = lang._("Glare or a finger over some marks? Tilt the phone, or move your hand, and photograph the same "
                     "sheet again: the new photo is added to this sheet's, not put in their place, and the marks are "
                     "read from all of them together.")
        assert how != "" and how not in unescape(page)
    client.cookies.clear()


def test_a_photo_of_another_version_of_the_sheet_is_refused_as_another_sheet(client: TestClient, db: Database,
                                                                            sheets: dict[str, bytes]) -> None:
    """A photo of the Apprentice sheet added to a Great Architect sheet's photo (their maps hold different numbers of
    marks) is refused as another sheet, with its advice, as `donjon score --names` refuses it; not as a sheet this
    donjon no longer prints."""
    from generator.web import messages
    from tests.scan.helpers import APPRENTICE, filled, photograph

    other = photograph(filled("apprentice", "a4", APPRENTICE), turn=90)
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    check = f"/tables/{table.id}/seats/0/photo"
    assert send(client, f"/tables/{table.id}/seats/0/sheet", "ana.jpg", sheets["ana.jpg"]).status_code == 303
    refused = add(client, check, check_form(client.get(check).text), "apprentice.jpg", other)
    assert refused.status_code == 400 and kept(db, table.id, 0) == ["ana.jpg"]
    alert = re.search(r'<div class="refused" role="alert">(.*?)</div>', refused.text, re.S)
    assert alert and messages.NOT_THIS_SHEET.split(":")[0] in alert.group(1), alert
    assert '<p class="advice">' in alert.group(1)


def test_a_photo_sent_twice_is_kept_once(client: TestClient, db: Database, games: Any, sheets: dict[str, bytes],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A double tap on "Add this photo", or the browser sending it again after a lost answer, while the first is
    still being read (seconds): both were read, and the photo was kept twice (read twice over in every combined
    reading, and one place fewer before the most kept of a sheet). Each photo's form carries a key drawn with its
    page: sent again, the photo is kept once, every send is answered as the first (its check page), and what the
    player answered since is kept."""
    import threading

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    check = f"/tables/{table.id}/seats/0/photo"
    seat_page = client.get(f"/tables/{table.id}/seats/0").text
    first_key = re.search(r'name="key" value="([^"]+)"', seat_page)
    assert first_key, "the photo form of a player's page carries no key"
    first = {"key": first_key.group(1)}
    for _ in range(2):  # the first photo sent again
        answer = client.post(f"/tables/{table.id}/seats/0/sheet", headers=SAME_ORIGIN, data=first,
                             files={"sheet": ("ana.jpg", sheets["ana.jpg"], "image/jpeg")})
        assert answer.status_code == 303 and answer.headers["location"] == check
    assert kept(db, table.id, 0) == ["ana.jpg"]
    more_key = re.search(r'name="key" form="marks" value="([^"]+)"', client.get(check).text)
    assert more_key, "the check page's form of another photo carries no key"
    # both sends read before either is kept, as a double tap on a photo being read for seconds
    both_read = threading.Barrier(2, timeout=60)
    read_photos = games.read_photos

    def read_together(*args: Any, **kwargs: Any) -> Any:
        found = read_photos(*args, **kwargs)
        both_read.wait()
        return found

    monkeypatch.setattr(games, "read_photos", read_together)
    answers: list[Any] = []

    def tap() -> None:
        answers.append(client.post(check, headers=SAME_ORIGIN, data={"key": more_key.group(1)},
                                   files={"sheet": ("ana-tilted.jpg", sheets["ana-tilted.jpg"], "image/jpeg")}))

    taps = [threading.Thread(target=tap) for _ in range(2)]
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join()
    monkeypatch.undo()
    assert [(a.status_code, a.headers.get("location")) for a in answers] == [(303, check)] * 2
    assert kept(db, table.id, 0) == ["ana.jpg", "ana-tilted.jpg"]
    again = client.post(check, headers=SAME_ORIGIN, data={"key": more_key.group(1)},
                        files={"sheet": ("ana-tilted.jpg", sheets["ana-tilted.jpg"], "image/jpeg")})
    assert (again.status_code, again.headers.get("location")) == (303, check)  # not "already kept"
    # the first photo's form sent once more (its answer was lost long ago): the two photos stay
    late = client.post(f"/tables/{table.id}/seats/0/sheet", headers=SAME_ORIGIN, data=first,
                       files={"sheet": ("ana.jpg", sheets["ana.jpg"], "image/jpeg")})
    assert late.status_code == 303 and kept(db, table.id, 0) == ["ana.jpg", "ana-tilted.jpg"]


def test_starting_over_with_the_very_photo_kept_starts_over(client: TestClient, db: Database,
                                                            sheets: dict[str, bytes]) -> None:
    """A player who added a photo and tapped marks, then opens their page again and photographs the sheet afresh
    with the very photo they took first ("a new photo below starts over"): they start over, with that photo alone
    and nothing answered. Its form was taken for the first photo's form sent again (the same table version, the
    same photo), and the check page came back with both photos and the taps; only the very page the photo was sent
    from is that form sent again."""
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    check, own = f"/tables/{table.id}/seats/0/photo", f"/tables/{table.id}/seats/0"

    def photo_key(page: str) -> dict[str, str]:
        found = re.search(r'name="key" (?:form="marks" )?value="([^"]+)"', page)
        assert found, "a photo's form carries no key"
        return {"key": found.group(1)}

    def version() -> int:
        return int(db.read(lambda c: c.execute("SELECT version FROM tables WHERE id = ?", (table.id,)).fetchone()[0]))

    first, drawn_at = photo_key(client.get(own).text), version()
    sent = client.post(f"{own}/sheet", headers=SAME_ORIGIN, data=first,
                       files={"sheet": ("ana.jpg", sheets["ana.jpg"], "image/jpeg")})
    assert sent.headers.get("location") == check
    page = client.get(check).text
    tapped = re.search(r'<label id="mark-(\d+)" class="mark empty', page)
    assert tapped
    added = client.post(check, headers=SAME_ORIGIN,
                        data={**check_form(page), "mark": [*check_form(page)["mark"], tapped.group(1)],
                              **photo_key(page)},
                        files={"sheet": ("ana-tilted.jpg", sheets["ana-tilted.jpg"], "image/jpeg")})
    assert added.headers.get("location") == check
    assert kept(db, table.id, 0) == ["ana.jpg", "ana-tilted.jpg"]
    assert "1 mark you tapped is taken as you tapped it" in client.get(check).text
    # nothing was entered at the table since: its version is the one the first photo was sent at
    assert version() == drawn_at
    again = client.post(f"{own}/sheet", headers=SAME_ORIGIN, data=photo_key(client.get(own).text),
                        files={"sheet": ("ana.jpg", sheets["ana.jpg"], "image/jpeg")})
    assert again.headers.get("location") == check
    assert kept(db, table.id, 0) == ["ana.jpg"]
    assert "you tapped is taken" not in client.get(check).text
    # and that start over's page sent again (a double tap) is still the one start over; a page drawn after it, with
    # that photo once more, starts over once more (the key differs each time: the photos taken only grow)
    twice = photo_key(client.get(own).text)
    assert twice != first
    for _ in range(2):
        client.post(f"{own}/sheet", headers=SAME_ORIGIN, data=twice,
                    files={"sheet": ("ana.jpg", sheets["ana.jpg"], "image/jpeg")})
    assert db.read(lambda c: c.execute("SELECT photos_taken FROM tables WHERE id = ?", (table.id,)).fetchone()[0]) \
        == 4
    assert photo_key(client.get(own).text) not in (first, twice)


def test_another_photo_sent_after_the_game_was_saved_elsewhere_is_refused_unread(
        client: TestClient, sheets: dict[str, bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    """The check page of a sheet's photo left open while another phone saved the game: another photo sent from it
    was read with the one kept (seconds), then refused. It is refused at once, and the page says why."""
    from tests.web.conftest import example, post_json

    game = f"/history/games/{post_json(client, '/api/games', example('once-upon-a-castle')).json()['id']}"
    table = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    check = f"{table}/seats/0/photo"
    assert send(client, f"{table}/seats/0/sheet", "ben.jpg", sheets["ben.jpg"]).headers["location"] == check
    assert client.post(f"{table}/save", headers=SAME_ORIGIN).headers["location"] == game  # the other phone
    games = client.app.state.companion.games  # type: ignore[attr-defined]
    read: list[str] = []
    real = games.read_photos

    def spy(*args: Any) -> Any:
        read.append("read")
        return real(*args)

    monkeypatch.setattr(games, "read_photos", spy)
    refused = send(client, check, "ana.jpg", sheets["ana.jpg"])
    assert refused.status_code == 400
    said = re.search(r'<div class="refused" role="alert">(.*?)</div>', refused.text, re.S)
    assert said and "This photo was not added: this game is saved; its table can no longer change" in said.group(1)
    assert read == []
