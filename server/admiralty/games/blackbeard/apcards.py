"""The anti-pirate Event cards [blackbeard §R4.5]: when each may be played on the Active
Pirate, and what it does. Playing one is a player's one AP Action of the Player Turn
(type D), and each title at most once per Player Turn across all players
[blackbeard §4.61, §4.65].

`ap_cards` lists the cards a polled player may play at a point; `play` carries out the
card, by its data key. The timing words are those of the card texts [blackbeard §R4.3]:
"any time" is T-ANN, T-MID or T-END.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.bermuda import Bermuda
from admiralty.games.blackbeard.choices import opt, target_pirate
from admiralty.games.blackbeard.fights import Fights
from admiralty.games.blackbeard.mutiny import Mutiny
from admiralty.games.blackbeard.pieces import T_ANN, T_END, T_MID, Pirate
from admiralty.games.blackbeard.rolls import RollPoints
from admiralty.games.blackbeard.table import CROWN, DATA, NOTORIETY, Table
from admiralty.games.flow import Flow, step

INTERRUPT = Window.INTERRUPT
ANY_TIME = frozenset({T_ANN, T_MID, T_END})
IN_TRANSIT_TOO = frozenset(
    {"doldrums", "mutiny_conspiracy", "scurvy_outbreak", "storm_at_sea", "wear_and_tear"}
)
"""Weather and crew cards, the only ones that reach a Transit Box [blackbeard §R4.3]."""
EX_PIRATE = DATA.card("pirate_converts").params["kc"]
ATTACK = opt("attack", "attack now", act="attack")
PATROL = opt("patrol", "leave it on Patrol", act="patrol")
KEEP_OLD = opt("keep_old", "keep the warship that was patrolling", act="keep_old")
KEEP_NEW = opt("keep_new", "keep the warship just sighted", act="keep_new")

Effect = Callable[[int, str, str], None]
"""A card's Event: ``effect(seat, point, pirate)``."""


@cache
def ap_card_option(card: int) -> Option:
    return Option(f"card:{card}", f"Play {DATA.events[card].title}", {"act": "card", "card": card})


class ApCards:
    """The anti-pirate Event cards."""

    flow: Flow

    def __init__(
        self, table: Table, rolls: RollPoints, fights: Fights, mutiny: Mutiny, bermuda: Bermuda
    ) -> None:
        self.table = table
        self.rolls = rolls
        self.fights = fights
        self.mutiny = mutiny
        self.bermuda = bermuda
        self.effects: dict[str, Effect] = {
            "debauchery_and_revelry": self._apcard_debauchery_and_revelry,
            "doldrums": self._apcard_doldrums,
            "informer": self._apcard_informer,
            "kc_surprise": self._apcard_kc_surprise,
            "pirate_converts": self._apcard_pirate_converts,
            "merchant_fights_back": self._apcard_merchant_fights_back,
            "mutiny_conspiracy": self._apcard_mutiny_conspiracy,
            "scurvy_outbreak": self._apcard_scurvy_outbreak,
            "storm_at_sea": self._apcard_storm_at_sea,
            "wear_and_tear": self._apcard_wear_and_tear,
            "warship_sighting": self._apcard_warship_sighting,
            "piratical_ambition": self._apcard_piratical_ambition,
        }

    def ap_cards(self, seat: int, point: str, pirate: Pirate) -> list[Option]:
        """The AP cards `seat` holds that he may play now: one of each title per Player
        Turn, each within its timing and target conditions [blackbeard §4.65, §R4.3]."""
        hand = self.table.seats[seat].events
        if not hand:
            return []
        out = []
        for card in sorted(set(hand)):
            spec = self.table.deck_cards[card]
            if (
                spec.cls == "AP"
                and spec.key not in self.table.ap.titles
                and self.card_fits(spec.key, seat, point, pirate)
            ):
                out.append(ap_card_option(card))
        return out

    def card_fits(self, key: str, seat: int, point: str, pirate: Pirate) -> bool:
        """Whether the card `key` may be played by `seat` at `point` on `pirate`."""
        if point not in ANY_TIME:
            return False
        table = self.table
        transit = pirate.port is None and pirate.area in DATA.transits
        if transit and key not in IN_TRANSIT_TOO:
            return False
        action = table.ap.action
        if key in ("doldrums", "wear_and_tear"):
            return (
                point == T_ANN
                and action == "move"
                and pirate.port is None
                and (key == "wear_and_tear" or not isinstance(table.ap.target, int))
            )
        if key == "merchant_fights_back":
            return point == T_ANN and action == "loot"
        if key == "informer":
            return point == T_ANN and self._informed(pirate)
        if key == "warship_sighting":
            return (
                not table.ap.warship
                and bool(table.warship_pool)
                and table.at_sea(pirate)
                and (point == T_MID or (point == T_ANN and action in ("loot", "attack")))
            )
        if key == "debauchery_and_revelry":
            return all(each.ship.revelry is None for each in table.alliance(pirate))
        if key == "kc_surprise":
            return table.at_sea(pirate) and bool(table.kc_pool) and table.kc_room(seat)
        if key == "pirate_converts":
            return (
                table.at_sea(pirate)
                and table.kc_room(seat)
                and EX_PIRATE not in table.kcs
                and EX_PIRATE not in table.kcs_killed
            )
        if key == "piratical_ambition" and seat == CROWN:  # the top of the Pirate deck
            return bool(table.pirate_deck)  # challenges [blackbeard §R19.4]
        if key == "piratical_ambition":
            return bool(table.seats[seat].pirate_cards) and (
                not table.options["piratical_ambition_requires_free_slot"]
                or len(table.pirates_of(seat)) < table.limits.map_limit
            )
        if key == "scurvy_outbreak":
            return pirate.port is None and not all(e.ship.scurvy for e in table.alliance(pirate))
        return key in ("mutiny_conspiracy", "storm_at_sea") and (
            key == "mutiny_conspiracy" or pirate.port is None
        )

    def _informed(self, pirate: Pirate) -> bool:
        """Informer: In-Port Activities, Recover or Retirement by bribe, at a national port
        not his Safe Haven nor of his Letter of Marque's nation [blackbeard §R4.5]."""
        code, ap = pirate.port, self.table.ap
        if code is None or not (
            ap.action in ("in_port", "recover") or (ap.action == "retire" and ap.target == "D2")
        ):
            return False
        port = DATA.ports[code]
        return (
            not port.pirate_port
            and self.table.ports[code].safe_haven != pirate.id
            and port.nation != pirate.ship.letter_of_marque
        )

    # ------------------------------------------------------------------ playing one

    def play(self, option: Option, seat: int, point: str, pid: str) -> None:
        """The card goes face up to the discard pile and its Event is carried out
        [blackbeard §4.67]; the Crown's comes from its Threat Row, the oldest copy first
        [blackbeard §R19.2]."""
        table = self.table
        card = option.payload["card"]
        key = table.card_key(card)
        (table.threat_row if seat == CROWN else table.seats[seat].events).remove(card)
        table.discard.append(card)
        table.ap.titles.append(key)
        self.flow.emit("card_used", {"seat": seat, "card": card, "use": "anti_pirate"})
        self.effects[key](seat, point, pid)

    def _apcard_debauchery_and_revelry(self, seat: int, point: str, pid: str) -> None:
        """Involuntary D&R: at once at T-END, or at T-ANN of a Sack (which it cancels);
        otherwise when the Action is completed or cancelled [blackbeard §R4.5]."""
        table = self.table
        pirate = table.pirates[pid]
        if point == T_END or (point == T_ANN and table.ap.action == "sack"):
            table.revelry_card(pirate)
            if point == T_ANN:
                table.cancel_action(pid, "debauchery")
            return
        table.ap.revelry.append(pid)
        self.flow.emit("revelry_due", {"pirate": pid})

    def _apcard_doldrums(self, seat: int, point: str, pid: str) -> None:
        """The Move is lost, and a half Move with it [blackbeard §R4.5]."""
        for each in self.table.alliance(self.table.pirates[pid]):
            each.half_move = None
        self.table.cancel_action(pid, "doldrums")

    def _apcard_informer(self, seat: int, point: str, pid: str) -> None:
        """He is put At Sea (no NP) and the Action is lost [blackbeard §R4.5]."""
        table = self.table
        for each in table.alliance(table.pirates[pid]):
            code = each.port
            table.place_at_sea(each)
            self.flow.emit("ousted", {"pirate": each.id, "port": code, "area": each.area})
        self.bermuda.follow()
        table.cancel_action(pid, "informer")

    def _apcard_kc_surprise(self, seat: int, point: str, pid: str) -> None:
        """A KC drawn blind into his sea area, no roll [blackbeard §R4.5]."""
        table = self.table
        kc = table.draw_from(table.kc_pool, *table.where("ap", table.ap.acts, "kc"))
        assert kc is not None
        table.place_kc(kc, seat, table.pirates[pid].area, "kc_surprise")
        table.ap.surprise = kc

    def _apcard_pirate_converts(self, seat: int, point: str, pid: str) -> None:
        """The ex-pirate KC into his sea area [blackbeard §10.15, §R4.5]."""
        self.table.place_kc(EX_PIRATE, seat, self.table.pirates[pid].area, "pirate_converts")

    def _apcard_merchant_fights_back(self, seat: int, point: str, pid: str) -> None:
        """1d6 + Cargo Value + 5 against his 1d6 + Combat + Ability [blackbeard §R4.5]."""
        table = self.table
        merchant = table.merchants[table.ap.target]
        value = DATA.merchants[merchant.id].cargo_value
        params = DATA.card("merchant_fights_back").params
        table.rolled["foe"] = table.ap_roll(1, "merchant") + value + params["merchant_bonus"]
        self.rolls.roll(
            pid, "battle", 1, True, step(self._fought_merchant, pid), name=("ap", table.ap.acts)
        )

    def _fought_merchant(self, pid: str) -> None:
        score, against = self.fights.battle_score(pid), self.table.rolled["foe"]
        self.flow.emit(
            "merchant_fought",
            {"pirate": pid, "score": score, "against": against, "pirate_won": score > against},
        )
        if score > against:
            return
        self.table.cancel_action(pid, "merchant_fights_back")  # the merchant escapes with it
        hits = DATA.card("merchant_fights_back").params["combat_hits"]
        self.fights.split_hits(pid, "combat", hits, "merchant_fights_back")

    def _apcard_mutiny_conspiracy(self, seat: int, point: str, pid: str) -> None:
        """2d6 above Crew Loyalty: a mutiny, for each ally apart; any dissolves the
        alliance [blackbeard §14.11, §11.16]."""
        table = self.table
        allies = table.alliance(table.pirates[pid])
        broke = []
        for each in allies:
            dice = table.roll(2, *table.where("ap", table.ap.acts, "conspiracy", each.id))
            mutiny = mech.mutiny_conspiracy(DATA, dice, each.ship.loyalty)
            self.flow.emit(
                "conspiracy_rolled",
                {
                    "pirate": each.id,
                    "roll": sum(dice),
                    "loyalty": each.ship.loyalty,
                    "mutiny": mutiny,
                },
            )
            if mutiny:
                broke.append(each.id)
        if broke and len(allies) > 1:
            table.dissolve(allies[0], "mutiny")
        self.flow.push(*(step(self.mutiny.mutiny_breaks_out, each, "conspiracy") for each in broke))

    def _apcard_scurvy_outbreak(self, seat: int, point: str, pid: str) -> None:
        """A Scurvy marker: Crew Loyalty -1 now and at each of his owner's turns
        [blackbeard §R4.5]."""
        for each in self.table.alliance(self.table.pirates[pid]):
            if not each.ship.scurvy:
                each.ship.scurvy = True
                self.flow.emit("scurvy", {"pirate": each.id})
                self.table.loyalty_row(each, "scurvy")

    def _apcard_storm_at_sea(self, seat: int, point: str, pid: str) -> None:
        """1d6 on the Storm Effects Table (+1 in a Transit Box): Speed hits or sunk; a
        merchant he located escapes, and a Loot at its T-ANN is lost [blackbeard §R4.5]."""
        table = self.table
        pirate = table.pirates[pid]
        allies = table.alliance(pirate)
        roll = table.ap_roll(1, "storm")
        if pirate.area in DATA.transits:
            roll += DATA.charts.storm_transit_modifier
        row = DATA.charts.storm_effect(roll)
        self.flow.emit(
            "storm",
            {
                "pirate": pid,
                "roll": roll,
                "speed_hits": row.speed_hits,
                "sinks": row.sinks,
                "card": "storm_at_sea",
            },
        )
        ids = {each.id for each in allies}
        for merchant in list(table.merchants.values()):
            if merchant.located_by in ids:
                table.remove_merchant(merchant.port)
                self.flow.emit("merchant_escaped", {"port": merchant.port})
        if point == T_ANN and table.ap.action == "loot":
            table.cancel_action(pid, "storm_at_sea")
        for each in allies:
            if row.sinks:
                table.sink(each, "storm_at_sea")
            else:
                table.hit(each, "speed", row.speed_hits, "storm_at_sea")

    def _apcard_wear_and_tear(self, seat: int, point: str, pid: str) -> None:
        """1 Speed hit, 2 in a Transit Box; a ship pushed below Speed 0 makes this Move
        the first of two [blackbeard §R4.5, §7.12]."""
        pirate = self.table.pirates[pid]
        hits = 2 if pirate.area in DATA.transits else 1
        for each in self.table.alliance(pirate):
            self.table.hit(each, "speed", hits, "wear_and_tear")

    # ------------------------------------------------------------------ Warship Sighting (6.42)

    def _apcard_warship_sighting(self, seat: int, point: str, pid: str) -> None:
        """A warship drawn blind, face up in his sea area; it attacks at once or stays on
        Patrol; beside one already patrolling, the player keeps one (W12)
        [blackbeard §6.42, §R4.5]."""
        table = self.table
        table.ap.warship = True
        area = table.pirates[pid].area
        warship = table.draw_from(table.warship_pool, *table.where("ap", table.ap.acts, "warship"))
        assert warship is not None
        old = table.patrols.get(area)
        if old is None:
            table.patrols[area] = warship
        else:
            table.ap.sighted = warship
        self.flow.emit("warship_sighted", {"seat": seat, "warship": warship, "area": area})
        self.flow.push(step(self._sighting_keep, seat, area, old))
        if seat == CROWN:  # the Crown's warships always attack [blackbeard §R19.4]
            self._sighting_attack(ATTACK, seat, warship, pid)
            return
        self.flow.ask(
            seat,
            INTERRUPT,
            "sighting_attack",
            f"{DATA.warships[warship].name} is sighted: attack now, or leave it on Patrol?",
            (ATTACK, PATROL),
            step(self._sighting_attack, seat, warship, pid),
        )

    def _sighting_attack(self, option: Option, seat: int, warship: str, pid: str) -> None:
        if option is ATTACK:
            self.fights.ask_evade("warship", seat, warship, pid, 0)

    def _sighting_keep(self, seat: int, area: str, old: str | None) -> None:
        table = self.table
        new = table.ap.sighted
        if new is None:
            return
        if table.patrols.get(area) != old or old is None:  # the old one is gone
            table.patrols[area], table.ap.sighted = new, None
            return
        if seat == CROWN:  # the higher Combat stays, the new one on a tie [blackbeard §R19.4]
            newer = DATA.warships[new].combat >= DATA.warships[old].combat
            self._sighting_kept(KEEP_NEW if newer else KEEP_OLD, area, old, new)
            return
        self.flow.ask(
            seat,
            INTERRUPT,
            "sighting_keep",
            "Which warship stays on Patrol?",
            (KEEP_OLD, KEEP_NEW),
            step(self._sighting_kept, area, old, new),
        )

    def _sighting_kept(self, option: Option, area: str, old: str, new: str) -> None:
        table = self.table
        kept, gone = (new, old) if option is KEEP_NEW else (old, new)
        table.patrols[area], table.ap.sighted = kept, None
        table.warship_pool.append(gone)
        table.warship_pool.sort()
        self.flow.emit("warship_left", {"warship": gone})

    # ------------------------------------------------------------------ Piratical Ambition

    def _apcard_piratical_ambition(self, seat: int, point: str, pid: str) -> None:
        """One of his undeployed pirates duels the Active Pirate for the ship (W13)
        [blackbeard §14.11, §15.11, §R4.5]; the Crown's is the top card of the Pirate deck
        [blackbeard §R19.4]."""
        if seat == CROWN:
            self._challenged(target_pirate(self.table.pirate_deck[-1]), seat, pid)
            return
        self.flow.ask(
            seat,
            INTERRUPT,
            "challenger",
            "Which of your pirates challenges?",
            tuple(target_pirate(card) for card in self.table.seats[seat].pirate_cards),
            step(self._challenged, seat, pid),
        )

    def _challenged(self, option: Option, seat: int, pid: str) -> None:
        table = self.table
        card = option.payload["target"]
        (table.pirate_deck if seat == CROWN else table.seats[seat].pirate_cards).remove(card)
        defender = table.pirates[pid]
        table.challenger = Pirate(card, seat, defender.area, defender.ship)
        self.flow.emit("challenger", {"seat": seat, "pirate": card, "against": pid})
        self._ambition_duel(pid, 0)

    def _ambition_duel(self, pid: str, bout: int) -> None:
        """Each rolls his Dueling in dice, the Pirate Player's pirate first at the roll
        point; a tie is fought again [blackbeard §15.11, §R4.5]."""
        table = self.table
        challenger = table.challenger
        assert challenger is not None
        ratings = table.rating(table.pirates[pid], "duel"), DATA.pirates[challenger.id].duel
        name = ("ap", table.ap.acts, bout)
        table.rolled["duel_defender"] = sum(table.roll(ratings[0], *table.where("duel", *name, 0)))
        table.rolled["duel_challenger"] = sum(
            table.roll(ratings[1], *table.where("duel", *name, 1))
        )
        self.flow.push(step(self._ambition_result, pid, bout, sum(ratings)))
        rolls = [
            (pid, "duel_defender", ratings[0], True, name),
            (challenger.id, "duel_challenger", ratings[1], True, name),
        ]
        table.bonus["duel_challenger"] = 0
        self.rolls.points(rolls if challenger.owner != CROWN else rolls[:1])

    def _ambition_result(self, pid: str, bout: int, ratings: int) -> None:
        table = self.table
        challenger = table.challenger
        assert challenger is not None
        defence = table.rolled["duel_defender"] + table.bonus["duel_defender"]
        attack = table.rolled["duel_challenger"] + table.bonus["duel_challenger"]
        self.flow.emit(
            "duel",
            {
                "pirate": challenger.id,
                "victim": pid,
                "bout": bout,
                "attacker": attack,
                "defender": defence,
            },
        )
        if attack == defence:
            self._ambition_duel(pid, bout + 1)
            return
        table.challenger = None
        notoriety = NOTORIETY["duel_won"].factor * ratings
        defender = table.pirates[pid]
        if defence > attack:
            table.dead.append(challenger.id)
            self.flow.emit(
                "pirate_died", {"pirate": challenger.id, "seat": challenger.owner, "cause": "duel"}
            )
            table.notoriety(defender, notoriety, "duel_won")
            table.loyalty_row(defender, "ambition_won")
            return
        if challenger.owner == CROWN:
            self._crown_challenger_won(defender, challenger)
            return
        self._take_command(defender, challenger, notoriety)

    def _crown_challenger_won(self, old: Pirate, new: Pirate) -> None:
        """The Crown's challenger won: the pirate is dead (case B), his ship and all
        aboard leave play, the challenger's card goes out of the game [blackbeard §R19.4]."""
        self.table.eliminate(old, "piratical_ambition")
        self.table.dead.append(new.id)
        self.flow.emit("challenger_out", {"pirate": new.id})

    def _take_command(self, old: Pirate, new: Pirate, notoriety: int) -> None:
        """The challenger takes the ship for his player; the old captain is dead (case
        B), his own markers gone [blackbeard §15.11, §15.12, §R4.5]."""
        table = self.table
        ship = old.ship
        old.ship = table.new_ship(ship.type)  # the dead captain leaves with an empty ship
        table.eliminate(old, "piratical_ambition")
        captain = Pirate(
            new.id,
            new.owner,
            old.area,
            ship,
            port=old.port,
            cunning_used=new.cunning_used,
            deployed_turn=table.turn.number,
        )
        table.pirates[new.id] = captain
        self.flow.emit("new_captain", {"pirate": new.id, "replaces": old.id, "seat": new.owner})
        table.notoriety(captain, notoriety, "duel_won")
        table.loyalty_row(captain, "ambition_challenger_won")
