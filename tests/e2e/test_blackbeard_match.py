"""Blackbeard over real gRPC: random bot processes play a match and a tiny tournament to the
end through the `admiralty` command, the record verifies, and no seat is ever sent another
seat's hands (DESIGN.md invariants 4-6)."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys

from e2e_helpers import RANDOM_BOT, REPO, ScriptedBot, play

ADMIRALTY = [sys.executable, "-m", "admiralty.cli"]
BOTS = [RANDOM_BOT, f"{RANDOM_BOT} --seed 1", f"{RANDOM_BOT} --seed 2"]
DEALT = {"events_dealt", "pirates_dealt", "event_drawn", "pirate_drawn"}
"""Events private to the seat dealt (its cards), each with a public twin that has no cards
(an MPI card drawn is public: it is played at once)."""


def admiralty(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*ADMIRALTY, *args], capture_output=True, text=True, timeout=300, cwd=REPO
    )


def test_three_random_bot_processes_play_a_match_whose_record_verifies(tmp_path):
    record = tmp_path / "bb.jsonl.gz"
    result = admiralty(
        "play",
        "blackbeard",
        *(a for bot in BOTS for a in ("--bot", bot)),
        "--seed",
        "5",
        "--record",
        str(record),
        "--json",
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["game"] == "blackbeard" and report["incidents"] == []
    assert sorted(p["seat"] for p in report["placements"]) == [0, 1, 2]
    assert min(p["place"] for p in report["placements"]) == 1
    assert not any(p["forfeited"] for p in report["placements"])
    verified = admiralty("replay", str(record), "--verify")
    assert verified.returncode == 0, verified.stderr
    assert "OK" in verified.stdout


def test_a_tiny_tournament_plays_every_match(tmp_path):
    db = tmp_path / "t.db"
    result = admiralty(
        "tournament",
        "run",
        "blackbeard",
        "--players",
        "2",
        "--seed",
        "3",
        "--name",
        "cup",
        "--db",
        str(db),
        "--records",
        str(tmp_path / "rec"),
        "--json",
        *(a for bot in BOTS for a in ("--bot", bot)),
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"] == "blackbeard"
    assert data["finished"] == data["planned"] == 6
    assert len(data["standings"]) == 3
    assert all(row["incidents"] == 0 for row in data["standings"])


def seeded_random(seed: int):
    rng = random.Random(seed)
    return lambda request: rng.randrange(len(request.options))


def test_a_seat_is_never_sent_another_seats_hands():
    bots = [ScriptedBot(f"b{i}", seeded_random(i)) for i in range(3)]
    report = asyncio.run(play(bots, game="blackbeard", seed=6))
    assert report.incidents == []
    for seat, bot in enumerate(bots):
        private = [e for r in bot.requests for e in r.events if list(e.audience) == [seat]]
        assert {e.kind for e in private} >= {"events_dealt", "pirates_dealt"}
        assert bot.requests and bot.requests[0].HasField("match_info")
        assert bot.requests[0].match_info.WhichOneof("board") == "blackbeard"
        assert len(bot.requests[0].match_info.blackbeard.ports) == 36
        for request in bot.requests:
            assert request.seat == seat
            assert request.WhichOneof("observation") == "blackbeard"
            observation = request.blackbeard
            assert observation.viewer == seat
            for player in observation.players:
                if player.seat == seat:
                    assert len(player.hand) == player.event_cards
                    assert len(player.pirate_hand) == player.pirate_cards
                    continue
                assert list(player.hand) == [] and list(player.pirate_hand) == []
            assert all(m.face_up or not m.HasField("id") for m in observation.merchants)
            for option in request.options:
                assert option.WhichOneof("typed") in ("blackbeard", None)
            for event in request.events:
                assert list(event.audience) in ([], [seat])
                keys = set(event.data.keys())
                if event.kind in DEALT and keys & {"card", "cards"} and "mpi" not in keys:
                    assert event.data["seat"] == seat, event
