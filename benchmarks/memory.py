"""Referee memory with many concurrent matches (target: at most 100 kB a match, 1 GB for
10,000 Jamaica matches).

The referee (this process) plays N matches of one game at once against four random-bot
processes, records off, and reports its resident memory before, at the peak (sampled every
50 ms), and per match. Linux only (reads /proc/self/status).

    python benchmarks/memory.py [--matches 100] [--game jamaica] [--json] [--progress 10]

`--progress S` prints, every S seconds, the matches over and the memory now and at the
peak so far, to stderr: a run stopped once its peak has passed still gives its figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from admiralty.games import GAMES
from admiralty.referee import MatchSpec, launch_all, run_match, stop_all

RANDOM_BOT = str(Path(__file__).resolve().parents[1] / "example_bots" / "random_bot.py")
TARGET_KB = 100


def rss_mb(field: str = "VmRSS") -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"{field} not in /proc/self/status")


async def measure(matches: int, game: str, progress: float = 0.0) -> dict:
    bots = await launch_all([RANDOM_BOT] * 4)
    loop, peak = asyncio.get_running_loop(), 0.0
    try:
        clients = [bot.client for bot in bots]
        before = rss_mb()
        running = [
            asyncio.ensure_future(
                run_match(MatchSpec(f"mem-{i}", game, i, deadline=30, time_bank=600), clients)
            )
            for i in range(matches)
        ]
        started = loop.time()
        shown = started
        while not all(task.done() for task in running):
            peak = max(peak, rss_mb())
            await asyncio.sleep(0.05)
            if progress and loop.time() - shown >= progress:
                shown = loop.time()
                done = sum(task.done() for task in running)
                print(
                    f"{shown - started:6.0f} s: {done} matches over, {rss_mb():.1f} MB now, "
                    f"peak {peak:.1f} MB ({(peak - before) * 1024 / matches:.1f} kB a match)",
                    file=sys.stderr,
                    flush=True,
                )
        reports = [task.result() for task in running]
        assert all(not r.incidents for r in reports)
    finally:
        await stop_all(bots)
    return {
        "game": game,
        "matches": matches,
        "rss_before_mb": round(before, 1),
        "rss_peak_mb": round(peak, 1),
        "per_match_kb": round((peak - before) * 1024 / matches, 1),
        "vm_hwm_mb": round(rss_mb("VmHWM"), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--game", choices=GAMES, default="jamaica")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--progress", type=float, default=0.0, metavar="SECONDS", help="print progress so often"
    )
    args = parser.parse_args()
    result = asyncio.run(measure(args.matches, args.game, args.progress))
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"referee with {result['matches']} concurrent {result['game']} matches: "
        f"{result['rss_before_mb']} MB before, {result['rss_peak_mb']} MB at the peak "
        f"({result['per_match_kb']} kB per match, target <= {TARGET_KB}; "
        f"high-water mark {result['vm_hwm_mb']} MB)"
    )


if __name__ == "__main__":
    main()
