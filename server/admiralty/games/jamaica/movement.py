"""Moving ships (rules 6.2), arriving (6.2.6), paying (6.3), shortage (6.4), the Ghost (10).

A mixin over `JamaicaState`: it reads and writes the state's ships, bank and stack.
A move walks one step at a time so that a fork (or a merge, going backward) can stop it
for the mover's choice (G8) and a finish stops it at once (rules 6.2.5).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from admiralty.games.base import Option, Window
from admiralty.games.jamaica.board import FINISHED
from admiralty.games.jamaica.options import GHOST_DIRECTIONS, pay_option, target_option
from admiralty.games.jamaica.ships import Ship, payment_plans
from admiralty.games.jamaica.treasures import DATA, GHOST, Treasures

HOLDS = DATA.holds


@lru_cache(maxsize=1 << 14)
def pay_choices(holds: tuple[int, ...], counts: tuple[int, ...], size: int, cost: int
                ) -> tuple[Option, ...]:
    """The `pay` options of `payment_plans`, which depend only on where the kind to pay lies
    and how much of it: random play repeats these (three calls in four are answered here
    in fresh games), so they are worked out once."""
    return tuple(pay_option(plan) for plan in payment_plans(holds, counts, size, cost, HOLDS))


class Movement(Treasures):
    """Moves, arrivals, costs, shortages and the Ghost Ship's phase."""

    def mover(self, ship_id: int) -> int:
        """Who steers a ship: its player, or the Captain for the Ghost Ship (I-7)."""
        return self.captain if ship_id == GHOST else ship_id

    # ------------------------------------------------------------------- moving (6.2)

    def _walk(self, ship_id: int, direction: int, steps: int, origin: int, path: tuple) -> None:
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
                self._open(self.mover(ship_id), "fork", "Which way at the fork?",
                           board.branch_options[space, direction], "_on_branch",
                           (ship_id, direction, steps, origin, path))
                return
            path += nexts
            steps = self._step(ship, nexts[0], direction, steps)
        self._moved(ship_id, direction, origin, path)

    def _on_branch(self, payload: Mapping[str, Any], ship_id: int, direction: int, steps: int,
                   origin: int, path: tuple) -> None:
        to = payload["space"]
        steps = self._step(self.hulls[ship_id], to, direction, steps)
        self._walk(ship_id, direction, steps, origin, (*path, to))

    def _step(self, ship: Ship, to: int, direction: int, steps: int) -> int:
        """One step; the steps left, none once the ship finishes (rules 6.2.5)."""
        ship.lap = self.board.step(ship.space, ship.lap, to, direction)
        ship.space = to
        return 0 if ship.lap == FINISHED else steps - 1

    def _moved(self, ship_id: int, direction: int, origin: int, path: tuple) -> None:
        ship = self.hulls[ship_id]
        self._emit("moved", {"ship": ship_id, "direction": direction, "from": origin,
                             "to": ship.space, "path": list(path), "lap": ship.lap})
        if ship.lap == FINISHED:
            if ship_id != GHOST:
                self.finishers.append(ship_id)
            self._emit("finished", {"ship": ship_id, "round": self.round})
        self._arrive(ship_id)

    # ---------------------------------------------------------------- arriving (6.2.6)

    def _arrive(self, ship_id: int) -> None:
        """Combat first if the space holds other ships (not at Port Royal), then the cost."""
        space = self.hulls[ship_id].space
        if space == self.board.port_royal:
            return
        foes = []
        for seat, ship in enumerate(self.ships):  # a loop, not a comprehension: hot in 3.11
            if ship.space == space and seat != ship_id:
                foes.append(seat)
        ghost = self.ghost
        if ghost is not None and ship_id != GHOST and ghost.space == space:
            foes.append(GHOST)
        if not foes:
            self._settle(ship_id)  # what the task would do next: run it now
            return
        self.stack.append(("_settle", ship_id))
        if len(foes) == 1:
            self._start_combat(ship_id, foes[0])
        else:
            self._open(self.mover(ship_id), "target", "Several ships here: which do you attack?",
                       tuple(target_option(i) for i in foes), "_on_target", (ship_id,))

    def _on_target(self, payload: Mapping[str, int], ship_id: int) -> None:
        self._start_combat(ship_id, payload["target"])

    def _settle(self, ship_id: int) -> None:
        """Pay the space (6.3): a lair's treasure, a port's doubloons, a sea space's food."""
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
        options = pay_choices(tuple(holds), tuple(held), len(ship.counts), cost)
        if len(options) == 1:
            self._on_pay(options[0].payload, ship_id, kind)
            return
        self._open(ship_id, "pay", f"Pay {cost} {kind}: from which holds?", options, "_on_pay",
                   (ship_id, kind))

    def _on_pay(self, payload: Mapping[str, Any], ship_id: int, kind: str) -> None:
        """Take the payload's amounts from its holds (a payload is shared: copy its lists)."""
        ship = self.hulls[ship_id]
        holds, amounts = payload["holds"], payload["amounts"]
        for hold, amount in zip(holds, amounts, strict=True):
            ship.take(hold, amount)
        paid = sum(amounts)
        self.bank[kind] += paid
        self._emit("paid", {"ship": ship_id, "space": ship.space, "kind": kind,
                            "amount": paid, "holds": holds[:], "amounts": amounts[:]})

    # ----------------------------------------------------------------- shortage (6.4)

    def _shortage(self, ship_id: int, kind: str, cost: int) -> None:
        """Pay everything of that kind, then retreat to the first space that can be paid."""
        ship = self.hulls[ship_id]
        paid = 0
        for hold, held in enumerate(ship.kinds):
            if held == kind:
                paid += ship.counts[hold]
                ship.fill(hold, None, 0)
        self.bank[kind] += paid
        self._emit("shortage", {"ship": ship_id, "space": ship.space, "kind": kind,
                                "cost": cost, "paid": paid})
        self._retreat(ship_id, ship.space, ())

    def _retreat(self, ship_id: int, origin: int, path: tuple) -> None:
        ship = self.hulls[ship_id]
        board = self.board
        table, port_royal = board.successors[-1], board.port_royal
        while True:
            space = ship.space
            nexts = table[space]
            if len(nexts) > 1:
                self._open(ship_id, "fork", "Retreating: which way at the fork?",
                           board.branch_options[space, -1], "_on_retreat_branch",
                           (ship_id, origin, path))
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

    def _on_retreat_branch(self, payload: Mapping[str, Any], ship_id: int, origin: int,
                           path: tuple) -> None:
        ship = self.hulls[ship_id]
        to = payload["space"]
        self._step(ship, to, -1, 1)
        if self._payable(ship):
            self._retreated(ship_id, origin, (*path, to))
        else:
            self._retreat(ship_id, origin, (*path, to))

    def _payable(self, ship: Ship) -> bool:
        """A lair, Port Royal (G12: the retreat stops there at the latest) or affordable."""
        space = ship.space
        kind = self.board.pays[space]
        return kind is None or ship.total(kind) >= self.board.cost[space]

    def _retreated(self, ship_id: int, origin: int, path: tuple) -> None:
        ship = self.hulls[ship_id]
        self._emit("retreated", {"ship": ship_id, "from": origin, "to": ship.space,
                                 "path": list(path), "lap": ship.lap})
        self._arrive(ship_id)

    # --------------------------------------------------------------- the Ghost Ship (10)

    def _ghost_phase(self) -> None:
        """After every player's turn the Captain sails the Ghost: morning die, then evening."""
        self.phase, self.active = "ghost", self.captain
        self.stack.append(("_ghost_move", "evening"))
        self._ghost_move("morning")

    def _ghost_move(self, half: str) -> None:
        """First in the race sails backward, last forward; else the Captain chooses (G25)."""
        board = self.board
        ghost = board.steps_left(self.ghost.space, self.ghost.lap)
        others = [board.steps_left(ship.space, ship.lap) for ship in self.ships]
        if ghost < min(others):
            self._ghost_sail(-1, half, "first")
        elif ghost > max(others):
            self._ghost_sail(1, half, "last")
        else:
            self._open(self.captain, "ghost_direction", "Which way does the Ghost Ship sail?",
                       GHOST_DIRECTIONS, "_on_ghost_direction", (half,), window=Window.TURN)

    def _on_ghost_direction(self, payload: Mapping[str, str], half: str) -> None:
        self._ghost_sail(1 if payload["direction"] == "forward" else -1, half, "captain")

    def _ghost_sail(self, direction: int, half: str, reason: str) -> None:
        steps = self.morning if half == "morning" else self.evening
        self._emit("ghost_sails", {"half": half, "direction": direction, "steps": steps,
                                   "reason": reason})
        self._walk(GHOST, direction, steps, self.ghost.space, ())
