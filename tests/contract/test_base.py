"""The shared pieces of the engine contract."""

import pytest

from admiralty.games import Event, Outcome, load_game


def test_outcome_ties_share_a_place_and_the_next_place_is_skipped():
    outcome = Outcome.from_ranking([(10, 3), (12, 0), (10, 3), (9, 9)], [10, 12, 10, 9])
    assert outcome.places == (2, 1, 2, 4)


def test_public_events_reach_everyone_private_ones_only_their_audience():
    public = Event("dice_rolled", {"dice": [3, 5]})
    private = Event("hand_drawn", {"cards": [1, 2]}, audience=frozenset({2}))
    assert public.visible_to(None) and public.visible_to(0)
    assert private.visible_to(2)
    assert not private.visible_to(0)
    assert not private.visible_to(None)


def test_unknown_game_names_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown game 'chess'; known games: .*jamaica"):
        load_game("chess")
