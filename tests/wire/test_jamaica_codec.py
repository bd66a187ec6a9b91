"""Every Jamaica view, option payload and the static board fit the typed messages exactly.

The codec parses strictly, so an engine field without a proto field fails here."""

import random

import pytest
from google.protobuf import json_format

from admiralty.games import load_game
from admiralty.wire import codec_for, options_to_pb

CODEC = codec_for("jamaica")


def test_the_static_board_fits_jamaica_track():
    info = load_game("jamaica").static_info()
    track = CODEC.board_pb(info)
    assert len(track.spaces) == len(info["spaces"]) == 50
    assert track.spaces[6].next == [7, 13]  # fork A splits (jamaica_data.md 1.1.2)
    assert json_format.MessageToDict(track, preserving_proto_field_name=True)["lap_length"] \
        == info["lap_length"]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_view_and_option_of_random_games_fits_the_protos(players):
    game = load_game("jamaica")
    for seed in range(6):
        state, rng = game.new_game(players, seed), random.Random(seed)
        while state.outcome() is None:
            for viewer in (None, *range(players)):
                CODEC.observation_pb(state.view(viewer))
            request = state.pending()[0]
            messages = options_to_pb(CODEC, request.options)
            assert [m.key for m in messages] == [o.key for o in request.options]
            state.apply(request.seat, rng.randrange(len(request.options)))
        final = CODEC.observation_pb(state.view(None))
        assert list(final.outcome.scores) == list(state.outcome().scores)
