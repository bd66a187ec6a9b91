"""Helpers for the Black Fleet tests: build a position, play it, read results.

Positions are built with `admiralty.games.black_fleet.arrange` (`position`: ships,
cubes, hands, money, cards) and played with `choose` (answer by option key).
"""

from __future__ import annotations

from admiralty.games.black_fleet import arrange
from admiralty.games.black_fleet.arrange import choose


def kinds(events) -> list[str]:
    return [event.kind for event in events]


def of_kind(events, kind: str) -> list[dict]:
    return [dict(event.data) for event in events if event.kind == kind]


def request(state):
    return state.pending()[0]


def window(state) -> str | None:
    """The fortune window open now (`start`, `first`, `between`, `last`), as the view shows it."""
    return state.view(None)["window"]


def asked_seat(state, request) -> int:
    """Who must be asked: the active seat, or in setup the first seat whose merchant is
    not placed yet (seat order [black_fleet §4.1])."""
    if request.kind == "place_merchant":
        return sum(player.merchant.space is not None for player in state.seats)
    return state.active


def start_turn(state, ships, *, seat=0, card=None, hand=None, fortune=(), **kwargs):
    """Arrange `ships` and start `seat`'s turn with an empty (or given) fortune hand.

    With `card`, the seat's movement hand is `card` plus one spare card and `card` is
    played at once, so the state waits for the first ship choice (or a fortune window).
    """
    if hand is None and card is not None:
        hand = [card, "M44" if card != "M44" else "M43"]
    movement = {seat: hand} if hand else None
    events = arrange.position(
        state, seat=seat, ships=ships, movement=movement, fortune={seat: list(fortune)}, **kwargs
    )
    if card is not None:
        events += choose(state, f"card:{card}")
    return events


def finish_activations(state):
    """Activate every waiting ship and stop it at once (passing any action or card play)."""
    seat = state.active
    while state.pending() and state.active == seat:
        req = request(state)
        keys = [option.key for option in req.options]
        if req.kind == "choose_ship":
            choose(state, keys[0])
        elif req.kind in ("choose_action", "play_fortune"):
            choose(state, "pass")
        elif req.kind == "move_ship" and "stop" in keys:
            choose(state, "stop")
        else:
            return


def play_quiet_turn(state):
    """Play the active seat's whole turn doing as little as possible; returns its events."""
    events = []
    seat = state.active
    while state.pending() and state.active == seat and state.outcome() is None:
        req = request(state)
        keys = [option.key for option in req.options]
        if req.kind == "choose_ship":
            events += choose(state, keys[0])
        elif "stop" in keys:
            events += choose(state, "stop")
        elif req.optional:
            events += choose(state, keys[0])  # pass / buy:none
        else:
            events += choose(state, keys[0])
    return events
