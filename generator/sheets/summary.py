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

from generator.i18n import Language, language
from generator.sheets.advice import alone_advice, uncertainty
from generator.sheets.marks import NO, NONE, YES, MarkMap, field_marks, own_words
from generator.sheets.photo_reasons import FIELD_CAUSES_AFTER_LABEL

#: A field's last index: `walls[1].flags[0]` is item 0 of the row `walls[1].flags`.
_LAST_INDEX = re.compile(r"(.*)\[(\d+)\]")
#: Every index of a field's name: `walls[1].flags[0]` without them is `walls.flags`, as the table's controls name it.
_INDEXES = re.compile(r"\[\d+\]")
#: What a field's value is said as when nothing was filled, when it waits for a person, and a value that says "no".
NOTHING = "–"
UNSURE = "?"


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
    #: the value given cannot be taken (a tower of 12): the field is still to answer, its value kept to be mended
    refused: bool = False
    #: for an undecided field, its reason's name (generator.sheets.advice.UNCERTAIN), "" when none is known
    reason: str = ""


def without_another_photo(lines: Sequence[ReadLine]) -> tuple[ReadLine, ...]:
    """`lines` with each undecided field's advice as it stands when no other photo of the sheet can be added (the
    most are kept): "add another photo" is not said where it cannot be done."""
    return tuple(line._replace(advice=alone_advice(line.reason)) if line.reason else line for line in lines)


def words(name: str, lang: Language | None = None, labels: Mapping[str, str] | None = None) -> str:
    """A field's name in words: `donjon_floors` -> `donjon floors`, `walls[1].flags` -> `walls #2 flags`; each
    word of the map's names in `lang` when donjon's catalog has it (the castle's are marked in its sheets module), or
    its label in `labels` (a sheet of one's own's, by field, in the page's language: `goods[1]` -> `Goods traded #2`);
    a sheet of one's own without a label keeps its names."""
    lang = lang or language()
    labels = labels or {}
    said_parts = []
    for part in name.split("."):
        found = re.fullmatch(r"([^\[]*)((?:\[\d+\])*)", part)
        word, indexes = (found.group(1), found.group(2)) if found else (part, "")
        numbers = "".join(f" #{int(i) + 1}" for i in re.findall(r"\[(\d+)\]", indexes))
        said_parts.append((labels[word] if word in labels else lang._(word.replace("_", " "))) + numbers)
    return " ".join(said_parts)


def value_words(value: object, lang: Language | None = None, names: Mapping[str, str] | None = None) -> str:
    """A field's value in words: yes or no, a number, the values of a list, or a dash when nothing was filled; a
    value that is a catalog's id said by its name in `names` (id -> name, in the page's language) when given."""
    lang = lang or language()
    names = names or {}
    if value is None:
        return NOTHING
    if isinstance(value, bool):
        return lang._(YES if value else NO)
    if isinstance(value, (list, tuple)):
        return ", ".join(names.get(str(v), str(v)) for v in value) if value else lang._(NONE)
    return names.get(str(value), str(value))


def unindexed(field: str) -> str:
    """A field's name without its indexes (`walls[1].flags[0]` -> `walls.flags`), as a sheet's words for its values
    and labels are kept."""
    return _INDEXES.sub("", field)


def named(field: str, labels: Mapping[str, str] | None) -> str:
    """A field as the command line names it to people: by its label where `labels` give one (`words`: `Goods
    traded`), else by its id, as `--set` takes it (`towers[1]`)."""
    labels = labels or {}
    parts = [unindexed(part) for part in field.split(".")]
    return words(field, language("en"), labels) if any(part in labels for part in parts) else field


def why_said(doubt: Doubt, lang: Language | None = None, labels: Mapping[str, str] | None = None,
             names: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """Why a field is undecided, for a person: the reader's own sentence in English (it names values and
    fields, a field by its label in `labels` where given, a value by its name in `names`: by field without its
    indexes, value -> name, as :func:`said` takes them), in another language the sentence of its reason's code
    said after the field's label (photo_reasons.FIELD_CAUSES_AFTER_LABEL): every caller shows the label first."""
    lang = lang or language()
    if lang.english:
        worded = getattr(doubt, "worded", None)  # the reader's Uncertainty: its fields can be said otherwise
        if worded is None or not (labels or names):
            return doubt.why
        return str(worded(lambda field: words(field, lang, labels) if labels else field,
                          lambda field, value: value_name(field, value, names)))
    reason = uncertainty(doubt.why, getattr(doubt, "code", None))
    if reason is None or reason.name not in FIELD_CAUSES_AFTER_LABEL:
        return doubt.why  # a reason donjon has no words for in this language: better English than nothing
    rule = getattr(doubt, "rule", "")
    if reason.name == "rules" and rule:  # which rule: the sheet's own words for it, else the catalogs'
        said = own_words(rule, getattr(doubt, "rule_said", ()), lang)
        return lang._("{label}: {value}").format(label=lang._(FIELD_CAUSES_AFTER_LABEL[reason.name]), value=said)
    return lang._(FIELD_CAUSES_AFTER_LABEL[reason.name])


def said_once(label: str, why: str, lang: Language) -> str:
    """A doubt as a line says it, its field's `label` then `why` ("tours #3 : deux valeurs remplies"), the label
    said once: `why` alone when it starts with that label, before the language's colon ("tours #3 : ...", as the
    reasons say it in French and German) or a space (the reader's "storm is marked but boats is empty")."""
    lead = lang._("{label}: {value}").format(label=label, value="")
    if why.startswith(lead) or why.startswith(f"{label} "):
        return why
    return lang._("{label}: {value}").format(label=label, value=why)


def value_name(field: str, value: str, names: Mapping[str, Mapping[str, str]] | None) -> str | None:
    """The name of `field`'s value `value` in `names` (by field without its indexes, value -> name), None when it
    has none there."""
    return (names or {}).get(unindexed(field), {}).get(value)


class Doubt(Protocol):
    """A field the reader could not decide (generator.sheets.marks.Uncertainty, scoring.result.Uncertain): its
    name, why, and the reader's code for why when it gives one (`code`)."""

    @property
    def field(self) -> str: ...

    @property
    def why(self) -> str: ...


def said(the_map: MarkMap, values: Mapping[str, object], uncertain: Sequence[Doubt],
         given: Mapping[str, str] | None = None, lang: Language | None = None,
         names: Mapping[str, Mapping[str, str]] | None = None, labels: Mapping[str, str] | None = None
         ) -> tuple[ReadLine, ...]:
    """What the marks say: each uncertain field first, in the order given, then every row of the map in the map's
    order, an uncertain field's value said as a question mark there unless a person gave it (`given`, field ->
    value as `--set` takes it; `values` then hold it). Words in `lang` (English); the advice stays English, said in
    the page's language where shown. `names`: by field without its indexes (`guests`, `walls.flags`), the words of
    values that are a catalog's ids (a castle guest's id -> its name in `lang`), so a page never shows an id;
    `labels`: a sheet of one's own's labels of its fields (by field, in `lang`), said instead of their ids."""
    given = given or {}
    names = names or {}
    lang = lang or language()
    empty = {NOTHING, lang._(NO), lang._(NONE)}
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
        text = UNSURE if name in unsure else value_words(values.get(name), lang, names.get(unindexed(name)))
        held = []
        for row in inside.get(name, ()):
            items = [item(field) for _, field in sorted(rows[row])]
            if any(i not in empty for i in items):
                held.append(f"{words(row.rpartition('.')[2], lang, labels)} {', '.join(items)}")
        return f"{text} ({'; '.join(held)})" if held else text

    lines = []
    for doubt in uncertain:
        reason = uncertainty(doubt.why, getattr(doubt, "code", None))
        label = words(doubt.field, lang, labels)
        why = why_said(doubt, lang, labels, names)
        # the line shows its label before the reason: a reason naming that field alone first is not said twice
        # ("soleil : sous un reflet", not "soleil : soleil : sous un reflet")
        lead = lang._("{label}: {value}").format(label=label, value="")
        lines.append(ReadLine(label, UNSURE, doubt.field, why[len(lead):] if why.startswith(lead) else why,
                              reason.advice if reason else "", given.get(doubt.field, ""),
                              reason=reason.name if reason else ""))
    for row in top:
        items = sorted(rows[row])
        lines.append(ReadLine(words(row, lang, labels), ", ".join(item(name) for _, name in items), items[0][1]))
    return tuple(lines)
