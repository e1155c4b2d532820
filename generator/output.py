"""Writing output safely: one transaction per command, nothing half-written, nothing outside the output folder.

**One transaction per command.** Every file and folder a command writes is staged in a hidden folder of its own
inside the output folder (`OUT/.donjon-PID-XXXX/`) and put in place only when the whole command has succeeded
(:class:`Transaction`): a build whose last deck fails replaces none of the decks it finished. Putting in place
is a rename per output; where the old output exists, an old file is kept by a hard link and replaced in one
rename, and an old folder is swapped with the new one in one step (Linux's `renameat2(RENAME_EXCHANGE)`), so no
output is ever missing, and signals wait until the last rename is done.
Before the renames, a journal in the staging folder lists each output with the inode of its new version: a
command killed outright (SIGKILL) halfway through putting its outputs in place has its renames finished by the
next donjon command that writes there (:func:`sweep`), which also removes what killed commands staged and left.
A transaction discarded (the command failed or was stopped) also removes the folders it made to hold its staging
folder, when they stayed empty: an `--out` or `--annotate` folder that did not exist is not left behind.

Writing code needs to know little of this: :func:`atomic_path`, :func:`write_bytes` and :func:`staged` join
the transaction the command opened (:func:`transaction`) when there is one, and are a transaction of their
own otherwise. A folder that mostly stays as it is may be updated file by file instead of staged whole
(:class:`UpdatedFolder`): each file written is then an output of its own, put in place, and undone, as any file.

**Namespaces.** Every kind of output has a folder of its own (:data:`KIND_FOLDERS`), so no id can make two
outputs meet; output/README.md draws the layout. Every output path is built from ids made safe by
:func:`safe_name` and checked by :func:`inside`, so no id (`../x`, `/etc/passwd`, `CON`) can write elsewhere.
"""

from __future__ import annotations

import errno
import functools
import os
import re
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.errors import OutputError, os_reason, stop_if_requested, stops_held

#: Names Windows reserves whatever their extension; refused so that an output folder can be copied anywhere.
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}

#: The folders at the top of an output folder that hold one kind of output each, beside one folder per game
#: (named by the game's id: its decks). The registry refuses a game with one of these ids, so that no two kinds
#: of output share a folder. Ids below these folders are unique among their kind (deck ids within a game, a
#: game's score sheets, your decks' ids), which `donjon content check` checks.
KIND_FOLDERS: dict[str, str] = {
    "decks": "the decks of your own (DECK.pdf, DECK/svg/)",
    "references": "the card reference of each game (GAME-reference.pdf) and of a deck of one's own "
                  "(decks/DECK-reference.pdf)",
    "score-sheets": "each game's score sheets (GAME/NAME.pdf)",
    "png": "`donjon export png`: PNG images of every card (GAME/DECK/)",
    "tts": "`donjon export tts`: Tabletop Simulator decks (GAME/DECK/)",
    "dtc": "`donjon export dtc`: DriveThruCards PDFs (GAME/DECK.pdf)",
    "showcase": "`donjon export showcase`: a hand and a table spread of each deck (GAME/DECK-hand.png, -table.png)",
    "print": "`donjon export --service NAME`: what a print service asks for (SERVICE/GAME/...)",
    "preview": "`donjon preview`: the HTML preview",
    "calibration": "`donjon build calibration`: the sheet that measures a printer (calibration-PAPER.pdf)",
}
#: The kinds whose folders hold what is made from the documents (pictures, kits, print-service files, the preview
#: itself): the preview shows the documents, not these again. A new export kind goes in both.
EXPORT_KINDS: frozenset[str] = frozenset({"png", "tts", "dtc", "showcase", "print", "preview"})

#: Every temporary file or folder donjon makes starts with this, then the process id: what :func:`sweep` removes.
STAGING_PREFIX = ".donjon-"
#: The sweep's patterns are text, compiled by `re` when a folder first holds a dot-file (most builds never do).
_STAGING = r"\.donjon-(\d+)-[A-Za-z0-9_]+"
#: A staging folder whose process is gone is stale at once; one whose owner cannot be told (another computer
#: sharing the folder, a process id used again) after this long.
STALE_AFTER_S = 24 * 3600
#: Temporaries of donjon before 0.2 (`.DECK.pdf.XXXXXXXX.tmp`, `.svg-XXXXXXXX.tmp`, `.svg-old-XXXXXXXX`) carry
#: no process id: they are removed once this old, which no build takes.
LEGACY_AFTER_S = 3600
_LEGACY_FILE = r"\..+\.[a-z0-9_]{8}\.tmp"
_LEGACY_FOLDER = r"\..+-[a-z0-9_]{8}\.tmp"
_LEGACY_OLD = r"\.(.+)-old-[a-z0-9_]{8}"
#: How deep below the output folder temporaries of earlier versions can lie (OUT/png/GAME/.DECK-XXXX.tmp).
_LEGACY_DEPTH = 3


def safe_name(text: str) -> str:
    """A file name from an id: lower-case letters, digits, dashes and dots, never `.`/`..` or a reserved name."""
    name = re.sub(r"[^a-z0-9.]+", "-", text.lower())
    # a dot only between letters or digits (`v1.2`, `nul.txt`); any other dot, like those of `..`, is a dash
    name = re.sub(r"(?<![a-z0-9])\.|\.(?![a-z0-9])", "-", name)
    name = re.sub(r"-{2,}", "-", name).strip("-")[:120].strip("-") or "unnamed"
    if name.split(".")[0] in _RESERVED:
        name = f"{name}-"
    return name


def inside(root: Path, *parts: str) -> Path:
    """`root/parts...`, each part made safe, and refused if it would still land outside `root`."""
    base = root.resolve()
    path = base.joinpath(*(safe_name(p) if i < len(parts) - 1 else _safe_file(p) for i, p in enumerate(parts)))
    if path != base and base not in path.resolve().parents:
        raise OutputError(path, f"is outside the output folder {base}")
    return path


def inside_names(root: Path, names: Iterable[str]) -> list[str]:
    """`inside(root, name).name` for each of `names`, with `root` resolved once (a deck's thousand card files): a
    name made safe is one plain part, which can lead outside `root` only as a symbolic link, so only a link is
    followed (and refused, as `inside` refuses it, when it leads outside)."""
    base = root.resolve()
    out = []
    for name in names:
        safe = _safe_file(name)
        if os.path.islink(base / safe):
            inside(root, name)
        out.append(safe)
    return out


#: How many file names `_safe_file` keeps once made (a deck's card files, made again with every build of a watch).
SAFE_NAMES_KEPT = 65536


@functools.lru_cache(maxsize=SAFE_NAMES_KEPT)
def _safe_file(name: str) -> str:
    stem, dot, ext = name.rpartition(".")
    if not dot or not re.fullmatch(r"[a-z0-9]{1,8}", ext):
        return safe_name(name)
    return f"{safe_name(stem)}.{ext}"


def prepare_dir(path: Path, option: str = "--out") -> Path:
    """Make sure `path` is a folder donjon can write in, creating it if needed."""
    where = f"{option} {path}"
    if path.is_symlink() and not path.exists():
        try:
            os.stat(path)
        except OSError as err:
            if err.errno == errno.ELOOP:
                raise OutputError(where, "is a symbolic link that leads back to itself") from None
        raise OutputError(where, f"is a symbolic link to {os.readlink(path)}, which does not exist") from None
    if path.exists() and not path.is_dir():
        raise OutputError(where, "is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        if err.errno in (errno.EEXIST, errno.ENOTDIR):
            blocker = next((p for p in [path, *path.parents] if p.exists() and not p.is_dir()), None)
            if blocker is not None:
                raise OutputError(where, f"cannot be made: {blocker} is a file, not a folder") from None
        raise OutputError(where, f"cannot create the folder ({os_reason(err)})") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise OutputError(where, "the folder is not writable")
    return path


# --- swapping a new output with the old one ----------------------------------------------------------------------

_RENAME_EXCHANGE = 2  # linux/fs.h
_AT_FDCWD = -100
_renameat2: object = None


def _exchange(new: Path, old: Path) -> bool:
    """Swap two existing paths in one step (Linux's renameat2 with RENAME_EXCHANGE); False where the system or
    the file system cannot, so that the caller falls back to two renames."""
    global _renameat2

    if _renameat2 is None:
        _renameat2 = False
        try:
            import ctypes

            # the program's own symbols, the C library's among them (ctypes.util.find_library would run ldconfig)
            libc = ctypes.CDLL(None, use_errno=True)
            function = libc.renameat2
            function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
            function.restype = ctypes.c_int
            _renameat2 = function
        except (OSError, AttributeError, TypeError):  # not Linux, or a C library without renameat2 (glibc < 2.28)
            pass
    if _renameat2 is False:
        return False
    import ctypes

    if _renameat2(_AT_FDCWD, os.fsencode(new), _AT_FDCWD, os.fsencode(old), _RENAME_EXCHANGE) == 0:  # type: ignore[operator]
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):  # this file system cannot
        return False
    raise OSError(code, os.strerror(code), str(old))


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _place(staged: Path, final: Path) -> Callable[[], None]:
    """Put one staged output in place of `final`; the old version, if any, is left at the staged path (or beside
    it) until the staging folder goes. Returns what undoes it."""
    final.parent.mkdir(parents=True, exist_ok=True)
    if not os.path.lexists(final):
        os.rename(staged, final)
        return lambda: os.rename(final, staged)
    old = staged.with_name(staged.name + "-old")
    if not staged.is_dir() and _keep_linked(final, old):
        # A file: the old version is kept by a second name, then the new one replaces it in one rename, so the
        # path is never missing (and no C library call is needed, as a folder's exchange needs).
        os.replace(staged, final)

        def restore() -> None:
            os.replace(final, staged)
            os.replace(old, final)
        return restore
    if _exchange(staged, final):
        def swap_back() -> None:
            _exchange(staged, final)
        return swap_back
    # Without an exchange: the old version steps aside, then the new one takes its place. Killed in between,
    # the journal lets the next command finish the move (see sweep).
    os.rename(final, old)
    os.rename(staged, final)

    def undo() -> None:
        os.rename(final, staged)
        os.rename(old, final)
    return undo


def _keep_linked(final: Path, old: Path) -> bool:
    """Give the file at `final` the second name `old` (a hard link); False where the file system has no hard
    links (a folder where a file belongs was refused before the commit began, by `_check`)."""
    try:
        old.unlink(missing_ok=True)  # left by a commit killed after linking: it is the same file as `final`
        os.link(final, old, follow_symlinks=False)
    except OSError:
        return False
    return True


# --- the transaction ---------------------------------------------------------------------------------------------

class StagedFolder:
    """A folder being written: its files go into `tmp`, which becomes `final` when the transaction commits."""

    def __init__(self, final: Path, tmp: Path) -> None:
        self.final = final
        self.tmp = tmp

    def _check(self, name: str) -> None:
        parts = name.split("/")
        if name.startswith("/") or any(part in ("", ".", "..") for part in parts):
            raise OutputError(self.final / name, "is not a plain path inside the output folder")

    def write(self, name: str, data: bytes) -> int:
        """Write one file into the folder (`name` is relative, made of safe parts by the caller); its size."""
        self._check(name)
        target = self.tmp / name
        try:
            if "/" in name:
                target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as err:
            raise _fail(self.final / name, err) from None
        return len(data)

    def link(self, name: str, source: str | Path) -> bool:
        """Put the file at `source` (a file of the folder in place, that has not changed) into the folder as `name`
        by a second name (a hard link): the same file, neither copied nor written. False, leaving nothing, where
        that cannot be (another file system, one without hard links, no such file): then write it."""
        self._check(name)
        target = os.path.join(self.tmp, name)  # a string: a thousand cards' Path objects would cost more than linking
        try:
            if "/" in name:
                os.makedirs(os.path.dirname(target), exist_ok=True)
            os.link(source, target, follow_symlinks=False)
        except OSError:
            return False
        return True

    def written(self, name: str) -> str:
        """Where the file `name` written into the folder is until the transaction commits."""
        return f"{self.tmp}/{name}"


class UpdatedFolder(StagedFolder):
    """A folder in place whose files are replaced one by one: each file written is staged in the transaction as a
    file of its own and takes its place when the transaction commits (the old one kept by a second name until
    then, as for any file: :func:`_place`), and a file linked from the folder in place is simply left there.

    For a folder whose files mostly stay (`donjon build --watch` rewriting one card of a thousand), this writes
    and moves only what changed, where a staged folder takes a second name for every file kept. The caller uses
    one only when the folder in place holds exactly the files the command writes (no file of it is to go), and
    links only files that are the ones in place."""

    def __init__(self, tx: Transaction, final: Path, what: str) -> None:
        super().__init__(final, final)
        self.tx = tx
        self.what = what
        self._staged: dict[str, Path] = {}

    def write(self, name: str, data: bytes) -> int:
        self._check(name)
        with self.tx.file(self.final / name, self.what) as tmp:  # an OSError is the file's, named (Transaction.file)
            tmp.write_bytes(data)
        self._staged[name] = tmp
        return len(data)

    def link(self, name: str, source: str | Path) -> bool:
        """The file `name` in place stays (True) when `source` is that very file; else False: write it."""
        self._check(name)
        return os.fspath(source) == f"{self.final}/{name}"

    def written(self, name: str) -> str:
        return str(self._staged[name])


class _Item:
    """One output of a transaction: where it is staged, where it goes, what it is (for messages), and whether it
    is a folder.

    A plain class, not a dataclass: it is neither compared nor printed, and a dataclass compiles its generated
    `__init__` at the start of every command that writes."""

    def __init__(self, staged: Path, final: Path, what: str, folder: bool) -> None:
        self.staged = staged
        self.final = final
        self.what = what
        self.folder = folder


def _fail(path: Path, err: OSError) -> OutputError:
    return OutputError(path, f"cannot write ({os_reason(err)})")


class Transaction:
    """Every output of one command, staged in `OUT/.donjon-PID-XXXX/` and put in place together by :meth:`commit`.

    :meth:`file` and :meth:`folder` stage one output each; two outputs of one command claiming one path (or one
    inside a folder another replaces) is an error naming both, so nothing is ever written twice. (A plain class
    for the reason _Item is one.)
    """

    def __init__(self, out: Path) -> None:
        self.out = out
        self.items: dict[Path, _Item] = {}
        self.root: Path | None = None
        #: the folders this transaction made to hold its staging folder (`out` and its missing parents, deepest
        #: first): removed again when it is discarded before anything was put in place, so that a command that
        #: fails or is stopped leaves no empty folder it made
        self.made: list[Path] = []
        self.committed = False

    def covers(self, path: Path) -> bool:
        base = self.out.resolve()
        full = path.resolve()
        return full == base or base in full.parents

    def _staging(self) -> Path:
        if self.root is None:
            try:
                self._make_out()
                import tempfile  # here, not at the top: a command that writes nothing never needs it

                # Held: a signal between mkdtemp's mkdir and this assignment would leave a folder nobody discards
                with stops_held():
                    self.root = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=self.out))
                (self.root / "owner").write_text(_host())
            except OSError as err:
                raise _fail(self.out, err) from None
        return self.root

    def _make_out(self) -> None:
        """Make `out` (and its missing parents), noting which: held from signals, so that a stop between the
        making and the noting cannot leave a folder made that nobody removes."""
        missing = []
        for folder in (self.out, *self.out.parents):
            if os.path.lexists(folder):
                break
            missing.append(folder)
        with stops_held():
            try:
                self.out.mkdir(parents=True, exist_ok=True)
            finally:  # a parent made before a deeper mkdir failed is noted too
                self.made = [folder for folder in missing if folder.is_dir()]

    def _claim(self, final: Path, what: str, folder: bool) -> Path:
        final = final.resolve()
        if final == self.out.resolve() or not self.covers(final):
            raise OutputError(final, f"is not inside the output folder {self.out}")
        for other in self.items.values():
            if other.final == final:
                raise OutputError(final, f"would be written twice by this command: {other.what or 'one output'} and "
                                         f"{what or 'another'}; give one of them another id")
            if other.folder and other.final in final.parents:
                raise OutputError(final, f"lies inside {other.final}, which this command replaces whole "
                                         f"({other.what or 'a folder'})")
            if folder and final in other.final.parents:
                raise OutputError(other.final, f"lies inside {final}, which this command replaces whole "
                                               f"({what or 'a folder'})")
        return final

    @contextmanager
    def file(self, final: Path, what: str = "") -> Iterator[Path]:
        """A temporary path to write `final` to; it takes `final`'s place when the transaction commits."""
        final = self._claim(final, what, folder=False)
        staged = self._staging() / f"{len(self.items) + 1:06d}"
        try:
            yield staged
        except OSError as err:
            _remove(staged)
            raise _fail(final, err) from None
        except BaseException:
            _remove(staged)
            raise
        if not staged.is_file():
            raise OutputError(final, "was not written")
        self.items[final] = _Item(staged, final, what, folder=False)

    def folder(self, final: Path, what: str = "") -> StagedFolder:
        """A folder to fill; it replaces `final` whole when the transaction commits."""
        final = self._claim(final, what, folder=True)
        staged = self._staging() / f"{len(self.items) + 1:06d}"
        try:
            staged.mkdir()
        except OSError as err:
            raise _fail(final, err) from None
        self.items[final] = _Item(staged, final, what, folder=True)
        return StagedFolder(final, staged)

    def staged_file(self, final: Path) -> Path | None:
        """Where the file that will take `final`'s place is written, before the commit; None if none is staged."""
        item = self.items.get(final.resolve())
        return None if item is None or item.folder else item.staged

    def _check(self) -> None:
        """Refuse, before anything is moved, what would stop a rename halfway."""
        base = self.out.resolve()
        for item in self.items.values():
            final = item.final
            for parent in final.parents:
                if parent == base:
                    break
                if os.path.lexists(parent) and not parent.is_dir():
                    raise OutputError(parent, f"is a file where a folder belongs (for {final.name})")
            if item.folder and (final.is_symlink() or (os.path.lexists(final) and not final.is_dir())):
                raise OutputError(final, "is not a folder; move it away or choose another --out")
            if not item.folder and final.is_dir() and not final.is_symlink():
                raise OutputError(final, "is a folder; move it away or choose another --out")

    def commit(self) -> None:
        """Put every staged output in place, all or none: signals wait until the last rename, and a rename that
        fails undoes those before it. Then the staging folder (holding the old versions) goes."""
        global _placed
        if self.root is None:
            return
        self._check()
        order = sorted(self.items.values(), key=lambda item: str(item.final))
        try:
            (self.root / "journal").write_bytes(_journal([(item.staged, item.final) for item in order]))
        except OSError as err:
            raise _fail(self.out, err) from None
        undo: list[Callable[[], None]] = []
        with stops_held():
            stop_if_requested()  # a stop whose exception was lost: nothing is put in place
            for item in order:
                try:
                    os.chmod(item.staged, 0o755 if item.folder else 0o644)
                    undo.append(_place(item.staged, item.final))
                except OSError as err:
                    for step in reversed(undo):
                        try:
                            step()
                        except OSError:
                            pass
                    raise _fail(item.final, err) from None
            _placed += len(order)  # before the signals held meanwhile are let through
            self.committed = True
        self.discard()

    def discard(self) -> None:
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None
        self.items.clear()
        if not self.committed:
            for folder in self.made:  # deepest first; one holding anything (written by another) is kept, as its parents
                try:
                    folder.rmdir()
                except OSError:
                    break
        self.made = []


_ACTIVE: list[Transaction] = []
#: How many outputs this process has put in place: a command stopped by a signal that came while it put them in
#: place (the signal waits until the last rename) says so.
_placed = 0


def placed_outputs() -> int:
    """How many outputs the commits of this process have put in place."""
    return _placed


def active(path: Path) -> Transaction | None:
    """The open transaction that `path` belongs to, if any."""
    return next((tx for tx in reversed(_ACTIVE) if tx.covers(path)), None)


@contextmanager
def transaction(out: Path) -> Iterator[Transaction]:
    """The transaction of a command writing into `out`: committed when the block succeeds, discarded when it fails
    (or is interrupted). Inside another transaction covering `out`, that one (committed when it ends)."""
    outer = active(out)
    if outer is not None:
        yield outer
        return
    sweep(out)
    tx = Transaction(out)
    _ACTIVE.append(tx)
    try:
        yield tx
        tx.commit()
    finally:
        tx.discard()
        _ACTIVE.remove(tx)


# --- single files and folders, in the command's transaction or in one of their own --------------------------------

@contextmanager
def atomic_path(path: Path, what: str = "") -> Iterator[Path]:
    """A temporary path to write `path` to; it takes `path`'s place when the transaction succeeds."""
    owner = active(path)
    with transaction(owner.out if owner else path.parent) as tx, tx.file(path, what) as tmp:
        yield tmp


def write_bytes(path: Path, data: bytes, what: str = "") -> Path:
    with atomic_path(path, what) as tmp:
        tmp.write_bytes(data)
    return path


def write_text(path: Path, text: str, what: str = "") -> Path:
    return write_bytes(path, text.encode("utf-8"), what)


@contextmanager
def staged(finals: list[Path], what: str = "",
           in_place: Callable[[Path], bool] | None = None) -> Iterator[list[StagedFolder]]:
    """Staged folders for `finals`, put in place when the transaction succeeds, discarded when it fails. A folder
    for which `in_place` says yes is updated file by file instead (:class:`UpdatedFolder`)."""
    if not finals:
        yield []
        return
    owner = active(finals[0])
    with transaction(owner.out if owner else Path(os.path.commonpath([str(f.parent) for f in finals]))) as tx:
        yield [UpdatedFolder(tx, final, what) if in_place is not None and in_place(final) else tx.folder(final, what)
               for final in finals]


# --- sweeping what killed commands left -------------------------------------------------------------------------

def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # somebody else's process
        return True
    return True


def _stale(root: Path, pid: int, now: float) -> bool:
    try:
        age = now - root.stat().st_mtime
    except OSError:
        return False
    if pid == os.getpid():
        return False
    if age > STALE_AFTER_S:
        return True
    try:
        host = _owner_host((root / "owner").read_text())
    except (OSError, ValueError):
        host = None  # killed before it wrote its owner file: on this computer, as the folder is where we write
    return host in (None, _host()) and not _alive(pid)


def _host() -> str:
    """This computer's name (os.uname: importing socket for it would cost every command a few milliseconds)."""
    uname = getattr(os, "uname", None)
    if uname is not None:
        return str(uname().nodename)
    import socket

    return socket.gethostname()


def _recover(root: Path) -> int:
    """Finish the renames of a command killed while putting its outputs in place; how many it finished."""
    try:
        journal = _read_journal((root / "journal").read_bytes())
    except (OSError, ValueError):
        return 0  # killed before it began to put anything in place: nothing of it is kept
    done = 0
    for name, final, inode in journal:
        staged = root / name
        try:
            if staged.exists() and staged.stat().st_ino == inode:  # still the new version, not yet placed
                _place(staged, final)
                done += 1
            elif not os.path.lexists(final) and (old := staged.with_name(staged.name + "-old")).exists():
                os.rename(old, final)  # the old version, taken out for a swap that never came
        except OSError:
            continue
    return done


# The owner and journal files are plain bytes rather than JSON: a build imports nothing it does not draw with
# (json is 1.5 ms of every command's start).

def _owner_host(text: str) -> str | None:
    """The computer named in an owner file (written by this version as the bare name, by earlier ones as JSON);
    None when the file is empty (its command was killed as it wrote it)."""
    if text.startswith("{"):
        import json

        found = json.loads(text).get("host")
        if not isinstance(found, str):
            raise ValueError("no host")
        return found
    return text or None


def _journal(moves: list[tuple[Path, Path]]) -> bytes:
    """The moves a commit is about to make: for each, the staged name, the final path and the staged inode (the
    sign that it is not yet placed), NUL-separated, as no path can hold a NUL."""
    fields: list[bytes] = []
    for staged, final in moves:
        fields += [os.fsencode(staged.name), os.fsencode(final), str(staged.stat().st_ino).encode()]
    return b"\0".join(fields)


def _read_journal(data: bytes) -> list[tuple[str, Path, int]]:
    """The moves of a journal (written by this version, or as JSON by earlier ones); ValueError when damaged."""
    if data.startswith(b"["):
        import json

        try:
            return [(str(e["staged"]), Path(str(e["final"])), int(e["inode"])) for e in json.loads(data)]
        except (KeyError, TypeError) as err:
            raise ValueError("damaged journal") from err
    fields = data.split(b"\0")
    if len(fields) % 3:
        raise ValueError("damaged journal")
    return [(os.fsdecode(fields[i]), Path(os.fsdecode(fields[i + 1])), int(fields[i + 2]))
            for i in range(0, len(fields), 3)]


def sweep(out: Path) -> list[Path]:
    """Remove the temporaries of donjon commands that are no longer running, in `out` and its folders: only
    names donjon makes, and only when their process is gone (or they are old). A command killed while putting
    its outputs in place gets its renames finished first. The paths removed."""
    return _sweep(out, 0, time.time())


def _sweep(folder: str | Path, depth: int, now: float) -> list[Path]:
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        is_dir = entry.is_dir(follow_symlinks=False)
        if not name.startswith("."):
            if depth + 1 < _LEGACY_DEPTH and is_dir:
                removed += _sweep(entry.path, depth + 1, now)
            continue
        path = Path(entry.path)
        ours = re.fullmatch(_STAGING, name)
        if ours:
            if is_dir and _stale(path, int(ours.group(1)), now):
                _recover(path)
                _remove(path)
                removed.append(path)
            continue
        try:
            if now - entry.stat(follow_symlinks=False).st_mtime <= LEGACY_AFTER_S:
                continue
        except OSError:
            continue
        restore = re.fullmatch(_LEGACY_OLD, name)
        if is_dir and restore:
            final, previous = Path(folder) / restore.group(1), path / "previous"
            if not os.path.lexists(final) and previous.is_dir():
                os.rename(previous, final)  # an SVG folder swap killed halfway: the old folder comes back
        elif not re.fullmatch(_LEGACY_FOLDER if is_dir else _LEGACY_FILE, name):
            continue
        _remove(path)
        removed.append(path)
    return removed
