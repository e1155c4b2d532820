"""Output folders written whole: files go into a fresh hidden folder beside the target, which replaces the target
only when every file of every folder is written. An export that fails (a card whose text does not fit, a
full disk) leaves the previous export exactly as it was, and never a folder with some old and some new files.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.errors import OutputError, os_reason


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
