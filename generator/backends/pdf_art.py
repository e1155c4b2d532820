"""SVG art drawn into the PDF: the shapes :mod:`generator.render.svgart` read from the file, written as one form
XObject whose resources hold everything it uses.

reportlab's own renderer (renderPDF) draws svglib's shapes into a page; a form drawn with it lost the shadings of
its gradients (they printed black, and poppler called the file broken) and had no way to fade a group. This
renderer draws the same shapes with reportlab's drawing calls, and adds:

- **one resource dictionary per picture**, shared by its form and the forms inside it: its graphics states
  (opacities, soft masks), its shadings and its images, each named for this picture;
- **opacity** (:class:`~generator.render.svgart.Faded`): the group drawn into a transparency group form and
  placed at that opacity, so overlapping shapes inside it fade as one, as in a viewer;
- **blend modes** (:class:`~generator.render.svgart.Blended`): the element drawn into an isolated transparency
  group form, placed under a graphics state of its blend mode (`/BM`, ISO 32000-1, 11.3.5: CSS's modes are PDF's),
  so it blends with what is under it in the art as in Chromium; art that blends is itself a group, so its blends
  reach nothing of the card under it (a picture's do not in Chromium);
- **gradients** (:class:`~generator.render.svgart.GradientFill`): the shape's outline clips a shading drawn in
  the gradient's own space (its units and `gradientTransform`), axial, or radial from its focus; stops that are
  not opaque, and the shape's `fill-opacity`, become a soft mask of the same geometry in grey;
- **patterns** (:class:`~generator.render.svgart.PatternFill`): the shape's outline clips the pattern's tiles,
  drawn as the rest of the art is (a ground or a stripe spanning a tile drawn once across the tiles, a dot
  written at both edges of a tile drawn whole in one: no seam where tiles meet); a pattern on a stroke is drawn
  under a soft mask of the stroke;
- **pictures** smoothed when scaled (`/Interpolate`), as viewers draw them, unless `image-rendering` says
  `pixelated` or `crisp-edges`; a small one drawn large is enlarged first, as Chromium smooths it (:func:`enlarged`);
- **masks** (:class:`~generator.render.svgart.Masked`): the element drawn into a transparency group form,
  painted under a soft mask (`/SMask`, ISO 32000-1, 11.6.5) whose group draws the mask's contents cut to its
  region: `/Luminosity` of those contents drawn in grey, each colour its luminance as librsvg and Chromium weigh
  it (:data:`LUMINANCE`; a PDF reader's own RGB to grey weighs otherwise), or `/Alpha` for `mask-type: alpha`;
- **embedded pictures** (:class:`~generator.render.svgart.Embedded`): image XObjects made as the picture files
  of a deck are (`generator.backends.pdf`), not inline images.

A colour's transparency (`fill-opacity`, `stroke-opacity`, `rgba()`) is a graphics state of its own, as reportlab
would write it; a stroke's miter limit is written (reportlab's renderer left the PDF's own 10 where SVG's is 4).
Nothing sets a font: art holds no text (generator.render.images refuses it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any

from generator.backends import number as n
from generator.render.ink import Inks
from generator.render.svgart import (MITER_LIMIT, Art, Blended, Embedded, Faded, GradientFill, Masked, PatternFill,
                                     nodes_inside)

#: Room added around a faded group's shapes for its strokes, in widths of the widest stroke it holds, at the least
#: (miter joins reach further than half a stroke, up to half the miter limit times the width: four times the width
#: covers SVG's default miter limit of 4; a larger limit written in the file widens it).
_MITER_REACH = 4.0


class ArtResources:
    """What a picture's forms use, by name: the dictionary written once and shared by all of its forms."""

    def __init__(self, doc: Any, raster: Callable[[Embedded], Any], inks: Inks,
                 sizes: dict[str, tuple[int, int]] | None = None) -> None:
        from reportlab.pdfbase.pdfdoc import PDFDictionary

        self.doc = doc
        #: each enlarged picture's own pixels, by its XObject's reference name (the document's, shared by every art
        #: form): the preflight judges the picture, not the copy enlarged for smoothing (PdfStats.enlarged)
        self.sizes = sizes
        self.raster = raster
        self.inks = inks
        self.states: dict[str, Any] = {}
        self.state_names: dict[tuple[str, float | str], str] = {}
        self.shadings: dict[str, Any] = {}
        self.xobjects: dict[str, Any] = {}
        # each picture as enlarged for the size it is drawn at (enlarged()), by the picture and that size
        self.enlarged: dict[tuple[int, int, int], tuple[Embedded, Embedded]] = {}
        self.dictionary = PDFDictionary({})
        self.reference = doc.Reference(self.dictionary)

    def alpha(self, key: str, value: float) -> str:
        """The name of a graphics state setting `ca` (fill) or `CA` (stroke) to `value`."""
        from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFName

        value = round(value, 4)
        name = self.state_names.get((key, value))
        if name is None:
            name = self.state_names[(key, value)] = f"A{len(self.states) + 1}"
            self.states[name] = PDFDictionary({"Type": PDFName("ExtGState"), key: value})
        return name

    def both_alphas(self, value: float) -> str:
        from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFName

        value = round(value, 4)
        name = self.state_names.get(("both", value))
        if name is None:
            name = self.state_names[("both", value)] = f"A{len(self.states) + 1}"
            self.states[name] = PDFDictionary({"Type": PDFName("ExtGState"), "ca": value, "CA": value})
        return name

    def blend(self, mode: str) -> str:
        """The name of a graphics state setting the blend mode `mode` (a PDF name: `Multiply`...)."""
        from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFName

        name = self.state_names.get(("BM", mode))
        if name is None:
            name = self.state_names[("BM", mode)] = f"A{len(self.states) + 1}"
            self.states[name] = PDFDictionary({"Type": PDFName("ExtGState"), "BM": PDFName(mode)})
        return name

    def soft_mask(self, form: Any, kind: str = "Luminosity") -> str:
        """A graphics state whose soft mask is the luminosity (or, `kind` "Alpha", the alpha) of `form` (a form
        XObject reference)."""
        from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFName

        name = f"A{len(self.states) + 1}"
        self.states[name] = PDFDictionary({"Type": PDFName("ExtGState"), "SMask": PDFDictionary(
            {"Type": PDFName("Mask"), "S": PDFName(kind), "G": form})})
        return name

    def shading(self, shading: Any) -> str:
        name = f"Sh{len(self.shadings) + 1}"
        self.shadings[name] = self.doc.Reference(shading)
        return name

    def xobject(self, reference: Any) -> str:
        name = f"X{len(self.xobjects) + 1}"
        self.xobjects[name] = reference
        return name

    def form(self, content: str, bbox: tuple[float, float, float, float], group: Any = None) -> Any:
        """A form XObject drawing `content` with these resources (a transparency group when `group` is given)."""
        from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream, PDFStreamFilterZCompress

        entries: dict[str, Any] = {"Type": PDFName("XObject"), "Subtype": PDFName("Form"),
                                   "BBox": PDFArray([round(v, 3) for v in bbox]), "Resources": self.reference}
        if group is not None:
            entries["Group"] = group
        return PDFStream(PDFDictionary(entries), content.encode("latin-1"), filters=[PDFStreamFilterZCompress()])

    def close(self) -> None:
        """Write the names gathered into the shared dictionary (before the document is saved)."""
        from reportlab.pdfbase.pdfdoc import PDFDictionary

        entries: dict[str, Any] = {}
        if self.states:
            entries["ExtGState"] = PDFDictionary(dict(self.states))
        if self.shadings:
            entries["Shading"] = PDFDictionary(dict(self.shadings))
        if self.xobjects:
            entries["XObject"] = PDFDictionary(dict(self.xobjects))
        self.dictionary.dict.update(entries)


def transparency_group(colour_space: str | None = None) -> Any:
    """A transparency group, isolated as SVG's groups are (drawn on their own, then laid over what is below at
    their opacity); a soft mask's group in `colour_space`."""
    from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFName

    entries: dict[str, Any] = {"Type": PDFName("Group"), "S": PDFName("Transparency"), "I": "true"}
    if colour_space:
        entries["CS"] = PDFName(colour_space)
    return PDFDictionary(entries)


def art_form(canvas: Any, art: Art, raster: Callable[[Embedded], Any], inks: Inks,
             sizes: dict[str, tuple[int, int]] | None = None) -> tuple[Any, float, float]:
    """The form XObject (a stream, not yet registered) that draws `art` in a box of its own size in points, every
    colour in the document's inks (RGB, or CMYK through its profile); its width and height."""
    drawing = art.drawing
    width, height = float(drawing.width), float(drawing.height)
    resources = ArtResources(canvas._doc, raster, inks, sizes)
    content = _Painter(canvas, resources).paint(drawing)
    resources.close()
    # art that blends is a group of its own, as a picture is in Chromium: its blends reach nothing of the card
    group = transparency_group() if _blends(art) else None
    return resources.form(content, (0.0, 0.0, width, height), group), width, height


def _blends(art: Art) -> bool:
    """Whether the art blends anything (:class:`~generator.render.svgart.Blended`)."""
    return any(isinstance(node, Blended) for node in nodes_inside(art.drawing))


class _Painter:
    """Runs the renderer on a drawing with the canvas's output diverted into a string of operators."""

    def __init__(self, canvas: Any, resources: ArtResources) -> None:
        self.canvas = canvas
        self.resources = resources

    def paint(self, drawing: Any) -> str:
        from reportlab.graphics.renderbase import StateTracker

        c = self.canvas
        renderer = _renderer_class()(self.resources)
        renderer._tracker = StateTracker(defaultObj=drawing)
        renderer._canvas = c
        c.__dict__["_drawing"] = renderer._drawing = drawing
        drawing._parent = None
        saved = c._code
        c._code = []
        try:
            c.saveState()
            renderer.initState(0, 0)
            renderer.drawNode(drawing)
            renderer.pop()
            c.restoreState()
            return "\n".join(c._code)
        finally:
            c._code = saved
            del c._drawing, drawing._parent


@cache
def _renderer_class() -> Any:
    """reportlab's PDF renderer with donjon's additions (made on first use)."""
    from reportlab.graphics.renderPDF import _PDFRenderer

    class Renderer(_PDFRenderer):  # type: ignore[misc]
        """reportlab's PDF renderer, with colours, opacity, gradients and pictures written by donjon."""

        def __init__(self, resources: ArtResources) -> None:
            super().__init__()
            self.resources = resources
            # above 0 while a luminance mask's contents are drawn: every colour is written as the grey of its
            # luminance, as viewers measure it (see luminance())
            self.grey = 0
            self.grey_pictures: dict[int, Any] = {}

        def applyStateChanges(self, delta: dict[str, Any], newState: Any) -> None:
            kept = {k: v for k, v in delta.items() if k not in _NOT_APPLIED}
            super().applyStateChanges(kept, newState)
            limit = delta.get("strokeMiterLimit")
            if limit is not None:
                # reportlab's renderer never writes a miter limit (so the PDF's own 10 held); SVG's default is 4,
                # set on every shape by generator.render.svgart
                self._canvas._code.append(f"{n(float(limit) if float(limit) >= 1 else MITER_LIMIT)} M")
            opacity = delta.get("strokeOpacity")
            if opacity is not None and float(opacity) < 1:
                self._canvas._code.append(f"/{self.resources.alpha('CA', float(opacity))} gs")

        def setFillColor(self, colour: Any) -> None:
            self._colour(colour, "rg", "ca")

        def setStrokeColor(self, colour: Any) -> None:
            self._colour(colour, "RG", "CA")

        def _colour(self, colour: Any, op: str, alpha_key: str) -> None:
            from reportlab.lib.colors import toColor

            found = toColor(colour)
            code = self._canvas._code
            if self.grey:
                code.append(f"{n(luminance(found.rgb()))} {'g' if op == 'rg' else 'G'}")
            else:
                code.append(self.resources.inks.op(_hex(found.rgb()), op))
            alpha = getattr(found, "alpha", 1)
            if alpha is not None and float(alpha) < 1:
                code.append(f"/{self.resources.alpha(alpha_key, max(0.0, float(alpha)))} gs")

        def drawNodeDispatcher(self, node: Any) -> None:
            if isinstance(node, Faded):
                self._faded(node)
            elif isinstance(node, Blended):
                self._blended(node)
            elif isinstance(node, PatternFill):
                self._pattern(node)
            elif isinstance(node, Masked):
                self._masked(node)
            else:
                super().drawNodeDispatcher(node)

        def _pattern(self, fill: PatternFill) -> None:
            # the tiles drawn inside the shape's outline, as a clip: each tile's drawing is written once per tile
            # (the same operators every time), which any PDF reader draws as it draws the rest of the art; a
            # stroke, which no PDF clip follows, is a soft mask instead: the stroke drawn white on black
            from svglib.svglib import _shape_to_pdf_path

            c = self._canvas
            if fill.stroke:
                mask = self._stroke_mask(fill.shape)
                if mask is None:
                    return
                c.saveState()
                c._code.append(f"/{mask} gs")
                self.drawGroup(fill)
                c.restoreState()
                return
            path = _shape_to_pdf_path(c, fill.shape)
            if path is None:
                return
            c.saveState()
            c._code.append(path.getCode() + (" W* n" if fill.evenodd else " W n"))
            self.drawGroup(fill)
            c.restoreState()

        def _stroke_mask(self, outline: Any) -> str | None:
            """The graphics state whose soft mask is where `outline` (a shape with its stroke, unfilled) strokes:
            its luminosity, the stroke drawn white with its width, joins, caps and dashes."""
            from reportlab.graphics.shapes import Group
            from reportlab.lib.colors import white

            stroke = outline.copy()
            stroke.fillColor = None
            stroke.strokeColor = white
            stroke.strokeOpacity = 1
            bounds = _bounds(Group(stroke))
            if bounds is None:
                return None
            content = self._captured(self.drawNode, stroke)
            resources = self.resources
            form = resources.form(content, bounds, transparency_group("DeviceGray"))
            return resources.soft_mask(resources.doc.Reference(form))

        def _captured(self, draw: Callable[[Any], None], node: Any) -> str:
            """The operators `draw(node)` writes, kept out of the page's own (for a form of their own)."""
            c = self._canvas
            saved = c._code
            c._code = []
            try:
                draw(node)
                return "\n".join(c._code)
            finally:
                c._code = saved

        def _faded(self, group: Any) -> None:
            bounds = _bounds(group)
            if bounds is None or group.opacity <= 0:
                return
            content = self._captured(self.drawGroup, group)
            form = self.resources.form(content, bounds, transparency_group())
            name = self.resources.xobject(self.resources.doc.Reference(form))
            self._canvas._code.append(f"/{self.resources.both_alphas(group.opacity)} gs /{name} Do")

        def _masked(self, group: Masked) -> None:
            # the element drawn on its own (a transparency group: its shapes masked as one, not each by itself),
            # painted under a soft mask (ISO 32000-1, 11.6.5) of the mask's contents, in the element's user space
            # (the mask is set where the group is painted: its coordinates are those in effect there). A luminance
            # mask is drawn in grey, each colour its luminance, composited over black, so the mask is luminance
            # times alpha, as SVG's (CSS Masking 1, 7.2); outside its region (the form's box and its clip) nothing
            # shows
            bounds = _bounds(group)
            region = _bounds(group.mask)
            if bounds is None or region is None:
                return
            resources = self.resources
            if group.luminance:
                self.grey += 1
            try:
                mask_content = self._captured(self.drawNode, group.mask)
            finally:
                if group.luminance:
                    self.grey -= 1
            mask = resources.form(mask_content, region, transparency_group("DeviceGray" if group.luminance else None))
            state = resources.soft_mask(resources.doc.Reference(mask), "Luminosity" if group.luminance else "Alpha")
            content = self._captured(self.drawGroup, group)
            form = resources.form(content, bounds, transparency_group())
            name = resources.xobject(resources.doc.Reference(form))
            self._canvas._code.append(f"q /{state} gs /{name} Do Q")

        def _blended(self, group: Any) -> None:
            # drawn on its own (an isolated group: what it holds blends only with itself), then laid over what is
            # under it by its blend mode, which the graphics state holds while the group is painted (ISO 32000-1,
            # 11.4.7); q/Q, so nothing drawn after it blends
            bounds = _bounds(group)
            if bounds is None:
                return
            content = self._captured(self.drawGroup, group)
            form = self.resources.form(content, bounds, transparency_group())
            name = self.resources.xobject(self.resources.doc.Reference(form))
            state = f"/{self.resources.blend(group.mode)} gs " if group.mode != "Normal" else ""
            self._canvas._code.append(f"q {state}/{name} Do Q")

        def drawImage(self, image: Any) -> None:
            picture = image.path
            if not isinstance(picture, Embedded) or not image.width or not image.height:
                return
            a, b, c, d = (float(v) for v in self._tracker.getCTM()[:4])
            target = _enlarged_size(picture, math.hypot(a, b) * float(image.width),
                                    math.hypot(c, d) * float(image.height))
            own = picture.size
            if target is not None:
                key = (id(picture), *target)
                if key not in self.resources.enlarged:  # the picture kept with it: its id stays its own
                    self.resources.enlarged[key] = (picture, enlarged(picture, target))
                picture = self.resources.enlarged[key][1]
            reference = self._grey(picture) if self.grey else self.resources.raster(picture)
            if target is not None and self.resources.sizes is not None and hasattr(reference, "name"):
                self.resources.sizes[reference.name] = own
            name = self.resources.xobject(reference)
            self._canvas._code.append(f"q {n(image.width)} 0 0 {n(image.height)} {n(image.x)} {n(image.y)} cm "
                                      f"/{name} Do Q")

        def _grey(self, picture: Embedded) -> Any:
            """The image XObject of the picture as the grey of each pixel's luminance (its alpha kept), once a
            picture: what a luminance mask measures of it. Grey whatever the document's inks: a mask is no ink
            (a picture in CMYK, measured by the reader's own CMYK to grey, let through far too much)."""
            from generator.backends.pdf import _raster_xobject

            found = self.grey_pictures.get(id(picture))
            if found is None:
                grey = _grey_picture(picture)
                found = self.grey_pictures[id(picture)] = self.resources.doc.Reference(smoothed(
                    _raster_xobject(self.resources.doc, grey.kind, grey.data, Inks()), picture, Inks()))
            return found

        def gradient(self, fill: GradientFill) -> None:
            _gradient(self, fill)

    return Renderer


#: State reportlab's renderer would apply through the canvas's own graphics states, or as a font: colours'
#: transparency is written by the renderer above, and art has no text.
_NOT_APPLIED = {"fillOpacity", "strokeOpacity", "fontName", "fontSize", "fillOverprint", "strokeOverprint",
                "overprintMask"}


def _bounds(group: Any) -> tuple[float, float, float, float] | None:
    """A faded group's box in its own space, with room for its strokes."""
    try:
        found = group.getBounds()
    except (TypeError, ValueError, AttributeError, IndexError):
        found = None
    if not found:
        return None
    x0, y0, x1, y1 = (float(v) for v in found)
    widest = 0.0
    reach = _MITER_REACH
    for node in nodes_inside(group):
        if getattr(node, "strokeColor", None) is not None:
            widest = max(widest, float(getattr(node, "strokeWidth", 0) or 0))
            reach = max(reach, float(getattr(node, "strokeMiterLimit", 0) or 0) / 2)
    pad = widest * reach + 1
    return x0 - pad, y0 - pad, x1 + pad, y1 + pad


# --- gradients ------------------------------------------------------------------------------------------------------


def _gradient(renderer: Any, fill: GradientFill) -> None:
    """Fill `fill.shape` with its gradient: clip to the outline, enter the gradient's space, paint the shading
    (under a soft mask of the stops' opacities when they are not all opaque)."""
    from svglib.svglib import _shape_to_pdf_path

    gradient = fill.gradient
    stops = _stops(gradient.get("stops") or [])
    if not stops:
        return
    matrix = _gradient_matrix(fill)
    if matrix is None:  # an empty box (objectBoundingBox units) or a flattening transform: nothing is painted
        return
    c = renderer._canvas
    path = _shape_to_pdf_path(c, fill.shape)
    if path is None:
        return
    c.saveState()
    c._code.append(path.getCode() + (" W* n" if fill.evenodd else " W n"))
    c._code.append("{} {} {} {} {} {} cm".format(*(n(v) for v in matrix)))
    resources = renderer.resources
    alphas = [alpha * fill.opacity for _offset, _rgb, alpha in stops]
    if any(a < 1 for a in alphas):
        box = _gradient_box(fill, matrix)
        mask_shading = _shading(gradient, [(o, (a,), 1.0) for (o, _rgb, _a), a in zip(stops, alphas)],
                                "DeviceGray")
        mask = resources.form(f"/{resources.shading(mask_shading)} sh", box, transparency_group("DeviceGray"))
        c._code.append(f"/{resources.soft_mask(resources.doc.Reference(mask))} gs")
    inks = resources.inks
    if renderer.grey:  # in a luminance mask: the grey of each stop's luminance (luminance is linear in sRGB)
        greys: list[tuple[float, tuple[float, ...], float]] = [(offset, (luminance(rgb),), alpha)
                                                               for offset, rgb, alpha in stops]
        c._code.append(f"/{resources.shading(_shading(gradient, greys, 'DeviceGray'))} sh")
    else:
        inked = [(offset, inks.components(_hex(rgb)), alpha) for offset, rgb, alpha in stops]
        c._code.append(f"/{resources.shading(_shading(gradient, inked, inks.device_space))} sh")
    c.restoreState()


#: The weights of red, green and blue in a luminance mask's luminance (SVG 1.1, 14.4; CSS Masking 1, 7.2), on the
#: sRGB values as they are: what librsvg 2.54 and Chromium measure (pure red, green and blue masks let through
#: 21, 72 and 7 % in both; Chromium reads `color-interpolation: linearRGB` on a mask, librsvg does not, and such a
#: mask is refused: generator.render.svgart).
LUMINANCE = (0.2125, 0.7154, 0.0721)


def luminance(rgb: Any) -> float:
    """The luminance of a colour (red, green and blue from 0 to 1), as a mask measures it."""
    return min(1.0, max(0.0, sum(weight * float(v) for weight, v in zip(LUMINANCE, rgb))))


def smoothed(image: Any, picture: Embedded, inks: Inks) -> Any:
    """The image XObject of a picture of SVG art (`image`, a stream) marked to be smoothed when scaled
    (`/Interpolate`, ISO 32000-1, 8.9.5.3), as Chromium and librsvg draw a picture unless its `image-rendering` says
    otherwise: poppler and pdfium drew its pixels as blocks (a small picture scaled up, half the pixels off).
    Not in a PDF/X file, which may not ask for it (ISO 15930)."""
    if picture.smooth and not inks.settings.pdfx:
        image.dictionary["Interpolate"] = "true"  # reportlab writes text as it is (a Python True as `True`)
    return image


#: Pixels a point a smoothed picture of art is enlarged to (288 a inch) when it is drawn over twice as large as
#: that at its own pixels (:func:`enlarged`), and the most pixels it is enlarged to.
ENLARGED_PER_POINT = 4.0
ENLARGED_MOST = 1_000_000


def _enlarged_size(picture: Embedded, width: float, height: float) -> tuple[int, int] | None:
    """The pixels (width, height) a picture drawn `width` x `height` points (in the art's form) is enlarged to, or
    None when it is drawn in blocks (`image-rendering`), or not over twice as large as ENLARGED_PER_POINT."""
    wide, high = picture.size
    target = [width * ENLARGED_PER_POINT, height * ENLARGED_PER_POINT]
    if not picture.smooth or not all(math.isfinite(v) for v in target) or (
            target[0] <= 2 * wide and target[1] <= 2 * high):
        return None
    if target[0] * target[1] > ENLARGED_MOST:
        shrink = math.sqrt(ENLARGED_MOST / (target[0] * target[1]))
        target = [v * shrink for v in target]
    found = (max(1, round(target[0])), max(1, round(target[1])))
    return None if found[0] <= wide and found[1] <= high else found


def enlarged(picture: Embedded, size: tuple[int, int]) -> Embedded:
    """A small picture of art, drawn much larger than its pixels, enlarged to `size` pixels as Chromium smooths
    it (bilinear, its edge pixels held to the edge), as a PNG: each PDF reader smooths a picture scaled up its own
    way (poppler's /Interpolate shifts it by half a pixel and draws its transparency in blocks: a picture of 4 x 4
    pixels drawn 80 points wide, 28 % of its pixels off Chromium's, now none), or not at all (a PDF/X file may not
    ask); enlarged, what is left to a reader is a scale of under two."""
    import io

    from PIL import Image

    from generator.render.images import open_quietly

    with open_quietly(picture.data) as image:
        alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
        found = image.convert("RGBA" if alpha else "L" if image.mode in ("L", "1", "I", "I;16") else "RGB")
    out = io.BytesIO()
    found.resize(size, Image.Resampling.BILINEAR).save(out, "PNG")
    return Embedded("png", out.getvalue(), size, picture.smooth)


def _grey_picture(picture: Embedded) -> Embedded:
    """A PNG of the picture's luminance in grey, its alpha kept."""
    import io

    from generator.render.images import open_quietly

    with open_quietly(picture.data) as image:
        rgba = image.convert("RGBA")
    grey = rgba.convert("RGB").convert("L", (*LUMINANCE, 0.0))
    grey.putalpha(rgba.getchannel("A"))
    out = io.BytesIO()
    grey.save(out, "PNG")
    return Embedded("png", out.getvalue(), picture.size, picture.smooth)


def _hex(rgb: Any) -> str:
    """`#rrggbb` of reportlab's red, green and blue (0 to 1), as the document's inks take a colour."""
    return "#" + "".join(f"{min(255, max(0, round(float(v) * 255))):02x}" for v in rgb)


def translucent(art: Art) -> bool:
    """Whether the art draws anything with transparency (an opacity, a colour's alpha, a stop's opacity): what
    PDF/X-1a does not allow."""
    # a gradient answers for its shapes: what is inside it is drawn in the gradient's colours, not its own
    for node in nodes_inside(art.drawing, descend=lambda node: not isinstance(node, GradientFill)):
        if isinstance(node, (Faded, Blended, Masked)) or (isinstance(node, PatternFill) and node.stroke):
            return True  # a pattern's stroke is a soft mask; a blend mode is transparency too (ISO 15930-4)
        if isinstance(node, GradientFill):
            if node.opacity < 1 or any(a < 1 for _o, _c, a in _stops(node.gradient.get("stops") or [])):
                return True
            continue
        for attribute in ("fillColor", "strokeColor"):
            alpha = getattr(getattr(node, attribute, None), "alpha", 1)
            if alpha is not None and float(alpha) < 1:
                return True
        if getattr(node, "strokeOpacity", None) not in (None, 1):
            return True
    return False


def _stops(raw: list[Any]) -> list[tuple[float, tuple[float, ...], float]]:
    """SVG's stops: offsets clamped to 0..1 and never going back (SVG 1.1, 13.2.4), colours as RGB, opacities."""
    out: list[tuple[float, tuple[float, ...], float]] = []
    last = 0.0
    for offset, colour in raw:
        offset = min(1.0, max(last, float(offset) if math.isfinite(float(offset)) else 0.0))
        last = offset
        r, g, b = colour.rgb()
        alpha = getattr(colour, "alpha", 1.0)
        alpha = 1.0 if alpha is None or not math.isfinite(float(alpha)) else min(1.0, max(0.0, float(alpha)))
        out.append((offset, (float(r), float(g), float(b)), alpha))
    return out


def _gradient_matrix(fill: GradientFill) -> tuple[float, ...] | None:
    """From the gradient's space to the shape's: its bounding box for objectBoundingBox units, then its
    gradientTransform."""
    from reportlab.graphics.shapes import mmult

    gradient = fill.gradient
    matrix: tuple[float, ...] = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    if gradient.get("gradientUnits", "objectBoundingBox") != "userSpaceOnUse":
        x0, y0, x1, y1 = (float(v) for v in fill.shape.getBounds())
        if x1 - x0 <= 0 or y1 - y0 <= 0:
            return None
        matrix = (x1 - x0, 0.0, 0.0, y1 - y0, x0, y0)
    transform = gradient.get("gradientTransform")
    if transform:
        matrix = tuple(mmult(matrix, transform))
    a, b, c, d = matrix[:4]
    if a * d - b * c == 0 or not all(math.isfinite(v) for v in matrix):
        return None
    return matrix


def _gradient_box(fill: GradientFill, matrix: tuple[float, ...]) -> tuple[float, float, float, float]:
    """The shape's box seen from the gradient's space (where the soft mask is drawn), with a margin."""
    a, b, c, d, e, f = matrix
    det = a * d - b * c
    inverse = (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)
    x0, y0, x1, y1 = (float(v) for v in fill.shape.getBounds())
    xs, ys = [], []
    for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        xs.append(inverse[0] * x + inverse[2] * y + inverse[4])
        ys.append(inverse[1] * x + inverse[3] * y + inverse[5])
    pad = max(max(xs) - min(xs), max(ys) - min(ys)) * 0.01 + 1e-3
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def _shading(gradient: dict[str, Any], stops: list[tuple[float, tuple[float, ...], float]], space: str) -> Any:
    """An axial or radial shading of the stops (colours in `space`, 1 or 3 components), padded at both ends."""
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName

    colours = [components for _o, components, _a in stops]
    offsets = [offset for offset, _rgb, _a in stops]
    if gradient.get("type") == "linear":
        coords = [gradient.get("x1", 0.0), gradient.get("y1", 0.0), gradient.get("x2", 1.0), gradient.get("y2", 0.0)]
        kind = 2
        if coords[0] == coords[2] and coords[1] == coords[3]:  # no axis: SVG paints the last stop's colour
            coords[2] += 1e-6
            colours, offsets = [colours[-1]], [0.0]
    else:
        cx, cy, r = gradient.get("cx", 0.5), gradient.get("cy", 0.5), gradient.get("r", 0.5)
        fx, fy = gradient.get("fx", cx), gradient.get("fy", cy)
        if r <= 0:  # SVG: a radius of zero paints the last stop's colour
            r = 1e-6
            colours, offsets = [colours[-1]], [0.0]
        fx, fy = _inside(fx, fy, cx, cy, r)
        # SVG 2's focal radius (13.3.3: `fr`), Inkscape's and Chromium's: the shading starts at that circle, and
        # inside it the first stop's colour is painted, as the shading's start is extended (it was drawn from a point)
        coords = [fx, fy, min(max(float(gradient.get("fr", 0.0)), 0.0), r * 0.999), cx, cy, r]
        kind = 3
    return PDFDictionary({
        "ShadingType": kind, "ColorSpace": PDFName(space), "Coords": PDFArray([round(float(v), 6) for v in coords]),
        "Function": _function(offsets, colours), "Extend": "[true true]"})  # written as it is


def _inside(fx: float, fy: float, cx: float, cy: float, r: float) -> tuple[float, float]:
    """A focus outside the circle is moved onto it, as SVG 1.1 says (13.2.3), a little inside."""
    dx, dy = fx - cx, fy - cy
    distance = math.hypot(dx, dy)
    limit = r * 0.999
    if distance <= limit:
        return fx, fy
    return cx + dx * limit / distance, cy + dy * limit / distance


def _function(offsets: list[float], colours: list[tuple[float, ...]]) -> Any:
    """A function of 0..1 through the stops' colours: a stitching function of linear pieces, each stop held
    before the first and after the last."""
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary

    def piece(c0: tuple[float, ...], c1: tuple[float, ...]) -> Any:
        return PDFDictionary({"FunctionType": 2, "Domain": PDFArray([0, 1]),
                              "C0": PDFArray([round(v, 5) for v in c0]), "C1": PDFArray([round(v, 5) for v in c1]),
                              "N": 1})

    pieces: list[tuple[float, float, tuple[float, ...], tuple[float, ...]]] = []
    if offsets[0] > 0:
        pieces.append((0.0, offsets[0], colours[0], colours[0]))
    for (o0, c0), (o1, c1) in zip(zip(offsets, colours), zip(offsets[1:], colours[1:])):
        if o1 > o0:
            pieces.append((o0, o1, c0, c1))
    if offsets[-1] < 1:
        pieces.append((offsets[-1], 1.0, colours[-1], colours[-1]))
    if not pieces:  # every stop at 1: the first colour up to there, which is everywhere
        pieces.append((0.0, 1.0, colours[-1], colours[-1]))
    if len(pieces) == 1:
        return piece(pieces[0][2], pieces[0][3])
    return PDFDictionary({"FunctionType": 3, "Domain": PDFArray([0, 1]),
                          "Functions": PDFArray([piece(c0, c1) for _a, _b, c0, c1 in pieces]),
                          "Bounds": PDFArray([round(b, 6) for _a, b, _c0, _c1 in pieces[:-1]]),
                          "Encode": PDFArray([0, 1] * len(pieces))})
