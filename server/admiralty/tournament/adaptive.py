"""Adaptive scheduling: after a balanced first block, play where the ranking is least sure.

A tournament run with `--schedule adaptive` stores and plays its first block, the
balanced plan of `plan.py` (its `--rounds` rounds, every group or `--matches-per-bot`
sampled). Then, block after block, once every match stored so far has a result:

1. the results are rated in plan order, as the leaderboard rates them, and the bots are
   ordered by mu;
2. for every pair of bots next to each other in that order among the top k (`--top`,
   default all; with k below the pool, also the k-th against the (k+1)-th, so the top k
   are known to be the top k), the confidence that they are in the right order is
   P(skill_i > skill_j) = Phi((mu_i - mu_j) / sqrt(sigma_i^2 + sigma_j^2)), from the
   rating posteriors;
3. the stop rule: play ends when every such pair's confidence is at least `--confidence`
   (default 0.9), or when the next group would take the stored plan beyond
   `--max-matches`;
4. otherwise the next block is chosen: up to pool // seats groups, each a window of
   `seats` bots next to each other in the order by mu (so each match compares seats - 1
   neighbouring pairs, and its bots are close: a high TrueSkill match quality). The
   window whose neighbouring pairs have the most doubt (the sum of 1 - confidence) comes
   first; the doubt of its pairs is then halved, and the next window chosen the same way
   (it may share bots with the first). Pairs already certain add nothing, so their bots
   play only as part of a window around a doubtful pair; ties are broken by the seed;
5. each group is seated as `plan.py` seats a group of a round (`CyclicSeating`, its
   counts of who sat after whom taken from every match stored so far), in its seat
   rotations, with seeds derived from the master seed, the block and the group.

A block is derived only from the master seed and the stored results of the blocks before
it, and it is stored before any of it is played; a resumed run plays what is stored and
derives only the blocks after it, so it plays exactly what an uninterrupted run plays.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from admiralty.tournament.plan import (
    MAX_MATCHES,
    CyclicSeating,
    Deals,
    PlannedMatch,
    _seed_path,
    derive_seed,
)
from admiralty.tournament.ratings import Skill

BUDGET_BLOCKS = 10
"""Without --max-matches, an adaptive tournament plays at most this many times the
matches of its first block (and never more than MAX_MATCHES)."""


class Schedule(StrEnum):
    FULL = "full"
    ADAPTIVE = "adaptive"


@dataclass(frozen=True)
class Adaptive:
    """The stop rule of an adaptive tournament."""

    confidence: float = 0.9
    top: int | None = None
    """The k whose order must be known; None: every bot of the pool."""
    max_matches: int = MAX_MATCHES


@dataclass(frozen=True)
class Pair:
    """Two bots next to each other in the order by mu, and P(upper's skill > lower's)."""

    upper: int
    lower: int
    confidence: float


def check_adaptive(
    pool_size: int,
    players: int,
    first_block: int,
    confidence: float,
    top: int | None,
    max_matches: int | None,
) -> int:
    """ValueError, one line saying what would work, unless an adaptive schedule can be run;
    else the match budget (`max_matches`, or its default)."""
    if players == 1:
        raise ValueError(
            "--schedule adaptive places seats against each other; a one-seat "
            "tournament ranks by mean margin over shared deals instead: use "
            "--schedule full"
        )
    if pool_size <= players:
        raise ValueError(
            f"--schedule adaptive chooses groups of {players} among more bots: "
            f"{pool_size} bots make only one group; add a --bot or use "
            "--schedule full"
        )
    if not 0.5 < confidence < 1:
        raise ValueError("--confidence is a probability above 0.5 and below 1, e.g. 0.9")
    if top is not None and not 1 <= top <= pool_size:
        raise ValueError(
            f"--top is how many of the {pool_size} bots must be ordered: 1 to {pool_size}"
        )
    budget = min(MAX_MATCHES, BUDGET_BLOCKS * first_block) if max_matches is None else max_matches
    if budget < first_block:
        raise ValueError(
            f"--max-matches {budget} is fewer than the {first_block} matches "
            f"of the first (balanced) block; use --max-matches {first_block} "
            "or more"
        )
    if budget > MAX_MATCHES:
        raise ValueError(f"--max-matches may be at most {MAX_MATCHES}")
    return budget


def normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def neighbour_pairs(skills: Sequence[Skill], top: int | None = None) -> list[Pair]:
    """The pairs next to each other in the order by mu (ties: pool order) whose order
    decides the top `top`, with P(upper's skill > lower's) from the posteriors."""
    order = sorted(range(len(skills)), key=lambda bot: (-skills[bot].mu, bot))
    k = len(skills) if top is None else top
    pairs = []
    for rank in range(min(k, len(skills) - 1)):
        upper, lower = skills[order[rank]], skills[order[rank + 1]]
        spread = math.sqrt(upper.sigma**2 + lower.sigma**2)
        pairs.append(Pair(order[rank], order[rank + 1], normal_cdf((upper.mu - lower.mu) / spread)))
    return pairs


def stop_reason(skills: Sequence[Skill], planned: int, players: int, rule: Adaptive) -> str | None:
    """Why an adaptive tournament has ended, in words, or None if it goes on."""
    pairs = neighbour_pairs(skills, rule.top)
    if all(pair.confidence >= rule.confidence for pair in pairs):
        lowest = min(pair.confidence for pair in pairs)
        return (
            f"confidence: every neighbouring pair of the top {rule.top or len(skills)} "
            f"is ordered with P >= {rule.confidence} (lowest {lowest:.3f})"
        )
    if planned + players > rule.max_matches:
        return f"budget: {planned} of --max-matches {rule.max_matches} planned"
    return None


def choose_groups(
    skills: Sequence[Skill], players: int, rule: Adaptive, rng: random.Random, groups: int
) -> list[tuple[int, ...]]:
    """Up to `groups` windows of `players` bots next to each other in the order by mu,
    each the one whose neighbouring pairs are least certain (see above)."""
    order = sorted(range(len(skills)), key=lambda bot: (-skills[bot].mu, bot))
    doubt = [0.0] * (len(skills) - 1)
    """Per rank r, 1 - the confidence of the pair at ranks r, r + 1 (0 beyond the top)."""
    for rank, pair in enumerate(neighbour_pairs(skills, rule.top)):
        doubt[rank] = 1 - pair.confidence
    ties = [rng.random() for _ in range(len(skills) - players + 1)]
    chosen = []
    for _ in range(groups):
        start = max(range(len(ties)), key=lambda s: (sum(doubt[s : s + players - 1]), ties[s]))
        if sum(doubt[start : start + players - 1]) <= 0:
            break
        for rank in range(start, start + players - 1):
            doubt[rank] /= 2  # this block informs these pairs already
        chosen.append(tuple(sorted(order[start : start + players])))
    return chosen


def next_block(
    name: str,
    seed: int,
    deals: Deals,
    players: int,
    plan: Sequence[PlannedMatch],
    skills: Sequence[Skill],
    rule: Adaptive,
) -> list[PlannedMatch]:
    """The block after the stored `plan`, whose results gave `skills` (rated in plan
    order); [] once the stop rule says stop."""
    if stop_reason(skills, len(plan), players, rule) is not None:
        return []
    block = max(match.round for match in plan) + 1
    rng = random.Random(derive_seed(seed, "adaptive", block))
    room = (rule.max_matches - len(plan)) // players
    groups = choose_groups(skills, players, rule, rng, min(room, max(1, len(skills) // players)))
    seating = CyclicSeating(rng)
    for match in plan:  # every match so far: who sat right after whom
        for seat, bot in enumerate(match.seats):
            seating.after[bot, match.seats[(seat + 1) % players]] += 1
    out: list[PlannedMatch] = []
    for group_index, order in enumerate(seating.seat_round(groups)):
        for shift in range(players):
            path = _seed_path(players, deals, block - 1, group_index, shift)
            out.append(
                PlannedMatch(
                    f"{name}-a{block}-g{group_index + 1}-s{shift + 1}",
                    len(plan) + len(out),
                    block,
                    derive_seed(seed, "adaptive", *path),
                    order[shift:] + order[:shift],
                )
            )
    return out


def rule_of(settings: Mapping[str, object]) -> Adaptive | None:
    """The stop rule a tournament's stored settings hold, None for a full schedule (also
    for a tournament stored before schedules existed)."""
    if settings.get("schedule", Schedule.FULL.value) != Schedule.ADAPTIVE.value:
        return None
    top = settings.get("top")
    return Adaptive(
        float(settings["confidence"]),  # type: ignore[arg-type]
        None if top is None else int(top),  # type: ignore[call-overload]
        int(settings["max_matches"]),  # type: ignore[call-overload]
    )
