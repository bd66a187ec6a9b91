"""`admiralty tournament show`, `list` and `delete`: the tournaments a database holds, and
the leaderboard as every tournament command prints it."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from admiralty.cli.options import JsonOption
from admiralty.cli.output import fail, out
from admiralty.console.tournaments import print_leaderboard, tournaments_table, views_shown
from admiralty.referee import BotLaunchError
from admiralty.tournament import Store, StoreError, WorkerError
from admiralty.tournament.report import NO_VIEWS, Views, build_report
from admiralty.tournament.runner import RecordsError, summaries

DbOption = Annotated[Path, typer.Option(help="The SQLite file holding tournaments.")]


def _view(flag: str, what: str) -> Any:
    """A `tournament show` flag adding a view."""
    return typer.Option(flag, help=f"Also {what}")


def tournament_show(
    name: Annotated[str, typer.Argument(help="The tournament to show.")],
    db: DbOption = Path("admiralty.db"),
    matches: Annotated[
        bool,
        _view(
            "--matches",
            "every planned match in plan order: each seat's place, bot and score "
            "(* forfeited), the seats' incidents by kind, or 'not played'.",
        ),
    ] = False,
    head_to_head: Annotated[
        bool,
        _view(
            "--head-to-head",
            "for every two bots, how often the row bot was placed above the "
            "column bot out of the matches both played.",
        ),
    ] = False,
    history: Annotated[
        bool,
        _view(
            "--history",
            "each bot's rating by games rated, plotted in characters: mu and the "
            "band mu ± 3 sigma.",
        ),
    ] = False,
    seats: Annotated[
        bool,
        _view(
            "--seats",
            "the win share of each seat position (seat 1 plays first), against the "
            "fair share 1/players.",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Print a tournament's leaderboard. It is sorted by mu - 3 sigma (an adaptive one's by
    mu, the order its stop rule certifies); a one-seat tournament's by mean margin over the
    automated opponent, with its 95% t-interval over the shared deals, the paired gap to
    the bot above and the win rate (TrueSkill does not apply). Every
    leaderboard counts each bot's incidents, its crashes and whether it was disqualified;
    latencies are over answered decisions. --matches, --head-to-head, --history and --seats
    add views (as keys of the --json object); the last three need seats placed against each
    other, so a one-seat tournament has none of them."""
    views = Views(matches, head_to_head, history, seats)
    with tournament_errors():
        print_tournament(Store(db), name, as_json, views)


def tournament_list(
    db: DbOption = Path("admiralty.db"),
    as_json: JsonOption = False,
) -> None:
    """List the tournaments in --db, oldest first. Each shows its name, game, seats per
    match, bots, matches played of planned, state (running: a live runner holds it;
    stopped: resume it, also after a runner was killed; finished) and when it was created
    (UTC; '-' if stored by an older admiralty)."""
    with tournament_errors():
        rows = summaries(Store(db))
    if as_json:
        print(json.dumps({"db": str(db), "tournaments": [row.to_json() for row in rows]}))
        return
    if not rows:
        out.print(f"no tournaments in {db}", highlight=False)
        return
    out.print(tournaments_table(rows))


def tournament_delete(
    name: Annotated[str, typer.Argument(help="The tournament to delete.")],
    db: DbOption = Path("admiralty.db"),
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Delete without asking.")] = False,
) -> None:
    """Delete a tournament: its plan, bots, results and lease (refused while it runs). Its
    match records are left alone; the command prints where they are."""
    with tournament_errors():
        store = Store(db)
        tournament = store.tournament(name)
        if not yes:
            played = f"{len(store.results(name))} of {len(store.plan(name))} matches played"
            typer.confirm(f"Delete tournament {name} ({played}) from {db}?", abort=True)
        store.delete(name)
    records = tournament.settings.get("records")
    out.print(
        f"deleted tournament {name}"
        + (f"; its records are left in {Path(records) / name}" if records else ""),
        highlight=False,
        soft_wrap=True,
    )


@contextlib.contextmanager
def tournament_errors() -> Iterator[None]:
    """A failure of the database, the records, a bot or a referee worker as one line, exit
    code 1."""
    try:
        yield
    except (StoreError, RecordsError, BotLaunchError, WorkerError) as error:
        raise fail(str(error)) from None


def print_tournament(store: Store, name: str, as_json: bool, views: Views = NO_VIEWS) -> None:
    """The leaderboard of tournament `name` and the asked-for views: as one JSON object,
    or as tables."""
    report = build_report(store, name, views)
    if as_json:
        print(json.dumps(report.to_json()))
        return
    print_leaderboard(
        out,
        report.rows,
        f"{name} · {report.tournament.game}",
        bool(report.adaptive),
        report.adaptive.get("stopped"),
        views_shown(report.views, [row.bot for row in report.rows]),
    )
