"""The SVG backend: one drawing (a card face or back) as a standalone SVG file, through svgwrite.

The geometry is the PDF's: the same primitives at the same coordinates (the viewBox is in points, the
document's size in millimetres). Text stays text, in the same font family, weight and style, with
`textLength` set to the advance measured from the TTF, so each run spans exactly what it spans in the PDF even
where a viewer substitutes a font. svgwrite escapes the text (`&`, `<`, `>`, quotes), so card text such as
`</svg>` stays text. Icons are defined once per file as symbols and placed with `<use>`, and so are pictures
(`ImageUse`): each file once, as a `data:` URI inside a symbol, so the SVG carries its art and stays vector where
the art is an SVG (a viewer draws an SVG picture as vectors, with scripts and outside files disabled). A picture
cropped to its box is clipped by a `clipPath` in the card's own coordinates.
Output is deterministic: attributes are written in a fixed order and numbers with at most three decimals.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from generator.backends import number as num
from generator.render.fonts import FACES
from generator.render.icons import layers
from generator.render.model import MM, Circle, Drawing, IconUse, ImageUse, Line, Paint, Path, Primitive, Rect, TextRun


def _families(face_id: str) -> str:
    face = FACES[face_id]
    generic = face.generic
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
    used = sorted({item.name for item in drawing.items if isinstance(item, IconUse)})
    for name in used:
        symbol = dwg.symbol(id=f"icon-{name}")
        symbol["viewBox"] = "0 0 100 100"
        for layer in layers(name):
            symbol.add(dwg.path(d=path_data(layer), **{"fill-rule": "evenodd"}))
        dwg.defs.add(symbol)
    pictures = _pictures(dwg, drawing.items)
    if drawing.background is not None:
        dwg.add(dwg.rect(insert=(num(-b), num(-b)), size=(num(w), num(h)), fill=drawing.background))
    clips = 0
    for item in drawing.items:
        if isinstance(item, ImageUse):
            use = dwg.use(f"#{pictures[item.source]}", insert=(num(item.x), num(item.y)),
                          size=(num(item.w), num(item.h)))
            if item.clip is None:
                dwg.add(use)
                continue
            clips += 1
            clip = dwg.clipPath(id=f"clip-{clips}")
            clip.add(dwg.rect(insert=(num(item.clip[0]), num(item.clip[1])), size=(num(item.clip[2]),
                                                                                     num(item.clip[3]))))
            dwg.defs.add(clip)
            group = dwg.g(clip_path=f"url(#clip-{clips})")
            group.add(use)
            dwg.add(group)
            continue
        dwg.add(_element(dwg, item))
    return str(dwg.tostring()) + "\n"


_MIME = {"png": "image/png", "jpeg": "image/jpeg", "svg": "image/svg+xml"}


def _pictures(dwg: Any, items: Iterable[Primitive]) -> dict[str, str]:
    """Define each picture file the drawing uses once, as a symbol of its own size holding it as a data: URI;
    its id by file."""
    wanted = [item for item in items if isinstance(item, ImageUse)]
    if not wanted:
        return {}
    import base64
    from pathlib import Path as FilePath

    from generator.render.images import image_data

    ids: dict[str, str] = {}
    by_digest: dict[str, str] = {}
    for item in wanted:
        if item.source in ids:
            continue
        info, data = image_data(FilePath(item.source))
        found = by_digest.get(info.digest)
        if found is None:
            found = by_digest[info.digest] = f"picture-{len(by_digest) + 1}"
            symbol = dwg.symbol(id=found)
            symbol["viewBox"] = f"0 0 {num(info.width)} {num(info.height)}"
            symbol["preserveAspectRatio"] = "none"
            uri = f"data:{_MIME[info.kind]};base64,{base64.b64encode(data).decode('ascii')}"
            picture = dwg.image(href=uri, insert=(0, 0), size=(num(info.width), num(info.height)))
            picture["preserveAspectRatio"] = "none"
            symbol.add(picture)
            dwg.defs.add(symbol)
        ids[item.source] = found
    return ids


def _element(dwg: Any, item: Primitive) -> Any:
    if isinstance(item, TextRun):
        face = FACES[item.font]
        attrs = {"font-family": _families(item.font), "font-size": num(item.size)}
        if face.bold:
            attrs["font-weight"] = "bold"
        if face.italic:
            attrs["font-style"] = "italic"
        attrs["fill"] = item.colour
        attrs["textLength"] = num(item.width)
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
