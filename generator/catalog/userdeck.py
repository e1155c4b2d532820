"""A user's own deck: a `deck.yaml` naming a table of cards (CSV, XLSX or YAML) and a layout.

    my-deck/
      deck.yaml      id, name, card size, layout, back, where the rows are and which columns mean what
      cards.csv      one row per card (a header row first), cards.xlsx (a sheet of it), or cards.yaml: a list of
                     mappings (a row may leave keys out: they are empty)
      layout.yaml    the card face (see templates/layouts/generic.yaml for a starting point)

Every column of a row is available to the layout's text fields by its header name. A count of 0 leaves a card
out. A deck may hold several languages: `lang:` says the language of its columns (default English), a column
`Name@fr` holds the French of the column `Name` (or `languages: {fr: {Name: Nom}}` names the column holding it),
and a deck built in French takes each cell from the French column where it is filled, else from its own. With
`layout_column`, each row's value in that column picks its layout and back from `layouts` (units and
spells in one table, each drawn and backed their own way). Files a deck names (its table, layouts, fonts, icons,
pictures) are relative to its folder and must lie inside the content folder, so decks can share a layout
(`../shared/unit.yaml`) but never read a file elsewhere.

A spreadsheet is read by generator.catalog.workbook, its formulas as the values the spreadsheet program saved
with them; a formula without a saved value (a file written by a program that does not calculate) is an error
naming the cell.
"""

import csv
import io
import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from generator.catalog.assets import FONTS, ICONS, Assets, resolve_assets
from generator.catalog.common import CARD_SIZE, CardSize, resolve_card_size
from generator.catalog.shapes import SHAPE, Shape
from generator.errors import InputError, Problem
from generator.files import resolve_within
from generator.fields import (
    AnyOf,
    control_character,
    Bool,
    Field,
    Int,
    Invalid,
    ListOf,
    MapOf,
    Nullable,
    Number,
    Record,
    Slug,
    Text,
    check_document,
)
from generator.i18n import N_, phrase, phrase_n, phrase_number
from generator.sayings import phrase_quoted, quote
from generator.wording import quoted
from generator.yamlio import Document, load_file

#: The most cards one deck may hold (the benchmark goes to 10,000).
MAX_CARDS = 100_000
#: The most columns a table may have: a layout reads a few dozen; a table of thousands is a mistake (or a
#: table turned on its side), and checking it would take long.
MAX_COLUMNS = 1000
Scalar = str | int | float | bool | None


class UserCard:
    """One row of a user's table: its id, printed name, copies and every column by header."""

    __slots__ = ("id", "name", "copies", "fields", "origin", "layout", "back", "row")

    id: str
    name: str
    copies: int
    fields: Mapping[str, Scalar]
    #: where the row is, for messages: `cards.csv:12`
    origin: str
    #: the layout and back this card is drawn with, when its row picks them (`layout_column`); None: the deck's
    layout: str | None
    back: str | None
    #: its position among the table's rows (from 0, empty rows not counted), for writing translations back
    row: int

    def __init__(self, id: str, name: str, copies: int, fields: Mapping[str, Scalar], origin: str,
                 layout: str | None = None, back: str | None = None, row: int = -1) -> None:
        self.id = id
        self.name = name
        self.copies = copies
        self.fields = fields
        self.origin = origin
        self.layout = layout
        self.back = back
        self.row = row


class UserDeck:
    """A deck of one's own: its deck.yaml's settings and its table's cards."""

    __slots__ = (
        "folder", "id", "name", "card_size", "layout", "back", "cards", "origin", "root", "assets", "table", "lang",
        "translations", "name_column", "translate", "sheet", "delimiter", "shape", "count_column",
    )

    folder: Path
    id: str
    name: str
    card_size: CardSize
    #: a layout file in the deck's folder, or the id of a shipped layout
    layout: str
    back: str | None
    cards: tuple[UserCard, ...]
    #: the deck.yaml, for messages
    origin: str
    #: the content folder the deck was found in: no file outside it is read
    root: Path | None
    #: the deck's fonts and icons of its own
    assets: Assets
    #: the table file (None for rows written in deck.yaml), for `donjon build --watch`
    table: Path | None
    #: the language of its columns, and for each other language it holds: column -> the column translating it
    lang: str
    translations: Mapping[str, Mapping[str, str]]
    #: the column holding each card's name
    name_column: str | None
    #: the columns a translator translates (`translate:`, default: the name and every column some language
    #: translates)
    translate: tuple[str, ...]
    #: how its table is read: an .xlsx table's sheet, a CSV table's delimiter
    sheet: str | None
    delimiter: str
    #: the outline its pieces are cut along (None: the card's rectangle)
    shape: Shape | None
    #: the column holding each card's copies (None: one of each)
    count_column: str | None

    def __init__(self, folder: Path, id: str, name: str, card_size: CardSize, layout: str, back: str | None,
                 cards: tuple[UserCard, ...], origin: str, root: Path | None, assets: Assets, table: Path | None,
                 lang: str, translations: Mapping[str, Mapping[str, str]], name_column: str | None,
                 translate: tuple[str, ...], sheet: str | None, delimiter: str, shape: Shape | None,
                 count_column: str | None = None) -> None:
        self.folder = folder
        self.id = id
        self.name = name
        self.card_size = card_size
        self.layout = layout
        self.back = back
        self.cards = cards
        self.origin = origin
        self.root = root
        self.assets = assets
        self.table = table
        self.lang = lang
        self.translations = translations
        self.name_column = name_column
        self.translate = translate
        self.sheet = sheet
        self.delimiter = delimiter
        self.shape = shape
        self.count_column = count_column

    @property
    def languages(self) -> tuple[str, ...]:
        """Its own language, then each language its table translates."""
        return (self.lang, *(code for code in self.translations if code != self.lang))

    def in_language(self, code: str) -> tuple[UserCard, ...]:
        """Its cards in language `code`: each translated cell where the table fills it, else the deck's own."""
        columns = self.translations.get(code) or self.translations.get(code.split("-")[0])
        if not columns:
            return self.cards
        out = []
        for card in self.cards:
            fields = dict(card.fields)
            for column, other in columns.items():
                value = card.fields.get(other)
                if value is not None and str(value).strip():
                    fields[column] = value
            name = str(fields.get(self.name_column) or "").strip() if self.name_column else card.name
            out.append(UserCard(card.id, name or card.name, card.copies, fields, card.origin, card.layout, card.back,
                                card.row))
        return tuple(out)


#: A language code: `fr`, `de`, `pt-BR`.
_LANGUAGE = Text(max_len=10, pattern=r"[a-z]{2,3}(-[A-Z]{2})?", hint=N_("a language code such as en, fr or de"))
#: A column translating another: `Name@fr`, `Card text@pt-BR` (a lower-case code: `Price@EUR` is a column of its
#: own). Compiled on first use (re's cache keeps it): only a table with an `@` in a column name needs it.
_TRANSLATION_COLUMN = r"(.+?)\s*@\s*([a-z]{2,3}(?:[-_][A-Za-z]{2})?)"

_CELL = AnyOf(options=(Text(min_len=0, max_len=4000), Int(), Number(), Bool(), Nullable(Text(min_len=0))),
              what="text or a number")

_VARIANT: Record[dict[str, Any]] = Record(
    name="card kind",
    doc="How the cards whose layout column holds this value are drawn.",
    fields={
        "layout": Field(Text(max_len=200), doc=N_("the layout of their faces (a .yaml file, or a shipped layout id)")),
        "back": Field(Text(max_len=200), required=False, doc="the layout of their backs (default: the deck's back)"),
    },
)


def _choices_rule(values: Mapping[str, Any], path: Any, ck: Any) -> None:
    """`layout` is needed unless every card picks its own; `layout_column` and `layouts` go together."""
    if values["layout_column"] is not None and not values["layouts"]:
        ck.fail((*path, "layout_column"), N_("names a column but `layouts` says which layout each of its values picks"))
    if values["layouts"] and values["layout_column"] is None:
        ck.fail((*path, "layouts"), N_("needs `layout_column`: the column whose value picks each card's layout"))
    if values["layout"] is None and not values["layouts"]:
        # the key's description in the checker's language, as a missing key's is said (generator.fields.Record)
        doc = N_("a layout file in this folder, or a shipped layout id")
        ck.fail(path, N_("missing the key {key!r} ({doc})"), key="layout",
                doc=ck.lang._(doc) if ck.lang is not None else doc)

DECK_SPEC: Record[dict[str, Any]] = Record(
    name="deck file",
    doc="A user's own deck: its cards come from a CSV or YAML table and are drawn with a layout.",
    fields={
        # (the required keys' descriptions are marked for the catalogs: a missing key is said with its description)
        "id": Field(Slug(), doc=N_("the deck's id: output files are named after it")),
        "name": Field(Text(max_len=120), doc=N_("the deck's name as printed on sheets")),
        "card_size": Field(CARD_SIZE, required=False, default="poker"),
        "shape": Field(SHAPE, required=False),
        "layout": Field(Text(max_len=200), required=False,
                        doc="a layout file (layout.yaml, or ../shared/unit.yaml inside the content folder) or a "
                            "shipped layout id; needed unless `layouts` gives every card's"),
        "back": Field(Text(max_len=200), required=False,
                      doc="a layout for the backs (file or shipped id); default: a plain back with the deck's name"),
        "layout_column": Field(Text(max_len=100), required=False,
                               doc="a column whose value picks each card's layout and back from `layouts`"),
        "layouts": Field(MapOf(key=Text(max_len=100), value=_VARIANT, max_items=100), required=False,
                         doc="by value of `layout_column`: {layout, back} (an empty cell takes the deck's layout)"),
        "cards": Field(AnyOf(options=(Text(max_len=200), ListOf(MapOf(key=Text(max_len=100), value=_CELL),
                                                                  min_items=1, max_items=MAX_CARDS)),
                             what="a CSV, XLSX or YAML file name, or a list of rows"),
                       doc=N_("the table of cards: a .csv or .xlsx file, a .yaml file holding a list of rows, or the "
                              "rows here")),
        "sheet": Field(Text(max_len=100), required=False,
                       doc="the sheet of an .xlsx table, by name (default: its first sheet of cells)"),
        "id_column": Field(Text(max_len=100), required=False,
                           doc="the column holding each card's id (default: numbered from the name)"),
        "name_column": Field(Text(max_len=100), required=False, default="name",
                             doc="the column holding each card's name (matched ignoring case)"),
        "count_column": Field(Text(max_len=100), required=False,
                              doc="the column holding how many copies of each card to print (default 1; an empty "
                                  "cell is 1, 0 leaves the card out)"),
        # min_len=0: a tab is white space, which Text's "must not be empty" would take for nothing at all (the
        # pattern still refuses an empty delimiter)
        "delimiter": Field(Text(min_len=0, max_len=1, pattern=r"[,;\t|]", hint=N_("one of , ; | or a tab")),
                           required=False, default=",", doc="the CSV delimiter"),
        "fonts": Field(FONTS, required=False, doc="fonts of the deck's own, by name (files relative to this folder)"),
        "icons": Field(ICONS, required=False, doc="icons of the deck's own (SVG or PNG), by name, or a folder of them"),
        "lang": Field(_LANGUAGE, required=False, default="en",
                      doc="the language of the table's columns (en, fr, de...): a column `Name@fr` gives the French "
                          "of `Name`, and a build in a language takes each cell from its column where it is filled"),
        "languages": Field(MapOf(key=_LANGUAGE, value=MapOf(key=Text(max_len=100), value=Text(max_len=100)),
                                 max_items=50), required=False, default={},
                           doc="by language: the column holding the translation of each column ({fr: {Name: Nom}}), "
                               "beside the columns named `Name@fr`"),
        "translate": Field(ListOf(Text(max_len=100), max_items=MAX_COLUMNS), required=False, default=(),
                           doc="the columns a translator translates (`donjon content translations export`); "
                               "default: the name column and every column some language translates"),
    },
    rules=(_choices_rule,),
)


#: How many ids `_slug` keeps once made: `donjon build --watch` reads a deck's table again with every save, and
#: making a thousand ids is a third of reading it.
SLUGS_KEPT = 65536


#: Latin letters Unicode does not decompose into a letter and an accent, as their languages spell them in ASCII
#: (`Straße` is `strasse`, `cœur` `coeur`, `Ørn` `orn`, `Łódź` `lodz`): without, one of them sent a whole name to
#: punycode (`Größter Bär` was `grter-br-rya9c0l`).
_LATIN = str.maketrans({"ß": "ss", "œ": "oe", "æ": "ae", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
                        "ı": "i", "ħ": "h", "ŧ": "t", "ŋ": "n", "ĸ": "k", "ſ": "s"})


@lru_cache(maxsize=SLUGS_KEPT)
def _slug(text: str) -> str:
    """An id from a name or an id column: lower-case ASCII words joined by `-`. Accents are dropped (`Épée` is
    `epee`); text in another script is spelled in punycode, IDNA's ASCII form of Unicode (`Дракон` is
    `80ahtmej`), so that ids in any script stay apart instead of all becoming `card`. Latin letters that are no
    letter and accent (`ß`, `œ`, `ø`...) are spelled as their languages write them in ASCII (:data:`_LATIN`)."""
    lowered = text.lower().strip().translate(_LATIN)

    def ascii_of(part: str) -> str:
        return unicodedata.normalize("NFKD", part).encode("ascii", "ignore").decode("ascii")

    if any(c.isalnum() and not ascii_of(c) for c in lowered):  # a letter or digit with no ASCII form
        lowered = lowered.encode("punycode").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_of(lowered)).strip("-")
    return slug[:80].strip("-") or "card"


def load_deck(folder: Path, display: str, root: Path | None = None) -> tuple[UserDeck | None, list[Problem]]:
    """Load a user deck folder found in the content folder `root` (default: the deck's folder); all problems
    found, and the deck when there are none."""
    name = f"{display}/deck.yaml"
    top = root or folder
    try:
        doc = load_file(folder / "deck.yaml", display=name)
    except InputError as err:
        return None, [err.problem]
    values, problems = check_document(doc, DECK_SPEC)
    if isinstance(values, Invalid):
        return None, problems
    assets, problems = resolve_assets(values, doc, folder, top)
    if problems:
        return None, problems
    try:
        rows, table, table_path = _rows(folder, display, values, doc, top)
    except InputError as err:
        return None, [err.problem]
    cards, problems = _cards(rows, table, values, doc)
    if problems:
        return None, problems
    if not cards:
        return None, [Problem(table, None, "", phrase("every card has a count of 0: there is nothing to print"))]
    header = list(rows[0][1])
    translations, problems = _translations(header, table, values, doc)
    if problems:
        return None, problems
    name_column = _column(header, values["name_column"])
    translate, problems = _translated_columns(header, values, doc, translations, name_column)
    if problems:
        return None, problems
    return UserDeck(folder, values["id"], values["name"], resolve_card_size(values["card_size"]),
                    values["layout"] or "", values["back"], tuple(cards), name, top, assets, table_path,
                    values["lang"], translations, name_column, translate, values["sheet"], values["delimiter"],
                    values["shape"], _column(header, values["count_column"]) if values["count_column"] else None), []


def _translations(header: list[str], table: str, values: Mapping[str, Any],
                  doc: Document) -> tuple[dict[str, dict[str, str]], list[Problem]]:
    """language -> {column: the column translating it}, from the `Name@fr` columns and `languages:`."""
    from generator.i18n import normalise_code

    own = values["lang"]
    out: dict[str, dict[str, str]] = {}
    problems: list[Problem] = []
    for column in header:
        found = re.fullmatch(_TRANSLATION_COLUMN, column) if "@" in column else None
        if found is None:
            continue
        base, code = _column(header, found.group(1)), normalise_code(found.group(2)) or found.group(2)
        if base is None:
            problems.append(Problem(table, 1, column, phrase(
                "translates the column {column}, which the table does not have (its columns: {columns})",
                column=quote(found.group(1)), columns=", ".join(header))))
        elif code == own:
            problems.append(Problem(table, 1, column, phrase(
                "is in the deck's own language ({lang}, `lang` in {file}): put it in {column}, or set `lang`",
                lang=own, file=doc.file, column=quote(base))))
        else:
            out.setdefault(code, {})[base] = column
    for code, columns in values["languages"].items():
        for base, other in columns.items():
            where = ("languages", code, base)
            found_base, found_other = _column(header, base), _column(header, other)
            if found_base is None or found_other is None:
                missing = base if found_base is None else other
                problems.append(Problem(doc.file, doc.line(where), ".".join(where), phrase(
                    "the table has no column {column} (its columns: {columns})", column=quote(missing),
                    columns=", ".join(header))))
            elif code == own:
                problems.append(Problem(doc.file, doc.line(where), ".".join(where),
                                        phrase("is the deck's own language ({lang})", lang=own)))
            else:
                out.setdefault(code, {})[found_base] = found_other
    return out, problems


def _translated_columns(header: list[str], values: Mapping[str, Any], doc: Document,
                        translations: Mapping[str, Mapping[str, str]],
                        name_column: str | None) -> tuple[tuple[str, ...], list[Problem]]:
    """The columns a translator translates: `translate:`, else the name and every column a language translates."""
    if values["translate"]:
        found: list[str] = []
        problems = []
        for index, wanted in enumerate(values["translate"]):
            column = _column(header, wanted)
            if column is None:
                problems.append(Problem(doc.file, doc.line(("translate", index)), f"translate[{index}]", phrase(
                    "the table has no column {column} (its columns: {columns})", column=quote(wanted),
                    columns=", ".join(header))))
            else:
                found.append(column)
        return tuple(found), problems
    named = {c for columns in translations.values() for c in columns} | ({name_column} if name_column else set())
    return tuple(h for h in header if h in named), []


def _rows(folder: Path, display: str, values: Mapping[str, Any], doc: Document,
          root: Path) -> tuple[list[tuple[str, dict[str, Scalar]]], str, Path | None]:
    """The deck's rows as (origin, columns), the table's name for messages, and its file."""
    source = values["cards"]
    if not isinstance(source, str):
        rows = [(f"{doc.file}:{doc.line(('cards', i)) or '?'}", dict(row)) for i, row in enumerate(source)]
        return _fill_missing(rows), doc.file, None
    table = f"{display}/{source}"
    try:
        path = resolve_within(root, folder, source)
    except ValueError as err:
        # the key named as written in the deck file, in every language (as `layout:`): no message of its own
        raise InputError(doc.file, f"cards: {err}", doc.line(("cards",))) from None
    suffix = path.suffix.lower()
    if values["sheet"] is not None and suffix != ".xlsx":
        raise InputError(doc.file, "sheet: " + phrase("means something only for an .xlsx table, and {table} is not one",
                                                      table=quote(source)), doc.line(("sheet",)))
    # the mirror of `sheet:`: a `delimiter:` left from a CSV table once the deck moved to a spreadsheet would
    # otherwise be read as saying something about the new table
    if isinstance(doc.data, dict) and "delimiter" in doc.data and suffix != ".csv":
        said = phrase("means something only for a .csv table, and {table} is not one; remove it", table=quote(source))
        raise InputError(doc.file, "delimiter: " + said, doc.line(("delimiter",)))
    if suffix == ".csv":
        return _csv_rows(path, table, values["delimiter"]), table, path
    if suffix in (".yaml", ".yml", ".json"):
        return _fill_missing(_yaml_rows(path, table)), table, path
    if suffix == ".xlsx":
        from generator.catalog.workbook import xlsx_rows

        rows, table = xlsx_rows(path, table, values["sheet"], values["lang"])
        return rows, table, path
    if suffix in (".xls", ".ods", ".numbers"):
        raise InputError(doc.file, "cards: " + phrase("{table} is a spreadsheet donjon cannot read; save it as .xlsx "
                                                      "(or .csv)", table=quote(source)), doc.line(("cards",)))
    raise InputError(doc.file, "cards: " + phrase("{table} is neither a .csv, an .xlsx nor a .yaml file",
                                                  table=quote(source)), doc.line(("cards",)))


def _fill_missing(rows: list[tuple[str, dict[str, Scalar]]]) -> list[tuple[str, dict[str, Scalar]]]:
    """YAML rows may leave keys out: every row gets every key any row has (in first-seen order), empty where it
    had none."""
    keys = list(dict.fromkeys(k for _origin, row in rows for k in row))
    return [(origin, {k: row.get(k) for k in keys}) for origin, row in rows]


def _csv_rows(path: Path, table: str, delimiter: str) -> list[tuple[str, dict[str, Scalar]]]:
    text = csv_text(path, table)
    # rows end at line breaks only (\n, \r\n, \r), not at every character str.splitlines takes for one (U+0085,
    # U+2028, form feed...), which would cut a row in two
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    ended = 0  # the line the last row read ends on
    try:
        header = next(reader, None)
        if header is None or not any(cell.strip() for cell in header):
            raise InputError(table, phrase("is empty: the first row must name the columns"))
        header = [cell.strip() for cell in header]
        if len(header) > MAX_COLUMNS:
            raise InputError(table, phrase("the header row names {count} columns, more than the {most} a deck may "
                                           "have", count=phrase_number(len(header)), most=phrase_number(MAX_COLUMNS)),
                             1)
        if "" in header:
            raise InputError(table, phrase("column {number} of the header row has no name",
                                           number=str(header.index("") + 1)), 1)
        counts: dict[str, int] = {}
        for name in header:
            counts[name] = counts.get(name, 0) + 1
        repeated = sorted(h for h, n in counts.items() if n > 1)
        if repeated:
            raise InputError(table, phrase("the header row names {names} more than once",
                                           names=", ".join(map(quote, repeated))), 1)
        rows: list[tuple[str, dict[str, Scalar]]] = []
        # a row is named by the line it begins on, where a text editor shows it: a quoted value may hold line
        # breaks (Excel's Alt+Enter), and reader.line_num is the line a row ends on
        ended = reader.line_num
        for cells in reader:
            line, ended = ended + 1, reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) != len(header):
                hint = _delimiter_hint(header, delimiter)
                raise InputError(table, phrase("this row has {values} but the header names {columns}{hint}",
                                               values=phrase_n("{n} value", "{n} values", len(cells)),
                                               columns=phrase_n("{n} column", "{n} columns", len(header)),
                                               hint=hint), line)
            rows.append((f"{table}:{line}", dict(zip(header, cells))))
            if len(rows) > MAX_CARDS:
                raise InputError(table, phrase("holds more than {most} cards", most=phrase_number(MAX_CARDS)), line)
    except csv.Error as err:
        # named by the line the faulty row begins on: a quote never closed runs to the end of the file
        unclosed = "end of data" in str(err)  # (csv says no more than that)
        raise InputError(table, phrase("a quote opened in this row is never closed") if unclosed
                         else phrase("is not valid CSV: {reason}", reason=str(err)), ended + 1) from None
    if not rows:
        raise InputError(table, phrase("has a header row but no cards"))
    return rows


#: How deck.yaml sets each delimiter (a tab and `|` must be quoted in YAML).
_DELIMITER_KEY = {";": "delimiter: ;", "\t": 'delimiter: "\\t"', "|": 'delimiter: "|"', ",": 'delimiter: ","'}


def _delimiter_hint(header: list[str], delimiter: str) -> str:
    for other in (";", "\t", "|", ","):
        if other != delimiter and len(header) == 1 and other in header[0]:
            shown = phrase("a tab") if other == "\t" else quote(other)
            return phrase(" (the header looks split by {delimiter}: set `{key}` in deck.yaml)", delimiter=shown,
                          key=_DELIMITER_KEY[other])
    return ""


def csv_text(path: Path, table: str) -> str:
    """A CSV file's text. Excel's plain "CSV" is in the Windows code page, not UTF-8: say how to save it."""
    from generator.files import read_bytes
    from generator.yamlio import decode

    raw = read_bytes(path, table)
    if b"\x00" not in raw:  # a binary file: decode() says so
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            seen = raw[bad.start:bad.start + 1].decode("cp1252", errors="replace")
            raise InputError(table, f"is not UTF-8 text: byte 0x{raw[bad.start]:02x}"
                                    + (f" ({seen!r} in the Windows code page)" if seen != "\ufffd" else "")
                                    + " looks saved by Excel as plain CSV; save it as \"CSV UTF-8\" (Excel: File > "
                                    "Save As > CSV UTF-8 (Comma delimited)), or as UTF-8 from any other program",
                             raw.count(b"\n", 0, bad.start) + 1) from None
    return decode(raw, table)


def _yaml_rows(path: Path, table: str) -> list[tuple[str, dict[str, Scalar]]]:
    doc = load_file(path, display=table, as_written=True)  # `No`, `010` and `12:30` are what a card prints
    spec = ListOf(MapOf(key=Text(max_len=100), value=_CELL), min_items=1, max_items=MAX_CARDS)
    rows, problems = check_document(doc, spec)
    if isinstance(rows, Invalid):
        first = problems[0]
        raise InputError(table, f"{first.where}: {first.message}" if first.where else first.message, first.line)
    return [(f"{table}:{doc.line((i,)) or '?'}", dict(row)) for i, row in enumerate(rows)]


def _column(header: list[str], wanted: str) -> str | None:
    """The column named `wanted`, ignoring case and surrounding space."""
    key = wanted.strip().lower()
    return next((h for h in header if h.strip().lower() == key), None)


def _cards(rows: list[tuple[str, dict[str, Scalar]]], table: str, values: Mapping[str, Any],
           doc: Document) -> tuple[list[UserCard], list[Problem]]:
    problems: list[Problem] = []
    header = list(rows[0][1]) if rows else []
    if len(header) > MAX_COLUMNS:
        return [], [Problem(table, None, "", phrase("the rows have {count} columns, more than the {most} a deck may "
                                                    "have", count=phrase_number(len(header)),
                                                    most=phrase_number(MAX_COLUMNS)))]
    columns_set = set(header)
    hint = _delimiter_hint([str(h) for h in header], values["delimiter"])
    if hint:
        return [], [Problem(table, 1, "", phrase("the header row is a single column {header}{hint}",
                                                 header=quote(header[0]), hint=hint))]
    columns: dict[str, str | None] = {}
    for option in ("name_column", "id_column", "count_column", "layout_column"):
        wanted = values[option]
        if wanted is None:
            columns[option] = None
            continue
        found = _column(header, wanted)
        if found is None:
            problems.append(Problem(table, 1, option, phrase("the table has no column {column} (its columns: "
                                                           "{columns})", column=quote(wanted),
                                                           columns=", ".join(header))))
        columns[option] = found
    if problems:
        return [], problems
    cards: list[UserCard] = []
    seen: dict[str, str] = {}
    for index, (origin, row) in enumerate(rows):
        file, _, line_text = origin.rpartition(":")
        line = int(line_text) if line_text.isascii() and line_text.isdigit() else None
        missing = [h for h in header if h not in row]
        extra = [k for k in row if k not in columns_set]
        if missing or extra:
            problems.append(Problem(file, line, f"cards[{index}]", phrase(
                "every row must have the same columns as the first: {differences}", differences="; ".join(filter(None, [
                    phrase("missing {columns}", columns=", ".join(missing)) if missing else "",
                    phrase("extra {columns}", columns=", ".join(map(str, extra))) if extra else ""])))))
            continue
        bad = next(((column, found) for column, cell in row.items() if isinstance(cell, str)
                    for found in [control_character(cell)] if found), None)
        if bad is not None:
            problems.append(Problem(file, line, f"cards[{index}].{bad[0]}", phrase(
                "holds the character {character}, which no output can show; remove it", character=bad[1])))
            continue
        name = str(row[columns["name_column"]] or "").strip() if columns["name_column"] else ""
        if not name:
            said = phrase("the card has no name (column {column} is empty)", column=quote(columns["name_column"]))
            problems.append(Problem(file, line, f"cards[{index}]", said))
            continue
        copies = 1
        if columns["count_column"]:
            raw = row[columns["count_column"]]
            text = str(raw).strip() if raw is not None else ""
            text = text or "1"  # an empty cell, or a YAML row without the key: one copy
            if not re.fullmatch(r"[0-9]{1,5}", text) or not 0 <= int(text) <= 1000:  # ASCII digits: not '²' or '٣'
                problems.append(Problem(file, line, f"cards[{index}].{columns['count_column']}",
                                        phrase("expected a whole number of copies from 0 (leave the card out) to "
                                             "1000, got {value}", value=phrase_quoted(raw))))
                continue
            copies = int(text)
        layout, back = None, None
        if columns["layout_column"]:
            raw_kind = row[columns["layout_column"]]
            kind = str(raw_kind).strip() if raw_kind is not None else ""
            variants: Mapping[str, Any] = values["layouts"]
            if kind:
                chosen = variants.get(kind) or next((v for k, v in variants.items() if k.lower() == kind.lower()),
                                                    None)
                if chosen is None:
                    problems.append(Problem(file, line, f"cards[{index}].{columns['layout_column']}",
                                            _unknown_kind(kind, variants, doc)))
                    continue
                layout, back = chosen["layout"], chosen["back"]
            elif not values["layout"]:
                problems.append(Problem(file, line, f"cards[{index}].{columns['layout_column']}", phrase(
                    "is empty, and the deck has no `layout` for such cards (values: {values})",
                    values=", ".join(variants))))
                continue
        if columns["id_column"]:
            raw_id = str(row[columns["id_column"]] or "").strip()
            card_id = _slug(raw_id) if raw_id else ""
            if not card_id:
                problems.append(Problem(file, line, f"cards[{index}].{columns['id_column']}",
                                        phrase("the card has no id")))
                continue
        else:
            card_id = f"{index + 1:03d}-{_slug(name)}"
        if card_id in seen:
            problems.append(Problem(file, line, f"cards[{index}]", phrase("repeats the card id {id} (first at "
                                                                        "{first})", id=quote(card_id),
                                                                        first=seen[card_id])))
            continue
        seen[card_id] = origin
        if copies == 0:
            continue
        cards.append(UserCard(card_id, name, copies, dict(row), origin, layout, back, index))
    return cards, problems


def _unknown_kind(kind: str, variants: Mapping[str, Any], doc: Document) -> str:
    import difflib

    close = difflib.get_close_matches(kind, list(variants), n=1, cutoff=0.6)
    guess = f" (did you mean {close[0]!r}?)" if close else ""
    return (f"{kind!r}{guess} is not one of the card kinds `layouts` names in {doc.file} "
            f"({', '.join(variants)})")

