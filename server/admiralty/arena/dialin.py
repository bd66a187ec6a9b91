"""`ArenaService`: the arena's end of the streams dialed-in bots open.

A stream is let in step by step, each refusal one status with one line: its address may
hold only so many streams, and only a few not yet past Hello (RESOURCE_EXHAUSTED); its key
must be a registered bot's (UNAUTHENTICATED), and the bot may hold only its connections
(RESOURCE_EXHAUSTED); it must answer Hello in time (DEADLINE_EXCEEDED) within the limits a
served bot's Hello keeps (INVALID_ARGUMENT). Then the bot is in the lobby. A message over
`MAX_REPLY_BYTES` (RESOURCE_EXHAUSTED), one that is not a `PlayRequest` or an answer to a
call never made (INVALID_ARGUMENT) ends the stream, and the calls in flight on it fail as
on a broken connection.

    lobby = Lobby(store.authenticate)
    server = await serve_arena("0.0.0.0", 50070, lobby, tls=(key, chain))
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Iterable

import grpc
from google.protobuf.message import DecodeError

from admiralty import __version__
from admiralty.arena.lobby import Lobby
from admiralty.arena.streams import BROKE, ProtocolError, Status, Stream
from admiralty.referee.clients import MAX_REPLY_BYTES, HelloError, check_hello
from admiralty_sdk.bot import bind
from admiralty_sdk.v1 import arena_pb2, bot_pb2

SERVICE = "admiralty.v1.ArenaService"
MAX_STREAMS = 5000
"""Streams served at once, from every address: more are refused RESOURCE_EXHAUSTED."""
SERVER_OPTIONS = [
    ("grpc.so_reuseport", 0),
    ("grpc.max_receive_message_length", MAX_REPLY_BYTES),
    # Pings find a bot that vanished without closing its connection; a bot's own pings
    # (the SDK's, every 20 s) are welcome even when nothing else is sent.
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
]
"""The options of a server carrying `ArenaService` (`serve_arena` sets them)."""
CLOSED_BY_BOT = f"the bot closed it or sent a message over {MAX_REPLY_BYTES // 1024} KiB"


def add_arena_service(server: grpc.aio.Server, lobby: Lobby) -> None:
    """Serve `lobby`'s `ArenaService` on `server`, which should have `SERVER_OPTIONS`.
    Its messages reach the servicer as bytes: one that is not a `PlayRequest` is the bot's
    mistake, answered with a status, not an error in gRPC's log."""
    handler: grpc.RpcMethodHandler[bytes, arena_pb2.PlayResponse]
    handler = grpc.stream_stream_rpc_method_handler(
        ArenaServicer(lobby).play,
        response_serializer=arena_pb2.PlayResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(SERVICE, {"Play": handler}),)
    )


async def serve_arena(
    host: str, port: int, lobby: Lobby, tls: tuple[bytes, bytes] | None = None
) -> grpc.aio.Server:
    """Start serving `lobby` on host:port, over TLS when `tls` is (private key, certificate
    chain); the caller stops the server. OSError when it cannot listen there."""
    server = grpc.aio.server(options=SERVER_OPTIONS, maximum_concurrent_rpcs=MAX_STREAMS)
    add_arena_service(server, lobby)
    credentials = grpc.ssl_server_credentials([tls]) if tls else None
    if not bind(server, host, port, credentials):
        raise OSError(f"cannot listen on {host}:{port}: the port is in use or not allowed")
    await server.start()
    return server


class ArenaServicer:
    """Lets streams into `lobby`, bounded per address by its `Limits`."""

    def __init__(self, lobby: Lobby):
        self._lobby = lobby
        self._limits = lobby.limits
        self._open: Counter[str] = Counter()
        self._unanswered: Counter[str] = Counter()

    async def play(self, requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext) -> None:
        host = peer_host(context.peer())
        refusal = self._refusal(host)
        if refusal:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, refusal)
        self._open[host] += 1
        stream = Stream(context.write)
        reader = asyncio.create_task(_read(context, stream))
        try:
            code, details = await self._session(context, host, stream)
        finally:
            reader.cancel()
            stream.close(BROKE)
            _decrement(self._open, host)
        if code is not grpc.StatusCode.OK:
            await context.abort(code, details)

    def _refusal(self, host: str) -> str:
        """Why `host` may not open one more stream now; empty if it may."""
        if self._open[host] >= self._limits.streams_per_address:
            return f"{host} holds {self._open[host]} streams already (at most that many)"
        if self._unanswered[host] >= self._limits.unanswered_per_address:
            return (
                f"{host} holds {self._unanswered[host]} streams that have not answered "
                "Hello yet (at most that many)"
            )
        return ""

    async def _session(
        self, context: grpc.aio.ServicerContext, host: str, stream: Stream
    ) -> Status:
        """Authenticate, admit and greet the bot, then keep its stream in the lobby until
        it ends; how it ended."""
        registered = self._lobby.authenticate(bearer(context.invocation_metadata() or ()))
        if registered is None:
            return grpc.StatusCode.UNAUTHENTICATED, "wrong or revoked key"
        entrant = self._lobby.admit(registered)
        if entrant is None:
            return (
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"{registered.name} holds its {registered.connections} connection(s) already",
            )
        hello: bot_pb2.HelloResponse | Status = BROKE
        self._unanswered[host] += 1
        try:
            hello = await self._hello(stream)
        finally:
            _decrement(self._unanswered, host)
            if isinstance(hello, tuple):
                self._lobby.abandon(entrant)
        if isinstance(hello, tuple):
            return hello
        self._lobby.join(entrant, stream, hello)
        return await stream.ended()

    async def _hello(self, stream: Stream) -> bot_pb2.HelloResponse | Status:
        """The bot's Hello, checked; or how the stream ends instead."""
        timeout = self._limits.hello_timeout
        try:
            async with asyncio.timeout(timeout):
                hello = await stream.call(
                    "hello", bot_pb2.HelloRequest(referee_version=__version__, protocol="v1")
                )
            check_hello(hello)
        except TimeoutError:
            return grpc.StatusCode.DEADLINE_EXCEEDED, f"no answer to Hello in {timeout:g} s"
        except HelloError as error:
            return grpc.StatusCode.INVALID_ARGUMENT, str(error)
        except grpc.aio.AioRpcError as error:
            failed = f"it failed Hello: {error.details()}"
            return stream.status or (grpc.StatusCode.INVALID_ARGUMENT, failed)
        return hello


async def _read(context: grpc.aio.ServicerContext, stream: Stream) -> None:
    """Hand the bot's answers to `stream` until it ends its side, or breaks the protocol."""
    try:
        while (data := await context.read()) is not grpc.aio.EOF:
            stream.answer(_parsed(data))
        # gRPC ends the reads so when a message is over the server's limit too
        stream.close((grpc.StatusCode.OK, CLOSED_BY_BOT))
    except ProtocolError as error:
        stream.close((error.code, str(error)))
    finally:
        stream.close(BROKE)  # however else the reads stopped (the first close wins)


def _parsed(data: bytes) -> arena_pb2.PlayRequest:
    # A server with `SERVER_OPTIONS` stops a larger message first; this holds on any server.
    if len(data) > MAX_REPLY_BYTES:
        raise ProtocolError(
            f"it sent {len(data):,} bytes at once (at most {MAX_REPLY_BYTES:,})",
            grpc.StatusCode.RESOURCE_EXHAUSTED,
        )
    try:
        return arena_pb2.PlayRequest.FromString(data)
    except DecodeError:
        raise ProtocolError("it sent a message that is not a PlayRequest") from None


def peer_host(peer: str) -> str:
    """The address of `context.peer()` without its port: "ipv4:10.0.0.7:52114" ->
    "10.0.0.7", "ipv6:[::1]:52114" -> "[::1]"."""
    kind, _, rest = peer.partition(":")
    return rest.rpartition(":")[0] if kind in ("ipv4", "ipv6") else peer


def bearer(metadata: Iterable[tuple[str, str | bytes]]) -> str:
    """The key of an `authorization: Bearer <key>` entry; empty without one."""
    for name, value in metadata:
        if name == "authorization" and isinstance(value, str) and value.startswith("Bearer "):
            return value.removeprefix("Bearer ")
    return ""


def _decrement(counter: Counter[str], host: str) -> None:
    counter[host] -= 1
    if counter[host] <= 0:
        del counter[host]
