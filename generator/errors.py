"""The exceptions donjon raises and the exit code each one maps to.

Every error a user can cause is a :class:`DonjonError` whose message names the file, the line or entry and the
field or option at fault. The command line prints the message on stderr and exits with the error's code; it
never shows a traceback for one of these. Anything else reaching the command line is a bug (exit 4).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path


class ExitCode(IntEnum):
    """The exit codes of every donjon command (documented in the README)."""

    OK = 0
    #: The input was read but breaks the rules: an end state with violations or a game still in progress,
    #: a catalog or deck with problems, a card whose text does not fit its box.
    INVALID = 1
    #: The input cannot be read or the command line is wrong: a missing file, not YAML/JSON/PDF, wrong types or
    #: unknown keys in an end state, an unknown option value.
    UNREADABLE = 2
    #: The output cannot be written: an unwritable folder, `--out` naming a file, a full disk.
    OUTPUT = 3
    #: A bug in donjon itself.
    INTERNAL = 4


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with one input: where it is and what rule or field it breaks."""

    file: str
    line: int | None
    where: str
    message: str

    def __str__(self) -> str:
        place = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{place}: {self.where}: {self.message}" if self.where else f"{place}: {self.message}"


class DonjonError(Exception):
    """Base of every error a user can cause. `str(err)` is the complete message for stderr."""

    exit_code: ExitCode = ExitCode.INVALID


class InputError(DonjonError):
    """An input file cannot be read at all (missing, not text, not YAML/JSON, too large or too deep)."""

    exit_code = ExitCode.UNREADABLE

    def __init__(self, file: str | Path, message: str, line: int | None = None) -> None:
        self.file = str(file)
        self.line = line
        self.problem = Problem(self.file, line, "", message)
        super().__init__(str(self.problem))


class ContentError(DonjonError):
    """One or more problems in catalogs, decks or layouts; all of them are listed, not just the first."""

    exit_code = ExitCode.INVALID

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        self.problems = tuple(problems)
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in the content:" if count > 1 else ""
        lines = [str(p) for p in self.problems]
        super().__init__("\n".join([head, *lines]) if head else "\n".join(lines))


class UsageError(DonjonError):
    """A command-line option has a value donjon cannot use; the message names the option."""

    exit_code = ExitCode.UNREADABLE


class OutputError(DonjonError):
    """An output file or folder cannot be written; the message names it."""

    exit_code = ExitCode.OUTPUT


class FitError(DonjonError):
    """A card's text does not fit its box even at the layout's smallest size."""

    exit_code = ExitCode.INVALID
