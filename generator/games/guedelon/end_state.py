"""The Guédelon end-state format (`docs/end-states.md`): its typed records and the spec that checks a
file against it, with the names the catalog in use knows.

A file that does not fit this format cannot be scored (exit 2, every problem listed); a file that fits it is
judged by the rules (:mod:`generator.games.guedelon.rules`). Bounds here are loose where a rule has the final word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from generator.fields import Checker, Field, ListOf, Record, Text, Type, normalise_name
from generator.games.guedelon import TITLES
from generator.games.guedelon.catalog import Guedelon
from generator.i18n import N_
from generator.yamlio import PathKey
from scoring.formats import LONGEST, game_key, names, number

#: The Mill's states in a record (`mill:` in a file): built, in play and not built, or `mill: true` of a file
#: written before `built` and `not-built` existed (in play; built when the `built` list names the Mill). Not in
#: play is None.
BUILT, NOT_BUILT, LISTED = "built", "not-built", "listed"


@dataclass(frozen=True, slots=True)
class GuedelonEndState:
    players: int
    events: str
    #: None (the Mill was not in play), BUILT, NOT_BUILT or LISTED
    mill: str | None
    rounds: int
    #: "all" (every floor tile), or the floor tiles built as written (and the Mill, in files written before)
    built: Literal["all"] | tuple[str, ...]


def _end_state(game: str, players: int, events: str, mill: str | None, rounds: int,
               built: str | tuple[str, ...]) -> GuedelonEndState:
    return GuedelonEndState(players, events, mill, rounds, "all" if built == "all" else tuple(t.strip() for t in built))


def spec(catalog: Guedelon) -> Record[GuedelonEndState]:
    series = catalog.series
    return Record(
        name="Guédelon end state",
        doc="A game of Guédelon (won, lost or stopped), for `donjon score`.",
        fields={
            "game": game_key("guedelon", TITLES),
            "players": Field(number(), doc="1 to 4; 1 and 2 play with the apprentice"),
            "events": Field(names(series, N_("event series"), lang=catalog.info.lang),
                            doc=N_("the event series played")),
            "mill": Field(MillState(), required=False,
                          doc="false (the default): the Mill was not in play; built, or not-built, when it was"),
            "rounds": Field(number(), doc="rounds played when the castle was finished, or when play stopped"),
            "built": Field(Built(), doc="`all` (every floor tile, never the Mill), or the floor tiles completed, "
                                       "e.g. [A0, A1, B0]"),
        },
        build=_end_state,
    )


class Built(Type[str | tuple[str, ...]]):
    """`all`, or a list of tile names (which tiles exist is a rule, judged against the catalog)."""

    def __init__(self) -> None:
        self.tiles = ListOf(Text(max_len=20), max_items=LONGEST)

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if isinstance(value, str):
            # folded as every name the scorer reads is (end-states.md: one normaliser), so that `ALL `, `All` and
            # `Àll` are `all` exactly where `Guédelon` and `GUEDELON` are one game
            if normalise_name(value) == "all":
                return "all"
            return ck.fail(path, N_("is {value!r}; expected `all` or a list of floor tiles such as [A0, A1, B0]"),
                           value=value)
        if not isinstance(value, list):
            return ck.fail(path, N_("expected `all` or a list of floor tiles, got {value}"),
                           value=ck.describe(value, path))
        return self.tiles.check(value, path, ck)

    def schema(self) -> dict[str, Any]:
        # no pattern: a JSON Schema's cannot fold accents as the scorer does (`Àll`); the scorer has the last word
        return self._with_doc({"anyOf": [{"type": "string", "examples": ["all"],
                                          "$comment": "any case; accents or not (folded as names are)"},
                                         self.tiles.schema()]})


class MillState(Type[str | None]):
    """`mill`: false (not in play), `built` or `not-built` (any case, spaces for the dash). `true`, which files
    written before said for "in play", is still read: built when the `built` list names the Mill (LISTED).

    `mill:` left empty is refused, as the published schema refuses it and as every other key of the formats that
    has a default is when empty (`variant:`, `professions:`, a sheet's `sun:`): the Mill said nothing about is
    most likely a value not yet typed, and reading it as "not in play" would drop the Mill from the result without
    a word (end-states.md: a typo must not silently drop a field). Leaving the key out is "not in play". The one
    key whose empty value is read as left out is Guildhall's `ended_by`, whose schema has always taken `null`."""

    doc = ""

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if value is False:
            return None
        if value is True:
            return LISTED
        if isinstance(value, str):
            key = normalise_name(value)
            if key in (BUILT, NOT_BUILT):
                return key
            if key == "false":  # a form's choice, sent as text
                return None
        return ck.fail(path, N_("expected false, built or not-built, got {value}"), value=ck.describe(value, path))

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"anyOf": [
            {"type": "boolean", "$comment": "true, in files written before: in play, built when `built` names it"},
            {"type": "string", "examples": [BUILT, NOT_BUILT], "$comment": "any case; spaces or '_' in place of '-'"},
        ]})
