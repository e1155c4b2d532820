"""The catalog loader on the shipped catalogs and on broken copies of them (one test per kind of error)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from generator.content import Content, check_content, load_content
from generator.errors import ContentError, Problem
from generator.resources import content_dir
from generator.games.guildhall import GAME as GUILDHALL
from generator.games.guedelon import GAME as GUEDELON
from generator.games.castle import GAME as CASTLE


@pytest.fixture(scope="module")
def shipped() -> Content:
    return load_content()


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A writable copy of the shipped content."""
    target = tmp_path / "content"
    shutil.copytree(content_dir(), target)
    return target


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= count, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def problems_of(root: Path) -> list[Problem]:
    _, problems = check_content(root)
    return problems


def line_of(path: Path, needle: str, occurrence: int = 1) -> int:
    seen = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(f"{needle!r} not found in {path}")


# --- the shipped catalogs ------------------------------------------------------------------------------------------

def test_shipped_content_has_no_problems() -> None:
    content, problems = check_content()
    assert problems == []
    assert [g.info.id for g in content.games()] == ["guildhall", "guedelon", "once-upon-a-castle"]


def test_guildhall_catalog(shipped: Content) -> None:
    g = shipped.catalog(GUILDHALL)
    assert [p.id for p in g.professions_of("old-world-economy")] == [
        "assassin", "dancer", "farmer", "historian", "trader", "weaver"]
    assert [p.id for p in g.professions_of("job-faire")] == [
        "bricklayer", "hunter", "peddler", "robber", "scholar", "tax-collector"]
    assert [c.id for c in g.colours] == ["red", "blue", "green", "yellow", "purple"]
    assert len({c.symbol for c in g.colours}) == 5  # every colour has its own symbol
    assert g.components.copies_per_card == 4
    for set_id in ("old-world-economy", "job-faire"):
        assert sum(c.copies for c in g.vp_cards_of(set_id)) == 30
        # 2-3 players remove two 5s and one of each other card: 20 remain (rulebooks 002/003, Smaller Games)
        assert sum(g.vp_supply(set_id, 3).values()) == 20
        assert sum(g.vp_supply(set_id, 4).values()) == 30
    assert g.vp_supply("old-world-economy", 2) == {2: 2, 3: 6, 4: 4, 5: 4, 7: 2, 9: 2}
    jf_scholar = g.profession("scholar")
    assert jf_scholar is not None
    assert [lv.at for lv in jf_scholar.levels] == [0, 2, 4]
    assert jf_scholar.provenance.of("levels.at") is None  # stated by rulebook 003
    owe_assassin = g.profession("assassin")
    assert owe_assassin is not None
    inferred = owe_assassin.provenance.of("levels.at")
    assert inferred is not None and inferred.confidence == "M"
    farmer, tax_collector = g.profession("farmer"), g.profession("tax-collector")
    assert farmer is not None and [level.at for level in farmer.levels] == [0, 1, 3]
    assert tax_collector is not None and tax_collector.scaling


def test_records_are_immutable(shipped: Content) -> None:
    guildhall = shipped.catalog(GUILDHALL)
    with pytest.raises(dataclasses.FrozenInstanceError):
        guildhall.professions[0].name = "x"  # type: ignore[misc]  # writing to a frozen field is what this test tries
    assert isinstance(guildhall.professions, tuple)
    assert isinstance(guildhall.professions[0].levels, tuple)


def test_guedelon_catalog(shipped: Content) -> None:
    g = shipped.catalog(GUEDELON)
    assert [e.number for e in g.events] == list(range(1, 19))
    assert {e.series for e in g.events} == {"easy"}
    assert len(g.tiles) == 22 == g.components.floor_tiles
    assert [b.id for b in g.buildings] == ["A", "B", "C", "D", "E", "F"]
    a = g.tiles_of("A")
    assert [t.id for t in a] == ["A0", "A1", "A2"]
    assert a[1].products == ("cut-stone",) and a[1].ropes == 1  # rulebook 000/001 7.10 example
    assert a[2].products == ("tile",) and a[2].ropes == 2
    assert {t.id for t in g.tiles if t.choice} == {"C0", "D3", "E1", "F3"}
    house = [t.id for t in g.tiles if (i := t.provenance.of("id")) is not None and i.confidence == "house"]
    assert house == ["B3", "B4"]
    assert g.components.year_of(18) == 1245
    assert g.mill.products == ("beam", "beam", "cut-stone")


def test_castle_catalog(shipped: Content) -> None:
    c = shipped.catalog(CASTLE)
    ga = c.guests_of("great-architect")
    assert len(ga) == 20
    assert [sum(1 for g in ga if g.kind == k) for k in ("bolt", "hourglass", "crown")] == [8, 6, 6]
    queen, courtesan = c.guest("queen"), c.guest("courtesan")
    assert queen is not None and queen.scoring.flat == 3
    assert courtesan is not None and courtesan.scoring.per == "crown-guest"
    s = c.sheet
    assert (s.donjon_floors, s.towers, s.walls, s.parts, s.max_flags) == (4, 4, 4, 12, 6)
    assert s.tower_values.values == (2, 5) and s.flag_values.values == (1, 2)
    assert s.resident_track.provenance.weakest == "house"
    assert s.resident_track.points_for(0) == 0 and s.resident_track.points_for(14) == 4


# --- broken catalogs: each kind of error, with file, line and entry ------------------------------------------------

def test_unknown_key_names_file_line_entry_and_suggests(copy: Path) -> None:
    path = copy / "guildhall/professions.yaml"
    edit(path, "    summary: Throw cards out", "    sumary: Throw cards out")
    [problem] = [p for p in problems_of(copy) if "unknown key" in p.message]
    assert problem.file == str(Path("content") / "guildhall/professions.yaml") or problem.file.endswith(
        "guildhall/professions.yaml")
    assert problem.line == line_of(path, "sumary:")
    assert problem.where == "professions[assassin].sumary"
    assert "did you mean 'summary'?" in problem.message


def test_wrong_type(copy: Path) -> None:
    path = copy / "guildhall/vp-cards.yaml"
    edit(path, "    copies: 6\n", "    copies: six\n")
    [problem] = problems_of(copy)
    assert problem.where == "vp_cards[owe-5].copies"
    assert problem.line == line_of(path, "copies: six")
    assert "expected a whole number, got 'six'" in problem.message


def test_true_is_not_a_number_and_decimals_are_not_whole(copy: Path) -> None:
    path = copy / "guedelon/components.yaml"
    edit(path, "  rounds: 18 ", "  rounds: true ")
    edit(path, "  visitors: 9\n", "  visitors: 9.5\n")
    messages = sorted(p.message for p in problems_of(copy))
    assert any("got true (true/false)" in m for m in messages)
    assert any("got 9.5 (a number)" in m for m in messages)


def test_duplicate_id_names_the_first(copy: Path) -> None:
    path = copy / "once-upon-a-castle/guests.yaml"
    edit(path, "{id: bohemian, name: Bohemian", "{id: architect, name: Bohemian")
    [problem] = problems_of(copy)
    assert "repeats the guest id 'architect'" in problem.message
    assert f"(first at line {line_of(path, 'id: architect')})" in problem.message
    assert problem.line == line_of(path, "id: architect", 2)


def test_dangling_references(copy: Path) -> None:
    edit(copy / "guildhall/professions.yaml", "set: job-faire", "set: job-fair")
    edit(copy / "guedelon/floor-tiles.yaml", "  - id: F3\n    building: F", "  - id: G3\n    building: G")
    edit(copy / "guedelon/events.yaml", "series: easy\n    timing: immediate", "series: hard\n    timing: immediate")
    messages = [p.message for p in problems_of(copy)]
    assert any("unknown set 'job-fair' (did you mean 'job-faire'?)" in m for m in messages)
    assert any("names the building 'G', which is not declared" in m for m in messages)
    assert any("building F has 4 floors but no tile for F3" in m for m in messages)
    assert any("names the series 'hard', which is not declared" in m for m in messages)


def test_counts_that_disagree_across_files(copy: Path) -> None:
    edit(copy / "guildhall/vp-cards.yaml", "    copies: 6\n", "    copies: 5\n")
    edit(copy / "guildhall/vp-cards.yaml", "    removed_in_small_game: 2\n", "    removed_in_small_game: 1\n")
    [problem] = problems_of(copy)
    assert "set 'old-world-economy' has 29 VP cards; components.yaml says 30" in problem.message


def test_provenance_rules(copy: Path) -> None:
    path = copy / "guildhall/professions.yaml"
    # the first inference (assassin) names a field the entry does not have; the second (dancer) a bad confidence
    edit(path, "      - fields: [levels.at]\n        confidence: M", "      - fields: [levels.when]\n        confidence: M")
    edit(path, "      - fields: [levels.at]\n        confidence: M", "      - fields: [levels.at]\n        confidence: Q")
    edit(path, '    rulebook: "003 Profession Card Reference: Scholar"\n', "")
    problems = problems_of(copy)
    by_where = {p.where: p.message for p in problems}
    assert "'levels.when' is not a field of this entry" in by_where["professions[assassin].inferred[0].fields"]
    assert "unknown confidence 'Q'" in by_where["professions[dancer].inferred[0].confidence"]
    assert "cites no source" in by_where["professions[scholar]"]
    assert len(problems) == 3


def test_missing_key_and_bad_deck_reference(copy: Path) -> None:
    edit(copy / "once-upon-a-castle/castle-sheet.yaml", "  sun_points: 4 ", "  # sun_points removed ")
    edit(copy / "guildhall/game.yaml", "    set: job-faire\n", "    set: job-fare\n")
    messages = [p.message for p in problems_of(copy)]
    assert any("missing the key 'sun_points'" in m for m in messages)
    assert any("unknown set 'job-fare'" in m for m in messages)


def test_not_yaml_gets_file_and_line_and_other_files_still_checked(copy: Path) -> None:
    path = copy / "guedelon/events.yaml"
    edit(path, "  - number: 3\n", "  - number: [3\n")
    edit(copy / "guildhall/vp-cards.yaml", "    cost: 2\n", "    cost: -2\n")
    problems = problems_of(copy)
    yaml_problem = next(p for p in problems if "not valid YAML" in p.message)
    assert yaml_problem.file.endswith("guedelon/events.yaml")
    assert yaml_problem.line is not None and yaml_problem.line >= line_of(path, "number: [3")
    # every problem is listed, not only the first
    assert any("less than the smallest allowed, 0" in p.message for p in problems)


def test_empty_and_binary_catalog_files(copy: Path) -> None:
    (copy / "guildhall/vp-cards.yaml").write_text("")
    (copy / "guedelon/events.yaml").write_bytes(b"\x00\x01binary")
    messages = [str(p) for p in problems_of(copy)]
    assert any(m.endswith("guildhall/vp-cards.yaml: is empty") for m in messages)
    assert any("guedelon/events.yaml:1: is not a text file" in m for m in messages)


def test_load_content_raises_with_every_problem(copy: Path) -> None:
    edit(copy / "guildhall/vp-cards.yaml", "    cost: 2\n", "    cost: x\n")
    edit(copy / "once-upon-a-castle/guests.yaml", "kind: crown, scoring: {flat: 3}", "kind: crown, scoring: {flat: 3, per: tower}")
    with pytest.raises(ContentError) as err:
        load_content(copy)
    assert len(err.value.problems) == 2
    assert str(err.value).startswith("2 problems in the content:")


def test_partial_content_folder_and_game_lookup(tmp_path: Path) -> None:
    root = tmp_path / "mine"
    shutil.copytree(content_dir() / "once-upon-a-castle", root / "once-upon-a-castle")
    content = load_content(root)
    assert [g.info.id for g in content.games()] == ["once-upon-a-castle"]
    from generator.errors import UsageError
    with pytest.raises(UsageError, match="holds no guildhall catalog"):
        content.game("guildhall")


def test_missing_folder_and_empty_folder(tmp_path: Path) -> None:
    from generator.errors import UsageError
    with pytest.raises(UsageError, match="no such content folder"):
        load_content(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ContentError, match="holds no game folder"):
        load_content(tmp_path / "empty")


def test_unknown_game_folder(tmp_path: Path) -> None:
    shutil.copytree(content_dir() / "guildhall", tmp_path / "c" / "guild")
    problems = problems_of(tmp_path / "c")
    assert any("is not a game donjon knows" in p.message for p in problems)
