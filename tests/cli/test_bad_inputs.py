"""A bad number, address or records folder is one line, before any bot starts or anything
is stored: times that are infinite, not a number, zero or negative would hang a match or
break its clock, an address that is none is not a port in use, and records that cannot be
written would fail the first match of a stored tournament."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.tournament import Runner, Settings, Store, Tournament, plan_matches

NO_BOTS = ["--bot", "missing_a.py", "--bot", "missing_b.py"]
"""Bots that would fail to start: a refusal must come before anything is launched."""


def invoke(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("value", ["inf", "nan", "0", "-1", "1e400"])
@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["play", "jamaica", *NO_BOTS], "--deadline"),
        (["play", "jamaica", *NO_BOTS], "--time-bank"),
        (["play", "jamaica", *NO_BOTS], "--startup-timeout"),
        (["tournament", "run", "jamaica", *NO_BOTS], "--deadline"),
        (["tournament", "run", "jamaica", *NO_BOTS], "--time-bank"),
        (["tournament", "run", "jamaica", *NO_BOTS], "--startup-timeout"),
        (["tournament", "resume", "nowhere"], "--startup-timeout"),
        (["check-bot", "missing_a.py"], "--deadline"),
        (
            ["match", "create", "jamaica", "--bot", "127.0.0.1:1", "--bot", "127.0.0.1:2"],
            "--deadline",
        ),
    ],
)
def test_a_time_that_is_not_a_positive_finite_number_is_one_line(command, option, value):
    result = invoke(*command, option, value)
    shown = f"{float(value):g}"
    least = "0.1" if option == "--startup-timeout" else "0.001"
    assert (result.exit_code, result.output) == (
        2,
        f"error: {option} {shown}: give a number from {least} to 86400\n",
    )


@pytest.mark.parametrize(
    ("command", "option", "value"),
    [
        (["play", "jamaica", *NO_BOTS], "--delay", "nan"),
        (["play", "jamaica", *NO_BOTS], "--delay", "-0.5"),
        (["replay", "missing.jsonl.gz"], "--speed", "inf"),
    ],
)
def test_a_pace_must_be_a_finite_number_of_zero_or_more(command, option, value):
    result = invoke(*command, option, value)
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {option} {float(value):g}: give a number from 0 ")
    assert result.output.count("\n") == 1


@pytest.mark.parametrize(
    ("host", "error"),
    [
        ("999.1.1.1", "not a valid IP address"),
        ("1.2.3", "not a valid IP address"),
        ("[::99999]", "not a valid IP address"),
        ("no-such-host.invalid", "no such host name"),
    ],
)
def test_serve_on_an_address_that_is_none_says_so(host, error):
    result = invoke("serve", "--host", host, "--port", "1")
    assert (result.exit_code, result.output) == (2, f"error: --host {host}: {error}\n")


def unwritable(tmp_path):
    """A records folder that cannot be made: its parent is a file."""
    (tmp_path / "file").write_text("")
    return tmp_path / "file" / "records"


def test_a_tournament_whose_records_cannot_be_written_is_refused_before_it_is_stored(tmp_path):
    db = tmp_path / "t.db"
    result = invoke(
        "tournament",
        "run",
        "jamaica",
        *NO_BOTS,
        "--name",
        "cup",
        "--db",
        str(db),
        "--records",
        str(unwritable(tmp_path)),
    )
    assert (result.exit_code, result.output) == (
        2,
        f"error: cannot write the match records in {unwritable(tmp_path) / 'cup'}: "
        f"{tmp_path / 'file'} is not a directory\n",
    )
    assert not db.exists()


def test_resume_refuses_records_it_cannot_write_and_leaves_the_tournament_as_it_was(tmp_path):
    db = tmp_path / "t.db"
    store = Store(db, create=True)
    settings = Settings(records=str(unwritable(tmp_path))).to_json()
    store.create(
        Tournament("cup", "jamaica", 2, 1, 5, settings, ("a.py", "b.py"), ("a", "b")),
        plan_matches("cup", 2, 2, 1, 5),
        Runner(os.getpid(), "elsewhere", "then"),
    )
    store.release_lease("cup", Runner(os.getpid(), "elsewhere", "then"))
    result = invoke("tournament", "resume", "cup", "--db", str(db))
    assert (result.exit_code, result.output) == (
        1,
        f"error: cannot write the match records in {unwritable(tmp_path) / 'cup'}: "
        f"{tmp_path / 'file'} is not a directory\n",
    )
    assert [row.state for row in store.summaries()] == ["stopped"]  # no lease taken


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[Path]:
    """`folder`, made and not writable by this process: read-only for a user, immutable
    (`chattr +i`) for root, who may write in any directory otherwise."""
    folder.mkdir(mode=0o500)
    if os.geteuid() != 0:
        yield folder
        return
    subprocess.run(["chattr", "+i", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_a_records_folder_without_write_permission_is_refused(tmp_path):
    with locked(tmp_path / "locked"):
        result = invoke(
            "tournament",
            "run",
            "jamaica",
            *NO_BOTS,
            "--name",
            "cup",
            "--db",
            str(tmp_path / "t.db"),
            "--records",
            str(tmp_path / "locked" / "records"),
        )
    assert (result.exit_code, result.output) == (
        2,
        f"error: cannot write the match records in {tmp_path / 'locked' / 'records' / 'cup'}"
        f": {tmp_path / 'locked'} is not writable\n",
    )


@pytest.mark.parametrize(
    ("option", "error"),
    [
        ("nope=1", "no game has an option 'nope' (admiralty games GAME)"),
        ("round_cap=0", "black_fleet option round_cap takes an integer from 1 to 1000, got 0"),
        ("round_cap", "--option takes name=value, got 'round_cap'"),
    ],
)
def test_a_check_bot_option_no_game_takes_is_one_line_before_the_bot_starts(option, error):
    result = invoke("check-bot", "missing_a.py", "--option", option)
    assert (result.exit_code, result.output) == (2, f"error: {error}\n")
