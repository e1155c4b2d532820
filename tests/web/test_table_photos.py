"""Every player's sheet photographed from one phone (`/tables/ID/photos`): each photo read on its own, so that one
refused does not hide what the others say; each listed as text (the value to check first, typed rather than found
on the photo); the sheets read kept as their players' parts, the refused one taken again."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from tests.web.conftest import SAME_ORIGIN, new_table
from tests.web.test_photo_upload import read_lines
from tests.web.test_tables import totals

pytest.importorskip("cv2")


def test_one_refused_photo_does_not_hide_the_others(client: TestClient) -> None:
    from tests.scan.helpers import GREAT, filled, photograph
    from tests.scan.photos_corpus import half_sheet

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben", "Cid"], version="great-architect")
    assert f'<a href="/tables/{table.id}/photos">photographs every player' in client.get(f"/tables/{table.id}").text
    form = client.get(f"/tables/{table.id}/photos").text
    assert "Before you take the photos" in form
    assert re.findall(r'<label for="sheet-\d">([^<]+)</label>', form) == [
        "Ana's sheet", "Ben's sheet", "Cid's sheet"]
    ana = photograph(filled("great-architect", "a4", GREAT))
    ben = photograph(filled("great-architect", "a4", dict(GREAT, guests=["king"], **{"towers[2]": (2, 5)})), turn=90)
    read = client.post(f"/tables/{table.id}/photos", headers=SAME_ORIGIN,
                       files=[("sheet-0", ("ana.jpg", ana, "image/jpeg")), ("sheet-1", ("ben.jpg", ben, "image/jpeg")),
                              ("sheet-2", ("cid.jpg", half_sheet(), "image/jpeg"))])
    assert read.status_code == 200, read.text
    sections = dict(re.findall(r'<h3 id="seat-\d">(\w+)</h3>(.*?)</section>', read.text, re.S))
    assert list(sections) == ["Ana", "Ben", "Cid"]
    assert "towers 5, 2, –, 5" in read_lines(sections["Ana"]) and "doubt" not in sections["Ana"]
    assert read_lines(sections["Ben"])[0].startswith("? towers #3 : the units 2 and 5 are both filled")
    assert "Not read: cid.jpg: shows only 2 of the sheet&#39;s 4 corner markers" in sections["Cid"]
    assert "<strong>What to change:</strong> Step back" in sections["Cid"]
    # Ben's photo, which left a question, is kept as his sheet's: another photo of it is added on its check page
    add = f'<a href="/tables/{table.id}/seats/1/photo">Add another photo of Ben\'s sheet (glare, a finger)'
    assert add in sections["Ben"] and "/photo" not in sections["Ana"] and "/photo" not in sections["Cid"]
    assert "Add another photo of this sheet" in client.get(f"/tables/{table.id}/seats/1/photo").text
    # Cid's photo is asked for again; Ana's and Ben's are not
    assert re.findall(r'<label for="sheet-(\d)">', read.text.split("Take these photos again")[1]) == ["2"]
    sent = dict(re.findall(r'<input type="hidden" name="(read:\d|refused)" value="([^"]*)">', read.text))
    assert set(sent) == {"read:0", "read:1", "refused"}
    # Ben's tower typed, not found on the photo; the two sheets read are kept, Cid is asked again
    kept = client.post(f"/tables/{table.id}/photos/keep", headers=SAME_ORIGIN,
                       data={**sent, "set:1:towers[2]": "2"})
    assert kept.status_code == 200 and "Kept: Ana, Ben." in kept.text and "Take these photos again" in kept.text
    scores = totals(client.get(f"/tables/{table.id}").text)
    assert scores["Ana"].lstrip("≈") == "31" and scores["Cid"] == "0" and scores["Ben"].lstrip("≈") != "0"


def test_a_value_that_cannot_be_kept_is_shown_again(client: TestClient) -> None:
    from tests.scan.helpers import GREAT, filled, photograph

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    ben = photograph(filled("great-architect", "a4", dict(GREAT, **{"towers[2]": (2, 5)})))
    read = client.post(f"/tables/{table.id}/photos", headers=SAME_ORIGIN,
                       files=[("sheet-1", ("ben.jpg", ben, "image/jpeg"))])
    sent = dict(re.findall(r'<input type="hidden" name="(read:\d)" value="([^"]*)">', read.text))
    left = client.post(f"/tables/{table.id}/photos/keep", headers=SAME_ORIGIN, data={**sent, "set:1:towers[2]": "x"})
    assert left.status_code == 400 and "towers[2] takes a whole number from 0 to 9 or none, not &#39;x&#39;" in left.text
    assert 'value="x"' in left.text
    done = client.post(f"/tables/{table.id}/photos/keep", headers=SAME_ORIGIN, data={**sent, "set:1:towers[2]": "5"})
    assert done.status_code == 303 and done.headers["location"] == f"/tables/{table.id}"
    forged = client.post(f"/tables/{table.id}/photos/keep", headers=SAME_ORIGIN, data={"read:1": "apprentice|a4|1"})
    assert forged.status_code == 400
    nothing = client.post(f"/tables/{table.id}/photos", headers=SAME_ORIGIN, files=[("sheet-0", ("", b"", "image/jpeg"))])
    assert nothing.status_code == 400 and "no photo was sent" in nothing.text


def test_read_the_photos_tapped_with_none_chosen_says_so_at_the_form(client: TestClient) -> None:
    """"Read the photos" tapped before a photo was chosen led to a page of its own ("Something is wrong", a link
    back to the home page): the table and its photos' form were a few taps away. The form is drawn again, each
    player's photo to choose, with the message above it."""
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    nothing = client.post(f"/tables/{table.id}/photos", headers=SAME_ORIGIN,
                          files=[("sheet-0", ("", b"", "image/jpeg"))])
    assert nothing.status_code == 400 and "no photo was sent" in nothing.text
    page = nothing.text
    assert page.index("no photo was sent") < page.index(f'action="/tables/{table.id}/photos"')
    assert 'name="sheet-0"' in page and 'name="sheet-1"' in page and f'href="/tables/{table.id}"' in page


def test_the_same_photo_for_two_players_is_refused_for_the_second(client: TestClient) -> None:
    """One phone photographs every sheet and picks Ana's photo for Ben too: Ben's is refused, naming Ana's, as
    `donjon score ana.jpg ana.jpg` refuses a file given twice (one player, one sheet); Ana's is read. Not two
    identical castles kept, which the rules would then blame on the players (a guest in two castles)."""
    from tests.scan.helpers import GREAT, filled, photograph

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    ana = photograph(filled("great-architect", "a4", GREAT))
    read = client.post(f"/tables/{table.id}/photos", headers=SAME_ORIGIN,
                       files=[("sheet-0", ("ana.jpg", ana, "image/jpeg")), ("sheet-1", ("copy.jpg", ana, "image/jpeg"))])
    sections = dict(re.findall(r'<h3 id="seat-\d">(\w+)</h3>(.*?)</section>', read.text, re.S))
    assert "towers 5, 2, –, 5" in read_lines(sections["Ana"])
    assert "Not read: copy.jpg" in sections["Ben"] and "Ana" in sections["Ben"].split("Not read:")[1]
    assert 'name="read:1"' not in read.text


@pytest.mark.parametrize("game", ["guildhall", "guedelon"])
def test_a_game_without_a_sheet_has_no_photos_page(client: TestClient, game: str) -> None:
    """The photos page of a Guildhall or Guédelon table (an address typed, a bookmark of another table's) was a
    server error (500, a KeyError in the castle's sheets): it is a 404 that says the game has no sheet to
    photograph, and a photo sent there is refused the same way, before it is read."""
    options = {"vp_set": "old-world-economy", "professions": ""} if game == "guildhall" else {"events": "easy"}
    table = new_table(client, game, ["Ana", "Ben"], **options)
    for answer in (client.get(f"/tables/{table.id}/photos"),
                   client.post(f"/tables/{table.id}/photos", headers=SAME_ORIGIN,
                               files=[("sheet-0", ("ana.jpg", b"\xff\xd8 not read", "image/jpeg"))]),
                   client.post(f"/tables/{table.id}/photos/keep", headers=SAME_ORIGIN, data={"read:0": "x"})):
        assert answer.status_code == 404, answer.text
        assert "no sheet to photograph" in answer.text
