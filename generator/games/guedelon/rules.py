"""Guédelon games: the rules the scorer enforces, and the team's result.

Guédelon is cooperative: the team wins or loses together, against the clock. Violations (end-states.md; each
rests on facts rulebook 000, the English translation, or 001, the French original, states; each check below
cites its section):

1. 1 to 4 players.
2. 1 round or more.
3. Every tile named is a tile the rulebook's buildings can hold (A0-A2; B, C, E up to floor 4; D and F up to
   floor 4), named once, and all of them fit in one castle of 22 tiles with a five-floor building; `mill` only
   when the Mill is in play.
4. Within a building, floors are completed from floor 0 upwards with none skipped.

Warnings (W1): a tile a building can hold but the catalog's split does not give it (C3, D4...): which buildings
hold the two tiles beyond those the rulebooks place is a house default (the building's `floors`). Reported
through :meth:`scoring.findings.Findings.check` with that building's `inferred` record.

Result (000/001 8 Game end): won when every floor tile is built by the end of the last round (18, year 1245);
lost when round 18 ended with tiles left, or when the castle was finished after round 18 (the team then plays on
to see how many rounds it needs: the record to beat). A file with tiles left and fewer than 18 rounds is a game
in progress (`finished: false`, exit 1, with the standings). The Mill (000 12, "an additional challenge") is
reported on its own, built or not built; it does not decide the win. The team's score is the rounds taken; its
breakdown splits them into rounds up to 1245 and rounds past it.

The numbers (players, rounds, the last year, the tiles, the buildings' floors, the Mill) come from the Guédelon
catalog, so a corrected catalog changes them.
"""

from __future__ import annotations

import re
from enum import IntEnum

from generator.fields import normalise_name
from generator.games.guedelon.catalog import Guedelon
from generator.games.guedelon.end_state import GuedelonEndState
from generator.wording import listing, plural
from scoring.findings import Findings
from scoring.result import PlayerScore, Result, breakdown

GAME = "guedelon"
TEAM = "team"
#: A floor tile's name: its building's letter and its floor's number.
TILE = re.compile(r"([A-Z])(\d)")


class GuedelonRule(IntEnum):
    """The rules of end-states.md, by number."""

    PLAYERS = 1
    ROUNDS = 2
    TILES_EXIST = 3
    FLOORS_IN_ORDER = 4


#: The warning: a tile outside the catalog's split of the two unplaced tiles.
SPLIT = "w1"


def _tile_key(name: str) -> str:
    return name.strip().upper()


def possible(catalog: Guedelon, name: str) -> tuple[str, int] | None:
    """The building and floor of a tile some building can hold by the rulebooks (C3 is one, A3 is not)."""
    found = TILE.fullmatch(_tile_key(name))
    if found is None:
        return None
    building = catalog.building(found.group(1))
    floor = int(found.group(2))
    return (building.id, floor) if building is not None and floor < building.floors_max else None


def built_tiles(state: GuedelonEndState, catalog: Guedelon) -> dict[str, tuple[str, int]]:
    """The tiles the file says are built, each a tile some building can hold, by name: building and floor."""
    if state.built == "all":
        return {t.id: (t.building, t.floor) for t in catalog.tiles}
    out: dict[str, tuple[str, int]] = {}
    for name in state.built:
        place = possible(catalog, name)
        if place is not None:
            out[_tile_key(name)] = place
    return out


def mill_built(state: GuedelonEndState, catalog: Guedelon) -> bool:
    """`built: all` builds everything in play, the Mill included; a list names the Mill when it is built."""
    if not state.mill:
        return False
    return state.built == "all" or any(normalise_name(name) == catalog.mill.id for name in state.built)


def castle_size(catalog: Guedelon, tiles: dict[str, tuple[str, int]]) -> int:
    """The fewest tiles of a castle the rulebooks allow that holds every tile named: each building at least its
    `floors_min` and up to its highest floor named, one building as tall as the tallest the rulebooks show."""
    needed = {b.id: b.floors_min for b in catalog.buildings}
    for building, floor in tiles.values():
        needed[building] = max(needed[building], floor + 1)
    total = sum(needed.values())
    tallest = catalog.tallest
    if tallest and max(needed.values(), default=0) < tallest:
        room = [tallest - needed[b.id] for b in catalog.buildings if b.floors_max >= tallest]
        total += min(room, default=0)
    return total


def check(state: GuedelonEndState, catalog: Guedelon, found: Findings) -> None:
    """Report every rule the end state breaks, and every warning, to `found`."""
    info = catalog.info
    # Rule 1. 000/001 box and 11 Solo and Duo Modes: 1 to 4 players (1 and 2 with the apprentice).
    if not info.players_min <= state.players <= info.players_max:
        found.add(GuedelonRule.PLAYERS, ("players",),
                  f"is {state.players}; Guédelon is played by {info.players_min} to {info.players_max}")
    # Rule 2. 000/001 5.1: every round starts by moving the time counter one space; a game has played one at least.
    if state.rounds < 1:
        found.add(GuedelonRule.ROUNDS, ("rounds",), f"is {state.rounds}; a game lasts 1 round or more")
    if state.built == "all":
        return

    known = {t.id for t in catalog.tiles}
    seen: set[str] = set()
    for index, name in enumerate(state.built):
        is_mill = normalise_name(name) == catalog.mill.id
        key = catalog.mill.id if is_mill else _tile_key(name)
        place = None if is_mill else possible(catalog, name)
        # Rule 3. 000/001 Contents and 7.10: six buildings A-F of 3 to 5 floor tiles each, A with 3 (7.10
        # example), D and F with 4 at least (D3 and F3 are named); 000 12 The mill: the Mill tile is in play only
        # with the expansion.
        if is_mill and not state.mill:
            found.add(GuedelonRule.TILES_EXIST, ("built", index),
                      f"names the {catalog.mill.name}, but the {catalog.mill.name} was not in play (mill: false)")
        elif not is_mill and place is None:
            found.add(GuedelonRule.TILES_EXIST, ("built", index),
                      f"{name!r} is not a floor tile any building of the castle can hold (tiles: {_span(catalog)})")
        elif key in seen:
            found.add(GuedelonRule.TILES_EXIST, ("built", index), f"names {key} a second time")
        elif place is not None and key not in known:
            # W1. Which buildings hold the two tiles the rulebooks do not place is the catalog's choice.
            building = catalog.building(place[0])
            assert building is not None  # `possible` found it
            found.check(SPLIT, ("built", index),
                        f"{key} is a tile building {building.id} can hold, but the catalog gives {building.id} "
                        f"{plural(building.floors, 'floor')} ({building.id}0-{building.id}{building.floors - 1})",
                        building.provenance.of("floors"))
        seen.add(key)

    tiles = built_tiles(state, catalog)
    # Rule 3. 000/001 Contents: 22 floor tiles; 7.7 example: floor 4 of the Master tower, so one building has 5.
    size = castle_size(catalog, tiles)
    if size > catalog.components.floor_tiles:
        found.add(GuedelonRule.TILES_EXIST, ("built",),
                  f"names tiles that no one castle holds: with them it would need {size} floor tiles, and the box "
                  f"holds {catalog.components.floor_tiles} (one building of {catalog.tallest} floors, the others "
                  "3 to 5)")

    # Rule 4. 000/001 7.10: floor tiles are built from floor 0 up, and a floor is completed before the next.
    judged: set[str] = set()
    for index, name in enumerate(state.built):
        key = _tile_key(name)
        place = tiles.get(key)
        if place is None or place[1] == 0 or key in judged:  # a tile named twice is judged once
            continue
        judged.add(key)
        letter, floor = place
        missing = [f"{letter}{f}" for f in range(floor) if f"{letter}{f}" not in tiles]
        if missing:
            found.add(GuedelonRule.FLOORS_IN_ORDER, ("built", index),
                      f"{key} is built but {listing(missing)} below it {'is' if len(missing) == 1 else 'are'} "
                      "not; a building rises from floor 0 one floor at a time")


def _span(catalog: Guedelon) -> str:
    """The tiles the rulebooks allow, building by building: `A0-A2, B0-B4, ...`."""
    return ", ".join(f"{b.id}0-{b.id}{b.floors_max - 1}" for b in catalog.buildings)


def score(state: GuedelonEndState, catalog: Guedelon, found: Findings, source: str = "") -> Result:
    """Check every rule, then say whether the team won, lost or is still playing, and in how many rounds."""
    check(state, catalog, found)
    comp = catalog.components
    left = max(0, comp.floor_tiles - len(built_tiles(state, catalog)))
    complete = left == 0
    # 000/001 8: the game is lost when round 18 ends with the castle unfinished; before that, it goes on.
    finished = complete or state.rounds >= comp.rounds
    won = complete and 1 <= state.rounds <= comp.rounds
    mill = ("built" if mill_built(state, catalog) else "not built") if state.mill else None
    year = comp.year_of(state.rounds)
    setting = (("players", str(state.players)), ("events", state.events),
               ("Mill", "in play" if state.mill else "not in play"))
    warnings = tuple(found.warnings)
    if found:
        return Result(GAME, False, finished, tuple(found.violations), None, (), won=False, tiles_left=left,
                      source=source, summary=f"{plural(len(found.violations), 'rule')} broken: not scored",
                      setting=setting, warnings=warnings, mill=mill)
    if won:
        spare = comp.rounds - state.rounds
        summary = (f"won: the castle was finished in round {state.rounds} (year {year}), "
                   + (f"{plural(spare, 'round')} to spare" if spare else "the last round"))
    elif complete:
        summary = (f"lost: the castle was finished in round {state.rounds} (year {year}), "
                   f"{plural(state.rounds - comp.rounds, 'round')} past {comp.last_year}")
    elif finished:
        summary = (f"lost: {plural(left, 'tile')} left to build after round {state.rounds} (year {year}); "
                   f"the castle had to be finished by {comp.last_year}")
    else:
        summary = (f"game in progress: round {state.rounds} (year {year}), {plural(left, 'tile')} left to build "
                   f"and {plural(comp.rounds - state.rounds, 'round')} to go before {comp.last_year} ends")
    if mill is not None:
        summary += f"; the {catalog.mill.name}: {mill}"
    label = str(comp.last_year)
    team = PlayerScore(TEAM, state.rounds, 1, breakdown((
        (f"rounds_to_{label}", min(state.rounds, comp.rounds)),
        (f"rounds_past_{label}", max(0, state.rounds - comp.rounds)),
    )), notes=(("tiles_left", left),))
    return Result(GAME, True, finished, (), TEAM if won else None, (team,), won=won, tiles_left=left,
                  source=source, summary=summary, setting=setting, warnings=warnings, mill=mill)
