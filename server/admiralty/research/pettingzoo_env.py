"""PettingZoo AEC environments over the engines: `env(game, players)` (wrapped) and
`raw_env(game, players)`.

Agents are `player_0` ... `player_{n-1}`, seat for seat. The agent selected is the seat
the engine asks now (`Table.request`); its observation is a dict of `observation` (the
seat's view encoded by `admiralty.research.encoding`) and `action_mask` (the legal
options of `admiralty.research.actions`). `infos[agent]` holds the seat's raw `view`
and, for the agent asked, the `request` (kind, prompt and option keys and labels).
Rewards come once, at the end: `pairwise_rewards` of the places. `reset(seed=s)` replays
the same deal; `reset()` without a seed deals the next game of the seed sequence.
"""

from __future__ import annotations

import random
from io import StringIO
from typing import Any

from rich.console import Console
from rich.text import Text

from admiralty.console.screen import SEAT_STYLES, renderer_for
from admiralty.games import load_game
from admiralty.research import encoding, require
from admiralty.research.actions import ACTION_BOUNDS, Table, check_players

np = require("numpy")
spaces = require("gymnasium").spaces
AECEnv: Any = require("pettingzoo").AECEnv  # loaded by `require`, so unknown to mypy
wrappers = require("pettingzoo.utils.wrappers")

OBSERVATION_BOUND = 1e6
"""Bounds of the observation Box: counts, positions and scores lie far inside them."""


def env(
    game: str,
    players: int | None = None,
    render_mode: str | None = None,
    options: dict[str, Any] | None = None,
) -> Any:
    """The environment with PettingZoo's usual checks: illegal moves end the game for the
    mover with a -1 reward, and actions out of range or after the end raise."""
    wrapped = raw_env(game, players, render_mode, options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # PettingZoo names the unwrapped environment so
    """One game of `game` for `players` seats (the game's default count when None)."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        options: dict[str, Any] | None = None,
    ):
        super().__init__()
        players = players or load_game(game).info.default_players
        check_players(game, players)
        self.game, self.players, self.game_options = game, players, options
        self.metadata = {**self.metadata, "name": f"admiralty_{game}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._spaces = {agent: _spaces(game) for agent in self.possible_agents}
        self._seeds = random.Random(0)
        self.table: Table | None = None

    def observation_space(self, agent: str) -> Any:
        return self._spaces[agent][0]

    def action_space(self, agent: str) -> Any:
        return self._spaces[agent][1]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.table = Table(self.game, self.players, self._seeds.getrandbits(63), self.game_options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._refresh()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._table()
        self._cumulative_rewards[agent] = 0.0
        table.apply(int(action))  # type: ignore[arg-type]
        if table.over():
            for seat, reward in enumerate(table.rewards()):
                self.rewards[self.possible_agents[seat]] = reward
                self.terminations[self.possible_agents[seat]] = True
        self._refresh()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        table, seat = self._table(), self.possible_agents.index(agent)
        vector = encoding.encode(self.game, table.state.view(seat), self.players)
        return {
            "observation": np.asarray(vector, dtype=np.float32),
            "action_mask": np.asarray(table.mask(seat), dtype=np.int8),
        }

    def render(self) -> str | None:
        """The public view through the console's renderer: returned as text ("ansi") or
        printed ("human")."""
        if self.render_mode is None:
            return None
        text = _rendered(self.game, self._table().state.view(None), self.players)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.table = None

    def _table(self) -> Table:
        if self.table is None:
            raise RuntimeError("reset() the environment first")
        return self.table

    def _refresh(self) -> None:
        """Select the seat asked now (at the end, the first agent still to be removed) and
        set every agent's info: its view, and the request for the one asked."""
        table = self._table()
        request = table.request()
        self.infos = {
            agent: {"view": table.state.view(seat)}
            for seat, agent in enumerate(self.possible_agents)
            if agent in self.agents
        }
        if request is not None:
            self.agent_selection = self.possible_agents[request.seat]
            self.infos[self.agent_selection]["request"] = _request_json(request)
        elif self.agents:
            self.agent_selection = self.agents[0]


def _request_json(request: Any) -> dict[str, Any]:
    return {
        "kind": request.kind,
        "prompt": request.prompt,
        "options": [{"key": o.key, "label": o.label} for o in request.options],
    }


def _spaces(game: str) -> tuple[Any, Any]:
    """Alike for every agent and player count; each agent has its own (seeded apart)."""
    length = encoding.size(game)
    observation = spaces.Dict(
        {
            "observation": spaces.Box(
                -OBSERVATION_BOUND, OBSERVATION_BOUND, (length,), dtype=np.float32
            ),
            "action_mask": spaces.Box(0, 1, (ACTION_BOUNDS[game],), dtype=np.int8),
        }
    )
    return observation, spaces.Discrete(ACTION_BOUNDS[game])


def _rendered(game: str, view: dict[str, Any], players: int) -> str:
    renderer = renderer_for(game)
    names = [
        Text(f"player_{seat}", style=SEAT_STYLES[seat % len(SEAT_STYLES)])
        for seat in range(players)
    ]
    out = StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    console.print(renderer.header(view, names))
    console.print(renderer.body(view, load_game(game).static_info(), names, 120))
    return out.getvalue()
