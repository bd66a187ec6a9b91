"""Seeded random play of any registered game, for the tests every game must pass.

CASES                          (game, players) for every game and player count it allows
play(game, players, seed)      a random game, step by step (`Step`)
finished(game, players, seed)  a random game played to its end
play_on(state, chooser)        play a state on with random answers
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from admiralty.games import GAMES, Event, GameState, load_game

MAX_STEPS = 100_000
"""Far more answers than any game takes (Black Fleet's 60 rounds take ~2,500)."""


def player_counts(game: str) -> range:
    info = load_game(game).info
    return range(info.min_players, info.max_players + 1)


CASES = [(game, players) for game in GAMES for players in player_counts(game)]
"""Every registered game with every player count it allows."""


class Step(NamedTuple):
    """The live state after the answer (seat, index) and the events it caused; the first
    step of a game has no answer and the setup events."""

    state: GameState
    answer: tuple[int, int] | None
    events: list[Event]


def play(
    game: str, players: int, seed: int, options: Mapping[str, Any] | None = None
) -> Iterator[Step]:
    """A game in which a random seat among those asked picks a random option, step by step
    to its end. The state is the live game: look, do not touch (clone it to play on)."""
    state = load_game(game).new_game(players, seed, options)
    yield Step(state, None, state.setup_events)
    chooser = random.Random(seed)
    for _ in range(MAX_STEPS):
        if state.outcome() is not None:
            return
        answer = _random_answer(state, chooser)
        yield Step(state, answer, state.apply(*answer))
    raise AssertionError(
        f"{game} with {players} players, seed {seed}: no end after {MAX_STEPS} answers"
    )


def finished(game: str, players: int, seed: int) -> GameState:
    """The final state of `play(game, players, seed)`."""
    return deque(play(game, players, seed), maxlen=1)[0].state


def play_on(state: GameState, chooser: random.Random, steps: int = MAX_STEPS) -> list[str]:
    """Give `state` up to `steps` random answers (stopping at the end); the digest after
    each."""
    digests = []
    while state.outcome() is None and len(digests) < steps:
        state.apply(*_random_answer(state, chooser))
        digests.append(state.digest())
    return digests


def _random_answer(state: GameState, chooser: random.Random) -> tuple[int, int]:
    request = chooser.choice(state.pending())
    return request.seat, chooser.randrange(len(request.options))
