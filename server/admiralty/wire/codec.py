"""Translate engine data (plain JSON) into the typed messages of admiralty.v1.

Each game's observation, option payload and board messages mirror the engine's
`view()`, option payload and `static_info()` field by field, so one generic codec
serves every game: `json_format.ParseDict` fills the typed message, strictly, so a
field the engine adds without a proto field fails the wire tests instead of
vanishing silently.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf import json_format, struct_pb2
from google.protobuf.message import Message

from admiralty.games import Event, Option, Window
from admiralty_sdk.v1 import common_pb2, jamaica_pb2

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


@dataclass(frozen=True)
class GameCodec:
    """The typed messages of one game and the `oneof` field name that carries them."""

    field: str
    observation: type[Message]
    payload: type[Message]
    board: type[Message]

    def observation_pb(self, view: Mapping[str, Any]) -> Message:
        return json_format.ParseDict(view, self.observation())

    def payload_pb(self, payload: Mapping[str, Any]) -> Message:
        return json_format.ParseDict(payload, self.payload())

    def board_pb(self, static_info: Mapping[str, Any]) -> Message:
        return json_format.ParseDict(static_info, self.board())


CODECS: dict[str, GameCodec] = {
    "jamaica": GameCodec(
        "jamaica",
        jamaica_pb2.JamaicaObservation,
        jamaica_pb2.JamaicaOptionPayload,
        jamaica_pb2.JamaicaTrack,
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


def event_to_pb(event: Event, step: int, text: str = "") -> common_pb2.Event:
    return common_pb2.Event(kind=event.kind, data=struct(event.data), text=text, step=step)


def events_to_pb(events: Iterable[tuple[int, Event]]) -> list[common_pb2.Event]:
    return [event_to_pb(event, step) for step, event in events]
