"""The arena end to end, each part a process of its own on 127.0.0.1: six bots registered
with `admiralty arena add` (the Python SDK's greedy and random bots and the Node example
bot) dial in to `admiralty arena serve` and play on while one of them is killed mid-match
and restarted, the arena is killed with SIGKILL and restarted on its file, and a wrong key
and a flood of streams are refused; the standings then rank every greedy bot above every
random one."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from dialin import raw_stream
from e2e_helpers import RANDOM_BOT, REPO

from admiralty.arena.store import ArenaStore, MatchRow
from admiralty.referee.launcher import free_port

pytestmark = pytest.mark.xdist_group("example_bots_build")  # the Node bot's npm ci

ADMIRALTY = [sys.executable, "-m", "admiralty.cli"]
GREEDY_BOT = str(REPO / "example_bots" / "jamaica_greedy.py")
GREEDY = ("greedy-0", "greedy-1", "greedy-2")
MATCHES = int(os.environ.get("ADMIRALTY_ARENA_MATCHES", 60))
"""Finished matches the ladder plays in all; more with the soak variant."""
WAIT = 120.0
"""Seconds the test waits for what takes a few."""


def until(condition: Callable[[], Any], timeout: float = WAIT) -> Any:
    """Poll `condition` until it is truthy; its value."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, f"timed out waiting for {condition}"
        time.sleep(0.05)
    return value


class Arena:
    """An arena file, its serving process and its bots' processes, in `folder`."""

    def __init__(self, folder: Path):
        self.folder, self.db = folder, folder / "arena.db"
        self.address = f"127.0.0.1:{free_port()}"
        self.processes: list[subprocess.Popen] = []
        self.server: subprocess.Popen | None = None
        self.served = 0

    def admiralty(self, *args: str) -> str:
        """Its output of the command `admiralty ARGS` on the arena's file."""
        return self.command(*args, "--db", str(self.db))

    def command(self, *args: str) -> str:
        result = subprocess.run(
            [*ADMIRALTY, *args],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=self.folder,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    def add(self, name: str, connections: int = 1) -> Path:
        """Register bot `name`: the file holding its key."""
        added = json.loads(
            self.admiralty("arena", "add", name, f"--connections={connections}", "--json")
        )
        key_file = self.folder / f"{name}.key"
        key_file.write_text(added["key"] + "\n")
        return key_file

    def start(self, command: list[str], log: str) -> subprocess.Popen:
        with open(self.folder / log, "w") as out:
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=REPO)
        self.processes.append(process)
        return process

    def serve(self) -> subprocess.Popen:
        """Start `arena serve` on the arena's port and wait until it listens."""
        self.served += 1
        log = f"serve-{self.served}.log"
        port = self.address.rpartition(":")[2]
        self.server = self.start(
            [
                *ADMIRALTY,
                "arena",
                "serve",
                "jamaica",
                *("--db", str(self.db), "--port", port, "--seed", "7"),
                *("--records", str(self.folder / "records"), "-o", "round_cap=10"),
                *("--deadline", "5", "--token-file", str(self.folder / "token")),
            ],
            log,
        )
        until(lambda: "listening on" in self.log(log) or self.server.poll() is not None)
        assert self.server.poll() is None, self.log(log)
        return self.server

    def bot(self, name: str, command: list[str], key_file: Path) -> subprocess.Popen:
        dial = ["--dial", self.address, "--key-file", str(key_file)]
        return self.start([*command, *dial], f"{name}.log")

    def log(self, name: str) -> str:
        return (self.folder / name).read_text()

    def reported(self) -> set[int]:
        """The matches every serving process so far printed as finished."""
        lines = (
            line
            for n in range(1, self.served + 1)
            for line in self.log(f"serve-{n}.log").splitlines()
        )
        return {int(found[1]) for line in lines if (found := re.match(r"match (\d+): ", line))}

    def matches(self, status: str | None = None) -> list[MatchRow]:
        store = ArenaStore(self.db)
        try:
            return [m for m in store.matches() if status in (None, m.status)]
        finally:
            store.close()

    def stop(self) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            process.wait(10)


@pytest.fixture
def arena(tmp_path) -> Iterator[Arena]:
    arena = Arena(tmp_path)
    try:
        yield arena
    finally:
        arena.stop()


def plays(bot: str) -> Callable[[MatchRow], bool]:
    return lambda match: any(name == bot for name, _ in match.players)


async def flood(address: str, key: str, streams: int) -> list[tuple[grpc.StatusCode, str]]:
    """Open `streams` streams of one bot at once and answer no Hello: how each one the
    arena refused at once ended."""
    async with contextlib.AsyncExitStack() as opened:
        raws = [await opened.enter_async_context(raw_stream(address, key)) for _ in range(streams)]
        firsts = await asyncio.gather(*(raw.read() for raw in raws), return_exceptions=True)
        return [
            (first.code(), first.details())
            for first in firsts
            if isinstance(first, grpc.aio.AioRpcError)
        ]


def test_dialing_bots_play_on_through_kills_and_refusals(arena, node_bot):
    commands = {
        **{name: [sys.executable, GREEDY_BOT] for name in GREEDY},
        "random-0": [sys.executable, RANDOM_BOT, "--seed", "1"],
        "random-1": [sys.executable, RANDOM_BOT, "--seed", "2"],
        "node-random": node_bot,
    }
    keys = {name: arena.add(name) for name in commands}
    arena.serve()
    bots = {name: arena.bot(name, command, keys[name]) for name, command in commands.items()}
    until(lambda: len(arena.matches("finished")) >= MATCHES // 4)

    # the operator lists the arena's matches from the referee's side, with the admin token
    token = ("--token-file", str(arena.folder / "token"))
    reported = {f"arena-{n}" for n in arena.reported()}
    listed = json.loads(arena.command("match", "list", "--server", arena.address, *token, "--json"))
    assert {m["match_id"] for m in listed} >= reported

    # a bot killed mid-match, restarted, plays on
    killed_in = until(lambda: next(filter(plays("greedy-0"), arena.matches("running")), None))
    bots["greedy-0"].kill()
    arena.bot("greedy-0", commands["greedy-0"], keys["greedy-0"])
    until(
        lambda: any(m.id > killed_in.id and plays("greedy-0")(m) for m in arena.matches("finished"))
    )

    wrong_keys_and_floods_are_refused(arena)
    the_arena_killed_loses_no_result(arena)
    until(lambda: len(arena.matches("finished")) >= MATCHES)
    arena.server.send_signal(signal.SIGTERM)
    assert arena.server.wait(30) == 0

    standings = json.loads(arena.admiralty("arena", "standings", "--json"))["standings"]
    order = [standing["bot"] for standing in standings]
    assert sorted(order) == sorted(commands)  # every bot played, the Node one too
    assert sorted(order[:3]) == list(GREEDY), order
    rated = sum(standing["games"] for standing in standings)
    assert rated == 2 * len(arena.matches("finished"))  # void matches are never rated


def wrong_keys_and_floods_are_refused(arena: Arena) -> None:
    """A wrong key ends the bot's process with one line; of a flood of streams from one
    address, those over its limit are refused, one line each."""
    wrong = arena.folder / "wrong.key"
    wrong.write_text("not-a-key\n")
    refused = subprocess.run(
        [sys.executable, RANDOM_BOT, "--dial", arena.address, "--key-file", str(wrong)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[-1] == f"random: {arena.address}: wrong or revoked key"

    flood_key = arena.add("flood", connections=16).read_text().strip()
    refusals = asyncio.run(flood(arena.address, flood_key, 12))
    assert refusals and all(code is grpc.StatusCode.RESOURCE_EXHAUSTED for code, _ in refusals)
    assert all("have not answered Hello yet" in d and "\n" not in d for _, d in refusals)


def the_arena_killed_loses_no_result(arena: Arena) -> None:
    """SIGKILL while a match runs, then a new `serve` on the file: every match the first
    one reported stays finished, the ones in flight become void."""
    until(lambda: arena.matches("running"))
    arena.server.kill()
    arena.server.wait(10)
    told = arena.reported()
    in_flight = {m.id for m in arena.matches("running")}
    assert in_flight and told
    arena.serve()
    until(lambda: {m.status for m in arena.matches() if m.id in in_flight} == {"void"})
    stored = {m.id: m.status for m in arena.matches()}
    assert {stored[n] for n in told} == {"finished"}
