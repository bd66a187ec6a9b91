"""What the web app serves: the tournament database, the records folder, and optionally a
served referee and an arena. Read-only: the app never writes a database or a record."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class WebConfig:
    db: Path
    """The tournament database (SQLite), opened read-only."""
    records: Path
    """The records folder: `<tournament>/<match id>.jsonl.gz`, as `tournament run` writes."""
    token: str
    """The operator's token: signing in with it shows seats' eye views. Never in a URL."""
    server: str | None = None
    """A served referee's address (`admiralty serve`), for its live matches; None: none."""
    server_token: str | None = None
    """The served referee's admin token, for omniscient watching; None: public view only."""
    arena: Path | None = None
    """An arena's SQLite file (`admiralty arena`), opened read-only; None: no arena pages."""
    arena_records: Path | None = None
    """The arena's records folder (`arena-<match number>.jsonl.gz`, as its ladder writes);
    None: `records`, where `arena serve` also writes them unless told otherwise."""

    @property
    def arena_folder(self) -> Path:
        return self.arena_records or self.records
