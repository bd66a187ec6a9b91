"""Where the commands write: their two consoles, and a mistake or a failure as one line."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.text import Text

from admiralty.text import printable

out = Console()
err = Console(stderr=True, soft_wrap=True)


class UsageError(Exception):
    """A mistake in what the user asked for; printed as one line."""


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print one error line (a bot's stderr under it, each of its control characters
    escaped); exit 1 for a failure (2 for a usage mistake, see `usage`)."""
    err.print(
        Text.assemble(("error: ", "bold red"), printable(message, lines=True)), highlight=False
    )
    return typer.Exit(code=code)


def usage(message: str) -> typer.Exit:
    """A mistake in what was asked for: one line, exit code 2."""
    return fail(message, code=2)
