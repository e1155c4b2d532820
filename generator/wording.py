"""How donjon says things in messages and reports: lists, counts and ordinals, written once.

Every message that names several items or a count goes through these, so that "1 card" and "2 cards", or
"a, b or c", read the same in every command.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def listing(items: Iterable[object], conjunction: str = "and") -> str:
    """`a, b and c` (or `a, b or c` with `conjunction="or"`); one item alone; nothing for none."""
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 tower`, `3 towers`; `many` for words that do not take an s (`plural(2, "copy", "copies")`)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def noun(count: int, word: str, many: str | None = None) -> str:
    """The word alone, singular or plural for `count` (`noun(3, "page")` is `pages`)."""
    return word if count == 1 else (many or word + "s")


#: How much of a user's value a message quotes: enough to find it, never a whole file.
QUOTE_LIMIT = 60


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`repr(value)`, cut to about `limit` characters with how long the whole was (`'xxxx…' (100,000 characters)`)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(str(value)):,} characters)"


def a_or_an(word: str) -> str:
    """`a rect`, `an icon`: the article a word takes (by its first letter, which suits donjon's words)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def ordinal(number: int) -> str:
    """`1st`, `2nd`, `3rd`, `11th`, `21st`."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


#: What a terminal would act on rather than show: the C0 controls (ESC starts an escape sequence, BEL rings, a
#: carriage return overwrites the line), DEL, the C1 controls (0x9b is a one-byte escape sequence to some
#: terminals), the line and paragraph separators, and the bidirectional overrides and isolates, which reorder
#: what is shown around them. Text, compiled by `re` on first use: most commands never show such a value, and a
#: class reaching this far into Unicode takes milliseconds to compile.
CONTROLS = "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(found: re.Match[str]) -> str:
    char = found.group()
    return _NAMED.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")


def visible(text: str) -> str:
    """`text` with every control character written out as an escape (`\\x1b`, `\\n`, `\\u202e`), so that what
    a file or a form holds is shown on a terminal and never acted on by it."""
    return re.sub(CONTROLS, _escaped, text) if re.search(CONTROLS, text) else text


def visible_lines(text: str) -> str:
    """Several lines of text, each made :func:`visible`: the line breaks between them are kept."""
    return "\n".join(visible(line) for line in text.split("\n"))


#: What a spreadsheet reads as the start of a formula in a cell (and runs: `=cmd|...`, `@SUM(...)`,
#: `+HYPERLINK(...)`); OWASP's advice on CSV injection lists these.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(text: str) -> str:
    """A CSV cell as a spreadsheet will show it, never run it: text that would start a formula gets a `'`
    before it (which spreadsheets show as the mark of text); a plain number such as `-1` stays as it is."""
    import re

    if text.startswith(_FORMULA_START) and not re.fullmatch(r"[+-]?\d+(\.\d+)?", text):
        return "'" + text
    return text


__all__ = ["CONTROLS", "spreadsheet_cell", "a_or_an", "listing", "noun", "ordinal", "plural", "quoted", "visible", "visible_lines"]
