"""Tournaments end to end over gRPC: results, resume after kill -9, parallel = sequential,
private files, and clean ends when a worker, a bot or the runner itself dies."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BOTS = Path(__file__).parent / "bots"
HASH_BOT = str(BOTS / "hash_bot.py")
POOL = [HASH_BOT, f"{HASH_BOT} --seed 1", f"{HASH_BOT} --seed 2"]
ENV = {**os.environ, "COLUMNS": "1000"}  # an error line is not wrapped
SHORT = ("--option", "round_cap=8")
"""Matches scored after round 8: each is still played, stored, rated and resumed as any
other, in a fraction of the time the hash bots take to finish a Jamaica race."""


def admiralty(*args: str) -> list[str]:
    return [sys.executable, "-m", "admiralty.cli", *args]


def tournament_args(
    db: Path,
    *extra: str,
    pool: list[str] = POOL,
    game: str = "jamaica",
    players: int = 2,
    command: Callable[..., list[str]] = admiralty,
) -> list[str]:
    args = command(
        "tournament",
        "run",
        game,
        "--players",
        str(players),
        "--seed",
        "7",
        "--name",
        "cup",
        "--db",
        str(db),
        "--records",
        str(db.parent / "records"),
        "--json",
        *extra,
    )
    for bot in pool:
        args += ["--bot", bot]
    return args


def run(args: list[str]) -> dict:
    result = subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def rows(db: Path, sql: str) -> list[tuple]:
    """Rows of a query; none while the tournament is still creating its database."""
    with sqlite3.connect(db) as connection:
        try:
            return connection.execute(sql).fetchall()
        except sqlite3.OperationalError:
            return []


def results(db: Path) -> list[tuple]:
    return rows(db, "SELECT match_id, places, scores FROM results ORDER BY match_id")


def start(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen(
        args, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=ENV
    )


def wait_for(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def children(pid: int) -> dict[int, str]:
    """The live child processes of `pid`, with their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _stat(int(entry.name))[1] == pid:
            found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    return found


def _stat(pid: int) -> tuple[str, int]:
    """(state, parent pid) of a process; ("X", 0) once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return "X", 0
    return fields[0], int(fields[1])


def gone(pid: int) -> bool:
    return _stat(pid)[0] in "XZ"  # a zombie has died; whoever adopted it may not reap it


def workers_of(pid: int) -> list[int]:
    return [child for child, command in children(pid).items() if "spawn_main" in command]


def killed_after(args: list[str], db: Path, finished: int) -> subprocess.Popen:
    """Run a tournament until `finished` results are stored, then kill -9 it and its
    children; the dead process."""
    process = subprocess.Popen(
        args, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        wait_for(lambda: db.exists() and len(results(db)) >= finished, 120)
        os.killpg(process.pid, signal.SIGKILL)
    finally:
        process.wait()
    return process


def test_three_bots_play_every_planned_match_and_are_ranked(tmp_path):
    data = run(tournament_args(tmp_path / "t.db", "--parallel", "2"))
    assert data["planned"] == data["finished"] == 3 * 2  # 3 pairs x 2 seatings
    standings = data["standings"]
    assert sorted(row["bot"] for row in standings) == ["hash", "hash #2", "hash #3"]
    assert sum(row["matches"] for row in standings) == 12
    keys = [row["conservative"] for row in standings]
    assert keys == sorted(keys, reverse=True)
    shown = run(admiralty("tournament", "show", "cup", "--db", str(tmp_path / "t.db"), "--json"))
    assert shown["standings"] == standings
    assert stat.S_IMODE((tmp_path / "t.db").stat().st_mode) == 0o600
    for made in (tmp_path / "records", tmp_path / "records" / "cup"):  # --records, and in it
        assert stat.S_IMODE(made.stat().st_mode) == 0o700, made
    assert rows(tmp_path / "t.db", "SELECT * FROM runners") == []


def test_by_default_the_seed_is_128_bit_and_the_name_does_not_hold_it(tmp_path):
    db = tmp_path / "t.db"
    args = [
        arg
        for arg in tournament_args(db, "--deals", "duplicate", pool=POOL[:2])
        if arg not in ("--seed", "7", "--name", "cup")
    ]
    data = run(args)
    assert re.fullmatch(r"jamaica-[0-9a-f]{6}", data["tournament"])
    assert data["seed"] >= 2**64 and str(data["seed"]) not in data["tournament"]
    assert data["deals"] == "duplicate" and data["finished"] == 2
    seeds = rows(db, "SELECT seed FROM matches")
    assert len(seeds) == 2 and seeds[0] == seeds[1]  # both seatings of the pair: one deal


def test_parallel_and_sequential_runs_rank_identically(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    sequential = run(tournament_args(tmp_path / "a" / "t.db", "--parallel", "1", *SHORT))
    parallel = run(tournament_args(tmp_path / "b" / "t.db", "--parallel", "4", *SHORT))
    strip = [
        {k: v for k, v in row.items() if not k.startswith("latency")}
        for row in sequential["standings"]
    ]
    assert strip == [
        {k: v for k, v in row.items() if not k.startswith("latency")}
        for row in parallel["standings"]
    ]
    assert results(tmp_path / "a" / "t.db") == results(tmp_path / "b" / "t.db")


def test_a_killed_tournament_resumes_and_plays_every_match_exactly_once(tmp_path):
    db = tmp_path / "t.db"
    process = killed_after(tournament_args(db, "--parallel", "1", "--rounds", "3", *SHORT), db, 2)
    interrupted = len(results(db))
    assert 2 <= interrupted < 18
    assert [row[0] for row in rows(db, "SELECT pid FROM runners")] == [process.pid]

    data = run(admiralty("tournament", "resume", "cup", "--db", str(db), "--json"))
    assert data["planned"] == data["finished"] == 18  # the dead runner's lease taken over
    finished = results(db)
    assert len({row[0] for row in finished}) == len(finished) == 18
    assert rows(db, "SELECT * FROM runners") == []

    (tmp_path / "clean").mkdir()
    clean = tmp_path / "clean" / "t.db"
    run(tournament_args(clean, "--parallel", "1", "--rounds", "3", *SHORT))
    assert finished == results(clean)


def test_referee_workers_die_with_a_runner_killed_by_sigkill(tmp_path):
    db = tmp_path / "t.db"
    process = start(tournament_args(db, "--parallel", "2", "--rounds", "50"))
    spawned: dict[int, str] = {}
    try:
        wait_for(lambda: db.exists() and len(results(db)) >= 1)
        spawned = children(process.pid)
        workers = workers_of(process.pid)
        assert len(workers) == 2
        process.kill()
        process.wait()
        wait_for(lambda: all(gone(pid) for pid in workers), 5)
    finally:
        process.kill()
        for pid in spawned:  # the bots too, if they outlived it
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_worker_that_dies_ends_the_tournament_with_one_line(tmp_path):
    db = tmp_path / "t.db"
    process = start(tournament_args(db, "--parallel", "2", "--rounds", "50"))
    try:
        wait_for(lambda: db.exists() and len(results(db)) >= 1)
        spawned = children(process.pid)
        victim = workers_of(process.pid)[0]
        os.kill(victim, signal.SIGKILL)
        _, stderr = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 1
    assert stderr.splitlines() == [f"error: a referee worker (pid {victim}) died unexpectedly"]
    assert len(spawned) >= 4  # two workers, two bots
    wait_for(lambda: all(gone(pid) for pid in spawned), 5)  # all stopped, none orphaned
    assert rows(db, "SELECT * FROM runners") == []


def test_a_bot_that_vanishes_before_the_workers_reach_it_is_one_line(tmp_path):
    db = tmp_path / "t.db"
    once = f"{BOTS / 'hello_once_bot.py'} --marker {tmp_path / 'answered'}"
    # The workers wait this long for its Hello before they give up (default 20 s).
    process = start(
        tournament_args(db, "--parallel", "2", "--startup-timeout", "5", pool=[HASH_BOT, once])
    )
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 1
    [line] = stderr.splitlines()
    assert line.startswith(f"error: referee worker could not reach bot {once!r}: "), line
    assert rows(db, "SELECT name FROM tournaments") == []  # nothing stored: the name is free


def test_ctrl_c_keeps_the_results_and_releases_the_lease(tmp_path):
    db = tmp_path / "t.db"
    process = start(tournament_args(db, "--parallel", "2", "--rounds", "50"))
    try:
        wait_for(lambda: db.exists() and len(results(db)) >= 1)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 130
    done = len(results(db))
    assert stderr.splitlines()[-1] == (
        f"stopped: {done} of 300 matches finished and kept; "
        "continue with `admiralty tournament resume cup`"
    )
    assert rows(db, "SELECT * FROM runners") == []
