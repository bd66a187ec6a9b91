"""The pieces of a game of Blackbeard in play: pirates on their displays, merchants in their
ports' boxes, the ports' state, each player's cards and score, and the markers of the turn
and of the anti-pirate side's interference.

Plain records with no rules in them: the mechanics (`mechanics`, `table`) read and change
them, the collaborators of the state decide when. A pirate's record splits as the rules
split it [blackbeard §5.0]: what belongs to the *ship* stays with the ship when a new
captain takes it (`Ship`), what belongs to the *pirate* ends with him (`Pirate`). Each
record copies itself (`copy`), one level of containers deep: what `Table.copy` needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

VOLUNTARY, INVOLUNTARY = "voluntary", "involuntary"
"""The two sides of a Debauchery & Revelry marker [blackbeard §13.13]."""


@dataclass(slots=True)
class Hostage:
    """A hostage held for ransom: his counter and the nationality of his ship's
    destination port [blackbeard §8.44]."""

    id: str
    nation: str

    def copy(self) -> Hostage:
        return Hostage(self.id, self.nation)


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

    def copy(self) -> Ship:
        return Ship(
            self.type,
            self.combat,
            self.speed,
            self.loyalty,
            self.holds[:],
            [hostage.copy() for hostage in self.hostages],
            set(self.attack_history),
            self.letter_of_marque,
            self.heavy_guns,
            self.scurvy,
            self.revelry,
        )


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
        return Pirate(
            self.id,
            self.owner,
            self.area,
            self.ship.copy(),
            self.port,
            self.notoriety,
            self.net_worth,
            self.cunning_used,
            dict(self.information),
            set(self.bribed),
            self.buried_treasure,
            self.sack_pending,
            self.deployed_turn,
            self.half_move,
            self.recover_progress,
            self.ally,
        )


@dataclass(slots=True)
class Merchant:
    """A merchant in a port's Merchant Ship box; face down until located [blackbeard §6.31]."""

    id: str
    port: int
    face_up: bool = False
    located_by: str | None = None
    """The pirate that located it this Player Turn (only he may loot it) [blackbeard §8.21]."""

    def copy(self) -> Merchant:
        return Merchant(self.id, self.port, self.face_up, self.located_by)


@dataclass(slots=True)
class Commissioner:
    """A King's Commissioner in play: his counter, the seat that brought him in and
    controls him, and his sea area (never a port) [blackbeard §10.13, §10.26]."""

    id: str
    owner: int
    area: str

    def copy(self) -> Commissioner:
        return Commissioner(self.id, self.owner, self.area)


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

    def copy(self) -> PortState:
        return PortState(self.governor, self.destroyed, self.attacked, self.safe_haven)


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
        return Player(
            self.seat,
            self.events[:],
            self.pirate_cards[:],
            self.vp,
            self.vp_from_net_worth,
            self.retired[:],
            self.eliminated[:],
            self.best_notoriety,
        )


@dataclass(slots=True)
class Turn:
    """The turn marker and what the flow keeps of the Player Turn in progress: its phase,
    the Actions card being played and the Pirate Action under way [blackbeard §4.4, §4.5]."""

    number: int = 0
    active: int | None = None
    """The Pirate Player, from the first Player Turn on."""
    phase: str = "setup"
    active_pirate: str | None = None
    action_no: int = 0
    """Actions announced in this Player Turn (names the streams of their rolls)."""
    actions_left: int = 0
    actions_pirate: str | None = None
    """The pirate whose Initiative set a diamond card's Actions [blackbeard §4.52]."""
    actions_card_used: bool = False
    hup_played: bool = False
    fallbacks: int = 0
    draws: int = 0
    """Event cards drawn in this Player Turn (names the streams of MPI cards)."""
    counted: bool = False
    """The card being played is the turn's Actions card (moment 3 follows its Actions)."""
    card_loop: bool = False
    """The Actions under way are those of the turn's Actions card."""
    card_actor: str | None = None
    """Solitaire: the pirate of the last Action of the turn's Actions card, for the
    Crown's moment 3 [blackbeard §R19.3]."""
    must_revel: str | None = None
    """A pirate who cashed in a Pirate Port in this In-Port Activities [blackbeard §9.35]."""

    @property
    def seat(self) -> int:
        """The Pirate Player, in a Player Turn (whatever asks this runs in one)."""
        assert self.active is not None
        return self.active

    def copy(self) -> Turn:
        return replace(self)  # every field is a plain value


@dataclass(slots=True)
class Deployment:
    """Deployment at setup [blackbeard §3.0]: the seats done deploying, and under secret
    placement the (Pirate card, ship type) each seat deploys and the sea areas it wrote
    down, hidden until the sealed window reveals them."""

    passed: list[int] = field(default_factory=list)
    placing: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    written: dict[int, list[str]] = field(default_factory=dict)

    def copy(self) -> Deployment:
        return Deployment(
            self.passed[:],
            {seat: chosen[:] for seat, chosen in self.placing.items()},
            {seat: areas[:] for seat, areas in self.written.items()},
        )


T_ANN, T_ENTER, T_MID, T_END = "T-ANN", "T-ENTER", "T-MID", "T-END"
"""The points of a Pirate Action where the anti-pirate side may act [blackbeard §R4.3]."""


@dataclass(slots=True)
class Interference:
    """What the anti-pirate side has done this Player Turn and in the Pirate Action under
    way: the facts the limits L1-L6 read [blackbeard §R4.3]. All of it is public."""

    used: list[int] = field(default_factory=list)
    """Seats that took their one AP Action this Player Turn (L1)."""
    kc_action: bool = False
    """A KC AP Action was taken this Player Turn (L4)."""
    titles: list[str] = field(default_factory=list)
    """AP card titles (keys) played this Player Turn (L5)."""
    action: str | None = None
    """The Pirate Action under way, and its target."""
    target: Any = None
    warship: bool = False
    """A warship act was taken in this Pirate Action (L3)."""
    kc_deploy: bool = False
    """A KC deployment was attempted in this Pirate Action (L2)."""
    reaction: bool = False
    """A KC Reacted in this Pirate Action (L6)."""
    cancelled: bool = False
    entering: str | None = None
    """At T-ENTER: the sea area the step enters (a port's: its sea area)."""
    revelry: list[str] = field(default_factory=list)
    """Pirates a D&R card will put in D&R when the Action is completed."""
    surprise: str | None = None
    """The KC a KC Surprise brought in during this Action: +1, no -1, to its Reaction."""
    sighted: str | None = None
    """A sighted warship waiting beside the one already patrolling its area (W12)."""
    acts: int = 0
    """Acts taken in this Pirate Action (names their chance streams)."""
    crown: int = 0
    """Solitaire: the AP Actions the Crown took this Player Turn, against its budget
    [blackbeard §R19.2]."""

    def new_action(self, action: str | None, target: Any) -> None:
        self.action, self.target = action, target
        self.warship = self.kc_deploy = self.reaction = self.cancelled = False
        self.entering = self.surprise = self.sighted = None
        self.revelry = []
        self.acts = 0

    def new_turn(self) -> None:
        self.used, self.kc_action, self.titles = [], False, []
        self.crown = 0
        self.new_action(None, None)

    def copy(self) -> Interference:
        return Interference(
            self.used[:],
            self.kc_action,
            self.titles[:],
            self.action,
            self.target,
            self.warship,
            self.kc_deploy,
            self.reaction,
            self.cancelled,
            self.entering,
            self.revelry[:],
            self.surprise,
            self.sighted,
            self.acts,
            self.crown,
        )
