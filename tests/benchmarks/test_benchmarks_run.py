"""Every benchmark script runs and prints the figures it promises (nothing is timed here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

CASES = {
    "engine.py": (["--games", "3", "--repeats", "1"], None),
    "decide_rtt.py": (
        ["--matches", "1", "--players", "2"],
        {"referee", "raw_grpc", "ratio_median", "own_work", "without_own_work_ratio_median"},
    ),
    "tournament.py": (
        ["--parallel", "2", "--bots", "4", "--seconds", "0.5"],
        {"tournament", "ratio"},
    ),
    "forced.py": (["--matches", "1"], {"jamaica/2p", "black_fleet/4p", "blackbeard/4p"}),
    "memory.py": (
        ["--matches", "3", "--game", "blackbeard", "--progress", "0.1"],
        {"game", "rss_peak_mb", "per_match_kb"},
    ),
    "referee_cpu.py": (
        ["--matches", "1", "--players", "2", "--idle", "0.1"],
        {"cpu_us_per_decision"},
    ),
    "arena.py": (
        [
            "--bots",
            "6",
            "--at-once",
            "2",
            "--seconds",
            "1",
            "--newcomers",
            "2",
            "--matches",
            "4",
            "--ladders",
            "1",
            "--checkpoints",
            "4",
        ],
        {"scale", "first_match", "throughput", "order"},
    ),
    "duplicate.py": (
        ["--deals", "8", "--trials", "20", "--max-games", "8"],
        {"plain", "duplicate", "ratio", "mean_score", "games_played"},
    ),
    "adaptive.py": (
        ["--trials", "4", "--budget", "48", "--jobs", "1"],
        {"full", "sampled", "adaptive", "ratio_adaptive_full", "stop_rule"},
    ),
}


@pytest.mark.parametrize("script", sorted(CASES))
def test_benchmark_prints_its_figures_as_json(script):
    args, keys = CASES[script]
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    if keys is None:  # one JSON object per line: a row per game and player count
        rows = [json.loads(line) for line in result.stdout.splitlines()]
        assert {row["game"] for row in rows} >= {"jamaica", "black_fleet"}
        assert all(row["games_per_second"] > 0 for row in rows)
        return
    data = json.loads(result.stdout)
    assert keys <= set(data)
    if script == "duplicate.py":
        assert data["games_played"] == 32
        assert (
            set(data["plain"]["share_right"]) == set(data["duplicate"]["share_right"]) == {"4", "8"}
        )
    if script == "forced.py":
        for counts in data.values():
            assert counts.get("asked_single_option", 0) == counts.get(
                "engine_single_option_must_ask", 0
            )  # PASS alone, asked anyway
            assert counts.get("asked_auto_pass_interrupt", 0) == 0
    if script == "memory.py":  # its progress, on stderr
        assert "matches over" in result.stderr and "kB a match" in result.stderr


@pytest.mark.parametrize(
    ("game", "players"), [("jamaica", 3), ("black_fleet", 4), ("blackbeard", 4)]
)
def test_duplicate_plays_every_game(game, players):
    """benchmarks/duplicate.py, tiny: each game's greedy bots, 2 deals in every rotation."""
    result = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "duplicate.py"),
            "--game",
            game,
            "--players",
            str(players),
            "--deals",
            "2",
            "--trials",
            "5",
            "--max-games",
            str(2 * players),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["game"], data["players"]) == (game, players)
    assert data["games_played"] == 2 * players and len(data["epsilons"]) == players
    assert len(data["mean_score"]) == players and len(data["variance_ratios"]) == players - 1
    assert set(data["plain"]["share_right"]) == {str(players), str(2 * players)}


@pytest.mark.parametrize("game", ["blackbeard", "jamaica", "black_fleet"])
def test_game_length_prints_a_row_per_player_count(game):
    """benchmarks/game_length.py: Player Turns (or rounds), decisions and how games ended."""
    result = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "game_length.py"),
            "--game",
            game,
            "--games",
            "2",
            "--seed",
            "3",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["players"] for row in rows] == sorted(row["players"] for row in rows)
    for row in rows:
        assert row["game"] == game and row["games"] == 2
        assert sum(row["ended"].values()) == 2 and "(no game_over event)" not in row["ended"]
        assert row["decisions_per_game"] > 0 and row["cpu_seconds"] >= 0
        length = row["player_turns"] or row["rounds"]
        assert 0 < length["mean"] <= length["max"]
    if game == "blackbeard":
        assert [row["players"] for row in rows] == list(range(1, 11))
        assert all(row["player_turns"]["median"] > 0 for row in rows)
    table = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "game_length.py"),
            "--game",
            game,
            "--players",
            str(rows[0]["players"]),
            "--games",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert table.returncode == 0 and "ended" in table.stdout, table.stderr


def test_blackbeard_balance_prints_a_row_per_player_count_and_solitaire_level():
    result = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "balance_blackbeard.py"),
            "--games",
            "2",
            "--players",
            "2",
            "3",
            "--jobs",
            "1",
            "--solitaire",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row.get("players") for row in rows[:2]] == [2, 3]
    assert [row.get("level") for row in rows[2:]] == ["easy", "standard", "hard"]
    for row in rows[:2]:
        assert row["games"] == 2 and abs(sum(row["shares"]) - 1) < 1e-9
        assert row["endings"] and row["turns_mean"] > 0
    assert all(row["games"] == 1 and 0 <= row["win_rate"] <= 1 for row in rows[2:])


def test_ismcts_prints_a_row_per_game():
    """benchmarks/ismcts.py, tiny: ISMCTS's wins, mean place and search speed per game."""
    result = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "ismcts.py"),
            "--games",
            "1",
            "--iterations",
            "2",
            "--depth",
            "4",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(row["game"], row["players"]) for row in rows] == [
        ("jamaica", 2),
        ("black_fleet", 3),
        ("blackbeard", 3),
    ]
    for row in rows:
        assert row["games"] == 1 and row["wins"] in (0, 1) and 1 <= row["mean_place"] <= 3
        assert row["decisions"] > 0 and row["iterations_per_second"] > 0


@pytest.mark.parametrize(("coins", "alike"), [("seat", True), ("match", False)])
def test_duplicate_seat_coins_bring_a_seat_the_same_luck_in_every_rotation(
    coins, alike, monkeypatch
):
    """With --coins seat each bot seeds its coin from its seat's first request, so bots that
    always play at random play every rotation of a deal alike, seat by seat; with --coins
    match they do not."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import duplicate

    table = duplicate.Table("jamaica", (1.0, 1.0))
    for rotations in duplicate.play_deals(table, master=3, deals=2, coins_by=coins):
        (first, second), (third, fourth) = (rotation[0] for rotation in rotations)
        assert ((first, second) == (fourth, third)) is alike


def test_adaptive_measures_a_real_game_from_a_pool_it_caches(tmp_path):
    """benchmarks/adaptive.py --game: a pool of real games per group, stored, reused by a
    second run and grown, never replayed, when a larger pool is asked for."""
    pool = tmp_path / "pool.json"

    def run(per_group):
        result = subprocess.run(
            [
                sys.executable,
                str(BENCHMARKS / "adaptive.py"),
                "--game",
                "jamaica",
                "--players",
                "2",
                "--pool-per-group",
                str(per_group),
                "--pool",
                str(pool),
                "--trials",
                "2",
                "--budget",
                "16",
                "--jobs",
                "1",
                "--json",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout), json.loads(pool.read_text())

    data, stored = run(1)
    assert data["pool"]["games"] == 28 and len(stored["groups"]) == 28
    assert {"full", "sampled", "adaptive", "ratio_adaptive_full", "stop_rule"} <= set(data)
    assert data["adaptive"]["reuse"]["max_most_draws"] >= 1
    again, same = run(1)
    assert same == stored and again["pool"] == data["pool"]
    grown, larger = run(2)
    assert grown["pool"]["games"] == 56
    assert all(games[:1] == stored["groups"][group] for group, games in larger["groups"].items())


def test_engine_compares_two_checkouts_side_by_side():
    """`engine.py --against TREE`: this checkout against itself, in two fresh processes
    (one importing each copy first)."""
    tree = BENCHMARKS.parent
    result = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "engine.py"),
            "--game",
            "jamaica",
            "--players",
            "2",
            "--games",
            "2",
            "--against",
            str(tree),
            "--processes",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    row = json.loads(result.stdout)
    assert row["against"] == str(tree) and row["games"] == 2
    assert len(row["speed_ratios"]) == 2 and row["speed_ratio"] > 0
    assert row["games_per_second"] > 0 and row["against_games_per_second"] > 0
    # one tree against itself plays the same games
    assert row["decisions_per_game"] == row["against_decisions_per_game"] > 0
    assert row["decision_speed_ratio"] > 0


def test_engine_against_names_a_tree_without_an_engine(tmp_path):
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "engine.py"), "--against", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert f"--against {tmp_path}: no server/admiralty/games there" in result.stderr


def test_referee_cpu_compares_two_checkouts_side_by_side():
    """`referee_cpu.py --against TREE`: this checkout against itself, each run in a fresh
    process importing that tree."""
    tree = BENCHMARKS.parent
    args = ["--matches", "1", "--players", "2", "--runs", "1", "--against", str(tree)]
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "referee_cpu.py"), *args, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    row = json.loads(result.stdout)
    assert row["cpu_us_per_decision"] > 0 and row["against_cpu_us_per_decision"] > 0
    shown = row["cpu_us_per_decision"] / row["against_cpu_us_per_decision"]
    assert row["ratio"] == pytest.approx(shown, abs=0.01)  # of the unrounded figures
