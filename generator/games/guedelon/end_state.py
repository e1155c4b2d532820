"""The Guédelon end-state format (`docs/end-states.md`): its typed records and the spec that checks a
file against it, with the names the catalog in use knows.

A file that does not fit this format cannot be scored (exit 2, every problem listed); a file that fits it is
judged by the rules (:mod:`generator.games.guedelon.rules`). Bounds here are loose where a rule has the final word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from generator.fields import Bool, Checker, Field, ListOf, Record, Text, Type, describe
from generator.games.guedelon.catalog import Guedelon
from generator.yamlio import PathKey
from scoring.formats import LONGEST, game_key, names, number


@dataclass(frozen=True, slots=True)
class GuedelonEndState:
    players: int
    events: str
    mill: bool
    rounds: int
    #: "all", or the floor tiles (and the Mill) built, as written
    built: Literal["all"] | tuple[str, ...]


def _end_state(game: str, players: int, events: str, mill: bool, rounds: int,
               built: str | tuple[str, ...]) -> GuedelonEndState:
    return GuedelonEndState(players, events, mill, rounds, "all" if built == "all" else tuple(t.strip() for t in built))


def spec(catalog: Guedelon) -> Record[GuedelonEndState]:
    series = tuple(s.id for s in catalog.series)
    return Record(
        name="Guédelon end state",
        doc="A game of Guédelon (won, lost or stopped), for `donjon score`.",
        fields={
            "game": game_key("guedelon"),
            "players": Field(number(), doc="1 to 4; 1 and 2 play with the apprentice"),
            "events": Field(names(series, "event series"), doc="the event series played"),
            "mill": Field(Bool(), required=False, default=False, doc="the Mill expansion was in play"),
            "rounds": Field(number(), doc="rounds played when the castle was finished, or when play stopped"),
            "built": Field(Built(), doc="`all`, or the floor tiles completed and `mill` if built, e.g. [A0, A1, B0]"),
        },
        build=_end_state,
    )


class Built(Type[str | tuple[str, ...]]):
    """`all`, or a list of tile names (which tiles exist is a rule, judged against the catalog)."""

    def __init__(self) -> None:
        self.tiles = ListOf(Text(max_len=20), max_items=LONGEST)

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if isinstance(value, str):
            if value.strip().lower() == "all":
                return "all"
            return ck.fail(path, f"is {value!r}; expected `all` or a list of floor tiles such as [A0, A1, B0]")
        if not isinstance(value, list):
            return ck.fail(path, f"expected `all` or a list of floor tiles, got {describe(value)}")
        return self.tiles.check(value, path, ck)

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"anyOf": [{"type": "string", "pattern": "^\\s*[Aa][Ll][Ll]\\s*$"},
                                         self.tiles.schema()]})
