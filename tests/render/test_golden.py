"""Golden files of the drawing output: SVG text of cards of every layout, and a small deck's PDF.

A change to a layout, the text fitting or a backend shows up here as a diff. When the change is meant:
`pytest --regenerate`, then review `git diff tests/render/golden` (the SVGs are text) and commit them. The PDF
is compared for what it draws (`tests/pdfnormal.py`), not byte for byte, so that a reportlab release writing
the same pages with other bytes does not fail it; two builds are compared byte for byte in test_build.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_golden, check_golden_pdf
from generator.backends.svg import drawing_svg
from generator.content import Content, load_content
from generator.catalog.deck import Deck
from generator.content import all_decks
from generator.build.decks import back_drawing, deck_layouts, deck_origin, deck_view, face_drawing
from render_helpers import GOLDEN, make_deck, run

CARDS = [
    ("guildhall/old-world-economy-professions", "assassin-red"),
    ("guildhall/old-world-economy-professions", "dancer-yellow"),
    ("guildhall/old-world-economy-vp", "owe-9"),
    ("guildhall/job-faire-vp", "jf-2-chapter"),
    ("guildhall/vp-tokens", "vp-token"),
    ("guedelon/events", "01-alchemy"),
    ("guedelon/events", "03-rope-maker"),
    ("guedelon/floor-tiles", "a1"),
    ("guedelon/floor-tiles", "b3"),
    ("guedelon/floor-tiles", "c0"),
    ("once-upon-a-castle/great-architect-guests", "architect"),
    ("once-upon-a-castle/great-architect-guests", "king"),
]


@pytest.fixture(scope="module")
def shipped() -> tuple[Content, dict[str, Deck]]:
    content = load_content()
    return content, {d.key: d for d in all_decks(content)}


@pytest.mark.parametrize(("deck_key", "card_id"), CARDS)
def test_card_svgs(shipped: tuple[Content, dict[str, Deck]], deck_key: str, card_id: str, regenerate: bool) -> None:
    content, decks = shipped
    deck = decks[deck_key]
    face, _back = deck_layouts(deck, deck_origin(content, deck))
    view = deck_view(deck)
    stem = deck_key.replace("/", "--")
    card = next(c for c in deck.cards if c.id == card_id)
    drawing = face_drawing(face, deck, card, view, 0.0)
    check_golden(GOLDEN / f"{stem}--{card_id}.svg", drawing_svg(drawing, card.name), regenerate)


def test_every_deck_back_svg(shipped: tuple[Content, dict[str, Deck]], regenerate: bool) -> None:
    content, decks = shipped
    for key, deck in decks.items():
        _face, back = deck_layouts(deck, deck_origin(content, deck))
        drawing = back_drawing(back, deck, deck_view(deck), 0.0)
        check_golden(GOLDEN / f"{key.replace('/', '--')}--back.svg", drawing_svg(drawing, "back"), regenerate)


def test_bleed_svg(shipped: tuple[Content, dict[str, Deck]], regenerate: bool) -> None:
    content, decks = shipped
    deck = decks["guedelon/events"]
    face, _back = deck_layouts(deck, deck_origin(content, deck))
    card = deck.cards[0]
    drawing = face_drawing(face, deck, card, deck_view(deck), 3 * 72 / 25.4)
    text = drawing_svg(drawing, card.name)
    assert 'width="69mm"' in text and 'height="94mm"' in text
    check_golden(GOLDEN / "guedelon--events--01-alchemy--bleed.svg", text, regenerate)


def test_small_deck_pdf_and_svgs(tmp_path: Path, regenerate: bool) -> None:
    deck = make_deck(tmp_path / "deck", [
        {"name": "Fireball", "cost": "3", "text": "Deal 3 damage. Gain 2 {wood} and 1 {vp}."},
        {"name": "Shield", "cost": "", "text": "Block the next attack. *Only once.*"},
        {"name": "Long Winded Card", "cost": "12", "text": " ".join(["Draw a card, then discard a card."] * 6)},
    ], deck_id="small", name="Small deck")
    out = tmp_path / "out"
    result = run("build", "--content", str(deck), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    check_golden_pdf(GOLDEN / "small-deck.pdf", (out / "decks" / "small.pdf").read_bytes(), regenerate)
    for name in ("001-fireball.svg", "002-shield.svg", "back.svg"):
        check_golden(GOLDEN / f"small-deck--{name}", (out / "decks" / "small" / "svg" / name).read_bytes(), regenerate)
