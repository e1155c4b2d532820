"""How Guildhall is entered at the table (`donjon serve`): its end-state format's parts, options and controls."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from generator.games.table import Choices, TableControl, TableHints, in_language, not_official
from generator.i18n import N_


def _professions_in_play(catalog: Any, options: Mapping[str, Any]) -> Choices:
    chosen = options.get("professions") or options.get("vp_set")
    if isinstance(chosen, list):
        ids = set(chosen)
        return [(p.id, p.name) for p in catalog.professions if p.id in ids]
    return [(p.id, p.name) for p in catalog.professions_of(chosen)] if chosen else []


def _vp_values(catalog: Any, options: Mapping[str, Any]) -> Choices:
    supply = catalog.vp_supply(options.get("vp_set"), int(options.get("_players", 4)))
    return [(str(value), str(value)) for value in supply]


def _vp_note(catalog: Any, options: Mapping[str, Any]) -> str:
    cards = catalog.vp_cards_of(options.get("vp_set"))
    return not_official(cards[0].provenance, "value", options) if cards else ""


def _profession_choices(catalog: Any, options: Mapping[str, Any]) -> Choices:
    lang = in_language(options)
    out: Choices = [("", lang._("those of the VP cards' set"))]
    out += [(s.id, s.name) for s in catalog.sets]
    # a list of names, as JSON: the table keeps it as the list the format takes
    out.append((json.dumps([p.id for p in catalog.professions]), lang._("all twelve (the combined game)")))
    return out


HINTS = TableHints(
    parts="players",
    part_name="name",
    options=("vp_set", "professions"),
    shared=("ended_by",),
    widgets={
        "guildhall": TableControl("grid", rows=_professions_in_play,
                            choices=lambda c, o: [(col.id, col.name) for col in c.colours],
                            swatches=lambda c: {col.id: col.hex for col in c.colours}),
        # rule 5 (002/003 Completed Chapters): a fourth is discarded down to 3 at once, so no player holds more at
        # the table (the Yucata variant, where they may until the owner's next turn, is not offered here)
        "completed_chapters": TableControl("count", low=lambda c, o: 0,
                                           high=lambda c, o: int(c.components.max_completed_chapters)),
        "vp_cards": TableControl("tap", choices=_vp_values, note=_vp_note),
        "vp_tokens": TableControl("count", low=lambda c, o: 0),
        "ended_by": TableControl("player", ask_from=lambda c, o: int(c.components.win_vp)),
    },
    helps={"guildhall": N_("Tap each card face up in your guildhall: its profession (row) and colour (column)."),
           "completed_chapters": N_("Your completed chapters, face down: 0 to 3, as completing a fourth makes you "
                                    "discard down to 3 at once."),
           "professions": N_("The professions whose chapters were shuffled in; unless you chose others, those that "
                             "go with the VP cards.")},
    labels={"vp_set": N_("VP cards"), "professions": N_("Professions in play"), "guildhall": N_("Face-up chapters"),
            "completed_chapters": N_("Completed chapters (face down)"), "vp_cards": N_("VP cards bought"),
            "vp_tokens": N_("VP tokens"), "ended_by": N_("Whose turn ended the game")},
    option_choices={"professions": _profession_choices, "vp_set": lambda c, o: [(s.id, s.name) for s in c.sets]},
    seat_order=True,  # end-states.md: players in seat order, first player first
    bgg_id=132372,  # rulebook 002 prints "Boardgamegeek 132372"
)
