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
  layer: :func:`hidden_elements`). Its size is its `width` and
  `height`, else its `viewBox`, finite and printable. Then :mod:`generator.render.svgart` reads it the way the
  PDF draws it: what it cannot draw as a viewer does is refused with its line, and what svglib logs becomes the
  picture's :attr:`ImageInfo.warnings`.

:func:`image_info` gives what layouts need (kind, size, aspect) and caches it by path, size and modification
time, so a picture used by a hundred cards is read once per build and a picture saved again is read anew
(`donjon build --watch`). The pixels themselves are never cached: :func:`image_data` reads and checks the file
again when a backend embeds it, once per document.
"""

from __future__ import annotations

import hashlib
import io
import re
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from generator.errors import InputError
from generator.files import read_bytes
from generator.units import MM_PER_UNIT, PT_PER_MM

if TYPE_CHECKING:
    from xml.etree import ElementTree

    from PIL.Image import Image as PILImage

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


_cache: dict[tuple[str, int, int], ImageInfo] = {}


def image_info(path: Path) -> ImageInfo:
    """The checked description of the picture at `path` (an absolute path), cached until the file changes."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise ImageProblem("there is no such file") from None
    except OSError as err:
        raise ImageProblem(f"it cannot be read ({err.strerror or err})") from None
    key = (str(path), stat.st_size, stat.st_mtime_ns)
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
        return ImageInfo(path, kind, float(width), float(height), digest), data
    data = _entities_expanded(data)
    if _SVG_START.match(data[:4096]):
        from generator.render.svgart import read_art

        width_pt, height_pt = svg_size(data)
        data = _upright_inside(data, digest)
        art = read_art(data, digest)
        return ImageInfo(path, "svg", width_pt, height_pt, digest, art.warnings), _clip_viewports(data, digest)
    raise ImageProblem("it is not a PNG, JPEG or SVG file")


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
            raise ImageProblem(f"it is a damaged JPEG file ({err})") from None
    return turned, *((height, width) if orientation >= 5 else (width, height))


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
    and no viewer turns it again (the orientation is gone). Art without such a photo is returned as it is; a
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
        if not picture.startswith(_JPEG):
            return match.group(0)
        try:
            upright, _width, _height = _upright(picture, hashlib.sha256(picture).hexdigest(), 0, 0)
        except ImageProblem:
            return match.group(0)
        if upright is picture:
            return match.group(0)
        # wrapped over as many lines as it was, so the lines of the art after it stay where they were (the
        # messages about the art name them)
        encoded = base64.b64encode(upright)
        lines = match.group(2).count(b"\n") + 1
        step = -(-len(encoded) // lines)
        return b"data:image/jpeg;base64," + b"\n".join(encoded[at:at + step] for at in range(0, step * lines, step))

    return _kept(_upright_art, digest, lambda: _INSIDE.sub(turned, data))


#: The digests of PNG files whose pixels were unpacked and found whole: a file read again to be embedded (a
#: picture a hundred cards show) is not unpacked again. Bounded, for a long `--watch`.
_whole: dict[str, None] = {}
_WHOLE_KEPT = 4096


def raster_size(data: bytes, kind: Kind, digest: str | None = None) -> tuple[int, int]:
    """The size in pixels of a PNG or JPEG file's bytes, checked whole (see the module's notes)."""
    width, height = _raster_size(data, kind)
    if kind == "png" and (digest is None or digest not in _whole):
        _png_pixels(data)
        if digest is not None:
            if len(_whole) >= _WHOLE_KEPT:
                _whole.clear()
            _whole[digest] = None
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
        raise ImageProblem("it is a damaged PNG file (it has no pixel data)")
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
                        raise ImageProblem(f"it is a damaged PNG file (row {at // stride + 1} of its pixels has "
                                           f"an unknown filter, {out[at - done]})")
                done += len(out)
                if not out:
                    break
            if done >= expected:
                break
    except zlib.error as err:
        raise ImageProblem(f"it is a damaged PNG file (its pixel data cannot be unpacked: {err})") from None
    if done < expected:
        rows = done // stride
        raise ImageProblem(f"it is a damaged PNG file (its pixel data ends after {rows} of its {height} rows)")


def _pillow_decode(data: bytes) -> None:
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
    except (OSError, SyntaxError, ValueError, EOFError) as err:
        raise ImageProblem(f"it is a damaged PNG file ({err})") from None


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
                    raise ImageProblem(f"it is {width} x {height} pixels: it has no picture")
                if width * height > MAX_PIXELS:
                    raise ImageProblem(f"it is {width} x {height} pixels ({width * height / 1e6:.0f} million), more "
                                       f"than the {MAX_PIXELS // 1_000_000} million donjon reads: a picture that "
                                       "large is a decompression bomb or far more than a card needs (300 dpi is "
                                       "plenty)")
                if kind == "jpeg":
                    image.draft("RGB", (max(1, width // 8), max(1, height // 8)))
                    image.load()
                else:
                    image.verify()
    except ImageProblem:
        raise
    except Image.DecompressionBombError as err:
        raise ImageProblem(f"it is a decompression bomb: it unpacks into more pixels than donjon reads ({err})") \
            from None
    except UnidentifiedImageError:
        what = "PNG" if kind == "png" else "JPEG"
        raise ImageProblem(f"it is a damaged {what} file (its header cannot be read)") from None
    except (OSError, SyntaxError, ValueError, EOFError) as err:
        what = "PNG" if kind == "png" else "JPEG"
        raise ImageProblem(f"it is a damaged {what} file ({err})") from None
    return width, height


# --- SVG ------------------------------------------------------------------------------------------------------------

_SVG_NS = "{http://www.w3.org/2000/svg}"
#: Elements that do not draw a picture from what the file holds: refused, with why.
_REFUSED = {
    "script": "a script",
    "foreignObject": "a foreignObject (HTML inside the SVG)",
    "text": "text",
    "tspan": "text",
    "textPath": "text",
}
#: What an href may point at: an element of the same file, or a PNG or JPEG picture embedded in it.
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
_SAVE_PLAIN = ("save it again as plain SVG (Inkscape: File > Save As... > Plain SVG; Illustrator: File > Export > "
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
            raise ArtProblem("its DOCTYPE's declarations do not end (no `]>`): it is not well-formed SVG", line)
        if found is None:
            what = data[at:at + _SHOWN_DECLARATION].decode("utf-8", "replace")
            what = what[:what.index(">") + 1] if ">" in what else f"{what}…"
            raise ArtProblem(f"its DOCTYPE declares {what!r}, which donjon does not read (only entities whose value "
                             f"is plain text, as Illustrator declares its namespaces): {_SAVE_PLAIN}", line)
        at = found.end()
        if found.group(3) is not None:
            break
        name = found.group(1)
        if name is None:
            continue  # white space or a comment
        value = found.group(2)[1:-1]
        shown = name.decode("ascii")
        if name in _PREDEFINED or name in values:
            twice = f"XML's own entity {shown!r} again" if name in _PREDEFINED else f"the entity {shown!r} twice"
            raise ArtProblem(f"its DOCTYPE declares {twice}, which donjon does not read: {_SAVE_PLAIN}", line)
        if _NOT_PLAIN.search(value):
            raise ArtProblem(f"its DOCTYPE declares the entity {shown!r} with markup, references or line breaks in "
                             f"its value, which donjon does not read (only plain text, as Illustrator declares its "
                             f"namespaces): {_SAVE_PLAIN}", line)
        if len(value) > MAX_ENTITY_VALUE:
            raise ArtProblem(f"its DOCTYPE declares the entity {shown!r} with a value of {len(value):,} bytes, more "
                             f"than the {MAX_ENTITY_VALUE:,} donjon reads: {_SAVE_PLAIN}", line)
        if len(values) == MAX_ENTITIES:
            raise ArtProblem(f"its DOCTYPE declares more than {MAX_ENTITIES} entities, more than donjon reads: "
                             f"{_SAVE_PLAIN}", line)
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
            raise ArtProblem(f"its references to the entities its DOCTYPE declares add more than the "
                             f"{MAX_ENTITY_TEXT:,} bytes donjon reads: {_SAVE_PLAIN}")
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
        raise ImageProblem(f"it declares a DOCTYPE donjon does not read (one naming the SVG DTD, with entities of "
                           f"plain text at most, is read): {_SAVE_PLAIN}")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as err:
        raise ImageProblem(f"it is not well-formed SVG ({err})") from None
    if root.tag not in (f"{_SVG_NS}svg", "svg"):
        raise ImageProblem(f"its root element is <{root.tag.rpartition('}')[2]}>, not <svg>")
    count = 0
    hidden: set[Any] | None = None
    for element in root.iter():
        count += 1
        if count > MAX_SVG_ELEMENTS:
            raise ImageProblem(f"it holds more than {MAX_SVG_ELEMENTS:,} elements, more than donjon draws in a "
                               "picture: simplify it (Inkscape: Path > Combine joins shapes of one colour, Path > "
                               "Simplify drops points), or make a bitmap copy of its busiest part")
        tag = element.tag.rpartition("}")[2] if isinstance(element.tag, str) else ""
        if tag in _REFUSED and _REFUSED[tag] == "text":
            hidden = hidden_elements(root) if hidden is None else hidden
            if element in hidden:
                continue  # drawn by no viewer (a hidden layer of notes): no font is needed
        if tag in _REFUSED and not _never_drawn(element):
            hint = (": convert text to paths in your drawing program (Inkscape: Path > Object to Path)"
                    f"{_which_text(element)}" if _REFUSED[tag] == "text" else "")
            raise ImageProblem(f"it holds {_REFUSED[tag]}, which card art may not{hint}")
        for name, value in element.attrib.items():
            local = name.rpartition("}")[2]
            if local == "href" and not _LOCAL_REF.fullmatch(value.strip()):
                raise ImageProblem(f"<{tag}> refers to {value[:60]!r}: an SVG must hold what it draws (embed "
                                   "pictures as data: PNG or JPEG, refer only to #ids of the same file)")
            if local.startswith("on"):
                raise ImageProblem(f"<{tag}> has an event handler ({local}), which card art may not")
            _check_urls(value, tag)
        if tag == "style" and element.text:
            if "@import" in element.text:
                raise ImageProblem("its <style> imports another file; an SVG must hold what it draws")
            _check_urls(element.text, tag)
    width, height = _dimension(root.get("width")), _dimension(root.get("height"))
    if width is None or height is None:
        box = (root.get("viewBox") or "").replace(",", " ").split()
        try:
            numbers = [float(part) for part in box]
        except ValueError:
            numbers = []
        if len(numbers) != 4:
            raise ImageProblem("it has no size: give its <svg> element a viewBox (or a width and a height)")
        width, height = numbers[2] / _PX_PER_PT, numbers[3] / _PX_PER_PT
    if not (width > 0 and height > 0):
        raise ImageProblem(f"its size is {width:g} x {height:g}: it has no picture")
    if not (MIN_SVG_SIZE <= width <= MAX_SVG_SIZE and MIN_SVG_SIZE <= height <= MAX_SVG_SIZE):
        raise ImageProblem(f"its size is {width:g} x {height:g} pt, beyond what donjon draws ({MIN_SVG_SIZE:g} to "
                           f"{MAX_SVG_SIZE:g} pt a side): give its <svg> element a sensible width, height or "
                           "viewBox")
    return width, height


#: A style that hides an element and all it holds (`display: none`, as Inkscape hides a layer).
_DISPLAY_NONE = re.compile(r"(?:^|;)\s*display\s*:\s*none\s*(?:!important\s*)?(?:;|$)", re.I)
#: A reference to an element of the file, in an attribute or a stylesheet: `url(#id)`.
_URL_ID = re.compile(r"url\(\s*['\"]?#([^)'\"\s]+)")


def hidden_elements(root: Any) -> set[Any]:
    """The elements of an SVG no viewer draws, whose text or effects need nothing of the PDF (the standard
    library's tree or lxml's): an element that says `display: none` (its attribute or its style; Inkscape hides a
    layer so) and all it holds, unless the file refers to one of them (a <use> shows what it refers to whatever
    its ancestors say, a gradient or a clip path is used hidden or not), in which case that element is kept
    whole."""
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
    hidden: set[Any] = set()
    stack = [root]
    while stack:
        element = stack.pop()
        if isinstance(element.tag, str) and (
                (element.get("display") or "").strip().lower() == "none"
                or _DISPLAY_NONE.search(element.get("style") or "")):
            held = [found for found in element.iter() if isinstance(found.tag, str)]
            if not any(found.get("id") in referred for found in held if found.get("id")):
                hidden.update(held)
                continue
        stack.extend(element)
    return hidden


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
    found = [repr(words)] if words else []
    if element.get("id"):
        found.append(f"(id {element.get('id')})")
    return f"; the first is {' '.join(found)}" if found else ""


#: The most characters of an art file's text a message quotes: enough to recognise it.
_QUOTED = 40


def _check_urls(text: str, tag: str) -> None:
    for match in _URL.finditer(text):
        if not match.group(1).startswith("#"):
            raise ImageProblem(f"<{tag}> refers to {match.group(1)[:60]!r}: an SVG must hold what it draws")


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
