"""Start bot processes (or reach running ones) and wait until they answer `Hello`.

A BOT argument is one of:
- `grpc://host:port` (or `host:port`): a bot that is already running;
- a Python file: run with this interpreter;
- a command line: run as given.
A spawned bot is told its port twice, as `--port N` and as `ADMIRALTY_PORT=N`.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from admiralty.referee.clients import BotClient

STARTUP_TIMEOUT = 20.0


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
    if spec.endswith(".py") or os.sep in spec.split()[0]:
        path = Path(spec.split()[0])
        if not path.is_file():
            raise BotLaunchError(f"bot file not found: {path}")
        if path.suffix == ".py":
            return [sys.executable, str(path), *shlex.split(spec)[1:]]
    argv = shlex.split(spec)
    if not argv or (shutil.which(argv[0]) is None and not Path(argv[0]).is_file()):
        raise BotLaunchError(f"bot command not found: {spec!r}")
    return argv


@dataclass
class LaunchedBot:
    """A bot process this referee started, with its client and its stderr log."""

    spec: str
    client: BotClient
    process: subprocess.Popen | None = None
    stderr: Path | None = None
    _log: object = field(default=None, repr=False)

    def stderr_tail(self, lines: int = 8) -> str:
        if self.stderr is None or not self.stderr.exists():
            return ""
        return "\n".join(self.stderr.read_text(errors="replace").splitlines()[-lines:])

    async def stop(self) -> None:
        await self.client.close()
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                await asyncio.to_thread(self.process.wait, 5)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self._log is not None:
            self._log.close()
        if self.stderr is not None:
            self.stderr.unlink(missing_ok=True)


async def launch(spec: str, timeout: float = STARTUP_TIMEOUT) -> LaunchedBot:
    """Start (or reach) the bot `spec` and wait for its `Hello`."""
    if is_address(spec):
        bot = LaunchedBot(spec, BotClient(spec))
    else:
        argv = bot_command(spec)
        port = free_port()
        log = tempfile.NamedTemporaryFile("w", prefix="admiralty-bot-", suffix=".log",
                                          delete=False)
        process = subprocess.Popen(
            [*argv, "--port", str(port)], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=log,
            env={**os.environ, "ADMIRALTY_PORT": str(port)})
        bot = LaunchedBot(spec, BotClient(f"127.0.0.1:{port}"), process, Path(log.name), log)
    try:
        await _await_hello(bot, timeout)
    except BaseException:
        await bot.stop()
        raise
    return bot


async def _await_hello(bot: LaunchedBot, timeout: float) -> None:
    hello = asyncio.ensure_future(bot.client.hello(timeout))
    while not hello.done():
        if bot.process is not None and bot.process.poll() is not None:
            hello.cancel()
            raise BotLaunchError(_failure(bot, f"exited with code {bot.process.returncode}"))
        await asyncio.wait([hello], timeout=0.05)
    try:
        hello.result()
    except grpc.aio.AioRpcError as error:
        raise BotLaunchError(_failure(bot, f"did not answer Hello ({error.code().name})")
                             ) from None


def _failure(bot: LaunchedBot, what: str) -> str:
    tail = bot.stderr_tail()
    return f"bot {bot.spec!r} {what}" + (f"; its stderr ends:\n{tail}" if tail else "")


async def launch_all(specs: Sequence[str], timeout: float = STARTUP_TIMEOUT
                     ) -> list[LaunchedBot]:
    """Launch every bot at once (one process per spec, each may play many seats and matches)."""
    results = await asyncio.gather(*(launch(spec, timeout) for spec in specs),
                                   return_exceptions=True)
    launched = [r for r in results if isinstance(r, LaunchedBot)]
    errors = [r for r in results if isinstance(r, BaseException)]
    if errors:
        await stop_all(launched)
        raise errors[0]
    return launched


async def stop_all(bots: Sequence[LaunchedBot]) -> None:
    await asyncio.gather(*(bot.stop() for bot in bots))


def check_plays(bots: Sequence[LaunchedBot], game: str) -> None:
    """BotLaunchError naming the first bot whose Hello does not list `game`."""
    for bot in bots:
        if not bot.client.plays(game):
            raise BotLaunchError(f"bot {bot.client.name!r} ({bot.spec}) does not play {game}")
