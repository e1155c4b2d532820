"""Recolouring a picture: a one-colour icon or an SVG drawing in each card's colour (`colour:` on an image or icon
box, a template such as `"{{ Faction | palette }}"`).

The picture is recoloured here, before either backend sees it, so the PDF and the SVG embed the same new picture
(each recolouring once per file):

- **SVG**: every paint it names (fill, stroke, gradient stops, flood and `color`, in attributes, `style` and
  `<style>` rules) becomes the colour, and so does the black that shapes with no fill get by default; `none`
  stays none, so the drawing keeps its shape, holes and outlines, and its opacities stay. Pictures embedded in it
  keep their own colours.
- **PNG and JPEG**: every pixel takes the colour; a picture with transparency keeps it (the icon's shape), one
  without is read as ink on paper: dark pixels become the colour, light ones transparent, greys in between.
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import replace

from generator.render.images import ImageInfo, open_quietly

_SVG = "http://www.w3.org/2000/svg"
_XLINK = "http://www.w3.org/1999/xlink"
#: The presentation attributes and properties that hold a paint.
PAINTS = ("fill", "stroke", "stop-color", "flood-color", "lighting-color", "color")
_PROPERTY = re.compile(r"(?<![\w-])(" + "|".join(PAINTS) + r")\s*:\s*([^;}\"']+)")


#: Recoloured pictures by the digest of the picture and the colour: a card's SVG file embeds its pictures anew, so a
#: crest recoloured per faction on a hundred cards is recoloured three times, not a hundred. Bounded.
_DONE: dict[tuple[str, str], tuple[ImageInfo, bytes]] = {}
_DONE_MOST = 64


def recolour(info: ImageInfo, data: bytes, colour: str) -> tuple[ImageInfo, bytes]:
    """The picture in `colour` (`#rrggbb`), and its description (same size; its digest that of the new bytes)."""
    key = (info.digest, colour)
    found = _DONE.get(key)
    if found is not None:
        return replace(found[0], path=info.path), found[1]
    if info.kind == "svg":
        out = _svg(data, colour)
        made = replace(info, digest=hashlib.sha256(out).hexdigest())
    else:
        out = _raster(data, colour)
        made = replace(info, kind="png", digest=hashlib.sha256(out).hexdigest())
    if len(_DONE) >= _DONE_MOST:
        _DONE.clear()
    _DONE[key] = (made, out)
    return made, out


def _paint(value: str, colour: str) -> str:
    return value if value.strip() in ("none", "transparent", "inherit") else colour


def _css(text: str, colour: str) -> str:
    return _PROPERTY.sub(lambda m: f"{m.group(1)}:{_paint(m.group(2), colour)}", text)


def _svg(data: bytes, colour: str) -> bytes:
    import xml.etree.ElementTree as ET

    ET.register_namespace("", _SVG)
    ET.register_namespace("xlink", _XLINK)
    root = ET.fromstring(data)
    for element in root.iter():
        for name in PAINTS:
            value = element.get(name)
            if value is not None:
                element.set(name, _paint(value, colour))
        style = element.get("style")
        if style:
            element.set("style", _css(style, colour))
        if element.tag == f"{{{_SVG}}}style" and element.text:
            element.text = _css(element.text, colour)
    # what shapes inherit when they name no paint (black fill, `currentColor`)
    if root.get("fill") is None:
        root.set("fill", colour)
    root.set("color", colour)
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True))


def _raster(data: bytes, colour: str) -> bytes:
    from PIL import Image, ImageChops

    with open_quietly(data) as image:
        has_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
        if has_alpha:
            alpha = image.convert("RGBA").getchannel("A")
        else:  # ink on paper: the darker, the more of the colour
            alpha = ImageChops.invert(image.convert("L"))
    rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    out = Image.new("RGBA", alpha.size, (*rgb, 255))
    out.putalpha(alpha)
    buffer = io.BytesIO()
    out.save(buffer, "PNG", compress_level=6)
    return buffer.getvalue()
