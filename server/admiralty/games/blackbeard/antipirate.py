"""The anti-pirate side [blackbeard §4.6, §6.4, §10.0]: the windows of a Pirate Action,
the acts other players may take in them, and the fights those acts start.

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

A mixin of `state.BlackbeardState`; the anti-pirate Event cards are in `apcards`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.cards import Cards
from admiralty.games.blackbeard.choices import PASS, opt
from admiralty.games.blackbeard.pieces import Commissioner, Pirate, Ship
from admiralty.games.blackbeard.table import DATA, FIG, NOTORIETY
from admiralty.games.flow import Poll, is_step, step

if TYPE_CHECKING:
    from admiralty.games.flow import Flow

TURN, INTERRUPT = Window.TURN, Window.INTERRUPT
T_ANN, T_ENTER, T_MID, T_END = "T-ANN", "T-ENTER", "T-MID", "T-END"
CROWN = -1
"""The owner (and acting "seat") of the Crown, the anti-pirate side of a solitaire game: it
is no seat, holds no hand and scores nothing [blackbeard §R19.2]."""
AP_PROMPTS = {T_ANN: "The Pirate Action is announced: an anti-pirate act?",
              T_ENTER: "The pirate enters a sea area or a port: a KC Reaction?",
              T_MID: "A roll was made: an anti-pirate act?",
              T_END: "The Pirate Action is over: an anti-pirate act?"}
IN_PORT_ACTIONS = frozenset({"in_port", "grab", "recover", "sack", "ally"})
"""The Actions a KC may Oust (with Retirement B and D2) [blackbeard §10.42]."""
FIGHT_FIGURES = FIG["fight"]
KC_DICE = FIGHT_FIGURES["kc_deploy_dice"]

REACT = opt("react", "React with your King's Commissioner", act="react")
KC_DEPLOY = opt("kc_deploy", "Try to bring in a King's Commissioner (3d6 under his NP)",
                act="kc_deploy")
KC_OUST = opt("kc_oust", "Oust the pirates from the port with your King's Commissioner",
              act="kc_oust")
EVADE, FIGHT = opt("evade", "evade", act="evade"), opt("fight", "fight", act="fight")
SURRENDER = opt("surrender", "surrender with the Letter of Marque and retire",
                act="surrender")


@cache
def patrol_option(area: str) -> Option:
    return Option("patrol", f"Attack with the warship patrolling {DATA.areas[area].name}",
                  {"act": "patrol", "area": area})


@cache
def kc_move_option(area: str) -> Option:
    name = DATA.areas[area].name if area in DATA.areas else DATA.transits[area].name
    return Option(f"kc_move:{area}", f"Move your King's Commissioner to {name}",
                  {"act": "kc_move", "area": area})


@cache
def kc_port_option(code: int) -> Option:
    return Option(f"kc_port:{code}", f"Attack the Pirate Port {DATA.ports[code].name}",
                  {"act": "kc_port", "port": code})


@cache
def ap_card_option(card: int) -> Option:
    return Option(f"card:{card}", f"Play {DATA.events[card].title}",
                  {"act": "card", "card": card})


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
        return Interference(self.used[:], self.kc_action, self.titles[:], self.action,
                            self.target, self.warship, self.kc_deploy, self.reaction,
                            self.cancelled, self.entering, self.revelry[:], self.surprise,
                            self.sighted, self.acts, self.crown)


class AntiPirate(Cards):
    """The windows and the anti-pirate acts, for `BlackbeardState`."""

    if TYPE_CHECKING:
        flow: Flow
        ap: Interference
        challenger: Pirate | None

        def _still_active(self, pid: str) -> bool: ...
        def ap_cards(self, seat: int, point: str, pirate: Pirate) -> list[Option]: ...
        def revelry_card(self, pirate: Pirate) -> None: ...
        def _mutiny(self, pid: str, when: str) -> None: ...

    # ------------------------------------------------------------------ KCs in play

    def place_kc(self, kc: str, seat: int, area: str, how: str) -> None:
        self.kcs[kc] = Commissioner(kc, seat, area)
        self._emit("kc_placed", {"kc": kc, "seat": seat, "area": area, "how": how})

    def sea_neighbours(self, area: str) -> frozenset[str]:
        """Sea areas one step from the sea area `area`; a Transit Box is adjacent to
        nothing, so a KC in one Reacts to nobody [blackbeard §10.31]."""
        if area not in DATA.areas:
            return frozenset()
        return _sea_neighbours(area, tuple(self.neighbours[area]))

    @staticmethod
    def at_sea(pirate: Pirate) -> bool:
        """At Sea in a sea area: not In Port, not in a Transit Box."""
        return pirate.port is None and pirate.area in DATA.areas

    # ------------------------------------------------------------------ the windows

    def poll(self, point: str, pid: str) -> Poll:
        """A window over the other players in Player Order [blackbeard §R4.3]; in solitaire
        the Crown's moment instead, decided by fixed rules and never asked of anyone
        (`crown.Crown._crown_moment`) [blackbeard §R19.3]."""
        assert self.active is not None
        if self.players == 1:
            return Poll((CROWN,), "_crown_moment", (point, pid))
        return Poll(_others(self.order, self.active), "_offer_ap", (point, pid))

    def _offer_ap(self, seat: int, point: str, pid: str) -> None:
        """Poll `seat` if, on public facts, he may act: his AP Action unused, or a KC
        able to React. PASS comes first and is offered even alone [blackbeard §R4.3]."""
        pirate = self.pirates.get(pid)
        if pirate is None:
            return
        acts = self.ap_acts(seat, point, pirate)
        if acts is not None:
            self.flow.ask(seat, INTERRUPT, "anti_pirate", AP_PROMPTS[point], (PASS, *acts),
                          step("_ap_act", seat, point, pid), polled=True)

    def ap_acts(self, seat: int, point: str, pirate: Pirate) -> list[Option] | None:
        """The acts `seat` may take now, or None when he is not polled."""
        react = self._may_react(seat, point, pirate)
        if point == T_ENTER or seat in self.ap.used:
            return [REACT] if react else None
        acts = [REACT] if react else []
        if self._may_deploy_kc(seat, pirate):
            acts.append(KC_DEPLOY)
        if self._may_use_patrol(point, pirate):
            acts.append(patrol_option(pirate.area))
        acts += self._kc_actions(seat, point, pirate)
        acts += self.ap_cards(seat, point, pirate)
        return acts

    def _may_react(self, seat: int, point: str, pirate: Pirate) -> bool:
        """L6: one Reaction per Pirate Action, at W1 of a Move At Sea, a Loot or a Port
        Attack, and at W2, W3, W4; the KC in the pirate's sea area or next to it; never in
        the Player Turn the pirate was deployed [blackbeard §10.31, §10.32]."""
        kc = self.kc_of(seat)
        if kc is None or self.ap.reaction or pirate.deployed_turn == self.turn:
            return False
        if point == T_ENTER:
            area = self.ap.entering
        elif (point == T_MID or (point == T_ANN and self.ap.action in ("move", "loot", "attack"))
              ) and self.at_sea(pirate):
            area = pirate.area
        else:
            return False
        return area is not None and self.in_range(kc, area)

    def reaction_in_range(self, pirate: Pirate, area: str) -> bool:
        """Whether any KC of another player could React to `pirate` entering `area`: a
        T-ENTER window opens only then [blackbeard §10.32]."""
        if self.ap.reaction or pirate.deployed_turn == self.turn or not self.kcs:
            return False
        return any(kc.owner != pirate.owner and self.in_range(kc, area)
                   for kc in self.kcs.values())

    def in_range(self, kc: Commissioner, area: str) -> bool:
        """A KC Reacts into `area` from it or a sea area next to it, never from or through
        a Transit Box [blackbeard §10.31]."""
        return kc.area in DATA.areas and (kc.area == area or area in self.sea_neighbours(kc.area))

    def _may_deploy_kc(self, seat: int, pirate: Pirate) -> bool:
        """L2: no KC of his yet, the pool not empty, the pirate At Sea with NP the 3d6 can
        roll under, one attempt per Pirate Action [blackbeard §10.12, §10.13, §4.62]."""
        return (not self.ap.kc_deploy and bool(self.kc_pool) and self.at_sea(pirate)
                and pirate.notoriety > KC_DICE and self.kc_of(seat) is None)

    def _may_use_patrol(self, point: str, pirate: Pirate) -> bool:
        """L3, type B: a warship patrolling his sea area, at W1 of a Loot or a Port Attack,
        at W3 or W4 [blackbeard §6.43, §6.44]."""
        return (not self.ap.warship and pirate.area in self.patrols and self.at_sea(pirate)
                and (point == T_MID or (point == T_ANN and self.ap.action in ("loot", "attack"))))

    def _kc_actions(self, seat: int, point: str, pirate: Pirate) -> list[Option]:
        """L4, type C: one KC AP Action per Player Turn; a Move (one step, never into a
        port), an attack on a Pirate Port in the KC's area (the pirate In Port there, or
        nobody), an Oust at W1 or W8 of an In-Port Action [blackbeard §10.23, §10.4]."""
        kc = self.kc_of(seat)
        if kc is None or self.ap.kc_action:
            return []
        acts = [kc_move_option(near) for near in self.neighbours.get(kc.area, ())]
        for port in DATA.ports_of(kc.area) if kc.area in DATA.areas else ():
            if not port.pirate_port or self.ports[port.code].destroyed:
                continue
            there = [p for p in self.in_port(port.code) if p.owner != seat]
            if not there or pirate.port == port.code:
                acts.append(kc_port_option(port.code))
        if self._may_oust(kc, point, pirate):
            acts.append(KC_OUST)
        return acts

    def _may_oust(self, kc: Commissioner, point: str, pirate: Pirate) -> bool:
        code = pirate.port
        if point not in (T_ANN, T_END) or code is None or DATA.ports[code].pirate_port:
            return False
        oustable = self.ap.action in IN_PORT_ACTIONS or (
            self.ap.action == "retire" and self.ap.target in ("B", "D2"))
        return oustable and kc.area in DATA.ports[code].areas

    # ------------------------------------------------------------------ acts

    def _ap_act(self, option: Option, seat: int, point: str, pid: str) -> None:
        """One act, resolved in full; then `_ap_after` decides what the window does."""
        act = option.payload["act"]
        if act != "react":
            self.ap.used.append(seat)
        self.ap.acts += 1
        self._emit("anti_pirate_act", {"seat": seat, "act": act, "point": point,
                                       "pirate": pid, "option": option.key})
        self.flow.push(step("_ap_after", point, pid))
        getattr(self, "_act_" + act)(option, seat, point, pid)

    def _ap_after(self, point: str, pid: str) -> None:
        """A crew brought to Loyalty 0 mutinies at the end of the act; then the window
        polls again, closes for T-END (the Action cancelled) or ends the Action (the
        pirate gone) [blackbeard §14.11, §R4.3]."""
        pirate = self.pirates.get(pid)
        if pirate is not None and self._still_active(pid):
            due = [step("_mutiny", each.id, "anti_pirate") for each in self.alliance(pirate)
                   if each.ship.loyalty == 0]
            if due:
                self.flow.push(*due, step("_ap_closed", point, pid))
                return
        self._ap_closed(point, pid)

    def _ap_closed(self, point: str, pid: str) -> None:
        if not self._still_active(pid):
            if point != T_END:  # at T-END the Action is already carried out
                self._target_escapes()
            self._unwind()
        elif self.ap.cancelled and point != T_END:
            self._unwind()

    def _target_escapes(self) -> None:
        """The pirate left play (or changed hands) during his Action: a merchant that was
        its target goes back to the pool [blackbeard §R4.3]."""
        code = self.ap.target
        if self.ap.action in ("loot", "locate") and code in self.merchants:
            self.remove_merchant(code)
            self._emit("merchant_escaped", {"port": code})

    def _unwind(self) -> None:
        """Drop the frames of the Action under way down to its T-END (or, inside T-END,
        its end): the Action is cancelled or its pirate is gone [blackbeard §R4.3]."""
        stack = self.flow.stack
        while stack and not (is_step(stack[-1]) and stack[-1][0] in ("_t_end", "_action_over")):
            stack.pop()

    def cancel_action(self, pid: str, why: str) -> None:
        """The Pirate Action is cancelled and lost; a merchant it looted, or located,
        goes back to the pool; a pending D&R card takes effect now [blackbeard §6.45,
        §10.33, §R4.5]."""
        if self.ap.cancelled:
            return
        self.ap.cancelled = True
        self._emit("action_cancelled", {"pirate": pid, "action": self.ap.action, "why": why})
        code = self.ap.target
        merchant = self.merchants.get(code) if self.ap.action in ("loot", "locate") else None
        if merchant is not None and (self.ap.action == "loot" or merchant.located_by == pid):
            self.remove_merchant(code)
            self._emit("merchant_escaped", {"port": code})
        self.apply_revelry_cards()

    def apply_revelry_cards(self) -> None:
        """A D&R card played during the Action takes effect when it is completed or
        cancelled [blackbeard §R4.5]."""
        due, self.ap.revelry = self.ap.revelry, []
        for pid in due:
            if pid in self.pirates:
                self.revelry_card(self.pirates[pid])

    def _ap_score(self, seat: int, case: str, pid: str, **amounts: Any) -> None:
        if seat == CROWN:  # the Crown scores nothing [blackbeard §R19.5]
            return
        vp = mech.score(DATA, case, ap_vp_awards=self.options["ap_vp_awards"], **amounts).vp
        if vp:
            self.score(seat, vp, case, pid)

    def _ap_roll(self, count: int, *what: str | int) -> int:
        """An anti-pirate side's roll (no one's Cunning touches it)."""
        return sum(self.roll(count, *self._where("ap", self.ap.acts, *what)))

    def _crown_combat(self, combat: int, roll: int) -> int:
        return mech.crown_battle_score(DATA, roll, combat,
                                       option_2_4_plus2=self.options["option_2_4_plus2"])

    def fighter(self, pirate: Pirate) -> tuple[Ship, int]:
        """The ship and Skill that fight for `pirate`: an alliance has the higher Combat,
        the lower Speed and both Skills, and is in D&R if either ally is
        [blackbeard §11.12, §13.23]."""
        allies = self.alliance(pirate)
        if len(allies) == 1:
            return pirate.ship, DATA.pirates[pirate.id].ability
        ships = [each.ship for each in allies]
        ship = Ship(pirate.ship.type, max(s.combat for s in ships), min(s.speed for s in ships),
                    pirate.ship.loyalty, [],
                    revelry=next((s.revelry for s in ships if s.revelry), None),
                    heavy_guns=any(s.heavy_guns for s in ships))
        return ship, sum(DATA.pirates[each.id].ability for each in allies)

    # ------------------------------------------------------------------ A: a new KC (10.12)

    def _act_kc_deploy(self, option: Option, seat: int, point: str, pid: str) -> None:
        """3d6 under the pirate's NP brings a KC drawn blind into his sea area
        [blackbeard §10.12]."""
        self.ap.kc_deploy = True
        pirate = self.pirates[pid]
        roll = self._ap_roll(KC_DICE, "kc_deploy")
        success = roll < pirate.notoriety
        self._emit("kc_deploy_rolled", {"seat": seat, "roll": roll,
                                        "notoriety": pirate.notoriety, "success": success})
        if success:
            kc = self.draw_from(self.kc_pool, *self._where("ap", self.ap.acts, "kc"))
            assert kc is not None
            self.place_kc(kc, seat, pirate.area, "deployed")

    # ------------------------------------------------------------------ C: a KC acts (10.4)

    def acting_kc(self, option: Option, seat: int) -> Commissioner | None:
        """The KC an act uses: the one the option names (the Crown controls several), else
        the seat's one KC [blackbeard §10.13, §R19.2]."""
        named = option.payload.get("kc")
        return self.kcs.get(named) if named is not None else self.kc_of(seat)

    def _act_kc_move(self, option: Option, seat: int, point: str, pid: str) -> None:
        self.ap.kc_action = True
        kc = self.acting_kc(option, seat)
        assert kc is not None
        origin, kc.area = kc.area, option.payload["area"]
        self._emit("kc_moved", {"kc": kc.id, "seat": seat, "from": origin, "to": kc.area})

    def _act_kc_port(self, option: Option, seat: int, point: str, pid: str) -> None:
        """KC 1d6 + Combat against each pirate's 1d6 + Combat there; above every one, all
        are put At Sea with a Combat hit and the Pirate Port is destroyed; nobody there,
        destroyed at once [blackbeard §10.41]."""
        self.ap.kc_action = True
        kc = self.acting_kc(option, seat)
        assert kc is not None
        code = option.payload["port"]
        defenders = self._in_port_against(code, seat)
        if not defenders:
            self._emit("kc_port_attack", {"kc": kc.id, "port": code, "defenders": []})
            self.destroy_port(code)
            return
        self.rolled["kc"] = self._ap_roll(1, "kc_port")
        rolls = []
        for each in defenders:
            key = "defence:" + each.id
            self.rolled[key] = self.d6(*self._where("ap", self.ap.acts, key))
            rolls.append((each.id, key, 1, True, ("ap", self.ap.acts)))
        self.flow.push(step("_kc_port_result", seat, kc.id, code, point, pid,
                            tuple(p.id for p in defenders)))
        self._roll_points(rolls)

    def _in_port_against(self, code: int, seat: int) -> list[Pirate]:
        """The pirates In Port at `code` a KC of `seat` acts against (never his own), the
        Pirate Player's first, then in Player Order [blackbeard §10.22, §R4.3]."""
        assert self.active is not None
        rank = {s: k for k, s in enumerate((self.active, *self.others(self.active)))}
        return sorted((p for p in self.in_port(code) if p.owner != seat),
                      key=lambda p: (rank[p.owner], p.id))

    def _kc_port_result(self, seat: int, kc_id: str, code: int, point: str, active: str,
                        pids: tuple[str, ...]) -> None:
        """A won attack puts the Active Pirate At Sea too: an Action he was doing In Port
        there stops, as after an Oust [blackbeard §10.41, §10.42]."""
        kc = DATA.kcs[kc_id]
        total = self._crown_combat(kc.combat, self.rolled["kc"])
        scores = {}
        for pid in pids:
            pirate = self.pirates.get(pid)
            if pirate is not None:
                key = "defence:" + pid
                scores[pid] = (self.rolled[key] + self.bonus[key] + pirate.ship.combat
                               - mech.revelry_penalty(DATA, pirate.ship))
        won = all(total > score for score in scores.values())
        self._emit("kc_port_attack", {"kc": kc_id, "port": code, "kc_score": total,
                                      "defenders": scores, "success": won})
        if not won:
            return
        area = self.kcs[kc_id].area
        for pid in scores:
            pirate = self.pirates[pid]
            self.place_at_sea(pirate, area)
            notoriety = pirate.notoriety
            if self.hit(pirate, "combat", 1, "kc_port_attack"):
                self._ap_score(seat, "C", pid, notoriety=notoriety)
        self.destroy_port(code)
        if active in scores and point != T_END:
            self.cancel_action(active, "kc_port_attack")

    def _act_kc_oust(self, option: Option, seat: int, point: str, pid: str) -> None:
        """KC 1d6 + Combat against the Pirate Player's 1d6 + the Combat of every pirate
        ship In Port there (-2 each in D&R); above, all are put At Sea and an Action at its
        T-ANN is lost; else each gains NP [blackbeard §10.42, §13.23]."""
        self.ap.kc_action = True
        kc = self.acting_kc(option, seat)
        assert kc is not None
        self.rolled["kc"] = self._ap_roll(1, "kc_oust")
        self._roll(pid, "oust", 1, True, step("_oust_result", seat, kc.id, point, pid),
                   name=("ap", self.ap.acts))

    def _oust_result(self, seat: int, kc_id: str, point: str, pid: str) -> None:
        pirate = self.pirates[pid]
        code = pirate.port
        assert code is not None
        there = self._in_port_against(code, seat)
        total = self._crown_combat(DATA.kcs[kc_id].combat, self.rolled["kc"])
        defence = self.rolled["oust"] + self.bonus["oust"] + sum(
            p.ship.combat - mech.revelry_penalty(DATA, p.ship) for p in there)
        won = total > defence
        self._emit("kc_oust", {"kc": kc_id, "port": code, "kc_score": total,
                               "defence": defence, "success": won})
        if not won:
            points = NOTORIETY["oust_failed"].factor
            for each in there:
                self.notoriety(each, points, "oust_failed")
            return
        for each in there:
            self.place_at_sea(each, self.kcs[kc_id].area)
            self._emit("ousted", {"pirate": each.id, "port": code, "area": each.area})
        if point == T_ANN:
            self.cancel_action(pid, "ousted")

    # ------------------------------------------------------------------ KC Reaction (10.3)

    def _act_react(self, option: Option, seat: int, point: str, pid: str) -> None:
        """The KC moves into the pirate's sea area (at T-ENTER, the one he enters) and
        intercepts: -1 if it moved, +1 and no -1 after a KC Surprise [blackbeard §10.31,
        §10.33, §R4.5]."""
        self.ap.reaction = True
        kc = self.acting_kc(option, seat)
        assert kc is not None
        area = self.ap.entering if point == T_ENTER else self.pirates[pid].area
        assert area is not None
        moved = kc.area != area
        origin, kc.area = kc.area, area
        if self.ap.surprise == kc.id:
            modifier = DATA.card("kc_surprise").params["interception_bonus"]
        else:
            modifier = -FIGHT_FIGURES["kc_moved_in_penalty"] if moved else 0
        self._emit("kc_reacted", {"kc": kc.id, "seat": seat, "from": origin, "to": area,
                                  "modifier": modifier})
        self._ask_evade("kc", seat, kc.id, pid, modifier)

    # ------------------------------------------------------------------ evade or fight

    def _ask_evade(self, foe: str, seat: int, counter: str, pid: str, modifier: int) -> None:
        """The Pirate Player decides at once: evade or fight [blackbeard §6.45, §10.33]."""
        assert self.active is not None
        name = DATA.kcs[counter].name if foe == "kc" else DATA.warships[counter].name
        self.flow.ask(self.active, TURN, f"{foe}_attack",
                      f"{name} attacks {DATA.pirates[pid].name}: evade or fight?",
                      (EVADE, FIGHT), step("_evade_or_fight", foe, seat, counter, pid, modifier))

    def _evade_or_fight(self, option: Option, foe: str, seat: int, counter: str, pid: str,
                        modifier: int) -> None:
        if option is FIGHT:
            self._battle(foe, seat, counter, pid)
            return
        speed = (DATA.kcs[counter].speed if foe == "kc" else DATA.warships[counter].speed)
        self.rolled["foe"] = self._ap_roll(1, foe, "evasion") + speed + modifier
        self._roll(pid, "evade", 1, True, step("_evaded", foe, seat, counter, pid),
                   name=("ap", self.ap.acts))

    def _evaded(self, foe: str, seat: int, counter: str, pid: str) -> None:
        """Pirate at least the other: he escapes and his Action is lost (not a Move, against
        a KC); below: a warship fights, a KC has intercepted him [blackbeard §6.45, §10.33]."""
        pirate = self.pirates[pid]
        ship, _ = self.fighter(pirate)
        score = (mech.evasion_score(DATA, self.rolled["evade"], ship,
                                    heavy_guns=self.options["heavy_guns"]) + self.bonus["evade"])
        escaped = score >= self.rolled["foe"]
        self._emit("evasion", {"pirate": pid, "foe": counter, "score": score,
                               "against": self.rolled["foe"], "escaped": escaped})
        if escaped:
            if foe == "warship" or self.ap.action != "move":
                self.cancel_action(pid, "evaded")
            return
        if foe == "kc" and pirate.ally is None and pirate.ship.letter_of_marque is not None:
            assert self.active is not None
            self.flow.ask(self.active, TURN, "kc_surrender",
                          f"Intercepted by {DATA.kcs[counter].name}: fight or surrender?",
                          (FIGHT, SURRENDER), step("_surrender", seat, counter, pid))
            return
        self._battle(foe, seat, counter, pid)

    def _surrender(self, option: Option, seat: int, counter: str, pid: str) -> None:
        """Surrender with a Letter of Marque: he retires on the spot (18.41 B), the KC's
        controller scores half his NP [blackbeard §10.34, §R18.12]."""
        if option is FIGHT:
            self._battle("kc", seat, counter, pid)
            return
        pirate = self.pirates[pid]
        self._emit("surrendered", {"pirate": pid, "kc": counter})
        self._ap_score(seat, "F", pid, notoriety=pirate.notoriety)
        self._retire(pid, "B", 0)

    def _battle(self, foe: str, seat: int, counter: str, pid: str) -> None:
        """1d6 + Combat + Skill against 1d6 + the other's Combat (+2 under option 2.4)
        [blackbeard §6.46, §10.35]."""
        combat = DATA.kcs[counter].combat if foe == "kc" else DATA.warships[counter].combat
        self.rolled["foe"] = self._crown_combat(combat, self._ap_roll(1, foe, "battle"))
        self._roll(pid, "battle", 1, True, step("_fought_" + foe, seat, counter, pid),
                   name=("ap", self.ap.acts))

    def _battle_score(self, pid: str) -> int:
        ship, skill = self.fighter(self.pirates[pid])
        return (mech.battle_score(DATA, self.rolled["battle"], ship, skill,
                                  heavy_guns=self.options["heavy_guns"]) + self.bonus["battle"])

    def _fought_kc(self, seat: int, kc_id: str, pid: str) -> None:
        """Pirate above: the KC is killed, the pirate gains 2 x its Combat in NP and +1
        Loyalty, its controller scores case D. Else the pirate (both allies) dies, the
        controller scores half his NP [blackbeard §10.35, §10.36, §R18.12]."""
        score, kc = self._battle_score(pid), DATA.kcs[kc_id]
        won = score > self.rolled["foe"]
        self._emit("kc_battle", {"pirate": pid, "kc": kc_id, "score": score,
                                 "against": self.rolled["foe"], "pirate_won": won})
        pirate = self.pirates[pid]
        if won:
            del self.kcs[kc_id]
            self.kcs_killed.append(kc_id)
            self._emit("kc_killed", {"kc": kc_id, "seat": seat})
            self.shared_notoriety(pirate, NOTORIETY["kc_defeated"].factor * kc.combat,
                                  "kc_defeated")
            self.shared_loyalty_row(pirate, "kc_defeated")
            self._ap_score(seat, "D", pid, kc_combat=kc.combat)
            return
        for each in self.alliance(pirate):
            self._ap_score(seat, "C", each.id, notoriety=each.notoriety)
            self.eliminate(each, "kc")

    def _fought_warship(self, seat: int, warship: str, pid: str) -> None:
        """Pirate above: NP = the warship's Combat, then 1 Combat hit, the warship back to
        the pool, his Action goes on. Else hits = the difference, Loyalty -1, the warship
        stays, the Action is lost; the AP player scores per hit, and half the NP of a sunk
        ship [blackbeard §6.46, §6.47, §R18.12]."""
        score = self._battle_score(pid)
        against = self.rolled["foe"]
        won = score > against
        self._emit("warship_battle", {"pirate": pid, "warship": warship, "score": score,
                                      "against": against, "pirate_won": won})
        pirate = self.pirates[pid]
        before = tuple((each.id, each.notoriety) for each in self.alliance(pirate))
        if won:
            self.shared_notoriety(pirate, DATA.warships[warship].combat, "warship_defeated")
            self._warship_gone(warship)
            before = tuple((each.id, each.notoriety) for each in self.alliance(pirate))
            hits = FIGHT_FIGURES["warship_win_hits"]
            self.flow.push(step("_warship_sinkings", seat, before, 0))
            self._split_hits(pid, "combat", hits, "warship")
            return
        self.shared_loyalty_row(pirate, "warship_battle_lost")
        self.cancel_action(pid, "warship")
        hits = against - score
        self.flow.push(step("_warship_sinkings", seat, before, hits))
        self._split_hits(pid, "combat", hits, "warship")

    def _warship_sinkings(self, seat: int, before: tuple[tuple[str, int], ...],
                          hits: int) -> None:
        """Case E: 1 VP per hit of a battle the warship won, and half the NP of each ship
        it sank [blackbeard §R18.12]."""
        for index, (pid, notoriety) in enumerate(before):
            sunk = pid not in self.pirates
            self._ap_score(seat, "E", pid, notoriety=notoriety, sunk=sunk,
                           hits=hits if index == 0 else 0)

    def _warship_gone(self, warship: str) -> None:
        """A beaten warship goes back to its pool [blackbeard §6.47]."""
        for area, there in list(self.patrols.items()):
            if there == warship:
                del self.patrols[area]
        if self.ap.sighted == warship:
            self.ap.sighted = None
        self.warship_pool.append(warship)
        self.warship_pool.sort()
        self._emit("warship_left", {"warship": warship})

    # ------------------------------------------------------------------ B: a patrol (6.43)

    def _act_patrol(self, option: Option, seat: int, point: str, pid: str) -> None:
        self.ap.warship = True
        self._ask_evade("warship", seat, self.patrols[option.payload["area"]], pid, 0)


@cache
def _sea_neighbours(area: str, near: tuple[str, ...]) -> frozenset[str]:
    return frozenset(n for n in near if n in DATA.areas)


@cache
def _others(order: tuple[int, ...], seat: int) -> tuple[int, ...]:
    start = order.index(seat)
    return tuple(order[(start + k) % len(order)] for k in range(1, len(order)))
