"""Hostile workbooks: an .xlsx written part by part as Excel writes it, and every way its parts can be broken.

`BASE` is a small, good workbook (shared strings, styles with a date format, two sheets, relative relationship
targets), built from its XML parts so that a test can damage any one of them. `HOSTILE` names each broken
workbook of the classes issue 20 lists (a chart sheet, truncated or garbled parts, a DTD or entity, indices and
references out of range, typed cells whose value is not one, relationships leading outside the package or to a
URL); `mutated(parts, ...)` is the fuzzer's: one part changed at one place.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
SHEET_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
CHART_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml.chartsheet+xml"

Parts = dict[str, bytes]


def _x(text: str) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + text).encode()


def _sheet(rows: str, dimension: str = "A1:C3") -> bytes:
    return _x(f'<worksheet xmlns="{MAIN}" xmlns:r="{REL}"><dimension ref="{dimension}"/><sheetData>{rows}'
              '</sheetData></worksheet>')


#: The cards sheet: a header of shared strings, then Bread (2 copies, cost 1.5, a date) and Fish.
CARDS_ROWS = ('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>'
              '<row r="2"><c r="A2" t="s"><v>3</v></c><c r="B2"><v>2</v></c><c r="C2" s="1"><v>45413</v></c></row>'
              '<row r="3"><c r="A3" t="s"><v>4</v></c><c r="B3"><v>1</v></c><c r="C3" t="b"><v>1</v></c></row>')
STRINGS = ("Name", "Count", "Since", "Bread", "Fish")


def _strings(strings: tuple[str, ...] = STRINGS) -> bytes:
    items = "".join(f"<si><t>{s}</t></si>" for s in strings)
    return _x(f'<sst xmlns="{MAIN}" count="{len(strings)}" uniqueCount="{len(strings)}">{items}</sst>')


def _workbook(sheets: str) -> bytes:
    return _x(f'<workbook xmlns="{MAIN}" xmlns:r="{REL}"><sheets>{sheets}</sheets></workbook>')


def _rels(items: str, namespace: str = PKG) -> bytes:
    return _x(f'<Relationships xmlns="{namespace}">{items}</Relationships>')


def _rel(rid: str, kind: str, target: str, extra: str = "") -> str:
    return f'<Relationship Id="{rid}" Type="{REL}/{kind}" Target="{target}"{extra}/>'


STYLES = _x(f'<styleSheet xmlns="{MAIN}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
            '<fills count="1"><fill><patternFill patternType="none"/></fill></fills>'
            '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
            '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
            '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
            '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>'
            '</styleSheet>')

WORKBOOK_RELS = _rels(_rel("rId1", "worksheet", "worksheets/sheet1.xml")
                      + _rel("rId2", "worksheet", "worksheets/sheet2.xml")
                      + _rel("rId3", "sharedStrings", "sharedStrings.xml") + _rel("rId4", "styles", "styles.xml"))

BASE: Parts = {
    "[Content_Types].xml": _x(
        f'<Types xmlns="{CT}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        'spreadsheetml.sheet.main+xml"/>'
        f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{SHEET_CT}"/>'
        f'<Override PartName="/xl/worksheets/sheet2.xml" ContentType="{SHEET_CT}"/>'
        '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        'spreadsheetml.sharedStrings+xml"/>'
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        'spreadsheetml.styles+xml"/></Types>'),
    "_rels/.rels": _rels(_rel("rId1", "officeDocument", "xl/workbook.xml")),
    "xl/workbook.xml": _workbook('<sheet name="Cards" sheetId="1" r:id="rId1"/>'
                                 '<sheet name="Notes" sheetId="2" r:id="rId2"/>'),
    "xl/_rels/workbook.xml.rels": WORKBOOK_RELS,
    "xl/worksheets/sheet1.xml": _sheet(CARDS_ROWS),
    "xl/worksheets/sheet2.xml": _sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>notes</t></is></c></row>', "A1"),
    "xl/sharedStrings.xml": _strings(),
    "xl/styles.xml": STYLES,
}


def pack(parts: Parts) -> bytes:
    """The parts as an .xlsx file (a zip, with fixed timestamps so that the bytes are the same every time)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()


def changed(**parts: bytes | None) -> Callable[[], bytes]:
    """BASE with some parts replaced (by file name, `/` written `__`, `.` written `_`) or removed (None)."""
    def make() -> bytes:
        out = dict(BASE)
        for key, data in parts.items():
            name = _NAMES[key]
            if data is None:
                out.pop(name, None)
            else:
                out[name] = data
        return pack(out)
    return make


_NAMES = {"sheet1": "xl/worksheets/sheet1.xml", "sheet2": "xl/worksheets/sheet2.xml",
          "strings": "xl/sharedStrings.xml", "workbook": "xl/workbook.xml", "styles": "xl/styles.xml",
          "workbook_rels": "xl/_rels/workbook.xml.rels", "package_rels": "_rels/.rels",
          "content_types": "[Content_Types].xml", "chart": "xl/chartsheets/sheet3.xml"}


def _cell_rows(cell: str) -> bytes:
    """The cards sheet with Fish's count cell replaced by `cell`."""
    return _sheet(CARDS_ROWS.replace('<c r="B3"><v>1</v></c>', cell))


def _chart_first() -> Callable[[], bytes]:
    """A chart sheet before the cards' sheet (a deck reads it as its first sheet, or names it with `sheet:`)."""
    chart = _x(f'<chartsheet xmlns="{MAIN}" xmlns:r="{REL}"><sheetViews><sheetView workbookViewId="0"/>'
               '</sheetViews></chartsheet>')
    rels = WORKBOOK_RELS.replace(b"</Relationships>", _rel("rId9", "chartsheet", "chartsheets/sheet3.xml").encode()
                                 + b"</Relationships>")
    types = BASE["[Content_Types].xml"].replace(
        b"</Types>", f'<Override PartName="/xl/chartsheets/sheet3.xml" ContentType="{CHART_CT}"/></Types>'.encode())
    sheets = ('<sheet name="Chart1" sheetId="3" r:id="rId9"/><sheet name="Cards" sheetId="1" r:id="rId1"/>'
              '<sheet name="Notes" sheetId="2" r:id="rId2"/>')
    return changed(chart=chart, workbook_rels=rels, content_types=types, workbook=_workbook(sheets))


_LAUGHS = ('<!DOCTYPE sst [<!ENTITY a "lollollollollollollollollollol">'
           + "".join(f'<!ENTITY {b} "{("&" + a + ";") * 10}">' for a, b in zip("abcdefgh", "bcdefghi"))
           + "]>")

#: Each hostile workbook by name: what it breaks, in its name. None may make donjon exit 4.
HOSTILE: dict[str, Callable[[], bytes]] = {
    "chart-sheet-first": _chart_first(),
    "sheet-truncated": changed(sheet1=BASE["xl/worksheets/sheet1.xml"][:300]),
    "strings-truncated": changed(strings=BASE["xl/sharedStrings.xml"][:120]),
    "workbook-truncated": changed(workbook=BASE["xl/workbook.xml"][:150]),
    "styles-truncated": changed(styles=STYLES[:200]),
    "rels-truncated": changed(workbook_rels=WORKBOOK_RELS[:180]),
    "content-types-garbled": changed(content_types=b"\x00\xff garbage \x89PNG"),
    "sheet-garbled": changed(sheet1=bytes(range(256)) * 4),
    "strings-garbled": changed(strings=b"<sst><si><t>unclosed"),
    "styles-garbled": changed(styles=b"\xfe\xff\x00<\x00s"),
    "workbook-not-xml": changed(workbook=b"PK\x03\x04 not xml at all"),
    "strings-entity-bomb": changed(strings=_strings(("&i;", *STRINGS[1:])).replace(b"<sst", _LAUGHS.encode() + b"<sst")),
    "sheet-external-entity": changed(sheet1=_sheet(CARDS_ROWS).replace(
        b"<worksheet", b'<!DOCTYPE worksheet [<!ENTITY x SYSTEM "file:///etc/passwd">]><worksheet').replace(
        b"<v>3</v>", b"<v>3</v><is><t>&x;</t></is>")),
    "workbook-doctype": changed(workbook=_workbook('<sheet name="Cards" sheetId="1" r:id="rId1"/>').replace(
        b"<workbook", b"<!DOCTYPE workbook><workbook")),
    "shared-string-out-of-range": changed(sheet1=_cell_rows('<c r="B3" t="s"><v>999</v></c>')),
    "shared-string-negative": changed(sheet1=_cell_rows('<c r="B3" t="s"><v>-99</v></c>')),
    "shared-string-not-a-number": changed(sheet1=_cell_rows('<c r="B3" t="s"><v>one</v></c>')),
    "style-out-of-range": changed(sheet1=_cell_rows('<c r="B3" s="999"><v>1</v></c>')),
    "style-not-a-number": changed(sheet1=_cell_rows('<c r="B3" s="x"><v>1</v></c>')),
    "number-format-out-of-range": changed(styles=STYLES.replace(b'numFmtId="14"', b'numFmtId="99999999999"')),
    "font-index-out-of-range": changed(styles=STYLES.replace(b'fontId="0" fillId="0" borderId="0" xfId="0"/>',
                                                             b'fontId="77" fillId="9" borderId="5" xfId="8"/>')),
    "reference-garbled": changed(sheet1=_cell_rows('<c r="3B"><v>1</v></c>')),
    "reference-column-too-far": changed(sheet1=_cell_rows('<c r="ZZZZ3"><v>1</v></c>')),
    "reference-row-zero": changed(sheet1=_cell_rows('<c r="B0"><v>1</v></c>')),
    "reference-row-huge": changed(sheet1=_cell_rows('<c r="B99999999999999999999"><v>1</v></c>')),
    "row-number-garbled": changed(sheet1=_sheet(CARDS_ROWS.replace('<row r="3">', '<row r="three">'))),
    "row-number-huge": changed(sheet1=_sheet(CARDS_ROWS.replace('<row r="3">', '<row r="1048576000">'))),
    "dimension-whole-sheet": changed(sheet1=_sheet(CARDS_ROWS, "A1:XFD1048576")),
    "dimension-garbled": changed(sheet1=_sheet(CARDS_ROWS, "nonsense")),
    "last-column-cell": changed(sheet1=_sheet(CARDS_ROWS.replace("</row>", '<c r="XFD1"><v>7</v></c></row>', 1))),
    "number-not-a-number": changed(sheet1=_cell_rows('<c r="B3" t="n"><v>many</v></c>')),
    "number-infinite": changed(sheet1=_cell_rows('<c r="B3"><v>1e999</v></c>')),
    "number-nan": changed(sheet1=_cell_rows('<c r="B3"><v>NaN</v></c>')),
    "bool-not-a-bool": changed(sheet1=_cell_rows('<c r="B3" t="b"><v>yes</v></c>')),
    "date-not-a-date": changed(sheet1=_cell_rows('<c r="B3" t="d"><v>yesterday</v></c>')),
    "date-serial-out-of-range": changed(sheet1=_cell_rows('<c r="B3" s="1"><v>99999999999</v></c>')),
    "date-serial-negative": changed(sheet1=_cell_rows('<c r="B3" s="1"><v>-5</v></c>')),
    "date-serial-out-of-range-in-text": changed(sheet1=_sheet(CARDS_ROWS.replace("<v>45413</v>", "<v>1e300</v>"))),
    "date-serial-out-of-range-own-format": changed(
        sheet1=_sheet(CARDS_ROWS.replace("<v>45413</v>", "<v>2958466</v>")),
        styles=STYLES.replace(b"<fonts", b'<numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/>'
                                         b'</numFmts><fonts').replace(b'numFmtId="14"', b'numFmtId="164"')),
    "value-past-the-columns": changed(sheet1=_cell_rows('<c r="B3"><v>1</v></c><c r="ALN3"><v>7</v></c>')),
    "value-past-the-columns-without-references": changed(sheet1=_sheet(CARDS_ROWS.replace(
        '<row r="3">', '<row r="3" spans="1:1002">').replace('<c r="C3" t="b"><v>1</v></c></row>',
                                                             '<c r="C3" t="b"><v>1</v></c>' + "<c/>" * 998
                                                             + "<c><v>5</v></c></row>"))),
    "value-past-the-rows": changed(sheet1=_sheet(CARDS_ROWS + '<row r="100003"><c r="A100003"><v>1</v></c></row>')),
    "error-cell": changed(sheet1=_cell_rows('<c r="B3" t="e"><v>#DIV/0!</v></c>')),
    "unknown-cell-type": changed(sheet1=_cell_rows('<c r="B3" t="zz"><v>1</v></c>')),
    "inline-string-empty": changed(sheet1=_cell_rows('<c r="B3" t="inlineStr"/>')),
    "sheet-relationship-missing": changed(workbook=_workbook('<sheet name="Cards" sheetId="1" r:id="rId77"/>')),
    "sheet-part-missing": changed(sheet1=None),
    "strings-part-missing": changed(strings=None),
    "styles-part-missing": changed(styles=None),
    "workbook-part-missing": changed(workbook=None),
    "content-types-missing": changed(content_types=None),
    "sheet-outside-the-package": changed(workbook_rels=WORKBOOK_RELS.replace(
        b"worksheets/sheet1.xml", b"../../../../etc/passwd")),
    "sheet-at-a-url": changed(workbook_rels=WORKBOOK_RELS.replace(
        b'Target="worksheets/sheet1.xml"', b'Target="http://127.0.0.1:9/sheet1.xml" TargetMode="External"')),
    "strings-at-a-url": changed(workbook_rels=WORKBOOK_RELS.replace(
        b'Target="sharedStrings.xml"', b'Target="https://127.0.0.1:9/s.xml" TargetMode="External"')),
    "workbook-outside-the-package": changed(package_rels=_rels(_rel("rId1", "officeDocument", "../../workbook.xml"))),
    "no-sheets": changed(workbook=_workbook("")),
    "sheet-name-empty": changed(workbook=_workbook('<sheet name="" sheetId="1" r:id="rId1"/>')),
    "sheet-names-twice": changed(workbook=_workbook('<sheet name="Cards" sheetId="1" r:id="rId1"/>'
                                                    '<sheet name="Cards" sheetId="2" r:id="rId2"/>')),
    "sheet-without-sheetdata": changed(sheet1=_x(f'<worksheet xmlns="{MAIN}"/>')),
    "wrong-root-element": changed(sheet1=_x(f'<sst xmlns="{MAIN}"><si><t>x</t></si></sst>')),
    "strings-rich-text-garbled": changed(strings=_x(f'<sst xmlns="{MAIN}"><si><r><rPr><sz val="big"/></rPr>'
                                                    '<t>Name</t></r></si></sst>')),
    "utf16-part": changed(strings=_strings().decode().replace('encoding="UTF-8"', 'encoding="UTF-16"')
                          .encode("utf-16")),
}


def mutated(parts: Parts, name: str, action: str, at: float, junk: bytes) -> bytes:
    """`parts` packed with the part `name` changed by `action` at the fraction `at` of its length: cut there,
    a byte flipped, `junk` inserted, or a number there replaced by `junk`'s digits (indices out of range)."""
    out = dict(parts)
    data = out[name]
    where = min(int(at * len(data)), len(data) - 1)
    if action == "cut":
        data = data[:where]
    elif action == "flip":
        data = data[:where] + bytes([data[where] ^ 0xFF]) + data[where + 1:]
    elif action == "insert":
        data = data[:where] + junk + data[where:]
    else:  # a number: the next run of digits from `where` becomes another
        start = next((i for i in range(where, len(data)) if data[i:i + 1].isdigit()), None)
        if start is not None:
            end = start
            while end < len(data) and data[end:end + 1].isdigit():
                end += 1
            data = data[:start] + (str(int.from_bytes(junk[:8] or b"\0", "big")).encode()) + data[end:]
    out[name] = data
    return pack(out)
