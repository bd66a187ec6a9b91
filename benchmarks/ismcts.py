"""The ISMCTS bot (example_bots/ismcts.py) against each game's heuristic bot, in process.

Jamaica 2 players (ISMCTS against jamaica_greedy), Black Fleet 3 players and Blackbeard 3
players (ISMCTS against two copies of the game's greedy bot), through the local runner
(`admiralty.referee.local`). Game k is dealt from seed `--seed + k` with ISMCTS in seat
k mod players, so it sits in every seat equally often. Prints, per game, ISMCTS's wins
(first place, shared or not) against the 1/players a seat wins by chance, its mean place,
and its search speed: determinizations searched per CPU second of its own decisions.

    python benchmarks/ismcts.py                          # 200 games a game, 64 iterations, depth 10
    python benchmarks/ismcts.py --game jamaica --games 20 --iterations 200 --json
    python benchmarks/ismcts.py --against random     # the same against the random bot
    python benchmarks/ismcts.py --game black_fleet --against mixed   # 1 greedy + 1 random
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from admiralty.referee.local import load_bot, play_local

BOTS = Path(__file__).resolve().parents[1] / "example_bots"
MATCHES = {
    "jamaica": ("jamaica_greedy.py",),
    "black_fleet": ("black_fleet_greedy.py",) * 2,
    "blackbeard": ("blackbeard_greedy.py",) * 2,
}
"""Per game, the opponents of ISMCTS: its heuristic bot, once per other seat (`--against
random`: the random bot instead, for a baseline; `--against mixed`: the heuristic bot in
the first of the other seats, the random bot in the rest)."""


def timed(bot: Any) -> Any:
    """`bot` with its CPU time in `decide` added up in `bot.cpu` and its calls in `bot.calls`."""
    decide = bot.decide
    bot.cpu, bot.calls = 0.0, 0

    def counted(request):
        start = time.process_time()
        try:
            return decide(request)
        finally:
            bot.cpu += time.process_time() - start
            bot.calls += 1

    bot.decide = counted
    return bot


def measure(
    game: str, games: int, iterations: int, depth: int, seed: int, against: str
) -> dict[str, Any]:
    wins, places, cpu, calls = 0, 0, 0.0, 0
    heuristic = MATCHES[game]
    randoms = ("random_bot.py",) * len(heuristic)
    opponents = {"greedy": heuristic, "random": randoms, "mixed": heuristic[:1] + randoms[1:]}[
        against
    ]
    players = len(opponents) + 1
    for k in range(games):
        searcher = timed(
            load_bot(
                f"{BOTS / 'ismcts.py'} --iterations {iterations} --depth {depth} --seed {seed + k}"
            )
        )
        bots = [load_bot(BOTS / name) for name in opponents]
        seat = k % players
        bots.insert(seat, searcher)
        result = play_local(game, bots, seed + k)
        wins += result.places[seat] == 1
        places += result.places[seat]
        cpu, calls = cpu + searcher.cpu, calls + searcher.calls
        print(f"{game}: {k + 1}/{games} games, {wins} won", file=sys.stderr, flush=True)
    rate = wins / games
    return {
        "game": game,
        "players": players,
        "opponents": list(opponents),
        "games": games,
        "iterations": iterations,
        "depth": depth,
        "wins": wins,
        "win_rate": round(rate, 3),
        "win_rate_95": round(1.96 * math.sqrt(rate * (1 - rate) / games), 3),
        "chance": round(1 / players, 3),
        "mean_place": round(places / games, 2),
        "decisions": calls,
        "iterations_per_second": round(calls * iterations / cpu) if cpu else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game",
        choices=sorted(MATCHES),
        action="append",
        help="only this game (repeatable); every game by default",
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=64)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--against",
        choices=("greedy", "random", "mixed"),
        default="greedy",
        help="the opponents: each game's heuristic bot, the random bot, or "
        "one heuristic bot and random bots",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    args = parser.parse_args()
    for game in args.game or MATCHES:
        row = measure(game, args.games, args.iterations, args.depth, args.seed, args.against)
        if args.json:
            print(json.dumps(row), flush=True)
            continue
        print(
            f"{game} {row['players']}p vs {', '.join(row['opponents'])}: ISMCTS won "
            f"{row['wins']}/{row['games']} = {row['win_rate']:.1%} ± {row['win_rate_95']:.1%} "
            f"(chance {row['chance']:.1%}), mean place {row['mean_place']}, "
            f"{row['iterations_per_second']} iterations/s",
            flush=True,
        )


if __name__ == "__main__":
    main()
