#!/usr/bin/env python3
"""Make `showcase.png` and `fold.png`, the pictures of the sample decks that the READMEs show.

    python content/examples/decks/showcase.py      # needs donjon installed (pip install -e .)

`showcase.png`: the samples exported as PNGs with `donjon export png --preset plain --dpi 120` (the same drawing
as the PDFs), a few cards and backs side by side on a light background. `fold.png`: the first page of the
skirmish deck built with `--duplex fold --orientation landscape --cut-lines`, rendered at 60 dpi.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
#: (deck, image) shown, left to right: fronts, then the backs they have.
SHOWN = [("skirmish", "1.png"), ("skirmish", "3.png"), ("skirmish", "4.png"), ("skirmish", "6.png"),
         ("market", "001-baker-s-stall.png"), ("skirmish", "backs/1.png"), ("skirmish", "backs/3.png"),
         ("skirmish", "backs/6.png")]
DPI = 120
GAP = 16


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        out = Path(work)
        subprocess.run([sys.executable, "-m", "generator", "export", "png", "--content", str(HERE), "--out", str(out),
                        "--preset", "plain", "--dpi", str(DPI), "--jobs", "1"], check=True, stdout=subprocess.DEVNULL)
        cards = [Image.open(out / "png" / deck / deck / name).convert("RGB") for deck, name in SHOWN]
    width = sum(c.width for c in cards) + GAP * (len(cards) + 1)
    height = max(c.height for c in cards) + 2 * GAP
    sheet = Image.new("RGB", (width, height), "#e9e4da")
    x = GAP
    for card in cards:
        sheet.paste(card, (x, GAP))
        x += card.width + GAP
    sheet.save(HERE / "showcase.png", optimize=True)
    fold()


def fold() -> None:
    import pypdfium2 as pdfium

    with tempfile.TemporaryDirectory() as work:
        out = Path(work)
        subprocess.run([sys.executable, "-m", "generator", "build", "skirmish", "--content", str(HERE), "--out",
                        str(out), "--duplex", "fold", "--orientation", "landscape", "--cut-lines", "--format", "pdf"],
                       check=True, stdout=subprocess.DEVNULL)
        doc = pdfium.PdfDocument(str(out / "skirmish" / "skirmish.pdf"))
        try:
            image = doc[0].render(scale=60 / 72).to_pil().convert("RGB")
        finally:
            doc.close()
    image.save(HERE / "fold.png", optimize=True)


if __name__ == "__main__":
    main()
