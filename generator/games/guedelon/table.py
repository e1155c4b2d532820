"""How Guédelon is entered at the table (`donjon serve`): its end-state format's parts, options and controls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.games.table import Choices, TableControl, TableHints


def _tiles(catalog: Any, options: Mapping[str, Any]) -> Choices:
    out = [(t.id, f"{t.building}{t.floor}") for t in catalog.tiles]
    if options.get("mill"):
        out.append((catalog.mill.id, catalog.mill.name))
    return out


def _buildings(catalog: Any, options: Mapping[str, Any]) -> Choices:
    out = [(b.id, f"Building {b.id}") for b in catalog.buildings]
    if options.get("mill"):
        out.append((catalog.mill.id, catalog.mill.name))
    return out


HINTS = TableHints(
    parts=None,
    options=("events", "mill"),
    shared=("rounds", "built"),
    team_size="players",
    widgets={
        "rounds": TableControl("count", low=lambda c, o: 1, high=lambda c, o: int(c.components.rounds) + 12),
        "built": TableControl("tiles", choices=_tiles, rows=_buildings),
    },
    labels={"events": "Event series", "mill": "The Mill expansion", "rounds": "Rounds played",
            "built": "Floor tiles built"},
    helps={"built": "Tap each floor tile the team completed (the Mill too, when in play), or Everything built.",
           "rounds": "The round the castle was finished in, or the round play stopped."},
    initial={"rounds": 1, "built": []},
    shared_title="The castle",
    highest_wins=False,
)
