"""The companion with a sheet of one's own (`donjon serve --content content/examples/sheets`): a table for it,
its fields entered or a filled sheet uploaded, scored by its rules, and the game saved."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from generator.web.app import create_app
from generator.web.db import Database
from generator.web.games import Games
from tests.web.conftest import REPO, SAME_ORIGIN, new_table
from tests.web.test_tables import totals

SHEETS = REPO / "content" / "examples" / "sheets"


@pytest.fixture
def own(db: Database) -> Iterator[TestClient]:
    """The app serving the example sheets' folder (its sheet is a game for as long as the folder is loaded)."""
    from generator.registry import unregister

    try:
        games = Games(SHEETS)
        with TestClient(create_app(db, games), base_url="http://127.0.0.1", follow_redirects=False) as client:
            yield client
    finally:
        unregister("lantern-harbour")


def test_a_table_for_a_sheet_of_ones_own(own: TestClient, tmp_path: Path) -> None:
    home = own.get("/").text
    assert "Lantern Harbour" in home and "Guildhall" not in home  # the games of the folder served
    assert own.get("/new/lantern-harbour").status_code == 200
    table = new_table(own, "lantern-harbour", ["Ana", "Ben"])
    page = table.page(seat=0)
    assert "Villagers" in page and "Salt" in page  # its fields, and the goods of its list
    table.edit("set", "fish", 14, seat=0)
    for _ in range(3):
        table.edit("add", "boats", 1, seat=0)
    table.edit("toggle", "goods", "salt", seat=0)
    update = table.edit("set", "villagers", 7, seat=0)
    # 6 (villagers 7-9) + 14 fish + 9 (3 boats) + 2 (salt)
    assert totals(update)["Ana"] == "31"
    update = table.edit("set", "storm", "true", seat=0)
    assert totals(update)["Ana"] == "26"
    # Ben uploads his filled sheet instead of typing
    built = tmp_path / "out"
    from typer.testing import CliRunner

    from generator.cli import app
    from tests.sheets.helpers import fill

    assert CliRunner().invoke(app, ["build", "--content", str(SHEETS), "--out", str(built), "--format", "pdf"]
                              ).exit_code == 0
    blank = built / "score-sheets" / "lantern-harbour" / "lantern-harbour-a4-fillable.pdf"
    ben = fill(blank, tmp_path / "ben.pdf", {"player": "Ben", "fish": "3", "villagers": "11", "boat_1": True,
                                             "good_1": "tea"})
    upload = own.post(f"/tables/{table.id}/seats/1/sheet", headers=SAME_ORIGIN,
                      files={"sheet": ("ben.pdf", ben.read_bytes(), "application/pdf")}, follow_redirects=True)
    assert upload.status_code == 200, upload.text
    assert totals(upload.text)["Ben"] == str(10 + 3 + 3 + 2)
    saved = own.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN)
    assert saved.status_code == 303, saved.text
    game = own.get(saved.headers["location"]).text
    assert "Ana" in game and "Lantern Harbour" in game
