"""Text as card, sheet and reference drawings show it: the little markup of text, wrapping it to a width and
shrinking it to fit a box, and laying the lines out as runs of the drawing model.

The markup (in a layout's own template text, a reference's paragraphs and a sheet's labels):

- `**bold**` and `*italic*` switch to the face's bold or italic (a font without one is an error);
- `{name}` draws icon `name` (generator.render.icons) on the baseline at the text's size (`Gain 2 {wood}`);
  `{{`/`}}` and anything not shaped like `{name}` print as they are;
- a newline starts a new line; `\\` escapes the next character.

Fitting: text wraps at spaces to the box's width; if the lines are too wide or too many for the box at the
style's size, the size steps down by :data:`STEP` points, never below the style's `min_size`. Text that still
does not fit raises :class:`NoFit` with the reason; the caller names the card and the field.

This is a service of the drawing layer: card layouts, castle score sheets and card references all fit their
text with it.
"""

import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar

from generator.render import fonts
from generator.render.icons import ICON_ADVANCE, ICON_RISE, ICON_SIDE, icons
from generator.render.model import IconUse, Primitive, TextRun
from generator.units import to_mm
from generator.wording import plural

T = TypeVar("T")

#: Sizes are tried in steps of a quarter point: fine enough to use the room, coarse enough to stay stable.
STEP = 0.25
DEFAULT_LEADING = 1.2


class TextProblem(Exception):
    """Text that cannot be drawn (bad markup, an unknown icon, a missing glyph)."""


class NoFit(TextProblem):
    """Text too long for its box even at the smallest size allowed."""


_MARKUP = re.compile(r"([\\*])")


def escape_markup(value: Any) -> str:
    """What a template prints from card data: markup characters escaped so they print as themselves."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value)
    return _MARKUP.sub(r"\\\1", text) if ("*" in text or "\\" in text) else text


# --- markup -------------------------------------------------------------------------------------------------------

_TOKENS = re.compile(r"\\(.)|(\*\*)|(\*)|(?<!\{)\{([a-z][a-z0-9-]*)\}(?!\})|(\n)|([ \t\r]+)|([^\\*{\n \t\r]+|\{|\\)",
                     re.S)


class Piece(NamedTuple):
    """Part of a word in one face, or an icon (`icon` set, `text` empty)."""

    face: str
    text: str = ""
    icon: str | None = None


class Word(NamedTuple):
    """Pieces printed without a break between them; `w1` is the width at 1 pt, `space1` the space after it."""

    pieces: tuple[Piece, ...]
    w1: float
    space1: float


Paragraph = tuple[Word, ...]


def _word(pieces: list[Piece], base: str) -> Word:
    w1 = 0.0
    for piece in pieces:
        w1 += ICON_ADVANCE if piece.icon else fonts.width(piece.face, piece.text)
    last = pieces[-1]
    return Word(tuple(pieces), w1, fonts.width(base if last.icon else last.face, " "))


def parse(text: str, face: str) -> tuple[Paragraph, ...]:
    """Markup into paragraphs of words (raises TextProblem on bad markup, unknown icons, missing glyphs)."""
    bold = italic = False
    current = face
    paragraphs: list[Paragraph] = []
    words: list[Word] = []
    pieces: list[Piece] = []
    chunk: list[str] = []

    def flush_chunk() -> None:
        if chunk:
            joined = "".join(chunk)
            lacking = fonts.missing(current, joined)
            if lacking:
                listed = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in lacking)
                raise TextProblem(f"the font {fonts.FACES[current].family} has no glyph for {listed}")
            pieces.append(Piece(current, joined))
            chunk.clear()

    def flush_word() -> None:
        flush_chunk()
        if pieces:
            words.append(_word(pieces, face))
            pieces.clear()

    def switch(to_bold: bool, to_italic: bool) -> None:
        nonlocal bold, italic, current
        flush_chunk()
        found = fonts.variant(face, to_bold, to_italic)
        if found is None:
            want = " ".join(w for w, on in (("bold", to_bold), ("italic", to_italic)) if on)
            raise TextProblem(f"the font {fonts.FACES[face].family} has no {want} face (in {text[:40]!r})")
        bold, italic, current = to_bold, to_italic, found

    for match in _TOKENS.finditer(text):
        escaped, strong, emph, icon, newline, space, plain = match.groups()
        if plain is not None:
            chunk.append(plain)
        elif space is not None:
            flush_word()
        elif escaped is not None:
            if escaped == "\n":
                flush_word()
                paragraphs.append(tuple(words))
                words = []
            else:
                chunk.append(escaped)
        elif icon is not None:
            if icon not in icons():
                raise TextProblem(f"{{{icon}}} is not an icon donjon has{_close(icon)} "
                                  f"(icons: {', '.join(sorted(icons()))})")
            flush_chunk()
            pieces.append(Piece(current, "", icon))
        elif strong is not None:
            switch(not bold, italic)
        elif emph is not None:
            switch(bold, not italic)
        elif newline is not None:
            flush_word()
            paragraphs.append(tuple(words))
            words = []
    flush_word()
    paragraphs.append(tuple(words))
    if bold or italic:
        raise TextProblem(f"{'**' if bold else '*'} is opened but not closed in {text[:60]!r}")
    while paragraphs and not paragraphs[-1]:
        paragraphs.pop()
    while paragraphs and not paragraphs[0]:
        paragraphs.pop(0)
    return tuple(paragraphs)


def _close(name: str) -> str:
    import difflib

    found = difflib.get_close_matches(name, list(icons()), n=1, cutoff=0.6)
    return f" (did you mean {{{found[0]}}}?)" if found else ""


def shown(word: Word) -> str:
    """A word as it was written (icons as `{name}`), for messages."""
    return "".join(p.text if p.icon is None else "{" + p.icon + "}" for p in word.pieces)


# --- fitting ------------------------------------------------------------------------------------------------------

class Style(NamedTuple):
    """A resolved text style (sizes in points; `colour` already a `#rrggbb`)."""

    face: str
    size: float
    min_size: float
    colour: str
    align: str = "left"
    valign: str = "top"
    leading: float = DEFAULT_LEADING
    wrap: bool = True


class WrappedLine(NamedTuple):
    words: tuple[Word, ...]
    #: width at 1 pt (multiply by the size)
    w1: float
    #: the first line of its paragraph (a paragraph's direction is that of its first strong letter)
    first: bool = True


def wrap(paragraphs: Sequence[Paragraph], size: float, width: float,
         wrap_lines: bool = True) -> list[WrappedLine] | None:
    """Greedy line breaking at `size`; None when a word (or an unwrapped line) is wider than `width`."""
    limit = width / size + 1e-9
    lines: list[WrappedLine] = []
    for para in paragraphs:
        current: list[Word] = []
        used = 0.0
        first = True
        for word in para:
            if word.w1 > limit:
                return None
            if not current:
                current, used = [word], word.w1
                continue
            after = used + current[-1].space1 + word.w1
            if after <= limit or not wrap_lines:
                current.append(word)
                used = after
            else:
                lines.append(WrappedLine(tuple(current), used, first))
                current, used, first = [word], word.w1, False
        if not wrap_lines and used > limit:
            return None
        lines.append(WrappedLine(tuple(current), used, first))
    return lines


def block_height(lines: int, size: float, style: Style) -> float:
    """The height of `lines` lines: every line's pitch but the last, whose ascent and descent must fit."""
    m = fonts.metrics(style.face)
    return 0.0 if lines == 0 else (lines - 1) * size * style.leading + size * (m.ascent + m.descent)


class Fitted(NamedTuple):
    size: float
    lines: tuple[WrappedLine, ...]
    height: float


def sizes(style: Style) -> list[float]:
    """The sizes to try, largest first, in :data:`STEP` steps down to `min_size`."""
    steps = max(0, int(round((style.size - style.min_size) / STEP)))
    found = [round(style.size - i * STEP, 4) for i in range(steps + 1)]
    found[-1] = style.min_size
    return found


def largest_fit(style: Style, attempt: Callable[[float], T | None]) -> tuple[float, T] | None:
    """The largest of the style's :func:`sizes` at which `attempt` succeeds, with what it gave; None when even
    the smallest size fails.

    Fitting is monotonic in practice (smaller text never needs more lines), so after the largest and the
    smallest sizes are tried, the rest is a bisection: a dozen attempts instead of one per step.
    """
    candidates = sizes(style)
    first = attempt(candidates[0])
    if first is not None:
        return candidates[0], first
    smallest = attempt(candidates[-1])
    if smallest is None:
        return None
    lo, hi, best = 1, len(candidates) - 1, (candidates[-1], smallest)
    while lo < hi:
        mid = (lo + hi) // 2
        found = attempt(candidates[mid])
        if found is not None:
            best, hi = (candidates[mid], found), mid
        else:
            lo = mid + 1
    return best


def fit(paragraphs: Sequence[Paragraph], width: float, height: float, style: Style) -> Fitted:
    """The largest size at which the text fits the box, and its lines; NoFit says why it never fits."""

    def attempt(size: float) -> Fitted | None:
        lines = wrap(paragraphs, size, width, style.wrap)
        if lines is None:
            return None
        tall = block_height(len(lines), size, style)
        return Fitted(size, tuple(lines), tall) if tall <= height + 1e-6 else None

    found = largest_fit(style, attempt)
    if found is None:
        raise NoFit(why_not(paragraphs, width, height, style))
    return found[1]


def why_not(paragraphs: Sequence[Paragraph], width: float, height: float, style: Style) -> str:
    """Why text does not fit a box even at its smallest size: a word too wide, or too many lines."""
    size = style.min_size
    limit = width / size
    for para in paragraphs:
        for word in para:
            if word.w1 > limit:
                return (f"the word {shown(word)!r} is {to_mm(word.w1 * size):.1f} mm wide at {size:g} pt, "
                        f"wider than the box's {to_mm(width):.1f} mm")
    lines = wrap(paragraphs, size, width, style.wrap)
    if lines is None:
        return f"a line is wider than the box's {to_mm(width):.1f} mm even at {size:g} pt (wrap is off)"
    need = block_height(len(lines), size, style)
    room = max(1, int((height - block_height(1, size, style)) // (size * style.leading)) + 1) \
        if height >= block_height(1, size, style) else 0
    return (f"it needs {plural(len(lines), 'line')} ({to_mm(need):.1f} mm) at {size:g} pt, "
            f"the smallest size allowed, but the box holds {room} ({to_mm(height):.1f} mm tall)")


# --- right-to-left text ------------------------------------------------------------------------------------------

#: Scripts written right to left (Hebrew, Arabic, Syriac, Thaana, NKo... and their presentation forms): text
#: holding none of them is laid out as it is written, without the bidirectional algorithm.
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff\U0001e800-\U0001efff]")


def has_rtl(text: str) -> bool:
    return _RTL.search(text) is not None


def _levels(text: str, base: int) -> list[int]:
    """The embedding level of each character of one line (rules P to I of Unicode's bidirectional algorithm,
    UAX #9, by python-bidi): even levels run left to right, odd ones right to left."""
    from bidi import algorithm as uba

    storage = uba.get_empty_storage()
    storage["base_level"], storage["base_dir"] = base, ("L", "R")[base]
    uba.get_embedding_levels(text, storage)
    uba.explicit_embed_and_overrides(storage)
    uba.resolve_weak_types(storage)
    uba.resolve_neutral_types(storage, False)
    uba.resolve_implicit_levels(storage, False)
    return [int(c["level"]) for c in storage["chars"]]


def base_level(text: str) -> int:
    """1 when a paragraph is right to left (its first strong letter is), else 0 (rules P2 and P3 of UAX #9)."""
    from bidi import algorithm as uba

    return int(uba.get_base_level(text))


T2 = TypeVar("T2")


def visual_order(items: Sequence[T2], text: str, base: int) -> list[tuple[T2, bool]]:
    """Items of one line, one per character of `text` (logical order), in the order they are drawn from left
    to right, each with whether it lies in a right-to-left run (where a character takes its mirrored form:
    `(` for `)`). Rules L1 to L3 of UAX #9: trailing spaces at the paragraph's level; runs reversed from the
    highest level down to the lowest odd one; a combining mark kept after the letter it marks."""
    import unicodedata

    levels = _levels(text, base)
    for index in range(len(text) - 1, -1, -1):  # L1: white space at the end of the line
        if not text[index].isspace():
            break
        levels[index] = base
    order = list(range(len(text)))
    top = max(levels, default=0)
    lowest_odd = min((lv for lv in levels if lv % 2), default=top + 1)
    for level in range(top, lowest_odd - 1, -1):  # L2
        index = 0
        while index < len(order):
            if levels[order[index]] >= level:
                end = index
                while end < len(order) and levels[order[end]] >= level:
                    end += 1
                order[index:end] = reversed(order[index:end])
                index = end
            else:
                index += 1
    index = 0
    while index < len(order):  # L3: marks before their letter in a reversed run go after it
        start = index
        while index < len(order) and levels[order[index]] % 2 and unicodedata.combining(text[order[index]]):
            index += 1
        if index > start and index < len(order):
            order[start:index + 1] = [order[index], *reversed(order[start:index])]
        index += 1
    return [(items[i], levels[i] % 2 == 1) for i in order]


def mirrored(char: str) -> str:
    """The mirrored form of a character drawn right to left (`(` for `)`), or the character itself."""
    from bidi.mirror import MIRRORED

    return str(MIRRORED.get(char, char))


def visual(text: str) -> str:
    """A line of one face (a page line, a label) in the order it is drawn, left to right."""
    if not has_rtl(text):
        return text
    return "".join(mirrored(c) if rtl else c for c, rtl in visual_order(text, text, base_level(text)))


def layout_runs(fitted: Fitted, x: float, y: float, width: float, height: float, style: Style) -> list[Primitive]:
    """The positioned runs and icons of fitted text inside the box (x, y, width, height)."""
    size = fitted.size
    m = fonts.metrics(style.face)
    top = y
    if style.valign == "middle":
        top = y + (height - fitted.height) / 2
    elif style.valign == "bottom":
        top = y + height - fitted.height
    out: list[Primitive] = []
    colour = style.colour
    base = 0
    for index, line in enumerate(fitted.lines):
        baseline = top + m.ascent * size + index * size * style.leading
        used = line.w1 * size
        pen = x if style.align == "left" else x + (width - used) / 2 if style.align == "center" else x + width - used
        if line.first:
            base = _paragraph_base(fitted.lines, index)
        if base or any(has_rtl(p.text) for w in line.words for p in w.pieces if p.icon is None):
            out += _bidi_line(line, pen, baseline, size, colour, base)
            continue
        run_face: str | None = None
        run_text: list[str] = []
        run_x = pen
        run_w1 = 0.0

        def flush() -> None:
            nonlocal run_face, run_w1
            if run_face is not None and run_text:
                out.append(TextRun(round(run_x, 3), round(baseline, 3), "".join(run_text), run_face, size, colour,
                                   round(run_w1 * size, 3)))
            run_face = None
            run_text.clear()
            run_w1 = 0.0

        for w_index, word in enumerate(line.words):
            if w_index:
                gap = line.words[w_index - 1].space1
                first = word.pieces[0]
                if run_face is not None and first.icon is None and first.face == run_face:
                    run_text.append(" ")
                    run_w1 += gap
                else:
                    flush()
                pen += gap * size
            for piece in word.pieces:
                if piece.icon is not None:
                    flush()
                    side = ICON_RISE * size
                    out.append(IconUse(piece.icon, round(pen + ICON_SIDE * size, 3), round(baseline - side, 3),
                                       round(side, 3), colour))
                    pen += ICON_ADVANCE * size
                    continue
                if piece.face != run_face:
                    flush()
                    run_face, run_x = piece.face, pen
                piece_w1 = fonts.width(piece.face, piece.text)
                run_text.append(piece.text)
                run_w1 += piece_w1
                pen += piece_w1 * size
        flush()
    return out


def _paragraph_base(lines: Sequence[WrappedLine], start: int) -> int:
    """The direction of the paragraph that begins at line `start`: that of its first strong letter."""
    parts: list[str] = []
    for line in lines[start:]:
        if line.first and parts:
            break
        parts.append(" ".join("".join(p.text for p in w.pieces) for w in line.words))
    text = " ".join(parts)
    return base_level(text) if has_rtl(text) else 0


def _bidi_line(line: WrappedLine, pen: float, baseline: float, size: float, colour: str,
               base: int) -> list[Primitive]:
    """One line holding right-to-left text, laid out in the order it is read: each character (or icon, or the
    space between words) placed by the bidirectional algorithm, then drawn left to right in runs of one face."""
    # one item per character of the line's text: (face, character) of a word, (None, gap) between words,
    # (icon, "") for an icon, shown to the algorithm as an object (U+FFFC)
    items: list[tuple[str | None, str, float]] = []
    chars: list[str] = []
    for w_index, word in enumerate(line.words):
        if w_index:
            items.append((None, " ", line.words[w_index - 1].space1))
            chars.append(" ")
        for piece in word.pieces:
            if piece.icon is not None:
                items.append((piece.icon, "", ICON_ADVANCE))
                chars.append("\ufffc")
            else:
                for char in piece.text:
                    items.append((piece.face, char, fonts.width(piece.face, char)))
                    chars.append(char)
    out: list[Primitive] = []
    run_face: str | None = None
    run_text: list[str] = []
    run_x = pen
    run_w1 = 0.0

    def flush() -> None:
        nonlocal run_face, run_w1
        if run_face is not None and run_text:
            out.append(TextRun(round(run_x, 3), round(baseline, 3), "".join(run_text), run_face, size, colour,
                               round(run_w1 * size, 3)))
        run_face = None
        run_text.clear()
        run_w1 = 0.0

    for (face, char, w1), rtl in visual_order(items, "".join(chars), base):
        if face is None:  # the space between two words
            flush()
        elif not char:  # an icon
            flush()
            side = ICON_RISE * size
            out.append(IconUse(face, round(pen + ICON_SIDE * size, 3), round(baseline - side, 3), round(side, 3),
                               colour))
        else:
            if face != run_face:
                flush()
                run_face, run_x = face, pen
            run_text.append(mirrored(char) if rtl else char)
            run_w1 += w1
        pen += w1 * size
    flush()
    return out
