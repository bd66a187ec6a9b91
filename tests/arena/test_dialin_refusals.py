"""Bad input to the arena's streams is one status with one line, and costs the bots that
play by the rules nothing: wrong keys, connections beyond a bot's, floods from one address,
garbage, oversize messages, answers to calls never made, bad or missing Hellos."""

from __future__ import annotations

import asyncio

import grpc
import pytest
import trustme
from dialin import Keys, RawStream, arena, dialing, free_entrant, raw_stream
from e2e_helpers import ScriptedBot, serving

from admiralty.arena.dialin import add_arena_service, serve_arena
from admiralty.arena.lobby import Limits, Lobby, Registered
from admiralty.referee.clients import MAX_REPLY_BYTES
from admiralty.referee.launcher import free_port
from admiralty.referee.match import RETIRED, Match, MatchSpec
from admiralty.referee.policy import IncidentKind
from admiralty_sdk.connect import DialError, dial
from admiralty_sdk.v1 import arena_pb2, bot_pb2

KEYS = {"alpha-key": Registered("alpha", 1)}


async def refused(address: str, key: str = "alpha-key", answers=None) -> tuple:
    """The status a raw stream ends with after sending `answers(hello_call_id)`, a list of
    messages or bytes (with None, without reading Hello)."""
    async with raw_stream(address, key) as stream:
        if answers is not None:
            call = await stream.read()
            for answer in answers(call.call_id):
                await stream.send(answer)
        return await stream.status()


def run_refused(keys=KEYS, limits: Limits | None = None, **kwargs) -> tuple:
    async def main():
        async with arena(Keys(keys), limits) as (_, address):
            return await refused(address, **kwargs)

    code, details = asyncio.run(main())
    return code.name, details


def test_a_wrong_key_is_unauthenticated():
    assert run_refused(key="guess") == ("UNAUTHENTICATED", "wrong or revoked key")
    assert run_refused(key="") == ("UNAUTHENTICATED", "wrong or revoked key")


def test_dial_stops_at_a_wrong_key_with_one_line():
    async def main():
        async with arena(Keys(KEYS)) as (_, address):
            with pytest.raises(DialError) as raised:
                await dial(ScriptedBot("alpha"), address, key="guess")
            return address, str(raised.value)

    address, message = asyncio.run(main())
    assert message == f"{address}: wrong or revoked key"


def test_a_connection_beyond_the_bots_is_resource_exhausted():
    async def main():
        async with (
            arena(Keys(KEYS)) as (lobby, address),
            dialing(ScriptedBot("alpha"), address, "alpha-key"),
        ):
            await free_entrant(lobby, "alpha")
            code, details = await refused(address)
            return code.name, details, [len(e.streams) for e in lobby.free()]

    code, details, streams = asyncio.run(main())
    assert (code, details) == ("RESOURCE_EXHAUSTED", "alpha holds its 1 connection(s) already")
    assert streams == [1]


HELLO = bot_pb2.HelloResponse(name="raw", version="1")


@pytest.mark.parametrize(
    ("answers", "code", "details"),
    [
        (
            lambda call_id: [b"\xff\xff\xff"],
            "INVALID_ARGUMENT",
            "it sent a message that is not a PlayRequest",
        ),
        (
            lambda call_id: [arena_pb2.PlayRequest(call_id=call_id + 7, hello=HELLO)],
            "INVALID_ARGUMENT",
            "it answered call 8, which it was not asked",
        ),
        (
            lambda call_id: [arena_pb2.PlayRequest(call_id=call_id, hello=HELLO)] * 2,
            "INVALID_ARGUMENT",
            "it answered call 1, which it was not asked",
        ),
        (
            lambda call_id: [arena_pb2.PlayRequest(call_id=call_id, decide={})],
            "INVALID_ARGUMENT",
            "it answered a hello call with decide",
        ),
        (
            lambda call_id: [arena_pb2.PlayRequest(call_id=call_id, error="x" * MAX_REPLY_BYTES)],
            "RESOURCE_EXHAUSTED",
            "SERVER: Received message larger than max (65542 vs. 65536)",
        ),
    ],
    ids=["garbage", "unknown-call", "answered-twice", "wrong-kind", "oversize"],
)
def test_a_message_it_cannot_take_ends_the_stream(answers, code, details):
    assert run_refused(answers=answers) == (code, details)


def test_a_server_without_the_arenas_options_still_refuses_an_oversize_message():
    """`add_arena_service` on a server that takes 4 MB messages: the service's own limit."""

    async def main():
        server = grpc.aio.server()
        add_arena_service(server, Lobby(Keys(KEYS)))
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            big = arena_pb2.PlayRequest(error="x" * MAX_REPLY_BYTES)
            return await refused(f"127.0.0.1:{port}", answers=lambda call_id: [big])
        finally:
            await server.stop(None)

    code, details = asyncio.run(main())
    assert (code.name, details) == (
        "RESOURCE_EXHAUSTED",
        "it sent 65,540 bytes at once (at most 65,536)",
    )


@pytest.mark.parametrize(
    ("hello", "details"),
    [
        (
            arena_pb2.PlayRequest(call_id=1, hello=bot_pb2.HelloResponse(name="n" * 65)),
            "its Hello name has 65 characters (at most 64)",
        ),
        (arena_pb2.PlayRequest(call_id=1, error="no"), "it failed Hello: no"),
    ],
    ids=["over-the-limits", "failed"],
)
def test_a_hello_beyond_the_limits_is_an_invalid_argument(hello, details):
    assert run_refused(answers=lambda call_id: [hello]) == ("INVALID_ARGUMENT", details)


def test_a_stream_that_never_answers_hello_is_ended():
    assert run_refused(limits=Limits(hello_timeout=0.3), answers=lambda call_id: []) == (
        "DEADLINE_EXCEEDED",
        "no answer to Hello in 0.3 s",
    )


def test_a_flood_from_one_address_is_limited_and_the_bots_in_play_on():
    """At most 2 streams of an address yet to answer Hello, at most 3 in all; each refusal
    is RESOURCE_EXHAUSTED, and the bot let in stays in the lobby."""
    limits = Limits(streams_per_address=3, unanswered_per_address=2)
    keys = Keys({"alpha-key": Registered("alpha", 10)})

    async def main():
        async with arena(keys, limits) as (lobby, address):
            first, second = RawStream(address, "alpha-key"), RawStream(address, "alpha-key")
            await asyncio.gather(first.read(), second.read())  # asked Hello: let in
            unanswered = await refused(address)
            await first.send(arena_pb2.PlayRequest(call_id=1, hello=HELLO))
            await free_entrant(lobby, "alpha")
            third = RawStream(address, "alpha-key")
            await third.read()
            streams = await refused(address, key="guess")
            held = len(lobby.connected()[0].streams) + lobby.connected()[0].opening
            for stream in (first, second, third):
                await stream.close()
            return unanswered, streams, held

    unanswered, streams, held = asyncio.run(main())
    assert unanswered == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "127.0.0.1 holds 2 streams that have not answered Hello yet (at most that many)",
    )
    assert streams == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "127.0.0.1 holds 3 streams already (at most that many)",
    )
    assert held == 3


@pytest.mark.parametrize(
    ("answer", "status", "why"),
    [
        (
            lambda call_id: b"\x00garbage",
            (grpc.StatusCode.INVALID_ARGUMENT, "it sent a message that is not a PlayRequest"),
            "it sent a message that is not a PlayRequest",
        ),
        (
            lambda call_id: arena_pb2.PlayRequest(call_id=call_id + 1, decide={}),
            (grpc.StatusCode.INVALID_ARGUMENT, "it answered call 3, which it was not asked"),
            "it answered call 3, which it was not asked",
        ),
        (
            lambda call_id: arena_pb2.PlayRequest(call_id=call_id, error="x" * MAX_REPLY_BYTES),
            (
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "SERVER: Received message larger than max (65542 vs. 65536)",
            ),
            "the bot closed it or sent a message over 64 KiB",
        ),
    ],
    ids=["garbage", "unknown-call", "oversize"],
)
def test_a_message_it_cannot_take_mid_match_breaks_the_call_in_flight(answer, status, why):
    """The stream ends, and the decision it was asked is the broken connection's: a crash
    when the bot is not back within the deadline; the other seat plays on."""
    spec = MatchSpec("garbage", "jamaica", 3, deadline=0.3)

    async def main():
        async with arena(Keys(KEYS)) as (lobby, address), raw_stream(address, "alpha-key") as raw:
            await raw.hello()
            entrant = await free_entrant(lobby, "alpha")
            seat = entrant.lease()
            async with serving([ScriptedBot("beta")]) as clients:
                match = asyncio.create_task(Match(spec, [seat, clients[0]]).run())
                call = await raw.read()
                assert call.WhichOneof("call") == "decide"
                await raw.send(answer(call.call_id))
                report = await match
            return report, await raw.status(), entrant.streams

    report, got_status, streams = asyncio.run(main())
    assert got_status == status
    assert streams == []
    [incident] = report.incidents
    assert (incident.seat, incident.kind, incident.request_id) == (0, IncidentKind.CRASH, "1")
    assert incident.detail == f"the connection broke: the bot's stream ended: {why}; {RETIRED}"


def test_a_bot_dials_in_over_tls():
    authority = trustme.CA()
    cert = authority.issue_cert("127.0.0.1", "localhost")
    key_pem = cert.private_key_pem.bytes()
    chain_pem = b"".join(blob.bytes() for blob in cert.cert_chain_pems)

    async def main():
        lobby = Lobby(Keys(KEYS))
        port = free_port()
        server = await serve_arena("127.0.0.1", port, lobby, tls=(key_pem, chain_pem))
        try:
            bot = ScriptedBot("alpha")
            bot.version = "tls-1"
            roots = authority.cert_pem.bytes()
            async with dialing(bot, f"127.0.0.1:{port}", "alpha-key", tls=roots):
                return (await free_entrant(lobby, "alpha")).version
        finally:
            await server.stop(None)

    assert asyncio.run(main()) == "tls-1"
