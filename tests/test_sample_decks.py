"""The sample decks of content/examples/decks: they check clean and build, use every designer feature they are
there to show, their art is what make_art.py draws, and a card with its own back gets it in every output (PDF
duplex and fold, SVG, PNG, Tabletop Simulator, DriveThruCards)."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from agreement import DPI, MOST_DIFFERING, RSVG, card_pairs, differing_share
from render_helpers import run

SAMPLES = REPO / "content" / "examples" / "decks"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("samples")
    result = run("build", "--content", str(SAMPLES), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    return out


def test_the_samples_check_clean() -> None:
    result = run("content", "check", str(SAMPLES))
    assert result.exit_code == 0, result.stderr
    assert "5 deck folders, 5 decks, 61 cards" in result.stdout


def test_the_samples_show_every_feature() -> None:
    """What the issue asks the samples to use is there: art in PNG, JPEG and SVG, a font of their own with its
    licence, a markup column, icons of their own, two layouts with their own backs, a spreadsheet."""
    skirmish = (SAMPLES / "skirmish" / "deck.yaml").read_text(encoding="utf-8")
    assert "layout_column: Kind" in skirmish and "icons: icons/" in skirmish
    rows = list(csv.DictReader((SAMPLES / "skirmish" / "cards.csv").open(encoding="utf-8")))
    suffixes = {Path(r["Art"]).suffix for r in rows}
    assert suffixes == {".png", ".jpg", ".svg"}
    assert any("**" in r["Text"] for r in rows) and any("{mana}" in r["Text"] for r in rows)
    assert any(r["Count"] == "0" for r in rows)
    shared = (SAMPLES / "shared" / "card.yaml").read_text(encoding="utf-8")
    assert "markup: true" in shared and "../fonts/DejaVuSerifCondensed.ttf" in shared
    assert (SAMPLES / "fonts" / "LICENSE").read_text(encoding="utf-8").startswith("Format:")
    assert (SAMPLES / "market" / "cards.xlsx").is_file() and "sheet: Goods" in (SAMPLES / "market" /
                                                                                "deck.yaml").read_text()


def test_the_samples_use_the_whole_vocabulary() -> None:
    """Every key the drawing vocabulary added is used by a sample deck, and there are pieces that are not cards."""
    import re

    from test_vocabulary import NEW_KEYS, NEW_KINDS

    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(SAMPLES.rglob("*.yaml")))
    keys = set(re.findall(r"([a-z_0-9]+):", text))
    assert set(NEW_KEYS) - {"hyphenate"} <= keys, sorted(set(NEW_KEYS) - keys)
    assert all(f"kind: {kind}" in text for kind in NEW_KINDS)
    assert "align: justify" in text and "pivot: card" in text and "| palette" in text
    assert "shape: hexagon" in text and "shape: circle" in text


@pytest.fixture(scope="module")
def exported(built: Path) -> Path:
    """The samples' SVGs (from `built`) and their PNGs, rendered from the PDF backend, at the comparison's dpi."""
    result = run("export", "png", "--content", str(SAMPLES), "--out", str(built), "--preset", "plain", "--dpi",
                 str(DPI), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    return built


needs_rsvg = pytest.mark.skipif(RSVG is None and not os.environ.get("CI"),
                                reason="needs rsvg-convert (apt-get install librsvg2-bin); CI installs it")


@needs_rsvg
def test_every_sample_card_looks_the_same_in_its_pdf_and_its_svg(exported: Path) -> None:
    """Each card and back of the sample decks, rendered from its PDF (pdfium, as every PNG) and from its SVG
    (librsvg), differs by no more than anti-aliasing: at most MOST_DIFFERING of its pixels (tests/render/agreement.py
    says how a pixel counts as different)."""
    decks = ("skirmish", "market", "quests", "tiles", "tokens")
    pairs = [pair for deck in decks for pair in card_pairs(exported, deck)]
    assert len(pairs) == 37
    shares = {name: differing_share(png, svg) for name, png, svg in pairs}
    worst = max(shares, key=lambda name: shares[name])
    assert shares[worst] <= MOST_DIFFERING, f"{worst}: {shares[worst]:.2%} of its pixels differ"


@needs_rsvg
def test_the_comparison_sees_a_gradient_printed_black(exported: Path, tmp_path: Path) -> None:
    """The fault of issue 23: a gradient that one output draws and the other prints black. The comparison fails."""
    svg = exported / "decks" / "skirmish" / "svg" / "1.svg"
    broken = tmp_path / "1.svg"
    text = svg.read_text(encoding="utf-8")
    assert 'fill="url(#gradient-1)"' in text
    broken.write_text(text.replace('fill="url(#gradient-1)"', 'fill="#000000"'), encoding="utf-8")
    assert differing_share(exported / "png" / "decks" / "skirmish" / "1.png", broken) > MOST_DIFFERING


def test_the_art_is_what_the_script_draws(tmp_path: Path) -> None:
    copy = tmp_path / "decks"
    shutil.copy(SAMPLES / "make_art.py", tmp_path / "make_art.py")
    copy.mkdir()
    script = (tmp_path / "make_art.py").read_text(encoding="utf-8").replace(
        "HERE = Path(__file__).resolve().parent", f"HERE = Path({str(copy)!r})")
    (tmp_path / "make_art.py").write_text(script, encoding="utf-8")
    result = subprocess.run([sys.executable, str(tmp_path / "make_art.py")], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    made = sorted(p.relative_to(copy) for p in copy.rglob("*") if p.is_file())
    assert len(made) == 24
    for relative in made:
        if relative.suffix == ".xlsx":  # a zip: its entries are compared, its timestamps fixed
            import zipfile

            with zipfile.ZipFile(copy / relative) as new, zipfile.ZipFile(SAMPLES / relative) as old:
                assert {n: new.read(n) for n in new.namelist()} == {n: old.read(n) for n in old.namelist()}
            continue
        assert (copy / relative).read_bytes() == (SAMPLES / relative).read_bytes(), relative


def test_each_picture_is_embedded_once_and_the_own_font_as_a_subset(built: Path) -> None:
    import pikepdf

    with pikepdf.open(built / "decks" / "skirmish.pdf") as doc:
        images = [o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        # knight, archer, dragon (PNG), goblin, troll (JPEG), the sword icon (PNG) and its alpha: 7 images
        assert len(images) == 7
        forms = [o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"]
        fonts = {str(o.BaseFont)[8:] for o in doc.objects if isinstance(o, pikepdf.Dictionary)
                 and o.get("/Type") == "/Font"}
    assert {"DejaVuSerifCondensed", "DejaVuSerifCondensed-Bold", "DejaVuSerifCondensed-Italic"} <= fonts
    assert len(forms) >= 6  # the four spells, the mana icon and the spells' back as vector forms (and cards)


def test_units_and_spells_get_their_own_backs_behind_them(built: Path) -> None:
    import pikepdf

    with pikepdf.open(built / "decks" / "skirmish.pdf") as doc:
        assert len(doc.pages) == 6  # 21 cards: three sheets of fronts, each followed by its backs
    svg = built / "decks" / "skirmish" / "svg"
    assert not (svg / "back.svg").exists()
    assert sorted(p.name for p in (svg / "backs").iterdir())[:2] == ["1.svg", "2.svg"]
    knight = (svg / "backs" / "1.svg").read_text(encoding="utf-8")
    fireball = (svg / "backs" / "6.svg").read_text(encoding="utf-8")
    assert "Kingdom" in knight and '<symbol id="picture-1"' in fireball  # a unit's back reads its faction
    market = built / "decks" / "market" / "svg"
    assert (market / "back.svg").is_file() and not (market / "backs").exists()  # one back for the whole deck


def test_the_samples_fold_and_export(tmp_path: Path) -> None:
    import pikepdf

    out = tmp_path / "out"
    assert run("build", "skirmish", "--content", str(SAMPLES), "--out", str(out), "--duplex", "fold",
               "--format", "pdf").exit_code == 0
    with pikepdf.open(out / "decks" / "skirmish.pdf") as doc:
        assert len(doc.pages) == 7  # 21 cards, three pairs to an A4 portrait page
    result = run("export", "png", "skirmish", "--content", str(SAMPLES), "--out", str(out), "--preset", "dtc",
                 "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    folder = out / "png" / "decks" / "skirmish"
    rows = list(csv.DictReader((folder / "manifest.csv").open(encoding="utf-8")))
    assert [r["file"] for r in rows][:1] == ["1.png"] and "backs/1.png" in [r["file"] for r in rows]
    assert sum(int(r["copies"]) for r in rows if r["file"].startswith("backs/")) == 21
    from PIL import Image

    with Image.open(folder / "backs" / "6.png") as image:
        assert image.size == (825, 1125)  # DriveThruCards: 2.75 x 3.75 in at 300 dpi
    result = run("export", "tts", "skirmish", "--content", str(SAMPLES), "--out", str(out), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    tts = out / "tts" / "decks" / "skirmish"
    saved: dict[str, Any] = json.loads((tts / "skirmish.json").read_text(encoding="utf-8"))
    [entry] = saved["ObjectStates"][0]["CustomDeck"].values()
    assert entry["UniqueBack"] is True and entry["BackURL"].endswith("backs-1.png")
    assert (tts / "backs-1.png").is_file() and not (tts / "back.png").exists()


def test_drivethrucards_pdf_alternates_backs_and_fronts(tmp_path: Path) -> None:
    """Every card's back, then its front: DriveThruCards' page order (templates/services/drivethrucards.yaml,
    `order`). `export dtc` wrote the front first, which the service prints as the back: every card inside out."""
    import pikepdf

    out = tmp_path / "out"
    result = run("export", "dtc", "skirmish", "--content", str(SAMPLES), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "42 pages of 2.75 x 3.75 in (21 cards, back then front, RGB)" in result.stdout
    with pikepdf.open(out / "dtc" / "decks" / "skirmish.pdf") as doc:
        sizes = {tuple(round(float(v), 3) for v in page.mediabox) for page in doc.pages}
        assert sizes == {(0.0, 0.0, 198.0, 270.0)}
        images = [o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert len(images) == 7  # every picture once, for 42 pages
        assert len(doc.pages) == 42
    # pages 2 and 4 are the two Knights, 1 and 3 their backs (the Kingdom's); the last two, the spells' back and
    # Arcane shield
    knight_back, knight, knight_back_2, knight_2, last_back, last = _render(
        out / "dtc" / "decks" / "skirmish.pdf", [0, 1, 2, 3, 40, 41])
    assert knight == knight_2 and knight_back == knight_back_2
    assert len({knight, knight_back, last, last_back}) == 4
    words = [_text(out / "dtc" / "decks" / "skirmish.pdf", page) for page in (0, 1, 40, 41)]
    assert "Knight" not in words[0] and "Knight" in words[1]
    assert "Arcane shield" not in words[2] and "Arcane shield" in words[3]


def _text(pdf: Path, page: int) -> str:
    """The words of a page, as pdfium reads them."""
    from generator.pdfium_lock import PDFIUM

    with PDFIUM:
        import pypdfium2 as pdfium

        doc = pdfium.PdfDocument(pdf)
        try:
            loaded = doc[page]
            text = loaded.get_textpage()
            words = str(text.get_text_range())
            text.close()
            loaded.close()
        finally:
            doc.close()
    return words


def _render(pdf: Path, pages: list[int]) -> list[bytes]:
    from generator.pdfium_lock import page_image

    return [page_image(pdf, i, scale=0.25).tobytes() for i in pages]


def test_building_a_few_cards_by_position_and_name(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run("build", "skirmish", "--content", str(SAMPLES), "--out", str(out), "--cards", "1-2,Fireball",
                 "--format", "svg")
    assert result.exit_code == 0, result.stderr
    files = sorted(p.name for p in (out / "decks" / "skirmish" / "svg").glob("*.svg"))
    assert files == ["1.svg", "2.svg", "6.svg"]
    result = run("build", "--content", str(SAMPLES), "--out", str(out), "--cards", "1")
    assert result.exit_code == 2
    assert "--cards: picks cards of one deck; name it as TARGET (all is 5 decks: market/market, quests/quests, " \
           "skirmish/skirmish, tiles/tiles, tokens/tokens)" in result.stderr


def test_fold_refuses_a_back_offset(tmp_path: Path) -> None:
    result = run("build", "skirmish", "--content", str(SAMPLES), "--out", str(tmp_path), "--duplex", "fold",
                 "--back-offset", "1,0")
    assert result.exit_code == 2
    assert "--back-offset: means nothing with --duplex fold" in result.stderr


def test_the_deck_example_of_the_docs_builds(tmp_path: Path) -> None:
    """templates/README.md's deck.yaml, which shows every key, is a deck that builds once its files exist: a sheet
    picked by name, counts with a 0, a layout and back per card from a column, a shared layout by path, a font
    family and a folder of icons of one's own."""
    import re

    import pikepdf
    from openpyxl import Workbook

    import pictures

    docs = (REPO / "templates" / "README.md").read_text(encoding="utf-8")
    example = docs.split("`deck.yaml`:\n\n```yaml\n", 1)[1].split("```", 1)[0]
    deck = tmp_path / "content" / "my-deck"
    (deck / "fonts").mkdir(parents=True)
    (deck / "deck.yaml").write_text(example, encoding="utf-8")
    book = Workbook()
    first = book.active
    assert first is not None
    first.title = "Notes"
    first.append(["not", "the", "cards"])
    sheet = book.create_sheet("Spells")
    sheet.append(["ID", "Name", "Copies", "Kind", "cost", "text", "Faction"])
    sheet.append(["knight", "Knight", 2, "unit", 3, "Guard. Pay {mana}.", "Kingdom"])
    sheet.append(["fire-ball", "Fire Ball", 1, "spell", 2, "Deal 3 damage.", None])
    sheet.append(["goblin", "Goblin", 0, "unit", 1, "Left out.", "Horde"])
    sheet.append(["plain", "Plain card", None, None, None, "No kind: the deck's layout and back.", None])
    book.save(deck / "cards.xlsx")
    shutil.copy(SAMPLES / "fonts" / "DejaVuSerifCondensed.ttf", deck / "fonts" / "Fancy.ttf")
    shutil.copy(SAMPLES / "fonts" / "DejaVuSerifCondensed-Bold.ttf", deck / "fonts" / "Fancy-Bold.ttf")
    pictures.png(deck / "icons" / "mana.png", (64, 64))
    body = "styles:\n  body: {font: fancy, size: 10pt, min_size: 6pt, colour: ink}\n"
    (deck / "layout.yaml").write_text("extends: generic\n" + body, encoding="utf-8")
    (deck / "unit.yaml").write_text("extends: generic\n" + body, encoding="utf-8")
    (deck / "back.yaml").write_text("extends: generic-back\n", encoding="utf-8")
    (deck / "unit-back.yaml").write_text(
        'background: "#223355"\nstyles:\n  f: {font: fancy-bold, size: 14pt, colour: "#ffffff", align: center}\n'
        'boxes:\n  faction: {kind: text, x: 5mm, y: 40%, width: 100% - 10mm, height: 12mm, style: f, '
        'text: "{{ Faction }}"}\n', encoding="utf-8")
    (tmp_path / "content" / "shared").mkdir()
    (tmp_path / "content" / "shared" / "spell.yaml").write_text("extends: generic\n", encoding="utf-8")
    out = tmp_path / "out"
    result = run("build", "--content", str(tmp_path / "content"), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "wrote" in result.stdout and ": 2 pages, 4 cards" in result.stdout  # 2 Knights, a Fire Ball, a plain card
    svgs = out / "decks" / "spells" / "svg"
    assert sorted(p.name for p in svgs.glob("*.svg")) == ["fire-ball.svg", "knight.svg", "plain.svg"]
    assert "Kingdom" in (svgs / "backs" / "knight.svg").read_text(encoding="utf-8")  # the unit's own back
    with pikepdf.open(out / "decks" / "spells.pdf") as pdf:
        fonts = {str(f.get("/BaseFont")) for page in pdf.pages for f in _fonts(page)}
    assert any(re.search(r"DejaVuSerifCondensed(-Bold)?-", name) for name in fonts), fonts


def _fonts(page: Any) -> list[Any]:
    """The fonts a page uses, its forms' included."""
    found = []
    resources = page.obj.get("/Resources", {})
    found += list(resources.get("/Font", {}).values())
    for xobject in resources.get("/XObject", {}).values():
        found += list(xobject.get("/Resources", {}).get("/Font", {}).values())
    return found
