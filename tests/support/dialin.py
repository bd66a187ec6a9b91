"""An arena on a free local port, bots dialing in to it, and a hand-driven raw stream."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc

from admiralty.arena.dialin import serve_arena
from admiralty.arena.lobby import DialedEntrant, Limits, Lobby, Registered
from admiralty.referee.launcher import free_port
from admiralty_sdk import Bot
from admiralty_sdk.connect import dial
from admiralty_sdk.v1 import arena_pb2, bot_pb2

WAIT = 10.0
"""Seconds a test waits for something that takes milliseconds."""


class Keys(dict[str, Registered]):
    """The dict-backed `Authenticate` of the tests: key -> registered bot."""

    def __call__(self, key: str) -> Registered | None:
        return self.get(key)


@contextlib.asynccontextmanager
async def arena(keys: Keys, limits: Limits | None = None) -> AsyncIterator[tuple[Lobby, str]]:
    """A lobby served on a free port of 127.0.0.1: (lobby, address)."""
    lobby = Lobby(keys, limits)
    port = free_port()
    server = await serve_arena("127.0.0.1", port, lobby)
    try:
        yield lobby, f"127.0.0.1:{port}"
    finally:
        await server.stop(None)


@contextlib.asynccontextmanager
async def dialing(bot: Bot, address: str, key: str, **options: Any) -> AsyncIterator[asyncio.Task]:
    """`bot` dialing in (the SDK's `dial`) while the block runs: yields its task."""
    task = asyncio.create_task(dial(bot, address, key=key, **options))
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def until(condition: Callable[[], Any], timeout: float = WAIT) -> Any:
    """Poll `condition` until it is truthy; its value."""
    async with asyncio.timeout(timeout):
        while not (value := condition()):
            await asyncio.sleep(0.01)
    return value


async def free_entrant(lobby: Lobby, name: str) -> DialedEntrant:
    """The bot `name` once it has a free connection in `lobby`."""
    return await until(lambda: next((e for e in lobby.free() if e.name == name), None))


class RawStream:
    """A stream opened by hand, to send what no SDK sends: bytes as they are."""

    def __init__(self, address: str, key: str = ""):
        self._channel = grpc.aio.insecure_channel(address)
        play = self._channel.stream_stream("/admiralty.v1.ArenaService/Play")
        metadata = (("authorization", f"Bearer {key}"),) if key else ()
        self.call = play(metadata=metadata)

    async def read(self) -> arena_pb2.PlayResponse:
        data = await self.call.read()
        assert isinstance(data, bytes), data
        return arena_pb2.PlayResponse.FromString(data)

    async def send(self, message: arena_pb2.PlayRequest | bytes) -> None:
        data = message if isinstance(message, bytes) else message.SerializeToString()
        await self.call.write(data)

    async def hello(self, name: str = "raw") -> int:
        """Answer the arena's Hello as `name`; the call id it had."""
        call = await self.read()
        assert call.WhichOneof("call") == "hello"
        hello = bot_pb2.HelloResponse(name=name, version="1")
        await self.send(arena_pb2.PlayRequest(call_id=call.call_id, hello=hello))
        return call.call_id

    async def status(self) -> tuple[grpc.StatusCode, str]:
        """How the arena ended the stream."""
        return await self.call.code(), await self.call.details()

    async def close(self) -> None:
        await self._channel.close()


@contextlib.asynccontextmanager
async def raw_stream(address: str, key: str = "") -> AsyncIterator[RawStream]:
    stream = RawStream(address, key)
    try:
        yield stream
    finally:
        await stream.close()
