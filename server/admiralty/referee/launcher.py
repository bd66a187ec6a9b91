"""Start bot processes (or reach running ones), wait until they answer `Hello`, and keep
them running.

A BOT argument is one of:
- `grpc://host:port` (or `host:port`): a bot that is already running;
- a Python file: run with this interpreter;
- a command line: run as given;
- `stdio:` and a file or command: a bot with no gRPC, spoken to in JSON lines over its
  stdin and stdout by a `StdioBridge` that its client reaches instead (see `stdio`).
A spawned gRPC bot is told its port twice: as `ADMIRALTY_PORT=N`, and in its arguments,
where its command has `{port}` or else as `--port N` appended. It runs as the same user as
the referee, in a fresh working directory of its own (arguments naming existing files are
made absolute first), with stdin closed (a stdio bot's stdin and stdout are its bridge's)
and the end of its stderr kept in memory (`StderrTail`); it is sent SIGTERM if the
referee dies.

A launched bot that dies is restarted on its port after a backoff; after `MAX_CRASHES`
deaths in one run it is disqualified: its client is marked absent, and every later seat of
it is played by the failure policy and placed last.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import grpc

from admiralty.referee.clients import HELLO_TIMEOUT, MAX_REPLY_BYTES, BotClient, HelloError
from admiralty.referee.stdio import STDIO_PREFIX, StdioBridge, is_stdio

STARTUP_TIMEOUT = HELLO_TIMEOUT
MAX_CRASHES = 3
"""Deaths of a launched bot in one run after which it is disqualified."""
DISQUALIFIED = "disqualified"
"""How the reason of a disqualified bot begins, and with it its seats' incident details."""
RESTART_BACKOFF = 0.5
"""Seconds before the first restart; doubled for each further one."""
STDERR_KEPT = 8192
"""Bytes of a launched bot's stderr the referee keeps, the last ones written."""


class BotLaunchError(RuntimeError):
    """A bot could not be started or reached; the message says which and why."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def is_address(spec: str) -> bool:
    return spec.startswith("grpc://")


def bot_command(spec: str) -> list[str]:
    """The argv that starts the bot `spec`; BotLaunchError if it names no runnable thing."""
    try:
        argv = shlex.split(spec)
    except ValueError as error:
        raise BotLaunchError(f"bot command {spec!r} cannot be parsed: {error}") from None
    if not argv:
        raise BotLaunchError("empty bot command")
    head = Path(argv[0])
    if head.suffix == ".py" or os.sep in argv[0]:
        if not head.is_file():
            raise BotLaunchError(f"bot file not found: {head}")
        if not os.access(head, os.R_OK):
            raise BotLaunchError(f"bot file not readable: {head}")
        if head.suffix == ".py":
            return [sys.executable, *_absolute([argv[0], *argv[1:]])]
        if not os.access(head, os.X_OK):
            raise BotLaunchError(f"bot file is not executable: {head}")
    elif shutil.which(argv[0]) is None:
        raise BotLaunchError(f"bot command not found: {spec!r}")
    return _absolute(argv)


def _absolute(argv: Sequence[str]) -> list[str]:
    """Arguments naming existing files, made absolute: the bot runs in its own directory."""
    return [os.path.abspath(arg) if os.sep in arg and Path(arg).exists() else arg
            for arg in argv]


def with_port(argv: Sequence[str], port: int) -> list[str]:
    """`argv` told its port: in place of each `{port}`, or else as `--port N` appended (a
    bot that takes its port some other way would choke on an extra `--port`)."""
    if any("{port}" in arg for arg in argv):
        return [arg.replace("{port}", str(port)) for arg in argv]
    return [*argv, "--port", str(port)]


DIE_WITH_PARENT = """
import ctypes, os, signal, sys
try:
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: survives exec
except (OSError, AttributeError):
    pass
if os.getppid() != int(sys.argv[1]):
    sys.exit(0)  # the referee died before the request took hold
os.execvp(sys.argv[2], sys.argv[2:])
"""
"""Runs first in a launched bot's process and becomes the bot: Linux then sends the bot
SIGTERM when the referee dies, even by kill -9. (A preexec function would do the same, but
forking a process with gRPC threads running is not safe.)"""


class StderrTail:
    """The last `STDERR_KEPT` bytes a bot wrote to stderr, over all its restarts.

    A thread drains the pipe as fast as the bot writes, so a bot that floods stderr costs
    that thread's time, never the referee's memory or disk, and is never blocked on a full
    pipe; what error messages quote is its latest output."""

    def __init__(self) -> None:
        self._kept = bytearray()
        self._lock = threading.Lock()
        self._reader: threading.Thread | None = None

    def drain(self, pipe: IO[bytes]) -> None:
        """Read `pipe` to its end on a daemon thread."""
        self._reader = threading.Thread(target=self._read, args=(pipe,), name="bot-stderr",
                                        daemon=True)
        self._reader.start()

    def settle(self, timeout: float = 1.0) -> None:
        """Wait (a little) for the reader of a process that has exited to reach the end."""
        if self._reader is not None:
            self._reader.join(timeout)

    def _read(self, pipe: IO[bytes]) -> None:
        with pipe:
            for chunk in iter(lambda: os.read(pipe.fileno(), 65536), b""):
                with self._lock:
                    self._kept += chunk
                    del self._kept[:-STDERR_KEPT]

    def text(self) -> str:
        with self._lock:
            return self._kept.decode(errors="replace")


@dataclass
class LaunchedBot:
    """A bot this referee reaches: its client and, if it started the bot, its process."""

    spec: str
    client: BotClient
    argv: list[str] = field(default_factory=list)
    port: int = 0
    process: subprocess.Popen | None = None
    workdir: Path | None = None
    stderr: StderrTail | None = None
    crashes: int = 0
    on_crash: Callable[[LaunchedBot], None] | None = None
    bridge: StdioBridge | None = None
    """A stdio bot's: what its client reaches on `port`, speaking to the process's pipes."""
    _supervisor: asyncio.Task | None = field(default=None, repr=False)
    _stopping: bool = False

    @property
    def disqualified(self) -> str:
        return self.client.absent

    def start(self) -> None:
        """Start (or restart) the process: on its port, or on its bridge's pipes."""
        if self.bridge is None:
            pipe, env = subprocess.DEVNULL, {**os.environ, "ADMIRALTY_PORT": str(self.port)}
        else:
            pipe, env = subprocess.PIPE, None
        self.process = subprocess.Popen(
            [sys.executable, "-c", DIE_WITH_PARENT, str(os.getpid()), *self.argv],
            cwd=self.workdir, stdin=pipe, stdout=pipe, stderr=subprocess.PIPE, env=env)
        if self.stderr is not None and self.process.stderr is not None:
            self.stderr.drain(self.process.stderr)
        if self.bridge is not None:
            self.bridge.attach(self.process)

    def stderr_tail(self, lines: int = 8, width: int = 200) -> str:
        """The end of the bot's stderr, each line cut to `width` characters: what a bot
        prints (its own name, say) never floods the referee's error message."""
        if self.stderr is None:
            return ""
        if self.process is not None and self.process.poll() is not None:
            self.stderr.settle()
        tail = self.stderr.text()
        return "\n".join(line if len(line) <= width else line[:width - 1] + "…"
                         for line in tail.splitlines()[-lines:])

    def supervise(self, startup_timeout: float) -> None:
        """Restart the process whenever it dies, until stopped or disqualified."""
        if self.process is not None:
            self._supervisor = asyncio.ensure_future(self._watch(startup_timeout))

    async def _watch(self, startup_timeout: float) -> None:
        while True:
            await asyncio.to_thread(self.process.wait)
            if self._stopping:
                return
            self.crashes += 1
            if self.on_crash is not None:
                self.on_crash(self)
            if self.crashes >= MAX_CRASHES:
                self.client.absent = f"{DISQUALIFIED}: its process died {self.crashes} times"
                return
            await asyncio.sleep(RESTART_BACKOFF * 2 ** (self.crashes - 1))
            self.start()
            with contextlib.suppress(BotLaunchError):
                await _await_hello(self, startup_timeout)

    async def stop(self) -> None:
        self._stopping = True
        if self._supervisor is not None:
            self._supervisor.cancel()
        await self.client.close()
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                await asyncio.to_thread(self.process.wait, 5)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self.bridge is not None:
            await self.bridge.close()
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)


async def launch(spec: str, timeout: float = STARTUP_TIMEOUT) -> LaunchedBot:
    """Start (or reach) the bot `spec` and wait for its `Hello`."""
    if is_address(spec):
        bot = LaunchedBot(spec, BotClient(spec))
    elif is_stdio(spec):
        argv = bot_command(spec.removeprefix(STDIO_PREFIX))
        bridge = StdioBridge()
        bot = _spawn(spec, argv, await bridge.serve(), bridge)
    else:
        port = free_port()
        bot = _spawn(spec, with_port(bot_command(spec), port), port)
    try:
        await _await_hello(bot, timeout)
    except BaseException:
        await bot.stop()
        raise
    return bot


WORKDIR_PREFIX = "admiralty-bot-"


def _spawn(spec: str, argv: list[str], port: int, bridge: StdioBridge | None = None
           ) -> LaunchedBot:
    """Start `argv` in a fresh working directory, its client reaching `port`."""
    sweep_workdirs()
    workdir = Path(tempfile.mkdtemp(prefix=f"{WORKDIR_PREFIX}{os.getpid()}-"))
    bot = LaunchedBot(spec, BotClient(f"127.0.0.1:{port}"), argv, port, workdir=workdir,
                      stderr=StderrTail(), bridge=bridge)
    bot.start()
    return bot


@functools.cache
def sweep_workdirs() -> int:
    """Remove the bots' working directories that a referee killed before it could stop
    its bots left behind (the directory is named for the referee's pid); how many. Once
    per process: a tournament killed and resumed again and again must not fill the disk."""
    removed = 0
    for entry in Path(tempfile.gettempdir()).glob(f"{WORKDIR_PREFIX}*-*"):
        pid = entry.name.removeprefix(WORKDIR_PREFIX).split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not pid_alive(int(pid)):
            shutil.rmtree(entry, ignore_errors=True)
            removed += not entry.exists()
    return removed


def pid_alive(pid: int) -> bool:
    """Whether a process `pid` exists on this host (of any user)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


EXIT_GRACE = 1.0
"""Seconds a launched bot's Hello call has, once its process is seen to have exited, to fail
on its dropped connection (it died answering) rather than wait for a server (it died before
listening)."""


async def _await_hello(bot: LaunchedBot, timeout: float) -> None:
    hello = asyncio.ensure_future(bot.client.hello(timeout))
    while not hello.done():
        if bot.process is not None and bot.process.poll() is not None:
            # A bot that died answering Hello fails the call at once (its connection drops);
            # one that died before it listened leaves the call waiting for a server. Give
            # the call a moment to tell which, so the error says the same either way the
            # exit and the call's failure are seen first.
            await asyncio.wait([hello], timeout=EXIT_GRACE)
            if not hello.done():
                hello.cancel()
                raise BotLaunchError(_failure(bot, f"exited with code {bot.process.returncode}"))
            break
        await asyncio.wait([hello], timeout=0.05)
    try:
        hello.result()
    except HelloError as error:
        raise BotLaunchError(_failure(bot, f"was refused: {error}", tail=False)) from None
    except grpc.aio.AioRpcError as error:
        if error.code() is grpc.StatusCode.RESOURCE_EXHAUSTED:
            raise BotLaunchError(_failure(bot, f"was refused: its Hello is over "
                                               f"{MAX_REPLY_BYTES:,} bytes", tail=False)
                                 ) from None
        if (error.code() is grpc.StatusCode.UNAVAILABLE
                and await _exit_code(bot) is not None):  # it died answering: say so
            raise BotLaunchError(_failure(
                bot, f"exited with code {bot.process.returncode} when asked Hello")) from None
        details = (error.details() or "")[:200]
        raise BotLaunchError(_failure(
            bot, f"did not answer Hello ({error.code().name}{': ' if details else ''}"
                 f"{details})")) from None


async def _exit_code(bot: LaunchedBot, wait: float = 1.0) -> int | None:
    """The exit code of a bot process that has ended or ends within `wait` seconds."""
    if bot.process is None:
        return None
    with contextlib.suppress(subprocess.TimeoutExpired):
        await asyncio.to_thread(bot.process.wait, wait)
    return bot.process.poll()


def _failure(bot: LaunchedBot, what: str, tail: bool = True) -> str:
    """One line saying what went wrong; for a bot that did not answer, the end of its
    stderr (a refused bot answered: its stderr is beside the point)."""
    text = bot.stderr_tail() if tail else ""
    return f"bot {bot.spec!r} {what}" + (f"; its stderr ends:\n{text}" if text else "")


async def launch_all(specs: Sequence[str], timeout: float = STARTUP_TIMEOUT,
                     supervise: bool = True) -> list[LaunchedBot]:
    """Launch every bot at once (one process per spec, each may play many seats and
    matches), supervised unless told otherwise."""
    results = await asyncio.gather(*(launch(spec, timeout) for spec in specs),
                                   return_exceptions=True)
    launched = [r for r in results if isinstance(r, LaunchedBot)]
    errors = [r for r in results if isinstance(r, BaseException)]
    if errors:
        await stop_all(launched)
        raise errors[0]
    if supervise:
        for bot in launched:
            bot.supervise(timeout)
    return launched


async def stop_all(bots: Sequence[LaunchedBot]) -> None:
    await asyncio.gather(*(bot.stop() for bot in bots))


def check_plays(bots: Sequence[LaunchedBot], game: str) -> None:
    """BotLaunchError naming the first bot whose Hello does not list `game`."""
    for bot in bots:
        if not bot.client.plays(game):
            raise BotLaunchError(f"bot {bot.client.name!r} ({bot.spec}) does not play {game}")
