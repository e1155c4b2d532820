"""Transparency flattened, for PDF/X-1a, which allows none (ISO 15930-4: no soft mask, no opacity below 1).

A box drawn see-through (`opacity`) or through a mask (a `Group` with either) blends with what lies under it,
which a PDF/X-1a file cannot say. So the part of a drawing such a box covers is drawn as a picture: the drawing up
to and including that box, cut to the box's extent, rendered in RGB by pdfium at the press's resolution on white
(the paper), and placed where the box was, to be converted to the press's CMYK like any picture. What is drawn
after the box stays vectors on top of the picture (text over masked art keeps its fonts); what is drawn before it
stays too, under the picture, so that around the picture nothing changes and at its edge no seam shows. This is
what prepress flatteners do with the areas transparency touches. A box inside a group that only clips (a shaped
piece's outline) is flattened inside it, the clip kept; a turned group holding a see-through box is flattened as
a whole.

SVG art drawn with opacity or a blend mode is a picture already, flattened by the PDF backend (`pdf._svg_form`).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable

from generator.render.model import Drawing, Group, ImageUse, Page, Placed, Primitive

#: Where the pictures made here come from, as an `ImageUse.source` (never written into a file): the PDF backend
#: embeds them from memory, keyed by this and their digest.
SOURCE = "flattened:"

#: The top-level items of a drawing made of the items of a group nested inside it: how a box inside a clipping
#: group is drawn with everything that lies under it.
Wrap = Callable[[tuple[Primitive, ...]], tuple[Primitive, ...]]


def see_through(item: Primitive) -> bool:
    """Whether `item` is, or holds, a box drawn with an opacity or through a mask."""
    if not isinstance(item, Group):
        return False
    return item.opacity < 1 or item.mask is not None or any(see_through(inner) for inner in item.items)


def flatten(drawing: Drawing, dpi: float) -> tuple[Drawing, dict[str, bytes]]:
    """`drawing` with every see-through box drawn as a picture of the area it covers (see the module's notes), and
    those pictures as PNG files by the `source` of the `ImageUse` that places each."""
    pictures: dict[str, bytes] = {}

    def opaque(items: tuple[Primitive, ...], wrap: Wrap) -> tuple[Primitive, ...]:
        out: list[Primitive] = []
        for index, item in enumerate(items):
            if not see_through(item):
                out.append(item)
            elif isinstance(item, Group) and item.opacity >= 1 and item.mask is None and item.matrix is None:
                def inner(prefix: tuple[Primitive, ...], index: int = index, item: Group = item) -> tuple[Primitive, ...]:
                    return wrap((*items[:index], item._replace(items=prefix)))

                out.append(item._replace(items=opaque(item.items, inner)))
            else:
                picture = _picture(drawing._replace(items=wrap(items[:index + 1]), key=None), item, dpi)
                if picture is not None:
                    use, data = picture
                    pictures[use.source] = data
                    out.append(use)
        return tuple(out)

    items = opaque(drawing.items, lambda prefix: prefix)
    return drawing._replace(items=items), pictures


def _picture(upto: Drawing, item: Primitive, dpi: float) -> tuple[ImageUse, bytes] | None:
    """The area `item` covers (inside the drawing and its bleed) drawn as `upto` draws it, as a PNG placed there;
    None when it covers nothing of the drawing."""
    from generator.backends.pdf import write_pdf
    from generator.pdfium_lock import page_image
    from generator.render.shapes import extent

    x0, y0, x1, y1 = extent((item,))
    b = upto.bleed
    x0, y0, x1, y1 = max(x0, -b), max(y0, -b), min(x1, upto.width + b), min(y1, upto.height + b)
    if x1 <= x0 or y1 <= y0:
        return None
    # pdfium rounds the page's size in pixels up: the picture has `dpi` or a little more
    width, height = x1 - x0, y1 - y0
    buffer = io.BytesIO()
    write_pdf([Page(width, height, (Placed(upto, -x0, -y0),))], buffer, title="flattened")
    image = page_image(buffer.getvalue(), 0, scale=dpi / 72, fill_color=(255, 255, 255, 255)).convert("RGB")
    out = io.BytesIO()
    image.save(out, "PNG")
    data = out.getvalue()
    return ImageUse(SOURCE + hashlib.sha256(data).hexdigest(), x0, y0, width, height), data
