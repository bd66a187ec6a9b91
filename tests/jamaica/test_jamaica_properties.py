"""Random games always finish and never break the game's bookkeeping ([jamaica §2, §4]).

A soak test: 500 games by default (100 per player count), the smaller form the test run
plays, checked after every decision; `ADMIRALTY_SOAK_GAMES=2000 pytest -m soak
tests/jamaica` plays the full count.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from admiralty.games import Window
from admiralty.games.jamaica import Jamaica, JamaicaState
from admiralty.games.jamaica.data import load

DATA = load()
GAMES = int(os.environ.get("ADMIRALTY_SOAK_GAMES", "500"))
PLAYER_COUNTS = range(DATA.min_players, DATA.max_players + 1)
LAPS = {"pre_start", "racing", "finished"}


def check(state: JamaicaState) -> None:
    """Every invariant that must hold between any two decisions."""
    ships = state.ships + ([state.ghost] if state.ghost is not None else [])
    tokens = Counter(state.bank)
    for ship in ships:
        assert ship.space in range(len(DATA.spaces)) and ship.lap in LAPS
        assert (ship.lap == "finished") <= (ship.space == 0)
        assert len(ship.kinds) == DATA.holds + ("sixth_hold" in ship.powers)
        for kind, count in zip(ship.kinds, ship.counts, strict=True):
            assert (kind is None) == (count == 0) and count >= 0
            if kind is not None:
                tokens[kind] += count
    assert tokens == Counter(DATA.bank), "tokens are conserved"
    assert min(state.bank.values()) >= 0
    in_play = state.treasure_deck + [t for ship in ships for t in ship.powers + ship.hidden]
    assert len(in_play) == DATA.deck_size, "9 treasures are accounted for"
    boxed = state.removed + (["lady_beth"] if state.ghost is not None else [])
    assert sorted(in_play + boxed) == sorted(DATA.treasures)
    for seat, ship in enumerate(state.ships):
        cards = ship.hand + ship.deck + ship.discard + [ship.chosen] * (ship.chosen is not None)
        assert sorted(cards) == sorted(DATA.cards)
        assert len(ship.hand) <= 4
        if state.phase == "choose_cards" and seat in state.flow.sealed:
            assert len(ship.hand) >= DATA.hand_size
    requests = state.pending()
    assert bool(requests) == (state.outcome() is None)
    for request in requests:
        assert request.options and 0 <= request.default < len(request.options)
        assert request.optional == (request.options[0].key == "pass")
        if request.window == Window.SEALED:
            assert {r.window_id for r in requests} == {request.window_id}


def play(players: int, seed: int) -> JamaicaState:
    state = Jamaica().new_game(players, seed)
    chooser = random.Random(seed)
    check(state)
    while state.outcome() is None:
        request = chooser.choice(state.pending())
        state.apply(request.seat, chooser.randrange(len(request.options)))
        check(state)
    return state


@pytest.mark.soak
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_games_finish_with_every_invariant_kept(players):
    """[jamaica §2, §4, §6.1, §9]: tokens, holds, cards, treasures and positions stay consistent."""

    @settings(
        max_examples=max(1, GAMES // len(PLAYER_COUNTS)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        database=None,
    )
    @given(seed=st.integers(0, 2**32 - 1))
    def game(seed):
        state = play(players, seed)
        assert state.round <= state.options["round_cap"]
        assert len(state.outcome().places) == players

    game()
