"""Reading a user's file: the one safe reader every input goes through.

It opens without blocking and checks what it opened before reading, so that a FIFO, a device or a folder given
where a file belongs is refused at once (instead of waiting for ever or reading without end), and it never reads
more than the limit it is given.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.errors import InputError, os_reason, unreadable
from generator.i18n import N_, phrase
from generator.sayings import quote

#: The largest input donjon reads: a catalog or an end state is a few KiB, a filled sheet a few hundred.
MAX_BYTES = 8 * 1024 * 1024

#: Opening without blocking: a FIFO is then refused at once instead of waiting for a writer.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)

#: A read after the size the file announced: only a file that grows while it is read needs it.
_CHUNK = 1 << 16


def read_bytes(path: Path, display: str | None = None, max_bytes: int = MAX_BYTES) -> bytes:
    """A regular file's bytes, refusing folders, devices, FIFOs and files over `max_bytes`.

    One open, one fstat and a read of the size the file says it has: reading into a buffer of the largest
    allowed size instead costs more than parsing a small end state.
    """
    name = display or str(path)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise unreadable(name, N_("no such file")) from None
    except IsADirectoryError:
        raise unreadable(name, N_("is a folder, not a file")) from None
    except OSError as err:
        raise unreadable(name, N_("cannot be read ({reason})"), reason=os_reason(err)) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise unreadable(name, N_("is a folder, not a file"))
        if not stat.S_ISREG(info.st_mode):
            raise unreadable(name, N_("is not a regular file"))
        if info.st_size > max_bytes:
            raise unreadable(name, N_("is {size} MiB, more than the {most} MiB donjon reads"),
                             size=f"{info.st_size / 1048576:.1f}", most=max_bytes // 1048576)
        chunks: list[bytes] = []
        total = 0
        want = info.st_size + 1
        while True:
            chunk = os.read(fd, want)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise unreadable(name, N_("is more than the {most} MiB donjon reads"), most=max_bytes // 1048576)
            want = _CHUNK
        return b"".join(chunks)
    except OSError as err:
        raise unreadable(name, N_("cannot be read ({reason})"), reason=os_reason(err)) from None
    finally:
        os.close(fd)


@contextmanager
def pypdf_quiet() -> Iterator[None]:
    """pypdf's notes about damage it repairs (it writes them through `logging`, on standard error) held back for
    the block: a reader of a user's PDF reports what matters itself, in donjon's words."""
    import logging  # here: every command reads files, few read PDFs, and logging costs a hundredth of a start-up

    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def resolve_within(root: Path, base: Path, ref: str) -> Path:
    """The file `ref` names, relative to the folder `base`, as an absolute path that must lie inside `root` (the
    content folder): `../shared/layout.yaml` is fine while it stays inside, `/etc/passwd` or `../../x` is not, and
    neither is a symbolic link leading outside (a deck folder shared as an archive may hold a link to a file of the
    builder's home: it must not be printed on a card).

    Raises ValueError saying why (callers add which file and key wrote the reference)."""
    text = ref.strip()
    if not text:
        raise ValueError(phrase("names no file"))
    if "\x00" in text:
        raise ValueError(phrase("{ref} holds a NUL character, which no file name can", ref=quote(ref)))
    path = Path(text)
    if path.is_absolute() or (path.drive and not path.root):
        raise ValueError(phrase("{ref} is an absolute path; give a path relative to {folder}/, inside the content "
                                "folder", ref=quote(ref), folder=base.name or phrase("its folder")))
    top = root.resolve()
    found = Path(os.path.normpath(base.resolve() / path))
    if not inside(top, found):
        raise ValueError(phrase("{ref} is outside the content folder ({top}/); donjon reads only files inside it",
                                ref=quote(ref), top=top.name))
    try:
        real = found.resolve()
    except (OSError, RuntimeError):  # a link that leads round in a loop: reading it says so
        return found
    if not inside(top, real):
        raise ValueError(f"{quote(ref)} {leads_outside(top)}")
    return found


def leads_outside(top: Path, what: str = "file") -> str:
    """What is said of a link leading outside the resolved content folder `top` (a reference, a deck file, a
    deck folder: one rule, one sentence); `what` is the linked thing, a file or a folder."""
    if what == "folder":
        return phrase("is a link leading outside the content folder ({top}/); donjon reads only files inside it: "
                      "copy the folder into it instead", top=top.name)
    return phrase("is a link leading outside the content folder ({top}/); donjon reads only files inside it: copy "
                  "the file into it instead", top=top.name)


def linked_outside(root: Path, path: Path) -> Path | None:
    """The first of `path`'s parts below the content folder `root` (a folder, then the file) that is a symbolic
    link leading outside it, or None. For the files donjon finds itself rather than by a reference: a deck folder
    or its `deck.yaml`, a game folder's catalog. A link that leads round in a loop is left to the reader's
    message; a link to another place inside the content folder is fine."""
    top = root.resolve()
    try:
        parts = path.relative_to(root).parts
    except ValueError:  # not below root: nothing of it was found by walking the content folder
        return None
    current = root
    for part in parts:
        current = current / part
        try:
            real = current.resolve()
        except (OSError, RuntimeError):
            return None
        if not inside(top, real):
            return current
    return None


def inside(top: Path, path: Path) -> bool:
    """Whether `path` is the resolved folder `top` or lies in it (by name: resolve `path` to follow its links)."""
    return path == top or top in path.parents


def read_stdin(display: str, max_bytes: int = MAX_BYTES) -> bytes:
    """Standard input's bytes (`donjon score -`), refusing a terminal (nothing piped in: the command would wait for
    a user who does not know it reads) and more than `max_bytes`, as a file is."""
    import sys

    stream = sys.stdin
    if stream is None:
        raise unreadable(display, N_("there is no standard input to read"))
    try:
        if stream.isatty():
            raise unreadable(display, N_("standard input is a terminal: pipe an end state into it (donjon score - < "
                                         "game.yaml)"))
        data = stream.buffer.read(max_bytes + 1)
    except OSError as err:
        raise unreadable(display, N_("cannot be read ({reason})"), reason=os_reason(err)) from None
    except ValueError:  # closed before donjon started
        raise unreadable(display, N_("cannot be read (standard input is closed)")) from None
    if len(data) > max_bytes:
        raise unreadable(display, N_("is more than the {most} MiB donjon reads"), most=max_bytes // 1048576)
    return data
