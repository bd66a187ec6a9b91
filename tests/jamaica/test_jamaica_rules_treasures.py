"""Pirate lairs and treasure cards ([jamaica §6.3, §8, §12])."""

from __future__ import annotations

from jamaica_helpers import new, private, public, round_with

from admiralty.games.jamaica import arrange

FORWARD_FOOD = 4


def land_on_lair(first_card: str, seat: int = 0, state=None):
    """`seat` sails from space 3 onto the lair at 4, whose card is `first_card`."""
    state = state or new(3)
    arrange.place(state, seat, 3)
    arrange.treasure_deck(state, [first_card])
    return state, round_with(state, {seat: FORWARD_FOOD}, dice=(1, 1))


def test_a_scoring_treasure_is_drawn_face_down_and_only_its_holder_sees_it():
    """[jamaica §6.3, §12, G13]: automatic; face down; the others see only a count."""
    state, events = land_on_lair("cursed_4")
    assert private(events, "treasure_drawn", 0) == [
        {"ship": 0, "space": 4, "face_down": True, "treasure": "cursed_4", "value": -4}
    ]
    assert public(events, "treasure_drawn") == [{"ship": 0, "space": 4, "face_down": True}]
    assert state.ships[0].hidden == ["cursed_4"]
    mine, theirs = state.view(0)["players"][0], state.view(1)["players"][0]
    assert mine["treasures"] == [-4] and mine["face_down_treasures"] == 1
    assert theirs["treasures"] is None and theirs["face_down_treasures"] == 1
    assert mine["score"] == theirs["score"] - 4


def test_a_power_is_drawn_face_up_for_everyone_to_see():
    """[jamaica §6.3]: a power goes face up next to the holds."""
    state, events = land_on_lair("lady_beth")
    assert public(events, "treasure_drawn") == [
        {"ship": 0, "space": 4, "face_down": False, "treasure": "lady_beth"}
    ]
    assert state.view(2)["players"][0]["powers"] == ["lady_beth"]


def test_each_lair_gives_one_card_to_the_first_ship_only():
    """[jamaica §8.1]: the marker leaves with the card; the next ship finds nothing."""
    state, _ = land_on_lair("treasure_3a")
    assert 4 not in state.lairs and state.view(None)["lairs_with_treasure"] == [
        9,
        11,
        19,
        22,
        25,
        33,
        37,
        44,
    ]
    assert state.view(None)["treasure_deck"] == 8
    arrange.place(state, 1, 3)
    events = round_with(state, {1: FORWARD_FOOD}, dice=(1, 1))
    assert public(events, "treasure_drawn") == []


def test_the_sixth_hold_adds_a_hold_under_the_loading_rules():
    """[jamaica §8.2]: the 6th Hold works as a sixth hold."""
    state, _ = land_on_lair("sixth_hold")
    holds = state.view(None)["players"][0]["holds"]
    assert len(holds) == 6 and holds[5] == {"kind": None, "count": 0, "sixth": True}
    assert [o.key for o in state.pending()[0].options] == ["hold:2", "hold:5"]
