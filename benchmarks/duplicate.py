"""Duplicate seating against plain seating: how many games order four Jamaica bots rightly.

Four bots of known strength play 4-player Jamaica in-process (no gRPC): each is the
greedy policy of `example_bots/jamaica_greedy.py` that, with probability epsilon, plays
a uniformly random option instead (by default epsilon 0.0, 0.2, 0.4, 0.6: the true order
is that one). The greedy bot reads the wire request, so each of its decisions is built as
the referee builds it (the `admiralty.wire` codec: observation, options, the events the
seat may see, `match_info` with the track on its first request of a match).

    python benchmarks/duplicate.py                  # 800 deals, 2,000 trials per budget
    python benchmarks/duplicate.py --deals 200 --trials 500 --max-games 48 --seed 3 --json
    python benchmarks/duplicate.py --epsilons 0,0.1,0.2,0.3 --max-games 160

What is played: `--deals` deals (a 128-bit seed each, derived from `--seed`), every one
in its 4 cyclic rotations of the seats, as `admiralty tournament run --deals duplicate`
plays them (tournament/plan.py). The bots' coin flips come from streams of their own (per
deal, rotation and bot), so they differ between the rotations of a deal, as a real bot's
choices would.

What is counted: for every budget N (a multiple of 4 up to `--max-games`), `--trials`
trials of N games are drawn from those games, their deals drawn with replacement:

    plain      N deals, one game of each, the seats rotated game by game: every game a
               fresh deal
    duplicate  N/4 deals, all 4 rotations of each

and a trial is right when ranking the bots by mean score (ties broken by mean place; a
tie on both is wrong) gives exactly the true order. N90 is the smallest budget from which
the share of right trials stays at 90% or more for every larger budget, interpolated
linearly with the budget before it (the bracket is printed too). The figure of merit is
N90(duplicate) / N90(plain): below 1, duplicate seating orders the bots with fewer games
(the goal is 0.7 or less). Also printed, for each pair of bots next in the true order,
4 x the variance of their score difference averaged over a deal's rotations over its
variance in one game: the same ratio for that pair alone, and a steadier figure.

Why trials are drawn from one set of games (a bootstrap) rather than each played from a
master seed of its own: the share of right trials is flat near 90%, so counting
independent trials needs thousands of them per budget to place N90 within a few games
(30 trials of up to 64 games each gave a ratio of 0.62 where 2,400 games give 0.97), far
beyond a few minutes. Both seatings draw from the same games, so luck in the games played
moves both N90s alike; the ratio still moves by about 0.05 from one `--seed` to another.

Duplicate seating only cancels the luck that the deal fixes. While an engine draws from a
single RNG, one different decision shifts every later draw, so the rotations of a deal
share little beyond the setup; with named chance streams (`admiralty.games.chance`) the
dice of round r are the same whatever was decided before. docs/performance.md has the
figures.
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

from admiralty.games import Event, load_game
from admiralty.wire import codec_for
from admiralty.wire.codec import event_to_pb, options_to_pb, to_window_kind
from admiralty_sdk.v1 import bot_pb2, common_pb2

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "example_bots"))
from jamaica_greedy import JamaicaGreedy  # noqa: E402  (the example bot, as it is served)

GAME, PLAYERS = "jamaica", 4
EPSILONS = (0.0, 0.2, 0.4, 0.6)
"""The bots, strongest first: the true order is 0, 1, 2, 3."""
METHODS = ("plain", "duplicate")
FOLLOWED = {"round_started", "ghost_sails"}
"""The event kinds the greedy bot reads (`JamaicaGreedy._follow`)."""

Result = tuple[tuple[int, ...], tuple[int, ...]]
"""One game: the score and the place of each bot (by bot, not by seat)."""


def derive(master: int, *parts: object) -> int:
    """A 128-bit seed from `master` and a path of labels (as tournament/plan.py derives)."""
    text = ":".join(str(part) for part in (master, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "big")


class Table:
    """Plays matches of the engine with epsilon-greedy bots, in-process."""

    def __init__(self, epsilons: tuple[float, ...] = EPSILONS) -> None:
        self.epsilons = epsilons
        self.game = load_game(GAME)
        self.codec = codec_for(GAME)
        board = self.codec.board_pb(self.game.static_info())
        self.match_info = common_pb2.MatchInfo(game=GAME, players=PLAYERS,
                                               bot_names=["greedy"] * PLAYERS)
        getattr(self.match_info, self.codec.field).CopyFrom(board)
        self.matches = 0

    def play(self, seed: int, seating: tuple[int, ...], coins: list[random.Random]) -> Result:
        """One match on deal `seed`, bot `seating[s]` in seat `s`, bot `b` flipping its
        coins with `coins[b]`."""
        self.matches += 1
        match_id = f"m{self.matches}"
        state = self.game.new_game(PLAYERS, seed)
        bots = [JamaicaGreedy() for _ in range(PLAYERS)]
        unsent: list[list[Event]] = [[] for _ in range(PLAYERS)]
        tell(unsent, state.setup_events)
        informed = [False] * PLAYERS
        while (outcome := state.outcome()) is None:
            request = state.pending()[0]
            seat = request.seat
            coin = coins[seating[seat]]
            if coin.random() < self.epsilons[seating[seat]]:
                # A random option; the bot gets this request's events with its next one.
                tell(unsent, state.apply(seat, coin.randrange(len(request.options))))
                continue
            message = bot_pb2.DecideRequest(
                request_id=str(request.window_id), match_id=match_id, seat=seat,
                window_id=request.window_id, window=to_window_kind(request.window),
                kind=request.kind, prompt=request.prompt, optional=request.optional,
                options=options_to_pb(self.codec, request.options),
                events=[event_to_pb(event, 0) for event in unsent[seat]],
                **{self.codec.field: self.codec.observation_pb(state.view(seat))})
            unsent[seat] = []
            if not informed[seat]:
                message.match_info.CopyFrom(self.match_info)
                bots[seat].on_match_start(message)
                informed[seat] = True
            tell(unsent, state.apply(seat, bots[seat].decide(message)))
        scores, places = [0] * PLAYERS, [0] * PLAYERS
        for seat, bot in enumerate(seating):
            scores[bot], places[bot] = outcome.scores[seat], outcome.places[seat]
        return tuple(scores), tuple(places)


def tell(unsent: list[list[Event]], events: list[Event]) -> None:
    """Queue for every seat the events it may see that the greedy bot reads (building the
    others would cost a fifth of the run and change no decision)."""
    for seat, queue in enumerate(unsent):
        queue += [e for e in events if e.kind in FOLLOWED and e.visible_to(seat)]


def play_deals(table: Table, master: int, deals: int) -> list[list[Result]]:
    """Every deal in its 4 rotations: rotation r seats bot (s + r) % 4 in seat s."""
    played = []
    for deal in range(deals):
        seed = derive(master, "deal", deal)
        rotations = []
        for shift in range(PLAYERS):
            seating = tuple((seat + shift) % PLAYERS for seat in range(PLAYERS))
            coins = [random.Random(derive(master, "coins", deal, shift, bot))
                     for bot in range(PLAYERS)]
            rotations.append(table.play(seed, seating, coins))
        played.append(rotations)
    return played


def ordered_rightly(results: list[Result]) -> bool:
    """Whether mean score (then mean place) ranks the bots exactly in their true order."""
    keys = [(sum(r[0][bot] for r in results), -sum(r[1][bot] for r in results))
            for bot in range(PLAYERS)]
    return all(keys[bot] > keys[bot + 1] for bot in range(PLAYERS - 1))


def draw(played: list[list[Result]], method: str, budget: int, rng: random.Random
         ) -> list[Result]:
    """One trial of `budget` games, its deals drawn with replacement: plain, one game of
    each of `budget` deals, the seats rotated; duplicate, every rotation of `budget / 4`
    deals."""
    if method == "plain":
        deals = rng.choices(played, k=budget)
        return [rotations[number % PLAYERS] for number, rotations in enumerate(deals)]
    return [game for rotations in rng.choices(played, k=budget // PLAYERS)
            for game in rotations]


def variance_ratios(played: list[list[Result]]) -> list[float]:
    """For each pair of bots next in the true order, the variance of their score difference
    averaged over a deal's 4 rotations, times 4, over its variance in one game: the
    games duplicate seating needs to tell the pair apart per game plain seating needs
    (1: no gain). A steadier figure than the N90s, for one pair at a time."""
    ratios = []
    for bot in range(PLAYERS - 1):
        games = [g[0][bot] - g[0][bot + 1] for rotations in played for g in rotations]
        deals = [sum(g[0][bot] - g[0][bot + 1] for g in rotations) / PLAYERS
                 for rotations in played]
        ratios.append(round(PLAYERS * variance(deals) / variance(games), 3))
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


def measure(deals: int, trials: int, seed: int, max_games: int,
            epsilons: tuple[float, ...] = EPSILONS) -> dict[str, Any]:
    table = Table(epsilons)
    started = time.perf_counter()
    played = play_deals(table, seed, deals)
    seconds = time.perf_counter() - started
    budgets = list(range(PLAYERS, max_games + 1, PLAYERS))
    out: dict[str, Any] = {"game": GAME, "epsilons": list(epsilons), "deals": deals,
                           "trials": trials, "seed": seed, "max_games": max_games,
                           "ranked_by": "mean score, then mean place"}
    games = [game for rotations in played for game in rotations]
    out["mean_score"] = [round(sum(g[0][bot] for g in games) / len(games), 2)
                         for bot in range(PLAYERS)]
    out["variance_ratios"] = variance_ratios(played)
    for method in METHODS:
        rng = random.Random(derive(seed, "trials", method))
        shares = {budget: sum(ordered_rightly(draw(played, method, budget, rng))
                              for _ in range(trials)) / trials for budget in budgets}
        value, bracket = n90(shares)
        out[method] = {"n90": None if value is None else round(value, 1), "bracket": bracket,
                       "share_right": {str(b): round(s, 3) for b, s in shares.items()}}
    plain, duplicate = out["plain"]["n90"], out["duplicate"]["n90"]
    out["ratio"] = round(duplicate / plain, 3) if plain and duplicate else None
    out["games_played"] = table.matches
    out["seconds_playing"] = round(seconds, 1)
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=800,
                        help="deals played, each in 4 rotations (800)")
    parser.add_argument("--trials", type=int, default=2000,
                        help="trials drawn per seating and budget (2000)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (1)")
    parser.add_argument("--max-games", type=int, default=64,
                        help="the largest budget, a multiple of 4 (64)")
    parser.add_argument("--epsilons", default=",".join(map(str, EPSILONS)),
                        help="the bots' epsilons, strongest first (0.0,0.2,0.4,0.6)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.max_games < PLAYERS or args.max_games % PLAYERS:
        parser.error("--max-games must be a positive multiple of 4")
    if args.trials < 1 or args.deals < 2:
        parser.error("--trials must be positive and --deals at least 2")
    epsilons = tuple(float(value) for value in args.epsilons.split(","))
    if len(epsilons) != PLAYERS or list(epsilons) != sorted(set(epsilons)) \
            or not 0 <= epsilons[0] <= epsilons[-1] <= 1:
        parser.error("--epsilons takes 4 increasing values from 0 to 1")
    out = measure(args.deals, args.trials, args.seed, args.max_games, epsilons)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{GAME}, bots of epsilon {', '.join(map(str, epsilons))} (mean scores "
          f"{out['mean_score']}); {args.deals} deals x 4 rotations; {args.trials} trials "
          f"per budget; ranked by mean score")
    for method in METHODS:
        row = out[method]
        if row["n90"] is None:
            print(f"{method:<10} N90 not reached in {args.max_games} games")
        else:
            low, high = row["bracket"]
            print(f"{method:<10} N90 {row['n90']:6.1f} games (between {low} and {high})")
    ratio = out["ratio"]
    print(f"ratio duplicate / plain: {'n/a' if ratio is None else ratio}  "
          f"({out['games_played']} games, {out['seconds']} s)")
    print(f"per pair of neighbours, duplicate / plain games needed: {out['variance_ratios']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
