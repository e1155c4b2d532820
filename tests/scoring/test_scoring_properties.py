"""Property tests: random valid end states always score, as computed here independently; random mutations and
junk always give a clear error (exit 2) or a result (exit 0 or 1), never an exception.

The budgets are hypothesis settings profiles (tests/conftest.py): a few dozen inputs per property in the normal
run, thousands with `pytest -m fuzz`.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.content import load_content
from generator.errors import DonjonError, ExitCode
from generator.fields import control_character
from scoring.engine import Scorer
from scoring.formats import name_key
from scoring.result import Result
from scoring.table import render
from generator.games.guildhall import GAME as GUILDHALL
from generator.games.guedelon import GAME as GUEDELON
from generator.games.guedelon.rules import GuedelonOutcome
from generator.games.castle import GAME as CASTLE

CONTENT = load_content()
GH = CONTENT.catalog(GUILDHALL)
CA = CONTENT.catalog(CASTLE)
GD = CONTENT.catalog(GUEDELON)
assert GH is not None and CA is not None and GD is not None
SCORER = Scorer(CONTENT)

def loose(name: str) -> st.SearchStrategy[str]:
    """A name as a person might write it: as is, in capitals, in title case with spaces, with underscores."""
    return st.sampled_from([name, name.upper(), name.replace("-", " ").title(), name.replace("-", "_")])


# --- Guildhall ------------------------------------------------------------------------------------------------------

def chapter_bound(rows: list[dict[str, Any]], in_play: list[str]) -> int:
    """Rule 6, computed here: the completed chapters all players can hold together, summed over the professions in
    play, the fewest copies of one of the profession's five cards not face up (each chapter holds one of each)."""
    assert GH is not None
    up = Counter((profession.lower().replace(" ", "-").replace("_", "-"), colour.lower())
                 for row in rows for profession, colours in row["guildhall"].items() for colour in colours)
    return sum(min(GH.components.copies_per_card - up[p, c.id] for c in GH.colours) for p in in_play)


@st.composite
def guildhall_states(draw: st.DrawFn, finished: bool = True) -> dict[str, Any]:
    assert GH is not None
    comp = GH.components
    players = draw(st.integers(GH.info.players_min, GH.info.players_max))
    vp_set = draw(st.sampled_from([s.id for s in GH.sets]))
    how = draw(st.sampled_from(["default", "set", "six", "all"]))
    state: dict[str, Any] = {"game": draw(loose("guildhall")), "vp_set": draw(loose(vp_set))}
    yucata = draw(st.booleans())
    if yucata:
        state["variant"] = draw(loose("yucata"))
    if how == "default":
        in_play = [p.id for p in GH.professions_of(vp_set)]
    elif how == "set":
        chosen = draw(st.sampled_from([s.id for s in GH.sets]))
        in_play = [p.id for p in GH.professions_of(chosen)]
        state["professions"] = draw(loose(chosen))
    else:
        every = [p.id for p in GH.professions]
        in_play = every if how == "all" else draw(st.permutations(every))[:comp.professions_per_set]
        state["professions"] = [draw(loose(p)) for p in in_play]
    colours = [c.id for c in GH.colours]
    supply = GH.vp_supply(vp_set, players)
    pool = list(draw(st.permutations([value for value, copies in supply.items() for _ in range(copies)])))
    ender = draw(st.integers(0, players - 1))
    # names as the scorer tells players apart (scoring.formats.name_key: no case, accents or surrounding spaces)
    named = st.text(min_size=1, max_size=8).filter(lambda s: bool(name_key(s)) and control_character(s) is None)
    names = draw(st.lists(named, min_size=players, max_size=players, unique_by=name_key))
    rows: list[dict[str, Any]] = []
    for index in range(players):
        hall: dict[str, list[str]] = {}
        for profession in draw(st.lists(st.sampled_from(in_play), unique=True, max_size=4)):
            present = draw(st.lists(st.sampled_from(colours), unique=True, max_size=len(colours) - 1))
            hall[draw(loose(profession))] = [draw(loose(c)) for c in present]
        tokens = draw(st.integers(0, 6))
        cards: list[int] = []
        wanted = draw(st.integers(0, 5))
        limit = comp.win_vp - 1 - tokens
        for value in list(pool):
            if len(cards) >= wanted:
                break
            if index == ender and finished or sum(cards) + value <= limit:
                cards.append(value)
                pool.remove(value)
        if index == ender and finished:
            tokens = max(0, comp.win_vp - sum(cards)) + draw(st.integers(0, 8))
        rows.append({"name": names[index], "guildhall": hall, "completed_chapters": 0, "vp_cards": cards,
                     "vp_tokens": tokens})
    # Completed chapters within rule 6's bound; up to 3 each (rule 5), or more on Yucata for anyone but the player
    # who ended the game (whose fourth would only warn).
    left = chapter_bound(rows, in_play)
    for index, row in enumerate(rows):
        most = comp.max_completed_chapters if not yucata or (index == ender and finished) else left
        row["completed_chapters"] = draw(st.integers(0, max(0, min(most, left))))
        left -= row["completed_chapters"]
    state["players"] = rows
    if finished and draw(st.integers(0, 2)):  # optional: the only player with 20 VP ended the game
        state["ended_by"] = names[ender].strip().upper() if draw(st.booleans()) else names[ender]
    return state


def guildhall_expected(state: dict[str, Any]) -> list[int]:
    return [sum(p["vp_cards"]) + p["vp_tokens"] for p in state["players"]]


def check_valid_guildhall_games_score(state: dict[str, Any]) -> None:
    # the chapter bound of rule 6 holds for every generated game
    assert sum(p["completed_chapters"] for p in state["players"]) <= chapter_bound(state["players"],
                                                                                professions_of(state))
    result = SCORER.score(state)
    assert result.violations == () and result.warnings == () and result.valid and result.finished
    assert [p.score for p in result.players] == guildhall_expected(state)
    winner = next(p for p in result.players if p.place == 1)
    assert result.winner == winner.name and winner.score >= 20
    assert sum(1 for p in result.players if p.place == 1) == 1
    check_consistent(result)


def professions_of(state: dict[str, Any]) -> list[str]:
    """The professions in play in a generated state, as ids."""
    assert GH is not None
    chosen = state.get("professions", state["vp_set"])
    if isinstance(chosen, list):
        return [p.lower().replace(" ", "-").replace("_", "-") for p in chosen]
    return [p.id for p in GH.professions_of(chosen.lower().replace(" ", "-").replace("_", "-"))]


def check_one_chapter_beyond_the_bound_breaks_rule_6(state: dict[str, Any]) -> None:
    """On Yucata only rule 6 bounds the chapters of a player who did not end the game: one more than it allows is
    a violation of rule 6, and of nothing else."""
    state = copy.deepcopy(state)
    state["variant"] = "yucata"
    winner = SCORER.score(state).winner
    other = next(row for row in state["players"] if row["name"] != winner)
    total = sum(row["completed_chapters"] for row in state["players"])
    other["completed_chapters"] += chapter_bound(state["players"], professions_of(state)) - total + 1
    result = SCORER.score(state)
    assert [v.rule for v in result.violations] == ["guildhall-6"], result.violations


def check_guildhall_games_in_progress(state: dict[str, Any]) -> None:
    result = SCORER.score(state)
    assert result.valid and not result.finished and result.winner is None
    assert result.exit_code == ExitCode.INVALID
    assert all(p.score < 20 for p in result.players)
    check_consistent(result)


# --- Once Upon a Castle ---------------------------------------------------------------------------------------------

@st.composite
def castle_states(draw: st.DrawFn) -> dict[str, Any]:
    assert CA is not None
    sheet = CA.sheet
    version = draw(st.sampled_from([v.id for v in CA.versions]))
    count = draw(st.integers(1, 4))
    pool = list(draw(st.permutations([g.id for g in CA.guests_of("great-architect")])))
    sun = draw(st.none() | st.integers(0, count - 1))
    cloud = draw(st.none() | st.integers(0, count - 1))
    groups = sorted({0, *(g.points for g in sheet.resident_track.groups)})
    span = sheet.apprentice_guest_vp
    sheets = []
    for index in range(count):
        full = index == cloud
        floors = sheet.donjon_floors if full else draw(st.integers(0, sheet.donjon_floors))
        tower_count = sheet.towers if full or index == sun else draw(st.integers(0, sheet.towers))
        towers = draw(st.lists(st.sampled_from(sheet.tower_values.values), min_size=tower_count,
                               max_size=tower_count))
        wall_count = sheet.walls if full else draw(st.integers(0, sheet.walls))
        flags = draw(st.lists(st.integers(0, 2), min_size=wall_count, max_size=wall_count))
        doubles = 0
        walls = []
        for count_here in flags:
            if count_here == 2:
                doubles += 1
                if doubles > sheet.walls_with_two_flags:
                    count_here = 1
            walls.append({"flags": draw(st.lists(st.sampled_from(sheet.flag_values.values), min_size=count_here,
                                                 max_size=count_here))})
        entry: dict[str, Any] = {"player": f"P{index}", "donjon_floors": floors, "towers": towers, "walls": walls}
        if index == sun:
            entry["sun"] = True
        if index == cloud:
            entry["cloud"] = True
        if version == "great-architect" and draw(st.booleans()):  # only the Shepherdess draws sky clouds
            entry["sky_clouds"] = draw(st.integers(0, 3))
        if draw(st.booleans()):
            entry["residents"] = draw(st.integers(0, sheet.resident_track.length))
        else:
            entry["resident_points"] = draw(st.sampled_from(groups))
        if version != "great-architect":
            entry["guests"] = draw(st.lists(st.integers(span.min, span.max), min_size=floors, max_size=floors))
        sheets.append(entry)
    if version == "great-architect":
        # guests come in with floors and steals only move them (castle rule 4): the file's castles hold at most their
        # floors plus 4 per player not in it, exactly their floors when all 4 players are here; any castle may hold
        # them
        floors_built = sum(entry["donjon_floors"] for entry in sheets)
        most = floors_built + CA.sheet.donjon_floors * (CA.components.personal_boards - count)
        total = draw(st.integers(floors_built if count == CA.components.personal_boards else 0, min(most, len(pool))))
        owners = draw(st.lists(st.integers(0, count - 1), min_size=total, max_size=total))
        for entry in sheets:
            entry["guests"] = []
        for owner in owners:
            sheets[owner]["guests"].append(draw(loose(pool.pop())))
        held = {g.lower().replace(" ", "-").replace("_", "-") for entry in sheets for g in entry["guests"]}
        if count == CA.components.personal_boards and "shepherdess" not in held:
            # she alone draws sky clouds and never leaves the castles (castle rule 7): with every player's sheet
            # here, sky clouds need her in one of them
            for entry in sheets:
                entry.pop("sky_clouds", None)
    return {"game": draw(loose("once-upon-a-castle")), "version": draw(loose(version)), "sheets": sheets}


def castle_expected(entry: dict[str, Any], version: str) -> int:
    """A castle's score computed here from the rules, with the catalog's numbers."""
    assert CA is not None
    sheet = CA.sheet
    flags = [f for wall in entry["walls"] for f in wall["flags"]]
    total: int = sum(entry["towers"]) + sum(flags)
    total += sheet.sun_points * entry.get("sun", False) + sheet.cloud_points * entry.get("cloud", False)
    total += sheet.sky_cloud_points * entry.get("sky_clouds", 0)
    if "residents" in entry:
        total += next((g.points for g in sheet.resident_track.groups
                       if g.first <= entry["residents"] <= g.last), 0)
    else:
        total += entry["resident_points"]
    if not version.lower().startswith("great"):
        apprentice_guests: int = sum(entry["guests"])  # the VP printed on each guest card
        return total + apprentice_guests
    guests = [CA.guest(g.lower().replace(" ", "-").replace("_", "-")) for g in entry["guests"]]
    crowns = sum(1 for g in guests if g is not None and g.kind == "crown")
    each = {"crown-guest": crowns, "donjon-floor": entry["donjon_floors"], "wall": len(entry["walls"]),
            "tower": len(entry["towers"]), "flag": len(flags)}
    for guest in guests:
        assert guest is not None
        total += guest.scoring.flat if guest.scoring.flat is not None else each[guest.scoring.per or ""]
    return total


def check_valid_castles_score(state: dict[str, Any]) -> None:
    result = SCORER.score(state)
    assert result.violations == () and result.valid and result.exit_code == ExitCode.OK
    # every value is one the catalog holds; a file in which no sheet has the end Cloud warns (W4)
    ended = any(entry.get("cloud") for entry in state["sheets"])
    assert [w.rule for w in result.warnings] == ([] if ended else ["once-upon-a-castle-w4"])
    expected = [castle_expected(entry, state["version"]) for entry in state["sheets"]]
    assert [p.score for p in result.players] == expected
    assert [p.place for p in result.players] == [1 + sum(o > e for o in expected) for e in expected]
    assert (result.winner is None) == (expected.count(max(expected)) > 1)
    check_consistent(result)


# --- Guédelon -------------------------------------------------------------------------------------------------------

@st.composite
def guedelon_states(draw: st.DrawFn) -> dict[str, Any]:
    assert GD is not None
    # the Mill: not in play (left out, or false), built, not built, or `true` as files written before said "in play"
    mill = draw(st.sampled_from([None, False, "built", "Not built", "not_built", True]))
    state: dict[str, Any] = {"game": draw(loose("guedelon")),
                             "players": draw(st.integers(GD.info.players_min, GD.info.players_max)),
                             "events": draw(loose(draw(st.sampled_from([s.id for s in GD.series])))),
                             "rounds": draw(st.integers(1, 3 * GD.components.rounds))}
    if mill is not None:
        state["mill"] = mill
    if draw(st.integers(0, 4)) == 0:
        state["built"] = draw(st.sampled_from(["all", "ALL", " All "]))
        return state
    built = []
    for building in GD.buildings:
        height = draw(st.integers(0, building.floors))
        built += [f"{building.id}{floor}" for floor in range(height)]
    if mill in (True, "built") and draw(st.booleans()):  # named in the list: built (the old way; or said twice)
        built.append(draw(loose(GD.mill.id)))
    state["built"] = [draw(st.sampled_from([t, t.lower(), f" {t} "])) for t in draw(st.permutations(built))]
    return state


def check_valid_guedelon_games_score(state: dict[str, Any]) -> None:
    assert GD is not None
    result = SCORER.score(state)
    outcome = result.part(GuedelonOutcome)
    assert outcome is not None
    rounds = state["rounds"]
    key = state.get("mill") or False
    if isinstance(key, str):
        key = key.lower().replace(" ", "-").replace("_", "-")
    listed = not isinstance(state["built"], str) and GD.mill.id in [t.strip().lower() for t in state["built"]]
    in_play = key is not False
    built = key == "built" or (key is True and listed)
    if isinstance(state["built"], str):
        left = 0
    else:
        tiles = {t.strip().upper() for t in state["built"]} - {GD.mill.id.upper()}
        left = len(GD.tiles) - len(tiles)
    # `tiles_left` counts floor tiles only; `mill: true` with `built: all` warns (the Mill read as not built), and
    # so does a floor built in round 1 (W3), and the Mill built in round 1 (W3, at `mill`)
    assert result.valid and outcome.tiles_left == left
    assert [w.rule for w in result.warnings] == (
        (["guedelon-w2"] if key is True and isinstance(state["built"], str) else [])
        + (["guedelon-w3"] if rounds == 1 and left < len(GD.tiles) else [])
        + (["guedelon-w3"] if rounds == 1 and outcome.mill == "built" else []))
    assert outcome.won is (left == 0 and rounds <= GD.components.rounds)
    # 000/001 8: lost only when round 18 ends unfinished; with tiles left before that, the game goes on
    assert result.finished is (left == 0 or rounds >= GD.components.rounds)
    assert result.exit_code == (0 if result.finished else 1)
    # the Mill is reported on its own and never decides the win
    assert outcome.mill == (None if not in_play else "built" if built else "not built")
    assert result.winner == ("team" if outcome.won else None)
    assert [(p.name, p.score, p.place) for p in result.players] == [("team", rounds, 1)]
    check_consistent(result)


# --- mutations and junk ---------------------------------------------------------------------------------------------

#: Values a YAML file can hold.
WRITABLE = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**30), 10**30), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20), st.lists(st.integers(-3, 30), max_size=8),
    st.dictionaries(st.text(max_size=8), st.integers(-3, 30), max_size=4),
    st.sampled_from(["queen", "red", "hunter", "A0", "all", "mill", "job-faire", "great-architect", "Ana"]),
)
#: Values a mapping given to the library can hold besides: integers too long for Python to write out.
JUNK = st.one_of(WRITABLE, st.sampled_from([10**5000, -(10**5000), 2**63, -(2**63)]))


def paths_of(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += paths_of(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out += paths_of(value, (*prefix, index))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[dict[str, Any]]) -> dict[str, Any]:
    state = copy.deepcopy(draw(base))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths_of(state)[1:]))
        parent = state
        for part in path[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["replace", "delete", "add", "grow", "number"]))
        key = path[-1]
        if action == "replace":
            parent[key] = draw(JUNK)
        elif action == "delete":
            del parent[key]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=10))] = draw(JUNK)
        elif action == "grow" and isinstance(parent[key], list):
            parent[key].extend(draw(st.lists(JUNK, max_size=6)))
        elif isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] += draw(st.integers(-5, 5))
        break_here = not paths_of(state)[1:]
        if break_here:
            break
    return state


ANY_STATE = st.one_of(guildhall_states(), guildhall_states(finished=False), castle_states(), guedelon_states())


def score_or_error(source: Path | dict[str, Any]) -> Result | None:
    """Score `source`; an error must be one of donjon's (a clear message), a result must be consistent."""
    try:
        result = SCORER.score(source)
    except DonjonError as err:
        assert err.exit_code == ExitCode.UNREADABLE, err
        assert str(err).strip()
        return None
    check_consistent(result)
    return result


def check_consistent(result: Result) -> None:
    assert result.exit_code in (ExitCode.OK, ExitCode.INVALID)
    assert result.valid == (not result.violations)
    if not result.valid:
        assert result.players == () and result.winner is None and result.exit_code == ExitCode.INVALID
    for player in result.players:
        assert sum(points for _, points in player.breakdown) == player.score
        assert 1 <= player.place <= len(result.players)
    assert all(v.where and v.message and v.rule for v in result.violations)
    json.loads(result.to_json())
    assert render(result)


def check_mutated_end_states_never_crash(state: dict[str, Any]) -> None:
    score_or_error(state)


@st.composite
def yaml_texts(draw: st.DrawFn) -> str:
    """YAML built from the real keys, values of any kind, and a few lines of text from anywhere."""
    import yaml

    keys = st.sampled_from(["game", "vp_set", "players", "name", "guildhall", "vp_cards", "vp_tokens", "sheets",
                            "towers", "walls", "flags", "guests", "built", "rounds", "version", "residents"])
    tree = st.recursive(WRITABLE, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
                        max_leaves=25)
    data = draw(st.dictionaries(keys, tree, max_size=6))
    data["game"] = draw(st.sampled_from(["guildhall", "once-upon-a-castle", "guedelon", "Guédelon"]))
    text: str = yaml.safe_dump(data, allow_unicode=True)
    lines = text.splitlines()
    if len(lines) > 0 and draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.text(max_size=30)))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("junk")


def check_junk_yaml(scratch: Path, text: str) -> None:
    path = scratch / "end.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    score_or_error(path)


def check_random_bytes(scratch: Path, data: bytes, suffix: str) -> None:
    path = scratch / f"bytes{suffix}"
    path.write_bytes(data)
    assert score_or_error(path) is None or data.strip()


# --- the properties: a few dozen inputs each in the normal run, thousands with `pytest -m fuzz` (tests/conftest.py)

@pytest.mark.fuzz
@given(guildhall_states())
def test_valid_guildhall_games_score(state: dict[str, Any]) -> None:
    check_valid_guildhall_games_score(state)


@pytest.mark.fuzz
@given(guildhall_states())
def test_one_chapter_beyond_the_bound_breaks_rule_6(state: dict[str, Any]) -> None:
    check_one_chapter_beyond_the_bound_breaks_rule_6(state)


@pytest.mark.fuzz
@given(guildhall_states(finished=False))
def test_guildhall_games_in_progress(state: dict[str, Any]) -> None:
    check_guildhall_games_in_progress(state)


@pytest.mark.fuzz
@given(castle_states())
def test_valid_castles_score(state: dict[str, Any]) -> None:
    check_valid_castles_score(state)


@pytest.mark.fuzz
@given(guedelon_states())
def test_valid_guedelon_games_score(state: dict[str, Any]) -> None:
    check_valid_guedelon_games_score(state)


@pytest.mark.fuzz
@given(mutated(ANY_STATE))
def test_mutated_end_states_never_crash(state: dict[str, Any]) -> None:
    check_mutated_end_states_never_crash(state)


@pytest.mark.fuzz
@given(text=yaml_texts())
def test_junk_yaml_never_crashes(scratch: Path, text: str) -> None:
    check_junk_yaml(scratch, text)


@pytest.mark.fuzz
@given(data=st.binary(max_size=4000), suffix=st.sampled_from([".yaml", ".json", ".txt"]))
def test_random_bytes_never_crash(scratch: Path, data: bytes, suffix: str) -> None:
    check_random_bytes(scratch, data, suffix)
