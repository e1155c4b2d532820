"""Reading end states and scoring them against the catalogs in use.

A :class:`Scorer` holds one content folder. It loads a game's catalog the first time a file of that game needs
it (only that game's folder) and keeps it, with the format spec built from it, for every later file: scoring a
thousand files parses each catalog once.

Reading a file is chosen by its suffix (:data:`READERS`): YAML, JSON, and filled score sheets of a game whose
`sheet_suffixes` name it (castle sheet PDFs), which the game turns into the very document a YAML file of it
gives. Several filled sheets of one game are scored together as one end state (:meth:`Scorer.score_sheets`);
messages about them name the file and the form field each value came from. Which game a file records, and its
format and rules, come from the registry (:mod:`generator.registry`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from generator.content import Content, load_content
from generator.errors import DocumentError, DonjonError, InputError, Problem, unreadable
from generator.fields import Invalid, Record, check_named, describe
from generator.files import read_bytes, read_stdin
from generator.i18n import N_, Figure, Language, language
from generator.registry import UnknownGame, find_game, game_ids, games
from generator.resources import content_dir
from generator.sayings import Words
from generator.wording import listing
from generator.yamlio import (
    MAX_DEPTH,
    MAX_VALUES,
    Document,
    decode,
    loads_json,
    loads_yaml,
)
from scoring.findings import Findings, Locator
from scoring.result import Result, Standing, Unconfirmed, Unread, not_applied

if TYPE_CHECKING:
    from generator.games.base import Game, GameCatalog, SheetOptions

C = TypeVar("C", bound="GameCatalog")
S = TypeVar("S")

#: The name a mapping given to the library is called by in messages.
MAPPING_NAME = "<end state>"
#: The file `donjon score -` reads (standard input), and the name its messages give it.
STDIN, STDIN_NAME = "-", "<stdin>"
#: The largest filled score sheet read (by `donjon score` and the companion alike): a photo as large as a phone takes.
#: The largest phone cameras take 200 megapixels (their own JPEGs are 30 to 60 MB); at a high quality (JPEG 95) a
#: photo of a sheet on a busy table cloth is up to 4 bits a pixel (measured on the benchmark's photos: 2 to 4), so
#: 200 MP x 4 bits = 100 MB, 96 MiB. The reader's pixel bound (generator.sheets.photos.MOST_PIXELS, 1 gigapixel) is
#: a guard against image bombs, not a camera: a JPEG that large at that quality (500 MB) is no photo of a sheet.
SHEET_MAX_BYTES = 96 * 1024 * 1024


class EndStateError(DocumentError):
    """An end state that cannot be read as its game's format (exit 2): every problem, with its line and path."""

    def __init__(self, file: str, problems: Iterable[Problem], what: str = "an end state",
                 lang: Language | None = None) -> None:
        super().__init__(file, problems, what, lang)


class UnknownGameError(EndStateError):
    """The `game:` key is missing or names a game donjon does not score."""


def _read_yaml(path: Path, display: str) -> Document:
    return loads_yaml(decode(read_bytes(path, display), display), display)


def _read_json(path: Path, display: str) -> Document:
    return loads_json(decode(read_bytes(path, display), display), display)


#: How each kind of file becomes a document, by suffix; any other suffix is read as YAML.
READERS: dict[str, Callable[[Path, str], Document]] = {
    ".yaml": _read_yaml,
    ".yml": _read_yaml,
    ".json": _read_json,
}


def sheet_game(path: str | os.PathLike[str]) -> Game[Any, Any] | None:
    """The game whose filled score sheets a file holds, by its suffix (`.pdf`: a castle sheet), or None."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    return next((g for g in games() if suffix in g.sheet_suffixes), None) if suffix else None


def is_sheet(path: str | os.PathLike[str]) -> bool:
    """A filled score sheet, by its suffix: such files given together are the sheets of one game."""
    return sheet_game(path) is not None


def read_source(path: Path, display: str | None = None) -> Document:
    """Read one end-state file into a document (YAML or JSON, by its suffix; filled score sheets are read against
    their game's catalog by :meth:`Scorer.score_sheets`)."""
    name = display or str(path)
    return READERS.get(path.suffix.lower(), _read_yaml)(path, name)


def read_stdin_document() -> Document:
    """An end state piped into `donjon score -`: JSON when its first character opens an object or a list (as a
    `.json` file is read: duplicate keys refused, each line its own) and it reads as JSON, else YAML; messages name
    it `<stdin>`, with its lines. A filled sheet or a photo is refused: the readers of those take a file (its name
    says which photo)."""
    raw = read_stdin(STDIN_NAME)
    if raw.startswith(b"%PDF-") or raw.startswith((b"\xff\xd8\xff", b"\x89PNG")) or raw[4:12] in (b"ftypheic",
                                                                                                 b"ftypmif1"):
        raise unreadable(STDIN_NAME, N_("holds a filled sheet or a photo; give those as files (donjon score ana.pdf "
                                        "ben.jpg): only an end state (YAML or JSON) is read from standard input"))
    text = decode(raw, STDIN_NAME)
    if text.lstrip("\ufeff \t\r\n")[:1] in ("{", "["):
        try:
            return loads_json(text, STDIN_NAME)
        except InputError as err:
            # a YAML flow mapping (`{game: guedelon, rounds: 12}`) starts as JSON does: read as YAML, and a text
            # neither reads is said as the JSON it looked like
            try:
                return loads_yaml(text, STDIN_NAME)
            except InputError:
                raise err from None
    return loads_yaml(text, STDIN_NAME)


@contextmanager
def _said_in(lang: Language | None) -> Iterator[None]:
    """A file that cannot be read (no such file, not YAML: :func:`~generator.errors.unreadable`) said in `lang`
    (`donjon score --lang fr`); in English as it is."""
    try:
        yield
    except InputError as err:
        if lang is None or lang.english or err.said_as is None:
            raise
        raise err.said(lang) from None


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


def game_of(doc: Document, lang: Language | None = None) -> str:
    """The game a document records, read from its `game:` key before anything else; what is wrong with that key is
    said in `lang` (`donjon score --lang fr`), English when None."""
    data = doc.data
    words = Words(lang or language())
    known = words.listing(game_ids(), "or")
    if data is None:
        raise EndStateError(doc.file, [Problem(doc.file, None, "", words._(
            "is empty; an end state starts with `game:` ({games})", games=known))])
    if not isinstance(data, dict):
        raise EndStateError(doc.file, [Problem(doc.file, doc.line(()), "", words._(
            "holds {value}, not an end state (a mapping that starts with `game:`, one of {games})",
            value=describe(data, words.lang), games=known))])
    if "game" not in data:
        raise UnknownGameError(doc.file, [Problem(doc.file, doc.line(()), "", words._(
            "is missing the key 'game' (which game it records: {games})", games=known))])
    value = data["game"]
    if not isinstance(value, str):
        raise UnknownGameError(doc.file, [Problem(doc.file, doc.line(("game",)), "game", words._(
            "expected the name of a game ({games}), got {value}", games=known, value=describe(value, words.lang)))])
    try:
        return find_game(value).id
    except UnknownGame:
        raise UnknownGameError(doc.file, [Problem(doc.file, doc.line(("game",)), "game", words._(
            "unknown game {value}; donjon scores {games}", value=repr(value), games=known))]) from None


def score_with(game: Game[C, S], catalog: C, spec: Record[S], doc: Document, strict: bool = False,
               lang: Language | None = None, named: Callable[[str], C] | None = None,
               names: str | None = None) -> Result:
    """Check a document against the game's format and score the record it makes by the game's rules: the seam
    between parsed records and rules, typed by the game's catalog `C` and end state `S`. `strict`: every
    warning (a check resting on a value below H) is a violation; `lang`: the language of the rules' messages
    (English); `names`: the language the document names things in (a filled sheet's, `de`), else told by the names
    it uses; `named`: the catalog in a language (a code), whose names the messages say (the Queen is die Königin to a
    file that calls her so), the messages' language's when the document's names tell none.

    The game's rules check the record and say how the game stands; a record that breaks rules is not scored (the
    same result for every game, made here), and one that keeps them is ranked by the game's rules."""
    state, problems, told, written = check_named(doc, spec, lang, names)
    if problems or isinstance(state, Invalid):
        raise EndStateError(doc.file, problems, Words(lang or language())._("a {game} end state",
                                                                            game=_game_said(game, catalog, lang)), lang)
    found, standing, shown = _judged(game, catalog, state, Locator(doc, written), told, strict, lang, named)
    warnings = tuple(found.warnings)
    if found:
        said = found.ngettext("{n} rule broken: not scored", "{n} rules broken: not scored", len(found.violations))
        return Result(game.id, False, standing.finished, tuple(found.violations), None, (), source=doc.file,
                      summary=said,
                      setting=standing.setting, warnings=warnings, parts=standing.parts)
    # its summary names things as the rules' messages do (the Mill: Moulin), in their language
    ranking = game.rank(state, shown, found.lang)
    return Result(game.id, True, standing.finished, (), ranking.winner, ranking.players, source=doc.file,
                  summary=ranking.summary, setting=standing.setting, warnings=warnings, parts=standing.parts)


def _judged(game: Game[C, S], catalog: C, state: S, locator: Locator, told: str | None, strict: bool,
            lang: Language | None, named: Callable[[str], C] | None) -> tuple[Findings, Standing, C]:
    """The game's rules run on a record: what they found, how the game stands, and the catalog they saw. The rules
    see the catalog in the language the document names things in (`told`), else in that of their messages, and
    name cards by their ids for a document written in ids with English messages (`Findings.names`); the ranking is
    given the same catalog, so that its summary names things as they do."""
    shown = catalog if named is None else named(told or (lang.base if lang is not None else "en"))
    names = told or (lang.base if lang is not None and not lang.english else None)
    # the catalog the heading names things from: the messages' language's (English as the file names them, as ever)
    said = named(lang.base) if named is not None and lang is not None and not lang.english else None
    found = Findings(game.id, locator, strict=strict, lang=lang or language(), names=names, said=said)
    return found, game.check(state, shown, found), shown


def _signature(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """What changes when a catalog file is edited: names, modification times and sizes."""
    try:
        return tuple(sorted((p.name, s.st_mtime_ns, s.st_size) for p in folder.iterdir() for s in (p.stat(),)))
    except OSError:
        return ()


#: A cooperative game's one result: the player the JSON names "team" (Guédelon), said in words where labels are.
TEAM_KEY = "team"


class Scorer:
    """Scores end states against one content folder (default: the shipped catalogs)."""

    def __init__(self, content: Path | str | Content | None = None, *, watch: bool = False,
                 strict: bool = False, sheet_options: SheetOptions | None = None, sheet: str | None = None,
                 stdin: bool = False, lang: Language | None = None) -> None:
        """`watch`: notice edits to the catalog files between calls (for a long-lived scorer); `strict`: every
        warning (a check resting on a value no rulebook states) is a violation; `sheet_options`: how filled
        sheets are read (players' names, confirmed values, annotated photos); `sheet`: the game (a sheet of one's
        own) whose sheets filled PDFs and photos are, rather than the first game reading their suffix; `stdin`: a
        file named `-` is standard input (the command line's convention; the library reads a file of that name);
        `lang`: the language results are said in when a call names none (`donjon score --lang`; English)."""
        self.lang = lang
        self.strict = strict
        self.stdin = stdin
        self.sheet_options = sheet_options
        self.sheet = sheet
        self._content = content if isinstance(content, Content) else None
        self.root = (content.root if isinstance(content, Content)
                     else Path(content) if content is not None else content_dir())
        self._watch = watch
        self._catalogs: dict[str, tuple[tuple[tuple[str, int, int], ...], Any, Record[Any] | None,
                                        DonjonError | None]] = {}
        #: each game's catalog in a language the rules' messages are asked in: (the catalog localised, its copy)
        self._named: dict[tuple[str, str], tuple[Any, Any]] = {}
        try:
            self._cwd: Path | None = Path.cwd()
        except OSError:  # the working folder was removed: name files as given
            self._cwd = None

    def catalog(self, game: str) -> tuple[Any, Record[Any]]:
        """The catalog of one game and the format spec built from it, loaded once."""
        signature = _signature(self.root / game) if self._watch else ()
        cached = self._catalogs.get(game)
        if cached is None or cached[0] != signature:
            try:
                content = self._content or load_content(self.root, games=[game])
                found: Any = content.game(game)
                cached = (signature, found, find_game(game).end_state(found), None)
            except DonjonError as err:  # a broken or missing catalog: every file of that game gets the error
                cached = (signature, None, None, err)
            self._catalogs[game] = cached
        _, found, spec, error = cached
        if error is not None:
            raise error
        assert spec is not None
        return found, spec

    def score(self, source: str | os.PathLike[str] | Mapping[str, Any], lang: Language | None = None) -> Result:
        """Score a file (YAML, JSON or a filled castle sheet PDF) or a mapping shaped like one; the rules' messages
        in `lang` (English).

        Raises :class:`generator.errors.InputError` (an :class:`EndStateError` for a document of the wrong
        shape) when the source cannot be read; a broken rule is not an error but a result with violations.
        """
        lang = lang or self.lang
        if isinstance(source, Mapping):
            return self.score_document(document_of(source), lang)
        if self.stdin and os.fspath(source) == STDIN:
            with _said_in(lang):
                doc = read_stdin_document()
            return self.score_document(doc, lang)
        path = Path(source)
        if sheet_game(path) is not None:  # a filled sheet or a photo: of `self.sheet` when it is named
            return self.score_sheets([path], lang=lang)
        with _said_in(lang):
            doc = read_source(path, display_name(path, self._cwd))
        return self.score_document(doc, lang)

    def score_sheets(self, paths: Iterable[str | os.PathLike[str]], options: SheetOptions | None = None,
                     lang: Language | None = None) -> Result:
        """Filled score sheets of one game (castle sheet PDFs, photos of scan-ready sheets), scored together as one
        end state.

        The same format and rules as a YAML file's; a problem or a broken rule names the file and the form field
        (or the mark) it came from. The game is the one whose sheets the first file's suffix names. A value read
        from a photo that could not be decided leaves the game unscored: the result lists it under `uncertain`
        (exit code 1) until it is confirmed (`options.confirmed`)."""
        files = []
        game = find_game(self.sheet, "--sheet") if self.sheet is not None else None
        for source in paths:
            path = Path(source)
            game = game or sheet_game(path)
            display = display_name(path, self._cwd)
            with _said_in(lang or self.lang):
                files.append((read_bytes(path, display, SHEET_MAX_BYTES), display))
        if game is None:
            raise InputError(files[0][1] if files else "<sheets>", "is not a score sheet donjon reads")
        return self.score_read(game, files, options or self.sheet_options, lang)

    def score_read(self, game: Game[Any, Any], files: list[tuple[bytes, str]],
                   options: SheetOptions | None = None, lang: Language | None = None) -> Result:
        """Filled sheets already read into memory (bytes and display name each), scored as one end state."""
        lang = lang or self.lang
        catalog, _ = self.catalog(game.id)
        try:
            filled = game.read_sheets(files, catalog, options)
        except InputError as err:
            said = _photo_refused(err, lang)
            if said is err:
                raise
            raise said from None
        unread = filled.unread
        combined = filled.combined
        if filled.uncertain or unread:
            return Result(game.id, False, False, (), None, (), source=filled.document.file,
                          summary=_unscored(*_sheets_unread([name for _, name in files], unread, combined),
                                            len(filled.uncertain or ()), Words(lang or language())),
                          parts=(_in_language(Unconfirmed(filled.uncertain or (), unread,
                                                          tuple(name for _, name in files), combined), lang),))
        try:
            result = self.score_document(filled.document, lang, filled.lang)
        except EndStateError as err:
            # the game as the language names it (Oh mon château), as the table's heading does
            what = Words(lang or language())._("filled {game} sheets", game=self.game_name(game.id, lang) or game.name)
            raise EndStateError(filled.document.file, [filled.problem(p, lang) for p in err.problems], what,
                                lang) from None

        def named(message: str, place: str) -> str:
            where = filled.where(place, lang)
            return f"{message} ({where})" if where else message

        photos = (Unconfirmed(filled.uncertain, combined=combined),) if filled.uncertain is not None else ()
        return replace(result, violations=tuple(replace(v, message=named(v.message, v.where)) for v in result.violations),
                       warnings=tuple(replace(w, message=named(w.message, w.where)) for w in result.warnings),
                       parts=result.parts + photos)

    def score_document(self, doc: Document, lang: Language | None = None, names: str | None = None) -> Result:
        """Score a document read; `names`: the language it names things in (a filled sheet's), else told by them."""
        lang = lang or self.lang
        game = find_game(game_of(doc, lang))
        catalog, spec = self.catalog(game.id)
        return score_with(game, catalog, spec, doc, self.strict, lang,
                          lambda code: self.named(game.id, catalog, code), names)

    def named(self, game: str, catalog: Any, code: str) -> Any:
        """`catalog` in the language `code`, for the rules' messages to name what they name as the file or the
        table does (the Queen is la Reine at a French table, die Königin in a file naming her so); `catalog` itself
        in English. Localised once per catalog loaded."""
        if code == "en":
            return catalog
        key = (game, code)
        cached = self._named.get(key)
        if cached is None or cached[0] is not catalog:  # loaded again (a catalog edited): localised again
            from generator.catalog.translations import localise

            cached = self._named[key] = (catalog, localise(catalog, code))
        return cached[1]

    def labels(self, game_id: str, lang: Language | None = None) -> dict[str, str]:
        """A result's breakdown keys in words in `lang` (the scorer's), as the companion says them (the form's
        labels, the catalog's names of the entries scored: `guest:queen` is la Reine); none in English, whose table
        shows the keys as the JSON has them, nor for a game whose catalog cannot be loaded."""
        lang = lang or self.lang
        if lang is None or lang.english:
            return {}
        from generator.games.table import result_labels

        try:
            game = find_game(game_id)
            catalog, _ = self.catalog(game_id)
            hints = game.table_hints()
            said = result_labels(hints, self.named(game_id, catalog, lang.base), lang)
            if hints.team_size is not None:  # a cooperative game's one result, named "team" in the JSON
                said[TEAM_KEY] = lang._(N_("The team"))
            return said
        except (DonjonError, UnknownGame):
            return {}

    def game_name(self, game_id: str, lang: Language | None = None) -> str | None:
        """The game's name in `lang` (the scorer's) as its catalog gives it in that language, the title an edition
        is sold under (Oh mon château), as the companion names it; None in English (the game's own name is said),
        or for a game whose catalog cannot be loaded."""
        lang = lang or self.lang
        if lang is None or lang.english:
            return None
        try:
            catalog, _ = self.catalog(game_id)
            name = getattr(getattr(self.named(game_id, catalog, lang.base), "info", None), "name", None)
        except (DonjonError, UnknownGame):
            return None
        return str(name) if name else None

    def score_provisional(self, source: Mapping[str, Any], lang: Language | None = None) -> Result | None:
        """The scores a state would have if its broken rules were set aside: each player's total and breakdown
        as the game's own ranking computes them, for a table to show while something is still to fix (never a
        result to keep: `valid` is false whenever a rule is broken). None when the state cannot be read, or when
        the ranking rests on a rule that is broken, so that no total exists."""
        doc = document_of(source)
        game = find_game(game_of(doc))
        catalog, spec = self.catalog(game.id)
        state, problems, told, written = check_named(doc, spec)
        if problems or isinstance(state, Invalid):
            return None
        found, standing, shown = _judged(game, catalog, state, Locator(doc, written), told, self.strict, lang,
                                         lambda code: self.named(game.id, catalog, code))
        try:
            ranking = game.rank(state, shown, found.lang)
        except (ArithmeticError, AssertionError, LookupError, TypeError, ValueError):
            return None  # the ranking assumes a rule the state breaks (a value it needs is out of bounds)
        return Result(game.id, not found.violations, standing.finished, tuple(found.violations),
                      None if found.violations else ranking.winner, ranking.players, source=doc.file,
                      summary=ranking.summary, setting=standing.setting, warnings=tuple(found.warnings),
                      parts=standing.parts)

    def score_each(self, paths: Iterable[str | os.PathLike[str]]) -> list[tuple[Path, Result | DonjonError]]:
        """Score several files one by one: each one's result, or the error that kept it from being read."""
        out: list[tuple[Path, Result | DonjonError]] = []
        for path in paths:
            try:
                out.append((Path(path), self.score(path)))
            except DonjonError as err:
                out.append((Path(path), err))
        return out


def _game_said(game: Any, catalog: Any, lang: Language | None) -> str:
    """The game's name in `lang` as its catalog gives it there (Oh mon château), as the table's heading says it;
    its own name in English or when its catalog names it no other way."""
    if lang is None or lang.english:
        return str(game.name)
    from generator.catalog.translations import localise

    name = getattr(getattr(localise(catalog, lang.base), "info", None), "name", None)
    return str(name) if name else str(game.name)


def _in_language(photos: Unconfirmed, lang: Language | None) -> Unconfirmed:
    """What the photos' reader said (in English: the values to confirm, why, what to change; the photos not read)
    in `lang`, as the companion says it: a value's reason by its code (generator.sheets.photo_reasons), a photo's
    refusal by what was seen (generator.sheets.advice), the advice as the catalogs hold it. The codes stay."""
    if lang is None or lang.english:
        return photos
    from generator.sheets.advice import refusal
    from generator.sheets.summary import why_said

    def unread(item: Unread) -> Unread:
        found = refusal(item.why, item.reason or None)
        if item.said_in is not None:  # donjon's own words, naming what it found: said whole, as a PDF's are
            why = item.said_in(lang)
        else:
            why = lang._(found.seen) if found is not None and found.seen else item.why
        advice = lang._(item.advice) if item.advice else ""
        # standard error's line for a photo alone (--json) says what the table says: why, then what to change
        return replace(item, why=why, advice=advice,
                       error=_refused_said(item.file, why, advice, lang) if item.error else "")

    return replace(photos, uncertain=tuple(replace(u, why=why_said(u, lang), said="",
                                                   advice=lang._(u.advice) if u.advice else "")
                                           for u in photos.uncertain),
                   unread=tuple(unread(u) for u in photos.unread))


def _refused_said(file: str, why: str, advice: str, lang: Language) -> str:
    """A photo not read, said on standard error in `lang` (`why` and `advice` in it already): the file, what was
    seen, what to change."""
    return f"{file}: " + (lang._("{why}; what to change: {advice}").format(why=why, advice=advice) if advice else why)


def _photo_refused(err: InputError, lang: Language | None) -> InputError:
    """`err` in `lang` when it is a photo given alone that could not be read (its reason by its code, as
    :func:`_in_language` says one of several), with each `--set` given for it said not applied; else `err`."""
    from generator.sheets.advice import refusal
    from generator.sheets.photo_reasons import PhotoRefused

    if lang is None or lang.english or not isinstance(err, PhotoRefused):
        return err
    found = refusal(err.issue.sentence, err.code or None)
    if found is None or not found.seen:
        return err
    said = InputError(err.file, _refused_said(err.file, lang._(found.seen), lang._(found.advice), lang)
                      .removeprefix(f"{err.file}: "))
    for given in getattr(err, "unset", ()):
        said.add_note(not_applied(given, err.file, lang))
    return said


def _sheets_unread(files: Sequence[str], unread: Sequence[Unread], combined: Sequence[tuple[str, Sequence[str]]]
                   ) -> tuple[int, int]:
    """How many sheets the files are, and how many of them could not be read: the photos of one sheet (`combined`)
    are one sheet, not read when one of them could not be."""
    sheet_of = {file: index for index, (_, shots) in enumerate(combined) for file in shots}
    sheets = {sheet_of.get(file, file) for file in files}
    return len(sheets), len({sheet_of.get(u.file, u.file) for u in unread})


def _unscored(files: int, unread: int, uncertain: int, say: Words) -> str:
    """Why sheets were not scored: files that could not be read, values that wait for a person's word."""
    if not unread:
        return say.ngettext("{n} value read from the photos uncertain: not scored until confirmed",
                            "{n} values read from the photos uncertain: not scored until confirmed", uncertain)
    if not uncertain:
        return say.ngettext("{n} of {files} sheets could not be read: not scored until it is given again",
                            "{n} of {files} sheets could not be read: not scored until they are given again",
                            unread, files=Figure(files))
    values = say.ngettext("{n} value", "{n} values", uncertain)
    return say.ngettext("{n} of {files} sheets could not be read and {values} read from the others uncertain: not "
                        "scored until it is given again and {confirmed}",
                        "{n} of {files} sheets could not be read and {values} read from the others uncertain: not "
                        "scored until they are given again and {confirmed}", unread, files=Figure(files),
                        values=values, confirmed=say._("it confirmed") if uncertain == 1 else say._("they confirmed"))


_SHARED: dict[tuple[Path, bool], Scorer] = {}


def shared_scorer(content: Path | str | Content | None, strict: bool = False) -> Scorer:
    """A scorer kept between calls of :func:`scoring.score` for one content folder; it notices catalog edits."""
    if isinstance(content, Content):
        return Scorer(content, strict=strict)
    root = (Path(content) if content is not None else content_dir()).resolve()
    scorer = _SHARED.get((root, strict))
    if scorer is None:
        scorer = _SHARED[root, strict] = Scorer(root, watch=True, strict=strict)
    return scorer
