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


# --- links inside the output folder ---------------------------------------------------------------------------------

@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, Path]:
    """An output folder whose `guildhall` folder is a symbolic link to a folder outside it, and that outside folder."""
    root, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    root.mkdir()
    elsewhere.mkdir()
    (root / "guildhall").symlink_to(elsewhere, target_is_directory=True)
    return root, elsewhere


@pytest.mark.parametrize("parts", [("guildhall", "vp-tokens.pdf"), ("guildhall", "vp-tokens", "svg")])
def test_a_linked_folder_leading_outside_is_refused(linked: tuple[Path, Path], parts: tuple[str, ...]) -> None:
    root, elsewhere = linked
    with pytest.raises(OutputError, match=f"is outside the output folder {root.resolve()}"):
        inside(root, *parts)
    assert list(elsewhere.iterdir()) == []


def test_a_linked_file_leading_outside_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "out"
    (root / "guildhall").mkdir(parents=True)
    (tmp_path / "precious.pdf").write_bytes(b"mine")
    (root / "guildhall" / "vp-tokens.pdf").symlink_to(tmp_path / "precious.pdf")
    with pytest.raises(OutputError, match="is outside the output folder"):
        inside(root, "guildhall", "vp-tokens.pdf")


def test_a_link_that_stays_inside_is_followed(tmp_path: Path) -> None:
    root = tmp_path / "out"
    (root / "kept").mkdir(parents=True)
    (root / "guildhall").symlink_to(root / "kept", target_is_directory=True)
    path = write_text(inside(root, "guildhall", "vp-tokens.pdf"), "x")
    assert (root / "kept" / "vp-tokens.pdf").read_text() == "x" and path.name == "vp-tokens.pdf"


def test_build_into_a_linked_folder_leading_outside_fails_and_writes_nothing_there(linked: tuple[Path, Path]) -> None:
    from typer.testing import CliRunner

    from generator.cli import app

    root, elsewhere = linked
    result = CliRunner().invoke(app, ["build", "guildhall/vp-tokens", "--out", str(root)])
    assert result.exit_code == 3, result.output
    assert "is outside the output folder" in result.stderr
    assert list(elsewhere.rglob("*")) == []


def test_the_preview_shows_documents_not_exports(tmp_path: Path) -> None:
    """Every kind of output has its folder; the preview lists the PDFs of the document kinds only."""
    from generator.export.preview import find_documents
    from generator.output import EXPORT_KINDS, KIND_FOLDERS

    assert EXPORT_KINDS < KIND_FOLDERS.keys()
    for kind in KIND_FOLDERS:
        (tmp_path / kind).mkdir()
        (tmp_path / kind / "a.pdf").write_bytes(b"%PDF-1.4\n")
    shown = {path.parent.name for path in find_documents(tmp_path)}
    assert shown == KIND_FOLDERS.keys() - EXPORT_KINDS
