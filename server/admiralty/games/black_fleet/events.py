"""Events and requests, built cheaply, and the private/public twins of hidden facts.

A random playout makes thousands of events and requests, and a frozen dataclass's
checked `__init__` roughly doubles their cost, so `event` and `request` fill the
slots directly.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from admiralty.games.base import Event, Option, Request, Window

_SET_KIND, _SET_DATA, _SET_AUDIENCE = Event.kind.__set__, Event.data.__set__, Event.audience.__set__
_REQUEST_FIELDS = (
    "seat",
    "window_id",
    "window",
    "kind",
    "prompt",
    "options",
    "optional",
    "default",
)
_REQUEST_SETTERS = tuple(getattr(Request, name).__set__ for name in _REQUEST_FIELDS)
if set(_REQUEST_FIELDS) != set(Request.__slots__):  # a new field must be filled in `request`
    raise ImportError(f"Request fields changed: {Request.__slots__}")


def event(kind: str, data: dict[str, Any], audience: frozenset[int] | None = None) -> Event:
    """`Event(kind, data, audience)` without the dataclass machinery."""
    made = object.__new__(Event)
    _SET_KIND(made, kind)
    _SET_DATA(made, data)
    _SET_AUDIENCE(made, audience)
    return made


def request(
    seat: int,
    window_id: int,
    window: Window,
    kind: str,
    prompt: str,
    options: tuple[Option, ...],
    optional: bool,
) -> Request:
    """`Request(seat, window_id, window, kind, prompt, options, optional, 0)`, cheaply."""
    made = object.__new__(Request)
    s_seat, s_id, s_window, s_kind, s_prompt, s_options, s_optional, s_default = _REQUEST_SETTERS
    s_seat(made, seat)
    s_id(made, window_id)
    s_window(made, window)
    s_kind(made, kind)
    s_prompt(made, prompt)
    s_options(made, options)
    s_optional(made, optional)
    s_default(made, 0)
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
