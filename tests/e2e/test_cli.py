"""The `admiralty` command: one clear line and a non-zero exit for every bad input."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

from e2e_helpers import RANDOM_BOT, REPO, TEST_BOTS

ADMIRALTY = [sys.executable, "-m", "admiralty.cli"]


def admiralty(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*ADMIRALTY, *args], capture_output=True, text=True, timeout=timeout, cwd=REPO
    )


def assert_one_line_error(
    result: subprocess.CompletedProcess, *fragments: str, code: int = 1
) -> None:
    """Exit code 1 for a failure, 2 for a usage mistake; one `error:` line, no traceback."""
    assert result.returncode == code, result
    assert result.stderr.startswith("error: "), result.stderr
    assert "admiralty/cli/" not in result.stderr  # no traceback of our own
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr


def test_games_lists_jamaica_with_its_player_range():
    result = admiralty("games")
    assert result.returncode == 0
    assert "jamaica" in result.stdout and "2-6" in result.stdout


def test_unknown_game():
    assert_one_line_error(
        admiralty("play", "chess", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT),
        "unknown game 'chess'",
        "jamaica",
        code=2,
    )


def test_wrong_number_of_bots():
    assert_one_line_error(
        admiralty("play", "jamaica", "--bot", RANDOM_BOT),
        "jamaica is played by 2 to 6 players, not 1",
        code=2,
    )


def test_missing_bot_file():
    assert_one_line_error(
        admiralty("play", "jamaica", "--bot", RANDOM_BOT, "--bot", "bots/nowhere.py"),
        "bot file not found: bots/nowhere.py",
    )


def test_bot_that_never_answers_hello_shows_its_stderr():
    result = admiralty(
        "play",
        "jamaica",
        "--bot",
        RANDOM_BOT,
        "--bot",
        str(TEST_BOTS / "mute_bot.py"),
        "--startup-timeout",
        "1.5",
    )
    assert_one_line_error(result, "did not answer Hello", "cannot find my model file")


def test_bot_that_dies_at_start_shows_its_exit_code_and_stderr():
    result = admiralty(
        "play", "jamaica", "--bot", RANDOM_BOT, "--bot", str(TEST_BOTS / "broken_bot.py")
    )
    assert_one_line_error(result, "exited with code 1", "my_secret_model")


def test_serve_on_a_port_in_use():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = admiralty("serve", "--port", str(port), timeout=30)
    assert_one_line_error(result, f"cannot listen on 127.0.0.1:{port}")


def test_play_json_reports_placements_and_the_record(tmp_path):
    record = tmp_path / "match.jsonl.gz"
    result = admiralty(
        "play",
        "jamaica",
        "--bot",
        RANDOM_BOT,
        "--bot",
        RANDOM_BOT,
        "--seed",
        "4",
        "--record",
        str(record),
        "--json",
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"] == "jamaica" and data["seed"] == 4
    assert sorted(p["seat"] for p in data["placements"]) == [0, 1]
    assert {p["bot"] for p in data["placements"]} == {"random"}
    assert min(p["place"] for p in data["placements"]) == 1
    assert data["incidents"] == []
    assert data["record"] == str(record) and record.exists()
    verified = admiralty("replay", str(record), "--verify")
    assert verified.returncode == 0, verified.stderr
    assert "OK" in verified.stdout
