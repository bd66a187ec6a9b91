"""The Pirate Actions against ports and other pirates: G Attack Port, H Sack, E Booty
Grab with its duel, and J Retirement [blackbeard §9.5, §9.55, §9.6, §R18.41].

Their legality and targets are in `actions`, with the other Actions'.
"""

from __future__ import annotations

from typing import Any

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.antipirate import AntiPirate
from admiralty.games.blackbeard.bermuda import Bermuda
from admiralty.games.blackbeard.choices import NO, PAY, REFUSE, YES_NO, opt, orders
from admiralty.games.blackbeard.fights import Fights
from admiralty.games.blackbeard.loot import LEAVE, Loot, as_dice, hold_options, into_option
from admiralty.games.blackbeard.pieces import T_MID
from admiralty.games.blackbeard.rolls import RollPoints
from admiralty.games.blackbeard.table import DATA, FIG, Table
from admiralty.games.flow import Continuation, Flow, step

TURN, INTERRUPT = Window.TURN, Window.INTERRUPT
TAKE, SWAP = opt("take", "take items", spoils="take"), opt("swap", "swap ships", spoils="swap")
SKIP = opt("skip", "leave it", hold=None)


class Raids:
    """Actions G, H, E and J."""

    flow: Flow

    def __init__(
        self,
        table: Table,
        rolls: RollPoints,
        windows: AntiPirate,
        fights: Fights,
        loot: Loot,
        bermuda: Bermuda,
    ) -> None:
        self.table = table
        self.rolls = rolls
        self.windows = windows
        self.fights = fights
        self.loot = loot
        self.bermuda = bermuda

    def performs(self) -> dict[str, Continuation]:
        """The steps that carry out its Actions, by Action."""
        return {
            "attack": self._do_attack,
            "sack": self._do_sack,
            "grab": self._do_grab,
            "retire": self._do_retire,
        }

    # ------------------------------------------------------------------ G Attack Port (9.5)

    def _do_attack(self, pid: str, code: int) -> None:
        """1d6 + Combat + Ability + Information against 1d6 (2d6 if attacked before) +
        Defense; the Attack History either way [blackbeard §9.52, §9.58]."""
        table = self.table
        state = table.ports[code]
        table.rolled["attack"] = table.d6(*table.where("attack"))
        marked = (
            FIG["port_attack"]["marked_defense_dice"]
            if state.attacked
            else FIG["port_attack"]["defense_dice"]
        )
        defense = table.roll(marked, *table.where("defense"))
        table.rolled["defense"] = mech.port_defense_score(DATA, defense, DATA.ports[code], state)
        self.flow.emit(
            "port_defense_rolled",
            {"port": code, "dice": list(defense), "defense": table.rolled["defense"]},
        )
        self.rolls.roll(pid, "attack", 1, True, step(self._attack_result, pid, code), rolled=True)

    def _attack_result(self, pid: str, code: int) -> None:
        table = self.table
        pirate = table.pirates[pid]
        port, state = DATA.ports[code], table.ports[code]
        assert port.nation is not None and port.value is not None and port.defense is not None
        roll, against = table.rolled["attack"], table.rolled["defense"]
        allies = table.alliance(pirate)
        heavy_guns = table.options["heavy_guns"]
        if len(allies) > 1:  # [blackbeard §11.12]
            total = mech.alliance_attack_score(DATA, roll, allies, port, heavy_guns=heavy_guns)
        else:
            total = mech.port_attack_score(DATA, roll, pirate, port, heavy_guns=heavy_guns)
        total += table.bonus["attack"]
        result = mech.port_attack(DATA, port, total, against)
        won = result.success
        self.flow.emit(
            "port_attacked",
            {
                "pirate": pid,
                "port": code,
                "roll": roll,
                "total": total,
                "defense": against,
                "success": won,
            },
        )
        state.attacked = True
        for each in allies:
            ship = each.ship
            ship.attack_history.add(port.nation)
            if ship.letter_of_marque == port.nation:
                ship.letter_of_marque = None
                self.flow.emit("letter_of_marque_lost", {"pirate": each.id, "nation": port.nation})
            if state.safe_haven == each.id:
                state.safe_haven = None
        if not won:
            if len(allies) > 1:
                self.fights.split_hits(pid, "combat", result.hits, "port_attack")
                self.flow.push(step(self._t_mid, pid))
            elif not table.hit(pirate, "combat", result.hits, "port_attack"):
                self.flow.push(self.windows.poll(T_MID, pid))
            return
        table.shared_notoriety(pirate, result.notoriety, "port_attack")
        table.shared_loyalty(pirate, result.loyalty, "port_attack")
        for each in allies:
            each.port = code
            each.sack_pending = code
            each.ship.scurvy = False
        self.flow.push(step(self._attack_hit, pid, result.hits))
        self.rolls.roll(pid, "booty", port.value, False, step(self._attack_booty_rolled, pid, code))

    def _attack_booty_rolled(self, pid: str, code: int) -> None:
        """(Port Value) d6 x 100 into a whole hold, a full one dumped; allies share it
        [blackbeard §9.53, §11.13]."""
        table = self.table
        pirate = table.pirates[pid]
        port = DATA.ports[code]
        booty = mech.port_booty(DATA, port, as_dice(table.rolled["booty"], port.value or 0))
        self.flow.emit("port_booty", {"pirate": pid, "port": code, "booty": booty})
        booty = self.loot.booty_split(pirate, booty)
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "attack_hold",
            "Where does the port's Booty go?",
            (*hold_options(pirate.ship.holds, booty), LEAVE),
            step(self._attack_booty, pid, booty),
        )

    def _attack_booty(self, option: Option, pid: str, booty: int) -> None:
        self.loot.stowed(option, pid, booty)

    def _attack_hit(self, pid: str, hits: int) -> None:
        """The hit of a success comes after its NP, Loyalty and Booty [blackbeard §9.53]."""
        if pid in self.table.pirates:
            self.fights.split_hits(pid, "combat", hits, "port_attack")

    def _t_mid(self, pid: str) -> None:
        if pid in self.table.pirates:
            self.flow.push(self.windows.poll(T_MID, pid))

    # ------------------------------------------------------------------ H Sack (9.55)

    def _do_sack(self, pid: str, target: None) -> None:
        """1d6 + Cruelty above the Defense destroys the port [blackbeard §9.55]."""
        pirate = self.table.pirates[pid]
        code = pirate.port
        assert code is not None
        port = DATA.ports[code]
        assert port.defense is not None and port.value is not None
        self.table.clear_sack(pirate)
        self.rolls.roll(pid, "sack", 1, True, step(self._sack_result, pid, code))

    def _sack_result(self, pid: str, code: int) -> None:
        table = self.table
        pirate, port = table.pirates[pid], DATA.ports[code]
        roll = table.rolled["sack"]
        cruelty = table.rating(pirate, "cruelty") + table.bonus["sack"]
        result = mech.sack(DATA, port, roll, cruelty)
        self.flow.emit(
            "sack_rolled",
            {
                "pirate": pid,
                "port": code,
                "roll": roll,
                "total": roll + cruelty,
                "success": result.destroyed,
            },
        )
        if not result.destroyed:
            return
        allies = table.alliance(pirate)
        table.shared_loyalty(pirate, result.loyalty, "sack")  # the D&R's gain included
        table.shared_notoriety(pirate, result.notoriety, "sack")
        table.destroy_port(code)
        for each in allies:
            each.ship.revelry = result.revelry
            self.flow.emit("revelry", {"pirate": each.id, "side": result.revelry})
        self.bermuda.follow()

    # ------------------------------------------------------------------ E Booty Grab (9.6)

    def _do_grab(self, pid: str, victim: str) -> None:
        """Attacker 1d6 + Ability + 1 against 1d6 + Ability: higher takes a share of the
        Booty, lower loses Loyalty 2, a tie is a duel [blackbeard §9.62, §9.63]."""
        table = self.table
        table.rolled["grab_attacker"] = table.d6(*table.where("grab_attacker"))
        table.rolled["grab_defender"] = table.d6(*table.where("grab_defender"))
        self.flow.push(step(self._grab_result, pid, victim))
        self.rolls.points(
            [(pid, "grab_attacker", 1, True, ()), (victim, "grab_defender", 1, True, ())]
        )

    def _grab_result(self, pid: str, victim: str) -> None:
        table = self.table
        if pid not in table.pirates or victim not in table.pirates:
            return
        pirate = table.pirates[pid]
        attack, defend = table.rolled["grab_attacker"], table.rolled["grab_defender"]
        result = mech.booty_grab(
            DATA,
            attack,
            table.rating(pirate, "ability") + table.bonus["grab_attacker"],
            defend,
            DATA.pirates[victim].ability,
            skull_and_crossbones=table.bonus["grab_defender"],
        )
        self.flow.emit(
            "booty_grab",
            {
                "pirate": pid,
                "victim": victim,
                "attack_roll": attack,
                "defense_roll": defend,
                "result": result.result,
                "difference": result.difference,
            },
        )
        if result.result == mech.FAILURE:
            table.shared_loyalty(pirate, result.loyalty, "booty_grab_failed")
            return
        if result.result == mech.DUEL:
            self._duel(pid, victim, 0)
            return
        self.rolls.roll(
            pid, "take", 1, False, step(self._grab_take, pid, victim, result.difference)
        )

    def _grab_take(self, pid: str, victim: str, difference: int) -> None:
        table = self.table
        target, take = table.pirates[victim], table.rolled["take"]
        amount = mech.booty_taken(DATA, take, difference, target.ship.booty)
        self.flow.emit(
            "booty_grab_take", {"pirate": pid, "victim": victim, "roll": take, "doubloons": amount}
        )
        if not amount:
            return
        full = tuple(i for i, d in enumerate(target.ship.holds) if d)
        self.flow.ask(
            target.owner,
            INTERRUPT,
            "hold_order",
            "Pay from your holds in which order?",
            orders(full),
            step(self._grab_order, pid, victim, amount),
        )

    def _grab_order(self, option: Option, pid: str, victim: str, amount: int) -> None:
        target = self.table.pirates[victim]
        target.ship.holds = mech.take_from_holds(target.ship.holds, amount, option.payload["holds"])
        self.loot.stow("grab_hold", pid, amount)

    def _duel(self, pid: str, victim: str, bout: int) -> None:
        """Each rolls his Dueling in dice; a tie again if both want it [blackbeard §15.11]."""
        table = self.table
        ratings = table.rating(table.pirates[pid], "duel"), DATA.pirates[victim].duel
        table.rolled["duel_attacker"] = sum(
            table.roll(ratings[0], *table.where("duel", bout, "attacker"))
        )
        table.rolled["duel_defender"] = sum(
            table.roll(ratings[1], *table.where("duel", bout, "defender"))
        )
        self.flow.push(step(self._duel_result, pid, victim, bout))
        self.rolls.points(
            [
                (pid, "duel_attacker", ratings[0], True, (bout,)),
                (victim, "duel_defender", ratings[1], True, (bout,)),
            ]
        )

    def _duel_result(self, pid: str, victim: str, bout: int) -> None:
        """The higher total wins; NP = both Duel ratings [blackbeard §15.11, §15.12]."""
        table = self.table
        a_total = table.rolled["duel_attacker"] + table.bonus["duel_attacker"]
        d_total = table.rolled["duel_defender"] + table.bonus["duel_defender"]
        ratings = table.rating(table.pirates[pid], "duel"), DATA.pirates[victim].duel
        notoriety = mech.duel(
            DATA, ratings[0], [1] * ratings[0], ratings[1], [1] * ratings[1]
        ).notoriety
        self.flow.emit(
            "duel",
            {
                "pirate": pid,
                "victim": victim,
                "bout": bout,
                "attacker": a_total,
                "defender": d_total,
            },
        )
        if a_total == d_total:
            self.flow.ask(
                self.table.turn.seat,
                TURN,
                "duel_again",
                "Duel again?",
                YES_NO,
                step(self._duel_again, pid, victim, bout, 0),
            )
            return
        winner, loser = (pid, victim) if a_total > d_total else (victim, pid)
        self._duel_won(winner, loser, notoriety)

    def _duel_again(self, option: Option, pid: str, victim: str, bout: int, asked: int) -> None:
        if option is NO:
            self.flow.emit("duel_ended", {"pirate": pid, "victim": victim})
            return
        if asked == 0:
            self.flow.ask(
                self.table.pirates[victim].owner,
                INTERRUPT,
                "duel_again",
                "Duel again?",
                YES_NO,
                step(self._duel_again, pid, victim, bout, 1),
            )
            return
        self._duel(pid, victim, bout + 1)

    def _duel_won(self, winner: str, loser: str, notoriety: int) -> None:
        """The winner gains both Dueling ratings in NP, kills the loser and takes what he
        wants of his, or his ship [blackbeard §15.11, §15.12]."""
        table = self.table
        won = table.pirates[winner]
        table.notoriety(won, notoriety, "duel_won")
        self.flow.push(step(self._duel_kill, loser))
        self.flow.ask(
            won.owner,
            table.window_of(won.owner),
            "spoils",
            "Take the loser's possessions, or swap ships?",
            (TAKE, SWAP),
            step(self._spoils, winner, loser),
        )

    def _spoils(self, option: Option, winner: str, loser: str) -> None:
        table = self.table
        won, lost = table.pirates[winner], table.pirates[loser]
        if option is SWAP:  # his ship's state goes with him [blackbeard §15.11, §5.0]
            swapped = mech.swapped_ship(DATA, lost.ship, won.ship, sunk_positions=table.speed_sunk)
            won.ship, lost.ship = swapped, table.new_ship(won.ship.type)
            self.flow.emit("ships_swapped", {"pirate": winner, "from": loser})
            return
        steps = [
            step(self._spoil_hold, winner, loser, i) for i, d in enumerate(lost.ship.holds) if d
        ]
        steps += [
            step(self._spoil_item, winner, loser, "hostage", h.id) for h in lost.ship.hostages
        ]
        if lost.ship.letter_of_marque is not None:
            steps.append(step(self._spoil_item, winner, loser, "letter_of_marque", ""))
        if lost.information:
            steps.append(step(self._spoil_item, winner, loser, "information", ""))
        self.flow.push(*steps)

    def _spoil_hold(self, winner: str, loser: str, index: int) -> None:
        table = self.table
        won, lost = table.pirates[winner], table.pirates[loser]
        amount = lost.ship.holds[index]
        self.flow.ask(
            won.owner,
            table.window_of(won.owner),
            "spoil_hold",
            f"Take the {amount} doubloons of hold {index}?",
            (SKIP, *(into_option(i) for i in range(len(won.ship.holds)))),
            step(self._spoil_hold_taken, winner, loser, index),
        )

    def _spoil_hold_taken(self, option: Option, winner: str, loser: str, index: int) -> None:
        if option is SKIP:
            return
        lost = self.table.pirates[loser]
        self.table.pirates[winner].ship.holds[option.payload["hold"]] += lost.ship.holds[index]
        lost.ship.holds[index] = 0

    def _spoil_item(self, winner: str, loser: str, item: str, hostage: str) -> None:
        won = self.table.pirates[winner]
        self.flow.ask(
            won.owner,
            self.table.window_of(won.owner),
            "spoil_item",
            f"Take the loser's {item.replace('_', ' ')}?",
            YES_NO,
            step(self._spoil_item_taken, winner, loser, item, hostage),
        )

    def _spoil_item_taken(
        self, option: Option, winner: str, loser: str, item: str, hostage: str
    ) -> None:
        if option is NO:
            return
        won, lost = self.table.pirates[winner], self.table.pirates[loser]
        if item == "hostage":
            taken = next(h for h in lost.ship.hostages if h.id == hostage)
            lost.ship.hostages.remove(taken)
            won.ship.hostages.append(taken)
        elif item == "letter_of_marque":
            won.ship.letter_of_marque, lost.ship.letter_of_marque = lost.ship.letter_of_marque, None
        else:
            for code, points in lost.information.items():
                won.information[code] = won.information.get(code, 0) + points
            lost.information = {}
        self.flow.emit("spoil_taken", {"pirate": winner, "from": loser, "item": item})

    def _duel_kill(self, loser: str) -> None:
        if loser in self.table.pirates:
            self.table.eliminate(self.table.pirates[loser], "duel")

    # ------------------------------------------------------------------ J Retirement (18.4)

    def _do_retire(self, pid: str, case: str) -> None:
        """A, B, C at once; D1 and D2 after a price roll [blackbeard §R18.41]."""
        table = self.table
        pirate = table.pirates[pid]
        if mech.retirement_price(DATA, case, 1, **self._terms()).price == 0:
            table.retire(pid, case, 0)
            return
        if case == "D2":
            assert pirate.port is not None
            governor = table.ports[pirate.port].governor
            assert governor is not None
            pirate.bribed.add(governor)
        self.rolls.roll(pid, "retire", 1, False, step(self._retire_rolled, pid, case))

    def _terms(self) -> dict[str, Any]:
        options = self.table.options
        return {
            "bribe_retirement": options["bribe_retirement"],
            "safe_haven_retirement_automatic": options["safe_haven_retirement_automatic"],
        }

    def _retire_rolled(self, pid: str, case: str) -> None:
        table = self.table
        pirate, roll = table.pirates[pid], table.rolled["retire"]
        bribe = mech.retirement_price(DATA, case, roll, **self._terms())
        price = bribe.price
        if price is not None:  # a roll that refuses him names no price
            self.flow.emit("retirement_price", {"pirate": pid, "roll": roll, "price": price})
        if price is None or pirate.net_worth < price:
            self.flow.emit("retirement_refused", {"pirate": pid, "roll": roll})
            table.loyalty(pirate, bribe.failed_loyalty, "bribe_failed")
            return
        self.flow.ask(
            self.table.turn.seat,
            TURN,
            "pay_retirement",
            f"Pay {price} to retire?",
            (PAY, REFUSE),
            step(self._retire_paid, pid, case, price),
        )

    def _retire_paid(self, option: Option, pid: str, case: str, price: int) -> None:
        if option is REFUSE:
            self.flow.emit("retirement_declined", {"pirate": pid})
            self.table.loyalty_row(self.table.pirates[pid], "bribe_failed")
            return
        self.table.retire(pid, case, price)
