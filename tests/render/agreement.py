"""Do a card's PDF and its SVG look the same? Each rendered by an independent program and compared pixel by pixel.

The PDF side is donjon's PNG export (`donjon export png --preset plain`, the card's own PDF page rendered by
pdfium, as every image donjon makes); the SVG side is librsvg (`rsvg-convert`, behind many viewers and
converters), at the same size in pixels. Both are laid on white (a piece that is not a rectangle is transparent
outside its outline).

Two renderers never agree to the last pixel: they smooth edges differently, draw hairlines at least a pixel wide
or not, and resample a turned picture each their own way. So a pixel counts as **different** only when one of its
channels lies more than :data:`TOLERANCE` (of 255) outside the range that channel takes in the 3 x 3 pixels
around the same place in the other rendering (either way round): an edge drawn a little lighter, or half a pixel
further, is not a difference; a gradient printed black, a missing shape, text in another place is. A card agrees
when at most :data:`MOST_DIFFERING` of its pixels differ, at :data:`DPI`. Measured on the sample decks (37 cards
and backs): at most 0.18% (the tokens, whose turned pictures the two resample differently); at 100 dpi hairlines
thinner than a pixel pushed some backs to 1.2%, which is why the comparison is made at 150 dpi.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image

RSVG = shutil.which("rsvg-convert")
#: Pixels per inch both renderings are made at (hairlines of 0.4 pt are then more than half a pixel wide).
DPI = 150
#: How far a channel may stray beyond its neighbourhood in the other rendering, of 255.
TOLERANCE = 24
#: The share of a card's pixels that may differ: 0.5%, nearly three times the worst measured, far below what
#: any real fault covers (a card's band alone is a seventh of it).
MOST_DIFFERING = 0.005


def on_white(image: Image) -> Image:
    from PIL import Image as PILImage

    ground = PILImage.new("RGBA", image.size, "white")
    ground.alpha_composite(image.convert("RGBA"))
    return ground.convert("RGB")


def svg_pixels(svg: Path, size: tuple[int, int]) -> Image:
    """The SVG rendered by librsvg at exactly `size` pixels, on white."""
    from PIL import Image as PILImage

    assert RSVG is not None
    done = subprocess.run([RSVG, "-w", str(size[0]), "-h", str(size[1]), str(svg)], capture_output=True, check=True,
                          timeout=120)
    return on_white(PILImage.open(io.BytesIO(done.stdout)))


def _beyond(a: Image, b: Image) -> int:
    """The pixels of `a` lying beyond the 3 x 3 neighbourhood of `b` by more than the tolerance."""
    from PIL import ImageChops, ImageFilter

    low, high = b.filter(ImageFilter.MinFilter(3)), b.filter(ImageFilter.MaxFilter(3))
    worst = ImageChops.lighter(ImageChops.subtract(low, a), ImageChops.subtract(a, high))
    red, green, blue = worst.split()
    strayed = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return strayed.point(lambda v: 255 if v > TOLERANCE else 0).histogram()[255]


def differing_share(pdf_png: Path, svg: Path) -> float:
    """The share of the card's pixels that differ between its PDF rendering (a PNG) and its SVG."""
    from PIL import Image as PILImage

    with PILImage.open(pdf_png) as opened:
        pdf = on_white(opened)
    drawn = svg_pixels(svg, pdf.size)
    return max(_beyond(pdf, drawn), _beyond(drawn, pdf)) / (pdf.width * pdf.height)


def card_pairs(out: Path, deck: str) -> list[tuple[str, Path, Path]]:
    """(name, PNG, SVG) of every card and back of a deck of one's own, built into `out` as SVG and exported as
    plain PNGs."""
    svgs = out / "decks" / deck / "svg"
    pngs = out / "png" / "decks" / deck
    return [(f"{deck}/{svg.relative_to(svgs)}", pngs / svg.relative_to(svgs).with_suffix(".png"), svg)
            for svg in sorted(svgs.rglob("*.svg"))]
