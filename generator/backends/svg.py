"""The SVG backend: one drawing (a card face or back) as a standalone SVG file, through svgwrite.

The geometry is the PDF's: the same primitives at the same coordinates (the viewBox is in points, the
document's size in millimetres). Icons are defined once per file as symbols and placed with `<use>`.

The SVGs are self-contained: text is drawn with the outlines of donjon's own fonts, each glyph the file uses
defined once (in thousandths of an em, from the TTF by fontTools) and placed with `<use>` at the advance the
PDF gives it, so a card looks the same in every viewer, fonts installed or not. (Viewers that take fonts from
the system ignore `@font-face` and `textLength`: librsvg, behind many converters, drew lines 10 mm wider and
clipped them.) The text itself is kept in an invisible `<text>` over the glyphs, so it can still be searched,
selected and read aloud. svgwrite escapes that text (`&`, `<`, `>`, quotes), so card text such as `</svg>`
stays text. Output is deterministic: attributes are written in a fixed order and numbers with at most three
decimals.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from generator.backends import number as num
from generator.render.fonts import EM, FACES, advance, glyph_path
from generator.render.icons import layers
from generator.render.text import has_rtl
from generator.render.model import MM, Circle, Drawing, IconUse, Line, Paint, Path, Primitive, Rect, TextRun


def _families(face_id: str) -> str:
    face = FACES[face_id]
    generic = "serif" if face.family == "Cardo" else "sans-serif"
    return f"'{face.family}', {generic}" if " " in face.family else f"{face.family}, {generic}"


def _paint_attrs(paint: Paint) -> dict[str, str]:
    out = {"fill": paint.fill or "none"}
    if paint.stroke is not None:
        out["stroke"] = paint.stroke
        out["stroke-width"] = num(paint.width)
        if paint.dash:
            out["stroke-dasharray"] = " ".join(num(d) for d in paint.dash)
    return out


def path_data(ops: Iterable[tuple[str | float, ...]]) -> str:
    """Path operations (an icon layer or a Path primitive) as SVG path data."""
    return "".join(str(op[0]) + " ".join(num(float(v)) for v in op[1:]) for op in ops)


def drawing_svg(drawing: Drawing, title: str = "") -> str:
    """A drawing as the text of an SVG file, its bleed included when it has one."""
    import svgwrite

    b = drawing.bleed
    w, h = drawing.width + 2 * b, drawing.height + 2 * b
    dwg: Any = svgwrite.Drawing(size=(f"{num(w / MM)}mm", f"{num(h / MM)}mm"), profile="full", debug=False)
    dwg["viewBox"] = f"{num(-b)} {num(-b)} {num(w)} {num(h)}"
    if title:
        dwg.set_desc(title=title)
    glyphs = sorted({(item.font, char) for item in drawing.items if isinstance(item, TextRun) for char in item.text
                     if glyph_path(item.font, char)}, key=lambda g: (g[0], ord(g[1])))
    for face, char in glyphs:
        dwg.defs.add(dwg.path(d=glyph_path(face, char), id=_glyph_id(face, char)))
    used = sorted({item.name for item in drawing.items if isinstance(item, IconUse)})
    for name in used:
        symbol = dwg.symbol(id=f"icon-{name}")
        symbol["viewBox"] = "0 0 100 100"
        for layer in layers(name):
            symbol.add(dwg.path(d=path_data(layer), **{"fill-rule": "evenodd"}))
        dwg.defs.add(symbol)
    if drawing.background is not None:
        dwg.add(dwg.rect(insert=(num(-b), num(-b)), size=(num(w), num(h)), fill=drawing.background))
    for item in drawing.items:
        if isinstance(item, TextRun):
            dwg.add(_glyphs(dwg, item))
        dwg.add(_element(dwg, item))
    return str(dwg.tostring()) + "\n"


def _glyph_id(face: str, char: str) -> str:
    return f"g-{face}-{ord(char):x}"


def _glyphs(dwg: Any, run: TextRun) -> Any:
    """A run of text as its glyphs' outlines, each at the advance the PDF gives it."""
    scale = run.size / EM
    transform = f"translate({num(run.x)} {num(run.y)})"
    if run.rotate:
        transform += f" rotate({-run.rotate})"
    # a scale of points per thousandth of an em needs more than three decimals (9 pt is 0.009)
    fine = f"{scale:.7f}".rstrip("0")
    group = dwg.g(fill=run.colour, transform=f"{transform} scale({fine} -{fine})")
    pen = 0.0
    for char in run.text:
        if glyph_path(run.font, char):
            use = dwg.use(f"#{_glyph_id(run.font, char)}")
            if pen:
                use["x"] = num(pen)
            group.add(use)
        pen += advance(run.font, char)
    return group


def _element(dwg: Any, item: Primitive) -> Any:
    if isinstance(item, TextRun):
        # the text itself, invisible over its glyphs: for searching, selecting and reading aloud
        face = FACES[item.font]
        attrs = {"font-family": _families(item.font), "font-size": num(item.size)}
        if face.bold:
            attrs["font-weight"] = "bold"
        if face.italic:
            attrs["font-style"] = "italic"
        attrs["fill"] = "none"
        attrs["textLength"] = num(item.width)
        if has_rtl(item.text):  # already in the order it is drawn: a viewer must not reorder it again
            attrs["unicode-bidi"], attrs["direction"] = "bidi-override", "ltr"
        if item.rotate:
            attrs["transform"] = f"rotate({-item.rotate} {num(item.x)} {num(item.y)})"
        text = dwg.text(item.text, **attrs)
        text["x"], text["y"] = num(item.x), num(item.y)
        return text
    if isinstance(item, IconUse):
        use = dwg.use(f"#icon-{item.name}", insert=(num(item.x), num(item.y)), size=(num(item.size), num(item.size)))
        use["fill"] = item.colour
        return use
    if isinstance(item, Rect):
        attrs = _paint_attrs(item.paint)
        if item.r > 0:
            attrs["rx"] = num(item.r)
        return dwg.rect(insert=(num(item.x), num(item.y)), size=(num(item.w), num(item.h)), **attrs)
    if isinstance(item, Circle):
        return dwg.circle(center=(num(item.cx), num(item.cy)), r=num(item.r), **_paint_attrs(item.paint))
    if isinstance(item, Line):
        attrs = {"stroke": item.colour, "stroke-width": num(item.width)}
        if item.dash:
            attrs["stroke-dasharray"] = " ".join(num(d) for d in item.dash)
        return dwg.line(start=(num(item.x1), num(item.y1)), end=(num(item.x2), num(item.y2)), **attrs)
    assert isinstance(item, Path)
    attrs = _paint_attrs(item.paint)
    if item.evenodd:
        attrs["fill-rule"] = "evenodd"
    return dwg.path(d=path_data(item.ops), **attrs)
