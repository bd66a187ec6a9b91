"""How long a game lasts under random play: Player Turns, rounds, decisions, how it ended.

Plays `--games` games of a registered game for each player count, every request answered
with a random legal option from a seeded RNG (game `i` is dealt from seed `--seed + i`,
its answers drawn from `random.Random((seed + i) ^ 0x5EED)`), so a run is reproducible.
Per player count it prints the Player Turns played (the `turn_started` events: mean,
median, p90, max; none for a game without them, such as Jamaica), the rounds where the
game counts them (the `round` or `rounds` of its `game_over` event), the decisions per
game, how the games ended (the `reason` of the `game_over` event, counted) and the wall
and CPU time of the row.

    python benchmarks/game_length.py                                  # Blackbeard, 2-5, 1,000 each
    python benchmarks/game_length.py --game jamaica --games 200 --json
    python benchmarks/game_length.py --game blackbeard --players 4 --games 50 --seed 7
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from typing import Any

from admiralty.games import GAMES, load_game


def playout(game: Any, players: int, seed: int) -> dict[str, Any]:
    """One game with random answers: its turns, round, decisions and end reason."""
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed ^ 0x5EED)
    decisions, turns, over = 0, 0, None
    while state.outcome() is None:
        request = state.pending()[0]
        for event in state.apply(request.seat, chooser.randrange(len(request.options))):
            if event.kind == "turn_started":
                turns += 1
            elif event.kind == "game_over":
                over = event.data
        decisions += 1
    over = over or {}
    rounds = over.get("round", over.get("rounds"))
    return {
        "turns": turns,
        "rounds": rounds,
        "decisions": decisions,
        "reason": over.get("reason", "(no game_over event)"),
    }


def percentile(values: list[int], fraction: float) -> float:
    """The nearest-rank percentile of `values`."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(fraction * len(ordered))) - 1]


def spread(values: list[int]) -> dict[str, float]:
    return {
        "mean": round(statistics.fmean(values), 1),
        "median": statistics.median(values),
        "p90": percentile(values, 0.9),
        "max": max(values),
    }


def measure(name: str, players: int, games: int, seed: int) -> dict[str, Any]:
    game = load_game(name)
    wall, cpu = time.perf_counter(), time.process_time()
    results = [playout(game, players, seed + i) for i in range(games)]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rounds = [r["rounds"] for r in results if r["rounds"] is not None]
    turns = [r["turns"] for r in results]
    return {
        "game": name,
        "players": players,
        "games": games,
        "seed": seed,
        "player_turns": spread(turns) if any(turns) else None,
        "rounds": spread(rounds) if rounds else None,
        "decisions_per_game": round(statistics.fmean(r["decisions"] for r in results), 1),
        "ended": dict(Counter(r["reason"] for r in results).most_common()),
        "wall_seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game", choices=GAMES, default="blackbeard", help="the game (default blackbeard)"
    )
    parser.add_argument(
        "--players",
        type=int,
        action="append",
        help="only this player count (repeatable; default every count)",
    )
    parser.add_argument(
        "--games", type=int, default=1000, help="games per player count (default 1000)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print JSON lines, not a table")
    args = parser.parse_args(argv)
    game = load_game(args.game)
    counts = args.players or range(game.min_players, game.max_players + 1)
    rows = []
    for players in counts:
        row = measure(args.game, players, args.games, args.seed)
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
    if not args.json:
        print(
            f"{args.game}: {args.games} random games per player count, seeds "
            f"{args.seed}..{args.seed + args.games - 1}"
        )
        header = (
            f"{'players':>7} {'turns mean':>10} {'median':>7} {'p90':>6} {'max':>6} "
            f"{'rounds mean':>11} {'decisions':>10} {'wall s':>7} {'cpu s':>7}  ended"
        )
        print(header)
        print("-" * len(header))
        for row in rows:
            turns, rounds = row["player_turns"], row["rounds"]
            mean_rounds = f"{rounds['mean']:.1f}" if rounds else "-"
            turns = turns or dict.fromkeys(("mean", "median", "p90", "max"), "-")
            ended = ", ".join(f"{reason} {count}" for reason, count in row["ended"].items())
            print(
                f"{row['players']:>7} {turns['mean']:>10} {turns['median']:>7} "
                f"{turns['p90']:>6} {turns['max']:>6} "
                f"{mean_rounds:>11} "
                f"{row['decisions_per_game']:>10.1f} {row['wall_seconds']:>7.2f} "
                f"{row['cpu_seconds']:>7.2f}  {ended}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
