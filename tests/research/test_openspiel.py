"""The OpenSpiel games pass OpenSpiel's own random simulation test, declare what the
engines declare, and keep each seat's information to what it was shown."""

from __future__ import annotations

import pytest

from admiralty.games import load_game
from admiralty.research import encoding
from admiralty.research.actions import ACTION_BOUNDS, PLAYERS


def _pyspiel():
    """pyspiel with the games registered: an ImportError naming the extra fails the test
    when it is missing (CI installs it with `dev`)."""
    import pyspiel

    import admiralty.research.openspiel_game  # noqa: F401  (registers the games)

    return pyspiel


SHORT = 8
"""The `round_cap` of the default run's games: whole games, a few rounds long."""
SHORTER = 4
"""The `round_cap` of the games of every player count: the longest (Blackbeard's, with
four or five players) still take seconds each at `SHORT`."""
ALL = [(game, players) for game, counts in PLAYERS.items() for players in counts]


@pytest.mark.parametrize("game", list(PLAYERS))
def test_random_sim_test_passes(game):
    pyspiel = _pyspiel()
    loaded = pyspiel.load_game(
        f"admiralty_{game}", {"players": PLAYERS[game].start, "round_cap": SHORT}
    )
    pyspiel.random_sim_test(loaded, num_sims=2, serialize=False, verbose=False)


@pytest.mark.soak
@pytest.mark.parametrize(("game", "players"), ALL)
def test_random_sim_test_passes_for_every_player_count(game, players):
    """Whole games take up to a minute each (every step checks clones and every seat's
    observations): `round_cap` bounds them here."""
    pyspiel = _pyspiel()
    loaded = pyspiel.load_game(
        f"admiralty_{game}", {"players": players, "seed": players, "round_cap": SHORTER}
    )
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game", list(PLAYERS))
def test_the_game_type_and_info_come_from_the_engines_declaration(game):
    pyspiel = _pyspiel()
    info = load_game(game).info
    loaded = pyspiel.load_game(f"admiralty_{game}")
    kind = loaded.get_type()
    assert kind.long_name.startswith(info.title)
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert (kind.min_num_players, kind.max_num_players) == (
        PLAYERS[game].start,
        PLAYERS[game].stop - 1,
    )
    assert loaded.num_players() == info.default_players
    assert loaded.num_distinct_actions() == ACTION_BOUNDS[game]
    assert loaded.get_parameters()["round_cap"] == info.defaults()["round_cap"]


def test_the_same_parameters_deal_the_same_games_however_they_are_observed():
    """A state is dealt when first used; the states pyspiel makes on its own (to size a
    tensor, to clone) draw no deal, so observing and cloning leave the sequence as it
    was."""
    pyspiel = _pyspiel()

    def deals(observe):
        loaded = pyspiel.load_game("admiralty_black_fleet", {"players": 3, "seed": 5})
        out = []
        for _ in range(3):
            state = loaded.new_initial_state()
            if observe:
                fresh = state.observation_tensor(0), state.information_state_string(1)
                loaded.observation_tensor_shape()
                state.clone().observation_string(2)
            state.legal_actions()
            if observe:
                assert fresh == (state.observation_tensor(0), state.information_state_string(1))
            out.append(state.observation_string(0))
        return out

    first = deals(observe=False)
    assert first == deals(observe=True) and len(set(first)) == 3


def test_an_unplayed_states_observation_is_its_own():
    """Observing a fresh state deals it: its observation stays the same when another state
    of the game is dealt and played first, and when it is itself played."""
    pyspiel = _pyspiel()
    loaded = pyspiel.load_game("admiralty_jamaica", {"players": 2, "seed": 9})
    waiting = loaded.new_initial_state()
    seen = waiting.observation_string(0), waiting.observation_tensor(1)
    other = loaded.new_initial_state()
    assert other.observation_string(0) != seen[0]  # the next deal of the sequence
    other.apply_action(other.legal_actions()[0])
    assert (waiting.observation_string(0), waiting.observation_tensor(1)) == seen
    assert waiting.legal_actions() and waiting.observation_string(0) == seen[0]


def test_information_states_tell_apart_histories_that_the_observation_does_not():
    """Two Jamaica games that reach the same view of seat 0 by different answers of seat
    0 (its sealed card choice, which nobody else sees) have one observation string for
    seat 0 and two information state strings; seat 1's strings are equal, since seat 0's
    card is still hidden from it."""
    pyspiel = _pyspiel()
    loaded = pyspiel.load_game("admiralty_jamaica", {"players": 2, "seed": 1})
    state = loaded.new_initial_state()
    while state.action_to_string(state.current_player(), 0).startswith("card:") is False:
        state.apply_action(0)
    seat = state.current_player()
    first, second = state.clone(), state.clone()
    first.apply_action(0)
    second.apply_action(1)
    other = 1 - seat
    assert first.information_state_string(seat) != second.information_state_string(seat)
    assert first.information_state_string(other) == second.information_state_string(other)
    assert first.observation_string(other) == second.observation_string(other)
    assert first.observation_tensor(other) == second.observation_tensor(other)
    assert first.information_state_string(seat).startswith(first.observation_string(seat))


def test_openspiels_rl_environment_plays_a_game_on_the_observation_tensors():
    """OpenSpiel's RL environment (what its DQN and policy-gradient agents train in) takes
    the observation tensor where no information state tensor is offered."""
    _pyspiel()
    from open_spiel.python import rl_environment

    environment = rl_environment.Environment("admiralty_jamaica", players=2, round_cap=3)
    step = environment.reset()
    size = environment.observation_spec()["info_state"][0]
    moves = 0
    while not step.last():
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == size == encoding.size("jamaica")
        step = environment.step([step.observations["legal_actions"][player][-1]])
        moves += 1
    assert moves > 10
    assert sorted(step.rewards) in ([-1.0, 1.0], [0.0, 0.0])
