"""Sea battles (rules 7): gunpowder, rolls, Saran's Sabre, the star, and the spoils.

A mixin over `JamaicaState`. The battle in progress is a `Battle` record on the state, so
its stage is visible in views and survives clones. The loser never decides anything; the
winner does, out of turn (INTERRUPT) when it is the defender. A Ghost Ship in a battle is
run by the player whose ship is not in it (I-6): no gunpowder, its bonus on every roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from admiralty.games.base import Window
from admiralty.games.jamaica.data import STAR, load
from admiralty.games.jamaica.options import (
    LOOT_NONE,
    give_option,
    gunpowder_options,
    loot_blind,
    loot_hold,
    loot_treasure,
    sabre_options,
)
from admiralty.games.jamaica.records import INTERRUPT
from admiralty.games.jamaica.ships import load_targets, smallest_first
from admiralty.games.jamaica.treasures import GHOST

DATA = load()
ATTACKER, DEFENDER = 0, 1
ROLES = ("attacker", "defender")
SABRE = DATA.powers["reroll"]
SABRE_USES = DATA.treasures[SABRE].param("uses_per_combat")
BETH = DATA.powers["combat_bonus"]
BETH_BONUS = DATA.treasures[BETH].param("bonus")
GHOST_BONUS = DATA.treasures[DATA.ghost_treasure].param("bonus")
POWDER = DATA.combat_token


class Battle:
    """The battle in progress: who, where, and what each side spent and rolled."""

    __slots__ = ("faces", "gunpowder", "rerolls", "ships", "space", "stage", "strengths",
                 "winner")

    def __init__(self, attacker: int, defender: int, space: int) -> None:
        self.ships = (attacker, defender)
        self.space = space
        self.stage = "attacker_gunpowder"
        self.gunpowder = [0, 0]
        self.faces: list[int | str | None] = [None, None]
        self.strengths: list[int | None] = [None, None]
        self.rerolls = 0
        self.winner: int | None = None

    def copy(self) -> Battle:
        new = Battle.__new__(Battle)
        new.ships, new.space, new.stage = self.ships, self.space, self.stage
        new.gunpowder, new.faces, new.strengths = (
            self.gunpowder[:], self.faces[:], self.strengths[:])
        new.rerolls, new.winner = self.rerolls, self.winner
        return new

    def to_json(self) -> dict[str, Any]:
        return {"attacker": self.ships[0], "defender": self.ships[1], "space": self.space,
                "stage": self.stage, "gunpowder": self.gunpowder[:], "rolls": self.faces[:],
                "strengths": self.strengths[:], "sabre_used": self.rerolls > 0,
                "winner": self.winner}


class Combat:
    """The battle sequence C1-C9 and the spoils."""

    def controller(self, ship_id: int, against: int) -> int:
        """Who decides for a ship in a battle against `against`: its player, or for the
        Ghost Ship the player whose ship is not in the battle (I-6)."""
        if ship_id != GHOST:
            return ship_id
        return next(seat for seat in range(self.players) if seat != against)

    def bonus(self, ship_id: int) -> int:
        if ship_id == GHOST:
            return GHOST_BONUS
        return BETH_BONUS if BETH in self.ships[ship_id].powers else 0

    def _window(self, ship_id: int) -> Window | None:
        """A defender answers out of turn (rules 11, I-2 to I-5), even the Captain whose
        ship the Ghost attacks in the Ghost phase; None: TURN for the active seat."""
        return INTERRUPT if ship_id == self.combat.ships[DEFENDER] else None

    def _start_combat(self, attacker: int, defender: int) -> None:
        self.combat = Battle(attacker, defender, self.ship(attacker).space)
        self._emit("combat_started", {"attacker": attacker, "defender": defender,
                                      "space": self.combat.space})
        self._ask_gunpowder(ATTACKER)

    def _ask_gunpowder(self, role: int) -> None:
        """C1 / C6: spend any gunpowder (the Ghost has none); the defender knows the attack."""
        battle = self.combat
        battle.stage = f"{ROLES[role]}_gunpowder"
        ship_id = battle.ships[role]
        have = 0 if ship_id == GHOST else self.ships[ship_id].total(POWDER)
        if not have:
            self._roll(role)
            return
        self._open(ship_id, "gunpowder", f"You are the {ROLES[role]}: spend how much gunpowder?",
                   gunpowder_options(have), "_on_gunpowder", (role,), window=self._window(ship_id))

    def _on_gunpowder(self, payload: Mapping[str, int], role: int) -> None:
        amount = payload["amount"]
        if amount:
            ship_id = self.combat.ships[role]
            ship = self.ships[ship_id]
            for hold, take in enumerate(smallest_first(ship, POWDER, amount)):
                if take:
                    ship.take(hold, take)
            self.bank[POWDER] += amount
            self.combat.gunpowder[role] = amount
            self._emit("gunpowder_spent", {"ship": ship_id, "role": ROLES[role],
                                           "amount": amount})
        self._roll(role)

    def _roll(self, role: int) -> None:
        """C2 / C7: roll, then the Sabre may strike before the roll counts."""
        self.combat.stage = f"{ROLES[role]}_roll"
        self._roll_die(role, False)
        self.stack.append(("_after_roll", role))
        self._offer_sabre(role)

    def _roll_die(self, role: int, reroll: bool) -> None:
        battle = self.combat
        face = self.rng.choice(DATA.combat_faces)
        battle.faces[role] = face
        self._emit("combat_roll", {"ship": battle.ships[role], "role": ROLES[role], "face": face,
                                   "gunpowder": battle.gunpowder[role],
                                   "bonus": self.bonus(battle.ships[role]), "reroll": reroll})

    def _offer_sabre(self, role: int) -> None:
        """C3: the Sabre's holder may reroll this roll, right now or never (G15)."""
        battle = self.combat
        if battle.rerolls >= SABRE_USES:
            return
        for holder, ship_id in enumerate(battle.ships):
            if ship_id != GHOST and SABRE in self.ships[ship_id].powers:
                whose = "your own" if holder == role else "your opponent's"
                self._open(ship_id, "sabre", f"Saran's Sabre: reroll {whose} {battle.faces[role]}?",
                           sabre_options(holder == role), "_on_sabre", (role,), optional=True,
                           window=self._window(ship_id))
                return

    def _on_sabre(self, payload: Mapping[str, str], role: int) -> None:
        if not payload:
            return
        battle = self.combat
        battle.rerolls += 1
        holder = battle.ships[role] if payload["reroll"] == "own" else battle.ships[1 - role]
        self._emit("sabre_used", {"seat": holder, "ship": battle.ships[role], "role": ROLES[role],
                                  "face": battle.faces[role]})
        self._roll_die(role, True)
        self._offer_sabre(role)

    def _after_roll(self, role: int) -> None:
        """C4 / C8: a star wins at once; else strength = die + gunpowder + bonus."""
        battle = self.combat
        face = battle.faces[role]
        if face == STAR:
            self._combat_over(battle.ships[role])
            return
        battle.strengths[role] = face + battle.gunpowder[role] + self.bonus(battle.ships[role])
        if role == ATTACKER:
            self._ask_gunpowder(DEFENDER)
            return
        attack, defence = battle.strengths
        if attack == defence:
            self._combat_over(None)
        else:
            self._combat_over(battle.ships[ATTACKER if attack > defence else DEFENDER])

    def _combat_over(self, winner: int | None) -> None:
        battle = self.combat
        battle.winner = winner
        attacker, defender = battle.ships
        loser = None if winner is None else defender if winner == attacker else attacker
        self._emit("combat_result", {
            "attacker": battle.ships[0], "defender": battle.ships[1], "winner": winner,
            "loser": loser, "faces": battle.faces[:], "gunpowder": battle.gunpowder[:],
            "strengths": battle.strengths[:],
        })
        if winner is None:
            self.combat = None
            return
        self.stack.append(("_combat_end",))
        self._offer_spoils(winner, loser)

    def _combat_end(self) -> None:
        self.combat = None

    # ------------------------------------------------------------------- spoils (C9)

    def _offer_spoils(self, winner: int, loser: int) -> None:
        """The winner may take a hold, a card (face-down ones blind), give a card, or nothing.

        Whether the window opens depends only on what every seat sees (rules 12): it is
        skipped when there is nothing to take and the winner holds no face-down card, and
        opened otherwise, even when none of the winner's face-down cards may be given (then
        `loot:none` is its only option). Skipping it only when the winner holds no cursed
        card would tell the table that it holds none.
        """
        self.combat.stage = "spoils"
        options = [LOOT_NONE, *self._hold_loot(winner, loser), *self._card_loot(loser),
                   *self._gifts(winner, loser)]
        if len(options) == 1 and (winner == GHOST or not self.ships[winner].hidden):
            self._emit("spoils", {"winner": winner, "loser": loser, "loot": "none"})
            return
        self._open(self.controller(winner, loser), "loot", "You won: what do you take?",
                   tuple(options), "_on_loot", (winner, loser), window=self._window(winner))

    def _hold_loot(self, winner: int, loser: int) -> list:
        """Any non-empty hold the winner can load (G14); the Ghost may take any (and dump)."""
        ship, seen, options = self.ship(loser), set(), []
        allow_dump = self.options["allow_dump_same_kind"]
        for hold, (kind, count) in enumerate(zip(ship.kinds, ship.counts, strict=True)):
            if not count or (hold < DATA.holds and (kind, count) in seen):
                continue
            seen.add((kind, count))
            if winner == GHOST or load_targets(self.ship(winner), kind, DATA.holds, allow_dump):
                options.append(loot_hold(hold, kind, count))
        return options

    def _card_loot(self, loser: int) -> list:
        """Face-up cards by name; face-down ones by slot, reshuffled so a slot tells nothing."""
        ship = self.ship(loser)
        if len(ship.hidden) > 1:
            self.rng.shuffle(ship.hidden)
        return [loot_treasure(t) for t in ship.powers] + \
            [loot_blind(slot) for slot in range(len(ship.hidden))]

    def _gifts(self, winner: int, loser: int) -> list:
        """G16: a cursed card to a player (any card with give_any_treasure); any to the Ghost."""
        if winner == GHOST:
            return []
        ship = self.ships[winner]
        any_card = loser == GHOST or self.options["give_any_treasure"]
        cards = [t for t in ship.hidden if any_card or DATA.treasures[t].kind == "cursed"]
        if any_card:
            cards += ship.powers
        seen, options = set(), []
        for card in cards:
            option = give_option(card)
            if option.key not in seen:
                seen.add(option.key)
                options.append(option)
        return options

    def _on_loot(self, payload: Mapping[str, Any], winner: int, loser: int) -> None:
        loot = payload["loot"]
        if loot == "hold":
            self._steal_hold(winner, loser, payload["hold"])
        elif loot == "treasure":
            treasure = payload["treasure"]
            self._receive(winner, treasure, True, self._release(loser, treasure))
            self._emit("spoils", {"winner": winner, "loser": loser, "loot": "treasure",
                                  "treasure": treasure})
        elif loot == "blind":
            self._steal_blind(winner, loser, payload["slot"])
        elif loot == "give":
            self._give(winner, loser, payload["treasure"])
        else:
            self._emit("spoils", {"winner": winner, "loser": loser, "loot": "none"})

    def _steal_hold(self, winner: int, loser: int, hold: int) -> None:
        ship = self.ship(loser)
        kind, count = ship.kinds[hold], ship.counts[hold]
        self._emit("spoils", {"winner": winner, "loser": loser, "loot": "hold", "hold": hold,
                              "kind": kind, "count": count})
        targets = load_targets(self.ship(winner), kind, DATA.holds,
                               self.options["allow_dump_same_kind"])
        if winner == GHOST and (kind not in DATA.ghost_keeps or not targets):
            ship.fill(hold, None, 0)
            self.bank[kind] += count
            self._emit("overboard", {"ship": GHOST, "kind": kind, "count": count})
        elif len(targets) == 1:
            self._on_stash({"hold": targets[0][0]}, winner, loser, hold)
        else:
            self.combat.stage = "stash"
            self._open(self.controller(winner, loser), "stash",
                       f"Load the {count} {kind} you took: into which hold?",
                       self._hold_options(self.ship(winner),
                                          [(h, dump, count) for h, dump in targets], kind),
                       "_on_stash", (winner, loser, hold), window=self._window(winner))

    def _on_stash(self, payload: Mapping[str, int], winner: int, loser: int, hold: int) -> None:
        ship = self.ship(loser)
        kind, count = ship.kinds[hold], ship.counts[hold]
        ship.fill(hold, None, 0)
        self._stow(winner, kind, count, payload["hold"], "loot", None)

    def _steal_blind(self, winner: int, loser: int, slot: int) -> None:
        """A face-down card taken blind: only the thief and the victim learn which it was."""
        treasure = self.ship(loser).hidden.pop(slot)
        face_up = winner != GHOST and DATA.treasures[treasure].kind == "power"
        self._receive(winner, treasure, face_up, None)
        public = {"winner": winner, "loser": loser, "loot": "blind", "slot": slot,
                  "face_down": not face_up}
        secret = {**public, "treasure": treasure, "value": DATA.treasures[treasure].value}
        if face_up:
            self._emit("spoils", secret)
            return
        self._tell(tuple([s for s in (winner, loser) if s != GHOST]), "spoils", secret, public)

    def _give(self, winner: int, loser: int, treasure: str) -> None:
        """G16/G30: giver and receiver know the card; others, that it was cursed if it must be."""
        card = DATA.treasures[treasure]
        face_up = card.kind == "power"
        self._receive(loser, treasure, face_up, self._release(winner, treasure))
        public = {"winner": winner, "loser": loser, "loot": "give", "face_down": not face_up}
        if face_up:
            self._emit("spoils", {**public, "treasure": treasure})
            return
        if loser != GHOST and not self.options["give_any_treasure"]:
            public["cursed"] = True
        secret = {**public, "treasure": treasure, "value": card.value}
        self._tell(tuple([s for s in (winner, loser) if s != GHOST]), "spoils", secret, public)
