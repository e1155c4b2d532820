"""Filled sheets of one game read back, whatever they are: fillable PDFs by their form fields
(:mod:`~generator.sheets.forms`), photos and PDF scans of scan-ready sheets by their marks
(:mod:`~generator.sheets.photos`), each as the value of each field of its layout; the game's mapping turns those
into its end state.

Values a person confirmed (`--set towers[1]=5`, or `sheets[1].towers[1]=5` when several photos are read) are
taken as given; players are named by `--names`, else by the sheet's `player` field (a PDF), its file's name, or
`Player N` for a photo (its name box is for people, not read). Several sheets of one game share one kind of
sheet (the castle's version). :class:`FilledSheets` says which file and field each place of the end state came
from, so the scorer's messages can name them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from generator.errors import InputError, Problem, UsageError, refused_sets
from generator.i18n import N_, Language, language
from generator.wording import listing, plural
from generator.yamlio import Document
from scoring.result import Uncertain, Unread, not_applied

if TYPE_CHECKING:
    from generator.sheets.draw import DrawnSheet
    from generator.sheets.layout import FieldDecl, SheetLayout
    from generator.sheets.marks import MarkMap, Uncertainty
    from generator.sheets.photos import PhotoRead

#: `sheets[1].towers[0]`: a confirmation naming its sheet.
_KEYED = re.compile(r"sheets\[(\d+)\]\.(.+)")
#: A PDF scan is rasterised at this many pixels per point (200 dpi) to be read as a photo.
SCAN_SCALE = 200 / 72
#: The pages of a PDF scan looked at for another sheet than its first page's: a table of four players' sheets
#: scanned on both sides is 8 pages; a longer PDF is not a scan of one game's sheets, and looking costs a second a page.
SCAN_PAGES = 8
_SHEET_PATH = re.compile(r"sheets\[(\d+)\](.*)")
_PARENT = re.compile(r"(\[[^\]]*\]|\.?[^.\[]+)$")


class SheetKind:
    """A sheet a file may be: a layout with the values it prints, drawn (and cached) when a reader needs it.

    `draw(variant, paper)` draws it (the game's or the sheet's own drawing, with its file name); `printed` says
    which file of `donjon build` is its scan-ready sheet, for messages."""

    def __init__(self, layout: SheetLayout, draw: Callable[[str, str], DrawnSheet], printed: str,
                 names: Callable[[str], Mapping[str, str]] | None = None,
                 printed_in: Callable[[], Sequence[tuple[str, Callable[[str, str], DrawnSheet]]]] | None = None,
                 lang: str | None = None) -> None:
        self.layout = layout
        self._draw = draw
        self.printed = printed
        #: a field's values' names in every language (folded -> the value), for a value typed by its name
        self.names = names
        #: how the same sheet is drawn in the other languages it may be printed in (only its words differ: its
        #: marks are the same), each with its language's code, for the photo reader to compare a photo with the
        #: print it shows
        self._printed_in = printed_in
        #: the language this sheet is printed in (`de`), when known: a photo showing it is answered with its names
        self.lang = lang
        self._languages: tuple[SheetKind, ...] | None = None
        self._cache: dict[tuple[str, str], DrawnSheet] = {}
        self._rasters: dict[tuple[str, float], Any] = {}

    def in_languages(self) -> tuple[SheetKind, ...]:
        """This sheet as printed in each language it may be printed in, itself first (each drawn when first
        needed, and kept)."""
        if self._languages is None:
            others = self._printed_in() if self._printed_in is not None else ()
            self._languages = (self, *(SheetKind(self.layout, draw, self.printed, self.names, lang=code)
                                       for code, draw in others))
        return self._languages

    def drawn(self, variant: str, paper: str | None = None) -> DrawnSheet:
        key = (variant, paper or self.layout.papers[0])
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._draw(*key)
        return found

    def raster(self, paper: str, scale: float) -> Any:
        """The scan-ready sheet as printed, rasterised in grey at `scale` pixels per point (the photo reader's
        reference; cached)."""
        key = (paper, scale)
        found = self._rasters.get(key)
        if found is None:
            from generator.sheets.photo_marks import rasterise

            found = self._rasters[key] = rasterise(self.drawn("scan", paper).page(), scale)
        return found

    def map(self, paper: str) -> MarkMap:
        found = self.drawn("scan", paper).map
        assert found is not None
        return found

    def choices(self, decl: FieldDecl) -> tuple[Any, ...]:
        """The values a choice field takes (its `values`, or the list an expression gives)."""
        return tuple(self.drawn("fillable").choices.get(decl.name, ()))

    def named(self, decl: FieldDecl) -> Mapping[str, str]:
        """The names of a field's values in every language its sheet is given in (folded -> the value)."""
        return self.names(decl.name) if self.names is not None else {}

    def as_ids(self, given: Mapping[str, str]) -> dict[str, str]:
        """Values a person gave for fields (`--set`, field -> text) with each value (each item of a list, between
        commas) typed by its name in a language of the sheet (`été`, `Sommer`) given as its id, as the map of marks
        takes it: the reasons and the table name values so, and a player types what they read. Text that names no
        value is kept as typed (the map says what it takes)."""
        if self.names is None:
            return dict(given)
        from generator.fields import normalise_name
        from generator.sheets.summary import unindexed

        out = {}
        for field, text in given.items():
            # `--set walls[1].flags[0]=...` names the values of `walls.flags`
            names = self.names(unindexed(field))
            out[field] = ",".join(names.get(normalise_name(part), part.strip()) for part in text.split(",")) \
                if names else text
        return out


@dataclass(frozen=True)
class FilledSheet:
    """One filled sheet: its kind (the castle's version), the game's sheet it makes, and where each value of it
    came from."""

    file: str
    identity: str
    data: dict[str, Any]
    #: path inside the sheet (`towers[1]`, `walls[0].flags[1]`, `sun`, `` for the whole sheet) -> field names
    fields: dict[str, tuple[str, ...]]
    #: the language the sheet says it is printed in (a fillable PDF's /Lang: `de`) or its photo shows, or None
    lang: str | None = None


@dataclass(frozen=True)
class FilledSheets:
    """Filled sheets of one game as one end-state document, and where each place of it came from."""

    document: Document
    sheets: tuple[FilledSheet, ...]
    #: values read from photos that wait for a person's word; None when no photo was read
    uncertain: tuple[Uncertain, ...] | None = None
    #: the identity field's name (the castle's `version`), for messages about the whole document
    identity_field: str = "sheet"
    #: the photos read, for the companion's correction page
    photos: tuple[PhotoRead, ...] = ()
    #: the files of several that could not be read (the document is then empty: nothing is scored)
    unread: tuple[Unread, ...] = ()
    #: the sheets given as several photos of them (the same name in --names): the name and the photos, in order
    combined: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def lang(self) -> str | None:
        """The language the sheets say they are printed in, when they say one and the same (`de`), else None: the
        language a name the scorer cannot take is answered in, as the sheet prints the names."""
        said = {sheet.lang for sheet in self.sheets}
        return said.pop() if len(said) == 1 else None

    def origin(self, where: str, lang: Language | None = None) -> tuple[str, str] | None:
        """The file and the field(s) a place of the document (`sheets[1].towers[0]`) was read from, in words (in
        `lang`, English when None): ("b.pdf", "field tower_1_value"), or ("b.pdf", "") for a whole sheet; None for a
        place of no one sheet."""
        from generator.sheets.forms import field_named

        found = _SHEET_PATH.fullmatch(where)
        if found is None:
            if where == "version" and self.sheets:
                return self.sheets[0].file, field_named(self.identity_field, lang)
            return None
        index, inner = int(found.group(1)), found.group(2) or ""
        if not 0 <= index < len(self.sheets):
            return None
        sheet = self.sheets[index]
        place = inner.lstrip(".")
        while place not in sheet.fields and place:
            place = _PARENT.sub("", place)
        held = sheet.fields.get(place, ())
        if not held:
            return sheet.file, ""
        if len(held) == 1:
            return sheet.file, field_named(held[0], lang)
        return sheet.file, (lang or language())._("fields {first} to {last}").format(first=held[0], last=held[-1])

    def where(self, where: str, lang: Language | None = None) -> str:
        """A place of the document as a message names it (in `lang`, English when None): `field tower_1_value`,
        with the file when several sheets were read (`b.pdf, field sun`); the file alone for a whole sheet."""
        found = self.origin(where, lang)
        if found is None:
            return ""
        file, name = found
        if len(self.sheets) == 1:
            return name
        return f"{file}, {name}" if name else file

    def problem(self, problem: Problem, lang: Language | None = None) -> Problem:
        """A problem the end-state format found, as a problem of the file and field it came from (named in `lang`,
        English when None)."""
        found = self.origin(problem.where, lang)
        if found is None:
            return problem
        file, name = found
        return Problem(file, None, name or problem.where, problem.message)


#: A `--set` given where no photo was read (said by `donjon score` too).
NO_PHOTO = N_("confirms values read from photos, and no photo was given")


def confirmations(given: Sequence[tuple[str, str]], files: Sequence[str], photos: Sequence[int],
                  groups: Sequence[Sequence[int]] = (), names: Sequence[str] = (), lang: Language | None = None
                  ) -> tuple[dict[int, dict[str, str]], list[UsageError]]:
    """Each `--set KEY=VALUE` by the index of the sheet it is for. With several files a KEY names its photo, by
    its file (`ben.jpg:towers[2]`: the file as given or its name alone) or its place (`sheets[1].towers[2]`, from
    0 in the order given); a bare FIELD is for the only photo (a usage error when several photos were given). A
    sheet of several photos (one of `groups`, the photos given one name in `names`) is also named by that name
    (`Ana:towers[2]`); whichever of its photos a key names, the value is for the sheet, kept at its first photo.
    Each key that names no photo is refused (the second list, in the order given), the others kept: every bad
    `--set` of a run is said at once, in `lang` (English when None)."""
    say = lang or language()
    first = {index: group[0] for group in groups for index in group}
    by_name = {names[group[0]].strip(): group[0] for group in groups if len(group) > 1}
    out: dict[int, dict[str, str]] = {}
    refused: list[UsageError] = []
    for key, value in given:
        try:
            if not photos:
                raise UsageError(f"--set {key}", say._(NO_PHOTO))
            index, field = _sheet_of(key.strip(), files, photos, first, by_name, say)
            if index not in photos:
                raise UsageError(f"--set {key}", say._("{file} (sheets[{index}]) is not a photo; --set confirms marks "
                                                       "read from photos").format(file=files[index], index=index))
        except UsageError as err:
            refused.append(err)
            continue
        out.setdefault(index, {})[field] = value
    return out, refused


def _sheet_of(key: str, files: Sequence[str], photos: Sequence[int], first: Mapping[int, int],
              by_name: Mapping[str, int], say: Language) -> tuple[int, str]:
    """The sheet a `--set` key is for (the first photo of a sheet of several, by `first`; `by_name` those sheets by
    their player's name), and its field; a key that names none is refused in `say`'s language."""
    count = len(files)
    found = _KEYED.fullmatch(key)
    if found is not None:
        index = int(found.group(1))
        if index >= count:
            raise UsageError(f"--set {key}", say.ngettext("there is {n} sheet (sheets[0] to sheets[{last}])",
                                                          "there are {n} sheets (sheets[0] to sheets[{last}])",
                                                          count).format(n=count, last=count - 1))
        return first.get(index, index), found.group(2)
    file, colon, field = key.rpartition(":")  # a field's name holds no colon; a file's path may
    if colon:
        if file in by_name:
            return by_name[file], field
        named = [i for i, f in enumerate(files) if f == file] or [i for i, f in enumerate(files)
                                                                  if PurePath(f).name == file]
        named = sorted({first.get(i, i) for i in named})  # the photos of one sheet are one sheet
        if not named:
            raise UsageError(f"--set {key}", say._("names no file given ({files})").format(files=", ".join(files)))
        if len(named) > 1:
            sheets = ", ".join(f"sheets[{i}]" for i in named)
            raise UsageError(f"--set {key}", say._("{file} names {n} files; say which one as sheets[N].{field} "
                                                   "({sheets})").format(file=file, n=len(named), field=field,
                                                                        sheets=sheets))
        return named[0], field
    if len(photos) == 1:
        return photos[0], key
    name = PurePath(files[photos[0]]).name
    raise UsageError(f"--set {key}", say._("{n} photos were read: say which one, as FILE:{key} (the photo's file "
                                           "name, {name}:{key}) or sheets[N].{key} (N from 0, in the order "
                                           "given)").format(n=len(photos), key=key, name=name))


def set_key(index: int, files: Sequence[str], field: str) -> str:
    """The `--set` key of a field of the photo `files[index]`: the field alone when it is the only file; else
    the photo's file name and the field (`ben.jpg:towers[2]`), or its place (`sheets[1].towers[2]`) when that
    name is not one file's alone or holds what a key cannot (`:` or `=`)."""
    if len(files) == 1:
        return field
    name = PurePath(files[index]).name
    if name and not set(name) & {":", "="} and sum(PurePath(f).name == name for f in files) == 1:
        return f"{name}:{field}"
    return f"sheets[{index}].{field}"


#: The game's mapping: the value of each field, and where each came from -> (its sheet, where each place came from).
ToData = Callable[[Mapping[str, Any], Mapping[str, tuple[str, ...]]], tuple[dict[str, Any], dict[str, tuple[str, ...]]]]


@dataclass(frozen=True)
class _Read:
    #: the file's place among those given
    index: int
    file: str
    identity: str
    values: dict[str, Any]
    where: dict[str, tuple[str, ...]]
    photo: PhotoRead | None = None
    named: str = ""
    #: the language the file says it is printed in (a PDF's /Lang) or a photo shows, or None
    lang: str | None = None


def read_filled(files: Sequence[tuple[bytes, str]], kinds: Sequence[SheetKind], options: Any, to_data: ToData,
                document: Callable[[Sequence[FilledSheet]], dict[str, Any]],
                labels: Mapping[str, str] | None = None,
                names: Mapping[str, Mapping[str, str]] | None = None,
                names_in: Callable[[str], Mapping[str, Mapping[str, str]]] | None = None,
                identity_names: Callable[[str | None], Mapping[str, str]] | None = None) -> FilledSheets:
    """Read filled sheets (each its bytes and its name for messages) of one game: fillable PDFs by their form
    fields, photos (and PDF scans) of scan-ready sheets by their marks; `to_data` makes each the game's sheet and
    `document` the whole end state. `options` is the game's SheetOptions (names, confirmed values, annotate).
    `labels`: a sheet of one's own's labels of its fields (by field), which name them to people (the uncertain
    values' lines, the annotated photos), and `names` its values' names (by field, id -> name), which name the
    values the uncertain values' reasons say; ids stay where a machine or `--set` reads them. Without `names`,
    `names_in(code)` gives them in the language a photo's print shows (a German castle sheet's König), when that is
    not English. `identity_names(code)`: the identity's values (the castle's versions) by name as a sheet printed in
    the language `code` (None: not known) prints them, id -> name, for sheets of two kinds to be told apart as the
    players see them; without it, by id.

    One file that cannot be read is an InputError (a photo alone is listed under `unread` instead with
    `options.unread_alone`), and so is a fillable PDF of several (it is mended in a PDF viewer). Of several, each
    photo is read on its own: one that cannot be read (no whole sheet in it, a sheet of another version) is listed
    under `unread` with why and what to change, and the others are still read, their uncertain values listed, so
    that one run says everything that stands between the photos and a score."""
    from generator.sheets.marks import BadConfirmations
    from generator.sheets.photo_reasons import PhotoRefused

    if not files:
        raise InputError("<filled sheets>", "no sheet given")
    # One player, one sheet (end-states.md): the same file given twice, or a copy of it, is not two sheets.
    first_of: dict[bytes, str] = {}
    for content, display in files:
        if content in first_of:
            raise InputError(display, f"is the same sheet as {first_of[content]} (the files are identical): each "
                                      "player's sheet is given once")
        first_of[content] = display
    displays = [display for _, display in files]
    kinds_of = [_kind(data, display) for data, display in files]
    if options.names and len(options.names) != len(files):
        raise UsageError("--names", f"gives {plural(len(options.names), 'name')} for {plural(len(files), 'sheet')}: "
                                    "one name per file, in order (two photos of one sheet under the same name)")
    groups = same_sheet(options.names, displays, kinds_of)
    photo_indexes = [group[0] for group in groups if kinds_of[group[0]] != "pdf"]
    confirmed, bad_sets = (confirmations(options.confirmed, displays, photo_indexes, groups, options.names,
                                                 options.lang)
                           if options.confirmed else ({}, []))
    if bad_sets and not photo_indexes:  # no photo to read: each --set is refused now, none could be taken
        raise refused_sets(bad_sets, options.lang)
    reads: list[_Read] = []
    unread: list[Unread] = []
    shared = {group[0]: options.names[group[0]].strip() for group in groups if len(group) > 1}  # a sheet's name
    for group in groups:
        index = group[0]
        try:
            if len(group) > 1:
                reads.append(_read_combined(group, files, kinds, kinds[0].as_ids(confirmed.get(index, {}))))
                continue
            content, display = files[index]
            # a value given by its name (as the reasons and the table name it) is read as the id the map takes
            reads.append(_read_one(index, content, display, kinds_of[index], kinds,
                                   kinds[0].as_ids(confirmed.get(index, {})), options.lang))
        except BadConfirmations as bad:  # the field by its label, the values it takes as the sheet prints them
            # the other photos are still read: their bad values are said with these, in one run
            bad_sets.extend(UsageError(f"--set {set_key(index, displays, err.field)}",
                                       f"{displays[index]}: {err.said(options.lang, labels, names)}")
                            for err in bad.errors)
        except InputError as err:
            alone = len(files) == 1
            if (alone and not options.unread_alone) or kinds_of[index] == "pdf":  # a PDF is mended in a viewer
                if bad_sets:  # a --set that cannot be taken is said first, as it always was: the command line's
                    raise refused_sets(bad_sets, options.lang) from None
                # the error stands for the photo; each `--set` given for it was not applied, and is said so after it
                unset = _unset(confirmed, index, displays, shared)
                for given in unset:
                    err.add_note(not_applied(given, displays[index]))
                err.unset = unset  # type: ignore[attr-defined]  # for the notes to be said in another language
                raise
            # a photo refused says what was seen; what to change comes with its reason, once
            refused = err.problems[0].file if err.problems else displays[index]
            at = displays.index(refused) if refused in displays else index
            said = err.issue.sentence if isinstance(err, PhotoRefused) else _said(err, refused)
            unread.append(replace(unread_file(at, refused, said, getattr(err, "code", None)),
                                  error=str(err) if alone else "", unset=_unset(confirmed, index, displays, shared)))
    if bad_sets:  # before anything is written (--annotate): a failed command leaves earlier outputs as they were
        raise refused_sets(bad_sets, options.lang)
    identity_field = kinds[0].layout.identity[0]
    if reads:
        first = reads[0]
        for other in reads[1:]:
            if other.identity != first.identity:
                # each named as its own sheet prints it (Petits Bâtisseurs on a French sheet): the player holding
                # the two sheets reads those words on them, not donjon's ids
                if other.photo is None:  # a PDF is mended in a viewer: said in the language
                    raise InputError(other.file, _two_kinds(other, first, identity_field, identity_names, options.lang))
                why = _two_kinds(other, first, identity_field, identity_names)
                reads.remove(other)
                said_in = functools.partial(_two_kinds, other, first, identity_field, identity_names)
                unread.append(replace(unread_file(other.index, other.file, why, "other-version"),
                                      unset=_unset(confirmed, other.index, displays, shared), said_in=said_in))
    sheets: list[FilledSheet] = []
    uncertain: list[Uncertain] = []
    for read in reads:
        if options.names:
            name = options.names[read.index].strip()
        elif read.photo is not None:
            # a photo's name box is for people: the player named by place, in the language of --lang ("Joueur 2")
            name = (options.lang or language("en"))._("Player {n}").format(n=read.index + 1)
        else:
            name = read.named or PurePath(read.file).stem
        data, origin = to_data(read.values, read.where)
        player_field = ("player",) if read.photo is None and not options.names else ()
        sheets.append(FilledSheet(read.file, read.identity, {"player": name, **data},
                                  {"player": player_field, **origin}, read.lang))
        if read.photo is not None:
            named = names if names is not None or names_in is None or read.lang in (None, "en") else \
                names_in(read.lang)
            uncertain.extend(Uncertain(u.field, read.file, u.why, set_key(read.index, displays, u.field), u.code,
                                       _advice(u.why, u.code), *_labelled(u, labels, named), rule=u.rule,
                                       rule_said=u.rule_said)
                             for u in read.photo.reading.uncertain)
    photos = tuple(r.photo for r in reads if r.photo is not None)
    if options.annotate is not None:
        # photos of one sheet combined: each drawn with what it read on its own (a mark the glare hid in one photo
        # is undecided over that photo, and read over the other), so the player sees which photo settled what
        drawn = [part for combined in photos for part in (combined.parts or (combined,))]
        write_annotations(list(zip(drawn, annotation_stems([p.file for p in drawn], displays))), options.annotate,
                          labels)
    unread.sort(key=lambda u: u.sheet)
    data = document(sheets) if not unread else {}  # not scored: a player's sheet is missing
    combined = tuple((options.names[g[0]].strip(), tuple(displays[i] for i in g)) for g in groups if len(g) > 1)
    return FilledSheets(Document(", ".join(displays), data, {}), tuple(sheets),
                        tuple(uncertain) if photos or unread else None, identity_field, photos, tuple(unread),
                        combined)


def _two_kinds(other: _Read, first: _Read, field: str, names: Callable[[str | None], Mapping[str, str]] | None,
               lang: Language | None = None) -> str:
    """Why `other` is not of one game with `first`: a sheet of another kind (the castle's version), each named as
    its own sheet prints it; in `lang` (English when None; a photo's `unread` says it in a language later)."""
    say = lang or language()
    # one message with the field it names, so that a translation words the whole sentence and sets its own colon
    # (French puts a no-break space before it)
    return say._(
        "field {field}: is a sheet of the {this} {field}, but {file} is one of the {first} {field}; the sheets of one "
        "game share a {field}").format(this=_identity(other, names), field=field, file=first.file,
                                       first=_identity(first, names))


def _identity(read: _Read, names: Callable[[str | None], Mapping[str, str]] | None) -> str:
    """The kind of sheet `read` is (its identity: the castle's version), by the name its sheet prints, else by id."""
    name = names(read.lang).get(read.identity) if names is not None else None
    return name if name else repr(read.identity)


def _labelled(doubt: Uncertainty, labels: Mapping[str, str] | None,
              names: Mapping[str, Mapping[str, str]] | None = None) -> tuple[str, str]:
    """An uncertain field's label and why with the fields it names by their labels and the values by their names
    (`Uncertain.label`, `said`): empty where it has none, its id and the reader's words being said then."""
    from generator.sheets.summary import named, value_name

    if not labels and not names:
        return "", ""
    label = named(doubt.field, labels)
    said = doubt.worded(lambda field: named(field, labels), lambda field, value: value_name(field, value, names))
    return (label if label != doubt.field else "", said if said != doubt.why else "")


def _unset(confirmed: Mapping[int, Mapping[str, str]], index: int, displays: Sequence[str],
           names: Mapping[int, str]) -> tuple[str, ...]:
    """The `--set` values given for the sheet at `index` (KEY=VALUE, keyed as the table says them: a sheet of
    several photos by its player's name in `names`), for a sheet that could not be read: not applied, and said so."""
    return tuple(f"{names[index]}:{field}={value}" if index in names else f"{set_key(index, displays, field)}={value}"
                 for field, value in confirmed.get(index, {}).items())


def same_sheet(names: Sequence[str], displays: Sequence[str], kinds_of: Sequence[str]) -> list[list[int]]:
    """The files given, grouped by sheet: photos given the same name in `--names` are photos of one sheet (a retake
    from another angle), read as one (:func:`~generator.sheets.photos.combine`); every other file is a sheet of its
    own. A UsageError when a name is given to a fillable PDF and another file (a form is read whole, once)."""
    if not names:
        return [[i] for i in range(len(displays))]
    by_name: dict[str, list[int]] = {}
    for index, name in enumerate(names):
        by_name.setdefault(name.strip(), []).append(index)
    for name, group in by_name.items():
        if len(group) > 1 and any(kinds_of[i] == "pdf" for i in group):
            raise UsageError("--names", f"gives {name!r} to {listing([displays[i] for i in group], 'and')}: only "
                                        "photos of one sheet share a name (a filled PDF is one sheet on its own)")
    return sorted(by_name.values())


def _read_combined(group: Sequence[int], files: Sequence[tuple[bytes, str]], kinds: Sequence[SheetKind],
                   confirmed: Mapping[str, str]) -> _Read:
    """Photos of one sheet read each on its own, then combined mark by mark."""
    from generator.sheets.photos import combine, read_photo

    photo = combine([read_photo(*files[i], kinds) for i in group], confirmed)
    if not photo.reading.filled and not photo.reading.uncertain:
        raise InputError(photo.file, f"shows a scan-ready {kinds[0].layout.name} with no mark filled in: "
                                     "photograph the sheet of a finished game")
    return _Read(group[0], photo.file, photo.identity, dict(photo.reading.values), {}, photo, lang=_shown_in(photo))


def _read_one(index: int, content: bytes, display: str, kind: str, kinds: Sequence[SheetKind],
              confirmed: Mapping[str, str], lang: Language | None = None) -> _Read:
    """One file of the sheets read: a fillable PDF by its form (what it holds that cannot be read said in `lang`),
    a PDF scan or a photo by its marks."""
    from generator.sheets.forms import form_fields, read_form
    from generator.sheets.marks import own_words

    what = kinds[0].layout.name
    if kind == "pdf":
        found = form_fields(content, display, own_words(what, kinds[0].layout.name_said, lang or language()), lang)
        photo = _pdf_scan(content, display, kinds, confirmed) if not found else None
        if photo is None:
            form = read_form(found, display, kinds, lang)
            player = form.values.get("player")
            return _Read(index, display, form.kind.layout.identity[1], form.values, form.where,
                         named=player if isinstance(player, str) else "", lang=form.lang)
    else:
        from generator.sheets.photos import read_photo

        photo = read_photo(content, display, kinds, confirmed)
    if not photo.reading.filled and not photo.reading.uncertain:
        raise InputError(display, f"shows a scan-ready {what} with no mark filled in: photograph the sheet of a "
                                  "finished game")
    return _Read(index, display, photo.identity, dict(photo.reading.values), {}, photo, lang=_shown_in(photo))


def _shown_in(photo: PhotoRead) -> str | None:
    """The language of the print a photo shows (its words compared with the sheet in each language), or None."""
    return getattr(photo.printed_as, "lang", None)


def _said(err: InputError, display: str) -> str:
    """What an error says of one file, without the file's name when it names that file alone."""
    if len(err.problems) == 1 and err.problems[0].file == display and err.problems[0].line is None:
        where, message = err.problems[0].where, err.problems[0].message
        return f"{where}: {message}" if where else message
    return str(err)


def unread_file(index: int, file: str, message: str, reason: str | None = None) -> Unread:
    """A file of several that could not be read, with why (the reader's whole message) and what to change."""
    from generator.sheets.advice import refusal

    found = refusal(message, reason)
    return Unread(file, index, message, found.name if found else "", found.advice if found else "")


#: Advice the companion words for its check page (a mark tapped away), said as the command line takes it.
AT_THE_COMMAND_LINE = {
    "two-values": N_("Two values are filled where one counts: look at the sheet and confirm the one that counts "
                     "with --set."),
}


def _advice(why: str, code: str) -> str:
    """What the player does about a value a photo left uncertain (its reason's advice), "" when none is known."""
    from generator.sheets.advice import uncertainty

    found = uncertainty(why, code or None)
    return "" if found is None else AT_THE_COMMAND_LINE.get(found.name, found.advice)


def _kind(data: bytes, display: str) -> str:
    """"pdf" for a PDF (or a file named .pdf, which the PDF reader then judges), "photo" for anything else."""
    if data.lstrip()[:5] == b"%PDF-" or PurePath(display).suffix.lower() == ".pdf":
        return "pdf"
    return "photo"


def _pdf_scan(data: bytes, display: str, kinds: Sequence[SheetKind], confirmed: Mapping[str, str]
              ) -> PhotoRead | None:
    """A PDF without form fields, read as a scan of a printed scan-ready sheet (its first page rasterised), or
    None when it shows no sheet's markers (or photos cannot be read here)."""
    try:
        import cv2  # noqa: F401  (the scan extra)
        import pypdfium2  # noqa: F401
    except ImportError:
        return None
    from generator.pdfium_lock import page_drawn, pdf_document
    from generator.sheets.photo_colour import image_grey
    from generator.sheets.photo_reasons import PhotoRefused
    from generator.sheets.photos import MAX_PIXELS, read_grey

    def page_grey(number: int) -> Any:
        """Page `number` of the scan in grey at SCAN_SCALE, or None when it is too large to read. The document is
        opened for each page and closed at once: photos are read in the companion's threads, and pdfium must be
        called by one at a time (generator.pdfium_lock), so it is not held while the page is read."""
        with pdf_document(data) as pdf:
            width, height = pdf.get_page_size(number)  # without loading the page, which page_drawn then loads
            if width * height * SCAN_SCALE ** 2 > MAX_PIXELS:
                return None
            image = page_drawn(pdf, number, lambda bitmap: bitmap.to_pil().copy(), scale=SCAN_SCALE)
        # in colour, and to grey as a photo is: a scanner app's colour scan shows a yellow felt tip as ink too
        return image_grey(image)

    try:
        with pdf_document(data) as pdf:
            pages = len(pdf)
        if pages < 1:
            return None
        grey = page_grey(0)
        if grey is None:
            return None
    except Exception:  # pdfium raises its own errors on damaged files; the caller reports the PDF as it is
        return None
    try:
        read = read_grey(grey, display, kinds, confirmed)
    except PhotoRefused as err:
        if err.code == "no-sheet":
            return None
        raise
    # a scanner app's PDF of every player's sheet, one page each, is not the first player's sheet alone: the
    # pages after the first that show a sheet too are said (a blank page, a sheet's back scanned, shows none)
    others = [number + 1 for number in range(1, min(pages, SCAN_PAGES)) if _shows_sheet(page_grey, number, kinds)]
    if others:
        raise InputError(display, f"holds {pages} pages, and pages {listing([1, *others], 'and')} each show a "
                                  "sheet: donjon reads one sheet per file; scan each player's sheet to a file of its "
                                  "own (a blank page after it is fine)")
    return read


def _shows_sheet(page_grey: Callable[[int], Any], number: int, kinds: Sequence[SheetKind]) -> bool:
    """Whether page `number` of a PDF scan shows a sheet (its corner markers, whole or in part): only found, its
    marks not read."""
    from generator.sheets.photo_reasons import PhotoRefused
    from generator.sheets.photos import locate

    try:
        grey = page_grey(number)
        if grey is None:
            return False
        locate(grey, f"page {number + 1}", kinds)
    except PhotoRefused as err:
        return err.code != "no-sheet"
    except Exception:  # a page pdfium cannot draw, or one refused for another reason: no sheet to miss here
        return False
    return True


def annotation_stems(files: Sequence[str], displays: Sequence[str]) -> list[str]:
    """The NAME of each photo's `--annotate` files: its file's name without the suffix; for photos whose names
    share it (two phones' IMG_0001.JPG, or photo.jpg and photo.png), the name and the photo's place among the files
    given (`photo-0`, `photo-1`, as `sheets[N]` counts), so that no photo's drawing is written over another's. Names
    are compared ignoring case, as the file systems of Windows and macOS do."""
    stems = [PurePath(file).stem or "photo" for file in files]
    shared = {s.casefold() for s in stems if sum(t.casefold() == s.casefold() for t in stems) > 1}
    out: list[str] = []
    for file, stem in zip(files, stems):
        name = stem
        if stem.casefold() in shared:
            name = f"{stem}-{displays.index(file) if file in displays else len(out)}"
        while name.casefold() in {o.casefold() for o in out}:  # a photo already named so (photo-1.jpg given)
            name += "-"
        out.append(name)
    return out


def write_annotations(photos: Sequence[tuple[PhotoRead, str]], folder: Path,
                      labels: Mapping[str, str] | None = None) -> None:
    """Each photo with what was read drawn over it (`STEM.read.jpg`, an undecided field named by its label in
    `labels` where given) and its name box (`STEM.name.png`), `STEM` the name given with it. Every drawing is made
    before anything is written, then the files are written together (one transaction of :mod:`generator.output`):
    a command stopped or failing before the end (Ctrl-C while a photo is drawn) leaves no file, nor the folder when
    it made it."""
    from generator.errors import OutputError, os_reason
    from generator.output import transaction
    from generator.sheets.photos import annotated, name_crop

    files: list[tuple[str, bytes]] = []
    for photo, stem in photos:
        files.append((f"{stem}.read.jpg", annotated(photo, labels)))
        name = name_crop(photo)
        if name is not None:
            files.append((f"{stem}.name.png", name))
    try:
        with transaction(folder) as tx:
            for file, data in files:
                with tx.file(folder / file, "--annotate") as staged:
                    staged.write_bytes(data)
    except OSError as err:
        raise OutputError(f"--annotate {folder}", f"cannot be written ({os_reason(err)})") from None
    except OutputError as err:  # the transaction's own (its staging folder, a file in place): said as the option's
        said = err.reason if Path(err.path) in (folder, folder.absolute()) else f"{err.path}: {err.reason}"
        raise OutputError(f"--annotate {folder}", said) from None
