"""Exporting every saved game (JSON, CSV) and importing an export back, checked by the scorer again.

An export holds each game's `uid`, so importing it twice, or into the database it came from, adds nothing;
importing it into an empty database and exporting again gives the same games (the database's own row ids are
left out of the export for that reason).
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from generator.errors import InputError, Problem
from generator.fields import unprintable_character, visible_name
from generator.i18n import Language, language
from generator.sayings import filled
from generator.wording import spreadsheet_cell
from generator.web import messages, store
from generator.web.games import Games

FORMAT = "donjon-history"
#: 2: each game carries its versions (who changed it, when, what) and, once deleted, when; version 1 still reads
FORMAT_VERSION = 2
READS = (1, 2)
#: The keys of one exported game (version 1: the first six).
GAME_KEYS = ("uid", "game", "played_at", "team", "end_state", "result")
MORE_KEYS = ("versions", "deleted_at", "duration_min")
VERSION_KEYS = ("number", "at", "who", "action", "end_state", "result", "team")
#: The longest name a player may have, the same in the forms, the API and an import: what a phone shows without
#: wrapping badly (the end-state format allows 200).
LONGEST_NAME = 40
#: The most players of a cooperative team (Guédelon: 1 to 4; the format allows a few more).
MOST_TEAM = 8
#: Versions of one game in an import: a game corrected this often is an accident, not a history.
MOST_VERSIONS = 1000


class SaveRefused(ValueError):
    """A save, a correction or an imported game whose envelope is wrong (team, date, keys): says what, and `field`
    the key it is about (the API's `field`; "" for keys it does not know)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def play_date(value: Any) -> str | None:
    """`played_at` as the history keeps it ('YYYY-MM-DD HH:MM:SS'), from that or a date, or an ISO date and time
    (`T`, minutes only, seconds' fractions and a time zone dropped: the local time the players saw); None if it
    is none of those."""
    import re
    from datetime import datetime

    if not isinstance(value, str) or len(value) > 40:
        return None
    found = re.fullmatch(r"(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?",
                         value.strip())
    if found is None:
        return None
    text = f"{found.group(1)} {found.group(2) or '00:00'}{found.group(3) or ':00'}"
    try:
        datetime.strptime(text, "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return None
    return text


def check_envelope(data: Mapping[str, Any], patch: bool = False, lang: Language | None = None
                   ) -> tuple[dict[str, Any], list[str] | None, str | None]:
    """(end state, team, played_at) of a save: an end state alone, or `{"end_state", "team", "played_at"}`
    (a correction: `{"end_state", "team", "version"}`, `version` the game's version it was made from, a whole number
    the caller compares). Raises :class:`SaveRefused` naming what is wrong, in `lang` (English when None: the API's;
    `donjon history import --lang` its own); the keys it names are the format's."""
    say = lang or language()
    allowed = ("end_state", "team", "version") if patch else ("end_state", "team", "played_at")
    envelope = "end_state" in data
    state = data["end_state"] if envelope else data
    team = data.get("team") if envelope else None
    played_at = data.get("played_at") if envelope else None
    unknown = sorted(set(data) - set(allowed)) if envelope else []
    if unknown:
        raise SaveRefused(say._(messages.UNKNOWN_KEYS).format(keys=", ".join(unknown), allowed=", ".join(allowed)))
    if not isinstance(state, dict):
        raise SaveRefused(say._(messages.END_STATE_OBJECT), "end_state")
    version = data.get("version") if envelope else None
    if version is not None and not (isinstance(version, int) and not isinstance(version, bool) and version > 0):
        raise SaveRefused(say._(messages.VERSION_NUMBER), "version")
    if team is not None and not (isinstance(team, list) and 0 < len(team) <= MOST_TEAM
                                 and all(isinstance(n, str) and visible_name(n) for n in team)):
        raise SaveRefused(say._(messages.TEAM_NAMES).format(most_team=MOST_TEAM), "team")
    if team is not None:
        team = [shown_name(n) for n in team]
        wrong = next(filter(None, (name_problem(n, lang) for n in team)), None)
        if wrong is not None:
            raise SaveRefused(f"team: {wrong}", "team")
    when = None
    if played_at is not None:
        when = play_date(played_at)
        if when is None:
            raise SaveRefused(say._(messages.PLAYED_AT), "played_at")
    return state, team, when


def shown_name(name: str) -> str:
    """A player's name as a save keeps it: as typed without the characters no one sees (a zero-width space, a soft
    hyphen, a bidi mark pasted with it: :func:`generator.fields.visible_name`), its spaces as one, as the table's
    forms keep a name typed there; a name of nothing visible is left as it is, to be refused naming its character."""
    return visible_name(name) or name


def visible_names(state: Mapping[str, Any], games: Games) -> dict[str, Any]:
    """An end state with each player's name where the game's format holds them (the players' parts, a field naming
    a player such as whose turn ended the game) as :func:`shown_name` keeps it: `Zo\u200bë` is saved as `Zoë`, as
    it is when typed at a table. A state of a game donjon does not know is left as it is (the scorer says why)."""
    from generator.registry import UnknownGame

    try:
        hints = games.hints(str(state.get("game", "")))
    except UnknownGame:
        return dict(state)
    out = dict(state)
    if hints.parts and isinstance(out.get(hints.parts), list):
        out[hints.parts] = [{**part, hints.part_name: shown_name(part[hints.part_name])}
                            if isinstance(part, dict) and isinstance(part.get(hints.part_name), str) else part
                            for part in out[hints.parts]]
    for name, widget in hints.widgets.items():
        if widget.kind == "player" and isinstance(out.get(name), str):
            out[name] = shown_name(out[name])
    return out


def name_problem(name: str, lang: Language | None = None) -> str | None:
    """Why a player's name (as :func:`shown_name` keeps it) cannot be saved, in `lang` (English when None: the API,
    an import), or None: longer than a name may be, or holding a character no page draws (a control character such
    as ESC, a private or unassigned code point), named as `U+001B`; a joiner a script needs and the tags of a
    subdivision's flag are drawn."""
    say = lang or language()
    code = unprintable_character(name)
    if code is not None:
        return filled(say._(messages.NAME_HOLDS), {"name": name, "code": code}, say)
    if len(name) > LONGEST_NAME:
        return filled(say._(messages.NAME_LONG), {"name": name, "most": LONGEST_NAME}, say)
    return None


def long_names(result: Mapping[str, Any], lang: Language | None = None) -> list[str]:
    """Why each player's name of a result that cannot be saved cannot be (:func:`name_problem`), in `lang`."""
    return [problem for p in result.get("players", []) if (problem := name_problem(str(p["name"]), lang)) is not None]


def export(conn: sqlite3.Connection) -> dict[str, Any]:
    """Every saved game (the deleted ones too, marked), each with its versions."""
    games = store.list_games(conn, oldest_first=True, deleted=True)
    ordered = sorted(games, key=lambda g: (g["played_at"], g["uid"]))
    out = []
    for game in ordered:
        entry = {k: game[k] for k in GAME_KEYS}
        entry["duration_min"] = game["duration_min"]
        entry["deleted_at"] = game["deleted_at"]
        entry["versions"] = [{k: v[k] for k in VERSION_KEYS} for v in store.versions(conn, game["id"])]
        out.append(entry)
    return {"format": FORMAT, "version": FORMAT_VERSION, "games": out}


def to_json(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def to_csv(data: Mapping[str, Any]) -> str:
    """One row per player of each game: for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["uid", "played_at", "game", "player", "score", "place", "winner"])
    for game in data["games"]:
        if game.get("deleted_at"):
            continue
        for name, score, place, won in store.player_rows(game["result"], game["team"]):
            writer.writerow([game["uid"], game["played_at"], game["game"], spreadsheet_cell(name), score, place,
                             int(won)])
    return out.getvalue()


class HistoryFileError(InputError):
    """An export that cannot be imported: every problem, with the game it is in."""

    def __init__(self, file: str, problems: list[Problem], lang: Language | None = None) -> None:
        say = lang or language()
        super().__init__(file, problems[0].message if len(problems) == 1 else
                         say._(messages.PROBLEMS).format(count=len(problems)))
        self.problems = tuple(problems)
        lines = [str(p) for p in problems]
        self.args = ("\n".join(lines) if len(lines) == 1 else
                     say._(messages.IMPORT_REFUSED).format(file=file, count=len(lines)) + "\n"
                     + "\n".join(f"  {x}" for x in lines),)

    def __str__(self) -> str:
        return str(self.args[0])


def check(data: Any, file: str, games: Games, lang: Language | None = None) -> list[dict[str, Any]]:
    """The games of an export, each scored again and held to the limits of `POST /api/games` (team size, name
    length, `played_at`, control characters); raises with every problem found, said in `lang` (English when None),
    the keys of the format as they are."""
    from generator.sayings import Words

    say = lang or language()
    problems: list[Problem] = []
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise HistoryFileError(file, [Problem(file, None, "", say._(messages.NOT_EXPORT).format(format=FORMAT))],
                               lang)
    if type(data.get("version")) is not int or data.get("version") not in READS:
        raise HistoryFileError(file, [Problem(file, None, "version", filled(say._(messages.EXPORT_VERSION), {
            "version": data.get("version"), "known": Words(say).listing(READS)}, say))], lang)
    entries = data.get("games")
    if not isinstance(entries, list):
        raise HistoryFileError(file, [Problem(file, None, "games", say._(messages.EXPECTED_GAMES))], lang)
    keys = set(GAME_KEYS) if data["version"] == 1 else set(GAME_KEYS) | set(MORE_KEYS)
    out = []
    for index, entry in enumerate(entries):
        where = f"games[{index}]"
        if not isinstance(entry, dict) or not set(GAME_KEYS) <= set(entry) <= keys:
            problems.append(Problem(file, None, where,
                                    say._(messages.EXPECTED_KEYS).format(keys=", ".join(sorted(keys)))))
            continue
        if not (isinstance(entry["uid"], str) and 0 < len(entry["uid"]) <= 64 and entry["uid"].isprintable()):
            problems.append(Problem(file, None, f"{where}.uid", say._(messages.EXPECTED_UID)))
            continue
        try:
            state, team, played_at = check_envelope({"end_state": entry["end_state"], "team": entry["team"] or None,
                                                    "played_at": entry["played_at"]}, lang=lang)
        except SaveRefused as err:
            problems.append(Problem(file, None, where, str(err)))
            continue
        state = visible_names(state, games)
        scored = games.score(state)
        if scored.result is None:
            # scored again in the language only when it fails (the result saved is the English one)
            problems.append(Problem(file, None, f"{where}.end_state",
                                    scored.error if say.english else games.score(state, lang).error))
            continue
        if not (scored.result["valid"] and scored.result["finished"]):
            problems.append(Problem(file, None, f"{where}.end_state", say._(messages.NOT_FINISHED)))
            continue
        wrong = long_names(scored.result, lang)
        if wrong:
            problems.append(Problem(file, None, f"{where}.end_state", wrong[0]))
            continue
        history, problem = _versions(entry.get("versions"), f"{where}.versions", say)
        deleted = entry.get("deleted_at")
        duration = entry.get("duration_min")
        if problem is None and deleted is not None and play_date(deleted) is None:
            problem = f"{where}.deleted_at: {say._(messages.EXPECTED_DATE)}"
        if problem is None and duration is not None and not (type(duration) is int and 0 <= duration <= 100_000):
            problem = f"{where}.duration_min: {say._(messages.EXPECTED_MINUTES)}"
        if problem is not None:
            problems.append(Problem(file, None, where, problem))
            continue
        out.append({"uid": entry["uid"], "game": entry["game"], "played_at": played_at, "team": team or [],
                    "end_state": state, "result": scored.result, "versions": history,
                    "deleted_at": play_date(deleted) if deleted else None, "duration_min": duration})
    if problems:
        raise HistoryFileError(file, problems, lang)
    return out


def _versions(value: Any, where: str, say: Language) -> tuple[list[dict[str, Any]], str | None]:
    """The versions of an exported game, checked for shape (they are a record of the past: not scored again)."""
    if value is None:
        return [], None
    if not isinstance(value, list) or len(value) > MOST_VERSIONS:
        return [], f"{where}: {say._(messages.EXPECTED_VERSIONS).format(most=MOST_VERSIONS)}"
    out = []
    for index, version in enumerate(value):
        if not (isinstance(version, dict) and set(version) == set(VERSION_KEYS)
                and isinstance(version["who"], str) and len(version["who"]) <= 100
                and isinstance(version["action"], str) and len(version["action"]) <= 20
                and play_date(version["at"]) is not None and isinstance(version["end_state"], dict)
                and isinstance(version["result"], dict) and isinstance(version["team"], list)):
            return [], f"{where}[{index}]: {say._(messages.EXPECTED_VERSION).format(keys=', '.join(VERSION_KEYS))}"
        out.append(version)
    return out, None


def import_games(conn: sqlite3.Connection, entries: list[dict[str, Any]]) -> tuple[int, int]:
    """Store the checked games (in one transaction): how many were added, and how many were there already."""
    added = 0
    for entry in entries:
        _, created = store.save_game(conn, entry["result"]["game"], entry["end_state"], entry["result"],
                                     team=entry["team"], played_at=entry["played_at"], uid=entry["uid"],
                                     who=messages.BY_IMPORT, versions=entry["versions"],
                                     deleted_at=entry["deleted_at"], duration_min=entry["duration_min"])
        added += created
    return added, len(entries) - added
