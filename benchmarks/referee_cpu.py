"""The referee's own CPU per decision, without a network: what building each request
(view, observation, options, events) and applying each answer costs, the part of a
decision's round trip that no transport can hide.

Jamaica matches are played by the referee's `Match` against random bots in this process
(their calls return at once), and the process's CPU time is divided by the decisions
asked. The bots' share is the same in every tree, so two trees compare fairly:
`--against TREE` runs the same measurement in fresh processes of this checkout and of
another checkout, taking turns, and prints both medians and their ratio.

`--idle MS` sleeps that long before each request is built, as a served referee waits while
the bot thinks: the same work, on caches the wait has let go cold (the CPU idle, other
processes run). Beside a run without it, it shows what a decision's own work costs
between two round trips rather than in a loop.

    python benchmarks/referee_cpu.py [--matches 10] [--players 4] [--idle 1]
    python benchmarks/referee_cpu.py --against ../old-checkout [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock

HERE = Path(__file__).resolve().parents[1]
RANDOM_BOT = "example_bots/random_bot.py"
"""The bot of the tree measured: its SDK is that tree's."""


def measure(matches: int, players: int, tree: Path = HERE, idle_ms: float = 0.0) -> float:
    """CPU microseconds per asked decision over `matches` matches in this process, each
    request built after `idle_ms` of sleep."""
    from admiralty.referee.local import load_bot, run_local
    from admiralty.referee.match import Match, MatchSpec, checked_options

    build = Match._request

    def after_idling(self: Match, *args: Any) -> bytes:
        time.sleep(idle_ms / 1000)
        return build(self, *args)

    async def play() -> int:
        decisions = 0
        for seed in range(matches):
            bots = [load_bot(tree / RANDOM_BOT) for _ in range(players)]
            options = checked_options("jamaica", players, {})
            report = await run_local(MatchSpec(f"cpu-{seed}", "jamaica", seed, options), bots)
            decisions += len(report.decisions)
        return decisions

    idling = mock.patch.object(Match, "_request", after_idling)
    with idling if idle_ms else contextlib.nullcontext():
        started = time.process_time()
        decisions = asyncio.run(play())
        return (time.process_time() - started) / decisions * 1e6


def in_tree(tree: Path, matches: int, players: int) -> float:
    """`measure` in a fresh process importing `tree`'s server and SDK."""
    paths = os.pathsep.join(str(tree / part) for part in ("server", "sdk"))
    code = f"import sys; sys.path[:0] = [{str(HERE / 'benchmarks')!r}]; import referee_cpu; "
    code += f"print(referee_cpu.measure({matches}, {players}, referee_cpu.Path({str(tree)!r})))"
    run = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": paths},
        capture_output=True,
        text=True,
        check=True,
    )
    return float(run.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--against", type=Path, help="another checkout, measured in turn")
    parser.add_argument("--runs", type=int, default=5, help="with --against: runs of each")
    parser.add_argument("--idle", type=float, default=0.0, help="ms asleep before each request")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.against is None:
        figure = measure(args.matches, args.players, HERE, args.idle)
        result = {"cpu_us_per_decision": round(figure, 1)}
    else:
        here, there = [], []
        for _ in range(args.runs):
            here.append(in_tree(HERE, args.matches, args.players))
            there.append(in_tree(args.against.resolve(), args.matches, args.players))
        mine, theirs = statistics.median(here), statistics.median(there)
        result = {
            "cpu_us_per_decision": round(mine, 1),
            "against_cpu_us_per_decision": round(theirs, 1),
            "ratio": round(mine / theirs, 3),
        }
    if args.json:
        print(json.dumps(result))
    else:
        print(", ".join(f"{key} {value}" for key, value in result.items()))


if __name__ == "__main__":
    main()
