"""Round-robin tournaments: a reproducible plan, parallel play, SQLite results, ratings
(or, for one-seat games, margins over shared deals)."""

from admiralty.tournament.plan import Deals, PlannedMatch, derive_seed, plan_matches
from admiralty.tournament.ratings import RATERS, Skill, make_rater
from admiralty.tournament.runner import (
    Settings,
    default_players,
    leaderboard,
    new_tournament,
    resume_tournament,
    start_tournament,
)
from admiralty.tournament.solo import RANKING, Interval, SoloStanding, solo_standings
from admiralty.tournament.standings import Standing, standings
from admiralty.tournament.store import Result, Runner, Store, StoreError, Tournament
from admiralty.tournament.workers import WorkerError

__all__ = [
    "RANKING",
    "RATERS",
    "Deals",
    "Interval",
    "PlannedMatch",
    "Result",
    "Runner",
    "Settings",
    "Skill",
    "SoloStanding",
    "Standing",
    "Store",
    "StoreError",
    "Tournament",
    "WorkerError",
    "default_players",
    "derive_seed",
    "leaderboard",
    "make_rater",
    "new_tournament",
    "plan_matches",
    "resume_tournament",
    "solo_standings",
    "standings",
    "start_tournament",
]
