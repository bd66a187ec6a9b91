"""The single-agent Gymnasium environment: Gymnasium's own checker passes for every game,
the shipped bots play the other seats in process, and episodes end as the game does."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from admiralty.research.actions import PLAYERS
from admiralty.research.gymnasium_env import AdmiraltyEnv
from admiralty_sdk import Bot


@pytest.fixture
def make():
    """`AdmiraltyEnv(...)`, closed after the test."""
    made = []

    def env(*args, **kwargs):
        made.append(AdmiraltyEnv(*args, **kwargs))
        return made[-1]

    yield env
    for env in made:
        env.close()


def episode(env, seed, pick=0):
    """(agent's observations, the final reward, terminated, truncated), answering with
    the legal option at `pick` of the mask's (a random one for a Generator)."""
    observation, info = env.reset(seed=seed)
    seen = [observation]
    while True:
        legal = np.flatnonzero(info["action_mask"])
        action = pick.choice(legal) if isinstance(pick, np.random.Generator) else legal[pick]
        observation, reward, terminated, truncated, info = env.step(action)
        seen.append(observation)
        if terminated or truncated:
            return seen, reward, terminated, truncated


@pytest.mark.parametrize("game", list(PLAYERS))
def test_gymnasiums_env_checker_passes(game, make):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker warns of what it finds amiss
        check_env(make(game, options={"round_cap": 3}), skip_render_check=True)


@pytest.mark.parametrize("game", list(PLAYERS))
def test_the_agent_plays_out_a_game_against_greedy_bots(game, make):
    """Every observation lies in the space, the mask marks the options asked, and a game
    stopped by its round cap is truncated, with the reward of the places it stopped at."""
    env = make(
        game, players=PLAYERS[game].start, seat=1, opponents="greedy", options={"round_cap": 4}
    )
    seen, reward, terminated, truncated = episode(env, 5, np.random.default_rng(0))
    assert len(seen) > 5 and all(env.observation_space.contains(o) for o in seen)
    assert truncated and not terminated and -1.0 <= reward <= 1.0


def test_a_whole_game_terminates_with_the_reward_of_its_places(make):
    """Jamaica for two ends by its rules: the winner gets +1, the loser -1."""
    env = make("jamaica", players=2)
    _, reward, terminated, truncated = episode(env, 3, np.random.default_rng(1))
    assert terminated and not truncated and reward in (-1.0, 1.0)


def test_episodes_are_a_function_of_the_seed_and_the_opponents(make):
    """The same seed replays the episode exactly; greedy opponents play it otherwise than
    random ones."""
    runs = {}
    for name in ("random", "greedy"):
        env = make("black_fleet", opponents=name, options={"round_cap": 2})
        runs[name] = [np.concatenate(episode(env, 11)[0]) for _ in range(2)]
    for first, second in runs.values():
        assert np.array_equal(first, second)
    assert not np.array_equal(runs["random"][0], runs["greedy"][0])


class Counting(Bot):
    """Plays the first option and counts the requests it is sent."""

    name = "counting"

    def __init__(self):
        self.asked = 0

    def decide(self, request) -> int:
        self.asked += 1
        return 0


def test_opponents_are_bots_sent_their_requests(make):
    env = make("jamaica", players=3, opponents=[Counting(), "random"], options={"round_cap": 4})
    episode(env, 2)
    assert env.bots[0].asked > 3


def test_an_illegal_action_ends_the_episode_with_a_penalty(make):
    env = make("jamaica", players=2)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    assert env.reset(seed=1)[0].shape == env.observation_space.shape


def test_opponents_must_fill_the_other_seats():
    with pytest.raises(ValueError, match="take 2 opponents"):
        AdmiraltyEnv("jamaica", players=3, opponents=["random"])
