"""Warnings and inferred scores (end-states.md, "Violations and warnings") as the pages show them.

The scorer of this branch gives neither yet; a wrapper adds them to its results exactly as the specification
words them, and the pages must show each warning at its field and never show an inferred score as official.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from generator.i18n import Language
from generator.web.app import create_app
from generator.web.db import Database
from generator.web.games import Games, Scored
from tests.web.conftest import SAME_ORIGIN, new_table

WARNING = {"where": "sheets[0].towers[0]", "message": "a tower worth 3 is not among the values the catalog holds",
           "source": "Julie's Game School review", "confidence": "M"}


class Trusting(Games):
    """The real scorer, with a warning on Ana's first tower and her resident points inferred from the house track."""

    def score(self, end_state: Mapping[str, Any], lang: Language | None = None) -> Scored:
        scored = super().score(end_state, lang)
        if scored.result is None:
            return scored
        result = dict(scored.result)
        names = [p["name"] for p in result["players"]]
        if "Ana" in names:
            result["warnings"] = [WARNING]
            result["players"] = [{**p, "inferred": {"residents": "house"}} if p["name"] == "Ana" else p
                                 for p in result["players"]]
        # the end Cloud is left out of this table: it is about warnings and inferred scores, and saves it anyway
        return Scored(result)


@pytest.fixture
def trusting(tmp_path: Path) -> Iterator[TestClient]:
    db = Database(tmp_path / "db.sqlite3")
    with TestClient(create_app(db, Trusting()), base_url="http://127.0.0.1", follow_redirects=False) as client:
        yield client
    db.close()


def test_a_warning_shows_at_its_field_and_an_inferred_score_is_never_official(trusting: TestClient) -> None:
    table = new_table(trusting, "once-upon-a-castle", ["Ana", "Ben"], version="great-architect")
    table.edit("append", "towers", 5, seat=0)
    page = table.page(seat=0)
    slot = re.search(r'id="msg-sheets_0__towers"[^>]*>(.*?)</div>', page, re.S)
    assert slot is not None and 'class="warning"' in slot.group(1)
    assert "not among the values" in slot.group(1) and "confidence M" in slot.group(1)
    assert "Julie&#39;s Game School review" in slot.group(1)
    board = page[page.index('id="scoreboard"'):]
    assert re.search(r'<span class="inferred"[^>]*>≈5</span>', board)  # Ana's total, marked
    assert "Residents coloured in 0<sup>≈ house</sup>" in board and "not an official score" in board
    assert re.search(r'<strong>Ana</strong> <span class="total">≈5</span>', page)  # the totals strip of a phone
    # saved, the game and the history say it again
    saved = trusting.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN, data={"confirm": "yes"})  # Ben entered nothing
    game = trusting.get(saved.headers["location"]).text
    assert "≈5" in game and "not an official score" in game and "confidence M" in game
    assert "≈5" in trusting.get("/history").text
    player = trusting.get("/history/players/Ana").text
    assert "≈5" in player and "not official" in player
