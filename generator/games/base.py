"""What a game is to donjon: the contract every game package fulfils, and the declaration that fulfils it.

A game package (`generator/games/guildhall/`, ...) holds everything donjon knows and does about one game: its
catalog records and how they are loaded (`catalog`), which catalog entries become the cards of its decks
(`decks`), the body of its card reference (`reference`), its end-state format (`end_state`) and its rules
(`rules`), how the format is entered at the table (`table`), and, for a game played on paper, its score sheets.
Its `__init__` declares the game once (:class:`Declared`): its id, its name and the modules that hold its parts,
by name. The declaration fulfils :class:`Game` by importing a part's module when it is first used, so that listing
the games costs nothing; what each module must define is a protocol here (:class:`CatalogPart`,
:class:`RulesPart`...), and :class:`Parts`, checked by mypy in each package, says that the modules a game names
define them for its catalog and its end state.

The protocol is generic in the game's catalog `C` and its parsed end state `S`: mypy checks that a game's
format builds the very record its rules take, and that every method gets the catalog it expects. The registry
(`generator.registry`) holds the games; everything else reaches a game through it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

if TYPE_CHECKING:
    from generator.catalog.deck import Card
    from generator.catalog.game import DeckSpec, GameInfo
    from generator.catalog.reader import CatalogReader
    from generator.errors import Problem
    from generator.fields import Record, Type
    from generator.i18n import Language
    from generator.games.table import TableHints
    from generator.reference.document import Block
    from generator.reference.sources import Sources
    from generator.render.model import Page
    from generator.yamlio import Document
    from scoring.findings import Findings
    from scoring.result import Ranking, Standing, Uncertain, Unread


class GameCatalog(Protocol):
    """What every game's catalog has: the game itself (names, players, rulebooks) and its decks."""

    @property
    def info(self) -> GameInfo: ...


C = TypeVar("C", bound=GameCatalog)
S = TypeVar("S")


def scan_what(what: str) -> str:
    """What the build's report calls a scan-ready sheet to print (`castle score sheet, Classic, A4, to print
    (scan-ready)`), in the language of its messages."""
    from generator.i18n import phrase

    # TRANSLATORS: a score sheet a build wrote; {what} is the sheet and its paper
    return phrase("{what}, to print (scan-ready)", what=what)


def svg_what(scan: str) -> str:
    """What the report calls the SVG of the scan-ready sheet `scan` (:func:`scan_what`): the sheet, `as SVG`."""
    from generator.i18n import phrase

    head, _, tail = scan_what("\0").partition("\0")
    return phrase("{what}, as SVG", what=scan.removeprefix(head).removesuffix(tail))


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
    #: the language it is written in (the PDF says it)
    lang: str = "en"
    #: also written as an SVG (`NAME.svg`) when the build's formats include svg: the sheets to print; a fillable
    #: sheet's form fields are PDF only, so it is not
    svg: bool = False


@dataclass(frozen=True)
class SheetOptions:
    """How filled score sheets are read (`donjon score` options, the companion's corrections)."""

    #: the players' names, in the order of the sheets (a photo's name box is not read); empty: the sheets' own
    names: tuple[str, ...] = ()
    #: values a person confirmed: (`towers[1]` or `sheets[1].towers[1]`, `5`), as `--set KEY=VALUE` gives them
    confirmed: tuple[tuple[str, str], ...] = ()
    #: a folder to write each photo into with what was read drawn over it, and its name box cropped
    annotate: Path | None = None
    #: a photo given alone that cannot be read is listed under `unread`, as one of several is, rather than raised:
    #: `donjon score --json` gives a JSON reader its reason code whatever the number of photos
    unread_alone: bool = False
    #: the language a `--set` that cannot be taken is refused in (`donjon score --lang`); English when None
    lang: Language | None = None


class SheetsRead(Protocol):
    """Filled score sheets read back (PDF forms, photos): the end state they make, how to name the sheet and
    field each value came from in messages, and the values read from photos that wait for a person's word."""

    @property
    def document(self) -> Document: ...

    @property
    def uncertain(self) -> tuple[Uncertain, ...] | None:
        """Values read from photos that a person must confirm (empty: none); None when no photo was read."""

    @property
    def unread(self) -> tuple[Unread, ...]:
        """The files of several that could not be read (the others read all the same); empty when all were."""

    @property
    def combined(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The sheets read from several photos of them: each player's name and the photos (empty: none)."""

    @property
    def lang(self) -> str | None:
        """The language the sheets say they are printed in (a fillable PDF's /Lang: `de`), or None."""

    def problem(self, problem: Problem, lang: Language | None = None) -> Problem:
        """A problem of the end state, said in terms of the sheets (file and form field, named in `lang`)."""

    def where(self, path: str, lang: Language | None = None) -> str:
        """The sheet and field an end-state path (`sheets[0].towers[1]`) came from (named in `lang`), or ""."""


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
    #: the titles its editions in other languages are sold under, which their players write in `game:` (the French
    #: "Oh mon château"), each a fact with its source where it is declared
    titles: tuple[str, ...]

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

    def check(self, state: S, catalog: C, found: Findings) -> Standing:
        """Check every rule on a parsed end state, reporting each broken rule and warning to `found`, and say how
        the game stands (shown whether or not the file keeps the rules)."""

    def rank(self, state: S, catalog: C, lang: Language | None = None) -> Ranking:
        """Score and rank an end state that keeps every rule; its summary in `lang` (English)."""

    def read_sheets(self, files: Sequence[tuple[bytes, str]], catalog: C,
                    options: SheetOptions | None = None) -> SheetsRead:
        """Filled score sheets (bytes and display name each) as one end state of the game."""

    # --- at the table ---

    def table_hints(self) -> TableHints:
        """How the end-state format is entered at the table (`donjon serve`): parts, options, better controls."""


# --- what the modules of a game package define (for mypy: nothing here is needed at run time) ------------------

if TYPE_CHECKING:
    #: a part takes the game's catalog (and end state): one written for a wider type fits a narrower game
    C_in = TypeVar("C_in", bound=GameCatalog, contravariant=True)
    S_in = TypeVar("S_in", contravariant=True)

    class CatalogPart(Protocol[C]):
        """A game's `catalog` module."""

        #: the class of the catalog `load` makes
        CATALOG: type[C]

        def load(self, reader: CatalogReader) -> C | None: ...

        def summary(self, catalog: C) -> Mapping[str, int | str]: ...

        def schemas(self) -> Mapping[str, tuple[str, Type[Any]]]: ...

    class DecksPart(Protocol[C_in]):
        """A game's `decks` module."""

        def cards(self, catalog: C_in, deck: DeckSpec) -> Iterable[Card]: ...

    class ReferencePart(Protocol[C_in]):
        """A game's `reference` module."""

        def body(self, catalog: C_in, sources: Sources) -> list[Block]: ...

    class FormatPart(Protocol[C_in, S]):
        """A game's `end_state` module: the format, built with the names its catalog knows."""

        def spec(self, catalog: C_in) -> Record[S]: ...

    class RulesPart(Protocol[C_in, S_in]):
        """A game's `rules` module."""

        def check(self, state: S_in, catalog: C_in, found: Findings) -> Standing: ...

        def rank(self, state: S_in, catalog: C_in) -> Ranking: ...

    class TablePart(Protocol):
        """A game's `table` module."""

        HINTS: TableHints

    class ScoreSheetsPart(Protocol[C_in]):
        """The module of the score sheets a game prints."""

        def score_sheets(self, catalog: C_in) -> Sequence[ScoreSheetFile]: ...

    class FilledSheetsPart(Protocol[C_in]):
        """The module that reads a game's filled score sheets back."""

        def read_sheets(self, files: Sequence[tuple[bytes, str]], catalog: C_in,
                        options: SheetOptions) -> SheetsRead: ...

    @dataclass(frozen=True)
    class Parts(Generic[C, S]):
        """A game's modules themselves, for mypy only: a package writes `Parts[Catalog, EndState](catalog, ...)`
        under `TYPE_CHECKING`, so mypy checks that the modules its declaration names define its parts for that
        catalog and that end state (the format builds the very record the rules take)."""

        catalog: CatalogPart[C]
        decks: DecksPart[C]
        reference: ReferencePart[C]
        end_state: FormatPart[C, S]
        rules: RulesPart[C, S]
        table: TablePart
        score_sheets: ScoreSheetsPart[C] | None = None
        filled_sheets: FilledSheetsPart[C] | None = None


class Modules(NamedTuple):
    """The modules that hold a game's parts, by dotted name: see the protocols above for what each defines."""

    catalog: str
    decks: str
    reference: str
    end_state: str
    rules: str
    table: str
    #: the score sheets the game prints, and reading filled ones back (None: it has none)
    score_sheets: str | None = None
    filled_sheets: str | None = None


class Declared(Generic[C, S]):
    """A game declared by its package: id, name, and the modules that hold its parts. Each module is imported when
    one of its parts is first used (listing the games imports none of them)."""

    __slots__ = ("deck_sources", "id", "modules", "name", "schema_prefix", "sheet_suffixes", "titles")

    def __init__(self, id: str, name: str, *, deck_sources: tuple[str, ...], modules: Modules,  # noqa: A002
                 schema_prefix: str = "", sheet_suffixes: tuple[str, ...] = (), titles: tuple[str, ...] = ()
                 ) -> None:
        """`deck_sources`: the catalogs a deck of the game can draw its cards from (game.yaml `decks[].cards`);
        `schema_prefix`: of its published JSON Schemas (default: the id); `sheet_suffixes`: of the files holding
        its filled score sheets, read by `modules.filled_sheets`; `titles`: its editions' titles in other
        languages."""
        self.id = id
        self.name = name
        self.deck_sources = deck_sources
        self.modules = modules
        self.schema_prefix = schema_prefix or id
        self.sheet_suffixes = sheet_suffixes
        self.titles = titles

    def __repr__(self) -> str:
        return f"Declared({self.id!r})"

    def catalog_type(self) -> type[C]:
        found: type[C] = import_module(self.modules.catalog).CATALOG
        return found

    def load(self, reader: CatalogReader) -> C | None:
        found: C | None = import_module(self.modules.catalog).load(reader)
        return found

    def summary(self, catalog: C) -> Mapping[str, int | str]:
        found: Mapping[str, int | str] = import_module(self.modules.catalog).summary(catalog)
        return found

    def catalog_schemas(self) -> Mapping[str, tuple[str, Type[Any]]]:
        found: Mapping[str, tuple[str, Type[Any]]] = import_module(self.modules.catalog).schemas()
        return found

    def cards(self, catalog: C, deck: DeckSpec) -> Iterable[Card]:
        found: Iterable[Card] = import_module(self.modules.decks).cards(catalog, deck)
        return found

    def reference(self, catalog: C, sources: Sources) -> list[Block]:
        found: list[Block] = import_module(self.modules.reference).body(catalog, sources)
        return found

    def score_sheets(self, catalog: C) -> Sequence[ScoreSheetFile]:
        if self.modules.score_sheets is None:
            return ()
        found: Sequence[ScoreSheetFile] = import_module(self.modules.score_sheets).score_sheets(catalog)
        return found

    def end_state(self, catalog: C) -> Record[S]:
        found: Record[S] = import_module(self.modules.end_state).spec(catalog)
        return found

    def check(self, state: S, catalog: C, found: Findings) -> Standing:
        standing: Standing = import_module(self.modules.rules).check(state, catalog, found)
        return standing

    def rank(self, state: S, catalog: C, lang: Language | None = None) -> Ranking:
        rules = import_module(self.modules.rules)
        # a game's rules written before summaries were said in a language take no `lang`: English, as they were
        found: Ranking = (rules.rank(state, catalog) if lang is None or lang.english
                          else rules.rank(state, catalog, lang=lang))
        return found

    def read_sheets(self, files: Sequence[tuple[bytes, str]], catalog: C,
                    options: SheetOptions | None = None) -> SheetsRead:
        if self.modules.filled_sheets is None:
            from generator.errors import InputError

            raise InputError(files[0][1] if files else "<sheets>", "this game has no score sheet donjon can read")
        found: SheetsRead = import_module(self.modules.filled_sheets).read_sheets(files, catalog,
                                                                                   options or SheetOptions())
        return found

    def table_hints(self) -> TableHints:
        found: TableHints = import_module(self.modules.table).HINTS
        return found
