"""The round ([jamaica §5]): dice, sealed card choice, resolution order, refill, compass."""

from __future__ import annotations

import pytest
from jamaica_helpers import QUIET, deal, new, play, private, public, round_with, start

from admiralty.games import IllegalAction, Window
from admiralty.games.jamaica import arrange
from admiralty.games.jamaica.arrange import choose, keys


def test_the_captain_chooses_which_die_is_morning_and_which_evening():
    """[jamaica §5.1]: two orders of the rolled dice, a TURN for the Captain."""
    state = new(3)
    arrange.captain(state, 1, dice=(5, 2))
    [request] = state.pending()
    assert request.seat == 1 and request.window == Window.TURN
    assert keys(state) == ["dice:sun=5,moon=2", "dice:sun=2,moon=5"]
    assert dict(request.options[1].payload) == {"morning": 2, "evening": 5}
    events = choose(state, "dice:sun=2,moon=5", seat=1)
    assert public(events, "dice_placed") == [{"captain": 1, "morning": 2, "evening": 5}]
    assert (state.morning, state.evening) == (2, 5)


def test_equal_dice_still_publish_the_single_placement():
    """[jamaica §5.1]: equal dice leave no choice; the request is published anyway."""
    state = new(3)
    arrange.captain(state, 0, dice=(4, 4))
    assert keys(state, 0) == ["dice:sun=4,moon=4"]


def test_every_seat_chooses_a_card_in_one_sealed_window():
    """[jamaica §5.2], [jamaica §11] I-1: one SEALED request per seat not yet chosen, one window
    id."""
    state = new(4)
    start(state, captain=2)
    requests = state.pending()
    assert [r.seat for r in requests] == [0, 1, 2, 3]
    assert {r.window for r in requests} == {Window.SEALED}
    assert len({r.window_id for r in requests}) == 1
    assert {r.kind for r in requests} == {"choose_card"}
    hand = state.ships[1].hand[:]
    assert keys(state, 1) == [f"card:{c}" for c in hand]
    events = state.apply(1, 0)
    assert [r.seat for r in state.pending()] == [0, 2, 3]
    assert state.pending()[0].window_id == requests[0].window_id
    assert private(events, "card_chosen", 1) == [{"seat": 1, "card": hand[0]}]
    assert public(events, "card_chosen") == [{"seat": 1}]


def test_no_view_reveals_a_choice_until_its_owner_resolves_it():
    """[jamaica §5.2, §5.3, §12, G7]: others see only that a card was chosen till it is shown."""
    state = new(3)
    deal(state, {0: QUIET, 1: 3, 2: QUIET})
    start(state, captain=0)
    choose(state, "card:3", seat=1)
    for viewer in (None, 0, 2):
        seat1 = state.view(viewer)["players"][1]
        assert seat1["has_chosen"] and seat1["revealed_card"] is None
        assert seat1["chosen_card"] is None and seat1["hand"] is None
    assert state.view(1)["players"][1]["chosen_card"] == 3


def test_cards_resolve_from_the_captain_leftwards_morning_before_evening():
    """[jamaica §5.3]: Captain first, then to the left; each card's morning action,
    then its evening one; each card is revealed only when its owner resolves it ([jamaica G7])."""
    state = new(4)
    events = round_with(state, {}, captain=2)
    order = [
        (e.kind, e.data.get("seat", e.data.get("ship")))
        for e in events
        if e.kind in ("card_revealed", "loaded") and e.audience is None
    ]
    assert order == [
        ("card_revealed", 2),
        ("loaded", 2),
        ("loaded", 2),
        ("card_revealed", 3),
        ("loaded", 3),
        ("loaded", 3),
        ("card_revealed", 0),
        ("loaded", 0),
        ("loaded", 0),
        ("card_revealed", 1),
        ("loaded", 1),
        ("loaded", 1),
    ]
    gunpowder, food = public(events, "loaded")[:2]
    assert (gunpowder["kind"], gunpowder["count"]) == ("gunpowder", 4)
    assert (food["kind"], food["count"]) == ("food", 2)


def test_morning_cost_cannot_be_paid_with_evening_food():
    """[jamaica §14.2] case 3: 1 food, a morning move onto a 2-square sea space, an evening
    load of 5 food: the morning is a shortage; the food comes only after."""
    state = new(3)
    arrange.place(state, 0, 16)
    arrange.holds(state, 0, [("food", 1), ("gold", 6), None, None, None])
    events = round_with(state, {0: 4}, dice=(1, 5))
    assert public(events, "shortage") == [
        {"ship": 0, "space": 17, "kind": "food", "cost": 2, "paid": 1}
    ]
    assert public(events, "retreated")[0]["to"] == 16
    loaded = public(events, "loaded")[0]
    assert (loaded["ship"], loaded["kind"], loaded["count"]) == (0, "food", 5)


def test_hands_refill_to_three_and_the_compass_passes_left():
    """[jamaica §5.4]: draw back up to 3; played cards stay in the discard pile;
    the next player on the left becomes Captain."""
    state = new(3)
    events = round_with(state, {}, captain=2)
    for seat, ship in enumerate(state.ships):
        assert len(ship.hand) == 3 and ship.discard == [QUIET] and len(ship.deck) == 7
        drawn = private(events, "cards_drawn", seat)[0]
        assert drawn["hand"] == ship.hand and len(drawn["cards"]) == 1
    assert public(events, "cards_drawn")[0] == {"seat": 0, "count": 1}
    assert state.captain == 0 and state.round == 2
    assert public(events, "round_ended") == [{"round": 1, "captain": 0}]
    assert state.pending()[0].kind == "place_dice" and state.pending()[0].seat == 0


def test_the_refill_draws_from_the_top_of_the_deck():
    """[jamaica §5.4]: each player draws the top card of their own deck."""
    state = new(3)
    deal(state, {})
    top = next(card for card in state.ships[0].deck if card != QUIET)
    arrange.deck(state, 0, [top])
    events = start(state) + play(state, {})
    assert private(events, "cards_drawn", 0)[0]["cards"] == [top]


def test_morgans_map_raises_the_hand_to_four():
    """[jamaica §5.4, §8.2, G19]: the Map's holder draws back up to 4 cards."""
    state = new(3)
    arrange.treasure(state, 1, "morgans_map")
    round_with(state, {})
    assert [len(ship.hand) for ship in state.ships] == [3, 4, 3]
    assert state.view(1)["players"][1]["hand_limit"] == 4


def test_an_empty_deck_is_reshuffled_from_the_discard_pile():
    """[jamaica §5.4]: a draw from an empty deck reshuffles the discard pile."""
    state = new(3)
    deal(state, {})
    ship = state.ships[0]
    ship.discard, ship.deck = ship.deck, []
    events = start(state) + play(state, {})
    assert public(events, "deck_reshuffled") == [{"seat": 0, "deck_size": 9}]
    assert len(ship.hand) == 3 and len(ship.deck) == 8 and ship.discard == []


@pytest.mark.parametrize("seat, index", [(0, 0), (1, 7), (1, -1), (5, 0), (1, True), (1, "0")])
def test_an_answer_without_an_open_request_or_option_is_refused_and_changes_nothing(seat, index):
    """[jamaica §5.2] and the engine contract (an illegal answer changes nothing): seat 0 has
    chosen, so only seats 1 and 2 may answer, and only with an index of their options."""
    state = new(3)
    start(state)
    choose(state, keys(state, 0)[0], seat=0)
    digest, pending = state.digest(), state.pending()
    with pytest.raises(IllegalAction):
        state.apply(seat, index)
    assert state.digest() == digest and state.pending() == pending


def test_a_player_who_loses_morgans_map_draws_nothing_until_below_three():
    """[jamaica §8.2, G19]: seat 1 holds the Map and 4 cards and plays one; seat 0 takes the Map
    from it in battle. At the round's end seat 1, with 3 cards and a limit of 3 again, draws
    nothing (nothing is discarded), while seat 0 draws up to 4."""
    state = new(3)
    arrange.treasure(state, 1, "morgans_map")
    arrange.hand(state, 1, [QUIET, 1, 2, 3])
    arrange.place(state, 0, 16)
    arrange.place(state, 1, 18)
    arrange.rig(state, combat=["star"])
    round_with(state, {0: 4}, dice=(2, 1))
    events = choose(state, "loot:treasure:morgans_map", seat=0)
    assert [len(ship.hand) for ship in state.ships] == [4, 3, 3]
    assert state.ships[1].hand == [1, 2, 3]
    assert private(events, "cards_drawn", 1) == []
    assert [e["count"] for e in public(events, "cards_drawn")] == [2, 1]
    assert state.view(1)["players"][1]["hand_limit"] == 3


def test_the_compass_and_the_turns_go_round_the_seats_in_number_order():
    """[jamaica §5.3, §5.4, G28]: seats are the lobby's numbers and "to the left" is the
    next number: with the last seat of 5 as Captain, 4 plays first, then 0, 1, 2, 3, and
    the compass wraps round to seat 0."""
    state = new(5)
    events = round_with(state, {}, captain=4)
    assert [e["seat"] for e in public(events, "card_revealed")] == [4, 0, 1, 2, 3]
    assert public(events, "round_ended") == [{"round": 1, "captain": 0}]
    assert state.pending()[0].seat == 0
