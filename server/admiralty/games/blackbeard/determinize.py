"""Blackbeard's honest determinization (`BlackbeardState.determinize`).

What a seat cannot see [blackbeard §4.68, §6.31]: the other seats' Event cards (never a
Must Play Immediately card, which is played when drawn) and Pirate cards, the order of
both decks, which merchant lies face down in each port (with the merchant pool) and the
chance. The other pools are sorted and their contents follow from the table, so they stay.

An open request of another seat may list its cards: it is opened again from the new deal
(`REOPEN`), has its pirates listed again (`RELIST`), or goes on with one card of the
hand, which then stays there (`PINNED`: that card is played or deployed by the answer; the
one fact of another seat a determinization keeps, and only while that seat is asked).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from admiralty.games.base import Request
from admiralty.games.blackbeard.choices import pirate_option, target_pirate
from admiralty.games.determinize import Pile, fresh_chance, redeal
from admiralty.games.flow import Step, is_step, step

if TYPE_CHECKING:
    from admiralty.games.blackbeard.state import BlackbeardState
    from admiralty.games.blackbeard.table import Table

REOPEN: dict[str, Callable[[BlackbeardState, Request, Step], None]] = {
    "choose_card": lambda state, request, then: None,  # `_card_phase` is on the stack
    "skull_and_crossbones": lambda state, request, then: state.flow.push(
        step(state.rolls._rp_skull, *then[1])
    ),
    "deploy_card": lambda state, request, then: state.flow.push(
        step(state.setup._deploy_ask, request.seat, 2 if request.optional else 1)
    ),
    "draw_or_deploy": lambda state, request, then: state.actions.action_k(request.seat),
    "anti_pirate": lambda state, request, then: state.antipirate._offer_ap(*then[1]),
}
"""Requests whose options depend on their seat's hand, and how each is opened again
(after `Flow.withdraw`) as the step that opened it would."""
RELIST = {"new_captain", "challenger"}
"""Requests that list their seat's Pirate cards, one option each."""
PINNED = {
    "use_card": "events",
    "deploy_area": "pirate_cards",
    "deploy_ship": "pirate_cards",
    "deploy_drawn": "pirate_cards",
}
"""Requests whose answer goes on with one card of their seat's hand (an argument), and
which hand that is."""


def determinize(state: BlackbeardState, seat: int, rng: random.Random) -> BlackbeardState:
    """A copy with what `seat` cannot see dealt again from `rng` (see the module)."""
    new = state.clone()
    new.chance = fresh_chance(rng)
    table = new.table
    asked = new.flow.asked
    other = asked.request if asked is not None and asked.request.seat != seat else None
    mpi = {number for number, card in table.deck_cards.items() if card.cls == "MPI"}
    hands: list[tuple[str, list, set]] = [("events", table.event_deck, mpi)]
    if not (asked is not None and asked.request.kind == "draft_pick"):  # an open draft
        hands.append(("pirate_cards", table.pirate_deck, set()))
    for attr, deck, undealt in hands:
        hidden = {
            player.seat: getattr(player, attr)[:] for player in table.seats if player.seat != seat
        }
        holder, kept = _pinned(new, other, attr)
        if holder is not None:
            hidden[holder].remove(kept)
        dealable = _not_in(undealt)
        piles: list[Pile] = [(cards, dealable) for cards in hidden.values()]
        redeal(rng, [*piles, (deck, None)])
        for owner, cards in hidden.items():
            setattr(table.seats[owner], attr, sorted([*cards, kept] if owner == holder else cards))
    _merchants(table, rng)
    if other is not None:
        _ask_again(new, other.kind)
    return new


def _not_in(cards: set) -> Callable[[Any], bool]:
    """Whether a card may be dealt into a hand: it is not one of `cards`."""
    return lambda card: card not in cards


def _pinned(state: BlackbeardState, request: Request | None, attr: str) -> tuple[int | None, Any]:
    """The seat and the card of its hand `attr` that the answer to its open `request`
    goes on with (`PINNED`): that card stays. (None, None) when there is none."""
    if request is None or PINNED.get(request.kind) != attr:
        return None, None
    then = state.flow.then
    assert is_step(then)
    hand = getattr(state.table.seats[request.seat], attr)
    card = next((arg for arg in then[1] if arg in hand), None)
    return (request.seat, card) if card is not None else (None, None)


def _merchants(table: Table, rng: random.Random) -> None:
    """The face-down merchants and the merchant pool, dealt again [blackbeard §6.31]."""
    face_down = [
        merchant for _, merchant in sorted(table.merchants.items()) if not merchant.face_up
    ]
    slots = [[merchant.id] for merchant in face_down]
    redeal(rng, [*((slot, None) for slot in slots), (table.merchant_pool, None)])
    for merchant, (merchant_id,) in zip(face_down, slots, strict=True):
        merchant.id = merchant_id
    table.merchant_pool.sort()


def _ask_again(state: BlackbeardState, kind: str) -> None:
    """Open another seat's request again from its new hand (see the module)."""
    flow = state.flow
    asked = flow.asked
    assert asked is not None and is_step(asked.then)
    request, then = asked.request, asked.then
    if kind in RELIST:
        option = pirate_option if kind == "new_captain" else target_pirate
        cards = state.table.seats[request.seat].pirate_cards
        flow.request = request._replace(options=tuple(map(option, cards)))
    elif kind in REOPEN:
        flow.withdraw()
        REOPEN[kind](state, request, then)
        flow.run()
