"""Dial in to an arena: a bot plays with only an outgoing connection.

    from admiralty_sdk import connect

    connect(MyBot(), "arena.example.org:50070", key=open("bot.key").read().strip(), tls=True)

The bot opens `connections` streams (`ArenaService.Play`, at most its registered number)
and answers the arena's calls on them as a served bot answers `BotService`, several at
once. A stream that breaks or is refused for the moment is opened again after an
exponential backoff with jitter, so a restarted arena is rejoined and many bots do not
knock at once; a wrong or revoked key, or a Hello the arena refuses, stops `connect` with
`DialError` (trying again would not help).

`run(bot)` lets the command line choose: it dials in with `--dial ADDRESS --key-file FILE`
(and `--tls`, or `--tls-ca FILE` for a self-signed arena, and `--connections N`), else
serves the bot (`serve`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import signal
import sys
import traceback
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from admiralty_sdk.bot import Bot, BotServicer, serve, where_raised
from admiralty_sdk.v1 import arena_pb2, arena_pb2_grpc

BACKOFF_FIRST, BACKOFF_MAX = 0.5, 30.0
"""Seconds before the first attempt to open a stream again, and at most between attempts."""
FATAL = frozenset({grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.INVALID_ARGUMENT})
"""How the arena ends a stream for good: a wrong key, or a Hello or message it refuses."""
CHANNEL_OPTIONS = [
    ("grpc.keepalive_time_ms", 20_000),  # notice an arena that vanished
    ("grpc.keepalive_timeout_ms", 10_000),
]


class DialError(RuntimeError):
    """The arena refused the bot for good; the message says why, in one line."""


def run(bot: Bot) -> None:
    """Run `bot` as its command line says: dial in to an arena with `--dial ADDRESS
    --key-file FILE [--tls | --tls-ca FILE] [--connections N]`, else serve it on `--port`
    (`serve`). The arena's refusal ends the process with one line."""
    dialing = dialing_from_argv()
    if dialing is None:
        serve(bot)
        return
    try:
        connect(
            bot,
            dialing.address,
            key=dialing.key,
            tls=dialing.tls,
            connections=dialing.connections,
        )
    except DialError as error:
        raise SystemExit(f"{bot.name}: {error}") from None


def connect(
    bot: Bot,
    address: str,
    *,
    key: str,
    tls: bool | bytes = False,
    connections: int = 1,
) -> None:
    """Play `bot` on the arena at `address` (`host:port`) until interrupted (SIGINT,
    SIGTERM). `tls`: True trusts the system's roots, bytes are PEM root certificates (a
    self-signed arena's); False connects in the clear. Raises `DialError`."""
    print(f"{bot.name} dialing in to {address}", file=sys.stderr, flush=True)
    asyncio.run(_until_signalled(dial(bot, address, key=key, tls=tls, connections=connections)))


async def dial(
    bot: Bot,
    address: str,
    *,
    key: str,
    tls: bool | bytes = False,
    connections: int = 1,
) -> None:
    """`connect` in the running event loop: returns only by `DialError` or cancellation."""
    servicer = BotServicer(bot)
    async with _channel(address.removeprefix("grpc://"), tls) as channel:
        stub = arena_pb2_grpc.ArenaServiceStub(channel)
        metadata = (("authorization", f"Bearer {key}"),)
        await asyncio.gather(
            *(
                _Connection(servicer, stub, metadata, address).keep_playing()
                for _ in range(connections)
            )
        )


def _channel(target: str, tls: bool | bytes) -> grpc.aio.Channel:
    if tls is False:
        return grpc.aio.insecure_channel(target, options=CHANNEL_OPTIONS)
    roots = None if tls is True else tls
    return grpc.aio.secure_channel(
        target, grpc.ssl_channel_credentials(roots), options=CHANNEL_OPTIONS
    )


class _Connection:
    """One connection to the arena: a stream, opened again whenever it ends. The wait
    before it is opened again doubles while the arena does not let the bot in, and starts
    over once the arena asks it something."""

    def __init__(
        self,
        servicer: BotServicer,
        stub: arena_pb2_grpc.ArenaServiceStub,
        metadata: Sequence[tuple[str, str]],
        address: str,
    ):
        self._servicer, self._stub, self._metadata = servicer, stub, metadata
        self._address = address
        self._delay = BACKOFF_FIRST

    async def keep_playing(self) -> None:
        while True:
            try:
                await self._play(self._stub.Play(metadata=self._metadata))
                why = "the arena ended the stream"
            except grpc.aio.AioRpcError as error:
                if error.code() in FATAL:
                    raise DialError(f"{self._address}: {error.details()}") from None
                why = f"{error.code().name}: {error.details()}"
            wait = self._delay * random.uniform(0.5, 1.0)
            print(f"{self._address}: {why}; again in {wait:.1f} s", file=sys.stderr, flush=True)
            await asyncio.sleep(wait)
            self._delay = min(self._delay * 2, BACKOFF_MAX)

    async def _play(
        self, call: grpc.aio.StreamStreamCall[arena_pb2.PlayRequest, arena_pb2.PlayResponse]
    ) -> None:
        """Answer the calls of one stream, each in its own task, until the stream ends."""
        answering: set[asyncio.Task[None]] = set()
        writing = asyncio.Lock()

        async def answer(message: arena_pb2.PlayResponse) -> None:
            reply = await _answer(self._servicer, message)
            # a stream that ended meanwhile refuses the write; the read below sees the end
            with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                async with writing:
                    await call.write(reply)

        try:
            # read() gives EOF when the stream ended OK, else raises its status
            while isinstance(message := await call.read(), arena_pb2.PlayResponse):
                self._delay = BACKOFF_FIRST
                task = asyncio.create_task(answer(message))
                answering.add(task)
                task.add_done_callback(answering.discard)
        finally:
            for task in answering:
                task.cancel()
            call.cancel()


async def _answer(servicer: BotServicer, message: arena_pb2.PlayResponse) -> arena_pb2.PlayRequest:
    """The bot's answer to one call; an exception it raises is reported as the call's
    error (where it was raised), as `serve` reports it."""
    reply = arena_pb2.PlayRequest(call_id=message.call_id)
    which = message.WhichOneof("call")
    try:
        if which == "hello":
            reply.hello.CopyFrom(await servicer.Hello(message.hello, None))
        elif which == "decide":
            reply.decide.CopyFrom(await servicer.answer(message.decide))
        elif which == "match_over":
            reply.match_over.CopyFrom(await servicer.MatchOver(message.match_over, None))
        else:
            reply.error = f"this SDK does not know the call {which or '(empty)'}"
    except Exception as error:
        traceback.print_exc()
        reply.error = where_raised(error)
    return reply


async def _until_signalled(main: Coroutine[Any, Any, None]) -> None:
    task = asyncio.create_task(main)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await task


@dataclass(frozen=True)
class Dialing:
    """Where the command line asks a bot to dial in, and with what key."""

    address: str
    key: str
    tls: bool | bytes
    connections: int = 1
    """Streams to hold: the matches to play at once (at most the bot's registered number)."""


def dialing_from_argv(argv: Sequence[str] | None = None) -> Dialing | None:
    """`--dial ADDRESS --key-file FILE [--tls | --tls-ca FILE] [--connections N]` from the
    command line (the rest is the bot's own); None without `--dial`. Exits with one line on
    a bad flag or an unreadable file."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)  # a bot's --t is its own
    parser.add_argument("--dial")
    parser.add_argument("--key-file", type=Path)
    parser.add_argument("--tls", action="store_true")
    parser.add_argument("--tls-ca", type=Path)
    parser.add_argument("--connections", default="1")
    known, _ = parser.parse_known_args(argv)
    if known.dial is None:
        return None
    if known.key_file is None:
        raise SystemExit("--dial needs --key-file FILE: the bot's key, as the arena printed it")
    if not known.connections.isdecimal() or int(known.connections) < 1:
        raise SystemExit(f"--connections {known.connections}: give a whole number from 1")
    try:
        key = known.key_file.read_text().strip()
        roots = known.tls_ca.read_bytes() if known.tls_ca else None
    except OSError as error:
        raise SystemExit(f"cannot read {error.filename}: {error.strerror}") from None
    tls = roots if roots is not None else known.tls
    return Dialing(known.dial, key, tls, int(known.connections))
