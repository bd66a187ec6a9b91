"""A game of Jamaica in progress: setup (rules 4), the round (5), loading (6.1), the end (9).

The rules run as a stack of small tasks. A task finishes at once, pushes the tasks that
follow it, or opens a request and stops there; the answer calls the request's handler and
the stack runs on. Tasks are tuples of a method name and plain arguments and requests are
frozen objects, so a state copies cheaply, snapshots to JSON and replays exactly.
Movement, combat and the making of events and requests (`records`) live in their own
modules as mixins over the same state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from admiralty.games.base import Event, GameState, IllegalAction, Outcome, Request, Viewer
from admiralty.games.jamaica import view as views
from admiralty.games.jamaica.board import FINISHED, PRE_START, Board
from admiralty.games.jamaica.combat import Combat
from admiralty.games.jamaica.data import MOVES, load
from admiralty.games.jamaica.movement import Movement
from admiralty.games.jamaica.options import GHOST, dice_options, hold_option, options_of_hand
from admiralty.games.jamaica.records import TURN, Records
from admiralty.games.jamaica.ships import Ship, load_targets

MORNING, EVENING = "morning", "evening"
DATA = load()
MAP = DATA.powers["hand_size"]
MAP_HAND = DATA.treasures[MAP].param("hand_size")
HAND, HOLDS, CARDS = DATA.hand_size, DATA.holds, DATA.cards


class JamaicaState(Records, Movement, Combat, GameState):
    """One game. Build it with `Jamaica().new_game(...)`; see `arrange` to set up positions."""

    __slots__ = (
        "_events", "_outcome", "_setup_events", "active", "ask", "bank", "board", "captain",
        "combat", "end_reason", "evening", "finishers", "ghost", "hulls", "lairs", "morning",
        "morning_hold", "options", "phase", "players", "removed", "rng", "rolled", "round",
        "sealed", "ships", "stack", "then", "treasure_deck", "window_id",
    )
    """Slots, not the instance dict: the rules read these attributes on every step, and a
    slot is the quickest attribute (an instance dict with this many keys is not shared)."""

    def __init__(self, players: int, seed: int, options: Mapping[str, Any]) -> None:
        self.board = board_of()
        self.players = players
        self.options = dict(options)
        self.rng = random.Random(seed)
        self.round = 0
        self.captain = 0
        self.phase = "setup"
        self.active: int | None = None
        self.rolled: tuple[int, ...] | None = None
        self.morning: int | None = None
        self.evening: int | None = None
        self.bank = dict(DATA.bank)
        self.lairs = list(self.board.lairs)
        """Lairs whose treasure marker is still there."""
        self.ships = [self._new_ship(DATA.start_holds) for _ in range(players)]
        self.ghost = self._new_ship(DATA.ghost_holds) if players == DATA.ghost_players else None
        self.hulls = [*self.ships, self.ghost]
        """Ships by ship id: a seat's at its number, the Ghost Ship's (None without one) at
        GHOST, -1, the last: `hulls[ship_id]` is `ship(ship_id)` without a call."""
        self.combat = None
        self.stack: list[tuple] = []
        self.ask: Request | None = None
        self.then: tuple[str, tuple] = ("", ())
        self.sealed: dict[int, Request] = {}
        """The open card choices of the SEALED window, by seat."""
        self.window_id = 0
        self.morning_hold = -1
        """The hold the morning load of the card being resolved filled (gold-gold, rules 5)."""
        self.finishers: list[int] = []
        self.end_reason: str | None = None
        self._outcome: Outcome | None = None
        self._events: list[Event] = []
        self._deal()
        self._begin_round()
        self._setup_events = self._events

    # ----------------------------------------------------------------- setup (rules 4)

    def _new_ship(self, contents: tuple[tuple[str, int], ...]) -> Ship:
        ship = Ship(self.board.port_royal, PRE_START, DATA.holds)
        for hold, (kind, count) in enumerate(contents):
            ship.fill(hold, kind, count)
            self.bank[kind] -= count
        return ship

    def _deal(self) -> None:
        """Decks, hands, the 9 treasures (2 players: the Ghost's card out first, G23), Captain."""
        data, rng = DATA, self.rng
        for seat, ship in enumerate(self.ships):
            ship.deck = sorted(data.cards)
            rng.shuffle(ship.deck)
            ship.hand = sorted(ship.deck.pop() for _ in range(data.hand_size))
            self._tell((seat,), "hand_dealt", {"seat": seat, "hand": list(ship.hand)},
                       {"seat": seat, "count": len(ship.hand)})
        pool = [t for t in data.treasures if self.ghost is None or t != data.ghost_treasure]
        rng.shuffle(pool)
        self.treasure_deck, self.removed = pool[:data.deck_size], pool[data.deck_size:]
        self.captain = rng.randrange(self.players)
        self._emit("game_started", {"players": self.players, "captain": self.captain,
                                    "ghost": self.ghost is not None,
                                    "treasure_deck": len(self.treasure_deck)})

    # ------------------------------------------------------------- the engine contract

    def pending(self) -> list[Request]:
        if self.ask is not None:
            return [self.ask]
        return list(self.sealed.values())

    def apply(self, seat: int, index: int) -> list[Event]:
        ask = self.ask
        if ask is not None and ask.seat == seat:
            request = ask
        elif seat in self.sealed:
            request = self.sealed[seat]
        else:
            raise IllegalAction(f"seat {seat} has no open request")
        options = request.options
        if type(index) is not int or not 0 <= index < len(options):
            self._option(request, index)  # raises, unless an int subclass names an option
        self._events = events = []
        if request is ask:
            name, args = self.then
            self.ask = None
            getattr(self, name)(options[index].payload, *args)
        else:
            self._on_card(seat, index)
        # Run tasks until a request is open or the game is over (inlined: once per answer).
        stack = self.stack
        while stack and self.ask is None and not self.sealed:
            task = stack.pop()
            getattr(self, task[0])(*task[1:])
        return events

    @staticmethod
    def _option(request: Request, index: int):
        if type(index) is not int and (isinstance(index, bool) or not isinstance(index, int)):
            raise IllegalAction(f"an option index must be an int, not {index!r}")
        if not 0 <= index < len(request.options):
            raise IllegalAction(f"option {index} is not one of 0..{len(request.options) - 1}")
        return request.options[index]

    def outcome(self) -> Outcome | None:
        return self._outcome

    def view(self, viewer: Viewer) -> dict[str, Any]:
        return views.view(self, viewer)

    def snapshot(self) -> dict[str, Any]:
        return views.snapshot(self)

    def clone(self) -> JamaicaState:
        new = object.__new__(JamaicaState)
        new.__dict__.update(self.__dict__)  # anything set from outside the engine
        for name in JamaicaState.__slots__:
            setattr(new, name, getattr(self, name))
        new.options = dict(self.options)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.bank = dict(self.bank)
        new.lairs = self.lairs[:]
        new.treasure_deck, new.removed = self.treasure_deck[:], self.removed[:]
        new.ships = [ship.copy() for ship in self.ships]
        new.ghost = self.ghost.copy() if self.ghost is not None else None
        new.hulls = [*new.ships, new.ghost]
        new.combat = self.combat.copy() if self.combat is not None else None
        new.stack = self.stack[:]
        new.sealed = dict(self.sealed)
        new.finishers = self.finishers[:]
        new._events = []
        return new

    # ------------------------------------------------------------------------ plumbing

    def ship(self, ship_id: int) -> Ship:
        """The ship of a seat, or the Ghost Ship for GHOST."""
        return self.hulls[ship_id]

    def fleet(self) -> list[int]:
        """Every ship id in play: the seats, then the Ghost Ship if there is one."""
        ids = list(range(self.players))
        return [*ids, GHOST] if self.ghost is not None else ids

    def hand_limit(self, seat: int) -> int:
        """3 cards, or 4 while the seat holds Morgan's Map (rules 8.2)."""
        return MAP_HAND if MAP in self.ships[seat].powers else HAND

    # ------------------------------------------------------------------ the round (5)

    def _begin_round(self) -> None:
        self.round += 1
        for ship in self.ships:
            ship.revealed = None
        choice, faces = self.rng.choice, DATA.action_faces
        self.rolled = tuple([choice(faces) for _ in range(DATA.action_dice)])
        self._emit("round_started", {"round": self.round, "captain": self.captain,
                                     "dice": list(self.rolled)})
        self._ask_dice()

    def _ask_dice(self) -> None:
        """Step 1: the Captain orders the dice; published even when they are equal."""
        self.phase, self.active = "place_dice", self.captain
        self.morning = self.evening = None
        self._open(self.captain, "place_dice", "Which die is the morning (sun) die?",
                   dice_options(*self.rolled), "_on_dice", window=TURN)

    def _on_dice(self, payload: Mapping[str, int]) -> None:
        """Step 2: every seat chooses a card at once, in one SEALED window."""
        self.morning, self.evening = payload["morning"], payload["evening"]
        self._emit("dice_placed", {"captain": self.captain, "morning": self.morning,
                                   "evening": self.evening})
        self.phase, self.active = "choose_cards", None
        self._open_sealed("choose_card", "Choose the card you play this round",
                          [options_of_hand(tuple(ship.hand)) for ship in self.ships])

    def _on_card(self, seat: int, index: int) -> None:
        ship = self.ships[seat]
        ship.chosen = ship.hand.pop(index)
        del self.sealed[seat]
        self._tell((seat,), "card_chosen", {"seat": seat, "card": ship.chosen}, {"seat": seat})
        if self.sealed:
            return
        self.phase = "resolve"
        self.stack.append(("_end_round",))
        if self.ghost is not None:
            self.stack.append(("_ghost_phase",))
        self.stack += _turn_tasks(self.captain, self.players)

    def _turn(self, seat: int) -> None:
        """Step 3: reveal the card (G7: only now), then morning and evening in order."""
        self.active = seat
        ship = self.ships[seat]
        card = CARDS[ship.chosen]
        ship.revealed, ship.chosen = card.id, None
        ship.discard.append(card.id)
        self._emit("card_revealed", {"seat": seat, "card": card.id, "morning": card.morning,
                                     "evening": card.evening})
        self.morning_hold = -1
        self.stack.append(("_action", seat, EVENING))
        self._action(seat, MORNING)

    def _action(self, seat: int, half: str) -> None:
        ship = self.ships[seat]
        card = CARDS[ship.revealed]
        if half == MORNING:
            symbol, value = card.morning, self.morning
        else:
            symbol, value = card.evening, self.evening
        if ship.lap == FINISHED:
            self._emit("action_ignored", {"seat": seat, "half": half, "symbol": symbol,
                                          "reason": "finished"})
            return
        direction = MOVES.get(symbol)
        if direction is not None:
            self._walk(seat, direction, value, ship.space, ())
            return
        same_card = half == EVENING and card.morning == card.evening
        self._load(seat, symbol, value, half, self.morning_hold if same_card else -1)

    def _end_round(self) -> None:
        """Step 4: the end check, else draws and the compass passes left."""
        if self.finishers or self.round >= self.options["round_cap"]:
            self._game_over("finish" if self.finishers else "round_cap")
            return
        for seat in range(self.players):
            self._draw(seat)
        self.captain = (self.captain + 1) % self.players
        self._emit("round_ended", {"round": self.round, "captain": self.captain})
        self._begin_round()

    def _draw(self, seat: int) -> None:
        """Refill to the hand limit (G19: never discard down), reshuffling an empty deck."""
        ship = self.ships[seat]
        hand = ship.hand
        missing = (MAP_HAND if MAP in ship.powers else HAND) - len(hand)  # `hand_limit`
        if missing <= 0:
            return
        drawn = []
        for _ in range(missing):
            if not ship.deck:
                ship.deck, ship.discard = ship.discard, []
                self.rng.shuffle(ship.deck)
                self._emit("deck_reshuffled", {"seat": seat, "deck_size": len(ship.deck)})
            drawn.append(ship.deck.pop())
        hand += drawn
        hand.sort()
        self._tell((seat,), "cards_drawn", {"seat": seat, "cards": drawn, "hand": hand[:]},
                   {"seat": seat, "count": missing})

    # ------------------------------------------------------------------- loading (6.1)

    def _load(self, seat: int, kind: str, amount: int, half: str, exclude: int) -> None:
        ship = self.ships[seat]
        targets = load_targets(ship, kind, HOLDS, self.options["allow_dump_same_kind"], exclude)
        loads = self._bank_loads(ship, targets, kind, amount)
        if not loads:
            reason = "holds_full" if self.bank[kind] else "bank_empty"
            self._emit("load_cancelled", {"ship": seat, "kind": kind, "reason": reason})
            return
        if len(loads) == 1:
            hold, _, count = loads[0]
            self._stow(seat, kind, count, hold, "bank", half)
            return
        self._open(seat, "load", f"Load {max(c for _, _, c in loads)} {kind}: into which hold?",
                   self._hold_options(ship, loads, kind), "_on_load", (seat, kind, half))

    def _bank_loads(self, ship: Ship, targets: tuple[tuple[int, bool], ...], kind: str,
                    amount: int) -> list[tuple[int, bool, int]]:
        """(hold, must_empty_it_first, count) for each target that gets any token (G20).

        The hold is emptied before the bank gives (rules 6.1.3): with allow_dump_same_kind,
        a hold of `kind` emptied first refills the bank it then loads from.
        """
        kinds, counts, bank = ship.kinds, ship.counts, self.bank[kind]
        loads = []
        for hold, dump in targets:
            count = min(amount, bank + (counts[hold] if kinds[hold] == kind else 0))
            if count:
                loads.append((hold, dump, count))
        return loads

    @staticmethod
    def _hold_options(ship: Ship, loads: list[tuple[int, bool, int]], kind: str) -> tuple:
        """The (hold, must_empty_it_first, count) loads of `kind`, as options."""
        kinds, counts = ship.kinds, ship.counts
        return tuple([hold_option(h, dump, kinds[h], counts[h], kind, count)
                      for h, dump, count in loads])

    def _on_load(self, payload: Mapping[str, Any], seat: int, kind: str, half: str) -> None:
        self._stow(seat, kind, payload["load_count"], payload["hold"], "bank", half)

    def _stow(self, ship_id: int, kind: str, count: int, hold: int, source: str,
              half: str | None) -> None:
        """Empty `hold` into the bank, then put `count` tokens from `source` into it."""
        ship = self.hulls[ship_id]
        emptied = None
        if ship.counts[hold]:
            emptied = {"kind": ship.kinds[hold], "count": ship.counts[hold]}
            self.bank[ship.kinds[hold]] += ship.counts[hold]
        if source == "bank":
            self.bank[kind] -= count
        ship.fill(hold, kind, count)
        if half == MORNING:
            self.morning_hold = hold
        self._emit("loaded", {"ship": ship_id, "kind": kind, "count": count, "hold": hold,
                              "emptied": emptied, "source": source})

    # ------------------------------------------------------------------ the end (9)

    def _game_over(self, reason: str) -> None:
        self.phase, self.active, self.end_reason = "game_over", None, reason
        self.stack.clear()
        scores = [self.score(seat) for seat in range(self.players)]
        keys = [(score, -self.board.steps_left(ship.space, ship.lap))
                for score, ship in zip(scores, self.ships, strict=True)]
        self._outcome = Outcome.from_ranking(keys, scores)
        self._emit("game_over", {
            "reason": reason, "round": self.round, "scores": scores,
            "places": list(self._outcome.places), "finishers": self.finishers[:],
            "treasures": [self.treasure_values(ship) for ship in self.ships],
            "ghost_treasures": self.treasure_values(self.ghost) if self.ghost else None,
        })

    def score(self, seat: int, treasures: bool = True) -> int:
        """Position value + doubloons (+ treasure values), rules 9; powers score nothing."""
        ship = self.ships[seat]
        total = self.board.position_score(ship.space, ship.lap) + ship.total(DATA.score_token)
        return total + sum(self.treasure_values(ship)) if treasures else total

    def treasure_values(self, ship: Ship) -> list[int]:
        """The values of a ship's face-down treasures, sorted so their order tells nothing."""
        return sorted(DATA.treasures[t].value for t in ship.hidden)


@cache
def _turn_tasks(captain: int, players: int) -> tuple[tuple[str, int], ...]:
    """The `_turn` tasks of a round, pushed so that the Captain's pops first, then leftward."""
    order = [(captain + k) % players for k in range(players)]
    return tuple(("_turn", seat) for seat in reversed(order))


@cache
def board_of() -> Board:
    """The track, built once per process from the data files."""
    return Board(load())
