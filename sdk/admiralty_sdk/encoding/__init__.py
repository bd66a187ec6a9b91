"""Fixed-shape numeric observations for learning agents, the same on both sides of the
wire: the research adapters encode a seat's view from the engine, a bot encodes the
`DecideRequest` it receives, and both get the same vector and action mask.

    from admiralty_sdk.encoding import RequestEncoder

    encoder = RequestEncoder("jamaica")          # one per match and seat
    vector, mask = encoder.encode(request)        # in the bot's decide(request)

Needs numpy (`pip install 'admiralty[encoding]'`). The layouts are documented in
docs/research.md ("Observation encoding").
"""

from __future__ import annotations

import numpy as np

from admiralty_sdk.encoding.encoder import (
    Encoder,
    encode,
    names,
    option_names,
    option_width,
    players_in,
    size,
    view_size,
)
from admiralty_sdk.encoding.fields import Field, Seating
from admiralty_sdk.encoding.layouts import (
    ACTION_BOUNDS,
    LAYOUTS,
    OPTIONS,
    VOCABULARIES,
    layout,
    payload_layout,
)
from admiralty_sdk.encoding.wire import WireOption, options_of, view_of
from admiralty_sdk.v1 import bot_pb2


class RequestEncoder:
    """A bot's encoder for one game: each `DecideRequest` as the vector and the action
    mask the research adapters give for the same decision."""

    def __init__(self, game: str):
        self.encoder = Encoder(game)

    def encode(self, request: bot_pb2.DecideRequest) -> tuple[np.ndarray, np.ndarray]:
        """Copies of the vector and the mask (int8, 1 for each option)."""
        vector = self.encoder.encode(view_of(request), request.kind, options_of(request))
        return vector.copy(), self.encoder.mask.copy()


def game_of(request: bot_pb2.DecideRequest) -> str | None:
    """The game a request is for: the name of its typed observation."""
    return request.WhichOneof("observation")


__all__ = [
    "ACTION_BOUNDS",
    "LAYOUTS",
    "OPTIONS",
    "VOCABULARIES",
    "Encoder",
    "Field",
    "RequestEncoder",
    "Seating",
    "WireOption",
    "encode",
    "game_of",
    "layout",
    "names",
    "option_names",
    "option_width",
    "options_of",
    "payload_layout",
    "players_in",
    "size",
    "view_of",
    "view_size",
]
