"""Moving ships (rules 6.2), arriving (6.2.6), paying (6.3), shortage (6.4), the Ghost (10).

A mixin over `JamaicaState`: it reads and writes the state's ships, bank and stack.
A move walks one step at a time so that a fork (or a merge, going backward) can stop it
for the mover's choice (G8) and a finish stops it at once (rules 6.2.5).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from admiralty.games.base import Window
from admiralty.games.jamaica.board import FINISHED
from admiralty.games.jamaica.options import GHOST_DIRECTIONS, pay_option, target_option
from admiralty.games.jamaica.ships import Ship, payment_plans, smallest_first
from admiralty.games.jamaica.treasures import DATA, GHOST, Treasures


class Movement(Treasures):
    """Moves, arrivals, costs, shortages and the Ghost Ship's phase."""

    def mover(self, ship_id: int) -> int:
        """Who steers a ship: its player, or the Captain for the Ghost Ship (I-7)."""
        return self.captain if ship_id == GHOST else ship_id

    # ------------------------------------------------------------------- moving (6.2)

    def _walk(self, ship_id: int, direction: int, steps: int, origin: int, path: tuple) -> None:
        ship = self.ship(ship_id)
        board = self.board
        table, port_royal = board.successors[direction], board.port_royal
        while steps:
            space = ship.space
            nexts = table[space]
            if len(nexts) > 1:
                self._open(self.mover(ship_id), "fork", "Which way at the fork?",
                           board.branch_options[space, direction], "_on_branch",
                           (ship_id, direction, steps, origin, path))
                return
            to = nexts[0]
            path += (to,)
            if space == port_royal or to == port_royal:
                steps = self._step(ship, to, direction, steps)
            else:  # the lap state only changes at Port Royal: skip `_step` on the hot path
                ship.space = to
                steps -= 1
        self._moved(ship_id, direction, origin, path)

    def _on_branch(self, payload: Mapping[str, Any], ship_id: int, direction: int, steps: int,
                   origin: int, path: tuple) -> None:
        to = payload["space"]
        steps = self._step(self.ship(ship_id), to, direction, steps)
        self._walk(ship_id, direction, steps, origin, (*path, to))

    def _step(self, ship: Ship, to: int, direction: int, steps: int) -> int:
        """One step; the steps left, none once the ship finishes (rules 6.2.5)."""
        ship.lap = self.board.step(ship.space, ship.lap, to, direction)
        ship.space = to
        return 0 if ship.lap == FINISHED else steps - 1

    def _moved(self, ship_id: int, direction: int, origin: int, path: tuple) -> None:
        ship = self.ship(ship_id)
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
        space = self.ship(ship_id).space
        if space == self.board.port_royal:
            return
        self.stack.append(("_settle", ship_id))
        foes = [i for i, ship in enumerate(self.ships) if ship.space == space and i != ship_id]
        if self.ghost is not None and ship_id != GHOST and self.ghost.space == space:
            foes.append(GHOST)
        if len(foes) == 1:
            self._start_combat(ship_id, foes[0])
        elif foes:
            self._open(self.mover(ship_id), "target", "Several ships here: which do you attack?",
                       tuple(target_option(i) for i in foes), "_on_target", (ship_id,))

    def _on_target(self, payload: Mapping[str, int], ship_id: int) -> None:
        self._start_combat(ship_id, payload["target"])

    def _settle(self, ship_id: int) -> None:
        """Pay the space (6.3): a lair's treasure, a port's doubloons, a sea space's food."""
        ship = self.ship(ship_id)
        board, space = self.board, ship.space
        if space in self.lairs:
            self._draw_treasure(ship_id, space)
            return
        kind = board.pays[space]
        if kind is None or ship_id == GHOST or not board.cost[space]:
            return
        cost, have = board.cost[space], ship.total(kind)
        if have < cost:
            self._shortage(ship_id, kind, cost, have)
            return
        plans = payment_plans(ship, kind, cost, DATA.holds)
        if len(plans) == 1:
            self._pay(ship_id, kind, plans[0])
            return
        self._open(ship_id, "pay", f"Pay {cost} {kind}: from which holds?",
                   tuple(pay_option(plan) for plan in plans), "_on_pay", (ship_id, kind))

    def _on_pay(self, payload: Mapping[str, Any], ship_id: int, kind: str) -> None:
        amounts = [0] * len(self.ship(ship_id).counts)
        for hold, amount in zip(payload["holds"], payload["amounts"], strict=True):
            amounts[hold] = amount
        self._pay(ship_id, kind, tuple(amounts))

    def _pay(self, ship_id: int, kind: str, amounts: tuple[int, ...]) -> None:
        ship = self.ship(ship_id)
        for hold, amount in enumerate(amounts):
            if amount:
                ship.take(hold, amount)
        self.bank[kind] += sum(amounts)
        holds = [h for h, a in enumerate(amounts) if a]
        self._emit("paid", {"ship": ship_id, "space": ship.space, "kind": kind,
                            "amount": sum(amounts), "holds": holds,
                            "amounts": [amounts[h] for h in holds]})

    # ----------------------------------------------------------------- shortage (6.4)

    def _shortage(self, ship_id: int, kind: str, cost: int, have: int) -> None:
        """Pay everything of that kind, then retreat to the first space that can be paid."""
        ship = self.ship(ship_id)
        for hold, amount in enumerate(smallest_first(ship, kind, have)):
            if amount:
                ship.take(hold, amount)
        self.bank[kind] += have
        self._emit("shortage", {"ship": ship_id, "space": ship.space, "kind": kind,
                                "cost": cost, "paid": have})
        self._retreat(ship_id, ship.space, ())

    def _retreat(self, ship_id: int, origin: int, path: tuple) -> None:
        ship = self.ship(ship_id)
        table = self.board.successors[-1]
        while True:
            nexts = table[ship.space]
            if len(nexts) > 1:
                self._open(ship_id, "fork", "Retreating: which way at the fork?",
                           self.board.branch_options[ship.space, -1], "_on_retreat_branch",
                           (ship_id, origin, path))
                return
            self._step(ship, nexts[0], -1, 1)
            path += (nexts[0],)
            if self._payable(ship):
                break
        self._retreated(ship_id, origin, path)

    def _on_retreat_branch(self, payload: Mapping[str, Any], ship_id: int, origin: int,
                           path: tuple) -> None:
        ship = self.ship(ship_id)
        to = payload["space"]
        self._step(ship, to, -1, 1)
        if self._payable(ship):
            self._retreated(ship_id, origin, (*path, to))
        else:
            self._retreat(ship_id, origin, (*path, to))

    def _payable(self, ship: Ship) -> bool:
        """A lair, Port Royal (G12: the retreat stops there at the latest) or affordable."""
        kind = self.board.pays[ship.space]
        return kind is None or ship.total(kind) >= self.board.cost[ship.space]

    def _retreated(self, ship_id: int, origin: int, path: tuple) -> None:
        ship = self.ship(ship_id)
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
        if all(ghost < other for other in others):
            self._ghost_sail(-1, half, "first")
        elif all(ghost > other for other in others):
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
