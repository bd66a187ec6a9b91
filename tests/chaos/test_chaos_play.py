"""Adversarial bot processes in `admiralty play --json`: the match always finishes, with
exactly the incidents the fault calls for, the failing seat placed last when it stopped
playing, a record that verifies, and no bot's huge string in the output or the record."""

from __future__ import annotations

import pytest
from chaos_helpers import (
    BIG_NAME_BOT,
    EXPECTED,
    assert_no_long_run,
    chaos,
    check_match,
    play_json,
    run_cli,
    seat_fault,
)
from e2e_helpers import RANDOM_BOT

from admiralty.referee import read_record

CASES = {
    "hang": (chaos("hang"), ["--deadline", "1.5"]),
    "crash-decide": (chaos("crash-decide", "--after", "5"), []),
    "crash-over": (chaos("crash-over"), []),
    "garbage": (chaos("garbage"), []),
    "stale": (chaos("stale"), []),
    "huge": (chaos("huge"), []),
    "slow-hello": (chaos("slow-hello", "--delay", "1.5"), ["--startup-timeout", "6"]),
    "under-deadline": (
        chaos("under-deadline", "--margin", "0.5", "--slow", "4"),
        ["--deadline", "1.5"],
    ),
    "bounce": (chaos("bounce", "--after", "5"), []),
}


@pytest.mark.parametrize("fault", sorted(CASES))
def test_a_faulty_bot_gets_exactly_its_incidents_in_play(tmp_path, fault):
    bot, extra = CASES[fault]
    report = play_json(tmp_path, "jamaica", [bot, RANDOM_BOT], *extra)
    places = [p["place"] for p in report["placements"]]
    kinds = check_match([fault, "none"], places, report["incidents"])
    assert set(kinds) == EXPECTED[fault].kinds
    assert report["placements"][0]["forfeited"] is EXPECTED[fault].retired
    if fault == "stale":  # the 60,000-character id shows as a short prefix
        assert all(len(i["detail"]) < 120 for i in report["incidents"])
    if fault == "bounce":  # its 5th request was answered by the server that came back
        (fifth,) = [
            line
            for line in read_record(report["record"])
            if line["t"] == "decision" and line["seat"] == 0 and line["request_id"] == "5"
        ]
        assert fifth["how"] == "bot" and fifth["latency_ms"] >= 50


def test_two_failing_seats_of_a_black_fleet_match_share_the_last_places(tmp_path):
    """A hung seat and a crashed seat are both placed after the one still playing (ranked
    between themselves by the game, so they may tie)."""
    bots = [chaos("hang"), RANDOM_BOT, chaos("crash-decide", "--after", "3")]
    report = play_json(tmp_path, "black_fleet", bots, "--deadline", "1.5")
    places = [p["place"] for p in report["placements"]]
    kinds = check_match([seat_fault(b) for b in bots], places, report["incidents"])
    assert kinds == {"timeout": 3, "crash": 1}
    assert places[1] == 1 and min(places[0], places[2]) == 2


@pytest.mark.parametrize(
    ("bot", "says"),
    [
        (chaos("crash-hello"), "exited with code 5 when asked Hello"),
        (chaos("big-name"), "was refused: its Hello is over 65,536 bytes"),
        (str(BIG_NAME_BOT), "was refused: its Hello is over 65,536 bytes"),
    ],
    ids=["crash-hello", "big-name", "big-name-sdk"],
)
def test_a_bot_failing_its_hello_stops_play_with_one_short_line(tmp_path, bot, says):
    """The 3 MB name (raw, or through the SDK, which also prints it on stderr) never
    reaches the message: a refused bot's stderr is not quoted, and no line is long."""
    result = run_cli("play", "jamaica", "--bot", bot, "--bot", RANDOM_BOT, "--json", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr[
        :500
    ]
    assert says in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr) < 300
    assert_no_long_run(result.stderr, limit=100)
