#!/usr/bin/env python3
"""Draw the art of the sample decks, and write the market's spreadsheet: everything here is made by this script.

    python content/examples/decks/make_art.py        # rewrites the files below, beside this script

- `skirmish/art/*.png`, `*.jpg`: the units' scenes (PNG for the flat ones, JPEG for the two woodland scenes, whose
  leaves suit JPEG), 660 x 450 px: the art box of a poker card (56 x 38 mm) at 300 dpi;
- `skirmish/art/*.svg`: the spells, as vectors (they stay vectors in the PDF and the SVG output);
- `skirmish/icons/mana.svg`, `skirmish/icons/sword.png`: the deck's own icons, `{mana}` and `{sword}` in text;
- `shared/spell-back.svg`: the back of every spell, named by the shared layout;
- `market/art/*.jpg`: the goods of the market deck;
- `shared/crest.svg`: a crest in one colour (black), which layouts recolour per card (`colour:` on its box);
- `tokens/icons/wound.png`: a one-colour PNG icon (black on transparent), recoloured per token;
- `tiles/art/*.png`: the terrains of the hexagonal tiles, and `tiles/mask.png`, the soft round mask their art is
  seen through (white shows, black hides);
- `market/cards.xlsx`: the market's table, a sheet "Goods" whose Price column is a formula (Base x 2) saved with
  its value, as a spreadsheet program saves it (openpyxl writes formulas without values, so the values are
  written into the sheet's XML here), and a second sheet the deck does not read.

Shapes only (no text, no fonts, no photographs), drawn at twice the size and scaled down for smooth edges.
Pillow and openpyxl are donjon's own dependencies. The output is the same on every run (the spreadsheet's dates
are fixed).
"""

from __future__ import annotations

import io
import math
import random
import re
import zipfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

HERE = Path(__file__).resolve().parent
#: The art box of the sample layouts, 56 x 38 mm, at 300 dpi.
ART = (660, 450)
#: Shapes are drawn at this multiple of the final size and scaled down: anti-aliased edges.
SUPER = 2


def _mix(a: str, b: str, t: float) -> tuple[int, int, int]:
    ca = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return tuple(round(x + (y - x) * t) for x, y in zip(ca, cb))  # type: ignore[return-value]


def _sky(draw: ImageDraw.ImageDraw, size: tuple[int, int], top: str, bottom: str) -> None:
    w, h = size
    for y in range(h):
        draw.line([(0, y), (w, y)], fill=_mix(top, bottom, y / (h - 1)))


def _hills(draw: ImageDraw.ImageDraw, size: tuple[int, int], base: float, amplitude: float, waves: float,
           phase: float, colour: str) -> None:
    w, h = size
    points = [(x, base + amplitude * math.sin(x / w * waves * math.pi + phase)) for x in range(0, w + 8, 8)]
    draw.polygon([*points, (w, h), (0, h)], fill=colour)


def _scene(top: str, bottom: str, hills: list[tuple[float, float, float, float, str]],
           sun: tuple[float, float, float, str] | None) -> tuple[Image.Image, ImageDraw.ImageDraw, int, int]:
    w, h = ART[0] * SUPER, ART[1] * SUPER
    image = Image.new("RGB", (w, h))
    draw = ImageDraw.Draw(image)
    _sky(draw, (w, h), top, bottom)
    if sun is not None:
        sx, sy, sr, colour = sun
        draw.ellipse([sx * w - sr * h, sy * h - sr * h, sx * w + sr * h, sy * h + sr * h], fill=colour)
    for base, amplitude, waves, phase, colour in hills:
        _hills(draw, (w, h), base * h, amplitude * h, waves, phase, colour)
    return image, draw, w, h


def _save(image: Image.Image, path: Path, quality: int = 88) -> None:
    small = image.resize(ART, Image.Resampling.LANCZOS)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".jpg":
        small.save(path, quality=quality, optimize=True, progressive=False)
    else:
        small.quantize(colors=96, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)


def knight(path: Path) -> None:
    image, d, w, h = _scene("#6fa8dc", "#f6e7c1", [(0.62, 0.05, 2.2, 0.3, "#7a9a5a"), (0.78, 0.04, 3.1, 1.2, "#4f7a3a")],
                            (0.78, 0.28, 0.09, "#fff2c4"))
    # a castle on the far hill
    cx, base = 0.2 * w, 0.6 * h
    d.rectangle([cx, base - 0.2 * h, cx + 0.16 * w, base], fill="#8d8478")
    for i in range(5):
        d.rectangle([cx + i * 0.035 * w, base - 0.24 * h, cx + i * 0.035 * w + 0.02 * w, base - 0.2 * h], fill="#8d8478")
    d.rectangle([cx + 0.06 * w, base - 0.08 * h, cx + 0.1 * w, base], fill="#4b433a")
    # the knight: a shield with a cross, a helmet, a lance with a pennant
    kx, ky = 0.58 * w, 0.9 * h
    d.polygon([(kx - 0.09 * w, ky - 0.52 * h), (kx + 0.09 * w, ky - 0.52 * h), (kx + 0.09 * w, ky - 0.22 * h),
               (kx, ky - 0.08 * h), (kx - 0.09 * w, ky - 0.22 * h)], fill="#b23a2e", outline="#3b2a20", width=10)
    d.rectangle([kx - 0.012 * w, ky - 0.48 * h, kx + 0.012 * w, ky - 0.14 * h], fill="#f3d36b")
    d.rectangle([kx - 0.07 * w, ky - 0.38 * h, kx + 0.07 * w, ky - 0.34 * h], fill="#f3d36b")
    d.ellipse([kx - 0.06 * w, ky - 0.78 * h, kx + 0.06 * w, ky - 0.56 * h], fill="#9aa3ad", outline="#3b2a20", width=8)
    d.rectangle([kx - 0.04 * w, ky - 0.7 * h, kx + 0.04 * w, ky - 0.67 * h], fill="#2a2a2a")
    d.line([(kx + 0.13 * w, ky), (kx + 0.24 * w, ky - 0.86 * h)], fill="#5a3d24", width=14)
    d.polygon([(kx + 0.235 * w, ky - 0.82 * h), (kx + 0.33 * w, ky - 0.78 * h), (kx + 0.225 * w, ky - 0.73 * h)],
              fill="#f3d36b")
    _save(image, path)


def archer(path: Path) -> None:
    image, d, w, h = _scene("#f4a261", "#fde2b3", [(0.66, 0.06, 1.6, 2.0, "#9c6b3c"), (0.82, 0.03, 2.6, 0.4, "#6b4a2b")],
                            (0.25, 0.45, 0.12, "#ffd08a"))
    ax, ay = 0.48 * w, 0.88 * h
    d.ellipse([ax - 0.05 * w, ay - 0.78 * h, ax + 0.05 * w, ay - 0.6 * h], fill="#2f4f2f")
    d.polygon([(ax - 0.07 * w, ay - 0.6 * h), (ax + 0.07 * w, ay - 0.6 * h), (ax + 0.1 * w, ay),
               (ax - 0.1 * w, ay)], fill="#2f4f2f")
    d.arc([ax + 0.02 * w, ay - 0.9 * h, ax + 0.26 * w, ay - 0.1 * h], 270, 90, fill="#5a3d24", width=14)
    d.line([(ax + 0.14 * w, ay - 0.88 * h), (ax + 0.14 * w, ay - 0.12 * h)], fill="#e9e4d8", width=4)
    d.line([(ax + 0.02 * w, ay - 0.5 * h), (ax + 0.34 * w, ay - 0.5 * h)], fill="#3b2a20", width=8)
    d.polygon([(ax + 0.34 * w, ay - 0.53 * h), (ax + 0.38 * w, ay - 0.5 * h), (ax + 0.34 * w, ay - 0.47 * h)],
              fill="#9aa3ad")
    _save(image, path)


def dragon(path: Path) -> None:
    image, d, w, h = _scene("#3d2c5e", "#d9704a", [(0.74, 0.08, 1.4, 0.9, "#3b2a3f"), (0.86, 0.04, 2.9, 2.1, "#24182a")],
                            (0.7, 0.62, 0.16, "#f7b267"))
    cx, cy = 0.45 * w, 0.42 * h
    d.polygon([(cx, cy), (cx - 0.34 * w, cy - 0.3 * h), (cx - 0.26 * w, cy + 0.02 * h), (cx - 0.36 * w, cy + 0.06 * h),
               (cx - 0.08 * w, cy + 0.12 * h)], fill="#7d1f1f")
    d.polygon([(cx + 0.04 * w, cy), (cx + 0.3 * w, cy - 0.36 * h), (cx + 0.26 * w, cy - 0.02 * h),
               (cx + 0.38 * w, cy + 0.02 * h), (cx + 0.1 * w, cy + 0.12 * h)], fill="#8f2a22")
    d.ellipse([cx - 0.12 * w, cy - 0.02 * h, cx + 0.16 * w, cy + 0.22 * h], fill="#5c1616")
    d.polygon([(cx + 0.12 * w, cy + 0.04 * h), (cx + 0.24 * w, cy - 0.16 * h), (cx + 0.3 * w, cy - 0.12 * h),
               (cx + 0.2 * w, cy + 0.1 * h)], fill="#5c1616")
    d.polygon([(cx - 0.1 * w, cy + 0.14 * h), (cx - 0.3 * w, cy + 0.3 * h), (cx - 0.22 * w, cy + 0.34 * h),
               (cx - 0.04 * w, cy + 0.2 * h)], fill="#5c1616")
    d.ellipse([cx + 0.255 * w, cy - 0.15 * h, cx + 0.27 * w, cy - 0.13 * h], fill="#ffd166")
    _save(image, path)


def _woods(seed: int, top: str, bottom: str, ground: str, trees: tuple[str, str]) -> tuple[Image.Image,
                                                                                             ImageDraw.ImageDraw, int, int]:
    image, d, w, h = _scene(top, bottom, [(0.7, 0.03, 2.0, 0.0, ground)], None)
    rng = random.Random(seed)
    for layer in range(3):
        for _ in range(26):
            x = rng.uniform(-0.05, 1.05) * w
            base = (0.62 + layer * 0.1 + rng.uniform(-0.03, 0.03)) * h
            tall = rng.uniform(0.18, 0.3) * h * (1 + layer * 0.25)
            colour = _mix(trees[0], trees[1], layer / 2)
            d.polygon([(x, base - tall), (x - tall * 0.28, base), (x + tall * 0.28, base)], fill=colour)
    return image.filter(ImageFilter.GaussianBlur(1.2)), ImageDraw.Draw(image), w, h


def goblin(path: Path) -> None:
    image, _d, w, h = _woods(7, "#1d2b3a", "#4a6a6a", "#26351f", ("#2f4a2a", "#17261a"))
    d = ImageDraw.Draw(image)
    gx, gy = 0.5 * w, 0.92 * h
    d.ellipse([gx - 0.09 * w, gy - 0.62 * h, gx + 0.09 * w, gy - 0.34 * h], fill="#6b8e23")
    d.polygon([(gx - 0.08 * w, gy - 0.5 * h), (gx - 0.2 * w, gy - 0.62 * h), (gx - 0.07 * w, gy - 0.44 * h)],
              fill="#6b8e23")
    d.polygon([(gx + 0.08 * w, gy - 0.5 * h), (gx + 0.2 * w, gy - 0.62 * h), (gx + 0.07 * w, gy - 0.44 * h)],
              fill="#6b8e23")
    for side in (-1, 1):
        d.ellipse([gx + side * 0.04 * w - 0.015 * w, gy - 0.52 * h, gx + side * 0.04 * w + 0.015 * w, gy - 0.48 * h],
                  fill="#ffd23f")
    d.polygon([(gx - 0.1 * w, gy - 0.34 * h), (gx + 0.1 * w, gy - 0.34 * h), (gx + 0.13 * w, gy),
               (gx - 0.13 * w, gy)], fill="#5b3a29")
    d.line([(gx + 0.12 * w, gy - 0.1 * h), (gx + 0.26 * w, gy - 0.5 * h)], fill="#c0c6cc", width=12)
    _save(image, path)


def troll(path: Path) -> None:
    image, _d, w, h = _woods(11, "#7fa79a", "#d8e2c8", "#5e6f3a", ("#4f6b3a", "#2e4426"))
    d = ImageDraw.Draw(image)
    tx, ty = 0.42 * w, 0.95 * h
    d.ellipse([tx - 0.17 * w, ty - 0.72 * h, tx + 0.17 * w, ty - 0.05 * h], fill="#7b8b6f")
    d.ellipse([tx - 0.07 * w, ty - 0.86 * h, tx + 0.07 * w, ty - 0.64 * h], fill="#7b8b6f")
    d.ellipse([tx - 0.035 * w, ty - 0.79 * h, tx - 0.01 * w, ty - 0.75 * h], fill="#1f1f1f")
    d.ellipse([tx + 0.01 * w, ty - 0.79 * h, tx + 0.035 * w, ty - 0.75 * h], fill="#1f1f1f")
    d.line([(tx + 0.15 * w, ty - 0.3 * h), (tx + 0.38 * w, ty - 0.78 * h)], fill="#5a3d24", width=30)
    d.ellipse([tx + 0.32 * w, ty - 0.9 * h, tx + 0.44 * w, ty - 0.7 * h], fill="#5a3d24")
    _save(image, path)


# --- spells and backs, as SVG ---------------------------------------------------------------------------------

def _star(cx: float, cy: float, outer: float, inner: float, points: int, turn: float = -90) -> str:
    corners = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = math.radians(turn + i * 180 / points)
        corners.append(f"{cx + r * math.cos(a):.2f},{cy + r * math.sin(a):.2f}")
    return " ".join(corners)


def _svg(body: str, width: int = 660, height: int = 450) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}">\n{body}\n</svg>\n')


def spell(path: Path, background: str, glow: str, core: str, points: int) -> None:
    cx, cy = 330, 225
    rings = "\n".join(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{glow}" fill-opacity="{o}"/>'
                      for r, o in ((210, 0.12), (160, 0.18), (115, 0.25), (80, 0.35)))
    rays = "\n".join(
        f'<path d="M{cx} {cy} L{cx + 320 * math.cos(math.radians(a)):.1f} {cy + 320 * math.sin(math.radians(a)):.1f}" '
        f'stroke="{glow}" stroke-opacity="0.35" stroke-width="6"/>' for a in range(0, 360, 360 // (points * 2)))
    runes = "\n".join(f'<circle cx="{cx + 150 * math.cos(math.radians(a)):.1f}" '
                      f'cy="{cy + 150 * math.sin(math.radians(a)):.1f}" r="9" fill="{core}"/>'
                      for a in range(15, 375, 360 // points))
    body = (f'<rect width="660" height="450" fill="{background}"/>\n{rays}\n{rings}\n'
            f'<circle cx="{cx}" cy="{cy}" r="150" fill="none" stroke="{core}" stroke-width="4" stroke-dasharray="18 10"/>\n'
            f'{runes}\n<polygon points="{_star(cx, cy, 70, 28, points)}" fill="{core}"/>\n'
            f'<circle cx="{cx}" cy="{cy}" r="16" fill="#ffffff" fill-opacity="0.85"/>')
    path.write_text(_svg(body), encoding="utf-8")


def spell_back(path: Path) -> None:
    """The back of the spells: a night sky of stars around a circle of runes, 63 x 88 mm."""
    w, h = 630, 880
    rng = random.Random(3)
    stars = "\n".join(f'<circle cx="{rng.uniform(0, w):.1f}" cy="{rng.uniform(0, h):.1f}" '
                      f'r="{rng.uniform(1.5, 4):.1f}" fill="#f5ecd0" fill-opacity="{rng.uniform(0.4, 1):.2f}"/>'
                      for _ in range(90))
    body = (f'<rect width="{w}" height="{h}" fill="#1c2341"/>\n{stars}\n'
            f'<circle cx="315" cy="440" r="210" fill="none" stroke="#c8a94a" stroke-width="8"/>\n'
            f'<circle cx="315" cy="440" r="180" fill="none" stroke="#c8a94a" stroke-width="3" stroke-dasharray="22 12"/>\n'
            f'<polygon points="{_star(315, 440, 150, 60, 8)}" fill="#3a4a8c" stroke="#c8a94a" stroke-width="4"/>\n'
            f'<polygon points="{_star(315, 440, 70, 30, 8, -67.5)}" fill="#c8a94a"/>')
    path.write_text(_svg(body, w, h), encoding="utf-8")


def mana_icon(path: Path) -> None:
    """`{mana}`: a blue crystal, its facets in three shades."""
    body = ('<polygon points="50,4 86,38 50,96 14,38" fill="#2b6cb0"/>\n'
            '<polygon points="50,4 86,38 50,46" fill="#63b3ed"/>\n'
            '<polygon points="50,4 14,38 50,46" fill="#4299e1"/>\n'
            '<polygon points="14,38 50,46 50,96" fill="#2c5282"/>')
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_svg(body, 100, 100), encoding="utf-8")


def sword_icon(path: Path) -> None:
    """`{sword}`: a broad sword, turned to lie corner to corner, on a transparent ground (a PNG with alpha)."""
    size = 256 * SUPER
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    s = size / 256
    d.polygon([(128 * s, 0), (156 * s, 36 * s), (156 * s, 176 * s), (100 * s, 176 * s), (100 * s, 36 * s)],
              fill=(214, 220, 228, 255), outline=(52, 56, 64, 255), width=int(8 * s))
    d.line([(128 * s, 30 * s), (128 * s, 168 * s)], fill=(150, 158, 170, 255), width=int(6 * s))
    d.rounded_rectangle([60 * s, 174 * s, 196 * s, 200 * s], radius=10 * s, fill=(184, 134, 40, 255),
                        outline=(90, 60, 20, 255), width=int(5 * s))
    d.rectangle([114 * s, 200 * s, 142 * s, 238 * s], fill=(96, 62, 36, 255))
    d.ellipse([106 * s, 228 * s, 150 * s, 256 * s], fill=(184, 134, 40, 255))
    turned = image.rotate(-45, resample=Image.Resampling.BICUBIC, center=(size / 2, size / 2))
    turned.resize((256, 256), Image.Resampling.LANCZOS).save(path, optimize=True)


def crest(path: Path) -> None:
    """A shield with a cross cut out of it and a ring: one colour, black, for layouts to recolour."""
    body = ('<path fill-rule="evenodd" d="M50 4 L92 18 L88 58 C84 78 68 90 50 97 C32 90 16 78 12 58 L8 18 Z '
            'M45 22 L55 22 L55 44 L76 44 L76 54 L55 54 L55 82 L45 82 L45 54 L24 54 L24 44 L45 44 Z"/>\n'
            '<circle cx="50" cy="49" r="30" fill="none" stroke="#000" stroke-width="3"/>')
    path.write_text(_svg(body, 100, 100), encoding="utf-8")


def wound_icon(path: Path) -> None:
    """A drop of blood with a shine cut out, black on a transparent ground: a one-colour PNG icon."""
    size = 200 * SUPER
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    s = size / 200
    d.ellipse([40 * s, 80 * s, 160 * s, 196 * s], fill=(0, 0, 0, 255))
    d.polygon([(100 * s, 4 * s), (158 * s, 118 * s), (42 * s, 118 * s)], fill=(0, 0, 0, 255))
    d.ellipse([66 * s, 118 * s, 92 * s, 160 * s], fill=(0, 0, 0, 0))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.resize((200, 200), Image.Resampling.LANCZOS).save(path, optimize=True)


# --- the tiles ----------------------------------------------------------------------------------------------------

#: The terrain art of a hexagonal tile: a square 560 px a side, covering the tile's middle; the back's haze covers
#: 46.2 mm with it (308 dpi), as a print service asks for 300.
TERRAIN = 560


def terrain(path: Path, ground: str, light: str, kind: str, seed: int) -> None:
    """A terrain seen from above: its ground, and trees, peaks, waves or furrows scattered on it."""
    size = TERRAIN * SUPER
    image = Image.new("RGB", (size, size), ground)
    d = ImageDraw.Draw(image)
    rng = random.Random(seed)
    for _ in range(40):
        x, y, r = rng.uniform(0, size), rng.uniform(0, size), rng.uniform(size * 0.04, size * 0.09)
        if kind == "forest":
            d.ellipse([x - r, y - r, x + r, y + r], fill=_mix(light, ground, rng.uniform(0, 0.6)))
        elif kind == "mountain":
            d.polygon([(x - r, y + r), (x, y - r * 1.3), (x + r, y + r)], fill=_mix(light, ground, rng.uniform(0, 0.5)))
            d.polygon([(x - r * 0.3, y - r * 0.6), (x, y - r * 1.3), (x + r * 0.3, y - r * 0.6)], fill="#f4f4f4")
        elif kind == "lake":
            d.arc([x - r, y - r / 2, x + r, y + r / 2], 200, 340, fill=light, width=int(size * 0.008))
        else:
            d.rectangle([x - r * 1.5, y - r * 0.08, x + r * 1.5, y + r * 0.08], fill=light)
    small = image.resize((TERRAIN, TERRAIN), Image.Resampling.LANCZOS)
    path.parent.mkdir(parents=True, exist_ok=True)
    small.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)


def tile_mask(path: Path) -> None:
    """A round mask fading at its rim: white in the middle (the art shows), black outside (it is hidden)."""
    size = 240
    mask = Image.new("L", (size, size), 0)
    d = ImageDraw.Draw(mask)
    for step in range(24):
        inset = 12 + step
        d.ellipse([inset, inset, size - inset, size - inset], fill=round(255 * (step + 1) / 24))
    mask.filter(ImageFilter.GaussianBlur(2)).save(path, optimize=True)


# --- the market -------------------------------------------------------------------------------------------------

def good(path: Path, background: str, shape: str, colour: str) -> None:
    image, d, w, h = _scene(background, "#fff8e7", [(0.8, 0.02, 2.0, 0.5, "#c9a66b")], None)
    cx, cy = 0.5 * w, 0.5 * h
    if shape == "bread":
        d.ellipse([cx - 0.3 * w, cy - 0.2 * h, cx + 0.3 * w, cy + 0.25 * h], fill=colour)
        for i in range(-2, 3):
            d.line([(cx + i * 0.09 * w - 0.03 * w, cy - 0.12 * h), (cx + i * 0.09 * w + 0.03 * w, cy + 0.05 * h)],
                   fill="#f3d9a4", width=12)
    elif shape == "cloth":
        for i in range(5):
            d.rectangle([cx - 0.3 * w + i * 0.03 * w, cy - 0.28 * h + i * 0.1 * h, cx + 0.3 * w - i * 0.02 * w,
                         cy - 0.2 * h + i * 0.1 * h], fill=_mix(colour, "#ffffff", i / 8))
    elif shape == "ore":
        d.polygon([(cx - 0.28 * w, cy + 0.25 * h), (cx - 0.18 * w, cy - 0.15 * h), (cx, cy - 0.3 * h),
                   (cx + 0.22 * w, cy - 0.1 * h), (cx + 0.3 * w, cy + 0.25 * h)], fill=colour)
        d.polygon([(cx - 0.05 * w, cy - 0.05 * h), (cx + 0.08 * w, cy - 0.18 * h), (cx + 0.12 * w, cy)],
                  fill="#ffd166")
    else:  # spice
        for i in range(3):
            x = cx + (i - 1) * 0.22 * w
            d.polygon([(x - 0.1 * w, cy + 0.28 * h), (x, cy - 0.2 * h + i * 0.05 * h), (x + 0.1 * w, cy + 0.28 * h)],
                      fill=_mix(colour, "#7a2e12", i / 3))
    _save(image.filter(ImageFilter.GaussianBlur(0.6)), path, quality=86)


GOODS = [
    # name, good, base price, count, art
    ("Baker's stall", "Bread", 2, 4, "bread.jpg"),
    ("Weaver's stall", "Cloth", 3, 3, "cloth.jpg"),
    ("Miner's cart", "Ore", 4, 2, "ore.jpg"),
    ("Spice merchant", "Spice", 5, 2, "spice.jpg"),
    ("Closed stall", "Nothing", 0, 0, "bread.jpg"),
]


def market_table(path: Path) -> None:
    """The market's cards: a sheet "Goods" whose Price is a formula saved with its value, and a sheet of notes."""
    import datetime

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Goods"
    sheet.append(["Name", "Good", "Base", "Price", "Count", "Art", "Text"])
    texts = {
        "Bread": "Sell **one** {food} for its price. [colour=#2f6b2f]Fresh:[/colour] +1 {gold} on market day.",
        "Cloth": "Sell up to *two* cloth. Each sale: {gold}.",
        "Ore": "Sell ore only to a [colour=#8c2f1b]smith[/colour]; he pays [size=130%]double[/size].",
        "Spice": "Rare: draw a card whenever you sell it.",
        "Nothing": "A stall left empty (a count of 0: not printed).",
    }
    for row, (name, good_name, base, count, art) in enumerate(GOODS, start=2):
        sheet.append([name, good_name, base, f"=C{row}*2", count, f"art/{art}", texts[good_name]])
    notes = book.create_sheet("Notes")
    notes.append(["This sheet is not read: deck.yaml names the sheet Goods."])
    book.properties.created = datetime.datetime(2026, 1, 1)
    buffer = io.BytesIO()
    book.save(buffer)
    # openpyxl writes a formula with an empty value; a spreadsheet program saves the value it computed
    values = {f"D{row}": str(base * 2) for row, (_n, _g, base, _c, _a) in enumerate(GOODS, start=2)}
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "docProps/core.xml":  # openpyxl stamps the time it saved: a fixed one instead
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>2026-01-01T00:00:00Z", data)
            if item.filename == "xl/worksheets/sheet1.xml":
                text = data.decode("utf-8")
                for cell, value in values.items():
                    text = re.sub(rf'(<c r="{cell}"[^>]*><f>[^<]*</f>)<v\s*/?>(</v>)?', rf"\g<1><v>{value}</v>", text)
                data = text.encode("utf-8")
            target.writestr(zipfile.ZipInfo(item.filename, date_time=(2026, 1, 1, 0, 0, 0)), data,
                            zipfile.ZIP_DEFLATED)
    path.write_bytes(out.getvalue())


def main() -> None:
    art = HERE / "skirmish" / "art"
    art.mkdir(parents=True, exist_ok=True)
    knight(art / "knight.png")
    archer(art / "archer.png")
    dragon(art / "dragon.png")
    goblin(art / "goblin.jpg")
    troll(art / "troll.jpg")
    spell(art / "fireball.svg", "#3a1208", "#ff7b29", "#ffd166", 6)
    spell(art / "frost.svg", "#0b2238", "#7fd3ff", "#e0f6ff", 6)
    spell(art / "healing.svg", "#13301c", "#8fe388", "#fff6bf", 5)
    spell(art / "shield.svg", "#231638", "#b388ff", "#efe3ff", 8)
    mana_icon(HERE / "skirmish" / "icons" / "mana.svg")
    sword_icon(HERE / "skirmish" / "icons" / "sword.png")
    (HERE / "shared").mkdir(exist_ok=True)
    spell_back(HERE / "shared" / "spell-back.svg")
    goods = HERE / "market" / "art"
    goods.mkdir(parents=True, exist_ok=True)
    good(goods / "bread.jpg", "#f2c57c", "bread", "#c68642")
    good(goods / "cloth.jpg", "#b8c4e0", "cloth", "#5a6fb0")
    good(goods / "ore.jpg", "#a7a7a7", "ore", "#5b5b66")
    good(goods / "spice.jpg", "#f0b27a", "spice", "#d9542b")
    market_table(HERE / "market" / "cards.xlsx")
    crest(HERE / "shared" / "crest.svg")
    wound_icon(HERE / "tokens" / "icons" / "wound.png")
    tiles = HERE / "tiles"
    terrain(tiles / "art" / "forest.png", "#2f5d32", "#5e9a4a", "forest", 11)
    terrain(tiles / "art" / "mountain.png", "#7b7466", "#a39a89", "mountain", 12)
    terrain(tiles / "art" / "lake.png", "#2d5f8a", "#9fd0ef", "lake", 13)
    terrain(tiles / "art" / "fields.png", "#c9a646", "#e6cf7d", "fields", 14)
    tile_mask(tiles / "mask.png")


if __name__ == "__main__":
    main()
