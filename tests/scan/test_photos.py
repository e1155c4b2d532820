"""`donjon score PHOTO`: photos of filled scan-ready sheets read and scored by the rules; what cannot be decided is
listed, never guessed; every bad photo a clear message (more in tests/corpus/photos.yaml, as real processes)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("cv2")

from generator.errors import InputError, UsageError  # noqa: E402
from generator.games.base import SheetOptions  # noqa: E402
from generator.games.castle.sheets import read_sheets  # noqa: E402
from generator.sheets import photos  # noqa: E402
from generator.sheets.read import AT_THE_COMMAND_LINE  # noqa: E402
from tests.scan.helpers import APPRENTICE, GREAT, expected, filled, photograph, sheet_image  # noqa: E402
from tests.sheets.helpers import shipped  # noqa: E402

if TYPE_CHECKING:
    from typer.testing import Result


def run(*args: str) -> Result:
    from typer.testing import CliRunner

    from generator.cli import app

    return CliRunner().invoke(app, list(args))


def save(folder: Path, name: str, data: bytes) -> str:
    path = folder / name
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize("turn", [0.0, 90.0, 180.0, 263.0])
@pytest.mark.parametrize(("version", "paper", "values"), [("great-architect", "a4", GREAT),
                                                          ("apprentice", "letter", APPRENTICE)])
def test_a_photo_is_read_whatever_its_turn(version: str, paper: str, values: dict[str, object], turn: float) -> None:
    data = photograph(filled(version, paper, values), turn=turn)
    read = read_sheets([(data, "ana.jpg")], shipped())
    assert read.uncertain == ()
    sheet = read.document.data["sheets"][0]
    assert {k: v for k, v in sheet.items() if k != "player"} == expected(version, paper, values)
    assert read.document.data["version"] == version
    assert sheet["player"] == "Player 1"


def test_the_photos_of_one_game_are_scored_by_the_rules(tmp_path: Path) -> None:
    ana = save(tmp_path, "ana.jpg", photograph(filled("great-architect", "a4", GREAT), turn=180))
    other = dict(GREAT, guests=["king"], sky_clouds=0, residents=3)
    ben = save(tmp_path, "ben.jpg", photograph(filled("great-architect", "a4", other), turn=10))
    result = run("score", ana, ben, "--names", "Ana,Ben", "--json")
    assert result.exit_code == 0, result.output
    scored = json.loads(result.stdout)
    assert scored["valid"] and scored["uncertain"] == []
    players = {p["name"]: p["score"] for p in scored["players"]}
    # Ana: towers 5+2+5, flags 2+1+2, two sky clouds (4), 12 residents (4), Queen 3, Jester 3 floors = 31
    # Ben: towers 12, flags 5, 3 residents (1), the King 1 per flag (3) = 21
    assert players == {"Ana": 31, "Ben": 21}


def test_two_values_filled_for_one_tower_are_uncertain_until_confirmed(tmp_path: Path) -> None:
    values = dict(GREAT, **{"towers[2]": (2, 5)})
    photo = save(tmp_path, "ana.jpg", photograph(filled("great-architect", "a4", values)))
    result = run("score", photo, "--json")
    assert result.exit_code == 1, result.output
    scored = json.loads(result.stdout)
    assert scored["players"] == [] and not scored["valid"]
    assert scored["uncertain"] == [{"field": "towers[2]", "photo": photo, "set": "towers[2]", "reason": "two-values",
                                    "why": "the units 2 and 5 are both filled; a digit takes one value",
                                    "advice": AT_THE_COMMAND_LINE["two-values"]}]
    table = run("score", photo)
    assert "towers[2]: the units 2 and 5 are both filled" in table.stdout and "--set towers[2]=VALUE" in table.stdout
    confirmed = run("score", photo, "--set", "towers[2]=5", "--json")
    assert confirmed.exit_code == 0, confirmed.output
    assert json.loads(confirmed.stdout)["players"][0]["score"] == 31 + 5
    none = run("score", photo, "--set", "towers[2]=none", "--json")
    assert json.loads(none.stdout)["players"][0]["score"] == 31
    for odd in ("9" * 5000, "\u00b2", "-5", "5.0"):  # more digits than int() takes, a superscript, not a value
        refused = run("score", photo, "--set", f"towers[2]={odd}")
        assert refused.exit_code == 2 and "--set towers[2]" in refused.stderr, refused.output
        # the field and the value refused are named, the value cut short (the words are the sheet's own)
        assert "towers[2] takes" in refused.stderr and "not '" in refused.stderr and len(refused.stderr) < 400


def test_a_faint_mark_is_uncertain_never_guessed() -> None:
    the_map, _ = sheet_image("apprentice", "a4")
    image = filled("apprentice", "a4", APPRENTICE)
    faint = filled("apprentice", "a4", {"walls[0]": True}, tone=200, share=0.45)
    mark = next(m for m in the_map.marks if m.field == "walls[0]")
    from tests.scan.helpers import RENDER

    x0, y0 = int(mark.x * RENDER), int(mark.y * RENDER)
    x1, y1 = int((mark.x + mark.width) * RENDER) + 1, int((mark.y + mark.height) * RENDER) + 1
    image[y0:y1, x0:x1] = faint[y0:y1, x0:x1]
    read = read_sheets([(photograph(image), "ana.jpg")], shipped())
    assert read.uncertain is not None
    assert [(u.field, u.key) for u in read.uncertain] == [("walls[0]", "walls[0]")]
    assert "faint" in read.uncertain[0].why


def test_a_flag_on_a_wall_left_empty_is_uncertain() -> None:
    """What the rules say marks read together show (a flag stands on its wall): read otherwise, both fields are
    asked about, not blamed on the player as a rule broken."""
    values = dict(APPRENTICE, **{"walls[1].flags[0]": 2})
    read = read_sheets([(photograph(filled("apprentice", "a4", values)), "ana.jpg")], shipped())
    assert read.uncertain is not None and [u.field for u in read.uncertain] == ["walls[1].flags[0]", "walls[1]"]
    assert read.uncertain[0].why == "walls[1].flags[0] is 2 but walls[1] is empty: a flag stands on a built wall " \
                                    "(004 Flags)"


@pytest.mark.parametrize(("code", "rule"), [("fr", "un drapeau se dresse sur un rempart construit (004 Flags)"),
                                            ("de", "eine Fahne steht auf einer gebauten Mauer (004 Flags)")])
def test_the_rule_a_photo_contradicts_is_said_in_the_language(tmp_path: Path, code: str, rule: str) -> None:
    """`--lang fr|de`: a flag read on a wall left empty names the rule it contradicts in the language (the sheet
    layout's `needs` words, from donjon's catalogs), in the table and the JSON's `why`, as English names it; it
    said only that some rule was contradicted."""
    values = dict(APPRENTICE, **{"walls[1].flags[0]": 2})
    photo = save(tmp_path, "ana.jpg", photograph(filled("apprentice", "a4", values)))
    table, told = run("score", photo, "--lang", code), run("score", photo, "--lang", code, "--json")
    assert table.exit_code == told.exit_code == 1
    assert table.stdout.count(rule) == 2, table.stdout
    assert [rule in u["why"] for u in json.loads(told.stdout)["uncertain"]] == [True, True]
    assert "flag stands" not in table.output + told.output


@pytest.mark.parametrize(("code", "version", "player"), [("fr", "version\u00a0: Grands Architectes", "Joueur 1"),
                                                         ("de", "Version: Baumeister", "Person 1")])
def test_a_photo_scored_in_a_language_names_its_version_there(tmp_path: Path, code: str, version: str,
                                                              player: str) -> None:
    """`--lang fr|de`: the heading over a photo's scores names the version as the language does, as it does over a
    YAML end state or a filled PDF; a photo of an English sheet said "Great Architect" there. A player given no
    name is named by place in the language ("Joueur 1", as the companion's form offers): it said "Player 1"."""
    photo = save(tmp_path, "ana.jpg", photograph(filled("great-architect", "a4", GREAT)))
    table = run("score", photo, "--lang", code)
    assert table.exit_code == 0, table.output
    assert version in table.stdout.splitlines()[0], table.stdout
    assert player in table.stdout.splitlines()[1] and "Player" not in table.stdout, table.stdout


def test_several_photos_name_the_sheet_to_confirm(tmp_path: Path) -> None:
    values = dict(GREAT, **{"towers[2]": (2, 5)})
    ana = save(tmp_path, "ana.jpg", photograph(filled("great-architect", "a4", GREAT)))
    ben = save(tmp_path, "ben.jpg", photograph(filled("great-architect", "a4", dict(values, guests=["king"]))))
    scored = json.loads(run("score", ana, ben, "--json").stdout)
    # the key to give names the photo by its file's name
    assert [(u["field"], u["photo"], u["set"]) for u in scored["uncertain"]] == [("towers[2]", ben,
                                                                                 "ben.jpg:towers[2]")]
    bare = run("score", ana, ben, "--set", "towers[2]=5")
    assert bare.exit_code == 2 and ("2 photos were read: say which one, as FILE:towers[2] (the photo's file name, "
                                    "ana.jpg:towers[2]) or sheets[N].towers[2]") in bare.stderr
    # by its place (from 0), by its file's name, by its path as given: the same confirmation
    for key in ("sheets[1].towers[2]", "ben.jpg:towers[2]", f"{ben}:towers[2]"):
        keyed = run("score", ana, ben, "--set", f"{key}=2", "--names", "Ana,Ben", "--json")
        assert keyed.exit_code == 0, keyed.output
        assert [p["name"] for p in json.loads(keyed.stdout)["players"]] == ["Ana", "Ben"]
    nobody = run("score", ana, ben, "--set", "cid.jpg:towers[2]=2")
    assert nobody.exit_code == 2 and f"--set cid.jpg:towers[2]: names no file given ({ana}, {ben})" in nobody.stderr
    wrong = run("score", ana, ben, "--set", "sheets[1].towers[2]=12")
    assert wrong.exit_code == 2 and "towers[2] takes a whole number from 0 to 9 or none, not '12'" in wrong.stderr
    unknown = run("score", ana, ben, "--set", "sheets[0].tower[2]=5")
    assert unknown.exit_code == 2 and "the sheet has no field 'tower[2]'" in unknown.stderr


def test_broken_rules_name_the_photo_and_the_field(tmp_path: Path) -> None:
    ana = save(tmp_path, "ana.jpg", photograph(filled("great-architect", "a4", GREAT)))
    # the same castle, photographed a second time from another angle: two files, one guest in both castles
    ben = save(tmp_path, "ben.jpg", photograph(filled("great-architect", "a4", GREAT), turn=3))
    result = run("score", ana, ben)
    assert result.exit_code == 1
    assert "there is one card of each guest" in result.stdout and f"{ben}, field guests" in result.stdout


def test_annotate_writes_each_photo_and_its_name_box(tmp_path: Path) -> None:
    photo = save(tmp_path, "ana.jpg", photograph(filled("great-architect", "a4", GREAT), turn=180))
    result = run("score", photo, "--annotate", str(tmp_path / "seen"))
    assert result.exit_code == 0, result.output
    from PIL import Image

    with Image.open(tmp_path / "seen" / "ana.read.jpg") as drawn, Image.open(tmp_path / "seen" /
                                                                              "ana.name.png") as name:
        assert max(drawn.size) == 1600 and drawn.format == "JPEG"
        the_map, _ = sheet_image("great-architect", "a4")
        box = the_map.write_in[0]
        assert name.size == (round(box.width * photos.NAME_SCALE), round(box.height * photos.NAME_SCALE))
    named_a_file = run("score", photo, "--annotate", photo)  # an output that cannot be written: exit 3
    assert named_a_file.exit_code == 3 and f"--annotate {photo}: is a file, not a folder" in named_a_file.stderr


@pytest.mark.parametrize("when", ["drawing", "writing"])
def test_a_ctrl_c_before_the_annotations_are_written_leaves_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     when: str) -> None:
    """Ctrl-C (KeyboardInterrupt, which the command turns into exit 130) while a photo's annotation is drawn, or
    while its files are written, leaves nothing `--annotate` made: not the folder, nor the parents it made; a
    folder that was there before is left, as it was."""
    import pathlib

    photo = save(tmp_path, "ana.jpg", photograph(filled("great-architect", "a4", GREAT), turn=180))

    def interrupted(*_args: object, **_kwargs: object) -> bytes:
        raise KeyboardInterrupt

    if when == "drawing":
        monkeypatch.setattr(photos, "annotated", interrupted)
    else:  # the first annotation's file, staged in the folder (generator.output: `.donjon-PID-X/000001`)
        real = pathlib.Path.write_bytes

        def write_bytes(self: pathlib.Path, data: Any) -> int:
            if self.parent.name.startswith(".donjon-") and self.name.isdigit():
                raise KeyboardInterrupt
            return real(self, data)

        monkeypatch.setattr(pathlib.Path, "write_bytes", write_bytes)
    mine = tmp_path / "mine"
    mine.mkdir()
    for given in (tmp_path / "seen", tmp_path / "new" / "deeper" / "seen", mine):
        stopped = run("score", photo, "--annotate", str(given))
        assert stopped.exit_code == 130 and stopped.stdout == "", stopped.output
        assert sorted(p.name for p in tmp_path.iterdir()) == ["ana.jpg", "mine"], given
        assert list(mine.iterdir()) == []


def _glared() -> Any:
    """A photo of a Great Architect sheet with glare over a tower and the flags of the wall beside it: their marks
    undecided side by side."""
    from dataclasses import replace

    from generator.games.castle.sheets import kinds

    read = photos.read_photo(photograph(filled("great-architect", "a4", GREAT), turn=10), "ana.jpg",
                             kinds(shipped()))
    return replace(read, reads=tuple(replace(r, state=None, code="glare", why="glare washes it out")
                                     if m.field in GLARED else r for m, r in zip(read.map.marks, read.reads)))


#: The fields `_glared` leaves undecided
GLARED = {"towers[2]", "towers[3]", "walls[3]", "walls[2].flags[0]", "walls[3].flags[0]"}


def _written(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[int, int, int, int]]]:
    """What the annotated photo writes, recorded as it is drawn: each text and the box it takes."""
    from generator.render import picture_text

    written: list[tuple[str, tuple[int, int, int, int]]] = []
    draw = picture_text.draw_text

    def recorded(image: Any, xy: tuple[float, float], text: str, bold: bool, size: int,
                 fill: tuple[int, int, int]) -> None:
        width, height = picture_text.text_box(text, bold, size)
        x, y = int(xy[0]), int(xy[1])
        written.append((text, (x, y, x + width, y + height)))
        draw(image, xy, text, bold, size, fill)

    monkeypatch.setattr(picture_text, "draw_text", recorded)
    return written


def test_annotate_labels_overlap_no_other_label(monkeypatch: pytest.MonkeyPatch) -> None:
    """Glare over a tower and the flags of the wall beside it leaves their marks undecided side by side: each field's
    label (and each mark's ink) is written where no other writing is, every one of them still written, and the same
    drawing each time."""
    import itertools

    read = _glared()
    written = _written(monkeypatch)
    drawn = photos.annotated(read)
    labels = [text for text, _ in written if not text.endswith("%")]
    assert sorted(labels) == sorted(f"{field} glare" for field in GLARED)
    for (a, (ax0, ay0, ax1, ay1)), (b, (bx0, by0, bx1, by1)) in itertools.combinations(written, 2):
        assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, f"{a!r} is written over {b!r}"
    assert photos.annotated(read) == drawn


def test_annotate_writes_accented_labels_whatever_opencv_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet's labels in French or German ("Tours récoltées", "Mauern für Flaggen") are written on the annotated
    photo with donjon's own font, letter for letter: OpenCV's fonts draw no letter beyond ASCII in OpenCV 4 (which
    pyproject allows: "r??colte"), so the photo is the same bytes whether OpenCV draws them or not. They were
    written with OpenCV's putText."""
    import cv2

    read = _glared()
    labels = {"towers": "Tours récoltées", "walls": "Mauern für Flaggen", "flags": "Größe ß"}
    written = _written(monkeypatch)
    drawn = photos.annotated(read, labels)
    said = {text for text, _ in written if not text.endswith("%")}
    assert {"Tours récoltées #3 glare", "Tours récoltées #4 glare", "Mauern für Flaggen #4 glare"} <= said, said
    put_text = cv2.putText

    def as_opencv_4(image: Any, text: str, *rest: Any) -> Any:  # Hershey fonts: '?' for each byte beyond ASCII
        return put_text(image, "".join(c if c.isascii() else "?" * len(c.encode()) for c in text), *rest)

    monkeypatch.setattr(cv2, "putText", as_opencv_4)
    assert photos.annotated(read, labels) == drawn


def test_annotate_keeps_every_photo_when_two_share_a_file_name(tmp_path: Path) -> None:
    """Two phones both name their photo IMG_0001.JPG (here ana/photo.jpg and ben/photo.jpg, and a photo.png): each
    photo's drawing is written, none over another's; a photo whose name is its own keeps NAME.read.jpg."""
    for folder in ("ana", "ben"):
        (tmp_path / folder).mkdir()
    # four sheets: every player's, so their guests are one per donjon floor (castle rule 4), and the Shepherdess who
    # drew Ana's sky clouds is in a castle (rule 7)
    mine = dict(GREAT, donjon_floors=2, guests=["queen", "shepherdess"])
    ana = save(tmp_path / "ana", "photo.jpg", photograph(filled("great-architect", "a4", mine), turn=180))
    other = dict(GREAT, guests=["king"], sky_clouds=0, residents=3, donjon_floors=1)
    ben = save(tmp_path / "ben", "photo.jpg", photograph(filled("great-architect", "a4", other), turn=10))
    third = dict(GREAT, guests=["prince"], sky_clouds=0, residents=5, donjon_floors=1)
    cid = save(tmp_path, "photo.png", photograph(filled("great-architect", "a4", third)))
    dan = save(tmp_path, "dan.jpg", photograph(filled("great-architect", "a4", dict(third, guests=["princess"]))))
    seen = tmp_path / "seen"
    result = run("score", ana, ben, cid, dan, "--annotate", str(seen))
    assert result.exit_code == 0, result.output
    drawn = sorted(p.name for p in seen.glob("*.read.jpg"))
    assert len(drawn) == 4 and "dan.read.jpg" in drawn, drawn
    assert len(list(seen.glob("*.name.png"))) == 4


def test_sheets_of_two_versions_are_not_one_game(tmp_path: Path) -> None:
    ana = save(tmp_path, "ana.jpg", photograph(filled("great-architect", "a4", GREAT)))
    ben = save(tmp_path, "ben.jpg", photograph(filled("apprentice", "a4", APPRENTICE)))
    result = run("score", ana, ben)
    assert result.exit_code == 2
    assert "ben.jpg: field version: is a sheet of the Apprentice version, but" in result.stderr


@pytest.mark.parametrize(("code", "said"), [
    ("fr", "ben.jpg: champ version\u00a0: cette feuille est de la version Apprentice, mais ana.jpg est de la "
           "version Great Architect ; toutes les feuilles d’une partie doivent être de la même version"),
    ("de", "ben.jpg: Feld version: dieser Bogen gehört zur Version Apprentice, ana.jpg aber zur Version Great "
           "Architect; alle Bögen einer Partie müssen zur selben Version gehören")])
def test_a_photo_of_another_version_is_told_so_in_the_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                code: str, said: str) -> None:
    """`--lang fr|de`: a photo of a sheet of another version than the first, listed as not read, says both versions
    and the other file in the language, as a filled PDF of another version does: in the table, its standard error
    line and the JSON's `why` (its reason still `other-version`)."""
    save(tmp_path, "ana.jpg", photograph(filled("great-architect", "a4", GREAT)))
    save(tmp_path, "ben.jpg", photograph(filled("apprentice", "a4", APPRENTICE)))
    monkeypatch.chdir(tmp_path)  # the files named as given, relative
    ana, ben = "ana.jpg", "ben.jpg"
    table = run("score", ana, ben, "--lang", code)
    told = run("score", ana, ben, "--lang", code, "--json")
    assert table.exit_code == told.exit_code == 2
    unread = json.loads(told.stdout)["unread"]
    assert [u["reason"] for u in unread] == ["other-version"]
    why = said.split(": ", 1)[1]
    assert unread[0]["why"].replace("\u202f", " ") == why
    assert said in told.stderr.replace("\u202f", " ") and said in table.stderr.replace("\u202f", " ")
    assert f"{said.split(': ')[0]}{' :' if code == 'fr' else ':'}" in table.stdout.replace("\u00a0", " ")
    assert why in table.stdout.replace("\u202f", " "), table.stdout
    assert "is a sheet of the" not in table.output + told.output


def test_a_pdf_scan_of_a_printed_sheet_is_read(tmp_path: Path) -> None:
    from PIL import Image

    image = filled("apprentice", "letter", APPRENTICE)
    scan = tmp_path / "scan.pdf"
    Image.fromarray(image).save(scan, "PDF", resolution=150)
    result = run("score", str(scan), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["players"][0]["score"] == 14 + 4 + 1 + 1 + 10


def test_a_pdf_scan_of_several_sheets_is_refused_not_read_as_its_first(tmp_path: Path) -> None:
    """A scanner app's PDF of every player's sheet, one page each: refused (exit 2), saying which pages show a sheet,
    never scored as its first page's sheet alone with the others left out without a word. A blank page after the
    sheet (the back of a sheet scanned on both sides) is no sheet: such a scan is read."""
    from PIL import Image

    ana = Image.fromarray(filled("apprentice", "letter", APPRENTICE))
    ben = Image.fromarray(filled("apprentice", "letter", dict(APPRENTICE, residents=3)))
    both = tmp_path / "both.pdf"
    ana.save(both, "PDF", resolution=150, save_all=True, append_images=[ben])
    result = run("score", str(both), "--json")
    assert result.exit_code == 2, result.output
    assert "both.pdf" in result.stderr and "pages 1 and 2" in result.stderr
    from generator.sheets.advice import refusal

    found = refusal(result.stderr)
    assert found is not None and found.name == "several-pages"  # what to change, said by the companion too
    backed = tmp_path / "backed.pdf"
    ana.save(backed, "PDF", resolution=150, save_all=True, append_images=[Image.new("L", ana.size, 255)])
    read = run("score", str(backed), "--json")
    assert read.exit_code == 0, read.output
    assert json.loads(read.stdout)["players"][0]["score"] == 14 + 4 + 1 + 1 + 10


def test_names_must_match_the_sheets(tmp_path: Path) -> None:
    photo = save(tmp_path, "ana.jpg", photograph(filled("great-architect", "a4", GREAT)))
    result = run("score", photo, "--names", "Ana,Ben")
    assert result.exit_code == 2 and "--names: gives 2 names for 1 sheet" in result.stderr


def test_a_large_jpeg_is_decoded_at_a_reduced_scale(monkeypatch: pytest.MonkeyPatch) -> None:
    data = photograph(filled("great-architect", "a4", GREAT), size=(3200, 2400), tilt=0.0)
    monkeypatch.setattr(photos, "MAX_PIXELS", 3_000_000)
    grey = photos.decode(data, "big.jpg")
    assert grey.shape == (1200, 1600)
    read = read_sheets([(data, "big.jpg")], shipped())
    assert read.uncertain == ()


def test_a_jpeg_beyond_pillows_own_bomb_limit_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 200-megapixel phone's JPEG (16320 x 12240) is more than Pillow refuses on opening (twice its
    MAX_IMAGE_PIXELS, 179 megapixels), but well within MOST_PIXELS: decoded at a reduced scale, read and scored
    (exit 0), not refused as an image too large. Pillow's limit is lowered here so that a small photo stands for
    the large one (encoding a real 200-megapixel JPEG takes seconds and 200 MB)."""
    from PIL import Image

    data = photograph(filled("great-architect", "a4", GREAT), size=(3200, 2400), tilt=0.0)
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 3200 * 2400 // 4)  # the photo is twice Pillow's refusal
    monkeypatch.setattr(photos, "MAX_PIXELS", 3_000_000)
    assert photos.decode(data, "big.jpg").shape == (1200, 1600)
    result = run("score", save(tmp_path, "big.jpg", data), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["uncertain"] == []


def test_without_the_scan_extra_a_photo_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cv2", None)
    data = photograph(filled("great-architect", "a4", GREAT))
    with pytest.raises(InputError, match=r"ana.jpg: is a photo; reading photos needs the scan extra of donjon: "
                                         r"pip install 'donjon\[scan\]'"):
        read_sheets([(data, "ana.jpg")], shipped())


def test_donjon_score_without_the_scan_extra_says_what_to_install(tmp_path: Path) -> None:
    """A real `donjon score photo.jpg` where neither opencv nor numpy can be imported (the worst case), as after
    `pip install donjon` without `[scan]`: exit 2 and what to install, not an internal error."""
    import subprocess

    from tests.test_corpus import donjon_argv

    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text("import sys\nsys.modules['cv2'] = None\nsys.modules['numpy'] = None\n",
                                           encoding="utf-8")
    photo = save(tmp_path, "ana.jpg", photograph(filled("great-architect", "a4", GREAT)))
    done = subprocess.run([*donjon_argv(), "score", photo], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(hide)})
    assert done.returncode == 2, done.stderr
    assert "ana.jpg: is a photo; reading photos needs the scan extra of donjon: pip install 'donjon[scan]'" \
        in done.stderr and "Traceback" not in done.stderr


def test_a_16_bit_grey_png_is_read_as_its_8_bit_twin(tmp_path: Path) -> None:
    """A scanner app's PNG of 16 bits a pixel: read as the same photo in 8 bits would be."""
    import io

    import cv2
    import numpy as np
    from PIL import Image

    eight = cv2.imdecode(np.frombuffer(photograph(filled("apprentice", "a4", APPRENTICE)), np.uint8),
                         cv2.IMREAD_GRAYSCALE)
    assert eight is not None
    buffer = io.BytesIO()
    Image.fromarray(eight.astype(np.uint16) * 257).save(buffer, format="PNG")
    assert Image.open(io.BytesIO(buffer.getvalue())).mode == "I;16"
    assert (photos.decode(buffer.getvalue(), "scan.png") == eight).all()
    read = read_sheets([(buffer.getvalue(), "scan.png")], shipped())
    assert read.uncertain == ()
    assert {k: v for k, v in read.document.data["sheets"][0].items() if k != "player"} == \
        expected("apprentice", "a4", APPRENTICE)


def test_a_heic_photo_is_read() -> None:
    pillow_heif = pytest.importorskip("pillow_heif")
    import io

    from PIL import Image

    pillow_heif.register_heif_opener()
    jpeg = photograph(filled("great-architect", "a4", GREAT), turn=90)
    buffer = io.BytesIO()
    try:
        Image.open(io.BytesIO(jpeg)).save(buffer, "HEIF", quality=90)
    except (KeyError, OSError, ValueError) as err:
        pytest.skip(f"this pillow-heif cannot write HEIC ({err})")
    read = read_sheets([(buffer.getvalue(), "ana.heic")], shipped())
    assert read.uncertain == ()
    assert {k: v for k, v in read.document.data["sheets"][0].items() if k != "player"} == \
        expected("great-architect", "a4", GREAT)


def test_confirmations_of_a_pdf_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="is not a photo"):
        read_sheets([(b"%PDF-1.7\n", "a.pdf"), (b"\xff\xd8\xff", "b.jpg")], shipped(),
                    SheetOptions(confirmed=(("sheets[0].towers[0]", "5"),)))


@pytest.mark.parametrize("args", [["score", "content/examples/once-upon-a-castle.yaml"],
                                  ["build", "once-upon-a-castle", "--out", "{tmp}"]])
def test_opencv_is_imported_only_when_a_photo_is_read(tmp_path: Path, args: list[str]) -> None:
    import subprocess

    from tests.sheets.helpers import REPO

    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code = ("import sys\nfrom generator.cli import main\n"  # main, not the entry point, which ends the process
            f"sys.argv = ['donjon', *{argv!r}]\n"
            "try:\n    main()\n"
            "except SystemExit as done:\n    assert not done.code, done.code\n"
            "print(sorted(m for m in ('cv2', 'numpy', 'pillow_heif') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_gap_in_the_residents_coloured_in_is_uncertain() -> None:
    from generator.sheets.marks import interpret

    the_map, _ = sheet_image("great-architect", "a4")
    states: list[bool | None] = [m.field == "residents" and m.value in (1, 2, 4) for m in the_map.marks]
    reading = interpret(the_map, states)
    assert [(u.field, u.why) for u in reading.uncertain] == [
        ("residents", "3 marks are filled but not from the first on (3 is empty)")]
    assert reading.values["residents"] == 3
    confirmed = interpret(the_map, states, {"residents": "4"})
    assert confirmed.uncertain == () and confirmed.values["residents"] == 4


def test_confirmations_need_a_photo() -> None:
    with pytest.raises(UsageError, match="--set towers\\[0\\]: confirms values read from photos, and no photo"):
        read_sheets([(b"%PDF-1.7\n", "a.pdf")], shipped(), SheetOptions(confirmed=(("towers[0]", "5"),)))


def test_every_bad_set_of_a_run_is_said_at_once(tmp_path: Path) -> None:
    """Three bad `--set`s (a value a tower cannot take, a field the sheet lacks, both on one photo; a photo the
    files do not hold) and a good one: the run stopped at the first, and the user met the next only after mending
    it. Now each is said, naming its --set, the photo and why, exit 2, and --annotate writes nothing."""
    values = dict(GREAT, **{"towers[2]": (2, 5)})
    ana = save(tmp_path, "ana.jpg", photograph(filled("great-architect", "a4", GREAT)))
    ben = save(tmp_path, "ben.jpg", photograph(filled("great-architect", "a4", dict(values, guests=["king"]))))
    seen = tmp_path / "seen"
    result = run("score", ana, ben, "--set", "ben.jpg:towers[2]=12", "--set", "cid.jpg:sun=true",
                 "--set", "ana.jpg:towers[0]=5", "--set", "ben.jpg:tower[9]=1", "--annotate", str(seen))
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert lines[0] == "error: 3 values given with --set cannot be taken:"
    assert lines[1] == f"  --set cid.jpg:sun: names no file given ({ana}, {ben})"
    assert lines[2].startswith(f"  --set ben.jpg:towers[2]: {ben}: towers[2] takes a whole number from 0 to 9 or "
                               "none, not '12'")
    assert lines[3].startswith(f"  --set ben.jpg:tower[9]: {ben}: the sheet has no field 'tower[9]'")
    assert len(lines) == 4 and not seen.exists()
    # one alone is said as it always was; and each --set without `=` at once, before any photo is read
    alone = run("score", ana, ben, "--set", "ben.jpg:towers[2]=12")
    assert alone.stderr.startswith(f"error: --set ben.jpg:towers[2]: {ben}: towers[2] takes"), alone.stderr
    typed = run("score", ana, "--set", "towers[0]", "--set", "sun")
    assert typed.exit_code == 2 and typed.stderr.splitlines() == [
        "error: 2 values given with --set cannot be taken:",
        "  --set towers[0]: expected FIELD=VALUE, such as towers[1]=5",
        "  --set sun: expected FIELD=VALUE, such as towers[1]=5"]


def test_none_is_typed_in_the_page_s_language_for_a_list_too() -> None:
    """A French check page takes "aucun" (a German one "keine") for a tower left undecided, but refused it for the
    guests ("'aucun' is not one" of their ids): every kind of field takes donjon's word for none in each language."""
    from generator.sheets.marks import confirmed_value

    the_map, _ = sheet_image("great-architect", "a4")
    for word in ("none", "aucun", "Keine", ""):
        assert confirmed_value(the_map, "guests", word) == [], word
        assert confirmed_value(the_map, "towers[0]", word) is None, word
    assert confirmed_value(the_map, "guests", "queen, aucun") == ["queen"]
