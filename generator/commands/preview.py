"""`donjon preview`: a static HTML page of every card, back and sheet, to look through before printing."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from generator.commands import (
    ALSO_HELP,
    LANG_HELP,
    decimal,
    folder_option,
    language_option,
    messages_language_of,
    reports_errors,
    warn_of_a_language_nobody_holds,
    warning_line,
)

HELP = """\
Write a static HTML page showing every card of every deck, grouped by game and deck, with names and counts.

Writes OUT/preview/index.html and the images it shows (OUT/preview/img/): every card face and back, and the
first pages of every PDF already in OUT (run `donjon build all` first to see the print sheets, score sheets
and card references beside the cards). Open it in any browser; it needs no network.
"""


@reports_errors
def preview(
    content_dir_text: Optional[str] = typer.Option(
        None, "--content", show_default=False, metavar="DIR",
        help="A content folder to show instead of the shipped games: game folders and/or deck folders, or one "
             "deck folder."),
    out_text: str = typer.Option("output", "--out", metavar="DIR",
                             help="The output folder: the page goes into OUT/preview/, and PDFs in OUT are shown."),
    jobs: Optional[int] = typer.Option(None, "--jobs", show_default=False, metavar="N",
                                       help="Processes rendering at once (default: one per core)."),
    lang_text: Optional[str] = typer.Option(None, "--lang", show_default=False, metavar="LANG", help=LANG_HELP),
    also_text: Optional[str] = typer.Option(None, "--also", show_default=False, metavar="LANG", help=ALSO_HELP),
) -> None:
    """Write a static HTML preview of every card and sheet."""
    out = folder_option(out_text, "--out")
    content_dir = folder_option(content_dir_text, "--content")
    import time

    from generator.commands.export import check_jobs
    from generator.i18n import messages_in

    start = time.perf_counter()
    jobs_count = check_jobs(jobs)
    lang, also = language_option(lang_text, "--lang"), language_option(also_text, "--also")
    # its progress and warnings in the cards' language where donjon speaks it, as `build --lang` says them
    with messages_in(messages_language_of(lang)):
        _preview(content_dir, out, jobs_count, lang, also, start)


def _preview(content_dir: Path | None, out: Path, jobs_count: int, lang: str | None, also: str | None,
             start: float) -> None:
    """The preview of every deck in `lang`, said in the language of the command's messages."""
    import time

    from generator.commands.export import with_progress
    from generator.content import all_decks, load_content
    from generator.export.preview import export_preview
    from generator.i18n import phrase, phrase_n
    from generator.output import prepare_dir
    from generator.resources import display_path

    content = load_content(content_dir)
    decks = all_decks(content, lang, also)
    if lang is not None:
        warn_of_a_language_nobody_holds(lang, decks, content.user_decks)
    if also is not None:
        warn_of_a_language_nobody_holds(also, decks, content.user_decks, "--also")
    prepare_dir(out)
    total = sum(len(d.cards) + 1 for d in decks)
    report = with_progress(total, "Rendering cards",
                           lambda progress: export_preview(content, decks, out, jobs_count, progress, lang))
    for warning in report.warnings:
        typer.echo(warning_line(str(warning)), err=True)
    documents = sum(len(g.documents) + sum(len(d.documents) for d in g.decks) for g in report.games)
    documents += len(report.others)
    seconds = time.perf_counter() - start
    # TRANSLATORS: the last line of donjon preview: the page written, then what it shows and how long it took
    typer.echo(phrase("wrote {path}: {decks}, {cards}, {pdfs}; {images}, {mb} MB in {seconds} s. Open it in a "
                      "browser.", path=display_path(report.page), decks=phrase_n("{n} deck", "{n} decks", len(decks)),
                      cards=phrase_n("{n} card", "{n} cards", sum(d.total for d in decks)),
                      pdfs=phrase_n("{n} PDF", "{n} PDFs", documents),
                      images=phrase_n("{n} image", "{n} images", report.images),
                      mb=decimal(report.bytes / 1e6, 1), seconds=decimal(seconds, 2)))
