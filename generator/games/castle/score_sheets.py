"""The score sheets Once Upon a Castle prints: each version, on A4 and on Letter, on paper and fillable.

Both papers are always made, whatever `--paper` says: a score sheet is one page, not a sheet of cards, and
players on either side of the Atlantic share the output folder. `donjon build` writes them (as PDFs) through
:mod:`generator.build.outputs`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from generator.games.base import ScoreSheetFile
from generator.games.castle.catalog import Castle
from generator.render.imposition import PAPER_NAMES, PAPERS

if TYPE_CHECKING:
    from generator.games.castle.score_sheet import ScoreSheetDrawing
    from generator.render.model import Page


def file_name(version: str, paper: str, fillable: bool) -> str:
    """`castle-sheet-VERSION-PAPER[-fillable]`, without its suffix."""
    return f"castle-sheet-{version}-{paper}{'-fillable' if fillable else ''}"


def _page(drawn: Callable[[], ScoreSheetDrawing], fillable: bool) -> Page:
    return drawn().page(fillable)


def score_sheets(castle: Castle) -> list[ScoreSheetFile]:
    """Every castle score sheet, each drawn only when its page is asked for."""
    from functools import cache, partial

    from generator.games.castle.score_sheet import castle_sheet

    found: list[ScoreSheetFile] = []
    for version in castle.versions:
        for paper in PAPERS:
            # drawn once per version and paper; the printable and fillable files share the drawing
            drawn = cache(partial(castle_sheet, castle, version.id, paper))
            for fillable in (False, True):
                kind = "fillable" if fillable else "to print"
                found.append(ScoreSheetFile(
                    file_name(version.id, paper, fillable),
                    f"{castle.info.name}: score sheet, {version.name} version ({PAPER_NAMES[paper]}, {kind})",
                    "a castle score sheet by donjon" + ("; score it filled in with `donjon score`" if fillable else ""),
                    f"castle score sheet, {version.name}, {PAPER_NAMES[paper]}, {kind}",
                    partial(_page, drawn, fillable)))
    return found
