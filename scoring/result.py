"""What scoring an end state produces: data, never text. The command line renders it as a table or as JSON.

A :class:`Result` holds what every game has: whether the file keeps every rule (`valid`), whether it records a
finished game (`finished`), every rule it breaks (`violations`, each with where and what), every check that
failed on a value no rulebook states (`warnings`, each with the value's source and confidence: the file is still
scored), the winner, and each player's score, place and breakdown, with the entries computed from a value below H
(`inferred`). What only one game (Guédelon's `won`, `tiles_left` and `mill`) or one kind of input (the values of
a photo waiting to be confirmed) has lives in a typed part of the result, a :class:`ResultPart` (as
python-chess keeps a game's `Outcome` with its `Termination` apart from the board): `result.part(GuedelonOutcome)`
finds it, and its keys join the JSON object. That object is the one `end-states.md` publishes, key for key.

A game's rules give two things (:class:`Standing`, :class:`Ranking`); the engine (:mod:`scoring.engine`) makes
the result of them, so that a file breaking rules is reported the same way for every game.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from generator.errors import ExitCode

if TYPE_CHECKING:
    from generator.i18n import Language

K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: where it is in the file (`players[1].guildhall.hunter`), what is wrong, in words, and the
    rulebook section the rule comes from (`source`, which the message ends with), so that a player can look it up
    and tell a misread rule from a mistake in the file."""

    where: str
    message: str
    #: the rule it breaks, numbered as in the game's module docstring and in end-states.md (`guildhall-3`)
    rule: str = ""
    #: the line in the file, when the file is YAML and the value is found there (not part of the JSON result)
    line: int | None = None
    #: the rulebook section the rule rests on (`002/003 Duplicate Dos and Don'ts`), also said at the end of the
    #: message (there followed, for a check on a catalog value, by that value's confidence and source)
    source: str = ""

    def to_dict(self) -> dict[str, str]:
        # end-states.md: `where` and `message`; the message ends with the section (`[004 Towers]`)
        return {"where": self.where, "message": self.message}


@dataclass(frozen=True, slots=True)
class Uncertain:
    """A value read from a photo that a person must confirm: the mark (or marks) of `field` could not be decided
    on `photo`. Until every one is confirmed (`donjon score --set KEY=VALUE`), nothing is scored."""

    #: the field as the sheet's map of marks names it (`towers[1]`, `residents`)
    field: str
    photo: str
    why: str
    #: what `--set` takes to confirm it: the field, prefixed by its sheet when several photos were read
    #: (`sheets[1].towers[1]`)
    key: str
    #: why, as a code (generator.sheets.photo_reasons.FIELD_CAUSES: `glare`, `covered`, `faint`...)
    code: str = ""
    #: what the player does about it (generator.sheets.advice: the same words as the companion's), "" when none
    advice: str = ""
    #: the field as people are told of it: a sheet of one's own's label of it (`Boats launched`), "" for its id
    #: (the JSON keeps the id alone: it is what `--set` and the end state take)
    label: str = ""
    #: `why` with the fields it names said by their labels and the values by their names, "" when that is `why`
    #: itself
    said: str = ""
    #: the rule the marks read break, in the sheet layout's words (a `needs`' `why`), "" for none: said in the
    #: language of `--lang` (generator.sheets.summary.why_said)
    rule: str = ""
    #: `rule` in other languages as the sheet of one's own gives it, (code, words) (generator.sheets.marks.Need)
    rule_said: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "photo": self.photo, "why": self.why, "set": self.key, "reason": self.code,
                "advice": self.advice}


@dataclass(frozen=True, slots=True)
class Unread:
    """A photo of the sheets of one game that could not be read (no whole sheet in it, a sheet of another version):
    the other files are still read and their uncertain values listed, and nothing is scored until it is given
    again."""

    file: str
    #: its place among the files given, from 0 (`sheets[N]` of `--set`)
    sheet: int
    #: why, as the reader says it (the file's name left out)
    why: str
    #: the reason's name (generator.sheets.advice: `half-sheet`, `blurred`...), "" when none is known
    reason: str = ""
    #: what to change before the next photo, in words ("" when `why` is all there is to say)
    advice: str = ""
    #: what standard error says of it (not in the JSON): the reader's whole message for a photo given alone, as
    #: without --json; "" for one of several, said `FILE: WHY`
    error: str = ""
    #: the values `--set` gave for it (`cid.jpg:towers[0]=5`), not applied since nothing of it was read: said on
    #: standard error, so that nobody takes them for counted (not in the JSON): :func:`not_applied`
    unset: tuple[str, ...] = ()
    #: `why` said in a language, when it is donjon's own words naming what it found (a sheet of another version:
    #: both versions, the other file): said so rather than by its reason's general words; None for the reader's
    said_in: Callable[[Language], str] | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, object]:
        return {"file": self.file, "sheet": self.sheet, "why": self.why, "reason": self.reason, "advice": self.advice}


def not_applied(given: str, file: str, lang: Language | None = None) -> str:
    """The line of standard error for a `--set` (`given`: KEY=VALUE) of a photo that could not be read, which was
    not applied: said (in `lang`, English when None), so that nobody takes the value for counted."""
    if lang is None or lang.english:
        return f"--set {given}: not applied: {file} could not be read; give this --set again with its new photo"
    return lang._("--set {given}: not applied: {file} could not be read; give this --set again with its new "
                  "photo").format(given=given, file=file)


@dataclass(frozen=True, slots=True)
class RuleWarning:
    """A check that failed on a value no rulebook states (confidence M, L or house): the file is still scored.

    `source` and `confidence` are those of the catalog value the check rests on (its `inferred` record)."""

    where: str
    message: str
    source: str
    confidence: str
    #: the check, named as in the game's module docstring (`once-upon-a-castle-w1`, `guildhall-7`)
    rule: str = ""
    line: int | None = None

    def to_dict(self) -> dict[str, str]:
        return {"where": self.where, "message": self.message, "source": self.source, "confidence": self.confidence}


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """A player's (or the Guédelon team's) total, place and where every point comes from."""

    name: str
    score: int
    #: 1 is first; tied players share a place and the next place is skipped (1, 1, 3)
    place: int
    #: (label, points) in a fixed order; the points add up to `score`
    breakdown: tuple[tuple[str, int], ...]
    #: what broke a tie in VP or is otherwise worth showing beside the score (shown in tables, not in the JSON)
    notes: tuple[tuple[str, int], ...] = ()
    #: (label, confidence) of each breakdown entry computed from a catalog value below H (say, resident points
    #: read off donjon's house track): shown as not official in the table and the JSON
    inferred: tuple[tuple[str, str], ...] = ()
    #: a sheet of one's own: each field's value as read (name, value), shown in the table and, when there are
    #: some, in the JSON as `values`
    values: tuple[tuple[str, Any], ...] = ()
    #: a sheet of one's own: the label its sheet.yaml gives a field of `values` (name, label), which the table shows
    #: instead of the name (the JSON keeps the names: they are the end state's keys)
    labels: tuple[tuple[str, str], ...] = ()
    #: a sheet of one's own: the names its sheet gives the values of a field of `values` (name, ((id, name), ...)),
    #: which the table shows instead of the ids (the JSON keeps the ids: they are the end state's values)
    names: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    #: a sheet of one's own: the language `names` are in (the sheet's own), whose way of joining a list the table
    #: follows ("Blé et Orge"; the JSON keeps the list of ids)
    lang: str = "en"

    def __post_init__(self) -> None:
        total = sum(points for _, points in self.breakdown)
        if total != self.score:
            raise ValueError(f"the breakdown of {self.name!r} adds up to {total}, not to its score {self.score}")

    def to_dict(self) -> dict[str, Any]:
        out = {"name": self.name, "score": self.score, "place": self.place, "breakdown": dict(self.breakdown),
               "inferred": dict(self.inferred)}
        if self.values:
            out["values"] = {name: list(v) if isinstance(v, tuple) else v for name, v in self.values}
        return out


class ResultPart:
    """A part of a result that only one game, or one kind of input, has: typed, and shown in the JSON under its own
    keys (:meth:`to_dict`) after the keys every result has. Subclasses are frozen dataclasses."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        """The keys this part adds to the JSON result."""
        return {}

    @property
    def waiting(self) -> bool:
        """Values wait for a person's word (a photo's uncertain marks): nothing is scored yet (exit code 1)."""
        return False

    @property
    def unreadable(self) -> bool:
        """A file of the input could not be read (one photo of several): nothing is scored (exit code 2)."""
        return False

    @property
    def end_missing(self) -> str | None:
        """Why the file, scored all the same, does not show the end of the game (no castle sheet holds the end
        Cloud), or None. A table of the companion, which holds every player's part, is not saved then."""
        return None

    @property
    def end_warning(self) -> str:
        """The rule (`once-upon-a-castle-w4`) of the warning a file gets where :attr:`end_missing` is said: a file
        may hold only some players' parts, so the warning allows that the part showing the end is left out; a
        table, which holds every part, says :attr:`end_missing` in its place. "" when there is none."""
        return ""


P = TypeVar("P", bound=ResultPart)


@dataclass(frozen=True, slots=True)
class Unconfirmed(ResultPart):
    """Sheets read from photos: the values a person must confirm before anything is scored (none when every mark
    was read), and the files of several that could not be read at all. A result of sheets that were not photos,
    each read, has no such part (the JSON then has no `uncertain` nor `unread`)."""

    uncertain: tuple[Uncertain, ...]
    unread: tuple[Unread, ...] = ()
    #: every file of the sheets, in the order given (for a listing file by file; not in the JSON)
    files: tuple[str, ...] = ()
    #: the sheets read from several photos of them (a retake from another angle): each player's name and the
    #: photos, the first one first (in the JSON under `combined` when there is one)
    combined: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"uncertain": [u.to_dict() for u in self.uncertain],
                               "unread": [u.to_dict() for u in self.unread]}
        if self.combined:
            out["combined"] = [{"player": player, "photos": list(photos)} for player, photos in self.combined]
        return out

    @property
    def waiting(self) -> bool:
        return bool(self.uncertain)

    @property
    def unreadable(self) -> bool:
        return bool(self.unread)


@dataclass(frozen=True, slots=True)
class Result:
    """The scored end state of one game."""

    game: str
    valid: bool
    finished: bool
    violations: tuple[Violation, ...]
    winner: str | None
    #: in the order of the file; empty when the file breaks a rule (such a file is not scored)
    players: tuple[PlayerScore, ...]
    #: the file it came from, as messages name it ("" for a mapping given to the library)
    source: str = ""
    #: one line saying how the game stands, for people (not part of the JSON result)
    summary: str = ""
    #: facts about the game shown in the table's heading, e.g. (("VP cards", "job-faire"),)
    setting: tuple[tuple[str, str], ...] = field(default=())
    #: checks that failed on values no rulebook states: listed, but the file is still scored
    warnings: tuple[RuleWarning, ...] = ()
    #: what only this game or this kind of input has (Guédelon's outcome, the values of photos to confirm)
    parts: tuple[ResultPart, ...] = ()

    def part(self, kind: type[P]) -> P | None:
        """The part of that kind, or None: `result.part(GuedelonOutcome)`."""
        return next((p for p in self.parts if isinstance(p, kind)), None)

    @property
    def end_missing(self) -> str | None:
        """Why the scored file does not show the end of the game, or None (:attr:`ResultPart.end_missing`)."""
        return next((why for p in self.parts if (why := p.end_missing) is not None), None)

    @property
    def exit_code(self) -> ExitCode:
        """0 for a valid, finished game; 1 when a rule is broken, the game is still in progress, or a value read
        from a photo waits to be confirmed; 2 when a file of several sheets could not be read."""
        if any(p.unreadable for p in self.parts):
            return ExitCode.UNREADABLE
        waiting = any(p.waiting for p in self.parts)
        return ExitCode.OK if self.valid and self.finished and not waiting else ExitCode.INVALID

    def to_dict(self) -> dict[str, Any]:
        """The result as end-states.md publishes it, keys in its order, then the keys of its parts."""
        out: dict[str, Any] = {
            "game": self.game,
            "valid": self.valid,
            "finished": self.finished,
            "violations": [v.to_dict() for v in self.violations],
            "warnings": [w.to_dict() for w in self.warnings],
            "winner": self.winner,
            "players": [p.to_dict() for p in self.players],
        }
        for part in self.parts:
            out.update(part.to_dict())
        return out

    def to_json(self) -> str:
        """One line of JSON (the command prints one per file)."""
        return json_line(self.to_dict())


class Standing(NamedTuple):
    """How a game stands, said by its rules whether or not the file keeps them all: the engine shows it for a file
    that breaks rules too."""

    #: the outcome is decided (end-states.md `finished`)
    finished: bool
    #: facts about the game shown in the table's heading
    setting: tuple[tuple[str, str], ...] = ()
    #: the game's own part of the result (Guédelon's outcome), if it has one
    parts: tuple[ResultPart, ...] = ()


class Ranking(NamedTuple):
    """What a game's rules make of a file that keeps every rule: each player's score and place, and the winner."""

    players: tuple[PlayerScore, ...]
    winner: str | None
    #: one line saying how the game stands, for people
    summary: str


#: What `json.dumps(ensure_ascii=False)` leaves raw but a terminal may act on: DEL, the C1 controls, the line and
#: paragraph separators, the bidirectional overrides and isolates (it escapes the C0 controls itself).
_RAW_IN_JSON = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_line(data: Mapping[str, Any]) -> str:
    """One line of JSON, UTF-8 text kept as it is, every control character escaped (`\\u001b`, `\\u009b`)."""
    text = json.dumps(data, ensure_ascii=False)
    return _RAW_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def competition_places(keys: Sequence[K], better: Callable[[K, K], bool], start: int = 1) -> list[int]:
    """Standard competition ranking ("1224"): each entry's place is `start` plus the number of entries better
    than it, so tied entries share a place and the places after a tie are skipped."""
    return [start + sum(1 for other in keys if better(other, key)) for key in keys]


def ranked_by(values: Sequence[tuple[int, ...]], start: int = 1) -> list[int]:
    """Places for tuples compared element by element, higher first: (VP, chapters) or (score,)."""
    return competition_places(values, lambda a, b: a > b, start)


def breakdown(items: Mapping[str, int] | Sequence[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    pairs = items.items() if isinstance(items, Mapping) else items
    return tuple((label, int(points)) for label, points in pairs)
