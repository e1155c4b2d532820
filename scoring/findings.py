"""What the rules modules share: naming a place in the file, and collecting every violation and warning found.

A check is as strong as the facts it rests on (end-states.md, "Violations and warnings"). A check on facts a
rulebook states (or that two sources agree on: confidence H) reports a **violation** with :meth:`Findings.add`.
A check on a catalog value below H (M, L or a house default) reports through :meth:`Findings.check`, handing it
the value's `Inferred` record from the catalog: the record decides. Stated or H, it is a violation; M, L or
house, a **warning** carrying that record's source and confidence, and the file is still scored. With
`strict` (`donjon score --strict`, for games played on donjon's own sheets) every warning is a violation.

Messages are written in the findings' language (`lang`: English on the command line, the phone's at the table):
a rule says `found._("is {value}; ...", value=...)` (`value=Figure(...)` for a quantity the file gave, so that
French reads 20,5 and 1 500; never for an index), `found.ngettext("{n} tower", "{n} towers", n)`,
`found.listing(values, "or")`; the paths stay as the file writes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, Any, Self, TypeVar

from generator.fields import normalise_name
from generator.i18n import N_, Figure, Language, figures, language
from generator.sayings import Sayings
from generator.wording import ordinal
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
    """Finds a value in the file from its path in the parsed record: its line, and a name as the file writes it.

    A record holds names as their ids (`Tax Collector` and `Händler` become `tax-collector` and `trader`), so a
    mapping key of the path is the key the file wrote for it (`written`, as the format read it: the checker's
    :attr:`~generator.fields.Checker.written`), else a key of the file that folds to it. Paths in messages stay
    the record's (`players[1].guildhall.trader`): one place has one path, whatever name a file gives it.
    """

    doc: Document | None = None
    #: each name the file writes other than as its id, by its place in the record (`Checker.written`)
    written: Mapping[PathKey, str] = field(default_factory=dict)

    def _walk(self, path: PathKey) -> PathKey:
        """The longest start of `path` the file holds, as the file writes it (each mapping key as written)."""
        raw: list[str | int] = []
        node: Any = self.doc.data if self.doc is not None else None
        for depth, part in enumerate(path):
            if isinstance(node, dict):
                if part not in node and isinstance(part, str):
                    given = self.written.get(path[:depth + 1])
                    if given is not None and given in node:
                        part = given
                    else:
                        part = next((k for k in node if isinstance(k, str) and normalise_name(k) == part), part)
                if part not in node:
                    break
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
            else:
                break
            raw.append(part)
        return tuple(raw)

    def line(self, path: PathKey) -> int | None:
        if self.doc is None or not self.doc.lines:
            return None
        return self.doc.line(self._walk(path))

    def name(self, path: PathKey, value: str) -> str:
        """How the file writes the name at `path` (a list item's, or a mapping key's by its id: `Händler` at
        `players[1].guildhall.trader`), else `value`."""
        return self.written.get(path, value)


_Rule = TypeVar("_Rule", bound="NumberedRule | CheckedValue")


def _sectioned(rule: _Rule, value: int | str, section: str) -> _Rule:
    """An enum member made of `value` (a rule's number, a warning's code) that carries the rulebook sections it
    comes from: the one way both kinds of rule are written."""
    rule._value_ = value
    rule.section = section
    return rule


class NumberedRule(IntEnum):
    """A rule of a game's list in end-states.md: its number, and the rulebook sections it comes from, named with
    every violation of it. A game writes each rule as `PLAYERS = 1, "002 game info (2-4 players)"`, so that where a
    rule is stated is read beside it."""

    #: where the rule is stated: rulebook numbers and section titles (`004 Towers; Flags`)
    section: str

    def __new__(cls, number: int, section: str) -> Self:
        return _sectioned(int.__new__(cls, number), number, section)


class CheckedValue(StrEnum):
    """A warning of a game's list in end-states.md (`w1`: a check on a value no rulebook states), and the rulebook
    sections whose rule it checks. A warning names the value's own source; the section is named when the check
    becomes a violation (`--strict`, or a catalog of one's own that cites a rulebook for the value), so that every
    violation names the section its rule comes from. Written as `VALUES = "w1", "004 Towers; Flags"`."""

    #: where the rule the value serves is stated (`004 Towers; Flags`)
    section: str

    def __new__(cls, code: str, section: str) -> Self:
        return _sectioned(str.__new__(cls, code), code, section)


def section_of(rule: int | str) -> str:
    """The rulebook sections `rule` comes from ("" for a plain number or name, which cites none)."""
    return rule.section if isinstance(rule, NumberedRule | CheckedValue) else ""


#: How a warning turned violation by `--strict` names the confidence of the value it rests on.
STRICT_WORDS = {"M": N_("a best reading"), "L": N_("a guess"), "house": N_("a house default")}


def confidence_said(confidence: str, lang: Language | None) -> str:
    """A confidence as a message says it: H, M and L are letters in every language, `house` (donjon's own
    default) a word of the language; the JSON keeps the code."""
    if lang is None or lang.english or confidence != "house":
        return confidence
    return lang.pgettext("confidence", "house")


@dataclass
class Findings(Sayings):
    """The violations and warnings found in one file, in the order the rules were checked."""

    game: str
    locator: Locator = field(default_factory=Locator)
    violations: list[Violation] = field(default_factory=list)
    warnings: list[RuleWarning] = field(default_factory=list)
    #: every warning is a violation (`--strict`)
    strict: bool = False
    #: the language messages are written in
    lang: Language = field(default_factory=language)
    #: the language the file names things in (`de`: it says Händler; the messages' language when its names tell none
    #: and that is not English), or None for a file that writes the format's own words, the ids (`trader`)
    names: str | None = None
    #: the game's catalog in the messages' language when that is not English (`--lang fr`), for what a player reads
    #: above the messages (the heading's names: Chasseur, whatever the file calls the Hunter); None: as the file does
    said: Any = None

    def npgettext(self, context: str, singular: str, plural: str, count: int, /, **values: Any) -> str:
        """:meth:`ngettext` of a message told apart from another of the same English by `context`."""
        return self.lang.npgettext(context, singular, plural, count).format(
            **figures({"n": Figure(count), **values}, self.lang))

    def ordinal(self, number: int) -> str:
        """`5th` (`5e`, `5.`)."""
        return ordinal(number) if self.lang.english else self.lang.ordinal(number)

    def called(self, entry: str, name: str) -> str:
        """A catalog entry as the file would call it: by `name` (its name in the file's language, that of the
        catalog the rules are given) when the file names things so, else by its id `entry`, as the file does."""
        return name if self.names is not None else entry

    def written(self, path: PathKey, entry: str, name: str) -> str:
        """The catalog entry `entry` at `path` as the file writes it when that is not its id (`Händler` for the
        profession `trader`), else as it would call it (:meth:`called`): a table's form sends the id of a name the
        player picked, and is answered with the name."""
        return self.locator.name(path, self.called(entry, name))

    def add(self, rule: int | str, path: PathKey, message: str, source: str | None = None) -> None:
        """Report that `rule` (its number in the game's list) is broken at `path`: a violation, its message ending
        with the rulebook section the rule comes from (`[004 Towers]`), so that every broken rule is named with
        its section. `source`: that section when it is not the rule's own (a :class:`NumberedRule`'s `section`;
        a plain number cites none), such as the one of the several sections a rule gathers that a check rests
        on."""
        cited = self._cited(source if source is not None else section_of(rule))
        self._violation(rule, path, f"{message} [{cited}]" if cited else message, cited)

    def _violation(self, rule: int | str, path: PathKey, message: str, source: str) -> None:
        self.violations.append(Violation(where(path), message, f"{self.game}-{rule}", self.locator.line(path),
                                         source))

    def check(self, rule: int | str, path: PathKey, message: str, basis: Inferred | None) -> None:
        """Report a failed check that rests on a catalog value whose inference is `basis` (None: a rulebook
        states it): a violation when the value is stated or H, else a warning with its source and confidence.

        A violation names the rulebook section of its rule (README: every broken rule names the section it comes
        from), never the inference alone: a count a rulebook implies (002 gives the Old World Economy cards' sum
        and proportions, game-facts 1(a) solves for the copies) is looked up in the rule's section, and the
        derivation follows it, marked by its confidence as a warning's source is (`[002 ...; H: 8n + 2n = 30
        ...]`), so that a player can check the arithmetic too. Under `--strict` the same: the section, then the
        value's confidence and source, the message saying it rests on a guess."""
        if basis is None:
            self.add(rule, path, message)
            return
        section = self._cited(section_of(rule))
        # what the value rests on, in the messages' language: donjon's own words for the values its rules and its
        # shipped catalogs rest on are in the interface catalogs (scoring.sources); a source of one's own catalog
        # has none, and stays as written
        source = self.lang._(basis.source) if basis.source else ""
        basis = basis._replace(source=source)
        derived = self._("{label}: {value}", label=confidence_said(basis.confidence, self.lang), value=source) \
            if source else ""
        # both joined as the language joins two clauses (French: a narrow no-break space before the semicolon)
        cited = self._("{first}; {then}", first=section, then=derived) if section and derived else section or derived
        if basis.confidence == "H":  # a value the sources state together, or that follows from what they state
            self._violation(rule, path, f"{message} [{cited}]" if cited else message, section or basis.source)
        elif self.strict:  # the message says what the check rests on, a guess
            said = self._("{message} ({basis}, confidence {confidence}: a violation under --strict)",
                          message=message, confidence=confidence_said(basis.confidence, self.lang),
                          basis=self.lang._(STRICT_WORDS.get(basis.confidence, basis.confidence)))
            self._violation(rule, path, f"{said} [{cited}]" if cited else said, section or basis.source)
        else:
            self.warnings.append(RuleWarning(where(path), message, basis.source, basis.confidence,
                                             f"{self.game}-{rule}", self.locator.line(path)))

    def _cited(self, section: str) -> str:
        """A rulebook section as a violation cites it, in the messages' language where donjon's own words are in it
        (what a section says it holds, `(4 personal boards, ...)`; the format's rule on names): the sections' titles
        are the rulebooks' and stay as printed."""
        return self.lang._(section) if section else section

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

