"""Setting up positions by hand, for rules scenarios, tests and puzzles.

Start from a fresh game, whose Captain is placing the dice, change what the scenario
needs, then answer requests as usual::

    state = Jamaica().new_game(players=3, seed=1)
    arrange.captain(state, 0, dice=(4, 2))
    arrange.place(state, 0, space=45)
    arrange.holds(state, 0, [("food", 2), ("gold", 7), None, None, None])
    arrange.hand(state, 0, [3, 8, 10])
    arrange.rig(state, combat=["star", 6])
    arrange.choose(state, "dice:sun=4,moon=2")

Every helper keeps the game's totals true: tokens come from and go back to the bank,
cards move between deck, hand and discard, treasure cards between the treasure deck, the
box and the ships. Rigged dice are used once, in the order they are rolled, whatever
stream they are drawn from; a clone shares them with its original (rig after cloning).
`choose` (answer by option key) and `keys` are the kit's (`admiralty.games.arrange`),
shared by every game's `arrange`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from admiralty.games.arrange import choose, keys, rig_dice
from admiralty.games.jamaica.board import PRE_START, RACING
from admiralty.games.jamaica.data import load
from admiralty.games.jamaica.state import JamaicaState

DATA = load()

__all__ = [
    "captain",
    "choose",
    "deck",
    "hand",
    "holds",
    "keys",
    "place",
    "rig",
    "treasure",
    "treasure_deck",
]


def captain(state: JamaicaState, seat: int, dice: tuple[int, int] | None = None) -> None:
    """Make `seat` the Captain of this round, with `dice` rolled, before the dice are placed."""
    if state.phase != "place_dice":
        raise ValueError("the Captain can only be changed while the dice are being placed")
    state.captain = seat  # a scenario's setting: the flow asks the new Captain at once
    if dice is not None:
        state.rolled = tuple(dice)
    state.flow.withdraw()
    state._ask_dice()


def place(state: JamaicaState, ship_id: int, space: int, lap: str | None = None) -> None:
    """Put a ship on `space`; on its lap unless on Port Royal (see `board` for lap states)."""
    ship = state.ship(ship_id)
    ship.space = space
    ship.lap = lap or (PRE_START if space == state.board.port_royal else RACING)


def holds(state: JamaicaState, ship_id: int, contents: Sequence[tuple[str, int] | None]) -> None:
    """Set every hold of a ship (5, or 6 with the 6th Hold), trading tokens with the bank."""
    ship = state.ship(ship_id)
    if len(contents) != len(ship.kinds):
        raise ValueError(f"ship {ship_id} has {len(ship.kinds)} holds, not {len(contents)}")
    for hold, content in enumerate(contents):
        held = ship.kinds[hold]
        if held is not None:
            state.bank[held] += ship.counts[hold]
        kind, count = content or (None, 0)
        if kind is not None:
            if state.bank[kind] < count:
                raise ValueError(f"the bank has only {state.bank[kind]} {kind}")
            state.bank[kind] -= count
        ship.fill(hold, kind, count)


def hand(state: JamaicaState, seat: int, cards: Iterable[int]) -> None:
    """Give `seat` exactly these cards in hand (from its deck or discard pile), the rest of
    its old hand going back on top of its deck. Use it before the dice are placed."""
    ship = state.ships[seat]
    cards = sorted(cards)
    for card in cards:
        for pile in (ship.hand, ship.deck, ship.discard):
            if card in pile:
                pile.remove(card)
                break
        else:
            raise ValueError(f"card {card} is not in seat {seat}'s hand, deck or discard")
    ship.deck.extend(ship.hand)
    ship.hand = cards


def deck(state: JamaicaState, seat: int, top: Sequence[int]) -> None:
    """Put these cards (from deck or discard) on top of `seat`'s deck, the first drawn first."""
    ship = state.ships[seat]
    for card in top:
        (ship.deck if card in ship.deck else ship.discard).remove(card)
    ship.deck.extend(reversed(top))


def treasure(state: JamaicaState, ship_id: int, card: str) -> None:
    """Give a ship a treasure card from wherever it is (powers face up, others face down).

    A card taken from the box swaps places with a card of the treasure deck, so that 9
    cards stay in play.
    """
    for other in state.fleet():
        holder = state.ship(other)
        if card in holder.powers or card in holder.hidden:
            state._receive(ship_id, card, card in holder.powers, state._release(other, card))
            return
    if card in state.removed:
        state.removed.remove(card)
        state.removed.append(state.treasure_deck.pop(0))
    else:
        state.treasure_deck.remove(card)
    state._receive(ship_id, card, DATA.treasures[card].kind == "power", None)


def treasure_deck(state: JamaicaState, top: Sequence[str]) -> None:
    """Put these cards on top of the treasure deck, the first drawn first. A card taken
    from the box swaps places with another card of the deck."""
    for card in top:
        if card in state.removed:
            state.removed.remove(card)
            swap = next(t for t in state.treasure_deck if t not in top)
            state.treasure_deck.remove(swap)
            state.removed.append(swap)
        else:
            state.treasure_deck.remove(card)
    state.treasure_deck.extend(reversed(top))


def rig(state: JamaicaState, action: Iterable[int] = (), combat: Iterable[int | str] = ()) -> None:
    """Fix the next action dice (in roll order) and combat dice ("star" for the star)."""
    rig_dice(state, {DATA.action_faces: action, DATA.combat_faces: combat})
