"""What one turn has done so far: the `Turn` record and the deeds its log keeps.

A new `Turn` starts with every turn [black_fleet §5.0]; only the flow (`state.py`)
writes it. The rules read it: which ships are still to be activated, the ship moving
now and its points, what it did, and the turn's log of deeds, from which the secret
objectives are judged [black_fleet §R5.3].
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from admiralty.games.black_fleet.pieces import Ship


class Sale(NamedTuple):
    """A merchant sold `cubes` cubes at `port`."""

    port: str
    cubes: int


class Burial(NamedTuple):
    """A pirate buried its treasure for `value` per cube, on a beach or not (a lair)."""

    value: int
    on_beach: bool


class Attack(NamedTuple):
    """The pirate attacked the merchant of seat `victim`, sinking it or not."""

    victim: int
    sunk: bool


class Sinking(NamedTuple):
    """A ship of the active seat sank the pirate of seat `victim`, laden or not."""

    victim: int
    treasure: bool


Deed = Sale | Burial | Attack | Sinking


def deed_json(deed: Deed) -> list[Any]:
    """A deed as JSON data: its kind in lower case, then its fields (`["sale", "T", 3]`)."""
    return [type(deed).__name__.lower(), *deed]


@dataclass(slots=True)
class Turn:
    """The active seat's turn so far."""

    played: str | None = None
    """The movement card played [black_fleet §5.1], None before it is."""
    controlled: tuple[str, ...] = ()
    """The navy ships the active seat moves this turn (friendly to its ships)."""
    activated: list[str] = field(default_factory=list)
    """The ships activated so far, by reference."""
    ship: Ship | None = None
    """The ship being activated (lifted off the board's occupancy map), or None."""
    points: int = 0
    """Its movement points left."""
    acts: list[str] = field(default_factory=list)
    """The actions it took in this activation [black_fleet §13] R1."""
    broadside_used: bool = False
    """Armed Merchantman fired this turn (once per turn, not an action)."""
    swapped: bool = False
    """False Colours swapped the ships this turn (once per turn)."""
    next_navy_spent: bool = False
    """Signal Flags' +2 went to a navy ship already (the next one activated only)."""
    log: list[Deed] = field(default_factory=list)
    """Sales, burials, attacks and sinkings of this turn, in order."""
    window: str = ""
    """The fortune window open now or last (`start`, `first`, `between`, `last`)."""

    def copy(self, ships: Mapping[str, Ship]) -> Turn:
        """An independent copy whose `ship` is the same ship among `ships` (a clone's):
        lists are copied, every other field is immutable and shared."""
        return replace(
            self,
            activated=self.activated.copy(),
            acts=self.acts.copy(),
            log=self.log.copy(),
            ship=ships[self.ship.ref] if self.ship is not None else None,
        )

    def to_json(self) -> dict[str, Any]:
        """Every field as JSON data (the ship by its reference), for the snapshot."""
        return {
            "played": self.played,
            "controlled": list(self.controlled),
            "activated": list(self.activated),
            "ship": self.ship.ref if self.ship is not None else None,
            "points": self.points,
            "acts": list(self.acts),
            "broadside_used": self.broadside_used,
            "swapped": self.swapped,
            "next_navy_spent": self.next_navy_spent,
            "log": [deed_json(deed) for deed in self.log],
            "window": self.window,
        }
