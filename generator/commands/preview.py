"""`donjon preview`: a static HTML page showing every card and sheet."""

from __future__ import annotations

HELP = "placeholder"


def preview() -> None:
    pass
