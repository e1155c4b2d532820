"""`donjon score FILE...`: check end states by the rules of their game and score them."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from generator.commands import reports_errors

HELP = """\
Check end states of Guildhall, Once Upon a Castle or Guédelon by the rules and score them.

Each FILE is a YAML or JSON end state naming its game in `game:` (see content/examples/). Prints a score
table per file: the points of each player by source, the places, the winner, and every rule broken, each on
its own line. With --json, prints one JSON object per file, one per line, in the order given.

Exit codes: 0 every file is a valid, finished game; 1 a file breaks rules or records a game still in progress;
2 a file cannot be read (not YAML or JSON, wrong types, unknown keys or names, unknown game). With several
files, the highest.
"""

CONTENT_HELP = "A content folder whose catalogs (tower values, VP cards, tiles...) replace the shipped ones."


@reports_errors
def score(
    # text, not Path: typer validates each Path one by one, which a thousand files feel
    files: list[str] = typer.Argument(..., help="End-state files (YAML or JSON).", show_default=False),
    json_: bool = typer.Option(False, "--json", help="Print one JSON object per file instead of a table."),
    content: Optional[Path] = typer.Option(None, "--content", help=CONTENT_HELP, show_default=False),
) -> None:
    """Check end states by the rules of their game and score them."""
    from generator.errors import DonjonError, UsageError
    from scoring.engine import Scorer
    from scoring.table import render

    if content is not None and not content.is_dir():
        raise UsageError(f"--content {content}: " + ("no such folder" if not content.exists() else "is not a folder"))
    scorer = Scorer(content)
    worst = 0
    printed = False
    for path in files:
        try:
            result = scorer.score(path)
        except DonjonError as err:
            typer.echo(f"error: {err}", err=True)
            worst = max(worst, int(err.exit_code))
            continue
        worst = max(worst, int(result.exit_code))
        if json_:
            typer.echo(result.to_json())
        else:
            typer.echo(("\n" if printed else "") + render(result))
            printed = True
    if worst:
        raise typer.Exit(worst)
