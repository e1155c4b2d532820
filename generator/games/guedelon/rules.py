"""Guédelon games: the rules the scorer enforces, and the team's result.

Guédelon is cooperative: the team wins or loses together, against the clock. Violations (end-states.md; each
rests on facts rulebook 000, the English translation, or 001, the French original, states; each check below
cites its section):

1. 1 to 4 players.
2. 1 round or more.
3. Every tile named is a tile the rulebook's buildings can hold (A0-A2; B, C, E up to floor 4; D and F up to
   floor 4), named once, and all of them fit in one castle of 22 tiles with a five-floor building. The Mill is
   not a floor tile: a `built` list names it only in files written before `mill: built` (`mill: true`); it may
   not name it when the Mill was not in play or is said not built.
4. Within a building, floors are completed from floor 0 upwards with none skipped.

Warnings: W1, a tile a building can hold but the catalog's split does not give it (C3, D4...): which buildings
hold the two tiles beyond those the rulebooks place is a house default (the building's `floors`), reported
through :meth:`scoring.findings.Findings.check` with that building's `inferred` record. W2, `mill: true` (a file
written before) with `built: all`: `all` is every floor tile and never the Mill, so it is read as not built, a
house reading of the old files. W3, a floor tile built by the end of round 1 (end-states.md allows a one-round game):
no rulebook bounds the rounds, but what they state leaves the first round too short for any floor, an inference (M
with the easy series, whose events are all known; L with a series that plays events 19-45, whose effects are not);
and the Mill built by the end of round 1, by the same reasoning (000 12.3: its two wooden beams and cut stone are
finished products, carried and placed as a floor's are).

Result (000/001 8 Game end): won when every floor tile is built by the end of the last round (18, year 1245);
lost when round 18 ended with tiles left, or when the castle was finished after round 18 (the team then plays on
to see how many rounds it needs: the record to beat). A file with tiles left and fewer than 18 rounds is a game
in progress (`finished: false`, exit 1, with the standings); with tiles left after round 18 the team has
finished, and lost. The Mill (000 12, "an additional challenge") is reported on its own, built or not built; it
does not decide the win, and `tiles_left` counts floor tiles only. The team's score is the rounds taken; its
breakdown splits them into rounds up to 1245 and rounds past it. The result's :class:`GuedelonOutcome` holds
how the game ended (:class:`GuedelonEnd`), the tiles left and the Mill.

The numbers (players, rounds, the last year, the tiles, the buildings' floors, the Mill) come from the Guédelon
catalog, so a corrected catalog changes them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

from generator.catalog.common import Inferred, every_name
from generator.fields import name_languages, normalise_name
from generator.games.guedelon.catalog import Guedelon
from generator.games.guedelon.end_state import BUILT, LISTED, NOT_BUILT, GuedelonEndState
from generator.i18n import N_, Figure, Language, language
from generator.sayings import Words
from scoring.findings import CheckedValue, Findings, NumberedRule
from scoring.formats import spellings_of
from scoring.result import PlayerScore, Ranking, ResultPart, Standing, breakdown

TEAM = "team"
#: A floor tile's name: its building's letter and its floor's number.
TILE = re.compile(r"([A-Z])(\d)")


class GuedelonRule(NumberedRule):
    """The rules of end-states.md, by number, each with the sections of rulebooks 000 (English) and 001
    (French) it comes from (a check that rests on one of them alone names that one)."""

    PLAYERS = 1, N_("000/001 Contents (4 player boards); 11 Solo and Duo Modes")
    ROUNDS = 2, "000/001 5.1 Advance the Time counter"
    TILES_EXIST = 3, N_("000/001 Contents (22 floor tiles); 7.10 The Castle")
    FLOORS_IN_ORDER = 4, "000/001 7.10 The Castle"


#: The section of rule 3's checks on the Mill.
MILL_SECTION = "000 12 The mill (Expansion)"


class GuedelonWarning(CheckedValue):
    """The warnings: a tile outside the catalog's split of the two unplaced tiles; `mill: true` with `built: all`;
    each with the section of 000/001 whose rule it checks (named when it is a violation: `--strict`)."""

    SPLIT = "w1", N_("000/001 Contents (22 floor tiles); 7.10 The Castle")
    OLD_MILL = "w2", "000 12 The mill (Expansion)"
    FIRST_ROUND = "w3", "000/001 0 Setting up; 5.3 Player Actions; 7.4, 7.5, 7.10 The Castle"


SPLIT, OLD_MILL, FIRST_ROUND = GuedelonWarning

#: What W3 rests on: no rulebook says how soon a floor can be built, but what they state leaves round 1 too short.
#: With the easy series every event is known (000 13): a strong inference from stated facts (M). Another series
#: replaces nine of them with cards whose effects no source gives (game-facts 3(c)): a weaker one (L).
FIRST_ROUND_KNOWN_EVENTS = Inferred(
    ("rounds",),
    N_("an inference from 000/001: the workers start in the castle courtyard and must move elsewhere (0 Setting up, "
        "5.3), the materials start raw in their reserves, and a floor needs a mortar at its building's foot and "
        "finished products, each extracted (7.4), then made in a workshop (7.5), then carried to the castle and "
        "built (7.10): more moves than the workers of one round make; none of the events 1-18 (000 13) builds a "
        "floor"),
    "M")
FIRST_ROUND_UNKNOWN_EVENTS = Inferred(
    ("rounds",),
    N_("an inference from 000/001: the workers start in the castle courtyard and must move elsewhere (0 Setting up, "
        "5.3), the materials start raw in their reserves, and a floor needs a mortar at its building's foot and "
        "finished products, each extracted (7.4), then made in a workshop (7.5), then carried to the castle and "
        "built (7.10): more moves than the workers of one round make; the effects of events 19-45, which this "
        "series plays, are not known"),
    "L")

#: What W3 rests on for the Mill (000 12.3): it needs no mortar nor rope, but two kinds of finished products, each
#: extracted, made and carried to it as a floor's are; the same moves, the same confidence as a floor's.
MILL_FIRST_ROUND_KNOWN_EVENTS = Inferred(
    ("rounds",),
    N_("an inference from 000/001: the workers start in the castle courtyard and must move elsewhere (0 Setting up, "
       "5.3), the materials start raw in their reserves, and the Mill needs two wooden beams and a cut stone "
       "(000 12.3), finished products each extracted (7.4), then made in a workshop (7.5), then carried to the Mill "
       "and placed as a floor's are: more moves than the workers of one round make; none of the events 1-18 "
       "(000 13) builds the Mill"),
    "M")
MILL_FIRST_ROUND_UNKNOWN_EVENTS = Inferred(
    ("rounds",),
    N_("an inference from 000/001: the workers start in the castle courtyard and must move elsewhere (0 Setting up, "
       "5.3), the materials start raw in their reserves, and the Mill needs two wooden beams and a cut stone "
       "(000 12.3), finished products each extracted (7.4), then made in a workshop (7.5), then carried to the Mill "
       "and placed as a floor's are: more moves than the workers of one round make; the effects of events 19-45, "
       "which this series plays, are not known"),
    "L")

#: What W2 rests on: how donjon reads `mill: true` with `built: all`, which files written before could not say
#: otherwise (the Mill then had no key of its own).
OLD_MILL_READING = Inferred(
    ("mill",),
    N_("files written before `mill: built` said `mill: true` for a Mill in play and named it in the `built` list "
    "when built; `built: all` is every floor tile and never the Mill (000 12.3: an additional challenge), so donjon "
    "reads it as not built"),
    "house")


class GuedelonEnd(Enum):
    """How a game of Guédelon stands (000/001 8 Game end)."""

    #: every floor tile built by the end of round 18: won
    BUILT_IN_TIME = "built in time"
    #: every floor tile built, after round 18: lost, and the rounds taken are the record to beat
    BUILT_LATE = "built late"
    #: round 18 (or a later one) ended with tiles left: lost
    TIME_UP = "time up"
    #: tiles left, and round 18 not over: the game goes on
    IN_PROGRESS = "in progress"


@dataclass(frozen=True, slots=True)
class GuedelonOutcome(ResultPart):
    """Guédelon's own part of a result: how the game ended, the floor tiles left to build, and the Mill.

    JSON: `won`, `tiles_left` and, when the Mill is in play, `mill` ("built" or "not built")."""

    #: None when the file breaks rules (it is not judged)
    termination: GuedelonEnd | None
    #: floor tiles left to build (never the Mill)
    tiles_left: int
    #: "built" or "not built"; None when the Mill was not in play
    mill: str | None

    @property
    def won(self) -> bool:
        return self.termination is GuedelonEnd.BUILT_IN_TIME

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"won": self.won, "tiles_left": self.tiles_left}
        if self.mill is not None:
            out["mill"] = self.mill
        return out


def _tile_key(name: str) -> str:
    """A floor tile's name folded as every name the scorer reads is (end-states.md: one normaliser: case, spaces,
    `_` and `-`, accents), then without separators: `A0`, `a0`, `A 0`, `a-0` and `a_0` are the tile A0. No two
    tiles meet: a tile is a letter and a digit, and folding removes only what lies between or around them."""
    return normalise_name(name).replace("-", "").upper()


def possible(catalog: Guedelon, name: str) -> tuple[str, int] | None:
    """The building and floor of a tile some building can hold by the rulebooks (C3 is one, A3 is not)."""
    found = TILE.fullmatch(_tile_key(name))
    if found is None:
        return None
    building = catalog.building(found.group(1))
    floor = int(found.group(2))
    return (building.id, floor) if building is not None and floor < building.floors_max else None


def built_tiles(state: GuedelonEndState, catalog: Guedelon) -> dict[str, tuple[str, int]]:
    """The floor tiles the file says are built, each a tile some building can hold, by name: building and floor
    (`all` is every floor tile of the catalog; the Mill is never one)."""
    if state.built == "all":
        return {t.id: (t.building, t.floor) for t in catalog.tiles}
    out: dict[str, tuple[str, int]] = {}
    for name in state.built:
        place = possible(catalog, name)
        if place is not None:
            out[_tile_key(name)] = place
    return out


def names_the_mill(catalog: Guedelon, name: str) -> bool:
    """Whether a name of a `built` list is the Mill: by its id, or by its name in the catalog's language or any
    language the catalog translates it into (`Moulin`), folded as every name is."""
    key = normalise_name(name)
    return key == catalog.mill.id or any(key == normalise_name(other) for other in every_name(catalog.mill))


def _mill_in(catalog: Guedelon, name: str, lang: str) -> bool:
    """Whether `name`, a name of the Mill, is the Mill's name in the language `lang` (the id is English's word, as
    the format's ids are), by the rule every guess of a document's language asks (generator.fields.name_languages)."""
    key = normalise_name(name)
    names = {normalise_name(other): catalog.mill.id for other in every_name(catalog.mill)}  # (the Mill has no aliases)
    spelled = name_languages(spellings_of([catalog.mill], catalog.info.lang), names).get(key, ())
    return lang in spelled or (lang == "en" and key == catalog.mill.id)


def _names_mill(state: GuedelonEndState, catalog: Guedelon) -> bool:
    return state.built != "all" and any(names_the_mill(catalog, name) for name in state.built)


def mill_built(state: GuedelonEndState, catalog: Guedelon) -> str | None:
    """The Mill: "built" or "not built", or None when it was not in play. `mill: true` (files written before) is
    built when the `built` list names the Mill, and not with `built: all`, which names floor tiles only."""
    if state.mill is None:
        return None
    built = state.mill == BUILT or (state.mill == LISTED and _names_mill(state, catalog))
    return "built" if built else "not built"


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


def check(state: GuedelonEndState, catalog: Guedelon, found: Findings) -> Standing:
    """Report every rule the end state breaks, and every warning, to `found`, and say how the game stands."""
    info = catalog.info
    # Rule 1. 000/001 box and 11 Solo and Duo Modes: 1 to 4 players (1 and 2 with the apprentice).
    if not info.players_min <= state.players <= info.players_max:
        found.add(GuedelonRule.PLAYERS, ("players",),
                  found._("is {players}; Guédelon is played by {low} to {high}", players=Figure(state.players),
                          low=info.players_min, high=info.players_max))
    # Rule 2. 000/001 5.1: every round starts by moving the time counter one space; a game has played one at least.
    if state.rounds < 1:
        found.add(GuedelonRule.ROUNDS, ("rounds",), found._("is {rounds}; a game lasts 1 round or more",
                                                            rounds=Figure(state.rounds)))
    # W2. 000 12.3: the Mill is an additional challenge, not a floor of the castle; `built: all` says every floor
    # tile is built and nothing about the Mill, which files written before `mill: built` had no other way to say.
    if state.mill == LISTED and state.built == "all":
        found.check(OLD_MILL, ("mill",),
                    found._("is true with built: all, which names the floor tiles only: the Mill is read as not "
                            "built; write `mill: built` if it was"), OLD_MILL_READING)
    if state.built != "all":
        _check_tiles(state, catalog, found)
    # W3. 000/001 0 Setting up, 5.3, 7.4, 7.5, 7.10: no floor can be finished in the first round (see
    # FIRST_ROUND_KNOWN_EVENTS); no rulebook says so in words, so it is a warning. Rule 2 judges a round below 1.
    built = len(built_tiles(state, catalog))
    known = any(s.id == state.events and s.replaces == 0 for s in catalog.series)
    if state.rounds == 1 and built:
        found.check(FIRST_ROUND, ("rounds",),
                    found.ngettext("is 1 with {n} floor tile built; no floor can be finished in the first round",
                                   "is 1 with {n} floor tiles built; no floor can be finished in the first round",
                                   built),
                    FIRST_ROUND_KNOWN_EVENTS if known else FIRST_ROUND_UNKNOWN_EVENTS)
    # W3 for the Mill. 000 12.3: its wooden beams and cut stone are finished products, shipped and placed as a
    # floor's: the same chain of moves as a floor (see MILL_FIRST_ROUND_KNOWN_EVENTS); said at `mill`, its key.
    if state.rounds == 1 and mill_built(state, catalog) == "built":
        found.check(FIRST_ROUND, ("mill",),
                    found._("is built with rounds: 1; the Mill cannot be finished in the first round"),
                    MILL_FIRST_ROUND_KNOWN_EVENTS if known else MILL_FIRST_ROUND_UNKNOWN_EVENTS)
    # the result's header is read by players: the event series by its name in the language the file names things
    # in (the catalog the rules are given: intermédiaire, Mittel), as Guildhall's sets and the castle's versions
    series = next((s.name for s in catalog.series if s.id == state.events), state.events)
    return Standing(finished=_ending(state, catalog) is not GuedelonEnd.IN_PROGRESS,
                    setting=((found._("players"), str(state.players)), (found._("events"), series),
                             (found._("Mill"), found._("not in play") if state.mill is None else found._("in play"))),
                    parts=(outcome(state, catalog, judged=not found),))


def _check_tiles(state: GuedelonEndState, catalog: Guedelon, found: Findings) -> None:
    """Rules 3 and 4 and W1 on a list of the tiles built."""
    assert state.built != "all"
    known = {t.id for t in catalog.tiles}
    seen: set[str] = set()
    for index, name in enumerate(state.built):
        is_mill = names_the_mill(catalog, name)
        key = catalog.mill.id if is_mill else _tile_key(name)
        place = None if is_mill else possible(catalog, name)
        # Rule 3. 000/001 Contents and 7.10: six buildings A-F of 3 to 5 floor tiles each, A with 3 (7.10
        # example), D and F with 4 at least (D3 and F3 are named); 000 12 The mill: the Mill tile is in play only
        # with the expansion, and is not a floor tile (a list names it only in files written before `mill: built`).
        # The Mill is said as the list writes it: in the message's own words when the list names it in the
        # message's language (`Mill` or the id `mill` in English, `Moulin` in French), else bare as written
        # (`Mühle` in an English message): an article of one language before a name in another ("names the
        # Mühle") fits neither.
        if is_mill and state.mill is None:
            found.add(GuedelonRule.TILES_EXIST, ("built", index),
                      found._("names the Mill, but the Mill was not in play (mill: false)")
                      if _mill_in(catalog, name, found.lang.base) else
                      found._("names {mill}, but the Mill was not in play (mill: false)", mill=name), MILL_SECTION)
        elif is_mill and state.mill == NOT_BUILT:
            found.add(GuedelonRule.TILES_EXIST, ("built", index),
                      found._("names the Mill, but mill: not-built says it was not built")
                      if _mill_in(catalog, name, found.lang.base) else
                      found._("names {mill}, but mill: not-built says the Mill was not built", mill=name),
                      MILL_SECTION)
        elif not is_mill and place is None:
            found.add(GuedelonRule.TILES_EXIST, ("built", index),
                      found._("{name!r} is not a floor tile any building of the castle can hold (tiles: {tiles})",
                              name=name, tiles=_span(catalog)))
        elif key in seen:
            found.add(GuedelonRule.TILES_EXIST, ("built", index),
                      found._("names {tile} a second time", tile=name if is_mill else key))  # the Mill as written
        elif place is not None and key not in known:
            # W1. Which buildings hold the two tiles the rulebooks do not place is the catalog's choice.
            building = catalog.building(place[0])
            assert building is not None  # `possible` found it
            found.check(SPLIT, ("built", index),
                        found._("{tile} is a tile building {building} can hold, but the catalog gives {building} "
                                "{floors} ({building}0-{building}{top})", tile=key, building=building.id,
                                floors=found.ngettext("{n} floor", "{n} floors", building.floors),
                                top=building.floors - 1),
                        building.provenance.of("floors"))
        seen.add(key)

    tiles = built_tiles(state, catalog)
    # Rule 3. 000/001 Contents: 22 floor tiles; 7.7 example: floor 4 of the Master tower, so one building has 5.
    size = castle_size(catalog, tiles)
    if size > catalog.components.floor_tiles:
        found.add(GuedelonRule.TILES_EXIST, ("built",),
                  found._("names tiles that no one castle holds: with them it would need {size} floor tiles, and the "
                          "box holds {tiles} (one building of {tallest} floors, the others 3 to 5)", size=size,
                          tiles=catalog.components.floor_tiles, tallest=catalog.tallest))

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
                      found.ngettext("{tile} is built but {missing} below it is not; a building rises from floor 0 "
                                     "one floor at a time",
                                     "{tile} is built but {missing} below it are not; a building rises from floor 0 "
                                     "one floor at a time", len(missing), tile=key, missing=found.listing(missing)))


def _tiles_left(state: GuedelonEndState, catalog: Guedelon) -> int:
    return max(0, catalog.components.floor_tiles - len(built_tiles(state, catalog)))


def _ending(state: GuedelonEndState, catalog: Guedelon) -> GuedelonEnd:
    """How the game stands by its floor tiles and its rounds (000/001 8): the castle built by the end of round 18
    wins; round 18 ending with tiles left loses; after it the team may play on to see how long it takes."""
    last = catalog.components.rounds
    if _tiles_left(state, catalog) == 0:
        return GuedelonEnd.BUILT_IN_TIME if state.rounds <= last else GuedelonEnd.BUILT_LATE
    return GuedelonEnd.TIME_UP if state.rounds >= last else GuedelonEnd.IN_PROGRESS


def outcome(state: GuedelonEndState, catalog: Guedelon, judged: bool = True) -> GuedelonOutcome:
    """The game's outcome: how it ended (None when the file is not `judged`: it breaks rules), the floor tiles
    left and the Mill."""
    return GuedelonOutcome(_ending(state, catalog) if judged else None, _tiles_left(state, catalog),
                           mill_built(state, catalog))


def _span(catalog: Guedelon) -> str:
    """The tiles the rulebooks allow, building by building: `A0-A2, B0-B4, ...`."""
    return ", ".join(f"{b.id}0-{b.id}{b.floors_max - 1}" for b in catalog.buildings)


#: The Mill's state as the result's summary says it, by the Mill's name (the JSON's `mill` keeps "built" and "not
#: built").
MILL_SAID = {"built": N_("{mill}: built"), "not built": N_("{mill}: not built")}


def rank(state: GuedelonEndState, catalog: Guedelon, lang: Language | None = None) -> Ranking:
    """The team's result: won, lost or still playing, and in how many rounds; the summary in `lang` (English)."""
    say = Words(lang or language())
    comp = catalog.components
    result = outcome(state, catalog)
    left = result.tiles_left
    year = comp.year_of(state.rounds)
    # a year is a name, not a quantity: 1244, never 1,244 or 1 244
    at = {"round": state.rounds, "year": str(year), "last": str(comp.last_year)}
    if result.termination is GuedelonEnd.BUILT_IN_TIME:
        spare = comp.rounds - state.rounds
        summary = (say._("won: the castle was finished in round {round} (year {year}), {spare}", **at,
                         spare=say.ngettext("{n} round to spare", "{n} rounds to spare", spare) if spare
                         else say._("the last round")))
    elif result.termination is GuedelonEnd.BUILT_LATE:
        summary = say._("lost: the castle was finished in round {round} (year {year}), {late} past {last}", **at,
                        late=say.ngettext("{n} round", "{n} rounds", state.rounds - comp.rounds))
    elif result.termination is GuedelonEnd.TIME_UP:
        summary = say._("lost: {tiles} left to build after round {round} (year {year}); the castle had to be "
                        "finished by {last}", **at, tiles=say.ngettext("{n} tile", "{n} tiles", left))
    else:
        summary = say._("game in progress: round {round} (year {year}), {tiles} left to build and {rounds} to go "
                        "before {last} ends", **at, tiles=say.ngettext("{n} tile", "{n} tiles", left),
                        rounds=say.ngettext("{n} round", "{n} rounds", comp.rounds - state.rounds))
    if result.mill is not None:
        # the Mill by its name in the file's language (the catalog the rules saw: Moulin, Mühle), with no English
        # article before it, which would not fit a French or German name
        # joined as the language joins two clauses (French: a narrow no-break space before the semicolon)
        summary = say._("{first}; {then}", first=summary,
                        then=say._(MILL_SAID.get(result.mill, "{mill}: " + result.mill), mill=catalog.mill.name))
    label = str(comp.last_year)
    team = PlayerScore(TEAM, state.rounds, 1, breakdown((
        (f"rounds_to_{label}", min(state.rounds, comp.rounds)),
        (f"rounds_past_{label}", max(0, state.rounds - comp.rounds)),
    )), notes=(("tiles_left", left),))
    return Ranking((team,), TEAM if result.won else None, summary)
