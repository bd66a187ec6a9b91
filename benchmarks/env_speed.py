"""The PettingZoo environments' speed beside their engines', in one process per game.

For each game, in a fresh process of its own, whole games are played with random legal
actions three ways, seed by seed in turn (so a change in the machine's pace slows all
alike): by the raw engine
(`state.pending()[0]`, as benchmarks/engine.py), and through the environment, bare
(`raw_env`) and with PettingZoo's wrappers (`env`), reading every step's observation
(`last()`: the encoded view and options, and the mask the random action is drawn from).
Prints env steps/s, engine decisions/s and their ratio, in CPU time of this process;
with open_spiel installed, also OpenSpiel's `python_liars_poker` (observation tensor
read at every step) for scale.

    python benchmarks/env_speed.py                       # 40 games per game
    python benchmarks/env_speed.py --games 10 --json
    python benchmarks/env_speed.py --game blackbeard --profile   # cProfile of raw_env
    python benchmarks/env_speed.py --bounds              # what the env could reach

`--bounds` measures how fast `env` could be at best, in the same way: with the
encoding made free (an encoder that only marks the options), then with the seat's view
made free as well (an empty view), leaving the engine's move and PettingZoo's
bookkeeping of a step.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import multiprocessing
import pstats
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any
from unittest import mock

from admiralty.games import load_game
from admiralty.research import pettingzoo_env
from admiralty.research.actions import Table
from admiralty.research.pettingzoo_env import env, raw_env
from admiralty_sdk.encoding import Encoder

GAMES = {"jamaica": 2, "black_fleet": 3, "blackbeard": 3}
"""The games and the player counts measured."""


def engine_playout(game: str, players: int, seed: int) -> int:
    """One game of the raw engine with random answers; its decisions."""
    state = load_game(game).new_game(players, seed)
    chooser, decisions = random.Random(seed ^ 0x5EED), 0
    while state.outcome() is None:
        request = state.pending()[0]
        state.apply(request.seat, chooser.randrange(len(request.options)))
        decisions += 1
    return decisions


def env_playout(environment: Any, seed: int) -> int:
    """One game through an environment, a random legal action read from each step's
    observation mask; its steps (answers, not the final steps of removed agents)."""
    environment.reset(seed=seed)
    chooser, steps = random.Random(seed ^ 0x5EED), 0
    for _ in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        action = None
        if not (terminated or truncated):
            legal = observation["action_mask"].nonzero()[0]
            action = int(legal[chooser.randrange(len(legal))])
            steps += 1
        environment.step(action)
    return steps


def liars_poker_playout(seed: int) -> int:
    """One game of OpenSpiel's `python_liars_poker`, reading the observation tensor of
    the player to move at each step."""
    import pyspiel
    from open_spiel.python.games import liars_poker  # noqa: F401 (registers the game)

    state = pyspiel.load_game("python_liars_poker").new_initial_state()
    chooser, steps = random.Random(seed), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[chooser.randrange(len(outcomes))][0])
            continue
        state.observation_tensor(state.current_player())
        state.apply_action(chooser.choice(state.legal_actions()))
        steps += 1
    return steps


class _MarksOnly(Encoder):
    """Encodes nothing, only marks the options: the encoding made free."""

    def encode(self, view: Any, kind: str | None = None, options: Any = ()) -> Any:
        self.mask[:] = 0
        self.mask[: len(options)] = 1
        return self.vector


class _Unseen(Table):
    """Shows every seat an empty view: the view made free."""

    def view(self, seat: int) -> dict[str, Any]:
        return {}


def _encoding_free(game: str, players: int) -> Any:
    environment = env(game, players)
    environment.unwrapped._encoders = [_MarksOnly(game) for _ in range(players)]
    return environment


def _view_free_playout(environment: Any, seed: int) -> int:
    with mock.patch.object(pettingzoo_env, "Table", _Unseen):
        return env_playout(environment, seed)


def _timed(play: Callable[[int], int], seed: int, totals: dict[str, float], name: str) -> None:
    start = time.process_time()
    steps = play(seed)
    totals[name + "_seconds"] = totals.get(name + "_seconds", 0.0) + time.process_time() - start
    totals[name + "_steps"] = totals.get(name + "_steps", 0) + steps


def measure(game: str, players: int, games: int, bounds: bool = False) -> dict[str, Any]:
    """Engine, raw_env and env over the same seeds, taking turns game by game; with
    `bounds`, engine, env, and env with the encoding then the view made free."""
    ways: dict[str, Callable[[int], int]] = {
        "engine": lambda seed: engine_playout(game, players, seed)
    }
    if bounds:
        wrapped, free = env(game, players), _encoding_free(game, players)
        ways["env"] = lambda seed: env_playout(wrapped, seed)
        ways["encoding_free"] = lambda seed: env_playout(free, seed)
        ways["view_free"] = lambda seed: _view_free_playout(free, seed)
    else:
        bare, wrapped = raw_env(game, players), env(game, players)
        ways["raw_env"] = lambda seed: env_playout(bare, seed)
        ways["env"] = lambda seed: env_playout(wrapped, seed)
    for play in ways.values():
        play(games)  # warm caches and imports outside the timing
    totals: dict[str, float] = {}
    for seed in range(games):
        for name, play in ways.items():
            _timed(play, seed, totals, name)
    rates = {name: totals[name + "_steps"] / totals[name + "_seconds"] for name in ways}
    row: dict[str, Any] = {"game": game, "players": players, "games": games}
    row["engine_decisions_per_second"] = round(rates.pop("engine"))
    for name, rate in rates.items():
        row[f"{name}_steps_per_second"] = round(rate)
        row[f"{name}_ratio"] = round(rate / row["engine_decisions_per_second"], 3)
    row["steps"] = {name: totals[name + "_steps"] for name in ways}  # the same games each way
    return row


def liars_poker(games: int) -> int | None:
    """`python_liars_poker`'s steps per second, None without open_spiel."""
    try:
        liars_poker_playout(0)
    except ImportError:
        return None
    totals: dict[str, float] = {}
    for seed in range(games * 20):
        _timed(liars_poker_playout, seed, totals, "poker")
    return round(totals["poker_steps"] / totals["poker_seconds"])


def _in_own_process(function: Callable[..., Any], *args: Any) -> Any:
    """`function(*args)` run in a fresh process, one at a time: no game's garbage or
    caches weigh on the next one's timing."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(function, *args).result()


def profile(game: str, players: int, games: int, top: int) -> None:
    """cProfile's top entries (by own time) of `games` games through `raw_env`."""
    bare = raw_env(game, players)
    profiler = cProfile.Profile()
    profiler.runcall(lambda: [env_playout(bare, seed) for seed in range(games)])
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per game and way")
    parser.add_argument("--game", choices=list(GAMES), help="one game only")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.add_argument("--profile", action="store_true", help="profile raw_env instead")
    parser.add_argument(
        "--bounds", action="store_true", help="env beside env with encoding, then view, free"
    )
    args = parser.parse_args()
    games = {args.game: GAMES[args.game]} if args.game else GAMES
    if args.profile:
        for game, players in games.items():
            profile(game, players, args.games, 25)
        return
    rows = [
        _in_own_process(measure, game, players, args.games, args.bounds)
        for game, players in games.items()
    ]
    poker = liars_poker(args.games)
    if args.json:
        print(json.dumps({"games": rows, "python_liars_poker_steps_per_second": poker}))
        return
    ways = [k.removesuffix("_steps_per_second") for k in rows[0] if k.endswith("_steps_per_second")]
    print(
        f"{'game':12} {'players':>7} {'engine':>13} "
        + " ".join(f"{way:>13} {'ratio':>6}" for way in ways)
    )
    for row in rows:
        figures = [f"{row['engine_decisions_per_second']:>13}"] + [
            f"{row[way + '_steps_per_second']:>13} {row[way + '_ratio']:>6}" for way in ways
        ]
        print(f"{row['game']:12} {row['players']:>7} " + " ".join(figures))
    print("(engine: decisions/s; the others: steps/s, and their ratio to the engine)")
    if poker is not None:
        print(f"OpenSpiel python_liars_poker: {poker} steps/s")


if __name__ == "__main__":
    main()
