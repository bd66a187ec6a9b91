"""Setting up positions by hand, for rules scenarios, tests and analysis.

Start from a fresh game, change what the scenario needs, start a seat's turn, then
answer requests by option key::

    state = BlackFleet().new_game(4, seed=1)
    arrange.fleet(state, {"merchant:0": (16, ["red", "red"]), "pirate:0": "NW"})
    arrange.hand(state, 0, movement=["M01", "M02"], fortune=[])
    arrange.doubloons(state, 0, 3)
    arrange.turn(state, 0)
    arrange.choose(state, "card:M01")

`position` does all of it in one call, from mappings by seat. Every card and cube stays
accounted for: cubes put on ships come out of the ports' stocks, and a card put in a
hand or on top of a deck is taken from wherever it was. `choose` (answer by option key)
and `keys` are the kit's (`admiralty.games.arrange`), shared by every game's `arrange`.

>>> from admiralty.games import load_game
>>> state = load_game("black_fleet").new_game(4, seed=1)
>>> _ = position(state, seat=0, ships={"merchant:0": (16, ["red", "red"]), "pirate:0": "NW"},
...              movement={0: ["M01", "M02"]}, money={0: 3}, fortune={0: []})
>>> keys(state)
['card:M01', 'card:M02']

(With a fortune card in hand, the start-of-turn fortune window would come first.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from admiralty.games.arrange import choose, keys
from admiralty.games.base import Event
from admiralty.games.black_fleet.state import BlackFleetState
from admiralty.games.flow import step

Where = int | str | None
"""A space, a distant-sea key, or None (off the board)."""

ShipSpec = Where | tuple[Where, Iterable[str]]
"""Where a ship is, or `(where, cargo colours)`."""

__all__ = [
    "bought_cards",
    "choose",
    "deck",
    "development_card",
    "doubloons",
    "fleet",
    "hand",
    "keys",
    "place",
    "position",
    "turn",
]


def fleet(state: BlackFleetState, placed: Mapping[str, ShipSpec]) -> None:
    """Put the ships named by reference (`merchant:1`, `pirate:0`, `navy:yellow`) where
    `placed` says; merchants and pirates not named go off the board (as if sunk), navy
    ships not named stay where they are."""
    for player in state.seats:
        for ship in (player.merchant, player.pirate):
            state.remove(ship)
    for ref, spec in placed.items():
        where, cargo = spec if isinstance(spec, tuple) else (spec, ())
        place(state, ref, where, cargo)


def place(state: BlackFleetState, ref: str, where: Where, cargo: Iterable[str] = ()) -> None:
    """Put one ship on a free space or in a distant sea (or off the board), with these
    cubes aboard (from the stock; its old cubes go back)."""
    ship = state.ship_by_ref(ref)
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


def doubloons(state: BlackFleetState, seat: int, amount: int) -> None:
    state.seats[seat].money = amount


def hand(
    state: BlackFleetState,
    seat: int,
    movement: Iterable[str] | None = None,
    fortune: Iterable[str] | None = None,
) -> None:
    """Give `seat` exactly these movement cards, fortune cards or both; its old cards go to
    the bottom of their deck."""
    player = state.seats[seat]
    if movement is not None:
        _hand(state, player.movement, movement, "movement")
    if fortune is not None:
        _hand(state, player.fortune, fortune, "fortune")


def deck(
    state: BlackFleetState, movement: list[str] | None = None, fortune: list[str] | None = None
) -> None:
    """Put these cards on top of the movement deck, the fortune deck or both, the first
    listed drawn first."""
    _top(state, movement or [], "movement")
    _top(state, fortune or [], "fortune")


def development_card(state: BlackFleetState, seat: int, cost: int, card: str) -> None:
    """Deal `seat` this development card of `cost`; whoever held it (a seat or the box)
    gets the seat's old one."""
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


def bought_cards(state: BlackFleetState, seat: int, costs: Iterable[int]) -> None:
    """Mark the development cards of these costs bought by `seat`, their effects in force."""
    player = state.seats[seat]
    player.bought = list(costs)
    player.refresh(state.data)


def turn(state: BlackFleetState, seat: int, round: int | None = None) -> list[Event]:
    """Begin `seat`'s turn now, setup or not (in `round` if given); the events of its start."""
    if round is not None:
        state.round = round
    flow = state.flow
    told = len(flow.events)
    flow.stop()
    flow.push(step(state._begin_turn, seat))
    flow.run()
    return flow.events[told:]


def position(
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
    """The functions above in one call, from mappings by seat, then `seat`'s turn begins;
    the events of that start. `ships` as for `fleet` (every merchant and pirate not named
    goes off the board), `money` as for `doubloons`, `movement` and `fortune` as for
    `hand`, `*_top` as for `deck`, `development` (by seat, then cost) as for
    `development_card`, `bought` as for `bought_cards`."""
    fleet(state, ships or {})
    for each, amount in (money or {}).items():
        doubloons(state, each, amount)
    for each, cards in (movement or {}).items():
        hand(state, each, movement=cards)
    for each, cards in (fortune or {}).items():
        hand(state, each, fortune=cards)
    deck(state, movement_top, fortune_top)
    for each, dealt in (development or {}).items():
        for cost, card in dealt.items():
            development_card(state, each, cost, card)
    for each, costs in (bought or {}).items():
        bought_cards(state, each, costs)
    return turn(state, seat, round)


def _piles(state: BlackFleetState, deck: str) -> list[list[str]]:
    if deck == "movement":
        hands = [player.movement for player in state.seats]
        return [*hands, state.movement_deck, state.movement_discard]
    return [*[player.fortune for player in state.seats], state.fortune_deck, state.fortune_discard]


def _take(state: BlackFleetState, card: str, deck: str) -> None:
    for pile in _piles(state, deck):
        if card in pile:
            pile.remove(card)
            return
    raise ValueError(f"no {deck} card {card!r}")


def _hand(state: BlackFleetState, hand: list[str], cards: Iterable[str], deck: str) -> None:
    old = list(hand)
    hand.clear()
    _piles(state, deck)[-2][:0] = old
    for card in cards:
        _take(state, card, deck)
        hand.append(card)


def _top(state: BlackFleetState, cards: list[str], deck: str) -> None:
    pile = _piles(state, deck)[-2]
    for card in cards:
        _take(state, card, deck)
    pile.extend(reversed(cards))
