"""Setting up positions by hand, for rules scenarios, tests and puzzles.

Start from a game whose setup is done (`ready`), change what the scenario needs, then open
the requests the scenario is about and answer them as usual::

    state = arrange.ready(players=3, seed=1)
    pirate = arrange.pirate(state, 0, "VA", area="EC")
    arrange.merchant(state, 52, "M20")
    arrange.rig(state, 4, 6)             # the next two d6 thrown, whatever their stream
    arrange.actions(state, 0, 2)         # seat 0 has 2 Actions to perform now

Pieces come from where they are (a hand, the Pirate deck, a pool) so that the game's
totals stay true. Rigged dice are used once, in the order they are thrown; a clone shares
them with its original (rig after cloning).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import TypeVar, cast

from admiralty.games.blackbeard.game import Blackbeard
from admiralty.games.blackbeard.pieces import Commissioner, Merchant, Pirate
from admiralty.games.blackbeard.state import BlackbeardState
from admiralty.games.blackbeard.table import D6
from admiralty.games.chance import Chance, Name
from admiralty.games.flow import step

T = TypeVar("T")


class RiggedChance(Chance):
    """The game's chance, except that the next d6 throws are the given faces, in order,
    whatever stream they are drawn from; every other draw is the game's own."""

    __slots__ = ("dice",)

    def __init__(self, base: Chance, dice: Iterable[int]) -> None:
        super().__init__(base.seed)
        previous = base.dice if isinstance(base, RiggedChance) else ()
        self.dice: deque[int] = deque([*previous, *dice])

    def rolls(self, faces: Sequence[T], count: int, *name: Name) -> tuple[T, ...]:
        thrown = super().rolls(faces, count, *name)
        if tuple(faces) != D6 or not self.dice:
            return thrown
        return cast("tuple[T, ...]", tuple([self.dice.popleft() if self.dice else face
                                            for face in thrown]))


def rig(state: BlackbeardState, *dice: int) -> None:
    """Fix the next d6 thrown (a d66 is two: tens, then units)."""
    state.chance = RiggedChance(state.chance, dice)


def ready(players: int = 3, seed: int = 0, **options: object) -> BlackbeardState:
    """A game whose setup is over: every seat deployed its first Pirate card in the first
    sea area with a Sloop, and passed on further deployments."""
    state = Blackbeard().new_game(players, seed, dict(options))
    while state.phase == "setup" or state.turn == 0:
        request = state.pending()[0]
        state.apply(request.seat, 0)
    return state


def pirate(state: BlackbeardState, seat: int, card: str, area: str, port: int | None = None,
           ship: str = "sloop") -> Pirate:
    """Put `card` on the map for `seat`, taken from wherever it is (a hand, the deck)."""
    for player in state.seats:
        if card in player.pirate_cards:
            player.pirate_cards.remove(card)
    if card in state.pirate_deck:
        state.pirate_deck.remove(card)
    if card in state.pirates:
        del state.pirates[card]
    state.seats[seat].pirate_cards.append(card)
    placed = state.deploy(seat, card, area, ship)
    placed.port = port
    return placed


def pirate_hand(state: BlackbeardState, seat: int, cards: Iterable[str]) -> None:
    """Give `seat` exactly these undeployed Pirate cards, taken from the Pirate deck or
    another hand; its old ones go back on the deck."""
    player = state.seats[seat]
    state.pirate_deck.extend(player.pirate_cards)
    player.pirate_cards = []
    for card in cards:
        for other in state.seats:
            if card in other.pirate_cards:
                other.pirate_cards.remove(card)
        if card in state.pirate_deck:
            state.pirate_deck.remove(card)
        player.pirate_cards.append(card)
    player.pirate_cards.sort()


def remove_pirates(state: BlackbeardState) -> None:
    """Clear the map of pirates, their cards back on the Pirate deck."""
    for pid in sorted(state.pirates):
        state.pirate_deck.append(pid)
        del state.pirates[pid]


def merchant(state: BlackbeardState, code: int, merchant_id: str, face_up: bool = False,
             located_by: str | None = None) -> Merchant:
    """Put a merchant counter (from the pool or another box) in the port's box."""
    for where, there in list(state.merchants.items()):
        if there.id == merchant_id or where == code:
            state.remove_merchant(where)
    state.merchant_pool.remove(merchant_id)
    placed = Merchant(merchant_id, code, face_up, located_by)
    state.merchants[code] = placed
    return placed



def kc(state: BlackbeardState, seat: int, kc_id: str, area: str) -> Commissioner:
    """Put the King's Commissioner `kc_id` in sea area `area` under `seat`'s control, taken
    from the pool (or from the map, or the killed); a KC `seat` held before goes back to
    the pool (one KC per player) [blackbeard §10.13]."""
    if kc_id in state.kc_pool:
        state.kc_pool.remove(kc_id)
    if kc_id in state.kcs_killed:
        state.kcs_killed.remove(kc_id)
    state.kcs.pop(kc_id, None)
    for other in [k for k, c in state.kcs.items() if c.owner == seat]:
        del state.kcs[other]
        state.kc_pool.append(other)
        state.kc_pool.sort()
    placed = Commissioner(kc_id, seat, area)
    state.kcs[kc_id] = placed
    return placed


def patrol(state: BlackbeardState, area: str, warship_id: str) -> None:
    """Put warship `warship_id` on Patrol in sea area `area`, taken from the pool (or from
    another area); one already patrolling there goes back to the pool [blackbeard §6.41]."""
    if warship_id in state.warship_pool:
        state.warship_pool.remove(warship_id)
    for where, there in list(state.patrols.items()):
        if there == warship_id:
            del state.patrols[where]
    old = state.patrols.get(area)
    if old is not None:
        state.warship_pool.append(old)
        state.warship_pool.sort()
    state.patrols[area] = warship_id

def hand(state: BlackbeardState, seat: int, cards: Iterable[int]) -> None:
    """Give `seat` exactly these Event cards, taken from the deck or the discard pile; its
    old hand goes back on the deck."""
    player = state.seats[seat]
    state.event_deck.extend(player.events)
    player.events = []
    for card in cards:
        (state.event_deck if card in state.event_deck else state.discard).remove(card)
        player.events.append(card)
    player.events.sort()


def deck_top(state: BlackbeardState, cards: Sequence[int]) -> None:
    """Put these Event cards (from the deck or discard) on top of the deck, first drawn
    first."""
    for card in cards:
        (state.event_deck if card in state.event_deck else state.discard).remove(card)
    state.event_deck.extend(reversed(cards))


def turn(state: BlackbeardState, seat: int) -> None:
    """Start `seat`'s next Player Turn now."""
    state.flow.stop()
    number = state.turn + 1
    while state.order[(number - 1) % state.players] != seat:
        number += 1
    state.turn = number - 1  # `_turn_start` counts it
    state.flow.push(step("_turn_start"))
    state.flow.run(state)


def cards(state: BlackbeardState, seat: int) -> None:
    """Open `seat`'s Card Play Phase now, no card played yet."""
    _at(state, seat)
    state.flow.push(step("_card_phase"), step("_end_turn"))
    state.flow.run(state)


def actions(state: BlackbeardState, seat: int, count: int, bound: str | None = None) -> None:
    """`seat` has just played an Actions card for `count` Actions (a diamond card's pirate:
    `bound`); its Card Play Phase goes on after them."""
    _at(state, seat)
    state.actions_card_used = state.hup_played = True
    state.flow.push(step("_card_phase"), step("_end_turn"))
    state._start_actions(count, bound)
    state.flow.run(state)


def _at(state: BlackbeardState, seat: int) -> None:
    state.flow.stop()
    state.active, state.phase = seat, "cards"
    state.actions_card_used = state.hup_played = False
    state.fallbacks = state.actions_left = state.action_no = 0
    state.actions_pirate = state.active_pirate = None
