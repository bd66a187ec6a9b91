"""Seat balance and game length of Blackbeard with the heuristic bot in every seat.

    python benchmarks/balance_blackbeard.py [--games 1000] [--players 2 3 4 5] [--jobs 2]
        [--solitaire 300] [--json]

Each game is refereed in process by the real referee (`admiralty.referee.match.Match`):
every seat is an `example_bots/blackbeard_greedy.py` bot sent the same protobuf
requests it would get over gRPC, without the network. Seeds run from `--first-seed`, so
runs are reproducible. For each player count it prints each seat's share of wins (a tie
for first place splits the win; a seat is a position in the Player Order, seat A moving
first) next to the fair share, how games ended, and their length in Player Turns. The
acceptance bar is no seat above 1.3x its fair share. With `--solitaire N` it also plays N
solitaire games per difficulty level and prints the bot's win rate against the Crown.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from admiralty.games import load_game
from admiralty.referee import InProcessSeat
from admiralty.referee.match import Match, MatchSpec
from admiralty_sdk.v1 import bot_pb2

BOT_FILE = Path(__file__).resolve().parent.parent / "example_bots" / "blackbeard_greedy.py"


def _bot_class() -> type:
    spec = importlib.util.spec_from_file_location("blackbeard_greedy", BOT_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["blackbeard_greedy"] = module
    spec.loader.exec_module(module)
    return module.BlackbeardGreedy


class InProcess(InProcessSeat):
    """A bot answering the referee in this process, as the SDK's server would."""

    def __init__(self, bot: Any, seat: int):
        self.bot, self.name = bot, f"greedy{seat}"

    async def decide(self, request: bytes, timeout: float) -> bot_pb2.DecideResponse:
        message = bot_pb2.DecideRequest.FromString(request)
        if message.HasField("match_info"):
            self.bot.on_match_start(message)
        return bot_pb2.DecideResponse(
            request_id=message.request_id, option_index=self.bot.decide(message)
        )


def play(players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One game: the places by Player Order position, how it ended, its length."""
    greedy = _bot_class()
    bots = [InProcess(greedy(), seat) for seat in range(players)]
    spec = MatchSpec(
        f"balance-{players}-{seed}", "blackbeard", seed, dict(options), deadline=60.0, time_bank=1e9
    )
    match = Match(spec, bots, wire_id=f"balance-{seed}", clock=lambda: 0.0)
    asyncio.run(match.run())
    state = match.state
    outcome = state.outcome()
    assert outcome is not None and not match.incidents, match.incidents
    table = state.table
    by_position = [outcome.places[seat] for seat in table.order]
    return {
        "places": by_position,
        "scores": list(outcome.scores),
        "end": table.end_reason,
        "turns": table.turn.number,
        "decisions": match.steps,
    }


def _batch(args: tuple[int, list[int], dict[str, Any]]) -> list[dict[str, Any]]:
    players, seeds, options = args
    return [play(players, seed, options) for seed in seeds]


def run(
    players: int, games: int, jobs: int, first_seed: int, options: dict[str, Any]
) -> list[dict[str, Any]]:
    seeds = list(range(first_seed, first_seed + games))
    chunks = [(players, seeds[i::jobs], options) for i in range(jobs)]
    if jobs == 1:
        return _batch(chunks[0])
    with ProcessPoolExecutor(jobs) as pool:
        return [game for chunk in pool.map(_batch, chunks) for game in chunk]


def balance(players: int, results: list[dict[str, Any]]) -> dict[str, Any]:
    wins = [0.0] * players
    for game in results:
        first = [pos for pos, place in enumerate(game["places"]) if place == 1]
        for pos in first:
            wins[pos] += 1 / len(first)
    games = len(results)
    turns = sorted(game["turns"] for game in results)
    return {
        "players": players,
        "games": games,
        "shares": [w / games for w in wins],
        "worst_ratio": max(w / games * players for w in wins),
        "endings": dict(Counter(game["end"] for game in results)),
        "turns_mean": sum(turns) / games,
        "turns_median": turns[games // 2],
        "turns_range": [turns[0], turns[-1]],
        "decisions_mean": sum(game["decisions"] for game in results) / games,
    }


def solitaire(level: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    margins = [game["scores"][0] for game in results]
    return {
        "level": level,
        "games": len(results),
        "win_rate": sum(m >= 0 for m in margins) / len(margins),
        "margin_mean": sum(margins) / len(margins),
        "turns_mean": sum(game["turns"] for game in results) / len(results),
    }


def report(row: dict[str, Any]) -> None:
    players = row["players"]
    print(f"\n{players} players, {row['games']} games, heuristic bot in every seat")
    print(
        f"  ended by: {row['endings']}; Player Turns mean {row['turns_mean']:.1f}, "
        f"median {row['turns_median']}, range {row['turns_range']}; decisions per game "
        f"{row['decisions_mean']:.0f}"
    )
    print(f"  {'seat':>4} {'wins':>7} {'fair':>7} {'ratio':>6}")
    for position, share in enumerate(row["shares"]):
        print(f"  {'ABCDE'[position]:>4} {share:7.3f} {1 / players:7.3f} {share * players:6.2f}")
    verdict = "ok" if row["worst_ratio"] <= 1.3 else "LOPSIDED"
    print(f"  worst seat {row['worst_ratio']:.2f}x its fair share: {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument(
        "--solitaire", type=int, default=0, help="solitaire games per difficulty level (0: none)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    for players in args.players:
        row = balance(players, run(players, args.games, args.jobs, args.first_seed, {}))
        print(json.dumps(row)) if args.json else report(row)
    if args.solitaire and load_game("blackbeard").info.min_players == 1:
        for level in ("easy", "standard", "hard"):
            results = run(1, args.solitaire, args.jobs, args.first_seed, {"solitaire_level": level})
            row = solitaire(level, results)
            if args.json:
                print(json.dumps(row))
            else:
                print(
                    f"\nsolitaire {level}: {row['games']} games, the bot beats the Crown in "
                    f"{row['win_rate']:.1%}, margin mean {row['margin_mean']:+.1f}, "
                    f"Player Turns mean {row['turns_mean']:.1f}"
                )


if __name__ == "__main__":
    main()
