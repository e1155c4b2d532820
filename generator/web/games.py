"""The companion's only door to the games and the scorer.

Everything the web layer needs from the registry, `scoring/` and the catalogs goes through this module: the game
ids and names, a game's catalog and end-state format (a `generator.fields.Record` tree the forms are built from)
and its table hints (how the format is entered at the table, from the game's package), scoring a mapping or a
game's filled score sheets, and the JSON result.
"""

from __future__ import annotations

import base64
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from generator.errors import DonjonError, InputError, Problem
from generator.fields import Record
from generator.games.table import TableHints
from generator.i18n import Language, language
from generator.registry import find_game, game_ids, games

if TYPE_CHECKING:
    from generator.sheets.photo_marks import MarkRead
    from generator.sheets.read import SheetKind
    from generator.sheets.summary import ReadLine

__all__ = ["Games", "KeptRead", "MarkShown", "PhotoFrame", "PhotoReview", "Scored", "SheetReading", "file_name",
           "read_input"]


def read_input(path: Path) -> bytes:
    """A file given on the command line (an export to import), with the safe reader every input goes through: no
    FIFO, no device, bounded size, a clear error."""
    from generator.files import read_bytes

    return read_bytes(path, str(path))


@dataclass(frozen=True)
class Scored:
    """What scoring gave: the JSON result of end-states.md, or the problems that kept the state from being read."""

    #: the scorer's JSON result (with `warnings`, empty when the scorer gives none); None if unread
    result: dict[str, Any] | None
    #: format problems (wrong types, unknown names...), each {"where", "message"}; empty when read
    problems: list[dict[str, str]] = field(default_factory=list)
    #: the whole message of an unreadable state, as `donjon score` prints it
    error: str = ""
    #: a rule is broken: each player's total and breakdown as the rules compute them with the broken rules set
    #: aside (`Scorer.score_provisional`), for the table to show as provisional; empty when none can be computed
    provisional: list[dict[str, Any]] = field(default_factory=list)
    #: why the scored state does not show the end of the game (no castle sheet has the end Cloud), else None: a
    #: table, which holds every player's part, is not saved then (the scorer's `Result.end_missing`)
    end_missing: str | None = None
    #: the places, in the result's warnings, of the one that tells a file what `end_missing` tells a table (a file
    #: may leave out the part that shows the end; a table holds every part, and says `end_missing` instead)
    end_warnings: tuple[int, ...] = ()

    @property
    def readable(self) -> bool:
        return self.result is not None

    @property
    def table_warnings(self) -> list[dict[str, str]]:
        """The warnings a table shows: the result's, but those `end_missing` says in a table's words."""
        found = self.result.get("warnings", []) if self.result is not None else []
        return [w for i, w in enumerate(found) if i not in self.end_warnings]


def normalised(result: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON result with `warnings` always present (a scorer without them gives none)."""
    out = dict(result)
    out.setdefault("warnings", [])
    return out


def _scanned(data: bytes, name: str) -> bool:
    """Whether a PDF is a scan (a PDF with no form fields), which is read as a photo; a PDF that cannot be read
    is not (the reader of filled sheets says why)."""
    from generator.sheets.forms import form_fields

    try:
        return not form_fields(data, name)
    except DonjonError:
        return False


def _problems(err: DonjonError) -> list[dict[str, str]]:
    problems: tuple[Problem, ...] = getattr(err, "problems", ()) or ((err.problem,) if hasattr(err, "problem") else ())
    return [{"where": p.where, "message": p.message} for p in problems] or [{"where": "", "message": str(err)}]


class _ByIdElse(dict[str, str]):
    """Games' names by id; a game named nowhere (a sheet of one's own saved before the history kept its words, and
    not served now) by its id, on a page as in `donjon history`."""

    def __missing__(self, game: str) -> str:
        return game


class Games:
    """The registered games, their catalogs (loaded once) and the scorer, for one content folder."""

    def __init__(self, content: Path | None = None) -> None:
        from scoring.engine import Scorer

        self._content = content
        self._shipped_games: Games | None = None
        if content is None:
            self._scorer = Scorer(content)
            self.ids: tuple[str, ...] = game_ids()
        else:
            # a content folder: the games it holds, its sheets of one's own included (loading registers them)
            from generator.content import load_content

            loaded = load_content(content)
            self._scorer = Scorer(loaded)
            self.ids = tuple(g for g in game_ids() if g in loaded.catalogs)
        self.names: dict[str, str] = {g.id: g.name for g in games() if g.id in self.ids}
        self._frames: dict[tuple[str, str], PhotoFrame] = {}
        self._localised: dict[tuple[str, str], Any] = {}

    def names_in(self, lang: Language) -> dict[str, str]:
        """The games' names in `lang`: a title an edition is sold under (Oh mon château), else the game's own."""
        if lang.english:
            return self.names
        from generator.games.sheet_game import SheetGame

        out = {}
        for game in self.ids:
            found = find_game(game)
            if isinstance(found, SheetGame):  # the name its sheet.yaml gives in that language, as its print says
                out[game] = found.sheet.in_language(lang.code)[0]
                continue
            try:
                out[game] = str(self.catalog(game, lang)[0].info.name)
            except DonjonError:  # a catalog that cannot be loaded keeps its name: its pages say what is wrong
                out[game] = self.names[game]
        return out

    def result_labels(self, game: str, lang: Language) -> dict[str, str]:
        """How a result's breakdown names its parts in `lang`: the form's labels, the catalog's names of the entries
        scored (`guest:queen` is la Reine)."""
        from generator.games.table import result_labels

        return result_labels(self.hints(game), self.catalog(game, lang)[0], lang)

    # --- the history's games, whichever catalogs they were played with ---

    def _shipped(self) -> Games:
        """The shipped catalogs' games (this, without a content folder): a history holds games played with them
        when the companion serves a content folder that holds none (a designer's sheet of their own)."""
        if self._content is None:
            return self
        if self._shipped_games is None:
            self._shipped_games = Games()
        return self._shipped_games

    def names_shown(self, lang: Language, kept: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
        """The name in `lang` of every game a history may hold: the games served, the shipped games, and the sheets
        of one's own it keeps the words of (`kept`, `store.kept_words`) that are not served now."""
        out = _ByIdElse({game: str(said["name"].get(lang.base) or said["name"].get("en") or game)
                         for game, said in kept.items()})
        if self._shipped() is not self:
            out.update(self._shipped().names_in(lang))
        out.update(self.names_in(lang))
        return out

    def ids_shown(self, kept: Mapping[str, Mapping[str, Any]]) -> tuple[str, ...]:
        """Every game a history may hold (as :meth:`names_shown` names them): the served, the shipped, the kept."""
        return tuple(dict.fromkeys((*self.ids, *self._shipped().ids, *kept)))

    def labels_shown(self, game: str, lang: Language, kept: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
        """How a saved game's breakdown names its parts in `lang` (:meth:`result_labels`), whichever catalogs it was
        played with: the served ones, the shipped ones, or the words kept of a sheet of one's own not served now."""
        if game in self.ids:
            return self.result_labels(game, lang)
        if game in self._shipped().ids:
            return self._shipped().result_labels(game, lang)
        return dict(kept.get(game, {}).get("labels", {}).get(lang.base) or {})

    def hints_shown(self, game: str) -> TableHints:
        """How a saved game's result is shared (BG Stats: whether the highest score wins, its options): its game's
        hints, or, for a sheet of one's own not served now, a sheet's (the highest score wins, no options)."""
        if game in self.ids or game in self._shipped().ids:
            return self.hints(game)
        return TableHints(parts="sheets", part_name="player")

    def lower_is_better(self) -> list[str]:
        """The games a history may hold (served or shipped) whose lowest score is the best (Guédelon's rounds)."""
        return [g for g in dict.fromkeys((*self.ids, *self._shipped().ids)) if not self.hints(g).highest_wins]

    def own_words(self) -> dict[str, dict[str, dict[str, Any]]]:
        """The words of each sheet of one's own served, by its id: its name and its breakdown's labels in each
        language donjon speaks (`{"name": {"fr": ...}, "labels": {"fr": {...}}}`). The history keeps them
        (`store.keep_words`): its games are named so when the companion or `donjon history` runs without the
        sheet's folder, which alone knows them (its id and its categories' keys are all a saved game holds)."""
        from generator.games.sheet_game import SheetGame
        from generator.i18n import INTERFACE

        out: dict[str, dict[str, dict[str, Any]]] = {}
        for game in self.ids:
            if not isinstance(find_game(game), SheetGame):
                continue  # a shipped game is known to every donjon
            said: dict[str, dict[str, Any]] = {"name": {}, "labels": {}}
            for code in INTERFACE:
                lang = language(code)
                said["name"][code] = self.names_in(lang)[game]
                said["labels"][code] = self.result_labels(game, lang)
            out[game] = said
        return out

    def hints(self, game: str) -> TableHints:
        """How the game's end-state format is entered at the table (from the game's package)."""
        return find_game(game).table_hints()

    def catalog(self, game: str, lang: Language | None = None) -> tuple[Any, Record[Any]]:
        """The game's catalog and its end-state format (raises the catalog's error if it cannot be loaded); in
        `lang`, the catalog's names and texts in that language (what a form offers to pick), the same format."""
        found, spec = self._scorer.catalog(game)
        if lang is None or lang.english:
            return found, spec
        key = (game, lang.code)
        cached = self._localised.get(key)
        if cached is None or cached[0] is not found:  # loaded again (a catalog edited): localised again
            from generator.catalog.translations import localise

            cached = self._localised[key] = (found, localise(found, lang.code))
        return cached[1], spec

    def players_range(self, game: str) -> tuple[int, int]:
        """How many players the game takes, from its catalog (GameInfo)."""
        catalog, _ = self.catalog(game)
        return int(catalog.info.players_min), int(catalog.info.players_max)

    def score(self, end_state: Mapping[str, Any], lang: Language | None = None) -> Scored:
        """Score a mapping shaped like an end-state file, through the same engine as `donjon score`; the rules'
        messages in `lang` (English)."""
        try:
            result = self._scorer.score(end_state, lang)
        except InputError as err:
            return Scored(None, _problems(err), str(err))
        provisional: list[dict[str, Any]] = []
        if not result.valid:
            found = self._scorer.score_provisional(end_state, lang)
            provisional = found.to_dict()["players"] if found is not None else []
        said = {part.end_warning for part in result.parts} - {""}
        return Scored(normalised(result.to_dict()), provisional=provisional, end_missing=result.end_missing,
                      end_warnings=tuple(i for i, w in enumerate(result.warnings) if w.rule in said))

    def score_castle_sheet(self, data: bytes, filename: str, game: str = "once-upon-a-castle",
                           lang: Language | None = None) -> SheetReading:
        """A filled score sheet of `game`, checked and scored alone through the engine, and the values read from
        it as one part of the game's format (`{"player": ..., "towers": [...]}`, with the version under
        "version").

        A fillable PDF is read by its form fields (`Scorer.score_sheets`). A photo of a scan-ready sheet (JPEG,
        PNG, HEIC) is read by its marks, and comes back with a :class:`PhotoReview`: what was read at each mark,
        over the straightened photo, for the player to check and correct before the values are kept
        (:meth:`sheet_from_marks`).
        """
        name = file_name(filename)
        if not (data.lstrip()[:5] == b"%PDF-" or name.lower().endswith(".pdf")) or _scanned(data, name):
            # a PDF without form fields is a scan of the printed scan-ready sheet (a phone's scanner app): its
            # marks are read as a photo's are, and checked by the player before anything is kept
            return self.read_photos([(data, name)], game, lang)
        the_game = find_game(game)
        try:
            result = self._scorer.score_read(the_game, [(data, name)], lang=lang)
        except DonjonError as err:
            return SheetReading({}, Scored(None, _problems(err), str(err)), file=name)
        catalog, _ = self.catalog(game)
        document = the_game.read_sheets([(data, name)], catalog).document.data
        sheet = dict(document["sheets"][0])
        sheet["version"] = document.get("version", game)
        return SheetReading(sheet, Scored(normalised(result.to_dict())))

    def read_photos(self, photos: Sequence[tuple[bytes, str]], game: str = "once-upon-a-castle",
                    lang: Language | None = None) -> SheetReading:
        """Photos of ONE filled scan-ready sheet of `game` (each its bytes and file name, the first photo first),
        read as `donjon score a.jpg b.jpg --names Ana,Ana` reads them: each on its own, then combined mark by mark
        (:func:`generator.sheets.photos.combine`). What they make, scored alone, the check page of it, and what each
        photo read on its own (`SheetReading.kept`: the companion keeps it with the photo, which is then never read
        again, :meth:`read_kept`); photos that cannot be read together (one shows no sheet, or another sheet) come
        back unreadable with the reader's words, in English (`Scored.error`), and its reason's name
        (`SheetReading.reason`)."""
        names = _unique([name for _, name in photos])
        return self._read_photos([(data, name) for (data, _), name in zip(photos, names, strict=True)], game, lang)

    def _read_photos(self, files: list[tuple[bytes, str]], game: str, lang: Language | None) -> SheetReading:
        from generator.games.base import SheetOptions

        catalog, _ = self.catalog(game)
        # photos of one sheet share a player's name; what the name is does not matter (the part keeps its own)
        options = SheetOptions(names=("photos",) * len(files)) if len(files) > 1 else None
        try:
            read = find_game(game).read_sheets(files, catalog, options)
        except DonjonError as err:
            at_fault = {p.file for p in getattr(err, "problems", ())}
            return SheetReading({}, Scored(None, _problems(err), str(err)),
                                file=at_fault.pop() if len(at_fault) == 1 else "")
        if read.unread:  # several photos, and they cannot be read as one sheet: the first reason said
            first = read.unread[0]
            return SheetReading({}, Scored(None, [{"where": first.file, "message": first.why}],
                                           f"{first.file}: {first.why}"), reason=first.reason, file=first.file)
        photo = read.photos[0]  # type: ignore[attr-defined]  # a photo was read: the engine's FilledSheets
        sheet = {k: v for k, v in read.document.data["sheets"][0].items() if k != "player"}
        sheet["version"] = read.document.data.get("version", game)
        review = _review(photo, lang, self.value_names(game, str(sheet["version"]), lang),
                         self.field_labels(game, lang))._replace(photos=len(files))
        marks = tuple(MarkReadBack(r.state, r.why, r.code) for r in photo.reads)
        # the first photo's straightened sheet is the review's (the combined read's image is the first photo's)
        first_image = base64.b64decode(review.image.partition(",")[2])
        kept = tuple(_kept(part, first_image if i == 0 else None) for i, part in enumerate(photo.parts or (photo,)))
        return SheetReading(sheet, self._score_one(game, sheet, lang), review, marks=marks, kept=kept)

    def read_kept(self, kept: Sequence[KeptRead], game: str = "once-upon-a-castle",
                  lang: Language | None = None) -> SheetReading:
        """Photos of ONE sheet as each was read when it was taken (:attr:`SheetReading.kept`), combined mark by mark
        as :meth:`read_photos` combines them, without reading any photo again: the same reading, in `lang`."""
        from generator.errors import InputError
        from generator.sheets.marks import interpret
        from generator.sheets.photos import Seen, combine_reads
        from generator.sheets.read import _said, unread_file

        first = kept[0]
        the_map, to_part = self._marks_of(game, first.version, first.paper)
        labels = _unique([photo.file for photo in kept])  # as read_photos names them in messages
        try:
            # a photo of the first one's sheet read on another map: not this donjon's sheet any more (a photo of
            # another sheet is refused by combine_reads as such)
            if any(len(photo.reads) != len(the_map.marks) for photo in kept
                   if (photo.version, photo.paper) == (first.version, first.paper)):
                raise InputError(first.file, "was read as a sheet this donjon no longer prints: take it again")
            reads = combine_reads(the_map, [Seen(label, photo.version, photo.paper, photo.reads)
                                            for label, photo in zip(labels, kept, strict=True)])
        except InputError as err:  # as read_filled lists a photo of several that cannot be read with the others
            at_fault = err.problems[0].file if err.problems else labels[0]
            unread = unread_file(0, at_fault, _said(err, at_fault))
            return SheetReading({}, Scored(None, [{"where": unread.file, "message": unread.why}],
                                           f"{unread.file}: {unread.why}"), reason=unread.reason, file=unread.file)
        reading = interpret(the_map, [r.state for r in reads], None, [r.why for r in reads], [r.code for r in reads])
        sheet = {k: v for k, v in to_part(reading.values).items() if k != "player"}
        sheet["version"] = first.version
        marks = tuple(MarkReadBack(r.state, r.why, r.code) for r in reads)
        image = "data:image/jpeg;base64," + base64.b64encode(first.image).decode("ascii")
        _, _, review = self._checked(game, first.version, first.paper, marks, {}, image, lang)
        return SheetReading(sheet, self._score_one(game, sheet, lang), review._replace(photos=len(kept)), marks=marks,
                            kept=tuple(kept))

    def still_read_so(self, kept: KeptRead, game: str = "once-upon-a-castle") -> bool:
        """Whether a photo kept would read as it did (`kept`): by the same reader, on the same map of marks. Not
        when its sheet has no map in this donjon (a version it no longer prints): the photo, read again, says what
        it shows."""
        from generator.errors import InputError
        from generator.sheets.photos import reader_stamp

        try:
            the_map, _ = self._marks_of(game, kept.version, kept.paper)
        except (InputError, KeyError, ValueError):
            return False
        return kept.stamp == reader_stamp(the_map)

    def value_names(self, game: str, version: str, lang: Language | None) -> dict[str, dict[str, str]]:
        """The names of the values a control picks by id (a castle guest's id -> its name in `lang`), by field, for
        a sheet of `version`: what a photo's summary says instead of the catalog's ids. Empty when the catalog
        cannot be loaded (its pages say why): the ids are shown then."""
        try:
            catalog, _ = self.catalog(game, lang)
        except DonjonError:
            return {}
        return {name: dict(control.choices(catalog, {"version": version}))
                for name, control in self.hints(game).widgets.items()
                if control.kind in ("pick", "select") and control.choices}

    def field_labels(self, game: str, lang: Language | None) -> dict[str, str]:
        """A game's own labels of its fields in `lang` (a sheet of one's own's, from its sheet.yaml), by field: what a
        photo's review says instead of the fields' ids. Empty for a game whose fields donjon's catalogs name."""
        hints = self.hints(game)
        return dict(hints.labels_in(lang or language())) if hints.labels_in is not None else {}

    def sheet_from_marks(self, version: str, paper: str, filled: set[int], given: Mapping[str, str], image: str,
                         game: str = "once-upon-a-castle", lang: Language | None = None
                         ) -> tuple[dict[str, Any], list[str], PhotoReview]:
        """The part a player's checked marks make (the check page of a photo: each mark filled or not, as the player
        ticked it, and a value typed for a field the marks leave undecided, `given`, as `--set` takes it), what
        still keeps it from being read (two values for one tower, a value its field cannot take...), and the
        check page again for those marks (`image`: the straightened photo the page showed, kept only when it is
        one). What was read and why a field is undecided are said in `lang` (English)."""
        from generator.sheets.summary import said_once, why_said, words

        the_map, to_part = self._marks_of(game, version, paper)
        count = len(the_map.marks)
        problems = ["a mark that is not on this sheet was sent"] if any(not 0 <= i < count for i in filled) else []
        states = [MarkReadBack(i in filled) for i in range(count)]
        reading, bad, review = self._checked(game, version, paper, states, given, image, lang)
        problems.extend(bad)
        labels = self.field_labels(game, lang)  # a sheet of one's own names its fields by them, in every language
        names = self.value_names(game, version, lang)  # and its values (and the castle its guests) by their names
        said = lang or language()
        # each undecided field named once: French and German reasons start with its label ("tours #3 : ...")
        problems.extend(said_once(u.field if said.english and not labels else words(u.field, said, labels),
                                  why_said(u, said, labels, names), said) for u in reading.uncertain)
        return to_part(reading.values), problems, review

    def answered(self, read: SheetReading, marks: Mapping[int, bool], given: Mapping[str, str],
                 game: str = "once-upon-a-castle", lang: Language | None = None) -> tuple[PhotoReview, list[str]]:
        """The check page of photos read (`read`) with what the player answered on it applied over the reading: each
        mark they tapped (its number -> filled or not) and each value they typed (`given`, as `--set` takes it)
        beat what the photos read; the reader's reading, its doubts and their reasons, stand for every other mark.
        With it, why a value typed cannot be taken (the page says it; the marks stand for that field then)."""
        review = read.review
        assert review is not None, "photos that were read"
        if not marks and not given:
            return review, []
        states = [MarkReadBack(marks[i]) if i in marks else back for i, back in enumerate(read.marks)]
        _, bad, checked = self._checked(game, review.version, review.paper, states, given, review.image, lang)
        return checked._replace(photos=review.photos), bad

    def _checked(self, game: str, version: str, paper: str, states: Sequence[MarkReadBack], given: Mapping[str, str],
                 image: str, lang: Language | None) -> tuple[Any, list[str], PhotoReview]:
        """What marks make (each read, tapped or undecided, with the reader's reason), with the values a person gave
        (`given`): the reading, why a value given cannot be taken, and the check page of it. A field given a value
        is listed with the fields to check (with its value, to change) even when its marks decide it, so that the
        page sends it again and the player sees that their value is the one taken."""
        from generator.sheets.marks import BadConfirmations, Uncertainty, interpret
        from generator.sheets.summary import said

        the_map, _ = self._marks_of(game, version, paper)
        count = len(the_map.marks)
        states = [*states[:count], *[MarkReadBack(False)] * (count - len(states))]
        read = [s.state for s in states]
        whys, codes = [s.why for s in states], [s.code for s in states]
        by_marks = interpret(the_map, read, None, whys, codes)
        bad: list[str] = []
        # the values given that can be taken: one that cannot is said, and the others stand; a sheet of one's own's
        # value typed by its name (as the page names it) is its id
        taken = self._kind_of(game, version).as_ids(given)
        while True:
            try:
                reading = interpret(the_map, read, taken, whys, codes)
                break
            except BadConfirmations as refused:
                # the field by its label, the values it takes as the page names them (ids beside where they differ)
                bad.extend(err.said(lang, self.field_labels(game, lang), self.value_names(game, version, lang))
                           for err in refused.errors)
                if any(err.field not in taken for err in refused.errors):  # not one value's fault: the marks alone
                    reading, taken = by_marks, {}
                    break
                for err in refused.errors:
                    del taken[err.field]
        unsure = {u.field for u in by_marks.uncertain}
        typed = lang._("you typed its value") if lang is not None else "you typed its value"
        # what the marks leave undecided, then what a value given makes doubtful (a sun given where the towers are
        # not all built), then each other value given
        doubts = [*by_marks.uncertain, *(u for u in reading.uncertain if u.field not in unsure)]
        doubts.extend(Uncertainty(field, typed) for field in given
                      if field in by_marks.fields and field not in {u.field for u in doubts})
        shown = tuple(m._replace(check=m.field in unsure) for m in _shown(
            the_map, read, lang, self.field_labels(game, lang), self.value_names(game, version, lang)))
        lines = said(the_map, reading.values, doubts, taken, lang, self.value_names(game, version, lang),
                     self.field_labels(game, lang))
        # a value that cannot be taken stays in its box, to be mended (its field is said as the marks say it)
        lines = tuple(line._replace(given=given[line.field], refused=line.field not in taken)
                      if line.why and line.field in given else line for line in lines)
        review = PhotoReview(version, paper, image if image.startswith("data:image/jpeg;base64,") else "", shown,
                             lines, the_map.width / the_map.height)
        return reading, bad, review

    def photo_frame(self, game: str, version: str = "") -> PhotoFrame:
        """The outline of the game's scan-ready sheet (of `version`, on its first paper) and its four corner squares,
        placed in a phone's screen as the photo guide draws them (drawn once per sheet)."""
        found = self._frames.get((game, version))
        if found is None:
            own = getattr(find_game(game), "kind", None)  # a sheet of one's own (generator.games.sheet_game)
            if own is None:
                from generator.games.castle.sheets import layout

                paper = layout(version).papers[0]
            else:
                paper = own().layout.papers[0]
            the_map, _ = self._marks_of(game, version, paper)
            found = self._frames[game, version] = _frame(the_map)
        return found

    def _marks_of(self, game: str, version: str, paper: str) -> tuple[Any, Any]:
        """The map of marks of a game's sheet (the castle's of `version`, a sheet of one's own's), and how the
        values its marks make become one part of the game's format."""
        catalog, _ = self.catalog(game)
        own = getattr(find_game(game), "kind", None)  # a sheet of one's own (generator.games.sheet_game)
        if own is None:
            from generator.games.castle.sheets import end_state_sheet, mark_map

            return mark_map(catalog, version, paper), lambda values: end_state_sheet(values, {})[0]
        return own().map(paper), dict

    def _kind_of(self, game: str, version: str) -> SheetKind:
        """The sheet a game's photo of `version` is (the castle's of that version, a sheet of one's own), which takes
        a value typed by the name the page gives it (`Königin` for `queen`) as its id."""
        own = getattr(find_game(game), "kind", None)  # a sheet of one's own (generator.games.sheet_game)
        if own is not None:
            kind: SheetKind = own()
            return kind
        from generator.games.castle.sheets import kinds

        catalog, _ = self.catalog(game)
        return next(k for k in kinds(catalog) if k.layout.identity[1] == version)

    def _score_one(self, game: str, sheet: Mapping[str, Any], lang: Language | None) -> Scored:
        part = {k: v for k, v in sheet.items() if k != "version"}
        version = {"version": sheet["version"]} if sheet.get("version") != game else {}
        return self.score({"game": game, **version, "sheets": [{"player": "Player 1", **part}]}, lang)


def file_name(filename: str) -> str:
    """A file's name as a phone sent it, made safe to name in messages (never a path of its own)."""
    name = re.sub(r"[^\w.() -]", "_", os.path.basename(filename))[:100].strip()
    if not name.strip(".") or name.startswith("."):  # "", ".", "..", a hidden name
        name = "sheet"  # read by its content: a PDF by its header, anything else as a photo
    return name


def _unique(names: Sequence[str]) -> list[str]:
    """The photos' file names, each numbered when two share one (a phone names every photo `image.jpg`)."""
    return [f"{i}-{n}" if names.count(n) > 1 else n for i, n in enumerate(names, 1)]


class MarkReadBack(NamedTuple):
    """What was found at one mark of a sheet: filled, empty or undecided (None), and for an undecided mark why, in
    the reader's words, and its reason's code (generator.sheets.photo_reasons.FIELD_CAUSES)."""

    state: bool | None
    why: str = ""
    code: str = ""


class SheetReading(NamedTuple):
    """A filled sheet read for the companion: the part it makes, how it scored, and (a photo) what was read."""

    sheet: dict[str, Any]
    scored: Scored
    review: PhotoReview | None = None
    #: photos that could not be read as one sheet: the reason's name (generator.sheets.advice), "" when unknown
    reason: str = ""
    #: photos read: what was found at each mark of the sheet's map, in its order (what a player's taps go over)
    marks: tuple[MarkReadBack, ...] = ()
    #: the file that could not be read, by the name messages give it ("" when read, or when no one file is at fault)
    file: str = ""
    #: photos read: what each read on its own, in order (kept with each photo, so that it is read once)
    kept: tuple[KeptRead, ...] = ()


class KeptRead(NamedTuple):
    """One photo of a sheet as it was read on its own, in no language: what :meth:`Games.read_kept` combines with
    the photos taken before or after it, so that a photo is read once, when it is taken (decoding a phone's photo of
    up to SHEET_MAX_BYTES and finding its marks takes seconds and hundreds of MB), and a check page is drawn from
    this alone. The companion keeps it with the photo (`table_photos.reading` and `.image`: :meth:`stored`)."""

    #: the file's name, as messages name the photo
    file: str
    #: the sheet's identity (the castle's version) and paper: the map of its marks
    version: str
    paper: str
    #: each mark read, in the map's order
    reads: tuple[MarkRead, ...]
    #: the sheet straightened, as a JPEG (`straightened_jpeg`: a few hundred KB), what the check page draws marks over
    image: bytes
    #: the reader and the map of marks it was read by (`generator.sheets.photos.reader_stamp`): kept readings of
    #: another are read again (:meth:`Games.still_read_so`)
    stamp: str = ""

    def stored(self) -> str:
        """What is kept of it besides its image, as JSON: the sheet, then each mark's state, ink, confidence, why
        (words and code) and place (floats as JSON writes them: read back the same)."""
        return json.dumps({"version": self.version, "paper": self.paper, "stamp": self.stamp,
                           "reads": [[r.state, r.fill, r.confidence, r.why, r.code, r.x, r.y] for r in self.reads]},
                          separators=(",", ":"))

    @classmethod
    def from_stored(cls, file: str, text: str | None, image: bytes | None) -> KeptRead | None:
        """A reading kept (:meth:`stored`), or None when there is none or it cannot be read back (a database written
        before readings were kept, or by hand): the photo is then read again."""
        from generator.sheets.photo_marks import MarkRead

        if text is None or not image:
            return None
        try:
            data = json.loads(text)
            reads = tuple(MarkRead(state if state is None else bool(state), float(fill), float(confidence), str(why),
                                   str(code), float(x), float(y))
                          for state, fill, confidence, why, code, x, y in data["reads"])
            return cls(file, str(data["version"]), str(data["paper"]), reads, bytes(image), str(data.get("stamp", "")))
        except (ValueError, KeyError, TypeError):
            return None


class MarkShown(NamedTuple):
    """One mark as the correction page shows it: where it is, in percent of the page, and what was read."""

    #: the mark's place in the sheet's map of marks (what the correction form sends back)
    number: int
    field: str
    value: str
    shape: str
    left: float
    top: float
    width: float
    height: float
    #: "filled", "empty" or "uncertain"
    state: str
    #: its field could not be decided (this mark undecided, or two values filled): the player must look
    check: bool = False
    #: the mark in words, as a screen reader says it ("towers #1: units 5", in the page's language; the lines of
    #: what was read name fields and values so); "" where no language was given (the page then says field: value)
    said: str = ""


class PhotoReview(NamedTuple):
    """A photo read, for the player to check: the sheet straightened (a data: URL), and each mark over it."""

    version: str
    paper: str
    image: str
    marks: tuple[MarkShown, ...]
    #: what was read, as lines of text: the fields to check first, then each row of the sheet
    lines: tuple[ReadLine, ...]
    #: the sheet's width / height (its photo is shown in that shape)
    ratio: float
    #: how many photos of the sheet were read together
    photos: int = 1


def _review(photo: Any, lang: Language | None = None, names: Mapping[str, Mapping[str, str]] | None = None,
            labels: Mapping[str, str] | None = None) -> PhotoReview:
    from generator.sheets.photos import straightened_jpeg
    from generator.sheets.summary import said

    the_map = photo.map
    uncertain = photo.reading.uncertain
    unsure = {u.field for u in uncertain}
    shown = tuple(m._replace(check=m.field in unsure)
                  for m in _shown(the_map, [r.state for r in photo.reads], lang, labels, names))
    image = "data:image/jpeg;base64," + base64.b64encode(straightened_jpeg(photo)).decode("ascii")
    return PhotoReview(photo.identity, the_map.paper, image, shown,
                       said(the_map, photo.reading.values, uncertain, lang=lang, names=names, labels=labels),
                       the_map.width / the_map.height)


def _kept(photo: Any, image: bytes | None = None) -> KeptRead:
    """What is kept of one photo read on its own (a `generator.sheets.photos.PhotoRead`), with its sheet
    straightened (`image`, when already made)."""
    from generator.sheets.photos import reader_stamp, straightened_jpeg

    return KeptRead(photo.file, photo.map.version, photo.located.paper, tuple(photo.reads),
                    image if image is not None else straightened_jpeg(photo), reader_stamp(photo.map))


class PhotoFrame(NamedTuple):
    """A scan-ready sheet in a phone's screen, as the photo guide draws it: the screen's size, the sheet's outline
    in it and its four corner squares (x, y, side), in the drawing's units."""

    width: float
    height: float
    sheet: tuple[float, float, float, float]
    squares: tuple[tuple[float, float, float], ...]


#: The guide's phone screen (its units), and the table left around the sheet: a finger's width, as the tip says.
SCREEN = (200.0, 300.0)
SCREEN_MARGIN = 0.1


def _frame(the_map: Any) -> PhotoFrame:
    width, height = SCREEN
    scale = min(width * (1 - 2 * SCREEN_MARGIN) / the_map.width, height * (1 - 2 * SCREEN_MARGIN) / the_map.height)
    left, top = (width - the_map.width * scale) / 2, (height - the_map.height * scale) / 2
    squares = tuple((round(left + m.x * scale, 2), round(top + m.y * scale, 2), round(m.size * scale, 2))
                    for m in the_map.markers)
    return PhotoFrame(width, height, (round(left, 2), round(top, 2), round(the_map.width * scale, 2),
                                 round(the_map.height * scale, 2)), squares)


def _shown(the_map: Any, states: list[bool | None], lang: Language | None = None,
           labels: Mapping[str, str] | None = None,
           names: Mapping[str, Mapping[str, str]] | None = None) -> tuple[MarkShown, ...]:
    """Each mark of a map in percent of its page, with what was read there (empty when `states` is short), and
    named in `lang` when given."""
    shown = []
    for index, mark in enumerate(the_map.marks):
        read = states[index] if index < len(states) else False
        state = "uncertain" if read is None else "filled" if read else "empty"
        value = str(mark.value).lower() if isinstance(mark.value, bool) else str(mark.value)
        shown.append(MarkShown(index, mark.field, f"{mark.digit} {value}" if mark.digit else value, mark.shape, round(100 * mark.x / the_map.width, 3),
                               round(100 * mark.y / the_map.height, 3), round(100 * mark.width / the_map.width, 3),
                               round(100 * mark.height / the_map.height, 3), state,
                               said=_mark_said(mark, lang, labels or {}, names or {}) if lang is not None else ""))
    return tuple(shown)


def _mark_said(mark: Any, lang: Language, labels: Mapping[str, str], names: Mapping[str, Mapping[str, str]]) -> str:
    """A mark in words, its field and its value as the lines of what was read say them (`summary.words`,
    `value_words`): `sun: yes`, `towers #1: units 5` (a digit's place by the sheet's own word), `guests: Queen`."""
    from generator.sheets.summary import unindexed, value_words, words
    from generator.web import messages

    value = mark.value
    if mark.digit:
        said = f"{lang._(mark.digit)} {value}"
    elif isinstance(value, str) and value and unindexed(mark.field) not in names:
        said = lang._(value)  # a word of the sheet's ("built"), in the catalog with the sheet's words
    else:
        said = value_words(value, lang, names.get(unindexed(mark.field)))
    return lang._(messages.LABELLED).format(label=words(mark.field, lang, labels), value=said)
