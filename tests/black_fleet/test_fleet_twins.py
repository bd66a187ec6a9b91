"""Fair play: the window structure tells no seat what it cannot see ([black_fleet §5.6],
[black_fleet §9, §15] D7; [black_fleet §R3.1]).

Twin games differ only in something an observer cannot see. Given the same public
decisions, the observer's view, the public view, the events it is told, its own requests
and which seats are asked must stay identical, until the rules reveal the difference.
"""

from __future__ import annotations

import json
import random

from twins import PARTS, Twins, compare, observed, public_choice, random_twins, swap_fortune

from admiralty.games import load_game, visible_events
from admiralty.games.black_fleet import arrange
from admiralty.games.black_fleet.state import BlackFleetState

PICKPOCKET, CONTRACT = "F30", "F36"
"""Pickpocket: W1-W3, any time [black_fleet §R3.2]. Contract: Tortuga, a secret
objective, playable only after selling 2 cubes at Tortuga this turn."""
SHIPS = {
    "merchant:0": (16, ["blue"] * 3),
    "merchant:1": (39, ["green"] * 3),
    "merchant:2": (68, ["purple"] * 3),
    "merchant:3": (54, ["yellow"] * 3),
    "pirate:0": "NW",
    "pirate:1": "NE",
    "pirate:2": "SW",
    "pirate:3": "SE",
}
"""Every merchant beside a port of its own colour (so it cannot sell), every pirate in a
distant sea."""
QUIET = {
    "play_fortune": "pass",
    "play_movement": "card:M01",
    "move_ship": "stop",
    "buy": "buy:none",
}


def twins_holding(card: str, other: str, seed: int = 3) -> tuple[BlackFleetState, ...]:
    """Seat 0 starts its turn holding `card` alone; its twin holds `other` instead, which
    lies in the fortune deck (each seat has an empty fortune hand but seat 0)."""
    state = load_game("black_fleet").new_game(4, seed)
    arrange.position(
        state,
        seat=0,
        ships=SHIPS,
        movement={0: ["M01", "M44"]},
        fortune={0: [card], 1: [], 2: [], 3: []},
    )
    assert other in state.fortune_deck
    return state, swap_fortune(state, card, other)


def told(events, viewer) -> str:
    return json.dumps([e.to_json() for e in visible_events(events, viewer)], sort_keys=True)


def test_a_fortune_window_opens_whether_or_not_the_card_held_can_be_played_there():
    """[black_fleet §5.6, §9, §R3.1]: Pickpocket can be played in W1-W3, the unfulfilled
    Contract in none. Both seats are given every window (W0-W3), the second with `pass`
    alone, so the others cannot tell the cards apart; they see, and are told, the same."""
    playable, unplayable = twins_holding(PICKPOCKET, CONTRACT)
    windows = []
    while playable.active == 0:
        for viewer in (1, 2, 3):
            assert observed(playable, viewer) == observed(unplayable, viewer)
        assert playable.view(None) == unplayable.view(None)
        first, twin = playable.pending()[0], unplayable.pending()[0]
        keys = [[o.key for o in r.options] for r in (first, twin)]
        if first.kind == "play_fortune":
            windows.append((playable.view(None)["window"], *keys))
        key = QUIET.get(first.kind, keys[0][0])
        events = [
            s.apply(0, k.index(key)) for s, k in zip((playable, unplayable), keys, strict=True)
        ]
        for viewer in (1, 2, 3, None):
            assert told(events[0], viewer) == told(events[1], viewer)
    offer = ["pass", f"fortune:{PICKPOCKET}"]
    assert windows == [
        ("start", ["pass"], ["pass"]),
        ("first", offer, ["pass"]),
        ("between", offer, ["pass"]),
        ("between", offer, ["pass"]),
        ("last", offer, ["pass"]),
    ]
    twins = Twins(
        "pickpocket",
        "black_fleet",
        playable,
        unplayable,
        1,
        lambda s, r: public_choice(s, r, frozenset({PICKPOCKET, CONTRACT})),
    )
    assert compare(twins, 300) > 10  # until a seat draws the other card


def test_a_seat_with_no_fortune_card_is_given_no_window():
    """[black_fleet §9]: the hand's size is public, so an empty hand skips the windows for
    everyone."""
    state, _ = twins_holding(PICKPOCKET, CONTRACT)
    state.seats[0].fortune.clear()
    arrange.turn(state, 0)
    assert state.pending()[0].kind == "play_movement"


def test_what_a_seat_cannot_see_never_changes_what_it_is_shown():
    """Property: from random positions of random games (3 and 4 players), a twin that
    deals again some of what one seat cannot see (other hands, deck orders, unbought
    development cards, the chance streams) shows that seat the same views, public view, events and
    requests, and asks the same seats, under the same public decisions, until a rule
    reveals the difference (a card played, discarded, bought or drawn). So nothing the
    seat is shown depends on what it cannot see."""
    rng = random.Random(20240611)
    compared = reached = 0
    for _ in range(80):
        parts = tuple(p for p in PARTS["black_fleet"] if rng.random() < 0.5) or ("hands",)
        twins = random_twins("black_fleet", rng.getrandbits(32), rng.randrange(1500), parts=parts)
        steps = compare(twins, 150)
        compared += steps
        reached += steps > 0
    assert compared > 1500 and reached > 40
