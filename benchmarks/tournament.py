"""Tournament throughput against raw gRPC throughput at the same concurrency.

A round-robin Jamaica tournament of random bots (separate processes) runs with P matches
at once through the real tournament code (SQLite store, records off); then the same bot
processes answer P concurrent streams of raw `Decide` calls, each replaying requests the
referee really sent. Decisions per second of both, their ratio, and matches per second.

    python benchmarks/tournament.py [--parallel 4] [--rounds 2] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

from admiralty.referee import Match, launch_all, stop_all
from admiralty.tournament import Settings, Store, create_tournament, play_tournament

REPO = Path(__file__).resolve().parents[1]
RANDOM_BOT = str(REPO / "example_bots" / "random_bot.py")
POOL = [RANDOM_BOT, *(f"{RANDOM_BOT} --seed {i}" for i in range(1, 5))]


async def raw_throughput(requests: list, parallel: int, seconds: float) -> float:
    """Decide calls per second with `parallel` concurrent callers, on fresh bot processes."""
    bots = await launch_all(POOL[:parallel] if parallel <= len(POOL) else POOL)
    calls = 0
    deadline = time.perf_counter() + seconds

    async def caller(index: int) -> None:
        nonlocal calls
        client = bots[index % len(bots)].client
        position = index
        while time.perf_counter() < deadline:
            await client.decide(requests[position % len(requests)], timeout=5)
            position += parallel
            calls += 1

    try:
        started = time.perf_counter()
        await asyncio.gather(*(caller(i) for i in range(parallel)))
        return calls / (time.perf_counter() - started)
    finally:
        await stop_all(bots)


def run_tournament(parallel: int, rounds: int, captured: list) -> dict:
    original = Match._request_pb

    def capture(self, *args, **kwargs):
        message = original(self, *args, **kwargs)
        if len(captured) < 5000:
            captured.append(message)
        return message

    Match._request_pb = capture
    try:
        with tempfile.TemporaryDirectory() as tmp:
            store = Store(Path(tmp) / "bench.db")
            create_tournament(store, "bench", "jamaica", POOL, 4, rounds, 1,
                              Settings(records=None))
            started = time.perf_counter()
            played = asyncio.run(play_tournament(store, "bench", parallel))
            elapsed = time.perf_counter() - started
            decisions = sum(len(seat) for r in store.results("bench").values()
                            for seat in r.latencies)
            store.close()
    finally:
        Match._request_pb = original
    return {"matches": played, "seconds": round(elapsed, 2), "decisions": decisions,
            "decisions_per_second": round(decisions / elapsed),
            "matches_per_second": round(played / elapsed, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=1,
                        help="each round is 5 groups x 4 seatings = 20 matches")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="how long the raw gRPC callers run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    captured: list = []
    tournament = run_tournament(args.parallel, args.rounds, captured)
    raw = asyncio.run(raw_throughput(captured, args.parallel, args.seconds))
    result = {"parallel": args.parallel, "tournament": tournament,
              "raw_decisions_per_second": round(raw),
              "ratio": round(tournament["decisions_per_second"] / raw, 3)}
    if args.json:
        print(json.dumps(result))
        return
    print(f"Jamaica tournament, 5 random bots, 4 seats, {tournament['matches']} matches, "
          f"{args.parallel} at once", file=sys.stdout)
    print(f"  tournament: {tournament['decisions_per_second']} decisions/s, "
          f"{tournament['matches_per_second']} matches/s ({tournament['seconds']} s)")
    print(f"  raw gRPC:   {result['raw_decisions_per_second']} calls/s "
          f"with {args.parallel} concurrent callers")
    print(f"  ratio (target >= 0.7): {result['ratio']}")


if __name__ == "__main__":
    main()
