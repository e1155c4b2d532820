"""The translator's spreadsheet of a content folder's decks: every translatable text with its translation.

`donjon content translations export` writes one row per card, column and language: the deck, the card's id, the
column, the language, the source text (the deck's own language), the translation and its status (`translated`,
or `missing`: the build then prints the source text). A translator fills the translation column in any
spreadsheet program and `donjon content translations import` writes each translation back into the deck's
table: into the column `Name@fr` (made when the table has none) or the one `languages:` names for it. The file
is a CSV, an XLSX spreadsheet or a gettext `.po` catalog (one language: the translator's other usual tool), by
its suffix.

The round trip is exact: exporting, translating, importing and exporting again gives the translator's file
back (the status is donjon's: it says whether a translation is there). Import refuses what it cannot place (an
unknown deck, card, column or language) with the file's row, and a table it cannot rewrite without losing
something: a spreadsheet holding formulas (writing it would drop their saved values), a YAML table with
comments, rows written in deck.yaml. A table is replaced in one step, after every row was read.
"""

from __future__ import annotations

import csv
import io
import os
import re
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from generator.catalog.userdeck import UserDeck, csv_text
from generator.errors import InputError, OutputError, Problem, ProblemsError, UsageError

#: The columns of the spreadsheet, in order.
COLUMNS = ("deck", "card", "column", "language", "source", "translation", "status")
SUFFIXES = (".csv", ".xlsx", ".po")


class TranslationRow(NamedTuple):
    deck: str
    card: str
    column: str
    language: str
    source: str
    translation: str

    @property
    def status(self) -> str:
        return "translated" if self.translation.strip() else "missing"


def _text(value: object) -> str:
    return "" if value is None else str(value)


def entries(decks: Iterable[UserDeck], languages: Sequence[str] = ()) -> list[TranslationRow]:
    """Every translatable text of `decks` in `languages` (default: each deck's translated languages)."""
    out: list[TranslationRow] = []
    for deck in decks:
        wanted = [code for code in (languages or deck.languages[1:]) if code != deck.lang]
        for code in wanted:
            columns = deck.translations.get(code, {})
            for card in deck.cards:
                for column in deck.translate:
                    source = _text(card.fields.get(column)).strip()
                    if not source:
                        continue
                    other = columns.get(column)
                    translation = _text(card.fields.get(other)) if other else ""
                    out.append(TranslationRow(deck.id, card.id, column, code, source, translation))
    return out


# --- writing the spreadsheet --------------------------------------------------------------------------------------

def render(rows: Sequence[TranslationRow], suffix: str, lang: str | None = None) -> bytes:
    """The file's bytes: the same rows always give the same bytes."""
    if suffix == ".csv":
        buffer = io.StringIO(newline="")
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS)
        for row in rows:
            writer.writerow((*row, row.status))
        return buffer.getvalue().encode("utf-8")
    if suffix == ".xlsx":
        return _xlsx(rows)
    return _po(rows, lang or (rows[0].language if rows else "fr"))


def _xlsx(rows: Sequence[TranslationRow]) -> bytes:
    import datetime
    import zipfile

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.worksheets[0]
    sheet.title = "translations"
    sheet.append(list(COLUMNS))
    for row in rows:
        sheet.append([*row, row.status])
    fixed = datetime.datetime(2000, 1, 1)
    book.properties.created = book.properties.modified = fixed
    raw = io.BytesIO()
    book.save(raw)
    # openpyxl stamps the parts and the document's properties with the time of writing: give them one date, so
    # that the same rows give the same file
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(raw.getvalue())) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dest:
        for item in source.infolist():
            info = zipfile.ZipInfo(item.filename, date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            part = source.read(item.filename)
            if item.filename == "docProps/core.xml":
                part = re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*", rb"\g<1>2000-01-01T00:00:00Z", part)
            dest.writestr(info, part)
    return out.getvalue()


def _po(rows: Sequence[TranslationRow], lang: str) -> bytes:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(locale=lang.replace("-", "_"), project="donjon decks", charset="utf-8", fuzzy=False)
    for row in rows:
        catalog.add(row.source, row.translation, context=f"{row.deck}/{row.card}/{row.column}")
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, omit_header=False, sort_output=False)
    from generator.i18n.catalogs import undated

    return undated(buffer.getvalue().decode("utf-8")).encode("utf-8")


# --- reading it back ----------------------------------------------------------------------------------------------

def read(path: Path, display: str) -> list[tuple[int, TranslationRow]]:
    """The rows of a translations file, each with its line (or spreadsheet row)."""
    from generator.files import read_bytes

    suffix = path.suffix.lower()
    if suffix == ".csv":
        # read as a deck's table is: a file Excel saved in the Windows code page is refused with how to save it
        text = csv_text(path, display)
        try:
            lines = list(csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text)))
        except csv.Error as err:
            raise InputError(display, f"is not valid CSV ({err})") from None
        return _rows(display, [(i + 1, r) for i, r in enumerate(lines)])
    data = read_bytes(path, display)
    if suffix == ".xlsx":
        from openpyxl import load_workbook

        try:
            book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
            sheet = book.worksheets[0]
            found = [(i + 1, [_text(v) for v in r]) for i, r in enumerate(sheet.iter_rows(values_only=True))]
            book.close()
        except Exception as err:  # noqa: BLE001 - openpyxl raises many kinds for a damaged file
            raise InputError(display, f"cannot be read as a spreadsheet ({type(err).__name__}: {err})") from None
        return _rows(display, found)
    if suffix == ".po":
        from babel.messages.pofile import PoFileError, read_po

        try:
            catalog = read_po(io.BytesIO(data), abort_invalid=True)
        except (PoFileError, ValueError, UnicodeDecodeError) as err:
            raise InputError(display, f"is not a gettext catalog ({err})") from None
        lang = str(catalog.locale).replace("_", "-") if catalog.locale else ""
        if not lang:
            raise InputError(display, "says no language (its header has no Language:)")
        out = []
        for message in catalog:
            if not message.id:
                continue
            context = (message.context or "").split("/")
            line = message.lineno or 0
            if len(context) != 3:
                raise InputError(display, f"the message {message.id!r} has no context deck/card/column", line)
            out.append((line, TranslationRow(context[0], context[1], context[2], lang, str(message.id),
                                    _text(message.string))))
        return out
    raise UsageError("FILE", f"{display!r}: a translations file is .csv, .xlsx or .po")


def _delimiter(text: str) -> str:
    """What separates the values of a translations CSV: `,` as donjon writes it, or the `;` or tab a spreadsheet
    program saves it with where the decimal comma is the custom (Excel in French or German saves "CSV UTF-8" with
    `;`), told by the header row, whose columns are known."""
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    for delimiter in (",", ";", "\t"):
        cells = {cell.strip().lower() for cell in next(csv.reader([first], delimiter=delimiter), [])}
        if cells.issuperset(COLUMNS[:6]):
            return delimiter
    return ","


def _rows(display: str, found: list[tuple[int, list[str]]]) -> list[tuple[int, TranslationRow]]:
    rows = [(n, r) for n, r in found if any(c.strip() for c in r)]
    if not rows:
        raise InputError(display, "is empty: its first row must name the columns " + ", ".join(COLUMNS))
    header = [c.strip().lower() for c in rows[0][1]]
    missing = [c for c in COLUMNS[:6] if c not in header]
    if missing:
        raise InputError(display, f"its header row lacks the column {', '.join(missing)} (it needs "
                                  f"{', '.join(COLUMNS[:6])})", rows[0][0])
    where = {c: header.index(c) for c in COLUMNS[:6]}
    out = []
    for line, cells in rows[1:]:
        cells = cells + [""] * (len(header) - len(cells))
        out.append((line, TranslationRow(*(cells[where[c]] for c in COLUMNS[:6]))))
    return out


# --- writing translations into the decks' tables ------------------------------------------------------------------

def apply(decks: Mapping[str, UserDeck], rows: Sequence[tuple[int, TranslationRow]], display: str) -> dict[str, int]:
    """Write every row's translation into its deck's table; how many cells each deck got. Every row is checked
    before any table is written: one that names no deck, card, column or language is refused with its line."""
    from generator.i18n import normalise_code

    problems: list[Problem] = []
    wanted: dict[str, dict[tuple[int, str], str]] = {}
    for line, row in rows:
        deck = decks.get(row.deck)
        code = normalise_code(row.language)
        if deck is None:
            problems.append(Problem(display, line, "deck", f"{row.deck!r} is no deck of this content folder "
                                                         f"({', '.join(decks) or 'none'})"))
            continue
        if code is None or code == deck.lang:
            problems.append(Problem(display, line, "language", f"{row.language!r} is not a language this deck "
                                                             f"translates into (its own is {deck.lang})"))
            continue
        card = next((c for c in deck.cards if c.id == row.card), None)
        if card is None:
            problems.append(Problem(display, line, "card", f"{row.card!r} is no card of the deck {deck.id!r}"))
            continue
        if row.column not in deck.translate:
            problems.append(Problem(display, line, "column", f"{row.column!r} is not a column the deck {deck.id!r} "
                                                           f"translates ({', '.join(deck.translate)})"))
            continue
        column = deck.translations.get(code, {}).get(row.column) or f"{row.column}@{code}"
        wanted.setdefault(deck.id, {})[(card.row, column)] = row.translation
    if problems:
        raise ProblemsError(problems)
    done = {}
    for deck_id, cells in wanted.items():
        deck = decks[deck_id]
        changed = _write_table(deck, cells)
        done[deck_id] = changed
    return done


def _write_table(deck: UserDeck, cells: Mapping[tuple[int, str], str]) -> int:
    table = deck.table
    if table is None:
        raise InputError(deck.origin, "its cards are written in deck.yaml: move them to a table file (cards.csv) "
                                      "to import translations into them")
    suffix = table.suffix.lower()
    if suffix == ".csv":
        data, changed = _csv_with(table, deck.delimiter, cells)
    elif suffix == ".xlsx":
        data, changed = _xlsx_with(table, deck.sheet, cells)
    else:
        data, changed = _yaml_with(table, cells)
    if changed:
        _replace(table, data)
    return changed


def _csv_with(table: Path, delimiter: str, cells: Mapping[tuple[int, str], str]) -> tuple[bytes, int]:
    text = table.read_bytes().decode("utf-8")  # as it is: read_text would turn CRLF into LF before it is seen
    ending = _ending(text)
    found = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    header = found[0]
    rows = [i for i, r in enumerate(found) if i > 0 and any(c.strip() for c in r)]
    changed = 0
    for (index, column), value in cells.items():
        if column not in header:
            header.append(column)
            for r in found[1:]:
                r.append("")
        at = header.index(column)
        row = found[rows[index]]
        row += [""] * (len(header) - len(row))
        if row[at] != value:
            row[at], changed = value, changed + 1
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter=delimiter, lineterminator=ending).writerows(found)
    return buffer.getvalue().encode("utf-8"), changed


def _xlsx_with(table: Path, sheet_name: str | None, cells: Mapping[tuple[int, str], str]) -> tuple[bytes, int]:
    from openpyxl import load_workbook

    book = load_workbook(table)
    sheet = book[sheet_name] if sheet_name else book.worksheets[0]
    for row in sheet.iter_rows():
        for cell in row:
            if isinstance(cell.value, str) and cell.value.startswith("="):
                raise InputError(str(table), f"cell {cell.coordinate} holds a formula: writing the spreadsheet would "
                                             "drop the values saved with its formulas; copy the translation columns "
                                             "into it in your spreadsheet program instead")
    lines = [int(r[0].row or 0) for r in sheet.iter_rows() if any(c.value not in (None, "") for c in r)]
    head = lines[0]
    header = [_text(c.value).strip() for c in sheet[head]]
    while header and not header[-1]:
        header.pop()
    changed = 0
    for (index, column), value in cells.items():
        if column not in header:
            header.append(column)
            sheet.cell(head, len(header), column)
        at = header.index(column) + 1
        cell = sheet.cell(lines[index + 1], at)
        if _text(cell.value) != value:
            cell.value = value or None
            changed += 1
    out = io.BytesIO()
    book.save(out)
    return out.getvalue(), changed


def _yaml_with(table: Path, cells: Mapping[tuple[int, str], str]) -> tuple[bytes, int]:
    import yaml

    text = table.read_bytes().decode("utf-8")
    if any(line.lstrip().startswith("#") for line in text.splitlines()):
        raise InputError(str(table), "has comments, which writing its rows again would lose; add the translation "
                                     "columns by hand, or keep the cards in a CSV or XLSX table")
    rows = yaml.safe_load(text)
    changed = 0
    for (index, column), value in cells.items():
        if _text(rows[index].get(column)) != value:
            rows[index][column] = value
            changed += 1
    written = yaml.safe_dump(rows, allow_unicode=True, sort_keys=False, width=1000)
    return written.replace("\n", _ending(text)).encode("utf-8"), changed


def _ending(text: str) -> str:
    """The line ending a file is written with (CRLF from a Windows editor, else LF), for writing it back so."""
    return "\r\n" if "\r\n" in text else "\n"


def _replace(path: Path, data: bytes) -> None:
    """Write `path` in one step: a temporary file beside it, renamed over it once complete."""
    try:
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as err:
        raise OutputError(path, err.strerror or str(err)) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(name, path)
    except OSError as err:
        Path(name).unlink(missing_ok=True)
        raise OutputError(path, err.strerror or str(err)) from None
