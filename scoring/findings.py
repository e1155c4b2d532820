"""What the rules modules share: naming a place in the file, and collecting every violation and warning found.

A check is as strong as the facts it rests on (end-states.md, "Violations and warnings"). A check on facts a
rulebook states (or that two sources agree on: confidence H) reports a **violation** with :meth:`Findings.add`.
A check on a catalog value below H (M, L or a house default) reports through :meth:`Findings.check`, handing it
the value's `Inferred` record from the catalog: the record decides. Stated or H, it is a violation; M, L or
house, a **warning** carrying that record's source and confidence, and the file is still scored. With
`strict` (`donjon score --strict`, for games played on donjon's own sheets) every warning is a violation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generator.fields import normalise_name
from generator.yamlio import Document, PathKey
from scoring.result import RuleWarning, Violation

if TYPE_CHECKING:
    from generator.catalog.common import Inferred


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


#: How a warning turned violation by `--strict` names the confidence of the value it rests on.
STRICT_WORDS = {"M": "a best reading", "L": "a guess", "house": "a house default"}


@dataclass
class Findings:
    """The violations and warnings found in one file, in the order the rules were checked."""

    game: str
    locator: Locator = field(default_factory=Locator)
    violations: list[Violation] = field(default_factory=list)
    warnings: list[RuleWarning] = field(default_factory=list)
    #: every warning is a violation (`--strict`)
    strict: bool = False

    def add(self, rule: int | str, path: PathKey, message: str) -> None:
        """Report that `rule` (its number in the game's list) is broken at `path`: a violation."""
        self.violations.append(Violation(where(path), message, f"{self.game}-{rule}", self.locator.line(path)))

    def check(self, rule: int | str, path: PathKey, message: str, basis: Inferred | None) -> None:
        """Report a failed check that rests on a catalog value whose inference is `basis` (None: a rulebook
        states it): a violation when the value is stated or H, else a warning with its source and confidence."""
        if basis is None or basis.confidence == "H":
            self.add(rule, path, message)
        elif self.strict:
            self.add(rule, path, f"{message} ({STRICT_WORDS.get(basis.confidence, basis.confidence)}, "
                                 f"confidence {basis.confidence}: a violation under --strict)")
        else:
            self.warnings.append(RuleWarning(where(path), message, basis.source, basis.confidence,
                                             f"{self.game}-{rule}", self.locator.line(path)))

    def __bool__(self) -> bool:
        return bool(self.violations)


def weakest(bases: Iterable[Inferred | None]) -> Inferred | None:
    """Of the inferences a check rests on, the least sure (None when every value is stated): a check is as weak as
    the weakest value it needs."""
    order = ("H", "M", "L", "house")
    found = [b for b in bases if b is not None]
    return max(found, key=lambda b: order.index(b.confidence) if b.confidence in order else len(order), default=None)


def below_h(basis: Inferred | None) -> str | None:
    """The confidence of a catalog value when it is below H (M, L, house), else None: a score computed from such a
    value is marked `inferred` (end-states.md)."""
    return basis.confidence if basis is not None and basis.confidence != "H" else None

