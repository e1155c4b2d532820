"""Writing output safely: nothing half-written, nothing outside the output folder.

Every file is written to a temporary file in its own folder and renamed into place once complete, so a build
that fails midway leaves the previous good file untouched; a folder of files (a deck's SVGs, an export) is
written into a fresh hidden folder beside it that replaces it only when every file is written
(:class:`StagedFolder`). Every output path is built from ids made safe by
:func:`safe_name` and checked by :func:`inside`, so no id (`../x`, `/etc/passwd`, `CON`) can write elsewhere.
"""

from __future__ import annotations

import os
import re
import shutil
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


# --- folders written whole ---------------------------------------------------------------------------------------

def _fail(path: Path, err: OSError) -> OutputError:
    return OutputError(path, f"cannot write ({os_reason(err)})")


class StagedFolder:
    """A folder being written: `tmp` now, `final` once committed."""

    def __init__(self, final: Path) -> None:
        self.final = final
        try:
            final.parent.mkdir(parents=True, exist_ok=True)
            self.tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}-", suffix=".tmp", dir=final.parent))
        except OSError as err:
            raise _fail(final, err) from None

    def write(self, name: str, data: bytes) -> int:
        """Write one file into the folder (`name` is relative, made of safe parts by the caller); its size."""
        parts = name.split("/")
        if name.startswith("/") or any(part in ("", ".", "..") for part in parts):
            raise OutputError(self.final / name, "is not a plain path inside the output folder")
        target = self.tmp / name
        try:
            if "/" in name:
                target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as err:
            raise _fail(self.final / name, err) from None
        return len(data)

    def commit(self) -> None:
        old = None
        try:
            os.chmod(self.tmp, 0o755)
            if self.final.is_symlink() or self.final.is_file():
                raise OutputError(self.final, "is not a folder; move it away or choose another --out")
            if self.final.exists():
                old = Path(tempfile.mkdtemp(prefix=f".{self.final.name}-old-", dir=self.final.parent))
                os.replace(self.final, old / "previous")
            os.replace(self.tmp, self.final)
        except OSError as err:
            raise _fail(self.final, err) from None
        finally:
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)

    def discard(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


@contextmanager
def staged(finals: list[Path]) -> Iterator[list[StagedFolder]]:
    """Staging folders for `finals`, committed together when the block succeeds, discarded when it fails."""
    folders: list[StagedFolder] = []
    try:
        for final in finals:
            folders.append(StagedFolder(final))
        yield folders
        for folder in folders:
            folder.commit()
    finally:
        for folder in folders:
            if folder.tmp.exists():
                folder.discard()
