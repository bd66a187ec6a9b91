"""Requests joined from parts serialized once (`wire.assembly`) parse as the messages
built field by field would."""

import random

import pytest
from google.protobuf import struct_pb2

from admiralty.games import Event, load_game
from admiralty.wire import event_to_pb
from admiralty.wire.assembly import Record, SharedEvent, struct_data, told
from admiralty_sdk.v1 import bot_pb2, common_pb2


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 16_383, 16_384, 2**32 - 1, 2**40 + 5])
def test_an_integer_record_parses_as_its_value(value):
    record = Record(bot_pb2.DecideRequest, "time_bank_ms")
    assert bot_pb2.DecideRequest.FromString(record(value)).time_bank_ms == value


def test_of_a_field_written_twice_the_last_wins_and_repeated_records_keep_their_order():
    deadline = Record(bot_pb2.DecideRequest, "deadline_ms")
    prompt = Record(bot_pb2.DecideRequest, "prompt")
    option = Record(bot_pb2.DecideRequest, "options")
    data = deadline(5) + prompt("é?".encode()) + deadline(7)
    data += b"".join(option(common_pb2.Option(index=i).SerializeToString()) for i in (2, 0, 1))
    message = bot_pb2.DecideRequest.FromString(data)
    assert (message.deadline_ms, message.prompt) == (7, "é?")
    assert [o.index for o in message.options] == [2, 0, 1]


@pytest.mark.parametrize("game", ["jamaica", "black_fleet", "blackbeard"])
def test_a_shared_event_is_the_event_message_at_every_step(game):
    """Every event of a whole random game, told at steps 0, 1 and 200 (a two-byte step)."""
    state, rng = load_game(game).new_game(3, 5), random.Random(5)
    events = list(state.setup_events)
    while state.outcome() is None and len(events) < 2_000:
        request = state.pending()[0]
        events += state.apply(request.seat, rng.randrange(len(request.options)))
    for event in events:
        shared = SharedEvent(event)
        for step in (0, 1, 200):
            told = common_pb2.Event.FromString(shared.serialized(step))
            assert told == event_to_pb(event, step)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"seat": 0, "space": 17, "good": "food", "ok": True, "no": False, "none": None},
        {"x": -3, "big": 2**53 + 1, "half": 0.5, "neg": -1e300, "é": "ünï", "": ""},
        {"amount": 3, "amounts": [3, 2], "holds": [], "nested": {"a": [{"b": None}], "c": {}}},
        {"long": "x" * 300, "list": list(range(200)), "tuple": (1, "a", [True])},
    ],
)
def test_struct_data_parses_as_the_struct_protobuf_builds(data):
    """`struct_data` is what `Struct.update` would give (its entries from a cache the second
    time: the same bytes)."""
    built = struct_pb2.Struct()
    built.update(data)
    for _ in range(2):
        assert struct_pb2.Struct.FromString(struct_data(data)) == built


def test_struct_data_refuses_what_is_not_json():
    with pytest.raises(TypeError):
        struct_data({"set": {1, 2}})


def test_told_events_are_the_records_of_each_event_at_its_step():
    events = [
        SharedEvent(Event("moved", {"seat": s}, audience=a))
        for s, a in ((0, None), (1, frozenset({2})))
    ]
    unsent = [(0, events[0]), (300, events[1]), (5, events[0])]
    field = Record(bot_pb2.DecideRequest, "events")
    expected = b"".join(field(event.serialized(step)) for step, event in unsent)
    assert told(field, unsent) == expected
    message = bot_pb2.DecideRequest.FromString(told(field, unsent))
    assert [(e.step, e.data["seat"], list(e.audience)) for e in message.events] == [
        (0, 0, []),
        (300, 1, [2]),
        (5, 0, []),
    ]
