"""The anti-pirate Event cards [blackbeard §R4.5]: when each may be played on the Active
Pirate, and what it does. Playing one is a player's one AP Action of the Player Turn
(type D), and each title at most once per Player Turn across all players
[blackbeard §4.61, §4.65].

A mixin of `state.BlackbeardState`. `ap_cards` lists the cards a polled player may play
at a point; `_apcard_<key>` carries out the card whose data key is `key`. The timing words
are those of the card texts [blackbeard §R4.3]: "any time" is T-ANN, T-MID or T-END.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from admiralty.games.base import Option
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.actions import target_pirate
from admiralty.games.blackbeard.antipirate import (
    CROWN,
    INTERRUPT,
    NOTORIETY,
    T_ANN,
    T_END,
    T_MID,
    AntiPirate,
    ap_card_option,
)
from admiralty.games.blackbeard.choices import opt
from admiralty.games.blackbeard.pieces import INVOLUNTARY, Pirate
from admiralty.games.blackbeard.table import DATA
from admiralty.games.flow import step

ANY_TIME = frozenset({T_ANN, T_MID, T_END})
IN_TRANSIT_TOO = frozenset({"doldrums", "mutiny_conspiracy", "scurvy_outbreak", "storm_at_sea",
                            "wear_and_tear"})
"""Weather and crew cards, the only ones that reach a Transit Box [blackbeard §R4.3]."""
EX_PIRATE = DATA.card("pirate_converts").params["kc"]
ATTACK = opt("attack", "attack now", act="attack")
PATROL = opt("patrol", "leave it on Patrol", act="patrol")
KEEP_OLD = opt("keep_old", "keep the warship that was patrolling", act="keep_old")
KEEP_NEW = opt("keep_new", "keep the warship just sighted", act="keep_new")


class ApCards(AntiPirate):
    """The anti-pirate Event cards, for `BlackbeardState`."""

    if TYPE_CHECKING:
        def mutiny_breaks_out(self, pid: str, when: str) -> None: ...
        def kc_room(self, seat: int) -> bool: ...

        threat_row: list[int]

    def ap_cards(self, seat: int, point: str, pirate: Pirate) -> list[Option]:
        """The AP cards `seat` holds that he may play now: one of each title per Player
        Turn, each within its timing and target conditions [blackbeard §4.65, §R4.3]."""
        hand = self.seats[seat].events
        if not hand:
            return []
        out = []
        for card in sorted(set(hand)):
            spec = self.deck_cards[card]
            if spec.cls == "AP" and spec.key not in self.ap.titles \
                    and self._card_fits(spec.key, seat, point, pirate):
                out.append(ap_card_option(card))
        return out

    def _card_fits(self, key: str, seat: int, point: str, pirate: Pirate) -> bool:
        if point not in ANY_TIME:
            return False
        transit = pirate.port is None and pirate.area in DATA.transits
        if transit and key not in IN_TRANSIT_TOO:
            return False
        action = self.ap.action
        if key in ("doldrums", "wear_and_tear"):
            return point == T_ANN and action == "move" and pirate.port is None and (
                key == "wear_and_tear" or not isinstance(self.ap.target, int))
        if key == "merchant_fights_back":
            return point == T_ANN and action == "loot"
        if key == "informer":
            return point == T_ANN and self._informed(pirate)
        if key == "warship_sighting":
            return (not self.ap.warship and bool(self.warship_pool) and self.at_sea(pirate)
                    and (point == T_MID or (point == T_ANN and action in ("loot", "attack"))))
        if key == "debauchery_and_revelry":
            return all(each.ship.revelry is None for each in self.alliance(pirate))
        if key == "kc_surprise":
            return self.at_sea(pirate) and bool(self.kc_pool) and self.kc_room(seat)
        if key == "pirate_converts":
            return (self.at_sea(pirate) and self.kc_room(seat)
                    and EX_PIRATE not in self.kcs and EX_PIRATE not in self.kcs_killed)
        if key == "piratical_ambition" and seat == CROWN:  # the top of the Pirate deck
            return bool(self.pirate_deck)  # challenges [blackbeard §R19.4]
        if key == "piratical_ambition":
            return bool(self.seats[seat].pirate_cards) and (
                not self.options["piratical_ambition_requires_free_slot"]
                or len(self.pirates_of(seat)) < self.limits.map_limit)
        if key == "scurvy_outbreak":
            return pirate.port is None and not all(e.ship.scurvy for e in self.alliance(pirate))
        return key in ("mutiny_conspiracy", "storm_at_sea") and (
            key == "mutiny_conspiracy" or pirate.port is None)

    def _informed(self, pirate: Pirate) -> bool:
        """Informer: In-Port Activities, Recover or Retirement by bribe, at a national port
        not his Safe Haven nor of his Letter of Marque's nation [blackbeard §R4.5]."""
        code = pirate.port
        if code is None or not (self.ap.action in ("in_port", "recover")
                                or (self.ap.action == "retire" and self.ap.target == "D2")):
            return False
        port = DATA.ports[code]
        return (not port.pirate_port and self.ports[code].safe_haven != pirate.id
                and port.nation != pirate.ship.letter_of_marque)

    # ------------------------------------------------------------------ playing one

    def _act_card(self, option: Option, seat: int, point: str, pid: str) -> None:
        """The card goes face up to the discard pile and its Event is carried out
        [blackbeard §4.67]; the Crown's comes from its Threat Row, the oldest copy first
        [blackbeard §R19.2]."""
        card = option.payload["card"]
        key = self.card_key(card)
        (self.threat_row if seat == CROWN else self.seats[seat].events).remove(card)
        self.discard.append(card)
        self.ap.titles.append(key)
        self._emit("card_used", {"seat": seat, "card": card, "use": "anti_pirate"})
        getattr(self, "_apcard_" + key)(seat, point, pid)

    def _apcard_debauchery_and_revelry(self, seat: int, point: str, pid: str) -> None:
        """Involuntary D&R: at once at T-END, or at T-ANN of a Sack (which it cancels);
        otherwise when the Action is completed or cancelled [blackbeard §R4.5]."""
        pirate = self.pirates[pid]
        if point == T_END or (point == T_ANN and self.ap.action == "sack"):
            self.revelry_card(pirate)
            if point == T_ANN:
                self.cancel_action(pid, "debauchery")
            return
        self.ap.revelry.append(pid)
        self._emit("revelry_due", {"pirate": pid})

    def revelry_card(self, pirate: Pirate) -> None:
        """A D&R card's effect: allies In Port part and each reels; allies At Sea both
        [blackbeard §11.16, §R4.5]."""
        allies = self.alliance(pirate)
        if len(allies) > 1 and pirate.port is not None:
            self.dissolve(pirate, "debauchery")
        for each in allies:
            self.revelry(each, INVOLUNTARY)

    def _apcard_doldrums(self, seat: int, point: str, pid: str) -> None:
        """The Move is lost, and a half Move with it [blackbeard §R4.5]."""
        for each in self.alliance(self.pirates[pid]):
            each.half_move = None
        self.cancel_action(pid, "doldrums")

    def _apcard_informer(self, seat: int, point: str, pid: str) -> None:
        """He is put At Sea (no NP) and the Action is lost [blackbeard §R4.5]."""
        for each in self.alliance(self.pirates[pid]):
            code = each.port
            self.place_at_sea(each)
            self._emit("ousted", {"pirate": each.id, "port": code, "area": each.area})
        if self.from_bermuda:
            self.flow.push(step("_bermuda"))
        self.cancel_action(pid, "informer")

    def _apcard_kc_surprise(self, seat: int, point: str, pid: str) -> None:
        """A KC drawn blind into his sea area, no roll [blackbeard §R4.5]."""
        kc = self.draw_from(self.kc_pool, *self._where("ap", self.ap.acts, "kc"))
        assert kc is not None
        self.place_kc(kc, seat, self.pirates[pid].area, "kc_surprise")
        self.ap.surprise = kc

    def _apcard_pirate_converts(self, seat: int, point: str, pid: str) -> None:
        """The ex-pirate KC into his sea area [blackbeard §10.15, §R4.5]."""
        self.place_kc(EX_PIRATE, seat, self.pirates[pid].area, "pirate_converts")

    def _apcard_merchant_fights_back(self, seat: int, point: str, pid: str) -> None:
        """1d6 + Cargo Value + 5 against his 1d6 + Combat + Ability [blackbeard §R4.5]."""
        merchant = self.merchants[self.ap.target]
        value = DATA.merchants[merchant.id].cargo_value
        params = DATA.card("merchant_fights_back").params
        self.rolled["foe"] = self._ap_roll(1, "merchant") + value + params["merchant_bonus"]
        self._roll(pid, "battle", 1, True, step("_fought_merchant", pid),
                   name=("ap", self.ap.acts))

    def _fought_merchant(self, pid: str) -> None:
        score, against = self._battle_score(pid), self.rolled["foe"]
        self._emit("merchant_fought", {"pirate": pid, "score": score, "against": against,
                                       "pirate_won": score > against})
        if score > against:
            return
        self.cancel_action(pid, "merchant_fights_back")  # the merchant escapes with it
        hits = DATA.card("merchant_fights_back").params["combat_hits"]
        self._split_hits(pid, "combat", hits, "merchant_fights_back")

    def _apcard_mutiny_conspiracy(self, seat: int, point: str, pid: str) -> None:
        """2d6 above Crew Loyalty: a mutiny, for each ally apart; any dissolves the
        alliance [blackbeard §14.11, §11.16]."""
        allies = self.alliance(self.pirates[pid])
        broke = []
        for each in allies:
            dice = self.roll(2, *self._where("ap", self.ap.acts, "conspiracy", each.id))
            mutiny = mech.mutiny_conspiracy(DATA, dice, each.ship.loyalty)
            self._emit("conspiracy_rolled", {"pirate": each.id, "roll": sum(dice),
                                             "loyalty": each.ship.loyalty, "mutiny": mutiny})
            if mutiny:
                broke.append(each.id)
        if broke and len(allies) > 1:
            self.dissolve(allies[0], "mutiny")
        self.flow.push(*(step("mutiny_breaks_out", each, "conspiracy") for each in broke))

    def _apcard_scurvy_outbreak(self, seat: int, point: str, pid: str) -> None:
        """A Scurvy marker: Crew Loyalty -1 now and at each of his owner's turns
        [blackbeard §R4.5]."""
        for each in self.alliance(self.pirates[pid]):
            if not each.ship.scurvy:
                each.ship.scurvy = True
                self._emit("scurvy", {"pirate": each.id})
                self.loyalty_row(each, "scurvy")

    def _apcard_storm_at_sea(self, seat: int, point: str, pid: str) -> None:
        """1d6 on the Storm Effects Table (+1 in a Transit Box): Speed hits or sunk; a
        merchant he located escapes, and a Loot at its T-ANN is lost [blackbeard §R4.5]."""
        pirate = self.pirates[pid]
        allies = self.alliance(pirate)
        roll = self._ap_roll(1, "storm")
        if pirate.area in DATA.transits:
            roll += DATA.charts.storm_transit_modifier
        row = DATA.charts.storm_effect(roll)
        self._emit("storm", {"pirate": pid, "roll": roll, "speed_hits": row.speed_hits,
                             "sinks": row.sinks, "card": "storm_at_sea"})
        ids = {each.id for each in allies}
        for merchant in list(self.merchants.values()):
            if merchant.located_by in ids:
                self.remove_merchant(merchant.port)
                self._emit("merchant_escaped", {"port": merchant.port})
        if point == T_ANN and self.ap.action == "loot":
            self.cancel_action(pid, "storm_at_sea")
        for each in allies:
            if row.sinks:
                self._sunk(each, "storm_at_sea")
            else:
                self.hit(each, "speed", row.speed_hits, "storm_at_sea")

    def _apcard_wear_and_tear(self, seat: int, point: str, pid: str) -> None:
        """1 Speed hit, 2 in a Transit Box; a ship pushed below Speed 0 makes this Move
        the first of two [blackbeard §R4.5, §7.12]."""
        pirate = self.pirates[pid]
        hits = 2 if pirate.area in DATA.transits else 1
        for each in self.alliance(pirate):
            self.hit(each, "speed", hits, "wear_and_tear")

    # ------------------------------------------------------------------ Warship Sighting (6.42)

    def _apcard_warship_sighting(self, seat: int, point: str, pid: str) -> None:
        """A warship drawn blind, face up in his sea area; it attacks at once or stays on
        Patrol; beside one already patrolling, the player keeps one (W12)
        [blackbeard §6.42, §R4.5]."""
        self.ap.warship = True
        area = self.pirates[pid].area
        warship = self.draw_from(self.warship_pool, *self._where("ap", self.ap.acts, "warship"))
        assert warship is not None
        old = self.patrols.get(area)
        if old is None:
            self.patrols[area] = warship
        else:
            self.ap.sighted = warship
        self._emit("warship_sighted", {"seat": seat, "warship": warship, "area": area})
        self.flow.push(step("_sighting_keep", seat, area, old))
        if seat == CROWN:  # the Crown's warships always attack [blackbeard §R19.4]
            self._sighting_attack(ATTACK, seat, warship, pid)
            return
        self.flow.ask(seat, INTERRUPT, "sighting_attack",
                      f"{DATA.warships[warship].name} is sighted: attack now, or leave it on "
                      "Patrol?", (ATTACK, PATROL), step("_sighting_attack", seat, warship, pid))

    def _sighting_attack(self, option: Option, seat: int, warship: str, pid: str) -> None:
        if option is ATTACK:
            self._ask_evade("warship", seat, warship, pid, 0)

    def _sighting_keep(self, seat: int, area: str, old: str | None) -> None:
        new = self.ap.sighted
        if new is None:
            return
        if self.patrols.get(area) != old or old is None:  # the old one is gone
            self.patrols[area], self.ap.sighted = new, None
            return
        if seat == CROWN:  # the higher Combat stays, the new one on a tie [blackbeard §R19.4]
            newer = DATA.warships[new].combat >= DATA.warships[old].combat
            self._sighting_kept(KEEP_NEW if newer else KEEP_OLD, area, old, new)
            return
        self.flow.ask(seat, INTERRUPT, "sighting_keep", "Which warship stays on Patrol?",
                      (KEEP_OLD, KEEP_NEW), step("_sighting_kept", area, old, new))

    def _sighting_kept(self, option: Option, area: str, old: str, new: str) -> None:
        kept, gone = (new, old) if option is KEEP_NEW else (old, new)
        self.patrols[area], self.ap.sighted = kept, None
        self.warship_pool.append(gone)
        self.warship_pool.sort()
        self._emit("warship_left", {"warship": gone})

    # ------------------------------------------------------------------ Piratical Ambition

    def _apcard_piratical_ambition(self, seat: int, point: str, pid: str) -> None:
        """One of his undeployed pirates duels the Active Pirate for the ship (W13)
        [blackbeard §14.11, §15.11, §R4.5]; the Crown's is the top card of the Pirate deck
        [blackbeard §R19.4]."""
        if seat == CROWN:
            self._challenged(target_pirate(self.pirate_deck[-1]), seat, pid)
            return
        self.flow.ask(seat, INTERRUPT, "challenger", "Which of your pirates challenges?",
                      tuple(target_pirate(card) for card in self.seats[seat].pirate_cards),
                      step("_challenged", seat, pid))

    def _challenged(self, option: Option, seat: int, pid: str) -> None:
        card = option.payload["target"]
        (self.pirate_deck if seat == CROWN else self.seats[seat].pirate_cards).remove(card)
        defender = self.pirates[pid]
        self.challenger = Pirate(card, seat, defender.area, defender.ship)
        self._emit("challenger", {"seat": seat, "pirate": card, "against": pid})
        self._ambition_duel(pid, 0)

    def _ambition_duel(self, pid: str, bout: int) -> None:
        """Each rolls his Dueling in dice, the Pirate Player's pirate first at the roll
        point; a tie is fought again [blackbeard §15.11, §R4.5]."""
        challenger = self.challenger
        assert challenger is not None
        ratings = self.rating(self.pirates[pid], "duel"), DATA.pirates[challenger.id].duel
        name = ("ap", self.ap.acts, bout)
        self.rolled["duel_defender"] = sum(self.roll(ratings[0], *self._where("duel", *name, 0)))
        self.rolled["duel_challenger"] = sum(self.roll(ratings[1],
                                                       *self._where("duel", *name, 1)))
        self.flow.push(step("_ambition_result", pid, bout, sum(ratings)))
        rolls = [(pid, "duel_defender", ratings[0], True, name),
                 (challenger.id, "duel_challenger", ratings[1], True, name)]
        self.bonus["duel_challenger"] = 0
        self._roll_points(rolls if challenger.owner != CROWN else rolls[:1])

    def _ambition_result(self, pid: str, bout: int, ratings: int) -> None:
        challenger = self.challenger
        assert challenger is not None
        defence = self.rolled["duel_defender"] + self.bonus["duel_defender"]
        attack = self.rolled["duel_challenger"] + self.bonus["duel_challenger"]
        self._emit("duel", {"pirate": challenger.id, "victim": pid, "bout": bout,
                            "attacker": attack, "defender": defence})
        if attack == defence:
            self._ambition_duel(pid, bout + 1)
            return
        self.challenger = None
        notoriety = NOTORIETY["duel_won"].factor * ratings
        defender = self.pirates[pid]
        if defence > attack:
            self.dead.append(challenger.id)
            self._emit("pirate_died", {"pirate": challenger.id, "seat": challenger.owner,
                                       "cause": "duel"})
            self.notoriety(defender, notoriety, "duel_won")
            self.loyalty_row(defender, "ambition_won")
            return
        if challenger.owner == CROWN:
            self._crown_challenger_won(defender, challenger)
            return
        self._take_command(defender, challenger, notoriety)

    def _crown_challenger_won(self, old: Pirate, new: Pirate) -> None:
        """The Crown's challenger won: the pirate is dead (case B), his ship and all
        aboard leave play, the challenger's card goes out of the game [blackbeard §R19.4]."""
        self.eliminate(old, "piratical_ambition")
        self.dead.append(new.id)
        self._emit("challenger_out", {"pirate": new.id})

    def _take_command(self, old: Pirate, new: Pirate, notoriety: int) -> None:
        """The challenger takes the ship for his player; the old captain is dead (case
        B), his own markers gone [blackbeard §15.11, §15.12, §R4.5]."""
        ship = old.ship
        old.ship = self.new_ship(ship.type)  # the dead captain leaves with an empty ship
        self.eliminate(old, "piratical_ambition")
        captain = Pirate(new.id, new.owner, old.area, ship, port=old.port,
                         cunning_used=new.cunning_used, deployed_turn=self.turn)
        self.pirates[new.id] = captain
        self._emit("new_captain", {"pirate": new.id, "replaces": old.id, "seat": new.owner})
        self.notoriety(captain, notoriety, "duel_won")
        self.loyalty_row(captain, "ambition_challenger_won")
