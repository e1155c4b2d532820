#!/usr/bin/env python3
"""donjon's benchmark: whole processes timed as a user runs them, compared pair by pair.

    python benchmarks/run.py                 # every case, 5 counted runs after 1 warm-up
    python benchmarks/run.py --peers         # also install protograf (own venv) and time it
    python benchmarks/run.py --cases deck,help --runs 9

Each case runs its commands interleaved (A B A B ...) so that a slow moment of the machine falls on all of
them alike, discards the warm-up rounds, and reports the median wall time, the peak memory (max RSS, from
`wait4`) and the output size of each command, then the ratio of each command to the case's reference.
Results go to `benchmarks/results.md` and `benchmarks/results.json`, with the targets marked met or missed
(those of issues 6, 10 and 13, and the time limits tests used to assert: the castle's score sheets, hostile
input), the figures of issue 15 (pictures: time, memory, PDF size, each picture file embedded once) and the target
of issue 23 (the drawing vocabulary on every card: at most 1.5x the plain deck); cases
not run this time are kept from the last report, with their date and their text. Only the report's generated blocks
(between `<!-- generated: CASE -->` and `<!-- /generated: CASE -->`) of the cases run are written anew: notes written
by hand outside them, under a table or in sections of their own, are kept (benchmarks/report_blocks.py). Only the
standard library is used, so the harness measures donjon and not itself (the picture decks are drawn once by
benchmarks/images/make_decks.py, in donjon's environment, which has Pillow).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
import report_blocks  # noqa: E402  (beside this file; standard library only)
from scan_report import saved_families, saved_section  # noqa: E402
WORK = HERE / "work"
PEERS = HERE / "peers"
DECK100 = HERE / "deck100"
VOCABULARY = HERE / "vocabulary"
IMAGES = HERE / "images"
PROTOGRAF_VENV = HERE / ".venv-protograf"
DONJON_VENV = HERE / ".venv-donjon"


@dataclass
class Command:
    name: str
    argv: list[str]
    cwd: Path = REPO
    #: a file or folder whose size is reported as the output size
    output: Path | None = None
    #: items the command produces (cards, end states), for a rate
    items: int = 0
    env: dict[str, str] = field(default_factory=dict)
    #: the exit code it must give (2 for input it must refuse)
    expect: int = 0


@dataclass
class Measure:
    name: str
    argv: str
    runs: list[float]
    rss_kb: list[int]
    median_s: float
    peak_rss_mb: float
    output_bytes: int
    items: int
    per_second: float | None
    exit_codes: list[int]
    #: for request latencies (the companion): the 95th percentile, and the requests that failed
    p95_s: float | None = None
    errors: int = 0


def run_once(cmd: Command) -> tuple[float, int, int]:
    """Wall time, peak RSS (KiB) and exit code of one whole process."""
    env = {**os.environ, **cmd.env}
    start = time.perf_counter()
    proc = subprocess.Popen(cmd.argv, cwd=cmd.cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode != cmd.expect:
        sys.stderr.write(f"  ! {cmd.name} exited {proc.returncode}, not {cmd.expect}: {stderr.strip()[:400]}\n")
    return elapsed, int(usage.ru_maxrss), proc.returncode


def size_of(path: Path | None) -> int:
    if path is None or not path.exists():
        return 0
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure(commands: list[Command], runs: int, warmup: int) -> list[Measure]:
    """Interleave the commands: every round runs each once; the first `warmup` rounds are not counted."""
    times: dict[str, list[float]] = {c.name: [] for c in commands}
    rss: dict[str, list[int]] = {c.name: [] for c in commands}
    codes: dict[str, list[int]] = {c.name: [] for c in commands}
    for round_number in range(warmup + runs):
        for cmd in commands:
            elapsed, peak, code = run_once(cmd)
            if round_number >= warmup:
                times[cmd.name].append(elapsed)
                rss[cmd.name].append(peak)
                codes[cmd.name].append(code)
    out = []
    for cmd in commands:
        median = statistics.median(times[cmd.name])
        out.append(Measure(cmd.name, _command_line(cmd.argv), [round(t, 4) for t in times[cmd.name]],
                           rss[cmd.name], round(median, 4), round(max(rss[cmd.name]) / 1024, 1),
                           size_of(cmd.output), cmd.items,
                           round(cmd.items / median, 1) if cmd.items else None, codes[cmd.name]))
    return out


#: Beyond this many arguments a command line is shown with the middle elided (a thousand file names say nothing).
SHOWN_ARGS = 12


def _command_line(argv: list[str]) -> str:
    shown = [_short(a) for a in argv]
    if len(shown) > SHOWN_ARGS:
        shown = [*shown[:SHOWN_ARGS - 2], f"... ({len(shown) - SHOWN_ARGS + 1} more)", shown[-1]]
    return " ".join(shown)


def _short(arg: str) -> str:
    for root, label in ((str(WORK), "WORK"), (str(REPO), "."), (str(Path.home()), "~")):
        if arg.startswith(root):
            return label + arg[len(root):]
    return arg


def install_checkout() -> str:
    """Install this checkout into benchmarks/.venv-donjon as a user would (`pip install .`, bytecode compiled at
    install time), so that the timings are those of an installed donjon, not of a development checkout."""
    python = DONJON_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(DONJON_VENV)], check=True)
    print("installing this checkout into benchmarks/.venv-donjon ...", flush=True)
    result = subprocess.run([str(python), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(REPO)],
                            capture_output=True, text=True)
    if result.returncode == 0:  # its dependencies, once
        result = subprocess.run([str(python), "-m", "pip", "install", "-q", str(REPO)], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"run.py: installing donjon failed:\n{result.stderr.strip()[-800:]}")
    return str(DONJON_VENV / "bin" / "donjon")


def donjon_exe(given: str | None, install: bool) -> str:
    if given:
        return given
    if install:
        return install_checkout()
    beside = Path(sys.executable).with_name("donjon")
    if beside.exists():
        return str(beside)
    found = shutil.which("donjon")
    if found is None:
        sys.exit("run.py: no donjon command found; install donjon (pip install .) or pass --donjon PATH")
    return found


def python_of(donjon: str) -> str:
    """The Python interpreter of donjon's environment (it has reportlab, for the floor)."""
    beside = Path(donjon).with_name("python")
    return str(beside) if beside.exists() else sys.executable


# --- decks of the benchmark at several sizes ---------------------------------------------------------------------

def scaled_deck(cards: int) -> Path:
    """benchmarks/deck100 grown to `cards` cards (rows repeated with new ids), in benchmarks/work/."""
    if cards == 100:
        return DECK100
    target = WORK / f"deck{cards}"
    if (target / "deck.yaml").exists():
        return target
    target.mkdir(parents=True, exist_ok=True)
    for name in ("deck.yaml", "layout.yaml"):
        shutil.copy(DECK100 / name, target / name)
    lines = (DECK100 / "deck100.csv").read_text(encoding="utf-8").splitlines()
    header, rows = lines[0], lines[1:]
    out = [header]
    for i in range(cards):
        first, rest = rows[i % len(rows)].split(",", 1)
        out.append(f"{i + 1},{rest}")
    (target / "deck100.csv").write_text("\n".join(out) + "\n", encoding="utf-8")
    return target


def ensure_protograf() -> Path | None:
    python = PROTOGRAF_VENV / "bin" / "python"
    if not python.exists():
        print("installing protograf into benchmarks/.venv-protograf ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(PROTOGRAF_VENV)], check=True)
        result = subprocess.run([str(python), "-m", "pip", "install", "-q", "protograf"], capture_output=True,
                                text=True)
        if result.returncode != 0:
            print(f"  could not install protograf: {result.stderr.strip()[-400:]}")
            return None
    work = WORK / "protograf"
    work.mkdir(parents=True, exist_ok=True)
    shutil.copy(PEERS / "protograf_deck.py", work / "protograf_deck.py")
    shutil.copy(DECK100 / "deck100.csv", work / "deck100.csv")
    return python


# --- the cases ------------------------------------------------------------------------------------------------------

def case_deck(donjon: str, peers: bool) -> list[Command]:
    """(1) the 100-card deck: donjon vs the reportlab floor vs protograf, all writing one PDF."""
    out = WORK / "deck"
    commands = [
        Command("floor (reportlab)", [python_of(donjon), str(PEERS / "floor_reportlab.py"), str(out / "floor.pdf"),
                                      str(DECK100 / "deck100.csv")], output=out / "floor.pdf", items=100),
        Command("donjon", [donjon, "build", "--content", str(DECK100), "--out", str(out / "donjon"), "--format", "pdf"],
                output=out / "donjon", items=100),
        # the default build: the PDF and an SVG of every card
        Command("donjon (pdf and svg)", [donjon, "build", "--content", str(DECK100), "--out", str(out / "both")],
                output=out / "both", items=100),
    ]
    if peers:
        python = ensure_protograf()
        if python is not None:
            commands.append(Command("protograf", [str(python), "protograf_deck.py"], cwd=WORK / "protograf",
                                    output=WORK / "protograf" / "pg_deck.pdf", items=100))
    out.mkdir(parents=True, exist_ok=True)
    return commands


def case_scale(donjon: str) -> list[Command]:
    """How cost grows: the benchmark deck at 100, 1,000 and 10,000 cards, PDF only."""
    commands = []
    for cards in (100, 1000, 10000):
        folder = scaled_deck(cards)
        out = WORK / f"scale{cards}"
        commands.append(Command(f"donjon {cards} cards", [donjon, "build", "--content", str(folder), "--out", str(out),
                                                          "--format", "pdf"], output=out, items=cards))
    return commands


def _count_cards(donjon: str) -> int:
    result = subprocess.run([donjon, "content", "list", "--json"], capture_output=True, text=True, check=True)
    return sum(d["cards"] for g in json.loads(result.stdout).values() for d in g["decks"])


def case_build_all(donjon: str) -> list[Command]:
    """(2) `donjon build all`: cards per second (every deck, PDF and SVG, plus sheets and references)."""
    out = WORK / "build-all"
    return [Command("donjon build all", [donjon, "build", "all", "--out", str(out)], output=out,
                    items=_count_cards(donjon))]


def case_png(donjon: str) -> list[Command]:
    """(3) `donjon export png --preset tgc` of every deck: cards per second."""
    out = WORK / "png"
    result = subprocess.run([donjon, "export", "png", "--preset", "tgc", "--out", str(out)], capture_output=True,
                            text=True)
    faces = len(list(out.rglob("*.png"))) if result.returncode == 0 else 0
    return [Command("donjon export png --preset tgc", [donjon, "export", "png", "--preset", "tgc", "--out", str(out)],
                    output=out, items=faces)]


def case_score(donjon: str) -> list[Command]:
    """(4) `donjon score`: one file (start-up), and 1,000 files in one call (end states per second)."""
    examples = sorted((REPO / "content" / "examples").glob("*.yaml"))
    many = WORK / "score"
    many.mkdir(parents=True, exist_ok=True)
    files = []
    for i in range(1000):
        source = examples[i % len(examples)]
        target = many / f"{i:04d}-{source.name}"
        if not target.exists():
            shutil.copy(source, target)
        files.append(str(target))
    one = str(REPO / "content" / "examples" / "once-upon-a-castle.yaml")
    return [Command("donjon score (1 file)", [donjon, "score", one], items=1),
            Command("donjon score --json (1,000 files)", [donjon, "score", "--json", *files], items=1000)]


def case_images(donjon: str) -> list[Command]:
    """The 100-card deck with a 300 dpi picture on every card: none (the plain deck), one file on every card, 100
    files, 100 files with transparency (decoded and packed again). Decks made by benchmarks/images/make_decks.py."""
    decks = WORK / "image-decks"
    if not (decks / "transparent" / "art" / "100.png").exists():
        print("drawing the picture decks (benchmarks/images/make_decks.py) ...", flush=True)
        subprocess.run([python_of(donjon), str(IMAGES / "make_decks.py"), str(decks)], check=True)
    out = WORK / "images"
    commands = [Command("no pictures (deck100)", [donjon, "build", "--content", str(DECK100), "--out",
                                                  str(out / "none"), "--format", "pdf"],
                        output=out / "none" / "decks" / "deck100.pdf", items=100)]
    for name, what in (("same", "one picture on 100 cards"), ("different", "100 different pictures"),
                       ("transparent", "100 pictures with alpha")):
        commands.append(Command(what, [donjon, "build", "--content", str(decks / name), "--out", str(out / name),
                                       "--format", "pdf"], output=out / name / "decks" / f"{name}.pdf", items=100))
    return commands


def case_vocabulary(donjon: str) -> list[Command]:
    """The 100-card deck drawn with the drawing vocabulary on every card (benchmarks/vocabulary: a gradient frame
    and badge, a turned badge and cost, a picture clipped to a circle, hatching) against the plain deck, PDF only
    and PDF with SVGs. Its files and deck100.csv are copied into benchmarks/work/vocabulary/."""
    deck = WORK / "vocabulary"
    deck.mkdir(parents=True, exist_ok=True)
    for source in (*VOCABULARY.iterdir(), DECK100 / "deck100.csv"):
        shutil.copy(source, deck / source.name)
    out = WORK / "vocabulary-out"
    commands = []
    for formats, label in (("pdf", "PDF"), ("pdf,svg", "PDF and SVGs")):
        for name, folder in (("plain deck", DECK100), ("vocabulary deck", deck)):
            target = out / f"{folder.name}-{formats.replace(',', '-')}"
            commands.append(Command(f"{name}, {label}", [donjon, "build", "--content", str(folder), "--out",
                                                         str(target), "--format", formats], output=target, items=100))
    return commands


def embedded_images(pdf: Path) -> int:
    """Image XObjects in a PDF written by donjon (reportlab writes object dictionaries uncompressed)."""
    return pdf.read_bytes().count(b"/Subtype /Image") if pdf.exists() else -1


def case_castle(donjon: str) -> list[Command]:
    """(6) `donjon build once-upon-a-castle`: its deck, its card reference and its eight score sheets."""
    out = WORK / "castle"
    return [Command("donjon build once-upon-a-castle", [donjon, "build", "once-upon-a-castle", "--out", str(out),
                                                         "--format", "pdf"], output=out)]


def hostile_inputs(donjon: str) -> dict[str, Path]:
    """Files `donjon score` must refuse (exit 2) without working long on them, in benchmarks/work/hostile/."""
    folder = WORK / "hostile"
    folder.mkdir(parents=True, exist_ok=True)
    bomb = ["game: guildhall", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    bomb += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 12)]
    texts = {
        # libyaml's own composer would exhaust the C stack on this one
        "deep.yaml": "game: guildhall\nx: " + "[" * 100_000 + "]" * 100_000 + "\n",
        # eleven levels of ten aliases: 10**12 strings if it were expanded
        "bomb.yaml": "\n".join(bomb) + "\n",
        "long.yaml": "game: guildhall\nvp_set: job-faire\nplayers:\n  - {name: Ana, guildhall: {}, vp_cards: ["
                     + ", ".join(["9"] * 5000) + "], vp_tokens: 0}\nended_by: Ana\n",
    }
    files = {}
    for name, text in texts.items():
        files[name] = folder / name
        files[name].write_text(text, encoding="utf-8")
    # a filled castle sheet cut short: what a failed download or a full disk leaves
    sheets = folder / "sheets"
    if not (sheets / "once-upon-a-castle").exists():
        subprocess.run([donjon, "build", "once-upon-a-castle", "--out", str(sheets), "--format", "pdf"],
                       capture_output=True, check=True)
    blank = (sheets / "once-upon-a-castle" / "castle-sheet-great-architect-a4-fillable.pdf").read_bytes()
    files["damaged.pdf"] = folder / "damaged.pdf"
    files["damaged.pdf"].write_bytes(blank[: len(blank) // 2])
    return files


def case_hostile(donjon: str) -> list[Command]:
    """(7) hostile input: `donjon score` refusing each file, against scoring one good file."""
    one = str(REPO / "content" / "examples" / "guildhall.yaml")
    commands = [Command("donjon score (a good file)", [donjon, "score", one])]
    for name, path in hostile_inputs(donjon).items():
        commands.append(Command(f"donjon score {name}", [donjon, "score", str(path)], expect=2))
    return commands


def case_help(donjon: str) -> list[Command]:
    """(5) start-up: `donjon --help`."""
    return [Command("donjon --help", [donjon, "--help"])]


# --- the table companion: start-up and latency under 20 concurrent clients ----------------------------------------

SERVE_CLIENTS = 20
#: requests per client in each latency measure (20 x 25 = 500 samples)
SERVE_REQUESTS = 25
#: phones with a table open, each asking every POLL_S whether it changed (as templates/web/static/app.js does)
SERVE_POLLERS = 50
POLL_S = 2.0


def _start_serve(donjon: str, db: Path) -> tuple[subprocess.Popen[str], str, float]:
    """`donjon serve --port 0`, its address, and the seconds from the command to its first answer."""
    import urllib.error
    import urllib.request

    start = time.perf_counter()
    proc = subprocess.Popen([donjon, "serve", "--port", "0", "--db", str(db)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        sys.exit(f"run.py: donjon serve did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}")
    url = line.split("http://", 1)[1].split()[0]
    url = "http://" + url
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                answer.read()
            break
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.005)
    return proc, url.rstrip("/"), time.perf_counter() - start


def _stop(proc: subprocess.Popen[str]) -> int:
    """Stop a server with Ctrl-C; its peak memory (KiB) from /proc, read just before."""
    peak = 0
    try:
        status = Path(f"/proc/{proc.pid}/status").read_text()
        peak = int(next(x for x in status.splitlines() if x.startswith("VmHWM")).split()[1])
    except (OSError, StopIteration, ValueError):
        pass
    proc.send_signal(2)
    try:
        proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
    return peak


def _request(base: str, method: str, path: str, body: bytes | None, headers: dict[str, str],
             conn: http.client.HTTPConnection | None = None) -> tuple[float, int]:
    """One request; on `conn` when given (a client keeping its connection open, as a phone's browser does)."""
    from urllib.parse import urlsplit

    parts = urlsplit(base)
    own = conn is None
    if conn is None:
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    start = time.perf_counter()
    try:
        conn.request(method, path, body=body, headers=headers)
        answer = conn.getresponse()
        answer.read()
        status = answer.status
    except OSError:
        status = 0
        conn.close()
    finally:
        if own:
            conn.close()
    return time.perf_counter() - start, status


def _concurrently(job: Callable[[int, int, http.client.HTTPConnection], tuple[float, bool]],
                  base: str) -> tuple[list[float], int]:
    """SERVE_CLIENTS clients at once, each with its own kept-alive connection, each making SERVE_REQUESTS requests."""
    import threading
    from urllib.parse import urlsplit

    times: list[float] = []
    errors = 0
    lock = threading.Lock()

    def client(n: int) -> None:
        nonlocal errors
        parts = urlsplit(base)
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
        for k in range(SERVE_REQUESTS):
            elapsed, ok = job(n, k, conn)
            with lock:
                times.append(elapsed)
                errors += 0 if ok else 1
        conn.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(SERVE_CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times, errors


def _polling_while_editing(base: str, edit: Callable[[int, int, http.client.HTTPConnection], tuple[float, bool]]
                           ) -> tuple[list[float], int, list[float], int]:
    """SERVE_POLLERS phones polling table 1 every POLL_S (each on its own kept-alive connection, starting at a
    random moment of the first period, and taking the version and form hash of every answer, as a page does) while
    SERVE_CLIENTS others edit it through `edit`: the polls' and the edits' latencies and errors."""
    import random
    import re
    import threading
    from urllib.parse import urlsplit

    parts = urlsplit(base)
    editing = threading.Event()
    editing.set()
    lock = threading.Lock()
    polls: list[float] = []
    poll_errors = 0
    rng = random.Random(7)
    starts = [rng.uniform(0, POLL_S) for _ in range(SERVE_POLLERS)]

    def phone(n: int) -> None:
        nonlocal poll_errors
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
        version, digest = "0", ""
        time.sleep(starts[n])
        while editing.is_set():
            began = time.perf_counter()
            path = f"/tables/1/live?v={version}&seat={n % 4}&h={digest}"
            try:
                conn.request("GET", path)
                answer = conn.getresponse()
                body = answer.read().decode()
                status = answer.status
            except OSError:
                status, body = 0, ""
                conn.close()
            elapsed = time.perf_counter() - began
            if status == 200:
                found = re.search(r'data-version="(\d+)"[^>]*data-hash="([^"]*)"', body)
                if found:
                    version, digest = found.groups()
            with lock:
                polls.append(elapsed)
                poll_errors += 0 if status in (200, 204) else 1
            time.sleep(max(0.0, POLL_S - elapsed))
        conn.close()

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(SERVE_POLLERS)]
    for thread in threads:
        thread.start()
    time.sleep(POLL_S)  # every phone is polling before the first edit
    edits, edit_errors = _concurrently(edit, base)
    time.sleep(POLL_S)  # the phones see the last edits
    editing.clear()
    for thread in threads:
        thread.join()
    return polls, poll_errors, edits, edit_errors


def _latency(name: str, argv: str, times: list[float], errors: int, peak_kb: int) -> Measure:
    ordered = sorted(times)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return Measure(name, argv, [], [peak_kb], round(p50, 4), round(peak_kb / 1024, 1), 0, len(times),
                   round(len(times) / sum(times) * SERVE_CLIENTS, 1) if times else None, [], round(p95, 4), errors)


def case_serve(donjon: str, runs: int, warmup: int) -> list[Measure]:
    """(6) the table companion: `donjon serve` to its first answer; p50/p95 of a live re-score (a player's change,
    scored again and the page's pieces drawn) and of a save (POST /api/games), 20 clients at once."""
    folder = WORK / "serve"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    starts, peaks = [], []
    for i in range(warmup + runs):
        proc, _, elapsed = _start_serve(donjon, folder / f"start{i}.sqlite3")
        peaks.append(_stop(proc))
        if i >= warmup:
            starts.append(elapsed)
    out = [Measure("donjon serve: first answer", f"{_short(donjon)} serve --port 0 --db WORK/serve/...",
                   [round(t, 4) for t in starts], peaks, round(statistics.median(starts), 4),
                   round(max(peaks) / 1024, 1), 0, 0, None, [0] * len(starts))]
    proc, base, _ = _start_serve(donjon, folder / "load.sqlite3")
    try:
        same = {"sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded"}
        names = "&".join(f"name={n}" for n in ("Ana", "Ben", "Cleo", "Dan"))
        _, status = _request(base, "POST", "/tables", f"game=guildhall&vp_set=old-world-economy&professions=&{names}"
                             .encode(), same)
        if status != 303:
            sys.exit(f"run.py: could not open a table on the companion ({status})")

        def rescore(n: int, k: int, conn: http.client.HTTPConnection) -> tuple[float, bool]:
            body = f"seat={n % 4}&shown={n % 4}&op=add&path=vp_tokens&value={1 if k % 2 == 0 else -1}".encode()
            elapsed, status = _request(base, "POST", "/tables/1/edit", body, same, conn)
            return elapsed, status == 200

        times, errors = _concurrently(rescore, base)
        example = _guildhall_example()

        def save(n: int, k: int, conn: http.client.HTTPConnection) -> tuple[float, bool]:
            example_n = json.loads(json.dumps(example))
            example_n["players"][0]["name"] = example_n["ended_by"] = f"P{n}-{k}"
            elapsed, status = _request(base, "POST", "/api/games", json.dumps(example_n).encode(),
                                       {"content-type": "application/json", "idempotency-key": f"{n}-{k}"}, conn)
            return elapsed, status == 201

        save_times, save_errors = _concurrently(save, base)
        polls, poll_errors, edits, edit_errors = _polling_while_editing(base, rescore)
    finally:
        rescore_peak = _stop(proc)
    out.append(_latency(f"live re-score, {SERVE_CLIENTS} clients", "POST /tables/1/edit", times, errors, rescore_peak))
    out.append(_latency(f"save, {SERVE_CLIENTS} clients", "POST /api/games", save_times, save_errors, rescore_peak))
    out.append(_latency(f"live poll, {SERVE_POLLERS} phones while {SERVE_CLIENTS} edit", "GET /tables/1/live",
                        polls, poll_errors, rescore_peak))
    out.append(_latency(f"edit, {SERVE_CLIENTS} phones while {SERVE_POLLERS} poll", "POST /tables/1/edit", edits,
                        edit_errors, rescore_peak))
    return out


# --- `donjon build --watch`: one changed row of the 1,000-card deck -----------------------------------------------

#: How long the harness waits for the watch to say it built (the first build of 1,000 cards takes seconds).
WATCH_PATIENCE = 120.0
WATCH_CARDS = 1000


def _watch_line(proc: subprocess.Popen[str], wanted: str) -> str:
    """The next line of the watch's output holding `wanted` (an error line is fatal: the case measures builds)."""
    assert proc.stdout is not None
    deadline = time.monotonic() + WATCH_PATIENCE
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith("error:"):
            sys.exit(f"run.py: the watch failed: {line.strip()}")
        if wanted in line:
            return line
    proc.kill()
    sys.exit(f"run.py: the watch never said {wanted!r}")


def _cpu_seconds(pid: int) -> float:
    """The processor time a process's threads have had so far (Linux's schedstat, in nanoseconds): unlike the wall
    time, it hardly grows when other work shares the machine."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue
    return total / 1e9


def case_watch(donjon: str, runs: int, warmup: int) -> list[Measure]:
    """`donjon build --watch` on the 1,000-card deck (PDF and SVGs, the default formats), one row changed per save, a
    different row each time: the seconds the watch reports from seeing the change to the files in place (what the
    target is about), and the seconds from the save to that report (with watchfiles' wait for more changes)."""
    import re

    folder = WORK / "watch"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(scaled_deck(WATCH_CARDS), folder / "deck")
    out = folder / "out"
    table = folder / "deck" / "deck100.csv"
    proc = subprocess.Popen([donjon, "build", "--content", str(folder / "deck"), "--out", str(out), "--watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    built, latency, cpu, written = [], [], [], []
    try:
        _watch_line(proc, "watching ")
        time.sleep(0.5)  # the watcher is set up just after it says so
        lines = table.read_text(encoding="utf-8").splitlines()
        for i in range(warmup + runs):
            row = 1 + (i * 397) % WATCH_CARDS  # rows far apart, each a new text
            number, rest = lines[row].split(",", 1)
            lines[row] = f"{number},Changed {i},{rest.split(',', 1)[1]}"
            used = _cpu_seconds(proc.pid)
            saved = time.perf_counter()
            table.write_text("\n".join(lines) + "\n", encoding="utf-8")
            line = _watch_line(proc, "built ")
            seen = time.perf_counter() - saved
            used = _cpu_seconds(proc.pid) - used
            found = re.search(r" in ([0-9.]+) s \((.*)\)", line)
            if found is None:
                sys.exit(f"run.py: cannot read the watch's line: {line.strip()}")
            if i >= warmup:
                built.append(float(found.group(1)))
                latency.append(seen)
                cpu.append(used)
                written.append(found.group(2))
            time.sleep(0.3)
        peak = _stop(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    argv = f"{_short(donjon)} build --content WORK/watch/deck --out WORK/watch/out --watch (one row of {WATCH_CARDS:,} " \
           f"changed per save; files: {written[-1] if written else '?'})"
    return [Measure("--watch: a changed row rebuilt and written", argv, [round(t, 4) for t in built], [peak],
                    round(statistics.median(built), 4), round(peak / 1024, 1), size_of(out), 1, None, [0] * len(built)),
            Measure("--watch: from the save to the files in place", argv, [round(t, 4) for t in latency], [peak],
                    round(statistics.median(latency), 4), round(peak / 1024, 1), size_of(out), 1, None,
                    [0] * len(latency)),
            Measure("--watch: processor time of the watch per save", argv, [round(t, 4) for t in cpu], [peak],
                    round(statistics.median(cpu), 4), round(peak / 1024, 1), size_of(out), 1, None, [0] * len(cpu))]


def _guildhall_example() -> dict[str, object]:
    """content/examples/guildhall.yaml as JSON, without a YAML library (the harness uses the standard library)."""
    return {"game": "guildhall", "vp_set": "job-faire", "professions": "job-faire", "players": [
        {"name": "Ana", "guildhall": {"bricklayer": ["red", "blue"], "hunter": ["green", "yellow"],
                                      "scholar": ["purple"]},
         "completed_chapters": 1, "vp_cards": [9, 7, 3], "vp_tokens": 2},
        {"name": "Ben", "guildhall": {"peddler": ["red", "blue", "green", "yellow"], "robber": ["red"]},
         "completed_chapters": 2, "vp_cards": [5, 5, 4], "vp_tokens": 3},
        {"name": "Cleo", "guildhall": {"tax-collector": ["red", "blue", "purple"], "hunter": ["red"]},
         "completed_chapters": 0, "vp_cards": [9, 4], "vp_tokens": 4}], "ended_by": "Ana"}


CASES = {"deck": "the 100-card deck", "scale": "growth at 100 / 1,000 / 10,000 cards", "build-all": "donjon build all",
         "png": "PNG export (tgc)", "score": "scoring", "castle": "the castle game with its score sheets",
         "hostile": "hostile input", "help": "start-up", "serve": "the table companion",
         "images": "a 300 dpi picture on every card of the 100-card deck",
         "vocabulary": "rotation, gradients and clipping on every card of the 100-card deck",
         "watch": "`donjon build --watch`: one changed row of the 1,000-card deck"}


# --- report -----------------------------------------------------------------------------------------------------------

def machine() -> dict[str, object]:
    cpu = ""
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        cpu = platform.processor()
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "system": platform.platform(),
            "date": time.strftime("%Y-%m-%d"), "load": round(load[1], 2)}


def targets(results: dict[str, list[Measure]]) -> list[tuple[str, str, bool | None]]:
    """Each target: what it asks, what was measured, met or not (None when not measured)."""
    def get(case: str, name: str) -> Measure | None:
        return next((m for m in results.get(case, []) if m.name == name), None)

    checks: list[tuple[str, str, bool | None]] = []
    floor, ours, peer = get("deck", "floor (reportlab)"), get("deck", "donjon"), get("deck", "protograf")
    if floor and ours:
        ratio = ours.median_s / floor.median_s
        checks.append(("100-card deck, PDF only: at most 1.4x the floor's time",
                       f"{ratio:.2f}x ({ours.median_s:.3f} s vs {floor.median_s:.3f} s)", ratio <= 1.4))
        mem = ours.peak_rss_mb / floor.peak_rss_mb
        checks.append(("100-card deck: peak memory at most 2x the floor's", f"{mem:.2f}x ({ours.peak_rss_mb} MB vs "
                                                                            f"{floor.peak_rss_mb} MB)", mem <= 2))
    both = get("deck", "donjon (pdf and svg)")
    if floor and both:
        ratio = both.median_s / floor.median_s
        checks.append(("100-card deck, PDF and SVGs (the default): at most 2.0x the floor's time",
                       f"{ratio:.2f}x ({both.median_s:.3f} s vs {floor.median_s:.3f} s)", ratio <= 2.0))
    if peer and ours:
        share = ours.median_s / peer.median_s
        checks.append(("100-card deck: at most 1/8 of protograf's time", f"1/{1 / share:.1f} ({ours.median_s:.3f} s vs "
                                                                         f"{peer.median_s:.3f} s)", share <= 1 / 8))
    png = get("png", "donjon export png --preset tgc")
    if png and png.per_second is not None:
        checks.append(("PNG export: at least 60 cards per second", f"{png.per_second} cards/s", png.per_second >= 60))
    helped = get("help", "donjon --help")
    if helped:
        checks.append(("`donjon --help` under 0.25 s", f"{helped.median_s:.3f} s", helped.median_s < 0.25))
    one = get("score", "donjon score (1 file)")
    if one:
        checks.append(("scoring one file under 0.25 s", f"{one.median_s:.3f} s", one.median_s < 0.25))
    many = get("score", "donjon score --json (1,000 files)")
    if many and many.per_second is not None:
        checks.append(("scoring at least 2,000 end states per second", f"{many.per_second:,.0f} /s",
                       many.per_second >= 2000))
    pictures = {m.name: m for m in results.get("images", [])}
    if "one picture on 100 cards" in pictures and "100 different pictures" in pictures:
        same, many = pictures["one picture on 100 cards"], pictures["100 different pictures"]
        counts = (embedded_images(WORK / "images" / "same" / "decks" / "same.pdf"),
                  embedded_images(WORK / "images" / "different" / "decks" / "different.pdf"))
        what = "pictures: each file embedded once per PDF (1 and 100 images)"
        if -1 in counts:  # the pictures were measured by an earlier run whose PDFs are gone: its count stands
            checks.extend(earlier_targets(what))
        else:
            checks.append((what, f"{counts[0]} and {counts[1]} image objects", counts == (1, 100)))
        plain = pictures.get("no pictures (deck100)")
        if plain:
            checks.append(("pictures: one file on every card costs next to nothing",
                           f"{same.median_s:.3f} s vs {plain.median_s:.3f} s without, PDF "
                           f"{same.output_bytes / 1024:,.0f} KiB", None))
        checks.append(("pictures: 100 files of 300 dpi art", f"{many.median_s:.3f} s, {many.peak_rss_mb} MB peak, PDF "
                       f"{many.output_bytes / 1048576:,.1f} MiB", None))
    for label in ("PDF", "PDF and SVGs"):
        plain, drawn = get("vocabulary", f"plain deck, {label}"), get("vocabulary", f"vocabulary deck, {label}")
        if plain and drawn:
            ratio = drawn.median_s / plain.median_s
            checks.append((f"rotation, gradients and clipping on every card, {label}: at most 1.5x the plain deck",
                           f"{ratio:.2f}x ({drawn.median_s:.3f} s vs {plain.median_s:.3f} s)", ratio <= 1.5))
    started = get("serve", "donjon serve: first answer")
    if started:
        checks.append(("`donjon serve` answers within 1 s", f"{started.median_s:.3f} s", started.median_s < 1))
    for name, what in ((f"live re-score, {SERVE_CLIENTS} clients", "a live re-score"),
                       (f"save, {SERVE_CLIENTS} clients", "a save")):
        found = get("serve", name)
        if found and found.p95_s is not None:
            checks.append((f"{what} with {SERVE_CLIENTS} concurrent clients: p95 under 50 ms, no errors",
                           f"p50 {found.median_s * 1000:.1f} ms, p95 {found.p95_s * 1000:.1f} ms, "
                           f"{found.errors} errors of {found.items}", found.p95_s < 0.05 and found.errors == 0))
    busy = [get("serve", f"live poll, {SERVE_POLLERS} phones while {SERVE_CLIENTS} edit"),
            get("serve", f"edit, {SERVE_CLIENTS} phones while {SERVE_POLLERS} poll")]
    if all(m is not None and m.p95_s is not None for m in busy):
        polled, edited = busy[0], busy[1]
        assert polled is not None and edited is not None and polled.p95_s is not None and edited.p95_s is not None
        checks.append((f"{SERVE_POLLERS} phones polling while {SERVE_CLIENTS} edit: p95 under 100 ms, no errors",
                       f"polls p95 {polled.p95_s * 1000:.1f} ms ({polled.errors} errors of {polled.items}), edits "
                       f"p95 {edited.p95_s * 1000:.1f} ms ({edited.errors} errors of {edited.items})",
                       max(polled.p95_s, edited.p95_s) < 0.1 and polled.errors + edited.errors == 0))
    watched = get("watch", "--watch: a changed row rebuilt and written")
    if watched:
        checks.append(("`--watch`, 1,000-card deck: one changed row rebuilt and written in under 0.3 s",
                       f"median {watched.median_s:.3f} s (min {min(watched.runs):.3f}, max {max(watched.runs):.3f}, "
                       f"{len(watched.runs)} saves)", watched.median_s < 0.3))
    castle = get("castle", "donjon build once-upon-a-castle")
    if castle:
        checks.append(("the castle game (deck, reference, 8 score sheets) under 1 s", f"{castle.median_s:.3f} s",
                       castle.median_s < 1))
    refused = [m for m in results.get("hostile", [])[1:]]
    if refused:
        slowest = max(refused, key=lambda m: m.median_s)
        checks.append(("hostile input refused (exit 2) in under 0.5 s each",
                       f"slowest {slowest.median_s:.3f} s ({slowest.name.removeprefix('donjon score ')})",
                       slowest.median_s < 0.5 and all(set(m.exit_codes) == {2} for m in refused)))
    scale = results.get("scale", [])
    if len(scale) == 3:
        per_card = [m.median_s / m.items for m in scale]
        growth = per_card[2] / per_card[0]
        checks.append(("linear growth: time per card at 10,000 within 1.5x of 100", f"{per_card[0] * 1000:.2f} -> "
                       f"{per_card[1] * 1000:.2f} -> {per_card[2] * 1000:.2f} ms/card", growth <= 1.5))
        mem_growth = scale[2].peak_rss_mb / scale[0].peak_rss_mb
        checks.append(("bounded memory: peak at 10,000 cards within 2x of 100", f"{scale[0].peak_rss_mb} -> "
                       f"{scale[1].peak_rss_mb} -> {scale[2].peak_rss_mb} MB", mem_growth <= 2))
    return checks


def earlier_targets(what: str) -> list[tuple[str, str, bool | None]]:
    """The target `what` as the last report measured it (none if it did not)."""
    try:
        payload = json.loads((HERE / "results.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [(t["target"], t["measured"], t["met"]) for t in payload.get("targets", []) if t.get("target") == what]


def earlier_results(ran: list[str]) -> tuple[dict[str, list[Measure]], dict[str, str]]:
    """The cases of the last report that this run did not measure, and the date each was measured on: a run of
    some cases (`--cases serve`) updates them and keeps the others."""
    try:
        payload = json.loads((HERE / "results.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}, {}
    kept: dict[str, list[Measure]] = {}
    dates: dict[str, str] = {}
    for case, measures in payload.get("cases", {}).items():
        if case in CASES and case not in ran:
            kept[case] = [Measure(**m) for m in measures]
            dates[case] = payload.get("dates", {}).get(case, payload.get("machine", {}).get("date", "?"))
    return kept, dates


def case_section(case: str, measures: list[Measure], date: str, warmup: int) -> list[str]:
    """The report's section on one case, from its heading to its commands."""
    reference = measures[0]
    if case == "watch":
        lines = [f"## {CASES[case]}", "", f"Measured on {date}: one process watching, a row saved "
                 f"{len(reference.runs)} times (after {warmup} uncounted), each time another row. The first "
                 "line is what the watch reports, from seeing the change to the files in place; the second is "
                 "from the save, with watchfiles noticing it and waiting for more changes; the third is the "
                 "processor time the watch's process had for each save (which other work on the machine hardly "
                 "changes).", "",
                 "| measure | median s | min s | max s | every save, s | watch's peak MB |",
                 "|---|---|---|---|---|---|"]
        for m in measures:
            every = ", ".join(f"{t:.3f}" for t in m.runs)
            lines.append(f"| {m.name} | {m.median_s:.3f} | {min(m.runs):.3f} | {max(m.runs):.3f} | {every} | "
                         f"{m.peak_rss_mb} |")
        return lines + ["", f"Command: `{reference.argv}`"]
    if case == "serve":
        lines = [f"## {CASES[case]}", "", f"Measured on {date}, {SERVE_CLIENTS} clients at once "
                 f"(threads of this harness, each with a kept-alive connection) making {SERVE_REQUESTS} requests "
                 f"each, on the same machine as the server; in the last two measures {SERVE_POLLERS} more "
                 f"phones ask every {POLL_S:.0f} s whether the table changed (as an open page does) while the "
                 f"{SERVE_CLIENTS} edit it.", "",
                 "| measure | p50 (median) s | p95 s | requests | errors | server peak MB |",
                 "|---|---|---|---|---|---|"]
        for m in measures:
            p95 = f"{m.p95_s:.4f}" if m.p95_s is not None else ""
            count = str(m.items) if m.items else f"{len(m.runs)} starts"
            lines.append(f"| {m.name} | {m.median_s:.4f} | {p95} | {count} | {m.errors} | {m.peak_rss_mb} |")
        return lines + ["", "Commands: " + "; ".join(f"`{m.argv}`" for m in measures)]
    lines = [f"## {CASES[case]}", "", f"Measured on {date}.", "",
             "| command | median s | vs first | peak MB | output | items/s |", "|---|---|---|---|---|---|"]
    for m in measures:
        ratio = m.median_s / reference.median_s if reference.median_s else 0
        size = f"{m.output_bytes / 1024:,.0f} KiB" if m.output_bytes else ""
        rate = f"{m.per_second:,}" if m.per_second else ""
        lines.append(f"| {m.name} | {m.median_s:.3f} | {ratio:.2f}x | {m.peak_rss_mb} | {size} | {rate} |")
    return lines + ["", "Commands: " + "; ".join(f"`{m.argv}`" for m in measures)]


#: The report's generated blocks in their order (benchmarks/report_blocks.py): a block the report lacks goes there.
ORDER = ["head", "targets", *CASES, "photos", "families"]


def write_report(results: dict[str, list[Measure]], args: argparse.Namespace, donjon: str) -> None:
    """Write the cases measured (`results`) into results.md and results.json. Only their blocks of results.md, its
    header and its targets are written anew: the cases not measured this time keep their text as it was, and every
    line outside the generated blocks (notes written by hand under a table, sections of their own) is kept."""
    info = machine()
    kept, dates = earlier_results(list(results))
    dates.update({case: str(info["date"]) for case in results})
    measured = set(results)
    results = {case: results.get(case) or kept[case] for case in CASES if case in results or case in kept}
    checks = targets(results)
    head = ["# Benchmark results", "",
            f"`python benchmarks/run.py {' '.join(sys.argv[1:])}` on {info['date']}: {info['cpu']}, "
            f"{info['cores']} cores, Python {info['python']}, load average {info['load']} when the report was written "
            f"(other work on the machine slows every figure). Medians of {args.runs} runs after {args.warmup} "
            "warm-up, commands interleaved; peak memory is the largest max RSS of the counted runs."]
    table = ["## Targets", "", "| target | measured | |", "|---|---|---|"]
    for what, measured_as, ok in checks:
        table.append(f"| {what} | {measured_as} | {'met' if ok else 'MISSED' if ok is False else 'figure'} |")
    sections = {case: case_section(case, measures, dates[case], args.warmup) for case, measures in results.items()}
    replace = {"head": head, "targets": table, **{case: sections[case] for case in measured}}
    # a case not measured now, and the photo benchmark's sections (benchmarks/scan_photos.py), stay as the report
    # has them; they are written from their JSON only where the report lacks them
    missing = {case: lines for case, lines in sections.items() if case not in measured}
    photos, hard = saved_section(), saved_families()
    if photos:
        missing["photos"] = photos
    if hard:
        missing["families"] = hard
    try:
        report_blocks.write(HERE / "results.md", ORDER, replace, missing)
    except report_blocks.ReportError as error:
        sys.exit(f"run.py: {error}; nothing written")
    payload = {"machine": info, "dates": dates, "runs": args.runs, "warmup": args.warmup, "donjon": _short(donjon),
               "targets": [{"target": t, "measured": m, "met": ok} for t, m, ok in checks],
               "cases": {case: [asdict(m) for m in ms] for case, ms in results.items()}}
    (HERE / "results.json").write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="counted runs of each command (default 5)")
    parser.add_argument("--warmup", type=int, default=1, help="uncounted rounds first (default 1)")
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, from: {', '.join(CASES)}")
    parser.add_argument("--peers", action="store_true", help="install protograf in its own venv and time it too")
    parser.add_argument("--donjon", help="the donjon command to time (default: this checkout, installed into "
                                         "benchmarks/.venv-donjon)")
    parser.add_argument("--no-install", action="store_true",
                        help="time the donjon beside this Python (a development install) instead of installing")
    args = parser.parse_args()
    # pip compiles an installed donjon's bytecode; a shell that forbids writing it (PYTHONDONTWRITEBYTECODE, set on
    # some machines and containers) would have every timed process compile donjon's sources anew, doubling a
    # build's start-up: the warm-up round writes the bytecode that a user's install already has.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be 1 or more and --warmup 0 or more")
    wanted = [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = [c for c in wanted if c not in CASES]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r}; choose from {', '.join(CASES)}")
    donjon = donjon_exe(args.donjon, install=not args.no_install)
    WORK.mkdir(parents=True, exist_ok=True)
    builders = {"deck": lambda: case_deck(donjon, args.peers), "scale": lambda: case_scale(donjon),
                "build-all": lambda: case_build_all(donjon), "png": lambda: case_png(donjon),
                "score": lambda: case_score(donjon), "castle": lambda: case_castle(donjon),
                "hostile": lambda: case_hostile(donjon), "help": lambda: case_help(donjon),
                "images": lambda: case_images(donjon), "vocabulary": lambda: case_vocabulary(donjon)}
    results: dict[str, list[Measure]] = {}
    for case in wanted:
        print(f"{CASES[case]} ...", flush=True)
        if case == "watch":
            results[case] = case_watch(donjon, max(args.runs, 9), args.warmup)
            for m in results[case]:
                print(f"  {m.name:<44} median {m.median_s:.3f} s (min {min(m.runs):.3f}, max {max(m.runs):.3f})",
                      flush=True)
            continue
        if case == "serve":
            results[case] = case_serve(donjon, args.runs, args.warmup)
            for m in results[case]:
                extra = f", p95 {m.p95_s * 1000:.1f} ms, {m.errors} errors" if m.p95_s is not None else ""
                print(f"  {m.name:<36} {m.median_s:8.4f} s{extra}", flush=True)
            continue
        commands = builders[case]()
        runs = args.runs if case != "scale" else max(3, min(args.runs, 5))
        results[case] = measure(commands, runs, args.warmup)
        for m in results[case]:
            rate = f", {m.per_second:,}/s" if m.per_second else ""
            print(f"  {m.name:<36} {m.median_s:8.3f} s  {m.peak_rss_mb:7.1f} MB{rate}", flush=True)
    write_report(results, args, donjon)
    for what, measured, ok in targets(results):
        print(f"{'met   ' if ok else 'MISSED' if ok is False else 'figure'} {what}: {measured}")
    print("wrote benchmarks/results.md and benchmarks/results.json")


if __name__ == "__main__":
    main()
