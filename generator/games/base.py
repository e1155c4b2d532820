"""What a game is to donjon: the contract every game package fulfils, written once as a typing Protocol.

A game package (`generator/games/guildhall/`, ...) holds everything donjon knows and does about one game: its
catalog records and how they are loaded (`catalog`), which catalog entries become the cards of its decks
(`decks`), the body of its card reference (`reference`), its end-state format (`end_state`) and its rules
(`rules`), and, for a game played on paper, its score sheets. Its `__init__` defines `GAME`, an object of this
protocol whose methods import those modules only when called, so that listing the games costs nothing.

The protocol is generic in the game's catalog `C` and its parsed end state `S`: mypy checks that a game's
format builds the very record its rules take, and that every method gets the catalog it expects. The registry
(`generator.registry`) holds the games; everything else reaches a game through it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from generator.catalog.common import DeckSpec, GameInfo
    from generator.catalog.deck import Card
    from generator.catalog.reader import CatalogReader
    from generator.errors import Problem
    from generator.fields import Record, Type
    from generator.reference.document import Block
    from generator.reference.sources import Sources
    from generator.render.model import Page
    from generator.yamlio import Document
    from scoring.findings import Findings
    from scoring.result import Result


class GameCatalog(Protocol):
    """What every game's catalog has: the game itself (names, players, rulebooks) and its decks."""

    @property
    def info(self) -> GameInfo: ...


C = TypeVar("C", bound=GameCatalog)
S = TypeVar("S")


@dataclass(frozen=True)
class ScoreSheetFile:
    """A printable score sheet a game offers (`OUT/score-sheets/GAME/NAME.pdf`): its PDF metadata and its page, drawn when the
    build writes it."""

    #: the file name without its suffix
    name: str
    #: the PDF's title and subject (metadata)
    title: str
    subject: str
    #: what the build's report says it wrote
    what: str
    page: Callable[[], Page]


class SheetsRead(Protocol):
    """Filled score sheets read back (PDF forms, later photos): the end state they make, and how to name the
    sheet and field each value came from in messages."""

    @property
    def document(self) -> Document: ...

    def problem(self, problem: Problem) -> Problem:
        """A problem of the end state, said in terms of the sheets (file and form field)."""

    def where(self, path: str) -> str:
        """The sheet and field an end-state path (`sheets[0].towers[1]`) came from, or ""."""


class Game(Protocol[C, S]):
    """One game donjon prints and scores."""

    #: the id of the game: its content folder, its `game:` key in end states, its output folder
    id: str
    #: its name as people write it
    name: str
    #: the prefix of its published JSON Schemas (`castle` for castle-components.schema.json)
    schema_prefix: str
    #: the catalogs a deck of the game can draw its cards from (game.yaml `decks[].cards`)
    deck_sources: tuple[str, ...]
    #: suffixes of files holding filled score sheets of this game (`.pdf`), scored as one game together
    sheet_suffixes: tuple[str, ...]

    # --- the catalog ---

    def catalog_type(self) -> type[C]:
        """The class of the game's catalog (imported when asked: listing the games imports no catalog)."""

    def load(self, reader: CatalogReader) -> C | None:
        """Load the catalog from a game folder (None when it has problems, all recorded by the reader)."""

    def summary(self, catalog: C) -> Mapping[str, int | str]:
        """The size of each part of the catalog, for `donjon content list`."""

    def catalog_schemas(self) -> Mapping[str, tuple[str, Type[Any]]]:
        """The JSON Schema of each catalog file: schema name -> (title, spec)."""

    # --- what is printed ---

    def cards(self, catalog: C, deck: DeckSpec) -> Iterable[Card]:
        """The cards of one of the game's decks, in print order."""

    def reference(self, catalog: C, sources: Sources) -> list[Block]:
        """The body of the game's card reference (the build adds the title page and the Sources section)."""

    def score_sheets(self, catalog: C) -> Sequence[ScoreSheetFile]:
        """The score sheets `donjon build` writes for the game (none for most games)."""

    # --- scoring ---

    def end_state(self, catalog: C) -> Record[S]:
        """The end-state format, with the names the catalog knows (professions, guests, series...)."""

    def score(self, state: S, catalog: C, found: Findings, source: str) -> Result:
        """Check every rule on a parsed end state and score it (or report the broken rules)."""

    def read_sheets(self, files: Sequence[tuple[bytes, str]]) -> SheetsRead:
        """Filled score sheets (bytes and display name each) as one end state of the game."""


class NoScoreSheets:
    """What a game without score sheets of its own says: it prints none and reads none back."""

    sheet_suffixes: tuple[str, ...] = ()

    def score_sheets(self, catalog: object) -> Sequence[ScoreSheetFile]:
        return ()

    def read_sheets(self, files: Sequence[tuple[bytes, str]]) -> SheetsRead:
        from generator.errors import InputError

        raise InputError(files[0][1] if files else "<sheets>", "this game has no score sheet donjon can read")
