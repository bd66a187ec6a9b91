"""The adapters' shared action space and turn order (`admiralty.research.actions`)."""

from __future__ import annotations

import itertools
import random

import pytest
from random_play import play

from admiralty.games import GAMES, Outcome, load_game
from admiralty.games.jamaica import Jamaica
from admiralty.games.jamaica.data import load as jamaica_data
from admiralty.games.jamaica.ships import payment_plans
from admiralty.research.actions import ACTION_BOUNDS, PLAYERS, Table, pairwise_rewards
from admiralty.research.encoding import LAYOUTS

SUPPORTED = [(game, players) for game, counts in PLAYERS.items() for players in counts]


@pytest.mark.parametrize(("game", "players"), SUPPORTED)
def test_no_request_of_random_play_has_more_options_than_the_action_space(game, players):
    largest = 0
    for seed in (1, 2):
        for step in play(game, players, seed):
            largest = max([largest, *(len(r.options) for r in step.state.pending())])
    assert 0 < largest <= ACTION_BOUNDS[game]


@pytest.mark.soak
def test_blackbeards_requests_stay_far_below_its_bound():
    """Blackbeard's bound rests on random play alone: 300 games of every supported count
    never offer half of it."""
    largest, counts = 0, PLAYERS["blackbeard"]
    for seed in range(300):
        state = load_game("blackbeard").new_game(counts[seed % len(counts)], seed)
        chooser = random.Random(seed)
        while state.outcome() is None:
            request = min(state.pending(), key=lambda r: r.seat)
            largest = max(largest, len(request.options))
            state.apply(request.seat, chooser.randrange(len(request.options)))
    assert largest <= ACTION_BOUNDS["blackbeard"] // 2


def test_jamaicas_bound_is_the_most_ways_to_pay_a_cost():
    """Every content of the five board holds and the sixth (at most one die's worth each,
    6 tokens), every cost of the track: the engine's own payment plans number at most
    the bound, and reach it; the gunpowder a seat may spend (0 to all of it) is fewer."""
    data = jamaica_data()
    tokens, holds = max(data.action_faces), data.holds + 1
    costs = {space["cost"] for space in Jamaica.board()["spaces"]}
    most = 0
    for board in itertools.combinations_with_replacement(range(tokens + 1), holds - 1):
        for sixth in range(tokens + 1):
            counts = (*board, sixth)
            full = tuple(hold for hold, count in enumerate(counts) if count)
            for cost in costs - {0}:
                if full and sum(counts) >= cost:
                    plans = payment_plans(
                        full, tuple(counts[h] for h in full), holds, cost, data.holds
                    )
                    most = max(most, len(plans))
    assert most == ACTION_BOUNDS["jamaica"]
    assert tokens * holds + 1 < most


def test_black_fleets_bound_is_a_move_to_any_space_or_stop():
    spaces = load_game("black_fleet").static_info()["board"]["spaces"]
    assert ACTION_BOUNDS["black_fleet"] == 1 + len(spaces)


@pytest.mark.parametrize("game", list(PLAYERS))
def test_one_seat_is_asked_at_a_time_with_a_mask_of_its_options(game):
    table, chooser = Table(game, PLAYERS[game].start, seed=3), random.Random(3)
    while not table.over():
        request, seat = table.request(), table.seat()
        assert request is not None and seat == min(r.seat for r in table.state.pending())
        assert table.legal(seat) == list(range(len(request.options)))
        assert table.mask(seat) == [int(i < len(request.options)) for i in range(table.bound)]
        for other in set(range(table.players)) - {seat}:
            assert table.legal(other) == [] and not any(table.mask(other))
        assert table.rewards() == [0.0] * table.players
        table.apply(chooser.choice(table.legal(seat)))
    assert table.seat() is None and table.legal(0) == []
    assert sum(table.rewards()) == pytest.approx(0.0)


def test_a_clone_plays_on_as_its_original():
    table = Table("jamaica", 3, seed=5)
    for _ in range(40):
        table.apply(0)
    copy = table.clone()
    copy.apply(0)
    assert copy.state.digest() != table.state.digest()
    table.apply(0)
    assert copy.state.digest() == table.state.digest()


@pytest.mark.parametrize(
    ("places", "rewards"),
    [
        ((1, 2, 3), [1.0, 0.0, -1.0]),
        ((1, 1, 3, 4), [2 / 3, 2 / 3, -1 / 3, -1.0]),
        ((2, 1), [-1.0, 1.0]),
        ((1, 1), [0.0, 0.0]),
    ],
)
def test_rewards_count_the_seats_placed_behind_less_those_ahead(places, rewards):
    outcome = Outcome(places, tuple(0 for _ in places))
    assert pairwise_rewards(outcome) == pytest.approx(rewards)
    assert sum(pairwise_rewards(outcome)) == pytest.approx(0.0)


@pytest.mark.parametrize(
    ("game", "players"), [("blackbeard", 1), ("black_fleet", 2), ("jamaica", 7), ("chess", 2)]
)
def test_unsupported_games_and_player_counts_are_refused(game, players):
    with pytest.raises(ValueError, match=game):
        Table(game, players, seed=1)


def test_every_registered_game_has_the_adapters():
    """A new game gets its player range, action bound and observation layout here too."""
    assert set(PLAYERS) == set(ACTION_BOUNDS) == set(LAYOUTS) == set(GAMES)
    for game, counts in PLAYERS.items():
        info = load_game(game).info
        assert info.min_players <= counts.start and counts.stop - 1 <= info.max_players
