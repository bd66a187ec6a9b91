"""Moving ([jamaica §6.2]), arriving ([jamaica §6.2.6]) and paying ([jamaica §6.3])."""

from __future__ import annotations

from jamaica_helpers import new, public, round_with

from admiralty.games import Window
from admiralty.games.jamaica import arrange
from admiralty.games.jamaica.arrange import choose, keys

FORWARD_BACKWARD, BACKWARD_FORWARD, FORWARD_FORWARD, FORWARD_FOOD = 1, 2, 3, 4


def test_the_mover_chooses_the_branch_at_a_fork():
    """[jamaica §6.2.4, G8]: forward from fork A (space 6) the mover picks the outer lane (7) or
    the inner channel (13); only the end of the move costs anything ([jamaica §6.2.2])."""
    state = new(3)
    arrange.place(state, 0, 5)
    arrange.holds(state, 0, [("food", 6), ("gold", 3), None, None, None])
    round_with(state, {0: FORWARD_FOOD}, dice=(3, 1))
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (0, "fork", Window.TURN)
    assert keys(state) == ["fork:outer", "fork:inner"]
    assert dict(request.options[0].payload) == {"space": 7, "branch": "outer"}
    events = choose(state, "fork:inner", seat=0)
    assert public(events, "moved")[0] == {
        "ship": 0,
        "direction": 1,
        "from": 5,
        "to": 14,
        "path": [6, 13, 14],
        "lap": "racing",
    }
    assert public(events, "paid")[0] == {
        "ship": 0,
        "space": 14,
        "kind": "food",
        "amount": 4,
        "holds": [0],
        "amounts": [4],
    }
    assert state.ships[0].space == 14


def test_moving_backward_through_a_merge_offers_both_lanes():
    """[jamaica §6.2.4, §3.2]: backward from a merge the mover picks the lane."""
    state = new(3)
    arrange.place(state, 0, 16)
    arrange.holds(state, 0, [("food", 6), ("gold", 3), None, None, None])
    round_with(state, {0: BACKWARD_FORWARD}, dice=(2, 1))
    assert keys(state) == ["fork:outer", "fork:inner"]
    events = choose(state, "fork:outer", seat=0)
    moves = public(events, "moved")
    assert [(m["from"], m["path"]) for m in moves] == [(16, [15, 12]), (12, [15])]
    assert state.ships[0].counts[0] == 6 - 2 - 3


def test_a_first_move_backward_goes_behind_the_start_and_the_lap_starts_later():
    """[jamaica §6.2.3, §3.2]: backward off Port Royal enters the last spaces
    before it (pre_start); a forward move carries the ship through Port Royal into its lap
    without finishing."""
    state = new(3)
    arrange.holds(state, 0, [("food", 9), ("gold", 3), None, None, None])
    events = round_with(state, {0: BACKWARD_FORWARD}, dice=(2, 3))
    moves = public(events, "moved")
    assert moves[0]["path"] == [49, 48] and moves[0]["lap"] == "pre_start"
    assert moves[1]["path"] == [49, 0, 1] and moves[1]["lap"] == "racing"
    assert public(events, "finished") == []
    assert (state.ships[0].space, state.ships[0].lap) == (1, "racing")
    assert state.view(None)["players"][0]["steps_left"] == 31


def test_a_ship_behind_the_start_is_behind_every_ship_on_its_lap():
    """[jamaica §3.2, G11]: pre_start ships count as further from the finish than racing ships."""
    state = new(3)
    arrange.place(state, 0, 49, "pre_start")
    arrange.place(state, 1, 1)
    view = state.view(None)["players"]
    assert [p["steps_left"] for p in view] == [33, 31, 32]
    assert [p["lap"] for p in view] == ["pre_start", "racing", "pre_start"]


def test_finishing_in_the_morning_ignores_the_evening_and_ends_the_game_after_the_round():
    """[jamaica §14.2] case 10: 3 steps left on the die are lost, the evening action is
    ignored, the other players still play, and the game ends after the round."""
    state = new(3)
    arrange.place(state, 0, 48)
    events = round_with(state, {0: FORWARD_FORWARD}, dice=(5, 2))
    assert public(events, "moved")[0]["path"] == [49, 0]
    assert public(events, "finished") == [{"ship": 0, "round": 1}]
    assert public(events, "action_ignored") == [
        {"seat": 0, "half": "evening", "symbol": "forward", "reason": "finished"}
    ]
    assert [e["seat"] for e in public(events, "card_revealed")] == [0, 1, 2]
    assert state.outcome() is not None and state.phase == "game_over"
    assert state.pending() == []
    assert state.ships[0].lap == "finished" and state.ships[0].space == 0


def test_a_move_move_card_fights_and_pays_before_the_second_move():
    """[jamaica §14.2] case 4: the first move ends on an occupied space: its combat
    and its cost come before the second move."""
    state = new(3)
    arrange.place(state, 0, 16)
    arrange.place(state, 1, 18)
    arrange.rig(state, combat=[4, 4])
    events = round_with(state, {0: FORWARD_FORWARD}, dice=(2, 1))
    order = [
        e.kind
        for e in events
        if e.audience is None
        and e.kind in ("moved", "combat_started", "combat_result", "paid", "treasure_drawn")
    ]
    assert order == ["moved", "combat_started", "combat_result", "paid", "moved", "treasure_drawn"]
    assert public(events, "paid")[0]["space"] == 18


def test_the_payer_chooses_which_holds_pay_when_it_matters():
    """[jamaica §6.3]: any split over holds of the right kind; splits leaving
    the same contents are one choice; the first empties the smallest hold first."""
    state = new(3)
    arrange.place(state, 0, 16)
    arrange.holds(state, 0, [("food", 3), ("gold", 3), ("gold", 5), None, None])
    round_with(state, {0: FORWARD_FOOD}, dice=(2, 1))
    request = state.pending()[0]
    assert (request.kind, request.window, request.default) == ("pay", Window.TURN, 0)
    assert keys(state) == ["pay:1=3", "pay:1=2,2=1", "pay:1=1,2=2"]
    assert dict(request.options[1].payload) == {"holds": [1, 2], "amounts": [2, 1]}
    choose(state, "pay:1=1,2=2", seat=0)
    assert state.ships[0].counts[1:3] == [2, 3]


def test_no_question_when_only_one_payment_is_possible():
    """[jamaica §6.3]: the whole of both holds is the only way to pay 3 from 1 + 2."""
    state = new(3)
    arrange.place(state, 0, 16)
    arrange.holds(state, 0, [("food", 3), ("gold", 1), ("gold", 2), None, None])
    events = round_with(state, {0: FORWARD_FOOD}, dice=(2, 1))
    assert public(events, "paid")[0] == {
        "ship": 0,
        "space": 18,
        "kind": "gold",
        "amount": 3,
        "holds": [1, 2],
        "amounts": [1, 2],
    }
    assert state.pending()[0].kind == "place_dice"


def test_one_hold_of_the_kind_pays_without_a_question():
    """[jamaica §6.3]: the cost comes out of the only hold of that kind, the rest stays."""
    state = new(3)
    arrange.place(state, 0, 16)
    arrange.holds(state, 0, [("food", 3), ("gold", 5), None, None, None])
    events = round_with(state, {0: FORWARD_FOOD}, dice=(2, 1))
    assert public(events, "paid")[0] == {
        "ship": 0,
        "space": 18,
        "kind": "gold",
        "amount": 3,
        "holds": [1],
        "amounts": [3],
    }
    assert (state.ships[0].kinds[1], state.ships[0].counts[1]) == ("gold", 2)
    assert state.pending()[0].kind == "place_dice"


def test_the_attacker_picks_one_of_several_ships_and_fights_only_it():
    """[jamaica §14.2] case 11, [jamaica §6.2.6]: one combat, against the ship chosen."""
    state = new(3)
    arrange.place(state, 0, 16)
    arrange.place(state, 1, 18)
    arrange.place(state, 2, 18)
    arrange.rig(state, combat=[4, 4])
    round_with(state, {0: FORWARD_FOOD}, dice=(2, 1))
    request = state.pending()[0]
    assert (request.seat, request.kind) == (0, "target")
    assert keys(state) == ["target:1", "target:2"]
    events = choose(state, "target:2", seat=0)
    assert public(events, "combat_started") == [{"attacker": 0, "defender": 2, "space": 18}]


def test_no_combat_on_port_royal():
    """[jamaica §14.2] case 12, [jamaica G9]: ships meeting on Port Royal do not fight, and
    a ship that reaches it from behind the start line pays nothing."""
    state = new(3)
    arrange.place(state, 0, 49, "pre_start")
    events = round_with(state, {0: FORWARD_FOOD}, dice=(1, 1))
    assert public(events, "combat_started") == [] and public(events, "paid") == []
    assert (state.ships[0].space, state.ships[0].lap) == (0, "pre_start")


def test_passing_a_lair_takes_nothing_from_it():
    """[jamaica §6.2.2]: sailing through the lair at 4 to the port at 5,
    the ship takes no treasure (the lair keeps it) and pays only the port."""
    state = new(3)
    arrange.place(state, 0, 3)
    events = round_with(state, {0: FORWARD_FOOD}, dice=(2, 1))
    assert public(events, "moved")[0]["path"] == [4, 5]
    assert public(events, "treasure_drawn") == []
    assert 4 in state.lairs and len(state.treasure_deck) == 9
    assert public(events, "paid") == [
        {"ship": 0, "space": 5, "kind": "gold", "amount": 3, "holds": [1], "amounts": [3]}
    ]
