"""The card reference PDFs as a reader gets them: every card's name, the outline, links, page numbers, fonts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from reference_helpers import GAMES, flat, page_texts

from generator.content import Content, load_content
from generator.content import game_decks
from generator.build.references import write_reference
from generator.games.guildhall import GAME as GUILDHALL
from generator.games.guedelon import GAME as GUEDELON
from generator.games.castle import GAME as CASTLE


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


@pytest.fixture(scope="module")
def written(content: Content, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("references")
    return {game: write_reference(content, game, out).path for game in GAMES}


@pytest.fixture(scope="module")
def texts(written: dict[str, Path]) -> dict[str, list[str]]:
    return {game: page_texts(path) for game, path in written.items()}


def test_one_pdf_per_game_where_build_puts_it(written: dict[str, Path]) -> None:
    for game, path in written.items():
        assert path.parent.name == "references" and path.name == f"{game}-reference.pdf"
        assert path.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize("game", GAMES)
def test_every_card_name_is_in_the_text(content: Content, texts: dict[str, list[str]], game: str) -> None:
    whole = " ".join(texts[game])
    decks = [d for d in game_decks(content) if d.game == game]
    names = {card.name for deck in decks for card in deck.cards}
    assert names, game
    missing = sorted(name for name in names if flat(name) not in whole)
    assert not missing, f"{game}: card names missing from the reference: {missing}"


def test_the_cards_of_each_game_by_their_catalog_names(content: Content, texts: dict[str, list[str]]) -> None:
    guildhall, guedelon, castle = (" ".join(texts[g]) for g in GAMES)
    assert content.catalog(GUILDHALL) and content.catalog(GUEDELON) and content.catalog(CASTLE)
    for profession in content.catalog(GUILDHALL).professions:
        assert profession.name in guildhall and flat(profession.summary) in guildhall
        for level in profession.levels:
            assert flat(level.effect) in guildhall, (profession.name, level.at)
    for card in content.catalog(GUILDHALL).vp_cards:
        if card.ability:
            assert flat(card.ability) in guildhall
    for event in content.catalog(GUEDELON).events:
        assert f"{event.number} {event.name}" in guedelon
        assert flat(event.effect) in guedelon
    for guest in content.catalog(CASTLE).guests:
        assert guest.name in castle and flat(guest.power) in castle


def test_what_is_unknown_is_said_to_be_unknown(texts: dict[str, list[str]]) -> None:
    guedelon, castle = " ".join(texts["guedelon"]), " ".join(texts["once-upon-a-castle"])
    for cards in ("Cards 19-27", "Cards 28-36", "Cards 37-45"):
        assert f"{cards}: not known" in guedelon
    assert "Floor tile B3" in guedelon and "not known" in guedelon
    assert "16 cards: their names, powers and VP are not known" in castle


@pytest.mark.parametrize("game", GAMES)
def test_the_not_official_mark_is_in_the_text_layer(written: dict[str, Path], texts: dict[str, list[str]],
                                                     game: str) -> None:
    """The mark is drawn as an icon, with its character (U+25CA) as invisible text over it: copying the text, or a
    screen reader, keeps it. Read by two independent text extractors, poppler's and pypdf's."""
    import re
    import subprocess

    poppler = subprocess.run(["pdftotext", str(written[game]), "-"], capture_output=True, text=True, check=True).stdout
    # poppler reads it where it is drawn, with no space around it that the page does not show
    assert "values marked \u25ca:" in poppler and "donjon · \u25ca not official" in poppler
    assert "\u25ca marks a value that no rulebook states" in poppler
    # pypdf, which spaces text by its own rules, finds it too
    assert re.search(r"values marked\s*\u25ca\s*:", " ".join(texts[game]))


def test_every_inferred_source_is_in_the_sources_section(content: Content, written: dict[str, Path],
                                                       texts: dict[str, list[str]]) -> None:
    """Each inferred value's source, as the catalog words it, is in the Sources section at the end."""
    for game in GAMES:
        start = next(page for depth, title, page in _outline(written[game]) if depth == 0 and title == "Sources")
        sources = " ".join(texts[game][start:])
        for source in _inferred_sources(content.game(game)):
            assert flat(source) in sources, (game, source[:60])


def _inferred_sources(catalog: Any) -> set[str]:
    """The source text of every inferred value anywhere in a catalog."""
    found: set[str] = set()

    def visit(value: Any) -> None:
        prov = getattr(value, "provenance", None)
        if prov is not None:
            found.update(entry.source for entry in prov.inferred)
        if isinstance(value, tuple):
            for item in value:
                visit(item)
        elif hasattr(value, "__dataclass_fields__"):
            for name in value.__dataclass_fields__:
                if name != "provenance":
                    visit(getattr(value, name))

    visit(catalog)
    assert found
    return found


def _outline(pdf: Path) -> list[tuple[int, str, int]]:
    """(depth, title, page index) of every outline entry, in order."""
    import pypdf

    reader = pypdf.PdfReader(pdf)
    entries: list[tuple[int, str, int]] = []

    def walk(items: list[Any], depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                page = reader.get_destination_page_number(item)
                assert page is not None, item.title
                entries.append((depth, str(item.title), page))

    walk(reader.outline, 0)
    return entries


@pytest.mark.parametrize("game", GAMES)
def test_the_outline_points_at_each_heading(written: dict[str, Path], texts: dict[str, list[str]],
                                            game: str) -> None:
    outline = _outline(written[game])
    titles = [title for _depth, title, _page in outline]
    assert titles[0].endswith("card reference") and "Contents" in titles and titles[-1] == "Notes on the marked values"
    assert {"The box", "Sources", "Rulebooks"} <= set(titles)
    assert outline[0][0] == 0 and all(b[0] <= a[0] + 1 for a, b in zip(outline, outline[1:]))
    for _depth, title, page in outline:
        assert flat(title) in texts[game][page], (title, page)


def test_the_outline_of_each_game_has_its_sections(written: dict[str, Path]) -> None:
    sections = {game: [t for d, t, _p in _outline(path) if d == 0] for game, path in written.items()}
    assert sections["guildhall"][1:] == ["The box", "Old World Economy", "Job Faire", "Sources"]
    assert sections["guedelon"][1:] == ["The box", "Event cards", "Floor tiles", "Sources"]
    assert sections["once-upon-a-castle"][1:] == ["The box", "Guests", "The castle sheet", "Sources"]
    guedelon = [t for _d, t, _p in _outline(written["guedelon"])]
    assert "Easy series, cards 1-18" in guedelon and "Guédelon series, cards 37-45" in guedelon
    castle = [t for _d, t, _p in _outline(written["once-upon-a-castle"])]
    assert {"Bolt guests (Great Architect)", "Hourglass guests (Great Architect)",
            "Crown guests (Great Architect)"} <= set(castle)


@pytest.mark.parametrize("game", GAMES)
def test_contents_page_numbers_and_links_match_the_outline(written: dict[str, Path], texts: dict[str, list[str]],
                                                           game: str) -> None:
    import pypdf

    # the contents list the headings of levels 1 and 2 after the title and the contents themselves
    in_contents = [(title, page) for depth, title, page in _outline(written[game]) if depth <= 1][2:]
    first = texts[game][0]
    for title, page in in_contents:
        assert f"{title} {page + 1}" in first, title
    reader = pypdf.PdfReader(written[game])
    links = [a.get_object() for a in reader.pages[0].get("/Annots", [])]
    assert len(links) == len(in_contents)
    targets = [reader.get_page_number(link["/Dest"][0].get_object()) for link in links]
    assert targets == [page for _title, page in in_contents]
    assert reader.page_mode == "/UseOutlines"


def test_notes_are_linked_from_the_source_column(written: dict[str, Path]) -> None:
    import pypdf

    reader = pypdf.PdfReader(written["guildhall"])
    last = len(reader.pages) - 1
    targets = {reader.get_page_number(a.get_object()["/Dest"][0].get_object())
               for page in reader.pages[1:] for a in page.get("/Annots", [])}
    assert last in targets  # the Source column's note lines go to the notes, at the end


@pytest.mark.parametrize("game", GAMES)
def test_every_page_says_page_n_of_n(texts: dict[str, list[str]], game: str) -> None:
    pages = texts[game]
    assert len(pages) >= 4
    for number, text in enumerate(pages, start=1):
        assert text.endswith(f"page {number} of {len(pages)}"), (game, number, text[-40:])
    name = {"guildhall": "Guildhall", "guedelon": "Guédelon", "once-upon-a-castle": "Once Upon a Castle"}[game]
    assert pages[0].startswith(f"{name}: card reference")
    for text in pages[1:]:
        assert text.startswith(f"{name}: card reference"), text[:60]  # the running header


def test_metadata(written: dict[str, Path]) -> None:
    import pypdf

    meta = pypdf.PdfReader(written["guedelon"]).metadata
    assert meta is not None
    assert meta.title == "Guédelon: card reference" and meta.subject == "card reference by donjon"
    assert str(meta["/CreationDate"]) == "D:20000101000000+00'00'"  # reportlab's invariant mode: no build date


def test_fonts_are_embedded_subsets_of_ours(written: dict[str, Path]) -> None:
    from tests.pdfcheck import font_problems

    for pdf in written.values():
        assert font_problems(pdf) == []
        assert b"Helvetica" not in pdf.read_bytes()


def test_two_writes_are_byte_identical(content: Content, written: dict[str, Path], tmp_path: Path) -> None:
    for game in GAMES:
        again = write_reference(content, game, tmp_path).path
        assert again.read_bytes() == written[game].read_bytes(), game


def test_letter_paper(content: Content, tmp_path: Path) -> None:
    import pypdf

    path = write_reference(content, "once-upon-a-castle", tmp_path, "letter").path
    for page in pypdf.PdfReader(path).pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == (612.0, 792.0)

