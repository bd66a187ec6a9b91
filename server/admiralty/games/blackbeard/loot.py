"""Taking Booty: Action C, Loot a merchant, with its cargo, conversion, hostage and the
voluntary D&R that follows [blackbeard §8.2, §8.32, §8.43, §8.5, §8.35]; digging up a
Buried Treasure [blackbeard §R4.5]; and stowing doubloons in the holds, an alliance's split
between its two ships [blackbeard §11.13].
"""

from __future__ import annotations

from functools import cache

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.choices import YES, YES_NO, opt
from admiralty.games.blackbeard.pieces import VOLUNTARY, Hostage, Pirate
from admiralty.games.blackbeard.rolls import RollPoints
from admiralty.games.blackbeard.table import DATA, Table
from admiralty.games.flow import Continuation, Flow, step

TURN = Window.TURN
TREASURE = DATA.card("buried_treasure")
SHARE_UNIT = 50
"""Allies' Booty splits in 50 doubloons, the smallest sum on the charts [blackbeard §11.13]."""


@cache
def hold_option(index: int, doubloons: int) -> Option:
    if doubloons:
        return Option(
            f"dump:{index}",
            f"dump hold {index} ({doubloons}) and use it",
            {"hold": index, "dump": doubloons},
        )
    return Option(f"hold:{index}", f"empty hold {index}", {"hold": index, "dump": 0})


@cache
def into_option(index: int) -> Option:
    return Option(f"hold:{index}", f"into hold {index}", {"hold": index})


@cache
def convert_option(kind: str) -> Option:
    return Option(
        f"convert:{kind}",
        f"convert to the {DATA.ship_types[kind].name}",
        {"convert": kind, "hold": None},
    )


LEAVE = opt("leave", "leave the Booty (declining it)", hold=None)
KEEP, DECLINE = opt("keep", "keep the Booty", keep=True), opt("decline", "release it", keep=False)
RANSOM, TORTURE = (
    opt("ransom", "hold for ransom", fate="ransom"),
    opt("torture", "torture", fate="torture"),
)


def as_dice(total: int, count: int) -> list[int]:
    """Dice of 1-6 with this total, for the mechanics that read dice (the total matters)."""
    dice = [1] * count
    for index in range(count):
        dice[index] += min(5, total - sum(dice))
    return dice


def hold_options(holds: list[int], booty: int) -> list[Option]:
    """The holds a whole Booty may go into: the first empty one; a full one dumped only
    when none is empty [blackbeard §8.33, §9.53]."""
    return [hold_option(index, holds[index]) for index in mech.booty_holds(holds, booty)]


class Loot:
    """Action C, the Buried Treasure and the holds."""

    flow: Flow

    def __init__(self, table: Table, rolls: RollPoints) -> None:
        self.table = table
        self.rolls = rolls

    def performs(self) -> dict[str, Continuation]:
        """The steps that carry out its Actions, by Action."""
        return {"loot": self._do_loot, "dig": self._do_dig}

    # ------------------------------------------------------------------ C Loot (8.2, 8.3)

    def _do_loot(self, pid: str, code: int) -> None:
        """Step 1: the Cargo roll and the hostage drawn; keep the Booty or release it
        [blackbeard §8.32, §8.41]."""
        self.rolls.roll(pid, "cargo", 1, False, step(self._loot_rolled, pid, code))

    def _loot_rolled(self, pid: str, code: int) -> None:
        table = self.table
        pirate, merchant = table.pirates[pid], table.merchants[code]
        kind = DATA.merchants[merchant.id]
        roll = table.rolled["cargo"]
        cargo = mech.cargo(DATA, roll, kind, pirate.area)
        booty, change = cargo.doubloons, cargo.loyalty
        hostage = table.draw_from(table.hostage_pool, *table.where("hostage"))
        self.flow.emit(
            "loot_rolled",
            {
                "pirate": pid,
                "port": code,
                "roll": roll,
                "cargo_value": kind.cargo_value,
                "booty": booty,
                "loyalty": change,
                "hostage": hostage,
            },
        )
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "loot_keep",
            "Keep the Booty (cargo and hostage)?",
            (KEEP, DECLINE),
            step(self._loot_keep, pid, code, booty, change, hostage),
        )

    def _loot_keep(
        self, option: Option, pid: str, code: int, booty: int, change: int, hostage: str | None
    ) -> None:
        table = self.table
        pirate = table.pirates[pid]
        if option is DECLINE:
            table.shared_loyalty_row(pirate, "cargo_declined")
            if hostage is not None:
                table.return_hostage(hostage)
            table.remove_merchant(code)
            self.flow.emit("loot_declined", {"pirate": pid, "port": code})
            return
        self.flow.push(
            step(self._loot_hostage, pid, code, hostage), step(self._loot_end, pid, code)
        )
        if booty == 0:  # a cargo of nothing needs no hold but is taken [blackbeard §8.33]
            self._cargo_taken(pirate, code, change, 0, None)
            return
        options = hold_options(pirate.ship.holds, booty)
        kind = DATA.merchants[table.merchants[code].id]
        if kind.convertible:
            options.append(convert_option(kind.id))
        options.append(LEAVE)
        other = 0
        partner = table.partner(pirate)
        if partner is not None:  # each ally's ship stows his share [blackbeard §11.13]
            booty, other = self._split(pirate, partner, booty)
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "cargo_hold",
            "Where does the cargo go?",
            tuple(options),
            step(self._cargo_placed, pid, code, booty, change, other),
        )

    def _cargo_placed(
        self, option: Option, pid: str, code: int, booty: int, change: int, other: int = 0
    ) -> None:
        """Step 2: an empty hold, a dumped hold, a converted ship, or the cargo left; an
        ally's share then goes into his own ship [blackbeard §8.33, §8.5, §11.13]."""
        table = self.table
        pirate = table.pirates[pid]
        if option is LEAVE:
            table.shared_loyalty_row(pirate, "cargo_declined")
            self.flow.emit("cargo_left", {"pirate": pid})
            return
        if other and pirate.ally is not None:
            self._stow_share(pirate.ally, other)
        if "convert" in option.payload:
            self._convert(pirate, code)
            self._convert_fit(pid, code, booty, change)
            return
        hold = option.payload["hold"]
        self._cargo_taken(pirate, code, change, booty, hold)

    def _cargo_taken(
        self, pirate: Pirate, code: int, change: int, booty: int, hold: int | None
    ) -> None:
        table = self.table
        if hold is not None:
            self._stow_in(pirate.id, hold, booty)
        kind = DATA.merchants[table.merchants[code].id]
        table.shared_notoriety(pirate, mech.cargo(DATA, 1, kind, pirate.area).notoriety, "loot")
        if change:
            table.shared_loyalty(pirate, change, "cargo")

    def _convert(self, pirate: Pirate, code: int) -> None:
        """The new ship at full Combat and Speed; Loyalty +1 larger, -1 smaller; the old
        cargoes kept, the new one needing a hold [blackbeard §8.5]."""
        ship = pirate.ship
        new = mech.conversion(
            DATA, ship, DATA.merchants[self.table.merchants[code].id], storing_cargo=True
        )
        cargoes = [d for d in ship.holds if d]
        holds = DATA.ship_types[new.type].holds
        ship.type, ship.combat, ship.speed = new.type, new.combat, new.speed
        ship.holds = cargoes + [0] * max(0, holds - len(cargoes))
        self.flow.emit("converted", {"pirate": pirate.id, "ship": new.type, "dump": new.dump})
        self.table.loyalty(pirate, new.loyalty, "conversion")

    def _convert_fit(self, pid: str, code: int, booty: int, change: int) -> None:
        pirate = self.table.pirates[pid]
        ship = pirate.ship
        capacity = DATA.ship_types[ship.type].holds
        full = [i for i, d in enumerate(ship.holds) if d]
        if len(full) <= capacity - 1:
            cargoes = [ship.holds[i] for i in full]
            ship.holds = cargoes + [0] * (capacity - len(cargoes))
            self._cargo_taken(pirate, code, change, booty, len(cargoes))
            return
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "dump_cargo",
            "Which old cargo goes overboard?",
            tuple(opt(f"dump:{i}", f"dump hold {i} ({ship.holds[i]})", hold=i) for i in full),
            step(self._convert_dumped, pid, code, booty, change),
        )

    def _convert_dumped(self, option: Option, pid: str, code: int, booty: int, change: int) -> None:
        pirate = self.table.pirates[pid]
        dumped = pirate.ship.holds.pop(option.payload["hold"])
        self.flow.emit("cargo_dumped", {"pirate": pid, "doubloons": dumped})
        self._convert_fit(pid, code, booty, change)

    def _loot_hostage(self, pid: str, code: int, hostage: str | None) -> None:
        """Ransom (a Nationality marker of the destination) or torture [blackbeard §8.43]."""
        if hostage is None:
            return
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "hostage_fate",
            "The hostage: ransom or torture?",
            (RANSOM, TORTURE),
            step(self._hostage_fate, pid, code, hostage),
        )

    def _hostage_fate(self, option: Option, pid: str, code: int, hostage: str) -> None:
        pirate = self.table.pirates[pid]
        if option is RANSOM:
            nation = DATA.ports[code].nation or ""
            pirate.ship.hostages.append(Hostage(hostage, nation))
            self.flow.emit("hostage_kept", {"pirate": pid, "hostage": hostage, "nation": nation})
            return
        self.rolls.roll(pid, "torture", 1, True, step(self._torture_result, pid, code, hostage))

    def _torture_result(self, pid: str, code: int, hostage: str) -> None:
        """1d6 above Cruelty: he talks; NP and Loyalty either way [blackbeard §8.45]."""
        table = self.table
        pirate = table.pirates[pid]
        roll = table.rolled["torture"]
        cruelty = table.rating(pirate, "cruelty", min) - table.bonus["torture"]
        result = mech.torture(DATA, roll, cruelty, DATA.hostages[hostage])
        if result.talks:
            pirate.information[code] = pirate.information.get(code, 0) + result.information
        self.flow.emit(
            "tortured",
            {
                "pirate": pid,
                "hostage": hostage,
                "roll": roll,
                "talked": result.talks,
                "port": code,
                "information": result.information,
            },
        )
        table.shared_notoriety(pirate, result.notoriety, "torture")
        table.shared_loyalty(pirate, result.loyalty, "torture")
        table.return_hostage(hostage)

    def _loot_end(self, pid: str, code: int) -> None:
        """Steps 3-4: the merchant to the pool; voluntary D&R [blackbeard §8.34, §8.35]."""
        self.table.remove_merchant(code)
        self.ask_revelry(pid)

    def ask_revelry(self, pid: str) -> None:
        """Voluntary D&R, for a pirate not in D&R already [blackbeard §8.35, §9.4]."""
        if self.table.pirates[pid].ship.revelry is None:
            self.flow.ask(
                self.table.turn.seat,
                TURN,
                "revelry",
                "Debauchery & Revelry?",
                YES_NO,
                step(self._revelry_choice, pid),
            )

    def _revelry_choice(self, option: Option, pid: str) -> None:
        if option is YES:
            self.table.revelry(self.table.pirates[pid], VOLUNTARY)

    # ------------------------------------------------------------------ Buried Treasure

    def _do_dig(self, pid: str, target: None) -> None:
        """1d6: 1-2 nothing; else 3d6 x 100 into one hold; the card is discarded
        [blackbeard §R4.5]."""
        self.rolls.roll(pid, "dig", 1, False, step(self._dig_rolled, pid))

    def _dig_rolled(self, pid: str) -> None:
        table = self.table
        pirate, params, roll = table.pirates[pid], TREASURE.params, table.rolled["dig"]
        pirate.buried_treasure = False
        table.discard.append(TREASURE.number)
        if roll <= params["dig_fail_max"]:
            self.flow.emit("treasure_dug", {"pirate": pid, "roll": roll, "doubloons": 0})
            return
        self.rolls.roll(
            pid, "treasure", params["treasure_dice"], False, step(self._treasure_rolled, pid)
        )

    def _treasure_rolled(self, pid: str) -> None:
        rolled = self.table.rolled["treasure"]
        amount = rolled * TREASURE.params["doubloons_per_pip"]
        self.flow.emit("treasure_dug", {"pirate": pid, "roll": rolled, "doubloons": amount})
        self.stow("treasure_hold", pid, amount)

    # ------------------------------------------------------------------ the holds

    def _split(self, pirate: Pirate, partner: Pirate, amount: int) -> tuple[int, int]:
        """An alliance's Booty split: `pirate`'s share, then his partner's; the odd 50 to
        the higher Leadership [blackbeard §11.13]."""
        high, _ = self.table.by_leadership(pirate, partner)
        more, less = mech.share(amount, SHARE_UNIT)
        return (more, less) if high is pirate else (less, more)

    def stow(self, kind: str, pid: str, amount: int) -> None:
        """Doubloons into any hold of the pirate, even a full one; an alliance's split
        between the two ships [blackbeard §11.13]."""
        self._ask_into_hold(kind, pid, amount, True)

    def _ask_into_hold(self, kind: str, pid: str, amount: int, split: bool) -> None:
        table = self.table
        pirate = table.pirates.get(pid)
        if pirate is None or not amount:
            return
        partner = table.partner(pirate) if split else None
        if partner is not None:
            amount, other = self._split(pirate, partner, amount)
            self.flow.push(step(self._ask_into_hold, kind, partner.id, other, False))
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            kind,
            f"Into which hold of {DATA.pirates[pid].name} ({amount})?",
            tuple(into_option(i) for i in range(len(pirate.ship.holds))),
            step(self._into_hold, pid, amount),
        )

    def _into_hold(self, option: Option, pid: str, amount: int) -> None:
        self.table.pirates[pid].ship.holds[option.payload["hold"]] += amount

    def booty_split(self, pirate: Pirate, booty: int) -> int:
        """A Booty taken whole by an alliance: `pirate`'s share; his ally is asked where
        his own goes after `pirate` is [blackbeard §11.13]."""
        partner = self.table.partner(pirate)
        if partner is None:
            return booty
        booty, other = self._split(pirate, partner, booty)
        if other:
            self._stow_share(partner.id, other)
        return booty

    def _stow_share(self, pid: str, booty: int) -> None:
        """Ask, after what is asked now, where an ally's share of a Booty goes."""
        self.flow.push(step(self._share_cargo, pid, booty))

    def _share_cargo(self, pid: str, booty: int) -> None:
        """The ally's share of a cargo: into an empty hold, a dumped one, or left
        [blackbeard §11.13, §8.33]."""
        pirate = self.table.pirates.get(pid)
        if pirate is None:
            return
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "share_hold",
            f"Where does {DATA.pirates[pid].name}'s share ({booty}) go?",
            (*hold_options(pirate.ship.holds, booty), LEAVE),
            step(self._share_stowed, pid, booty),
        )

    def _share_stowed(self, option: Option, pid: str, booty: int) -> None:
        self.stowed(option, pid, booty)

    def stowed(self, option: Option, pid: str, booty: int) -> None:
        """A whole Booty into the hold `option` names, what it held dumped, or left
        [blackbeard §8.33, §9.53]."""
        if option is LEAVE:
            self.flow.emit("booty_left", {"pirate": pid, "booty": booty})
            return
        self._stow_in(pid, option.payload["hold"], booty)

    def _stow_in(self, pid: str, hold: int, booty: int) -> None:
        ship = self.table.pirates[pid].ship
        dumped, ship.holds[hold] = ship.holds[hold], booty
        self.flow.emit(
            "cargo_taken", {"pirate": pid, "hold": hold, "booty": booty, "dumped": dumped}
        )
