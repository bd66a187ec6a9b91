"""Skill ratings from match placements, behind a small interface.

Ratings are always recomputed from the stored results in plan order, so a tournament
run in parallel ranks exactly as one run match by match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the sort key of the leaderboard."""
        return self.mu - 3 * self.sigma


class Rater(Protocol):
    name: str

    def initial(self) -> Skill: ...

    def rate(self, skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
        """New skills of the seats of one match, from their places (1 = first; ties equal)."""


class TrueSkillRater:
    """TrueSkill (the `trueskill` package) with a non-zero draw probability for shared places."""

    name = "trueskill"

    def __init__(self, draw_probability: float = 0.05):
        import trueskill

        self._env = trueskill.TrueSkill(draw_probability=draw_probability)

    def initial(self) -> Skill:
        return Skill(self._env.mu, self._env.sigma)

    def rate(self, skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
        groups = [(self._env.create_rating(s.mu, s.sigma),) for s in skills]
        rated = self._env.rate(groups, ranks=[place - 1 for place in places])
        return [Skill(group[0].mu, group[0].sigma) for group in rated]


class OpenSkillRater:
    """OpenSkill's Plackett-Luce model (the optional `openskill` package)."""

    name = "openskill"

    def __init__(self):
        try:
            from openskill.models import PlackettLuce
        except ImportError:
            raise ValueError("--rating openskill needs the openskill package: "
                             "pip install openskill") from None
        self._model = PlackettLuce()

    def initial(self) -> Skill:
        rating = self._model.rating()
        return Skill(rating.mu, rating.sigma)

    def rate(self, skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
        teams = [[self._model.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
        rated = self._model.rate(teams, ranks=list(places))
        return [Skill(team[0].mu, team[0].sigma) for team in rated]


RATERS = {"trueskill": TrueSkillRater, "openskill": OpenSkillRater}


def make_rater(name: str) -> Rater:
    try:
        return RATERS[name]()
    except KeyError:
        raise ValueError(f"unknown rating system {name!r}; choose {', '.join(RATERS)}") from None
