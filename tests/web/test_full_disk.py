"""A full disk, for real: a small tmpfs mounted in a mount namespace of its own (the test runs donjon there with
`nsenter`, and fills or frees the disk through /proc/PID/root). `donjon history import|edit|delete` and `donjon
serve` starting on it exit 3 ("cannot be written"), keep every game saved before and leave no new file; a
running `donjon serve` answers a save 507 in words and carries on, and the same save is kept once space is
freed. Needs root, unshare and nsenter (CI runs as root); skipped elsewhere unless DONJON_REQUIRE_NETNS=1."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest

from tests.processes import with_default_signals
from tests.web.conftest import example
from tests.web.test_serve_process import wait_ready

#: big enough for a database of a few games and donjon's own temporary files, small enough to fill at once
DISK = "2m"


class Disk(NamedTuple):
    enter: list[str]  # the prefix that runs a command in the namespace where the disk is mounted
    path: Path  # the disk as those commands see it
    seen: Path  # the same folder as this test sees it (through /proc/PID/root)

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.enter, sys.executable, "-m", "generator", *args], capture_output=True,
                              text=True, timeout=120)

    def fill(self) -> None:
        """Write until the disk says it is full (ENOSPC), as a big download would."""
        with open(self.seen / "filler", "wb") as out:
            try:
                while True:
                    out.write(b"\0" * 65536)
                    out.flush()
            except OSError as err:
                assert err.errno == errno.ENOSPC, err

    def free(self) -> None:
        (self.seen / "filler").unlink()


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Disk]:
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("nsenter"):
        if os.environ.get("DONJON_REQUIRE_NETNS") == "1":
            pytest.fail("a mount namespace is needed (root, unshare and nsenter)")
        pytest.skip("a mount namespace needs root, unshare and nsenter")
    holder = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "sleep", "900"])
    try:
        own = os.readlink("/proc/self/ns/mnt")
        deadline = time.monotonic() + 30  # generous: a loaded machine may start unshare slowly
        while os.readlink(f"/proc/{holder.pid}/ns/mnt") == own:  # unshare has not exec'd sleep yet
            assert time.monotonic() < deadline, "unshare did not start within 30 s"
            time.sleep(0.01)
        enter = ["nsenter", "-t", str(holder.pid), "-m"]
        folder = tmp_path / "disk"
        folder.mkdir()
        subprocess.run([*enter, "mount", "-t", "tmpfs", "-o", f"size={DISK}", "tmpfs", str(folder)], check=True)
        yield Disk(enter, folder, Path(f"/proc/{holder.pid}/root") / folder.relative_to("/"))
    finally:
        holder.kill()  # the last process of the namespace: the tmpfs goes with it
        holder.wait()


def export_of(count: int, first: int = 0) -> dict[str, Any]:
    """A history export of `count` Guildhall games (the shipped example, each with its own uid)."""
    from generator.web.games import Games

    state = example("guildhall")
    result = Games().score(state).result
    games: list[dict[str, Any]] = [{"uid": f"game-{n}", "game": "guildhall", "played_at": f"2026-03-01 20:{n % 60:02d}:00", "team": [],
              "end_state": state, "result": result} for n in range(first, first + count)]
    return {"format": "donjon-history", "version": 1, "games": games}


def saved_uids(disk: Disk, db: Path) -> list[str]:
    listed = disk.run("history", "list", "--db", str(db), "--json")
    assert listed.returncode == 0, listed.stderr
    return sorted(g["uid"] for g in json.loads(listed.stdout))


def test_a_full_disk_is_exit_3_for_history_and_serve_and_nothing_is_lost(disk: Disk, tmp_path: Path) -> None:
    db = disk.path / "history.sqlite3"
    one, many = tmp_path / "one.json", tmp_path / "many.json"
    one.write_text(json.dumps(export_of(1)), encoding="utf-8")
    many.write_text(json.dumps(export_of(300, first=1)), encoding="utf-8")
    done = disk.run("history", "import", str(one), "--db", str(db))
    assert done.returncode == 0, done.stderr
    files = sorted(p.name for p in disk.seen.iterdir())
    disk.fill()
    for command in (("history", "import", str(many), "--db", str(db)),
                    ("history", "delete", "1", "--db", str(db)),
                    ("serve", "--port", "0", "--db", str(disk.path / "new.sqlite3"))):
        refused = disk.run(*command)
        assert refused.returncode == 3, (command, refused.stdout, refused.stderr)
        assert "cannot be written" in refused.stderr or "cannot open the database for writing" in refused.stderr, \
            refused.stderr
        assert "Traceback" not in refused.stderr
    # no new file left behind (SQLite's own -wal and -shm beside the database aside: they are its to manage)
    left = {p.name for p in disk.seen.iterdir()} - {"filler", "history.sqlite3-wal", "history.sqlite3-shm"}
    assert left == set(files) - {"history.sqlite3-wal", "history.sqlite3-shm"}
    assert saved_uids(disk, db) == ["game-0"]  # read on a full disk, and as it was
    disk.free()
    done = disk.run("history", "import", str(many), "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert len(saved_uids(disk, db)) == 301


def test_a_read_only_folder_is_read_and_refused_as_output(disk: Disk, tmp_path: Path) -> None:
    """The database's folder mounted read-only (a USB stick locked, a read-only share): `history list` reads it,
    and what would write says it cannot (exit 3). The list said the database was damaged (exit 2), since reading a
    WAL database makes a file beside it; a new database there was an internal error (exit 4): cleaning up after
    the refusal, SQLite's files were removed from a folder that refuses even the removal of what is not there."""
    db = disk.path / "history.sqlite3"
    one = tmp_path / "one.json"
    one.write_text(json.dumps(export_of(1)), encoding="utf-8")
    assert disk.run("history", "import", str(one), "--db", str(db)).returncode == 0
    subprocess.run([*disk.enter, "mount", "-o", "remount,ro", str(disk.path)], check=True)
    listed = disk.run("history", "list", "--db", str(db))
    assert listed.returncode == 0 and "Guildhall" in listed.stdout, listed.stderr
    for command in (("history", "delete", "1", "--db", str(db)),
                    ("history", "import", str(one), "--db", str(disk.path / "new.sqlite3")),
                    ("serve", "--port", "0", "--db", str(disk.path / "new.sqlite3"))):
        refused = disk.run(*command)
        assert refused.returncode == 3, (command, refused.stdout, refused.stderr)
        assert "cannot be written" in refused.stderr and "Traceback" not in refused.stderr, refused.stderr
    assert saved_uids(disk, db) == ["game-0"]


def test_a_running_companion_answers_507_on_a_full_disk_and_keeps_the_save_once_there_is_room(disk: Disk) -> None:
    command = [*disk.enter, *with_default_signals([sys.executable, "-m", "generator", "serve", "--port", "0",
                                                   "--db", str(disk.path / "serve.sqlite3")])]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        found = re.search(r"(http://\S+)", server.stdout.readline())
        assert found
        base = found.group(1).rstrip("/")
        wait_ready(base)
        state = example("guildhall")

        def save(key: str) -> httpx.Response:
            return httpx.post(f"{base}/api/games", content=json.dumps(state), timeout=30,
                              headers={"content-type": "application/json", "idempotency-key": key})

        assert save("first").status_code == 201
        disk.fill()
        refused = save("second")
        assert refused.status_code == 507, (refused.status_code, refused.text)
        assert "nothing was saved" in refused.json()["error"] and "disk" in refused.json()["error"]
        # a page says it in words too (opening a table writes it)
        page = httpx.post(f"{base}/tables", data={"game": "guedelon", "events": "easy", "name": ["Ana", "Ben"]}, timeout=30,
                          headers={"sec-fetch-site": "same-origin"})
        assert page.status_code == 507 and "Free some space" in page.text
        assert [g["id"] for g in httpx.get(f"{base}/api/games", timeout=30).json()] == [1]  # still answering
        disk.free()
        kept = save("second")  # the same request sent again, as a phone or a script retries
        assert kept.status_code == 201
        assert len(httpx.get(f"{base}/api/games", timeout=30).json()) == 2
        server.send_signal(signal.SIGINT)
        _, errors = server.communicate(timeout=15)
        assert server.returncode == 0
        assert "Traceback" not in errors and "Exception" not in errors, errors
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
