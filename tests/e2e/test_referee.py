"""The referee over real gRPC: full matches, sealed windows, clocks and failure policies."""

from __future__ import annotations

import asyncio
import gzip
import json
import random
from collections import defaultdict

import pytest
from e2e_helpers import RANDOM_BOT, TEST_BOTS, ScriptedBot, play

from admiralty.referee import (
    FailurePolicy,
    MatchSpec,
    launch_all,
    run_match,
    stop_all,
    verify_record,
)
from admiralty_sdk.v1 import common_pb2

SEALED = common_pb2.WINDOW_KIND_SEALED


def seeded_random(seed: int):
    rng = random.Random(seed)
    return lambda request: rng.randrange(len(request.options))


def test_four_bot_processes_play_a_jamaica_match_to_the_end(tmp_path):
    async def main():
        bots = await launch_all([RANDOM_BOT] * 4)
        try:
            spec = MatchSpec("jamaica-e2e", "jamaica", 21, record_path=tmp_path / "m.jsonl.gz")
            return await run_match(spec, [bot.client for bot in bots])
        finally:
            await stop_all(bots)

    report = asyncio.run(main())
    assert sorted(report.places)[0] == 1 and len(report.places) == 4
    assert report.incidents == []
    assert report.round_trips > 0
    assert verify_record(tmp_path / "m.jsonl.gz").ok


def test_a_sealed_window_is_asked_of_every_seat_at_once():
    """Each bot holds its sealed answer until every seat of the window has been asked.

    Asked one after another, the first would wait forever and time out. Window ids are
    numbered per seat, so the n-th sealed window of each seat is the same window."""
    arrived = defaultdict(int)
    everyone = defaultdict(asyncio.Event)
    sealed_seen = defaultdict(int)

    async def barrier(request):
        if request.window != SEALED:
            return 0
        sealed_seen[request.seat] += 1
        window = sealed_seen[request.seat]
        arrived[window] += 1
        if arrived[window] == 3:
            everyone[window].set()
        await asyncio.wait_for(everyone[window].wait(), timeout=3)
        return 0

    bots = [ScriptedBot(f"b{i}", barrier) for i in range(3)]
    report = asyncio.run(play(bots, seed=5, deadline=5.0))
    assert report.incidents == []
    assert len(everyone) > 1
    assert all(count == 3 for count in arrived.values())


def test_no_request_reveals_another_seats_unrevealed_choice():
    bots = [ScriptedBot(f"b{i}", seeded_random(i)) for i in range(4)]
    asyncio.run(play(bots, seed=8))
    sealed_requests = 0
    for seat, bot in enumerate(bots):
        for request in bot.requests:
            if request.window != SEALED:
                continue
            sealed_requests += 1
            for player in request.jamaica.players:
                if player.seat != seat:
                    assert not player.HasField("revealed_card")
                    assert list(player.hand) == []
    assert sealed_requests > 0


FAILURES = {
    "slow": lambda request: asyncio.sleep(1.5, result=0),
    "illegal": lambda request: 999,
}
# Only the slow bot must miss its deadline: the others get one a busy machine meets.
DEADLINES = {"slow": 0.5}


class StaleBot(ScriptedBot):
    """Echoes a request id other than the one it was asked (the SDK echoes the request's)."""

    async def decide(self, request):
        request.request_id += "-old"
        return 0


def failing_bot(kind: str) -> ScriptedBot:
    return StaleBot("stale") if kind == "stale" else ScriptedBot(kind, FAILURES[kind])


@pytest.mark.parametrize("policy", list(FailurePolicy))
@pytest.mark.parametrize(
    ("kind", "incident"), [("slow", "timeout"), ("illegal", "illegal"), ("stale", "stale")]
)
def test_a_failing_bot_produces_incidents_and_the_match_still_finishes(policy, kind, incident):
    bots = [
        failing_bot(kind),
        ScriptedBot("ok-1", seeded_random(1)),
        ScriptedBot("ok-2", seeded_random(2)),
    ]
    deadline = DEADLINES.get(kind, 5.0)
    report = asyncio.run(play(bots, seed=3, deadline=deadline, policy=policy))
    assert len(report.places) == 3
    kinds = {str(i.kind) for i in report.incidents}
    assert kinds == {incident}
    assert {i.seat for i in report.incidents} == {0}
    if policy is FailurePolicy.FORFEIT:
        assert report.forfeited == [0]
        assert report.places[0] == 3
        assert len(report.incidents) == 1


@pytest.mark.parametrize("policy", list(FailurePolicy))
def test_a_crashing_bot_process_is_recorded_and_the_match_finishes(policy):
    async def main():
        bots = await launch_all([str(TEST_BOTS / "crash_bot.py"), RANDOM_BOT])
        try:
            # A deadline a busy machine meets: the bot must be seen to die, not to be late.
            spec = MatchSpec("jamaica-crash", "jamaica", 2, deadline=5.0, policy=policy)
            return await run_match(spec, [bot.client for bot in bots])
        finally:
            await stop_all(bots)

    report = asyncio.run(main())
    assert report.incidents and {i.seat for i in report.incidents} == {0}
    assert {str(i.kind) for i in report.incidents} <= {"crash", "unreachable"}
    assert sorted(report.places) in ([1, 2], [1, 1])


def test_replay_verify_passes_on_a_record_and_fails_on_a_tampered_one(tmp_path):
    record = tmp_path / "m.jsonl.gz"
    bots = [ScriptedBot(f"b{i}", seeded_random(i)) for i in range(2)]
    asyncio.run(play(bots, seed=13, record_path=record))
    assert verify_record(record).ok

    lines = [json.loads(line) for line in gzip.open(record, "rt")]
    decision = next(line for line in lines if line["t"] == "decision" and line["index"] > 0)
    decision["index"] = 0
    tampered = tmp_path / "tampered.jsonl.gz"
    with gzip.open(tampered, "wt") as file:
        file.writelines(json.dumps(line) + "\n" for line in lines)
    report = verify_record(tampered)
    assert not report.ok
    assert report.mismatches
