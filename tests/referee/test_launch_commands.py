"""How a BOT argument becomes a process, and what a bot may declare in Hello."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import grpc
import pytest

from admiralty.referee.clients import HelloError, check_hello
from admiralty.referee.launcher import (
    STDERR_KEPT,
    BotLaunchError,
    LaunchedBot,
    StderrTail,
    _await_hello,
    bot_command,
    free_port,
    launch,
    sweep_workdirs,
)
from admiralty_sdk.v1 import bot_pb2

EXAMPLE_BOTS = Path(__file__).resolve().parents[2] / "example_bots"


def test_a_symlinked_interpreter_keeps_its_own_path(tmp_path, monkeypatch):
    """A venv's python is a symlink: followed, the bot would lose the venv's packages."""
    (tmp_path / "venv").mkdir()
    link = tmp_path / "venv" / "python"
    link.symlink_to(sys.executable)
    bot = tmp_path / "bot.py"
    bot.write_text("")
    monkeypatch.chdir(tmp_path)
    argv = bot_command(f"venv{os.sep}python bot.py --seed 3")
    assert argv == [str(link), str(bot), "--seed", "3"]


def test_the_readmes_first_example_plays_with_my_bot_in_the_current_directory(tmp_path):
    """`admiralty play jamaica --bot my_bot.py ...` run where my_bot.py is: the bot runs in
    a directory of its own, so its file is found before it moves there. The record's
    directory, created, is the operator's alone."""
    shutil.copy(EXAMPLE_BOTS / "random_bot.py", tmp_path / "my_bot.py")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "admiralty.cli",
            "play",
            "jamaica",
            "--bot",
            "my_bot.py",
            "--bot",
            str(EXAMPLE_BOTS / "random_bot.py"),
            "--option",
            "round_cap=1",
            "--json",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert [p["bot"] for p in json.loads(result.stdout)["placements"]] == ["random"] * 2
    assert stat.S_IMODE((tmp_path / "records").stat().st_mode) == 0o700


def test_a_python_file_runs_with_this_interpreter_from_anywhere(tmp_path, monkeypatch):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "mine.py").write_text("")
    monkeypatch.chdir(tmp_path)
    assert bot_command("bots/mine.py --seed 1") == [
        sys.executable,
        str(tmp_path / "bots" / "mine.py"),
        "--seed",
        "1",
    ]


def test_every_argument_naming_a_file_is_made_absolute_but_a_command_name(tmp_path, monkeypatch):
    """`sh bot.sh --model weights.bin`: bot.sh and weights.bin are the bot's files wherever
    it runs; `sh` is looked up on PATH even beside a file of that name."""
    for name in ("bot.sh", "weights.bin", "sh"):
        (tmp_path / name).write_text("")
    monkeypatch.chdir(tmp_path)
    assert bot_command("sh bot.sh --model weights.bin --seed 1") == [
        "sh",
        str(tmp_path / "bot.sh"),
        "--model",
        str(tmp_path / "weights.bin"),
        "--seed",
        "1",
    ]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("bots/none.py", "bot file not found"),
        ("no-such-command-here --x", "bot command not found"),
        ('python "open', "cannot be parsed"),
    ],
)
def test_a_bot_that_cannot_start_is_named(spec, message):
    with pytest.raises(BotLaunchError, match=message):
        bot_command(spec)


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("grpc://nohost:abc", "invalid address: expected grpc://HOST:PORT with a PORT from 1 to"),
        ("grpc://127.0.0.1:0", "invalid address"),
        ("grpc://127.0.0.1:{closed}", "connection refused: nothing listens on 127.0.0.1:"),
    ],
)
def test_a_bad_or_closed_address_fails_at_once_not_at_the_hello_timeout(address, said):
    """A port that is no number fails before the host is looked up; a closed port fails on
    connecting. Both well within the wait below, where Hello would wait 20 s."""
    spec = address.format(closed=free_port())
    with pytest.raises(BotLaunchError, match=f"^bot '{re.escape(spec)}': {said}"):
        asyncio.run(asyncio.wait_for(launch(spec), 10))


def test_an_unknown_auto_pass_kind_refuses_the_bot():
    with pytest.raises(HelloError, match="auto-passes not a window kind: 99"):
        check_hello(bot_pb2.HelloResponse(name="x", auto_pass=[99]))


def test_a_bot_that_floods_stderr_is_heard_to_its_last_words(tmp_path):
    """20 MB on stderr, then a last line and death before Hello: the error quotes the last
    line (the drain kept up and reached the end), and no more than the kept tail."""
    flood = tmp_path / "flood.py"
    flood.write_text(
        "import sys\n"
        "for _ in range(20 * 1024):\n"
        "    sys.stderr.write('x' * 1023 + '\\n')\n"
        "sys.stderr.write('my last words\\n')\n"
        "sys.exit(3)\n"
    )

    async def attempt():
        with pytest.raises(BotLaunchError) as raised:
            await launch(str(flood), timeout=30)
        return str(raised.value)

    message = asyncio.run(attempt())
    assert message.endswith("my last words"), message[-300:]
    assert len(message) < 2 * STDERR_KEPT


def test_the_kept_tail_is_bounded_and_is_the_end_of_the_stream():
    read, write = os.pipe()
    tail = StderrTail()
    tail.drain(os.fdopen(read, "rb"))
    with os.fdopen(write, "wb") as pipe:
        for n in range(10_000):
            pipe.write(f"line {n}\n".encode())
    tail.settle(5)
    text = tail.text()
    assert len(text) == STDERR_KEPT and text.endswith("line 9999\n")


def test_a_killed_referees_bot_directories_are_swept_by_the_next(tmp_path, monkeypatch):
    """kill -9 leaves a referee no time to remove its bots' working directories; the
    next referee to launch a bot removes those whose referee is gone, and no other."""
    referee = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import asyncio, sys, time\n"
            "from admiralty.referee.launcher import launch\n"
            "bot = asyncio.run(launch(sys.argv[1]))\n"
            "print(bot.workdir, flush=True)\n"
            "time.sleep(60)\n",
            str(EXAMPLE_BOTS / "random_bot.py"),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    orphan = Path(referee.stdout.readline().strip())
    referee.kill()
    referee.wait()
    with subprocess.Popen(["sleep", "60"]) as alive:
        kept = tmp_path / f"admiralty-bot-{alive.pid}-kept"
        kept.mkdir()
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
        assert orphan.parent == tmp_path and orphan.is_dir()
        assert sweep_workdirs.__wrapped__() == 1
        assert not orphan.exists() and kept.is_dir()
        alive.kill()


class _SlowHello:
    """A client whose Hello fails `after` seconds (its bot died answering it), or never
    ends (its bot died before it listened)."""

    def __init__(self, after: float | None):
        self.after = after

    async def hello(self, timeout: float) -> None:
        if self.after is None:
            await asyncio.sleep(timeout)
        await asyncio.sleep(self.after)
        raise grpc.aio.AioRpcError(
            grpc.StatusCode.UNAVAILABLE,
            grpc.aio.Metadata(),
            grpc.aio.Metadata(),
            "connection reset",
        )


@pytest.mark.parametrize(
    ("after", "said"),
    [
        (0.3, "exited with code 5 when asked Hello"),  # the exit is seen before the call fails
        (None, "exited with code 5"),
    ],
)
def test_a_bot_that_dies_at_launch_is_told_apart_whichever_is_seen_first(after, said):
    """The same error whether the launcher sees the process gone before or after the Hello
    call fails; a bot that never listened leaves its call waiting and is said to exit."""
    process = subprocess.Popen([sys.executable, "-c", "raise SystemExit(5)"])
    process.wait()
    bot = LaunchedBot("crashing-bot", _SlowHello(after), process=process)
    with pytest.raises(BotLaunchError) as error:
        asyncio.run(_await_hello(bot, 30))
    assert str(error.value) == f"bot 'crashing-bot' {said}"
