"""`donjon build --watch`: builds, rebuilds the decks a saved file changes, reports errors without stopping; with
`--serve`, the preview is rewritten after each build and served on this machine, and its version changes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pictures
import pytest
from render_helpers import make_deck, run

from generator.build.options import BuildOptions
from generator.build.watch import Reporter, WatchState, watch
from generator.render.imposition import PrintOptions
from tests.processes import with_default_signals

#: How long a test waits for the watcher to notice a save and build (it takes well under a second), to start (its
#: first build: the sample decks' took 9.7 s beside a loaded machine's other work, load average 17) or to stop. A
#: wait ends as soon as what it waits for is there: the bound is for a loaded machine, 30 s left a margin of 3.
PATIENCE = 60.0

ART = """\
background: "#ffffff"
styles:
  body: {font: cardo, size: 10pt, min_size: 6pt, colour: "#000000"}
boxes:
  art: {kind: image, x: 5mm, y: 5mm, width: 20mm, height: 20mm, src: "{{ Art }}"}
  body: {kind: text, x: 5mm, y: 30mm, width: 100% - 10mm, height: 20mm, style: body, text: "{{ Text }}"}
"""


class Log:
    """What the watcher said, gathered from its thread."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.lock = threading.Lock()

    def add(self, line: str) -> None:
        with self.lock:
            self.lines.append(line)

    def count(self, text: str) -> int:
        with self.lock:
            return sum(text in line for line in self.lines)

    def wait_for(self, text: str, times: int = 1) -> None:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            if self.count(text) >= times:
                return
            time.sleep(0.05)
        raise AssertionError(f"no {text!r} ({times}x) in:\n" + "\n".join(self.lines))


@pytest.fixture
def watching(tmp_path: Path) -> Iterator[tuple[Path, Path, Log]]:
    """Two decks in a content folder, watched in a thread until the test ends."""
    content = tmp_path / "content"
    pictures.png(content / "one" / "a.png", (100, 100))
    make_deck(content / "one", [{"name": "A", "Art": "a.png", "Text": "first"}], layout=ART, deck_id="one")
    make_deck(content / "two", [{"name": "B", "Text": "other"}], deck_id="two")
    out = tmp_path / "out"
    out.mkdir()
    log = Log()
    stop = threading.Event()
    ready = threading.Event()
    result: list[WatchState] = []
    thread = threading.Thread(target=lambda: result.append(watch(
        content, "all", out, BuildOptions(PrintOptions(), ("pdf",)), None, Reporter(log.add, log.add), stop,
        ready=ready.set)), daemon=True)
    thread.start()
    assert ready.wait(PATIENCE), log.lines  # said once the watcher is set up
    try:
        yield content, out, log
    finally:
        stop.set()
        thread.join(PATIENCE)
        assert not thread.is_alive()


def _save(path: Path, edit: Callable[[str], str]) -> None:
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")


def test_a_file_saved_the_moment_the_watch_says_it_is_watching_is_built_for(tmp_path: Path) -> None:
    """"watching" was said before watchfiles had set its watcher up: a file saved in that moment (a script that saves
    once the line comes; the tests slept 0.3 s after it, not always enough on a loaded machine) was never built for.
    Saved when the watch says it is ready (in its own thread, before it goes on), the file is built for."""
    content = tmp_path / "content"
    make_deck(content / "one", [{"name": "A", "Text": "first"}], deck_id="one")
    out = tmp_path / "out"
    out.mkdir()
    log = Log()
    stop = threading.Event()

    def saved_at_once() -> None:
        _save(content / "one" / "cards.csv", lambda text: text.replace("first", "changed"))

    thread = threading.Thread(target=lambda: watch(
        content, "all", out, BuildOptions(PrintOptions(), ("pdf",)), None, Reporter(log.add, log.add), stop,
        ready=saved_at_once), daemon=True)
    thread.start()
    try:
        log.wait_for("built one/one", 2)
        assert log.count("changed: cards.csv") == 1
    finally:
        stop.set()
        thread.join(PATIENCE)
    assert not thread.is_alive()


def test_a_save_rebuilds_only_the_deck_it_changes(watching: tuple[Path, Path, Log]) -> None:
    content, out, log = watching
    log.wait_for("built one/one")
    assert log.count("built two/two") == 1
    first = (out / "decks" / "one.pdf").read_bytes()
    _save(content / "one" / "cards.csv", lambda text: text.replace("first", "changed"))
    log.wait_for("built one/one", 2)
    assert (out / "decks" / "one.pdf").read_bytes() != first
    assert log.count("built two/two") == 1  # the other deck was left alone


def test_a_saved_picture_rebuilds_the_decks_that_show_it(watching: tuple[Path, Path, Log]) -> None:
    content, out, log = watching
    log.wait_for("built two/two")
    before = (out / "decks" / "one.pdf").read_bytes()
    pictures.png(content / "one" / "a.png", (100, 100), colour="#aa2222")
    log.wait_for("built one/one", 2)
    assert (out / "decks" / "one.pdf").read_bytes() != before
    assert log.count("built two/two") == 1


def test_errors_are_reported_and_the_watch_goes_on(watching: tuple[Path, Path, Log]) -> None:
    content, out, log = watching
    log.wait_for("built one/one")
    good = (out / "decks" / "one.pdf").read_bytes()
    _save(content / "one" / "layout.yaml", lambda text: text.replace('"{{ Text }}"', '"{{ Txt }}"'))
    log.wait_for("'Txt' is undefined")
    log.wait_for("still failing: one/one")
    assert (out / "decks" / "one.pdf").read_bytes() == good  # the last good build stays
    _save(content / "one" / "layout.yaml", lambda text: text.replace('"{{ Txt }}"', '"{{ Text }}"'))
    log.wait_for("built one/one", 2)


def _changed_lines(log: Log) -> list[str]:
    with log.lock:
        return [line for line in log.lines if line.startswith("changed:")]


def test_editors_temporary_files_are_neither_reported_nor_built_for(watching: tuple[Path, Path, Log]) -> None:
    """What editors and tools write beside a file they save: `sed -i` (a sedXXXXXX file renamed over the table),
    Vim (its swap file, a backup~, the 4913 it writes to test the folder), Emacs (its .#lock), gedit (a
    .goutputstream-XXXXXX), a script's .tmp; and a file no deck reads (notes.txt). The watch reports only the
    table, builds the deck once for the save, and does not build, nor speak, for the rest."""
    content, _out, log = watching
    log.wait_for("built two/two")
    folder = content / "one"
    done = subprocess.run(["sed", "-i", "s/first/by sed/", str(folder / "cards.csv")], capture_output=True,
                          text=True, timeout=PATIENCE)
    assert done.returncode == 0, done.stderr
    log.wait_for("built one/one", 2)
    for name in ("4913", ".cards.csv.swp", "cards.csv~", ".#cards.csv", ".goutputstream-K2ZQ1Y", "cards.csv.tmp",
                 "sedAb12Cd"):
        (folder / name).write_text("scratch\n", encoding="utf-8")
    (folder / "4913").unlink()
    (content / "notes.txt").write_text("ideas for the next deck\n", encoding="utf-8")
    time.sleep(1.5)  # a round for them would start within the debounce (0.3 s) and say so at once
    assert _changed_lines(log) == ["changed: cards.csv"], log.lines
    assert log.count("built one/one") == 2 and log.count("built two/two") == 1
    _save(folder / "cards.csv", lambda text: text.replace("by sed", "saved again"))  # the watch still works
    log.wait_for("built one/one", 3)
    assert _changed_lines(log) == ["changed: cards.csv", "changed: cards.csv"], log.lines


@pytest.mark.parametrize("name", ["cards.csv", "sediment.png", "sedan-chair.svg", "2024.csv", "deck.yaml",
                                  "layout~v2.yaml", "Tmp.png", "sedimentary", "swamp.swamp"])
def test_a_file_a_deck_may_read_is_never_taken_for_a_temporary_one(name: str) -> None:
    from generator.build.watch import TEMPORARY

    assert TEMPORARY.fullmatch(name) is None


@pytest.fixture
def watching_samples(tmp_path: Path) -> Iterator[tuple[Path, Log]]:
    """A copy of the sample decks (content/examples/decks), watched in a thread until the test ends."""
    import shutil

    from tests.conftest import REPO

    content = tmp_path / "decks"
    shutil.copytree(REPO / "content" / "examples" / "decks", content)
    out = tmp_path / "out"
    out.mkdir()
    log = Log()
    stop = threading.Event()
    ready = threading.Event()
    thread = threading.Thread(target=lambda: watch(
        content, "all", out, BuildOptions(PrintOptions(), ("pdf",)), None, Reporter(log.add, log.add), stop,
        ready=ready.set), daemon=True)
    thread.start()
    assert ready.wait(PATIENCE), log.lines
    try:
        yield content, log
    finally:
        stop.set()
        thread.join(PATIENCE)
        assert not thread.is_alive()


def _built(log: Log) -> dict[str, int]:
    return {deck: log.count(f"built {deck}/{deck}:") for deck in ("skirmish", "market", "quests")}


def test_a_saved_font_icon_or_shared_layout_rebuilds_the_decks_that_use_it(
        watching_samples: tuple[Path, Log]) -> None:
    """The samples share a layout (shared/card.yaml, which skirmish's and market's layouts extend) and the font it
    declares; skirmish has icons of its own; quests uses none of them."""
    content, log = watching_samples
    log.wait_for("built skirmish/skirmish:")
    assert _built(log) == {"skirmish": 1, "market": 1, "quests": 1}
    font = content / "fonts" / "DejaVuSerifCondensed-Bold.ttf"
    font.write_bytes(font.read_bytes())  # saved again, as a font editor would
    log.wait_for("built market/market:", 2)
    log.wait_for("built skirmish/skirmish:", 2)
    icon = content / "skirmish" / "icons" / "mana.svg"
    _save(icon, lambda text: text.replace("#", "#", 1))
    log.wait_for("built skirmish/skirmish:", 3)
    _save(content / "shared" / "card.yaml", lambda text: text + "\n# saved again\n")
    log.wait_for("built market/market:", 3)
    log.wait_for("built skirmish/skirmish:", 4)
    time.sleep(1.0)  # a stray rebuild would come within the debounce and a build
    assert _built(log) == {"skirmish": 4, "market": 3, "quests": 1}


def test_serve_needs_watch(tmp_path: Path) -> None:
    deck = make_deck(tmp_path / "d", [{"name": "A"}])
    result = run("build", "--content", str(deck), "--out", str(tmp_path / "out"), "--serve")
    assert result.exit_code == 2
    assert "--serve: goes with --watch" in result.stderr


def _donjon() -> list[str]:
    exe = Path(sys.executable).with_name("donjon")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "generator"]


def _read_line(process: subprocess.Popen[str], wanted: str) -> str:
    assert process.stdout is not None
    # a line that never comes would block the read for good: the process is killed when the patience runs out
    timer = threading.Timer(PATIENCE, process.kill)
    timer.start()
    seen = []
    try:
        while True:
            line = process.stdout.readline()
            seen.append(line)
            if wanted in line:
                return line
            if not line and process.poll() is not None:
                break
    finally:
        timer.cancel()
    raise AssertionError(f"no {wanted!r} in {seen}")


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as answer:  # noqa: S310 - a local test server
        return str(answer.read().decode("utf-8"))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str, subprocess.Popen[str]]]:
    """`donjon build --watch --serve --port 0` running on a deck, and the address of its preview."""
    deck = make_deck(tmp_path / "d", [{"name": "A", "Text": "first"}], deck_id="one")
    out = tmp_path / "out"
    process = subprocess.Popen(with_default_signals([*_donjon(), "build", "--content", str(deck), "--out", str(out),
                                                     "--watch", "--serve", "--port", "0", "--format", "pdf"]),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = _read_line(process, "serving the preview at ")
        url = line.split("serving the preview at ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/preview/index.html")  # said once watching
        yield deck, url, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(PATIENCE)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def test_watch_and_serve_keep_the_preview_current(served: tuple[Path, str, subprocess.Popen[str]]) -> None:
    deck, url, process = served
    page = _get(url)
    version = _get(url.replace("index.html", "version.txt")).strip()
    assert f'data-version="{version}"' in page and "first" not in page  # the page shows pictures, not text
    _save(deck / "cards.csv", lambda text: text.replace("A,first", "Renamed,first"))
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        newer = _get(url.replace("index.html", "version.txt")).strip()
        if newer != version:
            break
        time.sleep(0.1)
    assert newer != version
    assert "Renamed" in _get(url)
    process.send_signal(signal.SIGINT)
    assert process.wait(PATIENCE) == 0
    assert process.stdout is not None
    said = process.stdout.read()  # standard output and standard error
    assert "stopped watching." in said
    assert "KeyboardInterrupt" not in said  # the watching library's own words ("... caught, stopping watch")


def test_the_served_page_reloads_itself(served: tuple[Path, str, subprocess.Popen[str]]) -> None:
    from tests.exports.test_preview_browser import FLAGS, chromium

    browser_path = chromium()
    from playwright.sync_api import sync_playwright

    deck, url, _process = served
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=FLAGS)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.goto(url)
            first = page.get_attribute("html", "data-version")
            page.evaluate("window.stillHere = true")
            _save(deck / "cards.csv", lambda text: text.replace("A,first", "Reloaded,first"))
            deadline = time.monotonic() + PATIENCE
            while time.monotonic() < deadline and page.get_attribute("html", "data-version") == first:
                page.wait_for_timeout(100)  # the page's own script polls; the test only watches
            assert page.get_attribute("html", "data-version") != first
            assert page.evaluate("window.stillHere === undefined")  # a new page, not an edited one
            assert "Reloaded" in page.content()
            assert not [e for e in errors if "Content Security Policy" in e], errors
        finally:
            browser.close()


def test_the_page_opened_as_a_file_never_asks(tmp_path: Path) -> None:
    from tests.exports.test_preview_browser import FLAGS, chromium

    browser_path = chromium()
    from playwright.sync_api import sync_playwright

    deck = make_deck(tmp_path / "d", [{"name": "A"}])
    assert run("preview", "--content", str(deck), "--out", str(tmp_path / "out"), "--jobs", "1").exit_code == 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=FLAGS)
        try:
            page = browser.new_page()
            asked: list[str] = []
            page.on("request", lambda request: asked.append(request.url) if "version.txt" in request.url else None)
            page.goto((tmp_path / "out" / "preview" / "index.html").as_uri())
            page.wait_for_timeout(2500)
            assert asked == []
        finally:
            browser.close()


def test_a_watch_rewrites_only_the_card_a_saved_row_changes(tmp_path: Path) -> None:
    """The real command: a row saved, that card's SVG written again and every other file of the deck left as it was
    (the same inode, the same modification time); the files are those a new `donjon build` writes."""
    from tests.test_incremental import stamps, tree

    rows = [{"name": f"Card {i}", "Text": f"text {i}"} for i in range(1, 7)]
    deck = make_deck(tmp_path / "d", rows, deck_id="one")
    out = tmp_path / "out"
    process = subprocess.Popen(with_default_signals([*_donjon(), "build", "--content", str(deck), "--out", str(out),
                                                     "--watch"]),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        _read_line(process, "built one/one")
        _read_line(process, "watching ")
        before = stamps(out)
        _save(deck / "cards.csv", lambda text: text.replace("text 4", "text four"))
        line = _read_line(process, "built one/one")
        assert "(one.pdf, svg/ (1 of 7 files written))" in line, line
        after = stamps(out)
        assert sorted(after) == sorted(before)
        assert {name for name in after if after[name] != before[name]} == {"decks/one.pdf",
                                                                            "decks/one/svg/004-card-4.svg"}
        process.send_signal(signal.SIGINT)
        assert process.wait(PATIENCE) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    new = subprocess.run([*_donjon(), "build", "--content", str(deck), "--out", str(tmp_path / "new")],
                         capture_output=True, text=True, timeout=PATIENCE)
    assert new.returncode == 0, new.stderr
    assert tree(out) == tree(tmp_path / "new")


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_watch_stopped_by_a_signal_says_so_and_exits_128_plus_it(tmp_path: Path, name: str) -> None:
    """Ctrl-C is how a watch is meant to end (exit 0); SIGTERM or SIGHUP stop it as they stop any command:
    `donjon: stopped by SIGTERM` and 128 + the signal, which watchfiles' loop, ending quietly on any signal, turned
    into a silent exit 0."""
    deck = make_deck(tmp_path / "d", [{"name": "A", "Text": "first"}], deck_id="one")
    process = subprocess.Popen(with_default_signals([*_donjon(), "build", "--content", str(deck), "--out",
                                                     str(tmp_path / "out"), "--watch", "--format", "pdf"]),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        _read_line(process, "watching ")
        number = getattr(signal, name)
        process.send_signal(number)
        assert process.wait(PATIENCE) == 128 + number
        assert process.stderr is not None
        assert f"donjon: stopped by {name}" in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
