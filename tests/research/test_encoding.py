"""The observation encoding (`admiralty_sdk.encoding`): fixed shape, every value of random
play in its vocabulary, nothing but the seat's view and its own request, the same from a
reused encoder as from a fresh one, and a layout pinned name by name."""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path

import numpy as np
import pytest
from random_play import play
from twins import twin_states

from admiralty.research import encoding
from admiralty.research.actions import PLAYERS, Table
from admiralty_sdk.encoding import ACTION_BOUNDS, OPTIONS, Encoder, option_width, view_size

DOCS = Path(__file__).parents[2] / "docs" / "games"


@pytest.mark.parametrize("game", list(PLAYERS))
def test_every_view_of_random_play_encodes_to_the_same_length_within_its_vocabulary(game):
    """Every supported player count, every seat: `size(game)` floats, one name each, and
    no categorical value (of the view, or of the options of the seat asked) outside its
    vocabulary (`strict`)."""
    assert len(encoding.names(game)) == encoding.size(game)
    for players in PLAYERS[game]:
        for number, step in enumerate(play(game, players, seed=players)):
            if number % 9 == 0 or step.state.outcome() is not None:
                asked = {request.seat: request for request in step.state.pending()}
                for seat in range(players):
                    request = asked.get(seat)
                    kind, options = (request.kind, request.options) if request else (None, ())
                    vector = encoding.encode(
                        game, step.state.view(seat), players, True, kind, options
                    )
                    assert len(vector) == encoding.size(game) and any(vector)


@pytest.mark.parametrize("game", list(PLAYERS))
def test_a_reused_encoder_gives_what_a_fresh_one_gives(game):
    """One encoder per seat over a whole game, each seat asked in turn with its options,
    writes again only what changed: its vector and mask always equal a fresh encoding's."""
    players = PLAYERS[game].start + 1
    table, chooser = Table(game, players, seed=2), random.Random(2)
    encoders = [Encoder(game, strict=True) for _ in range(players)]
    while not table.over():
        request = table.request()
        for seat in (request.seat, (request.seat + 1) % players):
            asked = seat == request.seat
            kind, options = (request.kind, request.options) if asked else (None, ())
            vector = encoders[seat].encode(table.view(seat), kind, options)
            fresh = Encoder(game)
            assert np.array_equal(vector, fresh.encode(table.view(seat), kind, options))
            assert np.array_equal(encoders[seat].mask, fresh.mask)
            assert encoders[seat].mask.sum() == len(options)
        table.apply(chooser.randrange(len(request.options)))


@pytest.mark.parametrize("game", list(PLAYERS))
def test_an_encoder_passed_from_seat_to_seat_gives_what_a_fresh_one_gives(game):
    """One encoder for each seat asked in turn: the viewer changes between calls, and
    nothing written for one seat (an option row naming a seat) serves another."""
    players = PLAYERS[game].start + 1
    table, chooser = Table(game, players, seed=4), random.Random(4)
    shared = Encoder(game, strict=True)
    while not table.over():
        request = table.request()
        view, kind, options = table.view(request.seat), request.kind, request.options
        vector = shared.encode(view, kind, options)
        assert np.array_equal(vector, Encoder(game).encode(view, kind, options))
        table.apply(chooser.randrange(len(options)))


@pytest.mark.parametrize("game", list(PLAYERS))
def test_a_view_is_never_changed_by_the_game_afterwards(game):
    """A reused encoder compares each view with the previous one it encoded: that holds
    only if a step never changes a view handed out before it."""
    table, chooser = Table(game, PLAYERS[game].start, seed=3), random.Random(3)
    kept = []
    while not table.over():
        request = table.request()
        view = table.state.view(request.seat)
        kept.append((view, copy.deepcopy(view)))
        table.apply(chooser.randrange(len(request.options)))
    assert all(view == before for view, before in kept)


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


def test_the_sdks_vocabularies_are_the_games_data():
    """The SDK reads its vocabularies from a file (it imports nothing of the server):
    the file must say what the games' data say (`python -m admiralty.research.encoding`
    writes it again)."""
    assert encoding.vocabularies() == encoding.VOCABULARIES


@pytest.mark.parametrize("game", list(PLAYERS))
def test_the_request_kinds_are_those_the_games_page_lists(game):
    """An option's row one-hots its request's kind over the kinds docs/games/<game>.md
    lists in its "Requests" table."""
    section = (DOCS / f"{game}.md").read_text().split("\n## Requests")[1].split("\n## ")[0]
    listed = [
        kind
        for line in section.splitlines()
        if line.startswith("| `")
        for kind in re.findall(r"`([a-z_]+)`", line.split("|")[1])
    ]
    assert sorted(listed) == sorted(OPTIONS[game][0])


PINNED = {
    "jamaica": (
        2,
        {
            "round": (0, 6.0),
            "players[1].space": (141, 6.0),
            "players[1].steps_left": (142, 26.0),
            "players[1].score": (242, -5.0),
            "option[2].present": (1035, 1.0),
            "option[2].kind=load": (1038, 1.0),
            "option[2].verb=empty": (1049, 1.0),
            "option[2].payload.hold=2": (1086, 1.0),
            "option[2].payload.kind=food": (1091, 1.0),
            "option[2].payload.count": (1093, 4.0),
            "option[2].payload.load_count": (1153, 2.0),
            "option[4].present": (1317, 0.0),
        },
    ),
    "black_fleet": (
        3,
        {
            "round": (26, 2.0),
            "round_cap": (27, 60.0),
            "turn": (28, 4.0),
            "seats[1].movement_cards_held": (409, 2.0),
            "seats[1].merchant.space": (457, 29.0),
            "seats[1].merchant.cargo#blue": (461, 3.0),
            "option[2].present": (1656, 1.0),
            "option[2].kind=move_ship": (1664, 1.0),
            "option[2].verb=move": (1680, 1.0),
            "option[2].payload.space": (1690, 46.0),
            "option[2].payload.steps": (1835, 1.0),
        },
    ),
    "blackbeard": (
        3,
        {
            "turn": (0, 2.0),
            "pirates[CU].owner[2]": (1940, 1.0),
            "pirates[CU].area=SM": (1954, 1.0),
            "pirates[CU].ship.type=sloop": (2099, 1.0),
            "pirates[CU].ship.loyalty": (2104, 7.0),
            "pirates[LW].owner[0]": (3675, 1.0),
            "pirates[LW].deployed_turn": (3833, 2.0),
            "option[2].present": (11101, 1.0),
            "option[2].kind=choose_action": (11111, 1.0),
            "option[3].present": (11454, 0.0),
        },
    ),
}
"""Per game: the players, and a few floats of one position by name, offset and value."""

SIZES = {"jamaica": (753, 141), "black_fleet": (1276, 190), "blackbeard": (10395, 353)}
"""Per game: the floats of the view, and of each option's row."""


@pytest.mark.parametrize("game", list(PLAYERS))
def test_the_layout_is_pinned_by_name_offset_and_value(game):
    """Seed 7, random answers (seeded 7), the first request after 40 answers with three
    options or more: the encoding of the seat asked, at a few names. A change to a
    layout moves these offsets: the docs' layout tables and a trained policy change too."""
    players, pinned = PINNED[game]
    assert (view_size(game), option_width(game)) == SIZES[game]
    assert encoding.size(game) == SIZES[game][0] + ACTION_BOUNDS[game] * SIZES[game][1]
    table, chooser, answers = Table(game, players, seed=7), random.Random(7), 0
    while answers < 40 or len(table.request().options) < 3:
        table.apply(chooser.randrange(len(table.request().options)))
        answers += 1
    request = table.request()
    vector = Encoder(game).encode(table.view(request.seat), request.kind, request.options)
    names = encoding.names(game)
    for name, (offset, value) in pinned.items():
        assert names[offset] == name
        assert vector[offset] == value, name
