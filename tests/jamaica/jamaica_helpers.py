"""Helpers for the Jamaica rules scenarios (a module, not a conftest: names stay unique).

A scenario starts from `new()`, sets the position with `admiralty.games.jamaica.arrange`,
then answers requests by option key with `arrange.choose()` / `play()` and checks the result.
Seats that should stay out of the way play card 10 (gunpowder / food): with three empty
holds both loads go in without a question.
"""

from __future__ import annotations

from typing import Any

from admiralty.games.base import Event
from admiralty.games.jamaica import Jamaica, JamaicaState, arrange

QUIET = 10
"""Gunpowder / food: two loads, no movement."""


def new(players: int = 3, seed: int = 0, **options: Any) -> JamaicaState:
    return Jamaica().new_game(players, seed, options or None)


def start(state: JamaicaState, captain: int = 0, dice: tuple[int, int] = (4, 2)) -> list[Event]:
    """Make `captain` the Captain with `dice` rolled, placed morning first, evening second."""
    arrange.captain(state, captain, dice)
    return arrange.choose(state, f"dice:sun={dice[0]},moon={dice[1]}", seat=captain)


def play(state: JamaicaState, cards: dict[int, int]) -> list[Event]:
    """Every seat plays the given card (QUIET if not given); the events of all answers."""
    events = []
    for seat in range(state.players):
        events += arrange.choose(state, f"card:{cards.get(seat, QUIET)}", seat=seat)
    return events


def deal(state: JamaicaState, cards: dict[int, int]) -> None:
    """Make sure each seat holds the card it will play (QUIET if not given)."""
    for seat in range(state.players):
        card, held = cards.get(seat, QUIET), state.ships[seat].hand
        if card not in held:
            arrange.hand(state, seat, [card, *[c for c in held if c != card][: len(held) - 1]])


def round_with(
    state: JamaicaState, cards: dict[int, int], captain: int = 0, dice: tuple[int, int] = (4, 2)
) -> list[Event]:
    """A whole opening: hands dealt, Captain and dice placed, then every seat's card."""
    deal(state, cards)
    return start(state, captain, dice) + play(state, cards)


def public(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The data of the public events of `kind`, in order."""
    return [dict(e.data) for e in events if e.kind == kind and e.audience is None]


def private(events: list[Event], kind: str, seat: int) -> list[dict[str, Any]]:
    """The data of the events of `kind` told to `seat` alone (or with others)."""
    return [
        dict(e.data)
        for e in events
        if e.kind == kind and e.audience is not None and seat in e.audience
    ]
