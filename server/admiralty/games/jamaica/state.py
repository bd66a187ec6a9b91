"""A game of Jamaica in progress: the flow of the turn.

`JamaicaState` is the table (`table.Table`: the pieces and the mechanics that move them)
run by one `Flow` of decisions (`admiralty.games.flow`). This module is the flow, and the
only code that opens requests and writes whose turn it is (`round`, `captain`, `phase`,
`active`, `half`): setup [jamaica §4], the round [jamaica §5], loading [jamaica §6.1],
moving, arriving and paying [jamaica §6.2, §6.3], shortage [jamaica §6.4], the windows of
a battle [jamaica §7], the Ghost Ship's phase [jamaica §10] and the end [jamaica §9].

Every step of the turn is a `Step` frame calling a method below; a method finishes, pushes
the frames that follow it or opens a request (`Flow.ask`, or `Flow.seal` for the card
choice), whose answer calls the continuation it holds with the chosen `Option`. The args
of frames and continuations are plain data, so a state copies, snapshots to JSON and
replays exactly. Requests go to the active seat in a TURN window and to anyone else
(and to a defender, always) in an INTERRUPT one [jamaica §11].
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from functools import cache, cached_property, lru_cache
from typing import Any

from admiralty.games.base import Option, Outcome, Viewer, Window
from admiralty.games.chance import Chance
from admiralty.games.determinize import fresh_chance, redeal
from admiralty.games.flow import FlowState, Step, is_step, step
from admiralty.games.jamaica import view as views
from admiralty.games.jamaica.board import FINISHED
from admiralty.games.jamaica.combat import (
    ATTACKER,
    DEFENDER,
    ROLES,
    SABRE,
    SABRE_USES,
    Battle,
)
from admiralty.games.jamaica.data import MOVES, STAR, load
from admiralty.games.jamaica.options import (
    GHOST,
    GHOST_DIRECTIONS,
    LOOT_NONE,
    bank_load_options,
    dice_options,
    gunpowder_options,
    hold_options,
    options_of_hand,
    pay_option,
    sabre_options,
    target_option,
)
from admiralty.games.jamaica.ships import (
    Ship,
    hold_targets,
    load_targets,
    payment_plans,
)
from admiralty.games.jamaica.table import Table

MORNING, EVENING = "morning", "evening"
DATA = load()
HOLDS, CARDS = DATA.holds, DATA.cards
TURN, INTERRUPT = Window.TURN, Window.INTERRUPT


class JamaicaState(Table, FlowState):
    """One game. Build it with `Jamaica().new_game(...)`; see `arrange` to set up positions."""

    __slots__ = (
        "_outcome",
        "_setup_events",
        "end_reason",
        "evening",
        "morning",
        "morning_hold",
        "rolled",
        "steps",
    )

    def __init__(self, players: int, seed: int, options: Mapping[str, Any]) -> None:
        super().__init__(players, Chance(seed), options)
        self.round = 0
        self.captain = 0
        self.phase = "setup"
        self.active: int | None = None
        self.half = MORNING
        self.rolled: tuple[int, ...] | None = None
        self.morning: int | None = None
        self.evening: int | None = None
        self.morning_hold = -1
        """The hold the morning load of the card being resolved filled (gold-gold,
        [jamaica §5.3])."""
        self.end_reason: str | None = None
        self._outcome: Outcome | None = None
        self.steps = Steps(self)
        self._deal()
        self.captain = self.chance.stream("captain").randrange(players)
        self.flow.emit(
            "game_started",
            {
                "players": players,
                "captain": self.captain,
                "ghost": self.ghost is not None,
                "treasure_deck": len(self.treasure_deck),
            },
        )
        self._begin_round()
        self.flow.run()
        self._setup_events = self.flow.events

    # ------------------------------------------------------------- the engine contract

    def outcome(self) -> Outcome | None:
        return self._outcome

    def view(self, viewer: Viewer) -> dict[str, Any]:
        return views.view(self, viewer)

    def snapshot(self) -> dict[str, Any]:
        return views.snapshot(self)

    def clone(self) -> JamaicaState:
        new = copy.copy(self)
        new.flow = self.flow.copy((self, new))
        new.options = dict(self.options)
        new.bank = dict(self.bank)
        new.lairs = self.lairs[:]
        new.treasure_deck, new.removed = self.treasure_deck[:], self.removed[:]
        new.ships = [ship.copy() for ship in self.ships]
        new.ghost = self.ghost.copy() if self.ghost is not None else None
        new.hulls = [*new.ships, new.ghost] if new.ghost is not None else new.ships[:]
        new.combat = self.combat.copy() if self.combat is not None else None
        new.finishers = self.finishers[:]
        new.steps = Steps(new)
        return new

    def determinize(self, seat: int, rng: random.Random) -> JamaicaState:
        """Deal again what `seat` cannot see [jamaica §12]: every deck's order, the other
        seats' hands and chosen cards (from their undrawn cards), the face-down treasures
        of the others and of the Ghost with the treasure deck and the box (a player's are
        never powers), and the chance. The open requests that list another seat's cards
        are opened again from the new deal."""
        new = self.clone()
        new.chance = fresh_chance(rng)
        for other, ship in enumerate(new.ships):
            if other == seat:
                redeal(rng, [(ship.deck, None)])
                continue
            chosen = [ship.chosen] if ship.chosen is not None else []
            redeal(rng, [(chosen, None), (ship.hand, None), (ship.deck, None)])
            ship.chosen = chosen[0] if chosen else None
            ship.hand.sort()
        hidden = [
            (ship.hidden, _face_down) for other, ship in enumerate(new.ships) if other != seat
        ]
        ghost = [(new.ghost.hidden, None)] if new.ghost is not None else []
        redeal(rng, [*hidden, *ghost, (new.removed, None), (new.treasure_deck, None)])
        new._ask_again(seat)
        return new

    def _ask_again(self, seat: int) -> None:
        """Open again, from the hands as they are now, the requests of other seats that list
        their hidden cards: the card choice, and the spoils (whose gifts are face-down cards)."""
        flow = self.flow
        for other, request in flow.sealed.items():
            if other != seat:
                hand = options_of_hand(tuple(self.ships[other].hand))
                flow.sealed[other] = request._replace(options=hand)
        asked = flow.asked
        if asked is not None and asked.request.kind == "loot" and asked.request.seat != seat:
            assert is_step(asked.then)
            flow.withdraw()
            flow.push(step(self._offer_spoils, *asked.then[1]))
            flow.run()

    # ---------------------------------------------------------------- who is asked

    def _window(self, seat: int) -> Window:
        """TURN for the active seat, INTERRUPT for anyone else [jamaica §11]."""
        return TURN if seat == self.active else INTERRUPT

    def mover(self, ship_id: int) -> int:
        """Who steers a ship: its player, or the Captain for the Ghost Ship [jamaica §10.3]."""
        return self.captain if ship_id == GHOST else ship_id

    def controller(self, ship_id: int, against: int) -> int:
        """Who decides for a ship in a battle against `against`: its player, or for the
        Ghost Ship the player whose ship is not in the battle [jamaica G25]."""
        if ship_id != GHOST:
            return ship_id
        return next(seat for seat in range(self.players) if seat != against)

    def _battle_window(self, seat: int, ship_id: int) -> Window:
        """A defender answers out of turn [jamaica §11], even the Captain whose ship the
        Ghost attacks in the Ghost phase; the attacker's side is asked as usual."""
        battle = self.combat
        assert battle is not None
        return INTERRUPT if ship_id == battle.ships[DEFENDER] else self._window(seat)

    # ------------------------------------------------------------------ the round [jamaica §5]

    def _begin_round(self) -> None:
        """Step 1: the Captain rolls round r's dice, the stream ``("dice", r)``."""
        self.round += 1
        for ship in self.ships:
            ship.revealed = None
        self.rolled = self.chance.rolls(DATA.action_faces, DATA.action_dice, "dice", self.round)
        self.flow.emit(
            "round_started",
            {"round": self.round, "captain": self.captain, "dice": list(self.rolled)},
        )
        self._ask_dice()

    def _ask_dice(self) -> None:
        """Step 1: the Captain orders the dice; published even when they are equal."""
        self.phase, self.active = "place_dice", self.captain
        self.morning = self.evening = None
        assert self.rolled is not None
        self.flow.ask(
            self.captain,
            TURN,
            "place_dice",
            "Which die is the morning (sun) die?",
            dice_options(*self.rolled),
            self.steps.on_dice,
            publish=True,
        )

    def _on_dice(self, option: Option) -> None:
        """Step 2: every seat chooses a card at once, in one SEALED window."""
        payload = option.payload
        self.morning, self.evening = payload["morning"], payload["evening"]
        self.flow.emit(
            "dice_placed",
            {"captain": self.captain, "morning": self.morning, "evening": self.evening},
        )
        self.phase, self.active = "choose_cards", None
        self.flow.seal(
            "choose_card",
            "Choose the card you play this round",
            [options_of_hand(tuple(ship.hand)) for ship in self.ships],
            self.steps.on_card,
        )

    def _on_card(self, option: Option, seat: int) -> None:
        ship = self.ships[seat]
        card = option.payload["card"]
        ship.hand.remove(card)
        ship.chosen = card
        self.flow.tell((seat,), "card_chosen", {"seat": seat, "card": card}, {"seat": seat})
        if self.flow.sealed:
            return
        self.phase = "resolve"
        self.flow.push(*self.steps.rounds[self.captain])

    def _round_steps(self, captain: int) -> tuple[Step, ...]:
        """The rest of a round once the cards are chosen: every turn in play order, the
        Captain's first, then the Ghost's phase and the end of the round. Made once per game
        for each Captain (`Steps.rounds`)."""
        players = self.players
        turns = [step(self._turn, (captain + k) % players) for k in range(players)]
        ghost = [step(self._ghost_phase)] if self.ghost is not None else []
        return (*turns, *ghost, step(self._end_round))

    def _turn(self, seat: int) -> None:
        """Step 3: reveal the card (only now [jamaica G7]), then morning and evening."""
        self.active = seat
        ship = self.ships[seat]
        assert ship.chosen is not None
        card = CARDS[ship.chosen]
        ship.revealed, ship.chosen = card.id, None
        ship.discard.append(card.id)
        self.flow.emit(
            "card_revealed",
            {"seat": seat, "card": card.id, "morning": card.morning, "evening": card.evening},
        )
        self.morning_hold = -1
        self.flow.push(self.steps.evenings[seat])
        self._action(seat, MORNING)

    def _action(self, seat: int, half: str) -> None:
        self.half = half
        ship = self.ships[seat]
        assert ship.revealed is not None
        card = CARDS[ship.revealed]
        if half == MORNING:
            symbol, value = card.morning, self.morning
        else:
            symbol, value = card.evening, self.evening
        assert value is not None
        if ship.lap == FINISHED:  # [jamaica §6.2.5]
            self.flow.emit(
                "action_ignored",
                {"seat": seat, "half": half, "symbol": symbol, "reason": "finished"},
            )
            return
        direction = MOVES.get(symbol)
        if direction is not None:
            self._walk(seat, direction, value, ship.space, ())
            return
        same_card = half == EVENING and card.morning == card.evening
        self._load(seat, symbol, value, half, self.morning_hold if same_card else -1)

    def _end_round(self) -> None:
        """Step 4: the end check [jamaica §9.1], else draws and the compass passes left."""
        if self.finishers or self.round >= self.options["round_cap"]:
            self._game_over("finish" if self.finishers else "round_cap")
            return
        for seat in range(self.players):
            self._refill(seat)
        self.captain = (self.captain + 1) % self.players
        self.flow.emit("round_ended", {"round": self.round, "captain": self.captain})
        self._begin_round()

    # ------------------------------------------------------------------ loading [jamaica §6.1]

    def _load(self, seat: int, kind: str, amount: int, half: str, exclude: int) -> None:
        ship = self.ships[seat]
        kinds, counts = ship.kinds, ship.counts
        targets = hold_targets(
            kinds, counts, kind, HOLDS, self.options["allow_dump_same_kind"], exclude
        )
        bank = self.bank[kind]
        most, choices = bank_load_options(kinds, counts, targets, kind, amount, bank)
        if not choices:
            reason = "holds_full" if bank else "bank_empty"
            self.flow.emit("load_cancelled", {"ship": seat, "kind": kind, "reason": reason})
            return
        self.flow.ask(
            seat,
            TURN if seat == self.active else INTERRUPT,
            "load",
            load_prompt(most, kind),
            choices,
            step(self._on_load, seat, kind, half),
        )

    def _on_load(self, option: Option, seat: int, kind: str, half: str) -> None:
        payload = option.payload
        self._stow(seat, kind, payload["load_count"], payload["hold"], "bank")
        if half == MORNING:
            self.morning_hold = payload["hold"]

    # ------------------------------------------------------------------- moving [jamaica §6.2]

    def _walk(
        self, ship_id: int, direction: int, steps: int, origin: int, path: tuple[int, ...]
    ) -> None:
        """A move walks one step at a time so that a fork (or a merge, going backward)
        can stop it for the mover's choice [jamaica G8] and a finish stops it at once
        [jamaica §6.2.5]."""
        ship = self.hulls[ship_id]
        board = self.board
        table, runs = board.successors[direction], board.runs[direction]
        while steps:
            run = runs[ship.space]  # the plain steps ahead (see `Board.runs`), taken at once
            if steps <= len(run):
                path += run[:steps]
                ship.space = run[steps - 1]
                break
            if run:
                path += run
                ship.space = run[-1]
                steps -= len(run)
            space = ship.space  # now at a fork, or next to or on Port Royal
            nexts = table[space]
            if len(nexts) > 1:
                mover = self.mover(ship_id)
                self.flow.ask(
                    mover,
                    TURN if mover == self.active else INTERRUPT,
                    "fork",
                    "Which way at the fork?",
                    board.branch_options[space, direction],
                    step(self._on_branch, ship_id, direction, steps, origin, path),
                )
                return
            path += nexts
            steps = self._step(ship, nexts[0], direction, steps)
        self._moved(ship_id, direction, origin, path)

    def _on_branch(
        self,
        option: Option,
        ship_id: int,
        direction: int,
        steps: int,
        origin: int,
        path: tuple[int, ...],
    ) -> None:
        to = option.payload["space"]
        steps = self._step(self.hulls[ship_id], to, direction, steps)
        self._walk(ship_id, direction, steps, origin, (*path, to))

    def _step(self, ship: Ship, to: int, direction: int, steps: int) -> int:
        """One step; the steps left, none once the ship finishes [jamaica §6.2.5]."""
        ship.lap = self.board.step(ship.space, ship.lap, to, direction)
        ship.space = to
        return 0 if ship.lap == FINISHED else steps - 1

    def _moved(self, ship_id: int, direction: int, origin: int, path: tuple[int, ...]) -> None:
        ship = self.hulls[ship_id]
        self.flow.emit(
            "moved",
            {
                "ship": ship_id,
                "direction": direction,
                "from": origin,
                "to": ship.space,
                "path": list(path),
                "lap": ship.lap,
            },
        )
        if ship.lap == FINISHED:
            if ship_id != GHOST:
                self.finishers.append(ship_id)
            self.flow.emit("finished", {"ship": ship_id, "round": self.round})
        self._arrive(ship_id)

    def _arrive(self, ship_id: int) -> None:
        """Arriving [jamaica §6.2.6]: combat first if the space holds other ships (not at
        Port Royal [jamaica G9]), then the cost."""
        space = self.hulls[ship_id].space
        if space == self.board.port_royal:
            return
        here = 0
        for ship in self.hulls:  # a bare loop, not a comprehension: hot in 3.11
            if ship.space == space:
                here += 1
        if here == 1:  # the arriving ship alone, as most are: no foe to list
            self._settle(ship_id)  # what the frame would do next: run it now
            return
        foes = [
            seat for seat, ship in enumerate(self.ships) if ship.space == space and seat != ship_id
        ]
        ghost = self.ghost
        if ghost is not None and ship_id != GHOST and ghost.space == space:
            foes.append(GHOST)
        self.flow.push(self.steps.settles[ship_id])
        mover = self.mover(ship_id)
        self.flow.ask(
            mover,
            self._window(mover),
            "target",
            "Several ships here: which do you attack?",
            tuple([target_option(i) for i in foes]),
            step(self._on_target, ship_id),
        )

    def _on_target(self, option: Option, ship_id: int) -> None:
        self._start_combat(ship_id, option.payload["target"])

    def _settle(self, ship_id: int) -> None:
        """Pay the space [jamaica §6.3]: a lair's treasure, a port's doubloons, a sea
        space's food; a ship that cannot pay is short [jamaica §6.4]."""
        ship = self.hulls[ship_id]
        board, space = self.board, ship.space
        if space in board.lair_spaces and space in self.lairs:
            self._draw_treasure(ship_id, space)
            return
        kind, cost = board.pays[space], board.cost[space]
        if kind is None or ship_id == GHOST or not cost:
            return
        holds, held = ship.holding(kind)
        if sum(held) < cost:
            self._shortage(ship_id, kind, cost)
            return
        self.flow.ask(
            ship_id,
            TURN if ship_id == self.active else INTERRUPT,
            "pay",
            f"Pay {cost} {kind}: from which holds?",
            pay_choices(tuple(holds), tuple(held), len(ship.counts), cost),
            step(self._on_pay, ship_id, kind),
        )

    def _on_pay(self, option: Option, ship_id: int, kind: str) -> None:
        payload = option.payload
        self._pay(ship_id, kind, payload["holds"], payload["amounts"])

    # ----------------------------------------------------------------- shortage [jamaica §6.4]

    def _shortage(self, ship_id: int, kind: str, cost: int) -> None:
        """Pay everything of that kind, then retreat to the first space that can be paid."""
        self._pay_all(ship_id, kind, cost)
        self._retreat(ship_id, self.hulls[ship_id].space, ())

    def _retreat(self, ship_id: int, origin: int, path: tuple[int, ...]) -> None:
        ship = self.hulls[ship_id]
        board = self.board
        table, port_royal = board.successors[-1], board.port_royal
        while True:
            space = ship.space
            nexts = table[space]
            if len(nexts) > 1:  # the retreating player chooses the lane [jamaica §6.4.2]
                self.flow.ask(
                    ship_id,
                    self._window(ship_id),
                    "fork",
                    "Retreating: which way at the fork?",
                    board.branch_options[space, -1],
                    step(self._on_retreat_branch, ship_id, origin, path),
                )
                return
            to = nexts[0]
            path += (to,)
            if space == port_royal or to == port_royal:
                self._step(ship, to, -1, 1)
            else:  # as in `_walk`: the lap state only changes at Port Royal
                ship.space = to
            if self._payable(ship):
                break
        self._retreated(ship_id, origin, path)

    def _on_retreat_branch(
        self, option: Option, ship_id: int, origin: int, path: tuple[int, ...]
    ) -> None:
        ship = self.hulls[ship_id]
        to = option.payload["space"]
        self._step(ship, to, -1, 1)
        if self._payable(ship):
            self._retreated(ship_id, origin, (*path, to))
        else:
            self._retreat(ship_id, origin, (*path, to))

    def _payable(self, ship: Ship) -> bool:
        """A lair, Port Royal (the retreat stops there at the latest [jamaica G12]) or a
        space the ship can pay in full."""
        space = ship.space
        kind = self.board.pays[space]
        return kind is None or ship.total(kind) >= self.board.cost[space]

    def _retreated(self, ship_id: int, origin: int, path: tuple[int, ...]) -> None:
        ship = self.hulls[ship_id]
        self.flow.emit(
            "retreated",
            {
                "ship": ship_id,
                "from": origin,
                "to": ship.space,
                "path": list(path),
                "lap": ship.lap,
            },
        )
        self._arrive(ship_id)

    # ------------------------------------------------------------ the Ghost Ship [jamaica §10]

    def _ghost_phase(self) -> None:
        """After every player's turn the Captain sails the Ghost: morning die, then
        evening [jamaica G24]."""
        self.phase, self.active = "ghost", self.captain
        self.flow.push(self.steps.ghost_evening)
        self._ghost_move(MORNING)

    def _ghost_move(self, half: str) -> None:
        """First in the race sails backward, last forward; else the Captain chooses
        [jamaica §10.2, G25]."""
        self.half = half
        board, ghost = self.board, self.ghost
        assert ghost is not None
        at = board.steps_left(ghost.space, ghost.lap)
        others = [board.steps_left(ship.space, ship.lap) for ship in self.ships]
        if at < min(others):
            self._ghost_sail(-1, half, "first")
        elif at > max(others):
            self._ghost_sail(1, half, "last")
        else:
            self.flow.ask(
                self.captain,
                TURN,
                "ghost_direction",
                "Which way does the Ghost Ship sail?",
                GHOST_DIRECTIONS,
                step(self._on_ghost_direction, half),
            )

    def _on_ghost_direction(self, option: Option, half: str) -> None:
        self._ghost_sail(1 if option.payload["direction"] == "forward" else -1, half, "captain")

    def _ghost_sail(self, direction: int, half: str, reason: str) -> None:
        steps = self.morning if half == MORNING else self.evening
        assert steps is not None and self.ghost is not None
        self.flow.emit(
            "ghost_sails", {"half": half, "direction": direction, "steps": steps, "reason": reason}
        )
        self._walk(GHOST, direction, steps, self.ghost.space, ())

    # -------------------------------------------------------------------- battles [jamaica §7]

    def _start_combat(self, attacker: int, defender: int) -> None:
        """A battle, named for its dice by the round, the turn ("ghost" in the Ghost
        phase), the half, the attacker and the defender."""
        turn = "ghost" if self.phase == "ghost" else self.active
        assert turn is not None
        space = self.hulls[attacker].space
        self.combat = Battle(
            attacker, defender, space, (self.round, turn, self.half, attacker, defender)
        )
        self.flow.emit(
            "combat_started", {"attacker": attacker, "defender": defender, "space": space}
        )
        self._ask_gunpowder(ATTACKER)

    def _ask_gunpowder(self, role: int) -> None:
        """C1 / C6 [jamaica §7]: spend any gunpowder (the Ghost has none); the defender knows
        the attack."""
        battle = self.combat
        assert battle is not None
        battle.stage = f"{ROLES[role]}_gunpowder"
        ship_id = battle.ships[role]
        have = 0 if ship_id == GHOST else self.ships[ship_id].total(DATA.combat_token)
        if not have:
            self._roll(role)
            return
        self.flow.ask(
            ship_id,
            self._battle_window(ship_id, ship_id),
            "gunpowder",
            f"You are the {ROLES[role]}: spend how much gunpowder?",
            gunpowder_options(have),
            step(self._on_gunpowder, role),
        )

    def _on_gunpowder(self, option: Option, role: int) -> None:
        amount = option.payload["amount"]
        if amount:
            self._spend_gunpowder(role, amount)
        self._roll(role)

    def _roll(self, role: int) -> None:
        """C2 / C7 [jamaica §7]: roll, then the Sabre may strike before the roll counts."""
        battle = self.combat
        assert battle is not None
        battle.stage = f"{ROLES[role]}_roll"
        self._roll_die(role, False)
        self.flow.push(self.steps.after_rolls[role])
        self._offer_sabre(role)

    def _offer_sabre(self, role: int) -> None:
        """C3: the Sabre's holder may reroll this roll, right now or never [jamaica G15]."""
        battle = self.combat
        assert battle is not None
        if battle.rerolls >= SABRE_USES:
            return
        for holder, ship_id in enumerate(battle.ships):
            if ship_id != GHOST and SABRE in self.ships[ship_id].powers:
                whose = "your own" if holder == role else "your opponent's"
                self.flow.ask(
                    ship_id,
                    self._battle_window(ship_id, ship_id),
                    "sabre",
                    f"Saran's Sabre: reroll {whose} {battle.faces[role]}?",
                    sabre_options(holder == role),
                    step(self._on_sabre, role),
                    optional=True,
                )
                return

    def _on_sabre(self, option: Option, role: int) -> None:
        payload = option.payload
        if not payload:  # pass
            return
        battle = self.combat
        assert battle is not None
        holder = battle.ships[role] if payload["reroll"] == "own" else battle.ships[1 - role]
        self._use_sabre(role, holder)
        self._offer_sabre(role)

    def _after_roll(self, role: int) -> None:
        """C4 / C8 [jamaica §7]: a star wins at once; else strength = die + gunpowder + bonus."""
        battle = self.combat
        assert battle is not None
        ship_id = battle.ships[role]
        if battle.faces[role] == STAR:
            self._combat_over(ship_id)
            return
        battle.strengths[role] = battle.strength(role, self.bonus(ship_id))
        if role == ATTACKER:
            self._ask_gunpowder(DEFENDER)
            return
        attack, defence = battle.strengths
        assert attack is not None and defence is not None
        if attack == defence:
            self._combat_over(None)
        else:
            self._combat_over(battle.ships[ATTACKER if attack > defence else DEFENDER])

    def _combat_over(self, winner: int | None) -> None:
        loser = self._battle_result(winner)
        if winner is None or loser is None:  # a tie: nothing happens [jamaica §7]
            self.combat = None
            return
        self.flow.push(self.steps.combat_end)
        self._offer_spoils(winner, loser)

    def _combat_end(self) -> None:
        self.combat = None

    def _offer_spoils(self, winner: int, loser: int) -> None:
        """C9: the winner may take a hold, a card (face-down ones blind), give a card, or
        nothing [jamaica G17].

        Whether the window opens depends only on what every seat sees [jamaica §12]: it
        is skipped when there is nothing to take and the winner holds no face-down card,
        and published otherwise, even when none of the winner's face-down cards may be
        given (then `loot:none` is its only option) [jamaica G18]. Skipping it only when
        the winner holds no cursed card would tell the table that it holds none.
        """
        self._battle().stage = "spoils"
        options = (
            LOOT_NONE,
            *self._hold_loot(winner, loser),
            *self._card_loot(loser),
            *self._gifts(winner, loser),
        )
        seat = self.controller(winner, loser)
        self.flow.ask(
            seat,
            self._battle_window(seat, winner),
            "loot",
            "You won: what do you take?",
            options,
            step(self._on_loot, winner, loser),
            publish=winner != GHOST and bool(self.ships[winner].hidden),
        )

    def _on_loot(self, option: Option, winner: int, loser: int) -> None:
        payload = option.payload
        loot = payload["loot"]
        if loot == "hold":
            self._steal_hold(winner, loser, payload["hold"])
        elif loot == "treasure":
            self._steal_treasure(winner, loser, payload["treasure"])
        elif loot == "blind":
            self._steal_blind(winner, loser, payload["slot"])
        elif loot == "give":
            self._give(winner, loser, payload["treasure"])
        else:
            self.flow.emit("spoils", {"winner": winner, "loser": loser, "loot": "none"})

    def _steal_hold(self, winner: int, loser: int, hold: int) -> None:
        """A whole hold, loaded by the loading rules [jamaica §7]; what the Ghost does not
        keep, or cannot load, goes overboard [jamaica G25]."""
        ship = self.hulls[loser]
        kind, count = ship.kinds[hold], ship.counts[hold]
        assert kind is not None
        self.flow.emit(
            "spoils",
            {
                "winner": winner,
                "loser": loser,
                "loot": "hold",
                "hold": hold,
                "kind": kind,
                "count": count,
            },
        )
        thief = self.hulls[winner]
        targets = load_targets(thief, kind, HOLDS, self.options["allow_dump_same_kind"])
        if winner == GHOST and (kind not in DATA.ghost_keeps or not targets):
            self._overboard(loser, hold)
        else:
            self._battle().stage = "stash"
            seat = self.controller(winner, loser)
            loads = [(target.hold, target.dump, count) for target in targets]
            self.flow.ask(
                seat,
                self._battle_window(seat, winner),
                "stash",
                f"Load the {count} {kind} you took: into which hold?",
                hold_options(thief.kinds, thief.counts, loads, kind),
                step(self._on_stash, winner, loser, hold),
            )

    def _on_stash(self, option: Option, winner: int, loser: int, hold: int) -> None:
        self._stash(winner, loser, hold, option.payload["hold"])

    # -------------------------------------------------------------------- the end [jamaica §9]

    def _game_over(self, reason: str) -> None:
        self.phase, self.active, self.end_reason = "game_over", None, reason
        self.flow.stop()
        scores = [self.score(seat) for seat in range(self.players)]
        keys = [
            (score, -self.board.steps_left(ship.space, ship.lap))  # [jamaica G11]
            for score, ship in zip(scores, self.ships, strict=True)
        ]
        self._outcome = Outcome.from_ranking(keys, scores)
        self.flow.emit(
            "game_over",
            {
                "reason": reason,
                "round": self.round,
                "scores": scores,
                "places": list(self._outcome.places),
                "finishers": self.finishers[:],
                "treasures": [self.treasure_values(ship) for ship in self.ships],
                "ghost_treasures": self.treasure_values(self.ghost) if self.ghost else None,
            },
        )


class Steps:
    """The steps a game takes again and again (every round, turn or battle), each made the
    first time it is taken and kept for the game: a step holds the method bound to its
    state, so they cannot be shared between games, and a copy of a game starts its own."""

    def __init__(self, state: JamaicaState) -> None:
        self.state = state

    @cached_property
    def rounds(self) -> tuple[tuple[Step, ...], ...]:
        """By Captain, `JamaicaState._round_steps`."""
        return tuple(self.state._round_steps(captain) for captain in range(self.state.players))

    @cached_property
    def on_dice(self) -> Step:
        return step(self.state._on_dice)

    @cached_property
    def on_card(self) -> Step:
        return step(self.state._on_card)

    @cached_property
    def evenings(self) -> tuple[Step, ...]:
        """By seat, the evening half of its card."""
        return tuple(step(self.state._action, seat, EVENING) for seat in range(self.state.players))

    @cached_property
    def settles(self) -> dict[int, Step]:
        """By ship, paying for the space it arrived at."""
        return {
            ship: step(self.state._settle, ship) for ship in (*range(self.state.players), GHOST)
        }

    @cached_property
    def ghost_evening(self) -> Step:
        return step(self.state._ghost_move, EVENING)

    @cached_property
    def after_rolls(self) -> tuple[Step, Step]:
        """By role, what follows a side's roll."""
        return step(self.state._after_roll, ATTACKER), step(self.state._after_roll, DEFENDER)

    @cached_property
    def combat_end(self) -> Step:
        return step(self.state._combat_end)


def _face_down(treasure: str) -> bool:
    """Whether a player may hold `treasure` face down: powers lie face up [jamaica §12]."""
    return DATA.treasures[treasure].kind != "power"


@cache
def load_prompt(tokens: int, kind: str) -> str:
    """The prompt of a `load` request, built once."""
    return f"Load {tokens} {kind}: into which hold?"


@lru_cache(maxsize=1 << 14)
def pay_choices(
    holds: tuple[int, ...], counts: tuple[int, ...], size: int, cost: int
) -> tuple[Option, ...]:
    """The `pay` options of `payment_plans`, which depend only on where the kind to pay lies
    and how much of it: random play repeats these (three calls in four are answered here
    in fresh games), so they are worked out once."""
    return tuple(pay_option(plan) for plan in payment_plans(holds, counts, size, cost, HOLDS))
