"""What a sheet read from its marks says, as a few lines of text a person checks against the paper: the fields it
could not decide first (each with why and what to do), then every field, the rows of a sheet on one line each
(`towers: 5, 2, –, 5`; `walls: yes (flags 2), yes (flags 1, 2), no, yes`), so that nobody has to pan a photo of the
whole sheet on a phone to see what was read.

Any sheet's map (the castle's, a sheet of one's own) is said the same way, from its field names: a field indexed last
(`towers[2]`) is an item of its row (`towers`), a row under an item (`walls[1].flags`) is said inside that item.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple, Protocol

from generator.sheets.advice import uncertainty
from generator.sheets.marks import MarkMap, field_marks

#: A field's last index: `walls[1].flags[0]` is item 0 of the row `walls[1].flags`.
_LAST_INDEX = re.compile(r"(.*)\[(\d+)\]")
#: What a field's value is said as when nothing was filled, when it waits for a person, and a value that says "no".
NOTHING = "–"
UNSURE = "?"
_EMPTY = {NOTHING, "no", "none"}


class ReadLine(NamedTuple):
    """One line of what a sheet says."""

    #: the field or the row, in words (`towers`, `towers #3`, `donjon floors`)
    label: str
    #: its value(s) in words, a question mark for each the marks did not decide
    text: str
    #: the (first) field of the line, as the map names it: what a page links to its marks by
    field: str
    #: a field the marks did not decide (the player must look): why; "" for a line of what was read
    why: str = ""
    #: for an undecided field, what to do about it ("" when no advice is known)
    advice: str = ""
    #: for an undecided field, the value a person gave for it (as `--set` takes it), "" when none yet
    given: str = ""


def words(name: str) -> str:
    """A field's name in words: `donjon_floors` -> `donjon floors`, `walls[1].flags` -> `walls #2 flags`."""
    counted = re.sub(r"\[(\d+)\]", lambda found: f" #{int(found.group(1)) + 1}", name)
    return counted.replace("_", " ").replace(".", " ")


def value_words(value: object) -> str:
    """A field's value in words: yes or no, a number, the values of a list, or a dash when nothing was filled."""
    if value is None:
        return NOTHING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) if value else "none"
    return str(value)


class Doubt(Protocol):
    """A field the reader could not decide (generator.sheets.marks.Uncertainty, scoring.result.Uncertain): its
    name, why, and the reader's code for why when it gives one (`code`)."""

    @property
    def field(self) -> str: ...

    @property
    def why(self) -> str: ...


def said(the_map: MarkMap, values: Mapping[str, object], uncertain: Sequence[Doubt],
         given: Mapping[str, str] | None = None) -> tuple[ReadLine, ...]:
    """What the marks say: each uncertain field first, in the order given, then every row of the map in the map's
    order, an uncertain field's value said as a question mark there unless a person gave it (`given`, field ->
    value as `--set` takes it; `values` then hold it)."""
    given = given or {}
    unsure = {u.field for u in uncertain if u.field not in given}
    fields = list(field_marks(the_map.marks))
    rows: dict[str, list[tuple[int, str]]] = {}
    for name in fields:
        found = _LAST_INDEX.fullmatch(name)
        row, index = (found.group(1), int(found.group(2))) if found else (name, -1)
        rows.setdefault(row, []).append((index, name))
    # a row under an item of another row (the flags of a wall) is said inside that item
    inside: dict[str, list[str]] = {}
    top: list[str] = []
    for row in rows:
        parent, dot, _ = row.rpartition(".")
        if dot and parent in fields:
            inside.setdefault(parent, []).append(row)
        else:
            top.append(row)

    def item(name: str) -> str:
        text = UNSURE if name in unsure else value_words(values.get(name))
        held = []
        for row in inside.get(name, ()):
            items = [item(field) for _, field in sorted(rows[row])]
            if any(i not in _EMPTY for i in items):
                held.append(f"{words(row.rpartition('.')[2])} {', '.join(items)}")
        return f"{text} ({'; '.join(held)})" if held else text

    lines = []
    for doubt in uncertain:
        reason = uncertainty(doubt.why, getattr(doubt, "code", None))
        lines.append(ReadLine(words(doubt.field), UNSURE, doubt.field, doubt.why, reason.advice if reason else "",
                          given.get(doubt.field, "")))
    for row in top:
        items = sorted(rows[row])
        lines.append(ReadLine(words(row), ", ".join(item(name) for _, name in items), items[0][1]))
    return tuple(lines)
