"""The leaderboard: ratings in plan order plus per-bot totals, kept up to date one result at
a time.

`LiveStandings` holds each bot's rating and totals. A result is added as it arrives: its
totals (games, firsts, scores, latencies, incidents) count at once, and its rating update
is applied when every match before it in the plan has been rated, so results arriving out
of plan order (parallel play) are buffered and the ratings are always those of the plan
prefix, bit for bit those of a recomputation from scratch. Adding a result costs one
rating update per result however many results came before (`updates` counts them).

Honest columns: a seat's crashes, disqualification and retirement for answers that kept
failing (hung or broken) are counted apart from its score (such a seat is played by the
failure policy, whose default moves can place well), and
the latency figures are over the decisions the bot answered: a failed call (a crash, a
timeout, an illegal answer) is an incident, not a latency.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from admiralty.referee.launcher import DISQUALIFIED
from admiralty.referee.match import retired_failing
from admiralty.tournament.plan import PlannedMatch
from admiralty.tournament.ratings import Rater, Skill
from admiralty.tournament.store import Result

CRASH = "crash"
"""The incident kind of a bot whose process died or whose connection broke during a call."""


@dataclass
class Standing:
    bot: str
    skill: Skill
    matches: int = 0
    firsts: int = 0
    scores: list[int] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    """Answered decisions only: failed calls are incidents. Sorted in place when shown, so
    the next showing sorts a sorted run plus the few values added since (Timsort: linear)."""
    latency_sum_us: int = 0
    """Their exact sum in whole microseconds (the store keeps 3 decimals of a ms), so the
    mean costs nothing and does not depend on the order results arrived in."""
    incidents: int = 0
    crashes: int = 0
    """Incidents of kind crash: the bot's process died or its connection broke mid-call."""
    deaths: int = 0
    """Times its launched processes died, in a call or between matches (the store's count):
    the crash column shows the larger of the two, so no death goes uncounted."""
    disqualified: bool = False
    """The launcher gave up on the bot (it died too often): its later seats were played
    by the policy and placed last."""
    broken: int = 0
    """Matches in which the referee retired its seat because its answers kept failing
    (hung or broken, `referee.match`): played by the policy from then on, placed last."""
    rated: int = 0
    """Matches whose rating update has been applied (behind `matches` while results that
    arrived out of plan order wait for the matches planned before them)."""

    def to_json(self, rank: int) -> dict[str, Any]:
        return {
            "rank": rank,
            "bot": self.bot,
            "mu": round(self.skill.mu, 3),
            "sigma": round(self.skill.sigma, 3),
            "conservative": round(self.skill.conservative, 3),
            "matches": self.matches,
            "firsts": self.firsts,
            "mean_score": round(statistics.fmean(self.scores), 3) if self.scores else None,
            "latency_mean_ms": _round(self.latency_sum_us / 1000 / len(self.latencies_ms))
            if self.latencies_ms
            else None,
            "latency_p95_ms": _round(self._p95()) if self.latencies_ms else None,
            "answered": len(self.latencies_ms),
            "incidents": self.incidents,
            "crashes": max(self.crashes, self.deaths),
            "broken": self.broken,
            "disqualified": self.disqualified,
        }

    def _p95(self) -> float:
        self.latencies_ms.sort()
        return nearest_rank(self.latencies_ms, 95)


def _round(value: float) -> float:
    return round(value, 3)


def percentile(values: Sequence[float], pct: int) -> float:
    """The nearest-rank percentile: the ⌈pct/100 · n⌉-th smallest of n values (n ≥ 1).

    Computed in whole numbers, so 0.95 · 10 = 9.5 gives the 10th smallest, not the 9th.

    >>> percentile(list(range(1, 11)), 95), percentile(list(range(1, 21)), 95)
    (10, 19)
    """
    return nearest_rank(sorted(values), pct)


def nearest_rank(ordered: Sequence[float], pct: int) -> float:
    """`percentile` of values already sorted."""
    rank = max(1, -(-pct * len(ordered) // 100))
    return ordered[min(rank, len(ordered)) - 1]


def answered_latencies(result: Result, seat: int) -> list[float]:
    """A seat's latencies without those of its failed calls.

    The referee numbers a seat's calls 1, 2, ... (the request id) and records a latency for
    each call it made, in that order; an incident names the request id of the failed call."""
    failed = {
        int(i["request_id"])
        for i in result.incidents
        if i["seat"] == seat and str(i["request_id"]).isdigit()
    }
    if not failed:
        return result.latencies[seat]
    return [ms for call, ms in enumerate(result.latencies[seat], start=1) if call not in failed]


class LiveStandings:
    """Standings updated one result at a time; see the module's docstring."""

    def __init__(self, bots: Sequence[str], plan: Sequence[PlannedMatch], rater: Rater):
        self.rater = rater
        self.table = [Standing(bot, rater.initial()) for bot in bots]
        self.plan = list(plan)
        self._ordinal = {match.match_id: k for k, match in enumerate(self.plan)}
        self._waiting: dict[int, Result] = {}
        self._next = 0
        self.updates = 0
        """Calls of the rater so far: one per result rated."""
        self.history: list[list[tuple[int, Skill]]] = [[] for _ in bots]
        """Per bot, (games rated, skill after it) after each of its rated matches."""

    def add(self, result: Result) -> None:
        """Count one finished match; rate it and any buffered ones it lets through."""
        ordinal = self._ordinal[result.match_id]
        if ordinal < self._next or ordinal in self._waiting:
            raise ValueError(f"match {result.match_id} was added twice")
        match = self.plan[ordinal]
        for seat, bot in enumerate(match.seats):
            row = self.table[bot]
            row.matches += 1
            row.firsts += result.places[seat] == 1
            row.scores.append(result.scores[seat])
            answered = answered_latencies(result, seat)
            row.latencies_ms.extend(answered)
            row.latency_sum_us += sum(round(ms * 1000) for ms in answered)
            mine = [i for i in result.incidents if i["seat"] == seat]
            row.incidents += len(mine)
            row.crashes += sum(i["kind"] == CRASH for i in mine)
            row.disqualified |= any(i["detail"].startswith(DISQUALIFIED) for i in mine)
            row.broken += any(retired_failing(i["detail"]) for i in mine)
        self._waiting[ordinal] = result
        while self._next in self._waiting:
            self._rate(self.plan[self._next], self._waiting.pop(self._next))
            self._next += 1

    def extend(self, matches: Sequence[PlannedMatch]) -> None:
        """Plan `matches` after the plan so far (an adaptive tournament's next block)."""
        for match in matches:
            self._ordinal[match.match_id] = len(self.plan)
            self.plan.append(match)

    def add_all(self, results: Iterable[Result]) -> None:
        for result in results:
            self.add(result)

    def _rate(self, match: PlannedMatch, result: Result) -> None:
        rows = [self.table[bot] for bot in match.seats]
        skills = self.rater.rate([row.skill for row in rows], result.places)
        self.updates += 1
        for bot, row, skill in zip(match.seats, rows, skills, strict=True):
            row.skill = skill
            row.rated += 1
            self.history[bot].append((row.rated, skill))

    @property
    def pending(self) -> int:
        """Results counted but not yet rated: they wait for a match planned earlier."""
        return len(self._waiting)

    def rows(self, by_mu: bool = False) -> list[Standing]:
        """The standings sorted by mu - 3 sigma, or with `by_mu` by mu: the order an
        adaptive schedule's stop rule certifies (adaptive.py). Ties: the order of the bots."""
        if by_mu:
            return sorted(self.table, key=lambda row: -row.skill.mu)
        return sorted(self.table, key=lambda row: -row.skill.conservative)


def standings(
    bots: Sequence[str], plan: Sequence[PlannedMatch], results: dict[str, Result], rater: Rater
) -> list[Standing]:
    """Standings sorted by mu - 3 sigma, from the finished matches taken in plan order."""
    return live_standings(bots, plan, results, rater).rows()


def live_standings(
    bots: Sequence[str], plan: Sequence[PlannedMatch], results: dict[str, Result], rater: Rater
) -> LiveStandings:
    """LiveStandings holding `results`, added in plan order."""
    live = LiveStandings(bots, plan, rater)
    live.add_all(results[m.match_id] for m in plan if m.match_id in results)
    return live


def match_rows(
    bots: Sequence[str], plan: Sequence[PlannedMatch], results: dict[str, Result]
) -> list[dict[str, Any]]:
    """Every planned match in plan order: its seats (bot, place, score, forfeited, the kinds
    of its incidents), or played false if it has no result yet."""
    rows = []
    for match in plan:
        result = results.get(match.match_id)
        row: dict[str, Any] = {
            "match_id": match.match_id,
            "round": match.round,
            "played": result is not None,
        }
        seats = []
        for seat, bot in enumerate(match.seats):
            entry: dict[str, Any] = {"seat": seat + 1, "bot": bots[bot]}
            if result is not None:
                entry |= {
                    "place": result.places[seat],
                    "score": result.scores[seat],
                    "forfeited": seat in result.forfeited,
                    "incidents": [i["kind"] for i in result.incidents if i["seat"] == seat],
                }
            seats.append(entry)
        row["seats"] = seats
        if result is not None:
            row |= {"steps": result.steps, "record": result.record}
        rows.append(row)
    return rows


def head_to_head(
    bots: Sequence[str], plan: Sequence[PlannedMatch], results: dict[str, Result]
) -> dict[str, Any]:
    """For every pair of bots, over the matches both played: `games[a][b]` how many, and
    `wins[a][b]` those in which a was placed above b (a shared place is neither's win)."""
    n = len(bots)
    wins = [[0] * n for _ in range(n)]
    games = [[0] * n for _ in range(n)]
    for match in plan:
        result = results.get(match.match_id)
        if result is None:
            continue
        for i, a in enumerate(match.seats):
            for j, b in enumerate(match.seats):
                if a != b:
                    games[a][b] += 1
                    wins[a][b] += result.places[i] < result.places[j]
    return {"bots": list(bots), "wins": wins, "games": games}


def seat_win_rates(
    players: int, plan: Sequence[PlannedMatch], results: dict[str, Result]
) -> list[dict[str, Any]]:
    """Per seat position (1 = first to play): games, wins and the win share. A first place
    shared by k seats is 1/k of a win to each, so the shares of a full table add up to 1
    and a seat order that favours nobody gives every seat 1/players."""
    games = [0] * players
    wins = [0.0] * players
    for match in plan:
        result = results.get(match.match_id)
        if result is None:
            continue
        firsts = result.places.count(1)
        for seat, place in enumerate(result.places):
            games[seat] += 1
            wins[seat] += 1 / firsts if place == 1 else 0.0
    return [
        {
            "seat": seat + 1,
            "games": games[seat],
            "wins": round(wins[seat], 3),
            "win_share": round(wins[seat] / games[seat], 3) if games[seat] else None,
            "fair_share": round(1 / players, 3),
        }
        for seat in range(players)
    ]


def rating_history(live: LiveStandings) -> list[dict[str, Any]]:
    """Per bot, its rating after 0, 1, 2, ... rated games: mu and sigma (the band a plot
    draws is mu ± 3 sigma)."""
    initial = live.rater.initial()
    return [
        {
            "bot": row.bot,
            "points": [
                {"games": games, "mu": round(skill.mu, 3), "sigma": round(skill.sigma, 3)}
                for games, skill in [(0, initial), *live.history[index]]
            ],
        }
        for index, row in enumerate(live.table)
    ]
