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


@pytest.mark.parametrize("game", list(PLAYERS))
def test_seats_are_relative_to_the_viewer(game):
    """Each seat sees its own record in the first player slot: the seats' encodings of a
    new game are the same up to the other seats' order (a fresh deal differs only in hands,
    so slot 0 of every seat holds the same public facts)."""
    table = Table(game, 3, seed=2)
    names = encoding.names(game)
    own = [i for i, name in enumerate(names) if name.startswith(("players[0].", "seats[0]."))]
    views = [encoding.encode(game, table.state.view(seat), 3) for seat in range(3)]
    present = names.index(next(names[i] for i in own if names[i].endswith("present")))
    assert all(view[present] == 1.0 for view in views)
    money = [i for i in own if names[i].endswith((".vp", ".money", ".score"))]
    assert money and all(views[0][i] == views[s][i] for s in (1, 2) for i in money)


@pytest.mark.parametrize("game", list(PLAYERS))
def test_twins_that_differ_only_in_what_the_seat_cannot_see_encode_alike(game):
    """Twin states (tests/support/twins.py) differ in other seats' hidden cards, deck
    orders and the chance seed: the observer's encoding is identical in both, while an
    encoding of the state itself would differ."""
    for twins in twin_states(game, seed=4):
        a, b, observer = twins.a, twins.b, twins.observer
        assert a.digest() != b.digest(), twins.name
        players = a.players
        assert (encoding.encode(game, a.view(observer), players)
                == encoding.encode(game, b.view(observer), players)), twins.name


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
