"""SQLite storage of tournaments: the plan before the first match, each result in one transaction.

WAL mode lets the leaderboard be read while matches are written. A result row exists
for a match exactly when the match finished, so a resumed tournament plays precisely the
planned matches that have no result.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from admiralty.tournament.plan import PlannedMatch

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    name TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    settings TEXT NOT NULL          -- JSON: policy, deadline, time bank, rating, options
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
    seed INTEGER NOT NULL,
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
"""


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


class Store:
    """One SQLite file holding any number of tournaments."""

    def __init__(self, path: Path):
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def create(self, tournament: Tournament, plan: Sequence[PlannedMatch]) -> None:
        """Store a tournament and its whole plan; ValueError if the name is taken."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM tournaments WHERE name=?", (tournament.name,)).fetchone():
                raise ValueError(f"tournament {tournament.name!r} already exists in {self.path}; "
                                 "resume it or choose another --name")
            db.execute("INSERT INTO tournaments VALUES (?,?,?,?,?,?)",
                       (tournament.name, tournament.game, tournament.players, tournament.rounds,
                        tournament.seed, json.dumps(tournament.settings)))
            db.executemany("INSERT INTO bots VALUES (?,?,?,NULL)",
                           [(tournament.name, i, spec) for i, spec in
                            enumerate(tournament.bot_specs)])
            db.executemany("INSERT INTO matches VALUES (?,?,?,?,?,?)",
                           [(tournament.name, m.match_id, m.ordinal, m.round, m.seed,
                             json.dumps(m.seats)) for m in plan])

    def tournament(self, name: str) -> Tournament:
        row = self._db.execute("SELECT name, game, players, rounds, seed, settings "
                               "FROM tournaments WHERE name=?", (name,)).fetchone()
        if row is None:
            known = [r[0] for r in self._db.execute("SELECT name FROM tournaments")]
            raise ValueError(f"no tournament {name!r} in {self.path}"
                             + (f"; known: {', '.join(known)}" if known else ""))
        bots = self._db.execute("SELECT spec, name FROM bots WHERE tournament=? ORDER BY idx",
                                (name,)).fetchall()
        return Tournament(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]),
                          tuple(b[0] for b in bots), tuple(b[1] for b in bots))

    def name_bots(self, tournament: str, names: Sequence[str]) -> None:
        with self._transaction() as db:
            db.executemany("UPDATE bots SET name=? WHERE tournament=? AND idx=?",
                           [(n, tournament, i) for i, n in enumerate(names)])

    def plan(self, tournament: str) -> list[PlannedMatch]:
        rows = self._db.execute("SELECT match_id, ordinal, round, seed, seats FROM matches "
                                "WHERE tournament=? ORDER BY ordinal", (tournament,))
        return [PlannedMatch(r[0], r[1], r[2], r[3], tuple(json.loads(r[4]))) for r in rows]

    def save_result(self, tournament: str, result: Result) -> None:
        """Write one finished match, atomically."""
        with self._transaction() as db:
            db.execute("INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?)",
                       (tournament, result.match_id, json.dumps(result.places),
                        json.dumps(result.scores), json.dumps(result.forfeited),
                        json.dumps(result.incidents), json.dumps(result.latencies),
                        result.steps, result.record))

    def results(self, tournament: str) -> dict[str, Result]:
        rows = self._db.execute("SELECT match_id, places, scores, forfeited, incidents, "
                                "latencies, steps, record FROM results WHERE tournament=?",
                                (tournament,))
        return {r[0]: Result(r[0], *(json.loads(v) for v in r[1:6]), r[6], r[7]) for r in rows}
