"""Rendering on every core: the work is cut into chunks that forked worker processes render independently.

The parent loads the content, checks every deck's layouts (so that a broken layout is reported once, before
any work starts) and then forks: each worker inherits the decks, the loaded layouts and fonts, and gets only
a chunk number to work on. A chunk renders its images and writes them into a staging folder itself, so only
file names and sizes travel back. Chunks are handed out largest first, which keeps both cores busy to the end.

Small jobs (or `--jobs 1`) run in the process itself: forking costs more than a dozen cards take to render.
Each file depends on its card alone, never on which worker made it or when, so the bytes are the same however
the work was split.

An error a user can cause (text that does not fit, a full disk) is caught in the worker and sent back as its
exit code and message, then raised again in the parent as it would have been without workers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from generator.errors import DonjonError, ExitCode

C = TypeVar("C")
T = TypeVar("T")
R = TypeVar("R")

#: Below this many images, rendering in-process beats forking.
PARALLEL_FROM = 16
MAX_JOBS = 64


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


class RelayedError(DonjonError):
    """An error raised in a worker process, raised again in the parent with the same code and message."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.exit_code = ExitCode(code)


class _Relay(Exception):
    """What a worker raises instead of a DonjonError: plain arguments, which any exception pickles faithfully."""


class _Work(Generic[C, T, R]):
    def __init__(self, func: Callable[[C, T], R], context: C, chunks: Sequence[T]) -> None:
        self.func = func
        self.context = context
        self.chunks = chunks


#: The work being done, set before the workers fork so that they inherit it (never pickled).
_CURRENT: _Work[object, object, object] | None = None


def _worker_start() -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent stops the export (and discards what was
    # staged); a worker just finishes its chunk, instead of printing a traceback of its own.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_chunk(index: int) -> object:
    work = _CURRENT
    assert work is not None, "a worker without work: run() sets it before forking"
    try:
        return work.func(work.context, work.chunks[index])
    except DonjonError as err:
        raise _Relay(int(err.exit_code), str(err)) from None


def split(items: Sequence[T], parts: int) -> list[list[T]]:
    """`items` in `parts` consecutive runs of nearly equal length (none empty)."""
    parts = max(1, min(parts, len(items)))
    size, extra = divmod(len(items), parts)
    out, start = [], 0
    for i in range(parts):
        end = start + size + (1 if i < extra else 0)
        out.append(list(items[start:end]))
        start = end
    return out


def chunk_size(total: int, jobs: int) -> int:
    """How many images a chunk should hold: about four chunks per worker, at least 6 (each chunk pays for one PDF
    and its fonts, about 10 ms) and at most 32."""
    if jobs <= 1:
        return 64
    return max(6, min(32, -(-total // (jobs * 4))))


def run(func: Callable[[C, T], R], context: C, chunks: Sequence[T], *, jobs: int, weights: Sequence[int],
        progress: Callable[[int], None], counts: Sequence[int] | None = None) -> list[R]:
    """`func(context, chunk)` for every chunk, in `jobs` processes; results in the order of `chunks`.

    `weights` (images per chunk) order the chunks largest first; `progress` gets each chunk's count (`counts`,
    by default its weight) as it finishes."""
    global _CURRENT

    import multiprocessing

    counts = weights if counts is None else counts
    results: dict[int, R] = {}
    forks = "fork" in multiprocessing.get_all_start_methods()  # not on Windows: render in-process there
    if jobs <= 1 or len(chunks) <= 1 or sum(weights) < PARALLEL_FROM or not forks:
        for index, chunk in enumerate(chunks):
            results[index] = func(context, chunk)
            progress(counts[index])
        return [results[i] for i in range(len(chunks))]

    from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait

    order = sorted(range(len(chunks)), key=lambda i: -weights[i])
    _CURRENT = _Work(func, context, chunks)  # type: ignore[arg-type]
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), mp_context=multiprocessing.get_context("fork"),
                                 initializer=_worker_start) as pool:
            futures = {pool.submit(_run_chunk, i): i for i in order}
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_EXCEPTION)
                for future in done:
                    error = future.exception()
                    if error is not None:
                        pool.shutdown(wait=True, cancel_futures=True)
                        if isinstance(error, _Relay):
                            raise RelayedError(*error.args) from None
                        raise error
                    index = futures[future]
                    results[index] = future.result()  # type: ignore[assignment]
                    progress(counts[index])
    finally:
        _CURRENT = None
    return [results[i] for i in range(len(chunks))]
