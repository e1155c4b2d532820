"""The operators of a PDF drawing (a decoded content stream) that the preflight looks at, with their operands.

The preflight needs a few operators of a drawing (the transformation, colours, graphics states, forms and pictures
placed, gradients; `WANTED`), and none of the path operators that make up most of a deck whose text is outlines:
a card's form there is some 450 KB of `m`, `l`, `c`, `h`, `f`. pypdf's content parser builds a Python object for
every number and operator of it (a 120-card deck: 16 s of a 17 s preflight). This scanner lets one regular
expression step over each run of operators it does not want with their numbers (in C, by `re`), and reads the
rest token by token as pypdf does: names (with `#xx` escapes), numbers, strings (nested parentheses and escapes),
hex strings, arrays, dictionaries, comments. Operands are made by pypdf's own classes (`NameObject`,
`NumberObject`, `FloatObject`), so a check sees what it saw through pypdf.

A drawing holding a picture written inline (`BI ... ID ... EI`: binary data whose end only a picture's filters
tell) is left to pypdf's parser, as is what this scanner cannot read (a stray `)`, `>` or brace): pypdf then says
why the drawing is damaged, in its words, as before.
"""

from __future__ import annotations

import re
from typing import Any

#: The operators the preflight's checks read (preflight._walk): the graphics state's stack and matrix (q, Q, cm),
#: fill and stroke colours and colour spaces (k K sc scn SC SCN rg g RG G cs CS), graphics states (gs), forms and
#: pictures (Do), gradients (sh). Every other operator is stepped over with its operands.
WANTED = frozenset({"q", "Q", "cm", "k", "K", "sc", "scn", "SC", "SCN", "rg", "g", "RG", "G", "gs", "Do", "cs",
                    "CS", "sh"})

#: What ends a token (PDF 1.7, 7.2.2: white space and delimiters), as pypdf's NameObject.delimiter_pattern says.
_DELIMITERS = rb"\s\[\]()<>{}/%"
#: A number as pypdf reads one in a drawing: a run of digits, signs and points (NumberObject.NumberPattern).
_NUMBER = rb"[-+.0-9]+"
#: An operator as pypdf reads one: a letter or a quote, then anything up to a delimiter.
_OPERATOR = rb"[A-Za-z'\"][^" + _DELIMITERS + rb"]*"
#: An operator the checks want, or BI (an inline picture), as a whole word.
_KEPT = rb"(?:" + b"|".join(re.escape(w.encode()) for w in sorted(WANTED | {"BI"})) + rb")(?![^" + \
    _DELIMITERS + rb"])"
#: One run of operators not wanted, each with the numbers before it: the paths of outlined text are one match.
_SKIP = rb"(?:(?:" + _NUMBER + rb"\s+)*(?!" + _KEPT + rb")" + _OPERATOR + rb"\s*)+"

_TOKEN = re.compile(
    rb"(?P<skip>" + _SKIP + rb")"
    rb"|(?P<numbers>" + _NUMBER + rb"(?:\s+" + _NUMBER + rb")*)"
    rb"|(?P<name>/[^" + _DELIMITERS + rb"]*)"
    rb"|(?P<operator>" + _OPERATOR + rb")"
    rb"|(?P<string>\((?:[^()\\]|\\.)*\))"  # a string without nested parentheses; else read by _string_end
    rb"|(?P<open>\()"
    rb"|(?P<dictionary><<|>>)"
    rb"|(?P<hex><[^<>]*>)"
    rb"|(?P<array>[\[\]])"
    rb"|(?P<comment>%[^\r\n]*)"
    rb"|(?P<space>\s+)"
    rb"|(?P<other>.)", re.DOTALL)

Operation = tuple[list[Any], str]


class Unreadable(Exception):
    """A drawing this scanner leaves to pypdf: an inline picture, or bytes that are no token."""


def operations(data: bytes) -> list[Operation]:
    """The wanted operators of the decoded drawing `data`, in order, each with its operands (pypdf's objects).
    Raises Unreadable for a drawing to give to pypdf's parser instead."""
    from pypdf.generic import FloatObject, NameObject, NumberObject

    found: list[Operation] = []
    operands: list[Any] = []
    position, end = 0, len(data)
    match = _TOKEN.match
    while position < end:
        token = match(data, position)
        assert token is not None  # `other` matches any byte
        kind = token.lastgroup
        position = token.end()
        if kind == "skip":
            operands = []
        elif kind == "numbers":
            operands += [FloatObject(n) if b"." in n else NumberObject(n) for n in token[0].split()]
        elif kind == "name":
            operands.append(_name(token[0], NameObject))
        elif kind == "operator":
            word = token[0].decode("latin-1")
            if word in WANTED:
                found.append((operands, word))
            elif word == "BI":
                raise Unreadable("an inline picture")
            operands = []
        elif kind == "string" or kind == "hex":
            operands.append(token[0])  # no check reads a string operand: kept as its bytes, counted as one
        elif kind == "open":
            position = _string_end(data, token.start())
            operands.append(data[token.start():position])
        elif kind == "other":
            raise Unreadable(f"{token[0]!r} at {token.start()}")
        # arrays' and dictionaries' brackets, comments and white space: their tokens are operands of operators
        # not wanted (TJ, d, BDC), dropped with them
    return found


def _name(token: bytes, name_class: Any) -> Any:
    """A name as pypdf reads it: plain ASCII at once, else through pypdf (`#xx` escapes, its character sets)."""
    if b"#" not in token and token.isascii():
        return name_class(token.decode("ascii"))
    from io import BytesIO

    return name_class.read_from_stream(BytesIO(token), None)


#: What matters inside a string: an escape (a backslash and the byte after it) or a parenthesis.
_IN_STRING = re.compile(rb"\\.|[()]", re.DOTALL)


def _string_end(data: bytes, start: int) -> int:
    """Where a string with nested parentheses that begins at `start` (its `(`) ends, past its `)`: the bytes
    between parentheses and escapes are stepped over by `re`, not one by one in Python."""
    depth = 0
    for found in _IN_STRING.finditer(data, start):
        mark = found[0]
        if mark == b"(":
            depth += 1
        elif mark == b")":
            depth -= 1
            if depth == 0:
                return found.end()
    raise Unreadable("a string that does not end")
