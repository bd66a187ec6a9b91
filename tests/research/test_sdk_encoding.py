"""The SDK's encoder gives a bot, from the `DecideRequest`s it receives over gRPC, exactly
the vectors and masks the PettingZoo environment gives for the same decisions."""

from __future__ import annotations

import asyncio
import random

import numpy as np
import pytest
from e2e_helpers import play

from admiralty_sdk import Bot
from admiralty_sdk.encoding import RequestEncoder, game_of

MATCHES = [("jamaica", 3), ("black_fleet", 3), ("blackbeard", 3)]


class RecordingBot(Bot):
    """Answers at random (seeded) and keeps every request with its answer."""

    def __init__(self, seed: int):
        self.name = f"recorder-{seed}"
        self.rng = random.Random(seed)
        self.asked: list[tuple[object, int]] = []

    def decide(self, request) -> int:
        answer = self.rng.randrange(len(request.options))
        self.asked.append((request, answer))
        return answer


def _replay(environment, bots):
    """Play the deal again through the environment, answering as each bot answered (the
    referee's own answer, option 0, where it asked nobody); yields per bot request the
    bot's request and the environment's observation."""
    environment.reset(seed=5)
    queues = [list(bot.asked) for bot in bots]
    for agent in environment.agent_iter():
        _, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        request = environment.table.request()
        if len(request.options) == 1 and not request.must_ask:
            environment.step(0)
            continue
        wire, answer = queues[request.seat].pop(0)
        yield wire, environment.observe(agent)
        environment.step(answer)
    assert queues == [[] for _ in bots]


@pytest.mark.parametrize(("game", "players"), MATCHES)
def test_a_bots_requests_encode_as_the_environments_observations(game, players):
    from admiralty.research.pettingzoo_env import raw_env

    environment = raw_env(game, players)
    environment.reset(seed=5)
    bots = [RecordingBot(seat) for seat in range(players)]
    report = asyncio.run(play(bots, game=game, seed=environment.table.seed))
    assert report.incidents == []
    encoders = [RequestEncoder(game) for _ in range(players)]
    compared = 0
    for wire, observed in _replay(environment, bots):
        assert game_of(wire) == game
        vector, mask = encoders[wire.seat].encode(wire)
        assert np.array_equal(mask, observed["action_mask"])
        assert np.array_equal(vector, observed["observation"]), _difference(
            game, vector, observed["observation"]
        )
        compared += 1
    assert compared == sum(len(bot.asked) for bot in bots) > 50


def _difference(game, wire, env) -> list[tuple[str, float, float]]:
    """The first names whose floats differ: the failure's explanation."""
    from admiralty_sdk.encoding import names

    return [(names(game)[i], wire[i], env[i]) for i in np.flatnonzero(wire != env)[:8]]
