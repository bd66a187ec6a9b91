"""Tournaments end to end over gRPC: results, resume after kill -9, parallel = sequential."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RANDOM_BOT = "example_bots/random_bot.py"
POOL = [RANDOM_BOT, f"{RANDOM_BOT} --seed 1", f"{RANDOM_BOT} --seed 2"]


def tournament_args(db: Path, *extra: str) -> list[str]:
    args = [sys.executable, "-m", "admiralty.cli", "tournament", "run", "jamaica",
            "--players", "2", "--seed", "7", "--name", "cup", "--db", str(db),
            "--records", str(db.parent / "records"), "--json", *extra]
    for bot in POOL:
        args += ["--bot", bot]
    return args


def run(args: list[str]) -> dict:
    result = subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def results(db: Path) -> list[tuple]:
    """The stored results; none while the tournament is still creating its database."""
    with sqlite3.connect(db) as connection:
        try:
            return connection.execute(
                "SELECT match_id, places, scores FROM results ORDER BY match_id").fetchall()
        except sqlite3.OperationalError:
            return []


def test_three_bots_play_every_planned_match_and_are_ranked(tmp_path):
    data = run(tournament_args(tmp_path / "t.db", "--parallel", "2"))
    assert data["planned"] == data["finished"] == 3 * 2  # 3 pairs x 2 seatings
    standings = data["standings"]
    assert sorted(row["bot"] for row in standings) == ["random", "random #2", "random #3"]
    assert sum(row["matches"] for row in standings) == 12
    keys = [row["conservative"] for row in standings]
    assert keys == sorted(keys, reverse=True)
    shown = run([sys.executable, "-m", "admiralty.cli", "tournament", "show", "cup",
                 "--db", str(tmp_path / "t.db"), "--json"])
    assert shown["standings"] == standings


def test_parallel_and_sequential_runs_rank_identically(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    sequential = run(tournament_args(tmp_path / "a" / "t.db", "--parallel", "1"))
    parallel = run(tournament_args(tmp_path / "b" / "t.db", "--parallel", "4"))
    strip = [{k: v for k, v in row.items() if not k.startswith("latency")}
             for row in sequential["standings"]]
    assert strip == [{k: v for k, v in row.items() if not k.startswith("latency")}
                     for row in parallel["standings"]]
    assert results(tmp_path / "a" / "t.db") == results(tmp_path / "b" / "t.db")


def test_a_killed_tournament_resumes_and_plays_every_match_exactly_once(tmp_path):
    db = tmp_path / "t.db"
    args = tournament_args(db, "--parallel", "1", "--rounds", "3")
    process = subprocess.Popen(args, cwd=REPO, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if db.exists() and len(results(db)) >= 2:
                break
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGKILL)
    finally:
        process.wait()
    interrupted = len(results(db))
    assert 2 <= interrupted < 18

    data = run([sys.executable, "-m", "admiralty.cli", "tournament", "resume", "cup",
                "--db", str(db), "--json"])
    assert data["planned"] == data["finished"] == 18
    finished = results(db)
    assert len({row[0] for row in finished}) == len(finished) == 18

    (tmp_path / "clean").mkdir()
    clean = tmp_path / "clean" / "t.db"
    run(tournament_args(clean, "--parallel", "1", "--rounds", "3"))
    assert finished == results(clean)
