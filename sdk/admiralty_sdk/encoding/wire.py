"""A bot's `DecideRequest` as the plain data the engines give: its typed observation as
the seat's view (the dict `state.view(seat)` returns) and its options with their
payloads, so the encoder reads the same data on both sides of the wire.

The referee builds the typed observation from the view field by field
(`admiralty.wire.codec`): here every field comes back under its name, a field that was
None (unset, where the message tracks presence) as None, a `google.protobuf.Value` as
the scalar it holds (a whole number as an int, as the engines write it), and a map as a
dict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from google.protobuf.message import Message

from admiralty_sdk.helpers import observation, payload
from admiralty_sdk.v1 import bot_pb2

_VALUE = "google.protobuf.Value"


def plain(message: Message) -> dict[str, Any]:
    """`message` as plain data, every field under its name (unset ones as None, where
    the field tracks presence)."""
    out: dict[str, Any] = {}
    for field in message.DESCRIPTOR.fields:
        out[field.name] = _field(message, field)
    return out


def _field(message: Message, field: Any) -> Any:
    value = getattr(message, field.name)
    kind = field.message_type
    if kind is not None and kind.GetOptions().map_entry:
        inner = kind.fields_by_name["value"]
        return {key: _single(value[key], inner) for key in value}
    if field.is_repeated:
        return [_single(item, field) for item in value]
    if field.has_presence and not message.HasField(field.name):
        return None
    return _single(value, field)


def _single(value: Any, field: Any) -> Any:
    kind = field.message_type
    if kind is None:
        return value
    if kind.full_name == _VALUE:
        return _scalar(value)
    return plain(value)


def _scalar(value: Message) -> Any:
    which = value.WhichOneof("kind")
    if which is None or which == "null_value":
        return None
    scalar = getattr(value, which)
    if which == "number_value" and scalar.is_integer():
        return int(scalar)
    return scalar


@dataclass(frozen=True)
class WireOption:
    """An option of a request: its key and its payload as plain data (None if none)."""

    key: str
    payload: dict[str, Any] | None


def view_of(request: bot_pb2.DecideRequest) -> dict[str, Any]:
    """The seat's view the request's typed observation carries."""
    return plain(observation(request))


def options_of(request: bot_pb2.DecideRequest) -> list[WireOption]:
    """The request's options, in index order, with their payloads as plain data (only
    the payload's fields that are set)."""
    out = []
    for option in request.options:
        typed = payload(option)
        data = None
        if typed is not None:
            data = {
                f.name: [_single(item, f) for item in v] if f.is_repeated else _single(v, f)
                for f, v in typed.ListFields()
            }
        out.append(WireOption(option.key, data))
    return out
