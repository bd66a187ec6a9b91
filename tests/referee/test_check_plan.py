"""`check-bot --option`: every match of the games that have an option is played with it,
and the verdict says so; the games without it play as they are."""

from __future__ import annotations

import asyncio
import io
import random

from e2e_helpers import ScriptedBot
from rich.console import Console

from admiralty.cli.options import parse_options
from admiralty.console.conformance import print_conformance
from admiralty.referee.conformance import CheckPlan, Conformance, check_bot
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


def test_the_verdict_names_the_options_as_check_bot_reads_them_back():
    """`-o allow_dump_same_kind=true`, not Python's `True`, which `--option` would take
    for text; a list without spaces, one shell word."""
    options = {"allow_dump_same_kind": True, "victory_cost": [10, 20, 10]}
    console = Console(file=io.StringIO(), width=200)
    print_conformance(console, Conformance("bot", "b", "1", ["jamaica"], 5, [], options))
    last = console.file.getvalue().splitlines()[-1]
    assert last.endswith("seed 5 -o allow_dump_same_kind=true -o victory_cost=[10,20,10]")
    assert parse_options(last.split(" -o ")[1:]) == options
