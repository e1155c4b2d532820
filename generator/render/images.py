"""Pictures: the PNG, JPEG and SVG files a deck draws (its art, its own icons), read and checked before any
backend sees them.

A picture enters through :func:`generator.files.read_bytes` (a regular file, at most :data:`MAX_BYTES`), is
recognised by its first bytes (not its name) and checked:

- **PNG and JPEG**: Pillow reads the header for the size; a picture of more than :data:`MAX_PIXELS` pixels is
  refused before anything is decoded (a decompression bomb is a small file that unpacks into gigabytes). A PNG's
  chunks are checked against their checksums and its pixels are unpacked (:func:`_png_pixels`: the zlib stream
  whole, every row's filter known, as many rows as the header says), and a JPEG is decoded at an eighth of its
  size, so a truncated or damaged file is an error here, with its name, rather than a hole in a PDF (a PNG whose
  checksums are right can still hold broken pixels: the checksums are computed over what was written). A JPEG a
  camera saved turned (its EXIF orientation) is turned upright, as photo viewers show it (:func:`_upright`), and
  so is one embedded in SVG art as a `data:` URI (:func:`_upright_inside`), in every output; the clips of SVG
  art's viewports (symbols, nested drawings) are written out in what the SVG output carries
  (:func:`_clip_viewports`).
- **SVG**: parsed with the standard library's XML parser, after the flat entities of plain text its DOCTYPE may
  declare (Illustrator CS's namespaces) are put where they are referred to (:func:`_entities_expanded`, bounded;
  no other declaration is read: entities can expand without bound or read other files). Refused: a DOCTYPE that
  declares anything else (one that only names the SVG DTD, as Illustrator writes, is read), scripts,
  `foreignObject` (but for one requiring an extension no viewer has, which none draws: Illustrator's editing
  data), a reference to another file or to the web (an SVG must carry what it draws;
  `#id` and embedded `data:` PNG or JPEG pictures are fine), and text, which would need fonts that neither the PDF
  nor the SVG output carries (convert text to paths in the drawing program), unless no viewer draws it (a hidden
  layer, by its attribute, its style or a `<style>` rule: :func:`hidden_elements`). Each refusal names the element's
  line (:func:`_line_of`: the standard library's parser keeps none). A `<style>` is read as a browser printing
  reads it, the art at its own size (:func:`css_rules`, :func:`printed_stylesheet`: `@media print` applies, `screen`
  does not, `(min-width: 300px)` when the art is that wide: :func:`art_viewport`). Its size is
  its `width` and `height`, else its `viewBox`, finite and printable. Then :mod:`generator.render.svgart` reads it
  the way the PDF draws it: what it cannot draw as a viewer does is refused with its line, and what svglib logs
  becomes the picture's :attr:`ImageInfo.warnings`.

:func:`image_info` gives what layouts need (kind, size, aspect) and caches it by path, size and modification
time, so a picture used by a hundred cards is read once per build and a picture saved again is read anew
(`donjon build --watch`). The pixels themselves are never cached: :func:`image_data` reads and checks the file
again when a backend embeds it, once per document.
"""

from __future__ import annotations

import hashlib
import io
import math
import re
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from generator.errors import InputError
from generator.files import read_bytes
from generator.i18n import N_, messages_language, phrase, phrase_number
from generator.sayings import phrase_quoted
from generator.units import MM_PER_UNIT, PT_PER_MM

if TYPE_CHECKING:
    from xml.etree import ElementTree

    from PIL.Image import Image as PILImage

#: A PNG or JPEG file Pillow cannot read, and why (its own words, which donjon does not translate).
_DAMAGED = N_("it is a damaged {what} file ({reason})")
#: The largest picture file read: a 300 dpi A4 page as an uncompressed PNG is about 26 MiB.
MAX_BYTES = 64 * 1024 * 1024
#: The most pixels a picture may have: an A4 page at 600 dpi has 35 million; no card needs more, and a file
#: claiming more is refused before it is decoded.
MAX_PIXELS = 40_000_000
#: The most elements an SVG may hold. Detailed art has a few thousand; svglib reads an element in about half a
#: millisecond (it looks up every property through the element's ancestors), so this bounds a picture to a few
#: seconds.
MAX_SVG_ELEMENTS = 10_000
#: The largest size of an SVG picture, in points (a metre and a half): beyond it the art is a mistake (an
#: infinite or enormous viewBox), and its scale to a card's box would round to nothing.
MAX_SVG_SIZE = 4_000.0
#: The smallest: a thousandth of a point.
MIN_SVG_SIZE = 0.001
#: The most characters of CSS in an SVG's `<style>` elements: drawing programs write a few kilobytes
#: (:mod:`generator.render.svgart` refuses more).
MAX_STYLE = 100_000

Kind = Literal["png", "jpeg", "svg"]

_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG = b"\xff\xd8\xff"
_SVG_START = re.compile(rb"\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>\s*)*<svg[\s>]",
                        re.S)


class ImageProblem(Exception):
    """A picture that cannot be drawn; the message says why, and the caller names the card and the file."""


@dataclass(frozen=True, slots=True)
class ImageInfo:
    """A checked picture: its kind and its size (pixels for PNG and JPEG, points for SVG)."""

    path: Path
    kind: Kind
    width: float
    height: float
    #: the SHA-256 of the file's bytes (two identical files embed as one)
    digest: str
    #: what reading it noticed without refusing it (svglib's own messages about an SVG), for the user to see
    warnings: tuple[str, ...] = ()

    @property
    def aspect(self) -> float:
        """Width over height."""
        return self.width / self.height


_cache: dict[tuple[str, int, int, str], ImageInfo] = {}


def image_info(path: Path) -> ImageInfo:
    """The checked description of the picture at `path` (an absolute path), cached until the file changes."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise ImageProblem(phrase("there is no such file")) from None
    except OSError as err:
        raise ImageProblem(phrase("it cannot be read ({reason})", reason=err.strerror or err)) from None
    # and by the language of the messages: an SVG's warnings are said in it (`build --lang fr`)
    said = messages_language()
    key = (str(path), stat.st_size, stat.st_mtime_ns, said.code if said is not None else "")
    found = _cache.get(key)
    if found is None:
        found, _data = _read(path)
        _cache[key] = found
    return found


def image_data(path: Path) -> tuple[ImageInfo, bytes]:
    """The picture's description and its bytes, read and checked again (for a backend embedding it)."""
    return _read(path)


def clear_cache() -> None:
    """Forget what was read (a test, or a long-running watch that wants a clean slate)."""
    _cache.clear()
    _turned.clear()
    _grey8.clear()
    _upright_art.clear()
    _drawn.clear()


def _read(path: Path) -> tuple[ImageInfo, bytes]:
    try:
        data = read_bytes(path, str(path), max_bytes=MAX_BYTES)
    except InputError as err:
        raise ImageProblem(err.problem.message) from None
    digest = hashlib.sha256(data).hexdigest()
    if data.startswith(_PNG) or data.startswith(_JPEG):
        kind: Kind = "png" if data.startswith(_PNG) else "jpeg"
        width, height = raster_size(data, kind, digest)
        if kind == "jpeg":
            data, width, height = _upright(data, digest, width, height)
        elif data[24:26] == _GREY_16:
            data = _kept(_grey8, digest, lambda: _eight_bit_grey(data))
        return ImageInfo(path, kind, float(width), float(height), digest), data
    data = _entities_expanded(data)
    if _SVG_START.match(data[:4096]):
        from generator.render.svgart import read_art

        width_pt, height_pt = svg_size(data)
        data = _upright_inside(data, digest)
        art = read_art(data, digest)
        return ImageInfo(path, "svg", width_pt, height_pt, digest, art.warnings), _clip_viewports(data, digest)
    raise ImageProblem(phrase("it is not a PNG, JPEG or SVG file"))


def open_quietly(data: bytes) -> PILImage:
    """Pillow's picture of a PNG or JPEG file's bytes, opened with Pillow's warnings kept from the designer's
    terminal: it reads a file's EXIF as it opens it, and says so when the EXIF is damaged ("Corrupt EXIF data"),
    which changes nothing of the pixels drawn."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Image.open(io.BytesIO(data))


#: EXIF's Orientation tag (TIFF tag 274): how a camera says its JPEG is to be turned for showing (1: as stored; 2 to
#: 8: mirrored, turned by a half or a quarter turn, EXIF 2.32 section 4.6.5).
_ORIENTATION = 0x0112
#: The JPEGs turned upright by their file's digest, the last few (a PDF and every card's SVG of a build embed the
#: same picture; a long `--watch` does not grow without end).
_turned: OrderedDict[str, bytes] = OrderedDict()
_TURNED_KEPT = 8


def _kept(cache: OrderedDict[str, bytes], digest: str, make: Callable[[], bytes]) -> bytes:
    """What `make` gives for the file of `digest`, made once and kept among the last _TURNED_KEPT files in `cache`."""
    found = cache.get(digest)
    if found is not None:
        cache.move_to_end(digest)
        return found
    found = cache[digest] = make()
    while len(cache) > _TURNED_KEPT:
        cache.popitem(last=False)
    return found


def _upright(data: bytes, digest: str, width: int, height: int) -> tuple[bytes, int, int]:
    """A JPEG as photo viewers show it: one a camera saved turned (an EXIF orientation other than 1) is turned
    upright, encoded again with its own quantisation tables and sampling (no visible loss) and its colour profile,
    without the orientation; any other is returned as it is. The size is the upright picture's."""
    from PIL import Image, ImageOps, JpegImagePlugin

    with warnings.catch_warnings():
        # a damaged EXIF is read as far as it goes (Pillow reads it as the file opens), and Pillow's words about it
        # are not the designer's
        warnings.simplefilter("ignore")
        try:
            with Image.open(io.BytesIO(data)) as image:
                try:
                    orientation = image.getexif().get(_ORIENTATION, 1)
                except Exception:  # noqa: BLE001 - EXIF Pillow cannot read says nothing of the picture: as stored
                    orientation = 1
                if orientation not in range(2, 9):
                    return data, width, height

                def encoded() -> bytes:
                    upright = ImageOps.exif_transpose(image)
                    # a JPEG's header read: its tables (what Pillow's JpegImageFile holds; the file is one)
                    options: dict[str, object] = {"qtables": getattr(image, "quantization", None),
                                                  "optimize": False}
                    sampling = JpegImagePlugin.get_sampling(image)
                    if sampling != -1:
                        options["subsampling"] = sampling
                    if image.info.get("icc_profile"):
                        options["icc_profile"] = image.info["icc_profile"]
                    buffer = io.BytesIO()
                    upright.save(buffer, "JPEG", **options)
                    return buffer.getvalue()

                turned = _kept(_turned, digest, encoded)
        except (OSError, SyntaxError, ValueError, EOFError) as err:
            raise ImageProblem(phrase(_DAMAGED, what="JPEG", reason=str(err))) from None
    return turned, *((height, width) if orientation >= 5 else (width, height))


#: A PNG's bit depth and colour type (bytes 24 and 25 of the file, in its IHDR chunk; PNG specification 11.2.2)
#: when it is grey in 16 bits, which Pillow opens as 16-bit integers (mode I;16) and converts to 8-bit colours by
#: clipping: every grey lighter than 1/256 of white printed white, and a transparent grey opaque.
_GREY_16 = bytes((16, 0))
#: Such PNGs in 8 bits, by the file's digest, the last few (as :data:`_turned`).
_grey8: OrderedDict[str, bytes] = OrderedDict()


def _eight_bit_grey(data: bytes) -> bytes:
    """A 16-bit grey PNG (a "16 bits per channel" export of Photoshop, Krita or GIMP) as an 8-bit one, each grey
    scaled by 255/65535 (PNG specification 12.5, "Sample depth scaling", read the other way), its transparent grey
    (tRNS) as an alpha channel, its colour profile kept: the PDF, the PNG export and the SVG output then all show
    its greys (librsvg and browsers read 16 bits; reportlab's path through Pillow did not)."""
    from PIL import Image

    with open_quietly(data) as image:
        wide = image.convert("I")
        grey = wide.point([round(v / 257) for v in range(65536)], "L")
        transparent = image.info.get("transparency")
        profile = image.info.get("icc_profile")
    if isinstance(transparent, int):
        grey = Image.merge("LA", (grey, wide.point([0 if v == transparent else 255 for v in range(65536)], "L")))
    out = io.BytesIO()
    grey.save(out, "PNG", compress_level=6, **({"icc_profile": profile} if profile else {}))
    return out.getvalue()


#: A PNG or JPEG picture held in SVG art as a `data:` URI, up to the quote that ends its attribute (base64 wrapped
#: over lines, as some programs write it, included).
_INSIDE = re.compile(rb"(data:image/(?:png|jpeg|jpg);base64,)([A-Za-z0-9+/=\s]+)(?=[\"'])")
#: SVG art with its photos turned upright (:func:`_upright_inside`), and with the clips of its viewports written
#: out too (:func:`_clip_viewports`), by the file's digest, the last few (as :data:`_turned`).
_upright_art: OrderedDict[str, bytes] = OrderedDict()
_drawn: OrderedDict[str, bytes] = OrderedDict()


def _clip_viewports(data: bytes, digest: str) -> bytes:
    """SVG art with the clips of its viewports written out (:func:`generator.render.svgart.clip_viewports`), as the
    SVG output carries it and the PDF draws it; cached by the file's digest."""
    from generator.render.svgart import clip_viewports

    return _kept(_drawn, digest, lambda: clip_viewports(data))


def _upright_inside(data: bytes, digest: str) -> bytes:
    """SVG art with each JPEG it embeds (a `data:` URI) turned upright as :func:`_upright` turns a JPEG file: browsers
    turn such a photo as its EXIF orientation says, librsvg and svglib do not, so the same art showed it two ways;
    turned once here, the PDF, the PNG export and the SVG output (which carries these bytes) all show it upright,
    and no viewer turns it again (the orientation is gone). A 16-bit grey PNG it embeds is made 8 bits as a PNG file
    is (:func:`_eight_bit_grey`: the PDF printed it white). Art without such a photo is returned as it is; a
    picture that cannot be read is left for :mod:`generator.render.svgart` to name."""
    if b"data:image/" not in data:
        return data
    import base64
    import binascii

    def turned(match: re.Match[bytes]) -> bytes:
        try:
            picture = base64.b64decode(re.sub(rb"\s+", b"", match.group(2)), validate=True)
        except (binascii.Error, ValueError):
            return match.group(0)
        if picture.startswith(_PNG) and picture[24:26] == _GREY_16:  # (as a PNG file is: _eight_bit_grey)
            try:
                upright, kind = _eight_bit_grey(picture), b"png"
            except (OSError, SyntaxError, ValueError, EOFError):
                return match.group(0)
        elif picture.startswith(_JPEG):
            try:
                upright, _width, _height = _upright(picture, hashlib.sha256(picture).hexdigest(), 0, 0)
            except ImageProblem:
                return match.group(0)
            kind = b"jpeg"
        else:
            return match.group(0)
        if upright is picture:
            return match.group(0)
        # wrapped over as many lines as it was, so the lines of the art after it stay where they were (the
        # messages about the art name them)
        encoded = base64.b64encode(upright)
        lines = match.group(2).count(b"\n") + 1
        step = -(-len(encoded) // lines)
        return (b"data:image/" + kind + b";base64,"
                + b"\n".join(encoded[at:at + step] for at in range(0, step * lines, step)))

    return _kept(_upright_art, digest, lambda: _INSIDE.sub(turned, data))


#: The size of each PNG or JPEG file found whole, by the digest of its bytes: a file read again to be embedded (a
#: picture a hundred cards show, in the PDF and in every card's SVG) is neither opened by Pillow nor unpacked again,
#: its bytes being those already checked. Bounded, for a long `--watch`.
_whole: dict[str, tuple[int, int]] = {}
_WHOLE_KEPT = 4096


def raster_size(data: bytes, kind: Kind, digest: str | None = None) -> tuple[int, int]:
    """The size in pixels of a PNG or JPEG file's bytes, checked whole (see the module's notes). `digest`: the
    SHA-256 of `data`, under which a file checked once is known again."""
    if digest is not None:
        found = _whole.get(digest)
        if found is not None:
            return found
    width, height = _raster_size(data, kind)
    if kind == "png":
        _png_pixels(data)
    if digest is not None:
        if len(_whole) >= _WHOLE_KEPT:
            _whole.clear()
        _whole[digest] = (width, height)
    return width, height


#: The channels of each PNG colour type (grey, RGB, palette, grey and alpha, RGBA; PNG specification 11.2.2).
_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
#: How much a PNG's pixel stream is unpacked at a time (bounded memory, whatever the picture's size).
_PNG_STEP = 1 << 20


def _png_pixels(data: bytes) -> None:
    """Unpack a PNG's pixel stream (its IDAT chunks, whose checksums Pillow checked) and check it is whole: a
    zlib stream that ends, a known filter at the head of every row (PNG specification 9.2: 0 to 4), and as many
    rows as its header promises. Interlaced pictures are decoded by Pillow instead (seven passes of rows)."""
    import struct
    import zlib

    pos, header, idat = 8, b"", []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            header = data[pos + 8:pos + 8 + length]
        elif kind == b"IDAT":
            idat.append(data[pos + 8:pos + 8 + length])
        elif kind == b"IEND":
            break
        pos += 12 + length
    if len(header) != 13 or not idat:
        raise ImageProblem(phrase("it is a damaged PNG file (it has no pixel data)"))
    width, height, depth, colour, _compression, _filter, interlace = struct.unpack(">IIBBBBB", header)
    if interlace or colour not in _PNG_CHANNELS:
        _pillow_decode(data)
        return
    stride = (width * _PNG_CHANNELS[colour] * depth + 7) // 8 + 1  # a row: its filter byte, then its pixels
    expected = stride * height
    unpack = zlib.decompressobj()
    done = 0
    try:
        for chunk in idat:
            pending = chunk
            while pending and done < expected:
                out = unpack.decompress(pending, _PNG_STEP)
                pending = unpack.unconsumed_tail
                # the filter bytes of the rows that begin in this piece
                first = -(-done // stride) * stride
                for at in range(first, done + len(out), stride):
                    if out[at - done] > 4:
                        raise ImageProblem(phrase("it is a damaged PNG file (row {row} of its pixels has an unknown "
                                                  "filter, {filter})", row=at // stride + 1,
                                                  filter=str(out[at - done])))
                done += len(out)
                if not out:
                    break
            if done >= expected:
                break
    except zlib.error as err:
        raise ImageProblem(phrase("it is a damaged PNG file (its pixel data cannot be unpacked: {reason})",
                                  reason=str(err))) from None
    if done < expected:
        rows = done // stride
        raise ImageProblem(phrase("it is a damaged PNG file (its pixel data ends after {rows} of its {height} rows)",
                                  rows=rows, height=height))


def _pillow_decode(data: bytes) -> None:
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
    except (OSError, SyntaxError, ValueError, EOFError) as err:
        raise ImageProblem(phrase(_DAMAGED, what="PNG", reason=str(err))) from None


def _raster_size(data: bytes, kind: Kind) -> tuple[int, int]:
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            # Pillow warns of a bomb when the file opens (the limit below, lower than Pillow's, says why), and of a
            # damaged EXIF, which it reads past: neither is for the designer's terminal
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                if width < 1 or height < 1:
                    raise ImageProblem(phrase("it is {width} x {height} pixels: it has no picture", width=width,
                                              height=height))
                if width * height > MAX_PIXELS:
                    raise ImageProblem(phrase("it is {width} x {height} pixels ({millions} million), more than the "
                                              "{most} million donjon reads: a picture that large is a decompression "
                                              "bomb or far more than a card needs (300 dpi is plenty)", width=width,
                                              height=height, millions=round(width * height / 1e6),
                                              most=MAX_PIXELS // 1_000_000))
                if kind == "jpeg":
                    image.draft("RGB", (max(1, width // 8), max(1, height // 8)))
                    image.load()
                else:
                    image.verify()
    except ImageProblem:
        raise
    except Image.DecompressionBombError as err:
        raise ImageProblem(phrase("it is a decompression bomb: it unpacks into more pixels than donjon reads "
                                  "({reason})", reason=str(err))) from None
    except UnidentifiedImageError:
        what = "PNG" if kind == "png" else "JPEG"
        raise ImageProblem(phrase("it is a damaged {what} file (its header cannot be read)", what=what)) from None
    except (OSError, SyntaxError, ValueError, EOFError) as err:
        what = "PNG" if kind == "png" else "JPEG"
        raise ImageProblem(phrase(_DAMAGED, what=what, reason=str(err))) from None
    return width, height


# --- SVG ------------------------------------------------------------------------------------------------------------

_SVG_NS = "{http://www.w3.org/2000/svg}"
#: Elements that do not draw a picture from what the file holds: refused, with why.
_REFUSED = {
    "script": N_("a script"),
    "foreignObject": N_("a foreignObject (HTML inside the SVG)"),
    "text": "text",
    "tspan": "text",
    "textPath": "text",
}
#: What an href may point at: an element of the same file, or a PNG or JPEG picture embedded in it.
#: The address of a web page or a mail an <a> of the art may link to (no script, no file: `javascript:`, `file:`...).
_WEB_LINK = re.compile(r"(https?://|mailto:)[^\s]*\Z", re.I)
_LOCAL_REF = re.compile(r"#[^\s]*|data:image/(png|jpeg|jpg);base64,[A-Za-z0-9+/=\s]*", re.S)
_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]*)", re.I)
_LENGTH = re.compile(r"\s*(\d+(?:\.\d+)?|\.\d+)\s*(px|pt|mm|cm|in)?\s*")
#: A DOCTYPE that only names a DTD, as Illustrator writes (`<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "...">`):
#: it declares nothing, and no parser here fetches the DTD, so it is read; one with declarations of its own (`[...]`)
#: is refused.
_PLAIN_DOCTYPE = re.compile(rb"""<!DOCTYPE\s+svg(?:\s+PUBLIC\s+("[^"<>\[]*"|'[^'<>\[]*')\s+("[^"<>\[]*"|'[^'<>\[]*')"""
                            rb"""|\s+SYSTEM\s+("[^"<>\[]*"|'[^'<>\[]*'))?\s*>""")
#: CSS pixels per point: a CSS pixel is 1/96 in, a point 1/72 in.
_PX_PER_PT = 96 / 72

#: The most entities a DOCTYPE may declare for donjon to read it: Illustrator CS declares one for each namespace it
#: writes, a dozen at most.
MAX_ENTITIES = 64
#: The longest value such an entity may have, in bytes: a namespace's name is some 50.
MAX_ENTITY_VALUE = 1_000
#: The most bytes the references to entities may add to a file, all together: Illustrator refers to a namespace
#: once in the <svg> element and once in each of its <foreignObject> (one per layer or object it keeps editable),
#: a few kilobytes; a megabyte bounds a file of references to the longest values (which would otherwise expand
#: 300-fold).
MAX_ENTITY_TEXT = 1_000_000
#: A DOCTYPE with declarations of its own (an internal subset), up to the `[` that opens them, at the start of a file
#: (after an XML declaration and comments, as Illustrator writes them).
_LITERAL = rb"""(?:"[^"]*"|'[^']*')"""
_SUBSET = re.compile(rb"(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<!DOCTYPE\s+[A-Za-z_:][\w.:-]*"
                     rb"(?:\s+PUBLIC\s+" + _LITERAL + rb"\s+" + _LITERAL + rb"|\s+SYSTEM\s+" + _LITERAL
                     + rb")?\s*\[", re.S)
#: What the declarations may hold, one at a time: white space, a comment, a general entity whose value is quoted
#: text, or the end of the declarations. Anything else (a parameter entity `%`, an external one `SYSTEM` or
#: `PUBLIC`, an element or attribute list declaration, a processing instruction) is refused.
_DECLARATION = re.compile(rb"\s+|<!--(?:[^-]|-(?!-))*-->|<!ENTITY\s+([A-Za-z_][\w.-]*)\s+(" + _LITERAL
                          + rb")\s*>|(\]\s*>)")
#: What an entity's value may not hold to be plain text: markup (`<`), a reference to an entity or a character
#: (`&`), to a parameter entity (`%`), or a control character (a line break too: the lines of the file stay put).
_NOT_PLAIN = re.compile(rb"[<&%\x00-\x08\x0a-\x1f\x7f]")
#: The entities XML itself defines: never declared again here, never replaced.
_PREDEFINED = frozenset({b"lt", b"gt", b"amp", b"quot", b"apos"})
#: In the document after the DOCTYPE: a reference to a general entity, or the start of a comment, a CDATA section or
#: a processing instruction, where `&name;` is no reference (each skipped to its end, :data:`_CLOSING`).
_REFERENCE = re.compile(rb"&([A-Za-z_][\w.-]*);|<!--|<!\[CDATA\[|<\?")
_CLOSING = {b"<!--": b"-->", b"<![CDATA[": b"]]>", b"<?": b"?>"}
#: How much of a declaration donjon does not read its message quotes: enough to recognise it.
_SHOWN_DECLARATION = 60
_SAVE_PLAIN = N_("save it again as plain SVG (Inkscape: File > Save As... > Plain SVG; Illustrator: File > Export > "
                 "Export As... > SVG)")


def _entities_expanded(data: bytes) -> bytes:
    """An SVG whose DOCTYPE declares entities (Illustrator CS declares its namespaces so, `<!ENTITY ns_svg
    "http://www.w3.org/2000/svg">`, and writes `xmlns="&ns_svg;"`) with every reference to them replaced by its
    value, and the declarations left out (their lines kept, empty), so no parser after sees an entity: only flat
    entities are read, each value plain text (no markup, no reference to another entity, so nothing expands more
    than once: no "billion laughs"), none external (nothing is fetched or read from another file), at most
    :data:`MAX_ENTITIES` of at most :data:`MAX_ENTITY_VALUE` bytes, adding at most :data:`MAX_ENTITY_TEXT` bytes to
    the file. Any other declaration is refused, with its line. A file without declarations is returned as it is."""
    start = _SUBSET.match(data[:65536])
    if start is None:
        return data
    from generator.render.svgart import ArtProblem

    values: dict[bytes, bytes] = {}
    at = start.end()
    while True:
        found = _DECLARATION.match(data, at)
        line = data.count(b"\n", 0, at) + 1 if found is None or found.group(1) is not None else 0
        if found is None and at >= len(data):
            raise ArtProblem(phrase("its DOCTYPE's declarations do not end (no `]>`): it is not well-formed SVG"),
                             line)
        if found is None:
            what = data[at:at + _SHOWN_DECLARATION].decode("utf-8", "replace")
            what = what[:what.index(">") + 1] if ">" in what else f"{what}…"
            raise ArtProblem(phrase("its DOCTYPE declares {what}, which donjon does not read (only entities whose "
                                    "value is plain text, as Illustrator declares its namespaces): {save}",
                                    what=phrase_quoted(what, None), save=phrase(_SAVE_PLAIN)), line)
        at = found.end()
        if found.group(3) is not None:
            break
        name = found.group(1)
        if name is None:
            continue  # white space or a comment
        value = found.group(2)[1:-1]
        shown = name.decode("ascii")
        if name in _PREDEFINED or name in values:
            twice = (N_("its DOCTYPE declares XML's own entity {name} again, which donjon does not read: {save}")
                     if name in _PREDEFINED else
                     N_("its DOCTYPE declares the entity {name} twice, which donjon does not read: {save}"))
            raise ArtProblem(phrase(twice, name=phrase_quoted(shown, None), save=phrase(_SAVE_PLAIN)), line)
        if _NOT_PLAIN.search(value):
            raise ArtProblem(phrase("its DOCTYPE declares the entity {name} with markup, references or line breaks "
                                    "in its value, which donjon does not read (only plain text, as Illustrator "
                                    "declares its namespaces): {save}", name=phrase_quoted(shown, None),
                                    save=phrase(_SAVE_PLAIN)), line)
        if len(value) > MAX_ENTITY_VALUE:
            raise ArtProblem(phrase("its DOCTYPE declares the entity {name} with a value of {size} bytes, more than "
                                    "the {most} donjon reads: {save}", name=phrase_quoted(shown, None),
                                    size=phrase_number(len(value)), most=phrase_number(MAX_ENTITY_VALUE),
                                    save=phrase(_SAVE_PLAIN)), line)
        if len(values) == MAX_ENTITIES:
            raise ArtProblem(phrase("its DOCTYPE declares more than {most} entities, more than donjon reads: {save}",
                                    most=str(MAX_ENTITIES), save=phrase(_SAVE_PLAIN)), line)
        values[name] = value
    # a value's quotes written as references, so it reads the same inside an attribute quoted either way
    escaped = {name: value.replace(b'"', b"&quot;").replace(b"'", b"&apos;") for name, value in values.items()}
    lines = data.count(b"\n", start.end(), at)
    parts = [data[:start.end() - 1], b"\n" * lines, b">"]
    added = 0
    for begin, end, name in _references(data, at):
        value = escaped.get(name)
        if value is None:
            continue  # one XML defines, or one undeclared (the parser names it)
        added += len(value)
        if added > MAX_ENTITY_TEXT:
            raise ArtProblem(phrase("its references to the entities its DOCTYPE declares add more than the {most} "
                                    "bytes donjon reads: {save}", most=phrase_number(MAX_ENTITY_TEXT),
                                    save=phrase(_SAVE_PLAIN)))
        parts += [data[at:begin], value]
        at = end
    parts.append(data[at:])
    return b"".join(parts)


def _references(data: bytes, at: int) -> Iterator[tuple[int, int, bytes]]:
    """Where each reference to a general entity is in `data` from `at` on (its start, its end and its name), passing
    over comments, CDATA sections and processing instructions; in one pass (what is not closed ends the search:
    the parser refuses the file)."""
    while True:
        found = _REFERENCE.search(data, at)
        if found is None:
            return
        if found.group(1) is not None:
            yield found.start(), found.end(), found.group(1)
            at = found.end()
            continue
        closing = _CLOSING[found.group(0)]
        end = data.find(closing, found.end())
        if end < 0:
            return
        at = end + len(closing)


def svg_size(data: bytes) -> tuple[float, float]:
    """Check an SVG (see the module's notes) and give its size in points."""
    from xml.etree import ElementTree

    head = data[:65536]
    doctype = head.find(b"<!DOCTYPE")
    if b"<!ENTITY" in data or (doctype >= 0 and not _PLAIN_DOCTYPE.match(head, doctype)):
        raise ImageProblem(phrase("it declares a DOCTYPE donjon does not read (one naming the SVG DTD, with entities "
                                  "of plain text at most, is read): {save}", save=phrase(_SAVE_PLAIN)))
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as err:
        raise ImageProblem(phrase("it is not well-formed SVG ({reason})", reason=str(err))) from None
    if root.tag not in (f"{_SVG_NS}svg", "svg"):
        raise ImageProblem(phrase("its root element is <{tag}>, not <svg>", tag=root.tag.rpartition('}')[2]))
    count = 0
    hidden: list[set[Any]] = []

    def found_hidden() -> set[Any]:
        if not hidden:
            hidden.append(hidden_elements(root))
        return hidden[0]

    for element in root.iter():
        count += 1
        if count > MAX_SVG_ELEMENTS:
            raise ImageProblem(phrase("it holds more than {most} elements, more than donjon draws in a picture: "
                                      "simplify it (Inkscape: Path > Combine joins shapes of one colour, Path > "
                                      "Simplify drops points), or make a bitmap copy of its busiest part",
                                      most=phrase_number(MAX_SVG_ELEMENTS)))
        problem = _element_problem(element, found_hidden)
        if problem is not None:
            line = _line_of(data, count)
            raise ImageProblem(phrase("line {line}: {message}", line=str(line), message=problem) if line else problem)
    width, height = _dimension(root.get("width")), _dimension(root.get("height"))
    if width is None or height is None:
        box = (root.get("viewBox") or "").replace(",", " ").split()
        try:
            numbers = [float(part) for part in box]
        except ValueError:
            numbers = []
        if len(numbers) != 4:
            raise ImageProblem(phrase("it has no size: give its <svg> element a viewBox (or a width and a height)"))
        width, height = numbers[2] / _PX_PER_PT, numbers[3] / _PX_PER_PT
    if not (width > 0 and height > 0):
        raise ImageProblem(phrase("its size is {width} x {height}: it has no picture", width=format(width, "g"),
                                  height=format(height, "g")))
    if not (MIN_SVG_SIZE <= width <= MAX_SVG_SIZE and MIN_SVG_SIZE <= height <= MAX_SVG_SIZE):
        raise ImageProblem(phrase("its size is {width} x {height} pt, beyond what donjon draws ({least} to {most} pt "
                                  "a side): give its <svg> element a sensible width, height or viewBox",
                                  width=format(width, "g"), height=format(height, "g"),
                                  least=format(MIN_SVG_SIZE, "g"), most=format(MAX_SVG_SIZE, "g")))
    return width, height


def _element_problem(element: ElementTree.Element, hidden: Callable[[], set[Any]]) -> str | None:
    """What is wrong with one element of an SVG (see the module's notes), or None; the caller names its line.
    `hidden` gives the elements no viewer draws (:func:`hidden_elements`), found when first needed."""
    tag = element.tag.rpartition("}")[2] if isinstance(element.tag, str) else ""
    if tag in _REFUSED and _REFUSED[tag] == "text" and element in hidden():
        return None  # drawn by no viewer (a hidden layer of notes): no font is needed
    if tag in _REFUSED and not _never_drawn(element):
        if _REFUSED[tag] != "text":
            return phrase("it holds {what}, which card art may not", what=phrase(_REFUSED[tag]))
        return phrase("it holds text, which card art may not: convert text to paths in your drawing program "
                      "(Inkscape: Path > Object to Path)") + _which_text(element)
    for name, value in element.attrib.items():
        local = name.rpartition("}")[2]
        if local == "href" and tag == "a" and _WEB_LINK.match(value.strip()):
            continue  # a link (Inkscape: Create Link) is followed, not drawn: viewers draw what it holds
        if local == "href" and not _LOCAL_REF.fullmatch(value.strip()):
            return phrase("<{tag}> refers to {value}: an SVG must hold what it draws (embed pictures as data: PNG or "
                          "JPEG, refer only to #ids of the same file)", tag=tag, value=phrase_quoted(value[:60], None))
        if local.startswith("on"):
            return phrase("<{tag}> has an event handler ({name}), which card art may not", tag=tag, name=local)
        problem = _url_problem(value, tag)
        if problem:
            return problem
    if tag == "style" and element.text:
        if "@import" in element.text:
            return phrase("its <style> imports another file; an SVG must hold what it draws")
        return _url_problem(element.text, tag)
    return None


def _line_of(data: bytes, index: int) -> int | None:
    """The line of the file where its `index`-th element (1 for the root, in document order, as the standard
    library's parser counts them) begins: that parser keeps no lines, so the file is read again by lxml, which
    does, for the message only."""
    from lxml import etree

    parser = etree.XMLParser(remove_comments=True, remove_pis=True, resolve_entities=False, no_network=True,
                             huge_tree=False)
    try:
        root = etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError:
        return None
    for count, element in enumerate((found for found in root.iter() if isinstance(found.tag, str)), start=1):
        if count == index:
            return int(element.sourceline) if element.sourceline else None
    return None


#: A reference to an element of the file, in an attribute or a stylesheet: `url(#id)`.
_URL_ID = re.compile(r"url\(\s*['\"]?#([^)'\"\s]+)")


def hidden_elements(root: Any) -> set[Any]:
    """The elements of an SVG no viewer draws, whose text or effects need nothing of the PDF (the standard
    library's tree or lxml's): an element whose `display` is `none` (its attribute, its style or a `<style>` rule,
    as Inkscape and Figma hide a layer) and all it holds; and an element whose `visibility` is `hidden` or
    `collapse` (its own or inherited) and all it holds, unless something in it says `visible` again. Either is kept
    whole when the file refers to something in it (a <use> shows what it refers to whatever its ancestors say, a
    gradient or a clip path is used hidden or not)."""
    referred: set[str] = set()
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name, value in element.attrib.items():
            if name.rpartition("}")[2] == "href" and value.strip().startswith("#"):
                referred.add(value.strip()[1:])
            elif "url(" in value:
                referred.update(_URL_ID.findall(value))
        if element.tag.rpartition("}")[2] == "style" and element.text:
            referred.update(_URL_ID.findall(element.text))
    cascade = Cascade(root, ("display", "visibility"))
    shown_again: set[Any] | None = None
    hidden: set[Any] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        element, unseen = stack.pop()
        if not isinstance(element.tag, str):
            continue
        if element.tag.rpartition("}")[2] in _VISIBLE:
            visibility = (cascade.value(element, "visibility") or "inherit").lower()
            if visibility != "inherit":
                unseen = visibility in ("hidden", "collapse")
        if unseen and shown_again is None:
            shown_again = _shown_again(root, cascade)
        if (cascade.value(element, "display") or "").lower() == "none" or (
                unseen and shown_again is not None and element not in shown_again):
            held = [found for found in element.iter() if isinstance(found.tag, str)]
            if not any(found.get("id") in referred for found in held if found.get("id")):
                hidden.update(held)
                continue
        stack.extend((child, unseen) for child in element)
    return hidden


def _shown_again(root: Any, cascade: Cascade) -> set[Any]:
    """The elements that say `visibility: visible` again, and all that hold one (found once, from each up to the
    root); and every <use>, whose copy may say `visible` again where it stands elsewhere (svglib follows visibility
    through it), with all that holds it."""
    parents = {child: parent for parent in root.iter() for child in parent}
    shown: set[Any] = set()
    for element in root.iter():
        local = element.tag.rpartition("}")[2] if isinstance(element.tag, str) else ""
        if local == "use" or (local in _VISIBLE and (cascade.value(element, "visibility") or "").lower() == "visible"):
            while element is not None and element not in shown:
                shown.add(element)
                element = parents.get(element)
    return shown


#: The elements `visibility` hides (SVG 1.1, 11.5: what draws, and what holds what draws); it says nothing of the
#: others (a gradient's stops, a clip path's definition).
_VISIBLE = frozenset({"svg", "g", "a", "switch", "use", "path", "rect", "circle", "ellipse", "line", "polyline",
                      "polygon", "text", "tspan", "textPath", "image", "foreignObject"})


#: How a declaration says it is `!important`, at its end (CSS Syntax 3, 5.4.6: `!` and `important` in any case, white
#: space between allowed).
_IMPORTANT = re.compile(r"!\s*important\s*$", re.I)


def style_declarations(text: str) -> list[tuple[str, str, bool]]:
    """The declarations of a `style` attribute, in order: each its name in lower case, its value (`!important` left
    out) and whether it was `!important`. The one reader of a style: the check, the cascade (:func:`cascaded`) and
    the drawing read a style alike (a `! important` written with a space, or in capitals, was part of the value to
    one reader and a flag to another)."""
    out = []
    for part in text.split(";"):
        name, colon, value = part.partition(":")
        if colon and name.strip():
            value = value.strip()
            flagged = _IMPORTANT.search(value)
            out.append((name.strip().lower(), value[:flagged.start()].strip() if flagged else value, bool(flagged)))
    return out


def cascaded(rules: list[tuple[str, str, bool]], style: str) -> list[tuple[str, str]]:
    """An element's declarations in the order CSS ranks them, the last of a name winning (CSS Cascade 4, 6.1: an
    element's own style outranks the stylesheet's rules, and `!important` reverses that): the stylesheet's plain
    rules (`rules`, :meth:`Cascade.declared`), the style's plain declarations, the stylesheet's `!important` rules,
    the style's `!important` ones."""
    parts = style_declarations(style)
    return ([(name, value) for name, value, important in rules if not important]
            + [(name, value) for name, value, important in parts if not important]
            + [(name, value) for name, value, important in rules if important]
            + [(name, value) for name, value, important in parts if important])


class Cascade:
    """The value some properties are given to each element of an SVG (the standard library's tree or lxml's), as CSS
    cascades them: a `<style>` rule marked `!important`, then the element's `style`, then the stylesheet's other
    rules (the most specific, then the last written), then its presentation attribute. None when nothing sets it
    (`inherit` is returned as written: the caller knows what its property inherits). A stylesheet beyond
    :data:`MAX_STYLE` is not read (:mod:`generator.render.svgart` refuses the file)."""

    def __init__(self, root: Any, names: tuple[str, ...] | None, sheets_of: Any = None) -> None:
        """`names`: the properties asked for, or None for every property (:meth:`declared`). The stylesheet is read
        when first asked, from the `<style>` elements of `sheets_of` (the drawing a tree apart from it, `root`,
        was copied from), else of `root`."""
        self.root = root
        self.sheets_of = root if sheets_of is None else sheets_of
        self.names = names
        self.matcher: Any = None
        self.wrappers: dict[Any, Any] | None = None
        self.found: dict[Any, list[tuple[str, str, bool]]] = {}

    def _read(self) -> dict[Any, Any]:
        """The wrappers of the elements cssselect2 matches, by element (none when no rule sets a property asked)."""
        self.wrappers = {}
        names = self.names
        sheets = [element.text for element in self.sheets_of.iter() if isinstance(element.tag, str)
                  and element.tag.rpartition("}")[2] == "style" and element.text
                  and (names is None or any(name in element.text for name in names))]
        if not sheets or sum(len(text) for text in sheets) > MAX_STYLE:
            return self.wrappers
        import cssselect2

        matcher = cssselect2.Matcher()
        added = 0
        viewport = art_viewport(self.sheets_of)
        for text in sheets:
            for prelude, declarations in css_rules(text, viewport):
                kept = [(name, value, important) for name, value, _line, important in declarations
                        if names is None or name in names]
                if not kept:
                    continue
                if self.sheets_of is not self.root:
                    prelude = _outside_root(prelude)
                try:
                    selectors = cssselect2.compile_selector_list(prelude)
                except cssselect2.SelectorError:
                    continue  # a selector no viewer reads either
                for selector in selectors:
                    matcher.add_selector(selector, kept)
                    added += 1
        if added:
            self.matcher = matcher
            self.wrappers = {wrapper.etree_element: wrapper
                             for wrapper in cssselect2.ElementWrapper.from_xml_root(self.root).iter_subtree()}
        return self.wrappers

    def declared(self, element: Any) -> list[tuple[str, str, bool]]:
        """The declarations of the stylesheet's rules that match the element, in the order they count (the last of
        a name wins), each its name, its value and whether it is `!important`."""
        found = self.found.get(element)
        if found is None:
            found = []
            wrapper = (self._read() if self.wrappers is None else self.wrappers).get(element)
            if wrapper is not None:
                for _specificity, _order, _pseudo, declarations in self.matcher.match(wrapper):
                    found.extend(declarations)
            self.found[element] = found
        return found

    def value(self, element: Any, name: str) -> str | None:
        found: str | None = None
        for declared, value in cascaded(self.declared(element), element.get("style") or ""):
            if declared == name:
                found = value
        if found is not None:
            return found
        attribute = element.get(name)
        return attribute.strip() if attribute is not None else None


def _outside_root(prelude: list[Any]) -> list[Any]:
    """The selectors of a rule that may match in a tree apart from the document (a copy a <use> shows, Chromium's
    shadow tree): those naming `:root` are left out, the document's root being no ancestor there (a tree of its
    own would have a root of its own, which cssselect2 would take for it)."""
    import tinycss2

    kept: list[Any] = []
    part: list[Any] = []
    for token in [*prelude, None]:
        if token is None or (token.type == "literal" and token.value == ","):
            if ":root" not in tinycss2.serialize(part).lower().replace(" ", ""):
                kept.extend([*([tinycss2.ast.LiteralToken(0, 0, ",")] if kept else []), *part])
            part = []
        else:
            part.append(token)
    return kept


def css_rules(text: str, viewport: tuple[float, float] | None = None
              ) -> Iterator[tuple[list[Any], list[tuple[str, str, int, bool]]]]:
    """Each rule of a stylesheet that applies to a printed page: its qualified rules, and those of the `@media`
    blocks that hold in print for art of the size `viewport` (:func:`media_holds`); other at-rules say nothing of
    how a shape is drawn. Each: the
    tokens of its selectors, and its declarations, each its name in lower case, its value as written
    (`!important` left out), its line in `text` and whether it was `!important`."""
    import tinycss2

    def walk(nodes: list[Any]) -> Iterator[tuple[list[Any], list[tuple[str, str, int, bool]]]]:
        for rule in nodes:
            if rule.type == "at-rule" and rule.lower_at_keyword == "media" and rule.content is not None:
                if media_holds(rule.prelude, viewport):
                    yield from walk(tinycss2.parse_rule_list(rule.content, skip_comments=True,
                                                             skip_whitespace=True))
                continue
            if rule.type != "qualified-rule":
                continue
            yield rule.prelude, [
                (declaration.lower_name, tinycss2.serialize(declaration.value).replace("!important", "").strip(),
                 declaration.source_line, bool(declaration.important))
                for declaration in tinycss2.parse_declaration_list(rule.content, skip_comments=True,
                                                                   skip_whitespace=True)
                if declaration.type == "declaration"]

    yield from walk(tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True))


#: What a media query's type holds for a printed page (Media Queries 4, 2.3): `print` and `all`; `screen` and
#: every other type do not.
_PRINTED_TYPES = frozenset({"print", "all"})
#: The media features a printed page answers (Media Queries 4 and 5), each with the values that hold for it, as
#: Chromium prints: in colour, on a light page, with no pointer, hover, motion or script; a feature written with no
#: value holds when it is not `none` (the values that hold for `(name)` are under the name alone, None there).
#: The size features (a width, a height, their ratio, the orientation) are answered by the art's own viewport
#: (:data:`_SIZE_FEATURES`); any other feature not here (a resolution, a device's size...) depends on the device the
#: art is drawn on, which the art file does not know: such a query is undecided.
_PRINTED_FEATURES: dict[str, frozenset[str] | None] = {
    "prefers-color-scheme": frozenset({"light"}),
    "prefers-contrast": frozenset({"no-preference"}),
    "prefers-reduced-motion": frozenset({"no-preference"}),
    "prefers-reduced-transparency": frozenset({"no-preference"}),
    "forced-colors": frozenset({"none"}),
    "inverted-colors": frozenset({"none"}),
    "hover": frozenset({"none"}),
    "any-hover": frozenset({"none"}),
    "pointer": frozenset({"none"}),
    "any-pointer": frozenset({"none"}),
    "scripting": frozenset({"none"}),
    "update": frozenset({"none"}),
    "grid": frozenset({"0"}),
    "color-gamut": frozenset({"srgb"}),
    "dynamic-range": frozenset({"standard"}),
    "color": None,
    "monochrome": frozenset({"0"}),
}
#: The features above that hold when written alone, with no value: `(color)` (a printer in colour); `(hover)`,
#: `(pointer)`, `(grid)`, `(monochrome)`... do not.
_PRINTED_ALONE = frozenset({"color", "prefers-color-scheme", "color-gamut", "dynamic-range"})


def media_holds(prelude: list[Any], viewport: tuple[float, float] | None = None) -> bool | None:
    """Whether a `@media` rule's query list holds for a printed page, as a browser printing decides (the types and
    features of :data:`_PRINTED_FEATURES`), the art drawn at its own size: `viewport`, its width and height in CSS
    pixels (:func:`art_viewport`), answers the size features (:func:`_size_holds`). None when it depends on what the
    art file cannot know (its size when `viewport` is None, a feature unknown, a syntax not read): undecided, and
    the caller says so by line."""
    import tinycss2

    if all(token.type in ("whitespace", "comment") for token in prelude):
        return True  # no query: all media (Media Queries 4, 2.1)
    queries: list[list[Any]] = [[]]
    for token in prelude:
        if token.type == "literal" and token.value == ",":
            queries.append([])
        elif token.type not in ("whitespace", "comment"):
            queries[-1].append(token)
    undecided = False
    for query in queries:
        holds = _query_holds(query, viewport)
        if holds:
            return True
        undecided = undecided or holds is None
    return None if undecided else False


def _query_holds(tokens: list[Any], viewport: tuple[float, float] | None) -> bool | None:
    """One media query (its tokens, white space left out): `[not|only] type [and (feature)]...` or `(feature) [and
    (feature)]...`; None when undecided."""
    if not tokens:
        return False  # an empty query in a list matches nothing (Media Queries 4, 3.2)
    negated = False
    first = tokens[0]
    if first.type == "ident" and first.lower_value in ("not", "only"):
        negated = first.lower_value == "not"
        tokens = tokens[1:]
    found: list[bool | None] = []
    expect_feature = False
    for at, token in enumerate(tokens):
        if at == 0 and token.type == "ident":
            found.append(token.lower_value in _PRINTED_TYPES)
            continue
        if token.type == "ident" and token.lower_value == "and" and not expect_feature:
            expect_feature = True
            continue
        if token.type != "() block" or (at > 0 and not expect_feature):
            return None  # `or`, nested `not`, a syntax not read
        expect_feature = False
        found.append(_feature_holds([t for t in token.content if t.type not in ("whitespace", "comment")],
                                    viewport))
    if expect_feature:
        return None
    # all must hold: one that does not (`screen`, a dark page) decides, whatever else is undecided
    holds = False if False in found else None if None in found else True
    return holds if holds is None or not negated else not holds


def _feature_holds(tokens: list[Any], viewport: tuple[float, float] | None) -> bool | None:
    """One media feature, `name` or `name: value`, for a printed page, or a size feature in any form
    (:func:`_size_holds`); None when it is not one of :data:`_PRINTED_FEATURES` or is written otherwise."""
    if any(token.type == "ident" and token.lower_value.removeprefix("min-").removeprefix("max-") in _SIZE_FEATURES
           for token in tokens):
        return _size_holds(tokens, viewport) if viewport is not None else None
    if not tokens or tokens[0].type != "ident":
        return None
    name = tokens[0].lower_value
    if name not in _PRINTED_FEATURES:
        return None
    if len(tokens) == 1:
        return name in _PRINTED_ALONE
    if len(tokens) != 3 or tokens[1].type != "literal" or tokens[1].value != ":":
        return None
    value = tokens[2]
    written = value.lower_value if value.type == "ident" else str(value.int_value) if (
        value.type == "number" and value.is_integer) else None
    if written is None:
        return None
    holding = _PRINTED_FEATURES[name]
    if holding is None:  # (color: N): the bits of each colour a printer has, 8 as browsers say
        return written == "8"
    return written in holding


#: The media features the art's own viewport answers (Media Queries 4, 4.1 to 4.4): an SVG drawn as a picture is a
#: document whose viewport is the picture's box, so a browser printing the art at its own size answers them with
#: its width and height. `device-width` and the like (deprecated) are the page's, which the art does not know.
_SIZE_FEATURES = frozenset({"width", "height", "aspect-ratio", "orientation"})
#: CSS pixels per unit of a length a media query may compare (CSS Values 4, 6.2, absolute units); `em` and `rem`
#: are the initial font size, 16 px, in a media query (Media Queries 4, 1.3). Units of a font's shape (`ex`, `ch`...)
#: leave the query undecided.
_MEDIA_PX = {"px": 1.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "q": 96 / 101.6, "pt": 96 / 72, "pc": 16.0,
             "em": 16.0, "rem": 16.0}
#: The viewport-percentage units (CSS Values 4, 6.1.2), of the art's own viewport: a hundredth of its width, its
#: height, the smaller, the larger.
_VIEWPORT_UNITS: dict[str, Callable[[float, float], float]] = {
    "vw": lambda width, height: width, "vh": lambda width, height: height,
    "vmin": min, "vmax": max}
#: The comparisons of the range form (Media Queries 4, 2.4.3), each with the one it is seen from the other side.
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}


def art_viewport(root: Any) -> tuple[float, float] | None:
    """The viewport of art drawn at its own size, in CSS pixels: its `<svg>`'s width and height, or its viewBox's
    when either is unwritten or in percent (as :func:`svg_size` sizes the art); None when it has neither."""
    width, height = _dimension(root.get("width")), _dimension(root.get("height"))
    if width is not None and height is not None:
        return width * _PX_PER_PT, height * _PX_PER_PT
    try:
        numbers = [float(part) for part in (root.get("viewBox") or "").replace(",", " ").split()]
    except ValueError:
        return None
    if len(numbers) != 4 or not (numbers[2] > 0 and numbers[3] > 0):
        return None
    return numbers[2], numbers[3]


def _size_holds(tokens: list[Any], viewport: tuple[float, float]) -> bool | None:
    """A size feature (:data:`_SIZE_FEATURES`) for the art's viewport, written `name`, `name: value`, `min-name:
    value`, `max-name: value`, or in the range form (`width >= 300px`, `400px < width <= 700px`); None when written
    otherwise, or compared with what is not a length of :data:`_MEDIA_PX` (a width) or a ratio (`16/9`, `1.5`)."""
    width, height = viewport
    # the form's parts: names, comparisons (two literals make `<=`), and values (the tokens between)
    parts: list[tuple[str, Any]] = []
    for token in tokens:
        if token.type == "literal" and token.value in ("<", ">", "="):
            if parts and parts[-1][0] == "op" and parts[-1][1] in ("<", ">") and token.value == "=":
                parts[-1] = ("op", parts[-1][1] + "=")
            else:
                parts.append(("op", token.value))
        elif token.type == "ident":
            parts.append(("name", token.lower_value))
        elif token.type == "literal" and token.value == ":":
            parts.append(("colon", ":"))
        elif parts and parts[-1][0] == "value":
            parts[-1][1].append(token)
        else:
            parts.append(("value", [token]))

    def actual(name: str) -> float | str:
        if name == "orientation":
            return "portrait" if height >= width else "landscape"
        return {"width": width, "height": height, "aspect-ratio": width / height}[name]

    def measured(name: str, written: Any) -> float | str | None:
        if name == "orientation":
            return written if isinstance(written, str) and written in ("portrait", "landscape") else None
        if isinstance(written, str):
            return None
        if name == "aspect-ratio":
            numbers = [token.value for token in written if token.type == "number"]
            if len(written) == 1 and len(numbers) == 1:
                return float(numbers[0]) if numbers[0] > 0 else None
            if (len(written) == 3 and len(numbers) == 2 and written[1].type == "literal" and written[1].value == "/"
                    and numbers[1] > 0):
                return float(numbers[0]) / float(numbers[1])
            return None
        if len(written) != 1:
            return None
        token = written[0]
        if token.type == "number" and token.value == 0:
            return 0.0
        if token.type == "dimension" and token.lower_unit in _MEDIA_PX:
            return float(token.value) * _MEDIA_PX[token.lower_unit]
        if token.type == "dimension" and token.lower_unit in _VIEWPORT_UNITS:  # a share of the viewport itself
            return float(token.value) * _VIEWPORT_UNITS[token.lower_unit](width, height) / 100
        return None

    def compared(name: str, op: str, written: Any) -> bool | None:
        value = measured(name, written)
        if value is None:
            return None
        have = actual(name)
        if isinstance(value, str) or isinstance(have, str):
            return op == "=" and value == have
        # CSS pixels are compared to a millionth: a ratio of 16/9 is the art's 1600 x 900 whatever the rounding
        close = math.isclose(have, value, rel_tol=1e-6, abs_tol=1e-6)
        return {"=": close, "<": have < value and not close, "<=": have < value or close,
                ">": have > value and not close, ">=": have > value or close}[op]

    kinds = [kind for kind, _value in parts]
    if kinds == ["name"]:  # `(width)`: holds when not zero (Media Queries 4, 2.4.2); the art has a size
        name = parts[0][1]
        return True if name in _SIZE_FEATURES else None
    if kinds in (["name", "colon", "value"], ["name", "colon", "name"]):
        name = parts[0][1]
        written = parts[2][1]
        op = "="
        if name.startswith(("min-", "max-")) and name != "orientation":
            op = ">=" if name.startswith("min-") else "<="
            name = name[4:]
            if name == "orientation":
                return None  # no min-orientation
        return compared(name, op, written) if name in _SIZE_FEATURES else None
    if kinds == ["name", "op", "value"] and parts[0][1] in _SIZE_FEATURES:
        return compared(parts[0][1], parts[1][1], parts[2][1])
    if kinds == ["value", "op", "name"] and parts[2][1] in _SIZE_FEATURES:
        return compared(parts[2][1], _FLIPPED[parts[1][1]], parts[0][1])
    if (kinds == ["value", "op", "name", "op", "value"] and parts[2][1] in _SIZE_FEATURES
            and parts[1][1][0] == parts[3][1][0] and parts[1][1][0] in "<>"):  # both the same way (2.4.3)
        first = compared(parts[2][1], _FLIPPED[parts[1][1]], parts[0][1])
        second = compared(parts[2][1], parts[3][1], parts[4][1])
        return None if first is None or second is None else first and second
    return None


def printed_stylesheet(text: str, line: int, viewport: tuple[float, float] | None = None
                       ) -> tuple[str, list[str]]:
    """A stylesheet as a browser printing reads it, the art drawn at its own size (`viewport`, in CSS pixels: see
    :func:`media_holds`): each `@media` block that holds in print (:func:`media_holds`)
    replaced by its rules, each that does not left out, and each undecided left out too and said by line (its text
    begins on `line` of the file); the lines of what is kept stay where they were (what is left out is replaced by
    its line breaks). A stylesheet with no `@media` is returned as it is."""
    if "@media" not in text.lower():
        return text, []
    import tinycss2

    said: list[str] = []

    def rewritten(nodes: list[Any], base: int) -> str:
        """The nodes written again; `base` is the line of the file where the text they were parsed from begins."""
        out: list[str] = []
        for node in nodes:
            if node.type == "at-rule" and node.lower_at_keyword == "media" and node.content is not None:
                written = tinycss2.serialize([node])
                holds = media_holds(node.prelude, viewport)
                if holds:
                    inside = tinycss2.serialize(node.content)
                    before = written[:written.index("{")] if "{" in written else ""
                    out.append("\n" * before.count("\n"))
                    out.append(rewritten(tinycss2.parse_rule_list(inside),
                                         base + node.source_line - 1 + before.count("\n")))
                    out.append("\n" * (written.count("\n") - before.count("\n") - inside.count("\n")))
                    continue
                if holds is None:
                    query = " ".join(tinycss2.serialize(node.prelude).split())
                    said.append(f"line {base + node.source_line - 1}: its <style> has a rule for some screens or "
                                f"devices only (@media {query}), which donjon cannot decide for a printed card: "
                                "its rules are left out, in the PDF and the SVG alike; write them outside @media "
                                "if they are meant for print")
                out.append("\n" * written.count("\n"))
                continue
            out.append(tinycss2.serialize([node]))
        return "".join(out)

    return rewritten(tinycss2.parse_stylesheet(text), line), said


#: The extensions a browser may claim to draw (Chromium's: HTML and MathML inside SVG): a `requiredExtensions` that
#: names only these may be drawn.
KNOWN_EXTENSIONS = frozenset({"http://www.w3.org/1999/xhtml", "http://www.w3.org/1998/Math/MathML"})


def _never_drawn(element: ElementTree.Element) -> bool:
    """Whether no viewer draws the element: it requires an extension none has (SVG 1.1, 5.8.4: its
    `requiredExtensions` names one). Illustrator keeps its own editing data in a `<foreignObject
    requiredExtensions="http://ns.adobe.com/AdobeIllustrator/10.0/">` in a `<switch>` beside what it draws; browsers,
    librsvg and svglib all pass it over and draw the next choice."""
    required = element.get("requiredExtensions")
    return required is not None and any(name not in KNOWN_EXTENSIONS for name in required.split())


def _which_text(element: ElementTree.Element) -> str:
    """Where the first text of a drawing is, to find it among its objects: its words (spaces folded, at most
    :data:`_QUOTED` characters) and the id of its element."""
    words = " ".join("".join(element.itertext()).split())
    if len(words) > _QUOTED:
        words = words[:_QUOTED - 1] + "…"
    found = [phrase_quoted(words, None)] if words else []
    if element.get("id"):
        found.append(phrase("(id {id})", id=element.get("id")))
    return phrase("; the first is {text}", text=" ".join(found)) if found else ""


#: The most characters of an art file's text a message quotes: enough to recognise it.
_QUOTED = 40


def _url_problem(text: str, tag: str) -> str | None:
    """A reference to another file in a `url()` (an attribute's or a stylesheet's), or None."""
    for match in _URL.finditer(text):
        if not match.group(1).startswith("#"):
            return phrase("<{tag}> refers to {value}: an SVG must hold what it draws", tag=tag,
                          value=phrase_quoted(match.group(1)[:60], None))
    return None


def _dimension(text: str | None) -> float | None:
    """An SVG width or height in points; None for a percentage or nothing (the viewBox then gives the size)."""
    if text is None:
        return None
    match = _LENGTH.fullmatch(text)
    if match is None:
        return None
    value, unit = float(match.group(1)), match.group(2) or "px"
    if unit == "px":
        return value / _PX_PER_PT
    return value * MM_PER_UNIT[unit] * PT_PER_MM
