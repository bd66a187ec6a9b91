"""The two-player Ghost Ship ([jamaica §10]; [jamaica §11] I-6, I-7; [jamaica §14.2] case 13)."""

from __future__ import annotations

from jamaica_helpers import new, private, public, round_with

from admiralty.games import Window
from admiralty.games.jamaica import arrange
from admiralty.games.jamaica.arrange import choose, keys
from admiralty.games.jamaica.options import GHOST

FORWARD_FOOD, GOLD_GOLD = 4, 8


def test_a_ghost_in_first_place_sails_backward_and_takes_lair_cards_face_down():
    """[jamaica §14.2] case 13: first in the race: backward, morning die then evening die
    ([jamaica G24]); it ends on a lair: the card stays face down, seen by nobody."""
    state = new(2)
    arrange.place(state, GHOST, 11)
    events = round_with(state, {}, dice=(2, 1))
    assert public(events, "ghost_sails") == [
        {"half": "morning", "direction": -1, "steps": 2, "reason": "first"},
        {"half": "evening", "direction": -1, "steps": 1, "reason": "first"},
    ]
    assert [m["path"] for m in public(events, "moved") if m["ship"] == GHOST] == [[10, 9], [8]]
    assert public(events, "treasure_drawn") == [{"ship": GHOST, "space": 9, "face_down": True}]
    assert [e for e in events if e.kind == "treasure_drawn" and e.audience] == []
    for viewer in (None, 0, 1):
        ghost = state.view(viewer)["ghost"]
        assert ghost["face_down_treasures"] == 1 and ghost["treasures"] is None


def test_a_ghost_in_last_place_sails_forward_and_pays_nothing():
    """[jamaica §14.2] case 13: last: forward; it never pays a cost ([jamaica §10.4])."""
    state = new(2)
    arrange.place(state, 0, 10)
    arrange.place(state, 1, 12)
    arrange.place(state, GHOST, 1)
    bank = dict(state.bank)
    events = round_with(state, {}, dice=(2, 1))
    assert [s["reason"] for s in public(events, "ghost_sails")] == ["last", "last"]
    assert state.ghost.space == 4
    assert [p for p in public(events, "paid") if p["ship"] == GHOST] == []
    assert state.bank["gold"] == bank["gold"]


def test_otherwise_the_captain_chooses_the_ghosts_direction():
    """[jamaica §10.2, G25], [jamaica §11] I-7: neither strictly first nor last (a tie at the start
    counts as neither): the Captain decides, on the Captain's turn."""
    state = new(2)
    round_with(state, {}, captain=1, dice=(2, 1))
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (1, "ghost_direction", Window.TURN)
    assert keys(state) == ["ghost:forward", "ghost:backward"]
    events = choose(state, "ghost:backward", seat=1)
    assert public(events, "ghost_sails") == [
        {"half": "morning", "direction": -1, "steps": 2, "reason": "captain"},
        {"half": "evening", "direction": 1, "steps": 1, "reason": "last"},
    ]
    assert (state.ghost.space, state.ghost.lap) == (49, "pre_start")


def ghost_attacks_the_captain(rolls, state=None):
    """The Captain (seat 0, at 30) steers the Ghost (at 28) onto its own ship."""
    state = state or new(2)
    arrange.place(state, 0, 30)
    arrange.place(state, 1, 5)
    arrange.place(state, GHOST, 28)
    arrange.rig(state, combat=rolls)
    round_with(state, {0: GOLD_GOLD}, dice=(2, 1))
    choose(state, "ghost:forward", seat=0)
    return state


def test_the_ghost_fights_with_plus_two_run_by_the_player_not_in_the_combat():
    """[jamaica §10] (combat), [jamaica §11] I-6: the other player decides for the Ghost, out of
    turn; the Ghost has no gunpowder and its Lady Beth gives +2; it never gives a card."""
    state = ghost_attacks_the_captain([6, 4])
    combat = state.view(None)["combat"]
    assert combat["attacker"] == GHOST and combat["defender"] == 0
    assert combat["strengths"] == [8, 4] and combat["winner"] == GHOST
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (1, "loot", Window.INTERRUPT)
    assert keys(state) == ["loot:none", "loot:hold:0", "loot:hold:1", "loot:hold:2", "loot:hold:3"]


def test_the_ghost_throws_everything_but_gold_into_the_sea():
    """[jamaica §14.2] case 13: after winning, the Ghost keeps only gold."""
    state = ghost_attacks_the_captain([6, 4])
    bank = state.bank["food"]
    events = choose(state, "loot:hold:0", seat=1)
    assert public(events, "overboard") == [{"ship": GHOST, "kind": "food", "count": 3}]
    assert state.bank["food"] == bank + 3 and state.ships[0].counts[0] == 0
    assert state.ghost.total("food") == 0


def test_the_ghost_loads_the_gold_it_wins():
    """[jamaica §10]: stolen gold goes into the Ghost's holds by the loading rules."""
    state = ghost_attacks_the_captain([6, 4])
    choose(state, "loot:hold:1", seat=1)
    assert list(zip(state.ghost.kinds, state.ghost.counts, strict=True))[:3] == [
        ("gold", 5),
        ("gold", 3),
        ("gold", 3),
    ]


def player_beats_the_ghost(state):
    arrange.place(state, 0, 16)
    arrange.place(state, 1, 40)
    arrange.place(state, GHOST, 18)
    arrange.rig(state, combat=[10, 2])
    round_with(state, {0: FORWARD_FOOD}, dice=(2, 1))
    return state


def test_a_player_who_beats_the_ghost_cannot_take_lady_beth_but_may_give_any_card():
    """[jamaica §10, G16]: its holds, its cards (face-down ones blind), never Lady Beth; a
    player may give the Ghost any treasure card."""
    state = new(2)
    arrange.treasure(state, GHOST, "treasure_5")
    arrange.treasure(state, 0, "treasure_7a")
    player_beats_the_ghost(state)
    assert keys(state) == [
        "loot:none",
        "loot:hold:0",
        "loot:hold:1",
        "loot:blind:0",
        "give:treasure:7",
    ]
    events = choose(state, "give:treasure:7", seat=0)
    assert state.ghost.hidden == ["treasure_5", "treasure_7a"]
    assert private(events, "spoils", 0)[0]["treasure"] == "treasure_7a"
    assert public(events, "spoils") == [
        {"winner": 0, "loser": GHOST, "loot": "give", "face_down": True}
    ]


def test_a_ghost_reaching_port_royal_stops_and_does_not_end_the_game():
    """[jamaica §10.6, G25]: it stops there like a ship; then, first, it sails backward."""
    state = new(2)
    arrange.place(state, 0, 49)
    arrange.place(state, 1, 49)
    arrange.place(state, GHOST, 48)
    events = round_with(state, {}, dice=(3, 1))
    ghost_moves = [m for m in public(events, "moved") if m["ship"] == GHOST]
    assert ghost_moves[0]["path"] == [49, 0] and ghost_moves[0]["lap"] == "finished"
    assert public(events, "finished") == [{"ship": GHOST, "round": 1}]
    assert state.finishers == [] and state.outcome() is None
    assert [s["reason"] for s in public(events, "ghost_sails")] == ["last", "first"]
    assert (state.ghost.space, state.ghost.lap) == (49, "racing")
    request = state.pending()[0]
    assert (request.seat, request.kind) == (0, "target")
    assert keys(state) == ["target:0", "target:1"]


def test_the_captain_defending_against_the_ghost_answers_out_of_turn():
    """[jamaica §11] I-2, I-4: a defender's answers are INTERRUPTs, the Captain's too when
    it steers the Ghost onto its own ship in the Ghost phase."""
    state = new(2)
    arrange.holds(state, 0, [("food", 3), ("gold", 3), ("gunpowder", 2), None, None])
    state = ghost_attacks_the_captain([6, 8], state)
    assert state.active == 0 and state.view(None)["combat"]["strengths"] == [8, None]
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (0, "gunpowder", Window.INTERRUPT)
    choose(state, "gunpowder:2", seat=0)
    assert state.view(None)["combat"]["winner"] == 0
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (0, "loot", Window.INTERRUPT)


def test_the_captain_chooses_the_ghosts_route_at_a_fork():
    """[jamaica §10.3], [jamaica §11] I-7: the Captain (seat 1 here) steers the Ghost at fork A,
    on the Captain's turn in the Ghost phase."""
    state = new(2)
    arrange.place(state, 0, 20)
    arrange.place(state, 1, 30)
    arrange.place(state, GHOST, 5)
    round_with(state, {}, captain=1, dice=(2, 1))
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (1, "fork", Window.TURN)
    assert keys(state) == ["fork:outer", "fork:inner"]
    events = choose(state, "fork:inner", seat=1)
    assert [m["path"] for m in public(events, "moved") if m["ship"] == GHOST] == [[6, 13], [14]]
    assert state.ghost.space == 14


def test_gold_the_ghost_cannot_load_goes_to_the_bank():
    """[jamaica §10] (combat), [jamaica G25]: every hold of the Ghost holds gold and a hold of its
    own kind may not be emptied ([jamaica G6]), so the gold it wins is thrown back to the bank."""
    state = new(2)
    arrange.holds(state, GHOST, [("gold", 5), ("gold", 3), ("gold", 1), ("gold", 1), ("gold", 1)])
    state = ghost_attacks_the_captain([6, 4], state)
    bank = state.bank["gold"]
    events = choose(state, "loot:hold:1", seat=1)
    assert public(events, "overboard") == [{"ship": GHOST, "kind": "gold", "count": 3}]
    assert state.bank["gold"] == bank + 3 and state.ships[0].total("gold") == 2 + 1
    assert state.ghost.total("gold") == 11


def test_the_ghost_steals_a_face_down_card_blind_and_nobody_but_its_victim_sees_it():
    """[jamaica §10, §12, G25]: its controller picks a slot blind; the card stays face down by
    the Ghost, known only to the player it was taken from."""
    state = new(2)
    arrange.treasure(state, 0, "treasure_5")
    state = ghost_attacks_the_captain([6, 4], state)
    assert "loot:blind:0" in keys(state)
    events = choose(state, "loot:blind:0", seat=1)
    assert private(events, "spoils", 0)[0]["treasure"] == "treasure_5"
    assert private(events, "spoils", 1) == []
    assert public(events, "spoils") == [
        {"winner": GHOST, "loser": 0, "loot": "blind", "slot": 0, "face_down": True}
    ]
    assert state.ghost.hidden == ["treasure_5"] and state.ships[0].hidden == []
    assert state.view(1)["ghost"]["treasures"] is None


def test_a_power_the_ghost_steals_lies_face_up_by_it():
    """[jamaica §10, G25]: its controller takes a face-up card knowingly; the card stays face
    up. (The defending Captain first passes its Sabre, out of turn, on both rolls.)"""
    state = new(2)
    arrange.treasure(state, 0, "sarans_sabre")
    state = ghost_attacks_the_captain([6, 4], state)
    assert state.pending()[0].window == Window.INTERRUPT
    choose(state, "pass", seat=0)
    choose(state, "pass", seat=0)
    events = choose(state, "loot:treasure:sarans_sabre", seat=1)
    assert public(events, "spoils") == [
        {"winner": GHOST, "loser": 0, "loot": "treasure", "treasure": "sarans_sabre"}
    ]
    assert state.view(None)["ghost"]["powers"] == ["sarans_sabre"]
    assert state.ships[0].powers == []


def test_the_ghost_never_uses_a_power_it_holds():
    """[jamaica §10, G25]: holding the Sabre, the Ghost is never offered a reroll; its roll of 2
    (+2) simply loses to an 8."""
    state = new(2)
    arrange.treasure(state, GHOST, "sarans_sabre")
    state = ghost_attacks_the_captain([2, 8], state)
    assert state.view(None)["combat"]["rolls"] == [2, 8]
    request = state.pending()[0]
    assert (request.seat, request.kind) == (0, "loot")


def test_a_sixth_hold_the_ghost_steals_keeps_only_gold():
    """[jamaica §10, G25]: the card goes face up with its hold; what is not gold goes overboard."""
    state = new(2)
    arrange.treasure(state, 0, "sixth_hold")
    arrange.holds(state, 0, [("food", 3), ("gold", 3), None, None, None, ("food", 4)])
    state = ghost_attacks_the_captain([6, 4], state)
    events = choose(state, "loot:treasure:sixth_hold", seat=1)
    assert public(events, "overboard") == [{"ship": GHOST, "kind": "food", "count": 4}]
    assert state.ghost.powers == ["sixth_hold"] and state.ghost.counts[5] == 0
    assert len(state.ships[0].kinds) == 5
