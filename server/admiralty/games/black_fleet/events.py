"""Events, built cheaply, and the private/public twins of hidden facts.

A random playout makes thousands of events, and the frozen dataclass's checked
`__init__` roughly doubles their cost, so `event` fills the slots directly.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from admiralty.games.base import Event

_SET_KIND, _SET_DATA, _SET_AUDIENCE = Event.kind.__set__, Event.data.__set__, Event.audience.__set__


def event(kind: str, data: dict[str, Any], audience: frozenset[int] | None = None) -> Event:
    """`Event(kind, data, audience)` without the dataclass machinery."""
    made = object.__new__(Event)
    _SET_KIND(made, kind)
    _SET_DATA(made, data)
    _SET_AUDIENCE(made, audience)
    return made


@cache
def only(seat: int) -> frozenset[int]:
    return frozenset((seat,))


def tell(
    events: list[Event], seat: int, kind: str, secret: dict[str, Any], public: dict[str, Any]
) -> None:
    """A hidden fact for `seat`, then its public twin of the same kind without the secret."""
    events.append(event(kind, secret, only(seat)))
    events.append(event(kind, public))
