"""Ship actions: deliver, top up, attack, bury, sink [black_fleet §5.3, §5.4, §5.5, §R5.5].

`options_for(state, ship)` lists what the active ship may do where it is now, as
options whose payload names the action (`action`) and its port or seat. `EFFECTS`
carries each action out on the table and returns the deed the turn's log keeps; the
flow records the action itself. A ship takes one action per activation
[black_fleet §13] R1 unless a card says otherwise: Boarding Party gives the pirate two
actions, Dead Man's Chest lets it bury after attacking, and Armed Merchantman's
broadside is not an action at all. You never attack your own ships [black_fleet §13] R4.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from admiralty.games.base import Option
from admiralty.games.black_fleet import options
from admiralty.games.black_fleet.board import Port
from admiralty.games.black_fleet.turn import Attack, Burial, Deed, Sale, Sinking

if TYPE_CHECKING:
    from admiralty.games.black_fleet.pieces import Player, Ship
    from admiralty.games.black_fleet.state import BlackFleetState

_ATTACKS = ("attack", "attack_pirate")


def options_for(state: BlackFleetState, ship: Ship) -> list[Option]:
    """Every action the active `ship` may take on its current space (none off the board)."""
    space = ship.space
    if space is None:
        return []
    return BY_KIND[ship.kind](state, state.seats[state.active], ship, space)


# -- legality -------------------------------------------------------------------------


def sale_price(player: Player, colour: str, port: Port) -> int:
    """Doubloons per cube `port` pays `player` for `colour`; 0 if it will not buy
    [black_fleet §5.4]."""
    if port.colour == colour:
        return 0
    mods = player.mods
    base = port.buys.get(colour) or mods.get("sell_anywhere", 0)
    if not base:
        return 0
    charter = mods.get("charter_bonus", 0) if player.charter_port == port.key else 0
    return base + mods.get("sale_bonus", 0) + charter


def _merchant(state: BlackFleetState, player: Player, ship: Ship, space: int) -> list[Option]:
    out: list[Option] = []
    current = state.current
    if not current.acts:
        colour = ship.cargo[0]
        for port in state.data.board.ports_next_to[space]:
            if not state.stock[port.colour]:
                continue  # nothing to load: no delivery here [black_fleet G12]
            if sale_price(player, colour, port):
                out.append(options.action("deliver", port.key))
            elif (
                port.colour == colour
                and player.mods.get("top_up")
                and len(ship.cargo) < state.capacity(player, "merchant")
            ):
                out.append(options.action("top_up", port.key))
    reach = player.mods.get("broadside", 0)
    if reach and not current.broadside_used:
        for seat in _pirates_within(state, space, reach, lairs=False):
            out.append(options.action("broadside", seat))
    return out


def _may_act(state: BlackFleetState, player: Player, kind: str) -> bool:
    """One action, or two with Boarding Party, or a burial after an attack with Dead Man's Chest."""
    acts = state.current.acts
    if not acts:
        return True
    if len(acts) >= 2:
        return False
    mods = player.mods
    if mods.get("pirate_actions", 1) >= 2:
        return True
    return kind == "bury" and bool(mods.get("bury_after_attack")) and acts[0] in _ATTACKS


def burial_value(state: BlackFleetState, player: Player, space: int) -> int:
    """The doubloons per cube for burying on `space`: a beach, or a lair with a lair card."""
    board = state.data.board
    value = board.beaches.get(space, 0)
    if not value and space in board.lairs:
        value = player.mods.get("lair_beach", 0)
    return value


def _pirate(state: BlackFleetState, player: Player, ship: Ship, space: int) -> list[Option]:
    out: list[Option] = []
    mods = player.mods
    may_attack = not state.current.acts or _may_act(state, player, "attack")
    if may_attack and len(ship.cargo) < state.capacity(player, "pirate"):
        reach = max(1, mods.get("attack_range.pirate", 0))
        for seat in _merchants_within(state, player, space, reach):
            out.append(options.action("attack", seat))
    if mods.get("pirate_attacks_pirates") and _may_act(state, player, "attack_pirate"):
        for seat in _pirates_within(state, space, 1, lairs=bool(mods.get("lairs_adjacent"))):
            out.append(options.action("attack_pirate", seat))
    if ship.cargo and _may_act(state, player, "bury") and burial_value(state, player, space):
        out.append(options.action("bury"))
    return out


def _navy(state: BlackFleetState, player: Player, ship: Ship, space: int) -> list[Option]:
    if state.current.acts:
        return []
    reach = max(1, player.mods.get("attack_range.navy", 0))
    seats = _pirates_within(state, space, reach)
    return [options.action("sink", seat) for seat in seats] if seats else []


BY_KIND = {"merchant": _merchant, "pirate": _pirate, "navy": _navy}
"""`options_for` by ship kind, called with the ship's player and space."""


def distance(state: BlackFleetState, a: int, b: int, lairs: bool = False) -> int:
    """Steps between two spaces ignoring ships [black_fleet §R5.1]; `lairs`: the lairs touch."""
    board = state.data.board
    dist = board.distance
    best = dist[a][b]
    if lairs:
        for one in board.lairs:
            for other in board.lairs:
                if one != other:
                    best = min(best, dist[a][one] + 1 + dist[other][b])
    return best


def _merchants_within(state: BlackFleetState, player: Player, space: int, reach: int) -> list[int]:
    """Seats whose merchant the active pirate may attack: in reach and not protected
    [black_fleet §R5.7]."""
    lairs = bool(player.mods.get("lairs_adjacent"))
    board = state.data.board
    ports_next_to, steps_to, active = board.ports_next_to, board.distance[space], state.active
    out = []
    for other in state.seats:
        target = other.merchant.space
        if other.seat == active or target is None:
            continue
        if (distance(state, space, target, True) if lairs else steps_to[target]) > reach:
            continue
        mods = other.mods
        if mods.get("merchant_immune") or (
            mods.get("immune_next_to_port") and ports_next_to[target]
        ):
            continue
        out.append(other.seat)
    return out


def _pirates_within(
    state: BlackFleetState, space: int, reach: int, lairs: bool = False
) -> list[int]:
    """Seats whose pirate is on the board within `reach` and not hidden on a lair
    [black_fleet §R5.7]."""
    board = state.data.board
    board_lairs, steps_to, active = board.lairs, board.distance[space], state.active
    out = []
    for other in state.seats:
        target = other.pirate.space
        if other.seat == active or target is None:
            continue
        if (distance(state, space, target, True) if lairs else steps_to[target]) > reach:
            continue
        if other.mods.get("immune_on_lair") and target in board_lairs:
            continue
        out.append(other.seat)
    return out


# -- effects --------------------------------------------------------------------------


def deliver(state: BlackFleetState, port_key: str) -> Sale:
    """Sell the whole cargo, then load the port's colour: one action [black_fleet §5.4]."""
    player = state.seats[state.active]
    ship = player.merchant
    port = state.data.board.ports[port_key]
    colour, cubes = ship.cargo[0], len(ship.cargo)
    price = sale_price(player, colour, port)
    state.return_cubes(ship.cargo)
    ship.cargo = []
    state.flow.emit(
        "delivered",
        {"seat": player.seat, "port": port_key, "colour": colour, "cubes": cubes, "price": price},
    )
    state.pay(player.seat, price * cubes, "delivery")
    state.load(player, port)
    return Sale(port_key, cubes)


def top_up(state: BlackFleetState, port_key: str) -> None:
    """Fresh Supplies: load without selling, at the port of the cargo's own colour."""
    state.load(state.seats[state.active], state.data.board.ports[port_key])


def attack(state: BlackFleetState, seat: int) -> Attack:
    """A pirate takes cargo from another player's merchant; an empty merchant sinks
    [black_fleet §5.5]."""
    player = state.seats[state.active]
    pirate, merchant = player.pirate, state.seats[seat].merchant
    take = min(len(merchant.cargo), max(1, player.mods.get("attack_takes", 1)))
    taken = merchant.cargo[-take:]
    del merchant.cargo[-take:]
    room = state.capacity(player, "pirate") - len(pirate.cargo)
    pirate.cargo += taken[:room]
    state.return_cubes(taken[room:])  # Double Raid: what the hold cannot keep
    sunk = not merchant.cargo
    data = {"seat": player.seat, "victim": seat, "colour": taken[0], "cubes": take}
    state.flow.emit("attacked", {**data, "treasure": len(taken[:room]), "sunk": sunk})
    _pay_for_attack(state, seat, take)
    if sunk:
        state.remove(merchant)
        state.flow.emit("merchant_sunk", {"seat": seat, "by": pirate.ref})
    return Attack(seat, sunk)


def _pay_for_attack(state: BlackFleetState, victim: int, cubes: int) -> None:
    """2 per cube taken (+ Cutthroat Crew), Terror's toll, the victim's Marine Insurance."""
    player = state.seats[state.active]
    reward = state.data.setup.attack_reward * cubes + player.mods.get("attack_bonus", 0)
    state.pay(player.seat, reward, "attack")
    state.transfer(victim, player.seat, player.mods.get("attack_toll", 0), "toll")
    insurance = state.seats[victim].mods.get("cube_stolen_gain", 0) * cubes
    if insurance:
        state.pay(victim, insurance, "insurance")


def sink(state: BlackFleetState, seat: int) -> Sinking:
    """The active ship sinks another player's pirate: +2 (+ card bonuses), its treasure
    back to stock [black_fleet §5.3]. A navy's sinking, Armed Merchantman's broadside
    and Letter of Marque against a pirate with no cube to take."""
    player = state.seats[state.active]
    target = state.seats[seat].pirate
    treasure = list(target.cargo)
    state.remove(target)
    ship = state.current.ship
    assert ship is not None, "a sinking is an action of the ship being activated"
    state.flow.emit(
        "pirate_sunk", {"seat": seat, "by": ship.ref, "attacker": player.seat, "treasure": treasure}
    )
    reward = state.data.setup.sink_reward + player.mods.get("sink_bonus", 0)
    state.pay(player.seat, reward, "sinking")
    return Sinking(seat, bool(treasure))


def may_rob(state: BlackFleetState, seat: int) -> bool:
    """Letter of Marque takes a treasure cube if the robbed pirate has one and the hold
    has room; otherwise it sinks the pirate."""
    player = state.seats[state.active]
    return bool(state.seats[seat].pirate.cargo) and len(player.pirate.cargo) < state.capacity(
        player, "pirate"
    )


def cube_options(state: BlackFleetState, seat: int) -> tuple[Option, ...]:
    """The colours Letter of Marque may take from seat `seat`'s pirate (one per colour):
    its player chooses, victims never do [black_fleet §R3.1]."""
    cargo = state.seats[seat].pirate.cargo
    return tuple([options.target("cube", colour) for colour in dict.fromkeys(cargo)])


def rob(state: BlackFleetState, seat: int, colour: str) -> None:
    """Move one `colour` cube from seat `seat`'s pirate into the hold; +2, as for an attack."""
    player = state.seats[state.active]
    state.seats[seat].pirate.cargo.remove(colour)
    player.pirate.cargo.append(colour)
    state.flow.emit("pirate_robbed", {"seat": player.seat, "victim": seat, "colour": colour})
    state.pay(player.seat, state.data.setup.attack_reward, "attack")


def bury(state: BlackFleetState, _: Any = None) -> Burial:
    """Bury all treasure aboard: beach value per cube, cubes back to stock [black_fleet §5.5]."""
    player = state.seats[state.active]
    pirate = player.pirate
    assert pirate.space is not None, "a pirate buries on a space"
    value = burial_value(state, player, pirate.space)
    cubes = len(pirate.cargo)
    state.return_cubes(pirate.cargo)
    pirate.cargo = []
    state.flow.emit(
        "buried", {"seat": player.seat, "space": pirate.space, "cubes": cubes, "value": value}
    )
    state.pay(player.seat, value * cubes + player.mods.get("bury_bonus", 0), "burial")
    return Burial(value, pirate.space in state.data.board.beaches)


EFFECTS: dict[str, Callable[[BlackFleetState, Any], Deed | None]] = {
    "deliver": deliver,
    "top_up": top_up,
    "attack": attack,
    "attack_pirate": sink,  # with no cube to take (`may_rob`); else the flow asks which
    "sink": sink,
    "broadside": sink,  # Armed Merchantman: once per turn, not an action
    "bury": bury,
}
"""Each action by the `action` of its option's payload, called with the option's port
or seat: it changes the table and returns the deed the turn's log keeps."""
