"""What the three games' `determinize` share: dealing the unseen cards again, and new chance.

A determinization must depend only on what its seat knows, so nothing here reads where a
hidden card lay: `redeal` pools the cards of the piles in sorted order before shuffling
them with the searcher's `rng`, and `fresh_chance` throws the game's seed away.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from admiralty.games.chance import Chance

Pile = tuple[list[Any], Callable[[Any], bool] | None]
"""A hidden pile and what it may hold (None: any card of the pool)."""


def fresh_chance(rng: random.Random) -> Chance:
    """New chance streams from `rng`: the future draws of a determinization are its own."""
    return Chance(rng.getrandbits(64))


def redeal(rng: random.Random, piles: Sequence[Pile]) -> None:
    """Deal the cards of `piles` again at random, in place, each pile keeping its size.

    The pool is sorted first, so the deal depends on which cards are hidden, never on
    where they lay. Piles with a condition are dealt first, each the first cards of the
    shuffled pool that meet it; then the others, in the order given, from what is left.
    """
    pool = sorted(card for pile, _ in piles for card in pile)
    rng.shuffle(pool)
    for pile, fits in sorted(piles, key=lambda pile: pile[1] is None):
        if fits is None:
            pile[:], pool = pool[: len(pile)], pool[len(pile) :]
            continue
        dealt = [card for card in pool if fits(card)][: len(pile)]
        if len(dealt) < len(pile):
            raise ValueError("the unseen cards cannot fill a pile with a condition")
        for card in dealt:
            pool.remove(card)
        pile[:] = dealt
