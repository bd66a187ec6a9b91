"""Jamaica's track in its typed message (tests/contract checks that every view, payload and
board round-trips)."""

from google.protobuf import json_format

from admiralty.games import load_game
from admiralty.wire import codec_for

CODEC = codec_for("jamaica")


def test_the_static_board_fits_jamaica_track():
    info = load_game("jamaica").static_info()
    track = CODEC.board_pb(info)
    assert len(track.spaces) == len(info["spaces"]) == 50
    assert track.spaces[6].next == [7, 13]  # fork A splits (jamaica_data.md 1.1.2)
    assert (
        json_format.MessageToDict(track, preserving_proto_field_name=True)["lap_length"]
        == info["lap_length"]
    )
