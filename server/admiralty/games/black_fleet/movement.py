"""Ship movement: allowances, blocking and destinations (spec §5.2; reconstruction §5.2).

An activation is a sequence of legs: the ship sails to a destination, may act
there, and may sail on with the points left. While it moves it is lifted off the
board's occupancy map, so the space it left counts as free. It may pass through
spaces of friendly ships (the mover's own merchant and pirate, and the navy ships
it moves this turn) but never through other ships, and it may never end its
activation on an occupied space (spec §5.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from admiralty.games.black_fleet.pieces import Player, Ship
    from admiralty.games.black_fleet.state import BlackFleetState


def allowance(state: BlackFleetState, ship: Ship) -> int:
    """Movement points for `ship` this activation: printed value, swaps, minimums, additions.

    Signal Flags (`move_bonus.next_navy`) applies to the first navy activated after
    it is played, and only to that one.
    """
    mods = state.seats[state.active].mods
    card = state.data.movement[state.played]
    if ship.kind == "navy":
        bonus = mods.get("move_bonus.navy", 0)
        signal = 0 if state.next_navy_spent else mods.get("move_bonus.next_navy", 0)
        if signal:
            state.next_navy_spent = True
        return card.navy_move + bonus + signal
    pirate, merchant = card.pirate, card.merchant
    if mods.get("swap_card_values"):
        pirate, merchant = merchant, pirate
    base = merchant if ship.kind == "merchant" else pirate
    base = max(base, mods.get(f"move_min.{ship.kind}", 0))
    return base + mods.get(f"move_bonus.{ship.kind}", 0)


def neighbours(state: BlackFleetState, player: Player, ship: Ship, space: int) -> tuple[int, ...]:
    """Spaces one step from `space` for `ship`: the lairs touch for a pirate with a lair card."""
    board = state.data.board
    near = board.neighbours[space]
    if ship.kind == "pirate" and space in board.lairs and player.mods.get("lairs_adjacent"):
        near += tuple(lair for lair in board.lairs if lair != space)
    return near


_PASS_ALL = {kind: f"pass_all.{kind}" for kind in ("merchant", "pirate", "navy")}


def _passable(state: BlackFleetState, other: Ship, pass_all: int) -> bool:
    """Whether the moving ship may pass through `other` (spec §5.2, §14.11)."""
    return bool(pass_all) or other.owner == state.active or other.navy in state.controlled


def destinations(state: BlackFleetState, ship: Ship) -> dict[int, int]:
    """Where the active ship may sail now, each with the points it costs.

    A breadth-first search through passable spaces within the points left. A free
    space is a destination; a friendly ship's space is one only if a free space can
    still be reached from it, so the ship may pause there to act (spec §14.9) and
    never gets stuck sharing a space. This is the engine's hottest loop, so the
    neighbour lookups are inlined.
    """
    budget = state.points
    if budget <= 0:
        return {}
    player = state.seats[state.active]
    board = state.data.board
    nbrs = board.neighbours
    linked = ship.kind == "pirate" and player.mods.get("lairs_adjacent")
    pass_all = player.mods.get(_PASS_ALL[ship.kind], 0)
    active, controlled, at = state.active, state.controlled, state.at
    if ship.space is None:
        layer, seen = board.zones[ship.zone].entry, set()
    else:
        layer, seen = neighbours(state, player, ship, ship.space), {ship.space}
    out: dict[int, int] = {}
    cost = 1
    while True:
        frontier = []
        for space in layer:
            if space in seen:
                continue
            seen.add(space)
            other = at.get(space)
            if other is None:
                out[space] = cost
                frontier.append(space)
            elif pass_all or other.owner == active or other.navy in controlled:
                frontier.append(space)
                if cost < budget and _escape(state, player, ship, space, budget - cost, pass_all):
                    out[space] = cost
        if cost == budget or not frontier:
            return out
        cost += 1
        if linked:
            layer = [near for space in frontier for near in neighbours(state, player, ship, space)]
        else:
            layer = [near for space in frontier for near in nbrs[space]]


def _escape(
    state: BlackFleetState, player: Player, ship: Ship, start: int, budget: int, pass_all: int
) -> bool:
    """Whether a free space is reachable from the occupied `start` within `budget` steps."""
    at = state.at
    seen = {start}
    frontier = [start]
    for _ in range(budget):
        nxt = []
        for space in frontier:
            for near in neighbours(state, player, ship, space):
                if near in seen:
                    continue
                other = at.get(near)
                if other is None:
                    return True
                seen.add(near)
                if _passable(state, other, pass_all):
                    nxt.append(near)
        frontier = nxt
    return False


def free_destinations(state: BlackFleetState, start: int, steps_allowed: int) -> dict[int, int]:
    """Empty spaces reachable from `start` through empty spaces only, with their steps
    (False Orders, Sea Fog)."""
    board, at = state.data.board, state.at
    found: dict[int, int] = {}
    frontier = [start]
    for steps in range(1, steps_allowed + 1):
        frontier = [
            near
            for space in frontier
            for near in board.neighbours[space]
            if near not in at and near not in found and near != start
        ]
        for space in frontier:
            found.setdefault(space, steps)
    return found
