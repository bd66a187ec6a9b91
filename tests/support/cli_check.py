"""Bots checked as their authors check them, through `admiralty check-bot --json`."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping

from e2e_helpers import REPO

SEED = "5"
"""A fixed seed: a broken bot fails the same way on every run."""
NO_AUTO_PASS = {"auto-pass": "it declares no auto_pass kind"}
"""What a bot that plays every game and declares no auto-pass kind does not exercise."""


def check_bot(bot: str, *options: str) -> tuple[int, dict]:
    """The exit code and the --json verdict of checking `bot`."""
    argv = [
        sys.executable,
        "-m",
        "admiralty.cli",
        "check-bot",
        bot,
        "--seed",
        SEED,
        "--json",
        *options,
    ]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert result.returncode in (0, 1) and result.stdout, result.stderr
    return result.returncode, json.loads(result.stdout)


def results(report: dict) -> dict[str, str]:
    """Check id -> PASS, FAIL or NOT EXERCISED."""
    return {check["id"]: check["result"] for check in report["checks"]}


def reasons(report: dict) -> dict[str, str]:
    return {check["id"]: check["reason"] for check in report["checks"]}


FEWER_MATCHES = ("--matches", "2")
"""Two matches per game one at a time, then two at once: every check is still made, on
fewer matches than the default three (kept where a test checks the bot itself)."""


def assert_conforms(bot: str, name: str, not_exercised: Mapping[str, str], *options: str) -> dict:
    """`bot` passes every check but those of `not_exercised`, each NOT EXERCISED for a
    reason that contains the text given; returns the verdict."""
    code, report = check_bot(bot, *options)
    assert code == 0, report
    assert report["name"] == name, report
    for check in report["checks"]:
        expected = "NOT EXERCISED" if check["id"] in not_exercised else "PASS"
        assert check["result"] == expected, check
        assert not_exercised.get(check["id"], "") in check["reason"], check
    return report
