"""`donjon score`: through typer's test runner, and as the installed command in a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from tests.conftest import REPO
from generator.cli import app

EXAMPLES = REPO / "content" / "examples"
CASES = REPO / "tests" / "scoring" / "cases"
GUILDHALL = str(EXAMPLES / "guildhall.yaml")
CASTLE = str(EXAMPLES / "once-upon-a-castle.yaml")
GUEDELON = str(EXAMPLES / "guedelon.yaml")
VIOLATING = str(CASES / "guildhall" / "rule3-duplicate-colour.yaml")
IN_PROGRESS = str(CASES / "guildhall" / "in-progress.yaml")
UNREADABLE = str(CASES / "guildhall" / "format-unknown-names.yaml")

runner = CliRunner()


def test_table_for_one_file() -> None:
    result = runner.invoke(app, ["score", GUILDHALL])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # what players read: the set and the professions by their names, not donjon's ids
    assert lines[0].endswith("guildhall.yaml: Guildhall (VP cards: Job Faire; professions: Bricklayer, Hunter, "
                             "Peddler, Robber, Scholar, Tax Collector; players: 3)")
    assert lines[1].split() == ["Ana", "Ben", "Cleo"]
    assert lines[2].split() == ["vp_cards", "19", "14", "13"]
    assert lines[5].split() == ["score", "21", "17", "17"]
    assert lines[6].split() == ["place", "1", "2", "3"]
    assert lines[-1] == "winner: Ana, with 21 VP"
    assert result.stderr == ""


def test_guildhall_header_names_professions_in_the_files_language(tmp_path: Path) -> None:
    """A file written with the German names of the professions gets its header in German names: the language
    the file names things in is the one its writer reads."""
    text = (EXAMPLES / "guildhall.yaml").read_text(encoding="utf-8")
    for english, german in (("bricklayer:", "Maurer:"), ("hunter:", "Jäger:"), ("peddler:", "Hausierer:"),
                            ("robber:", "Räuber:"), ("scholar:", "Gelehrter:"), ("Tax Collector:", "Steuereintreiber:")):
        text = text.replace(english, german)
    german_file = tmp_path / "zunft.yaml"
    german_file.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["score", str(german_file)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].endswith("(VP cards: Job Faire; professions: Maurer, Jäger, Hausierer, "
                                                  "Räuber, Gelehrter, Steuereintreiber; players: 3)")


def test_table_lists_each_violation_on_its_own_line() -> None:
    result = runner.invoke(app, ["score", str(CASES / "guildhall" / "many-violations.yaml")])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[1] == "7 rules broken: not scored"
    assert lines[9].startswith("2 warnings: checks on values no rulebook states")
    assert len(lines) == 2 + 7 + 1 + 2
    assert lines[2].endswith("many-violations.yaml:17: players[1].name: 'Ana' is also the name of players[0]; "
                             "names must be unique [end-states.md: each player is named, once]")


def test_each_broken_rule_names_its_rulebook_section() -> None:
    """A broken rule says where the rule comes from, so that a player can open the rulebook at it: its message ends
    with the section, in the table and in the JSON (whose violations keep the spec's `where` and `message`)."""
    table = runner.invoke(app, ["score", VIOLATING])
    assert table.exit_code == 1
    assert table.stdout.splitlines()[2].endswith("a guildhall never holds two cards of the same profession and "
                                                 "colour [002/003 Duplicate Dos and Don'ts]")
    as_json = runner.invoke(app, ["score", "--json", str(CASES / "castle" / "rule3-sun-and-cloud.yaml")])
    assert as_json.exit_code == 1
    violations = json.loads(as_json.stdout)["violations"]
    assert [v["message"].rsplit(" [", 1)[1] for v in violations] == ["004 Towers]", "004 End of the game]"]
    assert all(set(v) == {"where", "message"} for v in violations)


def test_game_in_progress_shows_standings_and_exits_1() -> None:
    result = runner.invoke(app, ["score", IN_PROGRESS])
    assert result.exit_code == 1
    assert "game in progress: nobody has 20 VP yet" in result.stdout
    assert "place" in result.stdout


def test_json_one_object_per_file_in_order() -> None:
    result = runner.invoke(app, ["score", "--json", GUEDELON, GUILDHALL, CASTLE])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert [json.loads(line)["game"] for line in lines] == ["guedelon", "guildhall", "once-upon-a-castle"]
    assert [json.loads(line)["file"] for line in lines] == [GUEDELON, GUILDHALL, CASTLE]
    assert all(list(json.loads(line))[:2] == ["file", "game"] for line in lines)


@pytest.mark.parametrize(("files", "code"), [
    ([GUILDHALL, CASTLE], 0),
    ([GUILDHALL, VIOLATING], 1),
    ([VIOLATING, GUILDHALL], 1),
    ([IN_PROGRESS, GUILDHALL], 1),
    ([GUILDHALL, UNREADABLE, VIOLATING], 2),
    ([UNREADABLE], 2),
])
def test_exit_code_is_the_highest(files: list[str], code: int) -> None:
    assert runner.invoke(app, ["score", "--json", *files]).exit_code == code
    assert runner.invoke(app, ["score", *files]).exit_code == code


def test_an_unreadable_file_goes_to_stderr_and_the_others_are_scored() -> None:
    result = runner.invoke(app, ["score", "--json", GUILDHALL, UNREADABLE, CASTLE])
    assert result.exit_code == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    # every line names its file, the unreadable one included (end-states.md), so lines match files
    assert [line["file"] for line in lines] == [GUILDHALL, UNREADABLE, CASTLE]
    assert [line.get("game") for line in lines] == ["guildhall", None, "once-upon-a-castle"]
    assert list(lines[1]) == ["file", "error"]
    assert "cannot be read as a Guildhall end state (6 problems)" in lines[1]["error"]
    assert result.stderr.startswith("error: ")
    assert "format-unknown-names.yaml: cannot be read as a Guildhall end state (6 problems)" in result.stderr


def test_one_file_that_cannot_be_read_gives_its_json_object_too() -> None:
    """`--json` prints one JSON object on standard output with the same exit codes (end-states.md): a file alone
    that cannot be read gets the object several files give it, naming it, the message on stderr as well (stdout was
    empty: a program reading it found nothing to parse)."""
    result = runner.invoke(app, ["score", "--json", UNREADABLE])
    assert result.exit_code == 2
    said = json.loads(result.stdout)
    assert list(said) == ["file", "error"] and said["file"] == UNREADABLE
    assert "cannot be read as a Guildhall end state (6 problems)" in said["error"]
    assert "cannot be read as a Guildhall end state (6 problems)" in result.stderr


def test_one_file_gives_the_object_of_the_spec_without_a_file_key() -> None:
    result = runner.invoke(app, ["score", "--json", GUILDHALL])
    assert result.exit_code == 0
    assert list(json.loads(result.stdout))[0] == "game"


def test_missing_file_and_content_folder() -> None:
    result = runner.invoke(app, ["score", "no-such-file.yaml"])
    assert result.exit_code == 2 and "no-such-file.yaml: no such file" in result.stderr
    result = runner.invoke(app, ["score", GUILDHALL, "--content", "no-such-folder"])
    assert result.exit_code == 2 and "--content no-such-folder: no such folder" in result.stderr


def test_content_option_changes_the_catalog(tmp_path: Path) -> None:
    root = tmp_path / "content"
    shutil.copytree(REPO / "content", root)
    sheet = root / "once-upon-a-castle" / "castle-sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("values: [2, 5]", "values: [5]"), encoding="utf-8")
    assert runner.invoke(app, ["score", CASTLE]).exit_code == 0
    # the tower values rest on a review (M): a tower outside them warns, and the game is still scored
    result = runner.invoke(app, ["score", CASTLE, "--content", str(root), "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert [w["where"] for w in data["warnings"]] == ["sheets[0].towers[1]", "sheets[1].towers[0]",
                                                      "sheets[1].towers[1]"]
    assert {w["confidence"] for w in data["warnings"]} == {"M"}
    # --strict makes them violations
    result = runner.invoke(app, ["score", CASTLE, "--content", str(root), "--json", "--strict"])
    assert result.exit_code == 1
    wheres = [v["where"] for v in json.loads(result.stdout)["violations"]]
    assert wheres == ["sheets[0].towers[1]", "sheets[1].towers[0]", "sheets[1].towers[1]"]


def test_no_files_is_a_usage_error() -> None:
    result = runner.invoke(app, ["score"])
    assert result.exit_code == 2


def test_help_mentions_exit_codes() -> None:
    result = runner.invoke(app, ["score", "--help"])
    assert result.exit_code == 0 and "Exit codes" in result.stdout and "--json" in result.stdout


# --- the installed command ------------------------------------------------------------------------------------------

def donjon() -> str:
    found = Path(sys.executable).parent / "donjon"
    if not found.exists():
        which = shutil.which("donjon")
        if which is None:
            pytest.skip("the donjon command is not installed")
        return which
    return str(found)


def run(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run([donjon(), "score", *args], capture_output=True, text=True, cwd=cwd, timeout=60)


def test_installed_command_scores_the_examples() -> None:
    done = run("content/examples/guildhall.yaml", "content/examples/once-upon-a-castle.yaml",
               "content/examples/guedelon.yaml")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("content/examples/guildhall.yaml: Guildhall")
    assert "winner: Ana, with 54 points" in done.stdout
    assert "won: the castle was finished in round 17 (year 1244), 1 round to spare" in done.stdout


def test_installed_command_json_lines_and_highest_exit_code() -> None:
    done = run("--json", GUILDHALL, VIOLATING, IN_PROGRESS)
    assert done.returncode == 1 and done.stderr == ""
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["valid"], r["finished"]) for r in results] == [(True, True), (False, True), (True, False)]


def test_installed_command_bad_input_has_no_traceback(tmp_path: Path) -> None:
    junk = tmp_path / "junk.yaml"
    junk.write_bytes(bytes(range(256)) * 4)
    done = run("--json", str(junk), GUILDHALL)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "junk.yaml" in done.stderr
    junk_line, scored = (json.loads(line) for line in done.stdout.splitlines())
    assert junk_line["file"] == str(junk) and "junk.yaml" in junk_line["error"]
    assert scored["file"] == GUILDHALL and scored["winner"] == "Ana"


# --- warnings, --strict, and what reaches the terminal --------------------------------------------------------------

W1_VALUES = str(CASES / "castle" / "w1-values.yaml")


def test_warnings_are_listed_under_the_table_and_strict_makes_them_violations() -> None:
    result = runner.invoke(app, ["score", W1_VALUES])
    assert result.exit_code == 0
    out = result.stdout.splitlines()
    # three tower and flag values (M) and the end Cloud on no sheet (L)
    assert out[-5].startswith("4 warnings: checks on values no rulebook states")
    assert all("[M: Julie's Game School" in line for line in out[-4:-1])
    assert "sheets: no sheet has the end Cloud" in out[-1] and "[L: 004 End of the game" in out[-1]
    assert "residents     1*" in result.stdout and "* residents: computed from a value of confidence house" in result.stdout
    strict = runner.invoke(app, ["score", "--strict", "--json", W1_VALUES])
    assert strict.exit_code == 1
    data = json.loads(strict.stdout)
    assert data["warnings"] == [] and len(data["violations"]) == 4 and not data["valid"]
    assert "a violation under --strict" in data["violations"][0]["message"]


def test_help_explains_strict() -> None:
    result = runner.invoke(app, ["score", "--help"])
    assert "--strict" in result.stdout and "warning" in result.stdout


#: ESC (an escape sequence that turns the terminal red), BEL, a carriage return, DEL, the one-byte C1 escape
#: sequence and a right-to-left override.
NASTY = "Ana\x1b[31m\x07\r\x7f\x9b\u202e"


def nasty_castle(tmp_path: Path, suffix: str = ".yaml") -> Path:
    state = {"game": "once-upon-a-castle", "version": "great-architect", "sheets": [
        {"player": NASTY, "donjon_floors": 0, "towers": [3], "walls": [], "residents": 0, "guests": []},
        {"player": NASTY, "donjon_floors": 0, "towers": [], "walls": [], "residents": 0, "guests": []}]}
    path = tmp_path / f"bell\x07{suffix}"
    path.write_text(json.dumps(state), encoding="utf-8")
    return path


def raw_controls(text: str) -> list[str]:
    return [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f or c == "\u202e"]


def test_control_characters_never_reach_the_terminal_raw(tmp_path: Path) -> None:
    path = nasty_castle(tmp_path, ".json")
    table = runner.invoke(app, ["score", str(path)])
    assert table.exit_code == 1  # the same player twice
    assert raw_controls(table.stdout) == [] and "\\x1b[31m\\x07\\r\\x7f\\x9b\\u202e" in table.stdout
    as_json = runner.invoke(app, ["score", "--json", str(path)])
    assert raw_controls(as_json.stdout) == []
    assert json.loads(as_json.stdout)["violations"][0]["message"].startswith(repr(NASTY))
    scored = tmp_path / "scored.yaml"
    scored.write_text(json.dumps({"game": "once-upon-a-castle", "version": "great-architect", "sheets": [
        {"player": NASTY, "donjon_floors": 0, "towers": [3], "walls": [], "residents": 0, "guests": []}]}),
        encoding="utf-8")
    for args in (["score", str(scored)], ["score", "--json", str(scored)], ["score", "--json", str(scored), str(path)]):
        done = runner.invoke(app, args)
        assert raw_controls(done.stdout) == [], args
        for line in done.stdout.splitlines():
            if line.startswith("{"):
                names = [p["name"] for p in json.loads(line)["players"]]
                assert names in ([], [NASTY])  # JSON keeps the name exact, escaped as \u001b
    # an unreadable file whose name holds BEL: the error names it escaped
    broken = tmp_path / "bad\x1b]0;title\x07.yaml"
    broken.write_text("game: [", encoding="utf-8")
    done = runner.invoke(app, ["score", str(broken)])
    assert done.exit_code == 2 and raw_controls(done.stderr) == [] and "bad\\x1b]0;title\\x07.yaml" in done.stderr
    done = runner.invoke(app, ["score", "--json", str(broken), str(scored)])
    assert raw_controls(done.stdout) == [] and raw_controls(done.stderr) == []
    assert json.loads(done.stdout.splitlines()[0])["file"] == str(broken)


def test_duplicate_json_keys_are_refused_with_their_line(tmp_path: Path) -> None:
    path = tmp_path / "twice.json"
    path.write_text('{"game": "guedelon",\n "players": 2, "events": "easy",\n "rounds": 5, "rounds": 17,\n'
                    ' "built": "all"}', encoding="utf-8")
    done = runner.invoke(app, ["score", str(path)])
    assert done.exit_code == 2
    assert "twice.json:3: holds the key 'rounds' twice in one object" in done.stderr


@pytest.mark.parametrize(("game", "empty"), [("guildhall", '""'), ("castle", '""'), ("castle", '"  "')])
def test_an_empty_players_name_is_the_same_broken_rule_in_every_game(game: str, empty: str, tmp_path: Path) -> None:
    """A castle sheet's empty `player` was a format error (exit 2, "must not be empty"), a Guildhall player's empty
    `name` a broken rule (exit 1): end-states.md makes it Guildhall's rule 1 ("names unique and non-empty") and
    says names are unique in every format. Now both are the format's rule, exit 1, at the name's line."""
    source = Path(CASTLE if game == "castle" else GUILDHALL).read_text(encoding="utf-8")
    key = "player" if game == "castle" else "name"
    first = next(line for line in source.splitlines() if line.lstrip(" -").startswith(f"{key}:"))
    path = tmp_path / "game.yaml"
    path.write_text(source.replace(first, first.split(":")[0] + f": {empty}", 1), encoding="utf-8")
    line = source.splitlines().index(first) + 1
    result = runner.invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 1, result.output
    where = "sheets[0].player" if game == "castle" else "players[0].name"
    # (Guildhall's example names Ana in `ended_by` too: that breaks rule 9 besides)
    (violation,) = [v for v in json.loads(result.stdout)["violations"] if v["where"] == where]
    assert violation["message"].startswith("is empty; every player needs a name")
    table = runner.invoke(app, ["score", str(path)])
    assert f"game.yaml:{line}: {where}: is empty" in table.stdout


def test_two_suns_are_refused_naming_both_players() -> None:
    """Two players who complete their 4th tower in the same turn both write the Sun: 004 gives it to "the first
    player to build 4 Towers" and end-states.md rule 4 allows one per game, so the file is refused (exit 1). The
    message named only the first sheet's player, at the second's place; it now names both, and says the rulebook
    leaves a same-turn finish to the table."""
    result = runner.invoke(app, ["score", str(CASES / "castle" / "rule4-one-sun-one-cloud.yaml"), "--json"])
    assert result.exit_code == 1
    said = {v["where"]: v["message"] for v in json.loads(result.stdout)["violations"]}
    assert said["sheets[1].sun"].startswith("Ben and Ana (sheets[0]) both drew the Sun; a game has one")
    assert "same turn" in said["sheets[1].sun"] and said["sheets[1].sun"].endswith("[004 Towers]")
    assert said["sheets[1].cloud"].startswith("Ben and Ana (sheets[0]) both drew the end Cloud")


def test_an_end_state_is_read_from_standard_input() -> None:
    """`donjon score -` said "-: no such file": an end state from a pipe (a tool's JSON, a YAML made by a script)
    had to be written to a file first. Now `-` is standard input: YAML, or JSON when it starts with `{`, scored as
    a file is, its messages naming `<stdin>` and the line; given with files, its JSON line's "file" is "-"."""
    piped = Path(CASES / "castle" / "rule4-one-sun-one-cloud.yaml").read_text(encoding="utf-8")
    table = runner.invoke(app, ["score", "-"], input=piped)
    assert table.exit_code == 1 and "<stdin>:19: sheets[1].sun: Ben and Ana" in table.stdout, table.output
    state = json.dumps({"game": "guedelon", "players": 2, "events": "easy", "rounds": 12, "built": "all"})
    assert runner.invoke(app, ["score", "-", "--json"], input=state).exit_code == 0
    # a YAML flow mapping starts as JSON does: read as YAML (it was refused as JSON)
    flow = runner.invoke(app, ["score", "-"], input="{game: guedelon, players: 2, events: easy, rounds: 9, built: all}")
    assert flow.exit_code == 0, flow.output
    wrong = '{"game": "guedelon",\n "players": 2, "events": "easy",\n "rounds": "x", "built": "all"}\n'
    bad = runner.invoke(app, ["score", "-"], input=wrong)
    assert bad.exit_code == 2 and bad.stderr.startswith("error: <stdin>:3: rounds: expected a whole number")
    several = runner.invoke(app, ["score", GUILDHALL, "-", "--json"], input="game: guedelon\nplayers: [\n")
    assert several.exit_code == 2
    assert [json.loads(line)["file"] for line in several.stdout.splitlines()] == [GUILDHALL, "-"]
    assert "<stdin>:3: is not valid YAML" in json.loads(several.stdout.splitlines()[1])["error"]
    broken = runner.invoke(app, ["score", "-"], input='{"game": "guedelon",\n "players": 2,,\n}')
    assert broken.exit_code == 2 and broken.stderr.startswith("error: <stdin>:2: is not valid JSON")
    twice = runner.invoke(app, ["score", "-", "-"], input=piped)
    assert twice.exit_code == 2 and "standard input is read once" in twice.stderr
    pdf = runner.invoke(app, ["score", "-"], input=b"%PDF-1.7\n")
    assert pdf.exit_code == 2 and "give those as files" in pdf.stderr


@pytest.mark.parametrize(("guests", "said"), [
    # German names: the misspelled one is answered in German, whichever comes first
    ("[Prinzesin, Königin, Narr]", "'Prinzesin' (did you mean 'Prinzessin'?); expected one of Architekt, Bohemien, "
                                   "Holzfäller, Bäuerin, Hund Dagobert,"),
    ("[Königin, Narr, Prinzesin]", "'Prinzesin' (did you mean 'Prinzessin'?); expected one of Architekt, Bohemien,"),
    # a mixed list: Prince (English and French) and Troll (every language) tell nothing, Königin tells German
    ("[Prince, Troll, Königin, Prinzesin]", "'Prinzesin' (did you mean 'Prinzessin'?); expected one of Architekt,"),
    # French names
    ("[Princese, Reine]", "'Princese' (did you mean 'Princesse'?); expected one of Architecte, Bohémienne,"),
    # one name alone: the language of the name it is closest to
    ("[Prinzesin]", "'Prinzesin' (did you mean 'Prinzessin'?); expected one of Architekt,"),
    # names as the format writes them (ids) and in English: said as before
    ("[Quen, jester]", "'Quen' (did you mean 'queen'?); expected one of architect, bohemian, logger,"),
])
def test_a_name_refused_is_answered_in_the_files_language(guests: str, said: str, tmp_path: Path) -> None:
    """A castle file naming its guests in German with one misspelled was refused with "did you mean 'princess'?;
    expected one of architect, bohemian, ...": ids in English to a player who wrote German names. The suggestion and
    the list are in the language the file's names are written in (the spec has no key saying a file's language: its
    names tell it), exit 2 as before."""
    castle = (EXAMPLES / "once-upon-a-castle.yaml").read_text(encoding="utf-8")
    path = tmp_path / "burg.yaml"
    path.write_text(castle.replace("[queen, jester, shepherdess, king]", guests), encoding="utf-8")
    result = runner.invoke(app, ["score", str(path)])
    assert result.exit_code == 2
    assert "burg.yaml:19: sheets[0].guests[" in result.stderr and f"]: unknown guest {said}" in result.stderr, \
        result.stderr


def test_a_profession_not_in_play_is_said_as_the_player_wrote_it(tmp_path: Path) -> None:
    """A German table's `Händler` under Job Faire was refused as "trader is not in play in this game (in play:
    bricklayer, hunter, ...)": the id, not the word written, and ids for the professions in play. The rule is said
    with the word written, the set it comes from and the professions in play as the file's language names them, at
    the key's own line; a file written in ids is answered in ids. Exit 1, the rule's where unchanged."""
    guildhall = (EXAMPLES / "guildhall.yaml").read_text(encoding="utf-8")
    german = guildhall.replace("bricklayer: [red, blue]", "Maurer: [rot, blau]\n      Händler: [gelb]")
    path = tmp_path / "gilde.yaml"
    path.write_text(german, encoding="utf-8")
    result = runner.invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 1, result.output
    (violation,) = json.loads(result.stdout)["violations"]
    assert violation["where"] == "players[0].guildhall.trader"
    assert violation["message"] == ("Händler (Old World Economy) is not in play in this game (in play: Maurer, Jäger, "
                                    "Hausierer, Räuber, Gelehrter, Steuereintreiber) [003 Guildhall the First]")
    line = german.splitlines().index("      Händler: [gelb]") + 1
    assert f"gilde.yaml:{line}: players[0].guildhall.trader: Händler" in runner.invoke(app, ["score", str(path)]).stdout
    # a file in ids is answered in ids, one in names by names (the id written among them said as a name)
    in_ids = guildhall.replace("Tax Collector:", "tax-collector:")
    for text, said in ((in_ids, "trader (old-world-economy) is not in play in this game (in play: bricklayer, hunter,"),
                       (guildhall, "Trader (Old World Economy) is not in play in this game (in play: Bricklayer, Hunter,")):
        path.write_text(text.replace("bricklayer: [red, blue]", "bricklayer: [red, blue]\n      trader: [yellow]"),
                        encoding="utf-8")
        (violation,) = json.loads(runner.invoke(app, ["score", str(path), "--json"]).stdout)["violations"]
        assert violation["message"].startswith(said), violation
    # at the table, whose forms send the id of the name a French phone picked: answered with the names
    from generator.i18n import language
    from generator.web.games import Games

    state = yaml.safe_load(in_ids.replace("bricklayer: [red, blue]", "bricklayer: [red, blue]\n      trader: [yellow]"))
    scored = Games().score(state, language("fr"))
    assert scored.result is not None
    (violation,) = scored.result["violations"]
    assert violation["message"].startswith("Négociant (Old World Economy) n’est pas en jeu dans cette partie (en "
                                           "jeu\u00a0: Maçon, Chasseur,"), violation


def test_a_key_named_twice_is_said_as_written_both_times(tmp_path: Path) -> None:
    """`Jäger:` and `hunter:` in one guildhall were refused as "names 'hunter' twice (as 'hunter')": the first
    key is said as the file wrote it."""
    guildhall = (EXAMPLES / "guildhall.yaml").read_text(encoding="utf-8")
    path = tmp_path / "gilde.yaml"
    path.write_text(guildhall.replace("bricklayer: [red, blue]\n      hunter: [green, yellow]",
                                      "Jäger: [rot]\n      hunter: [grün]"), encoding="utf-8")
    result = runner.invoke(app, ["score", str(path)])
    assert result.exit_code == 2
    assert "players[0].guildhall.hunter: names 'Jäger' twice (as 'hunter')" in result.stderr, result.stderr


def test_a_number_among_german_guests_is_answered_with_their_names(tmp_path: Path) -> None:
    """A Great Architect file naming its guests in German with an Apprentice's VP among them was told "the Great
    Architect version names its guests (architect, bohemian, ...)": ids. The guests are named as the file names
    them (exit 2); a file in ids still gets ids."""
    castle = (EXAMPLES / "once-upon-a-castle.yaml").read_text(encoding="utf-8")
    path = tmp_path / "burg.yaml"
    for guests, names in (("[Königin, 3]", "Architekt, Bohemien, Holzfäller"), ("[queen, 3]", "architect, bohemian")):
        path.write_text(castle.replace("[queen, jester, shepherdess, king]", guests), encoding="utf-8")
        result = runner.invoke(app, ["score", str(path)])
        assert result.exit_code == 2
        assert f"sheets[0].guests[1]: is the number 3; the Great Architect version names its guests ({names}" \
            in result.stderr, result.stderr


def test_a_name_pasted_with_characters_no_one_sees_is_read(tmp_path: Path) -> None:
    """Every name the scorer reads is folded one way (end-states.md): a profession, a colour, a guest or an event
    series pasted from a web page or a chat with a soft hyphen, a zero-width space or a byte order mark in it was
    refused (exit 2, "unknown profession 'Tax Col\u00adlector'"), though the same characters in a player's name are
    dropped (`ended_by`, names unique). They are dropped from every name: the file is scored as typed without them."""
    guildhall = (EXAMPLES / "guildhall.yaml").read_text(encoding="utf-8")
    pasted = guildhall.replace("Tax Collector:", "Tax Col\u00adlector:")
    pasted = pasted.replace("[red, blue]", "[re\u200bd, \ufeffblue]")
    assert pasted != guildhall
    castle = (EXAMPLES / "once-upon-a-castle.yaml").read_text(encoding="utf-8")
    guests = castle.replace("queen", "Qu\u200been")
    assert guests != castle
    guedelon = (EXAMPLES / "guedelon.yaml").read_text(encoding="utf-8")
    series = guedelon.replace("events: easy", "events: Ea\u00adsy")
    assert series != guedelon
    for name, text, plain in (("gh.yaml", pasted, guildhall), ("ca.yaml", guests, castle),
                              ("gd.yaml", series, guedelon)):
        path = tmp_path / name
        path.write_text(plain, encoding="utf-8")
        expected = json.loads(runner.invoke(app, ["score", str(path), "--json"]).stdout)
        path.write_text(text, encoding="utf-8")
        result = runner.invoke(app, ["score", str(path), "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == expected


@pytest.mark.parametrize(("example", "title"), [
    ("guildhall.yaml", "Guildhall – Zünfte & Intrigen"),  # the German edition (Pegasus), with its en dash
    ("guildhall.yaml", "Guildhall - Zünfte & Intrigen"),  # typed with a hyphen
    ("guedelon.yaml", "Guédelon, le jeu"),  # the published title (rulebook 001)
    ("once-upon-a-castle.yaml", "Oh mon château"),
])
def test_game_is_named_by_its_editions_titles(example: str, title: str, tmp_path: Path) -> None:
    """`game:` takes the title an edition is sold under, as the castle's took its French one: a German table's
    `game: Guildhall – Zünfte & Intrigen` was refused (exit 2, unknown game). A dash typed as an en dash or a
    hyphen is one dash (one normaliser, which folds `Tax–Collector` as `Tax-Collector` too)."""
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    game = text.split("\n", 1)[0] if text.startswith("game:") else next(
        line for line in text.splitlines() if line.startswith("game:"))
    path = tmp_path / example
    path.write_text(text, encoding="utf-8")
    expected = json.loads(runner.invoke(app, ["score", str(path), "--json"]).stdout)
    titled = text.replace(game, f"game: {title}", 1)
    if example == "guildhall.yaml":
        titled = titled.replace("Tax Collector:", "Tax–Collector:")
    path.write_text(titled, encoding="utf-8")
    result = runner.invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == expected


def test_scoring_end_states_leaves_the_sheets_reader_unloaded() -> None:
    """`donjon score FILE.yaml` imports only what scoring an end state uses: not the reader of filled sheets and
    photos (generator.sheets), a sixtieth of the command's start-up, which only sheets, photos and a --set for
    them need, nor logging (only pypdf's notes, when a PDF is read, go through it), nor the decks' modules
    (generator.catalog.deck: only builds make cards); the refusal of a --set with no photo still says why, exit 2."""
    script = ("import sys\nfrom generator.cli import app\n"
              "try:\n    app(sys.argv[1:])\nexcept SystemExit as done:\n    print('EXIT', done.code)\n"
              "print('LOADED', ','.join(m for m in ('generator.sheets', 'generator.sheets.read', 'logging',\n"
              "                                      'generator.catalog.deck')\n"
              "                         if m in sys.modules))\n")
    for argv, code in ((["score", CASTLE, GUILDHALL, "--json"], 0), (["score", CASTLE], 0)):
        out = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True, cwd=REPO,
                             timeout=120).stdout
        assert f"EXIT {code}" in out and out.rstrip().endswith("LOADED"), out
    result = runner.invoke(app, ["score", CASTLE, "--set", "towers[1]=5"])
    assert result.exit_code == 2 and "--set towers[1]" in result.stderr and "no photo was given" in result.stderr
