"""`donjon reference --format csv,json`: the reference as data beside its PDF, each value with its source."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from reference_helpers import GAMES, REPO, page_texts, run

from generator.content import load_content

SAMPLE_DECKS = REPO / "content" / "examples" / "decks"


def _files(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())


def _csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("data")
    result = run("reference", "all", "--format", "csv,json", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    return out


def test_csv_and_json_alone_write_no_pdf(written: Path) -> None:
    """Before, a reference was a PDF only: the values had to be copied out of it by hand."""
    assert _files(written) == sorted(f"references/{g}-reference.{s}" for g in GAMES for s in ("csv", "json"))


def test_pdf_csv_json_side_by_side_and_said(tmp_path: Path) -> None:
    result = run("reference", "guildhall", "--format", "json,pdf,csv", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert _files(tmp_path) == [f"references/guildhall-reference.{s}" for s in ("csv", "json", "pdf")]
    said = [line.split()[1].rsplit("/", 1)[-1].rstrip(":") for line in result.stdout.splitlines()[:3]]
    assert said == [f"guildhall-reference.{s}" for s in ("pdf", "csv", "json")]


def test_inferred_values_carry_their_note_and_stated_ones_their_rulebook(written: Path) -> None:
    rows = _csv(written / "references" / "guildhall-reference.csv")
    data = json.loads((written / "references" / "guildhall-reference.json").read_text(encoding="utf-8"))
    notes = {n["number"]: n for n in data["notes"]}
    game = load_content().game("guildhall")
    # the Assassin's thresholds are an inference (test_reference_content: its levels are marked)
    assassin = [r for r in rows if r["record"] == "Assassin" and r["column"] == "Cards held"]
    assert assassin and all(r["inferred"] == "yes" and r["notes"] for r in assassin)
    for row in assassin:  # every level, the continuation rows too, cites the profession's note
        for number in row["notes"].split("; "):
            note = notes[int(number)]
            assert note["source"] in row["source"] and f"{number}: {note['confidence']}" in row["confidence"]
            assert {"record": "Assassin", "field": "level thresholds"} in note["covers"]
    hunter = [r for r in rows if r["record"] == "Hunter" and r["column"] == "Cards held"]
    assert hunter and all(r["inferred"] == "" and r["rulebook"] for r in hunter)
    # a value's own source: a stated one its rulebook section and no note, a marked one its notes and no section
    assert all(bool(r["rulebook"]) != bool(r["notes"]) for r in rows if r["rulebook"] or r["notes"])
    assert all(not r["notes"] for r in rows if not r["inferred"])
    # the marks are flags, not characters of the value
    assert not any("{inferred}" in r["value"] or "†" in r["value"] for r in rows)
    assert [r["id"] for r in data["rulebooks"]] == [r.id for r in game.info.rulebooks]


@pytest.mark.parametrize("game", GAMES)
def test_every_marked_value_of_a_record_names_its_note(written: Path, game: str) -> None:
    rows = _csv(written / "references" / f"{game}-reference.csv")
    assert rows and list(rows[0]) == ["section", "table", "row", "record", "column", "value", "inferred",
                                      "translated", "rulebook", "notes", "confidence", "source"]
    data = json.loads((written / "references" / f"{game}-reference.json").read_text(encoding="utf-8"))
    numbers = {n["number"] for n in data["notes"]}
    for row in rows:
        cited = {int(n) for n in row["notes"].split("; ") if n}
        assert cited <= numbers, row
        if row["inferred"] and row["record"] and not row["record"].startswith("Total"):
            assert cited, row
    assert {int(n) for r in rows for n in r["notes"].split("; ") if n} == numbers  # no note left unused


@pytest.mark.parametrize("game", GAMES)
def test_every_value_says_where_it_comes_from(written: Path, game: str) -> None:
    """A value with neither a rulebook section nor a note (the player count, the totals, the Guildhall supply by
    value, a floor tile's floor beside its marked name) had its origin left blank: a spreadsheet's reader could not
    tell an uncited value from a stated one. Each now says why it has none, in the `source` column."""
    rows = _csv(written / "references" / f"{game}-reference.csv")
    assert all(r["rulebook"] or r["notes"] or r["source"] for r in rows), [
        r for r in rows if not (r["rulebook"] or r["notes"] or r["source"])][:3]
    assert all(not r["notes"] for r in rows if not r["inferred"])  # an unmarked value still carries no note
    players = [r for r in rows if r["record"] == "Players" and r["column"] == "Players"]
    assert players and (players[0]["rulebook"] or players[0]["source"])


@pytest.mark.parametrize("game", GAMES)
def test_the_labels_of_the_box_are_the_column_of_its_values_not_values(written: Path, game: str) -> None:
    """A table of labels and values (the box, the player count) was written two lines a row, its label as a value
    under the column `name` and its value under `value`: a spreadsheet listing the values showed the labels among
    them. Each value's line now says its label as its column; the JSON keeps both cells by name."""
    rows = _csv(written / "references" / f"{game}-reference.csv")
    data = json.loads((written / "references" / f"{game}-reference.json").read_text(encoding="utf-8"))
    boxes = [t for t in data["tables"] if t["columns"][:2] == ["name", "value"]]
    assert boxes
    for table in boxes:
        read = [r for r in rows if r["table"] == str(table["number"])]
        expected = [(row["values"]["name"], row["values"]["value"]) for row in table["rows"] if row["values"]["value"]]
        assert [(r["column"], r["value"]) for r in read] == expected
        assert not {r["column"] for r in read} & {"name", "value"}
    if game == "guildhall":
        said = {r["column"]: r["value"] for r in rows if r["section"] == "The box"}
        assert said["VP cards, per set"] == "30" and said["VP tokens"] == "52, worth 1 VP each"


def test_two_runs_are_byte_identical(written: Path, tmp_path: Path) -> None:
    result = run("reference", "all", "--format", "csv,json", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    for name in _files(written):
        assert (tmp_path / name).read_bytes() == (written / name).read_bytes(), name


def test_a_deck_of_ones_own_one_line_per_card(tmp_path: Path) -> None:
    result = run("reference", "skirmish", "--content", str(SAMPLE_DECKS), "--format", "csv,json",
                 "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert _files(tmp_path) == ["references/decks/skirmish-reference.csv", "references/decks/skirmish-reference.json"]
    with (SAMPLE_DECKS / "skirmish" / "cards.csv").open(encoding="utf-8") as table:
        source = [row for row in csv.DictReader(table) if row["Count"] != "0"]
    rows = _csv(tmp_path / "references" / "decks" / "skirmish-reference.csv")
    assert [r["name"] for r in rows] == [r["Name"] for r in source]
    assert [int(r["copies"]) for r in rows] == [int(r["Count"]) for r in source]
    for mine, theirs in zip(rows, source):
        for column in ("Kind", "Cost", "Faction", "Art", "Text"):
            assert mine[column] == theirs[column], (theirs["Name"], column)
    cards = json.loads((tmp_path / "references" / "decks" / "skirmish-reference.json").read_text("utf-8"))["cards"]
    assert [c["id"] for c in cards] == [r["id"] for r in rows]


_TRANSLATED_DECK = ("Name,Name@fr,Cost,Text,Text@fr\nFireball,Boule de feu,3,Deal 3 damage.,Inflige 3 dégâts.\n"
                    "Shield,,1,Block 2.,Bloque 2.\n")


def test_a_reference_in_the_decks_other_language_shows_each_value_once(tmp_path: Path) -> None:
    """`--lang fr` of a deck with `Name@fr`/`Text@fr` columns listed each French text twice: as the card's value
    and again as the column `Text@fr`. Now each value is shown once, in French where the table translates it, and
    a card's own name (English) under its French one, to find it in the other edition; the CSV and JSON say the
    same. The English reference does not list the French columns either."""
    deck = tmp_path / "c" / "spells"
    deck.mkdir(parents=True)
    (deck / "deck.yaml").write_text("id: spells\nname: Spells\nlayout: generic\ncards: cards.csv\n", "utf-8")
    (deck / "cards.csv").write_text(_TRANSLATED_DECK, "utf-8")
    base = tmp_path / "fr" / "references" / "decks" / "spells-reference"
    result = run("reference", "spells", "--content", str(tmp_path / "c"), "--lang", "fr", "--format", "pdf,csv,json",
                 "--out", str(tmp_path / "fr"))
    assert result.exit_code == 0, result.stderr
    [text] = page_texts(base.with_suffix(".pdf"))
    assert text.count("Inflige 3 dégâts.") == 1 and text.count("Boule de feu") == 1 and "@fr" not in text
    assert "Deal 3 damage" not in text and "Fireball (en)" in text and "Bloque 2." in text
    rows = _csv(base.with_suffix(".csv"))
    assert [list(r) for r in rows][0] == ["id", "name", "own_name", "copies", "Cost", "Text"]
    assert [(r["name"], r["own_name"], r["Text"]) for r in rows] == [
        ("Boule de feu", "Fireball", "Inflige 3 dégâts."), ("Shield", "", "Bloque 2.")]
    data = json.loads(base.with_suffix(".json").read_text("utf-8"))
    assert (data["language"], data["own_language"], data["columns"]) == ("fr", "en", ["Cost", "Text"])
    assert [(c["name"], c["own_name"], c["values"]["Text"]) for c in data["cards"]] == [
        (r["name"], r["own_name"], r["Text"]) for r in rows]
    result = run("reference", "spells", "--content", str(tmp_path / "c"), "--format", "pdf,csv",
                 "--out", str(tmp_path / "en"))
    assert result.exit_code == 0, result.stderr
    [text] = page_texts(tmp_path / "en" / "references" / "decks" / "spells-reference.pdf")
    assert "Deal 3 damage." in text and "@fr" not in text and "Inflige" not in text and "(en)" not in text
    english = _csv(tmp_path / "en" / "references" / "decks" / "spells-reference.csv")
    assert list(english[0]) == ["id", "name", "copies", "Cost", "Text"]


@pytest.mark.parametrize("value", ["xls", "", "pdf,docx"])
def test_an_unknown_format_is_refused_before_anything_is_written(tmp_path: Path, value: str) -> None:
    result = run("reference", "guildhall", "--format", value, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "--format: " in result.stderr and "is not one of pdf, csv, json" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()


def test_help_names_the_formats() -> None:
    result = run("reference", "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "--format" in text and "pdf,csv,json" in text and "one line per value" in text


def test_a_name_a_french_rulebook_prints_cites_it_in_the_json(tmp_path: Path) -> None:
    """In French the PDF's Source column says which French rulebook section prints a material's name (`name:
    rulebook 001 2 ...`); the JSON gave the English rulebook only. Each row now lists its texts' sources."""
    import yaml

    result = run("reference", "guedelon", "--lang", "fr", "--format", "json", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    data = json.loads((tmp_path / "references" / "guedelon-reference.json").read_text(encoding="utf-8"))
    rows = {r["record"]: r for t in data["tables"] for r in t["rows"]}
    catalog = yaml.safe_load((REPO / "content" / "guedelon" / "components.yaml").read_text(encoding="utf-8"))
    cited = [m for m in catalog["materials"] if m.get("translations", {}).get("fr", {}).get("rulebook")]
    assert cited
    for material in cited:
        french = material["translations"]["fr"]
        sources = rows[french["name"]]["translation_sources"]
        assert [(s["field"], s["from"], s["where"]) for s in sources if s["from"] == "rulebook"] == [
            (field, "rulebook", section) for field, section in french["rulebook"].items()]


def test_a_card_text_a_spreadsheet_would_run_is_written_as_text(tmp_path: Path) -> None:
    """A deck's text may start like a formula (`+1 {gold}`, `=HYPERLINK(...)`): opened in a spreadsheet, the CSV
    ran it (or showed an error) instead of the words. It now starts with `'`, as `history export` writes names;
    a plain number (-1) stays a number, and the JSON keeps the text as it is."""
    import shutil

    mine = tmp_path / "decks"
    shutil.copytree(SAMPLE_DECKS, mine)
    table = mine / "skirmish" / "cards.csv"
    lines = table.read_text(encoding="utf-8").splitlines()
    lines[1] = '1,=HYPERLINK("http://example.com"),unit,-1,4,Kingdom,2,art/knight.png,+1 {mana} each turn.'
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("reference", "skirmish", "--content", str(mine), "--format", "csv,json", "--out",
                 str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    first = _csv(tmp_path / "out" / "references" / "decks" / "skirmish-reference.csv")[0]
    assert first["name"] == "'=HYPERLINK(\"http://example.com\")" and first["Text"] == "'+1 {mana} each turn."
    assert first["Cost"] == "-1"
    card = json.loads((tmp_path / "out" / "references" / "decks" / "skirmish-reference.json").read_text("utf-8"))
    assert card["cards"][0]["values"]["Text"] == "+1 {mana} each turn."
