"""The outputs of `donjon build` besides the decks: each game's card reference and its score sheets.

They are documents, so they are written by the first imposed backend the build is asked for (PDF); a build of
SVG only writes no reference and no fillable sheet, only the score sheets to print as SVGs (each with its map of
marks, without which a photo of it is not read). They belong to games, so a build whose target is one deck (or a
deck of the user's own) writes none either, and imports nothing of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from generator.backends import Backend, backend
from generator.build.options import BuildOptions, Written
from generator.content import Content

if TYPE_CHECKING:
    from generator.games.base import GameCatalog

#: Writes one kind of output for the given games, with the document backend (None: the build writes no document,
#: `--format svg`); says what it wrote.
OutputMaker = Callable[[Content, list["GameCatalog"], Path, Backend | None, BuildOptions], list[Written]]


class OtherOutput(NamedTuple):
    #: what it is, in words
    what: str
    #: `module:function` of its OutputMaker, imported only for a build that makes it
    maker: str


#: The other outputs, made in this order after the decks.
OTHER_OUTPUTS: tuple[OtherOutput, ...] = (
    OtherOutput("card references", "generator.build.references:make_references"),
    OtherOutput("score sheets", "generator.build.score_sheets:make_score_sheets"),
)


def document_backend(options: BuildOptions) -> Backend | None:
    """The backend documents are written with: the first imposed one asked for, or None."""
    return next((b for b in map(backend, options.formats) if b.imposed), None)


def games_of(content: Content, target: str) -> list[GameCatalog]:
    """The games a build target covers: all of them, or the one it names (a deck covers none)."""
    return [g for g in content.games() if target in ("all", g.info.id)]


def other_outputs(content: Content, target: str, out: Path, options: BuildOptions) -> list[Written]:
    games = games_of(content, target)
    writer = document_backend(options)
    if not games or (writer is None and "svg" not in options.formats):
        return []
    written: list[Written] = []
    for output in OTHER_OUTPUTS:
        module, _, function = output.maker.partition(":")
        make: OutputMaker = getattr(importlib.import_module(module), function)
        written += make(content, games, out, writer, options)
    return written
