"""A spreadsheet's cells print as the spreadsheet shows them: their number formats, in the deck's language.

A designer's workbook showed 12%, €3.50, 0042, 29/11/2026 or 1,5 and the cards printed 0.12, 3.5, 42, a date in
ISO form and 1.5: donjon read the stored values and left the number formats aside."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from generator.catalog.number_formats import FormatProblem, shown

DAY = datetime.datetime(2026, 11, 29)


@pytest.mark.parametrize(("value", "code", "lang", "expected"), [
    (0.12, "0%", "en", "12%"),
    (0.125, "0.0%", "fr", "12,5%"),
    (3.5, '"€"#,##0.00', "en", "€3.50"),
    (1234.5, '#,##0.00\\ "€"', "de", "1.234,50 €"),
    (3.5, "[$€-407] #,##0.00", "de", "€ 3,50"),
    (42, "0000", "en", "0042"),
    (0.125, "0.00", "en", "0.13"),  # rounded half up, as spreadsheets round (not half to even)
    (1.5, "0.0", "fr", "1,5"),
    (1.5, "General", "fr", "1,5"),  # General in a language that writes a decimal comma
    (1.5, "General", "en", 1.5),  # ... and in English, the number itself
    (7, "General", "fr", 7),
    (-3.5, "#,##0.00;(#,##0.00)", "en", "(3.50)"),
    (0, '#,##0.00;(#,##0.00);"-"', "en", "-"),
    (-3.5, "0.0", "en", "-3.5"),
    (1234.5, "0.00E+00", "en", "1.23E+03"),
    (12, "[Red]0", "en", "12"),  # the colour is the layout's
    (2.5, '_-* #,##0.00\\ "€"_-', "fr", "2,50 €"),  # French Excel's accounting format: alignment left out
    (12, '"Level "General', "en", "Level 12"),
    (DAY, "dd/mm/yyyy", "en", "29/11/2026"),
    (DAY, "d mmmm yyyy", "fr", "29 novembre 2026"),
    (DAY, "dddd d mmm", "de", "Sonntag 29 Nov."),
    (DAY, "mm-dd-yy", "en", "11/29/2026"),  # Excel's short date (format 14): the language's, the year whole
    (DAY, "mm-dd-yy", "fr", "29/11/2026"),
    (datetime.datetime(2026, 11, 29, 13, 5), "h:mm AM/PM", "en", "1:05 PM"),
    (datetime.datetime(2026, 11, 29, 13, 5, 9), "hh:mm:ss", "en", "13:05:09"),
    ("already text", "0.00", "en", "already text"),
])
def test_a_cell_is_shown_as_its_number_format_shows_it(value: object, code: str, lang: str, expected: object) -> None:
    assert shown(value, code, lang) == expected


@pytest.mark.parametrize(("value", "code", "reason"), [
    (150, "[>100]0;0", "by a condition"),
    (datetime.timedelta(hours=30), "[h]:mm", "duration"),
    (0.5, "# ?/?", "fraction"),
    (123456, "000-000", "splits the digits"),
    (1234567, "#,##0,", "thousands"),
    (3, "dd/mm/yyyy", "date format"),
])
def test_a_format_donjon_cannot_reproduce_says_what_in_it(value: object, code: str, reason: str) -> None:
    with pytest.raises(FormatProblem, match=reason):
        shown(value, code, "en")


def _workbook(path: Path, formats: dict[str, str], rows: list[list[object]]) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Cards"
    for row in rows:
        sheet.append(row)
    for column, code in formats.items():
        for cell in sheet[column][1:]:
            cell.number_format = code
    path.parent.mkdir(parents=True, exist_ok=True)
    book.save(path)


def test_a_decks_cards_print_what_its_workbook_shows(tmp_path: Path) -> None:
    from generator.content import load_content

    _workbook(tmp_path / "d" / "cards.xlsx", {"B": "0%", "C": '"€"0.00', "D": "0000", "E": "dd/mm/yyyy",
                                              "G": "0"},
              [["Name", "Chance", "Price", "Code", "Since", "Weight", "Count"],
               ["Bread", 0.12, 3.5, 42, DAY, 1.5, 2]])
    (tmp_path / "d" / "deck.yaml").write_text("id: x\nname: X\nlayout: generic\ncards: cards.xlsx\n"
                                              "count_column: Count\nlang: fr\n", encoding="utf-8")
    [deck] = load_content(tmp_path / "d").user_decks
    [bread] = deck.cards
    assert {k: bread.fields[k] for k in ("Chance", "Price", "Code", "Since", "Weight")} == {
        "Chance": "12%", "Price": "€3,50", "Code": "0042", "Since": "29/11/2026", "Weight": "1,5"}
    assert bread.copies == 2  # a count formatted as a whole number still counts
    assert bread.fields["Count"] == 2  # and, shown as it is, stays a number a layout may compute with


def test_a_format_donjon_cannot_reproduce_is_refused_naming_the_cell(tmp_path: Path) -> None:
    from render_helpers import run

    _workbook(tmp_path / "d" / "cards.xlsx", {"B": "[>100]0;0"}, [["Name", "Power"], ["Bread", 150]])
    (tmp_path / "d" / "deck.yaml").write_text("id: x\nname: X\nlayout: generic\ncards: cards.xlsx\n",
                                              encoding="utf-8")
    result = run("content", "check", "--content", str(tmp_path / "d"))
    assert result.exit_code == 1, result.stderr  # a problem with the content
    assert "cards.xlsx (sheet Cards):2: cell B2 has the number format '[>100]0;0', which donjon cannot print" \
        in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
