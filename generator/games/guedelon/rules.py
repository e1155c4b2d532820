"""Guédelon games: the rules the scorer enforces, and the team's result.

Guédelon is cooperative: the team wins or loses together, against the clock. Rules enforced (end-states.md;
each check below cites the section of rulebook 000, the English translation, or 001, the French original):

1. 1 to 4 players.
2. 1 round or more.
3. Every tile named exists in the floor-tile catalog (and `mill` only when the Mill is in play), once.
4. Within a building, floors are completed from floor 0 upwards with none skipped.

Result: won when every floor tile (and the Mill, when in play) is built within the 18 rounds, by 1245; otherwise
lost, with the tiles left or the rounds past 1245 (end-states.md). A file is always a finished game: it records
the castle completed or play stopped (`rounds` is when), so tiles left when play stopped make a lost game, even
before round 18. The team's score is the rounds taken, the record to beat; its breakdown splits them into rounds
up to 1245 and rounds past it.

The numbers (players, rounds, the last year, the tiles and their buildings, the Mill) come from the Guédelon
catalog, so a corrected catalog (the split of the 22 tiles between buildings is partly a house default)
changes them.
"""

from __future__ import annotations

from enum import IntEnum

from generator.fields import normalise_name
from generator.games.guedelon.catalog import Guedelon
from generator.games.guedelon.end_state import GuedelonEndState
from generator.wording import listing, plural
from scoring.findings import Findings
from scoring.result import PlayerScore, Result, breakdown

GAME = "guedelon"
TEAM = "team"


class GuedelonRule(IntEnum):
    """The rules of end-states.md, by number."""

    PLAYERS = 1
    ROUNDS = 2
    TILES_EXIST = 3
    FLOORS_IN_ORDER = 4


def _tile_key(name: str) -> str:
    return name.strip().upper()


def built_set(state: GuedelonEndState, catalog: Guedelon) -> tuple[set[str], bool]:
    """The catalog tiles the file says are built, and whether the Mill is."""
    if state.built == "all":
        return {t.id for t in catalog.tiles}, state.mill
    known = {t.id for t in catalog.tiles}
    tiles = {_tile_key(name) for name in state.built} & known
    mill = any(normalise_name(name) == catalog.mill.id for name in state.built)
    return tiles, mill


def check(state: GuedelonEndState, catalog: Guedelon, found: Findings) -> None:
    """Report every rule the end state breaks to `found`."""
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

    known = {t.id: t for t in catalog.tiles}
    seen: set[str] = set()
    for index, name in enumerate(state.built):
        is_mill = normalise_name(name) == catalog.mill.id
        key = catalog.mill.id if is_mill else _tile_key(name)
        # Rule 3. 000/001 Contents and 7.10: the castle's floor tiles are those of the catalog (22, A0 to F3);
        # 000 12 The mill: the Mill tile is in play only with the expansion.
        if is_mill and not state.mill:
            found.add(GuedelonRule.TILES_EXIST, ("built", index),
                      f"names the {catalog.mill.name}, but the {catalog.mill.name} was not in play (mill: false)")
        elif not is_mill and key not in known:
            found.add(GuedelonRule.TILES_EXIST, ("built", index),
                      f"{name!r} is not a floor tile of the castle (tiles: {_span(catalog)})")
        elif key in seen:
            found.add(GuedelonRule.TILES_EXIST, ("built", index), f"names {key} a second time")
        seen.add(key)

    # Rule 4. 000/001 7.10: floor tiles are built from floor 0 up, and a floor is completed before the next.
    tiles, _ = built_set(state, catalog)
    judged: set[str] = set()
    for index, name in enumerate(state.built):
        tile = known.get(_tile_key(name))
        if tile is None or tile.floor == 0 or tile.id in judged:  # a tile named twice is judged once
            continue
        judged.add(tile.id)
        missing = [t.id for t in catalog.tiles_of(tile.building) if t.floor < tile.floor and t.id not in tiles]
        if missing:
            found.add(GuedelonRule.FLOORS_IN_ORDER, ("built", index),
                      f"{tile.id} is built but {listing(missing)} below it {'is' if len(missing) == 1 else 'are'} "
                      "not; a building rises from floor 0 one floor at a time")


def _span(catalog: Guedelon) -> str:
    return ", ".join(f"{b.id}0-{b.id}{b.floors - 1}" for b in catalog.buildings)


def score(state: GuedelonEndState, catalog: Guedelon, found: Findings, source: str = "") -> Result:
    """Check every rule, then say whether the team won and in how many rounds."""
    check(state, catalog, found)
    comp = catalog.components
    tiles, mill = built_set(state, catalog)
    total = len(catalog.tiles) + (1 if state.mill else 0)
    left = total - len(tiles) - (1 if state.mill and mill else 0)
    complete = left == 0
    # end-states.md: finished means the castle was completed or play stopped, which every file records.
    finished = True
    won = complete and 1 <= state.rounds <= comp.rounds
    year = comp.year_of(state.rounds)
    setting = (("players", str(state.players)), ("events", state.events),
               ("Mill", "in play" if state.mill else "not in play"))
    if found:
        return Result(GAME, False, finished, tuple(found.violations), None, (), won=False, tiles_left=left,
                      source=source, summary=f"{plural(len(found.violations), 'rule')} broken: not scored",
                      setting=setting)
    if won:
        spare = comp.rounds - state.rounds
        summary = (f"won: the castle was finished in round {state.rounds} (year {year}), "
                   + (f"{plural(spare, 'round')} to spare" if spare else "the last round"))
    elif complete:
        summary = (f"lost: the castle was finished in round {state.rounds} (year {year}), "
                   f"{plural(state.rounds - comp.rounds, 'round')} past {comp.last_year}")
    elif state.rounds >= comp.rounds:
        summary = (f"lost: {plural(left, 'tile')} left to build after round {state.rounds} (year {year}); "
                   f"the castle had to be finished by {comp.last_year}")
    else:
        summary = (f"lost: play stopped after round {state.rounds} (year {year}) with {plural(left, 'tile')} "
                   f"left to build")
    label = str(comp.last_year)
    team = PlayerScore(TEAM, state.rounds, 1, breakdown((
        (f"rounds_to_{label}", min(state.rounds, comp.rounds)),
        (f"rounds_past_{label}", max(0, state.rounds - comp.rounds)),
    )), notes=(("tiles_left", left),))
    return Result(GAME, True, finished, (), TEAM if won else None, (team,), won=won, tiles_left=left,
                  source=source, summary=summary, setting=setting)
