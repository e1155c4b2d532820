"""The exceptions donjon raises and the exit code each one maps to.

Every error a user can cause is a :class:`DonjonError` whose message names the file, the line or entry and the
field or option at fault. The command line prints the message on stderr and exits with the error's code; it
never shows a traceback for one of these. Anything else reaching the command line is a bug (exit 4).

Errors keep their facts as fields (the problems, the option, the path) and build their message from them, so
that a caller can tell what went wrong without parsing text. Errors that carry several problems share one base,
:class:`ProblemsError`, which lists every problem under a heading.
"""

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol, runtime_checkable

from generator.wording import plural, visible

if TYPE_CHECKING:
    from generator.i18n import Language


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


#: The longest line a problem prints: a message quotes a user's value only in part, and this keeps a value
#: quoted whole by mistake (100 KB of a cell) from flooding the terminal.
MAX_LINE = 2000


class Problem(NamedTuple):
    """One thing wrong with one input: where it is and what rule or field it breaks."""

    file: str
    line: int | None
    where: str
    message: str

    def __str__(self) -> str:
        # a file name, a path in a document and a quoted value can hold control characters: shown escaped
        file = visible(self.file)
        place = file if self.line is None else f"{file}:{self.line}"
        text = (f"{place}: {visible(self.where)}: {visible(self.message)}" if self.where
                else f"{place}: {visible(self.message)}")
        return text if len(text) <= MAX_LINE else f"{text[:MAX_LINE]}… (cut: {len(text):,} characters in all)"


class DonjonError(Exception):
    """Base of every error a user can cause. `str(err)` is the complete message for stderr."""

    exit_code: ExitCode = ExitCode.INVALID


class ProblemsError(DonjonError):
    """An error carrying one or more problems, each with its file, line and field; all are listed, not just the
    first. One problem is its own message; several are listed under :meth:`heading`, indented by `indent`."""

    indent = ""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(self.message())

    def heading(self) -> str:
        """The line above several problems (subclasses say what could not be read)."""
        return f"{plural(len(self.problems), 'problem')}:"

    def message(self) -> str:
        lines = [f"{self.indent}{p}" for p in self.problems]
        if len(self.problems) <= 1:
            return "\n".join(str(p) for p in self.problems)
        return "\n".join([self.heading(), *lines])

    def __str__(self) -> str:
        return self.message()


class InputError(ProblemsError):
    """An input file cannot be read at all (missing, not text, not YAML/JSON, too large or too deep)."""

    exit_code = ExitCode.UNREADABLE

    def __init__(self, file: str | Path, message: str, line: int | None = None) -> None:
        self.file = str(file)
        self.line = line
        super().__init__([Problem(self.file, line, "", message)])

    #: the message as donjon words it and its values (:func:`unreadable`), for :meth:`said`; None for another
    said_as: tuple[str, dict[str, object]] | None = None

    @property
    def problem(self) -> Problem:
        """The first problem (the only one for a file that cannot be opened or parsed)."""
        return self.problems[0]

    def said(self, lang: "Language") -> "InputError":
        """This error in `lang` when its message is one of donjon's own (:func:`unreadable`), else itself."""
        if self.said_as is None:
            return self
        message, values = self.said_as
        return InputError(self.file, _filled(message, values, lang), self.line)


def unreadable(file: str | Path, message: str, line: int | None = None, **values: object) -> InputError:
    """A file that cannot be read as text, YAML or JSON (generator.files, generator.yamlio): `message` is donjon's
    own, English being the message itself, each `{name}` filled from `values` (a :class:`~generator.i18n.Figure` as
    the language writes numbers), in the language a command says its messages in (`content check --lang fr`:
    generator.i18n.messages_in), else English; :meth:`InputError.said` says it in another language (`history edit
    --lang fr`)."""
    from generator.i18n import language, messages_language

    err = InputError(file, _filled(message, values, messages_language() or language()), line)
    err.said_as = (message, values)
    return err


@runtime_checkable
class SaidLater(Protocol):
    """A value of a message said as the language of whoever reads it says it (generator.sayings.Quoted)."""

    def said(self, lang: "Language") -> str: ...


def _filled(message: str, values: dict[str, object], lang: "Language") -> str:
    from generator.i18n import figures

    # a user's value quoted as the language it is read in quotes it (« a », „a“), even when the message is said
    # again in another (generator.sayings.Quoted, a layer above this one: known by its `said`)
    said = {name: value.said(lang) if isinstance(value, SaidLater) else value for name, value in values.items()}
    return lang._(message).format(**figures(said, lang))


class DocumentError(InputError):
    """A document that was parsed but cannot be read as what it should be (an end state, a filled sheet): every
    problem, in the order of the file, each with its line and path (exit 2)."""

    indent = "  "

    def __init__(self, file: str, problems: Iterable[Problem], what: str, lang: "Language | None" = None) -> None:
        found = sorted(problems, key=lambda p: p.line or 0)  # in file order, so a reader can work down it
        self.what = what
        #: the language the heading is said in (its problems are said in it by the checker), English when None
        self.lang = lang
        self.file = file
        self.line = found[0].line if found else None
        ProblemsError.__init__(self, found or [Problem(file, None, "", "cannot be read")])

    def heading(self) -> str:
        if self.lang is None or self.lang.english:
            return f"{visible(self.file)}: cannot be read as {self.what} ({plural(len(self.problems), 'problem')}):"
        return self.lang.ngettext("{file}: cannot be read as {what} ({n} problem):",
                                  "{file}: cannot be read as {what} ({n} problems):",
                                  len(self.problems)).format(file=visible(self.file), what=self.what,
                                                             n=self.lang.number(len(self.problems)))


class ContentError(ProblemsError):
    """One or more problems in catalogs, decks or layouts; all of them are listed, not just the first."""

    exit_code = ExitCode.INVALID

    def __init__(self, problems: Iterable[Problem]) -> None:
        from generator.i18n import messages_language

        #: the language its problems were said in (generator.i18n.messages_in), which its heading says too
        self.lang = messages_language()
        super().__init__(problems)

    def heading(self) -> str:
        if self.lang is None:
            return f"{plural(len(self.problems), 'problem')} in the content:"
        return self.lang.nformat("{n} problem in the content:", "{n} problems in the content:", len(self.problems))


class UsageError(DonjonError):
    """The command line asks for something donjon cannot do: `where` is the option, argument or folder at fault
    (`--paper`, `TARGET`, a content folder), `message` what is wrong with it."""

    exit_code = ExitCode.UNREADABLE

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.reason = message
        super().__init__(visible(f"{where}: {message}" if where else message))


class UsageErrors(UsageError):
    """Several things wrong on one command line (every `--set` of a run that cannot be taken), all said at once so
    that one run tells the user everything to mend; `errors` keeps each, and `where` and `reason` are the first's
    for a caller that looks at one."""

    def __init__(self, errors: Iterable[UsageError], heading: str) -> None:
        self.errors = tuple(errors)
        self.where = self.errors[0].where
        self.reason = self.errors[0].reason
        lines = [str(err) for err in self.errors]
        DonjonError.__init__(self, lines[0] if len(lines) == 1 else "\n".join([heading, *(f"  {line}"
                                                                                            for line in lines)]))


def refused_sets(errors: Iterable[UsageError], lang: "Language | None" = None) -> UsageError:
    """One UsageError for the `--set`s of a run that cannot be taken (at least one): the error itself when it is
    alone (its message as it always was), else all of them under one heading (in `lang`, English when None)."""
    found = tuple(errors)
    if len(found) == 1:
        return found[0]
    if lang is None or lang.english:
        return UsageErrors(found, f"{plural(len(found), 'value')} given with --set cannot be taken:")
    return UsageErrors(found, lang.ngettext("{n} value given with --set cannot be taken:",
                                            "{n} values given with --set cannot be taken:",
                                            len(found)).format(n=lang.number(len(found))))


class OutputError(DonjonError):
    """An output file or folder cannot be written: `path` names it (or the option and path), `reason` says why."""

    exit_code = ExitCode.OUTPUT

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(visible(f"{self.path}: {reason}"))


class StdoutError(OutputError):
    """Standard output cannot be written: full (`> /dev/full`), or closed by its reader (a broken pipe, as with
    `donjon ... | head`). A closed pipe is not reported: the reader has what it wanted."""

    def __init__(self, err: OSError) -> None:
        import errno

        self.quiet = err.errno == errno.EPIPE
        super().__init__("standard output", "closed by its reader" if self.quiet else f"cannot write ({os_reason(err)})")


class FitError(DonjonError):
    """A card's text does not fit its box even at the layout's smallest size."""

    exit_code = ExitCode.INVALID


def os_reason(err: OSError) -> str:
    """What the operating system said, for a message: `cannot write (No space left on device)`."""
    return err.strerror or str(err)


class Interrupted(BaseException):
    """A signal asked the command to stop (SIGTERM, SIGHUP, SIGQUIT): raised in the main thread, so that every
    `finally` runs (staged outputs discarded, worker processes ended), then the command exits 128 + the signal.

    A BaseException, like KeyboardInterrupt, so that no `except Exception` takes it for an error to report."""

    def __init__(self, signum: int) -> None:
        import signal

        self.signum = signum
        try:
            self.name = signal.Signals(signum).name
        except ValueError:
            self.name = f"signal {signum}"
        super().__init__(f"stopped by {self.name}")


#: The signal that asked this command to stop, once one has (see :func:`request_stop`).
_stop_signal: int | None = None


def request_stop(signum: int) -> None:
    """What a stopping signal's handler does: note the request, then raise :class:`Interrupted` where the program is
    (KeyboardInterrupt for Ctrl-C's SIGINT, as Python's own handler does).

    The exception can be lost: a handler runs between any two bytecodes, and one that lands in a weakref callback
    or a `__del__` (an import's module lock has one) has its exception dropped by Python. The note stays, and
    :func:`stop_if_requested` raises it again: before outputs are put in place, and at each card drawn."""
    global _stop_signal
    _stop_signal = signum
    _raise_stop(signum)


def stop_if_requested() -> None:
    """Raise :class:`Interrupted` (KeyboardInterrupt for SIGINT) if a signal asked the command to stop and the
    exception it raised was lost."""
    if _stop_signal is not None:
        _raise_stop(_stop_signal)


def requested_stop() -> int | None:
    """The signal that asked the command to stop, if one has."""
    return _stop_signal


#: The signals that stop a command (those :func:`request_stop` is called for), where the system has them.
STOPPING = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")


def stopping_signals() -> set[int]:
    """The numbers of :data:`STOPPING`'s signals this system has."""
    import signal

    return {getattr(signal, name) for name in STOPPING if hasattr(signal, name)}


@contextmanager
def stops_held() -> Iterator[None]:
    """Hold the signals that stop a command for the block: one that comes meanwhile waits, and stops the command
    as soon as the block is over. For steps a stop must not cut in two: a folder made and noted for removal, outputs
    put in place, worker processes forked and noted for killing."""
    import signal

    try:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, stopping_signals())
    except (AttributeError, OSError, ValueError):  # no signal masks here (not POSIX, or not the main thread)
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _raise_stop(signum: int) -> None:
    import signal

    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Interrupted(signum)
