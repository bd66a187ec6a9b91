"""A real small tournament and a real small arena, each played once per test session, for
the web app's tests: their databases and records folders."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from local_lobby import LocalLobby, example, registered

from admiralty.arena.ladder import run_ladder
from admiralty.arena.store import ArenaStore
from admiralty.tournament import Store

REPO = Path(__file__).resolve().parents[2]
HASH_BOT = str(REPO / "tests" / "tournament" / "bots" / "hash_bot.py")


@dataclass(frozen=True)
class WebData:
    """What `admiralty web` serves: a database holding one finished tournament and the
    folder holding its match records."""

    db: Path
    records: Path
    tournament: str
    match_ids: list[str]
    """In plan order; every match finished and recorded."""
    game: str


def play_tournament(folder: Path, name: str = "cup", game: str = "jamaica") -> WebData:
    """Three hash bots, two seats, one round (six matches, cut at round 8) into
    `folder`/admiralty.db and `folder`/records, by the real `admiralty tournament run`."""
    db, records = folder / "admiralty.db", folder / "records"
    args = [sys.executable, "-m", "admiralty.cli", "tournament", "run", game]
    args += ["--players", "2", "--rounds", "1", "--seed", "7", "--name", name]
    args += ["--db", str(db), "--records", str(records), "--json", "--option", "round_cap=8"]
    for bot in (HASH_BOT, f"{HASH_BOT} --seed 1", f"{HASH_BOT} --seed 2"):
        args += ["--bot", bot]
    played = subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert played.returncode == 0, played.stderr
    store = Store(db)
    try:
        match_ids = [match.match_id for match in store.plan(name)]
    finally:
        store.close()
    return WebData(db, records, name, match_ids, game)


@pytest.fixture(scope="session")
def web_data(tmp_path_factory: pytest.TempPathFactory) -> WebData:
    """One tournament for the whole session: tests read it, none writes it."""
    return play_tournament(tmp_path_factory.mktemp("web"))


@dataclass(frozen=True)
class ArenaData:
    """What `admiralty web --arena` serves: an arena's file holding a short ladder's
    finished matches, and the folder of their records."""

    db: Path
    records: Path
    numbers: list[int]
    """The matches' numbers, newest first."""


def play_arena(folder: Path, matches: int = 6) -> ArenaData:
    """A ladder of three bots (one greedy, two random) in this process: `matches` Jamaica
    matches of two seats, cut at round 8, into `folder`/arena.db and `folder`/arena-records."""
    db, records = folder / "arena.db", folder / "arena-records"
    store, lobby = ArenaStore(db, create=True), LocalLobby()
    bots = {"greedy": example("jamaica_greedy.py")}
    bots |= {f"random-{i}": example("random_bot.py", seed=i) for i in (1, 2)}
    registered(store, lobby, bots)
    try:
        played = asyncio.run(
            run_ladder(
                store,
                lobby,
                "jamaica",
                2,
                records=records,
                max_matches=1,
                seed=11,
                options={"round_cap": 8},
                matches=matches,
            )
        )
        assert played == matches
        numbers = [match.id for match in store.matches()]
    finally:
        store.close()
    return ArenaData(db, records, numbers)


@pytest.fixture(scope="session")
def arena_data(tmp_path_factory: pytest.TempPathFactory) -> ArenaData:
    """One arena for the whole session: tests read it, none writes it."""
    return play_arena(tmp_path_factory.mktemp("arena"))
