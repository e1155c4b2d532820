"""What the three rules modules share: naming a place in the file and collecting every violation found."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from generator.fields import normalise_name
from generator.yamlio import Document, PathKey
from scoring.result import Violation


def where(path: PathKey) -> str:
    """`("players", 1, "guildhall", "hunter")` as `players[1].guildhall.hunter`, the style of end-states.md."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


@dataclass(frozen=True, slots=True)
class Locator:
    """Finds the line of a value in the file from its path in the parsed record.

    A record holds names normalised (`Tax Collector` becomes `tax-collector`), so a mapping key of the path is
    matched against the file's own keys loosely when it is not found as written.
    """

    doc: Document | None = None

    def line(self, path: PathKey) -> int | None:
        if self.doc is None or not self.doc.lines:
            return None
        raw: list[str | int] = []
        node: Any = self.doc.data
        for part in path:
            if isinstance(node, dict):
                if part not in node and isinstance(part, str):
                    part = next((k for k in node if isinstance(k, str) and normalise_name(k) == part), part)
                if part not in node:
                    break
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
            else:
                break
            raw.append(part)
        return self.doc.line(tuple(raw))


@dataclass
class Findings:
    """The violations found in one file, in the order the rules were checked."""

    game: str
    locator: Locator = field(default_factory=Locator)
    violations: list[Violation] = field(default_factory=list)

    def add(self, rule: int, path: PathKey, message: str) -> None:
        """Report that `rule` (its number in the game's list) is broken at `path`."""
        self.violations.append(Violation(where(path), message, f"{self.game}-{rule}", self.locator.line(path)))

    def __bool__(self) -> bool:
        return bool(self.violations)


def listing(items: Iterable[object], conjunction: str = "and") -> str:
    """`a, b and c`."""
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 tower`, `3 towers`, `2 copies` (with `many`)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
