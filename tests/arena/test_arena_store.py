"""The arena's SQLite file: keys stored as digests, bots removed with their history kept,
versions keeping or resetting a rating, results rated in one transaction, and a result
surviving `kill -9` while the match in flight becomes void."""

from __future__ import annotations

import hashlib
import sqlite3
import stat
import subprocess
import sys
import textwrap

import pytest

from admiralty.arena.lobby import Registered
from admiralty.arena.ratings import ArenaRater
from admiralty.arena.store import ArenaStore, SeatResult
from admiralty.tournament import Store, StoreError

SEED = 2**127 + 5


def new_store(tmp_path, *names: str) -> ArenaStore:
    """An arena file with bots `names` registered, each having played version 1.0."""
    store = ArenaStore(tmp_path / "arena.db", create=True)
    for name in names:
        store.add(name)
        store.new_version(name, "1.0", keep=True)
    return store


def play(store: ArenaStore, *seats: tuple[str, str, int]) -> int:
    """Store and finish one match of `seats` (bot, version, place); its number."""
    number = store.next_match()
    store.start(number, "jamaica", SEED, [(bot, version) for bot, version, _ in seats], None)
    store.finish(number, [SeatResult(bot, v, place, 10 - place) for bot, v, place in seats])
    return number


def test_a_key_authenticates_its_bot_only_while_the_bot_is_registered(tmp_path):
    store = ArenaStore(tmp_path / "arena.db", create=True)
    alpha, beta = store.add("alpha", connections=3), store.add("beta")
    assert alpha != beta and len(alpha) >= 43  # 32 random bytes
    assert store.authenticate(alpha) == Registered("alpha", 3)
    assert store.authenticate(beta) == Registered("beta", 1)
    assert store.authenticate(alpha[:-1]) is None
    assert store.authenticate("") is None
    store.remove("alpha")
    assert store.authenticate(alpha) is None
    assert store.authenticate(beta) == Registered("beta", 1)


def test_the_file_holds_a_keys_digest_never_the_key(tmp_path):
    store = ArenaStore(tmp_path / "arena.db", create=True)
    key = store.add("alpha")
    store.close()
    with sqlite3.connect(tmp_path / "arena.db") as db:
        stored = db.execute("SELECT key FROM bots").fetchone()[0]
    assert stored == hashlib.sha256(key.encode()).hexdigest()
    assert key.encode() not in (tmp_path / "arena.db").read_bytes()


def test_the_file_is_private_and_in_wal_mode(tmp_path):
    new_store(tmp_path, "alpha").close()
    assert stat.S_IMODE((tmp_path / "arena.db").stat().st_mode) == 0o600
    with sqlite3.connect(tmp_path / "arena.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_removed_bot_keeps_its_name_and_history_but_leaves_the_standings(tmp_path):
    store = new_store(tmp_path, "alpha", "beta")
    number = play(store, ("alpha", "1.0", 1), ("beta", "1.0", 2))
    store.remove("beta")
    assert [s.name for s in store.standings()] == ["alpha"]
    assert store.active() == {"alpha"}
    assert [b.name for b in store.bots()] == ["alpha", "beta"]
    assert store.bots()[1].removed is not None
    assert [r.bot for r in store.matches()[0].results] == ["alpha", "beta"]
    assert store.matches()[0].id == number
    with pytest.raises(StoreError, match=r"bot 'beta' already exists in .* \(removed "):
        store.add("beta")
    with pytest.raises(StoreError, match="bot 'beta' was removed already"):
        store.remove("beta")
    with pytest.raises(StoreError, match="bot 'beta' was removed from"):
        store.new_version("beta", "2.0", keep=True)


@pytest.mark.parametrize(
    ("name", "connections", "message"),
    [
        ("", 1, "use printable characters"),
        (" alpha", 1, "use printable characters"),
        ("al\x1bpha", 1, "use printable characters"),
        ("a" * 65, 1, "is over 64 characters"),
        ("alpha", 0, "connections 0: give 1 to 1000"),
    ],
)
def test_a_bad_name_or_connection_count_is_refused(tmp_path, name, connections, message):
    store = ArenaStore(tmp_path / "arena.db", create=True)
    with pytest.raises(ValueError, match=message):
        store.add(name, connections)
    assert store.bots() == []


def test_adding_a_taken_name_is_refused_and_keeps_the_first_key(tmp_path):
    store = ArenaStore(tmp_path / "arena.db", create=True)
    key = store.add("alpha")
    with pytest.raises(StoreError, match=r"bot 'alpha' already exists in .*arena\.db$"):
        store.add("alpha")
    assert store.authenticate(key) == Registered("alpha", 1)


def test_a_missing_file_or_a_tournament_database_is_refused(tmp_path):
    with pytest.raises(StoreError, match="no database"):
        ArenaStore(tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()
    Store(tmp_path / "t.db", create=True).close()
    with pytest.raises(StoreError, match="is not an arena database"):
        ArenaStore(tmp_path / "t.db")
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="is not an SQLite database"):
        ArenaStore(tmp_path / "junk.db")


def test_a_finished_match_is_stored_and_rated_at_once(tmp_path):
    store = new_store(tmp_path, "alpha", "beta")
    number = play(store, ("beta", "1.0", 2), ("alpha", "1.0", 1))
    match = store.matches()[0]
    assert (match.id, match.status, match.seed, match.game) == (number, "finished", SEED, "jamaica")
    assert match.players == [("beta", "1.0"), ("alpha", "1.0")]
    assert [(r.bot, r.place, r.score) for r in match.results] == [("beta", 2, 8), ("alpha", 1, 9)]
    initial = ArenaRater().initial()
    expected = ArenaRater().rate([initial, initial], [2, 1])
    standings = {s.name: s for s in store.standings()}
    assert standings["alpha"].skill == expected[1]
    assert standings["beta"].skill == expected[0]
    assert [s.name for s in store.standings()] == ["alpha", "beta"]
    assert standings["alpha"].games == 1
    assert store.seat_games() == {("beta", 0): 1, ("alpha", 1): 1}
    with pytest.raises(StoreError, match=f"match {number} is not running"):
        store.finish(number, match.results)


def test_a_void_match_is_never_rated(tmp_path):
    store = new_store(tmp_path, "alpha", "beta")
    store.start(1, "jamaica", SEED, [("alpha", "1.0"), ("beta", "1.0")], None)
    store.void(1)
    assert store.matches()[0].status == "void"
    assert all(s.games == 0 for s in store.standings())
    with pytest.raises(StoreError, match="match 1 is not running"):
        store.finish(1, [SeatResult("alpha", "1.0", 1, 0), SeatResult("beta", "1.0", 2, 0)])


def test_a_new_version_keeps_or_resets_the_rating_as_the_operator_chose(tmp_path):
    store = new_store(tmp_path, "alpha", "beta")
    for _ in range(3):
        play(store, ("alpha", "1.0", 1), ("beta", "1.0", 2))
    before = {s.name: s.skill for s in store.standings()}
    assert store.new_version("alpha", "2.0", keep=True) is True
    assert store.new_version("beta", "2.0", keep=False) is True
    after = {s.name: s for s in store.standings()}
    assert after["alpha"].skill == before["alpha"] and after["alpha"].version == "2.0"
    assert after["beta"].skill == ArenaRater().initial()
    assert after["alpha"].games == after["beta"].games == 0
    play(store, ("alpha", "2.0", 2), ("beta", "2.0", 1))
    # taking an old version up again brings back its own rating
    assert store.new_version("beta", "1.0", keep=False) is False
    assert {s.name: s.skill for s in store.standings()}["beta"] == before["beta"]
    assert [b.versions for b in store.bots()] == [2, 2]


def test_matches_come_newest_first_with_their_own_results(tmp_path):
    store = new_store(tmp_path, "alpha", "beta", "gamma")
    play(store, ("alpha", "1.0", 1), ("beta", "1.0", 2))
    store.start(2, "jamaica", 7, [("gamma", "1.0"), ("alpha", "1.0")], "rec/arena-2.jsonl.gz")
    play(store, ("gamma", "1.0", 1), ("beta", "1.0", 1))
    latest = store.matches(last=2)
    assert [(m.id, m.status) for m in latest] == [(3, "finished"), (2, "running")]
    assert [(r.bot, r.place) for r in latest[0].results] == [("gamma", 1), ("beta", 1)]
    assert latest[1].results == [] and latest[1].record == "rec/arena-2.jsonl.gz"
    assert [m.id for m in store.matches()] == [3, 2, 1]
    assert [m.id for m in store.matches(last=2, skip=1)] == [2, 1]


def test_activity_counts_the_current_versions_first_places_and_the_latest_end(tmp_path):
    store = new_store(tmp_path, "alpha", "beta", "gamma")
    play(store, ("alpha", "1.0", 1), ("beta", "1.0", 2))
    store.new_version("alpha", "2.0", keep=True)
    play(store, ("alpha", "2.0", 1), ("beta", "1.0", 1))  # a shared first place
    last = play(store, ("alpha", "2.0", 2), ("beta", "1.0", 1))
    ended = next(m.finished for m in store.matches() if m.id == last)
    activity = store.activity()
    assert activity == {"alpha": (1, ended), "beta": (2, ended)}  # gamma never played


def test_a_match_of_another_game_is_refused(tmp_path):
    store = new_store(tmp_path, "alpha", "beta")
    play(store, ("alpha", "1.0", 1), ("beta", "1.0", 2))
    store.check_game("jamaica")
    with pytest.raises(StoreError, match="holds an arena of jamaica, not black_fleet"):
        store.check_game("black_fleet")


KILLED = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from admiralty.arena.store import ArenaStore, SeatResult

    store = ArenaStore(Path(sys.argv[1]))
    store.start(1, "jamaica", 3, [("alpha", "1.0"), ("beta", "1.0")], None)
    store.start(2, "jamaica", 4, [("beta", "1.0"), ("alpha", "1.0")], None)
    store.finish(2, [SeatResult("beta", "1.0", 1, 5), SeatResult("alpha", "1.0", 2, 3)])
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


def test_kill_9_right_after_a_result_loses_nothing_and_the_match_in_flight_is_void(tmp_path):
    new_store(tmp_path, "alpha", "beta").close()
    killed = subprocess.run([sys.executable, "-c", KILLED, str(tmp_path / "arena.db")])
    assert killed.returncode == -9
    store = ArenaStore(tmp_path / "arena.db")
    assert [(m.id, m.status) for m in store.matches()] == [(2, "finished"), (1, "running")]
    assert {s.name: s.games for s in store.standings()} == {"alpha": 1, "beta": 1}
    assert store.void_unfinished() == 1
    assert [(m.id, m.status) for m in store.matches()] == [(2, "finished"), (1, "void")]
    assert [r.bot for r in store.matches()[0].results] == ["beta", "alpha"]
