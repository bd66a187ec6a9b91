"""Fortune card play (spec §5.6; reconstruction §3, §5).

A fortune card is data: an effect kind with parameters (`fortune.toml`). This module
decides when a card may be played, interprets its effect, and lists the targets a
card asks for. Development cards need no code here: their effects are modifiers
merged into `Player.mods`, which the rules read where they apply.

Every choice a card asks for is made by the player who plays it; victims never
choose (reconstruction §3.1), so no card opens an interrupt window.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from admiralty.games.base import Event
from admiralty.games.black_fleet import movement, options
from admiralty.games.black_fleet.stages import Stage

if TYPE_CHECKING:
    from admiralty.games.black_fleet.data import FortuneCard
    from admiralty.games.black_fleet.pieces import Player
    from admiralty.games.black_fleet.state import BlackFleetState, Choice

# -- when a card may be played ------------------------------------------------------------


def window_options(state: BlackFleetState) -> list[Choice]:
    """The fortune plays open in the current window, plus False Colours' swap.

    Asked at every window of every turn, so the cheap tests come first: the window,
    one card per title, then the ships still to activate (worked out once).
    """
    player = state.seats[state.active]
    swap = player.mods.get("swap_own_ships")
    if not player.fortune and not swap:
        return []
    fortune, window = state.data.fortune, state.window
    out: list[Choice] = []
    seen = set()
    waiting = None
    for card_id in player.fortune:
        card = fortune[card_id]
        if window not in card.windows or card.title in seen:
            continue
        if card.before:
            if waiting is None:
                waiting = _waiting_ships(state, player)
            if not _in_time(card.before, waiting, player):
                continue
        if _CAN_PLAY[card.effect](state, player, card):
            seen.add(card.title)
            out.append((options.fortune(card_id, card.title), play, card_id))
    if swap and _may_swap(state, player):
        out.append((options.SWAP, swap_ships, None))
    return out


def _waiting_ships(state: BlackFleetState, player: Player) -> set[str]:
    """The ships still to be activated this turn, by kind (what a card's `before` names)."""
    done = state.activated
    out = set()
    if player.merchant.space is not None and player.merchant.ref not in done:
        out.add("merchant")
    if player.pirate.ref not in done:
        out.add("pirate")
    if any(state.navies[colour].ref not in done for colour in state.controlled):
        out.add("navy")
    return out


def _in_time(before: tuple[str, ...], waiting: set[str], player: Player) -> bool:
    """Whether a card that changes the `before` ships may still be played: none of them
    activated yet, and at least one still to come.

    A merchant off the board all turn (it could not re-enter, spec §14.13) is never
    activated, so it neither blocks nor is helped: Following Sea and Crossed Orders,
    played "before the first of them is activated" (reconstruction §3.2), still help
    the pirate, while a card for the merchant alone has nothing left to change.
    """
    concerned = set(before)
    if player.merchant.space is None:
        concerned.discard("merchant")
    return bool(concerned) and waiting.issuperset(concerned)


def _may_swap(state: BlackFleetState, player: Player) -> bool:
    """False Colours: once per turn in W1-W3, both ships on sea spaces."""
    return (
        bool(player.mods.get("swap_own_ships"))
        and not state.swapped
        and state.window != "start"
        and player.merchant.space is not None
        and player.pirate.space is not None
    )


def _boost_useful(state: BlackFleetState, player: Player, card: FortuneCard) -> bool:
    """Bribed Admiral is pointless when you already move both navy ships."""
    return len(state.controlled) < len(state.navies) or all(
        m.kind != "extra_navy" for m in card.boosts
    )


def _has_targets(state: BlackFleetState, player: Player, card: FortuneCard) -> bool:
    return bool(_TARGETS[card.effect](state, player, card))


def _objective_met(state: BlackFleetState, player: Player, card: FortuneCard) -> bool:
    """An objective's condition, read from the turn's log (reconstruction §5.3)."""
    condition = card.params["condition"]
    if not state.log and condition in _LOGGED:
        return False  # the usual case: nothing done yet this turn
    return _CONDITIONS[condition](state, player, card.params)


def _sold_at_port(state: BlackFleetState, player: Player, params: dict) -> bool:
    return any(
        e[0] == "sale" and e[1] == params["port"] and e[2] >= params["min_cubes"] for e in state.log
    )


def _buried_on_beach(state: BlackFleetState, player: Player, params: dict) -> bool:
    return any(e[0] == "burial" and e[2] and e[1] >= params["min_value"] for e in state.log)


def _sank_merchant(state: BlackFleetState, player: Player, params: dict) -> bool:
    return any(e[0] == "attack" and e[2] for e in state.log)


def _sank_laden_pirate(state: BlackFleetState, player: Player, params: dict) -> bool:
    return any(e[0] == "sinking" and e[2] for e in state.log)


def _pirate_on_lair_with_treasure(state: BlackFleetState, player: Player, params: dict) -> bool:
    pirate = player.pirate
    return pirate.space in state.data.board.lairs and bool(pirate.cargo)


_CONDITIONS: dict[str, Callable] = {
    "sold_at_port": _sold_at_port,
    "buried_on_beach": _buried_on_beach,
    "sank_merchant": _sank_merchant,
    "sank_laden_pirate": _sank_laden_pirate,
    "pirate_on_lair_with_treasure": _pirate_on_lair_with_treasure,
}
"""Objective conditions by name (`condition` in fortune.toml); the log entries are
`("sale", port, cubes)`, `("burial", value, on_beach)`, `("attack", victim, sunk)` and
`("sinking", victim, had_treasure)`."""
_LOGGED = frozenset({"sold_at_port", "buried_on_beach", "sank_merchant", "sank_laden_pirate"})
"""The conditions read only from the turn's log, so never met while it is empty."""


# -- targets -------------------------------------------------------------------------------


def _steal_targets(state: BlackFleetState, player: Player, card: FortuneCard) -> list[int]:
    """The seats a steal card takes from (`each` takes from all of them, without a choice)."""
    others = [p for p in state.seats if p.seat != player.seat]
    source = card.params["source"]
    if source == "richest":
        top = max(p.money for p in others)
        return [p.seat for p in others if p.money == top]
    if source == "victim":
        return sorted({e[1] for e in state.log if e[0] == "attack"})
    return [p.seat for p in others]  # "chosen" and "each"


def _movable_ships(
    state: BlackFleetState, player: Player, card: FortuneCard
) -> list[tuple[str, str | int]]:
    """Ships a free move may shift: a navy, or an opponent's merchant or pirate on the board."""
    steps = card.params["steps"]
    if card.params["target"] == "navy":
        candidates = [("navy", colour, navy.space) for colour, navy in state.navies.items()]
    else:
        candidates = [
            (ship.kind, p.seat, ship.space)
            for p in state.seats
            if p.seat != player.seat
            for ship in (p.merchant, p.pirate)
            if ship.space is not None
        ]
    return [(kind, who) for kind, who, at in candidates if movement.can_sail(state, at, steps)]


def _free_lairs(state: BlackFleetState, player: Player, card: FortuneCard) -> list[int]:
    return [space for space in state.data.board.lairs if space not in state.at]


_TARGETS: dict[str, Callable] = {
    "steal": _steal_targets,
    "free_move": _movable_ships,
    "pirate_to_lair": _free_lairs,
}
_CAN_PLAY: dict[str, Callable] = {
    "boost": _boost_useful,
    "steal": _has_targets,
    "free_move": _has_targets,
    "pirate_to_lair": _has_targets,
    "objective": _objective_met,
}


def target_options(state: BlackFleetState) -> list[Choice]:
    player = state.seats[state.active]
    card = state.data.fortune[state.effect]
    found = _TARGETS[card.effect](state, player, card)
    if card.effect == "steal":
        return [(options.target("seat", seat), steal_from, seat) for seat in found]
    if card.effect == "pirate_to_lair":
        return [(options.target("lair", space), hide_pirate, space) for space in found]
    return [(options.target(kind, who), pick_ship, f"{kind}:{who}") for kind, who in found]


def destination_options(state: BlackFleetState) -> list[Choice]:
    card = state.data.fortune[state.effect]
    start = state.ship_by_ref(state.effect_ship).space
    found = movement.free_destinations(state, start, card.params["steps"])
    return [
        (options.move(space, steps), free_move, (space, steps)) for space, steps in found.items()
    ]


# -- effects -------------------------------------------------------------------------------


def play(state: BlackFleetState, card_id: str, events: list[Event]) -> None:
    """Play a fortune card from the hand: it goes face up to the discard pile, then acts."""
    player = state.seats[state.active]
    card = state.data.fortune[card_id]
    player.fortune.remove(card_id)
    state.fortune_discard.append(card_id)
    events.append(
        Event("fortune_played", {"seat": player.seat, "card": card_id, "title": card.title})
    )
    if card.effect == "boost":
        player.boosts.append(card_id)
        player.refresh(state.data)
        if state.played:
            state.refresh_control()
    elif card.effect == "objective":
        state.pay(player.seat, card.params["reward"], "objective", events)
    elif card.effect == "steal" and card.params["source"] == "each":
        for seat in _steal_targets(state, player, card):
            state.transfer(seat, player.seat, card.params["amount"], "steal", events)
    else:
        state.effect = card_id
        state.stage = Stage.TARGET


def _back_to_window(state: BlackFleetState) -> None:
    state.effect = None
    state.effect_ship = None
    state.stage = Stage.WINDOW


def steal_from(state: BlackFleetState, seat: int, events: list[Event]) -> None:
    card = state.data.fortune[state.effect]
    state.transfer(seat, state.active, card.params["amount"], "steal", events)
    _back_to_window(state)


def hide_pirate(state: BlackFleetState, space: int, events: list[Event]) -> None:
    """Hideout: the pirate goes to a free lair, keeping its treasure."""
    state.place_pirate_on_lair(space, events)
    _back_to_window(state)


def pick_ship(state: BlackFleetState, ref: str, events: list[Event]) -> None:
    state.effect_ship = ref
    state.stage = Stage.DESTINATION


def free_move(state: BlackFleetState, leg: tuple[int, int], events: list[Event]) -> None:
    """False Orders / Sea Fog: not an activation, no action (reconstruction §5.4)."""
    space, steps = leg
    ship = state.ship_by_ref(state.effect_ship)
    origin = ship.space
    state.put(ship, space)
    events.append(
        Event(
            "ship_moved",
            {
                "seat": state.active,
                "ship": ship.ref,
                "from": origin,
                "to": space,
                "steps": steps,
                "card": state.effect,
            },
        )
    )
    _back_to_window(state)


def swap_ships(state: BlackFleetState, _: None, events: list[Event]) -> None:
    """False Colours: the merchant and pirate trade places, keeping their cargo."""
    player = state.seats[state.active]
    merchant, pirate = player.merchant, player.pirate
    merchant.space, pirate.space = pirate.space, merchant.space
    state.at[merchant.space] = merchant
    state.at[pirate.space] = pirate
    state.swapped = True
    events.append(
        Event(
            "ships_swapped",
            {"seat": player.seat, "merchant": merchant.space, "pirate": pirate.space},
        )
    )
