"""`donjon export tts`: decks for Tabletop Simulator (TTS).

For each deck, `OUT/tts/GAME/DECK/` holds:

- `faces-1.png`, `faces-2.png`...: the deck's different cards, row by row, at most 10 columns and 7 rows and
  4096 px a side (see generator.export.geometry.tts_cell for the size of a card), at most 69 cards a sheet;
- `back.png`: the back of every card; or, in a deck whose cards have backs of their own, `backs-1.png`...: each
  sheet's backs in the same places (TTS's "unique backs");
- `DECK.json`: a TTS saved object holding the deck (a `DeckCustom`, or a `CardCustom` for a deck of one card)
  with every copy of every card, named, in deck order; and `DECK.png`, its thumbnail in TTS's browser.

In the saved object, each sheet is one `CustomDeck` entry keyed by a number of its own: a number derived from
the deck's key (so that two donjon decks spawned on one table never share one) plus the sheet's number from 1.
A card's `CardID` is that key times 100 plus its place on the sheet (from 0), as TTS reads it.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from generator.catalog.deck import Deck
from generator.content import Content
from generator.export import jobs
from generator.export.cards import BACK, Prepared, back_of, prepare
from generator.export.geometry import TTS_PER_SHEET, Canvas, tts_cell, tts_grid
from generator.export.raster import Raster, canvas_page, png_bytes, render_pages
from generator.output import StagedFolder, inside, safe_name, staged, transaction
from generator.wording import plural

#: The thumbnail TTS shows for a saved object fits this square.
THUMBNAIL = 256
#: A TTS card at scale 1 is a poker card; other sizes scale it.
TTS_CARD_MM = (63.5, 88.9)


class DeckImage(NamedTuple):
    """One sheet of a deck: its `CustomDeck` key, file name, grid, and the cards on it (indexes in the deck)."""

    key: int
    name: str
    columns: int
    rows: int
    cards: tuple[int, ...]


def sheets_of(deck: Deck) -> list[DeckImage]:
    base = deck_key(deck)
    count = len(deck.cards)
    out = []
    for number, start in enumerate(range(0, count, TTS_PER_SHEET), start=1):
        cards = tuple(range(start, min(count, start + TTS_PER_SHEET)))
        columns, rows = tts_grid(len(cards))
        out.append(DeckImage(base + number, f"faces-{number}.png", columns, rows, cards))
    return out


def deck_key(deck: Deck) -> int:
    """A number for the deck's `CustomDeck` keys: the same for a deck in every export, 100 to 89,900 (sheets
    add 1, 2, ...), so that keys times 100 plus a place stay well inside TTS's 32-bit card ids."""
    return (zlib.crc32(deck.key.encode("utf-8")) % 899 + 1) * 100


def saved_name(deck: Deck, ext: str) -> str:
    """The saved object's file (`.json`) or thumbnail (`.png`): named after the deck, which TTS shows; a deck
    whose id is `back`, `faces-N` or `backs-N` gets `-deck` added, to keep clear of the images."""
    stem = safe_name(deck.id)
    if stem == "back" or re.fullmatch(r"(faces|backs)-\d+", stem):
        stem += "-deck"
    return stem + ext


class TtsChunk(NamedTuple):
    deck: int
    #: a sheet of faces by its number from 1, a sheet of backs by minus its number, or 0 for the back and the
    #: thumbnail
    sheet: int


@dataclass(frozen=True)
class _Context:
    decks: list[Prepared]
    cells: list[Canvas]
    sheets: list[list[DeckImage]]
    folders: list[StagedFolder]


def render_chunk(context: _Context, chunk: TtsChunk) -> list[tuple[str, int]]:
    """Render one sheet (or the back and the thumbnail) of a deck and write it; (file, bytes) of each."""
    prepared, cell, folder = context.decks[chunk.deck], context.cells[chunk.deck], context.folders[chunk.deck]
    size = (cell.px_w, cell.px_h)
    if chunk.sheet == 0:
        item = BACK if prepared.uniform else back_of(0)
        [back] = render_pages([canvas_page(prepared.drawing(item, 0.0), cell)], [size], prepared.deck.name)
        written = [("back.png", folder.write("back.png", png_bytes(back)))] if prepared.uniform else []
        thumbnail = _thumbnail(back)
        name = saved_name(prepared.deck, ".png")
        written.append((name, folder.write(name, png_bytes(thumbnail))))
        return written
    from PIL import Image

    sheet = context.sheets[chunk.deck][abs(chunk.sheet) - 1]
    items = sheet.cards if chunk.sheet > 0 else tuple(back_of(card) for card in sheet.cards)
    pages = [canvas_page(prepared.drawing(item, 0.0), cell, n) for n, item in enumerate(items, start=1)]
    image = Image.new("RGB", (sheet.columns * cell.px_w, sheet.rows * cell.px_h), "white")
    for place, raster in enumerate(render_pages(pages, [size] * len(pages), prepared.deck.name)):
        row, column = divmod(place, sheet.columns)
        card = raster.image()  # a piece that is not a rectangle on the sheet's white, through its transparency
        image.paste(card, (column * cell.px_w, row * cell.px_h), card if raster.alpha else None)
    name = sheet.name if chunk.sheet > 0 else backs_name(sheet)
    return [(name, folder.write(name, png_bytes(Raster.of(image))))]


def backs_name(sheet: DeckImage) -> str:
    """The sheet of backs that goes with a sheet of faces (`faces-2.png` -> `backs-2.png`)."""
    return "backs-" + sheet.name.removeprefix("faces-")


def _thumbnail(back: Raster) -> Raster:
    from PIL import Image

    image = back.image()
    scale = THUMBNAIL / max(image.width, image.height)
    if scale < 1:
        image = image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))),
                             Image.Resampling.LANCZOS)
    return Raster.of(image)


def _guid(*parts: object) -> str:
    """A TTS object id: six hex digits, the same in every export of the same deck."""
    return hashlib.sha1("/".join(str(p) for p in parts).encode("utf-8")).hexdigest()[:6]


def _transform(deck: Deck, face_down: bool) -> dict[str, float]:
    width, height = TTS_CARD_MM
    return {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": round(deck.card_size.width_mm / width, 4), "scaleY": 1.0,
            "scaleZ": round(deck.card_size.height_mm / height, 4)}


def _custom_deck(sheet: DeckImage, face_url: str, back_url: str, unique: bool = False) -> dict[str, Any]:
    return {"FaceURL": face_url, "BackURL": back_url, "NumWidth": sheet.columns, "NumHeight": sheet.rows,
            "BackIsHidden": True, "UniqueBack": unique, "Type": 0}


def saved_object(deck: Deck, sheets: list[DeckImage], url: Callable[[str], str],
                 unique_backs: bool = False) -> dict[str, Any]:
    """The TTS saved object of a deck: every copy of every card, in deck order, with its name (and, with
    `unique_backs`, each sheet's backs from the sheet of backs beside it)."""
    entries = {sheet.key: _custom_deck(sheet, url(sheet.name), url(backs_name(sheet) if unique_backs else "back.png"),
                                       unique_backs) for sheet in sheets}
    where = {card: (sheet.key, place) for sheet in sheets for place, card in enumerate(sheet.cards)}
    cards = []
    for index, card in enumerate(deck.cards):
        key, place = where[index]
        for copy in range(card.copies):
            cards.append({
                "Name": "Card",
                "GUID": _guid(deck.key, card.id, copy),
                "Transform": _transform(deck, face_down=False),
                "Nickname": card.name,
                "Description": "",
                "CardID": key * 100 + place,
                "CustomDeck": {str(key): entries[key]},
                "Hands": True,
                "SidewaysCard": False,
                "Locked": False,
                "Tooltip": True,
                "GMNotes": f"donjon {deck.key} {card.id}",
            })
    if len(cards) == 1:
        only = {**cards[0], "Name": "CardCustom", "Transform": _transform(deck, face_down=True)}
        state = only
    else:
        state = {
            "Name": "DeckCustom",
            "GUID": _guid(deck.key),
            "Transform": _transform(deck, face_down=True),
            "Nickname": deck.name,
            "Description": f"{deck.game_name}: {plural(deck.total, 'card')}",
            "DeckIDs": [c["CardID"] for c in cards],
            "CustomDeck": {str(key): entry for key, entry in entries.items()},
            "ContainedObjects": cards,
            "Hands": False,
            "SidewaysCard": False,
            "Locked": False,
            "Tooltip": True,
        }
    return {"SaveName": deck.name, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": [state], "TabStates": {},
            "VersionNumber": ""}


class TtsDeck(NamedTuple):
    deck: Deck
    folder: Path
    saved: Path
    sheets: list[DeckImage]
    #: pixels of one card on the sheets, and of the back
    cell: tuple[int, int]
    #: one back for every card (back.png), or sheets of backs (backs-N.png)
    uniform: bool = True


class TtsReport(NamedTuple):
    decks: list[TtsDeck]
    seconds: float


def deck_folder(out: Path, deck: Deck) -> Path:
    return inside(out, "tts", deck.namespace, deck.id)


def url_maker(out: Path, folder: Path, base_url: str | None) -> Callable[[str], str]:
    """How the saved object names a file of the deck's folder: a file:/// URI of where it is, or under
    `base_url` at its place below OUT/tts."""
    if base_url is None:
        def local(name: str) -> str:
            return (folder / name).resolve().as_uri()
        return local
    below = folder.resolve().relative_to(inside(out, "tts").resolve()).as_posix()

    def hosted(name: str) -> str:
        return f"{base_url.rstrip('/')}/{below}/{name}"
    return hosted


def export_tts(content: Content, decks: list[Deck], out: Path, jobs_count: int, base_url: str | None,
               progress: Callable[[int], None]) -> TtsReport:
    """Write the sheets, backs and saved objects of `decks` under OUT/tts/."""
    start = time.perf_counter()
    folders = {deck.key: deck_folder(out, deck) for deck in decks}
    prepared = prepare(content, decks, folders, reserved=None)  # cards are on sheets, not in files of their own
    cells = [tts_cell(p.deck.card_size) for p in prepared]
    sheets = [sheets_of(p.deck) for p in prepared]
    report = []
    with transaction(out), staged([folders[p.deck.key] for p in prepared], "Tabletop Simulator decks") as staging:
        chunks = [TtsChunk(index, number) for index, deck_sheets in enumerate(sheets)
                  for number in range(len(deck_sheets) + 1)]
        chunks += [TtsChunk(index, -number) for index, deck_sheets in enumerate(sheets)
                   if not prepared[index].uniform for number in range(1, len(deck_sheets) + 1)]
        weights = [len(sheets[c.deck][abs(c.sheet) - 1].cards) if c.sheet else 1 for c in chunks]
        jobs.run(render_chunk, _Context(prepared, cells, sheets, staging), chunks, jobs=jobs_count, weights=weights,
                 progress=progress)
        for index, p in enumerate(prepared):
            folder = folders[p.deck.key]
            saved = saved_object(p.deck, sheets[index], url_maker(out, folder, base_url), not p.uniform)
            name = saved_name(p.deck, ".json")
            staging[index].write(name, (json.dumps(saved, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
            cell = (cells[index].px_w, cells[index].px_h)
            report.append(TtsDeck(p.deck, folder, folder / name, sheets[index], cell, p.uniform))
    return TtsReport(report, time.perf_counter() - start)
