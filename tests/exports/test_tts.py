"""`donjon export tts`: sheets within TTS's limits, cards where their ids say, a saved object TTS can load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest

from generator.catalog.common import CARD_PRESETS, CardSize
from generator.export.geometry import TTS_PER_SHEET, tts_cell, tts_grid
from tests.exports.helpers import COLOURS, coloured_deck, open_png, run

LIMIT = 4096


@pytest.mark.parametrize("size", [*CARD_PRESETS.values(), (22, 22), (120, 40), (40, 120), (10, 300)])
def test_a_full_sheet_of_any_card_size_fits_the_limits(size: tuple[float, float]) -> None:
    cell = tts_cell(CardSize("x", *size))
    assert 10 * cell.px_w <= LIMIT and 7 * cell.px_h <= LIMIT
    # not distorted: the shorter side is the longer one's proportion, to the pixel
    assert abs(cell.px_w - cell.px_h * size[0] / size[1]) <= 1 or abs(cell.px_h - cell.px_w * size[1] / size[0]) <= 1
    assert cell.dpi <= 300.5
    assert 10 * cell.px_w > LIMIT - 10 or 7 * cell.px_h > LIMIT - 7 or cell.dpi > 299  # and no smaller than needed


def test_poker_cards_are_409_by_571() -> None:
    cell = tts_cell(CardSize("poker", 63, 88))
    assert (cell.px_w, cell.px_h) == (409, 571)


def test_grids() -> None:
    assert tts_grid(1) == (1, 1) and tts_grid(9) == (9, 1) and tts_grid(10) == (10, 1)
    assert tts_grid(11) == (10, 2) and tts_grid(69) == (10, 7)
    for cards in range(1, TTS_PER_SHEET + 1):
        columns, rows = tts_grid(cards)
        assert columns <= 10 and rows <= 7 and columns * rows >= cards and columns * (rows - 1) < cards
    with pytest.raises(ValueError):
        tts_grid(70)


def saved(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / f"{folder.name}.json").read_text(encoding="utf-8"))
    return data


def url_path(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file", url
    return Path(unquote(parsed.path))


def check_saved_object(folder: Path, names: list[str], copies: list[int]) -> dict[str, Any]:
    """The saved object of a deck agrees with itself and with the files: every card by name and count, every id
    on a sheet that exists, every sheet within the limits."""
    data = saved(folder)
    [deck] = data["ObjectStates"]
    assert deck["Name"] == "DeckCustom"
    cards = deck["ContainedObjects"]
    assert deck["DeckIDs"] == [c["CardID"] for c in cards]
    assert len(cards) == sum(copies)
    expected = [name for name, n in zip(names, copies) for _ in range(n)]
    assert [c["Nickname"] for c in cards] == expected
    assert len({c["GUID"] for c in cards} | {deck["GUID"]}) == len(cards) + 1
    sheets = deck["CustomDeck"]
    for key, sheet in sheets.items():
        face = url_path(sheet["FaceURL"])
        assert face.parent == folder and face.is_file()
        assert url_path(sheet["BackURL"]) == folder / "back.png"
        assert 1 <= sheet["NumWidth"] <= 10 and 1 <= sheet["NumHeight"] <= 7
        assert sheet["BackIsHidden"] is True
        image = open_png(face)
        assert image.width <= LIMIT and image.height <= LIMIT and image.mode == "RGB"
        assert image.width % sheet["NumWidth"] == 0 and image.height % sheet["NumHeight"] == 0
        assert int(key) > 0
    for card in cards:
        key, place = divmod(card["CardID"], 100)
        sheet = sheets[str(key)]
        assert place < min(TTS_PER_SHEET, sheet["NumWidth"] * sheet["NumHeight"])
        assert card["CustomDeck"] == {str(key): sheet}
    back = open_png(folder / "back.png")
    assert back.size == (image.width // sheet["NumWidth"], image.height // sheet["NumHeight"])
    assert max(open_png(folder / f"{folder.name}.png").size) <= 256  # the thumbnail
    return data


def test_a_deck_of_150_different_cards_takes_three_sheets_with_every_card_in_its_place(tmp_path: Path) -> None:
    deck = coloured_deck(tmp_path / "deck", 150)  # copies 1 and 2 alternately
    out = tmp_path / "out"
    result = run("export", "tts", "--content", str(deck), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "faces-1.png (10x7), faces-2.png (10x7), faces-3.png (10x2)" in result.stdout
    folder = out / "tts" / "decks" / "test-deck"
    names = [f"Card {i + 1}" for i in range(150)]
    copies = [1 + i % 2 for i in range(150)]
    data = check_saved_object(folder, names, copies)
    [state] = data["ObjectStates"]
    sheets = state["CustomDeck"]
    assert len(sheets) == 3
    assert sorted(url_path(s["FaceURL"]).name for s in sheets.values()) == ["faces-1.png", "faces-2.png",
                                                                          "faces-3.png"]
    # every copy's CardID shows that card's colour at the middle of its slot
    images = {key: open_png(url_path(s["FaceURL"])) for key, s in sheets.items()}
    for card in {c["Nickname"]: c for c in state["ContainedObjects"]}.values():
        key, place = divmod(card["CardID"], 100)
        sheet = sheets[str(key)]
        image = images[str(key)]
        w, h = image.width // sheet["NumWidth"], image.height // sheet["NumHeight"]
        row, column = divmod(place, sheet["NumWidth"])
        colour = COLOURS[(int(card["Nickname"].split()[1]) - 1) % len(COLOURS)]
        assert image.getpixel((column * w + w // 2, row * h + h // 2)) == tuple(
            int(colour[i:i + 2], 16) for i in (1, 3, 5)), card["Nickname"]


def test_a_one_card_deck_is_a_single_card_object(tmp_path: Path) -> None:
    deck = coloured_deck(tmp_path / "deck", 1, copies=1)
    result = run("export", "tts", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    [card] = saved(tmp_path / "out" / "tts" / "decks" / "test-deck")["ObjectStates"]
    assert card["Name"] == "CardCustom" and card["Nickname"] == "Card 1"
    assert list(card["CustomDeck"].values())[0]["NumWidth"] == 1


def test_base_url_names_the_uploaded_files(tmp_path: Path) -> None:
    deck = coloured_deck(tmp_path / "deck", 3)
    result = run("export", "tts", "--content", str(deck), "--out", str(tmp_path / "out"), "--base-url",
                 "https://example.org/decks/")
    assert result.exit_code == 0, result.stderr
    [state] = saved(tmp_path / "out" / "tts" / "decks" / "test-deck")["ObjectStates"]
    [sheet] = state["CustomDeck"].values()
    assert sheet["FaceURL"] == "https://example.org/decks/decks/test-deck/faces-1.png"
    assert sheet["BackURL"] == "https://example.org/decks/decks/test-deck/back.png"


@pytest.mark.parametrize("url", ["ftp://x", "not a url", "https://a b"])
def test_bad_base_url_exits_2(tmp_path: Path, url: str) -> None:
    result = run("export", "tts", "--out", str(tmp_path), "--base-url", url)
    assert result.exit_code == 2 and "--base-url" in result.stderr


def test_two_exports_give_the_same_bytes(tmp_path: Path) -> None:
    deck = coloured_deck(tmp_path / "deck", 12)
    for name in ("a", "b"):
        assert run("export", "tts", "--content", str(deck), "--out", str(tmp_path / name)).exit_code == 0
    first = tmp_path / "a" / "tts"
    for path in first.rglob("*.png"):
        assert path.read_bytes() == (tmp_path / "b" / "tts" / path.relative_to(first)).read_bytes()


def test_every_shipped_deck(tmp_path: Path) -> None:
    result = run("export", "tts", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert "Exported 8 decks for Tabletop Simulator: 412 cards on 8 sheets" in result.stdout
    from generator.content import load_content
    from generator.content import all_decks

    keys = set()
    for deck in all_decks(load_content(None)):
        folder = tmp_path / "tts" / deck.namespace / deck.id
        data = check_saved_object(folder, [c.name for c in deck.cards], [c.copies for c in deck.cards])
        keys |= set(data["ObjectStates"][0]["CustomDeck"])
    assert len(keys) == 8  # no two decks share a CustomDeck key
