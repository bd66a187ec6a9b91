"""The whole plan of a tournament, derived from one master seed.

**Groups.** For a K-player game every K-subset of the pool plays once a round (a full
round robin), or, with `matches_per_bot`, each round plays groups sampled so that every
bot is in the same number of them (see `sample_groups`).

**Seating.** A group plays K matches a round: the K rotations of one cyclic order, so each
of its bots sits in each seat exactly once per group and round, and the match count is
that of the old sorted rotations. Which cyclic order is chosen per group and round (see
`CyclicSeating`): turn order follows the table, so what a bot's result depends on besides
its seat is who sits right before it and right after it. The orders (among all (K-1)! of
a group's for K <= 7, else 256 drawn from the seed) are chosen so the "sits right after"
pairs are used as evenly as possible over the whole tournament; ties are broken by the
seed. In a full round robin every ordered pair then sits together the ideal number of
matches, or the multiples of K either side of it: measured in
`tests/tournament/test_plan_balance.py`, where the spread is pinned per design.

Deals are `fresh` by default: every match has its own seed, so a bot that remembers what
it saw in one match learns nothing about the hands of the next. `duplicate` deals give
every rotation of a group and round the same seed, so luck of the deal cancels out, but
a bot that remembers its old seat's hand and deck knows its opponent's in the next
rotation: duplicate deals are for evaluating trusted bots only.

A one-seat game (a bot against the game's automated opponent) has no opponents to learn
about, so its deals are always shared: every bot of the pool plays the same seed in a
round, whatever `deals` says, and bots are compared deal by deal (see `solo.py`).

Seeds are 128 bits derived by SHA-256, so no match seed reveals the master seed or any
other match's seed. Seat choices and sampled groups come from a generator seeded the same
way, using only `random.Random.random()`, whose sequence Python keeps stable across
versions. The plan is stored before play and read back on resume, never recomputed.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations, permutations
from operator import itemgetter

MAX_MATCHES = 100_000
"""The most matches a plan may hold; a larger field samples groups (`matches_per_bot`)."""

ALL_ORDERS_UP_TO = 7
"""Up to this many seats every cyclic order of a group is a candidate ((K-1)! <= 720)."""

SAMPLED_ORDERS = 256
"""For more seats, the candidates of a group: this many orders drawn from the seed."""


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


def plan_matches(
    name: str,
    pool_size: int,
    players: int,
    rounds: int,
    seed: int,
    deals: Deals = Deals.FRESH,
    matches_per_bot: int | None = None,
) -> list[PlannedMatch]:
    """Every match of the tournament, in the order ratings are computed; ValueError, one
    line saying what would work, if no such plan exists."""
    check_design(pool_size, players, rounds, matches_per_bot)
    rng = random.Random(derive_seed(seed, "seating"))
    seating = CyclicSeating(rng)
    plan: list[PlannedMatch] = []
    for round_ in range(rounds):
        if players == 1:
            groups: list[tuple[int, ...]] = [(bot,) for bot in range(pool_size)]
        elif matches_per_bot is None:
            groups = list(combinations(range(pool_size), players))
        else:
            groups = sample_groups(
                pool_size, players, matches_per_bot // players, rng, seating.meetings
            )
        if players == 1:
            orders = groups
        else:  # in a full round robin every ordered pair can sit together equally often
            cap = (
                None
                if matches_per_bot
                else -(-players * len(groups) * (round_ + 1) // (pool_size * (pool_size - 1)))
                * players
            )
            orders = seating.seat_round(groups, cap)
        for group_index, order in enumerate(orders):
            for shift in range(players):
                path = _seed_path(players, deals, round_, group_index, shift)
                seats = order[shift:] + order[:shift]
                match_id = f"{name}-r{round_ + 1}-g{group_index + 1}-s{shift + 1}"
                plan.append(
                    PlannedMatch(match_id, len(plan), round_ + 1, derive_seed(seed, *path), seats)
                )
    return plan


def check_design(pool_size: int, players: int, rounds: int, matches_per_bot: int | None) -> None:
    """ValueError, one line saying what would work, unless the plan can be made."""
    if players < 1:
        raise ValueError("a match needs at least one seat: use --players 1 or more")
    if players > pool_size:
        raise ValueError(
            f"cannot seat {players} players from a pool of {pool_size} bots; "
            f"add {players - pool_size} --bot or use --players {pool_size}"
        )
    if rounds < 1:
        raise ValueError("a tournament needs at least one round: use --rounds 1 or more")
    if matches_per_bot is None:
        per_round = math.comb(pool_size, players) * (players if players > 1 else 1)
        if per_round * rounds > MAX_MATCHES:
            hint = valid_matches_per_bot(pool_size, players, 0)
            raise ValueError(
                f"a round of every {players}-bot group of {pool_size} bots is {per_round} "
                f"matches, {per_round * rounds} in {rounds} round(s), more than "
                f"{MAX_MATCHES}; sample groups with --matches-per-bot (e.g. {hint[0]})"
                if players > 1
                else f"{per_round * rounds} matches is more than {MAX_MATCHES}; use fewer --rounds"
            )
        return
    if players == 1:
        raise ValueError(
            "--matches-per-bot samples groups of several seats; a one-seat "
            "round is one deal for every bot: use --rounds instead"
        )
    if (
        matches_per_bot < 1
        or matches_per_bot % players
        or (matches_per_bot * pool_size) % (players * players)
    ):
        below, above = _nearest_valid(pool_size, players, matches_per_bot)
        tries = " or ".join(str(n) for n in (below, above) if n)
        raise ValueError(
            f"--matches-per-bot {matches_per_bot} with {pool_size} bots and {players} "
            f"seats cannot give every bot the same count (each group plays its {players} "
            f"seat rotations, so it must be a multiple of {players} and times {pool_size} a "
            f"multiple of {players * players}); try {tries}"
        )
    total = matches_per_bot * pool_size // players * rounds
    if total > MAX_MATCHES:
        raise ValueError(
            f"{matches_per_bot} matches per bot for {pool_size} bots over "
            f"{rounds} round(s) is {total} matches, more than {MAX_MATCHES}; "
            "use a smaller --matches-per-bot or fewer --rounds"
        )


def valid_matches_per_bot(pool_size: int, players: int, up_to: int) -> list[int]:
    """The values of `matches_per_bot` that give every bot the same count, up to `up_to`
    (and at least the first one, however large)."""
    step = players * players // math.gcd(players * players, players * pool_size) * players
    return list(range(step, max(up_to, step) + 1, step))


def _nearest_valid(pool_size: int, players: int, wanted: int) -> tuple[int | None, int]:
    valid = valid_matches_per_bot(pool_size, players, max(wanted, 1))
    below = [n for n in valid if n < wanted]
    step = valid[0]
    above = (max(wanted, 0) // step + 1) * step
    return (below[-1] if below else None), above


class CyclicSeating:
    """Chooses each group's cyclic order so the neighbour pairs are used evenly.

    `after[(a, b)]` counts the matches in which b sat right after a (seat s + 1 mod K);
    `meetings[{a, b}]` the groups in which a and b played together. A group's K rotations
    all have the same neighbour pairs, so choosing the order picks K of them K times each.
    A round is seated greedily, group by group, each taking the order whose pairs were used
    least (ties broken by the seed); then, in sweeps over the round, each group in turn
    takes its order back and chooses again against all the others (an equal choice may
    replace it, so the search walks across plateaus), and the round keeps the sweep whose
    counts have the smallest sum of squares, i.e. are the most even. The sweeps are bounded
    (REFINE_SWEEPS, REFINE_WORK), so a big round is planned in about a second.
    """

    REFINE_WORK = 400_000
    """How many pair counts the sweeps of one round may look at: a bound on the time."""
    REFINE_SWEEPS = 64
    EXACT_GROUPS = 400
    EXACT_NODES = 200_000

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.after: Counter[tuple[int, int]] = Counter()
        self.meetings: Counter[frozenset[int]] = Counter()

    def seat_round(
        self, groups: Sequence[tuple[int, ...]], cap: int | None = None
    ) -> list[tuple[int, ...]]:
        """One cyclic order per group, counted into `after` and `meetings`. With `cap`, the
        most matches any ordered pair should sit together after this round: if the sweeps
        leave a pair above it, a bounded exact search (EXACT_NODES) looks for orders that
        keep every pair within it."""
        candidates = [self._candidates(group) for group in groups]
        orders = []
        for options in candidates:
            orders.append(self._best(options))
            self._count(orders[-1], +1)
        best_orders, best_score = list(orders), self._score()
        for _ in range(self._sweeps(candidates)):
            for i, options in enumerate(candidates):
                self._count(orders[i], -1)
                orders[i] = self._best(options)
                self._count(orders[i], +1)
            if (score := self._score()) < best_score:
                best_orders, best_score = list(orders), score
        for current, best in zip(orders, best_orders, strict=True):
            self._count(current, -1)
            self._count(best, +1)
        orders = best_orders
        if cap is not None and max(self.after.values()) > cap:
            for order in orders:
                self._count(order, -1)
            exact = self._exact(candidates, cap)
            orders = exact if exact is not None else orders
            for order in orders:
                self._count(order, +1)
        for order in orders:
            for pair in combinations(order, 2):
                self.meetings[frozenset(pair)] += 1
        return orders

    def _exact(
        self, candidates: Sequence[Sequence[tuple[int, ...]]], cap: int
    ) -> list[tuple[int, ...]] | None:
        """Orders for every group keeping each pair's count within `cap`, by depth-first
        search over the groups (least-used orders first), or None once EXACT_NODES orders
        were tried. Leaves `after` as it found it."""
        if len(candidates) > self.EXACT_GROUPS or len(candidates[0][0]) > ALL_ORDERS_UP_TO:
            return None
        tried = [0]
        chosen: list[tuple[int, ...]] = []

        def search(i: int) -> bool:
            if i == len(candidates):
                return True
            costed = sorted(
                ((self._cost(order), order) for order in candidates[i]), key=itemgetter(0)
            )
            for (_, most), order in costed:
                tried[0] += 1
                if tried[0] > self.EXACT_NODES:
                    return False
                if most + len(order) > cap:
                    continue
                self._count(order, +1)
                chosen.append(order)
                if search(i + 1):
                    self._count(order, -1)  # the caller counts the result
                    return True
                chosen.pop()
                self._count(order, -1)
            return False

        return chosen if search(0) else None

    def _sweeps(self, candidates: Sequence[Sequence[tuple[int, ...]]]) -> int:
        work = sum(len(options) * len(options[0]) for options in candidates)
        return min(self.REFINE_SWEEPS, self.REFINE_WORK // max(work, 1))

    def _score(self) -> int:
        return sum(count * count for count in self.after.values())

    def _best(self, options: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
        return min(options, key=lambda order: (self._cost(order), self.rng.random()))

    def _count(self, order: tuple[int, ...], sign: int) -> None:
        k = len(order)
        for i in range(k):
            self.after[order[i], order[(i + 1) % k]] += sign * k

    def _cost(self, order: tuple[int, ...]) -> tuple[int, int]:
        """Sum of the pairs' counts (so the sum of squares grows least), then the largest."""
        counts = [self.after[pair] for pair in zip(order, order[1:] + order[:1], strict=True)]
        return sum(counts), max(counts)

    def _candidates(self, group: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Every cyclic order of the group (its first bot in seat 1) for up to
        ALL_ORDERS_UP_TO seats; for more, SAMPLED_ORDERS drawn from the seed."""
        first, rest = group[0], group[1:]
        if len(group) <= ALL_ORDERS_UP_TO:
            return [(first, *p) for p in permutations(rest)]
        return [(first, *_shuffled(rest, self.rng)) for _ in range(SAMPLED_ORDERS)]


def sample_groups(
    pool_size: int,
    players: int,
    groups_per_bot: int,
    rng: random.Random,
    meetings: Counter[frozenset[int]],
) -> list[tuple[int, ...]]:
    """One round's groups: every bot in exactly `groups_per_bot` of them, each group's bots
    chosen among those that met least (in `meetings`, over the tournament so far).

    Groups are formed one at a time: the bots whose remaining count equals the groups still
    to form must play in the next one; choosing them first keeps every remaining count at
    most the groups left, which (with the sum a multiple of `players`) means a full group
    can always be formed. Then bots are swapped between groups while that makes the
    meetings more even. Of SAMPLE_TRIES such rounds (the random tie-breaks differ) the most
    even is kept."""
    tries = [
        _sampled_round(pool_size, players, groups_per_bot, rng, meetings)
        for _ in range(SAMPLE_TRIES)
    ]
    groups, _ = min(tries, key=lambda tried: tried[1])
    return [tuple(sorted(group)) for group in groups]


SAMPLE_TRIES = 4
"""Rounds of groups drawn (each then evened out by swaps); the most even one is kept."""


def _sampled_round(
    pool_size: int,
    players: int,
    groups_per_bot: int,
    rng: random.Random,
    meetings: Counter[frozenset[int]],
) -> tuple[list[list[int]], int]:
    """One try of `sample_groups`, with the sum of squares of the meeting counts after it."""
    left = [groups_per_bot] * pool_size
    total = groups_per_bot * pool_size // players
    met = Counter(meetings)
    groups = []
    for remaining in range(total, 0, -1):
        group = [b for b in range(pool_size) if left[b] == remaining]
        while len(group) < players:
            free = [b for b in range(pool_size) if left[b] > 0 and b not in group]
            group.append(
                min(
                    free,
                    key=lambda b: (
                        sum(met[frozenset((b, g))] for g in group),
                        -left[b],
                        rng.random(),
                    ),
                )
            )
        for pair in combinations(group, 2):
            met[frozenset(pair)] += 1
        for b in group:
            left[b] -= 1
        groups.append(group)
    _even_out(groups, met)
    return groups, sum(count * count for count in met.values())


SWAP_WORK = 2_000_000
"""How many bot swaps `_even_out` may try in one round: a bound on the time."""


def _even_out(groups: list[list[int]], met: Counter[frozenset[int]]) -> None:
    """Swap bots between the round's groups while that lowers the sum of squares of the
    meeting counts (every bot keeps its number of groups), until no swap helps."""
    budget = SWAP_WORK
    improved = True
    while improved and budget > 0:
        improved = False
        for a, b in combinations(range(len(groups)), 2):
            for x in list(groups[a]):
                for y in list(groups[b]):
                    budget -= 1
                    if x in groups[b] or y in groups[a] or x not in groups[a]:
                        continue
                    if _swap(groups, met, a, b, x, y) < 0:
                        improved = True
                    else:
                        _swap(groups, met, a, b, y, x)


def _swap(
    groups: list[list[int]], met: Counter[frozenset[int]], a: int, b: int, x: int, y: int
) -> int:
    """Move x from group a to b and y from b to a; the change in the sum of squares."""
    delta = 0
    for group, out, into in ((groups[a], x, y), (groups[b], y, x)):
        for other in group:
            if other != out:
                delta += _bump(met, frozenset((out, other)), -1)
                delta += _bump(met, frozenset((into, other)), +1)
        group[group.index(out)] = into
    return delta


def _bump(met: Counter[frozenset[int]], pair: frozenset[int], by: int) -> int:
    before = met[pair]
    met[pair] = before + by
    return (before + by) ** 2 - before**2


def _shuffled(items: Sequence[int], rng: random.Random) -> list[int]:
    """Fisher-Yates with `random()` only, so the plan does not depend on the Python version."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def _seed_path(players: int, deals: Deals, round_: int, group: int, shift: int) -> tuple[int, ...]:
    """What a match's seed is derived from: one seat shares the round's deal among all bots;
    duplicate deals share it among a group's rotations; fresh deals share it with nothing."""
    if players == 1:
        return (round_,)
    return (round_, group) if deals == Deals.DUPLICATE else (round_, group, shift)
