"""Engine objects <-> protobuf messages of admiralty.v1."""

from admiralty.wire.codec import (
    CODECS,
    GameCodec,
    codec_for,
    event_fields,
    event_to_pb,
    from_window_kind,
    option_fields,
    options_to_pb,
    struct,
    to_window_kind,
)

__all__ = [
    "CODECS",
    "GameCodec",
    "codec_for",
    "event_fields",
    "event_to_pb",
    "from_window_kind",
    "option_fields",
    "options_to_pb",
    "struct",
    "to_window_kind",
]
