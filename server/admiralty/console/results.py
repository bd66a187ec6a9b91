"""A match's result as `play` and `match show` print it: the placements, then the incidents."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Console
from rich.table import Table
from rich.text import Text

from admiralty.console.screen import incidents_table, solo_verdict
from admiralty.text import display_names, printable


def print_result(
    console: Console,
    result: dict,
    title: str | None = None,
    steps: Mapping[tuple[int, str], int] | None = None,
) -> None:
    """The placements (place, seat, bot, score, forfeited) as a table, then the incidents
    by seat and kind (their steps from `steps`, as `request_steps` reads them); for one
    seat, its margin and whether it won against the automated opponent. A bot in two seats
    is named as everywhere else (`display_names`)."""
    if len(result["placements"]) == 1:
        table = Table("seat", "bot", "margin", "result", title=title)
        (p,) = result["placements"]
        table.add_row(
            str(p["seat"]),
            Text(printable(p["bot"])),
            f"{int(p['score']):+d}",
            solo_verdict(result["game"], p),
        )
        console.print(table)
        _print_incidents(console, result, steps or {})
        return
    table = Table("place", "seat", "bot", "score", title=title)
    names = display_names([p["bot"] for p in sorted(result["placements"], key=lambda p: p["seat"])])
    for p in sorted(result["placements"], key=lambda p: (p["place"], p["seat"])):
        bot = names[p["seat"]] + (" (forfeited)" if p["forfeited"] else "")
        table.add_row(str(p["place"]), str(p["seat"]), Text(printable(bot)), str(p["score"]))
    console.print(table)
    _print_incidents(console, result, steps or {})


def _print_incidents(console: Console, result: dict, steps: Mapping[tuple[int, str], int]) -> None:
    if result.get("incidents"):
        console.print(incidents_table(result["incidents"], steps))
