"""generator.output's transaction: a command's outputs are put in place all together or not at all, never two
of them on one path, and what killed commands leave behind is swept (only ours, only stale)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import generator.output as output
from generator.errors import OutputError
from generator.output import STAGING_PREFIX, Transaction, atomic_path, staged, sweep, transaction, write_bytes


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*"))


def files(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` but donjon's staging."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.relative_to(folder).parts[0].startswith(STAGING_PREFIX)}


def dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def earlier_outputs(out: Path) -> dict[str, bytes]:
    (out / "game" / "deck" / "svg").mkdir(parents=True)
    (out / "game" / "deck.pdf").write_bytes(b"old sheets")
    (out / "game" / "deck" / "svg" / "a.svg").write_bytes(b"old card")
    (out / "references").mkdir()
    (out / "references" / "game-reference.pdf").write_bytes(b"old reference")
    return files(out)


def test_nothing_is_replaced_until_every_output_is_made(tmp_path: Path) -> None:
    out = tmp_path / "out"
    before = earlier_outputs(out)
    with pytest.raises(RuntimeError), transaction(out):
        write_bytes(out / "game" / "deck.pdf", b"new sheets")
        with staged([out / "game" / "deck" / "svg"]) as [folder]:
            folder.write("b.svg", b"new card")
        assert files(out) == before  # staged, not yet in place
        raise RuntimeError("the next deck does not fit")
    assert files(out) == before
    assert hidden(out) == []


def test_everything_is_put_in_place_together(tmp_path: Path) -> None:
    out = tmp_path / "out"
    earlier_outputs(out)
    with transaction(out):
        write_bytes(out / "game" / "deck.pdf", b"new sheets")
        with staged([out / "game" / "deck" / "svg"]) as [folder]:
            folder.write("b.svg", b"new card")
        with atomic_path(out / "references" / "game-reference.pdf") as tmp:
            tmp.write_bytes(b"new reference")
    assert files(out) == {"game/deck.pdf": b"new sheets", "game/deck/svg/b.svg": b"new card",
                          "references/game-reference.pdf": b"new reference"}
    assert hidden(out) == []


def test_two_outputs_of_one_command_never_share_a_path(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(OutputError, match="would be written twice by this command: the sheets of game/a and the "
                                          "score sheet a"), transaction(out) as tx:
        with tx.file(out / "game" / "a.pdf", "the sheets of game/a") as tmp:
            tmp.write_bytes(b"1")
        with tx.file(out / "game" / "a.pdf", "the score sheet a") as tmp:
            tmp.write_bytes(b"2")
    with pytest.raises(OutputError, match="lies inside .*svg, which this command replaces whole"), \
            transaction(out) as tx:
        tx.folder(out / "game" / "a" / "svg", "the SVG files of game/a")
        with tx.file(out / "game" / "a" / "svg" / "x.svg") as tmp:
            tmp.write_bytes(b"x")
    assert not out.exists() or files(out) == {}


@pytest.mark.parametrize("exchange", [True, False])
def test_a_folder_is_swapped_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exchange: bool) -> None:
    if not exchange:  # where renameat2 is missing: the old folder steps aside, then the new one comes in
        monkeypatch.setattr(output, "_exchange", lambda new, old: False)
    out = tmp_path / "out"
    earlier_outputs(out)
    with staged([out / "game" / "deck" / "svg"]) as [folder]:
        folder.write("b.svg", b"new")
    assert sorted(p.name for p in (out / "game" / "deck" / "svg").iterdir()) == ["b.svg"]
    assert hidden(out) == []


def test_a_file_is_replaced_where_the_file_system_has_no_hard_links(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(*_args: object, **_kwargs: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    out = tmp_path / "out"
    earlier_outputs(out)
    write_bytes(out / "game" / "deck.pdf", b"new sheets")
    assert (out / "game" / "deck.pdf").read_bytes() == b"new sheets" and hidden(out) == []


def test_a_replaced_file_is_the_new_one_under_the_same_name(tmp_path: Path) -> None:
    """Replaced in one rename: the path names the new file (its own inode), the old one is gone with the staging."""
    out = tmp_path / "out"
    earlier_outputs(out)
    old = (out / "game" / "deck.pdf").stat().st_ino
    write_bytes(out / "game" / "deck.pdf", b"new sheets")
    assert (out / "game" / "deck.pdf").stat().st_ino != old
    assert (out / "game" / "deck.pdf").read_bytes() == b"new sheets" and hidden(out) == []


def test_a_rename_that_fails_undoes_the_ones_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    before = earlier_outputs(out)
    real = output._place
    calls = []

    def failing(staged_path: Path, final: Path) -> object:
        calls.append(final)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(staged_path, final)

    monkeypatch.setattr(output, "_place", failing)
    with pytest.raises(OutputError, match="No space left on device"), transaction(out):
        write_bytes(out / "game" / "deck.pdf", b"new sheets")
        with staged([out / "game" / "deck" / "svg"]) as [folder]:
            folder.write("b.svg", b"new card")
        write_bytes(out / "references" / "game-reference.pdf", b"new reference")
    assert len(calls) == 3
    assert files(out) == before
    assert hidden(out) == []


def _card_folder(out: Path) -> dict[str, bytes]:
    (out / "game" / "deck" / "svg").mkdir(parents=True)
    for name in ("a", "b", "c"):
        (out / "game" / "deck" / "svg" / f"{name}.svg").write_bytes(f"old {name}".encode())
    (out / "game" / "deck.pdf").write_bytes(b"old sheets")
    return files(out)


def test_a_folder_updated_in_place_swaps_only_the_files_written(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _card_folder(out)
    svg = out / "game" / "deck" / "svg"
    kept = os.stat(svg / "c.svg")
    with transaction(out):
        with staged([svg], "cards", in_place=lambda final: True) as [folder]:
            assert isinstance(folder, output.UpdatedFolder)
            folder.write("a.svg", b"new a")
            assert folder.link("c.svg", svg / "c.svg")  # the file in place stays: nothing to do
            assert not folder.link("b.svg", out / "game" / "deck.pdf")  # another file: to be written
            folder.write("b.svg", b"new b")
            assert (svg / "a.svg").read_bytes() == b"old a"  # staged, not yet in place
            assert Path(folder.written("a.svg")).read_bytes() == b"new a"
        write_bytes(out / "game" / "deck.pdf", b"new sheets")
    assert files(out) == {"game/deck.pdf": b"new sheets", "game/deck/svg/a.svg": b"new a",
                          "game/deck/svg/b.svg": b"new b", "game/deck/svg/c.svg": b"old c"}
    assert (os.stat(svg / "c.svg").st_ino, os.stat(svg / "c.svg").st_mtime_ns) == (kept.st_ino, kept.st_mtime_ns)
    assert hidden(out) == []


@pytest.mark.parametrize("fails", ["the command, after the files were staged", "the second file's rename",
                                   "writing a file (disk full)"])
def test_a_folder_updated_in_place_is_left_as_it_was_when_the_command_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fails: str) -> None:
    out = tmp_path / "out"
    before = _card_folder(out)
    svg = out / "game" / "deck" / "svg"
    real_place, placed = output._place, []

    def failing_place(staged_path: Path, final: Path) -> object:
        placed.append(final)
        if len(placed) == 2:
            raise OSError(28, "No space left on device")
        return real_place(staged_path, final)

    if fails == "the second file's rename":
        monkeypatch.setattr(output, "_place", failing_place)
    with pytest.raises((RuntimeError, OutputError)), transaction(out):
        with staged([svg], "cards", in_place=lambda final: True) as [folder]:
            folder.write("a.svg", b"new a")
            if fails == "writing a file (disk full)":
                monkeypatch.setattr(Path, "write_bytes", lambda self, data: (_ for _ in ()).throw(
                    OSError(28, "No space left on device")))
            folder.write("b.svg", b"new b")
        if fails == "the command, after the files were staged":
            raise RuntimeError("the next deck does not fit")
    monkeypatch.undo()
    assert files(out) == before
    assert hidden(out) == []


def test_a_blocked_path_is_refused_before_anything_moves(tmp_path: Path) -> None:
    out = tmp_path / "out"
    before = earlier_outputs(out)
    (out / "decks").write_bytes(b"a file where a folder belongs")
    before["decks"] = b"a file where a folder belongs"
    with pytest.raises(OutputError, match="decks: is a file where a folder belongs"), transaction(out):
        write_bytes(out / "game" / "deck.pdf", b"new sheets")
        write_bytes(out / "decks" / "mine.pdf", b"mine")
    assert files(out) == before


def test_sweep_removes_only_our_temporaries_of_ended_commands(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    gone = out / f"{STAGING_PREFIX}{dead_pid()}-abcd1234"
    running = out / f"{STAGING_PREFIX}{os.getpid()}-efgh5678"
    for folder in (gone, running):
        (folder / "000001").mkdir(parents=True)
    (out / ".keep-me").write_text("a hidden file of the user's")
    (out / "game").mkdir()
    old_tmp = out / "game" / ".deck.pdf.abcd_123.tmp"  # a temporary of an earlier donjon, hours old
    new_tmp = out / "game" / ".deck.pdf.wxyz_789.tmp"  # ... and one a running earlier donjon is writing now
    old_tmp.write_bytes(b"half")
    new_tmp.write_bytes(b"half")
    hours_ago = time.time() - 3 * 3600
    os.utime(old_tmp, (hours_ago, hours_ago))
    removed = sweep(out)
    assert sorted(removed) == sorted([gone, old_tmp])
    assert running.exists() and new_tmp.exists() and (out / ".keep-me").exists()


@pytest.mark.parametrize("written_by", ["this version", "an earlier version (JSON)"])
@pytest.mark.parametrize("killed", ["between two outputs", "after keeping the old file, before the rename"])
def test_sweep_finishes_the_renames_of_a_command_killed_while_committing(tmp_path: Path, written_by: str,
                                                                         killed: str) -> None:
    """A command killed outright after putting one of its outputs in place but not the other: the next command
    finishes the job, so the outputs agree again."""
    out = tmp_path / "out"
    earlier_outputs(out)
    root = out / f"{STAGING_PREFIX}{dead_pid()}-killed01"
    root.mkdir()
    (root / "000001").write_bytes(b"new sheets")
    (root / "000002").write_bytes(b"new reference")
    moves = [(root / name, (out / final).resolve())
             for name, final in (("000001", "game/deck.pdf"), ("000002", "references/game-reference.pdf"))]
    if written_by == "this version":
        (root / "journal").write_bytes(output._journal(moves))
    else:
        (root / "journal").write_text(json.dumps([{"staged": staged_path.name, "final": str(final),
                                                   "inode": staged_path.stat().st_ino} for staged_path, final in moves]))
    output._place(*moves[0])  # the one rename it did
    if killed != "between two outputs":  # the second old file already has its second name
        os.link(moves[1][1], root / "000002-old")
    sweep(out)
    assert (out / "game" / "deck.pdf").read_bytes() == b"new sheets"
    assert (out / "references" / "game-reference.pdf").read_bytes() == b"new reference"
    assert hidden(out) == []


def test_sweep_brings_back_a_folder_an_earlier_version_left_aside(tmp_path: Path) -> None:
    """donjon before 0.2 swapped a deck's SVG folder with two renames: killed between them, `svg/` was missing
    and the old copy was in `.svg-old-XXXXXXXX/previous`."""
    deck = tmp_path / "out" / "game" / "deck"
    aside = deck / ".svg-old-k3j4h5g6" / "previous"
    aside.mkdir(parents=True)
    (aside / "a.svg").write_bytes(b"old card")
    hours_ago = time.time() - 3 * 3600
    os.utime(deck / ".svg-old-k3j4h5g6", (hours_ago, hours_ago))
    sweep(tmp_path / "out")
    assert (deck / "svg" / "a.svg").read_bytes() == b"old card"
    assert hidden(tmp_path / "out") == []


def test_a_transaction_inside_another_joins_it(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with transaction(out) as outer:
        with transaction(out / "sub") as inner:
            write_bytes(out / "sub" / "x.pdf", b"x")
        assert inner is outer and not (out / "sub" / "x.pdf").exists()
    assert (out / "sub" / "x.pdf").read_bytes() == b"x"


def test_staging_is_made_lazily(tmp_path: Path) -> None:
    tx = Transaction(tmp_path)
    tx.commit()  # nothing staged, nothing to do
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("owner", ["", "this computer", '{"host": "this computer", "pid": 1}'])
def test_sweep_reads_the_owner_files_of_this_and_earlier_versions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  owner: str) -> None:
    """An owner file names the computer (as JSON before); an empty one was cut short as it was written. Each way,
    the staging folder of a process of this computer that has ended is swept."""
    monkeypatch.setattr(output, "_host", lambda: "this computer")
    out = tmp_path / "out"
    root = out / f"{STAGING_PREFIX}{dead_pid()}-abcd1234"
    root.mkdir(parents=True)
    (root / "owner").write_text(owner)
    assert sweep(out) == [root]


def test_a_stop_whose_exception_was_lost_still_stops_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A signal handler runs between any two bytecodes; when it lands in a weakref callback (an import's module
    lock has one), Python drops the exception it raises. The request is noted, not reported as an error, and
    raised again before anything is put in place."""
    import signal
    import weakref

    import generator.errors as errors
    from generator.cli import _unraisable

    monkeypatch.setattr(errors, "_stop_signal", None)
    monkeypatch.setattr(sys, "unraisablehook", _unraisable)
    out = tmp_path / "out"
    before = earlier_outputs(out)

    class Lock:
        pass

    with pytest.raises(errors.Interrupted, match="stopped by SIGTERM"), transaction(out):
        write_bytes(out / "game" / "deck.pdf", b"new sheets")
        lock = Lock()
        watcher = weakref.ref(lock, lambda _gone: errors.request_stop(signal.SIGTERM))
        del lock  # the callback runs and its exception is dropped: the block goes on
        assert watcher() is None
    assert files(out) == before and hidden(out) == []
    assert "Exception ignored" not in capsys.readouterr().err
