"""Match seeds are 128-bit integers from a CSPRNG: every engine takes any non-negative
int up to 2**128 and beyond, uses all of its bits, and never shows it."""

from __future__ import annotations

import json
import random

import pytest

from admiralty.games import GAMES, load_game, visible_events

BIG = 2**128 - 1 - 2**100
"""A 128-bit seed whose low 64 bits are those of `LOW`."""
LOW = BIG % 2**64


def play(game: str, seed: int, steps: int = 60):
    """A new game played by a seeded random chooser: the events, views and digests."""
    state = load_game(game).new_game(3, seed)
    chooser = random.Random(7)
    trace = [[e.to_json() for e in state.setup_events]]
    for _ in range(steps):
        if state.outcome() is not None:
            break
        request = state.pending()[0]
        events = state.apply(request.seat, chooser.randrange(len(request.options)))
        trace.append(
            [
                [e.to_json() for e in events],
                state.view(None),
                state.view(request.seat),
                state.digest(),
            ]
        )
    return state, trace


@pytest.mark.parametrize("game", GAMES)
def test_a_128_bit_seed_plays_the_same_game_twice(game):
    first, trace = play(game, BIG)
    second, again = play(game, BIG)
    assert trace == again and first.digest() == second.digest()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [2**128, 2**200 + 3])
def test_larger_seeds_are_accepted_too(game, seed):
    assert play(game, seed, steps=5)[0].digest() == play(game, seed, steps=5)[0].digest()


@pytest.mark.parametrize("game", GAMES)
def test_the_high_bits_of_a_seed_count(game):
    """Nothing truncates the seed to 64 bits: seeds equal in their low 64 bits differ."""
    engine = load_game(game)
    digests = {engine.new_game(3, seed).digest() for seed in (BIG, LOW, LOW + 2**64, BIG - 2**127)}
    assert len(digests) == 4


@pytest.mark.parametrize("game", GAMES)
def test_the_seed_never_appears_in_views_or_events(game):
    state, trace = play(game, BIG, steps=80)
    shown = json.dumps(trace) + json.dumps([state.view(s) for s in (None, 0, 1, 2)])
    events = [e.to_json() for e in visible_events(state.setup_events, None)]
    for text in (str(BIG), hex(BIG)[2:], str(LOW)):
        assert text not in shown and text not in json.dumps(events)
