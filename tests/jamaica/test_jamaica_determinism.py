"""Determinism (DESIGN invariants 1 and 6): seed + decisions fix every byte; clones branch."""

from __future__ import annotations

import json
import random

import pytest

from admiralty.games.jamaica import Jamaica


def record(players: int, seed: int, decisions: list[tuple[int, int]] | None = None):
    """Play a game (random decisions unless given); its decisions, events and digests."""
    state = Jamaica().new_game(players, seed)
    chooser = random.Random(seed * 7 + 1)
    log = [json.dumps([e.to_json() for e in state.setup_events], sort_keys=True)]
    digests, made = [state.digest()], []
    step = 0
    while state.outcome() is None:
        if decisions is None:
            request = chooser.choice(state.pending())
            decision = (request.seat, chooser.randrange(len(request.options)))
        else:
            decision = decisions[step]
        made.append(decision)
        events = state.apply(*decision)
        log.append(json.dumps([e.to_json() for e in events], sort_keys=True))
        digests.append(state.digest())
        step += 1
    return made, log, digests, state


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_same_seed_and_decisions_give_the_same_events_and_digests(players):
    """DESIGN invariant 1: no clock, no global randomness; replaying reproduces everything."""
    decisions, log, digests, state = record(players, seed=11)
    random.seed(12345)  # the engine must not depend on the global RNG
    _, log2, digests2, state2 = record(players, seed=11, decisions=decisions)
    assert log2 == log and digests2 == digests
    assert state2.outcome() == state.outcome()
    assert json.dumps(state2.view(None)) == json.dumps(state.view(None))


def test_different_seeds_give_different_games():
    """§13: the seed drives every shuffle and roll."""
    first = Jamaica().new_game(4, seed=1)
    second = Jamaica().new_game(4, seed=2)
    assert first.digest() != second.digest()


def test_a_clone_is_independent_and_equal():
    """DESIGN invariant 1: `clone()` copies everything, RNG included, and shares nothing."""
    decisions, _, digests, _ = record(3, seed=5)
    state = Jamaica().new_game(3, seed=5)
    for decision in decisions[:60]:
        state.apply(*decision)
    copy = state.clone()
    assert copy.digest() == state.digest() == digests[60]
    assert copy.snapshot() == state.snapshot()
    chooser = random.Random(99)
    while copy.outcome() is None:  # play the copy out on other decisions
        request = chooser.choice(copy.pending())
        copy.apply(request.seat, chooser.randrange(len(request.options)))
    assert state.digest() == digests[60]
    for step, decision in enumerate(decisions[60:], start=61):
        state.apply(*decision)
        assert state.digest() == digests[step]


def test_snapshot_is_plain_json_and_includes_the_rng():
    """DESIGN invariant 6: the snapshot is JSON data; the RNG state is part of it."""
    state = Jamaica().new_game(4, seed=3)
    text = json.dumps(state.snapshot(), sort_keys=True)
    before = state.digest()
    state.rng.random()
    assert state.digest() != before and json.loads(text)["rng"][0] == 3
