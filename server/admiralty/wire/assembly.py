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

import functools
import struct
from collections.abc import Iterable, Mapping
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from admiralty.games import Event
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

    __slots__ = ("_delimited", "tag")

    def __init__(self, message: type[Message], field: str):
        descriptor = message.DESCRIPTOR.fields_by_name[field]
        self._delimited = descriptor.type in _DELIMITED
        self.tag = varint(descriptor.number << 3 | (2 if self._delimited else 0))
        """The field's number and wire type, the first bytes of each record."""

    def __call__(self, value: bytes | int) -> bytes:
        if self._delimited:
            assert isinstance(value, bytes)
            return self.tag + varint(len(value)) + value
        assert isinstance(value, int)
        return self.tag + varint(value)


_DELIMITED = frozenset(
    {FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES}
)


def _delimited(tag: bytes, data: bytes) -> bytes:
    return tag + varint(len(data)) + data


_DOUBLE = struct.Struct("<d").pack
_SCALARS = frozenset({int, float, str, bool, type(None)})


def struct_data(data: Mapping[str, Any]) -> bytes:
    """A JSON object serialized as a `google.protobuf.Struct`, as `Struct.update` and
    `SerializeToString` would give it (parsed, the same message), at about twice their
    speed: an entry holding a scalar is serialized once per process."""
    return b"".join(
        _scalar_entry(key, value) if value.__class__ in _SCALARS else _map_entry(key, value)
        for key, value in sorted(data.items())
    )


@functools.lru_cache(maxsize=4096, typed=True)
def _scalar_entry(key: str, value: Any) -> bytes:
    """The entry of `key: value` for a scalar value, cached: events repeat a small set of
    them (a seat, a space, an amount, a good). `typed`, so that 1, 1.0 and True are
    three entries."""
    return _map_entry(key, value)


def _map_entry(key: str, value: Any) -> bytes:
    return _delimited(
        b"\x0a", _delimited(b"\x0a", key.encode()) + _delimited(b"\x12", _value(value))
    )


def _value(value: Any) -> bytes:
    """A `google.protobuf.Value`: null 1, number 2, string 3, bool 4, struct 5, list 6."""
    kind = value.__class__
    if kind is bool:
        return b"\x20\x01" if value else b"\x20\x00"
    if kind is int or kind is float:
        return b"\x11" + _DOUBLE(value)
    if kind is str:
        return _delimited(b"\x1a", value.encode())
    if value is None:
        return b"\x08\x00"
    if isinstance(value, Mapping):
        return _delimited(b"\x2a", struct_data(value))
    if isinstance(value, list | tuple):
        return _delimited(b"\x32", b"".join(_delimited(b"\x0a", _value(v)) for v in value))
    raise TypeError(f"not JSON data: {value!r}")


_STEP = Record(common_pb2.Event, "step")
_DATA = Record(common_pb2.Event, "data")


class SharedEvent:
    """An event as the seats are told it: its message but for the step, serialized once
    (its data as a `Struct` is the slow part), and the step each seat counts (the requests
    it had been sent) written per seat."""

    __slots__ = ("_body", "event")

    def __init__(self, event: Event):
        self.event = event
        self._body: bytes | None = None

    @property
    def body(self) -> bytes:
        """The event's `Event` message without its step."""
        if self._body is None:
            event = self.event
            self._body = _head(event.kind, event.audience) + _DATA(struct_data(event.data))
        return self._body

    def serialized(self, step: int) -> bytes:
        """The event's `Event` message as `step` of a seat's requests."""
        return _STEP(step) + self.body if step else self.body


@functools.lru_cache(maxsize=1024)
def _head(kind: str, audience: frozenset[int] | None) -> bytes:
    """The kind and audience of an `Event`, cached: a game has a few dozen kinds of event,
    told to everyone or to one seat."""
    return common_pb2.Event(kind=kind, audience=sorted(audience or ())).SerializeToString()


def told(field: Record, events: Iterable[tuple[int, SharedEvent]]) -> bytes:
    """The records of `field` (a repeated `Event`) holding `events`, each at its step:
    `field(event.serialized(step))` for each, written in one pass (a request tells a seat
    a dozen events or more, mostly at one step: the seat's requests since the last)."""
    parts: list[bytes] = []
    written, head = 0, b""
    for step, event in events:
        if step != written:
            written, head = step, _STEP(step) if step else b""
        body = event.body
        parts += (field.tag, varint(len(head) + len(body)), head, body)
    return b"".join(parts)
