"""`donjon content check|list|schema`: validate catalogs, show what they hold, publish their JSON Schemas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from generator.commands import folder_option, interface_language, reports_errors, warning_line
from generator.wording import noun, plural

if TYPE_CHECKING:
    from generator.content import Content
    from generator.errors import Problem

app = typer.Typer(help="Check the catalogs, list what they hold, publish their JSON Schemas.", no_args_is_help=True,
                  rich_markup_mode=None)

CONTENT_HELP = "A content folder to use instead of the shipped catalogs (game folders and/or deck folders)."


@app.command("check")
@reports_errors
def check(
    folder_text: Optional[str] = typer.Argument(None, help="The content folder to check (default: the shipped content).",
                                            show_default=False, metavar="DIR"),
    content_dir_text: Optional[str] = typer.Option(None, "--content", metavar="DIR", show_default=False,
                                                   help="The same folder, named as the other commands name it."),
    lang_text: Optional[str] = typer.Option(
        None, "--lang", metavar="LANG", show_default=False,
        help="The language to say the problems, warnings and the summary in: en (the default), fr or de. File "
             "names, lines and keys stay as your files write them."),
) -> None:
    """Validate every catalog, deck and layout of a content folder and print every problem found.

    Each problem names the file, the line and the entry, and the key or rule at fault. Exit 0 when all is
    well, 1 when there are problems, 2 when the folder itself is missing or named twice.
    """
    lang = interface_language(lang_text)
    if folder_text is not None and content_dir_text is not None:
        from generator.errors import UsageError

        raise UsageError("--content", "names a folder already given as DIR: name it once")
    folder = folder_option(folder_text, "DIR") if content_dir_text is None else folder_option(content_dir_text,
                                                                                                 "--content")
    from generator.i18n import messages_in

    with messages_in(lang):
        _check(folder)


def _check(folder: Path | None) -> None:
    """`content check` of `folder`, saying everything in the language of generator.i18n.messages_in."""
    from generator.build.check import check_layouts, check_outputs
    from generator.content import all_decks, check_content
    from generator.i18n import messages_language, phrase, phrase_n

    content, problems = check_content(folder)
    noticed: list[Problem] = []
    problems += check_layouts(content, noticed)
    from generator.export.png import MANIFEST

    found, warnings = check_outputs(content, {"png": {MANIFEST: phrase("the PNG export's {file}", file=MANIFEST)}})
    problems += found
    from generator.games.sheet_game import SheetCatalog

    # what a sheet of one's own takes, but likely not as meant (a name box not called `player`)
    sheet_notes = [note for game in content.games() if isinstance(game, SheetCatalog) for note in game.sheet.notes()]
    warnings = noticed + sheet_notes + warnings
    for problem in problems:
        typer.echo(str(problem), err=True)
    for warning in warnings:
        typer.echo(warning_line(str(warning)), err=True)
    if problems:
        typer.echo(phrase_n("{n} problem found.", "{n} problems found.", len(problems)), err=True)
        raise typer.Exit(1)
    decks = all_decks(content)
    # a sheet of one's own is a game of the registry too: counted as a sheet
    sheets = sum(1 for g in content.games() if isinstance(g, SheetCatalog))
    games = len(content.games()) - sheets
    lang = messages_language()
    # German counts the games of a content check in the nominative ("2 Spiele"), the preview's "in 2 Spielen" not
    counts = [lang.npgettext("content check", "{n} game", "{n} games", games).format(n=lang.number(games))
              if lang is not None else plural(games, "game")]
    if sheets:
        counts.append(phrase_n("{n} sheet of your own", "{n} sheets of your own", sheets))
    counts += [phrase_n("{n} deck folder", "{n} deck folders", len(content.user_decks)),
               phrase_n("{n} deck", "{n} decks", len(decks)),
               phrase_n("{n} card", "{n} cards", sum(d.total for d in decks))]
    # TRANSLATORS: the last line of a `donjon content check` that found no problem; {counts}: "2 games, 3 decks..."
    typer.echo(phrase("OK: {counts}.", counts=", ".join(counts)))


def _summary(content: Content) -> dict[str, Any]:
    from generator.content import all_decks
    from generator.registry import find_game

    games: dict[str, Any] = {}
    for deck in all_decks(content):
        entry = games.setdefault(deck.game, {"name": deck.game_name, "decks": [], "catalogs": {}})
        entry["decks"].append({"id": deck.id, "name": deck.name, "cards": deck.total, "faces": len(deck.cards),
                               "card_size": f"{deck.card_size.name} {deck.card_size.width_mm:g}x"
                                            f"{deck.card_size.height_mm:g} mm"})
    for catalog in content.games():
        game_id = catalog.info.id
        entry = games.setdefault(game_id, {"name": catalog.info.name, "decks": [], "catalogs": {}})
        entry["catalogs"] = dict(find_game(game_id).summary(catalog))
    return games


@app.command("list")
@reports_errors
def list_(
    content_dir_text: Optional[str] = typer.Option(None, "--content", metavar="DIR", help=CONTENT_HELP,
                                                   show_default=False),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
) -> None:
    """Show what each game holds: its decks with their card counts, and the size of each catalog."""
    content_dir = folder_option(content_dir_text, "--content")
    from generator.content import load_content

    summary = _summary(load_content(content_dir))
    if as_json:
        typer.echo(json.dumps(summary, indent=2, ensure_ascii=False))
        return
    # each column as wide as its widest cell over every game, so that the columns line up down the whole list
    # whatever a deck's id, count or card size (`bridge 57.15x88.9 mm`, a deck of 10,000 cards)
    decks = [deck for game in summary.values() for deck in game["decks"]]
    width = {key: max((len(str(d[key])) for d in decks), default=0) for key in ("id", "cards", "faces", "card_size")}
    for game_id, game in summary.items():
        typer.echo(f"{game['name']} ({game_id})")
        for deck in game["decks"]:
            typer.echo(f"  {deck['id']:<{width['id']}}  {deck['cards']:>{width['cards']}} "
                       f"{noun(deck['cards'], 'card'):<5}  {deck['faces']:>{width['faces']}} "
                       f"{noun(deck['faces'], 'face'):<5}  {deck['card_size']:<{width['card_size']}}  {deck['name']}")
        if game["catalogs"]:
            typer.echo("  catalogs: " + ", ".join(f"{k} {v}" for k, v in game["catalogs"].items()))


@app.command("schema")
@reports_errors
def schema(
    out_text: str = typer.Option("schemas", "--out", metavar="DIR",
                                 help="Folder to write the *.schema.json files into."),
) -> None:
    """Write the JSON Schema of every catalog kind, deck, layout and end-state format.

    Point your editor at them (the shipped catalogs name theirs in a `yaml-language-server` comment) to have
    a catalog checked while you type it.
    """
    out = folder_option(out_text, "--out")
    from generator.output import prepare_dir, transaction
    from generator.schemas import write_schemas

    prepare_dir(out)
    with transaction(out):  # every schema, or none
        written = write_schemas(out)
    for path in written:
        typer.echo(str(path))


translations_app = typer.Typer(
    help="The translator's spreadsheet of your decks: every text to translate, with its translation and status.",
    no_args_is_help=True, rich_markup_mode=None)
app.add_typer(translations_app, name="translations")


def _user_decks(folder: Optional[Path]) -> dict[str, Any]:
    from generator.content import load_content
    from generator.errors import UsageError

    content = load_content(folder, games=("decks",))
    if not content.user_decks:
        if folder is None:  # the shipped content, which is the games' alone
            raise UsageError("DIR", "not given: name the content folder of your decks (or one deck folder)")
        from generator.resources import display_path

        raise UsageError(display_path(folder), "holds no deck of your own (a folder with a deck.yaml) to translate")
    return {deck.id: deck for deck in content.user_decks}


@translations_app.command("export")
@reports_errors
def translations_export(
    folder_text: Optional[str] = typer.Argument(None, metavar="DIR", show_default=False,
                                                help="The content folder of your decks (or one deck folder)."),
    out_text: str = typer.Option(..., "--out", metavar="FILE",
                                 help="The file to write: .csv, .xlsx or .po (one language) by its suffix."),
    lang_text: Optional[str] = typer.Option(
        None, "--lang", metavar="LANG[,LANG]", show_default=False,
        help="The languages to translate into (fr or fr,de); default: every language the decks' tables hold."),
) -> None:
    """Write every translatable text of your decks: deck, card, column, language, source, translation, status.

    The translatable columns are a deck's `translate:` list, else its name column and every column some language
    translates (Name@fr). A missing translation is `missing`: the build prints the source text there.
    """
    from generator.catalog.deck_translations import SUFFIXES, entries, render
    from generator.commands import language_option
    from generator.errors import UsageError
    from generator.output import prepare_dir, transaction, write_bytes
    from generator.resources import display_path

    out = Path(out_text)
    suffix = out.suffix.lower()
    if suffix not in SUFFIXES:
        raise UsageError("--out", f"{out_text!r}: write a .csv, .xlsx or .po file")
    languages = [language_option(part, "--lang") for part in (lang_text or "").split(",") if part.strip()]
    if suffix == ".po" and len(languages) != 1:
        raise UsageError("--lang", "a .po file holds one language: name it (--lang fr)")
    decks = _user_decks(folder_option(folder_text, "DIR") if folder_text else None)
    rows = entries(decks.values(), [code for code in languages if code])
    data = render(rows, suffix, languages[0] if languages else None)
    prepare_dir(out.parent if str(out.parent) else Path("."))
    with transaction(out.parent):
        write_bytes(out, data, f"the translations of {', '.join(decks)}")
    missing = sum(1 for row in rows if row.status == "missing")
    typer.echo(f"wrote {display_path(out)}: {plural(len(rows), 'text')} to translate, {missing} missing")


@translations_app.command("import")
@reports_errors
def translations_import(
    file_text: str = typer.Argument(..., metavar="FILE", help="The translations file: .csv, .xlsx or .po."),
    folder_text: Optional[str] = typer.Argument(None, metavar="DIR", show_default=False,
                                                help="The content folder of your decks (or one deck folder)."),
) -> None:
    """Write the translations of a file made by `export` (and filled by a translator) into the decks' tables.

    Each goes into the column Name@LANG of its deck's table (made when missing) or the column `languages:` names.
    Every row is checked first: one naming no deck, card, column or language stops the import, and no table is
    changed. A spreadsheet with formulas, a YAML table with comments and rows written in deck.yaml are refused.
    """
    from generator.catalog.deck_translations import apply, read
    from generator.resources import display_path

    path = Path(file_text)
    rows = read(path, display_path(path))
    decks = _user_decks(folder_option(folder_text, "DIR") if folder_text else None)
    done = apply(decks, rows, display_path(path))
    for deck_id, changed in done.items():
        typer.echo(f"{deck_id}: {plural(changed, 'cell')} written")
    typer.echo(f"Imported {plural(len(rows), 'row')} into {plural(len(done), 'deck')}.")
