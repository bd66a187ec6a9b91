"""The turn, rule by rule ([black_fleet §5, §6, §11]; gap defaults of [black_fleet §14]).

Positions are built with `arrange.position`; `start_turn` plays the named movement card.
Map: 56 touches 57 and 67 (the purple navy's start); 82 touches 74 and 83, and 83 is
a dead end; Tortuga (blue) is next to 6, 16, 17; Maracaibo buys red at 3.
"""

from __future__ import annotations

import pytest
from fleet_helpers import (
    asked_seat,
    finish_activations,
    kinds,
    of_kind,
    play_quiet_turn,
    request,
    start_turn,
)

from admiralty.games.black_fleet import arrange
from admiralty.games.black_fleet.arrange import choose, keys

HOME = {"merchant:0": (16, ["purple"] * 3), "pirate:0": "NW"}  # Tortuga refuses purple


def legs(state) -> dict[int, int]:
    """The open move_ship destinations with their costs."""
    assert request(state).kind == "move_ship"
    options = request(state).options
    return {o.payload["space"]: o.payload["steps"] for o in options if o.key.startswith("move:")}


# -- [black_fleet §5.0] start of turn ------------------------------------------------------


def test_sunk_merchant_reenters_next_to_a_port_with_stock(fresh):
    """[black_fleet §5.0] (D1), [black_fleet G12, G13]: a free space next to any port still holding
    cubes; the merchant loads 3 of that port's colour."""
    state = fresh()
    blue = ["blue"] * 3
    ships = {"pirate:0": "NW", "merchant:1": (16, blue), "merchant:2": (17, blue)}
    ships |= {"merchant:3": (6, ["blue"] * 4), "pirate:1": (1, ["blue"]), "pirate:2": (2, ["blue"])}
    start_turn(state, ships)
    assert request(state).kind == "reenter_merchant"
    offered = keys(state)
    assert not [k for k in offered if k.startswith("place:T")]  # no blue left, spaces full
    assert offered[:3] == ["place:B:31", "place:B:39", "place:B:48"] and len(offered) == 12
    choose(state, "place:B:39")
    assert state.seats[0].merchant.cargo == ["green"] * 3


def test_merchant_stays_out_when_no_port_can_take_it(fresh):
    """[black_fleet G13] [PROPOSED DEFAULT]: with no port able to take it, the merchant stays out
    this turn (the stocks are emptied by hand here)."""
    state = fresh()
    state.stock = dict.fromkeys(state.stock, 0)
    events = start_turn(state, {"pirate:0": "NW"}, hand=["M01", "M44"])
    assert "merchant_stays_out" in kinds(events)
    choose(state, "card:M01")
    assert keys(state) == ["ship:pirate", "ship:navy:yellow"]


def test_pirate_waiting_in_a_distant_sea_is_not_placed_again(fresh):
    """[black_fleet §5.0, §R1.7]: a pirate that stayed in its zone waits there."""
    state = fresh()
    start_turn(state, HOME, hand=["M01", "M44"])
    assert request(state).kind == "play_movement"


# -- [black_fleet §5.1] the movement card ---------------------------------------------------------


def test_play_one_of_the_two_movement_cards(fresh):
    """[black_fleet §5.1] (D3): one card of the hand is played face up; it names the navy ship."""
    state = fresh()
    start_turn(state, HOME, hand=["M01", "M23"])
    assert keys(state) == ["card:M01", "card:M23"]
    assert request(state).options[1].payload == {
        "card": "M23",
        "navy": "purple",
        "navy_move": 2,
        "pirate": 2,
        "merchant": 4,
        "fortune": "none",
    }
    choose(state, "card:M23")
    assert state.movement_discard[-1] == "M23" and state.seats[0].movement == ["M01"]
    assert keys(state) == ["ship:merchant", "ship:pirate", "ship:navy:purple"]


# -- [black_fleet §5.2] movement -------------------------------------------------------------------


def test_a_ship_moves_up_to_the_card_value(fresh):
    """[black_fleet §5.2] (D5): 0 up to the value, one point per step, through sea spaces only."""
    state = fresh()
    start_turn(state, {"merchant:0": (1, ["red"] * 3), "pirate:0": "NW"}, card="M02")  # merchant 5
    choose(state, "ship:merchant")
    reach = legs(state)
    assert max(reach.values()) == 5
    assert reach[2] == 1 and reach[13] == 1 and reach[6] == 5 and 7 not in reach
    assert keys(state)[0] == "stop"  # moving is optional


def test_opponents_ships_block_friendly_ships_do_not(fresh):
    """[black_fleet §5.2, G11]: pass through your own ships, never through an opponent's."""
    state = fresh()
    start_turn(state, {"merchant:0": (74, ["red"] * 3), "pirate:0": 82}, card="M01")
    choose(state, "ship:merchant")
    assert legs(state)[83] == 2
    state = fresh()
    start_turn(
        state, {"merchant:0": (74, ["red"] * 3), "pirate:0": "NW", "pirate:1": 82}, card="M01"
    )
    choose(state, "ship:merchant")
    assert 83 not in legs(state) and 82 not in legs(state)


def test_only_the_named_navy_ship_is_friendly(fresh):
    """[black_fleet §5.2, G11] [INFERRED]: the navy not named on your card blocks your ships."""
    state = fresh()
    start_turn(state, {"merchant:0": (56, ["red"] * 3), "pirate:0": "NW"}, card="M01")  # yellow
    choose(state, "ship:merchant")
    assert 66 not in legs(state) or legs(state)[66] > 2
    state = fresh()
    start_turn(state, {"merchant:0": (56, ["red"] * 3), "pirate:0": "NW"}, card="M23")  # purple
    choose(state, "ship:merchant")
    assert legs(state)[66] == 2


def test_a_ship_may_pause_on_a_friendly_ship_but_never_end_there(fresh):
    """[black_fleet §5.2, G9]: a ship may stop on a friendly ship's space mid-move (to act),
    but may never end its movement on an occupied space."""
    state = fresh()
    start_turn(state, {"merchant:0": (74, ["red"] * 3), "pirate:0": 82}, card="M01")
    choose(state, "ship:merchant", "move:82")
    assert "stop" not in keys(state)
    assert set(legs(state)) == {74, 83, 73, 62, 61, 63, 51}  # 3 points left
    choose(state, "move:83")
    assert state.seats[0].merchant.space == 83 and state.at[83].ref == "merchant:0"


def test_each_ship_is_activated_once_and_finishes_before_the_next(fresh):
    """[black_fleet §5.2] (D4): merchant, pirate and the named navy, each once, in any order;
    a ship's movement ends before the next ship starts."""
    state = fresh()
    start_turn(state, HOME, card="M01")
    assert keys(state) == ["ship:merchant", "ship:pirate", "ship:navy:yellow"]
    choose(state, "ship:pirate", "stop")
    assert keys(state) == ["ship:merchant", "ship:navy:yellow"]
    choose(state, "ship:navy:yellow", "stop")
    events = choose(state, "stop")  # the merchant, the only ship left, was activated for us
    assert kinds(events)[:2] == ["ship_done", "movement_drawn"]


def test_an_action_may_come_during_the_move_and_only_once(fresh):
    """[black_fleet §5.2, §13] R1: act before, during or after the move, once per ship; unused
    points may be spent after the action."""
    state = fresh()
    start_turn(state, {"merchant:0": (17, ["red"] * 3), "pirate:0": "NW"}, card="M01")
    choose(state, "ship:merchant", "pass", "move:6")  # declined at 17, sailed on to 6
    assert keys(state) == ["pass", "action:deliver:T"]
    choose(state, "action:deliver:T")
    assert not [key for key in keys(state) if key.startswith("action:")]
    assert max(legs(state).values()) == 2
    choose(state, "move:4")
    assert request(state).kind == "choose_ship" and state.seats[0].merchant.space == 4


# -- [black_fleet §5.3] navy ---------------------------------------------------------------


def test_navy_never_attacks_a_pirate_in_a_distant_sea(fresh):
    """[black_fleet §5.3, G7] [PROPOSED DEFAULT]: pirates in a distant sea cannot be attacked."""
    state = fresh()
    start_turn(state, {**HOME, "pirate:1": "NW", "navy:yellow": 1}, card="M01")
    choose(state, "ship:navy:yellow")
    assert request(state).kind == "move_ship"


# -- [black_fleet §5.4] merchant -----------------------------------------------------------


def test_delivery_only_where_the_port_buys_the_colour(fresh):
    """[black_fleet §5.4]: never to a port that does not buy the cargo (Tortuga refuses purple)."""
    state = fresh()
    start_turn(state, {"merchant:0": (17, ["purple"] * 3), "pirate:0": "NW"}, card="M01")
    choose(state, "ship:merchant")
    assert request(state).kind == "move_ship"


def test_delivery_sells_the_whole_cargo_at_the_port_price(fresh):
    """[black_fleet §5.4]: price x cubes (Maracaibo pays 3 for red); cubes back to Campeche."""
    state = fresh()
    start_turn(state, {"merchant:0": (77, ["red"] * 3), "pirate:0": "NW"}, card="M01")
    events = choose(state, "ship:merchant", "action:deliver:M")
    assert of_kind(events, "money") == [{"seat": 0, "change": 9, "total": 9, "reason": "delivery"}]
    assert state.stock["red"] == 13 and state.stock["purple"] == 10


def test_short_stock_loads_what_is_left_and_empty_stock_takes_no_delivery(fresh):
    """[black_fleet G12] [PROPOSED DEFAULT]: load what the port has; with none, no delivery
    there."""
    blue = {f"merchant:{s}": (sp, ["blue"] * 3) for s, sp in ((1, 1), (2, 3), (3, 5))}
    blue |= {f"pirate:{s}": (sp, ["blue"]) for s, sp in ((1, 8), (2, 10), (3, 12))}
    state = fresh()
    start_turn(state, {"merchant:0": (17, ["red"] * 3), "pirate:0": "NW", **blue}, card="M01")
    choose(state, "ship:merchant", "action:deliver:T")
    assert state.seats[0].merchant.cargo == ["blue"] and state.stock["blue"] == 0
    state = fresh()
    blue["pirate:0"] = (22, ["blue"])
    start_turn(state, {"merchant:0": (17, ["red"] * 3), **blue}, card="M01")
    choose(state, "ship:merchant")
    assert request(state).kind == "move_ship"


# -- [black_fleet §5.5] pirate -------------------------------------------------------------


def test_a_pirate_with_treasure_cannot_attack(fresh):
    """[black_fleet §5.5]: only an empty pirate may attack (its hold holds 1 cube)."""
    state = fresh()
    ships = {
        "merchant:0": (16, ["red"] * 3),
        "pirate:0": (26, ["red"]),
        "merchant:1": (27, ["blue"] * 3),
    }
    start_turn(state, ships, card="M01")
    choose(state, "ship:pirate")
    assert request(state).kind == "move_ship"


def test_taking_the_last_cube_sinks_the_merchant_which_reenters_next_turn(fresh):
    """[black_fleet §5.5, §6]: an emptied merchant is sunk; its owner re-places it at the start
    of their next turn, loaded with 3 cubes of the chosen port's colour."""
    state = fresh()
    ships = {"merchant:0": (16, ["red"] * 3), "pirate:0": 26, "merchant:1": (27, ["blue"])}
    start_turn(state, ships, card="M01")
    events = choose(state, "ship:pirate", "action:attack:1")
    assert of_kind(events, "merchant_sunk") == [{"seat": 1, "by": "pirate:0"}]
    assert state.seats[1].merchant.space is None and 27 not in state.at
    finish_activations(state)
    assert request(state).seat == 1 and request(state).kind == "reenter_merchant"


def test_bury_only_on_a_beach(fresh):
    """[black_fleet §5.5]: treasure is buried on a beach for the beach's value."""
    state = fresh()
    start_turn(state, {"merchant:0": (16, ["red"] * 3), "pirate:0": (15, ["green"])}, card="M01")
    choose(state, "ship:pirate")
    assert request(state).kind == "move_ship"
    events = choose(state, "move:14")
    assert keys(state) == ["pass", "action:bury"]
    events = choose(state, "action:bury")
    assert of_kind(events, "buried") == [{"seat": 0, "space": 14, "cubes": 1, "value": 3}]


def test_attack_and_bury_are_both_actions(fresh):
    """[black_fleet §5.5]: without a card a pirate cannot attack and bury in one turn."""
    state = fresh()
    ships = {"merchant:0": (16, ["red"] * 3), "pirate:0": 14, "merchant:1": (15, ["green"] * 3)}
    start_turn(state, ships, card="M01")
    choose(state, "ship:pirate", "action:attack:1")
    assert request(state).kind == "move_ship"


def test_a_pirate_enters_from_its_zone_for_one_point_or_stays(fresh):
    """[black_fleet §5.0, G7] [PROPOSED DEFAULT]: entering costs 1 point; staying is allowed."""
    state = fresh()
    start_turn(state, HOME, card="M01")  # pirate 2
    choose(state, "ship:pirate")
    assert legs(state) == {1: 1, 12: 1, 2: 2, 13: 2, 22: 2}
    choose(state, "stop")
    assert state.seats[0].pirate.zone == "NW"


def test_a_pirate_waits_in_its_distant_sea_when_both_entry_spaces_are_taken(fresh):
    """[black_fleet §5.0, §5.2, G7] [black_fleet §R1.7]: entering onto an entry space
    follows the blocking rules. With opponents' ships on both of NW's (1 and 12) the
    pirate cannot enter and stays in its zone; with the card's navy on 12 instead it
    passes through."""
    state = fresh()
    start_turn(state, {**HOME, "merchant:1": (1, ["red"] * 3), "pirate:2": 12}, card="M08")
    events = choose(state, "ship:pirate")  # pirate 5, yet "stop" is its only option
    assert of_kind(events, "ship_done") == [{"seat": 0, "ship": "pirate:0", "space": None}]
    assert state.seats[0].pirate.zone == "NW" and request(state).kind == "choose_ship"
    state = fresh()
    start_turn(state, {**HOME, "merchant:1": (1, ["red"] * 3), "navy:yellow": 12}, card="M08")
    choose(state, "ship:pirate")
    assert 1 not in legs(state) and legs(state)[22] == 2 and legs(state)[13] == 2


# -- [black_fleet §5.6] fortune cards ------------------------------------------------------


def test_any_number_of_fortune_cards_on_your_own_turn(fresh):
    """[black_fleet §5.6] (D7): several cards in one turn; each goes to the discard pile."""
    state = fresh()
    start_turn(state, HOME, hand=["M01", "M44"], fortune=["F01", "F30"])
    choose(state, "card:M01")
    assert request(state).kind == "play_fortune" and request(state).optional
    assert keys(state) == ["pass", "fortune:F01", "fortune:F30"]
    choose(state, "fortune:F01", "fortune:F30", "target:seat:1")
    assert state.fortune_discard[-2:] == ["F01", "F30"] and state.seats[0].fortune == []


# -- [black_fleet §5.7] drawing ------------------------------------------------------------


def test_end_of_turn_refills_movement_and_draws_fortune_by_the_icon(fresh):
    """[black_fleet §5.7]: draw movement cards back to 2; a draw-2 card draws 2 fortune cards."""
    state = fresh()
    start_turn(state, HOME, card="M16", fortune_top=["F30", "F31"])  # draw 2
    finish_activations(state)
    assert len(state.seats[0].movement) == 2
    assert state.seats[0].fortune == ["F30", "F31"]


def test_discard_icon_asks_which_card_to_discard(fresh):
    """[black_fleet §5.7] (D8), [black_fleet G15]: "discard 1" makes the player discard a card of
    their choice."""
    state = fresh()
    start_turn(state, HOME, card="M21", fortune=["F30", "F01"])  # discard 1
    finish_activations(state)
    assert request(state).kind == "discard_fortune"
    assert keys(state) == ["discard:F30", "discard:F01"]
    events = choose(state, "discard:F01")
    assert of_kind(events, "fortune_discarded")[0]["reason"] == "icon"
    assert state.seats[0].fortune == ["F30"]


def test_discard_icon_does_nothing_with_an_empty_hand(fresh):
    """[black_fleet §5.7]: with no fortune card, the discard symbol does nothing."""
    state = fresh()
    start_turn(state, HOME, card="M21")
    finish_activations(state)
    assert request(state).seat == 1


def test_hand_limit_of_three_at_the_end_of_the_turn(fresh):
    """[black_fleet §5.7] (D9): over 3 fortune cards, discard down to 3 (your choice)."""
    state = fresh()
    hand = ["F36", "F37", "F38"]  # objectives: never playable here
    start_turn(state, HOME, card="M16", fortune=hand, fortune_top=["F39", "F40"])
    finish_activations(state)
    assert len(state.seats[0].fortune) == 5
    choose(state, "discard:F36")
    events = choose(state, "discard:F40")
    assert of_kind(events, "fortune_discarded")[0]["reason"] == "hand_limit"
    assert len(state.seats[0].fortune) == 3 and request(state).seat == 1


def test_an_empty_deck_is_reshuffled_from_its_discards(fresh):
    """[black_fleet §5.7, G16]: when a draw finds the deck empty, the discards are shuffled in."""
    state = fresh()
    start_turn(state, HOME, card="M10")  # draw 1
    state.fortune_discard += state.fortune_deck
    state.fortune_deck.clear()
    finish_activations(state)
    assert len(state.seats[0].fortune) == 1


# -- [black_fleet §5.8] buying -------------------------------------------------------------


def test_buy_one_development_card_in_any_order(fresh):
    """[black_fleet §5.8] (D10): any face-down card you can afford, one per turn."""
    state = fresh()
    start_turn(state, HOME, card="M01", money={0: 11}, development={0: {5: "D05-2", 11: "D11-3"}})
    finish_activations(state)
    assert request(state).kind == "buy" and request(state).optional
    assert keys(state) == ["buy:none", "buy:dev:5", "buy:dev:8", "buy:dev:11"]
    assert request(state).options[3].payload == {
        "buy": "development",
        "cost": 11,
        "card": "D11-3",
        "title": "Extra Hold",
    }
    events = choose(state, "buy:dev:11")
    assert of_kind(events, "development_bought")[0]["title"] == "Extra Hold"
    assert state.seats[0].money == 0 and request(state).seat == 1


def test_victory_card_only_after_all_four_development_cards(fresh):
    """[black_fleet §5.8, §11.1]: the victory card needs the 4 development cards first."""
    state = fresh()
    start_turn(state, HOME, card="M01", money={0: 30}, bought={0: [5, 8, 11]})
    finish_activations(state)
    assert keys(state) == ["buy:none", "buy:dev:14"]
    state = fresh()
    start_turn(state, HOME, card="M01", money={0: 30}, bought={0: [5, 8, 11, 14]})
    finish_activations(state)
    assert keys(state) == ["buy:none", "buy:victory"]
    assert request(state).options[1].payload == {"buy": "victory", "cost": 10}


# -- [black_fleet §11] end of game ---------------------------------------------------------


def test_victory_starts_the_final_round_which_ends_with_the_last_seat(fresh):
    """[black_fleet §11.1, §11.2, §11.3]: the round of the first victory purchase is the last; every
    seat gets the same number of turns; a buyer wins."""
    state = fresh()
    ships = {**HOME, "pirate:1": "NE", "pirate:2": "SE", "pirate:3": "SW"}
    ships |= {"merchant:1": (17, ["red"] * 3), "merchant:2": (6, ["red"] * 3)}
    ships |= {"merchant:3": (31, ["red"] * 3)}
    start_turn(
        state,
        ships,
        seat=1,
        card="M01",
        money={1: 12, 2: 40},
        development={1: READY["development"][1]},
        bought={1: [5, 8, 11, 14]},
    )
    finish_activations(state)
    events = choose(state, "buy:victory")
    bought = kinds(events).index("victory_bought")
    assert kinds(events)[bought : bought + 3] == ["victory_bought", "final_round", "turn_ended"]
    play_quiet_turn(state)
    assert state.outcome() is None and state.active == 3
    events = play_quiet_turn(state)
    assert events[-1].kind == "game_over" and events[-1].data["reason"] == "victory"
    assert state.outcome().places[1] == 1 and state.outcome().scores[1] == 2
    assert state.outcome().places[2] == 2  # most money, no victory card
    assert state.pending() == []


THREE_SEATS = {
    **HOME,
    "merchant:1": (39, ["green"] * 3),
    "pirate:1": "NE",
    "merchant:2": (68, ["purple"] * 3),
    "pirate:2": "SE",
}
"""Three seats whose turns change nothing: each merchant beside a port that will not buy
its cargo, each pirate in a distant sea."""
READY = {
    "development": {
        0: {5: "D05-2", 8: "D08-1", 11: "D11-1", 14: "D14-1"},
        1: {5: "D05-1", 8: "D08-5", 11: "D11-3", 14: "D14-3"},
    },
    "bought": {0: [5, 8, 11, 14], 1: [5, 8, 11, 14]},
}
"""Seats 0 and 1 own all four development cards (none paying income or drawing cards),
so each may buy its victory card."""


def buy_victory(state, card: str) -> list:
    """Play `card`, stop every ship at once and buy the victory card; returns the events."""
    events = choose(state, card)
    finish_activations(state)
    return events + choose(state, "buy:victory")


@pytest.mark.parametrize("buyer", [0, 1, 2])
def test_three_player_final_round_ends_with_the_third_seat(fresh, buyer):
    """[black_fleet §11.1, §11.2, §4.3] [INFERRED]: with 3 players the round of the first victory
    purchase ends with seat 2, to the right of black; the seats after the buyer each
    get their turn, and a purchase by seat 2 ends the game with its turn."""
    state = fresh(players=3)
    ready = {"development": {buyer: READY["development"][0]}, "bought": {buyer: [5, 8, 11, 14]}}
    hands = {"movement": {buyer: ["M01", "M44"]}, "fortune": {0: [], 1: [], 2: []}}
    arrange.position(state, buyer, THREE_SEATS, money={buyer: 10}, **hands, **ready)
    events = buy_victory(state, "card:M01")
    while state.outcome() is None:
        events += play_quiet_turn(state)
    turns = [e.data["seat"] for e in events if e.kind == "turn_started"]
    assert turns == list(range(buyer + 1, 3)) and state.round == 1
    assert of_kind(events, "game_over")[0]["reason"] == "victory"
    assert state.outcome().places == tuple(1 if s == buyer else 2 for s in range(3))


@pytest.mark.parametrize(("money", "places"), [(15, (2, 1, 3)), (14, (1, 1, 3))])
def test_two_victory_buyers_the_richer_wins_and_equal_ones_share(fresh, money, places):
    """[black_fleet §11.3, G24] [INFERRED], [black_fleet G19] [PROPOSED DEFAULT], played to the end:
    seat 0 buys its victory card with 14 (4 left), seat 1 buys its own in the final
    round with 15 or 14 (5 or 4 left); the one left holding more doubloons wins, equal
    ones share first place. Seat 2, richest of all, bought none and cannot win."""
    state = fresh(players=3)
    hands = {0: ["M01", "M44"], 1: ["M23", "M24"], 2: ["M03", "M25"]}
    arrange.position(
        state,
        0,
        THREE_SEATS,
        money={0: 14, 1: money, 2: 30},
        movement=hands,
        fortune={0: [], 1: [], 2: []},
        **READY,
    )
    events = buy_victory(state, "card:M01")
    events += buy_victory(state, "card:M23")
    events += play_quiet_turn(state)
    assert [p.money for p in state.seats] == [4, money - 10, 30]
    assert of_kind(events, "game_over")[0]["places"] == list(places)
    assert state.outcome().places == places and state.pending() == []


def test_round_cap_ends_the_game_ranked_by_cards_then_money(fresh):
    """[black_fleet §11.6] [GAP], [black_fleet §R6]: the engine's cap stops a game at the end of the
    capped round; seats rank by victory card, development cards bought, doubloons."""
    state = fresh(players=3, round_cap=1)
    ships = {"merchant:2": (16, ["purple"] * 3), "pirate:2": "NW"}
    start_turn(state, ships, seat=2, card="M01", money={0: 9, 1: 3}, bought={1: [5]})
    events = play_quiet_turn(state)
    assert of_kind(events, "game_over")[0]["reason"] == "round_cap"
    assert state.outcome().places == (2, 1, 3)


@pytest.mark.parametrize("players", [3, 4])
def test_fortune_cards_are_never_asked_out_of_turn(game, players):
    """[black_fleet §5.6, §8]: every request of a random game is the active seat's own."""
    import random

    state = game.new_game(players, 3)
    bot = random.Random(3)
    while state.outcome() is None:
        req = request(state)
        assert req.seat == asked_seat(state, req)
        state.apply(req.seat, bot.randrange(len(req.options)))
