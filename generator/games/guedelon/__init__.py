"""Guédelon (Asyncron): the clock, the event cards and the castle's floor tiles, and the result of a game by
the rules of rulebooks 000 (English) and 001 (French).

Modules: :mod:`~.catalog` (records and loading), :mod:`~.decks` (the cards of each deck), :mod:`~.reference`
(the card reference), :mod:`~.end_state` (the end-state format), :mod:`~.rules` (the rules and the ranking).
`GAME` is the game as the registry knows it; its methods import those modules when they are first needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from generator.games.base import Game, NoScoreSheets

if TYPE_CHECKING:
    from generator.catalog.deck import Card
    from generator.catalog.game import DeckSpec
    from generator.catalog.reader import CatalogReader
    from generator.fields import Record, Type
    from generator.games.guedelon.catalog import Guedelon
    from generator.games.guedelon.end_state import GuedelonEndState
    from generator.games.table import TableHints
    from generator.reference.document import Block
    from generator.reference.sources import Sources
    from scoring.findings import Findings
    from scoring.result import Result


#: The catalogs a deck of the game can draw its cards from (game.yaml `decks[].cards`).
DECK_SOURCES: tuple[str, ...] = ("events", "floor-tiles")


class GuedelonGame(NoScoreSheets):
    id = "guedelon"
    name = "Guédelon"
    schema_prefix = "guedelon"
    deck_sources: tuple[str, ...] = DECK_SOURCES

    def catalog_type(self) -> type[Guedelon]:
        from generator.games.guedelon.catalog import Guedelon

        return Guedelon

    def load(self, reader: CatalogReader) -> Guedelon | None:
        from generator.games.guedelon.catalog import load

        return load(reader)

    def summary(self, catalog: Guedelon) -> Mapping[str, int | str]:
        from generator.games.guedelon.catalog import summary

        return summary(catalog)

    def catalog_schemas(self) -> Mapping[str, tuple[str, Type[Any]]]:
        from generator.games.guedelon.catalog import schemas

        return schemas()

    def cards(self, catalog: Guedelon, deck: DeckSpec) -> Iterable[Card]:
        from generator.games.guedelon.decks import cards

        return cards(catalog, deck)

    def reference(self, catalog: Guedelon, sources: Sources) -> list[Block]:
        from generator.games.guedelon.reference import body

        return body(catalog, sources)

    def end_state(self, catalog: Guedelon) -> Record[GuedelonEndState]:
        from generator.games.guedelon.end_state import spec

        return spec(catalog)

    def score(self, state: GuedelonEndState, catalog: Guedelon, found: Findings, source: str) -> Result:
        from generator.games.guedelon.rules import score

        return score(state, catalog, found, source)

    def table_hints(self) -> TableHints:
        from generator.games.guedelon.table import HINTS

        return HINTS


GAME: Game[Guedelon, GuedelonEndState] = GuedelonGame()
