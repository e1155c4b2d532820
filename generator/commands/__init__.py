"""One module per `donjon` command. They import only typer at module level (see generator/cli.py)."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import typer

F = TypeVar("F", bound=Callable[..., Any])


def reports_errors(func: F) -> F:
    """Turn a DonjonError raised by a command into its message on stderr and its exit code.

    Inside the command rather than around `app()`, so that typer's test runner sees the same exit codes and
    messages as a user does.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from generator.errors import DonjonError

        try:
            return func(*args, **kwargs)
        except DonjonError as err:
            try:
                sys.stdout.flush()
            except DonjonError:
                pass  # standard output is what failed: the error says so
            if not getattr(err, "quiet", False):
                typer.echo(f"error: {err}", err=True)
            raise typer.Exit(int(err.exit_code)) from None

    return wrapper  # type: ignore[return-value]


def is_terminal() -> bool:
    """Progress bars only when a person is watching (stderr is a terminal)."""
    return sys.stderr.isatty()
