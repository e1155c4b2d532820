"""Art files a designer brings, good and hostile, made on demand: the corpus cases of tests/corpus/art.yaml name
them (`generate: NAME`), and the art tests (tests/render/test_svg_art.py) draw them.

Every damaged PNG here has right checksums: the damage is in what the checksums were computed over.
"""

from __future__ import annotations

import base64
import io
import struct
import zlib
from collections.abc import Callable

SVG_HEAD = ("<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' "
            "width='100' height='100' viewBox='0 0 100 100'>")


def png_bytes(width: int = 20, height: int = 20, colour: tuple[int, int, int] = (200, 40, 40), mode: str = "RGB",
              kind: str = "PNG") -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new(mode, (width, height), colour if mode != "1" else 0).save(buffer, format=kind)
    return buffer.getvalue()


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png_with_rows(rows: bytes, width: int = 4, height: int = 4, packed: bytes | None = None) -> bytes:
    """An 8-bit RGB PNG of `width` x `height` whose pixel stream is `rows` (compressed here, or `packed` as it
    is), every checksum right."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = packed if packed is not None else zlib.compress(rows)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def _row(filter_byte: int, width: int = 4) -> bytes:
    return bytes([filter_byte]) + bytes([90, 120, 200]) * width


def png_bad_filter() -> bytes:
    return png_with_rows(_row(0) + _row(0) + _row(9) + _row(0))


def png_bad_zlib() -> bytes:
    packed = bytearray(zlib.compress(_row(0) * 4))
    packed[4:10] = b"\xff\xfe\xfd\xfc\xfb\xfa"
    return png_with_rows(b"", packed=bytes(packed))


def png_short_idat() -> bytes:
    return png_with_rows(_row(0) * 2)


def data_uri(data: bytes, kind: str = "png") -> str:
    return f"data:image/{kind};base64,{base64.b64encode(data).decode('ascii')}"


def svg(body: str, head: str = SVG_HEAD) -> bytes:
    return f"{head}\n{body}\n</svg>\n".encode()


def embedded_png() -> bytes:
    return svg(f"<image x='10' y='10' width='80' height='80' xlink:href='{data_uri(png_bytes())}'/>")


def embedded_jpeg() -> bytes:
    jpeg = png_bytes(colour=(40, 60, 200), kind="JPEG")
    return svg(f"<rect width='100' height='100' fill='#eeeeee'/>\n"
               f"<image x='10' y='10' width='80' height='80' href='{data_uri(jpeg, 'jpeg')}'/>")


def embedded_bomb() -> bytes:
    return svg(f"<image width='100' height='100' xlink:href='{data_uri(png_bytes(12_000, 12_000, mode='1'))}'/>")


def embedded_broken() -> bytes:
    return svg(f"<image width='100' height='100' xlink:href='{data_uri(png_bad_filter())}'/>")


def many_elements() -> bytes:
    return svg("\n".join(f"<rect x='{i % 100}' y='{i // 1000}' width='1' height='1'/>" for i in range(99_999)))


def million_segments() -> bytes:
    steps = " ".join(f"L{i % 100} {(i * 7) % 100}" for i in range(1_000_000))
    return svg(f"<path d='M0 0 {steps}' stroke='black' fill='none'/>")


def big_style() -> bytes:
    rules = "\n".join(f".c{i} {{ fill: #{i % 0xffffff:06x}; stroke: none }}" for i in range(80_000))
    return svg(f"<style>{rules}</style>\n<rect class='c1' width='50' height='50'/>")


def selector_bomb() -> bytes:
    deep = " ".join(["g"] * 30)
    rules = "\n".join(f"{deep} rect:not(.x{i}) {{ fill: red }}" for i in range(1_000))
    shapes = "".join("<g>" * 30 + "<rect width='1' height='1'/>" + "</g>" * 30 for _ in range(200))
    return svg(f"<style>{rules}</style>\n{shapes}")


def use_bomb() -> bytes:
    """Copies of copies: a thousand shapes used a hundred times, used a hundred times (ten million shapes)."""
    shapes = "".join(f"<rect x='{i % 10}' y='{i // 100}' width='1' height='1'/>" for i in range(1000))
    return svg("<defs>"
               f"<g id='a'>{shapes}</g>"
               "<g id='b'>" + "<use xlink:href='#a'/>" * 100 + "</g>"
               "</defs>" + "<use xlink:href='#b'/>" * 100)


#: Art for the corpus, by name.
GENERATORS: dict[str, Callable[[], bytes]] = {
    "png-bad-filter": png_bad_filter,
    "png-bad-zlib": png_bad_zlib,
    "png-short-idat": png_short_idat,
    "png-small": png_bytes,
    "svg-embedded-png": embedded_png,
    "svg-embedded-jpeg": embedded_jpeg,
    "svg-embedded-bomb": embedded_bomb,
    "svg-embedded-broken": embedded_broken,
    "svg-99999-elements": many_elements,
    "svg-million-segments": million_segments,
    "svg-big-style": big_style,
    "svg-selector-bomb": selector_bomb,
    "svg-use-bomb": use_bomb,
}
