"""`donjon reference GAME` and `donjon build`'s references: through typer's runner and as a subprocess."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reference_helpers import GAMES, REPO, flat, page_texts, reference_path, run

from generator.resources import content_dir


def donjon(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """The installed `donjon` command (the console script beside this interpreter), or `python -m generator`."""
    exe = Path(sys.executable).with_name("donjon")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "generator"]
    return subprocess.run([*command, *args], capture_output=True, text=True, cwd=cwd, timeout=120)


def test_reference_of_one_game(tmp_path: Path) -> None:
    result = run("reference", "guildhall", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    path = reference_path(tmp_path, "guildhall")
    assert path.is_file()
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == ["guildhall-reference.pdf"]
    lines = result.stdout.splitlines()
    assert lines[0].startswith("wrote ") and lines[0].endswith(f"references/guildhall-reference.pdf: "
                                                               f"{len(page_texts(path))} pages")
    assert lines[-1].startswith("Wrote 1 reference in ")


def test_reference_all_on_letter(tmp_path: Path) -> None:
    result = run("reference", "all", "--paper", "letter", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    import pypdf

    for game in GAMES:
        page = pypdf.PdfReader(reference_path(tmp_path, game)).pages[0]
        assert (float(page.mediabox.width), float(page.mediabox.height)) == (612.0, 792.0)


@pytest.mark.parametrize(("args", "code", "message"), [
    (("chess",), 2, "reference: 'chess' is neither a game nor a deck; the games: guildhall, guedelon, "
                    "once-upon-a-castle, or all; for a deck of your own, give its content folder with --content DIR"),
    (("guedelon", "--paper", "a3"), 2, "--paper: 'a3' is not one of a4, letter"),
    (("guedelon", "--content", "/no/such/folder"), 2, "/no/such/folder: no such content folder"),
])
def test_bad_command_lines(tmp_path: Path, args: tuple[str, ...], code: int, message: str) -> None:
    result = run("reference", *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == code, result.stdout
    assert message in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_game_the_content_folder_lacks(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    shutil.copytree(content_dir() / "guildhall", mine / "guildhall")
    result = run("reference", "guedelon", "--content", str(mine), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "mine: holds no guedelon catalog (no folder guedelon/ with a game.yaml)" in result.stderr
    # `all` writes the references of the games it holds
    assert run("reference", "all", "--content", str(mine), "--out", str(tmp_path / "out")).exit_code == 0
    assert [p.name for p in (tmp_path / "out").rglob("*.pdf")] == ["guildhall-reference.pdf"]


def test_a_deck_of_ones_own_has_no_reference(tmp_path: Path) -> None:
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "deck.yaml").write_text("id: spells\nname: Spells\nlayout: generic\ncards: cards.csv\n", encoding="utf-8")
    (deck / "cards.csv").write_text("name,text\nFireball,Burn.\n", encoding="utf-8")
    result = run("reference", "all", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and "holds no game catalog" in result.stderr
    assert run("build", "--content", str(deck), "--out", str(tmp_path / "out")).exit_code == 0
    assert list((tmp_path / "out").rglob("*-reference.pdf")) == []


def test_out_that_is_a_file(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    result = run("reference", "guedelon", "--out", str(target))
    assert result.exit_code == 3 and "is a file" in result.stderr


def test_a_change_in_the_content_shows_in_the_reference(tmp_path: Path) -> None:
    mine = tmp_path / "content"
    shutil.copytree(content_dir(), mine)
    professions = mine / "guildhall" / "professions.yaml"
    professions.write_text(professions.read_text(encoding="utf-8").replace("name: Assassin", "name: Cutthroat"),
                           encoding="utf-8")
    sheet = mine / "once-upon-a-castle" / "castle-sheet.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("{first: 26, last: 30, points: 12}",
                                                               "{first: 26, last: 30, points: 15}"),
                     encoding="utf-8")
    out = tmp_path / "out"
    result = run("reference", "all", "--content", str(mine), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    guildhall = " ".join(page_texts(reference_path(out, "guildhall")))
    assert "Cutthroat Throw cards out of one opponent's guildhall." in guildhall
    assert "Assassin Throw" not in guildhall
    castle = " ".join(page_texts(reference_path(out, "once-upon-a-castle")))
    assert "26-30 15 points" in castle and "12 points" not in castle


def test_text_that_cannot_be_drawn_fails_cleanly_and_keeps_the_previous_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("reference", "once-upon-a-castle", "--out", str(out)).exit_code == 0
    before = reference_path(out, "once-upon-a-castle").read_bytes()
    mine = tmp_path / "content"
    shutil.copytree(content_dir(), mine)
    guests = mine / "once-upon-a-castle" / "guests.yaml"
    guests.write_text(guests.read_text(encoding="utf-8").replace("power: Draw 4 residents.",
                                                                 'power: "Draw 4 {unicorn} residents."'),
                      encoding="utf-8")
    result = run("reference", "once-upon-a-castle", "--content", str(mine), "--out", str(out))
    assert result.exit_code == 1
    assert "Once Upon a Castle: card reference: cannot draw 'Draw 4 {unicorn} residents.'" in result.stderr
    assert "{unicorn} is not an icon donjon has" in result.stderr
    assert reference_path(out, "once-upon-a-castle").read_bytes() == before
    assert [p.name for p in out.rglob(".*")] == []  # no temporary file left behind


def test_build_all_writes_the_three_references(tmp_path: Path) -> None:
    result = run("build", "all", "--format", "pdf", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    for game in GAMES:
        path = reference_path(tmp_path, game)
        assert path.is_file(), game
        pages = len(page_texts(path))
        assert any(line.endswith(f"references/{game}-reference.pdf: card reference, {pages} pages")
                   for line in result.stdout.splitlines()), game


def test_build_writes_the_reference_of_its_game_only(tmp_path: Path) -> None:
    assert run("build", "guedelon", "--format", "pdf", "--out", str(tmp_path / "a")).exit_code == 0
    assert sorted(p.name for p in (tmp_path / "a").rglob("*-reference.pdf")) == ["guedelon-reference.pdf"]
    assert run("build", "guedelon/events", "--format", "pdf", "--out", str(tmp_path / "b")).exit_code == 0
    assert list((tmp_path / "b").rglob("*-reference.pdf")) == []  # one deck: no reference
    assert run("build", "guedelon", "--format", "svg", "--out", str(tmp_path / "c")).exit_code == 0
    assert list((tmp_path / "c").rglob("*.pdf")) == []  # SVG only: no PDF at all
    assert run("build", "once-upon-a-castle", "--format", "pdf", "--paper", "letter", "--out",
               str(tmp_path / "d")).exit_code == 0
    import pypdf

    page = pypdf.PdfReader(reference_path(tmp_path / "d", "once-upon-a-castle")).pages[0]
    assert float(page.mediabox.width) == 612.0  # the build's paper


def test_the_installed_command(tmp_path: Path) -> None:
    done = donjon("reference", "guedelon", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    text = " ".join(page_texts(reference_path(tmp_path, "guedelon")))
    assert "Collective lesson" in text and flat("Cards 19-27: not known") in text
    bad = donjon("reference", "monopoly", "--out", str(tmp_path))
    assert bad.returncode == 2 and "the games: guildhall, guedelon, once-upon-a-castle, or all" in bad.stderr
    assert "Traceback" not in bad.stderr and bad.stdout == ""
    missing = donjon("reference")
    assert missing.returncode == 2 and "GAME" in missing.stderr and "Traceback" not in missing.stderr


def test_help() -> None:
    result = run("reference", "--help")
    assert result.exit_code == 0
    for word in ("GAME", "--content", "--out", "--paper", "reference.pdf", "all"):
        assert word in result.stdout
    assert "reference" in run("--help").stdout


def test_the_command_module_imports_only_typer() -> None:
    code = ("import sys, generator.cli, generator.commands.reference; "
            "print(','.join(m for m in ('reportlab', 'yaml', 'pypdf', 'generator.reference.document', "
            "'generator.catalog') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "", done.stdout + done.stderr


def test_catalog_text_prints_as_it_is(tmp_path: Path) -> None:
    mine = tmp_path / "content"
    shutil.copytree(content_dir(), mine)
    guests = mine / "once-upon-a-castle" / "guests.yaml"
    hostile = 'Tom & <b>Jerry</b> **stars** \\\\back {{ x }} {% y %}'
    guests.write_text(guests.read_text(encoding="utf-8").replace("power: Gain 2 Wood.", f"power: '{hostile}'"),
                      encoding="utf-8")
    out = tmp_path / "out"
    result = run("reference", "once-upon-a-castle", "--content", str(mine), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    text = " ".join(page_texts(reference_path(out, "once-upon-a-castle")))
    assert "Tom & <b>Jerry</b> **stars** \\\\back {{ x }} {% y %}" in text


# --- a deck of one's own ----------------------------------------------------------------------------------------

SAMPLE_DECKS = REPO / "content" / "examples" / "decks"


def test_the_reference_of_a_deck_of_ones_own_lists_its_cards_as_its_table_gives_them(tmp_path: Path) -> None:
    """`donjon reference skirmish --content content/examples/decks` said "'skirmish' is not a game": only the three
    games had a reference. A deck of one's own now has one: every card printed, its id, its copies and each column
    it fills, as the table holds it (markup shown as written), in OUT/references/decks/."""
    import csv

    result = run("reference", "skirmish", "--content", str(SAMPLE_DECKS), "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    path = tmp_path / "references" / "decks" / "skirmish-reference.pdf"
    assert [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()] == [
        "references/decks/skirmish-reference.pdf"]
    assert result.stdout.splitlines()[0].startswith("wrote ") and "skirmish-reference.pdf: " in result.stdout
    text = flat(" ".join(page_texts(path)))
    with (SAMPLE_DECKS / "skirmish" / "cards.csv").open(encoding="utf-8") as table:
        rows = list(csv.DictReader(table))
    printed = [row for row in rows if row["Count"] != "0"]
    assert f"{len(printed)} cards · {sum(int(row['Count']) for row in printed)} copies" in text
    for row in rows:
        if row["Count"] == "0":  # left out of the deck: not in its reference
            assert row["Name"] not in text
            continue
        assert row["Name"] in text
        for column in ("Kind", "Cost", "Faction", "Art", "Text"):
            if row[column]:
                assert flat(f"{column}: {row[column]}") in text, (row["Name"], column)
        assert "Count:" not in text  # the copies have their own column


def test_a_name_neither_a_game_nor_a_deck_names_both(tmp_path: Path) -> None:
    result = run("reference", "skirmsh", "--content", str(SAMPLE_DECKS), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "'skirmsh' is neither a game nor a deck; the games: guildhall, guedelon, once-upon-a-castle, or all; " \
           "the decks of " in result.stderr
    assert "market" in result.stderr and "skirmish" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_the_reference_of_a_deck_named_in_a_script_donjons_fonts_lack_draws_it_in_the_decks_fonts(
        tmp_path: Path) -> None:
    """A deck named in Georgian, its layout writing in a font that has Georgian: `content check` passed, its cards
    and its page line drew the name, but `donjon reference` stopped at "cannot draw ...: the font Open Sans has no
    glyph for 'დ'". The reference now draws what Cardo and Open Sans lack in the deck's own fonts, as the cards do:
    the title, the running header, the footer, the cards' names and values."""
    folder = tmp_path / "content" / "dragons"
    (folder / "fonts").mkdir(parents=True)
    for face in ("DejaVuSerifCondensed.ttf", "DejaVuSerifCondensed-Bold.ttf"):
        shutil.copy(SAMPLE_DECKS / "fonts" / face, folder / "fonts" / face)
    (folder / "deck.yaml").write_text("id: dragons\nname: დრაკონები\ncard_size: poker\n"
                                      "layout: layout.yaml\ncards: cards.csv\n", encoding="utf-8")
    (folder / "layout.yaml").write_text(
        "extends: generic\nfonts:\n  dv: {regular: fonts/DejaVuSerifCondensed.ttf, bold: "
        "fonts/DejaVuSerifCondensed-Bold.ttf}\nstyles:\n  name: {font: dv-bold, size: 14pt, min_size: 8pt, "
        "align: center, valign: middle, wrap: false}\n  body: {font: dv, size: 10pt, min_size: 6.5pt}\n",
        encoding="utf-8")
    # pages enough for a header
    rows = "".join(f"ცეცხლი {n},{n % 5},ცეცხლს აფრქვევს {n}\n"
                   for n in range(1, 61))
    (folder / "cards.csv").write_text(f"name,cost,text\n{rows}", encoding="utf-8")
    assert run("content", "check", str(folder)).exit_code == 0
    result = run("reference", "dragons", "--content", str(folder), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    pages = page_texts(tmp_path / "out" / "references" / "decks" / "dragons-reference.pdf")
    assert len(pages) > 1
    assert "დრაკონები" in pages[0]
    assert "ცეცხლი 60" in pages[-1] and "ცეცხლს აფრქვევს 60" in pages[-1]
    # the running header, its section, the footer
    assert all(page.count("დრაკონები") == 3 for page in pages[1:])
