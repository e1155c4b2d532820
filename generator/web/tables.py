"""A table as the pages show it: its end state assembled from the parts, scored, and messages placed at fields.

Every change to a table bumps its version; the view of one version is computed once (assembling the end state,
scoring it through the engine, building the forms) and kept for the pages and live updates that ask for it.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.games.table import TableHints
from generator.web.forms import Control, FormBuilder, all_slots, place_messages
from generator.web.games import Games, Scored
from generator.web.store import GameTable

#: Views kept in memory (one per table version asked for); a table at a game night has a handful.
CACHE_SIZE = 64


def end_state(table: GameTable, hints: TableHints) -> dict[str, Any]:
    """The end state of the table, in the game's format: what `donjon score` would read from a file."""
    out: dict[str, Any] = {"game": table.game}
    for key, value in table.options.items():
        if value is not None and value != "":
            out[key] = value
    if hints.team_size:
        out[hints.team_size] = len(table.team)
    if hints.parts:
        out[hints.parts] = [{hints.part_name: part.name, **part.data} for part in table.parts]
    for key in hints.shared:
        value = table.shared.get(key)
        if value is not None and value != "":
            out[key] = value
    return out


def data_hash(*values: Any) -> str:
    """A short fingerprint of stored data: a live page reloads a form only when its data changed elsewhere."""
    text = json.dumps(values, sort_keys=True, ensure_ascii=False)
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:12]


@dataclass
class TableView:
    table: GameTable
    hints: TableHints
    builder: FormBuilder
    end_state: dict[str, Any]
    scored: Scored
    #: messages by the slot (a control's `where`, "" for the whole game) they are shown at
    violations: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    warnings: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    #: inferred breakdown entries per player name: {key: confidence}
    inferred: dict[str, dict[str, str]] = field(default_factory=dict)
    #: the controls of each seat's part and of the shared fields (None), built once per version
    controls: dict[int | None, list[Control]] = field(default_factory=dict)

    @property
    def result(self) -> dict[str, Any] | None:
        return self.scored.result

    @property
    def saveable(self) -> bool:
        result = self.scored.result
        return bool(result and result["valid"] and result["finished"] and self.scored.end_missing is None
                    and self.table.game_id is None)

    def seat_controls(self, seat: int) -> list[Control]:
        return self.controls[seat]

    def shared_controls(self) -> list[Control]:
        return self.controls[None]

    def seat_hash(self, seat: int | None) -> str:
        part = next((p.data for p in self.table.parts if p.seat == seat), None)
        return data_hash(part, self.table.shared)

    def ranked(self) -> list[dict[str, Any]]:
        result = self.scored.result
        if not result:
            return []
        return sorted(result["players"], key=lambda p: (p["place"], p["name"]))

    def messages_of(self, prefix: str) -> tuple[int, int]:
        """How many violations and warnings fall within a part (`players[1]`)."""
        def count(found: Mapping[str, list[dict[str, str]]]) -> int:
            return sum(len(v) for k, v in found.items() if k == prefix or k.startswith(prefix + ".")
                       or k.startswith(prefix + "["))
        return count(self.violations), count(self.warnings)


def _controls(builder: FormBuilder, table: GameTable, hints: TableHints) -> dict[int | None, list[Control]]:
    out: dict[int | None, list[Control]] = {}
    if hints.parts:
        for part in table.parts:
            out[part.seat] = builder.part(part.seat, part.data)
    out[None] = builder.shared(table.shared)
    return out


def _slots(controls: Mapping[int | None, list[Control]], hints: TableHints) -> list[str]:
    slots: list[str] = []
    for seat, found in controls.items():
        if seat is not None and hints.parts:
            slots.append(f"{hints.parts}[{seat}]")
        slots += all_slots(found)
    slots += list(hints.options)
    return slots


class Views:
    """Computes and keeps the view of each table version."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self._cache: OrderedDict[tuple[int, int], TableView] = OrderedDict()
        self._lock = threading.Lock()

    def builder(self, game: str, options: Mapping[str, Any], players: Sequence[str]) -> FormBuilder:
        catalog, spec = self.games.catalog(game)
        return FormBuilder(spec, self.games.hints(game), catalog, options, players)

    def view(self, table: GameTable) -> TableView:
        key = (table.id, table.version)
        with self._lock:
            found = self._cache.get(key)
            if found is not None:
                self._cache.move_to_end(key)
                return found
        hints = self.games.hints(table.game)
        builder = self.builder(table.game, table.options, table.names)
        state = end_state(table, hints)
        scored = self.games.score(state)
        view = TableView(table, hints, builder, state, scored, controls=_controls(builder, table, hints))
        slots = _slots(view.controls, hints)
        if scored.result is None:
            view.violations = place_messages(scored.problems, slots)
        else:
            view.violations = place_messages(scored.result["violations"], slots)
            view.warnings = place_messages(scored.result.get("warnings", []), slots)
            view.inferred = {p["name"]: dict(p["inferred"]) for p in scored.result["players"] if p.get("inferred")}
        with self._lock:
            self._cache[key] = view
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return view
