"""Every continuation of every game is a checked reference (docs/engine-kit.md, "The flow").

A step holds the method it calls, bound to the state or to one of its collaborators, so
mypy and the first line that builds it catch a misspelt one. What is left to prove: no
engine builds a continuation or a dispatch from a string, and every method a snapshot
names resolves, by that name, to the method its step holds, on an object of the game.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from random_play import CASES, play

from admiralty.games import GAMES
from admiralty.games.flow import Flow, Poll, is_step

GAMES_DIR = Path(__file__).parents[2] / "server" / "admiralty" / "games"

BY_NAME = [
    (re.compile(r"\bstep\(\s*f?[\"']"), "a step naming its method by a string"),
    (re.compile(r"\bPoll\([^()]*(\([^()]*\))?[^()]*,\s*f?[\"']"), "a poll naming its offer"),
    (re.compile(r"\bgetattr\(\s*self\b"), "a method looked up on self by name"),
]


@pytest.mark.parametrize("game", GAMES)
def test_no_engine_names_a_continuation_by_a_string(game):
    found = [
        f"{path.name}:{number}: {why}: {line.strip()}"
        for path in sorted((GAMES_DIR / game).rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        for pattern, why in BY_NAME
        if pattern.search(line)
    ]
    assert found == []


def methods(flow: Flow) -> list:
    """Every method the flow will call: frames, the open request's steps, a SEALED window's."""
    frames = [frame.offer if isinstance(frame, Poll) else frame[0] for frame in flow.stack]
    asked = flow.asked
    if asked is not None:
        frames += [asked.then[0]] if is_step(asked.then) else [then[0] for then in asked.then]
    if flow.sealed:
        frames.append(flow.sealed_then[0])
    return frames


def parts(state) -> list:
    """The state and the objects it holds directly: its collaborators."""
    return [state, *vars(state).values()]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_continuation_resolves_by_the_name_its_snapshot_gives(game, players):
    seen = set()
    for seed in range(3):
        for moment in play(game, players, seed):
            state = moment.state
            owners = parts(state)
            for method in methods(state.flow):
                owner = method.__self__
                assert any(owner is part for part in owners), method.__qualname__
                assert getattr(type(owner), method.__name__) is method.__func__
                seen.add(method.__qualname__)
    assert seen, "random games call continuations"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_copy_calls_its_own_objects(game, players):
    """Cloned mid-game, a game's pending continuations belong to the clone, none to the
    original."""
    moments = play(game, players, 11)
    for _ in range(30):
        state = next(moments).state
    copy = state.clone()
    assert methods(copy.flow)
    for method in methods(copy.flow):
        assert any(method.__self__ is part for part in parts(copy)), method.__qualname__
        assert not any(method.__self__ is part for part in parts(state)), method.__qualname__
