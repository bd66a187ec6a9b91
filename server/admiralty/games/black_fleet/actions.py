"""Ship actions: deliver, top up, attack, bury, sink (spec §5.3-§5.5; reconstruction §5.5).

`options(state, ship)` lists what the active ship may do where it is now; each
option carries its handler. A ship takes one action per activation (spec §13 R1)
unless a card says otherwise: Boarding Party gives the pirate two actions, Dead
Man's Chest lets it bury after attacking, and Armed Merchantman's broadside is not
an action at all. You never attack your own ships (spec §13 R4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from admiralty.games.base import Event
from admiralty.games.black_fleet import options
from admiralty.games.black_fleet.board import Port
from admiralty.games.black_fleet.stages import Stage

if TYPE_CHECKING:
    from admiralty.games.black_fleet.pieces import Player, Ship
    from admiralty.games.black_fleet.state import BlackFleetState, Choice

_ATTACKS = ("attack", "attack_pirate")


def options_for(state: BlackFleetState, ship: Ship) -> list[Choice]:
    """Every action the active `ship` may take on its current space."""
    return _BY_KIND[ship.kind](state, state.seats[state.active], ship)


# -- legality -------------------------------------------------------------------------


def sale_price(player: Player, colour: str, port: Port) -> int:
    """Doubloons per cube `port` pays `player` for `colour`; 0 if it will not buy (spec §5.4)."""
    if port.colour == colour:
        return 0
    mods = player.mods
    base = port.buys.get(colour) or mods.get("sell_anywhere", 0)
    if not base:
        return 0
    charter = mods.get("charter_bonus", 0) if player.charter_port == port.key else 0
    return base + mods.get("sale_bonus", 0) + charter


def _merchant(state: BlackFleetState, player: Player, ship: Ship) -> list[Choice]:
    out: list[Choice] = []
    if not state.acts:
        colour = ship.cargo[0]
        for port in state.data.board.ports_next_to[ship.space]:
            if not state.stock[port.colour]:
                continue  # nothing to load: no delivery here (spec §14.12)
            if sale_price(player, colour, port):
                out.append((options.action("deliver", port.key), deliver, port.key))
            elif (
                port.colour == colour
                and player.mods.get("top_up")
                and len(ship.cargo) < state.capacity(player, "merchant")
            ):
                out.append((options.action("top_up", port.key), top_up, port.key))
    reach = player.mods.get("broadside", 0)
    if reach and not state.broadside_used:
        for seat in _pirates_within(state, ship.space, reach, lairs=False):
            out.append((options.action("broadside", seat), broadside, seat))
    return out


def _may_act(state: BlackFleetState, player: Player, kind: str) -> bool:
    """One action, or two with Boarding Party, or a burial after an attack with Dead Man's Chest."""
    acts = state.acts
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


def _pirate(state: BlackFleetState, player: Player, ship: Ship) -> list[Choice]:
    out: list[Choice] = []
    mods = player.mods
    if (not state.acts or _may_act(state, player, "attack")) and len(ship.cargo) < state.capacity(
        player, "pirate"
    ):
        reach = max(1, mods.get("attack_range.pirate", 0))
        for seat in _merchants_within(state, player, ship.space, reach):
            out.append((options.action("attack", seat), attack, seat))
    if mods.get("pirate_attacks_pirates") and _may_act(state, player, "attack_pirate"):
        for seat in _pirates_within(state, ship.space, 1, lairs=bool(mods.get("lairs_adjacent"))):
            out.append((options.action("attack_pirate", seat), attack_pirate, seat))
    if ship.cargo and _may_act(state, player, "bury") and burial_value(state, player, ship.space):
        out.append((options.action("bury"), bury, None))
    return out


def _navy(state: BlackFleetState, player: Player, ship: Ship) -> list[Choice]:
    if state.acts:
        return []
    reach = max(1, player.mods.get("attack_range.navy", 0))
    seats = _pirates_within(state, ship.space, reach)
    return [(options.action("sink", seat), navy_sink, seat) for seat in seats] if seats else seats


_BY_KIND = {"merchant": _merchant, "pirate": _pirate, "navy": _navy}


def distance(state: BlackFleetState, a: int, b: int, lairs: bool = False) -> int:
    """Steps between two spaces ignoring ships (reconstruction §5.1); `lairs`: the lairs touch."""
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
    """Seats whose merchant the active pirate may attack: in reach and not protected (§5.7)."""
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
    """Seats whose pirate is on the board within `reach` and not hidden on a lair (§5.7)."""
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


def deliver(state: BlackFleetState, port_key: str, events: list[Event]) -> None:
    """Sell the whole cargo, then load the port's colour: one action (spec §5.4)."""
    player = state.seats[state.active]
    ship = player.merchant
    port = state.data.board.ports[port_key]
    colour, cubes = ship.cargo[0], len(ship.cargo)
    price = sale_price(player, colour, port)
    state.return_cubes(ship.cargo)
    ship.cargo = []
    events.append(
        Event(
            "delivered",
            {
                "seat": player.seat,
                "port": port_key,
                "colour": colour,
                "cubes": cubes,
                "price": price,
            },
        )
    )
    state.pay(player.seat, price * cubes, "delivery", events)
    state.load(player, port, events)
    state.log.append(("sale", port_key, cubes))
    state.acts.append("deliver")


def top_up(state: BlackFleetState, port_key: str, events: list[Event]) -> None:
    """Fresh Supplies: load without selling, at the port of the cargo's own colour."""
    player = state.seats[state.active]
    state.load(player, state.data.board.ports[port_key], events)
    state.acts.append("top_up")


def attack(state: BlackFleetState, seat: int, events: list[Event]) -> None:
    """A pirate takes cargo from another player's merchant; an empty merchant sinks (§5.5)."""
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
    events.append(Event("attacked", {**data, "treasure": len(taken[:room]), "sunk": sunk}))
    _pay_for_attack(state, seat, take, events)
    if sunk:
        state.remove(merchant)
        events.append(Event("merchant_sunk", {"seat": seat, "by": pirate.ref}))
    state.log.append(("attack", seat, sunk))
    state.acts.append("attack")


def _pay_for_attack(state: BlackFleetState, victim: int, cubes: int, events: list[Event]) -> None:
    """2 per cube taken (+ Cutthroat Crew), Terror's toll, the victim's Marine Insurance."""
    player = state.seats[state.active]
    reward = state.data.setup.attack_reward * cubes + player.mods.get("attack_bonus", 0)
    state.pay(player.seat, reward, "attack", events)
    state.transfer(victim, player.seat, player.mods.get("attack_toll", 0), "toll", events)
    insurance = state.seats[victim].mods.get("cube_stolen_gain", 0) * cubes
    if insurance:
        state.pay(victim, insurance, "insurance", events)


def sink(state: BlackFleetState, seat: int, by: str, events: list[Event]) -> None:
    """Sink another player's pirate: +2 (+ card bonuses), its treasure back to stock (spec §5.3)."""
    player = state.seats[state.active]
    target = state.seats[seat].pirate
    treasure = list(target.cargo)
    state.remove(target)
    events.append(
        Event(
            "pirate_sunk", {"seat": seat, "by": by, "attacker": player.seat, "treasure": treasure}
        )
    )
    reward = state.data.setup.sink_reward + player.mods.get("sink_bonus", 0)
    state.pay(player.seat, reward, "sinking", events)
    state.log.append(("sinking", seat, bool(treasure)))


def navy_sink(state: BlackFleetState, seat: int, events: list[Event]) -> None:
    sink(state, seat, state.ship.ref, events)
    state.acts.append("sink")


def broadside(state: BlackFleetState, seat: int, events: list[Event]) -> None:
    """Armed Merchantman: once per turn, not an action."""
    sink(state, seat, state.ship.ref, events)
    state.broadside_used = True


def attack_pirate(state: BlackFleetState, seat: int, events: list[Event]) -> None:
    """Letter of Marque: take a treasure cube if there is room, else sink the pirate.

    The cube taken is chosen next (`Stage.CUBE`), by the card's player: a Pirate Lord
    may carry two colours, and victims never choose (reconstruction §3.1).
    """
    player = state.seats[state.active]
    pirate, target = player.pirate, state.seats[seat].pirate
    if target.cargo and len(pirate.cargo) < state.capacity(player, "pirate"):
        state.effect_ship = target.ref
        state.stage = Stage.CUBE
    else:
        sink(state, seat, pirate.ref, events)
    state.acts.append("attack_pirate")


def cube_options(state: BlackFleetState) -> list[Choice]:
    """The colours Letter of Marque may take from the robbed pirate (one option per colour)."""
    cargo = state.ship_by_ref(state.effect_ship).cargo
    return [(options.target("cube", colour), rob, colour) for colour in dict.fromkeys(cargo)]


def rob(state: BlackFleetState, colour: str, events: list[Event]) -> None:
    """Move one `colour` cube from the robbed pirate into the hold; +2, as for an attack."""
    player = state.seats[state.active]
    target = state.ship_by_ref(state.effect_ship)
    target.cargo.remove(colour)
    player.pirate.cargo.append(colour)
    events.append(
        Event("pirate_robbed", {"seat": player.seat, "victim": target.owner, "colour": colour})
    )
    state.pay(player.seat, state.data.setup.attack_reward, "attack", events)
    state.effect_ship = None
    state.stage = Stage.ACTIVATION


def bury(state: BlackFleetState, _: None, events: list[Event]) -> None:
    """Bury all treasure aboard: beach value per cube, cubes back to stock (spec §5.5)."""
    player = state.seats[state.active]
    pirate = player.pirate
    value = burial_value(state, player, pirate.space)
    cubes = len(pirate.cargo)
    state.return_cubes(pirate.cargo)
    pirate.cargo = []
    events.append(
        Event(
            "buried", {"seat": player.seat, "space": pirate.space, "cubes": cubes, "value": value}
        )
    )
    state.pay(player.seat, value * cubes + player.mods.get("bury_bonus", 0), "burial", events)
    on_beach = pirate.space in state.data.board.beaches
    state.log.append(("burial", value, on_beach))
    state.acts.append("bury")
