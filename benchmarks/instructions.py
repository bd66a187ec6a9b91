"""Instructions per decision of random playouts, counted by valgrind's callgrind.

Timings on a shared machine spread by ±10 % or more from run to run, too much to tell two
engines a few percent apart; an instruction count barely moves. This counts what
`engine.py`'s playouts execute, with its caches as warm as in its best of 3: seeds
0..N-1 are played once, then again, and only the second pass is counted (the difference of
two runs of valgrind, one that stops after the first pass). `--tree` counts another
checkout's engine (its `server/` and `sdk/` put first on the import path) with the same
playouts, for a side-by-side comparison in one run.

    python benchmarks/instructions.py --game jamaica --players 4
    python benchmarks/instructions.py --game jamaica --players 6 --tree ../old-checkout --json

Needs `valgrind` on the PATH (Debian: `apt-get install valgrind`). PYTHONHASHSEED is fixed,
so the same tree gives the same count to within a few tenths of a percent.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent

PASSES = """
import sys
sys.path.insert(0, {benchmarks!r})
from engine import playout
from admiralty.games import load_game
game = load_game({game!r})
for seed in range({games}):
    playout(game, {players}, seed)
decisions = 0
if {counted}:
    for seed in range({games}):
        decisions += playout(game, {players}, seed)[0]
print(decisions)
"""


def count(tree: Path, game: str, players: int, games: int, counted: bool) -> tuple[int, int]:
    """(instructions, decisions of the counted pass) of one valgrind run."""
    code = PASSES.format(
        benchmarks=str(HERE), game=game, players=players, games=games, counted=counted
    )
    env = dict(
        os.environ,
        PYTHONHASHSEED="0",
        PYTHONPATH=os.pathsep.join([str(tree / "server"), str(tree / "sdk")]),
    )
    result = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            code,
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", result.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{result.stderr[-2000:]}")
    return int(found.group(1)), int(result.stdout.split()[-1])


def measure(tree: Path, game: str, players: int, games: int) -> dict[str, object]:
    warm, _ = count(tree, game, players, games, counted=False)
    total, decisions = count(tree, game, players, games, counted=True)
    return {
        "tree": str(tree),
        "game": game,
        "players": players,
        "games": games,
        "decisions": decisions,
        "instructions_per_decision": round((total - warm) / decisions),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="jamaica", help="a registered game (default jamaica)")
    parser.add_argument(
        "--players", type=int, action="append", help="a player count (repeatable; default 4)"
    )
    parser.add_argument(
        "--games", type=int, default=40, help="playouts per pass, seeds 0..N-1 (default 40)"
    )
    parser.add_argument(
        "--tree",
        type=Path,
        action="append",
        default=[],
        help="another checkout to count beside this one (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON lines, not a table")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not on the PATH (Debian: apt-get install valgrind)")
    for tree in args.tree:
        if not (tree / "server" / "admiralty").is_dir():
            parser.error(f"--tree {tree}: no server/admiralty there")
    for players in args.players or [4]:
        for tree in [TREE, *args.tree]:
            row = measure(tree.resolve(), args.game, players, args.games)
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(
                    f"{args.game:<12} {players:>2}p {row['instructions_per_decision']:>9,} "
                    f"instructions/decision  ({row['decisions']} decisions)  {tree}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
