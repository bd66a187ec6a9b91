"""The Pirate Actions against ports and other pirates: G Attack Port, H Sack, E Booty
Grab with its duel, and J Retirement [blackbeard §9.5, §9.55, §9.6, §R18.41].

A mixin of `state.BlackbeardState`, after `actions.Actions` (the legality and targets of
these Actions are there, with the other Actions).
"""

from __future__ import annotations

from admiralty.games.base import Option
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.actions import (
    INTERRUPT,
    LEAVE,
    NO,
    PAY,
    REFUSE,
    SHARE_UNIT,
    SKIP,
    SWAP,
    TAKE,
    TURN,
    YES_NO,
    Actions,
    as_dice,
    hold_option,
    into_option,
    target_pirate,
)
from admiralty.games.blackbeard.choices import orders
from admiralty.games.blackbeard.table import DATA, FIG
from admiralty.games.flow import step


class Raids(Actions):
    """Actions G, H, E and J, for `BlackbeardState`."""

    # ------------------------------------------------------------------ G Attack Port (9.5)

    def _do_attack(self, pid: str, code: int) -> None:
        """1d6 + Combat + Ability + Information against 1d6 (2d6 if attacked before) +
        Defense; the Attack History either way [blackbeard §9.52, §9.58]."""
        state = self.ports[code]
        self.rolled["attack"] = self.d6(*self._where("attack"))
        marked = FIG["port_attack"]["marked_defense_dice"] if state.attacked else \
            FIG["port_attack"]["defense_dice"]
        defense = self.roll(marked, *self._where("defense"))
        self.rolled["defense"] = mech.port_defense_score(DATA, defense, DATA.ports[code], state)
        self._emit("port_defense_rolled", {"port": code, "dice": list(defense),
                                           "defense": self.rolled["defense"]})
        self._roll(pid, "attack", 1, True, step("_attack_result", pid, code), rolled=True)

    def _attack_result(self, pid: str, code: int) -> None:
        pirate = self.pirates[pid]
        port, state, ship = DATA.ports[code], self.ports[code], pirate.ship
        assert port.nation is not None and port.value is not None and port.defense is not None
        roll, against = self.rolled["attack"], self.rolled["defense"]
        allies = self.alliance(pirate)
        if len(allies) > 1:  # [blackbeard §11.12]
            total = mech.alliance_attack_score(DATA, roll, allies, port,
                                               heavy_guns=self.options["heavy_guns"])
        else:
            total = mech.port_attack_score(DATA, roll, pirate, port,
                                           heavy_guns=self.options["heavy_guns"])
        total += self.bonus["attack"]
        result = mech.port_attack(DATA, port, total, against)
        won = result.success
        self._emit("port_attacked", {"pirate": pid, "port": code, "roll": roll, "total": total,
                                     "defense": against, "success": won})
        state.attacked = True
        for each in allies:
            ship = each.ship
            ship.attack_history.add(port.nation)
            if ship.letter_of_marque == port.nation:
                ship.letter_of_marque = None
                self._emit("letter_of_marque_lost", {"pirate": each.id, "nation": port.nation})
            if state.safe_haven == each.id:
                state.safe_haven = None
        if not won:
            if len(allies) > 1:
                self.flow.push(step("_split_hits", pid, "combat", result.hits, "port_attack"),
                               step("_t_mid", pid))
            elif not self.hit(pirate, "combat", result.hits, "port_attack"):
                self.flow.push(self.poll("T-MID", pid))
            return
        self.shared_notoriety(pirate, result.notoriety, "port_attack")
        self.shared_loyalty(pirate, result.loyalty, "port_attack")
        for each in allies:
            each.port = code
            each.sack_pending = code
            each.ship.scurvy = False
        self.flow.push(step("_attack_hit", pid, result.hits))
        self._roll(pid, "booty", port.value, False, step("_attack_booty_rolled", pid, code))

    def _attack_booty_rolled(self, pid: str, code: int) -> None:
        """(Port Value) d6 x 100 into a whole hold, a full one dumped; allies share it
        [blackbeard §9.53, §11.13]."""
        pirate = self.pirates[pid]
        port, ship = DATA.ports[code], pirate.ship
        booty = mech.port_booty(DATA, port, as_dice(self.rolled["booty"], port.value or 0))
        self._emit("port_booty", {"pirate": pid, "port": code, "booty": booty})
        partner = self.partner(pirate)
        if partner is not None:
            high, _ = self.by_leadership(pirate, partner)
            more, less = mech.share(booty, SHARE_UNIT)
            booty, other = (more, less) if high is pirate else (less, more)
            if other:
                self.flow.push(step("_share_cargo", partner.id, other))
        options = [hold_option(i, d) for i, d in enumerate(ship.holds) if not d]
        options += [hold_option(i, d) for i, d in enumerate(ship.holds) if d]
        self.flow.ask(self._seat(), TURN, "attack_hold", "Where does the port's Booty go?",
                      (*options, LEAVE), step("_attack_booty", pid, booty))

    def _attack_booty(self, option: Option, pid: str, booty: int) -> None:
        pirate = self.pirates[pid]
        if option is LEAVE:
            self._emit("booty_left", {"pirate": pid, "booty": booty})
            return
        hold = option.payload["hold"]
        dumped = pirate.ship.holds[hold]
        pirate.ship.holds[hold] = booty
        self._emit("cargo_taken", {"pirate": pid, "hold": hold, "booty": booty,
                                   "dumped": dumped})

    def _attack_hit(self, pid: str, hits: int) -> None:
        """The hit of a success comes after its NP, Loyalty and Booty [blackbeard §9.53]."""
        if pid in self.pirates:
            self._split_hits(pid, "combat", hits, "port_attack")

    def _t_mid(self, pid: str) -> None:
        if pid in self.pirates:
            self.flow.push(self.poll("T-MID", pid))

    def _split_hits(self, pid: str, track: str, hits: int, reason: str) -> None:
        """Hits on an alliance: Combat hits split equally, the odd one on the ship the
        player chooses; Speed hits on each ship [blackbeard §11.14]."""
        pirate = self.pirates.get(pid)
        if pirate is None:
            return
        partner = self.partner(pirate)
        if partner is None:
            self.hit(pirate, track, hits, reason)
            return
        if track != "combat":
            for each in (pirate, partner):
                self.hit(each, track, hits, reason)
            return
        if hits % 2:
            seat = pirate.owner
            self.flow.ask(seat, TURN if seat == self.active else INTERRUPT, "alliance_hit",
                          "Which ship takes the odd hit?",
                          (target_pirate(pid), target_pirate(partner.id)),
                          step("_odd_hit", pid, partner.id, hits, reason))
            return
        self._odd_hit(target_pirate(pid), pid, partner.id, hits, reason)

    def _odd_hit(self, option: Option, pid: str, other: str, hits: int, reason: str) -> None:
        chosen = option.payload["target"]
        for each in (pid, other):
            if each in self.pirates:
                self.hit(self.pirates[each], "combat",
                         hits // 2 + (hits % 2 if each == chosen else 0), reason)

    # ------------------------------------------------------------------ H Sack (9.55)

    def _do_sack(self, pid: str, target: None) -> None:
        """1d6 + Cruelty above the Defense destroys the port [blackbeard §9.55]."""
        pirate = self.pirates[pid]
        code = pirate.port
        assert code is not None
        port = DATA.ports[code]
        assert port.defense is not None and port.value is not None
        pirate.sack_pending = None
        self._roll(pid, "sack", 1, True, step("_sack_result", pid, code))

    def _sack_result(self, pid: str, code: int) -> None:
        pirate, port = self.pirates[pid], DATA.ports[code]
        roll, cruelty = self.rolled["sack"], self.rating(pirate, "cruelty") + self.bonus["sack"]
        result = mech.sack(DATA, port, roll, cruelty)
        self._emit("sack_rolled", {"pirate": pid, "port": code, "roll": roll,
                                   "total": roll + cruelty, "success": result.destroyed})
        if not result.destroyed:
            return
        allies = self.alliance(pirate)
        self.shared_loyalty(pirate, result.loyalty, "sack")  # the D&R's gain included
        self.shared_notoriety(pirate, result.notoriety, "sack")
        self.destroy_port(code)
        for each in allies:
            each.ship.revelry = result.revelry
            self._emit("revelry", {"pirate": each.id, "side": result.revelry})
        if self.from_bermuda:
            self.flow.push(step("_bermuda"))

    # ------------------------------------------------------------------ E Booty Grab (9.6)

    def _do_grab(self, pid: str, victim: str) -> None:
        """Attacker 1d6 + Ability + 1 against 1d6 + Ability: higher takes a share of the
        Booty, lower loses Loyalty 2, a tie is a duel [blackbeard §9.62, §9.63]."""
        self.rolled["grab_attacker"] = self.d6(*self._where("grab_attacker"))
        self.rolled["grab_defender"] = self.d6(*self._where("grab_defender"))
        self.flow.push(step("_grab_result", pid, victim))
        self._roll_points([(pid, "grab_attacker", 1, True, ()),
                           (victim, "grab_defender", 1, True, ())])

    def _grab_result(self, pid: str, victim: str) -> None:
        if pid not in self.pirates or victim not in self.pirates:
            return
        pirate = self.pirates[pid]
        attack, defend = self.rolled["grab_attacker"], self.rolled["grab_defender"]
        result = mech.booty_grab(DATA, attack, self.rating(pirate, "ability")
                                 + self.bonus["grab_attacker"], defend,
                                 DATA.pirates[victim].ability,
                                 skull_and_crossbones=self.bonus["grab_defender"])
        self._emit("booty_grab", {"pirate": pid, "victim": victim, "attack_roll": attack,
                                  "defense_roll": defend, "result": result.result,
                                  "difference": result.difference})
        if result.result == mech.FAILURE:
            self.shared_loyalty(pirate, result.loyalty, "booty_grab_failed")
            return
        if result.result == mech.DUEL:
            self._duel(pid, victim, 0)
            return
        self._roll(pid, "take", 1, False, step("_grab_take", pid, victim, result.difference))

    def _grab_take(self, pid: str, victim: str, difference: int) -> None:
        target, take = self.pirates[victim], self.rolled["take"]
        amount = mech.booty_taken(DATA, take, difference, target.ship.booty)
        self._emit("booty_grab_take", {"pirate": pid, "victim": victim, "roll": take,
                                       "doubloons": amount})
        if not amount:
            return
        full = tuple(i for i, d in enumerate(target.ship.holds) if d)
        self.flow.ask(target.owner, INTERRUPT, "hold_order", "Pay from your holds in which order?",
                      orders(full), step("_grab_order", pid, victim, amount))

    def _grab_order(self, option: Option, pid: str, victim: str, amount: int) -> None:
        target = self.pirates[victim]
        target.ship.holds = mech.take_from_holds(target.ship.holds, amount,
                                                 option.payload["holds"])
        self._ask_into_hold("grab_hold", pid, amount, True)

    def _duel(self, pid: str, victim: str, bout: int) -> None:
        """Each rolls his Dueling in dice; a tie again if both want it [blackbeard §15.11]."""
        ratings = self.rating(self.pirates[pid], "duel"), DATA.pirates[victim].duel
        self.rolled["duel_attacker"] = sum(self.roll(ratings[0], *self._where("duel", bout,
                                                                               "attacker")))
        self.rolled["duel_defender"] = sum(self.roll(ratings[1], *self._where("duel", bout,
                                                                               "defender")))
        self.flow.push(step("_duel_result", pid, victim, bout))
        self._roll_points([(pid, "duel_attacker", ratings[0], True, (bout,)),
                           (victim, "duel_defender", ratings[1], True, (bout,))])

    def _duel_result(self, pid: str, victim: str, bout: int) -> None:
        """The higher total wins; NP = both Duel ratings [blackbeard §15.11, §15.12]."""
        a_total = self.rolled["duel_attacker"] + self.bonus["duel_attacker"]
        d_total = self.rolled["duel_defender"] + self.bonus["duel_defender"]
        ratings = self.rating(self.pirates[pid], "duel"), DATA.pirates[victim].duel
        notoriety = mech.duel(DATA, ratings[0], [1] * ratings[0], ratings[1],
                              [1] * ratings[1]).notoriety
        self._emit("duel", {"pirate": pid, "victim": victim, "bout": bout,
                            "attacker": a_total, "defender": d_total})
        if a_total == d_total:
            self.flow.ask(self._seat(), TURN, "duel_again", "Duel again?", YES_NO,
                          step("_duel_again", pid, victim, bout, 0))
            return
        winner, loser = (pid, victim) if a_total > d_total else (victim, pid)
        self._duel_won(winner, loser, notoriety)

    def _duel_again(self, option: Option, pid: str, victim: str, bout: int, asked: int) -> None:
        if option is NO:
            self._emit("duel_ended", {"pirate": pid, "victim": victim})
            return
        if asked == 0:
            self.flow.ask(self.pirates[victim].owner, INTERRUPT, "duel_again", "Duel again?",
                          YES_NO, step("_duel_again", pid, victim, bout, 1))
            return
        self._duel(pid, victim, bout + 1)

    def _duel_won(self, winner: str, loser: str, notoriety: int) -> None:
        """The winner gains both Dueling ratings in NP, kills the loser and takes what he
        wants of his, or his ship [blackbeard §15.11, §15.12]."""
        won = self.pirates[winner]
        self.notoriety(won, notoriety, "duel_won")
        self.flow.push(step("_duel_kill", loser))
        self.flow.ask(won.owner, TURN if won.owner == self.active else INTERRUPT, "spoils",
                      "Take the loser's possessions, or swap ships?", (TAKE, SWAP),
                      step("_spoils", winner, loser))

    def _spoils(self, option: Option, winner: str, loser: str) -> None:
        won, lost = self.pirates[winner], self.pirates[loser]
        if option is SWAP:
            new, old = lost.ship, won.ship
            new.hostages += old.hostages
            for doubloons in (d for d in old.holds if d):
                empty = new.empty_holds()
                new.holds[empty[0] if empty else 0] += doubloons
            won.ship, lost.ship = new, self.new_ship(old.type)
            self._emit("ships_swapped", {"pirate": winner, "from": loser})
            return
        steps = [step("_spoil_hold", winner, loser, i) for i, d in enumerate(lost.ship.holds)
                 if d]
        steps += [step("_spoil_item", winner, loser, "hostage", h.id)
                  for h in lost.ship.hostages]
        if lost.ship.letter_of_marque is not None:
            steps.append(step("_spoil_item", winner, loser, "letter_of_marque", ""))
        if lost.information:
            steps.append(step("_spoil_item", winner, loser, "information", ""))
        self.flow.push(*steps)

    def _spoil_hold(self, winner: str, loser: str, index: int) -> None:
        won, lost = self.pirates[winner], self.pirates[loser]
        amount = lost.ship.holds[index]
        self.flow.ask(won.owner, TURN if won.owner == self.active else INTERRUPT, "spoil_hold",
                      f"Take the {amount} doubloons of hold {index}?",
                      (SKIP, *(into_option(i) for i in range(len(won.ship.holds)))),
                      step("_spoil_hold_taken", winner, loser, index))

    def _spoil_hold_taken(self, option: Option, winner: str, loser: str, index: int) -> None:
        if option is SKIP:
            return
        lost = self.pirates[loser]
        self.pirates[winner].ship.holds[option.payload["hold"]] += lost.ship.holds[index]
        lost.ship.holds[index] = 0

    def _spoil_item(self, winner: str, loser: str, item: str, hostage: str) -> None:
        won = self.pirates[winner]
        self.flow.ask(won.owner, TURN if won.owner == self.active else INTERRUPT, "spoil_item",
                      f"Take the loser's {item.replace('_', ' ')}?", YES_NO,
                      step("_spoil_item_taken", winner, loser, item, hostage))

    def _spoil_item_taken(self, option: Option, winner: str, loser: str, item: str,
                          hostage: str) -> None:
        if option is NO:
            return
        won, lost = self.pirates[winner], self.pirates[loser]
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
        self._emit("spoil_taken", {"pirate": winner, "from": loser, "item": item})

    def _duel_kill(self, loser: str) -> None:
        if loser in self.pirates:
            self.eliminate(self.pirates[loser], "duel")

    # ------------------------------------------------------------------ J Retirement (18.4)

    def _do_retire(self, pid: str, case: str) -> None:
        """A, B, C at once; D1 and D2 after a price roll [blackbeard §R18.41]."""
        pirate = self.pirates[pid]
        terms = {"bribe_retirement": self.options["bribe_retirement"],
                 "safe_haven_retirement_automatic":
                     self.options["safe_haven_retirement_automatic"]}
        if mech.retirement_price(DATA, case, 1, **terms).price == 0:
            self._retire(pid, case, 0)
            return
        if case == "D2":
            assert pirate.port is not None
            governor = self.ports[pirate.port].governor
            assert governor is not None
            pirate.bribed.add(governor)
        self._roll(pid, "retire", 1, False, step("_retire_rolled", pid, case))

    def _retire_rolled(self, pid: str, case: str) -> None:
        pirate, roll = self.pirates[pid], self.rolled["retire"]
        bribe = mech.retirement_price(
            DATA, case, roll, bribe_retirement=self.options["bribe_retirement"],
            safe_haven_retirement_automatic=self.options["safe_haven_retirement_automatic"])
        price = bribe.price
        self._emit("retirement_price", {"pirate": pid, "roll": roll, "price": price})
        if price is None or pirate.net_worth < price:
            self._emit("retirement_refused", {"pirate": pid, "roll": roll})
            self.loyalty(pirate, bribe.failed_loyalty, "bribe_failed")
            return
        self.flow.ask(self._seat(), TURN, "pay_retirement", f"Pay {price} to retire?",
                      (PAY, REFUSE), step("_retire_paid", pid, case, price))

    def _retire_paid(self, option: Option, pid: str, case: str, price: int) -> None:
        if option is REFUSE:
            self._emit("retirement_declined", {"pirate": pid})
            self.loyalty_row(self.pirates[pid], "bribe_failed")
            return
        self._retire(pid, case, price)

    def _retire(self, pid: str, case: str, price: int) -> None:
        """The owner scores NP + Net Worth at the case's rate [blackbeard §R18.3, §R18.42]."""
        pirate = self.pirates[pid]
        pirate.net_worth -= price
        score = mech.retirement_score(
            DATA, case, pirate.notoriety, pirate.net_worth,
            net_worth_per_vp=self.options["net_worth_per_vp"],
            pirate_port_retirement_rate=self.options["pirate_port_retirement_rate"])
        self.seats[pirate.owner].retired.append(pid)
        self._emit("retired", {"pirate": pid, "seat": pirate.owner, "case": case,
                               "price": price, "notoriety": pirate.notoriety,
                               "net_worth": pirate.net_worth})
        self.score(pirate.owner, score.vp, "A", pid, score.from_net_worth)
        self.remove_pirate(pirate, "retired")
        self.active_pirate = None
