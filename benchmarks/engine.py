"""Random-playout speed of every registered game engine, in-process on one core.

Each game is played from `new_game(players, seed)` to the end by always answering the
first pending request with a random option drawn from a separate seeded RNG, so a run is
reproducible. Prints games per second per game and player count.

    python benchmarks/engine.py                      # a table, 200 games per row
    python benchmarks/engine.py --games 1000 --json  # machine-readable
    python benchmarks/engine.py --game jamaica --players 4
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from admiralty.games import GAMES, load_game


def playout(game: Any, players: int, seed: int) -> tuple[int, int]:
    """Play one game with random answers; returns (decisions, rounds or 0)."""
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed ^ 0x5EED)
    decisions = 0
    while state.outcome() is None:
        request = state.pending()[0]
        state.apply(request.seat, chooser.randrange(len(request.options)))
        decisions += 1
    return decisions, getattr(state, "round", 0)


def measure(name: str, players: int, games: int, repeats: int) -> dict[str, Any]:
    """The best of `repeats` timed runs of `games` playouts (seeds 0..games-1), in CPU time
    of this process: one core's work, which other load on the machine barely changes."""
    game = load_game(name)
    playout(game, players, games)  # warm caches and imports outside the timing
    best, decisions, rounds = float("inf"), 0, 0
    for _ in range(repeats):
        start = time.process_time()
        results = [playout(game, players, seed) for seed in range(games)]
        best = min(best, time.process_time() - start)
        decisions = sum(r[0] for r in results)
        rounds = sum(r[1] for r in results)
    return {
        "game": name,
        "players": players,
        "games": games,
        "seconds": round(best, 4),
        "games_per_second": round(games / best, 1),
        "decisions_per_game": round(decisions / games, 1),
        "decisions_per_second": round(decisions / best),
        "rounds_per_game": round(rounds / games, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="playouts per row (default 200)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs, best kept (default 3)")
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game")
    parser.add_argument("--players", type=int, action="append", help="only this player count")
    parser.add_argument("--json", action="store_true", help="print JSON lines, not a table")
    args = parser.parse_args(argv)
    rows = []
    for name in args.game or GAMES:
        game = load_game(name)
        counts = args.players or range(game.min_players, game.max_players + 1)
        for players in counts:
            row = measure(name, players, args.games, args.repeats)
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
    if not args.json:
        header = f"{'game':<12} {'players':>7} {'games/s':>9} {'decisions/game':>15} " \
                 f"{'decisions/s':>12} {'rounds/game':>12}"
        print(header)
        print("-" * len(header))
        for row in rows:
            print(f"{row['game']:<12} {row['players']:>7} {row['games_per_second']:>9.1f} "
                  f"{row['decisions_per_game']:>15.1f} {row['decisions_per_second']:>12} "
                  f"{row['rounds_per_game']:>12.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
