"""`admiralty check-bot --dial-in`: a bot that dials in is checked by the same checks as a
served one, over the streams it opened; a broken one fails exactly the check that names
its fault, and a bot that never comes is one error line."""

from __future__ import annotations

import subprocess
import sys

import pytest
from cli_check import (
    CHECK_BOT,
    FEWER_MATCHES,
    JAMAICA_ONLY,
    NO_AUTO_PASS,
    SHORT_GAMES,
    check_dialing_in,
    dial_in_check,
    reasons,
    results,
)
from e2e_helpers import RANDOM_BOT, REPO, TEST_BOTS

from admiralty.referee.conformance import CHECKS

PASSING = dict.fromkeys(CHECKS, "PASS")


def test_the_random_bot_dialing_in_passes_every_check(tmp_path):
    code, report = check_dialing_in(
        [sys.executable, RANDOM_BOT], tmp_path / "key", 2, *FEWER_MATCHES, *SHORT_GAMES
    )
    assert code == 0, report
    assert report["name"] == "random" and report["bot"].startswith("dial-in 127.0.0.1:")
    assert results(report) == PASSING | dict.fromkeys(NO_AUTO_PASS, "NOT EXERCISED")
    why = reasons(report)
    assert "2 at a time (up to 2 in flight)" in why["concurrent-matches"]
    assert "2 seats each" in why["concurrent-seats"]
    assert "still answers Hello" in why["no-crash"]
    assert (tmp_path / "key").stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    ("bot", "failing", "reason"),
    [
        ("wrong_id_bot.py", "request-id-echo", "echoed another request id, e.g. answered"),
        ("interrupt_illegal_bot.py", "legal-index:interrupt", "no legal option, e.g. option"),
        ("match_over_bot.py", "match-over", "UNKNOWN: RuntimeError: lost my notes"),
    ],
)
def test_a_broken_bot_dialing_in_fails_exactly_its_check(bot, failing, reason, tmp_path):
    code, report = check_dialing_in([sys.executable, str(TEST_BOTS / bot)], tmp_path / "key", 3)
    assert code == 1
    expected = PASSING | dict.fromkeys(JAMAICA_ONLY, "NOT EXERCISED") | {failing: "FAIL"}
    assert results(report) == expected, report
    assert reason in reasons(report)[failing]


def test_a_bot_with_one_connection_is_not_exercised_at_once(tmp_path):
    code, report = check_dialing_in(
        [sys.executable, RANDOM_BOT],
        tmp_path / "key",
        1,
        "--connections",
        "1",
        *FEWER_MATCHES,
        *SHORT_GAMES,
    )
    assert code == 0, report
    unplayed = {"concurrent-matches": 2, "concurrent-seats": 2}
    assert results(report) == PASSING | dict.fromkeys([*NO_AUTO_PASS, *unplayed], "NOT EXERCISED")
    for check, seats in unplayed.items():
        assert reasons(report)[check] == (
            f"not played: it holds {seats} seats at once, and the bot dials in with 1 connection"
        )


def test_a_bot_with_too_few_connections_is_one_error_line(tmp_path):
    code, stdout, stderr = dial_in_check(
        [sys.executable, RANDOM_BOT], tmp_path / "key", 1, "--startup-timeout", "3"
    )
    assert code == 1 and stdout == ""
    error = stderr.strip().splitlines()[-1]
    assert error.startswith("error: the bot dialed in to 127.0.0.1:"), stderr
    assert error.endswith(
        "with 1 of the 3 connections the checks need within 3 s (start it with "
        "--connections 3, or check it with --connections 1)"
    )


def test_a_bot_whose_hello_is_refused_is_one_error_line(tmp_path):
    code, stdout, stderr = dial_in_check(
        [sys.executable, str(TEST_BOTS / "long_name_bot.py")],
        tmp_path / "key",
        3,
        "--startup-timeout",
        "3",
    )
    assert code == 1 and stdout == ""
    error = stderr.strip().splitlines()[-1]
    assert error.endswith(
        "but was not let past Hello within 3 s (its stream's status says why: a Hello over "
        "the limits, say)"
    ), stderr


def test_no_bot_dialing_in_is_one_error_line():
    result = subprocess.run(
        [*CHECK_BOT, "--dial-in", "--startup-timeout", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    said, _, error = result.stderr.strip().split("\n")
    address = said.removeprefix("dial in to ").split()[0]
    assert error == f"error: no bot dialed in to {address} within 1 s"


@pytest.mark.parametrize(
    ("options", "line"),
    [
        ((), "give a BOT to check, or --dial-in for a bot that dials in (not both)"),
        (("bot.py", "--dial-in"), "give a BOT to check, or --dial-in"),
        (("--dial-in", "--sandbox"), "--sandbox does not apply with --dial-in"),
        (("bot.py", "--key-file", "k"), "--key-file does not apply without --dial-in"),
    ],
)
def test_mixing_the_two_ways_of_checking_is_a_usage_line(options, line):
    result = subprocess.run(
        [*CHECK_BOT, *options], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert result.returncode == 2
    assert line in result.stderr and len(result.stderr.strip().splitlines()) == 1
