"""Scoring many files for the command line: in the order given, on every core when there are many of them.

End states are independent of each other, so a long list is cut into as many blocks as there are cores. This
process scores the first block while forked children score the others, each keeping its outcomes in memory and
handing them over through a pipe once done; this process then prints them in order. Forking after start-up means
the children share everything already imported and loaded. A child that fails for any reason costs nothing but
time: its block is scored here instead. A short list, a single core, or a platform without `fork` is scored here,
one file after another. Either way the output is the same, byte for byte.

Filled castle score sheets (PDFs) given together are the sheets of one game (end-states.md): they are scored as
one end state, whose outcome comes where the first of them was given; YAML and JSON files among them are scored
one by one as always.

With JSON and more than one thing to score, every line says what it is about (end-states.md): `"file"` first
(the path as given; for the sheets of one game, the first sheet's, with every sheet's in `"files"`), then the
result, or `"error"` for a file that cannot be read, so that each line can be matched to its file.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from generator.processes import can_die_with_parent, die_with_parent
from scoring.engine import Scorer, is_sheet
from scoring.result import Unread

if TYPE_CHECKING:
    from generator.i18n import Language

#: Below this many files, forking costs more than it saves.
PARALLEL_MIN = 200


class Outcome(NamedTuple):
    """What the command prints for one file, and the exit code it stands for. A named tuple, not a dataclass: a
    dataclass compiles its generated methods when it is defined, at every start of `donjon score`."""

    exit_code: int
    #: the score table or the JSON line, for stdout
    output: str | None = None
    #: why the file cannot be read, for stderr
    error: str | None = None


#: What is scored as one: an end-state file, or the filled castle sheets of one game.
Unit = str | tuple[str, ...]


def units(paths: Sequence[str]) -> list[Unit]:
    """The files as they are scored: each file alone, except that two or more filled castle sheets (PDFs) are
    scored together, in the place of the first of them."""
    sheets = tuple(p for p in paths if is_sheet(p))
    if len(sheets) < 2:
        return list(paths)
    out: list[Unit] = []
    placed = False
    for path in paths:
        if not is_sheet(path):
            out.append(path)
        elif not placed:
            out.append(sheets)
            placed = True
    return out


def outcome(scorer: Scorer, unit: Unit, as_json: bool, named: bool = False) -> Outcome:
    """Score one file (or the filled sheets of one game) into what the command prints for it. `named`: the JSON
    line says which file it is about, and a file that cannot be read gets a line too."""
    from generator.errors import DonjonError
    from scoring.result import Unconfirmed, json_line
    from scoring.table import render

    about: dict[str, object] = {"file": unit[0] if isinstance(unit, tuple) else unit}
    if isinstance(unit, tuple):
        about["files"] = list(unit)
    head = about if named else {}
    try:
        result = scorer.score_sheets(unit) if isinstance(unit, tuple) else scorer.score(unit)
    except DonjonError as err:
        # with --json, one JSON object on standard output whatever the outcome (end-states.md): a file alone that
        # cannot be read gets the line several files get, naming it (the error is said on standard error too)
        line = json_line({**about, "error": str(err)}) if as_json else None
        # what the error's raiser added for standard error (a photo alone not read: each `--set` given for it, not
        # applied), after the error itself
        return Outcome(int(err.exit_code), output=line, error="\n".join([str(err), *getattr(err, "__notes__", ())]))
    unread = result.part(Unconfirmed)
    # a sheet of several that could not be read is an error of that file (stderr), listed with the others (stdout)
    error = ("\n".join(line for u in unread.unread for line in _said_unread(u, scorer.lang))
             if unread is not None and unread.unread else None)
    if not as_json:
        return Outcome(int(result.exit_code), output=render(result, scorer.lang, scorer.labels(result.game),
                                                            scorer.game_name(result.game)), error=error)
    return Outcome(int(result.exit_code), output=json_line({**head, **result.to_dict()}) if named else result.to_json(),
                   error=error)


def _said_unread(unread: Unread, lang: Language | None = None) -> list[str]:
    """The lines of standard error for a photo that could not be read: why, then each `--set` given for it, which
    was not applied (the photo is given again with it); in `lang` (`why` and `error` are said in it already)."""
    from scoring.result import not_applied

    return [unread.error or f"{unread.file}: {unread.why}",
            *(not_applied(given, unread.file, lang) for given in unread.unset)]


def workers_for(count: int) -> int:
    """How many processes (this one included) to score `count` files with."""
    if count < PARALLEL_MIN or not sys.platform.startswith("linux"):  # fork is only safe to rely on there
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, count // (PARALLEL_MIN // 2)))


def score_paths(files: Sequence[str], scorer: Scorer, as_json: bool, workers: int | None = None) -> Iterator[Outcome]:
    """The outcome of each file (the filled sheets given being one game), in the order given."""
    paths = units(files)
    named = len(paths) > 1
    count = workers_for(len(paths)) if workers is None else max(1, min(workers, len(paths)))
    size = -(-len(paths) // count)
    blocks = [paths[start:start + size] for start in range(0, len(paths), size)]
    children = [_fork(block, scorer, as_json, named) for block in blocks[1:]]
    for path in blocks[0] if blocks else ():
        yield outcome(scorer, path, as_json, named)
    for block, child in zip(blocks[1:], children, strict=True):
        done = _collect(child, len(block))
        yield from done if done is not None else (outcome(scorer, path, as_json, named) for path in block)


def _fork(block: Sequence[Unit], scorer: Scorer, as_json: bool, named: bool) -> tuple[int, int] | None:
    """Start a child scoring `block`: its pid and the pipe to read from, or None when no child can be had."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid:
        os.close(write_end)
        return pid, read_end
    # the child: score, hand the outcomes over, and leave without running anything of the parent's
    status = 1
    try:
        if can_die_with_parent():  # a stopped command leaves no child scoring on, holding its output streams open
            die_with_parent(parent)
        os.close(read_end)
        scored = [outcome(scorer, path, as_json, named) for path in block]
        data = json.dumps([[o.exit_code, o.output, o.error] for o in scored], ensure_ascii=False).encode("utf-8")
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(data)
        status = 0
    finally:
        os._exit(status)


def _collect(child: tuple[int, int] | None, expected: int) -> list[Outcome] | None:
    """A child's outcomes, or None when it failed (the caller then scores its block itself)."""
    if child is None:
        return None
    pid, read_end = child
    chunks = []
    with os.fdopen(read_end, "rb") as pipe:
        while chunk := pipe.read(1 << 16):
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        return None
    try:
        rows = json.loads(b"".join(chunks))
        found = [Outcome(int(code), output, error) for code, output, error in rows]
    except (ValueError, TypeError):
        return None
    return found if len(found) == expected else None
