"""The `donjon` command. Each command lives in its own module under `generator/commands/`.

Start-up is kept lean on purpose (`donjon --help` runs in well under a quarter of a second): this module and
the command modules import only typer; everything heavy (reportlab, jinja2, YAML, pypdf...) is
imported inside the command that uses it.
"""

from __future__ import annotations

import gc
import io
import os
import re
import sys

# Start-up creates hundreds of thousands of objects that live as long as the process (modules, classes, font
# tables): collecting them again and again while they are made costs a tenth of a small build. They are made with
# the collector off, then frozen out of its sight (`main`), so later collections only look at new objects.
gc.disable()

import importlib  # noqa: E402 - after the collector is off
from typing import Any, NoReturn  # noqa: E402

import typer  # noqa: E402
from typer.core import TyperGroup  # noqa: E402

#: Every command, in the order `donjon --help` lists them: its module and the command function or Typer app in it.
#: A command's module is imported only when that command runs (or `--help` lists them all), so running one
#: command pays for no other.
COMMANDS: dict[str, tuple[str, str]] = {
    "build": ("generator.commands.build", "build"),
    "score": ("generator.commands.score", "score"),
    "reference": ("generator.commands.reference", "reference"),
    "preview": ("generator.commands.preview", "preview"),
    "serve": ("generator.commands.serve", "serve"),
    "content": ("generator.commands.content", "app"),
    "export": ("generator.commands.export", "app"),
    "check-print": ("generator.commands.check_print", "check_print"),
    "printer": ("generator.commands.printer", "app"),
    "history": ("generator.commands.history", "app"),
}


class LazyCommands(TyperGroup):
    """The root group of `donjon`, whose commands are made from their modules when first asked for."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = COMMANDS.get(cmd_name)
        if found is None:
            return None
        module = importlib.import_module(found[0])
        target = getattr(module, found[1])
        command: Any
        if isinstance(target, typer.Typer):
            command = typer.main.get_group(target)
        else:
            single = typer.Typer(add_completion=False, rich_markup_mode=None)
            single.command(cmd_name, help=module.HELP)(target)
            command = typer.main.get_command(single)
        command.name = cmd_name
        _say_exit_codes(command)
        return command

    def invoke(self, ctx: Any) -> Any:
        """Run the command; Ctrl-C ends it saying so (:data:`INTERRUPTED`) with exit 130, as :func:`main` does for
        one outside a command: a KeyboardInterrupt reaching typer would be a silent exit 130 (typer 0.2x) or
        click's "Aborted!" and exit 1 (older versions), whose 1 means broken rules. An exit, not an exception, so
        that a program running the app (typer's test runner) gets the same exit code as a user."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            typer.echo(INTERRUPTED, err=True)
            raise typer.Exit(128 + signal_number("SIGINT")) from None


def _say_exit_codes(command: Any, codes: str | None = None) -> None:
    """Give every command whose help does not say its exit codes the ones every command shares, under its
    options, so that `donjon COMMAND --help` alone tells a script what to expect; the subcommands of a group whose
    help says codes of its own (`donjon history`: a game that breaks the rules is 2 there, not 1) get the group's."""
    said = re.search(r"Exit codes:.*", command.help or "", flags=re.S)
    codes = " ".join(said.group(0).split()) if said else codes or EXIT_CODES
    for sub in getattr(command, "commands", {}).values():
        _say_exit_codes(sub, codes)
    if not hasattr(command, "commands") and "exit" not in (command.help or "").lower() and not command.epilog:
        command.epilog = codes


EXIT_CODES = """\
Exit codes: 0 success; 1 the input breaks the rules (violations, a game in progress, catalog problems, text
that does not fit); 2 the input cannot be read or the command line is wrong; 3 the output cannot be written;
4 a bug in donjon; 128 + N stopped by signal N (130: Ctrl-C)."""

HELP = f"""\
donjon: print-and-play studio and scorer for Guédelon, Guildhall and Once Upon a Castle.

Builds print-ready decks, score sheets and card references from the catalogs in content/, exports card
images for print services and Tabletop Simulator, and scores finished games by the rules.

{EXIT_CODES}
"""

app = typer.Typer(
    name="donjon",
    help=HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    cls=LazyCommands,
)

def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"donjon {version('donjon')}")
        except PackageNotFoundError:
            typer.echo("donjon (not installed)")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print donjon's version and exit."),
) -> None:
    """donjon: print-and-play studio and scorer."""


class _Stdout(io.RawIOBase):
    """Standard output that reports a failed write as donjon's own error (exit 3: the output cannot be written),
    not as an OSError no command expects; after one failure, the rest is dropped quietly."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd
        self.broken = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data: Any) -> int:
        if self.broken:
            return len(data)
        try:
            return os.write(self.fd, data)
        except OSError as err:
            from generator.errors import StdoutError

            self.broken = True
            raise StdoutError(err) from None


def _guard_stdout() -> None:
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # no real standard output (embedded): leave it alone
        return
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(_Stdout(fd)), encoding=sys.stdout.encoding,
                                  errors=sys.stdout.errors, line_buffering=bool(sys.stdout.line_buffering))


def _stop(signum: int, _frame: object) -> None:
    from generator.errors import request_stop

    request_stop(signum)


def _unraisable(info: Any) -> None:
    """Python's hook for exceptions it cannot raise (in a weakref callback, a `__del__`): a stop request that landed
    there is noted and raised again at the next checkpoint (`errors.stop_if_requested`), so it is not reported."""
    from generator.errors import Interrupted, requested_stop

    if isinstance(info.exc_value, Interrupted) or (isinstance(info.exc_value, KeyboardInterrupt) and
                                                   requested_stop() is not None):
        return
    sys.__unraisablehook__(info)


def _catch_signals() -> None:
    """SIGTERM, SIGHUP and SIGQUIT stop a command as Ctrl-C does: through every `finally` (staged outputs
    discarded, workers ended), never leaving temporaries behind; every one of them, Ctrl-C too, is noted as well
    as raised (`errors.request_stop`).

    A signal the parent set to be ignored stays ignored, as Python does for SIGINT: `nohup donjon build` must
    survive the hangup it asked to ignore, and a shell's background job ignores SIGQUIT. A signal the parent
    blocked stays blocked too (the mask is inherited and left alone): the command then runs to its end."""
    import signal

    for name in ("SIGTERM", "SIGHUP", "SIGQUIT"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, _stop)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        # Ctrl-C raises KeyboardInterrupt as Python's handler does, and is noted as the others are: Python drops an
        # exception raised in a finaliser, and a preview would then render on to its end
        signal.signal(signal.SIGINT, _stop)
    sys.unraisablehook = _unraisable


#: How many new objects start a collection of the youngest ones (Python's default is 700). A command makes
#: objects by the hundred thousand (its modules as it imports them, catalogs, pages being drawn) and almost no
#: garbage cycles: at 700, the collector runs some forty times in a 100-card build, 5 ms of its 0.18 s. Cycles
#: that do become garbage wait a little longer, a few MB at most.
GC_YOUNG_THRESHOLD = 20_000


def settle() -> None:
    """Put every object made so far out of the garbage collector's sight and let it run on what comes next, less
    often than Python's default.

    Commands call it again once their heavy modules and data are loaded (:func:`generator.commands.settle`)."""
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)
    gc.enable()


def run() -> None:
    """The console entry point (`donjon`, `python -m generator`): :func:`main`, then a quick exit."""
    try:
        main()
        code: object = 0
    except SystemExit as done:
        code = done.code
    _leave(code)


def _leave(code: object) -> None:
    """End the process with `code` once the command is over, without tearing the interpreter down object by
    object: with every module, font table and catalog alive, that teardown is some 10 ms of a 0.2 s build, and
    nothing in it matters to a finished command (mypy leaves the same way, for the same reason).

    What does matter still happens: the standard streams are flushed and the atexit functions run. A thread
    still running (a library's, whose shutdown joins it) takes the ordinary way out instead, unless the command
    left it behind (`processes.leave_behind`: a stopped server's photo still being read, which would hold the exit
    for as long as the read takes, with Ctrl-C held below). Signals are held from here on: the command has
    finished, and its exit code says how."""
    import atexit
    import signal

    from generator.errors import stopping_signals
    from generator.processes import threads_to_wait_for

    status = 0 if code is None else code if isinstance(code, int) else 1
    if not isinstance(code, (int, type(None))):
        sys.stderr.write(f"{code}\n")  # what SystemExit("message") prints
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, stopping_signals())
    except (AttributeError, OSError, ValueError):  # no signal masks (not POSIX)
        pass
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # noqa: BLE001 - a stream that cannot take it: the ordinary exit deals with it as Python does
        raise SystemExit(status) from None
    if threads_to_wait_for():
        raise SystemExit(status)
    atexit._run_exitfuncs()
    os._exit(status)


def signal_number(name: str) -> int:
    import signal

    return int(getattr(signal, name))


#: What a command stopped by Ctrl-C says on standard error (exit 130).
INTERRUPTED = "donjon: interrupted"


def _stopped(signum: int) -> NoReturn:
    """A command stopped by a signal: say so (and whether its outputs were put in place first), exit 128 + it."""
    from generator.errors import Interrupted

    if signum == signal_number("SIGINT"):
        sys.stderr.write(INTERRUPTED + "\n")
        sys.exit(128 + signum)
    output = sys.modules.get("generator.output")
    placed = output is not None and output.placed_outputs() > 0
    sys.stderr.write(f"donjon: {Interrupted(signum)}" + (" (after its outputs were put in place)\n" if placed else "\n"))
    sys.exit(128 + signum)


def main() -> None:
    """Run the app; a bug gets one line on stderr and exit 4, not a traceback. Ends with SystemExit, so that a
    program calling it can go on."""
    from generator.errors import DonjonError, ExitCode, Interrupted, requested_stop

    _catch_signals()
    _guard_stdout()
    settle()
    try:
        try:
            app(prog_name="donjon")
        finally:
            sys.stdout.flush()  # while errors can still be reported, not at the interpreter's exit
    except KeyboardInterrupt:
        _stopped(signal_number("SIGINT"))
    except Interrupted as stop:
        _stopped(stop.signum)
    except DonjonError as err:  # outside any command: --help or a usage message written to a full stdout
        if not getattr(err, "quiet", False):
            sys.stderr.write(f"error: {err}\n")
        sys.exit(int(err.exit_code))
    except SystemExit:
        raise
    except Exception as err:  # noqa: BLE001 - the last line of defence: report, never dump a traceback
        if os.environ.get("DONJON_DEBUG"):
            raise
        signum = requested_stop()
        if signum is not None:  # a library took the stop for an error of its own (reportlab's bare `except:`
            _stopped(signum)    # reads a font interrupted by SIGTERM as "Corrupt TTF file")
        sys.stderr.write(f"donjon: internal error: {type(err).__name__}: {err}\n"
                         "This is a bug in donjon; run again with DONJON_DEBUG=1 to see where, and please report it.\n")
        sys.exit(int(ExitCode.INTERNAL))
