"""The README's examples work: every `donjon ...` line of its shell blocks runs and succeeds.

They run in a scratch folder that holds what the examples name: the shipped `content/` (with its examples),
a deck of one's own (`my-deck`), a corrected copy of the catalogs (`my-content`), a game to score
(`my-game.yaml`), two filled castle sheets (`ana.pdf`, `ben.pdf`) and photos of filled scan-ready sheets
(`ana.jpg` and a second photo of it, `ana-2.jpg`, `ben.jpg`, `ben.heic`, `cleo.png`).
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
from tests.processes import with_default_signals

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
    photos(root)
    own_sheet(root)
    # the companion's database, with one saved game, for `donjon history ...` (found through $DONJON_DB)
    import yaml

    from generator.web import store
    from generator.web.db import Database
    from generator.web.games import Games

    db = Database(root / "history.sqlite3")
    state = yaml.safe_load((root / "content" / "examples" / "guildhall.yaml").read_text(encoding="utf-8"))
    result = Games().score(state).result
    assert result is not None
    db.write(lambda c: store.save_game(c, "guildhall", state, result, played_at="2026-03-01 21:00:00"))
    db.close()
    return root


def photos(root: Path) -> None:
    """Photos of three players' scan-ready sheets of one Great Architect game (each a guest of their own)."""
    import io

    import cv2
    import pillow_heif
    from PIL import Image

    from tests.scan.helpers import GREAT, filled, photograph

    ana = photograph(filled("great-architect", "a4", GREAT))
    ben = photograph(filled("great-architect", "a4", dict(GREAT, guests=["king"])), turn=180)
    cleo = filled("great-architect", "letter", dict(GREAT, guests=["prince"], residents=20))
    (root / "ana.jpg").write_bytes(ana)
    # a second photo of Ana's sheet, from another angle
    (root / "ana-2.jpg").write_bytes(photograph(filled("great-architect", "a4", GREAT), turn=90, tilt=0.12))
    (root / "ben.jpg").write_bytes(ben)
    pillow_heif.register_heif_opener()
    heic = io.BytesIO()
    Image.open(io.BytesIO(ben)).save(heic, "HEIF", quality=90)
    (root / "ben.heic").write_bytes(heic.getvalue())
    import numpy as np

    jpeg = np.frombuffer(photograph(cleo, turn=90), dtype=np.uint8)
    grey = cv2.imdecode(jpeg, cv2.IMREAD_GRAYSCALE)
    assert grey is not None
    ok, png = cv2.imencode(".png", grey)
    assert ok
    (root / "cleo.png").write_bytes(png.tobytes())


def own_sheet(root: Path) -> None:
    """A sheet of one's own (`my-sheet`, the example's) and two of its sheets filled: a photo and a PDF."""
    from generator.games.sheet_game import SheetGame
    from generator.sheets.own import load_sheet
    from tests.scan.helpers import fill_marks, photograph, rendered
    from tests.sheets.helpers import fill

    shutil.copytree(REPO / "content" / "examples" / "sheets" / "lantern-harbour", root / "my-sheet")
    sheet, problems = load_sheet(root / "my-sheet")
    assert sheet is not None, problems
    game = SheetGame(sheet)  # drawn here without being registered: the commands register it themselves
    scan = game.drawn("scan", "a4")
    assert scan.map is not None
    values = {"fish": 14, "boats": 2, "villagers": 5, "goods": ["tar"], "guild": "sailors"}
    (root / "ada.jpg").write_bytes(photograph(fill_marks(scan.map, rendered(scan.page()), values), turn=30))
    from generator.backends.pdf import write_pdf

    write_pdf([game.drawn("fillable", "a4").page()], root / ".blank-my-sheet.pdf", title="blank")
    fill(root / ".blank-my-sheet.pdf", root / "bo.pdf", {"player": "Bo", "fish": "3", "boat_1": True})


def test_the_readme_shows_commands() -> None:
    found = commands()
    for expected in ("donjon build all", "donjon score content/examples/guildhall.yaml", "donjon content check",
                     "donjon reference guildhall", "donjon export png --preset tgc", "donjon preview",
                     "donjon serve --lan", "donjon history list"):
        assert expected in found


COMMANDS = commands()
# how many of COMMANDS each worker's scratch folder has run, in the README's order
_RAN: dict[Path, int] = {}


@pytest.mark.parametrize("index", range(len(COMMANDS)), ids=COMMANDS)
def test_readme_command_works(scratch: Path, index: int) -> None:
    # A command may use what an earlier one made (a built sheet, a saved game), as a reader following the README
    # would. Tests spread over workers one by one (`pytest -n 2` without `--dist loadfile`) leave a worker's scratch
    # folder without them: the earlier commands this worker has not run yet are run first.
    for earlier in range(_RAN.get(scratch, 0), index):
        run_readme_command(scratch, COMMANDS[earlier], before=COMMANDS[index])
    run_readme_command(scratch, COMMANDS[index])
    _RAN[scratch] = max(_RAN.get(scratch, 0), index + 1)


def run_readme_command(scratch: Path, command: str, before: str | None = None) -> None:
    import os

    argv = [*donjon_argv(), *shlex.split(command)[1:]]
    env = {**os.environ, "DONJON_DB": str(scratch / "history.sqlite3"),
           "DONJON_PRINTERS": str(scratch / "printers.json")}
    if command.startswith("donjon serve"):
        serve_until_it_answers(argv, scratch, env)
        return
    result = subprocess.run(argv, capture_output=True, text=True, cwd=scratch, timeout=300, env=env)
    needed = f" (run before: {before})" if before else ""
    assert result.returncode == 0, f"{command}{needed}\n{result.stdout}\n{result.stderr}"


def serve_until_it_answers(argv: list[str], cwd: Path, env: dict[str, str]) -> None:
    """A server runs until stopped: start it on a free port of this machine only, ask it a page, stop it (exit 0)."""
    import signal

    import httpx

    extra = ["--port", "0"] + (["--host", "127.0.0.1"] if "--lan" in argv else [])
    process = subprocess.Popen(with_default_signals([*argv, *extra]), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=cwd,
                               env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = re.search(r"http://\S+", line)
        assert url, line
        import time

        from tests.web.test_serve_process import STARTUP_LIMIT_S

        # asked until it answers, for as long as a loaded machine may take to start it: 500 tries 20 ms apart (10 s)
        # before, after which the test went on as if the page had been answered
        deadline = time.monotonic() + STARTUP_LIMIT_S
        while True:
            try:
                with httpx.Client(follow_redirects=True) as client:
                    assert client.get(url.group(0)).status_code == 200
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, f"{url.group(0)} not answered within {STARTUP_LIMIT_S} s"
                time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        assert process.wait(20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
