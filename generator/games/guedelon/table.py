"""How Guédelon is entered at the table (`donjon serve`): its end-state format's parts, options and controls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.games.table import Choices, TableControl, TableHints


def _tiles(catalog: Any, options: Mapping[str, Any]) -> Choices:
    return [(t.id, f"{t.building}{t.floor}") for t in catalog.tiles]


def _buildings(catalog: Any, options: Mapping[str, Any]) -> Choices:
    return [(b.id, f"Building {b.id}") for b in catalog.buildings]


def _mill(catalog: Any, options: Mapping[str, Any]) -> Choices:
    """The Mill's states (end-states.md `mill`): not a floor tile, so not among the tiles built."""
    name = catalog.mill.name
    return [("false", f"No {name} (not in play)"), ("built", f"{name} built"), ("not-built", f"{name} not built")]


HINTS = TableHints(
    parts=None,
    options=("events",),
    shared=("rounds", "built", "mill"),
    team_size="players",
    widgets={
        "rounds": TableControl("count", low=lambda c, o: 1, high=lambda c, o: int(c.components.rounds) + 12),
        "built": TableControl("tiles", choices=_tiles, rows=_buildings),
        "mill": TableControl("select", choices=_mill),
    },
    labels={"events": "Event series", "mill": "The Mill expansion", "rounds": "Rounds played",
            "built": "Floor tiles built"},
    helps={"built": "Tap each floor tile the team completed, or Everything built.",
           "mill": "When the Mill expansion was in play: whether the team built it (it does not decide the win).",
           "rounds": "The round the castle was finished in, or the round play stopped."},
    initial={"rounds": 1, "built": [], "mill": "false"},  # the select shows "No Mill" until changed
    shared_title="The castle",
    highest_wins=False,
)
