"""Tournament throughput against raw gRPC throughput at the same concurrency.

A round-robin Jamaica tournament of random bots (separate processes) runs with P matches
at once through the real tournament code (P referee worker processes, SQLite store,
records off). Then P processes send raw `Decide` calls replaying requests the referee
really sent, as it sent them: window by window (a sealed window's requests at once), each
to the bot process of the seat it was sent to (the match's four bots in turn): the
transport's limit at that concurrency. Decisions per second of both, their ratio, and
matches per second. Printed beside it for comparison: the same calls all sent to one bot
per process, faster than any match can ask (a bot asked back to back stays hot; a match's
next seat is another process, idle since its last turn).

With `--backend ray` the same tournament is also played on Ray (a Ray started on this
machine, or the cluster at `--address`) and printed beside the local backend, with what a
paper estimate of a cluster's throughput needs: the driver's CPU time per result and the
core-seconds a match costs (referee and bots).

    python benchmarks/tournament.py [--parallel 2] [--rounds 1] [--bots 5] [--seconds 5]
                                    [--backend ray [--address HOST:PORT]] [--json]
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
from admiralty.tournament.backend import Backend, BackendName, make_backend
from admiralty_sdk.v1 import bot_pb2, common_pb2

REPO = Path(__file__).resolve().parents[1]
RANDOM_BOT = str(REPO / "example_bots" / "random_bot.py")
SEATS = 4


def random_bots(bots: int) -> list[str]:
    """`bots` random bots, each with its own seed."""
    return [RANDOM_BOT, *(f"{RANDOM_BOT} --seed {i}" for i in range(1, bots))]


class Capturing:
    """A bot's client that keeps every request it sends, as sent (serialized)."""

    def __init__(self, client: BotClient, sent: list[bytes]):
        self.client, self.sent = client, sent

    def __getattr__(self, name: str):
        return getattr(self.client, name)

    async def decide(self, request: bytes, timeout: float):
        self.sent.append(request)
        return await self.client.decide(request, timeout)


def run_tournament(parallel: int, rounds: int, bots: int, backend: Backend | None = None) -> dict:
    """Throughput once running: from the first finished match to the last, so starting the
    bots and the referees (a second locally, more with Ray) is left out, as it is for raw
    calls. The driver's CPU time over the same span, per result: what it costs this process
    to take a result in and store it, whatever referees the match."""
    finished: list[tuple[float, float, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db", create=True)
        tournament, plan = new_tournament(
            "bench", "jamaica", random_bots(bots), SEATS, rounds, 1, Settings(records=None)
        )
        runner = Runner.this_process(datetime.now(UTC))
        started = time.perf_counter()
        played = asyncio.run(
            start_tournament(
                store,
                tournament,
                plan,
                runner,
                parallel,
                lambda match: finished.append(
                    (time.perf_counter(), time.process_time(), match.match_id)
                ),
                backend,
            )
        )
        total = time.perf_counter() - started
        results = store.results("bench")
        store.close()
    (first, first_cpu, _), (last, last_cpu, _) = finished[0], finished[-1]
    decisions = sum(
        len(seat) for *_, match_id in finished[1:] for seat in results[match_id].latencies
    )
    return {
        "matches": played,
        "seconds": round(total, 2),
        "steady_seconds": round(last - first, 2),
        "decisions": decisions,
        "decisions_per_second": round(decisions / (last - first)),
        "matches_per_second": round((played - 1) / (last - first), 2),
        "driver_cpu_ms_per_result": round(1000 * (last_cpu - first_cpu) / (played - 1), 2),
    }


Batch = list[tuple[int, bytes]]
"""The requests of one window as the referee asked them, each with its seat: one, or the
seats of a sealed window asked at once."""


async def sample_requests(bots) -> list[Batch]:
    """The requests of two Jamaica matches, serialised, in the batches they were asked in."""
    sent: list[tuple[int, bytes]] = []
    clients = [Capturing(bot.client, _Tagged(seat, sent)) for seat, bot in enumerate(bots[:SEATS])]
    for seed in range(2):
        await Match(MatchSpec(f"sample-{seed}", "jamaica", seed), clients).run()
    return _windows(sent)


def _windows(sent: list[tuple[int, bytes]]) -> list[Batch]:
    """Requests in the order sent, grouped as asked: a sealed window's requests (one per
    seat, sent one after another) together, every other request alone."""
    batches: list[Batch] = []
    sealed_open = False  # the last batch is a sealed window, open to seats not in it yet
    for seat, request in sent:
        sealed = bot_pb2.DecideRequest.FromString(request).window == common_pb2.WINDOW_KIND_SEALED
        if sealed and sealed_open and all(other != seat for other, _ in batches[-1]):
            batches[-1].append((seat, request))
        else:
            batches.append([(seat, request)])
            sealed_open = sealed
    return batches


class _Tagged:
    """A list `Capturing` appends to that keeps, with each request, the seat it went to."""

    def __init__(self, seat: int, sent: list[tuple[int, bytes]]):
        self.seat, self.sent = seat, sent

    def append(self, request: bytes) -> None:
        self.sent.append((self.seat, request))


def _raw_caller(addresses: list[str], batches: list[Batch], seconds: float) -> int:
    """One process: Decide calls with the sampled payloads for `seconds`, batch after batch
    (a sealed window's requests at once, as the referee asks them), each to the bot at
    `addresses[seat]` of the seat it was sent to (one address: all to it)."""

    async def call() -> int:
        clients = [BotClient(address) for address in addresses]
        calls, asked, deadline = 0, 0, time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            batch = batches[asked % len(batches)]
            asked += 1
            await asyncio.gather(
                *(clients[seat % len(clients)].decide(request, 5) for seat, request in batch)
            )
            calls += len(batch)
        for client in clients:
            await client.close()
        return calls

    return asyncio.run(call())


async def raw_throughput(parallel: int, seconds: float, size: int) -> dict[str, float]:
    """Raw calls/s of `parallel` callers two ways: each request sent to its seat's bot, the
    match's bots in turn as the referee asks them (caller i seats bots i, i+1, ... of the
    pool, so the callers share bots as concurrent matches do), and every request to one
    bot (caller i's bot i), which no match does: a bot asked back to back stays hot."""
    bots = await launch_all(random_bots(size))
    try:
        requests = await sample_requests(bots)
        addresses = [bot.client.address for bot in bots]
        seated = [[addresses[(i + seat) % size] for seat in range(SEATS)] for i in range(parallel)]
        context = multiprocessing.get_context("spawn")
        rates = {}
        with context.Pool(parallel) as pool:
            for name, callers in (("seats", seated), ("one_bot", [s[:1] for s in seated])):
                started = time.perf_counter()
                counts = await asyncio.to_thread(
                    pool.starmap, _raw_caller, [(c, requests, seconds) for c in callers]
                )
                rates[name] = sum(counts) / (time.perf_counter() - started)
    finally:
        await stop_all(bots)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="each round is every group of 4 bots in its 4 seatings: "
        "with 5 bots, 5 groups x 4 = 20 matches",
    )
    parser.add_argument(
        "--bots",
        type=int,
        default=5,
        help=f"random bots in the pool, at least {SEATS} (the seats); "
        f"{SEATS} bots make one group, 4 matches a round",
    )
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="how long the raw gRPC callers run"
    )
    parser.add_argument(
        "--backend",
        type=BackendName,
        choices=list(BackendName),
        default=BackendName.LOCAL,
        help="ray: also play the tournament on Ray, beside the local backend",
    )
    parser.add_argument(
        "--address",
        help="with --backend ray: the cluster to join (default: start Ray on this machine)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.bots < SEATS:
        parser.error(f"--bots must be at least {SEATS}, the seats of a match")
    tournament = run_tournament(args.parallel, args.rounds, args.bots)
    ray = None
    if args.backend is BackendName.RAY:
        ray = run_tournament(
            args.parallel, args.rounds, args.bots, make_backend(args.backend, args.address)
        )
    rates = asyncio.run(raw_throughput(args.parallel, args.seconds, args.bots))
    raw = rates["seats"]
    result = {
        "parallel": args.parallel,
        "tournament": tournament,
        "raw_decisions_per_second": round(raw),
        "ratio": round(tournament["decisions_per_second"] / raw, 3),
        "raw_one_bot_calls_per_second": round(rates["one_bot"]),
        "ratio_to_one_bot": round(tournament["decisions_per_second"] / rates["one_bot"], 3),
    }
    if ray is not None:
        result |= {"ray": ray, "ray_ratio": round(ray["decisions_per_second"] / raw, 3)}
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"Jamaica tournament, {args.bots} random bots, {SEATS} seats, "
        f"{tournament['matches']} matches, "
        f"{args.parallel} at once"
    )
    print(
        f"  tournament: {tournament['decisions_per_second']} decisions/s, "
        f"{tournament['matches_per_second']} matches/s once running "
        f"({tournament['seconds']} s in all, with starting bots and workers)"
    )
    if ray is not None:
        print(
            f"  on ray:     {ray['decisions_per_second']} decisions/s, "
            f"{ray['matches_per_second']} matches/s once running "
            f"({ray['seconds']} s in all, with starting Ray, bots and tasks)"
        )
        for name, run in (("local", tournament), ("ray", ray)):
            print(f"  {name + ':':<11} driver CPU {run['driver_cpu_ms_per_result']} ms per result")
    print(
        f"  raw gRPC:   {result['raw_decisions_per_second']} calls/s from {args.parallel} "
        "processes, each request to its seat's bot"
        f" ({result['raw_one_bot_calls_per_second']} calls/s all to one bot each,"
        f" ratio {result['ratio_to_one_bot']})"
    )
    print(
        f"  ratio (target >= 0.7): {result['ratio']}"
        + (f", on ray {result['ray_ratio']}" if ray is not None else "")
    )


if __name__ == "__main__":
    main()
