"""Two photos of one sheet (`donjon score a.jpg b.jpg --names Ana,Ana`): photos given the same name are one sheet,
read mark by mark (generator.sheets.photos.combine). A retake from another angle moves a glare spot, not the ink:
what one photo could not decide, the other does. Photos that read a mark differently leave it undecided, naming
both; photos of two different sheets are refused rather than mixed."""

from __future__ import annotations

import importlib
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("cv2")

from generator.sheets.photo_reasons import field_issue  # noqa: E402
from generator.wording import listing  # noqa: E402
from tests.scan.helpers import GREAT, RENDER, filled, photograph, sheet_image  # noqa: E402
from tests.scan.test_photos import run, save  # noqa: E402
from tests.sheets.helpers import REPO, shipped  # noqa: E402

sys.path.insert(0, str(REPO / "benchmarks"))
families: Any = importlib.import_module("photo_families")
bench: Any = importlib.import_module("scan_photos")


def glare_pair() -> tuple[bytes, bytes]:
    """A glare photo of the benchmark's family (3 megapixels, no clutter) in which the glare washes out a mark,
    and a second photo of the same filled sheet, its glare and pose drawn again (photo_families.make_pair)."""
    rng = random.Random("t0")
    guests = [g.id for g in shipped().guests_of("great-architect")]
    values = bench.random_game(rng, "great-architect", 1, guests)[0]
    the_map, image = sheet_image("great-architect", "a4")
    family = families.FAMILIES["glare"]
    family = replace(family, camera=replace(family.camera, megapixels=(3.0,), clutter=False))
    first, second = families.make_pair(family, families.Sheet(the_map, image, RENDER),
                                       bench.filled_marks(the_map, values), "t0")
    return first.data, second.data


@pytest.fixture(scope="module")
def glare(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The glare pair (glare_pair), as files."""
    folder = tmp_path_factory.mktemp("glare")
    first, second = glare_pair()
    return save(folder, "ana.jpg", first), save(folder, "ana-tilted.jpg", second)


def test_a_second_photo_from_another_angle_settles_what_the_glare_hid(glare: tuple[str, str],
                                                                       tmp_path: Path) -> None:
    first, second = glare
    alone = run("score", first, "--json")
    assert alone.exit_code == 1, alone.output
    asked = json.loads(alone.stdout)["uncertain"]
    assert asked and {u["reason"] for u in asked} == {"glare"}
    # what the player is told about glare (the companion's advice): a second photo helps
    advice = field_issue("glare", ["sun"]).advice
    assert "add another photo of it with the phone tilted" in advice and "added to this one" in advice
    both = run("score", first, second, "--names", "Ana,Ana", "--json")
    assert both.exit_code == 0, both.output
    scored = json.loads(both.stdout)
    assert [p["name"] for p in scored["players"]] == ["Ana"] and scored["uncertain"] == []
    assert scored["combined"] == [{"player": "Ana", "photos": [first, second]}]
    table = run("score", first, second, "--names", "Ana,Ana")
    assert table.exit_code == 0
    assert f"  Ana: one sheet read from 2 photos, {first}, {second}" in table.stdout.splitlines()
    # --annotate draws each photo of the sheet with what it read on its own
    drawn = run("score", first, second, "--names", "Ana,Ana", "--annotate", str(tmp_path))
    assert drawn.exit_code == 0, drawn.output
    assert sorted(p.name for p in tmp_path.glob("*.read.jpg")) == ["ana-tilted.read.jpg", "ana.read.jpg"]


def test_the_command_line_says_what_to_change_for_what_a_photo_left_uncertain(glare: tuple[str, str]) -> None:
    """Issue 27 item 2 ("glare over towers 2 and 3: tilt the phone"): each value a photo leaves uncertain carries its
    reason's advice in the JSON, and the listing says it once per photo and reason, naming the fields, with how the
    command line takes a second photo of the sheet."""
    first, _ = glare
    asked = json.loads(run("score", first, "--json").stdout)["uncertain"]
    advice = field_issue("glare", ["sun"]).advice
    assert asked and all(u["reason"] == "glare" and u["advice"] == advice for u in asked)
    table = run("score", first)
    assert table.exit_code == 1
    lines = table.stdout.splitlines()
    told = [line for line in lines if line.startswith("    what to change (")]
    assert told == [f"    what to change ({listing([u['field'] for u in asked], 'and')}): {advice}"]
    assert any(first in line and "--names NAME,NAME" in line for line in lines[lines.index(told[0]) + 1:])


@pytest.fixture(scope="module")
def sheets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("sheets")
    # the same sheet, but its first tower read 6 in the second photo: two marks read differently
    six = dict(GREAT, **{"towers[0]": 6})
    # another player's sheet: the King rather than the Queen and the Jester, another tower, no third wall
    other = dict(GREAT, guests=["king"], **{"towers[1]": 4, "walls[3]": False})
    return {"ana": save(folder, "ana.jpg", photograph(filled("great-architect", "a4", GREAT))),
            "ana2": save(folder, "ana2.jpg", photograph(filled("great-architect", "a4", six), turn=90)),
            "ben": save(folder, "ben.jpg", photograph(filled("great-architect", "a4", other), turn=180))}


def test_photos_that_disagree_on_a_mark_leave_it_to_the_player(sheets: dict[str, str]) -> None:
    ana, ana2, ben = sheets["ana"], sheets["ana2"], sheets["ben"]
    result = run("score", ana, ana2, ben, "--names", "Ana,Ana,Ben", "--json")
    assert result.exit_code == 1, result.output
    scored = json.loads(result.stdout)
    [doubt] = scored["uncertain"]
    assert (doubt["field"], doubt["reason"], doubt["photo"]) == ("towers[0]", "disagree", ana)
    assert "the photos disagree" in doubt["why"] and ana in doubt["why"] and ana2 in doubt["why"]
    assert scored["combined"] == [{"player": "Ana", "photos": [ana, ana2]}]
    # the combined sheet is confirmed as one sheet: by its player's name, or by any of its photos
    for key in ("Ana:towers[0]", "ana2.jpg:towers[0]", "ana.jpg:towers[0]", "sheets[1].towers[0]"):
        confirmed = run("score", ana, ana2, ben, "--names", "Ana,Ana,Ben", "--set", f"{key}=5", "--json")
        assert confirmed.exit_code == 0, (key, confirmed.output)
        players = {p["name"]: p for p in json.loads(confirmed.stdout)["players"]}
        assert sorted(players) == ["Ana", "Ben"] and players["Ana"]["breakdown"]["towers"] == 12
    # one sheet alone: a bare field is for it
    alone = run("score", ana, ana2, "--names", "Ana,Ana", "--set", "towers[0]=5")
    assert alone.exit_code == 0, alone.output


def test_photos_of_two_different_sheets_are_not_mixed(sheets: dict[str, str]) -> None:
    ana, ben = sheets["ana"], sheets["ben"]
    result = run("score", ana, ben, "--names", "Ana,Ana")
    assert result.exit_code == 2, result.output
    assert f"{ana}: is given as one sheet with {ben}, but" in result.stderr
    assert "look like the sheets of different players" in result.stderr
    unread = json.loads(run("score", ana, ben, "--names", "Ana,Ana", "--json").stdout)["unread"]
    assert [(u["reason"], u["advice"][:36]) for u in unread] == [("different-sheets",
                                                                  "These photos show different sheets: ")]
    assert run("score", ana, ben, "--names", "Ana,Ben").exit_code == 0


def test_a_filled_pdf_shares_its_name_with_no_other_file(sheets: dict[str, str], tmp_path: Path) -> None:
    pdf = tmp_path / "ana.pdf"
    pdf.write_bytes(b"%PDF-1.7\n")
    result = run("score", sheets["ana"], str(pdf), "--names", "Ana,Ana")
    assert result.exit_code == 2
    assert "--names: gives 'Ana' to" in result.stderr and "a filled PDF is one sheet on its own" in result.stderr


def test_a_mark_neither_photo_decides_keeps_each_photos_reason(glare: tuple[str, str]) -> None:
    from generator.games.castle.sheets import kinds
    from generator.sheets.photos import combine, read_photo

    data = Path(glare[0]).read_bytes()
    one = read_photo(data, "ana.jpg", kinds(shipped()))
    both = combine([one, read_photo(data, "again.jpg", kinds(shipped()))])
    assert [u.field for u in both.reading.uncertain] == [u.field for u in one.reading.uncertain]
    assert all("in ana.jpg and again.jpg" in u.why for u in both.reading.uncertain), both.reading.uncertain
    assert both.others == ("again.jpg",) and both.file == "ana.jpg"
    assert [part.file for part in both.parts] == ["ana.jpg", "again.jpg"] and both.parts[0] is one


def test_a_sheet_one_of_whose_photos_cannot_be_read_is_not_said_read(glare: tuple[str, str],
                                                                      tmp_path: Path) -> None:
    """Ana's sheet given as two photos, the second cut short: nothing is read of her sheet (exit 2), so the listing
    never says her first photo was "read, nothing to confirm" (the glare photo alone leaves the sun undecided) nor
    that her sheet was "read from 2 photos"; it says the first photo was not read, and why."""
    from tests.scan.photos_corpus import truncated

    first, _ = glare
    cut = save(tmp_path, "cut.jpg", truncated())
    result = run("score", first, cut, "--names", "Ana,Ana")
    assert result.exit_code == 2, result.output
    lines = result.stdout.splitlines()
    assert not [line for line in lines if "read from 2 photos" in line or "nothing to confirm" in line], lines
    assert any(line.startswith(f"  {first}: not read:") and "cut.jpg" in line for line in lines), lines
    # the two photos are one sheet: one sheet of one could not be read, not one of two
    assert any(line.startswith("1 of 1 sheets could not be read") for line in lines), lines
