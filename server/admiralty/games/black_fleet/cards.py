"""Fortune card play [black_fleet §5.6, §R3, §R5].

A fortune card is data: an effect kind with parameters (`fortune.toml`). This module
decides when a card may be played, interprets its effect, and lists the targets a
card asks for; the flow (`state.py`) asks for them. Development cards need no code here:
their effects are modifiers merged into `Player.mods`, which the rules read where they
apply.

Every choice a card asks for is made by the player who plays it; victims never
choose [black_fleet §R3.1], so no card opens an interrupt window.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from admiralty.games.base import Option
from admiralty.games.black_fleet import movement, options
from admiralty.games.black_fleet.turn import Attack, Burial, Sale, Sinking

if TYPE_CHECKING:
    from admiralty.games.black_fleet.data import FortuneCard
    from admiralty.games.black_fleet.pieces import Player
    from admiralty.games.black_fleet.state import BlackFleetState

# -- when a card may be played ------------------------------------------------------------


def window_options(state: BlackFleetState, window: str) -> list[Option]:
    """The fortune plays open in `window`, plus False Colours' swap.

    Asked at every window of every turn, so the cheap tests come first: the window,
    one card per title, then the ships still to activate (worked out once).
    """
    player = state.seats[state.active]
    swap = player.mods.get("swap_own_ships")
    if not player.fortune and not swap:
        return []
    fortune = state.data.fortune
    out: list[Option] = []
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
            out.append(options.fortune(card_id, card.title))
    if swap and _may_swap(state, player, window):
        out.append(options.SWAP)
    return out


def _waiting_ships(state: BlackFleetState, player: Player) -> set[str]:
    """The ships still to be activated this turn, by kind (what a card's `before` names)."""
    current = state.current
    done = current.activated
    out = set()
    if player.merchant.space is not None and player.merchant.ref not in done:
        out.add("merchant")
    if player.pirate.ref not in done:
        out.add("pirate")
    if any(state.navies[colour].ref not in done for colour in current.controlled):
        out.add("navy")
    return out


def _in_time(before: tuple[str, ...], waiting: set[str], player: Player) -> bool:
    """Whether a card that changes the `before` ships may still be played: none of them
    activated yet, and at least one still to come.

    A merchant off the board all turn (it could not re-enter, [black_fleet G13]) is never
    activated, so it neither blocks nor is helped: Following Sea and Crossed Orders,
    played "before the first of them is activated" [black_fleet §R3.2], still help
    the pirate, while a card for the merchant alone has nothing left to change.
    """
    concerned = set(before)
    if player.merchant.space is None:
        concerned.discard("merchant")
    return bool(concerned) and waiting.issuperset(concerned)


def _may_swap(state: BlackFleetState, player: Player, window: str) -> bool:
    """False Colours: once per turn in W1-W3, both ships on sea spaces."""
    return (
        bool(player.mods.get("swap_own_ships"))
        and not state.current.swapped
        and window != "start"
        and player.merchant.space is not None
        and player.pirate.space is not None
    )


def _boost_useful(state: BlackFleetState, player: Player, card: FortuneCard) -> bool:
    """Bribed Admiral is pointless when you already move both navy ships."""
    return len(state.current.controlled) < len(state.navies) or all(
        m.kind != "extra_navy" for m in card.boosts
    )


def _has_targets(state: BlackFleetState, player: Player, card: FortuneCard) -> bool:
    return bool(_TARGETS[card.effect](state, player, card))


def _objective_met(state: BlackFleetState, player: Player, card: FortuneCard) -> bool:
    """An objective's condition, read from the turn's log [black_fleet §R5.3]."""
    condition = card.params["condition"]
    if not state.current.log and condition in _LOGGED:
        return False  # the usual case: nothing done yet this turn
    return _CONDITIONS[condition](state, player, card.params)


def _sold_at_port(state: BlackFleetState, player: Player, params: Mapping[str, Any]) -> bool:
    port, least = params["port"], params["min_cubes"]
    return any(type(e) is Sale and e.port == port and e.cubes >= least for e in state.current.log)


def _buried_on_beach(state: BlackFleetState, player: Player, params: Mapping[str, Any]) -> bool:
    least = params["min_value"]
    return any(type(e) is Burial and e.on_beach and e.value >= least for e in state.current.log)


def _sank_merchant(state: BlackFleetState, player: Player, params: Mapping[str, Any]) -> bool:
    return any(type(e) is Attack and e.sunk for e in state.current.log)


def _sank_laden_pirate(state: BlackFleetState, player: Player, params: Mapping[str, Any]) -> bool:
    return any(type(e) is Sinking and e.treasure for e in state.current.log)


def _pirate_on_lair_with_treasure(
    state: BlackFleetState, player: Player, params: Mapping[str, Any]
) -> bool:
    pirate = player.pirate
    return pirate.space in state.data.board.lairs and bool(pirate.cargo)


_CONDITIONS: dict[str, Callable[[BlackFleetState, Player, Mapping[str, Any]], bool]] = {
    "sold_at_port": _sold_at_port,
    "buried_on_beach": _buried_on_beach,
    "sank_merchant": _sank_merchant,
    "sank_laden_pirate": _sank_laden_pirate,
    "pirate_on_lair_with_treasure": _pirate_on_lair_with_treasure,
}
"""Objective conditions by name (`condition` in fortune.toml), read from the deeds of
the turn's log (`turn.Sale`, `Burial`, `Attack`, `Sinking`)."""
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
        return sorted({e.victim for e in state.current.log if type(e) is Attack})
    return [p.seat for p in others]  # "chosen" and "each"


def _movable_ships(
    state: BlackFleetState, player: Player, card: FortuneCard
) -> list[tuple[str, str | int]]:
    """Ships a free move may shift: a navy, or an opponent's merchant or pirate on the board."""
    steps = card.params["steps"]
    candidates: list[tuple[str, str | int, int | None]]
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
    return [
        (kind, who)
        for kind, who, at in candidates
        if at is not None and movement.can_sail(state, at, steps)
    ]


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


def targets(state: BlackFleetState, card_id: str) -> list[Any]:
    """What the card `card_id` may target: seats (steal), free lairs (pirate_to_lair) or
    `(kind, seat or navy colour)` ships (free_move)."""
    card = state.data.fortune[card_id]
    return _TARGETS[card.effect](state, state.seats[state.active], card)


def destination_options(state: BlackFleetState, card_id: str, ref: str) -> tuple[Option, ...]:
    """Where the free move of `card_id` may take the ship `ref`."""
    card = state.data.fortune[card_id]
    start = state.ship_by_ref(ref).space
    assert start is not None, "a free move shifts a ship on the board"
    found = movement.free_destinations(state, start, card.params["steps"])
    return tuple([options.move(space, steps) for space, steps in found.items()])


# -- effects -------------------------------------------------------------------------------


def play(state: BlackFleetState, card_id: str) -> bool:
    """Play a fortune card from the hand: it goes face up to the discard pile, then acts.
    Returns whether it still needs a target (`targets`)."""
    player = state.seats[state.active]
    card = state.data.fortune[card_id]
    player.fortune.remove(card_id)
    state.fortune_discard.append(card_id)
    state.flow.emit("fortune_played", {"seat": player.seat, "card": card_id, "title": card.title})
    if card.effect == "boost":
        player.boosts.append(card_id)
        player.refresh(state.data)
    elif card.effect == "objective":
        state.pay(player.seat, card.params["reward"], "objective")
    elif card.effect == "steal" and card.params["source"] == "each":
        for seat in _steal_targets(state, player, card):
            state.transfer(seat, player.seat, card.params["amount"], "steal")
    else:
        return True
    return False


def steal_from(state: BlackFleetState, card_id: str, seat: int) -> None:
    card = state.data.fortune[card_id]
    state.transfer(seat, state.active, card.params["amount"], "steal")


def hide_pirate(state: BlackFleetState, space: int) -> None:
    """Hideout: the pirate goes to a free lair, keeping its treasure."""
    state.place_pirate_on_lair(state.active, space)


def free_move(state: BlackFleetState, card_id: str, ref: str, space: int, steps: int) -> None:
    """False Orders / Sea Fog: not an activation, no action [black_fleet §R5.4]."""
    ship = state.ship_by_ref(ref)
    origin = ship.space
    state.put(ship, space)
    state.flow.emit(
        "ship_moved",
        {
            "seat": state.active,
            "ship": ship.ref,
            "from": origin,
            "to": space,
            "steps": steps,
            "card": card_id,
        },
    )


def swap_ships(state: BlackFleetState) -> None:
    """False Colours: the merchant and pirate trade places, keeping their cargo."""
    player = state.seats[state.active]
    merchant, pirate = player.merchant, player.pirate
    assert merchant.space is not None and pirate.space is not None
    merchant.space, pirate.space = pirate.space, merchant.space
    state.at[merchant.space] = merchant
    state.at[pirate.space] = pirate
    state.flow.emit(
        "ships_swapped", {"seat": player.seat, "merchant": merchant.space, "pirate": pirate.space}
    )
