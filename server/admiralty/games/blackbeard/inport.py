"""Action D, In-Port Activities [blackbeard §9.4]: ransom hostages, cash the holds, repair,
buy a Safe Haven and D&R, in this order; an alliance's for each ship in turn, the Active
Pirate's first [blackbeard §11.12].
"""

from __future__ import annotations

from functools import cache

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.choices import NO, PAY, REFUSE, YES_NO, subsets, target_pirate
from admiralty.games.blackbeard.loot import Loot, as_dice
from admiralty.games.blackbeard.pieces import INVOLUNTARY
from admiralty.games.blackbeard.rolls import RollPoints
from admiralty.games.blackbeard.table import DATA, FIG, FRIENDLY, PIRATE_PORT, Table
from admiralty.games.flow import Continuation, Flow, Step, step

TURN = Window.TURN


@cache
def repair_option(speed: int, combat: int) -> Option:
    return Option(
        f"repair:speed={speed},combat={combat}",
        f"{speed} to Speed, {combat} to Combat",
        {"speed": speed, "combat": combat},
    )


class InPort:
    """In-Port Activities."""

    flow: Flow

    def __init__(self, table: Table, rolls: RollPoints, loot: Loot) -> None:
        self.table = table
        self.rolls = rolls
        self.loot = loot

    def performs(self) -> dict[str, Continuation]:
        """The steps that carry out its Actions, by Action."""
        return {"in_port": self._do_in_port}

    def _do_in_port(self, pid: str, target: None) -> None:
        """Ransom, cash, repairs, a Safe Haven, D&R, in this order [blackbeard §9.4]; an
        alliance's for each ship in turn, the Active Pirate's first, with one repair for
        both in his turn [blackbeard §11.12, §11.14]."""
        table = self.table
        table.turn.must_revel = None
        steps: list[Step] = []
        for pirate in table.alliance(table.pirates[pid]):
            assert pirate.port is not None
            code, each = pirate.port, pirate.id
            attitude, port = table.attitude(pirate, code), DATA.ports[code]
            ransoms = tuple(
                h.id for h in pirate.ship.hostages if mech.may_ransom(DATA, port, attitude, h)
            )
            steps += (step(self._ip_ransom, each, ransoms), step(self._ip_cash, each))
            steps += (step(self._ip_repair, each),) if each == pid else ()
            steps += (step(self._ip_safe_haven, each), step(self._ip_revelry, each))
        self.flow.push(*steps)

    def _ip_ransom(self, pid: str, hostages: tuple[str, ...]) -> None:
        if not hostages or pid not in self.table.pirates:
            return
        self.flow.push(step(self._ip_ransom, pid, tuple(hostages[1:])))
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "ransom",
            f"Ransom {DATA.hostages[hostages[0]].name}?",
            YES_NO,
            step(self._ip_ransomed, pid, hostages[0]),
        )

    def _ip_ransomed(self, option: Option, pid: str, hostage: str) -> None:
        """2d6 x Value x 50 doubloons into one hold, even a full one [blackbeard §9.42]."""
        if option is NO:
            return
        self.rolls.roll(
            pid,
            "ransom",
            FIG["hostage"]["ransom_dice"],
            False,
            step(self._ip_ransom_paid, pid, hostage),
            name=(hostage,),
        )

    def _ip_ransom_paid(self, pid: str, hostage: str) -> None:
        table = self.table
        pirate = table.pirates[pid]
        total = table.rolled["ransom"]
        amount = mech.ransom(
            DATA, as_dice(total, FIG["hostage"]["ransom_dice"]), DATA.hostages[hostage]
        )
        pirate.ship.hostages = [h for h in pirate.ship.hostages if h.id != hostage]
        table.return_hostage(hostage)
        self.flow.emit(
            "ransomed", {"pirate": pid, "hostage": hostage, "roll": total, "doubloons": amount}
        )
        self.loot.stow("ransom_hold", pid, amount)

    def _ip_cash(self, pid: str) -> None:
        pirate = self.table.pirates.get(pid)
        if pirate is None or pirate.port is None:
            return
        attitude = self.table.attitude(pirate, pirate.port)
        full = tuple(i for i, d in enumerate(pirate.ship.holds) if d)
        if not (attitude in FRIENDLY or attitude == PIRATE_PORT) or not full:
            return
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "cash_holds",
            "Which holds do you cash?",
            subsets(full),
            step(self._ip_cashed, pid),
        )

    def _ip_cashed(self, option: Option, pid: str) -> None:
        """At the port's rate, rounded up on the total [blackbeard §9.43]; in a Pirate Port
        D&R follows [blackbeard §9.35]."""
        holds = option.payload["holds"]
        if not holds:
            return
        table = self.table
        pirate = table.pirates[pid]
        assert pirate.port is not None
        attitude = table.attitude(pirate, pirate.port)
        total = sum(pirate.ship.holds[i] for i in holds)
        result = mech.cash(DATA, total, attitude)
        gained = result.net_worth
        for i in holds:
            pirate.ship.holds[i] = 0
        pirate.net_worth += gained
        self.flow.emit(
            "cashed",
            {
                "pirate": pid,
                "booty": total,
                "net_worth_gained": gained,
                "net_worth": pirate.net_worth,
            },
        )
        if result.revelry is not None:
            table.turn.must_revel = pid

    def _ip_repair(self, pid: str) -> None:
        """Repairs, one for an alliance: every hit of each ship at a Pirate Port; none at
        Arab ports; else one roll [blackbeard §9.44, §11.14]."""
        table = self.table
        pirate = table.pirates.get(pid)
        if pirate is None or pirate.port is None:
            return
        damaged = [each for each in table.alliance(pirate) if any(table.damage(each))]
        if not damaged:
            return
        attitude, port = table.attitude(pirate, pirate.port), DATA.ports[pirate.port]
        if attitude == PIRATE_PORT:
            for each in damaged:
                speed, combat = table.damage(each)
                table.repair(each, speed, combat)
                self.flow.emit("repaired", {"pirate": each.id, "speed": speed, "combat": combat})
            return
        if (
            attitude not in FRIENDLY
            or mech.repair_points(DATA, pirate.ship, port, attitude, 1) == 0
        ):
            return  # no repairs at all there (Arab ports)
        self.rolls.roll(pid, "repair", 1, False, step(self._ip_repair_rolled, pid))

    def _ip_repair_rolled(self, pid: str) -> None:
        """1d6 halved, rounded up, +2 at his (or his ally's) Safe Haven; allies share the
        repairs equally, the odd one to the ship the player names [blackbeard §9.44,
        §11.12, §11.14]."""
        table = self.table
        pirate = table.pirates[pid]
        assert pirate.port is not None
        code, roll = pirate.port, table.rolled["repair"]
        allies = table.alliance(pirate)
        attitudes = {table.attitude(each, code) for each in allies} & FRIENDLY
        hits = max(
            mech.repair_points(DATA, pirate.ship, DATA.ports[code], attitude, roll)
            for attitude in attitudes
        )
        self.flow.emit("repair_rolled", {"pirate": pid, "roll": roll, "hits": hits})
        if len(allies) == 1:
            self._ask_split(pid, hits)
            return
        more, less = mech.share(hits)
        if more == less:
            self._repair_shared(target_pirate(pid), pid, more, less)
            return
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "repair_share",
            "Which ship gets the odd repair?",
            tuple(target_pirate(each.id) for each in allies),
            step(self._repair_shared, pid, more, less),
        )

    def _repair_shared(self, option: Option, pid: str, more: int, less: int) -> None:
        chosen = option.payload["target"]
        self.flow.push(
            *(
                step(self._ask_split, each.id, more if each.id == chosen else less)
                for each in self.table.alliance(self.table.pirates[pid])
            )
        )

    def _ask_split(self, pid: str, hits: int) -> None:
        """A ship's repairs split between its Speed and Combat as the player chooses."""
        pirate = self.table.pirates[pid]
        if not (hits and any(self.table.damage(pirate))):
            return
        ship = pirate.ship
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "repair_split",
            "How many repairs go to Speed?",
            tuple(
                repair_option(speed - ship.speed, combat - ship.combat)
                for combat, speed in mech.repairs(DATA, ship, hits)
            ),
            step(self._repaired, pid),
        )

    def _repaired(self, option: Option, pid: str) -> None:
        speed, combat = option.payload["speed"], option.payload["combat"]
        self.table.repair(self.table.pirates[pid], speed, combat)
        self.flow.emit("repaired", {"pirate": pid, "speed": speed, "combat": combat})

    def _ip_safe_haven(self, pid: str) -> None:
        """At a Pro-Pirate port nobody holds, once per Governor [blackbeard §9.45]."""
        table = self.table
        pirate = table.pirates.get(pid)
        if pirate is None or pirate.port is None:
            return
        if not mech.may_buy_safe_haven(
            DATA, DATA.ports[pirate.port], table.ports[pirate.port], pirate
        ):
            return
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "safe_haven",
            "Try to buy a Safe Haven here?",
            YES_NO,
            step(self._ip_haven_attempt, pid),
        )

    def _ip_haven_attempt(self, option: Option, pid: str) -> None:
        if option is NO:
            return
        table = self.table
        pirate = table.pirates[pid]
        assert pirate.port is not None
        governor = table.ports[pirate.port].governor
        assert governor is not None
        pirate.bribed.add(governor)
        self.rolls.roll(pid, "safe_haven", 1, False, step(self._ip_haven_priced, pid))

    def _ip_haven_priced(self, pid: str) -> None:
        table = self.table
        pirate = table.pirates[pid]
        assert pirate.port is not None
        price = mech.safe_haven_price(DATA, table.rolled["safe_haven"])
        self.flow.emit("safe_haven_price", {"pirate": pid, "port": pirate.port, "price": price})
        if pirate.net_worth < price:
            self.flow.emit("safe_haven_declined", {"pirate": pid, "port": pirate.port})
            return
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "pay_safe_haven",
            f"Pay {price} for the Safe Haven?",
            (PAY, REFUSE),
            step(self._ip_haven_paid, pid, price),
        )

    def _ip_haven_paid(self, option: Option, pid: str, price: int) -> None:
        table = self.table
        pirate = table.pirates[pid]
        assert pirate.port is not None
        if option is REFUSE:
            self.flow.emit("safe_haven_declined", {"pirate": pid, "port": pirate.port})
            return
        pirate.net_worth -= price
        table.ports[pirate.port].safe_haven = pid
        self.flow.emit("safe_haven_bought", {"pirate": pid, "port": pirate.port, "price": price})

    def _ip_revelry(self, pid: str) -> None:
        table = self.table
        if pid not in table.pirates:
            return
        if table.turn.must_revel == pid:
            table.turn.must_revel = None
            table.revelry(table.pirates[pid], INVOLUNTARY)
            return
        self.loot.ask_revelry(pid)
