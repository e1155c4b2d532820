"""Helpers shared by the card reference tests: writing references, reading their text back."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typer.testing import Result

REPO = Path(__file__).resolve().parents[2]
GAMES = ("guildhall", "guedelon", "once-upon-a-castle")


def run(*args: str) -> Result:
    """`donjon ARGS` through typer's test runner."""
    from typer.testing import CliRunner

    from generator.cli import app

    return CliRunner().invoke(app, list(args))


def flat(text: str) -> str:
    """Text with every run of white space as one space (a name may wrap inside a table cell)."""
    return re.sub(r"\s+", " ", text).strip()


def page_texts(pdf: Path) -> list[str]:
    import pypdf

    return [flat(page.extract_text()) for page in pypdf.PdfReader(pdf).pages]


def reference_path(out: Path, game: str) -> Path:
    return out / "references" / f"{game}-reference.pdf"
