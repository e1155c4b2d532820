"""Every sentence the companion's Python code shows a person, in one place (the pages' own words are in the
templates): so that a translation (gettext) finds them all, and no message is built from a rule's path.

Each is a plain format string or a small function of the values it names; none reads a game's field names.
Those a phone sees are marked `N_()` and said in the phone's language where they are shown
(`generator.web.languages.said`, or :class:`Said` for an error raised where the language is not known), the JSON
API's `error` too (in its request's language, English for a script that names none; its `code` never changes); the
command line's (`donjon history`) stay English but where `--lang` is given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# a quantity said in the reader's notation lives with the languages, under the rules that say one too
from generator.i18n import N_, Figure as Figure, Language, WholeFigure as WholeFigure, figures as figures

#: the new-game form
CHOOSE_GAME = N_("choose one of the games")
CHOOSE_VALUE = N_("{label}: choose one of the values offered")
NAME_TOO_LONG = N_("a name is longer than {most} characters")
#: a character no page shows (a control character sent by a script, a private code point): refused, as the API does
NAME_CHARACTER = N_("a name cannot hold the character {code}")
SAME_NAME = N_("{name} is entered twice: each player needs a different name (capitals, accents and spaces aside)")
PLAYER_COUNT = N_("{game} is played by {low} to {high}: enter {low} to {high} names")

#: the history's search
DATE_FORM = N_("{date}: write a date as year-month-day, like 2026-11-28")
NO_PAGE = N_("{page}: a page of the list is a number (1 is the newest games)")
NO_PLAYER_PAGE = N_("There is no page {page} of {name}'s games: the last is page {pages}.")
#: the history asked for a page past its last (a link kept from before games were deleted, a page number typed)
NO_HISTORY_PAGE = N_("There is no page {page} of these games: the last is page {pages}.")

#: a label and what it labels ("Ana: Guests", "Version: Great Architect"; French sets a space before the colon)
LABELLED = N_("{label}: {value}")
#: a table and its options
YES = N_("yes")
THE_TEAM = N_("The team")
NO = N_("no")
NO_TABLE = N_("there is no table {table}")
NO_SEAT = N_("there is no seat {seat} at this table")
NOTHING_TO_UNDO = N_("nothing to undo")
#: an Undo tapped for a change that is no longer the last (a fast double tap, another phone's change meanwhile)
UNDO_CHANGED = N_("that change was already taken back, or another came after it: nothing more was undone. Look "
                  "at the part again before undoing.")
NAME_EMPTY = N_("type a name")
NOT_SAVEABLE = N_("this game cannot be saved yet: it is saved only when it is finished by the rules and nothing is "
                  "marked in red. Go back to the table to finish it.")
END_MISSING = N_("this game cannot be saved yet: {why}. Go back to the table to finish it.")
TABLE_SAVED = N_("this game is saved; its table can no longer change")
ANOTHER_TABLE = N_("this change was kept on this phone for another table {table}, of another database the companion "
                   "served before: it is not taken into this game")
CHANGED_WHILE_SAVING = N_("A phone changed this game while it was being saved, so it was not saved: look at the totals "
                          "and tap Save again.")
SEAT_TAKEN = N_("another seat is already {name}")
PART_TOO_BIG = N_("this part would hold more than {most} KiB")
#: an edit a control sent that the format cannot take (shown at that control, so the field is not named)
NO_FIELD = N_("no such field")
NOT_TRUE_FALSE = N_("expected true or false")
NOT_WHOLE_NUMBER = N_("{value!r} is not a whole number")
#: both numbers are :class:`WholeFigure`s, written as the phone's language writes numbers, every digit kept
NUMBER_TOO_BIG = N_("{number} is beyond the {most} donjon reads")
TEXT_TOO_LONG = N_("longer than {most} characters")
NO_ITEM = N_("there is no item {index} here")
#: a value typed or chosen in a field that another phone changed since the field showed it
CHANGED_MEANWHILE = N_("this was changed on another phone to {now} while you typed: your {value} was not kept. "
                       "Enter it again if it is the right one.")
#: a seat's name corrected on a phone while another phone corrected it to another name
NAME_CHANGED_MEANWHILE = N_("this name was changed on another phone to {now} while you typed: your {name} was not "
                            "kept. Correct it again if it is still wrong.")
#: a "take away" tapped on a list that changed before it arrived (a fast double tap, another phone, taps kept
#: while offline): the item at that place is no longer the one the player saw
LIST_CHANGED = N_("this list changed since it was shown ({seen} then, {now} now): nothing was taken away. Look at it "
                  "again and tap what to take away.")
ALL_OR_NONE = N_("expected all or none")
NOT_STEP = N_("expected a whole number to add, such as +1 or -1")
LIST_FULL = N_("holds {most} items already")
NOTHING_TO_ADD = N_("nothing to add")
#: a value sent for a field that holds several (a list, a group of fields): its items are changed one by one
NOT_ONE_VALUE = N_("holds several values: add or take away its items one by one")
UNKNOWN_CHANGE = N_("unknown change {op!r}")
NO_FILE = N_("choose a photo of your filled sheet, or the filled fillable sheet (PDF), first: no file was chosen")
NO_OTHER_PHOTO = N_("choose another photo of your sheet first: no file was chosen")
#: another photo added to a sheet that has store.MOST_PHOTOS_PER_SEAT photos kept already
TOO_MANY_PHOTOS = N_("{most} photos of this sheet are kept already, the most kept of one sheet: type the values "
                     "still undecided or tap their marks, or start over with a new photo")
SAME_PHOTO = N_("it is a photo already kept of this sheet: take a new one, the phone tilted or the hand moved")
NOT_THIS_SHEET = N_("it shows another sheet than the photo kept: many of its marks are read differently, as on "
                    "another player's sheet")
#: the page of every sheet given one photo for two players (one player, one sheet)
SAME_PHOTO_AS = N_("{file}: it is the same photo as {name}'s: choose this player's own photo")
#: "Keep" pressed on a sheet whose photos left marks undecided, none of them answered (typed or tapped)
STILL_UNDECIDED = N_("not kept yet: the photo could not decide {fields}; look at the sheet, then type each value "
                     "(none when nothing is filled there) or tap its marks")
OTHER_VERSION = N_("this sheet is for the {sheet} version; this table plays {table}")
#: a saved game whose game the companion does not serve now (a sheet of one's own served another day, or a shipped
#: game while a folder holding only a sheet is served): its page shows it, but no table can be opened for it
NOT_SERVED = N_("This companion does not serve {game} now: to correct this game, start donjon serve with the content "
                "it was played with (--content FOLDER for a sheet or catalogs of your own, no --content for donjon's "
                "own games).")
#: the photos page of a table whose game has no sheet (Guildhall, Guédelon)
NO_SHEET_TO_PHOTOGRAPH = N_("{game} has no sheet to photograph: each player enters their part on their own page")
OTHER_SHEET = N_("the marks are of another sheet than this table's")
MARK_NOT_NUMBER = N_("a mark is not a number")
FORM_UNREADABLE = N_("the form could not be read: {error}")
VALUE_IS_FILE = N_("a value is text, not a file")
#: every player's sheet photographed from one phone (photos.py)
NO_PHOTO = N_("no photo was sent: choose a photo for at least one player")
PDF_ON_SEAT_PAGE = N_("a fillable PDF is read on the player's own page, not here")

#: saved games and players
NO_GAME = N_("there is no saved game {game}")
#: what the server itself refuses on a page (an address it has not; one only a form sends to, reopened), said in the
#: phone's language rather than as Starlette's "Not Found" and "Method Not Allowed"
NO_SUCH_PAGE = N_("the companion has no page at this address")
FORM_ADDRESS = N_("this address only takes what a form sends: go back to the page and send it from there")
#: a deleted game's page asked for (a phone left on it, a link shared before): said as the history says a deletion,
#: not "there is no saved game", as if it had never been
GAME_WAS_DELETED = N_("Game {game} was deleted: it is out of the history and the statistics (kept among its versions, "
                      "and in an export).")
#: "Put it back" of a deleted game whose correction was saved as a game of its own meanwhile (store.restore_game)
SAVED_AGAIN_AS = N_("game {game} cannot be put back: its correction was saved as game {other}, and both would count "
                    "that one game. Delete game {other} first if game {game} is the one to keep.")
#: a table correcting a saved game, saved after the game changed elsewhere (its state would undo that change)
GAME_CHANGED = N_("game {game} was changed since this table opened it to correct it (its page lists the versions): "
                  "saving this table would undo that change. Open the game and correct it again from there.")
#: a table correcting a saved game, saved after the game was deleted (another phone, `donjon history delete`): the
#: page offers to save the table as a new game or to leave it unsaved. Its own name: GAME_DELETED below is the
#: command line's line, and a second assignment of one name silently replaced this one (the page said it in English)
CORRECTED_GAME_DELETED = N_("game {game} was deleted on another phone while this table corrected it: there is no "
                            "game left to correct. Save this table as a new game, or leave it unsaved.")
NO_PLAYER = N_("no saved game has a player of that name")
RESCORE_FAILED = N_("game {game}: {error}")
SCORES_OVER_TIME = N_("Scores of {name} over time, per game")
WINS_PER_GAME = N_("Games played and won by {name}, per game")
NO_ICON = N_("no icon of that size")
#: who changed a game, kept with each of its versions (in the words of the day it was changed)
BY_PAGE = N_("the companion's page")
BY_API = N_("the API")
BY_IMPORT = N_("donjon history import")
BY_EDIT = N_("donjon history edit")
BY_DELETE = N_("donjon history delete")
BY_COMMAND = N_("donjon history")
#: what was done in each version of a game, in words (the game's page says them so; the stored words are these keys)
VERSION_ACTIONS = {"save": N_("saved"), "edit": N_("corrected"), "rename": N_("a player renamed"),
                   "merge": N_("two players merged"), "delete": N_("deleted"), "restore": N_("put back"),
                   "import": N_("imported")}
DELETE_UNCONFIRMED = N_("tick the box to confirm that this game is to be deleted")
RENAME_SAME = N_("{name} is already the name of that player")
RENAME_TAKEN = N_("{new} is already another player's name: to make them one player, merge {old} into {new} "
                  "instead")
MERGE_SAME = N_("{name} and {other} are already one player")
MERGE_BOTH = N_("{a} and {b} both played game {game}: two seats of one game cannot be one player")

#: the JSON API and the guards: its `error` in the language of whoever asks (a script sending no Accept-Language
#: reads English), beside a `code` that never changes (API_CODES); {error} is the JSON reader's own words
NOT_JSON = N_("the body is not JSON: {error}")
KEY_TWICE = N_("the key {key!r} appears twice")
NOT_OBJECT = N_("the body must be a JSON object (an end state)")
SURROGATE = N_("the body holds text that is not valid Unicode (a lone surrogate escape such as \\ud800)")
#: a save's envelope refused: said in English by the API, in its language by `donjon history import --lang`
UNKNOWN_KEYS = N_("unknown keys: {keys}; allowed: {allowed}")
END_STATE_OBJECT = N_("end_state must be a JSON object")
TEAM_NAMES = N_("team must be a list of 1 to {most_team} names")
PLAYED_AT = N_("played_at must be a date and time, 'YYYY-MM-DD HH:MM:SS' (or 'YYYY-MM-DD', 'YYYY-MM-DDTHH:MM')")
KEY_LENGTH = N_("Idempotency-Key must be 1 to 200 characters")
KEY_REUSED = N_("the Idempotency-Key {key!r} was used for another game (game {game}); use a new key for each game")
ONLY_FINISHED = N_("only a valid, finished game is saved")
#: a correction sent with the version it was made from (`PATCH /api/games/ID` with `version`)
VERSION_NUMBER = N_("version must be the number of the game's version the correction was made from (1, 2, ...)")
API_GAME_CHANGED = N_("game {game} has changed since version {version} (it is at version {now}): nothing was "
                      "changed. Read it again and send the correction made from its newest version")
TOO_BIG = N_("the request body is larger than the {most} MiB this address accepts")
TOO_SLOW = N_("the request body took longer than {seconds:.0f} s to arrive")
OTHER_SITE = N_("403: a change to the companion must come from its own pages (this request came from another "
                "site)")
JSON_ONLY = N_("the API takes JSON: send 'Content-Type: application/json'")
#: an address or a method the API does not have (the router's own refusals, "Not Found", "Method Not Allowed")
NO_API_ADDRESS = N_("the API has no address {path}")
API_METHOD = N_("{path} does not take {method}")
DB_UNUSABLE = N_("the database could not be used: {error}")
#: the database file moved, deleted or replaced while `donjon serve` runs (db.DatabaseGone): a copy put back is
#: another file, which the companion's connections do not write; moved back, it is the same
DB_GONE = N_("the companion's database {file} is no longer the file it opened (moved, deleted or replaced while the "
             "companion runs): nothing was saved. Move it back, or stop donjon serve and start it again")
DB_BUSY = N_("another program is writing the companion's database ({error}): a second donjon serve, or a database "
             "browser with changes not yet written? Nothing was saved: try again once it is done")
NOT_WRITTEN = N_("the companion could not write to its database ({error}): nothing was saved. Is the disk full? Free "
                 "some space on the computer running donjon serve, then try again")


#: an export read by `donjon history import` (each after the file and the entry it is about)
NOT_EXPORT = N_("is not a donjon history export (no \"format\": \"{format}\")")
EXPORT_VERSION = N_("is {version!r}; this donjon reads versions {known}")
EXPECTED_GAMES = N_("expected a list of games")
EXPECTED_KEYS = N_("expected the keys {keys}")
EXPECTED_UID = N_("expected 1 to 64 printable characters")
NOT_FINISHED = N_("is not a valid, finished game")
NAME_LONG = N_("the player name {name!r} is longer than {most} characters")
NAME_HOLDS = N_("the player name {name!r} holds the character {code}, which no page can show (a control character)")
EXPECTED_VERSIONS = N_("expected a list of up to {most} versions")
EXPECTED_VERSION = N_("expected {keys} of the right types")
EXPECTED_DATE = N_("expected a date and time")
EXPECTED_MINUTES = N_("expected minutes, a whole number")
IMPORT_REFUSED = N_("{file}: cannot be imported ({count} problems):")
PROBLEMS = N_("{count} problems")

#: `donjon history` on the command line (in --lang's language where the command takes it: list, show, players,
#: edit, delete, rename, merge)
NO_DATABASE = N_("no such database (donjon serve creates it; pass another with --db)")
NOT_GAME_ID = N_("{value} is not a game's id (a whole number, as donjon history list shows it)")
NO_SAVED_GAME = N_("no saved game {game} (donjon history list shows them)")
#: `donjon history` (its text in --lang's language)
NOTHING_SAVED = N_("no game saved yet")
FORMAT_CHOICE = N_("expected json or csv")
FILE_SURROGATE = N_("holds text that is not valid Unicode (a lone surrogate escape such as \\ud800)")
NOT_END_STATE = N_("expected an end state (a mapping)")
NOT_FINISHED_FILE = N_("is not a valid, finished game: `donjon score` says why")
NAME_RULE = N_("a name is 1 to {most} printable characters")
GAME_HEADING = N_("{name}, {at} (game {game})")
PLAYER_RESULT = N_("  {place}. {name}: {score}  ({parts})")
TEAM = N_("team: {names}")
WINNER = N_("winner: {name}")
WON = N_("won")
LOST = N_("lost")
VERSIONS = N_("versions:")
VERSION_LINE = "  {number}. {at} {action} ({who})"
GAME_DELETED = N_("game {game} deleted")
GAME_CORRECTED = N_("game {game} corrected: winner {winner}")


def _said_in(lang: Language | None) -> Language:
    """The language a message of `donjon history` is said in: English when None."""
    from generator.i18n import language

    return lang if lang is not None else language()


def photos_said(count: int, size: int, lang: Language | None = None) -> str:
    """A number of photos and their size, as a person reads them (`3 photos (7.2 MB)`, `3 photos (7,2 Mo)`)."""
    say = _said_in(lang)
    # English as it always was (no thousands separator), another language's decimal comma
    megabytes = f"{size / 1_000_000:.1f}" if say.english else say.number(size / 1_000_000, 1)
    return say.npgettext("photos kept", "{n} photo ({size} MB)", "{n} photos ({size} MB)", count).format(
        n=count, size=megabytes)


def photos_not_exported(count: int, size: int, lang: Language | None = None) -> str:
    return _said_in(lang)._("the {photos} of paper sheets the companion keeps are not in the export (donjon history "
                            "photos lists them)").format(photos=photos_said(count, size, lang))


def photos_let_go(count: int, size: int, left: int, lang: Language | None = None) -> str:
    say = _said_in(lang)
    kept = say.npgettext("photos kept", "; {n} photo of tables still open kept", "; {n} photos of tables still open "
                         "kept", left).format(n=left) if left else ""
    return say.npgettext("photos let go", "let go {photos} of tables whose game is saved{kept}",
                         "let go {photos} of tables whose game is saved{kept}", count).format(
        photos=photos_said(count, size, lang), kept=kept)


NO_PHOTOS = N_("no photo of a paper sheet is kept")
#: a table's photos in `donjon history photos`: its number, the game it was saved as (or not saved), the player
PHOTOS_LINE = N_("table {table}  {game} {player}: {photos}, the last taken {at}")
PHOTOS_GAME = N_("game {game}")
PHOTOS_NOT_SAVED = N_("not saved")


def games_written(count: int, file: str, lang: Language | None = None) -> str:
    return _said_in(lang).npgettext("games written", "{n} game written to {file}", "{n} games written to {file}",
                                    count).format(n=count, file=file)


def games_imported(added: int, there: int, lang: Language | None = None) -> str:
    return _said_in(lang).npgettext("games imported", "{n} game imported, {there} already there",
                                    "{n} games imported, {there} already there", added).format(n=added, there=there)


def games_changed(count: int, lang: Language | None = None) -> str:
    """How many games a rename or a merge changed (in `lang`, English when None)."""
    say = _said_in(lang)
    # English as it always was (no thousands separator), another language's own
    return say.npgettext("games changed", "{n} game changed", "{n} games changed", count).format(
        n=str(count) if say.english else say.number(count))


def player_line(name: str, games: int, wins: int, percent: int, lang: Language | None = None) -> str:
    """One player in `donjon history players`: name, games played and won, win rate (in `lang`, English when None).
    Each count's words are as wide as the language's longest form, so the columns line up whether a player played
    one game or several (English `   1 game ` beside `   2 games`)."""
    say = _said_in(lang)

    def column(said: Callable[[int], str], count: int) -> str:
        return said(count).ljust(max(len(said(n)) for n in (1, 2)))

    played = column(lambda n: say.npgettext("games played", "{n} game", "{n} games", n).format(n=f"{n:>4}"), games)
    won = column(lambda n: say.npgettext("games won", "{n} won", "{n} won", n).format(n=f"{n:>4}"), wins)
    return f"{name:<24} {played} {won}  {percent:>3} %"


def and_list(names: list[str], lang: Language | None = None) -> str:
    """Names in a sentence: "Ana", "Ana and Ben", "Ana, Ben and Cleo" (in `lang`: "Ana, Ben et Cleo")."""
    if lang is not None and not lang.english:
        return lang.listing([str(n) for n in names])
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def untouched(names: list[str], lang: Language) -> str:
    """The question asked before saving a game in which some players entered nothing."""
    # one form in English, but French and German verbs agree with one player or several ("n'a", "n'ont")
    return lang.ngettext("{names} entered nothing: save anyway?", "{names} entered nothing: save anyway?",
                         len(names)).format(names=and_list(names, lang))


#: the --lan token missing: for a script, and the page a phone shows (see :func:`guard_page`)
NEEDS_TOKEN = N_("401: this companion needs its access token. Open the address donjon serve --lan printed (with "
                 "?token=...), or scan its QR code; scripts send 'Authorization: Bearer TOKEN'.")
TOKEN_TITLE = N_("Scan the table's code again")
TOKEN_HEADING = N_("This phone is not let in")
TOKEN_WHY = N_("The companion did not recognise this phone: it has no access code, or an old one.")
TOKEN_WHAT = N_("Scan the QR code that {command} shows on the host's screen again (or open the address it printed, "
                "with its {token}). If the host started the companion with {option}, every phone needs the new code.")
#: a request refused by a guard before the application (too large, too slow, from another site), as a page
REFUSED_TITLE = N_("The companion could not take this")
REFUSED_TOO_BIG = N_("This is more than the companion takes at once ({most} MiB): choose a smaller photo or file, "
                     "then send it again.")
REFUSED_TOO_SLOW = N_("This took longer than {seconds:.0f} s to arrive, so the companion stopped waiting. Move "
                      "closer to the Wi-Fi, then send it again.")
REFUSED_OTHER_SITE = N_("A change to the companion must come from its own pages: this one came from another site, "
                        "so nothing was changed.")
#: a request still being answered when `donjon serve` was stopped (Ctrl-C): a photo still being read, say
STOPPED = N_("503: the companion was stopped on its computer before it had finished this request; send it again "
             "once it runs again")
REFUSED_STOPPED = N_("The companion was stopped on the computer running it before it had finished this, so it may "
                     "not all have been kept. Once the companion runs again, send it again: what was kept already "
                     "is kept only once.")
BACK_HOME = N_("Back to the companion")


def guard_page(lang: Language, title: str, heading: str, note: str, *paragraphs: str, back: bool = True) -> str:
    """The page a guard answers a phone's browser with, before the application (so no template: the server's own
    words, in `lang`). Plain text is escaped; a paragraph given as `Markup` (its values escaped) is kept."""
    from markupsafe import escape

    words = "".join(f"<p>{escape(p)}</p>" for p in paragraphs)
    home = f'<p><a href="/">{escape(lang._(BACK_HOME))}</a></p>' if back else ""
    return (f'<!doctype html>\n<html lang="{escape(lang.code)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)} · donjon</title>"
            '<link rel="stylesheet" href="/static/app.css"></head>\n'
            f'<body><main id="main"><h1>{escape(heading)}</h1><p class="violation">{escape(note)}</p>{words}'
            f"{home}</main></body></html>\n")


def token_page(lang: Language) -> str:
    """The page a phone without the `--lan` access token sees."""
    from markupsafe import Markup, escape

    what = Markup(escape(lang._(TOKEN_WHAT))).format(
        command=Markup("<code>donjon serve --lan</code>"), token=Markup("<code>?token=</code>"),
        option=Markup("<code>--new-token</code>"))
    return guard_page(lang, lang._(TOKEN_TITLE), lang._(TOKEN_HEADING), lang._(TOKEN_WHY), what, back=False)


class Said(ValueError):
    """An error whose message is one of these, said later in the language of whoever sees it: `str()` is English
    (logs, the API), :meth:`said` the phone's."""

    def __init__(self, message: str, **values: Any) -> None:
        from generator.i18n import language

        super().__init__(message.format(**figures(values, language())))
        self.message = message
        self.values = values

    def said(self, lang: Language) -> str:
        from generator.sayings import filled

        # a `{key!r}` quoted as the phone's language quotes a value (« k », „k“)
        return filled(lang._(self.message), figures(self.values, lang), lang)
