"""Building positions by hand, for rule tests and analysis.

`arrange` turns a fresh game into a chosen position at the start of a seat's turn;
`choose` answers the open request by option key. Every card and cube stays
accounted for: cubes put on ships come out of the ports' stocks, and a card put in
a hand or on top of a deck is taken from wherever it was.

>>> from admiralty.games import load_game
>>> state = load_game("black_fleet").new_game(4, seed=1)
>>> _ = arrange(state, seat=0, ships={"merchant:0": (16, ["red", "red"]), "pirate:0": "NW"},
...             movement={0: ["M01", "M02"]}, money={0: 3}, fortune={0: []})
>>> state.pending()[0].kind, [o.key for o in state.pending()[0].options]
('play_movement', ['card:M01', 'card:M02'])

(With a fortune card in hand, the start-of-turn fortune window would come first.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from admiralty.games.base import Event, IllegalAction
from admiralty.games.black_fleet.state import BlackFleetState

ShipSpec = int | str | tuple[int | str, Iterable[str]] | None
"""A space, a distant-sea key, `(space or key, cargo colours)`, or None (off the board)."""


def arrange(
    state: BlackFleetState,
    seat: int = 0,
    ships: Mapping[str, ShipSpec] | None = None,
    money: Mapping[int, int] | None = None,
    movement: Mapping[int, list[str]] | None = None,
    fortune: Mapping[int, list[str]] | None = None,
    development: Mapping[int, Mapping[int, str]] | None = None,
    bought: Mapping[int, list[int]] | None = None,
    movement_top: list[str] | None = None,
    fortune_top: list[str] | None = None,
    round: int = 1,
) -> list[Event]:
    """Set up a position and start `seat`'s turn; returns the events of that start.

    `ships` maps references (`merchant:1`, `pirate:0`, `navy:yellow`) to where they
    are. Merchants and pirates not named are off the board (as if sunk); navy ships
    not named stay where they are. Hands replace the named seats' hands (the old
    cards go to the bottom of their deck); `*_top` cards are drawn next, first
    listed first. `development` swaps dealt cards, `bought` marks costs bought.
    """
    for player in state.seats:
        for ship in (player.merchant, player.pirate):
            state.remove(ship)
    for ref, spec in (ships or {}).items():
        _place(state, ref, spec)
    for seat_, amount in (money or {}).items():
        state.seats[seat_].money = amount
    for seat_, cards in (movement or {}).items():
        _set_hand(state, state.seats[seat_].movement, cards, "movement")
    for seat_, cards in (fortune or {}).items():
        _set_hand(state, state.seats[seat_].fortune, cards, "fortune")
    _set_top(state, movement_top or [], "movement")
    _set_top(state, fortune_top or [], "fortune")
    for seat_, dealt in (development or {}).items():
        for cost, card in dealt.items():
            _deal_development(state, seat_, cost, card)
    for seat_, costs in (bought or {}).items():
        player = state.seats[seat_]
        player.bought = list(costs)
        player.refresh(state.data)
    state.round = round
    return state.start_turn_of(seat)


def choose(state: BlackFleetState, *keys: str) -> list[Event]:
    """Answer the open requests, in order, with the options of these keys.

    A request with a single option that is not the key asked for (a fortune window
    where only `pass` is legal) is answered on the way, as the referee does.
    """
    events: list[Event] = []
    for key in keys:
        request = state.pending()[0]
        while len(request.options) == 1 and request.options[0].key != key:
            events += state.apply(request.seat, 0)
            request = state.pending()[0]
        found = [i for i, option in enumerate(request.options) if option.key == key]
        if not found:
            offered = [option.key for option in request.options]
            raise IllegalAction(f"{key!r} is not offered by {request.kind}: {offered}")
        events += state.apply(request.seat, found[0])
    return events


def keys(state: BlackFleetState) -> list[str]:
    """The option keys of the open request."""
    return [option.key for option in state.pending()[0].options]


def _place(state: BlackFleetState, ref: str, spec: Any) -> None:
    ship = state.ship_by_ref(ref)
    where, cargo = spec if isinstance(spec, tuple) else (spec, [])
    if ship.space is not None and state.at.get(ship.space) is ship:
        del state.at[ship.space]
    ship.space = ship.zone = None
    if isinstance(where, int):
        if where in state.at:
            raise ValueError(f"space {where} already holds {state.at[where].ref}")
        state.put(ship, where)
    elif where is not None:
        ship.zone = where
    state.return_cubes(ship.cargo)
    ship.cargo = []
    for colour in cargo:
        if not state.stock[colour]:
            raise ValueError(f"no {colour} cube left in stock")
        state.stock[colour] -= 1
        ship.cargo.append(colour)


def _piles(state: BlackFleetState, deck: str) -> list[list[str]]:
    hands = [getattr(p, deck) for p in state.seats]
    return [*hands, getattr(state, f"{deck}_deck"), getattr(state, f"{deck}_discard")]


def _take(state: BlackFleetState, card: str, deck: str) -> None:
    for pile in _piles(state, deck):
        if card in pile:
            pile.remove(card)
            return
    raise ValueError(f"no {deck} card {card!r}")


def _set_hand(state: BlackFleetState, hand: list[str], cards: list[str], deck: str) -> None:
    old = list(hand)
    hand.clear()
    getattr(state, f"{deck}_deck")[:0] = old
    for card in cards:
        _take(state, card, deck)
        hand.append(card)


def _set_top(state: BlackFleetState, cards: list[str], deck: str) -> None:
    pile = getattr(state, f"{deck}_deck")
    for card in cards:
        _take(state, card, deck)
    pile.extend(reversed(cards))


def _deal_development(state: BlackFleetState, seat: int, cost: int, card: str) -> None:
    """Give `seat` this card of `cost`; whoever held it (a seat or the box) gets the old one."""
    if state.data.development[card].cost != cost:
        raise ValueError(f"{card} does not cost {cost}")
    player = state.seats[seat]
    old = player.development[cost]
    for other in state.seats:
        if other.development.get(cost) == card:
            other.development[cost] = old
    if card in state.box:
        state.box[state.box.index(card)] = old
    player.development[cost] = card
