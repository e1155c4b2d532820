"""The map of marks of a scan-ready castle sheet (`docs/castle-marks.md`): what the drawer writes beside
each sheet as `castle-sheet-VERSION-PAPER.marks.json`, and what the photo reader reads a sheet with.

A mark is a small shape a player fills with a pencil (a bubble, a figure to colour in); each means one (field,
value) pair of the castle end state. :func:`interpret` turns the marks found filled into one sheet of the end
state as the spec's table says, and names every field it cannot decide (two values filled for one tower) instead
of guessing. The photo reader and the table companion's correction page both go through it.

The sheet says which sheet it is through its four fiducial markers: ArUco markers of the 4x4 dictionary of 50
(`DICT_4X4_50` in opencv), whose ids are `4 x code + corner` (corner 0 top left, 1 top right, 2 bottom right,
3 bottom left, as on the page) and whose `code` tells the version, the paper and the layout revision
(:class:`SheetCode`). Their patterns are written out here (:data:`ARUCO_4X4`), so that building a sheet never
needs opencv; a test checks them against opencv's dictionary.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from generator.games.castle.catalog import Castle
from generator.render.imposition import PAPERS
from generator.wording import noun, quoted

FORMAT = "donjon-castle-marks/1"
#: The layout revision the sheets of this donjon print: raised whenever a mark moves, so that a photo of a sheet
#: printed by another donjon is refused instead of misread.
REVISION = 1
#: The opencv dictionary the markers are taken from: 4 x 4 bits, 50 markers far apart from each other (few bits
#: in common), which survives blur best; its name as opencv spells it.
DICTIONARY = "DICT_4X4_50"
#: ids of the 4 corners of one sheet; a code takes 4 ids, so the dictionary holds 12 codes
CORNERS = 4
CODES = 50 // CORNERS
VERSIONS = ("apprentice", "great-architect")
PAPER_IDS = tuple(PAPERS)

#: The inner 4 x 4 bits of the markers with ids 0 to 15 of opencv's DICT_4X4_50, row by row, 1 for a white cell
#: (a marker is these cells inside a black border one cell wide): the ids of layout revision 1.
ARUCO_4X4: tuple[str, ...] = (
    "1011010100110010", "0000111110011010", "0011001100101101", "1001100101000110",
    "0101010010011110", "0111100111001101", "1001111000101110", "1100010011110010",
    "1111111011011010", "1100111101010110", "1111100110010001", "0001000110100111",
    "0000111010110111", "0010101000001111", "0010010010110001", "0010011000111110",
)

Shape = Literal["circle", "square", "figure"]
Value = int | bool | str


class SheetCode(NamedTuple):
    """Which sheet the markers say a photo shows."""

    version: str
    paper: str
    revision: int

    @property
    def number(self) -> int:
        return ((self.revision - 1) * len(VERSIONS) + VERSIONS.index(self.version)) * len(PAPER_IDS) + \
            PAPER_IDS.index(self.paper)

    def marker_id(self, corner: int) -> int:
        return self.number * CORNERS + corner

    @staticmethod
    def of_marker(marker_id: int) -> tuple[SheetCode, int] | None:
        """The sheet and the corner a marker id stands for, or None for an id no sheet prints."""
        if not 0 <= marker_id < CODES * CORNERS:
            return None
        number, corner = divmod(marker_id, CORNERS)
        rest, paper = divmod(number, len(PAPER_IDS))
        revision, version = divmod(rest, len(VERSIONS))
        return SheetCode(VERSIONS[version], PAPER_IDS[paper], revision + 1), corner

    @property
    def label(self) -> str:
        """The code as the sheet prints it: `GA-A4-1`."""
        short = "GA" if self.version == "great-architect" else "AP"
        return f"{short}-{self.paper.upper()}-{self.revision}"


class Marker(NamedTuple):
    id: int
    #: its top-left corner from the page's top-left corner, and its side, in points
    x: float
    y: float
    size: float


class Mark(NamedTuple):
    field: str
    value: Value
    shape: Shape
    x: float
    y: float
    width: float
    height: float


class WriteIn(NamedTuple):
    field: str
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class MarkMap:
    """The map of one scan-ready sheet, as the spec's JSON holds it."""

    sheet: str
    version: str
    paper: str
    width: float
    height: float
    markers: tuple[Marker, ...]
    marks: tuple[Mark, ...]
    write_in: tuple[WriteIn, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "sheet": self.sheet,
            "version": self.version,
            "paper": self.paper,
            "page": {"width": self.width, "height": self.height},
            "markers": [m._asdict() for m in self.markers],
            "marks": [m._asdict() for m in self.marks],
            "write_in": [w._asdict() for w in self.write_in],
        }

    def to_json(self) -> bytes:
        """The map as written beside the sheet: one mark a line, so that a diff of two builds reads well."""
        data = self.to_dict()
        lines = ["{"]
        keys = list(data)
        for index, key in enumerate(keys):
            comma = "," if index < len(keys) - 1 else ""
            value = data[key]
            if isinstance(value, list):
                rows = [f"    {json.dumps(row, ensure_ascii=False)}" for row in value]
                lines.append(f'  "{key}": [' + ("\n" + ",\n".join(rows) + "\n  ]" if rows else "]") + comma)
            else:
                lines.append(f'  "{key}": {json.dumps(value, ensure_ascii=False)}{comma}')
        lines.append("}")
        return ("\n".join(lines) + "\n").encode("utf-8")


# --- reading filled marks ----------------------------------------------------------------------------------------

#: What the reader found at one mark: filled, empty, or not decided (None).
State = bool | None


class Uncertainty(NamedTuple):
    """A field the marks do not decide: its name (as the spec names fields) and why, in words."""

    field: str
    why: str


#: Fields whose filled marks are counted (the spec: "the number of filled marks").
COUNTED = ("donjon_floors", "sky_clouds", "residents")


@dataclass(frozen=True)
class Reading:
    """One sheet read from its marks: the end state's sheet (without the player), and what is uncertain."""

    data: dict[str, object]
    uncertain: tuple[Uncertainty, ...]
    #: each field of the spec -> the marks' indexes in the map, for messages and for the correction page
    fields: Mapping[str, tuple[int, ...]]
    #: each place of `data` (`towers[0]`, `walls[1].flags[0]`, `` for the whole) -> the field(s) it was read from
    origin: Mapping[str, tuple[str, ...]]
    #: how many marks were read filled (none: a blank sheet)
    filled: int = 0


def field_marks(marks: Sequence[Mark]) -> dict[str, list[int]]:
    """Each field of the map and its marks' indexes, in the map's order."""
    out: dict[str, list[int]] = {}
    for index, mark in enumerate(marks):
        out.setdefault(mark.field, []).append(index)
    return out


def _describe(values: Iterable[Value]) -> str:
    return " and ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)


def interpret(marks: Sequence[Mark], states: Sequence[State], version: str,
              confirmed: Mapping[str, str] | None = None, why: Sequence[str] | None = None) -> Reading:
    """The sheet the marks make (the spec's table "What filling a mark means"), with every field left undecided.

    `states[i]` is what was read at `marks[i]` (and `why[i]` why it is undecided, when it is). `confirmed` holds
    values a person gave for fields (`towers[1]` -> `5`, `none`...): a confirmed field is taken as given whatever
    its marks say. A field with a mark read as undecided, with two marks filled where it takes one value, or a
    counted field (floors, clouds, residents) whose filled marks leave a gap, is uncertain: it is listed, never
    guessed.
    """
    confirmed = dict(confirmed or {})
    by_field = field_marks(marks)
    uncertain: list[Uncertainty] = []
    values: dict[str, object] = {}

    def undecided(name: str, indexes: Sequence[int]) -> str:
        unsure = [i for i in indexes if states[i] is None]
        which = ("its mark" if len(indexes) == 1 else
                 f"the {noun(len(unsure), 'mark')} of {_describe(marks[i].value for i in unsure)}")
        reasons = sorted({why[i] for i in unsure if why is not None and why[i]})
        return f"{which} {'are' if len(unsure) > 1 else 'is'} neither filled nor empty" + (
            f" ({'; '.join(reasons)})" if reasons else "")

    for name, indexes in by_field.items():
        if name in confirmed:
            continue
        filled = [marks[i].value for i in indexes if states[i] is True]
        unsure = [marks[i].value for i in indexes if states[i] is None]
        if name in COUNTED:
            if unsure:
                uncertain.append(Uncertainty(name, undecided(name, indexes)))
            elif filled and sorted(filled) != [marks[i].value for i in indexes[:len(filled)]]:
                # floors are built from the bottom, residents and clouds coloured in from the first: a gap means
                # a mark misread, or one forgotten; the count is the spec's, the doubt a person's to settle
                gap = next(marks[i].value for i in indexes if states[i] is not True)
                uncertain.append(Uncertainty(name, f"{len(filled)} marks are filled but not from the first on "
                                                   f"({gap} is empty)"))
            values[name] = len(filled)
        elif name == "guests" and version == "great-architect":
            if unsure:
                uncertain.append(Uncertainty(name, undecided(name, indexes)))
            values[name] = [str(v) for v in filled]
        else:
            if unsure:
                uncertain.append(Uncertainty(name, undecided(name, indexes)))
            elif len(filled) > 1:
                uncertain.append(Uncertainty(name, f"{_describe(filled)} are both filled; it takes one value"))
            values[name] = filled[0] if len(filled) == 1 else None
    for name, text in confirmed.items():
        values[name] = confirmed_value(name, text, by_field, marks, version)
    # a flag stands on a built wall (004 Flags): a flag filled on a wall whose mark is empty means one of the two
    # was misread or forgotten, which a person decides
    open_fields = {u.field for u in uncertain}
    for name in by_field:
        if name.startswith("walls[") and ".flags[" in name and values.get(name) is not None:
            wall = name[:name.index(".")]
            if values.get(wall) is not True and wall not in open_fields and wall not in confirmed:
                uncertain.append(Uncertainty(wall, f"a flag of this wall ({name}) is filled but the wall's mark is "
                                                   "empty; a flag stands on a built wall"))
                open_fields.add(wall)
    data, origin = _sheet(values, by_field)
    return Reading(data, tuple(uncertain), {k: tuple(v) for k, v in by_field.items()}, origin,
                   sum(1 for state in states if state is True))


class BadConfirmation(ValueError):
    """A value given for a field that the field cannot take (the message says which it takes)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def confirmed_value(name: str, text: str, by_field: Mapping[str, Sequence[int]], marks: Sequence[Mark],
                    version: str) -> object:
    """A value a person gave for a field (`--set towers[1]=5`), as the field's marks would have given it."""
    if name not in by_field:
        raise BadConfirmation(name, f"the sheet has no field {name!r} (its fields: {', '.join(sorted(by_field))})")
    allowed = [marks[i].value for i in by_field[name]]
    text = text.strip()
    shown = quoted(text)  # a value of 5,000 digits is shown cut
    # ASCII digits, a few of them: `isdigit` takes '²' and '٣', and int() refuses more than 4,300 digits
    number = int(text) if re.fullmatch(r"-?[0-9]{1,9}", text) else None
    if name in COUNTED:
        if number is None or not 0 <= number <= len(allowed):
            raise BadConfirmation(name, f"{name} takes a number from 0 to {len(allowed)}, not {shown}")
        return number
    if name == "guests" and version == "great-architect":
        given = [g.strip().lower() for g in text.split(",") if g.strip() and g.strip().lower() != "none"]
        unknown = [g for g in given if g not in allowed]
        if unknown:
            raise BadConfirmation(name, f"guests takes guest ids separated by commas ({', '.join(map(str, allowed))}) "
                                  f"or none; {quoted(', '.join(unknown))} is not one")
        return given
    if text.lower() in ("none", "no", "false", ""):
        return None
    if all(isinstance(v, bool) for v in allowed):
        if text.lower() in ("true", "yes", "1"):
            return True
        raise BadConfirmation(name, f"{name} takes true or false, not {shown}")
    if number is not None and number in allowed:
        return number
    raise BadConfirmation(name, f"{name} takes {_describe(allowed).replace(' and ', ', ')} or none, not {shown}")


_INDEXED = ("towers", "walls", "guests")


def _sheet(values: Mapping[str, object], by_field: Mapping[str, Sequence[int]]
           ) -> tuple[dict[str, object], dict[str, tuple[str, ...]]]:
    """The end state's sheet from the value of each field: built towers, walls and flags in the order of their
    index, skipping the ones not built (the spec); and the field(s) each place of it comes from."""
    def indexed(prefix: str) -> list[int]:
        found = set()
        for name in by_field:
            if name.startswith(prefix + "[") and "." not in name:
                found.add(int(name[len(prefix) + 1:name.index("]")]))
        return sorted(found)

    origin: dict[str, tuple[str, ...]] = {"": ()}
    data: dict[str, object] = {"donjon_floors": values.get("donjon_floors", 0)}
    origin["donjon_floors"] = ("donjon_floors",)
    towers = [i for i in indexed("towers") if values.get(f"towers[{i}]") is not None]
    data["towers"] = [values[f"towers[{i}]"] for i in towers]
    origin["towers"] = tuple(f"towers[{i}]" for i in indexed("towers"))
    for position, i in enumerate(towers):
        origin[f"towers[{position}]"] = (f"towers[{i}]",)
    walls: list[dict[str, object]] = []
    origin["walls"] = tuple(f"walls[{i}]" for i in indexed("walls"))
    for i in indexed("walls"):
        if values.get(f"walls[{i}]") is not True:
            continue
        names = sorted(n for n in by_field if n.startswith(f"walls[{i}].flags["))
        held = [n for n in names if values.get(n) is not None]
        position = len(walls)
        walls.append({"flags": [values[n] for n in held]})
        origin[f"walls[{position}]"] = origin[f"walls[{position}].flags"] = (f"walls[{i}]",)
        for flag, name in enumerate(held):
            origin[f"walls[{position}].flags[{flag}]"] = (name,)
    data["walls"] = walls
    for name in ("sun", "cloud"):
        data[name] = values.get(name) is True
        origin[name] = (name,)
    if "sky_clouds" in by_field:
        data["sky_clouds"] = values.get("sky_clouds", 0)
        origin["sky_clouds"] = ("sky_clouds",)
    data["residents"] = values.get("residents", 0)
    origin["residents"] = ("residents",)
    if "guests" in by_field:
        guests = values.get("guests") or []
        assert isinstance(guests, list)
        data["guests"] = list(guests)
        origin["guests"] = ("guests",)
        for position in range(len(guests)):
            origin[f"guests[{position}]"] = ("guests",)
    else:
        floors = [i for i in indexed("guests") if values.get(f"guests[{i}]") is not None]
        data["guests"] = [values[f"guests[{i}]"] for i in floors]
        origin["guests"] = tuple(f"guests[{i}]" for i in indexed("guests"))
        for position, i in enumerate(floors):
            origin[f"guests[{position}]"] = (f"guests[{i}]",)
    return data, origin


def sheet_name(version: str, paper: str) -> str:
    """The scan-ready sheet's file name without its suffix (its map adds `.marks.json`)."""
    return f"castle-sheet-{version}-{paper}"


def mark_map(castle: Castle, version: str, paper: str) -> MarkMap:
    """The map of the scan-ready sheet of `version` on `paper`, drawn from the catalog."""
    from generator.games.castle.scan_sheet import scan_sheet

    return scan_sheet(castle, version, paper).map
