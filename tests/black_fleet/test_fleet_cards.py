"""Fortune and development cards: card text beats the rules ([black_fleet §5.6, §13] R6).

Each test cites the card's row in the reconstruction ([black_fleet §R3.2] fortune, [black_fleet
§R4.2] development) and the rules the cards need [black_fleet §R5]. Card M01 names the yellow navy
(3) with pirate 2, merchant 4; M08 is yellow 3, pirate 5, merchant 1; M10 draws 1 fortune card, M16
draws 2."""

from __future__ import annotations

from fleet_helpers import (
    finish_activations,
    of_kind,
    play_quiet_turn,
    request,
    start_turn,
    window,
)

from admiralty.games.black_fleet import arrange
from admiralty.games.black_fleet.arrange import choose, keys

PURPLE = ["purple"] * 3  # Tortuga (next to 6, 16, 17) does not buy purple
HOME = {"merchant:0": (16, PURPLE), "pirate:0": "NW"}


def legs(state) -> dict[int, int]:
    assert request(state).kind == "move_ship"
    options = request(state).options
    return {o.payload["space"]: o.payload["steps"] for o in options if o.key.startswith("move:")}


def with_card(card_id: str) -> dict:
    """`arrange` arguments giving seat 0 this development card, bought."""
    cost = int(card_id[1:3])
    return {"development": {0: {cost: card_id}}, "bought": {0: [cost]}}


def play_first(state, ships, fortune, card="M01", **kwargs):
    """Start seat 0's turn with `fortune` in hand, play `card`, stop in the first window."""
    start_turn(state, ships, hand=[card, "M44"], fortune=fortune, **kwargs)
    return choose(state, f"card:{card}")


# -- fortune cards: movement [black_fleet §R3.2, §R5.2] -------------------------------


def test_fair_winds_adds_two_to_the_merchant_before_it_moves(fresh):
    """F01-F03 Fair Winds: merchant +2 this turn, played before the merchant's activation."""
    state = fresh()
    play_first(state, {"merchant:0": (1, PURPLE), "pirate:0": "NW"}, ["F01", "F02"])
    choose(state, "fortune:F01")
    assert keys(state) == ["pass", "fortune:F02"]  # another copy may still be played
    choose(state, "pass", "ship:merchant")
    assert max(legs(state).values()) == 6
    choose(state, "stop")
    assert keys(state) == ["pass"]  # F02 no longer playable: merchant done (the window
    # still opens, the seat holding a fortune card: [black_fleet §9])


def test_full_sail_adds_two_to_the_pirate_entry_step_included(fresh):
    """F04-F06 Full Sail: pirate +2; from a distant sea the entry step is paid from it."""
    state = fresh()
    play_first(state, HOME, ["F04"])
    choose(state, "fortune:F04", "ship:pirate")
    assert legs(state)[1] == 1 and max(legs(state).values()) == 4


def test_signal_flags_adds_two_to_the_next_navy(fresh):
    """F07 Signal Flags: the next navy ship activated gets +2."""
    state = fresh()
    play_first(state, HOME, ["F07"])
    choose(state, "fortune:F07", "ship:navy:yellow")
    assert max(legs(state).values()) == 5


def test_following_sea_adds_one_to_merchant_and_pirate(fresh):
    """F08-F09 Following Sea: merchant and pirate +1 each."""
    state = fresh()
    play_first(state, {"merchant:0": (1, PURPLE), "pirate:0": "NW"}, ["F08"])
    choose(state, "fortune:F08", "ship:merchant")
    assert max(legs(state).values()) == 5
    choose(state, "stop", "ship:pirate")
    assert max(legs(state).values()) == 3


def test_following_sea_and_crossed_orders_still_help_the_pirate_of_a_merchant_left_out(fresh):
    """F08-F09 Following Sea, F10 Crossed Orders ("before the first of them is
    activated"): a merchant that could not re-enter ([black_fleet G13]; every stock emptied by
    hand) is never activated, so both cards are played for the pirate: M02's pirate 1
    becomes the merchant's 5, then +1."""
    state = fresh()
    state.stock = dict.fromkeys(state.stock, 0)
    play_first(state, {"pirate:0": "NW"}, ["F08", "F10"], card="M02")
    assert state.seats[0].merchant.space is None
    assert keys(state) == ["pass", "fortune:F08", "fortune:F10"]
    events = choose(state, "fortune:F10", "fortune:F08", "ship:pirate")
    assert of_kind(events, "ship_activated")[0]["points"] == 6
    assert max(legs(state).values()) == 6


def test_following_sea_is_refused_once_the_first_of_its_ships_is_activated(fresh):
    """F08-F09 Following Sea: not after the merchant's activation though the pirate still
    waits, nor, with the merchant left out, after the pirate's."""
    state = fresh()
    play_first(state, {"merchant:0": (1, PURPLE), "pirate:0": "NW"}, ["F08"])
    choose(state, "pass", "ship:merchant", "stop")
    assert keys(state) == ["pass"]
    choose(state, "pass")
    assert "ship:pirate" in keys(state)  # it still waits
    state = fresh()
    state.stock = dict.fromkeys(state.stock, 0)
    play_first(state, {"pirate:0": "NW"}, ["F08"])
    choose(state, "pass", "ship:pirate", "stop")
    assert keys(state) == ["pass"] and window(state) == "between"


def test_crossed_orders_swaps_pirate_and_merchant_values_in_the_first_window_only(fresh):
    """F10 Crossed Orders: swap the card's pirate and merchant values; W1 only."""
    state = fresh()
    play_first(state, {"merchant:0": (1, PURPLE), "pirate:0": "NW"}, ["F10"], card="M08")
    choose(state, "fortune:F10", "ship:merchant")
    assert max(legs(state).values()) == 5
    state = fresh()
    play_first(state, {"merchant:0": (1, PURPLE), "pirate:0": "NW"}, ["F10"], card="M08")
    choose(state, "pass", "ship:navy:yellow", "stop")
    assert keys(state) == ["pass"]  # not playable in the window after an activation


def test_bribed_admiral_activates_the_other_navy_which_becomes_friendly(fresh):
    """F11 Bribed Admiral: also activate the navy the card does not name; it is friendly."""
    state = fresh()
    play_first(state, {"merchant:0": (56, PURPLE), "pirate:0": "NW"}, ["F11"])
    choose(state, "fortune:F11")
    assert keys(state) == ["ship:merchant", "ship:pirate", "ship:navy:yellow", "ship:navy:purple"]
    choose(state, "ship:merchant")
    assert legs(state)[66] == 2  # through the purple navy on 67


def test_false_orders_moves_a_navy_through_empty_water_without_activating_it(fresh):
    """F12-F13 False Orders: a navy moves up to 3 through empty spaces; not an activation."""
    state = fresh()
    play_first(state, HOME, ["F12"])
    choose(state, "fortune:F12")
    assert keys(state) == ["target:navy:yellow", "target:navy:purple"]
    choose(state, "target:navy:yellow")
    assert request(state).kind == "choose_destination" and "move:45" in keys(state)
    assert "move:16" not in keys(state)  # the merchant's space is not empty
    events = choose(state, "move:45")
    assert of_kind(events, "ship_moved")[0]["card"] == "F12"
    assert state.navies["yellow"].space == 45 and state.at[45].ref == "navy:yellow"
    assert "ship:navy:yellow" in keys(state)


# -- fortune cards: powers ---------------------------------------------------------------


def test_black_market_sells_where_the_port_does_not_buy_at_two(fresh):
    """F14-F15 Black Market: deliver to a port that does not buy the colour, at 2 each."""
    state = fresh()
    play_first(state, {"merchant:0": (17, PURPLE), "pirate:0": "NW"}, ["F14"])
    choose(state, "fortune:F14", "ship:merchant", "action:deliver:T")
    assert state.seats[0].money == 6


def test_black_market_never_sells_to_the_cargos_own_port(fresh):
    """F14-F15 Black Market: never to the port of the cargo's own colour."""
    state = fresh()
    play_first(state, {"merchant:0": (17, ["blue"] * 3), "pirate:0": "NW"}, ["F14"])
    choose(state, "fortune:F14", "ship:merchant")
    assert request(state).kind == "move_ship"


def test_fresh_supplies_tops_up_at_the_cargos_own_port(fresh):
    """F16 Fresh Supplies: load without selling next to the cargo's own port (R3 overridden)."""
    state = fresh()
    play_first(state, {"merchant:0": (17, ["blue"]), "pirate:0": "NW"}, ["F16"])
    choose(state, "fortune:F16", "ship:merchant")
    assert keys(state) == ["pass", "action:top_up:T"]
    choose(state, "action:top_up:T")
    assert state.seats[0].merchant.cargo == ["blue"] * 3


def test_eager_buyers_adds_one_per_cube_sold(fresh):
    """F17 Eager Buyers: +1 per cube sold this turn."""
    state = fresh()
    play_first(state, {"merchant:0": (17, ["red"] * 3), "pirate:0": "NW"}, ["F17"])
    choose(state, "fortune:F17", "ship:merchant", "action:deliver:T")
    assert state.seats[0].money == 9


def test_convoy_protects_the_merchant_until_its_owners_next_turn(fresh):
    """F18-F19 Convoy: no pirate may attack your merchant until your next turn starts."""
    state = fresh()
    ships = {
        "merchant:0": (26, PURPLE),
        "pirate:0": "NW",
        "merchant:1": (1, PURPLE),
        "pirate:1": 27,
    }
    arrange.position(
        state,
        0,
        ships,
        movement={0: ["M01", "M44"], 1: ["M03", "M43"]},
        fortune={0: ["F18"], 1: []},
    )
    choose(state, "card:M01", "fortune:F18")
    finish_activations(state)
    choose(state, "card:M03", "ship:pirate")
    assert request(state).kind == "move_ship"  # no attack on the convoy
    assert state.view(None)["seats"][0]["boosts"] == ["F18"]


def test_boarding_party_lets_the_pirate_bury_then_attack(fresh):
    """F20-F21 Boarding Party: two actions in either order, within the hold's limits."""
    state = fresh()
    ships = {
        "merchant:0": (16, PURPLE),
        "pirate:0": (14, ["red"]),
        "merchant:1": (15, ["green"] * 3),
    }
    play_first(state, ships, ["F20"])
    choose(state, "fortune:F20", "ship:pirate")
    assert keys(state) == ["pass", "action:bury"]  # hold full: no attack yet
    choose(state, "action:bury")
    assert keys(state) == ["pass", "action:attack:1"]


def test_chain_shot_attacks_at_distance_two(fresh):
    """F22-F23 Chain Shot: attack a merchant at distance 2 or less this turn."""
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 26, "merchant:1": (35, ["green"] * 3)}
    state = fresh()
    play_first(state, ships, [])
    choose(state, "ship:pirate")
    assert request(state).kind == "move_ship"
    state = fresh()
    play_first(state, ships, ["F22"])
    choose(state, "fortune:F22", "ship:pirate")
    assert keys(state) == ["pass", "action:attack:1"]


def test_double_raid_takes_two_cubes(fresh):
    """F24 Double Raid: take 2 from a merchant holding 2+; one becomes treasure, one goes
    back to stock; +2 per cube."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 26, "merchant:1": (27, ["blue"] * 3)}
    play_first(state, ships, ["F24"])
    events = choose(state, "fortune:F24", "ship:pirate", "action:attack:1")
    assert of_kind(events, "attacked")[0] | {} == {
        "seat": 0,
        "victim": 1,
        "colour": "blue",
        "cubes": 2,
        "treasure": 1,
        "sunk": False,
    }
    assert state.seats[0].money == 4 and state.stock["blue"] == 11
    assert state.seats[1].merchant.cargo == ["blue"]


def test_sea_fog_moves_an_opponents_ship_through_empty_water(fresh):
    """F25 Sea Fog: an opponent's merchant or pirate moves up to 2 through empty spaces."""
    state = fresh()
    play_first(state, {**HOME, "merchant:1": (27, ["blue"] * 3)}, ["F25"])
    choose(state, "fortune:F25")
    assert request(state).kind == "choose_destination"  # the only target was chosen for us
    assert set(keys(state)) == {"move:26", "move:35", "move:15", "move:25", "move:34"}
    choose(state, "move:35")
    assert state.seats[1].merchant.space == 35 and state.seats[1].merchant.cargo == ["blue"] * 3


def test_hideout_places_the_returning_pirate_on_a_lair(fresh):
    """F26-F27 Hideout: at the start of the turn, the pirate goes to a free lair instead
    of a distant sea."""
    state = fresh()
    start_turn(state, {"merchant:0": (16, PURPLE)}, hand=["M01", "M44"], fortune=["F26"])
    assert request(state).kind == "play_fortune" and window(state) == "start"
    choose(state, "fortune:F26")
    assert keys(state) == ["target:lair:20", "target:lair:74"]
    choose(state, "target:lair:74")
    assert request(state).kind == "play_movement" and state.seats[0].pirate.space == 74


def test_hideout_keeps_the_treasure(fresh):
    """F26-F27 Hideout: from the board, the pirate keeps its treasure."""
    state = fresh()
    start_turn(
        state,
        {"merchant:0": (16, PURPLE), "pirate:0": (26, ["red"])},
        hand=["M01", "M44"],
        fortune=["F26"],
    )
    choose(state, "pass", "card:M01", "fortune:F26", "target:lair:20")
    assert state.seats[0].pirate.space == 20 and state.seats[0].pirate.cargo == ["red"]
    assert 26 not in state.at


def test_secret_passage_joins_the_lairs(fresh):
    """F28 Secret Passage: the two lairs are one step apart for your pirate."""
    state = fresh()
    play_first(state, {"merchant:0": (16, PURPLE), "pirate:0": 20}, ["F28"])
    choose(state, "fortune:F28", "ship:pirate")
    assert legs(state)[74] == 1 and legs(state)[82] == 2


def test_smugglers_cache_buries_on_a_lair_for_four(fresh):
    """F29 Smugglers' Cache: bury on a lair as on a beach worth 4."""
    state = fresh()
    play_first(state, {"merchant:0": (16, PURPLE), "pirate:0": (20, ["red"])}, ["F29"])
    choose(state, "fortune:F29", "ship:pirate", "action:bury")
    assert state.seats[0].money == 4


# -- fortune cards: stealing ---------------------------------------------------------------


def test_pickpocket_takes_up_to_two_from_a_chosen_player(fresh):
    """F30-F31 Pickpocket: up to 2 from one other player; money never goes negative."""
    state = fresh()
    play_first(state, HOME, ["F30"], money={1: 5, 2: 1})
    choose(state, "fortune:F30")
    assert keys(state) == ["target:seat:1", "target:seat:2", "target:seat:3"]
    choose(state, "target:seat:2")
    assert [p.money for p in state.seats] == [1, 5, 0, 0]


def test_ransom_takes_three_from_the_richest_choosing_among_ties(fresh):
    """F32 Ransom: up to 3 from the richest other player (you choose among ties)."""
    state = fresh()
    play_first(state, HOME, ["F32"], money={1: 5, 2: 5, 3: 1})
    choose(state, "fortune:F32")
    assert keys(state) == ["target:seat:1", "target:seat:2"]
    choose(state, "target:seat:2")
    assert [p.money for p in state.seats] == [3, 5, 2, 1]


def test_plunder_takes_from_the_merchant_owner_your_pirate_attacked(fresh):
    """F33-F34 Plunder: only after your pirate attacked a merchant this turn."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 26, "merchant:1": (27, ["blue"] * 3)}
    play_first(state, ships, ["F33"], money={1: 4})
    assert keys(state) == ["pass"]  # not playable before the attack
    choose(state, "ship:pirate", "action:attack:1", "stop", "fortune:F33")
    assert [p.money for p in state.seats[:2]] == [4, 2]


def test_harbour_dues_takes_one_from_each_other_player(fresh):
    """F35 Harbour Dues: each other player gives 1 if they have one."""
    state = fresh()
    play_first(state, HOME, ["F35"], money={1: 1, 3: 4})
    choose(state, "fortune:F35")
    assert [p.money for p in state.seats] == [2, 0, 0, 3]


# -- fortune cards: secret objectives -------------------------------------------------------


def test_contract_rewards_a_sale_of_two_cubes_at_its_port(fresh):
    """F36 Contract: Tortuga: reveal after selling 2+ cubes at Tortuga this turn: +3."""
    state = fresh()
    play_first(state, {"merchant:0": (17, ["red"] * 3), "pirate:0": "NW"}, ["F36", "F37"])
    assert keys(state) == ["pass"]  # not yet fulfilled
    choose(state, "ship:merchant", "action:deliver:T", "stop")
    assert keys(state) == ["pass", "fortune:F36"]
    choose(state, "fortune:F36")
    assert state.seats[0].money == 6 + 3


def test_treasure_map_rewards_a_burial_on_a_five_or_six_beach(fresh):
    """F41 Treasure Map: reveal after burying on a beach worth 5 or 6: +3."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": (45, ["red"]), "navy:yellow": 30}
    play_first(state, ships, ["F41"])
    choose(state, "ship:pirate", "action:bury", "stop", "fortune:F41")
    assert state.seats[0].money == 6 + 3


def test_sea_wolf_rewards_sinking_a_merchant(fresh):
    """F42 Sea Wolf: reveal after your pirate's attack sank a merchant: +4."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 26, "merchant:1": (27, ["blue"])}
    play_first(state, ships, ["F42"])
    choose(state, "ship:pirate", "action:attack:1", "stop", "fortune:F42")
    assert state.seats[0].money == 2 + 4


def test_kings_commission_rewards_sinking_a_laden_pirate(fresh):
    """F43 King's Commission: reveal after sinking a pirate carrying treasure: +3."""
    state = fresh()
    play_first(state, {**HOME, "pirate:1": (35, ["red"])}, ["F43"])
    choose(state, "ship:navy:yellow", "action:sink:1", "stop", "fortune:F43")
    assert state.seats[0].money == 2 + 3


def test_lord_of_the_lairs_rewards_treasure_on_a_lair(fresh):
    """F44 Lord of the Lairs: reveal while your pirate is on a lair with treasure: +3."""
    state = fresh()
    start_turn(state, {"merchant:0": (16, PURPLE), "pirate:0": (74, ["red"])}, fortune=["F44"])
    assert window(state) == "start" and keys(state) == ["pass", "fortune:F44"]
    choose(state, "fortune:F44")
    assert state.seats[0].money == 3


# -- development cards, cost 5 [black_fleet §R4.2] --------------------------------------


def test_marine_insurance_pays_the_victim_per_cube_taken(fresh):
    """D05-1 Marine Insurance: the owner gains 1 per cube a pirate takes from them."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 26, "merchant:1": (27, ["blue"] * 3)}
    start_turn(state, ships, card="M01", development={1: {5: "D05-1"}}, bought={1: [5]})
    choose(state, "ship:pirate", "action:attack:1")
    assert state.seats[1].money == 1


def test_bounty_hunters_adds_one_per_sinking(fresh):
    """D05-2 Bounty Hunters: sinking a pirate pays 3."""
    state = fresh()
    start_turn(state, {**HOME, "pirate:1": 35}, card="M01", **with_card("D05-2"))
    choose(state, "ship:navy:yellow", "action:sink:1")
    assert state.seats[0].money == 3


def test_pirate_hideout_reenters_on_a_lair_and_hides_there(fresh):
    """D05-3 Pirate Hideout: (a) re-enter on a free lair; (b) the lairs touch; (c) no
    ship may attack it on a lair; (d) bury on a lair for 4."""
    state = fresh()
    start_turn(
        state,
        {"merchant:0": (16, PURPLE), "pirate:1": 74},
        hand=["M01", "M44"],
        **with_card("D05-3"),
    )
    assert keys(state) == ["zone:NW", "zone:NE", "zone:SW", "zone:SE", "lair:20"]
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": (20, ["red"])}
    start_turn(state, ships, card="M01", **with_card("D05-3"))
    choose(state, "ship:pirate")
    assert keys(state) == ["pass", "action:bury"]
    choose(state, "pass")
    assert legs(state)[74] == 1
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": "NW", "pirate:1": 20, "navy:yellow": 19}
    start_turn(state, ships, card="M01", development={1: {5: "D05-3"}}, bought={1: [5]})
    choose(state, "ship:navy:yellow")
    assert request(state).kind == "move_ship"


def test_trade_charter_names_a_port_that_pays_one_more(fresh):
    """D05-4 Trade Charter: name a port on purchase; +1 per cube sold there."""
    state = fresh()
    start_turn(state, HOME, card="M01", money={0: 5}, development={0: {5: "D05-4"}})
    finish_activations(state)
    choose(state, "buy:dev:5")
    assert request(state).kind == "name_port" and request(state).seat == 0
    assert keys(state) == ["port:T", "port:B", "port:M", "port:P", "port:C"]
    choose(state, "port:T")
    assert state.seats[0].charter_port == "T"
    state = fresh()
    start_turn(
        state, {"merchant:0": (17, ["red"] * 3), "pirate:0": "NW"}, card="M01", **with_card("D05-4")
    )
    state.seats[0].charter_port = "T"
    choose(state, "ship:merchant", "action:deliver:T")
    assert state.seats[0].money == 9


def test_sea_charts_holds_three_movement_cards(fresh):
    """D05-5 Sea Charts: draw 1 movement card on purchase; refill to 3 each turn."""
    state = fresh()
    start_turn(state, HOME, card="M01", money={0: 5}, development={0: {5: "D05-5"}})
    finish_activations(state)
    choose(state, "buy:dev:5")
    assert len(state.seats[0].movement) == 3


def test_old_salts_almanac_raises_the_limit_and_the_draws(fresh):
    """D05-6 Old Salt's Almanac: fortune hand limit 4; one more card on draw icons."""
    state = fresh()
    start_turn(state, HOME, card="M10", fortune=["F36", "F37"], **with_card("D05-6"))
    finish_activations(state)
    assert len(state.seats[0].fortune) == 4 and request(state).seat == 1


# -- development cards, cost 8 -----------------------------------------------------------------


def test_copper_hull_gives_the_merchant_at_least_three(fresh):
    """D08-1 Copper-Sheathed Hull: merchant movement is at least 3 (M08 shows 1)."""
    state = fresh()
    start_turn(
        state, {"merchant:0": (1, PURPLE), "pirate:0": "NW"}, card="M08", **with_card("D08-1")
    )
    choose(state, "ship:merchant")
    assert max(legs(state).values()) == 3


def test_raked_masts_pirate_passes_through_any_ship(fresh):
    """D08-2 Raked Masts: pirate +1 and it passes through any ship."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 74, "merchant:1": (82, ["blue"] * 3)}
    start_turn(state, ships, card="M01", **with_card("D08-2"))
    choose(state, "ship:pirate", "pass")
    assert legs(state)[83] == 2 and max(legs(state).values()) == 3


def test_false_colours_swaps_merchant_and_pirate_once_per_turn(fresh):
    """D08-3 False Colours: in a fortune window, swap your two ships' places, once a turn."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": (26, ["red"])}
    start_turn(state, ships, card="M01", **with_card("D08-3"))
    assert keys(state) == ["pass", "swap:ships"]
    choose(state, "swap:ships")
    assert state.seats[0].merchant.space == 26 and state.seats[0].pirate.space == 16
    assert state.seats[0].pirate.cargo == ["red"]
    assert request(state).kind == "choose_ship"


def test_armed_merchantman_fires_without_spending_the_action(fresh):
    """D08-4 Armed Merchantman: sink a pirate at distance 2 or less, once per turn, and
    still deliver."""
    state = fresh()
    ships = {"merchant:0": (17, ["red"] * 3), "pirate:0": "NW", "pirate:1": (29, ["green"])}
    start_turn(state, ships, card="M01", **with_card("D08-4"))
    choose(state, "ship:merchant")
    assert keys(state) == ["pass", "action:deliver:T", "action:broadside:1"]
    choose(state, "action:broadside:1")
    assert state.seats[1].pirate.space is None and state.seats[0].money == 2
    assert keys(state) == ["pass", "action:deliver:T"]


def test_cutthroat_crew_adds_one_per_attack_and_burial(fresh):
    """D08-5 Cutthroat Crew: 3 per attack; beach value + 1 per burial."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 14, "merchant:1": (15, ["green"] * 3)}
    start_turn(state, ships, card="M01", **with_card("D08-5"))
    choose(state, "ship:pirate", "action:attack:1")
    assert state.seats[0].money == 3
    state = fresh()
    start_turn(
        state,
        {"merchant:0": (16, PURPLE), "pirate:0": (14, ["red"])},
        card="M01",
        **with_card("D08-5"),
    )
    choose(state, "ship:pirate", "action:bury")
    assert state.seats[0].money == 4


def test_admiralty_contacts_navy_plus_one_through_any_ship(fresh):
    """D08-6 Admiralty Contacts: navy +1 and it passes through any ship."""
    state = fresh()
    ships = {**HOME, "navy:yellow": 74, "merchant:1": (82, ["blue"] * 3)}
    start_turn(state, ships, card="M01", **with_card("D08-6"))
    choose(state, "ship:navy:yellow")
    assert legs(state)[83] == 2 and max(legs(state).values()) == 4


# -- development cards, cost 11 -------------------------------------------------------------


def test_long_guns_attack_at_distance_two(fresh):
    """D11-1 Long Guns: the pirate attacks merchants at distance 2 or less."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 26, "merchant:1": (35, ["green"] * 3)}
    start_turn(state, ships, card="M01", **with_card("D11-1"))
    choose(state, "ship:pirate")
    assert keys(state) == ["pass", "action:attack:1"]


def test_dead_mans_chest_buries_after_an_attack_not_before(fresh):
    """D11-2 Dead Man's Chest: after attacking, the pirate may also bury (not the reverse)."""
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 14, "merchant:1": (15, ["green"] * 3)}
    state = fresh()
    start_turn(state, ships, card="M01", **with_card("D11-2"))
    choose(state, "ship:pirate", "action:attack:1")
    assert keys(state) == ["pass", "action:bury"]
    ships["pirate:0"] = (14, ["red"])
    state = fresh()
    start_turn(state, ships, card="M01", **with_card("D11-2"))
    choose(state, "ship:pirate", "action:bury")
    assert request(state).kind == "move_ship"


def test_extra_hold_loads_four(fresh):
    """D11-3 Extra Hold: the merchant loads up to 4 cubes."""
    state = fresh()
    start_turn(
        state, {"merchant:0": (17, ["red"] * 3), "pirate:0": "NW"}, card="M01", **with_card("D11-3")
    )
    choose(state, "ship:merchant", "action:deliver:T")
    assert state.seats[0].merchant.cargo == ["blue"] * 4


def test_letter_of_marque_robs_or_sinks_an_adjacent_pirate(fresh):
    """D11-4 Letter of Marque: take a treasure cube if there is room, else sink; +2."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 26, "pirate:1": (27, ["green"])}
    start_turn(state, ships, card="M01", **with_card("D11-4"))
    events = choose(state, "ship:pirate", "action:attack_pirate:1")
    assert of_kind(events, "pirate_robbed") == [{"seat": 0, "victim": 1, "colour": "green"}]
    assert state.seats[0].pirate.cargo == ["green"] and state.seats[1].pirate.space == 27
    state = fresh()
    ships["pirate:1"] = 27
    start_turn(state, ships, card="M01", **with_card("D11-4"))
    choose(state, "ship:pirate", "action:attack_pirate:1")
    assert state.seats[1].pirate.space is None and state.seats[0].money == 2


def test_letter_of_marque_player_chooses_the_cube_from_a_two_colour_pirate_lord(fresh):
    """D11-4 Letter of Marque ("take one of its cubes") against D14-2 Pirate Lord carrying
    green and red: the card's player chooses which ([black_fleet §R3.1]: victims never
    choose); here the first, green, though red was loaded last."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 26, "pirate:1": (27, ["green", "red"])}
    start_turn(
        state,
        ships,
        card="M01",
        development={0: {11: "D11-4"}, 1: {14: "D14-2"}},
        bought={0: [11], 1: [14]},
    )
    choose(state, "ship:pirate", "action:attack_pirate:1")
    assert request(state).kind == "choose_target" and request(state).seat == 0
    assert keys(state) == ["target:cube:green", "target:cube:red"]
    assert request(state).options[0].payload == {"target": "cube", "colour": "green"}
    events = choose(state, "target:cube:green")
    assert of_kind(events, "pirate_robbed") == [{"seat": 0, "victim": 1, "colour": "green"}]
    assert state.seats[0].pirate.cargo == ["green"] and state.seats[1].pirate.cargo == ["red"]
    assert state.seats[0].money == 2 and request(state).kind == "move_ship"


def test_commodores_pennant_navy_plus_one_and_range_two(fresh):
    """D11-5 Commodore's Pennant: navy +1 and it attacks at distance 2 or less."""
    state = fresh()
    start_turn(state, {**HOME, "pirate:1": 28}, card="M01", **with_card("D11-5"))
    choose(state, "ship:navy:yellow")
    assert keys(state) == ["pass", "action:sink:1"]
    choose(state, "pass")
    assert max(legs(state).values()) == 4


def test_smugglers_network_sells_anywhere_but_home(fresh):
    """D11-6 Smugglers' Network: sell at any other port, 2 where the colour is not listed."""
    state = fresh()
    start_turn(
        state, {"merchant:0": (17, PURPLE), "pirate:0": "NW"}, card="M01", **with_card("D11-6")
    )
    choose(state, "ship:merchant", "action:deliver:T")
    assert state.seats[0].money == 6


# -- development cards, cost 14 --------------------------------------------------------------


def test_merchant_prince_adds_one_per_cube_sold(fresh):
    """D14-1 Merchant Prince: +1 per cube sold."""
    state = fresh()
    start_turn(
        state, {"merchant:0": (77, ["red"] * 3), "pirate:0": "NW"}, card="M01", **with_card("D14-1")
    )
    choose(state, "ship:merchant", "action:deliver:M")
    assert state.seats[0].money == 12


def test_pirate_lord_holds_two_and_buries_both(fresh):
    """D14-2 Pirate Lord: +1 move; hold 2 (attacks while carrying 1); one burial pays
    the beach value for each cube."""
    state = fresh()
    ships = {
        "merchant:0": (16, PURPLE),
        "pirate:0": (14, ["red"]),
        "merchant:1": (15, ["green"] * 3),
    }
    start_turn(state, ships, card="M01", **with_card("D14-2"))
    choose(state, "ship:pirate", "action:attack:1")
    assert state.seats[0].pirate.cargo == ["red", "green"]
    assert max(legs(state).values()) == 3
    state = fresh()
    start_turn(
        state,
        {"merchant:0": (16, PURPLE), "pirate:0": (14, ["red", "green"])},
        card="M01",
        **with_card("D14-2"),
    )
    choose(state, "ship:pirate", "action:bury")
    assert state.seats[0].money == 6


def test_man_o_war_escort_protects_the_merchant_next_to_a_port(fresh):
    """D14-3 Man-o'-War Escort: merchant +1; no pirate attacks it next to a port (R2 overridden)."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 26, "merchant:1": (27, ["blue"] * 3)}
    start_turn(state, ships, card="M01", development={1: {14: "D14-3"}}, bought={1: [14]})
    choose(state, "ship:pirate")
    assert "action:attack:1" in keys(state)  # 27 is not next to a port
    state = fresh()
    ships = {"merchant:0": (26, PURPLE), "pirate:0": 15, "merchant:1": (16, ["blue"] * 3)}
    start_turn(state, ships, card="M01", development={1: {14: "D14-3"}}, bought={1: [14]})
    choose(state, "ship:pirate")
    assert request(state).kind == "move_ship"


def test_governors_favour_pays_two_at_the_start_of_each_turn(fresh):
    """D14-4 Governor's Favour: +2 at the start of each of your turns."""
    state = fresh()
    events = start_turn(state, HOME, **with_card("D14-4"))
    assert of_kind(events, "money") == [
        {"seat": 0, "change": 2, "total": 2, "reason": "turn_income"}
    ]


def test_terror_of_the_caribbean_takes_a_toll(fresh):
    """D14-5 Terror of the Caribbean: +1 pirate move; the victim also pays 1."""
    state = fresh()
    ships = {"merchant:0": (16, PURPLE), "pirate:0": 26, "merchant:1": (27, ["blue"] * 3)}
    start_turn(state, ships, card="M01", money={1: 3}, **with_card("D14-5"))
    choose(state, "ship:pirate", "action:attack:1")
    assert [p.money for p in state.seats[:2]] == [3, 2]
    assert max(legs(state).values()) == 3


def test_admiral_of_the_fleet_moves_both_navies_and_earns_more(fresh):
    """D14-6 Admiral of the Fleet: activate both navies each turn; +1 per sinking."""
    state = fresh()
    start_turn(state, {**HOME, "pirate:1": 66}, card="M01", **with_card("D14-6"))
    assert keys(state) == ["ship:merchant", "ship:pirate", "ship:navy:yellow", "ship:navy:purple"]
    choose(state, "ship:navy:purple", "action:sink:1")
    assert state.seats[0].money == 3


# -- the rules the cards need [black_fleet §R3.1, §R5] ---------------------------------------


def test_movement_is_the_printed_value_then_swaps_then_minimums_then_additions(fresh):
    """[black_fleet §R5.2]: on M02 (pirate 1, merchant 5), Crossed Orders swaps, then
    Copper-Sheathed Hull raises the merchant to 3, then Fair Winds adds 2: 1 -> 3 -> 5.
    Every other order gives the merchant 1 or 3. The pirate sails the merchant's 5."""
    state = fresh()
    ships = {"merchant:0": (1, PURPLE), "pirate:0": "NW"}
    play_first(state, ships, ["F10", "F01"], card="M02", **with_card("D08-1"))
    events = choose(state, "fortune:F10", "fortune:F01", "ship:merchant")
    assert of_kind(events, "ship_activated")[0]["points"] == 5
    events = choose(state, "stop", "ship:pirate")
    assert of_kind(events, "ship_activated")[0]["points"] == 5


def test_boarding_party_and_dead_mans_chest_never_give_a_third_action(fresh):
    """[black_fleet §R5.5]: Boarding Party (F20) and Dead Man's Chest (D11-2) do not
    stack; a pirate takes at most 2 actions a turn. Bury then attack leaves fresh
    treasure on the beach (14, worth 3), attack then bury leaves the merchant beside
    it with cubes; neither is followed by a third action."""
    ships = {
        "merchant:0": (16, PURPLE),
        "pirate:0": (14, ["red"]),
        "merchant:1": (15, ["green"] * 3),
    }
    state = fresh()
    play_first(state, ships, ["F20"], **with_card("D11-2"))
    choose(state, "fortune:F20", "ship:pirate", "action:bury", "action:attack:1")
    assert state.seats[0].pirate.cargo == ["green"] and state.seats[0].money == 3 + 2
    assert request(state).kind == "move_ship"  # no second burial
    ships["pirate:0"] = 14
    state = fresh()
    play_first(state, ships, ["F20"], **with_card("D11-2"))
    choose(state, "fortune:F20", "ship:pirate", "action:attack:1", "action:bury")
    assert state.seats[1].merchant.cargo == ["green"] * 2 and state.seats[0].money == 2 + 3
    assert request(state).kind == "move_ship"  # no second attack


THREE_SEATS = {
    "merchant:0": (17, ["red"] * 3),
    "pirate:0": "NW",
    "merchant:1": (39, ["green"] * 3),
    "pirate:1": "NE",
    "merchant:2": (68, ["purple"] * 3),
    "pirate:2": "SE",
}
"""Seat 0's merchant can sell at Tortuga; the others sit beside their cargo's own port
(no sale) with their pirates in distant seas, so their turns change nothing."""


def test_fortune_boosts_wear_off_at_the_start_of_the_players_next_turn(fresh):
    """F01-F03 Fair Winds ("this turn"; [black_fleet §R3.1, §R3.2]): the +2 lasts through
    the other seats' turns and is gone when its player's next turn starts, whose M02
    gives the merchant its printed 5."""
    state = fresh(players=3)
    arrange.position(
        state,
        0,
        THREE_SEATS,
        movement={0: ["M01", "M44"]},
        fortune={0: ["F01"], 1: [], 2: []},
        movement_top=["M02"],
    )
    events = choose(state, "card:M01", "fortune:F01", "ship:merchant")
    assert of_kind(events, "ship_activated")[0]["points"] == 6
    finish_activations(state)
    play_quiet_turn(state)
    assert state.active == 2 and state.view(None)["seats"][0]["boosts"] == ["F01"]
    play_quiet_turn(state)
    assert state.active == 0 and state.view(None)["seats"][0]["boosts"] == []
    events = choose(state, "card:M02", "ship:merchant")
    assert of_kind(events, "ship_activated")[0]["points"] == 5


def test_an_objective_can_be_revealed_only_in_the_turn_it_was_met(fresh):
    """[black_fleet §R3.1]: a "this turn" condition is read from the turn's log, so an
    objective met in an earlier turn can no longer be claimed (F36 Contract: Tortuga,
    met by selling 3 cubes there, not revealed)."""
    state = fresh(players=3)
    arrange.position(
        state, 0, THREE_SEATS, movement={0: ["M01", "M44"]}, fortune={0: ["F36"], 1: [], 2: []}
    )
    choose(state, "card:M01", "ship:merchant", "action:deliver:T", "stop")
    assert keys(state) == ["pass", "fortune:F36"]
    for _ in range(3):
        play_quiet_turn(state)  # seat 0 passes, then seats 1 and 2
    assert state.active == 0 and window(state) == "start" and keys(state) == ["pass"]
    choose(state, "pass", "card:M44")
    assert window(state) == "first" and keys(state) == ["pass"]
    assert state.seats[0].fortune == ["F36"]
