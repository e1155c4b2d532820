"""Reading a sheet of an .xlsx workbook as a table of cards, whatever the file holds.

A workbook is a zip of XML parts. Before openpyxl sees one, donjon checks the package itself: its size packed
and unpacked, every XML part well-formed and free of any DTD (no spreadsheet program writes one; an entity is
how a part would expand without end or reach for a file), and the sheet to read a part inside the package (not a
URL, not a path leading out of it, not a chart). openpyxl then reads the values, lazily: a cell whose value
does not match its type only fails while the rows are read, so the whole read is guarded, and such a failure
is traced to its cell by a second look at the sheet's XML. openpyxl's own warnings concern formatting donjon does
not read (styles, extensions, drawings) and are not shown.

Every problem names the file, the sheet and, where there is one, the cell.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal, NamedTuple
from xml.etree import ElementTree
from xml.parsers import expat

from generator.catalog.userdeck import MAX_CARDS, MAX_COLUMNS, Scalar
from generator.errors import DonjonError, InputError
from generator.files import read_bytes
from generator.i18n import N_, messages_language, phrase
from generator.sayings import phrase_quoted, quote
from generator.wording import quoted as cut

Rows = list[tuple[str, dict[str, Scalar]]]
#: Finds what openpyxl failed on: (the line, what is wrong in donjon's words), or None when nothing is found.
Locate = Callable[[], tuple[int | None, str] | None]
#: A spreadsheet file's largest size, and the most its parts may unpack to (a zip bomb is refused before it is
#: opened): a sheet of 100,000 rows of text is some 20 MB unpacked.
MAX_XLSX_BYTES = 32 * 1024 * 1024
MAX_XLSX_UNPACKED = 256 * 1024 * 1024
#: The most parts a workbook may hold: Excel writes a dozen, a hundred sheets make a few hundred.
MAX_PARTS = 10_000
#: What every message about a damaged file ends with: the way out.
def _count(value: int) -> str:
    """A count in a message: `2,002` in English, as the language of the messages writes it otherwise."""
    lang = messages_language()
    return f"{value:,}" if lang is None else lang.number(value)


_RESAVE = N_("Open the file in your spreadsheet program and save it again as .xlsx")
#: How much of a part expat reads at a time while checking it.
_CHUNK = 1 << 20

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_STRICT_MAIN = "{http://purl.oclc.org/ooxml/spreadsheetml/main}"
_REL_ID = ("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id",
           "{http://purl.oclc.org/ooxml/officeDocument/relationships}id")
#: An OLE compound file: what Excel writes for a workbook with a password (and for an old .xls).
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: A cell reference as a spreadsheet writes it: column letters A to XFD, then a row from 1.
_REFERENCE = re.compile(r"([A-Z]{1,3})([1-9][0-9]{0,6})")


class Book(NamedTuple):
    """What donjon needs of a workbook: its sheets in order, the parts of its shared texts and styles, and whether
    its dates count from 1904 (Excel for Mac's old calendar)."""

    sheets: list[SheetEntry]
    strings: str | None
    styles: str | None
    date1904: bool


class SheetEntry(NamedTuple):
    """A sheet as the workbook lists it: its name, what kind of sheet, and the part that holds it."""

    name: str
    kind: str
    #: the part's name in the package; None when the relationship leads outside it (the reason is in `outside`)
    part: str | None
    outside: str = ""


def xlsx_rows(path: Path, table: str, sheet: str | None, lang: str = "en") -> tuple[Rows, str]:
    """The rows of a sheet of a workbook (the named one, or the first sheet of cells), the first row naming the
    columns, each cell as the spreadsheet shows it under its number format, in the language `lang`
    (generator.catalog.number_formats); and the table's name for messages (`cards.xlsx (sheet Goods)`)."""
    data = read_bytes(path, table, max_bytes=MAX_XLSX_BYTES)
    if data.startswith(_OLE_MAGIC):
        raise InputError(table, phrase("is a workbook with a password, or an old .xls file: donjon reads .xlsx "
                                       "files without a password; save it as .xlsx with no password"))
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, EOFError) as err:
        raise InputError(table, phrase("is not an .xlsx file ({reason})", reason=str(err))) from None
    with archive:
        _check_package(archive, table)
        book = _book(archive, table)
        chosen = _choose(book.sheets, table, sheet)
        # TRANSLATORS: a workbook's file and the sheet of it a message is about: `cards.xlsx (sheet Goods)`
        named = phrase("{table} (sheet {sheet})", table=table,
                       sheet=chosen.name if chosen.name.isprintable() else phrase_quoted(chosen.name))
        slim = _slim(archive, book, chosen)
        formats: list[tuple[str | None, ...]] = []
        found = _read_values(slim, named, lambda: _first_bad_cell(archive, chosen, book, cells=False),
                             lambda: _first_bad_cell(archive, chosen, book), formats)
        try:
            rows, empty = sheet_rows(found, named, _merged_down(archive, str(chosen.part)), formats, lang)
        except InputError as err:
            raise _named_sheets(err, book.sheets, sheet) from None
        if _may_reach_beyond(archive, str(chosen.part)) or _may_hold_a_lost_date(found):
            _refuse_what_openpyxl_passes_over(archive, chosen, book, named)
    if empty:  # maybe formulas saved without their values
        _refuse_unsaved_formulas(slim, table, named, empty)
    return rows, named


#: A sheet that holds no table of cards: nothing in it, or a first row and nothing under it.
_EMPTY = N_("is empty: its first row must name the columns")
_NO_CARDS = N_("has a header row but no cards")


def _named_sheets(err: InputError, sheets: list[SheetEntry], sheet: str | None) -> InputError:
    """A sheet read for want of `sheet:` (the workbook's first) that holds no table of cards: the problem, with the
    workbook's sheets and how to name the one with the cards (a notes or cover sheet first is common)."""
    others = [entry.name for entry in sheets if entry.kind in ("worksheet", "")]
    if sheet is not None or len(others) < 2 or err.problem.message not in (phrase(_EMPTY), phrase(_NO_CARDS)):
        return err
    names = ", ".join(name if name.isprintable() else phrase_quoted(name) for name in others)
    return InputError(err.file, phrase("{problem} (the workbook's sheets: {names}; name the one that holds the cards "
                                       "with `sheet:` in deck.yaml)", problem=err.problem.message, names=names),
                      err.line)


# --- the package ----------------------------------------------------------------------------------------------------

def _check_package(archive: zipfile.ZipFile, table: str) -> None:
    """Sizes, and every XML part well-formed with no DTD: what openpyxl then parses is plain XML."""
    items = archive.infolist()
    if len(items) > MAX_PARTS:
        raise InputError(table, phrase("holds {count} parts, more than the {most} donjon reads",
                                       count=_count(len(items)), most=_count(MAX_PARTS)))
    unpacked = sum(item.file_size for item in items)
    if unpacked > MAX_XLSX_UNPACKED:
        raise InputError(table, phrase("unpacks to {size} MiB, more than the {most} MiB donjon reads",
                                       size=format(unpacked / 1048576, ".0f"), most=str(MAX_XLSX_UNPACKED // 1048576)))
    for item in items:
        if item.filename.lower().endswith((".xml", ".rels")):
            _check_part(archive, item, table)


def _check_part(archive: zipfile.ZipFile, item: zipfile.ZipInfo, table: str) -> None:
    def refuse_dtd(*_args: Any) -> None:
        raise _DtdFound

    parser = expat.ParserCreate(namespace_separator="}")  # as ElementTree and openpyxl parse: prefixes bound
    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_dtd
    try:
        with archive.open(item) as part:
            while chunk := part.read(_CHUNK):
                parser.Parse(chunk, False)
        parser.Parse(b"", True)
    except _DtdFound:
        raise InputError(table, phrase("its part {part} declares a DTD (<!DOCTYPE> or <!ENTITY>), which no "
                                       "spreadsheet program writes; donjon does not read it. {resave}",
                                       part=phrase_quoted(item.filename), resave=phrase(_RESAVE))) from None
    except (LookupError, UnicodeError) as err:  # an encoding declared that is none, or bytes not in it
        raise InputError(table, phrase("is damaged: its part {part} cannot be decoded ({reason}). {resave}",
                                       part=phrase_quoted(item.filename), reason=str(err),
                                       resave=phrase(_RESAVE))) from None
    except expat.ExpatError as err:
        raise InputError(table, phrase("is damaged: its part {part} is not well-formed XML (line {line}, column "
                                       "{column}: {reason}). {resave}", part=phrase_quoted(item.filename),
                                       line=str(err.lineno), column=str(err.offset),
                                       reason=expat.ErrorString(err.code), resave=phrase(_RESAVE))) from None
    except (zipfile.BadZipFile, EOFError, OSError, RuntimeError, NotImplementedError, ValueError) as err:
        # RuntimeError: an encrypted entry; NotImplementedError: a compression zipfile does not know
        raise InputError(table, phrase("is damaged: its part {part} cannot be unpacked ({reason})",
                                       part=phrase_quoted(item.filename), reason=str(err))) from None


class _DtdFound(Exception):
    pass


def _xml(archive: zipfile.ZipFile, name: str) -> ElementTree.Element | None:
    """A part already checked by `_check_package` (so plain, well-formed XML), or None when there is none."""
    try:
        return ElementTree.fromstring(archive.read(name))
    except KeyError:
        return None


def _relationships(archive: zipfile.ZipFile, source: str) -> dict[str, tuple[str, str | None, str]]:
    """The relationships of the part `source`, by id: (type, the part they lead to or None, why not a part)."""
    folder, name = posixpath.split(source)
    root = _xml(archive, posixpath.join(folder, "_rels", name + ".rels"))
    found: dict[str, tuple[str, str | None, str]] = {}
    for rel in root if root is not None else ():
        target, kind = rel.get("Target") or "", (rel.get("Type") or "").rsplit("/", 1)[-1]
        if (rel.get("TargetMode") or "").lower() == "external" or re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", target):
            found[rel.get("Id") or ""] = (kind, None, phrase("leads to {target}, outside the file",
                                                             target=phrase_quoted(target)))
            continue
        joined = posixpath.normpath(target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target))
        if joined == ".." or joined.startswith("../"):
            found[rel.get("Id") or ""] = (kind, None, phrase("leads to {target}, outside the file",
                                                             target=phrase_quoted(target)))
        else:
            found[rel.get("Id") or ""] = (kind, joined, "")
    return found


def _book(archive: zipfile.ZipFile, table: str) -> Book:
    """The sheets the workbook lists, in order, with the part each one's relationship leads to; its shared texts
    and styles."""
    office = [part for kind, part, _why in _relationships(archive, "").values() if kind == "officeDocument"]
    book_part = office[0] if office and office[0] else "xl/workbook.xml"
    book = _xml(archive, book_part)
    if book is None:
        raise InputError(table, phrase("is damaged: it has no workbook part ({part}). {resave}",
                                       part=phrase_quoted(book_part), resave=phrase(_RESAVE)))
    rels = _relationships(archive, book_part)
    entries = []
    for element in book.iter():
        if element.tag not in (f"{_MAIN}sheet", f"{_STRICT_MAIN}sheet"):
            continue
        rid = next((element.get(key) for key in _REL_ID if element.get(key) is not None), "")
        missing = phrase("has no relationship {id} to its part", id=phrase_quoted(rid))
        kind, part, why = rels.get(rid or "", ("", None, missing))
        if part is not None and part not in archive.NameToInfo:
            why, part = phrase("leads to {target}, which the file does not hold", target=phrase_quoted(part)), None
        entries.append(SheetEntry(element.get("name") or "", kind, part, why))
    kept = {kind: part for kind, part, _why in rels.values() if part in archive.NameToInfo}
    date1904 = any(element.tag.endswith("}workbookPr") and element.get("date1904") in ("1", "true")
                   for element in book.iter())
    return Book(entries, kept.get("sharedStrings"), kept.get("styles"), date1904)


def _choose(entries: list[SheetEntry], table: str, sheet: str | None) -> SheetEntry:
    names = [entry.name for entry in entries]
    if sheet is None:
        cells = [entry for entry in entries if entry.kind in ("worksheet", "")]  # "": its relationship is lost
        if not cells:
            raise InputError(table, phrase("has no sheet of cells (its sheets: {names})",
                                           names=", ".join(map(phrase_quoted, names))) if names
                             else phrase("has no sheet of cells"))
        chosen = cells[0]
    else:
        matches = [entry for entry in entries if entry.name == sheet]
        if not matches:
            import difflib

            close = difflib.get_close_matches(sheet, names, n=1, cutoff=0.6)
            guess = phrase(" (did you mean {name}?)", name=quote(close[0])) if close else ""
            raise InputError(table, phrase("has no sheet {sheet}{guess}; its sheets: {names}", sheet=quote(sheet),
                                           guess=guess, names=", ".join(names)))
        chosen = matches[0]
    if chosen.kind not in ("worksheet", ""):
        what = {"chartsheet": N_("a chart"), "dialogsheet": N_("a dialog"), "macrosheet": N_("a macro sheet")}.get(
            chosen.kind)
        said = phrase(what) if what else phrase("not a sheet of cells ({kind})", kind=phrase_quoted(chosen.kind))
        raise InputError(table, phrase("its sheet {sheet} is {what}, not a table of cards; name the sheet that holds "
                                       "the cards with `sheet:` in deck.yaml", sheet=phrase_quoted(chosen.name),
                                       what=said))
    if chosen.part is None:
        raise InputError(table, phrase("is damaged: its sheet {sheet} {why}. {resave}",
                                       sheet=phrase_quoted(chosen.name),
                                       why=chosen.outside, resave=phrase(_RESAVE)))
    return chosen


# --- the values -----------------------------------------------------------------------------------------------------

def _slim(archive: zipfile.ZipFile, book: Book, chosen: SheetEntry) -> bytes:
    """The workbook openpyxl reads: the chosen sheet, the shared texts and the styles, under a workbook part that
    lists that sheet alone. Nothing else of the file (other sheets, charts, drawings, comments, links to other
    workbooks, properties) is parsed: it cannot fail a deck that does not use it."""
    from xml.sax.saxutils import quoteattr

    def x(text: str) -> bytes:
        return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + text).encode()

    types = "application/vnd.openxmlformats-officedocument.spreadsheetml"
    parts = {"xl/worksheets/sheet1.xml": (chosen.part, f"{types}.worksheet+xml", "worksheet"),
             "xl/sharedStrings.xml": (book.strings, f"{types}.sharedStrings+xml", "sharedStrings"),
             "xl/styles.xml": (book.styles, f"{types}.styles+xml", "styles")}
    present = {name: found for name, found in parts.items() if found[0] is not None}
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    overrides = "".join(f'<Override PartName="/{name}" ContentType="{kind}"/>' for name, (_p, kind, _r) in
                        present.items())
    links = "".join(f'<Relationship Id="rId{i}" Type="{rel}/{role}" Target="/{name}"/>'
                    for i, (name, (_p, _k, role)) in enumerate(present.items(), start=1))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as out:
        out.writestr("[Content_Types].xml", x(
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{types}.sheet.main+xml"/>{overrides}</Types>'))
        out.writestr("_rels/.rels", x(
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{rel}/officeDocument" Target="/xl/workbook.xml"/></Relationships>'))
        out.writestr("xl/workbook.xml", x(
            f'<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="{rel}">'
            f'<workbookPr date1904="{int(book.date1904)}"/><sheets><sheet name={quoteattr(chosen.name or "Sheet")} '
            'sheetId="1" r:id="rId1"/></sheets></workbook>'))
        out.writestr("xl/_rels/workbook.xml.rels", x(
            f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{links}'
            '</Relationships>'))
        for name, (part, _kind, _role) in present.items():
            with archive.open(str(part)) as source, out.open(name, "w") as target:
                while chunk := source.read(_CHUNK):
                    target.write(chunk)
    return buffer.getvalue()


def _read_values(slim: bytes, named: str, opening: Locate, reading: Locate,
                 formats: list[tuple[str | None, ...]] | None = None) -> list[tuple[Any, ...]]:
    """The values of the one sheet of `slim` as openpyxl reads them, at most a row beyond a deck's cards and a
    column beyond its columns (a cell at XFD1048576 would make every row 16,384 wide and the sheet a million
    rows); with `formats`, each cell's number format is added to it, row by row (None for General). A failure is
    traced to what caused it by `opening` (while the workbook is opened) or `reading` (while its rows are read)."""
    found: list[tuple[Any, ...]] = []
    book = _open_book(slim, named, opening, values_only=True)
    # A row with no value is kept as (): openpyxl gives each row a sheet leaves out as one shared tuple of
    # MAX_COLUMNS + 1 empty cells, and a sheet of a few rows with one value at row 100,003 took 100 million cells
    # to read (16 s of a core; past the minute a `content check` of hostile input is given on a loaded machine).
    left_out: object = None
    try:
        with _guard(named, reading, lambda: (len(found) + 1, phrase("is damaged after row {row}",
                                                                    row=str(len(found))))):
            for cells in book.worksheets[0].iter_rows(values_only=False, max_row=MAX_CARDS + 2,
                                                       max_col=MAX_COLUMNS + 1):
                values = () if cells is left_out else tuple(cell.value for cell in cells)
                if values and all(value is None for value in values):
                    left_out, values = cells, ()
                found.append(values)
                if formats is not None:
                    formats.append(tuple(_number_format(cell) for cell in cells) if values else ())
    finally:
        book.close()
    return found


def _number_format(cell: Any) -> str | None:
    """A number's format code, or None for General, for text, true or false and empty cells (shown as they are),
    and for a cell whose style the workbook does not hold (a style index out of range, no styles part: its value
    is read as it is, as it was before formats were read)."""
    if cell.value is None or isinstance(cell.value, (str, bool)):
        return None
    try:
        code = cell.number_format
    except (IndexError, KeyError, AttributeError, TypeError):
        return None
    return None if not code or code == "General" else str(code)


def _open_book(slim: bytes, named: str, locate: Locate, values_only: bool) -> Any:
    from openpyxl import load_workbook

    with _guard(named, locate, lambda: (None, "is damaged: the sheet, its shared texts or its styles cannot be read")):
        return load_workbook(io.BytesIO(slim), read_only=True, data_only=values_only, keep_links=False)


class _guard:
    """Hides openpyxl's warnings (about formatting donjon does not read), and turns any failure of openpyxl while it
    reads into a problem naming the file and sheet: the cell and what is wrong with it, in donjon's words, when
    `locate` finds it; else `fallback()` (the line, and what failed) with openpyxl's reason."""

    def __init__(self, named: str, locate: Locate, fallback: Callable[[], tuple[int | None, str]]) -> None:
        import warnings

        self.named, self.locate, self.fallback = named, locate, fallback
        self.warnings = warnings.catch_warnings()

    def __enter__(self) -> None:
        import warnings

        self.warnings.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, kind: Any, err: BaseException | None, traceback: Any) -> Literal[False]:
        self.warnings.__exit__(kind, err, traceback)
        if err is None or isinstance(err, (DonjonError, MemoryError)) or not isinstance(err, Exception):
            return False
        found = self.locate()
        if found is not None:
            raise InputError(self.named, found[1], found[0]) from None
        line, problem = self.fallback()
        detail = str(err).splitlines()[0] if str(err) else ""
        reason = f"{type(err).__name__}: {cut(detail)[1:-1]}"  # (an f-string in the call stops the extractor)
        raise InputError(self.named, phrase("{problem} ({reason}). {resave}", problem=problem, reason=reason,
                                            resave=phrase(_RESAVE)), line) from None


def _first_bad_cell(archive: zipfile.ZipFile, chosen: SheetEntry, book: Book,
                    cells: bool = True) -> tuple[int | None, str] | None:
    """The first row or cell of a sheet's part that openpyxl cannot read, and why, in donjon's words: a range, row
    or cell reference that is not one, or a typed value that is not of its type. Without `cells`, only what
    openpyxl reads while opening the workbook: the sheet's size."""
    strings = _count_strings(archive, book.strings)
    row_number = 0
    with archive.open(str(chosen.part)) as source:
        for event, element in ElementTree.iterparse(source, events=("start", "end")):
            local = element.tag.rsplit("}", 1)[-1]
            if local == "sheetData" and not cells:
                break
            if event == "start" and local == "row":
                written = element.get("r")
                if written is not None and not re.fullmatch(r"[1-9][0-9]{0,6}", written):
                    return None, phrase("a row is numbered {value}, which is not a row number",
                                        value=phrase_quoted(written))
                row_number = int(written) if written is not None else row_number + 1
            elif event == "end" and local == "dimension" and not re.fullmatch(
                    r"\$?[A-Z]{1,3}\$?[0-9]{1,7}(:\$?[A-Z]{1,3}\$?[0-9]{1,7})?", element.get("ref") or "A1"):
                return None, phrase("its size is given as {value}, which is not a range of cells",
                                    value=phrase_quoted(element.get("ref")))
            elif event == "end" and local == "c":
                problem = _bad_cell(element, strings)
                if problem:
                    return row_number or None, (
                        phrase("cell {cell} {problem}", cell=element.get("r"), problem=problem) if element.get("r")
                        else phrase("cell in row {row} {problem}", row=str(row_number), problem=problem))
                element.clear()
    return None


def _bad_cell(element: ElementTree.Element, strings: int) -> str:
    reference = element.get("r")
    if reference is not None:
        match = _REFERENCE.fullmatch(reference)
        if match is None or _column_number(match[1]) > 16_384:
            return phrase("has a reference that names no cell of a sheet (A1 to XFD1048576)")
    style = element.get("s")
    if style is not None and not (style.isascii() and style.isdigit()):
        return phrase("has the style number {value}, which is not a number", value=phrase_quoted(style))
    kind = element.get("t", "n")
    value = next((child.text for child in element if child.tag.rsplit("}", 1)[-1] == "v"), None)
    if value is None:
        return ""
    text = value.strip()
    if kind == "n" and not _is_number(text):
        return phrase("is typed as a number but holds {value}", value=phrase_quoted(value))
    if kind == "s" and not (text.isascii() and text.isdigit() and int(text) < strings):
        return phrase("refers to shared text number {value}, which the workbook does not hold ({count} texts)",
                      value=phrase_quoted(value), count=str(strings))
    if kind == "b" and text not in ("0", "1"):
        return phrase("is typed as true or false but holds {value}", value=phrase_quoted(value))
    if kind == "d" and not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.]+)?(Z|[+-][0-9:]+)?|[0-9:.]+", text):
        return phrase("is typed as a date but holds {value}", value=phrase_quoted(value))
    return ""


#: A cell or row reference that may lie beyond the rows and columns donjon reads (three column letters: AAA,
#: column 703, on; a row of six digits: 100,000 on), and a cell or row whose first attribute is not its reference
#: (so maybe written without one: its place is counted), or written with a namespace prefix: what makes the look
#: at the sheet's XML below worth its cost. Either may match more than it must, never less.
_FAR = re.compile(rb"""r\s*=\s*["'](?:[A-Za-z]{3}|[A-Za-z]{0,2}[0-9]{6})""")
_UNREFERENCED = re.compile(rb"<(?:c|row)(?:[/>]|\s+(?!r\s*=))|<[\w.-]+:(?:c|row)[\s/>]")


def _may_reach_beyond(archive: zipfile.ZipFile, part: str) -> bool:
    """Whether a cell of the sheet's part may lie beyond the rows and columns donjon reads: two searches of its
    bytes (at C speed: 0.1 s for 10,000 rows of 10 cells, which openpyxl reads in 1.2 s), each chunk cut before its
    last tag so that no tag is split."""
    carry = b""
    with archive.open(part) as source:
        while chunk := source.read(_CHUNK):
            data = carry + chunk
            cut = data.rfind(b"<")
            whole, carry = (data, b"") if cut < 0 else (data[:cut], data[cut:])
            if _FAR.search(whole) or _UNREFERENCED.search(whole):
                return True
    return bool(_FAR.search(carry) or _UNREFERENCED.search(carry))


#: A merged range of one column: (its column, its first row, its last row), all from 1.
MergedDown = tuple[int, int, int]
#: A merged range as a sheet lists it, `<mergeCell ref="A2:A4"/>` (with any namespace prefix): its corners.
_MERGE_CELL = re.compile(rb"""<(?:[\w.-]+:)?mergeCell\s[^>]*?\bref\s*=\s*["']"""
                         rb"""([A-Za-z]{1,3})([0-9]{1,7}):([A-Za-z]{1,3})([0-9]{1,7})["']""")


def _merged_down(archive: zipfile.ZipFile, part: str) -> list[MergedDown]:
    """The sheet's merged ranges that run down one column (a designer's "Kingdom" merged beside the three rows of
    its cards). The sheet keeps the value in the range's first cell only, and shows it beside every row; read so,
    the rows under the first printed an empty faction. A search of the part's bytes, as `_may_reach_beyond`: the
    ranges are listed after the rows, each in one short tag."""
    found: list[MergedDown] = []
    carry = b""
    with archive.open(part) as source:
        while True:
            chunk = source.read(_CHUNK)
            data = carry + chunk
            cut = data.rfind(b"<") if chunk else len(data)
            whole, carry = (data, b"") if cut < 0 else (data[:cut], data[cut:])
            for match in _MERGE_CELL.finditer(whole):
                left, top, right, bottom = match.groups()
                column, first, last = _column_number(left.decode().upper()), int(top), int(bottom)
                if left.upper() == right.upper() and 1 <= first < last and column <= MAX_COLUMNS:
                    found.append((column, first, min(last, MAX_CARDS + 2)))
            if not chunk:
                return found


def _may_hold_a_lost_date(found: list[tuple[Any, ...]]) -> bool:
    """Whether openpyxl may have read a date serial out of a calendar's range: it makes one past 9999 the text
    `#VALUE!`, and a negative one a day before its calendar's first (1899-12-30 or 1904-01-01)."""
    import datetime

    return any(value == "#VALUE!" or (isinstance(value, datetime.datetime) and value.year <= 1904)
               for row in found for value in row)


def _refuse_what_openpyxl_passes_over(archive: zipfile.ZipFile, chosen: SheetEntry, book: Book, named: str) -> None:
    """What openpyxl reads without a word, and donjon refuses, found by a look at the sheet's XML (read already, so
    every reference and number in it is one): a value beyond the rows and columns donjon reads (it would be lost:
    only the first `MAX_CARDS + 2` rows and `MAX_COLUMNS + 1` columns are read, see `_read_values`), and a date
    whose serial number lies outside a spreadsheet's calendar (openpyxl makes it the text `#VALUE!`, which would be
    printed on the card)."""
    dates = _date_styles(archive, book.styles)
    # the serial numbers of 9999-12-31, the last day a spreadsheet program shows, in the 1900 and 1904 calendars
    last_day = 2_957_003 if book.date1904 else 2_958_465
    row_number = column = 0
    with archive.open(str(chosen.part)) as source:
        for event, element in ElementTree.iterparse(source, events=("start", "end")):
            local = element.tag.rsplit("}", 1)[-1]
            if event == "start":
                if local == "row":
                    row_number, column = int(element.get("r") or row_number + 1), 0
                continue
            if local == "row":
                element.clear()
            if local != "c":
                continue
            reference = element.get("r") or ""
            match = _REFERENCE.fullmatch(reference)
            row, column = (int(match[2]), _column_number(match[1])) if match else (row_number, column + 1)
            written = reference or f"{column_letters(column)}{row}"
            value = next((child for child in element if child.tag.rsplit("}", 1)[-1] in ("v", "is")), None)
            if value is None or not "".join(value.itertext()).strip():
                continue
            if column > MAX_COLUMNS + 1:
                raise InputError(named, phrase("cell {cell} holds a value, but donjon reads only the first {n} "
                                               "columns of a sheet (A to {last}): move the value into the table or "
                                               "delete it", cell=written, n=_count(MAX_COLUMNS),
                                               last=column_letters(MAX_COLUMNS)), row)
            if row > MAX_CARDS + 2:
                raise InputError(named, phrase("cell {cell} holds a value, but donjon reads only the first {n} rows "
                                               "of a sheet (a deck holds at most {cards} cards): move the value into "
                                               "the table or delete it", cell=written, n=_count(MAX_CARDS + 2),
                                               cards=_count(MAX_CARDS)), row)
            style = int(element.get("s") or 0)
            if element.get("t", "n") == "n" and style in dates:
                serial = float(value.text or 0)
                if dates[style] and abs(serial) >= 999_999_999:  # the longest duration Python holds
                    raise InputError(named, phrase("cell {cell} is formatted as a duration but holds {value}, far "
                                                   "longer than any: format it as a number or as text", cell=written,
                                                   value=value.text), row)
                # up to 23:59:59 of the last day: openpyxl rounds to the millisecond, and a day more is no date
                if not dates[style] and not 0 <= serial <= last_day + 0.99999:
                    raise InputError(named, phrase("cell {cell} is formatted as a date but holds {value}, which is no "
                                                   "day (dates run from 0 to {last}, 9999-12-31; a spreadsheet program "
                                                   "shows it as ####): write a date, or format the cell as a number or "
                                                   "as text", cell=written, value=value.text, last=str(last_day)),
                                     row)
            element.clear()


def _date_styles(archive: zipfile.ZipFile, name: str | None) -> dict[int, bool]:
    """The cell styles (by their index) whose number format shows a date or time, and whether it is a duration
    (`[h]:mm`): the cells openpyxl turns from serial numbers into dates."""
    from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format, is_timedelta_format

    styles = _xml(archive, name) if name else None
    if styles is None:
        return {}
    local = {element.tag.rsplit("}", 1)[-1]: element for element in styles}
    custom = {element.get("numFmtId"): element.get("formatCode") or ""
              for element in local.get("numFmts", ()) if element.tag.rsplit("}", 1)[-1] == "numFmt"}
    found: dict[int, bool] = {}
    for index, xf in enumerate(local.get("cellXfs", ())):
        number = xf.get("numFmtId") or "0"
        code = custom.get(number) or (BUILTIN_FORMATS.get(int(number), "") if number.isdigit() else "")
        if is_date_format(code):
            found[index] = bool(is_timedelta_format(code))
    return found


def _is_number(text: str) -> bool:
    """Whether a spreadsheet program's number is one: decimal digits, a point and an exponent; not `NaN`, `inf`."""
    return re.fullmatch(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", text) is not None


def _count_strings(archive: zipfile.ZipFile, name: str | None) -> int:
    if name is None:
        return 0
    with archive.open(name) as source:
        return sum(1 for _event, element in ElementTree.iterparse(source) if element.tag.rsplit("}", 1)[-1] == "si")


def _column_number(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def column_letters(column: int) -> str:
    """A column's spreadsheet name: 1 is A, 27 is AA."""
    out = ""
    while column:
        column, rest = divmod(column - 1, 26)
        out = chr(ord("A") + rest) + out
    return out


# --- rows of cards --------------------------------------------------------------------------------------------------

def _cell(value: Any) -> Scalar:
    """A spreadsheet value as a table value: text, a number, true/false, or nothing; a date as its ISO text."""
    import datetime

    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        text = value.isoformat()
        return text.removesuffix("T00:00:00")
    return str(value)


def sheet_rows(found: list[tuple[Any, ...]], table: str, merged: Sequence[MergedDown] = (),
               formats: Sequence[tuple[str | None, ...]] = (), lang: str = "en") -> tuple[Rows, list[tuple[int, int]]]:
    """Rows (origin, columns) of a sheet's values, and the (row, column) of empty cells in them; a range `merged`
    down one column under the header row gives its value to each of its cells, as the sheet shows it. A cell with
    a number format in `formats` (row by row, as `found`) is the text the spreadsheet shows, in `lang`; so is a
    number with decimals in a language that writes them with a comma."""
    from generator.catalog.number_formats import FormatProblem, shown

    def value(raw: Any, line: int, column: int) -> Scalar:
        row = formats[line - 1] if line - 1 < len(formats) else ()
        code = row[column - 1] if column - 1 < len(row) else None
        if code is None and (lang == "en" or not isinstance(raw, float)):
            return _cell(raw)  # General (what nearly every cell is): as it always was read
        try:
            text = _cell(shown(raw, code or "General", lang))
            plain = _cell(raw)
            # a number the format shows as it is (`0` on 7) stays a number, for a layout that computes with it
            return plain if text == str(plain) else text
        except FormatProblem as err:
            cell = f"{column_letters(column)}{line}"
            raise InputError(table, phrase("cell {cell} has the number format {code}, which donjon cannot print as "
                                           "the spreadsheet shows it: {reason}; give the cell another format (or the "
                                           "format Text, with the value typed as the card should print it)",
                                           cell=cell, code=quote(code),
                                           reason=str(err)), line) from None

    start = next((i for i, row in enumerate(found) if any(v not in (None, "") for v in row)), None)
    if start is None:
        raise InputError(table, phrase(_EMPTY))
    formats = list(formats)
    for column, first, last in merged:
        if first > start + 1 and first <= len(found) and column <= len(found[first - 1]):
            kept = found[first - 1][column - 1]
            code = formats[first - 1][column - 1] if first - 1 < len(formats) and column <= len(
                formats[first - 1]) else None
            for index in range(first, min(last, len(found))):
                row = list(found[index])
                row += [None] * (column - len(row))
                row[column - 1] = kept
                found[index] = tuple(row)
                if index < len(formats):
                    shape = list(formats[index]) + [None] * (column - len(formats[index]))
                    shape[column - 1] = code
                    formats[index] = tuple(shape)
    raw_header = list(found[start])
    while raw_header and raw_header[-1] in (None, ""):
        raw_header.pop()
    if len(raw_header) > MAX_COLUMNS:
        raise InputError(table, phrase("has more than the {most} columns donjon reads", most=str(MAX_COLUMNS)),
                         start + 1)
    header = [str(cell).strip() if cell is not None else "" for cell in raw_header]
    if "" in header:
        raise InputError(table, phrase("column {column} of the header row has no name",
                                       column=column_letters(header.index("") + 1)), start + 1)
    repeated = sorted({h for h in header if header.count(h) > 1})
    if repeated:
        raise InputError(table, phrase("the header row names {names} more than once",
                                       names=", ".join(quote(name) for name in repeated)), start + 1)
    rows: Rows = []
    empty: list[tuple[int, int]] = []
    for index in range(start + 1, len(found)):
        values = list(found[index])
        line = index + 1
        if not any(v not in (None, "") for v in values):
            continue
        extra = [i for i, v in enumerate(values[len(header):], start=len(header)) if v not in (None, "")]
        if extra:
            raise InputError(table, phrase("this row has a value in column {column}, which the header row does not "
                                           "name", column=column_letters(extra[0] + 1)), line)
        values += [None] * (len(header) - len(values))
        empty += [(line, i + 1) for i, v in enumerate(values[:len(header)]) if v is None]
        rows.append((f"{table}:{line}", {h: value(v, line, column)
                                         for column, (h, v) in enumerate(zip(header, values), start=1)}))
        if len(rows) > MAX_CARDS:
            raise InputError(table, phrase("holds more than {most} cards", most=_count(MAX_CARDS)), line)
    if not rows:
        raise InputError(table, phrase(_NO_CARDS))
    return rows, empty


def _refuse_unsaved_formulas(slim: bytes, table: str, named: str, cells: list[tuple[int, int]]) -> None:
    """An empty value that is a formula means the file was saved without calculating it: say which cell."""
    book = _open_book(slim, named, lambda: None, values_only=False)
    try:
        with _guard(named, lambda: None, lambda: (None, "is damaged")):
            rows = list(book.worksheets[0].iter_rows(values_only=True, max_row=max(line for line, _c in cells),
                                                     max_col=MAX_COLUMNS + 1))
    finally:
        book.close()
    for line, column in cells:
        formula = rows[line - 1][column - 1] if column <= len(rows[line - 1]) else None
        if isinstance(formula, str) and formula.startswith("="):
            cell = f"{column_letters(column)}{line}"
            raise InputError(named, phrase("cell {cell} holds the formula {formula} but no value for it: donjon "
                                           "reads the values a spreadsheet program saved with its formulas; open the "
                                           "file in one and save it", cell=cell, formula=quote(formula)),
                             line)
