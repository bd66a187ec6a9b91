"""The leaderboard of a one-seat tournament: bots against the game's automated opponent.

In a one-seat game (Blackbeard solitaire: one seat against the Crown) a match's score is
the seat's margin over the automated opponent (victory points minus the target; 0 or more
is a win), and there is nobody to place against, so TrueSkill does not apply. Instead:

- every bot plays the same deal (seed) in each round (see `plan.py`), so a deal's luck
  is the same for every bot;
- bots are ranked by their mean margin over the deals they played, with a 95% Student t
  interval over those deals: mean ± t(0.975, n-1) · s / √n, s the sample standard
  deviation of the bot's margins (no interval from fewer than two deals);
- the comparison that matters, this bot against the one ranked just above it, is made on
  the deals both played: the paired differences d = margin(this) - margin(above), their
  mean and the same t interval over them. Pairing removes the luck of the deal that the
  two bots shared, so it separates bots that per-bot intervals (which overlap) cannot;
- the win rate is the share of matches with a margin of 0 or more. A seat that forfeited
  or was retired (crashed, timed out...) lost, whatever its margin, as it would be placed
  last in a game of several seats; its margin still counts in the mean.
"""

from __future__ import annotations

import functools
import itertools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from admiralty.referee.launcher import DISQUALIFIED
from admiralty.referee.match import retired_failing, won_alone
from admiralty.tournament.plan import PlannedMatch
from admiralty.tournament.standings import CRASH, answered_latencies
from admiralty.tournament.store import Result

CONFIDENCE = 0.95
"""The coverage of every interval on a one-seat leaderboard."""

RANKING = (
    "one seat against the game's automated opponent: ranked by mean margin over "
    "shared deals, 95% t-interval; TrueSkill does not apply"
)
"""What a one-seat leaderboard ranks by, in words, for its title and --json."""


def _two_sided(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with `df` degrees of freedom, in closed form
    (Abramowitz & Stegun 26.7.3-4: a finite series for whole `df`)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    term = total = 1.0
    if df % 2:
        for k in range(1, (df - 3) // 2 + 1):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        inner = math.sin(theta) * math.cos(theta) * total if df > 1 else 0.0
        return 2 / math.pi * (theta + inner)
    for k in range(1, (df - 2) // 2 + 1):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


@functools.cache
def t_quantile(df: int, confidence: float = CONFIDENCE) -> float:
    """The t with P(|T| <= t) = `confidence`: t(0.975, df) for a 95% interval.

    >>> round(t_quantile(1), 3), round(t_quantile(4), 3), round(t_quantile(29), 3)
    (12.706, 2.776, 2.045)
    """
    if df < 1:
        raise ValueError("a t interval needs at least one degree of freedom")
    low, high = 0.0, 1.0
    while _two_sided(high, df) < confidence:
        low, high = high, high * 2
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if _two_sided(middle, df) < confidence else (low, middle)
    return (low + high) / 2


@dataclass(frozen=True)
class Interval:
    """A mean over `n` values and its t interval (None from fewer than two values)."""

    mean: float
    low: float | None
    high: float | None
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Interval:
        """The mean ± t(0.975, n-1) · s / √n of `values` (at least one).

        >>> Interval.of([1, 2, 3, 4, 5]).to_json()
        {'mean': 3.0, 'low': 1.037, 'high': 4.963, 'n': 5}
        """
        mean = statistics.fmean(values)
        if len(values) < 2:
            return cls(mean, None, None, len(values))
        half = t_quantile(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
        return cls(mean, mean - half, mean + half, len(values))

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": _round(self.mean),
            "low": _round(self.low),
            "high": _round(self.high),
            "n": self.n,
        }


@dataclass
class SoloStanding:
    """One bot's row: its margin per deal (keyed by round: a round is one shared deal)."""

    bot: str
    margins: dict[int, int] = field(default_factory=dict)
    wins: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    incidents: int = 0
    crashes: int = 0
    deaths: int = 0
    """As `Standing.deaths`: the crash column shows the larger of crashes and deaths."""
    broken: int = 0
    """Matches in which its seat was retired because its answers kept failing."""
    disqualified: bool = False
    above: str | None = None
    """The bot ranked just above, once ranked."""
    gap: Interval | None = None
    """This bot's margin minus `above`'s, paired over the deals both played."""

    @property
    def matches(self) -> int:
        return len(self.margins)

    @property
    def interval(self) -> Interval | None:
        return Interval.of(list(self.margins.values())) if self.margins else None

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.matches if self.matches else None

    def to_json(self, rank: int) -> dict[str, Any]:
        interval = self.interval
        return {
            "rank": rank,
            "bot": self.bot,
            "matches": self.matches,
            "wins": self.wins,
            "win_rate": _round(self.win_rate),
            "mean_margin": _round(interval.mean) if interval else None,
            "margin_low": _round(interval.low) if interval else None,
            "margin_high": _round(interval.high) if interval else None,
            "vs_above": {"bot": self.above, **self.gap.to_json()} if self.gap else None,
            "latency_mean_ms": _round(statistics.fmean(self.latencies_ms))
            if self.latencies_ms
            else None,
            "incidents": self.incidents,
            "crashes": max(self.crashes, self.deaths),
            "broken": self.broken,
            "disqualified": self.disqualified,
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def solo_standings(
    bots: Sequence[str], plan: Sequence[PlannedMatch], results: dict[str, Result]
) -> list[SoloStanding]:
    """Rows sorted by mean margin (then win rate, then name); bots without a finished
    match last. Each row but the first is compared, deal by deal, with the row above."""
    table = [SoloStanding(bot) for bot in bots]
    for match in plan:
        result = results.get(match.match_id)
        if result is None:
            continue
        row = table[match.seats[0]]
        margin = result.scores[0]
        row.margins[match.round] = margin
        row.wins += won_alone(margin, 0 in result.forfeited)
        row.latencies_ms.extend(answered_latencies(result, 0))
        row.incidents += len(result.incidents)
        row.crashes += sum(i["kind"] == CRASH for i in result.incidents)
        row.disqualified |= any(i["detail"].startswith(DISQUALIFIED) for i in result.incidents)
        row.broken += any(retired_failing(i["detail"]) for i in result.incidents)
    ranked = sorted(table, key=_sort_key)
    for above, row in itertools.pairwise(ranked):
        shared = sorted(set(row.margins) & set(above.margins))
        if shared:
            row.above = above.bot
            row.gap = Interval.of([row.margins[r] - above.margins[r] for r in shared])
    return ranked


def _sort_key(row: SoloStanding) -> tuple:
    interval = row.interval
    if interval is None:
        return (1, 0.0, 0.0, row.bot)
    return (0, -interval.mean, -(row.win_rate or 0.0), row.bot)
