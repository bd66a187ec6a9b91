"""The rulebook's worked examples [black_fleet §12] and FAQ [black_fleet §13], as positions.

Board reference [black_fleet §R1.3]: Tortuga (blue) is next to 6, 16, 17 and buys
yellow 3, red 2, green 2; Portobelo (yellow) next to 54, 64, 65 buys red 2, green 3,
purple 2; Maracaibo (purple) next to 68, 77, 78 buys yellow 2, red 3, blue 3;
Campeche (red) next to 24, 33, 42; beach 45 is worth 6 and its only neighbour is 36.
"""

from __future__ import annotations

import pytest
from fleet_helpers import kinds, of_kind, request, start_turn

from admiralty.games.black_fleet.arrange import choose, keys


def test_example_1_navy_moves_two_sinks_then_moves_one(fresh):
    """[black_fleet §12] ex. 1, [black_fleet §5.3]: navy value 3 moves 2, sinks an adjacent pirate
    of another player (+2, its cube back to its port), then moves 1 more."""
    state = fresh()
    start_turn(
        state,
        {"merchant:0": (16, ["red"] * 3), "pirate:0": "NW", "pirate:1": (29, ["green"])},
        card="M01",  # yellow navy 3
    )
    choose(state, "ship:navy:yellow", "move:38")
    assert request(state).kind == "choose_action"
    assert keys(state) == ["pass", "action:sink:1"]
    events = choose(state, "action:sink:1")
    assert of_kind(events, "pirate_sunk") == [
        {"seat": 1, "by": "navy:yellow", "attacker": 0, "treasure": ["green"]}
    ]
    assert state.seats[0].money == 2
    assert state.seats[1].pirate.space is None and state.stock["green"] == 13
    assert "move:39" in keys(state) and "move:40" not in keys(state)  # one point left
    choose(state, "move:39")
    assert state.navies["yellow"].space == 39
    assert request(state).kind == "choose_ship"  # nothing left to do: the activation ended


def test_example_2_merchant_sells_two_cubes_then_loads_three(fresh):
    """[black_fleet §12] ex. 2, [black_fleet §5.4]: a merchant with 2 cubes next to a port buying
    that colour at 2 sells both for 4, then loads 3 cubes of the port's colour: one action."""
    state = fresh()
    start_turn(state, {"merchant:0": (17, ["red", "red"]), "pirate:0": "NW"}, card="M01")
    choose(state, "ship:merchant")
    assert keys(state) == ["pass", "action:deliver:T"]
    events = choose(state, "action:deliver:T")
    assert of_kind(events, "delivered") == [
        {"seat": 0, "port": "T", "colour": "red", "cubes": 2, "price": 2}
    ]
    assert state.seats[0].money == 4
    assert state.seats[0].merchant.cargo == ["blue"] * 3
    assert state.stock == {"yellow": 13, "red": 13, "green": 13, "blue": 10, "purple": 13}
    assert request(state).kind == "move_ship"  # the action is spent; it may still sail
    assert all(not key.startswith("action:") for key in keys(state))


def test_example_3_pirate_moves_two_attacks_then_sails_away(fresh):
    """[black_fleet §12] ex. 3, [black_fleet §5.5]: the pirate moves 2, attacks an adjacent merchant
    of another player, takes 1 cube (+2), then sails away with its last point; the merchant keeps a
    cube and is not sunk."""
    state = fresh()
    start_turn(
        state,
        {"merchant:0": (16, ["red"] * 3), "pirate:0": 42, "merchant:1": (54, ["green"] * 2)},
        card="M03",  # pirate 3
    )
    choose(state, "ship:pirate", "move:44")
    events = choose(state, "action:attack:1")
    assert of_kind(events, "attacked") == [
        {"seat": 0, "victim": 1, "colour": "green", "cubes": 1, "treasure": 1, "sunk": False}
    ]
    assert state.seats[0].money == 2
    assert state.seats[0].pirate.cargo == ["green"]
    assert state.seats[1].merchant.cargo == ["green"]
    choose(state, "move:34")
    assert state.seats[0].pirate.space == 34
    assert request(state).kind == "choose_ship"


def test_example_4_pirate_buries_then_moves_and_cannot_attack(fresh):
    """[black_fleet §12] ex. 4, [black_fleet §5.5]: a pirate with treasure on the 6 beach buries
    without moving (+6, cube back), then moves 3; it ends next to a merchant but cannot attack."""
    state = fresh()
    start_turn(
        state,
        {
            "merchant:0": (16, ["red"] * 3),
            "pirate:0": (45, ["purple"]),
            "merchant:1": (44, ["green"] * 3),
            "navy:yellow": 30,
        },
        card="M03",
    )
    choose(state, "ship:pirate")
    assert keys(state) == ["pass", "action:bury"]
    events = choose(state, "action:bury")
    assert of_kind(events, "buried") == [{"seat": 0, "space": 45, "cubes": 1, "value": 6}]
    assert state.seats[0].money == 6 and state.stock["purple"] == 13
    events = choose(state, "move:34")  # 45 -> 36 -> 35 -> 34, next to the merchant on 44
    assert "choose_action" not in [request(state).kind]
    assert state.seats[0].pirate.space == 34
    assert kinds(events)[-1] == "ship_done"


def test_faq_navy_cannot_sink_two_pirates(fresh):
    """[black_fleet §13] R1: a navy ship sinks at most one pirate per turn."""
    state = fresh()
    start_turn(
        state,
        {"merchant:0": (16, ["red"] * 3), "pirate:0": "NW", "pirate:1": 35, "pirate:2": 37},
        card="M01",
    )
    choose(state, "ship:navy:yellow")
    assert keys(state) == ["pass", "action:sink:1", "action:sink:2"]
    choose(state, "action:sink:1")
    assert request(state).kind == "move_ship"
    assert not [key for key in keys(state) if key.startswith("action:")]
    assert state.seats[2].pirate.space == 37


def test_faq_no_safe_harbour(fresh):
    """[black_fleet §13] R2: a merchant next to a port, even its starting port, can be attacked."""
    state = fresh()
    start_turn(
        state,
        {"merchant:0": (16, ["red"] * 3), "pirate:0": 26, "merchant:1": (27, ["blue"] * 3)},
        card="M01",
    )
    choose(state, "ship:pirate")
    assert "action:attack:1" in keys(state)


def test_faq_attacked_merchant_cannot_reload_at_its_own_port(fresh):
    """[black_fleet §12] ex. 5 / [black_fleet §13] R3: a merchant attacked twice beside its starting
    port cannot reload there; loading needs a sale, and a port never buys its own colour."""
    state = fresh()
    start_turn(state, {"merchant:0": (16, ["blue"]), "pirate:0": "NW"}, card="M01")
    choose(state, "ship:merchant")
    assert request(state).kind == "move_ship"  # no action offered at Tortuga (blue)


@pytest.mark.parametrize("attacker", ["pirate", "navy"])
def test_faq_you_never_attack_your_own_ships(fresh, attacker):
    """[black_fleet §13] R4: no pirate attack on your own merchant, no navy sinking your own
    pirate (not even for the 2 doubloons)."""
    state = fresh()
    start_turn(state, {"merchant:0": (35, ["red"] * 3), "pirate:0": 37}, card="M01")
    choose(state, "ship:pirate" if attacker == "pirate" else "ship:navy:yellow")
    assert request(state).kind == "move_ship"


def test_faq_returning_pirate_may_attack_at_once(fresh):
    """[black_fleet §13] R5 / [black_fleet §5.0]: a pirate re-entering from a distant sea may attack
    that turn."""
    state = fresh()
    start_turn(
        state,
        {"merchant:0": (16, ["red"] * 3), "merchant:1": (10, ["green"] * 3)},
        hand=["M01", "M44"],
    )
    assert request(state).kind == "reenter_pirate"
    assert keys(state) == ["zone:NW", "zone:NE", "zone:SW", "zone:SE"]
    choose(state, "zone:NE", "card:M01", "ship:pirate")
    assert keys(state)[:3] == ["stop", "move:11", "move:21"]
    choose(state, "move:11")
    assert keys(state) == ["pass", "action:attack:1"]


def test_faq_returning_merchant_may_deliver_at_once(fresh):
    """[black_fleet §13] R5 / [black_fleet §5.0]: a merchant re-entering at a port may deliver the
    same turn (at another port, one that buys its new colour)."""
    state = fresh()
    start_turn(state, {"pirate:0": 26}, hand=["M01", "M44"])
    assert request(state).kind == "reenter_merchant"
    choose(state, "place:P:65")
    assert state.seats[0].merchant.cargo == ["yellow"] * 3
    choose(state, "card:M01", "ship:merchant", "move:77")  # 65 -> 75 -> 76 -> 77
    assert keys(state) == ["pass", "action:deliver:M"]
    choose(state, "action:deliver:M")
    assert state.seats[0].money == 6


def test_faq_card_text_beats_the_rules(fresh):
    """[black_fleet §13] R6: a card (Boarding Party) lets a pirate bury right after attacking."""
    state = fresh()
    start_turn(
        state,
        {"merchant:0": (16, ["red"] * 3), "pirate:0": 14, "merchant:1": (15, ["green"] * 3)},
        hand=["M01", "M44"],
        fortune=["F20"],
    )
    choose(state, "card:M01", "fortune:F20", "ship:pirate", "action:attack:1")
    assert keys(state) == ["pass", "action:bury"]  # 14 is a beach worth 3
    choose(state, "action:bury")
    assert state.seats[0].money == 2 + 3


def test_faq_lairs_do_nothing_without_a_card(fresh):
    """[black_fleet §13] R7: a lair is a plain sea space under the base rules (no burial there)."""
    state = fresh()
    start_turn(state, {"merchant:0": (16, ["red"] * 3), "pirate:0": (20, ["green"])}, card="M01")
    choose(state, "ship:pirate")
    assert request(state).kind == "move_ship"
