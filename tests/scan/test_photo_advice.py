"""What a player is told to change: every refusal the reader gives today, and every kind of uncertain field, has its
reason and its advice (generator/sheets/advice.py), so the companion and `donjon score` say what to do, not only
what went wrong."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from generator.errors import InputError  # noqa: E402
from generator.games.castle.sheets import read_sheets  # noqa: E402
from generator.sheets.advice import REFUSALS, UNCERTAIN, refusal, uncertainty  # noqa: E402
from generator.sheets.marks import interpret  # noqa: E402
from tests.scan import photos_corpus  # noqa: E402
from tests.scan.helpers import APPRENTICE, GREAT, filled, photograph, sheet_image  # noqa: E402
from tests.sheets.helpers import shipped  # noqa: E402


@pytest.mark.parametrize(("photo", "reason"), [
    ("no-sheet", "no-sheet"), ("fillable-sheet", "no-sheet"), ("half-sheet", "half-sheet"),
    ("two-sheets", "two-sheets"), ("blank-sheet", "blank"), ("tiny", "too-small"),
    ("png-100-megapixels", "too-large"), ("png-bomb", "too-large"), ("truncated", "not-a-photo"),
    ("garbage", "not-a-photo")])
def test_each_refusal_of_the_reader_has_its_advice(photo: str, reason: str) -> None:
    with pytest.raises(InputError) as refused:
        read_sheets([(photos_corpus.PHOTOS[photo](), "photo.jpg")], shipped())
    found = refusal(str(refused.value))
    assert found is not None and found.name == reason, str(refused.value)


def test_a_sheet_of_another_version_is_said_so() -> None:
    great = photograph(filled("great-architect", "a4", GREAT))
    read = read_sheets([(great, "ana.jpg"), (photograph(filled("apprentice", "a4", APPRENTICE)), "ben.jpg")],
                       shipped())
    assert [(u.file, u.reason) for u in read.unread] == [("ben.jpg", "other-version")]
    found = refusal("this sheet is for the apprentice version; this table plays great-architect")  # the companion's
    assert found is not None and found.name == "other-version"


def test_each_kind_of_uncertain_field_has_its_advice() -> None:
    the_map, _ = sheet_image("great-architect", "a4")
    marks = the_map.marks
    states: list[bool | None] = [False] * len(marks)
    for index, mark in enumerate(marks):
        if mark.field == "towers[0]" and mark.value in ("built", 2, 5):  # two values for one tower
            states[index] = True
        if mark.field == "residents" and mark.value in (1, 3):  # a gap
            states[index] = True
        if mark.field == "walls[0].flags[0]" and mark.value == 1:  # a flag on a wall left empty
            states[index] = True
        if mark.field == "sun":  # undecided: its ink between empty and filled
            states[index] = None
    why = ["a faint or small mark: its ink is 5%" if m.field == "sun" else "" for m in marks]
    reading = interpret(the_map, states, None, why)
    found = {u.field: uncertainty(u.why) for u in reading.uncertain}
    expected = {"towers[0]": "two-values", "residents": "gap", "walls[0].flags[0]": "rules", "walls[0]": "rules",
                "sun": "faint"}
    assert {field: reason.name if reason else None for field, reason in found.items()} == expected
    # the reader's own codes say the same
    assert {u.field: u.code for u in reading.uncertain} == expected
    outside = uncertainty("its mark is neither filled nor empty (outside the photo: the sheet is not all in it)")
    assert outside is not None and outside.name == "outside"


def test_the_tables_are_well_formed() -> None:
    for table in (REFUSALS, UNCERTAIN):
        names = [r.name for r in table]
        assert len(names) == len(set(names))
        for reason in table:
            assert reason.said and all(words == words.lower() for words in reason.said), reason.name
            assert reason.advice.endswith(".") and reason.advice[0].isupper(), reason.name
    # a reason the reader names itself wins over its words
    named = refusal("shows only 2 of the sheet's 4 corner markers", "blurred")
    assert named is not None and named.name == "blurred"
    assert refusal("reading photos needs the scan extra of donjon") is None
