"""A table as the pages show it: its end state assembled from the parts, scored, and messages placed at fields.

Every change to a table bumps its version; the view of one version is computed once (assembling the end state,
scoring it through the engine, building the forms) and kept for the pages and live updates that ask for it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from generator.games.table import TableHints
from generator.i18n import Language, language
from generator.web import messages
from generator.web.forms import Control, FormBuilder, all_slots, initial_part, place_messages
from generator.web.games import Games, Scored
from generator.web.languages import said
from generator.web.store import GameTable

#: Views kept in memory (one per table version asked for); a table at a game night has a handful.
CACHE_SIZE = 64
#: A field's path in a message: names joined by dots, with list indexes, holding an index or a dot at least
#: (`players[2].guildhall.weaver`, `sheets[0]`, `walls[1].flags`): never an ordinary word.
_PATH = re.compile(r"\b[a-z_]+(?:\[\d+\](?:\.[a-z_-]+(?:\[\d+\])?)*|(?:\.[a-z_-]+(?:\[\d+\])?)+)")
_PATH_IN_BRACKETS = re.compile(r"\s*\(" + _PATH.pattern + r"\)")
#: A reference to donjon's notes on the rulebooks, in brackets: "(game-facts 2(c))", "(see game-facts 1(b))".
_NOTE = re.compile(r"\s*\((?:see )?game-facts [^()]*(?:\([^()]*\))?\)")


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


def table_from_game(game: Mapping[str, Any], hints: TableHints) -> tuple[dict[str, Any], list[str],
                                                                         list[dict[str, Any]], list[str],
                                                                         dict[str, Any]]:
    """A saved game as a table again (options, seat names, parts, team, shared fields): :func:`end_state`
    undone, so that a correction is entered with the same controls as the game was."""
    state = dict(game["end_state"])
    options = {k: state[k] for k in hints.options if k in state}
    shared = {k: state[k] for k in hints.shared if k in state}
    names: list[str] = []
    parts: list[dict[str, Any]] = []
    if hints.parts:
        for part in state.get(hints.parts, []):
            names.append(str(part.get(hints.part_name, "")))
            parts.append({k: v for k, v in part.items() if k != hints.part_name})
    return options, names, parts, list(game.get("team", [])), shared


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
    #: the language it is shown in (its labels, messages and choices)
    lang: Language = field(default_factory=lambda: language())
    #: a poll's answer drawn of this version, by the seat shown and whether the forms are drawn whole (app.live)
    polled: dict[tuple[int | None, bool], str] = field(default_factory=dict)

    @property
    def result(self) -> dict[str, Any] | None:
        return self.scored.result

    @cached_property
    def labels(self) -> dict[str, str]:
        """The game's labels of its fields in the view's language (how the totals name each part's points)."""
        from generator.games.table import result_labels

        return result_labels(self.hints, self.builder.catalog, self.lang)

    @property
    def saveable(self) -> bool:
        result = self.scored.result
        return bool(result and result["valid"] and result["finished"] and self.scored.end_missing is None
                    and self.table.game_id is None)

    @cached_property
    def untouched(self) -> list[str]:
        """The players whose part is still as the table was set (nobody entered anything there)."""
        if not self.hints.parts:
            return []
        first = initial_part(self.builder.spec, self.hints)
        return [p.name for p in self.table.parts if p.data == first]

    @property
    def provisional(self) -> bool:
        """The totals shown are provisional: a rule is broken, and they are what the rules give with it aside."""
        result = self.scored.result
        return bool(result is not None and not result["valid"] and self.scored.provisional)

    @property
    def winner(self) -> str | None:
        """The winner the table shows: none while the game has not shown its end (no castle sheet has the end
        Cloud), though a file of the same sheets names the leader."""
        result = self.scored.result
        return None if result is None or self.scored.end_missing else result["winner"]

    def shown_name(self, name: str) -> str:
        """A result's player as the table names them: a cooperative game's one entry is the team."""
        return self.lang._(messages.THE_TEAM) if not self.hints.parts and self.table.team else name

    def seat_of(self, name: str) -> int | None:
        return next((i for i, p in enumerate(self.table.parts) if p.name == name), None)

    def label_of(self, where: str) -> str:
        """A message's `where` in the players' words: the label of the form's control it falls within, and whose
        part it is ("Ana: VP cards bought"); "" for the whole game."""
        best: Control | None = None
        for controls in self.controls.values():
            for control in _flat(controls):
                if where == control.where or where.startswith(control.where + ".") or \
                        where.startswith(control.where + "["):
                    if best is None or len(control.where) > len(best.where):
                        best = control
        label = best.label if best is not None else ""
        if best is not None and best.rows and where.startswith(best.where + "."):
            row = where[len(best.where) + 1:].split(".", 1)[0].split("[", 1)[0]
            label = next((f"{label}, {shown}" for value, shown in best.rows if value == row), label)
        if self.hints.parts and where.startswith(f"{self.hints.parts}["):
            index = where[len(self.hints.parts) + 1:].split("]", 1)[0]
            if index.isdecimal() and int(index) < len(self.table.parts):
                name = self.table.parts[int(index)].name
                return said(self.lang, messages.LABELLED, label=name, value=label) if label else name
        return label

    def in_words(self, text: str) -> str:
        """A scorer's message in the players' words: each path it names (`sheets[0].guests[0]`) as the form's
        label ("Ana: Guests"), and references to donjon's own notes (`game-facts 2(c)`) left out: they are the
        JSON API's, not a player's."""
        text = _NOTE.sub("", text)
        text = _PATH_IN_BRACKETS.sub("", text)  # the sentence names it already ("already in Ana's castle")
        return _PATH.sub(lambda found: self.label_of(found.group(0)) or found.group(0), text)

    def player_messages(self, seat: int) -> list[dict[str, str]]:
        """The broken rules and warnings within a player's part (shown on that player's card of the totals)."""
        prefix = f"{self.hints.parts}[{seat}]"
        out = []
        for kind, found in (("violation", self.violations), ("warning", self.warnings)):
            for slot, items in found.items():
                if slot == prefix or slot.startswith(prefix + ".") or slot.startswith(prefix + "["):
                    out += [{**m, "kind": kind} for m in items]
        return out

    def questions(self) -> list[dict[str, Any]]:
        """What the table is asked rather than told: whose turn ended the game, only where the scorer cannot tell
        (end-states.md, Guildhall rule 9: one player at 20 VP or more ended it, and nobody needs to say so; two
        or more is a broken rule, and the answer says whose part is wrong). Each: the control, the score it is
        asked from and the players who have it."""
        out = []
        for control in self.controls.get(None, []):
            if control.kind != "player" or control.value or control.ask_from is None:
                continue
            reached = [p for p in self.ranked() if p["score"] >= control.ask_from]
            if len(reached) > 1:
                out.append({"control": control, "score": control.ask_from, "players": reached})
        return out

    def seat_controls(self, seat: int) -> list[Control]:
        return self.controls[seat]

    def shared_controls(self) -> list[Control]:
        return self.controls[None]

    def seat_hash(self, seat: int | None) -> str:
        """What a page's forms show (its part, the shared fields, whether they still take taps): a page whose hash
        differs from the table's is sent its forms whole by its next poll. The table saved is in it, so that a phone
        left open on a table another phone saved is drawn locked, not left with controls that look live."""
        part = next((p.data for p in self.table.parts if p.seat == seat), None)
        return data_hash(part, self.table.shared, self.table.game_id is not None)

    def ranked(self) -> list[dict[str, Any]]:
        """The players by place: the result's, or the provisional totals while a rule is broken."""
        return self._ranked

    @cached_property
    def _ranked(self) -> list[dict[str, Any]]:  # once per table version: every page and live update shows it
        result = self.scored.result
        if not result:
            return []
        players = result["players"] or (self.scored.provisional if not result["valid"] else [])
        return sorted(players, key=lambda p: (p["place"], p["name"]))

    def messages_of(self, prefix: str) -> tuple[int, int]:
        """How many violations and warnings fall within a part (`players[1]`)."""
        def count(found: Mapping[str, list[dict[str, str]]]) -> int:
            return sum(len(v) for k, v in found.items() if k == prefix or k.startswith(prefix + ".")
                       or k.startswith(prefix + "["))
        return count(self.violations), count(self.warnings)


def _flat(controls: Sequence[Control]) -> list[Control]:
    out: list[Control] = []
    for control in controls:
        out.append(control)
        for item in control.items:
            out += _flat(item)
    return out


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
        self._cache: OrderedDict[tuple[int, int, int, str], TableView] = OrderedDict()
        self._builders: OrderedDict[tuple[str, str, tuple[str, ...], str], FormBuilder] = OrderedDict()
        self._lock = threading.Lock()

    def builder(self, game: str, options: Mapping[str, Any], players: Sequence[str],
                lang: Language | None = None) -> FormBuilder:
        """A table's form builder: one per game, options, players and language, so that what its widgets give
        (choices, rows, bounds, notes: FormBuilder._given_by) is worked out once, not for every tap."""
        lang = lang or language()
        key = (game, json.dumps(options, sort_keys=True, default=str), tuple(players), lang.code)
        catalog, spec = self.games.catalog(game, lang)
        with self._lock:
            found = self._builders.get(key)
            if found is not None and found.catalog is catalog:  # not a catalog edited since (read again)
                self._builders.move_to_end(key)
                return found
        made = FormBuilder(spec, self.games.hints(game), catalog, options, players, lang)
        with self._lock:
            self._builders[key] = made
            while len(self._builders) > CACHE_SIZE:
                self._builders.popitem(last=False)
        return made

    def view(self, table: GameTable, lang: Language | None = None) -> TableView:
        """The view of a table's version in `lang` (English): computed once per version and language."""
        lang = lang or language()
        # the photos taken too: a photo kept changes no part, but the photo forms' key (GameTable.photo_form_key)
        key = (table.id, table.version, table.photos_taken, lang.code)
        with self._lock:
            found = self._cache.get(key)
            if found is not None:
                self._cache.move_to_end(key)
                return found
        hints = self.games.hints(table.game)
        builder = self.builder(table.game, table.options, table.names, lang)
        state = end_state(table, hints)
        scored = self.games.score(state, lang)
        if table.corrects is not None and scored.end_missing is not None:
            # a saved game opened again holds the sheets it was saved with, which may be some players' only (a file
            # saved through the API or imported): the end Cloud missing is the file's warning there, as `donjon
            # history edit` takes it, not a save refused for good
            scored = dataclasses.replace(scored, end_missing=None, end_warnings=())
        view = TableView(table, hints, builder, state, scored, controls=_controls(builder, table, hints), lang=lang)
        slots = _slots(view.controls, hints)
        if scored.result is None:
            view.violations = place_messages(scored.problems, slots)
        else:
            view.violations = place_messages(scored.result["violations"], slots)
            view.warnings = place_messages(scored.table_warnings, slots)
            players = scored.result["players"] or scored.provisional
            view.inferred = {p["name"]: dict(p["inferred"]) for p in players if p.get("inferred")}
        for by_slot in (view.violations, view.warnings):
            for items in by_slot.values():
                for message in items:  # in words, and labelled, once per table version
                    message["message"] = view.in_words(message.get("message", ""))
                    message["label"] = view.label_of(message["where"]) if message.get("where") else ""
                    if message.get("source"):
                        message["source"] = _NOTE.sub("", message["source"])
        with self._lock:
            self._cache[key] = view
            # a poll is answered from the table's newest view only: the answers kept with its older ones (up to some
            # 140 kB a version of a four-player castle, forms drawn whole and not, 9 MB over CACHE_SIZE versions) are
            # let go, their views kept for a page still drawing from them
            for (table_id, version, photos, _), older in self._cache.items():
                if table_id == table.id and (version, photos) < (table.version, table.photos_taken):
                    older.polled.clear()
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return view
