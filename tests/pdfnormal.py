"""What a PDF draws, with the accidents of its bytes left out: the form in which golden PDFs are compared.

reportlab is not pinned, and a new version may write the same drawing with other bytes: another producer string,
other object numbers, compression, resource names, font subset prefixes or number formatting. Comparing golden
PDFs byte for byte would then fail on an upgrade that changed nothing a reader sees. `normalised` parses a PDF
(with pikepdf) into lines that keep what is drawn and where:

- the document: its information (title, author...; not the producer or dates), page mode, outline (titles and
  the page each goes to), named destinations, and form fields (name, type, flags, value, page and rectangle);
- each page: its boxes (media, crop, bleed, trim, art), rotation and annotations, then its content stream,
  decompressed and parsed, one operator a line: form XObjects are drawn in place (indented), images are named
  by size and a digest of their pixels, graphics states by their entries, fonts by their face without the
  subset prefix, and the bytes of each text operator decoded through its font's ToUnicode map;
- the fonts the pages use, and whether each is embedded.

Two no-ops are dropped: identity `cm` transforms and `q ... Q` groups that draw nothing. Numbers are kept as
numbers: `matches` compares them with a tolerance of `TOLERANCE`, so that a writer printing more or fewer
decimals still matches; anything else (an operator, a name, a text, a count) must be equal.

Two builds of the same version are still compared byte for byte by the determinism tests.
"""

from __future__ import annotations

import difflib
import hashlib
import io
import re
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pikepdf import Object, Pdf

#: A token of a normalised line: a number, or anything else as text.
Token = float | str
Line = tuple[Token, ...]

#: How far two numbers may be apart and still be the same (in points for lengths, 0..1 for colours). reportlab
#: writes three decimals; a hundredth of a point (0.0035 mm) absorbs any rounding of that while a real change
#: of a drawing (a shape moved, a colour changed by more than 1%) still shows.
TOLERANCE = 0.01

#: A font subset's name: six capitals and a plus before the face (PDF 32000-1, 9.6.4).
_SUBSET_PREFIX = re.compile(r"^/?[A-Z]{6}\+")

#: Operators that paint (PDF 32000-1, tables 59, 87 and 107): a `q ... Q` group with none of them draws nothing.
_PAINTING = {"S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n", "Tj", "TJ", "'", '"', "Do", "sh", "BI", "INLINE IMAGE"}

#: Information entries a PDF library fills in by itself, left out of the comparison.
_LIBRARY_INFO = {"/Producer", "/CreationDate", "/ModDate", "/Trapped"}

#: Dictionary entries that are structure, not content: back links, lengths and encodings of streams.
_STRUCTURE_KEYS = {"/Parent", "/P", "/Length", "/Length1", "/Length2", "/Length3", "/Filter", "/DecodeParms"}

#: How deep nested dictionaries and form XObjects are followed (ours nest two or three levels).
_MAX_DEPTH = 12


def normalised(pdf: bytes | Path) -> list[Line]:
    """The lines that describe what `pdf` draws (see the module's docstring)."""
    import pikepdf

    data = pdf.read_bytes() if isinstance(pdf, Path) else pdf
    with pikepdf.open(io.BytesIO(data)) as doc:
        return list(_document(doc))


def text_of(lines: list[Line]) -> list[str]:
    """The lines as text, numbers to three decimals: what a failed comparison shows."""
    return [" ".join(_token_text(t) for t in line) for line in lines]


def differences(expected: list[Line], actual: list[Line], context: int = 3, limit: int = 60) -> list[str]:
    """An empty list when the two match (numbers within `TOLERANCE`), else a unified diff of their text."""
    if len(expected) == len(actual) and all(_same_line(a, b) for a, b in zip(expected, actual)):
        return []
    diff = list(difflib.unified_diff(text_of(expected), text_of(actual), "golden", "built", n=context, lineterm=""))
    if not diff:  # the texts agree to three decimals but a number is still out of tolerance somewhere
        at = next(i for i, (a, b) in enumerate(zip(expected, actual)) if not _same_line(a, b))
        diff = [f"line {at + 1}: golden {text_of([expected[at]])[0]!r}, built {text_of([actual[at]])[0]!r}"]
    return diff[:limit] + ([f"... and {len(diff) - limit} more lines of difference"] if len(diff) > limit else [])


def matches(expected: list[Line], actual: list[Line]) -> bool:
    return not differences(expected, actual)


# --- comparing -----------------------------------------------------------------------------------------------------

def _same_line(a: Line, b: Line) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, float) and isinstance(y, float):
            if abs(x - y) > TOLERANCE:
                return False
        elif x != y:
            return False
    return True


def _token_text(token: Token) -> str:
    if isinstance(token, float):
        text = f"{token:.3f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    return token


# --- the document ----------------------------------------------------------------------------------------------------

def _document(doc: Pdf) -> Iterator[Line]:
    import pikepdf

    pages = {page.obj.objgen: number for number, page in enumerate(doc.pages, start=1)}
    info = doc.trailer.get("/Info")
    if info is not None:
        for key in sorted(k for k in info.keys() if k not in _LIBRARY_INFO):
            if str(info[key]):
                yield ("info", key, str(info[key]))
    root = doc.Root
    for key in ("/PageMode", "/PageLayout", "/Lang"):
        if key in root:
            yield ("catalog", key, str(root[key]))
    if "/ViewerPreferences" in root:
        yield ("catalog", "/ViewerPreferences", *_flat(root.ViewerPreferences, pages))
    names = _named_destinations(doc)
    for name in sorted(names):
        yield ("destination", name, *_destination(names[name], pages, {}))
    if "/Outlines" in root and "/First" in root.Outlines:
        yield from _outline(root.Outlines.First, pages, names, 1)
    if "/AcroForm" in root:
        form = root.AcroForm
        for key in ("/NeedAppearances", "/DA", "/SigFlags"):
            if key in form:
                yield ("form", key, *_flat(form[key], pages))
        for field in form.get("/Fields", pikepdf.Array()):
            yield from _field(field, "", pages, 0)
    fonts: dict[str, bool] = {}
    for number, page in enumerate(doc.pages, start=1):
        yield ("page", float(number))
        for box in ("mediabox", "cropbox", "bleedbox", "trimbox", "artbox"):
            yield (box, *(_number(v) for v in getattr(page, box)))
        rotate = _inherited(page.obj, "/Rotate")
        yield ("rotate", _number(rotate) if rotate is not None else 0.0)
        for annotation in page.obj.get("/Annots", pikepdf.Array()):
            yield ("annotation", *_flat(annotation, pages, skip={"/AP", "/Parent", "/P", "/Kids"}))
            yield from _appearances(annotation, fonts)
        yield from _content(page.obj, page.obj.get("/Resources", pikepdf.Dictionary()), fonts, 1)
    for face in sorted(fonts):
        yield ("font", face, "embedded" if fonts[face] else "not embedded")


def _appearances(annotation: Object, fonts: dict[str, bool]) -> Iterator[Line]:
    """What an annotation looks like: its normal and down appearances (one per state, for a checkbox)."""
    import pikepdf

    for kind in ("/N", "/D"):
        appearances = annotation.get("/AP")
        appearance = appearances.get(kind) if appearances is not None else None
        states = ([("", appearance)] if isinstance(appearance, pikepdf.Stream)
                  else sorted(appearance.items()) if isinstance(appearance, pikepdf.Dictionary) else [])
        for state, stream in states:
            if isinstance(stream, pikepdf.Stream):
                yield ("appearance", kind, *((str(state),) if state else ()))
                yield from (("  ", *line) for line in _xobject(stream, None, fonts, 1))


def _inherited(node: Object, key: str) -> Object | None:
    """An entry of a page, or of the page tree node it inherits it from (PDF 32000-1, 7.7.3.4)."""
    for _ in range(_MAX_DEPTH):
        if key in node:
            return node[key]
        if "/Parent" not in node:
            break
        node = node.Parent
    return None


def _named_destinations(doc: Pdf) -> dict[str, Object]:
    """Named destinations, from the name tree of /Names /Dests and the older /Dests dictionary."""
    import pikepdf

    found: dict[str, Object] = {}
    root = doc.Root
    if "/Dests" in root:
        for name, dest in root.Dests.items():
            found[str(name)] = dest
    if "/Names" in root and "/Dests" in root.Names:
        for key, dest in pikepdf.NameTree(root.Names.Dests).items():
            found[str(key)] = dest
    return found


def _destination(dest: Object | None, pages: dict[tuple[int, int], int], names: dict[str, Object]) -> Line:
    """A destination as the page it goes to and its view (`/XYZ left top zoom`...)."""
    import pikepdf

    for _ in range(_MAX_DEPTH):
        if isinstance(dest, (pikepdf.String, pikepdf.Name)) and str(dest) in names:
            dest = names[str(dest)]
        elif isinstance(dest, pikepdf.Dictionary) and "/D" in dest:
            dest = dest.D
        else:
            break
    if not isinstance(dest, pikepdf.Array) or len(dest) == 0:
        return ("to", *_flat(dest, pages))
    target = dest[0]
    page: Token = (float(pages.get(target.objgen, 0)) if isinstance(target, pikepdf.Dictionary)
                   else _number(target) if isinstance(target, (int, float)) else str(target))
    return ("to page", page, *_operands(list(dest)[1:], pages))


def _outline(item: Object, pages: dict[tuple[int, int], int], names: dict[str, Object], level: int) -> Iterator[Line]:
    for _ in range(10_000):
        target = item.get("/Dest", item.get("/A"))
        yield ("outline", float(level), str(item.get("/Title", "")), *_destination(target, pages, names))
        if "/First" in item and level < _MAX_DEPTH:
            yield from _outline(item.First, pages, names, level + 1)
        if "/Next" not in item:
            return
        item = item.Next


def _field(field: Object, parent: str, pages: dict[tuple[int, int], int], depth: int) -> Iterator[Line]:
    """A form field and its kids: its full name, then its entries (value, flags, type...) and each widget."""
    name = f"{parent}.{field.T}" if parent and "/T" in field else str(field.get("/T", parent))
    entries = _flat(field, pages, skip={"/Kids", "/Parent", "/P", "/AP", "/T"})
    page = field.get("/P")
    on_page = ("on page", float(pages.get(page.objgen, 0))) if page is not None else ()
    yield ("field", name, *on_page, *entries)
    if depth < _MAX_DEPTH:
        for kid in field.get("/Kids", []):
            yield from _field(kid, name, pages, depth + 1)


# --- content streams -----------------------------------------------------------------------------------------------

def _content(holder: Object, resources: Object | None, fonts: dict[str, bool], depth: int) -> Iterator[Line]:
    """The operators of a page's or a form's content, with their resources described in place."""
    import pikepdf

    lines: list[Line] = []
    font: Object | None = None
    for instruction in pikepdf.parse_content_stream(holder):
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            lines.append(("inline image", _digest(instruction.iimage.read_bytes())))
            continue
        operands, operator = list(instruction.operands), str(instruction.operator)
        if operator == "cm" and [float(v) for v in operands] == [1, 0, 0, 1, 0, 0]:
            continue
        if operator == "Tf" and operands:
            font = _resource(resources, "/Font", operands[0])
            face = _face(font)
            fonts[face] = fonts.get(face, False) or _embedded(font)
            lines.append(("Tf", face, *_operands(operands[1:])))
        elif operator in ("Tj", "'", '"', "TJ"):
            lines.append((operator, *_text_operands(operands, font)))
        elif operator == "Do" and operands:
            lines.extend(_xobject(_resource(resources, "/XObject", operands[0]), resources, fonts, depth))
        elif operator == "gs" and operands:
            lines.append(("gs", *_flat(_resource(resources, "/ExtGState", operands[0]), {})))
        elif operator in ("cs", "CS", "sh", "scn", "SCN") and operands and isinstance(operands[-1], pikepdf.Name):
            kind = {"sh": "/Shading", "cs": "/ColorSpace", "CS": "/ColorSpace"}.get(operator, "/Pattern")
            named = _resource(resources, kind, operands[-1])
            described = _flat(named, {}) if named is not None else (str(operands[-1]),)
            lines.append((operator, *_operands(operands[:-1]), *described))
        else:
            lines.append((operator, *_operands(operands)))
    yield from _without_empty_groups(lines)


def _xobject(xobject: Object | None, parent_resources: Object | None, fonts: dict[str, bool], depth: int) -> list[Line]:
    if xobject is None:
        return [("Do", "missing XObject")]
    if xobject.get("/Subtype") == "/Image":
        return [("image", *_flat(xobject, {}, skip={"/SMask", "/Mask"}))]
    bbox = _flat(xobject.get("/BBox"), {})
    matrix = _flat(xobject.get("/Matrix"), {}) if "/Matrix" in xobject else ("[", 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, "]")
    if depth >= _MAX_DEPTH:
        return [("form", "nested too deep")]
    inner = list(_content(xobject, xobject.get("/Resources", parent_resources), fonts, depth + 1))
    return [("form", "bbox", *bbox, "matrix", *matrix), *(("  ", *line) for line in inner), ("end form",)]


def _without_empty_groups(lines: list[Line]) -> list[Line]:
    """The lines less every `q ... Q` group (nested or not) that paints nothing."""
    out: list[Line] = []
    starts: list[tuple[int, bool]] = []  # for each open `q`: where it is in `out`, whether it painted yet
    for line in lines:
        operator = line[0]
        if operator == "q":
            starts.append((len(out), False))
            out.append(line)
        elif operator == "Q" and starts:
            start, painted = starts.pop()
            if painted:
                out.append(line)
                if starts:
                    starts[-1] = (starts[-1][0], True)
            else:
                del out[start:]
        else:
            out.append(line)
            if starts and (operator in _PAINTING or operator in ("form", "image", "inline image")):
                starts[-1] = (starts[-1][0], True)
    return out


def _resource(resources: Object | None, kind: str, name: Object) -> Object | None:
    group = resources.get(kind) if resources is not None else None
    return group.get(str(name)) if group is not None else None


# --- fonts and text ----------------------------------------------------------------------------------------------------

def _face(font: Object | None) -> str:
    if font is None:
        return "missing font"
    return _SUBSET_PREFIX.sub("", str(font.get("/BaseFont", "/unnamed")))


def _embedded(font: Object | None) -> bool:
    if font is None:
        return False
    descriptors = [font.get("/FontDescriptor")]
    descriptors += [f.get("/FontDescriptor") for f in font.get("/DescendantFonts", [])]
    return any(d is not None and any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3")) for d in descriptors)


def _text_operands(operands: list[Object], font: Object | None) -> list[Token]:
    import pikepdf

    mapping = _to_unicode(font)
    out: list[Token] = []
    for operand in operands:
        if isinstance(operand, pikepdf.String):
            out.append(_decode(bytes(operand), mapping))
        elif isinstance(operand, pikepdf.Array):  # TJ: strings and the adjustments between them
            out.extend(_decode(bytes(o), mapping) if isinstance(o, pikepdf.String) else _number(o) for o in operand)
        else:
            out.append(float(operand) if isinstance(operand, (int, float, Decimal)) else str(operand))
    return out


def _decode(raw: bytes, mapping: dict[bytes, str]) -> str:
    """Text bytes through a ToUnicode map; codes it does not map are shown as `<hex>`."""
    if not mapping:
        return repr(raw.decode("latin-1"))
    sizes = sorted({len(code) for code in mapping}, reverse=True)
    out, at = [], 0
    while at < len(raw):
        for size in sizes:
            code = raw[at:at + size]
            if code in mapping:
                out.append(mapping[code])
                at += size
                break
        else:
            out.append(f"<{raw[at:at + 1].hex()}>")
            at += 1
    return repr("".join(out))


_CMAP_SECTION = re.compile(rb"begin(bfchar|bfrange)(.*?)end\1", re.S)
_BFCHAR = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>")
_BFRANGE = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]*>|\[[^\]]*\])")


def _to_unicode(font: Object | None) -> dict[bytes, str]:
    """A font's ToUnicode CMap (PDF 32000-1, 9.10.3) as code bytes to text: its bfchar and bfrange entries."""
    if font is None or "/ToUnicode" not in font:
        return {}
    cmap = font.ToUnicode.read_bytes()
    mapping: dict[bytes, str] = {}
    for kind, body in _CMAP_SECTION.findall(cmap):
        if kind == b"bfchar":
            for code, target in _BFCHAR.findall(body):
                mapping[bytes.fromhex(code.decode())] = _utf16(target)
            continue
        for first, last, target in _BFRANGE.findall(body):
            low, high, width = int(first, 16), int(last, 16), len(first) // 2
            if target.startswith(b"["):
                targets = [_utf16(t) for t in re.findall(rb"<([0-9A-Fa-f]*)>", target)]
                for offset, text in enumerate(targets[:high - low + 1]):
                    mapping[(low + offset).to_bytes(width, "big")] = text
            else:
                start = int(target.strip(b"<>") or b"0", 16)
                for offset in range(min(high - low, 65_535) + 1):
                    mapping[(low + offset).to_bytes(width, "big")] = _utf16_value(start + offset)
    return mapping


def _utf16(hex_digits: bytes) -> str:
    return bytes.fromhex(hex_digits.strip(b"<>").decode()).decode("utf-16-be", errors="replace")


def _utf16_value(value: int) -> str:
    return value.to_bytes(max(2, (value.bit_length() + 15) // 16 * 2), "big").decode("utf-16-be", errors="replace")


# --- values ----------------------------------------------------------------------------------------------------------------

def _number(value: Object) -> float:
    return float(value)


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()[:16]


def _operands(values: list[Object], pages: dict[tuple[int, int], int] | None = None) -> Line:
    return tuple(t for value in values for t in _flat(value, pages or {}))


def _flat(value: Object | None, pages: dict[tuple[int, int], int], skip: set[str] | None = None, depth: int = 0) -> Line:
    """Any PDF value as tokens: names and strings as text, numbers as numbers, dictionaries with sorted keys,
    pages as their number, streams as their entries and a digest of their decoded data."""
    import pikepdf

    if depth > _MAX_DEPTH:
        return ("...",)
    if isinstance(value, bool):
        return (str(value).lower(),)
    if isinstance(value, (int, float, Decimal)):
        return (float(value),)
    if isinstance(value, (pikepdf.Name, pikepdf.String)):
        return (str(value),)
    if isinstance(value, pikepdf.Dictionary) and value.get("/Type") == "/Page":
        return ("page", float(pages.get(value.objgen, 0)))
    if isinstance(value, pikepdf.Dictionary) and value.get("/Type") == "/Font":
        return ("font", _face(value))
    if isinstance(value, (pikepdf.Dictionary, pikepdf.Stream)):
        leave_out = _STRUCTURE_KEYS if skip is None else skip | _STRUCTURE_KEYS
        out: list[Token] = ["<<"]
        for key in sorted(k for k in value.keys() if k not in leave_out):
            out += [key, *_flat(value[key], pages, None, depth + 1)]
        if isinstance(value, pikepdf.Stream):
            out += ["data", _digest(value.read_bytes())]
        return (*out, ">>")
    if isinstance(value, (pikepdf.Array, list, tuple)):
        return ("[", *(t for item in value for t in _flat(item, pages, None, depth + 1)), "]")
    if value is None:
        return ("null",)
    return (str(value),)
