"""Real processes, real signals: a command stopped by SIGTERM, SIGHUP or SIGQUIT leaves the earlier outputs as
they were and nothing of its own behind; its worker processes die with it on every signal, SIGKILL included;
and what a killed command leaves is swept by the next one."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import with_default_signals
from tests.test_corpus import donjon_argv

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find the workers")

#: How long a command may take to stop once signalled (it finishes the card it is drawing, then cleans up).
STOP_S = 20


def make_deck(folder: Path, cards: int, text: str = "Gain {wood} and draw a card.") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "deck.yaml").write_text("id: big\nname: Big\nlayout: generic\ncards: cards.csv\n", encoding="utf-8")
    rows = "".join(f"Card {i},{i % 7},{text}\n" for i in range(cards))
    (folder / "cards.csv").write_text("Name,Cost,Text\n" + rows, encoding="utf-8")
    return folder


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def staging(out: Path) -> list[Path]:
    return sorted(out.glob(".donjon-*"))


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def wait_for(condition: object, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def start(args: list[str], cwd: Path, ignored: tuple[str, ...] = ()) -> subprocess.Popen[str]:
    """donjon started as from a terminal (or under `nohup`, with `ignored`), whatever signal state the test runner
    inherited."""
    return subprocess.Popen(with_default_signals([*donjon_argv(), *args], ignored), cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


CATCHABLE = [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT]


def built_once(tmp_path: Path, cards: int) -> tuple[Path, dict[str, str]]:
    """An output folder holding a first build of a small deck, and the digest of what it holds."""
    out = tmp_path / "out"
    small = make_deck(tmp_path / "small", cards, "The first build.")
    first = subprocess.run([*donjon_argv(), "build", "--content", str(small), "--out", str(out)], capture_output=True,
                           text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    return out, digest(out)


def writing(process: subprocess.Popen[str], out: Path) -> None:
    """Wait until the build has begun staging its outputs, and make sure it is still running."""
    assert wait_for(lambda: staging(out) or process.poll() is not None), "the build never began writing"
    assert process.poll() is None, "the build ended before it could be signalled; make the deck bigger"


#: What a stopped command says on standard error, signal by signal: Ctrl-C as a terminal's user knows it.
SAYS: dict[int, str] = {signal.SIGINT: "donjon: interrupted\n",
        **{sig: f"donjon: stopped by {signal.Signals(sig).name}\n" for sig in CATCHABLE}}


@pytest.mark.parametrize("sig", [signal.SIGINT, *CATCHABLE], ids=lambda s: signal.Signals(s).name)
def test_a_signalled_build_changes_nothing_and_leaves_nothing(tmp_path: Path, sig: int) -> None:
    out, before = built_once(tmp_path, 20)
    big = make_deck(tmp_path / "big", 2500)
    process = start(["build", "--content", str(big), "--out", str(out)], tmp_path)
    writing(process, out)
    process.send_signal(sig)
    _stdout, stderr = process.communicate(timeout=STOP_S)
    assert process.returncode == 128 + sig, stderr
    assert stderr == SAYS[sig], stderr
    assert digest(out) == before, "a stopped build changed the earlier outputs"
    assert staging(out) == [] and list(out.rglob(".*")) == [], "a stopped build left temporaries"


def test_a_signal_that_comes_while_outputs_are_put_in_place_waits_and_says_so(tmp_path: Path) -> None:
    """Outputs are put in place with the stopping signals held: one that comes then waits until the last rename,
    so every output is new (none half-replaced), and the command, stopped, says its outputs were put in place."""
    out, before = built_once(tmp_path, 3)
    script = (  # the signal is sent from inside the first rename of the commit
        "import os, signal, sys\nimport generator.output as output\nfrom generator.cli import main\n"
        "real = output._place\n"
        "def place(staged, final):\n    os.kill(os.getpid(), signal.SIGTERM)\n    return real(staged, final)\n"
        "output._place = place\n"
        "sys.argv = ['donjon', 'build', '--content', sys.argv[1], '--out', sys.argv[2]]\nmain()\n")
    big = make_deck(tmp_path / "big", 3, "The second build.")
    done = subprocess.run(with_default_signals([sys.executable, "-c", script, str(big), str(out)]),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert "donjon: stopped by SIGTERM (after its outputs were put in place)" in done.stderr
    after = digest(out)
    changed = {name for name in after if after[name] != before.get(name)}
    assert "decks/big.pdf" in changed and any(name.startswith("decks/big/svg/") for name in changed), changed
    assert staging(out) == [] and list(out.rglob(".*")) == []


def test_a_signal_that_comes_as_the_staging_folder_is_made_leaves_nothing(tmp_path: Path) -> None:
    """The staging folder is made with the stopping signals held: a signal that comes the moment it exists (when
    the other tests send theirs) is handled once the transaction knows the folder, which it then removes."""
    out, before = built_once(tmp_path, 3)
    script = (  # the signal is sent from inside mkdtemp, just after its mkdir
        "import os, signal, sys, tempfile\nfrom generator.cli import main\n"
        "real = os.mkdir\n"
        "def mkdir(path, *args, **kwargs):\n    real(path, *args, **kwargs)\n"
        "    if '.donjon-' in str(path):\n        os.kill(os.getpid(), signal.SIGTERM)\n"
        "tempfile._os.mkdir = mkdir\n"
        "sys.argv = ['donjon', 'build', '--content', sys.argv[1], '--out', sys.argv[2]]\nmain()\n")
    big = make_deck(tmp_path / "big", 3, "The second build.")
    done = subprocess.run(with_default_signals([sys.executable, "-c", script, str(big), str(out)]),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert digest(out) == before, "a stopped build changed the earlier outputs"
    assert staging(out) == [] and list(out.rglob(".*")) == [], "a stopped build left temporaries"


def test_a_signal_ignored_by_the_parent_stays_ignored(tmp_path: Path) -> None:
    """`nohup donjon build` ignores the hangup it asked to ignore: the build goes on to its end."""
    out = tmp_path / "out"
    big = make_deck(tmp_path / "big", 2500)
    process = start(["build", "--content", str(big), "--out", str(out)], tmp_path, ignored=("SIGHUP",))
    writing(process, out)
    process.send_signal(signal.SIGHUP)
    _stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    assert (out / "decks" / "big.pdf").is_file() and staging(out) == []


def test_a_killed_build_is_swept_by_the_next_command(tmp_path: Path) -> None:
    out = tmp_path / "out"
    big = make_deck(tmp_path / "big", 2500)
    process = start(["build", "--content", str(big), "--out", str(out)], tmp_path)
    assert wait_for(lambda: staging(out) or process.poll() is not None)
    process.kill()
    process.communicate(timeout=STOP_S)
    left = staging(out)
    assert left, "SIGKILL cannot be caught: the staging folder stays until the next command"
    assert not (out / "decks" / "big.pdf").exists()
    small = make_deck(tmp_path / "small", 3)
    done = subprocess.run([*donjon_argv(), "build", "--content", str(small), "--out", str(out)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert staging(out) == [] and list(out.rglob(".*")) == []


def export_with_workers(tmp_path: Path, at_least: int) -> tuple[subprocess.Popen[str], Path, list[int]]:
    """A PNG export of a 400-card deck on two workers, once `at_least` of them run: the process, its output folder
    and the workers' process ids."""
    out = tmp_path / "out"
    deck = make_deck(tmp_path / "deck", 400)
    process = start(["export", "png", "--content", str(deck), "--out", str(out), "--jobs", "2"], tmp_path)
    workers: list[int] = []

    def forked() -> bool:
        workers[:] = children(process.pid)
        return len(workers) >= at_least or process.poll() is not None

    assert wait_for(forked), "the export never started its workers"
    assert process.poll() is None and len(workers) >= at_least, "the export ended before it could be signalled"
    return process, out, workers


@pytest.mark.parametrize("sig", [*CATCHABLE, signal.SIGKILL], ids=lambda s: signal.Signals(s).name)
def test_workers_die_with_their_parent(tmp_path: Path, sig: int) -> None:
    """Only the parent is signalled, as a service manager or `kill PID` does (Ctrl-C signals the whole group)."""
    process, out, workers = export_with_workers(tmp_path, 2)
    process.send_signal(sig)
    process.communicate(timeout=STOP_S)
    assert wait_for(lambda: not any(running(w) for w in workers), 10), "a worker outlived its command"
    if sig != signal.SIGKILL:
        assert process.returncode == 128 + sig
        assert staging(out) == [] and list(out.rglob("*")) == []
    else:  # the next command sweeps what the killed one staged
        small = make_deck(tmp_path / "small", 2)
        done = subprocess.run([*donjon_argv(), "export", "png", "--content", str(small), "--out", str(out)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert staging(out) == []


def test_a_signal_that_comes_between_forking_a_worker_and_noting_it_stops_the_export(tmp_path: Path) -> None:
    """The workers are forked with the stopping signals held: a SIGTERM that came just after a fork, before the pool
    noted its worker, left a worker nobody killed, and the stopped export then waited for it at exit, forever (CI
    saw it once: "stopped by SIGTERM", and no exit 20 s later; the test above signals when the second worker
    appears, right in that moment)."""
    out = tmp_path / "out"
    deck = make_deck(tmp_path / "deck", 400)
    script = (  # the signal is sent from inside the pool's start of its second worker, just after the fork
        "import os, signal, sys\nimport multiprocessing.process as mp\nfrom generator.cli import run\n"
        "real = mp.BaseProcess.start\nstarted = []\n"
        "def start(self):\n    real(self)\n    started.append(self.pid)\n"
        "    if len(started) == 2:\n        print(*started, flush=True)\n        os.kill(os.getpid(), signal.SIGTERM)\n"
        "mp.BaseProcess.start = start\n"
        "sys.argv = ['donjon', 'export', 'png', '--content', sys.argv[1], '--out', sys.argv[2], '--jobs', '2']\nrun()\n")
    process = subprocess.Popen(with_default_signals([sys.executable, "-c", script, str(deck), str(out)]),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        stdout, stderr = process.communicate(timeout=STOP_S)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        pytest.fail(f"the stopped export did not exit within {STOP_S} s: {stderr}")
    assert process.returncode == 128 + signal.SIGTERM, stderr
    workers = [int(pid) for pid in stdout.split()]
    assert len(workers) == 2, stdout
    assert wait_for(lambda: not any(running(w) for w in workers), 10), "a worker outlived its command"
    assert staging(out) == [] and list(out.rglob("*")) == []


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=lambda s: signal.Signals(s).name)
def test_a_worker_killed_alone_fails_the_export_cleanly(tmp_path: Path, sig: int) -> None:
    """A worker that dies (the kernel's out-of-memory killer, or a `kill` of its own) fails the export, which keeps
    nothing of it. SIGTERM too: the workers are forked with the stopping signals held, and take them back."""
    process, out, workers = export_with_workers(tmp_path, 1)
    os.kill(workers[0], sig)
    _stdout, stderr = process.communicate(timeout=STOP_S)
    assert process.returncode == 3 and "a worker process was killed before it finished" in stderr, stderr
    assert wait_for(lambda: not any(running(w) for w in workers), 10)
    assert staging(out) == [] and list(out.rglob("*")) == []


def test_a_stopped_batch_of_end_states_leaves_no_child_scoring(tmp_path: Path) -> None:
    """`donjon score` of 200 files or more scores them in forked children too (scoring/batch.py): stopped, the command
    leaves none of them running on. Each child is slowed here to a tenth of a second a file (its block would take
    20 s), so that it is surely still scoring when its parent is signalled."""
    files = []
    for i in range(400):
        files.append(tmp_path / f"game{i:03}.yaml")
        files[-1].write_text(f"game: guildhall\n# {i}\n", encoding="utf-8")
    script = (
        "import os, sys, time\nimport scoring.batch as batch\nfrom generator.cli import run\n"
        "parent = os.getpid()\nreal = batch.outcome\n"
        "def outcome(*args, **kwargs):\n    if os.getpid() != parent:\n        time.sleep(0.1)\n"
        "    return real(*args, **kwargs)\n"
        "batch.outcome = outcome\nsys.argv = ['donjon', 'score', *sys.argv[1:]]\nrun()\n")
    process = subprocess.Popen(with_default_signals([sys.executable, "-c", script, *map(str, files)]),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    found: list[int] = []

    def forked() -> bool:
        found[:] = children(process.pid)
        return bool(found) or process.poll() is not None

    assert wait_for(forked), "the batch never forked"
    assert process.poll() is None and found, "the batch ended before it could be signalled"
    process.send_signal(signal.SIGTERM)
    try:
        _stdout, stderr = process.communicate(timeout=STOP_S)
    except subprocess.TimeoutExpired:  # the command ended, and a child went on holding its output open
        for child in found:
            os.kill(child, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"the output of the stopped command was still open {STOP_S} s later, held by a child")
    assert process.returncode == 128 + signal.SIGTERM, stderr[-500:]
    assert wait_for(lambda: not any(running(c) for c in found), 2), "a child went on scoring after its command"


def _doubled(_context: None, chunk: list[int]) -> list[int]:
    return [2 * n for n in chunk]


def test_a_score_whose_stop_was_lost_stops_at_the_next_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """A SIGTERM whose exception Python dropped (it landed in a weakref callback or a finaliser) is noted: `donjon
    score` stops at its next file, as the README promises every command does, where it scored every file to the
    end and exited as if never stopped (its batch calls no checkpoint)."""
    import weakref

    from typer.testing import CliRunner

    import generator.errors as errors
    import scoring.batch as batch
    from generator.cli import _unraisable, app
    from scoring.engine import Scorer

    monkeypatch.setattr(errors, "_stop_signal", None)
    monkeypatch.setattr(sys, "unraisablehook", _unraisable)
    example = Path(__file__).resolve().parent.parent / "content" / "examples" / "guildhall.yaml"
    files = [str(example)] * 3
    scored = []
    real = batch.outcome

    class Lock:
        pass

    def outcome(scorer: Scorer, unit: batch.Unit, as_json: bool, named: bool = False) -> batch.Outcome:
        scored.append(1)
        if len(scored) == 1:
            lock = Lock()
            watcher = weakref.ref(lock, lambda _gone: errors.request_stop(signal.SIGTERM))
            del lock  # the callback runs and its exception is dropped: the command goes on
            assert watcher() is None
        return real(scorer, unit, as_json, named)

    monkeypatch.setattr(batch, "outcome", outcome)
    with pytest.raises(errors.Interrupted, match="stopped by SIGTERM"):
        CliRunner().invoke(app, ["score", *files], catch_exceptions=False)
    assert len(scored) == 1


@pytest.mark.parametrize("broken_at", [0, 1, 3])
def test_a_pool_broken_while_the_work_is_handed_out_is_the_same_clean_failure(monkeypatch: pytest.MonkeyPatch,
                                                                             broken_at: int) -> None:
    """Handing out chunks starts the workers one by one: a worker killed meanwhile breaks the pool under `submit`
    itself (CI saw it as exit 4, "internal error: BrokenProcessPool"). It is the export's clean failure too."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from generator.errors import OutputError
    from generator.export import jobs

    submit = ProcessPoolExecutor.submit
    handed: list[int] = []

    def breaking_submit(self: ProcessPoolExecutor, *args: object, **kwargs: object) -> object:
        if len(handed) == broken_at:
            raise BrokenProcessPool("A child process terminated abruptly")
        handed.append(1)
        return submit(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ProcessPoolExecutor, "submit", breaking_submit)
    with pytest.raises(OutputError, match="a worker process was killed before it finished"):
        jobs.run(_doubled, None, [[1], [2], [3], [4]], jobs=2, weights=[20] * 4, progress=lambda _n: None)


def test_the_pool_runs_the_work_when_nothing_breaks() -> None:
    """The counterpart of the test above: the same call, unbroken, gives every chunk's result in order."""
    from generator.export import jobs

    done: list[int] = []
    assert jobs.run(_doubled, None, [[1], [2], [3], [4]], jobs=2, weights=[20] * 4,
                    progress=done.append) == [[2], [4], [6], [8]]
    assert sorted(done) == [20] * 4


def _sleepy(_context: None, chunk: list[int]) -> list[int]:
    time.sleep(60)
    return chunk


def test_a_ctrl_c_whose_exception_was_lost_still_stops_the_workers(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C's KeyboardInterrupt, raised in a finaliser, is dropped by Python; the request is noted all the same
    and the parent, waiting on its workers (a preview's PNGs), stops within a moment instead of rendering on."""
    import threading
    import weakref

    import generator.errors as errors
    from generator.cli import _unraisable
    from generator.export import jobs

    monkeypatch.setattr(errors, "_stop_signal", None)
    monkeypatch.setattr(sys, "unraisablehook", _unraisable)

    class Lock:
        pass

    def ctrl_c_lost_in_a_finaliser() -> None:
        lock = Lock()
        watcher = weakref.ref(lock, lambda _gone: errors.request_stop(signal.SIGINT))
        del lock  # the callback raises KeyboardInterrupt, which Python drops
        assert watcher() is None

    threading.Timer(1.0, ctrl_c_lost_in_a_finaliser).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        jobs.run(_sleepy, None, [[1], [2], [3], [4]], jobs=2, weights=[20] * 4, progress=lambda _n: None)
    assert time.monotonic() - start < 15
    assert "Exception ignored" not in capsys.readouterr().err
    # the pool's thread is gone too: left running, it races Python's exit ("Exception ignored ... Bad file
    # descriptor" after a full disk stopped a preview)
    assert not [t for t in threading.enumerate() if "Manager" in type(t).__name__]


def test_a_stop_a_library_took_for_an_error_of_its_own_is_reported_as_the_stop() -> None:
    """reportlab reads a font with a bare `except:`: a SIGTERM landing there comes out as "Corrupt TTF file". The
    stop was noted, so the command reports it as the stop (exit 143), not as a bug (exit 4)."""
    code = ("import signal, generator.cli as cli, generator.errors as errors\n"
            "errors._stop_signal = signal.SIGTERM\n"
            "def app(**_options):\n"
            "    raise ValueError('Corrupt TTF file: cannot read Table Directory')\n"
            "cli.app = app\n"
            "cli.main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert done.stderr == "donjon: stopped by SIGTERM\n"
