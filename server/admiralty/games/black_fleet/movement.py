"""Ship movement: allowances, blocking and destinations [black_fleet §5.2, §R5.2].

An activation is a sequence of legs: the ship sails to a destination, may act
there, and may sail on with the points left. While it moves it is lifted off the
board's occupancy map, so the space it left counts as free. It may pass through
spaces of friendly ships (the mover's own merchant and pirate, and the navy ships
it moves this turn) but never through other ships, and it may never end its
activation on an occupied space [black_fleet §5.2].
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from admiralty.games.base import Option
from admiralty.games.black_fleet import options

if TYPE_CHECKING:
    from admiralty.games.black_fleet.board import Board
    from admiralty.games.black_fleet.pieces import Ship
    from admiralty.games.black_fleet.state import BlackFleetState


def allowance(state: BlackFleetState, ship: Ship) -> int:
    """Movement points for `ship` this activation: printed value, swaps, minimums,
    additions [black_fleet §R5.2].

    Signal Flags (`move_bonus.next_navy`) applies to the first navy activated after
    it is played, and only to that one (the flow marks it spent when it activates it).
    """
    mods = state.seats[state.active].mods
    current = state.current
    assert current.played is not None, "ships move after the movement card is played"
    card = state.data.movement[current.played]
    if ship.kind == "navy":
        bonus = mods.get("move_bonus.navy", 0)
        signal = 0 if current.next_navy_spent else mods.get("move_bonus.next_navy", 0)
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
    """Where the active ship may sail now, each with the points it costs, in the order
    of the `move_ship` options (`sail_options`)."""
    return {o.payload["space"]: o.payload["steps"] for o in sail_options(state, ship)}


def sail_options(state: BlackFleetState, ship: Ship) -> Sequence[Option]:
    """The options of sailing the active ship to each space it may reach now.

    A breadth-first search through passable spaces within the points left. A free
    space is a destination; a friendly ship's space is one only if a free space can
    still be reached from it, so the ship may pause there to act [black_fleet G9] and
    never gets stuck sharing a space. The options are in the order the search meets
    the spaces.

    This is the engine's hottest query, so most calls are answered from the board's
    precomputed open-sea reach (see `_open_sea`), whose options are made once per start
    and budget; the search runs only when another ship stands close enough to change
    the answer. A random game hands out tens of thousands of the same few hundred
    options, so they are shared, never made again.
    """
    budget = state.current.points
    if budget <= 0:
        return ()
    mods = state.seats[state.active].mods
    pass_all = mods.get(_PASS_ALL[ship.kind], 0)
    start = ship.zone if ship.space is None else ship.space
    assert start is not None, "a ship in play is on a space or in a distant sea"
    if ship.kind == "pirate" and mods.get("lairs_adjacent"):
        links = state.data.board.lair_links
    else:
        removed = _open_sea(state, ship, budget, pass_all)
        if removed is not None:
            board = state.data.board
            made = _OPEN.get((board, start, budget)) or _open_options(board, start, budget)
            if not removed:
                return made[0]
            return [option for space, option in made[1] if space not in removed]
        links = state.data.board.links
    sails = _SAILS
    found = _search(state, links, start, budget, pass_all)
    try:
        return [sails[space][steps] for space, steps in found.items()]
    except (IndexError, KeyError):
        for space, steps in found.items():
            while len(sails) <= space:
                sails.append({})
            if steps not in sails[space]:
                sails[space][steps] = options.move(space, steps)
        return [sails[space][steps] for space, steps in found.items()]


_SAILS: list[dict[int, Option]] = []
"""`_SAILS[space][steps]`: the shared option of sailing `steps` to `space`, made on first use."""
_Made = tuple[tuple[Option, ...], tuple[tuple[int, Option], ...]]
_OPEN: dict[tuple[Board, int | str, int], _Made] = {}
"""`_OPEN[board, start, budget]`: the options of sailing from `start` (a space or a
distant sea) on an empty sea, and the same paired with their spaces."""


def _open_options(board: Board, start: int | str, budget: int) -> _Made:
    """Make `_OPEN[board, start, budget]` from the board's open-sea reach."""
    reach = board.zone_reach[start] if isinstance(start, str) else board.open_reach[start]
    pairs = tuple((space, options.move(space, steps)) for space, steps in reach[budget].items())
    made = _OPEN[board, start, budget] = (tuple(option for _, option in pairs), pairs)
    return made


def _open_sea(state: BlackFleetState, ship: Ship, budget: int, pass_all: int) -> list[int] | None:
    """The spaces to drop from the board's open-sea reach, or None when the search must run.

    On an empty sea the search meets each space first from one space of the layer
    before; the spaces it goes on from like this are the start's *shade*. Another
    ship changes that answer only as follows:

    - `budget` steps away or more: only its own space drops out (the search stops there);
    - nearer and friendly (the mover's own ships and the navy ships it moves, or any
      ship with Raked Masts or Admiralty Contacts [black_fleet §5.2, G11]): the search
      goes through it as through a free space, and
      it stays a destination only if a free space lies beyond it (`_escape`);
    - nearer, blocking, off the shade: its space drops out, and every space beyond
      it is still met first, in the same order, from elsewhere;
    - nearer, blocking, on the shade: the order or the reach may change: search.

    (The moving ship is off `at`; a ship on the space it pauses on is 0 steps away
    and changes nothing, as the search never revisits its start.)
    """
    board = state.data.board
    if ship.space is None:
        zone = ship.zone
        assert zone is not None, "a ship in play is on a space or in a distant sea"
        reach, steps_to = board.zone_reach[zone], board.zone_distance[zone]
        shade = board.zone_shade[zone]
    else:
        reach, steps_to = board.open_reach[ship.space], board.distance[ship.space]
        shade = board.open_shade[ship.space]
    if budget >= len(reach):
        return None  # beyond the precomputed radius: rare, let the search answer
    at = state.at
    removed = []
    for space in at:
        steps = steps_to[space]
        if steps == budget:
            removed.append(space)
        elif steps and steps < budget:
            other = at[space]
            if pass_all or other.owner == state.active or other.navy in state.current.controlled:
                if not _escape(state, board.links, space, budget - steps, pass_all):
                    removed.append(space)
            elif space in shade:
                return None
            else:
                removed.append(space)
    return removed


def _search(
    state: BlackFleetState, links: dict, start: int | str, budget: int, pass_all: int
) -> dict[int, int]:
    """The breadth-first search itself, one layer per step, from a space or a distant sea.

    A space is classified the first time a frontier space lists it, frontier in
    order and neighbours in order: that is the order the options keep.
    """
    active, controlled, at = state.active, state.current.controlled, state.at
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
    active, controlled, at = state.active, state.current.controlled, state.at
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
