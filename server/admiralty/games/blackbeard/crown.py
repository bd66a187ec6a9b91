"""Solitaire's anti-pirate side: the Crown [blackbeard §R19].

In a one-seat game there is no other player to poll, so each window point of a Pirate
Action is a Crown moment (`antipirate.AntiPirate.poll` returns one): the Crown decides by
fixed rules and the seeded chance alone, never by a request. At each moment it makes at most
one KC Reaction (free) and then at most one AP Action, the first eligible entry of the
moment's priority list, while its budget for the Player Turn lasts. The acts and the fights
are the multi-player ones (`antipirate`, `fights`, `apcards`), run with `CROWN` as the
acting seat; the Pirate Player still answers every pirate-side question (evade or fight,
surrender, Cunning, Skull and Crossbones) [blackbeard §R19.3, §R19.4].

Moment 1 is the T-ANN of an Action, moment 2 its T-MID (after a Locate roll, after a failed
Port Attack) and the T-END of a successful Port Attack; moment 3 comes once per Player Turn,
when the Actions of the turn's Actions card are over (`_crown_moment3`). After each Player
Turn the Crown Phase moves the Crown's KCs one step toward the nearest pirate At Sea and
draws one Event card (`_crown_phase`) [blackbeard §R19.2]. The Threat Row
(`Table.threat_row`) is a list of card numbers, oldest first.
"""

from __future__ import annotations

from collections import deque
from functools import cache

from admiralty.games.base import Option
from admiralty.games.blackbeard.antipirate import KC_DICE, AntiPirate, patrol_option
from admiralty.games.blackbeard.apcards import ApCards, ap_card_option
from admiralty.games.blackbeard.cards import EventCards
from admiralty.games.blackbeard.ending import Ending
from admiralty.games.blackbeard.mutiny import Mutiny
from admiralty.games.blackbeard.pieces import T_ANN, T_END, T_MID, Pirate
from admiralty.games.blackbeard.table import CROWN, DATA, Table
from admiralty.games.flow import Flow, Poll, Step, step

MOMENT_3 = "end_of_actions"
"""The name of moment 3 in the `anti_pirate_act` events (its acts are resolved as at a T-END)."""
KC_DEPLOY_NP = 10
"""Moment 3 tries a KC deployment only against a pirate of at least this Notoriety."""
AMBITION_DUEL = 3
"""Moment 3 sends Piratical Ambition against a pirate of at most this Duel rating."""
CONSPIRACY_LOYALTY = 7
"""Moment 3 plays Mutiny Conspiracy against a crew of at most this Loyalty."""
DOLDRUMS_LEFT = 2
"""Moment 1 plays a weather card against a Move only with at least this budget left."""


CROWN_VERBS = {"react": "reacts", "kc_oust": "ousts the pirates from the port"}


@cache
def crown_kc_option(act: str, kc: str, code: int | None = None) -> Option:
    """The Crown's act `act` with its KC `kc`: a Reaction, an Oust, or (`code`) an attack
    on that Pirate Port."""
    name = f"The Crown's {DATA.kcs[kc].name}"
    if code is not None:
        return Option(
            f"{act}:{code}",
            f"{name} attacks {DATA.ports[code].name}",
            {"act": act, "port": code, "kc": kc},
        )
    return Option(f"{act}:{kc}", f"{name} {CROWN_VERBS[act]}", {"act": act, "kc": kc})


CROWN_DEPLOY = Option(
    "kc_deploy", "The Crown tries to bring in a King's Commissioner", {"act": "kc_deploy"}
)


def _area_number(area: str) -> int:
    return DATA.areas[area].number


class Crown:
    """The Crown's moments and its Phase."""

    flow: Flow

    def __init__(
        self,
        table: Table,
        antipirate: AntiPirate,
        apcards: ApCards,
        cards: EventCards,
        mutiny: Mutiny,
        ending: Ending,
    ) -> None:
        self.table = table
        self.antipirate = antipirate
        self.apcards = apcards
        self.cards = cards
        self.mutiny = mutiny
        self.ending = ending

    def budget_left(self) -> int:
        return self.table.level.ap_budget - self.table.ap.crown

    def _row_card(self, key: str, point: str, pirate: Pirate) -> Option | None:
        """Play the oldest copy of `key` in the Threat Row, if it is there, not played this
        Player Turn and its own conditions hold [blackbeard §R19.3]."""
        table = self.table
        if key in table.ap.titles:
            return None
        card = next((c for c in table.threat_row if table.card_key(c) == key), None)
        if card is None or not self.apcards.card_fits(key, CROWN, point, pirate):
            return None
        return ap_card_option(card)

    # ------------------------------------------------------------------ moments 1 and 2

    def moment(self, point: str, pid: str) -> Poll:
        """The window `point` of a Pirate Action in solitaire: the Crown's moment, asked of
        no one [blackbeard §R19.3]."""
        return Poll((CROWN,), self._crown_moment, (point, pid))

    def _crown_moment(self, seat: int, point: str, pid: str) -> None:
        """A window point in solitaire: the Crown's KC Reaction, then its AP Action
        [blackbeard §R19.3]. T-ENTER is no Crown moment."""
        table = self.table
        pirate = table.pirates.get(pid)
        if pirate is None or not table.still_active(pid) or point not in (T_ANN, T_MID, T_END):
            return
        self.flow.push(step(self._crown_ap, point, pid))
        react = self._crown_reaction(point, pirate)
        if react is not None:
            self._crown_act(react, point, pid, self.antipirate.after_act(point, pid))

    def _crown_reaction(self, point: str, pirate: Pirate) -> Option | None:
        """Row R: a pirate At Sea making a Move, Loot or Port Attack (T-ANN), or after a
        Locate roll or a failed Port Attack (T-MID); the Crown KC in range with the highest
        Combat, then Speed, then the lowest id [blackbeard §R19.3, §10.31]."""
        table = self.table
        if (
            table.ap.reaction
            or pirate.deployed_turn == table.turn.number
            or not table.at_sea(pirate)
            or point == T_END
            or (point == T_ANN and table.ap.action not in ("move", "loot", "attack"))
        ):
            return None
        near = [kc for kc in table.crown_kcs() if self.antipirate.in_range(kc, pirate.area)]
        if not near:
            return None
        best = min(near, key=lambda kc: (-DATA.kcs[kc.id].combat, -DATA.kcs[kc.id].speed, kc.id))
        return crown_kc_option("react", best.id)

    def _crown_ap(self, point: str, pid: str) -> None:
        """The moment's one AP Action: the first eligible entry, budget permitting."""
        table = self.table
        pirate = table.pirates.get(pid)
        if (
            pirate is None
            or not table.still_active(pid)
            or table.ap.cancelled
            or self.budget_left() <= 0
        ):
            return
        act = self._moment_1(pirate) if point == T_ANN else self._moment_2(point, pirate)
        if act is not None:
            self._crown_act(act, point, pid, self.antipirate.after_act(point, pid))

    def _moment_1(self, pirate: Pirate) -> Option | None:
        """Moment 1, the T-ANN of Action X, rows 1-9 [blackbeard §R19.3]."""
        table = self.table
        action = table.ap.action
        if action in ("loot", "attack"):
            if self.antipirate.may_use_patrol(T_ANN, pirate):  # rows 1 and 5
                return patrol_option(pirate.area)
            keys = (
                ("warship_sighting", "merchant_fights_back", "storm_at_sea")
                if action == "loot"
                else ("warship_sighting",)
            )
            return self._first_card(keys, T_ANN, pirate)  # rows 2-4 and 6
        informer = self._row_card("informer", T_ANN, pirate)  # row 7
        if informer is not None:
            return informer
        code = pirate.port
        oustable = action == "in_port" or (action == "retire" and table.ap.target in ("B", "D2"))
        if (
            oustable
            and code is not None
            and not DATA.ports[code].pirate_port
            and not table.ap.kc_action
        ):  # row 8
            there = [kc for kc in table.crown_kcs() if kc.area in DATA.ports[code].areas]
            if there:
                return crown_kc_option("kc_oust", there[0].id)
        if (
            action == "move"
            and not isinstance(table.ap.target, int)
            and pirate.port is None
            and self.budget_left() >= DOLDRUMS_LEFT
        ):  # row 9
            return self._first_card(("doldrums", "wear_and_tear"), T_ANN, pirate)
        return None

    def _moment_2(self, point: str, pirate: Pirate) -> Option | None:
        """Moment 2: after a successful Locate roll, after a failed Port Attack (T-MID), and
        the T-END of a successful Port Attack [blackbeard §R19.3]."""
        table = self.table
        action, target = table.ap.action, table.ap.target
        if point == T_END:
            if action == "attack" and pirate.sack_pending == target:  # row 4
                return self._row_card("debauchery_and_revelry", T_END, pirate)
            return None
        if action == "locate":
            merchant = table.merchants.get(target)
            if merchant is None or merchant.located_by != pirate.id:
                return None  # a failed roll: the Reaction only
        elif action != "attack":
            return None
        if self.antipirate.may_use_patrol(T_MID, pirate):  # rows 1 and 3
            return patrol_option(pirate.area)
        return self._row_card("warship_sighting", T_MID, pirate)  # rows 2 and 3

    def _first_card(self, keys: tuple[str, ...], point: str, pirate: Pirate) -> Option | None:
        for key in keys:
            option = self._row_card(key, point, pirate)
            if option is not None:
                return option
        return None

    def _crown_act(self, option: Option, point: str, pid: str, after: Step) -> None:
        """One Crown act, resolved in full by the multi-player act code with `CROWN` as its
        seat; every act but a KC Reaction spends one AP Action of the budget."""
        ap = self.table.ap
        act = option.payload["act"]
        if act != "react":
            ap.crown += 1
        ap.acts += 1
        self.flow.emit(
            "anti_pirate_act",
            {
                "seat": CROWN,
                "act": act,
                "point": point,
                "pirate": pid,
                "option": option.key,
                "crown": True,
                "budget_used": ap.crown,
            },
        )
        self.flow.push(after)
        self.antipirate.acts[act](option, CROWN, T_END if point == MOMENT_3 else point, pid)

    # ------------------------------------------------------------------ moment 3

    def moment3(self) -> Step:
        """The step of moment 3, after the Actions of the turn's Actions card."""
        return step(self._crown_moment3)

    def _crown_moment3(self) -> None:
        """Once per Player Turn, when the Actions of the turn's Actions card are over: P is
        the pirate of its last Action; skipped if he is gone or no Action was performed
        [blackbeard §R19.3]."""
        table = self.table
        pid, table.turn.card_actor = table.turn.card_actor, None
        pirate = table.pirates.get(pid) if pid is not None else None
        if (
            table.turn.phase == "over"
            or pirate is None
            or not table.still_active(pirate.id)
            or self.budget_left() <= 0
        ):
            return
        act = self._moment_3(pirate)
        if act is not None:
            self._crown_act(act, MOMENT_3, pirate.id, step(self._crown_after, pirate.id))

    def _moment_3(self, pirate: Pirate) -> Option | None:
        """Moment 3, rows 1-6: at most one act [blackbeard §R19.3]."""
        table = self.table
        code = pirate.port
        transit = pirate.port is None and pirate.area in DATA.transits
        if (
            code is not None
            and DATA.ports[code].pirate_port
            and not table.ap.kc_action
            and not table.ports[code].destroyed
        ):  # row 1
            there = [kc for kc in table.crown_kcs() if kc.area in DATA.ports[code].areas]
            if there:
                return crown_kc_option("kc_port", there[0].id, code)
        if pirate.ship.loyalty <= CONSPIRACY_LOYALTY:  # row 2
            option = self._row_card("mutiny_conspiracy", T_END, pirate)
            if option is not None:
                return option
        if not transit and DATA.pirates[pirate.id].duel <= AMBITION_DUEL:  # row 3
            option = self._row_card("piratical_ambition", T_END, pirate)
            if option is not None:
                return option
        if table.at_sea(pirate) and table.kc_room(CROWN):  # row 4
            option = self._first_card(("kc_surprise", "pirate_converts"), T_END, pirate)
            if option is not None:
                return option
            if pirate.notoriety >= max(KC_DEPLOY_NP, KC_DICE + 1) and table.kc_pool:
                return CROWN_DEPLOY
        if pirate.port is None and not pirate.ship.scurvy:  # row 5
            option = self._row_card("scurvy_outbreak", T_END, pirate)
            if option is not None:
                return option
        if pirate.ship.revelry is None and not transit and any(pirate.ship.holds):  # row 6
            return self._row_card("debauchery_and_revelry", T_END, pirate)
        return None

    def _crown_after(self, pid: str) -> None:
        """A crew brought to Loyalty 0 by a moment-3 act mutinies at once [blackbeard §14.11]."""
        pirate = self.table.pirates.get(pid)
        if pirate is not None:
            self.flow.push(*self.mutiny.due(pirate, "anti_pirate"))

    # ------------------------------------------------------------------ the Crown Phase

    def phase(self) -> Step:
        """The step of the Crown Phase, after each Player Turn."""
        return step(self._crown_phase)

    def _crown_phase(self) -> None:
        """After each Player Turn: the KC patrol, then the Crown draw [blackbeard §R19.2]."""
        table = self.table
        if table.turn.phase == "over" or self.ending.solitaire_spent():
            return
        table.turn.phase = "crown"
        self.flow.emit("crown_phase", {"turn": table.turn.number})
        self._crown_patrol()
        self.flow.push(*(step(self._crown_draw, index) for index in range(DATA.setup.crown_draws)))

    def _crown_patrol(self) -> None:
        """Each Crown KC neither in nor next to a sea area holding a pirate At Sea steps
        toward the nearest one (over sea-area edges; ties: his area's number, then his id);
        the step is to the neighbour on a shortest path with the lowest number
        [blackbeard §R19.2]."""
        table = self.table
        targets = [p for p in table.pirates.values() if p.owner != CROWN and table.at_sea(p)]
        for kc in table.crown_kcs():
            if kc.area not in DATA.areas or not targets:
                continue
            distance = self._sea_distances(kc.area)
            reachable = [p for p in targets if p.area in distance]
            if not reachable:
                continue
            target = min(reachable, key=lambda p: (distance[p.area], _area_number(p.area), p.id))
            if distance[target.area] <= 1:
                continue
            back = self._sea_distances(target.area)
            nearer = min(
                (
                    near
                    for near in self.antipirate.sea_neighbours(kc.area)
                    if back.get(near) == distance[target.area] - 1
                ),
                key=_area_number,
            )
            origin, kc.area = kc.area, nearer
            self.flow.emit(
                "kc_moved",
                {
                    "kc": kc.id,
                    "seat": CROWN,
                    "from": origin,
                    "to": nearer,
                    "patrol": True,
                    "toward": target.id,
                },
            )

    def _sea_distances(self, start: str) -> dict[str, int]:
        """Steps from `start` to every sea area reachable over sea-area edges only."""
        distance, queue = {start: 0}, deque([start])
        while queue:
            area = queue.popleft()
            for near in self.antipirate.sea_neighbours(area):
                if near not in distance:
                    distance[near] = distance[area] + 1
                    queue.append(near)
        return distance

    def _crown_draw(self, index: int) -> None:
        """One Event card: an MPI card resolved as if the player drew it, an AP card to the
        Threat Row (its oldest card discarded when full), any other to the discard pile
        [blackbeard §R19.2]."""
        table = self.table
        if table.turn.phase == "over":
            return
        card = table.draw_event()
        if card is None:
            return
        table.turn.draws += 1
        spec = table.deck_cards[card]
        self.flow.emit("crown_drew", {"card": card, "class": spec.cls})
        if spec.cls == "MPI":
            self.cards.must_play(card)
        elif spec.cls == "AP":
            self.threat_row_add(card)
        else:
            table.discard.append(card)

    def threat_row_add(self, card: int) -> None:
        table = self.table
        if len(table.threat_row) >= table.level.threat_row:
            old = table.threat_row.pop(0)
            table.discard.append(old)
            self.flow.emit("threat_row_discarded", {"card": old})
        table.threat_row.append(card)
        self.flow.emit("threat_row_added", {"card": card, "row": table.threat_row[:]})
