"""Forked children that end with their parent, however the parent ends; threads whose work nobody waits for.

A parent stopped by a signal cleans up in its `finally` blocks; one killed outright (SIGKILL, the out-of-memory
killer) cannot, and a child it forked would go on working for nobody, holding the command's output streams open
(a shell's pipe then waits for it). On Linux a child asks the kernel to kill it when its parent dies
(`prctl(PR_SET_PDEATHSIG)`); elsewhere the caller watches a pipe of its own (`generator.export.jobs`).

A command's exit waits for its threads still running (`generator.cli`), except those :func:`leave_behind` names:
a stopped `donjon serve` does not wait for a phone's photo still being read for an answer nobody will send.
"""

from __future__ import annotations

import os
import sys
import threading
import weakref
from collections.abc import Iterable

#: The threads a command's exit does not wait for (weakly: one that has ended is forgotten).
_left_behind: weakref.WeakSet[threading.Thread] = weakref.WeakSet()

#: prctl's option asking for a signal when the parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def can_die_with_parent() -> bool:
    """Whether :func:`die_with_parent` works here (Linux)."""
    return sys.platform.startswith("linux")


def die_with_parent(parent: int) -> None:
    """In a child just forked from `parent`: be killed (SIGKILL) when the parent ends, and end at once if it already
    has (it died between the fork and this call). Linux only (:func:`can_die_with_parent`)."""
    import ctypes
    import ctypes.util
    import signal

    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def leave_behind(threads: Iterable[threading.Thread]) -> None:
    """Let the command end without waiting for `threads`: their work has nobody left to take it (the requests of a
    server that has stopped, a photo still being read for a phone that will not get the answer). Only for threads
    that write nothing: the exit ends them wherever they are (`os._exit`), as SIGKILL would."""
    _left_behind.update(threads)


def threads_to_wait_for() -> list[threading.Thread]:
    """The threads still running that a command's exit waits for: every one but the main thread and those left
    behind (daemon threads too, as Python's own exit lets them run on while it finalises)."""
    main = threading.main_thread()
    return [t for t in threading.enumerate() if t is not main and t not in _left_behind]  # enumerate: alive ones
