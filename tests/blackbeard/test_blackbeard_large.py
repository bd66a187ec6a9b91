"""The 6-10-player variant: one pirate each at a time, and a drawn Pirate card put back
for 10 VP to every other player [blackbeard §2.7, §R18.12]."""

from __future__ import annotations

import pytest
from bb_helpers import answer, keys, playout, request
from test_blackbeard_play import invariants

from admiralty.games.blackbeard import Blackbeard, arrange


def variant(players=7, **options):
    """Seat order[0] with no pirate on the map and no Pirate card, to take Action K."""
    state = arrange.ready(players, 3, **options)
    table = state.table
    seat = table.order[0]
    for pirate in table.pirates_of(seat):
        del table.pirates[pirate.id]
        table.pirate_deck.append(pirate.id)
    arrange.pirate_hand(state, seat, [])
    arrange.actions(state, seat, 1)
    return state, seat


@pytest.mark.parametrize("players", [6, 10])
def test_each_player_has_one_pirate_on_the_map_and_none_in_hand(players):
    """[blackbeard §2.7] One Pirate card dealt to each, deployed at once; the map limit
    and the hand limit are 1."""
    state = arrange.ready(players, 1)
    table = state.table
    assert [len(table.pirates_of(seat)) for seat in range(players)] == [1] * players
    assert all(not seat.pirate_cards for seat in table.seats)
    assert (table.limits.map_limit, table.limits.hand_limit) == (1, 1)
    assert Blackbeard.info.max_players == 10


def test_a_drawn_pirate_put_back_gives_every_other_player_10_vp():
    """[blackbeard §2.7, §R18.12] (case H) He draws, puts the card back (the deck is
    shuffled with it) and draws again: the six others score 10 VP each; he may pay
    again."""
    state, seat = variant()
    table = state.table
    answer(state, "k")
    if request(state).kind == "draw_or_deploy":
        answer(state, "draw")
    first = table.seats[seat].pirate_cards[0]
    deck = len(table.pirate_deck)
    assert request(state).kind == "deploy_drawn" and keys(state) == ["deploy", "keep", "redraw"]
    events = answer(state, "redraw")
    assert [e.kind for e in events].count("pirate_redrawn") == 1
    assert [s.vp for s in table.seats] == [0 if s == seat else 10 for s in range(7)]
    assert len(table.seats[seat].pirate_cards) == 1 and len(table.pirate_deck) == deck
    assert first in table.pirate_deck or table.seats[seat].pirate_cards == [first]
    answer(state, "redraw")
    assert [s.vp for s in table.seats] == [0 if s == seat else 20 for s in range(7)]
    answer(state, "deploy")
    answer(state, "area:IN")
    answer(state, "ship:sloop")
    assert len(table.pirates_of(seat)) == 1


def test_the_redraw_is_an_option_of_the_variant_only():
    """[blackbeard §2.7] Without option `pirate_redraw`, or with 5 players or fewer, a
    drawn card is kept or deployed."""
    state, _seat = variant(pirate_redraw=False)
    answer(state, "k")
    if request(state).kind == "draw_or_deploy":
        answer(state, "draw")
    assert "redraw" not in keys(state)
    small, _seat = variant(players=4)
    answer(small, "k")
    if request(small).kind == "draw_or_deploy":
        answer(small, "draw")
    assert "redraw" not in keys(small)


@pytest.mark.parametrize("players", [6, 8, 10])
def test_random_variant_games_end_and_keep_every_total(players):
    """[blackbeard §2.7, §R18.5] Random games of 6-10 players end, every total kept, no
    player ever over one pirate."""

    def check(state):
        invariants(state)
        assert all(len(state.table.pirates_of(seat)) <= 1 for seat in range(players))

    for seed in range(2):
        state, _steps = playout(players, seed, check=check)
        assert state.outcome() is not None and len(state.outcome().places) == players
