"""`donjon build` end to end: every shipped deck, fonts, determinism, options, safe names, failed builds."""

from __future__ import annotations

import os
import subprocess
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from generator.catalog.common import CardSize
from generator.catalog.deck import Card, Deck
from generator.build.decks import build_deck
from generator.build.options import BuildOptions
from render_helpers import REPO, make_deck, page_count, run

EXPECTED = {  # deck -> (cards, pages on A4 portrait, duplex long)
    "guildhall/old-world-economy-professions.pdf": (120, 28),
    "guildhall/job-faire-professions.pdf": (120, 28),
    "guildhall/old-world-economy-vp.pdf": (30, 8),
    "guildhall/job-faire-vp.pdf": (30, 8),
    "guildhall/vp-tokens.pdf": (52, 2),  # 108 tokens of 22 mm fit a page
    "guedelon/events.pdf": (18, 4),
    "guedelon/floor-tiles.pdf": (22, 6),  # 8 square tiles a page
    "once-upon-a-castle/great-architect-guests.pdf": (20, 6),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("all")
    result = run("build", "all", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "Built 8 decks: 412 cards" in result.stdout
    return out


def test_every_shipped_deck_builds_with_its_pages(built: Path) -> None:
    # the card references (tests/reference) and the castle score sheets (tests/sheets) are the other PDFs
    pdfs = sorted(str(p.relative_to(built)) for p in built.rglob("*.pdf")
                  if not p.name.endswith("-reference.pdf") and not p.name.startswith("castle-sheet"))
    assert pdfs == sorted(EXPECTED)
    for name, (_cards, pages) in EXPECTED.items():
        assert page_count(built / name) == pages, name


def test_every_card_has_an_svg_and_a_back(built: Path) -> None:
    counts = {"guildhall/old-world-economy-professions": 30, "guildhall/old-world-economy-vp": 9,
              "guildhall/vp-tokens": 1, "guedelon/events": 18, "guedelon/floor-tiles": 22,
              "once-upon-a-castle/great-architect-guests": 20}
    for deck, faces in counts.items():
        files = sorted((built / deck / "svg").glob("*.svg"))
        assert len(files) == faces + 1 and (built / deck / "svg" / "back.svg").is_file(), deck
    for svg in built.rglob("*.svg"):
        root = ET.parse(svg).getroot()  # every SVG is well-formed XML
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert root.get("width", "").endswith("mm")


def _fonts(pdf: Path) -> list[Any]:
    import pikepdf

    with pikepdf.open(pdf) as doc:
        return [(str(o.get("/BaseFont")), o.get("/Subtype"), o.get("/FontDescriptor"))
                for o in doc.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"]


def test_fonts_are_embedded_subsets_and_nothing_else(built: Path) -> None:
    import pikepdf

    for pdf in built.rglob("*.pdf"):
        # what is typed into a fillable sheet's fields shows in Helvetica and its ticks in ZapfDingbats, the fonts a
        # PDF may name unembedded
        fillable = pdf.name.endswith("-fillable.pdf")
        with pikepdf.open(pdf) as doc:
            form_fonts = {f.objgen for f in doc.Root.AcroForm.DR.Font.values()} if fillable else set()
            fonts = [o for o in doc.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"]
            assert fonts, pdf
            for font in fonts:
                name = str(font.get("/BaseFont"))
                if font.objgen in form_fonts:
                    assert name in ("/Helvetica", "/ZapfDingbats"), f"{pdf}: {name}"
                    continue
                assert re.fullmatch(r"/[A-Z]{6}\+(Cardo|OpenSans)(-Bold|-Italic)?", name), f"{pdf}: {name}"
                assert font.get("/Subtype") == "/TrueType"
                descriptor = font.get("/FontDescriptor")
                assert descriptor is not None and "/FontFile2" in descriptor, f"{pdf}: {name} is not embedded"
                original = (REPO / "templates" / "fonts").glob("*.ttf")
                assert len(descriptor.FontFile2.read_bytes()) < min(p.stat().st_size for p in original)
        if not fillable:
            assert b"Helvetica" not in pdf.read_bytes()


def test_builds_are_byte_identical(tmp_path: Path, built: Path) -> None:
    again = tmp_path / "again"
    assert run("build", "all", "--out", str(again)).exit_code == 0
    first = sorted(p.relative_to(built) for p in built.rglob("*") if p.is_file())
    second = sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    assert first == second
    for name in first:
        assert (built / name).read_bytes() == (again / name).read_bytes(), name


def test_unique_prints_one_of_each(tmp_path: Path) -> None:
    result = run("build", "guildhall/old-world-economy-professions", "--unique", "--format", "pdf", "--out",
                 str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert "30 cards" in result.stdout
    assert page_count(tmp_path / "guildhall" / "old-world-economy-professions.pdf") == 8  # 4 sheets of 9


@pytest.mark.parametrize(("args", "pages"), [
    (("--paper", "letter"), 28), (("--orientation", "landscape"), 30), (("--duplex", "none"), 14),
    (("--duplex", "short", "--paper", "letter", "--orientation", "landscape"), 30),
    (("--bleed",), 40),  # with 3 mm of bleed each, A4 portrait holds 2 x 3 poker cards
    (("--bleed", "--orientation", "landscape"), 40),  # 3 x 2 there too: the page line needs the side margin
    (("--paper", "letter", "--orientation", "landscape", "--gutter", "2mm", "--duplex", "none"), 15),
])
def test_page_counts_for_each_paper_and_mode(tmp_path: Path, args: tuple[str, ...], pages: int) -> None:
    result = run("build", "guildhall/job-faire-professions", "--format", "pdf", "--out", str(tmp_path), *args)
    assert result.exit_code == 0, result.stderr
    assert page_count(tmp_path / "guildhall" / "job-faire-professions.pdf") == pages


@pytest.mark.parametrize(("args", "message"), [
    (("--paper", "b3"), "--paper: 'b3' is not one of a4, letter, a3, a5, legal, tabloid nor a size like 330x480mm"),
    (("--orientation", "sideways"), "--orientation: 'sideways' is not one of portrait, landscape"),
    (("--duplex", "both"), "--duplex: 'both' is not one of long, short, none"),
    (("--crop-width", "0.1"), "--crop-width: 0.1 pt is out of range; it must be from 0.25 to 3 pt"),
    (("--crop-length", "-2mm"), "--crop-length: -2 mm is out of range"),
    (("--gutter", "1km"), "--gutter: '1km' is not a length"),
    (("--bleed-size", "20mm"), "--bleed-size: 20 mm is out of range; it must be from 0.5 to 6.35 mm"),
    (("--no-bleed", "--bleed-size", "3mm"), "--bleed-size: cannot be used with --no-bleed"),
    (("--back-offset", "50,0"), "--back-offset: 50 mm is out of range"),
    (("--back-offset", "1"), "--back-offset: '1' is not X,Y in millimetres"),
    (("--format", "png"), "--format: 'png': choose pdf, svg or pdf,svg"),
    (("nonsense",), "'nonsense' names no game or deck"),
    (("--content", "/no/such/folder"), "/no/such/folder: no such content folder"),
])
def test_bad_options_name_the_option(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result = run("build", "--out", str(tmp_path / "out"), *args)
    assert result.exit_code == 2, result.stdout
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_out_that_is_a_file(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    result = run("build", "guedelon/events", "--out", str(target))
    assert result.exit_code == 3
    assert "--out" in result.stderr and "is a file" in result.stderr


def test_out_that_is_not_writable(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    # root ignores permission bits; the immutable attribute stops even root
    as_root = os.geteuid() == 0
    if as_root:
        if subprocess.run(["chattr", "+i", str(locked)], capture_output=True).returncode != 0:
            pytest.skip("root, and chattr cannot make the folder immutable here")
    else:
        locked.chmod(0o500)
    try:
        result = run("build", "guedelon/events", "--out", str(locked))
        assert result.exit_code == 3 and "not writable" in result.stderr
    finally:
        if as_root:
            subprocess.run(["chattr", "-i", str(locked)], check=False)
        else:
            locked.chmod(0o700)


def test_a_deck_of_ones_own(tmp_path: Path) -> None:
    deck = make_deck(tmp_path / "mine", [{"name": "Fireball", "cost": "3", "text": "Deal 3 damage. Gain {wood}."},
                                         {"name": "Shield", "cost": "", "text": "Block."}])
    out = tmp_path / "out"
    result = run("build", "--content", str(deck), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert (out / "decks" / "test-deck.pdf").is_file()
    assert sorted(p.name for p in (out / "decks" / "test-deck" / "svg").iterdir()) == [
        "001-fireball.svg", "002-shield.svg", "back.svg"]
    back = (out / "decks" / "test-deck" / "svg" / "back.svg").read_text(encoding="utf-8")
    assert ">Test deck</text>" in back  # a deck without a back gets the generic back with its name


def test_card_text_prints_literally_in_svg_and_pdf(tmp_path: Path) -> None:
    hostile = "Tom & Jerry <b>bold</b> \"quoted\" 'single' </svg> {{ x }} {% if y %}z{% endif %} **stars**"
    deck = make_deck(tmp_path / "mine", [{"name": "Odd <name> & co", "text": hostile}])
    out = tmp_path / "out"
    assert run("build", "--content", str(deck), "--out", str(out)).exit_code == 0
    svg = out / "decks" / "test-deck" / "svg" / "001-odd-name-co.svg"
    root = ET.parse(svg).getroot()
    texts = " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "Odd <name> & co" in texts
    for fragment in ("Tom & Jerry", "<b>bold</b>", '"quoted"', "'single'", "</svg>", "{{", "x }}", "{%", "**stars**"):
        assert fragment in texts, fragment
    import pypdf

    extracted = pypdf.PdfReader(out / "decks" / "test-deck.pdf").pages[0].extract_text()
    for fragment in ("Tom & Jerry", "<b>bold</b>", "</svg>", "{{ x }}", "**stars**"):
        assert fragment in extracted, fragment


def test_text_too_long_fails_naming_the_card_and_field(tmp_path: Path) -> None:
    rows = [{"name": f"Card {i}", "text": "Fine."} for i in range(60)]
    rows[49]["text"] = "far too long " * 200
    deck = make_deck(tmp_path / "mine", rows)
    result = run("build", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    # the card by its name and its row of the table, then the layout's box and where that box is written
    assert "test-deck: card 'Card 49' (" in result.stderr and "mine/cards.csv:51): the text of box 'body' (" in result.stderr
    assert "templates/layouts/generic.yaml:" in result.stderr
    assert "does not fit" in result.stderr and "at 6.5 pt, the smallest size allowed" in result.stderr


def test_a_failed_build_leaves_the_previous_files_as_they_were(tmp_path: Path) -> None:
    rows = [{"name": f"Card {i}", "text": "Fine."} for i in range(60)]
    deck = make_deck(tmp_path / "mine", rows)
    out = tmp_path / "out"
    assert run("build", "--content", str(deck), "--out", str(out)).exit_code == 0
    pdf = out / "decks" / "test-deck.pdf"
    svg = out / "decks" / "test-deck" / "svg"
    before = pdf.read_bytes()
    before_svg = {p.name: p.read_bytes() for p in svg.iterdir()}
    rows[49]["text"] = "far too long " * 200
    rows[0]["text"] = "Changed, so a half-written build would show."
    make_deck(tmp_path / "mine", rows)
    assert run("build", "--content", str(deck), "--out", str(out)).exit_code == 1
    assert pdf.read_bytes() == before
    assert {p.name: p.read_bytes() for p in svg.iterdir()} == before_svg
    leftovers = [p.name for p in out.rglob("*") if p.name.startswith(".")]
    assert leftovers == []


def test_hostile_ids_stay_inside_the_output_folder(tmp_path: Path) -> None:
    size = CardSize("poker", 63, 88)
    cards = tuple(Card(cid, "Name", 1, {"text": "x"}) for cid in ("../../escape", "/etc/passwd", "CON", "a/../../b"))
    deck = Deck("../../game", "Game", "../../../deck", "Deck", "generic", None, size, cards,
                folder=tmp_path / "folder")
    out = tmp_path / "out"
    out.mkdir()
    from generator.content import Content

    build_deck(Content(tmp_path), deck, out, BuildOptions(), lambda n: None)
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written and all(out.resolve() in p.resolve().parents for p in written)
    assert len(list(out.rglob("*.svg"))) == 5


def test_progress_bar_only_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.commands.build as command

    quiet = run("build", "guedelon/events", "--format", "pdf", "--out", str(tmp_path))
    assert "Drawing cards" not in quiet.stderr
    monkeypatch.setattr(command, "is_terminal", lambda: True)
    shown = run("build", "guedelon/events", "--format", "pdf", "--out", str(tmp_path))
    assert shown.exit_code == 0 and "Drawing cards" in shown.stderr


def test_the_report_says_what_was_written(tmp_path: Path) -> None:
    result = run("build", "guedelon", "--out", str(tmp_path))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert any(re.fullmatch(r"wrote .*guedelon/events\.pdf: 4 pages, 18 cards", line) for line in lines)
    assert any(re.fullmatch(r"wrote .*guedelon/floor-tiles/svg/: 23 SVG files", line) for line in lines)
    found = re.fullmatch(r"Built 2 decks: 40 cards on (\d+) pages, 4\d files in \d+\.\d\d s \(\d+ cards/s\)\.",
                         lines[-1])
    assert found, lines[-1]
    # the decks' 10 pages and the game's card reference
    assert int(found.group(1)) == 10 + page_count(tmp_path / "references" / "guedelon-reference.pdf")


def test_content_check_reports_layout_problems(tmp_path: Path) -> None:
    layout = "extends: generic\nboxes:\n  power: {kind: text, x: 5mm, y: 60mm, width: 20mm, height: 6mm, style: body, " \
             "text: \"{{ power }}\"}\n"
    make_deck(tmp_path / "mine", [{"name": "A", "text": "x"}, {"name": "B", "text": "y"}], layout=layout)
    result = run("content", "check", str(tmp_path))
    assert result.exit_code == 1
    assert re.search(r"mine/layout\.yaml:3: boxes\.power\.text: test-deck: card 'A' \(\S+/mine/cards\.csv:2\): 'power' is undefined "
                     r"\(the layout reads a value this card does not have\) \(and 1 more card: 'B'\)", result.stderr)


def test_content_check_counts_the_cards_a_problem_is_met_on_not_the_languages(tmp_path: Path) -> None:
    """A deck of three cards with French columns: a mistake in the layout itself, met as each language's copy of
    the deck loads it, said "(and 1 more card)"; a card's own, met in English and in French, counted that card
    twice. Each is counted on the cards it is met on, once each, and those cards are named (a picture missing on
    several cards is likely missing on each, its own file: "(and 2 more cards)" left the designer to find which)."""
    rows = [{"name": n, "name@fr": f"{n} (fr)", "text": "x"} for n in ("A", "B", "C")]
    make_deck(tmp_path / "mine", rows, layout="extends: generic\nboxes:\n  body: {clip: {kind: rect}}\n")
    result = run("content", "check", str(tmp_path))
    assert result.exit_code == 1 and "boxes.body.clip: " in result.stderr, result.output
    assert "more card" not in result.stderr, result.stderr
    layout = "extends: generic\nboxes:\n  power: {kind: text, x: 5mm, y: 60mm, width: 20mm, height: 6mm, " \
             "style: body, text: \"{{ power }}\"}\n"
    make_deck(tmp_path / "mine", rows, layout=layout)
    result = run("content", "check", str(tmp_path))
    assert result.exit_code == 1 and "(and 2 more cards: 'B', 'C')" in result.stderr, result.stderr


def test_a_misspelt_column_is_named_with_the_column_meant(tmp_path: Path) -> None:
    """A layout reading `Color` from a table whose column is `Colour` (or `faction` for `Faction`) says which
    column it must have meant, by content check and build alike; a name close to none is said as before."""
    layout = "extends: generic\nboxes:\n  band: {kind: rect, x: 0, y: 0, width: 100%, height: 10mm, " \
             "fill: \"{{ Colour }}\"}\n  kind: {kind: text, x: 5mm, y: 60mm, width: 40mm, height: 6mm, " \
             "style: body, text: \"{{ Faction }}\"}\n"
    row = {"name": "A", "text": "x", "Colour": "#ff0000", "Faction": "Elves"}
    for folder, misread, meant in (("colour", "{{ Colour }}", "'Color' is undefined (the layout reads a value this "
                                                              "card does not have: did you mean 'Colour'?)"),
                                   ("case", "{{ Faction }}", "'faction' is undefined (the layout reads a value this "
                                                             "card does not have: did you mean 'Faction'?)"),
                                   ("far", "{{ Faction }}", "'allegiance' is undefined (the layout reads a value this "
                                                            "card does not have)\n")):
        wrong = {"colour": "{{ Color }}", "case": "{{ faction }}", "far": "{{ allegiance }}"}[folder]
        make_deck(tmp_path / folder / "mine", [row], layout=layout.replace(misread, wrong))
        for command in (("content", "check", str(tmp_path / folder)),
                        ("build", "--content", str(tmp_path / folder), "--out", str(tmp_path / folder / "out"))):
            result = run(*command)
            assert result.exit_code == 1
            assert meant in result.stderr, result.stderr


def test_content_check_reports_a_missing_layout(tmp_path: Path) -> None:
    make_deck(tmp_path / "mine", [{"name": "A", "text": "x"}], layout="no-such-layout")
    result = run("content", "check", str(tmp_path))
    assert result.exit_code == 1
    assert "mine/deck.yaml: layout: names no layout: 'no-such-layout' is not a shipped layout" in result.stderr


def test_shipped_content_checks_clean() -> None:
    result = run("content", "check")
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(("size", "per_page"), [
    ("poker", 9), ("bridge", 9), ("tarot", 4), ("mini", 16), ("square", 8),
    ("{width: 2.5in, height: 3.5in}", 9), ("{width: 50mm, height: 70mm}", 12),
])
def test_every_card_size_builds_with_the_generic_layout(tmp_path: Path, size: str, per_page: int) -> None:
    rows = [{"name": f"Card {i}", "cost": str(i), "text": "Some text with an icon {vp}."} for i in range(per_page + 1)]
    deck = make_deck(tmp_path / "mine", rows, extra=f"card_size: {size}\n")
    result = run("build", "--content", str(deck), "--out", str(tmp_path / "out"), "--duplex", "none")
    assert result.exit_code == 0, result.stderr
    assert page_count(tmp_path / "out" / "decks" / "test-deck.pdf") == 2  # one card more than a page holds


def test_the_layout_example_of_the_docs_builds(tmp_path: Path) -> None:
    docs = (REPO / "templates" / "README.md").read_text(encoding="utf-8")
    example = docs.split("An example:\n\n```yaml\n", 1)[1].split("```", 1)[0]
    rows = [{"name": "Ember", "colour": "#aa3322", "power": "Burn twice.", "text": "Deal 1 damage."},
            {"name": "Frost", "colour": "#3366aa", "power": "", "text": "Freeze."}]
    deck = make_deck(tmp_path / "mine", rows, layout=example)
    result = run("build", "--content", str(deck), "--out", str(tmp_path / "out"), "--format", "svg")
    assert result.exit_code == 0, result.stderr
    ember = (tmp_path / "out" / "decks" / "test-deck" / "svg" / "001-ember.svg").read_text(encoding="utf-8")
    assert "Burn twice." in ember and "Again!" in ember and 'fill="#aa3322"' in ember
    frost = (tmp_path / "out" / "decks" / "test-deck" / "svg" / "002-frost.svg").read_text(encoding="utf-8")
    assert "Again!" not in frost
