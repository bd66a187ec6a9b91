"""The arena's SQLite file: registered bots, their versions, matches, results and ratings.

WAL mode, as for tournaments: the standings can be read while matches are written. A
finished match's results and the ratings they produce are written in one transaction, so
killing the arena loses no finished result; a match still `running` when a ladder starts
on the file was in flight when the last one stopped, and is made `void`, never rated.

A bot's rating is that of its current version. Each version has its own row in `ratings`,
started when the bot first plays it from the bot's rating then (kept) or from the initial
one (reset), as the operator chooses.

One process serves a file at a time: `take_lease` stores its pid and host, and refuses
another while that process lives (one on another host counts as living: its pid cannot be
checked from here). A lease whose process is gone, as after `kill -9`, is taken over.

Keys are random and high-entropy, so their sha256 digest is stored (no slow hash is
needed) and a key is found by its digest: the lookup's timing can tell at most which
digests exist, which does not help anyone forge a key. A key is shown once, by `add`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
import sqlite3
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from admiralty.arena.lobby import Registered
from admiralty.arena.ratings import ArenaRater
from admiralty.referee.clients import HELLO_LIMITS
from admiralty.referee.launcher import pid_alive
from admiralty.text import printable
from admiralty.tournament.ratings import Rater, Skill
from admiralty.tournament.store import (
    Alive,
    Runner,
    StoreError,
    connect,
    create_private,
    errors,
    transaction,
)

SCHEMA_VERSION = 1
APPLICATION_ID = 0x41524E41
"""`PRAGMA application_id` of an arena file ("ARNA"): a tournament database is refused."""
MAX_CONNECTIONS = 1000
"""The most connections (matches at once) one bot may be registered for."""

LEASE_TABLE = """CREATE TABLE IF NOT EXISTS lease (
    file INTEGER PRIMARY KEY CHECK (file = 1),  -- one row: the serving process
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started TEXT NOT NULL
);"""
"""The lease's table, also made when a file that predates it is first served."""

SCHEMA = f"""
BEGIN IMMEDIATE;
CREATE TABLE bots (
    name TEXT PRIMARY KEY,
    key TEXT UNIQUE,                -- sha256 hex of its key; NULL once removed
    connections INTEGER NOT NULL,   -- matches it may play at once
    added TEXT NOT NULL,            -- ISO 8601, UTC
    removed TEXT,                   -- when it was removed, else NULL
    version TEXT                    -- its current version; NULL until it first plays
);
CREATE TABLE versions (
    bot TEXT NOT NULL REFERENCES bots(name),
    version TEXT NOT NULL,
    first_seen TEXT NOT NULL,
    rating TEXT NOT NULL CHECK (rating IN ('kept', 'reset')),
    mu REAL NOT NULL,               -- the rating it started from
    sigma REAL NOT NULL,
    PRIMARY KEY (bot, version)
);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,         -- the match number
    game TEXT NOT NULL,
    players TEXT NOT NULL,          -- JSON: [bot, version] per seat
    seed TEXT NOT NULL,             -- decimal: 128 bits
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'void')),
    record TEXT
);
CREATE TABLE results (
    match INTEGER NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    bot TEXT NOT NULL,
    version TEXT NOT NULL,
    place INTEGER NOT NULL,
    score INTEGER NOT NULL,
    incidents TEXT NOT NULL,        -- JSON: this seat's incidents
    PRIMARY KEY (match, seat),
    FOREIGN KEY (bot, version) REFERENCES versions(bot, version)
);
CREATE TABLE ratings (
    bot TEXT NOT NULL,
    version TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,         -- rated games of this version
    PRIMARY KEY (bot, version),
    FOREIGN KEY (bot, version) REFERENCES versions(bot, version)
);
{LEASE_TABLE}
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {SCHEMA_VERSION};
COMMIT;
"""


@dataclass(frozen=True)
class Bot:
    """One registered bot, removed or not: a line of `arena bots`."""

    name: str
    connections: int
    added: str
    removed: str | None
    version: str | None
    versions: int

    def to_json(self) -> dict[str, Any]:
        return dict(vars(self))


@dataclass(frozen=True)
class Standing:
    """A bot's current rating: that of its current version."""

    name: str
    version: str
    skill: Skill
    games: int

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.name,
            "version": self.version,
            "mu": round(self.skill.mu, 3),
            "sigma": round(self.skill.sigma, 3),
            "conservative": round(self.skill.conservative, 3),
            "games": self.games,
        }


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished match: who played it and how it ended."""

    bot: str
    version: str
    place: int
    score: int
    incidents: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class MatchRow:
    """A stored match; `results` is empty unless it finished."""

    id: int
    game: str
    players: list[tuple[str, str]]
    seed: int
    started: str
    finished: str | None
    status: str
    record: str | None
    results: list[SeatResult]

    def to_json(self) -> dict[str, Any]:
        return {
            **{k: v for k, v in vars(self).items() if k not in ("players", "results", "seed")},
            "seed": str(self.seed),
            "players": [{"bot": bot, "version": version} for bot, version in self.players],
            "results": [vars(result) for result in self.results],
        }


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def check_name(name: str) -> None:
    """ValueError unless `name` can name a bot: printable, at most a Hello name's length."""
    if not name or printable(name) != name or name != name.strip():
        raise ValueError(f"bot name {name!r}: use printable characters, no space at either end")
    if len(name) > HELLO_LIMITS["name"]:
        raise ValueError(f"bot name {name!r} is over {HELLO_LIMITS['name']} characters")


class ArenaStore:
    """One arena's SQLite file. With `create` a missing file is created (mode 0600: it
    holds every seed); without, a missing file is an error, so a mistyped --db leaves
    nothing behind. `rater` rates finished matches. `read_only` opens it for reading only
    (SQLite refuses any write), as the web app does."""

    def __init__(
        self,
        path: Path,
        create: bool = False,
        rater: Rater | None = None,
        read_only: bool = False,
    ):
        self.path = path
        self.rater = rater or ArenaRater()
        self.read_only = read_only
        if not path.exists():
            if not create or read_only:
                raise StoreError(f"no database {path}")
            create_private(path)
        with errors(path):
            self._db = connect(path, read_only)
            self._check_schema()
            if not read_only:
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")

    def close(self) -> None:
        self._db.close()

    def _check_schema(self) -> None:
        if not self._db.execute("SELECT 1 FROM sqlite_master").fetchone():
            if self.read_only:
                raise StoreError(f"{self.path} is empty: no arena stored yet")
            self._db.executescript(SCHEMA)
            return
        application, version = (
            self._db.execute(f"PRAGMA {pragma}").fetchone()[0]
            for pragma in ("application_id", "user_version")
        )
        if application != APPLICATION_ID:
            raise StoreError(f"{self.path} is not an arena database")
        if version != SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by another version of admiralty (arena schema "
                f"{version}; this one reads {SCHEMA_VERSION}); use another --db"
            )

    def _rows(self, sql: str, *args: object) -> list[tuple]:
        with errors(self.path):
            return self._db.execute(sql, args).fetchall()

    def _transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return transaction(self._db, self.path)

    # ------------------------------------------------------------------ the lease

    def take_lease(self, runner: Runner, alive: Alive = pid_alive) -> None:
        """Make `runner` the one process serving the file; StoreError naming the one that
        does if it lives."""
        with self._transaction() as db:
            db.execute(LEASE_TABLE)
            row = db.execute("SELECT pid, host, started FROM lease").fetchone()
            if row is not None:
                holder = Runner(*row)
                if holder.host != runner.host or alive(holder.pid):
                    raise StoreError(
                        f"{self.path} is served by pid {holder.pid} on {holder.host} "
                        f"since {holder.started}"
                    )
            db.execute(
                "INSERT OR REPLACE INTO lease VALUES (1,?,?,?)",
                (runner.pid, runner.host, runner.started),
            )

    def release_lease(self, runner: Runner) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM lease WHERE pid=? AND host=?", (runner.pid, runner.host))

    # ------------------------------------------------------------------ bots and keys

    def add(self, name: str, connections: int = 1) -> str:
        """Register bot `name` and return its key, which is stored only as a digest.
        ValueError for a bad name or count; StoreError if the name is taken, even by a
        removed bot (its history keeps the name)."""
        check_name(name)
        if not 1 <= connections <= MAX_CONNECTIONS:
            raise ValueError(f"connections {connections}: give 1 to {MAX_CONNECTIONS}")
        key = secrets.token_urlsafe(32)
        with self._transaction() as db:
            row = db.execute("SELECT removed FROM bots WHERE name=?", (name,)).fetchone()
            if row is not None:
                removed = f" (removed {row[0]}; its history keeps the name)" if row[0] else ""
                raise StoreError(f"bot {name!r} already exists in {self.path}{removed}")
            db.execute(
                "INSERT INTO bots VALUES (?,?,?,?,NULL,NULL)",
                (name, digest(key), connections, now()),
            )
        return key

    def authenticate(self, key: str) -> Registered | None:
        """The bot whose key `key` is; None for a wrong or revoked key."""
        rows = self._rows(
            "SELECT name, connections FROM bots WHERE key=? AND removed IS NULL", digest(key)
        )
        return Registered(*rows[0]) if rows else None

    def remove(self, name: str) -> None:
        """Revoke bot `name`'s key and take it off the standings; its matches stay."""
        with self._transaction() as db:
            removed = self._bot(name)[1]
            if removed:
                raise StoreError(f"bot {name!r} was removed already ({removed})")
            db.execute("UPDATE bots SET key=NULL, removed=? WHERE name=?", (now(), name))

    def _bot(self, name: str) -> tuple:
        row = self._db.execute("SELECT name, removed FROM bots WHERE name=?", (name,)).fetchone()
        if row is None:
            raise StoreError(f"no bot {name!r} in {self.path}")
        return row

    def active(self) -> set[str]:
        """The names of the bots not removed."""
        return {r[0] for r in self._rows("SELECT name FROM bots WHERE removed IS NULL")}

    def bots(self) -> list[Bot]:
        """Every bot ever registered, in the order added."""
        rows = self._rows(
            "SELECT name, connections, added, removed, version,"
            " (SELECT COUNT(*) FROM versions v WHERE v.bot=b.name)"
            " FROM bots b ORDER BY added, name"
        )
        return [Bot(*row) for row in rows]

    def new_version(self, name: str, version: str, keep: bool) -> bool:
        """Make `version` bot `name`'s current one. A version never seen before starts
        from the bot's rating (`keep`) or the initial one; one seen before is taken up
        again with its own rating. True if the version is new. StoreError for an unknown
        or removed bot."""
        with self._transaction() as db:
            if self._bot(name)[1] is not None:
                raise StoreError(f"bot {name!r} was removed from {self.path}")
            seen = db.execute(
                "SELECT 1 FROM versions WHERE bot=? AND version=?", (name, version)
            ).fetchone()
            if not seen:
                current = self._current(name)
                start = current if keep and current else self.rater.initial()
                db.execute(
                    "INSERT INTO versions VALUES (?,?,?,?,?,?)",
                    (name, version, now(), "kept" if keep else "reset", start.mu, start.sigma),
                )
                db.execute(
                    "INSERT INTO ratings VALUES (?,?,?,?,0)", (name, version, start.mu, start.sigma)
                )
            db.execute("UPDATE bots SET version=? WHERE name=?", (version, name))
        return not seen

    def _current(self, name: str) -> Skill | None:
        row = self._db.execute(
            "SELECT r.mu, r.sigma FROM bots b JOIN ratings r"
            " ON r.bot=b.name AND r.version=b.version WHERE b.name=?",
            (name,),
        ).fetchone()
        return Skill(*row) if row else None

    def skills(self) -> dict[str, Skill]:
        """Every bot's current rating, removed or not, by name (a bot that never played
        has none)."""
        rows = self._rows(
            "SELECT b.name, r.mu, r.sigma FROM bots b JOIN ratings r"
            " ON r.bot=b.name AND r.version=b.version"
        )
        return {name: Skill(mu, sigma) for name, mu, sigma in rows}

    def standings(self) -> list[Standing]:
        """The bots not removed that have played a version, by mu - 3 sigma, best first."""
        rows = self._rows(
            "SELECT b.name, b.version, r.mu, r.sigma, r.games FROM bots b JOIN ratings r"
            " ON r.bot=b.name AND r.version=b.version WHERE b.removed IS NULL"
        )
        standings = [Standing(n, v, Skill(mu, sigma), g) for n, v, mu, sigma, g in rows]
        return sorted(standings, key=lambda s: (-s.skill.conservative, s.name))

    # ------------------------------------------------------------------ matches

    def check_game(self, game: str) -> None:
        """StoreError if the file holds matches of another game: its ratings are that
        game's."""
        other = self._rows("SELECT game FROM matches WHERE game!=? LIMIT 1", game)
        if other:
            raise StoreError(f"{self.path} holds an arena of {other[0][0]}, not {game}")

    def void_unfinished(self) -> int:
        """Make every match still `running` void (its arena stopped); how many there were."""
        with self._transaction() as db:
            return db.execute(
                "UPDATE matches SET status='void', finished=? WHERE status='running'", (now(),)
            ).rowcount

    def next_match(self) -> int:
        return self._rows("SELECT COALESCE(MAX(id), 0) + 1 FROM matches")[0][0]

    def start(
        self,
        number: int,
        game: str,
        seed: int,
        players: Sequence[tuple[str, str]],
        record: str | None,
    ) -> None:
        """Store match `number` as running between `players` ([bot, version] per seat)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO matches VALUES (?,?,?,?,?,NULL,'running',?)",
                (number, game, json.dumps(players), str(seed), now(), record),
            )

    def void(self, number: int) -> None:
        """Match `number` did not finish: it is never rated."""
        with self._transaction() as db:
            db.execute(
                "UPDATE matches SET status='void', finished=? WHERE id=? AND status='running'",
                (now(), number),
            )

    def finish(self, number: int, seats: Sequence[SeatResult]) -> list[Skill]:
        """Store running match `number`'s result and rate it, in one transaction; the new
        skills of its seats' versions."""
        with self._transaction() as db:
            status = db.execute("SELECT status FROM matches WHERE id=?", (number,)).fetchone()
            if status != ("running",):
                raise StoreError(f"match {number} is not running in {self.path}")
            db.executemany(
                "INSERT INTO results VALUES (?,?,?,?,?,?,?)",
                [
                    (number, i, s.bot, s.version, s.place, s.score, json.dumps(s.incidents))
                    for i, s in enumerate(seats)
                ],
            )
            skills = self.rater.rate(
                [self._skill(s.bot, s.version) for s in seats], [s.place for s in seats]
            )
            db.executemany(
                "UPDATE ratings SET mu=?, sigma=?, games=games+1 WHERE bot=? AND version=?",
                [(k.mu, k.sigma, s.bot, s.version) for k, s in zip(skills, seats, strict=True)],
            )
            db.execute(
                "UPDATE matches SET status='finished', finished=? WHERE id=?", (now(), number)
            )
        return skills

    def _skill(self, bot: str, version: str) -> Skill:
        row = self._db.execute(
            "SELECT mu, sigma FROM ratings WHERE bot=? AND version=?", (bot, version)
        ).fetchone()
        if row is None:
            raise StoreError(f"bot {bot!r} has no version {version!r} in {self.path}")
        return Skill(*row)

    def seat_games(self) -> Counter[tuple[str, int]]:
        """Finished games per bot and seat."""
        rows = self._rows("SELECT bot, seat, COUNT(*) FROM results GROUP BY bot, seat")
        return Counter({(bot, seat): count for bot, seat, count in rows})

    def activity(self) -> dict[str, tuple[int, str]]:
        """Per bot that has played: its current version's first places (shared ones too)
        and when its latest match ended."""
        rows = self._rows(
            "SELECT r.bot, SUM(r.place = 1 AND r.version = b.version), MAX(m.finished)"
            " FROM results r JOIN bots b ON b.name = r.bot JOIN matches m ON m.id = r.match"
            " GROUP BY r.bot"
        )
        return {bot: (wins, finished) for bot, wins, finished in rows}

    def matches(self, last: int | None = None, skip: int = 0) -> list[MatchRow]:
        """The `last` matches started (every one if None), newest first, after skipping
        the `skip` newest."""
        rows = self._rows(
            "SELECT id, game, players, seed, started, finished, status, record FROM matches"
            " ORDER BY id DESC LIMIT ? OFFSET ?",
            -1 if last is None else last,
            skip,
        )
        results: dict[int, list[SeatResult]] = {row[0]: [] for row in rows}
        if rows:
            for match, bot, version, place, score, incidents in self._rows(
                "SELECT match, bot, version, place, score, incidents FROM results"
                " WHERE match BETWEEN ? AND ? ORDER BY match, seat",
                rows[-1][0],
                rows[0][0],
            ):
                results[match].append(SeatResult(bot, version, place, score, json.loads(incidents)))
        return [
            MatchRow(
                i,
                game,
                [(bot, version) for bot, version in json.loads(players)],
                int(seed),
                started,
                finished,
                status,
                record,
                results[i],
            )
            for i, game, players, seed, started, finished, status, record in rows
        ]
