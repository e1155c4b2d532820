"""Guildhall (AEG): the Old World Economy and Job Faire sets, their profession and VP cards, and the scoring of
an end state by the rules of rulebooks 002 and 003.

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
    from generator.games.guildhall.catalog import Guildhall
    from generator.games.guildhall.end_state import GuildhallEndState
    from generator.games.table import TableHints
    from generator.reference.document import Block
    from generator.reference.sources import Sources
    from scoring.findings import Findings
    from scoring.result import Result


#: The catalogs a deck of the game can draw its cards from (game.yaml `decks[].cards`).
DECK_SOURCES: tuple[str, ...] = ("professions", "vp-cards", "vp-tokens")


class GuildhallGame(NoScoreSheets):
    id = "guildhall"
    name = "Guildhall"
    schema_prefix = "guildhall"
    deck_sources: tuple[str, ...] = DECK_SOURCES

    def catalog_type(self) -> type[Guildhall]:
        from generator.games.guildhall.catalog import Guildhall

        return Guildhall

    def load(self, reader: CatalogReader) -> Guildhall | None:
        from generator.games.guildhall.catalog import load

        return load(reader)

    def summary(self, catalog: Guildhall) -> Mapping[str, int | str]:
        from generator.games.guildhall.catalog import summary

        return summary(catalog)

    def catalog_schemas(self) -> Mapping[str, tuple[str, Type[Any]]]:
        from generator.games.guildhall.catalog import schemas

        return schemas()

    def cards(self, catalog: Guildhall, deck: DeckSpec) -> Iterable[Card]:
        from generator.games.guildhall.decks import cards

        return cards(catalog, deck)

    def reference(self, catalog: Guildhall, sources: Sources) -> list[Block]:
        from generator.games.guildhall.reference import body

        return body(catalog, sources)

    def end_state(self, catalog: Guildhall) -> Record[GuildhallEndState]:
        from generator.games.guildhall.end_state import spec

        return spec(catalog)

    def score(self, state: GuildhallEndState, catalog: Guildhall, found: Findings, source: str) -> Result:
        from generator.games.guildhall.rules import score

        return score(state, catalog, found, source)

    def table_hints(self) -> TableHints:
        from generator.games.guildhall.table import HINTS

        return HINTS


GAME: Game[Guildhall, GuildhallEndState] = GuildhallGame()
