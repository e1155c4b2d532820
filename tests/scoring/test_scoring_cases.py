"""The end-state cases under `cases/GAME/`: each file, scored, against what it says it expects and a golden file.

A case states its intent in `# expect:` lines (a JSON case in a `.expect` file beside it), written by hand from
the rules: the exit code, the rules broken (by number, as many times as each is broken), the warnings (checks on
values no rulebook states, by rule, as many times as each fails), and for scored files the scores, places,
winner, the entries computed from values below H (`inferred Ana=residents:house`), whether the game is finished,
and for Guédelon whether the team won, the tiles left and the Mill. That is checked first, and the same file
scored with `--strict` must break exactly its rules and its warnings, with no warning left.
Then the whole result (the JSON object and the table) is compared with `NAME.expected.json`, which
`pytest --regenerate` rewrites: review the diff of every rewritten file before committing it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import REPO, check_golden
from generator.errors import DonjonError, ExitCode
from generator.games.guedelon.rules import GuedelonOutcome
from scoring.engine import Scorer
from scoring.result import Result
from scoring.table import render

CASES = Path(__file__).resolve().parent / "cases"
FILES = sorted(p for p in CASES.rglob("*")
               if p.suffix in (".yaml", ".json") and not p.name.endswith(".expected.json"))
EXPECT = re.compile(r"#\s*expect:\s*(\w+)\s*(.*)")
#: What a violation cites (README: every broken rule names "the rulebook section the rule comes from"): sections of
#: the rulebooks 000-004 (docs/sources.md), or end-states.md for a rule of the format itself; never an inference's
#: text alone (a count derived from a rulebook cites the rule's section, the derivation after it).
SECTION = re.compile(r"(00[0-4](/00[0-4])? |end-states\.md: )")
SCORER = Scorer()
STRICT = Scorer(strict=True)


def expectations(path: Path) -> dict[str, str]:
    source = path.with_suffix(".expect") if path.suffix == ".json" else path
    found: dict[str, str] = {}
    for line in source.read_text(encoding="utf-8").splitlines():
        match = EXPECT.match(line)
        if match:
            assert match[1] not in found, f"{source}: `expect: {match[1]}` given twice"
            found[match[1]] = match[2].strip()
    assert "exit" in found, f"{source}: a case says what it expects in `# expect:` lines, exit code first"
    return found


def pairs(text: str) -> dict[str, str]:
    return dict(item.split("=", 1) for item in text.split())


def check_expectations(result: Result, expect: dict[str, str]) -> None:
    assert int(result.exit_code) == int(expect["exit"])
    assert sorted(v.rule for v in result.violations) == sorted(expect.get("rules", "").split())
    assert sorted(w.rule for w in result.warnings) == sorted(expect.get("warnings", "").split())
    assert all(w.confidence in ("M", "L", "house") and w.source for w in result.warnings)
    assert result.valid == (not result.violations)
    # every broken rule names the rulebook section it comes from (the table and the JSON show it)
    assert_sections(result)
    if "finished" in expect:
        assert result.finished is (expect["finished"] == "true")
    guedelon = result.part(GuedelonOutcome)
    if "mill" in expect:
        assert guedelon is not None
        assert guedelon.mill == (None if expect["mill"] == "none" else expect["mill"].replace("-", " "))
    if "inferred" in expect:
        wanted = {name: dict(item.split(":") for item in items.split(",")) if items else {}
                  for name, items in pairs(expect["inferred"]).items()}
        assert {p.name: dict(p.inferred) for p in result.players} == wanted
    elif result.valid:
        assert all(p.inferred == () for p in result.players)
    if not result.valid:
        assert result.players == () and result.winner is None
    if "scores" in expect:
        assert {p.name: str(p.score) for p in result.players} == pairs(expect["scores"])
    if "places" in expect:
        assert {p.name: str(p.place) for p in result.players} == pairs(expect["places"])
    if "winner" in expect:
        assert result.winner == (None if expect["winner"] == "none" else expect["winner"])
    if "won" in expect:
        assert guedelon is not None and guedelon.won is (expect["won"] == "true")
    if "tiles_left" in expect:
        assert guedelon is not None and guedelon.tiles_left == int(expect["tiles_left"])
    for player in result.players:
        assert sum(points for _, points in player.breakdown) == player.score


def assert_sections(result: Result) -> None:
    """Every violation names a rulebook section (`source`), and its message cites it in brackets at its end."""
    for v in result.violations:
        assert SECTION.match(v.source), (v.where, v.source)
        assert v.message.endswith("]") and f"[{v.source}" in v.message, (v.where, v.message)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CASES)) for p in FILES])
def test_case(path: Path, regenerate: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # files are named relative to the repository in messages and golden files
    expect = expectations(path)
    try:
        result = SCORER.score(path.relative_to(REPO))
    except DonjonError as err:
        assert expect["exit"] == str(int(ExitCode.UNREADABLE)), f"could not be read: {err}"
        assert err.exit_code == ExitCode.UNREADABLE
        assert expect.get("error", "") in str(err)
        golden = {"exit_code": int(err.exit_code), "error": str(err).splitlines()}
    else:
        check_expectations(result, expect)
        strict = STRICT.score(path.relative_to(REPO))
        assert strict.warnings == ()
        assert_sections(strict)  # a warning made a violation names its rule's section too
        assert sorted(v.rule for v in strict.violations) == sorted((expect.get("rules", "") + " "
                                                                     + expect.get("warnings", "")).split())
        golden = {"exit_code": int(result.exit_code), "result": result.to_dict(), "table": render(result).splitlines()}
    check_golden(path.with_name(path.stem + ".expected.json"),
                 json.dumps(golden, indent=2, ensure_ascii=False) + "\n", regenerate)


def test_every_rule_has_a_passing_and_a_violating_case() -> None:
    """At least one case breaks each rule of the spec, one fails each warning, and every game has cases that keep
    all of them."""
    broken: set[str] = set()
    warned: set[str] = set()
    kept: dict[str, int] = {}
    for path in FILES:
        expect = expectations(path)
        broken.update(expect.get("rules", "").split())
        warned.update(expect.get("warnings", "").split())
        if expect["exit"] == "0":
            game = path.parent.name
            kept[game] = kept.get(game, 0) + 1
    wanted = ({f"guildhall-{n}" for n in range(1, 10)} | {f"once-upon-a-castle-{n}" for n in range(1, 8)}
              | {f"guedelon-{n}" for n in range(1, 5)})
    assert wanted <= broken, f"no violating case for {sorted(wanted - broken)}"
    warnings = {"guildhall-7", "once-upon-a-castle-w1", "once-upon-a-castle-w2", "once-upon-a-castle-w3",
                "guedelon-w1"}
    assert warnings <= warned, f"no case for the warnings {sorted(warnings - warned)}"
    assert all(kept.get(game, 0) >= 3 for game in ("guildhall", "castle", "guedelon")), kept
