"""A source checkout whose catalog (generator/locale/LANG/LC_MESSAGES/donjon.po) was edited since it was compiled:
the first process in that language compiles it and keeps the compiled catalog beside it, whole, so that the next
reads it instead of compiling it again (every photo read draws the sheet's French and German prints: 0.2 s of
processor time each time before); where it cannot be written, the language still works, nothing left behind."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import generator.i18n as i18n
from generator.i18n import catalogs

SOURCE = i18n.LOCALE_DIR / "fr" / "LC_MESSAGES" / "donjon.po"


@pytest.fixture()
def edited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A locale folder whose French catalog was edited after it was compiled (its .mo older than its .po)."""
    folder = tmp_path / "locale" / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(SOURCE, folder / "donjon.po")
    (folder / "donjon.mo").write_bytes(b"stale")
    os.utime(folder / "donjon.mo", (1_000_000_000, 1_000_000_000))
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    return folder


def test_a_catalog_edited_since_compiled_is_compiled_once_and_kept(edited: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    first = i18n._translations("fr")
    mo = edited / "donjon.mo"
    assert mo.stat().st_mtime >= (edited / "donjon.po").stat().st_mtime
    assert mo.read_bytes() == catalogs.compiled(edited / "donjon.po").getvalue()
    assert oct(mo.stat().st_mode & 0o777) == oct(0o644)
    assert sorted(p.name for p in edited.iterdir()) == ["donjon.mo", "donjon.po"]  # no temporary file left

    def no_compiling(po: Path) -> object:
        raise AssertionError(f"{po} compiled again")

    monkeypatch.setattr(catalogs, "compiled", no_compiling)
    again = i18n._translations("fr")  # read from the kept catalog, not compiled
    assert again.gettext(" (in {lang})") == first.gettext(" (in {lang})") == " (langue {lang})"
    assert dict(again._catalog) == dict(first._catalog)


def test_a_catalog_that_cannot_be_kept_is_still_used(edited: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(source: str, target: str) -> None:
        raise PermissionError(13, "Permission denied", target)

    monkeypatch.setattr(os, "replace", refused)  # a folder the user cannot write (an installed donjon's)
    translations = i18n._translations("fr")
    assert translations.gettext(" (in {lang})") == " (langue {lang})"
    assert (edited / "donjon.mo").read_bytes() == b"stale"
    assert sorted(p.name for p in edited.iterdir()) == ["donjon.mo", "donjon.po"]  # no temporary file left
