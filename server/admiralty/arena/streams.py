"""A dialed-in bot's streams as the referee sees them: calls by id, and the seat bot.

`Stream` is one connection of a bot (`ArenaService.Play`): it sends the arena's calls and
matches the bot's answers to them by call id. `DialedBot` is what a lease gives a match: a
`SeatBot` over whichever stream serves its seat now. Its failures are the ones a
`BotClient`'s calls fail with (`grpc.aio.AioRpcError`), so the match treats a dialed-in bot
as any other: a missed deadline is DEADLINE_EXCEEDED, a dropped stream UNAVAILABLE (a
broken connection, asked again when the bot reconnects within the deadline), and an error
the bot reports UNKNOWN (an illegal answer).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import grpc

from admiralty.games import Window
from admiralty_sdk.v1 import arena_pb2, bot_pb2

LATE_KEPT = 64
"""Call ids of a stream whose deadline passed that are remembered, so the late answer is
ignored rather than taken for an answer to a call never made."""
ERROR_LIMIT = 1024
"""Characters kept of an error a bot reports: what the SDK sends at most."""


def rpc_error(code: grpc.StatusCode, details: str) -> grpc.aio.AioRpcError:
    """The error a `BotClient` call would fail with, for the match to classify."""
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details)


class ProtocolError(ValueError):
    """The bot broke the stream's protocol; the message says how, in one line, and `code`
    is the status the stream ends with."""

    def __init__(self, message: str, code: grpc.StatusCode = grpc.StatusCode.INVALID_ARGUMENT):
        super().__init__(message)
        self.code = code


Status = tuple[grpc.StatusCode, str]
"""How the arena ends a stream: the status code and its details, sent to the bot."""
BROKE: Status = (grpc.StatusCode.UNAVAILABLE, "the stream broke")


class Stream:
    """One open stream of a bot: each call gets an id, its answer resolves it.

    `send` writes one message to the bot; `on_close`, when set, is told the stream closed
    before the calls waiting on it fail, so no one is handed a closed stream."""

    def __init__(self, send: Callable[[arena_pb2.PlayResponse], Awaitable[None]]):
        self._send = send
        self._write = asyncio.Lock()
        self._last_id = 0
        self._pending: dict[int, tuple[str, asyncio.Future[Any]]] = {}
        self._late: OrderedDict[int, None] = OrderedDict()
        self._ended = asyncio.Event()
        self.status: Status | None = None
        """Set once closed: why, as the bot is told (OK when the bot ended it)."""
        self.on_close: Callable[[Stream], None] | None = None

    async def call(self, kind: str, message: Any) -> Any:
        """Send `message` as a call of `kind` (hello, decide, match_over) and return the
        answer. Raises UNAVAILABLE if the stream closes first, UNKNOWN with the bot's
        error; the caller bounds the wait (a call given up on is remembered as late)."""
        if self.status is not None:
            raise rpc_error(
                grpc.StatusCode.UNAVAILABLE, f"the bot's stream ended: {self.status[1]}"
            )
        self._last_id += 1
        call_id = self._last_id
        future = asyncio.get_running_loop().create_future()
        self._pending[call_id] = (kind, future)
        try:
            try:
                async with self._write:
                    await self._send(arena_pb2.PlayResponse(call_id=call_id, **{kind: message}))
            except Exception:  # the RPC ended under the write, before the stream knew
                self.close(BROKE)
            return await future
        finally:
            if self._pending.pop(call_id, None) is not None:
                self._late[call_id] = None
                while len(self._late) > LATE_KEPT:
                    self._late.popitem(last=False)

    def answer(self, message: arena_pb2.PlayRequest) -> None:
        """Resolve the call `message` answers; ProtocolError if it answers no call made,
        or with an answer of another kind."""
        entry = self._pending.get(message.call_id)
        if entry is None:
            if message.call_id in self._late:
                del self._late[message.call_id]  # answered after its deadline: too late
                return
            raise ProtocolError(f"it answered call {message.call_id}, which it was not asked")
        kind, future = entry
        which = message.WhichOneof("answer")
        if which not in (kind, "error"):
            raise ProtocolError(f"it answered a {kind} call with {which or 'nothing'}")
        del self._pending[message.call_id]
        if which == "error":
            future.set_exception(rpc_error(grpc.StatusCode.UNKNOWN, message.error[:ERROR_LIMIT]))
        else:
            future.set_result(getattr(message, kind))

    def close(self, status: Status) -> None:
        """End the stream with `status` (the first close wins); the calls waiting on it
        fail as a broken connection."""
        if self.status is not None:
            return
        self.status = status
        if self.on_close is not None:
            self.on_close(self)
        broken = rpc_error(grpc.StatusCode.UNAVAILABLE, f"the bot's stream ended: {status[1]}")
        for _, future in self._pending.values():
            if not future.done():
                future.set_exception(broken)
        self._ended.set()

    async def ended(self) -> Status:
        """Wait until the stream is closed; why."""
        await self._ended.wait()
        assert self.status is not None
        return self.status


class DialedBot:
    """A seat's bot over dial-in: the `SeatBot` a lease gives a match.

    Its calls go to `stream`, the bot's stream serving this seat; while there is none (the
    bot dropped and has not reconnected) a call waits for one until its deadline, as a
    `BotClient` call waits for its channel."""

    absent = ""
    diagnose = None  # nothing runs beside a dialed-in bot to say more of its failures

    def __init__(self, name: str, auto_pass: frozenset[Window], stream: Stream):
        self.name = name
        self.auto_pass = auto_pass
        self.stream: Stream | None = None
        self.told_over = False
        """Whether the match sent this seat MatchOver: a seat retired (hung, broken) or a
        match stopped never is."""
        self._attached = asyncio.Event()
        self.attach(stream)

    def attach(self, stream: Stream) -> None:
        self.stream = stream
        self._attached.set()

    def detach(self) -> Stream | None:
        """Forget the stream serving this seat; the one it was."""
        stream, self.stream = self.stream, None
        self._attached.clear()
        return stream

    def reached(self) -> bool:
        """Whether the bot has a stream open for this seat now."""
        return self.stream is not None

    def slot(self) -> contextlib.nullcontext:
        return contextlib.nullcontext()  # a seat's stream has at most its one call open

    async def decide(self, request: bytes, timeout: float) -> bot_pb2.DecideResponse:
        return await self._call("decide", bot_pb2.DecideRequest.FromString(request), timeout)

    async def match_over(self, request: bot_pb2.MatchOverRequest, timeout: float) -> None:
        self.told_over = True
        await self._call("match_over", request, timeout)

    async def _call(self, kind: str, message: Any, timeout: float) -> Any:
        try:
            async with asyncio.timeout(timeout):
                while self.stream is None:
                    await self._attached.wait()
                return await self.stream.call(kind, message)
        except TimeoutError:
            raise rpc_error(grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded") from None
