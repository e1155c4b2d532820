"""generator.output: file names from ids stay inside the output folder, and writes are all-or-nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import OutputError
from generator.output import atomic_path, inside, prepare_dir, safe_name, write_text


@pytest.mark.parametrize(("given", "expected"), [
    ("tax-collector", "tax-collector"), ("Tax Collector", "tax-collector"), ("../../x", "x"),
    ("/etc/passwd", "etc-passwd"), ("CON", "con-"), ("nul.txt", "nul.txt-"), ("..", "unnamed"), ("", "unnamed"),
    ("a/../../b", "a-b"), ("é clair", "clair"),
])
def test_safe_names(given: str, expected: str) -> None:
    assert safe_name(given) == expected


@pytest.mark.parametrize("parts", [("..", "x.pdf"), ("/etc", "passwd"), ("a/../..", "b.svg"), ("game", "../../x.png"),
                                   ("CON", "AUX.pdf")])
def test_hostile_ids_stay_inside(tmp_path: Path, parts: tuple[str, ...]) -> None:
    root = tmp_path / "out"
    path = inside(root, *parts)
    write_text(path, "x")
    # the one file written is below the output folder, and nothing else was created beside it
    assert root.resolve() in path.resolve().parents
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    assert [p for p in root.rglob("*") if p.is_file()] == [path]


def test_atomic_write_keeps_the_old_file_when_the_writer_fails(tmp_path: Path) -> None:
    target = tmp_path / "deck.pdf"
    target.write_bytes(b"the good one")
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_bytes(b"half")
            raise RuntimeError("a card does not fit")
    assert target.read_bytes() == b"the good one"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.pdf"]  # no temporary file left behind


def test_atomic_write_replaces_when_done(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "deck.pdf"
    with atomic_path(target) as tmp:
        tmp.write_bytes(b"new")
    assert target.read_bytes() == b"new"


def test_prepare_dir_refuses_a_file(tmp_path: Path) -> None:
    blocker = tmp_path / "out"
    blocker.write_text("x")
    with pytest.raises(OutputError, match="--out .*out: is a file, not a folder"):
        prepare_dir(blocker)
