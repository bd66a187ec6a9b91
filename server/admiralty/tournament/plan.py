"""The whole plan of a round-robin tournament, derived from one master seed.

For a K-player game every K-subset of the pool plays. Within a subset the seats rotate
cyclically, so each bot sits in each seat exactly once per subset and round, and every
rotation replays the same deal seed (the duplicate format: luck of the deal cancels out).
Each round draws fresh seeds.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True)
class PlannedMatch:
    """One match of the plan: its id, order, the deal seed and the bot (pool index) per seat."""

    match_id: str
    ordinal: int
    round: int
    seed: int
    seats: tuple[int, ...]


def derive_seed(master: int, *parts: object) -> int:
    """A 63-bit seed from the master seed and a path of labels, stable across runs."""
    text = ":".join(str(p) for p in (master, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def plan_matches(name: str, pool_size: int, players: int, rounds: int, seed: int
                 ) -> list[PlannedMatch]:
    """Every match of the tournament, in the order ratings are computed."""
    if not 1 <= players <= pool_size:
        raise ValueError(f"cannot seat {players} players from a pool of {pool_size} bots")
    if rounds < 1:
        raise ValueError("a tournament needs at least one round")
    plan = []
    for round_ in range(rounds):
        for group_index, group in enumerate(combinations(range(pool_size), players)):
            deal = derive_seed(seed, round_, group_index)
            for shift in range(players):
                seats = group[shift:] + group[:shift]
                match_id = f"{name}-r{round_ + 1}-g{group_index + 1}-s{shift + 1}"
                plan.append(PlannedMatch(match_id, len(plan), round_ + 1, deal, seats))
    return plan
