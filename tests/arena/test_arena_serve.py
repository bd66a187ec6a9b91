"""`admiralty.arena.serve`: one port for the bots' streams and the operator's referee calls,
one process per file, removed bots sent away, and a stop that voids what is in flight. Over
real streams on 127.0.0.1, bots dialing in from this process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import grpc
import pytest
from dialin import arena as served_lobby
from dialin import dialing, until
from e2e_helpers import ScriptedBot
from typer.testing import CliRunner

from admiralty.arena.ladder import run_ladder
from admiralty.arena.lobby import Lobby
from admiralty.arena.serve import evict, serve
from admiralty.arena.store import ArenaStore
from admiralty.cli import app
from admiralty.referee.launcher import free_port
from admiralty.referee.service import RefereeServicer
from admiralty.tournament.store import Runner, StoreError
from admiralty_sdk.connect import dial
from admiralty_sdk.v1 import referee_pb2, referee_pb2_grpc

TOKEN = "admin-token"
BOTS = ("alpha", "beta", "gamma")


def runner(pid: int, host: str = "here") -> Runner:
    return Runner(pid, host, "2026-01-01T00:00:00+00:00")


def test_a_second_server_is_refused_while_the_first_lives_and_takes_over_once_it_died(tmp_path):
    store = ArenaStore(tmp_path / "arena.db", create=True)
    store.take_lease(runner(10))
    with pytest.raises(StoreError, match=r"arena.db is served by pid 10 on here since 2026"):
        store.take_lease(runner(11), alive=lambda pid: True)
    with pytest.raises(StoreError, match="pid 10 on here"):  # another host's pid: not checked
        store.take_lease(runner(11, "there"), alive=lambda pid: False)
    store.take_lease(runner(11), alive=lambda pid: pid != 10)  # 10 was killed
    store.release_lease(runner(10))  # the dead one's release leaves the new lease alone
    with pytest.raises(StoreError, match="pid 11"):
        store.take_lease(runner(12), alive=lambda pid: True)
    store.release_lease(runner(11))
    store.take_lease(runner(12), alive=lambda pid: True)


def test_serve_refuses_a_file_another_live_process_serves_in_one_line(tmp_path):
    db = tmp_path / "arena.db"
    ArenaStore(db, create=True).take_lease(Runner.this_process(datetime.now(UTC)))
    result = CliRunner().invoke(app, ["arena", "serve", "jamaica", "--db", str(db)])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert f"is served by pid {os.getpid()} on {socket.gethostname()}" in result.stderr


class Arena:
    """An arena served in this process, its bots registered and dialing in."""

    def __init__(self, store: ArenaStore, lobby: Lobby, address: str, stop: asyncio.Event):
        self.store, self.lobby, self.address, self.stop = store, lobby, address, stop
        self.referee = RefereeServicer(TOKEN, creates=False)


@contextlib.asynccontextmanager
async def served(tmp_path, choose=None) -> AsyncIterator[tuple[Arena, asyncio.Task]]:
    """An arena of Jamaica with `BOTS` dialing in (each answering with `choose`), its
    ladder running until the block ends or its stop is set: (arena, the serve task)."""
    store = ArenaStore(tmp_path / "arena.db", create=True)
    keys = {name: store.add(name) for name in BOTS}
    port = free_port()
    lobby, stop = Lobby(store.authenticate), asyncio.Event()
    arena = Arena(store, lobby, f"127.0.0.1:{port}", stop)

    def ladder(lobby, play):
        return run_ladder(
            store, lobby, "jamaica", 2, records=None, max_matches=2, seed=3,
            options={"round_cap": 3}, play=play,
        )  # fmt: skip

    listening = asyncio.Event()
    task = asyncio.create_task(
        serve(
            store, lobby, ladder, ("127.0.0.1", port), arena.referee, stop,
            listening=listening.set,
        )
    )  # fmt: skip
    await listening.wait()
    async with contextlib.AsyncExitStack() as bots:
        for name in BOTS:
            bot = ScriptedBot(name, choose)
            await bots.enter_async_context(dialing(bot, arena.address, keys[name]))
        try:
            yield arena, task
        finally:
            stop.set()
            await task


def finished(store: ArenaStore) -> list[int]:
    return [m.id for m in store.matches() if m.status == "finished"]


def test_the_operator_lists_and_watches_the_arenas_matches_and_cannot_create_one(tmp_path):
    async def main():
        async with served(tmp_path) as (arena, _):
            await until(lambda: len(finished(arena.store)) >= 2)
            async with grpc.aio.insecure_channel(arena.address) as channel:
                referee = referee_pb2_grpc.RefereeServiceStub(channel)
                admin = (("authorization", f"Bearer {TOKEN}"),)
                listed = await referee.ListMatches(referee_pb2.ListMatchesRequest(), metadata=admin)
                one = await referee.GetMatch(
                    referee_pb2.GetMatchRequest(match_id="arena-1"), metadata=admin
                )
                frames = [
                    frame
                    async for frame in referee.Watch(referee_pb2.WatchRequest(match_id="arena-1"))
                ]
                refusals = []
                for metadata in (admin, ()):
                    with pytest.raises(grpc.aio.AioRpcError) as refused:
                        await referee.CreateMatch(
                            referee_pb2.CreateMatchRequest(game="jamaica"), metadata=metadata
                        )
                    refusals.append((refused.value.code(), refused.value.details()))
            return listed, one, frames, refusals, arena.store.matches()

    listed, one, frames, refusals, stored = asyncio.run(main())
    ids = {m.match_id for m in listed.matches}
    assert {"arena-1", "arena-2"} <= ids
    row = next(m for m in stored if m.id == 1)
    assert one.match.status == referee_pb2.MATCH_STATUS_FINISHED
    assert list(one.match.bot_names) == [bot for bot, _ in row.players]
    assert [r.place for r in row.results] == [
        p.place for p in sorted(one.match.result.placements, key=lambda p: p.seat)
    ]
    assert frames[0].HasField("match_info") and frames[-1].HasField("result")
    assert refusals == [
        (
            grpc.StatusCode.FAILED_PRECONDITION,
            "this server is an arena: its ladder starts every match",
        ),
        (
            grpc.StatusCode.UNAUTHENTICATED,
            "this call needs the admin token: metadata 'authorization: Bearer <token>'",
        ),
    ]


def test_stopping_voids_the_matches_in_flight_and_lets_the_next_server_in(tmp_path):
    async def slow(request) -> int:
        await asyncio.sleep(0.05)
        return 0

    async def main():
        async with served(tmp_path, slow) as (arena, task):
            await until(lambda: arena.referee.matches and any(
                not h.finished for h in arena.referee.matches.values()
            ))  # fmt: skip
            in_flight = [m.id for m in arena.store.matches() if m.status == "running"]
            arena.stop.set()
            await task
            streams = sum(len(e.streams) for e in arena.lobby.connected())
            return in_flight, arena.store, streams

    in_flight, store, streams = asyncio.run(main())
    statuses = {m.id: m.status for m in store.matches()}
    assert in_flight and all(statuses[n] == "void" for n in in_flight)
    assert "running" not in statuses.values()
    assert streams == 0
    store.take_lease(runner(12), alive=lambda pid: True)  # the lease was given back


def test_a_bot_removed_while_connected_is_sent_away_within_the_look(tmp_path):
    async def main():
        store = ArenaStore(tmp_path / "arena.db", create=True)
        key = store.add("alpha")
        async with served_lobby(store.authenticate) as (lobby, address):
            bot = asyncio.create_task(dial(ScriptedBot("alpha"), address, key=key))
            await until(lobby.connected)
            store.remove("alpha")
            looking = asyncio.create_task(evict(store, lobby, every=0.05))
            try:
                await until(bot.done)
            finally:
                looking.cancel()
            return bot.exception(), lobby.connected()

    error, connected = asyncio.run(main())
    assert str(error).endswith(": the bot was removed from the arena")
    assert connected == []
