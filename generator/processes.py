"""Forked children that end with their parent, however the parent ends.

A parent stopped by a signal cleans up in its `finally` blocks; one killed outright (SIGKILL, the out-of-memory
killer) cannot, and a child it forked would go on working for nobody, holding the command's output streams open
(a shell's pipe then waits for it). On Linux a child asks the kernel to kill it when its parent dies
(`prctl(PR_SET_PDEATHSIG)`); elsewhere the caller watches a pipe of its own (`generator.export.jobs`).
"""

from __future__ import annotations

import os
import sys

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
