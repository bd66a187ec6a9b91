"""Bots checked as their authors check them, through `admiralty check-bot --json`."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from e2e_helpers import REPO

from admiralty.referee.launcher import free_port

SEED = "5"
"""A fixed seed: a broken bot fails the same way on every run."""
NO_AUTO_PASS = {"auto-pass": "it declares no auto_pass kind"}
"""What a bot that plays every game and declares no auto-pass kind does not exercise."""
JAMAICA_ONLY = {"legal-index:setup": "jamaica opens no SETUP window", **NO_AUTO_PASS}
"""What a bot that plays Jamaica only and declares no auto-pass kind does not exercise."""


CHECK_BOT = (sys.executable, "-m", "admiralty.cli", "check-bot")


def check_bot(bot: str, *options: str) -> tuple[int, dict]:
    """The exit code and the --json verdict of checking `bot`."""
    argv = [*CHECK_BOT, bot, "--seed", SEED, "--json", *options]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert result.returncode in (0, 1) and result.stdout, result.stderr
    return result.returncode, json.loads(result.stdout)


def dial_in_check(
    bot: Sequence[str], key_file: Path, connections: int, *options: str
) -> tuple[int, str, str]:
    """The exit code, stdout and stderr of `check-bot --dial-in --json` checking the
    command `bot`, started once the checker says where to dial in and dialing in with
    `connections` streams."""
    port = free_port()
    argv = [*CHECK_BOT, "--dial-in", "--port", str(port), "--key-file", str(key_file)]
    checker = subprocess.Popen(
        [*argv, "--seed", SEED, "--json", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    assert checker.stderr is not None
    said = checker.stderr.readline()
    assert said.startswith(f"dial in to 127.0.0.1:{port} with key "), said
    dial = ["--dial", f"127.0.0.1:{port}", "--key-file", str(key_file)]
    with subprocess.Popen(
        [*bot, *dial, "--connections", str(connections)],
        stderr=subprocess.DEVNULL,
        cwd=REPO,
    ) as process:
        try:
            stdout, stderr = checker.communicate(timeout=120)
        finally:
            process.terminate()
            checker.kill()
    return checker.returncode, stdout, said + stderr


def check_dialing_in(
    bot: Sequence[str], key_file: Path, connections: int, *options: str
) -> tuple[int, dict]:
    """The exit code and the --json verdict of `dial_in_check`."""
    code, stdout, stderr = dial_in_check(bot, key_file, connections, *options)
    assert code in (0, 1) and stdout, stderr
    return code, json.loads(stdout)


def results(report: dict) -> dict[str, str]:
    """Check id -> PASS, FAIL or NOT EXERCISED."""
    return {check["id"]: check["result"] for check in report["checks"]}


def reasons(report: dict) -> dict[str, str]:
    return {check["id"]: check["reason"] for check in report["checks"]}


FEWER_MATCHES = ("--matches", "2")
"""Two matches per game one at a time, then two at once: every check is still made, on
fewer matches than the default three (kept where a test checks the bot itself)."""
SHORT_GAMES = ("--option", "round_cap=12")
"""Every game scored after round 12: a fifth to a third of a whole game's decisions."""
QUICK = ("--matches", "3", *SHORT_GAMES)
"""What a bot that answers at random needs to show it keeps the protocol (the random bot's
own check plays whole games). Three matches one at a time: a bot whose coin is not seeded
by the deal misses Jamaica's INTERRUPT windows in about one short match in eight, so in
all three about once in 600 checks, as seldom as in two whole games."""


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
