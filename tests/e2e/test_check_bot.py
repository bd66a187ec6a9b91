"""`admiralty check-bot`: the example bots pass, and a bot broken in one way fails exactly
the check that names its fault."""

from __future__ import annotations

import subprocess
import sys

import pytest
from cli_check import (
    FEWER_MATCHES,
    JAMAICA_ONLY,
    NO_AUTO_PASS,
    assert_conforms,
    check_bot,
    reasons,
    results,
)
from e2e_helpers import RANDOM_BOT, REPO, TEST_BOTS

from admiralty.games import GAMES
from admiralty.referee.conformance import CHECKS

EXAMPLES = REPO / "example_bots"


def test_the_random_bot_passes_every_check_in_every_game():
    report = assert_conforms(RANDOM_BOT, "random", NO_AUTO_PASS, *FEWER_MATCHES)
    assert report["games"] == list(GAMES)  # its Hello lists no game: every game is played
    assert [check["id"] for check in report["checks"]] == list(CHECKS)
    why = reasons(report)
    assert "p95" in why["deadline"] and "2000 ms deadline" in why["deadline"]
    assert "2 at a time" in why["concurrent-matches"]
    assert "2 seats each" in why["concurrent-seats"]


def test_the_jamaica_greedy_bot_is_checked_in_jamaica_only_on_three_matches_by_default():
    report = assert_conforms(str(EXAMPLES / "jamaica_greedy.py"), "jamaica-greedy", JAMAICA_ONLY)
    assert report["games"] == ["jamaica"]
    assert "3 at a time" in reasons(report)["concurrent-matches"]


def test_the_black_fleet_greedy_bot_is_never_asked_interrupt_or_sealed_windows():
    assert_conforms(
        str(EXAMPLES / "black_fleet_greedy.py"),
        "black-fleet-greedy",
        {
            "legal-index:interrupt": "black_fleet opens no INTERRUPT window",
            "legal-index:sealed": "black_fleet opens no SEALED window",
            **NO_AUTO_PASS,
        },
        *FEWER_MATCHES,
    )


@pytest.mark.parametrize(
    ("bot", "options", "failing", "reason"),
    [
        ("wrong_id_bot.py", (), "request-id-echo", "echoed another request id, e.g. answered"),
        ("interrupt_illegal_bot.py", (), "legal-index:interrupt", "no legal option, e.g. option"),
        ("late_bot.py", ("--deadline", "0.5"), "deadline", "not answered in time; p95"),
        ("match_over_bot.py", (), "match-over", "lost my notes of this match"),
    ],
)
def test_a_broken_bot_fails_exactly_its_check(bot, options, failing, reason):
    code, report = check_bot(str(TEST_BOTS / bot), *options)
    assert code == 1
    expected = dict.fromkeys(CHECKS, "PASS") | dict.fromkeys(JAMAICA_ONLY, "NOT EXERCISED")
    assert results(report) == expected | {failing: "FAIL"}, report
    assert reason in reasons(report)[failing]


def test_declared_auto_pass_windows_with_pass_are_never_asked():
    # The bot would answer an INTERRUPT request with PASS out of range: none comes. Jamaica
    # still asks it the INTERRUPT decisions without PASS (a defender's gunpowder, say).
    # Seed 1: its matches give the bot optional INTERRUPT windows (the last assertion
    # checks that they did, so a seed that gives none fails here rather than passing).
    code, report = check_bot(str(TEST_BOTS / "auto_pass_bot.py"), "--seed", "1")
    assert code == 0
    assert results(report) == dict.fromkeys(CHECKS, "PASS") | {"legal-index:setup": "NOT EXERCISED"}
    why = reasons(report)
    assert "declares INTERRUPT: the referee passed for it" in why["auto-pass"]
    assert "were passed for it (auto_pass)" in why["legal-index:interrupt"]


def test_a_name_over_the_limit_fails_hello_and_nothing_is_played():
    code, report = check_bot(str(TEST_BOTS / "long_name_bot.py"))
    assert code == 1
    assert results(report) == dict.fromkeys(CHECKS, "NOT EXERCISED") | {"hello": "FAIL"}
    assert "its Hello name has 100 characters (at most 64)" in reasons(report)["hello"]


def test_the_table_names_each_check_and_sums_them_up():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "admiralty.cli",
            "check-bot",
            str(TEST_BOTS / "long_name_bot.py"),
            "--seed",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert result.returncode == 1
    assert "hello" in result.stdout and "no-crash" in result.stdout
    assert "0 passed, 1 failed, 12 not exercised · seed 3" in result.stdout


def test_a_bot_that_dies_at_start_is_one_error_line():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "admiralty.cli",
            "check-bot",
            str(TEST_BOTS / "broken_bot.py"),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith("error: bot ") and "exited with code 1" in result.stderr
    assert "admiralty/cli/" not in result.stderr  # no traceback of ours
