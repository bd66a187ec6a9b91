"""The tournament leaderboard as a rich Table that fits 80 columns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table

from admiralty.tournament.solo import RANKING, SoloStanding
from admiralty.tournament.standings import Standing

COLUMNS = (
    ("#", "rank"), ("bot", "bot"), ("mu", "mu"), ("sigma", "sigma"),
    ("mu-3sig", "conservative"), ("games", "matches"), ("1st", "firsts"),
    ("score", "mean_score"), ("ms", "latency_mean_ms"), ("p95", "latency_p95_ms"),
    ("inc", "incidents"),
)
SOLO_COLUMNS = (
    ("#", "rank"), ("bot", "bot"), ("margin", "mean_margin"), ("95% CI", "interval"),
    ("vs above", "vs_above"), ("games", "matches"), ("won", "win_rate"),
    ("ms", "latency_mean_ms"), ("inc", "incidents"),
)


def _cell(value: object) -> str:
    if value is None:
        return "-"
    return f"{value:.1f}" if isinstance(value, float) else str(value)


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.1f}"


def _interval(low: float | None, high: float | None) -> str:
    return "-" if low is None or high is None else f"{low:+.1f}..{high:+.1f}"


def _solo_cells(data: dict[str, Any]) -> dict[str, str]:
    """A one-seat row in words: signed margins, the interval, the paired gap, a percentage."""
    gap = data["vs_above"]
    return {**{key: _cell(value) for key, value in data.items()},
            "mean_margin": _signed(data["mean_margin"]),
            "interval": _interval(data["margin_low"], data["margin_high"]),
            "vs_above": "-" if gap is None else
            f"{_signed(gap['mean'])} ({_interval(gap['low'], gap['high'])})",
            "win_rate": "-" if data["win_rate"] is None else f"{data['win_rate']:.0%}"}


def leaderboard_table(rows: Sequence[Standing | SoloStanding],
                      title: str = "") -> Table:
    """Rank, bot, TrueSkill mu and sigma, the sort key mu - 3 sigma, games, first places,
    mean score, mean and p95 decision latency (ms) and incidents.

    A one-seat tournament's rows (`SoloStanding`) show instead the mean margin over the
    automated opponent with its 95% t-interval, the paired gap to the bot ranked above
    (mean and interval of the per-deal differences), games, the win rate, mean latency and
    incidents, under a caption saying so."""
    solo = bool(rows) and isinstance(rows[0], SoloStanding)
    columns = SOLO_COLUMNS if solo else COLUMNS
    table = Table(title=title or None, header_style="bold underline", box=None,
                  pad_edge=False, caption=RANKING if solo else None)
    for header, _ in columns:
        table.add_column(header, justify="left" if header == "bot" else "right",
                         no_wrap=True, overflow="ellipsis", max_width=(20 if solo else 24)
                         if header == "bot" else None)
    for rank, row in enumerate(rows, start=1):
        data = row.to_json(rank)
        if data["disqualified"]:
            data["bot"] += " (disqualified)"
        cells = _solo_cells(data) if solo else {k: _cell(v) for k, v in data.items()}
        table.add_row(*(cells[key] for _, key in columns))
    return table
