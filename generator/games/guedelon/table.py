"""How Guédelon is entered at the table (`donjon serve`): its end-state format's parts, options and controls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.games.table import Choices, TableControl, TableHints, in_language
from generator.i18n import N_


def _tiles(catalog: Any, options: Mapping[str, Any]) -> Choices:
    return [(t.id, f"{t.building}{t.floor}") for t in catalog.tiles]


def _buildings(catalog: Any, options: Mapping[str, Any]) -> Choices:
    said = in_language(options)._("Building {building}")
    return [(b.id, said.format(building=b.id)) for b in catalog.buildings]


def _mill(catalog: Any, options: Mapping[str, Any]) -> Choices:
    """The Mill's states (end-states.md `mill`): not a floor tile, so not among the tiles built."""
    name = catalog.mill.name
    lang = in_language(options)
    return [("false", lang._("No {mill} (not in play)").format(mill=name)),
            ("built", lang._("{mill} built").format(mill=name)),
            ("not-built", lang._("{mill} not built").format(mill=name))]


def _series(catalog: Any, options: Mapping[str, Any]) -> Choices:
    """The event series, by the catalog's names (capitalised as an option is)."""
    return [(s.id, s.name[:1].upper() + s.name[1:]) for s in catalog.series]


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
    labels={"events": N_("Event series"), "mill": N_("The Mill expansion"), "rounds": N_("Rounds played"),
            "built": N_("Floor tiles built"),
            # the result's breakdown: the rounds played up to the year the rules end in, and past it
            "rounds_to_1245": N_("Rounds to 1245"), "rounds_past_1245": N_("Rounds past 1245"),
            "tiles_left": N_("Floor tiles left")},
    helps={"built": N_("Tap each floor tile the team completed, or Everything built."),
           "mill": N_("When the Mill expansion was in play: whether the team built it (it does not decide the win)."),
           "rounds": N_("The round the castle was finished in, or the round play stopped.")},
    option_choices={"events": _series},
    initial={"rounds": 1, "built": [], "mill": "false"},  # the select shows "No Mill" until changed
    shared_title=N_("The castle"),
    shared_undo=N_("Undo the last change to the castle"),
    highest_wins=False,
)
