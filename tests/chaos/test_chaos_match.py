"""Adversarial in-process SDK bots against the match loop over real gRPC: hung, out of
time, broken (answers that keep failing), unreachable, bouncing (the connection drops and
comes back), or saying too much in Hello."""

from __future__ import annotations

import asyncio
import gzip
import json

import pytest
from chaos_helpers import EXPECTED, IN_PROCESS, Expected, check_match
from e2e_helpers import ScriptedBot, play, serving

from admiralty.referee import BotClient, FailurePolicy, MatchSpec, run_match, verify_record
from admiralty.referee.clients import HELLO_LIMITS, HelloError
from admiralty.referee.launcher import free_port
from admiralty.referee.match import BROKEN_SHARE_FROM
from admiralty_sdk import start_server


def first_option(request) -> int:
    return 0


def hang(request):
    return asyncio.Event().wait()


def incidents(report) -> list[dict]:
    return [incident.to_json() for incident in report.incidents]


@pytest.mark.parametrize("policy", list(FailurePolicy))
def test_a_hung_bot_is_retired_after_three_timeouts_and_placed_last(policy):
    """Placed last whatever the policy, which only plays its moves; under forfeit its first
    timeout already ends its play."""
    bots = [ScriptedBot("hung", hang), ScriptedBot("ok", first_option)]
    report = asyncio.run(play(bots, seed=4, deadline=1.0, policy=policy))
    forfeit = policy is FailurePolicy.FORFEIT  # which ends its play at the first timeout
    timeouts = 1 if forfeit else 3
    assert check_match(["hang", "none"], report.places, incidents(report), forfeit=forfeit) == {
        "timeout": timeouts
    }
    assert len(bots[0].requests) == timeouts  # never asked again
    assert report.forfeited == [0] and report.places == [2, 1]


def test_a_seat_whose_time_bank_runs_out_is_retired_and_placed_last():
    """Each answer is in time, but together they spend the bank: then the seat is out.
    (The quick seat's bank, as large, lasts its whole match.)"""
    bots = [
        ScriptedBot("slow", lambda r: asyncio.sleep(0.6, result=0)),
        ScriptedBot("ok", first_option),
    ]
    report = asyncio.run(play(bots, seed=4, deadline=2.0, time_bank=2.0))
    assert {i.kind for i in report.incidents} == {"timeout"}
    assert {i.seat for i in report.incidents} == {0}
    assert "time bank exhausted" in report.incidents[-1].detail
    assert report.forfeited == [0] and report.places == [2, 1]
    # a few 0.6 s answers spend the 2 s bank; it is never asked again after that
    assert len(bots[0].requests) == len(report.latencies_ms[0]) < 10


@pytest.mark.parametrize("policy", [FailurePolicy.DEFAULT, FailurePolicy.RANDOM])
@pytest.mark.parametrize("fault", ["garbage", "stale"])
def test_a_bot_whose_every_answer_fails_is_broken_after_three_and_placed_last(policy, fault):
    """Answering only invalid indexes (or another request's id) would hand the seat the
    policy's moves for the whole match, and the engine's defaults beat random play: after
    three failed answers in a row the seat is retired and placed last instead."""
    bots = [IN_PROCESS[fault][0](), ScriptedBot("ok", first_option)]
    report = asyncio.run(play(bots, seed=4, policy=policy))
    (kind,) = EXPECTED[fault].kinds
    assert check_match([fault, "none"], report.places, incidents(report)) == {kind: 3}
    assert report.incidents[-1].detail == (
        "3 failed answers in a row: the bot is broken; the seat is played by the policy "
        "from now on and placed last"
    )
    assert len(report.latencies_ms[0]) == 3  # one per call: never asked again
    assert report.forfeited == [0] and report.places == [2, 1]


def fails_unless_third(request) -> int:
    """Two answers of three illegal, never three in a row."""
    return 0 if int(request.request_id) % 3 == 0 else 99


def fails_every_second(request) -> int:
    """Every second answer illegal: half of them, never more."""
    return 99 if int(request.request_id) % 2 == 0 else 0


def test_a_bot_most_of_whose_answers_fail_is_broken_once_asked_enough():
    """Never three failures in a row, but more than half of its answers: judged once it
    has been asked `BROKEN_SHARE_FROM` times (7 of 10 then), not at its first failures."""
    bots = [ScriptedBot("two-of-three", fails_unless_third), ScriptedBot("ok", first_option)]
    report = asyncio.run(play(bots, seed=4))
    assert len(bots[0].requests) == BROKEN_SHARE_FROM == 10
    assert [i.kind for i in report.incidents] == ["illegal"] * 7
    assert report.incidents[-1].detail.startswith(
        "7 of its 10 answers failed: the bot is broken; the seat is played by the policy"
    )
    assert report.forfeited == [0] and report.places == [2, 1]


def test_a_bot_half_of_whose_answers_fail_plays_on():
    """Half is not more than half: every failure is an incident, and the seat keeps
    playing to the end."""
    bots = [ScriptedBot("every-second", fails_every_second), ScriptedBot("ok", first_option)]
    report = asyncio.run(play(bots, seed=4))
    asked = len(bots[0].requests)
    assert asked > 2 * BROKEN_SHARE_FROM
    assert [i.kind for i in report.incidents] == ["illegal"] * (asked // 2)
    assert report.forfeited == []


def test_a_bot_that_cannot_be_reached_is_unreachable_after_one_deadline():
    """Its server is gone before the match: one deadline, then the policy plays the seat."""

    async def main():
        port = free_port()
        server = await start_server(ScriptedBot("gone", first_option), port)
        gone = BotClient(f"127.0.0.1:{port}")
        await gone.hello()
        await server.stop(grace=None)
        async with serving([ScriptedBot("ok", first_option)]) as (ok,):
            try:
                return await run_match(MatchSpec("gone", "jamaica", 4, deadline=1.0), [gone, ok])
            finally:
                await gone.close()

    report = asyncio.run(main())
    gone = Expected(frozenset({"unreachable"}), retired=True, single=True)
    assert check_match(["gone", "none"], report.places, incidents(report), {"gone": gone}) == {
        "unreachable": 1
    }
    assert report.places == [2, 1]


class Bouncer(ScriptedBot):
    """At its `at`-th request its server stops and a new one (a fresh servicer, as a
    restarted process has) listens on the same port 50 ms later; `in_flight` stops it while
    that request is being answered, otherwise just after the answer."""

    def __init__(self, port: int, at: int, in_flight: bool):
        super().__init__("bouncer", first_option)
        self.port, self.at, self.in_flight = port, at, in_flight
        self.server = None
        self.restarted_at: int | None = None
        """How many requests the first server had received."""

    async def bounce(self) -> None:
        await self.server.stop(grace=None)
        self.restarted_at = len(self.requests)
        await asyncio.sleep(0.05)
        self.server = await start_server(self, self.port)

    async def decide(self, request) -> int:
        self.requests.append(request)
        if len(self.requests) == self.at:
            asyncio.get_running_loop().create_task(self.bounce())
            if self.in_flight:
                await asyncio.sleep(30)  # cancelled by the stop: the call breaks
        return 0


@pytest.mark.parametrize("in_flight", [True, False], ids=["in-flight", "after-answer"])
def test_a_bouncing_connection_defaults_no_decision(tmp_path, in_flight):
    """The call the stop broke is asked again and answered by the restarted server; the
    restarted bot asks for MatchInfo and gets it on its next request."""
    record = tmp_path / "m.jsonl.gz"

    async def main():
        port = free_port()
        bouncer = Bouncer(port, at=5, in_flight=in_flight)
        bouncer.server = await start_server(bouncer, port)
        client = BotClient(f"127.0.0.1:{port}")
        await client.hello()
        try:
            async with serving([ScriptedBot("ok", first_option)]) as (ok,):
                spec = MatchSpec("bounce", "jamaica", 6, deadline=2.0, record_path=record)
                report = await run_match(spec, [client, ok])
            return report, bouncer.requests, bouncer.restarted_at
        finally:
            await client.close()
            await bouncer.server.stop(grace=None)

    report, requests, restarted_at = asyncio.run(main())
    assert report.incidents == [] and report.forfeited == []
    ids = [int(r.request_id) for r in requests]
    assert restarted_at == 5 and len(ids) > 20
    if in_flight:  # the broken request is asked again, then every later one
        assert ids == [1, 2, 3, 4, 5, *range(5, ids[-1] + 1)]
    else:  # the reply to 5 may or may not have left before the stop
        assert ids in (
            [1, 2, 3, 4, 5, *range(6, ids[-1] + 1)],
            [1, 2, 3, 4, 5, *range(5, ids[-1] + 1)],
        )
    first_after = ids[restarted_at]
    with_info = [int(r.request_id) for r in requests if r.HasField("match_info")]
    assert with_info == [1, first_after + 1]
    lines = [json.loads(line) for line in gzip.open(record, "rt")]
    seat0 = [line["how"] for line in lines if line["t"] == "decision" and line["seat"] == 0]
    assert "incident" not in seat0 and "forfeited" not in seat0
    assert verify_record(record).ok


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("name", "n" * (HELLO_LIMITS["name"] + 1), "name has 65 characters (at most 64)"),
        ("version", "v" * 1000, "version has 1,000 characters (at most 64)"),
        ("games", ("jamaica",) * 17, "lists 17 games (at most 16)"),
        ("games", ("g" * 65,), "names a game of over 64 characters"),
    ],
)
def test_a_hello_over_its_limits_is_refused_with_one_clear_error(field, value, says):
    bot = ScriptedBot("ok", first_option)
    setattr(bot, field, value)

    async def main():
        port = free_port()
        server = await start_server(bot, port)
        client = BotClient(f"127.0.0.1:{port}")
        try:
            await client.hello()
        finally:
            await client.close()
            await server.stop(grace=None)

    with pytest.raises(HelloError) as refused:
        asyncio.run(main())
    assert str(refused.value) == f"its Hello {says}"
