"""Random-playout speed of every registered game engine, in-process on one core.

Each game is played from `new_game(players, seed)` to the end by always answering the
first pending request with a random option drawn from a separate seeded RNG, so a run is
reproducible. Prints games per second per game and player count.

    python benchmarks/engine.py                      # a table, 200 games per row
    python benchmarks/engine.py --games 1000 --json  # machine-readable
    python benchmarks/engine.py --game jamaica --players 4
    python benchmarks/engine.py --game jamaica --players 6 --against ../old-checkout

`--against TREE` compares this checkout's engine with another checkout's, side by side in
one process: both are imported (each from its own `server/`), and their games alternate
one by one, seed by seed, so that a change in the machine's pace slows both alike.

Where an engine's objects and code land in memory moves its speed by a few percent, by
itself: a change that only removes work can time 2 % slower in one layout and 1 % faster
in another. So the comparison runs in `--processes` fresh processes, each with its own
random layout (a random amount of memory taken before each engine is imported) and this
checkout imported first in half of them; it reports the median ratio and every process's.
The two engines may play different games from one seed (when they draw their chance
differently), so it reports decisions per game, and decisions per second as a ratio too.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from importlib import import_module
from pathlib import Path
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


THIS_TREE = Path(__file__).resolve().parents[1]

_PADDING: list[object] = []
"""Memory taken, never freed, to move the objects imported after it."""


def _shift_memory(rng: random.Random) -> None:
    """Take a random amount of memory in small objects of random sizes, so that what is
    allocated next (an engine's modules, code and data) lands somewhere else."""
    _PADDING.append([bytearray(rng.randrange(8, 600)) for _ in range(rng.randrange(20_000))])
    _PADDING.append([(k,) * rng.randrange(1, 9) for k in range(rng.randrange(20_000))])


def tree_game(tree: Path, name: str) -> Any:
    """The game `name` of the checkout `tree`, imported from its `server/` and `sdk/`, then
    taken out of `sys.modules` (the objects keep their own modules), so that another
    checkout's game can be imported beside it."""
    _forget_admiralty()
    sys.path[:0] = [str(tree / "server"), str(tree / "sdk")]
    try:
        game = import_module("admiralty.games").load_game(name)  # the tree now on the path
        game.new_game(players=game.min_players, seed=0)  # anything imported on first use
    finally:
        del sys.path[:2]
        _forget_admiralty()
    return game


def _forget_admiralty() -> None:
    for module in [m for m in sys.modules if m == "admiralty" or m.startswith("admiralty.")]:
        del sys.modules[module]


class _NoLateImports:
    """Fails an `admiralty` import once both trees are loaded: it could only come from a
    third copy on the path, which would silently measure the wrong code."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if fullname == "admiralty" or fullname.startswith("admiralty."):
            raise ImportError(f"{fullname} was imported lazily during a side-by-side run")


def side_by_side(other: str, name: str, players: int, games: int, index: int) -> dict[str, float]:
    """Process `index`'s comparison: CPU seconds and decisions of each engine over seeds
    0..games-1, alternating engine and order game by game, in the memory layout numbered
    `index`."""
    layout = random.Random(index)
    _shift_memory(layout)
    if index % 2 == 0:
        this = tree_game(THIS_TREE, name)
        _shift_memory(layout)
        that = tree_game(Path(other), name)
    else:
        that = tree_game(Path(other), name)
        _shift_memory(layout)
        this = tree_game(THIS_TREE, name)
    sys.meta_path.insert(0, _NoLateImports())
    for seed in range(min(games, 20)):  # warm both
        playout(this, players, seed)
        playout(that, players, seed)
    spent = {"this": 0.0, "other": 0.0, "this_decisions": 0, "other_decisions": 0}
    clock = time.process_time
    for seed in range(games):
        pair = (("this", this), ("other", that)) if seed % 2 else (("other", that), ("this", this))
        for label, game in pair:
            start = clock()
            decisions, _ = playout(game, players, seed)
            spent[label] += clock() - start
            spent[f"{label}_decisions"] += decisions
    return spent


def compare(other: Path, name: str, players: int, games: int, processes: int) -> dict[str, Any]:
    """`side_by_side` in `processes` fresh processes, one at a time, each with its own memory
    layout, this tree imported first in every other one."""
    context = multiprocessing.get_context("spawn")
    runs = []
    with ProcessPoolExecutor(1, mp_context=context, max_tasks_per_child=1) as pool:
        for k in range(processes):
            runs.append(pool.submit(side_by_side, str(other), name, players, games, k).result())
    ratios = [run["other"] / run["this"] for run in runs]
    per_decision = [
        run["this_decisions"] / run["this"] / (run["other_decisions"] / run["other"])
        for run in runs
    ]
    median = statistics.median
    return {
        "game": name,
        "players": players,
        "games": games,
        "against": str(other),
        "games_per_second": round(median([games / run["this"] for run in runs]), 1),
        "against_games_per_second": round(median([games / run["other"] for run in runs]), 1),
        "speed_ratio": round(median(ratios), 3),
        "speed_ratios": [round(r, 3) for r in ratios],
        "decisions_per_game": round(runs[0]["this_decisions"] / games, 1),
        "against_decisions_per_game": round(runs[0]["other_decisions"] / games, 1),
        "decision_speed_ratio": round(median(per_decision), 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="playouts per row (default 200)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs, best kept (default 3)")
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game")
    parser.add_argument("--players", type=int, action="append", help="only this player count")
    parser.add_argument("--json", action="store_true", help="print JSON lines, not a table")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="TREE",
        help="compare with the engine of another checkout, side by side",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=10,
        help="with --against: fresh processes, each with its own memory "
        "layout, half importing each tree first (default 10)",
    )
    args = parser.parse_args(argv)
    if args.against is not None:
        return _main_against(parser, args)
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
        header = (
            f"{'game':<12} {'players':>7} {'games/s':>9} {'decisions/game':>15} "
            f"{'decisions/s':>12} {'rounds/game':>12}"
        )
        print(header)
        print("-" * len(header))
        for row in rows:
            print(
                f"{row['game']:<12} {row['players']:>7} {row['games_per_second']:>9.1f} "
                f"{row['decisions_per_game']:>15.1f} {row['decisions_per_second']:>12} "
                f"{row['rounds_per_game']:>12.1f}"
            )
    return 0


def _main_against(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if not (args.against / "server" / "admiralty" / "games").is_dir():
        parser.error(f"--against {args.against}: no server/admiralty/games there")
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    for name in args.game or GAMES:
        game = load_game(name)
        for players in args.players or range(game.min_players, game.max_players + 1):
            row = compare(args.against.resolve(), name, players, args.games, args.processes)
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(
                    f"{name:<12} {players}p  games/s {row['games_per_second']:>7.1f} here, "
                    f"{row['against_games_per_second']:>7.1f} there: "
                    f"{row['speed_ratio']:.3f} times as fast "
                    f"(per process: {', '.join(map(str, row['speed_ratios']))}); "
                    f"decisions/game {row['decisions_per_game']} here, "
                    f"{row['against_decisions_per_game']} there; decisions/s "
                    f"{row['decision_speed_ratio']:.3f} times as fast",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
