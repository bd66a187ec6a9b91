"""The PettingZoo environments pass PettingZoo's own API and seed tests, replay a deal
from its seed, render through the console, and show each agent only its seat's view."""

from __future__ import annotations

import sys

import pytest

from admiralty.research.actions import PLAYERS


def _modules():
    """PettingZoo's test functions and our environments: an ImportError naming the extra
    fails the test when the extra is missing (CI installs it with `dev`)."""
    from pettingzoo.test import api_test, seed_test

    from admiralty.research import pettingzoo_env

    return api_test, seed_test, pettingzoo_env


DEFAULT = [(game, PLAYERS[game].start) for game in PLAYERS]
ALL = [(game, players) for game, counts in PLAYERS.items() for players in counts]
SOAK = [case for case in ALL if case not in DEFAULT]


def _passes_pettingzoo_tests(game, players):
    api_test, seed_test, pettingzoo_env = _modules()
    api_test(pettingzoo_env.env(game, players, render_mode="ansi"), num_cycles=1000)
    seed_test(lambda: pettingzoo_env.env(game, players), num_cycles=500)


@pytest.mark.parametrize(("game", "players"), DEFAULT)
def test_pettingzoo_api_and_seed_tests_pass(game, players):
    _passes_pettingzoo_tests(game, players)


@pytest.mark.soak
@pytest.mark.parametrize(("game", "players"), SOAK)
def test_pettingzoo_api_and_seed_tests_pass_for_every_player_count(game, players):
    _passes_pettingzoo_tests(game, players)


def _play(environment, seed):
    """A game played with the first legal action; the (agent, observation, reward) trail."""
    environment.reset(seed=seed)
    trail = []
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        trail.append((agent, observation["observation"].tobytes(), reward))
        mask = observation["action_mask"]
        environment.step(None if terminated or truncated else int(mask.argmax()))
    return trail


def test_reset_with_a_seed_replays_the_deal_and_without_one_deals_the_next():
    _, _, pettingzoo_env = _modules()
    environment = pettingzoo_env.env("jamaica", 2, options={"round_cap": 6})
    first = _play(environment, seed=11)
    assert _play(environment, seed=11) == first
    assert _play(environment, seed=12) != first
    deals = []
    for _ in range(2):
        environment.reset(seed=11)
        environment.reset()
        deals.append(environment.unwrapped.table.state.digest())
    environment.reset(seed=11)
    assert deals[0] == deals[1] != environment.unwrapped.table.state.digest()
    final = {agent: reward for agent, _, reward in first[-2:]}
    assert sorted(final.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_only_the_agent_asked_has_an_info_its_own_view_and_request():
    """`infos` never holds a seat's private view for another agent to read: the agent
    asked has its own view and request, every other agent an empty info."""
    _, _, pettingzoo_env = _modules()
    environment = pettingzoo_env.raw_env("black_fleet", 3)
    environment.reset(seed=2)
    for _ in range(30):
        state, asked = environment.table.state, environment.agent_selection
        seat = environment.possible_agents.index(asked)
        assert environment.infos[asked]["view"] == state.view(seat)
        assert [o["key"] for o in environment.infos[asked]["request"]["options"]] == [
            option.key for option in state.request_for(seat).options
        ]
        assert all(info == {} for agent, info in environment.infos.items() if agent != asked)
        environment.step(0)


def test_a_game_stopped_by_its_round_cap_is_truncated_not_terminated():
    """Rewards still come from the places; every agent is truncated, none terminated. A
    game that ends by its rules terminates."""
    _, _, pettingzoo_env = _modules()
    for cap, ended in ((2, "truncations"), (None, "terminations")):
        options = {"round_cap": cap} if cap else None
        environment = pettingzoo_env.raw_env("jamaica", 2, options=options)
        environment.reset(seed=4)
        while not any(environment.terminations.values()) and not any(
            environment.truncations.values()
        ):
            environment.step(0)
        other = "terminations" if ended == "truncations" else "truncations"
        assert all(getattr(environment, ended).values()), cap
        assert not any(getattr(environment, other).values()), cap
        assert sorted(environment.rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_render_shows_the_public_view_through_the_console_renderer(capsys):
    _, _, pettingzoo_env = _modules()
    environment = pettingzoo_env.raw_env("blackbeard", 2, render_mode="ansi")
    environment.reset(seed=1)
    text = environment.render()
    assert "player_0" in text and "player_1" in text
    human = pettingzoo_env.raw_env("jamaica", 2, render_mode="human")
    human.reset(seed=1)
    assert human.render() is None and "Jamaica" in capsys.readouterr().out


def test_a_missing_extra_names_the_install_line(monkeypatch):
    from admiralty.research import require

    for module in ("pettingzoo", "pettingzoo.utils.wrappers"):
        monkeypatch.setitem(sys.modules, module, None)  # as if never installed
        with pytest.raises(
            ImportError,
            match=rf"{module} is missing: pip install "
            r"'admiralty\[pettingzoo\]'",
        ):
            require(module)
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(ImportError, match=r"pip install 'admiralty\[openspiel\]'"):
        require("pyspiel")


def test_an_illegal_action_ends_the_game_with_a_penalty_for_its_agent():
    _, _, pettingzoo_env = _modules()
    environment = pettingzoo_env.env("jamaica", 2)
    environment.reset(seed=3)
    agent = environment.agent_selection
    observation, *_ = environment.last()
    illegal = int(observation["action_mask"].argmin())
    assert observation["action_mask"][illegal] == 0
    environment.step(illegal)
    assert all(environment.terminations.values())
    assert environment.rewards[agent] == -1


def test_an_action_outside_the_space_is_refused_before_the_game_sees_it():
    """`env`'s bounds check: the action space takes the plain and numpy ints of
    `range(bound)` and nothing else."""
    _, _, pettingzoo_env = _modules()
    import numpy as np

    environment = pettingzoo_env.env("black_fleet", 3)
    environment.reset(seed=1)
    space = environment.action_space(environment.agent_selection)
    assert all(space.contains(action) for action in (0, 86, True, np.int64(86)))
    assert not any(space.contains(action) for action in (87, -1, 1.0, "1", np.int64(87)))
    with pytest.raises(AssertionError):
        environment.step(87)


def test_a_sealed_choice_is_hidden_from_the_seats_asked_after_it():
    """Jamaica's card choice is sealed: two games that differ only in the first seat's
    chosen card look the same to the next seat asked (observation and info)."""
    _, _, pettingzoo_env = _modules()
    games = [pettingzoo_env.raw_env("jamaica", 3) for _ in range(2)]
    for game in games:
        game.reset(seed=8)
        while game.infos[game.agent_selection]["request"]["kind"] != "choose_card":
            game.step(0)
    first = games[0].agent_selection
    for choice, game in enumerate(games):
        game.step(choice)
    nxt = games[0].agent_selection
    assert nxt == games[1].agent_selection != first
    assert games[0].table.state.digest() != games[1].table.state.digest()
    seen = [(game.observe(nxt)["observation"].tobytes(), game.infos[nxt]) for game in games]
    assert seen[0] == seen[1]


def test_a_sealed_window_shows_each_seat_its_view_from_before_anyone_answered():
    """Jamaica's card choice: the referee asks every seat at once, so the seat asked
    second sees its view from before the first chose (the first's card still in hand,
    not yet marked as chosen), whatever the engine shows meanwhile."""
    _, _, pettingzoo_env = _modules()
    game = pettingzoo_env.raw_env("jamaica", 3)
    game.reset(seed=8)
    while game.infos[game.agent_selection]["request"]["kind"] != "choose_card":
        game.step(0)
    first = game.possible_agents.index(game.agent_selection)
    before = game.table.state.view((first + 1) % 3)
    game.step(0)
    second = game.possible_agents.index(game.agent_selection)
    assert second == (first + 1) % 3
    assert game.table.state.view(second) != before  # the engine shows the first has chosen
    assert game.infos[game.agent_selection]["view"] == before
