"""A served referee's matches as `admiralty match list` and `match show` print them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from admiralty.console.results import print_result
from admiralty.text import display_names, printable

SHOWN = ("match_id", "game", "status", "master_seed", "steps", "record_path", "error")
"""What `match show` prints of a match, one line each, in this order (an empty one not)."""


def matches_list_table(summaries: Sequence[Mapping[str, Any]]) -> Table:
    """`match list`: each id whole, since `watch` and `match show` take it (it starts with
    the game's name, so the game has no column of its own); the bots' names wrap instead."""
    table = Table(box=None, pad_edge=False, header_style="bold underline")
    table.add_column(
        "match", no_wrap=True, min_width=max((len(s["match_id"]) for s in summaries), default=0)
    )
    table.add_column("status", overflow="fold")
    table.add_column("steps", justify="right")
    table.add_column("bots", min_width=8, overflow="fold")
    for summary in summaries:
        table.add_row(
            summary["match_id"],
            summary["status"],
            str(summary["steps"]),
            Text(printable(", ".join(display_names(summary["bot_names"])))),
        )
    return table


def print_match_summary(console: Console, summary: Mapping[str, Any]) -> None:
    """`match show`: the match's status, seed, steps and record, then, once it is
    finished, its result."""
    for key in SHOWN:
        if summary.get(key):
            console.print(
                f"{key.replace('_', ' ')}: {printable(str(summary[key]))}",
                highlight=False,
                markup=False,
            )
    if summary.get("result"):
        print_result(console, summary["result"])
