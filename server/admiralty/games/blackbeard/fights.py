"""The fights the anti-pirate side starts [blackbeard §6.45, §6.46, §10.33, §10.35]: a
warship or a King's Commissioner attacks, the Pirate Player evades or fights (or, with a
Letter of Marque, surrenders to a KC), and the battle's hits, NP and VP; and the hits an
alliance takes, split between its ships [blackbeard §11.14].
"""

from __future__ import annotations

from typing import Any

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.choices import opt, target_pirate
from admiralty.games.blackbeard.pieces import Pirate, Ship
from admiralty.games.blackbeard.rolls import RollPoints
from admiralty.games.blackbeard.table import CROWN, DATA, FIG, NOTORIETY, Table
from admiralty.games.flow import Flow, step

TURN = Window.TURN
FIGHT_FIGURES = FIG["fight"]
EVADE, FIGHT = opt("evade", "evade", act="evade"), opt("fight", "fight", act="fight")
SURRENDER = opt("surrender", "surrender with the Letter of Marque and retire", act="surrender")


class Fights:
    """Evasion, battle and surrender, and the hits of an alliance."""

    flow: Flow

    def __init__(self, table: Table, rolls: RollPoints) -> None:
        self.table = table
        self.rolls = rolls

    # ------------------------------------------------------------------ evade or fight

    def ask_evade(self, foe: str, seat: int, counter: str, pid: str, modifier: int) -> None:
        """`counter` (a KC or a warship of `seat`, `foe` saying which) attacks: the Pirate
        Player decides at once, evade or fight [blackbeard §6.45, §10.33]."""
        active = self.table.turn.active
        assert active is not None
        name = DATA.kcs[counter].name if foe == "kc" else DATA.warships[counter].name
        self.flow.ask(
            active,
            TURN,
            f"{foe}_attack",
            f"{name} attacks {DATA.pirates[pid].name}: evade or fight?",
            (EVADE, FIGHT),
            step(self._evade_or_fight, foe, seat, counter, pid, modifier),
        )

    def _evade_or_fight(
        self, option: Option, foe: str, seat: int, counter: str, pid: str, modifier: int
    ) -> None:
        if option is FIGHT:
            self._battle(foe, seat, counter, pid)
            return
        table = self.table
        speed = DATA.kcs[counter].speed if foe == "kc" else DATA.warships[counter].speed
        table.rolled["foe"] = table.ap_roll(1, foe, "evasion") + speed + modifier
        self.rolls.roll(
            pid,
            "evade",
            1,
            True,
            step(self._evaded, foe, seat, counter, pid),
            name=("ap", table.ap.acts),
        )

    def _evaded(self, foe: str, seat: int, counter: str, pid: str) -> None:
        """Pirate at least the other: he escapes and his Action is lost (not a Move, against
        a KC); below: a warship fights, a KC has intercepted him [blackbeard §6.45, §10.33]."""
        table = self.table
        pirate = table.pirates[pid]
        ship, _ = self.fighter(pirate)
        score = (
            mech.evasion_score(
                DATA, table.rolled["evade"], ship, heavy_guns=table.options["heavy_guns"]
            )
            + table.bonus["evade"]
        )
        escaped = score >= table.rolled["foe"]
        self.flow.emit(
            "evasion",
            {
                "pirate": pid,
                "foe": counter,
                "score": score,
                "against": table.rolled["foe"],
                "escaped": escaped,
            },
        )
        if escaped:
            if foe == "warship" or table.ap.action != "move":
                table.cancel_action(pid, "evaded")
            return
        if foe == "kc" and pirate.ally is None and pirate.ship.letter_of_marque is not None:
            active = table.turn.active
            assert active is not None
            self.flow.ask(
                active,
                TURN,
                "kc_surrender",
                f"Intercepted by {DATA.kcs[counter].name}: fight or surrender?",
                (FIGHT, SURRENDER),
                step(self._surrender, seat, counter, pid),
            )
            return
        self._battle(foe, seat, counter, pid)

    def _surrender(self, option: Option, seat: int, counter: str, pid: str) -> None:
        """Surrender with a Letter of Marque: he retires on the spot (18.41 B), the KC's
        controller scores half his NP [blackbeard §10.34, §R18.12]."""
        if option is FIGHT:
            self._battle("kc", seat, counter, pid)
            return
        pirate = self.table.pirates[pid]
        self.flow.emit("surrendered", {"pirate": pid, "kc": counter})
        self.ap_score(seat, "F", pid, notoriety=pirate.notoriety)
        self.table.retire(pid, "B", 0)

    def _battle(self, foe: str, seat: int, counter: str, pid: str) -> None:
        """1d6 + Combat + Skill against 1d6 + the other's Combat (+2 under option 2.4)
        [blackbeard §6.46, §10.35]."""
        table = self.table
        combat = DATA.kcs[counter].combat if foe == "kc" else DATA.warships[counter].combat
        table.rolled["foe"] = self.crown_combat(combat, table.ap_roll(1, foe, "battle"))
        fought = self._fought_kc if foe == "kc" else self._fought_warship
        self.rolls.roll(
            pid, "battle", 1, True, step(fought, seat, counter, pid), name=("ap", table.ap.acts)
        )

    def battle_score(self, pid: str) -> int:
        """The pirate's battle roll: 1d6 + Combat + Skill [blackbeard §6.46]."""
        table = self.table
        ship, skill = self.fighter(table.pirates[pid])
        return (
            mech.battle_score(
                DATA, table.rolled["battle"], ship, skill, heavy_guns=table.options["heavy_guns"]
            )
            + table.bonus["battle"]
        )

    def _fought_kc(self, seat: int, kc_id: str, pid: str) -> None:
        """Pirate above: the KC is killed, the pirate gains 2 x its Combat in NP and +1
        Loyalty, its controller scores case D. Else the pirate (both allies) dies, the
        controller scores half his NP [blackbeard §10.35, §10.36, §R18.12]."""
        table = self.table
        score, kc = self.battle_score(pid), DATA.kcs[kc_id]
        won = score > table.rolled["foe"]
        self.flow.emit(
            "kc_battle",
            {
                "pirate": pid,
                "kc": kc_id,
                "score": score,
                "against": table.rolled["foe"],
                "pirate_won": won,
            },
        )
        pirate = table.pirates[pid]
        if won:
            del table.kcs[kc_id]
            table.kcs_killed.append(kc_id)
            self.flow.emit("kc_killed", {"kc": kc_id, "seat": seat})
            table.shared_notoriety(
                pirate, NOTORIETY["kc_defeated"].factor * kc.combat, "kc_defeated"
            )
            table.shared_loyalty_row(pirate, "kc_defeated")
            self.ap_score(seat, "D", pid, kc_combat=kc.combat)
            return
        for each in table.alliance(pirate):
            self.ap_score(seat, "C", each.id, notoriety=each.notoriety)
            table.eliminate(each, "kc")

    def _fought_warship(self, seat: int, warship: str, pid: str) -> None:
        """Pirate above: NP = the warship's Combat, then 1 Combat hit, the warship back to
        the pool, his Action goes on. Else hits = the difference, Loyalty -1, the warship
        stays, the Action is lost; the AP player scores per hit, and half the NP of a sunk
        ship [blackbeard §6.46, §6.47, §R18.12]."""
        table = self.table
        score = self.battle_score(pid)
        against = table.rolled["foe"]
        won = score > against
        self.flow.emit(
            "warship_battle",
            {
                "pirate": pid,
                "warship": warship,
                "score": score,
                "against": against,
                "pirate_won": won,
            },
        )
        pirate = table.pirates[pid]
        before = tuple((each.id, each.notoriety) for each in table.alliance(pirate))
        if won:
            table.shared_notoriety(pirate, DATA.warships[warship].combat, "warship_defeated")
            self._warship_gone(warship)
            before = tuple((each.id, each.notoriety) for each in table.alliance(pirate))
            hits = FIGHT_FIGURES["warship_win_hits"]
            self.flow.push(step(self._warship_sinkings, seat, before, 0))
            self.split_hits(pid, "combat", hits, "warship")
            return
        table.shared_loyalty_row(pirate, "warship_battle_lost")
        table.cancel_action(pid, "warship")
        hits = against - score
        self.flow.push(step(self._warship_sinkings, seat, before, hits))
        self.split_hits(pid, "combat", hits, "warship")

    def _warship_sinkings(self, seat: int, before: tuple[tuple[str, int], ...], hits: int) -> None:
        """Case E: 1 VP per hit of a battle the warship won, and half the NP of each ship
        it sank [blackbeard §R18.12]."""
        for index, (pid, notoriety) in enumerate(before):
            sunk = pid not in self.table.pirates
            self.ap_score(
                seat, "E", pid, notoriety=notoriety, sunk=sunk, hits=hits if index == 0 else 0
            )

    def _warship_gone(self, warship: str) -> None:
        """A beaten warship goes back to its pool [blackbeard §6.47]."""
        table = self.table
        for area, there in list(table.patrols.items()):
            if there == warship:
                del table.patrols[area]
        if table.ap.sighted == warship:
            table.ap.sighted = None
        table.warship_pool.append(warship)
        table.warship_pool.sort()
        self.flow.emit("warship_left", {"warship": warship})

    # ------------------------------------------------------------------ figures and VP

    def ap_score(self, seat: int, case: str, pid: str, **amounts: Any) -> None:
        """VP for the anti-pirate side's player; the Crown scores nothing
        [blackbeard §R18.12, §R19.5]."""
        if seat == CROWN:
            return
        table = self.table
        vp = mech.score(DATA, case, ap_vp_awards=table.options["ap_vp_awards"], **amounts).vp
        if vp:
            table.score(seat, vp, case, pid)

    def crown_combat(self, combat: int, roll: int) -> int:
        """A warship's or a KC's battle roll (+2 under option 2.4) [blackbeard §2.4]."""
        return mech.crown_battle_score(
            DATA, roll, combat, option_2_4_plus2=self.table.options["option_2_4_plus2"]
        )

    def fighter(self, pirate: Pirate) -> tuple[Ship, int]:
        """The ship and Skill that fight for `pirate`: an alliance has the higher Combat,
        the lower Speed and both Skills, and is in D&R if either ally is
        [blackbeard §11.12, §13.23]."""
        allies = self.table.alliance(pirate)
        if len(allies) == 1:
            return pirate.ship, DATA.pirates[pirate.id].ability
        ships = [each.ship for each in allies]
        ship = Ship(
            pirate.ship.type,
            max(s.combat for s in ships),
            min(s.speed for s in ships),
            pirate.ship.loyalty,
            [],
            revelry=next((s.revelry for s in ships if s.revelry), None),
            heavy_guns=any(s.heavy_guns for s in ships),
        )
        return ship, sum(DATA.pirates[each.id].ability for each in allies)

    # ------------------------------------------------------------------ an alliance's hits

    def split_hits(self, pid: str, track: str, hits: int, reason: str) -> None:
        """Hits on an alliance: Combat hits split equally, the odd one on the ship the
        player chooses; Speed hits on each ship [blackbeard §11.14]."""
        table = self.table
        pirate = table.pirates.get(pid)
        if pirate is None:
            return
        partner = table.partner(pirate)
        if partner is None:
            table.hit(pirate, track, hits, reason)
            return
        if track != "combat":
            for each in (pirate, partner):
                table.hit(each, track, hits, reason)
            return
        if hits % 2:
            seat = pirate.owner
            self.flow.ask(
                seat,
                table.window_of(seat),
                "alliance_hit",
                "Which ship takes the odd hit?",
                (target_pirate(pid), target_pirate(partner.id)),
                step(self._odd_hit, pid, partner.id, hits, reason),
            )
            return
        self._odd_hit(target_pirate(pid), pid, partner.id, hits, reason)

    def _odd_hit(self, option: Option, pid: str, other: str, hits: int, reason: str) -> None:
        chosen = option.payload["target"]
        table = self.table
        for each in (pid, other):
            if each in table.pirates:
                table.hit(
                    table.pirates[each],
                    "combat",
                    hits // 2 + (hits % 2 if each == chosen else 0),
                    reason,
                )
