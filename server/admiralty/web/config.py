"""What the web app serves: the tournament database, the records folder, and optionally a
served referee. Read-only: the app never writes the database or the records."""

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
