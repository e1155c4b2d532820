#!/usr/bin/env python3
"""Make `showcase.png` and `fold.png`, the pictures of the sample decks that the READMEs show.

    python content/examples/decks/showcase.py      # needs donjon installed (pip install -e .)

`showcase.png`: what `donjon export showcase --content content/examples/decks --dpi 100 --table 8` makes of the
samples, in two rows: hands of skirmish's cards, of the hexagonal tiles and of the quests; the tokens and the
market spread on a table. `fold.png`: the first page of the skirmish deck built with `--duplex fold --orientation
landscape --cut-lines`, rendered at 60 dpi.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
#: The pictures of `donjon export showcase` shown, in two rows, left to right.
ROWS = [["skirmish-hand.png", "tiles-hand.png", "quests-hand.png"], ["tokens-table.png", "market-table.png"]]
DPI = 100
#: The width of each row, and the gap between the pictures, in px.
WIDTH = 1600
GAP = 10


def _row(pictures: list[Image.Image]) -> Image.Image:
    """Pictures side by side at one height, the row WIDTH wide."""
    height = (WIDTH - GAP * (len(pictures) - 1)) / sum(p.width / p.height for p in pictures)
    scaled = [p.resize((round(p.width * height / p.height), round(height)), Image.Resampling.LANCZOS) for p in pictures]
    row = Image.new("RGB", (WIDTH, round(height)), "#ffffff")
    x = 0
    for picture in scaled:
        row.paste(picture, (x, 0))
        x += picture.width + GAP
    return row


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        out = Path(work)
        subprocess.run([sys.executable, "-m", "generator", "export", "showcase", "--content", str(HERE), "--out",
                        str(out), "--dpi", str(DPI), "--table", "8"], check=True, stdout=subprocess.DEVNULL)
        rows = []
        for names in ROWS:
            pictures = []
            for name in names:
                with Image.open(out / "showcase" / "decks" / name) as image:
                    pictures.append(image.convert("RGB"))
            rows.append(_row(pictures))
    sheet = Image.new("RGB", (WIDTH, sum(r.height for r in rows) + GAP * (len(rows) - 1)), "#ffffff")
    y = 0
    for row in rows:
        sheet.paste(row, (0, y))
        y += row.height + GAP
    sheet.save(HERE / "showcase.png", optimize=True)
    fold()


def fold() -> None:
    import pypdfium2 as pdfium

    with tempfile.TemporaryDirectory() as work:
        out = Path(work)
        subprocess.run([sys.executable, "-m", "generator", "build", "skirmish", "--content", str(HERE), "--out",
                        str(out), "--duplex", "fold", "--orientation", "landscape", "--cut-lines", "--format", "pdf"],
                       check=True, stdout=subprocess.DEVNULL)
        doc = pdfium.PdfDocument(str(out / "decks" / "skirmish.pdf"))
        try:
            image = doc[0].render(scale=60 / 72).to_pil().convert("RGB")
        finally:
            doc.close()
    image.save(HERE / "fold.png", optimize=True)


if __name__ == "__main__":
    main()
