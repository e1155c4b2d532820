"""`donjon build --watch`: build, then rebuild what changed each time a file is saved, until interrupted.

Each build records the files every deck was made from (:attr:`DeckResult.sources`: its deck.yaml and table, the
layouts it was drawn with and those they extend, its fonts, icons and pictures; for a game's deck, the game's
folder). watchfiles reports saved files; the decks whose files changed are built again, and a change to a file no
deck used yet (a new deck, a picture a card is about to name) rebuilds every deck of the target whose last build
failed or that is new. A build that fails prints its error and the watch goes on; the next save tries again, and
the files of the last good build stay in place (each deck is built in one transaction).

A deck built again is built incrementally (generator.build.incremental): the watch keeps each deck's drawings and
what its last build wrote, draws again only the cards whose row, layouts or pictures changed, and writes only the
files that changed; the files are those a new build writes.

Only a saved file a deck reads, or may be about to read, is reported and built for: the temporary files editors
and tools write beside a file they save (`sed -i`'s, Vim's swap files and 4913, Emacs's locks, backups~, .tmp) are
left out by name, and a file of another kind no deck read (notes) by :func:`worth_a_round`.

With `serve`, the preview page (`donjon preview`) of the target's decks is written after each build and the output
folder is served on 127.0.0.1 (this machine only), with the standard library's HTTP server. The page asks for its
`version.txt` every second when it is served from this machine and reloads itself when the version changes
(generator.export.preview); opened as a file, it does nothing of the kind.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.build.decks import DeckResult, build_deck
from generator.build.incremental import DeckMemo
from generator.build.options import BuildOptions, Written
from generator.catalog.deck import Deck
from generator.content import Content, all_decks, load_content, pick_cards, select
from generator.errors import DonjonError, UsageError
from generator.i18n import messages_language, phrase, phrase_n
from generator.output import transaction
from generator.resources import content_dir, templates_dir

#: watchfiles gathers the changes of this many milliseconds into one batch (an editor's save writes a file
#: and renames it; a script may write many files at once).
DEBOUNCE_MS = 300


@dataclass
class WatchState:
    """What the last builds found: each deck's files, the decks that need building again, and what each deck's last
    build made (generator.build.incremental)."""

    sources: dict[str, frozenset[Path]] = field(default_factory=dict)
    failed: set[str] = field(default_factory=set)
    builds: int = 0
    kept: dict[str, DeckMemo] = field(default_factory=dict)

    def memo(self, deck: Deck, options: BuildOptions) -> DeckMemo:
        """What the last build of `deck` made, when it was made with what this build shares (see DeckMemo)."""
        context = (deck.card_size, deck.shape, deck.folder, deck.root, deck.assets, options)
        found = self.kept.get(deck.key)
        if found is None or found.context != context:
            found = self.kept[deck.key] = DeckMemo(context)
        return found


class Reporter:
    """Where the watch says what it did: lines for stdout and errors for stderr (the command prints them)."""

    def __init__(self, say: Callable[[str], None], warn: Callable[[str], None]) -> None:
        self.say = say
        self.warn = warn


def _select(content: Content, target: str, cards: str | None, options: BuildOptions) -> list[Deck]:
    decks = select(all_decks(content, options.lang, options.also), target, [g.info.id for g in content.games()])
    if cards is not None:
        if len(decks) != 1:
            raise UsageError("--cards", phrase("picks cards of one deck; name it as TARGET ({target} is {decks})",
                                               target=target, decks=phrase_n("{n} deck", "{n} decks", len(decks))))
        decks = [pick_cards(decks[0], cards)]
    return decks


def _game_files(content: Content, deck: Deck) -> frozenset[Path]:
    folder = content.folders.get(deck.game)
    if folder is None:
        return frozenset()
    return frozenset(p.resolve() for p in folder.glob("*.yaml"))


def affected(changed: Iterable[Path], decks: list[Deck], state: WatchState) -> list[Deck]:
    """The decks a batch of saved files calls for: those built from a changed file, and those never built well."""
    touched = {p.resolve() for p in changed}
    out = []
    for deck in decks:
        known = state.sources.get(deck.key)
        if known is None or deck.key in state.failed or known & touched:
            out.append(deck)
    return out


def run_once(root: Path | None, target: str, out: Path, options: BuildOptions, cards: str | None,
             state: WatchState, reporter: Reporter, changed: Iterable[Path] | None,
             after: Callable[[Content, list[Deck]], None] | None = None) -> list[DeckResult]:
    """One round: load the content, build the decks `changed` calls for (all of them the first time), report
    each deck built with the seconds from the start of the round (the change seen) to its files in place."""
    from generator.layout.load import clear_cache

    start = time.perf_counter()
    clear_cache()  # a layout saved since is read anew (pictures and fonts are keyed by their files' contents)
    try:
        content = load_content(root)
        decks = _select(content, target, cards, options)
    except DonjonError as err:
        reporter.warn(_said("error: {message}", err))
        return []
    chosen = decks if changed is None else affected(changed, decks, state)
    results: list[DeckResult] = []
    seconds: list[float] = []
    for deck in chosen:
        memo = state.memo(deck, options)
        try:
            with transaction(out):  # the deck's document and folders, put in place together
                results.append(build_deck(content, deck, out, options, lambda n: None, memo))
        except DonjonError as err:
            memo.abandon()
            state.failed.add(deck.key)
            reporter.warn(_said("error: {message}", err))
        else:
            memo.commit()
            seconds.append(time.perf_counter() - start)
    games = {p.resolve() for folder in content.folders.values() for p in folder.glob("*.yaml")}
    if changed is None or games & {p.resolve() for p in changed}:
        from generator.build.outputs import other_outputs

        try:
            for other in other_outputs(content, target, out, options):
                reporter.say(phrase("wrote {path}: {what}", path=other.path.name, what=other.what))
        except DonjonError as err:
            reporter.warn(_said("error: {message}", err))
    for result, elapsed in zip(results, seconds, strict=True):
        key = result.deck.key
        state.sources[key] = frozenset(p.resolve() for p in result.sources) | _game_files(content, result.deck)
        state.failed.discard(key)
        for warning in result.warnings:
            reporter.warn(_said("warning: {message}", warning))
        files = ", ".join(_written(w) for w in result.written)
        reporter.say(built(key, result.cards, elapsed, files))
    if changed is not None and state.failed:
        names = ", ".join(sorted(state.failed))
        reporter.warn(phrase("still failing: {names} (fix the files and save again)", names=names))
    state.builds += 1
    if after is not None and results:
        try:
            after(content, decks)
        except DonjonError as err:
            reporter.warn(_said("error: {message}", err))
    return results


def built(key: str, cards: int, seconds: float, files: str) -> str:
    """A deck the watch built again: `built game/deck: 18 cards in 0.42 s (deck.pdf)`, in the language of the
    messages (`--lang fr`: its numbers as French writes them)."""
    lang = messages_language()
    took = f"{seconds:.2f}" if lang is None else lang.number(seconds, decimals=2)
    # TRANSLATORS: `build --watch`, a deck built again after a save: its cards, the seconds it took, its files
    return phrase("built {key}: {cards} in {seconds} s ({files})", key=key,
                  cards=phrase_n("{n} card", "{n} cards", cards), seconds=took, files=files)


def _written(written: Written) -> str:
    """`deck.pdf`, `svg/`, or what an incremental build left as it was: `deck.pdf (unchanged)`, `svg/ (1 of 1,001
    files written)`."""
    name = f"{written.path.name}{'/' if written.folder else ''}"
    if written.rewritten is None or written.rewritten == written.files:
        return name
    if not written.folder:
        return phrase("{name} (unchanged)", name=name)
    lang = messages_language()
    if lang is None:
        return f"{name} ({written.rewritten:,} of {written.files:,} files written)"
    return lang.nformat("{name} ({rewritten} of {n} file written)", "{name} ({rewritten} of {n} files written)",
                        written.files, name=name, rewritten=lang.number(written.rewritten))


def _said(prefixed: str, said: object) -> str:
    """An error or a warning of the watch, `error: ` or `warning: ` before it as `donjon build` says them (in the
    language of its messages, `erreur :`)."""
    lang = messages_language()
    return (prefixed if lang is None else lang._(prefixed)).format(message=said)


def watched_paths(root: Path | None, out: Path) -> list[Path]:
    """The folders to watch: the content folder and the shipped layouts (never the output folder)."""
    paths = [(root or content_dir()).resolve(), (templates_dir() / "layouts").resolve()]
    return [p for p in paths if p.exists()]


#: The names of the files editors and tools write beside a file they save, and remove or rename over it: never a
#: deck's. `sed -i` writes `sed` and six letters or digits and renames it over the file; Vim writes a swap file
#: (`.name.swp`, `.swo`... and `.swp` alone for an unnamed buffer), a backup (`name~`) and, to test whether it may
#: write in the folder, a file named 4913 (and 5036, 5159... when that exists: 4913 + 123 n); Emacs a lock file
#: (`.#name`) and an autosave (`#name#`); GLib's editors (gedit) `.goutputstream-` and six characters;
#: LibreOffice and Microsoft Office a lock file (`.~lock.name#`, `~$name`) while a table is open; scripts `.tmp`.
#: A name starting with a dot is a hidden file, which no deck reads either.
TEMPORARY = re.compile(r"""sed[A-Za-z0-9]{6}|\..*|.*\.sw[a-p]|.*~|\#.*\#|\d+|~\$.*|.*\.te?mp""")
#: The kinds of file a deck, a layout or a game reads (tables, deck and layout files, pictures, fonts,
#: translations): a new file of one of these kinds may be one a deck is about to use (a new deck's deck.yaml, a
#: picture a card names next), so it is worth a round even before any deck has read it.
READ_KINDS = frozenset({".yaml", ".yml", ".json", ".csv", ".xlsx", ".po", ".png", ".jpg", ".jpeg", ".svg", ".ttf",
                        ".otf"})


def outside_output(out: Path) -> Callable[[Any, str], bool]:
    """A watchfiles filter leaving out the output folder (it may lie inside the content folder) and the
    temporary files of editors and tools (:data:`TEMPORARY`)."""
    top = out.resolve()

    def keep(_change: Any, path: str) -> bool:
        found = Path(path)
        if TEMPORARY.fullmatch(found.name):
            return False
        return found.resolve() != top and top not in found.resolve().parents
    return keep


def worth_a_round(saved: Iterable[Path], state: WatchState) -> list[Path]:
    """The saved files a round is for: those a deck's last build read (its sources), and files no deck read yet
    that may be a deck's next input (of a kind a deck reads, :data:`READ_KINDS`, or any file while a deck's last
    build failed: it may be the file that deck was missing). Anything else (notes, a text editor's other files) is
    neither reported nor built for."""
    known: set[Path] = set()
    for sources in state.sources.values():
        known |= sources
    return [path for path in saved
            if path.resolve() in known or path.suffix.lower() in READ_KINDS or state.failed]


def watch(root: Path | None, target: str, out: Path, options: BuildOptions, cards: str | None, reporter: Reporter,
          stop: threading.Event | None = None, after: Callable[[Content, list[Deck]], None] | None = None,
          ready: Callable[[], None] | None = None) -> WatchState:
    """Build, then rebuild on every save until `stop` is set (or the process is interrupted)."""
    import logging

    from watchfiles import watch as changes

    # Ctrl-C ends the loop below quietly (`raise_interrupt=False`), but watchfiles says so with a warning of its own
    # ("KeyboardInterrupt caught, stopping watch") that Python's last-resort handler prints; donjon says "stopped
    # watching." itself, so the library's warnings and notes are kept out of the user's terminal (errors stay).
    logging.getLogger("watchfiles").setLevel(logging.ERROR)
    state = WatchState()
    run_once(root, target, out, options, cards, state, reporter, None, after)
    paths = watched_paths(root, out)
    # watchfiles sets its watcher up when it is first asked for changes, and gives its first answer (what changed,
    # or nothing after `rust_timeout`) once it has: "watching" is said then. Said before the loop, it came before the
    # watcher was set up, and a file saved in that moment (a script saving once the line came) was never built for
    watching = False
    for batch in changes(*paths, watch_filter=outside_output(out), debounce=DEBOUNCE_MS, stop_event=stop,
                         raise_interrupt=False, rust_timeout=500, yield_on_timeout=True):
        if not watching:
            watching = True
            reporter.say(f"watching {', '.join(str(p) for p in paths)} (Ctrl-C to stop)")
            if ready is not None:
                ready()
        saved = worth_a_round(sorted({Path(path) for _change, path in batch}), state)
        if not saved:
            continue
        shown = ", ".join(p.name for p in saved[:4]) + (f" and {len(saved) - 4} more" if len(saved) > 4 else "")
        reporter.say(f"changed: {shown}")
        run_once(root, target, out, options, cards, state, reporter, saved, after)
    return state


class PreviewServer:
    """The output folder served on 127.0.0.1 (this machine only) by the standard library, in a thread."""

    def __init__(self, out: Path, port: int) -> None:
        import functools
        from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

        class Quiet(SimpleHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the standard library's name
                return

            def end_headers(self) -> None:
                self.send_header("Cache-Control", "no-store")  # a reloaded page shows the new images
                super().end_headers()

        handler = functools.partial(Quiet, directory=str(out))
        self.server = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, name="donjon-preview", daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}/preview/index.html"

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
