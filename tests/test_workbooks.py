"""Hostile workbooks (tests/workbooks.py): each is read or refused with a problem naming the file, the sheet and the
cell, never an exception, and openpyxl's own warnings never reach the user.

The corpus (tests/corpus/decks.yaml, `deck-xlsx-*`) runs one of each class as a real `donjon` process; here every
hostile workbook is loaded in-process, and the fuzzer damages the good one part by part.
"""

from __future__ import annotations

import io
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from generator.catalog.userdeck import MAX_COLUMNS, UserDeck, load_deck
from generator.errors import Problem
from tests.workbooks import BASE, HOSTILE, mutated, pack

DECK = "id: x\nname: X\nlayout: generic\ncards: cards.xlsx\ncount_column: Count\n"

#: What donjon must say of each class (its own words; the file and sheet are checked for every case).
EXPECTED = {
    "sheet-truncated": "its part 'xl/worksheets/sheet1.xml' is not well-formed XML",
    "strings-garbled": "its part 'xl/sharedStrings.xml' is not well-formed XML",
    "workbook-truncated": "its part 'xl/workbook.xml' is not well-formed XML",
    "styles-truncated": "its part 'xl/styles.xml' is not well-formed XML",
    "strings-entity-bomb": "its part 'xl/sharedStrings.xml' declares a DTD",
    "sheet-external-entity": "its part 'xl/worksheets/sheet1.xml' declares a DTD",
    "shared-string-out-of-range": "(sheet Cards):3: cell B3 refers to shared text number '999'",
    "number-not-a-number": "(sheet Cards):3: cell B3 is typed as a number but holds 'many'",
    "bool-not-a-bool": "(sheet Cards):3: cell B3 is typed as true or false but holds 'yes'",
    "date-not-a-date": "(sheet Cards):3: cell B3 is typed as a date but holds 'yesterday'",
    "reference-column-too-far": "(sheet Cards):3: cell ZZZZ3 has a reference that names no cell",
    "row-number-garbled": "(sheet Cards): a row is numbered 'three'",
    "dimension-garbled": "(sheet Cards): its size is given as 'nonsense'",
    "sheet-outside-the-package": "its sheet 'Cards' leads to '../../../../etc/passwd', outside the file",
    "sheet-at-a-url": "its sheet 'Cards' leads to 'http://127.0.0.1:9/sheet1.xml', outside the file",
    "sheet-part-missing": "its sheet 'Cards' leads to 'xl/worksheets/sheet1.xml', which the file does not hold",
    "sheet-relationship-missing": "its sheet 'Cards' has no relationship 'rId77'",
    "no-sheets": "has no sheet of cells",
    "error-cell": "(sheet Cards):3: cards[1].Count: expected a whole number of copies",
    "date-serial-out-of-range": "(sheet Cards):3: cell B3 is formatted as a date but holds 99999999999, which is no "
                                "day (dates run from 0 to 2958465, 9999-12-31",
    "date-serial-negative": "(sheet Cards):3: cell B3 is formatted as a date but holds -5, which is no day",
    "date-serial-out-of-range-in-text": "(sheet Cards):2: cell C2 is formatted as a date but holds 1e300",
    "date-serial-out-of-range-own-format": "(sheet Cards):2: cell C2 is formatted as a date but holds 2958466",
    "last-column-cell": "(sheet Cards):1: cell XFD1 holds a value, but donjon reads only the first 1,000 columns of "
                        "a sheet (A to ALL)",
    "value-past-the-columns": "(sheet Cards):3: cell ALN3 holds a value, but donjon reads only the first 1,000 columns",
    "value-past-the-columns-without-references": "(sheet Cards):3: cell ALN3 holds a value",
    "value-past-the-rows": "(sheet Cards):100003: cell A100003 holds a value, but donjon reads only the first "
                           "100,002 rows of a sheet",
}
#: Workbooks whose damage lies where donjon does not look: they are read as the good one is.
READ_AS_GOOD = {"chart-sheet-first", "style-out-of-range", "font-index-out-of-range", "dimension-whole-sheet",
                "reference-row-zero", "reference-row-huge",
                "content-types-missing", "workbook-outside-the-package", "sheet-name-empty", "sheet-names-twice",
                "utf16-part"}
#: Workbooks read with the values their damage leaves: a cell of no known type as text, a row past the last a sheet
#: may have not read, no styles (so a date is its serial number), an inline text with no text empty.
READ_OTHERWISE = {"unknown-cell-type", "row-number-huge", "styles-part-missing", "inline-string-empty"}


def _load(folder: Path, data: bytes, deck: str = DECK) -> tuple[UserDeck | None, list[Problem]]:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / "cards.xlsx").write_bytes(data)
    (folder / "deck.yaml").write_text(deck, encoding="utf-8")
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        loaded = load_deck(folder, "d")
    assert [str(w.message) for w in shown] == [], "a library's warning reached the user"
    return loaded


def test_the_good_workbook_is_read(tmp_path: Path) -> None:
    deck, problems = _load(tmp_path / "d", pack(BASE))
    assert problems == [] and deck is not None
    # C2 has Excel's short date format (14): shown as the spreadsheet shows it in the deck's language (English)
    assert [(c.name, c.copies, c.fields["Since"]) for c in deck.cards] == [("Bread", 2, "5/1/2024"), ("Fish", 1, True)]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_workbook_is_read_or_refused_by_name(tmp_path: Path, name: str) -> None:
    deck, problems = _load(tmp_path / "d", HOSTILE[name]())
    if name in READ_AS_GOOD:
        assert problems == [] and deck is not None and [c.name for c in deck.cards] == ["Bread", "Fish"]
        return
    if name in READ_OTHERWISE:
        assert problems == [] and deck is not None and deck.cards[0].name == "Bread"
        return
    assert deck is None and len(problems) == 1, problems
    said = str(problems[0])
    assert said.startswith("d/cards.xlsx"), said
    assert name not in EXPECTED or EXPECTED[name] in said, said
    assert "Traceback" not in said


def test_the_rows_a_sheet_leaves_out_are_held_as_empty_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet of three rows and a value at row 100,003: the rows between, which the file leaves out, are held as
    empty rows, not as a row of 1,001 empty cells each (100 million cells: 16 s of a core, and a loaded machine's
    `content check` of it ran past the minute the corpus gives hostile input)."""
    from generator.catalog import workbook

    held: list[int] = []
    real = workbook.sheet_rows

    def counted(found: list[tuple[object, ...]], *args: Any, **kwargs: Any) -> Any:
        held.append(sum(len(row) for row in found))
        return real(found, *args, **kwargs)

    monkeypatch.setattr(workbook, "sheet_rows", counted)
    deck, problems = _load(tmp_path / "d", HOSTILE["value-past-the-rows"]())
    assert deck is None and "A100003" in str(problems[0])
    assert held and held[0] < 10 * (MAX_COLUMNS + 1), held


def test_a_chart_sheet_named_by_sheet_is_refused_and_a_first_one_skipped(tmp_path: Path) -> None:
    chart = HOSTILE["chart-sheet-first"]()
    deck, problems = _load(tmp_path / "d", chart, DECK + "sheet: Chart1\n")
    assert deck is None and "d/cards.xlsx: its sheet 'Chart1' is a chart, not a table of cards; name the sheet " \
                              "that holds the cards with `sheet:`" in str(problems[0])
    deck, problems = _load(tmp_path / "d", chart)
    assert problems == [] and deck is not None and deck.cards[0].origin == "d/cards.xlsx (sheet Cards):2"


def test_a_workbook_with_a_password_is_told_apart(tmp_path: Path) -> None:
    _deck, problems = _load(tmp_path / "d", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    assert "d/cards.xlsx: is a workbook with a password, or an old .xls file" in str(problems[0])


@pytest.mark.parametrize(("cell", "beyond"), [
    ('<c r="ALN3"><v>7</v></c>', True), ("<c r = 'ALN3'><v>7</v></c>", True), ('<c r="B100003"><v>7</v></c>', True),
    ("<c><v>7</v></c>", True), ('<c s="1" r="B3"><v>7</v></c>', True), ('<x:c r="B3"><v>7</v></x:c>', True),
    ('<c r="ZZ3"><v>7</v></c>', False), ('<c r="B99999" s="1"><v>7</v></c>', False)])
def test_the_quick_look_for_cells_beyond_what_is_read_misses_none(monkeypatch: pytest.MonkeyPatch, cell: str,
                                                                   beyond: bool) -> None:
    """The search that decides whether the sheet's XML is looked at cell by cell (for values beyond the rows and
    columns read) finds every cell that may lie there, however it is written and wherever the chunks it reads are
    cut (7 bytes here: every tag is split somewhere)."""
    import zipfile

    from generator.catalog import workbook

    monkeypatch.setattr(workbook, "_CHUNK", 7)
    part = f'<worksheet><sheetData><row r="3"><c r="A3"><v>1</v></c>{cell}</row></sheetData></worksheet>'
    archive = zipfile.ZipFile(io.BytesIO(pack({"sheet.xml": part.encode()})))
    assert workbook._may_reach_beyond(archive, "sheet.xml") is beyond


@pytest.mark.fuzz
@given(st.sampled_from(sorted(BASE)), st.sampled_from(["cut", "flip", "insert", "number"]),
       st.floats(0, 1), st.binary(min_size=1, max_size=40))
def test_workbooks_damaged_part_by_part_are_read_or_refused_by_name(tmp_path_factory: pytest.TempPathFactory,
                                                                    part: str, action: str, at: float,
                                                                    junk: bytes) -> None:
    deck, problems = _load(tmp_path_factory.getbasetemp() / "fuzz-xlsx", mutated(BASE, part, action, at, junk))
    event(f"{'refused' if problems else 'read'}")
    assert (deck is None) == bool(problems)
    for problem in problems:
        assert str(problem).startswith("d/cards.xlsx"), problem


@pytest.mark.parametrize("code", ["fr", "de"])
def test_a_workbooks_refusals_are_said_in_the_designers_language(tmp_path: Path, code: str) -> None:
    """`content check --lang fr`: a chart sheet named by `sheet:` and a workbook with a password are refused in the
    designer's words, the file and the sheet's name as written (English as above without a language)."""
    from generator.i18n import language, messages_in

    lang = language(code)
    with messages_in(lang):
        _deck, chart = _load(tmp_path / "d", HOSTILE["chart-sheet-first"](), DECK + "sheet: Chart1\n")
        _deck, locked = _load(tmp_path / "e", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    chart1 = {"fr": "«\u202fChart1\u202f»", "de": "„Chart1“"}[code]  # quoted as the language quotes
    said = lang._("its sheet {sheet} is {what}, not a table of cards; name the sheet that holds the cards with "
                  "`sheet:` in deck.yaml").format(sheet=chart1, what=lang._("a chart"))
    assert str(chart[0]).endswith(f"d/cards.xlsx: {said}"), chart
    assert str(locked[0]).endswith("/cards.xlsx: " + lang._(
        "is a workbook with a password, or an old .xls file: donjon reads .xlsx files without a password; save it as "
        ".xlsx with no password")), locked


#: Damaged workbooks a designer may meet: (the damage, the English said of it, the message it is said by, the value
#: it quotes).
_DAMAGED = [
    ("sheet-truncated", "cards.xlsx: is damaged: its part 'xl/worksheets/sheet1.xml' is not well-formed XML (line ",
     "is damaged: its part {part} is not well-formed XML (line {line}, column {column}: {reason}). {resave}",
     "xl/worksheets/sheet1.xml"),
    ("number-not-a-number", "cards.xlsx (sheet Cards):3: cell B3 is typed as a number but holds 'many'",
     "is typed as a number but holds {value}", "many"),
    ("sheet-outside-the-package", "cards.xlsx: is damaged: its sheet 'Cards' leads to '../../../../etc/passwd', "
     "outside the file. Open the file in your spreadsheet program and save it again as .xlsx",
     "leads to {target}, outside the file", "../../../../etc/passwd"),
]


@pytest.mark.parametrize("case", range(len(_DAMAGED)))
@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_a_damaged_workbook_is_said_in_the_designers_language(tmp_path: Path, code: str, case: int) -> None:
    """`content check --lang fr|de` on a damaged workbook (a part cut short, a cell of the wrong type, a sheet
    outside the file): refused (exit 1) in the designer's words, the file, row and cell as written and the value
    quoted as the language quotes; English word for word without a language."""
    from typer.testing import CliRunner

    from generator.cli import app
    from generator.i18n import language

    damage, english, message, value = _DAMAGED[case]
    folder = tmp_path / "c" / "d"
    folder.mkdir(parents=True)
    (folder / "cards.xlsx").write_bytes(HOSTILE[damage]())
    (folder / "deck.yaml").write_text(DECK, encoding="utf-8")
    result = CliRunner().invoke(app, ["content", "check", "--content", str(tmp_path / "c")]
                                + ([] if code == "en" else ["--lang", code]))
    said = result.output
    assert result.exit_code == 1, said
    if code == "en":
        assert english in said, said
        return
    lang = language(code)
    assert "d/cards.xlsx" in said and lang._(message).split("{")[0].strip() in said, said
    assert {"fr": f"«\u202f{value}\u202f»", "de": f"„{value}“"}[code] in said, said
    if damage == "number-not-a-number":
        assert lang._("{table} (sheet {sheet})").format(table="", sheet="Cards") + ":3: " in said, said
