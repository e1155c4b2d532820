"""`donjon content check|list|schema`: validate catalogs, show what they hold, publish their JSON Schemas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from generator.commands import folder_option, reports_errors
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
) -> None:
    """Validate every catalog, deck and layout of a content folder and print every problem found.

    Each problem names the file, the line and the entry, and the key or rule at fault. Exit 0 when all is
    well, 1 when there are problems, 2 when the folder itself is missing or named twice.
    """
    if folder_text is not None and content_dir_text is not None:
        from generator.errors import UsageError

        raise UsageError("--content", "names a folder already given as DIR: name it once")
    folder = folder_option(folder_text, "DIR") if content_dir_text is None else folder_option(content_dir_text,
                                                                                                 "--content")
    from generator.build.check import check_layouts, check_outputs
    from generator.content import all_decks, check_content

    content, problems = check_content(folder)
    noticed: list[Problem] = []
    problems += check_layouts(content, noticed)
    from generator.export.png import MANIFEST

    found, warnings = check_outputs(content, {"png": {MANIFEST: f"the PNG export's {MANIFEST}"}})
    problems += found
    warnings = noticed + warnings
    for problem in problems:
        typer.echo(str(problem), err=True)
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    if problems:
        typer.echo(f"{plural(len(problems), 'problem')} found.", err=True)
        raise typer.Exit(1)
    decks = all_decks(content)
    from generator.games.sheet_game import SheetCatalog

    # a sheet of one's own is a game of the registry too: counted as a sheet
    sheets = sum(1 for g in content.games() if isinstance(g, SheetCatalog))
    typer.echo(f"OK: {plural(len(content.games()) - sheets, 'game')}, "
               + (f"{plural(sheets, 'sheet')} of your own, " if sheets else "")
               + f"{plural(len(content.user_decks), 'deck folder')}, "
               f"{plural(len(decks), 'deck')}, {plural(sum(d.total for d in decks), 'card')}.")


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
    content_dir_text: Optional[str] = typer.Option(None, "--content", help=CONTENT_HELP, show_default=False),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
) -> None:
    """Show what each game holds: its decks with their card counts, and the size of each catalog."""
    content_dir = folder_option(content_dir_text, "--content")
    from generator.content import load_content

    summary = _summary(load_content(content_dir))
    if as_json:
        typer.echo(json.dumps(summary, indent=2, ensure_ascii=False))
        return
    for game_id, game in summary.items():
        typer.echo(f"{game['name']} ({game_id})")
        width = max((len(d["id"]) for d in game["decks"]), default=0)
        for deck in game["decks"]:
            typer.echo(f"  {deck['id']:<{width}}  {deck['cards']:>4} {noun(deck['cards'], 'card'):<5}  "
                       f"{deck['faces']:>3} {noun(deck['faces'], 'face'):<5}  "
                       f"{deck['card_size']:<18}  {deck['name']}")
        if game["catalogs"]:
            typer.echo("  catalogs: " + ", ".join(f"{k} {v}" for k, v in game["catalogs"].items()))


@app.command("schema")
@reports_errors
def schema(
    out_text: str = typer.Option("schemas", "--out", help="Folder to write the *.schema.json files into."),
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
