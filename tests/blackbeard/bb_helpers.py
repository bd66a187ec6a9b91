"""Helpers for Blackbeard's engine tests: answering by option key, and random play."""

from __future__ import annotations

import random

from admiralty.games.base import Request
from admiralty.games.blackbeard import Blackbeard, arrange
from admiralty.games.blackbeard.state import BlackbeardState


def request(state: BlackbeardState) -> Request:
    (open_request,) = state.pending()
    return open_request


def keys(state: BlackbeardState) -> list[str]:
    return [option.key for option in request(state).options]


def answer(state: BlackbeardState, key: str) -> list:
    """Answer the open request with the option whose key is `key`."""
    open_request = request(state)
    index = [option.key for option in open_request.options].index(key)
    return state.apply(open_request.seat, index)


ROLL_POINTS = ("cunning", "skull_and_crossbones")


def pass_polls(state: BlackbeardState) -> int:
    """Answer every open anti-pirate poll with PASS and every roll point with "accept";
    how many polls there were."""
    count = 0
    while state.pending() and request(state).kind in ("anti_pirate", *ROLL_POINTS):
        if request(state).kind == "anti_pirate":
            count += 1
            answer(state, "pass")
        else:
            answer(state, "accept")
    return count


def playout(
    players: int, seed: int, options: dict | None = None, limit: int = 100_000, check=None
) -> tuple[BlackbeardState, int]:
    """Random answers until the end; `check(state)` after every answer."""
    state = Blackbeard().new_game(players, seed, options)
    rng = random.Random(seed)
    steps = 0
    while state.outcome() is None:
        open_request = state.pending()[0]
        state.apply(open_request.seat, rng.randrange(len(open_request.options)))
        steps += 1
        if check is not None:
            check(state)
        assert steps < limit, "the game did not end"
    return state, steps


def position(players=3, area="EC", port=None, **options):
    """Seat order[0] with Vane (a Schooner) in `area` (In Port at `port`), no other pirate
    on the map."""
    state = arrange.ready(players, 1, **options)
    arrange.remove_pirates(state)
    seat = state.table.order[0]
    vane = arrange.pirate(state, seat, "VA", area, port=port, ship="schooner")
    return state, seat, vane


def act(state, pirate, action, target=None):
    """Choose the pirate, the Action and its target; pass the polls that follow."""
    answer(state, f"pirate:{pirate}")
    answer(state, f"action:{action}")
    if target is not None and target in keys(state):
        answer(state, target)  # unless it was the only target, applied at once
    return pass_polls(state)
