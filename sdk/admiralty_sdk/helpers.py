"""Small readers for decision requests, so bots can talk in keys and typed payloads."""

from __future__ import annotations

import hashlib

from google.protobuf.message import Message

from admiralty_sdk.v1 import bot_pb2, common_pb2


def observation(request: bot_pb2.DecideRequest) -> Message:
    """The typed observation of the request's game (e.g. a JamaicaObservation)."""
    field = request.WhichOneof("observation")
    if field is None:
        raise ValueError("the request carries no typed observation")
    return getattr(request, field)


def payload(option: common_pb2.Option) -> Message | None:
    """The typed payload of an option (e.g. a JamaicaOptionPayload), or None."""
    field = option.WhichOneof("typed")
    return getattr(option, field) if field else None


def keys(request: bot_pb2.DecideRequest) -> list[str]:
    """The option keys, in index order."""
    return [option.key for option in request.options]


def with_prefix(request: bot_pb2.DecideRequest, prefix: str) -> list[common_pb2.Option]:
    """The options whose key starts with `prefix`, e.g. "card:" or "loot:hold:"."""
    return [option for option in request.options if option.key.startswith(prefix)]


def index_of(request: bot_pb2.DecideRequest, key: str) -> int:
    """The index of the option with exactly this key; ValueError if there is none."""
    for option in request.options:
        if option.key == key:
            return option.index
    raise ValueError(f"no option {key!r}; options are {keys(request)}")


def seat_seed(request: bot_pb2.DecideRequest, salt: object = "") -> bytes:
    """A seed for a bot's own generator in one match and seat: from `salt` (the bot's own
    --seed, say), the seat and the seat's observation, on the seat's *first* request.

    Match ids are random, but a deal shows a seat the same first observation whoever sits
    where, so a bot seeded this way repeats its choices when a deal is replayed, and in
    every rotation of a duplicate deal it brings the seat the same luck of its own: the
    rotations then differ only in what the bots decide differently."""
    digest = hashlib.sha256(f"{salt}:{request.seat}:".encode())
    digest.update(observation(request).SerializeToString(deterministic=True))
    return digest.digest()
