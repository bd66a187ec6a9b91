"""The referee's side of `BotService`: one channel per bot, shared by every match it plays."""

from __future__ import annotations

import grpc

from admiralty import __version__
from admiralty.games import Window
from admiralty.wire import from_window_kind
from admiralty_sdk.v1 import bot_pb2, bot_pb2_grpc

HELLO_TIMEOUT = 5.0


def normalise_address(address: str) -> str:
    """`grpc://host:port` or `host:port` -> `host:port`."""
    return address.removeprefix("grpc://")


class BotClient:
    """A connected bot: its identity from `Hello`, and calls with per-call deadlines."""

    def __init__(self, address: str):
        self.address = normalise_address(address)
        self._channel = grpc.aio.insecure_channel(self.address)
        self._stub = bot_pb2_grpc.BotServiceStub(self._channel)
        self.name = self.address
        self.version = ""
        self.games: tuple[str, ...] = ()
        self.auto_pass: frozenset[Window] = frozenset()

    async def hello(self, timeout: float = HELLO_TIMEOUT) -> None:
        """Ask who the bot is; raises grpc.aio.AioRpcError if it does not answer in time."""
        reply = await self._stub.Hello(
            bot_pb2.HelloRequest(referee_version=__version__, protocol="v1"),
            timeout=timeout,
            wait_for_ready=True,
        )
        self.name = reply.name or self.address
        self.version = reply.version
        self.games = tuple(reply.games)
        self.auto_pass = frozenset(from_window_kind(kind) for kind in reply.auto_pass)

    def plays(self, game: str) -> bool:
        return not self.games or game in self.games

    async def decide(
        self, request: bot_pb2.DecideRequest, timeout: float
    ) -> bot_pb2.DecideResponse:
        return await self._stub.Decide(request, timeout=timeout)

    async def match_over(self, request: bot_pb2.MatchOverRequest, timeout: float) -> None:
        await self._stub.MatchOver(request, timeout=timeout)

    async def close(self) -> None:
        await self._channel.close()
