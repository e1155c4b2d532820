"""Adding a game is one package plus one registry entry: a made-up fourth game (tests/fourth_game), registered
from test data, is listed, checked, built, scored and given a reference by the commands, with no other change."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator import registry
from generator.cli import app
from tests.fourth_game import GAME

HERE = Path(__file__).parent / "fourth_game"
CONTENT = HERE / "content"


@pytest.fixture
def fourth_game() -> Iterator[None]:
    registry.register(GAME)
    try:
        yield
    finally:
        registry.unregister(GAME.id)


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_unregistered_it_is_not_a_game() -> None:
    code, _, err = invoke("content", "check", str(CONTENT))
    assert code == 1
    assert "the folder 'tiny-tower' is not a game donjon knows" in err


def test_content_list(fourth_game: None) -> None:
    code, out, _ = invoke("content", "list", "--content", str(CONTENT))
    assert code == 0
    assert "Tiny Tower (tiny-tower)" in out
    assert "pieces" in out and "6 cards" in out and "catalogs: pieces 3" in out


def test_content_check(fourth_game: None) -> None:
    code, out, err = invoke("content", "check", str(CONTENT))
    assert (code, err) == (0, "")
    assert out.strip() == "OK: 1 game, 0 deck folders, 1 deck, 6 cards."


def test_build_writes_the_deck_and_the_reference(fourth_game: None, tmp_path: Path) -> None:
    code, out, err = invoke("build", "--content", str(CONTENT), "--out", str(tmp_path))
    assert code == 0, err
    assert (tmp_path / "tiny-tower" / "pieces.pdf").read_bytes().startswith(b"%PDF-")
    assert sorted(p.name for p in (tmp_path / "tiny-tower" / "pieces" / "svg").iterdir()) == [
        "back.svg", "base.svg", "keep.svg", "spire.svg"]
    assert (tmp_path / "references" / "tiny-tower-reference.pdf").is_file()
    assert "Built 1 deck: 6 cards" in out


def test_score_by_its_rules(fourth_game: None) -> None:
    code, out, err = invoke("score", "--content", str(CONTENT), "--json", str(HERE / "end-state.yaml"))
    assert (code, err) == (0, "")
    assert '"winner": "Ana"' in out and '"score": 9' in out and '"score": 4' in out


def test_score_reports_its_broken_rules(fourth_game: None, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: tiny-tower\nplayers:\n  - {name: Ana, pieces: [keep, keep]}\n", encoding="utf-8")
    code, out, _ = invoke("score", "--content", str(CONTENT), str(broken))
    assert code == 1
    assert "players[0].pieces[1]: stacks keep a second time" in out


def test_reference(fourth_game: None, tmp_path: Path) -> None:
    code, out, err = invoke("reference", "tiny-tower", "--content", str(CONTENT), "--out", str(tmp_path))
    assert code == 0, err
    assert (tmp_path / "references" / "tiny-tower-reference.pdf").read_bytes().startswith(b"%PDF-")


def test_a_build_of_pictures_alone_counts_no_pages(fourth_game: None, tmp_path: Path) -> None:
    """An SVG build imposes no page: its summary counts the cards and the files, not '6 cards on 0 pages'."""
    code, out, err = invoke("build", "--content", str(CONTENT), "--out", str(tmp_path), "--format", "svg")
    assert code == 0, err
    summary = out.strip().splitlines()[-1]
    assert summary.startswith("Built 1 deck: 6 cards, ") and "page" not in summary, summary
    code, out, err = invoke("build", "--content", str(CONTENT), "--out", str(tmp_path / "pdf"))
    assert code == 0, err
    assert out.strip().splitlines()[-1].startswith("Built 1 deck: 6 cards on 5 pages, ")
