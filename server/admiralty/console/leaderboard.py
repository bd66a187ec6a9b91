"""The tournament leaderboard as a rich Table that fits 80 columns."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from admiralty.tournament.standings import Standing

COLUMNS = (
    ("#", "rank"), ("bot", "bot"), ("mu", "mu"), ("sigma", "sigma"),
    ("mu-3sig", "conservative"), ("games", "matches"), ("1st", "firsts"),
    ("score", "mean_score"), ("ms", "latency_mean_ms"), ("p95", "latency_p95_ms"),
    ("inc", "incidents"),
)


def _cell(value: object) -> str:
    if value is None:
        return "-"
    return f"{value:.1f}" if isinstance(value, float) else str(value)


def leaderboard_table(rows: Sequence[Standing], title: str = "") -> Table:
    """Rank, bot, TrueSkill mu and sigma, the sort key mu - 3 sigma, games, first places,
    mean score, mean and p95 decision latency (ms) and incidents."""
    table = Table(title=title or None, header_style="bold underline", box=None,
                  pad_edge=False)
    for header, _ in COLUMNS:
        table.add_column(header, justify="left" if header == "bot" else "right",
                         no_wrap=True, overflow="ellipsis", max_width=24 if header == "bot"
                         else None)
    for rank, row in enumerate(rows, start=1):
        data = row.to_json(rank)
        if data["disqualified"]:
            data["bot"] += " (disqualified)"
        table.add_row(*(_cell(data[key]) for _, key in COLUMNS))
    return table
