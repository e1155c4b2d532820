"""Text drawn into pictures with Pillow (the companion's result picture, the `--annotate` photos), in the fonts
donjon ships, whatever the picture library: Open Sans draws every Latin, Greek and Cyrillic letter, and a character it
has not (a player's emoji, a Chinese or Japanese name) is drawn in the font fontconfig picks for it on this machine
(`fc-match`), and where no font has it, as "?" (never the empty box a font draws for what it lacks). The same text
is the same pixels on one install: nothing is fetched, no date or software name is written.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import unicodedata
from typing import Any


@functools.lru_cache(maxsize=8)
def font(bold: bool, size: int) -> Any:
    """Open Sans (bold or not) at `size` px, as Pillow draws with it."""
    from PIL import ImageFont

    return ImageFont.truetype(shipped(bold), size)


def shipped(bold: bool) -> str:
    """The file of the Open Sans donjon ships (bold or not)."""
    from generator.resources import templates_dir

    return str(templates_dir() / "fonts" / f"OpenSans-{'Bold' if bold else 'Regular'}.ttf")


#: What a character no font on the machine has is drawn as: one "?" a character, so that a name keeps its length
#: and what the fonts could draw of it (a box would say nothing more, and looks like a bug).
MISSING = "?"
#: How long fontconfig may take to answer for one character (s): it answers from its cache in milliseconds; a
#: machine where it hangs draws the character as MISSING rather than never answering.
FC_TIMEOUT = 10
#: The size a colour bitmap font is loaded at: Noto Color Emoji (Debian's fonts-noto-color-emoji) has one bitmap
#: strike, 109 px, and FreeType loads such a font at a size it has only; the run is drawn there, then scaled.
BITMAP_STRIKE = 109

Face = tuple[str, int]  # a font file and the face's index in it (a .ttc holds several)


@functools.lru_cache(maxsize=32)
def _covers(face: Face) -> frozenset[int]:
    """The characters `face` has a glyph for (its best cmap, read with fontTools)."""
    from fontTools.ttLib import TTFont

    try:
        with TTFont(face[0], fontNumber=face[1], lazy=True) as font:
            return frozenset(font.getBestCmap() or {})
    except Exception:  # noqa: BLE001 - a font fontconfig lists that fontTools cannot read draws nothing for us
        return frozenset()


@functools.lru_cache(maxsize=4096)
def fallback(char: str, bold: bool) -> Face | None:
    """The font that draws `char` when Open Sans has not: fontconfig's best sans-serif for that character on this
    machine (the same answer on one install, as every program on it gets), None when fontconfig is not there or
    its best has no glyph for it either (fc-match always names a font, the nearest, not necessarily one with it)."""
    fc_match = shutil.which("fc-match")
    if fc_match is None:
        return None
    pattern = f"sans-serif:charset={ord(char):x}" + (":weight=bold" if bold else "")
    try:
        answer = subprocess.run([fc_match, "-f", "%{file}\\n%{index}", pattern], capture_output=True, text=True,
                                timeout=FC_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = answer.stdout.splitlines()
    if answer.returncode != 0 or len(lines) != 2 or not lines[1].isdigit():
        return None
    face = (lines[0], int(lines[1]))
    return face if ord(char) in _covers(face) else None


def _attaches(char: str) -> bool:
    """Whether `char` only changes the character before it (a combining accent, an emoji's variation selector,
    skin tone or zero-width joiner): drawn in that character's font, dropped with it."""
    return unicodedata.category(char) in ("Mn", "Me", "Cf") or 0x1F3FB <= ord(char) <= 0x1F3FF


def runs(text: str, bold: bool) -> list[tuple[str, Face]]:
    """`text` cut into runs each drawn in one font: Open Sans where it has the glyph, else the fallback font for
    the character; a character no font has becomes MISSING (in Open Sans), a character that only changes the one
    before it goes with it (dropped where that font lacks it)."""
    own: Face = (shipped(bold), 0)
    out: list[tuple[str, Face]] = []
    for char in drawable(text):
        face: Face | None = own if ord(char) in _covers(own) else None
        if _attaches(char) and out:
            if ord(char) in _covers(out[-1][1]):
                out[-1] = (out[-1][0] + char, out[-1][1])
            continue  # a joiner or selector the font before it has not changes nothing visible
        if face is None:
            face = fallback(char, bold)
        if face is None:
            char, face = ("" if _attaches(char) else MISSING), own
        if out and out[-1][1] == face:
            out[-1] = (out[-1][0] + char, face)
        elif char:
            out.append((char, face))
    return out


@functools.lru_cache(maxsize=32)
def _face_font(face: Face, size: int) -> tuple[Any, float]:
    """`face` loaded for `size` px, and the scale its drawing takes (1 but for a colour bitmap font, loaded at its
    strike)."""
    from PIL import ImageFont

    try:
        return ImageFont.truetype(face[0], size, index=face[1]), 1.0
    except OSError:  # a bitmap-only font refuses sizes it has no strike for
        return ImageFont.truetype(face[0], BITMAP_STRIKE, index=face[1]), size / BITMAP_STRIKE


def text_length(text: str, bold: bool, size: int) -> float:
    """How wide `text` is drawn (px), each run in its font."""
    from PIL import Image, ImageDraw

    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    total = 0.0
    for run, face in runs(text, bold):
        font, scale = _face_font(face, size)
        total += scratch.textlength(run, font=font, embedded_color=True) * scale
    return total


def draw_text(image: Any, xy: tuple[float, float], text: str, bold: bool, size: int,
              fill: tuple[int, int, int]) -> None:
    """Draw `text` at `xy` (its left and its ascender line), run by run in the fonts :func:`runs` picks; a colour
    bitmap run (emoji) is drawn at its strike and scaled to `size`."""
    from PIL import Image, ImageDraw

    draw = ImageDraw.Draw(image)
    x, y = xy
    for run, face in runs(text, bold):
        font, scale = _face_font(face, size)
        width = draw.textlength(run, font=font, embedded_color=True)
        if scale == 1.0:
            draw.text((x, y), run, font=font, fill=fill, embedded_color=True)
        else:
            ascent, descent = font.getmetrics()
            big = Image.new("RGBA", (max(1, round(width)), ascent + descent), (0, 0, 0, 0))
            ImageDraw.Draw(big).text((0, 0), run, font=font, fill=fill, embedded_color=True)
            small = big.resize((max(1, round(width * scale)), max(1, round((ascent + descent) * scale))),
                               Image.Resampling.LANCZOS)
            image.paste(small, (round(x), round(y)), small)
        x += width * scale


def drawable(text: str) -> str:
    """`text` in Open Sans, which has no narrow no-break space (French writes one before `; ! ?`): a no-break
    space in its place, as the printed outputs do (generator.render.fonts.typeset). Composed (NFC): a name a phone
    sent as letters and combining accents is drawn with the accented letters Open Sans has, where the combining
    marks it lacks (U+0302, U+0308) would be dropped ("Anaïs" drawn "Anais")."""
    return unicodedata.normalize("NFC", text).replace("\u202f", "\u00a0")


def text_box(text: str, bold: bool, size: int) -> tuple[int, int]:
    """The width and height (px, whole) of `text` drawn at `size` px by :func:`draw_text`: its runs' widths, and
    Open Sans's ascent and descent (the line every label of one size takes, whatever its letters)."""
    import math

    ascent, descent = font(bold, size).getmetrics()
    return math.ceil(text_length(text, bold, size)), ascent + descent
