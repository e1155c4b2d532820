"""A sheet of one's own: a designer's folder with a `sheet.yaml` naming its layout, and optional scoring rules.

    my-sheet/
      sheet.yaml              id, name, layout, players, values, labels, item_words, scoring, lang,
                              languages
      layout.yaml             a sheet layout (templates/sheets/README.md), or a shipped one by id

`donjon build --content my-sheet` draws it like a game's score sheet (scan-ready with its map of marks, and
fillable, on each paper its layout names); `donjon score photo.jpg --sheet my-sheet` reads a filled sheet (a photo,
a PDF scan, or the fillable PDF) and prints each field's value and, when the sheet declares scoring rules, each
category's points, the total, and the players ranked. The sheet is a game donjon knows for as long as its folder
is in use (`generator.games.sheet_game`): its end state (`game: ID`, one entry of `sheets` per player with the
value of each field) is scored from YAML too, and the table companion opens a table for it.

Scoring (`scoring:`): a list of categories, each its `name` and one of

- `sum: [field, ...]`: the fields' values added up;
- `count: field` and `value: N`: the field's amount times N (N may be negative: a penalty);
- `lookup: field` and `table`: the points of the group holding the field's amount (`table` lists groups with
  `first`, `last` and `points`, or names a list of the sheet's `values`, the very groups its track draws); beyond
  the last group, the last group's points; below the first, none. Every amount from the first group's to the
  last's is in one group: groups that overlap, or leave an amount between them in none, are refused.

Labels (`labels: {season: Season of the harvest}`): how people see a field where it is not drawn, at the table
(the companion's form and its result), in the review of a photo and under `donjon score`'s table; a field without
one is shown by its id in words (`season`). The end state and the JSON keep the ids. A list field's label names
the whole list ("Goods traded"); what one of its items is called, and several, is `item_words: {goods: {one: good,
many: goods}}` (messages say "unknown good 'gold'", the table "2 goods"); without, "goods item".

Languages: `lang` is the language the sheet's words are written in (default `en`): its typography, the PDF's
language and donjon's own words (`_('Player')`) follow it. `languages: {fr: {name, words, values, labels,
item_words, why}}` gives the sheet in another language, each key over the sheet's own (a word, value or label a
language leaves out stays the sheet's); `donjon build --lang fr` draws it in French, and a French phone sees its
French labels. Its `name` and `why` (its fields' needs' `why`, by field) are what `donjon score --lang fr` and the
companion say of a filled sheet's problems and of a rule a photo's marks break, before donjon's catalogs. The
marks are the same in every language: one map reads them all.

A field's amount: its number (a count, a number; none is 0), 1 for a yes-no marked, the length of a list, a
choice's value when it is a number (else 1 when chosen), 1 for text written in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.catalog.common import LANGUAGE_CODE
from generator.errors import ContentError, Problem
from generator.fields import (
    AnyOf,
    Checker,
    Field,
    Int,
    Invalid,
    ListOf,
    MapOf,
    Record,
    Slug,
    Text,
    check_document,
)
from generator.i18n import N_, phrase
from generator.sayings import quote
from generator.sheets.layout import VALUE, VALUE_NAME, WORDS, Where, values_written
from generator.yamlio import Document, PathKey

#: The fields of a sheet of one's own are keys of its end state: plain names.
OWN_FIELD = re.compile(r"[a-z][a-z0-9_]{0,39}")
#: A field's label, as the companion's form and the score table show it: a few words, not a sentence.
LABEL = Text(max_len=40, doc="a field's label")
#: The labels of a sheet's fields, by field (the layout's `fields:`).
LABELS: MapOf[str, str] = MapOf(key=Text(max_len=40, pattern=OWN_FIELD.pattern, hint=N_("a field's name")), value=LABEL)
#: What one item of a list field is called, and several (`{one: good, many: goods}`): the words of messages and of
#: the table about its items, where its label ("Goods traded") names the whole list.
ITEM_WORD: Record[dict[str, Any]] = Record(name="an item's word", fields={
    "one": Field(Text(max_len=40), doc="one item (`good`: \"unknown good 'gold'\", \"1 good\")"),
    "many": Field(Text(max_len=40), doc="several items (`goods`: \"3 goods\")"),
})
#: The item words of a sheet's list fields, by field.
ITEM_WORDS: MapOf[str, dict[str, Any]] = MapOf(
    key=Text(max_len=40, pattern=OWN_FIELD.pattern, hint=N_("a list field's name")), value=ITEM_WORD)
#: The players a sheet of one's own is for, unless it says.
PLAYERS = (1, 8)

_GROUP: Record[dict[str, Any]] = Record(name="group", fields={
    "first": Field(Int(0, 100_000)), "last": Field(Int(0, 100_000)), "points": Field(Int(-100_000, 100_000)),
})


def _one_way(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
    ways = [k for k in ("sum", "count", "lookup") if values.get(k) is not None]
    if len(ways) != 1:
        ck.fail(path, "give exactly one of sum (fields added up), count (a field times a value) and lookup (a "
                      "field's group in a table)" + (f"; it gives {', '.join(ways)}" if ways else ""))
    if values.get("lookup") is not None and values.get("table") is None:
        ck.fail(path, "a lookup needs its table (groups with first, last and points, or the name of such a list "
                      "in values)")
    if values.get("value") is not None and values.get("count") is None:
        ck.fail((*path, "value"), "value goes with count")


CATEGORY: Record[dict[str, Any]] = Record(name="scoring category", fields={
    "name": Field(Text(max_len=40), doc="the category's name, a row of the score table"),
    "sum": Field(ListOf(Text(max_len=40, pattern=OWN_FIELD.pattern, hint=N_("a field's name")), min_items=1),
                 required=False, doc="the fields whose values are added up"),
    "count": Field(Text(max_len=40, pattern=OWN_FIELD.pattern, hint=N_("a field's name")), required=False,
                   doc="a field whose amount is multiplied by value"),
    "value": Field(Int(-10_000, 10_000), required=False, doc="the points each one of count is worth (default 1)"),
    "lookup": Field(Text(max_len=40, pattern=OWN_FIELD.pattern, hint=N_("a field's name")), required=False,
                    doc="a field whose amount is looked up in table"),
    "table": Field(AnyOf((ListOf(_GROUP, min_items=1, max_items=200), Text(max_len=40)),
                         what="a list of groups or the name of one in values"), required=False,
                   doc="groups (first, last, points), or the name of such a list in the sheet's values"),
}, rules=(_one_way,))

SHEET_SPEC: Record[dict[str, Any]] = Record(name="sheet of your own", doc="A sheet of your own: sheet.yaml.", fields={
    "id": Field(Slug(doc="output files and end states are named after it")),
    "name": Field(Text(max_len=80), doc="the game or sheet's name, as people write it"),
    "description": Field(Text(max_len=400), required=False),
    "layout": Field(Text(max_len=200), doc="a sheet layout: a .yaml file in this folder, or a shipped one's id"),
    "players": Field(Record(name="players", fields={"min": Field(Int(1, 100)), "max": Field(Int(1, 100))}),
                     required=False, doc="how many players a game has (default 1 to 8)"),
    "values": Field(MapOf(key=Text(max_len=40, pattern=r"[a-z_][a-z0-9_]*", hint=N_("a name like 'rounds'")),
                          value=VALUE),
                    required=False, doc="values the layout's templates read, over the layout's own"),
    "labels": Field(LABELS, required=False,
                    doc="how people see each field at the table, in a photo's review and under the score table, by "
                        "field (its id where none is given)"),
    "item_words": Field(ITEM_WORDS, required=False,
                        doc="what one item of a list field is called, and several (`goods: {one: good, many: "
                            "goods}`), by field: messages and the table say them (default: `goods item`)"),
    "scoring": Field(ListOf(CATEGORY, min_items=1, max_items=50), required=False,
                     doc="the categories of the score, added up to the total; without them only the values are "
                         "read"),
    "lang": Field(LANGUAGE_CODE, required=False, default="en",
                  doc="the language the sheet's words are written in (its typography, the PDF's language)"),
    "languages": Field(MapOf(key=LANGUAGE_CODE, value=Record(name="the sheet in another language", fields={
        "name": Field(Text(max_len=80), required=False, doc="its name in this language"),
        "words": Field(WORDS, required=False,
                       doc="the layout's words in this language, over its own"),
        "values": Field(MapOf(key=Text(max_len=40, pattern=VALUE_NAME, hint=N_("a name like 'rounds'")), value=VALUE),
                        required=False, doc="values in this language, over the sheet's own"),
        "labels": Field(LABELS, required=False, doc="the fields' labels in this language, over the sheet's own"),
        "item_words": Field(ITEM_WORDS, required=False,
                            doc="the list fields' item words in this language, over the sheet's own"),
        "categories": Field(MapOf(key=Text(max_len=40), value=Text(max_len=40)), required=False,
                            doc="the names of the scoring categories in this language, by their name under `scoring:` "
                                "(`{boats: Bateaux}`): the rows of the score's breakdown (`donjon score --lang`, "
                                "the companion)"),
        "why": Field(MapOf(key=Text(max_len=40, pattern=OWN_FIELD.pattern, hint=N_("a field's name")),
                           value=AnyOf((Text(max_len=300), ListOf(Text(max_len=300), min_items=1, max_items=20)),
                                       what="a why or a list of them")), required=False,
                     doc="the `why` of each field's `needs` in this language, by field (a list for a field with "
                         "several needs, in their order): said where a filled sheet breaks that rule"),
    })), required=False, doc="the sheet in other languages (`donjon build --lang CODE`): by language code"),
})


@dataclass(frozen=True)
class Category:
    name: str
    way: str
    fields: tuple[str, ...]
    value: int
    table: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class UserSheet:
    """A sheet of one's own, checked: its layout loaded, its scoring rules resolved."""

    id: str
    name: str
    folder: Path
    #: where it was read from, for messages
    origin: str
    layout: Any
    values: Mapping[str, Any]
    players: tuple[int, int]
    scoring: tuple[Category, ...]
    #: the language of its words, and its words, values and name in each other language it is given in
    lang: str = "en"
    languages: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, hash=False)
    #: the fields' labels in its own language, by field (`labels:`; a field without one is shown by its id)
    labels: Mapping[str, str] = field(default_factory=dict, hash=False)
    #: its list fields' item words in its own language, by field (`item_words:`: `{one: good, many: goods}`)
    item_words: Mapping[str, Mapping[str, str]] = field(default_factory=dict, hash=False)
    #: where each item of the lists of values of each language (by code) is written in its sheet.yaml, by list (the
    #: sheet's own are in its `layout`'s `values_where`)
    values_where: Mapping[str, Mapping[str, tuple[Where, ...]]] = field(default_factory=dict, hash=False)

    def notes(self) -> list[Problem]:
        """What is taken, but likely not as meant (warnings, never refusals): a layout whose players write their
        name in a text field not called `player` (a French sheet's `joueur`). Only `player` names a player (the end
        state's key, the companion's seat, the name box `--annotate` crops), so such a name is read as a value and
        each filled sheet is named by its file (`ana.pdf` is "ana") or `--names`: said at the field's line, with
        what to write."""
        fields = self.layout.fields
        if any(f.name == "player" for f in fields):
            return []
        return [Problem(f.where.file, f.where.line, f.where.path,
                        f"the sheet has no field `player`, which alone names a player: what is written in "
                        f"{f.name!r} is read as a value, and each filled sheet is named by its file (ana.pdf is "
                        f"'ana') or by --names; if players write their name there, call the field `player` (its label "
                        f"says it in the sheet's words: `labels: {{player: {self.labels.get(f.name, f.name.replace('_', ' ').capitalize())}}}`)")
                for f in fields if f.type == "text" and f.read]

    def labels_in(self, code: str) -> dict[str, str]:
        """The fields' labels in language `code` (or its base language): the language's over the sheet's own."""
        given = self.languages.get(code) or self.languages.get(code.split("-")[0]) or {}
        return {**self.labels, **(given.get("labels") or {})}

    def categories_in(self, code: str) -> dict[str, str]:
        """The names of its scoring categories in language `code` (or its base language), by their own name (the
        breakdown's keys): those `languages:` gives that language, a category it leaves out being left out."""
        given = self.languages.get(code) or self.languages.get(code.split("-")[0]) or {}
        return dict(given.get("categories") or {})

    def item_words_in(self, code: str) -> dict[str, tuple[str, str]]:
        """The item words (one, many) of its list fields in language `code` (or its base language), by field: the
        language's over the sheet's own; a list field without any is left out (:meth:`item_word` has a default)."""
        given = self.languages.get(code) or self.languages.get(code.split("-")[0]) or {}
        return {name: (words["one"], words["many"])
                for name, words in {**self.item_words, **(given.get("item_words") or {})}.items()}

    def item_word(self, name: str, code: str) -> str:
        """What one item of the list field `name` is called in language `code`: its item word, else the field's id
        and "item" (`goods item`), as a list's item was named before sheets could say it."""
        found = self.item_words_in(code).get(name)
        return found[0] if found else f"{name.replace('_', ' ')} item"

    def in_language(self, code: str) -> tuple[str, Any, Mapping[str, Any]]:
        """Its name, layout and values in language `code` (or its base language, `fr` for `fr-CA`): the language's
        words and values over its own; its own where the language gives none."""
        given = self.languages.get(code) or self.languages.get(code.split("-")[0]) or {}
        if not given:
            return self.name, self.layout, self.values
        words = {**self.layout.words, **(given.get("words") or {})}
        # where the language's lists of values are written, over the sheet's own: their problems are said there
        code = code if code in self.languages else code.split("-")[0]
        written = {**self.layout.values_where, **self.values_where.get(code, {})}
        values = dict(self.values)
        for key, theirs in (given.get("values") or {}).items():
            ours = values.get(key, self.layout.values.get(key))  # the sheet.yaml's own, else the layout's
            # a list of items the language names, item by item over the sheet's own (the same ids in the same order,
            # checked where they are written): an item it gives no name keeps the sheet's, not its bare id
            if isinstance(ours, (list, tuple)) and isinstance(theirs, (list, tuple)) and len(ours) == len(theirs) \
                    and all(isinstance(item, Mapping) for item in (*ours, *theirs)):
                values[key] = tuple({**own, **named} for own, named in zip(ours, theirs, strict=True))
            else:
                values[key] = theirs
        return (given.get("name") or self.name, dataclasses.replace(self.layout, words=words, values_where=written),
                values)


def load_sheet(folder: Path, root: Path | None = None) -> tuple[UserSheet | None, list[Problem]]:
    """The sheet of one's own in `folder` (inside the content folder `root`), or None and every problem."""
    from generator.errors import InputError
    from generator.resources import display_path
    from generator.sheets.layout import layout_path, load_layout
    from generator.yamlio import load_file

    origin = display_path(folder / "sheet.yaml")
    try:
        doc = load_file(folder / "sheet.yaml", display=origin)
    except InputError as err:
        return None, [err.problem]
    raw, problems = check_document(doc, SHEET_SPEC)
    if problems or isinstance(raw, Invalid):
        return None, problems or [Problem(origin, None, "", "is not a sheet of your own")]
    try:
        layout_path(raw["layout"], folder, root or folder)
    except ValueError as err:  # a file not there (a typo) or outside the folder: said at the sheet.yaml's line
        return None, [Problem(origin, doc.line(("layout",)), "layout", str(err))]
    try:
        layout = load_layout(raw["layout"], folder, root or folder)
    except ContentError as err:
        return None, list(err.problems)
    names = {f.name: f for f in layout.fields}
    for name in names:
        if not OWN_FIELD.fullmatch(name):
            problems.append(Problem(layout.file, names[name].where.line, names[name].where.path,
                                    f"{name!r}: a field of a sheet of your own is a plain name (letters, digits and "
                                    "_), the key of its end state"))
    # a label of a field the layout does not have is a typo (or a field renamed): said at its line, never ignored
    languages = raw.get("languages") or {}
    for path, given in (((), raw.get("labels")),
                        *((("languages", code), spec.get("labels")) for code, spec in languages.items())):
        for name in given or {}:
            if name not in names:
                where = ".".join((*map(str, path), "labels", name))
                problems.append(Problem(origin, doc.line((*path, "labels", name)), where,
                                        phrase("labels a field {name} that the layout {layout} does not have "
                                               "({names})", name=quote(name), layout=layout.file,
                                               names=", ".join(names))))
    # item words of a field that is not there, or not a list, are a typo too
    for path, given in (((), raw.get("item_words")),
                        *((("languages", code), spec.get("item_words")) for code, spec in languages.items())):
        for name in given or {}:
            where = ".".join((*map(str, path), "item_words", name))
            line = doc.line((*path, "item_words", name))
            lists = [n for n, decl in names.items() if decl.type == "list"]
            if name not in names:
                problems.append(Problem(origin, line, where, f"gives item words to a field {name!r} that the layout "
                                                             f"{layout.file} does not have ({', '.join(names)})"))
            elif names[name].type != "list":
                problems.append(Problem(origin, line, where, f"gives item words to {name!r}, a {names[name].type} "
                                        "field: only a list field has items (" + (", ".join(lists) or "the layout "
                                                                                  "has none") + ")"))
    problems.extend(_whys_given(languages, names, origin, doc, layout.file))
    values = dict(raw.get("values") or {})
    problems.extend(_same_ids_in_every_language(values, layout, languages, origin, doc))
    categories: list[Category] = []
    named: dict[str, int] = {}
    for index, item in enumerate(raw.get("scoring") or ()):
        where = f"scoring[{index}]"
        line = doc.line(("scoring", index))
        if item["name"] in named:
            # each category is a row of the score table, by its name: a second of one name hides a row
            problems.append(Problem(origin, line, f"{where}.name", f"{item['name']!r} is the name of "
                                    f"scoring[{named[item['name']]}] too; each category is a row of the score table "
                                    "and needs a name of its own"))
        named.setdefault(item["name"], index)
        fields = tuple(item["sum"] or ()) if item.get("sum") else (item.get("count") or item.get("lookup"),)
        for name in fields:
            if name not in names:
                problems.append(Problem(origin, line, where, phrase(
                    "names the field {name}, which the layout {layout} does not have ({names})", name=quote(name),
                    layout=layout.file, names=", ".join(names))))
        table: tuple[tuple[int, int, int], ...] = ()
        if item.get("lookup"):
            groups = item["table"]
            if isinstance(groups, str):
                groups = values.get(groups, layout.values.get(groups))
                if not isinstance(groups, (list, tuple)) or not all(isinstance(g, Mapping) for g in groups):
                    problems.append(Problem(origin, line, f"{where}.table", f"{item['table']!r} is not a list of "
                                                                           "groups in the sheet's values"))
                    groups = ()
                else:
                    # a list of the values is no group until checked as the scoring's own table is (a word where a
                    # number goes was an internal error)
                    named_in = "values" if item["table"] in values else f"{layout.file} values"
                    wrongs = [(place, _bad_group(group)) for place, group in enumerate(groups)]
                    for place, wrong in wrongs:
                        if wrong:
                            at = doc.line(("values", item["table"], place)) if item["table"] in values else line
                            problems.append(Problem(origin, at, f"{where}.table", f"{named_in}.{item['table']}"
                                                                                  f"[{place}] {wrong}"))
                    if any(wrong for _, wrong in wrongs):
                        groups = ()
            table = tuple(sorted((int(g["first"]), int(g["last"]), int(g["points"])) for g in groups))
            for first, last, _ in table:
                if first > last:
                    problems.append(Problem(origin, line, f"{where}.table", f"a group runs from {first} to {last}"))
            # each amount is in one group, from the first group's to the last's: groups that overlap gave the
            # first one's points in silence, and an amount between two groups the last group's
            for (first, last, _), (after, end, _) in zip(table, table[1:]):
                if first > last or after > end:
                    continue
                if after <= last:
                    problems.append(Problem(origin, line, f"{where}.table", f"the groups {first} to {last} and "
                                            f"{after} to {end} overlap: each amount is in one group"))
                elif after > last + 1:
                    left = f"{last + 1}" if after == last + 2 else f"{last + 1} to {after - 1}"
                    problems.append(Problem(origin, line, f"{where}.table", f"the groups {first} to {last} and "
                                            f"{after} to {end} leave {left} in none: give every amount from the "
                                            "first group's to the last's a group"))
        way = "sum" if item.get("sum") else "count" if item.get("count") else "lookup"
        categories.append(Category(item["name"], way, tuple(fields), int(item.get("value") or 1), table))
    # a category's name in a language names one of `scoring:` (a typo, or a category renamed, is said at its line)
    for code, spec in languages.items():
        for name in spec.get("categories") or {}:
            if name not in named:
                key: PathKey = ("languages", code, "categories", name)
                problems.append(Problem(origin, doc.line(key), ".".join(map(str, key)), phrase(
                    "names a scoring category {name} that `scoring:` does not have ({names})", name=quote(name),
                    names=", ".join(named) or phrase("it has none"))))
    players = raw.get("players") or {"min": PLAYERS[0], "max": PLAYERS[1]}
    if players["min"] > players["max"]:
        problems.append(Problem(origin, doc.line(("players",)), "players", "min is more than max"))
    if problems:
        return None, problems
    # the lists of values sheet.yaml writes are said at their lines there (over the layout's, as they are read)
    layout = dataclasses.replace(layout, values_where={**layout.values_where,
                                                       **values_written(raw.get("values"), origin, doc)})
    layout = _in_own_words(layout, languages)
    written = {code: values_written(spec.get("values"), origin, doc, ("languages", code, "values"))
               for code, spec in languages.items()}
    return UserSheet(raw["id"], raw["name"], folder, origin, layout, values, (players["min"], players["max"]),
                     tuple(categories), raw["lang"], dict(languages), dict(raw.get("labels") or {}),
                     dict(raw.get("item_words") or {}), written), []


def _whys(given: str | Sequence[str]) -> list[str]:
    return [given] if isinstance(given, str) else list(given)


def _whys_given(languages: Mapping[str, Any], fields: Mapping[str, Any], origin: str, doc: Document,
                layout: str) -> list[Problem]:
    """The problems of the `why`s a language gives: one for each need of a field that has needs."""
    problems = []
    for code, spec in languages.items():
        for name, given in (spec.get("why") or {}).items():
            line, where = doc.line(("languages", code, "why", name)), f"languages.{code}.why.{name}"
            decl = fields.get(name)
            if decl is None or not decl.needs:
                problems.append(Problem(origin, line, where, f"gives the why of {name!r}, which has no `needs` in the "
                                        f"layout {layout} (fields with needs: " + (", ".join(
                                            n for n, d in fields.items() if d.needs) or "none") + ")"))
            elif len(_whys(given)) != len(decl.needs):
                problems.append(Problem(origin, line, where, f"gives {len(_whys(given))} why for {name!r}, which has "
                                        f"{len(decl.needs)} needs in the layout {layout}: one for each, in their "
                                        "order"))
    return problems


def _in_own_words(layout: Any, languages: Mapping[str, Any]) -> Any:
    """`layout` with its name and its needs' `why` in each language sheet.yaml gives them in, for messages to say
    them in the sheet's own words rather than look them up in donjon's catalogs (marks.own_words)."""
    names = tuple((code, spec["name"]) for code, spec in languages.items() if spec.get("name"))
    whys = {name: [(code, _whys(given)) for code, spec in languages.items()
                   for field_name, given in (spec.get("why") or {}).items() if field_name == name]
            for name in {n for spec in languages.values() for n in spec.get("why") or {}}}
    fields = tuple(dataclasses.replace(decl, needs=tuple(
        dataclasses.replace(need, said=tuple((code, said[index]) for code, said in whys[decl.name]))
        for index, need in enumerate(decl.needs))) if decl.name in whys else decl for decl in layout.fields)
    return dataclasses.replace(layout, name_said=names, fields=fields)


def _bad_group(group: Any) -> str | None:
    """What is wrong with a group of a lookup's table written in the sheet's values (`first`, `last`, `points`,
    whole numbers within the bounds the scoring's own table takes), or None."""
    if not isinstance(group, Mapping):
        return "is not a group (first, last and points)"
    for key, low in (("first", 0), ("last", 0), ("points", -100_000)):
        if key not in group:
            return f"has no {key}"
        number = group[key]
        if isinstance(number, bool) or not isinstance(number, int) or not low <= number <= 100_000:
            return f"{key} is {number!r}, not a whole number from {low} to 100000"
    return None


def _ids(items: Sequence[Any]) -> list[Any] | None:
    """The ids of a list of values as a choice or a list field takes them (a value, or an item's `id`), in order;
    None for a list of something else (a track's groups)."""
    ids = [item.get("id") if isinstance(item, Mapping) else item for item in items]
    return None if any(i is None for i in ids) else ids


def _same_ids_in_every_language(values: Mapping[str, Any], layout: Any, languages: Mapping[str, Any], origin: str,
                                doc: Any) -> list[Problem]:
    """A language's list of values names the sheet's own items in its words: the same ids in the same order. One
    map of marks reads the sheet in every language, by the ids and places of its own print, so an id a language
    changes (`wheat` for `ble`) would be another item in the end state than the same mark read from a photo, and an
    order it changes would print a name over another item's mark."""
    problems: list[Problem] = []
    # only the lists a choice or a list field takes its values from: another list (words a template prints) is the
    # language's to translate whole
    taken = {f.values for f in layout.fields if isinstance(f.values, str)} | {f.items for f in layout.fields}
    for code, spec in languages.items():
        for name, given in (spec.get("values") or {}).items():
            if name not in taken:
                continue
            own = values.get(name, layout.values.get(name))
            if not isinstance(own, (list, tuple)) or not isinstance(given, (list, tuple)):
                continue
            own_ids, ids = _ids(own), _ids(given)
            if own_ids is None or ids is None or ids == own_ids:
                continue
            where = ("languages", code, "values", name)
            written = (f"{origin} values.{name}" if name in values else f"{layout.file} values.{name}")
            place = next((i for i, (a, b) in enumerate(zip(ids, own_ids)) if a != b), None)
            if place is None:  # one list is the other's beginning
                problems.append(Problem(origin, doc.line(where), ".".join(where), f"gives {len(ids)} items where the "
                                        f"sheet's own ({written}) has {len(own_ids)}: a language names the same "
                                        "items, each by its id, in the same order"))
                continue
            problems.append(Problem(origin, doc.line((*where, place)), f"{'.'.join(where)}[{place}]",
                                    f"has the id {ids[place]!r} where the sheet's own ({written}) has "
                                    f"{own_ids[place]!r}: a language names the same items in its words, each by its "
                                    "id, in the same order (one map of marks reads every language)"))
    return problems


def amount(value: Any) -> int:
    """What a field's value counts for (see the module's docstring)."""
    if value is None or value is False or value == "":
        return 0
    if value is True:
        return 1
    if isinstance(value, (list, tuple)):
        return len(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    text = str(value).strip()
    return int(text) if re.fullmatch(r"[+-]?\d{1,9}", text) else 1


def points(sheet: UserSheet, values: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    """Each category's points for one player's field values."""
    out: list[tuple[str, int]] = []
    for category in sheet.scoring:
        if category.way == "sum":
            got = sum(amount(values.get(f)) for f in category.fields)
        elif category.way == "count":
            got = amount(values.get(category.fields[0])) * category.value
        else:
            held = amount(values.get(category.fields[0]))
            got = 0
            if category.table:
                # beyond the last group, its points; below the first, none (a group from 0 is one like the others)
                highest = category.table[-1]
                got = highest[2] if held > highest[1] else next(
                    (p for first, last, p in category.table if first <= held <= last), 0)
        out.append((category.name, got))
    return tuple(out)


def values_of(record: Mapping[str, Any], fields: Sequence[str]) -> tuple[tuple[str, Any], ...]:
    """One player's field values, in the layout's order."""
    return tuple((name, record.get(name)) for name in fields)
