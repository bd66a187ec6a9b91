"""`admiralty arena add | remove | bots | standings | matches`: the key printed once, the
file read as tables or one JSON object, and bad input as one error line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from admiralty.arena.lobby import Registered
from admiralty.arena.store import ArenaStore, SeatResult
from admiralty.cli import app


def admiralty(*args: str, answer: str | None = None):
    return CliRunner().invoke(app, ["arena", *args], input=answer)


def error_of(result) -> str:
    return " ".join(result.stderr.split())


def played(tmp_path) -> str:
    """An arena file where alpha beat beta once and match 2 is still running."""
    db = tmp_path / "arena.db"
    store = ArenaStore(db, create=True)
    for name in ("alpha", "beta"):
        store.add(name)
        store.new_version(name, "1.0", keep=True)
    store.start(1, "jamaica", 2**100, [("beta", "1.0"), ("alpha", "1.0")], "rec/arena-1.jsonl.gz")
    store.finish(1, [SeatResult("beta", "1.0", 2, 3), SeatResult("alpha", "1.0", 1, 9)])
    store.start(2, "jamaica", 5, [("alpha", "1.0"), ("beta", "1.0")], None)
    return str(db)


def test_add_prints_the_key_once_and_it_authenticates(tmp_path):
    db = tmp_path / "new.db"
    result = admiralty("add", "alpha", "--connections", "4", "--db", str(db))
    assert result.exit_code == 0, result.output
    key = next(line for line in result.stdout.splitlines() if line.startswith("key: "))[5:]
    assert "only time the key is shown" in " ".join(result.stdout.split())
    assert ArenaStore(db).authenticate(key) == Registered("alpha", 4)
    as_json = json.loads(admiralty("add", "beta", "--db", str(db), "--json").stdout)
    assert as_json["bot"] == "beta" and as_json["connections"] == 1
    assert ArenaStore(db).authenticate(as_json["key"]) == Registered("beta", 1)


def test_bots_standings_and_matches_as_json(tmp_path):
    db = played(tmp_path)
    bots = json.loads(admiralty("bots", "--db", db, "--json").stdout)["bots"]
    assert [(b["name"], b["version"], b["removed"]) for b in bots] == [
        ("alpha", "1.0", None),
        ("beta", "1.0", None),
    ]
    standings = json.loads(admiralty("standings", "--db", db, "--json").stdout)["standings"]
    assert [(s["rank"], s["bot"], s["games"]) for s in standings] == [
        (1, "alpha", 1),
        (2, "beta", 1),
    ]
    assert standings[0]["mu"] > standings[1]["mu"]
    matches = json.loads(admiralty("matches", "--db", db, "--json").stdout)["matches"]
    assert [(m["id"], m["status"]) for m in matches] == [(2, "running"), (1, "finished")]
    assert matches[1]["seed"] == str(2**100)
    assert [(r["bot"], r["place"], r["score"]) for r in matches[1]["results"]] == [
        ("beta", 2, 3),
        ("alpha", 1, 9),
    ]
    last = json.loads(admiralty("matches", "--db", db, "--last", "1", "--json").stdout)
    assert [m["id"] for m in last["matches"]] == [2]


def test_the_tables_show_what_the_file_holds(tmp_path):
    db = played(tmp_path)
    standings = admiralty("standings", "--db", db).stdout.splitlines()
    assert standings[0].split() == ["rank", "bot", "version", "mu", "sigma", "mu-3σ", "games"]
    assert [line.split()[:2] for line in standings[1:]] == [["1", "alpha"], ["2", "beta"]]
    matches = admiralty("matches", "--db", db).stdout.split()
    assert matches[:5] == ["match", "status", "started", "seats", "record"]
    assert matches[5:7] == ["2", "running"] and "finished" in matches
    for word in ("beta", "#2", "(3),", "alpha", "#1", "(9)", "rec/arena-1.jsonl.gz"):
        assert word in matches
    assert admiralty("bots", "--db", db).stdout.split()[6:8] == ["alpha", "1"]


def test_remove_revokes_the_key_and_keeps_the_history(tmp_path):
    db = tmp_path / "arena.db"
    key = ArenaStore(db, create=True).add("alpha")
    assert admiralty("remove", "alpha", "--db", str(db), answer="n\n").exit_code == 1
    assert ArenaStore(db).authenticate(key) == Registered("alpha", 1)
    result = admiralty("remove", "alpha", "--db", str(db), "--yes", "--json")
    assert json.loads(result.stdout) == {"removed": "alpha", "db": str(db)}
    assert ArenaStore(db).authenticate(key) is None
    bots = json.loads(admiralty("bots", "--db", str(db), "--json").stdout)["bots"]
    assert bots[0]["name"] == "alpha" and bots[0]["removed"] is not None


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["remove", "ghost", "--yes"], 1, "error: no bot 'ghost' in"),
        (["add", "alpha"], 1, "error: bot 'alpha' already exists in"),
        (["add", "bad\x07name"], 2, "error: bot name 'bad\\x07name': use printable characters"),
        (["add", "x" * 65], 2, "is over 64 characters"),
    ],
)
def test_bad_input_is_one_error_line(tmp_path, args, code, message):
    db = played(tmp_path)
    result = admiralty(*args, "--db", db)
    assert result.exit_code == code, result.output
    assert message in error_of(result)
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["bots", "standings", "matches", "remove"])
def test_a_missing_or_foreign_database_is_one_error_line(tmp_path, command):
    extra = ["alpha", "--yes"] if command == "remove" else []
    missing = admiralty(command, *extra, "--db", str(tmp_path / "nope.db"))
    assert missing.exit_code == 1
    assert error_of(missing) == f"error: no database {tmp_path / 'nope.db'}"
    assert not (tmp_path / "nope.db").exists()
    (tmp_path / "text.db").write_text("hello " * 1000)
    foreign = admiralty(command, *extra, "--db", str(tmp_path / "text.db"))
    assert foreign.exit_code == 1
    assert error_of(foreign) == f"error: {tmp_path / 'text.db'} is not an SQLite database"


def test_add_into_a_folder_that_does_not_exist_is_one_error_line(tmp_path):
    result = admiralty("add", "alpha", "--db", str(tmp_path / "no" / "arena.db"))
    assert result.exit_code == 1
    assert error_of(result).startswith("error: cannot create the database")


def test_bad_options_are_usage_errors(tmp_path):
    result = admiralty("add", "alpha", "--connections", "0", "--db", str(tmp_path / "a.db"))
    assert result.exit_code == 2
    assert not (tmp_path / "a.db").exists()
