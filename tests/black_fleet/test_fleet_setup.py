"""Setup and player counts [black_fleet §4, §R6]."""

from __future__ import annotations

from collections import Counter

from fleet_helpers import of_kind, request

from admiralty.games import Window
from admiralty.games.black_fleet.arrange import choose, keys


def test_four_player_setup(fresh):
    """[black_fleet §4.1, §4.2]: navies on their starts, 13 cubes per port, one development
    card of each cost per seat (2 of each back to the box), 1 fortune and 2 movement
    cards each, no money, ships off the board, seat 0 black and first."""
    state = fresh(players=4)
    assert {c: n.space for c, n in state.navies.items()} == {"yellow": 36, "purple": 67}
    assert state.stock == dict.fromkeys(["yellow", "red", "green", "blue", "purple"], 13)
    for player in state.seats:
        assert sorted(player.development) == [5, 8, 11, 14]
        assert len(player.fortune) == 1 and len(player.movement) == 2
        assert player.money == 0 and player.bought == []
        assert not player.merchant.in_play and not player.pirate.in_play
    assert Counter(state.data.development[c].cost for c in state.box) == {5: 2, 8: 2, 11: 2, 14: 2}
    assert len(state.fortune_deck) == 40 and len(state.movement_deck) == 36
    assert state.seats[0].colour == "black"
    assert sorted(p.colour for p in state.seats) == ["black", "orange", "teal", "white"]


def test_three_player_setup(fresh):
    """[black_fleet §4.3] [INFERRED]: black is always dealt; 3 cards of each cost go back to the
    box."""
    state = fresh(players=3)
    assert state.seats[0].colour == "black" and len(state.seats) == 3
    assert Counter(state.data.development[c].cost for c in state.box) == {5: 3, 8: 3, 11: 3, 14: 3}
    assert len(state.movement_deck) == 38


def test_setup_events_tell_each_seat_its_cards_and_the_public_only_counts(fresh):
    """[black_fleet §9]: dealt development, fortune and movement cards reach their owner only; the
    public twin of each event says how many."""
    state = fresh()
    events = state.setup_events
    private = [e for e in events if e.audience is not None]
    assert {e.kind for e in private} == {"development_dealt", "fortune_drawn", "movement_drawn"}
    assert all(e.audience == frozenset({e.data["seat"]}) for e in private)
    public = [dict(e.data) for e in events if e.audience is None and e.kind == "movement_drawn"]
    assert public == [{"seat": s, "count": 2} for s in range(4)]


def test_merchants_are_placed_in_seat_order_and_load_three_cubes(fresh):
    """[black_fleet §4.1] step 9 (D0): from black clockwise, each merchant goes next to a port
    of its owner's choice and loads 3 of its colour; ports may be shared, spaces not."""
    state = fresh()
    first = request(state)
    assert (first.kind, first.seat, first.window) == ("place_merchant", 0, Window.SETUP)
    assert len(first.options) == 15  # 5 ports x 3 spaces
    events = choose(state, "place:T:16")
    assert of_kind(events, "merchant_loaded") == [
        {"seat": 0, "port": "T", "space": 16, "colour": "blue", "cubes": 3}
    ]
    assert request(state).seat == 1
    assert "place:T:16" not in keys(state) and "place:T:17" in keys(state)
    choose(state, "place:T:17")
    choose(state, "place:T:6")
    assert not [k for k in keys(state) if k.startswith("place:T")]
    choose(state, "place:M:68")
    assert state.stock["blue"] == 4 and state.stock["purple"] == 10
    assert request(state).kind == "play_fortune"  # W0: seat 0 holds its dealt fortune card
    choose(state, "pass")
    assert request(state).kind == "reenter_pirate" and request(state).seat == 0


def test_victory_cost_options(game):
    """[black_fleet §11.3]: victory cards cost 10, or 20 in the variant, per seat if wished."""
    assert [p.victory_cost for p in game.new_game(3, 1, {"victory_cost": 20}).seats] == [20] * 3
    mixed = game.new_game(3, 1, {"victory_cost": [10, 20, 20]})
    assert [p.victory_cost for p in mixed.seats] == [10, 20, 20]
