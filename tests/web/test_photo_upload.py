"""A photo of a filled scan-ready sheet at the table: how to take it (drawn and said before the shot), what to
change after a refusal (per reason), what was read as lines of text (the values to check first), corrected by a tap,
seen again, kept. For the castle's sheets and for a sheet of one's own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape

import pytest
from starlette.testclient import TestClient

from tests.web.conftest import SAME_ORIGIN, new_table
from tests.web.test_own_sheet_table import own  # noqa: F401 - the fixture: the app serving the example sheets
from tests.web.test_tables import totals

pytest.importorskip("cv2")

MARK = re.compile(r'<label id="mark-\d+" class="mark (\w+) (\w+)(?: check)?"[^>]*>\s*<input type="checkbox" name="mark" '
                  r'value="(\d+)"( checked)?>\s*<span class="sr">([^<]*)</span>')


def read_lines(page: str) -> list[str]:
    """The lines of "Read from your photo", as text (the values to check first)."""
    found = re.search(r'<ul class="read"[^>]*>(.*?)</ul>', page, re.S)
    assert found, page
    items = re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", " ", item)).split()) for item in items]


def guide_squares(page: str) -> list[tuple[float, float, float]]:
    """The corner squares the photo guide draws, (x, y, side)."""
    return [tuple(float(v) for v in found) for found in  # type: ignore[misc]
            re.findall(r'<rect class="square" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', page)]


def upload(client: TestClient, table_id: int, seat: int, name: str, data: bytes) -> str:
    response = client.post(f"/tables/{table_id}/seats/{seat}/sheet", headers=SAME_ORIGIN,
                           files={"sheet": (name, data, "image/jpeg")}, follow_redirects=True)
    assert response.status_code in (200, 400), response.text
    return str(response.text)


def test_the_seat_page_shows_how_to_take_the_photo(client: TestClient) -> None:
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    seat = client.get(f"/tables/{table.id}/seats/0").text
    assert 'accept="image/*" capture="environment"' in seat
    assert "Before you take the photo" in seat and 'role="img" aria-labelledby="guide-title guide-desc"' in seat
    for words in ("<strong>Flat</strong>", "<strong>Whole sheet</strong>", "<strong>Good light, no glare</strong>",
                  "<strong>Sharp</strong>"):
        assert words in seat
    # the sheet's own four corner squares, one near each corner of its outline, none marked to mind yet
    squares = guide_squares(seat)
    outline = re.search(r'<rect class="sheet" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', seat)
    assert outline and len(squares) == 4 and "Mind this" not in seat
    x, y, w, h = (float(v) for v in outline.groups())
    for sx, sy, side in squares:
        assert x < sx < x + w and y < sy < y + h and 0 < side < w / 8
        assert min(sx - x, x + w - sx - side) < w / 10 and min(sy - y, y + h - sy - side) < h / 10


@pytest.mark.parametrize(("photo", "said", "change", "mind"), [
    ("half-sheet", "shows only 2 of the sheet&#39;s 4 corner markers", "Step back until the whole sheet is in the frame",
     "Whole sheet"),
    ("no-sheet", "none of its four corner markers was found", "Frame the whole sheet, its four black corner squares",
     "Whole sheet"),
    ("two-sheets", "shows more than one whole sheet", "one sheet per photo", "One sheet"),
    ("blank-sheet", "with no mark filled in", "photograph the sheet of the finished game", ""),
    ("apprentice", "this sheet is for the Apprentice version; this table plays Great Architect",
     "This sheet is of another version", ""),
])
def test_a_refused_photo_says_what_to_change(client: TestClient, photo: str, said: str, change: str,
                                             mind: str) -> None:
    from tests.scan.photos_corpus import PHOTOS

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    page = client.post(f"/tables/{table.id}/seats/1/sheet", headers=SAME_ORIGIN,
                       files={"sheet": ("ben.jpg", PHOTOS[photo](), "image/jpeg")})
    assert page.status_code == 400
    assert 'Your sheet could not be read: <a href="#upload-title">what to change</a>' in page.text  # at the top
    refused = re.search(r'<div class="refused" role="alert">(.*?)</div>', page.text, re.S)
    assert refused and said in refused.group(1), page.text
    advice = re.search(r'<p class="advice"><strong>What to change:</strong> ([^<]+)</p>', refused.group(1))
    assert advice and change in advice.group(1), refused.group(1)
    marked = re.findall(r'<li class="mind"><span class="mind-flag">Mind this:</span> <strong>([^<]+)</strong>',
                        page.text)
    assert marked == ([mind] if mind else [])


#: English words of the reader's refusals that no French or German sentence holds (the file's name aside).
ENGLISH = {"the", "of", "is", "its", "shows", "only", "sheet", "sheet's", "whole", "corner", "markers", "found",
           "more", "than", "one", "damaged", "cannot", "be", "read", "photograph", "none", "no", "filled", "too",
           "small"}


def english_words(html: str) -> set[str]:
    text = unescape(re.sub(r"<[^>]+>", " ", html)).replace("ben.jpg", " ")
    return {w for w in re.findall(r"[A-Za-z']+", text)} & ENGLISH


@pytest.mark.parametrize("code", ["fr", "de"])
def test_a_refused_photo_is_said_in_the_phones_language(client: TestClient, code: str) -> None:
    """A photo refused, at a French or German phone: why (with the photo's name) and what to change, both in its
    language, on the player's page, on the page of every sheet, and when it is added to a sheet's photo; no
    sentence of the reader's English left on the page."""
    from tests.scan.helpers import GREAT, filled, photograph
    from tests.scan.photos_corpus import PHOTOS

    language = {**SAME_ORIGIN, "Accept-Language": code}
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    for photo in ("half-sheet", "no-sheet", "two-sheets", "truncated", "tiny", "apprentice"):
        page = client.post(f"/tables/{table.id}/seats/1/sheet", headers=language,
                           files={"sheet": ("ben.jpg", PHOTOS[photo](), "image/jpeg")})
        assert page.status_code == 400
        refused = re.search(r'<div class="refused" role="alert">(.*?)</div>', page.text, re.S)
        assert refused and ("ben.jpg" in refused.group(1) or photo == "apprentice"), page.text
        assert not english_words(refused.group(1)), (photo, refused.group(1))
        # versions by their names in the language, as the new-game form offers them, not by donjon's ids
        assert "apprentice" not in refused.group(1) and "great-architect" not in refused.group(1), refused.group(1)
    every = client.post(f"/tables/{table.id}/photos", headers=language,
                        files={"sheet-1": ("ben.jpg", PHOTOS["half-sheet"](), "image/jpeg")})
    refused = re.search(r'<div class="refused">(.*?)</div>', every.text, re.S)
    assert refused and "ben.jpg" in refused.group(1) and not english_words(refused.group(1)), every.text
    first = client.post(f"/tables/{table.id}/seats/0/sheet", headers=language,
                        files={"sheet": ("ana.jpg", photograph(filled("great-architect", "a4", GREAT)), "image/jpeg")})
    assert first.status_code == 303
    added = client.post(first.headers["location"], headers=language,
                        files={"sheet": ("ben.jpg", PHOTOS["truncated"](), "image/jpeg")})
    refused = re.search(r'<div class="refused" role="alert">(.*?)</div>', added.text, re.S)
    assert added.status_code == 400 and refused and "ben.jpg" in refused.group(1), added.text
    assert not english_words(refused.group(1)), refused.group(1)


@pytest.mark.parametrize("code", ["fr", "de"])
def test_a_pdf_that_is_no_fillable_sheet_is_said_in_the_phones_language(client: TestClient, code: str) -> None:
    """A PDF without form fields (the sheet printed and scanned to a PDF, another document) sent from the player's
    page of a French or German phone was refused in the reader's English, with what to do at a command line
    ("donjon build writes them as ...-fillable.pdf"). It is said in the phone's language, with what to change."""
    import io

    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(595, 842)
    plain = io.BytesIO()
    writer.write(plain)
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    page = client.post(f"/tables/{table.id}/seats/1/sheet", headers={**SAME_ORIGIN, "Accept-Language": code},
                       files={"sheet": ("ben.jpg", plain.getvalue(), "application/pdf")})
    assert page.status_code == 400
    refused = re.search(r'<div class="refused" role="alert">(.*?)</div>', page.text, re.S)
    assert refused and "ben.jpg" in refused.group(1), page.text
    assert not english_words(refused.group(1)) and "donjon build" not in refused.group(1), refused.group(1)
    advice = re.search(r'<p class="advice">(.*?)</p>', refused.group(1), re.S)
    assert advice and "PDF" in advice.group(1), refused.group(1)


@pytest.mark.parametrize(("code", "said"), [
    ("en", ["sun: yes", "towers #1: built", "towers #1: units 5", "walls #1 flags #1: 2", "guests: Queen"]),
    ("fr", ["soleil : oui", "tours #1 : construite", "tours #1 : unit. 5", "remparts #1 drapeaux #1 : 2",
            "invités : Reine"])])
def test_each_mark_of_a_photo_is_named_in_words_to_a_screen_reader(client: TestClient, code: str,
                                                                   said: list[str]) -> None:
    """A screen reader on a photo's check page heard each mark by donjon's field path, in English on a French
    phone: "towers[0]: units 5", "sun: true", "guests: queen". Each mark is named as the lines above it name its
    field and value, in the phone's language."""
    from tests.scan.helpers import GREAT, filled, photograph

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    first = client.post(f"/tables/{table.id}/seats/0/sheet", headers=SAME_ORIGIN,
                        files={"sheet": ("ana.jpg", photograph(filled("great-architect", "a4", GREAT)), "image/jpeg")})
    assert first.status_code == 303
    page = client.get(first.headers["location"], headers={**SAME_ORIGIN, "Accept-Language": code}).text
    labels = [unescape(label).replace("\u00a0", " ").replace("\u202f", " ") for *_, label in MARK.findall(page)]
    assert labels and not [label for label in labels if "[" in label or "true" in label], labels[:5]
    # a guest's name donjon translated itself is marked †, as on the lines above
    assert set(said) <= {label.rstrip("†") for label in labels}, sorted(set(said) - set(labels))


def test_an_empty_file_is_said_empty_not_missing(client: TestClient) -> None:
    """A photo of 0 bytes (a transfer that failed, a cloud placeholder) chosen on the phone: refused with its name,
    said to be empty, on the player's page and when added to a sheet's photo; not "no file was chosen"."""
    from tests.scan.helpers import GREAT, filled, photograph

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    page = client.post(f"/tables/{table.id}/seats/1/sheet", headers=SAME_ORIGIN,
                       files={"sheet": ("ben.jpg", b"", "image/jpeg")})
    refused = re.search(r'<div class="refused" role="alert">(.*?)</div>', page.text, re.S)
    assert page.status_code == 400 and refused, page.text
    assert "ben.jpg: is empty (0 bytes)" in refused.group(1) and "no file was chosen" not in page.text
    french = client.post(f"/tables/{table.id}/seats/1/sheet", headers={**SAME_ORIGIN, "Accept-Language": "fr"},
                         files={"sheet": ("ben.jpg", b"", "image/jpeg")})
    refused = re.search(r'<div class="refused" role="alert">(.*?)</div>', french.text, re.S)
    assert refused and "ben.jpg" in refused.group(1) and "vide" in refused.group(1), french.text  # not "damaged"
    assert "endommag" not in refused.group(1)
    first = client.post(f"/tables/{table.id}/seats/0/sheet", headers=SAME_ORIGIN,
                        files={"sheet": ("ana.jpg", photograph(filled("great-architect", "a4", GREAT)), "image/jpeg")})
    assert first.status_code == 303
    added = client.post(first.headers["location"], headers=SAME_ORIGIN,
                        files={"sheet": ("ana-2.jpg", b"", "image/jpeg")})
    assert added.status_code == 400 and "ana-2.jpg: is empty (0 bytes)" in added.text, added.text
    assert "no file was chosen" not in added.text


def test_the_photo_pages_in_french_set_a_space_before_each_colon(client: TestClient) -> None:
    """French prints a no-break space before `:`: the photo guide's tips ("Plat : sur une table...") and the lines
    of the values to check ("tours #3 : ...") are labelled as every other French label is, not "Plat: ..."."""
    from tests.scan.helpers import GREAT, filled, photograph

    french = {**SAME_ORIGIN, "Accept-Language": "fr"}
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    seat = client.get(f"/tables/{table.id}/seats/0", headers=french).text
    tips = re.search(r'<ol class="tips">(.*?)</ol>', seat, re.S)
    assert tips, seat
    said = [unescape(re.sub(r"<[^>]+>", "", li)) for li in re.findall(r"<li[^>]*>(.*?)</li>", tips.group(1), re.S)]
    assert len(said) == 5 and all(re.search(r"[^\u00a0\u202f]:", tip) is None for tip in said), said
    values = dict(GREAT, **{"towers[2]": (2, 5)})  # two values on one tower: a value to check
    shown = client.post(f"/tables/{table.id}/seats/0/sheet", headers=french, follow_redirects=True,
                        files={"sheet": ("ana.jpg", photograph(filled("great-architect", "a4", values)), "image/jpeg")})
    found = re.search(r'<ul class="read"[^>]*>(.*?)</ul>', shown.text, re.S)
    assert found, shown.text
    doubts = [unescape(re.sub(r"<[^>]+>", "", li)) for li in re.findall(r'<li class="doubt[^>]*>(.*?)</li>',
                                                                         found.group(1), re.S)]
    assert doubts and all(re.search(r"#\d+\u00a0: ", line) for line in doubts), doubts
    # the word for none the box takes, in French (it said "ou none"; "aucun" is taken by every kind of field)
    assert 'placeholder="sa valeur, ou «\u202faucun\u202f»"' in unescape(shown.text)
    # the field named once, then why: it read "tours #3 : tours #3 : deux valeurs remplies" (and in German too)
    assert doubts[0].startswith("? tours #3\u00a0: deux valeurs remplies"), doubts
    german = client.post(f"/tables/{table.id}/seats/0/sheet", headers={**SAME_ORIGIN, "Accept-Language": "de"},
                         follow_redirects=True, files={"sheet": ("ana.jpg", photograph(filled("great-architect", "a4",
                                                                                             values)), "image/jpeg")})
    lines = read_lines(german.text)
    assert lines[0].startswith("? Türme #3 : zwei Werte ausgefüllt Zwei Werte"), lines


def test_a_photo_is_read_out_as_text_corrected_and_kept(client: TestClient) -> None:
    from tests.scan.helpers import GREAT, filled, photograph

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    values = dict(GREAT, **{"towers[2]": (2, 5)})  # two values on one tower: not decidable
    shown = client.post(f"/tables/{table.id}/seats/0/sheet", headers=SAME_ORIGIN,
                        files={"sheet": ("ana.jpg", photograph(filled("great-architect", "a4", values), turn=180),
                                         "image/jpeg")}, follow_redirects=True)
    assert shown.status_code == 200, shown.text
    assert "Check what was read" in shown.text and 'src="data:image/jpeg;base64,' in shown.text
    assert "1 value could not be read for sure" in shown.text
    # the value to check first, with why and what to do, then the sheet row by row
    assert read_lines(shown.text) == [
        "? towers #3 : the units 2 and 5 are both filled; a digit takes one value Two values are filled where one "
        "counts: keep the one that counts (tap the other away). Or type its value",
        "sun no", "cloud no", "sky clouds 2", "towers 5, 2, ?, 5", "walls yes (flags 2), yes (flags 1, 2), no, yes",
        "donjon floors 3", "residents 12", "guests Jester, Queen"]  # guests by their names, never their ids
    marks = MARK.findall(shown.text)
    checked = {int(number) for _, _, number, on, _ in marks if on}
    by_label = {label.removesuffix(" (check it)"): int(number) for _, _, number, _, label in marks}
    # every mark of the tower is to check ("built" and its ten digits), and the line links to the first of them
    assert sorted(label for _, _, _, _, label in marks if "check it" in label) == sorted(
        ["towers #3: built (check it)", *(f"towers #3: units {d} (check it)" for d in range(10))])
    assert f'<a href="#mark-{by_label["towers #3: built"]}"><strong>towers #3</strong></a>' in shown.text
    assert by_label["towers #3: units 2"] in checked and by_label["towers #3: units 5"] in checked
    form = {"version": "great-architect", "paper": "a4", "image": ""}
    # kept as read: refused, the tower has two values
    again = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                        data={**form, "mark": [str(n) for n in sorted(checked)]})
    assert again.status_code == 400 and "towers[2]: the units 2 and 5 are both filled" in again.text
    # the player taps the 2 away and asks what the marks say: nothing is kept yet
    corrected = [str(n) for n in sorted(checked - {by_label["towers #3: units 2"]})]
    seen = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                       data={**form, "mark": corrected, "then": "check"})
    assert seen.status_code == 200 and "could not be read for sure" not in seen.text
    assert "towers 5, 2, 5, 5" in read_lines(seen.text)
    assert totals(client.get(f"/tables/{table.id}/seats/0").text)["Ana"].lstrip("≈") == "0"
    kept = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN, data={**form, "mark": corrected},
                       follow_redirects=True)
    assert kept.status_code == 200 and str(kept.url).endswith(f"/tables/{table.id}/seats/0")
    # towers 5 + 2 + 5 + 5, flags 5, two sky clouds 4, 12 residents 4, the Queen 3, the Jester 3 floors
    assert totals(kept.text)["Ana"].lstrip("≈") == "36"


def test_a_castle_well_played_is_kept_with_all_its_marks(client: TestClient) -> None:
    """A full castle fills more marks than a form of options holds (its limit, 40 fields, once refused "Keep" of
    such a sheet with a 400): every box ticked is taken, seen again, kept and scored."""
    from tests.scan.helpers import filled, photograph

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    values = {"donjon_floors": 5, "towers[0]": 9, "towers[1]": 8, "towers[2]": 7, "towers[3]": 6, "sun": True,
              **{f"walls[{w}]": True for w in range(4)}, **{f"walls[{w}].flags[{f}]": 2 for w in range(4)
                                                            for f in range(2)},
              "sky_clouds": 4, "residents": 30, "guests": ["queen", "jester", "king", "monk", "prince"]}
    shown = client.post(f"/tables/{table.id}/seats/0/sheet", headers=SAME_ORIGIN,
                        files={"sheet": ("ana.jpg", photograph(filled("great-architect", "a4", values)),
                                         "image/jpeg")}, follow_redirects=True)
    assert shown.status_code == 200, shown.text
    checked = [number for _, _, number, on, _ in MARK.findall(shown.text) if on]
    assert len(checked) > 40, len(checked)
    form = {"version": "great-architect", "paper": "a4", "image": "", "mark": checked}
    seen = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN, data={**form, "then": "check"})
    assert seen.status_code == 200, seen.text
    assert "residents 30" in read_lines(seen.text)
    kept = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN, data=form, follow_redirects=True)
    assert kept.status_code == 200 and str(kept.url).endswith(f"/tables/{table.id}/seats/0"), kept.text
    assert totals(kept.text)["Ana"].lstrip("≈") not in ("", "0")


def test_forged_marks_are_refused(client: TestClient) -> None:
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    for data in ({"version": "great-architect", "paper": "a4", "mark": ["100000"]},
                 {"version": "apprentice", "paper": "a4", "mark": ["1"]},
                 {"version": "great-architect", "paper": "a0", "mark": ["1"]}):
        assert client.post(f"/tables/{table.id}/seats/1/marks", headers=SAME_ORIGIN, data=data).status_code == 400


def test_a_photo_of_a_sheet_of_ones_own(own: TestClient) -> None:  # noqa: F811
    from generator.registry import find_game
    from tests.scan.helpers import fill_marks, photograph, rendered

    table = new_table(own, "lantern-harbour", ["Ana", "Ben"])
    seat = own.get(f"/tables/{table.id}/seats/0").text
    assert "Before you take the photo" in seat and len(guide_squares(seat)) == 4
    scan = find_game("lantern-harbour").drawn("scan", "a4")  # type: ignore[attr-defined]
    values = {"fish": 14, "boats": 3, "villagers": 7, "goods": ["salt", "amber"], "guild": "sailors"}
    photo = photograph(fill_marks(scan.map, rendered(scan.page()), values), turn=30)
    shown = upload(own, table.id, 0, "ana.jpg", photo)
    assert "Check what was read" in shown, shown
    lines = read_lines(shown)
    assert {"guild sailors", "boats 3", "fish 14", "storm no", "villagers 7", "goods Salt, Amber"} <= set(lines)
    checked = [number for _, _, number, on, _ in MARK.findall(shown) if on]
    kept = own.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                    data={"version": "lantern-harbour", "paper": "a4", "image": "", "mark": checked},
                    follow_redirects=True)
    assert kept.status_code == 200, kept.text
    # villagers 7 (6) + 14 fish + 3 boats x 3 + 2 goods x 2
    assert totals(kept.text)["Ana"] == str(6 + 14 + 9 + 4)
    refused = own.post(f"/tables/{table.id}/seats/1/sheet", headers=SAME_ORIGIN,
                       files={"sheet": ("ben.jpg", photograph(rendered(scan.page())[:900]), "image/jpeg")})
    assert refused.status_code == 400 and "<strong>What to change:</strong> Step back" in refused.text


def test_an_undecided_value_is_typed_rather_than_tapped(client: TestClient) -> None:
    """A phone's player types the value of the field the marks leave undecided, as `--set` takes it, without
    finding its marks on the photo."""
    from tests.scan.helpers import GREAT, filled, photograph

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    values = dict(GREAT, **{"towers[2]": (2, 5)})
    shown = upload(client, table.id, 0, "ana.jpg", photograph(filled("great-architect", "a4", values)))
    assert 'name="set:towers[2]" form="marks"' in shown
    checked = [number for _, _, number, on, _ in MARK.findall(shown) if on]
    form = {"version": "great-architect", "paper": "a4", "image": "", "mark": checked}
    wrong = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                        data={**form, "set:towers[2]": "12"})
    assert wrong.status_code == 400 and "towers[2] takes a whole number from 0 to 9 or none, not &#39;12&#39;" in \
        wrong.text
    assert 'value="12"' in wrong.text  # what was typed stays, to be mended
    for code, said, none in (("fr", "tours #3 accepte un nombre entier de 0 à 9 ou aucun, pas «\u202f12\u202f»",
                              "aucun"),
                             ("de", "Türme #3 nimmt eine ganze Zahl von 0 bis 9 oder keine an, nicht „12“",
                              "keine")):
        page = client.post(f"/tables/{table.id}/seats/0/marks", headers={**SAME_ORIGIN, "Accept-Language": code},
                           data={**form, "set:towers[2]": "12"})
        assert page.status_code == 400 and said in page.text and "takes a whole" not in page.text, code
        # the word for nothing the page suggests in the language (it said "ou none") is taken
        nothing = client.post(f"/tables/{table.id}/seats/0/marks", headers={**SAME_ORIGIN, "Accept-Language": code},
                              data={**form, "set:towers[2]": none, "then": "check"})
        assert nothing.status_code == 200, code
    seen = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                       data={**form, "set:towers[2]": "5", "then": "check"})
    assert seen.status_code == 200
    lines = read_lines(seen.text)
    assert "towers 5, 2, 5, 5" in lines and lines[0].endswith("Or type its value (you gave 5)")
    unknown = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                          data={**form, "set:tower[9]": "5"})
    assert unknown.status_code == 400 and "the sheet has no field" in unknown.text
    unknown = client.post(f"/tables/{table.id}/seats/0/marks", headers={**SAME_ORIGIN, "Accept-Language": "fr"},
                          data={**form, "set:tower[9]": "5"})
    assert unknown.status_code == 400 and "la feuille n’a pas de champ «\u202ftower[9]\u202f»" in unknown.text
    kept = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN, data={**form, "set:towers[2]": "5"},
                       follow_redirects=True)
    assert kept.status_code == 200 and totals(kept.text)["Ana"].lstrip("≈") == "36"


def test_the_box_of_an_undecided_value_suggests_a_word_it_takes(client: TestClient) -> None:
    """The box of a value the marks leave undecided suggests, in French and German, the word to type for nothing,
    quoted as a word to type ("sa valeur, ou « aucun »", "sein Wert oder „keine“"), and takes it. It said "sa valeur,
    ou aucun" and "sein Wert, oder keine": a pronoun that did not agree with "valeur" or "Wert" (nor a German comma
    before "oder"), rather than the word the box takes."""
    from tests.scan.helpers import GREAT, filled, photograph

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    photo = photograph(filled("great-architect", "a4", dict(GREAT, **{"towers[2]": (2, 5)})))
    for code, quoted in (("fr", r"sa valeur, ou «\u202f(\w+)\u202f»"), ("de", r"sein Wert oder „(\w+)“")):
        client.cookies.set("donjon-lang", code)
        shown = upload(client, table.id, 0, "ana.jpg", photo)
        placeholder = re.search(r'name="set:towers\[2\]"[^>]* placeholder="([^"]*)"', shown)
        assert placeholder is not None, shown
        word = re.fullmatch(quoted, unescape(placeholder.group(1)))
        assert word is not None, placeholder.group(1)
        checked = [number for _, _, number, on, _ in MARK.findall(shown) if on]
        form = {"version": "great-architect", "paper": "a4", "image": "", "mark": checked}
        nothing = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                              data={**form, "set:towers[2]": word.group(1), "then": "check"})
        assert nothing.status_code == 200, (code, nothing.text[-2000:])
    client.cookies.clear()


def test_a_value_typed_wrong_does_not_drop_the_others_typed(client: TestClient) -> None:
    """Two values typed on the check page, one of which cannot be (a tower of 12): the page says why, and shows the
    other value typed as taken (the first tower 3), not what the marks alone say (5) beside "you typed its value"."""
    from tests.scan.helpers import GREAT, filled, photograph

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    values = dict(GREAT, **{"towers[2]": (2, 5)})
    shown = upload(client, table.id, 0, "ana.jpg", photograph(filled("great-architect", "a4", values)))
    checked = [number for _, _, number, on, _ in MARK.findall(shown) if on]
    form = {"version": "great-architect", "paper": "a4", "image": "", "mark": checked}
    for then in ({"then": "check"}, {}):
        page = client.post(f"/tables/{table.id}/seats/0/marks", headers=SAME_ORIGIN,
                           data={**form, "set:towers[0]": "3", "set:towers[2]": "12", **then})
        assert "towers[2] takes a whole number from 0 to 9 or none, not &#39;12&#39;" in page.text
        assert "towers 3, 2, ?, 5" in read_lines(page.text), read_lines(page.text)
        # the value that cannot be taken is still a question (not ticked as given), its box holding it to mend
        assert [line[:12] for line in read_lines(page.text) if "#" in line] == ["? towers #3 ", "✓ towers #1 "]
        assert 'name="set:towers[2]" form="marks" value="12"' in page.text


def test_a_photo_the_size_of_a_200_megapixel_phones_is_taken(client: TestClient) -> None:
    """Phones of 200 megapixels save JPEGs of 30 to 60 MB, which the reader reads (a JPEG of any size up to its
    pixel bound, decoded at a reduced scale): the companion takes one such photo (here a sheet's photo carrying
    60 MB in all, as such a file does) and reads it, rather than refusing it as too large (413)."""
    from tests.scan.helpers import GREAT, filled, photograph

    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    photo = photograph(filled("great-architect", "a4", GREAT))
    large = photo + bytes(60_000_000 - len(photo))  # what follows a JPEG's end is not read: the same photo
    sent = client.post(f"/tables/{table.id}/seats/0/sheet", headers=SAME_ORIGIN,
                       files={"sheet": ("ana.jpg", large, "image/jpeg")})
    assert sent.status_code == 303, sent.text[:500]
    assert client.get(sent.headers["location"]).status_code == 200


@pytest.mark.parametrize(("code", "figure", "unit"), [("en", "0.25", "MiB"), ("fr", "0,25", "Mio"),
                                                      ("de", "0,25", "MiB")])
def test_a_body_too_large_is_refused_with_the_cap_in_mib(client: TestClient, code: str, figure: str,
                                                         unit: str) -> None:
    """A body above its route's cap is refused (413) saying the cap in MiB, written as the phone's language writes
    numbers (a form: 256 KiB, 0.25 MiB); a photo above the photo's cap is refused while it arrives, said the same."""
    from generator.web.app import MOST_SHEET

    page = client.post("/tables", data={"name": ["A" * 300_000]},
                       headers={**SAME_ORIGIN, "accept": "text/html", "accept-language": code})
    refused = re.search(r'<main[^>]*>(.*?)</main>', page.text, re.S)
    assert page.status_code == 413 and refused, page.text
    said = " ".join(unescape(re.sub(r"<[^>]+>", " ", refused.group(1))).replace("\u00a0", " ").split())
    assert f"({figure} {unit})" in said, said
    if code != "en":
        return
    table = new_table(client, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")

    def streamed() -> Iterator[bytes]:  # no Content-Length: the cap is checked on the bytes as they arrive
        yield (b'--cut\r\nContent-Disposition: form-data; name="sheet"; filename="ana.jpg"\r\n'
               b"Content-Type: image/jpeg\r\n\r\n")
        for _ in range(MOST_SHEET // (1 << 20) + 1):
            yield bytes(1 << 20)

    script = client.post(f"/tables/{table.id}/seats/0/sheet", content=streamed(),
                         headers={**SAME_ORIGIN, "content-type": "multipart/form-data; boundary=cut"})
    mib = MOST_SHEET // (1 << 20)
    said = f"the request body is larger than the {mib} MiB this address accepts"
    assert script.status_code == 413 and script.text == said, script.text[:300]


def test_a_castle_guest_typed_by_its_name_on_a_check_page_is_taken() -> None:
    """A German phone's check page of a castle photo offers the guests by their German names, but "Königin, Narr"
    typed into its guests box was refused ("'Königin, Narr' ist keiner davon"): only the ids were taken. A guest
    typed by any of its names is its id, as in a YAML file; one that names no guest is still refused, the others
    listed by the page's names."""
    from generator.i18n import language
    from generator.web.games import Games

    games = Games()
    german = language("de")
    part, problems, _ = games.sheet_from_marks("great-architect", "a4", set(), {"guests": "Königin, Narr"}, "",
                                               "once-upon-a-castle", german)
    assert problems == [] and part["guests"] == ["queen", "jester"], problems
    _, problems, _ = games.sheet_from_marks("great-architect", "a4", set(), {"guests": "Königin, Prinzesin"}, "",
                                            "once-upon-a-castle", german)
    assert len(problems) == 1 and problems[0].endswith("„Prinzesin“ ist keiner davon"), problems


@pytest.mark.parametrize(("code", "opening", "closing"), [("fr", "«\u202f", "\u202f»"), ("de", "„", "“")])
def test_a_value_refused_on_a_check_page_is_quoted_as_the_phones_language_quotes(code: str, opening: str,
                                                                                 closing: str) -> None:
    """What a player typed and a check page refuses was quoted with Python's quotes in French and German
    ("'Prinzesin' ist keiner davon"): now as the language quotes (« Prinzesin », „Prinzesin“), a long value cut
    with its length in the language's numbers; the command line's English keeps `'x'`."""
    from generator.i18n import language
    from generator.sheets.marks import NOT_DIGITS, BadConfirmation
    from generator.sayings import Quoted
    from generator.web.games import Games

    _, problems, _ = Games().sheet_from_marks("great-architect", "a4", set(), {"guests": "Prinzesin"}, "",
                                              "once-upon-a-castle", language(code))
    assert len(problems) == 1 and f"{opening}Prinzesin{closing}" in problems[0], problems
    assert "'Prinzesin'" not in problems[0]
    long = BadConfirmation("towers[1]", NOT_DIGITS, given=Quoted("9" * 5000), most=5)
    assert ", not '999" in str(long) and str(long).endswith("9… (5,000 characters)"), str(long)
    said = long.said(language(code))
    assert opening + "9" * 20 in said and f"9…{closing}" in said and "'" not in said, said
    assert ("5\u202f000" if code == "fr" else "5.000") in said, said
