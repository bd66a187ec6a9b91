"""Redaction: one redaction function, `view`, and the events a seat is told [black_fleet §9].

A seat sees its own hands and face-down development cards; of the others only
counts, costs and what they bought. Changing anything a seat cannot see (other
hands, deck order, the cards in the box, the chance streams) must not change a byte of its view
or of the events it is told.
"""

from __future__ import annotations

import json
import random

import pytest

from admiralty.games import load_game, visible_events
from admiralty.games.chance import Chance


def hide_differently(state, viewer, keep, rng: random.Random):
    """A clone in which everything hidden from `viewer` differs, except the hands of `keep`."""
    other = state.clone()
    other.chance = Chance(rng.getrandbits(128))
    rng.shuffle(other.movement_deck)
    rng.shuffle(other.fortune_deck)
    for player in other.seats:
        if player.seat in keep:
            continue
        for hand, deck in (
            (player.movement, other.movement_deck),
            (player.fortune, other.fortune_deck),
        ):
            pool = hand + deck
            rng.shuffle(pool)
            hand[:], deck[:] = pool[: len(hand)], pool[len(hand) :]
        for cost, card in list(player.development.items()):
            spare = [c for c in other.box if other.data.development[c].cost == cost]
            if cost not in player.bought and spare:
                swap = rng.choice(spare)
                other.box[other.box.index(swap)] = card
                player.development[cost] = swap
    return other


def dump(value) -> str:
    return json.dumps(value, sort_keys=True)


def visible(events, viewer) -> str:
    return dump([e.to_json() for e in visible_events(events, viewer)])


@pytest.mark.parametrize("players", [3, 4])
def test_hidden_changes_leave_views_and_told_events_identical(players):
    game = load_game("black_fleet")
    rng = random.Random(players)
    for seed in range(4):
        state = game.new_game(players, seed)
        bot = random.Random(seed)
        step = compared = 0
        while state.outcome() is None:
            request = state.pending()[0]
            index = bot.randrange(len(request.options))
            if step % 13 == 0:
                for viewer in [None, *range(players)]:
                    keep = {viewer, request.seat}
                    other = hide_differently(state, viewer, keep, rng)
                    assert dump(other.view(viewer)) == dump(state.view(viewer))
                    if viewer != request.seat and other.pending() == state.pending():
                        mine = state.clone().apply(request.seat, index)
                        theirs = other.apply(request.seat, index)
                        assert visible(theirs, viewer) == visible(mine, viewer)
                        compared += 1
            state.apply(request.seat, index)
            step += 1
        assert compared > 100


def test_a_seat_sees_its_own_cards_and_only_counts_of_others():
    state = load_game("black_fleet").new_game(4, 3)
    mine = state.view(1)
    assert mine["seats"][1]["movement_hand"] == state.seats[1].movement
    assert mine["seats"][1]["fortune_hand"] == state.seats[1].fortune
    assert [c["card"] for c in mine["seats"][1]["development"]] == list(
        state.seats[1].development.values()
    )
    for seat in (0, 2, 3):
        theirs = mine["seats"][seat]
        assert "movement_hand" not in theirs and "fortune_hand" not in theirs
        assert theirs["movement_cards_held"] == 2 and theirs["fortune_cards_held"] == 1
        assert theirs["development"] == [{"cost": c, "bought": False} for c in (5, 8, 11, 14)]
    public = state.view(None)
    assert all("movement_hand" not in s for s in public["seats"])
    text = dump(public)
    for card in state.box + state.movement_deck:
        assert f'"{card}"' not in text


def test_private_events_have_a_public_twin_without_the_secret():
    state = load_game("black_fleet").new_game(4, 3)
    events = state.setup_events
    for index, event in enumerate(events):
        if event.audience is None:
            continue
        twin = events[index + 1]
        assert twin.kind == event.kind and twin.audience is None
        assert "cards" in event.data and "cards" not in twin.data
        assert not event.visible_to(None)
        assert all(not event.visible_to(s) for s in range(4) if s != event.data["seat"])


def test_bought_development_cards_are_public():
    from admiralty.games.black_fleet import arrange

    state = load_game("black_fleet").new_game(4, 3)
    arrange.position(state, bought={2: [8]})
    card = state.seats[2].development[8]
    assert state.view(0)["seats"][2]["development"][1] == {
        "cost": 8,
        "bought": True,
        "card": card,
        "title": state.data.development[card].title,
    }
