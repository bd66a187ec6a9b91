"""Translate engine data (plain JSON) into the typed messages of admiralty.v1.

Each game's observation, option payload and board messages mirror the engine's
`view()`, option payload and `static_info()` field by field, so one generic codec
serves every game: `build` fills the typed message, strictly, so a field the engine
adds without a proto field fails the wire tests instead of vanishing silently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from google.protobuf import message_factory, struct_pb2
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message

from admiralty.games import Event, Option, Window
from admiralty_sdk.v1 import black_fleet_pb2, blackbeard_pb2, common_pb2, jamaica_pb2

if TYPE_CHECKING:
    from google._upb._message import Descriptor as UpbDescriptor

_WINDOW_KINDS = {
    Window.TURN: common_pb2.WINDOW_KIND_TURN,
    Window.INTERRUPT: common_pb2.WINDOW_KIND_INTERRUPT,
    Window.SEALED: common_pb2.WINDOW_KIND_SEALED,
    Window.SETUP: common_pb2.WINDOW_KIND_SETUP,
}
_WINDOWS: dict[int, Window] = {value: key for key, value in _WINDOW_KINDS.items()}


def to_window_kind(window: Window) -> common_pb2.WindowKind:
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


_MESSAGE, _REPEATED_MESSAGE, _MESSAGE_MAP, _VALUE, _REPEATED_VALUE = range(5)
_VALUE_TYPE = "google.protobuf.Value"
_SPECIAL: dict[str, dict[str, tuple[int, type[Message]]]] = {}


def _special(cls: type[Message]) -> dict[str, tuple[int, type[Message]]]:
    """The fields of `cls` whose data the constructor cannot take as it is, and the message
    class of each: those holding a `google.protobuf.Value` somewhere below them. Computed
    once per message type."""
    name = cls.DESCRIPTOR.full_name
    if name not in _SPECIAL:
        special: dict[str, tuple[int, type[Message]]] = {}
        for field in cls.DESCRIPTOR.fields:
            kind = field.message_type
            if kind is None:
                continue
            if kind.GetOptions().map_entry:
                kind = kind.fields_by_name["value"].message_type
                if kind is not None and _holds_value(kind):
                    special[field.name] = (_MESSAGE_MAP, _message_class(kind))
            elif kind.full_name == _VALUE_TYPE:
                special[field.name] = (
                    _REPEATED_VALUE if field.is_repeated else _VALUE,
                    struct_pb2.Value,
                )
            elif _holds_value(kind):
                special[field.name] = (
                    _REPEATED_MESSAGE if field.is_repeated else _MESSAGE,
                    _message_class(kind),
                )
        _SPECIAL[name] = special
    return _SPECIAL[name]


def _holds_value(descriptor: Descriptor | UpbDescriptor) -> bool:
    return descriptor.full_name == _VALUE_TYPE or bool(_special(_message_class(descriptor)))


def _message_class(descriptor: Descriptor | UpbDescriptor) -> type[Message]:
    """The class of `descriptor`'s messages. Protobuf's default backend (upb) describes every
    message with its own Descriptor, which GetMessageClass takes but its stub leaves out."""
    return message_factory.GetMessageClass(descriptor)  # type: ignore[arg-type]


def build(cls: type[Message], data: Mapping[str, Any]) -> Message:
    """`cls` filled from plain JSON data whose keys are its field names; None = unset.

    The message constructor takes nested dicts and lists itself (in C), and is as strict
    as `json_format.ParseDict`: an unknown key or a value of the wrong type raises
    ValueError or TypeError. Only `google.protobuf.Value` fields need converting first.
    """
    return cls(**fields(cls, data))


def fields(cls: type[Message], data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The keyword arguments that fill `cls` with `data` (see `build`): `data` itself,
    unless a field holds a `google.protobuf.Value` somewhere, which is converted."""
    special = _special(cls)
    if not special:
        return data
    kwargs = dict(data)
    for key, (how, sub) in special.items():
        value = kwargs.get(key)
        if value is None:
            continue
        if how == _VALUE:
            kwargs[key] = _value(value)
        elif how == _REPEATED_VALUE:
            kwargs[key] = [_value(item) for item in value]
        elif how == _MESSAGE:
            kwargs[key] = build(sub, value)
        elif how == _REPEATED_MESSAGE:
            kwargs[key] = [build(sub, item) for item in value]
        else:
            kwargs[key] = {k: build(sub, v) for k, v in value.items()}
    return kwargs


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
    "blackbeard": GameCodec(
        "blackbeard",
        blackbeard_pb2.BlackbeardObservation,
        blackbeard_pb2.BlackbeardOptionPayload,
        blackbeard_pb2.BlackbeardBoard,
    ),
}


def codec_for(game: str) -> GameCodec:
    try:
        return CODECS[game]
    except KeyError:
        raise ValueError(f"no wire codec for game {game!r}") from None


def options_to_pb(codec: GameCodec, options: Sequence[Option]) -> list[common_pb2.Option]:
    """The options of a request, each with its JSON and typed payload."""
    return [common_pb2.Option(**option) for option in option_fields(codec, options)]


def option_fields(codec: GameCodec, options: Sequence[Option]) -> list[dict[str, Any]]:
    """The options of a request as the keyword arguments of `Option` messages: a request
    built with these fills its options in place, at half the cost of building each
    `Option` and copying it in."""
    payload = codec.payload
    return [
        {
            "index": index,
            "key": option.key,
            "label": option.label,
            codec.field: fields(payload, option.payload),
        }
        if option.payload
        else {"index": index, "key": option.key, "label": option.label}
        for index, option in enumerate(options)
    ]


def event_to_pb(event: Event, step: int) -> common_pb2.Event:
    return common_pb2.Event(**event_fields(event, step))


def event_fields(event: Event, step: int, data: struct_pb2.Struct | None = None) -> dict[str, Any]:
    """The fields of the event's message, for a constructor or a repeated field's `add`;
    `data`, if given, is its data already as a Struct."""
    return {
        "kind": event.kind,
        "data": struct(event.data) if data is None else data,
        "step": step,
        "audience": sorted(event.audience or ()),
    }
