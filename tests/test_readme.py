"""The README's examples work: every `donjon ...` line of its shell blocks runs and succeeds.

They run in a scratch folder that holds what the examples name: the shipped `content/` (with its examples),
a deck of one's own (`my-deck`), a corrected copy of the catalogs (`my-content`), a game to score
(`my-game.yaml`) and two filled castle sheets (`ana.pdf`, `ben.pdf`).
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

README = REPO / "README.md"


def commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    found = []
    for block in blocks:
        for line in block.splitlines():
            for part in line.split("&&"):
                part = part.split("#", 1)[0].strip()
                if part.startswith("donjon "):
                    found.append(part)
    return found


def donjon_argv() -> list[str]:
    exe = Path(sys.executable).with_name("donjon")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "generator"]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("readme")
    shutil.copytree(REPO / "content", root / "content")
    shutil.copytree(REPO / "content", root / "my-content")
    shutil.copytree(REPO / "benchmarks" / "deck100", root / "my-deck")
    shutil.copy(REPO / "content" / "examples" / "once-upon-a-castle.yaml", root / "my-game.yaml")
    built = subprocess.run([*donjon_argv(), "build", "once-upon-a-castle", "--out", str(root / "sheets"),
                            "--format", "pdf"], capture_output=True, text=True, cwd=root)
    assert built.returncode == 0, built.stderr
    from pypdf import PdfReader, PdfWriter

    blank = root / "sheets" / "score-sheets" / "once-upon-a-castle" / "castle-sheet-great-architect-a4-fillable.pdf"
    for name, values in (("ana", {"player": "Ana", "tower_1_value": "5", "residents": "7", "floor_1": "/Yes",
                                  "guest_1": "queen"}),
                         ("ben", {"player": "Ben", "tower_1_value": "2", "residents": "3"})):
        writer = PdfWriter(clone_from=PdfReader(blank))
        writer.update_page_form_field_values(writer.pages[0], values, auto_regenerate=False)
        with (root / f"{name}.pdf").open("wb") as handle:
            writer.write(handle)
    return root


def test_the_readme_shows_commands() -> None:
    found = commands()
    for expected in ("donjon build all", "donjon score content/examples/guildhall.yaml", "donjon content check",
                     "donjon reference guildhall", "donjon export png --preset tgc", "donjon preview"):
        assert expected in found


@pytest.mark.parametrize("command", commands())
def test_readme_command_works(scratch: Path, command: str) -> None:
    result = subprocess.run([*donjon_argv(), *shlex.split(command)[1:]], capture_output=True, text=True,
                            cwd=scratch, timeout=300)
    assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
