"""Start bot processes (or reach running ones), wait until they answer `Hello`, and keep
them running.

A BOT argument is one of:
- `grpc://host:port` (or `host:port`): a bot that is already running;
- a Python file: run with this interpreter;
- a command line: run as given;
- `stdio:` and a file or command: a bot with no gRPC, spoken to in JSON lines over its
  stdin and stdout by a `StdioBridge` that its client reaches instead (see `stdio`).
A spawned gRPC bot is told its port twice: as `ADMIRALTY_PORT=N`, and in its arguments,
where its command has `{port}` or else as `--port N` appended. It runs in a fresh working
directory of its own (arguments naming existing files are made absolute first), with an
environment of its own (`bot_environment`: an allowlist, nothing else of the operator's),
stdin closed (a stdio bot's stdin and stdout are its bridge's) and the end of its stderr
kept in memory (`StderrTail`); it is sent SIGTERM if the referee dies. It runs as the
referee's user unless an `Isolation` says otherwise: as another user (`--bot-user`), and
in a bubblewrap sandbox (`--sandbox`, `sandbox_command`).

A launched bot that dies is restarted on its port after a backoff; after `MAX_CRASHES`
deaths in one run it is disqualified: its client is marked absent, and every later seat of
it is played by the failure policy and placed last.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import pwd
import re
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

import admiralty_sdk
from admiralty.referee.clients import (
    HELLO_TIMEOUT,
    MAX_REPLY_BYTES,
    BotClient,
    HelloError,
    normalise_address,
)
from admiralty.referee.stdio import STDIO_PREFIX, StdioBridge, is_stdio
from admiralty.text import printable

STARTUP_TIMEOUT = HELLO_TIMEOUT
MAX_CRASHES = 3
"""Deaths of a launched bot in one run after which it is disqualified."""
DISQUALIFIED = "disqualified"
"""How the reason of a disqualified bot begins, and with it its seats' incident details."""
RESTART_BACKOFF = 0.5
"""Seconds before the first restart; doubled for each further one."""
ERROR_LINE = re.compile(r"\b(error|exception|fatal|panic)\b", re.IGNORECASE)
"""A line of a bot's stderr that names what went wrong (`Error: ...`, `fatal error: ...`)."""
STDERR_KEPT = 8192
"""Bytes of a launched bot's stderr the referee keeps, the last ones written."""


class BotLaunchError(RuntimeError):
    """A bot could not be started or reached; the message says which and why."""


class IsolationError(BotLaunchError, ValueError):
    """This machine cannot isolate bots as asked; the message says why, in one line. (A
    ValueError too: a setting that cannot be used, refused with the others.)"""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def is_address(spec: str) -> bool:
    return spec.startswith("grpc://")


PROBE_TIMEOUT = 2.0
"""Seconds a `grpc://` bot's address has to accept a TCP connection before Hello is asked."""


async def check_reachable(spec: str, timeout: float = PROBE_TIMEOUT) -> None:
    """BotLaunchError unless the address of `spec` is HOST:PORT and accepts a connection: a
    mistyped address or a bot that is not running fails at once, not at the Hello timeout.
    A port that is no number from 1 to 65535 fails before the host is looked up."""
    host, colon, port = normalise_address(spec).rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not (colon and host and port.isdigit() and 1 <= int(port) <= 65535):
        raise BotLaunchError(
            f"bot {spec!r}: invalid address: expected grpc://HOST:PORT with a PORT from 1 to 65535"
        )
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, int(port)), timeout)
    except socket.gaierror as error:
        raise BotLaunchError(f"bot {spec!r}: invalid address: {error.strerror}") from None
    except ConnectionRefusedError:
        raise BotLaunchError(
            f"bot {spec!r}: connection refused: nothing listens on {host}:{port}"
        ) from None
    except TimeoutError:
        raise BotLaunchError(
            f"bot {spec!r}: no connection to {host}:{port} within {timeout:g} s"
        ) from None
    except OSError as error:
        raise BotLaunchError(
            f"bot {spec!r}: cannot connect to {host}:{port}: {error.strerror}"
        ) from None
    writer.close()


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
        if head.suffix != ".py" and not os.access(head, os.X_OK):
            raise BotLaunchError(f"bot file is not executable: {head}")
        program = [sys.executable] if head.suffix == ".py" else []
        return [*program, *_absolute(argv)]
    if shutil.which(argv[0]) is None:
        raise BotLaunchError(f"bot command not found: {spec!r}")
    return [argv[0], *_absolute(argv[1:])]  # a command's name is looked up on PATH


def _absolute(argv: Sequence[str]) -> list[str]:
    """Arguments naming existing files (`my_bot.py` as well as `bots/my_bot.py`), made
    absolute: the bot runs in its own directory."""
    return [os.path.abspath(arg) if arg and os.path.exists(arg) else arg for arg in argv]


def with_port(argv: Sequence[str], port: int) -> list[str]:
    """`argv` told its port: in place of each `{port}`, or else as `--port N` appended (a
    bot that takes its port some other way would choke on an extra `--port`)."""
    if any("{port}" in arg for arg in argv):
        return [arg.replace("{port}", str(port)) for arg in argv]
    return [*argv, "--port", str(port)]


DIE_WITH_PARENT = """
import ctypes, os, signal, sys
parent, account, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
if account:  # UID:GID of --bot-user, taken first: a change of user clears the signal below
    uid, gid = map(int, account.split(":"))
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
try:
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: survives exec
except (OSError, AttributeError):
    pass
if os.getppid() != parent:
    sys.exit(0)  # the referee died before the request took hold
try:
    os.execvp(command[0], command)
except OSError as error:
    sys.exit(f"cannot run {command[0]}: {error.strerror}")
"""
"""Runs first in a launched bot's process and becomes the bot, as the bot's user: Linux
then sends the bot SIGTERM when the referee dies, even by kill -9. (A preexec function
would do the same, but forking a process with gRPC threads running is not safe.) This is
how a launched bot stops with its referee; a bot started by hand keeps running."""

PASSED_ENVIRONMENT = ("PATH", "LANG", "LANGUAGE", "PYTHONPATH", "NODE_PATH", "LD_LIBRARY_PATH")
"""The variables of the referee's environment a launched bot gets (and every `LC_*`): where
programs and the runtimes' libraries are, and the locale."""


def bot_environment(workdir: Path, port: int | None, isolated: bool) -> dict[str, str]:
    """The whole environment of a bot started in `workdir`: `PASSED_ENVIRONMENT` and `LC_*`,
    HOME and TMPDIR (the operator's, or for an `isolated` bot its working directory) and
    `ADMIRALTY_PORT` for a gRPC bot. Nothing else of the operator's reaches it: no
    ADMIRALTY_TOKEN, no credentials, no gRPC or proxy settings."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if name in PASSED_ENVIRONMENT or name.startswith("LC_")
    }
    environment.setdefault("PATH", os.defpath)
    own = str(workdir)
    environment["HOME"] = own if isolated else os.environ.get("HOME", own)
    environment["TMPDIR"] = own if isolated else tempfile.gettempdir()
    if port is not None:
        environment["ADMIRALTY_PORT"] = str(port)
    return environment


@dataclass(frozen=True)
class Isolation:
    """How launched bots are kept from the operator: run as `user` (the referee runs as
    root), and in a bubblewrap sandbox each (`sandbox_command`). Neither by default."""

    user: str | None = None
    sandbox: bool = False

    @property
    def isolated(self) -> bool:
        return self.user is not None or self.sandbox

    @property
    def account(self) -> tuple[int, int] | None:
        """The uid and gid bots run as, if not the referee's."""
        if self.user is None:
            return None
        entry = pwd.getpwnam(self.user)
        return entry.pw_uid, entry.pw_gid

    def check(self) -> None:
        """IsolationError if this machine cannot isolate bots so."""
        _check_isolation(self)


NO_ISOLATION = Isolation()


@functools.cache
def _check_isolation(isolation: Isolation) -> None:
    if isolation.user is not None:
        if os.geteuid() != 0:
            raise IsolationError(
                f"--bot-user needs admiralty to run as root; it runs as uid {os.geteuid()}"
            )
        try:
            isolation.account  # noqa: B018  (looked up: KeyError if there is no such user)
        except KeyError:
            raise IsolationError(f"--bot-user: there is no user {isolation.user!r} here") from None
    if isolation.sandbox:
        if shutil.which("bwrap") is None:
            raise IsolationError(
                "--sandbox needs bubblewrap (bwrap), which is not installed "
                "(Debian, Ubuntu: apt-get install bubblewrap)"
            )
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                DIE_WITH_PARENT,
                str(os.getpid()),
                _account(isolation),
                "bwrap",
                *SANDBOX_NAMESPACES,
                "--ro-bind",
                "/",
                "/",
                "true",
            ],
            capture_output=True,
            text=True,
            env={"PATH": os.environ.get("PATH", os.defpath)},
        )
        if probe.returncode != 0:
            said = probe.stderr.strip().splitlines() or [f"exit code {probe.returncode}"]
            raise IsolationError(f"--sandbox: bubblewrap cannot make a sandbox here: {said[-1]}")


def _account(isolation: Isolation) -> str:
    """`DIE_WITH_PARENT`'s UID:GID argument ("" for the referee's own user)."""
    account = isolation.account
    return "" if account is None else f"{account[0]}:{account[1]}"


SANDBOX_NAMESPACES = (
    "--unshare-all",
    "--unshare-user",
    "--uid",
    "65534",
    "--gid",
    "65534",
    "--die-with-parent",
    "--new-session",
    "--hostname",
    "bot",
)
"""Its own user (the bot is uid 65534 inside, with no capabilities), processes, network,
IPC, host name and session; killed with bwrap, and bwrap dies with the referee."""
SANDBOX_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SANDBOX_ETC = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
    "/etc/hosts",
    "/etc/nsswitch.conf",
)
"""The system's directories and the few files of /etc that programs need to start, all
read-only in a sandbox."""

RELAY = """
import asyncio, socket, subprocess, sys

async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except OSError:
        pass
    writer.close()

async def relay(referee_reader, referee_writer):
    try:
        bot = await asyncio.open_connection("127.0.0.1", int(sys.argv[2]))
    except OSError:  # the bot is not listening yet: the referee's channel tries again
        referee_writer.close()
        return
    await asyncio.gather(pipe(referee_reader, bot[1]), pipe(bot[0], referee_writer))

async def main():
    try:
        bot = subprocess.Popen(sys.argv[3:])
    except OSError as error:
        sys.exit(f"cannot run {sys.argv[3]}: {error.strerror}")
    await asyncio.start_server(relay, sock=socket.socket(fileno=int(sys.argv[1])))
    code = await asyncio.to_thread(bot.wait)
    sys.exit(code if code >= 0 else 128 - code)

asyncio.run(main())
"""
"""Runs in a sandboxed gRPC bot's sandbox, beside the bot, which it starts: every
connection the referee makes to its port (a socket the referee listens on and hands in) is
relayed to the bot's port on the sandbox's own loopback. The bot has no other network."""


def sandbox_command(
    argv: Sequence[str], workdir: Path, listener: socket.socket | None, port: int
) -> list[str]:
    """`argv` run by bubblewrap in a sandbox of its own (`SANDBOX_NAMESPACES`): it sees the
    system's directories read-only (`SANDBOX_SYSTEM`, `SANDBOX_ETC`) and `_sandbox_paths`,
    a private /tmp, and `workdir`, its working directory, the only place it may write; no
    process and no network of the host. A gRPC bot (with the referee's `listener` on `port`)
    is reached through `RELAY`; a stdio bot needs no network at all."""
    command = ["bwrap", *SANDBOX_NAMESPACES, "--proc", "/proc", "--dev", "/dev"]
    for path in SANDBOX_SYSTEM:
        if os.path.islink(path):
            command += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            command += ["--ro-bind", path, path]
    command += [
        arg for path in SANDBOX_ETC if os.path.exists(path) for arg in ("--ro-bind", path, path)
    ]
    command += ["--tmpfs", "/tmp"]
    python = listener is not None or _this_python(argv[0])  # the relay, or a Python bot
    command += [arg for path in _sandbox_paths(argv, python) for arg in ("--ro-bind", path, path)]
    command += ["--bind", str(workdir), str(workdir), "--chdir", str(workdir)]
    if listener is None:
        return [*command, *argv]
    return [
        *command,
        sys.executable,
        "-I",
        "-S",
        "-c",
        RELAY,
        str(listener.fileno()),
        str(port),
        *argv,
    ]


def _this_python(program: str) -> bool:
    """Whether `program` (a path, or a name on PATH) is the interpreter running the referee."""
    found = shutil.which(program)
    return found is not None and os.path.realpath(found) == os.path.realpath(sys.executable)


def _sandbox_paths(argv: Sequence[str], python: bool) -> list[str]:
    """What a sandboxed bot sees read-only besides the system: this interpreter's
    installation and the SDK if it runs on this interpreter (`python`); the directories of
    the runtimes' search paths (PYTHONPATH, NODE_PATH, LD_LIBRARY_PATH); and every directory
    its command names, or holding a file it names: a bot's own directory."""
    paths: set[str] = set()
    if python:
        paths |= {sys.prefix, sys.base_prefix, str(Path(admiralty_sdk.__file__).parent)}
    for name in ("PYTHONPATH", "NODE_PATH", "LD_LIBRARY_PATH"):
        paths.update(os.environ.get(name, "").split(os.pathsep))
    paths.update(
        arg if os.path.isdir(arg) else os.path.dirname(arg)
        for arg in argv
        if os.path.isabs(arg) and os.path.exists(arg)
    )
    shown: list[str] = []  # each once, none inside another (nor "/": that would be all)
    for path in sorted(os.path.abspath(path) for path in paths if path and os.path.isdir(path)):
        inside = any(
            path == seen or path.startswith(f"{seen}/") for seen in (*SANDBOX_SYSTEM, *shown)
        )
        if path != "/" and not inside:
            shown.append(path)
    return shown


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
        self._reader = threading.Thread(
            target=self._read, args=(pipe,), name="bot-stderr", daemon=True
        )
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
    isolation: Isolation = NO_ISOLATION
    listener: socket.socket | None = None
    """A sandboxed gRPC bot's `port`, listened on by the referee and relayed into its
    sandbox (`RELAY`); held across restarts."""
    _supervisor: asyncio.Task | None = field(default=None, repr=False)
    _stopping: bool = False

    @property
    def disqualified(self) -> str:
        return self.client.absent

    def start(self) -> None:
        """Start (or restart) the process: on its port, or on its bridge's pipes."""
        assert self.workdir is not None  # a bot the referee starts has one
        pipe = subprocess.DEVNULL if self.bridge is None else subprocess.PIPE
        command = self.argv
        if self.isolation.sandbox:
            command = sandbox_command(self.argv, self.workdir, self.listener, self.port)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                DIE_WITH_PARENT,
                str(os.getpid()),
                _account(self.isolation),
                *command,
            ],
            cwd=self.workdir,
            stdin=pipe,
            stdout=pipe,
            stderr=subprocess.PIPE,
            env=bot_environment(
                self.workdir, self.port if self.bridge is None else None, self.isolation.isolated
            ),
            pass_fds=() if self.listener is None else (self.listener.fileno(),),
        )
        if self.stderr is not None and self.process.stderr is not None:
            self.stderr.drain(self.process.stderr)
        if self.bridge is not None:
            self.bridge.attach(self.process)

    def stderr_tail(self, lines: int = 8, width: int = 200, settle: bool = True) -> str:
        """The end of the bot's stderr, each line cut to `width` characters and its control
        characters escaped: what a bot prints (its own name, say) never floods the referee's
        error message, nor reaches the operator's terminal raw. When the first line naming an
        error comes before that end (Node's `Error: Cannot find module` is followed by its
        stack), it leads, marked `first error:`. `settle`: first wait (a second at most) for
        the reader of an exited bot to reach the end of its stderr; never during a match,
        where the wait would hold up every match of the referee."""
        if self.stderr is None:
            return ""
        if settle and self.process is not None and self.process.poll() is not None:
            self.stderr.settle()
        kept = [
            line if len(line) <= width else line[: width - 1] + "…"
            for line in printable(self.stderr.text(), lines=True).splitlines()
        ]
        first = next((n for n, line in enumerate(kept) if ERROR_LINE.search(line)), None)
        lead = (
            [f"first error: {kept[first]}"]
            if first is not None and first < len(kept) - lines
            else []
        )
        return "\n".join([*lead, *kept[-lines:]])

    def diagnosis(self, reported: bool) -> str:
        """What an incident adds to a call this bot failed: with an error status it sent
        (`reported`), or by crashing. A Python gRPC bot runs on the SDK, which reports where
        it raised: the way to its whole traceback. Otherwise the last lines of its stderr,
        where its runtime wrote what went wrong."""
        hint = (
            "(`admiralty play --local` with this bot shows the whole traceback)"
            if self.bridge is None and self.argv[:1] == [sys.executable]
            else ""
        )
        tail = "" if reported and hint else self.stderr_tail(lines=3, settle=False)
        return "\n".join(filter(None, (f"its stderr ends:\n{tail}" if tail else "", hint)))

    def supervise(self, startup_timeout: float) -> None:
        """Restart the process whenever it dies, until stopped or disqualified."""
        if self.process is not None:
            self._supervisor = asyncio.ensure_future(self._watch(startup_timeout))

    async def _watch(self, startup_timeout: float) -> None:
        while (process := self.process) is not None:
            await asyncio.to_thread(process.wait)
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
        if self.listener is not None:
            self.listener.close()
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)


async def launch(
    spec: str, timeout: float = STARTUP_TIMEOUT, isolation: Isolation = NO_ISOLATION
) -> LaunchedBot:
    """Start (or reach) the bot `spec`, isolated as asked, and wait for its `Hello`."""
    isolation.check()
    if is_address(spec):
        await check_reachable(spec, min(PROBE_TIMEOUT, timeout))
        bot = LaunchedBot(spec, BotClient(spec))
    elif is_stdio(spec):
        argv = bot_command(spec.removeprefix(STDIO_PREFIX))
        bridge = StdioBridge()
        bot = _spawn(spec, argv, await bridge.serve(), isolation, bridge=bridge)
    else:
        argv = bot_command(spec)
        listener = socket.create_server(("127.0.0.1", 0)) if isolation.sandbox else None
        port = free_port() if listener is None else listener.getsockname()[1]
        bot = _spawn(spec, with_port(argv, port), port, isolation, listener=listener)
    try:
        await _await_hello(bot, timeout)
    except BaseException:
        await bot.stop()
        raise
    return bot


WORKDIR_PREFIX = "admiralty-bot-"


def _spawn(
    spec: str,
    argv: list[str],
    port: int,
    isolation: Isolation,
    bridge: StdioBridge | None = None,
    listener: socket.socket | None = None,
) -> LaunchedBot:
    """Start `argv` in a fresh working directory (the bot user's, if it has one), its
    client reaching `port`."""
    sweep_workdirs()
    workdir = Path(tempfile.mkdtemp(prefix=f"{WORKDIR_PREFIX}{os.getpid()}-"))
    if isolation.account is not None:
        os.chown(workdir, *isolation.account)
    bot = LaunchedBot(
        spec,
        BotClient(f"127.0.0.1:{port}"),
        argv,
        port,
        workdir=workdir,
        stderr=StderrTail(),
        bridge=bridge,
        isolation=isolation,
        listener=listener,
    )
    bot.client.diagnose = bot.diagnosis
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
            raise BotLaunchError(
                _failure(
                    bot, f"was refused: its Hello is over {MAX_REPLY_BYTES:,} bytes", tail=False
                )
            ) from None
        code = await _exit_code(bot) if error.code() is grpc.StatusCode.UNAVAILABLE else None
        if code is not None:  # it died answering: say so
            raise BotLaunchError(
                _failure(bot, f"exited with code {code} when asked Hello")
            ) from None
        details = (error.details() or "")[:200]
        raise BotLaunchError(
            _failure(
                bot, f"did not answer Hello ({error.code().name}{': ' if details else ''}{details})"
            )
        ) from None


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


async def launch_all(
    specs: Sequence[str],
    timeout: float = STARTUP_TIMEOUT,
    supervise: bool = True,
    isolation: Isolation = NO_ISOLATION,
) -> list[LaunchedBot]:
    """Launch every bot at once (one process per spec, each may play many seats and
    matches), isolated as asked, supervised unless told otherwise."""
    isolation.check()  # once, before any bot starts
    results = await asyncio.gather(
        *(launch(spec, timeout, isolation) for spec in specs), return_exceptions=True
    )
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
