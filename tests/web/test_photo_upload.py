"""A photo of a filled scan-ready sheet at the table: read, shown back over the photo, corrected by a tap, kept."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from tests.web.conftest import SAME_ORIGIN, new_table
from tests.web.test_tables import totals

pytest.importorskip("cv2")


def test_a_photo_is_shown_back_corrected_and_kept(client: TestClient) -> None:
    from tests.scan.helpers import GREAT, filled, photograph

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    seat = client.get(f"/tables/{table.id}/seats/0").text
    assert 'accept="image/*" capture="environment"' in seat
    values = dict(GREAT, **{"towers[2]": (2, 5)})  # two values on one tower: not decidable
    photo = photograph(filled("great-architect", "a4", values), turn=180)
    shown = client.post(f"/tables/{table.id}/seats/0/sheet", headers=SAME_ORIGIN,
                        files={"sheet": ("ana.jpg", photo, "image/jpeg")})
    assert shown.status_code == 200, shown.text
    assert "Check what was read" in shown.text and 'src="data:image/jpeg;base64,' in shown.text
    assert "<code>towers[2]</code></a>: the units 2 and 5 are both filled" in shown.text
    marks = re.findall(r'<label id="mark-\d+" class="mark (\w+) (\w+)(?: check)?"[^>]*>\s*<input type="checkbox" name="mark" value="(\d+)"'
                       r'( checked)?>\s*<span class="sr">([^<]*)</span>', shown.text)
    checked = {int(number) for _, _, number, on, _ in marks if on}
    by_label = {label.removesuffix(" (check it)"): int(number) for _, _, number, _, label in marks}
    # every mark of the tower is to check: "built" and its ten digits
    assert sorted(label for _, _, _, _, label in marks if "check it" in label) == sorted(
        ["towers[2]: built (check it)", *(f"towers[2]: units {d} (check it)" for d in range(10))])
    assert by_label["towers[2]: units 2"] in checked and by_label["towers[2]: units 5"] in checked
    form = {"version": "great-architect", "paper": "a4", "image": ""}
    # kept as read: refused, the tower has two values
    again = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                        data={**form, "mark": [str(n) for n in sorted(checked)]})
    assert again.status_code == 400 and "towers[2]: the units 2 and 5 are both filled" in again.text
    # the player taps the 2 away: the part is kept and scored
    corrected = sorted(checked - {by_label["towers[2]: units 2"]})
    kept = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                       data={**form, "mark": [str(n) for n in corrected]}, follow_redirects=True)
    assert kept.status_code == 200 and str(kept.url).endswith(f"/tables/{table.id}/seats/0")
    # towers 5 + 2 + 5 + 5, flags 5, two sky clouds 4, 12 residents 4, the Queen 3, the Jester 3 floors
    assert totals(kept.text)["Ana"].lstrip("≈") == "36"


def test_a_photo_of_another_version_or_no_sheet_is_refused(client: TestClient) -> None:
    from tests.scan.helpers import APPRENTICE, filled, photograph

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    other = client.post(f"/tables/{table.id}/seats/1/sheet", headers=SAME_ORIGIN,
                        files={"sheet": ("ben.jpg", photograph(filled("apprentice", "a4", APPRENTICE)),
                                         "image/jpeg")})
    assert other.status_code == 400 and "apprentice version" in other.text
    junk = client.post(f"/tables/{table.id}/seats/1/sheet", headers=SAME_ORIGIN,
                       files={"sheet": ("ben.jpg", b"\xff\xd8\xff\xe0 not a photo", "image/jpeg")})
    assert junk.status_code == 400 and "ben.jpg: is a damaged image" in junk.text
    forged = client.post(f"/tables/{table.id}/seats/1/marks", headers=SAME_ORIGIN,
                         data={"version": "great-architect", "paper": "a4", "mark": ["100000"]})
    assert forged.status_code == 400
