"""`play --seed` with the example bots repeats the same match; `play --watch` off a terminal
writes the whole transcript, the same one `replay` writes of its record."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

from e2e_helpers import RANDOM_BOT, REPO

ADMIRALTY = [sys.executable, "-m", "admiralty.cli"]
GREEDY = str(REPO / "example_bots" / "jamaica_greedy.py")


def admiralty(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*ADMIRALTY, *args], capture_output=True, text=True, timeout=120, cwd=REPO
    )


def decisions(record) -> list[tuple[int, int, str]]:
    with gzip.open(record, "rt") as lines:
        return [
            (line["seat"], line["index"], line["kind"])
            for line in map(json.loads, lines)
            if line["t"] == "decision"
        ]


def test_the_same_seed_and_deterministic_bots_repeat_the_same_match(tmp_path):
    """Clocks generous enough that a busy machine costs no answer: a late answer is an
    incident, and its default would be a different match."""
    outcomes = []
    for run in range(3):
        record = tmp_path / f"{run}.jsonl.gz"
        result = admiralty(
            "play",
            "jamaica",
            "--seed",
            "7",
            "--bot",
            GREEDY,
            "--bot",
            RANDOM_BOT,
            "--bot",
            f"{RANDOM_BOT} --seed 3",
            "--record",
            str(record),
            "--deadline",
            "30",
            "--time-bank",
            "600",
            "--json",
        )
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout)
        assert report["incidents"] == []
        outcomes.append(([p["score"] for p in report["placements"]], decisions(record)))
    assert len(outcomes[0][1]) > 50
    assert outcomes[1] == outcomes[0] and outcomes[2] == outcomes[0]


def test_watch_off_a_terminal_writes_the_whole_log_as_replay_does(tmp_path):
    record = tmp_path / "m.jsonl.gz"
    played = admiralty(
        "play",
        "jamaica",
        "--seed",
        "2",
        "--bot",
        GREEDY,
        "--bot",
        RANDOM_BOT,
        "--record",
        str(record),
        "--watch",
        "--delay",
        "0",
    )
    assert played.returncode == 0, played.stderr
    assert played.stdout.endswith(f"record: {record}\n")
    transcript = played.stdout.removesuffix(f"record: {record}\n")
    assert transcript.startswith("Round 1: ")
    assert "Game over: " in transcript and "\n│     1 │" in transcript
    replayed = admiralty("replay", str(record), "--speed", "0")
    assert replayed.returncode == 0 and replayed.stdout == transcript
