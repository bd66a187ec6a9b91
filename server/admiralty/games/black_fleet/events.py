"""The private/public twins of hidden facts."""

from __future__ import annotations

from functools import cache
from typing import Any

from admiralty.games.base import Event, new_event


@cache
def only(seat: int) -> frozenset[int]:
    return frozenset((seat,))


def tell(
    events: list[Event], seat: int, kind: str, secret: dict[str, Any], public: dict[str, Any]
) -> None:
    """A hidden fact for `seat`, then its public twin of the same kind without the secret."""
    events.append(new_event(kind, secret, only(seat)))
    events.append(new_event(kind, public))
