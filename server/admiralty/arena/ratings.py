"""The arena's ratings: TrueSkill that keeps following bots as their authors change them.

A tournament's bots are the same programs in every match, so it rates with no drift. A
ladder's are not: a bot improves, or reconnects with a new version, and its rating must be
able to move. Two settings see to it:

- `TAU`, TrueSkill's dynamics factor, is added (as a variance) to every sigma before each
  match, so no rating becomes certain and recent results keep their weight. 0.25 is three
  times the library's default (sigma0 / 100, about 0.083), which is made for players that
  change slowly, not for programs that change overnight.
- `SIGMA_FLOOR`: no sigma is rated below it. TrueSkill moves mu by about sigma^2 / c for
  a surprising result (c is near 6 for two seats), so after hundreds of games a collapsed
  sigma would leave a bot that got better stuck for hundreds more. At 1.5 (under a fifth
  of the initial 8.33) a win over an equal still moves mu by about 0.3, so a bot that
  became a clear class better (beta, 4.17) climbs there in some tens of matches, while mu
  keeps within about one point of its recent form.
"""

from __future__ import annotations

from collections.abc import Sequence

from admiralty.tournament.ratings import Skill, TrueSkillRater

TAU = 0.25
SIGMA_FLOOR = 1.5


class ArenaRater(TrueSkillRater):
    """TrueSkill with drift `tau` whose sigmas never go below `floor`."""

    def __init__(self, tau: float = TAU, floor: float = SIGMA_FLOOR):
        super().__init__(tau)
        self.floor = floor

    def rate(self, skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
        return [Skill(s.mu, max(s.sigma, self.floor)) for s in super().rate(skills, places)]
