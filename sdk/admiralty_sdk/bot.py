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
import traceback
from collections.abc import Awaitable

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

    def decide(self, request: bot_pb2.DecideRequest) -> int | Awaitable[int]:
        """The index of the chosen option in `request.options`; an override may be async."""
        raise NotImplementedError

    def on_match_start(self, request: bot_pb2.DecideRequest) -> None:
        """The first request of a match for a seat; `request.match_info` holds the board."""

    def on_match_over(self, message: bot_pb2.MatchOverRequest) -> None:
        """A match this bot played has ended."""


class BotServicer(bot_pb2_grpc.BotServiceServicer):
    """The `BotService` a `Bot` is served as: `serve` puts it behind a gRPC server, and an
    in-process runner (the referee's local runner) calls it directly."""

    def __init__(self, bot: Bot):
        self.bot = bot
        self._started: set[tuple[str, int]] = set()
        """(match, seat) pairs whose MatchInfo this process has seen; a bot restarted
        mid-match asks for it again."""

    async def Hello(self, request, context):
        return bot_pb2.HelloResponse(
            name=self.bot.name,
            version=self.bot.version,
            games=list(self.bot.games),
            auto_pass=[_WINDOW_KINDS[kind] for kind in self.bot.auto_pass],
        )

    async def Decide(self, request, context):
        try:
            return await self.answer(request)
        except Exception as error:
            traceback.print_exc()
            await context.abort(grpc.StatusCode.UNKNOWN, where_raised(error))

    async def answer(self, request: bot_pb2.DecideRequest) -> bot_pb2.DecideResponse:
        """The bot's response to `request`. What the bot raises propagates: `Decide` sends
        the referee where it was raised, the local runner shows the whole traceback."""
        seat = (request.match_id, request.seat)
        if request.HasField("match_info"):
            self._started.add(seat)
            self.bot.on_match_start(request)
        index = self.bot.decide(request)
        if inspect.isawaitable(index):
            index = await index
        return bot_pb2.DecideResponse(
            request_id=request.request_id,
            option_index=index,
            resend_match_info=seat not in self._started,
        )

    async def MatchOver(self, request, context):
        self._started.discard((request.result.match_id, request.seat))
        self.bot.on_match_over(request)
        return bot_pb2.MatchOverResponse()


ERROR_DETAIL_BYTES = 1024
"""The most of an exception's report the referee is sent: enough for its innermost frames,
never a flood of the referee's records."""


def where_raised(error: BaseException, frames: int = 3) -> str:
    """`error`'s type and message, then its innermost `frames` frames outside the SDK's
    server (file:line, function, source), innermost last as in a traceback: what the
    referee shows as the incident, so a bot's bug points at its line. Cut to
    `ERROR_DETAIL_BYTES`, keeping the frames."""
    head = traceback.format_exception_only(type(error), error)[-1].strip()
    lines = [
        f"{os.path.basename(frame.filename)}:{frame.lineno} in {frame.name}: "
        f"{(frame.line or '').strip()}"
        for frame in traceback.extract_tb(error.__traceback__)
        if frame.filename != __file__
    ][-frames:]
    tail = "".join(f"\n  {line}" for line in lines)
    room = ERROR_DETAIL_BYTES - len(tail.encode())
    if len(head.encode()) > room:
        head = head.encode()[: max(room - 3, 0)].decode(errors="ignore") + "..."
    return (head + tail).encode()[:ERROR_DETAIL_BYTES].decode(errors="ignore")


def bot_port(default: int = 50061) -> int:
    """The port asked for by `--port N` on the command line, or `ADMIRALTY_PORT`."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--port", type=int)
    known, _ = parser.parse_known_args()
    if known.port is not None:
        return known.port
    return int(os.environ.get("ADMIRALTY_PORT", default))


async def start_server(
    bot: Bot, port: int | None = None, host: str = "127.0.0.1"
) -> grpc.aio.Server:
    """Start serving `bot` on `host:port` in the running event loop; the caller stops it."""
    port = bot_port() if port is None else port
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    bot_pb2_grpc.add_BotServiceServicer_to_server(BotServicer(bot), server)
    if not bind(server, host, port):
        raise SystemExit(f"{bot.name}: cannot listen on {host}:{port}: the port is in use")
    await server.start()
    return server


def bind(
    server: grpc.aio.Server, host: str, port: int, credentials: grpc.ServerCredentials | None = None
) -> bool:
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
    print(f"{bot.name} listening on {host}:{port}", file=sys.stderr, flush=True)
    try:
        await stop.wait()
    finally:
        await server.stop(grace=0.5)


def serve(bot: Bot, port: int | None = None, host: str = "127.0.0.1") -> None:
    """Run `bot` as a gRPC server on `host:port` (default: `--port` or `ADMIRALTY_PORT`)."""
    asyncio.run(_serve_until_signalled(bot, port, host))
