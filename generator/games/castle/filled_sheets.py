"""Filled castle score sheets read back: the fields of each PDF as the castle end state of end-states.md.

The fillable sheet (:mod:`~generator.games.castle.score_sheet`) names its fields as
:mod:`~generator.games.castle.sheet_fields` says; this module reads those fields with pypdf (imported here, when a PDF is read, so scoring a YAML file never pays for
it) and builds the very document a YAML end state gives, which the scorer then checks with the same format and
the same rules. Several sheets of one game become one document with one sheet each.

A value is taken as the sheet shows it:

- `player`: the name typed in, or, left blank, the file's name without `.pdf`;
- the donjon's floors: how many `floor_N` are ticked; a tower is built when its value box holds a value;
- a wall is built when `wall_N` is ticked; its flags are the values in its flag boxes (a flag on a wall not
  ticked is refused: a flag stands on a built wall, 004 Flags);
- `sun`, `cloud`: ticked or not; `sky_clouds` and `residents`: a number, 0 when blank;
- guests: the slots filled in, in order: names on a Great Architect sheet, printed VP on an Apprentice one;
- the score banner is the player's own arithmetic: it is not read (the scorer adds the parts up itself).

What cannot be read is refused with every problem named by file and field, exit code 2: not a PDF, a damaged
or encrypted PDF, a PDF with no form fields or without the sheet's `version` field, text where a number belongs,
a field the sheet does not have, a sheet with nothing filled in, sheets of different versions given together.
What reads but breaks a rule is the scorer's business: :meth:`FilledSheets.origin` tells it which file and
field each place of the document came from, so its messages can name them.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from generator.errors import DocumentError, InputError, Problem
from generator.games.base import SheetOptions
from generator.games.castle import sheet_fields as names
from generator.wording import plural
from generator.yamlio import Document
from scoring.result import Uncertain

if TYPE_CHECKING:
    from generator.games.castle.catalog import Castle

GAME = "once-upon-a-castle"
#: How long a value may be quoted in a message.
QUOTE = 40


class SheetError(DocumentError):
    """A filled sheet that cannot be read: every problem, each naming the file and the field."""

    def __init__(self, file: str, problems: Sequence[Problem]) -> None:
        super().__init__(file, problems, "a filled castle sheet")


@dataclass(frozen=True)
class FilledSheet:
    """One filled sheet: its version, the sheet as the end state has it, and where each of its values came from."""

    file: str
    version: str
    data: dict[str, Any]
    #: path inside the sheet (`towers[1]`, `walls[0].flags[1]`, `sun`, `` for the whole sheet) -> field names
    fields: dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class FilledSheets:
    """Filled sheets of one game as one end-state document, and where each place of it came from."""

    document: Document
    sheets: tuple[FilledSheet, ...]
    #: values read from photos that wait for a person's word; None when no photo was read
    uncertain: tuple[Uncertain, ...] | None = None

    def origin(self, where: str) -> tuple[str, str] | None:
        """The file and the field(s) a place of the document (`sheets[1].towers[0]`) was read from, in words:
        ("b.pdf", "field tower_1_value"), or ("b.pdf", "") for a whole sheet; None for a place of no one sheet."""
        found = _SHEET_PATH.fullmatch(where)
        if found is None:
            if where == "version" and self.sheets:
                return self.sheets[0].file, f"field {names.VERSION}"
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
        return sheet.file, f"field {held[0]}" if len(held) == 1 else f"fields {held[0]} to {held[-1]}"

    def where(self, where: str) -> str:
        """A place of the document as a message names it: `field tower_1_value`, with the file when several
        sheets were read (`b.pdf, field sun`); the file alone for a whole sheet."""
        found = self.origin(where)
        if found is None:
            return ""
        file, field = found
        if len(self.sheets) == 1:
            return field
        return f"{file}, {field}" if field else file

    def problem(self, problem: Problem) -> Problem:
        """A problem the end-state format found, as a problem of the file and field it came from."""
        found = self.origin(problem.where)
        if found is None:
            return problem
        file, field = found
        return Problem(file, None, field or problem.where, problem.message)


_SHEET_PATH = re.compile(r"sheets\[(\d+)\](.*)")
_PARENT = re.compile(r"(\[[^\]]*\]|\.?[^.\[]+)$")


def read_sheets(files: Sequence[tuple[bytes, str]], castle: Castle | None = None,
                options: SheetOptions | None = None) -> FilledSheets:
    """Read filled sheets (each its bytes and its name for messages) as the end state of one game: fillable PDFs
    by their form fields, photos (and PDF scans) of scan-ready sheets by their marks (:mod:`~.photo_sheets`)."""
    options = options or SheetOptions()
    if not files:
        raise InputError("<filled sheets>", "no sheet given")
    # One player, one sheet (end-states.md): the same file given twice, or a copy of it, is not two sheets.
    first_of: dict[bytes, str] = {}
    for content, display in files:
        if content in first_of:
            raise InputError(display, f"is the same sheet as {first_of[content]} (the files are identical): each "
                                      "player's sheet is given once")
        first_of[content] = display
    kinds = [_kind(data, display) for data, display in files]
    photos = [i for i, kind in enumerate(kinds) if kind != "pdf"]
    confirmed: dict[int, dict[str, str]] = {}
    if options.confirmed:
        from generator.games.castle.photo_sheets import confirmations

        confirmed = confirmations(options.confirmed, photos, len(files))
    if options.names and len(options.names) != len(files):
        from generator.errors import UsageError

        raise UsageError("--names", f"gives {plural(len(options.names), 'name')} for {plural(len(files), 'sheet')}: "
                                    "one name per sheet, in order")
    sheets: list[FilledSheet] = []
    uncertain: list[Uncertain] = []
    read_photos: list[Any] = []
    several = len(files) > 1
    from_photos: set[int] = set()
    for index, ((content, display), kind) in enumerate(zip(files, kinds, strict=True)):
        key = f"sheets[{index}]." if several else ""
        if kind == "pdf":
            found = form_fields(content, display)
            if not found and castle is not None:
                from generator.games.castle.photo_sheets import read_pdf_scan

                scanned = read_pdf_scan(content, display, castle, confirmed.get(index, {}), key)
                if scanned is not None:
                    read_photos.append(scanned)
                    from_photos.add(index)
                    sheets.append(FilledSheet(display, scanned.version, scanned.data, scanned.origin))
                    uncertain.extend(Uncertain(f, display, why, key + f) for f, why in scanned.uncertain)
                    continue
            sheets.append(read_sheet(content, display, found))
            continue
        if castle is None:
            raise InputError(display, "is a photo; it is read against a castle catalog, which was not given")
        from generator.games.castle.photo_sheets import read_photo_sheet

        photo = read_photo_sheet(content, display, castle, confirmed.get(index, {}), key)
        read_photos.append(photo)
        from_photos.add(index)
        sheets.append(FilledSheet(display, photo.version, photo.data, photo.origin))
        uncertain.extend(Uncertain(f, display, why, key + f) for f, why in photo.uncertain)
    if not sheets:
        raise InputError("<filled sheets>", "no sheet given")
    if options.names:
        for index, name in enumerate(options.names):
            sheet = sheets[index]
            sheets[index] = FilledSheet(sheet.file, sheet.version, {**sheet.data, "player": name.strip()},
                                        {**sheet.fields, "player": ()})
    else:
        # a photo's name box is for people: its player is "Player N" (N its place in the game) unless named
        for index in sorted(from_photos):
            sheet = sheets[index]
            sheets[index] = FilledSheet(sheet.file, sheet.version, {**sheet.data, "player": f"Player {index + 1}"},
                                        sheet.fields)
    first = sheets[0]
    for sheet in sheets[1:]:
        if sheet.version != first.version:
            raise SheetError(sheet.file, [Problem(sheet.file, None, f"field {names.VERSION}",
                                                  f"is a sheet of the {sheet.version!r} version, but {first.file} is "
                                                  f"one of {first.version!r}; the sheets of one game share a "
                                                  "version")])
    if options.annotate is not None:
        from generator.games.castle.photo_sheets import write_annotations

        for photo in read_photos:
            write_annotations(photo, options.annotate)
    data = {"game": GAME, "version": first.version, "sheets": [s.data for s in sheets]}
    return FilledSheets(Document(", ".join(s.file for s in sheets), data, {}), tuple(sheets),
                        tuple(uncertain) if read_photos else None)


def _kind(data: bytes, display: str) -> str:
    """"pdf" for a PDF (or a file named .pdf, which the PDF reader then judges), "photo" for anything else."""
    if data.lstrip()[:5] == b"%PDF-" or PurePath(display).suffix.lower() == ".pdf":
        return "pdf"
    return "photo"


@contextmanager
def _quiet() -> Iterator[None]:
    """pypdf warns through `logging` about damage it repairs; the reader reports what matters itself."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def form_fields(data: bytes, display: str) -> dict[str, Any]:
    """The form fields of a PDF by name (pypdf's field dictionaries); an InputError when it cannot be read."""
    if not data.lstrip()[:5] == b"%PDF-":
        raise InputError(display, "is not a PDF (it does not start with %PDF-); a filled castle sheet is a PDF "
                                  "saved from a PDF viewer")
    from pypdf import PdfReader

    with _quiet():
        try:
            reader = PdfReader(io.BytesIO(data), strict=False)
            # A viewer may save a sheet encrypted (RC4 or AES) with an empty user password: every viewer opens it
            # without asking, and so does this reader (AES through the `cryptography` package). A sheet that
            # asks for a password cannot be read without it.
            if reader.is_encrypted and not reader.decrypt(""):
                raise InputError(display, "is protected by a password: donjon cannot open it. Open it in your PDF "
                                          "viewer with its password, save a copy without a password (or print it "
                                          "to a new fillable PDF), and score that copy")
            # a damaged file can name a field with raw bytes; such a name matches none of ours and is reported so
            found = {name if isinstance(name, str) else bytes(name).decode("latin-1"): field
                     for name, field in (reader.get_fields() or {}).items()}
            # A checkbox is read as it is shown: by its widget's appearance state (/AS) when it has one. Viewers
            # draw the box from /AS; some set only /AS, others leave a stale /V (`/AS /Yes` with `/V /Off` shows
            # ticked everywhere), so /V decides only for a box without an appearance state.
            boxes = [name for name, field in found.items() if field.get("/FT") == "/Btn"]
            if boxes:
                states = _widget_states(reader)
                for name in boxes:
                    if name in states:
                        found[name] = {**found[name], "/V": states[name]}
        except InputError:
            raise
        except Exception as err:  # pypdf raises many kinds of error on damaged files; none may escape as a bug
            reason = str(err).strip().splitlines()[0][:120] if str(err).strip() else type(err).__name__
            raise InputError(display, f"is a damaged PDF that cannot be read ({reason})") from None
    return found


def _widget_states(reader: Any) -> dict[str, Any]:
    """The state shown by each checkbox widget (`/AS`), by the field's full name (a field with several widgets is
    ticked when any of them shows ticked)."""
    states: dict[str, Any] = {}
    for page in reader.pages:
        for ref in page.get("/Annots") or ():
            widget = ref.get_object()
            if widget.get("/Subtype") != "/Widget" or widget.get("/AS") is None:
                continue
            parts, node, depth = [], widget, 0
            while node is not None and depth < 32:
                if node.get("/T") is not None:
                    parts.append(str(node["/T"]))
                parent = node.get("/Parent")
                node, depth = (parent.get_object() if parent is not None else None), depth + 1
            if parts:
                name = ".".join(reversed(parts))
                if str(states.get(name, "/Off")).lstrip("/") in ("", "Off"):
                    states[name] = widget["/AS"]
    return states


def read_sheet(data: bytes, display: str, found: dict[str, Any] | None = None) -> FilledSheet:
    """One filled sheet: its fields (read here unless given), checked and turned into one sheet of the castle end
    state."""
    if found is None:
        found = form_fields(data, display)
    if not found:
        raise InputError(display, "has no form fields: is it a donjon fillable castle sheet? (they are "
                                  "OUT/score-sheets/once-upon-a-castle/castle-sheet-*-fillable.pdf, made by donjon build; a "
                                  "sheet printed or flattened to a new PDF loses its fields; a scan of a printed "
                                  "scan-ready sheet is read only when its four corner markers show)")
    if names.VERSION not in found:
        raise InputError(display, f"has form fields but no field {names.VERSION!r}: it is not a donjon fillable "
                                  "castle sheet")
    return _Reader(display, found).sheet()


class _Reader:
    def __init__(self, display: str, found: Mapping[str, Any]) -> None:
        self.file = display
        self.found = found
        self.problems: list[Problem] = []
        self.filled = False

    def fail(self, name: str, message: str) -> None:
        self.problems.append(Problem(self.file, None, f"field {name}", message))

    def text(self, name: str) -> str:
        field = self.found[name]
        if not self.kind(name, field, "/Tx", "a text box"):
            return ""
        value = field.get("/V")
        if value is None:
            return ""
        if isinstance(value, bytes):
            value = value.decode("latin-1")
        if not isinstance(value, str):
            self.fail(name, f"holds {type(value).__name__}, not text")
            return ""
        return value.strip()

    def number(self, name: str) -> int | None:
        text = self.text(name)
        if not text:
            return None
        if names.NUMBER.fullmatch(text) is None:
            shown = text if len(text) <= QUOTE else text[:QUOTE] + "..."
            self.fail(name, f"expected a whole number, got {shown!r}")
            return None
        if len(text.lstrip("+-")) > names.DIGITS:
            self.fail(name, f"is a number of {len(text.lstrip('+-'))} digits; nothing on a castle sheet comes near")
            return None
        return int(text)

    def ticked(self, name: str) -> bool:
        field = self.found[name]
        if not self.kind(name, field, "/Btn", "a checkbox"):
            return False
        value = field.get("/V")
        return value is not None and str(value).lstrip("/") not in ("", "Off")

    def kind(self, name: str, field: Any, wanted: str, what: str) -> bool:
        if field.get("/FT") != wanted:
            self.fail(name, f"is not {what}, as it is on a donjon castle sheet")
            return False
        return True

    def sheet(self) -> FilledSheet:
        version = self.text(names.VERSION)
        named_guests = version != "apprentice"
        player = self.text(names.PLAYER) if names.PLAYER in self.found else ""
        floors: dict[int, bool] = {}
        towers: dict[int, int] = {}
        walls: dict[int, bool] = {}
        flags: dict[int, dict[int, int]] = {}
        guests: dict[int, str | int] = {}
        singles: dict[str, Any] = {}
        for name in self.found:
            if name in (names.VERSION, names.PLAYER) or name in names.BANNER:
                continue
            if name in (names.SUN, names.CLOUD):
                singles[name] = self.ticked(name)
                continue
            if name in (names.SKY_CLOUDS, names.RESIDENTS):
                singles[name] = self.number(name)
                continue
            part = names.numbered(name)
            if part is None:
                self.fail(name, "is not a field of a donjon castle sheet")
            elif part.part == "floor":
                floors[part.number] = self.ticked(name)
            elif part.part == "wall":
                walls[part.number] = self.ticked(name)
            elif part.part == "tower":
                value = self.number(name)
                if value is not None:
                    towers[part.number] = value
            elif part.part == "flag":
                value = self.number(name)
                if value is not None:
                    flags.setdefault(part.number, {})[part.flag] = value
            else:
                guest = self.text(name) if named_guests else self.number(name)
                if guest not in (None, ""):
                    guests[part.number] = guest
        for wall_number, held in sorted(flags.items()):
            if not walls.get(wall_number):
                for flag_number in sorted(held):
                    self.fail(names.flag(wall_number, flag_number),
                              f"holds a flag on wall {wall_number}, which is not ticked as built; a flag stands on a "
                              f"built wall (004 Flags): tick {names.wall(wall_number)} or clear the flag")
        if self.problems:
            raise SheetError(self.file, self.problems)
        filled = (player or any(floors.values()) or towers or any(walls.values()) or flags or guests
                  or any(v not in (None, False) for v in singles.values()))
        if not filled:
            raise InputError(self.file, "has nothing filled in: fill in the sheet in a PDF viewer and save it, then "
                                        "score it")
        return self.build(version, player, floors, towers, walls, flags, guests, singles)

    def build(self, version: str, player: str, floors: dict[int, bool], towers: dict[int, int],
              walls: dict[int, bool], flags: dict[int, dict[int, int]], guests: dict[int, str | int],
              singles: dict[str, Any]) -> FilledSheet:
        origin: dict[str, tuple[str, ...]] = {"": ()}
        data: dict[str, Any] = {"player": player or PurePath(self.file).stem}
        origin["player"] = (names.PLAYER,)
        data["donjon_floors"] = sum(1 for ticked in floors.values() if ticked)
        origin["donjon_floors"] = tuple(names.floor(n) for n in sorted(floors))
        data["towers"] = [towers[n] for n in sorted(towers)]
        origin["towers"] = tuple(names.tower(n) for n in sorted(towers))
        for index, number in enumerate(sorted(towers)):
            origin[f"towers[{index}]"] = (names.tower(number),)
        built = [n for n in sorted(walls) if walls[n]]
        data["walls"] = []
        origin["walls"] = tuple(names.wall(n) for n in sorted(walls))
        for index, number in enumerate(built):
            held = flags.get(number, {})
            data["walls"].append({"flags": [held[f] for f in sorted(held)]})
            origin[f"walls[{index}]"] = origin[f"walls[{index}].flags"] = (names.wall(number),)
            for position, flag_number in enumerate(sorted(held)):
                origin[f"walls[{index}].flags[{position}]"] = (names.flag(number, flag_number),)
        for name in (names.SUN, names.CLOUD):
            if name in singles:
                data[name] = singles[name]
                origin[name] = (name,)
        if names.SKY_CLOUDS in singles:
            data["sky_clouds"] = singles[names.SKY_CLOUDS] or 0
            origin["sky_clouds"] = (names.SKY_CLOUDS,)
        data["residents"] = singles.get(names.RESIDENTS) or 0
        origin["residents"] = (names.RESIDENTS,) if names.RESIDENTS in singles else ()
        data["guests"] = [guests[n] for n in sorted(guests)]
        slots = sorted(p.number for name in self.found if (p := names.numbered(name)) and p.part == "guest")
        origin["guests"] = tuple(names.guest(n) for n in slots)
        for index, number in enumerate(sorted(guests)):
            origin[f"guests[{index}]"] = (names.guest(number),)
        return FilledSheet(self.file, version, data, origin)
