"""SQLite storage of tournaments: the plan before the first match, each result in one transaction.

WAL mode lets the leaderboard be read while matches are written. A result row exists
for a match exactly when the match finished, so a resumed tournament plays precisely the
planned matches that have no result. A `runners` row is the lease of the one process
playing a tournament, so two runners never play the same matches.

The database holds every seed, so it is created readable by its owner only (SQLite gives
its -wal and -shm files the same mode). Seeds are 128 bits, wider than an SQLite INTEGER,
so they are stored as decimal TEXT.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from admiralty.referee.launcher import pid_alive
from admiralty.tournament.plan import PlannedMatch

SCHEMA_VERSION = 1
"""`PRAGMA user_version` of the schema below; a database of any other version is refused."""

BUSY_TIMEOUT = 5.0
"""Seconds to wait for another process's write to finish before calling the database locked."""

SCHEMA = f"""
BEGIN IMMEDIATE;
CREATE TABLE IF NOT EXISTS tournaments (
    name TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    seed TEXT NOT NULL,             -- decimal: 128 bits or more
    settings TEXT NOT NULL          -- JSON: policy, deadline, time bank, rating, options, deals
);
CREATE TABLE IF NOT EXISTS bots (
    tournament TEXT NOT NULL REFERENCES tournaments(name),
    idx INTEGER NOT NULL,
    spec TEXT NOT NULL,             -- file, command or grpc:// address
    name TEXT,                      -- from Hello, once known
    PRIMARY KEY (tournament, idx)
);
CREATE TABLE IF NOT EXISTS matches (
    tournament TEXT NOT NULL REFERENCES tournaments(name),
    match_id TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    round INTEGER NOT NULL,
    seed TEXT NOT NULL,             -- decimal: 128 bits
    seats TEXT NOT NULL,            -- JSON: bot index per seat
    PRIMARY KEY (tournament, match_id)
);
CREATE TABLE IF NOT EXISTS results (
    tournament TEXT NOT NULL,
    match_id TEXT NOT NULL,
    places TEXT NOT NULL,           -- JSON, per seat
    scores TEXT NOT NULL,
    forfeited TEXT NOT NULL,
    incidents TEXT NOT NULL,
    latencies TEXT NOT NULL,        -- JSON: per seat, decision latencies in ms
    steps INTEGER NOT NULL,
    record TEXT,
    PRIMARY KEY (tournament, match_id),
    FOREIGN KEY (tournament, match_id) REFERENCES matches(tournament, match_id)
);
CREATE TABLE IF NOT EXISTS runners (
    tournament TEXT PRIMARY KEY REFERENCES tournaments(name),
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started TEXT NOT NULL           -- ISO 8601
);
PRAGMA user_version = {SCHEMA_VERSION};
COMMIT;
"""

ADDITIONS = {
    "created": """
        tournament TEXT PRIMARY KEY,    -- no foreign key: an older admiralty deletes without it
        at TEXT NOT NULL                -- ISO 8601, UTC
    """,
    "deaths": """
        tournament TEXT NOT NULL,       -- no foreign key, as for created
        run TEXT NOT NULL,              -- the runner that saw them: pid@host since started
        idx INTEGER NOT NULL,           -- the bot
        count INTEGER NOT NULL,         -- times a launched process of it died in that run
        PRIMARY KEY (tournament, run, idx)
    """,
}
"""Tables added within schema version 1, created when a database is opened. Older versions
of admiralty ignore them, and a tournament they stored simply has no row (created unknown),
so databases stay readable both ways."""


class StoreError(RuntimeError):
    """The database cannot do what was asked; the message says which database and why."""


@dataclass(frozen=True)
class Tournament:
    name: str
    game: str
    players: int
    rounds: int
    seed: int
    settings: dict[str, Any]
    bot_specs: tuple[str, ...]
    bot_names: tuple[str | None, ...]
    created: str | None = None
    """When the tournament was stored (ISO 8601, UTC); None if by an older admiralty, or
    not yet stored (`Store.create` then takes the time)."""


@dataclass(frozen=True)
class Summary:
    """One line of `tournament list`."""

    name: str
    game: str
    players: int
    bots: int
    planned: int
    played: int
    running: bool
    """A live runner holds its lease (one on another host counts as live: its pid cannot be
    checked from here)."""
    created: str | None
    more_to_plan: bool = False
    """An adaptive schedule whose stop rule has not stopped it: `resume` plans its next
    block (the store cannot tell; `runner.summaries` sets it)."""

    @property
    def state(self) -> str:
        if self.running:
            return "running"
        done = self.played >= self.planned and not self.more_to_plan
        return "finished" if done else "stopped"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "players": self.players,
            "bots": self.bots,
            "played": self.played,
            "planned": self.planned,
            "state": self.state,
            "created": self.created,
        }


@dataclass(frozen=True)
class Result:
    match_id: str
    places: list[int]
    scores: list[int]
    forfeited: list[int]
    incidents: list[dict]
    latencies: list[list[float]]
    steps: int
    record: str | None


@dataclass(frozen=True)
class Runner:
    """The process that plays a tournament: what its lease row says."""

    pid: int
    host: str
    started: str

    @classmethod
    def this_process(cls, now: datetime) -> Runner:
        return cls(os.getpid(), socket.gethostname(), now.isoformat(timespec="seconds"))


Alive = Callable[[int], bool]


class Store:
    """One SQLite file holding any number of tournaments.

    With `create` a missing file is created (mode 0600); without, a missing file is an
    error, so a mistyped --db never leaves an empty database behind. `read_only` opens it
    for reading only (SQLite refuses any write), as the web app does: the tables of
    ADDITIONS that an older admiralty's file lacks are then temporary.
    """

    def __init__(self, path: Path, create: bool = False, read_only: bool = False):
        self.path = path
        self.read_only = read_only
        if not path.exists():
            if not create or read_only:
                raise StoreError(f"no database {path}")
            create_private(path)
        with self._errors():
            self._db = connect(path, read_only)
            self._check_schema()
            self._add_tables()
            if not read_only:
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")

    def close(self) -> None:
        self._db.close()

    def _check_schema(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        if version == 0 and not self._db.execute("SELECT 1 FROM sqlite_master").fetchone():
            if self.read_only:
                raise StoreError(f"{self.path} is empty: no tournaments stored yet")
            self._db.executescript(SCHEMA)
            return
        age = "an older" if version < SCHEMA_VERSION else "a newer or unknown"
        raise StoreError(
            f"{self.path} was written by {age} version of admiralty (schema "
            f"{version}; this one reads {SCHEMA_VERSION}); use another --db"
        )

    def _add_tables(self) -> None:
        """The tables of ADDITIONS the file lacks; temporary ones, empty, if it is opened
        read-only (a temporary table lives in the connection, not the file)."""
        present = {
            row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        temporary = " TEMP" if self.read_only else ""
        for table, columns in ADDITIONS.items():
            if table not in present:
                self._db.execute(f"CREATE{temporary} TABLE IF NOT EXISTS {table} ({columns})")

    def _errors(self) -> contextlib.AbstractContextManager[None]:
        return errors(self.path)

    def _transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return transaction(self._db, self.path)

    def _rows(self, sql: str, *args: object) -> list[tuple]:
        with self._errors():
            return self._db.execute(sql, args).fetchall()

    def require_new(self, name: str) -> None:
        """StoreError if a tournament `name` exists already."""
        if self._rows("SELECT 1 FROM tournaments WHERE name=?", name):
            raise StoreError(
                f"tournament {name!r} already exists in {self.path}; "
                "resume it or choose another --name"
            )

    def create(self, tournament: Tournament, plan: Sequence[PlannedMatch], runner: Runner) -> None:
        """Store a tournament, its whole plan and `runner`'s lease on it, all at once."""
        with self._transaction() as db:
            self.require_new(tournament.name)
            created = tournament.created or datetime.now(UTC).isoformat(timespec="seconds")
            db.execute(
                "INSERT INTO tournaments VALUES (?,?,?,?,?,?)",
                (
                    tournament.name,
                    tournament.game,
                    tournament.players,
                    tournament.rounds,
                    str(tournament.seed),
                    json.dumps(tournament.settings),
                ),
            )
            db.execute("INSERT OR REPLACE INTO created VALUES (?,?)", (tournament.name, created))
            db.execute("DELETE FROM deaths WHERE tournament=?", (tournament.name,))  # stale
            db.executemany(
                "INSERT INTO bots VALUES (?,?,?,?)",
                [
                    (tournament.name, i, spec, name)
                    for i, (spec, name) in enumerate(
                        zip(tournament.bot_specs, tournament.bot_names, strict=True)
                    )
                ],
            )
            db.executemany(
                "INSERT INTO matches VALUES (?,?,?,?,?,?)",
                [
                    (
                        tournament.name,
                        m.match_id,
                        m.ordinal,
                        m.round,
                        str(m.seed),
                        json.dumps(m.seats),
                    )
                    for m in plan
                ],
            )
            _lease(db, tournament.name, runner)

    def add_matches(self, name: str, matches: Sequence[PlannedMatch]) -> None:
        """Append planned matches (an adaptive tournament's next block), all at once."""
        with self._transaction() as db:
            self.tournament(name)
            db.executemany(
                "INSERT INTO matches VALUES (?,?,?,?,?,?)",
                [
                    (name, m.match_id, m.ordinal, m.round, str(m.seed), json.dumps(m.seats))
                    for m in matches
                ],
            )

    def take_lease(self, name: str, runner: Runner, alive: Alive = pid_alive) -> None:
        """Make `runner` the one runner of `name`; StoreError naming the live runner if there
        is one. A lease whose process is gone from this host is taken over."""
        with self._transaction() as db:
            self.tournament(name)
            _refuse_if_running(db, name, runner.host, alive)
            _lease(db, name, runner)

    def release_lease(self, name: str, runner: Runner) -> None:
        with self._transaction() as db:
            db.execute(
                "DELETE FROM runners WHERE tournament=? AND pid=? AND host=?",
                (name, runner.pid, runner.host),
            )

    def delete(self, name: str, alive: Alive = pid_alive) -> None:
        """Remove a tournament with its plan, bots, results and lease, unless it is running."""
        with self._transaction() as db:
            self.tournament(name)
            _refuse_if_running(db, name, socket.gethostname(), alive)
            for table in ("results", "matches", "bots", "runners", "created", "deaths"):
                db.execute(f"DELETE FROM {table} WHERE tournament=?", (name,))
            db.execute("DELETE FROM tournaments WHERE name=?", (name,))

    def tournament(self, name: str) -> Tournament:
        rows = self._rows(
            "SELECT name, game, players, rounds, seed, settings, "
            "(SELECT at FROM created WHERE tournament=name) "
            "FROM tournaments WHERE name=?",
            name,
        )
        if not rows:
            known = [r[0] for r in self._rows("SELECT name FROM tournaments")]
            raise StoreError(
                f"no tournament {name!r} in {self.path}"
                + (f"; known: {', '.join(known)}" if known else "")
            )
        row = rows[0]
        bots = self._rows("SELECT spec, name FROM bots WHERE tournament=? ORDER BY idx", name)
        return Tournament(
            row[0],
            row[1],
            row[2],
            row[3],
            int(row[4]),
            json.loads(row[5]),
            tuple(b[0] for b in bots),
            tuple(b[1] for b in bots),
            row[6],
        )

    def summaries(self, alive: Alive = pid_alive) -> list[Summary]:
        """Every tournament in the file, oldest first (those stored by an older admiralty,
        whose creation is unknown, first, by name). A tournament is running while its lease
        is held by a live process, judged as `take_lease` judges it: a runner of this host
        whose pid is gone (killed with SIGKILL, say) left a stopped tournament."""
        rows = self._rows(
            "SELECT t.name, t.game, t.players, c.at,"
            " (SELECT COUNT(*) FROM bots b WHERE b.tournament=t.name),"
            " (SELECT COUNT(*) FROM matches m WHERE m.tournament=t.name),"
            " (SELECT COUNT(*) FROM results r WHERE r.tournament=t.name),"
            " u.pid, u.host"
            " FROM tournaments t LEFT JOIN created c ON c.tournament=t.name"
            " LEFT JOIN runners u ON u.tournament=t.name"
            " ORDER BY c.at IS NOT NULL, c.at, t.name"
        )
        here = socket.gethostname()
        return [
            Summary(
                r[0],
                r[1],
                r[2],
                r[4],
                r[5],
                r[6],
                r[7] is not None and (r[8] != here or alive(r[7])),
                r[3],
            )
            for r in rows
        ]

    def name_bots(self, tournament: str, names: Sequence[str]) -> None:
        with self._transaction() as db:
            db.executemany(
                "UPDATE bots SET name=? WHERE tournament=? AND idx=?",
                [(n, tournament, i) for i, n in enumerate(names)],
            )

    def save_deaths(self, tournament: str, runner: Runner, counts: Sequence[int]) -> None:
        """How many times each bot's launched processes have died in `runner`'s run so far
        (a launcher counts every death, in a call or between matches)."""
        run = f"{runner.pid}@{runner.host} since {runner.started}"
        with self._transaction() as db:
            db.executemany(
                "INSERT OR REPLACE INTO deaths VALUES (?,?,?,?)",
                [(tournament, run, idx, count) for idx, count in enumerate(counts) if count],
            )

    def deaths(self, tournament: str, bots: int) -> list[int]:
        """Per bot of the `bots`, the deaths of its processes over every run."""
        counts = [0] * bots
        for idx, count in self._rows(
            "SELECT idx, SUM(count) FROM deaths WHERE tournament=? GROUP BY idx", tournament
        ):
            counts[idx] = count
        return counts

    def plan(self, tournament: str) -> list[PlannedMatch]:
        rows = self._rows(
            "SELECT match_id, ordinal, round, seed, seats FROM matches "
            "WHERE tournament=? ORDER BY ordinal",
            tournament,
        )
        return [PlannedMatch(r[0], r[1], r[2], int(r[3]), tuple(json.loads(r[4]))) for r in rows]

    def save_result(self, tournament: str, result: Result) -> None:
        """Write one finished match, atomically."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    tournament,
                    result.match_id,
                    json.dumps(result.places),
                    json.dumps(result.scores),
                    json.dumps(result.forfeited),
                    json.dumps(result.incidents),
                    json.dumps(result.latencies),
                    result.steps,
                    result.record,
                ),
            )

    def result(self, tournament: str, match_id: str) -> Result | None:
        """One match's result, None if it has not finished: what the live board adds."""
        rows = self._rows(
            "SELECT match_id, places, scores, forfeited, incidents, latencies, "
            "steps, record FROM results WHERE tournament=? AND match_id=?",
            tournament,
            match_id,
        )
        return _result(rows[0]) if rows else None

    def results(self, tournament: str) -> dict[str, Result]:
        rows = self._rows(
            "SELECT match_id, places, scores, forfeited, incidents, "
            "latencies, steps, record FROM results WHERE tournament=?",
            tournament,
        )
        return {r[0]: _result(r) for r in rows}


def _result(row: tuple) -> Result:
    places, scores, forfeited, incidents, latencies = (json.loads(v) for v in row[1:6])
    return Result(row[0], places, scores, forfeited, incidents, latencies, row[6], row[7])


@contextlib.contextmanager
def errors(path: Path) -> Iterator[None]:
    """SQLite's exceptions as one StoreError line naming the file `path`."""
    try:
        yield
    except sqlite3.DatabaseError as error:
        raise StoreError(explain(path, error)) from None


@contextlib.contextmanager
def transaction(db: sqlite3.Connection, path: Path) -> Iterator[sqlite3.Connection]:
    """One write transaction on `db` (the file `path`), its lock taken at once: committed
    whole, or rolled back on any exception."""
    with errors(path):
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")


def connect(path: Path, read_only: bool) -> sqlite3.Connection:
    """A connection to the file: in autocommit (transactions are explicit), usable from the
    worker threads that serve it, waiting up to BUSY_TIMEOUT for another writer's lock;
    read only if asked (SQLite then refuses any write)."""
    return sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=ro" if read_only else path,
        isolation_level=None,
        check_same_thread=False,
        timeout=BUSY_TIMEOUT,
        uri=read_only,
    )


def create_private(path: Path) -> None:
    try:
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    except OSError as error:
        raise StoreError(f"cannot create the database {path}: {error.strerror}") from None


def explain(path: Path, error: sqlite3.DatabaseError) -> str:
    message = str(error)
    if message == "file is not a database":
        return f"{path} is not an SQLite database"
    if message == "database is locked":
        return f"database {path} is locked by another process; try again when it is done"
    return f"database {path}: {message}"


def _refuse_if_running(db: sqlite3.Connection, name: str, host: str, alive: Alive) -> None:
    """StoreError naming the runner of `name`, unless there is none or it is gone."""
    row = db.execute(
        "SELECT pid, host, started FROM runners WHERE tournament=?", (name,)
    ).fetchone()
    if row is None:
        return
    holder = Runner(*row)
    if holder.host != host or alive(holder.pid):
        raise StoreError(
            f"tournament {name!r} is being run by pid {holder.pid} on "
            f"{holder.host} since {holder.started}"
        )


def _lease(db: sqlite3.Connection, name: str, runner: Runner) -> None:
    db.execute(
        "INSERT OR REPLACE INTO runners VALUES (?,?,?,?)",
        (name, runner.pid, runner.host, runner.started),
    )
