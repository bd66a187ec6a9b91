"""One Decide round trip through the referee, against raw gRPC ping-pong of the same payloads.

The referee plays Jamaica matches against one random-bot process and times every window
that cost exactly one round trip: building the request from the engine (view, options,
events), the gRPC call, checking the answer and applying it. After each match, the same
requests, byte for byte, are sent straight to the same bot process with the same stub, one
after the other: the transport's floor. Both run in this process against that bot, match
by match in turn, so that a change in the machine's pace weighs on both alike.

Each timed window is also split: the time spent building its request and applying its
answer (the referee's own work, between two calls) is measured inside it, and the ratio
the windows would have without that work is printed beside the real one: what the rest
of the referee (its bookkeeping, the asyncio and gRPC layers around the call) costs.

    python benchmarks/decide_rtt.py [--matches 20] [--players 4] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path

from tournament import Capturing

from admiralty.games import Window
from admiralty.referee import Match, MatchSpec, launch_all, stop_all

RANDOM_BOT = str(Path(__file__).resolve().parents[1] / "example_bots" / "random_bot.py")


class TimedMatch(Match):
    """A match that times each window answered by exactly one round trip, and the part of
    it spent building the request and applying the answer."""

    samples: list[float]
    own_work: list[float]
    _working = 0.0
    """The own work of the window being played so far, in seconds."""

    async def _play_window(self, requests) -> None:
        before, self._working = self.round_trips, 0.0
        started = time.perf_counter()
        await super()._play_window(requests)
        if self.round_trips == before + 1 and requests[0].window is not Window.SEALED:
            self.samples.append(time.perf_counter() - started)
            self.own_work.append(self._working)

    def _request(self, *args, **kwargs) -> bytes:
        started = time.perf_counter()
        try:
            return super()._request(*args, **kwargs)
        finally:
            self._working += time.perf_counter() - started

    def _apply(self, *args, **kwargs) -> None:
        started = time.perf_counter()
        try:
            super()._apply(*args, **kwargs)
        finally:
            self._working += time.perf_counter() - started


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "n": len(ordered),
        "median_us": round(statistics.median(ordered) * 1e6, 1),
        "p99_us": round(ordered[int(0.99 * (len(ordered) - 1))] * 1e6, 1),
    }


async def measure(matches: int, players: int) -> dict:
    [bot] = await launch_all([RANDOM_BOT])
    try:
        samples: list[float] = []
        own_work: list[float] = []
        requests: list[bytes] = []
        raw: list[float] = []
        client = Capturing(bot.client, requests)
        for seed in range(matches):
            match = TimedMatch(MatchSpec(f"rtt-{seed}", "jamaica", seed), [client] * players)
            match.samples, match.own_work = samples, own_work
            sent = len(requests)
            await match.run()
            for message in requests[sent:]:  # the match's requests again, straight after it
                started = time.perf_counter()
                await bot.client.decide(message, timeout=5)
                raw.append(time.perf_counter() - started)
    finally:
        await stop_all([bot])
    referee, transport = summary(samples), summary(raw)
    rest = summary([window - work for window, work in zip(samples, own_work, strict=True)])
    sizes = [len(m) for m in requests]
    return {
        "matches": matches,
        "players": players,
        "payload_bytes_median": int(statistics.median(sizes)),
        "referee": referee,
        "raw_grpc": transport,
        "ratio_median": round(referee["median_us"] / transport["median_us"], 3),
        "ratio_p99": round(referee["p99_us"] / transport["p99_us"], 3),
        "own_work": summary(own_work),
        "without_own_work": rest,
        "without_own_work_ratio_median": round(rest["median_us"] / transport["median_us"], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(measure(args.matches, args.players))
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"Decide round trip, Jamaica {args.players} players, {args.matches} matches, "
        f"median payload {result['payload_bytes_median']} B"
    )
    print(f"{'':17}{'n':>8}{'median µs':>12}{'p99 µs':>12}")
    for name in ("referee", "raw_grpc", "own_work", "without_own_work"):
        row = result[name]
        print(f"{name:17}{row['n']:>8}{row['median_us']:>12}{row['p99_us']:>12}")
    print(f"ratio (target <= 1.25): median {result['ratio_median']}, p99 {result['ratio_p99']}")
    print(
        "ratio without building the request and applying the answer: median "
        f"{result['without_own_work_ratio_median']}"
    )


if __name__ == "__main__":
    main()
