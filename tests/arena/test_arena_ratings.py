"""The arena's ratings follow a bot that changed: drift (tau > 0) and a floor on sigma keep
a long-rated bot's rating able to move."""

from __future__ import annotations

from admiralty.arena.ratings import SIGMA_FLOOR, ArenaRater
from admiralty.tournament.ratings import Rater, Skill, TrueSkillRater

BETA = 25 / 6
"""TrueSkill's default beta: a bot this much better wins about three games in four."""


def settled(rater: Rater, seats: int, games: int = 400) -> list[Skill]:
    """The skills of `seats` equal bots after `games` matches, each seat winning in turn."""
    skills = [rater.initial()] * seats
    for game in range(games):
        places = [(seat - game) % seats + 1 for seat in range(seats)]
        skills = rater.rate(skills, places)
    return skills


def wins_to_pull_ahead(rater: Rater, skills: list[Skill]) -> int:
    """Matches seat 0 must win in a row before its mu is beta above the others'."""
    for won in range(1, 10_000):
        skills = rater.rate(skills, [1, *range(2, len(skills) + 1)])
        if skills[0].mu - max(s.mu for s in skills[1:]) >= BETA:
            return won
    raise AssertionError("never pulled ahead")


def test_no_sigma_falls_below_the_floor_however_many_games():
    for seats in (2, 4):
        skills = settled(ArenaRater(), seats)
        assert min(s.sigma for s in skills) == SIGMA_FLOOR
        unfloored = settled(ArenaRater(floor=0), seats)
        assert min(s.sigma for s in unfloored) < SIGMA_FLOOR


def test_a_long_rated_bot_that_improved_climbs_in_a_few_games():
    arena = ArenaRater()
    assert wins_to_pull_ahead(arena, settled(arena, 2)) <= 10
    frozen = TrueSkillRater(tau=0)  # a tournament's rater: no drift, no floor
    assert wins_to_pull_ahead(frozen, settled(frozen, 2)) > 100


def test_the_best_match_quality_is_between_equals():
    rater = ArenaRater()
    equal, strong = rater.initial(), Skill(35.0, 2.0)
    assert rater.quality([equal, equal]) > rater.quality([equal, strong])
    assert rater.quality([strong, strong]) > rater.quality([equal, equal])
