"""Text as card, sheet and reference drawings show it: the little markup of text, wrapping it to a width and
shrinking it to fit a box, and laying the lines out as runs of the drawing model.

The markup (in a layout's own template text, a reference's paragraphs and a sheet's labels):

- `**bold**` and `*italic*` switch to the face's bold or italic (a font without one is an error);
- `{name}` draws icon `name` (generator.render.icons, or a deck's own picture) on the baseline at the text's size
  (`Gain 2 {wood}`); `{{`/`}}` and anything not shaped like `{name}` print as they are;
- `[colour=ink]...[/colour]` (or `color`) prints in a colour (`#rrggbb` or a name of the layout's palette), and
  `[size=150%]...[/size]` at a share of the text's size, so it shrinks along when the text is fitted (25% to
  400%); tags nest and must close in order;
- a newline starts a new line; `\\` escapes the next character.

Every unknown icon of a text is named in one :class:`UnknownIcons` problem, and every character its fonts cannot
draw in one :class:`MissingGlyphs`, not only the first.

Fitting: text wraps at spaces to the box's width; if the lines are too wide or too many for the box at the
style's size, the size steps down by :data:`STEP` points, never below the style's `min_size`. Text that still
does not fit raises :class:`NoFit` with the reason; the caller names the card and the field. With a language,
a word that would start the next line is hyphenated where its dictionary allows (pyphen's, which LibreOffice
uses too) or after a hyphen of its own (a compound), if its first part fits the line, and a word wider than the
box is broken the same way.

Laying out: left, centred, right, or justified (each line but a paragraph's last spread to the box's width by
widening the spaces); letter spacing widens every character's advance (the PDF's `Tc`), so it counts in every
width measured here.

This is a service of the drawing layer: card layouts, castle score sheets and card references all fit their
text with it.
"""

import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple, TypeVar

from generator.i18n import messages_language, phrase, phrase_n
from generator.render import fonts
from generator.render.icons import ICON_ADVANCE, ICON_RISE, ICON_SIDE, icons
from generator.render.model import IconUse, ImageUse, Primitive, TextRun
from generator.render.joining import join, join_pieces, needs_joining
from generator.sayings import quote
from generator.units import to_mm

T = TypeVar("T")

#: Sizes are tried in steps of a quarter point: fine enough to use the room, coarse enough to stay stable.
STEP = 0.25
DEFAULT_LEADING = 1.2


class TextProblem(Exception):
    """Text that cannot be drawn (bad markup, an unknown icon, a missing glyph)."""


class NoFit(TextProblem):
    """Text too long for its box even at the smallest size allowed."""


class MissingGlyphs(TextProblem):
    """Characters a text's fonts have no glyph for: every one of them, by font, in the order they come."""

    def __init__(self, lacking: Mapping[str, list[str]]) -> None:
        self.lacking = dict(lacking)
        super().__init__(self.describe())

    def describe(self) -> str:
        return "; ".join(phrase("the font {family} has no glyph for {chars}", family=fonts.FACES[face].family,
                                chars=", ".join(f"{c!r} (U+{ord(c):04X})" for c in chars))
                         for face, chars in self.lacking.items())


class UnknownIcons(TextProblem):
    """Icons a text names that neither donjon nor the deck has: every one of them, in order."""

    def __init__(self, names: list[str], known: list[str], own: bool = False) -> None:
        self.names = names
        self.known = known
        #: whether the deck has icons of its own (the message then names both)
        self.own = own
        super().__init__(self.describe())

    def describe(self) -> str:
        import difflib

        shown = []
        for name in self.names:
            close = difflib.get_close_matches(name, self.known, n=1, cutoff=0.7)
            braced = "{" + close[0] + "}" if close else ""
            shown.append(f"{{{name}}}" + (phrase(" (did you mean {name}?)", name=braced) if close else ""))
        names, icons = ", ".join(shown), ", ".join(self.known)
        if self.own:
            return phrase_n("{names} is not an icon donjon or the deck has (icons: {icons})",
                            "{names} are not icons donjon or the deck has (icons: {icons})", len(shown), names=names,
                            icons=icons)
        return phrase_n("{names} is not an icon donjon has (icons: {icons})",
                        "{names} are not icons donjon has (icons: {icons})", len(shown), names=names, icons=icons)


#: Text, compiled by `re` when a value first holds a markup character (most card data holds none).
_MARKUP = r"([\\*\[])"


def escape_markup(value: Any) -> str:
    """What a template prints from card data: markup characters escaped so they print as themselves."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value)
    return re.sub(_MARKUP, r"\\\1", text) if ("*" in text or "\\" in text or "[" in text) else text


# --- markup -------------------------------------------------------------------------------------------------------

#: Text, compiled by `re` on first use: text without markup never needs it (:func:`parse`).
_TOKENS = (r"\\(.)|(\*\*)|(\*)|(?<!\{)\{([a-z][a-z0-9-]*)\}(?!\})|(\n)|([ \t\r]+)"
           r"|\[(colou?r|size)=([^\]\n]{1,40})\]|\[/(colou?r|size)\]"
           r"|([^\\*{\[\n \t\r]+|\{|\[|\\)")
#: The values of `[colour=...]` and `[size=...]` (text, compiled by `re` when a tag is first read).
_HEX = r"#[0-9a-fA-F]{6}"
_PERCENT = r"\s*(\d+(?:\.\d+)?)\s*%\s*"
#: `[size=...]` between these shares of the text's size: smaller is unreadable, larger never fits a box.
SMALLEST_SCALE, LARGEST_SCALE = 0.25, 4.0


class Piece(NamedTuple):
    """Part of a word in one face, or an icon (`icon` set, `text` empty), in a colour (None: the text's) and at a
    share of the text's size."""

    face: str
    text: str = ""
    icon: str | None = None
    colour: str | None = None
    scale: float = 1.0
    #: an icon of the deck's own: its picture file
    picture: str | None = None


class Word:
    """Pieces printed without a break between them; `w1` is the width at 1 pt, `space1` the space after it.

    A plain class, not a named tuple (defining one is some 0.5 M instructions of every build); equal words are equal
    (the markup parser and the short way for plain text are checked to read text alike)."""

    __slots__ = ("pieces", "w1", "space1")

    pieces: tuple[Piece, ...]
    w1: float
    space1: float

    def __init__(self, pieces: tuple[Piece, ...], w1: float, space1: float) -> None:
        self.pieces = pieces
        self.w1 = w1
        self.space1 = space1

    def _key(self) -> tuple[tuple[Piece, ...], float, float]:
        return self.pieces, self.w1, self.space1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Word) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Word{self._key()!r}"


Paragraph = tuple[Word, ...]


def text_w1(face: str, text: str, spacing: float = 0.0) -> float:
    """The advance of `text` at 1 pt with letter spacing `spacing` (a share of the size) after each character."""
    return fonts.width(face, text) + len(text) * spacing if spacing else fonts.width(face, text)


def _word(pieces: list[Piece], base: str, spacing: float = 0.0) -> Word:
    w1 = 0.0
    width = fonts.width
    for piece in pieces:  # (text_w1 inlined: a deck measures every word of every card here)
        w1 += (ICON_ADVANCE if piece.icon else width(piece.face, piece.text) + len(piece.text) * spacing) * piece.scale
    last = pieces[-1]
    return Word(tuple(pieces), w1, (width(base if last.icon else last.face, " ") + spacing) * last.scale)


#: The characters that begin markup (an escape, emphasis, an icon, a tag, a new paragraph): text with none of them
#: is words and spaces, which :func:`parse` reads the short way (most card text is).
_MARKUP_START = frozenset("\\*{[\n")
#: What separates words (the spaces of :data:`_TOKENS`).
_SPACES = re.compile(r"[ \t\r]+")


def parse(text: str, face: str, palette: Mapping[str, str] | None = None,
          own_icons: Mapping[str, Any] | None = None, spacing: float = 0.0,
          fallback: Sequence[str] = ()) -> tuple[Paragraph, ...]:
    """Markup into paragraphs of words (raises TextProblem on bad markup, unknown icons, missing glyphs).

    `palette` gives the colour names `[colour=...]` may use; `own_icons` the deck's own icons (name -> picture
    file), drawn as pictures where `{name}` is written; `spacing` the letter spacing, a share of the size;
    `fallback` faces that draw what the text's face lacks (:func:`fall_back`; a card's text has none: its layout
    chooses its fonts)."""
    if _MARKUP_START.isdisjoint(text) and not (fallback and fonts.missing(face, text)):
        return _plain(text, face, spacing)
    bold = italic = False
    current = face
    paragraphs: list[Paragraph] = []
    words: list[Word] = []
    pieces: list[Piece] = []
    chunk: list[str] = []
    spans: list[tuple[str, str | None, float]] = []  # open [colour] and [size] tags: (tag, colour, scale)
    colour: str | None = None
    scale = 1.0
    unknown: list[str] = []
    glyphless: dict[str, list[str]] = {}
    mine = own_icons or {}

    def flush_chunk() -> None:
        if chunk:
            joined = "".join(chunk)
            lacking = fonts.missing(current, joined)
            runs = [(current, joined)]
            if lacking and fallback:
                runs, lacking = fall_back(current, joined, fallback)
            if lacking:
                gathered = glyphless.setdefault(current, [])
                gathered += [c for c in lacking if c not in gathered]
            pieces.extend(Piece(run_face, run, None, colour, scale) for run_face, run in runs)
            chunk.clear()

    def flush_word() -> None:
        flush_chunk()
        if pieces:
            words.append(_word(_joined_pieces(pieces), face, spacing))
            pieces.clear()

    def switch(to_bold: bool, to_italic: bool) -> None:
        nonlocal bold, italic, current
        flush_chunk()
        found = fonts.variant(face, to_bold, to_italic)
        if found is None:
            want = " ".join(w for w, on in (("bold", to_bold), ("italic", to_italic)) if on)
            raise TextProblem(f"the font {fonts.FACES[face].family} has no {want} face (in {text[:40]!r})")
        bold, italic, current = to_bold, to_italic, found

    def open_span(tag: str, value: str) -> None:
        nonlocal colour, scale
        flush_chunk()
        if tag == "size":
            found = re.fullmatch(_PERCENT, value)
            share = float(found.group(1)) / 100 if found else 0.0
            if not SMALLEST_SCALE <= share <= LARGEST_SCALE:
                raise TextProblem(f"[size={value}] must be a percentage of the text's size from "
                                  f"{SMALLEST_SCALE:.0%} to {LARGEST_SCALE:.0%}, such as [size=150%] "
                                  f"(in {text[:60]!r})")
            spans.append(("size", colour, scale))
            scale = scale * share
            return
        wanted = value.strip()
        chosen = wanted.lower() if re.fullmatch(_HEX, wanted) else (palette or {}).get(wanted)
        if chosen is None:
            names = ", ".join(palette or ()) or "the layout has none"
            raise TextProblem(f"[colour={value}]: {value!r} is neither '#rrggbb' nor a colour of the layout's "
                              f"palette ({names})")
        spans.append(("colour", colour, scale))
        colour = chosen

    def close_span(tag: str) -> None:
        nonlocal colour, scale
        flush_chunk()
        if not spans or spans[-1][0] != tag:
            expected = f"[/{spans[-1][0]}] first" if spans else "no tag is open"
            raise TextProblem(f"[/{tag}] closes nothing here ({expected}) in {text[:60]!r}")
        _tag, colour, scale = spans.pop()

    for match in re.finditer(_TOKENS, text, re.S):
        escaped, strong, emph, icon, newline, space, tag, value, closing, plain = match.groups()
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
            if icon not in icons() and icon not in mine:
                if icon not in unknown:
                    unknown.append(icon)
                continue
            flush_chunk()
            picture = mine.get(icon)
            pieces.append(Piece(current, "", icon, colour, scale, str(picture) if picture is not None else None))
        elif tag is not None:
            open_span("colour" if tag.startswith("col") else "size", value)
        elif closing is not None:
            close_span("colour" if closing.startswith("col") else "size")
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
    if unknown:
        raise UnknownIcons(unknown, sorted(icons()) + sorted(mine), bool(mine))
    if glyphless:
        raise MissingGlyphs(glyphless)
    if bold or italic:
        raise TextProblem(f"{'**' if bold else '*'} is opened but not closed in {text[:60]!r}")
    if spans:
        raise TextProblem(f"[{spans[-1][0]}=...] is opened but not closed in {text[:60]!r}")
    while paragraphs and not paragraphs[-1]:
        paragraphs.pop()
    while paragraphs and not paragraphs[0]:
        paragraphs.pop(0)
    return tuple(_between_ideographs(para, face, spacing) for para in paragraphs)


def fall_back(face: str, text: str, fallback: Sequence[str]) -> tuple[list[tuple[str, str]], str]:
    """`text` in runs of one face each: `face` where it has the glyph, else the first of `fallback` that has it (in
    `face`'s weight and slant where that family has them: a bold name stays bold); and the characters none of them
    has, in the order written."""
    bold, italic = fonts.FACES[face].bold, fonts.FACES[face].italic
    faces = [face, *dict.fromkeys(f for other in fallback for f in (fonts.variant(other, bold, italic), other)
                                  if f is not None)]
    runs: list[tuple[str, str]] = []
    none: list[str] = []
    for char in text:
        chosen = next((f for f in faces if not fonts.missing(f, char)), None)
        if chosen is None:
            chosen = face
            if char not in none:
                none.append(char)
        if runs and runs[-1][0] == chosen:
            runs[-1] = (chosen, runs[-1][1] + char)
        else:
            runs.append((chosen, char))
    return runs, "".join(none)


def _plain(text: str, face: str, spacing: float) -> tuple[Paragraph, ...]:
    """What :func:`parse` gives for text without markup, without its tokens: one paragraph (or none) of words,
    each one piece in `face`; the characters the face lacks reported as parse reports them."""
    words = [word for word in _SPACES.split(text) if word]
    lacking = fonts.missing(face, "".join(words))
    if lacking:
        raise MissingGlyphs({face: list(lacking)})
    if not words:
        return ()
    return (_between_ideographs(tuple(_word([Piece(face, _joined(face, word))], face, spacing) for word in words),
                                face, spacing),)


# --- line breaks between ideographs ------------------------------------------------------------------------------

#: Chinese and Japanese: the CJK symbols and punctuation, hiragana, katakana, the ideographs (unified, extension A,
#: compatibility, extensions B on) and the fullwidth forms. They are written without spaces, and a line may break
#: between any two of them (Unicode's line breaking algorithm, UAX #14, class ID). Text, compiled when first needed.
#: Hangul is not among them: Korean is written with spaces and broken at them.
_IDEOGRAPHIC = ("[\u3000-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uff60"
                "\U00020000-\U0003ffff]")
#: What a line may not begin with (closing brackets, full stops and commas, small kana, the prolonged sound mark,
#: iteration marks: UAX #14 classes CL, CP, EX, IS, NS and CJ, as Japanese kinsoku shori keeps them), and what it
#: may not end with (opening brackets, class OP).
_NOT_FIRST = frozenset("、。，．・：；！？）〕］｝〉》」』】〙〗〟’”ー々〻ゝゞヽヾ"
                       "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
                       "!),.:;?]}、。")
_NOT_LAST = frozenset("（〔［｛〈《「『【〘〖〝‘“([{")


def _between_ideographs(words: Paragraph, face: str, spacing: float) -> Paragraph:
    """`words` with each word holding Chinese or Japanese split where a line may break (between two ideographs or
    kana, or one and another letter; not before a closing mark nor after an opening one), its parts joined by no
    space: such text has no spaces, and a sentence of it was one word, refused as wider than its box."""
    if not any(not p.text.isascii() and re.search(_IDEOGRAPHIC, p.text) for w in words for p in w.pieces):
        return words
    out: list[Word] = []
    for word in words:
        if not any(not p.text.isascii() and re.search(_IDEOGRAPHIC, p.text) for p in word.pieces):
            out.append(word)
            continue
        parts: list[list[Piece]] = [[]]
        before: str | None = None  # the character before, None after an icon (nothing breaks at an icon)
        for piece in word.pieces:
            if piece.icon is not None:
                parts[-1].append(piece)
                before = None
                continue
            start = 0
            for index, char in enumerate(piece.text):
                if before is not None and _may_break(before, char):
                    if index > start:
                        parts[-1].append(piece._replace(text=piece.text[start:index]))
                    parts.append([])
                    start = index
                before = char
            if start < len(piece.text):
                parts[-1].append(piece._replace(text=piece.text[start:]))
        parts = [part for part in parts if part]
        for index, part in enumerate(parts):
            found = _word(part, face, spacing)
            # no space between the parts of a word; the last keeps the word's own space after it
            out.append(found if index == len(parts) - 1 else Word(found.pieces, found.w1, 0.0))
    return tuple(out)


def _may_break(before: str, after: str) -> bool:
    """Whether a line may break between two characters of a word (one of them an ideograph or a kana)."""
    if after in _NOT_FIRST or before in _NOT_LAST:
        return False
    return any(not char.isascii() and re.fullmatch(_IDEOGRAPHIC, char) is not None for char in (before, after))


def _joined_pieces(pieces: list[Piece]) -> list[Piece]:
    """A word's pieces with their Arabic letters joined across the pieces (markup inside a word: a letter in
    colour or in bold), each shape from its own piece's face; an icon parts the letters on either side of it."""
    if not any(needs_joining(p.text) for p in pieces):
        return pieces
    out: list[Piece] = []
    run: list[Piece] = []

    def drawn_by(face: str) -> Callable[[str], bool]:
        return lambda char: not fonts.missing(face, char)

    def flush() -> None:
        texts = join_pieces([(p.text, drawn_by(p.face)) for p in run])
        out.extend(p._replace(text=text) for p, text in zip(run, texts, strict=True))
        run.clear()

    for piece in pieces:
        if piece.icon is None:
            run.append(piece)
        else:
            flush()
            out.append(piece)
    flush()
    return out


def _joined(face: str, text: str) -> str:
    """`text` with its Arabic letters joined in the shapes `face` draws (generator.render.joining): reportlab has
    no shaping engine, and each letter drawn alone printed a word as a row of isolated letters."""
    if not needs_joining(text):
        return text
    return join(text, lambda char: not fonts.missing(face, char))


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
    #: the dictionary words are hyphenated with (pyphen's name, `fr_FR`), or None
    hyphenation: str | None = None
    #: letter spacing, a share of the size
    spacing: float = 0.0
    #: an outline around the letters: its colour, and how far it reaches outside them (points)
    outline: str | None = None
    outline_width: float = 0.0

    def hyphens(self) -> "Hyphens | None":
        return hyphens(self.hyphenation, self.spacing) if self.hyphenation else None


class WrappedLine:
    """One line of wrapped text: its words and its width."""

    __slots__ = ("words", "w1", "scale", "first")

    words: tuple[Word, ...]
    #: width at 1 pt (multiply by the size)
    w1: float
    #: the largest share of the text's size on the line (`[size=...]`): its height grows with it
    scale: float
    #: the first line of its paragraph (a paragraph's direction is that of its first strong letter)
    first: bool

    def __init__(self, words: tuple[Word, ...], w1: float, scale: float = 1.0, first: bool = True) -> None:
        self.words = words
        self.w1 = w1
        self.scale = scale
        self.first = first


def _line(words: list[Word], w1: float, first: bool) -> WrappedLine:
    scale = max((p.scale for w in words for p in w.pieces), default=1.0)
    return WrappedLine(tuple(words), w1, max(1.0, scale), first)


class Hyphens:
    """Where words break at a line's end, in one language: pyphen's dictionary (imported when a text first asks for
    it), with a hyphen added to the first part."""

    #: Words shorter than this are never broken: a two-letter piece at each end reads badly in a narrow box.
    SHORTEST = 5
    #: A word between its punctuation, its parts joined by the hyphens of a compound (`Baden-Württemberg`) (text:
    #: compiled by `re` when a text is first hyphenated).
    _WORD = r"(\W*)(\w(?:[\w'’]*\w)?(?:[-\u2010]\w(?:[\w'’]*\w)?)*)(\W*)"
    _PART = r"\w(?:[\w'’]*\w)?"
    #: The hyphens a compound is written with: a line may end after one, which then is the line's hyphen.
    _HYPHENS = "-\u2010"

    def __init__(self, language: str, spacing: float) -> None:
        import pyphen

        self.dictionary = pyphen.Pyphen(lang=language)
        self.spacing = spacing

    def split(self, word: Word, room: float) -> tuple[Word, Word] | None:
        """`word` broken at the last place where its first part is at most `room` wide (at 1 pt): after a hyphen
        of its own, or where its dictionary allows, a hyphen added; or None: a word of icons, of several faces or
        colours, or with no such place, stays whole."""
        if len(word.pieces) != 1 or word.pieces[0].icon is not None:
            return None
        piece = word.pieces[0]
        found = re.fullmatch(self._WORD, piece.text)
        if found is None:
            return None
        lead, core, trail = found.groups()
        places: list[tuple[str, str]] = []  # (first part, the rest), each a place the word may break
        for at, char in enumerate(core):
            if char in self._HYPHENS:
                places.append((f"{lead}{core[:at + 1]}", f"{core[at + 1:]}{trail}"))
        if not fonts.missing(piece.face, "-"):
            for part in re.finditer(self._PART, core):
                if len(part.group()) >= self.SHORTEST:
                    places += [(f"{lead}{core[:part.start() + at]}-", f"{core[part.start() + at:]}{trail}")
                               for at in self.dictionary.positions(part.group())]
        for head, tail in sorted(places, key=lambda place: len(place[0]), reverse=True):
            head_w1 = text_w1(piece.face, head, self.spacing) * piece.scale
            if head_w1 <= room + 1e-9:
                return (Word((piece._replace(text=head),), head_w1, word.space1),
                        Word((piece._replace(text=tail),), text_w1(piece.face, tail, self.spacing) * piece.scale,
                             word.space1))
        return None


_hyphens: dict[tuple[str, float], Hyphens] = {}


def hyphens(language: str, spacing: float = 0.0) -> Hyphens:
    """The hyphenation of `language` (pyphen's name for it), made once."""
    key = (language, spacing)
    found = _hyphens.get(key)
    if found is None:
        found = _hyphens[key] = Hyphens(language, spacing)
    return found


def wrap(paragraphs: Sequence[Paragraph], size: float, width: float, wrap_lines: bool = True,
         hyphenate: Hyphens | None = None) -> list[WrappedLine] | None:
    """Greedy line breaking at `size` (words broken by `hyphenate` where they fit no other way); None when a word
    (or an unwrapped line) is wider than `width`."""
    limit = width / size + 1e-9
    lines: list[WrappedLine] = []
    for para in paragraphs:
        current: list[Word] = []
        used = 0.0
        first = True
        words = list(para)
        index = 0
        while index < len(words):
            word = words[index]
            if not current:
                if word.w1 > limit:
                    broken = hyphenate.split(word, limit) if hyphenate is not None and wrap_lines else None
                    if broken is None:
                        return None
                    lines.append(_line([broken[0]], broken[0].w1, first))
                    words[index], first = broken[1], False
                    continue
                current, used = [word], word.w1
                index += 1
                continue
            after = used + current[-1].space1 + word.w1
            if after <= limit or not wrap_lines:
                current.append(word)
                used = after
                index += 1
                continue
            broken = hyphenate.split(word, limit - used - current[-1].space1) if hyphenate is not None else None
            if broken is not None:
                used += current[-1].space1 + broken[0].w1
                current.append(broken[0])
                words[index] = broken[1]
            lines.append(_line(current, used, first))
            current, used, first = [], 0.0, False
        if not wrap_lines and used > limit:
            return None
        lines.append(_line(current, used, first))
    return lines


def block_height(lines: int | Sequence[WrappedLine], size: float, style: Style) -> float:
    """The height of `lines` lines (a count, or the lines themselves when some are larger): the first line's
    ascent, each further line's pitch, the last line's descent."""
    m = fonts.metrics(style.face)
    if isinstance(lines, int):
        return 0.0 if lines == 0 else (lines - 1) * size * style.leading + size * (m.ascent + m.descent)
    if not lines:
        return 0.0
    pitches = sum(line.scale for line in lines[1:]) * size * style.leading
    return size * (m.ascent * lines[0].scale + m.descent * lines[-1].scale) + pitches


class Fitted:
    """Text fitted to a box: the size it is set at, its lines and their height."""

    __slots__ = ("size", "lines", "height")

    size: float
    lines: tuple[WrappedLine, ...]
    height: float

    def __init__(self, size: float, lines: tuple[WrappedLine, ...], height: float) -> None:
        self.size = size
        self.lines = lines
        self.height = height


def sizes(style: Style) -> tuple[float, ...]:
    """The sizes to try, largest first, in :data:`STEP` steps down to `min_size`."""
    return _sizes(style.size, style.min_size)


@cache
def _sizes(size: float, min_size: float) -> tuple[float, ...]:
    # kept per (size, min size): every text box of a style tries the same sizes, and rounding each of a few dozen
    # steps again for every box of every card was 2% of the 100-card benchmark deck's build
    steps = max(0, int(round((size - min_size) / STEP)))
    return (*(round(size - i * STEP, 4) for i in range(steps)), min_size)


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

    hyphenate = style.hyphens()

    def attempt(size: float) -> Fitted | None:
        lines = wrap(paragraphs, size, width, style.wrap, hyphenate)
        if lines is None:
            return None
        tall = block_height(lines, size, style)
        return Fitted(size, tuple(lines), tall) if tall <= height + 1e-6 else None

    found = largest_fit(style, attempt)
    if found is None:
        raise NoFit(why_not(paragraphs, width, height, style))
    return found[1]


def why_not(paragraphs: Sequence[Paragraph], width: float, height: float, style: Style) -> str:
    """Why text does not fit a box even at its smallest size: a word too wide, or too many lines (in the language
    of the messages, generator.i18n.messages_in: a designer's `build --lang fr`)."""
    size = style.min_size
    limit = width / size
    hyphenate = style.hyphens()
    for para in paragraphs:
        for word in para:
            if word.w1 > limit and (hyphenate is None or wrap([(word,)], size, width, True, hyphenate) is None):
                return phrase("the word {word} is {wide} mm wide at {size} pt, wider than the box's {width} mm",
                              word=quote(shown(word)), wide=_figure(to_mm(word.w1 * size), 1), size=_figure(size),
                              width=_figure(to_mm(width), 1))
    lines = wrap(paragraphs, size, width, style.wrap, style.hyphens())
    if lines is None:
        return phrase("a line is wider than the box's {width} mm even at {size} pt (wrap is off)",
                      width=_figure(to_mm(width), 1), size=_figure(size))
    need = block_height(lines, size, style)
    room = max(1, int((height - block_height(1, size, style)) // (size * style.leading)) + 1) \
        if height >= block_height(1, size, style) else 0
    return phrase_n("it needs {n} line ({need} mm) at {size} pt, the smallest size allowed, but the box holds "
                    "{room} ({height} mm tall)",
                    "it needs {n} lines ({need} mm) at {size} pt, the smallest size allowed, but the box holds "
                    "{room} ({height} mm tall)", len(lines), need=_figure(to_mm(need), 1), size=_figure(size),
                    room=room, height=_figure(to_mm(height), 1))


def _figure(value: float, decimals: int | None = None) -> str:
    """A length or a size in a message: as English wrote it (`12.3`, `6.5`), or as the language of the messages
    writes numbers (`12,3`)."""
    lang = messages_language()
    if lang is None:
        return f"{value:.{decimals}f}" if decimals is not None else f"{value:g}"
    return lang.number(round(value, decimals) if decimals is not None else value, decimals)


# --- right-to-left text ------------------------------------------------------------------------------------------

#: Scripts written right to left (Hebrew, Arabic, Syriac, Thaana, NKo... and their presentation forms): text
#: holding none of them is laid out as it is written, without the bidirectional algorithm.
#: Text, compiled by `re` when first needed: ASCII text (most card text) holds none of them, and a class reaching
#: this far into Unicode takes a millisecond to compile.
_RTL = "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff\U0001e800-\U0001efff]"


def has_rtl(text: str) -> bool:
    return not text.isascii() and re.search(_RTL, text) is not None


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


def visual(text: str, base: int | None = None) -> str:
    """A line of one face (a page line, a label) in the order it is drawn, left to right: a paragraph at `base`
    level (0 left to right, 1 right to left), or by its first strong letter when None."""
    if not has_rtl(text):
        return text
    level = base_level(text) if base is None else base
    return "".join(mirrored(c) if rtl else c for c, rtl in visual_order(text, text, level))


def layout_runs(fitted: Fitted, x: float, y: float, width: float, height: float, style: Style,
                direction: int | None = None) -> list[Primitive]:
    """The positioned runs and icons of fitted text inside the box (x, y, width, height). Each paragraph runs the
    way its first strong letter does (a card's text in Arabic right to left), or, with `direction` (0 left to right,
    1 right to left), that way whatever it holds: a sentence of a document in English around a name in Arabic."""
    size = fitted.size
    m = fonts.metrics(style.face)
    top = y
    if style.valign == "middle":
        top = y + (height - fitted.height) / 2
    elif style.valign == "bottom":
        top = y + height - fitted.height
    out: list[Primitive] = []
    baseline = top
    base = 0
    # one search over the whole text: most texts hold no right-to-left letter, and then no line needs the
    # bidirectional algorithm
    bidi = has_rtl("".join([p.text for line in fitted.lines for w in line.words for p in w.pieces]))
    lines = fitted.lines
    spacing = style.spacing
    for index, line in enumerate(lines):
        baseline += (m.ascent * size * line.scale if index == 0 else size * style.leading * line.scale)
        used = line.w1 * size
        pen = (x + (width - used) / 2 if style.align == "center" else x + width - used if style.align == "right"
               else x)
        # justified: every line but a paragraph's last is spread to the box's width, its spaces widened alike
        spread = (style.align == "justify" and len(line.words) > 1 and index + 1 < len(lines)
                  and not lines[index + 1].first)
        extra = max(0.0, (width - used) / (len(line.words) - 1)) if spread else 0.0
        if bidi and line.first:
            base = _paragraph_base(lines, index) if direction is None else direction
        if bidi and (base or any(has_rtl(p.text) for w in line.words for p in w.pieces if p.icon is None)):
            out += _bidi_line(line, pen, baseline, size, style, base)
            continue
        runs = _Runs(out, baseline, size, style)
        for w_index, word in enumerate(line.words):
            if w_index:
                gap = line.words[w_index - 1].space1
                lead = word.pieces[0]
                if not gap and not extra:
                    pass  # two parts of one word (ideographs a line may break between): nothing between them
                elif not extra and lead.icon is None and (lead.face, lead.colour, lead.scale) == runs.key:
                    runs.add(runs.key, pen, " ", gap)  # the space joins the run the word goes on
                else:
                    runs.flush()
                pen += gap * size + extra
            for piece in word.pieces:
                if piece.icon is not None:
                    runs.flush()
                    out.append(_icon_at(piece, pen, baseline, size, style.colour))
                    pen += ICON_ADVANCE * size * piece.scale
                    continue
                piece_w1 = (fonts.width(piece.face, piece.text) + len(piece.text) * spacing) * piece.scale
                runs.add((piece.face, piece.colour, piece.scale), pen, piece.text, piece_w1)
                pen += piece_w1 * size
        runs.flush()
    return out


class _Runs:
    """Text gathered, left to right along one baseline, into runs of one face, colour and size: each a TextRun."""

    def __init__(self, out: list[Primitive], baseline: float, size: float, style: Style) -> None:
        self.out, self.baseline, self.size, self.style = out, baseline, size, style
        #: the face, colour (None: the text's) and share of the size of the run being gathered
        self.key: tuple[str, str | None, float] | None = None
        self.x = 0.0
        self.text: list[str] = []
        self.w1 = 0.0

    def add(self, key: tuple[str, str | None, float], pen: float, text: str, w1: float) -> None:
        """Text of width `w1` at 1 pt, at `pen`: on the run being gathered, or beginning a new one."""
        if key != self.key:
            self.flush()
            self.key, self.x = key, pen
        self.text.append(text)
        self.w1 += w1

    def flush(self) -> None:
        """The run gathered so far, as a TextRun; the next text begins a new one."""
        if self.key is not None and self.text:
            face, ink, scale = self.key
            style = self.style
            size = round(self.size * scale, 4)
            self.out.append(TextRun(round(self.x, 3), round(self.baseline, 3), "".join(self.text), face, size,
                                    ink or style.colour, round(self.w1 * self.size, 3), 0,
                                    round(style.spacing * size, 4), style.outline, style.outline_width))
        self.key = None
        self.text = []
        self.w1 = 0.0


def _icon_at(piece: Piece, pen: float, baseline: float, size: float, colour: str) -> Primitive:
    """An inline icon whose advance begins at `pen`, standing on the baseline: a built-in icon in the text's
    colour, or a deck's own picture."""
    em = size * piece.scale
    side = ICON_RISE * em
    left, top = pen + ICON_SIDE * em, baseline - side
    if piece.picture is not None:
        return icon_picture(piece.picture, left, top, side)
    return IconUse(str(piece.icon), round(left, 3), round(top, 3), round(side, 3), piece.colour or colour)


def icon_picture(picture: str, x: float, y: float, side: float) -> ImageUse:
    """A deck's own icon: its picture inside the square of side `side` whose top-left is (x, y), whole and
    centred (a wide icon is as wide as the square and lower)."""
    from pathlib import Path

    from generator.render.images import image_info

    aspect = image_info(Path(picture)).aspect
    w, h = (side, side / aspect) if aspect >= 1 else (side * aspect, side)
    return ImageUse(picture, round(x + (side - w) / 2, 3), round(y + (side - h) / 2, 3), round(w, 3), round(h, 3))


def _paragraph_base(lines: Sequence[WrappedLine], start: int) -> int:
    """The direction of the paragraph that begins at line `start`: that of its first strong letter."""
    parts: list[str] = []
    for line in lines[start:]:
        if line.first and parts:
            break
        parts.append(" ".join("".join(p.text for p in w.pieces) for w in line.words))
    text = " ".join(parts)
    return base_level(text) if has_rtl(text) else 0


def _bidi_line(line: WrappedLine, pen: float, baseline: float, size: float, style: Style,
               base: int) -> list[Primitive]:
    """One line holding right-to-left text, laid out in the order it is read: each character (or icon, or the
    space between words) placed by the bidirectional algorithm, then drawn left to right in runs of one face,
    colour and size."""
    # one item per character of the line's text: (piece, character, width at 1 pt) of a word, (None, gap) between
    # words, (piece, "") for an icon, shown to the algorithm as an object (U+FFFC)
    items: list[tuple[Piece | None, str, float]] = []
    chars: list[str] = []
    for w_index, word in enumerate(line.words):
        if w_index:
            items.append((None, " ", line.words[w_index - 1].space1))
            chars.append(" ")
        for piece in word.pieces:
            if piece.icon is not None:
                items.append((piece, "", ICON_ADVANCE * piece.scale))
                chars.append("\ufffc")
            else:
                for char in piece.text:
                    items.append((piece, char, text_w1(piece.face, char, style.spacing) * piece.scale))
                    chars.append(char)
    out: list[Primitive] = []
    colour = style.colour
    runs = _Runs(out, baseline, size, style)
    for (part, char, w1), rtl in visual_order(items, "".join(chars), base):
        if part is None:  # the space between two words
            runs.flush()
        elif not char:  # an icon
            runs.flush()
            out.append(_icon_at(part, pen, baseline, size, colour))
        else:
            runs.add((part.face, part.colour, part.scale), pen, mirrored(char) if rtl else char, w1)
        pen += w1 * size
    runs.flush()
    return out
