"""The castle score sheets `donjon build` writes: each version, on A4 and on Letter, on paper and fillable.

Files (`OUT/once-upon-a-castle/`): `castle-sheet-VERSION-PAPER.pdf` for printing and
`castle-sheet-VERSION-PAPER-fillable.pdf` to fill in a PDF viewer and score with `donjon score`. Both papers are
always written, whatever `--paper` says: a score sheet is one page, not a sheet of cards, and players on either
side of the Atlantic share the output folder. The sheets are PDFs: a build asked for SVG only (`--format svg`)
writes none. Each file is written atomically.
"""

from __future__ import annotations

from pathlib import Path

from generator.catalog import Content
from generator.output import atomic_path, inside
from generator.render.build import BuildOptions, Written
from generator.render.imposition import PAPER_NAMES, PAPERS

GAME = "once-upon-a-castle"
#: The targets of `donjon build` that make the sheets.
TARGETS = ("all", GAME)


def file_name(version: str, paper: str, fillable: bool) -> str:
    return f"castle-sheet-{version}-{paper}{'-fillable' if fillable else ''}.pdf"


def make_sheets(content: Content, target: str, out: Path, options: BuildOptions) -> list[Written]:
    """Write every castle score sheet when the target is `all` or the game and PDFs are asked for (else nothing)."""
    castle = content.castle
    if target not in TARGETS or castle is None or "pdf" not in options.formats:
        return []
    from generator.backends.pdf import write_pdf
    from generator.sheets.castle import castle_sheet

    written: list[Written] = []
    for version in castle.versions:
        for paper in PAPERS:
            sheet = castle_sheet(castle, version.id, paper)
            for fillable in (False, True):
                target_path = inside(out, GAME, file_name(version.id, paper, fillable))
                kind = "fillable" if fillable else "to print"
                with atomic_path(target_path) as tmp:
                    stats = write_pdf([sheet.page(fillable)], tmp,
                                      title=f"{castle.info.name}: score sheet, {version.name} version "
                                            f"({PAPER_NAMES[paper]}, {kind})",
                                      subject="a castle score sheet by donjon"
                                              + ("; score it filled in with `donjon score`" if fillable else ""))
                written.append(Written(target_path, f"castle score sheet, {version.name}, {PAPER_NAMES[paper]}, "
                                                    f"{kind}", stats.pages))
    return written
