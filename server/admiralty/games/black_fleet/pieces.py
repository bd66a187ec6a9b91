"""The mutable pieces of a game: ships and players.

Both are small slotted records copied field by field in `clone()`, which is far
cheaper than `copy.deepcopy` in playouts.
"""

from __future__ import annotations

from typing import Any

from admiralty.games.black_fleet.data import SUMMED_MODIFIERS, GameData, Modifier


class Ship:
    """A merchant, pirate or navy ship.

    `space` is its sea space, or None when it is off the board (sunk or not yet
    placed) or waiting in the distant sea `zone` (pirates only). `cargo` lists the
    colours of the cubes aboard (a pirate's cubes are its treasure).
    """

    __slots__ = ("cargo", "kind", "navy", "owner", "ref", "space", "zone")

    def __init__(self, kind: str, owner: int | None = None, navy: str | None = None):
        self.kind = kind
        self.owner = owner
        self.navy = navy
        self.ref = f"navy:{navy}" if navy else f"{kind}:{owner}"
        self.space: int | None = None
        self.zone: str | None = None
        self.cargo: list[str] = []

    def copy(self) -> Ship:
        other = Ship(self.kind, self.owner, self.navy)
        other.space, other.zone, other.cargo = self.space, self.zone, self.cargo.copy()
        return other

    @property
    def in_play(self) -> bool:
        """On the board or waiting in a distant sea."""
        return self.space is not None or self.zone is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ship": self.ref, "space": self.space, "cargo": list(self.cargo)}
        if self.kind == "pirate":
            out["zone"] = self.zone
        return out


def combine(modifiers: list[Modifier]) -> dict[str, int]:
    """Modifiers merged per key: bonuses add up, every other kind keeps the best value."""
    merged: dict[str, int] = {}
    for mod in modifiers:
        old = merged.get(mod.key)
        if old is None:
            merged[mod.key] = mod.amount
        elif mod.kind in SUMMED_MODIFIERS:
            merged[mod.key] = old + mod.amount
        else:
            merged[mod.key] = max(old, mod.amount)
    return merged


class Player:
    """One seat: money, hands, development cards, ships and the modifiers now in force.

    `development` maps each cost to the seat's face-down card; `bought` lists the
    costs bought, in order. `boosts` holds the fortune cards whose effects last until
    the start of this seat's next turn. `mods` merges the bought cards' effects with
    those boosts and is what the rules read.
    """

    __slots__ = (
        "boosts",
        "bought",
        "charter_port",
        "colour",
        "development",
        "fortune",
        "merchant",
        "mods",
        "money",
        "movement",
        "pirate",
        "seat",
        "victory_bought",
        "victory_cost",
    )

    def __init__(self, seat: int, colour: str, money: int, victory_cost: int):
        self.seat = seat
        self.colour = colour
        self.money = money
        self.victory_cost = victory_cost
        self.victory_bought = False
        self.development: dict[int, str] = {}
        self.bought: list[int] = []
        self.charter_port: str | None = None
        self.movement: list[str] = []
        self.fortune: list[str] = []
        self.boosts: list[str] = []
        self.mods: dict[str, int] = {}
        self.merchant = Ship("merchant", seat)
        self.pirate = Ship("pirate", seat)

    def copy(self) -> Player:
        other = Player(self.seat, self.colour, self.money, self.victory_cost)
        other.victory_bought = self.victory_bought
        other.development, other.bought = self.development.copy(), self.bought.copy()
        other.charter_port = self.charter_port
        other.movement, other.fortune = self.movement.copy(), self.fortune.copy()
        other.boosts, other.mods = self.boosts.copy(), self.mods.copy()
        other.merchant, other.pirate = self.merchant.copy(), self.pirate.copy()
        return other

    def refresh(self, data: GameData) -> None:
        """Recompute `mods` after a purchase or a fortune boost."""
        modifiers = [
            m for cost in self.bought for m in data.development[self.development[cost]].effects
        ]
        modifiers += [m for card in self.boosts for m in data.fortune[card].boosts]
        self.mods = combine(modifiers)
