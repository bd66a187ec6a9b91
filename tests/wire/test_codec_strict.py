"""The codec refuses data its messages cannot carry, at any depth, instead of dropping it."""

import pytest

from admiralty.wire.codec import build
from admiralty_sdk.v1 import jamaica_pb2


def test_an_unknown_field_is_refused_at_the_top_and_below():
    with pytest.raises(ValueError, match="secret"):
        build(jamaica_pb2.JamaicaObservation, {"round": 1, "secret": 3})
    with pytest.raises(ValueError, match="secret"):
        build(jamaica_pb2.JamaicaObservation, {"players": [{"seat": 0, "secret": 3}]})
    with pytest.raises(ValueError, match="secret"):
        build(jamaica_pb2.JamaicaObservation, {"combat": {"attacker": 0, "secret": 1}})


def test_a_value_of_the_wrong_type_is_refused():
    with pytest.raises(TypeError):
        build(jamaica_pb2.JamaicaObservation, {"round": "seven"})


def test_null_means_unset_and_mixed_lists_travel_as_values():
    combat = build(
        jamaica_pb2.JamaicaCombat,
        {"attacker": 0, "rolls": [8, "star"], "strengths": [10, None], "winner": None},
    )
    assert not combat.HasField("winner")
    assert combat.rolls[0].number_value == 8 and combat.rolls[1].string_value == "star"
    assert combat.strengths[1].HasField("null_value")
