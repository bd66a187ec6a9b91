"""Translate engine data (plain JSON) into the typed messages of admiralty.v1.

Each game's observation, option payload and board messages mirror the engine's
`view()`, option payload and `static_info()` field by field, so one generic codec
serves every game: `build` fills the typed message, strictly, so a field the engine
adds without a proto field fails the wire tests instead of vanishing silently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf import message_factory, struct_pb2
from google.protobuf.message import Message

from admiralty.games import Event, Option, Window
from admiralty_sdk.v1 import black_fleet_pb2, common_pb2, jamaica_pb2

_WINDOW_KINDS = {
    Window.TURN: common_pb2.WINDOW_KIND_TURN,
    Window.INTERRUPT: common_pb2.WINDOW_KIND_INTERRUPT,
    Window.SEALED: common_pb2.WINDOW_KIND_SEALED,
    Window.SETUP: common_pb2.WINDOW_KIND_SETUP,
}
_WINDOWS = {value: key for key, value in _WINDOW_KINDS.items()}


def to_window_kind(window: Window) -> int:
    return _WINDOW_KINDS[window]


def from_window_kind(kind: int) -> Window:
    try:
        return _WINDOWS[kind]
    except KeyError:
        raise ValueError(f"not a window kind: {kind}") from None


def struct(data: Mapping[str, Any]) -> struct_pb2.Struct:
    """A JSON object as a protobuf Struct."""
    message = struct_pb2.Struct()
    message.update(data)
    return message


_MESSAGE, _REPEATED_MESSAGE, _VALUE, _REPEATED_VALUE, _PLAIN, _MESSAGE_MAP = range(6)
_PLANS: dict[str, dict[str, tuple[int, type[Message] | None]]] = {}


def _plan(cls: type[Message]) -> dict[str, tuple[int, type[Message] | None]]:
    """How to fill each field of `cls`, computed once per message type."""
    plan = _PLANS.get(cls.DESCRIPTOR.full_name)
    if plan is None:
        plan = {}
        for field in cls.DESCRIPTOR.fields:
            repeated = field.is_repeated
            entry = field.message_type
            if entry is not None and entry.GetOptions().map_entry:
                value_type = entry.fields_by_name["value"].message_type
                plan[field.name] = ((_PLAIN, None) if value_type is None else
                                    (_MESSAGE_MAP, message_factory.GetMessageClass(value_type)))
            elif field.message_type is None:
                plan[field.name] = (_PLAIN, None)
            elif field.message_type.full_name == "google.protobuf.Value":
                plan[field.name] = (_REPEATED_VALUE if repeated else _VALUE, None)
            else:
                sub = message_factory.GetMessageClass(field.message_type)
                plan[field.name] = (_REPEATED_MESSAGE if repeated else _MESSAGE, sub)
        _PLANS[cls.DESCRIPTOR.full_name] = plan
    return plan


def build(cls: type[Message], data: Mapping[str, Any]) -> Message:
    """`cls` filled from plain JSON data whose keys are its field names; None = unset.

    The fast path of `json_format.ParseDict` for trusted engine data, and as strict: an
    unknown key or a value of the wrong type raises ValueError or TypeError.
    """
    plan = _plan(cls)
    kwargs = {}
    for key, value in data.items():
        if value is None:
            continue
        try:
            how, sub = plan[key]
        except KeyError:
            raise ValueError(f"{cls.DESCRIPTOR.full_name} has no field {key!r}") from None
        if how == _PLAIN:
            kwargs[key] = value
        elif how == _MESSAGE:
            kwargs[key] = build(sub, value)
        elif how == _REPEATED_MESSAGE:
            kwargs[key] = [build(sub, item) for item in value]
        elif how == _MESSAGE_MAP:
            kwargs[key] = {k: build(sub, v) for k, v in value.items()}
        elif how == _VALUE:
            kwargs[key] = _value(value)
        else:
            kwargs[key] = [_value(item) for item in value]
    return cls(**kwargs)


def _value(value: Any) -> struct_pb2.Value:
    """A scalar JSON value (or null) as a protobuf Value."""
    message = struct_pb2.Value()
    if value is None:
        message.null_value = struct_pb2.NULL_VALUE
    elif isinstance(value, bool):
        message.bool_value = value
    elif isinstance(value, int | float):
        message.number_value = value
    elif isinstance(value, str):
        message.string_value = value
    else:
        raise TypeError(f"not a scalar JSON value: {value!r}")
    return message


@dataclass(frozen=True)
class GameCodec:
    """The typed messages of one game and the `oneof` field name that carries them."""

    field: str
    observation: type[Message]
    payload: type[Message]
    board: type[Message]

    def observation_pb(self, view: Mapping[str, Any]) -> Message:
        return build(self.observation, view)

    def payload_pb(self, payload: Mapping[str, Any]) -> Message:
        return build(self.payload, payload)

    def board_pb(self, static_info: Mapping[str, Any]) -> Message:
        return build(self.board, static_info)


CODECS: dict[str, GameCodec] = {
    "jamaica": GameCodec(
        "jamaica",
        jamaica_pb2.JamaicaObservation,
        jamaica_pb2.JamaicaOptionPayload,
        jamaica_pb2.JamaicaTrack,
    ),
    "black_fleet": GameCodec(
        "black_fleet",
        black_fleet_pb2.BlackFleetObservation,
        black_fleet_pb2.BlackFleetOptionPayload,
        black_fleet_pb2.BlackFleetBoard,
    ),
}


def codec_for(game: str) -> GameCodec:
    try:
        return CODECS[game]
    except KeyError:
        raise ValueError(f"no wire codec for game {game!r}") from None


def options_to_pb(codec: GameCodec, options: Sequence[Option]) -> list[common_pb2.Option]:
    """The options of a request, each with its JSON and typed payload."""
    messages = []
    for index, option in enumerate(options):
        message = common_pb2.Option(index=index, key=option.key, label=option.label)
        if option.payload:
            message.data.update(option.payload)
            getattr(message, codec.field).CopyFrom(codec.payload_pb(option.payload))
        messages.append(message)
    return messages


def event_to_pb(event: Event, step: int) -> common_pb2.Event:
    return common_pb2.Event(kind=event.kind, data=struct(event.data), step=step,
                            audience=sorted(event.audience or ()))
