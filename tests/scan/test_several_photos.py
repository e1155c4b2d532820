"""Several photos scored together (`donjon score a.jpg b.jpg ...`): one that cannot be read does not hide what the
others say. Each photo's problems are listed, in the table and in the JSON, with what to change; `--set` confirms a
field of any photo read, named by its file or its place; nothing is scored until every sheet is read and every
value decided (exit 2 while a photo cannot be read, 1 while a value waits)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("cv2")

from generator.sheets.read import AT_THE_COMMAND_LINE  # noqa: E402
from tests.scan.helpers import APPRENTICE, GREAT, filled, photograph  # noqa: E402
from tests.scan.photos_corpus import half_sheet, no_sheet  # noqa: E402
from tests.scan.test_photos import run, save  # noqa: E402

#: Ben's sheet: two values filled for one tower (uncertain), and the King rather than the Queen and the Jester.
BEN = dict(GREAT, guests=["king"], **{"towers[2]": (2, 5)})


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("photos")
    return {"ana": save(folder, "ana.jpg", photograph(filled("great-architect", "a4", GREAT))),
            "ben": save(folder, "ben.jpg", photograph(filled("great-architect", "a4", BEN), turn=90)),
            "cid": save(folder, "cid.jpg", half_sheet()),
            "dan": save(folder, "dan.jpg", no_sheet()),
            "eve": save(folder, "eve.jpg", photograph(filled("apprentice", "a4", APPRENTICE)))}


def test_each_photo_says_what_keeps_it_from_a_score(photos: dict[str, str]) -> None:
    ana, ben, cid, dan, eve = photos.values()
    result = run("score", ana, ben, cid, dan, eve, "--json")
    assert result.exit_code == 2, result.output  # sheets that cannot be read: unreadable input
    scored = json.loads(result.stdout)
    assert scored["players"] == [] and not scored["valid"]
    # Ben's photo was read all the same: its tower to confirm is listed, keyed by its file
    assert [(u["photo"], u["field"], u["set"]) for u in scored["uncertain"]] == [(ben, "towers[2]",
                                                                                 "ben.jpg:towers[2]")]
    unread = {u["file"]: u for u in scored["unread"]}
    assert [(u["sheet"], u["reason"]) for u in scored["unread"]] == [(2, "half-sheet"), (3, "no-sheet"),
                                                                     (4, "other-version")]
    assert unread[cid]["why"].startswith("shows only 2 of the sheet's 4 corner markers")
    assert "all four black corner squares" in unread[cid]["advice"]
    assert "is a sheet of the Apprentice version, but" in unread[eve]["why"]
    assert "another version" in unread[eve]["advice"]
    # each unreadable photo is an error on stderr, named
    assert f"{cid}: shows only 2 of the sheet's 4 corner markers" in result.stderr
    assert f"{dan}: shows no scan-ready castle sheet" in result.stderr
    # the table says it photo by photo, in the order given
    table = run("score", ana, ben, cid, dan, eve)
    assert table.exit_code == 2
    lines = table.stdout.splitlines()
    assert lines[1] == ("3 of 5 sheets could not be read and 1 value read from the others uncertain: not scored "
                        "until they are given again and it confirmed")
    assert [line.split(": ")[0].strip() for line in lines[2:] if not line.startswith("    ")] == [ana, ben, cid, dan,
                                                                                                 eve]
    assert f"  {ana}: read, nothing to confirm" in lines
    assert (f"  {ben}: towers[2]: the units 2 and 5 are both filled; a digit takes one value (confirm with --set "
            "ben.jpg:towers[2]=VALUE)") in lines
    assert lines[lines.index(next(x for x in lines if x.startswith(f"  {cid}: not read: "))) + 1].startswith(
        "    what to change: Step back until the whole sheet is in the frame")


def test_a_field_of_a_photo_read_is_confirmed_while_another_is_taken_again(photos: dict[str, str],
                                                                          tmp_path: Path) -> None:
    ana, ben, cid = photos["ana"], photos["ben"], photos["cid"]
    waiting = run("score", ana, ben, cid, "--set", "ben.jpg:towers[2]=2", "--set", "cid.jpg:towers[0]=5", "--json")
    assert waiting.exit_code == 2, waiting.output
    scored = json.loads(waiting.stdout)
    assert scored["uncertain"] == [] and [u["file"] for u in scored["unread"]] == [cid]
    # a confirmation a photo's field cannot take is refused even while another photo is unread
    wrong = run("score", ana, ben, cid, "--set", "ben.jpg:towers[2]=12")
    assert wrong.exit_code == 2 and "--set ben.jpg:towers[2]" in wrong.stderr and "not '12'" in wrong.stderr
    # Cid takes the photo again: the three are scored
    again = save(tmp_path, "cid.jpg", photograph(filled("great-architect", "a4", {"donjon_floors": 1,
                                                                                 "towers[0]": 4})))
    done = run("score", ana, ben, again, "--set", "ben.jpg:towers[2]=2", "--names", "Ana,Ben,Cid", "--json")
    assert done.exit_code == 0, done.output
    scored = json.loads(done.stdout)
    assert scored["valid"] and scored["unread"] == [] and [p["name"] for p in scored["players"]] == ["Ana", "Ben",
                                                                                                  "Cid"]


def test_a_value_set_for_a_photo_that_could_not_be_read_is_said_not_applied(photos: dict[str, str]) -> None:
    """`--set` naming a photo that could not be read is not applied (nothing of it was read), and a player who
    typed it is told so on stderr, naming the photo and the field, never left to think it counted; the exit code
    is that of a photo that cannot be read (2), the code of a --set that cannot be taken as well; a photo alone
    too, with --json or without."""
    ana, ben, cid = photos["ana"], photos["ben"], photos["cid"]
    for given in ("cid.jpg:towers[0]=5", "sheets[2].towers[0]=5"):
        result = run("score", ana, ben, cid, "--set", given, "--set", "ben.jpg:towers[2]=2", "--json")
        assert result.exit_code == 2, result.output
        assert "\n--set cid.jpg:towers[0]=5: not applied: " in result.stderr
        assert f"{cid} could not be read" in result.stderr
        # the value set for a photo read is applied, and says nothing
        assert "ben.jpg:towers[2]" not in result.stderr and json.loads(result.stdout)["uncertain"] == []
    # the table says it too; a sheet of two photos, one not read, by its player's name as given
    table = run("score", ana, cid, "--names", "Ana,Ana", "--set", "Ana:towers[0]=5")
    assert table.exit_code == 2 and f"\n--set Ana:towers[0]=5: not applied: {cid} could not be read" in table.stderr
    # a photo alone, with --json: the same line
    alone = run("score", cid, "--set", "towers[0]=5", "--json")
    assert alone.exit_code == 2 and "\n--set towers[0]=5: not applied: " in alone.stderr
    # a photo alone, without --json: its error stops the run (exit 2), and each --set given for it is said after it,
    # naming the field and the photo
    plain = run("score", cid, "--set", "towers[0]=5", "--set", "sun=true")
    assert plain.exit_code == 2 and plain.stdout == ""
    said = [line for line in plain.stderr.splitlines() if line.startswith("--set ")]
    assert [line.split(":")[0] for line in said] == ["--set towers[0]=5", "--set sun=true"]
    assert all(cid in line for line in said), said


def test_photos_of_one_name_in_two_folders_are_named_by_their_place(photos: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    other = save(tmp_path / "b", "ben.jpg", photograph(filled("great-architect", "a4", BEN), turn=180))
    result = run("score", photos["ben"], other, "--json")
    assert [u["set"] for u in json.loads(result.stdout)["uncertain"]] == ["sheets[0].towers[2]", "sheets[1].towers[2]"]
    ambiguous = run("score", photos["ben"], other, "--set", "ben.jpg:towers[2]=2")
    assert ambiguous.exit_code == 2 and "ben.jpg names 2 files; say which one as sheets[N].towers[2]" in \
        ambiguous.stderr


def test_every_photo_unreadable_lists_each(photos: dict[str, str]) -> None:
    result = run("score", photos["cid"], photos["dan"], "--json")
    assert result.exit_code == 2
    scored = json.loads(result.stdout)
    assert [u["reason"] for u in scored["unread"]] == ["half-sheet", "no-sheet"] and scored["uncertain"] == []


def test_one_photo_alone_that_cannot_be_read_says_why_in_the_json_too(photos: dict[str, str]) -> None:
    """A JSON consumer gets the reason code of one photo as of several: the same object, its photo under `unread`;
    the error on stderr and the exit code are those of a photo that cannot be read (2), with --json or not."""
    alone = run("score", photos["cid"], "--json")
    assert alone.exit_code == 2
    scored = json.loads(alone.stdout)
    assert scored["players"] == [] and not scored["valid"] and scored["uncertain"] == [] and "file" not in scored
    assert [(u["file"], u["sheet"], u["reason"]) for u in scored["unread"]] == [(photos["cid"], 0, "half-sheet")]
    assert "all four black corner squares" in scored["unread"][0]["advice"]
    table = run("score", photos["cid"])
    assert table.exit_code == 2 and table.stdout == ""
    # the message on stderr is the one the table gives: what was seen and what to change
    assert alone.stderr == table.stderr and f"{photos['cid']}: shows only 2 of the sheet's 4 corner markers" in \
        alone.stderr and "all four black corner squares" in alone.stderr


def test_a_fillable_pdf_that_cannot_be_read_is_the_error_it_always_was(photos: dict[str, str], tmp_path: Path) -> None:
    """A filled PDF is mended in a PDF viewer, not photographed again: among photos it stops the run as before."""
    notes = tmp_path / "notes.pdf"
    notes.write_text("game: once-upon-a-castle\n", encoding="utf-8")
    result = run("score", photos["ana"], str(notes), photos["cid"], "--json")
    assert result.exit_code == 2 and f"{notes}: is not a PDF" in result.stderr
    # with --json, standard output holds the one JSON object even so: the files of the game, and the error
    said = json.loads(result.stdout)
    assert said["files"] == [photos["ana"], str(notes), photos["cid"]] and f"{notes}: is not a PDF" in said["error"]


@pytest.mark.parametrize(("code", "advice", "set_again"),
                         [("fr", "que changer", "non appliqué"), ("de", "was ändern", "nicht angewendet")])
def test_a_photo_not_read_is_said_on_standard_error_in_the_language(photos: dict[str, str], code: str, advice: str,
                                                                   set_again: str) -> None:
    """`--lang fr|de`: what standard error says of a photo not read (of several, alone, with --json or without),
    each `--set` given for it not applied, and the command line's advice for a value to confirm, in the language;
    the photo's file and the --set as typed stay as they are."""
    from generator.i18n import language

    ana, ben, cid = photos["ana"], photos["ben"], photos["cid"]
    lang = language(code)
    seen = plain(lang._("shows only part of the sheet: some of its four corner squares are missing"))
    several = run("score", ana, ben, cid, "--set", "cid.jpg:towers[0]=5", "--lang", code)
    assert several.exit_code == 2
    said = plain(several.stderr)
    assert f"{cid}: {seen}" in said and f"--set cid.jpg:towers[0]=5: {set_again}" in said
    assert "not applied" not in said and "could not be read" not in said
    # the value to confirm's advice, as the command line takes it (--set, not the companion's tap)
    assert plain(lang._(AT_THE_COMMAND_LINE["two-values"])) in plain(several.stdout)
    assert "look at the sheet and confirm" not in several.stdout
    for json_ in ((), ("--json",)):
        alone = run("score", cid, "--set", "towers[0]=5", "--lang", code, *json_)
        assert alone.exit_code == 2
        said = plain(alone.stderr)
        assert f"{cid}: {seen}; {advice}: " in said and f"--set towers[0]=5: {set_again}" in said
        assert "shows only" not in said and "Step back" not in said and "not applied" not in said


def plain(text: str) -> str:
    """`text` without French typography's spaces before a colon or a semicolon (what is said, not how it is set)."""
    return text.replace("\u202f", " ").replace("\u00a0", " ").replace(" :", ":").replace(" ;", ";")


@pytest.mark.parametrize("code", ["fr", "de"])
def test_a_set_that_cannot_be_taken_is_refused_in_the_language(photos: dict[str, str], code: str) -> None:
    """`--lang fr|de`: every `--set` refused (a key naming no photo, a sheet past the last, a field the sheet has
    not, a value its field cannot take, no FIELD=VALUE, no photo at all) is said in the language under a heading in
    it, exit 2 as in English; each keeps its `--set KEY` as typed, and English is as it was."""
    from generator.commands import error_line
    from generator.i18n import language

    lang = language(code)
    ana, ben = photos["ana"], photos["ben"]
    sets = ("--set", "towers[1]=5", "--set", "sheets[5].towers[1]=2", "--set", "zed.jpg:towers[0]=1", "--set",
            "ana.jpg:towers[9]=5", "--set", "ana.jpg:towers[1]=abc")
    english = run("score", ana, ben, *sets)
    said = run("score", ana, ben, *sets, "--lang", code)
    assert english.exit_code == said.exit_code == 2
    assert english.stderr.startswith("error: 5 values given with --set cannot be taken:\n")
    heading = lang.ngettext("{n} value given with --set cannot be taken:",
                            "{n} values given with --set cannot be taken:", 5).format(n=5)
    assert plain(said.stderr).startswith(plain(error_line(heading, lang) + "\n"))
    lines = said.stderr.splitlines()[1:]
    assert [line.split(": ")[0].strip() for line in lines] == ["--set towers[1]", "--set sheets[5].towers[1]",
                                                              "--set zed.jpg:towers[0]", "--set ana.jpg:towers[9]",
                                                              "--set ana.jpg:towers[1]"]
    for english_words in ("photos were read", "there are 2 sheets", "names no file given", "the sheet has no field",
                          "takes a whole number"):
        assert english_words in english.stderr and english_words not in said.stderr
    malformed = run("score", ana, "--set", "foo", "--lang", code)
    assert malformed.exit_code == 2 and "expected FIELD=VALUE" not in malformed.stderr
    assert lang._("expected FIELD=VALUE, such as towers[1]=5") in malformed.stderr
    example = str(Path(__file__).resolve().parents[2] / "content" / "examples" / "once-upon-a-castle.yaml")
    no_photo = run("score", example, "--set", "towers[1]=5", "--lang", code)
    assert no_photo.exit_code == 2 and "no photo was given" not in no_photo.stderr
    assert lang._("confirms values read from photos, and no photo was given") in no_photo.stderr
