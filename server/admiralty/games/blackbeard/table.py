"""The board of a game of Blackbeard in play: ports, merchant boxes, pools and decks,
pirates by id, the players' records, the markers of the turn and of the anti-pirate
side, and the queries and small mechanics that read and change them.

The table holds every fact of the game that changes, so that a copy of the game is a copy
of the table (`copy`) with its collaborators built afresh on it. It never opens a request
and never decides whose turn it is: that is the collaborators' (`state`); it tells what
happened through the flow it is given (`flow.emit`). Every random draw comes from
`self.chance` through a stream named by what it decides (see `roll`); pools are kept
sorted, since their order is not a fact of the game, and a blind draw picks from them
with its own stream.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from admiralty.games.base import Outcome, Window
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.data import DIAMOND, SolitaireLevel, load
from admiralty.games.blackbeard.options import deck_for
from admiralty.games.blackbeard.pieces import (
    INVOLUNTARY,
    Commissioner,
    Deployment,
    Interference,
    Merchant,
    Pirate,
    Player,
    PortState,
    Ship,
    Turn,
)
from admiralty.games.chance import Chance, Name
from admiralty.games.flow import Flow

T = TypeVar("T")
DATA = load()
D6 = (1, 2, 3, 4, 5, 6)
FIG = DATA.charts.figures
LOYALTY = DATA.charts.loyalty
NOTORIETY = DATA.charts.notoriety
PORTS_OF = {area: DATA.ports_of(area) for area in DATA.areas}
"""The ports of each sea area (Bermuda in two), read once."""
CROWN = -1
"""The owner (and acting "seat") of the Crown, the anti-pirate side of a solitaire game: it
is no seat, holds no hand and scores nothing [blackbeard §R19.2]."""

DESTROYED, PIRATE_PORT, SAFE_HAVEN = mech.DESTROYED, mech.PIRATE_PORT, mech.SAFE_HAVEN
ANTI, PRO, NEUTRAL = mech.ANTI_PIRATE, mech.PRO_PIRATE, mech.NEUTRAL
FRIENDLY = frozenset({PRO, SAFE_HAVEN, NEUTRAL})
"""The attitudes of a national port that allow In-Port Activities [blackbeard §9.4]."""


class Table:
    """The pieces of one game and the mechanics that move them."""

    flow: Flow
    """Where the mechanics tell what happened: given by the state once it is made (a copy's
    flow is made from the copy's collaborators, after them)."""

    def __init__(self, players: int, chance: Chance, options: Mapping[str, Any]) -> None:
        self.players = players
        self.chance = chance
        self.options = dict(options)
        self.limits = DATA.setup.limits(players)
        self.neighbours = DATA.neighbours(extra_edges=self.options["map_extra_edges"])
        self.loyalty_max: int = self.options["crew_loyalty_max"]
        self.speed_sunk: int = self.options["sunk_positions"]
        self.deck_cards = {card.number: card for card in deck_for(self.options).cards}
        self.seats = [Player(seat) for seat in range(players)]
        self.order: tuple[int, ...] = tuple(range(players))
        self.pirates: dict[str, Pirate] = {}
        """Every pirate on the map, by Pirate card id."""
        self.ports = {code: PortState() for code in DATA.ports}
        self.merchants: dict[int, Merchant] = {}
        """Merchants in the Merchant Ship boxes, by port code."""
        self.merchant_pool = sorted(DATA.merchants)
        self.hostage_pool = sorted(DATA.hostages)
        self.warship_pool = sorted(DATA.warships)
        self.patrols: dict[str, str] = {}
        """A warship on Patrol per sea area [blackbeard §6.41]."""
        self.kc_pool = sorted(kc.id for kc in DATA.kcs.values() if kc.pool == "named")
        self.kcs: dict[str, Commissioner] = {}
        """The KCs in play, by counter id [blackbeard §10.1]."""
        self.kcs_killed: list[str] = []
        """KCs killed: out of the game for good [blackbeard §10.14]."""
        self.anti_governors = sorted(g.id for g in DATA.governors.values() if g.side == "anti")
        self.removed_governors: list[str] = []
        self.event_deck: list[int] = []
        """The Event deck, drawn from the end."""
        self.discard: list[int] = []
        self.held_out: list[int] = []
        """General Pardons kept out of the first pass of a long game [blackbeard §4.1]."""
        self.event_shuffles = 0
        self.pirate_deck: list[str] = []
        self.pirate_shuffles = 0
        """Shuffles of the Pirate deck so far (names their chance streams)."""
        self.retired: list[str] = []
        self.dead: list[str] = []
        """Davy Jones' Locker, and Pirate cards out of the game."""
        self.pardons = 0
        self.pardon_in_force = False
        self.from_bermuda: list[str] = []
        """Pirates an effect has just placed At Sea from Bermuda, in North Atlantic until
        their owner chooses (`bermuda.Bermuda` asks him) [blackbeard §2.2, §7.3]."""
        self.turn = Turn()
        self.deployment = Deployment()
        self.ap = Interference()
        self.rolled: dict[str, int] = {}
        """The dice of the rolls of the Action in progress, by name, after any re-roll."""
        self.bonus: dict[str, int] = {}
        """Skull and Crossbones bonuses on those rolls."""
        self.challenger: Pirate | None = None
        """A Piratical Ambition challenger while his duel is fought [blackbeard §R4.5]."""
        self.threat_row: list[int] = []
        """Solitaire: the Crown's face-up AP cards, oldest first [blackbeard §R19.2]."""
        self.end_reason: str | None = None
        self.outcome: Outcome | None = None

    def copy(self) -> Table:
        """An independent table: every container copied, every piece by its own `copy`;
        the data, the chance and the flow are shared (the state gives a copy its own
        flow)."""
        new = copy.copy(self)
        new.options, new.patrols = dict(self.options), dict(self.patrols)
        new.rolled, new.bonus = dict(self.rolled), dict(self.bonus)
        new.seats = [seat.copy() for seat in self.seats]
        new.pirates = {pid: pirate.copy() for pid, pirate in self.pirates.items()}
        new.ports = {code: port.copy() for code, port in self.ports.items()}
        new.merchants = {code: merchant.copy() for code, merchant in self.merchants.items()}
        new.kcs = {kc: commissioner.copy() for kc, commissioner in self.kcs.items()}
        new.merchant_pool, new.hostage_pool = self.merchant_pool[:], self.hostage_pool[:]
        new.warship_pool, new.kc_pool = self.warship_pool[:], self.kc_pool[:]
        new.kcs_killed, new.anti_governors = self.kcs_killed[:], self.anti_governors[:]
        new.removed_governors = self.removed_governors[:]
        new.event_deck, new.discard = self.event_deck[:], self.discard[:]
        new.held_out, new.pirate_deck = self.held_out[:], self.pirate_deck[:]
        new.retired, new.dead = self.retired[:], self.dead[:]
        new.from_bermuda, new.threat_row = self.from_bermuda[:], self.threat_row[:]
        new.turn, new.deployment, new.ap = self.turn.copy(), self.deployment.copy(), self.ap.copy()
        new.challenger = self.challenger.copy() if self.challenger is not None else None
        return new

    # ------------------------------------------------------------------ dice

    def roll(self, count: int, *name: Name) -> tuple[int, ...]:
        """`count` d6 from the stream `name`."""
        return self.chance.rolls(D6, count, *name)

    def d6(self, *name: Name) -> int:
        return self.chance.rolls(D6, 1, *name)[0]

    def d66(self, *name: Name) -> int:
        """Black die tens, white die units [blackbeard §2.5]."""
        tens, units = self.chance.rolls(D6, 2, *name)
        return 10 * tens + units

    def shuffled(self, items: Iterable[T], *name: Name) -> list[T]:
        return self.chance.shuffled(items, *name)

    def where(self, *what: str | int) -> tuple[str | int, ...]:
        """The name of a roll of the current Action: ("turn", t, "action", a, *what)."""
        return ("turn", self.turn.number, "action", self.turn.action_no, *what)

    def ap_roll(self, count: int, *what: str | int) -> int:
        """An anti-pirate side's roll (no one's Cunning touches it), named by its act."""
        return sum(self.roll(count, *self.where("ap", self.ap.acts, *what)))

    def draw_from(self, pool: list[str], *name: Name) -> str | None:
        """A blind draw from a sorted pool; None when it is empty [blackbeard §R0.4]."""
        if not pool:
            return None
        return pool.pop(self.chance.stream(*name).randrange(len(pool)))

    @staticmethod
    def next_port(rolled: int, fits: Callable[[int], bool]) -> int | None:
        """The first code from `rolled` on, in code order and wrapping, that `fits`; None when
        no port does (the stop rule) [blackbeard §6.32]."""
        port = mech.next_available_port(DATA, rolled, lambda port: fits(port.code))
        return port.code if port is not None else None

    # ------------------------------------------------------------------ who and where

    def window_of(self, seat: int) -> Window:
        """A seat's own question: in its turn, or out of it."""
        return Window.TURN if seat == self.turn.active else Window.INTERRUPT

    def still_active(self, pid: str) -> bool:
        """Whether the pirate is on the map and still the Pirate Player's."""
        pirate = self.pirates.get(pid)
        return pirate is not None and pirate.owner == self.turn.active

    @staticmethod
    def at_sea(pirate: Pirate) -> bool:
        """At Sea in a sea area: not In Port, not in a Transit Box."""
        return pirate.port is None and pirate.area in DATA.areas

    def pirates_of(self, seat: int) -> list[Pirate]:
        return [p for p in self.pirates.values() if p.owner == seat]

    def in_port(self, code: int) -> list[Pirate]:
        return [p for p in self.pirates.values() if p.port == code]

    def others(self, seat: int) -> tuple[int, ...]:
        """The other players in Player Order from the player after `seat` [blackbeard §4.63]."""
        start = self.order.index(seat)
        return tuple(self.order[(start + k) % self.players] for k in range(1, self.players))

    def port_areas(self, code: int) -> tuple[str, ...]:
        return DATA.ports[code].areas

    def governor_side(self, code: int) -> str | None:
        governor = self.ports[code].governor
        return DATA.governors[governor].side if governor is not None else None

    def attitude(self, pirate: Pirate, code: int) -> str:
        """The port's attitude to `pirate`; an allied pirate's Letter of Marque cannot be
        used [blackbeard §9.31, §9.58, §11.15]."""
        return mech.port_attitude(
            DATA, DATA.ports[code], self.ports[code], pirate, letter_of_marque=pirate.ally is None
        )

    def can_enter(self, pirate: Pirate, code: int) -> bool:
        """Whether a Move may take him (and his ally, who moves with him) into the port
        [blackbeard §7.3, §9.31, §11.12, §11.15, §R18.41]."""
        if pirate.ally is None:
            return mech.may_enter(
                DATA,
                DATA.ports[code],
                self.ports[code],
                pirate,
                pardon_in_force=self.pardon_in_force,
            )
        return all(
            mech.may_enter(
                DATA,
                DATA.ports[code],
                self.ports[code],
                each,
                pardon_in_force=self.pardon_in_force,
                letter_of_marque=each.ally is None,
            )
            for each in self.alliance(pirate)
        )

    # ------------------------------------------------------------------ alliances (11.0)

    def partner(self, pirate: Pirate) -> Pirate | None:
        """His ally, if he is allied [blackbeard §11.11]."""
        return self.pirates.get(pirate.ally) if pirate.ally is not None else None

    def alliance(self, pirate: Pirate) -> tuple[Pirate, ...]:
        """He and his ally, who act as one [blackbeard §11.12]."""
        partner = self.partner(pirate)
        return (pirate,) if partner is None else (pirate, partner)

    def leads(self, pirate: Pirate) -> bool:
        """Whether he is the alliance's Active Pirate when it acts: more NP, then the higher
        Leadership; on a full tie either, as the player names [blackbeard §11.12]."""
        partner = self.partner(pirate)
        if partner is None:
            return True
        mine = (pirate.notoriety, DATA.pirates[pirate.id].leadership)
        return mine >= (partner.notoriety, DATA.pirates[partner.id].leadership)

    def by_leadership(self, pirate: Pirate, partner: Pirate) -> tuple[Pirate, Pirate]:
        """The two allies, the higher Leadership first (on a tie `pirate`, the Active
        Pirate, first): he gets the odd remainder [blackbeard §11.13]."""
        if DATA.pirates[partner.id].leadership > DATA.pirates[pirate.id].leadership:
            return partner, pirate
        return pirate, partner

    def rating(self, pirate: Pirate, name: str, best: Callable[..., int] = max) -> int:
        """A pirate rating of an alliance is either ally's, as the player chooses: the one
        `best` for him [blackbeard §11.12]."""
        return best(getattr(DATA.pirates[each.id], name) for each in self.alliance(pirate))

    def speed_of(self, pirate: Pirate) -> int:
        """An alliance's Speed is the lower of the two [blackbeard §11.12]."""
        return min(each.ship.speed for each in self.alliance(pirate))

    def shared_notoriety(self, pirate: Pirate, points: int, reason: str) -> None:
        """NP gained by an alliance are split equally, the odd point to the higher
        Leadership [blackbeard §11.13]."""
        partner = self.partner(pirate)
        if partner is None:
            self.notoriety(pirate, points, reason)
            return
        high, low = self.by_leadership(pirate, partner)
        more, less = mech.share(points)
        self.notoriety(high, more, reason)
        self.notoriety(low, less, reason)

    def shared_loyalty(self, pirate: Pirate, delta: int, reason: str) -> None:
        """A Crew Loyalty change of an alliance applies in full to both ships
        [blackbeard §11.13]."""
        for each in self.alliance(pirate):
            self.loyalty(each, delta, reason)

    def shared_loyalty_row(self, pirate: Pirate, key: str) -> None:
        for each in self.alliance(pirate):
            self.loyalty_row(each, key)

    def clear_sack(self, pirate: Pirate) -> None:
        """His alliance's Sack is tried, or lost to another Action: no ally may Sack
        without a new Attack [blackbeard §9.55, §11.12]."""
        for each in self.alliance(pirate):
            each.sack_pending = None

    def ally(self, pirate: Pirate, other: Pirate) -> None:
        pirate.ally, other.ally = other.id, pirate.id
        self.flow.emit("alliance_formed", {"seat": pirate.owner, "pirates": [pirate.id, other.id]})

    def dissolve(self, pirate: Pirate, reason: str) -> None:
        """The alliance ends [blackbeard §11.16]."""
        partner = self.partner(pirate)
        pirate.ally = None
        if partner is not None:
            partner.ally = None
            self.flow.emit(
                "alliance_dissolved",
                {"seat": pirate.owner, "pirates": [pirate.id, partner.id], "reason": reason},
            )

    def steps(self, pirate: Pirate) -> list[tuple[str, str | int]]:
        """The places one Move step can take him: ("area", id), ("transit", id) or ("port",
        code) [blackbeard §7.11, §7.3]."""
        barred = self.barred(pirate)
        if pirate.port is not None:
            return [("area", area) for area in self.port_areas(pirate.port) if area not in barred]
        out: list[tuple[str, str | int]] = [
            ("transit" if near in DATA.transits else "area", near)
            for near in self.neighbours[pirate.area]
            if near not in barred
        ]
        if pirate.area in DATA.areas:
            out += [
                ("port", port.code)
                for port in PORTS_OF[pirate.area]
                if self.can_enter(pirate, port.code)
            ]
        return out

    def kc_of(self, seat: int) -> Commissioner | None:
        """The KC `seat` controls: at most one [blackbeard §10.13]."""
        return next((kc for kc in self.kcs.values() if kc.owner == seat), None)

    def crown_kcs(self) -> list[Commissioner]:
        return sorted((kc for kc in self.kcs.values() if kc.owner == CROWN), key=lambda k: k.id)

    @property
    def level(self) -> SolitaireLevel:
        """Solitaire's difficulty level: budget, KC limit, Threat Row size, VP target
        [blackbeard §R19.7]."""
        return DATA.setup.solitaire_levels[self.options["solitaire_level"]]

    def kc_room(self, seat: int) -> bool:
        """Whether `seat` may bring in a KC: a player controls one at most (10.13); the
        Crown fewer than its level's limit [blackbeard §R19.2]."""
        if seat == CROWN:
            return len(self.crown_kcs()) < self.level.kc_limit
        return self.kc_of(seat) is None

    def place_kc(self, kc: str, seat: int, area: str, how: str) -> None:
        self.kcs[kc] = Commissioner(kc, seat, area)
        self.flow.emit("kc_placed", {"kc": kc, "seat": seat, "area": area, "how": how})

    def barred(self, pirate: Pirate) -> tuple[str, ...]:
        """Sea areas he may not enter: his own player's KC's, whose port he may not leave
        either [blackbeard §10.27]."""
        return self.kc_areas(pirate.owner)

    def kc_areas(self, seat: int) -> tuple[str, ...]:
        """The sea areas of `seat`'s own KC: none of his pirates may enter one, stay there
        or be placed there new [blackbeard §10.27, §5.15]."""
        return tuple(kc.area for kc in self.kcs.values() if kc.owner == seat)

    def merchants_near(self, pirate: Pirate) -> list[Merchant]:
        """Merchants in the Merchant boxes of his sea area's ports [blackbeard §8.11]."""
        if pirate.port is not None or pirate.area not in DATA.areas:
            return []
        return [
            self.merchants[port.code]
            for port in PORTS_OF[pirate.area]
            if port.code in self.merchants
        ]

    # ------------------------------------------------------------------ the pirates' tracks

    def full(self, ship: Ship) -> tuple[int, int]:
        kind = DATA.ship_types[ship.type]
        return kind.combat, kind.speed

    def loyalty(self, pirate: Pirate, delta: int, reason: str) -> None:
        """Change Crew Loyalty within 0..max [blackbeard §R3.1]."""
        ship = pirate.ship
        new = mech.crew_loyalty(DATA, ship.loyalty, delta, crew_loyalty_max=self.loyalty_max)
        if new != ship.loyalty:
            ship.loyalty = new
            self.flow.emit(
                "loyalty", {"pirate": pirate.id, "change": delta, "loyalty": new, "reason": reason}
            )

    def loyalty_row(self, pirate: Pirate, key: str) -> None:
        row = LOYALTY[key]
        if row.set_to is not None:
            pirate.ship.loyalty = row.set_to
        self.loyalty(pirate, row.change, key)

    def notoriety(self, pirate: Pirate, points: int, reason: str) -> None:
        if points:
            pirate.notoriety += points
            seat = self.seats[pirate.owner]
            seat.best_notoriety = max(seat.best_notoriety, pirate.notoriety)
            self.flow.emit(
                "notoriety",
                {
                    "pirate": pirate.id,
                    "gained": points,
                    "notoriety": pirate.notoriety,
                    "reason": reason,
                },
            )

    def hit(self, pirate: Pirate, track: str, hits: int, reason: str) -> bool:
        """Apply `hits` one at a time to Combat or Speed; True when the ship sinks
        [blackbeard §6.25, §6.26]."""
        ship = pirate.ship
        result = mech.damage(DATA, ship, track, hits, sunk_positions=self.speed_sunk)
        ship.combat, ship.speed = result.combat, result.speed
        if result.loyalty:
            self.loyalty(pirate, result.loyalty, "speed_below_zero")
        if result.sunk:
            return self.sink(pirate, reason)
        if hits:
            self.flow.emit(
                "damage",
                {
                    "pirate": pirate.id,
                    "track": track,
                    "hits": hits,
                    "combat": ship.combat,
                    "speed": ship.speed,
                    "reason": reason,
                },
            )
        return False

    def repair(self, pirate: Pirate, speed_hits: int, combat_hits: int) -> None:
        ship = pirate.ship
        combat, speed = self.full(ship)
        ship.speed = min(speed, ship.speed + speed_hits)
        ship.combat = min(combat, ship.combat + combat_hits)

    def damage(self, pirate: Pirate) -> tuple[int, int]:
        """Hits to repair: (Speed, Combat)."""
        combat, speed = self.full(pirate.ship)
        return speed - pirate.ship.speed, combat - pirate.ship.combat

    def revelry(self, pirate: Pirate, side: str) -> None:
        """Enter D&R: one marker only, involuntary wins; Crew Loyalty +3 in a Pirate Port,
        else +1 [blackbeard §13.13, §13.21]."""
        ship = pirate.ship
        if ship.revelry is not None:
            if side == INVOLUNTARY:
                ship.revelry = INVOLUNTARY
            return
        ship.revelry = side
        pirate.recover_progress = 0
        in_pirate_port = pirate.port is not None and DATA.ports[pirate.port].pirate_port
        self.flow.emit("revelry", {"pirate": pirate.id, "side": side})
        self.loyalty(pirate, mech.revelry_loyalty(DATA, pirate_port=in_pirate_port), "revelry")

    # ------------------------------------------------------------------ placing and leaving

    def deploy(
        self, seat: int, card: str, area: str, kind: str, *, from_hand: bool = True
    ) -> Pirate:
        """A Pirate card from the hand to the map, with a new ship and display
        [blackbeard §5.13]."""
        if from_hand:
            self.seats[seat].pirate_cards.remove(card)
        pirate = Pirate(card, seat, area, self.new_ship(kind), deployed_turn=self.turn.number)
        self.pirates[card] = pirate
        self.flow.emit(
            "pirate_deployed", {"seat": seat, "pirate": card, "area": area, "ship": kind}
        )
        return pirate

    def place_at_sea(self, pirate: Pirate, area: str | None = None) -> None:
        """Put him At Sea in his port's area. From Bermuda without `area` he goes to its first
        area and joins `from_bermuda`: `bermuda.Bermuda` asks his owner for North Atlantic
        or Central Atlantic [blackbeard §2.2, §7.3]."""
        if pirate.port is not None:
            areas = self.port_areas(pirate.port)
            if area is None and len(areas) > 1:
                self.from_bermuda.append(pirate.id)
            pirate.area = area or areas[0]
        pirate.port = None
        pirate.recover_progress = 0
        self.forget_located(pirate)

    def forget_located(self, pirate: Pirate) -> None:
        for merchant in self.merchants.values():
            if merchant.located_by == pirate.id:
                merchant.located_by = None

    def new_ship(self, kind: str, loyalty: int | None = None) -> Ship:
        ship_type = DATA.ship_types[kind]
        start = DATA.tracks["loyalty"].start
        return Ship(
            kind,
            ship_type.combat,
            ship_type.speed,
            loyalty if loyalty is not None else (start if start is not None else 7),
            [0] * ship_type.holds,
        )

    def place_merchant(self, code: int | None, merchant_id: str) -> None:
        if code is None:
            self.merchant_pool.append(merchant_id)
            self.merchant_pool.sort()
            self.flow.emit("merchant_unplaced", {})
            return
        self.merchants[code] = Merchant(merchant_id, code)
        self.flow.emit("merchant_placed", {"port": code})

    def new_merchant(self, *name: str | int) -> bool:
        """One merchant drawn blind and placed face down by d66; False when the pool is
        empty [blackbeard §6.31, §6.32]."""
        merchant = self.draw_from(self.merchant_pool, "merchants", *name, "pool")
        if merchant is None:
            return False
        self.place_merchant(
            self.next_port(self.d66("merchants", *name, "port"), self.merchant_fits), merchant
        )
        return True

    def merchant_fits(self, code: int) -> bool:
        return (
            not DATA.ports[code].pirate_port
            and not self.ports[code].destroyed
            and code not in self.merchants
        )

    def remove_merchant(self, code: int) -> None:
        merchant = self.merchants.pop(code)
        self.merchant_pool.append(merchant.id)
        self.merchant_pool.sort()

    def return_hostage(self, hostage_id: str) -> None:
        self.hostage_pool.append(hostage_id)
        self.hostage_pool.sort()

    def destroy_port(self, code: int) -> None:
        """The Port destroyed procedure, in its order [blackbeard §9.59]."""
        state = self.ports[code]
        state.destroyed = True
        if state.governor is not None:
            self.removed_governors.append(state.governor)
            for pirate in self.pirates.values():
                pirate.bribed.discard(state.governor)
            state.governor = None
        state.safe_haven = None
        for pirate in self.pirates.values():
            pirate.information.pop(code, None)
        if code in self.merchants:
            self.remove_merchant(code)
        for pirate in self.in_port(code):
            self.place_at_sea(pirate)
        self.flow.emit("port_destroyed", {"port": code})

    def place_governor(self, governor: str, code: int) -> None:
        """A Governor takes a port: a Pro-Pirate one there leaves the game with his Safe
        Haven and bribes; a new Anti-Pirate one Ousts every pirate there, with no NP
        [blackbeard §9.22, §9.24]."""
        state = self.ports[code]
        if state.governor is not None:
            old = state.governor
            self.removed_governors.append(old)
            for pirate in self.pirates.values():
                pirate.bribed.discard(old)
        state.governor = governor
        side = DATA.governors[governor].side
        if side == "anti":
            state.safe_haven = None
            for pirate in self.in_port(code):
                self.place_at_sea(pirate)
                self.flow.emit("ousted", {"pirate": pirate.id, "port": code, "area": pirate.area})
        self.flow.emit("governor_placed", {"port": code, "side": side, "governor": governor})

    def remove_pirate(self, pirate: Pirate, why: str) -> None:
        """He leaves play (retired or dead): hostages to the pool, Safe Havens end, a
        Buried Treasure is discarded, his display is free; an alliance ends with him
        [blackbeard §R18.42, §11.16]."""
        if pirate.ally is not None:
            self.dissolve(pirate, why)
        del self.pirates[pirate.id]
        for hostage in pirate.ship.hostages:
            self.return_hostage(hostage.id)
        pirate.ship.hostages = []
        for state in self.ports.values():
            if state.safe_haven == pirate.id:
                state.safe_haven = None
        if pirate.buried_treasure:
            pirate.buried_treasure = False
            self.discard.append(DATA.card("buried_treasure").number)
        for merchant in self.merchants.values():
            if merchant.located_by == pirate.id:
                merchant.located_by = None
        (self.retired if why == "retired" else self.dead).append(pirate.id)

    # ------------------------------------------------------------------ scoring

    def score(
        self, seat: int, vp: int, case: str, pirate: str | None = None, net_worth_vp: int = 0
    ) -> None:
        """VP when earned [blackbeard §R18.12]."""
        player = self.seats[seat]
        player.vp += vp
        player.vp_from_net_worth += net_worth_vp
        self.flow.emit(
            "scored", {"seat": seat, "vp": vp, "case": case, "pirate": pirate, "total": player.vp}
        )

    def sink(self, pirate: Pirate, reason: str) -> bool:
        self.flow.emit("sunk", {"pirate": pirate.id, "reason": reason})
        self.eliminate(pirate, "sunk")
        return True

    def retire(self, pid: str, case: str, price: int) -> None:
        """The owner scores NP + Net Worth at the case's rate [blackbeard §R18.3, §R18.42]."""
        pirate = self.pirates[pid]
        pirate.net_worth -= price
        score = mech.retirement_score(
            DATA,
            case,
            pirate.notoriety,
            pirate.net_worth,
            net_worth_per_vp=self.options["net_worth_per_vp"],
            pirate_port_retirement_rate=self.options["pirate_port_retirement_rate"],
        )
        self.seats[pirate.owner].retired.append(pid)
        self.flow.emit(
            "retired",
            {
                "pirate": pid,
                "seat": pirate.owner,
                "case": case,
                "price": price,
                "notoriety": pirate.notoriety,
                "net_worth": pirate.net_worth,
            },
        )
        self.score(pirate.owner, score.vp, "A", pid, score.from_net_worth)
        self.remove_pirate(pirate, "retired")
        self.turn.active_pirate = None

    def eliminate(self, pirate: Pirate, cause: str) -> None:
        """Case B: the owner scores his NP, his Net Worth is lost [blackbeard §R18.12]."""
        self.seats[pirate.owner].eliminated.append(pirate.id)
        self.score(
            pirate.owner, mech.score(DATA, "B", notoriety=pirate.notoriety).vp, "B", pirate.id
        )
        self.flow.emit("pirate_died", {"pirate": pirate.id, "seat": pirate.owner, "cause": cause})
        self.remove_pirate(pirate, "dead")

    # ------------------------------------------------------------------ cards

    def actions_of(self, card: int) -> int | str:
        return self.deck_cards[card].actions

    def card_key(self, card: int) -> str:
        return self.deck_cards[card].key

    def is_diamond(self, card: int) -> bool:
        return self.deck_cards[card].actions == DIAMOND

    def draw_event(self) -> int | None:
        """The top card; an empty deck is the discard pile (and, the first time in a long
        game, the General Pardons) shuffled [blackbeard §R4.6]."""
        if not self.event_deck:
            cards = sorted(self.discard + self.held_out)
            self.discard, self.held_out = [], []
            if not cards:
                return None
            self.event_deck = self.shuffled(cards, "events", self.event_shuffles)
            self.event_shuffles += 1
            self.flow.emit("events_reshuffled", {"cards": len(cards)})
        return self.event_deck.pop()

    # ------------------------------------------------------------------ the Action's fate

    def cancel_action(self, pid: str, why: str) -> None:
        """The Pirate Action is cancelled and lost; a merchant it looted, or located,
        goes back to the pool; a pending D&R card takes effect now [blackbeard §6.45,
        §10.33, §R4.5]."""
        if self.ap.cancelled:
            return
        self.ap.cancelled = True
        self.flow.emit("action_cancelled", {"pirate": pid, "action": self.ap.action, "why": why})
        code = self.ap.target
        merchant = self.merchants.get(code) if self.ap.action in ("loot", "locate") else None
        if merchant is not None and (self.ap.action == "loot" or merchant.located_by == pid):
            self.remove_merchant(code)
            self.flow.emit("merchant_escaped", {"port": code})
        self.apply_revelry_cards()

    def apply_revelry_cards(self) -> None:
        """A D&R card played during the Action takes effect when it is completed or
        cancelled [blackbeard §R4.5]."""
        due, self.ap.revelry = self.ap.revelry, []
        for pid in due:
            if pid in self.pirates:
                self.revelry_card(self.pirates[pid])

    def revelry_card(self, pirate: Pirate) -> None:
        """A D&R card's effect: allies In Port part and each reels; allies At Sea both
        [blackbeard §11.16, §R4.5]."""
        allies = self.alliance(pirate)
        if len(allies) > 1 and pirate.port is not None:
            self.dissolve(pirate, "debauchery")
        for each in allies:
            self.revelry(each, INVOLUNTARY)
