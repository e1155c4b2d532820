"""`donjon reference`: the card reference of a game, as a PDF to read on screen or print."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from generator.commands import (
    decimal,
    folder_option,
    language_option,
    messages_language_of,
    reports_errors,
    warn_of_a_language_nobody_holds,
    warning_line,
)

if TYPE_CHECKING:
    from generator.build.options import Written

HELP = """\
Write the card reference of a game: a PDF with every card (name, kind, count, effect), the tables of values,
and where each value comes from. Values no rulebook states are marked and explained in its Sources section.

GAME is guildhall, guedelon, once-upon-a-castle, or all. Writes OUT/references/GAME-reference.pdf, with a
contents page, bookmarks and page numbers. `donjon build` writes the references too.

GAME may also be the id of a deck of your own (with --content DIR): OUT/references/decks/DECK-reference.pdf lists
its cards as its table gives them (name, id, copies and the value of each column), to proofread the deck or to
print with it; --lang takes the cards in that language where the table holds it.

--format pdf,csv,json writes the same reference as data beside the PDF (GAME-reference.csv, .json): for a game,
every value of its tables with the rulebook section or the note it comes from; for a deck, one row per card.
"""

#: The help of `--lang` here: a reference is a game's, so the shared help's words on decks of one's own do not apply.
REFERENCE_LANG_HELP = ("The language to write in: en (the default), fr or de; a text a catalog does not give in it is "
                       "written in English. For a deck of your own: its cards' language, where its table holds it.")


FORMAT_HELP = ("The files to write, comma-separated: pdf (the default), csv (one line per value, with the rulebook "
               "section or note it comes from; for a deck, one line per card), json (the tables, notes and "
               "rulebooks). All are written beside each other in OUT/references/.")


@reports_errors
def reference(
    game: str = typer.Argument(..., metavar="GAME", help="A game's id (see `donjon content list`), all, or the id "
                               "of a deck of your own."),
    content_dir_text: Optional[str] = typer.Option(
        None, "--content", show_default=False, metavar="DIR",
        help="A content folder to read the catalogs from instead of the shipped ones (a corrected copy of content/)."),
    out_text: str = typer.Option("output", "--out", metavar="DIR", help="The folder to write into (created if needed)."),
    paper: str = typer.Option("a4", "--paper", metavar="a4|letter", help="Paper size: a4 or letter."),
    lang_text: Optional[str] = typer.Option(None, "--lang", show_default=False, metavar="LANG",
                                            help=REFERENCE_LANG_HELP),
    format_text: str = typer.Option("pdf", "--format", metavar="pdf,csv,json", help=FORMAT_HELP),
) -> None:
    """Write the card reference PDF of a game."""
    out = folder_option(out_text, "--out")
    content_dir = folder_option(content_dir_text, "--content")
    import time

    from generator.i18n import messages_in

    start = time.perf_counter()
    lang = language_option(lang_text, "--lang")
    # its progress and warnings in the language it writes in where donjon speaks it, as `build --lang` says them
    with messages_in(messages_language_of(lang)):
        _reference(game, paper, format_text, content_dir, out, lang, start)


def _reference(game: str, paper: str, format_text: str, content_dir: Path | None, out: Path, lang: str | None,
               start: float) -> None:
    """The references `game` names (a game, all, or a deck of one's own), said in the command's messages language."""
    import time

    from generator.errors import UsageError
    from generator.i18n import phrase, phrase_n
    from generator.registry import UnknownGame, find_game, game_ids

    wanted = game.strip().lower()
    from generator.render.imposition import PAPERS

    key = paper.strip().lower()
    if key not in PAPERS:
        raise UsageError("--paper", f"{paper!r} is not one of {', '.join(PAPERS)}")
    from generator.reference.data import parse_formats

    try:
        formats = parse_formats(format_text)
    except ValueError as problem:
        raise UsageError("--format", str(problem)) from None

    from generator.build.references import write_reference_files
    from generator.content import load_content
    from generator.output import prepare_dir, transaction
    from generator.resources import display_path

    if wanted != "all":
        try:
            wanted = find_game(wanted).id
        except UnknownGame:
            _deck_reference(game, content_dir, out, key, lang, start, formats)
            return
    if lang is not None:
        warn_of_a_language_nobody_holds(lang)  # a reference is a game's: no deck of one's own holds languages here

    content = load_content(content_dir, games=game_ids() if wanted == "all" else (wanted,))
    games = [g.info.id for g in content.games()]
    if not games:
        folder = display_path(content.root)
        raise UsageError(folder, f"holds no {'game' if wanted == 'all' else wanted} catalog (no folder "
                         f"{'named after a game' if wanted == 'all' else wanted + '/'} with a game.yaml)")
    prepare_dir(out)
    with transaction(out):  # every reference, or none
        done = [w for game_id in games
                for w in write_reference_files(content, game_id, out, key, lang=lang, formats=formats)]
    for written in done:
        _said(written)
    # TRANSLATORS: the last line of donjon reference: how many references it wrote and in how long
    typer.echo(phrase_n("Wrote {n} reference in {seconds} s.", "Wrote {n} references in {seconds} s.", len(games),
                        seconds=decimal(time.perf_counter() - start, 2)))


def _said(written: Written) -> None:
    from generator.i18n import phrase, phrase_n
    from generator.resources import display_path

    if written.path.suffix == ".pdf":
        # TRANSLATORS: a reference donjon reference wrote, then its number of pages
        typer.echo(phrase("wrote {path}: {pages}", path=display_path(written.path),
                          pages=phrase_n("{n} page", "{n} pages", written.pages)))
    else:
        # TRANSLATORS: a file (the reference as data: CSV, JSON) donjon reference wrote
        typer.echo(phrase("wrote {path}", path=display_path(written.path)))


def _deck_reference(name: str, content_dir: Path | None, out: Path, paper: str, lang: str | None,
                    start: float, formats: tuple[str, ...]) -> None:
    """The reference of the deck of one's own called `name` in the content folder, or the usage error naming the
    games and the decks there are."""
    import time

    from generator.build.references import write_deck_reference_files
    from generator.content import load_content
    from generator.errors import UsageError
    from generator.i18n import phrase, phrase_n
    from generator.output import prepare_dir, transaction
    from generator.registry import game_ids
    from generator.resources import display_path

    decks = load_content(content_dir, games=("decks",)).user_decks if content_dir is not None else ()
    found = next((d for d in decks if d.id.lower() == name.strip().lower()), None)
    if found is None:
        own = ("; for a deck of your own, give its content folder with --content DIR" if content_dir is None else
               f"; the decks of {display_path(content_dir)}: {', '.join(d.id for d in decks)}" if decks else
               f"; {display_path(content_dir)} holds no deck of your own")
        raise UsageError("reference", f"{name!r} is neither a game nor a deck; the games: {', '.join(game_ids())}, "
                                      f"or all{own}")
    if lang is not None and lang not in found.languages and lang.split("-")[0] not in found.languages:
        from generator.sayings import quote

        typer.echo(warning_line(phrase("the deck {deck} holds no cards in {lang} (its languages: {languages}); its "
                                       "cards are listed as its table gives them", deck=found.id,
                                       lang=quote(lang), languages=", ".join(found.languages))),
                   err=True)
    prepare_dir(out)
    with transaction(out):
        done = write_deck_reference_files(found, out, paper, lang, formats)
    for written in done:
        _said(written)
    typer.echo(phrase_n("Wrote {n} reference in {seconds} s.", "Wrote {n} references in {seconds} s.", 1,
                        seconds=decimal(time.perf_counter() - start, 2)))
