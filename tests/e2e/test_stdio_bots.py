"""Bots with no gRPC library (`--bot "stdio:COMMAND"`), spoken to in JSON lines: the
example bots in Python and in jq play both games through `admiralty play`, and a tournament
through referee workers; a bot that misbehaves on its pipes becomes the incident a gRPC bot
would, and is heard again on its next request."""

from __future__ import annotations

import asyncio
import json
import shlex
import subprocess
import sys
import tracemalloc

import grpc
import pytest
from cli_check import NO_AUTO_PASS, QUICK, assert_conforms
from cli_play import asked, assert_plays, play
from e2e_helpers import RANDOM_BOT, REPO, TEST_BOTS
from toolchains import JQ_INSTALL, require

from admiralty.referee import MatchSpec, launch_all, run_match, stop_all
from admiralty_sdk.v1 import bot_pb2, common_pb2

PYTHON_BOT = "stdio:example_bots/stdio/random_bot.py"
ADVERSARY = f"stdio:{TEST_BOTS / 'stdio_adversary.py'}"


def request(request_id: str) -> bytes:
    """A serialized request, as a referee sends it (`BotClient.decide`)."""
    return bot_pb2.DecideRequest(
        request_id=request_id,
        options=[common_pb2.Option(index=0, key="a"), common_pb2.Option(index=1, key="b")],
    ).SerializeToString()


async def ask_third(bot_spec: str, then: int = 0) -> tuple[object, list[object]]:
    """Launch the bot alone; ask it request "3", then `then` more: (the answer to "3" or
    the call's error, the answers to the others)."""
    [bot] = await launch_all([bot_spec])
    try:
        try:
            third = await bot.client.decide(request("3"), 30)
        except grpc.aio.AioRpcError as error:
            third = error
        return third, [await bot.client.decide(request(str(4 + n)), 30) for n in range(then)]
    finally:
        await stop_all([bot])


@pytest.fixture(scope="session")
def jq_bot() -> str:
    require(["jq"], JQ_INSTALL)
    return "stdio:example_bots/stdio/random_bot.sh"


def test_python_stdio_bot_plays_jamaica_and_black_fleet(tmp_path):
    assert_plays(PYTHON_BOT, "python-stdio-random", tmp_path)
    assert_conforms(PYTHON_BOT, "python-stdio-random", NO_AUTO_PASS, *QUICK)


def test_jq_stdio_bot_plays_jamaica_and_black_fleet(jq_bot, tmp_path):
    assert_plays(jq_bot, "jq-random", tmp_path)
    assert_conforms(jq_bot, "jq-random", NO_AUTO_PASS, *QUICK)


def test_a_stdio_bot_plays_a_parallel_tournament_through_referee_workers(jq_bot, tmp_path):
    """Two matches at once, refereed in two worker processes that reach the bot's bridge
    by its address; the bot answers one call at a time, in time."""
    argv = [
        sys.executable,
        "-m",
        "admiralty.cli",
        "tournament",
        "run",
        "jamaica",
        "--bot",
        jq_bot,
        "--bot",
        RANDOM_BOT,
        "--seed",
        "5",
        "--parallel",
        "2",
        "--db",
        str(tmp_path / "t.db"),
        "--records",
        str(tmp_path / "records"),
        "--json",
    ]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert result.returncode == 0, result.stderr
    standings = {row["bot"]: row for row in json.loads(result.stdout)["standings"]}
    assert standings["jq-random"]["matches"] == 2
    assert standings["jq-random"]["incidents"] == 0


@pytest.mark.parametrize(
    ("misbehaviour", "kind"),
    [
        ("say", "illegal"),  # a line that is not JSON
        ("oversize", "oversize"),  # a line of 1 MiB
        ("late 1.3", "timeout"),  # its answer comes 0.3 s after the deadline
    ],
)
def test_a_stdio_bots_bad_line_is_an_incident_and_its_next_answer_is_heard(
    misbehaviour, kind, tmp_path
):
    """The rest of an oversize line, or a late one, is dropped: never taken for the answer
    to the next request (that would be a stale incident)."""
    record = tmp_path / "match.jsonl.gz"
    report = play("jamaica", f"{ADVERSARY} {misbehaviour}", record, "--deadline", "1")
    assert [(i["seat"], i["request_id"], i["kind"]) for i in report["incidents"]] == [
        (0, "3", kind)
    ], report
    assert not report["placements"][0]["forfeited"]
    answers = asked(record)
    assert answers[2] == ("3", "incident") and len(answers) > 3
    assert {how for request_id, how in answers if request_id != "3"} == {"bot"}


def test_a_stdio_bot_that_exits_mid_match_crashed_and_is_placed_last():
    """Its process is restarted, as any launched bot's, and asked the same request again
    (by then the bot has died twice), in its own working directory with stderr in its log."""

    async def main():
        bots = await launch_all([f"{ADVERSARY} exit", RANDOM_BOT])
        try:
            spec = MatchSpec("jamaica-stdio-exit", "jamaica", 11, deadline=2.0)
            report = await run_match(spec, [bot.client for bot in bots])
            return report, bots[0].workdir, bots[0].stderr.text()
        finally:
            await stop_all(bots)

    report, workdir, log = asyncio.run(main())
    [incident] = report.incidents
    assert (incident.seat, incident.request_id, str(incident.kind)) == (0, "3", "crash")
    assert "the bot's process ended" in incident.detail
    assert report.forfeited == [0] and report.places[0] == 2
    assert log.count("exiting on request 3") == 2
    assert f"running in {workdir}" in log


@pytest.mark.parametrize(
    "line",
    ["[1]", '{"option": 1}', '{"optionIndex": -1}', '{"requestId": "3", "optionIndex": "two"}'],
)
def test_a_stdio_line_not_shaped_as_the_answer_fails_the_call_as_illegal(line):
    third, _ = asyncio.run(ask_third(f"{ADVERSARY} say {shlex.quote(line)}"))
    assert third.code() is grpc.StatusCode.INVALID_ARGUMENT  # the referee's `illegal`
    assert "its line is not a DecideResponse" in third.details()


def test_a_stdio_answer_may_use_the_proto_field_names():
    line = '{"request_id": "3", "option_index": 1}'
    third, _ = asyncio.run(ask_third(f"{ADVERSARY} say {shlex.quote(line)}"))
    assert (third.request_id, third.option_index) == ("3", 1)


def test_a_stdio_bots_oversize_line_is_skipped_as_it_arrives_not_held():
    """64 MiB in one line: the call fails at 64 KiB, and the referee never holds more than
    a couple of reads of it while it skips the rest to reach the next answer."""
    tracemalloc.start()
    try:
        third, [fourth] = asyncio.run(ask_third(f"{ADVERSARY} oversize {64 * 2**20}", 1))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert third.code() is grpc.StatusCode.RESOURCE_EXHAUSTED  # the referee's `oversize`
    assert (fourth.request_id, fourth.option_index) == ("4", 0)
    assert peak < 2**20, f"{peak:,} bytes traced at the peak"
