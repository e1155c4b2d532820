"""Arabic letters joined as they are written.

An Arabic letter takes one of four shapes by its neighbours (isolated, final, initial, medial), and lam followed by
alef is written as one ligature. reportlab draws each character by the font's character map with no shaping
engine, so a card's `سيف` printed as three isolated letters, unjoined, in the PDF and in the SVG. Most Arabic
fonts also map Unicode's Arabic presentation forms (U+FB50-U+FDFF, U+FE70-U+FEFF), one code point per shape: a
word is written in them here, letter by letter, before it is measured and drawn. A shape the font lacks keeps the
plain letter, and such a letter is then taken as joining neither neighbour, so no neighbour reaches out to a letter
that does not reach back; a font with no presentation forms at all draws what it drew before.

The joining rules are Unicode's (The Unicode Standard, chapter 9.2 "Arabic", "Cursive Joining" and table 9-3, rules
R1 to R7), with each letter's joining type read from the presentation forms Unicode gives it: a letter with an
initial or a medial form joins both sides (type D), one with only a final form joins the letter before it (type
R), the rest join nothing (type U); combining marks (harakat) are transparent (type T), and the tatweel U+0640 and
the zero width joiner join both sides (type C). Contextual forms a font only reaches through OpenType (GSUB) tables
are beyond this: such a font still draws the plain letters.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from functools import cache

#: The four shapes' tags in the presentation forms' decompositions (UnicodeData.txt), in the order of the indexes below.
_SHAPES = ("<isolated>", "<final>", "<initial>", "<medial>")
ISOLATED, FINAL, INITIAL, MEDIAL = range(4)
#: The blocks of presentation forms: Arabic Presentation Forms-A and -B.
_FORM_BLOCKS = ((0xFB50, 0xFDFF), (0xFE70, 0xFEFF))
#: Lam (U+0644): with an alef after it, the two are one ligature (chapter 9.2, "Ligatures").
LAM = "\u0644"
#: Join causing: the tatweel (kashida, U+0640) and the zero width joiner (U+200D) join both their neighbours.
_CAUSING = frozenset("\u0640\u200d")
#: Text holding none of these characters (the Arabic blocks, from U+0600 to U+08FF) needs no shaping.
_ARABIC = (0x0600, 0x08FF)


@cache
def _forms() -> tuple[dict[str, tuple[str | None, ...]], dict[str, tuple[str | None, str | None]]]:
    """Each letter's shapes (isolated, final, initial, medial; None where Unicode gives none), and the lam-alef
    ligatures by the alef (isolated, final), read from the decompositions of the presentation forms."""
    shapes: dict[str, list[str | None]] = {}
    lam_alef: dict[str, list[str | None]] = {}
    for first, last in _FORM_BLOCKS:
        for code in range(first, last + 1):
            tag, _, letters = unicodedata.decomposition(chr(code)).partition(" ")
            if tag not in _SHAPES:
                continue
            parts = [chr(int(part, 16)) for part in letters.split()]
            if len(parts) == 1:
                shapes.setdefault(parts[0], [None] * 4)[_SHAPES.index(tag)] = chr(code)
            elif len(parts) == 2 and parts[0] == LAM and tag in _SHAPES[:2]:
                lam_alef.setdefault(parts[1], [None, None])[_SHAPES.index(tag)] = chr(code)
    # (no letter has one shape twice in these blocks: each entry is set once)
    return ({k: tuple(v) for k, v in shapes.items()},
            {k: (v[0], v[1]) for k, v in lam_alef.items()})


def needs_joining(text: str) -> bool:
    """Whether `text` holds a letter of the Arabic blocks (most card text holds none)."""
    return not text.isascii() and any(_ARABIC[0] <= ord(c) <= _ARABIC[1] for c in text)


def join(text: str, has: Callable[[str], bool]) -> str:
    """`text` with each Arabic letter in the shape its neighbours give it and lam-alef as one ligature, where
    `has(character)` says the font draws that shape; every other character as it is."""
    if not needs_joining(text):
        return text
    return join_pieces([(text, has)])[0]


def join_pieces(pieces: Sequence[tuple[str, Callable[[str], bool]]]) -> list[str]:
    """The pieces of one word (each drawn in its own face: a letter in bold or in colour inside a word) with each
    Arabic letter in the shape its neighbours in the whole word give it, where that piece's `has` says its face
    draws the shape; lam-alef is one ligature only when both letters are in one piece (a ligature's glyph is of one
    face), else each takes its own joined shape."""
    text = "".join(part for part, _has in pieces)
    if not needs_joining(text):
        return [part for part, _has in pieces]
    owner = [number for number, (part, _has) in enumerate(pieces) for _char in part]
    shapes, lam_alef = _forms()
    kinds = [_kind(c, shapes, pieces[owner[i]][1]) for i, c in enumerate(text)]
    out: list[list[str]] = [[] for _ in pieces]
    index = 0
    while index < len(text):
        char, kind, has = text[index], kinds[index], pieces[owner[index]][1]
        if kind not in ("D", "R"):
            out[owner[index]].append(char)
            index += 1
            continue
        joins_before = _neighbour(kinds, index, -1) in ("D", "C")
        ligature = (lam_alef.get(text[index + 1]) if char == LAM and index + 1 < len(text)
                    and owner[index + 1] == owner[index] else None)
        if ligature is not None:
            chosen = ligature[FINAL if joins_before else ISOLATED]
            if chosen is not None and has(chosen):
                out[owner[index]].append(chosen)
                index += 2
                continue
        joins_after = kind == "D" and _neighbour(kinds, index, 1) in ("D", "R", "C")
        shape = ((MEDIAL if joins_after else FINAL) if joins_before else INITIAL if joins_after else ISOLATED)
        form = shapes[char][shape]
        out[owner[index]].append(form if form is not None and has(form) else char)
        index += 1
    return ["".join(part) for part in out]


def _kind(char: str, shapes: dict[str, tuple[str | None, ...]], has: Callable[[str], bool]) -> str:
    """The joining type of `char` in a font (see the module's notes): D, R, U, T or C."""
    if char in _CAUSING:
        return "C"
    if unicodedata.category(char) in ("Mn", "Me"):
        return "T"
    forms = shapes.get(char)
    if forms is None:
        return "U"
    drawn = [form is not None and has(form) for form in forms]
    if drawn[FINAL] and drawn[INITIAL] and drawn[MEDIAL]:
        return "D"
    return "R" if drawn[FINAL] else "U"


def _neighbour(kinds: Sequence[str], index: int, step: int) -> str | None:
    """The joining type of the nearest letter before (step -1) or after (step 1) `index`, over transparent marks."""
    index += step
    while 0 <= index < len(kinds):
        if kinds[index] != "T":
            return kinds[index]
        index += step
    return None
