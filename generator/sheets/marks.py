"""The map of marks of a scan-ready sheet (`docs/castle-marks.md`): what the drawer writes beside each sheet as
`NAME.marks.json`, the markers that say which sheet a photo shows, and how marks read filled make field values.

A mark is a small shape a player fills with a pencil (a bubble, a figure to colour in); each means one (field,
value) pair, or one digit of a field's number. :func:`interpret` turns the marks found filled into the value of
each field, by the field's type (:mod:`generator.sheets.layout`), and names every field it cannot decide (two
values filled for one tower) instead of guessing. The photo reader and the table companion's correction page both
go through it.

The sheet says which sheet it is through its four fiducial markers: ArUco markers of the 4x4 dictionary of 50
(`DICT_4X4_50` in opencv) whose ids are `4 x code + corner` (corner 0 top left, 1 top right, 2 bottom right, 3
bottom left, as on the page); each layout names the code each of its papers prints (`scan.markers`). The
patterns are written out here (:data:`ARUCO_4X4`), so that drawing a sheet never needs opencv; a test checks them
against opencv's dictionary.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from functools import cache
from typing import TYPE_CHECKING, Literal, NamedTuple

from generator.i18n import N_
from generator.sayings import Quoted, phrase_quoted
from generator.wording import QUOTE_LIMIT, noun, plural

if TYPE_CHECKING:
    from generator.i18n import Language

FORMAT = "donjon-castle-marks/1"
#: The opencv dictionary the markers are taken from: 4 x 4 bits, 50 markers far apart from each other (few bits
#: in common), which survives blur best; its name as opencv spells it.
DICTIONARY = "DICT_4X4_50"
#: ids of the 4 corners of one sheet; a code takes 4 ids, so the dictionary holds 12 codes
CORNERS = 4
CODES = 50 // CORNERS

#: The inner 4 x 4 bits of the markers with ids 0 to 47 of opencv's DICT_4X4_50 (the 12 codes), row by row, 1 for a
#: white cell (a marker is these cells inside a black border one cell wide).
ARUCO_4X4: tuple[str, ...] = (
    "1011010100110010", "0000111110011010", "0011001100101101", "1001100101000110",
    "0101010010011110", "0111100111001101", "1001111000101110", "1100010011110010",
    "1111111011011010", "1100111101010110", "1111100110010001", "0001000110100111",
    "0000111010110111", "0010101000001111", "0010010010110001", "0010011000111110",
    "0100011001100101", "0110011000000000", "0110110001011110", "0111011010101111",
    "1000011010001011", "1011000000101011", "1100110011010101", "1101110110000010",
    "1111111001000111", "1001010001110001", "1010110011100100", "1010010101010100",
    "0010000100100011", "0011010001101111", "0100010000010101", "0101011110110010",
    "1001111011001111", "1111000011001011", "0000100010101110", "0000100100101001",
    "0001100001110101", "0000010011111111", "0000110111110110", "0001110001011010",
    "0001011100011000", "0010101000101000", "0011001010001100", "0011100010110010",
    "0010010011101000", "0010111011101011", "0010110100111111", "0100101101100100",
)

Shape = Literal["circle", "square", "figure"]
Value = int | bool | str
#: The places of a number written as digits, from the highest.
DIGIT_PLACES = ("tens", "units")


def marker_id(code: int, corner: int) -> int:
    return code * CORNERS + corner


def of_marker(marker: int) -> tuple[int, int] | None:
    """The code and the corner a marker id stands for, or None for an id no sheet prints."""
    if not 0 <= marker < CODES * CORNERS:
        return None
    return divmod(marker, CORNERS)


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
    #: a digit of the field's number: "tens" or "units" (`value` is then the digit); None for any other mark
    digit: str | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"field": self.field, "value": self.value, "shape": self.shape, "x": self.x,
                                  "y": self.y, "width": self.width, "height": self.height}
        if self.digit is not None:
            out["digit"] = self.digit
        return out


class WriteIn(NamedTuple):
    field: str
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Need:
    """What a field stands on by the rules (`needs:`): `fields` must each hold a value (at least `at_least`), once
    the field holds a value (at least `start`)."""

    fields: tuple[str, ...]
    why: str
    at_least: int | None = None
    start: int | None = None
    #: `why` in other languages, (language code, words), as a sheet of one's own gives it (its sheet.yaml's
    #: `languages: {fr: {why: ...}}`): said before donjon's catalogs are asked (:func:`own_words`)
    said: tuple[tuple[str, str], ...] = ()

    @property
    def plain(self) -> bool:
        """A yes-no field to be marked, whenever this one holds anything (what a fillable PDF refuses)."""
        return len(self.fields) == 1 and self.at_least is None and self.start is None


@dataclass(frozen=True)
class MarkMap:
    """The map of one scan-ready sheet, as the spec's JSON holds it, and the type of each field it marks."""

    sheet: str
    #: the layout's identity value (the castle's version, a sheet of one's own its id)
    version: str
    paper: str
    width: float
    height: float
    markers: tuple[Marker, ...]
    marks: tuple[Mark, ...]
    write_in: tuple[WriteIn, ...]
    #: each field's type (`count`, `number`...), which says how its marks make its value (not in the JSON: the
    #: spec's table says it for the castle, the layout for any sheet)
    types: Mapping[str, str]
    #: what fields stand on by the rules (a flag on its wall, a guest on its floor): field -> its needs
    needs: Mapping[str, tuple[Need, ...]] = dc_field(default_factory=dict)
    #: the layout it was drawn from
    layout: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "sheet": self.sheet,
            "version": self.version,
            "paper": self.paper,
            "page": {"width": self.width, "height": self.height},
            "markers": [m._asdict() for m in self.markers],
            "marks": [m.to_dict() for m in self.marks],
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


class Mention(NamedTuple):
    """A field a reason names, or one of its values (`value`, the value as the map holds it: a choice's id, a list's
    item): said as the reader says it (`text`) unless the words of a sheet name it otherwise (:meth:`Uncertainty.
    worded`)."""

    field: str
    text: str
    value: str | None = None


#: A reason in pieces: its words (str) and what it names (:class:`Mention`), in turn.
Pieces = tuple[str | Mention, ...]


class Uncertainty(NamedTuple):
    """A field the marks do not decide: its name (as the map names fields), why in words, and the reason's code
    (generator.sheets.photo_reasons.FIELD_CAUSES)."""

    field: str
    why: str
    code: str = ""
    #: `why` in pieces when it names fields or values (the values of marks left undecided, what the rules say of
    #: fields read together): words and what they name, in turn (`(Mention("storm", "storm"), " is marked but ",
    #: ...)`), so that it can be said with the names people read on the sheet (a sheet of one's own's labels and
    #: its values' names: :meth:`worded`); empty when `why` names neither
    pieces: Pieces = ()
    #: the rule the fields read together break, in the layout's words (a `needs`' `why`: "a flag stands on a built
    #: wall (004 Flags)"), for a language to say it in its own (looked up in donjon's catalogs); "" for none
    rule: str = ""
    #: `rule` in other languages, as the sheet's own `languages:` give it (:attr:`Need.said`)
    rule_said: tuple[tuple[str, str], ...] = ()

    def worded(self, name: Callable[[str], str], value: Callable[[str, str], str | None] | None = None) -> str:
        """`why` with each field it names said by `name` (its label), and each value by `value` (field, value ->
        its name, None to keep the reader's words for it): `why` itself when it names none."""
        if not self.pieces:
            return self.why
        out = []
        for piece in self.pieces:
            if isinstance(piece, str):
                out.append(piece)
            elif piece.value is None:
                out.append(name(piece.field))
            else:
                out.append((value(piece.field, piece.value) if value is not None else None) or piece.text)
        return "".join(out)


def _because(field: str, pieces: Sequence[str | Mention], code: str, need: Need | None = None) -> Uncertainty:
    """An Uncertainty whose `why` is its pieces' words, kept as pieces where they name anything."""
    why = "".join(piece if isinstance(piece, str) else piece.text for piece in pieces)
    return Uncertainty(field, why, code, tuple(pieces) if any(isinstance(p, Mention) for p in pieces) else (),
                       need.why if need else "", need.said if need else ())


def own_words(text: str, said: Iterable[tuple[str, str]], lang: Language) -> str:
    """A layout's `text` said to people (its name, a need's `why`) in `lang`: the layout's own words for it in that
    language where it gives them (`said`: (code, words), a sheet of one's own's `languages:`; `fr` for `fr-CA`),
    else donjon's catalogs' (the castle's), else as written."""
    given = dict(said)
    return given.get(lang.code) or given.get(lang.code.split("-")[0]) or lang._(text)


def _listed_pieces(items: Sequence[Sequence[str | Mention]], conjunction: str = "and") -> list[str | Mention]:
    """`items` (each in pieces) joined as :func:`generator.wording.listing` joins words: `a, b and c`."""
    out: list[str | Mention] = []
    for index, item in enumerate(items):
        if index:
            out.append(f" {conjunction} " if index == len(items) - 1 else ", ")
        out.extend(item)
    return out


@dataclass(frozen=True)
class Reading:
    """One sheet read from its marks: the value of each field, and what is uncertain."""

    values: dict[str, object]
    uncertain: tuple[Uncertainty, ...]
    #: each field of the map -> the marks' indexes in the map, for messages and for the correction page
    fields: Mapping[str, tuple[int, ...]]
    #: how many marks were read filled (none: a blank sheet)
    filled: int = 0


def field_marks(marks: Sequence[Mark]) -> dict[str, list[int]]:
    """Each field of the map and its marks' indexes, in the map's order."""
    out: dict[str, list[int]] = {}
    for index, mark in enumerate(marks):
        out.setdefault(mark.field, []).append(index)
    return out


def _amount(value: object, kind: str | None) -> int:
    """How much a field holds, for the rules' needs: a count itself, a yes-no 1 or 0, a list its length, any other
    value 1 (a number, 0 included: a tower worth 0 is built); nothing 0."""
    if value is None or value is False:
        return 0
    if value is True:
        return 1
    if isinstance(value, int):
        return max(value, 0) if kind == "count" else 1
    if isinstance(value, (list, tuple)):
        return len(value)
    return 1 if value else 0


def _shown_value(field: str, value: object) -> list[str | Mention]:
    """A field's value as a rule's reason says it ("marked", "salt and tar", as the English sentence around it
    joins a list), each of its values to be named."""
    if value is True:
        return ["marked"]
    return _listed_pieces([[Mention(field, str(item), str(item))]
                           for item in (value if isinstance(value, (list, tuple)) else [value])])


def describe(values: Iterable[Value]) -> str:
    return " and ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)


def _value_piece(field: str, value: Value) -> str | Mention:
    """A mark's value as a reason says it (:func:`describe`): one a sheet may name (a choice's id, a list's item)
    as :class:`Mention`; yes-no's true as the word it is."""
    return describe([value]) if isinstance(value, bool) else Mention(field, str(value), str(value))


def _described(field: str, values: Sequence[Value]) -> list[str | Mention]:
    """:func:`describe` in pieces: the values of `field` joined by "and"."""
    out: list[str | Mention] = []
    for index, value in enumerate(values):
        out.extend((" and ",) if index else ())
        out.append(_value_piece(field, value))
    return out


def _values(mark_map: MarkMap, indexes: Sequence[int]) -> list[object]:
    """The values of marks `indexes`, each once, in the map's order: a value given bubbles at two places is one."""
    return list(dict.fromkeys(mark_map.marks[i].value for i in indexes))


def marked_numbers(mark_map: MarkMap, name: str) -> tuple[int, ...] | None:
    """The numbers a number field marked by bubbles of its values can take (2, 4 or 6), or None for a field marked
    otherwise (as digits, or no number): an end state holding another is a game the sheet could not have recorded,
    refused as `--set` refuses it."""
    indexes = field_marks(mark_map.marks).get(name, [])
    if mark_map.types.get(name) != "number" or not indexes or any(mark_map.marks[i].digit for i in indexes):
        return None
    found = _values(mark_map, indexes)
    return tuple(v for v in found if isinstance(v, int) and not isinstance(v, bool))


def _is_count(mark_map: MarkMap, name: str, indexes: Sequence[int]) -> bool:
    """A field whose filled marks are counted (floors, residents): a count not written as digits."""
    return mark_map.types.get(name) == "count" and not any(mark_map.marks[i].digit for i in indexes)


def _digits(mark_map: MarkMap, name: str, indexes: Sequence[int], states: Sequence[State],
            why: Sequence[str] | None) -> tuple[object, list[str | Mention] | None]:
    """A number written as digits: its value (None when nothing at all is filled and the field may be empty), or
    why it is uncertain."""
    marks = mark_map.marks
    unsure = [i for i in indexes if states[i] is None]
    if unsure:
        return None, _undecided(marks, indexes, unsure, why)
    total, any_filled = 0, False
    for place in DIGIT_PLACES:
        # a digit given bubbles at two places (two tables of one field) is that digit, though both are filled
        filled = list(dict.fromkeys(marks[i].value for i in indexes if marks[i].digit == place and states[i] is True))
        if len(filled) > 1:
            return None, [f"the {place} {describe(filled)} are both filled; a digit takes one value"]
        if filled:
            any_filled = True
            total = total * 10 + int(filled[0])
        else:
            total *= 10
    present = any(states[i] is True for i in indexes if marks[i].digit is None)
    if mark_map.types.get(name) == "count":
        return total, None
    return (total if any_filled or present else None), None


#: When a field's undecided marks give several reasons, the one it is reported under: what the player must change
#: about the photo first, then what they must look at on the sheet.
CAUSE_ORDER = ("covered", "glare", "outside", "bent", "spill", "ghost", "half-coloured", "faint")


def _code(indexes: Sequence[int], states: Sequence[State], codes: Sequence[str] | None, otherwise: str = "faint"
          ) -> str:
    """The reason a field is uncertain, from its undecided marks' reasons (or `otherwise`, when none is undecided:
    two values filled)."""
    found = {codes[i] for i in indexes if states[i] is None and codes is not None and codes[i]}
    return next((c for c in CAUSE_ORDER if c in found), otherwise if not found else sorted(found)[0])


def _undecided(marks: Sequence[Mark], indexes: Sequence[int], unsure: Sequence[int],
               why: Sequence[str] | None) -> list[str | Mention]:
    which: list[str | Mention] = (["its mark"] if len(indexes) == 1 else
                                [f"the {noun(len(unsure), 'mark')} of ", *_listed(marks[i] for i in unsure)])
    reasons = sorted({why[i] for i in unsure if why is not None and why[i]})
    return [*which, f" {'are' if len(unsure) > 1 else 'is'} neither filled nor empty" + (
        f" ({'; '.join(reasons)})" if reasons else "")]


def _listed(marks: Iterable[Mark]) -> list[str | Mention]:
    """Marks as a person reads them on the sheet: their values listed ("1, 2 and 3"), those of a digit after its
    place, said once ("units 0, 1 and 3", "tens 1 and of units 0, 4 and 9"); a value a sheet may name (a choice's,
    a list's item) as :class:`Mention`."""
    places: dict[str | None, list[list[str | Mention]]] = {}
    for mark in marks:
        places.setdefault(mark.digit, []).append(
            [describe([mark.value])] if mark.digit else [_value_piece(mark.field, mark.value)])
    out: list[str | Mention] = []
    for index, (place, values) in enumerate(places.items()):
        out.extend(([" and of "] if index else []) + ([f"{place} "] if place else []))
        out.extend(_listed_pieces(values))
    return out


def interpret(mark_map: MarkMap, states: Sequence[State], confirmed: Mapping[str, str] | None = None,
              why: Sequence[str] | None = None, codes: Sequence[str] | None = None) -> Reading:
    """The value of each field the marks make (`docs/castle-marks.md`, "What filling a mark means"), with every
    field left undecided.

    `states[i]` is what was read at `mark_map.marks[i]` (and `why[i]` why it is undecided, when it is, `codes[i]`
    the reason's code: generator.sheets.photo_reasons.FIELD_CAUSES).
    `confirmed` holds values a person gave for fields (`towers[1]` -> `5`, `none`...): a confirmed field is taken
    as given whatever its marks say (a BadConfirmations naming every value its field cannot take). A field with a
    mark read as undecided, with two marks filled where it takes one value, or a counted field whose filled marks
    leave a gap, is uncertain: it is listed, never guessed.
    """
    marks = mark_map.marks
    confirmed = dict(confirmed or {})
    by_field = field_marks(marks)
    uncertain: list[Uncertainty] = []
    values: dict[str, object] = {}

    def undecided(name: str, indexes: Sequence[int], unsure: Sequence[int]) -> Uncertainty:
        return _because(name, _undecided(marks, indexes, unsure, why), _code(unsure, states, codes))

    for name, indexes in by_field.items():
        if name in confirmed:
            continue
        kind = mark_map.types.get(name, "choice")
        # a layout may give one value bubbles at two places (separate parts): either one filled, or both, is that
        # value once; a count's too (two rows of a count's 1 to 3 count 3 at most, never the 2 of each row twice)
        filled = list(dict.fromkeys(marks[i].value for i in indexes if states[i] is True))
        unsure = [i for i in indexes if states[i] is None]
        if any(marks[i].digit for i in indexes):
            value, doubt = _digits(mark_map, name, indexes, states, why)
            if doubt:
                uncertain.append(_because(name, doubt, _code(indexes, states, codes, "two-values")))
            values[name] = value
        elif _is_count(mark_map, name, indexes):
            if unsure:
                uncertain.append(undecided(name, indexes, unsure))
            elif filled and set(filled) != set(_values(mark_map, indexes)[:len(filled)]):
                # floors are built from the bottom, residents and clouds coloured in from the first: a gap means
                # a mark misread, or one forgotten; the count is the spec's, the doubt a person's to settle
                gap = next(v for v in _values(mark_map, indexes) if v not in filled)
                are = "is" if len(filled) == 1 else "are"
                uncertain.append(Uncertainty(name, f"{plural(len(filled), 'mark')} {are} filled but not from the "
                                                   f"first on ({gap} is empty)", "gap"))
            values[name] = len(filled)
        elif kind == "list":
            if unsure:
                uncertain.append(undecided(name, indexes, unsure))
            values[name] = [str(v) for v in filled]
        elif kind == "yes-no":
            if unsure:
                uncertain.append(undecided(name, indexes, unsure))
            values[name] = bool(filled)
        else:
            if unsure:
                uncertain.append(undecided(name, indexes, unsure))
            elif len(filled) > 1:
                uncertain.append(_because(name, [*_described(name, filled), " are both filled; it takes one value"],
                                          "two-values"))
            values[name] = filled[0] if len(filled) == 1 else None
    refused = []
    for name, text in confirmed.items():
        try:
            values[name] = confirmed_value(mark_map, name, text, by_field)
        except BadConfirmation as err:  # every value refused is said at once: one run tells the user all to mend
            refused.append(err)
    if refused:
        raise BadConfirmations(refused)
    # what the rules say fields read together show (a flag stands on its wall, a guest on its floor, the Sun on 4
    # towers): read otherwise, a mark was misread or forgotten, and a person decides; the fields involved are
    # asked about (those confirmed are taken as given)
    open_fields = {u.field for u in uncertain}
    for name, needs in mark_map.needs.items():
        if name not in by_field and name not in confirmed:
            continue
        held = _amount(values.get(name), mark_map.types.get(name))
        for need in needs:
            if held <= 0 or (need.start is not None and held < need.start):
                continue
            short = [f for f in need.fields
                     if f in values and _amount(values[f], mark_map.types.get(f)) < (need.at_least or 1)]
            if not short or open_fields & {name, *short}:
                continue
            involved = [f for f in (name, *short) if f not in confirmed]
            # the fields and values apart from the words around them, to be said by labels and names
            pieces = [Mention(name, name), " is ", *_shown_value(name, values.get(name)), " but ",
                      *_listed_pieces([[Mention(f, f)] for f in short]), " " + (
                          f"{'holds' if len(short) == 1 else 'hold'} less than {need.at_least}" if need.at_least
                          else f"{'is' if len(short) == 1 else 'are'} empty") + f": {need.why}"]
            for field_name in involved:
                uncertain.append(_because(field_name, pieces, "rules", need))
                open_fields.add(field_name)
    return Reading(values, tuple(uncertain), {k: tuple(v) for k, v in by_field.items()},
                   sum(1 for state in states if state is True))


class BadConfirmation(ValueError):
    """A value given for a field that the field cannot take (the message says which it takes): `str()` is English
    (the command line's `--set`) with the field and its values by their ids, :meth:`said` the message in a language
    (the companion's check page), or in English with the field by its label and the values by their names (a sheet
    of one's own on the command line)."""

    def __init__(self, field: str, message: str, allowed: Sequence[Value] = (), **values: object) -> None:
        super().__init__(message.format(name=field, **({_ALLOWED[message]: _joined(allowed)} if allowed else {}),
                                        **_typed(values, None)))
        self.field = field
        self.message = message
        #: the values the field takes (by id), said in the message at its `{values}` or `{ids}`
        self.allowed = tuple(allowed)
        self.values = values

    def said(self, lang: Language | None = None, labels: Mapping[str, str] | None = None,
             names: Mapping[str, Mapping[str, str]] | None = None) -> str:
        """The message in `lang` (default English), the field named in its words or by its label in `labels` (by
        field), and each value it takes by its name in `names` (by field, id -> name: as the sheet prints it, the id
        beside a name that is not the id written otherwise, `Seeleute (sailors)`), as a player reads the sheet and
        may type either; without labels and names, English is exactly `str()`."""
        from generator.i18n import language
        from generator.sheets.summary import named, value_name, words

        lang = lang or language("en")
        if lang.english and not labels and not names:
            return str(self)
        shown = {}
        if self.allowed:
            from generator.fields import named_value

            def one(value: Value) -> str:
                name = value_name(self.field, str(value), names)
                return _joined((value,)) if name is None else named_value(str(value), name)

            shown = {_ALLOWED[self.message]: _joined(self.allowed, one)}
        field = named(self.field, labels) if lang.english else words(self.field, lang, labels)
        return lang._(self.message).format(name=field, **shown, **_typed(self.values, lang))


class BadConfirmations(ValueError):
    """Every value given for fields (a run's `--set`s, a check page's typed values) that its field cannot take, each
    a :class:`BadConfirmation`, in the order given."""

    def __init__(self, errors: Sequence[BadConfirmation]) -> None:
        super().__init__("; ".join(str(err) for err in errors))
        self.errors = tuple(errors)


def _typed(values: Mapping[str, object], lang: Language | None) -> dict[str, object]:
    """`values` with what a person typed (a :class:`Quoted`) quoted as `lang` quotes it (`'x'` in English, also
    when None: `str()` is English, `« x »` in French, `„x“` in German), cut as English cuts a long one."""
    from generator.i18n import language

    lang = lang or language("en")
    return {key: phrase_quoted(value.value, QUOTE_LIMIT, lang) if isinstance(value, Quoted) else value
            for key, value in values.items()}


def _joined(allowed: Sequence[Value], say: Callable[[Value], str] | None = None) -> str:
    """The values a field takes as a refusal lists them (`1, 2, 3`; `true`, `false` in lower case)."""
    return ", ".join(say(v) if say is not None else str(v).lower() if isinstance(v, bool) else str(v)
                     for v in allowed)


#: Why a value given for a field is refused: `{name}` the field, `{given}` what was typed (quoted).
NO_FIELD = N_("the sheet has no field {unknown} (its fields: {fields})")
NOT_IDS = N_("{name} takes values separated by commas ({ids}) or none; {given} is not one")
NOT_DIGITS = N_("{name} takes a whole number from 0 to {most}, not {given}")
NOT_DIGITS_OR_NONE = N_("{name} takes a whole number from 0 to {most} or none, not {given}")
NOT_COUNT = N_("{name} takes a number from 0 to {most}, not {given}")
NOT_YES_NO = N_("{name} takes true or false, not {given}")
#: What a yes-no, or no value, is said as where people read a sheet's values (generator.sheets.summary says them
#: with these words, in the sheet's language): `--set` takes them back in every language donjon speaks, so that a
#: French sheet's "oui" under the score table may be typed as it is read.
YES, NO, NONE = N_("yes"), N_("no"), N_("none")


@cache
def _said(word: str) -> frozenset[str]:
    """`word` and its translations in donjon's languages, in lower case."""
    from generator.i18n import INTERFACE, language

    return frozenset({word, *(language(code)._(word).lower() for code in INTERFACE)})
NOT_ALLOWED = N_("{name} takes {values} or none, not {given}")
#: The key of a message above that lists the values its field takes.
_ALLOWED = {NOT_IDS: "ids", NOT_ALLOWED: "values"}


def confirmed_value(mark_map: MarkMap, name: str, text: str, by_field: Mapping[str, Sequence[int]] | None = None
                    ) -> object:
    """A value a person gave for a field (`--set towers[1]=5`), as the field's marks would have given it."""
    marks = mark_map.marks
    by_field = by_field if by_field is not None else field_marks(marks)
    if name not in by_field:
        raise BadConfirmation(name, NO_FIELD, unknown=Quoted(name), fields=", ".join(sorted(by_field)))
    indexes = by_field[name]
    allowed = [marks[i].value for i in indexes if not marks[i].digit]
    digits = [marks[i].digit for i in indexes if marks[i].digit]
    kind = mark_map.types.get(name, "choice")
    text = text.strip()
    # ASCII digits, a few of them: `isdigit` takes '²' and '٣', and int() refuses more than 4,300 digits
    number = int(text) if re.fullmatch(r"-?[0-9]{1,9}", text) else None
    if digits:
        most = largest(mark_map, name, indexes) or 0
        if text.lower() in {"", *_said(NO), *_said(NONE)} and kind != "count":
            return None
        if number is None or not 0 <= number <= most:
            return _refuse(name, NOT_DIGITS if kind == "count" else NOT_DIGITS_OR_NONE, text, most=most)
        return number
    if _is_count(mark_map, name, indexes):
        most = largest(mark_map, name, indexes) or 0
        if number is None or not 0 <= number <= most:
            return _refuse(name, NOT_COUNT, text, most=most)
        return number
    if kind == "list":
        # "none" in any of donjon's languages ("aucun", "keine"), as the other kinds take it, unless a value is so named
        nothing = _said(NONE) - {str(v).lower() for v in allowed}
        typed = [g.strip() for g in text.split(",") if g.strip() and g.strip().lower() not in nothing]
        unknown = [g for g in typed if g.lower() not in allowed]  # said as typed ('Maïs'), compared in lower case
        if unknown:
            raise BadConfirmation(name, NOT_IDS, allowed, given=Quoted(", ".join(unknown)))
        return [g.lower() for g in typed]
    # a choice's own value is that value, though it be a word for "no" ("non" among a French sheet's values)
    own = kind == "choice" and text.lower() in {str(v).lower() for v in allowed}
    if not own and text.lower() in {"false", "", *_said(NO), *_said(NONE)}:
        return False if kind == "yes-no" else None
    if kind == "yes-no" or all(isinstance(v, bool) for v in allowed):
        if text.lower() in {"true", "1", *_said(YES)}:
            return True
        return _refuse(name, NOT_YES_NO, text)
    if number is not None and number in allowed:
        return number
    if text in [str(v) for v in allowed]:
        return next(v for v in allowed if str(v) == text)
    return _refuse(name, NOT_ALLOWED, text, allowed)


def largest(mark_map: MarkMap, name: str, indexes: Sequence[int] | None = None) -> int | None:
    """The largest whole number the marks of field `name` record on the sheet: a count of bubbles or figures, as
    many as its values (six bubbles record 0 to 6; two rows of 1 to 3, 0 to 3); a number as digits, all nines (two
    places: 99); None for a field not recorded so (a yes-no, a choice, a list, a number given by bubbles of its
    values: generator.sheets.marks.marked_numbers). What the sheet cannot record, `--set` refuses, and so does an
    end state of the sheet (generator.games.sheet_game)."""
    if indexes is None:
        indexes = field_marks(mark_map.marks).get(name, [])
    places = {mark_map.marks[i].digit for i in indexes if mark_map.marks[i].digit}
    if places:
        return int(10 ** len(places) - 1)
    if indexes and _is_count(mark_map, name, indexes):
        return len(_values(mark_map, indexes))
    return None


def _refuse(name: str, message: str, text: str, allowed: Sequence[Value] = (), **values: object) -> object:
    raise BadConfirmation(name, message, allowed, given=Quoted(text), **values)  # 5,000 digits are shown cut
