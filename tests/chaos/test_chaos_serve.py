"""Adversarial bots against `RefereeService` (serve_referee in this process): matches made
with the admin token all finish with exactly their faulty seats' incidents and records
that verify; a bot refused at Hello fails its match with one short reason; the token is
needed for everything but Watch, and only the newest finished matches are kept."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from chaos_helpers import (
    ADMIN,
    EXPECTED,
    IN_PROCESS,
    assert_no_long_run,
    chaos,
    check_match,
    check_record,
    create,
    finished,
    incident_dicts,
    referee,
)
from e2e_helpers import ScriptedBot, serving

from admiralty.referee import launch_all, stop_all
from admiralty.referee.launcher import free_port
from admiralty_sdk import start_server
from admiralty_sdk.v1 import referee_pb2

PROCESSES = {
    "crash-decide": (chaos("crash-decide", "--after", "3"), 0),
    "crash-over": (chaos("crash-over"), 0),
    "slow-hello": (chaos("slow-hello", "--delay", "6"), 0),  # over the 5 s it once had
    "bounce": (chaos("bounce", "--after", "5"), 0),
}
"""Faults that need a process of their own: not restarted, as a bot `serve` reaches
is not one it started."""


def first_option(request) -> int:
    return 0


def test_every_fault_against_serve_at_once(tmp_path):
    """One server runs all the chaos matches concurrently, against one shared good bot."""

    async def main():
        in_process = {fault: make() for fault, (make, _) in IN_PROCESS.items()}
        processes = await launch_all([spec for spec, _ in PROCESSES.values()], supervise=False)
        try:
            async with (
                serving([*in_process.values(), ScriptedBot("ok", first_option)]) as clients,
                referee(tmp_path) as stub,
            ):
                ok = clients[-1].address
                addresses = {
                    fault: client.address
                    for fault, client in zip(in_process, clients, strict=False)
                }
                addresses |= {
                    fault: bot.client.address
                    for fault, bot in zip(PROCESSES, processes, strict=True)
                }
                deadlines = {
                    fault: deadline
                    for fault, (_, deadline) in [*IN_PROCESS.items(), *PROCESSES.items()]
                }
                ids = {
                    fault: await create(stub, [address, ok], seed, deadlines[fault])
                    for seed, (fault, address) in enumerate(addresses.items(), start=1)
                }
                return {fault: await finished(stub, match_id) for fault, match_id in ids.items()}
        finally:
            await stop_all(processes)

    summaries = asyncio.run(main())
    assert set(summaries) == set(IN_PROCESS) | set(PROCESSES)
    for fault, summary in summaries.items():
        assert summary.status == referee_pb2.MATCH_STATUS_FINISHED, (fault, summary.error)
        places = [p.place for p in summary.result.placements]
        kinds = check_match([fault, "none"], places, incident_dicts(summary.result))
        assert set(kinds) == EXPECTED[fault].kinds, fault
        assert [p.forfeited for p in summary.result.placements] == [EXPECTED[fault].retired, False]
        check_record(summary.record_path)
        assert_no_long_run(str(summary))


def test_a_bot_refused_at_hello_fails_only_its_match_with_a_short_reason(tmp_path):
    """A 3 MB name is refused; the server and a match beside it carry on."""

    async def main():
        bots = [ScriptedBot("n" * 3_000_000, first_option), ScriptedBot("ok", first_option)]
        servers = []
        try:
            addresses = []
            for bot in bots:
                port = free_port()
                servers.append(await start_server(bot, port))
                addresses.append(f"127.0.0.1:{port}")
            async with referee(tmp_path) as stub:
                refused = await create(stub, addresses, 1)
                fine = await create(stub, [addresses[1], addresses[1]], 2)
                return await finished(stub, refused), await finished(stub, fine)
        finally:
            for server in servers:
                await server.stop(grace=None)

    refused, fine = asyncio.run(main())
    assert refused.status == referee_pb2.MATCH_STATUS_FAILED
    assert refused.error == "a bot was refused: its Hello is over 65,536 bytes"
    assert list(refused.bot_names) == []
    assert fine.status == referee_pb2.MATCH_STATUS_FINISHED
    assert fine.error == ""


def test_the_token_guards_every_call_but_watch_and_old_matches_are_forgotten(tmp_path):
    """Four garbage-answering matches with room for two finished ones: the listing pages
    through the newest two; Watch needs no token and follows a match to its result."""

    async def main():
        async with (
            serving(
                [ScriptedBot("garbage", lambda r: 2**32 - 1), ScriptedBot("ok", first_option)]
            ) as clients,
            referee(tmp_path, keep_finished=2) as stub,
        ):
            bots = [client.address for client in clients]
            request = referee_pb2.CreateMatchRequest(game="jamaica", bots=bots)
            for metadata, code in [
                ((), grpc.StatusCode.UNAUTHENTICATED),
                ((("authorization", "Bearer wrong"),), grpc.StatusCode.PERMISSION_DENIED),
            ]:
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await stub.CreateMatch(request, metadata=metadata)
                assert refused.value.code() is code
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.ListMatches(referee_pb2.ListMatchesRequest())
            assert refused.value.code() is grpc.StatusCode.UNAUTHENTICATED
            ids = []
            for seed in range(1, 5):
                ids.append(await create(stub, bots, seed))
                frames = [
                    frame async for frame in stub.Watch(referee_pb2.WatchRequest(match_id=ids[-1]))
                ]
                assert frames[-1].HasField("result")
                assert list(frames[-1].result.incidents) == []  # a public watcher's view
            listed, token = [], ""
            while True:
                page = await stub.ListMatches(
                    referee_pb2.ListMatchesRequest(page_size=1, page_token=token), metadata=ADMIN
                )
                listed += [summary.match_id for summary in page.matches]
                token = page.next_page_token
                if not token:
                    break
            with pytest.raises(grpc.aio.AioRpcError) as forgotten:
                await stub.GetMatch(referee_pb2.GetMatchRequest(match_id=ids[0]), metadata=ADMIN)
            kept = await finished(stub, ids[-1])
            return ids, listed, forgotten.value.code(), kept

    ids, listed, forgotten, kept = asyncio.run(main())
    assert listed == ids[-2:]
    assert forgotten is grpc.StatusCode.NOT_FOUND
    assert {i["kind"] for i in incident_dicts(kept.result)} == {"illegal"}
