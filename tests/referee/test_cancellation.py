"""Ctrl-C cancels the match task while it waits on a bot. gRPC may then end the pending call
with a CANCELLED error rather than let the cancellation through; the referee must treat it
as the cancellation it is, not as the bot's failure, or the match would play on."""

from __future__ import annotations

import asyncio
import contextlib

import grpc
import pytest

from admiralty.referee import InProcessSeat
from admiralty.referee.match import Match, MatchSpec
from admiralty_sdk.v1 import bot_pb2


class CallCutBot(InProcessSeat):
    """Waits on every decision; when the wait is cancelled it fails the way a gRPC call
    cut by its caller can: with a CANCELLED status."""

    name = "cut"

    def __init__(self) -> None:
        self.asked = 0

    async def decide(self, message, timeout):
        self.asked += 1
        try:
            await asyncio.sleep(timeout)
        except asyncio.CancelledError:
            raise grpc.aio.AioRpcError(
                grpc.StatusCode.CANCELLED,
                grpc.aio.Metadata(),
                grpc.aio.Metadata(),
                "Locally cancelled",
            ) from None
        raise AssertionError("the test cancels before the deadline")


def cancel_at_first_ask(bots: list[CallCutBot], name: str) -> Match:
    """Run a match of `bots` and cancel its task (Ctrl-C) once a bot has been asked; the
    task must end cancelled."""

    async def main():
        match = Match(MatchSpec(name, "jamaica", 3, deadline=30.0), bots, wire_id=name)
        task = asyncio.ensure_future(match.run())
        while not any(bot.asked for bot in bots):
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return match

    return asyncio.run(main())


def test_a_call_cut_by_ctrl_c_cancels_the_match_instead_of_counting_against_the_bot():
    bots = [CallCutBot(), CallCutBot()]
    match = cancel_at_first_ask(bots, "cut")
    assert sum(bot.asked for bot in bots) == 1 and match.incidents == []


class SwallowingBot(CallCutBot):
    """Answers option 0 even when its wait is cancelled: the cancellation is lost on the
    way, as it can be when a call completes just as it is cancelled."""

    name = "swallow"

    async def decide(self, request, timeout):
        message = bot_pb2.DecideRequest.FromString(request)
        self.asked += 1
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(timeout)
        return bot_pb2.DecideResponse(request_id=message.request_id, option_index=0)


def test_a_cancellation_lost_on_the_way_still_stops_the_match_at_the_next_decision():
    bots = [SwallowingBot(), SwallowingBot()]
    cancel_at_first_ask(bots, "lost")
    assert sum(bot.asked for bot in bots) == 1


class RestartedServerBot(CallCutBot):
    """Its server stops while answering its third decision (in-flight calls end CANCELLED,
    as `server.stop(grace=None)` ends them) and is back at once; otherwise answers 0."""

    name = "restarted"

    def __init__(self) -> None:
        super().__init__()
        self.received: list[bot_pb2.DecideRequest] = []

    async def decide(self, request, timeout):
        message = bot_pb2.DecideRequest.FromString(request)
        self.received.append(message)
        self.asked += 1
        if self.asked == 3:
            raise grpc.aio.AioRpcError(
                grpc.StatusCode.CANCELLED, grpc.aio.Metadata(), grpc.aio.Metadata(), "CANCELLED"
            )
        return bot_pb2.DecideResponse(request_id=message.request_id, option_index=0)


def test_a_call_cut_by_the_bots_own_server_stopping_is_asked_again_not_charged():
    """Not a cancellation of the match: the call broke, so it is asked once more with the
    same id, and a bot back in time loses nothing (no incident)."""
    bots = [RestartedServerBot(), RestartedServerBot()]
    match = Match(MatchSpec("restart", "jamaica", 3, deadline=30.0), bots, wire_id="restart")
    asyncio.run(match.run())
    assert match.state.outcome() is not None and match.incidents == []
    assert all(bot.asked >= 4 for bot in bots)
    for bot in bots:
        cut, again = bot.received[2], bot.received[3]
        assert 0 < again.deadline_ms <= cut.deadline_ms == 30_000
        again.deadline_ms = cut.deadline_ms
        assert again == cut  # the same request, its events and all, for the time left
