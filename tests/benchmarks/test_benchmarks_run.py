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
    "decide_rtt.py": (["--matches", "1", "--players", "2"],
                      {"referee", "raw_grpc", "ratio_median"}),
    "tournament.py": (["--parallel", "2", "--seconds", "0.5"], {"tournament", "ratio"}),
    "forced.py": (["--matches", "1"], {"jamaica/2p", "black_fleet/4p"}),
    "memory.py": (["--matches", "3"], {"rss_peak_mb", "per_match_kb"}),
    "duplicate.py": (["--deals", "8", "--trials", "20", "--max-games", "8"],
                     {"plain", "duplicate", "ratio", "mean_score", "games_played"}),
}


@pytest.mark.parametrize("script", sorted(CASES))
def test_benchmark_prints_its_figures_as_json(script):
    args, keys = CASES[script]
    result = subprocess.run([sys.executable, str(BENCHMARKS / script), *args, "--json"],
                            capture_output=True, text=True, timeout=300)
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
        assert set(data["plain"]["share_right"]) == set(data["duplicate"]["share_right"]) \
            == {"4", "8"}
    if script == "forced.py":
        for counts in data.values():
            assert counts.get("asked_single_option", 0) == 0
            assert counts.get("asked_auto_pass_interrupt", 0) == 0
