"""A user's own deck folder: deck.yaml plus a CSV or YAML table, and each way such a table can be wrong."""

from __future__ import annotations

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


@pytest.mark.parametrize(("csv", "expected"), [
    ("ID,Name,Count\n1,A,1\n2,B\n", "cards.csv:3: this row has 2 values but the header names 3 columns"),
    ("ID,Name,Count\n1,A,1,extra\n", "cards.csv:2: this row has 4 values but the header names 3 columns"),
    ("ID;Name;Count\n1;A;1\n", "cards.csv:1: the header row is a single column 'ID;Name;Count' (the header looks "
                               "split by ';': set `delimiter` in deck.yaml)"),
    ("", "cards.csv: is empty: the first row must name the columns"),
    ("ID,Name,Count\n", "cards.csv: has a header row but no cards"),
    ("ID,Name,Count\n1,A,many\n", "cards.csv:2: cards[0].Count: expected a whole number of copies"),
    ("ID,Name,Count\n1,A,1\n1,B,1\n", "cards.csv:3: cards[1]: repeats the card id '1'"),
    ("ID,Name,Count\n1,,1\n", "cards.csv:2: cards[0]: the card has no name"),
    ("ID,Name,Name\n1,A,B\n", "cards.csv:1: the header row names 'Name' more than once"),
])
def test_broken_csv(tmp_path: Path, csv: str, expected: str) -> None:
    root = make_deck(tmp_path / "d", csv)
    assert expected in only_problem(root)


def test_a_missing_column_names_the_columns_there_are(tmp_path: Path) -> None:
    root = make_deck(tmp_path / "d", "ID,Title,Count\n1,A,1\n")
    assert "name_column: the table has no column 'name' (its columns: ID, Title, Count)" in only_problem(root)


def test_wrong_delimiter_row_hint(tmp_path: Path) -> None:
    deck = "id: d\nname: D\nlayout: generic\ncards: cards.csv\nname_column: ID;Name\n"
    root = make_deck(tmp_path / "d", "ID;Name\n1;A;B,C\n", deck)
    assert "the header looks split by ';': set `delimiter` in deck.yaml" in only_problem(root)


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
