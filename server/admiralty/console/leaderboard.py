"""The tournament leaderboard as a rich Table."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from admiralty.tournament.standings import Standing


def _fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def leaderboard_table(rows: Sequence[Standing], title: str = "") -> Table:
    table = Table(title=title or None, header_style="bold")
    for column in ("#", "bot", "mu", "sigma", "mu-3sigma", "matches", "firsts", "mean score",
                   "ms mean", "ms p95", "incidents"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for rank, row in enumerate(rows, start=1):
        data = row.to_json(rank)
        table.add_row(str(rank), data["bot"], _fmt(data["mu"], 2), _fmt(data["sigma"], 2),
                      _fmt(data["conservative"], 2), str(data["matches"]), str(data["firsts"]),
                      _fmt(data["mean_score"]), _fmt(data["latency_mean_ms"]),
                      _fmt(data["latency_p95_ms"]), str(data["incidents"]))
    return table
