"""The score sheets of the games a build covers, written as documents (`OUT/score-sheets/GAME/NAME.pdf`), in the
build's transaction.

Which sheets a game prints is the game's business (its package's `score_sheets`); this module writes them, from
the catalog in the build's language (`--lang`; without it, each game's own: a sheet of one's own says its `lang`).
"""

from __future__ import annotations

from pathlib import Path

from generator.backends import Backend
from generator.build.options import BuildOptions, Written
from generator.catalog.translations import localise
from generator.content import Content
from generator.games.base import GameCatalog, svg_what
from generator.output import atomic_path, inside, write_bytes
from generator.registry import find_game
from generator.render.imposition import on_printer


def make_score_sheets(content: Content, games: list[GameCatalog], out: Path, writer: Backend | None,
                      options: BuildOptions) -> list[Written]:
    """Each sheet as a PDF with `writer`, and a sheet to print as an SVG too when the formats hold svg; without a
    writer (`--format svg`) the SVGs alone, with their maps of marks: a fillable sheet is a PDF form, left out."""
    written: list[Written] = []
    write = writer.page_writer() if writer is not None else None
    for catalog in games:
        game_id = catalog.info.id
        if options.lang is not None:
            catalog = localise(catalog, options.lang)
        for sheet in find_game(game_id).score_sheets(catalog):
            if write is None and not sheet.svg:
                continue
            if writer is not None and write is not None:
                target = inside(out, "score-sheets", game_id, f"{sheet.name}.{writer.suffix}")
                with atomic_path(target, f"the score sheet {sheet.name} of {game_id}") as tmp:
                    # drawn at a saved printer's scale (`--printer`): one side, so no back offset
                    stats = write(list(on_printer([sheet.page()], options.print_options)), tmp, title=sheet.title,
                                  subject=sheet.subject, lang=sheet.lang)
                written.append(Written(target, sheet.what, stats.pages))
            if sheet.svg and "svg" in options.formats:
                from generator.backends.svg import page_svg

                drawn = inside(out, "score-sheets", game_id, f"{sheet.name}.svg")
                write_bytes(drawn, page_svg(sheet.page(), sheet.title).encode("utf-8"))
                written.append(Written(drawn, svg_what(sheet.what)))
            for suffix, what, contents in sheet.beside:
                extra = inside(out, "score-sheets", game_id, f"{sheet.name}{suffix}")
                write_bytes(extra, contents())
                written.append(Written(extra, what))
    return written
