"""The anti-pirate side [blackbeard §4.6, §6.4, §10.0]: the windows of a Pirate Action and
the acts other players may take in them.

Every Pirate Action passes points where the other players are polled in Player Order
from the player after the Pirate Player [blackbeard §R4.3]: T-ANN (W1), T-ENTER (W2, a
Move's step, KC Reactions only), T-MID (W3 after a Locate roll, W4 after a failed Port
Attack) and T-END (W8). Who is polled depends on public facts only (his one AP Action
unused, or a KC in range); the options (PASS first, then every legal act) are checked
against every limit here, so an answer is never rejected for breaking one. An act is
resolved in full, with the Pirate Player's answers inside it (evade or fight, fight or
surrender, the roll points), then the window polls again from its first seat; an act
that cancels the Action closes the window and opens T-END, one that removes the pirate
ends the Action [blackbeard §4.61, §4.62, §4.63, §4.64, §4.65, §10.23, §10.31].

The fights the acts start are in `fights`, the anti-pirate Event cards in `apcards`; in
solitaire each window is a moment of the Crown (`crown`) instead.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.apcards import ApCards
from admiralty.games.blackbeard.choices import PASS, opt
from admiralty.games.blackbeard.ending import Ending
from admiralty.games.blackbeard.fights import FIGHT_FIGURES, Fights
from admiralty.games.blackbeard.mutiny import Mutiny
from admiralty.games.blackbeard.pieces import T_ANN, T_END, T_ENTER, T_MID, Commissioner, Pirate
from admiralty.games.blackbeard.rolls import RollPoints
from admiralty.games.blackbeard.table import DATA, NOTORIETY, Table
from admiralty.games.flow import Flow, Poll, Step, is_step, step

if TYPE_CHECKING:
    from admiralty.games.blackbeard.crown import Crown

INTERRUPT = Window.INTERRUPT
AP_PROMPTS = {
    T_ANN: "The Pirate Action is announced: an anti-pirate act?",
    T_ENTER: "The pirate enters a sea area or a port: a KC Reaction?",
    T_MID: "A roll was made: an anti-pirate act?",
    T_END: "The Pirate Action is over: an anti-pirate act?",
}
IN_PORT_ACTIONS = frozenset({"in_port", "grab", "recover", "sack", "ally"})
"""The Actions a KC may Oust (with Retirement B and D2) [blackbeard §10.42]."""
NO_WINDOWS = frozenset({"retire"})
"""Actions with no T-END window: the pirate leaves play [blackbeard §R18.41]."""
KC_DICE = FIGHT_FIGURES["kc_deploy_dice"]

REACT = opt("react", "React with your King's Commissioner", act="react")
KC_DEPLOY = opt(
    "kc_deploy", "Try to bring in a King's Commissioner (3d6 under his NP)", act="kc_deploy"
)
KC_OUST = opt(
    "kc_oust", "Oust the pirates from the port with your King's Commissioner", act="kc_oust"
)

Act = Callable[[Option, int, str, str], None]
"""An anti-pirate act: ``act(option, seat, point, pirate)``."""


@cache
def patrol_option(area: str) -> Option:
    return Option(
        "patrol",
        f"Attack with the warship patrolling {DATA.areas[area].name}",
        {"act": "patrol", "area": area},
    )


@cache
def kc_move_option(area: str) -> Option:
    name = DATA.areas[area].name if area in DATA.areas else DATA.transits[area].name
    return Option(
        f"kc_move:{area}",
        f"Move your King's Commissioner to {name}",
        {"act": "kc_move", "area": area},
    )


@cache
def kc_port_option(code: int) -> Option:
    return Option(
        f"kc_port:{code}",
        f"Attack the Pirate Port {DATA.ports[code].name}",
        {"act": "kc_port", "port": code},
    )


class AntiPirate:
    """The windows of a Pirate Action and the acts taken in them."""

    flow: Flow
    crown: Crown
    """Solitaire's anti-pirate side, whose moments are the windows there: given by the
    state once it is made (it acts through this side's acts)."""

    def __init__(
        self,
        table: Table,
        rolls: RollPoints,
        fights: Fights,
        cards: ApCards,
        mutiny: Mutiny,
        ending: Ending,
    ) -> None:
        self.table = table
        self.rolls = rolls
        self.fights = fights
        self.cards = cards
        self.mutiny = mutiny
        self.ending = ending
        self.acts: dict[str, Act] = {
            "react": self._act_react,
            "kc_deploy": self._act_kc_deploy,
            "kc_move": self._act_kc_move,
            "kc_port": self._act_kc_port,
            "kc_oust": self._act_kc_oust,
            "patrol": self._act_patrol,
            "card": cards.play,
        }

    # ------------------------------------------------------------------ KCs in play

    def sea_neighbours(self, area: str) -> frozenset[str]:
        """Sea areas one step from the sea area `area`; a Transit Box is adjacent to
        nothing, so a KC in one Reacts to nobody [blackbeard §10.31]."""
        if area not in DATA.areas:
            return frozenset()
        return _sea_neighbours(area, tuple(self.table.neighbours[area]))

    def in_range(self, kc: Commissioner, area: str) -> bool:
        """A KC Reacts into `area` from it or a sea area next to it, never from or through
        a Transit Box [blackbeard §10.31]."""
        return kc.area in DATA.areas and (kc.area == area or area in self.sea_neighbours(kc.area))

    # ------------------------------------------------------------------ the windows

    def poll(self, point: str, pid: str) -> Poll:
        """A window over the other players in Player Order [blackbeard §R4.3]; in solitaire
        the Crown's moment instead, decided by fixed rules and never asked of anyone
        [blackbeard §R19.3]."""
        table = self.table
        if table.players == 1:
            return self.crown.moment(point, pid)
        active = table.turn.active
        assert active is not None
        return Poll(_others(table.order, active), self._offer_ap, (point, pid))

    def _offer_ap(self, seat: int, point: str, pid: str) -> None:
        """Poll `seat` if, on public facts, he may act: his AP Action unused, or a KC
        able to React. PASS comes first and is offered even alone [blackbeard §R4.3]."""
        pirate = self.table.pirates.get(pid)
        if pirate is None:
            return
        acts = self.ap_acts(seat, point, pirate)
        if acts is not None:
            self.flow.ask(
                seat,
                INTERRUPT,
                "anti_pirate",
                AP_PROMPTS[point],
                (PASS, *acts),
                step(self._ap_act, seat, point, pid),
                polled=True,
            )

    def ap_acts(self, seat: int, point: str, pirate: Pirate) -> list[Option] | None:
        """The acts `seat` may take now, or None when he is not polled."""
        react = self._may_react(seat, point, pirate)
        if point == T_ENTER or seat in self.table.ap.used:
            return [REACT] if react else None
        acts = [REACT] if react else []
        if self._may_deploy_kc(seat, pirate):
            acts.append(KC_DEPLOY)
        if self.may_use_patrol(point, pirate):
            acts.append(patrol_option(pirate.area))
        acts += self._kc_actions(seat, point, pirate)
        acts += self.cards.ap_cards(seat, point, pirate)
        return acts

    def _may_react(self, seat: int, point: str, pirate: Pirate) -> bool:
        """L6: one Reaction per Pirate Action, at W1 of a Move At Sea, a Loot or a Port
        Attack, and at W2, W3, W4; the KC in the pirate's sea area or next to it; never in
        the Player Turn the pirate was deployed [blackbeard §10.31, §10.32]."""
        table = self.table
        kc = table.kc_of(seat)
        if kc is None or table.ap.reaction or pirate.deployed_turn == table.turn.number:
            return False
        if point == T_ENTER:
            area = table.ap.entering
        elif (
            point == T_MID or (point == T_ANN and table.ap.action in ("move", "loot", "attack"))
        ) and table.at_sea(pirate):
            area = pirate.area
        else:
            return False
        return area is not None and self.in_range(kc, area)

    def reaction_in_range(self, pirate: Pirate, area: str) -> bool:
        """Whether any KC of another player could React to `pirate` entering `area`: a
        T-ENTER window opens only then [blackbeard §10.32]."""
        table = self.table
        if table.ap.reaction or pirate.deployed_turn == table.turn.number or not table.kcs:
            return False
        return any(
            kc.owner != pirate.owner and self.in_range(kc, area) for kc in table.kcs.values()
        )

    def _may_deploy_kc(self, seat: int, pirate: Pirate) -> bool:
        """L2: no KC of his yet, the pool not empty, the pirate At Sea with NP the 3d6 can
        roll under, one attempt per Pirate Action [blackbeard §10.12, §10.13, §4.62]."""
        table = self.table
        return (
            not table.ap.kc_deploy
            and bool(table.kc_pool)
            and table.at_sea(pirate)
            and pirate.notoriety > KC_DICE
            and table.kc_of(seat) is None
        )

    def may_use_patrol(self, point: str, pirate: Pirate) -> bool:
        """L3, type B: a warship patrolling his sea area, at W1 of a Loot or a Port Attack,
        at W3 or W4 [blackbeard §6.43, §6.44]."""
        ap = self.table.ap
        return (
            not ap.warship
            and pirate.area in self.table.patrols
            and self.table.at_sea(pirate)
            and (point == T_MID or (point == T_ANN and ap.action in ("loot", "attack")))
        )

    def _kc_actions(self, seat: int, point: str, pirate: Pirate) -> list[Option]:
        """L4, type C: one KC AP Action per Player Turn; a Move (one step, never into a
        port), an attack on a Pirate Port in the KC's area (the pirate In Port there, or
        nobody), an Oust at W1 or W8 of an In-Port Action [blackbeard §10.23, §10.4]."""
        table = self.table
        kc = table.kc_of(seat)
        if kc is None or table.ap.kc_action:
            return []
        acts = [kc_move_option(near) for near in table.neighbours.get(kc.area, ())]
        for port in DATA.ports_of(kc.area) if kc.area in DATA.areas else ():
            if not port.pirate_port or table.ports[port.code].destroyed:
                continue
            there = [p for p in table.in_port(port.code) if p.owner != seat]
            if not there or pirate.port == port.code:
                acts.append(kc_port_option(port.code))
        if self._may_oust(kc, point, pirate):
            acts.append(KC_OUST)
        return acts

    def _may_oust(self, kc: Commissioner, point: str, pirate: Pirate) -> bool:
        code = pirate.port
        if point not in (T_ANN, T_END) or code is None or DATA.ports[code].pirate_port:
            return False
        ap = self.table.ap
        oustable = ap.action in IN_PORT_ACTIONS or (
            ap.action == "retire" and ap.target in ("B", "D2")
        )
        return oustable and kc.area in DATA.ports[code].areas

    # ------------------------------------------------------------------ acts

    def _ap_act(self, option: Option, seat: int, point: str, pid: str) -> None:
        """One act, resolved in full; then `_ap_after` decides what the window does."""
        act = option.payload["act"]
        ap = self.table.ap
        if act != "react":
            ap.used.append(seat)
        ap.acts += 1
        self.flow.emit(
            "anti_pirate_act",
            {"seat": seat, "act": act, "point": point, "pirate": pid, "option": option.key},
        )
        self.flow.push(self.after_act(point, pid))
        self.acts[act](option, seat, point, pid)

    def after_act(self, point: str, pid: str) -> Step:
        """The step after an act at `point`: see `_ap_after`."""
        return step(self._ap_after, point, pid)

    def _ap_after(self, point: str, pid: str) -> None:
        """A crew brought to Loyalty 0 mutinies at the end of the act; then the window
        polls again, closes for T-END (the Action cancelled) or ends the Action (the
        pirate gone) [blackbeard §14.11, §R4.3]."""
        table = self.table
        pirate = table.pirates.get(pid)
        if pirate is not None and table.still_active(pid):
            due = self.mutiny.due(pirate, "anti_pirate")
            if due:
                self.flow.push(*due, step(self._ap_closed, point, pid))
                return
        self._ap_closed(point, pid)

    def _ap_closed(self, point: str, pid: str) -> None:
        if not self.table.still_active(pid):
            if point != T_END:  # at T-END the Action is already carried out
                self._target_escapes()
            self._unwind()
        elif self.table.ap.cancelled and point != T_END:
            self._unwind()

    def _target_escapes(self) -> None:
        """The pirate left play (or changed hands) during his Action: a merchant that was
        its target goes back to the pool [blackbeard §R4.3]."""
        table = self.table
        code = table.ap.target
        if table.ap.action in ("loot", "locate") and code in table.merchants:
            table.remove_merchant(code)
            self.flow.emit("merchant_escaped", {"port": code})

    def _unwind(self) -> None:
        """Drop the frames of the Action under way down to its T-END (or, inside T-END,
        its end): the Action is cancelled or its pirate is gone [blackbeard §R4.3]."""
        stack, ends = self.flow.stack, (self._t_end, self._windowless_end, self._action_over)
        while stack and not (is_step(stack[-1]) and stack[-1][0] in ends):
            stack.pop()

    # ------------------------------------------------------------------ A: a new KC (10.12)

    def _act_kc_deploy(self, option: Option, seat: int, point: str, pid: str) -> None:
        """3d6 under the pirate's NP brings a KC drawn blind into his sea area
        [blackbeard §10.12]."""
        table = self.table
        table.ap.kc_deploy = True
        pirate = table.pirates[pid]
        roll = table.ap_roll(KC_DICE, "kc_deploy")
        success = roll < pirate.notoriety
        self.flow.emit(
            "kc_deploy_rolled",
            {"seat": seat, "roll": roll, "notoriety": pirate.notoriety, "success": success},
        )
        if success:
            kc = table.draw_from(table.kc_pool, *table.where("ap", table.ap.acts, "kc"))
            assert kc is not None
            table.place_kc(kc, seat, pirate.area, "deployed")

    # ------------------------------------------------------------------ C: a KC acts (10.4)

    def acting_kc(self, option: Option, seat: int) -> Commissioner | None:
        """The KC an act uses: the one the option names (the Crown controls several), else
        the seat's one KC [blackbeard §10.13, §R19.2]."""
        named = option.payload.get("kc")
        return self.table.kcs.get(named) if named is not None else self.table.kc_of(seat)

    def _act_kc_move(self, option: Option, seat: int, point: str, pid: str) -> None:
        self.table.ap.kc_action = True
        kc = self.acting_kc(option, seat)
        assert kc is not None
        origin, kc.area = kc.area, option.payload["area"]
        self.flow.emit("kc_moved", {"kc": kc.id, "seat": seat, "from": origin, "to": kc.area})

    def _act_kc_port(self, option: Option, seat: int, point: str, pid: str) -> None:
        """KC 1d6 + Combat against each pirate's 1d6 + Combat there; above every one, all
        are put At Sea with a Combat hit and the Pirate Port is destroyed; nobody there,
        destroyed at once [blackbeard §10.41]."""
        table = self.table
        table.ap.kc_action = True
        kc = self.acting_kc(option, seat)
        assert kc is not None
        code = option.payload["port"]
        defenders = self._in_port_against(code, seat)
        if not defenders:
            self.flow.emit("kc_port_attack", {"kc": kc.id, "port": code, "defenders": []})
            table.destroy_port(code)
            return
        table.rolled["kc"] = table.ap_roll(1, "kc_port")
        rolls = []
        for each in defenders:
            key = "defence:" + each.id
            table.rolled[key] = table.d6(*table.where("ap", table.ap.acts, key))
            rolls.append((each.id, key, 1, True, ("ap", table.ap.acts)))
        self.flow.push(
            step(
                self._kc_port_result, seat, kc.id, code, point, pid, tuple(p.id for p in defenders)
            )
        )
        self.rolls.points(rolls)

    def _in_port_against(self, code: int, seat: int) -> list[Pirate]:
        """The pirates In Port at `code` a KC of `seat` acts against (never his own), the
        Pirate Player's first, then in Player Order [blackbeard §10.22, §R4.3]."""
        table = self.table
        active = table.turn.active
        assert active is not None
        rank = {s: k for k, s in enumerate((active, *table.others(active)))}
        return sorted(
            (p for p in table.in_port(code) if p.owner != seat), key=lambda p: (rank[p.owner], p.id)
        )

    def _kc_port_result(
        self, seat: int, kc_id: str, code: int, point: str, active: str, pids: tuple[str, ...]
    ) -> None:
        """A won attack puts the Active Pirate At Sea too: an Action he was doing In Port
        there stops, as after an Oust [blackbeard §10.41, §10.42]."""
        table = self.table
        kc = DATA.kcs[kc_id]
        total = self.fights.crown_combat(kc.combat, table.rolled["kc"])
        scores = {}
        for pid in pids:
            pirate = table.pirates.get(pid)
            if pirate is not None:
                key = "defence:" + pid
                scores[pid] = (
                    table.rolled[key]
                    + table.bonus[key]
                    + pirate.ship.combat
                    - mech.revelry_penalty(DATA, pirate.ship)
                )
        won = all(total > score for score in scores.values())
        self.flow.emit(
            "kc_port_attack",
            {"kc": kc_id, "port": code, "kc_score": total, "defenders": scores, "success": won},
        )
        if not won:
            return
        area = table.kcs[kc_id].area
        for pid in scores:
            pirate = table.pirates[pid]
            table.place_at_sea(pirate, area)
            notoriety = pirate.notoriety
            if table.hit(pirate, "combat", 1, "kc_port_attack"):
                self.fights.ap_score(seat, "C", pid, notoriety=notoriety)
        table.destroy_port(code)
        if active in scores and point != T_END:
            table.cancel_action(active, "kc_port_attack")

    def _act_kc_oust(self, option: Option, seat: int, point: str, pid: str) -> None:
        """KC 1d6 + Combat against the Pirate Player's 1d6 + the Combat of every pirate
        ship In Port there (-2 each in D&R); above, all are put At Sea and an Action at its
        T-ANN is lost; else each gains NP [blackbeard §10.42, §13.23]."""
        table = self.table
        table.ap.kc_action = True
        kc = self.acting_kc(option, seat)
        assert kc is not None
        table.rolled["kc"] = table.ap_roll(1, "kc_oust")
        self.rolls.roll(
            pid,
            "oust",
            1,
            True,
            step(self._oust_result, seat, kc.id, point, pid),
            name=("ap", table.ap.acts),
        )

    def _oust_result(self, seat: int, kc_id: str, point: str, pid: str) -> None:
        table = self.table
        pirate = table.pirates[pid]
        code = pirate.port
        assert code is not None
        there = self._in_port_against(code, seat)
        total = self.fights.crown_combat(DATA.kcs[kc_id].combat, table.rolled["kc"])
        defence = (
            table.rolled["oust"]
            + table.bonus["oust"]
            + sum(p.ship.combat - mech.revelry_penalty(DATA, p.ship) for p in there)
        )
        won = total > defence
        self.flow.emit(
            "kc_oust",
            {"kc": kc_id, "port": code, "kc_score": total, "defence": defence, "success": won},
        )
        if not won:
            points = NOTORIETY["oust_failed"].factor
            for each in there:
                table.notoriety(each, points, "oust_failed")
            return
        for each in there:
            table.place_at_sea(each, table.kcs[kc_id].area)
            self.flow.emit("ousted", {"pirate": each.id, "port": code, "area": each.area})
        if point == T_ANN:
            table.cancel_action(pid, "ousted")

    # ------------------------------------------------------------------ KC Reaction (10.3)

    def _act_react(self, option: Option, seat: int, point: str, pid: str) -> None:
        """The KC moves into the pirate's sea area (at T-ENTER, the one he enters) and
        intercepts: -1 if it moved, +1 and no -1 after a KC Surprise [blackbeard §10.31,
        §10.33, §R4.5]."""
        table = self.table
        table.ap.reaction = True
        kc = self.acting_kc(option, seat)
        assert kc is not None
        area = table.ap.entering if point == T_ENTER else table.pirates[pid].area
        assert area is not None
        moved = kc.area != area
        origin, kc.area = kc.area, area
        if table.ap.surprise == kc.id:
            modifier = DATA.card("kc_surprise").params["interception_bonus"]
        else:
            modifier = -FIGHT_FIGURES["kc_moved_in_penalty"] if moved else 0
        self.flow.emit(
            "kc_reacted",
            {"kc": kc.id, "seat": seat, "from": origin, "to": area, "modifier": modifier},
        )
        self.fights.ask_evade("kc", seat, kc.id, pid, modifier)

    # ------------------------------------------------------------------ B: a patrol (6.43)

    def _act_patrol(self, option: Option, seat: int, point: str, pid: str) -> None:
        self.table.ap.warship = True
        self.fights.ask_evade("warship", seat, self.table.patrols[option.payload["area"]], pid, 0)

    # ------------------------------------------------------------------ T-END (W8)

    def end_of_action(self, action: str, pid: str) -> Step:
        """The step that completes an announced Action: its T-END window, or for a
        Retirement (the pirate leaves play) only its end [blackbeard §R4.3]."""
        return step(self._windowless_end if action in NO_WINDOWS else self._t_end, pid)

    def _windowless_end(self, pid: str) -> None:
        """The end of an Action with no T-END: a crew it left at Loyalty 0 (a refused
        bribe) mutinies, then the Action is over [blackbeard §14.11, §R18.41]."""
        pirate = self.table.pirates.get(pid)
        due = self.mutiny.due(pirate, "end") if pirate is not None else []
        self.flow.push(*due, step(self._action_over))

    def _t_end(self, pid: str) -> None:
        """Completion: a D&R card played during the Action, an automatic mutiny of each
        crew of the alliance at Loyalty 0, then the T-END window [blackbeard §14.11,
        §R4.3, §R4.5]."""
        table = self.table
        if not table.still_active(pid):
            table.ap.revelry = []  # his D&R card lapses with him [blackbeard §R4.3]
            table.turn.active_pirate = None
            self.ending.solitaire_spent()
            return
        table.apply_revelry_cards()
        due = self.mutiny.due(table.pirates[pid], "end")
        self.flow.push(*due, step(self._t_end_window, pid))

    def _t_end_window(self, pid: str) -> None:
        if self.table.still_active(pid):
            self.flow.push(self.poll(T_END, pid), step(self._action_over))
        else:
            self.table.turn.active_pirate = None

    def _action_over(self, pid: str | None = None) -> None:
        self.table.turn.active_pirate = None
        self.ending.solitaire_spent()


@cache
def _sea_neighbours(area: str, near: tuple[str, ...]) -> frozenset[str]:
    return frozenset(n for n in near if n in DATA.areas)


@cache
def _others(order: tuple[int, ...], seat: int) -> tuple[int, ...]:
    start = order.index(seat)
    return tuple(order[(start + k) % len(order)] for k in range(1, len(order)))
