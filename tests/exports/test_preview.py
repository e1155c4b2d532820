"""`donjon preview`: the page parses, shows every card with its count and every PDF, holds text as text, and
needs nothing outside its folder."""

from __future__ import annotations

import re

import shutil
from pathlib import Path

import pytest

from tests.exports.helpers import FLAT, check_html, make_deck, open_png, run

HOSTILE = [
    "<script>alert(1)</script>",
    "Salt & Pepper",
    "\"Quoted\" and 'single'",
    "{{ 7 * 7 }}",
    "{% if true %}yes{% endif %}",
    "</svg></figcaption></html>",
]


def preview(tmp_path: Path, *args: str) -> tuple[Path, str]:
    out = tmp_path / "out"
    result = run("preview", "--out", str(out), *args)
    assert result.exit_code == 0, result.stderr
    page = out / "preview" / "index.html"
    return page, page.read_text(encoding="utf-8")


def local_targets(page: Path, text: str) -> list[tuple[str, str]]:
    checker = check_html(text)
    return [(tag, attrs["src"] if tag == "img" else attrs["href"]) for tag, attrs in checker.tags
            if (tag == "img" and "src" in attrs) or (tag == "a" and not attrs.get("href", "#").startswith("#"))]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The preview of the shipped games, with PDFs in the output folder as `donjon build all` leaves them."""
    out = tmp_path_factory.mktemp("preview")
    assert run("build", "guildhall/old-world-economy-vp", "--out", str(out), "--format", "pdf").exit_code == 0
    vp = out / "guildhall" / "old-world-economy-vp.pdf"
    # stand-ins for the score sheets and references (a PDF with a game's id on its path is shown under that game)
    (out / "score-sheets" / "once-upon-a-castle").mkdir(parents=True)
    shutil.copy(vp, out / "score-sheets" / "once-upon-a-castle" / "castle-sheet.pdf")
    (out / "references").mkdir()
    shutil.copy(vp, out / "references" / "guildhall-reference.pdf")
    (out / "notes").mkdir()
    shutil.copy(vp, out / "notes" / "odd & <one>.pdf")
    (out / "broken.pdf").write_bytes(b"%PDF-1.4 this is not a PDF")
    result = run("preview", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "warning: preview: " in result.stderr and "broken.pdf" in result.stderr
    page = out / "preview" / "index.html"
    return page, page.read_text(encoding="utf-8")


def test_the_page_parses_and_every_image_and_link_is_in_the_output_folder(shipped: tuple[Path, str]) -> None:
    page, text = shipped
    targets = local_targets(page, text)
    # the cards and backs, and the first 4 pages of the 4 readable PDFs
    assert len([t for t in targets if t[0] == "img"]) == 147 + 4 * 4
    root = page.parent.parent.resolve()
    for _tag, target in targets:
        assert "://" not in target and not target.startswith("/"), target
        from urllib.parse import unquote

        path = (page.parent / unquote(target)).resolve()
        assert path.is_file(), target
        assert root in path.parents
    for _tag, target in targets:
        if target.endswith(".png"):  # transparent corners for Guédelon's floor tiles, cut round; no others
            image = open_png(page.parent / target)
            assert image.has_transparency_data == ("floor-tiles" in target), target


def test_the_page_s_images_are_written_small_and_show_the_cards_as_rendered(shipped: tuple[Path, str]) -> None:
    """The shipped games' 294 images took 10.4 MB (each written as the PNG export writes it: every colour of its
    pixels kept); those of few colours (flat colours, the edges of letters) are written with a palette of 256 where
    that moves no pixel visibly, and take a third of that. Guédelon's tiles cut round (46 images, with a rim of
    transparency) kept all their colours, 4.4 MB in all; their palette holds the rim's alphas: 3.4 MB."""
    page, _text = shipped
    images = [image for image in sorted(page.parent.rglob("*.png")) if "documents" not in image.parts]
    assert len(images) == 294  # each card and back, and its thumbnail
    assert sum(image.stat().st_size for image in images) < 4_000_000
    assert sum(open_png(image).mode == "P" for image in images) > 280


def test_an_image_of_few_colours_takes_a_palette_that_changes_no_pixel_visibly() -> None:
    """A card's flat colours and smoothed edges (a few hundred colours) take a palette, each pixel within
    PALETTE_MOST_OFF of the render; a gradient of many colours keeps them all (as the PNG export writes it); the
    same pixels give the same bytes."""
    import io

    from PIL import Image, ImageChops, ImageDraw

    from generator.export.preview import PALETTE_MOST_OFF, _preview_png
    from generator.export.raster import Raster, png_bytes

    card = Image.new("RGB", (300, 200), (240, 230, 200))
    draw = ImageDraw.Draw(card)
    draw.ellipse((20, 20, 120, 120), fill=(40, 120, 60))
    draw.text((140, 60), "Trader 4+", fill=(20, 20, 20))
    card = card.resize((450, 300), Image.Resampling.LANCZOS)  # smoothed edges: many near colours
    written = _preview_png(Raster.of(card), 150)
    shown = Image.open(io.BytesIO(written))
    assert shown.mode == "P" and shown.info["dpi"] == pytest.approx((150, 150), abs=0.1)
    extremes = ImageChops.difference(card, shown.convert("RGB")).getextrema()
    assert max(channel[1] for channel in extremes if isinstance(channel, tuple)) <= PALETTE_MOST_OFF
    assert len(extremes) == 3  # one (low, high) a channel
    assert written == _preview_png(Raster.of(card), 150)
    ramp = Image.new("RGB", (256, 64))
    ramp.putdata([(x, (x * 7) % 256, y * 4) for y in range(64) for x in range(256)])
    assert _preview_png(Raster.of(ramp)) == png_bytes(Raster.of(ramp))


def test_a_piece_cut_round_takes_a_palette_with_its_rim_s_transparency_kept() -> None:
    """A tile cut round (its corners' smoothed rim see-through in steps) of a few hundred colours takes a palette
    whose entries hold their alpha: every pixel within PALETTE_MOST_OFF of the render in all four channels, the
    rim's transparency as rendered. Such images kept all their colours (a palette over four channels moved the rim
    by up to 107); the same pixels give the same bytes."""
    import io

    from PIL import Image, ImageChops, ImageDraw

    from generator.export.preview import PALETTE_MOST_OFF, _preview_png
    from generator.export.raster import Raster

    big = Image.new("RGBA", (600, 400), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle((0, 0, 599, 399), radius=60, fill=(240, 230, 200, 255))
    draw.rectangle((0, 0, 599, 80), fill=(110, 70, 40, 255))
    draw.ellipse((40, 120, 200, 280), fill=(40, 120, 60, 255))
    draw.text((240, 180), "B2 2 cordes sur la grue", fill=(20, 20, 20, 255))
    tile = big.resize((300, 200), Image.Resampling.LANCZOS)  # smoothed edges and rim
    assert any(0 < alpha < 255 for alpha in tile.getchannel("A").tobytes())
    written = _preview_png(Raster.of(tile))
    shown = Image.open(io.BytesIO(written))
    assert shown.mode == "P"
    extremes = ImageChops.difference(tile, shown.convert("RGBA")).getextrema()
    assert len(extremes) == 4 and max(channel[1] for channel in extremes if isinstance(channel, tuple)) \
        <= PALETTE_MOST_OFF
    assert shown.convert("RGBA").getchannel("A").tobytes() == tile.getchannel("A").tobytes()
    assert written == _preview_png(Raster.of(tile))


def test_every_deck_and_card_is_shown_with_its_count(shipped: tuple[Path, str]) -> None:
    from generator.content import load_content
    from generator.content import all_decks

    _page, text = shipped
    checker = check_html(text)
    alts = [attrs["alt"] for tag, attrs in checker.tags if tag == "img"]
    words = " ".join(" ".join(checker.text).split())
    for deck in all_decks(load_content(None)):
        assert f"{deck.name}: back" in alts
        assert f"{deck.total} cards, {len(deck.cards)} different" in words
        for card in deck.cards:
            assert card.name in alts
            assert f"{card.name} × {card.copies}" in words
    assert "8 decks, 412 cards in 3 games" in words


def test_pdfs_in_the_output_folder_are_shown_where_they_belong(shipped: tuple[Path, str]) -> None:
    _page, text = shipped
    sections = text.split('<section id="')
    guildhall = next(s for s in sections if s.startswith("game-guildhall-documents"))
    assert "references/guildhall-reference.pdf" in guildhall and "8 pages; the first 4 are shown" in guildhall
    castle = next(s for s in sections if s.startswith("game-once-upon-a-castle-documents"))
    assert "score-sheets/once-upon-a-castle/castle-sheet.pdf" in castle
    vp = next(s for s in sections if s.startswith("deck-guildhall-old-world-economy-vp"))
    assert 'href="../guildhall/old-world-economy-vp.pdf"' in vp
    others = next(s for s in sections if s.startswith("other-documents"))
    assert "broken.pdf" in others and "this PDF cannot be read" in others
    assert "notes/odd &amp; &lt;one&gt;.pdf" in others
    assert 'href="../notes/odd%20%26%20%3Cone%3E.pdf"' in others


def test_the_page_is_self_contained(shipped: tuple[Path, str]) -> None:
    from generator.export.preview import RELOAD_SCRIPT, VERSION_FILE, script_hash

    page, text = shipped
    checker = check_html(text)
    assert not [tag for tag, _attrs in checker.tags if tag in ("link", "iframe", "object", "embed")]
    # one script, donjon's own reloader, and the page's policy lets only that one run (by its hash)
    assert [tag for tag, _attrs in checker.tags if tag == "script"] == ["script"]
    assert f"<script>{RELOAD_SCRIPT}</script>" in text
    policy = next(attrs["content"] for tag, attrs in checker.tags if tag == "meta" and attrs.get("http-equiv"))
    assert f"script-src {script_hash(RELOAD_SCRIPT)};" in policy and "unsafe-inline'; connect" not in policy
    assert "http://" not in text and "https://" not in text and "@import" not in text and "url(" not in text
    version = (page.parent / VERSION_FILE).read_text(encoding="ascii").strip()
    assert re.fullmatch(r"[0-9a-f]{16}", version) and f'data-version="{version}"' in text


def test_the_note_on_values_no_rulebook_states_is_for_the_shipped_games(shipped: tuple[Path, str],
                                                                         tmp_path: Path) -> None:
    """The page of a deck of one's own ended on a note about values "not stated by any rulebook" and how sure
    donjon is of them: a deck of one's own has no rulebook, and its cards no such small print."""
    note = "not stated by any rulebook"
    assert note in "".join(check_html(shipped[1]).text)
    deck = make_deck(tmp_path / "deck", [{"name": "Mine", "colour": "#e01010"}], layout=FLAT)
    _page, text = preview(tmp_path, "--content", str(deck))
    words = "".join(check_html(text).text)
    assert "Made by donjon." in words and note not in words


def test_a_deck_of_ones_own_is_named_once(shipped: tuple[Path, str], tmp_path: Path) -> None:
    """A deck of one's own is a "game" of its own: the page said "Market" as a game, then "Market" as its deck,
    with "1 deck, 11 cards" between, and the index listed it twice. Now once, with its cards; the shipped games
    keep their decks under them."""
    content = tmp_path / "content"
    for name in ("one", "two"):
        make_deck(content / name, [{"name": "Mine", "colour": "#e01010"}], layout=FLAT, deck_id=name,
                  name=name.title())
    _page, text = preview(tmp_path, "--content", str(content))
    assert re.findall(r"<h[23]>([^<]*)</h[23]>", text) == ["One", "Two"]
    assert "2 decks, 2 cards. Click" in text and "games" not in text  # not "in 2 games": each deck is no game
    assert re.findall(r'<a href="#[^"]*">([^<]*)</a>', text) == ["One", "Two"]
    shipped_headings = re.findall(r"<h([23])>([^<]*)</h[23]>", shipped[1])
    assert ("2", "Guildhall") in shipped_headings and ("3", "Old World Economy: professions") in shipped_headings


def test_hostile_text_is_shown_as_text(tmp_path: Path) -> None:
    # a flat layout: the names are only in the page (how cards print such text is tested with the layouts)
    rows = [{"name": name, "colour": "#e01010"} for name in HOSTILE]
    deck = make_deck(tmp_path / "deck", rows, layout=FLAT, name="<b>Deck</b> & {{ deck }}")
    page, text = preview(tmp_path, "--content", str(deck))
    checker = check_html(text)
    assert [tag for tag, _attrs in checker.tags if tag == "script"] == ["script"]  # donjon's reloader only
    assert "<script>alert" not in text and "<b>Deck" not in text
    words = "".join(checker.text)
    alts = [attrs["alt"] for tag, attrs in checker.tags if tag == "img"]
    for name in HOSTILE:
        assert name in words and name in alts  # literally, neither run as a template nor read as markup
    assert "49" not in words and "yes" not in words.replace("{% if true %}yes{% endif %}", "")
    assert "<b>Deck</b> & {{ deck }}" in words
    assert len(list((page.parent / "img").rglob("*.png"))) == len(HOSTILE) + 1


def test_no_pdfs_and_a_second_run_replace_the_page(tmp_path: Path) -> None:
    deck = make_deck(tmp_path / "deck", [{"name": "One"}, {"name": "Two"}])
    page, first = preview(tmp_path, "--content", str(deck))
    assert "Sheets and references" not in first and "Other documents" not in first
    stale = page.parent / "img" / "stale.png"
    stale.write_bytes(b"old")
    page, second = preview(tmp_path, "--content", str(deck))
    assert second == first and not stale.exists()  # the folder is replaced whole
    assert [p.name for p in page.parent.parent.iterdir()] == ["preview"]  # no staging folder left behind


def test_pages_of_any_shape_are_shown_at_a_bounded_size(tmp_path: Path) -> None:
    from reportlab.pdfgen.canvas import Canvas

    out = tmp_path / "out"
    (out / "odd").mkdir(parents=True)
    pdf = Canvas(str(out / "odd" / "shapes.pdf"))
    for size in ((100, 5000), (2000, 300), (595, 842)):  # a strip, a banner, A4
        pdf.setPageSize(size)
        pdf.rect(10, 10, size[0] - 20, size[1] - 20, fill=1)
        pdf.showPage()
    pdf.save()
    deck = make_deck(tmp_path / "deck", [{"name": "One", "colour": "#e01010"}], layout=FLAT)
    result = run("preview", "--out", str(out), "--content", str(deck))
    assert result.exit_code == 0, result.stderr
    checker = check_html((out / "preview" / "index.html").read_text(encoding="utf-8"))
    pages = [attrs for tag, attrs in checker.tags if tag == "img" and "documents" in attrs["src"]]
    assert len(pages) == 3
    for attrs, (w, h) in zip(pages, ((100, 5000), (2000, 300), (595, 842))):
        image = open_png(out / "preview" / attrs["src"])
        assert image.size == (2 * int(attrs["width"]), 2 * int(attrs["height"]))
        assert max(image.width, image.height / 2) <= 640 + 1
        assert abs(image.width / image.height - w / h) < 0.05 * w / h + 0.02


def test_pdfium_saying_success_on_a_failure_is_not_repeated() -> None:
    """pdfium reports some failures with its last error code, "Success": the warning says something true."""
    from generator.export.raster import pdfium_reason

    assert pdfium_reason(Exception("Failed to load page (PDFium: Success).")) == "pdfium cannot read it"
    assert pdfium_reason(Exception("Failed to load document (PDFium: Data format error).")) == \
        "Failed to load document (PDFium: Data format error)"
