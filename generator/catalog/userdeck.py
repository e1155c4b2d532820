"""A user's own deck: a `deck.yaml` naming a CSV or YAML table of cards and a layout.

    my-deck/
      deck.yaml      id, name, card size, layout, back, where the rows are and which columns mean what
      cards.csv      one row per card (a header row first), or cards.yaml: a list of mappings
      layout.yaml    the card face (see templates/layouts/generic.yaml for a starting point)

Every column of a row is available to the layout's text fields by its header name.
"""

from __future__ import annotations

import csv
import io
import os
import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from generator.catalog.common import CARD_SIZE, CardSize, resolve_card_size
from generator.errors import InputError, Problem
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
from generator.wording import quoted
from generator.yamlio import Document, load_file, read_text

#: The most cards one deck may hold (the benchmark goes to 10,000).
MAX_CARDS = 100_000
#: The most columns a table may have: a layout reads a few dozen; a table of thousands is a mistake (or a
#: table turned on its side), and checking it would take long.
MAX_COLUMNS = 1000
Scalar = str | int | float | bool | None


class UserCard(NamedTuple):
    """One row of a user's table: its id, printed name, copies and every column by header."""

    id: str
    name: str
    copies: int
    fields: Mapping[str, Scalar]
    #: where the row is, for messages: `cards.csv:12`
    origin: str


class UserDeck(NamedTuple):
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


_CELL = AnyOf(options=(Text(min_len=0, max_len=4000), Int(), Number(), Bool(), Nullable(Text(min_len=0))),
              what="text or a number")

DECK_SPEC: Record[dict[str, Any]] = Record(
    name="deck file",
    doc="A user's own deck: its cards come from a CSV or YAML table and are drawn with a layout.",
    fields={
        "id": Field(Slug(), doc="the deck's id: output files are named after it"),
        "name": Field(Text(max_len=120), doc="the deck's name as printed on sheets"),
        "card_size": Field(CARD_SIZE, required=False, default="poker"),
        "layout": Field(Text(max_len=200), doc="a layout file in this folder (layout.yaml) or a shipped layout id"),
        "back": Field(Text(max_len=200), required=False,
                      doc="a layout for the backs (file or shipped id); default: a plain back with the deck's name"),
        "cards": Field(AnyOf(options=(Text(max_len=200), ListOf(MapOf(key=Text(max_len=100), value=_CELL),
                                                                  min_items=1, max_items=MAX_CARDS)),
                             what="a CSV or YAML file name, or a list of rows"),
                       doc="the table of cards: a .csv file, a .yaml file holding a list of rows, or the rows here"),
        "id_column": Field(Text(max_len=100), required=False,
                           doc="the column holding each card's id (default: numbered from the name)"),
        "name_column": Field(Text(max_len=100), required=False, default="name",
                             doc="the column holding each card's name (matched ignoring case)"),
        "count_column": Field(Text(max_len=100), required=False,
                              doc="the column holding how many copies of each card to print (default 1)"),
        "delimiter": Field(Text(max_len=1, pattern=r"[,;\t|]", hint="one of , ; | or a tab"), required=False,
                           default=",", doc="the CSV delimiter"),
    },
)


def _slug(text: str) -> str:
    """An id from a name or an id column: lower-case ASCII words joined by `-`. Accents are dropped (`Épée` is
    `epee`); text in another script is spelled in punycode, IDNA's ASCII form of Unicode (`Дракон` is
    `80ahtmej`), so that ids in any script stay apart instead of all becoming `card`."""
    lowered = text.lower().strip()

    def ascii_of(part: str) -> str:
        return unicodedata.normalize("NFKD", part).encode("ascii", "ignore").decode("ascii")

    if any(c.isalnum() and not ascii_of(c) for c in lowered):  # a letter or digit with no ASCII form
        lowered = lowered.encode("punycode").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_of(lowered)).strip("-")
    return slug[:80].strip("-") or "card"


def load_deck(folder: Path, display: str) -> tuple[UserDeck | None, list[Problem]]:
    """Load a user deck folder; all problems found, and the deck when there are none."""
    name = f"{display}/deck.yaml"
    try:
        doc = load_file(folder / "deck.yaml", display=name)
    except InputError as err:
        return None, [err.problem]
    values, problems = check_document(doc, DECK_SPEC)
    if isinstance(values, Invalid):
        return None, problems
    try:
        rows, table = _rows(folder, display, values, doc)
    except InputError as err:
        return None, [err.problem]
    cards, problems = _cards(rows, table, values)
    if problems:
        return None, problems
    return UserDeck(folder, values["id"], values["name"], resolve_card_size(values["card_size"]), values["layout"],
                    values["back"], tuple(cards), name), []


def _rows(folder: Path, display: str, values: Mapping[str, Any],
          doc: Document) -> tuple[list[tuple[str, dict[str, Scalar]]], str]:
    """The deck's rows as (origin, columns); the second value names the table for messages."""
    source = values["cards"]
    if not isinstance(source, str):
        return [(f"{doc.file}:{doc.line(('cards', i)) or '?'}", dict(row)) for i, row in enumerate(source)], doc.file
    # the name must stay in the folder; a symbolic link there may lead anywhere (the user's own choice)
    path = Path(os.path.normpath(folder.resolve() / source))
    table = f"{display}/{source}"
    if os.path.isabs(source) or folder.resolve() not in path.parents:
        raise InputError(doc.file, f"cards: {source!r} is outside the deck's folder", doc.line(("cards",)))
    if path.suffix.lower() == ".csv":
        return _csv_rows(path, table, values["delimiter"]), table
    if path.suffix.lower() in (".yaml", ".yml", ".json"):
        return _yaml_rows(path, table), table
    raise InputError(doc.file, f"cards: {source!r} is neither a .csv nor a .yaml file", doc.line(("cards",)))


def _csv_rows(path: Path, table: str, delimiter: str) -> list[tuple[str, dict[str, Scalar]]]:
    text = read_text(path, display=table)
    # rows end at line breaks only (\n, \r\n, \r), not at every character str.splitlines takes for one (U+0085,
    # U+2028, form feed...), which would cut a row in two
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
        if header is None or not any(cell.strip() for cell in header):
            raise InputError(table, "is empty: the first row must name the columns")
        header = [cell.strip() for cell in header]
        if len(header) > MAX_COLUMNS:
            raise InputError(table, f"the header row names {len(header):,} columns, more than the {MAX_COLUMNS:,} "
                                    "a deck may have", 1)
        if "" in header:
            raise InputError(table, f"column {header.index('') + 1} of the header row has no name", 1)
        counts: dict[str, int] = {}
        for name in header:
            counts[name] = counts.get(name, 0) + 1
        repeated = sorted(h for h, n in counts.items() if n > 1)
        if repeated:
            raise InputError(table, f"the header row names {', '.join(map(repr, repeated))} more than once", 1)
        rows: list[tuple[str, dict[str, Scalar]]] = []
        for cells in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) != len(header):
                hint = _delimiter_hint(header, delimiter)
                raise InputError(table, f"this row has {len(cells)} values but the header names {len(header)} "
                                        f"columns{hint}", line)
            rows.append((f"{table}:{line}", dict(zip(header, cells))))
            if len(rows) > MAX_CARDS:
                raise InputError(table, f"holds more than {MAX_CARDS:,} cards", line)
    except csv.Error as err:
        raise InputError(table, f"is not valid CSV: {err}", reader.line_num) from None
    if not rows:
        raise InputError(table, "has a header row but no cards")
    return rows


def _delimiter_hint(header: list[str], delimiter: str) -> str:
    for other in (";", "\t", "|", ","):
        if other != delimiter and len(header) == 1 and other in header[0]:
            shown = "a tab" if other == "\t" else repr(other)
            return f" (the header looks split by {shown}: set `delimiter` in deck.yaml)"
    return ""


def _yaml_rows(path: Path, table: str) -> list[tuple[str, dict[str, Scalar]]]:
    doc = load_file(path, display=table)
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


def _cards(rows: list[tuple[str, dict[str, Scalar]]], table: str,
           values: Mapping[str, Any]) -> tuple[list[UserCard], list[Problem]]:
    problems: list[Problem] = []
    header = list(rows[0][1]) if rows else []
    if len(header) > MAX_COLUMNS:
        return [], [Problem(table, None, "", f"the rows have {len(header):,} columns, more than the {MAX_COLUMNS:,} "
                                             "a deck may have")]
    columns_set = set(header)
    hint = _delimiter_hint([str(h) for h in header], values["delimiter"])
    if hint:
        return [], [Problem(table, 1, "", f"the header row is a single column {header[0]!r}{hint}")]
    columns: dict[str, str | None] = {}
    for option in ("name_column", "id_column", "count_column"):
        wanted = values[option]
        if wanted is None:
            columns[option] = None
            continue
        found = _column(header, wanted)
        if found is None:
            problems.append(Problem(table, 1, option, f"the table has no column {wanted!r} "
                                                      f"(its columns: {', '.join(header)})"))
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
            problems.append(Problem(file, line, f"cards[{index}]", "every row must have the same columns as the "
                                    "first: " + "; ".join(filter(None, [
                                        f"missing {', '.join(missing)}" if missing else "",
                                        f"extra {', '.join(map(str, extra))}" if extra else ""]))))
            continue
        bad = next(((column, found) for column, cell in row.items() if isinstance(cell, str)
                    for found in [control_character(cell)] if found), None)
        if bad is not None:
            problems.append(Problem(file, line, f"cards[{index}].{bad[0]}", f"holds the character {bad[1]}, which "
                                                                            "no output can show; remove it"))
            continue
        name = str(row[columns["name_column"]] or "").strip() if columns["name_column"] else ""
        if not name:
            problems.append(Problem(file, line, f"cards[{index}]", f"the card has no name (column "
                                                                   f"{columns['name_column']!r} is empty)"))
            continue
        copies = 1
        if columns["count_column"]:
            raw = row[columns["count_column"]]
            text = str(raw).strip() if raw is not None else ""
            if not re.fullmatch(r"[0-9]{1,5}", text) or not 0 < int(text) <= 1000:  # ASCII digits: not '²' or '٣'
                problems.append(Problem(file, line, f"cards[{index}].{columns['count_column']}",
                                        f"expected a whole number of copies from 1 to 1000, got {quoted(raw)}"))
                continue
            copies = int(text)
        if columns["id_column"]:
            raw_id = str(row[columns["id_column"]] or "").strip()
            card_id = _slug(raw_id) if raw_id else ""
            if not card_id:
                problems.append(Problem(file, line, f"cards[{index}].{columns['id_column']}", "the card has no id"))
                continue
        else:
            card_id = f"{index + 1:03d}-{_slug(name)}"
        if card_id in seen:
            problems.append(Problem(file, line, f"cards[{index}]", f"repeats the card id {card_id!r} "
                                                                   f"(first at {seen[card_id]})"))
            continue
        seen[card_id] = origin
        cards.append(UserCard(card_id, name, copies, dict(row), origin))
    return cards, problems

