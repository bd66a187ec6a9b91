"""Redaction ([jamaica §12]; the one redaction function of the engine contract): what a seat cannot
see changes nothing it is sent. Each check takes a game position, builds a copy that differs only
in things hidden from the viewer, and compares the JSON bytes the viewer receives from both."""

from __future__ import annotations

import json
import random

import pytest

from admiralty.games import Request
from admiralty.games.chance import Chance
from admiralty.games.jamaica import Jamaica, JamaicaState
from admiralty.games.jamaica.data import load
from admiralty.games.jamaica.options import hand_options
from admiralty.games.jamaica.view import request_json

DATA = load()


def scoring(card: str) -> bool:
    return DATA.treasures[card].kind != "power"


def perturb(
    state: JamaicaState, viewer: int | None, rng: random.Random, *, everything: bool
) -> JamaicaState:
    """A copy that differs from `state` only in what `viewer` cannot see.

    `everything`: also the RNG, the treasure deck, the viewer's own deck order and other
    seats' unrevealed chosen cards. Without it, only what the next decision cannot reveal
    (the step that closes the SEALED window reveals every chosen card, a roll shows the
    RNG, a lair shows the deck's top card).
    """
    copy = state.clone()
    deciders = {r.seat for r in state.pending()}
    for seat, ship in enumerate(copy.ships):
        if seat == viewer:
            if everything:
                rng.shuffle(ship.deck)
            continue
        if not everything and seat in deciders:
            rng.shuffle(ship.deck)
            continue
        chosen = [ship.chosen] if everything and ship.chosen is not None else []
        pool = ship.hand + ship.deck + chosen
        rng.shuffle(pool)
        size = len(ship.hand)
        ship.hand, pool = sorted(pool[:size]), pool[size:]
        if chosen:
            ship.chosen, pool = pool[0], pool[1:]
        ship.deck = pool
        old = copy.flow.sealed.get(seat)
        if old is not None:
            copy.flow.sealed[seat] = Request(
                seat, old.window_id, old.window, old.kind, old.prompt, hand_options(ship.hand)
            )
    # A player's face-down cards are never powers; the Ghost's lair cards may be, so its
    # face-down pile is dealt from every card, as the box is [jamaica G25].
    holders = [ship for seat, ship in enumerate(copy.ships) if seat != viewer]
    piles = [ship.hidden for ship in holders] + [copy.removed]
    if copy.ghost is not None:
        piles.append(copy.ghost.hidden)
    if everything:
        piles.append(copy.treasure_deck)
    cards = [card for pile in piles for card in pile]
    free = [c for c in cards if scoring(c)]
    rng.shuffle(free)
    powers = [c for c in cards if not scoring(c)]
    for pile in piles[: len(holders)]:
        pile[:] = [free.pop() for _ in pile]
    rest = free + powers
    rng.shuffle(rest)
    for pile in piles[len(holders) :]:
        pile[:] = [rest.pop() for _ in pile]
    if everything:
        copy.chance = Chance(rng.getrandbits(128))
    return copy


def seen(state: JamaicaState, viewer: int | None) -> str:
    """Everything `viewer` is sent now: its view and its open requests, as JSON bytes."""
    requests = [request_json(r) for r in state.pending() if r.seat == viewer]
    return json.dumps([state.view(viewer), requests], sort_keys=True)


def told(events, viewer: int | None) -> str:
    return json.dumps([e.to_json() for e in events if e.visible_to(viewer)], sort_keys=True)


def positions(players: int, seed: int):
    """Every position of a random game, with the decision taken from it."""
    state = Jamaica().new_game(players, seed)
    chooser = random.Random(seed)
    while state.outcome() is None:
        request = chooser.choice(state.pending())
        index = chooser.randrange(len(request.options))
        yield state, request, index
        state.apply(request.seat, index)
    yield state, None, None


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (2, 6)])
def test_changing_hidden_things_leaves_every_view_identical(players, seed):
    """[jamaica §12]: other hands, sealed choices, face-down cards, deck orders and the RNG."""
    rng = random.Random(seed)
    checked = 0
    for state, request, _ in positions(players, seed):
        if request is None:
            break  # the game is over: every face-down card is shown to all
        for viewer in [None, *range(players)]:
            twin = perturb(state, viewer, rng, everything=True)
            assert seen(twin, viewer) == seen(state, viewer), (viewer, state.phase)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("players, seed", [(2, 7), (3, 8), (4, 9), (6, 10)])
def test_changing_hidden_things_leaves_every_event_identical(players, seed):
    """[jamaica §12]: the same decision, taken in a position that differs only in what the viewer
    cannot see (and the step cannot reveal), tells the viewer the same events."""
    rng = random.Random(seed)
    compared = 0
    for state, request, index in positions(players, seed):
        if request is None or request.kind == "loot":
            continue  # spoils show the card taken or given to the seats concerned
        for viewer in [None, *range(players)]:
            if viewer == request.seat:
                continue
            twin = perturb(state, viewer, rng, everything=False)
            original = state.clone()
            events, twin_events = (
                original.apply(request.seat, index),
                twin.apply(request.seat, index),
            )
            if original.outcome() is not None:
                continue  # the end of the game reveals every face-down card
            assert told(twin_events, viewer) == told(events, viewer), (viewer, request.kind)
            assert seen(twin, viewer) == seen(original, viewer)
            compared += 1
    assert compared > 100
