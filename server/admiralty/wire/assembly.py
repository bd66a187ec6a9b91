"""Requests assembled from parts serialized once.

Protobuf's encoding is a sequence of (field number, value) records, and a parser reads
records joined end to end as one message: a repeated field keeps its records in order, and
of a singular field written twice the last wins. So the referee serializes what several
requests share once (an event, for every seat that sees it; the match's info) and joins
bytes per seat, rather than building a message per seat and copying the shared parts into
each. What a bot parses is the same message; what the referee holds while a call waits is
the bytes alone.

>>> from admiralty_sdk.v1 import bot_pb2
>>> seat = Record(bot_pb2.DecideRequest, "seat")
>>> bot_pb2.DecideRequest.FromString(seat(2) + seat(3)).seat
3
"""

from __future__ import annotations

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from admiralty.games import Event
from admiralty.wire.codec import struct
from admiralty_sdk.v1 import common_pb2

_SMALL = [bytes((value,)) for value in range(0x80)]


def varint(value: int) -> bytes:
    """`value` (not negative) as a base-128 varint."""
    if value < 0x80:
        return _SMALL[value]
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


class Record:
    """The records of one field of a message type: `record(value)` is the field holding
    `value` (an integer, enum or bool; or, for a message, string or bytes field, its
    serialized data; one element of a repeated field)."""

    __slots__ = ("_delimited", "_tag")

    def __init__(self, message: type[Message], field: str):
        descriptor = message.DESCRIPTOR.fields_by_name[field]
        self._delimited = descriptor.type in _DELIMITED
        self._tag = varint(descriptor.number << 3 | (2 if self._delimited else 0))

    def __call__(self, value: bytes | int) -> bytes:
        if self._delimited:
            assert isinstance(value, bytes)
            return self._tag + varint(len(value)) + value
        assert isinstance(value, int)
        return self._tag + varint(value)


_DELIMITED = frozenset(
    {FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES}
)
_STEP = Record(common_pb2.Event, "step")


class SharedEvent:
    """An event as the seats are told it: its message but for the step, serialized once
    (its data as a `Struct` is the slow part, pure Python), and the step each seat counts
    (the requests it had been sent) written per seat."""

    __slots__ = ("_body", "event")

    def __init__(self, event: Event):
        self.event = event
        self._body: bytes | None = None

    def serialized(self, step: int) -> bytes:
        """The event's `Event` message as `step` of a seat's requests."""
        if self._body is None:
            event = self.event
            self._body = common_pb2.Event(
                kind=event.kind, data=struct(event.data), audience=sorted(event.audience or ())
            ).SerializeToString(deterministic=True)
        return _STEP(step) + self._body if step else self._body
