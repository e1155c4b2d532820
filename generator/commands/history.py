"""`donjon history`: the games saved by the table companion (`donjon serve`), listed, exported and imported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from generator.commands import reports_errors

HELP = """\
The games saved by the table companion (donjon serve), in its SQLite database: list them, show one, list the
players, export every game as JSON or CSV, and import an export (into another machine's database, say).
Exit codes: 0 done; 2 a bad option, an unreadable file, an export holding a game that is unreadable or breaks
the rules (nothing is imported; every problem is listed), or a database donjon will not use; 3 the output or the
database cannot be written.
"""

app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False, rich_markup_mode=None)

DB_HELP = "The database (default: donjon.sqlite3 in your data folder, or $DONJON_DB), as for donjon serve."
JSON_HELP = "Print JSON instead of text."


def _open(db: Optional[Path]) -> Any:
    from generator.errors import InputError
    from generator.web.db import Database, default_path

    path = db if db is not None else default_path()
    if not path.exists():
        raise InputError(str(path), "no such database (donjon serve creates it; pass another with --db)")
    return Database(path)


def _names() -> Any:
    from generator.registry import games

    return {g.id: g.name for g in games()}


def _score(game: dict[str, Any], player: dict[str, Any]) -> str:
    """A score as text; one resting on a value no rulebook states is marked ≈ (not official)."""
    inferred = any(p.get("inferred") for p in game["result"]["players"] if p["name"] == player["name"])
    return f"{'≈' if inferred else ''}{player['score']}"


@app.command("list")
@reports_errors
def list_(db: Optional[Path] = typer.Option(None, "--db", help=DB_HELP, show_default=False),
          json_: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Every saved game, newest first: its id, date, game and each player's score (the winner starred)."""
    from generator.web import store

    database = _open(db)
    try:
        games = database.read(store.list_games)
    finally:
        database.close()
    if json_:
        typer.echo(json.dumps(games, ensure_ascii=False))
        return
    names = _names()
    for game in games:
        scores = ", ".join(f"{p['name']} {_score(game, p)}{'*' if p['winner'] else ''}" for p in game["players"])
        typer.echo(f"{game['id']:>5}  {game['played_at']}  {names.get(game['game'], game['game']):<19} {scores}")
    if not games:
        typer.echo("no game saved yet")


@app.command("show")
@reports_errors
def show(game_id: int = typer.Argument(..., help="The game's id, as `donjon history list` shows it."),
         db: Optional[Path] = typer.Option(None, "--db", help=DB_HELP, show_default=False),
         json_: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """One saved game: its end state, and the result with every player's breakdown."""
    from generator.errors import UsageError
    from generator.web import store

    database = _open(db)
    try:
        game = database.read(lambda c: store.get_game(c, game_id))
    finally:
        database.close()
    if game is None:
        raise UsageError("GAME", f"no saved game {game_id} (donjon history list shows them)")
    if json_:
        typer.echo(json.dumps(game, ensure_ascii=False))
        return
    result = game["result"]
    typer.echo(f"{_names().get(game['game'], game['game'])}, {game['played_at']} (game {game['id']})")
    if game["team"]:
        typer.echo(f"team: {', '.join(game['team'])}")
    for player in sorted(result["players"], key=lambda p: p["place"]):
        parts = ", ".join(f"{k} {v}" for k, v in player["breakdown"].items())
        typer.echo(f"  {player['place']}. {player['name']}: {_score(game, player)}  ({parts})")
    if "won" in result:
        typer.echo("won" if result["won"] else "lost")
    elif result.get("winner"):
        typer.echo(f"winner: {result['winner']}")


@app.command("players")
@reports_errors
def players(db: Optional[Path] = typer.Option(None, "--db", help=DB_HELP, show_default=False),
            json_: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Every player: games played, games won, win rate."""
    from generator.web import store

    database = _open(db)
    try:
        found = database.read(store.players)
    finally:
        database.close()
    if json_:
        typer.echo(json.dumps(found, ensure_ascii=False))
        return
    for p in found:
        typer.echo(f"{p['name']:<24} {p['games']:>4} games {p['wins']:>4} won  {round(p['win_rate'] * 100):>3} %")


@app.command("export")
@reports_errors
def export(db: Optional[Path] = typer.Option(None, "--db", help=DB_HELP, show_default=False),
           out: Optional[Path] = typer.Option(None, "--out", "-o", show_default=False,
                                              help="Write to this file instead of standard output."),
           format_: str = typer.Option("json", "--format", help="json (every game, for import) or csv (one "
                                                                "row per player of each game, for a spreadsheet)."),
           ) -> None:
    """Every saved game as JSON (end states and results, importable) or CSV."""
    from generator.errors import UsageError
    from generator.output import write_text
    from generator.web import archive

    if format_ not in ("json", "csv"):
        raise UsageError(f"--format {format_}", "expected json or csv")
    database = _open(db)
    try:
        data = database.read(archive.export)
    finally:
        database.close()
    text = archive.to_json(data) if format_ == "json" else archive.to_csv(data)
    if out is None:
        typer.echo(text, nl=False)
    else:
        write_text(out, text)
        typer.echo(f"{len(data['games'])} games written to {out}", err=True)


@app.command("import")
@reports_errors
def import_(file: Path = typer.Argument(..., help="A JSON export of donjon history export."),
            db: Optional[Path] = typer.Option(None, "--db", help=DB_HELP, show_default=False)) -> None:
    """Import an export: every game is checked and scored again; games already there (same uid) are skipped."""
    from generator.errors import InputError
    from generator.web import archive
    from generator.web.db import Database, default_path
    from generator.web.games import Games, read_input

    raw = read_input(file)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise InputError(str(file), f"is not JSON ({err})") from None
    entries = archive.check(data, str(file), Games())
    database = Database(db if db is not None else default_path())
    try:
        added, there = database.write(lambda c: archive.import_games(c, entries))
    finally:
        database.close()
    typer.echo(f"{added} games imported, {there} already there")
