"""`admiralty tournament` refusing what it cannot do: one error line, exit 2 for a bad
request, exit 1 for a database or runner problem, and nothing stored or created."""

from __future__ import annotations

import os
import socket
import sqlite3

import pytest
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.tournament import Runner, Store, Tournament, plan_matches
from admiralty.tournament import store as store_module

BOTS = ["--bot", "a.py", "--bot", "b.py"]  # never launched: every case fails before


def admiralty(*args: str, answer: str | None = None):
    return CliRunner().invoke(app, list(args), input=answer)


def error_of(result) -> str:
    """The whole of stderr as one line: a wrapped message joined, anything else kept."""
    return " ".join(result.stderr.split())


def stored(tmp_path, runner: Runner | None = None) -> Store:
    """A database holding tournament "cup" (two matches, records in tmp/rec)."""
    store = Store(tmp_path / "t.db", create=True)
    tournament = Tournament(
        "cup", "jamaica", 2, 1, 5, {"records": str(tmp_path / "rec")}, ("a.py", "b.py"), ("a", "b")
    )
    runner = runner or Runner(os.getpid(), socket.gethostname(), "2030-01-01T10:00:00+00:00")
    store.create(tournament, plan_matches("cup", 2, 2, 1, 5), runner)
    store.release_lease("cup", runner)
    return store


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["-o", "round_cap=abc"],
            'jamaica option round_cap takes an integer from 1 to 1000, got "abc"',
        ),
        (
            ["-o", "round_cap=1e9"],
            "jamaica option round_cap takes an integer from 1 to 1000, got 1000000000.0",
        ),
        (
            ["-o", "sails=3"],
            "unknown jamaica option(s) ['sails']; known: allow_dump_same_kind, "
            "give_any_treasure, round_cap",
        ),
        (["--seed", "-1"], "--seed must be a whole number from 0 to 2**256"),
        (["--seed", str(2**256 + 1)], "--seed must be a whole number from 0 to 2**256"),
        (["--rating", "elo"], "unknown rating system 'elo'; choose trueskill, openskill"),
        (["--tau", "-0.5"], "--tau must be 0 or more, not -0.5"),
        (
            ["--players", "3"],
            "cannot seat 3 players from a pool of 2 bots; add 1 --bot or use --players 2",
        ),
        (["--players", "7"], "jamaica is played by 2 to 6 players, not 7"),
        (
            ["--bot", "a.py"],
            "each --bot must be different; run a bot twice with different "
            "arguments (e.g. --seed) to enter it twice",
        ),
    ],
)
def test_a_bad_request_is_one_line_exit_2_and_creates_nothing(tmp_path, args, message):
    db = tmp_path / "t.db"
    result = admiralty("tournament", "run", "jamaica", *BOTS, "--db", str(db), *args)
    assert (result.exit_code, error_of(result)) == (2, f"error: {message}")
    assert not db.exists()


def test_an_unknown_game_is_a_bad_request(tmp_path):
    result = admiralty("tournament", "run", "chess", *BOTS, "--db", str(tmp_path / "t.db"))
    assert result.exit_code == 2
    assert error_of(result) == (
        "error: unknown game 'chess'; known games: black_fleet, blackbeard, jamaica"
    )


@pytest.mark.parametrize(
    "command", [["resume", "cup"], ["show", "cup"], ["delete", "cup", "--yes"]]
)
def test_a_missing_database_is_reported_and_not_created(tmp_path, command):
    db = tmp_path / "typo.db"
    result = admiralty("tournament", *command, "--db", str(db))
    assert (result.exit_code, error_of(result)) == (1, f"error: no database {db}")
    assert not db.exists()


@pytest.mark.parametrize("command", [["resume", "cup"], ["show", "cup"], ["run", "jamaica", *BOTS]])
def test_a_file_that_is_not_a_database_is_one_line(tmp_path, command):
    db = tmp_path / "notes.db"
    db.write_bytes(b"not sqlite at all\n" * 100)
    result = admiralty("tournament", *command, "--db", str(db))
    assert (result.exit_code, error_of(result)) == (1, f"error: {db} is not an SQLite database")


def test_a_database_of_an_older_version_is_one_line(tmp_path):
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE tournaments (name TEXT, seed INTEGER)")
    result = admiralty("tournament", "show", "cup", "--db", str(db))
    assert result.exit_code == 1
    assert error_of(result) == (
        f"error: {db} was written by an older version of admiralty "
        "(schema 0; this one reads 1); use another --db"
    )


def test_a_locked_database_is_one_line(tmp_path, monkeypatch):
    stored(tmp_path).close()
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.05)
    other = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        result = admiralty("tournament", "resume", "cup", "--db", str(tmp_path / "t.db"))
    finally:
        other.execute("ROLLBACK")
    assert result.exit_code == 1
    assert error_of(result) == (
        f"error: database {tmp_path / 't.db'} is locked by another "
        "process; try again when it is done"
    )


def test_an_unknown_tournament_names_the_known_ones(tmp_path):
    stored(tmp_path).close()
    result = admiralty("tournament", "resume", "cop", "--db", str(tmp_path / "t.db"))
    assert result.exit_code == 1
    assert error_of(result) == f"error: no tournament 'cop' in {tmp_path / 't.db'}; known: cup"


def test_a_taken_name_is_refused_before_any_bot_is_launched(tmp_path):
    stored(tmp_path).close()
    result = admiralty(
        "tournament", "run", "jamaica", *BOTS, "--name", "cup", "--db", str(tmp_path / "t.db")
    )
    assert result.exit_code == 1
    assert error_of(result) == (
        f"error: tournament 'cup' already exists in {tmp_path / 't.db'}"
        "; resume it or choose another --name"
    )


def test_a_second_runner_is_refused_naming_the_first(tmp_path):
    holder = Runner(os.getppid(), socket.gethostname(), "2030-01-01T10:00:00+00:00")
    store = stored(tmp_path)
    store.take_lease("cup", holder)
    for command in (["resume", "cup"], ["delete", "cup", "--yes"]):
        result = admiralty("tournament", *command, "--db", str(tmp_path / "t.db"))
        assert result.exit_code == 1
        assert error_of(result) == (
            f"error: tournament 'cup' is being run by pid "
            f"{os.getppid()} on {holder.host} since {holder.started}"
        )
    assert store.tournament("cup").name == "cup"


def test_delete_asks_first_and_leaves_the_records(tmp_path):
    stored(tmp_path).close()
    db = str(tmp_path / "t.db")
    kept = admiralty("tournament", "delete", "cup", "--db", db, answer="n\n")
    assert kept.exit_code == 1
    assert "Delete tournament cup (0 of 2 matches played)" in kept.stdout
    assert Store(tmp_path / "t.db").tournament("cup").name == "cup"
    deleted = admiralty("tournament", "delete", "cup", "--db", db, answer="y\n")
    assert deleted.exit_code == 0, deleted.stderr
    assert deleted.stdout.splitlines()[-1] == (
        f"deleted tournament cup; its records are left in {tmp_path / 'rec' / 'cup'}"
    )
    shown = admiralty("tournament", "show", "cup", "--db", db)
    assert error_of(shown) == f"error: no tournament 'cup' in {db}"


def test_delete_yes_does_not_ask(tmp_path):
    stored(tmp_path).close()
    result = admiralty("tournament", "delete", "cup", "--db", str(tmp_path / "t.db"), "--yes")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("deleted tournament cup")
