"""A bot is never sent more than its client's `max_calls` at once, over real gRPC: the
calls past it wait for one to end, and the wait is off the seat's clock."""

from __future__ import annotations

import asyncio
import time

from e2e_helpers import ScriptedBot

from admiralty.referee import BotClient, MatchSpec
from admiralty.referee.launcher import free_port
from admiralty.referee.match import Match
from admiralty_sdk import start_server


async def _served(bot: ScriptedBot, max_calls: int) -> tuple[object, BotClient]:
    port = free_port()
    server = await start_server(bot, port)
    client = BotClient(f"127.0.0.1:{port}", max_calls=max_calls)
    await client.hello()
    return server, client


async def _matches(bot: ScriptedBot, max_calls: int, count: int, clock=None) -> list:
    """`count` two-seat Jamaica matches at once, every seat the one served `bot`."""
    server, client = await _served(bot, max_calls)
    try:
        matches = [
            Match(
                MatchSpec(f"slots-{i}", "jamaica", i, {"round_cap": 2}, 30.0, 1e6),
                [client, client],
                clock=clock or time.monotonic,
            )
            for i in range(count)
        ]
        return await asyncio.gather(*(match.run() for match in matches))
    finally:
        await client.close()
        await server.stop(grace=None)


def test_calls_past_the_limit_wait_and_every_match_still_ends():
    """Six matches want up to twelve answers at once (their sealed card choices); the bot
    is never asked more than three at a time, and every match ends without an incident."""
    open_now, most = 0, 0

    async def answer(request) -> int:
        nonlocal open_now, most
        open_now += 1
        most = max(most, open_now)
        await asyncio.sleep(0.002)  # long enough for the other matches to ask meanwhile
        open_now -= 1
        return 0

    reports = asyncio.run(_matches(ScriptedBot("counted", answer), 3, 6))
    assert most == 3
    assert all(not report.incidents and report.round_trips > 0 for report in reports)


def test_a_call_waiting_for_its_slot_costs_its_seat_no_time():
    """Under a clock that moves only when the bot answers (one second an answer), with one
    call at a time, every answer took the seat exactly one second: the clock started when
    its call did, not while it waited behind another seat's or another match's call."""
    now = [0.0]

    def answer(request) -> int:
        now[0] += 1.0
        return 0

    reports = asyncio.run(_matches(ScriptedBot("slow", answer), 1, 3, clock=lambda: now[0]))
    latencies = [ms for report in reports for seat in report.latencies_ms for ms in seat]
    assert len(latencies) > 20
    assert set(latencies) == {1000.0}
