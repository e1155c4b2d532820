"""Hostile fonts: a good TrueType font (the sample decks' DejaVu Serif Condensed) damaged table by table.

`HOSTILE` names each damaged font of the classes issue 20 lists (a damaged `glyf` table, offsets past the end, a
composite glyph that holds itself) and a few more; `damaged(table, at, junk)` is the fuzzer's: one table of the
font overwritten at one place. The table directory is left as it is unless the case is about it, so that each
font gets past the first look and fails where a reader of its glyphs would.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from functools import cache
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "content" / "examples" / "decks" / "fonts" / "DejaVuSerifCondensed.ttf"


def good() -> bytes:
    return SOURCE.read_bytes()


@cache
def small() -> bytes:
    """The good font cut down to Basic Latin and a few accents (fontTools' subsetter): the same tables, a
    hundred-odd glyphs, so that the fuzzer registers and draws a font in milliseconds, not a tenth of a second."""
    import io
    import logging

    from fontTools import subset

    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # "FFTM NOT subset": a table it drops, as meant
    options = subset.Options()
    options.notdef_outline = True
    font = subset.load_font(io.BytesIO(good()), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[*range(0x20, 0x7F), *map(ord, "ÀÉàéèêëçôû—")])
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def tables(data: bytes) -> dict[str, tuple[int, int, int]]:
    """Each table of a font by tag: (its offset, its length, where its entry in the directory is)."""
    count = struct.unpack(">H", data[4:6])[0]
    found = {}
    for index in range(count):
        entry = 12 + 16 * index
        tag, _checksum, offset, length = struct.unpack(">4sIII", data[entry:entry + 16])
        found[tag.decode("latin-1")] = (offset, length, entry)
    return found


def _glyph_range(data: bytes, char: str) -> tuple[int, int, int]:
    """Where the glyph of `char` lies in the font: (its start, its end, its glyph index). Reads cmap format 4."""
    found = tables(data)
    cmap_at = found["cmap"][0]
    count = struct.unpack(">H", data[cmap_at + 2:cmap_at + 4])[0]
    sub = None
    for index in range(count):
        platform, encoding, offset = struct.unpack(">HHI", data[cmap_at + 4 + 8 * index:cmap_at + 12 + 8 * index])
        if (platform, encoding) in ((3, 1), (0, 3)) and struct.unpack(">H", data[cmap_at + offset:][:2])[0] == 4:
            sub = cmap_at + offset
    assert sub is not None
    segments = struct.unpack(">H", data[sub + 6:sub + 8])[0] // 2
    ends = struct.unpack(f">{segments}H", data[sub + 14:sub + 14 + 2 * segments])
    starts_at = sub + 16 + 2 * segments
    starts = struct.unpack(f">{segments}H", data[starts_at:starts_at + 2 * segments])
    deltas = struct.unpack(f">{segments}h", data[starts_at + 2 * segments:starts_at + 4 * segments])
    ranges_at = starts_at + 4 * segments
    code = ord(char)
    segment = next(i for i in range(segments) if starts[i] <= code <= ends[i])
    range_offset = struct.unpack(">H", data[ranges_at + 2 * segment:ranges_at + 2 * segment + 2])[0]
    if range_offset == 0:
        glyph = (code + deltas[segment]) & 0xFFFF
    else:
        at = ranges_at + 2 * segment + range_offset + 2 * (code - starts[segment])
        glyph = (struct.unpack(">H", data[at:at + 2])[0] + deltas[segment]) & 0xFFFF
    long_offsets = struct.unpack(">h", data[found["head"][0] + 50:found["head"][0] + 52])[0] == 1
    loca = found["loca"][0]
    if long_offsets:
        start, end = struct.unpack(">II", data[loca + 4 * glyph:loca + 4 * glyph + 8])
    else:
        start, end = (2 * v for v in struct.unpack(">HH", data[loca + 2 * glyph:loca + 2 * glyph + 4]))
    glyf = found["glyf"][0]
    return glyf + start, glyf + end, glyph


def _patch(data: bytes, at: int, new: bytes) -> bytes:
    return data[:at] + new + data[at + len(new):]


def _garbled(tag: str, step: int = 7) -> Callable[[], bytes]:
    def make() -> bytes:
        data = bytearray(good())
        offset, length, _entry = tables(bytes(data))[tag]
        for at in range(offset + 12 if tag == "glyf" else offset, offset + length, step):
            data[at] ^= 0x5A
        return bytes(data)
    return make


def _loca_past_the_end() -> bytes:
    data = good()
    _start, _end, glyph = _glyph_range(data, "A")
    found = tables(data)
    long_offsets = struct.unpack(">h", data[found["head"][0] + 50:found["head"][0] + 52])[0] == 1
    loca = found["loca"][0]
    if long_offsets:
        return _patch(data, loca + 4 * glyph + 4, struct.pack(">I", 0x7FFFFFF0))
    return _patch(data, loca + 2 * glyph + 2, struct.pack(">H", 0xFFF0))


def _composite(char: str, of: str | None) -> Callable[[], bytes]:
    """The glyph of `char` rewritten as a composite glyph made of the glyph of `of` (itself when None)."""
    def make() -> bytes:
        data = good()
        start, end, glyph = _glyph_range(data, char)
        component = glyph if of is None else _glyph_range(data, of)[2]
        # numberOfContours -1 (a composite), its box, then one component: flags ARG_1_AND_2_ARE_WORDS |
        # ARGS_ARE_XY_VALUES, the glyph index, and an offset of (0, 0)
        composite = struct.pack(">hhhhhHHhh", -1, 0, 0, 100, 100, 0x0003, component, 0, 0)
        assert end - start >= len(composite)
        return _patch(data, start, composite)
    return make


def _two_composites_in_a_loop() -> bytes:
    data = _composite("A", "B")()
    start, _end, _glyph = _glyph_range(data, "B")
    component = _glyph_range(data, "A")[2]
    return _patch(data, start, struct.pack(">hhhhhHHhh", -1, 0, 0, 100, 100, 0x0003, component, 0, 0))


def _table_past_the_end(tag: str) -> Callable[[], bytes]:
    def make() -> bytes:
        data = good()
        return _patch(data, tables(data)[tag][2] + 8, struct.pack(">I", len(data) + 4096))
    return make


def _component_out_of_range() -> bytes:
    data = good()
    start, _end, _glyph = _glyph_range(data, "A")
    return _patch(data, start, struct.pack(">hhhhhHHhh", -1, 0, 0, 100, 100, 0x0003, 65000, 0, 0))


def _contours_past_the_glyph() -> bytes:
    """The glyph of A claims 30,000 contours: its end points run far past its data."""
    data = good()
    start, _end, _glyph = _glyph_range(data, "A")
    return _patch(data, start, struct.pack(">h", 30000))


def _negative_contours() -> bytes:
    """The glyph of A says -2 contours: negative is a composite glyph, which says -1 (fontTools reads -2 as simple)."""
    data = good()
    start, _end, _glyph = _glyph_range(data, "A")
    return _patch(data, start, struct.pack(">h", -2))


def _flags_repeated_past_the_points() -> bytes:
    """The glyph of A's first flag is repeated 255 times, more than the points its contours end at."""
    data = good()
    start, _end, _glyph = _glyph_range(data, "A")
    contours = struct.unpack(">h", data[start:start + 2])[0]
    at = start + 10 + 2 * contours
    points = struct.unpack(">H", data[at - 2:at])[0] + 1
    assert points < 255
    flags = at + 2 + struct.unpack(">H", data[at:at + 2])[0]
    return _patch(data, flags, bytes([data[flags] | 0x08, 255]))


#: Each damaged font by name. None may make `content check` pass and the build then fail, nor exit 4.
HOSTILE: dict[str, Callable[[], bytes]] = {
    "glyf-garbled": _garbled("glyf"),
    "loca-past-the-end": _loca_past_the_end,
    "composite-of-itself": _composite("A", None),
    "composites-in-a-loop": _two_composites_in_a_loop,
    "component-out-of-range": _component_out_of_range,
    "contours-past-the-glyph": _contours_past_the_glyph,
    "contours-negative": _negative_contours,
    "flags-repeated-past-the-points": _flags_repeated_past_the_points,
    "glyf-past-the-end": _table_past_the_end("glyf"),
    "cmap-past-the-end": _table_past_the_end("cmap"),
    "cmap-garbled": _garbled("cmap", 3),
    "head-garbled": _garbled("head", 1),
    "cut-in-half": lambda: good()[:len(good()) // 2],
}


def damaged(table: str, at: float, junk: bytes) -> bytes:
    """The small good font with `junk` written over its table `table` at the fraction `at` of its length."""
    data = small()
    offset, length, _entry = tables(data)[table]
    where = offset + min(int(at * length), max(length - 1, 0))
    return _patch(data, where, junk[:offset + length - where])
