"""Honest determinization (`GameState.determinize`), checked on every game and player count.

At random positions of random games, for a random seat: the determinized state shows that
seat exactly what the original does (its view and its own requests); what it cannot see
is dealt again, differently for different rngs; the result depends on nothing the seat
cannot see (twins that differ only there, `twins.scramble`, give equal digests); and it
plays on legally to the end, leaving the original untouched. The soak test checks all
of it on `ADMIRALTY_SOAK_GAMES` more games of each case (default 3: raise it for a soak).
"""

from __future__ import annotations

import functools
import json
import os
import random

import pytest
from random_play import CASES, play, play_on
from twins import scramble

from admiralty.games import GameState

SEEDS = (11, 12)
POSITIONS = 4
"""Positions sampled per game of each case: the tests stay within a few seconds a case."""
SOAK_GAMES = int(os.environ.get("ADMIRALTY_SOAK_GAMES", "3"))


def positions(game: str, players: int, seeds=SEEDS) -> list[tuple[GameState, int]]:
    """`POSITIONS` positions spread over each game of `seeds`, each with a seat (the one
    asked, or another) to determinize for: fresh clones, which a test may use up."""
    return [(state.clone(), seat) for state, seat in _positions(game, players, tuple(seeds))]


@functools.cache
def _positions(game: str, players: int, seeds: tuple[int, ...]) -> list[tuple[GameState, int]]:
    """The positions, found once per case: a game is played to count its steps, then again
    to clone the sampled ones (cloning every step would cost more than both plays)."""
    out = []
    for seed in seeds:
        steps = sum(1 for _ in play(game, players, seed)) - 1  # the final state is no position
        rng = random.Random(seed)
        sampled = rng.sample(range(steps), min(POSITIONS, steps))
        seats = [rng.randrange(players) for _ in sampled]
        found = {
            n: step.state.clone()
            for n, step in enumerate(play(game, players, seed))
            if n in sampled
        }
        out += [(found[n], seat) for n, seat in zip(sampled, seats, strict=True)]
    return out


def seen(state: GameState, seat: int) -> str:
    """All `seat` can tell of a state: its view and its own requests."""
    mine = [
        [
            r.kind,
            str(r.window),
            r.prompt,
            r.optional,
            r.default,
            [[o.key, o.label, dict(o.payload)] for o in r.options],
        ]
        for r in state.pending()
        if r.seat == seat
    ]
    return json.dumps([state.view(seat), mine], sort_keys=True, default=str)


def unseen(state: GameState, seat: int) -> str:
    """What the other seats see, and the chance: where determinizations should differ."""
    others = [state.view(other) for other in range(state.players) if other != seat]
    return json.dumps([others, state.snapshot().get("chance")], sort_keys=True)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_the_seat_sees_the_same_game(game, players):
    for state, seat in positions(game, players):
        before = state.digest()
        for k in range(3):
            assert seen(state.determinize(seat, random.Random(k)), seat) == seen(state, seat)
        assert state.digest() == before


@pytest.mark.parametrize(("game", "players"), CASES)
def test_the_hidden_parts_vary_with_the_rng(game, players):
    """The chance always; with other seats, what they hold too, in most positions."""
    varied = 0
    cases = positions(game, players)
    for state, seat in cases:
        samples = {unseen(state.determinize(seat, random.Random(k)), seat) for k in range(4)}
        assert len(samples) == 4
        others = {
            json.dumps(
                [
                    state.determinize(seat, random.Random(k)).view(other)
                    for other in range(players)
                    if other != seat
                ],
                sort_keys=True,
            )
            for k in range(4)
        }
        varied += len(others) > 1
    if players > 1:
        assert varied >= len(cases) // 2, f"other seats' hands varied in {varied} of {len(cases)}"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_the_result_depends_only_on_what_the_seat_sees(game, players):
    """Honesty: twins that differ only in what the seat cannot see (hands, decks, face-down
    cards, the chance seed) determinize to the same state for the same rng."""
    compared = 0
    for state, seat in positions(game, players):
        twin = scramble(state, seat, random.Random(seat))
        if twin is None:  # an open request that scrambling cannot redo
            continue
        assert seen(twin, seat) == seen(state, seat)
        assert twin.digest() != state.digest()
        for k in range(2):
            assert (
                twin.determinize(seat, random.Random(k)).digest()
                == state.determinize(seat, random.Random(k)).digest()
            )
        compared += 1
    assert compared >= len(SEEDS) * POSITIONS // 2


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_determinized_state_plays_on_to_the_end(game, players):
    for state, seat in positions(game, players)[::2]:
        sample = state.determinize(seat, random.Random(seat))
        play_on(sample, random.Random(seat))
        assert sample.outcome() is not None and sample.pending() == []


@pytest.mark.soak
@pytest.mark.parametrize(("game", "players"), CASES)
def test_soak_every_property_on_more_games(game, players):
    for state, seat in positions(game, players, range(100, 100 + SOAK_GAMES)):
        sample = state.determinize(seat, random.Random(seat))
        assert seen(sample, seat) == seen(state, seat)
        twin = scramble(state, seat, random.Random(seat))
        if twin is not None:
            assert twin.determinize(seat, random.Random(seat)).digest() == sample.digest()
        play_on(sample, random.Random(seat))
        assert sample.outcome() is not None
