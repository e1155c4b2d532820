"""The score sheets Once Upon a Castle prints: each version, on A4 and on Letter, scan-ready to print and fillable.

The sheet to print is scan-ready (:mod:`~generator.games.castle.scan_sheet`): marks to fill, four markers, and its
map of marks written beside it as `castle-sheet-VERSION-PAPER.marks.json` (`docs/castle-marks.md`),
so that a photo of it is scored by `donjon score PHOTO`. The fillable sheet has boxes to type values in a PDF
viewer (:mod:`~generator.games.castle.score_sheet`).

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
    from generator.games.castle.scan_sheet import ScanReadySheet
    from generator.games.castle.score_sheet import ScoreSheetDrawing
    from generator.render.model import Page

#: The suffix of a scan-ready sheet's map of marks, after the sheet's name.
MARKS_SUFFIX = ".marks.json"


def file_name(version: str, paper: str, fillable: bool) -> str:
    """`castle-sheet-VERSION-PAPER[-fillable]`, without its suffix."""
    return f"castle-sheet-{version}-{paper}{'-fillable' if fillable else ''}"


def _fillable_page(drawn: Callable[[], ScoreSheetDrawing]) -> Page:
    return drawn().page(True)


def _scan_page(drawn: Callable[[], ScanReadySheet]) -> Page:
    return drawn().page()


def _marks(drawn: Callable[[], ScanReadySheet]) -> bytes:
    return drawn().map.to_json()


def score_sheets(castle: Castle) -> list[ScoreSheetFile]:
    """Every castle score sheet, each drawn only when its page is asked for."""
    from functools import cache, partial

    from generator.games.castle.scan_sheet import scan_sheet
    from generator.games.castle.score_sheet import castle_sheet

    found: list[ScoreSheetFile] = []
    for version in castle.versions:
        for paper in PAPERS:
            # drawn once per version and paper: the sheet and its map share the drawing
            scan = cache(partial(scan_sheet, castle, version.id, paper))
            what = f"castle score sheet, {version.name}, {PAPER_NAMES[paper]}"
            found.append(ScoreSheetFile(
                file_name(version.id, paper, False),
                f"{castle.info.name}: score sheet, {version.name} version ({PAPER_NAMES[paper]}, scan-ready)",
                "a castle score sheet by donjon; fill its marks and score a photo of it with `donjon score`",
                f"{what}, to print (scan-ready)",
                partial(_scan_page, scan),
                ((MARKS_SUFFIX, f"{what}: its map of marks", partial(_marks, scan)),)))
            fillable = cache(partial(castle_sheet, castle, version.id, paper))
            found.append(ScoreSheetFile(
                file_name(version.id, paper, True),
                f"{castle.info.name}: score sheet, {version.name} version ({PAPER_NAMES[paper]}, fillable)",
                "a castle score sheet by donjon; score it filled in with `donjon score`",
                f"{what}, fillable",
                partial(_fillable_page, fillable)))
    return found
