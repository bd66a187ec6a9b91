"""The whole plan of a round-robin tournament, derived from one master seed.

For a K-player game every K-subset of the pool plays. Within a subset the seats rotate
cyclically, so each bot sits in each seat exactly once per subset and round.

Deals are `fresh` by default: every match has its own seed, so a bot that remembers what
it saw in one match learns nothing about the hands of the next. `duplicate` deals give
every rotation of a subset and round the same seed, so luck of the deal cancels out, but
a bot that remembers its old seat's hand and deck knows its opponent's in the next
rotation: duplicate deals are for evaluating trusted bots only.

A one-seat game (a bot against the game's automated opponent) has no opponents to learn
about, so its deals are always shared: every bot of the pool plays the same seed in a
round, whatever `deals` says, and bots are compared deal by deal (see `solo.py`).

Seeds are 128 bits derived by SHA-256, so no match seed reveals the master seed or any
other match's seed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations


class Deals(StrEnum):
    FRESH = "fresh"
    DUPLICATE = "duplicate"


@dataclass(frozen=True)
class PlannedMatch:
    """One match of the plan: its id, order, the deal seed and the bot (pool index) per seat."""

    match_id: str
    ordinal: int
    round: int
    seed: int
    seats: tuple[int, ...]


def derive_seed(master: int, *parts: object) -> int:
    """A 128-bit seed from the master seed and a path of labels, stable across runs."""
    text = ":".join(str(p) for p in (master, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "big")


def plan_matches(name: str, pool_size: int, players: int, rounds: int, seed: int,
                 deals: Deals = Deals.FRESH) -> list[PlannedMatch]:
    """Every match of the tournament, in the order ratings are computed."""
    if not 1 <= players <= pool_size:
        raise ValueError(f"cannot seat {players} players from a pool of {pool_size} bots")
    if rounds < 1:
        raise ValueError("a tournament needs at least one round")
    plan = []
    for round_ in range(rounds):
        for group_index, group in enumerate(combinations(range(pool_size), players)):
            for shift in range(players):
                path = _seed_path(players, deals, round_, group_index, shift)
                seats = group[shift:] + group[:shift]
                match_id = f"{name}-r{round_ + 1}-g{group_index + 1}-s{shift + 1}"
                plan.append(PlannedMatch(match_id, len(plan), round_ + 1,
                                         derive_seed(seed, *path), seats))
    return plan


def _seed_path(players: int, deals: Deals, round_: int, group: int, shift: int
               ) -> tuple[int, ...]:
    """What a match's seed is derived from: one seat shares the round's deal among all bots;
    duplicate deals share it among a group's rotations; fresh deals share it with nothing."""
    if players == 1:
        return (round_,)
    return (round_, group) if deals == Deals.DUPLICATE else (round_, group, shift)
