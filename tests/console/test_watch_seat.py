"""`admiralty watch ID --seat N`: a served match as one seat saw it, the same screen
`replay --seat N` shows of its record; the seat view needs the admin token."""

from __future__ import annotations

import io
import re

import grpc
import pytest
from e2e_helpers import ScriptedBot, served_referee
from rich.console import Console
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.console.feeds import replay_screen, watch_remote
from admiralty_sdk.v1 import referee_pb2, referee_pb2_grpc

ADMIN = (("authorization", "Bearer secret"),)


def wrong_on_second(name: str) -> ScriptedBot:
    asked = [0]

    def choose(request) -> int:
        asked[0] += 1
        return 99 if asked[0] == 2 else len(request.options) - 1

    return ScriptedBot(name, choose)


def console() -> Console:
    return Console(width=100, height=40, color_system=None, file=io.StringIO())


def without_latency(lines) -> list[str]:
    return [re.sub(r" in \d+ ms", "", line.plain) for line in lines]


def test_a_served_match_watched_as_a_seat_is_what_its_replay_shows(tmp_path):
    bots = [ScriptedBot("a", lambda r: 0), wrong_on_second("b")]
    with (
        served_referee(bots, record_dir=tmp_path) as (address, bots),
        grpc.insecure_channel(address) as channel,
    ):
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        created = stub.CreateMatch(
            referee_pb2.CreateMatchRequest(game="jamaica", bots=bots, seed=11), metadata=ADMIN
        )
        watched = watch_remote(address, created.match_id, "secret", console(), seat=1)
        with pytest.raises(grpc.RpcError) as refused:
            watch_remote(address, created.match_id, "", console(), seat=1)
        with pytest.raises(grpc.RpcError) as out_of_range:
            watch_remote(address, created.match_id, "secret", console(), seat=2)
    assert refused.value.code() is grpc.StatusCode.UNAUTHENTICATED
    assert out_of_range.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    replayed = replay_screen(tmp_path / f"{created.match_id}.jsonl.gz", console(), 1)
    assert without_latency(watched.log) == without_latency(replayed.log)
    assert any(line.plain.startswith("▶ b · ") for line in watched.log)
    assert any(line.plain.startswith("⚠ step ") for line in watched.log)
    assert watched.view == replayed.view and watched.view["viewer"] == 1
    assert watched.decision.options == replayed.decision.options


def test_watch_as_a_seat_without_the_token_is_one_usage_line():
    result = CliRunner().invoke(app, ["watch", "jamaica-0", "--seat", "0"])
    assert result.exit_code == 2
    assert result.output == (
        "error: --seat needs the admin token: set ADMIRALTY_TOKEN or give --token-file FILE\n"
    )
