"""Every bad input gets one line naming the problem and exit code 2 (a usage mistake) or
1 (a failure), never a traceback; partial records are shown for what they hold."""

from __future__ import annotations

import gzip
import json
import signal
import subprocess
import time

import pytest
from e2e_helpers import RANDOM_BOT, TEST_BOTS
from test_cli import ADMIRALTY, admiralty, assert_one_line_error

from admiralty.cli.serve import exposure_warning
from admiralty.referee.launcher import free_port

TWO_BOTS = ["--bot", RANDOM_BOT, "--bot", RANDOM_BOT]


@pytest.mark.parametrize(
    ("args", "code", "fragment"),
    [
        (
            ["play", "jamaica", "--bot", "/etc/passwd", "--bot", RANDOM_BOT],
            1,
            "bot file is not executable: /etc/passwd",
        ),
        (
            ["play", "jamaica", "--bot", 'python "unclosed', "--bot", RANDOM_BOT],
            1,
            "cannot be parsed",
        ),
        (
            ["play", "jamaica", *TWO_BOTS, "-o", "round_cap=abc"],
            2,
            'round_cap takes an integer from 1 to 1000, got "abc"',
        ),
        (
            ["play", "jamaica", *TWO_BOTS, "-o", "round_cap=1e9"],
            2,
            "round_cap takes an integer from 1 to 1000, got 1000000000.0",
        ),
        (["play", "jamaica", *TWO_BOTS, "-o", "no_such=1"], 2, "unknown jamaica option"),
        (["play", "jamaica", *TWO_BOTS, "-o", "round_cap"], 2, "--option takes name=value"),
        (
            ["play", "jamaica", *TWO_BOTS, "--record", "/proc/x.jsonl.gz"],
            1,
            "cannot write the record /proc/x.jsonl.gz",
        ),
    ],
)
def test_a_bad_play_request_is_one_line(args, code, fragment):
    assert_one_line_error(admiralty(*args), fragment, code=code)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["play", "jamaica", *TWO_BOTS, "--seed", "-5"], "--seed"),
        (["play", "jamaica", *TWO_BOTS, "--seed", str(2**300)], "--seed"),
        (["serve", "--port", "99999"], "--port"),
        (["serve", "--tls-cert", "cert.pem"], "TLS needs both --tls-cert and --tls-key"),
    ],
)
def test_an_out_of_range_value_is_a_usage_error(args, fragment):
    result = admiralty(*args)
    assert result.returncode == 2, result
    assert fragment in result.stderr and "Traceback" not in result.stderr


def write_record(path, lines) -> None:
    with gzip.open(path, "wt") as file:
        file.writelines(json.dumps(line) + "\n" for line in lines)


def test_replay_refuses_what_is_not_a_record(tmp_path):
    empty = tmp_path / "empty.jsonl.gz"
    write_record(empty, [])
    assert_one_line_error(admiralty("replay", str(empty), "--verify"), "the record is empty")
    plain = tmp_path / "plain.jsonl.gz"
    plain.write_text("not gzip")
    assert_one_line_error(admiralty("replay", str(plain)), "not a gzip match record")
    headless = tmp_path / "headless.jsonl.gz"
    write_record(headless, [{"t": "event"}])
    assert_one_line_error(admiralty("replay", str(headless), "--verify"), "no header line")
    assert_one_line_error(
        admiralty("replay", str(tmp_path / "missing.jsonl.gz")), "no such record", code=2
    )


def test_an_interrupted_play_leaves_a_record_that_says_so(tmp_path):
    record = tmp_path / "cut.jsonl.gz"
    slow = str(TEST_BOTS / "slow_bot.py")
    process = subprocess.Popen(
        [
            *ADMIRALTY,
            "play",
            "jamaica",
            "--bot",
            slow,
            "--bot",
            slow,
            "--seed",
            "4",
            "--record",
            str(record),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not record.exists() and time.monotonic() < deadline:  # created as play starts
        time.sleep(0.1)
    time.sleep(1.5)  # a few decisions in: each takes the slow bots 0.1 s
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "aborted" in stderr and "Traceback" not in stderr
    lines = [json.loads(line) for line in gzip.open(record, "rt")]
    assert lines[-1]["t"] == "aborted"
    assert_partial(record, "aborted", "the match was aborted")


def assert_partial(record, ending: str, said: str) -> None:
    """`replay --verify` calls the record incomplete; `replay` shows it and says why."""
    verify = admiralty("replay", str(record), "--verify")
    assert verify.returncode == 1
    assert f"incomplete: no result ({ending})" in verify.stdout
    shown = admiralty("replay", str(record), "--speed", "0")
    assert shown.returncode == 0, shown.stderr
    assert f"with no result: {said}" in shown.stdout


def test_a_record_cut_short_is_shown_up_to_its_end(tmp_path):
    whole = tmp_path / "whole.jsonl.gz"
    assert (
        admiralty(
            "play", "jamaica", *TWO_BOTS, "--seed", "5", "--record", str(whole), "--json"
        ).returncode
        == 0
    )
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(whole.read_bytes()[: len(whole.read_bytes()) // 2])
    assert_partial(cut, "truncated", "the file is cut short")


def test_serve_stops_cleanly_on_ctrl_c(tmp_path):
    port = free_port()
    process = subprocess.Popen(
        [*ADMIRALTY, "serve", "--port", str(port), "--records", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = process.stdout.readline()
    assert f"referee listening on 127.0.0.1:{port}" in first
    assert "admin token:" in process.stdout.readline()
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
    assert "stopping" in stdout
    assert "Traceback" not in stderr and "Event loop is closed" not in stderr


@pytest.mark.parametrize(
    ("host", "tls", "warned"),
    [
        ("127.0.0.1", False, False),
        ("localhost", False, False),
        ("::1", False, False),
        ("0.0.0.0", False, True),
        ("192.0.2.7", False, True),
        ("0.0.0.0", True, False),
    ],
)
def test_serve_warns_when_it_listens_beyond_this_machine_without_tls(host, tls, warned):
    warning = exposure_warning(host, tls)
    assert (warning is not None) is warned
    if warned:
        assert "without TLS" in warning and "clear text" in warning
