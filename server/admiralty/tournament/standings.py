"""The leaderboard: ratings in plan order plus per-bot totals."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from admiralty.referee.launcher import DISQUALIFIED
from admiralty.tournament.plan import PlannedMatch
from admiralty.tournament.ratings import Rater, Skill
from admiralty.tournament.store import Result


@dataclass
class Standing:
    bot: str
    skill: Skill
    matches: int = 0
    firsts: int = 0
    scores: list[int] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    incidents: int = 0
    disqualified: bool = False
    """The launcher gave up on the bot (it died too often): its later seats were played
    by the policy and placed last."""

    def to_json(self, rank: int) -> dict[str, Any]:
        return {
            "rank": rank, "bot": self.bot, "mu": round(self.skill.mu, 3),
            "sigma": round(self.skill.sigma, 3),
            "conservative": round(self.skill.conservative, 3),
            "matches": self.matches, "firsts": self.firsts,
            "mean_score": round(statistics.fmean(self.scores), 3) if self.scores else None,
            "latency_mean_ms": _round(statistics.fmean(self.latencies_ms))
            if self.latencies_ms else None,
            "latency_p95_ms": _round(percentile(self.latencies_ms, 95))
            if self.latencies_ms else None,
            "incidents": self.incidents,
            "disqualified": self.disqualified,
        }


def _round(value: float) -> float:
    return round(value, 3)


def percentile(values: Sequence[float], pct: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, round(pct / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def standings(bots: Sequence[str], plan: Sequence[PlannedMatch], results: dict[str, Result],
              rater: Rater) -> list[Standing]:
    """Standings sorted by mu - 3 sigma, from the finished matches taken in plan order."""
    table = [Standing(bot, rater.initial()) for bot in bots]
    for match in plan:
        result = results.get(match.match_id)
        if result is None:
            continue
        rows = [table[bot] for bot in match.seats]
        for row, skill in zip(rows, rater.rate([r.skill for r in rows], result.places),
                              strict=True):
            row.skill = skill
        for seat, row in enumerate(rows):
            row.matches += 1
            row.firsts += result.places[seat] == 1
            row.scores.append(result.scores[seat])
            row.latencies_ms.extend(result.latencies[seat])
            mine = [i for i in result.incidents if i["seat"] == seat]
            row.incidents += len(mine)
            row.disqualified |= any(i["detail"].startswith(DISQUALIFIED) for i in mine)
    return sorted(table, key=lambda row: -row.skill.conservative)


def display_names(names: Sequence[str]) -> list[str]:
    """Bot names made unique ("random", "random #2") so the leaderboard can tell them apart."""
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name} #{seen[name]}")
    return unique
