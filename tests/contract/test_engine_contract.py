"""The engine contract (`admiralty.games.base`), checked on every registered game.

Random play ends, every game runs on the engine kit (a `Flow` of decisions, `Chance` of
named streams, no RNG of its own), a clone is independent and plays on exactly as its
original, illegal answers change nothing, everything that leaves an engine is plain JSON,
and the seed and the decisions fix every byte. A new game passes these before any of its
own rules tests (docs/engine-kit.md).
"""

from __future__ import annotations

import json
import random

import pytest
from random_play import CASES, finished, play, play_on

from admiralty.games import GAMES, IllegalAction, load_game
from admiralty.games.chance import Chance
from admiralty.games.flow import Flow


def new_game(game: str, seed: int):
    """A new game of `game` for its usual number of players."""
    engine = load_game(game)
    return engine.new_game(engine.info.default_players, seed)


def plain(data) -> object:
    """`data` through JSON and back: equal to `data` only if it is plain JSON data."""
    return json.loads(canonical(data))


def canonical(data) -> str:
    return json.dumps(data, sort_keys=True, allow_nan=False)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_play_ends_with_a_place_for_every_seat(game, players):
    for seed in (1, 2, 3):
        state = finished(game, players, seed)
        places, scores = state.outcome().places, state.outcome().scores
        assert len(places) == len(scores) == players and min(places) == 1
        assert all(1 <= place <= players for place in places)
        assert state.pending() == []
        for seat in range(players):
            with pytest.raises(IllegalAction):
                state.apply(seat, 0)


@pytest.mark.parametrize("game", GAMES)
def test_a_clone_is_independent_and_complete(game):
    """Playing a clone on leaves the original as it was (digest, snapshot, requests and
    every view); a clone taken mid-game plays on exactly as the original does."""
    state = new_game(game, 5)
    play_on(state, random.Random(5), steps=80)
    before, snapshot, looks = state.digest(), state.snapshot(), seen(state)
    copy = state.clone()
    assert copy.digest() == before and copy.snapshot() == snapshot and seen(copy) == looks
    assert play_on(copy, random.Random(99), steps=100)
    assert copy.digest() != before
    assert state.digest() == before and state.snapshot() == snapshot and seen(state) == looks
    twin = state.clone()
    assert play_on(state, random.Random(7), 100) == play_on(twin, random.Random(7), 100)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("cut", [0, 25, 120])
def test_a_clone_plays_on_exactly_as_its_original(game, cut):
    """The kit's promise, for a clone taken at any point: the same decisions give the same
    events, requests and digests, to the end of the game."""
    state = new_game(game, 8)
    play_on(state, random.Random(8), steps=cut)
    twin = state.clone()
    assert traced(twin, random.Random(cut)) == traced(state, random.Random(cut))
    assert twin.outcome() == state.outcome() is not None


@pytest.mark.parametrize("game", GAMES)
def test_every_game_runs_on_the_kit(game):
    """The kit is used, not reimplemented: the state's `flow` is a `Flow` and its `chance`
    a `Chance`, a clone has its own flow and the same chance, the chance is part of the
    digest, and no attribute holds an RNG of its own."""
    state = new_game(game, 8)
    play_on(state, random.Random(8), steps=40)
    assert isinstance(getattr(state, "flow", None), Flow)
    assert isinstance(getattr(state, "chance", None), Chance)
    copy = state.clone()
    assert copy.flow is not state.flow and copy.flow.snapshot() == state.flow.snapshot()
    assert copy.chance.seed == state.chance.seed
    copy.chance = Chance(state.chance.seed + 1)
    assert copy.digest() != state.digest()
    assert [name for name, value in attributes(state) if isinstance(value, random.Random)] == []


@pytest.mark.parametrize("game", GAMES)
def test_the_same_deal_keeps_its_chance_whatever_is_decided(game):
    """Two games on one seed answered by different choosers still hold the same chance:
    the same seed, the same draws from any stream, and no RNG state in their snapshots
    (so one different decision cannot shift a later draw: duplicate seating relies on it)."""
    first, second = new_game(game, 21), new_game(game, 21)
    play_on(first, random.Random(1), steps=150)
    play_on(second, random.Random(2), steps=150)
    assert first.digest() != second.digest()
    assert first.chance.seed == second.chance.seed
    for name in [("dice", 3), ("deck", 1, 0), ("contract",)]:
        assert first.chance.stream(*name).random() == second.chance.stream(*name).random()
    for state in (first, second):
        assert [key for key in keys(state.snapshot()) if "rng" in key.lower()] == []


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_answer_raises_illegal_action_and_changes_nothing(game):
    """An index out of range or not an int, a seat with no open request: IllegalAction,
    and the state, its digest and its requests are as they were."""
    players = load_game(game).info.default_players
    for number, step in enumerate(play(game, players, seed=4)):
        if number % 17:
            continue
        state = step.state
        before, asked = state.digest(), [(r.seat, r.options) for r in state.pending()]
        for seat, options in asked:
            for index in (-1, len(options), True, "0", 1.0, None):
                with pytest.raises(IllegalAction):
                    state.apply(seat, index)
            assert state.request_for(seat).options == options
        for seat in {-1, players, *range(players)} - {seat for seat, _ in asked}:
            with pytest.raises(IllegalAction):
                state.apply(seat, 0)
            with pytest.raises(IllegalAction):
                state.request_for(seat)
        assert state.digest() == before
        assert [(r.seat, r.options) for r in state.pending()] == asked


@pytest.mark.parametrize(("game", "players"), CASES)
def test_views_events_snapshots_and_the_board_are_plain_json(game, players):
    """Every view (each seat's and the public one), event and the static info survive
    JSON unchanged, the snapshot serialises; an event's audience names real seats only."""
    engine = load_game(game)
    assert plain(engine.static_info()) == engine.static_info()
    viewers = [None, *range(players)]
    for number, (state, _, events) in enumerate(play(game, players, seed=2)):
        for event in events:
            assert event.kind and plain(event.to_json()) == event.to_json()
            assert event.audience is None or event.audience <= set(range(players))
        if number % 11 == 0 or state.outcome() is not None:
            assert all(plain(state.view(viewer)) == state.view(viewer) for viewer in viewers)
            snapshot = state.snapshot()  # tuples may stand for lists: the digest is the same
            assert canonical(plain(snapshot)) == canonical(snapshot)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_the_same_seed_and_decisions_give_the_same_bytes(game, players):
    """No clock and no global randomness: the decisions of a game replayed on the same
    seed give the same events, public views and digests, whatever the global RNG holds."""
    random.seed(1)
    steps = [
        (answer, recorded(state, events)) for state, answer, events in play(game, players, seed=11)
    ]
    random.seed(2)
    state = load_game(game).new_game(players, 11)
    replayed = [recorded(state, state.setup_events)]
    replayed += [recorded(state, state.apply(*answer)) for answer, _ in steps[1:]]
    assert replayed == [trace for _, trace in steps]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_different_seeds_deal_different_games(game, players):
    engine = load_game(game)
    assert len({engine.new_game(players, seed).digest() for seed in range(6)}) == 6


def recorded(state, events) -> str:
    """A step as the bytes a record holds: the digest, the public view and the events."""
    return json.dumps(
        [state.digest(), state.view(None), [e.to_json() for e in events]], sort_keys=True
    )


def seen(state) -> str:
    """What a state shows: its open requests and every seat's and the public view."""
    players = state.players
    return canonical(
        [
            [(r.seat, r.window_id, r.kind, [o.key for o in r.options]) for r in state.pending()],
            [state.view(viewer) for viewer in (None, *range(players))],
        ]
    )


def traced(state, chooser: random.Random) -> list[str]:
    """Play `state` to its end with random answers: each answer, its events, the requests
    then open and the digest."""
    trace = []
    while state.outcome() is None:
        request = chooser.choice(state.pending())
        answer = request.seat, chooser.randrange(len(request.options))
        events = [event.to_json() for event in state.apply(*answer)]
        trace.append(
            canonical(
                [
                    answer,
                    events,
                    [(r.seat, r.window_id, r.kind) for r in state.pending()],
                    state.digest(),
                ]
            )
        )
    return trace


def attributes(state):
    """The state's attributes, from its __dict__ and its __slots__."""
    names = set(getattr(state, "__dict__", {}))
    for cls in type(state).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names.update([slots] if isinstance(slots, str) else slots)
    for name in sorted(names):
        if hasattr(state, name):
            yield name, getattr(state, name)


def keys(data):
    """Every mapping key in plain JSON `data`, however deep."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from keys(value)
    elif isinstance(data, list | tuple):
        for item in data:
            yield from keys(item)
