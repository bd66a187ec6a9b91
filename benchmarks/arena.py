"""The arena's figures, each from bots dialing in over real streams on 127.0.0.1.

1. scale: one arena (this process: the ladder, the bots' streams and the referee's side,
   served as `admiralty arena serve` serves them) with `--bots` random bots connected from
   one bot process, `--at-once` matches at a time: its peak resident memory (goal: 500
   bots and 100 matches within 1 GB), the matches running at once, the decisions a second.
2. first match: in that arena under full load, bots connecting one by one: the seconds
   from a bot's Hello to its first match.
3. throughput: decisions a second with `--at-once` matches at a time, over dial-in
   streams against `BotService` calls, each against one random-bot process; their ratio
   (goal >= 0.9).
4. order: a ladder of 3 greedy and 3 random Jamaica bots, dialing in: after each count of
   matches, the share of (greedy, random) pairs the standings order right (1.0 = every
   greedy bot above every random one), over `--ladders` ladders.

Jamaica, 2 players, `round_cap=10` (about 70 decisions a match). The per-address limits are
raised, since every bot comes from 127.0.0.1.

    python benchmarks/arena.py [--bots 500] [--at-once 100] [--seconds 20] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from admiralty.arena.dialin import serve_arena
from admiralty.arena.ladder import Play, run_ladder
from admiralty.arena.lobby import DialedEntrant, Limits, Lobby
from admiralty.arena.serve import serve
from admiralty.arena.store import ArenaStore
from admiralty.referee import MatchSpec, launch_all, stop_all
from admiralty.referee.clients import SeatBot
from admiralty.referee.launcher import free_port
from admiralty.referee.local import load_bot
from admiralty.referee.match import Match, MatchReport
from admiralty.referee.service import RefereeServicer
from admiralty_sdk.connect import dial
from admiralty_sdk.v1 import bot_pb2

EXAMPLES = Path(__file__).resolve().parents[1] / "example_bots"
KINDS = {"random": "random_bot.py", "greedy": "jamaica_greedy.py"}
OPTIONS = {"round_cap": 10}
OPEN = Limits(streams_per_address=100_000, unanswered_per_address=100_000)
"""Every bot dials from 127.0.0.1: one address's limits would refuse most of them."""
SLOW = {"deadline": 30.0, "time_bank": 600.0}
"""Deadlines no bot misses on a loaded machine: the figures measure speed, not incidents."""


def peak_rss_mb() -> float:
    """This process's peak resident memory (Linux: /proc/self/status)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("VmHWM not in /proc/self/status")


# ------------------------------------------------------------------ the bots' process


async def dial_all(address: str, bots: Sequence[dict[str, Any]]) -> None:
    """Dial in every bot of `bots` ({name, key, kind, seed, connections, after}) from this
    process's event loop, each `after` seconds from the start."""

    async def one(entry: dict[str, Any]) -> None:
        await asyncio.sleep(entry.get("after", 0))
        bot = load_bot(EXAMPLES / KINDS[entry["kind"]])
        if entry["kind"] == "random":
            bot = type(bot)(seed=entry["seed"])
        await dial(bot, address, key=entry["key"], connections=entry.get("connections", 1))

    await asyncio.gather(*(one(entry) for entry in bots))


@contextlib.asynccontextmanager
async def bot_process(address: str, bots: Sequence[dict[str, Any]]) -> AsyncIterator[None]:
    """`bots` dialing in to `address` from a process of their own while the block runs."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump({"address": address, "bots": list(bots)}, file)
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--dial-from", file.name, stderr=asyncio.subprocess.DEVNULL
    )
    try:
        yield
    finally:
        process.kill()
        await process.wait()
        Path(file.name).unlink()


def registered(store: ArenaStore, kinds: Sequence[str], prefix: str = "") -> list[dict[str, Any]]:
    """One bot per kind in `kinds`, added to `store`: their entries for `dial_all`."""
    return [
        {
            "name": f"{prefix}{kind}-{i}",
            "key": store.add(f"{prefix}{kind}-{i}"),
            "kind": kind,
            "seed": i,
        }
        for i, kind in enumerate(kinds)
    ]


async def until(condition, timeout: float = 300.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


# ------------------------------------------------------------------ 1 and 2: scale


class TimedLobby(Lobby):
    """A lobby that notes when each bot first joins."""

    def __init__(self, store: ArenaStore):
        super().__init__(store.authenticate, OPEN)
        self.joined: dict[str, float] = {}

    def join(self, entrant: DialedEntrant, stream, hello: bot_pb2.HelloResponse) -> None:
        self.joined.setdefault(entrant.name, time.perf_counter())
        super().join(entrant, stream, hello)


class Counting:
    """Plays the ladder's matches through `inner`, counting them and their decisions and
    noting when each bot first plays."""

    def __init__(self) -> None:
        self.inner: Play | None = None
        self.running = self.most = self.finished = self.decisions = 0
        self.first: dict[str, float] = {}

    def around(self, inner: Play) -> Play:
        self.inner = inner
        return self

    async def __call__(self, spec: MatchSpec, bots: Sequence[SeatBot]) -> MatchReport:
        assert self.inner is not None
        for bot in bots:
            self.first.setdefault(bot.name, time.perf_counter())
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            report = await self.inner(spec, bots)
        finally:
            self.running -= 1
        self.finished += 1
        self.decisions += report.round_trips
        return report


async def scale(bots: int, at_once: int, seconds: float, newcomers: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = ArenaStore(Path(folder) / "arena.db", create=True)
        crowd = registered(store, ["random"] * bots)
        late = registered(store, ["random"] * newcomers, prefix="new-")
        for i, entry in enumerate(late):
            entry["after"] = 0.5 * i
        lobby, counting, stop = TimedLobby(store), Counting(), asyncio.Event()
        address = ("127.0.0.1", free_port())
        where = f"{address[0]}:{address[1]}"

        def ladder(lobby: Lobby, play: Play):
            return run_ladder(
                store, lobby, "jamaica", 2, records=None, max_matches=at_once, seed=1,
                options=OPTIONS, play=counting.around(play), **SLOW,
            )  # fmt: skip

        referee = RefereeServicer("benchmark", creates=False)
        arena = asyncio.create_task(serve(store, lobby, ladder, address, referee, stop))
        started = time.perf_counter()
        async with bot_process(where, crowd):
            await until(lambda: len(lobby.connected()) >= bots)
            connected = time.perf_counter() - started
            await until(lambda: counting.running >= at_once)
            finished, decisions, steady = counting.finished, counting.decisions, time.perf_counter()
            async with bot_process(where, late):
                await until(lambda: all(e["name"] in counting.first for e in late))
                await asyncio.sleep(max(0.0, seconds - (time.perf_counter() - steady)))
            elapsed = time.perf_counter() - steady
            rate = (counting.decisions - decisions) / elapsed
            played = counting.finished - finished
            stop.set()
            await arena
        waits = [counting.first[e["name"]] - lobby.joined[e["name"]] for e in late]
        return {
            "scale": {
                "bots": bots,
                "connected_s": round(connected, 2),
                "at_once_goal": at_once,
                "at_once_most": counting.most,
                "matches_in_window": played,
                "window_s": round(elapsed, 1),
                "decisions_per_s": round(rate),
                "rss_peak_mb": round(peak_rss_mb(), 1),
            },
            "first_match": {
                "newcomers": newcomers,
                "wait_median_s": round(statistics.median(waits), 3),
                "wait_max_s": round(max(waits), 3),
            },
        }


# ------------------------------------------------------------------ 3: throughput


async def matches_at_once(count: int, at_once: int, lease) -> float:
    """Play `count` matches, `at_once` at a time, each seat from `lease()`; decisions/s."""
    gate, decisions = asyncio.Semaphore(at_once), 0

    async def one(n: int) -> None:
        nonlocal decisions
        async with gate:
            bots, release = lease()
            try:
                spec = MatchSpec(f"bench-{n}", "jamaica", n, OPTIONS, **SLOW)
                report = await Match(spec, bots).run()
                decisions += report.round_trips
            finally:
                release(bots)

    started = time.perf_counter()
    await asyncio.gather(*(one(n) for n in range(count)))
    return decisions / (time.perf_counter() - started)


async def dialed_in(count: int, at_once: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        store = ArenaStore(Path(folder) / "arena.db", create=True)
        key = store.add("many", connections=2 * at_once)
        lobby = Lobby(store.authenticate, OPEN)
        port = free_port()
        server = await serve_arena("127.0.0.1", port, lobby)
        bot = {"name": "many", "key": key, "kind": "random", "seed": 1, "connections": 2 * at_once}
        try:
            async with bot_process(f"127.0.0.1:{port}", [bot]):
                await until(lambda: sum(len(e.idle()) for e in lobby.free()) >= 2 * at_once)
                [entrant] = lobby.free()

                def lease():
                    return [entrant.lease(), entrant.lease()], lambda seats: [
                        entrant.release(seat) for seat in seats
                    ]

                return await matches_at_once(count, at_once, lease)
        finally:
            lobby.close()
            await server.stop(None)


async def served(count: int, at_once: int) -> float:
    [bot] = await launch_all([str(EXAMPLES / KINDS["random"])])
    try:
        return await matches_at_once(
            count, at_once, lambda: ([bot.client, bot.client], lambda seats: None)
        )
    finally:
        await stop_all([bot])


async def throughput(count: int, at_once: int) -> dict[str, Any]:
    over_streams = await dialed_in(count, at_once)
    over_calls = await served(count, at_once)
    return {
        "matches": count,
        "at_once": at_once,
        "dial_in_decisions_per_s": round(over_streams),
        "bot_service_decisions_per_s": round(over_calls),
        "ratio": round(over_streams / over_calls, 3),
    }


# ------------------------------------------------------------------ 4: order


def right_pairs(order: Sequence[str]) -> float:
    """The share of (greedy, random) pairs with the greedy bot ranked above."""
    greedy = [i for i, name in enumerate(order) if name.startswith("greedy")]
    randoms = [i for i, name in enumerate(order) if name.startswith("random")]
    return sum(g < r for g in greedy for r in randoms) / (len(greedy) * len(randoms))


async def one_ladder(seed: int, checkpoints: Sequence[int]) -> dict[int, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = ArenaStore(Path(folder) / "arena.db", create=True)
        bots = registered(store, ["greedy"] * 3 + ["random"] * 3)
        for entry in bots:
            entry["seed"] += 10 * seed
        lobby = Lobby(store.authenticate, OPEN)
        port = free_port()
        server = await serve_arena("127.0.0.1", port, lobby)
        shares: dict[int, float] = {}

        def notify(number: int, outcome: MatchReport | BaseException) -> None:
            done = sum(s.games for s in store.standings()) // 2
            if done in checkpoints:
                shares[done] = right_pairs([s.name for s in store.standings()])

        try:
            async with bot_process(f"127.0.0.1:{port}", bots):
                await until(lambda: len(lobby.connected()) == len(bots))
                await run_ladder(
                    store, lobby, "jamaica", 2, records=None, max_matches=3, seed=seed,
                    options=OPTIONS, matches=max(checkpoints), notify=notify, **SLOW,
                )  # fmt: skip
        finally:
            lobby.close()
            await server.stop(None)
        return shares


async def order(ladders: int, checkpoints: Sequence[int]) -> dict[str, Any]:
    runs = [await one_ladder(seed, checkpoints) for seed in range(1, ladders + 1)]
    return {
        "ladders": ladders,
        "right_pairs_after": {
            str(n): round(statistics.mean(run[n] for run in runs), 3) for n in checkpoints
        },
        "all_right_after": {str(n): sum(run[n] == 1.0 for run in runs) for n in checkpoints},
    }


# ------------------------------------------------------------------ main


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    figures = await scale(args.bots, args.at_once, args.seconds, args.newcomers)
    figures["throughput"] = await throughput(args.matches, args.at_once)
    figures["order"] = await order(args.ladders, args.checkpoints)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=500)
    parser.add_argument("--at-once", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0, help="the scale run's window")
    parser.add_argument("--newcomers", type=int, default=10)
    parser.add_argument("--matches", type=int, default=300, help="throughput: per side")
    parser.add_argument("--ladders", type=int, default=5)
    parser.add_argument("--checkpoints", type=int, nargs="+", default=[10, 20, 40, 60, 100])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--dial-from", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.dial_from:
        spec = json.loads(Path(args.dial_from).read_text())
        asyncio.run(dial_all(spec["address"], spec["bots"]))
        return
    figures = asyncio.run(measure(args))
    if args.json:
        print(json.dumps(figures))
        return
    for part, values in figures.items():
        print(part)
        for name, value in values.items():
            print(f"  {name}: {value}")


if __name__ == "__main__":
    main()
