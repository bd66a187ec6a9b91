"""Treasure cards changing hands: lair draws (rules 6.3, 8) and the cards of spoils (7).

Powers lie face up and act while held; scoring and cursed cards lie face down, seen only by
their holder (rules 12). The Ghost Ship keeps the cards it finds face down and seen by
nobody, and never uses a power (G25). The 6th Hold card carries its hold's contents along.
"""

from __future__ import annotations

from admiralty.games.jamaica.data import load
from admiralty.games.jamaica.options import GHOST

DATA = load()
EXTRA_HOLD = DATA.powers["extra_hold"]


class Treasures:
    """Drawing, receiving and giving up treasure cards (a mixin over `JamaicaState`)."""

    def _draw_treasure(self, ship_id: int, space: int) -> None:
        """The first ship to end a move on a lair takes its card (G13: it cannot refuse)."""
        self.lairs.remove(space)
        if not self.treasure_deck:
            return
        treasure = self.treasure_deck.pop()
        face_up = ship_id != GHOST and DATA.treasures[treasure].kind == "power"
        self._receive(ship_id, treasure, face_up, None)
        public = {"ship": ship_id, "space": space, "face_down": not face_up}
        if face_up:
            self._emit("treasure_drawn", {**public, "treasure": treasure})
        elif ship_id == GHOST:
            self._emit("treasure_drawn", public)
        else:
            self._tell((ship_id,), "treasure_drawn",
                       {**public, "treasure": treasure, "value": DATA.treasures[treasure].value},
                       public)

    def _receive(self, ship_id: int, treasure: str, face_up: bool,
                 contents: tuple[str | None, int] | None) -> None:
        """Add a card to a ship; a face-up 6th Hold brings its hold (the Ghost keeps gold)."""
        ship = self.ship(ship_id)
        if not face_up:
            ship.hidden.append(treasure)
            return
        ship.powers.append(treasure)
        if treasure == EXTRA_HOLD:
            kind, count = contents or (None, 0)
            if kind is not None and ship_id == GHOST and kind not in DATA.ghost_keeps:
                self.bank[kind] += count
                self._emit("overboard", {"ship": ship_id, "kind": kind, "count": count})
                kind, count = None, 0
            ship.kinds.append(kind)
            ship.counts.append(count)

    def _release(self, ship_id: int, treasure: str) -> tuple[str | None, int] | None:
        """Take a card from a ship; for a face-up 6th Hold, also its hold, returned."""
        ship = self.ship(ship_id)
        if treasure in ship.hidden:
            ship.hidden.remove(treasure)
            return None
        ship.powers.remove(treasure)
        if treasure != EXTRA_HOLD:
            return None
        return ship.kinds.pop(DATA.holds), ship.counts.pop(DATA.holds)
