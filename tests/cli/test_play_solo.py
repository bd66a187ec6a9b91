"""`admiralty play --players 1`: one bot against the game's automated opponent, on the toy
one-seat game of tests/support/solo_toy.py; the result says won or lost, and the margin,
in the table, --json, --watch and the record's replay."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import solo_toy
from rich.console import Console

from admiralty.console.screen import MatchScreen, solo_verdict
from admiralty.referee.match import MatchReport, MatchSpec

REPO = Path(__file__).resolve().parents[2]
SOLO = str(REPO / "tests" / "support" / "solo_toy.py")
HASH_BOT = str(REPO / "tests" / "tournament" / "bots" / "hash_bot.py")
BEST_BOT = str(REPO / "tests" / "tournament" / "bots" / "best_card_bot.py")
ENV = {**os.environ, "COLUMNS": "120"}


def admiralty(*args: str, code: int = 0) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, SOLO, *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        env=ENV,
    )
    assert result.returncode == code, result.stderr
    return result


def test_one_bot_plays_alone_and_the_table_says_won_or_lost_and_the_margin(tmp_path):
    record = tmp_path / "m.jsonl.gz"
    data = json.loads(
        admiralty(
            "play",
            "solo_toy",
            "--players",
            "1",
            "--bot",
            BEST_BOT,
            "--seed",
            "3",
            "--record",
            str(record),
            "--json",
        ).stdout
    )
    (placement,) = data["placements"]
    assert (placement["place"], placement["bot"], placement["forfeited"]) == (1, "best", False)
    margin = placement["score"]
    assert placement["won"] is (margin >= 0)
    state = solo_toy.SoloToy().new_game(1, 3)  # the best bot takes the best of each row
    assert margin == sum(max(row) for row in state.rows) - state.target

    text = admiralty(
        "play",
        "solo_toy",
        "--players",
        "1",
        "--bot",
        BEST_BOT,
        "--seed",
        "3",
        "--record",
        str(tmp_path / "n.jsonl.gz"),
    ).stdout
    verdict = "won against the Crown" if margin >= 0 else "lost to the Crown"
    assert f"{verdict}, margin {margin:+d}" in text
    assert "margin" in text and "place" not in text

    verified = admiralty("replay", str(record), "--verify").stdout
    assert "OK" in verified
    replayed = admiralty("replay", str(record), "--speed", "0").stdout
    assert f"{verdict}, margin {margin:+d}" in replayed


def test_watch_shows_the_match_and_ends_with_the_verdict(tmp_path):
    result = admiralty(
        "play",
        "solo_toy",
        "--players",
        "1",
        "--bot",
        HASH_BOT,
        "--seed",
        "4",
        "--record",
        str(tmp_path / "w.jsonl.gz"),
        "--watch",
    )
    assert "took" in result.stdout and "the Crown, margin" in result.stdout


def test_players_must_match_the_bots():
    result = admiralty("play", "solo_toy", "--players", "2", "--bot", HASH_BOT, code=2)
    assert "--players 2 needs 2 --bot, got 1" in result.stderr
    result = admiralty("play", "jamaica", "--players", "1", "--bot", HASH_BOT, code=2)
    assert "jamaica is played by 2" in result.stderr


@pytest.mark.parametrize(
    ("margin", "forfeited", "words"),
    [
        (0, False, "won against the Crown, margin +0"),
        (5, False, "won against the Crown, margin +5"),
        (-2, False, "lost to the Crown, margin -2"),
        (3, True, "lost to the Crown, margin +3 (forfeited)"),
    ],
)
def test_the_verdict(monkeypatch, margin, forfeited, words):
    solo_toy.register(monkeypatch.setitem)
    assert solo_verdict("solo_toy", {"score": margin, "forfeited": forfeited}) == words


def test_a_game_without_a_named_opponent_is_played_against_the_automated_opponent():
    assert solo_verdict("no_such_game", {"score": 1}) == (
        "won against the automated opponent, margin +1"
    )


def test_the_screen_ends_with_the_verdict(monkeypatch):
    solo_toy.register(monkeypatch.setitem)
    screen = MatchScreen("solo_toy", {}, ["best"])
    screen.finish(
        {
            "placements": [{"seat": 0, "bot": "best", "place": 1, "score": -1, "forfeited": False}],
            "incidents": [],
        }
    )
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    console.print(screen)
    assert "lost to the Crown, margin -1" in console.export_text()


@pytest.mark.parametrize(
    ("margin", "forfeited", "won"), [(4, [], True), (0, [], True), (-3, [], False), (2, [0], False)]
)
def test_json_says_whether_the_one_seat_won_since_its_place_is_always_1(margin, forfeited, won):
    report = MatchReport(
        MatchSpec("m", "solo_toy", 1), ["best"], [1], [margin], forfeited, [], [[]], 10, 10
    )
    (placement,) = report.to_json()["placements"]
    assert (placement["place"], placement["won"]) == (1, won)


def test_a_match_of_several_seats_reports_places_only():
    report = MatchReport(
        MatchSpec("m", "jamaica", 1), ["a", "b"], [2, 1], [-3, 5], [], [], [[], []], 10, 10
    )
    assert all("won" not in placement for placement in report.to_json()["placements"])
