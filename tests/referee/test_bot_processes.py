"""What a launched bot runs as and sees, with real processes: the environment it gets (an
allowlist), the user it runs as (--bot-user), what its sandbox hides (--sandbox), and how
long it lives (a bot started by hand outlives its shell; a launched one dies with its
referee)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pwd
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from toolchains import BWRAP_INSTALL, require

from admiralty.referee.clients import BotClient
from admiralty.referee.launcher import (
    Isolation,
    IsolationError,
    LaunchedBot,
    _check_isolation,
    free_port,
    launch,
)

BOTS = Path(__file__).resolve().parent / "bots"
PRYING_BOT = BOTS / "prying_bot.py"
WHO_BOT = BOTS / "who_stdio_bot.sh"
RANDOM_BOT = Path(__file__).resolve().parents[2] / "example_bots" / "random_bot.py"
SECRET = "the operator's secret"
OPERATORS = {"ADMIRALTY_TOKEN": "operator-token", "AWS_SECRET_ACCESS_KEY": "operator-key"}


@pytest.fixture
def operator(monkeypatch, tmp_path):
    """The referee's environment: a home, a locale, an admin token and a credential, and
    no runtime search path (so what a bot should get is known exactly)."""
    for name in list(os.environ):
        if name.startswith("LC_") or name in (
            "LANGUAGE",
            "PYTHONPATH",
            "NODE_PATH",
            "LD_LIBRARY_PATH",
        ):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("LC_TIME", "C.UTF-8")
    for name, value in OPERATORS.items():
        monkeypatch.setenv(name, value)


async def _stderr_when(bot: LaunchedBot, marker: str) -> str:
    """The bot's stderr once it holds `marker` (it writes it before it serves, but the
    drain may lag behind the Hello)."""
    for _ in range(200):
        if marker in bot.stderr_tail(lines=200, width=1 << 16):
            break
        await asyncio.sleep(0.05)
    return bot.stderr_tail(lines=200, width=1 << 16)


def pry(isolation: Isolation, tmp_path: Path) -> tuple[dict, LaunchedBot]:
    """Launch the prying bot, isolated as asked, given a file of the operator's to peek
    at, this process's command line to spot and a port listening on 127.0.0.1 to dial;
    what it found, and the bot (stopped)."""
    secret = tmp_path / "operator" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text(SECRET)
    spot = Path("/proc/self/cmdline").read_bytes().hex()
    with socket.create_server(("127.0.0.1", 0)) as listening:
        spec = (
            f"{PRYING_BOT} --peek {str(secret).encode().hex()} --spot {spot} "
            f"--dial {listening.getsockname()[1]}"
        )

        async def run() -> tuple[dict, LaunchedBot]:
            bot = await launch(spec, isolation=isolation)
            try:
                said = await _stderr_when(bot, "PRYING ")
                return json.loads(said.split("PRYING ", 1)[1].splitlines()[0]), bot
            finally:
                await bot.stop()

        return asyncio.run(run())


def who(isolation: Isolation) -> tuple[dict[str, str], Path, os.stat_result]:
    """Launch the stdio bot that tells who it is: its uid and cwd, its environment, its
    working directory and how that directory was while it ran."""

    async def run() -> tuple[str, Path, os.stat_result]:
        bot = await launch(f"stdio:{WHO_BOT}", isolation=isolation)
        try:
            assert bot.workdir is not None
            return await _stderr_when(bot, "TMPDIR="), bot.workdir, bot.workdir.stat()
        finally:
            await bot.stop()

    said, workdir, status = asyncio.run(run())
    return dict(line.split("=", 1) for line in said.splitlines() if "=" in line), workdir, status


def test_a_launched_bot_gets_the_allowlisted_environment_and_nothing_else(operator, tmp_path):
    """A gRPC bot and a stdio bot: PATH, the locale, HOME and TMPDIR, and a gRPC bot its
    port; never the admin token or anything else of the operator's. Not isolated, it
    still reads the operator's files, sees their processes and reaches their network."""
    found, bot = pry(Isolation(), tmp_path)
    environment = found["environment"]
    assert set(environment) == {"PATH", "LANG", "LC_TIME", "HOME", "TMPDIR", "ADMIRALTY_PORT"}
    assert environment["PATH"] == os.environ["PATH"]
    assert environment["HOME"] == os.environ["HOME"]
    assert environment["TMPDIR"] == tempfile.gettempdir()
    assert environment["ADMIRALTY_PORT"] == str(bot.port)
    assert found["cwd"] == str(bot.workdir)
    assert (found["peek"], found["spotted"], found["dial"]) == (SECRET, True, "connected")

    told, _, _ = who(Isolation())
    assert set(told) - {"uid", "cwd"} == {"PATH", "LANG", "LC_TIME", "HOME", "TMPDIR"}
    assert not set(OPERATORS) & set(told)


def test_a_sandboxed_bot_sees_no_file_process_or_network_of_the_operators(operator, tmp_path):
    """In its sandbox the prying bot plays (the referee reaches it through the relay) but
    cannot read the operator's file, sees only its sandbox's processes, has no network to
    dial out on, runs as nobody, and its home and temporary directory are its own."""
    require(["bwrap"], BWRAP_INSTALL)
    found, bot = pry(Isolation(sandbox=True), tmp_path)
    assert found["peek"] == "denied: No such file or directory"
    assert not found["spotted"] and found["processes"] <= 3  # bwrap, the relay, the bot
    assert found["dial"] == "Connection refused"
    assert (found["uid"], found["host"], found["cwd"]) == (65534, "bot", str(bot.workdir))
    environment = found["environment"]
    assert set(environment) == {
        "PATH",
        "LANG",
        "LC_TIME",
        "HOME",
        "TMPDIR",
        "ADMIRALTY_PORT",
        "PWD",
    }  # bubblewrap sets PWD
    assert environment["HOME"] == environment["TMPDIR"] == str(bot.workdir)
    assert environment["ADMIRALTY_PORT"] == str(bot.port)


def test_bots_run_as_the_bot_user_only_when_the_referee_is_root(operator):
    """As root: the stdio bot runs as nobody, in a working directory of nobody's, alone
    and in a sandbox; an unknown user is refused. Otherwise --bot-user says why it cannot."""
    if os.geteuid() != 0:
        with pytest.raises(IsolationError, match=r"^--bot-user needs admiralty to run as root"):
            asyncio.run(launch(f"stdio:{WHO_BOT}", isolation=Isolation("nobody")))
        return
    nobody = pwd.getpwnam("nobody")
    for isolation in (Isolation("nobody"), Isolation("nobody", sandbox=True)):
        told, workdir, status = who(isolation)
        assert told["uid"] == str(65534 if isolation.sandbox else nobody.pw_uid)
        assert told["cwd"] == told["HOME"] == told["TMPDIR"] == str(workdir)
        assert (status.st_uid, stat.S_IMODE(status.st_mode)) == (nobody.pw_uid, 0o700)
    with pytest.raises(IsolationError, match=r"^--bot-user: there is no user 'no-such-user'"):
        asyncio.run(launch(f"stdio:{WHO_BOT}", isolation=Isolation("no-such-user")))


def test_the_sandbox_says_why_when_bubblewrap_is_missing(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(
        IsolationError,
        match=r"^--sandbox needs bubblewrap \(bwrap\), which "
        r"is not installed \(Debian, Ubuntu: apt-get "
        r"install bubblewrap\)$",
    ):
        _check_isolation.__wrapped__(Isolation(sandbox=True))


def _hello(port: int) -> str:
    async def ask() -> str:
        client = BotClient(f"127.0.0.1:{port}")
        try:
            await client.hello(20)
            return client.name
        finally:
            await client.close()

    return asyncio.run(ask())


def _gone(pid: int) -> bool:
    """Ended (a zombie has, and whoever adopted it may not reap it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "XZ"
    except FileNotFoundError:
        return True


ORPHAN_CHECK = 1.0
"""How often a bot looking for a new parent would look; the test waits twice that."""


def test_a_bot_started_by_hand_outlives_the_shell_that_started_it():
    """`python bot.py --port N &`, then the shell exits: the bot still answers."""
    port = free_port()
    shell = subprocess.Popen(
        [
            "sh",
            "-c",
            '"$0" "$1" --port "$2" 2>/dev/null & echo $!; read line',
            sys.executable,
            str(RANDOM_BOT),
            str(port),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    bot = int(shell.stdout.readline())
    try:
        assert _hello(port) == "random"  # serving, a child of the shell
        shell.stdin.close()
        shell.wait(10)  # it read the end of its input and exited
        time.sleep(2 * ORPHAN_CHECK)
        assert not _gone(bot) and _hello(port) == "random"
    finally:
        with contextlib.suppress(ProcessLookupError):  # stopped on its own: the failure
            os.kill(bot, signal.SIGTERM)


def test_a_launched_bot_stops_when_its_referee_is_killed(tmp_path):
    referee = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import asyncio, sys, time\n"
            "from admiralty.referee.launcher import launch\n"
            "bot = asyncio.run(launch(sys.argv[1]))\n"
            "print(bot.process.pid, flush=True)\n"
            "time.sleep(60)\n",
            str(RANDOM_BOT),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    bot = int(referee.stdout.readline())
    assert not _gone(bot)
    referee.kill()
    referee.wait()
    for _ in range(200):
        if _gone(bot):
            break
        time.sleep(0.05)
    assert _gone(bot)
