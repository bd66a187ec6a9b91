"""benchmarks/env_speed.py runs and prints, per game, the engine's and the environments'
rates side by side (nothing is timed here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "env_speed.py"


def run(*args: str) -> dict:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "1", "--json", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_env_speed_prints_each_games_rates_and_ratios():
    data = run()
    rows = {row["game"]: row for row in data["games"]}
    assert set(rows) == {"jamaica", "black_fleet", "blackbeard"}
    for row in rows.values():
        engine, bare = row["engine_decisions_per_second"], row["raw_env_steps_per_second"]
        assert engine > 0 and bare > 0 and row["env_steps_per_second"] > 0
        assert abs(row["raw_env_ratio"] - bare / engine) < 0.01
    assert data["python_liars_poker_steps_per_second"] > 0  # open_spiel is a dev dependency


def test_the_bounds_play_the_same_games_with_the_encoding_then_the_view_made_free():
    """Every way answers the same seeds with the same random draws from its mask: the
    same steps, so the free encoder marks exactly the options the real one does."""
    (row,) = run("--bounds", "--game", "black_fleet")["games"]
    assert row["steps"]["engine"] > 0 and row["steps"]["env"] > 0
    assert row["steps"]["env"] == row["steps"]["encoding_free"] == row["steps"]["view_free"]
    for way in ("env", "encoding_free", "view_free"):
        assert row[f"{way}_steps_per_second"] > 0
