"""Matches played as an operator plays them, through `admiralty play --json`: the bot under
test in seat 0 against the Python random bot, its record replayed with `--verify`."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from e2e_helpers import RANDOM_BOT, REPO

# Black Fleet needs three seats: the bot under test and two differently seeded random bots.
OPPONENTS = {"jamaica": [RANDOM_BOT], "black_fleet": [RANDOM_BOT, f"{RANDOM_BOT} --seed 1"]}
ROUND_CAPS = {"jamaica": 8, "black_fleet": 10}
"""Each match of `assert_plays` is scored after these rounds (the games' `round_cap`): the
bot still says Hello, answers every request of a match and is placed, in a fraction of a
whole game's time (Black Fleet's random bots play some 50 rounds). The kinds of request a
bot must handle are check-bot's to cover (`assert_conforms`)."""


def play(game: str, bot: str, record: Path, *options: str) -> dict:
    """One match with `bot` in seat 0, seed 11; the --json report."""
    argv = [
        sys.executable,
        "-m",
        "admiralty.cli",
        "play",
        game,
        "--bot",
        bot,
        *(arg for opponent in OPPONENTS[game] for arg in ("--bot", opponent)),
        "--seed",
        "11",
        "--record",
        str(record),
        "--json",
        *options,
    ]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def asked(record: Path, seat: int = 0) -> list[tuple[str, str]]:
    """(request id, how it was answered) of each decision `seat` was asked, in order."""
    with gzip.open(record, "rt") as lines:
        return [
            (d["request_id"], d["how"])
            for d in map(json.loads, lines)
            if d["t"] == "decision" and d["seat"] == seat and d["request_id"]
        ]


def assert_plays(bot: str, name: str, tmp_path: Path, games: Iterable[str] = OPPONENTS) -> None:
    """`bot` plays each game with every decision its own, no incident, and a record that
    verifies."""
    for game in games:
        record = tmp_path / f"{game}.jsonl.gz"
        report = play(game, bot, record, "--option", f"round_cap={ROUND_CAPS[game]}")
        seat = report["placements"][0]
        assert seat["seat"] == 0 and seat["bot"] == name, report  # its Hello was read
        assert not seat["forfeited"], report
        assert [i for i in report["incidents"] if i["seat"] == 0] == [], report
        # Nothing stood in for the bot ("forced" decisions, with one option, are not asked).
        assert {how for _, how in asked(record)} == {"bot"}, game
        verified = subprocess.run(
            [sys.executable, "-m", "admiralty.cli", "replay", str(record), "--verify"],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=REPO,
        )
        assert verified.returncode == 0 and "OK" in verified.stdout, verified
