"""Round-robin tournaments: a reproducible plan, parallel play, SQLite results, ratings."""

from admiralty.tournament.plan import PlannedMatch, derive_seed, plan_matches
from admiralty.tournament.ratings import RATERS, Skill, make_rater
from admiralty.tournament.runner import (
    Settings,
    create_tournament,
    default_players,
    leaderboard,
    play_tournament,
)
from admiralty.tournament.standings import Standing, standings
from admiralty.tournament.store import Result, Store, Tournament

__all__ = [
    "RATERS",
    "PlannedMatch",
    "Result",
    "Settings",
    "Skill",
    "Standing",
    "Store",
    "Tournament",
    "create_tournament",
    "default_players",
    "derive_seed",
    "leaderboard",
    "make_rater",
    "plan_matches",
    "play_tournament",
    "standings",
]
