"""The pieces of a game of Blackbeard in play: pirates on their displays, merchants in their
ports' boxes, the ports' state, each player's cards and score.

Plain records with no rules in them: the mechanics (`mechanics`) read and change them, the
turn (`state`) decides when. A pirate's record splits as the rules split it [blackbeard
§5.0]: what belongs to the *ship* stays with the ship when a new captain takes it
(`Ship`), what belongs to the *pirate* ends with him (`Pirate`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

VOLUNTARY, INVOLUNTARY = "voluntary", "involuntary"
"""The two sides of a Debauchery & Revelry marker [blackbeard §13.13]."""


@dataclass(slots=True)
class Hostage:
    """A hostage held for ransom: his counter and the nationality of his ship's
    destination port [blackbeard §8.44]."""

    id: str
    nation: str


@dataclass(slots=True)
class Ship:
    """A pirate ship as its Pirate Display shows it [blackbeard §6.24]."""

    type: str
    """A ship type id of ships.toml: sloop, schooner or brig."""
    combat: int
    speed: int
    loyalty: int
    holds: list[int]
    """Doubloons of Booty per hold; 0 is an empty hold. As many as the type has holds."""
    hostages: list[Hostage] = field(default_factory=list)
    attack_history: set[str] = field(default_factory=set)
    """Nations whose ports this ship's pirate attacked [blackbeard §9.58]."""
    letter_of_marque: str | None = None
    """The nation that issued the ship's Letter of Marque."""
    heavy_guns: bool = False
    scurvy: bool = False
    revelry: str | None = None
    """None, or the side of the D&R marker: VOLUNTARY or INVOLUNTARY [blackbeard §13.13]."""

    @property
    def booty(self) -> int:
        return sum(self.holds)

    def empty_holds(self) -> list[int]:
        return [index for index, doubloons in enumerate(self.holds) if not doubloons]


@dataclass(slots=True)
class Pirate:
    """A deployed pirate: his card, where he is, his ship and what is his alone
    [blackbeard §5.0, §5.2]."""

    id: str
    """The Pirate card's two-letter id."""
    owner: int
    area: str
    """The sea area (or transit box) he is in, or whose port he is in."""
    ship: Ship
    port: int | None = None
    """The code of the port he is In Port at; None when At Sea [blackbeard §7.3]."""
    notoriety: int = 0
    net_worth: int = 0
    cunning_used: int = 0
    information: dict[int, int] = field(default_factory=dict)
    """Information points per port code, from tortured hostages [blackbeard §8.46]."""
    bribed: set[str] = field(default_factory=set)
    """Governors this pirate has tried to bribe [blackbeard §9.45]."""
    buried_treasure: bool = False
    sack_pending: int | None = None
    """The port he attacked successfully, while his next Action may be its Sack
    [blackbeard §9.55]."""
    deployed_turn: int = 0
    """The Player Turn he was deployed in."""
    half_move: str | None = None
    """The destination of a Speed < 0 Move's first half, for the next Action of the same
    card [blackbeard §7.12]."""
    recover_progress: int = 0
    """Recover Actions already taken against an involuntary D&R: 0 or 1 [blackbeard §13.24]."""
    ally: str | None = None
    """The pirate of the same player he is allied with, if any [blackbeard §11.11]."""

    @property
    def at_sea(self) -> bool:
        return self.port is None

    def copy(self) -> Pirate:
        return copy.deepcopy(self)


@dataclass(slots=True)
class Merchant:
    """A merchant in a port's Merchant Ship box; face down until located [blackbeard §6.31]."""

    id: str
    port: int
    face_up: bool = False
    located_by: str | None = None
    """The pirate that located it this Player Turn (only he may loot it) [blackbeard §8.21]."""


@dataclass(slots=True)
class Commissioner:
    """A King's Commissioner in play: his counter, the seat that brought him in and
    controls him, and his sea area (never a port) [blackbeard §10.13, §10.26]."""

    id: str
    owner: int
    area: str


@dataclass(slots=True)
class PortState:
    """What changes on a port during play [blackbeard §9.2, §9.5]."""

    governor: str | None = None
    """A Governor counter id; its side comes from the data."""
    destroyed: bool = False
    attacked: bool = False
    """A Port Attack marker: later attacks face 2d6 + Defense [blackbeard §9.58]."""
    safe_haven: str | None = None
    """The pirate whose Safe Haven it is."""


@dataclass(slots=True)
class Player:
    """One seat: its hands, its score and its pirates' past [blackbeard §3.0, §R18.1]."""

    seat: int
    events: list[int] = field(default_factory=list)
    """Event cards in hand, by card number (copies share a number)."""
    pirate_cards: list[str] = field(default_factory=list)
    """Undeployed Pirate cards in hand."""
    vp: int = 0
    vp_from_net_worth: int = 0
    retired: list[str] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)
    best_notoriety: int = 0
    """The highest NP any pirate of his reached (a tie-break) [blackbeard §R18.5]."""

    def copy(self) -> Player:
        return Player(self.seat, self.events[:], self.pirate_cards[:], self.vp,
                      self.vp_from_net_worth, self.retired[:], self.eliminated[:],
                      self.best_notoriety)
