"""The SQLite store: private, versioned files, 128-bit seeds, the runner lease (and the
state `tournament list` shows from it), delete, and database trouble as one StoreError
line."""

from __future__ import annotations

import json
import socket
import sqlite3
import stat
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.tournament import Result, Runner, Store, StoreError, Tournament, plan_matches
from admiralty.tournament import store as store_module
from admiralty.tournament.runner import summaries

SEED = 2**200 + 7
HOST = socket.gethostname()
A = Runner(101, HOST, "2030-01-01T10:00:00+00:00")
B = Runner(202, HOST, "2030-01-01T11:00:00+00:00")


def alive(pid: int) -> bool:
    return True


def dead(pid: int) -> bool:
    return False


def new_store(tmp_path, runner: Runner = A) -> Store:
    store = Store(tmp_path / "t.db", create=True)
    tournament = Tournament(
        "cup", "jamaica", 2, 1, SEED, {"records": "rec"}, ("a.py", "b.py"), ("a", "b")
    )
    store.create(tournament, plan_matches("cup", 2, 2, 1, SEED), runner)
    return store


def test_a_new_database_and_its_wal_files_are_readable_by_the_owner_only(tmp_path):
    store = new_store(tmp_path)
    for name in ("t.db", "t.db-wal", "t.db-shm"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
    store.close()
    with sqlite3.connect(tmp_path / "t.db") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION


def test_seeds_wider_than_sqlite_integers_come_back_intact(tmp_path):
    new_store(tmp_path).close()
    store = Store(tmp_path / "t.db")
    assert store.tournament("cup").seed == SEED
    assert store.plan("cup") == plan_matches("cup", 2, 2, 1, SEED)
    assert max(m.seed for m in store.plan("cup")) >= 2**64


def test_without_create_a_missing_database_is_an_error_and_is_not_created(tmp_path):
    with pytest.raises(StoreError, match=r"^no database .*nowhere\.db$"):
        Store(tmp_path / "nowhere.db")
    assert not (tmp_path / "nowhere.db").exists()


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("these are not the tables you are looking for\n" * 50)
    with pytest.raises(StoreError, match=r"notes\.txt is not an SQLite database"):
        Store(tmp_path / "notes.txt")


@pytest.mark.parametrize(("version", "age"), [(0, "an older"), (99, "a newer or unknown")])
def test_a_database_of_another_schema_version_is_refused(tmp_path, version, age):
    with sqlite3.connect(tmp_path / "old.db") as db:
        db.execute("CREATE TABLE tournaments (name TEXT PRIMARY KEY, seed INTEGER)")
        db.execute(f"PRAGMA user_version = {version}")
    with pytest.raises(
        StoreError,
        match=f"written by {age} version of admiralty \\(schema {version}; this one reads 1\\)",
    ):
        Store(tmp_path / "old.db")


def test_a_live_runner_keeps_the_lease_and_is_named(tmp_path):
    store = new_store(tmp_path)
    with pytest.raises(
        StoreError,
        match=f"^tournament 'cup' is being run by pid 101 on {HOST} since 2030-01-01T10:00:00",
    ):
        store.take_lease("cup", B, alive)


def test_a_dead_runners_lease_is_taken_over_and_released(tmp_path):
    store = new_store(tmp_path)
    store.take_lease("cup", B, dead)
    with pytest.raises(StoreError, match="being run by pid 202"):
        store.take_lease("cup", A, alive)
    store.release_lease("cup", B)
    store.take_lease("cup", A, alive)


def test_a_lease_from_another_host_is_kept_however_its_pid_looks_here(tmp_path):
    store = new_store(tmp_path, Runner(101, "elsewhere", "2030-01-01T10:00:00+00:00"))
    with pytest.raises(StoreError, match="pid 101 on elsewhere"):
        store.take_lease("cup", B, dead)


def test_a_runner_killed_with_sigkill_leaves_its_tournament_listed_as_stopped(tmp_path):
    """Its lease stays in the file, but its pid is gone: list judges it as resume does."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        store = new_store(tmp_path, Runner(process.pid, HOST, "2030-01-01T10:00:00+00:00"))
        running = [row.state for row in summaries(store)]
    finally:
        process.kill()  # SIGKILL: no chance to release the lease
        process.wait()
    listed = CliRunner().invoke(
        app, ["tournament", "list", "--json", "--db", str(tmp_path / "t.db")]
    )
    assert running == ["running"]
    assert [t["state"] for t in json.loads(listed.stdout)["tournaments"]] == ["stopped"]


def test_a_lease_from_another_host_is_listed_as_running(tmp_path):
    store = new_store(tmp_path, Runner(101, "elsewhere", "2030-01-01T10:00:00+00:00"))
    assert [row.state for row in store.summaries(dead)] == ["running"]


def test_releasing_leaves_another_runners_lease_alone(tmp_path):
    store = new_store(tmp_path)
    store.release_lease("cup", B)
    with pytest.raises(StoreError, match="pid 101"):
        store.take_lease("cup", B, alive)


def test_delete_removes_everything_of_the_tournament(tmp_path):
    store = new_store(tmp_path)
    match = store.plan("cup")[0].match_id
    store.save_result("cup", Result(match, [1, 2], [5, 3], [], [], [[1.0], [2.0]], 9, None))
    store.save_deaths("cup", A, [0, 2])
    store.delete("cup", dead)
    with pytest.raises(StoreError, match="no tournament 'cup'"):
        store.tournament("cup")
    with sqlite3.connect(tmp_path / "t.db") as db:
        for table in ("tournaments", "bots", "matches", "results", "runners", "deaths"):
            assert db.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
    new_store(tmp_path).close()  # the name is free again


def test_deaths_are_counted_per_run_and_summed(tmp_path):
    """Each run's launcher counts its bots' deaths from 0; a run saves its counts as they
    grow, and the tournament's are the sum over its runs."""
    store = new_store(tmp_path)
    store.save_deaths("cup", A, [0, 1])
    store.save_deaths("cup", A, [0, 2])  # the same run, later
    store.save_deaths("cup", B, [1, 3])  # a resumed run
    assert store.deaths("cup", 2) == [1, 5]


def test_a_new_tournament_does_not_inherit_deaths_left_by_an_older_delete(tmp_path):
    """An older admiralty deletes a tournament without knowing of the deaths table."""
    store = new_store(tmp_path)
    store.save_deaths("cup", A, [4, 0])
    with sqlite3.connect(tmp_path / "t.db") as db:
        for table in ("results", "matches", "bots", "runners", "created"):
            db.execute(f"DELETE FROM {table} WHERE tournament='cup'")
        db.execute("DELETE FROM tournaments")
    assert new_store(tmp_path).deaths("cup", 2) == [0, 0]


def test_delete_is_refused_while_a_live_runner_plays(tmp_path):
    store = new_store(tmp_path)
    with pytest.raises(StoreError, match="being run by pid 101"):
        store.delete("cup", alive)
    assert store.tournament("cup").name == "cup"


def test_a_locked_database_is_one_error(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.05)
    store = new_store(tmp_path)
    other = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreError, match=r"t\.db is locked by another process"):
            store.take_lease("cup", B, dead)
    finally:
        other.execute("ROLLBACK")
