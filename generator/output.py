"""Writing output safely: nothing half-written, nothing outside the output folder.

Every file is written to a temporary file in its own folder and renamed into place once complete, so a build
that fails midway leaves the previous good file untouched. Every output path is built from ids made safe by
:func:`safe_name` and checked by :func:`inside`, so no id (`../x`, `/etc/passwd`, `CON`) can write elsewhere.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.errors import OutputError, os_reason

#: Names Windows reserves whatever their extension; refused so that an output folder can be copied anywhere.
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


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


def _safe_file(name: str) -> str:
    stem, dot, ext = name.rpartition(".")
    if not dot or not re.fullmatch(r"[a-z0-9]{1,8}", ext):
        return safe_name(name)
    return f"{safe_name(stem)}.{ext}"


def prepare_dir(path: Path, option: str = "--out") -> Path:
    """Make sure `path` is a folder donjon can write in, creating it if needed."""
    if path.exists() and not path.is_dir():
        raise OutputError(f"{option} {path}", "is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OutputError(f"{option} {path}", f"cannot create the folder ({os_reason(err)})") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise OutputError(f"{option} {path}", "the folder is not writable")
    return path


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path beside `path` to write to; renamed onto `path` only if the block succeeds."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.close(handle)
    except OSError as err:
        raise OutputError(path, f"cannot write ({os_reason(err)})") from None
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o644)
        os.replace(tmp_path, path)
    except OSError as err:
        tmp_path.unlink(missing_ok=True)
        raise OutputError(path, f"cannot write ({os_reason(err)})") from None
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise


def write_bytes(path: Path, data: bytes) -> Path:
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
    return path


def write_text(path: Path, text: str) -> Path:
    return write_bytes(path, text.encode("utf-8"))
