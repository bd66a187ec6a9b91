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
    from admiralty.games.black_fleet.pieces import Ship
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
    base = max(base, mods.get(_MOVE_MIN[ship.kind], 0))
    return base + mods.get(_MOVE_BONUS[ship.kind], 0)


_PASS_ALL = {kind: f"pass_all.{kind}" for kind in ("merchant", "pirate", "navy")}
_MOVE_MIN = {kind: f"move_min.{kind}" for kind in ("merchant", "pirate")}
_MOVE_BONUS = {kind: f"move_bonus.{kind}" for kind in ("merchant", "pirate")}


def destinations(state: BlackFleetState, ship: Ship) -> dict[int, int]:
    """Where the active ship may sail now, each with the points it costs.

    A breadth-first search through passable spaces within the points left. A free
    space is a destination; a friendly ship's space is one only if a free space can
    still be reached from it, so the ship may pause there to act (spec §14.9) and
    never gets stuck sharing a space. The order of the result is the order the
    search meets the spaces (it is the order of the `move_ship` options).

    This is the engine's hottest query, so most calls are answered from the board's
    precomputed open-sea reach (see `_open_sea`); the search runs only when another
    ship stands close enough to change the answer.
    """
    budget = state.points
    if budget <= 0:
        return {}
    mods = state.seats[state.active].mods
    pass_all = mods.get(_PASS_ALL[ship.kind], 0)
    if ship.kind == "pirate" and mods.get("lairs_adjacent"):
        links = state.data.board.lair_links
    else:
        found = _open_sea(state, ship, budget, pass_all)
        if found is not None:
            return found
        links = state.data.board.links
    start = ship.zone if ship.space is None else ship.space
    return _search(state, links, start, budget, pass_all)


def _open_sea(state: BlackFleetState, ship: Ship, budget: int, pass_all: int) -> dict | None:
    """The answer read from the board's open-sea reach, or None when the search must run.

    On an empty sea the search meets each space first from one space of the layer
    before; the spaces it goes on from like this are the start's *shade*. Another
    ship changes that answer only as follows:

    - `budget` steps away or more: only its own space drops out (the search stops there);
    - nearer and friendly: the search goes through it as through a free space, and
      it stays a destination only if a free space lies beyond it (`_escape`);
    - nearer, blocking, off the shade: its space drops out, and every space beyond
      it is still met first, in the same order, from elsewhere;
    - nearer, blocking, on the shade: the order or the reach may change: search.

    (The moving ship is off `at`; a ship on the space it pauses on is 0 steps away
    and changes nothing, as the search never revisits its start.)
    """
    board = state.data.board
    if ship.space is None:
        reach, steps_to = board.zone_reach[ship.zone], board.zone_distance[ship.zone]
        shade = board.zone_shade[ship.zone]
    else:
        reach, steps_to = board.open_reach[ship.space], board.distance[ship.space]
        shade = board.open_shade[ship.space]
    if budget >= len(reach):
        return None  # beyond the precomputed radius: rare, let the search answer
    at = state.at
    out = reach[budget].copy()
    for space in at:
        steps = steps_to[space]
        if steps == budget:
            del out[space]
        elif steps and steps < budget:
            if _friendly(state, at[space], pass_all):
                if not _escape(state, board.links, space, budget - steps, pass_all):
                    del out[space]
            elif space in shade:
                return None
            else:
                del out[space]
    return out


def _friendly(state: BlackFleetState, other: Ship, pass_all: int) -> bool:
    """Whether the moving ship may pass through `other` (spec §5.2, §14.11)."""
    return bool(pass_all) or other.owner == state.active or other.navy in state.controlled


def _search(
    state: BlackFleetState, links: dict, start: int | str, budget: int, pass_all: int
) -> dict[int, int]:
    """The breadth-first search itself, one layer per step, from a space or a distant sea.

    A space is classified the first time a frontier space lists it, frontier in
    order and neighbours in order: that is the order the options keep.
    """
    active, controlled, at = state.active, state.controlled, state.at
    seen = {start}
    frontier = [start]
    out: dict[int, int] = {}
    for cost in range(1, budget + 1):
        layer = []
        for origin in frontier:
            for space in links[origin]:
                if space in seen:
                    continue
                seen.add(space)
                other = at.get(space)
                if other is None:
                    out[space] = cost
                    layer.append(space)
                elif pass_all or other.owner == active or other.navy in controlled:  # friendly
                    layer.append(space)
                    if cost < budget and _escape(state, links, space, budget - cost, pass_all):
                        out[space] = cost
        if not layer:
            break
        frontier = layer
    return out


def _escape(state: BlackFleetState, links: dict, start: int, budget: int, pass_all: int) -> bool:
    """Whether a free space is reachable from the occupied `start` within `budget` steps."""
    active, controlled, at = state.active, state.controlled, state.at
    seen = {start}
    frontier = [start]
    for _ in range(budget):
        nxt = []
        for space in frontier:
            for near in links[space]:
                if near in seen:
                    continue
                other = at.get(near)
                if other is None:
                    return True
                seen.add(near)
                if pass_all or other.owner == active or other.navy in controlled:
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


def can_sail(state: BlackFleetState, start: int, steps_allowed: int) -> bool:
    """Whether `free_destinations` would find anything: a free space next to `start`."""
    at = state.at
    return steps_allowed > 0 and any(near not in at for near in state.data.board.neighbours[start])
