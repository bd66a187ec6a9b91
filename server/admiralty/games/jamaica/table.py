"""The table: every piece of a game of Jamaica and the mechanics that move them.

The pieces are the bank, the lairs' treasure markers, the ships (holds, action cards,
treasure cards), the Ghost Ship, the treasure deck and the box, the battle being fought
(`combat.Battle`) and the game's named chance streams (`Chance`). The mechanics change
them and record what happened as events: loading, paying and emptying holds, drawing
and reshuffling cards, treasure cards changing hands, rolling and spending gunpowder in
a battle, taking its spoils, scoring.

Mechanics never open a request and never change whose turn it is; they tell what happened
through the flow (`Flow.emit`, `Flow.tell`), which only the state runs. `round`,
`captain`, `phase`, `active` and `half` are declared here because mechanics read them (to
name an event or a chance stream); only the flow (`state.py`) writes them. Powers lie face up and
act while held; scoring and cursed cards lie face down, seen only by their holder
[jamaica §12]. The Ghost Ship keeps the cards it finds face down and seen by nobody, and
never uses a power [jamaica G25].
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from admiralty.games.base import Option
from admiralty.games.chance import Chance
from admiralty.games.flow import Flow
from admiralty.games.jamaica.board import PRE_START, Board
from admiralty.games.jamaica.combat import (
    BETH,
    BETH_BONUS,
    COMBAT_FACES,
    GHOST_BONUS,
    POWDER,
    ROLES,
    Battle,
)
from admiralty.games.jamaica.data import load
from admiralty.games.jamaica.options import (
    GHOST,
    give_option,
    loot_blind,
    loot_hold,
    loot_treasure,
)
from admiralty.games.jamaica.ships import Hold, Ship, load_targets, smallest_first

DATA = load()
HAND, HOLDS = DATA.hand_size, DATA.holds
MAP = DATA.powers["hand_size"]
MAP_HAND = DATA.treasures[MAP].param("hand_size")
EXTRA_HOLD = DATA.powers["extra_hold"]


@cache
def board_of() -> Board:
    """The track, built once per process from the data files."""
    return Board(load())


class Table:
    """The pieces of one game and the mechanics over them (see the module)."""

    __slots__ = (
        "active",
        "bank",
        "board",
        "captain",
        "chance",
        "combat",
        "finishers",
        "flow",
        "ghost",
        "half",
        "hulls",
        "lairs",
        "options",
        "phase",
        "players",
        "removed",
        "round",
        "ships",
        "treasure_deck",
    )
    """Slots, not the instance dict: the rules read these attributes on every step, and a
    slot is the quickest attribute (an instance dict with this many keys is not shared)."""

    players: int
    options: dict[str, Any]
    board: Board
    chance: Chance
    """The game's named chance streams; never shown (the seed is hidden information)."""
    bank: dict[str, int]
    lairs: list[int]
    """Lairs whose treasure marker is still there."""
    ships: list[Ship]
    ghost: Ship | None
    hulls: list[Ship]
    """Ships by ship id: a seat's at its number, the Ghost Ship's (when there is one) at
    GHOST, -1, the last: `hulls[ship_id]` is `ship(ship_id)` without a call."""
    treasure_deck: list[str]
    """The treasure cards still to be found; the top card is the last."""
    removed: list[str]
    """The treasure cards left in the box, unseen by all [jamaica §4.1]."""
    combat: Battle | None
    finishers: list[int]
    """Seats that reached Port Royal from the end of their lap, in order."""
    flow: Flow
    """The game's decisions, run by the state (`state.py`); the mechanics only tell it what
    happened (`Flow.emit`, `Flow.tell`)."""

    # The turn: read by mechanics, written only by the flow (state.py).
    round: int
    captain: int
    phase: str
    active: int | None
    half: str
    """The half of the card being resolved ("morning", "evening"), also in the Ghost phase."""

    def __init__(self, players: int, chance: Chance, options: Mapping[str, Any]) -> None:
        self.board = board_of()
        self.players = players
        self.options = dict(options)
        self.chance = chance
        self.bank = dict(DATA.bank)
        self.lairs = list(self.board.lairs)
        self.ships = [self._new_ship(DATA.start_holds) for _ in range(players)]
        self.ghost = self._new_ship(DATA.ghost_holds) if players == DATA.ghost_players else None
        self.hulls = [*self.ships, self.ghost] if self.ghost is not None else self.ships[:]
        self.treasure_deck = []
        self.removed = []
        self.combat = None
        self.finishers = []
        self.flow = Flow()

    def _new_ship(self, contents: tuple[tuple[str, int], ...]) -> Ship:
        ship = Ship(self.board.port_royal, PRE_START, HOLDS)
        for hold, (kind, count) in enumerate(contents):
            ship.fill(hold, kind, count)
            self.bank[kind] -= count
        return ship

    def _deal(self) -> None:
        """Decks and hands [jamaica §4.1], then the 9 treasures of the treasure deck, the
        rest boxed (2 players: the Ghost's card out first [jamaica G23])."""
        data, chance = DATA, self.chance
        for seat, ship in enumerate(self.ships):
            ship.deck = chance.shuffled(sorted(data.cards), "deck", seat, 0)
            ship.shuffles = 1
            ship.hand = sorted(ship.deck.pop() for _ in range(data.hand_size))
            self.flow.tell(
                (seat,),
                "hand_dealt",
                {"seat": seat, "hand": list(ship.hand)},
                {"seat": seat, "count": len(ship.hand)},
            )
        pool = [t for t in data.treasures if self.ghost is None or t != data.ghost_treasure]
        pool = chance.shuffled(pool, "treasures")
        self.treasure_deck, self.removed = pool[: data.deck_size], pool[data.deck_size :]

    # ------------------------------------------------------------------------ looking

    def ship(self, ship_id: int) -> Ship:
        """The ship of a seat, or the Ghost Ship for GHOST."""
        return self.hulls[ship_id]

    def fleet(self) -> list[int]:
        """Every ship id in play: the seats, then the Ghost Ship if there is one."""
        ids = list(range(self.players))
        return [*ids, GHOST] if self.ghost is not None else ids

    def hand_limit(self, seat: int) -> int:
        """3 cards, or 4 while the seat holds Morgan's Map [jamaica §8.2]."""
        return MAP_HAND if MAP in self.ships[seat].powers else HAND

    def score(self, seat: int, treasures: bool = True) -> int:
        """Position value + doubloons (+ treasure values) [jamaica §9.2]; powers score nothing."""
        ship = self.ships[seat]
        total = self.board.position_score(ship.space, ship.lap) + ship.total(DATA.score_token)
        return total + sum(self.treasure_values(ship)) if treasures else total

    @staticmethod
    def treasure_values(ship: Ship) -> list[int]:
        """The values of a ship's face-down treasures, sorted so their order tells nothing."""
        return sorted(DATA.treasures[t].value for t in ship.hidden)

    # ------------------------------------------------------------------ action cards

    def _refill(self, seat: int) -> None:
        """Refill to the hand limit [jamaica §5.4] (never discard down [jamaica G19]),
        reshuffling an empty deck."""
        ship = self.ships[seat]
        hand = ship.hand
        missing = (MAP_HAND if MAP in ship.powers else HAND) - len(hand)  # `hand_limit`
        if missing <= 0:
            return
        drawn = []
        for _ in range(missing):
            if not ship.deck:
                self._reshuffle(seat)
            drawn.append(ship.deck.pop())
        hand += drawn
        hand.sort()
        self.flow.tell(
            (seat,),
            "cards_drawn",
            {"seat": seat, "cards": drawn, "hand": hand[:]},
            {"seat": seat, "count": missing},
        )

    def _reshuffle(self, seat: int) -> None:
        """The discard pile becomes the deck [jamaica §5.4]: the k-th shuffle of a seat's
        deck is the stream ``("deck", seat, k)`` of the cards in order, so it depends on
        nothing but the seed, the seat, k and which cards are shuffled."""
        ship = self.ships[seat]
        ship.deck = self.chance.shuffled(sorted(ship.discard), "deck", seat, ship.shuffles)
        ship.shuffles += 1
        ship.discard = []
        self.flow.emit("deck_reshuffled", {"seat": seat, "deck_size": len(ship.deck)})

    # ------------------------------------------------------------------------ holds

    def _stow(self, ship_id: int, kind: str, count: int, hold: int, source: str) -> None:
        """Empty `hold` into the bank, then put `count` tokens from `source` into it
        [jamaica §6.1.3]."""
        ship = self.hulls[ship_id]
        emptied = None
        if ship.counts[hold]:
            held = ship.kinds[hold]
            assert held is not None
            emptied = {"kind": held, "count": ship.counts[hold]}
            self.bank[held] += ship.counts[hold]
        if source == "bank":
            self.bank[kind] -= count
        ship.fill(hold, kind, count)
        self.flow.emit(
            "loaded",
            {
                "ship": ship_id,
                "kind": kind,
                "count": count,
                "hold": hold,
                "emptied": emptied,
                "source": source,
            },
        )

    def _pay(self, ship_id: int, kind: str, holds: list[int], amounts: list[int]) -> None:
        """Take `amounts` from `holds` to the bank [jamaica §6.3] (a payload's lists are
        shared: the event gets copies)."""
        ship = self.hulls[ship_id]
        for hold, amount in zip(holds, amounts, strict=True):
            ship.take(hold, amount)
        paid = sum(amounts)
        self.bank[kind] += paid
        self.flow.emit(
            "paid",
            {
                "ship": ship_id,
                "space": ship.space,
                "kind": kind,
                "amount": paid,
                "holds": holds[:],
                "amounts": amounts[:],
            },
        )

    def _pay_all(self, ship_id: int, kind: str, cost: int) -> None:
        """A shortage: everything of that kind goes to the bank [jamaica §6.4.1]."""
        ship = self.hulls[ship_id]
        paid = 0
        for hold, held in enumerate(ship.kinds):
            if held == kind:
                paid += ship.counts[hold]
                ship.fill(hold, None, 0)
        self.bank[kind] += paid
        self.flow.emit(
            "shortage",
            {"ship": ship_id, "space": ship.space, "kind": kind, "cost": cost, "paid": paid},
        )

    # ---------------------------------------------------------------- treasure cards

    def _draw_treasure(self, ship_id: int, space: int) -> None:
        """The first ship to end a move on a lair takes its card [jamaica §6.3, §8.1] (it
        cannot refuse [jamaica G13])."""
        self.lairs.remove(space)
        if not self.treasure_deck:
            return
        treasure = self.treasure_deck.pop()
        face_up = ship_id != GHOST and DATA.treasures[treasure].kind == "power"
        self._receive(ship_id, treasure, face_up, None)
        public = {"ship": ship_id, "space": space, "face_down": not face_up}
        if face_up:
            self.flow.emit("treasure_drawn", {**public, "treasure": treasure})
        elif ship_id == GHOST:
            self.flow.emit("treasure_drawn", public)
        else:
            secret = {**public, "treasure": treasure, "value": DATA.treasures[treasure].value}
            self.flow.tell((ship_id,), "treasure_drawn", secret, public)

    def _receive(self, ship_id: int, treasure: str, face_up: bool, contents: Hold | None) -> None:
        """Add a card to a ship; a face-up 6th Hold brings its hold's `contents` (the Ghost
        keeps only gold)."""
        ship = self.hulls[ship_id]
        if not face_up:
            ship.hidden.append(treasure)
            return
        ship.powers.append(treasure)
        if treasure == EXTRA_HOLD:
            kind, count = contents or (None, 0)
            if kind is not None and ship_id == GHOST and kind not in DATA.ghost_keeps:
                self.bank[kind] += count
                self.flow.emit("overboard", {"ship": ship_id, "kind": kind, "count": count})
                kind, count = None, 0
            ship.kinds.append(kind)
            ship.counts.append(count)

    def _release(self, ship_id: int, treasure: str) -> Hold | None:
        """Take a card from a ship; for a face-up 6th Hold, also its hold, returned."""
        ship = self.hulls[ship_id]
        if treasure in ship.hidden:
            ship.hidden.remove(treasure)
            return None
        ship.powers.remove(treasure)
        if treasure != EXTRA_HOLD:
            return None
        return Hold(ship.kinds.pop(HOLDS), ship.counts.pop(HOLDS))

    # ------------------------------------------------------------------------ battle

    def _battle(self) -> Battle:
        battle = self.combat
        assert battle is not None, "no battle is being fought"
        return battle

    def bonus(self, ship_id: int) -> int:
        """What a ship adds to every roll: Lady Beth's +2 [jamaica §8.2], the Ghost's always."""
        if ship_id == GHOST:
            return GHOST_BONUS
        return BETH_BONUS if BETH in self.ships[ship_id].powers else 0

    def _spend_gunpowder(self, role: int, amount: int) -> None:
        """C1 / C6: the gunpowder goes to the bank, the smallest holds first [jamaica G22]."""
        battle = self.combat
        assert battle is not None
        ship_id = battle.ships[role]
        ship = self.ships[ship_id]
        for hold, take in enumerate(smallest_first(ship, POWDER, amount)):
            if take:
                ship.take(hold, take)
        self.bank[POWDER] += amount
        battle.gunpowder[role] = amount
        self.flow.emit("gunpowder_spent", {"ship": ship_id, "role": ROLES[role], "amount": amount})

    def _roll_die(self, role: int, reroll: bool) -> None:
        """C2 / C7: a roll of the combat die, from the stream of that roll of that battle."""
        battle = self.combat
        assert battle is not None
        (face,) = self.chance.rolls(COMBAT_FACES, 1, *battle.roll_name(role, reroll))
        battle.faces[role] = face
        ship_id = battle.ships[role]
        self.flow.emit(
            "combat_roll",
            {
                "ship": ship_id,
                "role": ROLES[role],
                "face": face,
                "gunpowder": battle.gunpowder[role],
                "bonus": self.bonus(ship_id),
                "reroll": reroll,
            },
        )

    def _use_sabre(self, role: int, holder: int) -> None:
        """C3: Saran's Sabre rerolls `role`'s die; the new result stands [jamaica §8.2]."""
        battle = self.combat
        assert battle is not None
        battle.rerolls += 1
        self.flow.emit(
            "sabre_used",
            {
                "seat": holder,
                "ship": battle.ships[role],
                "role": ROLES[role],
                "face": battle.faces[role],
            },
        )
        self._roll_die(role, True)

    def _battle_result(self, winner: int | None) -> int | None:
        """C8: the battle is decided; returns the loser (None on a tie)."""
        battle = self.combat
        assert battle is not None
        battle.winner = winner
        loser = battle.loser(winner)
        self.flow.emit(
            "combat_result",
            {
                "attacker": battle.ships[0],
                "defender": battle.ships[1],
                "winner": winner,
                "loser": loser,
                "faces": battle.faces[:],
                "gunpowder": battle.gunpowder[:],
                "strengths": battle.strengths[:],
            },
        )
        return loser

    # ------------------------------------------------------------------- spoils (C9)

    def _hold_loot(self, winner: int, loser: int) -> list[Option]:
        """Any non-empty hold the winner can load [jamaica G14]; the Ghost may take any."""
        ship, seen, options = self.hulls[loser], set(), []
        allow_dump = self.options["allow_dump_same_kind"]
        for hold, (kind, count) in enumerate(zip(ship.kinds, ship.counts, strict=True)):
            if not count or (hold < HOLDS and (kind, count) in seen):
                continue
            assert kind is not None
            seen.add((kind, count))
            if winner == GHOST or load_targets(self.hulls[winner], kind, HOLDS, allow_dump):
                options.append(loot_hold(hold, kind, count))
        return options

    def _card_loot(self, loser: int) -> list[Option]:
        """Face-up cards by name; face-down ones by slot, reshuffled (from the battle's
        stream ``("spoils", ...)``) so that a slot tells nothing [jamaica §12]."""
        ship = self.hulls[loser]
        if len(ship.hidden) > 1:
            ship.hidden = self.chance.shuffled(sorted(ship.hidden), "spoils", *self._battle().name)
        return [loot_treasure(t) for t in ship.powers] + [
            loot_blind(slot) for slot in range(len(ship.hidden))
        ]

    def _gifts(self, winner: int, loser: int) -> list[Option]:
        """A cursed card to a player (any card with give_any_treasure), any card to the
        Ghost [jamaica G16]."""
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

    def _steal_treasure(self, winner: int, loser: int, treasure: str) -> None:
        """A face-up card, taken knowingly (a 6th Hold with its contents [jamaica §7])."""
        self._receive(winner, treasure, True, self._release(loser, treasure))
        self.flow.emit(
            "spoils", {"winner": winner, "loser": loser, "loot": "treasure", "treasure": treasure}
        )

    def _steal_blind(self, winner: int, loser: int, slot: int) -> None:
        """A face-down card taken blind: only the thief and the victim learn which it was."""
        treasure = self.hulls[loser].hidden.pop(slot)
        face_up = winner != GHOST and DATA.treasures[treasure].kind == "power"
        self._receive(winner, treasure, face_up, None)
        public = {
            "winner": winner,
            "loser": loser,
            "loot": "blind",
            "slot": slot,
            "face_down": not face_up,
        }
        secret = {**public, "treasure": treasure, "value": DATA.treasures[treasure].value}
        if face_up:
            self.flow.emit("spoils", secret)
            return
        self.flow.tell(tuple(s for s in (winner, loser) if s != GHOST), "spoils", secret, public)

    def _give(self, winner: int, loser: int, treasure: str) -> None:
        """Giver and receiver know the card; others, that it was cursed if it must be
        [jamaica G16, G30]."""
        card = DATA.treasures[treasure]
        face_up = card.kind == "power"
        self._receive(loser, treasure, face_up, self._release(winner, treasure))
        public: dict[str, Any] = {
            "winner": winner,
            "loser": loser,
            "loot": "give",
            "face_down": not face_up,
        }
        if face_up:
            self.flow.emit("spoils", {**public, "treasure": treasure})
            return
        if loser != GHOST and not self.options["give_any_treasure"]:
            public["cursed"] = True
        secret = {**public, "treasure": treasure, "value": card.value}
        self.flow.tell(tuple(s for s in (winner, loser) if s != GHOST), "spoils", secret, public)

    def _overboard(self, loser: int, hold: int) -> None:
        """What the Ghost takes and does not keep goes back to the bank [jamaica §10]."""
        ship = self.hulls[loser]
        kind, count = ship.kinds[hold], ship.counts[hold]
        assert kind is not None
        ship.fill(hold, None, 0)
        self.bank[kind] += count
        self.flow.emit("overboard", {"ship": GHOST, "kind": kind, "count": count})

    def _stash(self, winner: int, loser: int, hold: int, into: int) -> None:
        """A stolen hold, loaded into the winner's hold `into` [jamaica §7]."""
        ship = self.hulls[loser]
        kind, count = ship.kinds[hold], ship.counts[hold]
        assert kind is not None
        ship.fill(hold, None, 0)
        self._stow(winner, kind, count, into, "loot")
