#!/usr/bin/env python3
"""The picture decks of the benchmark: the 100-card deck with a 300 dpi picture on every card.

    python benchmarks/images/make_decks.py OUT      # writes OUT/same/, OUT/different/ and OUT/transparent/

Each is benchmarks/deck100 (its table and layout) with a full-card picture behind the text: 63 x 88 mm at
300 dpi, 744 x 1039 px, a PNG of a few shapes over a gradient with a painted grain (so that it compresses about as
badly as real art, some 1.4 MB a picture). `same/` shows one picture on all 100 cards; `different/` a picture of
its own on each (100 files); `transparent/` 100 pictures with an alpha channel, which the PDF cannot take as they
are (they are decoded and packed again). Pillow draws them (donjon's environment has it; the benchmark's own
harness uses only the standard library). The grain is seeded: the same files every time.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
DECK100 = HERE.parent / "deck100"
#: A poker card at 300 dpi.
SIZE = (744, 1039)

LAYOUT = """\
# The benchmark card of ../deck100 over a picture covering the card (with its bleed).
extends: layout.yaml
boxes:
  art: {kind: image, x: 0, y: 0, width: 100%, height: 100%, src: "{{ Art }}", fit: cover, bleed: true}
  veil: {kind: rect, x: 4mm, y: 50% - 4mm, width: 100% - 8mm, height: 50% - 1mm, radius: 2mm, fill: "#ffffff"}
"""


def picture(index: int, alpha: bool = False) -> Image.Image:
    """Card art: a vertical gradient and a few shapes, in colours that differ from one index to the next, with a
    grain; with `alpha`, its edges fade out."""
    w, h = SIZE
    hue = (index * 37) % 256
    image = Image.new("RGB", SIZE)
    draw = ImageDraw.Draw(image)
    for y in range(h):
        t = y / (h - 1)
        draw.line([(0, y), (w, y)], fill=(int(40 + 180 * t), (hue + int(90 * t)) % 256, int(200 - 120 * t)))
    for k in range(6):
        r = 60 + 25 * ((index + k) % 5)
        cx, cy = (k * 131 + index * 17) % w, (k * 173 + index * 29) % (h // 2)
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=((hue + 60 * k) % 256, 200 - 20 * k, 90 + 25 * k))
    grain = Image.effect_noise(SIZE, 24 + index % 7).convert("RGB")
    image = Image.blend(image, grain, 0.12)
    if alpha:
        fade = Image.new("L", SIZE, 255)
        ImageDraw.Draw(fade).rectangle([0, 0, w - 1, h - 1], outline=0, width=40)
        image.putalpha(fade)
    return image


def deck(folder: Path, different: bool, alpha: bool = False) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    shutil.copy(DECK100 / "layout.yaml", folder / "layout.yaml")
    (folder / "art.yaml").write_text(LAYOUT, encoding="utf-8")
    lines = (DECK100 / "deck100.csv").read_text(encoding="utf-8").splitlines()
    rows = [lines[0] + ",Art"]
    for number, line in enumerate(lines[1:], start=1):
        name = f"art/{number:03d}.png" if different else "art/card.png"
        rows.append(f"{line},{name}")
    (folder / "deck100.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    deck_yaml = (DECK100 / "deck.yaml").read_text(encoding="utf-8").replace("layout: layout.yaml", "layout: art.yaml")
    (folder / "deck.yaml").write_text(deck_yaml.replace("id: deck100", f"id: {folder.name}"), encoding="utf-8")
    (folder / "art").mkdir()
    for number in range(1, 101 if different else 2):
        picture(number, alpha).save(folder / "art" / (f"{number:03d}.png" if different else "card.png"))


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: make_decks.py OUT")
    out = Path(sys.argv[1])
    deck(out / "same", different=False)
    deck(out / "different", different=True)
    deck(out / "transparent", different=True, alpha=True)


if __name__ == "__main__":
    main()
