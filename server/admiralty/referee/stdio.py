"""Bots with no gRPC library: `stdio:COMMAND` runs COMMAND and speaks to it in JSON lines.

The referee reaches such a bot like any other, over gRPC: a `StdioBridge` is a BotService
server on 127.0.0.1 that writes each call to the process's stdin as one line
(`{"hello": ...}`, `{"decide": ...}` or `{"matchOver": ...}`, the request in protobuf's
canonical JSON mapping) and answers it with the next line of the process's stdout, read as
the response message in the same mapping. Deadlines, size limits and incidents therefore
stay the referee's own, and tournament workers reach the bridge by its address.

A line carries no call id, so the bridge asks one call at a time (the others queue, on
their own clocks) and counts the answers the process owes: the late answer of a call that
timed out is read and dropped, never taken for the next call's. What it reads is bounded:
a line over `MAX_REPLY_BYTES` fails its call RESOURCE_EXHAUSTED (oversize) and the rest of
it is skipped as it arrives; a line that is not the response fails it INVALID_ARGUMENT
(illegal); the end of the process fails it UNAVAILABLE (crash), and the launcher restarts
the process as it restarts any bot it launched.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import subprocess
from typing import Final

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message

from admiralty.referee.clients import MAX_REPLY_BYTES
from admiralty_sdk.v1 import bot_pb2, bot_pb2_grpc

STDIO_PREFIX = "stdio:"
RESTART_GRACE = 0.05
"""Seconds before its deadline at which a call stops waiting for a restarted process and
fails UNAVAILABLE: for the referee a crash, as for a gRPC bot not back in time."""


class _Oversize(enum.Enum):
    """A sentinel of its own type, so that a type checker tells it from a line."""

    LINE = enum.auto()


_OVERSIZE: Final = _Oversize.LINE
"""What `_Child.ask` returns for an answer over `MAX_REPLY_BYTES`."""


def is_stdio(spec: str) -> bool:
    return spec.startswith(STDIO_PREFIX)


def request_line(call: str, request: Message) -> bytes:
    """One request as the process reads it: `{call: request}` on one line. Fields at their
    default value are written too, so an option's `index` 0 or seat 0 is never missing."""
    body = json_format.MessageToDict(request, always_print_fields_with_no_presence=True)
    return json.dumps({call: body}, separators=(",", ":")).encode() + b"\n"


class _Child:
    """One process of a stdio bot: its pipes, and how many answers it owes."""

    def __init__(
        self,
        stdout: asyncio.ReadTransport,
        reader: asyncio.StreamReader,
        stdin: asyncio.WriteTransport,
    ):
        self._stdout, self._reader, self._stdin = stdout, reader, stdin
        self._line = bytearray()
        self._skipping = False  # inside a line over the limit: dropped as it arrives
        self._owed = 0  # requests written whose answers have not been read

    @classmethod
    async def connect(cls, process: subprocess.Popen) -> _Child:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        stdout, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), process.stdout
        )
        stdin, _ = await loop.connect_write_pipe(asyncio.BaseProtocol, process.stdin)
        return cls(stdout, reader, stdin)

    async def ask(self, request: bytes) -> bytes | _Oversize | None:
        """The answer to `request`: the line after those owed to earlier requests, whose
        callers gave up waiting; `_OVERSIZE`; or None once the process's stdout has ended.
        Cancelling it loses nothing: the answer is still owed, and dropped when it comes."""
        self._stdin.write(request)
        self._owed += 1
        while True:
            answer = await self._read_line()
            if answer is None:
                return None
            self._owed -= 1
            if not self._owed:
                return answer

    async def _read_line(self) -> bytes | _Oversize | None:
        """The next line without its newline, `_OVERSIZE` or None at the end; never
        more than MAX_REPLY_BYTES and a read or two of a line held."""
        while True:
            end = self._line.find(b"\n")
            if self._skipping:
                del self._line[: len(self._line) if end < 0 else end + 1]
                self._skipping = end < 0
                if end >= 0:
                    continue
            elif end > MAX_REPLY_BYTES or (end < 0 and len(self._line) > MAX_REPLY_BYTES):
                self._skipping = True
                return _OVERSIZE
            elif end >= 0:
                line = bytes(self._line[:end])
                del self._line[: end + 1]
                return line
            chunk = await self._reader.read(64 * 1024)
            if not chunk:
                return None
            self._line += chunk

    def close(self) -> None:
        self._stdout.close()
        self._stdin.close()


class StdioBridge(bot_pb2_grpc.BotServiceServicer):
    """A BotService server on 127.0.0.1 that forwards every call to a stdio bot's process,
    one call at a time."""

    def __init__(self) -> None:
        self._server = grpc.aio.server()
        bot_pb2_grpc.add_BotServiceServicer_to_server(self, self._server)
        self._lock = asyncio.Lock()
        self._child: _Child | None = None
        self._connecting: asyncio.Task | None = None
        self._running = asyncio.Event()

    async def serve(self) -> int:
        """Listen on a free port of 127.0.0.1 and return it."""
        port = self._server.add_insecure_port("127.0.0.1:0")
        await self._server.start()
        return port

    def attach(self, process: subprocess.Popen) -> None:
        """Speak to `process` from now on: the bot's first, or a restart of a dead one."""
        self._detach()
        self._connecting = asyncio.ensure_future(self._connect(process))

    async def _connect(self, process: subprocess.Popen) -> None:
        self._child = await _Child.connect(process)
        self._running.set()

    def _detach(self) -> None:
        self._running.clear()
        if self._connecting is not None:
            self._connecting.cancel()
        if self._child is not None:
            self._child.close()
            self._child = None

    async def close(self) -> None:
        self._detach()
        await self._server.stop(grace=None)

    async def Hello(self, request, context):
        return await self._forward("hello", request, bot_pb2.HelloResponse(), context)

    async def Decide(self, request, context):
        return await self._forward("decide", request, bot_pb2.DecideResponse(), context)

    async def MatchOver(self, request, context):
        return await self._forward("matchOver", request, bot_pb2.MatchOverResponse(), context)

    async def _forward(
        self, call: str, request: Message, reply: Message, context: grpc.aio.ServicerContext
    ) -> Message:
        """Ask the process and parse its line into `reply`, or fail the call as the
        referee's client classifies it. The referee's deadline cancels a call that is late,
        queued or not."""
        line = request_line(call, request)
        async with self._lock:
            child = await self._process(context)
            answer = await child.ask(line)
            if answer is None and child is self._child:
                self._running.clear()  # until the launcher attaches its restart
        if answer is None:
            await context.abort(grpc.StatusCode.UNAVAILABLE, "the bot's process ended")
        if answer is _OVERSIZE:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED, f"a line over {MAX_REPLY_BYTES:,} bytes"
            )
        try:
            message = json.loads(answer)
            if not isinstance(message, dict):
                raise ValueError("not a JSON object")
            json_format.ParseDict(message, reply)
        except (ValueError, RecursionError, json_format.ParseError) as error:
            reason = " ".join(str(error).split())  # protobuf's reasons run over lines
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"its line is not a {reply.DESCRIPTOR.name}: {reason}",
            )
        return reply

    async def _process(self, context: grpc.aio.ServicerContext) -> _Child:
        """The running process. While the launcher restarts it the call waits, as a call
        to a gRPC bot waits for it to listen again, until just before its deadline."""
        remaining = context.time_remaining()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(None if remaining is None else remaining - RESTART_GRACE):
                await self._running.wait()
        if not self._running.is_set() or self._child is None:  # late, or detached again
            await context.abort(grpc.StatusCode.UNAVAILABLE, "the bot's process is not running")
        return self._child
