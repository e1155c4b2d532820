"""Makes `schema6-invisible-names.sql`: a companion database written by donjon before players' keys left out the
characters no one sees (schema version 6, commit aae083f), through its own pages and API, dumped as SQL text.

Run with that donjon on the path (`git archive aae083f generator scoring templates content | tar -x -C OLD`, then
`PYTHONPATH=OLD python tests/web/data/make_schema6_invisible_names.py OUT.sql`); the test loads the dump into a file
and opens it with today's donjon. What it holds:

- Zoë's games under three spellings: `Zoë`, `Zo\u200bë` (a zero-width space, the name of her last game) and
  `\u00adZoë\u200f` (a soft hyphen, a right-to-left mark): three players then, one now;
- one game where `Ana` and `Ana\u200b` sat together (two people then), and another game of `Ana\u200b`;
- a woman and a computer as two emoji, with a joiner between them (one technologist) and without: two players
  then and now, in one game;
- an open table whose two seats are `Cy` and `Cy\u2060` (a word joiner).
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from generator.web import store
from generator.web.app import create_app
from generator.web.db import Database
from generator.web.games import Games


def guildhall(winner: str, others: list[str], day: int) -> dict[str, Any]:
    players: list[dict[str, Any]] = [{"name": winner, "guildhall": {}, "completed_chapters": 0,
                                      "vp_cards": [9, 9, 2], "vp_tokens": 0}]
    players += [{"name": n, "guildhall": {}, "completed_chapters": 0, "vp_cards": [4 + i], "vp_tokens": 0}
                for i, n in enumerate(others)]
    return {"end_state": {"game": "guildhall", "vp_set": "old-world-economy", "players": players},
            "played_at": f"2026-11-{day:02d} 20:00:00"}


def main(out: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "donjon.sqlite3"
        db = Database(path)
        technologist, woman_and_computer = "\U0001F469\u200d\U0001F4BB", "\U0001F469\U0001F4BB"
        saves = [guildhall("Zoë", ["Ben"], 1), guildhall("Zo\u200bë", ["Ben"], 2),
                 guildhall("\u00adZoë\u200f", ["Ben", "Ana"], 3), guildhall("Ana", ["Ana\u200b", "Ben"], 4),
                 guildhall("Ana\u200b", ["Zo\u200bë"], 5), guildhall("Ben", [technologist, woman_and_computer], 6)]
        with TestClient(create_app(db, Games()), base_url="http://127.0.0.1", follow_redirects=False) as client:
            # saved as a table's save stores them (the API refused these names; a table's form took them)
            for body in saves:
                scored = Games().score(body["end_state"])
                assert scored.result is not None and scored.result["valid"], scored
                db.write(partial(store.save_game, game="guildhall", end_state=body["end_state"],
                                 result=scored.result, played_at=body["played_at"]))
            answer = client.post("/tables", data={"game": "guildhall", "vp_set": "old-world-economy",
                                                  "professions": "", "name": ["Cy", "Cy\u2060"]},
                                 headers={"sec-fetch-site": "same-origin"})
            assert answer.status_code == 303, answer.text
        db.close()
        conn = sqlite3.connect(path)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        assert version == 6, version
        lines = [f"-- made by {Path(__file__).name} with donjon aae083f: schema version {version}",
                 *conn.iterdump(), f"PRAGMA user_version = {version};"]
        conn.close()
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
