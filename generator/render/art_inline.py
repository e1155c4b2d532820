"""SVG art drawn inside another SVG as vectors: what the SVG output puts in a card's file in place of an `<image>` of
the art (which librsvg, behind rsvg-convert and Inkscape's import, draws at the art's own pixel size and then scales,
so a card zoomed or printed from its SVG came out soft).

The art (the bytes the SVG output carries: :func:`generator.render.images.image_data`, its viewports' clips written
out) becomes one nested `<svg>` of the art's own viewBox and `preserveAspectRatio`, at the size the card's picture
symbol gives it. Two things keep it drawing as it did alone:

- **Its ids are its own.** A card's file may hold two pieces of art, each with an `id="a"` of its own (drawing
  programs number their ids the same way), and the card's own definitions (`clip-1`, `gradient-1`...). Every id of
  the art gets the picture's id in front (`picture-2.a`), and so does every reference to one: `url(#a)` in an
  attribute or a style, and an `href`/`xlink:href` of `#a`.
- **Its stylesheet stays its own.** A `<style>` inside a nested `<svg>` would style the whole card (CSS has no scope
  by element), and its selectors would see the card's elements as ancestors. So the rules are matched where the
  art stands alone (:class:`generator.render.images.Cascade`, `@media` answered by the art's own size as a browser
  printing answers it) and written into each element's `style`, ranked as CSS ranks them
  (:func:`generator.render.images.cascaded`: the rules, the element's own style over them, `!important` over
  both), and the `<style>` elements are left out. The selectors then name nothing, and need no renaming.

Elements and attributes of other namespaces (Inkscape's `sodipodi:namedview`, an editor's metadata) draw nothing and
are left out, and so are comments. The art was checked before (:mod:`generator.render.images`: no script, no event
handler, no reference outside the file), so what is written holds nothing the `<image>` held back. The same bytes
give the same elements, attributes in the file's order: the output is deterministic.
"""

from __future__ import annotations

import re
from typing import Any
from xml.etree.ElementTree import Element

from generator.render.images import Cascade, art_viewport, cascaded

_SVG = "{http://www.w3.org/2000/svg}"
_XLINK = "{http://www.w3.org/1999/xlink}"
_XML = "{http://www.w3.org/XML/1998/namespace}"
#: A reference to an element of the file in an attribute or a style: `url(#id)`, the id quoted or not.
_URL_ID = re.compile(r"url\(\s*(['\"]?)\s*#([^)'\"\s]*)\s*\1\s*\)")
#: The elements a gradient's href may name to take from (SVG 1.1, 13.2.2).
_GRADIENTS = frozenset({"linearGradient", "radialGradient"})
#: The root's attributes that place the art where it stood alone: the nested drawing is placed by the symbol instead.
_PLACED = frozenset({"x", "y", "width", "height"})


def inline_art(data: bytes, prefix: str, width: str, height: str) -> Element:
    """The art of `data` as a nested `<svg>` element (tags and attributes as the SVG output writes them:
    `xlink:href`, no namespace braces) `width` by `height` at the origin, every id and reference to one prefixed by
    `prefix` and a dot, its stylesheet written into its elements' styles (see the module's notes)."""
    return _inlined(data, prefix, width, height)


def _as_chromium_reads(gradient: Any, attrs: dict[str, str], ids: dict[str, Any]) -> None:
    """Write a gradient's attributes (`attrs`, being made) so that librsvg draws it as Chromium and the PDF do
    (:func:`generator.render.svgart.spread_method`): a spreadMethod Chromium knows no value of (empty, misspelt,
    with spaces) is `pad` (librsvg took the next gradient's), and an href to what is no gradient is left out
    (Chromium takes nothing from it; librsvg painted the shape black)."""
    from generator.render.svgart import SPREADS

    if gradient.get("spreadMethod") is not None and gradient.get("spreadMethod") not in SPREADS:
        attrs["spreadMethod"] = "pad"
    href = gradient.get(f"{_XLINK}href") or gradient.get("href")  # SVG 1.1's first, as the PDF reads it
    if href is None:
        return
    target = ids.get(href[1:]) if href.startswith("#") else None
    if target is None or target.tag.rpartition("}")[2] not in _GRADIENTS:
        attrs.pop("href", None)
        attrs.pop("xlink:href", None)


#: The values of `image-rendering` Chromium draws a picture by in blocks (as generator.render.svgart reads them),
#: which librsvg 2.54 smooths; a `data:` picture; how many pixels a user unit such a picture is enlarged to in the
#: SVG output (:func:`_in_blocks`), and the most pixels it is enlarged to.
_BLOCKY = frozenset({"pixelated", "crisp-edges"})
_DATA_PICTURE = re.compile(r"\s*data:image/(png|jpeg|jpg);base64,(.*)", re.S)
_BLOCKS_PER_UNIT = 4
_BLOCKS_MOST = 4_000_000


def _rendering(source: Any, styles: dict[Any, list[tuple[str, str]]]) -> str:
    """The `image-rendering` an element is drawn by: its own (a rule, its style, its attribute), else its
    parent's (the property is inherited), else `auto`."""
    node = source
    while node is not None:
        declared = styles.get(node) or cascaded([], node.get("style") or "")
        value = next((value for name, value in reversed(declared) if name == "image-rendering"), None) or \
            node.get("image-rendering")
        if value is not None and value.strip().lower() not in ("inherit", "unset", ""):
            return value.strip().lower()
        node = node.getparent()
    return "auto"


def _in_blocks(href: str, width: str | None, height: str | None) -> str | None:
    """A picture drawn in blocks (`pixelated`) as the SVG output holds it: enlarged, each pixel a square of pixels
    (_BLOCKS_PER_UNIT a user unit of its `width` and `height`), which librsvg 2.54, smoothing it still, draws as
    blocks as Chromium does (the picture itself was smoothed into a blur); None when it is left as it is (no `data:`
    picture, no plain size, or enlarged by less than two)."""
    import base64
    import io
    import math

    from PIL import Image

    from generator.render.images import open_quietly

    match = _DATA_PICTURE.fullmatch(href)
    try:
        wide, high = float(width or ""), float(height or "")
    except ValueError:
        return None
    if match is None or not (wide > 0 and high > 0 and math.isfinite(wide * high)):
        return None
    with open_quietly(base64.b64decode(match.group(2))) as image:
        alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
        picture = image.convert("RGBA" if alpha else "RGB")
    scale = math.ceil(_BLOCKS_PER_UNIT * max(wide / picture.width, high / picture.height))
    scale = min(scale, math.floor(math.sqrt(_BLOCKS_MOST / (picture.width * picture.height))))
    if scale < 2:
        return None
    out = io.BytesIO()
    picture.resize((picture.width * scale, picture.height * scale), Image.Resampling.NEAREST).save(out, "PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def _clipped(attrs: dict[str, str]) -> bool:
    """Whether an element (its attributes, its style written) is clipped or masked."""
    said = {name: value for name, value in attrs.items() if name in ("clip-path", "mask")}
    said.update((name, value) for name, value in cascaded([], attrs.get("style", "")) if name in ("clip-path", "mask"))
    return any(value.strip().lower() != "none" for value in said.values())


def _number(value: float) -> str:
    """A number of CSS pixels as written in a viewBox: exact (a fraction of a pixel is the art's scale), shortest."""
    return repr(round(value, 6)).removesuffix(".0")


def _inlined(data: bytes, prefix: str, width: str, height: str) -> Element:
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True,
                             remove_pis=True)
    root = etree.fromstring(data, parser=parser)  # read and checked before (images.svg_size, svgart.read_art)
    cascade = Cascade(root, None)
    # every element's rules taken before anything changes (a rule may depend on an attribute renamed below)
    ruled = [(element, cascade.declared(element)) for element in root.iter() if isinstance(element.tag, str)]
    styles = {element: cascaded(declared, element.get("style") or "") for element, declared in ruled if declared}

    # art that blends (a `mix-blend-mode` in a style or a rule) is isolated as a picture is: its blends reach nothing
    # of the card under it
    blends = b"mix-blend-mode" in data
    ids = {element.get("id"): element for element in root.iter() if isinstance(element.tag, str) and element.get("id")}

    def renamed(value: str) -> str:
        return _URL_ID.sub(lambda match: f"url(#{prefix}.{match.group(2)})", value) if "url(" in value else value

    def made(source: Any) -> Element | None:
        tag = source.tag
        if tag.startswith(_SVG):
            tag = tag[len(_SVG):]
        elif tag.startswith("{"):
            return None  # another program's element (Inkscape's namedview, metadata): it draws nothing
        if tag == "style":
            return None  # its rules are in the styles (above)
        attrs: dict[str, str] = {}
        for name, value in source.attrib.items():
            if name.startswith(_XLINK):
                name = "xlink:" + name[len(_XLINK):]
            elif name.startswith(_XML):
                name = "xml:" + name[len(_XML):]
            elif name.startswith("{"):
                continue  # another program's attribute (inkscape:label...)
            if name == "id":
                value = f"{prefix}.{value}"
            elif name in ("href", "xlink:href") and value.strip().startswith("#"):
                value = f"#{prefix}.{value.strip()[1:]}"
            elif name == "style" and source in styles:
                continue  # written below, the stylesheet's rules with it
            attrs[name] = renamed(value)
        style = styles.get(source)
        if style:
            attrs["style"] = renamed("; ".join(f"{name}: {value}" for name, value in style))
        if blends and _clipped(attrs):
            # Chromium draws a clipped element as a group of its own, which a blend inside does not reach out of;
            # librsvg does not (measured): isolated here for it
            attrs["style"] = f"{attrs['style']}; isolation: isolate" if attrs.get("style") else "isolation: isolate"
        if tag in _GRADIENTS:
            _as_chromium_reads(source, attrs, ids)
        if tag == "image" and _rendering(source, styles) in _BLOCKY:
            for name in ("href", "xlink:href"):
                blocks = _in_blocks(attrs[name], attrs.get("width"), attrs.get("height")) if name in attrs else None
                if blocks is not None:
                    attrs[name] = blocks
        element = Element(tag, attrs)
        element.text = source.text
        element.tail = source.tail
        for child in source:
            if isinstance(child.tag, str):
                found = made(child)
                if found is not None:
                    element.append(found)
        return element

    drawing = made(root)
    assert drawing is not None  # the root is an <svg> (images.svg_size)
    drawing.tail = None
    if root.get("viewBox") is None:
        # alone, art with no viewBox draws in CSS pixels of its width and height; the symbol gives it its size in
        # points, so a viewBox of those pixels keeps a unit a pixel (images.svg_size sized such art by them)
        viewport = art_viewport(root)
        assert viewport is not None  # a width and a height (images.svg_size)
        drawing.set("viewBox", f"0 0 {_number(viewport[0])} {_number(viewport[1])}")
    for name in _PLACED:
        drawing.attrib.pop(name, None)
    # a nested drawing is cut to its viewport as the art alone was cut to its picture's box: `overflow` says so
    # whatever the art's root said (as a picture, the art never showed what it drew outside)
    style = drawing.get("style")
    own = "overflow: hidden; isolation: isolate" if blends else "overflow: hidden"
    drawing.set("style", f"{style}; {own}" if style else own)
    drawing.attrib.update({"x": "0", "y": "0", "width": width, "height": height})
    return drawing
