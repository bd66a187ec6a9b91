"""A single-agent Gymnasium environment over the engines: `AdmiraltyEnv(game)` seats the
agent at one seat and shipped bots, in this process, at the others.

    env = AdmiraltyEnv("jamaica", players=3, opponents="greedy")
    observation, info = env.reset(seed=7)

The match is the referee's own (`admiralty.referee.local`): the opponents are sent the
`DecideRequest`s they would be sent over the wire, and the agent's observation is its own
request encoded by `admiralty_sdk.encoding` (the vector a bot computes, and the research
adapters give). `info["action_mask"]` marks its legal options. The one reward comes at
the end (`pairwise_rewards` of the places); a game stopped by its `round_cap` is
truncated. An illegal action ends the episode with a reward of -1.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from admiralty.games import load_game
from admiralty.referee.local import load_bot, local_match
from admiralty.referee.match import Match, MatchSpec, checked_options
from admiralty.research import encoding, require
from admiralty.research.actions import ACTION_BOUNDS, check_players, pairwise_rewards
from admiralty_sdk import Bot
from admiralty_sdk.encoding import RequestEncoder
from admiralty_sdk.v1 import bot_pb2

np = require("numpy")
gymnasium = require("gymnasium")
Env: Any = gymnasium.Env  # loaded by `require`, so unknown to mypy

EXAMPLE_BOTS = Path(__file__).resolve().parents[3] / "example_bots"
"""Where the shipped bots are: `random` is `random_bot.py`, `greedy` the game's
`<game>_greedy.py`."""
OBSERVATION_BOUND = 1e6
"""Bounds of the observation Box, as in the PettingZoo environment."""
ILLEGAL_REWARD = -1.0


def opponent(game: str, name: str | Bot) -> Bot:
    """A bot from its name (`random`, `greedy`), a bot file's spec (`path.py [args]`, as
    `admiralty play --local` takes it), or a `Bot` already made."""
    if isinstance(name, Bot):
        return name
    files = {"random": "random_bot.py", "greedy": f"{game}_greedy.py"}
    return load_bot(EXAMPLE_BOTS / files[name] if name in files else name)


class _Agent(Bot):
    """The agent's seat: each request is handed to the environment, which answers it at
    its next `step`."""

    name = "gymnasium"
    version = "1.0"

    def __init__(self) -> None:
        self.asked: asyncio.Future[bot_pb2.DecideRequest] | None = None
        self.answer: asyncio.Future[int] | None = None

    async def decide(self, request: bot_pb2.DecideRequest) -> int:
        assert self.asked is not None
        self.answer = asyncio.get_running_loop().create_future()
        self.asked.set_result(request)
        return await self.answer


class AdmiraltyEnv(Env):
    """One seat of `game` (`seat`, 0 by default) for the agent; `opponents` (a name or
    bot for every other seat, or one per other seat in seat order) in the others."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        seat: int = 0,
        opponents: str | Bot | Sequence[str | Bot] = "random",
        options: dict[str, Any] | None = None,
    ):
        players = players or load_game(game).info.default_players
        check_players(game, players)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not one of the {players} seats")
        names = [opponents] * (players - 1) if isinstance(opponents, str | Bot) else opponents
        if len(names) != players - 1:
            raise ValueError(f"{players} seats take {players - 1} opponents, not {len(names)}")
        self.game, self.players, self.seat = game, players, seat
        self.game_options = checked_options(game, players, options)
        self.bots = [opponent(game, name) for name in names]
        self.observation_space = gymnasium.spaces.Box(
            -OBSERVATION_BOUND, OBSERVATION_BOUND, (encoding.size(game),), dtype=np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(ACTION_BOUNDS[game])
        self._seeds = random.Random(0)
        self._loop = asyncio.new_event_loop()
        self._agent = _Agent()
        self._match: Match | None = None
        self._task: asyncio.Task[Any] | None = None
        self._encoder = RequestEncoder(game)
        self._options = 0
        self._episodes = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """A new match: that of seed `seed`'s sequence (the next of the current sequence,
        that of seed 0 at first, without one)."""
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        self._stop()
        self._episodes += 1
        spec = MatchSpec(
            f"gymnasium-{self.game}-{self._episodes}",
            self.game,
            self._seeds.getrandbits(63),
            self.game_options,
        )
        bots = [*self.bots[: self.seat], self._agent, *self.bots[self.seat :]]
        self._match = self._loop.run_until_complete(local_match(spec, bots))
        self._task = self._loop.create_task(self._match.run())
        self._encoder = RequestEncoder(self.game)
        observation, info, over = self._next()
        if over:
            raise RuntimeError(f"the match ended before seat {self.seat} was asked anything")
        return observation, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._agent.answer is None or self._agent.answer.done():
            raise RuntimeError("reset() the environment first: the episode is over")
        action = int(action)
        if not 0 <= action < self._options:
            self._stop()
            observation = np.zeros(self.observation_space.shape, np.float32)
            info = {"action_mask": np.zeros(self.action_space.n, np.int8), "illegal": True}
            return observation, ILLEGAL_REWARD, True, False, info
        self._agent.answer.set_result(action)
        observation, info, over = self._next()
        if not over:
            return observation, 0.0, False, False, info
        assert self._match is not None
        state = self._match.state
        outcome = state.outcome()
        assert outcome is not None
        truncated = (state.view(None).get("outcome") or {}).get("reason") == "round_cap"
        reward = pairwise_rewards(outcome)[self.seat]
        return observation, reward, not truncated, truncated, info

    def close(self) -> None:
        self._stop()
        self._loop.close()

    def _next(self) -> tuple[Any, dict[str, Any], bool]:
        """Run the match until the agent is asked (its observation and mask) or the match
        ends (its last view, no option): the observation, the info, and whether it ended."""
        assert self._task is not None and self._match is not None
        asked: asyncio.Future[bot_pb2.DecideRequest] = self._loop.create_future()
        self._agent.asked = asked
        self._loop.run_until_complete(
            asyncio.wait({asked, self._task}, return_when=asyncio.FIRST_COMPLETED)
        )
        if asked.done():
            request = asked.result()
            self._options = len(request.options)
            vector, mask = self._encoder.encode(request)
            return vector, {"action_mask": mask}, False
        self._task.result()  # what the match raised, if it did
        self._options = 0
        encoder = self._encoder.encoder
        vector = encoder.encode(self._match.state.view(self.seat)).copy()
        return vector, {"action_mask": encoder.mask.copy()}, True

    def _stop(self) -> None:
        """Cancel the match under way, if any."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            self._loop.run_until_complete(asyncio.gather(task, return_exceptions=True))
