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
        from generator.wording import visible_lines

        try:
            return func(*args, **kwargs)
        except DonjonError as err:
            sys.stdout.flush()
            # errors escape what they quote; this catches any message that did not
            typer.echo(f"error: {visible_lines(str(err))}", err=True)
            raise typer.Exit(int(err.exit_code)) from None

    return wrapper  # type: ignore[return-value]


def settle() -> None:
    """After a command has loaded its modules, catalogs and fonts: move them out of the garbage collector's sight,
    so that the collections drawing triggers only look at new objects (a tenth of a small build otherwise)."""
    import gc

    gc.freeze()


def is_terminal() -> bool:
    """Progress bars only when a person is watching (stderr is a terminal)."""
    return sys.stderr.isatty()
