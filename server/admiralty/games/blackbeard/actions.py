"""The Pirate Actions [blackbeard §4.5]: which are legal for a pirate, their targets, and
how each is carried out, with its sub-decisions asked one at a time.

A mixin of `state.BlackbeardState`: the methods named `_do_<action>` run as the Action's
execution frame, between its T-ANN and T-END windows, and push the frames of their own
sub-decisions above the T-END frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.choices import NO, YES, YES_NO, opt, subsets
from admiralty.games.blackbeard.pieces import INVOLUNTARY, VOLUNTARY, Hostage, Pirate
from admiralty.games.blackbeard.table import ANTI, DATA, FIG, FRIENDLY, PIRATE_PORT, PORTS_OF, Table
from admiralty.games.flow import Step, step

if TYPE_CHECKING:
    from admiralty.games.blackbeard.antipirate import Interference
    from admiralty.games.flow import Flow, Poll

TURN, INTERRUPT = Window.TURN, Window.INTERRUPT
ISLE = DATA.sites["isle_of_pines"].area
TREASURE = DATA.card("buried_treasure")


@cache
def hold_option(index: int, doubloons: int) -> Option:
    if doubloons:
        return Option(f"dump:{index}", f"dump hold {index} ({doubloons}) and use it",
                      {"hold": index, "dump": doubloons})
    return Option(f"hold:{index}", f"empty hold {index}", {"hold": index, "dump": 0})


@cache
def into_option(index: int) -> Option:
    return Option(f"hold:{index}", f"into hold {index}", {"hold": index})


LEAVE = opt("leave", "leave the Booty (declining it)", hold=None)
KEEP, DECLINE = opt("keep", "keep the Booty", keep=True), opt("decline", "release it", keep=False)
RANSOM, TORTURE = opt("ransom", "hold for ransom", fate="ransom"), opt("torture", "torture",
                                                                     fate="torture")
PAY, REFUSE = opt("pay", "pay", pay=True), opt("decline", "decline", pay=False)
DRAW = opt("draw", "draw a Pirate card blind", draw=True)
VARIANT_PLAYERS = 6
"""The smallest count of the 6-10-player variant: one pirate at a time [blackbeard §2.7]."""
REDRAW = opt("redraw", "put it back, shuffle and draw another: 10 VP to every other player",
             draw=True)
DEPLOY_NOW, KEEP_CARD = opt("deploy", "deploy it now", deploy=True), opt("keep", "keep it",
                                                                       deploy=False)
TAKE, SWAP = opt("take", "take items", spoils="take"), opt("swap", "swap ships", spoils="swap")
SKIP = opt("skip", "leave it", hold=None)
ACCEPT, REROLL = opt("accept", "accept the roll", reroll=False), opt("reroll", "re-roll it",
                                                                     reroll=True)
PLAY_SKULL = opt("skull", "play Skull and Crossbones", play=True)
SHARE_UNIT = 50
"""Allies' Booty splits in 50 doubloons, the smallest sum on the charts [blackbeard §11.13]."""
SKULL = DATA.card("skull_and_crossbones")


class Actions(Table):
    """The Actions A-J and Action K, for `BlackbeardState`."""

    if TYPE_CHECKING:
        flow: Flow
        turn: int
        active: int | None
        action_no: int
        active_pirate: str | None
        must_revel: str | None
        hup_played: bool
        rolled: dict[str, int]
        bonus: dict[str, int]

        ap: Interference
        challenger: Pirate | None

        def poll(self, point: str, pid: str) -> Poll: ...
        def reaction_in_range(self, pirate: Pirate, area: str) -> bool: ...
        def _ask_area(self, seat: int, card: str, window: str) -> None: ...

    # ------------------------------------------------------------------ what is legal

    def legal_actions(self, pirate: Pirate) -> list[str]:
        """The Actions `pirate` may announce [blackbeard §4.5, §13.22, §9.53]."""
        acts = ["move"] if self.move_targets(pirate) else []
        partner = self.partner(pirate) if pirate.ally is not None else None
        if pirate.ship.revelry is not None or (partner and partner.ship.revelry is not None):
            if pirate.port is not None:  # allies: either in D&R [blackbeard §13.22, §11.12]
                acts.append("recover")
            return acts
        if pirate.port is None:
            if pirate.area in DATA.areas:
                near = self.merchants_near(pirate)
                ours = self.located_ids(pirate)
                if any(m.located_by not in ours for m in near):
                    acts.append("locate")
                if any(m.located_by in ours for m in near):
                    acts.append("loot")
                if self.attack_targets(pirate):
                    acts.append("attack")
                if pirate.buried_treasure and pirate.area == ISLE:
                    acts.append("dig")
            return acts
        code = pirate.port
        taken = pirate.sack_pending == code
        attitude = self.attitude(pirate, code)
        if taken:
            acts.append("sack")
        elif attitude in FRIENDLY or attitude == PIRATE_PORT:
            acts.append("in_port")
        if self.grab_targets(pirate):
            acts.append("grab")
        if not taken and self.ally_targets(pirate):
            acts.append("ally")
        if not taken and self.retire_cases(pirate):
            acts.append("retire")
        if attitude == ANTI and not taken:  # the Pardon's English port: Retire or Move out
            acts = [a for a in acts if a in ("move", "retire")]
        return acts

    def targets(self, pirate: Pirate, action: str) -> tuple[Option, ...] | None:
        if action == "move":
            return self.move_targets(pirate)
        if action == "locate":
            ours = self.located_ids(pirate)
            return tuple(merchant_option(m.port, self.merchant_label(m.id, m.face_up))
                         for m in self.merchants_near(pirate) if m.located_by not in ours)
        if action == "loot":
            ours = self.located_ids(pirate)
            return tuple(merchant_option(m.port, self.merchant_label(m.id, True))
                         for m in self.merchants_near(pirate) if m.located_by in ours)
        if action == "ally":
            return tuple(target_pirate(pid) for pid in self.ally_targets(pirate))
        if action == "attack":
            return tuple(port_option(code) for code in self.attack_targets(pirate))
        if action == "grab":
            return tuple(target_pirate(pid) for pid in self.grab_targets(pirate))
        if action == "retire":
            return tuple(retire_option(case) for case in self.retire_cases(pirate))
        return None

    def windows(self, pirate: Pirate, action: str, target: Any) -> bool:
        """Whether the Action has a T-ANN window: not Retirement A, C, D1 [blackbeard §R4.3]."""
        return not (action == "retire" and target in ("A", "C", "D1"))

    @staticmethod
    def merchant_label(merchant: str, face_up: bool) -> str:
        if not face_up:
            return "a face-down merchant"
        kind = DATA.merchants[merchant]
        return f"a {kind.name} (Cargo Value {kind.cargo_value})"

    def move_targets(self, pirate: Pirate) -> tuple[Option, ...]:
        options = tuple(step_option(kind, place) for kind, place in self.steps(pirate))
        if pirate.half_move is not None:
            half = tuple(o for o in options if o.key == pirate.half_move)
            if half:
                return half
        return options

    def attack_targets(self, pirate: Pirate) -> list[int]:
        """Ports of his sea area a pirate may attack from At Sea [blackbeard §9.51]."""
        if pirate.port is not None or pirate.area not in DATA.areas:
            return []
        return [port.code for port in PORTS_OF[pirate.area]
                if not port.pirate_port and not self.ports[port.code].destroyed]

    def grab_targets(self, pirate: Pirate) -> list[str]:
        """Another player's pirate In Port there and in D&R [blackbeard §9.61]."""
        if pirate.port is None:
            return []
        return sorted(p.id for p in self.in_port(pirate.port)
                      if p.owner != pirate.owner and p.ship.revelry is not None)

    def retire_cases(self, pirate: Pirate) -> list[str]:
        """The cases of 18.41 open to him where he is; not B while allied
        [blackbeard §R18.41, §11.15]."""
        code = pirate.port
        if code is None:
            return []
        return list(mech.retirement_cases(DATA, DATA.ports[code], self.ports[code], pirate,
                                          pardon_in_force=self.pardon_in_force,
                                          allied=pirate.ally is not None))

    def located_ids(self, pirate: Pirate) -> tuple[str, ...]:
        """Whose Locate lets him Loot: his, or his ally's [blackbeard §8.21, §11.12]."""
        return (pirate.id,) if pirate.ally is None else (pirate.id, pirate.ally)

    def ally_targets(self, pirate: Pirate) -> list[str]:
        """Action I: another of the player's pirates In Port in the same port, neither
        allied nor in D&R; one alliance per player (both his pirates in a 4-5-player game,
        only two in a 2-3-player game) [blackbeard §11.11]."""
        code = pirate.port
        if code is None or pirate.ally is not None or any(
                p.ally is not None for p in self.pirates_of(pirate.owner)):
            return []
        return sorted(p.id for p in self.in_port(code)
                      if p.owner == pirate.owner and p.id != pirate.id
                      and p.ship.revelry is None)

    def clear_half_moves(self, keep: str | None) -> None:
        """A first half Move is lost unless the next Action is its second [blackbeard §7.12]."""
        for pirate in self.pirates.values():
            if pirate.half_move is not None and pirate.id != keep:
                pirate.half_move = None

    def _where(self, *what: str | int) -> tuple[str | int, ...]:
        """The name of a roll of the current Action: ("turn", t, "action", a, *what)."""
        return ("turn", self.turn, "action", self.action_no, *what)

    def _seat(self) -> int:
        assert self.active is not None
        return self.active

    # ------------------------------------------------------------------ roll points (12.0)

    def _roll(self, pid: str, key: str, dice: int, skull: bool, then: Step, *,
              rolled: bool = False, name: tuple[str | int, ...] = ()) -> None:
        """Roll `dice` d6 for `pid` (unless `rolled`), then the roll point W14: his owner
        may re-roll with a Cunning point (at most 3 dice, once), then play Skull and
        Crossbones; `then` applies the result from `rolled[key]` + `bonus[key]`
        [blackbeard §12.0, §R4.5]."""
        if not rolled:
            self.rolled[key] = sum(self.roll(dice, *self._where(key, *name)))
        self.flow.push(then)
        self._roll_points([(pid, key, dice, skull, name)])

    def _roll_points(self, rolls: Sequence[tuple[str, str, int, bool, tuple[str | int, ...]]]
                     ) -> None:
        """The roll point of one contest's rolls (the Pirate Player's pirate first): every
        Cunning decision, then every Skull and Crossbones decision [blackbeard §12.0]."""
        for _, key, _, _, _ in rolls:
            self.bonus[key] = 0
        cunning = [step("_rp_cunning", pid, key, dice, name)
                   for pid, key, dice, _, name in rolls
                   if self.options["cunning"] and dice <= 3]
        skulls = [step("_rp_skull", pid, key) for pid, key, _, skull, _ in rolls if skull]
        self.flow.push(*cunning, *skulls)

    def roller(self, pid: str) -> Pirate | None:
        """The pirate a roll is made for: on the map, or a Piratical Ambition challenger."""
        pirate = self.pirates.get(pid)
        if pirate is None and self.challenger is not None and self.challenger.id == pid:
            return self.challenger
        return pirate

    def cunning_left(self, pirate: Pirate) -> int:
        return DATA.pirates[pirate.id].cunning - pirate.cunning_used

    def _owner_window(self, seat: int) -> Window:
        return TURN if seat == self.active else INTERRUPT

    def _rp_cunning(self, pid: str, key: str, dice: int, name: tuple[str | int, ...]) -> None:
        pirate = self.roller(pid)
        if pirate is None or self.cunning_left(pirate) <= 0:
            return
        self.flow.ask(pirate.owner, self._owner_window(pirate.owner), "cunning",
                      f"Re-roll the {key.replace('_', ' ')} roll ({self.rolled[key]}) with a "
                      "Cunning point?", (ACCEPT, REROLL),
                      step("_rp_rerolled", pid, key, dice, name))

    def _rp_rerolled(self, option: Option, pid: str, key: str, dice: int,
                     name: tuple[str | int, ...]) -> None:
        if option is ACCEPT:
            return
        pirate = self.roller(pid)
        assert pirate is not None
        pirate.cunning_used += 1
        old = self.rolled[key]
        self.rolled[key] = sum(self.roll(dice, *self._where(key, *name, "reroll")))
        self._emit("rerolled", {"pirate": pid, "roll": key, "was": old, "now": self.rolled[key],
                                "cunning_used": pirate.cunning_used})

    def _skull_cost(self) -> int:
        free = not self.options["cunning"] or self.options["skull_and_crossbones_bonus"] == \
            "plus2_free"
        return 0 if free else SKULL.params["cunning_cost"]

    def _rp_skull(self, pid: str, key: str) -> None:
        """Asked whenever the pirate could pay, held or not: the offer tells nothing of the
        hand [blackbeard §R4.5]."""
        pirate = self.roller(pid)
        if pirate is None or self.cunning_left(pirate) < self._skull_cost():
            return
        seat = pirate.owner
        options = (ACCEPT, PLAY_SKULL) if SKULL.number in self.seats[seat].events else (ACCEPT,)
        self.flow.ask(seat, self._owner_window(seat), "skull_and_crossbones",
                      f"Play Skull and Crossbones on the {key.replace('_', ' ')} roll?",
                      options, step("_rp_skulled", pid, key), publish=True)

    def _rp_skulled(self, option: Option, pid: str, key: str) -> None:
        if option is ACCEPT:
            return
        pirate = self.roller(pid)
        assert pirate is not None
        seat = pirate.owner
        self.seats[seat].events.remove(SKULL.number)
        self.discard.append(SKULL.number)
        if seat == self.active:  # its Event, the card's own-turn use: a HUP play (17.14)
            self.hup_played = True  # [blackbeard §4.4, §12.0, §R4.5]
            self._emit("card_used", {"seat": seat, "card": SKULL.number, "use": "event"})
        pirate.cunning_used += self._skull_cost()
        bonus = 1 if self.options["skull_and_crossbones_bonus"] == "plus1_cunning" else \
            SKULL.params["bonus"]
        self.bonus[key] += bonus
        self._emit("skull_and_crossbones", {"seat": seat, "pirate": pid, "roll": key,
                                            "bonus": bonus})

    # ------------------------------------------------------------------ A Move (7.0)

    def _do_move(self, pid: str, target: str | int) -> None:
        """One step; Speed below 0 needs two consecutive Moves of one card, the step taken
        on the second [blackbeard §7.11, §7.12, §7.3]."""
        pirate = self.pirates[pid]
        key = step_option(*_step(target)).key
        speed = pirate.ship.speed if pirate.ally is None else self.speed_of(pirate)
        if speed < 0 and pirate.half_move != key:
            pirate.half_move = key
            self._emit("half_move", {"pirate": pid, "to": target})
            return
        pirate.half_move = None
        entering = self.entering(pirate, target)
        if entering is not None and self.reaction_in_range(pirate, entering):
            self.ap.entering = entering
            self.flow.push(self.poll("T-ENTER", pid), step("_move_done", pid, target))
            return
        self._move_done(pid, target)

    def entering(self, pirate: Pirate, target: str | int) -> str | None:
        """The sea area a step from a sea area enters (a port's: its own, Bermuda's the
        one he is in): the T-ENTER point; None for a step from a port or through a
        Transit Box [blackbeard §10.32]."""
        if pirate.port is not None or pirate.area not in DATA.areas:
            return None
        if isinstance(target, int):
            return pirate.area
        return target if target in DATA.areas else None

    def _move_done(self, pid: str, target: str | int) -> None:
        """The step is completed unless the pirate was stopped at T-ENTER."""
        if self.pirates.get(pid) is None or self.ap.cancelled:
            return
        for each in self.alliance(self.pirates[pid]):  # allies move as one [blackbeard §11.12]
            self._step_to(each, target)

    def _step_to(self, pirate: Pirate, target: str | int) -> None:
        origin = pirate.port if pirate.port is not None else pirate.area
        if isinstance(target, int):
            pirate.port = target
            if pirate.ship.scurvy:
                pirate.ship.scurvy = False
                self._emit("scurvy_cured", {"pirate": pirate.id})
        elif pirate.port is not None:
            self.place_at_sea(pirate, target)
        else:
            pirate.area = target
            self.forget_located(pirate)
        self._emit("moved", {"pirate": pirate.id, "from": origin, "to": target})

    # ------------------------------------------------------------------ B Locate (8.1)

    def _do_locate(self, pid: str, code: int) -> None:
        """1d6 + Ability (+1 for a merchant located before) >= 7 turns it face up
        [blackbeard §8.13, §8.15]."""
        self._roll(pid, "locate", 1, True, step("_locate_result", pid, code))

    def _locate_result(self, pid: str, code: int) -> None:
        pirate, merchant = self.pirates[pid], self.merchants[code]
        bonus = FIG["locate"]["relocated_bonus"] if merchant.face_up else 0
        roll = self.rolled["locate"]
        total = roll + self.rating(pirate, "ability") + bonus + self.bonus["locate"]
        found = total >= FIG["locate"]["target"]
        self._emit("locate_rolled", {"pirate": pid, "port": code, "roll": roll, "total": total,
                                     "located": found})
        if found:
            merchant.face_up = True
            merchant.located_by = pid
            kind = DATA.merchants[merchant.id]
            self._emit("merchant_revealed", {"port": code, "merchant": merchant.id,
                                             "type": kind.id, "cargo_value": kind.cargo_value})
        self.flow.push(self.poll("T-MID", pirate.id))

    # ------------------------------------------------------------------ C Loot (8.2, 8.3)

    def _do_loot(self, pid: str, code: int) -> None:
        """Step 1: the Cargo roll and the hostage drawn; keep the Booty or release it
        [blackbeard §8.32, §8.41]."""
        self._roll(pid, "cargo", 1, False, step("_loot_rolled", pid, code))

    def _loot_rolled(self, pid: str, code: int) -> None:
        pirate, merchant = self.pirates[pid], self.merchants[code]
        kind = DATA.merchants[merchant.id]
        roll = self.rolled["cargo"]
        cargo = mech.cargo(DATA, roll, kind, pirate.area)
        booty, change = cargo.doubloons, cargo.loyalty
        hostage = self.draw_from(self.hostage_pool, *self._where("hostage"))
        self._emit("loot_rolled", {"pirate": pid, "port": code, "roll": roll,
                                   "cargo_value": kind.cargo_value, "booty": booty,
                                   "loyalty": change, "hostage": hostage})
        self.flow.ask(self._seat(), TURN, "loot_keep", "Keep the Booty (cargo and hostage)?",
                      (KEEP, DECLINE), step("_loot_keep", pid, code, booty, change, hostage))

    def _loot_keep(self, option: Option, pid: str, code: int, booty: int, change: int,
                   hostage: str | None) -> None:
        pirate = self.pirates[pid]
        if option is DECLINE:
            self.shared_loyalty_row(pirate, "cargo_declined")
            if hostage is not None:
                self.return_hostage(hostage)
            self.remove_merchant(code)
            self._emit("loot_declined", {"pirate": pid, "port": code})
            return
        self.flow.push(step("_loot_hostage", pid, code, hostage), step("_loot_end", pid, code))
        if booty == 0:  # a cargo of nothing needs no hold but is taken [blackbeard §8.33]
            self._cargo_taken(pirate, code, change, 0, None)
            return
        ship = pirate.ship
        options = [hold_option(i, d) for i, d in enumerate(ship.holds) if not d]
        options += [hold_option(i, d) for i, d in enumerate(ship.holds) if d]
        kind = DATA.merchants[self.merchants[code].id]
        if kind.convertible:
            options.append(convert_option(kind.id))
        options.append(LEAVE)
        other = 0
        partner = self.partner(pirate)
        if partner is not None:  # each ally's ship stows his share [blackbeard §11.13]
            high, _ = self.by_leadership(pirate, partner)
            more, less = mech.share(booty, SHARE_UNIT)
            booty, other = (more, less) if high is pirate else (less, more)
        self.flow.ask(self._seat(), TURN, "cargo_hold", "Where does the cargo go?",
                      tuple(options), step("_cargo_placed", pid, code, booty, change, other))

    def _cargo_placed(self, option: Option, pid: str, code: int, booty: int,
                      change: int, other: int = 0) -> None:
        """Step 2: an empty hold, a dumped hold, a converted ship, or the cargo left; an
        ally's share then goes into his own ship [blackbeard §8.33, §8.5, §11.13]."""
        pirate = self.pirates[pid]
        if option is LEAVE:
            self.shared_loyalty_row(pirate, "cargo_declined")
            self._emit("cargo_left", {"pirate": pid})
            return
        if other and pirate.ally is not None:
            self.flow.push(step("_share_cargo", pirate.ally, other))
        if "convert" in option.payload:
            self._convert(pirate, code)
            self._convert_fit(pid, code, booty, change)
            return
        hold = option.payload["hold"]
        self._cargo_taken(pirate, code, change, booty, hold)

    def _cargo_taken(self, pirate: Pirate, code: int, change: int, booty: int,
                     hold: int | None) -> None:
        if hold is not None:
            dumped = pirate.ship.holds[hold]
            pirate.ship.holds[hold] = booty
            self._emit("cargo_taken", {"pirate": pirate.id, "hold": hold, "booty": booty,
                                       "dumped": dumped})
        kind = DATA.merchants[self.merchants[code].id]
        self.shared_notoriety(pirate, mech.cargo(DATA, 1, kind, pirate.area).notoriety, "loot")
        if change:
            self.shared_loyalty(pirate, change, "cargo")

    def _share_cargo(self, pid: str, booty: int) -> None:
        """The ally's share of a cargo: into an empty hold, a dumped one, or left
        [blackbeard §11.13, §8.33]."""
        pirate = self.pirates.get(pid)
        if pirate is None:
            return
        ship = pirate.ship
        options = [hold_option(i, d) for i, d in enumerate(ship.holds) if not d]
        options += [hold_option(i, d) for i, d in enumerate(ship.holds) if d]
        self.flow.ask(self._seat(), TURN, "share_hold",
                      f"Where does {DATA.pirates[pid].name}'s share ({booty}) go?",
                      (*options, LEAVE), step("_share_stowed", pid, booty))

    def _share_stowed(self, option: Option, pid: str, booty: int) -> None:
        if option is LEAVE:
            self._emit("booty_left", {"pirate": pid, "booty": booty})
            return
        hold = option.payload["hold"]
        ship = self.pirates[pid].ship
        dumped, ship.holds[hold] = ship.holds[hold], booty
        self._emit("cargo_taken", {"pirate": pid, "hold": hold, "booty": booty,
                                   "dumped": dumped})

    def _convert(self, pirate: Pirate, code: int) -> None:
        """The new ship at full Combat and Speed; Loyalty +1 larger, -1 smaller; the old
        cargoes kept, the new one needing a hold [blackbeard §8.5]."""
        ship = pirate.ship
        new = mech.conversion(DATA, ship, DATA.merchants[self.merchants[code].id],
                              storing_cargo=True)
        cargoes = [d for d in ship.holds if d]
        holds = DATA.ship_types[new.type].holds
        ship.type, ship.combat, ship.speed = new.type, new.combat, new.speed
        ship.holds = cargoes + [0] * max(0, holds - len(cargoes))
        self._emit("converted", {"pirate": pirate.id, "ship": new.type, "dump": new.dump})
        self.loyalty(pirate, new.loyalty, "conversion")

    def _convert_fit(self, pid: str, code: int, booty: int, change: int) -> None:
        pirate = self.pirates[pid]
        ship = pirate.ship
        capacity = DATA.ship_types[ship.type].holds
        full = [i for i, d in enumerate(ship.holds) if d]
        if len(full) <= capacity - 1:
            cargoes = [ship.holds[i] for i in full]
            ship.holds = cargoes + [0] * (capacity - len(cargoes))
            self._cargo_taken(pirate, code, change, booty, len(cargoes))
            return
        self.flow.ask(self._seat(), TURN, "dump_cargo", "Which old cargo goes overboard?",
                      tuple(opt(f"dump:{i}", f"dump hold {i} ({ship.holds[i]})", hold=i)
                            for i in full),
                      step("_convert_dumped", pid, code, booty, change))

    def _convert_dumped(self, option: Option, pid: str, code: int, booty: int,
                        change: int) -> None:
        pirate = self.pirates[pid]
        dumped = pirate.ship.holds.pop(option.payload["hold"])
        self._emit("cargo_dumped", {"pirate": pid, "doubloons": dumped})
        self._convert_fit(pid, code, booty, change)

    def _loot_hostage(self, pid: str, code: int, hostage: str | None) -> None:
        """Ransom (a Nationality marker of the destination) or torture [blackbeard §8.43]."""
        if hostage is None:
            return
        self.flow.ask(self._seat(), TURN, "hostage_fate", "The hostage: ransom or torture?",
                      (RANSOM, TORTURE), step("_hostage_fate", pid, code, hostage))

    def _hostage_fate(self, option: Option, pid: str, code: int, hostage: str) -> None:
        pirate = self.pirates[pid]
        if option is RANSOM:
            nation = DATA.ports[code].nation or ""
            pirate.ship.hostages.append(Hostage(hostage, nation))
            self._emit("hostage_kept", {"pirate": pid, "hostage": hostage, "nation": nation})
            return
        self._roll(pid, "torture", 1, True, step("_torture_result", pid, code, hostage))

    def _torture_result(self, pid: str, code: int, hostage: str) -> None:
        """1d6 above Cruelty: he talks; NP and Loyalty either way [blackbeard §8.45]."""
        pirate = self.pirates[pid]
        roll = self.rolled["torture"]
        cruelty = self.rating(pirate, "cruelty", min) - self.bonus["torture"]
        result = mech.torture(DATA, roll, cruelty, DATA.hostages[hostage])
        if result.talks:
            pirate.information[code] = pirate.information.get(code, 0) + result.information
        self._emit("tortured", {"pirate": pid, "hostage": hostage, "roll": roll,
                                "talked": result.talks, "port": code,
                                "information": result.information})
        self.shared_notoriety(pirate, result.notoriety, "torture")
        self.shared_loyalty(pirate, result.loyalty, "torture")
        self.return_hostage(hostage)

    def _loot_end(self, pid: str, code: int) -> None:
        """Steps 3-4: the merchant to the pool; voluntary D&R [blackbeard §8.34, §8.35]."""
        self.remove_merchant(code)
        self._ask_revelry(pid)

    def _ask_revelry(self, pid: str) -> None:
        if self.pirates[pid].ship.revelry is None:
            self.flow.ask(self._seat(), TURN, "revelry", "Debauchery & Revelry?", YES_NO,
                          step("_revelry_choice", pid))

    def _revelry_choice(self, option: Option, pid: str) -> None:
        if option is YES:
            self.revelry(self.pirates[pid], VOLUNTARY)

    # ------------------------------------------------------------------ D In-Port Activities (9.4)

    def _do_in_port(self, pid: str, target: None) -> None:
        """Ransom, cash, repairs, a Safe Haven, D&R, in this order [blackbeard §9.4]; an
        alliance's for each ship in turn, the Active Pirate's first [blackbeard §11.12]."""
        self.must_revel = None
        steps: list[Step] = []
        for pirate in self.alliance(self.pirates[pid]):
            assert pirate.port is not None
            code, each = pirate.port, pirate.id
            attitude, port = self.attitude(pirate, code), DATA.ports[code]
            ransoms = tuple(h.id for h in pirate.ship.hostages
                            if mech.may_ransom(DATA, port, attitude, h))
            steps += (step("_ip_ransom", each, ransoms), step("_ip_cash", each),
                      step("_ip_repair", each), step("_ip_safe_haven", each),
                      step("_ip_revelry", each))
        self.flow.push(*steps)

    def _ip_ransom(self, pid: str, hostages: tuple[str, ...]) -> None:
        if not hostages or pid not in self.pirates:
            return
        self.flow.push(step("_ip_ransom", pid, tuple(hostages[1:])))
        self.flow.ask(self._seat(), TURN, "ransom", f"Ransom {DATA.hostages[hostages[0]].name}?",
                      YES_NO, step("_ip_ransomed", pid, hostages[0]))

    def _ip_ransomed(self, option: Option, pid: str, hostage: str) -> None:
        """2d6 x Value x 50 doubloons into one hold, even a full one [blackbeard §9.42]."""
        if option is NO:
            return
        self._roll(pid, "ransom", FIG["hostage"]["ransom_dice"], False,
                   step("_ip_ransom_paid", pid, hostage), name=(hostage,))

    def _ip_ransom_paid(self, pid: str, hostage: str) -> None:
        pirate = self.pirates[pid]
        total = self.rolled["ransom"]
        amount = mech.ransom(DATA, as_dice(total, FIG["hostage"]["ransom_dice"]),
                             DATA.hostages[hostage])
        pirate.ship.hostages = [h for h in pirate.ship.hostages if h.id != hostage]
        self.return_hostage(hostage)
        self._emit("ransomed", {"pirate": pid, "hostage": hostage, "roll": total,
                                "doubloons": amount})
        self._ask_into_hold("ransom_hold", pid, amount, True)

    def _ask_into_hold(self, kind: str, pid: str, amount: int, split: bool) -> None:
        """Doubloons into any hold, even a full one; an alliance's split between the two
        ships, the odd 50 to the higher Leadership [blackbeard §11.13]."""
        pirate = self.pirates.get(pid)
        if pirate is None or not amount:
            return
        partner = self.partner(pirate) if split else None
        if partner is not None:
            high, _ = self.by_leadership(pirate, partner)
            more, less = mech.share(amount, SHARE_UNIT)
            amount, other = (more, less) if high is pirate else (less, more)
            self.flow.push(step("_ask_into_hold", kind, partner.id, other, False))
        self.flow.ask(self._seat(), TURN, kind,
                      f"Into which hold of {DATA.pirates[pid].name} ({amount})?",
                      tuple(into_option(i) for i in range(len(pirate.ship.holds))),
                      step("_into_hold", pid, amount))

    def _into_hold(self, option: Option, pid: str, amount: int) -> None:
        self.pirates[pid].ship.holds[option.payload["hold"]] += amount

    def _ip_cash(self, pid: str) -> None:
        pirate = self.pirates.get(pid)
        if pirate is None or pirate.port is None:
            return
        attitude = self.attitude(pirate, pirate.port)
        full = tuple(i for i, d in enumerate(pirate.ship.holds) if d)
        if not (attitude in FRIENDLY or attitude == PIRATE_PORT) or not full:
            return
        self.flow.ask(self._seat(), TURN, "cash_holds", "Which holds do you cash?",
                      subsets(full), step("_ip_cashed", pid))

    def _ip_cashed(self, option: Option, pid: str) -> None:
        """At the port's rate, rounded up on the total [blackbeard §9.43]; in a Pirate Port
        D&R follows [blackbeard §9.35]."""
        holds = option.payload["holds"]
        if not holds:
            return
        pirate = self.pirates[pid]
        assert pirate.port is not None
        attitude = self.attitude(pirate, pirate.port)
        total = sum(pirate.ship.holds[i] for i in holds)
        result = mech.cash(DATA, total, attitude)
        gained = result.net_worth
        for i in holds:
            pirate.ship.holds[i] = 0
        pirate.net_worth += gained
        self._emit("cashed", {"pirate": pid, "booty": total, "net_worth_gained": gained,
                              "net_worth": pirate.net_worth})
        if result.revelry is not None:
            self.must_revel = pid

    def _ip_repair(self, pid: str) -> None:
        """1d6 halved, rounded up, +2 at his Safe Haven; all at a Pirate Port; none at Arab
        ports; split between Speed and Combat [blackbeard §9.44]."""
        pirate = self.pirates.get(pid)
        if pirate is None or pirate.port is None:
            return
        speed_damage, combat_damage = self.damage(pirate)
        if not (speed_damage or combat_damage):
            return
        attitude, port = self.attitude(pirate, pirate.port), DATA.ports[pirate.port]
        if attitude == PIRATE_PORT:
            self.repair(pirate, speed_damage, combat_damage)
            self._emit("repaired", {"pirate": pid, "speed": speed_damage,
                                    "combat": combat_damage})
            return
        if attitude not in FRIENDLY or mech.repair_points(DATA, pirate.ship, port, attitude,
                                                          1) == 0:
            return  # no repairs at all there (Arab ports)
        self._roll(pid, "repair", 1, False, step("_ip_repair_rolled", pid))

    def _ip_repair_rolled(self, pid: str) -> None:
        pirate = self.pirates[pid]
        assert pirate.port is not None
        attitude, port = self.attitude(pirate, pirate.port), DATA.ports[pirate.port]
        roll = self.rolled["repair"]
        hits = mech.repair_points(DATA, pirate.ship, port, attitude, roll)
        self._emit("repair_rolled", {"pirate": pid, "roll": roll, "hits": hits})
        ship = pirate.ship
        self.flow.ask(self._seat(), TURN, "repair_split", "How many repairs go to Speed?",
                      tuple(repair_option(speed - ship.speed, combat - ship.combat)
                            for combat, speed in mech.repairs(DATA, ship, hits)),
                      step("_repaired", pid))

    def _repaired(self, option: Option, pid: str) -> None:
        speed, combat = option.payload["speed"], option.payload["combat"]
        self.repair(self.pirates[pid], speed, combat)
        self._emit("repaired", {"pirate": pid, "speed": speed, "combat": combat})

    def _ip_safe_haven(self, pid: str) -> None:
        """At a Pro-Pirate port nobody holds, once per Governor [blackbeard §9.45]."""
        pirate = self.pirates.get(pid)
        if pirate is None or pirate.port is None:
            return
        if not mech.may_buy_safe_haven(DATA, DATA.ports[pirate.port], self.ports[pirate.port],
                                       pirate):
            return
        self.flow.ask(self._seat(), TURN, "safe_haven", "Try to buy a Safe Haven here?", YES_NO,
                      step("_ip_haven_attempt", pid))

    def _ip_haven_attempt(self, option: Option, pid: str) -> None:
        if option is NO:
            return
        pirate = self.pirates[pid]
        assert pirate.port is not None
        governor = self.ports[pirate.port].governor
        assert governor is not None
        pirate.bribed.add(governor)
        self._roll(pid, "safe_haven", 1, False, step("_ip_haven_priced", pid))

    def _ip_haven_priced(self, pid: str) -> None:
        pirate = self.pirates[pid]
        assert pirate.port is not None
        price = mech.safe_haven_price(DATA, self.rolled["safe_haven"])
        self._emit("safe_haven_price", {"pirate": pid, "port": pirate.port, "price": price})
        if pirate.net_worth < price:
            self._emit("safe_haven_declined", {"pirate": pid, "port": pirate.port})
            return
        self.flow.ask(self._seat(), TURN, "pay_safe_haven", f"Pay {price} for the Safe Haven?",
                      (PAY, REFUSE), step("_ip_haven_paid", pid, price))

    def _ip_haven_paid(self, option: Option, pid: str, price: int) -> None:
        pirate = self.pirates[pid]
        assert pirate.port is not None
        if option is REFUSE:
            self._emit("safe_haven_declined", {"pirate": pid, "port": pirate.port})
            return
        pirate.net_worth -= price
        self.ports[pirate.port].safe_haven = pid
        self._emit("safe_haven_bought", {"pirate": pid, "port": pirate.port, "price": price})

    def _ip_revelry(self, pid: str) -> None:
        if pid not in self.pirates:
            return
        if self.must_revel == pid:
            self.must_revel = None
            self.revelry(self.pirates[pid], INVOLUNTARY)
            return
        self._ask_revelry(pid)

    # ------------------------------------------------------------------ F Recover (16.0)

    def _do_recover(self, pid: str, target: None) -> None:
        """One Recover ends a voluntary D&R, two in a row an involuntary one
        [blackbeard §13.24]."""
        for pirate in self.alliance(self.pirates[pid]):  # allies: each ship in D&R
            if pirate.ship.revelry is None:
                continue
            if pirate.ship.revelry == INVOLUNTARY and pirate.recover_progress == 0:
                pirate.recover_progress = 1
                self._emit("recovering", {"pirate": pirate.id})
                continue
            pirate.ship.revelry = None
            pirate.recover_progress = 0
            self._emit("recovered", {"pirate": pirate.id})

    # ------------------------------------------------------------------ Buried Treasure (card 1)

    # ------------------------------------------------------------------ I Form Alliance (11.1)

    def _do_ally(self, pid: str, target: str) -> None:
        """The two pirates become allies [blackbeard §11.11]."""
        pirate, other = self.pirates[pid], self.pirates.get(target)
        if other is None or other.port != pirate.port or other.owner != pirate.owner:
            self._emit("action_lost", {"pirate": pid, "action": "ally"})
            return
        self.ally(pirate, other)

    def _do_dig(self, pid: str, target: None) -> None:
        """1d6: 1-2 nothing; else 3d6 x 100 into one hold; the card is discarded
        [blackbeard §R4.5]."""
        self._roll(pid, "dig", 1, False, step("_dig_rolled", pid))

    def _dig_rolled(self, pid: str) -> None:
        pirate, params, roll = self.pirates[pid], TREASURE.params, self.rolled["dig"]
        pirate.buried_treasure = False
        self.discard.append(TREASURE.number)
        if roll <= params["dig_fail_max"]:
            self._emit("treasure_dug", {"pirate": pid, "roll": roll, "doubloons": 0})
            return
        self._roll(pid, "treasure", params["treasure_dice"], False,
                   step("_treasure_rolled", pid))

    def _treasure_rolled(self, pid: str) -> None:
        amount = self.rolled["treasure"] * TREASURE.params["doubloons_per_pip"]
        self._emit("treasure_dug", {"pirate": pid, "roll": self.rolled["treasure"],
                                    "doubloons": amount})
        self._ask_into_hold("treasure_hold", pid, amount, True)

    # ------------------------------------------------------------------ K (5.1)

    def k_legal(self, seat: int) -> bool:
        """Draw: the deck has a card and it can be kept or deployed; deploy: a card in hand
        and a free display [blackbeard §5.13, §5.16]."""
        hand, deployed = len(self.seats[seat].pirate_cards), len(self.pirates_of(seat))
        free = deployed < self.limits.map_limit
        draw = bool(self.pirate_deck) and (hand < self.limits.hand_limit or free)
        return draw or (free and hand > 0)

    def action_k(self, seat: int) -> None:
        hand, free = self.seats[seat].pirate_cards, len(self.pirates_of(seat)) < \
            self.limits.map_limit
        options = []
        if self.pirate_deck and (len(hand) < self.limits.hand_limit or free):
            options.append(DRAW)
        if free:
            options += [deploy_option(card) for card in hand]
        self.flow.ask(seat, TURN, "draw_or_deploy", "Draw a Pirate card, or deploy one?",
                      tuple(options), step("_k_chosen", seat))

    def _k_chosen(self, option: Option, seat: int) -> None:
        if option is not DRAW:
            self._ask_area(seat, option.payload["pirate"], "TURN")
            return
        card = self.pirate_deck.pop()
        hand = self.seats[seat].pirate_cards
        keep = len(hand) < self.limits.hand_limit
        hand.append(card)
        hand.sort()
        self._tell(seat, "pirate_drawn", {"seat": seat, "card": card}, {"seat": seat})
        free = len(self.pirates_of(seat)) < self.limits.map_limit
        options = ((DEPLOY_NOW,) if free else ()) + ((KEEP_CARD,) if keep else ())
        if self.may_redraw():
            options += (REDRAW,)
        self.flow.ask(seat, TURN, "deploy_drawn", "Deploy the drawn pirate now?", options,
                      step("_k_drawn", seat, card))

    def may_redraw(self) -> bool:
        """6-10 players: a drawn Pirate card may be put back for another, while the deck
        holds another card [blackbeard §2.7]."""
        return (self.players >= VARIANT_PLAYERS and self.options["pirate_redraw"]
                and bool(self.pirate_deck))

    def _k_drawn(self, option: Option, seat: int, card: str) -> None:
        if option is DEPLOY_NOW:
            self._ask_area(seat, card, "TURN")
        elif option is REDRAW:
            self._redraw(seat, card)

    def _redraw(self, seat: int, card: str) -> None:
        """The card goes back, the Pirate deck is shuffled, every other player scores 10
        VP (case H), and he draws again [blackbeard §2.7, §R18.12]."""
        self.seats[seat].pirate_cards.remove(card)
        self.pirate_shuffles += 1
        self.pirate_deck = self.chance.shuffled(sorted([*self.pirate_deck, card]), "pirates",
                                                self.pirate_shuffles)
        self._emit("pirate_redrawn", {"seat": seat})
        vp = mech.score(DATA, "H").vp
        for other in range(self.players):
            if other != seat:
                self.score(other, vp, "H")
        self._k_chosen(DRAW, seat)


def as_dice(total: int, count: int) -> list[int]:
    """Dice of 1-6 with this total, for the mechanics that read dice (the total matters)."""
    dice = [1] * count
    for index in range(count):
        dice[index] += min(5, total - sum(dice))
    return dice


def _step(target: str | int) -> tuple[str, str | int]:
    if isinstance(target, int):
        return "port", target
    return ("transit" if target in DATA.transits else "area"), target


@cache
def step_option(kind: str, place: str | int) -> Option:
    if kind == "port":
        assert isinstance(place, int)
        return Option(f"port:{place}", f"enter {DATA.ports[place].name}",
                      {"target": place, "kind": kind})
    assert isinstance(place, str)
    name = DATA.transits[place].name if kind == "transit" else DATA.areas[place].name
    return Option(f"{'transit' if kind == 'transit' else 'move'}:{place}", f"to {name}",
                  {"target": place, "kind": kind})


@cache
def merchant_option(code: int, label: str) -> Option:
    return Option(f"port:{code}", f"{label} at {DATA.ports[code].name}", {"target": code})


@cache
def port_option(code: int) -> Option:
    return Option(f"port:{code}", DATA.ports[code].name, {"target": code})


@cache
def target_pirate(pid: str) -> Option:
    return Option(f"pirate:{pid}", DATA.pirates[pid].name, {"target": pid})


@cache
def retire_option(case: str) -> Option:
    return Option(f"retire:{case}", f"retire under 18.41 {case}", {"target": case})


@cache
def convert_option(kind: str) -> Option:
    return Option(f"convert:{kind}", f"convert to the {DATA.ship_types[kind].name}",
                  {"convert": kind, "hold": None})


@cache
def repair_option(speed: int, combat: int) -> Option:
    return Option(f"repair:speed={speed},combat={combat}",
                  f"{speed} to Speed, {combat} to Combat", {"speed": speed, "combat": combat})


@cache
def deploy_option(card: str) -> Option:
    return Option(f"deploy:{card}", f"deploy {DATA.pirates[card].name}", {"pirate": card})
