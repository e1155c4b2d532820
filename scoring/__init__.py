"""donjon's scorer: end states of Guildhall, Once Upon a Castle and Guédelon checked by the rules and scored.

The library API, usable without the command line::

    import scoring

    result = scoring.score("content/examples/guildhall.yaml")     # a path, or a mapping shaped like the file
    result.valid, result.finished, result.winner
    for player in result.players:
        print(player.name, player.score, player.place, dict(player.breakdown))
    for violation in result.violations:
        print(violation.where, violation.message)
    for warning in result.warnings:                                # checks on values no rulebook states
        print(warning.where, warning.message, warning.source, warning.confidence)
    print(result.to_json())                                        # the JSON object of end-states.md

A file that cannot be read at all (not YAML or JSON, unknown keys, wrong types, an unknown game) raises
:class:`generator.errors.InputError` (exit code 2); a file that breaks rules is scored as invalid, with every
violation listed (exit code 1). A check resting on a value no rulebook states (confidence M, L or house) gives a
warning instead, and the file is still scored; `strict=True` makes every warning a violation. `content` names a content folder (or a loaded `Content`) whose catalogs replace
the shipped ones.

Each game's rules and end-state format live in its package (`generator/games/GAME/rules.py` and `end_state.py`),
found through the registry (:mod:`generator.registry`): :mod:`scoring.engine` reads a file and hands it to its
game, :mod:`scoring.result` is what comes back, :mod:`scoring.findings` collects violations for the rules.
Importing this package is cheap: the catalogs and the YAML reader are loaded on the first call.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scoring.result import PlayerScore, Result, RuleWarning, Violation

if TYPE_CHECKING:
    from generator.content import Content
    from generator.errors import DonjonError


def score(source: str | os.PathLike[str] | Mapping[str, Any], *,
          content: str | os.PathLike[str] | Content | None = None, strict: bool = False) -> Result:
    """Score one end state: a YAML or JSON file, or a mapping with the same structure."""
    from scoring.engine import shared_scorer

    return shared_scorer(_root(content), strict).score(source)


def score_files(paths: Iterable[str | os.PathLike[str]],
                content_dir: str | os.PathLike[str] | Content | None = None,
                strict: bool = False) -> list[tuple[Path, Result | DonjonError]]:
    """Score several files with one load of each catalog: for each path, its result or the error reading it."""
    from scoring.engine import Scorer

    return Scorer(_root(content_dir), strict=strict).score_each(paths)


def _root(content: str | os.PathLike[str] | Content | None) -> Path | Content | None:
    if content is None or isinstance(content, Path):
        return content
    if isinstance(content, (str, os.PathLike)):
        return Path(content)
    return content


__all__ = ["PlayerScore", "Result", "RuleWarning", "Violation", "score", "score_files"]
