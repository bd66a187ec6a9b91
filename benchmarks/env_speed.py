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

from admiralty.games import load_game
from admiralty.research.pettingzoo_env import env, raw_env

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


def _timed(play: Callable[[int], int], seed: int, totals: dict[str, float], name: str) -> None:
    start = time.process_time()
    steps = play(seed)
    totals[name + "_seconds"] = totals.get(name + "_seconds", 0.0) + time.process_time() - start
    totals[name + "_steps"] = totals.get(name + "_steps", 0) + steps


def measure(game: str, players: int, games: int) -> dict[str, Any]:
    """Engine, raw_env and env over the same seeds, taking turns game by game."""
    bare, wrapped = raw_env(game, players), env(game, players)
    ways: dict[str, Callable[[int], int]] = {
        "engine": lambda seed: engine_playout(game, players, seed),
        "raw_env": lambda seed: env_playout(bare, seed),
        "env": lambda seed: env_playout(wrapped, seed),
    }
    for play in ways.values():
        play(games)  # warm caches and imports outside the timing
    totals: dict[str, float] = {}
    for seed in range(games):
        for name, play in ways.items():
            _timed(play, seed, totals, name)
    rates = {name: totals[name + "_steps"] / totals[name + "_seconds"] for name in ways}
    return {
        "game": game,
        "players": players,
        "games": games,
        "engine_decisions_per_second": round(rates["engine"]),
        "raw_env_steps_per_second": round(rates["raw_env"]),
        "env_steps_per_second": round(rates["env"]),
        "raw_env_ratio": round(rates["raw_env"] / rates["engine"], 3),
        "env_ratio": round(rates["env"] / rates["engine"], 3),
    }


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
    args = parser.parse_args()
    games = {args.game: GAMES[args.game]} if args.game else GAMES
    if args.profile:
        for game, players in games.items():
            profile(game, players, args.games, 25)
        return
    rows = [_in_own_process(measure, game, players, args.games) for game, players in games.items()]
    poker = liars_poker(args.games)
    if args.json:
        print(json.dumps({"games": rows, "python_liars_poker_steps_per_second": poker}))
        return
    print(
        f"{'game':12} {'players':>7} {'engine dec/s':>13} {'raw_env st/s':>13} {'ratio':>6}"
        f" {'env st/s':>9} {'ratio':>6}"
    )
    for row in rows:
        print(
            f"{row['game']:12} {row['players']:>7} {row['engine_decisions_per_second']:>13}"
            f" {row['raw_env_steps_per_second']:>13} {row['raw_env_ratio']:>6}"
            f" {row['env_steps_per_second']:>9} {row['env_ratio']:>6}"
        )
    if poker is not None:
        print(f"OpenSpiel python_liars_poker: {poker} steps/s")


if __name__ == "__main__":
    main()
