"""Reading end states and scoring them against the catalogs in use.

A :class:`Scorer` holds one content folder. It loads a game's catalog the first time a file of that game needs
it (only that game's folder) and keeps it, with the format spec built from it, for every later file: scoring a
thousand files parses each catalog once.

Reading a file is chosen by its suffix (:data:`READERS`): YAML, JSON, and filled castle score sheets (PDF), which
`generator.sheets.read` turns into the very document a castle YAML file gives. Several filled sheets of one game
are scored together as one end state (:meth:`Scorer.score_sheets`); messages about them name the file and the
form field each value came from.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from generator.catalog import Content, load_content
from generator.errors import DocumentError, DonjonError, InputError, Problem
from generator.fields import Record, check_document, describe
from generator.files import read_bytes
from generator.resources import content_dir
from generator.yamlio import (
    MAX_DEPTH,
    MAX_VALUES,
    Document,
    decode,
    loads_json,
    loads_yaml,
)
from scoring.common import Findings, Locator, listing
from scoring.formats import (
    GAME_IDS,
    GAME_NAMES,
    castle_spec,
    game_id,
    guedelon_spec,
    guildhall_spec,
)
from scoring.result import Result

#: The name a mapping given to the library is called by in messages.
MAPPING_NAME = "<end state>"


class EndStateError(DocumentError):
    """An end state that cannot be read as its game's format (exit 2): every problem, with its line and path."""

    def __init__(self, file: str, problems: Iterable[Problem], what: str = "an end state") -> None:
        super().__init__(file, problems, what)


class UnknownGameError(EndStateError):
    """The `game:` key is missing or names a game donjon does not score."""


def _read_yaml(path: Path, display: str) -> Document:
    return loads_yaml(decode(read_bytes(path, display), display), display)


def _read_json(path: Path, display: str) -> Document:
    return loads_json(decode(read_bytes(path, display), display), display)


def _read_pdf(path: Path, display: str) -> Document:
    """A filled castle score sheet as a castle end state of one sheet (pypdf is imported only for PDFs)."""
    from generator.sheets.read import read_sheets

    return read_sheets([(read_bytes(path, display), display)]).document


#: How each kind of file becomes a document, by suffix; any other suffix is read as YAML.
READERS: dict[str, Callable[[Path, str], Document]] = {
    ".yaml": _read_yaml,
    ".yml": _read_yaml,
    ".json": _read_json,
    ".pdf": _read_pdf,
}

def is_sheet(path: str | os.PathLike[str]) -> bool:
    """A filled castle score sheet, by its suffix."""
    return os.fspath(path).lower().endswith(".pdf")


def read_source(path: Path, display: str | None = None) -> Document:
    """Read one end-state file into a document (YAML, JSON or a filled castle sheet, by its suffix)."""
    return READERS.get(path.suffix.lower(), _read_yaml)(path, display or str(path))


def display_name(path: Path, cwd: Path | None) -> str:
    """A file as messages name it: as given when relative, else relative to `cwd` when below it.

    Plain path arithmetic, with no call to the file system: a thousand files cost nothing to name.
    """
    if not path.is_absolute() or cwd is None:
        return str(path)
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        return str(path)


def document_of(mapping: Mapping[str, Any]) -> Document:
    """A mapping given to the library, as a document (with no lines), held to the same limits as a file.

    A mapping built in Python can hold what no file can: structures that contain themselves, any amount of
    nesting, integers too long for Python to write out in a message. Those are refused here, as the YAML reader
    refuses them in a file.
    """
    data = dict(mapping)
    stack: list[tuple[Any, int]] = [(data, 0)]
    count = 0
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise InputError(MAPPING_NAME, f"holds more than {MAX_VALUES:,} values")
        if depth > MAX_DEPTH:
            raise InputError(MAPPING_NAME, f"is nested more than {MAX_DEPTH} levels deep (or holds itself)")
        if isinstance(value, int) and value.bit_length() > _LONGEST_INT_BITS:
            raise InputError(MAPPING_NAME, "holds a whole number of more than 4,000 digits")
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for pair in value.items() for item in pair)
        elif isinstance(value, (list, tuple)):
            stack.extend((item, depth + 1) for item in value)
    return Document(MAPPING_NAME, data, {})


#: Python writes out integers of up to 4,300 digits; no number in an end state comes near.
_LONGEST_INT_BITS = 14_000


def game_of(doc: Document) -> str:
    """The game a document records, read from its `game:` key before anything else."""
    data = doc.data
    known = listing(GAME_IDS, "or")
    if data is None:
        raise EndStateError(doc.file, [Problem(doc.file, None, "", "is empty; an end state starts with "
                                                                      f"`game:` ({known})")])
    if not isinstance(data, dict):
        raise EndStateError(doc.file, [Problem(doc.file, doc.line(()), "",
                                                f"holds {describe(data)}, not an end state (a mapping that "
                                                f"starts with `game:`, one of {known})")])
    if "game" not in data:
        raise UnknownGameError(doc.file, [Problem(doc.file, doc.line(()), "",
                                                  f"is missing the key 'game' (which game it records: {known})")])
    value = data["game"]
    if not isinstance(value, str):
        raise UnknownGameError(doc.file, [Problem(doc.file, doc.line(("game",)), "game",
                                                  f"expected the name of a game ({known}), got {describe(value)}")])
    key = game_id(value)
    if key not in GAME_IDS:
        raise UnknownGameError(doc.file, [Problem(doc.file, doc.line(("game",)), "game",
                                                  f"unknown game {value!r}; donjon scores {known}")])
    return key


_SPECS: Mapping[str, Callable[[Any], Record]] = {
    "guildhall": guildhall_spec, "once-upon-a-castle": castle_spec, "guedelon": guedelon_spec,
}
#: The rules module of each game (imported when a file of that game comes: start-up stays lean).
RULES_MODULES: Mapping[str, str] = {
    "guildhall": "scoring.guildhall", "once-upon-a-castle": "scoring.castle", "guedelon": "scoring.guedelon",
}


def _rules(game: str) -> Callable[[Any, Any, Findings, str], Result]:
    scorer: Callable[[Any, Any, Findings, str], Result] = importlib.import_module(RULES_MODULES[game]).score
    return scorer


def _signature(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """What changes when a catalog file is edited: names, modification times and sizes."""
    try:
        return tuple(sorted((p.name, s.st_mtime_ns, s.st_size) for p in folder.iterdir() for s in (p.stat(),)))
    except OSError:
        return ()


class Scorer:
    """Scores end states against one content folder (default: the shipped catalogs)."""

    def __init__(self, content: Path | str | Content | None = None, *, watch: bool = False) -> None:
        """`watch`: notice edits to the catalog files between calls (for a long-lived scorer)."""
        self._content = content if isinstance(content, Content) else None
        self.root = (content.root if isinstance(content, Content)
                     else Path(content) if content is not None else content_dir())
        self._watch = watch
        self._catalogs: dict[str, tuple[tuple[tuple[str, int, int], ...], Any, Record | None, DonjonError | None]] = {}
        try:
            self._cwd: Path | None = Path.cwd()
        except OSError:  # the working folder was removed: name files as given
            self._cwd = None

    def catalog(self, game: str) -> tuple[Any, Record]:
        """The catalog of one game and the format spec built from it, loaded once."""
        signature = _signature(self.root / game) if self._watch else ()
        cached = self._catalogs.get(game)
        if cached is None or cached[0] != signature:
            try:
                content = self._content or load_content(self.root, games=[game])
                found: Any = content.game(game)
                cached = (signature, found, _SPECS[game](found), None)
            except DonjonError as err:  # a broken or missing catalog: every file of that game gets the error
                cached = (signature, None, None, err)
            self._catalogs[game] = cached
        _, found, spec, error = cached
        if error is not None:
            raise error
        assert spec is not None
        return found, spec

    def score(self, source: str | os.PathLike[str] | Mapping[str, Any]) -> Result:
        """Score a file (YAML, JSON or a filled castle sheet PDF) or a mapping shaped like one.

        Raises :class:`generator.errors.InputError` (an :class:`EndStateError` for a document of the wrong
        shape) when the source cannot be read; a broken rule is not an error but a result with violations.
        """
        if isinstance(source, Mapping):
            return self.score_document(document_of(source))
        path = Path(source)
        if is_sheet(path):
            return self.score_sheets([path])
        return self.score_document(read_source(path, display_name(path, self._cwd)))

    def score_sheets(self, paths: Iterable[str | os.PathLike[str]]) -> Result:
        """Filled castle score sheets (PDFs) of one game, scored together as one castle end state.

        The same format and rules as a YAML file's; a problem or a broken rule names the file and the form field
        it came from."""
        from generator.sheets.read import read_sheets

        files = []
        for source in paths:
            path = Path(source)
            display = display_name(path, self._cwd)
            files.append((read_bytes(path, display), display))
        filled = read_sheets(files)
        try:
            result = self.score_document(filled.document)
        except EndStateError as err:
            raise EndStateError(filled.document.file, [filled.problem(p) for p in err.problems],
                                "filled castle sheets") from None
        violations = []
        for violation in result.violations:
            where = filled.where(violation.where)
            violations.append(replace(violation, message=f"{violation.message} ({where})" if where else
                                      violation.message))
        return replace(result, violations=tuple(violations))

    def score_document(self, doc: Document) -> Result:
        game = game_of(doc)
        catalog, spec = self.catalog(game)
        state, problems = check_document(doc, spec)
        if problems:
            raise EndStateError(doc.file, problems, f"a {GAME_NAMES[game]} end state")
        return _rules(game)(state, catalog, Findings(game, Locator(doc)), doc.file)

    def score_each(self, paths: Iterable[str | os.PathLike[str]]) -> list[tuple[Path, Result | DonjonError]]:
        """Score several files one by one: each one's result, or the error that kept it from being read."""
        out: list[tuple[Path, Result | DonjonError]] = []
        for path in paths:
            try:
                out.append((Path(path), self.score(path)))
            except DonjonError as err:
                out.append((Path(path), err))
        return out


_SHARED: dict[Path, Scorer] = {}


def shared_scorer(content: Path | str | Content | None) -> Scorer:
    """A scorer kept between calls of :func:`scoring.score` for one content folder; it notices catalog edits."""
    if isinstance(content, Content):
        return Scorer(content)
    root = (Path(content) if content is not None else content_dir()).resolve()
    scorer = _SHARED.get(root)
    if scorer is None:
        scorer = _SHARED[root] = Scorer(root, watch=True)
    return scorer
