"""Duplicate seating against plain seating: how many games order a game's bots rightly.

Bots of known strength play one game in-process, through the referee's local runner
(`admiralty.referee.local`, as `admiralty play --local` plays): each is the game's example
greedy bot (`example_bots/<game>_greedy.py`) that, with probability epsilon, plays a
uniformly random option instead (by default epsilons evenly spaced from 0 to 0.6,
0.0, 0.2, 0.4, 0.6 for 4 players: the true order is that one). The runner sends each bot
exactly the requests the referee would send it over the wire (single-option requests are
answered by the referee, so they flip no coin). A request answered at random is still
shown to the greedy bot, with the drawn option alone, so that it reads the events and
remembers the choice as its own. Black Fleet's greedy bot gains little on one of epsilon
0.2, so its bots are ordered only with wider epsilons (the second example).

    python benchmarks/duplicate.py                  # Jamaica, 800 deals, 2,000 trials
    python benchmarks/duplicate.py --game black_fleet --epsilons 0,0.35,0.7,1 --max-games 96
    python benchmarks/duplicate.py --game blackbeard --deals 500 --trials 1000 --max-games 256
    python benchmarks/duplicate.py --epsilons 0,0.05,0.1,0.15 --max-games 256 --coins seat

What is played: `--deals` deals (a 128-bit seed each, derived from `--seed`), every one
in its cyclic rotations of the seats (as many as players), as `admiralty tournament run
--deals duplicate` plays them (tournament/plan.py). The bots' coin flips come, with
`--coins match` (the default), from streams of their own per deal, rotation and bot, so
they differ between the rotations of a deal, as a bot seeded per match would flip them;
with `--coins seat`, from `admiralty_sdk.seat_seed` on a seat's first request, as
`example_bots/random_bot.py` seeds itself, so that a seat's bot flips the same coins in
every rotation of a deal (the bots are variants of one program with one seed).

What is counted: for every budget N (a multiple of the players up to `--max-games`),
`--trials` trials of N games are drawn from those games, their deals drawn with
replacement:

    plain      N deals, one game of each, the seats rotated game by game: every game a
               fresh deal
    duplicate  N/players deals, all rotations of each

and a trial is right when ranking the bots by mean score (ties broken by mean place; a
tie on both is wrong) gives exactly the true order. N90 is the smallest budget from which
the share of right trials stays at 90% or more for every larger budget, interpolated
linearly with the budget before it (the bracket is printed too). The figure of merit is
N90(duplicate) / N90(plain): below 1, duplicate seating orders the bots with fewer games
(the goal is 0.7 or less). Also printed, for each pair of bots next in the true order,
players x the variance of their score difference averaged over a deal's rotations over
its variance in one game: the same ratio for that pair alone, and a steadier figure.

Why trials are drawn from one set of games (a bootstrap) rather than each played from a
master seed of its own: the share of right trials is flat near 90%, so counting
independent trials needs thousands of them per budget to place N90 within a few games
(30 trials of up to 64 games each gave a ratio of 0.62 where 2,400 games give 0.97), far
beyond a few minutes. Both seatings draw from the same games, so luck in the games played
moves both N90s alike; the ratio still moves by 0.05 to 0.1 from one `--seed` to another.

Duplicate seating only cancels the luck that the deal fixes: with named chance streams
(`admiralty.games.chance`) the setup, decks and dice of a deal are the same whatever was
decided before, but once two rotations differ in a decision their games diverge. Seat
coins and close epsilons keep them together longest. docs/performance.md has the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from admiralty.referee.local import load_bot, play_local
from admiralty_sdk import Bot, seat_seed
from admiralty_sdk.v1 import bot_pb2

REPO = Path(__file__).resolve().parents[1]
GAMES = ("jamaica", "black_fleet", "blackbeard")
METHODS = ("plain", "duplicate")
COINS = ("match", "seat")

Result = tuple[tuple[int, ...], tuple[int, ...]]
"""One game: the score and the place of each bot (by bot, not by seat)."""


def derive(master: int, *parts: object) -> int:
    """A 128-bit seed from `master` and a path of labels (as tournament/plan.py derives)."""
    text = ":".join(str(part) for part in (master, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "big")


def default_epsilons(players: int) -> tuple[float, ...]:
    """Evenly spaced from 0 to 0.6, strongest first: the true order is 0, 1, ..."""
    return tuple(round(0.6 * bot / (players - 1), 3) for bot in range(players))


class EpsilonGreedy(Bot):
    """A greedy bot that plays a uniformly random option with probability `epsilon`, its
    coin flipped from `coin`, or (`coin` None) from a generator seeded with
    `admiralty_sdk.seat_seed` on its first request, as `example_bots/random_bot.py` seeds
    itself. Each decision draws a flip and an option whichever way the flip falls, so that
    two bots of one seed and different epsilons stay in step. The greedy bot is still shown
    a randomly answered request, with the drawn option alone, so that it reads the
    request's events and remembers what was played as its own choice (Blackbeard's bot
    remembers which pirate it sent)."""

    def __init__(self, greedy: Bot, epsilon: float, coin: random.Random | None) -> None:
        self.greedy, self.epsilon, self.coin = greedy, epsilon, coin
        self.name, self.version, self.games = greedy.name, greedy.version, greedy.games

    def on_match_start(self, request: bot_pb2.DecideRequest) -> None:
        self.greedy.on_match_start(request)

    def on_match_over(self, message: bot_pb2.MatchOverRequest) -> None:
        self.greedy.on_match_over(message)

    def decide(self, request: bot_pb2.DecideRequest) -> int:
        if self.coin is None:
            self.coin = random.Random(seat_seed(request))
        flip, index = self.coin.random(), self.coin.randrange(len(request.options))
        if flip >= self.epsilon:
            return self.greedy.decide(request)
        forced = bot_pb2.DecideRequest()
        forced.CopyFrom(request)
        del forced.options[:]
        forced.options.extend([request.options[index]])
        self.greedy.decide(forced)
        return index


class Table:
    """Plays matches of one game between epsilon-greedy bots, in-process."""

    def __init__(self, game: str, epsilons: tuple[float, ...]) -> None:
        self.game, self.epsilons = game, epsilons
        self.greedy = type(load_bot(REPO / "example_bots" / f"{game}_greedy.py"))
        self.matches = 0

    def play(
        self, seed: int, seating: tuple[int, ...], coins: list[random.Random | None]
    ) -> Result:
        """One match on deal `seed`, bot `seating[s]` in seat `s`, bot `b` flipping its
        coins with `coins[b]` (None: seeded from its seat's first request)."""
        self.matches += 1
        bots = [EpsilonGreedy(self.greedy(), self.epsilons[bot], coins[bot]) for bot in seating]
        result = play_local(self.game, bots, seed)
        scores, places = [0] * len(seating), [0] * len(seating)
        for seat, bot in enumerate(seating):
            scores[bot], places[bot] = result.scores[seat], result.places[seat]
        return tuple(scores), tuple(places)


def play_deals(table: Table, master: int, deals: int, coins_by: str) -> list[list[Result]]:
    """Every deal in all its rotations: rotation r seats bot (s + r) % players in seat s.
    A bot's coin is seeded from its seat's first request (`coins_by` "seat": the same in
    every rotation) or from the deal, the rotation and the bot ("match")."""
    players = len(table.epsilons)
    played = []
    for deal in range(deals):
        seed = derive(master, "deal", deal)
        rotations = []
        for shift in range(players):
            seating = tuple((seat + shift) % players for seat in range(players))
            coins = [
                None
                if coins_by == "seat"
                else random.Random(derive(master, "coins", deal, shift, bot))
                for bot in range(players)
            ]
            rotations.append(table.play(seed, seating, coins))
        played.append(rotations)
    return played


def ordered_rightly(results: list[Result]) -> bool:
    """Whether mean score (then mean place) ranks the bots exactly in their true order."""
    keys = [
        (sum(r[0][bot] for r in results), -sum(r[1][bot] for r in results))
        for bot in range(len(results[0][0]))
    ]
    return all(keys[bot] > keys[bot + 1] for bot in range(len(keys) - 1))


def draw(played: list[list[Result]], method: str, budget: int, rng: random.Random) -> list[Result]:
    """One trial of `budget` games, its deals drawn with replacement: plain, one game of
    each of `budget` deals, the seats rotated; duplicate, every rotation of
    `budget / players` deals."""
    players = len(played[0])
    if method == "plain":
        deals = rng.choices(played, k=budget)
        return [rotations[number % players] for number, rotations in enumerate(deals)]
    return [game for rotations in rng.choices(played, k=budget // players) for game in rotations]


def variance_ratios(played: list[list[Result]]) -> list[float | None]:
    """For each pair of bots next in the true order, the variance of their score difference
    averaged over a deal's rotations, times the players, over its variance in one game: the
    games duplicate seating needs to tell the pair apart per game plain seating needs
    (1: no gain; None if the difference never varies). A steadier figure than the N90s,
    for one pair at a time."""
    players = len(played[0])
    ratios = []
    for bot in range(players - 1):
        games = [g[0][bot] - g[0][bot + 1] for rotations in played for g in rotations]
        deals = [
            sum(g[0][bot] - g[0][bot + 1] for g in rotations) / players for rotations in played
        ]
        spread = variance(games)
        ratios.append(round(players * variance(deals) / spread, 3) if spread else None)
    return ratios


def variance(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return sum((value - mean) ** 2 for value in values) / (len(values) - 1)


def n90(shares: dict[int, float], level: float = 0.9) -> tuple[float | None, list[int]]:
    """The smallest budget from which every share is at least `level`, interpolated with
    the budget before it, and the bracket [budget before, budget]; None if never."""
    budgets = sorted(shares)
    first = None
    for budget in reversed(budgets):
        if shares[budget] < level:
            break
        first = budget
    if first is None:
        return None, [budgets[-1], -1]
    position = budgets.index(first)
    if position == 0:
        return float(first), [0, first]
    below = budgets[position - 1]
    low, high = shares[below], shares[first]
    return below + (level - low) / (high - low) * (first - below), [below, first]


def measure(
    game: str,
    epsilons: tuple[float, ...],
    deals: int,
    trials: int,
    seed: int,
    max_games: int,
    coins_by: str,
) -> dict[str, Any]:
    players = len(epsilons)
    table = Table(game, epsilons)
    started = time.perf_counter()
    played = play_deals(table, seed, deals, coins_by)
    seconds = time.perf_counter() - started
    budgets = list(range(players, max_games + 1, players))
    out: dict[str, Any] = {
        "game": game,
        "players": players,
        "epsilons": list(epsilons),
        "deals": deals,
        "trials": trials,
        "seed": seed,
        "max_games": max_games,
        "coins": coins_by,
        "ranked_by": "mean score, then mean place",
    }
    games = [result for rotations in played for result in rotations]
    out["mean_score"] = [
        round(sum(g[0][bot] for g in games) / len(games), 2) for bot in range(players)
    ]
    out["variance_ratios"] = variance_ratios(played)
    for method in METHODS:
        rng = random.Random(derive(seed, "trials", method))
        shares = {
            budget: sum(ordered_rightly(draw(played, method, budget, rng)) for _ in range(trials))
            / trials
            for budget in budgets
        }
        value, bracket = n90(shares)
        out[method] = {
            "n90": None if value is None else round(value, 1),
            "bracket": bracket,
            "share_right": {str(b): round(s, 3) for b, s in shares.items()},
        }
    plain, duplicate = out["plain"]["n90"], out["duplicate"]["n90"]
    out["ratio"] = round(duplicate / plain, 3) if plain and duplicate else None
    out["games_played"] = table.matches
    out["seconds_playing"] = round(seconds, 1)
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Black Fleet's bots are ordered only with wider epsilons, e.g. "
        "--epsilons 0,0.35,0.7,1. Figures per game: docs/performance.md.",
    )
    parser.add_argument("--game", choices=GAMES, default="jamaica", help="the game (jamaica)")
    parser.add_argument("--players", type=int, default=4, help="seats and bots (4)")
    parser.add_argument(
        "--deals",
        type=int,
        default=800,
        help="deals played, each in as many rotations as players (800)",
    )
    parser.add_argument(
        "--trials", type=int, default=2000, help="trials drawn per seating and budget (2000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="master seed (1)")
    parser.add_argument(
        "--max-games", type=int, help="the largest budget, a multiple of the players (16 x players)"
    )
    parser.add_argument(
        "--epsilons",
        help="the bots' epsilons, strongest first, one per "
        "player (evenly spaced from 0 to 0.6: 0.0,0.2,0.4,0.6 for 4)",
    )
    parser.add_argument(
        "--coins",
        choices=COINS,
        default="match",
        help="seed a bot's coin from its seat's first request, as "
        "example_bots/random_bot.py does: the same in every rotation of a "
        "deal (seat); or from the deal, rotation and bot (match, the default)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    players = args.players
    if players < 2:
        parser.error("--players must be at least 2")
    max_games = 16 * players if args.max_games is None else args.max_games
    if max_games < players or max_games % players:
        parser.error(f"--max-games must be a positive multiple of {players}")
    if args.trials < 1 or args.deals < 2:
        parser.error("--trials must be positive and --deals at least 2")
    epsilons = (
        default_epsilons(players)
        if args.epsilons is None
        else tuple(float(value) for value in args.epsilons.split(","))
    )
    if (
        len(epsilons) != players
        or list(epsilons) != sorted(set(epsilons))
        or not 0 <= epsilons[0] <= epsilons[-1] <= 1
    ):
        parser.error(f"--epsilons takes {players} increasing values from 0 to 1")
    out = measure(args.game, epsilons, args.deals, args.trials, args.seed, max_games, args.coins)
    print(json.dumps(out) if args.json else report(out))
    return 0


def report(out: dict[str, Any]) -> str:
    """The figures of `measure` for a reader."""
    lines = [
        f"{out['game']}, {out['players']} players, bots of epsilon "
        f"{', '.join(map(str, out['epsilons']))} (mean scores {out['mean_score']}); "
        f"{out['deals']} deals x {out['players']} rotations; {out['trials']} trials per "
        f"budget; coins by {out['coins']}; ranked by mean score"
    ]
    for method in METHODS:
        row = out[method]
        if row["n90"] is None:
            lines.append(f"{method:<10} N90 not reached in {out['max_games']} games")
        else:
            low, high = row["bracket"]
            lines.append(f"{method:<10} N90 {row['n90']:6.1f} games (between {low} and {high})")
    ratio = out["ratio"]
    lines.append(
        f"ratio duplicate / plain: {'n/a' if ratio is None else ratio}  "
        f"({out['games_played']} games, {out['seconds']} s)"
    )
    lines.append(
        f"per pair of neighbours, duplicate / plain games needed: {out['variance_ratios']}"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
