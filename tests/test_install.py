"""The built wheel carries the catalogs, layouts and fonts, and finds them when run from any folder."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)],
                            capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{result.stdout}\n{result.stderr}")
    [built] = out.glob("donjon-*.whl")
    return built


def test_wheel_holds_packages_data_and_typing_marker(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in ("generator/cli.py", "generator/py.typed", "scoring/py.typed",
                     "generator/_data/content/guildhall/professions.yaml",
                     "generator/_data/content/schemas/game.schema.json",
                     "generator/_data/templates/fonts/Cardo-Regular.ttf",
                     "generator/_data/templates/fonts/LICENSE-Cardo-OFL-1.1.txt",
                     # the translation catalogs, compiled by the build hook (hatch_build.py)
                     "generator/locale/fr/LC_MESSAGES/donjon.mo", "generator/locale/de/LC_MESSAGES/donjon.mo"):
        assert required in names, required
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "donjon = generator.cli:run" in zipfile.ZipFile(wheel).read(entry).decode()


def test_installed_wheel_finds_its_content_from_another_folder(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=600)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    probe = subprocess.run([sys.executable, "-c", "import generator.resources as r; print(r.data_root())"],
                           capture_output=True, text=True, cwd=elsewhere, env=env, check=True)
    assert probe.stdout.strip() == str(target / "generator" / "_data")
    result = subprocess.run([sys.executable, "-m", "generator", "content", "check"], capture_output=True, text=True,
                            cwd=elsewhere, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("OK: 3 games")
    # the installed catalogs speak French, compiled: no .po to compile in memory, so no Babel import
    probe = subprocess.run([sys.executable, "-c", "import sys, generator.i18n as i; print(i.language('fr')._('Contents'), "
                            "i.LOCALE_DIR, 'babel' in sys.modules)"], capture_output=True, text=True, cwd=elsewhere,
                           env=env, check=True)
    assert probe.stdout.split() == ["Sommaire", str(target / "generator" / "locale"), "False"], probe.stdout


def test_installed_wheel_serves_the_companion_pages_and_assets(wheel: Path, tmp_path: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "generator/_data/templates/web/seat.html" in names
    assert "generator/_data/templates/web/static/app.js" in names
    assert not any("axe" in n or n.endswith(".png") and "/web/" in n for n in names)  # test tools, README picture
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=600)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from starlette.testclient import TestClient\n"
        "from generator.web.app import create_app, templates_root\n"
        "from generator.web.db import Database\n"
        "from generator.web.games import Games\n"
        "db = Database(Path('db.sqlite3'))\n"
        "client = TestClient(create_app(db, Games()), base_url='http://127.0.0.1')\n"
        "print(templates_root())\n"
        "print(client.get('/new/guildhall').status_code, client.get('/static/app.js').status_code)\n"
        "db.close()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    result = subprocess.run([sys.executable, "-W", "ignore", "-c", probe], capture_output=True, text=True,
                            cwd=elsewhere, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    root, codes = result.stdout.splitlines()
    assert root == str(target / "generator" / "_data" / "templates" / "web")
    assert codes == "200 200"
