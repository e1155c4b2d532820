"""`donjon history`: the games saved by the table companion (`donjon serve`), listed, exported and imported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from generator.commands import (OWN_WORDS_LANG_HELP, folder_option, interface_language, refuse_missing_folder,
                                reports_errors)

if TYPE_CHECKING:
    from generator.i18n import Language
    from generator.web.games import Games

HELP = """\
The games saved by the table companion (donjon serve), in its SQLite database: list them, show one, list the
players, correct or delete a game (every change is kept as a version of the game), rename a player or merge two
names of one person, export every game as JSON or CSV, and import an export (into another machine's database);
list the photos of paper sheets the companion keeps (not exported), or let go those of saved games.
Every command takes --lang fr or de: the text in French or German (the breakdown's parts by their names), the
JSON (an export's keys and CSV columns too) as it is.
Exit codes: 0 done; 2 a bad option, a game or player not saved, an unreadable file, an end state that is not a
valid, finished game (`edit`), an export holding a game that is unreadable or breaks the rules (nothing is
imported; every problem is listed), or a database donjon will not use; 3 the output or the database cannot be
written.
"""

app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False, rich_markup_mode=None)

DB_HELP = "The database (default: donjon.sqlite3 in your data folder, or $DONJON_DB), as for donjon serve."
JSON_HELP = "Print JSON instead of text."
LANG_OPTION = typer.Option(None, "--lang", show_default=False, metavar="LANG", help=OWN_WORDS_LANG_HELP)
# the commands that score saved games again need the catalogs the companion scored them with: a game of a sheet of
# one's own (`donjon serve --content my-sheet`) is unknown to the shipped ones
CONTENT_OPTION = typer.Option(None, "--content", metavar="DIR", show_default=False,
                              help="The content folder the games were played with (as given to donjon serve "
                                   "--content): its sheets of your own and corrected catalogs score them again.")


def _games(content_text: Optional[str]) -> Games:
    """The games of the shipped catalogs, or of the content folder given with --content (its sheets registered)."""
    from generator.web.games import Games

    content = folder_option(content_text, "--content")
    refuse_missing_folder(content, "--content")
    return Games(content)


def _language(lang_text: Optional[str]) -> Language:
    """The language a history command speaks: its --lang (a code donjon speaks, else exit 2), English without."""
    from generator.i18n import language

    return interface_language(lang_text) or language()


def _open(db: Optional[Path], write: bool = False, lang: Any = None) -> Any:
    """The database: read in place, or from a copy in memory when the file may only be read (a read-only
    mount); `write`: it must be written; a database missing is said in `lang` (English when None)."""
    from generator.errors import InputError
    from generator.i18n import messages_in
    from generator.web import messages
    from generator.web.db import Database, default_path

    path = db if db is not None else default_path()
    if not path.exists():
        raise InputError(str(path), (lang or _language(None))._(messages.NO_DATABASE))
    with messages_in(lang):  # a file refused (damaged, not a database, a newer donjon's) said in the language
        return Database(path) if write else Database.for_reading(path)


def _shown(text: Any) -> str:
    """A name or a value from the database as a terminal may show it: control characters written out (a phone's
    name must never move the cursor or change the terminal's colours)."""
    from generator.wording import visible

    return visible(str(text))


def _game_id(value: str, lang: Any = None) -> int:
    """A game's id from the command line: a whole number within SQLite's range, or a clear error (exit 2), in
    `lang` (English when None)."""
    from generator.errors import UsageError
    from generator.web import messages
    from generator.web.store import LARGEST_ID

    if not value.isdigit() or not 0 < int(value) <= LARGEST_ID:
        raise UsageError("GAME", (lang or _language(None))._(messages.NOT_GAME_ID).format(value=_shown(value[:30])))
    return int(value)


def _names(kept: Any = None, lang: Language | None = None) -> Any:
    """The games' names: the shipped games' in `lang` as the companion's pages name them (a title an edition is sold
    under: Oh mon château), their own in English; and those the history keeps of the sheets of one's own it has
    served (`kept`, `store.kept_words`), in `lang` where the sheet gives its name in it."""
    code = lang.base if lang is not None else "en"
    own = {game: said["name"].get(code) or said["name"].get("en") or game for game, said in (kept or {}).items()}
    if lang is not None and not lang.english:
        from generator.web.games import Games

        return {**own, **Games().names_in(lang)}
    from generator.registry import games

    return {**own, **{g.id: g.name for g in games()}}


def _columns(text: str) -> int:
    """How many columns a terminal gives `text`: two a wide letter (a Japanese game's name), none an accent typed
    apart from its letter."""
    import unicodedata

    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _score(game: dict[str, Any], player: dict[str, Any]) -> str:
    """A score as text; one resting on a value no rulebook states is marked ≈ (not official)."""
    from generator.web.store import player_inferred

    return f"{'≈' if player_inferred(game['result'], player['name']) else ''}{player['score']}"


@app.command("list")
@reports_errors
def list_(db: Optional[Path] = typer.Option(None, "--db", metavar="FILE", help=DB_HELP, show_default=False),
          json_: bool = typer.Option(False, "--json", help=JSON_HELP),
          lang_text: Optional[str] = LANG_OPTION) -> None:
    """Every saved game, newest first: its id, date, game and each player's score (the winner starred)."""
    from generator.web import messages, store

    lang = _language(lang_text)
    games, kept = _read(db, lambda c: (store.list_games(c), store.kept_words(c)), lang)
    if json_:
        typer.echo(json.dumps(games, ensure_ascii=False))
        return
    names = _names(kept, lang)
    dates = _dates(games, lang)
    shown = [names.get(game["game"], game["game"]) for game in games]
    # the scores' column begins after the widest name listed (a sheet's own name may be longer than any shipped one)
    width = max(map(_columns, shown), default=0)
    for game, name in zip(games, shown):
        scores = ", ".join(f"{_shown(p['name'])} {_score(game, p)}{'*' if p['winner'] else ''}"
                           for p in game["players"])
        typer.echo(f"{game['id']:>5}  {dates[game['id']]}  {name}{' ' * (width - _columns(name))}  {scores}")
    if not games:
        typer.echo(lang._(messages.NOTHING_SAVED))


def _dates(games: list[dict[str, Any]], lang: Language) -> dict[int, str]:
    """Each game's date as the companion writes it in `lang` (English: as stored; French `2 févr. 2026 21:00`), by
    id, padded to the longest so that what follows lines up."""
    from generator.i18n import when

    dates = {game["id"]: when(lang, game["played_at"]) for game in games}
    wide = max(map(len, dates.values()), default=0)
    return {key: date.ljust(wide) for key, date in dates.items()}


@app.command("show")
@reports_errors
def show(game: str = typer.Argument(..., metavar="GAME", help="The game's id, as `donjon history list` shows it."),
         db: Optional[Path] = typer.Option(None, "--db", metavar="FILE", help=DB_HELP, show_default=False),
         json_: bool = typer.Option(False, "--json", help=JSON_HELP),
         lang_text: Optional[str] = LANG_OPTION) -> None:
    """One saved game: its end state, and the result with every player's breakdown."""
    from generator.errors import UsageError
    from generator.i18n import when
    from generator.web import messages, store

    lang = _language(lang_text)
    game_id = _game_id(game, lang)
    # one read, so that the game and its versions are of one moment
    found, versions, kept = _read(db, lambda c: (store.get_game(c, game_id), store.versions(c, game_id),
                                                 store.kept_words(c)), lang)
    if found is None:
        raise UsageError("GAME", lang._(messages.NO_SAVED_GAME).format(game=game_id))
    if json_:
        typer.echo(json.dumps({**found, "versions": versions}, ensure_ascii=False))
        return
    result = found["result"]
    typer.echo(lang._(messages.GAME_HEADING).format(name=_shown(_names(kept, lang).get(found["game"], found["game"])),
                                                    at=when(lang, found["played_at"]), game=found["id"]))
    if found["team"]:
        typer.echo(lang._(messages.TEAM).format(names=", ".join(_shown(n) for n in found["team"])))
    labels = _labels(found["game"], lang, kept)
    for player in sorted(result["players"], key=lambda p: p["place"]):
        parts = ", ".join(f"{_shown(labels.get(k, k))} {v}" for k, v in player["breakdown"].items())
        name = lang._(messages.THE_TEAM) if found["team"] and player["name"] == "team" and not lang.english \
            else _shown(player["name"])
        typer.echo(lang._(messages.PLAYER_RESULT).format(place=player["place"], name=name,
                                                         score=_score(found, player), parts=parts))
    if "won" in result:
        typer.echo(lang._(messages.WON if result["won"] else messages.LOST))
    elif result.get("winner"):
        typer.echo(lang._(messages.WINNER).format(name=_shown(result["winner"])))
    if len(versions) > 1:
        typer.echo(lang._(messages.VERSIONS))
        for version in versions:
            # English keeps the words stored (`save`, `donjon history edit`), as scripts have read them; French and
            # German say what was done and by whom, as the game's page does (the stored English read as it was)
            action, who = version["action"], version["who"]
            if not lang.english:
                action, who = lang._(messages.VERSION_ACTIONS.get(action, action)), lang._(who) if who else who
            typer.echo(lang._(messages.VERSION_LINE).format(number=version["number"], at=when(lang, version["at"]),
                                                            action=action, who=_shown(who)))


def _labels(game: str, lang: Any, kept: Any = None) -> dict[str, str]:
    """A result's breakdown keys in words in `lang`, as the companion and `donjon score --lang` say them (the part's
    label, without its note in brackets); none in English, which shows the keys, as it always has. A sheet of one's
    own is known only to its folder: its words are those the history keeps (`kept`, `store.kept_words`)."""
    if lang.english:
        return {}
    from scoring.engine import Scorer

    said = Scorer(lang=lang).labels(game) or (kept or {}).get(game, {}).get("labels", {}).get(lang.base, {})
    return {key: label.split(" (", 1)[0] for key, label in said.items()}


@app.command("players")
@reports_errors
def players(db: Optional[Path] = typer.Option(None, "--db", metavar="FILE", help=DB_HELP, show_default=False),
            json_: bool = typer.Option(False, "--json", help=JSON_HELP),
            lang_text: Optional[str] = LANG_OPTION) -> None:
    """Every player: games played, games won, win rate."""
    from generator.web import messages, store

    lang = _language(lang_text)
    found = _read(db, store.players, lang)
    if json_:
        typer.echo(json.dumps(found, ensure_ascii=False))
        return
    for p in found:
        typer.echo(messages.player_line(_shown(p["name"]), p["games"], p["wins"], round(p["win_rate"] * 100), lang))


@app.command("export")
@reports_errors
def export(db: Optional[Path] = typer.Option(None, "--db", metavar="FILE", help=DB_HELP, show_default=False),
           out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE", show_default=False,
                                              help="Write to this file instead of standard output."),
           format_: str = typer.Option("json", "--format", metavar="json|csv",
                                       help="json (every game, for import) or csv (one row per player of each game, "
                                            "for a spreadsheet)."),
           lang_text: Optional[str] = LANG_OPTION) -> None:
    """Every saved game as JSON (end states and results, importable) or CSV."""
    from generator.errors import UsageError
    from generator.output import write_text
    from generator.web import archive, messages

    lang = _language(lang_text)
    if format_ not in ("json", "csv"):
        raise UsageError(f"--format {format_}", lang._(messages.FORMAT_CHOICE))
    from generator.web import store

    # the export itself is the same in every language (its keys, the CSV's columns, are the format's own)
    data, photos = _read(db, lambda c: (archive.export(c), store.photos_kept(c)), lang)
    text = archive.to_json(data) if format_ == "json" else archive.to_csv(data)
    if out is None:
        typer.echo(text, nl=False)
    else:
        write_text(out, text)
        typer.echo(messages.games_written(len(data["games"]), str(out), lang), err=True)
    if photos:  # they are the tables', not the games': said, so that nobody takes the export for all there is
        typer.echo(messages.photos_not_exported(sum(p["photos"] for p in photos), sum(p["bytes"] for p in photos),
                                                lang), err=True)


@app.command("photos")
@reports_errors
def photos_(db: Optional[Path] = typer.Option(None, "--db", metavar="FILE", help=DB_HELP, show_default=False),
            json_: bool = typer.Option(False, "--json", help=JSON_HELP),
            let_go: bool = typer.Option(False, "--let-go-saved",
                                        help="Delete the photos of the tables whose game is saved (the saved game "
                                             "keeps the values read from them); the photos of tables still open "
                                             "are kept."),
            lang_text: Optional[str] = LANG_OPTION) -> None:
    """The photos of paper sheets the companion keeps (they are not in the export): by table and player, how many
    and their size, and the game each table was saved as; or let go those of saved games (--let-go-saved)."""
    from generator.web import messages, store

    lang = _language(lang_text)
    if let_go:
        database = _open(db, write=True, lang=lang)
        try:
            count, size = database.write(store.let_go_saved_photos)
            left = sum(p["photos"] for p in database.read(store.photos_kept))
        finally:
            database.close()
        typer.echo(messages.photos_let_go(count, size, left, lang))
        return
    kept = _read(db, store.photos_kept, lang)
    if json_:
        typer.echo(json.dumps(kept, ensure_ascii=False))
        return
    games = [lang._(messages.PHOTOS_GAME).format(game=seat["game_id"]) if seat["game_id"] is not None else
             lang._(messages.PHOTOS_NOT_SAVED) for seat in kept]
    width = max([11, *map(len, games)])  # a column as wide as its longest (`non enregistrée`)
    for seat, game in zip(kept, games):
        typer.echo(lang._(messages.PHOTOS_LINE).format(table=f"{seat['table']:>4}", game=game.ljust(width),
                                                       player=_shown(seat["player"]),
                                                       photos=messages.photos_said(seat["photos"], seat["bytes"], lang),
                                                       at=seat["last_at"]))
    if not kept:
        typer.echo(lang._(messages.NO_PHOTOS))


@app.command("import")
@reports_errors
def import_(file: Path = typer.Argument(..., metavar="FILE", help="A JSON export of donjon history export."),
            db: Optional[Path] = typer.Option(None, "--db", metavar="FILE", help=DB_HELP, show_default=False),
            content_text: Optional[str] = CONTENT_OPTION,
            lang_text: Optional[str] = LANG_OPTION) -> None:
    """Import an export: every game is checked and scored again; games already there (same uid) are skipped."""
    from generator.errors import InputError
    from generator.i18n import messages_in
    from generator.web import archive, messages, store
    from generator.web.db import Database, default_path
    from generator.web.games import read_input
    from generator.yamlio import decode, loads_json

    lang = _language(lang_text)
    # the same bounded reader as end states: size, depth, duplicate keys, NaN refused with the line named
    try:
        data = loads_json(decode(read_input(file), str(file)), str(file)).data
    except InputError as err:  # no such file, not JSON: said in the language
        raise err.said(lang) from None
    if _has_surrogate(data):
        raise InputError(str(file), lang._(messages.FILE_SURROGATE))
    games = _games(content_text)
    entries = archive.check(data, str(file), games, lang)
    own = games.own_words()  # kept, as `donjon serve` keeps them: the games of a sheet of one's own shown by its words
    with messages_in(lang):
        database = Database(db if db is not None else default_path())

    def write(conn: Any) -> tuple[int, int]:
        store.keep_words(conn, own)
        return archive.import_games(conn, entries)

    try:
        added, there = database.write(write)
    finally:
        database.close()
    typer.echo(messages.games_imported(added, there, lang))


def _has_surrogate(value: Any) -> bool:
    from generator.web.app import _has_surrogate as found

    return found(value)


def _read(db: Optional[Path], func: Any, lang: Any = None) -> Any:
    """What `func` reads from the database, the database closed after it whatever happens (a database missing
    said in `lang`)."""
    database = _open(db, lang=lang)
    try:
        return database.read(func)
    finally:
        database.close()


def _change(db: Optional[Path], func: Any, lang: Any = None) -> Any:
    """What `func` changes in the database, closed after it whatever happens (a database missing said in `lang`)."""
    database = _open(db, write=True, lang=lang)
    try:
        return database.write(func)
    finally:
        database.close()


@app.command("edit")
@reports_errors
def edit(game: str = typer.Argument(..., metavar="GAME", help="The game's id, as `donjon history list` shows it."),
         file: Path = typer.Argument(..., metavar="FILE",
                                     help="The corrected end state (YAML or JSON, the format of donjon score); it must "
                                          "be a valid, finished game."),
         db: Optional[Path] = typer.Option(None, "--db", metavar="FILE", help=DB_HELP, show_default=False),
         content_text: Optional[str] = CONTENT_OPTION,
         lang_text: Optional[str] = LANG_OPTION) -> None:
    """Correct a saved game: its end state is replaced by FILE, scored again; the old one is kept as a version."""
    from generator.errors import InputError, UsageError
    from generator.web import messages, store
    from generator.yamlio import load_file

    from generator.web.archive import long_names, visible_names

    lang = _language(lang_text)
    game_id = _game_id(game, lang)
    try:
        state = load_file(file).data
    except InputError as err:  # no such file, not YAML: said in the language
        raise err.said(lang) from None
    if not isinstance(state, dict):
        raise InputError(str(file), lang._(messages.NOT_END_STATE))
    games = _games(content_text)
    state = visible_names(state, games)  # a name pasted with a zero-width space: saved without it, as the API saves it
    scored = games.score(state)  # in English: the result is saved as the companion saves it
    if scored.result is None:
        raise InputError(str(file), scored.error if lang.english else games.score(state, lang).error)
    if not (scored.result["valid"] and scored.result["finished"]):
        raise InputError(str(file), lang._(messages.NOT_FINISHED_FILE))
    result = scored.result
    wrong = long_names(result, lang)
    if wrong:  # as the API and an import refuse it
        raise InputError(str(file), wrong[0])

    def correct(conn: Any) -> dict[str, Any]:
        try:
            return store.update_game(conn, game_id, state, result, who=messages.BY_EDIT)
        except store.StoreError as err:
            raise UsageError("GAME", err.said(lang)) from None

    found = _change(db, correct, lang)
    typer.echo(lang._(messages.GAME_CORRECTED).format(game=game_id,
                                                      winner=_shown(found["result"].get("winner") or "-")))


@app.command("delete")
@reports_errors
def delete(game: str = typer.Argument(..., metavar="GAME", help="The game's id, as `donjon history list` shows it."),
           db: Optional[Path] = typer.Option(None, "--db", metavar="FILE", help=DB_HELP, show_default=False),
           lang_text: Optional[str] = LANG_OPTION) -> None:
    """Delete a saved game from the history and the statistics (it is kept, marked deleted, in an export)."""
    from generator.errors import UsageError
    from generator.i18n import when
    from generator.web import messages, store

    lang = _language(lang_text)
    game_id = _game_id(game, lang)

    def remove(conn: Any) -> None:
        try:
            store.delete_game(conn, game_id, who=messages.BY_DELETE)  # the version's author, kept in English
        except store.StoreError as err:
            raise UsageError("GAME", err.said(lang)) from None

    _change(db, remove, lang)
    typer.echo(lang._(messages.GAME_DELETED).format(game=game_id))


@app.command("rename")
@reports_errors
def rename(old: str = typer.Argument(..., metavar="OLD",
                                     help="The player's name (capitals, accents and spaces aside)."),
           new: str = typer.Argument(..., metavar="NEW", help="Their name from now on."),
           db: Optional[Path] = typer.Option(None, "--db", metavar="FILE", help=DB_HELP, show_default=False),
           content_text: Optional[str] = CONTENT_OPTION,
           lang_text: Optional[str] = LANG_OPTION) -> None:
    """Rename a player in every game they played (each game keeps its earlier version)."""
    _people(db, old, new, merging=False, lang_text=lang_text, content_text=content_text)


@app.command("merge")
@reports_errors
def merge(old: str = typer.Argument(..., metavar="OLD", help="The name to merge away."),
          into: str = typer.Argument(..., metavar="INTO", help="The player it is the same person as."),
          db: Optional[Path] = typer.Option(None, "--db", metavar="FILE", help=DB_HELP, show_default=False),
          content_text: Optional[str] = CONTENT_OPTION,
          lang_text: Optional[str] = LANG_OPTION) -> None:
    """Make two names one player (two spellings of one person), under the name INTO has."""
    _people(db, old, into, merging=True, lang_text=lang_text, content_text=content_text)


def _argument(metavar: str, given: str) -> str:
    """An argument as an error names it: its placeholder in --help and the name given (`NEW 'Bob'`)."""
    from generator.wording import quoted

    return f"{metavar} {quoted(given)}"


def _people(db: Optional[Path], old: str, new: str, merging: bool, lang_text: Optional[str] = None,
            content_text: Optional[str] = None) -> None:
    from generator.errors import UsageError
    from generator.fields import unprintable_character, visible_name
    from generator.web import messages, people
    from generator.web.archive import LONGEST_NAME

    # an error names the argument at fault as --help shows it, with the name given (`OLD 'Zed': ...`)
    lang = _language(lang_text)
    arguments = {"old": ("OLD", old), "new": ("INTO" if merging else "NEW", new)}
    new = visible_name(new)  # as the players' page keeps it: a zero-width space pasted with it is no part of it
    rule = lang._(messages.NAME_RULE).format(most=LONGEST_NAME)
    if not new or len(new) > LONGEST_NAME:
        raise UsageError(_argument(*arguments["new"]), rule)
    code = unprintable_character(new)
    if code is not None:  # a control character such as ESC, said as the API and the forms say it
        raise UsageError(_argument(*arguments["new"]), lang._("{rule}: {name} holds the character {code}")
                         .format(rule=rule, name=repr(new), code=code))
    games = _games(content_text)

    def change(conn: Any) -> int:
        try:
            return (people.merge if merging else people.rename)(conn, games, old, new, who=messages.BY_COMMAND)
        except people.PeopleError as err:
            named = [_argument(*arguments[about]) for about in err.about]  # the placeholders are --help's
            raise UsageError(named[0] if len(named) == 1 else
                             lang._("{first} and {second}").format(first=named[0], second=named[1]),
                             err.said(lang)) from None

    count = _change(db, change, lang)
    typer.echo(messages.games_changed(count, lang))
