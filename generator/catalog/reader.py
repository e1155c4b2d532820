"""Reading one game folder: each catalog file checked against its spec, every problem of every file collected.

A game's package loads its catalog with a :class:`CatalogReader` (`load(reader)`): it reads each of its files
with the spec of that file and gets a typed record back (or None when the file has problems, which the reader
has recorded), then builds the catalog and runs the checks that span files through :meth:`CatalogReader.fail`.
Nothing here knows any game: the files, their specs and the checks are the game's.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from generator.catalog.game import GameInfo, game_spec
from generator.errors import InputError, Problem
from generator.fields import Invalid, Type, check_document
from generator.files import leads_outside, linked_outside
from generator.resources import display_path
from generator.yamlio import PathKey, load_file

T = TypeVar("T")


def where(path: PathKey) -> str:
    """A path inside a catalog file as messages show it: `professions.3.levels`."""
    return ".".join(str(p) for p in path)


class CatalogReader:
    """Reads the files of one game folder for the game `game_id`, collecting every problem found."""

    def __init__(self, folder: Path, game_id: str, game_ids: tuple[str, ...], root: Path) -> None:
        self.folder = folder
        #: the content folder: a catalog file linked outside it is refused, as every file donjon reads
        self.root = root
        self.game_id = game_id
        self.game_ids = game_ids
        self.problems: list[Problem] = []

    def read(self, name: str, spec: Type[T]) -> T | None:
        """The file `name` of the folder checked against `spec`: its record, or None (its problems recorded)."""
        path = self.folder / name
        if linked_outside(self.root, path) is not None:
            self.problems.append(Problem(display_path(path, link=True), None, "", leads_outside(self.root.resolve())))
            return None
        try:
            doc = load_file(path, display=display_path(path))
        except InputError as err:
            self.problems.extend(err.problems)
            return None
        value, found = check_document(doc, spec)
        self.problems.extend(found)
        return None if isinstance(value, Invalid) else value

    def info(self, deck_sources: tuple[str, ...], sets: tuple[str, ...] | None) -> GameInfo | None:
        """The folder's game.yaml: the game and the decks donjon prints of it. `deck_sources` are the catalogs
        the decks can draw their cards from, `sets` the sets a deck may be narrowed to (None: not known, because
        the file declaring them has problems)."""
        info = self.read("game.yaml", game_spec(self.game_ids, deck_sources, sets))
        if info is not None and info.id != self.game_id:
            self.problems.append(Problem(display_path(self.folder / "game.yaml"), None, "game.id",
                                         f"the folder {self.folder.name!r} holds game {info.id!r}; name the folder "
                                         "after its game"))
            return None
        return info

    def fail(self, file: str, path: PathKey, message: str) -> None:
        """Report a problem found across files (a count in one file that another contradicts)."""
        self.problems.append(Problem(display_path(self.folder / file), None, where(path), message))

    @property
    def ok(self) -> bool:
        """No problem so far."""
        return not self.problems
