"""The Node and C++ example bots build, and play Jamaica and Black Fleet through
`admiralty play` against the Python random bot: every decision of theirs answered, no
incident, and a record that verifies.

Each language is one test that builds its bot once (npm ci into example_bots/node/
node_modules, CMake into example_bots/cpp/build) and plays both games, so under xdist the
build runs in one worker only and never twice at once in the same directory."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_helpers import RANDOM_BOT, REPO
from toolchains import NODE_INSTALL, require, require_cpp, run

NODE_DIR = REPO / "example_bots" / "node"
CPP_DIR = REPO / "example_bots" / "cpp"
# Black Fleet needs three seats: the foreign bot and two differently seeded random bots.
OPPONENTS = {"jamaica": [RANDOM_BOT], "black_fleet": [RANDOM_BOT, f"{RANDOM_BOT} --seed 1"]}


@pytest.fixture(scope="session")
def node_bot() -> str:
    require(["node", "npm"], NODE_INSTALL)
    run(["npm", "ci", "--no-audit", "--no-fund"], cwd=NODE_DIR)
    return "node example_bots/node/bot.js"


@pytest.fixture(scope="session")
def cpp_bot() -> str:
    require_cpp()
    build = CPP_DIR / "build"
    run(["cmake", "-S", str(CPP_DIR), "-B", str(build)])
    run(["cmake", "--build", str(build), "--parallel", "2"])
    return "example_bots/cpp/build/random_bot"


def play(game: str, bot: str, record: Path) -> dict:
    """One match with `bot` in seat 0; the --json report."""
    argv = [sys.executable, "-m", "admiralty.cli", "play", game, "--bot", bot,
            *(arg for opponent in OPPONENTS[game] for arg in ("--bot", opponent)),
            "--seed", "11", "--record", str(record), "--json"]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def assert_plays_every_game(bot: str, name: str, tmp_path: Path) -> None:
    for game in OPPONENTS:
        record = tmp_path / f"{game}.jsonl.gz"
        report = play(game, bot, record)
        seat = report["placements"][0]
        assert seat["seat"] == 0 and seat["bot"] == name, report  # its Hello was read
        assert not seat["forfeited"], report
        assert [i for i in report["incidents"] if i["seat"] == 0] == [], report
        with gzip.open(record, "rt") as lines:
            ways = [d["how"] for d in map(json.loads, lines)
                    if d["t"] == "decision" and d["seat"] == 0]
        # "forced": the one legal option, applied without asking; nothing else stood in.
        assert "bot" in ways and set(ways) <= {"bot", "forced"}, f"{game}: {set(ways)}"
        verified = subprocess.run([sys.executable, "-m", "admiralty.cli", "replay",
                                   str(record), "--verify"],
                                  capture_output=True, text=True, timeout=120, cwd=REPO)
        assert verified.returncode == 0 and "OK" in verified.stdout, verified


def test_node_bot_plays_jamaica_and_black_fleet(node_bot, tmp_path):
    assert_plays_every_game(node_bot, "node-random", tmp_path)


def test_cpp_bot_plays_jamaica_and_black_fleet(cpp_bot, tmp_path):
    assert_plays_every_game(cpp_bot, "cpp-random", tmp_path)
