"""Create, run and resume tournaments: every planned match played exactly once.

Each bot is launched once per run and plays up to `parallel` matches at once, refereed by
as many worker processes. A match's
result is stored in one transaction when it ends; a match cut short (Ctrl-C, kill -9) has
no result and is played again, from its planned seed, when the tournament resumes.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from admiralty.games import load_game
from admiralty.referee import (
    FailurePolicy,
    MatchReport,
    MatchSpec,
    check_plays,
    launch_all,
    stop_all,
)
from admiralty.tournament.plan import PlannedMatch, plan_matches
from admiralty.tournament.ratings import make_rater
from admiralty.tournament.standings import Standing, display_names, standings
from admiralty.tournament.store import Result, Store, Tournament
from admiralty.tournament.workers import RefereePool


@dataclass(frozen=True)
class Settings:
    """How the matches of a tournament are refereed and rated."""

    policy: str = FailurePolicy.DEFAULT.value
    deadline: float = 2.0
    time_bank: float = 60.0
    rating: str = "trueskill"
    options: dict[str, Any] | None = None
    records: str | None = "records"

    def to_json(self) -> dict[str, Any]:
        return {"policy": self.policy, "deadline": self.deadline, "time_bank": self.time_bank,
                "rating": self.rating, "options": self.options or {}, "records": self.records}


def default_players(game_name: str, pool: int) -> int:
    """The game's usual player count, clamped to the pool and the game's range."""
    game = load_game(game_name)
    return max(game.min_players, min(game.default_players, pool, game.max_players))


def create_tournament(store: Store, name: str, game_name: str, bots: Sequence[str],
                      players: int | None, rounds: int, seed: int, settings: Settings
                      ) -> Tournament:
    """Check the request, plan every match and store the plan before anything is played."""
    game = load_game(game_name)
    if len(set(bots)) != len(bots):
        raise ValueError("each --bot must be different; run a bot twice with different "
                         "arguments (e.g. --seed) to enter it twice")
    players = default_players(game_name, len(bots)) if players is None else players
    game.check_players(players)
    make_rater(settings.rating)
    settings = dataclasses.replace(settings, options=game.resolve_options(settings.options))
    tournament = Tournament(name, game_name, players, rounds, seed, settings.to_json(),
                            tuple(bots), (None,) * len(bots))
    store.create(tournament, plan_matches(name, len(bots), players, rounds, seed))
    return tournament


def leaderboard(store: Store, name: str) -> list[Standing]:
    tournament = store.tournament(name)
    names = display_names([n or s for n, s in zip(tournament.bot_names, tournament.bot_specs,
                                                  strict=True)])
    rater = make_rater(tournament.settings["rating"])
    return standings(names, store.plan(name), store.results(name), rater)


def _spec(tournament: Tournament, match: PlannedMatch) -> MatchSpec:
    settings = tournament.settings
    records = settings.get("records")
    record = Path(records) / tournament.name / f"{match.match_id}.jsonl.gz" if records else None
    return MatchSpec(match.match_id, tournament.game, match.seed, settings["options"],
                     settings["deadline"], settings["time_bank"],
                     FailurePolicy(settings["policy"]), record)


def _result(match: PlannedMatch, report: MatchReport) -> Result:
    return Result(match.match_id, report.places, report.scores, report.forfeited,
                  [i.to_json() for i in report.incidents],
                  [[round(ms, 3) for ms in seat] for seat in report.latencies_ms],
                  report.steps, str(report.spec.record_path) if report.spec.record_path else None)


async def play_tournament(store: Store, name: str, parallel: int,
                          on_result: Callable[[PlannedMatch], None] = lambda match: None
                          ) -> int:
    """Play every planned match that has no result yet; returns how many were played."""
    tournament = store.tournament(name)
    done = store.results(name)
    todo = [match for match in store.plan(name) if match.match_id not in done]
    if not todo:
        return 0
    bots = await launch_all(tournament.bot_specs)
    pool = None
    try:
        check_plays(bots, tournament.game)
        store.name_bots(name, [bot.client.name for bot in bots])
        pool = RefereePool(min(parallel, len(todo)), [bot.client.address for bot in bots])

        async def play(match: PlannedMatch) -> None:
            report = await pool.play(_spec(tournament, match), match.seats)
            store.save_result(name, _result(match, report))
            on_result(match)

        async with asyncio.TaskGroup() as group:
            for match in todo:
                group.create_task(play(match))
    finally:
        if pool is not None:
            pool.close()
        await stop_all(bots)
    return len(todo)
