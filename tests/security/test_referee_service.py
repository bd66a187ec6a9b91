"""RefereeService is the operator's (docs/security.md): every RPC but Watch needs the admin
token; invalid matches are refused up front; TLS; bounded memory and paged listings."""

from __future__ import annotations

import asyncio
import contextlib
import socket

import grpc
import h2.config
import h2.connection
import h2.events
import pytest
import trustme
from e2e_helpers import ScriptedBot, serving
from google.protobuf import struct_pb2

from admiralty.referee.launcher import free_port
from admiralty.referee.service import serve_referee
from admiralty_sdk.v1 import referee_pb2, referee_pb2_grpc

TOKEN = "right-token"
ADMIN = (("authorization", f"Bearer {TOKEN}"),)
WRONG = (("authorization", "Bearer wrong"),)


@contextlib.asynccontextmanager
async def referee(**options):
    port = free_port()
    server = await serve_referee("127.0.0.1", port, TOKEN, **options)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield referee_pb2_grpc.RefereeServiceStub(channel)
    finally:
        await server.stop(None)


async def status(call) -> grpc.StatusCode:
    try:
        result = call()
        if hasattr(result, "__aiter__"):
            async for _ in result:
                pass
        else:
            await result
    except grpc.aio.AioRpcError as error:
        return error.code()
    return grpc.StatusCode.OK


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        ((), grpc.StatusCode.UNAUTHENTICATED),
        (WRONG, grpc.StatusCode.PERMISSION_DENIED),
        (ADMIN, grpc.StatusCode.OK),
    ],
)
def test_every_operator_rpc_needs_the_token(metadata, expected):
    async def main():
        async with serving([ScriptedBot("a"), ScriptedBot("b")]) as clients, referee() as stub:
            bots = [c.address for c in clients]
            created = await stub.CreateMatch(
                referee_pb2.CreateMatchRequest(game="jamaica", bots=bots), metadata=ADMIN
            )
            calls = {
                "CreateMatch": lambda: stub.CreateMatch(
                    referee_pb2.CreateMatchRequest(game="jamaica", bots=bots), metadata=metadata
                ),
                "GetMatch": lambda: stub.GetMatch(
                    referee_pb2.GetMatchRequest(match_id=created.match_id), metadata=metadata
                ),
                "ListMatches": lambda: stub.ListMatches(
                    referee_pb2.ListMatchesRequest(), metadata=metadata
                ),
            }
            codes = {name: await status(call) for name, call in calls.items()}
            public = await status(
                lambda: stub.Watch(
                    referee_pb2.WatchRequest(match_id=created.match_id), metadata=metadata
                )
            )
            return codes, public

    codes, public = asyncio.run(main())
    assert codes == {"CreateMatch": expected, "GetMatch": expected, "ListMatches": expected}
    assert public is grpc.StatusCode.OK  # Watch is public; the token only widens it


def test_watch_with_a_wrong_token_is_refused():
    async def main():
        async with serving([ScriptedBot("a"), ScriptedBot("b")]) as clients, referee() as stub:
            created = await stub.CreateMatch(
                referee_pb2.CreateMatchRequest(game="jamaica", bots=[c.address for c in clients]),
                metadata=ADMIN,
            )
            return await status(
                lambda: stub.Watch(
                    referee_pb2.WatchRequest(match_id=created.match_id, token="wrong")
                )
            )

    assert asyncio.run(main()) is grpc.StatusCode.PERMISSION_DENIED


def raw_call(port: int, method: str, authorization: bytes) -> dict[bytes, bytes]:
    """One gRPC call made over raw HTTP/2 (an empty request message), with an
    `authorization` header of any bytes, which gRPC's own clients refuse to send; the
    response's headers and trailers."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    conn = h2.connection.H2Connection(
        h2.config.H2Configuration(
            client_side=True, validate_outbound_headers=False, normalize_outbound_headers=False
        )
    )
    conn.initiate_connection()
    conn.send_headers(
        1,
        [
            (b":method", b"POST"),
            (b":scheme", b"http"),
            (b":path", method),
            (b":authority", b"127.0.0.1"),
            (b"content-type", b"application/grpc"),
            (b"te", b"trailers"),
            (b"authorization", authorization),
        ],
    )
    conn.send_data(1, b"\0\0\0\0\0", end_stream=True)
    headers: dict[bytes, bytes] = {}
    with sock:
        while True:
            sock.sendall(conn.data_to_send())
            data = sock.recv(65536)
            assert data, "the server closed the connection without ending the call"
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived | h2.events.TrailersReceived):
                    headers |= dict(event.headers)
                if isinstance(event, h2.events.StreamEnded | h2.events.StreamReset):
                    return headers


@pytest.mark.parametrize("token", ["tök".encode(), b"t\xf6k", "Bearer tök".encode()])
def test_a_token_with_non_ascii_characters_is_a_wrong_token(token):
    """Not UNKNOWN, as when the comparison raised on a non-ASCII str: for the operator's
    calls (metadata, in UTF-8 or not) and for Watch (the token of its request)."""

    async def main():
        async with serving([ScriptedBot("a"), ScriptedBot("b")]) as clients:
            port = free_port()
            server = await serve_referee("127.0.0.1", port, TOKEN)
            try:
                answer = await asyncio.to_thread(
                    raw_call, port, b"/admiralty.v1.RefereeService/ListMatches", b"Bearer " + token
                )
                async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                    stub = referee_pb2_grpc.RefereeServiceStub(channel)
                    created = await stub.CreateMatch(
                        referee_pb2.CreateMatchRequest(
                            game="jamaica", bots=[c.address for c in clients]
                        ),
                        metadata=ADMIN,
                    )
                    watched = await status(
                        lambda: stub.Watch(
                            referee_pb2.WatchRequest(
                                match_id=created.match_id, token=token.decode("utf-8", "replace")
                            )
                        )
                    )
            finally:
                await server.stop(None)
            return answer, watched

    answer, watched = asyncio.run(main())
    assert (answer[b"grpc-status"], answer[b"grpc-message"]) == (
        str(grpc.StatusCode.PERMISSION_DENIED.value[0]).encode(),
        b"wrong admin token",
    )
    assert watched is grpc.StatusCode.PERMISSION_DENIED


def options(**values) -> struct_pb2.Struct:
    message = struct_pb2.Struct()
    message.update(values)
    return message


BAD_REQUESTS = {
    "unknown game": dict(game="chess", bots=["127.0.0.1:1", "127.0.0.1:2"]),
    "too few bots": dict(game="jamaica", bots=["127.0.0.1:1"]),
    "too many bots": dict(game="jamaica", bots=["127.0.0.1:1"] * 7),
    "not an address": dict(game="jamaica", bots=["127.0.0.1:1", "nowhere"]),
    "port out of range": dict(game="jamaica", bots=["127.0.0.1:1", "127.0.0.1:99999"]),
    "unknown option": dict(game="jamaica", bots=["127.0.0.1:1"] * 2, options=options(x=1)),
    "bad option value": dict(
        game="jamaica", bots=["127.0.0.1:1"] * 2, options=options(round_cap="abc")
    ),
    "unknown policy": dict(game="jamaica", bots=["127.0.0.1:1"] * 2, policy=42),
    "huge deadline": dict(game="jamaica", bots=["127.0.0.1:1"] * 2, deadline_ms=10**9),
}


@pytest.mark.parametrize("case", list(BAD_REQUESTS))
def test_an_invalid_match_is_refused_before_anything_starts(case):
    async def main():
        async with referee() as stub:
            code = await status(
                lambda: stub.CreateMatch(
                    referee_pb2.CreateMatchRequest(**BAD_REQUESTS[case]), metadata=ADMIN
                )
            )
            listed = await stub.ListMatches(referee_pb2.ListMatchesRequest(), metadata=ADMIN)
            return code, listed

    code, listed = asyncio.run(main())
    assert code is grpc.StatusCode.INVALID_ARGUMENT
    assert list(listed.matches) == []


def test_whole_number_options_reach_the_game_as_integers():
    """A Struct carries numbers as doubles; `round_cap=5` must still be an int option."""

    async def main():
        async with serving([ScriptedBot("a"), ScriptedBot("b")]) as clients, referee() as stub:
            created = await stub.CreateMatch(
                referee_pb2.CreateMatchRequest(
                    game="jamaica", bots=[c.address for c in clients], options=options(round_cap=5)
                ),
                metadata=ADMIN,
            )
            summary = await stub.GetMatch(
                referee_pb2.GetMatchRequest(match_id=created.match_id), metadata=ADMIN
            )
            fraction = await status(
                lambda: stub.CreateMatch(
                    referee_pb2.CreateMatchRequest(
                        game="jamaica",
                        bots=[c.address for c in clients],
                        options=options(round_cap=5.5),
                    ),
                    metadata=ADMIN,
                )
            )
            return summary, fraction

    summary, fraction = asyncio.run(main())
    assert summary.match.status != referee_pb2.MATCH_STATUS_FAILED, summary.match.error
    assert fraction is grpc.StatusCode.INVALID_ARGUMENT


def test_the_server_keeps_a_bounded_number_of_finished_matches_and_pages_them():
    async def main():
        async with (
            serving([ScriptedBot("a"), ScriptedBot("b")]) as clients,
            referee(keep_finished=3) as stub,
        ):
            bots = [c.address for c in clients]
            created = []
            for _ in range(5):
                reply = await stub.CreateMatch(
                    referee_pb2.CreateMatchRequest(
                        game="jamaica", bots=bots, seed=len(created) + 1
                    ),
                    metadata=ADMIN,
                )
                async for _ in stub.Watch(referee_pb2.WatchRequest(match_id=reply.match_id)):
                    pass
                created.append(reply.match_id)
            pages, token = [], ""
            while True:
                page = await stub.ListMatches(
                    referee_pb2.ListMatchesRequest(page_size=2, page_token=token), metadata=ADMIN
                )
                pages.append([m.match_id for m in page.matches])
                token = page.next_page_token
                if not token:
                    break
            gone = await status(
                lambda: stub.GetMatch(
                    referee_pb2.GetMatchRequest(match_id=created[0]), metadata=ADMIN
                )
            )
            return created, pages, gone

    created, pages, gone = asyncio.run(main())
    assert pages == [created[2:4], created[4:]]
    assert gone is grpc.StatusCode.NOT_FOUND


def every_other_illegal(request) -> int:
    return 999 if int(request.request_id) % 2 == 0 else 0


def test_a_listing_leaves_incidents_to_get_match():
    """A bot failing every other decision (never more than half: it plays on) makes an
    incident each time: a page of such matches must stay small, so only GetMatch carries
    them."""

    async def main():
        async with (
            serving([ScriptedBot("illegal", every_other_illegal), ScriptedBot("b")]) as clients,
            referee() as stub,
        ):
            created = await stub.CreateMatch(
                referee_pb2.CreateMatchRequest(
                    game="jamaica", bots=[c.address for c in clients], seed=3
                ),
                metadata=ADMIN,
            )
            async for _ in stub.Watch(referee_pb2.WatchRequest(match_id=created.match_id)):
                pass
            got = await stub.GetMatch(
                referee_pb2.GetMatchRequest(match_id=created.match_id), metadata=ADMIN
            )
            listed = await stub.ListMatches(referee_pb2.ListMatchesRequest(), metadata=ADMIN)
            return got.match, listed.matches

    got, listed = asyncio.run(main())
    assert len(got.result.incidents) > 10
    assert {incident.seat for incident in got.result.incidents} == {0}
    [summary] = listed
    assert summary.match_id == got.match_id and len(summary.result.placements) == 2
    assert list(summary.result.incidents) == []


def test_the_referee_serves_over_tls():
    authority = trustme.CA()
    cert = authority.issue_cert("127.0.0.1", "localhost")
    key_pem = cert.private_key_pem.bytes()
    chain_pem = b"".join(blob.bytes() for blob in cert.cert_chain_pems)

    async def main():
        port = free_port()
        server = await serve_referee("127.0.0.1", port, TOKEN, tls=(key_pem, chain_pem))
        try:
            credentials = grpc.ssl_channel_credentials(authority.cert_pem.bytes())
            async with grpc.aio.secure_channel(f"127.0.0.1:{port}", credentials) as channel:
                stub = referee_pb2_grpc.RefereeServiceStub(channel)
                listed = await stub.ListMatches(
                    referee_pb2.ListMatchesRequest(), metadata=ADMIN, timeout=10
                )
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                plain = await status(
                    lambda: referee_pb2_grpc.RefereeServiceStub(channel).ListMatches(
                        referee_pb2.ListMatchesRequest(), metadata=ADMIN, timeout=3
                    )
                )
            return listed, plain
        finally:
            await server.stop(None)

    listed, plain = asyncio.run(main())
    assert list(listed.matches) == []
    assert plain is grpc.StatusCode.UNAVAILABLE  # no clear-text talk with a TLS referee
