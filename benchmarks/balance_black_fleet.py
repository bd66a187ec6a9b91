"""Seat balance of Black Fleet under random play, and playout speed.

    python benchmarks/balance_black_fleet.py [--games 2000] [--players 3 4] [--jobs 2]

For each player count, plays `--games` games in which every seat picks uniformly
among its legal options (a separate seeded RNG per game, so runs are reproducible)
and prints each seat's win share next to its fair share (1 / players). A tie for
first place splits the win. Also prints how games ended, their length and the
playout speed. The acceptance bar is no seat above 1.3x its fair share.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from admiralty.games import load_game


def play(
    players: int, seed: int, victory_cost: int = 10
) -> tuple[list[float], str, int, int, float]:
    """One random game: (win share per seat, how it ended, rounds, decisions, seconds)."""
    start = time.perf_counter()
    state = load_game("black_fleet").new_game(players, seed, {"victory_cost": victory_cost})
    bot = random.Random(f"bot:{seed}")
    decisions = 0
    while state.outcome() is None:
        request = state.pending()[0]
        state.apply(request.seat, bot.randrange(len(request.options)))
        decisions += 1
    places = state.outcome().places
    winners = [seat for seat, place in enumerate(places) if place == 1]
    shares = [1 / len(winners) if seat in winners else 0.0 for seat in range(players)]
    return shares, state.ended_by, state.round, decisions, time.perf_counter() - start


def _batch(args: tuple[int, range, int]) -> list[tuple[list[float], str, int, int, float]]:
    players, seeds, victory_cost = args
    return [play(players, seed, victory_cost) for seed in seeds]


def simulate(players: int, games: int, jobs: int, first_seed: int, victory_cost: int) -> dict:
    seeds = range(first_seed, first_seed + games)
    chunks = [(players, seeds[i::jobs], victory_cost) for i in range(jobs)]
    if jobs == 1:
        results = _batch(chunks[0])
    else:
        with ProcessPoolExecutor(jobs) as pool:
            results = [r for chunk in pool.map(_batch, chunks) for r in chunk]
    wins = [sum(r[0][seat] for r in results) for seat in range(players)]
    return {
        "players": players,
        "games": games,
        "shares": [w / games for w in wins],
        "endings": Counter(r[1] for r in results),
        "rounds": sum(r[2] for r in results) / games,
        "max_rounds": max(r[2] for r in results),
        "decisions": sum(r[3] for r in results) / games,
        "games_per_second": games / sum(r[4] for r in results),
    }


def report(result: dict) -> bool:
    players = result["players"]
    fair = 1 / players
    print(f"\n{players} players, {result['games']} random games")
    endings = dict(result["endings"])
    print(f"  ended by: {endings}; rounds mean {result['rounds']:.1f}, max {result['max_rounds']}")
    speed = result["games_per_second"]
    print(f"  decisions per game {result['decisions']:.0f}; {speed:.1f} games/s per core")
    print(f"  {'seat':>4} {'wins':>7} {'fair':>7} {'ratio':>6}")
    worst = 0.0
    for seat, share in enumerate(result["shares"]):
        ratio = share / fair
        worst = max(worst, ratio)
        print(f"  {seat:>4} {share:7.3f} {fair:7.3f} {ratio:6.2f}")
    ok = worst <= 1.3
    print(f"  largest ratio {worst:.2f} ({'within' if ok else 'ABOVE'} the 1.3 bar)")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--victory-cost", type=int, default=10, choices=(10, 20))
    args = parser.parse_args()
    results = [
        simulate(n, args.games, args.jobs, args.seed, args.victory_cost) for n in args.players
    ]
    if not all([report(result) for result in results]):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
