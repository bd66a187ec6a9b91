"""Fair play end to end (docs/security.md): a spy bot keeps every byte the referee sends it,
in `play`, in a tournament and against `serve`. No seed in any form, no record path, no
tournament name or plan id, no other seat's incidents or hidden cards reach it; in
Blackbeard, no other seat's Event or Pirate cards and no face-down merchant either."""

from __future__ import annotations

import asyncio
import sqlite3
import stat
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import grpc
from e2e_helpers import RANDOM_BOT, REPO, ScriptedBot, serving
from spy import assert_absent, read_spy, seed_forms, spy_bot

from admiralty.referee.launcher import free_port
from admiralty.referee.service import serve_referee
from admiralty_sdk.v1 import referee_pb2, referee_pb2_grpc

SEED = 0xC0FFEE_5EED_1234_5  # typed by the operator: guessable, so it must never travel
CLI = [sys.executable, "-m", "admiralty.cli"]


def run_cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300, cwd=tmp_path)


PRIVATE_CARDS = {"events_dealt", "pirates_dealt", "event_drawn", "pirate_drawn"}
"""Blackbeard's events that name hidden cards to their seat only (a Must Play Immediately
card drawn is played face up, and named to all)."""


def assert_fair(kept: dict) -> None:
    """What every spy must find: its own seat's data only."""
    for request in kept["decide"]:
        for player in request.jamaica.players:
            if player.seat != request.seat:
                assert list(player.hand) == []
        for player in request.blackbeard.players:
            if player.seat != request.seat:
                assert list(player.hand) == [] and list(player.pirate_hand) == []
        for merchant in request.blackbeard.merchants:
            if not merchant.face_up:
                assert not (
                    merchant.HasField("id")
                    or merchant.HasField("type")
                    or merchant.HasField("cargo_value")
                ), merchant
        for event in request.events:
            assert not event.audience or request.seat in event.audience
            data = dict(event.data)
            if event.kind in PRIVATE_CARDS and data.get("seat") != request.seat:
                assert data.get("mpi") or not {"card", "cards"} & set(data), event
    for over in kept["over"]:
        assert {incident.seat for incident in over.result.incidents} <= {over.seat}
        assert {request.match_id for request in kept["decide"]} >= {over.result.match_id}


def test_a_spy_in_play_learns_no_seed_and_no_record_path(tmp_path):
    record = tmp_path / "records" / "m.jsonl.gz"
    result = run_cli(
        tmp_path,
        "play",
        "jamaica",
        "--bot",
        spy_bot(tmp_path),
        "--bot",
        RANDOM_BOT,
        "--bot",
        RANDOM_BOT,
        "--seed",
        str(SEED),
        "--record",
        str(record),
        "--json",
    )
    assert result.returncode == 0, result.stderr
    kept = read_spy(tmp_path / "spy.bin")
    assert kept["decide"] and len(kept["over"]) == 1
    assert_absent(kept["raw"], [*seed_forms(SEED), str(record), "records", "m.jsonl"])
    assert_fair(kept)
    # the bot ran in a directory of its own, removed when the match ended
    assert Path(kept["cwd"]).resolve() != tmp_path.resolve()
    assert not Path(kept["cwd"]).exists()
    # the record is the operator's alone
    assert stat.S_IMODE(record.stat().st_mode) == 0o600
    assert stat.S_IMODE(record.parent.stat().st_mode) == 0o700


def test_a_spy_in_blackbeard_sees_no_other_hand_no_face_down_merchant_and_no_seed(tmp_path):
    record = tmp_path / "records" / "b.jsonl.gz"
    result = run_cli(
        tmp_path,
        "play",
        "blackbeard",
        "--bot",
        spy_bot(tmp_path),
        "--bot",
        RANDOM_BOT,
        "--bot",
        RANDOM_BOT,
        "--bot",
        RANDOM_BOT,
        "--seed",
        str(SEED),
        "--record",
        str(record),
        "--json",
    )
    assert result.returncode == 0, result.stderr
    kept = read_spy(tmp_path / "spy.bin")
    assert kept["decide"] and len(kept["over"]) == 1
    assert_absent(kept["raw"], [*seed_forms(SEED), str(record), "records", "b.jsonl"])
    assert_fair(kept)
    views = [request.blackbeard for request in kept["decide"]]
    assert all(view.game == "blackbeard" for view in views)
    mine = [
        player
        for request, view in zip(kept["decide"], views, strict=True)
        for player in view.players
        if player.seat == request.seat
    ]
    assert any(player.hand for player in mine) and any(player.pirate_hand for player in mine)
    assert any(not merchant.face_up for view in views for merchant in view.merchants)


def test_request_windows_and_steps_count_only_the_spys_own_requests(tmp_path):
    result = run_cli(
        tmp_path,
        "play",
        "jamaica",
        "--bot",
        spy_bot(tmp_path),
        "--bot",
        RANDOM_BOT,
        "--bot",
        RANDOM_BOT,
        "--bot",
        RANDOM_BOT,
        "--seed",
        "7",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    requests = read_spy(tmp_path / "spy.bin")["decide"]
    assert [r.request_id for r in requests] == [str(n) for n in range(1, len(requests) + 1)]
    windows = [r.window_id for r in requests]
    assert windows[0] == 1 and all(0 <= b - a <= 1 for a, b in pairwise(windows))
    for number, request in enumerate(requests):
        assert all(event.step <= number for event in request.events)


def test_a_spy_in_a_tournament_learns_no_seed_name_or_plan(tmp_path):
    db = tmp_path / "t.db"
    result = run_cli(
        tmp_path,
        "tournament",
        "run",
        "jamaica",
        "--bot",
        spy_bot(tmp_path),
        "--bot",
        RANDOM_BOT,
        "--bot",
        f"{RANDOM_BOT} --seed 1",
        "--players",
        "3",
        "--rounds",
        "1",
        "--seed",
        str(SEED),
        "--name",
        "secret-cup",
        "--db",
        str(db),
        "--parallel",
        "2",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(db) as connection:
        seeds = [int(row[0]) for row in connection.execute("SELECT seed FROM matches")]
        ids = [row[0] for row in connection.execute("SELECT match_id FROM matches")]
    assert len(ids) == 3
    kept = read_spy(tmp_path / "spy.bin")
    assert len(kept["over"]) == 3
    secrets = [*seed_forms(SEED), "secret-cup", *ids]
    for seed in seeds:
        secrets += seed_forms(seed)
    assert_absent(kept["raw"], secrets)
    assert_fair(kept)
    assert len({request.match_id for request in kept["decide"]}) == 3


def test_a_spy_against_serve_learns_no_seed_and_cannot_query_the_service(tmp_path):
    denied = []

    async def spy_and_probe(request):
        if not denied:  # from inside decide, as a hostile bot would
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                stub = referee_pb2_grpc.RefereeServiceStub(channel)
                for call, message in (
                    (stub.GetMatch, referee_pb2.GetMatchRequest(match_id=request.match_id)),
                    (stub.ListMatches, referee_pb2.ListMatchesRequest()),
                ):
                    try:
                        await call(message)
                    except grpc.aio.AioRpcError as error:
                        denied.append(error.code())
        return 0

    spy = ScriptedBot("spy", spy_and_probe)
    over = []
    spy.on_match_over = over.append
    port = free_port()

    async def main():
        async with serving([spy, ScriptedBot("b"), ScriptedBot("c")]) as clients:
            server = await serve_referee("127.0.0.1", port, "tok", tmp_path)
            try:
                async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                    stub = referee_pb2_grpc.RefereeServiceStub(channel)
                    created = await stub.CreateMatch(
                        referee_pb2.CreateMatchRequest(
                            game="jamaica", bots=[c.address for c in clients], seed=SEED
                        ),
                        metadata=(("authorization", "Bearer tok"),),
                    )
                    async for _ in stub.Watch(referee_pb2.WatchRequest(match_id=created.match_id)):
                        pass
                    return created
            finally:
                await server.stop(None)

    created = asyncio.run(main())
    assert created.master_seed == str(SEED)
    assert denied == [grpc.StatusCode.UNAUTHENTICATED] * 2
    raw = [r.SerializeToString() for r in spy.requests] + [m.SerializeToString() for m in over]
    assert_absent(raw, [*seed_forms(SEED), created.match_id, str(tmp_path)])
    assert_fair({"decide": spy.requests, "over": over})


def test_the_repository_is_not_the_spys_working_directory(tmp_path):
    """A launched bot must not start where the operator's records and database live."""
    result = run_cli(
        tmp_path,
        "play",
        "jamaica",
        "--bot",
        spy_bot(tmp_path),
        "--bot",
        RANDOM_BOT,
        "--seed",
        "3",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    cwd = Path(read_spy(tmp_path / "spy.bin")["cwd"]).resolve()
    assert cwd not in (tmp_path.resolve(), REPO.resolve())
