"""The arena's pages: its standings and recent matches (`/arena`, which reloads itself as
matches start and end, so a ladder that never stops can be watched), and each recorded
match in the replay viewer (`/arena/m/N`), with the same page and API shape as a
tournament's.

The arena's file is opened read-only for each request, as the tournament database is: the
page shows the ladder's latest results, and a file created after the app started is found.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from admiralty.arena.store import ArenaStore, MatchRow, SeatResult, Standing
from admiralty.web.config import WebConfig
from admiralty.web.matches import Located, query_number, record_path, recorded_routes
from admiralty.web.tables import Column, legend, standing_cells
from admiralty.web.templating import templates, utc_minute

ARENA_RECORD = "arena-{}.jsonl.gz"
"""Match N's record in the arena's records folder, as the ladder names it."""
MATCH_NUMBER = re.compile(r"[1-9][0-9]{0,17}")
"""An arena match's number as URLs take it."""
PAGE_SIZE = 50
"""Recent matches a page lists."""

STANDING_COLUMNS = (
    Column("rank", "#"),
    Column("bot", "bot", numeric=False),
    Column("version", "version", "its current version, whose rating this is", numeric=False),
    Column("mu", "mu", "the estimated skill"),
    Column("sigma", "sigma", "its uncertainty"),
    Column("conservative", "mu-3sigma", "the conservative rating, by which bots are ranked"),
    Column("games", "games", "rated games of this version"),
    Column("wins", "wins", "first places among them, shared ones too"),
    Column("last_played", "last played", "when its latest match ended (UTC)", numeric=False),
)
MATCH_COLUMNS = (
    Column("match_id", "match", numeric=False),
    Column("status", "status", numeric=False),
    Column("started", "started (UTC)", numeric=False),
    Column("seats", "seats: bot, version, place, score", numeric=False),
    Column("incidents", "incidents", numeric=False),
)


def routes(config: WebConfig) -> list[BaseRoute]:
    """`/arena`, `/api/arena/progress` (what the page polls) and the recorded matches."""

    def arena(request: Request) -> Response:
        db = _db(config)
        page = query_number(request, "page", 1)
        if page < 1:
            raise HTTPException(404, f"The arena has no page {page} of matches.")
        with reading(db) as store:
            standings = store.standings() if store else []
            activity = store.activity() if store else {}
            shown = store.matches(PAGE_SIZE, (page - 1) * PAGE_SIZE) if store else []
            progress = progress_json(store)
        if page > 1 and not shown:
            raise HTTPException(404, f"The arena has no page {page} of matches.")
        context = {
            "db": db,
            "missing": not db.exists(),
            "game": shown[0].game if shown else None,
            "columns": STANDING_COLUMNS,
            "standings": [
                standing_cells(STANDING_COLUMNS, row) for row in standing_rows(standings, activity)
            ],
            "legend": legend(STANDING_COLUMNS),
            "match_columns": MATCH_COLUMNS,
            "matches": [match_row(config, match) for match in shown],
            "page": page,
            "older": progress["matches"] > page * PAGE_SIZE,
            "progress": progress,
        }
        return templates.TemplateResponse(request, "arena.html", context)

    def progress(request: Request) -> Response:
        with reading(_db(config)) as store:
            return JSONResponse(progress_json(store))

    def arena_match(request: Request) -> Located:
        _db(config)
        number = request.path_params["number"]
        if not MATCH_NUMBER.fullmatch(number):
            raise HTTPException(404, "There is no such match.")
        api = f"/api/arena/m/{number}"
        return Located(config.arena_folder, ARENA_RECORD.format(number), api, "/arena", "the arena")

    return [
        Route("/arena", arena),
        Route("/api/arena/progress", progress),
        *recorded_routes("/arena/m/{number}", "/api/arena/m/{number}", arena_match),
    ]


def _db(config: WebConfig) -> Path:
    if config.arena is None:
        raise HTTPException(404, "No arena is configured (admiralty web --arena).")
    return config.arena


@contextlib.contextmanager
def reading(db: Path) -> Iterator[ArenaStore | None]:
    """The arena's file opened read-only for one request; None while it does not exist."""
    if not db.exists():
        yield None
        return
    store = ArenaStore(db, read_only=True)
    try:
        yield store
    finally:
        store.close()


def progress_json(store: ArenaStore | None) -> dict[str, int]:
    """What the page polls, and reloads when it changes: the matches started, and the
    games the standings were rated on (more once a match is rated)."""
    if store is None:
        return {"matches": 0, "rated": 0}
    return {
        "matches": store.next_match() - 1,
        "rated": sum(standing.games for standing in store.standings()),
    }


def standing_rows(
    standings: Sequence[Standing], activity: Mapping[str, tuple[int, str]]
) -> list[dict[str, Any]]:
    """Each standing as the leaderboard shows it: rank, its numbers as `arena standings
    --json` gives them, its current version's wins and when the bot last played
    (`ArenaStore.activity`)."""
    rows = []
    for rank, standing in enumerate(standings, 1):
        wins, last = activity.get(standing.name, (0, None))
        rows.append(
            {"rank": rank, **standing.to_json(), "wins": wins, "last_played": utc_minute(last)}
        )
    return rows


def match_row(config: WebConfig, match: MatchRow) -> dict[str, Any]:
    """A match as the matches table shows it, linked to its replay if it is recorded."""
    results: Sequence[SeatResult | None] = match.results or [None] * len(match.players)
    return {
        "match_id": str(match.id),
        "href": _match_href(config, match.id),
        "status": match.status,
        "started": utc_minute(match.started),
        "played": bool(match.results),
        "seats": [
            {"seat": seat, "bot": bot, "version": version}
            | (
                {
                    "place": result.place,
                    "score": result.score,
                    "incidents": [incident["kind"] for incident in result.incidents],
                }
                if result
                else {}
            )
            for seat, ((bot, version), result) in enumerate(
                zip(match.players, results, strict=True), 1
            )
        ],
    }


def _match_href(config: WebConfig, number: int) -> str | None:
    """The match's replay page, if its record is there."""
    try:
        record_path(config.arena_folder, ARENA_RECORD.format(number))
    except HTTPException:
        return None
    return f"/arena/m/{number}"
