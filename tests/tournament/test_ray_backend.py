"""The ray backend on a real Ray cluster (two nodes of one CPU on loopback, started for this
module, each with its own bots): the same results as the local backend for the same seed, a
Ray worker killed mid-match, a killed driver resumed over Ray; and, without Ray, one line
saying how to install it.

The soak variant plays a larger tournament, kills workers again and again and loses a node
halfway (`ADMIRALTY_RAY_SOAK_ROUNDS=20 pytest -m soak tests/tournament/test_ray_backend.py`);
it runs last, since the cluster has one node left after it."""

from __future__ import annotations

import gzip
import ipaddress
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from ray_cluster import Cluster, listening, ray_cluster

pytest.importorskip("ray")
pytestmark = pytest.mark.xdist_group("ray")  # one cluster, on one test worker

REPO = Path(__file__).resolve().parents[2]
HASH_BOT = str(Path(__file__).parent / "bots" / "hash_bot.py")
POOL = [HASH_BOT, f"{HASH_BOT} --seed 1", f"{HASH_BOT} --seed 2"]
ROUNDS = 2  # 3 bots, 2 seats: 6 matches a round
ROUND_CAP = 8
"""Matches scored after round 8 (Jamaica's `round_cap`): refereed, stored and replayed on
Ray as whole games are, in a fraction of their time. The soak plays whole games, so that
its workers and node die mid-match."""
SOAK_ROUNDS = int(os.environ.get("ADMIRALTY_RAY_SOAK_ROUNDS", str(ROUNDS)))
TIMING = {"latencies"}
"""Columns that measure time, so differ between any two runs."""
RANDOM = {"latency_ms", "wire_id"}


def tournament(*extra: str, rounds: int = ROUNDS, round_cap: int | None = ROUND_CAP) -> list[str]:
    args = [
        sys.executable,
        "-m",
        "admiralty.cli",
        "tournament",
        "run",
        "jamaica",
        "--players",
        "2",
        "--rounds",
        str(rounds),
        "--seed",
        "7",
        "--name",
        "cup",
        "--db",
        "t.db",
        "--records",
        "records",
        "--json",
        "--parallel",
        "2",
        *extra,
    ]
    if round_cap is not None:
        args += ["--option", f"round_cap={round_cap}"]
    for bot in POOL:
        args += ["--bot", bot]
    return args


def on_ray(cluster: Cluster) -> list[str]:
    return ["--backend", "ray", "--address", cluster.address]


def run(args: list[str], where: Path, env: dict[str, str]) -> dict:
    done = subprocess.run(args, cwd=where, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def start(args: list[str], where: Path, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        args,
        cwd=where,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def stored(where: Path) -> dict[str, list[tuple]]:
    """Every table of the tournament, in a fixed order, timing columns left out."""
    with sqlite3.connect(where / "t.db") as db:
        tables = {}
        for table in ("tournaments", "bots", "matches", "results"):
            cursor = db.execute(f"SELECT * FROM {table} ORDER BY 1, 2")
            keep = [i for i, column in enumerate(cursor.description) if column[0] not in TIMING]
            tables[table] = [tuple(row[i] for i in keep) for row in cursor]
        return tables


def results(where: Path) -> list[str]:
    with sqlite3.connect(where / "t.db") as db:
        return [row[0] for row in db.execute("SELECT match_id FROM results")]


def results_or_none(where: Path) -> list[str]:
    """The results so far; none while the database is being created."""
    try:
        return results(where) if (where / "t.db").exists() else []
    except sqlite3.OperationalError:
        return []


def bots(cluster: Cluster) -> list[int]:
    """The bot processes running on the cluster."""
    return cluster.processes(f"{sys.executable} {HASH_BOT}")


def records(where: Path) -> dict[str, list[dict]]:
    """Each match record's lines, without what differs between any two runs: the
    decisions' latencies and the random match id the bots were sent."""
    return {
        path.name: [
            {k: v for k, v in json.loads(line).items() if k not in RANDOM}
            for line in gzip.open(path, "rt")
        ]
        for path in sorted((where / "records" / "cup").iterdir())
    }


def standings(data: dict) -> list[dict]:
    return [
        {k: v for k, v in row.items() if not k.startswith("latency")} for row in data["standings"]
    ]


def wait_for(condition: Callable[[], object], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def cluster():
    with ray_cluster(nodes=2) as running:
        yield running


@pytest.fixture(scope="module")
def local(tmp_path_factory, cluster) -> Callable[..., tuple]:
    """The reference: the tournament of `rounds` rounds (its games capped at `round_cap`)
    played on the local backend, once per module; its tables, standings and records."""
    played: dict[tuple[int, int | None], tuple] = {}

    def reference(rounds: int = ROUNDS, round_cap: int | None = ROUND_CAP) -> tuple:
        if (rounds, round_cap) not in played:
            where = tmp_path_factory.mktemp("local")
            data = run(tournament(rounds=rounds, round_cap=round_cap), where, cluster.env)
            played[rounds, round_cap] = stored(where), standings(data), records(where)
        return played[rounds, round_cap]

    return reference


def test_a_ray_tournament_stores_what_the_local_one_stores(tmp_path, cluster, local):
    data = run(tournament(*on_ray(cluster)), tmp_path, cluster.env)

    tables, board, played = local()
    assert data["planned"] == data["finished"] == 6 * ROUNDS
    assert stored(tmp_path) == tables
    assert standings(data) == board
    assert records(tmp_path) == played  # written by the driver, from the referees' bytes
    assert {oct(p.stat().st_mode & 0o777) for p in (tmp_path / "records" / "cup").iterdir()} == {
        "0o600"
    }


def test_a_ray_worker_killed_mid_match_costs_that_match_only(tmp_path, cluster, local):
    driver = start(tournament(*on_ray(cluster)), tmp_path, cluster.env)
    wait_for(lambda: cluster.processes("ray::play_match"))
    victim = cluster.processes("ray::play_match")[0]
    os.kill(victim, signal.SIGKILL)
    _, stderr = driver.communicate(timeout=300)

    assert driver.returncode == 0, stderr
    assert victim not in cluster.processes("ray::")
    finished = results(tmp_path)
    assert len(finished) == len(set(finished)) == 6 * ROUNDS
    assert stored(tmp_path) == local()[0]  # the killed match replayed from its seed


def test_a_killed_driver_leaves_no_bots_and_resumes_over_ray(tmp_path, cluster, local):
    driver = start(tournament(*on_ray(cluster)), tmp_path, cluster.env)
    wait_for(lambda: len(results_or_none(tmp_path)) >= 2)
    assert bots(cluster)
    os.killpg(driver.pid, signal.SIGKILL)
    driver.wait()
    interrupted = len(results(tmp_path))
    assert 2 <= interrupted < 6 * ROUNDS
    wait_for(lambda: not bots(cluster), 60)  # they died with it

    data = run(
        [
            sys.executable,
            "-m",
            "admiralty.cli",
            "tournament",
            "resume",
            "cup",
            "--db",
            "t.db",
            "--json",
            *on_ray(cluster),
        ],
        tmp_path,
        cluster.env,
    )
    assert data["planned"] == data["finished"] == 6 * ROUNDS
    assert stored(tmp_path) == local()[0]
    assert standings(data) == local()[1]


def test_a_bot_that_fails_on_the_cluster_is_one_line_and_nothing_is_stored(tmp_path, cluster):
    args = tournament(*on_ray(cluster))
    args[args.index(POOL[0])] = "missing_bot.py"  # the path is read on the nodes
    done = subprocess.run(
        args, cwd=tmp_path, env=cluster.env, capture_output=True, text=True, timeout=300
    )
    assert (done.returncode, done.stderr.strip()) == (
        1,
        "error: bot file not found: missing_bot.py",
    )
    with sqlite3.connect(tmp_path / "t.db") as db:
        assert db.execute("SELECT * FROM tournaments").fetchall() == []


def test_the_benchmark_prints_ray_beside_local_on_a_ray_of_its_own_on_loopback(cluster):
    """No --address: the backend starts Ray for the run, which listens on loopback only
    (the test's own loopback setting left out, so the backend's is what counts)."""
    scratch = tempfile.mkdtemp(prefix="ray-")
    env = {
        **{k: v for k, v in cluster.env.items() if k != "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"},
        "RAY_TMPDIR": scratch,
    }
    try:
        bench = subprocess.Popen(
            [
                sys.executable,
                str(REPO / "benchmarks" / "tournament.py"),
                "--rounds",
                "1",
                "--bots",
                "4",
                "--seconds",
                "0.5",
                "--json",
                "--backend",
                "ray",
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        heard: set[str] = set()
        while bench.poll() is None:
            heard |= listening(bench.pid)
            time.sleep(0.2)
        stdout, stderr = bench.communicate()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    assert bench.returncode == 0, stderr
    assert len(heard) > 5  # Ray's own servers and the bots
    assert all(ipaddress.ip_address(address.rsplit(":", 1)[0]).is_loopback for address in heard), (
        heard
    )
    data = json.loads(stdout)
    assert data["ray"]["matches"] == data["tournament"]["matches"] == 4  # 4 bots: 1 group
    assert data["ray"]["matches_per_second"] > 0 and data["ray_ratio"] > 0
    assert data["ray"]["driver_cpu_ms_per_result"] > 0


def test_without_ray_the_ray_backend_says_how_to_install_it(tmp_path):
    no_ray = (
        "import sys; sys.modules['ray'] = None; from admiralty.cli import main; "
        "sys.argv[0] = 'admiralty'; main()"
    )
    for args in (
        tournament("--backend", "ray")[3:],
        ["tournament", "resume", "cup", "--db", "t.db", "--backend", "ray"],
    ):
        done = subprocess.run(
            [sys.executable, "-c", no_ray, *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode != 0
        assert done.stderr.strip() == (
            "error: --backend ray needs Ray: pip install 'admiralty[ray]'"
        )
        assert not (tmp_path / "t.db").exists()


def test_a_wrong_address_is_one_line(tmp_path):
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        closed = f"127.0.0.1:{sock.getsockname()[1]}"
    cases = [
        (["--address", "auto"], 2, "error: --address is for --backend ray"),
        (
            ["--backend", "ray", "--address", "head"],
            2,
            "error: --address 'head': expected ray://HOST:PORT, HOST:PORT or auto",
        ),
        (
            ["--backend", "ray", "--address", closed],
            1,
            f"error: cannot start or join Ray at {closed}: Connection refused",
        ),
    ]
    for extra, code, line in cases:
        done = subprocess.run(
            tournament(*extra), cwd=tmp_path, capture_output=True, text=True, timeout=60
        )
        assert (done.returncode, done.stderr.strip()) == (code, line)


@pytest.mark.soak
def test_soak_a_long_ray_tournament_with_workers_killed_and_a_node_lost(tmp_path, cluster, local):
    driver = start(
        tournament(*on_ray(cluster), rounds=SOAK_ROUNDS, round_cap=None), tmp_path, cluster.env
    )
    planned, killed, lost = 6 * SOAK_ROUNDS, 0, False
    while driver.poll() is None:
        done = len(results_or_none(tmp_path))
        playing = cluster.processes("ray::play_match")
        if not lost and done >= planned // 2:
            if len(playing) == 2:  # no kills meanwhile: they would keep one node idle
                cluster.lose_node()  # with the match it was playing
                lost = True
        elif playing and done >= 2 * killed:
            os.kill(playing[0], signal.SIGKILL)
            killed += 1
        time.sleep(0.2)
    assert driver.returncode == 0, driver.stderr.read()

    assert killed >= 2 and lost
    assert stored(tmp_path) == local(SOAK_ROUNDS, None)[0]
