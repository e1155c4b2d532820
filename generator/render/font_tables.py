"""The structure of a TrueType font of one's own, checked before any reader follows it.

reportlab reads a font's glyphs only when it embeds them, as a PDF is written, and fontTools when it draws them
for an SVG: a damaged `glyf` table, an offset past the end or a composite glyph made of itself would fail the
build long after `content check` passed the font (or never stop). So every glyph is walked once when the font is
registered: the table directory inside the file, each glyph inside `glyf` as `loca` places it, every simple
glyph's points, flags and coordinates inside its data, every composite glyph's components real glyphs, and no
composite made of itself at any depth. It is the TrueType specification's layout of these tables (`glyf`,
`loca`, `head`, `maxp`), read with struct; what it finds is said in the font's terms.

DejaVu Serif Condensed (3,468 glyphs) is walked in some 15 ms.
"""

from __future__ import annotations

import re
import struct

#: How deep composite glyphs may nest: real fonts go two or three levels (an accent on a letter made of
#: parts); reportlab and fontTools follow components by recursion, so a deeper chain would exhaust Python's stack.
MAX_COMPONENT_DEPTH = 32

#: The most characters a character map subtable may map: every code point of Unicode.
MAX_MAPPED = 0x110000

# Simple glyph flags (TrueType `glyf`): a coordinate is one byte (SHORT) or two, or none when SAME is set
# without SHORT; REPEAT says the next byte counts further copies of this flag.
_X_SHORT, _Y_SHORT, _REPEAT, _X_SAME, _Y_SAME = 0x02, 0x04, 0x08, 0x10, 0x20
#: The bytes of a point's x and y coordinates, by its flag byte (the hot loop of the walk looks them up).
_COORDINATE_BYTES = bytes((1 if f & _X_SHORT else 0 if f & _X_SAME else 2) + (1 if f & _Y_SHORT else 0 if f & _Y_SAME
                                                                             else 2) for f in range(256))
#: A flag byte with REPEAT set.
_REPEATED = re.compile(b"[" + b"".join(re.escape(bytes([f])) for f in range(256) if f & _REPEAT) + b"]")
# Composite glyph flags: the size of each component's arguments and transform, more components, instructions.
_WORDS, _SCALE, _MORE, _XY_SCALE, _TWO_BY_TWO, _INSTRUCTIONS = 0x0001, 0x0008, 0x0020, 0x0040, 0x0080, 0x0100


class Damaged(Exception):
    """What is wrong with the font, in its own terms (the caller names the file)."""


def check_tables(data: bytes) -> None:
    """Raise Damaged saying what is wrong with a TrueType font's table directory, character map or glyphs;
    return when sound."""
    tables = _directory(data)
    if "cmap" in tables:
        _check_cmap(data[tables["cmap"][0]:sum(tables["cmap"])])
    if "head" in tables:
        head = data[tables["head"][0]:sum(tables["head"])]
        units = struct.unpack(">H", head[18:20])[0] if len(head) >= 20 else 0
        if not 16 <= units <= 16384:
            raise Damaged(f"its 'head' table gives {units} units per em (a font has 16 to 16,384)")
    if "glyf" not in tables:
        return  # no TrueType outlines: reportlab says so itself
    for tag in ("head", "maxp", "loca"):
        if tag not in tables:
            raise Damaged(f"it has outlines but no {tag!r} table")
    head, maxp, loca, glyf = (data[a:a + n] for a, n in (tables[t] for t in ("head", "maxp", "loca", "glyf")))
    if len(head) < 54 or len(maxp) < 6:
        raise Damaged("its 'head' or 'maxp' table is too short")
    glyphs = struct.unpack(">H", maxp[4:6])[0]
    long_offsets = struct.unpack(">h", head[50:52])[0]
    if long_offsets not in (0, 1):
        raise Damaged(f"its 'head' table gives the offset format {long_offsets}, which is neither 0 nor 1")
    size = 4 if long_offsets else 2
    if len(loca) < size * (glyphs + 1):
        raise Damaged(f"its 'loca' table places {len(loca) // size - 1} glyphs, fewer than the {glyphs} it has")
    offsets = struct.unpack(f">{glyphs + 1}{'I' if long_offsets else 'H'}", loca[:size * (glyphs + 1)])
    scale = 1 if long_offsets else 2
    components: dict[int, list[int]] = {}
    for index in range(glyphs):
        start, end = offsets[index] * scale, offsets[index + 1] * scale
        if end < start or end > len(glyf):
            raise Damaged(f"glyph {index} lies at bytes {start} to {end} of its 'glyf' table, which holds "
                          f"{len(glyf)}")
        if end > start:
            try:
                found = _glyph(glyf, start, end, glyphs)
            except struct.error:
                found = f"runs past its {end - start} bytes"
            if isinstance(found, str):
                raise Damaged(f"glyph {index} {found}")
            if found:
                components[index] = found
    _check_nesting(components)


def _check_cmap(cmap: bytes) -> None:
    """Every subtable of the character map inside the table, mapping no more characters than Unicode has: readers
    walk a subtable's ranges one character at a time, so a range of four billion would never end."""
    if len(cmap) < 4:
        raise Damaged("its 'cmap' table is too short")
    count = struct.unpack(">H", cmap[2:4])[0]
    if 4 + 8 * count > len(cmap):
        raise Damaged(f"its 'cmap' table lists {count} subtables but ends within the list")
    for index in range(count):
        _platform, _encoding, offset = struct.unpack(">HHI", cmap[4 + 8 * index:12 + 8 * index])
        try:
            mapped = _mapped(cmap, offset, struct.unpack(">H", cmap[offset:offset + 2])[0])
        except struct.error:
            raise Damaged(f"its 'cmap' subtable {index} runs past the end of the table") from None
        if mapped > MAX_MAPPED:
            raise Damaged(f"its 'cmap' subtable {index} maps {mapped:,} characters, more than Unicode has")


def _mapped(cmap: bytes, at: int, kind: int) -> int:
    """How many characters the character map subtable of format `kind` at `at` maps (struct.error: it runs past)."""
    def need(end: int) -> None:
        if end > len(cmap):
            raise struct.error
    if kind == 0:
        need(at + 262)
        return 256
    if kind == 2:
        keys = struct.unpack(">256H", cmap[at + 6:at + 518])
        headers = max(keys) + 1  # as reportlab reads them
        need(at + 518 + 8 * headers)
        return sum(struct.unpack(">HHhH", cmap[at + 518 + 8 * i:at + 526 + 8 * i])[1] for i in range(headers))
    if kind == 4:
        segments = struct.unpack(">H", cmap[at + 6:at + 8])[0] // 2
        need(at + 16 + 8 * segments)
        ends = struct.unpack(f">{segments}H", cmap[at + 14:at + 14 + 2 * segments])
        starts = struct.unpack(f">{segments}H", cmap[at + 16 + 2 * segments:at + 16 + 4 * segments])
        return sum(max(0, end - start + 1) for start, end in zip(starts, ends))
    if kind in (6, 10):
        count = struct.unpack(">H", cmap[at + 8:at + 10])[0] if kind == 6 else \
            struct.unpack(">I", cmap[at + 16:at + 20])[0]
        need(at + (10 if kind == 6 else 20) + 2 * count)
        return int(count)
    if kind in (12, 13):
        groups = struct.unpack(">I", cmap[at + 12:at + 16])[0]
        need(at + 16 + 12 * groups)
        spans = struct.iter_unpack(">III", cmap[at + 16:at + 16 + 12 * groups])
        return sum(max(0, end - start + 1) for start, end, _glyph in spans)
    return 0  # a format readers do not walk character by character (14: variation sequences)


def _directory(data: bytes) -> dict[str, tuple[int, int]]:
    """Each table by tag: (its offset, its length), every one inside the file."""
    if len(data) < 12:
        raise Damaged("it is too short to be a font")
    count = struct.unpack(">H", data[4:6])[0]
    if len(data) < 12 + 16 * count:
        raise Damaged(f"its table directory lists {count} tables but the file ends within it")
    tables: dict[str, tuple[int, int]] = {}
    for index in range(count):
        tag, _checksum, offset, length = struct.unpack(">4sIII", data[12 + 16 * index:28 + 16 * index])
        name = tag.decode("latin-1")
        if offset + length > len(data):
            raise Damaged(f"its table {name!r} runs to byte {offset + length:,}, past the end of the file "
                          f"({len(data):,} bytes)")
        tables[name] = (offset, length)
    return tables


def _glyph(glyf: bytes, start: int, end: int, glyphs: int) -> str | list[int]:
    """The glyph at glyf[start:end]: the glyph indices of its components (none for a simple glyph), or what is
    wrong with it."""
    if end - start < 10:
        return f"is {end - start} bytes long, shorter than a glyph's header"
    contours = struct.unpack(">h", glyf[start:start + 2])[0]
    at = start + 10
    if contours >= 0:
        return _simple(glyf, at, end, contours)
    if contours != -1:
        # the OpenType spec ('glyf', glyph headers) says a composite glyph "should" say -1; fontTools, which draws
        # the SVG's glyphs, reads any other negative count as a simple glyph's and fails on it
        return f"says it has {contours:,} contours (a composite glyph says -1)"
    parts: list[int] = []
    while True:
        if at + 4 > end:
            return f"runs past its {end - start} bytes"
        flags, component = struct.unpack(">HH", glyf[at:at + 4])
        if component >= glyphs:
            return f"is made of glyph {component}, which the font does not have ({glyphs} glyphs)"
        parts.append(component)
        at += 4 + (4 if flags & _WORDS else 2)
        at += 2 if flags & _SCALE else 4 if flags & _XY_SCALE else 8 if flags & _TWO_BY_TWO else 0
        if not flags & _MORE:
            break
    if flags & _INSTRUCTIONS:
        at += 2 + struct.unpack(">H", glyf[at:at + 2])[0]
    return parts if at <= end else f"runs past its {end - start} bytes"


def _simple(glyf: bytes, at: int, end: int, contours: int) -> str | list[int]:
    if contours == 0:
        return []
    if at + 2 * contours + 2 > end:
        return f"has {contours:,} contours, more than its data holds"
    ends = struct.unpack(f">{contours}H", glyf[at:at + 2 * contours])
    if any(b < a for a, b in zip(ends, ends[1:])):
        return "has contours whose points go backwards"
    points = ends[-1] + 1
    at += 2 * contours
    at += 2 + struct.unpack(">H", glyf[at:at + 2])[0]  # the instructions
    if at > end:
        return "has instructions that run past its data"
    coordinates = read = 0
    while read < points:
        if at >= end:
            return f"runs past its data: its flags for {points} points end early"
        # the flags up to the next repeated one, a point each, at the speed of C; then the repeated one
        stop = min(end, at + points - read)
        repeated = _REPEATED.search(glyf, at, stop)
        if repeated is not None:
            stop = repeated.start()
        coordinates += sum(glyf[at:stop].translate(_COORDINATE_BYTES))
        read += stop - at
        at = stop
        if repeated is not None:
            if at + 1 >= end:
                return f"runs past its data: its flags for {points} points end early"
            copies = glyf[at + 1] + 1
            coordinates += copies * _COORDINATE_BYTES[glyf[at]]
            read += copies
            at += 2
            if read > points:  # (fontTools, drawing the SVG's glyphs, writes the copies past its flags and fails)
                return f"repeats its flags past its {points} points"
    if at + coordinates > end:
        return f"runs past its data: the coordinates of its {points} points need {at + coordinates - end} more bytes"
    return []


def _check_nesting(components: dict[int, list[int]]) -> None:
    """No composite glyph made of itself, at any depth, nor nested deeper than MAX_COMPONENT_DEPTH."""
    depth: dict[int, int] = {}  # glyph -> how deep its components go, once known
    for top in components:
        if top in depth:
            continue
        path, stack = [top], [iter(components[top])]
        while stack:
            part = next(stack[-1], None)
            if part is None:
                stack.pop()
                done = path.pop()
                depth[done] = 1 + max((depth.get(p, 0) for p in components[done]), default=0)
                continue
            if part in path:
                raise Damaged(f"glyph {part} is made of itself" + (f" (through glyph {path[-1]})"
                                                                      if path[-1] != part else ""))
            if part in components and part not in depth:
                if len(path) >= MAX_COMPONENT_DEPTH:
                    raise Damaged(f"glyph {top} nests composite glyphs more than {MAX_COMPONENT_DEPTH} deep")
                path.append(part)
                stack.append(iter(components[part]))
        if depth[top] > MAX_COMPONENT_DEPTH:
            raise Damaged(f"glyph {top} nests composite glyphs more than {MAX_COMPONENT_DEPTH} deep")
