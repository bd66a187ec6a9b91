"""Combat ([jamaica §7]) and the Sabre, Lady Beth and the 6th Hold in it ([jamaica §8.2])."""

from __future__ import annotations

from jamaica_helpers import new, private, public, round_with

from admiralty.games import Window
from admiralty.games.jamaica import arrange
from admiralty.games.jamaica.arrange import choose, keys

FORWARD_FOOD = 4
START = [("food", 3), ("gold", 3), None, None, None]


def battle(rolls, attacker=START, defender=START, state=None, **options):
    """Seat 0 sails from 16 onto seat 1 at 18 (a 3-doubloon port) with these holds."""
    state = state or new(3, **options)
    arrange.place(state, 0, 16)
    arrange.place(state, 1, 18)
    arrange.holds(state, 0, attacker)
    arrange.holds(state, 1, defender)
    arrange.rig(state, combat=rolls)
    events = round_with(state, {0: FORWARD_FOOD}, dice=(2, 1))
    return state, events


def test_the_attacker_spends_any_gunpowder_before_rolling():
    """[jamaica §7] C1: 0 up to all its gunpowder, a TURN; spent tokens go to the bank."""
    state, events = battle([6, 4], attacker=[("gunpowder", 3), ("gold", 3), None, None, None])
    assert public(events, "combat_started") == [{"attacker": 0, "defender": 1, "space": 18}]
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window, request.default) == (
        0,
        "gunpowder",
        Window.TURN,
        0,
    )
    assert keys(state) == ["gunpowder:0", "gunpowder:1", "gunpowder:2", "gunpowder:3"]
    assert dict(request.options[2].payload) == {"amount": 2}
    bank = state.bank["gunpowder"]
    events = choose(state, "gunpowder:2", seat=0)
    assert public(events, "gunpowder_spent") == [{"ship": 0, "role": "attacker", "amount": 2}]
    assert state.bank["gunpowder"] == bank + 2 and state.ships[0].total("gunpowder") == 1
    result = public(events, "combat_result")[0]
    assert result == {
        "attacker": 0,
        "defender": 1,
        "winner": 0,
        "loser": 1,
        "faces": [6, 4],
        "gunpowder": [2, 0],
        "strengths": [8, 4],
    }


def test_an_attackers_star_wins_at_once_and_its_gunpowder_is_gone():
    """[jamaica §14.2] case 5: the defender neither spends gunpowder nor rolls."""
    state, _ = battle(
        ["star"],
        attacker=[("gunpowder", 2), ("gold", 3), None, None, None],
        defender=[("gunpowder", 5), ("gold", 3), None, None, None],
    )
    events = choose(state, "gunpowder:2", seat=0)
    assert [r["role"] for r in public(events, "combat_roll")] == ["attacker"]
    assert public(events, "combat_result")[0]["winner"] == 0
    assert state.ships[0].total("gunpowder") == 0 and state.ships[1].total("gunpowder") == 5
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (0, "loot", Window.TURN)


def test_the_defender_spends_gunpowder_out_of_turn_knowing_the_attack():
    """[jamaica §7] C6, [jamaica §11] I-2: an INTERRUPT for the defender after the attacker's
    strength is known; [jamaica §14.2] case 6: the defender's star beats an attack of 12."""
    state, _ = battle(
        [10, "star"],
        attacker=[("gunpowder", 2), ("gold", 3), None, None, None],
        defender=[("gunpowder", 1), ("gold", 3), None, None, None],
    )
    choose(state, "gunpowder:2", seat=0)
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (1, "gunpowder", Window.INTERRUPT)
    combat = state.view(1)["combat"]
    assert combat["strengths"] == [12, None] and combat["stage"] == "defender_gunpowder"
    events = choose(state, "gunpowder:0", seat=1)
    assert public(events, "combat_result")[0]["winner"] == 1
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (1, "loot", Window.INTERRUPT)


def test_equal_strengths_end_the_combat_with_no_spoils():
    """[jamaica §14.2] case 7: a tie: nothing happens."""
    state, events = battle([6, 8], attacker=[("gunpowder", 2), ("gold", 3), None, None, None])
    events = choose(state, "gunpowder:2", seat=0)
    assert public(events, "combat_result")[0]["winner"] is None
    assert public(events, "spoils") == [] and state.combat is None
    assert state.pending()[0].kind == "place_dice"


def test_lady_beth_adds_two_to_every_roll_of_her_holder():
    """[jamaica §8.2]: Lady Beth is +2 to combat strength."""
    state = new(3)
    arrange.treasure(state, 1, "lady_beth")
    state, events = battle([6, 4], state=state)
    assert [r["bonus"] for r in public(events, "combat_roll")] == [0, 2]
    assert public(events, "combat_result")[0]["strengths"] == [6, 6]


def test_the_winner_may_take_a_hold_a_card_blind_give_a_cursed_card_or_nothing():
    """[jamaica §7] C9, [jamaica G16, G17]: the spoils on offer, nothing first."""
    state = new(3)
    arrange.treasure(state, 1, "morgans_map")
    arrange.treasure(state, 1, "treasure_7a")
    arrange.treasure(state, 1, "cursed_2")
    arrange.treasure(state, 0, "cursed_3")
    arrange.treasure(state, 0, "treasure_5")
    state, _ = battle(
        ["star"],
        state=state,
        defender=[("food", 3), ("gold", 3), ("gunpowder", 2), ("food", 3), None],
    )
    request = state.pending()[0]
    assert request.default == 0 and not request.optional
    assert keys(state) == [
        "loot:none",
        "loot:hold:0",
        "loot:hold:1",
        "loot:hold:2",
        "loot:treasure:morgans_map",
        "loot:blind:0",
        "loot:blind:1",
        "give:cursed:-3",
    ]
    assert dict(request.options[5].payload) == {"loot": "blind", "slot": 0}
    assert dict(request.options[7].payload) == {"loot": "give", "treasure": "cursed_3", "value": -3}


def test_any_card_may_be_given_with_the_variant():
    """[jamaica G16]: with give_any_treasure the winner may give a player any of its cards."""
    state = new(3, give_any_treasure=True)
    arrange.treasure(state, 0, "cursed_3")
    arrange.treasure(state, 0, "treasure_5")
    arrange.treasure(state, 0, "morgans_map")
    state, _ = battle(["star"], state=state)
    assert [k for k in keys(state) if k.startswith("give")] == [
        "give:cursed:-3",
        "give:treasure:5",
        "give:power:morgans_map",
    ]


def test_a_stolen_hold_is_loaded_by_the_loading_rules():
    """[jamaica §7] C9 a: the whole hold; no empty hold, so the winner empties one of another
    kind first (the stash choice), and the loser's hold is left empty."""
    state, _ = battle(
        ["star"],
        attacker=[("food", 3), ("gold", 3), ("gold", 1), ("food", 2), ("food", 1)],
        defender=[("food", 4), ("gold", 5), None, None, None],
    )
    events = choose(state, "loot:hold:1", seat=0)
    assert public(events, "spoils") == [
        {"winner": 0, "loser": 1, "loot": "hold", "hold": 1, "kind": "gold", "count": 5}
    ]
    request = state.pending()[0]
    assert (request.seat, request.kind) == (0, "stash")
    assert keys(state) == ["empty:0", "empty:3", "empty:4"]
    choose(state, "empty:3", seat=0)
    assert state.ships[0].kinds[3] == "gold" and state.ships[0].counts[3] == 5
    assert state.ships[1].counts[1] == 0 and state.ships[1].kinds[1] is None


def test_a_hold_the_winner_cannot_load_is_not_offered():
    """[jamaica G14]: every hold of the winner holds gold, so the loser's gold is not on offer."""
    state, _ = battle(
        ["star"], attacker=[("gold", 1)] * 5, defender=[("food", 3), ("gold", 3), None, None, None]
    )
    assert keys(state) == ["loot:none", "loot:hold:0"]


def test_a_face_down_card_is_stolen_blind_and_only_thief_and_victim_learn_it():
    """[jamaica §7] C9 b, [jamaica §12]: picked by slot; the slot order is reshuffled."""
    state = new(3)
    arrange.treasure(state, 1, "treasure_7a")
    state, _ = battle(["star"], state=state)
    events = choose(state, "loot:blind:0", seat=0)
    secret = {
        "winner": 0,
        "loser": 1,
        "loot": "blind",
        "slot": 0,
        "face_down": True,
        "treasure": "treasure_7a",
        "value": 7,
    }
    assert private(events, "spoils", 0) == [secret] == private(events, "spoils", 1)
    assert private(events, "spoils", 2) == []
    assert public(events, "spoils") == [
        {"winner": 0, "loser": 1, "loot": "blind", "slot": 0, "face_down": True}
    ]
    assert state.view(0)["players"][0]["treasures"] == [7]
    assert state.view(2)["players"][0]["treasures"] is None


def test_the_blind_slots_are_shuffled_so_a_slot_tells_nothing():
    """[jamaica §12]: the order of the loser's face-down cards is reshuffled before every offer."""
    taken = set()
    for seed in range(12):
        state = new(3, seed=seed)
        arrange.treasure(state, 1, "treasure_7a")
        arrange.treasure(state, 1, "cursed_4")
        state, _ = battle(["star"], state=state)
        choose(state, "loot:blind:0", seat=0)
        taken.add(state.ships[0].hidden[0])
    assert taken == {"treasure_7a", "cursed_4"}


def test_giving_a_cursed_card_tells_others_only_that_it_was_cursed():
    """[jamaica §7] C9 c, [jamaica G16, G30]: giver and receiver see the card; others that it was
    cursed."""
    state = new(3)
    arrange.treasure(state, 0, "cursed_3")
    state, _ = battle(["star"], state=state)
    events = choose(state, "give:cursed:-3", seat=0)
    assert public(events, "spoils") == [
        {"winner": 0, "loser": 1, "loot": "give", "face_down": True, "cursed": True}
    ]
    assert private(events, "spoils", 1)[0]["treasure"] == "cursed_3"
    assert state.ships[1].hidden == ["cursed_3"] and state.ships[0].hidden == []


def test_nothing_to_take_and_nothing_to_give_skips_the_spoils():
    """[jamaica G18]: a loser with nothing and a winner with no cursed card: no question."""
    state, events = battle(["star"], defender=[None] * 5)
    assert public(events, "spoils") == [{"winner": 0, "loser": 1, "loot": "none"}]
    assert state.pending()[0].kind == "place_dice"


def test_stealing_the_sixth_hold_takes_its_contents():
    """[jamaica §14.2] case 9: the card moves to the thief with what is in it. (Board holds
    alike are one choice of hold to steal; the 6th Hold's contents are their own.)"""
    state = new(3)
    arrange.treasure(state, 1, "sixth_hold")
    state, _ = battle(
        ["star"],
        state=state,
        defender=[("food", 3), ("gunpowder", 4), None, ("gunpowder", 4), None, ("gunpowder", 4)],
    )
    assert keys(state) == [
        "loot:none",
        "loot:hold:0",
        "loot:hold:1",
        "loot:hold:5",
        "loot:treasure:sixth_hold",
    ]
    events = choose(state, "loot:treasure:sixth_hold", seat=0)
    assert public(events, "spoils")[0]["treasure"] == "sixth_hold"
    assert state.ships[0].powers == ["sixth_hold"]
    assert list(zip(state.ships[0].kinds, state.ships[0].counts, strict=True))[5] == (
        "gunpowder",
        4,
    )
    assert len(state.ships[1].kinds) == 5


def test_the_defender_with_the_sabre_forces_a_reroll_of_the_attackers_star():
    """[jamaica §14.2] case 8, [jamaica §11] I-3, [jamaica G15]: right after the roll, out of turn;
    the new result stands; no gunpowder is added; once per combat."""
    state = new(3)
    arrange.treasure(state, 1, "sarans_sabre")
    state, _ = battle(
        ["star", 4, 6],
        state=state,
        attacker=[("gunpowder", 1), ("gold", 3), None, None, None],
        defender=[("gunpowder", 1), ("gold", 3), None, None, None],
    )
    choose(state, "gunpowder:1", seat=0)
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window, request.optional) == (
        1,
        "sabre",
        Window.INTERRUPT,
        True,
    )
    assert keys(state) == ["pass", "sabre:reroll-opponent"]
    events = choose(state, "sabre:reroll-opponent", seat=1)
    assert public(events, "sabre_used") == [
        {"seat": 1, "ship": 0, "role": "attacker", "face": "star"}
    ]
    assert [(r["face"], r["reroll"]) for r in public(events, "combat_roll")] == [(4, True)]
    assert state.pending()[0].kind == "gunpowder" and state.pending()[0].seat == 1
    events = choose(state, "gunpowder:0", seat=1)
    assert public(events, "sabre_used") == []
    assert public(events, "combat_result")[0]["strengths"] == [5, 6]


def test_the_attacking_sabre_holder_rerolls_on_its_own_turn_and_may_wait():
    """[jamaica §8.2, G15]: passing after one roll keeps the Sabre for the next roll."""
    state = new(3)
    arrange.treasure(state, 0, "sarans_sabre")
    state, _ = battle([2, 8, 10], state=state)
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (0, "sabre", Window.TURN)
    assert keys(state) == ["pass", "sabre:reroll-own"]
    choose(state, "pass", seat=0)
    assert keys(state) == ["pass", "sabre:reroll-opponent"]
    events = choose(state, "sabre:reroll-opponent", seat=0)
    assert public(events, "combat_result")[0]["faces"] == [2, 10]


def test_gunpowder_is_spent_from_several_holds_smallest_first_back_to_the_bank():
    """[jamaica §7] C1, [jamaica G22]: any amount from all the gunpowder holds together; the engine
    empties the smallest holds first, and every token spent goes back to the bank."""
    state, _ = battle(
        [6, 4], attacker=[("gunpowder", 1), ("gold", 3), ("gunpowder", 3), ("gunpowder", 2), None]
    )
    assert keys(state)[-1] == "gunpowder:6"
    bank = state.bank["gunpowder"]
    events = choose(state, "gunpowder:4", seat=0)
    ship = state.ships[0]
    assert list(zip(ship.kinds, ship.counts, strict=True))[:4] == [
        (None, 0),
        ("gold", 3),
        ("gunpowder", 2),
        (None, 0),
    ]
    assert state.bank["gunpowder"] == bank + 4
    assert public(events, "combat_result")[0]["strengths"] == [6 + 4, 4]


def test_a_winning_defender_loads_the_goods_it_steals_out_of_turn():
    """[jamaica §7] C9 a, [jamaica §11] I-4, I-5: the defender wins, takes the attacker's gold, and
    with no empty hold chooses which hold of another kind to empty, all as INTERRUPTs."""
    state, _ = battle(
        [4, 8], defender=[("food", 3), ("gold", 3), ("food", 1), ("food", 2), ("food", 4)]
    )
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (1, "loot", Window.INTERRUPT)
    choose(state, "loot:hold:1", seat=1)
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (1, "stash", Window.INTERRUPT)
    assert keys(state) == ["empty:0", "empty:2", "empty:3", "empty:4"]
    events = choose(state, "empty:2", seat=1)
    assert public(events, "loaded")[0] == {
        "ship": 1,
        "kind": "gold",
        "count": 3,
        "hold": 2,
        "emptied": {"kind": "food", "count": 1},
        "source": "loot",
    }
    assert state.ships[1].kinds[:3] == ["food", "gold", "gold"]
    assert state.ships[1].counts[:3] == [3, 3, 3] and state.ships[0].total("gold") == 0


def test_a_hold_takes_any_number_of_tokens():
    """[jamaica §2] Holds, [jamaica G21]: no capacity: a stolen hold of 25 doubloons goes whole
    into one hold."""
    state, _ = battle(["star"], defender=[("gold", 25), None, None, None, None])
    choose(state, "loot:hold:0", seat=0)
    ship = state.ships[0]
    assert list(zip(ship.kinds, ship.counts, strict=True))[2] == ("gold", 25)
