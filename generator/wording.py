"""How donjon says things in messages and reports: lists, counts and ordinals, written once.

Every message that names several items or a count goes through these, so that "1 card" and "2 cards", or
"a, b or c", read the same in every command.
"""

from __future__ import annotations

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


def ordinal(number: int) -> str:
    """`1st`, `2nd`, `3rd`, `11th`, `21st`."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


__all__ = ["listing", "noun", "ordinal", "plural"]
