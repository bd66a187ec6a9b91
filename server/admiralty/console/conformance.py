"""A bot's conformance report as `admiralty check-bot` prints it."""

from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table
from rich.text import Text

from admiralty.referee.conformance import Conformance, Result
from admiralty.text import printable

RESULT_STYLES = {Result.PASS: "green", Result.FAIL: "bold red", Result.NOT_EXERCISED: "yellow"}


def print_conformance(console: Console, report: Conformance) -> None:
    """Every check with its result and reason, then the counts, the seed and the game
    options the matches were played with."""
    table = Table(
        "check",
        "result",
        "reason",
        title=Text(
            printable(
                f"{report.name or report.spec} {report.version} · "
                f"{', '.join(report.games) or 'no game'}"
            )
        ),
    )
    for check in report.checks:
        table.add_row(
            check.id,
            Text(str(check.result), RESULT_STYLES[check.result]),
            Text(printable(check.reason)),
        )
    console.print(table)
    counts = {result: sum(c.result is result for c in report.checks) for result in Result}
    options = "".join(f" -o {name}={_as_typed(value)}" for name, value in report.options.items())
    console.print(
        f"{counts[Result.PASS]} passed, {counts[Result.FAIL]} failed, "
        f"{counts[Result.NOT_EXERCISED]} not exercised · seed {report.seed}{options}",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )


def _as_typed(value: object) -> str:
    """An option's value as `--option` reads it back: text as it is, anything else as JSON
    (`true`, `[10,20]`)."""
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
