"""Load a content folder into typed, immutable records. Nothing downstream reads raw YAML.

A content folder holds game folders (`guildhall/`, `guedelon/`, `once-upon-a-castle/`, each with a `game.yaml`)
and user deck folders (any folder with a `deck.yaml`); a folder with a `deck.yaml` at its top is a single deck.
The shipped content is `content/` at the top of the repository; `--content DIR` replaces it.

Checking is exhaustive: :func:`check_content` returns every problem of every file (unknown keys, wrong types,
duplicate ids, dangling references, counts that disagree across files), each with its file, line and entry.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from generator.catalog.common import GAME_IDS, DeckSpec, GameInfo, game_spec
from generator.errors import ContentError, InputError, Problem, UsageError
from generator.fields import INVALID, Record, check_document
from generator.resources import content_dir, display_path
from generator.yamlio import PathKey, load_file

if TYPE_CHECKING:
    from generator.catalog.castle import Castle
    from generator.catalog.guedelon import Guedelon
    from generator.catalog.guildhall import Guildhall
    from generator.catalog.userdeck import UserDeck

Catalog: TypeAlias = "Guildhall | Guedelon | Castle"

#: The module holding each game's catalog, imported only when that game is loaded: a user deck or a
#: one-game command then pays for none of the other games' record classes at start-up.
_MODULES: Mapping[str, str] = {"guildhall": "generator.catalog.guildhall", "guedelon": "generator.catalog.guedelon",
                               "once-upon-a-castle": "generator.catalog.castle"}

#: Folders of a content folder that hold neither a game nor a deck.
NOT_CONTENT = ("schemas", "examples")


@dataclass(frozen=True)
class Content:
    """A loaded content folder: the games it holds and the user's own decks."""

    root: Path
    guildhall: Guildhall | None = None
    guedelon: Guedelon | None = None
    castle: Castle | None = None
    user_decks: tuple[UserDeck, ...] = ()
    #: game id -> the folder it was loaded from
    folders: Mapping[str, Path] = field(default_factory=dict)

    def games(self) -> tuple[Catalog, ...]:
        return tuple(g for g in (self.guildhall, self.guedelon, self.castle) if g is not None)

    def game(self, game_id: str) -> Catalog:
        found = {"guildhall": self.guildhall, "guedelon": self.guedelon, "once-upon-a-castle": self.castle}.get(game_id)
        if found is None:
            held = ", ".join(g.info.id for g in self.games()) or "no game"
            raise UsageError(display_path(self.root), f"holds no {game_id} catalog (it holds {held})")
        return found


def _game_sets(game_id: str, values: Mapping[str, Any]) -> tuple[str, ...]:
    """The ids a game's `decks[].set` may name."""
    if game_id == "guildhall":
        return tuple(s.id for s in values["components.yaml"]["sets"])
    if game_id == "once-upon-a-castle":
        return tuple(v.id for v in values["components.yaml"]["versions"])
    events = values.get("events.yaml")
    return tuple(s.id for s in events["series"]) if isinstance(events, dict) else ()


def _assemble(module: Any, game_id: str, info: GameInfo, v: Mapping[str, Any]) -> Any:
    if game_id == "guildhall":
        comp = v["components.yaml"]
        return module.Guildhall(info, comp["components"], tuple(comp["sets"]), tuple(comp["colours"]),
                         tuple(v["professions.yaml"]["professions"]), tuple(v["vp-cards.yaml"]["vp_cards"]))
    if game_id == "guedelon":
        comp = v["components.yaml"]
        events = v["events.yaml"]
        tiles = v["floor-tiles.yaml"]
        return module.Guedelon(info, comp["components"], tuple(comp["materials"]), tuple(comp["tokens"]), comp["mill"],
                        tuple(events["series"]), tuple(events["events"]), tuple(tiles["buildings"]),
                        tuple(tiles["tiles"]))
    comp = v["components.yaml"]
    return module.Castle(info, comp["components"], tuple(comp["versions"]), tuple(v["guests.yaml"]["guests"]),
                  v["castle-sheet.yaml"])


def _check_file(path: Path, spec: Record, problems: list[Problem]) -> Any:
    try:
        doc = load_file(path, display=display_path(path))
    except InputError as err:
        problems.append(err.problem)
        return INVALID
    value, found = check_document(doc, spec)
    problems.extend(found)
    return value


def load_game(folder: Path, game_id: str) -> tuple[Catalog | None, list[Problem]]:
    """Load one game folder: the catalog, or None and every problem found."""
    module = importlib.import_module(_MODULES[game_id])
    problems: list[Problem] = []
    values: dict[str, Any] = {}
    components = _check_file(folder / "components.yaml", module.specs()["components.yaml"], problems)
    values["components.yaml"] = components
    if components is INVALID:
        specs = module.specs()
    elif game_id == "guildhall":
        specs = module.specs(tuple(s.id for s in components["sets"]))
    elif game_id == "guedelon":
        specs = module.specs(tuple(m.finished for m in components["materials"]))
    else:
        specs = module.specs()
    for name in module.FILES[1:]:
        values[name] = _check_file(folder / name, specs[name], problems)
    sets = _game_sets(game_id, values) if components is not INVALID else None
    info = _check_file(folder / "game.yaml", game_spec(module.DECK_SOURCES, sets), problems)
    if info is not INVALID and info.id != game_id:
        problems.append(Problem(display_path(folder / "game.yaml"), None, "game.id",
                                f"the folder {folder.name!r} holds game {info.id!r}; name the folder after its game"))
    if problems or any(v is INVALID for v in values.values()) or info is INVALID:
        return None, problems
    catalog = _assemble(module, game_id, info, values)

    def fail(file: str, path: PathKey, message: str) -> None:
        problems.append(Problem(display_path(folder / file), None, _where(path), message))

    module.cross_check(catalog, fail)
    return (None if problems else catalog), problems


def _where(path: PathKey) -> str:
    return ".".join(str(p) for p in path)


def _scan(root: Path) -> tuple[list[tuple[str, Path]], list[Path], list[Problem]]:
    """The game folders and deck folders below `root`."""
    if not root.exists():
        raise UsageError(display_path(root), "no such content folder")
    if not root.is_dir():
        raise UsageError(display_path(root), "is a file; --content wants a folder")
    if (root / "deck.yaml").is_file():
        return [], [root], []
    games: list[tuple[str, Path]] = []
    decks: list[Path] = []
    problems: list[Problem] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if (folder / "game.yaml").is_file():
            if folder.name not in GAME_IDS:
                problems.append(Problem(display_path(folder / "game.yaml"), None, "",
                                        f"the folder {folder.name!r} is not a game donjon knows "
                                        f"({', '.join(GAME_IDS)}); a deck of your own needs a deck.yaml instead"))
            else:
                games.append((folder.name, folder))
        elif (folder / "deck.yaml").is_file():
            decks.append(folder)
    if not games and not decks and not problems:
        problems.append(Problem(display_path(root), None, "", "holds no game folder (with a game.yaml) and no deck "
                                                              "folder (with a deck.yaml)"))
    return games, decks, problems


def _load(root: Path, wanted: Iterable[str] | None) -> tuple[Content, list[Problem]]:
    games, deck_folders, problems = _scan(root)
    keep = set(wanted) if wanted is not None else None
    loaded: dict[str, Any] = {}
    folders: dict[str, Path] = {}
    for game_id, folder in games:
        if keep is not None and game_id not in keep:
            continue
        catalog, found = load_game(folder, game_id)
        problems.extend(found)
        if catalog is not None:
            loaded[game_id] = catalog
            folders[game_id] = folder
    decks: list[UserDeck] = []
    if deck_folders and (keep is None or "decks" in keep):
        from generator.catalog.userdeck import load_deck

        for folder in deck_folders:
            deck, found = load_deck(folder, display_path(folder))
            problems.extend(found)
            if deck is not None:
                decks.append(deck)
        _check_deck_ids(decks, loaded, problems)
    content = Content(root, loaded.get("guildhall"), loaded.get("guedelon"), loaded.get("once-upon-a-castle"),
                      tuple(decks), folders)
    for hook in _CHECKS:
        problems.extend(hook(content))
    return content, problems


def _check_deck_ids(decks: list[UserDeck], games: Mapping[str, Any], problems: list[Problem]) -> None:
    seen: dict[str, str] = {}
    for deck in decks:
        if deck.id in GAME_IDS:
            problems.append(Problem(deck.origin, None, "id", f"{deck.id!r} is the id of a game; give the deck another"))
        elif deck.id in seen:
            problems.append(Problem(deck.origin, None, "id", f"repeats the deck id {deck.id!r} of {seen[deck.id]}"))
        seen[deck.id] = deck.origin


#: Further checks run on every loaded content folder (the layout module adds one: every deck's layout exists
#: and names only fields its cards have). Each returns its problems.
_CHECKS: list[Callable[[Content], list[Problem]]] = []


def add_check(check: Callable[[Content], list[Problem]]) -> None:
    """Register a check of a loaded content folder (used by modules that own a part of the content)."""
    if check not in _CHECKS:
        _CHECKS.append(check)


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


def deck_specs(content: Content) -> list[tuple[str, DeckSpec]]:
    """Every deck the loaded games declare, as (game id, deck)."""
    return [(g.info.id, d) for g in content.games() for d in g.info.decks]


__all__ = ["Catalog", "Content", "add_check", "check_content", "deck_specs", "load_content", "load_game"]
