"""A user's own deck folder: deck.yaml plus a CSV or YAML table, and each way such a table can be wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.content import check_content, load_content
from generator.content import all_decks, select
from generator.errors import UsageError

DECK = """\
id: my-deck
name: My deck
card_size: {width: 2.5in, height: 3.5in}
layout: layout.yaml
cards: cards.csv
id_column: ID
count_column: Count
"""


def make_deck(root: Path, csv: str | bytes, deck: str = DECK) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "deck.yaml").write_text(deck, encoding="utf-8")
    if isinstance(csv, bytes):
        (root / "cards.csv").write_bytes(csv)
    else:
        (root / "cards.csv").write_text(csv, encoding="utf-8")
    return root


def only_problem(root: Path) -> str:
    _, problems = check_content(root)
    assert len(problems) == 1, problems
    return str(problems[0])


def test_a_deck_folder_loads_as_content(tmp_path: Path) -> None:
    root = make_deck(tmp_path / "d", "ID,Name,Count,Text\n1,Knight,2,Charge!\n2,Queen,1,\"Rules, all\"\n")
    content = load_content(root)
    [deck] = content.user_decks
    assert deck.id == "my-deck" and deck.card_size.name == "custom"
    assert deck.card_size.width_mm == pytest.approx(63.5) and deck.card_size.height_mm == pytest.approx(88.9)
    assert [(c.id, c.name, c.copies) for c in deck.cards] == [("1", "Knight", 2), ("2", "Queen", 1)]
    assert deck.cards[1].fields["Text"] == "Rules, all"
    assert deck.cards[0].origin.endswith("cards.csv:2")
    [built] = all_decks(content)
    assert built.total == 3 and built.key == "my-deck/my-deck"
    assert select(all_decks(content), "my-deck") == [built]
    with pytest.raises(UsageError, match="names no game or deck"):
        select(all_decks(content), "guildhall")


def test_deck_folders_inside_a_content_folder(tmp_path: Path) -> None:
    make_deck(tmp_path / "c" / "one", "ID,Name,Count\n1,A,1\n")
    make_deck(tmp_path / "c" / "two", "ID,Name,Count\n1,B,1\n", DECK.replace("id: my-deck", "id: other"))
    assert [d.id for d in load_content(tmp_path / "c").user_decks] == ["my-deck", "other"]


def test_ids_default_to_numbered_names_and_copies_to_one(tmp_path: Path) -> None:
    deck = "id: d\nname: D\nlayout: generic\ncards: cards.csv\n"
    root = make_deck(tmp_path / "d", "Name,Text\nFire Ball,x\nFire Ball,y\n", deck)
    [d] = load_content(root).user_decks
    assert [(c.id, c.copies) for c in d.cards] == [("001-fire-ball", 1), ("002-fire-ball", 1)]


def test_ids_of_latin_names_stay_readable(tmp_path: Path) -> None:
    """Latin letters that are not a letter and an accent (ß, œ, æ, ø, ł...) are spelled as their languages write
    them in ASCII: `Größter Bär` is `grosster-bar`, not the punycode of the whole name (`grter-br-rya9c0l`), which
    a German, French or Danish deck's every file name was; names in another script are still punycode."""
    deck = "id: d\nname: D\nlayout: generic\ncards: cards.csv\n"
    names = ["Größter Bär", "Cœur d’œuvre", "Ærø Ørn", "Łódź", "Þór", "Épée", "Дракон"]
    root = make_deck(tmp_path / "d", "Name,Text\n" + "".join(f"{n},x\n" for n in names), deck)
    [d] = load_content(root).user_decks
    assert [c.id for c in d.cards] == ["001-grosster-bar", "002-coeur-doeuvre", "003-aero-orn", "004-lodz",
                                       "005-thor", "006-epee", "007-80ahtmej"]


def test_yaml_rows_in_a_file_and_inline(tmp_path: Path) -> None:
    root = tmp_path / "y"
    root.mkdir()
    (root / "deck.yaml").write_text("id: y\nname: Y\nlayout: generic\ncards: cards.yaml\n")
    (root / "cards.yaml").write_text("- {name: A, cost: 2, rare: true}\n- {name: B, cost: 3.5, rare: false}\n")
    [d] = load_content(root).user_decks
    assert [c.fields["cost"] for c in d.cards] == [2, 3.5]
    inline = tmp_path / "i"
    inline.mkdir()
    (inline / "deck.yaml").write_text("id: i\nname: I\nlayout: generic\ncards:\n  - {name: A}\n  - {name: B}\n")
    [d] = load_content(inline).user_decks
    assert [c.name for c in d.cards] == ["A", "B"]


def test_yaml_cells_print_as_written(tmp_path: Path) -> None:
    """YAML 1.1 reads `No` as false, `Yes` and `On` as true, `010` as 8, `0x1F` as 31 and `12:30` as 750 (base
    60): a card named No was refused as having no name, one named Yes printed True, a time printed 750. A table's
    cells are what they show; true, false and plain numbers are still values."""
    root = tmp_path / "y"
    root.mkdir()
    (root / "deck.yaml").write_text("id: y\nname: Y\nlayout: generic\ncards: cards.yaml\n")
    (root / "cards.yaml").write_text("- {name: No, cost: 010, at: 12:30}\n- {name: Yes, cost: 0x1F, at: 1_000}\n"
                                     "- {name: On, cost: 3, at: 2.5, rare: true}\n")
    [d] = load_content(root).user_decks
    assert [(c.name, c.fields["cost"], c.fields["at"]) for c in d.cards] == [
        ("No", "010", "12:30"), ("Yes", "0x1F", "1_000"), ("On", 3, 2.5)]
    assert d.cards[2].fields["rare"] is True


@pytest.mark.parametrize(("csv", "expected"), [
    ("ID,Name,Count\n1,A,1\n2,B\n", "cards.csv:3: this row has 2 values but the header names 3 columns"),
    ("ID,Name,Count\n1,A,1,extra\n", "cards.csv:2: this row has 4 values but the header names 3 columns"),
    ("ID;Name;Count\n1;A;1\n", "cards.csv:1: the header row is a single column 'ID;Name;Count' (the header looks "
                               "split by ';': set `delimiter: ;` in deck.yaml)"),
    ("", "cards.csv: is empty: the first row must name the columns"),
    ("ID,Name,Count\n", "cards.csv: has a header row but no cards"),
    ("ID,Name,Count\n1,A,many\n", "cards.csv:2: cards[0].Count: expected a whole number of copies"),
    ("ID,Name,Count\n1,A,1\n1,B,1\n", "cards.csv:3: cards[1]: repeats the card id '1'"),
    ("ID,Name,Count\n1,,1\n", "cards.csv:2: cards[0]: the card has no name"),
    ("ID,Name,Name\n1,A,B\n", "cards.csv:1: the header row names 'Name' more than once"),
    # a row is named by the line it begins on, where an editor shows it, though a quoted value before it or in it
    # holds line breaks (a spreadsheet's Alt+Enter), and empty lines come between
    ('ID,Name,Count\n1,"A\r\nfirst\nsecond",1\n\n2,B,x\n', "cards.csv:6: cards[1].Count: expected a whole number"),
    ('ID,Name,Count\n1,A,1\n2,"B\nsecond\nthird",1,extra\n',
     "cards.csv:3: this row has 4 values but the header names 3 columns"),
    ('ID,Name,Count\n1,A,1\n2,"B,1\n3,C,1\n', "cards.csv:3: a quote opened in this row is never closed"),
])
def test_broken_csv(tmp_path: Path, csv: str, expected: str) -> None:
    root = make_deck(tmp_path / "d", csv)
    assert expected in only_problem(root)


def test_a_row_longer_than_a_header_of_one_column_says_one_column(tmp_path: Path) -> None:
    assert only_problem(make_deck(tmp_path / "d", "Name\nA,B\n")).endswith(
        "cards.csv:2: this row has 2 values but the header names 1 column")


def test_a_missing_column_names_the_columns_there_are(tmp_path: Path) -> None:
    root = make_deck(tmp_path / "d", "ID,Title,Count\n1,A,1\n")
    assert "name_column: the table has no column 'name' (its columns: ID, Title, Count)" in only_problem(root)


def test_wrong_delimiter_row_hint(tmp_path: Path) -> None:
    deck = "id: d\nname: D\nlayout: generic\ncards: cards.csv\nname_column: ID;Name\n"
    root = make_deck(tmp_path / "d", "ID;Name\n1;A;B,C\n", deck)
    assert "the header looks split by ';': set `delimiter: ;` in deck.yaml" in only_problem(root)


def test_a_tab_delimiter_as_the_hint_writes_it(tmp_path: Path) -> None:
    """`delimiter: "\\t"`, as the hint for a tab-separated header says to write it, was refused: "delimiter: must
    not be empty" (a tab is white space)."""
    deck = "id: d\nname: D\nlayout: generic\ncards: cards.csv\n"
    root = make_deck(tmp_path / "d", "Name\tText\nA\tone, two\n", deck)
    assert 'set `delimiter: "\\t"` in deck.yaml' in only_problem(root)
    make_deck(root, "Name\tText\nA\tone, two\n", deck + 'delimiter: "\\t"\n')
    [d] = load_content(root).user_decks
    assert [(c.name, c.fields["Text"]) for c in d.cards] == [("A", "one, two")]
    make_deck(root, "Name\tText\nA\tone, two\n", deck + 'delimiter: ""\n')
    assert "delimiter: '' is not one of , ; | or a tab" in only_problem(root)


def test_non_utf8_csv(tmp_path: Path) -> None:
    root = make_deck(tmp_path / "d", b"ID,Name,Count\n1,Caf\xe9,1\n")
    assert "cards.csv:2: is not UTF-8 text" in only_problem(root)


def test_deck_yaml_problems_are_all_listed(tmp_path: Path) -> None:
    root = make_deck(tmp_path / "d", "ID,Name\n1,A\n", "id: My Deck\nname: ''\nlayout: x\ncards: cards.csv\nsize: poker\n")
    _, problems = check_content(root)
    wheres = sorted(p.where for p in problems)
    assert wheres == ["id", "name", "size"]
    assert all(p.line is not None for p in problems)


def test_table_outside_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.csv").write_text("Name\nx\n")
    root = make_deck(tmp_path / "d", "Name\nA\n", "id: d\nname: D\nlayout: generic\ncards: ../secret.csv\n")
    assert "is outside the content folder" in only_problem(root)


def test_deck_id_may_not_be_a_game(tmp_path: Path) -> None:
    root = make_deck(tmp_path / "d", "Name\nA\n", "id: guildhall\nname: D\nlayout: generic\ncards: cards.csv\n")
    assert "is the id of a game" in only_problem(root)


# --- spreadsheets ---------------------------------------------------------------------------------------------------

def make_xlsx(path: Path, sheets: dict[str, list[list[object]]], cached: dict[str, str] | None = None) -> Path:
    """A workbook; formula cells get the values in `cached` written with them, as a spreadsheet program saves them."""
    import io
    import re
    import zipfile

    from openpyxl import Workbook

    book = Workbook()
    first = True
    for title, rows in sheets.items():
        sheet = book.active if first else book.create_sheet()
        assert sheet is not None
        sheet.title = title
        first = False
        for row in rows:
            sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    if cached:
        source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as target:
            for item in source.infolist():
                data = source.read(item.filename)
                if item.filename.startswith("xl/worksheets/sheet"):
                    text = data.decode()
                    for cell, value in cached.items():
                        text = re.sub(rf'(<c r="{cell}"[^>]*><f>[^<]*</f>)<v\s*/?>(</v>)?', rf"\g<1><v>{value}</v>", text)
                    data = text.encode()
                target.writestr(item, data)
        buffer = out
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())
    return path


XLSX_DECK = "id: x\nname: X\nlayout: generic\ncards: cards.xlsx\nsheet: Goods\ncount_column: Count\n"


def test_a_sheet_by_name_with_the_saved_values_of_its_formulas(tmp_path: Path) -> None:
    import datetime

    make_xlsx(tmp_path / "d" / "cards.xlsx", {
        "Notes": [["not read"]],
        "Goods": [["Name", "Base", "Price", "Count", "Since", "Text", None, None],
                  ["Bread", 2, "=B2*2", 3, datetime.date(2024, 5, 1), "Good **bread**"],
                  [None, None, None, None],
                  ["Ore", 4.5, "=B4*2", 0, None, "never printed"],
                  ["Cloth", 3.0, "=B5*2", 1, None, None]]},
        cached={"C2": "4", "C4": "9", "C5": "6"})
    (tmp_path / "d" / "deck.yaml").write_text(XLSX_DECK, encoding="utf-8")
    # the first sheet is "Notes": without `sheet:` it would be read
    [deck] = load_content(tmp_path / "d").user_decks
    assert [(c.name, c.copies) for c in deck.cards] == [("Bread", 3), ("Cloth", 1)]  # empty row skipped, 0 left out
    bread, cloth = deck.cards
    assert bread.fields["Price"] == 4 and cloth.fields["Price"] == 6 and cloth.fields["Base"] == 3
    assert bread.fields["Since"] == "2024-05-01" and cloth.fields["Text"] is None
    assert bread.origin.endswith("cards.xlsx (sheet Goods):2") and cloth.origin.endswith(":5")


def test_a_value_merged_down_a_column_is_each_rows(tmp_path: Path) -> None:
    """A designer merges "Kingdom" beside the rows of its three cards: the sheet shows it beside each, but keeps it
    in the first cell only, and the other two cards printed an empty faction. A range merged across columns still
    gives its value to its first cell alone (which column would it be?)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Goods"
    for row in (["Faction", "Name", "Text", "Note"], ["Kingdom", "Knight", "Guard"], [None, "Archer"],
                [None, "Squire"], ["Wilds", "Wolf", "Bites", "across"], [None, "Dragon"]):
        sheet.append(row)
    for cells in ("A2:A4", "A5:A6", "C5:D5"):
        sheet.merge_cells(cells)
    (tmp_path / "d").mkdir()
    book.save(tmp_path / "d" / "cards.xlsx")
    (tmp_path / "d" / "deck.yaml").write_text(XLSX_DECK.replace("count_column: Count\n", ""), encoding="utf-8")
    [deck] = load_content(tmp_path / "d").user_decks
    assert [(c.name, c.fields["Faction"]) for c in deck.cards] == [
        ("Knight", "Kingdom"), ("Archer", "Kingdom"), ("Squire", "Kingdom"), ("Wolf", "Wilds"), ("Dragon", "Wilds")]
    assert (deck.cards[3].fields["Text"], deck.cards[3].fields["Note"]) == ("Bites", None)


@pytest.mark.parametrize(("sheets", "cached", "deck", "message"), [
    ({"Goods": [["Name", "Price"], ["Bread", "=1+1"]]}, None, XLSX_DECK.replace("count_column: Count\n", ""),
     "cards.xlsx (sheet Goods):2: cell B2 holds the formula '=1+1' but no value for it: donjon reads the values a "
     "spreadsheet program saved"),
    ({"Good": [["Name"], ["A"]]}, None, XLSX_DECK, "cards.xlsx: has no sheet 'Goods' (did you mean 'Good'?); its sheets: "
                                                  "Good"),
    ({"Goods": [["Name", None, "Cost"], ["A", 1, 2]]}, None, XLSX_DECK, "column B of the header row has no name"),
    ({"Goods": [["Name", "Count"], ["A", 1, "stray"]]}, None, XLSX_DECK,
     "cards.xlsx (sheet Goods):2: this row has a value in column C, which the header row does not name"),
    ({"Goods": [["Name", "Count"]]}, None, XLSX_DECK, "has a header row but no cards"),
    ({"Goods": [["Name", "Count"], ["A", 0]]}, None, XLSX_DECK, "every card has a count of 0: there is nothing to print"),
])
def test_spreadsheet_problems(tmp_path: Path, sheets: dict[str, list[list[object]]], cached: dict[str, str] | None,
                              deck: str, message: str) -> None:
    make_xlsx(tmp_path / "d" / "cards.xlsx", sheets, cached)
    (tmp_path / "d" / "deck.yaml").write_text(deck, encoding="utf-8")
    assert message in only_problem(tmp_path / "d")


def test_a_first_sheet_without_cards_names_the_sheets_to_choose_from(tmp_path: Path) -> None:
    """A workbook whose cards are on its second sheet, read without `sheet:` (its first sheet, notes, is read):
    the message says which sheets it has and to name one, as a sheet named wrong does; a workbook of one sheet is
    told as before."""
    make_xlsx(tmp_path / "d" / "cards.xlsx", {"Notes": [["Notizen für später"]], "Karten": [["Name"], ["A"]]})
    (tmp_path / "d" / "deck.yaml").write_text(XLSX_DECK.replace("sheet: Goods\n", ""), encoding="utf-8")
    assert only_problem(tmp_path / "d").endswith(
        "cards.xlsx (sheet Notes): has a header row but no cards (the workbook's sheets: Notes, Karten; name the one "
        "that holds the cards with `sheet:` in deck.yaml)")
    make_xlsx(tmp_path / "e" / "cards.xlsx", {"Notes": [["Notizen"]]})
    (tmp_path / "e" / "deck.yaml").write_text(XLSX_DECK.replace("sheet: Goods\n", ""), encoding="utf-8")
    assert only_problem(tmp_path / "e").endswith("cards.xlsx (sheet Notes): has a header row but no cards")


def test_files_that_are_not_spreadsheets_or_bombs_are_refused(tmp_path: Path) -> None:
    import zipfile

    root = tmp_path / "d"
    root.mkdir()
    (root / "deck.yaml").write_text(XLSX_DECK, encoding="utf-8")
    (root / "cards.xlsx").write_text("Name\nA\n", encoding="utf-8")
    assert "cards.xlsx: is not an .xlsx file" in only_problem(root)
    with zipfile.ZipFile(root / "cards.xlsx", "w", zipfile.ZIP_DEFLATED) as bomb:
        bomb.writestr("xl/worksheets/sheet1.xml", b"\0" * (300 * 1024 * 1024))
    assert "cards.xlsx: unpacks to 300 MiB, more than the 256 MiB donjon reads" in only_problem(root)
    (root / "deck.yaml").write_text(XLSX_DECK.replace("cards.xlsx", "cards.ods").replace("sheet: Goods\n", ""),
                                    encoding="utf-8")
    (root / "cards.ods").write_bytes(b"x")
    assert "is a spreadsheet donjon cannot read; save it as .xlsx" in only_problem(root)


def test_sheet_means_nothing_for_a_csv(tmp_path: Path) -> None:
    root = make_deck(tmp_path / "d", "Name\nA\n", "id: d\nname: D\nlayout: generic\ncards: cards.csv\nsheet: One\n")
    assert "sheet: means something only for an .xlsx table" in only_problem(root)


def test_a_delimiter_means_nothing_for_a_spreadsheet(tmp_path: Path) -> None:
    """`delimiter: ;` beside an .xlsx (or .yaml) table was read without a word: the designer who wrote it expects it
    to do something. Refused, as `sheet:` is for a CSV, naming deck.yaml's line."""
    make_xlsx(tmp_path / "d" / "cards.xlsx", {"Goods": [["Name", "Count"], ["A", 1]]})
    (tmp_path / "d" / "deck.yaml").write_text(XLSX_DECK + "delimiter: ;\n", encoding="utf-8")
    assert only_problem(tmp_path / "d").endswith(
        "d/deck.yaml:7: delimiter: means something only for a .csv table, and 'cards.xlsx' is not one; remove it")
    (tmp_path / "d" / "deck.yaml").write_text(XLSX_DECK, encoding="utf-8")
    [deck] = load_content(tmp_path / "d").user_decks
    assert [c.name for c in deck.cards] == ["A"]


# --- YAML rows, counts of 0, a layout and back per card -----------------------------------------------------------

def test_yaml_rows_may_leave_keys_out(tmp_path: Path) -> None:
    root = tmp_path / "y"
    root.mkdir()
    (root / "deck.yaml").write_text("id: y\nname: Y\nlayout: generic\ncards: cards.yaml\ncount_column: n\n")
    (root / "cards.yaml").write_text("- {name: A, cost: 2}\n- {name: B, text: Hi, n: 3}\n- {name: C, n: 0}\n")
    [deck] = load_content(root).user_decks
    assert [(c.name, c.copies) for c in deck.cards] == [("A", 1), ("B", 3)]
    assert dict(deck.cards[0].fields) == {"name": "A", "cost": 2, "text": None, "n": None}
    assert dict(deck.cards[1].fields) == {"name": "B", "cost": None, "text": "Hi", "n": 3}


KINDS_DECK = """\
id: k
name: K
cards: cards.csv
layout_column: Kind
layouts:
  unit: {layout: generic, back: generic-back}
  spell: {layout: spell.yaml}
"""


def test_a_column_picks_each_cards_layout_and_back(tmp_path: Path) -> None:
    root = make_deck(tmp_path / "d", "Name,Kind\nKnight,unit\nFire,Spell\n", KINDS_DECK)
    [deck] = load_content(root).user_decks
    assert [(c.layout, c.back) for c in deck.cards] == [("generic", "generic-back"), ("spell.yaml", None)]


@pytest.mark.parametrize(("deck", "csv", "message"), [
    (KINDS_DECK, "Name,Kind\nA,spel\n", "cards.csv:2: cards[0].Kind: 'spel' (did you mean 'spell'?) is not one of "
                                        "the card kinds `layouts` names"),
    (KINDS_DECK, "Name,Kind\nA,\n", "cards.csv:2: cards[0].Kind: is empty, and the deck has no `layout` for such "
                                    "cards"),
    (KINDS_DECK.replace("layout_column: Kind\n", ""), "Name\nA\n", "layouts: needs `layout_column`"),
    ("id: k\nname: K\ncards: cards.csv\n", "Name\nA\n", "deck.yaml:1: missing the key 'layout'"),
    (KINDS_DECK.replace("Kind", "Sort"), "Name,Kind\nA,unit\n", "layout_column: the table has no column 'Sort'"),
])
def test_layout_column_problems(tmp_path: Path, deck: str, csv: str, message: str) -> None:
    root = make_deck(tmp_path / "d", csv, deck)
    assert message in only_problem(root)


def test_a_count_above_the_limit_says_zero_is_allowed(tmp_path: Path) -> None:
    root = make_deck(tmp_path / "d", "ID,Name,Count\n1,A,1001\n")
    assert "expected a whole number of copies from 0 (leave the card out) to 1000, got '1001'" in only_problem(root)


# --- picking cards --------------------------------------------------------------------------------------------------

def test_picking_cards_by_position_range_and_name(tmp_path: Path) -> None:
    from generator.content import pick_cards

    rows = "ID,Name,Count\n" + "".join(f"{i},Card {i},1\n" for i in range(1, 21))
    [deck] = all_decks(load_content(make_deck(tmp_path / "d", rows)))
    assert [c.name for c in pick_cards(deck, "1-3,15, card 20 ,2").cards] == ["Card 1", "Card 2", "Card 3",
                                                                             "Card 15", "Card 20"]
    assert [c.id for c in pick_cards(deck, "7").cards] == ["7"]
    for wanted, message in (("0", "'0' is out of range: the deck 'my-deck' has cards 1 to 20"),
                            ("5-2", "a range goes from low to high"), ("21", "out of range"),
                            ("Crad 3", "'Crad 3' is neither a position nor the name of a card of 'my-deck' (did you "
                                       "mean 'Card 3'?)"), (" , ", "names no card")):
        with pytest.raises(UsageError, match=re.escape(message)):
            pick_cards(deck, wanted)


def test_picking_cards_by_a_name_typed_without_its_accents(tmp_path: Path) -> None:
    """`--cards "Ca et la,grosster bar"` picks `Çà et là` and `Größter Bär`: a name folded as donjon folds every
    name (case, accents, dashes), which the message already offered as what was meant; an exact name still wins."""
    from generator.content import pick_cards

    rows = "ID,Name,Count\n1,Çà et là,1\n2,Größter Bär,1\n3,Ca et la,1\n4,Élan-Vital,1\n"
    [deck] = all_decks(load_content(make_deck(tmp_path / "d", rows)))
    assert [c.id for c in pick_cards(deck, "grosster bar,elan vital").cards] == ["2", "4"]
    assert [c.id for c in pick_cards(deck, "Ca et la").cards] == ["3"]  # the card of that very name
    assert [c.id for c in pick_cards(deck, "ÇÀ ET LÀ").cards] == ["1"]
