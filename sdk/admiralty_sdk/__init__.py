"""admiralty_sdk: what a bot author needs to play on an admiralty referee.

A bot is one class with a `decide(request) -> int` method, served by `serve(bot)`, or
dialing in to an arena with `connect(bot, address, key=...)`; `run(bot)` does either, as
the command line says.
"""

from admiralty_sdk.bot import Bot, bot_port, serve, start_server
from admiralty_sdk.connect import connect, run
from admiralty_sdk.helpers import (
    index_of,
    keys,
    observation,
    payload,
    seat_seed,
    with_prefix,
)

__all__ = [
    "Bot",
    "bot_port",
    "connect",
    "index_of",
    "keys",
    "observation",
    "payload",
    "run",
    "seat_seed",
    "serve",
    "start_server",
    "with_prefix",
]
