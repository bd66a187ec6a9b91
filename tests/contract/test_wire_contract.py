"""Every game's views, option payloads and board travel through its typed messages and
come back as the engine's data: nothing dropped, renamed or retyped (None and empty lists
aside: protobuf does not tell them apart)."""

from __future__ import annotations

import pytest
from google.protobuf import json_format
from random_play import CASES, play

from admiralty.games import GAMES, load_game
from admiralty.wire import codec_for, options_to_pb


def plain(message) -> dict:
    return json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )


def pruned(data):
    """JSON data without None values and empty lists, the absences protobuf cannot tell apart."""
    if isinstance(data, dict):
        return {k: pruned(v) for k, v in data.items() if v is not None and v != []}
    if isinstance(data, list):
        return [pruned(item) for item in data]
    return data


@pytest.mark.parametrize("game", GAMES)
def test_the_board_round_trips(game):
    info = load_game(game).static_info()
    assert pruned(plain(codec_for(game).board_pb(info))) == pruned(info)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_view_and_option_payload_round_trips(game, players):
    codec = codec_for(game)
    for number, (state, _, _) in enumerate(play(game, players, seed=6)):
        if number % 7 == 0 or state.outcome() is not None:
            for viewer in (None, *range(players)):
                view = state.view(viewer)
                assert pruned(plain(codec.observation_pb(view))) == pruned(view)
        for request in state.pending():
            messages = options_to_pb(codec, request.options)
            assert [m.key for m in messages] == [o.key for o in request.options]
            for message, option in zip(messages, request.options, strict=True):
                typed = getattr(message, codec.field) if option.payload else None
                assert message.WhichOneof("typed") == (codec.field if typed else None)
                assert typed is None or pruned(plain(typed)) == pruned(dict(option.payload))
