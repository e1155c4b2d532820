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

No worker outlives its command. Whatever stops the parent (an error, Ctrl-C, SIGTERM, SIGHUP, SIGQUIT), it kills
its workers and waits for them before the staged outputs are discarded, so no worker writes into a folder
after it is gone. A parent killed outright (SIGKILL) cannot do that: on Linux each worker asks the kernel to
kill it when its parent dies (`prctl(PR_SET_PDEATHSIG)`); elsewhere it watches a pipe only the parent holds
open and exits when it closes. Workers take SIGTERM, SIGHUP and SIGQUIT as their default (they die) and ignore
Ctrl-C, which the parent handles for the whole export.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from generator.errors import DonjonError, ExitCode, OutputError, stop_if_requested, stops_held
from generator.processes import can_die_with_parent, die_with_parent

C = TypeVar("C")
T = TypeVar("T")
R = TypeVar("R")

#: Below this many images, rendering in-process beats forking.
PARALLEL_FROM = 16
#: How often (in seconds) the parent looks for a stop request while its workers render: a Ctrl-C is seen within it.
WAIT_S = 0.25
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


def _die_with_parent(parent: int, watch: tuple[int, int] | None) -> None:
    """Make sure this worker ends when `parent` does, even if the parent is killed outright."""
    if watch is None:
        die_with_parent(parent)
        return
    import threading

    read_end, write_end = watch
    os.close(write_end)  # only the parent may hold it open: its death then closes the pipe

    def wait_for_parent() -> None:
        while os.read(read_end, 1):
            pass
        os._exit(1)

    threading.Thread(target=wait_for_parent, daemon=True).start()
    if os.getppid() != parent:  # the parent died before the watch began
        os._exit(1)


def _worker_start(parent: int, watch: tuple[int, int] | None, mask: set[int]) -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent stops the export (and discards what was
    # staged) and ends its workers. Any other stopping signal just ends a worker: it holds nothing to clean up
    # (it inherited the parent's handlers, which would raise in it instead). The worker was forked with the
    # stopping signals held (see `run`): it takes back the mask the command had, and a signal sent meanwhile lands.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP", "SIGQUIT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    _die_with_parent(parent, watch)


def _parent_watch() -> tuple[int, int] | None:
    """A pipe for the workers to watch where the kernel cannot signal them their parent's death (not Linux)."""
    return None if can_die_with_parent() else os.pipe()


def _end_workers(pool: object) -> None:
    """Kill the pool's workers and wait until they are gone (they only ever write into staging folders, which
    the caller discards next). `_processes` is ProcessPoolExecutor's own map of them: it has no public way to
    end workers before Python 3.14."""
    found = list((getattr(pool, "_processes", None) or {}).values())
    for process in found:
        process.kill()
    for process in found:
        process.join(5)


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

    import signal
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    order = sorted(range(len(chunks)), key=lambda i: -weights[i])
    _CURRENT = _Work(func, context, chunks)  # type: ignore[arg-type]
    watch = _parent_watch()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # the command's own mask, for the workers to take back
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), mp_context=multiprocessing.get_context("fork"),
                               initializer=_worker_start, initargs=(os.getpid(), watch, mask))
    finished = False
    try:
        try:
            # submitting starts the workers one by one: one killed meanwhile breaks the pool under `submit` itself.
            # Held from stops: a stop between a fork and the pool's noting of its worker left a worker nobody
            # killed, which the parent's exit then waited for (multiprocessing joins its children at exit) forever
            with stops_held():
                futures = {pool.submit(_run_chunk, i): i for i in order}
            pending = set(futures)
            while pending:
                # a chunk at a time, and a look every WAIT_S for a stop whose exception Python dropped (a Ctrl-C
                # that landed in a finaliser): without it the workers would render on to the end
                done, pending = wait(pending, timeout=WAIT_S, return_when=FIRST_COMPLETED)
                stop_if_requested()
                for future in done:
                    error = future.exception()
                    if error is not None:
                        if isinstance(error, _Relay):
                            raise RelayedError(*error.args) from None
                        raise error
                    index = futures[future]
                    results[index] = future.result()  # type: ignore[assignment]
                    progress(counts[index])
        except BrokenProcessPool:  # a worker killed from outside (out of memory?), while submitting or rendering
            raise OutputError("--jobs", "a worker process was killed before it finished (out of memory?); nothing "
                                        "was written; try again, or with fewer --jobs") from None
        finished = True
    finally:
        if not finished:  # an error, Ctrl-C or a signal: no worker goes on rendering
            _end_workers(pool)
        # and the pool's own thread is waited for (its workers gone, it ends at once): left running, it races
        # Python's exit, which wakes it through a pipe the thread closes meanwhile ("Exception ignored ... Bad file
        # descriptor" after a full disk failed a preview)
        pool.shutdown(wait=True, cancel_futures=True)
        if watch is not None:
            os.close(watch[0])
            os.close(watch[1])
        _CURRENT = None
    return [results[i] for i in range(len(chunks))]
