"""What the referee does when a bot fails to give a legal answer in time."""

from __future__ import annotations

import enum
import random

from admiralty.games import Request


class FailurePolicy(enum.StrEnum):
    DEFAULT = "default"
    """Apply PASS, or the engine's designated default option."""
    RANDOM = "random"
    """Apply a seeded random legal option."""
    FORFEIT = "forfeit"
    """Random legal options from then on, and the seat is placed last."""


class IncidentKind(enum.StrEnum):
    TIMEOUT = "timeout"
    """No answer before the deadline (three in a row, or an empty time bank: hung)."""
    CRASH = "crash"
    """The bot's process died or the connection broke during a call, and the call asked
    again was not answered before the deadline."""
    UNREACHABLE = "unreachable"
    """The bot was never reached for this match (gone, or disqualified), or no connection
    to it could be made before a deadline."""
    ILLEGAL = "illegal"
    """The answer named no legal option, or the call returned an error."""
    STALE = "stale"
    """The answer echoed another request's id."""
    OVERSIZE = "oversize"
    """The answer exceeded the referee's size limits."""


def fallback_index(policy: FailurePolicy, request: Request, rng: random.Random) -> int:
    """The option the referee applies instead of a failed answer."""
    if policy is FailurePolicy.DEFAULT:
        return request.default
    return rng.randrange(len(request.options))
