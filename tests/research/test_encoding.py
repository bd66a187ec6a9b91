"""The observation encoding (`admiralty.research.encoding`): fixed shape, every value of
random play in its vocabulary, and nothing but the seat's view."""

from __future__ import annotations

import pytest
from random_play import play
from twins import twin_states

from admiralty.research import encoding
from admiralty.research.actions import PLAYERS, Table


@pytest.mark.parametrize("game", list(PLAYERS))
def test_every_view_of_random_play_encodes_to_the_same_length_within_its_vocabulary(game):
    """Every supported player count, every seat: `size(game)` floats, one name each, and
    no categorical value outside its vocabulary (`strict`)."""
    assert len(encoding.names(game)) == encoding.size(game)
    for players in PLAYERS[game]:
        for number, step in enumerate(play(game, players, seed=players)):
            if number % 9 == 0 or step.state.outcome() is not None:
                for seat in range(players):
                    vector = encoding.encode(game, step.state.view(seat), players, strict=True)
                    assert len(vector) == encoding.size(game) and any(vector)


SEAT_FIGURES = {
    "jamaica": ("players", "score", "captain"),
    "black_fleet": ("seats", "money", "active_seat"),
    "blackbeard": ("players", "vp", "active"),
}
"""Per game: the list of seat records, a per-seat number in them, and a seat field."""


@pytest.mark.parametrize("game", list(PLAYERS))
def test_seats_are_relative_to_the_viewer(game):
    """Slot k of seat s's encoding holds seat (s + k) mod n's record, and a seat field
    (the captain, the active seat) is one-hot in its relative slot."""
    rows, figure, marker = SEAT_FIGURES[game]
    players, names = 3, encoding.names(game)
    for step in play(game, players, seed=4):
        view = step.state.view(None)
        numbers = [seat[figure] for seat in view[rows]]
        if len(set(numbers)) == players and isinstance(view[marker], int):
            break
    else:
        raise AssertionError("no position where every seat's figure differs")
    state = step.state
    for seat in range(players):
        seen = state.view(seat)  # (a Jamaica score counts its own seat's treasures)
        vector = dict(zip(names, encoding.encode(game, seen, players), strict=True))
        for slot in range(players):
            expected = seen[rows][(seat + slot) % players][figure]
            assert vector[f"{rows}[{slot}].{figure}"] == expected
        marked = [slot for slot in range(10) if vector.get(f"{marker}[{slot}]")]
        assert marked == [(view[marker] - seat) % players]


@pytest.mark.parametrize("game", list(PLAYERS))
def test_twins_that_differ_only_in_what_the_seat_cannot_see_encode_alike(game):
    """Twin states (tests/support/twins.py) differ in other seats' hidden cards, deck
    orders and the chance seed: the observer's encoding is identical in both, while an
    encoding of the state itself would differ."""
    for twins in twin_states(game, seed=4):
        a, b, observer = twins.a, twins.b, twins.observer
        assert a.digest() != b.digest(), twins.name
        players = a.players
        assert encoding.encode(game, a.view(observer), players) == encoding.encode(
            game, b.view(observer), players
        ), twins.name


def test_hidden_cards_are_encoded_for_their_owner_only():
    """Jamaica: a seat's own hand is in its encoding; another seat's hand is not in its."""
    table = Table("jamaica", 2, seed=1)
    names = encoding.names("jamaica")
    hand = [i for i, name in enumerate(names) if name.startswith("players[0].hand#")]
    other = [i for i, name in enumerate(names) if name.startswith("players[1].hand#")]
    vector = encoding.encode("jamaica", table.state.view(0), 2)
    assert sum(vector[i] for i in hand) == len(table.state.view(0)["players"][0]["hand"])
    assert sum(vector[i] for i in other) == 0


def test_a_value_outside_its_vocabulary_is_zeros_or_an_error_when_strict():
    view = Table("jamaica", 2, seed=1).state.view(0)
    view = {**view, "phase": "mutiny"}
    names = encoding.names("jamaica")
    vector = encoding.encode("jamaica", view, 2)
    assert [vector[i] for i, name in enumerate(names) if name.startswith("phase=")] == [0.0] * 5
    with pytest.raises(ValueError, match="mutiny"):
        encoding.encode("jamaica", view, 2, strict=True)
