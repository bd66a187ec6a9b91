"""Write a bot as one class; `serve()` runs it as a gRPC `BotService` server.

    from admiralty_sdk import Bot, serve

    class FirstOption(Bot):
        name = "first-option"

        def decide(self, request):
            return 0

    if __name__ == "__main__":
        serve(FirstOption())

One process plays any number of matches and seats at once: every request names its
match and seat. `decide` may be a plain method or a coroutine; a plain one runs on the
server's event loop, so keep it quick or make it async.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import signal
import socket
import sys

import grpc

from admiralty_sdk.v1 import bot_pb2, bot_pb2_grpc, common_pb2

_WINDOW_KINDS = {
    "TURN": common_pb2.WINDOW_KIND_TURN,
    "INTERRUPT": common_pb2.WINDOW_KIND_INTERRUPT,
    "SEALED": common_pb2.WINDOW_KIND_SEALED,
    "SETUP": common_pb2.WINDOW_KIND_SETUP,
}


class Bot:
    """Subclass and override `decide`; the hooks are optional."""

    name: str = "bot"
    version: str = "0.1"
    games: tuple[str, ...] = ()
    """The games this bot plays; empty means every game."""
    auto_pass: tuple[str, ...] = ()
    """Window kinds ("INTERRUPT", ...) whose optional requests this bot always passes: the
    referee answers PASS itself. Requests the seat must answer are still asked."""

    def decide(self, request: bot_pb2.DecideRequest) -> int:
        """The index of the chosen option in `request.options`."""
        raise NotImplementedError

    def on_match_start(self, request: bot_pb2.DecideRequest) -> None:
        """The first request of a match for a seat; `request.match_info` holds the board."""

    def on_match_over(self, message: bot_pb2.MatchOverRequest) -> None:
        """A match this bot played has ended."""


class _Servicer(bot_pb2_grpc.BotServiceServicer):
    def __init__(self, bot: Bot):
        self.bot = bot
        self._async = inspect.iscoroutinefunction(bot.decide)
        self._started: set[tuple[str, int]] = set()
        """(match, seat) pairs whose MatchInfo this process has seen; a bot restarted
        mid-match asks for it again."""

    async def Hello(self, request, context):
        return bot_pb2.HelloResponse(
            name=self.bot.name, version=self.bot.version, games=list(self.bot.games),
            auto_pass=[_WINDOW_KINDS[kind] for kind in self.bot.auto_pass])

    async def Decide(self, request, context):
        seat = (request.match_id, request.seat)
        if request.HasField("match_info"):
            self._started.add(seat)
            self.bot.on_match_start(request)
        if self._async:
            index = await self.bot.decide(request)
        else:
            index = self.bot.decide(request)
        return bot_pb2.DecideResponse(request_id=request.request_id, option_index=index,
                                      resend_match_info=seat not in self._started)

    async def MatchOver(self, request, context):
        self._started.discard((request.result.match_id, request.seat))
        self.bot.on_match_over(request)
        return bot_pb2.MatchOverResponse()


def bot_port(default: int = 50061) -> int:
    """The port asked for by `--port N` on the command line, or `ADMIRALTY_PORT`."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--port", type=int)
    known, _ = parser.parse_known_args()
    if known.port is not None:
        return known.port
    return int(os.environ.get("ADMIRALTY_PORT", default))


async def start_server(bot: Bot, port: int | None = None, host: str = "127.0.0.1"
                       ) -> grpc.aio.Server:
    """Start serving `bot` on `host:port` in the running event loop; the caller stops it."""
    port = bot_port() if port is None else port
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    bot_pb2_grpc.add_BotServiceServicer_to_server(_Servicer(bot), server)
    if not bind(server, host, port):
        raise SystemExit(f"{bot.name}: cannot listen on {host}:{port}: the port is in use")
    await server.start()
    return server


def bind(server: grpc.aio.Server, host: str, port: int,
         credentials: grpc.ServerCredentials | None = None) -> bool:
    """Listen on host:port (over TLS with `credentials`); False, without gRPC's log noise,
    when the port is taken or not a port."""
    try:
        with socket.create_server((host, port)):
            pass
        address = f"{host}:{port}"
        if credentials is not None:
            return server.add_secure_port(address, credentials) != 0
        return server.add_insecure_port(address) != 0
    except (OSError, RuntimeError, OverflowError):
        return False


async def _serve_until_signalled(bot: Bot, port: int | None, host: str) -> None:
    port = bot_port() if port is None else port
    server = await start_server(bot, port, host)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    watchdog = asyncio.ensure_future(_stop_when_orphaned(stop))
    print(f"{bot.name} listening on {host}:{port}", file=sys.stderr, flush=True)
    try:
        await stop.wait()
    finally:
        watchdog.cancel()
        await server.stop(grace=0.5)


async def _stop_when_orphaned(stop: asyncio.Event, every: float = 1.0) -> None:
    """Stop when the process that started the bot dies (e.g. a referee killed with -9)."""
    parent = os.getppid()
    while os.getppid() == parent:
        await asyncio.sleep(every)
    stop.set()


def serve(bot: Bot, port: int | None = None, host: str = "127.0.0.1") -> None:
    """Run `bot` as a gRPC server on `host:port` (default: `--port` or `ADMIRALTY_PORT`)."""
    asyncio.run(_serve_until_signalled(bot, port, host))
