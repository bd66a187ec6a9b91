"""The end of a game [blackbeard §R18.5, §R19.6]: each pirate in play scores his NP, and the
most VP wins; alone, the player plays against the level's VP target, and the game also
ends as soon as he has no pirate left to play.
"""

from __future__ import annotations

from admiralty.games.base import Outcome
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.table import DATA, Table
from admiralty.games.flow import Flow


class Ending:
    """The end of the game and its outcome."""

    flow: Flow

    def __init__(self, table: Table) -> None:
        self.table = table

    def game_over(self, reason: str) -> None:
        """Each pirate in play scores his NP (case G); the most VP wins, ties broken
        [blackbeard §R18.5]. Alone, the player wins with at least the level's VP target,
        and his score is the margin over it [blackbeard §R19.6]."""
        table = self.table
        for pirate in list(table.pirates.values()):
            table.score(
                pirate.owner, mech.score(DATA, "G", notoriety=pirate.notoriety).vp, "G", pirate.id
            )
        if table.players == 1:
            self._solitaire_over(reason)
            return
        places = mech.places(DATA, table.seats, tie_breaks=table.options["tie_breaks"])
        self._over(Outcome(places, tuple(s.vp for s in table.seats)), reason)
        self.flow.emit(
            "game_over",
            {"reason": reason, "vp": [s.vp for s in table.seats], "places": list(places)},
        )
        self.flow.stop()

    def _solitaire_over(self, reason: str) -> None:
        table = self.table
        vp, target = table.seats[0].vp, table.level.vp_target
        margin = vp - target
        self._over(Outcome((1,), (margin,)), reason)
        self.flow.emit(
            "game_over",
            {
                "reason": reason,
                "vp": [vp],
                "places": [1],
                "target": target,
                "margin": margin,
                "won": margin >= 0,
                "level": table.options["solitaire_level"],
            },
        )
        self.flow.stop()

    def _over(self, outcome: Outcome, reason: str) -> None:
        table = self.table
        table.outcome, table.end_reason = outcome, reason
        table.turn.phase, table.turn.active_pirate = "over", None

    def solitaire_spent(self) -> bool:
        """Solitaire ends as soon as the player has no pirate on the map, no Pirate card
        and an empty Pirate deck [blackbeard §R19.6]; True when it just did."""
        table = self.table
        if (
            table.players != 1
            or table.turn.phase in ("over", "setup")
            or table.pirates
            or table.seats[0].pirate_cards
            or table.pirate_deck
        ):
            return False
        self.game_over("no_pirates")
        return True
