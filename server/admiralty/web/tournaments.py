"""The tournament pages: every tournament of the database, newest first, and one
tournament's leaderboard (the numbers of `tournament show --json`, from the same report),
rating history, head-to-head, wins by seat and matches.

The database is opened read-only for each request, so a tournament being played shows its
latest results and a database created after the app started is found."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any

from markupsafe import Markup
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from admiralty.text import printable
from admiralty.tournament.report import ALL_VIEWS, build_report
from admiralty.tournament.runner import summaries
from admiralty.tournament.store import Store, Summary
from admiralty.web.config import WebConfig
from admiralty.web.matches import NAME, record_path, tournament_record
from admiralty.web.plots import rating_plot
from admiralty.web.tables import Column, legend, standing_cells
from admiralty.web.templating import segment, templates

NAME_LIMIT = 1000
"""Characters of a tournament name in a URL at most: a longer one is not looked up."""


RATED_COLUMNS = (
    Column("rank", "#"),
    Column("bot", "bot", numeric=False),
    Column("mu", "mu", "the estimated skill"),
    Column("sigma", "sigma", "its uncertainty"),
    Column("conservative", "mu-3sigma", "the conservative rating"),
    Column("matches", "games", "matches played"),
    Column("firsts", "wins", "first places, shared ones too"),
    Column("mean_score", "score", "mean score"),
    Column("incidents", "incidents", "failed calls and other incidents"),
    Column("crashes", "crashes", "times its process died or its connection broke in a call"),
    Column("broken", "retired", "matches it was retired from, hung or broken"),
    Column("disqualified", "disqualified", "its later seats played by the failure policy"),
    Column("latency_mean_ms", "ms", "mean latency of the answered decisions"),
    Column("latency_p95_ms", "p95 ms", "their 95th percentile"),
    Column("answered", "answered", "decisions answered"),
)
SOLO_COLUMNS = (
    Column("rank", "#"),
    Column("bot", "bot", numeric=False),
    Column("mean_margin", "margin", "mean margin over the automated opponent"),
    Column("margin_low", "low", "its 95% interval, low end"),
    Column("margin_high", "high", "its high end"),
    Column("vs_above", "vs above", "the paired gap to the bot above: mean (95% interval)"),
    Column("matches", "games", "matches played"),
    Column("wins", "wins", "margins of 0 or more"),
    Column("win_rate", "won", "their share"),
    Column("incidents", "incidents", "failed calls and other incidents"),
    Column("crashes", "crashes", "times its process died or its connection broke in a call"),
    Column("broken", "retired", "matches it was retired from, hung or broken"),
    Column("disqualified", "disqualified", "its later seats played by the failure policy"),
    Column("latency_mean_ms", "ms", "mean latency of the answered decisions"),
)
MATCH_COLUMNS = (
    Column("match_id", "match", numeric=False),
    Column("round", "round"),
    Column("seats", "seats: bot, place, score", numeric=False),
    Column("steps", "steps"),
    Column("incidents", "incidents", numeric=False),
)


def routes(config: WebConfig) -> list[BaseRoute]:
    """`/`, `/t/{name}` and `/api/t/{name}/progress` (what a running tournament's page
    polls)."""

    def tournaments(request: Request) -> Response:
        context: dict[str, Any] = {"db": config.db, "missing": not config.db.exists()}
        with reading(config) as store:
            context["rows"] = newest_first(summaries(store)) if store else []
        return templates.TemplateResponse(request, "tournaments.html", context)

    def tournament(request: Request) -> Response:
        name = request.path_params["name"]
        with reading(config) as store:
            row = _summary(store, name)
            assert store is not None  # a tournament was found in it
            report = build_report(store, name, ALL_VIEWS).to_json()
        return templates.TemplateResponse(
            request, "tournament.html", page_context(config, name, row, report)
        )

    def progress(request: Request) -> Response:
        with reading(config) as store:
            row = _summary(store, request.path_params["name"])
        return JSONResponse(progress_json(row))

    return [
        Route("/", tournaments),
        Route("/t/{name}", tournament),
        Route("/api/t/{name}/progress", progress),
    ]


@contextlib.contextmanager
def reading(config: WebConfig) -> Iterator[Store | None]:
    """The database opened read-only for one request; None while it does not exist."""
    if not config.db.exists():
        yield None
        return
    store = Store(config.db, read_only=True)
    try:
        yield store
    finally:
        store.close()


def progress_json(row: Summary) -> dict[str, Any]:
    """What a running tournament's page polls: it reloads when this changes."""
    return {"state": row.state, "played": row.played, "planned": row.planned}


def newest_first(rows: list[Summary]) -> list[Summary]:
    """`Store.summaries` is oldest first, those of unknown date before all: newest first,
    those of unknown date last."""
    return rows[::-1]


def plausible(name: str) -> bool:
    """A tournament name to look up: not empty and within NAME_LIMIT characters (the
    database holds whatever `tournament run --name` was given)."""
    return 0 < len(name) <= NAME_LIMIT


def _summary(store: Store | None, name: str) -> Summary:
    """Tournament `name`'s line of the list; 404 if the database has none of that name."""
    found = [row for row in summaries(store) if row.name == name] if store else []
    if not plausible(name) or not found:
        raise HTTPException(404, f"There is no tournament {printable(name)!r}.")
    return found[0]


def page_context(
    config: WebConfig, name: str, row: Summary, report: Mapping[str, Any]
) -> dict[str, Any]:
    """What tournament.html shows: the report's numbers as they are in the JSON."""
    solo = report["history"] is None
    columns = SOLO_COLUMNS if solo else RATED_COLUMNS
    order = [standing["bot"] for standing in report["standings"]]
    return {
        "name": name,
        "row": row,
        "report": report,
        "columns": columns,
        "standings": [standing_cells(columns, standing) for standing in report["standings"]],
        "legend": legend(columns),
        "plot": Markup(rating_plot(report["history"], order))
        if report["history"] and report["finished"]
        else None,
        "match_columns": MATCH_COLUMNS,
        "matches": [
            {
                **match,
                "href": _match_href(config, name, match["match_id"]),
                "steps": match["steps"] if match["played"] else "not played",
            }
            for match in report["matches"]
        ],
        "progress": progress_json(row),
    }


def _match_href(config: WebConfig, name: str, match_id: str) -> str | None:
    """The match page's address, if the page can show it: its record is there."""
    if not (NAME.fullmatch(name) and NAME.fullmatch(match_id)):
        return None
    try:
        record_path(config.records, tournament_record(name, match_id))
    except HTTPException:
        return None
    return f"/t/{segment(name)}/m/{segment(match_id)}"
