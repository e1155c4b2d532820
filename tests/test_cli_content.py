"""`donjon content ...` and the command line's general behaviour, through typer's runner and as a subprocess."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from generator.cli import app
from generator.resources import content_dir

runner = CliRunner()


def donjon(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed `donjon` command (the console script beside this interpreter)."""
    exe = Path(sys.executable).with_name("donjon")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "generator"]
    return subprocess.run([*command, *args], capture_output=True, text=True, cwd=cwd, timeout=120)


def test_help_lists_the_commands_and_exit_codes() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "content" in result.output
    assert "Exit codes" in result.output


def test_every_command_has_help_that_explains_its_options() -> None:
    for args in (["content", "--help"], ["content", "check", "--help"], ["content", "list", "--help"],
                 ["content", "schema", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, args
        assert "Usage:" in result.output
    listing = runner.invoke(app, ["content", "list", "--help"]).output
    assert "--content" in listing and "instead of the shipped catalogs" in listing
    assert "--json" in listing


def leaves(args: list[str]) -> list[list[str]]:
    """Every command below `donjon ARGS`, as the arguments that run it, found through the help's lists."""
    listing = runner.invoke(app, [*args, "--help"]).output
    if "Commands:" not in listing:
        return [args]
    names = [line.split()[0] for line in listing.split("Commands:", 1)[1].splitlines() if line.startswith("  ")]
    return [leaf for name in names for leaf in leaves([*args, name])]


def test_every_commands_help_says_its_exit_codes() -> None:
    """`donjon COMMAND --help` alone tells a script what each exit code means: the command's own words where it
    gives them (score, serve, check-print), else the codes every command shares."""
    from generator.cli import COMMANDS

    commands = [leaf for name in COMMANDS for leaf in leaves([name])]
    assert ["history", "merge"] in commands and ["content", "translations", "import"] in commands
    for args in commands:
        result = runner.invoke(app, [*args, "--help"])
        assert result.exit_code == 0, args
        text = " ".join(result.output.split())
        said = re.search(r"Exit (codes: )?0\b(.*)", text)
        assert said is not None and re.search(r"\b2\b", said.group(2)), args


def test_a_groups_own_exit_codes_are_its_subcommands(tmp_path: Path) -> None:
    """`donjon history edit --help` says the codes `donjon history` says (a game that breaks the rules is 2 there),
    not the shared ones whose 1 it never exits with; a group saying none (`content`) leaves the shared ones."""
    group = " ".join(runner.invoke(app, ["history", "--help"]).output.split())
    codes = group[group.index("Exit codes:"):group.index(" Options:")]
    for name in ("list", "show", "players", "export", "photos", "import", "edit", "delete", "rename", "merge"):
        text = " ".join(runner.invoke(app, ["history", name, "--help"]).output.split())
        assert text.endswith(codes) and "1 the input breaks the rules" not in text, name
    shared = " ".join(runner.invoke(app, ["content", "schema", "--help"]).output.split())
    assert "1 the input breaks the rules" in shared
    # and what the help says is what `history edit` does with a game that breaks the rules
    broken = tmp_path / "broken.yaml"
    broken.write_text((content_dir() / "examples" / "guildhall.yaml").read_text(encoding="utf-8")
                      .replace("ended_by: Ana", "ended_by: Ben"), encoding="utf-8")
    import yaml

    from generator.web import store
    from generator.web.db import Database
    from generator.web.games import Games

    db = Database(tmp_path / "h.sqlite3")
    state = yaml.safe_load((content_dir() / "examples" / "guildhall.yaml").read_text(encoding="utf-8"))
    result = Games().score(state).result
    assert result is not None
    db.write(lambda c: store.save_game(c, "guildhall", state, result, played_at="2026-03-01 21:00:00"))
    db.close()
    edited = runner.invoke(app, ["history", "edit", "1", str(broken), "--db", str(tmp_path / "h.sqlite3")])
    assert edited.exit_code == 2 and "is not a valid, finished game" in edited.output


def test_content_check_ok() -> None:
    result = runner.invoke(app, ["content", "check"])
    assert result.exit_code == 0
    assert result.output.startswith("OK: 3 games, 0 deck folders, 8 decks, 412 cards.")


def test_content_check_reports_every_problem_with_exit_1(tmp_path: Path) -> None:
    root = tmp_path / "c"
    shutil.copytree(content_dir(), root)
    path = root / "guildhall/professions.yaml"
    path.write_text(path.read_text().replace("    summary: Throw", "    sumary: Throw"))
    vp = root / "guildhall/vp-cards.yaml"
    vp.write_text(vp.read_text().replace("    value: 9\n", "    value: nine\n", 1))
    result = donjon("content", "check", str(root))
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert any("guildhall/professions.yaml:" in line and "professions[assassin].sumary: unknown key" in line
               for line in lines)
    assert any("guildhall/vp-cards.yaml:" in line and "vp_cards[owe-9].value" in line for line in lines)
    # the typo is both an unknown key and a missing required one
    assert any("professions[assassin]: missing the key 'summary'" in line for line in lines)
    assert lines[-1] == "3 problems found."
    assert "Traceback" not in result.stderr


def test_content_check_of_a_missing_folder_is_exit_2() -> None:
    result = runner.invoke(app, ["content", "check", "/no/such/folder"])
    assert result.exit_code == 2
    assert "no such content folder" in result.output


def test_content_check_takes_the_folder_as_the_other_commands_do(tmp_path: Path) -> None:
    """`--content DIR`, as `build`, `export` and `content list` take it, checks the same folder as DIR."""
    root = tmp_path / "c"
    shutil.copytree(content_dir() / "guildhall", root / "guildhall")
    path = root / "guildhall/vp-cards.yaml"
    path.write_text(path.read_text().replace("    value: 9\n", "    value: nine\n", 1))
    named = runner.invoke(app, ["content", "check", "--content", str(root)])
    given = runner.invoke(app, ["content", "check", str(root)])
    assert named.exit_code == given.exit_code == 1
    assert "vp_cards[owe-9].value" in named.output and named.output == given.output
    both = runner.invoke(app, ["content", "check", str(root), "--content", str(root)])
    assert both.exit_code == 2 and "--content: names a folder already given as DIR" in both.output


def test_content_list_table_and_json() -> None:
    table = runner.invoke(app, ["content", "list"])
    assert table.exit_code == 0
    assert "old-world-economy-professions  120 cards  30 faces" in table.output
    assert "great-architect-guests" in table.output
    data = json.loads(runner.invoke(app, ["content", "list", "--json"]).output)
    assert data["guildhall"]["decks"][0] == {"id": "old-world-economy-professions",
                                             "name": "Old World Economy: professions", "cards": 120, "faces": 30,
                                             "card_size": "poker 63x88 mm"}
    assert data["guedelon"]["catalogs"]["floor tiles"] == 22
    assert data["once-upon-a-castle"]["catalogs"]["guests"] == 20


def test_content_list_with_a_user_deck(tmp_path: Path) -> None:
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "deck.yaml").write_text("id: mine\nname: Mine\nlayout: generic\ncards: c.csv\ncount_column: n\n")
    (deck / "c.csv").write_text("name,n\nA,3\nB,2\n")
    result = runner.invoke(app, ["content", "list", "--content", str(deck), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["mine"]["decks"][0]["cards"] == 5


def test_content_list_columns_line_up_whatever_the_card_size(tmp_path: Path) -> None:
    """Each column of `donjon content list` starts at the same place on every line, of every game: a card size
    longer than 18 characters (`bridge 57.15x88.9 mm`) pushed its deck's name out of line, and each game had its
    own width of ids."""
    result = runner.invoke(app, ["content", "list", "--content", str(content_dir() / "examples" / "decks")])
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.startswith("  ") and " cards " in line]
    assert len(rows) >= 4 and any("bridge 57.15x88.9 mm" in row for row in rows), result.output
    for column in (" cards ", " faces "):
        assert len({row.index(column) for row in rows}) == 1, (column, result.output)
    listed = json.loads(runner.invoke(app, ["content", "list", "--content", str(content_dir() / "examples" / "decks"),
                                            "--json"]).output)
    names = [deck["name"] for game in listed.values() for deck in game["decks"]]
    assert len(names) == len(rows) and len({len(row) - len(name) for row, name in zip(rows, names)}) == 1, \
        result.output  # every deck's name starts in one column


def test_unknown_option_is_a_usage_error() -> None:
    result = donjon("content", "list", "--colour")
    assert result.returncode == 2
    assert "No such option" in result.stderr
    assert result.stdout == ""


def test_subprocess_runs_from_another_folder(tmp_path: Path) -> None:
    result = donjon("content", "check", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("OK: 3 games")


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("donjon ")


@pytest.mark.parametrize("args", [["content", "schema", "--out", "{tmp}/s"]])
def test_schema_command_writes_files(tmp_path: Path, args: list[str]) -> None:
    result = runner.invoke(app, [a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code == 0
    written = sorted(p.name for p in (tmp_path / "s").iterdir())
    assert "guildhall-professions.schema.json" in written and "deck.schema.json" in written


def test_schema_command_into_a_file_is_exit_3(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = runner.invoke(app, ["content", "schema", "--out", str(blocker)])
    assert result.exit_code == 3
    assert f"--out {blocker}: is a file, not a folder" in result.output


def test_every_option_and_argument_is_shown_in_donjons_words() -> None:
    """Each option's and argument's placeholder is one the help explains (DIR, FILE, N, NAME...), never the type
    name typer makes up for one without (`<str>`, `<path>`, `<int range>`) nor a parameter's Python name
    (`{files}`, while the help says FILE); `reference --lang` says what it does for a game and for a deck of one's
    own (whose reference takes the deck's cards in that language), not the shared help's words on building decks."""
    from generator.cli import COMMANDS

    for args in [leaf for name in COMMANDS for leaf in leaves([name])]:
        text = runner.invoke(app, [*args, "--help"]).output
        assert re.search(r"<[a-z][a-z ]*>", text) is None, (args, text)
        usage = text.split("\n\n", 1)[0]
        assert re.search(r"\{[a-z]", usage) is None, (args, usage)
    reference = " ".join(runner.invoke(app, ["reference", "--help"]).output.split())
    assert "--lang LANG The language to write in" in reference
    assert "For a deck of your own: its cards' language, where its table holds it." in reference


def test_a_value_to_confirm_without_a_photo_is_refused() -> None:
    """`--set` confirms marks read from photos; given with end states only it was applied to nothing, exit 0, and
    the user believed the result corrected. It is refused as with filled PDFs only (exit 2)."""
    example = str(content_dir() / "examples" / "guildhall.yaml")
    result = runner.invoke(app, ["score", example, "--set", "towers[1]=5"])
    assert result.exit_code == 2
    assert "--set towers[1]: confirms values read from photos, and no photo was given" in result.output


def test_names_without_a_sheet_or_photo_are_refused() -> None:
    """`--names` names the players of filled sheets and photos; given with end states only it was dropped without a
    word (exit 0), the players still as the file names them. It is refused, as `--set` is (exit 2)."""
    example = str(content_dir() / "examples" / "guildhall.yaml")
    result = runner.invoke(app, ["score", example, "--names", "Ana,Ben"])
    assert result.exit_code == 2
    assert "--names Ana,Ben: names the players of filled sheets and photos, and none was given" in result.output


def test_printer_add_says_the_ranges_it_keeps() -> None:
    """`printer add --help` gives the ranges `printer add` refuses values outside of (they were said only by the
    refusal)."""
    from generator.printers import OFFSET_MM, SCALE

    text = " ".join(runner.invoke(app, ["printer", "add", "--help"]).output.split())
    assert f"each {OFFSET_MM[0]:g} to {OFFSET_MM[1]:g}" in text.split("--scale")[0]
    assert f"each {SCALE[0]:g} to {SCALE[1]:g}" in text.split("--scale")[1]


def test_build_help_names_a_sheet_of_ones_own_as_a_target() -> None:
    """`donjon build lantern-harbour --content content/examples/sheets` builds a sheet of one's own (README.md,
    "Your own score sheet"), but `donjon build --help` named only a deck of one's own as a TARGET, and no place
    for the sheets it writes."""
    text = " ".join(runner.invoke(app, ["build", "--help"]).output.split())
    assert "a deck or a score sheet of your own by its id" in text
    assert "a deck or a sheet of your own in --content" in text
    assert "OUT/score-sheets/SHEET/" in text.replace("score- sheets", "score-sheets")


# --- a designer's messages in French and German (`content check --lang`, `build --lang`) ---------------------------

def _translated(code: str, message: str, plural: str | None = None, n: int = 1) -> re.Pattern[str]:
    """The catalog's translation of `message` (its form for `n` with `plural`) as a pattern: each `{name}` any text.
    What a test compares a line with, rather than a sentence copied here."""
    from generator.i18n import language

    lang = language(code)
    said = lang._(message) if plural is None else lang.ngettext(message, plural, n)
    assert said != (message if plural is None or n == 1 else plural), f"{message!r} has no {code} translation"
    parts = re.split(r"\{[a-z_]+(?:![rs])?\}", said)
    return re.compile(".*".join(re.escape(part) for part in parts))


def _in_quotes(code: str, value: str) -> str:
    """A user's value as a French or German message quotes it (« x », „x“), where English shows Python's 'x'."""
    return {"fr": f"«\u202f{value}\u202f»", "de": f"„{value}“"}[code]


def _own_deck(root: Path, deck_yaml: str, table: str = "name,text,count\nA,b,1\nB,c,2\n") -> Path:
    folder = root / "mine"
    folder.mkdir(parents=True)
    (folder / "deck.yaml").write_text(deck_yaml, encoding="utf-8")
    (folder / "cards.csv").write_text(table, encoding="utf-8")
    return root


DECK = "id: mine\nname: Mine\ncard_size: poker\nlayout: generic\ncards: cards.csv\ncount_column: count\n"


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_designers_problems_in_their_language(tmp_path: Path, code: str) -> None:
    """`content check --lang fr|de`: an unknown key, a missing required key, a count that is no number and the
    summary are the catalogs' sentences; the file, the line and the key stay as the designer wrote them; exit 1."""
    root = _own_deck(tmp_path / "c", DECK.replace("cards: cards.csv\n", "tabel: cards.csv\n"))
    result = runner.invoke(app, ["content", "check", str(root), "--lang", code])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    unknown = next(line for line in lines if ": tabel: " in line)
    assert "mine/deck.yaml:5: tabel: " in unknown, unknown
    assert _translated(code, "unknown key {key!r}; allowed: {keys}").search(unknown), unknown
    assert any(":1: " in line and _translated(code, "missing the key {key!r} ({doc})").search(line) for line in lines)
    assert _translated(code, "{n} problem found.", "{n} problems found.", 2).fullmatch(lines[-1]), lines[-1]

    root = _own_deck(tmp_path / "d", DECK, "name,text,count\nA,b,x\n")
    result = runner.invoke(app, ["content", "check", str(root), "--lang", code])
    assert result.exit_code == 1
    line = result.output.splitlines()[0]
    assert "mine/cards.csv:2: cards[0].count: " in line
    assert _translated(code, "expected a whole number of copies from 0 (leave the card out) to 1000, got {value}"
                       ).search(line), line


LEAVES = ("on a {size} card the box spans {left}-{right} mm across and {top}-{bottom} mm down: it leaves the card "
          "(use bleed: true to extend a shape past the edge)")
TURNED = ("on a {size} card the box once turned {degrees} degrees spans {left}-{right} mm across and {top}-{bottom} "
          "mm down: it leaves the card (use bleed: true to extend a shape past the edge)")
CLOSE = ("on a {size} card the {kind} box comes closer than {safe} mm to the card's edge, where a cut can go; keep it "
         "inside the safe area (or lower the layout's `safe`)")
ROOM = "on a {size} card the box is {width} x {height} mm: it has no room"


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_layouts_boxes_off_the_card_in_the_designers_language(tmp_path: Path, code: str
                                                                                   ) -> None:
    """A layout's box that leaves the card (turned or not), one of text too near the cut, one with no room: said in
    English under `--lang fr|de`; now in the language, its lengths written as it writes numbers (64,5), the file,
    line and box named as written, the other cards named in the language's quotes, exit 1."""
    layout = ("extends: generic\nboxes:\n  out: {kind: rect, x: 100% + 1.5mm, y: 4mm, width: 8.5mm, height: 8mm, "
              "fill: ink}\n"
              "  turned: {kind: rect, x: 0mm, y: 0mm, width: 10mm, height: 2mm, rotate: 90, "
              "fill: ink}\n"
              "  near: {kind: text, x: 0.5mm, y: 20mm, width: 20mm, height: 5mm, style: body, text: x}\n"
              "  flat: {kind: rect, x: 1mm, y: 30mm, width: 0mm, height: 5mm, fill: ink}\n")
    root = _own_deck(tmp_path / "c", DECK.replace("layout: generic", "layout: lay.yaml"))
    (root / "mine" / "lay.yaml").write_text(layout, encoding="utf-8")
    result = runner.invoke(app, ["content", "check", str(root), "--lang", code])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    said = {key: next((line for line in lines if f": boxes.{key}: " in line), "") for key in
            ("out", "turned", "near", "flat")}
    assert "mine/lay.yaml:3: boxes.out: " in said["out"] and _translated(code, LEAVES).search(said["out"])
    assert "64,5" in said["out"] and "64.5" not in said["out"], said["out"]
    assert _translated(code, TURNED).search(said["turned"]), said["turned"]
    assert _translated(code, CLOSE).search(said["near"]) and _translated(code, ROOM).search(said["flat"]), lines
    assert all("it leaves the card" not in line and "closer than" not in line for line in lines), lines
    assert _in_quotes(code, "B") in said["out"] and "'B'" not in said["out"], said["out"]
    english = runner.invoke(app, ["content", "check", str(root)]).output
    assert "it leaves the card" in english and "(and 1 more card: 'B')" in english


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_missing_files_and_yaml_mistakes_in_the_designers_language(tmp_path: Path,
                                                                                       code: str) -> None:
    """A table that is not there, a layout file that is not there, YAML that does not parse: each said at its file
    (and line) in the language asked for."""
    missing = _own_deck(tmp_path / "a", DECK.replace("cards.csv", "missing.csv"))
    no_layout = _own_deck(tmp_path / "b", DECK.replace("layout: generic", "layout: lay.yaml"))
    broken = _own_deck(tmp_path / "c", "id: mine\nname: [Mine\n")
    for root, file, message in ((missing, "mine/missing.csv", "no such file"),
                                (no_layout, "mine/deck.yaml", "{ref}: there is no such file in {folder}"),
                                (broken, "mine/deck.yaml:3", None)):
        result = runner.invoke(app, ["content", "check", str(root), "--lang", code])
        assert result.exit_code == 1, result.output
        first = result.output.splitlines()[0]
        assert f"{file}: " in first, first
        if message is not None:
            assert _translated(code, message).search(first), first
        else:  # the YAML parser's reason is said after donjon's own words
            assert "YAML" in first and "not valid YAML" not in first, first
        assert "Traceback" not in result.output


def test_content_check_says_ok_in_the_designers_language(tmp_path: Path) -> None:
    root = _own_deck(tmp_path / "c", DECK)
    result = runner.invoke(app, ["content", "check", str(root), "--lang", "fr"])
    assert result.exit_code == 0, result.output
    assert _translated("fr", "OK: {counts}.").fullmatch(result.output.strip()), result.output
    german = runner.invoke(app, ["content", "check", str(root), "--lang", "de"])
    assert "0 Spiele, 1 Deck-Ordner, 1 Deck, 3 Karten" in german.output  # counted in the nominative
    english = runner.invoke(app, ["content", "check", str(root)])
    assert english.output.startswith("OK: 0 games, 1 deck folder, 1 deck, 3 cards.")


def test_content_check_lang_takes_only_a_language_donjon_speaks(tmp_path: Path) -> None:
    root = _own_deck(tmp_path / "c", DECK)
    result = runner.invoke(app, ["content", "check", str(root), "--lang", "es"])
    assert result.exit_code == 2
    assert "--lang es" in result.output
    text = " ".join(runner.invoke(app, ["content", "check", "--help"]).output.split())
    assert "--lang LANG The language to say the problems, warnings and the summary in" in text


def test_build_lang_says_the_designers_problems_and_summary_in_that_language(tmp_path: Path) -> None:
    """`build --lang fr` is the cards' language and the messages' too: a refusal starts with the catalog's
    `erreur :` and names the file and line as written (exit 1); a build that works ends with the summary in French."""
    from generator.i18n import language

    root = _own_deck(tmp_path / "c", DECK, "name,text,count\nA,b,x\n")
    result = runner.invoke(app, ["build", "--content", str(root), "--out", str(tmp_path / "o"), "--format", "svg",
                                 "--lang", "fr"])
    assert result.exit_code == 1, result.output
    error = result.output.strip().splitlines()[0]
    assert error.startswith(language("fr")._("error: {message}").split("{")[0]), error
    assert "mine/cards.csv:2: cards[0].count: " in error
    assert _translated("fr", "expected a whole number of copies from 0 (leave the card out) to 1000, got {value}"
                       ).search(error), error

    root = _own_deck(tmp_path / "d", DECK)
    result = runner.invoke(app, ["build", "--content", str(root), "--out", str(tmp_path / "o"), "--format", "svg",
                                 "--lang", "fr"])
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    assert _translated("fr", "Built {n} deck: {cards}, {files} in {seconds} s{rate}.",
                       "Built {n} decks: {cards}, {files} in {seconds} s{rate}.", 1).fullmatch(last), last
    # a language donjon does not speak (a deck of one's own may hold it) keeps the messages English
    result = runner.invoke(app, ["build", "--content", str(root), "--out", str(tmp_path / "o"), "--format", "svg",
                                 "--lang", "es"])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1].startswith("Built 1 deck: 3 cards, 3 files in ")
    text = " ".join(runner.invoke(app, ["build", "--help"]).output.split())
    assert "In fr or de, the build also says its problems, warnings and summary in that language" in text


@pytest.mark.parametrize("code", ["fr", "de"])
def test_text_too_long_for_its_box_is_said_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """The commonest mistake of a deck of one's own, a text too long for its box even at its smallest size, is said
    in the language asked for, at the layout's line and the card's row, its lengths as that language writes them."""
    text = " ".join(["Antidisestablishmentarianism"] * 120)
    root = _own_deck(tmp_path / "c", DECK.replace("count_column: count\n", ""), f"name,text\nA,{text}\n")
    result = runner.invoke(app, ["content", "check", str(root), "--lang", code])
    assert result.exit_code == 1, result.output
    line = result.output.splitlines()[0]
    assert line.startswith("templates/layouts/generic.yaml:") and "boxes.body.text: " in line, line
    assert "mine/cards.csv:2" in line
    assert _translated(code, "{who}: does not fit: {reason}").search(line), line
    needs = ("it needs {n} line ({need} mm) at {size} pt, the smallest size allowed, but the box holds {room} "
             "({height} mm tall)")
    assert _translated(code, needs, needs.replace("{n} line", "{n} lines"), 120).search(line), line
    assert "," in line.rsplit("(", 1)[1]  # 65,0 mm: a decimal comma in both


LAYOUT = """extends: generic
boxes:
  extra:
    kind: text
    x: 5mm
    y: 5mm
    width: 20mm
    height: 10mm
    text: "{{ card.name }}"
    size: 8
    font: serif-bld
    colour: tomato
"""


@pytest.mark.parametrize("code", ["fr", "de"])
def test_a_layouts_unknown_font_and_colour_are_said_in_the_designers_language(tmp_path: Path, code: str) -> None:
    root = _own_deck(tmp_path / "c", DECK.replace("layout: generic", "layout: lay.yaml"))
    (root / "mine" / "lay.yaml").write_text(LAYOUT, encoding="utf-8")
    result = runner.invoke(app, ["content", "check", str(root), "--lang", code])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    font = next(line for line in lines if "boxes.extra.font: " in line)
    assert "mine/lay.yaml:3: " in font
    assert _translated(code, "unknown font {name}{guess}; expected one of {fonts}{own}").search(font), font
    colour = next(line for line in lines if "boxes.extra.colour: " in line)
    assert _translated(code, "{value} is not in the palette ({colours})").search(colour), colour


def _build_lines(root: Path, out: Path, *args: str) -> list[str]:
    result = runner.invoke(app, ["build", "--content", str(root), "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    return result.output.strip().splitlines()


@pytest.mark.parametrize("code", ["fr", "de"])
def test_build_says_what_it_wrote_and_its_warnings_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """`build --lang fr`: the sheet plan before drawing, each file written and a warning (`--also es`, a language
    nobody holds) in the designer's language, the paths as they are; no line left in English."""
    root = _own_deck(tmp_path / "c", DECK)
    lines = _build_lines(root, tmp_path / "o", "--lang", code, "--also", "es")
    warning = _translated(code, "warning: {message}")
    nobody = _translated(code, "{option} {lang}: donjon has no words in {quoted} (it has {held}) and no deck of this "
                               "build holds it: {what}")
    assert warning.match(lines[0]) and nobody.search(lines[0]) and "--also es" in lines[0], lines
    plan = _translated(code, "{deck}: {cards} a page ({cols} x {rows} on {paper} {orientation}), {pages}")
    assert plan.fullmatch(lines[1]) and "3 x 3" in lines[1], lines
    pdf = _translated(code, "wrote {path}: {pages}, {cards}")
    assert pdf.fullmatch(lines[2]) and "decks/mine.pdf" in lines[2], lines
    assert _translated(code, "wrote {path}/: {files}").fullmatch(lines[3]) and "mine/svg/" in lines[3], lines
    assert not [line for line in lines if line.startswith(("wrote ", "warning: ")) or " a page " in line]


def test_build_says_what_it_wrote_in_english_as_before(tmp_path: Path) -> None:
    """The same lines without --lang (or in a language donjon does not speak) are the English ones, word for word."""
    root = _own_deck(tmp_path / "c", DECK)
    for args in ((), ("--lang", "es")):
        lines = _build_lines(root, tmp_path / "o", *args, "--also", "es")
        if args:
            assert lines.pop(0) == ("warning: --lang es: donjon has no words in 'es' (it has en, fr, de) and no deck "
                                    "of this build holds it: written in English, each deck of your own in its own "
                                    "language"), lines
        assert lines[0] == ("warning: --also es: donjon has no words in 'es' (it has en, fr, de) and no deck of this "
                            "build holds it: each card's second name falls back to English, each deck of your own in "
                            "its own language"), lines
        deck = "mine" if not args else "mine (in es)"
        assert lines[1] == f"{deck}: 9 cards a page (3 x 3 on A4 portrait), 2 pages", lines
        assert re.fullmatch(r"wrote .*decks/mine\.pdf: 2 pages, 3 cards", lines[2]), lines
        assert re.fullmatch(r"wrote .*decks/mine/svg/: 3 SVG files", lines[3]), lines


def _english_sheet(root: Path) -> Path:
    shutil.copytree(Path(__file__).parent.parent / "content" / "examples" / "sheets" / "lantern-harbour",
                    root / "lantern-harbour")
    return root


@pytest.fixture
def english_sheet(tmp_path: Path) -> Iterator[Path]:
    """A content folder holding the example sheet (written in English); the sheet is a game while its folder is
    loaded in this process, and taken out of the registry afterwards (other tests list every game's records)."""
    from generator.registry import unregister

    try:
        yield _english_sheet(tmp_path / "c")
    finally:
        unregister("lantern-harbour")


@pytest.mark.parametrize("code", ["fr", "de"])
def test_build_warns_of_a_sheet_in_another_language_and_documents_left_out_in_the_designers_language(
        tmp_path: Path, english_sheet: Path, code: str) -> None:
    root = english_sheet
    lines = _build_lines(root, tmp_path / "o", "--lang", code, "--format", "svg")
    warning = _translated(code, "warning: {message}")
    assert warning.match(lines[0]) and _translated(
        code, "{origin}: --lang {lang}: the sheet is written in {written}{others}, not in {lang}: its own words are "
              "drawn as written, among donjon's in {lang}; give them under `languages: {base}:`").search(lines[0])
    assert re.search(rf"`languages: {code}:`|`{code}` de `languages`", lines[0]), lines
    assert "lantern-harbour/sheet.yaml" in lines[0], lines
    assert warning.match(lines[1]) and _translated(
        code, "{where}: {what}{printed}: --format {formats} writes none (add pdf: --format pdf,svg)").search(lines[1])
    assert _translated(code, "its fillable score sheets are written only when --format holds pdf").search(lines[1])


def test_build_warns_of_a_sheet_in_another_language_and_documents_left_out_in_english_as_before(
        tmp_path: Path, english_sheet: Path) -> None:
    root = english_sheet
    lines = _build_lines(root, tmp_path / "o", "--lang", "es", "--format", "svg")[1:]  # after --lang es's own
    origin = lines[0].split(": --lang es")[0].removeprefix("warning: ")
    assert lines[0] == (f"warning: {origin}: --lang es: the sheet is written in en, not in es: its own words are "
                        "drawn as written, among donjon's in es; give them under `languages: es:`"), lines
    assert lines[1] == (f"warning: {origin}: its fillable score sheets are written only when --format holds pdf (the "
                        "sheets to print are written as SVGs): --format svg writes none (add pdf: --format pdf,svg)")


@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_the_watch_says_its_errors_and_builds_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """`build --watch --lang fr`: each round's refusal and each deck built again, in the build's language (its
    messages' language is set around the watch as around a build); English as before."""
    from generator.build.options import BuildOptions
    from generator.build.watch import Reporter, WatchState, run_once
    from generator.i18n import language, messages_in
    from generator.render.imposition import PrintOptions

    root = _own_deck(tmp_path / "c", DECK)
    options = BuildOptions(PrintOptions(), ("svg",))
    lines: list[str] = []
    with messages_in(language(code)):
        run_once(root, "all", tmp_path / "o", options, None, WatchState(), Reporter(lines.append, lines.append),
                 None)
        (root / "mine" / "cards.csv").write_text("name,text,count\nA,b,x\n", encoding="utf-8")
        run_once(root, "all", tmp_path / "o", options, None, WatchState(), Reporter(lines.append, lines.append),
                 None)
    built, error = lines
    if code == "en":
        assert re.fullmatch(r"built mine/mine: 3 cards in \d+\.\d\d s \(svg/\)", built), lines
        assert error.startswith("error: ") and "mine/cards.csv:2: cards[0].count: " in error, lines
        return
    assert _translated(code, "built {key}: {cards} in {seconds} s ({files})").fullmatch(built), lines
    assert _translated(code, "error: {message}").match(error) and "mine/cards.csv:2: cards[0].count: " in error
    assert not error.startswith("error: "), error


def test_score_says_a_sheets_warnings_with_the_tables_word_for_warning(tmp_path: Path, english_sheet: Path) -> None:
    """`score --sheet --lang fr`: a sheet's warning (no field `player`) starts with `avertissement :`, as the rest
    of what score says; English `warning:` without --lang."""
    from generator.i18n import language

    root = english_sheet
    layout = root / "lantern-harbour" / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("  player: {type: text}", "  captain: {type: text}")
                      .replace("field: player,", "field: captain,"), encoding="utf-8")
    end = tmp_path / "end.yaml"
    end.write_text("nothing: here\n", encoding="utf-8")
    for code in ("fr", None):
        args = ["score", "--sheet", str(root / "lantern-harbour"), str(end)] + (["--lang", code] if code else [])
        said = [line for line in runner.invoke(app, args).output.splitlines() if "captain" in line]
        assert said, args
        prefix = language(code)._("warning: {message}").split("{")[0] if code else "warning: "
        assert said[0].startswith(prefix) and "layout.yaml:" in said[0], said


@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_build_names_the_score_sheets_and_references_it_wrote_in_the_designers_language(
        tmp_path: Path, english_sheet: Path, code: str) -> None:
    """What each score sheet and card reference is, after its path: `Lantern Harbour sheet, A4, to print
    (scan-ready)` in English as before, in the designer's words with --lang fr|de."""
    root = english_sheet
    lines = [line for line in _build_lines(root, tmp_path / "o", "--lang", code) if "score-sheets/" in line]
    castle = [line for line in _build_lines(content_dir(), tmp_path / "castle", "once-upon-a-castle", "--lang",
                                            code, "--format", "pdf") if "references/" in line]
    if code == "en":
        assert [line.split(": ", 1)[1] for line in lines[:4]] == [
            "Lantern Harbour sheet, A4, to print (scan-ready)", "Lantern Harbour sheet, A4, as SVG",
            "Lantern Harbour sheet, A4: its map of marks", "Lantern Harbour sheet, A4, fillable"], lines
        assert castle and re.search(r"\.pdf: card reference, \d+ pages$", castle[0]), castle
        return
    from generator.i18n import language

    lang = language(code)
    sheet = lang._("{name} sheet, {paper}").format(name="Lantern Harbour", paper=lang._("A4"))
    wrote = _translated(code, "wrote {path}: {what}")
    assert all(wrote.fullmatch(line) for line in lines), lines
    assert lines[0].endswith(lang._("{what}, to print (scan-ready)").format(what=sheet)), lines
    assert lines[1].endswith(lang._("{what}, as SVG").format(what=sheet)), lines
    assert lines[2].endswith(lang._("{what}: its map of marks").format(what=sheet)), lines
    assert lines[3].endswith(lang._("{what}, fillable").format(what=sheet)), lines
    reference = _translated(code, "card reference, {n} page", "card reference, {n} pages", 2)
    assert castle and reference.search(castle[0].rsplit(": ", 1)[1]), castle


def _skirmish(root: Path) -> Path:
    for part in ("skirmish", "shared", "fonts"):
        shutil.copytree(Path(__file__).parent.parent / "content" / "examples" / "decks" / part, root / part)
    return root


@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_an_svg_refused_and_an_unknown_icon_are_said_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """The SVG art a PDF cannot draw (a filter) and an icon a card's text names that nobody has: refused in the
    designer's language with the card, the file and the line as written (English word for word without --lang)."""
    from generator.i18n import language

    root = _skirmish(tmp_path / "c")
    (root / "skirmish" / "art" / "frost.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><filter id="f"/>'
        '<rect width="5" height="5" filter="url(#f)"/></svg>', encoding="utf-8")
    args = ["build", "skirmish", "--content", str(root), "--out", str(tmp_path / "o"), "--format", "svg"]
    svg = runner.invoke(app, args + (["--lang", code] if code != "en" else []))
    cards = root / "skirmish" / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("{sword}", "{swrod}"), encoding="utf-8")
    shutil.copy(Path(__file__).parent.parent / "content" / "examples" / "decks" / "skirmish" / "art" / "frost.svg",
                root / "skirmish" / "art" / "frost.svg")
    icon = runner.invoke(app, args + (["--lang", code] if code != "en" else []))
    assert svg.exit_code == 1 and icon.exit_code == 1, (svg.output, icon.output)
    svg_said, icon_said = svg.output.strip(), icon.output.strip()
    if code == "en":
        assert svg_said.endswith(
            "/skirmish/art/frost.svg): line 1: it uses a filter (a blur, a shadow...), which donjon's PDF cannot "
            "draw: make a bitmap copy of it in your drawing program (Inkscape: Edit > Make a Bitmap Copy), or remove "
            "it"), svg_said
        assert ("/skirmish/cards.csv:5): {swrod} (did you mean {sword}?) is not an icon donjon or the deck has "
                "(icons: ") in icon_said, icon_said
        assert "/skirmish/unit.yaml:34)" in icon_said and "(in box 'rules', " in icon_said, icon_said
        return
    lang = language(code)
    filtered = lang._("it uses {reason}").format(reason=lang._(
        "a filter (a blur, a shadow...), which donjon's PDF cannot draw: {copy}, or remove it").format(copy=lang._(
            "make a bitmap copy of it in your drawing program (Inkscape: Edit > Make a Bitmap Copy)")))
    assert svg_said.endswith(lang._("line {line}: {message}").format(line=1, message=filtered)), svg_said
    assert "/skirmish/art/frost.svg)" in svg_said, svg_said
    unknown = _translated(code, "{names} is not an icon donjon or the deck has (icons: {icons})",
                          "{names} are not icons donjon or the deck has (icons: {icons})", 1)
    assert unknown.search(icon_said) and "{swrod}" in icon_said and "skirmish/unit.yaml:34)" in icon_said, icon_said
    assert "(did you mean" not in icon_said and "in box" not in icon_said, icon_said


@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_builds_option_refusals_are_said_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """`build --lang fr --format pdf,png`, a bleed out of range: refused (exit 2) in the designer's words, the option
    and the value as typed, lengths as the language writes them; English as before."""
    root = _own_deck(tmp_path / "c", DECK)
    said = []
    for bad in (["--format", "pdf,png"], ["--bleed-size", "40mm"]):
        result = runner.invoke(app, ["build", "--content", str(root), "--out", str(tmp_path / "o"), *bad]
                               + (["--lang", code] if code != "en" else []))
        assert result.exit_code == 2, result.output
        said.append(result.output.strip())
    if code == "en":
        assert said == ["error: --format: 'pdf,png': choose pdf, svg or pdf,svg",
                        "error: --bleed-size: 40 mm is out of range; it must be from 0.5 to 6.35 mm"], said
        return
    assert _translated(code, "{value}: choose {names} or {both}").search(said[0]) and _in_quotes(code, "pdf,png") in \
        said[0], said
    out_of_range = _translated(code, "{value} {unit} is out of range; it must be from {low} to {high} {unit}")
    assert out_of_range.search(said[1]) and "0,5" in said[1] and "6,35 mm" in said[1], said


# --- export, preview and reference say what they wrote in the cards' language (`--lang fr`) ------------------------

#: each command on a deck of one's own, as a designer runs them before sending the files to a service
EXPORTS = (["export", "png", "--preset", "plain", "--dpi", "72", "--jobs", "1"], ["export", "tts", "--jobs", "1"],
           ["export", "dtc"], ["export", "--service", "mpc", "--decks", "all", "--jobs", "1"], ["reference", "mine"],
           ["preview", "--jobs", "1"])


def _exported(root: Path, out: Path, *args: str) -> list[str]:
    lines = []
    for command in EXPORTS:
        result = runner.invoke(app, [*command, "--content", str(root), "--out", str(out), *args])
        assert result.exit_code == 0, result.output
        lines += result.output.strip().splitlines()
    return lines


@pytest.mark.parametrize("code", ["fr", "de"])
def test_export_preview_and_reference_say_what_they_wrote_in_the_cards_language(tmp_path: Path, code: str) -> None:
    """`export png|tts|dtc|--service`, `reference` and `preview` with `--lang fr`: each file written, each summary and
    the warning (a deck holding no cards in the language) in that language, as `build --lang fr` says them, the
    paths and sizes as they are; they were English whatever --lang said."""
    lines = _exported(_own_deck(tmp_path / "c", DECK), tmp_path / "o", "--lang", code)
    expected = [
        ("wrote {path}/: {n} PNG file of {w}x{h} px ({faces} and {backs}), {manifest}",
         "wrote {path}/: {n} PNG files of {w}x{h} px ({faces} and {backs}), {manifest}", 3),
        ("Exported {decks}: {files} ({size}) in {seconds} s{rate}.", None, 1),
        ("wrote {path}/: {sheets}, {backs}, {saved}; cards of {w}x{h} px", None, 1),
        ("Exported {decks} for Tabletop Simulator: {cards} on {sheets} in {seconds} s.", None, 1),
        ("wrote {path}: {pages} of {w} x {h} in ({cards}, back then front, RGB)", None, 1),
        ("Exported {decks} for DriveThruCards in {seconds} s.", None, 1),
        ("wrote {path}/: {n} PNG file of {w}x{h} px at {dpi} dpi, {manifest} (each face's copies, as {service} asks "
         "them)", "wrote {path}/: {n} PNG files of {w}x{h} px at {dpi} dpi, {manifest} (each face's copies, as "
         "{service} asks them)", 3),
        ("Exported {decks} for {service} in {seconds} s.", None, 1),
        ("warning: {message}", None, 1),
        ("wrote {path}: {pages}", None, 1),
        ("Wrote {n} reference in {seconds} s.", "Wrote {n} references in {seconds} s.", 1),
        ("wrote {path}: {decks}, {cards}, {pdfs}; {images}, {mb} MB in {seconds} s. Open it in a browser.", None, 1)]
    assert len(lines) == len(expected), lines
    for line, (message, plural, n) in zip(lines, expected):
        assert _translated(code, message, plural, n).fullmatch(line), (line, message)
    held = _translated(code, "the deck {deck} holds no cards in {lang} (its languages: {languages}); its cards are "
                             "listed as its table gives them")
    assert held.search(lines[8]) and _in_quotes(code, code) in lines[8], lines[8]
    assert "2,75 x 3,75" in lines[4] and "mine/:" not in " ".join(lines), lines
    assert not [line for line in lines if line.startswith(("wrote ", "Wrote ", "Exported ", "warning: "))], lines


def test_export_preview_and_reference_say_what_they_wrote_in_english_as_before(tmp_path: Path) -> None:
    """Without --lang (or in a language donjon does not speak) the same lines as before, word for word."""
    root = _own_deck(tmp_path / "c", DECK)
    nobody = ("warning: --lang es: donjon has no words in 'es' (it has en, fr, de) and no deck of this build holds it: "
              "written in English, each deck of your own in its own language")
    for args in ((), ("--lang", "es")):
        lines = [line for line in _exported(root, tmp_path / "o", *args) if line != nobody]
        took = r"\d+\.\d\d s"
        expected = [
            r"wrote .*png/decks/mine/: 3 PNG files of 179x249 px \(2 faces and the back\), manifest\.csv",
            rf"Exported 1 deck: 3 PNG files \(plain: trim size, no bleed\) in {took}( \(\d+ images/s\))?\.",
            r"wrote .*tts/decks/mine/: faces-1\.png \(2x1\), back\.png, mine\.json; cards of 409x571 px",
            rf"Exported 1 deck for Tabletop Simulator: 3 cards on 1 sheet in {took}\.",
            r"wrote .*dtc/decks/mine\.pdf: 6 pages of 2\.75 x 3\.75 in \(3 cards, back then front, RGB\)",
            rf"Exported 1 deck for DriveThruCards in {took}\.",
            r"wrote .*print/makeplayingcards/decks/mine/: 3 PNG files of 822x1122 px at 300 dpi, manifest\.csv \(each "
            r"face's copies, as MakePlayingCards asks them\)",
            rf"Exported 1 deck for MakePlayingCards in {took}\.",
            *([r"warning: the deck mine holds no cards in 'es' \(its languages: en\); its cards are listed as its "
               r"table gives them"] if args else []),
            r"wrote .*references/decks/mine-reference\.pdf: 1 page",
            rf"Wrote 1 reference in {took}\.",
            rf"wrote .*preview/index\.html: 1 deck, 3 cards, 1 PDF; \d+ images, \d+\.\d MB in {took}\. Open it in a "
            r"browser\."]
        assert len(lines) == len(expected), lines
        for line, pattern in zip(lines, expected):
            assert re.fullmatch(pattern, line), (line, pattern)


#: SVG art a designer's deck may meet, each refused with its line: (the file, the line named, the English refusal
#: word for word, the message its translation is looked up by).
_REFUSED_ART = [
    ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
     '<rect width="5" height="5" style="clip-path: circle(50%)"/></svg>', 2,
     "a clip path written as a CSS shape (circle(50%)), which donjon's PDF cannot draw (it drew the element uncut): "
     "draw the shape as a <clipPath> of the file and name it (clip-path=\"url(#id)\")",
     "a clip path written as a CSS shape ({value}), which donjon's PDF cannot draw (it drew the element uncut): draw "
     "the shape as a <clipPath> of the file and name it (clip-path=\"url(#id)\")"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
     '<style>@supports (display: grid) { rect { fill: red } }</style><rect width="5" height="5"/></svg>', 2,
     "its stylesheet holds rules inside @supports, which donjon does not read (Chromium does): write them as plain "
     "rules",
     "its stylesheet holds rules inside @{rule}, which donjon does not read (Chromium does): write them as plain "
     "rules"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" mask="url(#m)">\n'
     '<mask id="m"><rect width="5" height="5" fill="white"/></mask><rect width="9" height="9"/></svg>', 1,
     "a mask on the whole drawing (its <svg>), which donjon's PDF does not draw: put the drawing in a group (<g>) "
     "and mask the group",
     "a mask on the whole drawing (its <svg>), which donjon's PDF does not draw: put the drawing in a group (<g>) and "
     "mask the group"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n<text id="t1">Hello</text></svg>', 2,
     "it holds text, which card art may not: convert text to paths in your drawing program (Inkscape: Path > Object "
     "to Path); the first is 'Hello' (id t1)",
     "it holds text, which card art may not: convert text to paths in your drawing program (Inkscape: Path > Object to "
     "Path)"),
]


@pytest.mark.parametrize("case", range(len(_REFUSED_ART)))
@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_svg_art_refused_for_a_clip_path_a_mask_a_rule_or_text_is_said_in_the_designers_language(
        tmp_path: Path, code: str, case: int) -> None:
    """A deck's SVG art refused (a clip path or a mask it cannot draw, rules inside @supports, text): build --lang
    fr|de says why in the designer's language, the file and its line as written; English word for word."""
    from generator.i18n import language

    svg, line, english, message = _REFUSED_ART[case]
    root = _skirmish(tmp_path / "c")
    (root / "skirmish" / "art" / "frost.svg").write_text(svg, encoding="utf-8")
    args = ["build", "skirmish", "--content", str(root), "--out", str(tmp_path / "o"), "--format", "svg"]
    result = runner.invoke(app, args + (["--lang", code] if code != "en" else []))
    said = result.output.strip()
    assert result.exit_code == 1, said
    assert "/skirmish/art/frost.svg)" in said, said
    if code == "en":
        assert said.endswith(f"/skirmish/art/frost.svg): line {line}: {english}"), said
        return
    lang = language(code)
    at = lang._("line {line}: {message}").format(line=line, message="")
    assert at in said and _translated(code, message).search(said.split(at, 1)[1]), said
    if "text" in message:
        assert {"fr": "« Hello »", "de": "„Hello“"}[code] in said.replace("\u202f", " "), said
    # the card, the column and the value it gives, quoted as the language quotes (not Python's 'Frost nova')
    assert all(_in_quotes(code, value) in said for value in ("Frost nova", "Art", "art/frost.svg")), said


@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_export_says_its_report_its_refusals_and_its_showcase_in_the_designers_language(tmp_path: Path,
                                                                                         code: str) -> None:
    """export --service's report on a file (its verdict, pages, ink), a wrong --colour, a --hand out of range, the
    showcase (which takes --lang as the other exports do) and the plain preset's label: in the designer's language
    with --lang fr|de, the file and option as written; English word for word without it."""
    root = _skirmish(tmp_path / "c")
    out = tmp_path / "o"
    lang = [] if code == "en" else ["--lang", code]
    service = runner.invoke(app, ["export", "--service", "dtc", "--decks", "skirmish", "--content", str(root),
                                  "--out", str(out)] + lang)
    colour = runner.invoke(app, ["export", "--service", "dtc", "--decks", "skirmish", "--content", str(root),
                                 "--out", str(out), "--colour", "rgbb"] + lang)
    hand = runner.invoke(app, ["export", "showcase", "skirmish", "--content", str(root), "--out", str(out),
                               "--hand", "40"] + lang)
    showcase = runner.invoke(app, ["export", "showcase", "skirmish", "--content", str(root), "--out", str(out),
                                   "--hand", "2", "--table", "2", "--dpi", "72"] + lang)
    png = runner.invoke(app, ["export", "png", "skirmish", "--content", str(root), "--out", str(out), "--preset",
                              "plain", "--dpi", "72"] + lang)
    assert (service.exit_code, colour.exit_code, hand.exit_code, showcase.exit_code, png.exit_code) == (0, 2, 2, 0, 0)
    report = next(line for line in service.output.splitlines() if "DriveThruCards" in line and "(" in line
                  and "/print/drivethrucards/decks/skirmish.pdf" in line and "PDF/X" not in line)
    said_colour, said_hand = colour.output.strip(), hand.output.strip()
    shown = showcase.output.strip().splitlines()[-1]
    if code == "en":
        assert "/print/drivethrucards/decks/skirmish.pdf: DriveThruCards would take it (42 pages; highest total ink " \
            in report and re.search(r" % \(page \d+, the colour [0-9. ]+ k\)\)$", report), report
        assert said_colour == "error: --colour: 'rgbb' is not rgb or cmyk", said_colour
        assert said_hand == "error: --hand: 40 is out of range; it must be from 1 to 12", said_hand
        assert re.fullmatch(r"Exported 1 deck as pictures in \d+\.\d\d s\.", shown), shown
        assert "(plain: trim size, no bleed)" in png.output, png.output
        return
    assert _translated(code, "{service} would take it").search(report), report
    from generator.i18n import language

    assert f"({language(code).nformat('{n} page', '{n} pages', 42)}" in report, report
    # where the highest ink is (a page, a colour of its content) in the language too: it was "(page 2, the colour
    # 0.6 0.4 0.4 1 k)" inside a French or German line
    where = re.search(r"\(([^()]*)\)\)$", report)
    page = language(code)._("page {page}, {what}").split("{")[0]  # (French writes it as English does)
    assert where and re.match(re.escape(page) + r"2, ", where[1]), report
    assert _translated(code, "the colour {values} {operator}").search(where[1]) and "the colour" not in report, report
    quoted = "Fehler: --colour: „rgbb“ " if code == "de" else "erreur\u00a0: --colour: «\u202frgbb\u202f» "
    assert said_colour.startswith(quoted), said_colour
    assert _translated(code, "{value} is not rgb or cmyk").search(said_colour), said_colour
    assert "--hand: 40 " in said_hand and _translated(
        code, "{value} is out of range; it must be from {low} to {high}").search(said_hand), said_hand
    assert _translated(code, "Exported {decks} as pictures in {seconds} s.").fullmatch(shown), shown
    assert _translated(code, "plain: trim size, no bleed").search(png.output), png.output


#: A layout drawing one picture far too coarse for print (8 x 8 pixels over 20 mm) on every card.
_COARSE = ('background: "#ffffff"\nboxes:\n'
           '  pic: {kind: image, x: 10mm, y: 10mm, width: 20mm, height: 20mm, src: tiny.png}\n')


def test_export_says_its_preflights_findings_in_the_designers_language_grouped_alike(tmp_path: Path) -> None:
    """export --service's preflight findings (here a picture below the service's resolution on every card) were
    English inside a French or German report. They are said in the language, the picture's file as it is; the same
    finding on many pages is one line with the same pages in every language, and `--json` gives each finding a code
    in no language, the same in English, French and German. English word for word as before."""
    from PIL import Image

    root = _own_deck(tmp_path / "c", DECK.replace("layout: generic", "layout: lay.yaml"))
    (root / "mine" / "lay.yaml").write_text(_COARSE, encoding="utf-8")
    Image.new("RGB", (8, 8), (200, 30, 30)).save(root / "mine" / "tiny.png")
    lines, codes = {}, {}
    for code in ("en", "fr", "de"):
        args = ["export", "--service", "dtc", "--content", str(root), "--out", str(tmp_path / code)]
        lang = [] if code == "en" else ["--lang", code]
        report, as_json = runner.invoke(app, args + lang), runner.invoke(app, args + lang + ["--json"])
        assert (report.exit_code, as_json.exit_code) == (1, 1), report.output + as_json.output
        lines[code] = [line for line in report.output.splitlines() if "[min_dpi]" in line]
        found = json.loads(next(line for line in as_json.stdout.splitlines() if line.startswith("{")))["findings"]
        codes[code] = [(f["page"], f["rule"], f["code"], f["verdict"]) for f in found]
    assert len(lines["en"]) == 1, lines["en"]
    assert re.fullmatch(r"  pages ([0-9, -]+): REFUSED \[min_dpi\] the picture \S*mine/tiny\.png \(8 x 8 px\) is drawn "
                        r"at \d+ dpi, below the 300 dpi DriveThruCards asks", lines["en"][0]), lines["en"]
    assert {c for _, _, c, _ in codes["en"]} == {"picture-dpi-below-minimum"}, codes["en"]
    assert len(codes["en"]) > 1, codes["en"]
    pages = re.findall(r"\d+", lines["en"][0].split(":")[0])
    for code in ("fr", "de"):
        assert codes[code] == codes["en"], (code, codes)
        assert len(lines[code]) == 1, lines[code]
        line = lines[code][0]
        assert re.findall(r"\d+", line.split("[")[0]) == pages, (line, pages)
        assert _translated(code, "the picture {picture} ({pixels}) is drawn at {dpi} dpi, below the {minimum} dpi "
                                 "{service} asks").search(line), line
        assert "mine/tiny.png (8 x 8 px)" in line and "is drawn at" not in line, line


#: build's option refusals: (the option and its value, the English refusal word for word, the message it is said by,
#: the value as written, the language's quotes around it or not).
_BUILD_REFUSALS = [
    (["--cards", "99"], "error: --cards: '99' is out of range: the deck 'skirmish' has cards 1 to 9",
     "{value} is out of range: the deck {deck} has cards 1 to {count}", "99", True),
    (["--cards", "Zap"], "error: --cards: 'Zap' is neither a position nor the name of a card of 'skirmish'",
     "{value} is neither a position nor the name of a card of {deck}{guess}", "Zap", True),
    (["--port", "70000"], "error: --port: 70000 is not a port (0 to 65535)", "{value} is not a port (0 to 65535)",
     "70000", False),
    (["--printer", "nope"], "error: --printer: 'nope' is not a saved printer (none yet: measure one with `donjon build "
     "calibration`, then `donjon printer add`)", "{value} is not a saved printer ({known})", "nope", True),
]


@pytest.mark.parametrize("case", range(len(_BUILD_REFUSALS)))
@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_build_refuses_cards_port_and_printer_in_the_designers_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str, case: int) -> None:
    """build --cards (out of range, no such card), --port and --printer refused (exit 2) in the designer's language
    with --lang fr|de, the option and value as written, quoted as the language quotes; English word for word."""
    from generator.i18n import language

    monkeypatch.setenv("DONJON_PRINTERS", str(tmp_path / "printers.json"))
    option, english, message, value, quoted = _BUILD_REFUSALS[case]
    root = _skirmish(tmp_path / "c")
    result = runner.invoke(app, ["build", "skirmish", "--content", str(root), "--out", str(tmp_path / "o"),
                                 "--format", "svg", *option] + ([] if code == "en" else ["--lang", code]))
    said = result.output.strip()
    assert result.exit_code == 2, said
    if code == "en":
        assert said == english, said
        return
    shown = {"fr": f"«\u202f{value}\u202f»", "de": f"„{value}“"}[code] if quoted else value
    assert said.startswith(f"{language(code)._('error: {message}').split('{')[0]}{option[0]}: {shown} "), said
    assert _translated(code, message).search(said), said


@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_a_deck_files_missing_and_unknown_keys_are_said_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """content check --lang fr|de on a deck.yaml without its name, with a key it does not know and without a layout:
    the key quoted as the language quotes and the missing key's description in the language too (no English in
    brackets); English word for word."""
    from generator.i18n import language

    folder = tmp_path / "c" / "mine"
    folder.mkdir(parents=True)
    (folder / "deck.yaml").write_text("id: mine\ncards: cards.csv\nbleed: lots\n", encoding="utf-8")
    (folder / "cards.csv").write_text("name,text\nA,b\n", encoding="utf-8")
    other = tmp_path / "c" / "other"
    other.mkdir()
    (other / "deck.yaml").write_text("id: other\nname: Other\ncards: cards.csv\n", encoding="utf-8")
    (other / "cards.csv").write_text("name,text\nA,b\n", encoding="utf-8")
    result = runner.invoke(app, ["content", "check", "--content", str(tmp_path / "c")]
                           + ([] if code == "en" else ["--lang", code]))
    said = result.output
    assert result.exit_code == 1, said
    if code == "en":
        assert "mine/deck.yaml:1: missing the key 'name' (the deck's name as printed on sheets)\n" in said, said
        assert "mine/deck.yaml:3: bleed: unknown key 'bleed'; allowed: id, name," in said, said
        assert "other/deck.yaml:1: missing the key 'layout' (a layout file in this folder, or a shipped layout id)" \
            in said, said
        return
    lang = language(code)
    missing = lang._("missing the key {key!r} ({doc})")
    for deck, key, doc in (("mine", "name", "the deck's name as printed on sheets"),
                           ("other", "layout", "a layout file in this folder, or a shipped layout id")):
        assert f"{deck}/deck.yaml:1: " + missing.replace("{key!r}", _in_quotes(code, key)).format(doc=lang._(doc)) \
            in said, said
    unknown = lang._("unknown key {key!r}; allowed: {keys}").split("{keys}")[0].replace("{key!r}", _in_quotes(code,
                                                                                                              "bleed"))
    assert "mine/deck.yaml:3: bleed: " + unknown in said, said


@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_a_value_of_the_wrong_kind_is_quoted_as_the_designers_language_quotes(tmp_path: Path, code: str) -> None:
    """content check --lang fr|de on a castle sheet whose towers are `four` and walls a long text: the value as the
    language quotes it, cut as English cuts it (it was `'four' (du texte)` inside a French sentence); file, line
    and key as written; English word for word."""
    from generator.i18n import language

    content = tmp_path / "content"
    shutil.copytree(content_dir(), content)
    sheet = content / "once-upon-a-castle" / "castle-sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("  towers: 4\n", "  towers: four\n")
                     .replace("  walls: 4\n", "  walls: " + "w" * 50 + "\n"), encoding="utf-8")
    result = runner.invoke(app, ["content", "check", "--content", str(content)] + ([] if code == "en" else
                                                                                  ["--lang", code]))
    said = result.output.replace("\u00a0", " ")
    assert result.exit_code == 1, said
    if code == "en":
        assert "castle-sheet.yaml:5: sheet.towers: expected a whole number, got 'four' (text)\n" in said, said
        assert f"castle-sheet.yaml:6: sheet.walls: expected a whole number, got '{'w' * 36}... (text)\n" in said, said
        return
    text = language(code)._("text")
    assert f"castle-sheet.yaml:5: sheet.towers: " in said and f"{_in_quotes(code, 'four')} ({text})\n" in said, said
    cut = _in_quotes(code, "w" * 50)[:37] + "..."
    assert f"castle-sheet.yaml:6: sheet.walls: " in said and f"{cut} ({text})\n" in said, said
    assert "'four'" not in said and "expected a" not in said, said


_WARNED_ART = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 660 450" width="660" height="450">
<defs><clipPath id="cut"><rect width="600" height="400"/><g><circle r="5"/></g></clipPath><hatch id="h"/></defs>
<rect width="660" height="450" fill="color(foo 1 0 0)"/>
<rect width="60" height="40" fill="url(#h)" clip-path="url(#cut)"/>
<rect width="6" height="4" systemLanguage="fr-CA"/>
</svg>
"""


@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_svg_art_warnings_and_a_damaged_png_are_said_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """A deck's SVG art with a colour no viewer reads, a group in a clip path, a fill of a hatch and a shape drawn for
    one language only (each left out, with a warning), then a PNG cut short: build --lang fr|de warns and refuses in
    the designer's language, the file, its lines and the values as written; English word for word."""
    from generator.i18n import language

    root = _skirmish(tmp_path / "c")
    art = root / "skirmish" / "art"
    (art / "frost.svg").write_text(_WARNED_ART, encoding="utf-8")
    args = ["build", "skirmish", "--content", str(root), "--out", str(tmp_path / "o"), "--format", "svg"] + (
        ["--lang", code] if code != "en" else [])
    built = runner.invoke(app, args)
    checked = runner.invoke(app, ["content", "check", str(root)] + (["--lang", code] if code != "en" else []))
    (art / "archer.png").write_bytes((art / "archer.png").read_bytes()[:300])
    refused = runner.invoke(app, args)
    assert (built.exit_code, refused.exit_code) == (0, 1), built.output + refused.output
    said = built.output
    if code == "en":
        for line in ("line 3: <rect> fill: color(foo 1 0 0): the colour space 'foo' is none CSS names (a98-rgb, "
                     "display-p3, prophoto-rgb, rec2020, srgb, srgb-linear, xyz, xyz-d50, xyz-d65): left out, as "
                     "browsers leave it out\n",
                     "line 2: the clip path 'cut' holds a <g>, which viewers leave out of a clip: it is left out here "
                     "too; a clip path holds shapes: put them in it ungrouped (Inkscape: ungroup them before Object "
                     "> Clip > Set)\n",
                     "line 4: its fill is a hatch (line 2), which browsers paint as nothing: it is left unpainted "
                     "here too; paint it with a pattern or a gradient, or give a colour after the url() for viewers "
                     "to fall back on\n",
                     "line 5: <rect> is drawn only for viewers of the languages 'fr-CA' (systemLanguage): donjon "
                     "leaves it out, in the PDF and the SVG alike, whatever the language of the machine or of the "
                     "viewer\n"):
            assert "/skirmish/art/frost.svg: " + line in said and "/skirmish/art/frost.svg: " + line in checked.output
        assert refused.output.strip().endswith("/skirmish/art/archer.png): it is a damaged PNG file (Truncated File "
                                               "Read)"), refused.output
        return
    lang = language(code)
    at = {n: lang._("line {line}: {message}").format(line=n, message="") for n in (2, 3, 4, 5)}
    # the file's colon as the rest of the line writes it: French spaced it as English did ("frost.svg: ligne 3 :")
    frost = "/skirmish/art/frost.svg" + {"fr": "\u00a0: ", "de": ": "}[code]
    assert frost + at[2] in checked.output, checked.output  # `content check` says the picture's warnings as well
    for n, message, quoted in ((3, "the colour space {space} is none CSS names", "foo"),
                               (2, "{name} holds a <{kind}>, {left_out}; a clip path holds shapes: put them in it "
                                   "ungrouped (Inkscape: ungroup them before Object > Clip > Set)", "cut"),
                               (4, "its {name} is {kind} (line {line}), which browsers paint as nothing: it is left "
                                   "unpainted here too; paint it with a pattern or a gradient, or give a colour "
                                   "after the url() for viewers to fall back on", None),
                               (5, "<{tag}> is drawn only for viewers of the languages {languages} (systemLanguage): "
                                   "donjon leaves it out, in the PDF and the SVG alike, whatever the language of "
                                   "the machine or of the viewer", "fr-CA")):
        told = [text for text in said.splitlines() if frost + at[n] in text]
        assert len(told) == 1 and _translated(code, message).search(told[0]), (n, said)
        assert quoted is None or _in_quotes(code, quoted) in told[0].replace("\u00a0", " "), told
    assert lang._("a hatch") in said and "left out" not in said and "'" not in said, said
    assert refused.output.strip().endswith(lang._("it is a damaged {what} file ({reason})").format(
        what="PNG", reason="Truncated File Read")), refused.output


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_file_outside_the_content_folder_in_the_designers_language(tmp_path: Path,
                                                                                        code: str) -> None:
    """A layout named outside the content folder, and a table that is a link leading outside it: refused in English
    under `--lang fr|de`; now in the language, the reference quoted as it quotes, the file, line and key named as
    written, exit 1; English as it was."""
    outside = _own_deck(tmp_path / "a", DECK.replace("layout: generic", "layout: ../../lay.yaml"))
    linked = _own_deck(tmp_path / "b", DECK)
    (tmp_path / "elsewhere.csv").write_text("name,text,count\nA,b,1\n", encoding="utf-8")
    (linked / "mine" / "cards.csv").unlink()
    (linked / "mine" / "cards.csv").symlink_to(tmp_path / "elsewhere.csv")
    result = runner.invoke(app, ["content", "check", str(outside), "--lang", code])
    line = result.output.splitlines()[0]
    assert result.exit_code == 1 and "mine/deck.yaml: layout: " in line, result.output
    assert _in_quotes(code, "../../lay.yaml") in line and _translated(
        code, "{ref} is outside the content folder ({top}/); donjon reads only files inside it").search(line), line
    assert "outside the content folder" in runner.invoke(app, ["content", "check", str(outside)]).output
    result = runner.invoke(app, ["content", "check", str(linked), "--lang", code])
    assert result.exit_code == 1 and "mine/deck.yaml:5: cards: " + _in_quotes(code, "cards.csv") in result.output, \
        result.output
    assert "is a link leading outside" not in result.output and _translated(
        code, "is a link leading outside the content folder ({top}/); donjon reads only files inside it: copy the "
        "file into it instead").search(result.output), result.output


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_text_box_without_its_style_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """A text box with no font, size and colour, and one naming a style the layout lacks: said in English under
    `--lang fr|de`; now in the language, the box and the style quoted as it quotes, the keys as written, exit 1."""
    layout = ("extends: generic\nboxes:\n  bare: {kind: text, x: 5mm, y: 20mm, width: 20mm, height: 5mm, text: x}\n"
              "  odd: {kind: text, x: 5mm, y: 30mm, width: 20mm, height: 5mm, style: nope, text: x}\n")
    root = _own_deck(tmp_path / "c", DECK.replace("layout: generic", "layout: lay.yaml"))
    (root / "mine" / "lay.yaml").write_text(layout, encoding="utf-8")
    result = runner.invoke(app, ["content", "check", str(root), "--lang", code])
    lines = result.output.splitlines()
    bare = next(line for line in lines if "mine/lay.yaml:3: boxes.bare: " in line)
    odd = next(line for line in lines if "mine/lay.yaml:4: boxes.odd.style: " in line)
    assert result.exit_code == 1 and _in_quotes(code, "bare") in bare and "font, size, colour" in bare, bare
    assert _translated(code, "the text of box {name} has no {keys}: give a {key} or the keys on the box").search(bare)
    assert _in_quotes(code, "nope") in odd and _translated(
        code, "names the style {style}, which the layout does not define (styles: {styles})").search(odd), odd
    english = runner.invoke(app, ["content", "check", str(root)]).output
    assert "the text of box 'bare' has no font, size, colour" in english and "names the style 'nope'" in english


def _layout_checked(tmp_path: Path, code: str, layout: str) -> tuple[Any, Callable[..., str], str]:
    """An own deck laid out by `layout` (mine/lay.yaml) checked with `--lang code`: the result; `said(at, message,
    plural=None, n=1)`, the line at `at` (line: key) asserted to say `message` in the language; and the English
    output of the same check."""
    root = _own_deck(tmp_path / "c", DECK.replace("layout: generic", "layout: lay.yaml"))
    (root / "mine" / "lay.yaml").write_text(layout, encoding="utf-8")
    result = runner.invoke(app, ["content", "check", str(root), "--lang", code])
    lines = result.output.splitlines()

    def said(at: str, message: str, plural: str | None = None, n: int = 1) -> str:
        line = next(line for line in lines if f"mine/lay.yaml:{at}: " in line)
        assert _translated(code, message, plural, n).search(line), line
        return line

    return result, said, runner.invoke(app, ["content", "check", str(root)]).output


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_shapes_paint_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """A shape with nothing to paint it, a stroke with no width, a dash of zeros, a hatch as wide as its spacing:
    said in English under `--lang fr|de`; now in the language, the box's kind and key as written, exit 1."""
    layout = ("extends: generic\nboxes:\n  bare: {kind: rect, x: 5mm, y: 20mm, width: 20mm, height: 5mm}\n"
              "  oval: {kind: ellipse, x: 5mm, y: 30mm, width: 20mm, height: 5mm, stroke: '#000000', dash: 0pt 0pt}\n"
              "  lined: {kind: rect, x: 5mm, y: 40mm, width: 20mm, height: 5mm,"
              " hatch: {colour: '#000000', spacing: 1pt, width: 2pt}}\n")
    result, said, english = _layout_checked(tmp_path, code, layout)
    assert result.exit_code == 1, result.output
    assert "rect" in said("3: boxes.bare", "a {kind} box needs a fill, a stroke or a hatch")
    assert "stroke_width" in said("4: boxes.oval", "a stroke needs a stroke_width (e.g. 0.5pt)")
    assert _in_quotes(code, "0pt 0pt") in said(
        "4: boxes.oval.dash", "{dash} is all zeros: give a dash and a gap longer than 0 (like {example}), or no dash")
    said("5: boxes.lined.hatch", "the lines' spacing must be larger than their width, or they make a solid fill")
    assert "a rect box needs a fill, a stroke or a hatch" in english and "'0pt 0pt' is all zeros" in english
    assert "a stroke needs a stroke_width" in english and "or they make a solid fill" in english


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_polygons_or_stars_points_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """A polygon with neither `sides` nor `points`, or both, a star given corners, a polygon given a number: said in
    English under `--lang fr|de`; now in the language, the keys as written, the example quoted as it quotes, exit 1."""
    box = "x: 5mm, width: 20mm, height: 5mm, fill: '#000000'"
    layout = (f"extends: generic\nboxes:\n  none: {{kind: polygon, y: 20mm, {box}}}\n"
              f"  both: {{kind: polygon, y: 30mm, sides: 6, points: '0 0, 100% 0, 50% 100%', {box}}}\n"
              f"  star: {{kind: star, y: 40mm, points: '0 0, 100% 0, 50% 100%', {box}}}\n"
              f"  few: {{kind: polygon, y: 50mm, points: 5, {box}}}\n")
    result, said, english = _layout_checked(tmp_path, code, layout)
    assert result.exit_code == 1, result.output
    corners = _in_quotes(code, "0 0, 100% 0, 50% 100%")
    assert corners in said("3: boxes.none",
                           "a polygon needs `sides` (a regular one) or `points` (its corners: {example})")
    said("4: boxes.both", "a polygon takes `sides` or `points`, not both")
    said("5: boxes.star.points", "a star's points are a number (5)")
    assert corners in said("6: boxes.few.points",
                           "a polygon's points are its corners ({example}); for a regular polygon give `sides`")
    assert "(its corners: '0 0, 100% 0, 50% 100%')" in english and "not both" in english
    assert "a star's points are a number (5)" in english and "its corners ('0 0, 100% 0, 50% 100%'); for" in english


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_paths_outline_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """A path drawing nothing, a viewbox of no size: said in English under `--lang fr|de`; now in the language,
    exit 1."""
    box = "x: 5mm, width: 20mm, height: 5mm, fill: '#000000'"
    layout = (f"extends: generic\nboxes:\n"
              f"  dot: {{kind: path, y: 30mm, d: 'M 1 1 L 1 1', {box}}}\n"
              f"  flat: {{kind: path, y: 40mm, d: 'M 0 0 L 10 10', viewbox: '0 0 0 0', {box}}}\n")
    result, said, english = _layout_checked(tmp_path, code, layout)
    assert result.exit_code == 1, result.output
    said("3: boxes.dot.d", "the path draws nothing (it has no extent)")
    said("4: boxes.flat.viewbox", "needs a width and a height above 0")
    assert "boxes.dot.d: the path draws nothing" in english
    assert "boxes.flat.viewbox: needs a width and a height above 0" in english


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_boxes_missing_or_stray_keys_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """A box without its place, a line given both its ends and a box, keys a box's kind does not take: said in English
    under `--lang fr|de`; now in the language, the kind and the keys as written, exit 1."""
    layout = ("extends: generic\nboxes:\n  outline: {kind: path, d: 'M 0 0 L 1 1', stroke: '#000000',"
              " stroke_width: 1pt}\n"
              "  oval: {kind: ellipse, x: 5mm, y: 30mm, fill: '#000000'}\n"
              "  rule: {kind: line, x1: 1mm, y1: 1mm, x2: 5mm, y2: 5mm, x: 1mm, y: 1mm, width: 2mm, height: 2mm,"
              " stroke: '#000000', stroke_width: 1pt}\n"
              "  block: {kind: rect, x: 5mm, y: 40mm, width: 20mm, height: 5mm, fill: '#000000', text: a}\n"
              "  block2: {kind: rect, x: 5mm, y: 50mm, width: 20mm, height: 5mm, fill: '#000000', text: a, sides: 3}\n")
    result, said, english = _layout_checked(tmp_path, code, layout)
    assert result.exit_code == 1, result.output
    line = said("3: boxes.outline", "a {kind} box needs {keys} (directly or by extends)")
    assert "path" in line and "x, y" in line
    line = said("4: boxes.oval", "an {kind} box needs {keys} (directly or by extends)")
    assert "ellipse" in line and "width, height" in line
    said("5: boxes.rule", "a line goes between x1, y1 and x2, y2, or across its box (x, y, width, height): not both")
    assert "rect" in said("6: boxes.block", "{keys} means nothing to a {kind} box",
                          "{keys} mean nothing to a {kind} box")
    assert "sides, text" in said("7: boxes.block2", "{keys} means nothing to a {kind} box",
                                 "{keys} mean nothing to a {kind} box", 2)
    assert "a path box needs x, y, width, height (directly or by extends)" in english
    assert "an ellipse box needs width, height (directly or by extends)" in english
    assert "across its box (x, y, width, height): not both" in english
    assert "boxes.block: text means nothing to a rect box" in english
    assert "boxes.block2: sides, text mean nothing to a rect box" in english


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_box_without_kind_or_inheritance_in_the_designers_language(tmp_path: Path,
                                                                                        code: str) -> None:
    """A box with no kind, a `+=` on a key the box inherits from nowhere: said in English under `--lang fr|de`; now
    in the language, the kinds and the key as written, `+=` and `-=` quoted as the language quotes, exit 1."""
    layout = ("extends: generic\nboxes:\n  nokind: {x: 1mm}\n"
              "  rel: {kind: rect, x: +=1mm, y: 1mm, width: 1mm, height: 1mm, fill: '#000000'}\n")
    result, said, english = _layout_checked(tmp_path, code, layout)
    assert result.exit_code == 1, result.output
    assert "(rect, circle, ellipse," in said("3: boxes.nokind", "has no kind ({kinds})")
    line = said("4: boxes.rel.x", "{add} and {take} add to an inherited value, but the box inherits no {key} (from the "
                "layout it extends or the box it extends)")
    assert _in_quotes(code, "+=") in line and _in_quotes(code, "-=") in line
    assert "boxes.nokind: has no kind (rect, circle, ellipse," in english
    assert "boxes.rel.x: '+=' and '-=' add to an inherited value, but the box inherits no x (from" in english


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_pictures_clip_outline_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """Outline keys a picture's clip does not take, or outline keys with no `clip` at all: said in English under
    `--lang fr|de`; now in the language, the keys and the clip's kind as written, exit 1."""
    box = "kind: image, x: 5mm, width: 20mm, height: 5mm, src: art.png"
    layout = (f"extends: generic\nboxes:\n  round: {{{box}, y: 20mm, clip: circle, sides: 6}}\n"
              f"  oval: {{{box}, y: 30mm, clip: ellipse, radius: 1mm, sides: 6}}\n"
              f"  bare: {{{box}, y: 40mm, radius: 2mm}}\n")
    result, said, english = _layout_checked(tmp_path, code, layout)
    assert result.exit_code == 1, result.output
    line = said("3: boxes.round", "{keys} means nothing to a picture clipped to a {clip}",
                "{keys} mean nothing to a picture clipped to a {clip}")
    assert "sides" in line and "circle" in line
    line = said("4: boxes.oval", "{keys} means nothing to a picture clipped to an {clip}",
                "{keys} mean nothing to a picture clipped to an {clip}", 2)
    assert "radius, sides" in line and "ellipse" in line
    assert "`clip`" in said("5: boxes.bare", "radius, sides, points, inner, angle, d and viewbox shape the outline a "
                                              "picture is clipped to: give `clip` (rect, circle, polygon...)")
    assert "boxes.round: sides means nothing to a picture clipped to a circle" in english
    assert "boxes.oval: radius, sides mean nothing to a picture clipped to an ellipse" in english
    assert ("boxes.bare: radius, sides, points, inner, angle, d and viewbox shape the outline a picture is clipped "
            "to: give `clip` (rect, circle, polygon...)") in english


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_layouts_extends_loop_or_missing_background_in_the_designers_language(
        tmp_path: Path, code: str) -> None:
    """A layout extending itself, two boxes extending each other, a layout with no background colour: said in English
    under `--lang fr|de`; now in the language, the files and boxes of the loop as written, exit code kept."""
    box = "kind: rect, x: 5mm, y: 5mm, width: 20mm, height: 5mm, fill: '#000000'"
    result, said, english = _layout_checked(tmp_path / "a", code, "extends: lay.yaml\nbackground: '#ffffff'\n")
    assert result.exit_code == 1, result.output
    assert said("1: extends", "layouts extend each other in a cycle: {cycle}").endswith("mine/lay.yaml")
    assert "mine/lay.yaml:1: extends: layouts extend each other in a cycle: " in english
    result, said, english = _layout_checked(
        tmp_path / "b", code, f"extends: generic\nboxes:\n  one: {{{box}, extends: two}}\n"
                              f"  two: {{{box}, extends: one}}\n")
    assert result.exit_code == 1, result.output
    assert "one -> two -> one" in said("4: boxes.two.extends", "boxes extend each other in a cycle: {cycle}")
    assert "boxes.two.extends: boxes extend each other in a cycle: one -> two -> one" in english
    result, said, english = _layout_checked(tmp_path / "c", code, f"boxes:\n  one: {{{box}}}\n")
    assert result.exit_code == 1, result.output
    line = next(line for line in result.output.splitlines() if "mine/lay.yaml: background: " in line)  # no line
    assert _translated(code, "the layout (or the one it extends) gives no background colour", None, 1).search(line)
    assert "lay.yaml: background: the layout (or the one it extends) gives no background colour" in english


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_missing_parent_box_or_path_data_in_the_designers_language(
        tmp_path: Path, code: str) -> None:
    """A box extending a box the layout lacks, a picture clipped to a path with no `d`: said in English under
    `--lang fr|de`; now in the language, the parent quoted as the language quotes, the boxes as written, exit 1."""
    box = "kind: rect, x: 5mm, y: 5mm, width: 20mm, height: 5mm, fill: '#000000'"
    result, said, english = _layout_checked(tmp_path / "a", code,
                                            f"extends: generic\nboxes:\n  one: {{{box}, extends: nobody}}\n")
    assert result.exit_code == 1, result.output
    line = said("3: boxes.one.extends", "extends {parent}, which is not a box of this layout (boxes: {boxes})")
    assert _in_quotes(code, "nobody") in line and "one" in line
    assert "boxes.one.extends: extends 'nobody', which is not a box of this layout (boxes: " in english
    result, said, english = _layout_checked(
        tmp_path / "b", code, "extends: generic\nboxes:\n  art: {kind: image, x: 5mm, y: 5mm, width: 20mm, height: 5mm,"
                              " src: art.png, clip: path}\n")
    assert result.exit_code == 1, result.output
    said("3: boxes.art", "a path needs `d`, its SVG path data")
    assert "boxes.art: a path needs `d`, its SVG path data" in english


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_wrong_path_data_and_a_decks_shape_in_the_designers_language(tmp_path: Path,
                                                                                         code: str) -> None:
    """A box's or a deck's `shape` path data that cannot be read (not starting with M, a command short of its
    numbers), a star's `inner` out of its range, a key a shape's kind does not take: said in English under `--lang
    fr|de`; now in the language, the file, line and key as written, what was written quoted as the language quotes,
    exit 1. English word for word."""
    result, said, english = _layout_checked(
        tmp_path / "a", code, "extends: generic\nboxes:\n  mark: {kind: path, x: 5mm, y: 5mm, width: 9mm, height: 9mm,"
                              " d: 'L 1 1 2 2', fill: '#000000'}\n"
                              "  arc: {kind: path, x: 5mm, y: 20mm, width: 9mm, height: 9mm,"
                              " d: 'M 0 0 A 5 5 0 2', fill: '#000000'}\n")
    assert result.exit_code == 1, result.output
    said("3: boxes.mark.d", "path data must start with M (move to)")
    line = said("4: boxes.arc.d", "{command} at character {at} needs {count} numbers: expected a flag, 0 or 1, at "
                                  "character {pos}")
    # A is the 7th character, the wrong flag 2 the 15th (they said 6 and 14, the spaces before them)
    assert re.findall(r"\d+", line.split("boxes.arc.d: ")[1]) == ["7", "7", "0", "1", "15"], line
    assert "boxes.mark.d: path data must start with M (move to)" in english
    assert "boxes.arc.d: A at character 7 needs 7 numbers: expected a flag, 0 or 1, at character 15" in english
    for name, shape, key, message, words in (
            ("cut", "{kind: path, d: 'M 0 0 Z 1'}", "shape.d", "unexpected {text} at character {at} (after Z)",
             "unexpected '1' at character 9 (after Z)"),
            ("star", "{kind: star, inner: 120%}", "shape.inner", "{value} is not between {low} and {high}",
             "'120%' is not between 5% and 95%"),
            ("disc", "{kind: circle, sides: 6}", "shape.sides", "means nothing to a {kind} (only to {kinds})",
             "means nothing to a circle (only to polygon or hexagon)")):
        root = _own_deck(tmp_path / name, DECK + f"shape: {shape}\n")
        lines = runner.invoke(app, ["content", "check", str(root), "--lang", code]).output.splitlines()
        line = next(line for line in lines if f"mine/deck.yaml:7: {key}: " in line)
        assert _translated(code, message).search(line), line
        if "'" in words:
            assert _in_quotes(code, words.split("'")[1]) in line, line
        assert f"mine/deck.yaml:7: {key}: {words}" in runner.invoke(app, ["content", "check", str(root)]).output


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_card_file_meeting_the_decks_back_in_the_designers_language(tmp_path: Path,
                                                                                          code: str) -> None:
    """A card whose id gives the file of the deck's back (back.svg, back.png): said in English under `--lang fr|de`;
    now in the language, the card and its id quoted as the language quotes, its row named, and still one problem for
    the card (it meets the back in SVG and PNG alike: the two were told apart by the English words). English word
    for word."""
    root = _own_deck(tmp_path / "c", DECK.replace("count_column", "id_column: id\ncount_column"),
                     "id,name,text,count\nback,Back,b,1\nb,B,c,2\n")
    result = runner.invoke(app, ["content", "check", str(root), "--lang", code])
    assert result.exit_code == 1, result.output
    found = [line for line in result.output.splitlines() if "mine/cards.csv:" in line]
    assert len(found) == 1 and "mine/cards.csv:2: mine" in found[0], found
    assert _translated(code, "{deck}: card {card} (id {id}) would be written as {file}, the file of {other}; give the "
                             "card another id").search(found[0]), found
    assert _in_quotes(code, "Back") in found[0] and _in_quotes(code, "back") in found[0] and "back.svg" in found[0]
    from generator.i18n import language

    assert language(code)._("the deck's back") in found[0], found
    assert _translated(code, "{n} problem found.", "{n} problems found.", 1).search(result.output), result.output
    english = runner.invoke(app, ["content", "check", str(root)]).output.splitlines()
    assert [line.split("/c/", 1)[1] for line in english if "cards.csv:" in line] == [
        "mine/cards.csv:2: mine: card 'Back' (id 'back') would be written as back.svg, the file of the deck's back; "
        "give the card another id"], english


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_card_tables_rows_and_header_in_the_designers_language(tmp_path: Path,
                                                                                     code: str) -> None:
    """A cards.csv row short of a value, and a header split by another delimiter than the deck's: said in English
    under `--lang fr|de`; now in the language, the table and its line named, what was written quoted as the language
    quotes, the counts in the language's plural. English word for word."""
    from generator.i18n import language

    lang = language(code)
    short = _own_deck(tmp_path / "a", DECK, "name,text,count\nA,b,1\nB,c\n")
    split = _own_deck(tmp_path / "b", DECK, "name;text;count\nA;b;1\n")
    said = runner.invoke(app, ["content", "check", str(short), "--lang", code])
    assert said.exit_code == 1, said.output
    line = next(line for line in said.output.splitlines() if "mine/cards.csv:3: " in line)
    assert _translated(code, "this row has {values} but the header names {columns}{hint}").search(line), line
    assert lang.nformat("{n} value", "{n} values", 2) in line and lang.nformat("{n} column", "{n} columns", 3) in line
    said = runner.invoke(app, ["content", "check", str(split), "--lang", code])
    assert said.exit_code == 1, said.output
    line = next(line for line in said.output.splitlines() if "mine/cards.csv:1: " in line)
    assert _translated(code, "the header row is a single column {header}{hint}").search(line), line
    assert _translated(code, " (the header looks split by {delimiter}: set `{key}` in deck.yaml)").search(line), line
    assert _in_quotes(code, "name;text;count") in line and _in_quotes(code, ";") in line, line
    assert "mine/cards.csv:3: this row has 2 values but the header names 3 columns" in runner.invoke(
        app, ["content", "check", str(short)]).output
    assert ("mine/cards.csv:1: the header row is a single column 'name;text;count' (the header looks split by ';': "
            "set `delimiter: ;` in deck.yaml)") in runner.invoke(app, ["content", "check", str(split)]).output


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_decks_table_file_and_translation_columns_in_the_designers_language(tmp_path: Path,
                                                                                                 code: str) -> None:
    """A deck whose `cards:` is a spreadsheet donjon cannot read (.xls), and a table column translating a column the
    table lacks (Title@fr): said in English under `--lang fr|de`; now in the language, the file, key and column as
    written, the names quoted as the language quotes. English word for word."""
    xls = _own_deck(tmp_path / "a", DECK.replace("cards.csv", "cards.xls"))
    (xls / "mine" / "cards.xls").write_bytes(b"\xd0\xcf\x11\xe0")
    stray = _own_deck(tmp_path / "b", DECK, "name,text,count,Title@de\nA,b,1,X\n")
    said = runner.invoke(app, ["content", "check", str(xls), "--lang", code])
    assert said.exit_code == 1, said.output
    line = next(line for line in said.output.splitlines() if "mine/deck.yaml:5: " in line)
    assert _translated(code, "{table} is a spreadsheet donjon cannot read; save it as .xlsx (or .csv)").search(
        line) and "mine/deck.yaml:5: cards: " in line and _in_quotes(code, "cards.xls") in line, line
    said = runner.invoke(app, ["content", "check", str(stray), "--lang", code])
    assert said.exit_code == 1, said.output
    line = next(line for line in said.output.splitlines() if "mine/cards.csv:1: Title@de: " in line)
    assert _translated(code, "translates the column {column}, which the table does not have (its columns: "
                             "{columns})").search(line) and _in_quotes(code, "Title") in line, line
    assert "mine/deck.yaml:5: cards: 'cards.xls' is a spreadsheet donjon cannot read; save it as .xlsx (or .csv)" in \
        runner.invoke(app, ["content", "check", str(xls)]).output
    assert ("mine/cards.csv:1: Title@de: translates the column 'Title', which the table does not have (its columns: "
            "name, text, count, Title@de)") in runner.invoke(app, ["content", "check", str(stray)]).output


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_decks_icons_and_card_size_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """A deck's `icons:` naming a file rather than a folder, and a card side out of range: said in English under
    `--lang fr|de`; now in the language, the file, line and key as written, the name quoted as the language quotes,
    the length as the language writes numbers. English word for word."""
    wide = _own_deck(tmp_path / "a", DECK.replace("card_size: poker", "card_size: {width: 5000.5mm, height: 88mm}"))
    root = _own_deck(tmp_path / "b", DECK + "icons: notes.txt\n")
    (root / "mine" / "notes.txt").write_text("x", encoding="utf-8")
    lines = []
    for folder in (root, wide):
        said = runner.invoke(app, ["content", "check", str(folder), "--lang", code])
        assert said.exit_code == 1, said.output
        lines += said.output.splitlines()
    icons = next(line for line in lines if "mine/deck.yaml:7: icons: " in line)
    assert _translated(code, "{ref} is not a folder (give a folder of .svg and .png files, or icon files by name)"
                       ).search(icons) and _in_quotes(code, "notes.txt") in icons, icons
    size = next(line for line in lines if "mine/deck.yaml:3: card_size.width: " in line)
    assert _translated(code, "is {length} mm; a card side must be between {low} and {high} mm").search(size), size
    assert "5000,5" in size.replace("\u202f", "").replace(".", ""), size
    english = runner.invoke(app, ["content", "check", str(root)]).output
    assert "mine/deck.yaml:7: icons: 'notes.txt' is not a folder (give a folder of .svg and .png files, or icon " \
        "files by name)" in english, english
    english = runner.invoke(app, ["content", "check", str(wide)]).output
    assert "mine/deck.yaml:3: card_size.width: is 5000.5 mm; a card side must be between " in english, english


@pytest.mark.parametrize("code", ["fr", "de"])
def test_content_check_says_a_repeated_id_and_a_name_naming_two_entries_in_the_language(tmp_path: Path,
                                                                                         code: str) -> None:
    """A game catalog repeating an event id, and a colour named as another one is: `content check --lang fr|de`
    says each whole in the language ("repeats the event id", "also names the colour"), where the kind of entry was
    an English word pasted into the sentence; English as it was."""
    root = tmp_path / "c"
    shutil.copytree(content_dir(), root)
    events = root / "guedelon/events.yaml"
    events.write_text(events.read_text(encoding="utf-8").replace("    id: trainee\n", "    id: great-shape\n"),
                      encoding="utf-8")
    colours = root / "guildhall/components.yaml"
    colours.write_text(colours.read_text(encoding="utf-8").replace("{id: blue, name: Blue,", "{id: blue, name: Red,"),
                       encoding="utf-8")
    english = donjon("content", "check", str(root))
    assert english.returncode == 1
    assert "repeats the event id 'great-shape' (first at line " in english.stderr, english.stderr
    assert "the name 'Red' also names the colour 'red'" in english.stderr, english.stderr
    said = donjon("content", "check", str(root), "--lang", code)
    assert said.returncode == 1, said.stderr
    repeated = next(line for line in said.stderr.splitlines() if "guedelon/events.yaml:" in line)
    assert _translated(code, "repeats the event id {value}{at}").search(repeated), repeated
    assert _in_quotes(code, "great-shape") in repeated and "first at line" not in repeated, repeated
    clash = next(line for line in said.stderr.splitlines() if "guildhall/components.yaml:" in line)
    assert _translated(code, "the name {name} also names the colour {first}").search(clash), clash
    message = clash.split("]: ", 1)[1]
    assert _in_quotes(code, "Red") in message and _in_quotes(code, "red") in message and "colour" not in message, clash
