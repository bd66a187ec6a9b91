"""Skill ratings from match placements, behind a small interface.

Ratings are applied in plan order (see `standings.LiveStandings`), so a tournament run in
parallel ranks exactly as one run match by match.

Both systems add a skill drift, tau, to every sigma before each match: the libraries'
default (sigma / 100) models players who change between games. A bot is the same program
in every match of a tournament, so tournaments rate with tau 0 (`Settings.tau`): every
result then weighs alike, however many came before, and the ratings of close bots keep
converging instead of settling at the noise of their latest matches.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
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

    def __init__(self, tau: float | None = None, draw_probability: float = 0.05):
        import trueskill

        drift = {} if tau is None else {"tau": tau}
        self._env = trueskill.TrueSkill(draw_probability=draw_probability, **drift)

    def initial(self) -> Skill:
        return Skill(self._env.mu, self._env.sigma)

    def rate(self, skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
        groups = [(self._env.create_rating(s.mu, s.sigma),) for s in skills]
        rated = self._env.rate(groups, ranks=[place - 1 for place in places])
        return [Skill(group[0].mu, group[0].sigma) for group in rated]

    def quality(self, skills: Sequence[Skill]) -> float:
        """TrueSkill's match quality of a match between `skills`: the probability of a draw
        relative to the most likely one, so the highest for the match least sure to go one
        way, the one whose result teaches the most."""
        return self._env.quality([(self._env.create_rating(s.mu, s.sigma),) for s in skills])


class OpenSkillRater:
    """OpenSkill's Plackett-Luce model (the optional `openskill` package), with ties fixed.

    Weng & Lin's Plackett-Luce update (Algorithm 4, the one `openskill` implements) with
    the library's parameters (mu, sigma, beta, kappa, tau, gamma = sigma / c). Without a
    shared place the update is the library's own, to rounding. With one, the library (6.x)
    follows the paper: the k seats tied at a place count as one of them leaving the pool
    at that place, so each gets 1/k of the win over the seats below and loses to its tied
    peers; with places [1, 2, 2, 2, 5, 6] from equal ratings the 5th then ends above the
    tied 2nds. Here a tie means what a shared place says: each tied seat finished ahead of
    every seat placed below it and behind every seat placed above it, and neither ahead
    of nor behind its peers. For seat i, with e_s = exp(mu_s / c) and
    C_q = e_q + sum of e_s over the seats s placed strictly below q:

        omega_i = sigma_i^2 / c * (1 - e_i / C_i - sum over q placed above i of e_i / C_q)
        delta_i = gamma_i * sigma_i^2 / c^2 * sum over q in {i} or above i of
                  (e_i / C_q) (1 - e_i / C_q)

    mu_i += omega_i and sigma_i *= sqrt(max(1 - delta_i, kappa)), as in the library. The
    update is symmetric in tied seats (equal ratings in, equal ratings out), and from equal
    ratings a better place never gets a smaller mu.
    """

    name = "openskill"

    def __init__(self, tau: float | None = None):
        try:
            from openskill.models import PlackettLuce
        except ImportError:
            raise ValueError(
                "--rating openskill needs the openskill package: pip install openskill"
            ) from None
        self._model = PlackettLuce() if tau is None else PlackettLuce(tau=tau)

    def initial(self) -> Skill:
        rating = self._model.rating()
        return Skill(rating.mu, rating.sigma)

    def rate(self, skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
        model = self._model
        variances = [s.sigma**2 + model.tau**2 for s in skills]
        c = math.sqrt(sum(v + model.beta**2 for v in variances))
        strength = [math.exp(s.mu / c) for s in skills]
        pool = [
            strength[q]
            + sum(e for e, place in zip(strength, places, strict=True) if place > places[q])
            for q in range(len(skills))
        ]
        rated = []
        for i, (skill, variance) in enumerate(zip(skills, variances, strict=True)):
            above = [q for q in range(len(skills)) if places[q] < places[i]]
            won = strength[i] / pool[i]
            omega = 1 - won - sum(strength[i] / pool[q] for q in above)
            delta = won * (1 - won) + sum(
                strength[i] / pool[q] * (1 - strength[i] / pool[q]) for q in above
            )
            sigma = math.sqrt(variance)
            delta *= variance / c**2 * (sigma / c)
            rated.append(
                Skill(
                    skill.mu + variance / c * omega, sigma * math.sqrt(max(1 - delta, model.kappa))
                )
            )
        return rated


RATERS = {"trueskill": TrueSkillRater, "openskill": OpenSkillRater}


def make_rater(name: str, tau: float | None = None) -> Rater:
    """The rating system `name`, with skill drift `tau` (None: the library's default)."""
    if tau is not None and not (math.isfinite(tau) and tau >= 0):
        raise ValueError(f"--tau must be 0 or more, not {tau}")
    try:
        system = RATERS[name]
    except KeyError:
        raise ValueError(f"unknown rating system {name!r}; choose {', '.join(RATERS)}") from None
    return system(tau)


def rater_of(settings: Mapping[str, object]) -> Rater:
    """The rater a stored tournament rates with; one stored before tau was a setting rates
    with the library's drift, as it always did."""
    tau = settings.get("tau")
    return make_rater(str(settings["rating"]), None if tau is None else float(tau))  # type: ignore[arg-type]
