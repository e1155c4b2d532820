"""The library API: `scoring.score` and `scoring.score_files`, the result as data, catalogs in use, schemas."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import scoring
from tests.conftest import REPO
from generator.schemas import render
from generator.errors import ExitCode, InputError
from generator.fields import json_schema
from scoring import engine
from scoring.engine import EndStateError, Scorer, UnknownGameError
from generator.games.guedelon.rules import GuedelonOutcome
from scoring.result import PlayerScore, Result, ranked_by

EXAMPLES = REPO / "content" / "examples"


def outcome(result: Result) -> GuedelonOutcome:
    """A Guédelon result's own part: how the game ended, the tiles left, the Mill."""
    found = result.part(GuedelonOutcome)
    assert found is not None
    return found


def guildhall_state(**changes: Any) -> dict[str, Any]:
    state: dict[str, Any] = {
        "game": "guildhall", "vp_set": "job-faire",
        "players": [
            {"name": "Ana", "guildhall": {"hunter": ["red"]}, "completed_chapters": 1, "vp_cards": [9, 9, 2],
             "vp_tokens": 1},
            {"name": "Ben", "guildhall": {}, "completed_chapters": 0, "vp_cards": [7], "vp_tokens": 3},
        ],
        "ended_by": "Ana",
    }
    state.update(changes)
    return state


# --- the shipped examples -------------------------------------------------------------------------------------------

def test_guildhall_example() -> None:
    result = scoring.score(EXAMPLES / "guildhall.yaml")
    assert (result.valid, result.finished, result.winner, result.exit_code) == (True, True, "Ana", ExitCode.OK)
    assert [(p.name, p.score, p.place) for p in result.players] == [("Ana", 21, 1), ("Ben", 17, 2), ("Cleo", 17, 3)]
    assert dict(result.players[0].breakdown) == {"vp_cards": 19, "vp_tokens": 2}


def test_castle_example() -> None:
    result = scoring.score(EXAMPLES / "once-upon-a-castle.yaml")
    assert result.valid and result.winner == "Ana"
    # Ana: towers 17, Sun 4, Cloud 4, 1 sky cloud 2, 14 residents -> 4, flags 9, Queen 3, Jester 4 floors,
    # Shepherdess 1, King 6 flags. Ben: towers 9, 22 residents -> 9, flags 3, Courtesan 2, Prince 3 walls,
    # Bohemian 1. Cleo: towers 10, 6 resident points, flags 4, Princess 2 towers, Merchant 1.
    assert [(p.name, p.score, p.place) for p in result.players] == [("Ana", 54, 1), ("Ben", 27, 2), ("Cleo", 23, 3)]
    assert dict(result.players[0].breakdown) == {
        "towers": 17, "sun": 4, "cloud": 4, "sky_clouds": 2, "residents": 4, "flags": 9,
        "guest:queen": 3, "guest:jester": 4, "guest:shepherdess": 1, "guest:king": 6}


def test_guedelon_example() -> None:
    result = scoring.score(EXAMPLES / "guedelon.yaml")
    assert (result.valid, result.finished, outcome(result).won, outcome(result).tiles_left) == (True, True, True, 0)
    assert result.winner == "team"
    assert [(p.name, p.score, p.place) for p in result.players] == [("team", 17, 1)]


# --- the result as data ---------------------------------------------------------------------------------------------

def test_json_keys_follow_the_spec() -> None:
    data = json.loads(scoring.score(EXAMPLES / "guildhall.yaml").to_json())
    assert list(data) == ["game", "valid", "finished", "violations", "warnings", "winner", "players"]
    assert data["warnings"] == []  # always present, empty when there is none
    assert list(data["players"][0]) == ["name", "score", "place", "breakdown", "inferred"]
    assert data["players"][0]["inferred"] == {}
    data = json.loads(scoring.score(EXAMPLES / "guedelon.yaml").to_json())
    # Guédelon's own outcome adds its keys after those every game has
    assert list(data) == ["game", "valid", "finished", "violations", "warnings", "winner", "players", "won",
                          "tiles_left", "mill"]
    assert data["mill"] == "built"  # the example plays with the Mill, built: reported on its own


def test_inferred_is_given_per_player_only() -> None:
    data = json.loads(scoring.score(EXAMPLES / "once-upon-a-castle.yaml").to_json())
    by_name = {p["name"]: p["inferred"] for p in data["players"]}
    # residents counted through donjon's house track are inferred; points read off a sheet are not
    assert list(by_name.values()) == [{"residents": "house"}, {"residents": "house"}, {}]
    assert "inferred" not in data  # no copy at the top, keyed by names (end-states.md)


def test_json_is_one_line() -> None:
    assert "\n" not in scoring.score(EXAMPLES / "once-upon-a-castle.yaml").to_json()


def test_violation_json_has_where_and_message_only() -> None:
    result = scoring.score(guildhall_state(ended_by="Ben"))
    assert not result.valid and result.players == () and result.winner is None
    assert result.to_dict()["violations"][0] == {"where": "ended_by", "message": result.violations[0].message}


@pytest.mark.parametrize(("keys", "places"), [
    ([(5,), (5,), (3,)], [1, 1, 3]),
    ([(3,), (5,), (5,), (1,)], [3, 1, 1, 4]),
    ([(7, 1), (7, 2), (7, 1)], [2, 1, 2]),
    ([(2,), (2,), (2,)], [1, 1, 1]),
    ([], []),
])
def test_standard_competition_ranking(keys: list[tuple[int, ...]], places: list[int]) -> None:
    assert ranked_by(keys) == places


def test_a_breakdown_must_add_up() -> None:
    with pytest.raises(ValueError, match="adds up to 3"):
        PlayerScore("Ana", 4, 1, (("towers", 3),))


def test_results_are_immutable() -> None:
    result = scoring.score(EXAMPLES / "guildhall.yaml")
    with pytest.raises(AttributeError):
        result.valid = False  # type: ignore[misc]  # writing to a frozen field is what this test tries


# --- mappings and errors --------------------------------------------------------------------------------------------

def test_a_mapping_is_scored_like_a_file() -> None:
    result = scoring.score(guildhall_state())
    assert result.valid and result.winner == "Ana" and result.source == engine.MAPPING_NAME
    assert [p.score for p in result.players] == [21, 10]
    assert all(v.line is None for v in scoring.score(guildhall_state(ended_by="Ben")).violations)


def test_unreadable_mapping_raises_with_every_problem() -> None:
    state = guildhall_state(vp_set="job fair", colour="red")
    state["players"][0]["vp_tokens"] = "three"
    with pytest.raises(EndStateError) as caught:
        scoring.score(state)
    assert isinstance(caught.value, InputError) and caught.value.exit_code == ExitCode.UNREADABLE
    assert [p.where for p in caught.value.problems] == ["colour", "vp_set", "players[0].vp_tokens"]
    assert str(caught.value).startswith(f"{engine.MAPPING_NAME}: cannot be read as a Guildhall end state (3 problems)")


@pytest.mark.parametrize(("state", "message"), [
    ({}, "missing the key 'game'"),
    ({"game": 3}, "expected the name of a game"),
    ({"game": "chess"}, "unknown game 'chess'; donjon scores guildhall, guedelon or once-upon-a-castle"),
])
def test_unknown_game(state: dict[str, Any], message: str) -> None:
    with pytest.raises(UnknownGameError, match=message):
        scoring.score(state)


def test_tile_names_are_folded_as_every_name_is() -> None:
    """end-states.md: every name the scorer reads is folded the same way. A tile written `A 0`, `a-1`, `b_0` or
    `Ä2` is the tile A0, A1, B0, A2 (it was refused by rule 3 as no floor tile), and the same tile written two ways
    is named twice; every tile of the catalog folds to its own key (no two meet)."""
    from generator.content import load_content
    from generator.games.guedelon import GAME as GUEDELON
    from generator.games.guedelon.rules import _tile_key

    state = {"game": "guedelon", "players": 3, "events": "easy", "rounds": 18, "built": ["A 0", "a-1", "b_0", "Ä2"]}
    result = scoring.score(state)
    assert result.valid and outcome(result).tiles_left == 18, result.violations
    twice = scoring.score({**state, "built": ["A0", "a 0"]})
    assert [v.where for v in twice.violations] == ["built[1]"] and "A0" in twice.violations[0].message
    shipped = load_content().catalog(GUEDELON)
    assert shipped is not None
    tiles = [t.id for t in shipped.tiles]
    assert len({_tile_key(t) for t in tiles}) == len(tiles) == 22
    assert all(_tile_key(f" {t[0].lower()}-{t[1]} ") == t for t in tiles)


@pytest.mark.parametrize("name", ["guedelon", "Guédelon", "GUEDELON", "Guedelon"])
def test_game_names_in_any_form(name: str) -> None:
    state = {"game": name, "players": 2, "events": "Easy", "rounds": 12, "built": "ALL"}
    assert outcome(scoring.score(state)).won is True


@pytest.mark.parametrize("built", ["all", "ALL ", "Àll", "\u0041\u0300ll", " All\t"])
def test_built_all_is_folded_as_every_name_is(built: str) -> None:
    """`built: all` was matched by strip().lower(), not the spec's one name normaliser: `Àll` (or `all` typed with
    a combining accent) was refused as neither `all` nor a list, where `Guédelon` reads as `guedelon`."""
    state = {"game": "guedelon", "players": 2, "events": "easy", "rounds": 12, "built": built}
    result = scoring.score(state)
    assert result.valid and outcome(result).won is True and outcome(result).tiles_left == 0, result.violations
    # a word that folds to another is still refused, at `built`, exit 2
    with pytest.raises(EndStateError, match="built: is 'a l l'"):
        scoring.score({**state, "built": "a l l"})


def test_violation_lines_follow_loose_names(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text("game: guildhall\nvp_set: job-faire\nplayers:\n"
                    "  - name: Ana\n    guildhall:\n      Tax Collector: [red, RED]\n"
                    "    completed_chapters: 0\n    vp_cards: [9, 9, 2]\n    vp_tokens: 0\n"
                    "  - {name: Ben, guildhall: {}, completed_chapters: 0, vp_cards: [], vp_tokens: 0}\n"
                    "ended_by: Ana\n", encoding="utf-8")
    (violation,) = scoring.score(path).violations
    assert (violation.where, violation.line, violation.rule) == ("players[0].guildhall.tax-collector", 6, "guildhall-3")


def test_score_files_reports_each_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: [\n", encoding="utf-8")
    outcomes = scoring.score_files([EXAMPLES / "guildhall.yaml", bad, tmp_path / "missing.yaml"])
    assert [type(o).__name__ for _, o in outcomes] == ["Result", "InputError", "InputError"]
    assert "no such file" in str(outcomes[2][1])


# --- catalogs in use ------------------------------------------------------------------------------------------------

@pytest.fixture
def corrected(tmp_path: Path) -> Path:
    """A copy of the shipped content with towers worth 2, 3 or 5 and a Guédelon game of 20 rounds."""
    root = tmp_path / "content"
    shutil.copytree(REPO / "content", root, ignore=shutil.ignore_patterns("examples", "schemas"))
    sheet = root / "once-upon-a-castle" / "castle-sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("values: [2, 5]", "values: [2, 3, 5]"), encoding="utf-8")
    comp = root / "guedelon" / "components.yaml"
    text = comp.read_text(encoding="utf-8")
    comp.write_text(text.replace("rounds: 18 ", "rounds: 20 ").replace("last_year: 1245", "last_year: 1247"),
                    encoding="utf-8")
    return root


CASTLE_WITH_A_3 = {"game": "once-upon-a-castle", "version": "apprentice",
                   "sheets": [{"player": "Ana", "donjon_floors": 0, "towers": [3, 5], "walls": [], "residents": 0,
                               "guests": []}]}
GUEDELON_19 = {"game": "guedelon", "players": 2, "events": "easy", "rounds": 19, "built": "all"}


def test_a_corrected_catalog_changes_the_rules(corrected: Path) -> None:
    shipped = scoring.score(CASTLE_WITH_A_3)
    # tower values rest on a review (M): a 3 warns, with the catalog's source, and is scored as written (the
    # sheet has no end Cloud, which warns too: the file may not hold the sheet that drew it)
    assert shipped.valid and [w.rule for w in shipped.warnings] == ["once-upon-a-castle-w1", "once-upon-a-castle-w4"]
    assert shipped.warnings[0].confidence == "M" and "Julie's Game School" in shipped.warnings[0].source
    strict = scoring.score(CASTLE_WITH_A_3, strict=True)
    assert [v.rule for v in strict.violations] == ["once-upon-a-castle-w1", "once-upon-a-castle-w4"]
    assert not strict.warnings
    mine = scoring.score(CASTLE_WITH_A_3, content=corrected)
    assert mine.valid and [w.rule for w in mine.warnings] == ["once-upon-a-castle-w4"] and mine.players[0].score == 8
    assert outcome(scoring.score(GUEDELON_19)).won is False
    late = scoring.score(GUEDELON_19, content=corrected)
    assert outcome(late).won is True and dict(late.players[0].breakdown) == {"rounds_to_1247": 19, "rounds_past_1247": 0}


def test_the_sun_the_cloud_and_sky_clouds_score_their_own_points(tmp_path: Path) -> None:
    """The shipped castle sheet gives the Sun and the end Cloud 4 points each (004 End of the game), so scoring one
    with the other's points would go unseen there: in this copy the Sun, the Cloud and a sky cloud differ."""
    root = tmp_path / "content"
    shutil.copytree(REPO / "content" / "once-upon-a-castle", root / "once-upon-a-castle")
    sheet = root / "once-upon-a-castle" / "castle-sheet.yaml"
    text = sheet.read_text(encoding="utf-8")
    for key, points in (("sun_points", 7), ("cloud_points", 3), ("sky_cloud_points", 5)):
        text, count = re.subn(rf"^(  {key}:) \d+", rf"\1 {points}", text, flags=re.M)
        assert count == 1, key
    sheet.write_text(text, encoding="utf-8")
    full = {"donjon_floors": 4, "towers": [5, 5, 5, 5], "walls": [{"flags": []}] * 4, "residents": 0, "guests": []}
    game = {"game": "once-upon-a-castle", "version": "great-architect", "sheets": [
        {"player": "Ana", "donjon_floors": 0, "towers": [2, 2, 2, 2], "walls": [], "residents": 0, "guests": [],
         "sun": True},
        {"player": "Ben", **full, "cloud": True, "sky_clouds": 1},
    ]}
    result = scoring.score(game, content=root)
    assert result.valid, result.violations
    ana, ben = (dict(p.breakdown) for p in sorted(result.players, key=lambda p: p.name))
    assert ana == {"towers": 8, "sun": 7, "cloud": 0, "sky_clouds": 0, "residents": 0, "flags": 0}
    assert ben == {"towers": 20, "sun": 0, "cloud": 3, "sky_clouds": 5, "residents": 0, "flags": 0}
    both = {**game, "sheets": [{"player": "Cleo", **full, "sun": True, "cloud": True}]}
    (cleo,) = scoring.score(both, content=root).players
    assert dict(cleo.breakdown) == {"towers": 20, "sun": 7, "cloud": 3, "sky_clouds": 0, "residents": 0, "flags": 0}
    assert cleo.score == 30


def test_a_long_lived_scorer_notices_catalog_edits(corrected: Path) -> None:
    def warned() -> list[str]:
        return [w.rule for w in scoring.score(CASTLE_WITH_A_3, content=corrected).warnings]

    assert warned() == ["once-upon-a-castle-w4"]
    sheet = corrected / "once-upon-a-castle" / "castle-sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("values: [2, 3, 5]", "values: [2, 5]  # back"),
                     encoding="utf-8")
    assert warned() == ["once-upon-a-castle-w1", "once-upon-a-castle-w4"]


def test_a_broken_catalog_is_reported_for_each_file(corrected: Path) -> None:
    (corrected / "guildhall" / "vp-cards.yaml").write_text("vp_cards: 3\n", encoding="utf-8")
    outcomes = scoring.score_files([EXAMPLES / "guildhall.yaml", EXAMPLES / "guildhall.yaml",
                                    EXAMPLES / "guedelon.yaml"], corrected)
    errors = [o for _, o in outcomes if not isinstance(o, Result)]
    assert len(errors) == 2 and all("vp-cards.yaml" in str(e) for e in errors)
    assert isinstance(outcomes[2][1], Result)


def test_a_content_folder_without_the_game(tmp_path: Path) -> None:
    root = tmp_path / "content"
    shutil.copytree(REPO / "content" / "guedelon", root / "guedelon")
    ((_, outcome),) = scoring.score_files([EXAMPLES / "guildhall.yaml"], root)
    assert not isinstance(outcome, Result) and outcome.exit_code == ExitCode.UNREADABLE
    assert "holds no guildhall catalog" in str(outcome)


def test_each_catalog_is_loaded_once_per_scorer(monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[tuple[str, ...]] = []
    real = getattr(engine, "load_content")  # the loader scoring.engine calls (imported there, not re-exported)

    def counting(root: Path | None = None, *, games: Any = None) -> Any:
        loads.append(tuple(games))
        return real(root, games=games)

    monkeypatch.setattr(engine, "load_content", counting)
    scorer = Scorer()
    for _ in range(5):
        for name in ("guildhall", "once-upon-a-castle", "guedelon"):
            assert scorer.score(EXAMPLES / f"{name}.yaml").valid
    assert sorted(loads) == [("guedelon",), ("guildhall",), ("once-upon-a-castle",)]


# --- published schemas ----------------------------------------------------------------------------------------------

def test_published_schemas_match_the_formats() -> None:
    from generator.schemas import SCHEMA_BASE
    from generator.schemas import end_state_schemas as schemas

    for key, (title, spec) in schemas().items():
        shipped = (REPO / "content" / "schemas" / f"{key}.schema.json").read_text(encoding="utf-8")
        assert shipped == render(json_schema(spec, title=title, schema_id=f"{SCHEMA_BASE}{key}.schema.json")), (
            f"content/schemas/{key}.schema.json is stale: run donjon content schema --out content/schemas")


def test_examples_satisfy_their_schemas() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    import yaml

    for name, schema in (("guildhall", "guildhall"), ("once-upon-a-castle", "castle"), ("guedelon", "guedelon")):
        data = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8"))
        published = REPO / "content" / "schemas" / f"end-state-{schema}.schema.json"
        body = json.loads(published.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator(body).validate(data)


def test_importing_scoring_stays_light() -> None:
    import subprocess
    import sys

    code = "import sys, scoring; print(','.join(m for m in ('yaml', 'generator.catalog') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""


@pytest.mark.parametrize("title", ["Oh mon château", "OH MON CHATEAU", "oh-mon-chateau"])
def test_a_game_is_named_by_its_editions_title(title: str, tmp_path: Path) -> None:
    """A French player writes `game: Oh mon château`, the title on their box and on donjon's French sheet: it was
    refused as an unknown game (exit 2). It names Once Upon a Castle, folded as every name is; it names no other."""
    castle = (EXAMPLES / "once-upon-a-castle.yaml").read_text(encoding="utf-8")
    path = tmp_path / "chateau.yaml"
    path.write_text(castle.replace("game: once-upon-a-castle", f"game: {title}"), encoding="utf-8")
    result = scoring.score(path)
    assert result.game == "once-upon-a-castle" and result.valid, result.violations
    guildhall = (EXAMPLES / "guildhall.yaml").read_text(encoding="utf-8")
    path.write_text(guildhall.replace("game: guildhall", f"game: {title}"), encoding="utf-8")
    with pytest.raises(EndStateError):  # read as a castle sheet's file, whose keys a Guildhall file lacks
        scoring.score(path)
