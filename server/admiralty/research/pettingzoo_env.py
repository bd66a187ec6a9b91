"""PettingZoo AEC environments over the engines: `env(game, players)` (wrapped) and
`raw_env(game, players)`.

Agents are `player_0` ... `player_{n-1}`, seat for seat. The agent selected is the seat
the engine asks now (`Table.request`); its observation is a dict of `observation` (the
seat's view and its request's options, encoded by `admiralty_sdk.encoding`) and
`action_mask` (the legal options of `admiralty.research.actions`). Observations are
encoded when asked for, by one encoder per seat that writes again only what changed.
Only the agent asked has an info: its raw `view` and its `request` (kind, prompt and
option keys and labels). Rewards come once, at the end: `pairwise_rewards` of the
places; a game stopped by its `round_cap` is truncated rather than terminated.
`reset(seed=s)` replays the same deal; `reset()` without a seed deals the next game of
the seed sequence.
"""

from __future__ import annotations

import operator
import random
from io import StringIO
from typing import Any

from rich.console import Console
from rich.text import Text

from admiralty.console.screen import SEAT_STYLES, renderer_for
from admiralty.games import Request, load_game
from admiralty.research import encoding, require
from admiralty.research.actions import ACTION_BOUNDS, Table, check_players
from admiralty_sdk.encoding import Encoder

np = require("numpy")
spaces = require("gymnasium").spaces
AECEnv: Any = require("pettingzoo").AECEnv  # loaded by `require`, so unknown to mypy
wrappers = require("pettingzoo.utils.wrappers")
TerminateIllegalWrapper: Any = wrappers.TerminateIllegalWrapper
AssertOutOfBoundsWrapper: Any = wrappers.AssertOutOfBoundsWrapper
OrderEnforcingWrapper: Any = wrappers.OrderEnforcingWrapper
Discrete: Any = spaces.Discrete

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
    wrapped = _TerminateIllegal(wrapped, illegal_reward=-1)
    wrapped = _AssertOutOfBounds(wrapped)
    return _OrderEnforcing(wrapped)


def _forwarded(name: str) -> property:
    return property(operator.attrgetter(f"env.{name}"))


class _Forwarding:
    """Reads the attributes a step uses (some fifteen times a step, in `last`, `step` and
    `agent_iter`) from the wrapped environment by properties. PettingZoo's wrappers
    forward every attribute by `__getattr__`, which Python 3.11 only calls once the
    ordinary lookup has raised an AttributeError: through three wrappers a read cost
    three raised errors, some 5 µs, which made the wrapped environment half again as
    slow as the bare one. Before `reset`, the property's AttributeError still leads to
    the wrapper's own `__getattr__` and its message."""

    agent_selection = _forwarded("agent_selection")
    agents = _forwarded("agents")
    rewards = _forwarded("rewards")
    _cumulative_rewards = _forwarded("_cumulative_rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")


class _TerminateIllegal(_Forwarding, TerminateIllegalWrapper):
    pass


class _AssertOutOfBounds(_Forwarding, AssertOutOfBoundsWrapper):
    pass


class _OrderEnforcing(_Forwarding, OrderEnforcingWrapper):
    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's own outermost wrapper shows itself


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
        self._encoders = [Encoder(game) for _ in range(players)]
        self._observed: dict[str, dict[str, Any]] = {}
        self._request: Request | None = None
        self._view: dict[str, Any] = {}

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
            ends = self.truncations if table.truncated() else self.terminations
            for seat, reward in enumerate(table.rewards()):
                self.rewards[self.possible_agents[seat]] = reward
                ends[self.possible_agents[seat]] = True
        self._refresh()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's encoded view (with its options, if it is asked) and action mask:
        fresh arrays, encoded once per step."""
        observed = self._observed.get(agent)
        if observed is None:
            table, seat = self._table(), self.possible_agents.index(agent)
            request = self._request
            encoder = self._encoders[seat]
            if request is not None and request.seat == seat:
                encoder.encode(self._view, request.kind, request.options)
            else:
                encoder.encode(table.view(seat))
            observed = {"observation": encoder.vector.copy(), "action_mask": encoder.mask.copy()}
            self._observed[agent] = observed
        return observed

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
        give it, alone, an info: its view and its request."""
        table = self._table()
        self._request = request = table.request()
        self._observed = {}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        if request is not None:
            self.agent_selection = agent = self.possible_agents[request.seat]
            self._view = table.view(request.seat)
            self.infos[agent] = {"view": self._view, "request": _request_json(request)}
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
    return observation, _Actions(ACTION_BOUNDS[game])


class _Actions(Discrete):
    """`Discrete` whose `contains` takes a plain int at once: gymnasium's builds numpy's
    integer limits at each call (~5 µs), and PettingZoo's `AssertOutOfBoundsWrapper`
    asks it at every step."""

    def contains(self, x: Any) -> bool:
        if x.__class__ is int:
            return bool(self.start <= x < self.start + self.n)
        return bool(super().contains(x))


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
