"""Shortage ([jamaica §6.4]): pay everything, retreat to the first space that can be paid."""

from __future__ import annotations

from jamaica_helpers import new, public, round_with

from admiralty.games import Window
from admiralty.games.jamaica import arrange
from admiralty.games.jamaica.arrange import choose, keys

FORWARD_FOOD = 4


def test_a_sea_shortage_pays_all_food_and_retreats_to_an_affordable_port():
    """[jamaica §14.2] case 1: 2 food for a 3-square space: pay the 2, sail back past the sea
    space (no food left) to the port it can pay in full, and pay it there."""
    state = new(3)
    arrange.place(state, 0, 45)
    arrange.holds(state, 0, [("food", 2), ("gold", 7), None, None, None])
    events = round_with(state, {0: FORWARD_FOOD}, dice=(2, 1))
    assert public(events, "shortage") == [
        {"ship": 0, "space": 47, "kind": "food", "cost": 3, "paid": 2}
    ]
    assert public(events, "retreated") == [
        {"ship": 0, "from": 47, "to": 45, "path": [46, 45], "lap": "racing"}
    ]
    assert public(events, "paid") == [
        {"ship": 0, "space": 45, "kind": "gold", "amount": 7, "holds": [1], "amounts": [7]}
    ]
    assert state.ships[0].space == 45
    assert state.ships[0].total("gold") == 0 and state.ships[0].total("food") == 1


def test_a_lair_always_stops_the_retreat_and_its_treasure_is_taken():
    """[jamaica §14.2] case 1, [jamaica G12]: 6 doubloons cannot pay the 7-doubloon port, so the
    retreat goes on to the lair, which is free; its treasure is taken automatically."""
    state = new(3)
    arrange.place(state, 0, 45)
    arrange.holds(state, 0, [("food", 2), ("gold", 6), None, None, None])
    arrange.treasure_deck(state, ["treasure_5"])
    events = round_with(state, {0: FORWARD_FOOD}, dice=(2, 1))
    assert public(events, "retreated")[0]["path"] == [46, 45, 44]
    assert public(events, "paid") == []
    assert public(events, "treasure_drawn") == [{"ship": 0, "space": 44, "face_down": True}]
    assert state.ships[0].hidden == ["treasure_5"] and 44 not in state.lairs


def test_a_port_shortage_retreats_to_a_sea_space_it_can_feed():
    """[jamaica §6.4.2]: after paying every doubloon the ship stops at the first space it
    can pay: here the 1-square sea space just behind, paid with food."""
    state = new(3)
    arrange.place(state, 0, 29)
    arrange.holds(state, 0, [("food", 1), ("gold", 2), None, None, None])
    events = round_with(state, {0: FORWARD_FOOD}, dice=(1, 1))
    assert public(events, "shortage")[0] == {
        "ship": 0,
        "space": 30,
        "kind": "gold",
        "cost": 5,
        "paid": 2,
    }
    assert public(events, "retreated")[0]["to"] == 29
    assert public(events, "paid")[-1] == {
        "ship": 0,
        "space": 29,
        "kind": "food",
        "amount": 1,
        "holds": [0],
        "amounts": [1],
    }


def test_the_retreat_stops_on_port_royal_at_the_latest():
    """[jamaica §6.4.6, G12]: no space before Port Royal can be paid: the ship stops there, free,
    behind the start line again."""
    state = new(3)
    arrange.place(state, 0, 1)
    arrange.holds(state, 0, [None, ("gold", 3), None, None, None])
    events = round_with(state, {0: FORWARD_FOOD}, dice=(1, 1))
    assert public(events, "retreated")[0] == {
        "ship": 0,
        "from": 2,
        "to": 0,
        "path": [1, 0],
        "lap": "pre_start",
    }
    assert (state.ships[0].space, state.ships[0].lap) == (0, "pre_start")


def test_the_retreating_player_chooses_the_lane_at_a_merge():
    """[jamaica §6.4.2]: at a fork the player chooses the branch."""
    state = new(3)
    arrange.place(state, 0, 15)
    arrange.holds(state, 0, [None, None, None, None, None])
    round_with(state, {0: FORWARD_FOOD}, dice=(1, 1))
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (0, "fork", Window.TURN)
    assert keys(state) == ["fork:outer", "fork:inner"]
    events = choose(state, "fork:inner", seat=0)
    assert public(events, "retreated")[0]["path"] == [15, 14, 13, 6, 5, 4]


def test_a_combat_on_the_retreat_comes_first_and_may_cause_a_new_shortage():
    """[jamaica §6.4.3, §6.4.5, G12]: the retreat ends on an occupied port, so
    the retreating ship attacks first; robbed of its doubloons it is short again."""
    state = new(3)
    arrange.place(state, 0, 44)
    arrange.place(state, 1, 45)
    arrange.holds(state, 0, [("food", 2), ("gold", 7), None, None, None])
    state.lairs.remove(44)
    arrange.rig(state, combat=[2, 10])
    round_with(state, {0: FORWARD_FOOD}, dice=(3, 1))
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (1, "loot", Window.INTERRUPT)
    events = choose(state, "loot:hold:1", seat=1)
    assert public(events, "shortage") == [
        {"ship": 0, "space": 45, "kind": "gold", "cost": 7, "paid": 0}
    ]
    assert public(events, "retreated")[0]["to"] == 44
    assert state.ships[1].total("gold") == 3 + 7 and state.ships[0].space == 44
    assert state.pending()[0].kind == "place_dice"
