"""A sea battle [jamaica §7] as a piece on the table: who fights, what each side spent and
rolled, and the arithmetic of the result. Nothing here asks anything: the flow
(`state.py`) opens the windows of a battle, the table (`table.py`) spends its gunpowder,
rolls its dice and hands over its spoils.

The combat sequence is the rules' steps C1-C9 [jamaica §7]: C1 the attacker's gunpowder,
C2 its roll, C3 Saran's Sabre, C4 an attacker's star, C5 its strength, C6 the defender's
gunpowder, C7 its roll (and the Sabre again), C8 the comparison, C9 the spoils.
"""

from __future__ import annotations

from typing import Any

from admiralty.games.jamaica.data import STAR, load

DATA = load()
ATTACKER, DEFENDER = 0, 1
ROLES = ("attacker", "defender")
SABRE = DATA.powers["reroll"]
SABRE_USES = DATA.treasures[SABRE].param("uses_per_combat")
BETH = DATA.powers["combat_bonus"]
BETH_BONUS = DATA.treasures[BETH].param("bonus")
GHOST_BONUS = DATA.treasures[DATA.ghost_treasure].param("bonus")
POWDER = DATA.combat_token
COMBAT_FACES = DATA.combat_faces

Name = int | str


class Battle:
    """The battle in progress: who, where, and what each side spent and rolled.

    `name` identifies the battle among every battle a game could see, for its chance
    streams: the round, whose turn it is ("ghost" in the Ghost phase), the half of the
    card being resolved, the attacker and the defender. The same fight has the same dice
    in every game on one seed, whatever was decided before it.
    """

    __slots__ = (
        "faces",
        "gunpowder",
        "name",
        "rerolls",
        "ships",
        "space",
        "stage",
        "strengths",
        "winner",
    )

    def __init__(self, attacker: int, defender: int, space: int, name: tuple[Name, ...]) -> None:
        self.ships = (attacker, defender)
        self.space = space
        self.name = name
        self.stage = "attacker_gunpowder"
        self.gunpowder = [0, 0]
        self.faces: list[int | str | None] = [None, None]
        self.strengths: list[int | None] = [None, None]
        self.rerolls = 0
        self.winner: int | None = None

    def copy(self) -> Battle:
        new = Battle(*self.ships, self.space, self.name)
        new.stage = self.stage
        new.gunpowder, new.faces, new.strengths = (
            self.gunpowder[:],
            self.faces[:],
            self.strengths[:],
        )
        new.rerolls, new.winner = self.rerolls, self.winner
        return new

    def roll_name(self, role: int, reroll: bool) -> tuple[Name, ...]:
        """The chance stream of a roll of `role`: its initial roll (0), or re-roll n of
        the battle (n = `rerolls`, counted once the Sabre is used)."""
        return ("combat", *self.name, ROLES[role], self.rerolls if reroll else 0)

    def strength(self, role: int, bonus: int) -> int | None:
        """C5 / C8: die + gunpowder + bonus, or None for a star (it wins outright)."""
        face = self.faces[role]
        if face == STAR or face is None:
            return None
        assert isinstance(face, int)
        return face + self.gunpowder[role] + bonus

    def loser(self, winner: int | None) -> int | None:
        """The other ship of the battle, or None on a tie."""
        attacker, defender = self.ships
        return None if winner is None else defender if winner == attacker else attacker

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": self.ships[0],
            "defender": self.ships[1],
            "space": self.space,
            "stage": self.stage,
            "gunpowder": self.gunpowder[:],
            "rolls": self.faces[:],
            "strengths": self.strengths[:],
            "sabre_used": self.rerolls > 0,
            "winner": self.winner,
        }
