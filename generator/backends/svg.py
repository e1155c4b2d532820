"""The SVG backend: one drawing (a card face or back) as a standalone SVG file, built as a tree of the standard
library's ElementTree and written by :func:`_write`, which gives the bytes ElementTree's `tostring` gave in a third
of its time (it need not look for namespaces: the files declare theirs).

The geometry is the PDF's: the same primitives at the same coordinates (the viewBox is in points, the
document's size in millimetres). Icons are defined once per file as symbols and placed with `<use>`, and so are
pictures (`ImageUse`): each file once inside a symbol, a PNG or JPEG as a `data:` URI, SVG art drawn as vectors in
a nested `<svg>` (:mod:`generator.render.art_inline`: its ids prefixed by the picture's, its stylesheet written into
its elements' styles). Art embedded as an `<image>` of SVG data, as it was, was drawn by librsvg (rsvg-convert,
Inkscape's import) at the art's own pixel size and then enlarged: soft when zoomed or printed. A picture cropped
to its box is clipped by a `clipPath` in the card's own coordinates. Gradients are
`linearGradient`/`radialGradient` in user space (each defined once per file), a group is a `<g>` with its
transform, `clip-path`, luminance `mask` and `opacity`, and a recoloured picture is a picture of its own.

The SVGs are self-contained: text is drawn with the outlines of its fonts (donjon's own, and a deck's fonts of
its own alike), each glyph the file uses defined once (in thousandths of an em, from the font file by fontTools)
and placed with `<use>` at the advance the PDF gives it, so a card looks the same in every viewer, fonts
installed or not. (Viewers that take fonts from the system ignore `@font-face` and `textLength`: librsvg, behind
many converters, drew lines 10 mm wider and clipped them.) The text itself is kept in an invisible `<text>` over
the glyphs, so it can still be searched, selected and read aloud. That text is escaped (`&`, `<`, `>`,
quotes), so card text such as `</svg>` stays text; characters XML cannot hold at all (control characters) never
get this far, being refused where the text is read (`generator.fields.control_character`). Output is
deterministic: attributes are written in alphabetical order and numbers with at most three decimals.

Why not svgwrite (the library the first version used): it validates nothing with `debug=False`, yet importing it
costs about 30 ms (it loads urllib.request and compiles its validator's patterns), a fifth of a small build,
and it adds an object per element on top of ElementTree, which it writes with anyway. The files are the same.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable
from functools import cache, lru_cache
from xml.etree.ElementTree import Element, SubElement

from generator.backends import number as num
from generator.render.fonts import EM, FACES, advances, glyph_path
from generator.render.icons import layers
from generator.render.model import (
    MM,
    Circle,
    Drawing,
    Gradient,
    Group,
    IconUse,
    ImageUse,
    Line,
    Op,
    Page,
    Paint,
    Path,
    Primitive,
    Rect,
    TextRun,
    leaves,
)
from generator.render.text import has_rtl

#: The namespaces every file declares: SVG itself, XML events (as svgwrite wrote them) and XLink for `<use>`.
NAMESPACES = {"xmlns": "http://www.w3.org/2000/svg", "xmlns:ev": "http://www.w3.org/2001/xml-events",
              "xmlns:xlink": "http://www.w3.org/1999/xlink"}


def _element(tag: str, attrs: dict[str, str], text: str | None = None) -> Element:
    """An element with its attributes in alphabetical order (so equal drawings give equal bytes)."""
    element = Element(tag, dict(sorted(attrs.items())))
    element.text = text
    return element


def _families(face_id: str) -> str:
    face = FACES[face_id]
    generic = face.generic
    return f"'{face.family}', {generic}" if " " in face.family else f"{face.family}, {generic}"


def _paint_attrs(paint: Paint, fill: str | None = None) -> dict[str, str]:
    """The fill and stroke attributes of a paint (`fill`: what its gradient's fill is, `url(#...)`)."""
    out = {"fill": fill or (paint.fill if isinstance(paint.fill, str) else None) or "none"}
    if paint.stroke is not None:
        out["stroke"] = paint.stroke
        out["stroke-width"] = num(paint.width)
        if paint.dash:
            out["stroke-dasharray"] = " ".join(num(d) for d in paint.dash)
        if paint.cap != "butt":
            out["stroke-linecap"] = paint.cap
    return out


def path_data(ops: Iterable[tuple[str | float, ...]]) -> str:
    """Path operations (an icon layer or a Path primitive) as SVG path data."""
    return "".join(str(op[0]) + " ".join(num(float(v)) for v in op[1:]) for op in ops)


#: Path data kept by its operations: a card is drawn in its own coordinates, so a clip outline or a hatching comes
#: back, the same hundred numbers, on every card of a deck. Bounded, as the PDF backend's shapes are.
PATHS_KEPT = 1024


@lru_cache(maxsize=PATHS_KEPT)
def _shape_data(ops: tuple[Op, ...]) -> str:
    """A Path primitive's operations, or a clip's, as SVG path data."""
    return path_data(ops)


def drawing_svg(drawing: Drawing, title: str = "") -> str:
    """A drawing as the text of an SVG file, its bleed included when it has one."""
    b = drawing.bleed
    w, h = drawing.width + 2 * b, drawing.height + 2 * b
    root = _element("svg", {"baseProfile": "full", "version": "1.1", "width": f"{num(w / MM)}mm",
                            "height": f"{num(h / MM)}mm", "viewBox": f"{num(-b)} {num(-b)} {num(w)} {num(h)}",
                            **NAMESPACES})
    if title:
        SubElement(root, "title").text = title
    defs = SubElement(root, "defs")
    drawn = list(leaves(drawing.items))
    used = {(item.font, char) for item in drawn if isinstance(item, TextRun) for char in set(item.text)}
    glyphs = [_glyph_def(face, char) for face, char in sorted(used, key=lambda g: (g[0], ord(g[1])))
              if _glyph_ref(face, char)]
    for name in sorted({item.name for item in drawn if isinstance(item, IconUse)}):
        symbol = _element("symbol", {"id": f"icon-{name}", "viewBox": "0 0 100 100"})
        for layer in layers(name):
            symbol.append(_element("path", {"d": path_data(layer), "fill-rule": "evenodd"}))
        defs.append(symbol)
    # the body after <defs>: elements, and the runs' glyphs as text already written (thousands of <use> per deck,
    # which as elements would cost more to make and to write than all the rest)
    body: list[Element | str] = []
    if drawing.background is not None:
        body.append(_element("rect", {"x": num(-b), "y": num(-b), "width": num(w), "height": num(h),
                                      "fill": drawing.background}))
    _Body(defs, _pictures(defs, drawn), body).add(drawing.items)
    out: list[str] = [f"<svg{_attributes(root)}>"]
    for child in root:  # the title and the definitions, the glyphs' first
        if child is defs and glyphs:
            out += ["<defs>", *glyphs]
            for definition in defs:
                _write(definition, out)
            out.append("</defs>")
        else:
            _write(child, out)
    for part in body:
        if isinstance(part, str):
            out.append(part)
        else:
            _write(part, out)
    out.append("</svg>\n")
    return "".join(out)


def page_svg(page: Page, title: str = "") -> str:
    """A page of a document (a score sheet) as the text of an SVG file of the page's size: its placed drawings, then
    its own primitives (the page line and ruler). Its form fields are left out (an SVG has none), and so are a
    printer's scale and offset: an SVG is the page as designed, not as one printer needs it."""
    items: list[Primitive] = []
    for placed in page.placed:
        d = placed.drawing
        # a drawing turned by 180 degrees about its own centre, then placed: the matrix the PDF backend applies
        matrix = (-1.0, 0.0, 0.0, -1.0, placed.x + d.width, placed.y + d.height) if placed.turned else \
            (1.0, 0.0, 0.0, 1.0, placed.x, placed.y)
        inner = tuple(d.items) if d.background is None else (
            Rect(0.0, 0.0, d.width, d.height, Paint(fill=d.background)), *d.items)
        if matrix == (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
            items.extend(inner)  # a sheet's one drawing fills its page: drawn as it is
        else:
            items.append(Group(inner, matrix))
    items.extend(page.items)
    return drawing_svg(Drawing(page.width, page.height, tuple(items)), title)


#: What ElementTree escapes in attribute values and in text: the files are byte for byte those its `tostring`
#: wrote, which spends most of its time looking for namespaces these files declare themselves.
_ATTRIBUTE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;", "\n": "&#10;",
                            "\t": "&#09;"})
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
#: Most values (numbers, ids, colours) hold nothing to escape, and a search is far quicker than a translation.
_SPECIAL = re.compile(r'[&<>"\r\n\t]')


def _attribute(value: str) -> str:
    return value.translate(_ATTRIBUTE) if _SPECIAL.search(value) else value


def _attributes(element: Element) -> str:
    return "".join([f' {key}="{_attribute(value)}"' for key, value in element.attrib.items()])


def _write(element: Element, out: list[str]) -> None:
    """Serialise `element` into `out`: attributes in the order given, empty elements closed with ` />`; one of
    :data:`_WRITTEN` as its text, written already."""
    if element.tag == _WRITTEN:
        out.append(element.text or "")
        return
    attrs = _attributes(element)
    if element.text or len(element):
        out.append(f"<{element.tag}{attrs}>")
        if element.text:
            out.append(element.text.translate(_TEXT))
        for child in element:
            _write(child, out)
        out.append(f"</{element.tag}>")
    else:
        out.append(f"<{element.tag}{attrs} />")
    if element.tail:
        out.append(element.tail.translate(_TEXT))


class _Body:
    """The elements of a drawing's primitives, in order, with what they refer to defined in `defs` as they come:
    clip paths, masks, gradients (each gradient once)."""

    def __init__(self, defs: Element, pictures: dict[tuple[str, str | None], str], out: list[Element | str]) -> None:
        self.defs, self.pictures, self.out = defs, pictures, out
        self.clips = 0
        self.masks = 0
        self.gradients: dict[Gradient, str] = {}

    def add(self, items: Iterable[Primitive]) -> None:
        out = self.out
        for item in items:
            if isinstance(item, TextRun):
                if item.outline is not None:
                    out.append(_glyphs(item, outline=True))
                out.append(_glyphs(item))
                out.append(_primitive(item))
            elif isinstance(item, ImageUse):
                self._picture(item)
            elif isinstance(item, Group):
                self._group(item)
            elif isinstance(item, (Rect, Circle, Path)) and isinstance(item.paint.fill, Gradient):
                element = _primitive(item)
                element.attrib["fill"] = f"url(#{self._gradient(item.paint.fill)})"
                out.append(_element(element.tag, dict(element.attrib)))
            else:
                out.append(_primitive(item))

    def _clip(self, shape: Element) -> str:
        self.clips += 1
        clip = SubElement(self.defs, "clipPath", {"id": f"clip-{self.clips}"})
        clip.append(shape)
        return f"url(#clip-{self.clips})"

    def _picture(self, item: ImageUse) -> None:
        use = _element("use", {"xlink:href": f"#{self.pictures[(item.source, item.tint)]}", "x": num(item.x),
                               "y": num(item.y), "width": num(item.w), "height": num(item.h)})
        if item.clip is None:
            self.out.append(use)
            return
        x, y, cw, ch = item.clip
        group = _element("g", {"clip-path": self._clip(_element("rect", {"x": num(x), "y": num(y), "width": num(cw),
                                                                         "height": num(ch)}))})
        group.append(use)
        self.out.append(group)

    def _gradient(self, gradient: Gradient) -> str:
        """The id of the gradient's definition, made on its first use in the file."""
        found = self.gradients.get(gradient)
        if found is None:
            found = self.gradients[gradient] = f"gradient-{len(self.gradients) + 1}"
            if gradient.kind == "linear":
                x1, y1, x2, y2 = gradient.coords
                attrs = {"x1": num(x1), "y1": num(y1), "x2": num(x2), "y2": num(y2)}
            else:
                cx, cy, r = gradient.coords
                attrs = {"cx": num(cx), "cy": num(cy), "r": num(r)}
            element = SubElement(self.defs, f"{gradient.kind}Gradient",
                                 dict(sorted({"id": found, "gradientUnits": "userSpaceOnUse", **attrs}.items())))
            for offset, colour in gradient.stops:
                element.append(_element("stop", {"offset": num(offset), "stop-color": colour}))
        return found

    def _group(self, group: Group) -> None:
        if group.plain:  # only a mark (decoration): drawn as its items are
            self.add(group.items)
            return
        attrs: dict[str, str] = {}
        if group.matrix is not None:
            attrs["transform"] = f"matrix({' '.join(num(v) for v in group.matrix)})"
        if group.clip is not None:
            attrs["clip-path"] = self._clip(_element("path", {"clip-rule": "evenodd", "d": _shape_data(group.clip)}))
        if group.mask is not None:
            mask = group.mask
            self.masks += 1
            box = {"x": num(mask.x), "y": num(mask.y), "width": num(mask.w), "height": num(mask.h)}
            element = SubElement(self.defs, "mask", dict(sorted({"id": f"mask-{self.masks}",
                                                                 "maskUnits": "userSpaceOnUse", **box}.items())))
            element.append(_element("use", {"xlink:href": f"#{self.pictures[(mask.source, mask.tint)]}", **box}))
            attrs["mask"] = f"url(#mask-{self.masks})"
        if group.opacity < 1:
            attrs["opacity"] = num(group.opacity)
        self.out.append(f"<g{_attributes(_element('g', attrs))}>")
        self.add(group.items)
        self.out.append("</g>")


_MIME = {"png": "image/png", "jpeg": "image/jpeg", "svg": "image/svg+xml"}


def _pictures(defs: Element, items: Iterable[Primitive]) -> dict[tuple[str, str | None], str]:
    """Define each picture file the drawing uses (each recolouring of it apart) once in `defs`, as a symbol of its
    own size holding it as a data: URI; its id by file and tint."""
    wanted = [item for item in items if isinstance(item, ImageUse)]
    if not wanted:
        return {}
    import base64
    from pathlib import Path as FilePath

    from generator.render.images import image_data

    ids: dict[tuple[str, str | None], str] = {}
    by_digest: dict[str, str] = {}
    for item in wanted:
        if (item.source, item.tint) in ids:
            continue
        info, data = image_data(FilePath(item.source))
        if item.tint is not None:
            from generator.render.recolour import recolour

            info, data = recolour(info, data, item.tint)
        found = by_digest.get(info.digest)
        if found is None:
            found = by_digest[info.digest] = f"picture-{len(by_digest) + 1}"
            size = {"width": num(info.width), "height": num(info.height), "preserveAspectRatio": "none"}
            symbol = _element("symbol", {"id": found, "viewBox": f"0 0 {num(info.width)} {num(info.height)}",
                                         "preserveAspectRatio": "none"})
            if info.kind == "svg":  # as vectors, not as a picture librsvg draws at its own pixel size
                symbol.append(_written_art(data, info.digest, found, num(info.width), num(info.height)))
            else:
                uri = f"data:{_MIME[info.kind]};base64,{base64.b64encode(data).decode('ascii')}"
                symbol.append(_element("image", {"xlink:href": uri, "x": "0", "y": "0", **size}))
            defs.append(symbol)
        ids[(item.source, item.tint)] = found
    return ids


#: The tag of an element :func:`_write` writes as its text, already written (art inlined).
_WRITTEN = "donjon-written"
#: How many pieces of art inlined are kept written, by the art file's digest, the picture's id and its size: a
#: deck's hundred cards carry the same art at the same size, written once (a drawing of 5,000 elements took 0.05 s
#: a card to write). Bounded, for a long `--watch`.
ART_KEPT = 16
_art_written: OrderedDict[tuple[str, str, str, str], Element] = OrderedDict()


def _written_art(data: bytes, digest: str, prefix: str, width: str, height: str) -> Element:
    """SVG art (the file of `digest`) as a nested `<svg>` (:func:`generator.render.art_inline.inline_art`), written
    once and kept: an element :func:`_write` puts in as it is."""
    key = (digest, prefix, width, height)
    found = _art_written.get(key)
    if found is not None:
        _art_written.move_to_end(key)
        return found
    from generator.render.art_inline import inline_art

    out: list[str] = []
    _write(inline_art(data, prefix, width, height), out)
    found = _art_written[key] = Element(_WRITTEN)
    found.text = "".join(out)
    while len(_art_written) > ART_KEPT:
        _art_written.popitem(last=False)
    return found


@cache
def _glyph_ref(face: str, char: str) -> str:
    """`#id` of a glyph's outline in `defs`, or "" for a glyph that draws nothing (a space). Cached: a deck's text
    uses a few hundred glyphs thousands of times."""
    return f"#{_glyph_id(face, char)}" if glyph_path(face, char) else ""


@cache
def _glyph_def(face: str, char: str) -> str:
    """A glyph's outline in `defs`, as :func:`_write` writes its `<path>`. Cached: every card defines the glyphs it
    uses again (some 2,500 for the 100-card deck), and making and writing each as an element anew, its long path
    data searched for characters to escape, was some 75 M instructions of that deck's 260 M of SVGs."""
    return f'<path d="{_attribute(glyph_path(face, char))}" id="{_attribute(_glyph_id(face, char))}" />'


@cache
def _glyph_id(face: str, char: str) -> str:
    """The id of a glyph's outline in `defs`. Cached: every card defines the glyphs it uses again."""
    # a font of one's own has `@` and its digest in its face id; an XML id holds only name characters
    return f"g-{re.sub(r'[^A-Za-z0-9.-]', '_', face)}-{ord(char):x}"


def _glyphs(run: TextRun, outline: bool = False) -> str:
    """A run of text as its glyphs' outlines, each at the advance the PDF gives it (letter spacing included): a
    group of `<use>`, written as :func:`_write` would write it (the references and numbers hold nothing to
    escape). `outline`: the run's outline instead, a stroke twice its width that the letters then cover half of,
    as the PDF draws it."""
    scale = run.size / EM
    transform = f"translate({num(run.x)} {num(run.y)})"
    if run.rotate:
        transform += f" rotate({-run.rotate})"
    # a scale of points per thousandth of an em needs more than three decimals (9 pt is 0.009)
    fine = f"{scale:.7f}".rstrip("0")
    if outline and run.outline is not None:
        paint = (f'fill="none" stroke="{_attribute(run.outline)}" stroke-linejoin="round" '
                 f'stroke-width="{num(2 * run.outline_width / scale)}"')
    else:
        paint = f'fill="{_attribute(run.colour)}"'
    head = f'<g {paint} transform="{transform} scale({fine} -{fine})"'
    uses: list[str] = []
    pen = 0.0
    font = run.font
    spacing = run.spacing / scale
    placed = _PLACED.setdefault(font, {})
    for char in run.text:
        found = placed.get(char)
        if found is None:
            found = placed[char] = _place(font, char)
        ref, advance = found
        if ref:
            uses.append(f'<use x="{num(pen)}" xlink:href="{ref}" />' if pen else f'<use xlink:href="{ref}" />')
        pen += advance + spacing
    return f"{head}>{''.join(uses)}</g>" if uses else f"{head} />"


#: For each face, each character :func:`_glyphs` placed: its glyph's `#id` ("" for one that draws nothing) and its
#: advance (the PDF's). One look-up a character: a deck's runs place some ten thousand.
_PLACED: dict[str, dict[str, tuple[str, float]]] = {}


def _place(font: str, char: str) -> tuple[str, float]:
    widths, missing = advances(font)
    return _glyph_ref(font, char), float(widths.get(ord(char), missing))  # fonts.advance


def _primitive(item: Primitive) -> Element:
    if isinstance(item, TextRun):
        # the text itself, invisible over its glyphs: for searching, selecting and reading aloud
        face = FACES[item.font]
        attrs = {"font-family": _families(item.font), "font-size": num(item.size), "fill": "none",
                 "textLength": num(item.width), "x": num(item.x), "y": num(item.y)}
        if face.bold:
            attrs["font-weight"] = "bold"
        if face.italic:
            attrs["font-style"] = "italic"
        if has_rtl(item.text):  # already in the order it is drawn: a viewer must not reorder it again
            attrs["unicode-bidi"], attrs["direction"] = "bidi-override", "ltr"
        if item.rotate:
            attrs["transform"] = f"rotate({-item.rotate} {num(item.x)} {num(item.y)})"
        return _element("text", attrs, item.text)
    if isinstance(item, IconUse):
        return _element("use", {"xlink:href": f"#icon-{item.name}", "x": num(item.x), "y": num(item.y),
                                "width": num(item.size), "height": num(item.size), "fill": item.colour})
    if isinstance(item, Rect):
        attrs = _paint_attrs(item.paint)
        if item.r > 0:
            attrs["rx"] = num(item.r)
        return _element("rect", {"x": num(item.x), "y": num(item.y), "width": num(item.w), "height": num(item.h),
                                 **attrs})
    if isinstance(item, Circle):
        return _element("circle", {"cx": num(item.cx), "cy": num(item.cy), "r": num(item.r),
                                   **_paint_attrs(item.paint)})
    if isinstance(item, Line):
        attrs = {"stroke": item.colour, "stroke-width": num(item.width)}
        if item.dash:
            attrs["stroke-dasharray"] = " ".join(num(d) for d in item.dash)
        if item.cap != "butt":
            attrs["stroke-linecap"] = item.cap
        return _element("line", {"x1": num(item.x1), "y1": num(item.y1), "x2": num(item.x2), "y2": num(item.y2),
                                 **attrs})
    assert isinstance(item, Path)
    attrs = _paint_attrs(item.paint)
    if item.evenodd:
        attrs["fill-rule"] = "evenodd"
    return _element("path", {"d": _shape_data(item.ops), **attrs})
