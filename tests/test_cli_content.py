"""`donjon content ...` and the command line's general behaviour, through typer's runner and as a subprocess."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

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
