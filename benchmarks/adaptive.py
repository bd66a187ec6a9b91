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
and when to stop), and costs nothing to play. What it leaves out is a seat advantage (both
schedules play every group in all its seat rotations, which cancels one alike) and a
deal's luck (the same for both); its noise is the same whoever sits at the table, which a
real game's need not be.

`--game jamaica` (or black_fleet, blackbeard) measures on the real game instead, by a
bootstrap, since a Jamaica game of duplicate.py's epsilon-greedy bots costs about 50 ms of
CPU (27 with 2 seats) and independent trials of 200 x 3 schedules x 840 games would take
seven hours. The 8 bots are duplicate.py's `EpsilonGreedy`, played by its `Table`, with
epsilons evenly spaced from 0 to 1 by default (`--epsilons`), strongest first: the widest
even spread, since with narrower ones no schedule ordered the bots within 840 games when
ratings still drifted (see docs/performance.md). First a *pool* is played: for every group
(every set of --players bots), `--pool-per-group` K games, each on a deal, a seating (a
permutation of the group, so the seat advantage is random and the same for every schedule)
and coin streams derived from `--seed`; each game is kept as score and place by bot, in
the JSON file of `--pool`, which a later run with the same game, seats, epsilons and seed
reuses (grown, never replayed, for a larger K: game k of a group is the same in any pool).
Then in a trial, each match a schedule plans for group G is one of G's K pool games drawn
at random with replacement (by the trial's own rng per schedule); the match's planned
seating stands for nothing. A schedule that draws one group far more often than K is
measured on the pool's luck rather than the game's, so for each schedule the mean and
largest, over the trials, of the most draws from one group by its N90 are printed beside
K.

    python benchmarks/adaptive.py                       # 4 seats, 200 trials of 420 games
    python benchmarks/adaptive.py --players 2 --trials 100 --json
    python benchmarks/adaptive.py --game jamaica --pool jamaica4.json --budget 840

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

Each synthetic trial is independent (its own seed, its own games), so the share of right
trials per budget is a plain proportion (on a pool, the trials share its games); N90, the
smallest budget from which the share stays at 90 % or more, is read as duplicate.py
reads it. The figure of merit is N90(adaptive) /
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
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
from duplicate import GAMES as REAL_GAMES  # noqa: E402  (the bots and N90 of duplicate.py)
from duplicate import Table, n90  # noqa: E402

from admiralty.tournament.adaptive import Adaptive, next_block, stop_reason  # noqa: E402
from admiralty.tournament.plan import Deals, PlannedMatch, derive_seed, plan_matches  # noqa: E402
from admiralty.tournament.ratings import rater_of  # noqa: E402
from admiralty.tournament.runner import Settings  # noqa: E402

BOTS = 8
METHODS = ("full", "sampled", "adaptive")
GAMES = ("synthetic", *REAL_GAMES)
EPSILON_MAX = 1.0
"""The weakest bot's epsilon by default: a uniformly random player (see above)."""
POOL_PER_GROUP = 200
"""Real game: pool games per group by default: more than the adaptive schedule draws from
its most drawn group by its N90 on Jamaica (110 at most with 2 seats, 168 with 4), so no
schedule is measured on a few games drawn over and over (docs/performance.md)."""

Outcome = Callable[[PlannedMatch], list[int]]
"""The places, seat by seat, of one match of a trial."""
Pool = dict[tuple[int, ...], list[dict[int, int]]]
"""Per group (its bots, sorted), the places of its pool games, by bot."""


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


class Draws:
    """A trial's real results: each match of a group is one of the group's pool games,
    drawn with replacement (the match's own seating and seed stand for nothing: the pool
    game's seating was drawn at random). Counts, after every match, the most draws yet
    from one group: a schedule that draws a group far more often than the pool holds
    games of it is measured on luck it does not have."""

    def __init__(self, pool: Pool, rng: random.Random) -> None:
        self.pool, self.rng = pool, rng
        self.draws: Counter[tuple[int, ...]] = Counter()
        self.most: list[int] = []

    def __call__(self, match: PlannedMatch) -> list[int]:
        group = tuple(sorted(match.seats))
        game = self.rng.choice(self.pool[group])
        self.draws[group] += 1
        self.most.append(max(self.most[-1] if self.most else 0, self.draws[group]))
        return [game[bot] for bot in match.seats]


class Rated:
    """Ratings in plan order, as a new tournament rates (TrueSkill, no skill drift), and
    after every game whether mu orders the bots rightly."""

    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.rater = rater_of(Settings().to_json())
        self.skills = [self.rater.initial()] * BOTS
        self.right: list[bool] = []

    def play(self, match: PlannedMatch) -> None:
        rated = self.rater.rate([self.skills[bot] for bot in match.seats], self.outcome(match))
        for bot, skill in zip(match.seats, rated, strict=True):
            self.skills[bot] = skill
        self.right.append(
            all(self.skills[bot].mu > self.skills[bot + 1].mu for bot in range(BOTS - 1))
        )


@dataclass(frozen=True)
class Setup:
    """What every trial shares; `pool` None plays the synthetic game."""

    players: int
    per_bot: int
    budget: int
    gap: float
    confidence: float
    master: int
    pool: Pool | None


def rated(setup: Setup, trial_seed: int, method: str) -> Rated:
    """Fresh ratings for one method of one trial, with its source of results: the
    synthetic game's noise, or draws from the pool by an rng of the trial and method's."""
    if setup.pool is None:
        return Rated(functools.partial(places, gap=setup.gap, trial_seed=trial_seed))
    return Rated(Draws(setup.pool, random.Random(derive_seed(trial_seed, "draws", method))))


@functools.cache
def fixed_plans(
    players: int, per_bot: int, budget: int, seed: int
) -> dict[str, list[PlannedMatch]]:
    """The full and the sampled plans, planned once (seating them takes a second or two):
    the synthetic game has no seat advantage and a pool game was seated at random, so
    the trials share their seating and differ in their noise or their draws."""
    full_rounds = -(-budget // (math.comb(BOTS, players) * players))
    per_round = per_bot * BOTS // players
    return {
        "full": plan_matches("t", BOTS, players, full_rounds, seed)[:budget],
        "sampled": plan_matches(
            "t", BOTS, players, -(-budget // per_round), seed, matches_per_bot=per_bot
        )[:budget],
    }


def trial(seed: int, setup: Setup) -> dict[str, Any]:
    """One trial of every method to the budget: per method, right or not per game (and,
    on a pool, the most draws from one group per game)."""
    runs = {method: rated(setup, seed, method) for method in METHODS}
    plans = fixed_plans(setup.players, setup.per_bot, setup.budget, setup.master)
    for method, plan in plans.items():
        for match in plan:
            runs[method].play(match)
    out: dict[str, Any] = {"stopped": adaptive_run(runs["adaptive"], seed, setup)}
    for method, run in runs.items():
        out[method] = run.right
        out[f"{method}_most"] = getattr(run.outcome, "most", None)
    return out


def adaptive_run(run: Rated, seed: int, setup: Setup) -> int | None:
    """`--schedule adaptive` to the budget, its stop rule off; the games after which the
    rule would have stopped, None if not in the budget."""
    players, budget = setup.players, setup.budget
    rule = Adaptive(confidence=1.0, max_matches=budget)  # never stops before the budget
    stop_rule = Adaptive(confidence=setup.confidence, max_matches=budget)
    plan = plan_matches("t", BOTS, players, 1, seed, matches_per_bot=setup.per_bot)
    block = list(plan)
    stopped = None
    while block:
        for match in block:
            run.play(match)
        reason = stop_reason(run.skills, len(plan), players, stop_rule)
        if stopped is None and reason and reason.startswith("confidence"):
            stopped = len(plan)
        block = next_block("t", seed, Deals.FRESH, players, plan, run.skills, rule)
        plan += block
    return stopped


def play_games(
    job: tuple[str, tuple[float, ...], int, tuple[int, ...], int, int],
) -> tuple[list[list[list[int]]], float]:
    """Games `first` to `last` (exclusive) of one group's pool, each on a deal, a seating
    (a permutation of the group) and coin streams of its own derived from the pool seed,
    so a pool of K games is the first K of any larger one; the CPU seconds they took."""
    game, epsilons, seed, group, first, last = job
    table = Table(game, tuple(epsilons[bot] for bot in group))
    started = time.process_time()
    games = []
    for number in range(first, last):
        path = ("pool", *group, number)
        seating = tuple(
            random.Random(derive_seed(seed, *path, "seating")).sample(range(len(group)), len(group))
        )
        coins = [
            random.Random(derive_seed(seed, *path, "coins", local)) for local in range(len(group))
        ]
        scores, ranks = table.play(derive_seed(seed, *path, "deal"), seating, coins)
        games.append([list(scores), list(ranks)])
    return games, time.process_time() - started


def load_pool(
    path: Path | None, params: dict[str, Any], per_group: int, jobs: int
) -> dict[str, Any]:
    """The stored pool of `path` if played with `params`, its groups' missing games up to
    `per_group` played (in `jobs` processes) and stored; a fresh pool otherwise."""
    stored = json.loads(path.read_text()) if path and path.exists() else None
    if stored is None or stored["params"] != params:
        stored = {"params": params, "cpu_seconds": 0.0, "groups": {}}
    work = []
    for group in combinations(range(BOTS), params["players"]):
        have = len(stored["groups"].setdefault(",".join(map(str, group)), []))
        if have < per_group:
            work.append(
                (params["game"], tuple(params["epsilons"]), params["seed"], group, have, per_group)
            )
    with ProcessPoolExecutor(jobs) as executor:
        for job, (games, seconds) in zip(work, executor.map(play_games, work), strict=True):
            stored["groups"][",".join(map(str, job[3]))].extend(games)
            stored["cpu_seconds"] += seconds
    if path and work:
        path.write_text(json.dumps(stored))
    return stored


def pool_of(stored: dict[str, Any], per_group: int) -> Pool:
    """The places by bot of the first `per_group` games of each group of a stored pool."""
    out = {}
    for key, games in stored["groups"].items():
        group = tuple(int(bot) for bot in key.split(","))
        out[group] = [dict(zip(group, ranks, strict=True)) for _, ranks in games[:per_group]]
    return out


def pool_figures(stored: dict[str, Any], pool: Pool) -> dict[str, Any]:
    """What the pool holds: its games, their CPU time, and each bot's mean place (each
    bot is in as many groups as any other, so the mean places show the true order)."""
    games = sum(len(group) for group in stored["groups"].values())
    used = sum(len(group) for group in pool.values())
    mean_place = [
        sum(game[bot] for group in pool.values() for game in group if bot in game)
        / (used * stored["params"]["players"] / BOTS)
        for bot in range(BOTS)
    ]
    return {
        **stored["params"],
        "per_group": used // len(pool),
        "games": used,
        "cpu_seconds": round(stored["cpu_seconds"] * used / games, 1),
        "ms_per_game": round(1000 * stored["cpu_seconds"] / games, 1),
        "mean_place": [round(place, 3) for place in mean_place],
    }


def measure(trials: int, setup: Setup, jobs: int) -> dict[str, Any]:
    """Every trial of every method, and the figures read from them."""
    started = time.perf_counter()
    seeds = [derive_seed(setup.master, "trial", t) for t in range(trials)]
    with ProcessPoolExecutor(jobs) as executor:
        done = list(executor.map(functools.partial(trial, setup=setup), seeds, chunksize=4))
    out: dict[str, Any] = {
        "bots": BOTS,
        "players": setup.players,
        "trials": trials,
        "budget": setup.budget,
        "first_block_matches_per_bot": setup.per_bot,
        "seed": setup.master,
        "ranked_by": "trueskill mu, in plan order",
    }
    step = setup.players
    for method in METHODS:
        shares = {
            n: sum(len(d[method]) >= n and d[method][n - 1] for d in done) / trials
            for n in range(step, setup.budget + 1, step)
        }
        value, bracket = n90(shares)
        out[method] = {
            "n90": None if value is None else round(value, 1),
            "bracket": bracket,
            "share_right": {str(n): round(s, 3) for n, s in shares.items() if n % (step * 10) == 0},
        }
        if setup.pool is not None:
            out[method]["reuse"] = reuse(done, method, bracket[1] if value else setup.budget)
    full, sampled, adaptive = (out[m]["n90"] for m in METHODS)
    out["ratio_adaptive_full"] = round(adaptive / full, 3) if full and adaptive else None
    out["ratio_adaptive_sampled"] = round(adaptive / sampled, 3) if sampled and adaptive else None
    out["stop_rule"] = stop_figures(done, setup)
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def stop_figures(done: list[dict[str, Any]], setup: Setup) -> dict[str, Any]:
    """Where the stop rule would have stopped the adaptive runs: after how many games on
    average, how often the order was then right, and (on a pool) the most draws from one
    group by then, on average."""
    stops = [d["stopped"] for d in done if d["stopped"]]
    out: dict[str, Any] = {
        "confidence": setup.confidence,
        "stopped_in_budget": len(stops),
        "mean_games": None,
        "share_right": None,
    }
    if stops:
        out["mean_games"] = round(sum(stops) / len(stops), 1)
        out["share_right"] = round(
            sum(d["adaptive"][d["stopped"] - 1] for d in done if d["stopped"]) / len(stops), 3
        )
    if stops and setup.pool is not None:
        out["mean_most_draws"] = round(
            sum(d["adaptive_most"][d["stopped"] - 1] for d in done if d["stopped"]) / len(stops), 1
        )
    return out


def reuse(done: list[dict[str, Any]], method: str, games: int) -> dict[str, Any]:
    """How hard a method's trials lean on the pool by `games` games (its N90, rounded up to
    a budget): the most draws from one group, as a mean and a maximum over the trials."""
    most = [d[f"{method}_most"][games - 1] for d in done if len(d[f"{method}_most"]) >= games]
    return {
        "at_games": games,
        "mean_most_draws": round(sum(most) / len(most), 1),
        "max_most_draws": max(most),
    }


def default_epsilons() -> tuple[float, ...]:
    """Evenly spaced from 0 to EPSILON_MAX, strongest first."""
    return tuple(round(EPSILON_MAX * bot / (BOTS - 1), 3) for bot in range(BOTS))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game",
        choices=GAMES,
        default="synthetic",
        help="the synthetic game (the default) or a real one, from a pool",
    )
    parser.add_argument("--trials", type=int, default=200, help="trials per method (200)")
    parser.add_argument("--players", type=int, default=4, help="seats per match (4)")
    parser.add_argument(
        "--matches-per-bot",
        type=int,
        default=None,
        help="the first block's size, and the sampled rounds' (default: the smallest valid)",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=None,
        help="games per trial (default 420, 1120 with 2 seats: past the "
        "full round robin's N90 at the default --gap and --epsilons)",
    )
    parser.add_argument(
        "--gap",
        type=float,
        default=0.5,
        help="synthetic: strength gap between neighbours, in noise SDs (0.5)",
    )
    parser.add_argument(
        "--epsilons",
        help="real game: the 8 bots' epsilons, strongest "
        f"first (evenly spaced from 0 to {EPSILON_MAX})",
    )
    parser.add_argument(
        "--pool-per-group",
        type=int,
        default=POOL_PER_GROUP,
        help=f"real game: games in the pool per group ({POOL_PER_GROUP})",
    )
    parser.add_argument(
        "--pool",
        type=Path,
        help="real game: the pool's JSON file, reused "
        "if played with the same game, seats, epsilons and seed (and grown "
        "to --pool-per-group if smaller)",
    )
    parser.add_argument(
        "--confidence", type=float, default=0.9, help="the stop rule's confidence (0.9)"
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="master seed of the trials and the pool (1)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes (2)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not 2 <= args.players < BOTS:
        parser.error(f"--players must be 2 to {BOTS - 1}")
    epsilons = (
        default_epsilons()
        if args.epsilons is None
        else tuple(float(value) for value in args.epsilons.split(","))
    )
    if (
        len(epsilons) != BOTS
        or list(epsilons) != sorted(set(epsilons))
        or not 0 <= epsilons[0] <= epsilons[-1] <= 1
    ):
        parser.error(f"--epsilons takes {BOTS} increasing values from 0 to 1")
    if args.pool_per_group < 1:
        parser.error("--pool-per-group must be positive")
    per_bot = args.matches_per_bot or (
        args.players
        * args.players
        // math.gcd(args.players * args.players, args.players * BOTS)
        * args.players
    )
    budget = args.budget or (1120 if args.players == 2 else 420)
    pool, about = None, {"game": "synthetic: strength gap * (7 - bot) + N(0, 1)", "gap": args.gap}
    if args.game != "synthetic":
        params = {
            "game": args.game,
            "players": args.players,
            "epsilons": list(epsilons),
            "seed": args.seed,
        }
        stored = load_pool(args.pool, params, args.pool_per_group, args.jobs)
        pool = pool_of(stored, args.pool_per_group)
        about = {"game": args.game, "pool": pool_figures(stored, pool)}
    setup = Setup(args.players, per_bot, budget, args.gap, args.confidence, args.seed, pool)
    out = {**about, **measure(args.trials, setup, args.jobs)}
    print(json.dumps(out) if args.json else report(out))
    return 0


def report(out: dict[str, Any]) -> str:
    """The figures of `measure` for a reader."""
    pool = out.get("pool")
    lines = [
        f"{out['game']}"
        + (f", gap {out['gap']}" if pool is None else f", epsilons {pool['epsilons']}")
        + f"; {BOTS} bots, {out['players']} seats; {out['trials']} trials of "
        f"{out['budget']} games; ranked by TrueSkill mu"
    ]
    if pool is not None:
        lines.append(
            f"pool: {pool['per_group']} games per group, {pool['games']} games, "
            f"{pool['cpu_seconds']} CPU s ({pool['ms_per_game']} ms a game); "
            f"mean place by bot {pool['mean_place']}"
        )
    for method in METHODS:
        row = out[method]
        found = (
            "not reached"
            if row["n90"] is None
            else f"{row['n90']:7.1f} games (between {row['bracket'][0]} and {row['bracket'][1]})"
        )
        if "reuse" in row:
            found += (
                f"; by {row['reuse']['at_games']} games the most draws from one "
                f"group {row['reuse']['mean_most_draws']} on average, at most "
                f"{row['reuse']['max_most_draws']}"
            )
        lines.append(f"{method:<9} N90 {found}")
    lines.append(
        f"ratio adaptive / full round robin: {out['ratio_adaptive_full'] or 'n/a'}  "
        f"(adaptive / sampled: {out['ratio_adaptive_sampled'] or 'n/a'}; goal <= 0.5)"
    )
    stop = out["stop_rule"]
    lines.append(
        f"stop rule P >= {stop['confidence']}: stopped {stop['stopped_in_budget']} of "
        f"{out['trials']} runs within the budget, after {stop['mean_games']} games "
        f"on average, the order then right in {stop['share_right']} of them"
        + (
            f", the most draws from one group by then {stop['mean_most_draws']} on average"
            if "mean_most_draws" in stop
            else ""
        )
        + f" ({out['seconds']} s)"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
