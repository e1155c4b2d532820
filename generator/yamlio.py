"""Reading YAML and JSON documents safely, with the line of every value.

Why not `yaml.safe_load`: it loses line numbers, its C composer crashes the interpreter on very deep nesting
(libyaml's composer recurses in C), and an alias bomb expands into a structure that any later walk turns
exponential. Here libyaml only *parses* (an event stream, no recursion) and a small iterative composer builds
plain Python values, records the line of each, refuses nesting deeper than :data:`MAX_DEPTH`, and charges every
alias the full size of what it points to against :data:`MAX_VALUES`, so a bomb is refused before it is walked.

The result is a :class:`Document`: the data (dicts, lists, str, int, float, bool, None) plus a table from
path (a tuple of keys and indices) to the 1-based line where that value starts.
"""

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from generator.errors import unreadable
from generator.files import MAX_BYTES, read_bytes
from generator.i18n import N_, Figure
from generator.sayings import Quoted

#: Deeper nesting than this is refused: no catalog, layout or end state needs more than a dozen levels.
MAX_DEPTH = 64
#: Values a document may hold once aliases are expanded.
MAX_VALUES = 2_000_000

#: What a file that cannot be read is told in several places (each said in the reader's language: unreadable).
NESTED = N_("is nested more than {most} levels deep")
LONG_NUMBER = N_("holds a whole number of {n} digits; no number donjon reads comes near that")
NOT_YAML = N_("is not valid YAML: {problem}")
LIST_KEY = N_("uses a list or mapping as a mapping key, which donjon does not accept")
#: What the parser's problems mean, in donjon's words (which a language translates, where the parser's own stay
#: English): the problem as libyaml says it or as PyYAML's own parser does (a build without libyaml), followed by its
#: context in brackets, and what to change. A problem not here is said in the parser's words.
PARSER_PROBLEMS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(found), said) for found, said in (
    (r"^(did not find expected|expected) ',' or '\]'", N_("is not valid YAML: a list in brackets is not closed: a ',' "
                                                         "or ']' is expected here")),
    (r"^(did not find expected|expected) ',' or '\}'", N_("is not valid YAML: a mapping in braces is not closed: a "
                                                         "',' or a closing brace is expected here")),
    (r"^(did not find expected node content|expected the node content)",
     N_("is not valid YAML: a value is expected here (a bracket or a brace left open, or one closing nothing)")),
    (r"^mapping values are not allowed", N_("is not valid YAML: a ': ' where no key can be (put a value holding ': ' "
                                            "in quotes, or indent this line as its neighbours are)")),
    (r"^found unexpected end of stream \(while scanning a quoted scalar\)",
     N_("is not valid YAML: a quoted value is never closed (its closing quote is missing)")),
    (r"^(did not find expected '-' indicator|expected <block end>, but found '\?')",
     N_("is not valid YAML: a key among a list's items ('- '): a list and keys cannot share an indentation")),
    (r"^(did not find expected key|expected <block end>, but found)",
     N_("is not valid YAML: this line is not indented as the keys above it are (indent the keys of one mapping "
        "alike, with spaces)")),
    (r"^found character .*that cannot start any token", N_("is not valid YAML: a value begins with a character "
                                                           "YAML keeps for itself ('@', '`'): put the value in "
                                                           "quotes")),
    (r"^found unknown escape character", N_("is not valid YAML: a backslash in double quotes begins no escape YAML "
                                            "knows: write it twice, or put the value in single quotes")),
    (r"^(did not find expected <document start>|expected '<document start>')",
     N_("is not valid YAML: more text after a value that is complete (after its closing quote?)")),
))

PathKey = tuple[str | int, ...]

try:  # libyaml's parser when PyYAML was built with it (the wheels are), else the pure-Python one
    _Parser: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Parser = yaml.SafeLoader

_resolver = yaml.resolver.Resolver()
_constructor = yaml.constructor.SafeConstructor()
_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}
_TIMESTAMP = "tag:yaml.org,2002:timestamp"


class Document:
    """A parsed document: its data and the line where each value starts."""

    __slots__ = ("file", "data", "lines", "spelled")

    file: str
    data: Any
    lines: Mapping[PathKey, int]
    #: each plain YAML value read as another value than its text shows (`yes` read as true, `010` as 8), as the
    #: file spells it: a message quotes what the file says, not Python's reading of it (`True`)
    spelled: Mapping[PathKey, str]

    def __init__(self, file: str, data: Any, lines: Mapping[PathKey, int],
                 spelled: Mapping[PathKey, str] | None = None) -> None:
        self.file = file
        self.data = data
        self.lines = lines
        self.spelled = spelled or {}

    def line(self, path: PathKey) -> int | None:
        """The line of the value at `path`, or of its nearest ancestor whose line is known."""
        for end in range(len(path), -1, -1):
            found = self.lines.get(path[:end])
            if found is not None:
                return found
        return None


def read_text(path: Path, *, display: str | None = None, max_bytes: int = MAX_BYTES) -> str:
    """Read a UTF-8 text file (a leading BOM is allowed), refusing binary, oversized or undecodable files."""
    name = display or str(path)
    return decode(read_bytes(path, name, max_bytes), name)


#: The byte-order marks of the Unicode encodings other than UTF-8, longest first (UTF-32's little-endian mark begins
#: with UTF-16's): Windows Notepad's "Unicode" and Excel's "Unicode Text" save UTF-16 with its mark, and the mark
#: says the encoding for certain, so such a file is read rather than refused as binary for its NUL bytes.
_UNICODE_MARKS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
                  (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def decode(raw: bytes, name: str) -> str:
    """Decode UTF-8 bytes (or UTF-16 and UTF-32 led by their byte-order mark), naming the line of the first byte
    that is not UTF-8 or is a NUL."""
    for mark, codec in _UNICODE_MARKS:
        if raw.startswith(mark):
            return _decode_marked(raw, codec, name)
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise unreadable(name, N_("is not a text file (it holds NUL bytes)"), raw.count(b"\n", 0, nul) + 1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise unreadable(name, N_("is not UTF-8 text (byte {byte} at offset {offset})"), line,
                         byte=f"0x{raw[err.start]:02x}", offset=err.start) from None
    return text[1:] if text.startswith("\ufeff") else text


def _decode_marked(raw: bytes, codec: str, name: str) -> str:
    """Decode a file led by the byte-order mark of `codec` (the codec reads the mark and drops it)."""
    try:
        text = raw.decode(codec)
    except UnicodeDecodeError as err:
        line = raw[:err.start].decode(codec, errors="replace").count("\n") + 1
        raise unreadable(name, N_("is not {codec} text past offset {offset}, though it begins with the {codec} "
                                  "byte-order mark"), line, codec=codec.upper(), offset=err.start) from None
    nul = text.find("\x00")
    if nul >= 0:
        raise unreadable(name, N_("is not a text file (it holds NUL characters)"), text.count("\n", 0, nul) + 1)
    return text


def load_file(path: Path, *, display: str | None = None, max_bytes: int = MAX_BYTES,
              as_written: bool = False) -> Document:
    """Load a `.json` file as JSON and anything else as YAML (`as_written`: see :func:`loads_yaml`)."""
    name = display or str(path)
    text = read_text(path, display=name, max_bytes=max_bytes)
    if path.suffix.lower() == ".json":
        return loads_json(text, name)
    return loads_yaml(text, name, as_written)


def loads_json(text: str, name: str) -> Document:
    """Parse JSON text; each value gets its line (as in YAML) and errors theirs.

    A key given twice in one object is refused, as the YAML reader refuses it: JSON parsers keep the last one
    silently, so a typo or a pasted block would drop a value unseen."""
    import json  # here, not at the top: YAML documents (most of them) never need it
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float,
                          object_pairs_hook=_unique_keys)
    except _Infinite as err:  # 1e400: json would read it as inf, which no count or score is
        at = text.count("\n", 0, max(0, text.find(err.token))) + 1
        raise unreadable(name, N_("holds {value}, which is not a finite number"), at, value=err.token) from None
    except _DuplicateKey as err:
        line = _duplicate_line(text, err.key)
        raise unreadable(name, N_("holds the key {key} twice in one object; a key is given once"), line,
                         key=Quoted(err.key)) from None
    except json.JSONDecodeError as err:
        raise unreadable(name, N_("is not valid JSON: {problem} (column {column})"), err.lineno, problem=err.msg,
                         column=err.colno) from None
    except RecursionError:
        raise unreadable(name, NESTED, most=MAX_DEPTH) from None
    except ValueError as err:  # NaN/Infinity, or an integer with too many digits
        digits = re.search(r"\d{%d,}" % (_LONGEST_DIGITS + 1), text)
        if digits is not None:  # Python's own message would tell the user to change an interpreter setting
            raise unreadable(name, LONG_NUMBER, text.count("\n", 0, digits.start()) + 1,
                             n=Figure(len(digits.group()))) from None
        raise unreadable(name, N_("is not valid JSON: {problem}"), problem=str(err)) from None
    _check_depth(data, name)
    if "\\u" in text:  # only an escape can make half a character: the text itself was decoded strictly
        _refuse_lone_surrogates(data, text, name)
    # a file on one line: every value is on line 1; on several, each value's line is found as YAML's are
    return Document(name, data, _json_lines(text) if "\n" in text.rstrip() else {(): 1})


#: Python converts integers of up to 4,300 digits (sys.get_int_max_str_digits()); json refuses longer ones.
_LONGEST_DIGITS = 4300
#: JSON's whitespace between tokens.
_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def _json_lines(text: str) -> dict[PathKey, int]:
    """The line of each value of a JSON text json.loads has already read (so it is valid JSON, nested at most
    MAX_DEPTH deep), keyed as the YAML reader keys them: an object's entry at the line of its key, a list's item
    at the line where it starts, the document at its first value."""
    import bisect
    import json

    breaks = [m.start() for m in re.finditer("\n", text)]
    decoder = json.JSONDecoder()
    lines: dict[PathKey, int] = {}

    def line_at(index: int) -> int:
        return bisect.bisect_left(breaks, index) + 1

    def skip(index: int) -> int:
        """The index of the first character at or after `index` that is not JSON whitespace."""
        space = _JSON_SPACE.match(text, index)
        assert space is not None  # the pattern matches the empty string
        return space.end()

    def value(index: int, path: PathKey) -> int:
        """Read the value starting at `index` (after spaces), recording its line; return the index after it."""
        index = skip(index)
        lines.setdefault(path, line_at(index))
        opening = text[index]
        if opening not in "{[":
            return decoder.raw_decode(text, index)[1]
        closing, position = ("}" if opening == "{" else "]"), 0
        index = skip(index + 1)
        if text[index] == closing:
            return index + 1
        while True:
            if opening == "{":
                key, after = decoder.raw_decode(text, index)  # the key, a string
                lines[(*path, key)] = line_at(index)
                index = skip(after) + 1  # past the ':'
                index = value(index, (*path, key))
            else:
                index = value(index, (*path, position))
                position += 1
            index = skip(index)
            if text[index] == closing:
                return index + 1
            index = skip(index + 1)  # past the ','

    try:
        value(0, ())
    except (ValueError, IndexError):  # not reached for a text json.loads read; lines are a help, never a failure
        return {(): 1}
    return lines


# Both patterns stay text until a JSON file with a `\u` escape needs them (`re` compiles each on first use).
#: Half of a UTF-16 pair: `\ud800` alone is valid JSON but no character, and no file or terminal can take it.
_SURROGATE = "[\ud800-\udfff]"
#: A `\u` escape of a high half with its low half, or of either half alone.
_SURROGATE_ESCAPE = r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[dD][89a-fA-F][0-9a-fA-F]{2}"


def _refuse_lone_surrogates(data: Any, text: str, name: str) -> None:
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and (found := re.search(_SURROGATE, value)):
            lone = next((m for m in re.finditer(_SURROGATE_ESCAPE, text) if len(m.group()) == 6), None)
            line = text.count("\n", 0, lone.start()) + 1 if lone else None
            shown = lone.group() if lone else f"\\u{ord(found.group()):x}"
            raise unreadable(name, N_("holds {escape}, half of a character written as two escapes (a UTF-16 pair) "
                                      "without its other half: it is no character; write the character itself"),
                             line, escape=shown)


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return out


def _duplicate_line(text: str, key: str) -> int | None:
    """The line of the second `"key":` of the first object that repeats `key`, found by parsing again with the
    pure-Python scanner, which tells where each object starts and ends (only a refused file pays for it)."""
    import json
    from json import decoder, scanner

    spans: list[tuple[int, int]] = []

    def parse_object(s_and_end: tuple[str, int], *args: Any, **kwargs: Any) -> tuple[Any, int]:
        parsed: tuple[Any, int] = getattr(decoder, "JSONObject")(s_and_end, *args, **kwargs)  # noqa: B009
        return parsed

    def pairs_hook(pairs: list[tuple[str, Any]]) -> Any:
        return pairs

    class Finder(json.JSONDecoder):
        def __init__(self) -> None:
            super().__init__(object_pairs_hook=pairs_hook)

            def parse(s_and_end: tuple[str, int], *args: Any, **kwargs: Any) -> tuple[Any, int]:
                start = s_and_end[1]
                found, end = parse_object(s_and_end, *args, **kwargs)
                keys = [k for k, _ in found]
                if keys.count(key) > 1:
                    spans.append((start, end))
                return found, end

            self.parse_object = parse
            self.scan_once = getattr(scanner, "py_make_scanner")(self)  # noqa: B009 - untyped in typeshed

    try:
        Finder().decode(text)
    except ValueError:
        return None
    if not spans:
        return None
    start, end = min(spans)
    token = re.compile(re.escape(json.dumps(key, ensure_ascii=False)) + r"\s*:")
    hits = [m.start() for m in token.finditer(text, start, end)]
    at = hits[1] if len(hits) > 1 else start
    return text.count("\n", 0, at) + 1


def _refuse_constant(token: str) -> float:
    raise ValueError(f"{token} is not a number donjon accepts")


class _Infinite(ValueError):
    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


def _finite_float(token: str) -> float:
    """A JSON number with a fraction or exponent, refused when too large for a float (as YAML's `.inf` is)."""
    value = float(token)
    if not math.isfinite(value):
        raise _Infinite(token)
    return value


def _check_depth(data: Any, name: str) -> None:
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise unreadable(name, NESTED, most=MAX_DEPTH)
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


class _Frame:
    __slots__ = ("container", "path", "anchor", "key", "key_line", "size", "keys_seen")

    def __init__(self, container: Any, path: PathKey, anchor: str | None) -> None:
        self.container = container
        self.path = path
        self.anchor = anchor
        self.key: Any = _NO_KEY
        self.key_line = 0
        self.size = 1
        self.keys_seen: set[Any] = set()


_NO_KEY = object()


def loads_yaml(text: str, name: str, as_written: bool = False) -> Document:
    """Parse YAML text into a :class:`Document` (one document per file; an empty file gives `None`).

    `as_written` (a table of cards, whose cells are printed): a plain value that YAML 1.1 reads as another value
    than its text shows (:func:`_as_written`) is kept as the text written."""
    lines: dict[PathKey, int] = {}
    spelled: dict[PathKey, str] = {}
    anchors: dict[str, tuple[Any, int]] = {}  # name -> (value, expanded size)
    stack: list[_Frame] = []
    root: Any = None
    total = 0
    documents = 0
    try:
        # the parser's events asked for one by one, as yaml.parse does but without a generator around each
        next_event = _Parser(text).get_event
        while (event := next_event()) is not None:
            kind = type(event)
            if kind is yaml.ScalarEvent or kind is yaml.AliasEvent:
                if kind is yaml.AliasEvent:
                    if event.anchor not in anchors:
                        raise unreadable(name, N_("alias *{anchor} names no anchor"), event.start_mark.line + 1,
                                         anchor=event.anchor)
                    value, size = anchors[event.anchor]
                else:
                    (value, written), size = _plain_scalar(event, name), 1
                    if written is not value and stack:
                        top = stack[-1]  # a value (not a key) that YAML 1.1 reads otherwise than it is written
                        if isinstance(top.container, list):
                            spelled[(*top.path, len(top.container))] = event.value
                        elif top.key is not _NO_KEY:
                            spelled[(*top.path, top.key)] = event.value
                    if as_written:
                        value = written
                    if event.anchor:
                        anchors[event.anchor] = (value, 1)
                total += size
                if total > MAX_VALUES:
                    raise unreadable(name, N_("expands to more than {most} values (an alias bomb?)"),
                                     event.start_mark.line + 1, most=Figure(MAX_VALUES))
                line = event.start_mark.line + 1
                if not stack:
                    root = _place(stack, value, size, line, lines, name, root)
                    continue
                # what _place and _attach do, written out for the values of a file (each of them goes this way)
                top = stack[-1]
                held = top.container
                if type(held) is list:  # the containers are the very dicts and lists made below
                    path = (*top.path, len(held))
                    lines.setdefault(path, line)
                    top.size += size
                    held.append(value)
                elif top.key is not _NO_KEY:
                    key = top.key
                    lines[(*top.path, key)] = top.key_line
                    top.size += size
                    held[key] = value
                    top.key = _NO_KEY
                elif isinstance(value, (dict, list)) or value in top.keys_seen:
                    _place(stack, value, size, line, lines, name, root)  # refused there
                else:  # a key
                    top.keys_seen.add(value)
                    top.key = value
                    top.key_line = line
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                _check_tag(event, name)
                if len(stack) >= MAX_DEPTH:
                    raise unreadable(name, NESTED, event.start_mark.line + 1, most=MAX_DEPTH)
                line = event.start_mark.line + 1
                container: Any = {} if kind is yaml.MappingStartEvent else []
                path = _child_path(stack, line, name)
                lines.setdefault(path, line)
                stack.append(_Frame(container, path, event.anchor))
                total += 1
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                frame = stack.pop()
                if frame.anchor:
                    anchors[frame.anchor] = (frame.container, frame.size)
                root = _attach(stack, frame.container, frame.size, frame.path, lines, name, root)
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise unreadable(name, N_("holds more than one YAML document (a second '---')"),
                                     event.start_mark.line + 1)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        deep = _too_deep_flow_line(text, mark.index if mark is not None else len(text))
        if deep is not None:  # libyaml scans a flow collection ahead and may give up on depth before we see it
            raise unreadable(name, NESTED, deep, most=MAX_DEPTH) from None
        line = mark.line + 1 if mark is not None else None
        if mark is not None and text[mark.index:mark.index + 1] == "\t":
            # an editor's tab: the parser's words ("cannot start any token") do not say what to change
            raise unreadable(name, N_("is not valid YAML: a tab at column {column}, where YAML takes spaces (indent "
                                      "with spaces, never tabs)"), line, column=mark.column + 1) from None
        problem = err.problem or "not valid YAML"
        seen = f"{problem} ({err.context})"
        said = next((said for found, said in PARSER_PROBLEMS if found.search(seen)), None)
        if said is not None:  # donjon's own words for it, in the reader's language
            raise unreadable(name, said, line) from None
        raise unreadable(name, NOT_YAML, line, problem=problem) from None
    except yaml.reader.ReaderError as err:
        line = text.count("\n", 0, err.position) + 1
        raise unreadable(name, N_("is not valid YAML: it holds the control character {code}"), line,
                         code=f"U+{err.character:04X}") from None
    except yaml.YAMLError as err:
        raise unreadable(name, NOT_YAML, problem=str(err)) from None
    return Document(name, root, lines, spelled)


def _too_deep_flow_line(text: str, end: int) -> int | None:
    """The line where flow brackets (`[`, `{`) first nest deeper than MAX_DEPTH before `end`, if they do.

    Called only once the parser has already refused the text, to say why in donjon's words: libyaml scans a flow
    collection ahead of the events the composer counts, and newer releases stop at a nesting limit of their own
    with their own wording. Quoted scalars and comments are skipped; a stray bracket inside a plain scalar can
    only make the estimate deeper than the truth for a text that is refused anyway."""
    depth = 0
    quote = ""
    i = 0
    limit = min(end + 1, len(text))
    while i < limit:
        char = text[i]
        if quote:
            if char == "\\" and quote == '"':
                i += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#" and (i == 0 or text[i - 1] in " \t\n"):
            newline = text.find("\n", i)
            i = limit if newline < 0 else newline
            continue
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return text.count("\n", 0, i) + 1
        elif char in "]}":
            depth = max(depth - 1, 0)
        i += 1
    return None


def _check_tag(event: Any, name: str) -> None:
    tag = event.tag
    if tag and tag not in ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "!"):
        raise unreadable(name, N_("uses the tag {tag}, which donjon does not accept"), event.start_mark.line + 1,
                         tag=Quoted(tag))


#: What plain scalars without a tag resolved to, by their text and style, with their reading as written
#: (:func:`_written`). Files repeat the same few words and numbers, and resolving one (the resolver's regular
#: expressions, then a constructor) costs more than the rest of reading it. Bounded, and holding only immutable
#: values (text, numbers, booleans, None), so sharing is safe; a scalar that is refused raises before it is
#: remembered.
_RESOLVED: dict[tuple[str, Any], tuple[Any, Any]] = {}
_RESOLVED_MOST = 4096


def _plain_scalar(event: Any, name: str) -> tuple[Any, Any]:
    """A scalar's value and its reading as written (:func:`_written`)."""
    if event.tag is not None or len(event.value) > 64:
        return _written(event.value, _scalar(event, name))
    key = (event.value, event.implicit)
    found = _RESOLVED.get(key)
    if found is None:
        found = _written(event.value, _scalar(event, name))
        if len(_RESOLVED) < _RESOLVED_MOST:
            _RESOLVED[key] = found
    return found


def _written(text: str, value: Any) -> tuple[Any, Any]:
    """`value` and :func:`_as_written`'s reading of it: the very same object unless the text shows another value
    (`yes` read as true: the text), so that `is` tells the two apart."""
    if value is None or isinstance(value, str):
        return value, value
    return value, _as_written(text, value)


def _scalar(event: Any, name: str) -> Any:
    """Resolve a scalar the way YAML 1.1 (PyYAML) does, but keep dates as text and refuse other tags."""
    plain, _quoted = event.implicit
    tag = event.tag
    if tag in (None, "!"):
        tag = _resolver.resolve(yaml.ScalarNode, event.value, event.implicit)  # type: ignore[no-untyped-call]
    if tag == _TIMESTAMP:
        return event.value
    if tag not in _SCALAR_TAGS:
        raise unreadable(name, N_("uses the tag {tag}, which donjon does not accept"), event.start_mark.line + 1,
                         tag=Quoted(tag))
    if tag == "tag:yaml.org,2002:str":
        return event.value
    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark)
    try:
        value = _constructor.yaml_constructors[tag](_constructor, node)
    except ValueError:  # an integer with more digits than Python converts (Python's message says to raise a limit)
        digits = sum(c.isdigit() for c in event.value)
        raise unreadable(name, LONG_NUMBER, event.start_mark.line + 1, n=Figure(digits)) from None
    if isinstance(value, float) and not math.isfinite(value):
        raise unreadable(name, N_("holds {value}, which is not a finite number"), event.start_mark.line + 1,
                         value=Quoted(event.value))
    return value


#: How a number is written when it is read as written: a whole number in decimals without a leading zero, and a
#: decimal fraction (as YAML 1.2's core schema writes them, 10.3.2, less its `.inf` and `.nan`).
_WHOLE_AS_WRITTEN = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_FRACTION_AS_WRITTEN = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)(?:[eE][-+]?[0-9]+)?")


def _as_written(text: str, value: Any) -> Any:
    """A plain value as a table cell: `value`, YAML 1.1's reading of `text`, where it is what the text shows, else
    the text. YAML 1.1 reads `Yes`, `No`, `On` and `Off` as true and false, `010` as 8, `0x1F` as 31 and `12:30`
    as 750 (base 60): a card named No was refused as having no name, and a card named Yes printed True."""
    if isinstance(value, bool):
        return value if text.lower() in ("true", "false") else text
    written = _WHOLE_AS_WRITTEN if isinstance(value, int) else _FRACTION_AS_WRITTEN
    return value if written.fullmatch(text) else text


def _child_path(stack: list[_Frame], line: int, name: str) -> PathKey:
    if not stack:
        return ()
    top = stack[-1]
    if isinstance(top.container, list):
        return (*top.path, len(top.container))
    if top.key is _NO_KEY:
        raise unreadable(name, LIST_KEY, line)
    return (*top.path, top.key)


def _place(stack: list[_Frame], value: Any, size: int, line: int, lines: dict[PathKey, int], name: str,
           root: Any) -> Any:
    """Put a scalar or an alias's value where the parser is (a key, a mapping value or a list item)."""
    if not stack:
        lines.setdefault((), line)
        return value
    top = stack[-1]
    if isinstance(top.container, dict) and top.key is _NO_KEY:
        if isinstance(value, (dict, list)):
            raise unreadable(name, LIST_KEY, line)
        if value in top.keys_seen:
            raise unreadable(name, N_("repeats the key {key} in one mapping"), line, key=Quoted(value))
        top.keys_seen.add(value)
        top.key = value
        top.key_line = line
        return root
    path = (*top.path, top.key) if isinstance(top.container, dict) else (*top.path, len(top.container))
    lines.setdefault(path, line)
    return _attach(stack, value, size, path, lines, name, root)


def _attach(stack: list[_Frame], value: Any, size: int, path: PathKey, lines: dict[PathKey, int], name: str,
            root: Any) -> Any:
    if not stack:
        return value
    top = stack[-1]
    top.size += size
    if isinstance(top.container, list):
        top.container.append(value)
    else:
        if top.key is _NO_KEY:
            raise unreadable(name, LIST_KEY, lines.get(path))
        top.container[top.key] = value
        lines[(*top.path, top.key)] = top.key_line
        top.key = _NO_KEY
    return root
