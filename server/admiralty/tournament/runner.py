"""Create, run and resume tournaments: every planned match played exactly once.

A new tournament is checked in full (game, players, rounds, options, rating, policy, seed,
whether its records can be written) and its bots are taken in the order of their specs, so
the order they were given in changes nothing; its bots are launched and asked whether they
play the game, and its referee workers reach every bot, before anything is stored: a
tournament that cannot start leaves nothing behind. The plan is then stored with the
runner's lease in one transaction.

Matches are refereed by a backend (`backend.py`): worker processes of this machine, or a
Ray cluster; either way this process alone stores the results. A match's result is stored
in one transaction when it ends; a match cut short (Ctrl-C, kill -9) has no result and is
played again, from its planned seed, when the tournament resumes. Only the holder of the
lease plays.

An adaptive tournament (`adaptive.py`) stores its first block so; once every stored match
has a result, its next block is derived from them, stored in one transaction and played,
until the stop rule; a resumed one plays what is stored, then goes on the same way.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from admiralty.games import load_game
from admiralty.referee import FailurePolicy, MatchReport, MatchSpec
from admiralty.referee.match import checked_options
from admiralty.referee.record import private_dir
from admiralty.text import display_names
from admiralty.tournament.adaptive import (
    Adaptive,
    Schedule,
    check_adaptive,
    next_block,
    rule_of,
)
from admiralty.tournament.adaptive import stop_reason as adaptive_stop
from admiralty.tournament.backend import Backend, LocalBackend, Referees
from admiralty.tournament.plan import Deals, PlannedMatch, plan_matches
from admiralty.tournament.ratings import make_rater, rater_of
from admiralty.tournament.solo import SoloStanding, solo_standings
from admiralty.tournament.standings import LiveStandings, Standing, live_standings
from admiralty.tournament.store import Result, Runner, Store, Summary, Tournament
from admiralty.tournament.workers import run_all

MAX_SEED = 2**256
"""The largest master seed accepted: more digits than that is a typing accident."""

OnResult = Callable[[PlannedMatch], None]


@dataclass(frozen=True)
class Settings:
    """How the matches of a tournament are dealt, refereed and rated."""

    policy: str = FailurePolicy.DEFAULT.value
    deadline: float = 2.0
    time_bank: float = 60.0
    rating: str = "trueskill"
    tau: float = 0.0
    """The skill drift before each match (ratings.py says why bots get none)."""
    options: dict[str, Any] | None = None
    records: str | None = "records"
    deals: str = Deals.FRESH.value
    matches_per_bot: int | None = None
    """None: every group of the pool plays each round; else groups sampled (see plan.py)."""
    schedule: str = Schedule.FULL.value
    """full: the plan is the balanced plan; adaptive: that is the first block (adaptive.py)."""
    confidence: float = 0.9
    top: int | None = None
    max_matches: int | None = None
    """The adaptive stop rule; None: the default budget (`adaptive.check_adaptive`)."""

    def to_json(self) -> dict[str, Any]:
        out = {
            "policy": self.policy,
            "deadline": self.deadline,
            "time_bank": self.time_bank,
            "rating": self.rating,
            "tau": self.tau,
            "options": self.options or {},
            "records": self.records,
            "deals": self.deals,
            "matches_per_bot": self.matches_per_bot,
        }
        if self.schedule != Schedule.FULL.value:  # a full schedule is stored as before
            out |= {
                "schedule": self.schedule,
                "confidence": self.confidence,
                "top": self.top,
                "max_matches": self.max_matches,
            }
        return out


def default_players(game_name: str, pool: int) -> int:
    """The game's usual player count, clamped to the pool and the game's range."""
    game = load_game(game_name)
    return max(game.min_players, min(game.default_players, pool, game.max_players))


def new_tournament(
    name: str,
    game_name: str,
    bots: Sequence[str],
    players: int | None,
    rounds: int,
    seed: int,
    settings: Settings,
) -> tuple[Tournament, list[PlannedMatch]]:
    """Check everything asked for and plan every match; ValueError saying what is wrong.
    Nothing is stored: see `start_tournament`."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError("--seed must be a whole number from 0 to 2**256")
    if len(set(bots)) != len(bots):
        raise ValueError(
            "each --bot must be different; run a bot twice with different "
            "arguments (e.g. --seed) to enter it twice"
        )
    bots = sorted(bots)  # the pool in the order of its specs: the plan ignores typing order
    players = default_players(game_name, len(bots)) if players is None else players
    settings = dataclasses.replace(
        settings, options=checked_options(game_name, players, settings.options)
    )
    if players == 1:  # one seat: every bot plays the round's deal (see plan.py)
        settings = dataclasses.replace(settings, deals=Deals.DUPLICATE.value)
    make_rater(settings.rating, settings.tau)
    FailurePolicy(settings.policy)
    check_records(settings.records, name)
    plan = plan_matches(
        name, len(bots), players, rounds, seed, Deals(settings.deals), settings.matches_per_bot
    )
    if Schedule(settings.schedule) is Schedule.ADAPTIVE:
        budget = check_adaptive(
            len(bots), players, len(plan), settings.confidence, settings.top, settings.max_matches
        )
        settings = dataclasses.replace(settings, max_matches=budget)
    tournament = Tournament(
        name, game_name, players, rounds, seed, settings.to_json(), tuple(bots), (None,) * len(bots)
    )
    return tournament, plan


class RecordsError(ValueError):
    """The match records of a tournament cannot be written where its settings say."""


def check_records(records: str | None, name: str) -> None:
    """RecordsError, one line, unless the records of tournament `name` can be written under
    `records`: its directory exists and is writable, or the nearest directory above it
    that exists is. Checked before anything is stored or launched, and nothing is created."""
    if not records:
        return
    path = Path(records) / name
    existing = next(p for p in (path, *path.parents) if p.exists() or p.is_symlink())
    if not existing.is_dir():
        raise RecordsError(
            f"cannot write the match records in {path}: {existing} is not a directory"
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise RecordsError(f"cannot write the match records in {path}: {existing} is not writable")


def bot_names(tournament: Tournament) -> list[str]:
    """The bots' names as the leaderboard shows them: unique, the spec if never named."""
    return display_names(
        [n or s for n, s in zip(tournament.bot_names, tournament.bot_specs, strict=True)]
    )


def leaderboard(store: Store, name: str) -> Sequence[Standing | SoloStanding]:
    """TrueSkill (or OpenSkill) standings, by mu - 3 sigma (an adaptive tournament's by mu,
    the order its stop rule certifies); for a one-seat game, the margin standings of
    `solo.py`, since a rating needs seats to place against each other."""
    return LiveLeaderboard(store, name).rows()


class LiveLeaderboard:
    """The leaderboard of a tournament being played, kept up to date one result at a time.

    Built once from what is stored; then `add(match)` reads that one match's result and
    applies it (see `standings.LiveStandings`): one rating update per result, where
    recomputing from the store cost a read and a rating of every result so far. A one-seat
    tournament keeps its results in memory and recomputes its margins, which involve no
    rating (a sum over the results per bot)."""

    def __init__(self, store: Store, name: str):
        self.store = store
        self.name = name
        self._load()

    def _load(self) -> None:
        store, name = self.store, self.name
        tournament = store.tournament(name)
        names = bot_names(tournament)
        plan = store.plan(name)
        self.results = store.results(name)
        self.solo = tournament.players == 1
        self.by_mu = rule_of(tournament.settings) is not None
        """An adaptive tournament is ranked by mu, the order its stop rule certifies."""
        self._solo_args = (names, plan)
        self._names = names
        self.live: LiveStandings | None = None
        if not self.solo:
            rater = rater_of(tournament.settings)
            self.live = live_standings(names, plan, self.results, rater)
            self.results = {}  # the live standings hold what they need
        self._planned = {match.match_id for match in plan}

    def add(self, match: PlannedMatch) -> None:
        """Count `match`, whose result has just been stored."""
        if match.match_id not in self._planned:  # an adaptive block stored since
            self._load()  # rated from the store once per block
            return
        result = self.store.result(self.name, match.match_id)
        if result is None:
            return
        if self.live is None:
            self.results[result.match_id] = result
        else:
            self.live.add(result)

    def rows(self) -> Sequence[Standing | SoloStanding]:
        """The rows, each with its bot's deaths as stored so far (one small query)."""
        deaths = dict(zip(self._names, self.store.deaths(self.name, len(self._names)), strict=True))
        rows = (
            solo_standings(*self._solo_args, self.results)
            if self.live is None
            else self.live.rows(self.by_mu)
        )
        for row in rows:
            row.deaths = deaths[row.bot]
        return rows


async def start_tournament(
    store: Store,
    tournament: Tournament,
    plan: Sequence[PlannedMatch],
    runner: Runner,
    parallel: int | None,
    on_result: OnResult = lambda m: None,
    backend: Backend | None = None,
) -> int:
    """Launch the bots and the referees (`backend`, local by default; `parallel` matches at
    once, None: the backend's cores), store the plan once all of them are known to work,
    and play it all."""
    store.require_new(tournament.name)
    matches = len(plan) if rule_of(tournament.settings) is None else None
    async with _referees(backend, tournament, matches, parallel) as referees:
        named = dataclasses.replace(tournament, bot_names=tuple(referees.names))
        store.create(named, plan, runner)
        try:
            played = await _play(store, named, plan, referees, runner, on_result)
            played += await _adapt(store, named, referees, runner, on_result)
            await _save_deaths(store, named, referees, runner)  # after the last match too
            return played
        finally:
            store.release_lease(tournament.name, runner)


async def resume_tournament(
    store: Store,
    name: str,
    runner: Runner,
    parallel: int | None,
    on_result: OnResult = lambda m: None,
    backend: Backend | None = None,
) -> int:
    """Play every planned match that has no result yet; returns how many were played.
    RecordsError, with nothing changed, if its records cannot be written."""
    check_records(store.tournament(name).settings.get("records"), name)
    store.take_lease(name, runner)
    try:
        tournament = store.tournament(name)
        done = store.results(name)
        plan = store.plan(name)
        todo = [match for match in plan if match.match_id not in done]
        adaptive = rule_of(tournament.settings) is not None
        if not todo and not (adaptive and _block_after(store, tournament)):
            return 0
        async with _referees(
            backend, tournament, None if adaptive else len(todo), parallel
        ) as referees:
            store.name_bots(name, list(referees.names))
            played = await _play(store, tournament, todo, referees, runner, on_result)
            played += await _adapt(store, tournament, referees, runner, on_result)
            await _save_deaths(store, tournament, referees, runner)
            return played
    finally:
        store.release_lease(name, runner)


async def _adapt(
    store: Store, tournament: Tournament, referees: Referees, runner: Runner, on_result: OnResult
) -> int:
    """An adaptive tournament, its stored plan all played: derive, store and play block
    after block until the stop rule says stop; how many matches were played. A full
    schedule plays nothing here."""
    rated = _adaptive_ratings(store, tournament)
    if rated is None:
        return 0
    rule, live = rated
    played = 0
    while block := _next_block(tournament, live, rule):
        store.add_matches(tournament.name, block)  # stored before any of it is played
        live.extend(block)
        played += await _play(store, tournament, block, referees, runner, on_result, live.add)
    return played


def _block_after(store: Store, tournament: Tournament) -> list[PlannedMatch]:
    """The next block of an adaptive tournament whose stored plan has every result (see
    adaptive.py); [] when it has stopped, or is not adaptive, or results are missing."""
    rated = _adaptive_ratings(store, tournament)
    return [] if rated is None else _next_block(tournament, rated[1], rated[0])


def _adaptive_ratings(
    store: Store, tournament: Tournament
) -> tuple[Adaptive, LiveStandings] | None:
    """An adaptive tournament's stop rule and standings, once its stored plan has every
    result; None for a full schedule or while a result is missing."""
    rule = rule_of(tournament.settings)
    if rule is None:
        return None
    plan, results = store.plan(tournament.name), store.results(tournament.name)
    if any(match.match_id not in results for match in plan):
        return None
    return rule, live_standings(bot_names(tournament), plan, results, rater_of(tournament.settings))


def _next_block(tournament: Tournament, live: LiveStandings, rule: Adaptive) -> list[PlannedMatch]:
    """The block after the plan `live` has rated in full: derived from the ratings as they
    stand, which `_adapt` keeps up result by result rather than recomputing per block."""
    return next_block(
        tournament.name,
        tournament.seed,
        Deals(tournament.settings["deals"]),
        tournament.players,
        live.plan,
        [row.skill for row in live.table],
        rule,
    )


def summaries(store: Store) -> list[Summary]:
    """`Store.summaries`, with an adaptive tournament killed between two blocks (every
    stored match played, the stop rule not met) shown as stopped, not finished."""
    return [
        dataclasses.replace(row, more_to_plan=True)
        if not row.running
        and row.played >= row.planned
        and rule_of(store.tournament(row.name).settings) is not None
        and stop_reason(store, row.name) is None
        else row
        for row in store.summaries()
    ]


def stop_reason(store: Store, name: str) -> str | None:
    """Why an adaptive tournament stopped, None for a full schedule or one still to play."""
    tournament = store.tournament(name)
    rated = _adaptive_ratings(store, tournament)
    if rated is None:
        return None
    rule, live = rated
    return adaptive_stop(
        [row.skill for row in live.table], len(live.plan), tournament.players, rule
    )


def _referees(
    backend: Backend | None, tournament: Tournament, matches: int | None, parallel: int | None
) -> contextlib.AbstractAsyncContextManager[Referees]:
    """The tournament's bots, running and known to play its game, and referees that reached
    every one of them; all stopped on exit."""
    return (backend or LocalBackend()).referees(
        tournament.bot_specs, tournament.game, matches, parallel
    )


async def _play(
    store: Store,
    tournament: Tournament,
    todo: Sequence[PlannedMatch],
    referees: Referees,
    runner: Runner,
    on_result: OnResult,
    stored: Callable[[Result], None] = lambda result: None,
) -> int:
    """Play `todo`, each result stored with the bots' deaths so far, then given to
    `stored`, then announced."""
    records = tournament.settings.get("records")
    if records:
        _private_dir(Path(records) / tournament.name)

    async def play(match: PlannedMatch) -> None:
        report = await referees.play(_spec(tournament, match), match.seats)
        result = _result(match, report)
        store.save_result(tournament.name, result)
        await _save_deaths(store, tournament, referees, runner)
        stored(result)
        on_result(match)

    await run_all(play(match) for match in todo)
    return len(todo)


async def _save_deaths(
    store: Store, tournament: Tournament, referees: Referees, runner: Runner
) -> None:
    """Store how often each bot's processes died in this run: a death between calls (while
    answering MatchOver, or idle) is no match's incident, yet it counts towards the bot's
    disqualification, so the crash column counts it too."""
    store.save_deaths(tournament.name, runner, await referees.deaths())


def _private_dir(path: Path) -> None:
    """Records show every hand: only the operator may open their directory."""
    private_dir(path)
    path.chmod(0o700)


def _spec(tournament: Tournament, match: PlannedMatch) -> MatchSpec:
    settings = tournament.settings
    records = settings.get("records")
    record = Path(records) / tournament.name / f"{match.match_id}.jsonl.gz" if records else None
    return MatchSpec(
        match.match_id,
        tournament.game,
        match.seed,
        settings["options"],
        settings["deadline"],
        settings["time_bank"],
        FailurePolicy(settings["policy"]),
        record,
    )


def _result(match: PlannedMatch, report: MatchReport) -> Result:
    return Result(
        match.match_id,
        report.places,
        report.scores,
        report.forfeited,
        [i.to_json() for i in report.incidents],
        [[round(ms, 3) for ms in seat] for seat in report.latencies_ms],
        report.steps,
        str(report.spec.record_path) if report.spec.record_path else None,
    )
