"""Every `donjon ...` command the documentation shows names commands and options that exist.

`tests/test_readme.py` runs the README's own examples; the other pages (the READMEs beside the code, `docs/`,
`templates/`, the sample content's) show commands in their examples and in their prose too, and an option renamed
in the code would leave them wrong without a word. This reads every command of every Markdown page, fenced or
inline, and checks each against the command line itself (typer's tree of commands): every word before the first
option names a command or subcommand, every `--option` is one that command takes. Values are not checked (they
are placeholders as often as examples: `--service NAME`).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
import typer

from tests.conftest import REPO


def pages() -> list[str]:
    """The documentation: every Markdown file git tracks, but the tests' own notes and the benchmarks' results."""
    listed = subprocess.run(["git", "ls-files", "*.md"], capture_output=True, text=True, cwd=REPO, check=True)
    return [name for name in listed.stdout.split()
            if not name.startswith("tests/") and name != "benchmarks/results.md"]


#: A command in a page: `donjon` (or the venv's `.venv/bin/donjon`) followed by its words.
COMMAND = re.compile(r"^(?:\.venv/bin/)?donjon(?: |$)")


def commands(text: str) -> list[str]:
    """The donjon commands of a page: each line of its code blocks (split at `&&`, its comment left out), and each
    inline code span of its prose that starts with `donjon `."""
    found = []
    for block in re.findall(r"```[^\n]*\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            for part in line.split("&&"):
                part = re.split(r"\s#", part, maxsplit=1)[0].strip()
                if COMMAND.match(part):
                    found.append(part)
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    found += [span for span in re.findall(r"`([^`\n]+)`", prose) if COMMAND.match(span)]
    return found


def every_command() -> list[tuple[str, str]]:
    return [(page, command) for page in pages() for command in commands((REPO / page).read_text(encoding="utf-8"))]


def problems_of(command: str, root: Any, context: Any) -> list[str]:
    """What `command` names that the command line does not have: an unknown (sub)command or option."""
    words = shlex.split(command)[1:]
    current, path = root, ["donjon"]
    index = 0
    while hasattr(current, "get_command") and index < len(words) and not words[index].startswith("-"):
        word = words[index]
        if word == "..." or word.isupper():  # a placeholder (`donjon COMMAND --help`, `donjon build ...`): the
            break                              # options after it are checked against the command named so far
        # `donjon history edit|delete`: each alternative must be a subcommand, and the first is followed
        found = [current.get_command(context, name) for name in word.split("|")]
        if None in found:
            return [f"{' '.join(path)} has no command {word!r}"]
        current, index = found[0], index + 1
        path.append(word.split("|")[0])
    taken = {name for param in current.params for name in [*param.opts, *param.secondary_opts]} | {"-h", "--help"}
    wrong = []
    for word in words[index:]:
        # an option, not a negative number (`--back-offset 1,-0.5` is one word; `-1` alone would be a value)
        if word.startswith("-") and not re.match(r"-[\d.]", word):
            name = word.split("=", 1)[0]
            if name not in taken:
                wrong.append(f"{' '.join(path)} has no option {name}")
    return wrong


def test_the_pages_show_commands() -> None:
    """The reading works: the pages hold commands, from code blocks and from prose, of several pages."""
    found = every_command()
    assert len(found) > 150
    assert ("README.md", "donjon build all --paper letter --bleed") in found
    assert ("docs/printing.md", "donjon check-print FILE.pdf --service NAME") in found
    assert ("generator/export/README.md", "donjon export tts --base-url https://example.org/my-decks") in found


def test_every_command_the_docs_show_exists_with_its_options() -> None:
    from generator.cli import app

    root = typer.main.get_command(app)
    context = typer.Context(root)
    wrong = [f"{page}: `{command}`: {problem}" for page, command in every_command()
             for problem in problems_of(command, root, context)]
    assert wrong == []


@pytest.mark.parametrize(("command", "expected"), [
    ("donjon build all --colur cmyk", ["donjon build has no option --colur"]),
    ("donjon export pdf --decks all", ["donjon export has no command 'pdf'"]),
    ("donjon history edit|undo 1 f.yaml", ["donjon history has no command 'edit|undo'"]),
    ("donjon build all --back-offset 1,-0.5 --duplex=short", []),
    ("donjon build ... --printer NAME", []),
    ("donjon COMMAND --help", []),
])
def test_a_wrong_command_or_option_is_found(command: str, expected: list[str]) -> None:
    from generator.cli import app

    root = typer.main.get_command(app)
    assert problems_of(command, root, typer.Context(root)) == expected


def test_the_end_state_examples_score_as_the_page_says(tmp_path: Path) -> None:
    """docs/end-states.md shows one end state per game and the JSON `donjon score --json` prints: each example,
    copied as it is, is scored without a violation or a warning (exit 0), and the JSON shown is the Guildhall
    example's. Its Guildhall example was a game in progress (19 VP: exit 1, "no winner yet") beside a JSON of a
    finished one (22 VP), and its castle example drew a warning for the end Cloud no sheet had."""
    from typer.testing import CliRunner

    from generator.cli import app

    page = (REPO / "docs" / "end-states.md").read_text(encoding="utf-8")
    examples = re.findall(r"```yaml\n(.*?)```", page, flags=re.S)
    assert [re.search(r"^game: (\S+)", example, flags=re.M).group(1)  # type: ignore[union-attr]
            for example in examples] == ["guildhall", "once-upon-a-castle", "guedelon"]
    runner = CliRunner()
    results = []
    for number, example in enumerate(examples):
        path = tmp_path / f"example-{number}.yaml"
        path.write_text(example, encoding="utf-8")
        result = runner.invoke(app, ["score", str(path), "--json"])
        assert result.exit_code == 0, (number, result.output)
        results.append(json.loads(result.stdout))
        assert results[-1]["violations"] == [] and results[-1]["warnings"] == [], results[-1]
    shown = json.loads(re.findall(r"```json\n(.*?)```", page, flags=re.S)[-1])
    assert results[0] == shown


def tiny_deck(folder: Path) -> Path:
    """A deck of one's own of one card, Knight, on the shipped generic layout."""
    deck = folder / "tiny"
    deck.mkdir()
    (deck / "deck.yaml").write_text("id: tiny\nname: Tiny\ncard_size: poker\nlayout: generic\ncards: cards.csv\n",
                                    encoding="utf-8")
    (deck / "cards.csv").write_text("Name,Text\nKnight,Guard the wall.\n", encoding="utf-8")
    return deck


def test_output_readme_names_what_a_preview_writes(tmp_path: Path) -> None:
    """output/README.md's tree names every file and folder `donjon preview` writes into OUT/preview/: it named
    `index.html` and `img/` only, and a user looking up `thumbs/` and `version.txt` there found nothing."""
    from typer.testing import CliRunner

    from generator.cli import app

    deck = tiny_deck(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["preview", "--content", str(deck), "--out", str(out)])
    assert result.exit_code == 0, result.output
    tree = (REPO / "output" / "README.md").read_text(encoding="utf-8").split("```", 2)[1]
    named = {word.rstrip(",/") for word in tree.split()}
    written = {f"preview/{entry.name}" for entry in (out / "preview").iterdir()}
    assert written and written <= named, written - named


def test_output_readme_gives_the_page_order_export_dtc_writes(tmp_path: Path) -> None:
    """`donjon export dtc` writes each card's back, then its front (DriveThruCards' order; README.md and
    generator/export/README.md say so); output/README.md's tree said "front then back of each card"."""
    from pypdf import PdfReader
    from typer.testing import CliRunner

    from generator.cli import app

    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["export", "dtc", "--content", str(tiny_deck(tmp_path)), "--out", str(out)])
    assert result.exit_code == 0, result.output
    pages = [page.extract_text() for page in PdfReader(out / "dtc" / "decks" / "tiny.pdf").pages]
    assert len(pages) == 2 and "Knight" not in pages[0] and "Knight" in pages[1]
    tree = (REPO / "output" / "README.md").read_text(encoding="utf-8").split("```", 2)[1]
    line = next(line for line in tree.splitlines() if "donjon export dtc" in line)
    assert "back then front of each card" in line


def test_every_example_in_another_language_writes_into_its_own_folder() -> None:
    """README.md says to write each language into its own `--out` folder (a build in French replaces the English
    files of the same folder); its own example `donjon reference guildhall --lang de` had no `--out`, and a user
    running it lost the English reference of output/. Every example command of a code block that writes in
    another language names its folder."""
    wrong = []
    for page in pages():
        text = (REPO / page).read_text(encoding="utf-8")
        blocks = "\n".join(re.findall(r"```[^\n]*\n(.*?)```", text, flags=re.S))
        for command in commands(f"```\n{blocks}\n```"):
            words = shlex.split(command)
            writes = len(words) > 1 and words[1] in {"build", "reference", "export", "preview"}
            language = next((words[i + 1] for i, word in enumerate(words[:-1]) if word == "--lang"), "en")
            if writes and language != "en" and "--out" not in words:
                wrong.append(f"{page}: {command}")
    assert wrong == []
