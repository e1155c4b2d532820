"""Where the shipped catalogs, layouts and fonts are, installed or in a source checkout."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path


@cache
def data_root() -> Path:
    """The folder holding `content/` and `templates/`.

    A wheel carries them in `generator/_data/` (pyproject's force-include); a source checkout or an editable
    install has them at the top of the repository, next to the `generator` package.
    """
    here = Path(__file__).resolve().parent
    packaged = here / "_data"
    if (packaged / "content").is_dir():
        return packaged
    return here.parent


def content_dir() -> Path:
    return data_root() / "content"


def templates_dir() -> Path:
    return data_root() / "templates"


def fonts_dir() -> Path:
    return templates_dir() / "fonts"


def display_path(path: Path, *, link: bool = False) -> str:
    """A path as messages show it: relative to the working folder when below it, else absolute. With `link`, the
    path's last part is named as it is, not as the file it links to (to name a symbolic link)."""
    if link and path.name:
        return os.path.join(display_path(path.parent), path.name)
    try:
        resolved = path.resolve()
        cwd = Path.cwd().resolve()
    except OSError:
        return str(path)
    if resolved == cwd or cwd in resolved.parents:
        return os.path.relpath(resolved, cwd)
    if data_root() in resolved.parents and resolved.is_relative_to(data_root()):
        # shipped files: name them as they are in the repository (content/guildhall/...)
        return str(resolved.relative_to(data_root()))
    return str(resolved)
