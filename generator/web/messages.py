"""Every sentence the companion's Python code shows a person, in one place (the pages' own words are in the
templates): so that a translation (gettext) finds them all, and no message is built from a rule's path.

Each is a plain format string or a small function of the values it names; none reads a game's field names.
"""

from __future__ import annotations

#: the new-game form
CHOOSE_GAME = "choose one of the games"
CHOOSE_VALUE = "{label}: choose one of the values offered"
NAME_TOO_LONG = "a name is longer than {most} characters"
SAME_NAME = "{name} is entered twice: each player needs a different name (capitals, accents and spaces aside)"
PLAYER_COUNT = "{game} is played by {low} to {high}: enter {low} to {high} names"

#: a table
NO_TABLE = "there is no table {table}"
NO_SEAT = "there is no seat {seat} at this table"
NOTHING_TO_UNDO = "nothing to undo"
NAME_EMPTY = "type a name"
NOT_SAVEABLE = ("this game cannot be saved yet: it is saved only when it is finished by the rules and nothing is "
                "marked in red. Go back to the table to finish it.")
SAVED_ALREADY = "this table is saved already"
NO_FILE = "choose a photo of your filled sheet, or a filled castle sheet (PDF), first: no file was chosen"
OTHER_VERSION = "this sheet is for the {sheet} version; this table plays {table}"
OTHER_SHEET = "the marks are of another sheet than this table's"
MARK_NOT_NUMBER = "a mark is not a number"
FORM_UNREADABLE = "the form could not be read: {error}"
VALUE_IS_FILE = "a value is text, not a file"

#: saved games and players
NO_GAME = "there is no saved game {game}"
NO_PLAYER = "no saved game has a player of that name"
DELETE_UNCONFIRMED = "tick the box to confirm that this game is to be deleted"
RENAME_SAME = "{name} is already the name of that player"
RENAME_TAKEN = ("{new} is already another player's name: to make them one player, merge {old} into {new} "
                "instead")
MERGE_SAME = "{name} and {other} are already one player"
MERGE_BOTH = "{a} and {b} both played game {game}: two seats of one game cannot be one player"

#: the JSON API and the guards
NOT_JSON = "the body is not JSON: {error}"
NOT_OBJECT = "the body must be a JSON object (an end state)"
SURROGATE = "the body holds text that is not valid Unicode (a lone surrogate escape such as \\ud800)"
UNKNOWN_KEYS = "unknown keys: {keys}; allowed: {allowed}"
END_STATE_OBJECT = "end_state must be a JSON object"
TEAM_NAMES = "team must be a list of 1 to 8 names of 1 to {most} characters"
PLAYER_NAME_LONG = "the player name {name!r} is longer than the {most} characters a name may have"
PLAYED_AT = "played_at must be a date and time, 'YYYY-MM-DD HH:MM:SS' (or 'YYYY-MM-DD', 'YYYY-MM-DDTHH:MM')"
KEY_LENGTH = "Idempotency-Key must be 1 to 200 characters"
ONLY_FINISHED = "only a valid, finished game is saved"
DB_UNUSABLE = "the database could not be used: {error}"
NOT_WRITTEN = ("the companion could not write to its database ({error}): nothing was saved. Is the disk full? Free "
               "some space on the computer running donjon serve, then try again")


def and_list(names: list[str]) -> str:
    """Names in a sentence: "Ana", "Ana and Ben", "Ana, Ben and Cleo"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def untouched(names: list[str]) -> str:
    """The question asked before saving a game in which some players entered nothing."""
    return f"{and_list(names)} entered nothing: save anyway?"


#: the --lan token missing: for a script, and the page a phone shows (the server's own words, no template: the
#: guard answers before the application)
NEEDS_TOKEN = ("401: this companion needs its access token. Open the address donjon serve --lan printed (with "
               "?token=...), or scan its QR code; scripts send 'Authorization: Bearer TOKEN'.")
NEEDS_TOKEN_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Scan the table's code again · donjon</title><link rel="stylesheet" href="/static/app.css"></head>
<body><main id="main"><h1>This phone is not let in</h1>
<p class="violation">The companion did not recognise this phone: it has no access code, or an old one.</p>
<p>Scan the QR code that <code>donjon serve --lan</code> shows on the host's screen again (or open the address it
printed, with its <code>?token=</code>). If the host started the companion with <code>--new-token</code>, every
phone needs the new code.</p></main></body></html>
"""
