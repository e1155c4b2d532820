"""SVG art read the way the PDF draws it: svglib turns the file into reportlab shapes, and donjon checks the
file and those shapes first, so a picture `content check` passes is one the build draws, and draws as a viewer
shows it.

donjon's SVG output carries the art file itself (a viewer draws it); its PDF draws what svglib reads from it
(:mod:`generator.backends.pdf_art`). So what svglib would draw differently from a viewer is found here, named by
the line of the file, and refused, rather than printed wrong:

- **What no PDF of donjon's draws**: filters (blurs, shadows), a mask written as CSS (a CSS gradient, a picture
  file) or naming no `<mask>` of the file (:func:`_check_mask`), a mask inside itself, one measured in linearRGB
  (Chromium reads `color-interpolation` on a mask, librsvg 2.54 does not), one on the root `<svg>` or on a clip
  path's shape, a gradient on a stroke, a pattern of more than
  :data:`MAX_PATTERN_TILES` tiles a shape or drawn inside itself, markers on a marker's shapes, a paint order
  that draws markers between fill and stroke, gradients that repeat or reflect (`spreadMethod`), the blend modes
  PDF has not (`plus-lighter`, `plus-darker`),
  non-scaling strokes, a clip path in `objectBoundingBox` units or as a CSS shape, a transform written in CSS or
  about another point (`transform-origin`, `transform-box`), a CSS variable's value (`var()`), a style rule
  nested in another or inside `@layer`, `@supports` or `@container` (:func:`_check_rules_read`). Each message says
  what to do in the drawing program instead.
- **Markers and patterns, which svglib does not draw**: a shape's markers are drawn at its vertices
  (:mod:`generator.render.art_markers` finds them and their directions; the Reader's `_with_markers` draws each
  marker's contents there, styled where the marker is defined, `context-stroke` and `context-fill` the shape's
  paints, cut to its viewport unless its overflow is visible); a pattern fill is drawn as the tiles that cover
  the shape, cut to its outline, a pattern stroke as tiles under a soft mask of the stroke (:class:`PatternFill`;
  what a pattern leaves unwritten is taken down its hrefs).
- **Masks, which svglib does not draw**: an element's `<mask>` (attribute, style or rule) is drawn as the
  element under a soft mask of the mask's contents (:class:`Masked`, the Reader's `_masked`): their luminance
  (sRGB, the weights librsvg and Chromium use) or, for `mask-type: alpha`, their alpha; in the element's user
  space (inside its transform) or its bounding box (`maskContentUnits`), cut to the mask's region (`maskUnits`,
  by default the box and a tenth around); the contents drawn where the mask is defined, any shape, gradient,
  picture, opacity or mask of their own (a length in percent there a share of the viewport, as Chromium reads it,
  which the SVG output writes out for librsvg: :func:`_box_percents_for_librsvg`). A mask that only clips
  (Figma's) is drawn as clips (:func:`_masks_as_clips`), without transparency.
- **What svglib leaves out and donjon adds**: `opacity` on a shape, a group or a `<use>` (attribute, `style` or a
  `<style>` rule) becomes a transparency group (:class:`Faded`); `mix-blend-mode` (a style or a rule; as an
  attribute no viewer reads it) an isolated group laid over what is under it by PDF's blend mode of that name, and
  `isolation: isolate` or a clip path around a blend an isolated group, as Chromium composites them
  (:class:`Blended`); a gradient's `gradientTransform`, focal point
  (`fx`, `fy`), `stop-opacity` and the shape's `fill-opacity` are drawn (:class:`GradientFill`), what a gradient
  leaves unwritten is taken down its whole chain of hrefs (Inkscape's gradients), a `<style>` styles every element
  of the file wherever it is written, gradient stops included; a `<symbol>` a `<use>` places (Illustrator's
  symbols), an `<svg>` inside the drawing and one a `<use>` shows (at the use's size) have their viewBox fitted into
  their viewport and are cut to it (unless their own `overflow` is `visible`; :func:`clip_viewports` writes what
  librsvg would draw otherwise out for the SVG output), an embedded picture into its box as its preserveAspectRatio
  says; `currentColor` (in any case) is the shape's own `color`, black when none is set (icon sets' outlines), in a
  gradient's stops too; a clip path named by a class or a style is used (Illustrator's clipping masks), what viewers
  leave out of a clip path (a group, a `<use>` of a symbol) is left out (and said, by line), and a clip path with no
  shape left hides all it clips; a stroke's miter limit (SVG's 4 when unwritten; the PDF's own is 10) and dash
  offset, and opacities in percent, are drawn; an ellipse's radius left out or `auto` is the other one, and a
  paint's fallback colour is used when its gradient is not in the file, a clip path written after what it clips
  is found (Figma writes its definitions last); a `paint-order` that strokes first draws
  the stroke under the fill (:func:`_stroked_first`); every CSS Color 4 colour name and function
  (`RGB()`, numbers out of range, `hwb()`, `color(srgb ...)`, `lab()`, `lch()`, `oklab()`, `oklch()`, `color()`
  in display-p3, a98-rgb, prophoto-rgb, rec2020 and XYZ, clipped to sRGB as Chromium paints them:
  :func:`_to_srgb`; a `color()` in a space CSS does not name is left out as browsers leave it out, and said by
  line: :func:`_unread_colours`), in any case, is the colour CSS
  gives it (svglib knew reportlab's names, lower case only, and drew such functions black or not at all; librsvg
  2.54 paints those functions black, so the SVG output writes them as `#rrggbb`: :func:`_colours_for_librsvg`); a
  length in percent is a share of its viewport (the drawing's, a nested `<svg>`'s or a symbol's) as SVG 1.1 (7.10)
  says, whatever the attribute, and one in em a share of the element's font size (an attribute, a style or a rule,
  relative sizes taken down from `medium`, 16 px: :func:`_font_size`; svglib took 16 px always, and the SVG output
  gives librsvg, which starts from 12, that start: :func:`_font_size_for_librsvg`), one in ex a share of the
  font's x-height as Chromium measures it (:func:`_ex_as_em`; both took half an em); a `data:` PNG or JPEG picture
  inside the SVG is checked as picture files are (its size, its pixels) and embedded as an image of its own
  (:class:`Embedded`).
- **What viewers choose differently**: what is drawn on conditions (`systemLanguage`, `requiredFeatures`,
  `requiredExtensions`, in a `<switch>` or not) is chosen once, as browsers choose, and for no language, the same
  on every machine; the SVG output carries the choice made (:func:`_conditions`). `@media` blocks in a `<style>`
  are read as a browser printing reads them, in both outputs (:func:`_printed`; svglib read none, librsvg reads
  all, browsers on screen those for screens), its size queries answered by the art's own size (a browser printing
  it as a picture of that size); one that depends on the device (a resolution) is left out, said by line.
  What `<style>` rules hide (`display: none`, `visibility: hidden`, by class or id, as Inkscape and Figma hide a
  layer) is left out of what svglib reads (svglib drew a <use> so hidden). What a `<use>` shows is styled as
  Chromium styles it, by the rules that match it in a tree of its own (:func:`_isolated`: no rule reaches it by
  the use's place nor by the original's), in both outputs: svglib's copies (:func:`_settle_rules`), the copies
  drawn in place of uses (:func:`_styled_as`, :func:`_unmatched_in_place`), and in the SVG output each use librsvg
  would style otherwise, drawn as such a copy (:func:`_restyled_uses_inline`). A polyline in a clip path clips as
  its polygon (svglib left it out).
- **What viewers draw and svglib would crash on**: a singular transform (`scale(0)`) draws nothing, as in a
  viewer; a dash array with a negative, infinite or zero-sum value draws a solid line (the SVG rule), one with an
  odd count is repeated. A number too large to print (an infinite size) is refused with its line.
- **The cost is bounded**, as templates are: elements, path data, `<style>` text and the work of matching its
  selectors, shapes drawn once `<use>` copies are counted, and pixels of embedded pictures. A file beyond a
  budget is refused with what to simplify.

What svglib itself logs while reading (a circular `<use>`, a clip path it cannot find) becomes a warning naming
the file, never a raw log line. A file read is cached by its digest: the layout step and the PDF backend of one
build read it once.
"""

from __future__ import annotations

import base64
import binascii
import copy
import logging
import math
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache, lru_cache
from typing import Any, NamedTuple, cast

from reportlab.graphics.shapes import DirectDraw, Group

from generator.i18n import N_, messages_language, phrase, phrase_number
from generator.render.art_markers import (Vertex, marker_matrix, orient_angle, path_vertices, points_of,
                                           points_vertices)
from generator.render.images import (MAX_PIXELS, MAX_STYLE, MAX_SVG_ELEMENTS, Cascade, ImageProblem, art_viewport,
                                     cascaded, css_rules, hidden_elements, printed_stylesheet, raster_size,
                                     style_declarations)
from generator.render.model import Matrix
from generator.sayings import phrase_quoted

#: The most characters of path data (`d`, `points`) in one file: some 75,000 segments, which take about seven
#: microseconds a character to read and draw, so a few seconds.
MAX_PATH_DATA = 500_000
#: The most selector tests a stylesheet may cost (its selectors times the elements they are matched against).
MAX_SELECTOR_WORK = 1_000_000
#: The most elements svglib reads, and copies, once every `<use>` copy is counted (a copy of a copy multiplies):
#: as many as a file may hold, so copies cost no more than a file that long.
MAX_DRAWN = MAX_SVG_ELEMENTS
#: A number no drawing needs (in user units or as a transform's coefficient); beyond it a PDF reader may fail.
MAX_NUMBER = 1e7
#: How many files read are kept, by digest (one build's pictures; a long `--watch` does not grow without end).
CACHE_SIZE = 64

_SVG = "{http://www.w3.org/2000/svg}"
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_DATA_PICTURE = re.compile(r"\s*data:image/(png|jpeg|jpg);base64,(.*)", re.S)
_URL = re.compile(r"url\(\s*['\"]?#([^)'\"\s]*)['\"]?\s*\)")
#: The gradient elements, and how many gradients a chain of hrefs may go through (a loop ends there too).
_GRADIENTS = ("linearGradient", "radialGradient")
_CHAIN = 32
#: Each kind's coordinates and their defaults when no gradient of the chain writes them (SVG 1.1, 13.2.2 and
#: 13.2.3); a focus left unwritten is the centre.
_LINEAR: dict[str, float | None] = {"x1": 0.0, "y1": 0.0, "x2": 1.0, "y2": 0.0}
_RADIAL: dict[str, float | None] = {"cx": 0.5, "cy": 0.5, "r": 0.5, "fx": None, "fy": None, "fr": 0.0}

#: The commonest advice of an SVG refused, said in the designer's language
_BITMAP_COPY_SAID = N_("make a bitmap copy of it in your drawing program (Inkscape: Edit > Make a Bitmap Copy)")
#: ... and the advice for a stylesheet too large to read
_OPTIMISE = N_("keep the rules the drawing uses (Inkscape: File > Save As... Optimized SVG)")
#: Properties no PDF of donjon's draws as a viewer does: why, and what to do (value "none" or "normal" is fine);
#: `{copy}` is the advice above.
_UNDRAWN = {
    "filter": N_("a filter (a blur, a shadow...), which donjon's PDF cannot draw: {copy}, or remove it"),
    "vector-effect": N_("a stroke that keeps its width when scaled, which donjon's PDF cannot draw: turn it into a "
                        "shape (Inkscape: Path > Stroke to Path)"),
    "transform": N_("a transform written in CSS, which donjon's PDF cannot draw: write it as the element's "
                    "transform attribute"),
}
#: A use of a CSS custom property (`var(--name`), in any case.
_VARIABLE = re.compile(r"var\(\s*--[\w-]*", re.I)
#: The words of a `transform-origin` that put it at the user space's origin (its initial value for SVG's elements,
#: CSS Transforms 1, 6) and the `transform-box` that measures it from there: a transform attribute is then drawn
#: as written.
_ORIGIN_WORDS = frozenset({"0", "0px", "0%", "left", "top"})
_ORIGIN_BOXES = frozenset({"", "view-box", "initial", "unset"})

#: CSS's blend modes (Compositing and Blending 1, 5.2; `mix-blend-mode`, in any case) as PDF names them (ISO
#: 32000-1, 11.3.5, tables 136 and 137: the same sixteen, the same formulas). A value CSS does not know is no
#: declaration (the element is drawn normally, as in Chromium).
BLEND_MODES = {"normal": "Normal", "multiply": "Multiply", "screen": "Screen", "overlay": "Overlay",
               "darken": "Darken", "lighten": "Lighten", "color-dodge": "ColorDodge", "color-burn": "ColorBurn",
               "hard-light": "HardLight", "soft-light": "SoftLight", "difference": "Difference",
               "exclusion": "Exclusion", "hue": "Hue", "saturation": "Saturation", "color": "Color",
               "luminosity": "Luminosity"}
#: CSS's blend modes PDF has not (Compositing and Blending 2: sums of the colours, clamped), with the nearest that
#: PDF has.
_NOT_IN_PDF = {"plus-lighter": "lighten or screen", "plus-darker": "darken or multiply"}


def _too_many_copies() -> str:
    return phrase("it draws more than {most} shapes once its <use> copies are counted, markers included: simplify "
                  "it, or unlink the clones (Inkscape: Edit > Clone > Unlink Clone) and combine them (Path > Combine)",
                  most=phrase_number(MAX_DRAWN))


_FINE_VALUES = {"", "none", "normal", "fill", "fill stroke", "fill stroke markers", "fill markers stroke"}


class ArtProblem(ImageProblem):
    """SVG art that cannot be drawn as it looks, with the line of the file at fault when there is one."""

    def __init__(self, message: str, line: int | None = None) -> None:
        # TRANSLATORS: the line of an SVG file a problem of it is at
        super().__init__(phrase("line {line}: {message}", line=str(line), message=message) if line else message)
        self.line = line


class Embedded:
    """A PNG or JPEG picture held in the SVG as a `data:` URI, checked: what an image shape draws (not a tuple:
    svglib takes a tuple for an element to draw)."""

    __slots__ = ("data", "kind", "size", "smooth")

    def __init__(self, kind: str, data: bytes, size: tuple[int, int], smooth: bool = True) -> None:
        self.kind = kind
        self.data = data
        self.size = size
        #: whether its pixels are smoothed when scaled, as viewers draw a picture unless its `image-rendering` is
        #: `pixelated` or `crisp-edges` (CSS Images 3, 7.4)
        self.smooth = smooth


#: The values of `image-rendering` a picture is drawn by with its pixels unsmoothed (as blocks when scaled up): in
#: Chromium, `pixelated` and `crisp-edges`; `optimizeSpeed`, which Inkscape writes for "blocky", Chromium smooths.
_BLOCKY = frozenset({"pixelated", "crisp-edges"})


class Art(NamedTuple):
    """An SVG read as the PDF draws it: svglib's drawing (checked and mended), and what svglib logged."""

    drawing: Any
    warnings: tuple[str, ...]


_cache: OrderedDict[str, Art] = OrderedDict()


def read_art(data: bytes, digest: str) -> Art:
    """The drawing of an SVG file's bytes (already checked by :func:`generator.render.images.svg_size`), cached by
    the bytes' digest and the language of its warnings; an :class:`ArtProblem` when it cannot be drawn as it looks."""
    said = messages_language()  # its warnings are said in the language of the messages (`build --lang fr`)
    key = f"{digest} {said.code if said is not None else ''}"
    found = _cache.get(key)
    if found is not None:
        _cache.move_to_end(key)
        return found
    found = _read(data)
    _cache[key] = found
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return found


def clear_cache() -> None:
    _cache.clear()


def _read(data: bytes) -> Art:
    from lxml import etree

    parser = etree.XMLParser(remove_comments=True, remove_pis=True, resolve_entities=False, no_network=True,
                             huge_tree=False)
    try:
        root = etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError as err:
        raise ArtProblem(phrase("it is not well-formed SVG ({reason})", reason=str(err))) from None
    printed = _printed(root)  # before the checks: what is left out of print is neither checked nor drawn
    _blend_attributes_dropped(root)  # read by no viewer: neither checked nor drawn
    _ex_as_em(root)  # as Chromium measures them
    _context_paints_inline(root)  # before _check: the paints it gives are checked as the rest
    _solid_gradient_strokes(root)  # before the colours are read, and before _check, which refuses a gradient stroke
    printed += _unread_colours(root)  # left out as browsers leave them out
    _masks_as_clips(root)  # those that are clips: drawn without transparency (PDF/X-1a keeps them as vectors)
    _root_unmasked(root)
    hidden = hidden_elements(root)  # what no viewer draws needs nothing of the PDF
    pictures = _check(root, hidden)
    for element in [element for element in hidden if element.getparent() not in hidden]:
        _remove(element)  # drawn by no viewer, and svglib would read its text (a hidden layer of notes) for nothing
    _chosen, chosen_said = _conditions(root)
    left_out = (*printed, *chosen_said, *_clip_path_uses(root), *_paints_nobody_draws(root, hidden))
    _clip_viewports(root)  # after the checks: what they name is on the file's own lines
    records: list[logging.LogRecord] = []
    logger = logging.getLogger("svglib.svglib")
    handler = _Gather(records)
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False
    try:
        reader = _reader_class()(pictures, root)
        drawing = reader.render(root)
        _fade_root(reader, root, drawing)
    except ArtProblem:
        raise
    except RecursionError:
        raise ArtProblem(phrase("its elements nest too deeply to draw")) from None
    except Exception as err:  # svglib's own failure on a file it cannot read: a problem with the file, named
        reason = f"{type(err).__name__}: {err}"
        raise ArtProblem(phrase("svglib cannot draw it ({reason})", reason=reason)) from None
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate
    _settle(drawing, reader.lines)
    warnings = []
    for record in records:
        text = record.getMessage()
        if text not in warnings:
            warnings.append(text)
    return Art(drawing, (*left_out, *(f"svglib: {text}" for text in warnings)))


class _Gather(logging.Handler):
    """svglib's warnings and errors, kept for donjon to report with the file named."""

    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__(logging.WARNING)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


# --- the file, before svglib reads it -------------------------------------------------------------------------------


def _local(tag: Any) -> str:
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def _namespace(tag: str) -> str:
    """The namespace part of an element's tag (`{http://www.w3.org/2000/svg}`), or "" for none: what an element made
    beside it is named with."""
    return tag[:tag.index("}") + 1] if tag.startswith("{") else ""


def _referenced(element: Any, ids: dict[Any, Any]) -> Any:
    """The element `element`'s href names in the drawing (`ids`: its elements by id), SVG 2's `href` or SVG 1.1's
    `xlink:href`; None when it names none, or something outside the drawing."""
    href = element.get(_XLINK_HREF) or element.get("href") or ""
    return ids.get(href[1:]) if href.startswith("#") else None


def _by_id(root: Any) -> dict[Any, Any]:
    """The drawing's elements by their id, as :func:`_referenced` looks them up (comments and the like have none)."""
    return {element.get("id"): element for element in root.iter() if isinstance(element.tag, str) and element.get("id")}


def _use_offset(use: Any) -> tuple[float, float] | None:
    """Where a <use> moves what it shows, its x and y; None when either is not a plain number (a percent, a unit),
    which a copy in its place is not drawn for."""
    x, y = (_PLAIN_NUMBER.fullmatch(use.get(name) or "0") for name in ("x", "y"))
    return None if x is None or y is None else (float(x.group(1)), float(y.group(1)))


def _check(root: Any, hidden: set[Any]) -> dict[str, Embedded]:
    """Bound the file's cost and find what the PDF cannot draw faithfully; the embedded pictures, checked, by
    their `data:` URI (the element count is bounded by `svg_size`, which read the file first)."""
    elements = 0
    path_data = 0
    style_text: list[tuple[int, str]] = []
    ids: dict[str, Any] = {}
    for element in root.iter():
        elements += 1
        element_id = element.get("id")
        if element_id:
            ids[element_id] = element
        for name in ("d", "points"):
            value = element.get(name)
            if value:
                path_data += len(value)
        if _local(element.tag) == "style" and element.text:
            style_text.append((element.sourceline or 0, element.text))
    if path_data > MAX_PATH_DATA:
        raise ArtProblem(phrase("its paths hold {count} characters of path data, more than the {most} donjon draws "
                                "in a picture: simplify them (Inkscape: Path > Simplify), or make a bitmap copy of the "
                                "busiest part", count=phrase_number(path_data), most=phrase_number(MAX_PATH_DATA)))
    css = sum(len(text) for _line, text in style_text)
    if css > MAX_STYLE:
        raise ArtProblem(phrase("its <style> holds {count} characters of CSS, more than the {most} donjon reads: "
                                "{optimise}", count=phrase_number(css), most=phrase_number(MAX_STYLE),
                                optimise=phrase(_OPTIMISE)), style_text[0][0])
    for line, text in style_text:
        _check_stylesheet(text, line, elements, ids)
    pictures: dict[str, Embedded] = {}
    pixels = 0
    # a <style> rule may set a stroke or its width, as the element or its group may
    widths = Cascade(root, ("stroke-width", "stroke"))
    used = {found for found in (_referenced(use, ids) for use in root.iter() if _local(use.tag) == "use")
            if found is not None}
    origins = Cascade(root, ("transform-origin", "transform-box"))
    for element in root.iter():
        tag = _local(element.tag)
        line = element.sourceline
        if element not in hidden and element.get("transform"):
            _check_origin(origins, element, line)
        stroke = widths.value(element, "stroke") or ""
        unstroked = "url(" in stroke and _zero_stroke_width(element, widths, used)
        if element not in hidden:
            # the stroke as the rules, the style and the attribute cascade it: a rule's gradient refused here, at
            # the element it strokes, unless the element's width is 0 (set by any of them)
            _check_property("stroke", stroke, line, ids, unstroked=unstroked)
        for name, value in ({} if element in hidden else element.attrib).items():
            local = _local(name)
            if local == "style":
                for prop, prop_value, _important in style_declarations(value):  # the stroke judged as cascaded
                    _check_property(prop, prop_value, line, ids, css=True, unstroked=prop == "stroke")
            else:
                _check_property(local, value, line, ids, unstroked=local == "stroke")
        if tag == "image":
            href = element.get(_XLINK_HREF) or element.get("href") or ""
            found = _embedded(href, line)
            if found is not None:
                pixels += found.size[0] * found.size[1]
                if pixels > MAX_PIXELS:
                    raise ArtProblem(phrase("its embedded pictures hold more than {most} million pixels, more "
                                            "than donjon reads: scale them down (300 dpi is plenty)",
                                            most=MAX_PIXELS // 1_000_000), line)
                pictures[href] = found
    return pictures


def _printed(root: Any) -> list[str]:
    """Each `<style>` of the file as a browser printing reads it (:func:`generator.render.images.printed_stylesheet`:
    `@media print` kept, `@media screen` and a dark scheme left out), in the tree; what is left out undecided, by
    line. svglib read no `@media` block at all, librsvg reads every one, and browsers read those for screens on
    screen: the same art showed three ways."""
    said: list[str] = []
    sheets = [element for element in root.iter() if _local(element.tag) == "style" and element.text]
    if sum(len(element.text) for element in sheets) > MAX_STYLE:
        return said  # _check refuses the file
    viewport = art_viewport(root)  # the size features' answers: the art printed at its own size
    for element in sheets:
        text, undecided = printed_stylesheet(element.text, element.sourceline or 1, viewport)
        if text is not element.text:
            element.text = text
        said.extend(undecided)
    return said


def _check_stylesheet(text: str, line: int, elements: int, ids: dict[str, Any]) -> None:
    import tinycss2

    _check_rules_read(tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True), line)
    selectors = 0
    for prelude, declarations in css_rules(text):
        selectors += 1 + sum(1 for token in prelude if token.type == "literal" and token.value == ",")
        for name, value, at, _important in declarations:
            # a stroke's gradient is judged on each element the rule strokes (_check), whose width may be 0
            _check_property(name, value, line + at - 1, ids, css=True, unstroked=name == "stroke")
    if selectors * elements > MAX_SELECTOR_WORK:
        raise ArtProblem(phrase("its <style> has {selectors} selectors for {elements} elements, more matching than "
                                "donjon does for a picture: {optimise}", selectors=phrase_number(selectors),
                                elements=phrase_number(elements), optimise=phrase(_OPTIMISE)), line)


def _zero_stroke_width(element: Any, widths: Cascade, used: set[Any]) -> bool:
    """Whether every stroke the element's `stroke` paints has width 0, which SVG draws as nothing (SVG 2, 13.5.2) and
    Chromium and librsvg leave out: its own width (a `<style>` rule, its `style`, its attribute, as CSS cascades
    them), else its nearest ancestor's, is 0, and nothing it holds sets another width (a shape of a group stroked
    so inherits the paint with a width of its own) or copies something in (a `<use>`: the copy may set one). Up
    from an element a `<use>` shows, the width is not known: the copy inherits the use's, not its ancestors'."""
    node = element
    while True:
        found = _stroke_width_set(node, widths)
        if found is not None:
            if not _zero_width(found):
                return False
            break
        if node in used:
            return False
        node = node.getparent()
        if node is None:
            return False  # the initial width, 1
    for inner in element.iterdescendants():
        if not isinstance(inner.tag, str):
            continue
        found = _stroke_width_set(inner, widths)
        if _local(inner.tag) == "use" or (found is not None and not _zero_width(found)):
            return False
    return True


def _stroke_width_set(element: Any, widths: Cascade) -> str | None:
    """The stroke width the element sets itself, None when it inherits its parent's."""
    found = widths.value(element, "stroke-width")
    return None if found is None or found.strip().lower() in ("inherit", "unset") else found


def _zero_width(text: str) -> bool:
    """Whether a length is 0 (in any unit, any spelling of the number); calc() and the unreadable are not."""
    number = re.fullmatch(r"\s*([+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?)([a-z]{2}|%)?\s*", text, re.IGNORECASE)
    return number is not None and float(number.group(1)) == 0


def _check_property(name: str, value: str, line: int | None, ids: dict[str, Any], css: bool = False,
                    unstroked: bool = False) -> None:
    """A property (an attribute, or a declaration of a `style` or a `<style>` rule when `css`) the PDF cannot
    draw as a viewer does: an ArtProblem at its line. `unstroked`: the element's stroke width is 0, so its
    stroke draws nothing, whatever paints it."""
    value = value.strip()
    if name == "mix-blend-mode" and value.lower() in _NOT_IN_PDF:
        raise ArtProblem(phrase("a blend mode PDF does not have ({mode}), which donjon's PDF cannot draw: use "
                                "{modes}, or {copy}", mode=value.lower(), modes=_NOT_IN_PDF[value.lower()],
                                copy=phrase(_BITMAP_COPY_SAID)), line)
    reason = _UNDRAWN.get(name)
    if reason is not None and value.lower() not in _FINE_VALUES and (css or name != "transform"):
        raise ArtProblem(phrase("it uses {reason}", reason=phrase(reason, copy=phrase(_BITMAP_COPY_SAID))), line)
    variable = _VARIABLE.search(value)
    if variable is not None and not name.startswith("--"):
        # svglib reads no custom property: a colour of one was painted black, a length read as nothing
        raise ArtProblem(phrase("its {name} is a CSS variable ({variable})), which donjon's PDF cannot read: write "
                                "the value itself", name=name, variable=variable.group(0)), line)
    if name == "clip-path" and value.lower() not in ("none", "inherit", "initial", "unset", "") and \
            _URL.search(value) is None:
        raise ArtProblem(phrase("a clip path written as a CSS shape ({value}), which donjon's PDF cannot draw (it "
                                "drew the element uncut): draw the shape as a <clipPath> of the file and name it "
                                "(clip-path=\"url(#id)\")", value=value), line)
    if name == "mask" and value.lower() != "none":
        _check_mask(value, line, ids)
        return
    if name in ("fill", "stroke", "clip-path"):
        match = _URL.search(value)
        if match is None:
            return
        target = ids.get(match.group(1))
        if target is None:
            return
        kind = _local(target.tag)
        if name == "stroke" and kind.endswith("Gradient") and not unstroked:
            raise ArtProblem(phrase("it strokes with a gradient, which donjon's PDF cannot draw: turn the stroke "
                                    "into a shape (Inkscape: Path > Stroke to Path) and fill that"), line)
        if name == "fill" and kind.endswith("Gradient"):
            spread = spread_method(_href_chain(target, _GRADIENTS, ids))
            if spread != "pad":
                raise ArtProblem(phrase("a gradient that repeats (spreadMethod=\"{spread}\"), which donjon's PDF "
                                        "cannot draw: use spreadMethod=\"pad\" (Inkscape: Repeat: none)",
                                        spread=spread), target.sourceline)
        if name == "clip-path" and kind == "clipPath" and target.get("clipPathUnits") == "objectBoundingBox":
            raise ArtProblem(phrase("a clip path in objectBoundingBox units, which donjon's PDF cannot draw: give it "
                                    "userSpaceOnUse units"), target.sourceline)


#: The at-rules whose block holds style rules that Chromium applies and donjon's cascade does not read (it reads
#: `@media`, :func:`generator.render.images.css_rules`).
_UNREAD_BLOCKS = frozenset({"supports", "layer", "container", "scope", "starting-style"})


def _check_rules_read(rules: list[Any], line: int) -> None:
    """Style rules a stylesheet holds that Chromium applies and the cascade would pass over, silently (the shapes
    were drawn in the colours the rule did not give): a rule nested in another (CSS Nesting 1: `g { rect {...} }`)
    and the rules of an `@supports`, `@layer` or `@container` block; an ArtProblem at its line (`line`: the
    stylesheet's first)."""
    import tinycss2

    for rule in rules:
        if rule.type == "at-rule" and rule.content is not None:
            inner = tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True)
            if rule.lower_at_keyword == "media":
                _check_rules_read(inner, line)
            elif rule.lower_at_keyword in _UNREAD_BLOCKS and any(found.type == "qualified-rule" for found in inner):
                raise ArtProblem(phrase("its stylesheet holds rules inside @{rule}, which donjon does not read "
                                        "(Chromium does): write them as plain rules", rule=rule.lower_at_keyword),
                                 line + rule.source_line - 1)
        elif rule.type == "qualified-rule":
            nested = next((token for token in rule.content if token.type == "{} block"), None)
            if nested is not None:
                raise ArtProblem(phrase("its stylesheet nests a rule inside another (a {{ b {{ ... }} }}), which "
                                        "donjon does not read (Chromium does): write it out (a b {{ ... }})"),
                                 line + nested.source_line - 1)


def _check_origin(origins: Cascade, element: Any, line: int | None) -> None:
    """A transform attribute turned or scaled about another point than the user space's origin (`transform-origin`,
    `transform-box: fill-box`, as CSS Transforms 1 lets a rule or style say): Chromium draws it so, svglib about the
    origin (Inkscape's "rotate about the centre" was drawn far off its place): an ArtProblem at its line."""
    origin = (origins.value(element, "transform-origin") or "").strip().lower()
    box = (origins.value(element, "transform-box") or "").strip().lower()
    if (origin and not set(origin.split()) <= _ORIGIN_WORDS) or box not in _ORIGIN_BOXES:
        said = "; ".join(f"{name}: {value}" for name, value in (("transform-origin", origin), ("transform-box", box))
                         if value)
        raise ArtProblem(phrase("its transform is about another point than the origin ({said}), which donjon's PDF "
                                "cannot draw: remove the transform-origin and write the transform about that point "
                                "(rotate(angle cx cy); Inkscape: Object > Transform)", said=said), line)


def _check_mask(value: str, line: int | None, ids: dict[str, Any]) -> None:
    """A `mask` property must name a `<mask>` of the file (CSS Masking 1, 7.1): what else CSS lets it say (a picture
    file, a CSS gradient, a mask's mode or place) no PDF of donjon's draws."""
    match = _URL.fullmatch(value)
    if match is None:
        raise ArtProblem(phrase("a mask written as CSS ({value}), which donjon's PDF cannot draw: draw the mask as a "
                                "<mask> element of the file and name it (mask=\"url(#id)\"), or {copy}", value=value,
                                copy=phrase(_BITMAP_COPY_SAID)), line)
    target = ids.get(match.group(1))
    if target is None or _local(target.tag) != "mask":
        raise ArtProblem(phrase("a mask that is no <mask> of the file ({value}), which viewers draw each their own "
                                "way: name a <mask> the file holds, or remove the mask", value=value), line)


#: The paint order when nothing is said (SVG 2, 13.8.1): what a `paint-order` leaves out follows in this order.
_PAINT_ORDER = ("fill", "stroke", "markers")


def _fills_first(value: str) -> bool:
    """Whether a `paint-order` paints the fill before the stroke, as svglib draws every shape (SVG 2, 13.8.1: the
    parts it names, then the others in the usual order): `markers fill stroke`, Inkscape's choice "markers, fill,
    stroke", and `markers` alone do (markers are refused apart); `stroke`, `stroke fill` and `markers stroke` do
    not, and the Reader draws their stroke first (:func:`_stroked_first`). An unread value (an unknown word, a part
    twice) is `normal`, as viewers drop it."""
    words = value.lower().split()
    if words in ([], ["normal"]) or len(set(words)) != len(words) or not set(words) <= set(_PAINT_ORDER):
        return True
    order = words + [part for part in _PAINT_ORDER if part not in words]
    return order.index("fill") < order.index("stroke")


#: The values of a gradient's spreadMethod (SVG 1.1, 13.2.2), written exactly so (Chromium reads ` reflect` or
#: `Reflect` as no value it knows).
SPREADS = frozenset({"pad", "reflect", "repeat"})


def spread_method(chain: Sequence[Any]) -> str:
    """How a gradient spreads past its ends, its href chain given (:func:`_href_chain`), as Chromium reads it: the
    spreadMethod of the first gradient of the chain that has the attribute at all, `pad` when that value is not one
    of :data:`SPREADS` (an empty or misspelt value is written, and is the initial value, not taken from the next
    gradient: measured; librsvg 2.54 takes it from the next), and `pad` when none has it. A gradient that refers to
    something that is no gradient takes nothing from it (the chain ends there; SVG 1.1, 13.2.2: such an href is
    invalid), as in Chromium."""
    for link in chain:
        value = link.get("spreadMethod")
        if value is not None:
            return value if value in SPREADS else "pad"
    return "pad"


def _href_chain(element: Any, kinds: Iterable[str], ids: dict[str, Any]) -> list[Any]:
    """`element` and the elements its href names in turn, while they are of `kinds`, each once and at most _CHAIN:
    what a gradient or a pattern leaves unwritten it takes from them, first to last (SVG 1.1, 13.2.2, 13.3)."""
    chain: list[Any] = []
    while element is not None and _local(element.tag) in kinds and element not in chain and len(chain) < _CHAIN:
        chain.append(element)
        element = _referenced(element, ids)
    return chain


def _written(chain: Sequence[Any], name: str, kind: str | None = None) -> str | None:
    """The attribute `name` as the first element of `chain` that writes it writes it (of the element type `kind`
    only, when given); None when none does."""
    for link in chain:
        if kind is not None and _local(link.tag) != kind:
            continue
        value = (link.get(name) or "").strip()
        if value:
            return value
    return None


def _embedded(href: str, line: int | None) -> Embedded | None:
    """A `data:` PNG or JPEG picture of an <image>, decoded and checked as picture files are."""
    match = _DATA_PICTURE.fullmatch(href)
    if match is None:
        return None
    try:
        data = base64.b64decode(re.sub(r"\s+", "", match.group(2)), validate=True)
    except (binascii.Error, ValueError):
        raise ArtProblem(phrase("its embedded picture is not valid base64 data"), line) from None
    kind = "png" if data.startswith(b"\x89PNG\r\n\x1a\n") else "jpeg" if data.startswith(b"\xff\xd8\xff") else ""
    if not kind:
        raise ArtProblem(phrase("its embedded picture is neither a PNG nor a JPEG file"), line)
    try:
        width, height = raster_size(data, kind)  # type: ignore[arg-type]
    except ImageProblem as err:
        raise ArtProblem(phrase("its embedded picture: {problem}", problem=str(err)), line) from None
    return Embedded(kind, data, (width, height))


# --- viewports cut what they draw outside them ----------------------------------------------------------------------

#: The `overflow` values that show what a viewport draws outside it (SVG 1.1, 14.3.3: `auto` is `visible`); any
#: other (`hidden`, `scroll`, and the default of a symbol or a nested <svg>) cuts it off.
_SHOWN = frozenset({"visible", "auto"})


def clip_viewports(data: bytes) -> bytes:
    """SVG art as the SVG output carries it, each viewport cut as browsers cut it whatever the viewer: librsvg 2.54
    cuts a nested <svg> as browsers do, but reads a symbol's `overflow` the other way round (it does not cut a
    symbol that says nothing or `hidden`, and cuts one that says `visible`; lovell/sharp#2919). So the clip of a
    symbol that is cut is written out (:func:`_clip_viewports`), and each use of a symbol that shows what it draws
    outside is drawn as a nested <svg> of the same viewBox and overflow (:func:`_shown_symbols_inline`), which
    every viewer leaves uncut. Its stylesheets are those a browser printing reads (:func:`_printed`: librsvg reads
    every `@media` block, browsers those for screens), and the colours librsvg cannot read are written as it reads
    them (:func:`_colours_for_librsvg`), and so are the lengths in percent of a mask's contents in box units
    (:func:`_box_percents_for_librsvg`). Art with nothing to change is returned as it is (the same
    bytes); art changed is written again by lxml (the PDF reads the file as it was, so the lines its messages name
    are the file's)."""
    # the root's tag and namespace name "svg" twice: no other viewport, nothing drawn on conditions, no @media
    if (b"symbol" not in data and data.count(b"svg") < 3 and not any(name in data for name in _CONDITIONS_WRITTEN)
            and b"@media" not in data and not _UNREAD_COLOUR_WRITTEN.search(data) and not _EM_WRITTEN.search(data)
            and not (b"objectBoundingBox" in data and b"%" in data)):
        return data
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    try:
        root = etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError:
        return data  # read_art names the fault
    sheets = [element.text for element in root.iter() if _local(element.tag) == "style"]
    _printed(root)  # as the PDF reads it (read_art says what is left out)
    printed = sheets != [element.text for element in root.iter() if _local(element.tag) == "style"]
    printed = bool(_unread_colours(root)) or printed
    chosen, _said = _conditions(root)
    restyled = _restyled_uses_inline(root)
    sized = _ex_as_em(root)
    sized = _font_size_for_librsvg(root) or sized
    cut = _clip_viewports(root)
    coloured = _colours_for_librsvg(root)
    sized = _box_percents_for_librsvg(root) or sized
    coloured = _context_paints_for_librsvg(root) or coloured
    if (not _shown_symbols_inline(root) and not cut and not chosen and not printed and not coloured and not restyled
            and not sized):
        return data
    declared = data.lstrip().startswith(b"<?xml")
    return bytes(etree.tostring(root.getroottree(), encoding="utf-8", xml_declaration=declared))


def _clip_viewports(root: Any) -> bool:
    """Cut what a viewport draws outside it, in the tree (whether anything is cut): a `<symbol>` a `<use>` places
    and an `<svg>` inside the drawing cut off what they draw outside their viewport (the use's or the svg's x, y,
    width and height), unless their own `overflow` (an attribute, a style or a `<style>` rule) is `visible` or
    `auto` (SVG 1.1, 14.3.3, as Chromium draws it; svglib never cut). The element is wrapped in a group clipped to
    that rectangle (the use's transform moved to the group, so the rectangle is in the use's own units), on the
    same line of the file; one wrapped before (art written by :func:`clip_viewports`) is not wrapped again. A <use>
    that shows an <svg> is first drawn as that <svg> in its place (:func:`_drawings_inline`), so it is cut the same
    way."""
    inlined = _drawings_inline(root)
    ids = _by_id(root)
    overflow = _Overflow(root)
    cut: list[Any] = []
    for element in root.iter():
        tag = _local(element.tag)
        if tag not in ("use", "svg") or element is root or _inside_clip(element) or _wrapped(element):
            continue
        if tag == "svg":
            if not overflow.shown(element):
                cut.append(element)
            continue
        target = _referenced(element, ids)
        # the symbol's own overflow, as browsers read it (overflow is not inherited: a use's says nothing of
        # the symbol it shows; librsvg 2.54 reads the symbol's the other way round)
        if target is not None and _local(target.tag) == "symbol" and not overflow.shown(target):
            cut.append(element)
    number = 0
    for element in cut:
        number += 1
        while f"{_VIEWPORT_CLIP}{number}" in ids:
            number += 1
        _clip_to_viewport(element, f"{_VIEWPORT_CLIP}{number}")
    return bool(cut) or inlined


#: The attributes whose percent is a share of the viewport's diagonal (SVG 1.1, 7.10), beside :data:`_ACROSS` and
#: :data:`_DOWN`.
_DIAGONAL = frozenset({"r", "stroke-width", "stroke-dashoffset"})


def _box_percents_for_librsvg(root: Any) -> bool:
    """Write each length in percent of a mask's contents in objectBoundingBox units (`maskContentUnits`) as the
    number of user units Chromium and the PDF read it as (a share of the viewport around the mask, as anywhere
    else, then measured in the box: `width="50%"` of a 100-wide drawing covers 50 boxes), in the tree (whether any
    is): librsvg 2.54 takes it for a share of the box (half of it). Attributes, styles and `<style>` rules, of the
    mask's elements and of what a <use> among them shows (:func:`_box_uses_inline`); the viewport a nested <svg>,
    of its viewBox, else of its width and height (:func:`_viewport_size`); one of unknown size is left as it is."""
    changed = _box_uses_inline(root)
    rules = Cascade(root, _GEOMETRY)
    for mask in root.iter():
        if _local(mask.tag) != "mask" or (mask.get("maskContentUnits") or "").strip() != "objectBoundingBox":
            continue
        viewport = next((node for node in mask.iterancestors() if _local(node.tag) == "svg"), None)
        if viewport is None:
            continue
        size = _viewport_size(viewport, root)
        if size is None:
            continue
        width, height = size
        for element in mask.iterdescendants():
            if not isinstance(element.tag, str) or any(_local(node.tag) == "svg" for node in element.iterancestors()
                                                       if node is not viewport and mask in node.iterancestors()):
                continue  # a viewport of its own inside the mask: its percents are its own
            # a rule's length (the last of a name winning, an !important one over the others), unless the element's
            # own style says another: written as the element's own, which outranks any rule
            ruled = {name: value for name, value, _important in sorted(rules.declared(element), key=lambda d: d[2])}
            own = {name for name, _value, _important in style_declarations(element.get("style") or "")}
            for name, value in ruled.items():
                number = _in_units(name, value, width, height) if name not in own else None
                if number is not None:
                    style = (element.get("style") or "").strip().rstrip(";")
                    element.set("style", f"{style}; {name}: {number} !important" if style
                                else f"{name}: {number} !important")
                    changed = True
            for name, value in element.attrib.items():
                if name == "style" and "%" in value:
                    style = _STYLE_LENGTH.sub(lambda found: found.group(1) + found.group(2) + (_in_units(
                        found.group(1).lower(), found.group(3), width, height) or found.group(3)), value)
                    changed = changed or style != value
                    element.set(name, style)
                    continue
                number = _in_units(name, value, width, height)
                if number is not None:
                    element.set(name, number)
                    changed = True
    return changed


def _viewport_size(viewport: Any, root: Any) -> tuple[float, float] | None:
    """The width and height of the user space an <svg> of the art makes, which its percents are shares of: its
    viewBox's, else the art's own for the root; else, for a nested <svg>, its width and height (SVG 2, 8.2: 100 %
    when unwritten), in user units or in percent of the viewport around it. None when a length is in another unit
    or cannot be read (nothing is changed then)."""
    box = _view_box(viewport.get("viewBox"))
    if box is not None:
        return box[2], box[3]
    if viewport is root:
        return art_viewport(root)
    outer = next((node for node in viewport.iterancestors() if _local(node.tag) == "svg"), None)
    around = _viewport_size(outer, root) if outer is not None else None
    if around is None:
        return None
    size = []
    for name, whole in (("width", around[0]), ("height", around[1])):
        written = (viewport.get(name) or "100%").strip()
        percent = _PERCENT.fullmatch(written)
        plain = _PLAIN_NUMBER.fullmatch(written)
        if percent is not None:
            size.append(float(percent.group(1)) / 100.0 * whole)
        elif plain is not None:
            size.append(float(plain.group(1)))
        else:
            return None
    return size[0], size[1]


def _box_uses_inline(root: Any) -> bool:
    """Draw each <use> in a mask in objectBoundingBox units (maskContentUnits) that shows a length in percent as a
    copy in its place (whether any is), for :func:`_box_percents_for_librsvg` to write that length in user units
    in the copy: the original, defined elsewhere (in <defs>), may be drawn by other uses, outside the mask, where
    the percent is right. The copy is styled as Chromium styles what a use shows (:func:`_isolated`), its ids left
    out, in a group of the use's attributes moved by its x and y, as :func:`_restyled_uses_inline` draws one. A use
    of an <svg> or a <symbol> (a viewport of its own), one whose x or y is not a plain number, and one inside what
    it shows are left. Uses nest: one that shows a length in percent through the uses it holds is copied, then
    each use its copy holds (a copy's uses were left, and librsvg read their percent as a share of the box)."""
    ids = _by_id(root)
    copies: list[Any] = []
    origin: dict[Any, Any] = {}
    percents: dict[Any, bool] = {}
    masks = [node for node in root.iter() if _local(node.tag) == "mask"
             and (node.get("maskContentUnits") or "").strip() == "objectBoundingBox"]

    def wanted(use: Any, target: Any) -> bool:
        return _local(target.tag) not in ("svg", "symbol") and not any(target is node for node in use.iter()) \
            and _shows_what(target, root, ids, _in_percent, percents, set())

    for use, target, x, y in _uses_to_copy(
            lambda: [node for mask in masks for node in mask.iter() if _local(node.tag) == "use"], ids, origin, wanted):
        styled, isolated = _isolated(target, root)
        _styled_as(styled.iter(), isolated)  # a rule's percent is then in the copy's style
        origin[styled] = origin.get(target, target)
        for element in styled.iter():
            if isinstance(element.tag, str) and "id" in element.attrib:
                del element.attrib["id"]
        styled.tail = None
        drawn = _copy_in_place(use, styled, x, y)
        origin[drawn[0]] = origin.get(target, target)
        copies.extend(drawn)
    _unmatched_in_place(root, copies)
    return bool(copies)


def _in_percent(styled: Any) -> bool:
    return any("%" in value for element in styled.iter() if isinstance(element.tag, str)
               for value in element.attrib.values())


#: The lengths CSS may set (SVG 2, 9.2 and 10.1: geometry properties), by a `<style>` rule too.
_GEOMETRY = ("x", "y", "cx", "cy", "r", "rx", "ry", "width", "height")
#: A declaration of a `style` attribute: its name, the colon, its value up to `;` or `!important`.
_STYLE_LENGTH = re.compile(r"(?<![\w-])([a-z][\w-]*)(\s*:\s*)([^;!]*)", re.I)


def _in_units(name: str, value: str, width: float, height: float) -> str | None:
    """A length in percent of a viewport `width` by `height` (SVG 1.1, 7.10), written in user units; None when it
    is no percent, or of no length read so."""
    match = _PERCENT.fullmatch(value)
    if match is None:
        return None
    share = float(match.group(1)) / 100.0
    if name in _ACROSS:
        number = share * width
    elif name in _DOWN:
        number = share * height
    elif name in _DIAGONAL:
        number = share * math.sqrt((width * width + height * height) / 2.0)
    else:
        return None
    return f"{number:.6g}"


#: The colour functions librsvg 2.54 does not read (it paints black) and browsers do, which donjon's PDF draws
#: (:func:`_css_colour`): `hwb()`, `color()`, `lab()`, `lch()`, `oklab()` and `oklch()`, in any case, as written in an
#: attribute, a style or a stylesheet.
_UNREAD_COLOUR = re.compile(r"(?<![\w-])(?:hwb|color|lab|lch|oklab|oklch)\([^()]*\)", re.I)
_UNREAD_COLOUR_WRITTEN = re.compile(rb"(?<![\w-])(?:hwb|color|lab|lch|oklab|oklch)\(", re.I)


def _colours_for_librsvg(root: Any) -> bool:
    """Write each colour librsvg 2.54 cannot read (:data:`_UNREAD_COLOUR`) as the `#rrggbb` browsers and the PDF
    draw, in the tree (whether any is): in attributes, styles and stylesheets; one no viewer reads is left out
    before (:func:`_unread_colours`)."""
    changed = False

    def written(match: re.Match[str]) -> str:
        nonlocal changed
        found = _css_colour(match.group(0))
        if found is None:
            return match.group(0)
        changed = True
        return found

    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name, value in element.attrib.items():
            if "(" in value and _UNREAD_COLOUR.search(value):
                element.set(name, _UNREAD_COLOUR.sub(written, value))
        if _local(element.tag) == "style" and element.text and _UNREAD_COLOUR.search(element.text):
            element.text = _UNREAD_COLOUR.sub(written, element.text)
    return changed


#: A `color()` function as written (its space, then the rest), and a declaration holding one in a stylesheet or a
#: style (its name and value up to the next `;` or brace).
_COLOR_FUNCTION = re.compile(r"(?<![\w-])color\(\s*([^\s()/]*)[^()]*\)", re.I)
_COLOR_DECLARATION = re.compile(r"([\w-]+)\s*:([^;{}]*(?<![\w-])color\([^;{}]*)", re.I)


#: A paint of what a <use> shows taken from the use (SVG 2, 13.3: the context element), in any case.
_CONTEXT_PAINT = re.compile(r"context-(fill|stroke)", re.I)


def _context_paints_inline(root: Any) -> None:
    """Draw each <use> whose copy paints in `context-fill` or `context-stroke` (an icon set's symbols coloured by
    the use that places them) as a copy in its place, those paints the use's own fill and stroke, as Chromium and
    librsvg paint them; svglib painted nothing there. The copy is styled as Chromium styles what a use shows
    (:func:`_isolated`), its ids left out, placed as :func:`_restyled_uses_inline` places one. A use in a marker
    (whose context is the marked shape), in a clip path, of an <svg>, inside what it shows, whose x or y is not a
    plain number, or whose own paint is a context paint, is left (svglib paints such a shape nothing). Uses nest:
    a use of a symbol of uses (a library's symbols made of its symbols, Inkscape's clones of clones) is copied in
    place first, then each use the copy holds, its paints inherited from the first (a use inside <defs> or a
    <symbol> is drawn only as a copy holds it: painted where it was defined, its context paint was black)."""
    if not any(_CONTEXT_PAINT.search(text) for element in root.iter() if isinstance(element.tag, str)
               for text in (*element.attrib.values(), element.text or "")):
        return
    ids = _by_id(root)
    paints = Cascade(root, ("fill", "stroke"))
    overflow = _Overflow(root)
    copies: list[Any] = []
    origin: dict[Any, Any] = {}
    painted: dict[Any, bool] = {}

    def uses() -> list[Any]:
        return [node for node in root.iter() if _local(node.tag) == "use" and not any(
            _local(holder.tag) in ("marker", "clipPath", "defs", "symbol") for holder in node.iterancestors())]

    def wanted(use: Any, target: Any) -> bool:
        return _local(target.tag) != "svg" and _shows_what(target, root, ids, _painted_in_context, painted, set())

    for use, target, x, y in _uses_to_copy(uses, ids, origin, wanted):
        given = {name: _inherited_paint(use, name, paints) for name in ("fill", "stroke")}
        if any(_CONTEXT_PAINT.search(value) for value in given.values()):
            continue
        styled, isolated = _isolated(target, root)
        _styled_as(styled.iter(), isolated)  # a rule's context paint is then in the copy's style
        _copied(target, styled, origin)
        origin[styled] = origin.get(target, target)
        for element in styled.iter():
            if not isinstance(element.tag, str):
                continue
            element.attrib.pop("id", None)
            for name, value in element.attrib.items():
                if _CONTEXT_PAINT.search(value):
                    element.set(name, _CONTEXT_PAINT.sub(lambda found: given[found.group(1).lower()], value))
        styled.tail = None
        if _local(target.tag) == "symbol":
            drawing = _inline(use, styled, list(styled), "visible" if overflow.shown(target) else "hidden")
        else:
            drawing = _copy_in_place(use, styled, x, y)[0]
        origin[drawing] = origin.get(target, target)  # a use inside showing it closes a loop
        copies.extend(drawing.iter())
    _unmatched_in_place(root, copies)


def _shows_what(target: Any, root: Any, ids: dict[str, Any], holds: Callable[[Any], bool], known: dict[Any, bool],
                seen: set[Any]) -> bool:
    """Whether what a <use> of `target` shows `holds` something (asked of its copy, styled as Chromium styles it:
    :func:`_isolated`), itself or through a use it holds; `known` keeps the answers found, `seen` the targets on
    the way (a loop)."""
    if target in known:
        return known[target]
    if target in seen:
        return False
    seen.add(target)
    styled, isolated = _isolated(target, root)
    _styled_as(styled.iter(), isolated)
    found = holds(styled) or any(
        inner is not None and _shows_what(inner, root, ids, holds, known, seen)
        for inner in (_referenced(use, ids) for use in target.iter() if _local(use.tag) == "use"))
    known[target] = found
    return found


def _painted_in_context(styled: Any) -> bool:
    return any(_CONTEXT_PAINT.search(value) for element in styled.iter() if isinstance(element.tag, str)
               for value in element.attrib.values())


def _context_paints_for_librsvg(root: Any) -> bool:
    """Write `none` for a fill or stroke in `context-fill` or `context-stroke` (attribute, style or rule) of a shape
    that has no context (SVG 2, 13.3: neither in a marker nor shown by a <use>), in its style (whether any is):
    Chromium and the PDF paint nothing there, librsvg 2.54 painted black. Left as it is inside a marker, a symbol,
    <defs> or anything else drawn only where it is used, and in whatever a <use> shows."""
    if not any(_CONTEXT_PAINT.search(text) for element in root.iter() if isinstance(element.tag, str)
               for text in (*element.attrib.values(), element.text or "")):
        return False
    ids = _by_id(root)
    shown = {target for target in (_referenced(use, ids) for use in root.iter() if _local(use.tag) == "use")
             if target is not None}
    paints = Cascade(root, ("fill", "stroke"))
    changed = False
    for element in root.iter():
        if not isinstance(element.tag, str) or element in shown or any(
                node in shown or _local(node.tag) in _USED_ONLY for node in element.iterancestors()):
            continue
        for name in ("fill", "stroke"):
            if _CONTEXT_PAINT.fullmatch((paints.value(element, name) or "").strip()):
                style = (element.get("style") or "").strip().rstrip(";")
                element.set("style", f"{style}; {name}: none" if style else f"{name}: none")
                changed = True
    return changed


#: The elements whose contents are drawn only where something uses them (SVG 2, 5.3, 5.5 and the paint servers).
_USED_ONLY = frozenset({"defs", "symbol", "marker", "pattern", "mask", "clipPath", "linearGradient",
                        "radialGradient"})


def _inherited_paint(element: Any, name: str, paints: Cascade) -> str:
    """The `fill` or `stroke` an element paints in (its own, else its nearest ancestor's; black and none when none
    sets one)."""
    node = element
    while node is not None:
        found = paints.value(node, name)
        if found is not None and found.strip().lower() not in ("inherit", "unset", ""):
            return found.strip()
        node = node.getparent()
    return "black" if name == "fill" else "none"


def _solid_gradient_strokes(root: Any) -> None:
    """Give a stroke painted by a gradient of one colour (each of its stops of that colour, opaque: Inkscape's
    "solid" swatches, `inkscape:swatch="solid"`, and the gradients it makes of them) that colour itself, in the
    element's style: a viewer paints it so, and donjon's PDF, which draws no gradient stroke, refused it. Only where
    the paint shows as that colour: the gradient in user space, or in the box of a rect, circle or ellipse (a
    gradient in box units on a straight line's box, which has no height, paints nothing: SVG 1.1, 7.11). A stroke
    an `!important` rule gives is left (refused as before)."""
    ids = _by_id(root)
    if not any(_local(element.tag) in _GRADIENTS for element in ids.values()):
        return
    rules = Cascade(root, ("stroke", "stop-color", "stop-opacity"))
    solid: dict[Any, str | None] = {}
    for element in root.iter():
        if not isinstance(element.tag, str) or any(important and name == "stroke"
                                                   for name, _value, important in rules.declared(element)):
            continue
        match = _URL.fullmatch((rules.value(element, "stroke") or "").strip())
        target = ids.get(match.group(1)) if match is not None else None
        if target is None or _local(target.tag) not in _GRADIENTS:
            continue
        if target not in solid:
            solid[target] = _one_colour(_href_chain(target, _GRADIENTS, ids), rules)
        colour = solid[target]
        chain = _href_chain(target, _GRADIENTS, ids)
        in_box = (_written(chain, "gradientUnits") or "objectBoundingBox") != "userSpaceOnUse"
        if colour is None or (in_box and _local(element.tag) not in ("rect", "circle", "ellipse")):
            continue
        style = (element.get("style") or "").strip().rstrip(";")
        element.set("style", f"{style}; stroke: {colour}" if style else f"stroke: {colour}")
        if "stroke" in element.attrib:
            element.set("stroke", colour)


def _one_colour(chain: list[Any], rules: Cascade) -> str | None:
    """The colour of every stop of a gradient (`chain`: it and those its href names, the first with stops giving
    them), when all are of one colour, written alike, and opaque; None otherwise (no stop paints nothing)."""
    stops = next(([child for child in link if _local(child.tag) == "stop"] for link in chain
                  if any(_local(child.tag) == "stop" for child in link)), [])
    colours = {(rules.value(stop, "stop-color") or "black").strip().lower() for stop in stops}
    opacities = {_number((rules.value(stop, "stop-opacity") or "1").strip(), 1.0) for stop in stops}
    if len(colours) != 1 or opacities != {1.0}:
        return None
    colour = colours.pop()
    # a stop's currentColor is the stop's own (what the gradient inherits), not the stroked element's
    return None if colour in ("currentcolor", "inherit", "unset", "initial", "transparent") or "var(" in colour \
        else colour


def _at_line(line: int | None, said: str) -> str:
    """A warning about the file's line `line` (`line 12: ...`), as the language of the messages says it."""
    return phrase("line {line}: {message}", line=str(line), message=said) if line else said


def _unread_colours(root: Any) -> list[str]:
    """Leave out, in the tree, each colour written as a `color()` no viewer reads (a colour space CSS Color 4 does
    not name, `color(foo 1 0 0)`, or too few numbers), as browsers leave it out: a presentation attribute so written
    is ignored and a declaration dropped (CSS Syntax 3: an invalid value drops its declaration), so the shape takes
    what it would without it (Chromium paints a fill so written black, its initial value, or the parent's); the PDF
    drew no fill at all. Each said by line, element and value."""
    from tinycss2.color4 import parse_color

    said: list[str] = []

    def unread(value: str) -> str | None:
        for match in _COLOR_FUNCTION.finditer(value):
            if parse_color(_NONE.sub("0", match.group(0))) is None:
                return match.group(0)
        return None

    def tell(element: Any, name: str, colour: str, space: str, down: int = 0) -> None:
        space_said = phrase("the colour space {space} is none CSS names", space=phrase_quoted(space, None)) \
            if space and space.lower() not in _COLOR_SPACES else phrase("it is not a colour CSS reads")
        said.append(_at_line(element.sourceline + down if element.sourceline else None, phrase(
            "<{tag}> {name}: {colour}: {why} (a98-rgb, display-p3, prophoto-rgb, rec2020, srgb, srgb-linear, xyz, "
            "xyz-d50, xyz-d65): left out, as browsers leave it out", tag=_local(element.tag), name=name,
            colour=colour, why=space_said)))

    def dropped(element: Any, text: str) -> str:
        def drop(match: re.Match[str]) -> str:
            colour = unread(match.group(2))
            if colour is None:
                return match.group(0)
            found = _COLOR_FUNCTION.match(colour)
            tell(element, match.group(1), colour, found.group(1) if found else "",
                 text.count("\n", 0, match.start()))  # the declaration's own line in a stylesheet
            return "--donjon-dropped: 0"  # a custom property: nothing reads it
        return _COLOR_DECLARATION.sub(drop, text)

    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name, value in list(element.attrib.items()):
            if "(" not in value or "color(" not in value.lower():
                continue
            if _local(name) == "style":
                element.set(name, dropped(element, value))
                continue
            colour = unread(value)
            if colour is not None:
                found = _COLOR_FUNCTION.match(colour)
                tell(element, _local(name), colour, found.group(1) if found else "")
                del element.attrib[name]
        if _local(element.tag) == "style" and element.text and "color(" in element.text.lower():
            element.text = dropped(element, element.text)
    return said


#: The shapes a mask drawn as a clip may hold (:func:`_masks_as_clips`), and the fills that are white (a luminance
#: mask lets through what is under white, wholly).
_MASK_SHAPES = frozenset({"path", "rect", "circle", "ellipse", "polygon"})
_WHITE = frozenset({"white", "#fff", "#ffffff", "rgb(255,255,255)"})
#: The ids of the clips a mask becomes (a number follows).
_MASK_CLIP = "donjon-mask-"


def _masks_as_clips(root: Any) -> None:
    """Draw as clips, in the tree, the masks that are clips (a viewer shows the same): Figma exports a shape's mask
    (and a frame's cut) as a `<mask>` in user units, its region written, holding shapes filled wholly opaque
    (mask-type alpha) or white (luminance), unstroked. Such a mask lets through, wholly, what is under its shapes
    within its region, which is what a clip path of the shapes inside a clip of the region does. The element masked
    gets those two clips on groups around it (its transform moved onto them: a mask's units are the element's own).
    Any other mask (see-through, grey, a gradient, a picture, units of the box) is left, and refused as a mask."""
    from lxml import etree

    ids = _by_id(root)
    masked = [element for element in root.iter() if isinstance(element.tag, str) and element.get("mask")]
    number = 0
    for element in masked:
        match = _URL.fullmatch(element.get("mask").strip())
        mask = ids.get(match.group(1)) if match else None
        if (mask is None or _local(mask.tag) != "mask" or element.getparent() is None or _inside_clip(element)
                or not _mask_is_clip(mask)):
            continue  # refused as a mask (the root's own mask too: no group can hold the root)
        namespace = _namespace(mask.tag)
        clips = []
        for what in ("region", "shapes"):
            number += 1
            while f"{_MASK_CLIP}{number}" in ids:
                number += 1
            clip = etree.SubElement(mask.getparent(), f"{namespace}clipPath", id=f"{_MASK_CLIP}{number}")
            ids[clip.get("id")] = clip
            if what == "region":
                etree.SubElement(clip, f"{namespace}rect", {name: mask.get(name) for name in
                                                            ("x", "y", "width", "height")})
            else:
                for shape in mask:
                    if isinstance(shape.tag, str) and _local(shape.tag) in _MASK_SHAPES:
                        made = copy.deepcopy(shape)
                        made.tail = None
                        made.attrib.pop("id", None)
                        clip.append(made)
            clips.append(clip.get("id"))
        outer = etree.Element(f"{namespace}g")
        inner = etree.SubElement(outer, f"{namespace}g", {"clip-path": f"url(#{clips[1]})"})
        outer.set("clip-path", f"url(#{clips[0]})")
        if element.get("transform"):
            outer.set("transform", element.attrib.pop("transform"))
        del element.attrib["mask"]
        outer.tail, element.tail = element.tail, None
        element.getparent().replace(element, outer)
        inner.append(element)


def _root_unmasked(root: Any) -> None:
    """A mask on the drawing's own <svg> is refused, with its line: the PDF draws the root as svglib's drawing,
    which no mask wraps."""
    said = dict(cascaded([], root.get("style") or ""))
    if (said.get("mask") or root.get("mask") or "none").strip().lower() != "none":
        raise ArtProblem(phrase("a mask on the whole drawing (its <svg>), which donjon's PDF does not draw: put the "
                                "drawing in a group (<g>) and mask the group"), root.sourceline)


def _mask_is_clip(mask: Any) -> bool:
    """Whether a <mask> lets through wholly what is under its shapes and nothing else (:func:`_masks_as_clips`)."""
    if mask.get("maskUnits") != "userSpaceOnUse" or mask.get("maskContentUnits") not in (None, "userSpaceOnUse"):
        return False
    if any(_PLAIN_NUMBER.fullmatch(mask.get(name) or "") is None for name in ("x", "y", "width", "height")):
        return False
    styles = dict(cascaded([], mask.get("style") or ""))
    alpha = (styles.get("mask-type") or mask.get("mask-type") or "luminance").strip().lower() == "alpha"
    shapes = [child for child in mask if isinstance(child.tag, str)]
    if not shapes:
        return False
    for shape in shapes:
        if _local(shape.tag) not in _MASK_SHAPES:
            return False
        said = {**{name: value for name, value in shape.attrib.items() if isinstance(name, str)},
                **dict(cascaded([], shape.get("style") or ""))}
        fill = (said.get("fill") or "black").strip().lower().replace(" ", "")
        if fill == "none" or fill.startswith("url(") or (not alpha and fill not in _WHITE):
            return False
        if (said.get("stroke") or "none").strip().lower() != "none" or said.get("class"):
            return False
        if any(_number(said[name], 1.0) < 1.0 for name in ("opacity", "fill-opacity") if name in said):
            return False
        colour = _css_colour(fill) if alpha else None
        if colour is not None and len(colour) > 7:  # a see-through colour (#rrggbbaa)
            return False
    return True


#: The colour spaces `color()` names (CSS Color 4, 10.1).
_COLOR_SPACES = frozenset({"srgb", "srgb-linear", "display-p3", "a98-rgb", "prophoto-rgb", "rec2020", "xyz",
                           "xyz-d50", "xyz-d65"})


#: The conditions an element may be drawn on (SVG 1.1, 5.8), as they are written.
_CONDITIONS_WRITTEN = (b"systemLanguage", b"requiredFeatures", b"requiredExtensions")


def _conditions(root: Any) -> tuple[bool, tuple[str, ...]]:
    """Draw the same whatever the viewer and the machine: each element drawn on conditions (SVG 1.1, 5.8) is left out
    when they fail and kept without them when they hold, and each <switch> keeps only the first child kept (or
    none); whether anything changed, and what is left out for a language, by line. The conditions are those of
    browsers (SVG 2, Chromium): `requiredExtensions` holds for the extensions a browser has
    (:data:`generator.render.images` refuses a foreignObject that would need one), `requiredFeatures` always holds;
    `systemLanguage` holds for no language, the same on every machine (svglib took the build machine's locale,
    librsvg and browsers take the viewer's, so the PDF and the SVG showed different choices, and one machine's PDF
    another's). Browsers weigh the conditions on any element; librsvg only in a <switch>."""
    from generator.render.images import KNOWN_EXTENSIONS

    said: list[str] = []
    changed = False
    for element in list(root.iter()):
        if not isinstance(element.tag, str) or element is root:
            continue
        if not any(name in element.attrib for name in ("systemLanguage", "requiredFeatures", "requiredExtensions")):
            continue
        extensions = element.get("requiredExtensions")
        language = element.get("systemLanguage")
        holds = (extensions is None or (bool(extensions.split())
                                        and all(name in KNOWN_EXTENSIONS for name in extensions.split())))
        holds = holds and language is None
        changed = True
        if holds:
            for name in ("systemLanguage", "requiredFeatures", "requiredExtensions"):
                element.attrib.pop(name, None)
            continue
        if language is not None:
            said.append(_at_line(element.sourceline, phrase(
                "<{tag}> is drawn only for viewers of the languages {languages} (systemLanguage): donjon leaves it "
                "out, in the PDF and the SVG alike, whatever the language of the machine or of the viewer",
                tag=_local(element.tag), languages=phrase_quoted(language.strip(), None))))
        _remove(element)
    for switch in [element for element in root.iter() if _local(element.tag) == "switch"]:
        kept = [child for child in switch if isinstance(child.tag, str) and _local(child.tag) not in _UNDRAWN_KINDS]
        for child in kept[1:]:
            changed = True
            _remove(child)
    return changed, tuple(said)


#: What a <switch> does not choose among: it draws nothing (SVG 1.1, 5.8.2 weighs the elements that draw).
_UNDRAWN_KINDS = frozenset({"title", "desc", "metadata"})


def _remove(element: Any) -> None:
    """Take an element out of the tree, the text after it kept."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)


#: What a clip path draws its outline with (SVG 1.1, 14.3.5): shapes and text, and <use> elements that show one of
#: those themselves; anything else in it (a group, a symbol, a drawing, a picture, a <use> of one of those or of
#: another <use>) browsers and librsvg leave out of the clip.
_CLIP_SHAPES = frozenset({"path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text"})
#: What a clip path may also hold that draws nothing: descriptions and animations.
_CLIP_QUIET = frozenset({"title", "desc", "metadata", "animate", "set", "animateTransform", "animateMotion"})
_LEFT_OUT = N_("which viewers leave out of a clip: it is left out here too")


#: SVG 2's paint servers no browser draws (Inkscape 1's hatches and mesh gradients, solid colours), by tag: a
#: shape painted with one and no fallback colour is painted with nothing, in Chromium, librsvg and donjon's PDF.
_UNPAINTED = {"hatch": N_("a hatch"), "meshgradient": N_("a mesh gradient"), "solidcolor": N_("a solid colour")}


def _paints_nobody_draws(root: Any, hidden: set[Any]) -> tuple[str, ...]:
    """Say, by line, each fill or stroke (its attribute, style or a rule) that names a paint server no viewer draws
    (:data:`_UNPAINTED`) without a fallback colour: the shape is drawn unpainted in every output, as in a browser,
    where the designer saw it painted in Inkscape. Once a paint server."""
    ids = _by_id(root)
    if not any(_local(element.tag).lower() in _UNPAINTED for element in ids.values()):
        return ()
    paints = Cascade(root, ("fill", "stroke"))
    said: dict[Any, str] = {}
    for element in root.iter():
        if not isinstance(element.tag, str) or element in hidden:
            continue
        for name in ("fill", "stroke"):
            match = _URL.fullmatch((paints.value(element, name) or "").strip())
            target: Any = ids.get(match.group(1)) if match is not None else None
            kind = _UNPAINTED.get(_local(target.tag).lower()) if target is not None else None
            if kind is None or target in said:
                continue
            said[target] = _at_line(element.sourceline, phrase(
                "its {name} is {kind} (line {line}), which browsers paint as nothing: it is left unpainted here too; "
                "paint it with a pattern or a gradient, or give a colour after the url() for viewers to fall back on",
                name=name, kind=phrase(kind), line=str(target.sourceline)))
    return tuple(said.values())


def _clip_path_uses(root: Any) -> tuple[str, ...]:
    """Leave out of each clip path what viewers leave out of it (:data:`_CLIP_SHAPES`), and say so by line: svglib
    drew the shapes inside a group or behind a <use> of a symbol into the clip (a <use> of a symbol at the wrong
    size, uncut), so the PDF showed what viewers hide. A polyline clips as the polygon of its points, and a line
    adds nothing, as in viewers (svglib left a polyline out, so a clip of one polyline hid everything). A clip path
    left with nothing hides all it clips, in every viewer (:meth:`Reader.get_clippath`)."""
    ids = _by_id(root)
    said: list[str] = []
    for clip in [element for element in root.iter() if _local(element.tag) == "clipPath"]:
        name = phrase("the clip path {id}", id=phrase_quoted(clip.get("id"), None)) if clip.get("id") \
            else phrase("a clip path")
        for child in list(clip):
            kind = _local(child.tag)
            if kind == "polyline":
                # a clip is the inside of each shape's outline (SVG 1.1, 14.3.5), a polyline's closed as it is
                # filled: a polygon of the same points (svglib left polylines and lines out of a clip)
                child.tag = child.tag[:len(child.tag) - len(kind)] + "polygon"
                continue
            if kind == "line":
                _remove(child)  # a line has no inside: it adds nothing to the clip (one left empty hides all)
                continue
            if not kind or kind in _CLIP_SHAPES or kind in _CLIP_QUIET:
                continue
            if kind == "use":
                target = _referenced(child, ids)
                if target is None or _local(target.tag) in _CLIP_SHAPES:
                    continue
                said.append(_at_line(child.sourceline, phrase(
                    "{name} shows a <{tag}> through a <use>, {left_out}; a clip path's <use> must show a shape itself: "
                    "put the shapes in the clip path (Inkscape: Edit > Clone > Unlink Clone, then ungroup)", name=name,
                    tag=_local(target.tag), left_out=phrase(_LEFT_OUT))))
            elif child.tag.startswith(_SVG) or not child.tag.startswith("{"):
                said.append(_at_line(child.sourceline, phrase(
                    "{name} holds a <{kind}>, {left_out}; a clip path holds shapes: put them in it ungrouped "
                    "(Inkscape: ungroup them before Object > Clip > Set)", name=name, kind=kind,
                    left_out=phrase(_LEFT_OUT))))
            _remove(child)
    return tuple(said)


def _drawings_inline(root: Any) -> bool:
    """Draw each <use> that shows an <svg> of the drawing as a copy of that <svg> in its place (whether any is),
    its width and height the use's when the use gives them (SVG 1.1, 5.6), in a group of the use's transform,
    moved by the use's x and y, and of its other attributes: browsers draw it so, a viewport cut to the use's size;
    svglib drew the <svg> at its own size and never cut it, and librsvg 2.54 ignores the use's width and height.
    The copies have no ids (the originals keep theirs). A use inside a clip path is left (viewers leave it out of
    the clip: :func:`_clip_path_uses`), and so is one whose x or y, and its <svg>'s, are not both plain numbers
    (units or percentages cannot be added up). Copies are made as long as the drawing's own copies are bounded
    (:data:`MAX_DRAWN` elements made)."""
    changed = False
    made = 0
    origin: dict[Any, Any] = {}
    copies: list[Any] = []
    for _round in range(_CHAIN):  # a drawing inside a drawing inside...
        ids = _by_id(root)
        found = []
        for element in root.iter():
            if _local(element.tag) != "use" or _inside_clip(element):
                continue
            target = _referenced(element, ids)
            if target is None or _local(target.tag) != "svg" or target is root or _closes_loop(element, target,
                                                                                                   origin):
                continue
            place = [_added(element.get(name), target.get(name)) for name in ("x", "y")]
            if place[0] is not None and place[1] is not None:
                found.append((element, target, place))
        if not found:
            break
        for use, target, (x, y) in found:
            made += sum(1 for _ in target.iter())
            if made > MAX_DRAWN:
                break
            drawing, isolated = _isolated(target, root)
            _copied(target, drawing, origin)
            _styled_as(drawing.iter(), isolated)
            copies.extend(drawing.iter())
            for element in drawing.iter():
                if isinstance(element.tag, str) and "id" in element.attrib:
                    del element.attrib["id"]
            for name, value in (("x", x), ("y", y), ("width", use.get("width")), ("height", use.get("height"))):
                if value is not None:
                    drawing.set(name, value)
            _replace_use(use, drawing)
            changed = True
        if made > MAX_DRAWN:
            break
    _unmatched_in_place(root, copies)
    return changed


def _restyled_uses_inline(root: Any) -> bool:
    """Draw each <use> whose copy Chromium styles otherwise than librsvg as a copy in its place, styled as Chromium
    styles it (whether any is): Chromium matches the rules against what a use shows in a tree of its own
    (:func:`_isolated`), librsvg 2.54 against the original where it is defined, so a rule by its place (`defs
    ellipse`, `:root .e`, `.f:first-child`) painted it in the SVG output and not in a browser. The copy, its ids
    left out, stands in a group of the use's attributes (:func:`_replace_use`), moved by the use's x and y; a symbol
    becomes a nested <svg> of its viewBox and the use's size, cut unless its overflow is visible. A use inside a
    clip path, one whose x or y is not a plain number, and one closing a loop are left; the copies are bounded as
    the other copies are (:data:`MAX_DRAWN` elements made). A use inside a copy is looked at again, as many times
    as uses nest (each in a tree of its own in Chromium): one left as a use in a copy was drawn by librsvg as styled
    where its original is defined (`defs .k` painted it red)."""
    from lxml import etree

    ids = _by_id(root)
    if "style" not in {_local(element.tag) for element in root.iter()}:
        return False
    overflow = _Overflow(root)
    differs: dict[Any, bool] = {}
    restyled: dict[Any, Any] = {}
    made = 0
    copies: list[Any] = []
    origin: dict[Any, Any] = {}
    for _round in range(_CHAIN):  # a use inside what a use shows, inside...
        here = Cascade(root, None)
        found = []
        for element in root.iter():
            if _local(element.tag) != "use" or _inside_clip(element):
                continue
            target = _referenced(element, ids)
            if target is None or _local(target.tag) == "svg" or _closes_loop(element, target, origin):
                continue
            if target not in differs:
                clone, isolated = _isolated(target, root)
                differs[target] = any(here.declared(original) != isolated.declared(made_copy)
                                      for original, made_copy in zip(target.iter(), clone.iter())
                                      if isinstance(original.tag, str))
            offset = _use_offset(element)
            if differs[target] and offset is not None:
                found.append((element, target, *offset))
        if not found:
            break
        for use, target, x, y in found:
            made += sum(1 for _ in target.iter())
            if made > MAX_DRAWN:
                break
            styled = restyled.get(target)
            if styled is None:  # styled once for all its uses: matching the rules is the costly part
                styled, isolated = _isolated(target, root)
                _styled_as(styled.iter(), isolated)
                restyled[target] = styled
            clone = copy.deepcopy(styled)
            _copied(target, clone, origin)
            origin[clone] = origin.get(target, target)
            for element in clone.iter():
                if isinstance(element.tag, str) and "id" in element.attrib:
                    del element.attrib["id"]
            if _local(target.tag) == "symbol":
                drawing = _inline(use, clone, list(clone), "visible" if overflow.shown(target) else "hidden")
            else:
                namespace = _namespace(use.tag)
                drawing = etree.Element(f"{namespace}g")
                if x or y:
                    drawing.set("transform", f"translate({x:g} {y:g})")
                drawing.append(clone)
                _replace_use(use, drawing)
            origin[drawing] = origin.get(target, target)  # a use inside showing it closes a loop
            copies.extend(drawing.iter())
        if made > MAX_DRAWN:
            break
    _unmatched_in_place(root, copies)
    return bool(copies)


def _uses_to_copy(uses: Callable[[], Iterable[Any]], ids: dict[Any, Any], origin: dict[Any, Any],
                  wanted: Callable[[Any, Any], bool]) -> Iterator[tuple[Any, Any, float, float]]:
    """The <use>s a copy-in-place step copies (:func:`_box_uses_inline`, :func:`_context_paints_inline`), each
    with what it shows and its x and y, round after round: those of `uses()` showing an element of the drawing
    outside their ancestors that closes no loop (`origin`: :func:`_closes_loop`), placed by plain numbers
    (:func:`_use_offset`), and for which `wanted(use, target)` holds (what the step copies for); then those of
    the copies the step made of them (a use inside what a use shows, inside...), until none is left, or the
    copies would hold more than MAX_DRAWN elements."""
    made = 0
    for _round in range(_CHAIN):
        found = []
        for use in uses():
            target = _referenced(use, ids)
            if target is None or target in use.iterancestors() or _closes_loop(use, target, origin) \
                    or not wanted(use, target):
                continue
            offset = _use_offset(use)
            if offset is not None:
                found.append((use, target, *offset))
        if not found:
            return
        for use, target, x, y in found:
            made += sum(1 for _ in target.iter())
            if made > MAX_DRAWN:
                return
            yield use, target, x, y


def _closes_loop(use: Any, target: Any, origin: dict[Any, Any]) -> bool:
    """Whether a <use> shows what holds it (itself, or a copy of it made for another use, by `origin`): a loop,
    whose closing use viewers leave undrawn (svglib too); it is not copied in place."""
    return any(origin.get(parent, parent) is target for parent in use.iterancestors())


def _copied(source: Any, copy_of: Any, origin: dict[Any, Any]) -> None:
    """Remember which element each element of a copy is a copy of (the first original, through copies of copies)."""
    for original, made in zip(source.iter(), copy_of.iter()):
        if isinstance(made.tag, str) and _local(made.tag) in ("svg", "symbol"):
            origin[made] = origin.get(original, original)


_PLAIN_NUMBER = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(?:px)?\s*")


def _added(first: str | None, second: str | None) -> str | None:
    """Two lengths added up (a use's x and its svg's): either alone when the other is unwritten; their sum when
    both are plain numbers; None otherwise."""
    if first is None or second is None:
        return first if second is None else second
    a, b = _PLAIN_NUMBER.fullmatch(first), _PLAIN_NUMBER.fullmatch(second)
    if a is None or b is None:
        return None
    return f"{float(a.group(1)) + float(b.group(1)):g}"


def _shown_symbols_inline(root: Any) -> bool:
    """Draw each <use> of a symbol that says its `overflow` is visible (or auto) as a nested <svg> in its place
    (whether any is): the symbol's viewBox, preserveAspectRatio, presentation and a copy of its children, at the
    use's x, y, width and height (100% when unwritten), in a group of the use's transform and other attributes, so
    that what it inherits is the same. A <use> of a symbol and a nested <svg> are the same viewport (SVG 1.1, 5.6),
    and every viewer leaves an <svg> saying `overflow: visible` uncut, where librsvg 2.54 cuts such a symbol (and a
    <use> of an <svg> would not do: librsvg ignores the use's width and height there). The copies have no ids (the
    originals keep theirs, so what refers to them still finds them); a use inside a symbol copied is drawn so in
    turn, as many times as the drawing's own copies are bounded (:data:`MAX_DRAWN` elements made), beyond which
    the rest is left as it is. A <use> inside a clip path is left (a clip path holds shapes and uses only)."""
    ids = _by_id(root)
    overflow = _Overflow(root)
    visible: dict[Any, bool] = {}
    copies: list[Any] = []
    made = 0
    changed = False
    origin: dict[Any, Any] = {}
    for _round in range(_CHAIN):  # a symbol inside a symbol inside...
        uses = []
        for element in root.iter():
            if _local(element.tag) != "use" or _inside_clip(element):
                continue
            target = _referenced(element, ids)
            if target is None or _local(target.tag) != "symbol":
                continue
            if target not in visible:
                visible[target] = overflow.shown(target)
            if visible[target] and not _closes_loop(element, target, origin):
                uses.append((element, target))
        if not uses:
            break
        for use, symbol in uses:
            made += sum(1 for _ in symbol.iter())
            if made > MAX_DRAWN:
                break
            clone, isolated = _isolated(symbol, root)
            _styled_as(clone.iter(), isolated)
            children = list(clone)
            for original, made_copy in zip(symbol, children):
                _copied(original, made_copy, origin)
            drawing = _inline(use, clone, children)
            copies.extend(drawing.iter())
            origin[drawing] = symbol
            changed = True
        if made > MAX_DRAWN:
            break
    _unmatched_in_place(root, copies)
    return changed


#: What a <use> says of where it places what it shows, rather than of how that is drawn.
_PLACING = frozenset({"x", "y", "width", "height", "href", _XLINK_HREF})


#: The tag of the element a copy of what a <use> shows is matched under (:func:`_isolated`): it stands for the use's
#: shadow root, which no rule names.
_SHADOW_ROOT = "{urn:x-donjon:use}shadow-root"


def _isolated(target: Any, root: Any) -> tuple[Any, Cascade]:
    """A copy of `target` (its ids kept) in a tree of its own, the only child of a stand-in for a shadow root, and
    the drawing's rules matched against that tree: Chromium styles what a <use> shows so (a copy in the use's shadow
    tree, SVG 2, 5.6.3), where no rule sees its place, neither where it is shown (`#layer1 path` does not reach a
    path a use in layer1 shows) nor where it is defined (`defs path`, `:root path` do not; `#sym rect` and
    `symbol rect` do, and it is a first child). Matched when first asked (:class:`Cascade`), so while the copy is
    in that tree: take its declarations before it is moved."""
    from lxml import etree

    holder = etree.Element(_SHADOW_ROOT)
    made = copy.deepcopy(target)
    made.tail = None
    holder.append(made)
    return made, Cascade(holder, None, sheets_of=root)


def _styled_as(elements: Iterable[Any], sheet: Cascade) -> None:
    """Give each element of a copy the declarations of the stylesheet's rules that match it in its own tree
    (:func:`_isolated`), in its `style` before its own: once it stands in place of a use with no ids, no rule would
    reach it as Chromium's do. `!important` is not written (svglib would read it as part of the value): those come
    last instead, after the copy's own. Every element's declarations are taken before any `style` is changed."""
    found = [(made, sheet.declared(made)) for made in elements if isinstance(made.tag, str)]
    for made, declared in found:
        if not declared:
            continue
        own = (made.get("style") or "").strip().rstrip(";").strip()
        parts = [f"{name}: {value}" for name, value, important in declared if not important]
        parts += [own] if own else []
        parts += [f"{name}: {value}" for name, value, important in declared if important]
        made.set("style", "; ".join(parts))


def _inline(use: Any, symbol: Any, children: list[Any], overflow: str = "visible") -> Any:
    """Put a nested <svg> drawing `children` in the place of `use`, of the attributes of `symbol` (a copy of the
    symbol, styled: :func:`_styled_as`, and `children` its children) and of the symbol's `overflow`; that <svg>."""
    from lxml import etree

    namespace = _namespace(use.tag)
    drawing = etree.Element(f"{namespace}svg")
    for name in ("x", "y", "width", "height"):
        if use.get(name) is not None:
            drawing.set(name, use.get(name))
    for name, value in symbol.attrib.items():
        if name != "id" and not name.startswith("{"):
            drawing.set(name, value)
    style = (symbol.get("style") or "").strip().rstrip(";")
    drawing.set("style", f"{style}; overflow: {overflow}" if style else f"overflow: {overflow}")
    for child in children:
        for element in child.iter():
            if isinstance(element.tag, str) and "id" in element.attrib:
                del element.attrib["id"]
        drawing.append(child)
    _replace_use(use, drawing)
    return drawing


#: The properties CSS inherits (CSS 2.2, SVG 1.1 and 2, CSS Fill and Stroke): a copy's rule that a viewer would match
#: where it stands, and Chromium would not, is undone by `inherit` (:func:`_unmatched_in_place`).
_INHERITED = frozenset({
    "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
    "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "color", "visibility",
    "clip-rule", "marker", "marker-start", "marker-mid", "marker-end", "paint-order", "font", "font-family",
    "font-size", "font-style", "font-variant", "font-weight", "font-stretch", "font-size-adjust", "text-anchor",
    "letter-spacing", "word-spacing", "direction", "writing-mode", "dominant-baseline", "color-interpolation",
    "color-interpolation-filters", "color-rendering", "shape-rendering", "text-rendering", "image-rendering",
    "pointer-events", "cursor", "glyph-orientation-horizontal", "glyph-orientation-vertical", "kerning"})
#: The initial values of the properties CSS does not inherit that art sets (SVG 1.1's property index, CSS
#: Masking, Compositing, Display): such a rule is undone by writing its initial value.
_INITIAL = {"opacity": "1", "display": "inline", "clip-path": "none", "mask": "none", "filter": "none",
            "stop-color": "black", "stop-opacity": "1", "flood-color": "black", "flood-opacity": "1",
            "lighting-color": "white", "mix-blend-mode": "normal", "isolation": "auto", "vector-effect": "none",
            "baseline-shift": "baseline", "text-decoration": "none", "unicode-bidi": "normal"}


def _unmatched_in_place(root: Any, copies: list[Any]) -> None:
    """Undo, in each copy's `style`, what the drawing's rules would give it where it now stands and Chromium does
    not give what a <use> shows (:func:`_isolated`). A property a plain rule sets there, which neither its own rules
    (now in its style) nor its style set, is given its presentation attribute, else `inherit` (an inherited
    property), else its initial value (:data:`_INITIAL`); any other property is left (none a drawing's art sets). A
    property an `!important` rule sets there would outrank the style (CSS Cascade 4, 6.1), so it is written again
    at the end of the style marked `!important` too, of the value the copy has (the last in its style, else as
    above): an element's own important declarations outrank a stylesheet's (`#layer path { fill: red !important }`
    painted red the copy of a path a use in layer1 shows, which Chromium leaves black). The PDF reads such a style
    through :func:`_important_last`."""
    if not copies:
        return
    here = Cascade(root, None)
    settled = []
    for made in copies:
        if not isinstance(made.tag, str) or made.getparent() is None:
            continue
        declared = here.declared(made)
        if declared:
            settled.append((made, {name for name, _value, important in declared if not important},
                            {name for name, _value, important in declared if important}))
    for made, names, important in settled:
        written = dict(cascaded([], made.get("style") or ""))
        undone = []
        for name in sorted(names - set(written)):
            value = _undone_value(made, name)
            if value is not None:
                undone.append(f"{name}: {value}")
        for name in sorted(important):
            value = written.get(name) or _undone_value(made, name)
            if value is not None:
                undone.append(f"{name}: {value} !important")
        if undone:
            own = (made.get("style") or "").strip().rstrip(";").strip()
            made.set("style", "; ".join([own, *undone] if own else undone))


def _undone_value(made: Any, name: str) -> str | None:
    """What a copy's property is when no rule of the place it stands in sets it: its presentation attribute, else
    `inherit` for a property CSS inherits, else the property's initial value (None when not known)."""
    value: str | None = made.get(name)
    if value is None:
        value = "inherit" if name in _INHERITED else _INITIAL.get(name)
    return value


def _important_last(root: Any) -> None:
    """Write each element's `style` so that svglib, which applies the stylesheet's rules first and the style over
    them whatever is `!important`, draws what CSS ranks first (:func:`generator.render.images.cascaded`): a
    stylesheet's `!important` rule lost to a plain `style` in the PDF (`.a { fill: green !important }` and
    `style="fill: gold"` printed gold where viewers paint green), and svglib read `!important` in a style as part of
    the value (an opacity so written was read as 1). Done only when the file says `!important`."""
    sheets = [element.text for element in root.iter() if _local(element.tag) == "style" and element.text]
    styles = [element for element in root.iter() if isinstance(element.tag, str) and element.get("style")]
    if not any("important" in text for text in sheets) and not any("important" in element.get("style")
                                                                   for element in styles):
        return
    cascade = Cascade(root, None)
    found = [(element, cascade.declared(element)) for element in root.iter() if isinstance(element.tag, str)]
    for element, declared in found:
        style = element.get("style") or ""
        if not any(important for _name, _value, important in declared) and "important" not in style:
            continue
        # svglib applies the plain rules under the style itself
        ordered = cascaded([declaration for declaration in declared if declaration[2]], style)
        element.set("style", "; ".join(f"{name}: {value}" for name, value in ordered))


def _copy_in_place(use: Any, styled: Any, x: float, y: float) -> list[Any]:
    """Put `styled`, a copy of what `use` shows, in the use's place at its `x`, `y`; the elements now drawn there."""
    from lxml import etree

    drawing = etree.Element(f"{_namespace(use.tag)}g")
    if x or y:
        drawing.set("transform", f"translate({x:g} {y:g})")
    drawing.append(styled)
    _replace_use(use, drawing)
    return list(drawing.iter())


def _replace_use(use: Any, drawing: Any) -> None:
    """Put `drawing` in the place of `use`, in a group of the use's attributes but those that place what it shows
    (its transform included, so the drawing is in the use's own units)."""
    from lxml import etree

    namespace = _namespace(use.tag)
    group = etree.Element(f"{namespace}g")
    for name, value in use.attrib.items():
        if name not in _PLACING:
            group.set(name, value)
    group.append(drawing)
    group.tail = use.tail
    use.getparent().replace(use, group)


#: The ids of the clips :func:`_clip_viewports` adds (a number follows).
_VIEWPORT_CLIP = "donjon-viewport-"


def _wrapped(element: Any) -> bool:
    parent = element.getparent()
    return (parent is not None and _local(parent.tag) == "g" and len(parent) == 1
            and (parent.get("clip-path") or "").startswith(f"url(#{_VIEWPORT_CLIP}"))


def _inside_clip(element: Any) -> bool:
    """Whether the element is part of a clip path (whose contents are shapes and uses only: no group may wrap)."""
    return any(_local(parent.tag) == "clipPath" for parent in element.iterancestors())


def _clip_to_viewport(element: Any, clip_id: str) -> None:
    """Wrap the element in a group clipped to its viewport's rectangle, defined just before it."""
    from lxml import etree

    namespace = _namespace(element.tag)
    clip = etree.Element(f"{namespace}clipPath", id=clip_id)
    etree.SubElement(clip, f"{namespace}rect", x=element.get("x") or "0", y=element.get("y") or "0",
                     width=element.get("width") or "100%", height=element.get("height") or "100%")
    group = etree.Element(f"{namespace}g")
    group.set("clip-path", f"url(#{clip_id})")
    transform = element.get("transform")
    if transform is not None:
        group.set("transform", transform)
        del element.attrib["transform"]
    element.addprevious(clip)
    element.addprevious(group)
    group.tail, element.tail = element.tail, None
    group.append(element)


class _Overflow:
    """The `overflow` an element is given (:class:`generator.render.images.Cascade`); `inherit` takes its
    parent's."""

    def __init__(self, root: Any) -> None:
        self.cascade = Cascade(root, ("overflow",))

    def value(self, element: Any) -> str | None:
        found = self.cascade.value(element, "overflow")
        return found.lower() if found is not None else None

    def shown(self, element: Any) -> bool:
        value = self.value(element)
        seen = 0
        while value == "inherit" and seen < _CHAIN:
            seen += 1
            element = element.getparent()
            if element is None:
                return True  # the initial value: visible
            value = self.value(element)
            if value is None and _local(element.tag) in ("symbol", "svg") and element.getparent() is not None:
                return False  # a viewport's own default
        return value in _SHOWN


# --- svglib's reader, with what it leaves out -----------------------------------------------------------------------


@cache
def _reader_class() -> Any:
    """svglib's renderer with donjon's additions (made on first use: svglib is imported only for SVG art)."""
    from reportlab.graphics.shapes import mmult, translate
    from svglib.fonts import DEFAULT_FONT_SIZE
    from svglib.svglib import PX_TO_PT, SvgRenderer, _find_clip_shape, _GradientDef

    # the em svglib measures a shape's lengths by, whatever the drawing says (its default font size, in px): what
    # it passes when it does not know the shape's own
    svglib_em = DEFAULT_FONT_SIZE / PX_TO_PT

    class Reader(SvgRenderer):
        def __init__(self, pictures: dict[str, Embedded], root: Any) -> None:
            # no file path: svglib then resolves no reference to another file (donjon refuses them before)
            super().__init__("")
            self.pictures = pictures
            self.document = root
            self.ids = {element.get("id"): element for element in root.iter() if element.get("id")}
            # the file as it is before svglib reads it: svglib writes what the rules give an element into its
            # attributes as it draws it, at its place, and a copy for a use is made of the element as written
            self.written = {element.get("id"): element for element in copy.deepcopy(root).iter()
                            if isinstance(element.tag, str) and element.get("id")} if any(
                _local(element.tag) == "use" for element in root.iter()) else {}
            _important_last(root)  # after the copy above: a use's copy is styled in a tree of its own
            self.settled: dict[str, Any] = {}
            # the fill and stroke of each shape whose markers are being drawn (what `context-fill` and
            # `context-stroke` paint in them: SVG 2, 13.3), innermost last
            self.marking: list[tuple[str, str]] = []
            self.wrappers: dict[Any, Any] | None = None
            self.patterning: list[Any] = []  # the patterns whose contents are being drawn, innermost last
            self.masking: list[Any] = []  # the masks whose contents are being drawn, innermost last
            self.nodes: list[Any] = []
            self.lines: dict[int, int] = {}
            self.drawn = 0
            self.copied = 0
            # svglib looks every property up through the element's ancestors, for every shape: remembered per
            # element and name, which halves the time a picture takes (an element's properties are settled the
            # first time one is looked up, when its style and the stylesheet are applied to it)
            looked: dict[tuple[Any, str], str] = {}
            find = self.attrConverter.findAttr

            def find_once(node: Any, name: str) -> str:
                if name == "color":
                    return current_colour(node)
                key = (node.etree_element, name)
                found = looked.get(key)
                if found is None:
                    found = find(node, name)
                    if name in _PAINTS and found.strip().lower() == "currentcolor":
                        found = "currentColor"  # a CSS keyword, in any case: svglib knew this spelling only
                    elif name in _PAINTS:
                        found = self._paint(found)
                    looked[key] = found
                if name in _PAINTS and found.strip().lower() in _CONTEXT_PAINTS:
                    # a marker's paint of the shape it marks, `none` outside a marker (SVG 2, 13.3), as Chromium
                    # paints it (Inkscape 1.2's stock arrowheads are stroked so)
                    if not self.marking:
                        return "none"
                    return self.marking[-1][_CONTEXT_PAINTS.index(found.strip().lower())]
                return found

            def current_colour(node: Any) -> str:
                # what `currentColor` paints: svglib asks for the color of the parent of the shape it styles, and
                # paints the fill's or stroke's default when none is set (a stroke: none); a viewer takes the
                # shape's own color, inherited, and black when nothing sets one (its initial value), so icon sets'
                # outlines (stroke="currentColor") were not drawn at all
                if walking:  # svglib's own walk up the ancestors, from the lookup below
                    return inherited_colour(node)
                shape = self.nodes[-1] if self.nodes else None
                if shape is not None and node is not None and node.etree_element is shape.etree_element.getparent():
                    node = shape
                if node is None:
                    return "black"
                walking.append(True)
                try:
                    return inherited_colour(node) or "black"
                finally:
                    walking.pop()

            def inherited_colour(node: Any) -> str:
                key = (node.etree_element, "color")
                found = looked.get(key)
                if found is None:
                    found = looked[key] = find(node, "color")
                return found

            walking: list[bool] = []

            self.attrConverter.findAttr = find_once  # type: ignore[method-assign,assignment]
            convert_colour = self.attrConverter.convertColor
            convert_length = self.attrConverter.convertLength

            def colour(text: str) -> Any:
                # a colour as CSS Color 4 reads it: a name in any case (svglib knew reportlab's names, which lack
                # rebeccapurple and lightgray and give darkseagreen another shade, and only in lower case), a
                # function in any case, out-of-range numbers clamped, hwb(), lab(), color()... (svglib drew such a
                # shape without its colour, or black)
                return convert_colour(_css_colour(text) or text)

            def length(text: str, em_base: float | None = None, attr_name: str | None = None,
                       default: float = 0.0) -> Any:
                # a length in percent of the viewport, as SVG 1.1 (7.10) says: svglib resolved only x, y, width,
                # height and their kin, and read any other (a circle's `r="10%"`, a stroke's width) as units
                found = _percent(text, attr_name, self.attrConverter.main_box)
                if found is not None:
                    return found
                if (em_base is None or em_base == svglib_em) and self.nodes and isinstance(text, str) and _EM.search(
                        text):
                    # an em of the shape's own font size, as viewers read it; svglib took 16 px whatever the
                    # drawing's font-size said (a rect 2em wide under font-size: 10px was drawn 32 wide, not 20)
                    em_base = font_size(self.nodes[-1])
                if em_base is None:  # svglib's own default em
                    return convert_length(text, attr_name=attr_name, default=default)
                return convert_length(text, em_base=em_base, attr_name=attr_name, default=default)

            sizes: dict[Any, float] = {}

            def font_size(node: Any) -> float:
                # the element's font size in user units as CSS computes it, down from the drawing's root: each
                # element's own (attribute, style or rule: svglib's findAttr applies them), relative to its
                # parent's (em, %, larger...), the root's parent's being `medium`
                chain = []
                while node is not None and node.etree_element not in sizes:
                    chain.append(node)
                    node = node.parent
                size = sizes[node.etree_element] if node is not None else _MEDIUM_FONT
                for element in reversed(chain):
                    find(element, "__donjon__")  # the stylesheet's rules and the style, applied to the element
                    size = _font_size(str(element.etree_element.attrib.get("font-size", "")), size)
                    sizes[element.etree_element] = size
                return size

            self.attrConverter.convertColor = colour  # type: ignore[method-assign,assignment]
            self.attrConverter.convertLength = length  # type: ignore[method-assign,assignment]
            # a stylesheet styles every element of the file, wherever it is written (a viewer reads it whole
            # first); svglib would apply each <style> only to what it draws after it, and never to gradient stops
            convert_image = self.shape_converter.convertImage

            def fitted_image(node: Any) -> Any:
                return _keep_proportions(convert_image(node), node)

            self.shape_converter.convertImage = fitted_image  # type: ignore[method-assign]
            convert_ellipse = self.shape_converter.convertEllipse

            def ellipse(node: Any) -> Any:
                # a radius unwritten or `auto` is the other one (SVG 2, as librsvg and browsers draw it: a circle);
                # svglib drew an ellipse of no height
                attributes = node.etree_element.attrib
                rx, ry = (str(attributes.get(name, "auto")).strip() for name in ("rx", "ry"))
                if rx == "auto" and ry != "auto":
                    attributes["rx"] = ry
                elif ry == "auto" and rx != "auto":
                    attributes["ry"] = rx
                return convert_ellipse(node)

            self.shape_converter.convertEllipse = ellipse  # type: ignore[method-assign]
            convert_shape = self.shape_converter.convertShape

            def shape_in_order(name: str, node: Any, clipping: Any = None) -> Any:
                # a paint order that strokes before it fills (SVG 2, 13.8.1: Inkscape's "stroke, fill, markers",
                # a sticker's outline under its fill): the stroke drawn first, then the fill over it; svglib
                # knew no paint order, and the art was refused
                made = convert_shape(name, node, clipping)
                if made is None or _fills_first(self.attrConverter.findAttr(node, "paint-order")):
                    return made
                return _stroked_first(made)

            self.shape_converter.convertShape = shape_in_order  # type: ignore[method-assign]
            apply_style = self.shape_converter.applyStyleOnShape
            converter = self.attrConverter

            def styled(shape: Any, node: Any, only_explicit: bool = False) -> None:
                apply_style(shape, node, only_explicit=only_explicit)
                if not isinstance(shape, Group):
                    _stroke_rest(converter, shape, node, only_explicit)

            self.shape_converter.applyStyleOnShape = styled  # type: ignore[method-assign]

            def opacity(value: str | float) -> float:
                # an opacity in percent (CSS Color 4, as librsvg and browsers read `fill-opacity="50%"`): svglib
                # failed on it, quietly, and drew the shape opaque (it also passes a colour's own alpha, a number)
                return _number(str(value), 1.0)

            self.attrConverter.convertOpacity = opacity  # type: ignore[method-assign,assignment]
            rules = self.attrConverter.css_rules
            for element in root.iter():
                if _local(element.tag) == "style" and element.text and rules is not None:
                    rules.add_styles(element.text)

        def renderStyle(self, node: Any) -> None:
            pass  # read whole when the reader was made

        def _paint(self, value: str) -> str:
            """A paint that names a gradient with a fallback colour (`url(#g) #f0c020`, SVG 1.1, 11.2): the gradient
            when the file has it, the fallback otherwise, as viewers paint it; svglib read neither, and painted
            nothing."""
            match = _FALLBACK_PAINT.fullmatch(value)
            if match is None:
                return value
            target = self.ids.get(match.group(2))
            if target is not None and _local(target.tag) in (*_GRADIENTS, "pattern"):
                return match.group(1)
            return match.group(3)

        def renderUse(self, node: Any, group: Any = None, clipping: Any = None) -> Any:
            # svglib copies what a <use> shows into the tree before drawing it: a copy of copies multiplies, so
            # the copying is bounded before it happens
            href = node.attrib.get(_XLINK_HREF) or node.attrib.get("href") or ""
            target = self.ids.get(href[1:]) if href.startswith("#") and not len(node.getchildren()) else None
            if target is not None:
                for _element in target.iter():
                    self.copied += 1
                    if self.copied > MAX_DRAWN:
                        raise ArtProblem(_too_many_copies(), node.sourceline)
                # the copy styled as Chromium styles what a use shows (:func:`_isolated`), made here for svglib
                # to draw: svglib copies the element under the use and matches the rules there, where they reach
                # it by the use's place (`#layer1 path` painted a path in <defs> a use in layer1 shows)
                if target.get(_USE_ORIGIN) is None:  # svglib's mark of the original, for finding loops
                    target.set(_USE_ORIGIN, str(next(self._use_expansions.origin_ids)))
                settled = self.settled.get(href[1:])
                if settled is None:  # styled once for all its uses: matching the rules is the costly part
                    settled, isolated = _isolated(self.written.get(href[1:], target), self.document)
                    _settle_rules(settled, isolated)
                    self.settled[href[1:]] = settled
                made = copy.deepcopy(settled)
                for mark in (_USE_ORIGIN, _RENDERED):  # svglib's marks on the original, which its copy had
                    if target.get(mark) is not None:
                        made.set(mark, target.get(mark))
                node.etree_element.append(made)
            return super().renderUse(node, group, clipping)

        def renderSymbol(self, node: Any) -> Any:
            # a symbol a <use> shows is a viewport of the use's width and height (100% when unwritten), its viewBox
            # fitted into it (SVG 1.1, 5.5 and 7.8); svglib drew it as a plain group (Illustrator's symbols)
            group = self._symbol_contents(node)
            use = node.parent
            box = _view_box(node.etree_element.get("viewBox"))
            if use is None or _local(use.tag) != "use" or box is None:
                return group
            whole = self.attrConverter.main_box
            width = self._size(use.etree_element.get("width"), "width", whole.width if whole else box[2])
            height = self._size(use.etree_element.get("height"), "height", whole.height if whole else box[3])
            if width <= 0 or height <= 0:  # a viewer draws nothing
                group.contents = []
                return group
            fitted = _fitted(box, width, height, node.etree_element.get("preserveAspectRatio"))
            group.transform = mmult(fitted, group.transform)
            return group

        def _symbol_contents(self, node: Any) -> Any:
            """svglib's group of a symbol's contents, lengths in percent read against the symbol's own viewport
            (its viewBox, or the width and height of the <use> showing it), not the drawing's."""
            from svglib.svglib import Box

            around = self.attrConverter.main_box
            box = _view_box(node.etree_element.get("viewBox"))
            use = node.parent
            if box is None and use is not None and _local(use.tag) == "use":
                whole = around
                width = self._size(use.etree_element.get("width"), "width", whole.width if whole else 0.0)
                height = self._size(use.etree_element.get("height"), "height", whole.height if whole else 0.0)
                box = (0.0, 0.0, width, height)
            if box is not None:
                self.attrConverter.set_box(Box(*box))
            try:
                return super().renderSymbol(node)
            finally:
                self.attrConverter.set_box(around)

        def renderSvg(self, node: Any, outermost: bool = False) -> Any:
            # an <svg> inside the drawing: svglib fitted its viewBox into its size as if into the page's points
            # (3/4 too small) and aligned it upside down; refitted here in the units of the drawing around it
            around = self.attrConverter.main_box
            group = super().renderSvg(node, outermost)
            box = _view_box(node.etree_element.get("viewBox"))
            if outermost:
                return group
            x = self._size(node.etree_element.get("x"), "x", 0.0)
            y = self._size(node.etree_element.get("y"), "y", 0.0)
            if box is None:  # no viewBox: only moved, its units those around it (svglib scaled it by 3/4 too)
                group.transform = translate(x, y)
                return group
            width = self._size(node.etree_element.get("width"), "width", around.width if around else box[2])
            height = self._size(node.etree_element.get("height"), "height", around.height if around else box[3])
            if width <= 0 or height <= 0:
                group.contents = []
                return group
            fitted = _fitted(box, width, height, node.etree_element.get("preserveAspectRatio"))
            group.transform = mmult(translate(x, y), fitted)
            return group

        def get_box(self, svg_node: Any, default_box: bool = False) -> Any:
            # an <svg> without a viewBox is a viewport of its width and height, which may be in percent of the
            # viewport around it (svglib read them without knowing which is which)
            from svglib.svglib import Box

            if not default_box or _view_box(svg_node.getAttribute("viewBox")) is not None:
                return super().get_box(svg_node, default_box)
            around = self.attrConverter.main_box
            width = self._size(svg_node.getAttribute("width"), "width", around.width if around else 0.0)
            height = self._size(svg_node.getAttribute("height"), "height", around.height if around else 0.0)
            return Box(0, 0, width, height)

        def _size(self, raw: str | None, name: str, whole: float) -> float:
            """A length of a viewport (`width`, `x`...) in the units around it; unwritten: all of `whole`, or 0
            for a position."""
            if raw is None or not raw.strip():
                return whole if name in ("width", "height") else 0.0
            try:
                found = self.attrConverter.convertLength(raw, attr_name=name, default=whole)
                return float(found) if isinstance(found, (int, float)) and math.isfinite(found) else 0.0
            except (ValueError, TypeError):
                return 0.0

        def renderNode(self, node: Any, parent: Any = None) -> None:
            if parent is None:
                return
            self.drawn += 1
            if self.drawn > MAX_DRAWN:
                raise ArtProblem(_too_many_copies(), node.sourceline)
            before = len(parent.contents)
            # the element's stylesheet rules and style applied to it first: svglib reads some properties from the
            # attribute alone (a clip path given by Illustrator's classes, `.st0{clip-path:url(#SVGID_2_)}`, was
            # dropped, and the art spilled out of its clipping mask)
            self.attrConverter.findAttr(node, "__donjon__")
            self.nodes.append(node)
            try:
                super().renderNode(node, parent)
            finally:
                self.nodes.pop()
            if len(parent.contents) != before + 1:
                return
            item = parent.contents[-1]
            if not _inside_clip(node.etree_element):
                if _local(node.etree_element.tag) in _SHAPES:
                    item = parent.contents[-1] = self._pattern_filled(node, item)
                if _local(node.etree_element.tag) in _MARKABLE:
                    item = parent.contents[-1] = self._with_markers(node, item)
            self.lines[id(item)] = node.sourceline or 0
            masked = self._masked(node, item)
            if masked is not item:
                item = parent.contents[-1] = masked
                self.lines[id(item)] = node.sourceline or 0
            opacity = _own_opacity(self, node)
            if opacity < 1:
                faded = Faded(item, opacity)
                self.lines[id(faded)] = node.sourceline or 0
                parent.contents[-1] = faded
            mode = _blend_mode(node.etree_element, item)
            if mode is not None:
                blended = Blended(parent.contents[-1], mode)
                self.lines[id(blended)] = node.sourceline or 0
                parent.contents[-1] = blended

        def _file_nodes(self, node: Any) -> dict[Any, Any]:
            """svglib's nodes of the whole file by element (their parents the file's: what they inherit), found
            from the top of `node`'s."""
            if self.wrappers is None:
                top = node
                while top.parent is not None:
                    top = top.parent
                self.wrappers = {wrapper.etree_element: wrapper for wrapper in top.iter_subtree()}
            return self.wrappers

        def _pattern_filled(self, node: Any, item: Any) -> Any:
            """The shape svglib drew (`item`: svglib paints no pattern) with its pattern fill and stroke (SVG 1.1,
            13.3): tiles of the pattern's contents, as many as cover the shape, clipped to its outline, or masked
            by its stroke (:class:`PatternFill`), in the order the shape paints them, at its `fill-opacity` and
            `stroke-opacity`. What a pattern leaves unwritten (its size, units, transform, viewBox, contents) it
            takes from the pattern its href names, as Inkscape writes a fill of its stock patterns. svglib drew
            such a shape unfilled and unstroked, and the art was refused."""
            from svglib.svglib import _find_clip_shape

            find = self.attrConverter.findAttr
            shape = _find_clip_shape(item)
            if shape is None:
                return item
            stroke_first = not _fills_first(find(node, "paint-order"))
            outline = None
            for paint in ("fill", "stroke"):
                match = _URL.match(find(node, paint).strip())
                target = self.ids.get(match.group(1)) if match is not None else None
                if target is None or _local(target.tag) != "pattern":
                    continue
                if paint == "stroke":
                    outline = shape.copy()  # the stroke as svglib set it: its width, joins, caps and dashes
                    outline.fillColor = None
                    reach = float(getattr(shape, "strokeWidth", 1) or 0) * max(
                        _MITER_LIMIT_REACH, float(getattr(shape, "strokeMiterLimit", 0) or 0)) / 2
                else:
                    reach = 0.0
                filled = self._pattern_tiles(node, target, shape, outline, reach)
                opacity = _number(find(node, f"{paint}-opacity"), 1.0)
                if filled is not None and opacity < 1:
                    filled = Faded(filled, opacity)
                setattr(shape, f"{paint}Color", None)
                if filled is None:
                    continue
                holder = _holder(item, shape)
                if holder is None:
                    item = holder = Group(item)
                at = holder.contents.index(shape)
                # the fill under the shape's stroke, or over it when its paint order strokes first; the stroke
                # over the shape's fill, or under it
                over = (paint == "fill") == stroke_first
                holder.contents.insert(at + 1 if over else at, filled)
            return item

        def _pattern_tiles(self, node: Any, target: Any, shape: Any, outline: Any, reach: float) -> Any:
            """The :class:`PatternFill` of `target`'s tiles over the shape (over its stroke, `outline`, reaching
            `reach` past its outline, when it strokes); None when its tile is empty (nothing is painted)."""
            find = self.attrConverter.findAttr
            line = node.etree_element.sourceline
            if target in self.patterning:
                raise ArtProblem(phrase("its pattern is drawn inside itself, which no viewer draws: take the shape "
                                        "filled with it out of the pattern"), target.sourceline)
            chain = _href_chain(target, ("pattern",), self.ids)

            def written(name: str) -> str | None:
                return _written(chain, name)

            x0, y0, x1, y1 = (float(v) for v in shape.getBounds())
            box = (x0, y0, x1 - x0, y1 - y0)
            in_box = (written("patternUnits") or "objectBoundingBox") == "objectBoundingBox"
            tile = [self._pattern_length(written(name), name, in_box, box) for name in ("x", "y", "width", "height")]
            if in_box:
                tile = [box[0] + tile[0] * box[2], box[1] + tile[1] * box[3], tile[2] * box[2], tile[3] * box[3]]
            x, y, width, height = tile
            if not (width > 0 and height > 0 and all(math.isfinite(v) for v in tile)):
                return None  # a tile of no size paints nothing (SVG 1.1, 13.3)
            view = _view_box(written("viewBox"))
            contents_matrix: tuple[float, ...] = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
            if view is not None:
                contents_matrix = _fitted(view, width, height, written("preserveAspectRatio"))
            elif written("patternContentUnits") == "objectBoundingBox":
                contents_matrix = (box[2], 0.0, 0.0, box[3], 0.0, 0.0)
            transform = written("patternTransform")
            placed = _matrix(self.attrConverter.convertTransform(transform)) if transform else (
                1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
            covered = (box[0] - reach, box[1] - reach, box[2] + 2 * reach, box[3] + 2 * reach)
            columns, rows = _tiles_over(covered, placed, (x, y, width, height))
            count = len(columns) * len(rows)
            if count > MAX_PATTERN_TILES:
                raise ArtProblem(phrase("its pattern (line {line}) takes {count} tiles to paint the shape, more "
                                        "than the {most} donjon draws: make the pattern's tile larger, or {copy}",
                                        line=str(target.sourceline), count=phrase_number(count),
                                        most=phrase_number(MAX_PATTERN_TILES), copy=phrase(_BITMAP_COPY_SAID)), line)
            source = next((pattern for pattern in chain if any(isinstance(child.tag, str) for child in pattern)),
                          None)
            wrapper = self._file_nodes(node).get(source) if source is not None else None
            contents = Group()
            contents.transform = contents_matrix
            if wrapper is not None:
                before = self.drawn
                self.patterning.append(target)
                try:
                    for child in wrapper.iter_children():
                        self.renderNode(child, parent=contents)
                finally:
                    self.patterning.pop()
                # each tile draws the contents again: counted as copies are
                self.drawn += (self.drawn - before) * (count - 1)
                if self.drawn > MAX_DRAWN:
                    raise ArtProblem(_too_many_copies(), line)
            bands = _tile_bands(contents, width, height) if count else []
            del contents.contents[:len(bands)]  # painted once across the tiles, under them
            tiles = Group()
            tiles.transform = placed
            for x0, y0, x1, y1, band in bands:
                across, down = x0 <= 0 and x1 >= width, y0 <= 0 and y1 >= height
                for row in [rows[0]] if down else rows:
                    for column in [columns[0]] if across else columns:
                        left = x + column * width + (0.0 if across else max(x0, 0.0))
                        right = x + (columns[-1] + 1 if across else column) * width + (0.0 if across else min(
                            x1, width))
                        top = y + row * height + (0.0 if down else max(y0, 0.0))
                        bottom = y + (rows[-1] + 1 if down else row) * height + (0.0 if down else min(y1, height))
                        strip = band.copy()
                        strip.x, strip.y, strip.width, strip.height = left, top, right - left, bottom - top
                        tiles.add(strip)
            # a frame of the tile drawn last (a grid over the rest) is drawn as the grid's lines over the tiles
            frame = _tile_frame(contents.contents[-1], tuple(float(v) for v in contents.transform), width, height) \
                if count and contents.contents else None
            if frame is not None:
                del contents.contents[-1]
            parts = _tile_parts(contents, width, height)
            for row in rows:
                for column in columns:
                    one = Group(*parts)
                    one.transform = (1.0, 0.0, 0.0, 1.0, x + column * width, y + row * height)
                    tiles.add(one)
            for line in _grid_lines(frame, (x, y, width, height), columns, rows) if frame is not None else []:
                tiles.add(line)
            return PatternFill(shape if outline is None else outline, find(node, "fill-rule") == "evenodd", tiles,
                               stroke=outline is not None)

        def _masked(self, node: Any, item: Any) -> Any:
            """The element svglib drew (`item`) under its `<mask>` (CSS Masking 1, 7; svglib drew no mask): the
            mask's contents drawn where the mask is defined (what they inherit is the mask's), in the element's user
            space or its bounding box (maskContentUnits), cut to the mask's region (x, y, width, height in
            maskUnits: by default the box and a tenth of it around), as a :class:`Masked` the PDF draws as a soft
            mask, of their luminance or, for `mask-type: alpha`, of their alpha. `item` itself when the element
            names no mask."""
            element = node.etree_element
            match = _URL.fullmatch((element.attrib.get("mask") or "").strip())  # its rules and style applied
            target = self.ids.get(match.group(1)) if match is not None else None
            if target is None or _local(target.tag) != "mask":
                return item  # none, or refused by _check_mask
            if _inside_clip(element):
                raise ArtProblem(phrase("a mask on a shape of a clip path, which viewers leave out and donjon's "
                                        "PDF does not draw: mask the element the clip path clips instead"),
                                 element.sourceline)
            if target in self.masking:
                raise ArtProblem(phrase("its mask is drawn inside itself, which no viewer draws: take the element "
                                        "masked with it out of the mask"), target.sourceline)
            wrapper = self._file_nodes(node).get(target)
            if wrapper is None:
                return item
            find = self.attrConverter.findAttr
            find(wrapper, "__donjon__")  # its rules and style, on its attributes
            if find(wrapper, "color-interpolation").strip().lower() == "linearrgb":
                raise ArtProblem(phrase("a mask whose luminance is measured in linearRGB (color-interpolation), "
                                        "which viewers draw each their own way (Chromium does, librsvg does not): "
                                        "remove color-interpolation from the mask"), target.sourceline)
            kind = (target.attrib.get("mask-type") or "luminance").strip().lower()
            # the element's own transform: the mask is in the element's user space, inside it
            transform = element.get("transform")
            matrix = _matrix(self.attrConverter.convertTransform(transform)) if transform else _IDENTITY
            if _local(element.tag) == "use":  # its x and y move its user space too (SVG 2, 5.6.2), as in Chromium
                matrix = tuple(mmult(matrix, translate(self._size(element.get("x"), "x", 0.0),
                                                       self._size(element.get("y"), "y", 0.0))))
            a, b, c, d, e, f = matrix
            det = a * d - b * c
            if det == 0 or not all(math.isfinite(v) for v in matrix):
                return item  # drawn as nothing (_settle)
            inverse = (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)
            untransformed = Group(item)
            untransformed.transform = inverse
            found = _svg_box(untransformed)
            x0, y0, x1, y1 = (float(v) for v in found) if found else (0.0, 0.0, 0.0, 0.0)
            box = (x0, y0, x1 - x0, y1 - y0)
            in_box = (target.get("maskUnits") or "").strip() != "userSpaceOnUse"
            if in_box and not (box[2] > 0 and box[3] > 0):
                return Group()  # a region of no size: nothing of the element shows (CSS Masking 1, 7.1)
            region = [self._mask_length(target.get(name), name, in_box, default)
                      for name, default in (("x", "-10%"), ("y", "-10%"), ("width", "120%"), ("height", "120%"))]
            if in_box:
                region = [box[0] + region[0] * box[2], box[1] + region[1] * box[3], region[2] * box[2],
                          region[3] * box[3]]
            if not (region[2] > 0 and region[3] > 0 and all(math.isfinite(v) for v in region)):
                return Group()
            contents = Group()
            if (target.get("maskContentUnits") or "").strip() == "objectBoundingBox":
                if not (box[2] > 0 and box[3] > 0):
                    return Group()
                contents.transform = (box[2], 0.0, 0.0, box[3], box[0], box[1])
            self.masking.append(target)
            try:
                for child in wrapper.iter_children():
                    self.renderNode(child, parent=contents)
            finally:
                self.masking.pop()
            placed = Group()
            placed.transform = matrix
            placed.add(_rectangle_clip(region[2], region[3], region[0], region[1]))
            placed.add(contents)
            return Masked(item, placed, luminance=kind != "alpha")

        def _mask_length(self, raw: str | None, name: str, in_box: bool, default: str) -> float:
            """A mask's x, y, width or height: a share of the box (a number, or a percent) in box units, a length
            otherwise; its default when unwritten or unread (SVG 1.1, 14.4)."""
            raw = (raw or "").strip() or default
            if in_box:
                try:
                    value = float(raw.rstrip("%")) / (100 if raw.endswith("%") else 1)
                except ValueError:
                    value = float(default.rstrip("%")) / 100
                return value if math.isfinite(value) else 0.0
            return self._size(raw, name, 0.0)

        def _pattern_length(self, raw: str | None, name: str, in_box: bool, box: tuple[float, ...]) -> float:
            """A pattern's x, y, width or height: a share of the box (a number, or a percent) in box units, a
            length otherwise (0 when unwritten, as SVG 1.1 says)."""
            if raw is None:
                return 0.0
            if in_box:  # any number, not only a share up to 1: a tile twice the box, moved back by a tenth
                try:
                    value = float(raw.rstrip("%")) / (100 if raw.endswith("%") else 1)
                except ValueError:
                    return 0.0
                return value if math.isfinite(value) else 0.0
            return self._size(raw, name, 0.0)

        def _with_markers(self, node: Any, item: Any) -> Any:
            """The shape svglib drew (`item`) with its markers drawn at its vertices (SVG 2, 11.6): each marker's
            contents drawn where the marker is defined (its rules and what it inherits are the marker's, as in
            Chromium), placed, turned and scaled at each vertex and cut to the marker's viewport unless its overflow
            is visible; in the shape's own transform and clip, over the shape (under it when its paint order puts
            markers first). svglib drew no marker, and the art was refused."""
            find = self.attrConverter.findAttr
            element = node.etree_element
            shorthand = find(node, "marker")
            chosen = {where: find(node, f"marker-{where}") or shorthand for where in ("start", "mid", "end")}
            markers = {}
            for where, value in chosen.items():
                match = _URL.fullmatch(value.strip())
                target = self.ids.get(match.group(1)) if match is not None else None
                if target is not None and _local(target.tag) == "marker":
                    markers[where] = target
            if not markers:
                return item
            self._file_nodes(node)
            if self.marking:
                raise ArtProblem(phrase("a marker's shapes carry markers themselves, which donjon's PDF does not "
                                        "draw: turn the inner ones into shapes (Inkscape: Path > Object to Path on "
                                        "the marker's copy)"), element.sourceline)
            order = find(node, "paint-order").lower().split()
            if "markers" in order and order.index("markers") == 1 and len(order) >= 2:
                raise ArtProblem(phrase("a paint order that draws markers between the fill and the stroke, which "
                                        "donjon's PDF does not draw: put markers first or last (Inkscape: Fill and "
                                        "Stroke > Stroke style > Order)"), element.sourceline)
            vertices = self._vertices(node)
            width = self._stroke_width(node)
            context = (find(node, "fill") or "black", find(node, "stroke") or "none")
            instances = []
            # each marker's contents drawn once for the shape, and placed at each of its vertices: the same
            # drawing (svglib's shapes are not changed once made), counted once a vertex as copies are
            made: dict[Any, tuple[Any, ...] | None] = {}
            self.marking.append(context)
            try:
                for vertex in vertices:
                    marker = markers.get(vertex.where)
                    if marker is None:
                        continue
                    if marker not in made:
                        before = self.drawn
                        made[marker] = self._marker_contents(marker)
                        self.drawn = before  # counted below, once a vertex
                    found = made[marker]
                    if found is None:
                        continue
                    self.drawn += found[-1]
                    if self.drawn > MAX_DRAWN:
                        raise ArtProblem(_too_many_copies(), element.sourceline)
                    instances.append(self._marker_at(marker, vertex, width, found))
            finally:
                self.marking.pop()
            if not instances:
                return item
            marks = Group()
            marks.__dict__["markers"] = True  # no part of the shape's box (_svg_box)
            clipping = self.get_clippath(node)
            if clipping is not None:
                marks.add(clipping)
            for drawn in instances:
                marks.add(drawn)
            transform = node.getAttribute("transform")
            if transform:
                self.shape_converter.applyTransformOnGroup(transform, marks)
            first = "markers" in order and order.index("markers") == 0
            return Group(marks, item) if first else Group(item, marks)

        def _vertices(self, node: Any) -> list[Vertex]:
            """The shape's vertices for its markers, its lengths read as svglib reads them."""
            element = node.etree_element
            kind = _local(element.tag)
            if kind == "path":
                return path_vertices(element.get("d") or "")
            if kind == "line":
                ends = [self._size(element.get(name), name, 0.0) for name in ("x1", "y1", "x2", "y2")]
                return points_vertices([(ends[0], ends[1]), (ends[2], ends[3])], False)
            return points_vertices(points_of(element.get("points") or ""), kind == "polygon")

        def _stroke_width(self, node: Any) -> float:
            raw = self.attrConverter.findAttr(node, "stroke-width")
            try:
                found = self.attrConverter.convertLength(raw or "1", attr_name="stroke-width", default=1.0)
            except (ValueError, TypeError):
                return 1.0
            return float(found) if isinstance(found, (int, float)) and math.isfinite(found) else 1.0

        def _marker_contents(self, marker: Any) -> tuple[Any, ...] | None:
            """A marker's viewport (its width and height), the matrix fitting its viewBox into it, its clip (None
            when its overflow is visible), the group of its contents (drawn where the marker is defined) and how
            many elements that drew; None when its viewport is empty (a viewer draws nothing)."""
            wrapper = (self.wrappers or {}).get(marker)
            if wrapper is None:
                return None
            self.attrConverter.findAttr(wrapper, "__donjon__")  # its rules and style, on its attributes
            width = self._size(marker.get("markerWidth"), "width", 3.0)
            height = self._size(marker.get("markerHeight"), "height", 3.0)
            if not (width > 0 and height > 0):
                return None
            box = _view_box(marker.get("viewBox"))
            fitted: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
            if box is not None:
                a, b, c, d, e, f = _fitted(box, width, height, marker.get("preserveAspectRatio"))
                fitted = (a, b, c, d, e, f)
            # cut to its viewport, in the viewport's units (SVG 2, 11.6.2: a marker's overflow is hidden unless it
            # says otherwise)
            hidden = (marker.get("overflow") or "hidden").strip().lower() not in ("visible", "auto")
            contents = Group()
            contents.transform = fitted
            before = self.drawn
            for child in wrapper.iter_children():
                self.renderNode(child, parent=contents)
            return fitted, _rectangle_clip(width, height) if hidden else None, contents, self.drawn - before

        def _marker_at(self, marker: Any, vertex: Vertex, stroke_width: float, made: tuple[Any, ...]) -> Any:
            """The marker's contents (`made`: :meth:`_marker_contents`) placed at the vertex (SVG 2, 11.6.2): its
            viewport put there, turned as its `orient` says, scaled by the stroke width (markerUnits strokeWidth,
            the default), its reference point (refX, refY) on the vertex."""
            fitted, clip, contents, _count = made
            scale = stroke_width if (marker.get("markerUnits") or "").strip() != "userSpaceOnUse" else 1.0
            reference = (self._size(marker.get("refX"), "x", 0.0), self._size(marker.get("refY"), "y", 0.0))
            orient = orient_angle(marker.get("orient"))
            angle = (vertex.angle + (180.0 if orient == "auto-start-reverse" and vertex.where == "start" else 0.0)
                     if isinstance(orient, str) else orient)
            placed = Group(*(part for part in (clip, contents) if part is not None))
            placed.transform = marker_matrix(vertex, angle, scale, reference, fitted)
            return placed

        def get_clippath(self, node: Any) -> Any:
            # a clip path written after what it clips (Figma writes its <defs> last): svglib knows a definition
            # once it has met it, so it found none and the clip hid everything in the PDF
            match = _URL.search(node.getAttribute("clip-path") or "")
            later = self.ids.get(match.group(1)) if match is not None and match.group(1) not in self.definitions \
                else None
            if match is not None and later is not None and _local(later.tag) == "clipPath":
                top = node
                while top.parent is not None:
                    top = top.parent
                for wrapper in top.iter_subtree():
                    if wrapper.etree_element is later:
                        self.definitions[match.group(1)] = wrapper
                        break
            found = super().get_clippath(node)
            if found is not None:
                return found
            # a clip path that holds no shape (empty, or only what viewers leave out of a clip) hides all it clips
            # in every viewer; svglib drew the element unclipped. Clipped to a path of no area instead
            match = _URL.search(node.getAttribute("clip-path") or "")
            target = self.ids.get(match.group(1)) if match is not None else None
            if target is None or _local(target.tag) != "clipPath":
                return None
            from svglib.svglib import ClippingPath

            nothing = ClippingPath()
            nothing.moveTo(0, 0)
            nothing.lineTo(0, 0)
            nothing.closePath()
            return nothing

        def xlink_href_target(self, node: Any, group: Any = None) -> Any:
            href = node.attrib.get(_XLINK_HREF) or node.attrib.get("href") or ""
            match = _DATA_PICTURE.fullmatch(href)
            if match is None:
                return super().xlink_href_target(node, group)
            found = self.pictures.get(href) or _embedded(href, node.sourceline)  # checked before
            rendering = self.attrConverter.findAttr(node, "image-rendering").strip().lower()
            if found is not None and rendering in _BLOCKY:
                found = Embedded(found.kind, found.data, found.size, smooth=False)
            return found  # svglib reads its `size`; the image shape holds it as its path

        def renderGradient(self, node: Any) -> None:
            for child in node.iter_children():
                if _local(child.tag) != "stop":
                    continue
                # its stylesheet rules and style, on it before svglib reads it; a stop in `currentColor` takes the
                # color it inherits (svglib failed on the word)
                paint = self.attrConverter.findAttr(child, "stop-color")
                faded = self.attrConverter.findAttr(child, "stop-opacity").strip()
                if faded.endswith("%"):  # in percent, as viewers read it; svglib drew such a stop opaque
                    attributes = child.etree_element.attrib
                    attributes["stop-opacity"] = f"{_number(faded, 1.0):g}"
                    if "style" in attributes:
                        attributes["style"] = re.sub(r"stop-opacity\s*:[^;]*", "", attributes["style"], flags=re.I)
                if paint.strip().lower() == "currentcolor":
                    colour = self.attrConverter.findAttr(child, "color")
                    attributes = child.etree_element.attrib
                    attributes["stop-color"] = colour
                    if "style" in attributes:
                        attributes["style"] = re.sub("currentcolor", colour, attributes["style"], flags=re.I)
                    paint = colour
                see_through = _css_colour(paint.strip()) or _hex_with_alpha(paint)
                if see_through is not None and len(see_through) > 7:
                    # a stop colour with its own alpha (`rgba(255 0 0 / 50%)`, `#ff000080`, `transparent`) is that
                    # much see-through on top of its stop-opacity, as viewers draw it (CSS Color 4); svglib gave the
                    # stop the stop-opacity alone: the PDF showed it opaque where the SVG faded it
                    attributes = child.etree_element.attrib
                    fading = _number(self.attrConverter.findAttr(child, "stop-opacity").strip(), 1.0)
                    attributes["stop-color"] = see_through[:7]
                    attributes["stop-opacity"] = f"{fading * int(see_through[7:], 16) / 255:g}"
                    if "style" in attributes:
                        attributes["style"] = re.sub(r"stop-(colou?r|opacity)\s*:[^;]*", "", attributes["style"],
                                                     flags=re.I)
            super().renderGradient(node)

        def _resolve_gradient(self, grad_id: str) -> _GradientDef | None:
            # SVG 1.1, 13.2.2 and 13.2.3: what a gradient leaves unwritten it takes from the gradient its href
            # names, and so on down the chain (its stops from the first that has stops; x1... and cx... only from a
            # gradient of its own kind). svglib filled every unwritten attribute with its default before following
            # the chain, and stopped after one step: Inkscape's chains lost their axis, or their stops and shape.
            chain = _href_chain(self.ids.get(grad_id), _GRADIENTS, self.ids)
            if not chain:
                return None
            kind = _local(chain[0].tag)
            stops: list[Any] = []
            for element in chain:
                found: dict[str, Any] | None = self.gradient_defs.get(element.get("id"))  # type: ignore[assignment]
                if found is not None and found.get("stops"):
                    stops = list(found["stops"])
                    break

            def written(name: str, own_kind: bool = True) -> str | None:
                return _written(chain, name, kind if own_kind else None)

            units = written("gradientUnits", own_kind=False) or "objectBoundingBox"
            resolved: dict[str, Any] = {"type": "linear" if kind == "linearGradient" else "radial",
                                        "gradientUnits": units, "stops": stops,
                                        "spreadMethod": spread_method(chain)}
            transform = written("gradientTransform", own_kind=False)
            if transform:
                resolved["gradientTransform"] = _matrix(self.attrConverter.convertTransform(transform))
            coordinates = _LINEAR if kind == "linearGradient" else _RADIAL
            for name, default in coordinates.items():
                raw = written(name)
                if raw is None:
                    if default is not None:
                        resolved[name] = default
                    continue  # no focus written: the centre (generator.backends.pdf_art)
                resolved[name] = self._coordinate(raw, units, resolved.get("c" + name[1]) if name in ("fx", "fy")
                                                  else default, name)
            return cast("_GradientDef", resolved)

        def _coordinate(self, raw: str, units: str, default: float | None, name: str = "") -> float:
            fallback = 0.0 if default is None else float(default)
            try:
                if raw.endswith("%") and units == "userSpaceOnUse":  # a share of the viewport (SVG 1.1, 13.2.2)
                    found = self.attrConverter.convertLength(raw, attr_name=name)
                    return float(found) if isinstance(found, (int, float)) else fallback
                if raw.endswith("%"):  # a share of the box (objectBoundingBox), as svglib read it
                    return float(raw[:-1]) / 100.0
                if units == "userSpaceOnUse":
                    return float(self.attrConverter.convertLength(raw))  # type: ignore[arg-type]
                return float(raw)
            except (ValueError, TypeError):
                return fallback

        def _apply_gradient_fill(self, item: Any, grad_def: Any) -> Any:
            shape = _find_clip_shape(item)
            if shape is None or not grad_def.get("stops"):
                return item
            node = self.nodes[-1] if self.nodes else None
            opacity = 1.0
            if node is not None:
                raw = self.attrConverter.findAttr(node, "fill-opacity")
                opacity = _number(raw, 1.0)
            evenodd = False
            if node is not None:
                evenodd = self.attrConverter.findAttr(node, "fill-rule") == "evenodd"
            gradient = GradientFill(shape, dict(grad_def), opacity, evenodd)
            if node is not None and not _fills_first(self.attrConverter.findAttr(node, "paint-order")):
                return Group(item, gradient)  # its stroke under its fill (shape_in_order)
            return Group(gradient, item)

    return Reader


_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

#: SVG's miter limit where none is written (SVG 1.1, 11.4), which the PDF must be told: a PDF's own is 10, so a
#: corner sharper than 29 degrees (whose miter is 4 to 10 stroke widths long) drew a long spike where viewers cut
#: the corner off (a bevel).
MITER_LIMIT = 4.0


def _stroke_rest(converter: Any, shape: Any, node: Any, only_explicit: bool) -> None:
    """What svglib leaves out of a shape's stroke: its miter limit (`stroke-miterlimit`, SVG's default 4; one below 1
    is an error a viewer ignores) and where its dashes start (`stroke-dashoffset`, a length)."""
    if "strokeMiterLimit" not in getattr(shape, "_attrMap", {}):
        return  # not a shape that strokes (text, which art does not draw)
    raw = converter.findAttr(node, "stroke-miterlimit").strip()
    if raw or not only_explicit:
        try:
            limit = float(raw) if raw else MITER_LIMIT
        except ValueError:
            limit = MITER_LIMIT
        shape.strokeMiterLimit = limit if math.isfinite(limit) and limit >= 1 else MITER_LIMIT
    raw = converter.findAttr(node, "stroke-dashoffset").strip()
    dashes = getattr(shape, "strokeDashArray", None)
    if not raw or not isinstance(dashes, list) or not dashes or not all(isinstance(v, (int, float)) for v in dashes):
        return
    try:
        offset = converter.convertLength(raw, attr_name="stroke-dashoffset")
    except (ValueError, TypeError):
        return
    if isinstance(offset, (int, float)) and math.isfinite(offset) and offset:
        shape.strokeDashArray = [float(offset), dashes]


#: A paint naming a paint server and a fallback: the reference, its id and the fallback.
_FALLBACK_PAINT = re.compile(r"\s*(url\(\s*['\"]?#([^)'\"\s]*)['\"]?\s*\))\s+(\S.*?)\s*")


#: How many colours written are kept read (a file writes a few dozen; a long `--watch` does not grow without end).
_COLOURS_KEPT = 4096
#: The properties whose value may be `currentColor` (a gradient's stops are mended where svglib reads them).
_PAINTS = frozenset({"fill", "stroke"})
#: The paints of a marker's shapes that are those of the shape marked: its fill, its stroke (SVG 2, 13.3).
_CONTEXT_PAINTS = ("context-fill", "context-stroke")
#: The shapes a pattern may fill (SVG 1.1, 9: the basic shapes and paths).
_SHAPES = frozenset({"path", "rect", "circle", "ellipse", "line", "polyline", "polygon"})
#: The most tiles a pattern may draw to fill one shape: a tile a hundredth of the shape's width and height (a fine
#: hatching, or dots a millimetre apart over a card 10 cm wide) takes 10,000; each tile repeats the pattern's
#: drawing in the PDF, so more would make a file many times the size of the rest of the art.
MAX_PATTERN_TILES = 10_000
#: How far a stroke may reach past its outline, in half widths, at the least: a miter join reaches up to half the
#: miter limit times the width, and SVG's default limit is 4 (a larger limit written reaches further).
_MITER_LIMIT_REACH = 4.0
#: The shapes markers are drawn on (SVG 2, 11.6: the markable elements).
_MARKABLE = frozenset({"path", "line", "polyline", "polygon"})
#: The lengths a percentage of the viewport's width or height gives (SVG 1.1, 7.10; SVG 2 for a rect's `rx` and
#: `ry`); any other length (`r`, a stroke's width, a dash) is a percentage of its normalised diagonal.
_ACROSS = frozenset({"x", "cx", "x1", "x2", "fx", "width", "rx", "dx"})
_DOWN = frozenset({"y", "cy", "y1", "y2", "fy", "height", "ry", "dy"})
_PERCENT = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)%\s*")
#: A colour name, or a colour function (`rgb(...)`, `hwb(...)`, `color(srgb ...)`), as written.
_COLOUR = re.compile(r"\s*([A-Za-z]+|[A-Za-z][A-Za-z0-9-]*\([^()]*\))\s*")


def _percent(text: Any, name: str | None, box: Any) -> float | None:
    """A length written in percent, in user units of the viewport `box` (svglib's Box); None for any other (or
    no viewport known), which svglib reads."""
    match = _PERCENT.fullmatch(text) if isinstance(text, str) else None
    if match is None or box is None:
        return None
    share = float(match.group(1)) / 100.0
    width, height = float(box.width), float(box.height)
    if name in _ACROSS:
        return share * width
    if name in _DOWN:
        return share * height
    return share * math.sqrt((width * width + height * height) / 2.0)


#: The keyword of a missing component in a colour function (CSS Color 4, 4.4), in any case.
_NONE = re.compile(r"(?<![\w-])none(?![\w-])", re.I)


@lru_cache(maxsize=_COLOURS_KEPT)
def _hex_with_alpha(text: str) -> str | None:
    """A colour written `#rgba` or `#rrggbbaa` (CSS Color 4, 5.2) as `#rrggbbaa`; None for any other."""
    found = re.fullmatch(r"\s*#([0-9a-fA-F]{4}|[0-9a-fA-F]{8})\s*", text)
    if found is None:
        return None
    digits = found.group(1).lower()
    return "#" + ("".join(c * 2 for c in digits) if len(digits) == 4 else digits)


def _css_colour(text: Any) -> str | None:
    """A CSS colour name or function (CSS Color 4, as tinycss2 reads it; any case) as `#rrggbb`, or `#rrggbbaa`
    when see-through (`transparent` is `#00000000`), clamped to sRGB as browsers clamp it; None for anything else
    (svglib reads it, or says it cannot), and for a colour in a space :func:`_to_srgb` does not convert."""
    match = _COLOUR.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    from tinycss2.color4 import Color, parse_color

    # a component written `none` is 0 once converted (CSS Color 4, 4.4); written so before tinycss2 reads it, whose
    # lch() and oklch() take a lightness of `none` for a hue of none too (lch(none 40 300) was dark red, not blue)
    found = parse_color(_NONE.sub("0", match.group(1)) if "(" in match.group(1) else match.group(1))
    if not isinstance(found, Color):  # not a colour name, or currentColor (a word, not a colour)
        return None
    try:
        coordinates = found.to("srgb").coordinates
    except NotImplementedError:  # lab(), oklch(), color(display-p3 ...): tinycss2 does not convert them to sRGB
        converted = _to_srgb(found)
        if converted is None:
            return None
        coordinates = converted
    red, green, blue = (round(min(1.0, max(0.0, float(v or 0))) * 255) for v in coordinates)
    alpha = "" if found.alpha >= 1 else f"{round(min(1.0, max(0.0, float(found.alpha))) * 255):02x}"
    return f"#{red:02x}{green:02x}{blue:02x}{alpha}"


#: CIE XYZ under D50 to XYZ under D65, the Bradford chromatic adaptation CSS Color 4 (section 18) writes: lab() and
#: lch() are D50 colours, sRGB is D65.
_D50_TO_D65 = ((0.955473421488075, -0.02309845494876471, 0.06325924320057072),
               (-0.0283697093338637, 1.0099953980813041, 0.021041441191917323),
               (0.012314014864481998, -0.020507649298898964, 1.330365926242124))
#: CIE XYZ (D65) to linear sRGB (CSS Color 4, section 18, from the sRGB primaries' chromaticities).
_XYZ_TO_LINEAR_SRGB = ((3.2409699419045226, -1.537383177570094, -0.4986107602930034),
                       (-0.9692436362808796, 1.8759675015077202, 0.04155505740717559),
                       (0.05563007969699366, -0.20397695888897652, 1.0569715142428786))
#: Linear Display P3 to CIE XYZ (D65) (CSS Color 4, section 18); Display P3 has sRGB's transfer curve.
_LINEAR_P3_TO_XYZ = ((0.4865709486482162, 0.26566769316909306, 0.1982172852343625),
                     (0.2289745640697488, 0.6917385218365064, 0.079286914093745),
                     (0.0, 0.04511338185890264, 1.043944368900976))


def _product(matrix: tuple[tuple[float, float, float], ...], vector: Iterable[float]) -> tuple[float, ...]:
    values = tuple(vector)
    return tuple(sum(a * b for a, b in zip(row, values)) for row in matrix)


def _srgb_curve(linear: float) -> float:
    """A linear-light channel through sRGB's transfer curve (CSS Color 4, section 18), odd about zero so a colour
    outside the gamut keeps its sign until it is clipped."""
    size = abs(linear)
    curved = 1.055 * size ** (1 / 2.4) - 0.055 if size > 0.0031308 else 12.92 * size
    return math.copysign(curved, linear)


def _linear(channel: float) -> float:
    """A channel of sRGB's transfer curve back to linear light (CSS Color 4, section 18)."""
    size = abs(channel)
    return math.copysign(((size + 0.055) / 1.055) ** 2.4 if size > 0.04045 else size / 12.92, channel)


def _to_srgb(colour: Any) -> tuple[float, ...] | None:
    """The sRGB channels (0 to 1, not yet clipped) of a colour tinycss2 reads but does not turn into sRGB: lab(),
    lch(), oklab(), oklch() and color() in xyz, xyz-d50, xyz-d65, srgb-linear, display-p3, a98-rgb, prophoto-rgb and
    rec2020, by the formulas of CSS Color 4 (section 18); None for another space (none tinycss2 reads). Out of
    gamut, each channel is then clipped: that is what Chromium paints (oklch(70% 0.4 150) is rgb(0, 214, 0) in its
    render), not the chroma reduction CSS Color 4 suggests."""
    space = colour.space
    coordinates = tuple(float(v or 0) for v in colour.coordinates)  # `none` is 0 (CSS Color 4, 4.4)
    if space in ("lab", "lch", "xyz-d50"):
        xyz = _product(_D50_TO_D65, colour.to("xyz-d50").coordinates if space != "xyz-d50" else coordinates)
    elif space in ("oklab", "oklch", "xyz-d65", "xyz"):
        xyz = colour.to("xyz-d65").coordinates if space in ("oklab", "oklch") else coordinates
    elif space == "display-p3":
        xyz = _product(_LINEAR_P3_TO_XYZ, (_linear(v) for v in coordinates))
    elif space == "srgb-linear":
        return tuple(_srgb_curve(v) for v in coordinates)
    elif space == "a98-rgb":
        xyz = _product(_LINEAR_A98_TO_XYZ, (math.copysign(abs(v) ** _A98_GAMMA, v) for v in coordinates))
    elif space == "prophoto-rgb":
        xyz = _product(_D50_TO_D65, _product(_LINEAR_PROPHOTO_TO_XYZ_D50, (_prophoto_linear(v) for v in coordinates)))
    elif space == "rec2020":
        xyz = _product(_LINEAR_REC2020_TO_XYZ, (_rec2020_linear(v) for v in coordinates))
    else:
        return None
    return tuple(_srgb_curve(v) for v in _product(_XYZ_TO_LINEAR_SRGB, xyz))


#: Linear a98-rgb (Adobe RGB 1998) to CIE XYZ (D65), and its transfer curve's exponent, 563/256 (CSS Color 4,
#: section 18).
_LINEAR_A98_TO_XYZ = ((0.5766690429101305, 0.1855582379065463, 0.1882286462349947),
                      (0.29734497525053605, 0.6273635662554661, 0.07529145849399788),
                      (0.02703136138641234, 0.07068885253582723, 0.9913375368376388))
_A98_GAMMA = 563 / 256
#: Linear ProPhoto RGB to CIE XYZ (D50: ProPhoto's white) (CSS Color 4, section 18).
_LINEAR_PROPHOTO_TO_XYZ_D50 = ((0.7977604896723027, 0.13518583717574031, 0.0313493495815248),
                               (0.2880711282292934, 0.7118432178101014, 0.00008565396060525902),
                               (0.0, 0.0, 0.8251046025104601))
#: Linear Rec. 2020 to CIE XYZ (D65) (CSS Color 4, section 18).
_LINEAR_REC2020_TO_XYZ = ((0.6369580483012914, 0.14461690358620832, 0.1688809751641721),
                          (0.2627002120112671, 0.6779980715188708, 0.05930171646986196),
                          (0.0, 0.028072693049087428, 1.060985057710791))
#: ProPhoto's transfer curve as Chromium (Skia) applies it: a power of 1.8 throughout. CSS Color 4 (section 18)
#: adds a linear part below 16/512; Chromium's render of color(prophoto-rgb 0.02 0.025 0.01) is (2, 5, 0), the
#: pure power's (2.5, 4.6, 0.3), where the linear part gives (4.0, 5.4, 1.6).
_PROPHOTO_GAMMA = 1.8
#: Rec. 2020's transfer curve (ITU-R BT.2020, as CSS Color 4, section 18, writes it): linear (slope 1/4.5) below
#: 4.5 beta, a power of 1/0.45 of the offset value above.
_REC2020_ALPHA = 1.09929682680944
_REC2020_BETA = 0.018053968510807


def _prophoto_linear(channel: float) -> float:
    return math.copysign(abs(channel) ** _PROPHOTO_GAMMA, channel)


def _rec2020_linear(channel: float) -> float:
    size = abs(channel)
    if size < _REC2020_BETA * 4.5:
        return channel / 4.5
    return math.copysign(((size + _REC2020_ALPHA - 1) / _REC2020_ALPHA) ** (1 / 0.45), channel)


#: A length in em (or ex), as written in an attribute or a style: measured against the element's font size.
_EM = re.compile(r"\d\s*(?:em|ex)\b", re.I)
_EM_WRITTEN = re.compile(rb"\d\s*(?:em|ex)\b", re.I)


#: A font's x-height (the `ex` unit) as a share of its em, as Chromium measures it, by family name in lower case:
#: measured in Chromium's render of a rect 100ex wide at font-size 10 (tests' _render_chromium) on the machine the
#: test suite runs on, whose fonts are DejaVu, URW's base 35 (Nimbus...) and WenQuanYi. Chromium takes the first
#: family of the list it has, so a family it lacks (Arial, Helvetica, Times New Roman on that machine) is passed
#: over; the generic families are fontconfig's choices there (serif: DejaVu Serif; sans-serif, monospace, cursive,
#: fantasy, system-ui: DejaVu Sans). Another machine's fonts give other figures (Arial's x-height is 0.519): art
#: measured in ex is drawn as on that machine, the same on every machine donjon runs on.
_X_HEIGHTS = {
    "serif": 0.5187, "dejavu serif": 0.5187, "dejavu serif condensed": 0.5187, "dejavu math tex gyre": 0.5193,
    "sans-serif": 0.5467, "monospace": 0.5467, "cursive": 0.5467, "fantasy": 0.5467, "system-ui": 0.5467,
    "dejavu sans": 0.5467, "dejavu sans mono": 0.5467, "dejavu sans condensed": 0.5467, "dejavu sans light": 0.5467,
    "nimbus sans": 0.516, "nimbus roman": 0.45, "nimbus mono ps": 0.4173, "c059": 0.466, "p052": 0.4493,
    "urw bookman": 0.4853, "urw gothic": 0.5473, "d050000l": 0.5673, "z003": 0.398, "standard symbols ps": 0.5,
    "wenquanyi micro hei": 0.536, "wenquanyi micro hei mono": 0.536, "emoji": 0.928, "noto color emoji": 0.928}
#: The x-height Chromium gives when the art names no family it has (nor any): its default font's there, 0.6 of the
#: em (measured as above, for no font-family, for `Times New Roman` and for a name no font has), where librsvg and
#: the PDF took half an em (a rect 100ex wide at font-size 10 was 500 wide, 600 in Chromium).
_X_HEIGHT_DEFAULT = 0.6
#: A length in ex, as written in an attribute, a style or a stylesheet: its number (not part of a name: `a1ex`).
_EX = re.compile(r"(?<![\w.#-])([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*ex\b", re.I)


def _x_height(families: str | None) -> float:
    """The x-height, as a share of the em, of the first family of a `font-family` list Chromium would have
    (:data:`_X_HEIGHTS`), else of Chromium's default font."""
    for name in (families or "").split(","):
        found = _X_HEIGHTS.get(name.strip().strip("'\"").strip().lower())
        if found is not None:
            return found
    return _X_HEIGHT_DEFAULT


def _ex_as_em(root: Any) -> bool:
    """Write each length in ex as the same length in em, in the tree (whether any is): an ex is the x-height of the
    element's font, as Chromium measures it (:func:`_x_height` of the family the element inherits or is given;
    for a font-size, its parent's), where svglib and librsvg take half an em whatever the font. A stylesheet's
    rule may reach elements of several families: its lengths take the drawing's own (its root's) family."""
    if not any(_EX.search(value) for element in root.iter() if isinstance(element.tag, str)
               for value in (*element.attrib.values(), *([element.text or ""] if _local(element.tag) == "style"
                                                         else []))):
        return False
    families = Cascade(root, ("font-family",))
    found: dict[Any, float] = {}

    def ratio(element: Any) -> float:
        if element is None or not isinstance(element.tag, str):
            return _X_HEIGHT_DEFAULT
        known = found.get(element)
        if known is None:
            written = families.value(element, "font-family")
            known = found[element] = (_x_height(written) if written and written.strip() != "inherit"
                                      else ratio(element.getparent()))
        return known

    def rewritten(text: str, share: float) -> str:
        return _EX.sub(lambda match: f"{float(match.group(1)) * share:.6g}em", text)

    root_share = ratio(root)
    elements = [element for element in root.iter() if isinstance(element.tag, str)]
    shares = {element: (ratio(element), ratio(element.getparent())) for element in elements}
    for element in elements:
        own, parents = shares[element]
        for name, value in list(element.attrib.items()):
            if not _EX.search(value):
                continue
            if name == "style":
                element.set(name, "; ".join(f"{key}: {rewritten(text, parents if key == 'font-size' else own)}"
                                            for key, text in ((key.strip(), text) for key, _colon, text in (
                                                part.partition(":") for part in value.split(";") if ":" in part))))
            else:
                element.set(name, rewritten(value, parents if name == "font-size" else own))
        if _local(element.tag) == "style" and element.text and _EX.search(element.text):
            element.text = rewritten(element.text, root_share)
    return True


def _font_size_for_librsvg(root: Any) -> bool:
    """Give the root of art that measures in em the font size browsers start from, `medium` (16 px), as a
    presentation attribute (any rule or style of the file's own outranks it), when it writes none (whether it
    does): librsvg 2.54 starts from 12 px, so a rect 2em wide was 24 wide in the SVG output, 32 in a browser and
    in the PDF."""
    if root.get("font-size") is not None or not any(
            _EM.search(value) for element in root.iter() if isinstance(element.tag, str)
            for value in (*element.attrib.values(), *([element.text or ""] if _local(element.tag) == "style" else []))):
        return False
    root.set("font-size", f"{_MEDIUM_FONT:g}")
    return True
#: The font size of `medium`, the initial one (CSS Fonts 4, 2.5), in CSS pixels: 16 in browsers; librsvg 2.54 takes
#: 12, so the SVG output of art that measures in em writes it on its root (:func:`_font_size_for_librsvg`).
_MEDIUM_FONT = 16.0
#: The absolute-size keywords, in CSS pixels, as Chromium (and CSS Fonts 4's table, 2.5) gives them.
_FONT_KEYWORDS = {"xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0, "large": 18.0, "x-large": 24.0,
                  "xx-large": 32.0, "xxx-large": 48.0}
#: How much `larger` and `smaller` scale the parent's font size (CSS Fonts 4, 2.5 suggests 1.2, as browsers do).
_FONT_STEP = 1.2
#: CSS pixels per unit of an absolute font size (CSS Values 4, 6.2); a number alone is in user units (SVG's
#: presentation attribute).
_FONT_UNITS = {"": 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4,
               "q": 96 / 101.6}
_FONT_SIZE = re.compile(r"\s*([+]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-z%]*)\s*", re.I)


def _font_size(written: str, inherited: float) -> float:
    """An element's font size in CSS pixels, from the value written for it (empty when none) and its parent's:
    relative values (em, ex as half an em: art's are written in em before, :func:`_ex_as_em`; %, rem as medium's,
    larger, smaller) against the parent's, keywords and
    absolute lengths as they are; what is not read (a negative, calc()...) is dropped, as browsers drop it."""
    text = written.strip().lower()
    if text in _FONT_KEYWORDS:
        return _FONT_KEYWORDS[text]
    if text in ("larger", "smaller"):
        return inherited * _FONT_STEP if text == "larger" else inherited / _FONT_STEP
    match = _FONT_SIZE.fullmatch(text)
    if match is None:
        return inherited
    value, unit = float(match.group(1)), match.group(2)
    relative = {"%": inherited / 100, "em": inherited, "ex": inherited / 2, "rem": _MEDIUM_FONT}
    if unit in relative:
        return value * relative[unit]
    if unit in _FONT_UNITS and math.isfinite(value):
        return value * _FONT_UNITS[unit]
    return inherited


def _view_box(text: str | None) -> tuple[float, float, float, float] | None:
    """A viewBox's four numbers, or None when it is unwritten, malformed or empty (a viewer then ignores it)."""
    try:
        numbers = [float(v) for v in (text or "").replace(",", " ").split()]
    except ValueError:
        return None
    if len(numbers) != 4 or not all(math.isfinite(v) for v in numbers) or numbers[2] <= 0 or numbers[3] <= 0:
        return None
    return numbers[0], numbers[1], numbers[2], numbers[3]


def _fitted(box: tuple[float, float, float, float], width: float, height: float,
            aspect: str | None) -> tuple[float, ...]:
    """The matrix that fits a viewBox into a viewport of `width` x `height` at its origin, as its
    preserveAspectRatio says (SVG 1.1, 7.8; default `xMidYMid meet`), in SVG's own downward y."""
    x, y, w, h = box
    words = (aspect or "").split()
    align = words[0] if words else "xMidYMid"
    sx, sy = width / w, height / h
    dx = dy = 0.0
    if align != "none":
        sx = sy = max(sx, sy) if len(words) > 1 and words[1] == "slice" else min(sx, sy)
        share = {"Min": 0.0, "Mid": 0.5, "Max": 1.0}
        dx = (width - w * sx) * share.get(align[1:4], 0.5)
        dy = (height - h * sy) * share.get(align[5:8], 0.5)
    return (sx, 0.0, 0.0, sy, dx - x * sx, dy - y * sy)


def _keep_proportions(group: Any, node: Any) -> Any:
    """svglib's group of an embedded picture, the picture fitted into its box as its preserveAspectRatio says
    (SVG 1.1, 7.8; default `xMidYMid meet`: all of it, centred), and cut to the box when it covers it (`slice`):
    svglib stretched every picture over its box."""
    from reportlab.graphics.shapes import Image
    from svglib.svglib import ClippingPath

    image = group.contents[0] if isinstance(group, Group) and group.contents else None
    picture = getattr(image, "path", None)
    if not isinstance(image, Image) or not isinstance(picture, Embedded):
        return group
    x, w, h = float(image.x), float(image.width), float(image.height)
    y = float(image.y) - h  # svglib sets the picture a height below its box, then mirrors the group about it
    width, height = picture.size
    aspect = node.getAttribute("preserveAspectRatio")
    if w <= 0 or h <= 0 or (aspect or "").split()[:1] == ["none"]:
        return group
    sx, _b, _c, sy, dx, dy = _fitted((0.0, 0.0, float(width), float(height)), w, h, aspect)
    image.x, image.width, image.height = x + dx, width * sx, height * sy
    image.y = y + dy + height * sy
    group.transform = (1.0, 0.0, 0.0, -1.0, 0.0, 2 * float(image.y))
    if width * sx > w + 1e-9 or height * sy > h + 1e-9:
        box = ClippingPath()
        box.moveTo(x, y)
        box.lineTo(x + w, y)
        box.lineTo(x + w, y + h)
        box.lineTo(x, y + h)
        box.closePath()
        group = Group(box, group)
    group.__dict__["viewport"] = (x, y, x + w, y + h)  # its box, whatever part the picture fills (_svg_box)
    return group


def _number(text: str, default: float) -> float:
    try:
        value = float(text.strip().rstrip("%")) / (100 if text.strip().endswith("%") else 1)
    except (ValueError, AttributeError):
        return default
    return min(1.0, max(0.0, value)) if math.isfinite(value) else default


#: The attribute svglib marks an element with once the stylesheet and its style are applied to it, and the one it
#: marks the original of a copy with, to find loops of uses.
_RULES_APPLIED = "__rules_applied"
_USE_ORIGIN = "__use_origin"
#: svglib's mark of a symbol it has met once (as a definition): one so marked is drawn where it is met again.
_RENDERED = "_rendered"


def _settle_rules(made: Any, sheet: Cascade) -> None:
    """Apply to each element of a copy, as svglib applies them (attributes), the declarations of the rules that
    match it in its own tree (`sheet`, :func:`_isolated`) and its style, in the order CSS ranks them
    (:func:`generator.render.images.cascaded`), and mark it so that svglib applies no rule to it where it is drawn."""
    found = [(element, sheet.declared(element)) for element in made.iter() if isinstance(element.tag, str)]
    for element, declared in found:
        for name, value in cascaded(declared, element.get("style") or ""):
            if name and not name.startswith("-"):  # lxml takes no attribute name starting so
                try:
                    element.set(name, value)
                except ValueError:
                    pass  # a name no attribute may have: svglib would not read it either
        element.set(_RULES_APPLIED, "1")


def _own_opacity(reader: Any, node: Any) -> float:
    """The element's own `opacity` (attribute, style or a `<style>` rule; opacity is not inherited)."""
    reader.attrConverter.findAttr(node, "__donjon__")  # applies the stylesheet and the style to the element
    return _number(node.etree_element.attrib.get("opacity", "1"), 1.0)


def _blend_mode(element: Any, item: Any) -> str | None:
    """How the element is laid over what is under it, its stylesheet rules and style applied (:func:`_own_opacity`):
    the PDF name of its `mix-blend-mode` (:data:`BLEND_MODES`); `Normal` when it is drawn as a group of its own
    (`isolation: isolate`, or a clip path around something blended: Chromium isolates both, measured, so a blend
    inside reaches no further); None when it is drawn as it is. An opacity below 1 isolates too
    (:class:`Faded`)."""
    attrib = element.attrib
    mode = BLEND_MODES.get((attrib.get("mix-blend-mode") or "normal").strip().lower(), "Normal")
    if mode != "Normal" or (attrib.get("isolation") or "").strip().lower() == "isolate":
        return mode
    clip = (attrib.get("clip-path") or "none").strip().lower()
    return "Normal" if clip != "none" and _holds_blend(item) else None


def _holds_blend(item: Any) -> bool:
    """Whether something inside `item` (what svglib drew, <use> copies included) is blended."""
    return any(isinstance(node, Blended) and node.mode != "Normal" for node in nodes_inside(item))


def nodes_inside(item: Any, descend: Callable[[Any], bool] = lambda node: True) -> Iterator[Any]:
    """Everything drawn inside `item` (a drawing, a group, a fill of ours that holds shapes), at any depth, in no
    promised order; what is inside a node for which `descend` says False is left out (a gradient's own shapes, for a
    reader that answers for the gradient as a whole)."""
    stack = list(getattr(item, "contents", ()))
    while stack:
        node = stack.pop()
        yield node
        if descend(node):
            stack.extend(getattr(node, "contents", ()))


def _blend_attributes_dropped(root: Any) -> None:
    """Leave out every `mix-blend-mode` written as an attribute: it is no presentation attribute (Compositing and
    Blending 1 defines a CSS property only), and Chromium and librsvg draw such an element normally (measured).
    What is left of the property is then what a style or a `<style>` rule says, as svglib applies them."""
    for element in root.iter():
        if isinstance(element.tag, str) and "mix-blend-mode" in element.attrib:
            del element.attrib["mix-blend-mode"]


def _fade_root(reader: Any, root: Any, drawing: Any) -> None:
    """`opacity` on the outermost <svg>: svglib draws it as a group of its own."""
    opacity = _number(root.get("opacity", "1"), 1.0)
    for name, value in cascaded([], root.get("style", "")):
        if name == "opacity":
            opacity = _number(value, 1.0)
    if opacity < 1 and drawing.contents:
        drawing.contents[0] = Faded(drawing.contents[0], opacity)


def _matrix(operations: Any) -> tuple[float, ...]:
    """svglib's parsed transform list as one matrix (a, b, c, d, e, f)."""
    from reportlab.graphics.shapes import mmult, rotate, skewX, skewY, translate
    from reportlab.graphics.shapes import scale as scaling

    matrix: tuple[float, ...] = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for op, values in operations:
        if op == "scale":
            sx, sy = values if isinstance(values, tuple) else (values, values)
            step = scaling(sx, sy)
        elif op == "translate":
            tx, ty = values if isinstance(values, tuple) else (values, 0)
            step = translate(tx, ty)
        elif op == "rotate":
            if isinstance(values, tuple) and len(values) == 3:
                angle, cx, cy = values
                step = mmult(mmult(translate(cx, cy), rotate(angle)), translate(-cx, -cy))
            else:
                step = rotate(values[0] if isinstance(values, tuple) else values)
        elif op == "skewX":
            step = skewX(values)
        elif op == "skewY":
            step = skewY(values)
        elif op == "matrix" and len(values) == 6:
            step = tuple(values)
        else:
            continue
        matrix = mmult(matrix, step)
    return tuple(float(v) for v in matrix)


# --- the shapes donjon adds, and the drawing checked ----------------------------------------------------------------


def _stroked_first(made: Any) -> Any:
    """A shape as svglib drew it (a shape, or a group of a clip, a gradient fill and the shape...) with its stroke
    drawn before its fill: in each group, a clip first, then what strokes, then what fills; a shape that does both
    is drawn twice, stroke only then fill only."""
    if not isinstance(made, Group):
        made = Group(made)
    clips: list[Any] = []
    strokes: list[Any] = []
    fills: list[Any] = []
    for item in made.contents:
        if isinstance(item, Group):
            fills.append(_stroked_first(item))
        elif getattr(item, "isClipPath", 0) or isinstance(item, GradientFill):
            (clips if getattr(item, "isClipPath", 0) else fills).append(item)
        else:
            stroked = getattr(item, "strokeColor", None) is not None and (getattr(item, "strokeWidth", 1) or 0) > 0
            filled = getattr(item, "fillColor", None) is not None
            if stroked and filled:
                stroke_only, fill_only = item.copy(), item.copy()
                stroke_only.fillColor = None
                fill_only.strokeColor = None
                strokes.append(stroke_only)
                fills.append(fill_only)
            else:
                (strokes if stroked else fills).append(item)
    made.contents = [*clips, *strokes, *fills]
    return made


class Faded(Group):  # type: ignore[misc]
    """A shape or group drawn at an opacity as one (a transparency group), as SVG's `opacity` is."""

    def __init__(self, item: Any, opacity: float) -> None:
        super().__init__(item)
        self.__dict__["opacity"] = opacity


class Blended(Group):  # type: ignore[misc]
    """A shape or group drawn on its own (an isolated transparency group) and laid over what is under it by the
    PDF blend mode `mode` (`Multiply`...; `Normal` for a group that only isolates what it holds), as Chromium
    composites an element with `mix-blend-mode`, `isolation: isolate` or a clip path."""

    def __init__(self, item: Any, mode: str) -> None:
        super().__init__(item)
        self.__dict__["mode"] = mode


class PatternFill(Group):  # type: ignore[misc]
    """The tiles of a pattern that fill a shape (`tiles`, in the shape's units), drawn clipped to the shape's
    outline (`shape`, by the even-odd rule when `evenodd`), or, when `stroke`, where `shape` (a copy of the shape
    unfilled, with its stroke) strokes, by the PDF backend (generator.backends.pdf_art)."""

    def __init__(self, shape: Any, evenodd: bool, tiles: Any, stroke: bool = False) -> None:
        super().__init__(tiles)
        self.__dict__.update(shape=shape, evenodd=evenodd, stroke=stroke)

    def getBounds(self) -> Any:
        if self.stroke:  # the tiles, as far as the stroke reaches
            return super().getBounds()
        return self.shape.getBounds()  # what is drawn is inside the outline


def _tile_bands(contents: Any, width: float, height: float) -> list[tuple[float, float, float, float, Any]]:
    """The rectangles a pattern tile's drawing starts with (`contents`, in the tile's space once its transform is
    applied) that span the whole tile one way or both: a ground colour, Inkscape's stripes (a rect taller than its
    tile); each with its box in the tile's space (x0, y0, x1, y1). Each is painted once across the tiles, a strip
    down each column (across each row, or one rectangle under all), rather than once in each tile: a PDF reader
    smooths each tile's edges on its own, and where two tiles' pieces of one stripe or ground meet inside a pixel,
    each covering part of it, what is under them showed through both (a light seam along every tile edge, 1.3 %
    of a turned pattern's pixels in poppler and pdfium; Chromium draws a tile once and repeats its pixels). Only
    unstroked rectangles with square corners, from the first shape on (what is drawn over them stays over them)."""
    from reportlab.graphics.shapes import Rect

    a, b, c, d, e, f = (float(v) for v in contents.transform)
    found: list[tuple[float, float, float, float, Any]] = []
    if b or c:
        return found  # a turned or skewed tile's drawing (a viewBox gives none)
    for shape in contents.contents:
        if type(shape) is not Rect or shape.strokeColor is not None or float(shape.rx or 0) or \
                float(shape.ry or 0) or shape.fillColor is None:
            break
        x0, x1 = sorted((a * float(shape.x) + e, a * (float(shape.x) + float(shape.width)) + e))
        y0, y1 = sorted((d * float(shape.y) + f, d * (float(shape.y) + float(shape.height)) + f))
        across, down = x0 <= 0 and x1 >= width, y0 <= 0 and y1 >= height
        if not (across or down) or min(x1, width) <= max(x0, 0) or min(y1, height) <= max(y0, 0):
            break
        found.append((x0, y0, x1, y1, shape))
    return found


#: The shapes a pattern tile may draw across its edge (:func:`_tile_parts`): filled or stroked outlines, whose
#: copies are found by their geometry (not pictures, not groups that fade, blend or mask what they hold).
_WRAPPABLE = frozenset({"Rect", "Circle", "Ellipse", "Path", "NoStrokePath", "Polygon", "PolyLine", "Line"})
#: A shape's attributes that place it, moved with it when it is copied: its copies differ in these alone.
_POSITION = ("x", "y", "cx", "cy", "x1", "y1", "x2", "y2")


def _tile_parts(contents: Any, width: float, height: float) -> list[Any]:
    """A pattern tile's drawing (`contents`, whose transform places it in the tile) as each tile draws it: clipped
    to the tile, but for a shape that crosses the tile's edge where the tile also draws its copies at the other
    edges (Inkscape's polka dots, a stroked ring or a turned square written at both edges, so that the pieces make
    one): such a shape is drawn whole, over the edge, and its copies not at all. A PDF reader smooths each tile's
    cut on its own, and where the pieces of a dot met inside a pixel, what is under them showed through both (a
    light seam across every such dot); the whole shape has none. Only opaque shapes (two copies drawn over one
    another show a translucent one darker), and only where what the next tile draws under or over the copy stays
    so (nothing else drawn there before the copy in a tile drawn after this one, or after it in a tile drawn
    before)."""
    children = list(contents.contents)
    matrix = tuple(float(v) for v in contents.transform)
    found = [_placed_shape(child, matrix) for child in children]
    near = 1e-6 * max(width, height)
    whole: set[int] = set()
    dropped: set[int] = set()
    for index, one in enumerate(found):
        if one is None or index in dropped:
            continue
        key, (px, py), (x0, y0, x1, y1) = one
        # in tiles, from the tile's own (0): a shape reaching more than the next tiles is cut as before, told from
        # its box alone (a dot of radius 1e10 over tiles 7.5 wide spans 2.7 billion of them: listing them took the
        # machine's memory, and a box past any float a tile's width, none)
        reach = (x0 / width, x1 / width, y0 / height, y1 / height)
        if not all(-2 < v < 3 for v in reach):
            continue
        columns = range(math.floor(reach[0] + 1e-9), math.ceil(reach[1] - 1e-9))
        rows = range(math.floor(reach[2] + 1e-9), math.ceil(reach[3] - 1e-9))
        if len(columns) * len(rows) <= 1 or max(map(abs, (*columns, *rows))) > 1:
            continue  # inside the tile (clipped or not, the same), or over more than the next tiles
        copies: set[int] = set()
        for column in columns:
            for row in rows:
                if not (column or row):
                    continue
                at = next((other for other, seen in enumerate(found) if seen is not None and seen[0] == key and
                           other not in whole and abs(seen[1][0] - px + column * width) <= near and
                           abs(seen[1][1] - py + row * height) <= near), None)
                if at is None:
                    break
                # the part of the shape in that tile, where the copy is in this one
                cut = (max(x0 - column * width, 0.0), max(y0 - row * height, 0.0),
                       min(x1 - column * width, width), min(y1 - row * height, height))
                drawn_before = row < 0 or (row == 0 and column < 0)
                others = found[at + 1:] if drawn_before else found[:at]
                if any(other is None or (other[0] != key and _overlap(other[2], cut)) for other in others):
                    break
                copies.add(at)
            else:
                continue
            break
        else:
            whole.add(index)
            dropped |= copies
    if not whole:
        return [Group(_rectangle_clip(width, height), contents)]
    parts: list[Any] = []
    run: list[Any] = []
    for index, child in enumerate([*children, None]):
        if index in dropped:
            continue
        if child is not None and index not in whole:
            run.append(child)
            continue
        if run:
            held = Group(*run)
            held.transform = matrix
            parts.append(Group(_rectangle_clip(width, height), held))
            run = []
        if child is not None:
            held = Group(child)
            held.transform = matrix
            parts.append(held)
    return parts


def _tile_frame(child: Any, matrix: tuple[float, ...], width: float, height: float) -> tuple[float, Any] | None:
    """A shape of a pattern tile's drawing that frames the tile: an opaque unfilled rectangle stroked along the
    tile's edges (square corners, no dashes: a grid, graph paper), as half its stroke's width (in the tile's
    units) and its colour; None for any other shape. Each tile drew half of each side and the next tile the other
    half, which a PDF reader smoothed each on its own: a light seam along the middle of every line of the grid.
    :func:`_grid_lines` draws the lines whole instead."""
    from reportlab.graphics.shapes import Rect, mmult

    if type(child) is Group and len(child.contents) == 1:
        matrix = tuple(float(v) for v in mmult(matrix, child.transform))
        child = child.contents[0]
    a, b, c, d, e, f = matrix
    leaves: list[tuple[Any, tuple[float, ...]]] = []
    if type(child) is not Rect or child.fillColor is not None or child.strokeColor is None or b or c or \
            child.strokeDashArray or child.strokeLineJoin or float(child.strokeMiterLimit or 0) < math.sqrt(2) or \
            float(child.rx or 0) or float(child.ry or 0) or not _opaque_leaves(child, matrix, leaves) or \
            abs(a) != abs(d):
        return None
    x0, x1 = sorted((a * float(child.x) + e, a * (float(child.x) + float(child.width)) + e))
    y0, y1 = sorted((d * float(child.y) + f, d * (float(child.y) + float(child.height)) + f))
    near = 1e-6 * max(width, height)
    half = float(child.strokeWidth or 0) * abs(a) / 2
    if max(abs(x0), abs(y0), abs(x1 - width), abs(y1 - height)) > near or not 0 < half < min(width, height) / 4:
        return None
    return half, child.strokeColor


def _grid_lines(frame: tuple[float, Any], tile: tuple[float, float, float, float], columns: range,
                rows: range) -> list[Any]:
    """The lines of a grid the tiles' frame draws (:func:`_tile_frame`), each whole across the tiles: one down
    each edge of a column, one along each edge of a row (`tile`: x, y, width and height of the first)."""
    from reportlab.graphics.shapes import Rect

    half, colour = frame
    x, y, width, height = tile
    top, bottom = y + rows[0] * height - half, y + (rows[-1] + 1) * height + half
    left, right = x + columns[0] * width - half, x + (columns[-1] + 1) * width + half
    lines = [Rect(x + column * width - half, top, 2 * half, bottom - top) for column in
             range(columns[0], columns[-1] + 2)]
    lines += [Rect(left, y + row * height - half, right - left, 2 * half) for row in range(rows[0], rows[-1] + 2)]
    for line in lines:
        line.fillColor, line.strokeColor = colour, None
    return lines


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _placed_shape(node: Any, matrix: tuple[float, ...]) -> tuple[Any, tuple[float, float],
                                                                   tuple[float, float, float, float]] | None:
    """What :func:`_tile_parts` compares of a shape of a tile's drawing (`node`, under `matrix`): its form (a key
    equal for two copies of one shape, moved and nothing else), where it is in the tile, and the box it paints
    (its stroke's reach included); None for what is not an opaque shape or a plain group of them."""
    leaves: list[tuple[Any, tuple[float, ...]]] = []
    if not _opaque_leaves(node, matrix, leaves) or not leaves:
        return None
    placed = Group(node)
    placed.transform = matrix
    try:
        x0, y0, x1, y1 = (float(v) for v in placed.getBounds())
    except (TypeError, ValueError):  # a path of no points has no box
        return None
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
        return None
    reach = 0.0
    form = []
    origin: tuple[float, float] | None = None
    for leaf, (a, b, c, d, e, f) in leaves:
        properties = leaf.getProperties()
        lx, ly = (float(v) for v in leaf.getBounds()[:2])
        here = (a * lx + c * ly + e, b * lx + d * ly + f)
        if origin is None:
            origin = here
        if leaf.strokeColor is not None:
            scale = math.sqrt(max(a * a + b * b, c * c + d * d))
            each = 0.5 if type(leaf).__name__ in ("Circle", "Ellipse") else _MITER_LIMIT_REACH / 2
            reach = max(reach, float(leaf.strokeWidth or 0) * scale * each)
        for name in _POSITION:
            if name in properties:
                properties[name] = float(properties[name]) - (lx if name.startswith(("x", "cx")) else ly)
        if "points" in properties:
            properties["points"] = [float(v) - (ly if i % 2 else lx) for i, v in enumerate(properties["points"])]
        form.append((type(leaf).__name__, repr(sorted((k, repr(_rounded(v))) for k, v in properties.items())),
                     _rounded((a, b, c, d, here[0] - origin[0], here[1] - origin[1]))))
    assert origin is not None
    return tuple(form), origin, (x0 - reach, y0 - reach, x1 + reach, y1 + reach)


def _opaque_leaves(node: Any, matrix: tuple[float, ...], leaves: list[tuple[Any, tuple[float, ...]]]) -> bool:
    """Gathers the shapes `node` draws with their matrices into `leaves`; False when it holds what is not an
    opaque shape (a picture, text, a group that fades or is clipped, a translucent colour)."""
    from reportlab.graphics.shapes import mmult

    if type(node) is Group:
        inner = tuple(float(v) for v in mmult(matrix, node.transform))
        return all(not getattr(child, "isClipPath", 0) and _opaque_leaves(child, inner, leaves)
                   for child in node.contents)
    if type(node).__name__ not in _WRAPPABLE:
        return False
    for colour, opacity in (("fillColor", "fillOpacity"), ("strokeColor", "strokeOpacity")):
        paint = getattr(node, colour, None)
        alphas = (getattr(paint, "alpha", None), getattr(node, opacity, None))
        if paint is not None and any(alpha is not None and float(alpha) < 1 for alpha in alphas):
            return False
    leaves.append((node, matrix))
    return True


def _rounded(value: Any) -> Any:
    """Numbers rounded as far as two copies of one shape written by a drawing program agree."""
    if isinstance(value, float):
        return round(value, 6) + 0.0
    if isinstance(value, (list, tuple)):
        return tuple(_rounded(v) for v in value)
    return value


class Masked(Group):  # type: ignore[misc]
    """A shape or group drawn under a mask (`mask`: a group of the mask's contents cut to its region, in the
    element's user space), by the PDF backend (generator.backends.pdf_art) as the element's transparency group
    under a soft mask of the mask's luminance (`luminance`, SVG's default) or of its alpha (`mask-type: alpha`)."""

    def __init__(self, item: Any, mask: Any, luminance: bool) -> None:
        super().__init__(item)
        self.__dict__.update(mask=mask, luminance=luminance)


def _svg_box(node: Any) -> tuple[float, float, float, float] | None:
    """The bounding box SVG gives what svglib drew (`node`), in its parent's space: its shapes' outlines, without
    their strokes, markers and clip paths, a picture's viewport (SVG 2, 8.10: what a mask's objectBoundingBox units
    measure); None when it draws no shape."""
    if getattr(node, "isClipPath", 0) or node.__dict__.get("markers"):
        return None
    viewport = node.__dict__.get("viewport")  # a picture's box is its viewport (SVG 2, 5.5), not the part it fills
    if viewport is not None:
        return cast("tuple[float, float, float, float]", viewport)
    if isinstance(node, PatternFill):
        node = node.shape  # its tiles reach past the shape, and a stroke's past the outline
    if not isinstance(node, Group):
        try:
            found = node.getBounds()
        except (TypeError, ValueError, AttributeError, IndexError):
            return None
        return tuple(float(v) for v in found) if found else None  # type: ignore[return-value]
    boxes = [box for box in (_svg_box(child) for child in node.contents) if box is not None]
    if not boxes:
        return None
    x0, y0 = min(box[0] for box in boxes), min(box[1] for box in boxes)
    x1, y1 = max(box[2] for box in boxes), max(box[3] for box in boxes)
    a, b, c, d, e, f = (float(v) for v in (getattr(node, "transform", None) or _IDENTITY))
    xs = [a * x + c * y + e for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    ys = [b * x + d * y + f for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    return min(xs), min(ys), max(xs), max(ys)


def _holder(item: Any, shape: Any) -> Any:
    """The group of `item` (itself, or a group inside it) that holds `shape`; None when `item` is the shape."""
    stack = [item]
    while stack:
        group = stack.pop()
        if isinstance(group, Group):
            if any(child is shape for child in group.contents):
                return group
            stack.extend(group.contents)
    return None


def _rectangle_clip(width: float, height: float, x: float = 0.0, y: float = 0.0) -> Any:
    """A clip to the rectangle from (x, y), by default the origin, to (x + width, y + height): a pattern's tile, a
    marker's viewport, a mask's region."""
    from svglib.svglib import ClippingPath

    edge = ClippingPath()
    edge.moveTo(x, y)
    edge.lineTo(x + width, y)
    edge.lineTo(x + width, y + height)
    edge.lineTo(x, y + height)
    edge.closePath()
    edge.isClipPath = 1
    edge.fillColor = edge.strokeColor = None
    return edge


def _tiles_over(box: tuple[float, float, float, float], placed: tuple[float, ...],
                tile: tuple[float, float, float, float]) -> tuple[range, range]:
    """The columns and rows of tiles (numbered from the tile at x, y) that cover a shape's box, in the pattern's
    space (`placed`: its patternTransform; none when it flattens everything)."""
    a, b, c, d, e, f = placed
    det = a * d - b * c
    if det == 0 or not all(math.isfinite(v) for v in (det, *placed, *box, *tile)):
        return range(0), range(0)
    corners = [(box[0], box[1]), (box[0] + box[2], box[1]), (box[0], box[1] + box[3]),
               (box[0] + box[2], box[1] + box[3])]
    # each corner in the pattern's own space: the inverse of the transform
    inside = [((d * (px - e) - c * (py - f)) / det, (-b * (px - e) + a * (py - f)) / det) for px, py in corners]
    x, y, width, height = tile
    us = [point[0] for point in inside]
    vs = [point[1] for point in inside]
    limit = MAX_PATTERN_TILES + 1  # a count beyond it is refused; the ranges are not made longer than that
    first_column = math.floor((min(us) - x) / width)
    last_column = math.ceil((max(us) - x) / width)
    first_row = math.floor((min(vs) - y) / height)
    last_row = math.ceil((max(vs) - y) / height)
    columns = range(first_column, min(last_column, first_column + limit))
    rows = range(first_row, min(last_row, first_row + limit))
    return columns, rows


class GradientFill(DirectDraw):  # type: ignore[misc]
    """The gradient that fills a shape (svglib's definition of it, with its transform and focus), drawn by the
    PDF backend (generator.backends.pdf_art)."""

    def __init__(self, shape: Any, gradient: dict[str, Any], opacity: float, evenodd: bool) -> None:
        self.__dict__.update(shape=shape, gradient=gradient, opacity=opacity, evenodd=evenodd)

    def getBounds(self) -> Any:
        return self.shape.getBounds()

    def drawDirectly(self, renderer: Any) -> None:
        renderer.gradient(self)


def _settle(drawing: Any, lines: dict[int, int]) -> None:
    """Check every number the drawing holds and mend what a viewer draws differently from reportlab: a singular
    transform draws nothing; a dash array follows SVG's rules."""
    stack: list[tuple[Any, int]] = [(drawing, 0)]
    while stack:
        node, line = stack.pop()
        line = lines.get(id(node), line)
        if isinstance(node, GradientFill):
            _numbers(node.shape, line)
            continue
        if isinstance(node, Masked):
            stack.append((node.mask, line))
        if isinstance(node, Group):
            transform = getattr(node, "transform", None)
            if transform is not None:
                _finite("a transform", transform, line)
                a, b, c, d = transform[:4]
                if a * d - b * c == 0:  # a viewer draws nothing under a transform that flattens everything
                    node.contents = []
                    node.transform = (1, 0, 0, 1, 0, 0)
                    continue
            stack.extend((child, line) for child in node.contents)
            continue
        dashes = getattr(node, "strokeDashArray", None)
        if dashes:
            node.strokeDashArray = _dashes(dashes)
        _numbers(node, line)


def _numbers(node: Any, line: int) -> None:
    for key, value in vars(node).items():
        if key.startswith("_") or isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            _finite(key, (value,), line)
        elif isinstance(value, (list, tuple)) and value and all(isinstance(v, (int, float)) for v in value):
            _finite(key, value, line)


def _finite(what: str, values: Any, line: int) -> None:
    for value in values:
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            raise ArtProblem(_too_large(what, f"{value:g}"), line or None)


def _too_large(key: str, value: str) -> str:
    """A number of a drawn shape too large to draw, said of what holds it."""
    if key == "points":
        return phrase("a path holds the number {value}, too large to draw: {check}", value=value, check=phrase(_CHECK))
    if key == "transform":
        return phrase("a transform holds the number {value}, too large to draw: {check}", value=value,
                      check=phrase(_CHECK))
    if key == "strokeWidth":
        return phrase("a stroke's width holds the number {value}, too large to draw: {check}", value=value,
                      check=phrase(_CHECK))
    if key == "strokeDashArray":
        return phrase("a dash array holds the number {value}, too large to draw: {check}", value=value,
                      check=phrase(_CHECK))
    return phrase("a shape's {key} holds the number {value}, too large to draw: {check}", key=key, value=value,
                  check=phrase(_CHECK))


_CHECK = N_("check the element's size, position and transform")


def _dashes(value: Any) -> Any:
    """A dash array as SVG draws it: a negative, infinite or all-zero list is a solid line; an odd one repeats."""
    phase, dashes = (value[0], value[1]) if len(value) == 2 and isinstance(value[1], (list, tuple)) else (0, value)
    numbers = [float(v) for v in dashes if isinstance(v, (int, float))]
    if (len(numbers) != len(dashes) or not numbers or any(not math.isfinite(v) or v < 0 for v in numbers)
            or sum(numbers) <= 0 or not math.isfinite(float(phase))):
        return None
    if len(numbers) % 2:
        numbers += numbers
    phase = float(phase) % sum(numbers)  # a dash offset below zero starts that far back in the pattern, as in SVG
    return [phase, numbers] if phase else numbers
