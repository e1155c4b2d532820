"""A card reference as data: the same tables as its PDF, as CSV and JSON, for a spreadsheet or a program.

A game's reference: every value of every table of its body (the cards, their counts and effects, the box's values),
one per CSV row (the section and table it is in, its row's record and its column), each with where it comes from:
the rulebook section stating it, or, for a value no rulebook states, the note on it (its number, confidence and
the catalog's account of its source). The JSON holds the same tables row by row, the notes and the rulebooks once.
Text is plain: the PDF's bold and italics are left out, an `{icon}` is written as its token, as the catalogs write
it; the marks are flags (`inferred`, `translated`), not characters in the value.

A deck of one's own: one row per card it prints, its id, name, copies and each column of its table as written
(but the columns translating another, whose values are the card's own in a reference in their language; its
name in the deck's own language then beside it, `own_name`).
In the CSV, a text a spreadsheet would run as a formula (`=...`, `+1 gold`, `@...`) starts with `'`, as
`donjon history export` writes them (generator.wording.spreadsheet_cell); the JSON holds every text as it is.
Both are byte-identical from run to run: rows in the PDF's order, keys in a fixed order, `\n` line ends.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import TYPE_CHECKING, Any

from generator.catalog.common import CONFIDENCE_WORDS, HOUSE_MARK
from generator.i18n import N_
from generator.reference.document import AS_WRITTEN, Cell, Heading, ReferenceDocument, RowSource, Table
from generator.reference.sources import MARK
from generator.wording import spreadsheet_cell

if TYPE_CHECKING:
    from generator.catalog.userdeck import UserCard, UserDeck

#: The data formats `donjon reference --format` writes beside the PDF.
FORMATS = ("pdf", "csv", "json")
#: The columns of a game reference's CSV.
CSV_COLUMNS = ("section", "table", "row", "record", "column", "value", "inferred", "translated", "rulebook",
               "notes", "confidence", "source")
#: Bumped when the files' layout changes, for programs reading them.
DATA_VERSION = 1

_MARKUP = re.compile(r"\\(.)|\*\*|\*|\[/?(?:colou?r|size)(?:=[^\]\n]{1,40})?\]")


def plain(markup: str) -> str:
    """The text a cell's markup prints, without its bold, italics, colours and sizes, its escapes undone."""
    for bracket in AS_WRITTEN:
        markup = markup.replace(bracket, "")
    return _MARKUP.sub(lambda m: m.group(1) or "", markup).strip()


def _value(cell: Cell) -> tuple[str, bool, bool]:
    """A cell's plain text, whether it carries the mark of a value no rulebook states, and whether it carries the
    mark of donjon's own translation."""
    texts = [p.text for p in cell.paras]
    joined = "\n".join(texts)
    inferred = MARK in joined
    translated = HOUSE_MARK in joined
    lines = [plain(t.replace(f" {MARK}", "").replace(MARK, "").replace(HOUSE_MARK, "")) for t in texts]
    return "\n".join(line for line in lines if line), inferred, translated


def _labelled(table: Table) -> bool:
    """Whether a table is one of labels and values (the box: no column has a title, each row's first cell names
    the values beside it)."""
    shown = table.columns[:-1] if table.source_column else table.columns
    return not any(plain(c.title) for c in shown)


def _columns(table: Table) -> list[str]:
    shown = table.columns[:-1] if table.source_column else table.columns
    titles = [plain(c.title) for c in shown]
    if _labelled(table):  # a table of labels and values (the box): named for a program
        return ["name", "value", *(f"column {i + 1}" for i in range(2, len(titles)))]
    return [t or f"column {i + 1}" for i, t in enumerate(titles)]


def game_tables(doc: ReferenceDocument) -> list[dict[str, Any]]:
    """The tables of a game reference's body, each under its section's headings, row by row."""
    tables: list[dict[str, Any]] = []
    headings: dict[int, str] = {}
    for block in doc.body:
        if isinstance(block, Heading):
            headings = {level: title for level, title in headings.items() if level < block.level}
            headings[block.level] = block.text
            continue
        if not isinstance(block, Table):
            continue
        columns = _columns(block)
        rows: list[dict[str, Any]] = []
        above: RowSource | None = None
        for index, row in enumerate(block.rows):
            cells = row[:len(columns)]
            source = block.sources[index] if index < len(block.sources) else None
            grouped = bool(block.groups) and index > 0 and block.groups[index] == block.groups[index - 1]
            if source is not None and not source.cites and grouped and above is not None:
                # a profession's second level: the source its first row cites is the whole record's
                source = above._replace(record=source.record)
            above = source
            values: dict[str, str] = {}
            inferred: list[str] = []
            translated: list[str] = []
            for name, cell in zip(columns, cells):
                text, marked, ours = _value(cell)
                values[name] = text
                if marked:
                    inferred.append(name)
                if ours:
                    translated.append(name)
            rows.append({
                "record": plain(source.record) if source else None,
                # False: the row cites no source of its own (a total, a table computed from the one above it)
                "cites": bool(source and source.cites),
                "values": values,
                "inferred": inferred,
                "translated": translated,
                "rulebook": source.rulebook if source else None,
                "notes": list(source.notes) if source else [],
                "translation_sources": [{"field": f, "from": kind, "where": where}
                                        for f, kind, where in (source.translation if source else ())],
            })
        tables.append({"section": [headings[level] for level in sorted(headings)], "number": len(tables) + 1,
                       "columns": columns, "rows": rows})
    return tables


def game_json(doc: ReferenceDocument, game_id: str) -> str:
    """A game reference as JSON: its tables, notes and rulebooks."""
    lang = doc.lang
    data = {
        "format": "donjon card reference",
        "version": DATA_VERSION,
        "game": game_id,
        "title": plain(doc.title),
        "language": lang.code,
        "rulebooks": [{"id": rid, "title": title} for rid, title in doc.rulebooks],
        "notes": [{"number": n.number, "confidence": n.confidence,
                   "confidence_words": lang._(CONFIDENCE_WORDS[n.confidence]) if n.confidence in CONFIDENCE_WORDS
                   else n.confidence,
                   "covers": [{"record": plain(r), "field": f} for r, f in n.covers], "source": n.source}
                  for n in doc.notes],
        "tables": game_tables(doc),
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def game_csv(doc: ReferenceDocument) -> str:
    """A game reference as CSV: one line per value, with its provenance. In a table of labels and values (the
    box), a row's label is the `column` of the values beside it, not a value of its own: a spreadsheet filtered on
    `value` sees values only."""
    notes = {n.number: n for n in doc.notes}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    labelled = [_labelled(block) for block in doc.body if isinstance(block, Table)]
    for table, labels in zip(game_tables(doc), labelled):
        for number, row in enumerate(table["rows"], start=1):
            cited = [notes[n] for n in row["notes"] if n in notes]
            values: dict[str, str] = row["values"]
            label = values.get("name", "") if labels else ""
            for column, value in values.items():
                if not value or labels and column == "name":  # an empty cell; a label, said as the column
                    continue
                heading = column if not labels else label if column == "value" and label else \
                    f"{label} ({column})" if label else column
                # a stated value's source is the row's rulebook section; a marked one's, the notes on the row's
                # marked values (a row's notes are not told apart by column: a row with two marked values of two
                # sources lists both on each)
                marked = column in row["inferred"]
                notes_of = cited if marked else []
                rulebook = "" if marked else row["rulebook"] or ""
                source = " | ".join(f"{n.number}: {n.source}" for n in notes_of)
                if not rulebook and not notes_of:  # no section, no note: said why, never a blank origin
                    source = _no_source(doc, row, cited)
                writer.writerow([
                    spreadsheet_cell(" > ".join(table["section"])), table["number"], number,
                    spreadsheet_cell(row["record"] or ""), spreadsheet_cell(heading), spreadsheet_cell(value),
                    "yes" if marked else "", "yes" if column in row["translated"] else "", rulebook,
                    "; ".join(str(n.number) for n in notes_of),
                    "; ".join(f"{n.number}: {n.confidence}" for n in notes_of),
                    spreadsheet_cell(source),
                ])
    return out.getvalue()


#: The `source` of a value with neither a rulebook section nor a note, by why it has none: a row computed by donjon
#: (a total, a table summing the one above), a value of a row whose marked values carry its notes, or a row whose
#: catalog entry cites nothing (the player count).
COMPUTED = N_("computed by donjon from the values above it in the reference; a marked one rests on a marked value "
              "among them")
BESIDE_NOTES = N_("no rulebook section is given for this row: its marked values' notes ({notes}) say where it comes "
                  "from")
UNCITED = N_("the catalog gives no source for it")


def _no_source(doc: ReferenceDocument, row: dict[str, Any], notes: list[Any]) -> str:
    """Why a value has neither a rulebook section nor a note, in the reference's language."""
    _ = doc.lang._
    if not row["cites"]:
        return _(COMPUTED)
    if notes:
        return _(BESIDE_NOTES).format(notes=", ".join(str(n.number) for n in notes))
    return _(UNCITED)


def _cell_text(value: object) -> str:
    return "" if value is None else str(value)


def deck_columns(deck: UserDeck) -> list[str]:
    """The columns of a deck's table but its name, its copies and the columns translating another (`Name@fr`, or
    named by `languages:`), in the table's order: a reference in French shows each value once, in French, where
    the table translates it, and one in the deck's own language does not list the translations beside it."""
    translating = {other for columns in deck.translations.values() for other in columns.values()}
    seen: list[str] = []
    for card in deck.cards:
        for column in card.fields:
            if column not in (deck.name_column, deck.count_column) and column not in translating \
                    and column not in seen:
                seen.append(column)
    return seen


def in_another_language(deck: UserDeck, lang: str | None) -> bool:
    """Whether a reference in `lang` is in another language than the deck's own, one its table translates."""
    return bool(lang) and lang != deck.lang and lang is not None and bool(
        deck.translations.get(lang) or deck.translations.get(lang.split("-")[0]))


def deck_cards(deck: UserDeck, lang: str | None) -> tuple[tuple[UserCard, str | None], ...]:
    """Each card of the reference in `lang` (its own where the table does not translate a cell), with its name in
    the deck's own language when the reference is in another and the two differ: what a player holding the other
    edition, or the designer, finds the card by. None otherwise."""
    if not in_another_language(deck, lang):
        return tuple((card, None) for card in deck.cards)
    assert lang is not None
    return tuple((card, own.name if own.name != card.name else None)
                 for card, own in zip(deck.in_language(lang), deck.cards))


def deck_rows(deck: UserDeck, lang: str | None) -> tuple[list[str], list[dict[str, Any]]]:
    """The reference's columns and its cards as rows; a card's name in the deck's own language (`own_name`, empty
    when the same) is there when the reference is in another language its table holds."""
    cards = deck_cards(deck, lang)
    columns = deck_columns(deck)
    translated = in_another_language(deck, lang)
    rows = []
    for card, own in cards:
        row: dict[str, Any] = {"id": card.id, "name": card.name}
        if translated:
            row["own_name"] = own or ""
        row["copies"] = card.copies
        row["values"] = {c: _cell_text(card.fields.get(c)) for c in columns}
        rows.append(row)
    return columns, rows


def deck_json(deck: UserDeck, lang: str | None) -> str:
    columns, rows = deck_rows(deck, lang)
    data = {"format": "donjon card reference", "version": DATA_VERSION, "deck": deck.id, "name": deck.name,
            "language": lang or deck.lang, "own_language": deck.lang, "columns": columns, "cards": rows}
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def deck_csv(deck: UserDeck, lang: str | None) -> str:
    columns, rows = deck_rows(deck, lang)
    names = ["id", "name", *(["own_name"] if rows and "own_name" in rows[0] else []), "copies"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([spreadsheet_cell(c) for c in (*names, *columns)])
    for row in rows:
        writer.writerow([*(row[n] if n == "copies" else spreadsheet_cell(row[n]) for n in names),
                         *(spreadsheet_cell(row["values"][c]) for c in columns)])
    return out.getvalue()


def parse_formats(text: str) -> tuple[str, ...]:
    """`--format`'s comma-separated list, in FORMATS' order; raises ValueError naming what is not one."""
    wanted = [part.strip().lower() for part in text.split(",") if part.strip()]
    unknown = [w for w in wanted if w not in FORMATS]
    if unknown or not wanted:
        raise ValueError(f"{', '.join(map(repr, unknown)) or 'nothing'} is not one of {', '.join(FORMATS)}")
    return tuple(f for f in FORMATS if f in wanted)
