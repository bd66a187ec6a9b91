"""Adaptive scheduling against the full round robin: games needed to order 8 bots rightly.

Eight bots of known strength play a *synthetic* game, in-process: in a match, the bot in
each seat scores its strength plus Gaussian noise (standard deviation 1), drawn from the
match's planned seed, and the places follow the scores. Bot b's strength is
`gap * (7 - b)`, so bot 0 is the strongest and the true order is 0, 1, ..., 7; with the
default `--gap 0.5` the weaker of two neighbours places above the stronger in 36 % of
their meetings, and a full round robin of 4 seats needs about 200 games (most of its
first round of 280) to order all 8.

Why synthetic: the scheduler sees places and nothing else, so a game whose places come from
known score distributions exercises exactly what the schedule decides (which groups play,
and when to stop), and costs nothing to play, where a Jamaica game of the epsilon-greedy
bots of duplicate.py costs about 50 ms: the default run is 252,000 games (200 trials, 3
schedules, 420 games), three and a half hours of Jamaica. Independent trials are affordable, so no
bootstrap is needed (duplicate.py explains why it needs one). What the synthetic game
leaves out is a seat advantage (both schedules play every group in all its seat
rotations, which cancels one alike) and a deal's luck (the same for both); its noise is
the same whoever sits at the table, which a real game's need not be.

    python benchmarks/adaptive.py                       # 4 seats, 200 trials of 420 games
    python benchmarks/adaptive.py --players 2 --trials 100 --json

What is compared, each trial with a master seed of its own, the games rated by TrueSkill
in plan order exactly as `admiralty tournament run` rates them, and the bots ordered by
mu (a trial is right at N games when that order is the true one):

    full       the plan of `--schedule full`: every group of --players bots in its seat
               rotations, round after round (tournament/plan.py); read after every game
    sampled    the balanced plan with --matches-per-bot (the first block's size), round
               after round: the best non-adaptive schedule at a small budget
    adaptive   `--schedule adaptive` (tournament/adaptive.py): the first block sampled with
               --matches-per-bot, then block after block chosen from the ratings; the stop
               rule is off, so every budget is reached, and the order read after every game

Each trial is independent (its own seed, its own games), so the share of right trials per
budget is a plain proportion; N90, the smallest budget from which the share stays at 90 %
or more, is read as duplicate.py reads it. The figure of merit is N90(adaptive) /
N90(full); the goal is 0.5 or less. Also printed: where the stop rule (`--confidence`)
stops the adaptive runs, on average, and how often their order is then right.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
from duplicate import n90  # noqa: E402  (the same reading of N90)

from admiralty.tournament.adaptive import Adaptive, next_block, stop_reason  # noqa: E402
from admiralty.tournament.plan import Deals, PlannedMatch, derive_seed, plan_matches  # noqa: E402
from admiralty.tournament.ratings import TrueSkillRater  # noqa: E402

BOTS = 8
METHODS = ("full", "sampled", "adaptive")


def places(match: PlannedMatch, gap: float, trial_seed: int) -> list[int]:
    """The places of one synthetic match: strength plus N(0, 1) noise from the match seed
    and the trial's."""
    rng = random.Random(derive_seed(trial_seed, match.seed))
    scores = [gap * (BOTS - 1 - bot) + rng.gauss(0.0, 1.0) for bot in match.seats]
    ranked = sorted(range(len(scores)), key=lambda seat: -scores[seat])
    out = [0] * len(scores)
    for place, seat in enumerate(ranked, start=1):
        out[seat] = place
    return out


class Rated:
    """Ratings in plan order, and after every game whether mu orders the bots rightly."""

    def __init__(self) -> None:
        self.rater = TrueSkillRater()
        self.skills = [self.rater.initial()] * BOTS
        self.games = [0] * BOTS
        self.right: list[bool] = []

    def play(self, match: PlannedMatch, gap: float, trial_seed: int) -> None:
        rated = self.rater.rate([self.skills[bot] for bot in match.seats],
                                places(match, gap, trial_seed))
        for bot, skill in zip(match.seats, rated, strict=True):
            self.skills[bot] = skill
            self.games[bot] += 1
        self.right.append(all(self.skills[bot].mu > self.skills[bot + 1].mu
                              for bot in range(BOTS - 1)))


@functools.cache
def fixed_plans(players: int, per_bot: int, budget: int, seed: int
                ) -> dict[str, list[PlannedMatch]]:
    """The full and the sampled plans, planned once (seating them takes a second or two):
    the synthetic game has no seat advantage, so the trials share their seating and differ
    in their noise (drawn from the match seed and the trial's)."""
    full_rounds = -(-budget // (math.comb(BOTS, players) * players))
    per_round = per_bot * BOTS // players
    return {"full": plan_matches("t", BOTS, players, full_rounds, seed)[:budget],
            "sampled": plan_matches("t", BOTS, players, -(-budget // per_round), seed,
                                    matches_per_bot=per_bot)[:budget]}


def trial(args: tuple[int, int, int, int, float, float, int]) -> dict[str, Any]:
    """One trial of every method to `budget` games; per method, right or not per game."""
    seed, players, per_bot, budget, gap, confidence, master = args
    out: dict[str, Any] = {}
    for method, plan in fixed_plans(players, per_bot, budget, master).items():
        rated = Rated()
        for match in plan:
            rated.play(match, gap, seed)
        out[method] = rated.right
    rated = Rated()
    rule = Adaptive(confidence=1.0, max_matches=budget)  # never stops before the budget
    stop_rule = Adaptive(confidence=confidence, max_matches=budget)
    plan = plan_matches("t", BOTS, players, 1, seed, matches_per_bot=per_bot)
    block = list(plan)
    stopped = None
    while block:
        for match in block:
            rated.play(match, gap, seed)
        reason = stop_reason(rated.skills, len(plan), players, stop_rule)
        if stopped is None and reason and reason.startswith("confidence"):
            stopped = (len(plan), rated.right[-1])
        block = next_block("t", seed, Deals.FRESH, players, plan, rated.skills, rule)
        plan += block
    out["adaptive"] = rated.right
    out["stopped"] = stopped
    return out


def measure(trials: int, players: int, per_bot: int, budget: int, gap: float,
            confidence: float, seed: int, jobs: int) -> dict[str, Any]:
    started = time.perf_counter()
    work = [(derive_seed(seed, "trial", t), players, per_bot, budget, gap, confidence, seed)
            for t in range(trials)]
    with ProcessPoolExecutor(jobs) as pool:
        done = list(pool.map(trial, work, chunksize=4))
    out: dict[str, Any] = {"game": "synthetic: strength gap * (7 - bot) + N(0, 1)",
                           "bots": BOTS, "players": players, "gap": gap, "trials": trials,
                           "budget": budget, "first_block_matches_per_bot": per_bot,
                           "seed": seed, "ranked_by": "trueskill mu, in plan order"}
    step = players
    for method in METHODS:
        shares = {n: sum(len(d[method]) >= n and d[method][n - 1] for d in done) / trials
                  for n in range(step, budget + 1, step)}
        value, bracket = n90(shares)
        out[method] = {"n90": None if value is None else round(value, 1), "bracket": bracket,
                       "share_right": {str(n): round(s, 3) for n, s in shares.items()
                                       if n % (step * 10) == 0}}
    full, sampled, adaptive = (out[m]["n90"] for m in METHODS)
    out["ratio_adaptive_full"] = round(adaptive / full, 3) if full and adaptive else None
    out["ratio_adaptive_sampled"] = round(adaptive / sampled, 3) if sampled and adaptive \
        else None
    stops = [d["stopped"] for d in done if d["stopped"]]
    out["stop_rule"] = {"confidence": confidence, "stopped_in_budget": len(stops),
                        "mean_games": round(sum(s[0] for s in stops) / len(stops), 1)
                        if stops else None,
                        "share_right": round(sum(s[1] for s in stops) / len(stops), 3)
                        if stops else None}
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200, help="trials per method (200)")
    parser.add_argument("--players", type=int, default=4, help="seats per match (4)")
    parser.add_argument("--matches-per-bot", type=int, default=None,
                        help="the first block's size, and the sampled rounds' "
                        "(default: the smallest valid)")
    parser.add_argument("--budget", type=int, default=None,
                        help="games per trial (default 420, 1120 with 2 seats: past the "
                        "full round robin's N90 at the default --gap)")
    parser.add_argument("--gap", type=float, default=0.5,
                        help="strength gap between neighbours, in noise SDs (0.5)")
    parser.add_argument("--confidence", type=float, default=0.9,
                        help="the stop rule's confidence (0.9)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (1)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (2)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not 2 <= args.players < BOTS:
        parser.error(f"--players must be 2 to {BOTS - 1}")
    per_bot = args.matches_per_bot or (
        args.players * args.players // math.gcd(args.players * args.players,
                                                args.players * BOTS) * args.players)
    budget = args.budget or (1120 if args.players == 2 else 420)
    out = measure(args.trials, args.players, per_bot, budget, args.gap, args.confidence,
                  args.seed, args.jobs)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{out['game']}, gap {args.gap}; {BOTS} bots, {args.players} seats; "
          f"{args.trials} trials of {budget} games; ranked by TrueSkill mu")
    for method in METHODS:
        row = out[method]
        found = "not reached" if row["n90"] is None else \
            f"{row['n90']:7.1f} games (between {row['bracket'][0]} and {row['bracket'][1]})"
        print(f"{method:<9} N90 {found}")
    print(f"ratio adaptive / full round robin: {out['ratio_adaptive_full'] or 'n/a'}  "
          f"(adaptive / sampled: {out['ratio_adaptive_sampled'] or 'n/a'}; goal <= 0.5)")
    stop = out["stop_rule"]
    print(f"stop rule P >= {args.confidence}: stopped {stop['stopped_in_budget']} of "
          f"{args.trials} runs within the budget, after {stop['mean_games']} games on "
          f"average, the order then right in {stop['share_right']} of them "
          f"({out['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
