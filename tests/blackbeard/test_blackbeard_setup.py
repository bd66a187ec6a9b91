"""Setup of a game of Blackbeard [blackbeard §3.0]: the Player Order, the Event and Pirate
decks, the Governors, the deployment and the merchants."""

from __future__ import annotations

from collections import Counter

import pytest
from bb_helpers import answer, keys, request

from admiralty.games.base import Window
from admiralty.games.blackbeard import Blackbeard, arrange
from admiralty.games.blackbeard.table import DATA

PRO = [g.id for g in DATA.governors.values() if g.side == "pro"]


def test_the_highest_roll_is_player_a_and_ties_are_rolled_again():
    """[blackbeard §3.0] Seats 0 and 1 tie on 5 and re-roll (2 against 6): seat 1 is
    Player A and the order runs on from him."""
    state = Blackbeard().new_game(3, 0)
    arrange.rig(state, 5, 5, 3, 2, 6)
    state.setup._player_order()
    assert state.table.order == (1, 2, 0)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_four_event_cards_each_and_no_must_play_card_in_a_hand(players):
    """[blackbeard §3.0] MPI cards are set aside for the deal, then shuffled in."""
    state = Blackbeard().new_game(players, 7)
    table = state.table
    hands = [card for seat in table.seats for card in seat.events]
    assert all(len(seat.events) == 4 for seat in table.seats)
    assert all(table.deck_cards[card].cls != "MPI" for card in hands)
    assert len(hands) + len(table.event_deck) == 87
    assert Counter(hands + table.event_deck) == Counter(
        {c.number: c.copies for c in table.deck_cards.values()}
    )


def test_a_long_game_keeps_the_general_pardons_out_of_the_first_pass():
    """[blackbeard §4.1, §R4.6]"""
    state = Blackbeard().new_game(3, 7, {"game_length": "long"})
    assert state.table.held_out == [6, 6, 6]
    assert 6 not in state.table.event_deck


@pytest.mark.parametrize(("players", "dealt"), [(2, 4), (3, 3), (4, 2), (5, 2)])
def test_pirate_cards_dealt_by_player_count(players, dealt):
    """[blackbeard §3.0, §5.16]"""
    state = Blackbeard().new_game(players, 3)
    table = state.table
    on_map = len(table.pirates)
    assert sum(len(s.pirate_cards) for s in table.seats) + on_map == dealt * players
    assert len(table.pirate_deck) == 23 - dealt * players


def test_eight_pro_pirate_governors_and_the_next_available_port():
    """[blackbeard §3.0, §6.32] Every d66 comes up 35, a Pirate Port: the Governors go to
    the next ports in code order without a Governor, skipping New Providence (44)."""
    state = Blackbeard().new_game(3, 0)
    table = state.table
    for port in table.ports.values():
        port.governor = None
    arrange.rig(state, *[3, 5] * 8)
    state.setup._pro_governors()
    placed = sorted(code for code, port in table.ports.items() if port.governor)
    assert placed == [36, 41, 42, 43, 45, 46, 51, 52]
    assert {table.ports[code].governor for code in placed} == set(PRO)


def test_governors_never_in_pirate_ports():
    for seed in range(20):
        state = Blackbeard().new_game(4, seed)
        governed = [code for code, port in state.table.ports.items() if port.governor]
        assert len(governed) == 8
        assert not any(DATA.ports[code].pirate_port for code in governed)


def test_deployment_is_three_decisions_in_a_setup_window():
    """[blackbeard §3.0, §5.13] Which card, then which sea area, then Sloop or Schooner;
    the first round is mandatory (no PASS)."""
    state = Blackbeard().new_game(3, 11)
    first = request(state)
    assert first.seat == state.table.order[0] and first.window == Window.SETUP
    assert first.kind == "deploy_card" and "pass" not in keys(state)
    card = first.options[1].payload["pirate"]
    answer(state, f"pirate:{card}")
    assert request(state).kind == "deploy_area"
    assert keys(state) == [f"area:{a}" for a in DATA.areas]
    answer(state, "area:WC")
    assert request(state).kind == "deploy_ship"
    assert keys(state) == ["ship:sloop", "ship:schooner"]
    answer(state, "ship:schooner")
    pirate = state.table.pirates[card]
    assert (pirate.area, pirate.port, pirate.ship.type) == ("WC", None, "schooner")
    assert (pirate.ship.combat, pirate.ship.speed, pirate.ship.loyalty) == (6, 3, 7)
    assert pirate.ship.holds == [0, 0, 0]


def test_later_rounds_are_optional_and_keep_to_the_map_limit():
    """[blackbeard §3.0, §5.14] In a 4-player game nobody deploys a third pirate."""
    state = Blackbeard().new_game(4, 5)
    seen_pass = False
    while state.table.turn.number == 0:
        open_request = request(state)
        if open_request.kind == "deploy_card" and open_request.options[0].key == "pass":
            seen_pass = True
        state.apply(open_request.seat, len(open_request.options) - 1)
    assert seen_pass
    owners = Counter(p.owner for p in state.table.pirates.values())
    assert owners == Counter({0: 2, 1: 2, 2: 2, 3: 2})


def test_eight_merchants_face_down_and_hidden_from_everyone():
    """[blackbeard §3.0, §6.31]"""
    state = Blackbeard().new_game(4, 2)
    table = state.table
    assert len(table.merchants) == 8 and len(table.merchant_pool) == 27
    assert not any(DATA.ports[code].pirate_port for code in table.merchants)
    for viewer in (None, 0, 1):
        for merchant in state.view(viewer)["merchants"]:
            assert merchant["type"] is None and merchant["cargo_value"] is None
