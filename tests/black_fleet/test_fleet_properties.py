"""Random games: they finish, and the invariants hold after every decision.

The invariants: 65 cubes (13 per colour) between ports, merchants and pirates; all
44 + 44 + 24 cards accounted for; money never negative; at most the hand limit of
fortune cards (3, or 4 with Old Salt's Almanac) when a turn ends; never two resting
ships on one space (a moving ship may only pause on a friendly ship, [black_fleet G9]); merchant
cargo one colour within the hold; every open request a real choice of its seat, except
a fortune window, which may offer `pass` alone (it opens whenever the seat holds a card).

`ADMIRALTY_SOAK_GAMES` sets how many games the soak test plays in all (half with 3
players, half with 4); the default keeps the suite fast, CI may lower it further and
`ADMIRALTY_SOAK_GAMES=2000 pytest -m soak tests/black_fleet` runs the full count.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest
from fleet_helpers import asked_seat

from admiralty.games import load_game

SOAK_GAMES = int(os.environ.get("ADMIRALTY_SOAK_GAMES", "200"))
CHUNKS = 4  # spreads the soak over pytest-xdist workers


def check_invariants(state) -> None:
    data = state.data
    moving = state.current.ship
    cubes = Counter({colour: n for colour, n in state.stock.items()})
    resting: list[int] = [navy.space for navy in state.navies.values() if navy is not moving]
    for player in state.seats:
        assert player.money >= 0
        merchant, pirate = player.merchant, player.pirate
        cubes.update(merchant.cargo)
        cubes.update(pirate.cargo)
        if merchant.space is not None:
            assert merchant.cargo and len(set(merchant.cargo)) == 1
            assert len(merchant.cargo) <= state.capacity(player, "merchant")
        else:
            assert not merchant.cargo
        assert len(pirate.cargo) <= state.capacity(player, "pirate")
        assert not (pirate.space is not None and pirate.zone is not None)
        resting += [s.space for s in (merchant, pirate) if s.space is not None and s is not moving]
    assert cubes == dict.fromkeys(data.board.goods, data.setup.cubes_per_colour)
    assert len(resting) == len(set(resting)) and set(resting) == set(state.at)
    if moving is not None and moving.space in state.at:
        other, mods = state.at[moving.space], state.seats[state.active].mods
        friendly = other.owner == state.active or other.navy in state.current.controlled
        assert friendly or mods.get(f"pass_all.{moving.kind}")  # Raked Masts, Contacts
    hands = [c for p in state.seats for c in p.movement]
    assert sorted(hands + state.movement_deck + state.movement_discard) == sorted(data.movement)
    hands = [c for p in state.seats for c in p.fortune]
    assert sorted(hands + state.fortune_deck + state.fortune_discard) == sorted(data.fortune)
    dealt = [c for p in state.seats for c in p.development.values()]
    assert sorted(dealt + state.box) == sorted(data.development)


def play_checked(players: int, seed: int) -> int:
    """Play one random game checking everything after every step; returns its rounds."""
    state = load_game("black_fleet").new_game(players, seed)
    bot = random.Random(seed * 7 + players)
    check_invariants(state)
    steps = 0
    while state.outcome() is None:
        (request,) = state.pending()
        lone_pass = request.kind == "play_fortune" and request.options[0].key == "pass"
        assert len(request.options) >= 2 or lone_pass
        assert request.seat == asked_seat(state, request)
        events = state.apply(request.seat, bot.randrange(len(request.options)))
        check_invariants(state)
        for event in events:
            if event.kind == "turn_ended":
                player = state.seats[event.data["seat"]]
                assert len(player.fortune) <= state.fortune_limit(player)
        steps += 1
        if steps % 97 == 0:
            json.dumps(state.view(None)), json.dumps(state.snapshot())
    assert state.pending() == [] and state.round <= state.round_cap
    return state.round


@pytest.mark.soak
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [3, 4])
def test_random_games_finish_and_keep_the_invariants(players, chunk):
    per_count = SOAK_GAMES // 2
    seeds = range(chunk, per_count, CHUNKS)
    for seed in seeds:
        play_checked(players, seed)


def test_a_game_with_the_20_doubloon_victory_card_finishes():
    state = load_game("black_fleet").new_game(4, 11, {"victory_cost": 20})
    bot = random.Random(11)
    while state.outcome() is None:
        request = state.pending()[0]
        state.apply(request.seat, bot.randrange(len(request.options)))
    assert state.ended_by in ("victory", "round_cap")
