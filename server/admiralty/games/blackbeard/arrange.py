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

from collections.abc import Iterable, Sequence

from admiralty.games.arrange import rig_dice
from admiralty.games.blackbeard.game import Blackbeard
from admiralty.games.blackbeard.pieces import Commissioner, Merchant, Pirate
from admiralty.games.blackbeard.state import BlackbeardState
from admiralty.games.blackbeard.table import D6


def rig(state: BlackbeardState, *dice: int) -> None:
    """Fix the next d6 thrown (a d66 is two: tens, then units), with the kit's rigged
    chance (`admiralty.games.arrange`)."""
    rig_dice(state, {D6: dice})


def ready(players: int = 3, seed: int = 0, **options: object) -> BlackbeardState:
    """A game whose setup is over: every seat deployed its first Pirate card in the first
    sea area with a Sloop, and passed on further deployments."""
    state = Blackbeard().new_game(players, seed, dict(options))
    while state.table.turn.phase == "setup" or state.table.turn.number == 0:
        request = state.pending()[0]
        state.apply(request.seat, 0)
    return state


def pirate(
    state: BlackbeardState,
    seat: int,
    card: str,
    area: str,
    port: int | None = None,
    ship: str = "sloop",
) -> Pirate:
    """Put `card` on the map for `seat`, taken from wherever it is (a hand, the deck)."""
    table = state.table
    for player in table.seats:
        if card in player.pirate_cards:
            player.pirate_cards.remove(card)
    if card in table.pirate_deck:
        table.pirate_deck.remove(card)
    if card in table.pirates:
        del table.pirates[card]
    table.seats[seat].pirate_cards.append(card)
    placed = table.deploy(seat, card, area, ship)
    placed.port = port
    return placed


def pirate_hand(state: BlackbeardState, seat: int, cards: Iterable[str]) -> None:
    """Give `seat` exactly these undeployed Pirate cards, taken from the Pirate deck or
    another hand; its old ones go back on the deck."""
    table = state.table
    player = table.seats[seat]
    table.pirate_deck.extend(player.pirate_cards)
    player.pirate_cards = []
    for card in cards:
        for other in table.seats:
            if card in other.pirate_cards:
                other.pirate_cards.remove(card)
        if card in table.pirate_deck:
            table.pirate_deck.remove(card)
        player.pirate_cards.append(card)
    player.pirate_cards.sort()


def remove_pirates(state: BlackbeardState) -> None:
    """Clear the map of pirates, their cards back on the Pirate deck."""
    table = state.table
    for pid in sorted(table.pirates):
        table.pirate_deck.append(pid)
        del table.pirates[pid]


def merchant(
    state: BlackbeardState,
    code: int,
    merchant_id: str,
    face_up: bool = False,
    located_by: str | None = None,
) -> Merchant:
    """Put a merchant counter (from the pool or another box) in the port's box."""
    table = state.table
    for where, there in list(table.merchants.items()):
        if there.id == merchant_id or where == code:
            table.remove_merchant(where)
    table.merchant_pool.remove(merchant_id)
    placed = Merchant(merchant_id, code, face_up, located_by)
    table.merchants[code] = placed
    return placed


def kc(state: BlackbeardState, seat: int, kc_id: str, area: str) -> Commissioner:
    """Put the King's Commissioner `kc_id` in sea area `area` under `seat`'s control, taken
    from the pool (or from the map, or the killed); a KC `seat` held before goes back to
    the pool (one KC per player) [blackbeard §10.13]."""
    table = state.table
    if kc_id in table.kc_pool:
        table.kc_pool.remove(kc_id)
    if kc_id in table.kcs_killed:
        table.kcs_killed.remove(kc_id)
    table.kcs.pop(kc_id, None)
    for other in [k for k, c in table.kcs.items() if c.owner == seat]:
        del table.kcs[other]
        table.kc_pool.append(other)
        table.kc_pool.sort()
    placed = Commissioner(kc_id, seat, area)
    table.kcs[kc_id] = placed
    return placed


def patrol(state: BlackbeardState, area: str, warship_id: str) -> None:
    """Put warship `warship_id` on Patrol in sea area `area`, taken from the pool (or from
    another area); one already patrolling there goes back to the pool [blackbeard §6.41]."""
    table = state.table
    if warship_id in table.warship_pool:
        table.warship_pool.remove(warship_id)
    for where, there in list(table.patrols.items()):
        if there == warship_id:
            del table.patrols[where]
    old = table.patrols.get(area)
    if old is not None:
        table.warship_pool.append(old)
        table.warship_pool.sort()
    table.patrols[area] = warship_id


def hand(state: BlackbeardState, seat: int, cards: Iterable[int]) -> None:
    """Give `seat` exactly these Event cards, taken from the deck or the discard pile; its
    old hand goes back on the deck."""
    table = state.table
    player = table.seats[seat]
    table.event_deck.extend(player.events)
    player.events = []
    for card in cards:
        (table.event_deck if card in table.event_deck else table.discard).remove(card)
        player.events.append(card)
    player.events.sort()


def deck_top(state: BlackbeardState, cards: Sequence[int]) -> None:
    """Put these Event cards (from the deck or discard) on top of the deck, first drawn
    first."""
    table = state.table
    for card in cards:
        (table.event_deck if card in table.event_deck else table.discard).remove(card)
    table.event_deck.extend(reversed(cards))


def turn(state: BlackbeardState, seat: int) -> None:
    """Start `seat`'s next Player Turn now."""
    table = state.table
    state.flow.stop()
    number = table.turn.number + 1
    while table.order[(number - 1) % table.players] != seat:
        number += 1
    table.turn.number = number - 1  # the turn's start counts it
    state.flow.push(state.turns.next_turn())
    state.flow.run()


def cards(state: BlackbeardState, seat: int) -> None:
    """Open `seat`'s Card Play Phase now, no card played yet."""
    _at(state, seat)
    state.turns.resume_cards()
    state.flow.run()


def actions(state: BlackbeardState, seat: int, count: int, bound: str | None = None) -> None:
    """`seat` has just played an Actions card for `count` Actions (a diamond card's pirate:
    `bound`); its Card Play Phase goes on after them."""
    _at(state, seat)
    turn = state.table.turn
    turn.actions_card_used = turn.hup_played = True
    state.turns.resume_cards()
    state.turns.start_actions(count, bound)
    state.flow.run()


def _at(state: BlackbeardState, seat: int) -> None:
    state.flow.stop()
    turn = state.table.turn
    turn.active, turn.phase = seat, "cards"
    turn.actions_card_used = turn.hup_played = False
    turn.fallbacks = turn.actions_left = turn.action_no = 0
    turn.actions_pirate = turn.active_pirate = None
