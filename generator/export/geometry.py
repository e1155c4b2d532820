"""How big each image is in pixels, and where the card sits in it.

**Print-service presets** (`tgc`, `mpc`, `dtc`). A print service cuts its products at whole fractions of an
inch: a poker card at 2.5 x 3.5 in, and asks for an image of that size plus its bleed, at 300 dpi (The Game
Crafter: 1/8 in each side, 825 x 1125 px for poker; MakePlayingCards: 0.12 in, 822 x 1122 px; DriveThruCards:
1/8 in, a 2.75 x 3.75 in page for poker, as a PDF: generator.export.dtc). donjon's
cards have metric sizes (poker is 63 x 88 mm), so:

- the service's trim is the card's size rounded to the nearest eighth of an inch (63 x 88 mm -> 2.5 x 3.5 in;
  2.25 x 3.5 in bridge stays itself; 70 mm squares -> 2.75 in; 22 mm tokens -> 0.875 in);
- the image is that trim plus the preset's bleed on every side, at the dpi, rounded to whole pixels;
- the card is never scaled: it is drawn at its own size at the dpi, centred in the image, and its bleed
  (the layout's background and every shape marked `bleed: true`) fills the rest of the image. A 63 x 88 mm
  card on a TGC image therefore has 3.4 mm of bleed left and right and 3.6 mm above and below; the service's
  cut (0.25 mm and 0.45 mm outside the card's own edge) falls in the card's background.

**plain**: the card's own trim at the dpi (default 300), no bleed.

**Tabletop Simulator**: each card image is the trim only (TTS shows the whole image), as large as a sheet
of 10 x 7 cards allows within 4096 px a side, and never more than 300 dpi.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from generator.catalog.common import CardSize
from generator.i18n import N_
from generator.prepress.services import eighth_inch
from generator.units import MM_PER_INCH, PT_PER_INCH

#: Accepted by --dpi: below 72 text is unreadable, above 1200 a card is tens of megabytes and no printer gains.
MIN_DPI = 72
MAX_DPI = 1200


class Preset(NamedTuple):
    name: str
    label: str
    dpi: int
    #: bleed on each side, in inches (0: the image is the trim)
    bleed_in: float
    #: whether the trim is the card's size rounded to the nearest eighth of an inch (the services' products)
    snap: bool


PRESETS: dict[str, Preset] = {
    "tgc": Preset("tgc", "The Game Crafter", 300, 0.125, True),
    "mpc": Preset("mpc", "MakePlayingCards", 300, 0.12, True),
    "dtc": Preset("dtc", "DriveThruCards", 300, 0.125, True),
    # (a label that is no service's name is said in the language of the messages: marked for the catalogs)
    "plain": Preset("plain", N_("plain: trim size, no bleed"), 300, 0.0, False),
}


class Canvas(NamedTuple):
    """One image: `px_w` x `px_h` pixels, a page of `page_w` x `page_h` points (the same size at the dpi).

    The card's trim box has its top-left corner at (x, y) on that page; `bleed` is how far the card must be
    drawn beyond its trim to cover the whole image."""

    px_w: int
    px_h: int
    page_w: float
    page_h: float
    x: float
    y: float
    bleed: float
    dpi: float
    #: the service's cut (x, y, w, h in points on the page): the PDF page's TrimBox; None when the image is the cut
    cut: tuple[float, float, float, float] | None = None


def _pixels(inches: float, dpi: float) -> int:
    # round half up, the same on every platform (round() rounds half to even)
    return max(1, int(math.floor(inches * dpi + 0.5)))


def card_canvas(size: CardSize, preset: Preset, dpi: float | None = None) -> Canvas:
    """The image of one card (or back) of `size` with `preset` at `dpi` (default: the preset's)."""
    dpi = float(dpi or preset.dpi)
    trim_w, trim_h = size.width_pt, size.height_pt
    if preset.bleed_in <= 0:
        px_w, px_h = _pixels(trim_w / PT_PER_INCH, dpi), _pixels(trim_h / PT_PER_INCH, dpi)
        return Canvas(px_w, px_h, trim_w, trim_h, 0.0, 0.0, 0.0, dpi)
    if preset.snap:
        box_w, box_h = eighth_inch(size.width_mm), eighth_inch(size.height_mm)
    else:
        box_w, box_h = trim_w / PT_PER_INCH, trim_h / PT_PER_INCH
    px_w = _pixels(box_w + 2 * preset.bleed_in, dpi)
    px_h = _pixels(box_h + 2 * preset.bleed_in, dpi)
    page_w, page_h = px_w / dpi * PT_PER_INCH, px_h / dpi * PT_PER_INCH
    x, y = (page_w - trim_w) / 2, (page_h - trim_h) / 2
    # one pixel more than the widest margin, so that no edge pixel is left half white by anti-aliasing
    bleed = max(x, y) + PT_PER_INCH / dpi
    cut_w, cut_h = box_w * PT_PER_INCH, box_h * PT_PER_INCH
    cut = ((page_w - cut_w) / 2, (page_h - cut_h) / 2, cut_w, cut_h)
    return Canvas(px_w, px_h, page_w, page_h, x, y, bleed, dpi, cut)


# --- Tabletop Simulator --------------------------------------------------------------------------------------------

#: TTS reads at most 10 columns and 7 rows of cards from a sheet, and textures of at most 4096 px a side.
TTS_COLUMNS = 10
TTS_ROWS = 7
TTS_MAX_PX = 4096
#: Cards per sheet: the 70th slot stays empty, because TTS shows the last slot of a sheet as the card seen
#: face down in another player's hand when "Back is hidden" is off (we set it on; an empty slot keeps the
#: sheet right either way).
TTS_PER_SHEET = TTS_COLUMNS * TTS_ROWS - 1
#: On screen, more than 300 dpi only makes bigger files.
TTS_MAX_DPI = 300.0


def tts_cell(size: CardSize) -> Canvas:
    """The image of one card on a TTS sheet: its trim, as large as 10 x 7 cards allow within 4096 px."""
    per_mm = min(TTS_MAX_PX // TTS_COLUMNS / size.width_mm, TTS_MAX_PX // TTS_ROWS / size.height_mm,
                 TTS_MAX_DPI / MM_PER_INCH)
    # the small epsilon keeps 63 mm x (409 px / 63 mm) at 409 px, not 408.99999
    px_w = max(1, min(TTS_MAX_PX // TTS_COLUMNS, math.floor(size.width_mm * per_mm + 1e-6)))
    px_h = max(1, min(TTS_MAX_PX // TTS_ROWS, math.floor(size.height_mm * per_mm + 1e-6)))
    return Canvas(px_w, px_h, size.width_pt, size.height_pt, 0.0, 0.0, 0.0, per_mm * MM_PER_INCH)


def tts_grid(cards: int) -> tuple[int, int]:
    """Columns and rows of a sheet holding `cards` cards (at most TTS_PER_SHEET): as few rows as possible."""
    if not 1 <= cards <= TTS_PER_SHEET:
        raise ValueError(f"a TTS sheet holds 1 to {TTS_PER_SHEET} cards, not {cards}")
    columns = min(TTS_COLUMNS, cards)
    return columns, math.ceil(cards / columns)
