"""`check-bot --option`: every match of the games that have an option is played with it,
and the verdict says so; the games without it play as they are."""

from __future__ import annotations

import asyncio
import random

from e2e_helpers import ScriptedBot

from admiralty.referee.conformance import CheckPlan, check_bot
from admiralty.referee.launcher import free_port
from admiralty_sdk import start_server


class JamaicaBot(ScriptedBot):
    games = ("jamaica",)


def test_every_match_of_a_game_with_the_option_is_played_with_it():
    """round_cap=2 (the game is scored after round 2): no request the bot is sent is of a
    later round, and no check fails."""
    rng = random.Random(3)
    bot = JamaicaBot("capped", lambda request: rng.randrange(len(request.options)))

    async def main():
        port = free_port()
        server = await start_server(bot, port)
        try:
            plan = CheckPlan(5, matches=2, options={"round_cap": 2})
            return await check_bot(f"grpc://127.0.0.1:{port}", plan)
        finally:
            await server.stop(grace=None)

    report = asyncio.run(main())
    assert not report.failed, report.checks
    assert report.to_json()["options"] == {"round_cap": 2}
    rounds = {request.jamaica.round for request in bot.requests}
    assert rounds == {1, 2}


def test_an_option_goes_to_the_games_that_have_it_only():
    plan = CheckPlan(1, options={"round_cap": 6, "victory_cost": 20})
    assert plan.options_of("jamaica") == {"round_cap": 6}
    assert plan.options_of("black_fleet") == {"round_cap": 6, "victory_cost": 20}
    assert CheckPlan(1).options_of("blackbeard") == {}
