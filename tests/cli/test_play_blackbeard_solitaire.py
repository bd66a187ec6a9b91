"""Blackbeard solitaire through the command line: `play --players 1` against the Crown (the
table says won or lost and the margin; the record verifies) and a one-seat tournament of
the example bots on shared deals, ranked by margin."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RANDOM_BOT = str(REPO / "example_bots" / "random_bot.py")
GREEDY_BOT = str(REPO / "example_bots" / "blackbeard_greedy.py")
ENV = {**os.environ, "COLUMNS": "120"}  # the verdict is not wrapped


def admiralty(*args: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "-m", "admiralty.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        env=ENV,
    )
    assert result.returncode == 0, result.stderr
    return result


def test_one_bot_plays_against_the_crown_and_the_record_verifies(tmp_path):
    record = tmp_path / "bb.jsonl.gz"
    report = json.loads(
        admiralty(
            "play",
            "blackbeard",
            "--players",
            "1",
            "--bot",
            GREEDY_BOT,
            "--seed",
            "5",
            "--option",
            "solitaire_level=easy",
            "--record",
            str(record),
            "--json",
        ).stdout
    )
    (placement,) = report["placements"]
    assert placement["place"] == 1 and not placement["forfeited"]
    assert report["incidents"] == []
    margin = placement["score"]
    assert "OK" in admiralty("replay", str(record), "--verify").stdout

    text = admiralty(
        "play",
        "blackbeard",
        "--players",
        "1",
        "--bot",
        GREEDY_BOT,
        "--seed",
        "5",
        "--option",
        "solitaire_level=easy",
        "--record",
        str(tmp_path / "again.jsonl.gz"),
    ).stdout
    verdict = "won against the Crown" if margin >= 0 else "lost to the Crown"
    assert f"{verdict}, margin {margin:+d}" in text


def test_a_solitaire_tournament_plays_every_bot_on_the_same_deals(tmp_path):
    db = tmp_path / "t.db"
    data = json.loads(
        admiralty(
            "tournament",
            "run",
            "blackbeard",
            "--players",
            "1",
            "--bot",
            GREEDY_BOT,
            "--bot",
            RANDOM_BOT,
            "--rounds",
            "3",
            "--seed",
            "11",
            "--name",
            "solo",
            "--db",
            str(db),
            "--records",
            str(tmp_path / "records"),
            "--parallel",
            "2",
            "--json",
        ).stdout
    )
    assert data["planned"] == data["finished"] == 6 and data["deals"] == "duplicate"
    assert "TrueSkill does not apply" in data["ranking"]
    with sqlite3.connect(db) as connection:
        seeds = connection.execute(
            "SELECT round, COUNT(DISTINCT seed), COUNT(*) FROM matches GROUP BY round"
        ).fetchall()
    assert seeds == [(1, 1, 2), (2, 1, 2), (3, 1, 2)]
    rows = data["standings"]
    assert [row["matches"] for row in rows] == [3, 3]
    assert rows[0]["mean_margin"] >= rows[1]["mean_margin"]
    assert rows[1]["vs_above"]["n"] == 3
    shown = admiralty("tournament", "show", "solo", "--db", str(db)).stdout
    assert "95% CI" in shown and "TrueSkill does not apply" in shown


def test_watch_and_replay_show_the_crown_s_pieces_and_end_with_the_verdict(tmp_path):
    record = tmp_path / "watched.jsonl.gz"
    watched = admiralty(
        "play", "blackbeard", "--bot", RANDOM_BOT, "--seed", "6", "--record", str(record), "--watch"
    ).stdout
    assert "the Crown, margin" in watched
    replayed = admiralty("replay", str(record), "--speed", "0").stdout
    assert "the Crown, margin" in replayed
