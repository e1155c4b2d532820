"""`donjon export showcase`: pictures of a deck for a crowdfunding page or a BoardGameGeek post.

For each deck, two PNGs in `OUT/showcase/GAME/DECK-hand.png` and `DECK-table.png` (`OUT/showcase/decks/` for a
deck of your own):

- **hand**: the first cards of the deck fanned out as a player holds them, each turned about a point below the
  hand, on a light background;
- **table**: a spread of the deck on a table: a face-down draw pile of its back, and its cards dealt face up in
  rows, each a little askew, as they lie after a deal.

The cards are the same drawings as every output, rendered from the PDF backend as the PNG export renders them
(pieces that are not rectangles keep their shape); rectangular cards get the round corners print services cut
them with, and every card a soft shadow. Nothing is random from one run to the next: the tilt of each card on
the table comes from a generator seeded with the deck's id, so two exports give the same bytes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from generator.catalog.deck import Deck
from generator.content import Content
from generator.export.cards import BACK, Prepared, back_of, prepare
from generator.export.geometry import PRESETS, card_canvas
from generator.export.raster import Raster, canvas_page, png_bytes, render_pages
from generator.output import atomic_path, inside, transaction
from generator.units import MM_PER_INCH

if TYPE_CHECKING:
    from PIL.Image import Image

#: Pixels per inch of the cards in the pictures: a hand of five poker cards comes out some 1,400 px wide, what a
#: campaign page or a forum post shows without scaling it down much.
DPI = 150
#: How many cards the hand holds and the table shows, at most (a deck with fewer shows all of its own).
HAND = 5
TABLE = 12
#: The radius of a card's round corners (print services cut poker cards with 1/8 in corners).
CORNER_MM = 3.175
#: The hand: the angle between two cards, the widest the fan opens, and how far below the cards' centres it
#: turns (in card heights).
FAN_STEP = 8.0
FAN_MOST = 48.0
FAN_PIVOT = 1.9
#: The table: cards a row, the gap between cards (a share of a card's width), how far a card is turned at most,
#: and how far it strays from its place (a share of the gap).
ROW = 6
GAP = 0.18
TILT = 4.0
STRAY = 0.35
#: Cards in the face-down draw pile, and how far each lies from the one below (px at DPI).
PILE = 4
PILE_STEP = 3
#: The pictures' colours: a light paper behind the hand, a green baize table (darker towards its edges), and the
#: cards' shadow (how dark, how soft, how far down and right, px at DPI).
HAND_BACKGROUND = "#ece7dd"
TABLE_CENTRE = (52, 104, 70)
TABLE_EDGE = (24, 58, 38)
SHADOW_ALPHA = 110
SHADOW_BLUR = 7
SHADOW_OFFSET = (5, 8)
#: Room around everything, in px at DPI.
MARGIN = 60


class ShowcaseDeck(NamedTuple):
    deck: Deck
    hand: Path
    table: Path
    #: the pictures' sizes in pixels
    hand_size: tuple[int, int]
    table_size: tuple[int, int]


class ShowcaseReport(NamedTuple):
    decks: list[ShowcaseDeck]
    seconds: float


def pictures(out: Path, deck: Deck) -> tuple[Path, Path]:
    """Where a deck's hand and table pictures go."""
    return (inside(out, "showcase", deck.namespace, f"{deck.id}-hand.png"),
            inside(out, "showcase", deck.namespace, f"{deck.id}-table.png"))


def _cards(prepared: Prepared, items: Sequence[int], dpi: float) -> list[Image]:
    """The images of `items` (cards by their place, or backs), RGBA, with round corners when rectangular."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    deck = prepared.deck
    canvas = card_canvas(deck.card_size, PRESETS["plain"], dpi)
    pages = [canvas_page(prepared.drawing(item, 0.0), canvas, n) for n, item in enumerate(items, start=1)]
    out = []
    for raster in render_pages(pages, [(canvas.px_w, canvas.px_h)] * len(pages), deck.name):
        image = raster.image().convert("RGBA")
        if not raster.alpha:  # a rectangle: round its corners, as a cut card has them
            radius = round(CORNER_MM / MM_PER_INCH * dpi)
            mask = PILImage.new("L", image.size, 0)
            ImageDraw.Draw(mask).rounded_rectangle((0, 0, image.width - 1, image.height - 1), radius, fill=255)
            image.putalpha(mask)
        out.append(image)
    return out


def _shadow(card: Image) -> Image:
    from PIL import Image as PILImage
    from PIL import ImageFilter

    pad = SHADOW_BLUR * 3
    alpha = card.getchannel("A").point(lambda a: a * SHADOW_ALPHA // 255)
    layer = PILImage.new("L", (card.width + 2 * pad, card.height + 2 * pad), 0)
    layer.paste(alpha, (pad, pad))
    shadow = PILImage.new("RGBA", layer.size, (0, 0, 0, 0))
    shadow.putalpha(layer.filter(ImageFilter.GaussianBlur(SHADOW_BLUR)))
    return shadow


class _Placed(NamedTuple):
    image: Image
    #: where the card's centre goes, in px
    x: float
    y: float
    #: degrees, clockwise
    angle: float


def _compose(placed: list[_Placed], background: Callable[[int, int], Image]) -> Image:
    """The cards turned and laid in order (each over the ones before, with its shadow) on a background as large as
    they need."""
    from PIL import Image as PILImage

    turned = []
    for card in placed:
        # Pillow turns anticlockwise: a clockwise angle is its negative
        image = card.image.rotate(-card.angle, resample=PILImage.Resampling.BICUBIC, expand=True)
        turned.append((image, _shadow(image), card.x - image.width / 2, card.y - image.height / 2))
    left = min(x for _i, _s, x, _y in turned)
    top = min(y for _i, _s, _x, y in turned)
    right = max(x + i.width + SHADOW_OFFSET[0] + SHADOW_BLUR * 3 for i, _s, x, _y in turned)
    bottom = max(y + i.height + SHADOW_OFFSET[1] + SHADOW_BLUR * 3 for i, _s, _x, y in turned)
    width, height = round(right - left) + 2 * MARGIN, round(bottom - top) + 2 * MARGIN
    sheet = background(width, height)
    for image, shadow, x, y in turned:
        px, py = round(x - left) + MARGIN, round(y - top) + MARGIN
        pad = SHADOW_BLUR * 3
        sheet.alpha_composite(shadow, (px - pad + SHADOW_OFFSET[0], py - pad + SHADOW_OFFSET[1]))
        sheet.alpha_composite(image, (px, py))
    return sheet.convert("RGB")


def _plain(width: int, height: int) -> Image:
    from PIL import Image as PILImage

    return PILImage.new("RGBA", (width, height), HAND_BACKGROUND)


def _baize(width: int, height: int) -> Image:
    """A green table, lighter in its middle."""
    from PIL import Image as PILImage

    glow = PILImage.radial_gradient("L").resize((width, height), PILImage.Resampling.BILINEAR)
    centre = PILImage.new("RGBA", (width, height), (*TABLE_CENTRE, 255))
    edge = PILImage.new("RGBA", (width, height), (*TABLE_EDGE, 255))
    return PILImage.composite(edge, centre, glow)


def hand(cards: list[Image]) -> Image:
    """Cards fanned out as a hand holds them."""
    count = len(cards)
    step = min(FAN_STEP, FAN_MOST / max(1, count - 1))
    tallest = max(c.height for c in cards)
    radius = FAN_PIVOT * tallest
    placed = []
    for index, card in enumerate(cards):
        angle = (index - (count - 1) / 2) * step
        turn = math.radians(angle)
        placed.append(_Placed(card, radius * math.sin(turn), -radius * math.cos(turn), angle))
    return _compose(placed, _plain)


def table(cards: list[Image], back: Image | None, seed: str) -> Image:
    """A draw pile of backs and the cards dealt face up in rows, each a little askew (the same every time for
    one `seed`)."""
    chance = random.Random(seed)
    wide = max(c.width for c in cards)
    tall = max(c.height for c in cards)
    step_x, step_y = wide * (1 + GAP), tall * (1 + GAP)
    placed = []
    first = 0.0
    if back is not None:
        for layer in range(PILE):
            placed.append(_Placed(back, wide / 2 + layer * PILE_STEP, tall / 2 - layer * PILE_STEP,
                                  chance.uniform(-TILT, TILT) / 2))
        first = step_x * 1.25
    for index, card in enumerate(cards):
        row, column = divmod(index, ROW)
        stray = GAP * STRAY
        placed.append(_Placed(card, first + wide / 2 + column * step_x + chance.uniform(-stray, stray) * wide,
                              tall / 2 + row * step_y + chance.uniform(-stray, stray) * tall,
                              chance.uniform(-TILT, TILT)))
    return _compose(placed, _baize)


def export_showcase(content: Content, decks: list[Deck], out: Path, dpi: float = DPI, in_hand: int = HAND,
                    on_table: int = TABLE, progress: Callable[[int], None] = lambda n: None) -> ShowcaseReport:
    """Write the hand and table pictures of every deck, all in one transaction (none replaced unless all are
    made)."""
    start = time.perf_counter()
    files = {deck.key: pictures(out, deck) for deck in decks}
    prepared = prepare(content, decks, {d.key: files[d.key][0].parent for d in decks}, reserved=None)
    report = []
    with transaction(out):
        for p in prepared:
            count = len(p.deck.cards)
            shown = list(range(min(count, max(in_hand, on_table))))
            back_item = BACK if p.uniform else back_of(0)
            images = _cards(p, [*shown, back_item], dpi)
            faces, back = images[:-1], images[-1]
            pictures_made = (hand(faces[:in_hand]), table(faces[:on_table], back, p.deck.key))
            for target, image in zip(files[p.deck.key], pictures_made):
                with atomic_path(target, f"the showcase of {p.deck.key}") as tmp:
                    tmp.write_bytes(png_bytes(Raster.of(image), dpi))
            report.append(ShowcaseDeck(p.deck, *files[p.deck.key], pictures_made[0].size, pictures_made[1].size))
            progress(1)
    return ShowcaseReport(report, time.perf_counter() - start)
