"""Tiny Tower's parts, all in one module (its package's declaration names this module for each of them): a
catalog of one file, one deck, a reference, an end-state format and two rules.

Players stack pieces; each piece scores its points, a player may not stack the same piece twice, and a game
has 1 to 3 players.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from generator.catalog.common import Provenance, sourced
from generator.catalog.deck import Card
from generator.catalog.game import DeckSpec, GameInfo
from generator.catalog.reader import CatalogReader
from generator.fields import Field, Int, ListOf, Record, Slug, Text, Type
from generator.games.table import TableHints
from generator.reference.document import Block, Heading, Para
from generator.reference.sources import Sources
from generator.wording import plural
from scoring.findings import Findings
from scoring.formats import game_key, names
from scoring.result import PlayerScore, Ranking, Standing, ranked_by
from tests.fourth_game import DECK_SOURCES


@dataclass(frozen=True, slots=True)
class Piece:
    id: str
    name: str
    points: int
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class PiecesFile:
    pieces: tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class TinyTower:
    info: GameInfo
    pieces: tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class Stack:
    name: str
    pieces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TinyEndState:
    players: tuple[Stack, ...]


def _pieces_spec() -> Record[PiecesFile]:
    piece = sourced("piece", {"id": Field(Slug()), "name": Field(Text(max_len=40)), "points": Field(Int(0, 9))}, Piece)
    return Record(name="pieces file", fields={"pieces": Field(ListOf(piece, min_items=1))}, build=PiecesFile)


def _end_state(game: str, players: tuple[Stack, ...]) -> TinyEndState:
    return TinyEndState(players)


#: The catalog's class, for the registry.
CATALOG = TinyTower
#: How the format is entered at the table.
HINTS = TableHints(parts="players")


def load(reader: CatalogReader) -> TinyTower | None:
    pieces = reader.read("pieces.yaml", _pieces_spec())
    info = reader.info(DECK_SOURCES, None)
    if pieces is None or info is None:
        return None
    return TinyTower(info, pieces.pieces)


def summary(catalog: TinyTower) -> Mapping[str, int | str]:
    return {"pieces": len(catalog.pieces)}


def schemas() -> Mapping[str, tuple[str, Type[Any]]]:
    return {"tiny-tower-pieces": ("Tiny Tower pieces", _pieces_spec())}


def cards(catalog: TinyTower, deck: DeckSpec) -> Iterable[Card]:
    def made() -> Iterator[Card]:
        for piece in catalog.pieces:
            yield Card(piece.id, piece.name, 2, {"cost": piece.points, "text": f"Worth {piece.points}."},
                       {"piece": piece.provenance})
    return made()


def body(catalog: TinyTower, sources: Sources) -> list[Block]:
    return [Heading("Pieces", 1, "pieces"), *(Para(f"{p.name}: {plural(p.points, 'point')}") for p in catalog.pieces)]


def spec(catalog: TinyTower) -> Record[TinyEndState]:
    stack: Record[Stack] = Record(name="player", fields={
        "name": Field(Text(max_len=40)),
        "pieces": Field(ListOf(names(tuple(p.id for p in catalog.pieces), "piece"))),
    }, build=Stack)
    return Record(name="Tiny Tower end state", fields={
        "game": game_key("tiny-tower"), "players": Field(ListOf(stack, max_items=100)),
    }, build=_end_state)


def check(state: TinyEndState, catalog: TinyTower, found: Findings) -> Standing:
    # Rule 1: 1 to 3 players.
    if not 1 <= len(state.players) <= 3:
        found.add(1, ("players",), f"has {plural(len(state.players), 'player')}; Tiny Tower is for 1 to 3")
    # Rule 2: a piece is stacked once per tower.
    for index, player in enumerate(state.players):
        for position, piece in enumerate(player.pieces):
            if piece in player.pieces[:position]:
                found.add(2, ("players", index, "pieces", position), f"stacks {piece} a second time")
    return Standing(finished=True)


def rank(state: TinyEndState, catalog: TinyTower) -> Ranking:
    points = {p.id: p.points for p in catalog.pieces}
    totals = [sum(points[p] for p in player.pieces) for player in state.players]
    places = ranked_by([(t,) for t in totals])
    winner = next(p.name for p, place in zip(state.players, places, strict=True) if place == 1)
    scores = tuple(PlayerScore(p.name, totals[i], places[i], (("pieces", totals[i]),))
                   for i, p in enumerate(state.players))
    return Ranking(scores, winner, f"winner: {winner}")
