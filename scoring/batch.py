"""Scoring many files for the command line: in the order given, on every core when there are many of them.

End states are independent of each other, so a long list is cut into chunks that forked worker processes
score while this process prints what comes back, in order (the way code formatters handle many files). Forking
after start-up means the workers share what is already imported; each loads the catalogs it needs once. A
short list, a machine with one core, or a platform without `fork` is scored here, one file after another.
Either way the output is the same, byte for byte.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from scoring.engine import Scorer

#: Below this many files, starting workers costs more than it saves.
PARALLEL_MIN = 200
#: Files per chunk handed to a worker: small enough to keep every worker busy to the end.
CHUNK = 50


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the command prints for one file, and the exit code it stands for."""

    exit_code: int
    #: the score table or the JSON line, for stdout
    output: str | None = None
    #: why the file cannot be read, for stderr
    error: str | None = None


def outcome(scorer: Scorer, path: str, as_json: bool) -> Outcome:
    """Score one file into what the command prints for it."""
    from generator.errors import DonjonError
    from scoring.table import render

    try:
        result = scorer.score(path)
    except DonjonError as err:
        return Outcome(int(err.exit_code), error=str(err))
    return Outcome(int(result.exit_code), output=result.to_json() if as_json else render(result))


def workers_for(count: int) -> int:
    """How many processes to score `count` files with (1: score them here)."""
    if count < PARALLEL_MIN or not sys.platform.startswith("linux"):  # fork is only safe to rely on there
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, -(-count // CHUNK)))


#: What forked workers inherit: the scorer and the output format (set just before the pool starts).
_JOB: tuple[Scorer, bool] | None = None


def _score_chunk(paths: Sequence[str]) -> list[Outcome]:
    assert _JOB is not None, "a worker runs only after score_paths has set its job"
    scorer, as_json = _JOB
    return [outcome(scorer, path, as_json) for path in paths]


def score_paths(paths: Sequence[str], scorer: Scorer, as_json: bool, workers: int | None = None) -> Iterator[Outcome]:
    """The outcome of each file, in the order given."""
    global _JOB
    count = workers_for(len(paths)) if workers is None else workers
    if count > 1:
        import multiprocessing

        if multiprocessing.current_process().daemon:  # a daemon process may not start children
            count = 1
    if count <= 1:
        for path in paths:
            yield outcome(scorer, path, as_json)
        return
    chunks = [paths[start:start + CHUNK] for start in range(0, len(paths), CHUNK)]
    _JOB = (scorer, as_json)
    try:
        try:
            pool = multiprocessing.get_context("fork").Pool(count)
        except OSError:  # no processes to be had (a limit, no memory): score here instead
            for path in paths:
                yield outcome(scorer, path, as_json)
            return
        with pool:
            for scored in pool.imap(_score_chunk, chunks):
                yield from scored
    finally:
        _JOB = None
