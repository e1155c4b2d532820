"""Load a content folder into typed, immutable records. Nothing downstream reads raw YAML.

A content folder holds game folders (one per registered game, named by its id, each with a `game.yaml`), user
deck folders (any folder with a `deck.yaml`) and sheets of one's own (any folder with a `sheet.yaml`); a folder
with a `deck.yaml` or a `sheet.yaml` at its top is a single deck or sheet. The shipped content is `content/` at
the top of the repository; `--content DIR` replaces it. A sheet of one's own is registered as a game
(`generator.games.sheet_game`) when its folder is loaded, so that it is built, scored and played at the table like
one.

Checking is exhaustive: :func:`check_content` returns every problem of every file (unknown keys, wrong types,
duplicate ids, dangling references, counts that disagree across files), each with its file, line and entry.
Each game loads its own files (its package's `load`); this module finds the folders, asks the registry which
game each one is, and holds what was loaded by game id.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from generator.errors import ContentError, FitError, Problem, UsageError
from generator.i18n import phrase
from generator.sayings import quote
from generator.registry import find_game, game_ids
from generator.resources import content_dir, display_path

if TYPE_CHECKING:
    from generator.catalog.deck import Deck
    from generator.catalog.userdeck import UserDeck
    from generator.games.base import Game, GameCatalog

C = TypeVar("C", bound="GameCatalog")
#: An empty mapping, the default of mappings given to records and never mutated.
_NONE: Mapping[str, Any] = MappingProxyType({})


class Content:
    """A loaded content folder: the catalogs of the games it holds, by game id, and the user's own decks."""

    __slots__ = ("root", "catalogs", "user_decks", "folders")

    root: Path
    catalogs: Mapping[str, GameCatalog]
    user_decks: tuple[UserDeck, ...]
    #: game id -> the folder it was loaded from
    folders: Mapping[str, Path]

    def __init__(self, root: Path, catalogs: Mapping[str, GameCatalog] = _NONE, user_decks: tuple[UserDeck, ...] = (),
                 folders: Mapping[str, Path] = _NONE) -> None:
        self.root = root
        self.catalogs = catalogs
        self.user_decks = user_decks
        self.folders = folders

    def games(self) -> tuple[GameCatalog, ...]:
        """The loaded catalogs, in the registry's order."""
        return tuple(self.catalogs[g] for g in game_ids() if g in self.catalogs)

    def game(self, game_id: str) -> GameCatalog:
        """The catalog of one game; a folder without it is an error naming what it does hold."""
        found = self.catalogs.get(game_id)
        if found is None:
            held = ", ".join(g.info.id for g in self.games()) or "no game"
            raise UsageError(display_path(self.root), f"holds no {game_id} catalog (it holds {held})")
        return found

    def catalog(self, game: Game[C, Any]) -> C:
        """The catalog of `game`, typed as that game's catalog (an error when the folder does not hold it)."""
        found = self.game(game.id)
        expected = game.catalog_type()
        if not isinstance(found, expected):
            raise TypeError(f"the {game.id} catalog is a {type(found).__name__}, not a {expected.__name__}")
        return found

    def get(self, game: Game[C, Any]) -> C | None:
        """The catalog of `game`, or None when the folder does not hold it."""
        return self.catalog(game) if game.id in self.catalogs else None

    def decks(self) -> list[Deck]:
        """The games' decks, then the user's own decks."""
        return all_decks(self)


def load_game(folder: Path, game_id: str, root: Path) -> tuple[GameCatalog | None, list[Problem]]:
    """Load one game folder of the content folder `root`: the catalog, or None and every problem found."""
    from generator.catalog.reader import CatalogReader

    reader = CatalogReader(folder, game_id, game_ids(), root)
    catalog = find_game(game_id).load(reader)
    return (catalog if reader.ok else None), reader.problems


def _scan(root: Path) -> tuple[list[tuple[str, Path]], list[Path], list[Path], list[Problem]]:
    """The game folders, deck folders and sheet folders below `root`."""
    if not root.exists():
        raise UsageError(display_path(root), "no such content folder")
    if not root.is_dir():
        raise UsageError(display_path(root), "is a file; --content wants a folder")
    problems: list[Problem] = []
    if (root / "deck.yaml").is_file():
        return [], [] if _linked_outside(root, root / "deck.yaml", problems) else [root], [], problems
    if (root / "sheet.yaml").is_file():
        return [], [], [] if _linked_outside(root, root / "sheet.yaml", problems) else [root], problems
    known = game_ids()
    found_games: list[tuple[str, Path]] = []
    decks: list[Path] = []
    sheets: list[Path] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        marker = next((folder / name for name in ("game.yaml", "deck.yaml", "sheet.yaml")
                       if (folder / name).is_file()), None)
        if marker is not None and _linked_outside(root, marker, problems):
            continue
        if (folder / "game.yaml").is_file():
            if folder.name not in known:
                problems.append(Problem(display_path(folder / "game.yaml"), None, "",
                                        f"the folder {folder.name!r} is not a game donjon knows "
                                        f"({', '.join(known)}); a deck of your own needs a deck.yaml instead"))
            else:
                found_games.append((folder.name, folder))
        elif (folder / "deck.yaml").is_file():
            decks.append(folder)
        elif (folder / "sheet.yaml").is_file():
            sheets.append(folder)
    if not found_games and not decks and not sheets and not problems:
        problems.append(Problem(display_path(root), None, "", "holds no game folder (with a game.yaml), no deck "
                                                              "folder (with a deck.yaml) and no sheet folder (with a "
                                                              "sheet.yaml)"))
    return found_games, decks, sheets, problems


def _linked_outside(root: Path, path: Path, problems: list[Problem]) -> bool:
    """Whether `path` (a folder's deck.yaml, sheet.yaml or game.yaml) or its folder is a link leading outside the
    content folder `root`: refused by name, as every file a deck names is (`files.resolve_within`), so that a deck
    folder shared as an archive cannot make donjon read a file of the builder's home."""
    from generator.files import leads_outside, linked_outside

    link = linked_outside(root, path)
    if link is not None:
        what = "folder" if link.is_dir() else "file"
        problems.append(Problem(display_path(link, link=True), None, "", leads_outside(root.resolve(), what)))
    return link is not None


def _load_sheets(root: Path, folders: list[Path], problems: list[Problem]) -> dict[str, GameCatalog]:
    """The sheets of one's own in `folders`, each registered as a game (see the module's docstring)."""
    from generator.games.sheet_game import SheetGame, catalog_of
    from generator.registry import BUILT_IN, register
    from generator.sheets.draw import MOST_PROBLEMS, STOPPED, SheetFitError
    from generator.sheets.own import load_sheet

    loaded: dict[str, GameCatalog] = {}
    for folder in folders:
        sheet, found = load_sheet(folder, root)
        problems.extend(found)
        if sheet is None:
            continue
        if sheet.id in dict(BUILT_IN) or sheet.id in loaded:
            problems.append(Problem(sheet.origin, None, "id", f"{sheet.id!r} is the id of another game or sheet; "
                                                              "give the sheet another"))
            continue
        game = SheetGame(sheet)
        # drawn once on each variant and paper, in its own language and in each it gives under `languages:`: what
        # cannot be drawn (text too long for its box, a part naming a field the layout lacks) is a problem of the
        # content, found by `content check` too, in the language it is found in. Every problem of every drawing is
        # said, each at its file, line and part, once (the same mistake breaks every paper's drawing), up to
        # MOST_PROBLEMS a sheet; a language whose drawings fail is the last one drawn (its mistakes are the others')
        found_in_drawings: dict[tuple[str, int | None, str, str], str] = {}
        stopped = False
        for code in dict.fromkeys((sheet.lang, *sheet.languages)):
            for paper in sheet.layout.papers:
                for variant in ("scan", "fillable"):
                    try:
                        game.drawn(variant, paper, code)
                    except SheetFitError as err:
                        for p in err.problems:
                            found_in_drawings.setdefault((p.file, p.line, p.where, p.message), f" ({err.what})")
                        stopped = stopped or err.stopped
                    except FitError as err:
                        found_in_drawings.setdefault((sheet.origin, None, "layout", str(err)), "")
            if found_in_drawings:
                language = "" if code == sheet.lang else phrase(" (in {lang})", lang=code)
                problems.extend(Problem(file, line, where, f"{message}{what}{language}") for (file, line, where,
                                message), what in list(found_in_drawings.items())[:MOST_PROBLEMS])
                if stopped or len(found_in_drawings) > MOST_PROBLEMS:
                    problems.append(Problem(sheet.origin, None, "layout", STOPPED.format(n=MOST_PROBLEMS)))
                break
        if found_in_drawings:
            continue
        try:
            register(game)
        except ValueError as err:
            problems.append(Problem(sheet.origin, None, "id", str(err)))
            continue
        loaded[sheet.id] = catalog_of(sheet)
    return loaded


def _load(root: Path, wanted: Iterable[str] | None) -> tuple[Content, list[Problem]]:
    found_games, deck_folders, sheet_folders, problems = _scan(root)
    keep = set(wanted) if wanted is not None else None
    loaded: dict[str, GameCatalog] = {}
    folders: dict[str, Path] = {}
    for game_id, folder in found_games:
        if keep is not None and game_id not in keep:
            continue
        catalog, found = load_game(folder, game_id, root)
        problems.extend(found)
        if catalog is not None:
            loaded[game_id] = catalog
            folders[game_id] = folder
    if sheet_folders:
        sheets = _load_sheets(root, sheet_folders, problems)
        loaded.update({k: v for k, v in sheets.items() if keep is None or k in keep or "sheets" in keep})
    decks: list[UserDeck] = []
    if deck_folders and (keep is None or "decks" in keep):
        from generator.catalog.userdeck import load_deck

        for folder in deck_folders:
            deck, found = load_deck(folder, display_path(folder), root)
            problems.extend(found)
            if deck is not None:
                decks.append(deck)
        _check_deck_ids(decks, problems)
    return Content(root, loaded, tuple(decks), folders), problems


def _check_deck_ids(decks: list[UserDeck], problems: list[Problem]) -> None:
    known = game_ids()
    seen: dict[str, str] = {}
    for deck in decks:
        if deck.id in known:
            problems.append(Problem(deck.origin, None, "id", phrase("{id} is the id of a game; give the deck another",
                                                                    id=quote(deck.id))))
        elif deck.id in seen:
            problems.append(Problem(deck.origin, None, "id", phrase("repeats the deck id {id} of {first}",
                                                                    id=quote(deck.id), first=seen[deck.id])))
        seen[deck.id] = deck.origin


def load_content(root: Path | None = None, *, games: Iterable[str] | None = None) -> Content:
    """Load a content folder (default: the shipped content); raise ContentError listing every problem.

    `games` limits loading to those game ids (and `"decks"` for user decks), for commands that need one game.
    """
    content, problems = _load(root or content_dir(), games)
    if problems:
        raise ContentError(problems)
    return content


def check_content(root: Path | None = None) -> tuple[Content, list[Problem]]:
    """Load everything in a content folder and return it with every problem found (empty when all is well)."""
    return _load(root or content_dir(), None)


# --- decks ------------------------------------------------------------------------------------------------------

def game_decks(content: Content, lang: str | None = None, also: str | None = None) -> list[Deck]:
    """Every deck of every loaded game, in catalog order; each game says which entries become its cards. In
    `lang` (default English, the catalogs' language), with each card's name in `also` beside it when asked."""
    from generator.catalog.deck import Deck

    decks = []
    code = lang or "en"
    for own in content.games():
        from generator.catalog.translations import localise

        game = find_game(own.info.id)
        catalog = localise(own, code)
        other = localise(own, also) if also else None
        for index, spec in enumerate(catalog.info.decks):
            cards = tuple(game.cards(catalog, spec))
            if other is not None:
                names = {c.id: c.name for c in game.cards(other, other.info.decks[index])}
                cards = tuple(c._replace(also=second_name(c.name, names.get(c.id, ""))) for c in cards)
            decks.append(Deck(game.id, catalog.info.name, spec.id, spec.name, spec.layout, spec.back,
                              spec.card_size, cards, lang=code, shape=spec.shape))
    return decks


def second_name(name: str, other: str) -> str:
    """A card's name in the `--also` language, or nothing when it is the name the card already shows: a name the
    second language lacks falls back (to English, a deck of one's own to its own language), and `--also` in the
    language of the build, or in one nobody holds (`--also xx`), would print every title twice."""
    return "" if other == name else other


def user_deck(deck: UserDeck, lang: str | None = None, also: str | None = None) -> Deck:
    """A deck of your own in `lang` (default: its own language): each text in that language where the table
    gives it, else in the deck's own (cell by cell); with each card's name in `also` beside it when asked."""
    from generator.catalog.deck import Card, Deck

    code = lang or deck.lang
    also_names = {c.id: c.name for c in deck.in_language(also)} if also else {}
    cards = tuple(Card(c.id, c.name, c.copies, c.fields, origin=c.origin, layout=c.layout, back=c.back,
                       also=second_name(c.name, also_names.get(c.id, "")))
                  for c in deck.in_language(code))  # rows shared, not copied, in the deck's own language
    sources = (deck.folder / "deck.yaml",) + ((deck.table,) if deck.table is not None else ())
    return Deck(deck.id, deck.name, deck.id, deck.name, deck.layout, deck.back, deck.card_size, cards, deck.folder,
                deck.root, deck.assets, sources, lang=code, default_lang=deck.lang, shape=deck.shape)


def all_decks(content: Content, lang: str | None = None, also: str | None = None) -> list[Deck]:
    """The games' decks, then the user's own decks (a user deck's game is its own id), in `lang` (default: each
    deck's own language), with each card's name in `also` under its title when asked."""
    return game_decks(content, lang, also) + [user_deck(d, lang, also) for d in content.user_decks]


def every_language(content: Content) -> list[Deck]:
    """Every deck in every language it holds (`donjon content check` checks them all): the games' decks in each
    language of donjon's interface, each deck of your own in its own language and each its table translates."""
    from generator.i18n import INTERFACE

    decks = [d for code in INTERFACE for d in game_decks(content, code)]
    return decks + [user_deck(d, code) for d in content.user_decks for code in d.languages]


def pick_cards(deck: Deck, wanted: str) -> Deck:
    """The cards of `deck` that `donjon build --cards` names: positions and ranges in the table's order (`1-10,15`,
    from 1, counting the cards printed) and names or ids (`Fire Ball`, any case; `Grosster Bar` for `Größter Bär`:
    a name no card has exactly is folded as donjon folds names, accents and dashes too), separated by commas."""
    import difflib
    import re

    from generator.fields import normalise_name

    chosen: list[int] = []
    parts = [part.strip() for part in wanted.split(",") if part.strip()]
    if not parts:
        raise UsageError("--cards", phrase("{value} names no card; give positions (1-10,15) or names",
                                           value=quote(wanted)))
    count = len(deck.cards)
    by_name: dict[str, int] = {}
    folded: dict[str, int] = {}
    for index, card in enumerate(deck.cards):
        by_name.setdefault(card.name.strip().lower(), index)
        by_name.setdefault(card.id.lower(), index)
        folded.setdefault(normalise_name(card.name), index)
        folded.setdefault(normalise_name(card.id), index)
    for part in parts:
        span = re.fullmatch(r"(\d+)\s*(?:-\s*(\d+))?", part)
        if span:
            first, last = int(span.group(1)), int(span.group(2) or span.group(1))
            if not 1 <= first <= last <= count:
                raise UsageError("--cards", phrase("{value} is out of range: the deck {deck} has cards 1 to {count}",
                                                   value=quote(part), deck=quote(deck.id),
                                                   count=str(count))
                                 + (phrase(" (a range goes from low to high)") if first > last else ""))
            chosen += range(first - 1, last)
            continue
        found = by_name.get(part.lower())
        if found is None:
            found = folded.get(normalise_name(part))
        if found is None:
            close = difflib.get_close_matches(part.lower(), list(by_name), n=1, cutoff=0.6)
            guess = phrase(" (did you mean {name}?)", name=quote(deck.cards[by_name[close[0]]].name)) \
                if close else ""
            raise UsageError("--cards", phrase("{value} is neither a position nor the name of a card of {deck}{guess}",
                                               value=quote(part), deck=quote(deck.id),
                                               guess=guess))
        chosen.append(found)
    keep = sorted(set(chosen))
    return deck.only(tuple(deck.cards[i] for i in keep))


def select(decks: list[Deck], target: str, games: Collection[str] = ()) -> list[Deck]:
    """The decks `donjon build TARGET` means: `all`, a game id, `game/deck`, or a user deck's id. `games`: the ids
    of the games a build writes more of than decks (score sheets, references), so that a game without a deck (a
    sheet of one's own) is a target too, of no deck."""
    if target == "all":
        return decks
    chosen = [d for d in decks if target in (d.game, d.key, d.id)]
    if not chosen and target not in games:
        names = sorted({d.game for d in decks} | {d.key for d in decks} | set(games))
        raise UsageError("build", f"{target!r} names no game or deck; choose all, or one of: {', '.join(names)}")
    return chosen


__all__ = ["Content", "all_decks", "check_content", "every_language", "game_decks", "load_content", "load_game", "pick_cards",
           "select", "user_deck"]
