"""benchmarks/env_speed.py runs and prints, per game, the engine's and the environments'
rates side by side (nothing is timed here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "env_speed.py"


def test_env_speed_prints_each_games_rates_and_ratios():
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    rows = {row["game"]: row for row in data["games"]}
    assert set(rows) == {"jamaica", "black_fleet", "blackbeard"}
    for row in rows.values():
        engine, bare = row["engine_decisions_per_second"], row["raw_env_steps_per_second"]
        assert engine > 0 and bare > 0 and row["env_steps_per_second"] > 0
        assert abs(row["raw_env_ratio"] - bare / engine) < 0.01
    assert data["python_liars_poker_steps_per_second"] > 0  # open_spiel is a dev dependency
