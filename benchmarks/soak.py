"""Soak: many tournament matches of random bots, and the referee's memory while they run.

Half the matches are Jamaica, half Black Fleet, each game one `admiralty tournament run`
(four random-bot processes, four seats, P referee workers, records on) in a fresh
temporary directory. While it runs, the referee's resident memory (the tournament process
plus its referee worker processes, VmRSS from /proc; bots not counted) and the number of
finished matches are sampled. It prints the errors (failed runs and planned matches without
a result: must be 0), the incidents, the memory at each tenth of the run, and its growth
after warm-up: the peak once the first 10% of matches have finished, over the memory at
that point (target <= 10%). Linux only.

    python benchmarks/soak.py [--matches 1000] [--parallel 2] [--round-cap N] [--json]

`--round-cap N` scores every match after round N (the games' `round_cap` option): the same
soak on shorter games, as the test suite runs it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RANDOM_BOT = str(REPO / "example_bots" / "random_bot.py")
BOTS = [RANDOM_BOT, *(f"{RANDOM_BOT} --seed {i}" for i in range(1, 4))]
PLAYERS = 4
GAMES = ("jamaica", "black_fleet")
WARM_UP = 0.10
TARGET_GROWTH = 0.10


@dataclass
class Sample:
    seconds: float
    finished: int
    main_kb: int
    workers_kb: int

    @property
    def referee_kb(self) -> int:
        return self.main_kb + self.workers_kb


@dataclass
class Run:
    """One game's tournament: what it played and the referee's memory over time."""

    game: str
    planned: int
    finished: int = 0
    errors: int = 0
    incidents: int = 0
    seconds: float = 0.0
    samples: list[Sample] = field(default_factory=list)
    stderr: str = ""

    def warm(self) -> Sample | None:
        """The first sample once the warm-up share of matches has finished."""
        threshold = math.ceil(self.planned * WARM_UP)
        return next((s for s in self.samples if s.finished >= threshold and s.workers_kb), None)

    def memory(self) -> dict:
        warm = self.warm()
        during = [s for s in self.samples if s.workers_kb]  # workers up: the run proper
        if warm is None or not during:
            return {"baseline_mb": None, "peak_mb": None, "final_mb": None, "growth": None}
        after = [s for s in during if s.seconds >= warm.seconds]
        peak = max(s.referee_kb for s in after)
        return {
            "baseline_mb": _mb(warm.referee_kb),
            "peak_mb": _mb(peak),
            "final_mb": _mb(during[-1].referee_kb),
            "growth": round(peak / warm.referee_kb - 1, 4),
        }

    def by_tenth(self) -> list[float | None]:
        """The referee's memory (MB) when 0%, 10%, ... 100% of the matches had finished
        (the last sample before the workers stopped stands for 100%)."""
        during = [s for s in self.samples if s.workers_kb]
        if not during:
            return [None] * 11
        return [
            _mb(
                next(
                    (s for s in during if s.finished >= self.planned * tenth / 10), during[-1]
                ).referee_kb
            )
            for tenth in range(11)
        ]

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "planned": self.planned,
            "finished": self.finished,
            "errors": self.errors,
            "incidents": self.incidents,
            "seconds": round(self.seconds, 1),
            "matches_per_second": round(self.finished / self.seconds, 2) if self.seconds else 0.0,
            **self.memory(),
            "rss_by_tenth_mb": self.by_tenth(),
            "samples": [
                [round(s.seconds, 1), s.finished, s.main_kb, s.workers_kb] for s in self.samples
            ],
        }


def _mb(kb: int) -> float:
    return round(kb / 1024, 1)


def rss_kb(pid: int) -> int:
    """VmRSS of `pid`, 0 if it has gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0


def referee_workers(parent: int) -> list[int]:
    """The referee worker processes of the tournament process `parent`: its children
    started by multiprocessing (bots are its children too, and are left out)."""
    workers = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"spawn_main" in cmdline:
            workers.append(int(entry.name))
    return workers


def finished_count(db: Path, name: str) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as connection:
            return connection.execute(
                "SELECT COUNT(*) FROM results WHERE tournament = ?", (name,)
            ).fetchone()[0]
    except sqlite3.Error:  # not created yet, or busy for a moment
        return 0


def incidents(db: Path, name: str) -> int:
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT incidents FROM results WHERE tournament = ?", (name,))
        return sum(len(json.loads(row[0])) for row in rows)


def run_game(
    game: str, matches: int, parallel: int, every: float, seed: int, round_cap: int | None
) -> Run:
    """Play `matches` (rounded up to whole rounds) of `game` through the tournament CLI,
    scored after `round_cap` rounds if it is given."""
    rounds = max(1, math.ceil(matches / PLAYERS))  # four bots, four seats: 4 per round
    run = Run(game, rounds * PLAYERS)
    name = f"soak-{game}"
    with tempfile.TemporaryDirectory(prefix="admiralty-soak-") as tmp:
        db = Path(tmp) / "soak.db"
        args = [
            sys.executable,
            "-m",
            "admiralty.cli",
            "tournament",
            "run",
            game,
            "--players",
            str(PLAYERS),
            "--rounds",
            str(rounds),
            "--seed",
            str(seed),
            "--name",
            name,
            "--parallel",
            str(parallel),
            "--db",
            str(db),
            "--records",
            str(Path(tmp) / "records"),
            "--json",
        ]
        for bot in BOTS:
            args += ["--bot", bot]
        if round_cap is not None:
            args += ["--option", f"round_cap={round_cap}"]
        out, err = Path(tmp) / "out.json", Path(tmp) / "err.txt"
        started = time.monotonic()
        with open(out, "w") as stdout, open(err, "w") as stderr:
            process = subprocess.Popen(args, cwd=REPO, stdout=stdout, stderr=stderr)
            while process.poll() is None:
                workers = referee_workers(process.pid)
                run.samples.append(
                    Sample(
                        time.monotonic() - started,
                        finished_count(db, name),
                        rss_kb(process.pid),
                        sum(rss_kb(pid) for pid in workers),
                    )
                )
                time.sleep(every)
        run.seconds = time.monotonic() - started
        run.stderr = err.read_text()[-2000:]
        if process.returncode != 0:
            run.errors += 1
        if db.exists():
            run.finished = finished_count(db, name)
            run.incidents = incidents(db, name)
        run.errors += run.planned - run.finished
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--matches", type=int, default=1000, help="in all, half per game, rounded up to rounds of 4"
    )
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--every", type=float, default=0.5, help="seconds between samples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--round-cap", type=int, help="score each match after this round (default: whole games)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load_before = os.getloadavg()
    share = [math.ceil(args.matches / 2), args.matches // 2]
    runs = [
        run_game(game, n, args.parallel, args.every, args.seed, args.round_cap)
        for game, n in zip(GAMES, share, strict=True)
        if n > 0
    ]
    growths = [r.memory()["growth"] for r in runs if r.memory()["growth"] is not None]
    result = {
        "matches": sum(r.finished for r in runs),
        "parallel": args.parallel,
        "errors": sum(r.errors for r in runs),
        "incidents": sum(r.incidents for r in runs),
        "worst_growth": max(growths) if growths else None,
        "target_growth": TARGET_GROWTH,
        "load_average": {"before": round(load_before[0], 2), "after": round(os.getloadavg()[0], 2)},
        "cores": os.cpu_count(),
        "games": [r.to_json() for r in runs],
    }
    if args.json:
        print(json.dumps(result))
    else:
        print_table(result, runs)
    for run in runs:
        if run.errors and run.stderr:
            print(f"{run.game}: {run.stderr}", file=sys.stderr)


def print_table(result: dict, runs: list[Run]) -> None:
    print(
        f"soak: {result['matches']} matches of random bots, {PLAYERS} seats, "
        f"{result['parallel']} referee workers; load average {result['load_average']['before']}"
        f" before, {result['load_average']['after']} after, {result['cores']} cores"
    )
    header = [
        "game",
        "matches",
        "errors",
        "incidents",
        "seconds",
        "matches/s",
        "RSS at 10% MB",
        "peak after MB",
        "final MB",
        "growth",
    ]
    rows = []
    for data in result["games"]:
        growth = data["growth"]
        rows.append(
            [
                data["game"],
                f"{data['finished']}/{data['planned']}",
                str(data["errors"]),
                str(data["incidents"]),
                str(data["seconds"]),
                str(data["matches_per_second"]),
                str(data["baseline_mb"]),
                str(data["peak_mb"]),
                str(data["final_mb"]),
                "-" if growth is None else f"{growth:+.1%}",
            ]
        )
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    for line in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True)))
    print("referee RSS (MB, tournament process + workers) at 0%, 10%, ..., 100% finished:")
    for run in runs:
        print(
            f"  {run.game:12} "
            + " ".join("-" if mb is None else f"{mb:.0f}" for mb in run.by_tenth())
        )
    worst = result["worst_growth"]
    print(
        f"errors: {result['errors']} (must be 0); incidents: {result['incidents']}; "
        "worst RSS growth after warm-up: "
        f"{'-' if worst is None else f'{worst:+.1%}'} (target <= {TARGET_GROWTH:.0%})"
    )


if __name__ == "__main__":
    main()
