"""One-seat tournaments end to end, through the command line, on the toy one-seat game of
tests/support/solo_toy.py: every bot on the same deals, results in SQLite, resume after
kill -9, parallel = sequential, and the margin leaderboard of `tournament show`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_tournament_run import (
    BOTS,
    ENV,
    HASH_BOT,
    REPO,
    killed_after,
    results,
    rows,
    run,
    tournament_args,
)

SOLO = str(Path(__file__).resolve().parents[1] / "support" / "solo_toy.py")
BEST_BOT = str(BOTS / "best_card_bot.py")
POOL = [BEST_BOT, HASH_BOT, f"{HASH_BOT} --seed 1"]


def admiralty(*args: str) -> list[str]:
    """The command line with the toy game registered (in its referee workers too)."""
    return [sys.executable, SOLO, *args]


def solo_args(db: Path, *extra: str) -> list[str]:
    return tournament_args(db, *extra, pool=POOL, game="solo_toy", players=1, command=admiralty)


def test_every_bot_plays_the_same_deals_and_is_ranked_by_margin(tmp_path):
    db = tmp_path / "t.db"
    data = run(solo_args(db, "--rounds", "4", "--parallel", "2"))
    assert data["planned"] == data["finished"] == 3 * 4
    assert data["deals"] == "duplicate" and "TrueSkill does not apply" in data["ranking"]
    seeds: dict[int, set[str]] = {}
    for round_, seed, seats in rows(db, "SELECT round, seed, seats FROM matches"):
        seeds.setdefault(round_, set()).add(seed)
        assert len(json.loads(seats)) == 1
    assert len(seeds) == 4 and all(len(deal) == 1 for deal in seeds.values())
    assert len(set().union(*seeds.values())) == 4

    stored = {
        match_id: (json.loads(places), json.loads(scores))
        for match_id, places, scores in results(db)
    }
    assert len(stored) == 12 and all(places == [1] for places, _ in stored.values())
    standings = data["standings"]
    assert standings[0]["bot"] == "best"  # the highest card every turn: never beaten
    # every bot played every deal, so each gap is the difference of the means: <= 0
    assert all(row["vs_above"]["mean"] <= 0 and row["vs_above"]["n"] == 4 for row in standings[1:])
    assert [row["mean_margin"] for row in standings] == sorted(
        (row["mean_margin"] for row in standings), reverse=True
    )
    by_bot = {row["bot"]: row for row in standings}
    margins = {bot: [] for bot in by_bot}
    names = ["best", "hash", "hash #2"]
    for match_id, seats in rows(db, "SELECT match_id, seats FROM matches"):
        margins[names[json.loads(seats)[0]]].append(stored[match_id][1][0])
    for bot, values in margins.items():
        assert by_bot[bot]["mean_margin"] == round(sum(values) / 4, 3)
        assert by_bot[bot]["wins"] == sum(value >= 0 for value in values)
        assert by_bot[bot]["margin_low"] <= by_bot[bot]["mean_margin"] <= by_bot[bot]["margin_high"]
    assert len(list((tmp_path / "records" / "cup").glob("*.jsonl.gz"))) == 12

    shown = run(admiralty("tournament", "show", "cup", "--db", str(db), "--json"))
    assert shown["standings"] == standings
    text = subprocess.run(
        admiralty("tournament", "show", "cup", "--db", str(db)),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        env=ENV,
    )
    assert text.returncode == 0, text.stderr
    for expected in ("margin", "95% CI", "vs above", "won", "best", "TrueSkill does not apply"):
        assert expected in text.stdout, expected
    assert "mu-3sig" not in text.stdout


def test_parallel_and_sequential_runs_rank_identically(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    sequential = run(solo_args(tmp_path / "a" / "t.db", "--rounds", "3", "--parallel", "1"))
    parallel = run(solo_args(tmp_path / "b" / "t.db", "--rounds", "3", "--parallel", "3"))

    def strip(data: dict) -> list[dict]:
        return [
            {k: v for k, v in row.items() if not k.startswith("latency")}
            for row in data["standings"]
        ]

    assert strip(sequential) == strip(parallel)
    assert results(tmp_path / "a" / "t.db") == results(tmp_path / "b" / "t.db")


def test_a_killed_one_seat_tournament_resumes_and_plays_every_match_once(tmp_path):
    db = tmp_path / "t.db"
    killed_after(solo_args(db, "--parallel", "1", "--rounds", "12"), db, 3)
    assert 3 <= len(results(db)) < 36

    data = run(admiralty("tournament", "resume", "cup", "--db", str(db), "--json"))
    assert data["planned"] == data["finished"] == 36
    finished = results(db)
    assert len({row[0] for row in finished}) == len(finished) == 36
    assert sum(row["matches"] for row in data["standings"]) == 36

    (tmp_path / "clean").mkdir()
    clean = run(solo_args(tmp_path / "clean" / "t.db", "--parallel", "2", "--rounds", "12"))
    assert finished == results(tmp_path / "clean" / "t.db")
    assert [row["mean_margin"] for row in clean["standings"]] == [
        row["mean_margin"] for row in data["standings"]
    ]


def test_fresh_deals_are_refused_for_one_seat_and_nothing_is_stored(tmp_path):
    db = tmp_path / "t.db"
    result = subprocess.run(
        solo_args(db, "--deals", "fresh"),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        env=ENV,
    )
    assert result.returncode == 2
    assert "one-seat tournament plays every bot on the same deals" in result.stderr
    assert not db.exists()
