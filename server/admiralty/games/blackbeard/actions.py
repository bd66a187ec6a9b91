"""The Pirate Actions [blackbeard §4.5]: which are legal for a pirate and their targets, and
how Actions A Move, B Locate, F Recover and I Form an Alliance are carried out, and Action
K (draw or deploy a Pirate card); Loot and the Buried Treasure are in `loot`, In-Port
Activities in `inport`, the Actions against ports and pirates in `raids`.

A `_do_<action>` method runs as the Action's execution frame, between its T-ANN and T-END
windows, and pushes the frames of its own sub-decisions above the T-END frame.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.antipirate import AntiPirate
from admiralty.games.blackbeard.choices import opt, step_option, target_pirate
from admiralty.games.blackbeard.pieces import INVOLUNTARY, T_ENTER, T_MID, Pirate
from admiralty.games.blackbeard.rolls import RollPoints
from admiralty.games.blackbeard.setup import Setup
from admiralty.games.blackbeard.table import (
    ANTI,
    DATA,
    FIG,
    FRIENDLY,
    PIRATE_PORT,
    PORTS_OF,
    Table,
)
from admiralty.games.flow import Continuation, Flow, step

TURN = Window.TURN
ISLE = DATA.sites["isle_of_pines"].area
DRAW = opt("draw", "draw a Pirate card blind", draw=True)
VARIANT_PLAYERS = 6
"""The smallest count of the 6-10-player variant: one pirate at a time [blackbeard §2.7]."""
REDRAW = opt(
    "redraw", "put it back, shuffle and draw another: 10 VP to every other player", draw=True
)
DEPLOY_NOW, KEEP_CARD = (
    opt("deploy", "deploy it now", deploy=True),
    opt("keep", "keep it", deploy=False),
)


class PirateActions:
    """What a pirate may do, and Actions A, B, F, I and K."""

    flow: Flow

    def __init__(self, table: Table, rolls: RollPoints, windows: AntiPirate, setup: Setup) -> None:
        self.table = table
        self.rolls = rolls
        self.windows = windows
        self.setup = setup

    def performs(self) -> dict[str, Continuation]:
        """The steps that carry out its Actions, by Action."""
        return {
            "move": self._do_move,
            "locate": self._do_locate,
            "recover": self._do_recover,
            "ally": self._do_ally,
        }

    # ------------------------------------------------------------------ what is legal

    def legal_actions(self, pirate: Pirate) -> list[str]:
        """The Actions `pirate` may announce [blackbeard §4.5, §13.22, §9.53]."""
        table = self.table
        acts = ["move"] if self.move_targets(pirate) else []
        partner = table.partner(pirate) if pirate.ally is not None else None
        if pirate.ship.revelry is not None or (partner and partner.ship.revelry is not None):
            if pirate.port is not None:  # allies: either in D&R [blackbeard §13.22, §11.12]
                acts.append("recover")
            return acts
        if pirate.port is None:
            if pirate.area in DATA.areas:
                near = table.merchants_near(pirate)
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
        attitude = table.attitude(pirate, code)
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
        """The targets of `action` for `pirate`, or None when it takes none."""
        if action == "move":
            return self.move_targets(pirate)
        if action == "locate":
            ours = self.located_ids(pirate)
            return tuple(
                merchant_option(m.port, merchant_label(m.id, m.face_up))
                for m in self.table.merchants_near(pirate)
                if m.located_by not in ours
            )
        if action == "loot":
            ours = self.located_ids(pirate)
            return tuple(
                merchant_option(m.port, merchant_label(m.id, True))
                for m in self.table.merchants_near(pirate)
                if m.located_by in ours
            )
        if action == "ally":
            return tuple(target_pirate(pid) for pid in self.ally_targets(pirate))
        if action == "attack":
            return tuple(port_option(code) for code in self.attack_targets(pirate))
        if action == "grab":
            return tuple(target_pirate(pid) for pid in self.grab_targets(pirate))
        if action == "retire":
            return tuple(retire_option(case) for case in self.retire_cases(pirate))
        return None

    @staticmethod
    def opens_t_ann(action: str, target: Any) -> bool:
        """Whether the Action has a T-ANN window: not Retirement A, C, D1 [blackbeard §R4.3]."""
        return not (action == "retire" and target in ("A", "C", "D1"))

    def move_targets(self, pirate: Pirate) -> tuple[Option, ...]:
        options = tuple(step_option(kind, place) for kind, place in self.table.steps(pirate))
        if pirate.half_move is not None:
            half = tuple(o for o in options if o.key == pirate.half_move)
            if half:
                return half
        return options

    def attack_targets(self, pirate: Pirate) -> list[int]:
        """Ports of his sea area a pirate may attack from At Sea [blackbeard §9.51]."""
        if pirate.port is not None or pirate.area not in DATA.areas:
            return []
        return [
            port.code
            for port in PORTS_OF[pirate.area]
            if not port.pirate_port and not self.table.ports[port.code].destroyed
        ]

    def grab_targets(self, pirate: Pirate) -> list[str]:
        """Another player's pirate In Port there and in D&R [blackbeard §9.61]."""
        if pirate.port is None:
            return []
        return sorted(
            p.id
            for p in self.table.in_port(pirate.port)
            if p.owner != pirate.owner and p.ship.revelry is not None
        )

    def retire_cases(self, pirate: Pirate) -> list[str]:
        """The cases of 18.41 open to him where he is; not B while allied
        [blackbeard §R18.41, §11.15]."""
        code = pirate.port
        if code is None:
            return []
        return list(
            mech.retirement_cases(
                DATA,
                DATA.ports[code],
                self.table.ports[code],
                pirate,
                pardon_in_force=self.table.pardon_in_force,
                allied=pirate.ally is not None,
            )
        )

    @staticmethod
    def located_ids(pirate: Pirate) -> tuple[str, ...]:
        """Whose Locate lets him Loot: his, or his ally's [blackbeard §8.21, §11.12]."""
        return (pirate.id,) if pirate.ally is None else (pirate.id, pirate.ally)

    def ally_targets(self, pirate: Pirate) -> list[str]:
        """Action I: another of the player's pirates In Port in the same port, neither
        allied nor in D&R; one alliance per player (both his pirates in a 4-5-player game,
        only two in a 2-3-player game) [blackbeard §11.11]."""
        code = pirate.port
        if (
            code is None
            or pirate.ally is not None
            or any(p.ally is not None for p in self.table.pirates_of(pirate.owner))
        ):
            return []
        return sorted(
            p.id
            for p in self.table.in_port(code)
            if p.owner == pirate.owner and p.id != pirate.id and p.ship.revelry is None
        )

    # ------------------------------------------------------------------ A Move (7.0)

    def _do_move(self, pid: str, target: str | int) -> None:
        """One step; Speed below 0 needs two consecutive Moves of one card, the step taken
        on the second [blackbeard §7.11, §7.12, §7.3]."""
        table = self.table
        pirate = table.pirates[pid]
        key = step_option(*_step(target)).key
        speed = pirate.ship.speed if pirate.ally is None else table.speed_of(pirate)
        if speed < 0 and pirate.half_move != key:
            pirate.half_move = key
            self.flow.emit("half_move", {"pirate": pid, "to": target})
            return
        pirate.half_move = None
        entering = self.entering(pirate, target)
        if entering is not None and self.windows.reaction_in_range(pirate, entering):
            table.ap.entering = entering
            self.flow.push(self.windows.poll(T_ENTER, pid), step(self._move_done, pid, target))
            return
        self._move_done(pid, target)

    @staticmethod
    def entering(pirate: Pirate, target: str | int) -> str | None:
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
        table = self.table
        if table.pirates.get(pid) is None or table.ap.cancelled:
            return
        for each in table.alliance(table.pirates[pid]):  # allies move as one
            self._step_to(each, target)  # [blackbeard §11.12]

    def _step_to(self, pirate: Pirate, target: str | int) -> None:
        origin = pirate.port if pirate.port is not None else pirate.area
        if isinstance(target, int):
            pirate.port = target
            if pirate.ship.scurvy:
                pirate.ship.scurvy = False
                self.flow.emit("scurvy_cured", {"pirate": pirate.id})
        elif pirate.port is not None:
            self.table.place_at_sea(pirate, target)
        else:
            pirate.area = target
            self.table.forget_located(pirate)
        self.flow.emit("moved", {"pirate": pirate.id, "from": origin, "to": target})

    # ------------------------------------------------------------------ B Locate (8.1)

    def _do_locate(self, pid: str, code: int) -> None:
        """1d6 + Ability (+1 for a merchant located before) >= 7 turns it face up
        [blackbeard §8.13, §8.15]."""
        self.rolls.roll(pid, "locate", 1, True, step(self._locate_result, pid, code))

    def _locate_result(self, pid: str, code: int) -> None:
        table = self.table
        pirate, merchant = table.pirates[pid], table.merchants[code]
        bonus = FIG["locate"]["relocated_bonus"] if merchant.face_up else 0
        roll = table.rolled["locate"]
        total = roll + table.rating(pirate, "ability") + bonus + table.bonus["locate"]
        found = total >= FIG["locate"]["target"]
        self.flow.emit(
            "locate_rolled",
            {"pirate": pid, "port": code, "roll": roll, "total": total, "located": found},
        )
        if found:
            merchant.face_up = True
            merchant.located_by = pid
            kind = DATA.merchants[merchant.id]
            self.flow.emit(
                "merchant_revealed",
                {
                    "port": code,
                    "merchant": merchant.id,
                    "type": kind.id,
                    "cargo_value": kind.cargo_value,
                },
            )
        self.flow.push(self.windows.poll(T_MID, pirate.id))

    # ------------------------------------------------------------------ F Recover (16.0)

    def _do_recover(self, pid: str, target: None) -> None:
        """One Recover ends a voluntary D&R, two in a row an involuntary one
        [blackbeard §13.24]."""
        for pirate in self.table.alliance(self.table.pirates[pid]):  # allies: each in D&R
            if pirate.ship.revelry is None:
                continue
            if pirate.ship.revelry == INVOLUNTARY and pirate.recover_progress == 0:
                pirate.recover_progress = 1
                self.flow.emit("recovering", {"pirate": pirate.id})
                continue
            pirate.ship.revelry = None
            pirate.recover_progress = 0
            self.flow.emit("recovered", {"pirate": pirate.id})

    # ------------------------------------------------------------------ I Form Alliance (11.1)

    def _do_ally(self, pid: str, target: str) -> None:
        """The two pirates become allies [blackbeard §11.11]."""
        table = self.table
        pirate, other = table.pirates[pid], table.pirates.get(target)
        if other is None or other.port != pirate.port or other.owner != pirate.owner:
            self.flow.emit("action_lost", {"pirate": pid, "action": "ally"})
            return
        table.ally(pirate, other)

    # ------------------------------------------------------------------ K (5.1)

    def k_legal(self, seat: int) -> bool:
        """Draw (`may_draw`), or deploy: a card in hand and a free display
        [blackbeard §5.13, §5.16]."""
        hand = self.table.seats[seat].pirate_cards
        return self.may_draw(seat) or (self._free_display(seat) and bool(hand))

    def may_draw(self, seat: int) -> bool:
        """The deck has a card and it can be kept or deployed; with 6-10 players, only
        once his pirate is out of play, none on the map or in hand [blackbeard §5.16,
        §2.7]."""
        table = self.table
        hand = len(table.seats[seat].pirate_cards)
        if table.players >= VARIANT_PLAYERS and (hand or table.pirates_of(seat)):
            return False
        return bool(table.pirate_deck) and (
            hand < table.limits.hand_limit or self._free_display(seat)
        )

    def _free_display(self, seat: int) -> bool:
        return len(self.table.pirates_of(seat)) < self.table.limits.map_limit

    def action_k(self, seat: int) -> None:
        table = self.table
        options = [DRAW] if self.may_draw(seat) else []
        if self._free_display(seat):
            options += [deploy_option(card) for card in table.seats[seat].pirate_cards]
        self.flow.ask(
            seat,
            TURN,
            "draw_or_deploy",
            "Draw a Pirate card, or deploy one?",
            tuple(options),
            step(self._k_chosen, seat),
        )

    def _k_chosen(self, option: Option, seat: int) -> None:
        if option is not DRAW:
            self.setup.ask_area(seat, option.payload["pirate"], "TURN")
            return
        table = self.table
        card = table.pirate_deck.pop()
        hand = table.seats[seat].pirate_cards
        keep = len(hand) < table.limits.hand_limit
        hand.append(card)
        hand.sort()
        self.flow.tell((seat,), "pirate_drawn", {"seat": seat, "card": card}, {"seat": seat})
        options = ((DEPLOY_NOW,) if self._free_display(seat) else ()) + (
            (KEEP_CARD,) if keep else ()
        )
        if self.may_redraw():
            options += (REDRAW,)
        self.flow.ask(
            seat,
            TURN,
            "deploy_drawn",
            "Deploy the drawn pirate now?",
            options,
            step(self._k_drawn, seat, card),
        )

    def may_redraw(self) -> bool:
        """6-10 players: a drawn Pirate card may be put back for another, while the deck
        holds another card [blackbeard §2.7]."""
        table = self.table
        return (
            table.players >= VARIANT_PLAYERS
            and table.options["pirate_redraw"]
            and bool(table.pirate_deck)
        )

    def _k_drawn(self, option: Option, seat: int, card: str) -> None:
        if option is DEPLOY_NOW:
            self.setup.ask_area(seat, card, "TURN")
        elif option is REDRAW:
            self._redraw(seat, card)

    def _redraw(self, seat: int, card: str) -> None:
        """The card goes back, the Pirate deck is shuffled, every other player scores 10
        VP (case H), and he draws again [blackbeard §2.7, §R18.12]."""
        table = self.table
        table.seats[seat].pirate_cards.remove(card)
        table.pirate_shuffles += 1
        table.pirate_deck = table.shuffled(
            sorted([*table.pirate_deck, card]), "pirates", table.pirate_shuffles
        )
        self.flow.emit("pirate_redrawn", {"seat": seat})
        vp = mech.score(DATA, "H").vp
        for other in range(table.players):
            if other != seat:
                table.score(other, vp, "H")
        self._k_chosen(DRAW, seat)


def merchant_label(merchant: str, face_up: bool) -> str:
    if not face_up:
        return "a face-down merchant"
    kind = DATA.merchants[merchant]
    return f"a {kind.name} (Cargo Value {kind.cargo_value})"


def _step(target: str | int) -> tuple[str, str | int]:
    if isinstance(target, int):
        return "port", target
    return ("transit" if target in DATA.transits else "area"), target


@cache
def merchant_option(code: int, label: str) -> Option:
    return Option(f"port:{code}", f"{label} at {DATA.ports[code].name}", {"target": code})


@cache
def port_option(code: int) -> Option:
    return Option(f"port:{code}", DATA.ports[code].name, {"target": code})


@cache
def retire_option(case: str) -> Option:
    return Option(f"retire:{case}", f"retire under 18.41 {case}", {"target": case})


@cache
def deploy_option(card: str) -> Option:
    return Option(f"deploy:{card}", f"deploy {DATA.pirates[card].name}", {"pirate": card})
