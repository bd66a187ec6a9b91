"""A tournament's leaderboard and views as one report: what `tournament show --json` prints
and the web app shows, built in one place so the two never differ."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from admiralty.tournament.adaptive import Schedule
from admiralty.tournament.ratings import rater_of
from admiralty.tournament.runner import bot_names, leaderboard, stop_reason
from admiralty.tournament.solo import RANKING, SoloStanding
from admiralty.tournament.standings import (
    Standing,
    head_to_head,
    live_standings,
    match_rows,
    rating_history,
    seat_win_rates,
)
from admiralty.tournament.store import Store, Tournament


@dataclass(frozen=True)
class Views:
    """The views added to the leaderboard (`tournament show`'s flags)."""

    matches: bool = False
    head_to_head: bool = False
    history: bool = False
    seats: bool = False


NO_VIEWS = Views()
ALL_VIEWS = Views(True, True, True, True)


@dataclass(frozen=True)
class Report:
    """A tournament's leaderboard rows, progress, adaptive stop and views."""

    name: str
    tournament: Tournament
    rows: Sequence[Standing | SoloStanding]
    planned: int
    finished: int
    adaptive: dict[str, Any]
    """{"schedule": "adaptive", "stopped": why or None} for an adaptive schedule, else {}."""
    views: dict[str, Any]
    """The asked-for views by their JSON keys; None for those a one-seat tournament lacks."""

    def to_json(self) -> dict[str, Any]:
        tournament = self.tournament
        return {
            "tournament": self.name,
            "game": tournament.game,
            "seed": tournament.seed,
            "deals": tournament.settings["deals"],
            "ranking": RANKING
            if tournament.players == 1
            else f"{tournament.settings['rating']}: "
            + ("mu, as the adaptive stop rule orders" if self.adaptive else "mu - 3 sigma"),
            "planned": self.planned,
            "finished": self.finished,
            "standings": [row.to_json(rank) for rank, row in enumerate(self.rows, start=1)],
            **self.adaptive,
            **self.views,
        }


def build_report(store: Store, name: str, views: Views = NO_VIEWS) -> Report:
    """Tournament `name` as stored now (StoreError if there is none)."""
    tournament = store.tournament(name)
    rows = leaderboard(store, name)
    extra = _views(store, tournament, views)
    adaptive = (
        {"schedule": Schedule.ADAPTIVE.value, "stopped": stop_reason(store, name)}
        if tournament.settings.get("schedule") == Schedule.ADAPTIVE.value
        else {}
    )
    planned, finished = len(store.plan(name)), len(store.results(name))
    return Report(name, tournament, rows, planned, finished, adaptive, extra)


def tournament_report(store: Store, name: str, views: Views = NO_VIEWS) -> dict[str, Any]:
    """The object `tournament show --json` prints."""
    return build_report(store, name, views).to_json()


def _views(store: Store, tournament: Tournament, views: Views) -> dict[str, Any]:
    if views == NO_VIEWS:
        return {}
    name = tournament.name
    names = bot_names(tournament)
    plan, results = store.plan(name), store.results(name)
    data: dict[str, Any] = {}
    rated = tournament.players > 1
    if views.matches:
        data["matches"] = match_rows(names, plan, results)
    if views.head_to_head:
        data["head_to_head"] = head_to_head(names, plan, results) if rated else None
    if views.history:
        data["history"] = (
            rating_history(live_standings(names, plan, results, rater_of(tournament.settings)))
            if rated
            else None
        )
    if views.seats:
        data["seats"] = seat_win_rates(tournament.players, plan, results) if rated else None
    return data
