"""`benchmarks/results.md` as generated blocks and hand-written text, so that a rewrite keeps what people wrote.

Each part a script writes (the header, the targets, a case of `run.py`, the photo sections of `scan_photos.py`) sits
between two comment lines, invisible once the Markdown is shown:

    <!-- generated: score -->
    ## scoring
    ...
    <!-- /generated: score -->

A rewrite replaces only the blocks it measured; every other block, and every line outside the blocks (notes under a
table, whole sections written by hand), stays as it was, byte for byte. Standard library only, as `run.py` is.
"""

from __future__ import annotations

import re
from pathlib import Path

BEGIN = "<!-- generated: {} -->"
END = "<!-- /generated: {} -->"
_MARK = re.compile(r"^<!-- (/?)generated: ([\w.-]+) -->$")


class ReportError(ValueError):
    """results.md's markers do not pair up (a block opened and not closed, or closed twice)."""


def blocks_of(lines: list[str], where: str = "results.md") -> dict[str, tuple[int, int]]:
    """Each block's key and its first and last line (the markers), 0-based."""
    found: dict[str, tuple[int, int]] = {}
    open_key: str | None = None
    start = 0
    for number, line in enumerate(lines):
        mark = _MARK.match(line)
        if not mark:
            continue
        closing, key = mark.group(1) == "/", mark.group(2)
        if not closing and open_key is None and key not in found:
            open_key, start = key, number
        elif closing and key == open_key:
            found[key] = (start, number)
            open_key = None
        else:
            raise ReportError(f"{where}, line {number + 1}: {line!r} does not pair up with the markers around it "
                              "(each block opens once and closes before the next opens)")
    if open_key is not None:
        raise ReportError(f"{where}, line {start + 1}: block {open_key!r} is opened and never closed")
    return found


def merge(text: str, order: list[str], replace: dict[str, list[str]], missing: dict[str, list[str]] | None = None,
          where: str = "results.md") -> str:
    """`text` with the blocks of `replace` written anew, those of `missing` added only where `text` lacks them,
    and everything else as it was. A block `text` lacks goes after the block before it in `order` and the notes
    under that one (up to the next heading or block), else before the first block after it, else at the end."""
    lines = text.rstrip("\n").split("\n") if text.strip() else []
    found = blocks_of(lines, where)
    if not found and any(line.startswith("## ") for line in lines):
        # a report written before the markers: its tables would all stay, as notes, beside the new ones
        raise ReportError(f"{where} has sections but no generated blocks (<!-- generated: KEY --> ... "
                          "<!-- /generated: KEY -->): mark the generated parts, or move the file away to start anew")
    # replace from the bottom up, so that the line numbers above stay right
    for key, (start, end) in sorted(found.items(), key=lambda item: -item[1][0]):
        if key in replace:
            lines[start:end + 1] = [BEGIN.format(key), *replace[key], END.format(key)]
    wanted = {**(missing or {}), **replace}
    for key in [k for k in order if k in wanted and k not in found]:
        found = blocks_of(lines, where)
        block = [BEGIN.format(key), *wanted[key], END.format(key)]
        earlier = [found[k][1] for k in order[:order.index(key)] if k in found]
        later = [found[k][0] for k in order[order.index(key) + 1:] if k in found]
        if earlier:  # after the block before it and the notes under that block, up to the next heading or block
            at = max(earlier) + 1
            while at < len(lines) and not lines[at].startswith("#") and not _MARK.match(lines[at]):
                at += 1
            while at > max(earlier) + 1 and lines[at - 1] == "":
                at -= 1
            lines[at:at] = ["", *block] + ([""] if at < len(lines) and lines[at] != "" else [])
        elif later:
            lines[min(later):min(later)] = [*block, ""]
        else:
            lines += ([""] if lines and lines[-1] != "" else []) + block
    return "\n".join(lines) + "\n"


def write(path: Path, order: list[str], replace: dict[str, list[str]],
          missing: dict[str, list[str]] | None = None) -> None:
    """Merge the blocks into the report at `path` (made if absent), written whole at once: a failed write leaves
    the report as it was."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    merged = merge(text, order, replace, missing, where=str(path))
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(merged, encoding="utf-8")
        partial.replace(path)
    except BaseException:  # a full disk, an interrupt: no half-written .partial left beside the report
        partial.unlink(missing_ok=True)
        raise
