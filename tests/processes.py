"""Start donjon for a test that signals it, with the signal state a terminal gives: the stopping signals at their
default action and none of them blocked, whatever the test runner inherited.

A CI runner may start the tests with SIGQUIT blocked, or (as a shell's background job) with SIGINT and SIGQUIT
ignored; a child inherits both across exec, and donjon rightly leaves them so (see `generator.cli._catch_signals`).
A test of what a signal does must not depend on that, so the child is started through `python -c RESET`, which
sets the state and then execs donjon in the same process (same pid, so `/proc` lookups still find its workers)."""

from __future__ import annotations

import sys

#: The signals a test sends to stop a command.
STOPPING = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")

_RESET = f"""\
import os, signal, sys
numbers = {{getattr(signal, n) for n in {STOPPING!r} if hasattr(signal, n)}}
for number in numbers:
    signal.signal(number, signal.SIG_IGN if signal.Signals(number).name in sys.argv[1].split(",") else signal.SIG_DFL)
signal.pthread_sigmask(signal.SIG_UNBLOCK, numbers)
os.execv(sys.argv[2], sys.argv[2:])
"""


def with_default_signals(argv: list[str], ignored: tuple[str, ...] = ()) -> list[str]:
    """`argv` run with every stopping signal unblocked and at its default action, except `ignored` (names such as
    "SIGHUP"), which start ignored as under `nohup`."""
    if not sys.platform.startswith(("linux", "darwin")):
        return argv
    unknown = set(ignored) - set(STOPPING)
    if unknown:
        raise ValueError(f"not a stopping signal: {sorted(unknown)}")
    return [sys.executable, "-c", _RESET, ",".join(ignored), *argv]
