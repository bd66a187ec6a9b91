"""Tournament throughput against raw gRPC throughput at the same concurrency.

A round-robin Jamaica tournament of random bots (separate processes) runs with P matches
at once through the real tournament code (P referee worker processes, SQLite store,
records off). Then P processes send raw `Decide` calls, one at a time each, to the same
kind of bot processes, replaying requests the referee really sent: the transport's limit
at that concurrency. Decisions per second of both, their ratio, and matches per second.

    python benchmarks/tournament.py [--parallel 2] [--rounds 1] [--seconds 5] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from admiralty.referee import BotClient, Match, MatchSpec, launch_all, stop_all
from admiralty.tournament import Runner, Settings, Store, new_tournament, start_tournament

REPO = Path(__file__).resolve().parents[1]
RANDOM_BOT = str(REPO / "example_bots" / "random_bot.py")
POOL = [RANDOM_BOT, *(f"{RANDOM_BOT} --seed {i}" for i in range(1, 5))]


class CapturingMatch(Match):
    """A match that keeps every DecideRequest it sends."""

    sent: list

    def _request_pb(self, *args, **kwargs):
        message = super()._request_pb(*args, **kwargs)
        self.sent.append(message)
        return message


def run_tournament(parallel: int, rounds: int) -> dict:
    """Throughput once running: from the first finished match to the last, so starting the
    bots and the referee workers (about a second) is left out, as it is for raw calls."""
    finished: list[tuple[float, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db", create=True)
        tournament, plan = new_tournament("bench", "jamaica", POOL, 4, rounds, 1,
                                          Settings(records=None))
        runner = Runner.this_process(datetime.now(UTC))
        started = time.perf_counter()
        played = asyncio.run(start_tournament(
            store, tournament, plan, runner, parallel,
            lambda match: finished.append((time.perf_counter(), match.match_id))))
        total = time.perf_counter() - started
        results = store.results("bench")
        store.close()
    (first, _), (last, _) = finished[0], finished[-1]
    decisions = sum(len(seat) for _, match_id in finished[1:]
                    for seat in results[match_id].latencies)
    return {"matches": played, "seconds": round(total, 2),
            "steady_seconds": round(last - first, 2), "decisions": decisions,
            "decisions_per_second": round(decisions / (last - first)),
            "matches_per_second": round((played - 1) / (last - first), 2)}


async def sample_requests(bots) -> list[bytes]:
    """The requests of two Jamaica matches, serialised."""
    sent: list = []
    for seed in range(2):
        match = CapturingMatch(MatchSpec(f"sample-{seed}", "jamaica", seed),
                               [bot.client for bot in bots[:4]])
        match.sent = sent
        await match.run()
    return [message.SerializeToString() for message in sent]


def _raw_caller(address: str, requests: list[bytes], seconds: float) -> int:
    """One process: sequential Decide calls with the sampled payloads for `seconds`."""
    from admiralty_sdk.v1 import bot_pb2

    async def call() -> int:
        client = BotClient(address)
        messages = [bot_pb2.DecideRequest.FromString(r) for r in requests]
        calls, deadline = 0, time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            await client.decide(messages[calls % len(messages)], timeout=5)
            calls += 1
        await client.close()
        return calls

    return asyncio.run(call())


async def raw_throughput(parallel: int, seconds: float) -> float:
    bots = await launch_all(POOL)
    try:
        requests = await sample_requests(bots)
        context = multiprocessing.get_context("spawn")
        with context.Pool(parallel) as pool:
            started = time.perf_counter()
            counts = await asyncio.to_thread(pool.starmap, _raw_caller, [
                (bots[i % len(bots)].client.address, requests, seconds)
                for i in range(parallel)])
            elapsed = time.perf_counter() - started
    finally:
        await stop_all(bots)
    return sum(counts) / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1,
                        help="each round is 5 groups x 4 seatings = 20 matches")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="how long the raw gRPC callers run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    tournament = run_tournament(args.parallel, args.rounds)
    raw = asyncio.run(raw_throughput(args.parallel, args.seconds))
    result = {"parallel": args.parallel, "tournament": tournament,
              "raw_decisions_per_second": round(raw),
              "ratio": round(tournament["decisions_per_second"] / raw, 3)}
    if args.json:
        print(json.dumps(result))
        return
    print(f"Jamaica tournament, 5 random bots, 4 seats, {tournament['matches']} matches, "
          f"{args.parallel} at once")
    print(f"  tournament: {tournament['decisions_per_second']} decisions/s, "
          f"{tournament['matches_per_second']} matches/s once running "
          f"({tournament['seconds']} s in all, with starting bots and workers)")
    print(f"  raw gRPC:   {result['raw_decisions_per_second']} calls/s "
          f"from {args.parallel} processes")
    print(f"  ratio (target >= 0.7): {result['ratio']}")


if __name__ == "__main__":
    main()
