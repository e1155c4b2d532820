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
#: And what paints, so that a colour space's initial colour is measured when something is painted in it before any
#: `sc`/`scn` (PDF 1.7, 8.6.5.8): text shown (Tj, TJ, ', ") and the text rendering mode (Tr: whether text is filled,
#: stroked or neither); a path painted is not read one operator at a time (outlined text paints thousands), but
#: said once for each run of operators stepped over that paints one (`f` for a fill, `S` for a stroke, both for
#: B; PAINTS_FILL, PAINTS_STROKE); and the font text is set in (Tf), so that only the fonts text is shown in are held
#: to being embedded.
WANTED = frozenset({"q", "Q", "cm", "k", "K", "sc", "scn", "SC", "SCN", "rg", "g", "RG", "G", "gs", "Do", "cs",
                    "CS", "sh", "Tj", "TJ", "'", '"', "Tr", "Tf"})
#: What the walk of where the registration colour is painted reads besides (preflight._Marks): paths' points, their
#: painting, the line width, cap, join and miter limit, clipping, and the text state and matrices that place text.
PLACED = WANTED | frozenset({"m", "l", "c", "v", "y", "re", "h", "n", "W", "W*", "w", "J", "j", "M", "f", "F", "f*",
                             "B", "B*", "b", "b*", "S", "s", "BT", "ET", "Tf", "Tm", "Td", "TD", "T*", "TL", "Tz",
                             "Tc", "Tw", "Ts"})

#: What ends a token (PDF 1.7, 7.2.2: white space and delimiters), as pypdf's NameObject.delimiter_pattern says.
_DELIMITERS = rb"\s\[\]()<>{}/%"
#: A number as pypdf reads one in a drawing: a run of digits, signs and points (NumberObject.NumberPattern).
_NUMBER = rb"[-+.0-9]+"
#: An operator as pypdf reads one: a letter or a quote, then anything up to a delimiter.
_OPERATOR = rb"[A-Za-z'\"][^" + _DELIMITERS + rb"]*"


def _scanner(wanted: frozenset[str]) -> re.Pattern[bytes]:
    """The tokens of a drawing, for a set of operators wanted: a run of others, each with the numbers before it (the
    paths of outlined text, for WANTED), is one match."""
    kept = rb"(?:" + b"|".join(re.escape(w.encode()) for w in sorted(wanted | {"BI"}, key=lambda w: (-len(w), w))) \
        + rb")(?![^" + _DELIMITERS + rb"])"  # an operator wanted, or BI (an inline picture), as a whole word
    skip = rb"(?:(?:" + _NUMBER + rb"\s+)*(?!" + kept + rb")" + _OPERATOR + rb"\s*)+"
    return re.compile(rb"(?P<skip>" + skip + rb")" + _TOKENS, re.DOTALL)


_TOKENS = (
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
    rb"|(?P<other>.)")
#: The scanners of the two sets of operators read (WANTED, PLACED), made once.
_SCANNERS = {wanted: _scanner(wanted) for wanted in (WANTED, PLACED)}
#: A path-painting operator that fills (f, F, f*, B, B*, b, b*) or strokes (S, s, B, B*, b, b*) in a run of operators
#: stepped over (PDF 1.7, Table 60), as a whole word: operators there are parted from what is around them by white
#: space, or end the run before a delimiter.
#: Each is looked for only where the run's last operator is not one (a path's painting ends it, as a card's
#: outlined text ends in one `f` after hundreds of KB of paths), and then only in a run holding one of its letters
#: (`in`, at memchr's speed: a run of m, l, c, h and f is never searched for a stroke, a search reading it all).
PAINTS_FILL = re.compile(rb"\s(?:f\*?|F|B\*?|b\*?)(?![^" + _DELIMITERS + rb"])")
PAINTS_STROKE = re.compile(rb"\s(?:S|s|B\*?|b\*?)(?![^" + _DELIMITERS + rb"])")
_PAINTERS = (("f", PAINTS_FILL, (b"f", b"F", b"B", b"b"), frozenset({b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"})),
             ("S", PAINTS_STROKE, (b"S", b"s", b"B", b"b"), frozenset({b"S", b"s", b"B", b"B*", b"b", b"b*"})))

Operation = tuple[list[Any], str]


class Unreadable(Exception):
    """A drawing this scanner leaves to pypdf: an inline picture, or bytes that are no token."""


class TooMany(Exception):
    """A drawing of more operators wanted than the caller reads (`most`)."""


def operations(data: bytes, wanted: frozenset[str] = WANTED, most: int | None = None) -> list[Operation]:
    """The operators `wanted` (WANTED or PLACED) of the decoded drawing `data`, in order, each with its operands
    (pypdf's objects; an array's or a dictionary's items among them, unbracketed); for WANTED, `f` and/or `S`
    without operands where a run of operators stepped over fills and/or strokes a path. Raises Unreadable for a
    drawing to give to pypdf's parser instead, TooMany as soon as more than `most` operators are found (read no
    further: a hostile drawing of millions costs no more than `most`)."""
    from pypdf.generic import FloatObject, NameObject, NumberObject

    found: list[Operation] = []
    operands: list[Any] = []
    position, end = 0, len(data)
    match = _SCANNERS[wanted].match
    painted = "f" not in wanted  # paths' painting said for each run stepped over
    while position < end:
        token = match(data, position)
        assert token is not None  # `other` matches any byte
        kind = token.lastgroup
        position = token.end()
        if kind == "skip":
            operands = []
            if painted:
                run = b" " + token[0]  # (a white space before its first operator, as the searches want)
                last = run.rsplit(None, 1)[-1]
                found += [([], word) for word, paints, letters, ending in _PAINTERS if last in ending
                          or (any(letter in run for letter in letters) and paints.search(run))]
        elif kind == "numbers":
            operands += [FloatObject(n) if b"." in n else NumberObject(n) for n in token[0].split()]
        elif kind == "name":
            operands.append(_name(token[0], NameObject))
        elif kind == "operator":
            word = token[0].decode("latin-1")
            if word in wanted:
                found.append((operands, word))
                if most is not None and len(found) > most:
                    raise TooMany(f"more than {most} operators")
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
