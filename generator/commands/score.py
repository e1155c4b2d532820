"""`donjon score FILE...`: check end states by the rules of their game and score them."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from generator.commands import folder_option, reports_errors

HELP = """\
Check end states of Guildhall, Once Upon a Castle or Guédelon by the rules and score them.

Each FILE is a YAML or JSON end state naming its game in `game:` (see content/examples/), or a filled
Once Upon a Castle score sheet (the fillable PDF of `donjon build`). Prints a score table per file: the points
of each player by source, the places, the winner, and every rule broken, each on its own line. With --json,
prints one JSON object per file, one per line, in the order given. Filled sheets given together are the sheets
of one game: they are scored together, as one result.

Exit codes: 0 every file is a valid, finished game; 1 a file breaks rules or records a game still in progress;
2 a file cannot be read (not YAML, JSON or a filled sheet, wrong types, unknown keys or names, unknown game).
With several files, the highest.
"""

CONTENT_HELP = "A content folder whose catalogs (tower values, VP cards, tiles...) replace the shipped ones."


@reports_errors
def score(
    # text, not Path: typer validates each Path one by one, which a thousand files feel
    files: list[str] = typer.Argument(..., help="End-state files (YAML or JSON) or filled castle sheets (PDF).",
                                  show_default=False),
    json_: bool = typer.Option(False, "--json", help="Print one JSON object per file instead of a table."),
    content_text: Optional[str] = typer.Option(None, "--content", help=CONTENT_HELP, show_default=False),
) -> None:
    """Check end states by the rules of their game and score them."""
    content = folder_option(content_text, "--content")
    from generator.errors import UsageError
    from scoring.batch import score_paths
    from scoring.engine import Scorer

    if content is not None and not content.is_dir():
        raise UsageError(f"--content {content}", ("no such folder" if not content.exists() else "is not a folder"))
    worst = 0
    printed = False
    for outcome in score_paths(files, Scorer(content), json_):
        worst = max(worst, outcome.exit_code)
        if outcome.error is not None:
            typer.echo(f"error: {outcome.error}", err=True)
        elif json_:
            typer.echo(outcome.output)
        else:
            typer.echo(("\n" if printed else "") + (outcome.output or ""))
            printed = True
    if worst:
        raise typer.Exit(worst)
