"""The referee's side of `BotService`: one channel per bot, shared by every match it plays.

A bot is untrusted, so the channel bounds what it can send (a reply over `MAX_REPLY_BYTES`
fails the call as RESOURCE_EXHAUSTED, an oversize incident) and `Hello` is checked against
`HELLO_LIMITS` before a bot is admitted; its name and version are kept with their control
characters escaped (`admiralty.text`), and so reach records, results and the other bots. A
decision waits for a broken connection to come back within its own deadline, so a blip
costs time from the bank, not a defaulted move. At most `MAX_CALLS_IN_FLIGHT` calls are
open to one bot at once; a decision waits for its `slot` before the clock starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import Protocol

import grpc

from admiralty import __version__
from admiralty.games import Window
from admiralty.text import printable
from admiralty.wire import from_window_kind
from admiralty_sdk.v1 import bot_pb2, bot_pb2_grpc

HELLO_TIMEOUT = 20.0
"""Seconds a bot has to answer Hello: the launcher's startup timeout, so a bot admitted at
launch is not refused by a referee (a tournament worker, `serve`) that asks it again."""
MAX_REPLY_BYTES = 64 * 1024
"""No legitimate answer comes near it: a DecideResponse is an id and an index."""
HELLO_LIMITS = {"name": 64, "version": 64, "games": 16, "game": 64}
"""Characters of a bot's name, version and each game name; how many games it may list."""
CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", MAX_REPLY_BYTES),
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 0),
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 2_000),
    # No retries by gRPC, nor their buffers (~10 kB a call in flight): the referee asks a
    # broken call again itself (`Match._call`).
    ("grpc.enable_retries", 0),
]
MAX_CALLS_IN_FLIGHT = 256
"""Calls (`Decide` and `MatchOver`) the referee has open to one bot at once; more wait for
one to end. An open call costs the referee ~20 kB of gRPC's state and a copy of its
request, so thousands of matches asking one bot at the same moment (each match's sealed
first window) would cost more than the matches themselves; past a few hundred calls at
once a bot answers no sooner, it only queues them. HTTP/2 servers commonly allow 100 to
a few hundred streams a connection for the same reason."""


class HelloError(ValueError):
    """A bot's Hello broke the protocol's limits; the message says how."""


def normalise_address(address: str) -> str:
    """`grpc://host:port` or `host:port` -> `host:port`."""
    return address.removeprefix("grpc://")


class SeatBot(Protocol):
    """What a match asks of the bot in a seat: a `BotClient`, a dialed-in `DialedBot`, or a
    bot in this process (`InProcessSeat`)."""

    @property
    def name(self) -> str: ...

    @property
    def absent(self) -> str: ...

    @property
    def auto_pass(self) -> frozenset[Window]: ...

    @property
    def diagnose(self) -> Callable[[bool], str] | None: ...

    def reached(self) -> bool: ...

    def slot(self) -> AbstractAsyncContextManager[object]:
        """Held around each call a match makes (a decision's, with its clock started once
        it is had, so a call waiting for a bot busy with other matches costs no time; and
        `MatchOver`)."""

    async def decide(self, request: bytes, timeout: float) -> bot_pb2.DecideResponse:
        """The answer to `request`, a serialized `DecideRequest` (`wire.assembly`)."""

    async def match_over(self, request: bot_pb2.MatchOverRequest, timeout: float) -> None: ...


class InProcessSeat:
    """What a `SeatBot` answering in this process shares: it is always reached and never
    absent, declares no auto-pass, has nothing to add to an incident (what it raises
    propagates), and needs no `slot` (its call is a function call, holding nothing open).
    A subclass gives its `name` and `decide`, and `match_over` if it listens."""

    absent = ""
    auto_pass: frozenset[Window] = frozenset()
    diagnose: Callable[[bool], str] | None = None

    def reached(self) -> bool:
        return True

    def slot(self) -> AbstractAsyncContextManager[object]:
        return nullcontext()

    async def match_over(self, request: bot_pb2.MatchOverRequest, timeout: float) -> None:
        return None


class BotClient:
    """A connected bot: its identity from `Hello`, and calls with per-call deadlines.

    `absent` is set (to the reason) when the bot is known to be gone for good, e.g.
    disqualified; a match then plays its seat by the policy without asking.
    """

    def __init__(self, address: str, max_calls: int = MAX_CALLS_IN_FLIGHT):
        self.address = normalise_address(address)
        self._channel = grpc.aio.insecure_channel(self.address, options=CHANNEL_OPTIONS)
        self._stub = bot_pb2_grpc.BotServiceStub(self._channel)
        self._decide: grpc.aio.UnaryUnaryMultiCallable = self._channel.unary_unary(
            _method_path("Decide"), response_deserializer=bot_pb2.DecideResponse.FromString
        )
        """`Decide`, sent the request's bytes as they are (no serializer)."""
        self._slots = asyncio.Semaphore(max_calls)
        """One per call open to the bot (`MAX_CALLS_IN_FLIGHT`)."""
        self.name = self.address
        self.version = ""
        self.games: tuple[str, ...] = ()
        self.auto_pass: frozenset[Window] = frozenset()
        self.absent = ""
        self.diagnose: Callable[[bool], str] | None = None
        """What the referee adds to the incident of a call the bot failed, given whether
        the bot reported the error itself (set by the launcher for a bot it started: the
        end of its stderr, or a hint)."""

    async def hello(self, timeout: float = HELLO_TIMEOUT) -> None:
        """Ask who the bot is; raises grpc.aio.AioRpcError if it does not answer in time,
        HelloError if its answer breaks the limits."""
        reply = await self._stub.Hello(
            bot_pb2.HelloRequest(referee_version=__version__, protocol="v1"),
            timeout=timeout,
            wait_for_ready=True,
        )
        check_hello(reply)
        self.name = printable(reply.name) or self.address
        self.version = printable(reply.version)
        self.games = tuple(reply.games)
        self.auto_pass = frozenset(from_window_kind(kind) for kind in reply.auto_pass)

    def plays(self, game: str) -> bool:
        return not self.games or game in self.games

    def reached(self) -> bool:
        """False while the channel is still trying (or failing) to connect to the bot."""
        return self._channel.get_state() not in (
            grpc.ChannelConnectivity.CONNECTING,
            grpc.ChannelConnectivity.TRANSIENT_FAILURE,
        )

    def slot(self) -> asyncio.Semaphore:
        return self._slots

    async def decide(self, request: bytes, timeout: float) -> bot_pb2.DecideResponse:
        """The answer to `request`, within a `slot` the caller holds."""
        return await self._decide(request, timeout=timeout, wait_for_ready=True)

    async def match_over(self, request: bot_pb2.MatchOverRequest, timeout: float) -> None:
        """Tell the bot its match is over, within a `slot` the caller holds."""
        await self._stub.MatchOver(request, timeout=timeout)

    async def close(self) -> None:
        await self._channel.close()


def _method_path(method: str) -> str:
    """The path gRPC calls `BotService`'s `method` by."""
    service = bot_pb2.DESCRIPTOR.services_by_name["BotService"]
    return f"/{service.full_name}/{service.methods_by_name[method].name}"


def check_hello(reply: bot_pb2.HelloResponse) -> None:
    """HelloError naming the first field of `reply` over its limit."""
    for field in ("name", "version"):
        value = getattr(reply, field)
        if len(value) > HELLO_LIMITS[field]:
            raise HelloError(
                f"its Hello {field} has {len(value):,} characters (at most {HELLO_LIMITS[field]})"
            )
    if len(reply.games) > HELLO_LIMITS["games"]:
        raise HelloError(
            f"its Hello lists {len(reply.games):,} games (at most {HELLO_LIMITS['games']})"
        )
    if any(len(game) > HELLO_LIMITS["game"] for game in reply.games):
        raise HelloError(f"its Hello names a game of over {HELLO_LIMITS['game']} characters")
    try:
        for kind in reply.auto_pass:
            from_window_kind(kind)
    except ValueError as error:
        raise HelloError(f"its Hello auto-passes {error}") from None
