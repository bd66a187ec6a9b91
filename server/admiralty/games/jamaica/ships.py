"""Ships and their holds: the loading rules [jamaica §6.1], paying [jamaica §6.3] and
spending tokens. Pieces and arithmetic only: nothing here asks anything.

A hold is a (kind, count) pair kept in two parallel lists, `kinds` and `counts`; an empty
hold has kind None and count 0. Holds 0-4 are the hold board; the hold after them, when
present, is the 6th Hold card, which moves with its contents when the card changes hands.
The holds of the board are interchangeable, so choices between two board holds with the
same contents are offered once; the 6th Hold is always its own choice.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any, NamedTuple


class Target(NamedTuple):
    """A hold a load may go into, and whether it must be emptied into the bank first."""

    hold: int
    dump: bool


Load = tuple[int, bool, int]
"""A load offered: the hold, whether it is emptied first, and how many tokens go in. A plain
tuple: loads are built every turn, and a tuple display costs a fraction of a named tuple
(or of looking one up in a cache)."""


class Hold(NamedTuple):
    """The contents of one hold: what kind of token (None when empty) and how many."""

    kind: str | None
    amount: int


FREE = tuple(Target(hold, False) for hold in range(8))
DUMP = tuple(Target(hold, True) for hold in range(8))
"""`Target(hold, False)` and `Target(hold, True)` by hold, built once: loads are asked for
on every turn and a named tuple costs more to build than to look up."""


class Ship:
    """A ship: position, holds, treasure cards and (for a player) its action cards."""

    __slots__ = (
        "chosen",
        "counts",
        "deck",
        "discard",
        "hand",
        "hidden",
        "kinds",
        "lap",
        "powers",
        "revealed",
        "shuffles",
        "space",
    )

    def __init__(self, space: int, lap: str, holds: int) -> None:
        self.space = space
        self.lap = lap
        self.kinds: list[str | None] = [None] * holds
        self.counts = [0] * holds
        self.powers: list[str] = []
        """Face-up treasure cards (powers), in the order they were gained."""
        self.hidden: list[str] = []
        """Face-down treasure cards, in an order shuffled before every blind pick."""
        self.hand: list[int] = []
        self.deck: list[int] = []
        """The draw pile; the top card is the last."""
        self.discard: list[int] = []
        self.chosen: int | None = None
        """The card chosen this round, face down until its owner resolves it."""
        self.revealed: int | None = None
        """The card this ship resolved (or is resolving) this round."""
        self.shuffles = 0
        """How many times its deck has been shuffled: the k of its chance stream
        ``("deck", seat, k)``."""

    def copy(self) -> Ship:
        new = Ship(self.space, self.lap, 0)
        new.chosen, new.revealed, new.shuffles = self.chosen, self.revealed, self.shuffles
        new.kinds, new.counts = self.kinds[:], self.counts[:]
        new.powers, new.hidden = self.powers[:], self.hidden[:]
        new.hand, new.deck, new.discard = self.hand[:], self.deck[:], self.discard[:]
        return new

    def total(self, kind: str) -> int:
        kinds = self.kinds
        if kind not in kinds:  # half the time: found without a Python loop
            return 0
        total, counts = 0, self.counts
        for hold, held in enumerate(kinds):  # faster than zip and unpacking (hot)
            if held == kind:
                total += counts[hold]
        return total

    def holding(self, kind: str) -> tuple[list[int], list[int]]:
        """The holds that hold `kind`, in order, and how much each holds."""
        holds: list[int] = []
        held: list[int] = []
        kinds, counts = self.kinds, self.counts
        if kind not in kinds:  # a quarter of the time: found without a Python loop
            return holds, held
        for hold, contents in enumerate(kinds):
            if contents == kind:
                holds.append(hold)
                held.append(counts[hold])
        return holds, held

    def fill(self, hold: int, kind: str | None, count: int) -> None:
        self.kinds[hold], self.counts[hold] = (kind, count) if count else (None, 0)

    def take(self, hold: int, amount: int) -> None:
        left = self.counts[hold] - amount
        self.counts[hold] = left
        if not left:
            self.kinds[hold] = None

    def holds_json(self, board_holds: int) -> list[dict[str, Any]]:
        return [
            {"kind": kind, "count": count, "sixth": hold >= board_holds}
            for hold, (kind, count) in enumerate(zip(self.kinds, self.counts, strict=True))
        ]

    def snapshot(self) -> dict[str, Any]:
        return {
            "space": self.space,
            "lap": self.lap,
            "kinds": self.kinds[:],
            "counts": self.counts[:],
            "powers": self.powers[:],
            "hidden": self.hidden[:],
            "hand": self.hand[:],
            "deck": self.deck[:],
            "discard": self.discard[:],
            "chosen": self.chosen,
            "revealed": self.revealed,
            "shuffles": self.shuffles,
        }


def load_targets(
    ship: Ship, kind: str, board_holds: int, allow_dump: bool, exclude: int = -1
) -> tuple[Target, ...]:
    """Where a load of `kind` may go [jamaica §6.1].

    An empty hold if there is one (no emptying while one is free [jamaica G27]); else a
    hold to empty, never one of the same kind unless `allow_dump` [jamaica G6]; never
    `exclude`, the hold the other half of a gold-gold card filled [jamaica §5.3]. Empty =
    cancelled.
    """
    return hold_targets(ship.kinds, ship.counts, kind, board_holds, allow_dump, exclude)


def hold_targets(
    kinds: Sequence[str | None],
    counts: Sequence[int],
    kind: str,
    board_holds: int,
    allow_dump: bool,
    exclude: int = -1,
) -> tuple[Target, ...]:
    """`load_targets` for holds holding `kinds`, `counts` of them."""
    if 0 in counts:
        first = counts.index(0)
        if first < board_holds and len(counts) > board_holds and not counts[board_holds]:
            return FREE[first], FREE[board_holds]
        return (FREE[first],)
    seen: set[tuple[str | None, int]] = set()
    targets = []
    for hold, count in enumerate(counts):
        held = kinds[hold]
        if hold == exclude or (held == kind and not allow_dump):
            continue
        if hold < board_holds:
            contents = (held, count)
            if contents in seen:
                continue
            seen.add(contents)
        targets.append(DUMP[hold])
    return tuple(targets)


def payment_plans(
    holds: tuple[int, ...], counts: tuple[int, ...], size: int, cost: int, board_holds: int
) -> tuple[tuple[int, ...], ...]:
    """Every distinct way to pay `cost` [jamaica §6.3] from the `holds` of a ship of `size`
    holds that hold the kind asked for, `counts` of it (at least `cost` in all), as
    per-hold amounts.

    The first plan empties the smallest holds first (the default). Two plans that leave the
    same contents (board holds being interchangeable) count once.
    """
    if len(holds) == 1 or sum(counts) == cost:
        return (_take_smallest(holds, counts, size, cost),)  # one hold, or all: one plan
    plans = []
    for takes in _plans(counts, holds[-1] >= board_holds, cost):
        amounts = [0] * size
        for hold, take in zip(holds, takes, strict=True):
            amounts[hold] = take
        plans.append(tuple(amounts))
    return tuple(plans)


@lru_cache(maxsize=1 << 14)
def _plans(counts: tuple[int, ...], sixth: bool, cost: int) -> tuple[tuple[int, ...], ...]:
    """The distinct takes from holds holding `counts` (the last one the 6th Hold if `sixth`),
    memoised: they do not depend on which holds these are.

    They are worked out on the counts in increasing order (`_ordered_plans`, memoised: many
    holds hold the same amounts in another order) and put back in the holds' order here.
    """
    if len(counts) == 1:
        return ((cost,),)
    order = sorted(range(len(counts)), key=counts.__getitem__)
    sixth_at = order.index(len(counts) - 1) if sixth else -1
    plans = []
    for split in _ordered_plans(tuple([counts[i] for i in order]), sixth_at, cost):
        takes = [0] * len(counts)
        for i, take in zip(order, split, strict=True):
            takes[i] = take
        plans.append(tuple(takes))
    return tuple(plans)


@lru_cache(maxsize=1 << 14)
def _ordered_plans(
    counts: tuple[int, ...], sixth_at: int, cost: int
) -> tuple[tuple[int, ...], ...]:
    """`_plans` for `counts` in increasing order, the 6th Hold's at `sixth_at` (-1: none)."""
    twins = tuple(  # a board hold just like the one before it: take from them in one order
        k > 0 and counts[k] == counts[k - 1] and sixth_at not in (k, k - 1)
        for k in range(len(counts))
    )
    plans, seen = [], set()
    for split in _splits(counts, twins, cost, cost):
        left = [c - t for c, t in zip(counts, split, strict=True)]
        sixth_left = left.pop(sixth_at) if sixth_at >= 0 else None
        key = (tuple(sorted(left)), sixth_left)
        if key not in seen:
            seen.add(key)
            plans.append(split)
    return tuple(plans)


def _splits(
    counts: tuple[int, ...], twins: tuple[bool, ...], cost: int, cap: int
) -> Iterator[tuple[int, ...]]:
    """Ways to take `cost` from `counts`, the most from the first holds first; a hold that
    twins the one before it takes no more than it did (`cap`), so each result comes once."""
    if not counts:
        if not cost:
            yield ()
        return
    rest = sum(counts[1:])
    top = min(counts[0], cost, cap) if twins[0] else min(counts[0], cost)
    for take in range(top, max(0, cost - rest) - 1, -1):
        for tail in _splits(counts[1:], twins[1:], cost - take, take):
            yield (take, *tail)


def smallest_first(ship: Ship, kind: str, amount: int) -> tuple[int, ...]:
    """Per-hold amounts that take `amount` of `kind` emptying the smallest holds first.

    Used where the rules leave the holds unchosen (gunpowder spent in combat [jamaica G22]).
    """
    holds, counts = ship.holding(kind)
    return _take_smallest(holds, counts, len(ship.counts), amount)


def _take_smallest(
    holds: Sequence[int], counts: Sequence[int], size: int, amount: int
) -> tuple[int, ...]:
    amounts = [0] * size
    for count, hold in sorted(zip(counts, holds, strict=True)):
        if not amount:
            break
        amounts[hold] = take = min(count, amount)
        amount -= take
    return tuple(amounts)
