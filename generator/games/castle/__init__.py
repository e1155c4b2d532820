"""Once Upon a Castle (Blue Orange): the guests of both versions, the castle score sheet and the scoring of the
sheets of one game by the rules of rulebook 004.

Modules: :mod:`~.catalog` (records and loading), :mod:`~.decks` (the guest cards), :mod:`~.reference` (the card
reference), :mod:`~.end_state` (the end-state format), :mod:`~.rules` (the rules and the ranking), :mod:`~.table`
(the table companion's hints) and :mod:`~.sheets` (the score sheet: its layouts in `templates/sheets/`, drawn and
read by the sheet engine, `generator.sheets`, and their fields mapped to the end state). `GAME` is the game as the
registry knows it; its methods import those modules when they are first needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from generator.games.base import Game, ScoreSheetFile, SheetOptions, SheetsRead

if TYPE_CHECKING:
    from generator.catalog.deck import Card
    from generator.catalog.game import DeckSpec
    from generator.catalog.reader import CatalogReader
    from generator.fields import Record, Type
    from generator.games.castle.catalog import Castle
    from generator.games.castle.end_state import CastleEndState
    from generator.games.table import TableHints
    from generator.reference.document import Block
    from generator.reference.sources import Sources
    from scoring.findings import Findings
    from scoring.result import Result


#: The catalogs a deck of the game can draw its cards from (game.yaml `decks[].cards`).
DECK_SOURCES: tuple[str, ...] = ("guests",)


class CastleGame:
    id = "once-upon-a-castle"
    name = "Once Upon a Castle"
    schema_prefix = "castle"
    deck_sources: tuple[str, ...] = DECK_SOURCES
    #: filled score sheets: the fillable PDF donjon prints, and photos of the scan-ready sheet (JPEG, PNG, HEIC)
    sheet_suffixes: tuple[str, ...] = (".pdf", ".jpg", ".jpeg", ".png", ".heic", ".heif")

    def catalog_type(self) -> type[Castle]:
        from generator.games.castle.catalog import Castle

        return Castle

    def load(self, reader: CatalogReader) -> Castle | None:
        from generator.games.castle.catalog import load

        return load(reader)

    def summary(self, catalog: Castle) -> Mapping[str, int | str]:
        from generator.games.castle.catalog import summary

        return summary(catalog)

    def catalog_schemas(self) -> Mapping[str, tuple[str, Type[Any]]]:
        from generator.games.castle.catalog import schemas

        return schemas()

    def cards(self, catalog: Castle, deck: DeckSpec) -> Iterable[Card]:
        from generator.games.castle.decks import cards

        return cards(catalog, deck)

    def reference(self, catalog: Castle, sources: Sources) -> list[Block]:
        from generator.games.castle.reference import body

        return body(catalog, sources)

    def score_sheets(self, catalog: Castle) -> Sequence[ScoreSheetFile]:
        from generator.games.castle.sheets import score_sheets

        return score_sheets(catalog)

    def end_state(self, catalog: Castle) -> Record[CastleEndState]:
        from generator.games.castle.end_state import spec

        return spec(catalog)

    def score(self, state: CastleEndState, catalog: Castle, found: Findings, source: str) -> Result:
        from generator.games.castle.rules import score

        return score(state, catalog, found, source)

    def read_sheets(self, files: Sequence[tuple[bytes, str]], catalog: Castle,
                    options: SheetOptions | None = None) -> SheetsRead:
        from generator.games.castle.sheets import read_sheets

        return read_sheets(files, catalog, options or SheetOptions())

    def table_hints(self) -> TableHints:
        from generator.games.castle.table import HINTS

        return HINTS


GAME: Game[Castle, CastleEndState] = CastleGame()
