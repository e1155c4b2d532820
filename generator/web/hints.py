"""How each game's end-state format is presented at the table: the only per-game knowledge of the web layer.

The forms are built by walking a game's end-state format (`generator.fields`: Record, ListOf, MapOf, Choice,
Int, Bool...). A format says what a value is, not how a player at a table enters it best; these hints add that,
one :class:`GameHints` per game id, as data: which list of the format holds the players' parts, which fields are
chosen when the table is set, and for a few fields a better control than the generic one (a profession x colour
grid, the values of the set to tap, the guests of the catalog, the floor tiles per building). Choices are read
from the game's catalog by the small functions below, so a corrected catalog (`--content`) changes them too.

Nothing else in `generator/web/` names a game's field. (Meant to move into each game's registry descriptor.)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: (value, label) pairs offered by a control, read from the catalog and the table's options.
Choices = list[tuple[str, str]]
#: catalog, table options -> choices
ChoiceSource = Callable[[Any, Mapping[str, Any]], Choices]
#: catalog, table options -> a bound
BoundSource = Callable[[Any, Mapping[str, Any]], int | None]


@dataclass(frozen=True)
class Widget:
    """A control better than the format's generic one for one field.

    kind: `grid` (a mapping of row -> list of columns, as checkboxes), `tap` (a list of numbers, entered by tapping
    the values that exist), `pick` (a list of names, each picked at most once), `count` (a whole number with - and
    + buttons), `tiles` (Guédelon's `built`: tiles per building, or all), `player` (one of the table's players).
    """

    kind: str
    #: what can be picked or tapped (`grid`: the columns)
    choices: ChoiceSource | None = None
    #: the rows of a `grid`
    rows: ChoiceSource | None = None
    #: colours to show beside `grid` columns, by value
    swatches: Callable[[Any], Mapping[str, str]] | None = None
    low: BoundSource | None = None
    high: BoundSource | None = None
    #: most items of a list control
    most: BoundSource | None = None
    #: small print under the control, e.g. that the values offered are not from a rulebook
    note: Callable[[Any, Mapping[str, Any]], str] | None = None


@dataclass(frozen=True)
class GameHints:
    #: the list of the format whose items are the players' parts; None for a cooperative game (one team part)
    parts: str | None
    #: the key of a part that names its player
    part_name: str = "name"
    #: fields of the whole game chosen when the table is set (in this order)
    options: tuple[str, ...] = ()
    #: fields of the whole game entered at the table by anyone (after the parts)
    shared: tuple[str, ...] = ()
    #: a cooperative game's option that is the number of names in the team
    team_size: str | None = None
    #: controls by field path within a part, a shared field or an option (`walls.flags` for every wall's flags)
    widgets: Mapping[str, Widget] = field(default_factory=dict)
    #: labels of fields, by name (otherwise the field's name, in words)
    labels: Mapping[str, str] = field(default_factory=dict)
    #: help under a control, by field, where the format's own description speaks of the file rather than the form
    helps: Mapping[str, str] = field(default_factory=dict)
    #: the value a new part starts with, by field (otherwise 0, false, an empty list or mapping)
    initial: Mapping[str, Any] = field(default_factory=dict)
    #: choices of an option whose format type offers none directly (a set, or a list)
    option_choices: Mapping[str, ChoiceSource] = field(default_factory=dict)
    #: the heading of the form of the shared fields
    shared_title: str = "The end of the game"
    #: a player may upload their filled score sheet (PDF) instead of typing their part
    sheet_upload: bool = False
    #: the parts are in seat order, first player first (BG Stats' `startPlayer`)
    seat_order: bool = False
    #: the highest score wins (False: Guédelon's score is the rounds taken, fewer is better)
    highest_wins: bool = True
    #: BoardGameGeek's id of the game, where a rulebook prints it (for BG Stats); None otherwise
    bgg_id: int | None = None


def _not_official(provenance: Any, name: str) -> str:
    inferred = provenance.of(name)
    if inferred is None:
        return ""
    return f"These values are not printed in the rulebook (confidence {inferred.confidence}): {inferred.source}"


# --- Guildhall ----------------------------------------------------------------------------------------------------

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
    return _not_official(cards[0].provenance, "value") if cards else ""


def _profession_choices(catalog: Any, options: Mapping[str, Any]) -> Choices:
    out: Choices = [("", "those of the VP cards' set")]
    out += [(s.id, s.name) for s in catalog.sets]
    # a list of names, as JSON: the table keeps it as the list the format takes
    out.append((json.dumps([p.id for p in catalog.professions]), "all twelve (the combined game)"))
    return out


GUILDHALL = GameHints(
    parts="players",
    part_name="name",
    options=("vp_set", "professions"),
    shared=("ended_by",),
    widgets={
        "guildhall": Widget("grid", rows=_professions_in_play,
                            choices=lambda c, o: [(col.id, col.name) for col in c.colours],
                            swatches=lambda c: {col.id: col.hex for col in c.colours}),
        "completed_chapters": Widget("count", low=lambda c, o: 0,
                                     high=lambda c, o: int(c.components.max_completed_chapters) + 1),
        "vp_cards": Widget("tap", choices=_vp_values, note=_vp_note),
        "vp_tokens": Widget("count", low=lambda c, o: 0),
        "ended_by": Widget("player"),
    },
    helps={"guildhall": "Tap each card face up in your guildhall: its profession (row) and colour (column)."},
    labels={"vp_set": "VP cards", "professions": "Professions in play", "guildhall": "Face-up chapters",
            "completed_chapters": "Completed chapters (face down)", "vp_cards": "VP cards bought",
            "vp_tokens": "VP tokens", "ended_by": "Whose turn ended the game"},
    option_choices={"professions": _profession_choices},
    seat_order=True,  # end-states.md: players in seat order, first player first
    bgg_id=132372,  # rulebook 002 prints "Boardgamegeek 132372"
)


# --- Once Upon a Castle -------------------------------------------------------------------------------------------

def _guests(catalog: Any, options: Mapping[str, Any]) -> Choices:
    return [(g.id, g.name) for g in catalog.guests_of("great-architect")]


def _apprentice_vp(catalog: Any, options: Mapping[str, Any]) -> Choices:
    vp = catalog.sheet.apprentice_guest_vp
    return [(str(v), str(v)) for v in range(vp.min, vp.max + 1)]


CASTLE = GameHints(
    parts="sheets",
    part_name="player",
    options=("version",),
    widgets={
        "donjon_floors": Widget("count", low=lambda c, o: 0, high=lambda c, o: int(c.sheet.donjon_floors)),
        "towers": Widget("tap", choices=lambda c, o: [(str(v), str(v)) for v in c.sheet.tower_values.values],
                         most=lambda c, o: int(c.sheet.towers),
                         note=lambda c, o: _not_official(c.sheet.tower_values.provenance, "values")),
        "walls": Widget("records", most=lambda c, o: int(c.sheet.walls)),
        "walls.flags": Widget("tap", choices=lambda c, o: [(str(v), str(v)) for v in c.sheet.flag_values.values],
                              most=lambda c, o: 2,
                              note=lambda c, o: _not_official(c.sheet.flag_values.provenance, "values")),
        "sky_clouds": Widget("count", low=lambda c, o: 0),
        "residents": Widget("count", low=lambda c, o: 0, high=lambda c, o: int(c.sheet.resident_track.length)),
        "resident_points": Widget("count", low=lambda c, o: 0),
        "guests": Widget("pick", choices=lambda c, o: (_guests(c, o) if o.get("version") == "great-architect"
                                                        else _apprentice_vp(c, o))),
    },
    labels={"version": "Version", "donjon_floors": "Donjon floors", "towers": "Towers (value of each)",
            "walls": "Walls", "flags": "Flags (value of each)", "sun": "Sun (first to 4 towers)",
            "cloud": "End cloud (12th part first)", "sky_clouds": "Sky clouds (Shepherdess)",
            "residents": "Residents coloured in", "resident_points": "or: resident points read off the sheet",
            "guests": "Guests"},
    initial={"residents": 0},
    sheet_upload=True,
)


# --- Guédelon -----------------------------------------------------------------------------------------------------

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


GUEDELON = GameHints(
    parts=None,
    options=("events", "mill"),
    shared=("rounds", "built"),
    team_size="players",
    widgets={
        "rounds": Widget("count", low=lambda c, o: 1, high=lambda c, o: int(c.components.rounds) + 12),
        "built": Widget("tiles", choices=_tiles, rows=_buildings),
    },
    labels={"events": "Event series", "mill": "The Mill expansion", "rounds": "Rounds played",
            "built": "Floor tiles built"},
    helps={"built": "Tap each floor tile the team completed (the Mill too, when in play), or Everything built.",
           "rounds": "The round the castle was finished in, or the round play stopped."},
    initial={"rounds": 1, "built": []},
    shared_title="The castle",
    highest_wins=False,
)

HINTS: Mapping[str, GameHints] = {"guildhall": GUILDHALL, "once-upon-a-castle": CASTLE, "guedelon": GUEDELON}
