"""Tournaments as the `tournament` commands print them: the list of them, a leaderboard with
the views `tournament show` adds, and the live board of a tournament being played."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from admiralty.console.leaderboard import (
    head_to_head_table,
    history_plot,
    leaderboard_table,
    matches_table,
    seats_table,
)
from admiralty.tournament.runner import LiveLeaderboard
from admiralty.tournament.solo import SoloStanding
from admiralty.tournament.standings import Standing
from admiralty.tournament.store import Summary

ONE_SEAT = "(a one-seat tournament has no {}: no seats placed against each other)"
"""What a view that places seats against each other says of a one-seat tournament."""


def tournaments_table(rows: Sequence[Summary]) -> Table:
    """`tournament list`: name, game, seats, bots, matches played of planned, state and
    when it was created (UTC, to the minute)."""
    table = Table(header_style="bold underline", box=None, pad_edge=False, padding=(0, 1, 0, 0))
    for header in ("name", "game", "seats", "bots", "played", "state", "created"):
        table.add_column(
            header,
            justify="right" if header in ("seats", "bots", "played") else "left",
            no_wrap=header != "name",
        )
    for row in rows:
        created = row.created.replace("T", " ")[:16] if row.created else "-"
        table.add_row(
            row.name,
            row.game,
            str(row.players),
            str(row.bots),
            f"{row.played}/{row.planned}",
            row.state,
            created,
        )
    return table


def views_shown(views: Mapping[str, Any], order: Sequence[str]) -> list[RenderableType]:
    """The views of `tournament show` (its --json keys: matches, head_to_head, history,
    seats; None for a one-seat tournament's) as renderables, with the bots in `order`."""
    shown: list[RenderableType] = []
    if "matches" in views:
        shown.append(matches_table(views["matches"], title="matches"))
    if "head_to_head" in views:
        shown.append(
            ONE_SEAT.format("head-to-head")
            if views["head_to_head"] is None
            else head_to_head_table(views["head_to_head"], order, title="head to head")
        )
    if "history" in views:
        shown.append(
            ONE_SEAT.format("rating history")
            if views["history"] is None
            else Group(
                Text("rating by games rated", style="bold"), history_plot(views["history"], order)
            )
        )
    if "seats" in views:
        shown.append(
            ONE_SEAT.format("seat win rates")
            if views["seats"] is None
            else seats_table(views["seats"], title="win share by seat")
        )
    return shown


def print_leaderboard(
    console: Console,
    rows: Sequence[Standing | SoloStanding],
    title: str,
    adaptive: bool,
    stopped: str | None,
    shown: Sequence[RenderableType] = (),
) -> None:
    """The leaderboard (an adaptive one's by mu, with why it stopped), then each view."""
    console.print(leaderboard_table(rows, title=title, width=console.width, by_mu=adaptive))
    if adaptive:
        console.print(
            f"adaptive schedule, stopped by {stopped}"
            if stopped
            else "adaptive schedule, still to play",
            highlight=False,
        )
    for view in shown:
        console.print()
        console.print(view, highlight=False)


class RunBoard:
    """A tournament being played, on `console`: a bar of its matches played under the live
    leaderboard, which is redrawn at most once a second. `hidden` (--json) shows nothing."""

    def __init__(self, console: Console, name: str, planned: int, played: int, hidden: bool):
        self.console = console
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            disable=hidden,
        )
        self._task = self.progress.add_task(name, total=planned, completed=played)
        self.live = Live(self.progress, console=console, refresh_per_second=4, transient=True)
        self._shown = 0.0

    def played(self, planned: Callable[[], int]) -> None:
        """One more match played; a full bar takes the plan's size again (`planned`), which
        an adaptive tournament's next block has grown."""
        self.progress.advance(self._task)
        task = self.progress.tasks[0]
        if task.completed >= (task.total or 0):
            self.progress.update(self._task, total=planned())

    def show(self, board: LiveLeaderboard) -> None:
        """Redraw the leaderboard from `board`, if it was not drawn within the last second."""
        if time.monotonic() - self._shown > 1.0:
            self._shown = time.monotonic()
            self.live.update(
                Group(
                    leaderboard_table(board.rows(), width=self.console.width, by_mu=board.by_mu),
                    self.progress,
                )
            )
