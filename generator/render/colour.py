"""Colours the drawings compute rather than read: the ink that reads best on a given background."""

import re
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

#: The two inks text is printed in on a coloured ground: the warm near-black of the cards and plain white.
DARK_INK = "#1d1a16"
LIGHT_INK = "#ffffff"


#: The palette of the layout being drawn (generator.layout.draw sets it for each drawing): `ink` reads a colour's
#: name in it, as `fill:` does.
PALETTE: ContextVar[Mapping[str, str]] = ContextVar("palette", default={})


def ink_on(background: Any) -> str:
    """`{{ colour.hex | ink }}` or `{{ Faction | ink }}` (a palette name): near-black or white, whichever contrasts
    more with that background (WCAG)."""
    text = str(background).strip()
    palette = PALETTE.get()
    text = palette.get(text, text)
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        names = f" or a name from the palette ({', '.join(palette)})" if palette else ""
        raise ValueError(f"ink: expected a colour like '#b3261e'{names}, got {str(background)!r}")
    dark, light = DARK_INK, LIGHT_INK
    lum = _luminance(text)
    return dark if (lum + 0.05) / (_luminance(dark) + 0.05) > 1.05 / (lum + 0.05) else light


def _luminance(colour: str) -> float:
    """WCAG relative luminance of `#rrggbb`."""
    channels = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


