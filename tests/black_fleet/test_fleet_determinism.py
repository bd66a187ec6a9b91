"""Determinism and cloning (DESIGN.md invariant 1; black_fleet.md §10).

One seeded RNG drives every shuffle: the same seed and decisions give the same
events and digests, and a clone carries its own RNG so it diverges independently.
"""

from __future__ import annotations

import json
import random

from admiralty.games import load_game


def playout(state, bot_seed: int, steps: int | None = None):
    """Play random decisions; returns [(events as JSON, digest)] per step."""
    bot = random.Random(bot_seed)
    trace = []
    while state.outcome() is None and (steps is None or len(trace) < steps):
        request = state.pending()[0]
        events = state.apply(request.seat, bot.randrange(len(request.options)))
        trace.append(([e.to_json() for e in events], state.digest()))
    return trace


def test_same_seed_and_decisions_give_the_same_events_and_digests():
    game = load_game("black_fleet")
    first, second = game.new_game(4, 21), game.new_game(4, 21)
    assert [e.to_json() for e in first.setup_events] == [e.to_json() for e in second.setup_events]
    assert first.digest() == second.digest()
    assert playout(first, 5) == playout(second, 5)


def test_different_seeds_deal_differently():
    game = load_game("black_fleet")
    assert game.new_game(4, 1).digest() != game.new_game(4, 2).digest()


def test_a_clone_is_independent_and_replays_like_the_original():
    game = load_game("black_fleet")
    state = game.new_game(3, 4)
    playout(state, 9, steps=150)
    copy = state.clone()
    assert copy.digest() == state.digest() and copy.view(1) == state.view(1)
    reference = state.clone()
    diverged = playout(copy, 123, steps=200)
    assert state.digest() == reference.digest()  # the original is untouched
    assert playout(state, 77) == playout(reference, 77)
    assert diverged != playout(game.new_game(3, 4), 123, steps=200)


def test_clone_copies_the_rng():
    state = load_game("black_fleet").new_game(4, 8)
    copy = state.clone()
    assert copy.rng is not state.rng and copy.rng.getstate() == state.rng.getstate()
    copy.rng.random()
    assert copy.rng.getstate() != state.rng.getstate()


def test_snapshot_is_json_with_the_rng_state():
    state = load_game("black_fleet").new_game(4, 8)
    playout(state, 1, steps=60)
    snapshot = state.snapshot()
    assert json.loads(json.dumps(snapshot)) == snapshot
    version, internal, _ = state.rng.getstate()
    assert snapshot["rng"][:2] == [version, list(internal)]
    assert len(state.digest()) == 16
