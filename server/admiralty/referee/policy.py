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
    CRASH = "crash"
    UNREACHABLE = "unreachable"
    ILLEGAL = "illegal"
    STALE = "stale"


def fallback_index(policy: FailurePolicy, request: Request, rng: random.Random) -> int:
    """The option the referee applies instead of a failed answer."""
    if policy is FailurePolicy.DEFAULT:
        return request.default
    return rng.randrange(len(request.options))
