"""Search over the OpenSpiel games: OpenSpiel's own ISMCTS plays whole games through
`resample_from_infostate`, a search clone draws the future again where a plain clone
knows it, and states pickle and serialise."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from admiralty.research.actions import PLAYERS


def _pyspiel():
    import pyspiel

    import admiralty.research.openspiel_game  # noqa: F401  (registers the games)

    return pyspiel


def _played(state, actions):
    """`state` after answering with each of `actions` (an index of the legal ones)."""
    for action in actions:
        state.apply_action(state.legal_actions()[action % len(state.legal_actions())])
    return state


@pytest.mark.parametrize("game", list(PLAYERS))
def test_openspiels_ismcts_plays_whole_games(game):
    """Every decision of every seat is searched over worlds drawn by
    `resample_from_infostate`; ISMCTS asserts each one shows the seat its own information
    state, and the game ends with returns that add up to 0."""
    pyspiel = _pyspiel()
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    loaded = pyspiel.load_game(
        f"admiralty_{game}", {"players": PLAYERS[game].start + 1, "round_cap": 2, "seed": 4}
    )
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        loaded,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        uct_c=2.0,
        max_simulations=6,
        random_state=rng,
        allow_inconsistent_action_sets=True,
    )
    worlds = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    drawn = []

    def resample(state, player):
        drawn.append(state.resample_from_infostate(player, worlds))
        return drawn[-1]

    bot.set_resampler(resample)
    state = loaded.new_initial_state()
    searched = 0
    while not state.is_terminal():
        searched += len(state.legal_actions()) > 1
        state.apply_action(bot.step(state))
    assert searched > 3 and len(drawn) >= 6 * searched
    assert abs(sum(state.returns())) < 1e-9 and any(state.returns())


@pytest.mark.parametrize("game", list(PLAYERS))
def test_a_resampled_state_keeps_what_the_player_knows_and_redraws_the_rest(game):
    """The player's observation, information state and legal actions are the original's;
    what it cannot see differs between draws (the states' digests)."""
    pyspiel = _pyspiel()
    loaded = pyspiel.load_game(f"admiralty_{game}", {"players": PLAYERS[game].start, "seed": 2})
    state = _played(loaded.new_initial_state(), range(12))
    player = state.current_player()
    worlds = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    drawn = [state.resample_from_infostate(player, worlds) for _ in range(4)]
    for world in drawn:
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        assert world.history() == state.history()
    assert len({str(world) for world in drawn} | {str(state)}) == 5


def _next_dice(state):
    """The dice rolled for the next round of a Jamaica game, answering option 0 until then."""
    player = state.current_player()
    start = json.loads(state.observation_string(player))["round"]
    while json.loads(state.observation_string(player))["round"] == start:
        state.apply_action(0)
    return json.loads(state.observation_string(player))["dice"]["rolled"]


def test_a_plain_clone_knows_the_future_and_a_search_clone_draws_it_again():
    """Two plain clones roll the real game's next dice; search clones agree with the
    real game on all the player has seen, and roll dice of their own."""
    pyspiel = _pyspiel()
    loaded = pyspiel.load_game("admiralty_jamaica", {"players": 2, "seed": 3})
    state = _played(loaded.new_initial_state(), [0])
    player = state.current_player()
    searched = [state.clone_for_search(random.Random(seed)) for seed in range(6)]
    for clone in searched:
        assert clone.current_player() == player
        assert clone.observation_string(player) == state.observation_string(player)
        assert clone.information_state_string(player) == state.information_state_string(player)
    real = _next_dice(state.clone())
    assert _next_dice(state.clone()) == real
    assert len({tuple(_next_dice(clone)) for clone in searched}) > 2


@pytest.mark.parametrize("game", list(PLAYERS))
def test_states_pickle_and_deserialize(game):
    """A state played a few steps (a real one, and a search clone played on) comes back
    from pickle and from `serialize` with its history, every seat's observations and
    information states, and the same future."""
    pyspiel = _pyspiel()
    loaded = pyspiel.load_game(f"admiralty_{game}", {"players": PLAYERS[game].start, "seed": 6})
    real = _played(loaded.new_initial_state(), range(9))
    redrawn = _played(real.clone_for_search(random.Random(5)), range(4))
    for state in (real, redrawn):
        copies = [pickle.loads(pickle.dumps(state)), loaded.deserialize_state(state.serialize())]
        _check_copies(loaded, state, copies)


def _check_copies(loaded, state, copies):
    for copy in copies:
        assert copy.history() == state.history() and copy.move_number() == state.move_number()
        for seat in range(loaded.num_players()):
            assert copy.observation_string(seat) == state.observation_string(seat)
            assert copy.information_state_string(seat) == state.information_state_string(seat)
        assert str(_played(copy, range(20))) == str(_played(state.clone(), range(20)))
