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
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from generator.catalog.deck import Card
    from generator.catalog.game import DeckSpec, GameInfo
    from generator.catalog.reader import CatalogReader
    from generator.errors import Problem
    from generator.fields import Record, Type
    from generator.games.table import TableHints
    from generator.reference.document import Block
    from generator.reference.sources import Sources
    from generator.render.model import Page
    from generator.yamlio import Document
    from scoring.findings import Findings
    from scoring.result import Result, Uncertain


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
    #: files written beside the sheet: each its suffix after the sheet's name, what the report calls it, and its
    #: bytes (made when written); the map of marks of a scan-ready sheet (`.marks.json`)
    beside: tuple[tuple[str, str, Callable[[], bytes]], ...] = ()


@dataclass(frozen=True)
class SheetOptions:
    """How filled score sheets are read (`donjon score` options, the companion's corrections)."""

    #: the players' names, in the order of the sheets (a photo's name box is not read); empty: the sheets' own
    names: tuple[str, ...] = ()
    #: values a person confirmed: (`towers[1]` or `sheets[1].towers[1]`, `5`), as `--set KEY=VALUE` gives them
    confirmed: tuple[tuple[str, str], ...] = ()
    #: a folder to write each photo into with what was read drawn over it, and its name box cropped
    annotate: Path | None = None


class SheetsRead(Protocol):
    """Filled score sheets read back (PDF forms, photos): the end state they make, how to name the sheet and
    field each value came from in messages, and the values read from photos that wait for a person's word."""

    @property
    def document(self) -> Document: ...

    @property
    def uncertain(self) -> tuple[Uncertain, ...] | None:
        """Values read from photos that a person must confirm (empty: none); None when no photo was read."""

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

    def read_sheets(self, files: Sequence[tuple[bytes, str]], catalog: C,
                    options: SheetOptions | None = None) -> SheetsRead:
        """Filled score sheets (bytes and display name each) as one end state of the game."""

    # --- at the table ---

    def table_hints(self) -> TableHints:
        """How the end-state format is entered at the table (`donjon serve`): parts, options, better controls."""


class NoScoreSheets:
    """What a game without score sheets of its own says: it prints none and reads none back."""

    sheet_suffixes: tuple[str, ...] = ()

    def score_sheets(self, catalog: object) -> Sequence[ScoreSheetFile]:
        return ()

    def read_sheets(self, files: Sequence[tuple[bytes, str]], catalog: object,
                    options: SheetOptions | None = None) -> SheetsRead:
        from generator.errors import InputError

        raise InputError(files[0][1] if files else "<sheets>", "this game has no score sheet donjon can read")
