"""benchmarks/soak.py runs a handful of tournament matches of both games and reports its
figures: no errors, a result for every match, and the referee's memory sampled over time
(nothing is timed here, and the growth target is for the full 1,000-match run). The
matches are scored after round 5 (`--round-cap`): the soak's whole path in a third of
the time of whole games. Eight matches per game, two at a time: the memory is sampled
after the first result, while the others play."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SOAK = Path(__file__).resolve().parents[2] / "benchmarks" / "soak.py"


def test_soak_plays_both_games_and_samples_referee_memory():
    result = subprocess.run(
        [
            sys.executable,
            str(SOAK),
            "--matches",
            "16",
            "--every",
            "0.1",
            "--round-cap",
            "5",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["errors"] == 0 and data["matches"] == 16, result.stderr
    assert isinstance(data["incidents"], int)
    assert [game["game"] for game in data["games"]] == ["jamaica", "black_fleet"]
    for game in data["games"]:
        assert game["finished"] == game["planned"] == 8
        with_workers = [s for s in game["samples"] if s[3] > 0]  # [s, finished, main, workers]
        assert with_workers and all(s[2] > 0 for s in with_workers)
        assert game["baseline_mb"] > 0 and game["peak_mb"] >= game["baseline_mb"]
        assert isinstance(game["growth"], float)
        assert len(game["rss_by_tenth_mb"]) == 11
